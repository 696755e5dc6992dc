/* Calculator pages: boot Pyodide in a module worker, keep the page responsive,
 * show progress, give up with a visible message after a time-out, and keep
 * the build-time (prerendered) result until a new one is computed. Works for
 * every calculator: the form's named fields are the parameters, the root's
 * data-calculator names the Python calculator. All result markup is produced
 * and escaped by Python; this script only moves it into the page. */
(function () {
  "use strict";
  var script = document.currentScript;
  var root = document.getElementById("atlas-calculator");
  if (!root || !script) return;
  var base = new URL("./", script.src);
  var calcName = root.getAttribute("data-calculator");
  var form = root.querySelector("form");
  var statusEl = document.getElementById("atlas-calc-status");
  var msgEl = document.getElementById("atlas-calc-message");
  var resultEl = document.getElementById("atlas-calc-result");
  var chartEl = root.querySelector('.atlas-chart[data-chart-id="calc-chart"]');
  var runBtn = document.getElementById("calc-run");
  var timeoutMs = Number(root.getAttribute("data-timeout-ms")) || 60000;
  var override = new URLSearchParams(location.search).get("atlas_timeout_ms");
  if (override && /^\d+$/.test(override)) timeoutMs = Number(override);
  var state = "booting", started = performance.now(), stage = "Starting", worker = null, seq = 0;
  var blobUrls = [];

  function fields() {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && el.type !== "file" && el.type !== "submit" && el.type !== "button";
    });
  }
  function setState(s) {
    state = s;
    root.setAttribute("data-state", s);
    if (s === "failed") releasePage();
  }
  /* pyboot.js held Material's script back while Python boots: let it start. */
  function releasePage() { if (window.__atlasReleasePage) window.__atlasReleasePage(); }
  function status(text) { statusEl.textContent = text; }
  function message(text) {
    msgEl.hidden = !text;
    msgEl.textContent = text || "";
  }
  function params() {
    var p = { calc: calcName };
    fields().forEach(function (el) {
      p[el.name] = el.type === "checkbox" ? (el.checked ? "1" : "") : String(el.value).trim();
    });
    return p;
  }
  function query(p) {
    var q = new URLSearchParams();
    fields().forEach(function (el) {
      if (!el.hasAttribute("data-no-permalink") && p[el.name]) q.set(el.name, p[el.name]);
    });
    return q.toString();
  }
  function syncUnit(select) {
    var opt = select.selectedOptions[0];
    var unit = root.querySelector(".atlas-unit");
    if (opt && unit && opt.hasAttribute("data-unit")) unit.textContent = opt.getAttribute("data-unit");
  }
  function applyUrl() {
    var q = new URLSearchParams(location.search);
    var names = fields().map(function (el) { return el.name; });
    var keys = names.filter(function (k) { return q.has(k); });
    if (!keys.length) return null;
    var problems = [];
    fields().forEach(function (el) {
      if (el.tagName === "SELECT" && q.has(el.name)) {
        var v = q.get(el.name);
        var ok = Array.prototype.some.call(el.options, function (o) { return o.value === v; });
        if (!ok) problems.push("unknown " + el.name + " “" + v + "”");
      } else if (el.type === "number" && q.has(el.name) && !/^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(q.get(el.name))) {
        /* a number field would silently drop the text; say so instead */
        problems.push(el.name + " “" + q.get(el.name) + "” is not a number");
      }
    });
    if (problems.length) {
      message("This link could not be used (" + problems.join("; ") + "); showing the default inputs.");
      return null;
    }
    fields().forEach(function (el) {
      if (!q.has(el.name)) return;
      if (el.type === "checkbox") el.checked = /^(1|true|on|yes)$/i.test(q.get(el.name));
      else el.value = q.get(el.name);
      if (el.tagName === "SELECT") syncUnit(el);
    });
    return params();
  }
  function setDownloads(downloads) {
    blobUrls.forEach(URL.revokeObjectURL); blobUrls = [];
    var holder = document.getElementById("atlas-calc-downloads");
    if (!holder) return;
    holder.textContent = "";
    Object.keys(downloads || {}).forEach(function (k, i) {
      var d = downloads[k];
      var url = URL.createObjectURL(new Blob([d.text], { type: d.mime }));
      blobUrls.push(url);
      if (i) holder.appendChild(document.createTextNode(" · "));
      var a = document.createElement("a");
      a.id = "calc-dl-" + k; a.href = url; a.download = d.filename;
      a.textContent = k.length <= 4 ? k.toUpperCase() : k;
      holder.appendChild(a);
    });
  }
  function show(res, fromUrl) {
    if (!res.ok) {
      message((fromUrl ? "This link's inputs were not valid: " : "") + res.error +
        (fromUrl ? " The result below is for the default inputs." : " The result below is unchanged."));
      return;
    }
    message("");
    resultEl.innerHTML = res.html;
    resultEl.setAttribute("data-prerendered", "false");
    setDownloads(res.downloads);
    var q = query(params());
    document.getElementById("calc-permalink").href = "?" + q;
    history.replaceState(null, "", "?" + q + location.hash);
    root.setAttribute("data-result-ms", String(Math.round(performance.now())));
    root.setAttribute("data-result-seq", String(seq));
    status("Computed in your browser by Python (Pyodide) at " + new Date().toLocaleTimeString() + ".");
    if (chartEl) {
      chartEl.hidden = !res.chart;
      // Vega's first compile takes most of a second on the main thread: let the result table
      // paint first, then draw the chart in the next task.
      if (res.chart && window.atlasCharts) setTimeout(function () { window.atlasCharts.draw(chartEl, res.chart); }, 0);
    }
  }
  function fail(text) {
    setState("failed");
    if (worker) { worker.terminate(); worker = null; }
    status("The interactive calculator is unavailable: " + text + " The result below was computed when the site was built, for the default inputs.");
    runBtn.disabled = true;
  }
  function tick() {
    if (state !== "booting") return;
    status(stage + "… " + ((performance.now() - started) / 1000).toFixed(0) + " s" +
      (root.getAttribute("data-busy") === "true" ? ". Your inputs will be computed as soon as Python has loaded." : ""));
    if (performance.now() - started > timeoutMs) {
      fail("Python did not finish loading within " + Math.round(timeoutMs / 1000) + " s.");
      return;
    }
    setTimeout(tick, 500);
  }
  /* Runs are posted at once, even while Python boots: the worker queues them and computes the
   * first as soon as it is ready, without a round trip through this page. Only the newest
   * run's answer is shown. */
  function run(p, fromUrl) {
    if (state === "failed" || !worker) return;
    seq += 1;
    root.setAttribute("data-busy", "true");
    worker.postMessage({ type: "run", id: seq, params: p, fromUrl: fromUrl });
    if (state !== "ready") status("Your inputs will be computed as soon as Python has loaded.");
  }

  form.addEventListener("submit", function (ev) { ev.preventDefault(); run(params(), false); });
  fields().forEach(function (el) {
    if (el.tagName !== "SELECT" || !el.hasAttribute("data-sets-load")) return;
    el.addEventListener("change", function () {
      var opt = el.selectedOptions[0];
      syncUnit(el);
      var load = form.elements[el.getAttribute("data-sets-load")];
      var sites = form.elements[el.getAttribute("data-sets-sites")];
      var n = Number(opt.getAttribute("data-sites") || 1);
      if (load && opt.hasAttribute("data-load")) load.value = String(Number(opt.getAttribute("data-load")) * n);
      if (sites && opt.hasAttribute("data-sites")) sites.value = String(n);
    });
  });
  Array.prototype.forEach.call(form.querySelectorAll("input[type=file][data-into]"), function (input) {
    input.addEventListener("change", function () {
      var target = form.elements[input.getAttribute("data-into")];
      var file = input.files && input.files[0];
      var max = Number(input.getAttribute("data-max-bytes")) || 1048576;
      if (!file || !target) return;
      if (file.size > max) { message("“" + file.name + "” is " + file.size + " bytes; the limit is " + max + " bytes. Nothing was read."); input.value = ""; return; }
      file.arrayBuffer().then(function (buf) {
        var text;
        try { text = new TextDecoder("utf-8", { fatal: true }).decode(buf); } catch (e) { text = null; }
        if (text === null || text.indexOf("\u0000") !== -1) { message("“" + file.name + "” is not a UTF-8 text file. Nothing was read."); input.value = ""; return; }
        target.value = text;
        message("");
      });
    });
  });
  var fromUrl = applyUrl();
  if (typeof Worker === "undefined") { fail("this browser cannot run Web Workers."); return; }
  setState("booting");
  try {
    /* Boot speed: adopt the worker pyboot.js started in <head>; its early messages are
     * replayed (in order) once the handlers below are set, before any later message. */
    var early = window.__atlasEarlyWorker;
    window.__atlasEarlyWorker = null;
    worker = early ? early.worker : new Worker(new URL("pyworker.mjs", base), { type: "module", name: calcName || "" });
    if (early) queueMicrotask(early.replay);
  } catch (e) { fail("the worker could not start (" + e.message + ")."); return; }
  worker.onmessage = function (ev) {
    var m = ev.data || {};
    if (m.type === "progress") { stage = m.detail; return; }
    if (m.type === "ready") {
      setState("ready");
      root.setAttribute("data-boot-ms", String(Math.round(performance.now() - started)));
      root.setAttribute("data-ready-ms", String(Math.round(performance.now())));
      if (m.phases) {
        /* "start": when the worker began, in ms since this page's navigation; then each phase's length */
        var ph = Object.assign({ start: Math.round(m.startedAt - performance.timeOrigin) }, m.phases);
        root.setAttribute("data-boot-phases", JSON.stringify(ph));
      }
      root.setAttribute("data-bytecode", m.bytecode ? "used" : "not used");
      if (root.getAttribute("data-busy") === "true") status("Python is ready; computing your inputs…");
      else { status("Python is ready. Change the inputs and press Compute."); releasePage(); }
      return;
    }
    if (m.type === "boot-error") { fail("Python could not be loaded (" + m.message + ")."); return; }
    if ((m.type === "result" || m.type === "run-error") && m.id !== seq) return; /* superseded */
    if (m.type === "result") {
      root.removeAttribute("data-busy");
      if (typeof m.ms === "number") root.setAttribute("data-run-ms", String(m.ms));
      show(m.result, !!(fromUrl && m.id === 1));
      releasePage();
      return;
    }
    if (m.type === "run-error") {
      root.removeAttribute("data-busy");
      message("The calculator hit an internal error and kept the previous result: " + m.message);
      releasePage();
    }
  };
  worker.onerror = function (ev) { fail("the worker failed (" + (ev.message || "unknown error") + ")."); };
  tick();
  if (fromUrl) run(fromUrl, true);
})();
