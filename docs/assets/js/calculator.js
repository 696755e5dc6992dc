/* Calculator pages: boot Pyodide in a module worker, keep the page responsive,
 * show progress, give up with a visible message after a time-out, and keep
 * the build-time (prerendered) result until a new one is computed. Works for
 * every calculator: the form's named fields are the parameters, the root's
 * data-calculator names the Python calculator. All result markup is produced
 * and escaped by Python; this script only moves it into the page.
 *
 * Limits: Python must load within the boot limit (data-timeout-ms, 60 s), counted from the
 * page's navigation; a run must answer within the run limit (RUN_LIMIT_MS), or the worker is
 * stopped, the reader told, and Python restarted. At most one run is in flight; inputs given
 * meanwhile wait, and only the newest of them is computed next (a burst of changes costs two
 * runs, not one per change). ?atlas_timeout_ms= and ?atlas_run_timeout_ms= (tests, slow
 * machines) are clamped to BOOT_RANGE and RUN_RANGE: a link cannot remove a limit.
 *
 * While Python boots, the status line counts the bytes received of each file the worker fetches and names
 * any file that has sent nothing for 5 s (the worker's {type: "transfer"} messages); it keeps waiting, as a
 * slow link may resume, up to the boot limit. The status line sits above the message box: its words point
 * down to it ("see the message below"). */
