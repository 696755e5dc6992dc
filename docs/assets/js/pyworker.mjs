// Module Web Worker: boots Pyodide from this site and runs calculators.catalogue.
// Every URL is resolved from this file's own URL, so the site works at any path.
// The worker's name (new Worker(url, {name})) is the page's calculator: the worker then loads
// that calculator's slice of the data bundle and imports its module while booting.
//
// A boot failure is reported as {type: "boot-error", file, message, hint, detail}: the file that
// failed (its path under the site), what is wrong with it in plain words, what to do, and the
// technical text (a Python traceback, a browser error) for a "Details" toggle. The core files are
// checked first with HEAD requests (status, size against the manifest, Content-Type), in parallel
// with the boot: a .wasm served with the wrong type makes Pyodide hang without ever failing.
const assets = new URL("../", import.meta.url);
const core = new URL("vendor/pyodide/", assets);
const calc = /^[a-z]+$/.test(self.name || "") ? self.name : null;
const HOSTING = "about/hosting/";
let api = null;
let runs = 0;
let lastResult = null;  // the id of the newest run that gave a result: the one whose downloads can be written
let downloadsWritten = 0;
let heap = () => null;
// A run error that leaves Python's heap (the WebAssembly memory) larger than this restarts Python (see onmessage):
// 1 GiB, about 34 times the 30 MiB the footprint calculator's heap measures after booting and a run (tests).
const HEAP_RESTART_BYTES = 2 ** 30;
let bootedFrom = null;  // "snapshot" or "files", once ready

function progress(stage, detail) {
  postMessage({ type: "progress", stage, detail });
}

/** A boot failure naming its file: ``url`` (a URL of this site), ``message`` (what is wrong, plain
 * words), ``hint`` (what to do; ``hosting``: true when the Hosting page says how), ``detail``. */
class BootError extends Error {
  constructor(url, message, hint, detail, hosting) {
    super(message);
    this.file = url ? sitePath(url) : "";
    this.hint = hint || "";
    this.detail = detail || "";
    this.hosting = !!hosting;
  }
}
function sitePath(url) {
  const u = new URL(url);
  const root = new URL("../", assets);
  const href = u.origin + u.pathname;  // without ?v=: the file, not its version
  return href.startsWith(root.href) ? href.slice(root.href.length) : u.pathname;
}
const REBUILD = "Copy the whole built site to the server again (or rebuild it with make build).";
// A content-hashed file that is gone: the page was most likely loaded before the site was updated.
const RELOAD = "Reload the page: the site may have been updated since it was loaded. If that does not help, copy the whole built site to the server again.";
const lastLine = (text) => String(text).trim().split("\n").filter((l) => l.trim()).pop() || "unknown error";
const errText = (err) => String(err && err.message ? err.message : err);

async function fetchOk(url, as, missing = REBUILD) {
  let resp;
  try {
    resp = await fetch(url);
  } catch (e) {
    throw new BootError(url, "could not be fetched (the network request failed).", "Check that the site's server is running and reachable.", errText(e));
  }
  if (!resp.ok) throw new BootError(url, `is missing: the server answered HTTP ${resp.status}.`, missing);
  if (as === "bytes") return resp.arrayBuffer().then((b) => new Uint8Array(b));
  const text = await resp.text();
  if (as !== "json") return text;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BootError(url, `is damaged: it is not valid JSON (${text.length} bytes; truncated?).`, REBUILD, errText(e));
  }
}

