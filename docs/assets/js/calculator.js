/* Footprint calculator page: boots Pyodide in a module worker, keeps the
 * page responsive, shows progress, gives up with a visible message after a
 * time-out, and keeps the build-time (prerendered) result until a new one is
 * computed. All result markup is produced and escaped by Python. */
(function () {
  "use strict";
  var script = document.currentScript;
  var root = document.getElementById("atlas-calculator");
  if (!root || !script) return;
  var base = new URL("./", script.src);
  var form = root.querySelector("form");
  var statusEl = document.getElementById("atlas-calc-status");
  var msgEl = document.getElementById("atlas-calc-message");
  var resultEl = document.getElementById("atlas-calc-result");
  var chartEl = root.querySelector('.atlas-chart[data-chart-id="calc-chart"]');
  var runBtn = document.getElementById("calc-run");
  var FIELDS = ["scenario", "load", "target", "sites", "failover", "asm", "min_replicas", "node_cores", "node_mem"];
  var timeoutMs = Number(root.getAttribute("data-timeout-ms")) || 60000;
  var override = new URLSearchParams(location.search).get("atlas_timeout_ms");
  if (override && /^\d+$/.test(override)) timeoutMs = Number(override);
  var state = "booting", started = performance.now(), stage = "Starting", worker = null, seq = 0, pendingFromUrl = null;
  var blobUrls = [];

  function setState(s) { state = s; root.setAttribute("data-state", s); }
  function status(text) { statusEl.textContent = text; }
  function message(text) {
    if (!text) { msgEl.hidden = true; msgEl.textContent = ""; return; }
    msgEl.hidden = false; msgEl.textContent = text;
  }
  function params() {
    var p = {};
    FIELDS.forEach(function (k) {
      var el = form.elements[k];
      if (!el) return;
      p[k] = el.type === "checkbox" ? (el.checked ? "1" : "") : String(el.value).trim();
    });
    return p;
  }
  function query(p) {
    var q = new URLSearchParams();
    FIELDS.forEach(function (k) { if (p[k]) q.set(k, p[k]); });
    return q.toString();
  }
  function syncUnit() {
    var opt = form.elements.scenario.selectedOptions[0];
    if (opt) root.querySelector(".atlas-unit").textContent = opt.getAttribute("data-unit");
  }
  function applyUrl() {
    var q = new URLSearchParams(location.search);
    var keys = FIELDS.filter(function (k) { return q.has(k); });
    if (!keys.length) return null;
    var problems = [];
    var sc = q.get("scenario");
    if (sc !== null) {
      var ok = Array.prototype.some.call(form.elements.scenario.options, function (o) { return o.value === sc; });
      if (!ok) problems.push("unknown scenario “" + sc + "”");
    }
    if (problems.length) {
      message("This link could not be used (" + problems.join("; ") + "); showing the default inputs.");
      return null;
    }
    keys.forEach(function (k) {
      var el = form.elements[k];
      if (!el) return;
      if (el.type === "checkbox") el.checked = /^(1|true|on|yes)$/i.test(q.get(k));
      else el.value = q.get(k);
    });
    syncUnit();
    return params();
  }
  function show(res, fromUrl) {
    if (!res.ok) {
      message((fromUrl ? "This link's inputs were not valid: " : "") + res.error + (fromUrl ? " The result below is for the default inputs." : " The result below is unchanged."));
      return;
    }
    message("");
    resultEl.innerHTML = res.html;
    resultEl.setAttribute("data-prerendered", "false");
    blobUrls.forEach(URL.revokeObjectURL); blobUrls = [];
    var csv = URL.createObjectURL(new Blob([res.csv], { type: "text/csv" }));
    var helm = URL.createObjectURL(new Blob([res.helm], { type: "application/yaml" }));
    blobUrls.push(csv, helm);
    document.getElementById("calc-dl-csv").href = csv;
    document.getElementById("calc-dl-helm").href = helm;
    var q = query(params());
    document.getElementById("calc-permalink").href = "?" + q;
    history.replaceState(null, "", "?" + q + location.hash);
    if (window.atlasCharts && chartEl) window.atlasCharts.draw(chartEl, res.chart);
    root.setAttribute("data-result-seq", String(seq));
    status("Computed in your browser by Python (Pyodide) at " + new Date().toLocaleTimeString() + ".");
  }
  function fail(text) {
    setState("failed");
    if (worker) { worker.terminate(); worker = null; }
    status("The interactive calculator is unavailable: " + text + " The result below was computed when the site was built, for the default inputs.");
    message("");
    runBtn.disabled = true;
  }
  function tick() {
    if (state !== "booting") return;
    var s = (performance.now() - started) / 1000;
    status(stage + "… " + s.toFixed(0) + " s");
    if (performance.now() - started > timeoutMs) {
      fail("Python did not finish loading within " + Math.round(timeoutMs / 1000) + " s.");
      return;
    }
    setTimeout(tick, 500);
  }
  function run(p, fromUrl) {
    if (state === "failed") return;
    if (state !== "ready") { pendingFromUrl = { p: p, fromUrl: fromUrl }; status("Your inputs will be computed as soon as Python has loaded."); return; }
    seq += 1;
    root.setAttribute("data-busy", "true");
    worker.postMessage({ type: "run", id: seq, params: p, fromUrl: fromUrl });
  }

  form.addEventListener("submit", function (ev) { ev.preventDefault(); run(params(), false); });
  form.elements.scenario.addEventListener("change", function () {
    var opt = form.elements.scenario.selectedOptions[0];
    syncUnit();
    form.elements.load.value = String(Number(opt.getAttribute("data-load")) * Number(opt.getAttribute("data-sites")));
    form.elements.sites.value = opt.getAttribute("data-sites");
  });
  var fromUrl = applyUrl();
  if (typeof Worker === "undefined") { fail("this browser cannot run Web Workers."); return; }
  setState("booting");
  runBtn.disabled = false;
  try {
    worker = new Worker(new URL("pyworker.mjs", base), { type: "module" });
  } catch (e) { fail("the worker could not start (" + e.message + ")."); return; }
  worker.onmessage = function (ev) {
    var m = ev.data || {};
    if (m.type === "progress") { stage = m.detail; return; }
    if (m.type === "ready") {
      setState("ready");
      root.setAttribute("data-boot-ms", String(Math.round(performance.now() - started)));
      status("Python is ready. Change the inputs and press Compute.");
      if (pendingFromUrl) { var x = pendingFromUrl; pendingFromUrl = null; run(x.p, x.fromUrl); }
      else if (fromUrl) run(fromUrl, true);
      return;
    }
    if (m.type === "boot-error") { fail("Python could not be loaded (" + m.message + ")."); return; }
    if (m.type === "result") { root.removeAttribute("data-busy"); show(m.result, !!(fromUrl && m.id === 1)); return; }
    if (m.type === "run-error") {
      root.removeAttribute("data-busy");
      message("The calculator hit an internal error and kept the previous result: " + m.message);
    }
  };
  worker.onerror = function (ev) { fail("the worker failed (" + (ev.message || "unknown error") + ")."); };
  if (fromUrl) pendingFromUrl = { p: fromUrl, fromUrl: true };
  tick();
})();
