/* Sortable and filterable data tables (tablesort, self-hosted).
 *
 * Every table.atlas-data (and every plain Markdown table) gets sortable column
 * headers; tables with enough rows also get a text filter. Without JavaScript
 * they stay the plain tables the build rendered.
 *
 * Lazy: a table is enhanced when it comes near the viewport (IntersectionObserver),
 * or at once when a header is clicked or focused, so a scenario page with dozens
 * of tables and thousands of cells does no work for tables nobody looks at.
 * Numbers sort by their leading number ("0.5 512 Mi" -> 0.5, "45%/70%" -> 45,
 * "3.2.10" sorts after "3.2.9"); everything else sorts as text. */
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
  function addFilter(table) {
    var body = table.tBodies[0];
    var rows = body ? body.rows.length : 0;
    if (rows < FILTER_MIN_ROWS) return;
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
    var holder = table.parentElement && table.parentElement.classList.contains("atlas-table-wrap") ? table.parentElement : table;
    holder.parentElement.insertBefore(bar, holder);
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { filter(table, input.value); }, rows > 200 ? 120 : 30);
    });
    status(table, rows, rows);
  }
  function filter(table, query) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0, total = 0;
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (tr) {
        if (tr.__atlasText === undefined) tr.__atlasText = tr.textContent.toLowerCase();
        var ok = words.every(function (w) { return tr.__atlasText.indexOf(w) !== -1; });
        tr.hidden = !ok;
        total++; if (ok) shown++;
      });
    });
    table.setAttribute("data-atlas-filtered", words.length ? "true" : "false");
    status(table, shown, total);
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
    requestAnimationFrame(function () { focusable(document); });
    var resizeTimer = null;
    window.addEventListener("resize", function () { clearTimeout(resizeTimer); resizeTimer = setTimeout(function () { focusable(document); }, 200); });
    /* Results rendered later (calculator, compare) get the same treatment. */
    document.querySelectorAll("#atlas-calc-result, #atlas-compare-result").forEach(function (holder) {
      new MutationObserver(function () { watch(holder); focusable(holder); }).observe(holder, { childList: true });
    });
  }
  window.atlasTables = { enhance: enhance, filter: filter, key: key };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