// The calculator code and the data bundle are fetched while Pyodide boots (not after):
// started here, awaited in boot(), so a failed fetch still ends as a boot-error.
// manifest.json names, per calculator, its code pack and its data bundle, each under a name that
// carries a hash of its content (code.<calculator>.<hash>.pack, calculator-bundle.<calculator>.<hash>.marshal
// and .json): a new build writes new names, so a page never mixes files of two builds. The pack holds
// the sources its calculator imports and their bytecode (unchecked-hash .pyc in __pycache__, compiled
// at build time by the same Pyodide, so imports skip compiling), laid end to end; the manifest gives
// its files as [path, offset, length], the folders to put first on sys.path (lib/: the
// standard-library modules the calculators import), and the byte size of each of Pyodide's core files.
// The page gives the manifest's content hash (this worker's URL has ?manifest=<hash>; pyboot.js takes it
// from the page): fetched as manifest.json?v=<hash>, a manifest cached by an older build is never used.
const manifestVersion = new URL(import.meta.url).searchParams.get("manifest");
const manifestUrl = new URL("py/manifest.json" + (/^[0-9a-f]{6,64}$/.test(manifestVersion || "") ? "?v=" + manifestVersion : ""), assets);
const manifestP = fetchOk(manifestUrl, "json");
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** This calculator's files as the manifest names them: {pack, files, path, marshal, json} (URLs). */
const named = !calc ? Promise.reject(new BootError(null, "The page names no calculator.", "")) : manifestP.then((manifest) => {
  const entry = manifest && manifest.packs && manifest.packs[calc];
  const data = manifest && manifest.bundles && manifest.bundles[calc];
  if (!entry || !Array.isArray(entry.files) || !SAFE_NAME.test(entry.pack || "")) {
    throw new BootError(manifestUrl, `does not list the ${calc} calculator's code.`, REBUILD);
  }
  // "file": a calculator whose data is one file of the site (the query page's SQLite database), read as the .marshal
  // is (calculators.catalogue.load_bundle knows it by its header), with no JSON beside it
  const file = data && SAFE_NAME.test(data.file || "") ? data.file : null;
  if (!data || (!file && (!SAFE_NAME.test(data.marshal || "") || !SAFE_NAME.test(data.json || "")))) {
    throw new BootError(manifestUrl, `does not list the ${calc} calculator's data.`, REBUILD);
  }
  return {
    pack: new URL("py/" + entry.pack, assets), files: entry.files, path: manifest.path || [],
    marshal: new URL("data/" + (file || data.marshal), assets), json: file ? null : new URL("data/" + data.json, assets),
  };
});
function fetchCode(names) {
  return fetchOk(names.pack, "bytes", RELOAD).then((pack) => ({
    files: names.files.map(([f, offset, length]) => {
      if (offset + length > pack.length) {
        throw new BootError(names.pack, `is shorter than manifest.json says (${pack.length} bytes; ${f} ends at byte ${offset + length}): it is truncated or from another build.`, REBUILD);
      }
      return [f, pack.subarray(offset, offset + length)];
    }),
    path: names.path,
  }));
}
// A calculator page's data comes as .marshal (see calculators.catalogue.load_bundle), the JSON only
// if this Pyodide cannot read that. Fetched only when Python does not boot from the snapshot (below):
// at once when the manifest names none, else once the snapshot has failed.
let early = null;
function files() {
  if (!early) {
    early = { code: named.then(fetchCode), bundle: named.then((n) => fetchOk(n.marshal, "bytes", RELOAD)) };
    early.code.catch(reportBoot);
    early.bundle.catch(reportBoot);
  }
  return early;
}

// The memory snapshot (manifest "snapshot": made at build time by tools/make_snapshot.mjs with this
// very Pyodide): Python's heap with every calculator imported and its data loaded, so booting from
// it skips Python's own start-up, the imports and the data. Its bytes are checked against the
// manifest's count here, and Pyodide checks its own build id in the snapshot's header; any failure
// (missing, truncated, another Pyodide, a Python error after restoring it) falls back to the files
// above, and the reason is sent with "ready" (snapshotError).
const snapshotName = manifestP.then((manifest) => {
  const s = manifest && manifest.snapshot;
  if (!s || !SAFE_NAME.test(s.file || "") || !Array.isArray(s.calculators) || !s.calculators.includes(calc)) return null;
  return { url: new URL("py/" + s.file, assets), bytes: s.bytes };
});
const snapshotBytes = snapshotName.then(async (s) => {
  if (!s) return null;
  const resp = await fetch(s.url);
  if (!resp.ok) throw new Error(`${sitePath(s.url)} is missing: the server answered HTTP ${resp.status}.`);
  const bytes = new Uint8Array(await resp.arrayBuffer());
  if (bytes.length !== s.bytes) throw new Error(`${sitePath(s.url)} is ${bytes.length} bytes where the build wrote ${s.bytes}.`);
  // The heap follows the header, whose length is the header's second 32-bit word (pyodide.asm.mjs, API.makeSnapshot)
  snapshotHeap = bytes.length - new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
  return bytes;
});
let snapshotHeap = 0;
snapshotBytes.catch(() => {});
snapshotName.then((s) => { if (!s) files(); }, () => {});
// Pyodide's lock file, fetched and parsed here (a 404 page or a truncated file named as such)
// and handed to loadPyodide, which then does not fetch it again.
const lockUrl = new URL("pyodide-lock.json", core);
const lock = fetchOk(lockUrl, "json");
lock.catch(() => {});

