/* Render every Vega-Lite chart whose spec the page carries as inert JSON.
 * Specs are built at site build time; this only draws them. Charts the build
 * already drew as SVG (data-static) are drawn live when the reader first uses
 * them. Without JavaScript, or if Vega fails, the drawing or the tables beside
 * the charts hold the data.
 *
 * No eval: expressions run through vega-interpreter (ast: true), so charts
 * draw under a Content-Security-Policy without 'unsafe-eval'. Colours follow
 * Material's palette (read from its CSS variables) and every chart is redrawn,
 * with the spec it last drew, when the reader switches light/dark. */
(function () {
  "use strict";
  var self = document.currentScript;
  var views = new WeakMap();
  var loading = null;
  /* A file of this site, by its path from this script's folder (assets/js/), whatever the page's depth. */
  function fromHere(rel) { return new URL(rel, self ? self.src : location.href).href; }
  /* No page loads Vega with the page: on calculator pages its parsing would compete with the
   * Python runtime for the CPU, and elsewhere the build drew the charts (atlas/charts.py). The
   * first live draw loads the four scripts, in order, from this site. Resolves either way;
   * draw() then says if Vega is still missing. */
  function loadVega() {
    if (window.vegaEmbed) return Promise.resolve();
    if (loading) return loading;
    var names = ["vega.min.js", "vega-lite.min.js", "vega-embed.min.js", "vega-interpreter.js"];
    /* vega-embed's and vega-tooltip's stylesheet (tooltips, the actions menu) comes with Vega: pages with
     * drawn charts do not link it (calculator pages do, in overrides/main.html). */
    if (!document.querySelector('link[href*="vendor/vega/vega-embed.css"]')) {
      var css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = fromHere("../vendor/vega/vega-embed.css");
      document.head.appendChild(css);
    }
    loading = Promise.all(names.map(function (name) {
      return new Promise(function (resolve) {
        var tag = document.createElement("script");
        tag.src = fromHere("../vendor/vega/" + name);
        tag.async = false; /* execute in list order */
        tag.onload = tag.onerror = resolve;
        document.head.appendChild(tag);
      });
    }));
    return loading;
  }
  var drawn = [];
  function dark() {
    return document.body.getAttribute("data-md-color-scheme") === "slate";
  }
  function cssVar(name, fallback) {
    var v = getComputedStyle(document.body).getPropertyValue(name);
    return (v && v.trim()) || fallback;
  }
  function config(el) {
    var fg = cssVar("--md-default-fg-color", dark() ? "#e2e4e9" : "#1f2328");
    var muted = cssVar("--md-default-fg-color--light", fg);
    var narrow = (el && el.clientWidth || 800) < 520;
    return {
      background: null,
      font: cssVar("--md-text-font-family", "sans-serif"),
      axis: { labelColor: fg, titleColor: fg, gridColor: dark() ? "#3b3f4a" : "#e0e0e0", domainColor: muted, tickColor: muted,
              labelFontSize: narrow ? 10 : 11, titleFontSize: narrow ? 10 : 11, labelLimit: narrow ? 110 : 220 },
      legend: { labelColor: fg, titleColor: fg, labelFontSize: narrow ? 10 : 11, labelLimit: narrow ? 140 : 220 },
      title: { color: fg },
      header: { labelColor: fg, titleColor: fg },  /* a faceted chart's panel names (the Your deployment page) */
      mark: { color: dark() ? "#8c9eff" : "#3f51b5" },
      tick: { color: fg },
      range: { category: dark()
        ? ["#8c9eff", "#ffb74d", "#81c784", "#f06292", "#4dd0e1", "#fff176", "#ba68c8", "#a1887f", "#e0e0e0", "#ff8a65"]
        : ["#3f51b5", "#e65100", "#2e7d32", "#c2185b", "#00838f", "#827717", "#6a1b9a", "#5d4037", "#455a64", "#d84315"] },
      view: { stroke: null }
    };
  }
  function options() {
    /* No <style> injected (style-src 'self'): vega-embed's and vega-tooltip's CSS ship as
     * assets/vendor/vega/vega-embed.css (tools/vega_css.mjs), linked by overrides/main.html. */
    var o = { actions: false, renderer: "svg", defaultStyle: false,
              tooltip: { theme: dark() ? "dark" : "light", disableDefaultStyle: true } };
    if (window.vegaInterpreter) { o.ast = true; o.expr = window.vegaInterpreter.expressionInterpreter; }
    return o;
  }
  function paintBlack(enc, fg) {
    Object.keys(enc).forEach(function (k) {
      if (enc[k] && typeof enc[k] === "object") paintBlack(enc[k], fg);
      else if (k === "value" && /^(black|#000|#000000)$/i.test(String(enc[k]))) enc[k] = fg;
    });
  }
  function adapt(spec, fg) {
    /* Marks the spec paints black (reference ticks) take the palette's foreground. */
    var copy = JSON.parse(JSON.stringify(spec));
    (function walk(o) {
      if (!o || typeof o !== "object") return;
      if (o.mark && typeof o.mark === "object" && /^(black|#000|#000000)$/i.test(o.mark.color || "")) o.mark.color = fg;
      /* and outlines (a reader's own point, atlas/pages/yours.py) */
      if (o.mark && typeof o.mark === "object" && /^(black|#000|#000000)$/i.test(o.mark.stroke || "")) o.mark.stroke = fg;
      /* so do legend symbols a spec paints black ({"value": "black"} in a legend's encode) */
      if (o.encode && o.encode.symbols) paintBlack(o.encode.symbols, fg);
      /* Marks without a tooltip are decorative (reference ticks): no ARIA of their own. */
      if (o.mark && typeof o.mark === "object" && !o.mark.tooltip && o.mark.aria === undefined) o.mark.aria = false;
      Object.keys(o).forEach(function (k) { if (k !== "data") walk(o[k]); });
    })(copy);
    return copy;
  }
  function draw(el, spec) {
    el.__atlasSpec = spec;
    if (!window.vegaEmbed) {
      /* Only the newest spec asked of this element is drawn once Vega is there (a computed
       * result can ask before the prerendered chart it replaces was drawn). */
      el.setAttribute("data-rendered", "pending");
      return loadVega().then(function () {
        if (el.__atlasSpec !== spec) return;
        if (window.vegaEmbed) return draw(el, spec);
        if (el.hasAttribute("data-static")) { el.setAttribute("data-rendered", "static"); return; } /* the drawing stays */
        el.setAttribute("data-rendered", "failed");
        el.textContent = "Chart could not be drawn (Vega did not load); the table holds the same data.";
      });
    }
    if (drawn.indexOf(el) === -1) drawn.push(el);
    var old = views.get(el);
    if (old) { try { old.finalize(); } catch (e) { /* already gone */ } views.delete(el); }
    if (el.hasAttribute("data-static")) {
      /* The build's drawing gives way to the live chart; its height is kept until the chart is drawn. */
      el.style.minHeight = el.offsetHeight + "px";
      el.removeAttribute("data-static");
      el.textContent = "";
    }
    var cfg = config(el);
    var s = Object.assign(adapt(spec, cfg.axis.labelColor), { config: cfg });
    el.setAttribute("data-rendered", "pending");
    return window.vegaEmbed(el, s, options()).then(function (res) {
      views.set(el, res);
      el.atlasView = res.view;
      el.style.minHeight = "";
      el.setAttribute("data-rendered", "true");
    }).catch(function (err) {
      el.setAttribute("data-rendered", "failed");
      el.textContent = "Chart could not be drawn (" + err.message + "); the table holds the same data.";
    });
  }
  /* A chart's spec: in the page (<script type="application/json" id=…>), or, for a chart the build drew, in
   * assets/charts/<key>.json (data-spec: atlas/charts.py moves it there), fetched on the chart's first use. A spec
   * that cannot be had leaves the build's drawing as it is, and says why on the element (data-live-error). */
  function render(el) {
    var id = el.getAttribute("data-chart-id");
    var holder = document.getElementById(id);
    if (holder && holder.tagName === "SCRIPT") {
      var spec;
      try { spec = JSON.parse(holder.textContent); } catch (e) { return; }
      return draw(el, spec);
    }
    var k = el.getAttribute("data-spec");
    if (!k || !/^[0-9a-f]{16}$/.test(k)) return;
    var url = fromHere("../charts/" + k + ".json");
    el.setAttribute("data-rendered", "pending");
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (spec) {
      if (!el.__atlasSpec) return draw(el, spec);
    }, function (err) {
      el.setAttribute("data-rendered", "static"); /* the drawing stays */
      el.setAttribute("data-live-error", url.replace(location.origin, "") + ": " + err.message);
    });
  }
  /* The spec a chart was built with (not one a reader's points were added to): in the page, or fetched as render
   * does. Resolves to null when it cannot be had (the reason is on the element, data-live-error). */
  function baseSpec(el) {
    if (el.__atlasBase) return Promise.resolve(el.__atlasBase);
    var holder = document.getElementById(el.getAttribute("data-chart-id"));
    if (holder && holder.tagName === "SCRIPT") {
      try { el.__atlasBase = JSON.parse(holder.textContent); } catch (e) { return Promise.resolve(null); }
      return Promise.resolve(el.__atlasBase);
    }
    var k = el.getAttribute("data-spec");
    if (!k || !/^[0-9a-f]{16}$/.test(k)) return Promise.resolve(null);
    var url = fromHere("../charts/" + k + ".json");
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (spec) { el.__atlasBase = spec; return spec; }, function (err) {
      el.setAttribute("data-live-error", url.replace(location.origin, "") + ": " + err.message);
      return null;
    });
  }
  /* ``spec`` with ``points`` drawn over it: the chart's own marks become the first layer, and the layer the build
   * put in the spec's usermeta.yours (atlas/pages/yours.py: shape, label, tooltip) draws the points, which are the
   * named dataset "yours". Nothing is computed here: the points' x and y are the file's, as Python computed them. */
  function withYours(spec, points) {
    var own = {}, out = {};
    Object.keys(spec).forEach(function (k) {
      if (k === "data" || k === "mark" || k === "encoding" || k === "transform" || k === "params") own[k] = spec[k];
      else out[k] = spec[k];
    });
    out.layer = [own, spec.usermeta.yours];
    out.datasets = { yours: points };
    return out;
  }
  window.atlasCharts = { draw: draw, render: render };

  /* "Add my deployment..." beside the home chart and each service page's chart (atlas/pages/yours.py): reads the
   * file the Your deployment page's "Export inputs" writes, here in the browser, and draws its points for this
   * chart. The file is never sent, stored or put into the address. */
  var FORMAT = "benchmark-atlas-deployment-inputs", POINTS = "benchmark-atlas-deployment-points", MAX_BYTES = 16777216;
  function yoursControl(box) {
    var el = document.querySelector('.atlas-chart[data-chart-id="' + box.getAttribute("data-yours-for") + '"]');
    var input = box.querySelector(".atlas-yours-file"), remove = box.querySelector(".atlas-yours-remove");
    var statusEl = box.querySelector(".atlas-yours-status");
    if (!el || !input) return;
    var kind = box.getAttribute("data-yours-kind"), service = box.getAttribute("data-yours-service");
    var title = box.getAttribute("data-yours-title"), build = box.getAttribute("data-build");
    var chartName = kind === "home" ? "the home chart" : "the chart of " + title;
    function say(msg, bad) {
      statusEl.textContent = msg;
      if (bad) box.setAttribute("data-yours-error", "true"); else box.removeAttribute("data-yours-error");
    }
    /* What the file holds for this chart, or a message naming what is wrong and where. */
    function pointsOf(name, text) {
      var d;
      try { d = JSON.parse(text); } catch (e) {
        return { error: "“" + name + "” is not JSON (" + e.message + "). Choose the file Your deployment's Export inputs wrote." };
      }
      if (!d || typeof d !== "object" || d.format !== FORMAT) {
        return { error: "“" + name + "” is not a file Your deployment's Export inputs wrote: its “format” is " +
          (d && typeof d === "object" && "format" in d ? "“" + String(d.format) + "”" : "missing") + ", not “" + FORMAT + "”." };
      }
      var p = d.points;
      if (!p || typeof p !== "object") {
        return { error: "“" + name + "” holds your inputs but no points (its “points” is empty): it was exported before a " +
          "result was computed. Import it on Your deployment, let the result show, and export again." };
      }
      if (p.format !== POINTS) return { error: "“" + name + "”: its “points.format” is not “" + POINTS + "”." };
      if (p.build !== build) {
        return { error: "“" + name + "” was exported from another build of the atlas (its “points.build” is “" + String(p.build) +
          "”, this page's build is “" + build + "”): its points may rest on other data or rules. Import it on this " +
          "build's Your deployment page and export again." };
      }
      var pts;
      if (kind === "home") {
        pts = p.home ? [p.home] : [];
        if (!pts.length) return { error: "“" + name + "” has no point for the home chart (its “points.home” is empty): no " +
          "workload matched to a service sets a CPU request." };
      } else {
        pts = (Array.isArray(p.services) ? p.services : []).filter(function (x) { return x && x.page === service; });
        if (!pts.length) {
          var has = (Array.isArray(p.services) ? p.services : []).map(function (x) { return x.display_name; })
            .filter(function (v, i, a) { return a.indexOf(v) === i; });
          var none = Array.isArray(p.without_reading) && p.without_reading.length ? " Matched without a kubectl top reading: " +
            p.without_reading.join(", ") + "." : "";
          return { error: "“" + name + "” has no point for " + title + " (“points.services” holds " +
            (has.length ? "points for " + has.join(", ") : "no service's points") + ")." + none };
        }
      }
      var key = kind === "home" ? "efficiency" : "cores";
      var bad = pts.filter(function (x) { return typeof x.load !== "number" || typeof x[key] !== "number" || !(x.load > 0); });
      if (bad.length) return { error: "“" + name + "”: a point for " + chartName + " has no number for “load” or “" + key + "”." };
      return { points: pts, meta: p };
    }
    function show(points, meta, name) {
      return baseSpec(el).then(function (spec) {
        if (!spec || !spec.usermeta || !spec.usermeta.yours) {
          say("Your points could not be drawn: this chart's spec could not be loaded" +
            (el.getAttribute("data-live-error") ? " (" + el.getAttribute("data-live-error") + ")" : "") + ".", true);
          return;
        }
        var drawnNow = points ? draw(el, withYours(spec, points)) : draw(el, spec);
        return Promise.resolve(drawnNow).then(function () {
          if (!points) { box.removeAttribute("data-yours-shown"); say("Removed your points."); return; }
          box.setAttribute("data-yours-shown", String(points.length));
          var key = kind === "home" ? "efficiency" : "cores";
          say("Added “yours” from " + name + ": " + meta.product + ", " + meta.call_model_name + ", " + points.map(function (x) {
            return (points.length > 1 ? x.label + " " : "") + Number(x[key]).toLocaleString("en") +
              (kind === "home" ? " cores requested per 1K" : " cores used") + " at " + Number(x.load).toLocaleString("en") + " " +
              (x.unit || meta.unit) + (x.counted && x.counted !== "complete" ? " (" + x.counted + ")" : "");
          }).join("; ") + ".");
        });
      });
    }
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (!file) return;
      if (file.size > MAX_BYTES) { say("“" + file.name + "” is " + file.size + " bytes, more than the " + MAX_BYTES + " an exported file can be. Nothing was read.", true); input.value = ""; return; }
      file.text().then(function (text) {
        var got = pointsOf(file.name, text);
        input.value = "";
        if (got.error) { say(got.error, true); return; }
        remove.hidden = false;
        return show(got.points, got.meta, file.name);
      }, function (e) { say("“" + file.name + "” could not be read (" + e.message + ").", true); input.value = ""; });
    });
    remove.addEventListener("click", function () { remove.hidden = true; show(null); });
    box.hidden = false;
  }
  function controls() { document.querySelectorAll(".atlas-yours[data-yours-for]").forEach(yoursControl); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", controls); else controls();
  /* A chart the build drew (data-static: SVG in the page) stays as drawn until the reader uses it: the
   * first pointer, touch or keyboard focus on it loads Vega and draws it live (tooltips, links). */
  var USE = ["pointerenter", "pointerdown", "touchstart", "focusin"];
  function onUse(ev) {
    var el = ev.currentTarget;
    USE.forEach(function (t) { el.removeEventListener(t, onUse); });
    if (!el.__atlasSpec) render(el);
  }
  function all() {
    document.querySelectorAll(".atlas-chart[data-chart-id]").forEach(function (el) {
      if (el.hidden || el.__atlasSpec || calculatorWaits(el)) return;
      if (el.hasAttribute("data-static")) {
        if (el.getAttribute("data-rendered") === "static") return;
        el.setAttribute("data-rendered", "static");
        USE.forEach(function (t) { el.addEventListener(t, onUse, { passive: true }); });
        return;
      }
      render(el);
    });
  }
  /* On a calculator page the prerendered chart waits while Python boots or computes: the
   * CPU goes to the worker first, and a computed result draws its own chart. Once the
   * calculator is idle (ready without a pending run, or failed), the prerendered chart is drawn. */
  function calculatorWaits(el) {
    var calc = el.closest("#atlas-calculator");
    if (!calc) return false;
    var st = calc.getAttribute("data-state");
    if (st === "booting" || calc.getAttribute("data-busy") === "true") {
      if (!calc.__atlasChartWatch) {
        calc.__atlasChartWatch = new MutationObserver(all);
        calc.__atlasChartWatch.observe(calc, { attributes: true, attributeFilter: ["data-state", "data-busy"] });
      }
      return true;
    }
    return false;
  }
  function redraw() {
    drawn.forEach(function (el) { if (el.isConnected && el.__atlasSpec && !el.hidden) draw(el, el.__atlasSpec); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", all); else all();
  new MutationObserver(redraw).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
})();
