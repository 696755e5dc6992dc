// Module Web Worker: boots Pyodide from this site and runs calculators.web.
// Every URL is resolved from this file's own URL, so the site works at any path.
// The worker's name (new Worker(url, {name})) is the page's calculator: the worker then loads
// that calculator's slice of the data bundle and imports its module while booting.
const assets = new URL("../", import.meta.url);
const calc = /^[a-z]+$/.test(self.name || "") ? self.name : "";
let api = null;
let bundleText = null;

function progress(stage, detail) {
  postMessage({ type: "progress", stage, detail });
}

async function fetchOk(url, as) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`${url.pathname} answered HTTP ${resp.status}`);
  return as === "json" ? resp.json() : resp.text();
}

// The calculator code and the data bundle are fetched while Pyodide boots (not after):
// started here, awaited in boot(), so a failed fetch still ends as a boot-error.
function fetchCode() {
  return fetchOk(new URL("py/manifest.json", assets), "json").then((manifest) =>
    Promise.all(manifest.files.map((f) => fetchOk(new URL("py/" + f, assets)).then((text) => [f, text]))));
}
const early = {
  code: fetchCode(),
  bundle: fetchOk(new URL(calc ? `data/calculator-bundle.${calc}.json` : "data/calculator-bundle.json", assets)),
};
early.code.catch(() => {});
early.bundle.catch(() => {});

// Durations of the boot's phases in ms, sent with "ready" (the benchmark reports them).
const phases = {};
let last = performance.now();
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
  const files = await early.code;
  pyodide.FS.mkdirTree("/atlas/calculators");
  for (const [f, text] of files) {
    pyodide.FS.writeFile("/atlas/" + f, text);
  }
  progress("data", "Loading the benchmark data");
  bundleText = await early.bundle;
  pyodide.runPython("import sys\nif '/atlas' not in sys.path: sys.path.insert(0, '/atlas')");
  const web = pyodide.pyimport("calculators.web");
  if (calc && !web.prepare(calc)) throw new Error(`unknown calculator ${calc}`);
  phase("import");
  // Parse the data bundle once, while booting, instead of on every run: api.run_json keeps
  // calculators.web.run_json's contract (JSON in, JSON out, exceptions propagate).
  const json = pyodide.pyimport("json");
  const bundle = json.loads(bundleText);
  phase("data");
  api = {
    run_json(_bundleText, paramsJson) {
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
  postMessage({ type: "ready", phases });
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
    const out = JSON.parse(api.run_json(bundleText, JSON.stringify(msg.params)));
    postMessage({ type: "result", id: msg.id, result: out, ms: Math.round(performance.now() - t0) });
  } catch (err) {
    // A PythonError's message is the whole traceback; the reader gets its last line ("RuntimeError: ...").
    const text = String(err && err.message ? err.message : err).trim().split("\n").filter((l) => l.trim()).pop() || "unknown error";
    postMessage({ type: "run-error", id: msg.id, message: text.trim() });
  }
};