// The core files Pyodide fetches itself, checked with HEAD: a missing, empty, truncated or
// mistyped file fails here within a round trip instead of hanging the boot. Only clear evidence
// fails: a server that refuses HEAD (405, 501), or compresses (no reliable length), is let through.
const CORE = [
  ["pyodide.asm.wasm", /^application\/wasm$/, "application/wasm for .wasm files"],
  ["pyodide.mjs", /javascript/, "text/javascript for .mjs files"],
  ["pyodide.asm.mjs", /javascript/, "text/javascript for .mjs files"],
  ["python_stdlib.zip", null, ""],
];
async function checkCore() {
  const manifest = await manifestP.catch(() => null);
  const sizes = (manifest && manifest.core) || {};
  await Promise.all(CORE.map(async ([name, type, want]) => {
    const url = new URL(name, core);
    let r;
    try {
      r = await fetch(url, { method: "HEAD" });
    } catch (e) {
      throw new BootError(url, "could not be fetched (the network request failed).", "Check that the site's server is running and reachable.", errText(e));
    }
    if (r.status === 405 || r.status === 501) return;
    if (!r.ok) throw new BootError(url, `is missing: the server answered HTTP ${r.status}.`, REBUILD);
    const len = r.headers.get("Content-Length");
    if (len !== null && !r.headers.get("Content-Encoding")) {
      if (Number(len) === 0) throw new BootError(url, "is empty (0 bytes).", REBUILD);
      if (sizes[name] && Number(len) !== sizes[name]) {
        throw new BootError(url, `is ${Number(len).toLocaleString("en")} bytes where the build wrote ${sizes[name].toLocaleString("en")}: it is truncated or from another build.`, REBUILD);
      }
    }
    const ct = (r.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
    if (type && !type.test(ct)) {
      throw new BootError(url, `is served as ${ct ? "“" + ct + "”" : "no type"}, which the browser will not run.`,
        `Configure the web server to send ${want}; see Hosting.`, `Content-Type: ${ct || "(none)"}`, true);
    }
  }));
}
const checked = checkCore();
checked.catch(() => {});
let reported = false;
function reportBoot(err) {
  if (reported || api) return;
  reported = true;
  const e = err instanceof BootError ? err : new BootError(null, `Python could not be loaded (${lastLine(errText(err))}).`, "", errText(err));
  postMessage({ type: "boot-error", file: e.file, message: e.message, hint: e.hint, detail: e.detail, hosting: e.hosting });
}
// Once a failure is reported, Pyodide's own pending fetches may still fail: that is not news.
addEventListener("unhandledrejection", (ev) => { if (reported) ev.preventDefault(); });
// Named at once, not when the boot gets to them: a file that cannot be had fails the boot anyway.
for (const p of [checked, manifestP, named, lock]) p.catch(reportBoot);

/** Run ``fn``; a Python (or other) error in it becomes a BootError naming ``url``. */
async function step(url, what, fn) {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof BootError) throw e;
    const text = errText(e);
    throw new BootError(url, `${what}: ${lastLine(text)}.`, REBUILD, text);
  }
}

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

/** Python booted from the snapshot: {pyodide, catalogue, bundle, bytecode}; throws on any failure.
 * Pyodide 314 restores a snapshot into the WebAssembly memory as the module starts it (30 MiB), without
 * growing it: a heap that grew past that while the snapshot was made (the build's is about 36 MiB) does
 * not fit ("offset is out of bounds"). So the module is created here (loadPyodide's createPyodideModule
 * option, the function pyodide.asm.mjs exports) with one more pre-run step that grows the memory to the
 * snapshot's heap first (Emscripten's Module.growMemory). */
