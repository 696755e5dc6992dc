// Module Web Worker: boots Pyodide from this site and runs calculators.web.
// Every URL is resolved from this file's own URL, so the site works at any path.
// The worker's name (new Worker(url, {name})) is the page's calculator: the worker then loads
// that calculator's slice of the data bundle and imports its module while booting.
const assets = new URL("../", import.meta.url);
const calc = /^[a-z]+$/.test(self.name || "") ? self.name : null;
let api = null;

function progress(stage, detail) {
  postMessage({ type: "progress", stage, detail });
}

async function fetchOk(url, as) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`${url.pathname} answered HTTP ${resp.status}`);
  if (as === "bytes") return resp.arrayBuffer().then((b) => new Uint8Array(b));
  return as === "json" ? resp.json() : resp.text();
}

// The calculator code and the data bundle are fetched while Pyodide boots (not after):
// started here, awaited in boot(), so a failed fetch still ends as a boot-error.
// The code is one file, code.<calculator>.pack: the sources its calculator imports and their
// bytecode (unchecked-hash .pyc in __pycache__, compiled at build time by the same Pyodide, so
// imports skip compiling), laid end to end; manifest.json gives each pack's files as
// [path, offset, length] and the folders to put first on sys.path (lib/: the standard-library
// modules the calculators import).
function fetchCode() {
  const packName = `code.${calc}.pack`;
  return Promise.all([fetchOk(new URL("py/manifest.json", assets), "json"), fetchOk(new URL("py/" + packName, assets), "bytes")])
    .then(([manifest, pack]) => ({
      files: manifest.packs[calc].files.map(([f, offset, length]) => {
        if (offset + length > pack.length) throw new Error(`${packName} is shorter than its manifest says (${f})`);
        return [f, pack.subarray(offset, offset + length)];
      }),
      path: manifest.path || [],
    }));
}
// A calculator page's data comes as .marshal (see calculators.web.load_bundle), the JSON only
// if this Pyodide cannot read that.
const bundleUrl = (ext) => new URL(`data/calculator-bundle.${calc}.${ext}`, assets);
const early = calc
  ? { code: fetchCode(), bundle: fetchOk(bundleUrl("marshal"), "bytes") }
  : { code: Promise.reject(new Error("the page names no calculator")), bundle: Promise.resolve(null) };
early.code.catch(() => {});
early.bundle.catch(() => {});

// Durations of the boot's phases in ms, sent with "ready" (the benchmark reports them), and
// when this worker started running, as epoch ms (the page turns it into ms since navigation).
const phases = {};
let last = performance.now();
const startedAt = performance.timeOrigin + last;
function phase(name) {
  const now = performance.now();
  phases[name] = Math.round(now - last);
  last = now;
}

async function boot() {
  progress("runtime", "Loading the Python runtime (Pyodide, about 13 MB)");
  const pyodideUrl = new URL("vendor/pyodide/pyodide.mjs", assets);
  const { loadPyodide } = await import(pyodideUrl.href);
  const pyodide = await loadPyodide({ indexURL: new URL("vendor/pyodide/", assets).href });
  phase("runtime");
  progress("code", "Loading the calculator code");
  const code = await early.code;
  for (const [f, content] of code.files) {
    pyodide.FS.mkdirTree("/atlas/" + f.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile("/atlas/" + f, content);
  }
  progress("data", "Loading the benchmark data");
  const raw = await early.bundle;
  const dirs = ["/atlas", ...code.path.map((d) => "/atlas/" + d)];
  pyodide.globals.set("_atlas_path", pyodide.toPy(dirs));
  pyodide.runPython("import sys\nfor _d in reversed(_atlas_path):\n    _d in sys.path or sys.path.insert(0, _d)\ndel _atlas_path, _d");
  const web = pyodide.pyimport("calculators.web");
  if (!web.prepare(calc)) throw new Error(`unknown calculator ${calc}`);
  phase("import");
  const bytecode = web.uses_bytecode();
  // Load the data bundle once, while booting, not on every run (api.run_json: JSON in, JSON out,
  // exceptions propagate). The .marshal goes through the file system: handing its bytes to
  // Python directly would copy them slowly.
  const json = pyodide.pyimport("json");
  pyodide.FS.writeFile("/atlas/bundle.marshal", raw);
  let bundle = web.load_bundle_file("/atlas/bundle.marshal");
  pyodide.FS.unlink("/atlas/bundle.marshal");
  if (bundle === undefined || bundle === null) bundle = json.loads(await fetchOk(bundleUrl("json")));
  phase("data");
  api = {
    run_json(paramsJson) {
      const params = json.loads(paramsJson);
      let res = null;
      try {
        res = web.run(bundle, params);
        return json.dumps(res);
      } finally {
        params.destroy();
        if (res) res.destroy();
      }
    },
  };
  postMessage({ type: "ready", phases, bytecode, startedAt });
}

const booting = boot().catch((err) => {
  postMessage({ type: "boot-error", message: String(err && err.message ? err.message : err) });
});

onmessage = async (ev) => {
  const msg = ev.data || {};
  if (msg.type !== "run") return;
  await booting;
  if (!api) return;
  try {
    const t0 = performance.now();
    const out = JSON.parse(api.run_json(JSON.stringify(msg.params)));
    postMessage({ type: "result", id: msg.id, result: out, ms: Math.round(performance.now() - t0) });
  } catch (err) {
    // A PythonError's message is the whole traceback; the reader gets its last line ("RuntimeError: ...").
    const text = String(err && err.message ? err.message : err).trim().split("\n").filter((l) => l.trim()).pop() || "unknown error";
    postMessage({ type: "run-error", id: msg.id, message: text.trim() });
  }
};
