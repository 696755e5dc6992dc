/* Calculator pages, in <head>: start the Pyodide worker before the page's other scripts
 * (Material's bundle, Vega) are even fetched, so the ~13 MB runtime downloads and compiles
 * while the page renders. Messages that arrive before calculator.js takes the worker over
 * are kept and handed to it in order; if anything here fails, calculator.js starts its own
 * worker and handles every failure as before. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || typeof Worker === "undefined") return;
  try {
    var worker = new Worker(new URL("pyworker.mjs", script.src), { type: "module" });
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