async function fromSnapshot(loadPyodide, snap) {
  const asmUrl = new URL("pyodide.asm.mjs", core);
  const { default: createModule } = await import(asmUrl.href);
  const createPyodideModule = (settings) => {
    settings.preRun.push((Module) => {
      if (Module.HEAP8.length < snapshotHeap && !Module.growMemory(snapshotHeap)) {
        throw new Error(`the browser could not grow Python's memory to the snapshot's ${snapshotHeap} bytes`);
      }
    });
    return createModule(settings);
  };
  const pyodide = await loadPyodide({ indexURL: core.href, lockFileContents: lock, packageBaseUrl: core.href,
                                      _loadSnapshot: snapshotBytes, createPyodideModule });
  const state = pyodide.globals.get("_atlas_snapshot");
  if (!state) throw new Error(`${sitePath(snap.url)} holds no calculators.`);
  const catalogue = state.get("catalogue");
  const bundles = state.get("bundles");
  const bundle = bundles && bundles.get(calc);
  if (!catalogue || !bundle || !catalogue.prepare(calc)) throw new Error(`${sitePath(snap.url)} does not hold the ${calc} calculator.`);
  return { pyodide, catalogue, bundle, bytecode: !!state.get("bytecode") };
}

async function boot() {
  progress("runtime", "Loading the Python runtime (Pyodide, about 13 MB)");
  const pyodideUrl = new URL("pyodide.mjs", core);
  const { loadPyodide } = await step(pyodideUrl, "could not be loaded as a JavaScript module", () => import(pyodideUrl.href));
  const snap = await snapshotName.catch(() => null);
  let snapshotError = null;
  if (snap) {
    try {
      const s = await fromSnapshot(loadPyodide, snap);
      heap = () => s.pyodide._module && s.pyodide._module.HEAPU8 ? s.pyodide._module.HEAPU8.length : null;
      phase("runtime");
      phases.import = 0;
      phases.data = 0;
      return ready(s.pyodide, s.catalogue, s.bundle, s.bytecode, "snapshot", null);
    } catch (e) {
      // a Python traceback ends with its error; a JavaScript error starts with it
      const text = errText(e).trim();
      snapshotError = /^Traceback/.test(text) ? lastLine(text) : text.split("\n")[0];
      files();
    }
  }
  const pyodide = await step(new URL("pyodide.asm.wasm", core), "could not start Python",
    () => loadPyodide({ indexURL: core.href, lockFileContents: lock, packageBaseUrl: core.href }));
  heap = () => pyodide._module && pyodide._module.HEAPU8 ? pyodide._module.HEAPU8.length : null;
  phase("runtime");
  progress("code", "Loading the calculator code");
  const code = await files().code;
  const names = await named;
  const catalogue = await step(names.pack, "is damaged (its Python code does not import)", () => {
    for (const [f, content] of code.files) {
      pyodide.FS.mkdirTree("/atlas/" + f.split("/").slice(0, -1).join("/"));
      pyodide.FS.writeFile("/atlas/" + f, content);
    }
    const dirs = ["/atlas", ...code.path.map((d) => "/atlas/" + d)];
    pyodide.globals.set("_atlas_path", pyodide.toPy(dirs));
    pyodide.runPython("import sys\nfor _d in reversed(_atlas_path):\n    _d in sys.path or sys.path.insert(0, _d)\ndel _atlas_path, _d");
    const mod = pyodide.pyimport("calculators.catalogue");
    if (!mod.prepare(calc)) throw new BootError(names.pack, `does not hold the ${calc} calculator.`, REBUILD);
    return mod;
  });
  progress("data", "Loading the benchmark data");
  const raw = await files().bundle;
  phase("import");
  const bytecode = catalogue.uses_bytecode();
  // Load the data bundle once, while booting, not on every run (api.run_json: JSON in, JSON out,
  // exceptions propagate). The .marshal goes through the file system: handing its bytes to
  // Python directly would copy them slowly.
  const json = pyodide.pyimport("json");
  let bundle = await step(names.marshal, "is damaged (it does not load)", () => {
    pyodide.FS.writeFile("/atlas/bundle.marshal", raw);
    try {
      return catalogue.load_bundle_file("/atlas/bundle.marshal");
    } finally {
      pyodide.FS.unlink("/atlas/bundle.marshal");
    }
  });
  if ((bundle === undefined || bundle === null) && !names.json) {
    throw new BootError(names.marshal, "is not a file this calculator can read (not a SQLite database).", REBUILD);
  }
  if (bundle === undefined || bundle === null) {
    const text = await fetchOk(names.json, "text", RELOAD);
    bundle = await step(names.json, "is damaged (it does not parse)", () => json.loads(text));
  }
  phase("data");
  return ready(pyodide, catalogue, bundle, bytecode, "files", snapshotError);
}

