/* Compare page: fetch the two chosen scenarios' build-time JSON
 * (assets/data/compare/<id>.json) and render them side by side, mirroring the
 * markup atlas/pages/compare.py prerenders (render_pair). Data only ever
 * becomes text nodes. The choice lives in the URL (?a=<id>&b=<id>). */
(function () {
  "use strict";
  // The rules (the model of a pair, its deltas, its HTML, its exports) come first and touch no page state, so that
  // tests/test_js_agrees.py runs them in Node against atlas/pages/compare.py on every scenario, without a browser.
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  // B minus A, as atlas/pages/compare.py delta(): sign, thousands separators, three decimals at most (toFixed rounds
  // half away from zero on the exact value; Python quantizes the same way).
  function delta(a, b) {
    if (a === null || a === undefined || b === null || b === undefined || a === b) return "";
    var d = b - a;
    var t = d.toFixed(3).replace(/\.?0+$/, "").replace(/^(-?)(\d+)/, function (m, s, i) {
      return s + i.replace(/\B(?=(\d{3})+$)/g, ",");
    });
    return (d > 0 ? "+" : "") + t;
  }
  function deltaSpan(dl) { return dl ? [" ", el("span", { "class": "atlas-delta" }, ["(" + dl + ")"])] : []; }
  function only(side) { return el("span", { "class": "atlas-only" }, ["not in " + side]); }
  function head(x, site) { return el("a", { href: new URL(x.url, site).pathname }, [x.title]); }
  var COLS = [["replicas", "Replicas"], ["cpu_pod", "CPU request per pod (cores)"], ["cpu_total", "CPU request, all replicas (cores)"],
    ["cpu_obs", "Observed CPU (max over traffic sites)"]];
  // The model of a pair, as compare.py pair_rows().
  function pairRows(a, b) {
    var fa = {}, fb = {}, keys = [], facts = [];
    a.facts.forEach(function (f) { fa[f.key] = f; keys.push(f.key); });
    b.facts.forEach(function (f) { fb[f.key] = f; if (!(f.key in fa)) keys.push(f.key); });
    keys.forEach(function (k) {
      var x = fa[k], y = fb[k], tx = x ? x.t : "", ty = y ? y.t : "", av = x ? x.v : null, bv = y ? y.v : null;
      facts.push({ key: k, label: (x || y).label, a: tx, b: ty, av: av, bv: bv, delta: delta(av, bv), differs: tx !== ty });
    });
    var sa = {}, sb = {}, skeys = [], services = [];
    a.services.forEach(function (s) { sa[s.key] = s; skeys.push(s.key); });
    b.services.forEach(function (s) { sb[s.key] = s; if (!(s.key in sa)) skeys.push(s.key); });
    skeys.forEach(function (k) {
      var x = sa[k], y = sb[k], base = x || y, cells = [];
      COLS.forEach(function (c) {
        var vx = x ? x[c[0]] : null, vy = y ? y[c[0]] : null;
        var tx = vx ? vx.t : "", ty = vy ? vy.t : "", av = vx ? vx.v : null, bv = vy ? vy.v : null;
        cells.push({ key: c[0], label: c[1], a: x ? tx : null, b: y ? ty : null, av: av, bv: bv, delta: delta(av, bv), differs: tx !== ty });
      });
      services.push({ key: k, service: base.service, container: base.container, cells: cells,
        differs: cells.some(function (c) { return c.differs; }) });
    });
    return { facts: facts, services: services };
  }
  function summary(m) {
    var nf = m.facts.filter(function (f) { return f.differs; }).length;
    var ns = m.services.filter(function (s) { return s.differs; }).length;
    var out = nf + " of " + m.facts.length + " scenario fields differ";
    if (m.services.length) out += "; " + ns + " of " + m.services.length + " service rows differ";
    return out + ".";
  }
  function same(row) { return row.differs ? null : "atlas-same"; }
  function render(a, b, m, site) {  // site: the site root (a URL); the headings link to the scenario pages
    var frag = document.createDocumentFragment();
    frag.appendChild(el("p", { "class": "atlas-compare-summary", "data-search-exclude": "" }, [summary(m)]));
    frag.appendChild(el("h2", { id: "atlas-compare-facts" }, ["Scenarios"]));
    var tbody = el("tbody");
    m.facts.forEach(function (f) {
      var cls = f.differs ? "atlas-diff" : null;
      tbody.appendChild(el("tr", { "data-key": f.key, "class": same(f) }, [
        el("th", { scope: "row" }, [f.label]),
        el("td", { "class": cls }, [f.a]),
        el("td", { "class": cls }, [f.b].concat(deltaSpan(f.delta)))
      ]));
    });
    frag.appendChild(el("div", { "class": "atlas-table-wrap", "data-search-exclude": "" }, [el("table", { "class": "atlas-data atlas-compare", "data-atlas-table": "compare-facts" }, [
      el("thead", {}, [el("tr", {}, [el("th", { scope: "col" }, ["Field"]),
        el("th", { scope: "col", "data-compare-side": "a" }, ["A: ", head(a, site)]),
        el("th", { scope: "col", "data-compare-side": "b" }, ["B: ", head(b, site)])])]),
      tbody])]));
    frag.appendChild(el("h2", { id: "atlas-compare-services" }, ["Per service"]));
    if (!m.services.length) {
      frag.appendChild(el("p", { "class": "atlas-missing" }, ["Neither scenario has per-service resource or utilization data."]));
      return frag;
    }
    var hrow = el("tr", {}, [el("th", { scope: "col" }, ["Service"]), el("th", { scope: "col" }, ["Container"])]);
    COLS.forEach(function (c) {
      hrow.appendChild(el("th", { scope: "col" }, [c[1] + ", A"]));
      hrow.appendChild(el("th", { scope: "col" }, [c[1] + ", B"]));
    });
    var body = el("tbody");
    m.services.forEach(function (s) {
      var tr = el("tr", { "data-key": s.key, "class": same(s) }, [el("td", {}, [s.service]), el("td", {}, [s.container])]);
      s.cells.forEach(function (c) {
        var cls = c.differs ? "atlas-diff" : null;
        tr.appendChild(el("td", { "class": cls }, [c.a === null ? only("A") : c.a]));
        tr.appendChild(el("td", { "class": cls }, [c.b === null ? only("B") : c.b].concat(deltaSpan(c.delta))));
      });
      body.appendChild(tr);
    });
    frag.appendChild(el("div", { "class": "atlas-table-wrap", "data-search-exclude": "" }, [el("table", { "class": "atlas-data atlas-compare", "data-atlas-table": "compare-services" }, [
      el("thead", {}, [hrow]), body])]));
    return frag;
  }

  // ---- exports, as compare.py export_rows() / export_csv() / export_json()
  var EXPORT_COLUMNS = ["table", "field", "service", "container", "a", "b", "a_value", "b_value", "b_minus_a", "differs"];
  function plainDelta(shown) { return shown.replace(/,/g, "").replace(/^\+/, ""); }
  function exportRows(m, diffOnly) {
    var out = [];
    m.facts.forEach(function (f) {
      if (diffOnly && !f.differs) return;
      out.push({ table: "scenarios", field: f.label, service: "", container: "", a: f.a, b: f.b, a_value: f.av, b_value: f.bv,
        b_minus_a: f.delta ? parseFloat(plainDelta(f.delta)) : null, differs: f.differs });
    });
    m.services.forEach(function (s) {
      if (diffOnly && !s.differs) return;
      s.cells.forEach(function (c) {
        out.push({ table: "services", field: c.label, service: s.service, container: s.container,
          a: c.a === null ? "not in A" : c.a, b: c.b === null ? "not in B" : c.b, a_value: c.av, b_value: c.bv,
          b_minus_a: c.delta ? parseFloat(plainDelta(c.delta)) : null, differs: c.differs });
      });
    });
    return out;
  }
  function csvCell(v) {  // tables.js's rule, the site's one CSV cell (formula-like text made inert, csv.writer's quoting)
    return window.atlasTables.csvCell(v);
  }
  function exportCsv(m, diffOnly) {
    var lines = [EXPORT_COLUMNS.join(",")];
    exportRows(m, diffOnly).forEach(function (r) {
      lines.push([r.table, r.field, r.service, r.container, r.a, r.b, r.a_value, r.b_value, r.b_minus_a,
        r.differs ? "yes" : "no"].map(csvCell).join(","));
    });
    return lines.join("\n") + "\n";
  }
  function exportJson(a, b, m, diffOnly) {
    function side(x) { return { id: x.id, title: x.title, url: x.url }; }
    return JSON.stringify({ a: side(a), b: side(b), differences_only: diffOnly, columns: EXPORT_COLUMNS,
      rows: exportRows(m, diffOnly) }, null, 1) + "\n";
  }
  var rules = { delta: delta, pairRows: pairRows, summary: summary, render: render, exportRows: exportRows,
    exportCsv: exportCsv, exportJson: exportJson, csvCell: csvCell };
  if (typeof module === "object" && module && module.exports) { module.exports = rules; return; }

  // ---- the page
  var script = document.currentScript;
  var root = document.getElementById("atlas-compare");
  if (!root || !script) return;
  var assets = new URL("../", script.src);           // .../assets/
  var site = new URL("../", assets);                  // site root
  var form = root.querySelector("form");
  var selA = document.getElementById("compare-a"), selB = document.getElementById("compare-b");
  var result = document.getElementById("atlas-compare-result");
  var statusEl = document.getElementById("atlas-compare-status");
  var permalink = document.getElementById("compare-permalink");
  var diffBox = document.getElementById("compare-diff-only");
  var exportEl = document.getElementById("compare-export");
  var cache = {};
  var seq = 0;
  var current = null;  // {a, b, m}: the pair the tables show, with its model (exports are built from it)
  function load(id) {
    if (!cache[id]) {
      cache[id] = fetch(new URL("data/compare/" + encodeURIComponent(id) + ".json", assets)).then(function (r) {
        if (!r.ok) throw new Error("scenario “" + id + "” answered HTTP " + r.status);
        return r.json();
      });
      cache[id].catch(function () { delete cache[id]; });
    }
    return cache[id];
  }

  var blobUrls = [];
  function setExports() {
    if (!current) return;
    blobUrls.forEach(URL.revokeObjectURL); blobUrls = [];
    var diffOnly = diffBox.checked, name = "compare-" + current.a.id + "-vs-" + current.b.id + (diffOnly ? "-differences" : "");
    exportEl.textContent = "";
    [["csv", "CSV", "text/csv", exportCsv(current.m, diffOnly)],
     ["json", "JSON", "application/json", exportJson(current.a, current.b, current.m, diffOnly)]].forEach(function (d, i) {
      var url = URL.createObjectURL(new Blob([d[3]], { type: d[2] + ";charset=utf-8" }));
      blobUrls.push(url);
      if (i) exportEl.appendChild(document.createTextNode(" · "));
      exportEl.appendChild(el("a", { id: "compare-dl-" + d[0], href: url, download: name + "." + d[0] }, [d[1]]));
    });
    exportEl.setAttribute("data-a", current.a.id); exportEl.setAttribute("data-b", current.b.id);
    exportEl.setAttribute("data-diff-only", diffOnly ? "true" : "false");
  }
  function valid(sel, id) {
    return Array.prototype.some.call(sel.options, function (o) { return o.value === id; });
  }
  function query(a, b) {
    return "?a=" + encodeURIComponent(a) + "&b=" + encodeURIComponent(b) + (diffBox.checked ? "&diff=1" : "");
  }
  // note: said before the status line (e.g. an unknown scenario in the link), kept once the pair is shown.
  function show(a, b, push, note) {
    var n = ++seq;
    statusEl.textContent = (note ? note + " " : "") + "Loading " + a + " and " + b + "…";
    root.setAttribute("data-busy", "true");
    Promise.all([load(a), load(b)]).then(function (pair) {
      if (n !== seq) return;
      var m = pairRows(pair[0], pair[1]);
      current = { a: pair[0], b: pair[1], m: m };
      result.textContent = "";
      result.appendChild(render(pair[0], pair[1], m, site));
      result.setAttribute("data-a", a); result.setAttribute("data-b", b);
      result.setAttribute("data-prerendered", "false");
      if (window.atlasTables) result.querySelectorAll("table").forEach(window.atlasTables.enhance);
      var q = query(a, b);
      permalink.href = q;
      if (push) history.pushState({ a: a, b: b }, "", q + location.hash); else history.replaceState({ a: a, b: b }, "", q + location.hash);
      setExports();
      statusEl.textContent = (note ? note + " " : "") + "Comparing " + pair[0].title + " (A) with " + pair[1].title + " (B).";
      root.removeAttribute("data-busy");
    }).catch(function (err) {
      if (n !== seq) return;
      root.removeAttribute("data-busy");
      statusEl.textContent = "The comparison could not be loaded (" + err.message + "); the tables below are unchanged.";
    });
  }
  // The pair in the address. A scenario the link names that does not exist is named in the status line and that
  // side falls back to its default; both selects, the tables and the address then show the pair compared.
  function fromUrl(push) {
    var q = new URLSearchParams(location.search);
    var a = q.get("a") || root.getAttribute("data-default-a"), b = q.get("b") || root.getAttribute("data-default-b");
    var bad = [];
    if (!valid(selA, a)) { bad.push("“" + a + "” (A)"); a = root.getAttribute("data-default-a"); }
    if (!valid(selB, b)) { bad.push("“" + b + "” (B)"); b = root.getAttribute("data-default-b"); }
    selA.value = a; selB.value = b;
    diffBox.checked = q.get("diff") === "1";
    var note = bad.length ? "Unknown scenario " + bad.join(" and ") + " in the link: showing " + a + " against " + b + "." : "";
    if (a !== result.getAttribute("data-a") || b !== result.getAttribute("data-b")) { show(a, b, push, note); return; }
    // The tables already show this pair (the prerendered default, or the pair a history step returns to).
    ++seq;
    root.removeAttribute("data-busy");
    if (location.search) history.replaceState({ a: a, b: b }, "", query(a, b) + location.hash);
    permalink.href = query(a, b);
    var title = function (side) { var h = result.querySelector('[data-compare-side="' + side + '"] a'); return h ? h.textContent : side; };
    statusEl.textContent = (note ? note + " " : "") + "Comparing " + title("a") + " (A) with " + title("b") + " (B).";
  }
  form.addEventListener("submit", function (ev) { ev.preventDefault(); show(selA.value, selB.value, true); });
  selA.addEventListener("change", function () { show(selA.value, selB.value, true); });
  selB.addEventListener("change", function () { show(selA.value, selB.value, true); });
  // 'Differences only': the page's CSS hides the rows marked atlas-same (also without JavaScript); here the address,
  // the permalink and the export links follow it.
  diffBox.addEventListener("change", function () {
    var a = result.getAttribute("data-a"), b = result.getAttribute("data-b"), q = query(a, b);
    permalink.href = q;
    history.replaceState({ a: a, b: b }, "", q + location.hash);
    setExports();
  });
  window.addEventListener("popstate", function () { fromUrl(false); });
  fromUrl(false);
})();