(function () {
  "use strict";
  var script = document.currentScript;
  var root = document.getElementById("atlas-calculator");
  if (!root || !script) return;
  root.setAttribute("data-script-ms", String(Math.round(performance.now())));  /* when this script took over */
  var base = new URL("./", script.src);
  /* The worker's URL as pyboot.js makes it from its tag (pyworker.mjs at its content version, with
   * the version of this build's code manifest); without that tag, the worker beside this script. */
  var bootTag = document.querySelector("script[data-worker]");
  var workerUrl = bootTag ? new URL(bootTag.getAttribute("data-worker"), document.baseURI) : new URL("pyworker.mjs", base);
  if (bootTag && bootTag.getAttribute("data-manifest")) workerUrl.searchParams.set("manifest", bootTag.getAttribute("data-manifest"));
  var calcName = root.getAttribute("data-calculator");
  var form = root.querySelector("form");
  var statusEl = document.getElementById("atlas-calc-status");
  var msgEl = document.getElementById("atlas-calc-message");
  var resultEl = document.getElementById("atlas-calc-result");
  var chartEl = root.querySelector('.atlas-chart[data-chart-id="calc-chart"]');
  var runBtn = document.getElementById("calc-run");
  /* Limits in ms, chosen by the Benchmark Atlas: a cold boot takes about 3 s on a 2-core machine
   * (so 3 s is the least a link may set) and a run well under 1 s (a 5,000-row CSV about 0.8 s). */
  var BOOT_RANGE = [3000, 300000], RUN_LIMIT_MS = 20000, RUN_RANGE = [1000, 120000];
  var notes = [];
  function limit(param, fallback, range) {
    var raw = new URLSearchParams(location.search).get(param);
    if (raw === null) return fallback;
    var n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
    var v = isNaN(n) ? fallback : Math.min(range[1], Math.max(range[0], n));
    if (v !== n) notes.push("The link's " + param + "=“" + raw + "” is outside " + range[0] + " to " + range[1] + " ms; using " + v + " ms.");
    return v;
  }
  var timeoutMs = limit("atlas_timeout_ms", Number(root.getAttribute("data-timeout-ms")) || 60000, BOOT_RANGE);
  var runLimitMs = limit("atlas_run_timeout_ms", RUN_LIMIT_MS, RUN_RANGE);
  root.setAttribute("data-boot-limit-ms", String(timeoutMs));
  root.setAttribute("data-run-limit-ms", String(runLimitMs));
  /* Inputs given within this many ms of the previous ones, or while a run is in flight, wait and
   * are sent once the reader has paused this long: under a burst of changes only the first and
   * the newest are computed, and a single press is not delayed at all. */
  var QUIET_MS = 60;
  /* The boot clock starts at navigation (performance.now() is ms since then), not when this script runs. */
  var state = "booting", started = 0, stage = "Starting", worker = null, seq = 0, restarts = 0;
  /* why Python was last restarted: {said: what happened, in the message box; after: the restart in the status line} */
  var restartWhy = null;
  var inflight = null, pending = null, runTimer = null, slowTimer = null, quietTimer = null, stopped = null, lastInput = 0;
  var blobUrls = [];
  var hostingUrl = new URL("../../about/hosting/", base).href;

  function fields() {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && el.type !== "file" && el.type !== "submit" && el.type !== "button";
    });
  }
  function setState(s) {
    state = s;
    root.setAttribute("data-state", s);
  }
  function status(text) { statusEl.textContent = text; }
  /* How Python booted on this visit and why (data-boot-from, data-boot-why): a sentence after the result's status. */
  function bootLine() {
    var from = root.getAttribute("data-boot-from");
    if (!from) return "";
    var why = root.getAttribute("data-boot-why");
    return " Python booted from " + (from === "snapshot" ? "the build's memory snapshot" : "its own start-up and the calculator's files") +
      (why ? ": " + why : "") + ".";
  }
  function message(text) {
    text = notes.concat(text ? [text] : []).join(" ");
    msgEl.hidden = !text;
    msgEl.textContent = text || "";
  }
  /* A failure in the status line: plain words, a link to the Hosting page where the fix is a
   * server setting, and the technical text behind a "Details" toggle. */
  function statusParts(text, hint, hosting, detail) {
    statusEl.textContent = text;
    if (hint) {
      /* "… see Hosting." links the word to the Hosting page */
      var at = hosting ? hint.lastIndexOf("Hosting") : -1;
      statusEl.appendChild(document.createTextNode(" " + (at < 0 ? hint : hint.slice(0, at))));
      if (at >= 0) {
        var a = document.createElement("a");
        a.href = hostingUrl; a.textContent = "Hosting";
        statusEl.appendChild(a);
        statusEl.appendChild(document.createTextNode(hint.slice(at + 7)));
      }
    }
    if (detail) {
      var d = document.createElement("details");
      d.className = "atlas-details";
      var sm = document.createElement("summary");
      sm.textContent = "Details";
      var pre = document.createElement("pre");
      pre.textContent = detail;
      d.appendChild(sm); d.appendChild(pre);
      statusEl.appendChild(d);
    }
  }
  function params() {
    var p = { calc: calcName };
    fields().forEach(function (el) {
      p[el.name] = String(el.value).trim();  // the forms have text inputs and selects only
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
  function numberFieldKeeps(text) {
    var probe = document.createElement("input");
    probe.type = "number";
    probe.value = text.trim();
    return probe.value !== "" && isFinite(Number(text));
  }
  /* Number fields whose typed text the browser could not read (badInput: it reports "" for them,
   * which Python would take as "use the default"). */
  function unreadable() {
    return fields().filter(function (el) { return el.type === "number" && el.validity && el.validity.badInput; })
      .map(function (el) { return el.name; });
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
      } else if (el.type === "number" && q.has(el.name) && q.get(el.name).trim() && !numberFieldKeeps(q.get(el.name))) {
        /* 1e400: a number to the pattern, but beyond what the field holds (it would empty itself) */
        problems.push(el.name + " “" + q.get(el.name) + "” is too large a number");
      }
    });
    if (problems.length) {
      message("This link could not be used (" + problems.join("; ") + "); showing the default inputs.");
      return null;
    }
    fields().forEach(function (el) {
      if (!q.has(el.name)) return;
      el.value = q.get(el.name);
      if (el.tagName === "SELECT") syncUnit(el);
    });
    /* a link naming a scenario but not its load (or sites) means the scenario's own benchmark, as
     * choosing it in the form does, never the default scenario's load */
    fields().forEach(function (el) {
      if (el.tagName === "SELECT" && el.hasAttribute("data-sets-load") && q.has(el.name)) setsLoad(el, q);
    });
    return params();
  }
  /* The load and sites fields follow scenario select ``el``'s option (its benchmark's load per site x
   * sites carrying traffic), except those the link ``given`` (URLSearchParams) sets itself. */
  function setsLoad(el, given) {
    var opt = el.selectedOptions[0];
    if (!opt) return;
    var load = form.elements[el.getAttribute("data-sets-load")];
    var sites = form.elements[el.getAttribute("data-sets-sites")];
    var n = Number(opt.getAttribute("data-sites") || 1);
    if (load && opt.hasAttribute("data-load") && !(given && given.has(load.name))) load.value = String(Number(opt.getAttribute("data-load")) * n);
    if (sites && opt.hasAttribute("data-sites") && !(given && given.has(sites.name))) sites.value = String(n);
  }
  /* True when any field differs from the default inputs the prerendered result was computed for. */
  function differsFromDefaults() {
    return fields().some(function (el) {
      if (el.tagName === "SELECT") {
        /* a select with no option marked selected starts at its first */
        var first = Array.prototype.findIndex.call(el.options, function (o) { return o.defaultSelected; });
        return el.selectedIndex !== Math.max(0, first);
      }
      return "defaultValue" in el && el.value !== el.defaultValue;
    });
  }
  /* A link whose inputs differ from the defaults: until its own result is computed, the prerendered
   * result (the default example) says so above it, and its downloads are held back (they would be the
   * default's files). ``linkDone(text)`` ends that state: with ``text``, the mark stays and says why
   * (Python failed, or the link was refused) and the default's downloads come back, named as such. */
  var pendingEl = null, heldLinks = null;
  function linkPending() {
    var holder = document.getElementById("atlas-calc-downloads");
    pendingEl = document.createElement("p");
    pendingEl.id = "atlas-calc-pending";
    pendingEl.className = "atlas-pending";
    pendingEl.textContent = "Default example below, not your link: your link's inputs are being computed (as soon as Python has loaded). " +
      "Its downloads are held back until then.";
    resultEl.parentNode.insertBefore(pendingEl, resultEl);
    resultEl.setAttribute("data-link-pending", "true");
    report.hold(true);
    if (holder) {
      heldLinks = document.createDocumentFragment();
      while (holder.firstChild) heldLinks.appendChild(holder.firstChild);
      holder.textContent = "held back until your link's result is computed";
      holder.setAttribute("data-held", "true");
    }
  }
  function linkDone(text) {
    if (!pendingEl) return;
    var holder = document.getElementById("atlas-calc-downloads");
    if (text) {
      pendingEl.textContent = "Default example below, not your link: " + text;
      if (holder && heldLinks) { holder.textContent = ""; holder.appendChild(heldLinks); holder.appendChild(document.createTextNode(" (the default example's)")); }
      report.hold(false, " (the default example's)");
    } else {
      pendingEl.parentNode.removeChild(pendingEl);
      pendingEl = null;
    }
    heldLinks = null;
    if (holder) holder.removeAttribute("data-held");
    resultEl.removeAttribute("data-link-pending");
  }
  /* Downloads a result gives unwritten ("later": the worker writes a result's CSV and Helm values only once
   * no newer inputs wait: a burst of input computes results, not files) are asked for by askDownloads();
   * meanwhile the links' place says they are being written. ``downloadsWanted``: the id of the shown
   * result whose downloads are still to come; the page marks the result whose links are shown
   * (data-downloads-for). */
  var downloadsWanted = null, downloadsAsked = null;
  function setDownloads(downloads, id) {
    blobUrls.forEach(URL.revokeObjectURL); blobUrls = [];
    var holder = document.getElementById("atlas-calc-downloads");
    if (!holder) return;
    holder.textContent = "";
    holder.removeAttribute("data-held");
    var keys = Object.keys(downloads || {});
    if (keys.some(function (k) { return downloads[k].later; })) {
      downloadsWanted = id; downloadsAsked = null;
      holder.setAttribute("aria-busy", "true");
      holder.textContent = "writing the downloads of this result…";
      root.removeAttribute("data-downloads-for");
      return;
    }
    holder.removeAttribute("aria-busy");
    downloadsWanted = null;
    if (id) root.setAttribute("data-downloads-for", String(id));
    keys.forEach(function (k, i) {
      var d = downloads[k];
      var url = URL.createObjectURL(new Blob([d.text], { type: d.mime }));
      blobUrls.push(url);
      if (i) holder.appendChild(document.createTextNode(" · "));
      var a = document.createElement("a");
      a.id = "calc-dl-" + k; a.href = url; a.download = d.filename;
      a.textContent = d.label;  // calculators.catalogue.download_label, as the prerendered links
      holder.appendChild(a);
    });
  }
  function askDownloads() {
    if (downloadsWanted === null || downloadsAsked === downloadsWanted || inflight || pending || !worker || state !== "ready") return;
    downloadsAsked = downloadsWanted;
    worker.postMessage({ type: "downloads", id: downloadsWanted });
  }
  function downloadsDone(m) {
    if (m.id !== downloadsWanted) return; /* a newer result is shown */
    if (m.error) {
      var holder = document.getElementById("atlas-calc-downloads");
      downloadsWanted = null;
      if (holder) { holder.removeAttribute("aria-busy"); holder.textContent = "the downloads of this result could not be written (" + m.error + ")"; }
      return;
    }
    if (typeof m.written === "number") root.setAttribute("data-downloads-written", String(m.written));
    setDownloads(m.downloads, m.id);
  }
  /* The field a refusal is about (Python names it: catalogue.field_of; the browser names a number it
   * could not read) gets aria-invalid and is described by the message; every other field is cleared. */
  function markInvalid(names) {
    fields().forEach(function (el) {
      if (names.indexOf(el.name) !== -1) {
        el.setAttribute("aria-invalid", "true");
        el.setAttribute("aria-describedby", "atlas-calc-message");
      } else if (el.hasAttribute("aria-invalid")) {
        el.removeAttribute("aria-invalid");
        el.removeAttribute("aria-describedby");
      }
    });
  }
  function show(res, fromUrl, p, id) {
    if (!res.ok) {
      markInvalid(res.field ? [res.field] : []);
      linkDone(fromUrl ? "your link's inputs were refused (see the message above)." : "the newest inputs were refused (see the message above).");
      message((fromUrl ? "This link's inputs were not valid: " : "") + res.error +
        (fromUrl ? " The result below is for the default inputs." : " The result below is unchanged."));
      status("Python is ready. Those inputs were refused (see the message below); the result below is " +
        (fromUrl ? "for the default inputs." : "unchanged."));
      return;
    }
    markInvalid([]);
    linkDone(null);
    message("");
    resultEl.innerHTML = res.html;
    resultEl.setAttribute("data-prerendered", "false");
    setDownloads(res.downloads, id);
    report.shown(p);
    /* a page script of one calculator may want the result beside what is shown (Your deployment's points,
     * which its "Export inputs" writes): the inputs it was computed from and the whole result */
    root.dispatchEvent(new CustomEvent("atlas:result", { detail: { params: p, result: res } }));
    var q = query(params());
    document.getElementById("calc-permalink").href = "?" + q;
    history.replaceState(null, "", "?" + q + location.hash);
    root.setAttribute("data-result-ms", String(Math.round(performance.now())));
    root.setAttribute("data-result-seq", String(seq));
    status("Computed in your browser by Python (Pyodide) at " + new Date().toLocaleTimeString() + "." + bootLine());
    if (chartEl) {
      chartEl.hidden = !res.chart;
      // Vega's first compile takes most of a second on the main thread: let the result table
      // paint first, then draw the chart in the next task.
      if (res.chart && window.atlasCharts) setTimeout(function () { window.atlasCharts.draw(chartEl, res.chart); }, 0);
    }
  }
  /* ``text``: what failed, in plain words; ``o.hint``: what to do (its last "Hosting" links to
   * the Hosting page when ``o.hosting``); ``o.detail``: technical text behind "Details". */
  function fail(text, o) {
    o = o || {};
    root.setAttribute("data-failed-ms", String(Math.round(performance.now())));
    setState("failed");
    disarm(); clearTimeout(quietTimer);
    inflight = pending = null;
    root.removeAttribute("data-busy");
    if (worker) { worker.terminate(); worker = null; }
    linkDone("Python could not load, so your link's inputs were not computed (see the status above).");
    statusParts("The interactive calculator is unavailable: " + text + " The result below was computed when the site was built" +
      (resultEl.getAttribute("data-prerendered") === "true" ? ", for the default inputs." : "; the last result computed here is kept."),
      o.hint, o.hosting, o.detail);
    runBtn.disabled = true;
  }
  /* The files the worker is fetching, as its newest {type: "transfer"} message gave them: per file its site path,
   * bytes received (``got``) and expected (``total``, or null), ``done``, ``counted`` (false for a JavaScript module,
   * whose bytes a worker cannot see), ``stalled`` (nothing received for 5 s) and ``idleMs`` (since its last bytes,
   * when this page received the message, at ``transferAt``: its performance.now()). */
  var transfer = [], transferAt = 0;
  function mb(n) { return (n / 1e6).toFixed(1); }
  function idleS(f) { return Math.floor((f.idleMs + performance.now() - transferAt) / 1000); }
  /* "12.3 of 37.7 MB" received of file ``f`` (or "12.3 MB" when its size is not known) */
  function received(f) { return mb(f.got) + (f.total ? " of " + mb(f.total) : "") + " MB"; }
  /* What the files in flight say, for the status line: {bytes: the total received and what is still coming, file
   * by file; stalled: each file that has sent nothing for 5 s, named with its path and what it sent}. */
  function transferText() {
    var got = 0, total = 0, coming = [], stalled = [];
    transfer.forEach(function (f) {
      if (f.counted) {
        got += f.got;
        total += Math.max(f.total || 0, f.got);
      }
      if (f.done) return;
      var name = f.file.split("/").pop();
      if (f.counted) coming.push(name + " " + received(f));
      if (!f.stalled) return;
      stalled.push(f.counted ? f.file + ": no data for " + idleS(f) + " s (" + (f.got || f.total ? received(f) + " received" : "nothing received") + ")"
                             : f.file + ": still not loaded after " + idleS(f) + " s (a script: its bytes are not counted)");
    });
    return {
      bytes: total ? mb(got) + " of " + mb(total) + " MB received" + (coming.length ? " (" + coming.join(", ") + ")" : "") : "",
      stalled: stalled,
    };
  }
  /* The status line while Python boots: the stage, the seconds, the bytes received, and any stalled file by name. */
  function bootStatus() {
    var t = transferText();
    status((restarts ? "Restarting Python " + restartWhy.after + ". " : "") + stage + "… " +
      ((performance.now() - started) / 1000).toFixed(0) + " s" + (t.bytes ? ": " + t.bytes : "") +
      (t.stalled.length ? ". " + t.stalled.join("; ") + ". Still waiting: a slow link may resume" : "") +
      (root.getAttribute("data-busy") === "true" ? ". Your inputs will be computed as soon as Python has loaded." : ""));
  }
  function onTransfer(m) {
    transfer = m.files || [];
    transferAt = performance.now();
    var got = 0, total = 0, stalled = [];
    transfer.forEach(function (f) {
      if (f.counted) { got += f.got; total += Math.max(f.total || 0, f.got); }
      if (f.stalled && !f.done) stalled.push(f);
    });
    root.setAttribute("data-bytes-received", String(got));
    root.setAttribute("data-bytes-expected", String(total));
    if (stalled.length) {
      if (!root.hasAttribute("data-stalled")) {
        /* how long the file had sent nothing when the worker told this page (the goal: 5 s), and when this page showed it (ms since navigation) */
        root.setAttribute("data-stall-named-after-ms", String(stalled[0].idleMs));
        root.setAttribute("data-stall-named-ms", String(Math.round(performance.now())));
      }
      root.setAttribute("data-stalled", stalled.map(function (f) { return f.file; }).join(" "));
    } else {
      root.removeAttribute("data-stalled");
    }
    if (state === "booting") bootStatus();
    else if (root.getAttribute("data-report") === "busy") {
      var t = transferText();
      status("Making the XLSX report of this result…" + (t.bytes ? " " + t.bytes : "") + (t.stalled.length ? ". " + t.stalled.join("; ") + ". Still waiting: a slow link may resume." : ""));
    }
  }
  function tick() {
    if (state !== "booting") return;
    bootStatus();
    if (performance.now() - started > timeoutMs) {
      /* the boot limit: name the files that had stopped arriving, or those still coming */
      var t = transferText(), coming = transfer.filter(function (f) { return !f.done; }).map(function (f) { return f.file; });
      fail("Python did not finish loading within " + Math.round(timeoutMs / 1000) + " s" +
        (restarts ? " of its restart" : " of opening this page") +
        (t.stalled.length ? ": " + t.stalled.join("; ") + "." :
         coming.length ? ": still loading " + coming.join(", ") + " (the server or the network may be very slow)." :
         restarts ? "." : " (the server or the network may be very slow)."));
      return;
    }
    setTimeout(tick, 500);
  }
  function busy() {
    if (inflight || pending) root.setAttribute("data-busy", "true");
    else root.removeAttribute("data-busy");
  }
  function post(req) {
    inflight = req;
    worker.postMessage({ type: "run", id: req.id, params: req.params, fromUrl: req.fromUrl });
    if (state === "ready") armRunTimer();
  }
  function armRunTimer() {
    clearTimeout(runTimer); clearTimeout(slowTimer);
    runTimer = setTimeout(stuck, runLimitMs);
    /* a run that takes a while says so, instead of leaving the last "Computed …" line up */
    slowTimer = setTimeout(function () {
      if (inflight && state === "ready") status("Computing your inputs… (stopped if it takes more than " + (runLimitMs / 1000) + " s)");
    }, 400);
  }
  function disarm() { clearTimeout(runTimer); clearTimeout(slowTimer); }
  function postPending() {
    clearTimeout(quietTimer);
    if (!pending || inflight || !worker) return;
    var wait = lastInput + QUIET_MS - performance.now();
    if (wait > 0) { quietTimer = setTimeout(postPending, wait); return; }
    var next = pending; pending = null; post(next);
  }
  /* A run that has not answered within the run limit (an endless loop, a runaway recursion):
   * stop the worker, keep the result shown, say so, and start Python again. The stopped inputs
   * are not run again; inputs given meanwhile are, once Python is back. */
  function stuck() {
    if (!inflight || state !== "ready") return;
    stopped = inflight;
    restartWorker({ said: "The calculation was stopped: it did not finish within " + (runLimitMs / 1000) + " s.",
                    after: "after the stopped calculation" });
  }
  /* Python is started again after ``why`` ({said: what happened, for the message box; after: "after …", for the status
   * line}). The inputs that caused it (``stopped``) are not run again by themselves, also when the same inputs wait
   * (typed, then pressed: they ran twice, and a memory blow-up restarted Python twice); newer inputs are. While Python
   * restarts, the message says so; once it is back, the message says it was restarted and that the reader may change
   * the inputs or press Compute to try them again, and the status line says the same, not "restarting" beside it. */
  function restartWorker(why) {
    disarm();
    if (downloadsWanted !== null) downloadsDone({ id: downloadsWanted, error: "Python restarted before they were written: press Compute" });
    inflight = null;
    if (pending && stopped && JSON.stringify(pending.params) === JSON.stringify(stopped.params)) pending = null;
    busy();
    if (worker) worker.terminate();
    restarts += 1;
    restartWhy = why;
    root.setAttribute("data-restarts", String(restarts));
    message(why.said + " The result below is unchanged; Python is restarting.");
    transfer = [];
    root.removeAttribute("data-stalled");
    started = performance.now();
    stage = "Starting";
    setState("booting");
    try {
      worker = new Worker(workerUrl, { type: "module", name: calcName || "" });
    } catch (e) { fail("the worker could not start (" + e.message + ")."); return; }
    listen(worker);
    tick();
    if (pending) { var next = pending; pending = null; post(next); }
  }
  /* One run in flight at a time. While it runs (or while Python boots, or while inputs come in
   * a burst), newer inputs wait in a single slot, the newest replacing the older: only the
   * newest is computed next and shown.
   * The first run is posted at once, even while Python boots: the worker queues it and computes
   * it as soon as it is ready, without a round trip through this page. */
  function run(p, fromUrl) {
    if (state === "failed" || !worker) return;
    var bad = unreadable();
    markInvalid(bad);
    if (bad.length) {
      message("Not computed: the browser could not read " + bad.join(", ") + " as a number (too large, or not a number). The result below is unchanged.");
      return;
    }
    seq += 1;
    var now = performance.now(), hurried = now - lastInput < QUIET_MS;
    lastInput = now;
    var req = { id: seq, params: p, fromUrl: fromUrl };
    if (inflight || hurried) { pending = req; postPending(); }
    else post(req);
    busy();
    if (pending && state === "ready") status("Your newest inputs will be computed when the current calculation finishes.");
    if (state !== "ready") status((restarts ? "Restarting Python. " : "") + "Your inputs will be computed as soon as Python has loaded.");
  }

  form.addEventListener("submit", function (ev) { ev.preventDefault(); clearTimeout(liveTimer); run(params(), false); });
  /* Live results: a changed input computes again without pressing Compute (the button stays, for a
   * run after an error and for readers who expect it). Typing waits LIVE_MS after the last key; a
   * select runs at once. Bursts go through run()'s single slot, so the newest inputs win. */
  var LIVE_MS = 250, liveTimer = null;
  function live(delay) {
    clearTimeout(liveTimer);
    liveTimer = setTimeout(function () { run(params(), false); }, delay);
  }
  fields().forEach(function (el) {
    if (el.tagName === "SELECT") el.addEventListener("change", function () { live(0); });
    else el.addEventListener("input", function () { live(LIVE_MS); });
  });
  fields().forEach(function (el) {
    if (el.tagName !== "SELECT" || !el.hasAttribute("data-sets-load")) return;
    el.addEventListener("change", function () { syncUnit(el); setsLoad(el, null); });
  });
  /* A select marked data-same-doc-as="<name>" offers only the options of the product (data-doc) chosen in
   * select <name>: the others are disabled, and with ``move`` a choice of another product moves to the
   * first of the same product (a link's choice is kept: Python says why a cross-product pair is refused). */
  function sameDoc(sel, move) {
    var other = form.elements[sel.getAttribute("data-same-doc-as")];
    var opt = other && other.selectedOptions[0];
    if (!opt || !opt.hasAttribute("data-doc")) return;
    var doc = opt.getAttribute("data-doc");
    Array.prototype.forEach.call(sel.options, function (o) { o.disabled = o.getAttribute("data-doc") !== doc; });
    var cur = sel.selectedOptions[0];
    if (move && cur && cur.disabled) {
      var first = Array.prototype.find.call(sel.options, function (o) { return !o.disabled; });
      if (first) sel.value = first.value;
    }
  }
  Array.prototype.forEach.call(form.querySelectorAll("select[data-same-doc-as]"), function (sel) {
    var other = form.elements[sel.getAttribute("data-same-doc-as")];
    if (other) other.addEventListener("change", function () { sameDoc(sel, true); });
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
        live(0);
      });
    });
  });
  /* The report: "XLSX" and "Print report". The prerendered result's XLSX is the build's (a file of the site);
   * for a result computed here, the first click asks the worker (which loads the report pack then) for
   * the XLSX of the inputs that gave the shown result, and the link then downloads it.
   *
   * The link shows what it gives (after Compute it kept the default's file and name, so copying
   * it or a middle click gave the default report). Its states, in data-link-state: "build" (the prerendered
   * result's file, its href and name as built), "held" (a link's own result is being computed: no href, disabled,
   * as the CSV and Helm links are held), "on-click" (a result computed here whose workbook is not made yet: no href,
   * so there is nothing to copy or open in another tab, and it acts as a button that makes it), "made" (an object
   * URL of this result's workbook with its own file name: copying it or a middle click gives that workbook while
   * the page is open). A newer result puts it back to "on-click". */
  var report = (function () {
    var MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    var link = document.getElementById("calc-dl-xlsx");
    var printBtn = document.getElementById("calc-print");
    var forParams = null, asked = 0, askedKey = "", blobUrl = null;
    var built = link ? { href: link.getAttribute("href"), download: link.getAttribute("download"), text: link.textContent, title: link.getAttribute("title") } : null;
    function setLink(state, o) {
      if (!link) return;
      o = o || {};
      link.setAttribute("data-link-state", state);
      ["href", "download", "role", "tabindex", "aria-disabled"].forEach(function (a) { link.removeAttribute(a); });
      link.textContent = built.text + (o.note || "");
      link.title = built.title || "";
      if (state === "build") {
        link.setAttribute("href", built.href);
        link.setAttribute("download", built.download);
      } else if (state === "held") {
        link.setAttribute("aria-disabled", "true");
        link.title = "Held back until your link's result is computed";
      } else if (state === "on-click") {
        link.setAttribute("role", "button");
        link.setAttribute("tabindex", "0");
        link.title = "Makes the XLSX of the result shown (inputs, results, totals, warnings, method and sources as one workbook)";
      } else if (state === "made") {
        link.setAttribute("href", o.href);
        link.setAttribute("download", o.filename);
        link.title = "The XLSX of the result shown: " + o.filename;
      }
    }
    if (printBtn) {
      printBtn.hidden = false;
      printBtn.addEventListener("click", function () { window.print(); });
    }
    /* On paper every part of the result shows: closed <details> (fill per node, runs that cannot be
     * sized) open while printing and close again after. */
    var opened = [];
    window.addEventListener("beforeprint", function () {
      opened = Array.prototype.filter.call(resultEl.querySelectorAll("details:not([open])"), function (d) { d.open = true; return true; });
    });
    window.addEventListener("afterprint", function () { opened.forEach(function (d) { d.open = false; }); opened = []; });
    function key(p) { return p ? JSON.stringify(p) : ""; }
    if (link) link.addEventListener("keydown", function (ev) {
      /* "on-click" acts as a button: Enter and Space press it */
      if (link.getAttribute("data-link-state") === "on-click" && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); link.click(); }
    });
    if (link) link.addEventListener("click", function (ev) {
      var linkState = link.getAttribute("data-link-state") || "build";
      if (linkState === "held") { ev.preventDefault(); return; }
      if (linkState !== "on-click") return; /* the build's, or made already */
      ev.preventDefault();
      if (link.getAttribute("aria-busy") === "true") return;
      if (state === "failed") { message("The XLSX of this result cannot be made: Python is unavailable (see the status above)."); return; }
      if (!worker || state !== "ready") { message("The XLSX of this result can be made once Python has loaded."); return; }
      asked += 1;
      askedKey = key(forParams);
      link.setAttribute("aria-busy", "true");
      root.setAttribute("data-report", "busy");
      status("Making the XLSX report of this result…");
      worker.postMessage({ type: "report", id: asked, params: forParams });
    });
    return {
      /* a new result is shown, computed from the parameters ``p``: its workbook is made on a click */
      shown: function (p) {
        forParams = p || null;
        if (blobUrl) { URL.revokeObjectURL(blobUrl); blobUrl = null; }
        setLink("on-click");
      },
      /* while a link's result is coming (``held`` true), or the default example's again (``note``: said after it) */
      hold: function (held, note) { if (!forParams) setLink(held ? "held" : "build", { note: note }); },
      done: function (m) {
        if (!link || m.id !== asked) return;
        link.removeAttribute("aria-busy");
        if (askedKey !== key(forParams)) { root.removeAttribute("data-report"); return; } /* a newer result is shown */
        if (m.error) {
          root.setAttribute("data-report", "failed");
          message("The XLSX report could not be made: " + m.error);
          status("Python is ready. The XLSX report failed (see the message below); the result below is unchanged.");
          return;
        }
        if (blobUrl) URL.revokeObjectURL(blobUrl);
        blobUrl = URL.createObjectURL(new Blob([m.bytes], { type: MIME }));
        setLink("made", { href: blobUrl, filename: m.filename });
        root.setAttribute("data-report", "ready");
        status("The XLSX report of this result is ready (" + m.filename + ").");
        link.click();
      },
    };
  })();
  var fromUrl = applyUrl();
  Array.prototype.forEach.call(form.querySelectorAll("select[data-same-doc-as]"), function (sel) { sameDoc(sel, false); });
  if (notes.length && msgEl.hidden) message("");
  if (fromUrl && differsFromDefaults()) {
    linkPending();
    document.getElementById("calc-permalink").href = "?" + query(fromUrl);
  }
  if (typeof Worker === "undefined") { fail("this browser cannot run Web Workers."); return; }
  setState("booting");
  /* The worker script itself failed (404, served with a type the browser refuses, a syntax
   * error): the error event says nothing useful, so ask the server about the file. */
  function workerFailed(ev) {
    var url = workerUrl;
    var file = url.pathname.replace(new URL("../../", base).pathname, "");
    var said = ev && ev.message ? ev.message : "";
    fetch(url, { method: "HEAD", cache: "no-store" }).then(function (r) {
      var ct = (r.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
      if (!r.ok) fail(file + " (the calculator's worker script) is missing: the server answered HTTP " + r.status + ".", { hint: "Copy the whole built site to the server again.", detail: said });
      else if (!/javascript/.test(ct)) fail(file + " (the calculator's worker script) is served as “" + (ct || "no type") + "”, which the browser will not run as a module.", { hint: "Configure the web server to send text/javascript for .mjs files; see Hosting.", hosting: true, detail: "Content-Type: " + (ct || "(none)") });
      else fail(file + " (the calculator's worker script) failed" + (said ? ": " + said : "") + ".", { detail: said });
    }, function (e) {
      fail(file + " (the calculator's worker script) could not be fetched (" + e.message + ").", { detail: said });
    });
  }
  function listen(w) {
    w.onmessage = function (ev) {
      if (w !== worker) return; /* a stopped worker's late message */
      var m = ev.data || {};
      if (m.type === "progress") { stage = m.detail; return; }
      if (m.type === "transfer") { onTransfer(m); return; }
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
        /* how Python booted: "snapshot" (the build's memory snapshot) or "files" (its own start-up, then
         * the code pack and data bundle), and why not from the snapshot when it had one */
        root.setAttribute("data-boot-from", m.from || "files");
        /* and why this visit took that boot (pyworker.mjs, chooseBoot): a kept copy, or the link's measured rate */
        if (m.why) root.setAttribute("data-boot-why", m.why);
        else root.removeAttribute("data-boot-why");
        if (m.snapshotError) root.setAttribute("data-snapshot-error", m.snapshotError);
        else root.removeAttribute("data-snapshot-error");
        /* every file was checked against its SHA-256 before use: by Web Crypto, or by the worker's own script where
         * the page is not a secure context; and the ms each check took (the snapshot's is the largest) */
        if (m.verifiedWith) root.setAttribute("data-verified-with", m.verifiedWith);
        if (m.hashMs) root.setAttribute("data-hash-ms", JSON.stringify(m.hashMs));
        if (m.heap) root.setAttribute("data-heap-bytes", String(m.heap));
        var again = restarts ? "Python was restarted " + restartWhy.after :
          "Python is ready (" + (m.from === "snapshot" ? "from the build's memory snapshot" : "from its own start-up and the calculator's files") +
          (m.why ? ": " + m.why : "") + ")";
        if (restarts) {
          /* the message said "Python is restarting": it now says what the status line says */
          message(restartWhy.said + " The result below is unchanged. Python was restarted; " +
            (inflight ? "your newer inputs are being computed." : "those inputs are not run again by themselves: change them, or press Compute to try them again."));
        }
        if (inflight) { armRunTimer(); status(again + "; computing your inputs…"); }
        else status(again + ". Change the inputs and press Compute.");
        return;
      }
      if (m.type === "boot-error") {
        /* a file whose bytes did not match: when its bytes and the digest to check them against were in, and when
         * the worker named it (ms since navigation), so that how soon it was named can be measured (the page shows it
         * at data-failed-ms, or once this script runs, data-script-ms, if that is later) */
        if (m.arrivedAt) {
          root.setAttribute("data-failed-file-arrived-ms", String(Math.round(m.arrivedAt - performance.timeOrigin)));
          root.setAttribute("data-failed-named-ms", String(Math.round(m.namedAt - performance.timeOrigin)));
        }
        fail((m.file ? m.file + " " : "") + m.message, { hint: m.hint, hosting: !!m.hosting, detail: m.detail });
        return;
      }
      if (m.type === "report") { report.done(m); return; }
      if (m.type === "downloads") { downloadsDone(m); return; }
      /* the worker's warm-up runs after a snapshot boot (pyworker.mjs): their ms, for the benchmark */
      if (m.type === "warm") {
        root.setAttribute("data-warm-ms", JSON.stringify(m.ms || []));
        if (m.error) root.setAttribute("data-warm-error", m.error);
        return;
      }
      if (m.type !== "result" && m.type !== "run-error") return;
      if (!inflight || m.id !== inflight.id) return;
      disarm();
      var doneParams = inflight.params;
      inflight = null;
      if (typeof m.runs === "number") root.setAttribute("data-runs-computed", String(m.runs));
      if (m.heap) root.setAttribute("data-heap-bytes", String(m.heap));
      var latest = m.id === seq; /* older answers are superseded by the newest inputs */
      /* after a fatal error the inputs waiting go to the restarted Python (restartWorker), not to this one */
      if (!m.fatal) postPending();
      busy();
      if (m.type === "result") {
        if (typeof m.ms === "number") root.setAttribute("data-run-ms", String(m.ms));
        if (latest) show(m.result, !!(fromUrl && m.id === 1), doneParams, m.id);
      } else if (latest || m.fatal) {
        linkDone("the calculator hit an internal error (see the message above).");
        message("The calculator hit an internal error and kept the previous result: " + m.message);
        status("Python is ready. The last inputs were not computed (see the message below); the result below is unchanged.");
      }
      if (m.fatal) {
        stopped = { params: doneParams };  /* these inputs are not run again by themselves (restartWorker) */
        restartWorker({ said: "The calculator hit an internal error: " + m.message.replace(/\.$/, "") + ".",
                        after: /memory/i.test(m.message) ? "after it ran out of memory" : "after an internal error" });
        return;
      }
      askDownloads();
    };
    w.onerror = function (ev) {
      if (ev && ev.preventDefault) ev.preventDefault();
      if (w === worker) workerFailed(ev); /* a stopped worker's dying words are not news */
    };
  }
  try {
    /* Boot speed: adopt the worker pyboot.js started in <head>; its early messages are
     * replayed (in order) once the handlers below are set, before any later message. */
    var early = window.__atlasEarlyWorker;
    window.__atlasEarlyWorker = null;
    worker = early ? early.worker : new Worker(workerUrl, { type: "module", name: calcName || "" });
    if (early) queueMicrotask(early.replay);
  } catch (e) { fail("the worker could not start (" + e.message + ")."); return; }
  listen(worker);
  tick();
  if (fromUrl) run(fromUrl, true);
})();
