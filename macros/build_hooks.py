"""MkDocs hooks: validate data/ before anything renders, then publish the
browser assets into the built site (never committed, never from a CDN).

* on_config: load and validate data/; a broken row stops the build with a
  message naming file, row and column.
* on_post_build: copy Pyodide and Vega from node_modules, the calculators
  package, and the calculator data bundle into site_dir/assets/.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from macros import codepack, extensions, state  # noqa: E402
from macros.bundle import calculator_slice  # noqa: E402
from macros.datastore import DataError  # noqa: E402

NODE = ROOT / "node_modules"
VENDOR = {
    "pyodide": ["pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm",
                "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"],
    "vega": ["vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js", "vega-embed/build/vega-embed.min.js"],
    "tablesort": ["tablesort/dist/tablesort.min.js"],
}


from mkdocs.plugins import event_priority  # noqa: E402


@event_priority(100)  # before mkdocs-macros loads the data, so bad data gives the one-line message below
def on_config(config, **kwargs):
    state.reset()
    try:
        state.renderer()
    except DataError as e:
        raise PluginError(f"Invalid data: {e}") from None
    return config


def compile_bytecode(py: Path, data: Path) -> dict:
    """Compile ``py``/calculators/*.py and the standard-library modules they import to bytecode
    with the site's own Pyodide, in Node (tools/compile_pyc.mjs): in the browser, unmarshalling
    costs about 8 ms where compiling the source cost 50 ms. Also writes each
    ``data``/calculator-bundle.<name>.json as .marshal (parsed in a third of json.loads' time).
    Returns the script's report (``files`` written, relative to ``py``; ``cache_tag``; ``needs``
    per calculator). Raises PluginError if Node is missing or the script fails."""
    node = shutil.which("node")
    if not node:
        raise PluginError("Node.js is needed to build the site (`npm ci` installs the browser packages with it)")
    r = subprocess.run([node, str(ROOT / "tools" / "compile_pyc.mjs"), str(NODE / "pyodide"), str(py), str(data)],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise PluginError(f"Compiling the calculators to Pyodide bytecode failed: {r.stderr.strip()[-2000:]}")
    for f in [*py.rglob("*"), *data.glob("*.marshal")]:  # Node writes with its own umask
        if f.is_file():
            f.chmod(0o644)
    return json.loads(r.stdout)


def on_post_build(config, **kwargs):
    site = Path(config["site_dir"])
    missing = [p for files in VENDOR.values() for p in files if not (NODE / p).exists()]
    if missing:
        raise PluginError("Browser packages missing from node_modules (run `npm ci`): " + ", ".join(missing))
    for folder, files in VENDOR.items():
        dest = site / "assets" / "vendor" / folder
        dest.mkdir(parents=True, exist_ok=True)
        for p in files:
            shutil.copyfile(NODE / p, dest / Path(p).name)
    py = site / "assets" / "py"
    if py.exists():
        shutil.rmtree(py)
    (py / "calculators").mkdir(parents=True)
    for src in sorted((ROOT / "calculators").glob("*.py")):
        if src.name != "__main__.py":
            shutil.copyfile(src, py / "calculators" / src.name)
    data = site / "assets" / "data"
    data.mkdir(parents=True, exist_ok=True)
    bundle = state.renderer().bundle
    (data / "calculator-bundle.json").write_text(json.dumps(bundle, separators=(",", ":")), encoding="utf-8")
    # Each calculator page loads only the keys its calculator reads (calculators.web.CATALOGUE):
    # the footprint page parses 0.9 MB instead of 1.2 MB, the DSR and ShCM pages a few KB.
    from calculators import web
    for name in web.CATALOGUE:
        try:
            part = calculator_slice(bundle, name)
        except ValueError as e:
            raise PluginError(str(e)) from None
        (data / f"calculator-bundle.{name}.json").write_text(json.dumps(part, separators=(",", ":")), encoding="utf-8")
    compiled = compile_bytecode(py, data)
    # One pack per calculator page, with just what its calculator imports.
    # "core": the byte size of each Pyodide file, which the worker checks (HEAD) before booting so
    # that a truncated or half-copied file is named at once instead of hanging the boot.
    core = {Path(p).name: (NODE / p).stat().st_size for p in VENDOR["pyodide"]}
    manifest = {"packs": {}, "path": ["lib"], "cache_tag": compiled["cache_tag"], "core": core}
    for name, rels in compiled["needs"].items():
        index, blob = codepack.pack([(rel, (py / rel).read_bytes()) for rel in rels])
        (py / f"code.{name}.pack").write_bytes(blob)
        manifest["packs"][name] = {"pack": f"code.{name}.pack", "files": index}
    (py / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    for _, fn in extensions.each("post_build"):
        fn(config, state.renderer(), site)