/** Python is ready to run ``catalogue.run(bundle, params)``; says so to the page, with how it booted
 * (``from``: "snapshot" or "files") and why not from the snapshot (``snapshotError``, or null). */
async function ready(pyodide, catalogue, bundle, bytecode, from, snapshotError) {
  const json = pyodide.pyimport("json");
  api = {
    /** The XLSX report of the result for ``params`` (reportxlsx.for_browser): {bytes, filename} or {error}.
     * The report pack (calculators/report.py, reportxlsx, XlsxWriter) is fetched and imported on the first call. */
    async report(params) {
      if (!reportMod) reportMod = loadReportPack(pyodide);
      const mod = await reportMod;
      const out = mod.for_browser(catalogue, bundle, JSON.stringify(params));
      try {
        const [bytes, filename, error] = out.toJs();
        if (error) return { error };
        const copy = new Uint8Array(bytes);  // out of Python's memory, so it can be transferred
        return { bytes: copy, filename };
      } finally {
        out.destroy();
      }
    },
    /** A result with its downloads left unwritten (catalogue.run(..., later=True)): the page shows it, then asks
     * for the downloads (downloads_json) once no newer inputs wait. */
    run_json(paramsJson) {
      const params = json.loads(paramsJson);
      let res = null;
      try {
        res = catalogue.run.callKwargs(bundle, params, { later: true });
        return json.dumps(res);
      } finally {
        params.destroy();
        if (res) res.destroy();
      }
    },
    /** A warm-up run (see warmUp below): the result for ``paramsJson`` computed and its downloads written as a
     * run and the downloads request do (catalogue.run without ``later``, which leaves the held downloads of the
     * reader's newest result as they are), then dropped. */
    warm_json(paramsJson) {
      const params = json.loads(paramsJson);
      let res = null;
      try {
        res = catalogue.run(bundle, params);
        return json.dumps(res);
      } finally {
        params.destroy();
        if (res) res.destroy();
      }
    },
    /** The newest result's downloads, written (catalogue.later_downloads), as JSON text. */
    downloads_json() {
      const res = catalogue.later_downloads();
      try {
        return json.dumps(res);
      } finally {
        res.destroy();
      }
    },
  };
  await checked.catch(() => {});
  if (reported) return;
  bootedFrom = from;
  postMessage({ type: "ready", phases, bytecode, startedAt, heap: heap(), from, snapshotError });
}

