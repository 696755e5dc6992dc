"""MkDocs hooks: validate data/ before anything renders, then publish the
browser assets into the built site (never committed, never from a CDN).

* on_config: load and validate data/; a broken row stops the build with a
  message naming file, row and column. A `mkdocs build` writes into a
  temporary folder beside site_dir (see ``swap_into_place``).
* on_post_build: copy Pyodide and Vega from node_modules, the calculators
  package, and the calculator data bundle into site_dir/assets/; a failing
  step is named.
* on_shutdown: a build that finished (strict checks included) replaces
  site_dir; one that failed leaves the previous site as it was.
"""
from __future__ import annotations

import contextlib
import json
import os
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

NODE = Path(os.environ.get("ATLAS_NODE_MODULES") or ROOT / "node_modules")
"""The browser packages (``npm ci``); ATLAS_NODE_MODULES names another folder (tests break it)."""
VENDOR = {
    "pyodide": ["pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm",
                "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"],
    "vega": ["vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js", "vega-embed/build/vega-embed.min.js"],
    "tablesort": ["tablesort/dist/tablesort.min.js"],
}


from mkdocs.plugins import event_priority  # noqa: E402


# --- a build never leaves half a site ------------------------------------------------------------
# MkDocs empties site_dir before writing; a step failing after that (a package missing from
# node_modules, the bytecode compile) used to leave a site without Pyodide, bundles or downloads
# and the previous good one gone. `mkdocs build` now writes into BUILD["tmp"] and only a finished
# build is moved into place. `mkdocs serve` builds into its own throw-away folder as before.
BUILD: dict = {"command": None, "final": None, "tmp": None, "ok": False}


def swap_into_place(tmp: Path, final: Path) -> None:
    """Make the finished build ``tmp`` the site at ``final``: the old site is renamed aside, ``tmp``
    renamed to ``final``, then the old one deleted. Both are folders on one filesystem (``tmp`` is
    made beside ``final``), so each rename is atomic and a reader sees either site whole, never a
    mixture. Raises OSError if a rename fails (the old site is then put back)."""
    old = final.with_name(f".{final.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if final.exists():
        os.replace(final, old)
    try:
        os.replace(tmp, final)
    except OSError:
        if old.exists():
            os.replace(old, final)
        raise
    shutil.rmtree(old, ignore_errors=True)


def on_startup(command, **kwargs):
    BUILD.update(command=command, final=None, tmp=None, ok=False)


@contextlib.contextmanager
def step(name: str):
    """Name the build step running: any error inside becomes PluginError("Build step '<name>'
    failed: ...; the previous site ... is unchanged")."""
    try:
        yield
    except Exception as e:  # noqa: BLE001 - every failure is reported with its step
        kept = f"; the previous site in {BUILD['final']} is unchanged" if BUILD["tmp"] else ""
        detail = str(e) if isinstance(e, PluginError) else f"{type(e).__name__}: {e}"
        raise PluginError(f"Build step '{name}' failed: {detail}{kept}") from None


@event_priority(100)  # before mkdocs-macros loads the data, so bad data gives the one-line message below
def on_config(config, **kwargs):
    state.reset()
    try:
        state.renderer()
    except DataError as e:
        raise PluginError(f"Invalid data: {e}") from None
    if BUILD["command"] == "build":
        final = Path(config["site_dir"]).resolve()
        tmp = final.with_name(f".{final.name}.building")
        shutil.rmtree(tmp, ignore_errors=True)  # left by a build that was killed
        BUILD.update(final=final, tmp=tmp, ok=False)
        config["site_dir"] = str(tmp)
    return config


def on_build_error(error, **kwargs):
    """Any failure, including strict mode's abort for warnings after post_build: drop the
    temporary folder; the previous site stays."""
    BUILD["ok"] = False
    if BUILD["tmp"]:
        shutil.rmtree(BUILD["tmp"], ignore_errors=True)


def on_shutdown(**kwargs):
    """After build() returned or raised: move a build that got through post_build, and was not
    failed afterwards (on_build_error), into place; otherwise remove what it wrote."""
    tmp, final = BUILD["tmp"], BUILD["final"]
    if tmp and BUILD["ok"] and tmp.is_dir():
        swap_into_place(tmp, final)
    elif tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    BUILD.update(tmp=None, ok=False)


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


def vega_css() -> str:
    """The stylesheets vega-embed and vega-tooltip inject at run time, as one CSS text, from the
    installed packages (tools/vega_css.mjs): the site ships them as a file so that no <style>
    element is needed (style-src 'self'). Raises PluginError if Node or the script fails."""
    node = shutil.which("node")
    if not node:
        raise PluginError("Node.js is needed to build the site (`npm ci` installs the browser packages with it)")
    r = subprocess.run([node, str(ROOT / "tools" / "vega_css.mjs"), str(NODE)], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise PluginError(f"tools/vega_css.mjs failed: {r.stderr.strip()[-2000:]}")
    return r.stdout


def on_post_build(config, **kwargs):
    site = Path(config["site_dir"])
    with step("copying the browser packages from node_modules"):
        missing = [p for files in VENDOR.values() for p in files if not (NODE / p).exists()]
        if missing:
            raise PluginError(f"missing from {NODE} (run `npm ci`): " + ", ".join(missing))
        for folder, files in VENDOR.items():
            dest = site / "assets" / "vendor" / folder
            dest.mkdir(parents=True, exist_ok=True)
            for p in files:
                shutil.copyfile(NODE / p, dest / Path(p).name)
    with step("writing vega-embed's stylesheet"):
        (site / "assets" / "vendor" / "vega" / "vega-embed.css").write_text(vega_css(), encoding="utf-8")
    with step("copying the calculators package"):
        py = site / "assets" / "py"
        if py.exists():
            shutil.rmtree(py)
        (py / "calculators").mkdir(parents=True)
        for src in sorted((ROOT / "calculators").glob("*.py")):
            if src.name != "__main__.py":
                shutil.copyfile(src, py / "calculators" / src.name)
    with step("writing the calculator data bundles"):
        data = site / "assets" / "data"
        data.mkdir(parents=True, exist_ok=True)
        bundle = state.renderer().bundle
        (data / "calculator-bundle.json").write_text(json.dumps(bundle, separators=(",", ":")), encoding="utf-8")
        # Each calculator page loads only the keys its calculator reads (calculators.web.CATALOGUE):
        # the footprint page parses 0.9 MB instead of 1.2 MB, the DSR and ShCM pages a few KB.
        from calculators import web
        for name in web.CATALOGUE:
            part = calculator_slice(bundle, name)
            (data / f"calculator-bundle.{name}.json").write_text(json.dumps(part, separators=(",", ":")), encoding="utf-8")
    with step("compiling the calculators to Pyodide bytecode"):
        compiled = compile_bytecode(py, data)
    with step("packing each calculator page's code"):
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
    for mod, fn in extensions.each("post_build"):
        with step(f"{mod.__name__}.post_build"):
            fn(config, state.renderer(), site)
    BUILD["ok"] = True  # a failure after this (strict mode's warnings, another plugin) clears it
