"""The browser side of the build, written into the docs tree MkDocs copies as it is:

* "calculator bundle and code packs" (``calculators_and_bundles``): the calculators package,
  compiled to Pyodide bytecode by the site's own Pyodide in Node; one code pack per calculator page
  (``assets/py/code.<name>.<hash>.pack``) and each page's slice of the calculator data bundle
  (``assets/data/calculator-bundle.<name>.<hash>.marshal`` and ``.json``; the query page's is the downloads' SQLite
  database, ``assets/data/benchmark-atlas.<hash>.sqlite``), named by their content
  (``hashed_name``) and listed in ``assets/py/manifest.json``; the whole bundle as
  ``assets/data/calculator-bundle.json`` (for the command line, not fetched by the pages); and one
  memory snapshot of Pyodide with every calculator imported and its data loaded
  (``assets/py/snapshot.<hash>.pack``, ``make_snapshot``), which the pages boot from;
* "browser assets" (``vendor``): Pyodide, Vega, vega-embed and tablesort copied from node_modules
  (never a CDN), vega-embed's stylesheet as a file and vega-interpreter as a classic script (so
  charts draw under a strict Content-Security-Policy).

Node.js runs three small scripts of tools/: ``compile_pyc.mjs``, ``make_snapshot.mjs`` and ``vega_css.mjs``.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from calculators import catalogue

from . import codepack
from .bundle import calculator_slice

ROOT = Path(__file__).resolve().parent.parent


def node_modules() -> Path:
    """The browser packages (``npm ci``): ROOT/node_modules, or the folder ATLAS_NODE_MODULES names (tests break it)."""
    return Path(os.environ.get("ATLAS_NODE_MODULES") or ROOT / "node_modules")


VENDOR = {
    "pyodide": ["pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm",
                "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"],
    "vega": ["vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js", "vega-embed/build/vega-embed.min.js"],
    "tablesort": ["tablesort/dist/tablesort.min.js"],
    "js-yaml": ["js-yaml/dist/browser/js-yaml.umd.min.js"],  # the "Your deployment" page reads kubectl's -o yaml with it
}
"""Files copied from node_modules into assets/vendor/<folder>/, per folder."""
INTERPRETER = "vega-interpreter/build/vega-interpreter.js"


STDLIB = "python_stdlib.zip"
"""Pyodide's standard library, which the site serves repacked (``stdlib_zip``), not as npm ships it."""


def stdlib_zip() -> bytes:
    """Pyodide's ``python_stdlib.zip`` (node_modules/pyodide) repacked with every entry *stored* instead of deflated:
    the same files in the same order, with the same names, times, attributes and bytes, so Python imports the same
    modules from it. Returns the zip's bytes (about 9.7 MB from 2.5 MB). Raises BuildError if npm's zip is missing or
    unreadable.

    Why: each member deflated on its own is 2.55 MB that no server can compress further, and it is 40 % of a first
    visit's bytes (tools/benchmark.py, per link). Stored, the whole zip compresses as one text: 1.59 MB as
    precompressed Brotli (``compress.BROTLI_QUALITY_FOR``), 2.21 MB as gzip -9 (measured with Node's zlib on
    Pyodide 314.0.7's zip), so every calculator page's first visit moves about 0.95 MB less where the server sends
    the ``.br`` (0.76 s at 10 Mbit/s), and 0.34 MB less with the ``.gz``. A server that compresses nothing sends
    9.7 MB instead of 2.5 MB (the Hosting page says to serve the precompressed files). Python reads a stored member
    without inflating it. The memory snapshot is made with these same bytes (``make_snapshot``): Python's zip
    importer keeps the zip's table of contents, with its offsets, in the heap the snapshot restores."""
    src = node_modules() / "pyodide" / STDLIB
    key = (str(src), *_stat_key(src))
    if _STDLIB_CACHE.get("key") == key:
        return _STDLIB_CACHE["bytes"]
    import io
    import zipfile
    out = io.BytesIO()
    try:
        with zipfile.ZipFile(src) as z, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as o:
            for info in z.infolist():
                copy = zipfile.ZipInfo(info.filename, info.date_time)
                copy.external_attr, copy.create_system, copy.compress_type = info.external_attr, info.create_system, zipfile.ZIP_STORED
                o.writestr(copy, z.read(info))
    except (OSError, zipfile.BadZipFile) as e:
        raise BuildError(f"{src} could not be read as a zip (run `npm ci`): {e}") from e
    _STDLIB_CACHE.update(key=key, bytes=out.getvalue())
    return _STDLIB_CACHE["bytes"]


