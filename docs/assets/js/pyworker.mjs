// Module Web Worker: boots Pyodide from this site and runs calculators.web.
// Every URL is resolved from this file's own URL, so the site works at any path.
const assets = new URL("../", import.meta.url);
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

async function boot() {
  progress("runtime", "Loading the Python runtime (Pyodide, about 13 MB)");
  const pyodideUrl = new URL("vendor/pyodide/pyodide.mjs", assets);
  const { loadPyodide } = await import(pyodideUrl.href);
  const pyodide = await loadPyodide({ indexURL: new URL("vendor/pyodide/", assets).href });
  progress("code", "Loading the calculator code");
  const manifest = await fetchOk(new URL("py/manifest.json", assets), "json");
  pyodide.FS.mkdirTree("/atlas/calculators");
  for (const f of manifest.files) {
    pyodide.FS.writeFile("/atlas/" + f, await fetchOk(new URL("py/" + f, assets)));
  }
  progress("data", "Loading the benchmark data");
  bundleText = await fetchOk(new URL("data/calculator-bundle.json", assets));
  pyodide.runPython("import sys\nif '/atlas' not in sys.path: sys.path.insert(0, '/atlas')");
  api = pyodide.pyimport("calculators.web");
  postMessage({ type: "ready" });
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
    const out = JSON.parse(api.run_json(bundleText, JSON.stringify(msg.params)));
    postMessage({ type: "result", id: msg.id, result: out });
  } catch (err) {
    postMessage({ type: "run-error", id: msg.id, message: String(err && err.message ? err.message : err) });
  }
};
