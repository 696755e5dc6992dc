/* Render every Vega-Lite chart whose spec the page carries as inert JSON.
 * Specs are built at site build time; this only draws them. Without
 * JavaScript, or if Vega fails, the tables beside the charts hold the data. */
(function () {
  "use strict";
  function dark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }
  function config() {
    var fg = dark() ? "#e2e4e9" : "#1f2328";
    return {
      background: null,
      axis: { labelColor: fg, titleColor: fg, gridColor: dark() ? "#3b3f4a" : "#e0e0e0" },
      legend: { labelColor: fg, titleColor: fg },
      title: { color: fg },
      view: { stroke: null }
    };
  }
  function draw(el, spec) {
    if (!window.vegaEmbed) return Promise.resolve();
    var s = Object.assign({}, spec, { config: config() });
    return window.vegaEmbed(el, s, { actions: false, renderer: "svg" }).catch(function (err) {
      el.textContent = "Chart could not be drawn (" + err.message + "); the table holds the same data.";
    });
  }
  function render(el) {
    var id = el.getAttribute("data-chart-id");
    var holder = document.getElementById(id);
    if (!holder) return;
    var spec;
    try { spec = JSON.parse(holder.textContent); } catch (e) { return; }
    el.setAttribute("data-rendered", "pending");
    draw(el, spec).then(function () { el.setAttribute("data-rendered", "true"); });
  }
  window.atlasCharts = { draw: draw, render: render };
  function all() {
    document.querySelectorAll(".atlas-chart[data-chart-id]").forEach(render);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", all); else all();
  new MutationObserver(function () { all(); }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
})();