_STDLIB_CACHE: dict = {}


def _stat_key(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError as e:
        raise BuildError(f"{path} is missing (run `npm ci`)") from e
    return st.st_size, st.st_mtime_ns


HASH_DIGITS = 12
"""Hex digits of SHA-256 in a content-hashed file name and in an asset's ``?v=`` version."""


def content_hash(data: bytes) -> str:
    """The first HASH_DIGITS hex digits of the SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()[:HASH_DIGITS]


def hashed_name(name: str, data: bytes) -> str:
    """``name`` with the content hash of ``data`` before its extension: ``code.footprint.pack`` ->
    ``code.footprint.3f2a9c0d1e4b.pack``. A file named so never changes: a new build that changes its
    bytes writes a new name, which the manifest names, so a cache can keep it for good and a page can
    never combine a cached old pack with a new manifest."""
    stem, dot, ext = name.rpartition(".")
    if not dot:
        raise ValueError(f"{name!r} has no extension")
    return f"{stem}.{content_hash(data)}.{ext}"


class AssetVersions:
    """The content version of the site's own files for the templates, ``config.extra.asset_hash``
    (set by ``pipeline.render`` and ``python -m atlas serve``): ``versions["assets/js/pyboot.js"]`` is
    ``content_hash`` of that file of the docs tree. overrides/partials/atlas-asset.html's ``asset(path)``
    gives a page the URL ``<path>?v=<hash>`` of each script and stylesheet of this site it loads
    (assets/js/, assets/css/, assets/vendor/), the calculator pages the worker's URL with its version
    and the version of assets/py/manifest.json, which the worker fetches as ``manifest.json?v=<hash>``.

    Why a version in the URL, not a hashed file name (as Material's prebuilt
    ``assets/javascripts/bundle.<hash>.min.js``, and the code packs and bundles, which only the
    manifest names): a browser caches by the whole URL, so a page never runs a cached copy of an
    older file either way, and the server may let browsers keep any ``?v=`` URL for good (Hosting
    page). But the scripts find one another by their paths (pyboot.js and calculator.js start
    assets/js/pyworker.mjs, material-base.js takes the site's root from its own URL, charts.js loads
    Vega from beside it), a boot failure names ``assets/js/pyworker.mjs``, and the Hosting page's
    MIME advice is by extension: with the paths kept, none of that changes, MkDocs copies the files
    as they are, and a page served from a stale cache after the site was replaced still gets its
    scripts (the server ignores the query) instead of a 404 for each.

    Hashed when first asked for, from the docs tree as it is then (kept while the file's size and
    mtime stay), so ``mkdocs serve`` re-rendering after the steps rewrote a file gets the new version.
    A path the docs tree lacks raises ValueError, which stops the render: Jinja would turn a
    LookupError into an empty version."""

    def __init__(self, docs_dir: Path):
        self.docs_dir = Path(docs_dir)
        self._seen: dict[str, tuple[int, int, str]] = {}

    def _file(self, rel: object) -> Path | None:
        """The file ``rel`` names inside the docs tree, or None (not a relative path to a file there)."""
        if not isinstance(rel, str) or not rel or rel.startswith("/") or ".." in Path(rel).parts:
            return None
        f = self.docs_dir / rel
        return f if f.is_file() else None

    def __getitem__(self, rel: str) -> str:
        f = self._file(rel)
        if f is None:
            raise ValueError(f"a template asks for the version of {rel!r}, which is not a file of the docs tree {self.docs_dir}")
        st = f.stat()
        seen = self._seen.get(rel)
        if not seen or seen[:2] != (st.st_size, st.st_mtime_ns):
            seen = self._seen[rel] = (st.st_size, st.st_mtime_ns, content_hash(f.read_bytes()))
        return seen[2]

    def __contains__(self, rel: object) -> bool:
        return self._file(rel) is not None

    def __repr__(self) -> str:
        return f"AssetVersions({str(self.docs_dir)!r})"


class BuildError(Exception):
    """A step of the build cannot go on (a package missing, Node failing); the message says what to do."""


def _node() -> str:
    node = shutil.which("node")
    if not node:
        raise BuildError("Node.js is needed to build the site (`npm ci` installs the browser packages with it)")
    return node


def compile_bytecode(py: Path, data: Path) -> dict:
    """Compile ``py``/calculators/*.py and the standard-library modules they import to bytecode
    with the site's own Pyodide, in Node (tools/compile_pyc.mjs): in the browser, unmarshalling
    costs about 8 ms where compiling the source cost 50 ms. Also writes each
    ``data``/calculator-bundle.<name>.json as .marshal (parsed in a third of json.loads' time).
    Returns the script's report (``files`` written, relative to ``py``; ``cache_tag``; ``needs``
    per calculator). Raises BuildError if Node is missing or the script fails."""
    node = _node()
    r = subprocess.run([node, str(ROOT / "tools" / "compile_pyc.mjs"), str(node_modules() / "pyodide"), str(py), str(data)],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise BuildError(f"Compiling the calculators to Pyodide bytecode failed: {r.stderr.strip()[-2000:]}")
    for f in [*py.rglob("*"), *data.glob("*.marshal")]:  # Node writes with its own umask
        if f.is_file():
            f.chmod(0o644)
    return json.loads(r.stdout)


SNAPSHOT_CACHE = ROOT / "build" / "snapshot-cache"
"""The newest memory snapshots made, each named by a hash of everything that goes into it (``make_snapshot``)."""
SNAPSHOTS_KEPT = 4
"""How many: the tests build sites of other data beside the usual one."""


def make_snapshot(path: list[str], files: list[tuple[str, Path]], bundles: dict[str, Path]) -> tuple[bytes, str]:
    """Pyodide's memory snapshot of the site's own Pyodide with the calculators imported and their data
    loaded, made in Node (tools/make_snapshot.mjs): ``files`` are ``(path under /atlas, file)`` pairs (the
    calculators, their bytecode, the standard-library modules of ``path``), ``bundles`` maps each
    calculator to its ``.marshal`` data; Python's standard library is the one the site serves (``stdlib_zip``). Returns (the snapshot's bytes, Pyodide's BUILD_ID in hex, which
    its header carries: a Pyodide of another build refuses it). A snapshot made before from the same inputs
    (SNAPSHOT_CACHE) is used again. Raises BuildError if Node or the script fails."""
    node = _node()
    stdlib = stdlib_zip()
    job = {"path": path, "files": [[rel, str(f)] for rel, f in files], "bundles": {n: str(f) for n, f in bundles.items()}}
    # Made again only when what goes into it changed: Pyodide's heap keeps about a hundred bytes that differ
    # from one run to the next (a ChaCha random state, a counter) whatever make_snapshot.mjs fixes, and
    # every build must write the same bytes (tests/test_links.py).
    key = hashlib.sha256(json.dumps({
        "script": content_hash((ROOT / "tools" / "make_snapshot.mjs").read_bytes()),
        "pyodide": {p: content_hash((node_modules() / p).read_bytes()) for p in VENDOR["pyodide"]},
        "stdlib": content_hash(stdlib),
        "path": path, "files": [[rel, content_hash(f.read_bytes())] for rel, f in files],
        "bundles": {n: content_hash(f.read_bytes()) for n, f in sorted(bundles.items())},
    }, sort_keys=True).encode()).hexdigest()
    cache = SNAPSHOT_CACHE / f"{key}.json"
    try:  # a build beside this one (the tests run several at once) may be pruning the cache: then it is made again
        blob = cache.with_suffix(".snap").read_bytes()
        meta = json.loads(cache.read_text(encoding="utf-8"))
        if len(blob) == meta["bytes"] and content_hash(blob) == meta["hash"]:
            return blob, meta["build_id"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "snapshot"
        # the standard library the site serves (stdlib_zip), not npm's: Python's zip importer keeps its offsets
        job["stdlib"] = str(Path(tmp) / STDLIB)
        Path(job["stdlib"]).write_bytes(stdlib)
        r = subprocess.run([node, str(ROOT / "tools" / "make_snapshot.mjs"), str(node_modules() / "pyodide"), str(out)],
                           input=json.dumps(job), capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise BuildError(f"Making Pyodide's memory snapshot failed: {r.stderr.strip()[-2000:]}")
        blob, build_id = out.read_bytes(), json.loads(r.stdout)["build_id"]
    try:  # the newest few; written under temporary names, then renamed (builds may run side by side)
        SNAPSHOT_CACHE.mkdir(parents=True, exist_ok=True)
        kept = sorted(SNAPSHOT_CACHE.glob("*.json"), key=lambda f: f.stat().st_mtime, reverse=True)[:SNAPSHOTS_KEPT - 1]
        keep = {f.stem for f in kept} | {key}
        for old in SNAPSHOT_CACHE.iterdir():
            # another build's files being written (``<key>.snap.<pid>``) are left to it for an hour
            writing = old.name.count(".") > 1 and time.time() - old.stat().st_mtime < 3600
            if old.name.split(".")[0] not in keep and not writing:
                old.unlink(missing_ok=True)
        tmp_snap, tmp_meta = cache.with_suffix(f".snap.{os.getpid()}"), cache.with_suffix(f".json.{os.getpid()}")
        tmp_snap.write_bytes(blob)
        tmp_meta.write_text(json.dumps({"bytes": len(blob), "hash": content_hash(blob), "build_id": build_id}), encoding="utf-8")
        tmp_snap.replace(cache.with_suffix(".snap"))
        tmp_meta.replace(cache)
    except OSError:
        pass  # a read-only checkout builds all the same, making the snapshot each time
    return blob, build_id


def vega_css() -> str:
    """The stylesheets vega-embed and vega-tooltip inject at run time, as one CSS text, from the
    installed packages (tools/vega_css.mjs): the site ships them as a file so that no <style>
    element is needed (style-src 'self'). Raises BuildError if Node or the script fails."""
    node = _node()
    r = subprocess.run([node, str(ROOT / "tools" / "vega_css.mjs"), str(node_modules())], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise BuildError(f"tools/vega_css.mjs failed: {r.stderr.strip()[-2000:]}")
    return r.stdout


def interpreter_script(source: str) -> str:
    """vega-interpreter's ES module as a classic script: the 'vega-util' import is read
    from the global ``vega`` (vega.min.js re-exports vega-util), the export becomes
    ``window.vegaInterpreter``."""
    imp = re.search(r"^import \{([^}]*)\} from 'vega-util';\s*$", source, re.M)
    exp = re.search(r"^export \{ expression as expressionInterpreter \};\s*$", source, re.M)
    if not imp or not exp or source.count("import ") != 1:
        raise RuntimeError("vega-interpreter's module layout changed: update atlas/assets.py interpreter_script")
    names = [n.strip() for n in imp.group(1).split(",") if n.strip()]
    head = "".join(f"var {n} = vega.{n};\n" for n in names)
    body = source[:imp.start()] + source[imp.end():exp.start()] + source[exp.end():]
    return ("/* vega-interpreter (BSD-3-Clause), rewritten at build time as a classic script. */\n(function (vega) {\n'use strict';\n"
            + head + body + "\nwindow.vegaInterpreter = { expressionInterpreter: expression };\n})(window.vega);\n")




REPORT_PACKAGES = ("reportxlsx", "xlsxwriter")
"""Packages of the report pack besides calculators/report.py: the XLSX writer (ROOT/reportxlsx) and XlsxWriter
as installed (requirements.lock), loaded by the worker only when the reader asks for an XLSX."""


def report_pack_sources() -> list[tuple[str, Path]]:
    """The report pack's source files: ``(path in the pack, file)``, calculators/report.py first, then every .py of
    REPORT_PACKAGES (from where Python imports them). Raises BuildError if one is not installed."""
    import importlib.util
    out = [("calculators/report.py", ROOT / "calculators" / "report.py")]
    for name in REPORT_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise BuildError(f"the package {name} is not installed (tools/setup.sh installs requirements.lock)")
        top = Path(list(spec.submodule_search_locations)[0])
        out += [(f"{name}/{f.relative_to(top).as_posix()}", f) for f in sorted(top.rglob("*.py")) if "__pycache__" not in f.parts]
    return out


FETCHED_CORE = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""Pyodide's files that the calculator worker fetches with ``fetch`` (the lock file itself, the WebAssembly and the
standard library through Pyodide), and so can verify against ``digests``. Its two JavaScript modules
(pyodide.mjs, pyodide.asm.mjs) are loaded with ``import()``, whose bytes a worker cannot see: they are checked
by size and type only (the worker's HEAD requests), and the snapshot's header carries the build id of the
pyodide.asm.mjs it was made with."""


def file_digest(data: bytes) -> dict:
    """``{"bytes": size in bytes, "sha256": 64 hex digits}`` of ``data``: what the worker checks a fetched file against."""
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def fetched_digests(manifest: dict, folders: dict[str, Path]) -> dict[str, dict]:
    """The size and full SHA-256 (``file_digest``) of every file the calculator worker fetches, by its path under the
    site root: each page's code pack and data bundle (``.marshal`` and ``.json``, or the one data file of a FILE_BUNDLES calculator), the report pack and the memory
    snapshot that ``manifest`` names, read from ``folders`` (``{"assets/py": folder, "assets/data": folder}``, where
    they are being written), and Pyodide's FETCHED_CORE files as ``vendor`` writes them (from node_modules, the standard library repacked by
    ``stdlib_zip``).

    Why in the manifest, and the manifest checked by the page: a content-hashed name carries only the first
    HASH_DIGITS (12) hex digits of a file's SHA-256 and is never checked by the browser, so a stale proxy or a
    half-replaced deployment serving other bytes under the same name went unnoticed. The worker
    now checks every byte it fetches against these full digests before using it (docs/assets/js/pyworker.mjs,
    ``fetchVerified``). The digests cannot be in the calculator pages themselves: the pages are written (step 3)
    while this step makes the files, and each page would carry a copy. The page names the manifest instead, by
    the first 12 hex digits of its SHA-256 (``data-manifest``, from ``AssetVersions``), which the worker checks
    too: page, then manifest, then every file. Twelve digits are enough against accident: another manifest starts
    with the same ones once in 2**48. Against a forger they would not be, but no hash can be: whoever can change
    the files the server sends can change the page that names them (that is HTTPS's part). A new build still never
    shares a file name with an old one: the names stay content-hashed, and the digests only add what a name leaves
    out. Raises OSError if a file is missing."""
    out = {}

    def add(folder: str, name: str) -> None:
        out[f"{folder}/{name}"] = file_digest((folders[folder] / name).read_bytes())
    for entry in [*manifest["packs"].values(), manifest["report"]]:
        add("assets/py", entry["pack"])
    for entry in manifest["bundles"].values():
        if "file" in entry:  # a calculator whose data is one file of the site (catalogue.FILE_BUNDLES)
            add("assets/data", entry["file"])
            continue
        add("assets/data", entry["marshal"])
        add("assets/data", entry["json"])
    add("assets/py", manifest["snapshot"]["file"])
    for name in FETCHED_CORE:
        out[f"assets/vendor/pyodide/{name}"] = file_digest(stdlib_zip() if name == STDLIB else (node_modules() / "pyodide" / name).read_bytes())
    return dict(sorted(out.items()))


def _cached(rel: str, tag: str) -> str:
    """The bytecode file compile_pyc.mjs writes for source ``rel``: ``dir/__pycache__/name.<tag>.pyc``."""
    head, _, name = rel.rpartition("/")
    return f"{head}/__pycache__/{name[:-3]}.{tag}.pyc"


def calculators_and_bundles(bundle: dict, docs_dir: Path, sources: Path | None = None,
                            data_files: dict[str, tuple[str, object]] | None = None) -> list[str]:
    """Write the calculators package, its bytecode, one code pack per calculator page and the data bundles
    under ``docs_dir``/assets/ (see the module docstring). ``sources``: the calculators' folder (default
    ROOT/calculators). ``data_files``: for each calculator of ``catalogue.FILE_BUNDLES``, (file name, its bytes or a
    function of no arguments giving them), e.g. the query page's ("benchmark-atlas.sqlite", the downloads' database),
    written as ``assets/data/<name>.<hash>.<ext>`` and named in the manifest as ``bundles[calc]["file"]``; those
    calculators are not in the memory snapshot. Returns the files written, relative to ``docs_dir``. Raises BuildError
    if Node or the bytecode compile fails or a FILE_BUNDLES calculator has no data file, ValueError if the bundle lacks
    a key a calculator reads.

    ``assets/py/manifest.json`` names, per calculator, its code pack (``packs``: the file name and the
    ``[path, offset, length]`` of each file in it) and its data bundle (``bundles``: the ``.marshal`` and
    ``.json`` file names), every one content-hashed; ``report`` (the report pack, loaded when the reader asks
    for an XLSX: calculators/report.py, reportxlsx and XlsxWriter, sources and bytecode); also ``path`` (folders put first on sys.path),
    ``cache_tag``, ``core`` (the byte size of each Pyodide core file), ``snapshot`` (``file``, its
    ``bytes``, Pyodide's ``build_id`` it was made with, the ``calculators`` it holds) and ``digests`` (the size
    and full SHA-256 of every file the worker fetches: ``fetched_digests``)."""
    nm = node_modules()
    assets = Path(docs_dir) / "assets"
    py, data = assets / "py", assets / "data"
    with tempfile.TemporaryDirectory(dir=assets.parent if assets.parent.exists() else None) as tmp:
        tpy, tdata = Path(tmp) / "py", Path(tmp) / "data"
        (tpy / "calculators").mkdir(parents=True)
        tdata.mkdir()
        for src in sorted(Path(sources or ROOT / "calculators").glob("*.py")):
            if src.name != "__main__.py":
                shutil.copyfile(src, tpy / "calculators" / src.name)
        report_sources = report_pack_sources()
        for rel, src in report_sources:
            (tpy / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, tpy / rel)
        (tdata / "calculator-bundle.json").write_text(json.dumps(bundle, separators=(",", ":")), encoding="utf-8")
        # Each calculator page loads only the keys its calculator reads (calculators.catalogue.CATALOGUE):
        # the footprint page parses 0.9 MB instead of 1.2 MB, the DSR and ShCM pages a few KB.
        for name in catalogue.CATALOGUE:
            if name in catalogue.FILE_BUNDLES:
                continue  # its data is a file of its own (data_files), below
            part = calculator_slice(bundle, name)
            (tdata / f"calculator-bundle.{name}.json").write_text(json.dumps(part, separators=(",", ":")), encoding="utf-8")
        compiled = compile_bytecode(tpy, tdata)
        # One pack per calculator page, with just what its calculator imports. "core": the byte size of each
        # Pyodide file, which the worker checks (HEAD) before booting so that a truncated or half-copied file
        # is named at once instead of hanging the boot.
        core = {Path(p).name: (len(stdlib_zip()) if Path(p).name == STDLIB else (nm / p).stat().st_size)
                for p in VENDOR["pyodide"] if (nm / p).exists()}
        manifest = {"packs": {}, "bundles": {}, "path": ["lib"], "cache_tag": compiled["cache_tag"], "core": core}
        for name, rels in compiled["needs"].items():
            index, blob = codepack.pack([(rel, (tpy / rel).read_bytes()) for rel in rels])
            pack = hashed_name(f"code.{name}.pack", blob)
            (tpy / pack).write_bytes(blob)
            manifest["packs"][name] = {"pack": pack, "files": index}
        # The report pack: what the worker loads when the reader first asks for an XLSX (never at boot).
        rels = [r for rel, _ in report_sources for r in (rel, _cached(rel, compiled["cache_tag"]))]
        missing = [r for r in rels if not (tpy / r).is_file()]
        if missing:
            raise BuildError(f"tools/compile_pyc.mjs wrote no bytecode for {', '.join(missing[:5])}")
        index, blob = codepack.pack([(rel, (tpy / rel).read_bytes()) for rel in rels])
        pack = hashed_name("code.report.pack", blob)
        (tpy / pack).write_bytes(blob)
        manifest["report"] = {"pack": pack, "files": index}
        for name in REPORT_PACKAGES:  # only the pack is served: no loose copies of XlsxWriter in the site
            shutil.rmtree(tpy / name)
        # Each page's slice of the bundle under its content-hashed names (the whole bundle keeps its name:
        # no page fetches it).
        for name in catalogue.CATALOGUE:
            if name in catalogue.FILE_BUNDLES:
                if name not in (data_files or {}):
                    raise BuildError(f"the {name} calculator reads a data file of its own, and the build gave none (data_files)")
                fname, content = data_files[name]
                content = content() if callable(content) else content
                hashed = hashed_name(fname, content)
                (tdata / hashed).write_bytes(content)
                manifest["bundles"][name] = {"file": hashed}
                continue
            manifest["bundles"][name] = {}
            for ext in ("marshal", "json"):
                f = tdata / f"calculator-bundle.{name}.{ext}"
                if not f.is_file():
                    raise BuildError(f"tools/compile_pyc.mjs wrote no {f.name}")
                hashed = hashed_name(f.name, f.read_bytes())
                f.rename(tdata / hashed)
                manifest["bundles"][name][ext] = hashed
        # One memory snapshot for every calculator page: Python booted with all of them imported and their
        # data loaded (the worker boots from it, and falls back to the files above on any error).
        in_snapshot = [name for name in catalogue.CATALOGUE if name not in catalogue.FILE_BUNDLES]
        rels = sorted({rel for name in in_snapshot for rel in compiled["needs"][name]})
        blob, build_id = make_snapshot(manifest["path"], [(rel, tpy / rel) for rel in rels],
                                       {name: tdata / manifest["bundles"][name]["marshal"] for name in in_snapshot})
        snap = hashed_name("snapshot.pack", blob)
        (tpy / snap).write_bytes(blob)
        manifest["snapshot"] = {"file": snap, "bytes": len(blob), "build_id": build_id, "calculators": sorted(in_snapshot)}
        manifest["digests"] = fetched_digests(manifest, {"assets/py": tpy, "assets/data": tdata})
        (tpy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        for dest in (py, data):
            shutil.rmtree(dest, ignore_errors=True)
        assets.mkdir(parents=True, exist_ok=True)
        shutil.move(str(tpy), py)
        shutil.move(str(tdata), data)
    return sorted(f.relative_to(docs_dir).as_posix() for d in (py, data) for f in d.rglob("*") if f.is_file())


def vendor(docs_dir: Path) -> list[str]:
    """Copy the browser packages (VENDOR) from node_modules into ``docs_dir``/assets/vendor/, and write
    vega-embed's stylesheet and vega-interpreter as a classic script. Returns the files written, relative to
    ``docs_dir``. Raises BuildError naming every missing file (run `npm ci`)."""
    nm = node_modules()
    missing = [p for files in VENDOR.values() for p in [*files, *([INTERPRETER] if files is VENDOR["vega"] else [])]
               if not (nm / p).exists()]
    if missing:
        raise BuildError(f"missing from {nm} (run `npm ci`): " + ", ".join(missing))
    out = []
    for folder, files in VENDOR.items():
        dest = Path(docs_dir) / "assets" / "vendor" / folder
        dest.mkdir(parents=True, exist_ok=True)
        for p in files:
            target = dest / Path(p).name
            src = nm / p
            if p == f"pyodide/{STDLIB}":
                data = stdlib_zip()
                if not (target.is_file() and target.stat().st_size == len(data) and target.read_bytes() == data):
                    target.write_bytes(data)
                out.append(target)
                continue
            if not (target.is_file() and target.stat().st_size == src.stat().st_size
                    and target.stat().st_mtime_ns == src.stat().st_mtime_ns):
                shutil.copy2(src, target)
            out.append(target)
    vega = Path(docs_dir) / "assets" / "vendor" / "vega"
    (vega / "vega-embed.css").write_text(vega_css(), encoding="utf-8")
    (vega / "vega-interpreter.js").write_text(interpreter_script((nm / INTERPRETER).read_text(encoding="utf-8")), encoding="utf-8")
    out += [vega / "vega-embed.css", vega / "vega-interpreter.js"]
    return [f.relative_to(docs_dir).as_posix() for f in out]
