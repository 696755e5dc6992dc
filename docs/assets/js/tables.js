/* Sortable and filterable data tables (tablesort, self-hosted).
 *
 * Every table.atlas-data (and every plain Markdown table) gets sortable column
 * headers; tables with enough rows also get a text filter. Without JavaScript
 * they stay the plain tables the build rendered.
 *
 * Lazy: a table's sorting is set up when it comes near the viewport (IntersectionObserver),
 * or at once when a header is clicked or focused, so a scenario page with dozens
 * of tables and thousands of cells does no work for tables nobody looks at. Its filter
 * box (a few elements) and its header arrows (CSS, data-atlas-sortable) come at once:
 * added on the way, they moved everything below while the reader scrolled, so a link
 * could move from under the pointer between the press and the release of a click (a
 * test's click on "CSV (as shown)" was lost so).
 * Numbers sort by their leading number ("0.5 512 Mi" -> 0.5, "45%/70%" -> 45,
 * "3.2.10" sorts after "3.2.9"); everything else sorts as text.
 *
 * Shareable views: the filter text, the sort and the facet chips of every table with a
 * data-atlas-table key live in the page address (?f.<key>=text, s.<key>=<column>:asc|desc,
 * c.<key>.<facet>=<value>, repeated for several values), written with history.replaceState and
 * restored on load; a value that does not fit the table is ignored with a visible note.
 * Facet chips (atlas/pages/views.py) are built with the page, hidden until this script shows them.
 *
 * Download = view: a "CSV (as shown)" link (a.atlas-download-shown) downloads its table's visible
 * rows in their visible order, read from the page's cells the way atlas/tableview.py reads the
 * rendered HTML at build time (the link's own file, for readers without JavaScript).
 *
 * Columns on first use: a table with data-atlas-more="<url>" (the errata table) is built with its last columns'
 * headers and none of their cells; tablemore.js (loaded before this script on such pages) fetches them. This
 * script asks for them on the reader's first use of the table: the filter box focused, "CSV (as shown)" clicked
 * (the file then has every column), a filter or sort in the page address (applied once they are in), or the
 * "Show them now" button (button.atlas-more-button, shown here). */
