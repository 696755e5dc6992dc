/* Calculator pages, first script in <head>: start the Pyodide worker before the page's
 * stylesheets and other scripts are even fetched, so the runtime (about 5 MB as Brotli) downloads and
 * compiles while the page renders. Messages that arrive before calculator.js takes the
 * worker over are kept and handed to it in order; if anything here fails, calculator.js
 * starts its own worker and handles every failure as before.
 *
 * Material's own script (header, navigation, search, palette) runs at once, as on every other
 * page: it used to be held back until Python was ready, because it cost about a quarter of the
 * boot on 2 cores, but most of that cost was indexing the 1.2 MB search index, which now waits
 * until the reader starts to search (searchdefer.js). tools/benchmark.py measures the first
 * result against a bare Pyodide boot with it running. */
(function () {
  "use strict";
  var script = document.currentScript;

  if (!script || typeof Worker === "undefined") return;
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
  }
})();