// The report pack: named in manifest.json as "report" ({pack, files}), fetched when the reader first asks for an
// XLSX, never while booting. Its files go beside the calculators' (/atlas/...); then Python's import caches are
// refreshed so the new modules are found.
let reportMod = null;
async function loadReportPack(pyodide) {
  const manifest = await manifestP;
  const entry = manifest && manifest.report;
  if (!entry || !Array.isArray(entry.files) || !SAFE_NAME.test(entry.pack || "")) {
    throw new Error("manifest.json does not list the report pack: rebuild the site");
  }
  const code = await fetchCode({ pack: new URL("py/" + entry.pack, assets), files: entry.files, path: [] });
  for (const [f, content] of code.files) {
    pyodide.FS.mkdirTree("/atlas/" + f.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile("/atlas/" + f, content);
  }
  pyodide.runPython("import importlib\nimportlib.invalidate_caches()");
  return pyodide.pyimport("reportxlsx");
}

// Warm-up after a snapshot boot. WebAssembly code starts in V8's baseline compiler (Liftoff) and each function is
// recompiled by the optimizing one (TurboFan) only once it has run enough, in the background. Booted from its files,
// Python's start-up, the imports and the data runs that much Python before the first result; booted from the
// snapshot, none, so the reader's first recomputes ran at two to four times the steady time (Policy 3.1.5 packed:
// 25-60 ms against 10-14 ms; with --js-flags=--no-liftoff every recompute took 8-13 ms: the optimizing tier is
// the whole difference). So, after the first result of a snapshot boot, the worker runs the same inputs
// WARM_RUNS more times, WARM_GAP_MS apart, and drops the results: the gap lets the background compiles land
// between runs (back to back, eight runs left the next recomputes as slow). A reader's run or request waits
// for at most the one warm-up run under way (the first take about as long as the first result), and a warm-up
// run is skipped while the reader's runs come (they warm the code as well). Each warm-up run's ms go to the page
// ({type: "warm", ms}; the benchmark reports them).
const WARM_RUNS = 8;
const WARM_GAP_MS = 150;
let warmStarted = false;
let lastRunAt = 0;
function warmUp(paramsJson) {
  const times = [];
  const step = () => {
    if (!api || times.length >= WARM_RUNS) return;
    if (performance.now() - lastRunAt >= WARM_GAP_MS) {
      const t0 = performance.now();
      try {
        JSON.parse(api.warm_json(paramsJson));
      } catch (err) {
        postMessage({ type: "warm", ms: times, error: lastLine(errText(err)).trim() });
        return;
      }
      times.push(Math.round(performance.now() - t0));
      postMessage({ type: "warm", ms: times });
    } else {
      times.push(null);  // skipped: the reader's own run came just before
    }
    setTimeout(step, WARM_GAP_MS);
  };
  setTimeout(step, WARM_GAP_MS);
}

const booting = boot().catch(async (err) => {
  // A core file found bad by checkCore is the cause of whatever the boot then threw.
  await checked.catch(reportBoot);
  reportBoot(err);
});

// Runs: the page keeps at most one run in flight (and the newest waiting), so this queue stays
// short. Each result says how many runs this worker has computed and the size of Python's heap
// (the WebAssembly memory, bytes), which the tests and the benchmark watch under a burst of input.
onmessage = async (ev) => {
  const msg = ev.data || {};
  if (msg.type === "report") {
    await booting;
    if (!api) return;
    try {
      const out = await api.report(msg.params);
      if (out.bytes) postMessage({ type: "report", id: msg.id, bytes: out.bytes, filename: out.filename }, [out.bytes.buffer]);
      else postMessage({ type: "report", id: msg.id, error: out.error });
    } catch (err) {
      reportMod = null;  // a failed load is tried again on the next click
      const text = errText(err);
      postMessage({ type: "report", id: msg.id, error: lastLine(text).trim(), detail: text });
    }
    return;
  }
  if (msg.type === "downloads") {
    // the downloads of the result of run ``msg.id``: only while it is this worker's newest computed result
    await booting;
    if (!api) return;
    if (msg.id !== lastResult) {
      postMessage({ type: "downloads", id: msg.id, error: "a newer result was computed since: press Compute again" });
      return;
    }
    try {
      const t0 = performance.now();
      downloadsWritten += 1;
      const out = JSON.parse(api.downloads_json());
      postMessage({ type: "downloads", id: msg.id, downloads: out, ms: Math.round(performance.now() - t0), written: downloadsWritten });
    } catch (err) {
      postMessage({ type: "downloads", id: msg.id, error: lastLine(errText(err)).trim() });
    }
    return;
  }
  if (msg.type !== "run") return;
  await booting;
  if (!api) return;
  try {
    const t0 = performance.now();
    runs += 1;
    const paramsJson = JSON.stringify(msg.params);
    const out = JSON.parse(api.run_json(paramsJson));
    if (out.ok) lastResult = msg.id;
    lastRunAt = performance.now();
    postMessage({ type: "result", id: msg.id, result: out, ms: Math.round(lastRunAt - t0), runs, heap: heap() });
    if (!warmStarted && out.ok && bootedFrom === "snapshot") {
      warmStarted = true;
      warmUp(paramsJson);
    }
  } catch (err) {
    // A PythonError's message is the whole traceback; the reader gets its last line ("RuntimeError: ...").
    // After a fatal error (a stack overflow in the runtime) this Pyodide cannot run again: the page restarts it.
    // So it does after an error that left the heap past HEAP_RESTART_BYTES: a runaway recursion grows it to the
    // 4 GiB WebAssembly limit and ends in "lost sys.stderr", after which every run fails the same way, and a
    // WebAssembly heap never shrinks (only a new worker gives the memory back).
    const text = errText(err), h = heap(), swollen = h !== null && h > HEAP_RESTART_BYTES;
    const said = lastLine(text).trim() + (swollen ? ` (Python's memory had grown to ${(h / 2 ** 30).toFixed(1)} GiB)` : "");
    postMessage({ type: "run-error", id: msg.id, message: said, fatal: /fatal/i.test(text) || swollen, runs, heap: h });
  }
};
