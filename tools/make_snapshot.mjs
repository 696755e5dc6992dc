// Build step (called by atlas/assets.py): a memory snapshot of the site's own Pyodide with every
// calculator imported and every calculator page's data bundle loaded, for the worker to boot from
// (loadPyodide({_loadSnapshot})): the first result comes sooner than Python's own start-up
// (figures in tools/snapshot_experiment.py).
//
//   node tools/make_snapshot.mjs PYODIDE_DIR OUT < job.json
//
// job.json: {"path": [folders under /atlas put first on sys.path], "files": [[path, file on disk]],
// "bundles": {calculator: .marshal file on disk}, "stdlib": the standard library zip the site serves (optional:
// Pyodide's own otherwise)}. The snapshot is Pyodide's ("makeMemorySnapshot":
// a header with Pyodide's BUILD_ID, then the whole WebAssembly heap): Python then holds, in
// __main__, `_atlas_snapshot` = {"catalogue": the calculators.catalogue module, "bundles": {name:
// bundle dict}, "bytecode": whether the modules came from the build's bytecode}. Python must hold
// no JavaScript object when the snapshot is taken (Pyodide refuses it): everything happens in
// runPython. The file system is not part of the snapshot (Emscripten keeps it in JavaScript).
// Prints {"bytes": size, "build_id": hex} as JSON. Exit status 1 on any error.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

// The same snapshot on every build (and so the same content-hashed name): besides the hash seed (below),
// what Python keeps of the clock (file times in the import caches, stat results) and of the system's
// random bytes (the state of libc's arc4random and of the random module) would differ from one build to
// the next. While the snapshot is made, the clock stands still at 2000-01-01 and the random bytes
// Emscripten asks Node for (crypto.randomFillSync) are a SHA-256 stream of a fixed seed. Every
// reader's Python starts from the same published heap in any case: these bytes are no secret.
const EPOCH = Date.UTC(2000, 0, 1);
Date.now = () => EPOCH;
let counter = 0;
const fixedRandom = (view) => {
  const out = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < out.length; i += 32) {
    const block = crypto.createHash("sha256").update("atlas-snapshot-" + counter++).digest();
    out.set(block.subarray(0, Math.min(32, out.length - i)), i);
  }
  return view;
};
crypto.randomFillSync = fixedRandom;
globalThis.crypto.getRandomValues = fixedRandom;

const [, , pyodideDir, out] = process.argv;
if (!pyodideDir || !out) {
  console.error("usage: node tools/make_snapshot.mjs PYODIDE_DIR OUT < job.json");
  process.exit(2);
}
try {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const job = JSON.parse(input);
  const { loadPyodide } = await import(pathToFileURL(path.resolve(pyodideDir, "pyodide.mjs")).href);
  // A fixed hash seed: Python's str hashes (cached in every string object) and so the heap are the
  // same on every build, and so is the file's content-hashed name.
  // job.stdlib: the standard library zip the site serves (atlas/assets.py stdlib_zip), which Python's zip importer
  // indexes into the heap: the snapshot must be made with the very bytes the browser will write to /lib
  const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/", _makeSnapshot: true, env: { PYTHONHASHSEED: "0" },
                                 ...(job.stdlib ? { stdLibURL: path.resolve(job.stdlib) } : {}),
                                 // sys.executable as in a browser (Node's default is this script's path)
                                 _sysExecutable: "./this.program",
                                 stdout: () => {}, stderr: (t) => console.error(t) });
  for (const [rel, file] of job.files) {
    py.FS.mkdirTree("/atlas/" + path.posix.dirname(rel));
    py.FS.writeFile("/atlas/" + rel, fs.readFileSync(file));
  }
  const bundles = {};
  for (const [name, file] of Object.entries(job.bundles)) {
    bundles[name] = "/atlas/bundle." + name + ".marshal";
    py.FS.writeFile(bundles[name], fs.readFileSync(file));
  }
  py.runPython(`
import gc, json, os, sys
for _d in reversed(["/atlas"] + ["/atlas/" + d for d in json.loads(${JSON.stringify(JSON.stringify(job.path))})]):
    _d in sys.path or sys.path.insert(0, _d)
import calculators.catalogue as _c
_atlas_snapshot = {"catalogue": _c, "bundles": {}, "bytecode": _c.uses_bytecode()}
for _name, _file in json.loads(${JSON.stringify(JSON.stringify(bundles))}).items():
    if not _c.prepare(_name):
        raise RuntimeError(f"calculators.catalogue does not know the {_name} calculator")
    _b = _c.load_bundle_file(_file)
    if _b is None:
        raise RuntimeError(f"{_file} is not marshalled for this Pyodide")
    _atlas_snapshot["bundles"][_name] = _b
    os.unlink(_file)
del _d, _c, _name, _file, _b
gc.collect()
`);
  const snap = py.makeMemorySnapshot();
  fs.writeFileSync(out, snap);
  const id = Array.from(new Uint32Array(snap.buffer, snap.byteOffset + 16, 8), (w) => w.toString(16).padStart(8, "0")).join("");
  process.stdout.write(JSON.stringify({ bytes: snap.length, build_id: id }) + "\n");
} catch (err) {
  console.error(String(err && err.stack ? err.stack : err));
  process.exit(1);
}
