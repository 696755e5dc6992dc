"""Offline use after one visit: the site's service worker and the page script that registers it (``sw/``).

* "browser assets" (``page_script``): ``sw/register.mjs`` (the browser's own service worker API) bundled into the docs tree as
  ``assets/js/offline.js``, which every page loads (overrides/main.html); it registers the worker only in a build
  (``mkdocs_extra`` sets ``service_worker``), and under ``make serve`` removes one an earlier build left;
* "service worker" (``write_service_worker``), after the pages are final and before they are compressed:
  ``sw.js`` at the site's root, ``sw/service-worker.mjs`` bundled with Workbox's routing, strategies and core, with
  the build written into it (``build_manifest``): its id and the SHA-256 of every file not named by its content, so
  that the worker keeps a file only when its bytes are this build's, in the cache of this build only.

Both are bundled by esbuild in Node (``tools/bundle_sw.mjs``) from the Workbox packages of package-lock.json: the
site serves them itself, never from a CDN.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

from .assets import BuildError, _node, node_modules

ROOT = Path(__file__).resolve().parent.parent
PAGE_SCRIPT = "assets/js/offline.js"
"""Where the page script goes in the docs tree (and so in the site)."""
WORKER = "sw.js"
"""The service worker, at the site's root: its scope is then the whole site, under any sub-path."""
HASHED_NAME = re.compile(r"\.[0-9a-f]{8,64}\.[^/]*$")
"""A file named by its content (``code.footprint.ffe51546bf3b.pack``, ``bundle.0123abcd.min.js``): the worker keeps it
by name (cache first). The same pattern is in sw/service-worker.mjs."""
REVISION_DIGITS = 16
"""Hex digits of a file's SHA-256 the worker compares (64 bits: two builds' bytes never share them by chance)."""
COMPRESSED = (".gz", ".br")


def _bundle(*args: str) -> None:
    r = subprocess.run([_node(), str(ROOT / "tools" / "bundle_sw.mjs"), *args], cwd=ROOT, capture_output=True,
                       text=True, env=dict(os.environ, NODE_PATH=str(node_modules())))
    if r.returncode != 0:
        raise BuildError(f"tools/bundle_sw.mjs {args[0]} failed (run `npm ci` if a workbox package is missing): "
                         f"{(r.stderr or r.stdout).strip()}")


def page_script(docs_dir: Path) -> str:
    """Bundle sw/register.mjs into ``docs_dir``/PAGE_SCRIPT. Returns that path (relative to
    ``docs_dir``). Raises BuildError with esbuild's message."""
    out = Path(docs_dir) / PAGE_SCRIPT
    out.parent.mkdir(parents=True, exist_ok=True)
    _bundle("page", str(out))
    return PAGE_SCRIPT


def build_manifest(site_dir: Path) -> dict:
    """The build as the worker knows it: ``{"id": str, "files": {path: revision}}``. ``files``: every file of
    ``site_dir`` not named by its content (HASHED_NAME), but for sw.js and the precompressed copies (.gz, .br), by its
    path under the site (``products/bsf/index.html``) with the first REVISION_DIGITS hex digits of its SHA-256;
    ``id``: the first 16 hex digits of the SHA-256 of ``files`` as sorted JSON. Files named by their content are
    named by the pages and the code manifest, which are in ``files``: any change of any file changes the id."""
    site = Path(site_dir)
    files = {}
    for p in sorted(site.rglob("*")):
        rel = p.relative_to(site).as_posix()
        if not p.is_file() or rel == WORKER or rel.endswith(COMPRESSED) or HASHED_NAME.search(rel):
            continue
        files[rel] = hashlib.sha256(p.read_bytes()).hexdigest()[:REVISION_DIGITS]
    blob = json.dumps(files, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return {"id": hashlib.sha256(blob).hexdigest()[:16], "files": files}


def write_service_worker(site_dir: Path) -> dict:
    """Write ``site_dir``/sw.js: sw/service-worker.mjs bundled with the build's manifest (``build_manifest``) written
    in. Returns the manifest. Raises BuildError with esbuild's message."""
    manifest = build_manifest(site_dir)
    with tempfile.TemporaryDirectory(prefix="atlas-sw-") as tmp:
        build = Path(tmp) / "build.json"
        build.write_text(json.dumps(manifest, sort_keys=True, separators=(",", ":")), encoding="utf-8")
        _bundle("worker", str(Path(site_dir) / WORKER), str(build))
    return manifest
