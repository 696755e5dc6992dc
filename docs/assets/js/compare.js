/* Compare page: fetch the two chosen scenarios' build-time JSON
 * (assets/data/compare/<id>.json) and render them side by side, mirroring the
 * markup atlas/pages/compare.py prerenders (render_pair). Data only ever
 * becomes text nodes. The choice lives in the URL (?a=<id>&b=<id>). */
(function () {
  "use strict";
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
  var cache = {};
  var seq = 0;

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  function delta(a, b) {
    if (a === null || a === undefined || b === null || b === undefined || a === b) return "";
    var d = b - a;
    return (d > 0 ? "+" : "") + d.toFixed(3).replace(/\.?0+$/, "");
  }
  function deltaSpan(dl) { return dl ? [" ", el("span", { "class": "atlas-delta" }, ["(" + dl + ")"])] : []; }
  function only(side) { return el("span", { "class": "atlas-only" }, ["not in " + side]); }
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
  function head(x) { return el("a", { href: new URL(x.url, site).pathname }, [x.title]); }
  function render(a, b) {
    var frag = document.createDocumentFragment();
    frag.appendChild(el("h2", { id: "atlas-compare-facts" }, ["Scenarios"]));
    var fa = {}, fb = {}, keys = [];
    a.facts.forEach(function (f) { fa[f.key] = f; keys.push(f.key); });
    b.facts.forEach(function (f) { fb[f.key] = f; if (!(f.key in fa)) keys.push(f.key); });
    var tbody = el("tbody");
    keys.forEach(function (k) {
      var x = fa[k], y = fb[k], tx = x ? x.t : "", ty = y ? y.t : "";
      var cls = tx !== ty ? "atlas-diff" : null;
      tbody.appendChild(el("tr", { "data-key": k }, [
        el("th", { scope: "row" }, [(x || y).label]),
        el("td", { "class": cls }, [tx]),
        el("td", { "class": cls }, [ty].concat(deltaSpan(delta(x && x.v, y && y.v))))
      ]));
    });
    frag.appendChild(el("div", { "class": "atlas-table-wrap" }, [el("table", { "class": "atlas-data atlas-compare", "data-atlas-table": "compare-facts" }, [
      el("thead", {}, [el("tr", {}, [el("th", { scope: "col" }, ["Field"]),
        el("th", { scope: "col", "data-compare-side": "a" }, ["A: ", head(a)]),
        el("th", { scope: "col", "data-compare-side": "b" }, ["B: ", head(b)])])]),
      tbody])]));
    frag.appendChild(el("h2", { id: "atlas-compare-services" }, ["Per service"]));
    var sa = {}, sb = {}, skeys = [];
    a.services.forEach(function (s) { sa[s.key] = s; skeys.push(s.key); });
    b.services.forEach(function (s) { sb[s.key] = s; if (!(s.key in sa)) skeys.push(s.key); });
    if (!skeys.length) {
      frag.appendChild(el("p", { "class": "atlas-missing" }, ["Neither scenario has per-service resource or utilization data."]));
      return frag;
    }
    var cols = [["replicas", "Replicas"], ["cpu_pod", "CPU request per pod (cores)"], ["cpu_total", "CPU request, all replicas (cores)"],
      ["cpu_obs", "Observed CPU (max over traffic sites)"]];
    var hrow = el("tr", {}, [el("th", { scope: "col" }, ["Service"]), el("th", { scope: "col" }, ["Container"])]);
    cols.forEach(function (c) {
      hrow.appendChild(el("th", { scope: "col" }, [c[1] + ", A"]));
      hrow.appendChild(el("th", { scope: "col" }, [c[1] + ", B"]));
    });
    var body = el("tbody");
    skeys.forEach(function (k) {
      var x = sa[k], y = sb[k], base = x || y;
      var tr = el("tr", { "data-key": k }, [el("td", {}, [base.service]), el("td", {}, [base.container])]);
      cols.forEach(function (c) {
        var vx = x ? x[c[0]] : null, vy = y ? y[c[0]] : null;
        var tx = vx ? vx.t : "", ty = vy ? vy.t : "";
        var cls = tx !== ty ? "atlas-diff" : null;
        tr.appendChild(el("td", { "class": cls }, [x ? tx : only("A")]));
        tr.appendChild(el("td", { "class": cls }, [y ? ty : only("B")].concat(deltaSpan(delta(vx && vx.v, vy && vy.v)))));
      });
      body.appendChild(tr);
    });
    frag.appendChild(el("div", { "class": "atlas-table-wrap" }, [el("table", { "class": "atlas-data atlas-compare", "data-atlas-table": "compare-services" }, [
      el("thead", {}, [hrow]), body])]));
    return frag;
  }
  function valid(sel, id) {
    return Array.prototype.some.call(sel.options, function (o) { return o.value === id; });
  }
  function show(a, b, push) {
    var n = ++seq;
    statusEl.textContent = "Loading " + a + " and " + b + "…";
    root.setAttribute("data-busy", "true");
    Promise.all([load(a), load(b)]).then(function (pair) {
      if (n !== seq) return;
      result.textContent = "";
      result.appendChild(render(pair[0], pair[1]));
      result.setAttribute("data-a", a); result.setAttribute("data-b", b);
      result.setAttribute("data-prerendered", "false");
      var q = "?a=" + encodeURIComponent(a) + "&b=" + encodeURIComponent(b);
      permalink.href = q;
      if (push) history.pushState({ a: a, b: b }, "", q + location.hash); else history.replaceState({ a: a, b: b }, "", q + location.hash);
      statusEl.textContent = "Comparing " + pair[0].title + " (A) with " + pair[1].title + " (B).";
      root.removeAttribute("data-busy");
      if (window.atlasTables) result.querySelectorAll("table").forEach(window.atlasTables.enhance);
    }).catch(function (err) {
      if (n !== seq) return;
      root.removeAttribute("data-busy");
      statusEl.textContent = "The comparison could not be loaded (" + err.message + "); the tables below are unchanged.";
    });
  }
  function fromUrl(push) {
    var q = new URLSearchParams(location.search);
    var a = q.get("a") || root.getAttribute("data-default-a"), b = q.get("b") || root.getAttribute("data-default-b");
    var bad = [];
    if (!valid(selA, a)) { bad.push("A “" + a + "”"); a = root.getAttribute("data-default-a"); }
    if (!valid(selB, b)) { bad.push("B “" + b + "”"); b = root.getAttribute("data-default-b"); }
    selA.value = a; selB.value = b;
    if (bad.length) { statusEl.textContent = "Unknown scenario " + bad.join(" and ") + " in this link; showing the defaults."; return; }
    if (a !== result.getAttribute("data-a") || b !== result.getAttribute("data-b")) show(a, b, push);
  }
  form.addEventListener("submit", function (ev) { ev.preventDefault(); show(selA.value, selB.value, true); });
  selA.addEventListener("change", function () { show(selA.value, selB.value, true); });
  selB.addEventListener("change", function () { show(selA.value, selB.value, true); });
  window.addEventListener("popstate", function () { fromUrl(false); });
  statusEl.textContent = "Pick two scenarios; the comparison updates at once.";
  fromUrl(false);
})();
