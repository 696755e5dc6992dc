"""Build step 11, **compress**: ``<file>.gz`` and ``<file>.br`` beside every file of the rendered site that
compresses well and is large enough to gain from it, so that a server can send the smaller one to
browsers that accept it without compressing on every request (docs/about/hosting.md).

Runs on the site MkDocs rendered into its temporary folder (pages and Material's search index included),
before it replaces the site: a failure leaves the previous site as it was. The work is done in Node
(tools/precompress.mjs: Python's standard library has no Brotli; Node's zlib has it and compresses the
files in parallel on its thread pool). The same file gives the same bytes on every build."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .assets import ROOT, BuildError, _node

SUFFIXES = frozenset({".html", ".js", ".mjs", ".css", ".json", ".svg", ".xml", ".txt", ".csv", ".map",
                      ".wasm", ".pack", ".marshal", ".py", ".pyc", ".sqlite"})
"""What is compressed: text, WebAssembly, and the code packs and data bundles (bytecode and marshalled data,
a third and a fifteenth of their size), and the SQLite download (a sixth). Not the XLSX workbook or the datasets'
zip (already compressed: 3 % smaller), nor images; of the zips only ALSO."""
STDLIB_ZIP = "assets/vendor/pyodide/python_stdlib.zip"
"""Python's standard library in the site (atlas.assets.stdlib_zip writes it stored, not deflated)."""
ALSO = frozenset({STDLIB_ZIP})
"""Files compressed whatever their suffix: Python's standard library, which the build stores uncompressed so that it
compresses as one text (atlas.assets.stdlib_zip: 9.7 MB, 1.59 MB as Brotli at quality 11)."""
BROTLI_QUALITY_FOR = {STDLIB_ZIP: 11}
"""Files compressed at another Brotli quality than BROTLI_QUALITY. The standard library is the same on every build
of one Pyodide, so the 16 s that quality 11 takes (on this machine, one core) are paid once per checkout (CACHE): it
gives 1.59 MB against 1.90 MB at quality 5 (measured with Node's zlib on Pyodide 314.0.7's zip, stored)."""
MIN_BYTES = 1024
"""Smaller files are sent as they are: the saving is less than a packet."""
BROTLI_QUALITY = 5
"""Brotli's quality (0-11). 5 compresses the site's 40 MB in about 1.2 s of CPU and already beats gzip -9
(pyodide.asm.wasm: 3.28 MB against gzip's 3.59 MB); 11 saves another 0.5 MB there but takes about 170 s."""


CACHE = ROOT / "build" / "compress-cache"
"""Compressed bytes of files compressed by earlier builds, by content (tools/precompress.mjs): a file whose bytes did
not change since (the memory snapshot, Pyodide, most pages) is copied, not compressed again. At most about 300 MB."""


def candidates(site: Path) -> list[str]:
    """The files of ``site`` to precompress (paths relative to it, sorted): a suffix of SUFFIXES or a path of ALSO, at
    least MIN_BYTES, and not itself a .gz or .br."""
    return sorted(rel for f in site.rglob("*") if f.is_file()
                  for rel in [f.relative_to(site).as_posix()]
                  if (f.suffix in SUFFIXES or rel in ALSO) and f.stat().st_size >= MIN_BYTES)


def precompress(site: Path, cache: Path | None = CACHE) -> dict:
    """Write ``<file>.gz`` (gzip -9) and ``<file>.br`` (Brotli, BROTLI_QUALITY) beside each of
    ``candidates(site)``, from ``cache`` (default CACHE; None: none) where the same bytes were compressed before. Returns tools/precompress.mjs's
    report (``files``, the ``raw``, ``gz`` and ``br`` bytes in total, and ``cached``: files taken from ``cache``). Raises BuildError if Node is missing or the script fails."""
    names = candidates(site)
    r = subprocess.run([_node(), str(ROOT / "tools" / "precompress.mjs"), str(site), str(BROTLI_QUALITY)] + ([str(cache)] if cache else []),
                       input="".join(f"{n}\t{BROTLI_QUALITY_FOR[n]}\n" if n in BROTLI_QUALITY_FOR else f"{n}\n" for n in names),
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise BuildError(f"tools/precompress.mjs failed: {r.stderr.strip()[-2000:]}")
    return json.loads(r.stdout)
