// Build step (called by atlas/assets.py): compile the calculators, and the standard-library
// modules they import that Pyodide does not load at start-up, to bytecode with the very Pyodide the
// site serves, so the browser unmarshals them instead of compiling source (about 50 ms -> 8 ms for
// the footprint page). Bytecode is written as unchecked-hash .pyc files in __pycache__ beside
// its source: a Pyodide with another bytecode version ignores them and compiles the source.
//
//   node tools/compile_pyc.mjs PYODIDE_DIR SITE_PY_DIR [SITE_DATA_DIR]
//
// With SITE_DATA_DIR, each calculator-bundle.<name>.json there is also written as
// calculator-bundle.<name>.marshal: this Pyodide's bytecode magic number, then the bundle in
// marshal format, which loads in about a third of json.loads' time (calculators.catalogue.load_bundle).
//
// SITE_PY_DIR holds calculators/*.py (and any other package folder, e.g. the report pack's reportxlsx/ and
// xlsxwriter/, whose every .py is compiled too); written: calculators/__pycache__/*.pyc, lib/<module>.py
// (copied from Pyodide's python_stdlib.zip) and lib/__pycache__/*.pyc. Prints, as JSON, the
// files written (paths relative to SITE_PY_DIR), the cache tag, and per calculator the source
// and bytecode files its page needs ("needs"). Exit status 1 on any error.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [, , pyodideDir, pyDir, dataDir] = process.argv;
if (!pyodideDir || !pyDir) {
  console.error("usage: node tools/compile_pyc.mjs PYODIDE_DIR SITE_PY_DIR");
  process.exit(2);
}
try {
  const { loadPyodide } = await import(pathToFileURL(path.resolve(pyodideDir, "pyodide.mjs")).href);
  const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/", stdout: () => {}, stderr: (t) => console.error(t) });
  py.FS.mkdirTree("/site");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(pyDir) }, "/site");
  py.FS.mkdirTree("/data");
  if (dataDir) py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(dataDir) }, "/data");
  const out = py.runPython(`
import importlib, importlib.util, json, marshal, os, py_compile, sys

sys.dont_write_bytecode = True
MODE = py_compile.PycInvalidationMode.UNCHECKED_HASH
tag = sys.implementation.cache_tag
written = []

def compile_to(src, rel):
    head, name = os.path.split(rel)
    cfile = os.path.join("/site", head, "__pycache__", name[:-3] + "." + tag + ".pyc")
    py_compile.compile(src, cfile=cfile, dfile=rel, invalidation_mode=MODE, doraise=True)
    written.append(os.path.relpath(cfile, "/site"))

# What does each calculator import, of its own package and of the standard library beyond what
# Pyodide starts with? Each is imported into a clean slate of both.
sys.path.insert(0, "/site")
base = set(sys.modules)
stdlib, needs = set(), {}

def is_stdlib_py(m):
    # a module of one file: a package (sqlite3, which the query page imports) stays in the standard library's zip,
    # since lib/<name>.py would shadow it and its submodules could not be imported
    spec = importlib.util.find_spec(m)
    origin = getattr(spec, "origin", None) or ""
    return ("." not in m and origin.endswith(".py") and ".zip/" in origin
            and getattr(spec, "submodule_search_locations", None) is None)

names = list(importlib.import_module("calculators.catalogue").CATALOGUE)
for name in names:
    for m in list(sys.modules):
        if m not in base or m.startswith("calculators"):
            del sys.modules[m]
    catalogue = importlib.import_module("calculators.catalogue")
    catalogue.prepare(name)
    new = set(sys.modules) - base
    mods = sorted(m for m in new if m == "calculators" or m.startswith("calculators."))
    std = sorted(m for m in new if not m.startswith("calculators") and is_stdlib_py(m))
    stdlib.update(std)
    needs[name] = ["calculators/" + ("__init__" if m == "calculators" else m.split(".", 1)[1]) + ".py" for m in mods] + ["lib/" + m + ".py" for m in std]
stdlib = sorted(stdlib)

for f in sorted(os.listdir("/site/calculators")):
    if f.endswith(".py"):
        compile_to(os.path.join("/site/calculators", f), "calculators/" + f)
# Other packages beside calculators/ (the report pack: reportxlsx/, xlsxwriter/), compiled whole.
for top in sorted(os.listdir("/site")):
    if top in ("calculators", "lib") or not os.path.isdir(os.path.join("/site", top)):
        continue
    for base_dir, dirs, files in os.walk(os.path.join("/site", top)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                src = os.path.join(base_dir, f)
                compile_to(src, os.path.relpath(src, "/site"))
os.makedirs("/site/lib", exist_ok=True)
for m in stdlib:
    src = importlib.util.find_spec(m).loader.get_source(m)
    with open("/site/lib/" + m + ".py", "w", encoding="utf-8") as fh:
        fh.write(src)
    written.append("lib/" + m + ".py")
    compile_to("/site/lib/" + m + ".py", "lib/" + m + ".py")
bundles = []
for f in sorted(os.listdir("/data")):
    if f.startswith("calculator-bundle.") and f.count(".") == 2 and f.endswith(".json"):
        with open("/data/" + f, encoding="utf-8") as fh:
            obj = json.load(fh)
        with open("/data/" + f[:-5] + ".marshal", "wb") as fh:
            fh.write(importlib.util.MAGIC_NUMBER + marshal.dumps(obj))
        bundles.append(f[:-5] + ".marshal")

def cached(rel):
    head, name = os.path.split(rel)
    return head + "/__pycache__/" + name[:-3] + "." + tag + ".pyc"

json.dumps({"cache_tag": tag, "stdlib": stdlib, "files": sorted(written), "bundles": bundles,
            "needs": {n: sorted(f for rel in rels for f in (rel, cached(rel))) for n, rels in needs.items()}})
`);
  process.stdout.write(out + "\n");
} catch (err) {
  console.error(String(err && err.stack ? err.stack : err));
  process.exit(1);
}
