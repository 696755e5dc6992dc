/* Rows on first use (the ranking page: atlas/pages/ranking.py), so a page with a long table stays within the
 * 400 KB a page may move before use.
 *
 * A table with data-atlas-rows="<url>" is built with its first rows; the build writes the others to <url> as
 * {"columns": [header labels], "first": n, "rows": [[cell, ...], ...]}, each cell a list of parts: ["", text],
 * ["a", text, href, title], ["mark", symbol, title] (a bound's mark: "≥", "≤", "~"), ["missing", text], ["raw", text, title]
 * (ranking.row_cells, which also writes the page's own rows). Cells are made as text and elements, never parsed as
 * HTML; the page's rows and these read the same (tables.js's filter, sort and "CSV (as shown)").
 *
 * The rows are fetched once, on the reader's first use of the table: a chip of its bar, a header (sort), its filter
 * box, its "CSV (as shown)" link (the download waits for them, so it holds every row the view shows), the "Show all"
 * button, scrolling near the table's end, or a view of it in the page address. Then the sort and the filter in force
 * are applied again over every row (tables.js: window.atlasTables.apply; tablesort's refresh). A file that cannot be
 * had leaves the first rows and says why above the table (data-atlas-rows-state="failed"); the next use tries again. */
(function () {
  "use strict";
  var PARAM = /^(f|s|c)\.(.+)$/;
  function keyOf(table) { return table.getAttribute("data-atlas-table"); }
  function forKey(el, table) { return el.getAttribute("data-atlas-for") === keyOf(table); }
  function headers(table) {
    return Array.prototype.map.call(table.tHead.rows[table.tHead.rows.length - 1].cells, function (th) { return th.textContent.trim(); });
  }
  function cell(parts) {
    var td = document.createElement("td");
    (parts || []).forEach(function (p) {
      var el = null;
      if (p[0] === "") { td.appendChild(document.createTextNode(p[1])); return; }
      if (p[0] === "a") {
        el = document.createElement("a");
        el.href = p[2];
        if (p[3]) el.title = p[3];
        el.textContent = p[1];
      } else if (p[0] === "mark") {
        el = document.createElement("abbr");
        el.className = "atlas-flag atlas-at-least";
        el.title = p[2];
        el.textContent = p[1] + "\u202f";
      } else if (p[0] === "missing" || p[0] === "raw") {
        el = document.createElement("span");
        el.className = p[0] === "missing" ? "atlas-missing" : "atlas-raw";
        if (p[0] === "raw" && p[2]) el.title = p[2];
        el.textContent = p[1];
      } else {
        throw new Error("unknown cell part " + JSON.stringify(p[0]));
      }
      td.appendChild(el);
    });
    return td;
  }
  function message(table, text) {
    if (window.atlasTables && window.atlasTables.message) window.atlasTables.message(table, "atlas-rows-message", text);
  }
  function each(selector, table, fn) {
    document.querySelectorAll(selector).forEach(function (el) { if (forKey(el, table)) fn(el); });
  }
  function load(table) {
    if (table.__atlasRows) return table.__atlasRows;
    var url = table.getAttribute("data-atlas-rows");
    table.setAttribute("data-atlas-rows-state", "loading");
    each("button.atlas-rows-button", table, function (b) { b.disabled = true; });
    table.__atlasRows = fetch(url).then(function (res) {
      if (!res.ok) throw new Error("HTTP " + res.status + " " + res.statusText);
      return res.json();
    }).then(function (data) {
      var want = headers(table);
      if (!data || !Array.isArray(data.rows) || !Array.isArray(data.columns) || data.columns.join("\n") !== want.join("\n")) {
        throw new Error("it has the columns " + JSON.stringify(data && data.columns) + ", the table " + JSON.stringify(want));
      }
      var body = table.tBodies[0];
      var frag = document.createDocumentFragment();
      data.rows.forEach(function (cells) {
        var tr = document.createElement("tr");
        cells.forEach(function (parts) { tr.appendChild(cell(parts)); });
        frag.appendChild(tr);
      });
      body.appendChild(frag);
      table.setAttribute("data-atlas-rows-state", "loaded");
      each("p.atlas-rows-more", table, function (p) { p.hidden = true; });
      each("p.atlas-rows-message", table, function (p) { p.remove(); });
      if (table.__atlasSort && table.__atlasSort.current) table.__atlasSort.refresh();
      if (window.atlasTables) window.atlasTables.apply(table);
      return true;
    }).catch(function (err) {
      table.__atlasRows = null;
      table.setAttribute("data-atlas-rows-state", "failed");
      each("button.atlas-rows-button", table, function (b) { b.disabled = false; });
      message(table, "The table's other rows could not be loaded from " + url + ": " + (err && err.message || err) +
        ". The CSV under the table holds every row.");
      return false;
    });
    return table.__atlasRows;
  }
  function loaded(table) { return table.getAttribute("data-atlas-rows-state") === "loaded"; }
  function start() {
    var tables = Array.prototype.slice.call(document.querySelectorAll("table[data-atlas-rows][data-atlas-table]"));
    if (!tables.length) return;
    function owner(el) {
      /* the lazy table an element of the page belongs to: a chip bar, a header, its filter box, a link or button for it */
      for (var i = 0; i < tables.length; i++) {
        var t = tables[i];
        if (t.tHead && t.tHead.contains(el)) return t;
        var bar = el.closest && el.closest(".atlas-facets[data-atlas-for], a.atlas-download-shown, button.atlas-rows-button");
        if (bar && forKey(bar, t)) return t;
        if (el.tagName === "INPUT" && t.id && el.getAttribute("aria-controls") === t.id) return t;
      }
      return null;
    }
    document.addEventListener("click", function (ev) {
      var t = ev.target && owner(ev.target);
      if (!t || loaded(t)) return;
      var a = ev.target.closest && ev.target.closest("a.atlas-download-shown");
      if (a && ev.button === 0 && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey && !ev.altKey) {
        /* the view's CSV holds every row it shows: it is made once they are in */
        ev.preventDefault();
        ev.stopPropagation();
        load(t).then(function (ok) { if (ok) a.click(); });
        return;
      }
      load(t);
    }, true);
    document.addEventListener("focusin", function (ev) {
      var t = ev.target && owner(ev.target);
      if (t && !loaded(t) && ev.target.tagName !== "BUTTON") load(t);
    }, true);
    var asked = {};
    new URLSearchParams(location.search).forEach(function (value, name) {
      var m = PARAM.exec(name);
      if (m) asked[m[1] === "c" ? m[2].slice(0, m[2].lastIndexOf(".")) : m[2]] = true;
    });
    var io = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (!e.isIntersecting) return;
        io.unobserve(e.target);
        var t = e.target.closest("table");
        if (t) load(t);
      });
    }, { rootMargin: "400px 0px" }) : null;
    tables.forEach(function (t) {
      each("button.atlas-rows-button", t, function (b) { b.hidden = false; });
      if (asked[keyOf(t)]) { load(t); return; }
      var body = t.tBodies[0];
      if (io && body && body.rows.length) io.observe(body.rows[body.rows.length - 1]);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