(function () {
  "use strict";
  if (!window.Tablesort) return;
  var FILTER_MIN_ROWS = 6;
  var SELECTOR = "table.atlas-data, #atlas-calc-result table, article.md-content__inner table:not([class])";
  var LEAD = /^\s*[-+\u2212]?\d[\d,]*(?:\.\d+)*/;
  var count = 0;

  function key(text) {
    var m = LEAD.exec(text);
    if (!m) return null;
    var t = m[0].trim().replace("\u2212", "-");
    if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) t = t.replace(/,/g, "");
    else t = t.replace(/,.*$/, "");
    var parts = t.split(".");
    if (parts.length > 2) return parts.map(Number); // section numbers: 3.2.10
    return [parseFloat(t)];
  }
  function cellText(td) {
    /* The shown value only: the raw text as printed (span.atlas-raw) and flags are left out. */
    if (td.__atlasKey !== undefined) return td.__atlasKey;
    var text = "";
    td.childNodes.forEach(function (n) {
      if (n.nodeType === 3) text += n.nodeValue;
      else if (n.nodeType === 1 && !n.classList.contains("atlas-raw") && !n.classList.contains("atlas-flag")) text += n.textContent;
    });
    td.__atlasKey = text.trim();
    return td.__atlasKey;
  }
  function compare(a, b) {
    var ka = key(a), kb = key(b);
    if (!ka && !kb) return 0;
    if (!ka) return -1; // empty or text sorts below every number
    if (!kb) return 1;
    for (var i = 0; i < Math.max(ka.length, kb.length); i++) {
      var x = ka[i] === undefined ? -1 : ka[i], y = kb[i] === undefined ? -1 : kb[i];
      if (x !== y) return y - x; // tablesort expects descending order
    }
    return 0;
  }
  Tablesort.extend("atlas-number", function (item) { return LEAD.test(item); }, compare);

  function status(table, shown, total) {
    var s = table.__atlasFilterStatus;
    if (s) s.textContent = shown === total ? total + " rows" : shown + " of " + total + " rows";
  }
  function state(table) {
    if (!table.__atlasState) table.__atlasState = { text: "", facets: Object.create(null) };
    return table.__atlasState;
  }
  function keyOf(table) { return table.getAttribute("data-atlas-table"); }
  function addFilter(table) {
    if (table.__atlasFilterDone) return; /* once: at the page's start (watch) or at enhance(), whichever is first */
    table.__atlasFilterDone = true;
    var body = table.tBodies[0];
    var rows = body ? body.rows.length : 0;
    if (rows < FILTER_MIN_ROWS || table.hasAttribute("data-atlas-nofilter")) return;
    var n = ++count;
    var bar = document.createElement("div");
    bar.className = "atlas-filter";
    var label = document.createElement("label");
    label.setAttribute("for", "atlas-filter-" + n);
    label.textContent = "Filter rows";
    var input = document.createElement("input");
    input.type = "search";
    input.id = "atlas-filter-" + n;
    input.placeholder = "text in any column";
    input.autocomplete = "off";
    var out = document.createElement("span");
    out.className = "atlas-filter-status";
    out.setAttribute("role", "status");
    out.setAttribute("aria-live", "polite");
    if (!table.id) table.id = "atlas-table-" + n;
    input.setAttribute("aria-controls", table.id);
    bar.appendChild(label); bar.appendChild(input); bar.appendChild(out);
    table.__atlasFilterStatus = out;
    table.__atlasFilterInput = input;
    var holder = table.parentElement && table.parentElement.classList.contains("atlas-table-wrap") ? table.parentElement : table;
    holder.parentElement.insertBefore(bar, holder);
    var timer = null;
    if (table.hasAttribute("data-atlas-more")) input.addEventListener("focus", function () { more(table); });
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { filter(table, input.value); }, rows > 200 ? 120 : 30);
    });
    status(table, rows, rows);
  }
  function filter(table, query) {
    state(table).text = query;
    apply(table);
  }
  function apply(table) {
    /* Rows shown: every word of the text filter somewhere in the row, and for each facet with chips
       pressed, the row's value among them. */
    var st = state(table);
    var words = st.text.toLowerCase().split(/\s+/).filter(Boolean);
    var groups = Object.keys(st.facets).filter(function (f) { return st.facets[f].length; });
    var cols = facetCols(table);
    var shown = 0, total = 0;
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (tr) {
        if (tr.__atlasText === undefined) tr.__atlasText = tr.textContent.toLowerCase();
        var ok = words.every(function (w) { return tr.__atlasText.indexOf(w) !== -1; }) &&
          groups.every(function (f) { return st.facets[f].indexOf(facetValue(tr, f, cols)) !== -1; });
        tr.hidden = !ok;
        total++; if (ok) shown++;
      });
    });
    table.setAttribute("data-atlas-filtered", words.length || groups.length ? "true" : "false");
    status(table, shown, total);
    shownLinks(table, shown, total);
    writeURL();
  }

  /* ---------------------------------------------------------------- download = view */
  var SPACE = /[ \t\n\r\f\u00a0\u202f]+/g;
  var NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
  /* calculators.formatting: FORMULA_SIGNS (= + - @, full-width and small forms) and Python's white space (str.isspace,
     str.strip): a cell whose first sign after white space is one of them is formula-like. */
  var SIGNS = "=+-@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b";
  var PY_SPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
  function formulaLike(t) {
    /* calculators.formatting.csv_cell's test: true where the cell gets a leading apostrophe. */
    if (!t) return false;
    var c = t.charAt(0), i = 0, j = t.length;
    if (c === "\t" || c === "\r") return true;
    if (SIGNS.indexOf(c) < 0 && PY_SPACE.indexOf(c) < 0) return false;
    while (i < j && PY_SPACE.indexOf(t.charAt(i)) >= 0) i++;
    while (j > i && PY_SPACE.indexOf(t.charAt(j - 1)) >= 0) j--;
    var core = t.slice(i, j);
    return core !== "" && SIGNS.indexOf(core.charAt(0)) >= 0 && core !== "-" && !NUMBER.test(core);
  }
  function exportText(node) {
    /* A cell's text as atlas/tableview.py reads it: all text, <br> as a space, whitespace collapsed. */
    var out = "";
    node.childNodes.forEach(function (n) {
      if (n.nodeType === 3) out += n.nodeValue;
      else if (n.nodeType === 1) out += n.nodeName === "BR" ? " " : exportText(n);
    });
    return out;
  }
  function csvCell(v) {
    /* calculators.formatting.csv_writer: formula-like text made inert (text only: a number is written as is), RFC 4180
       quoting; null and undefined as an empty cell. The one CSV cell rule of the site's scripts (compare.js calls it;
       tests/test_js_agrees.py holds it to Python). */
    var t = v === null || v === undefined ? "" : String(v);
    if (typeof v === "string" && formulaLike(t)) t = "'" + t;
    return /[",\n\r]/.test(t) ? '"' + t.replace(/"/g, '""') + '"' : t;
  }
  function csvRow(cells) {
    var texts = Array.prototype.map.call(cells, function (c) { return exportText(c).replace(SPACE, " ").trim(); });
    return texts.length === 1 && texts[0] === "" ? '""' : texts.map(csvCell).join(",");
  }
  function shownCSV(table) {
    /* The header (last header row) and the visible body rows, in their order on the page. */
    var lines = [csvRow(table.tHead.rows[table.tHead.rows.length - 1].cells)];
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (tr) { if (!tr.hidden) lines.push(csvRow(tr.cells)); });
    });
    return lines.join("\n") + "\n";
  }
  function tableFor(el) {
    var key = el.getAttribute("data-atlas-for");
    var found = null;
    document.querySelectorAll("table[data-atlas-table]").forEach(function (t) { if (!found && keyOf(t) === key) found = t; });
    return found;
  }
  function shownLinks(table, shown, total) {
    document.querySelectorAll("a.atlas-download-shown").forEach(function (a) {
      if (a.getAttribute("data-atlas-for") !== keyOf(table)) return;
      a.textContent = shown === total ? "CSV (as shown)" : "CSV (as shown: " + shown + " of " + total + " rows)";
    });
  }
  function download(ev) {
    var a = ev.target && ev.target.closest && ev.target.closest("a.atlas-download-shown");
    if (!a || ev.button > 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
    var table = tableFor(a);
    if (!table || !table.tHead) return; // the build's file, as without JavaScript
    ev.preventDefault();
    more(table).then(function (ok) { if (ok) save(a, table); });
  }
  function save(a, table) {
    var blob = new Blob([shownCSV(table)], { type: "text/csv;charset=utf-8" });
    var url = URL.createObjectURL(blob);
    var tmp = document.createElement("a");
    tmp.href = url;
    tmp.download = (a.getAttribute("href") || "table.csv").split("/").pop();
    document.body.appendChild(tmp);
    tmp.click();
    tmp.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
  }

  /* ---------------------------------------------------------------- columns on first use */
  /* Resolves true once a table's columns loaded on first use are in it (at once for a table without such columns),
     false if they could not be loaded (tablemore.js says why beside the table). */
  function more(table) {
    if (!table.hasAttribute("data-atlas-more")) return Promise.resolve(true);
    return window.atlasMore ? window.atlasMore(table) : Promise.resolve(false);
  }

  /* ---------------------------------------------------------------- facet chips */
  function chips(bar) {
    bar.hidden = false;
    bar.addEventListener("click", function (ev) {
      var b = ev.target.closest && ev.target.closest("button.atlas-chip");
      if (!b) return;
      var table = tableFor(bar);
      if (!table) return;
      enhance(table);
      var on = b.getAttribute("aria-pressed") !== "true";
      setChip(table, b.getAttribute("data-facet"), b.getAttribute("data-value"), on);
      apply(table);
    });
  }
  /* A row's value of a facet: its data-f-<facet> attribute, or, where the chip group names a column (data-col: the
     facet is the whole text of that column's cells, atlas/pages/views.py), the text of the row's cell there; with
     data-col-before="<sep>", the cell's text before its first <sep> (the errata's document: "policy" of "policy-E050"). */
  function facetCols(table) {
    if (!table.__atlasFacetCols) {
      var m = Object.create(null);
      document.querySelectorAll(".atlas-facets .atlas-facet-group[data-col]").forEach(function (g) {
        if (g.parentElement.getAttribute("data-atlas-for") === keyOf(table))
          m[g.getAttribute("data-facet")] = { col: +g.getAttribute("data-col"), before: g.getAttribute("data-col-before") };
      });
      table.__atlasFacetCols = m;
    }
    return table.__atlasFacetCols;
  }
  function facetValue(tr, facet, cols) {
    if (!Object.prototype.hasOwnProperty.call(cols, facet)) return tr.getAttribute("data-f-" + facet);
    var td = tr.cells[cols[facet].col];
    if (!td) return null;
    var text = td.textContent.trim(), sep = cols[facet].before;
    return sep ? text.split(sep)[0] : text;
  }
  function setChip(table, facet, value, on) {
    var list = state(table).facets[facet] || (state(table).facets[facet] = []);
    var i = list.indexOf(value);
    if (on && i === -1) list.push(value);
    if (!on && i !== -1) list.splice(i, 1);
    document.querySelectorAll(".atlas-facets").forEach(function (bar) {
      if (bar.getAttribute("data-atlas-for") !== keyOf(table)) return;
      bar.querySelectorAll("button.atlas-chip").forEach(function (b) {
        if (b.getAttribute("data-facet") === facet && b.getAttribute("data-value") === value) b.setAttribute("aria-pressed", on ? "true" : "false");
      });
    });
  }
  function chipExists(table, facet, value) {
    var ok = false;
    document.querySelectorAll(".atlas-facets").forEach(function (bar) {
      if (bar.getAttribute("data-atlas-for") !== keyOf(table)) return;
      bar.querySelectorAll("button.atlas-chip").forEach(function (b) {
        if (b.getAttribute("data-facet") === facet && b.getAttribute("data-value") === value) ok = true;
      });
    });
    return ok;
  }

  /* ---------------------------------------------------------------- the view in the address */
  /* The maps keyed by what an address names (table keys, facets) have no prototype (Object.create(null)): a name such
     as "toString", "constructor" or "__proto__" is then a key like any other, unknown to the page and named in the
     note, instead of an inherited function that broke the whole view (c.toString.x=1 left the other tables
     unfiltered). */
  var PARAM = /^(f|s|c)\.(.+)$/;
  var DYNAMIC = "#atlas-calc-result, #atlas-compare-result";
  var restoring = false;
  function addressed() {
    /* Tables whose view the address keeps: those the build rendered (a calculator's or the compare page's
       result is rendered again from its own inputs, so its sort is not kept). */
    return Array.prototype.filter.call(document.querySelectorAll("table[data-atlas-table]"), function (t) { return !t.closest(DYNAMIC); });
  }
  function writeURL() {
    if (restoring) return;
    var p = new URLSearchParams(location.search);
    Array.from(p.keys()).forEach(function (k) { if (PARAM.test(k)) p.delete(k); });
    addressed().forEach(function (t) {
      var st = t.__atlasState, key = keyOf(t);
      if (st && st.text.trim()) p.set("f." + key, st.text);
      if (t.__atlasSort && t.__atlasSort.current && t.__atlasSort.current.getAttribute("aria-sort")) {
        p.set("s." + key, t.__atlasSort.current.cellIndex + ":" + (t.__atlasSort.current.getAttribute("aria-sort") === "descending" ? "desc" : "asc"));
      }
      if (st) Object.keys(st.facets).forEach(function (f) {
        st.facets[f].forEach(function (v) { p.append("c." + key + "." + f, v); });
      });
    });
    var qs = p.toString();
    var url = location.pathname + (qs ? "?" + qs : "") + location.hash;
    if (url !== location.pathname + location.search + location.hash) history.replaceState(history.state, "", url);
  }
  function message(table, cls, text) {
    /* A visible message (role=status) above a table, one per table and class (cls), the next replacing it; without a
       table, a new one under the page's title. Never an exception. */
    var holder = table ? (table.parentElement.classList.contains("atlas-table-wrap") ? table.parentElement : table) : null;
    var p = null;
    if (holder) holder.parentElement.querySelectorAll("p.atlas-message." + cls).forEach(function (el) {
      if (el.getAttribute("data-atlas-for") === keyOf(table)) p = el;
    });
    if (!p) {
      p = document.createElement("p");
      p.className = "atlas-message " + cls;
      p.setAttribute("role", "status");
      if (holder) {
        p.setAttribute("data-atlas-for", keyOf(table));
        holder.parentElement.insertBefore(p, holder);
      } else {
        var art = document.querySelector("article.md-content__inner, article") || document.body;
        var h1 = art.querySelector("h1");
        if (h1) h1.insertAdjacentElement("afterend", p); else art.insertBefore(p, art.firstChild);
      }
    }
    p.textContent = text;
  }
  function note(table, text) {
    /* A visible note that part of the address was ignored. */
    message(table, "atlas-url-note", "Ignored in the page address: " + text + ".");
  }
  function restore() {
    /* Applies the view in the address; returns a promise that settles once every table shows it (a table whose
       columns load on first use waits for them when the address filters or sorts it). */
    var p = new URLSearchParams(location.search);
    var tables = Object.create(null);
    addressed().forEach(function (t) { if (!tables[keyOf(t)]) tables[keyOf(t)] = t; });
    var wanted = Object.create(null);
    p.forEach(function (value, name) {
      var m = PARAM.exec(name);
      if (!m) return;
      var kind = m[1], rest = m[2], key = rest, facet = null;
      if (kind === "c") {
        var dot = rest.lastIndexOf(".");
        key = dot > 0 ? rest.slice(0, dot) : rest;
        facet = dot > 0 ? rest.slice(dot + 1) : "";
      }
      (wanted[key] = wanted[key] || []).push({ kind: kind, name: name, value: value, facet: facet });
    });
    var waits = [];
    Object.keys(wanted).forEach(function (key) {
      var table = tables[key];
      if (!table) {
        note(null, wanted[key].map(function (w) { return w.name + "=" + w.value; }).join(", ") + " (no table \u201c" + key + "\u201d on this page)");
        return;
      }
      if (wanted[key].some(function (w) { return w.kind !== "c"; }) && table.hasAttribute("data-atlas-more")) {
        waits.push(more(table).then(function () { restoreTable(table, wanted[key]); }));
      } else restoreTable(table, wanted[key]);
    });
    return Promise.all(waits).then(function () { writeURL(); });
  }
  function restoreTable(table, wanted) {
    restoring = true;
    try {
      var details = table.closest("details");
      if (details) details.open = true;
      enhance(table);
      var bad = [], sortTo = null;
      wanted.forEach(function (w) {
        if (w.kind === "f") {
          if (!table.__atlasFilterInput) { bad.push(w.name + "=" + w.value + " (this table has no text filter)"); return; }
          table.__atlasFilterInput.value = w.value;
          state(table).text = w.value;
        } else if (w.kind === "s") {
          var m = /^(\d+):(asc|desc)$/.exec(w.value);
          var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;
          if (!m || +m[1] >= heads.length) { bad.push(w.name + "=" + w.value + " (expected <column 0 to " + (heads.length - 1) + ">:asc or :desc)"); return; }
          sortTo = { th: heads[+m[1]], desc: m[2] === "desc" };
        } else if (!chipExists(table, w.facet, w.value)) {
          bad.push(w.name + "=" + w.value + " (no such chip)");
        } else {
          setChip(table, w.facet, w.value, true);
        }
      });
      if (sortTo) {
        sortTo.th.click();
        if (sortTo.desc) sortTo.th.click();
      }
      apply(table);
      if (bad.length) note(table, bad.join("; "));
    } finally {
      restoring = false;
    }
  }

  function enhance(table) {
    if (table.__atlasSort || !table.tHead || !table.tBodies.length) return;
    var t0 = performance.now();
    table.__atlasSort = new Tablesort(table, { sortAttribute: "data-sort" });
    /* Sort by the shown value: give tablesort each cell's text without the raw span. */
    table.addEventListener("beforeSort", function () {
      var th = table.__atlasSort.current;
      if (!th) return;
      var col = th.cellIndex;
      Array.prototype.forEach.call(table.tBodies, function (body) {
        Array.prototype.forEach.call(body.rows, function (tr) {
          var td = tr.cells[col];
          if (td && !td.hasAttribute("data-sort")) td.setAttribute("data-sort", cellText(td));
        });
      });
    });
    table.addEventListener("afterSort", function () { writeURL(); });
    Array.prototype.forEach.call(table.tHead.rows[table.tHead.rows.length - 1].cells, function (th) {
      th.setAttribute("title", "Sort by this column");
      th.addEventListener("keydown", function (ev) {
        if (ev.key === " ") { ev.preventDefault(); th.click(); }
      });
    });
    addFilter(table);
    table.setAttribute("data-atlas-enhanced", "true");
    stats.tables += 1;
    stats.ms += performance.now() - t0;
    document.documentElement.setAttribute("data-atlas-tables", stats.tables + " tables, " + stats.ms.toFixed(1) + " ms");
  }
  var stats = { tables: 0, ms: 0 };

  function focusable(scope) {
    /* A table box that scrolls sideways must be reachable from the keyboard. */
    (scope || document).querySelectorAll(".atlas-table-wrap").forEach(function (w) {
      if (w.scrollWidth > w.clientWidth + 1) {
        w.tabIndex = 0;
        w.setAttribute("role", "region");
        var cap = w.querySelector("table") && w.querySelector("table").getAttribute("data-atlas-table");
        w.setAttribute("aria-label", "Table" + (cap ? " " + cap : "") + " (scrolls sideways)");
      } else if (w.getAttribute("role") === "region") {
        w.removeAttribute("tabindex"); w.removeAttribute("role"); w.removeAttribute("aria-label");
      }
    });
  }
  function start() {
    var io = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) { io.unobserve(e.target); enhance(e.target); }
      });
    }, { rootMargin: "600px 0px" }) : null;
    function watch(scope) {
      (scope || document).querySelectorAll(SELECTOR).forEach(function (t) {
        if (t.__atlasSort) return;
        if (t.tHead && t.tBodies.length) {  // the tables enhance() takes: their box and header arrows now (atlas.css)
          t.setAttribute("data-atlas-sortable", "");
          addFilter(t);
        }
        if (io) io.observe(t); else enhance(t);
      });
    }
    /* A header clicked or focused before its table was enhanced enhances it at once. */
    function early(ev) {
      var th = ev.target && ev.target.closest && ev.target.closest("th");
      var table = th && th.closest(SELECTOR);
      if (table && !table.__atlasSort) {
        enhance(table);
        if (ev.type === "click" && table.__atlasSort) { ev.preventDefault(); ev.stopPropagation(); th.click(); }
      }
    }
    document.addEventListener("click", early, true);
    document.addEventListener("focusin", early, true);
    watch(document);
    document.querySelectorAll(".atlas-facets[data-atlas-for]").forEach(chips);
    document.addEventListener("click", download);
    document.querySelectorAll("button.atlas-more-button").forEach(function (b) {
      var table = tableFor(b);
      if (!table || !window.atlasMore) return; // without tablemore.js the button stays hidden
      b.hidden = false;
      b.addEventListener("click", function () { more(table); });
    });
    /* "ready" once the address's view is shown, columns loaded for it included */
    restore().then(function () { document.documentElement.setAttribute("data-atlas-views", "ready"); });
    requestAnimationFrame(function () { focusable(document); });
    var resizeTimer = null;
    window.addEventListener("resize", function () { clearTimeout(resizeTimer); resizeTimer = setTimeout(function () { focusable(document); }, 200); });
    /* Results rendered later (calculator, compare) get the same treatment. */
    document.querySelectorAll("#atlas-calc-result, #atlas-compare-result").forEach(function (holder) {
      new MutationObserver(function () { watch(holder); focusable(holder); }).observe(holder, { childList: true });
    });
  }
  window.atlasTables = { enhance: enhance, filter: filter, apply: apply, key: key, shownCSV: shownCSV, keyOf: keyOf, message: message,
    csvCell: csvCell };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
