/* Calculator pages, first script in <head>: start the Pyodide worker before the page's
 * stylesheets and other scripts are even fetched, so the ~13 MB runtime downloads and
 * compiles while the page renders. Messages that arrive before calculator.js takes the
 * worker over are kept and handed to it in order; if anything here fails, calculator.js
 * starts its own worker and handles every failure as before.
 *
 * It also holds back Material's own script (the bundle: header, navigation, search, palette)
 * while Python boots. On a 2-core machine, running it then (about 0.3 s of main-thread work,
 * then indexing the 1.2 MB search index in a worker) added about a quarter to the Python boot.
 * The page is complete without it: the HTML is rendered, links and the navigation drawer work.
 * The bundle is loaded, and Material starts as on any page, as soon as the first result is
 * shown or Python is ready or has failed (calculator.js calls __atlasReleasePage), when the
 * reader does anything (a key, a pointer, a touch, focus), when the page was opened from a
 * search (?q= or ?h=), and after HOLD_MAX_MS in any case. */
(function () {
  "use strict";
  var HOLD_MAX_MS = 15000;
  var script = document.currentScript;
  var EVENTS = ["keydown", "pointerdown", "touchstart", "focusin"];
  var released = false;

  function inject() {
    var held = document.querySelectorAll("script[data-atlas-held-src]");
    var waiting = held.length;
    Array.prototype.forEach.call(held, function (h) {
      var tag = document.createElement("script");
      tag.src = h.getAttribute("data-atlas-held-src");
      tag.async = false;
      tag.onload = tag.onerror = function () {
        waiting -= 1;
        if (waiting) return;
        /* Material mounts its components on DOMContentLoaded, which has passed: replay it.
         * Only Material listens by now (the site's own scripts check readyState instead). */
        document.dispatchEvent(new Event("DOMContentLoaded"));
        document.documentElement.setAttribute("data-atlas-material", "loaded");
      };
      h.parentNode.insertBefore(tag, h.nextSibling);
    });
  }
  function release() {
    if (released) return;
    released = true;
    EVENTS.forEach(function (t) { removeEventListener(t, release, true); });
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", inject, { once: true });
    else inject();
  }
  window.__atlasReleasePage = release;
  document.documentElement.setAttribute("data-atlas-material", "held");
  /* What Material's bundle does first, done now so the header keeps its place (search box,
   * palette toggle) from the first paint instead of shifting when the bundle starts. */
  document.documentElement.classList.remove("no-js");
  document.documentElement.classList.add("js");
  EVENTS.forEach(function (t) { addEventListener(t, release, true); });
  setTimeout(release, HOLD_MAX_MS);
  if (/[?&](q|h)=/.test(location.search)) release();

  if (!script || typeof Worker === "undefined") { release(); return; }
  try {
    /* The worker of this build: data-worker is pyworker.mjs?v=<its content hash>, so a cached older
     * worker is never run; the manifest's hash goes along (?manifest=), so the worker fetches this
     * build's manifest, which names the code pack and data bundle by theirs. calculator.js makes
     * the same URL from this tag. */
    var url = new URL(script.getAttribute("data-worker") || "pyworker.mjs", script.getAttribute("data-worker") ? document.baseURI : script.src);
    if (script.getAttribute("data-manifest")) url.searchParams.set("manifest", script.getAttribute("data-manifest"));
    var worker = new Worker(url, { type: "module", name: script.getAttribute("data-calculator") || "" });
    var kept = [];
    worker.onmessage = function (ev) { kept.push(["message", ev]); };
    worker.onerror = function (ev) { kept.push(["error", ev]); };
    window.__atlasEarlyWorker = {
      worker: worker,
      /* Called by calculator.js after it has set its own handlers. */
      replay: function () {
        kept.forEach(function (k) {
          var fn = k[0] === "message" ? worker.onmessage : worker.onerror;
          if (fn) fn.call(worker, k[1]);
        });
        kept = [];
      }
    };
  } catch (e) {
    window.__atlasEarlyWorker = null;
    release();
  }
})();
