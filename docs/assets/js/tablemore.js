/* Columns on first use (the errata page within the 400 KB a page may move until used).
 *
 * A table with data-atlas-more="<url>" is built with its last columns' headers (th[data-atlas-more-col], hidden
 * by atlas.css until the cells are in) and none of their cells: the build writes them to <url> as
 * {"columns": [labels], "rows": {<a row's first cell text>: [cell, ...]}}, each cell a list of [tag, text] parts:
 * "" text, "code" a code element, "note" a span.atlas-note (atlas/pages/data.py errata_details). Cells are made
 * as text, never parsed as HTML.
 *
 * window.atlasMore(table) fetches and adds them once and returns a promise of true (the cells are in) or false
 * (they could not be loaded: a message beside the table says what and why, and the next use tries again). The
 * table's data-atlas-more-state says "loading", "loaded" or "failed". tables.js calls it on the reader's first use
 * of the table (filter box, "CSV (as shown)", a view in the page address, the "Show them now" button), and this
 * script uses tables.js's own helpers then (window.atlasTables: the table's key, its messages, its filter). Loaded
 * before tables.js, on the pages whose front matter says table_more (overrides/main.html). */
(function () {
  "use strict";
  function each(selector, table, fn) {
    /* the elements of ``selector`` that name the table (data-atlas-for) */
    var key = window.atlasTables.keyOf(table);
    document.querySelectorAll(selector).forEach(function (el) { if (el.getAttribute("data-atlas-for") === key) fn(el); });
  }
  function message(table, text) { window.atlasTables.message(table, "atlas-more-message", text); }
  function fill(table, data) {
    var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;
    var want = Array.prototype.filter.call(heads, function (th) { return th.hasAttribute("data-atlas-more-col"); })
      .map(function (th) { return th.textContent.trim(); });
    if (!data || !Array.isArray(data.columns) || data.columns.join("\n") !== want.join("\n") || !data.rows || typeof data.rows !== "object")
      throw new Error("it has the columns " + JSON.stringify(data && data.columns) + ", the table " + JSON.stringify(want));
    var missing = [];
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (tr) {
        var id = tr.cells[0].textContent.trim();
        var cells = Object.prototype.hasOwnProperty.call(data.rows, id) ? data.rows[id] : null;
        if (!cells) missing.push(id);
        want.forEach(function (_, i) {
          var td = document.createElement("td");
          ((cells && cells[i]) || []).forEach(function (part) {
            if (!part[0]) { td.appendChild(document.createTextNode(part[1])); return; }
            var el = document.createElement(part[0] === "code" ? "code" : "span");
            if (part[0] === "note") el.className = "atlas-note";
            el.textContent = part[1];
            td.appendChild(el);
          });
          tr.appendChild(td);
        });
        tr.__atlasText = undefined; // tables.js's filter reads the row's text again
      });
    });
    return missing;
  }
  window.atlasMore = function (table) {
    if (table.__atlasMore) return table.__atlasMore;
    var url = table.getAttribute("data-atlas-more");
    table.setAttribute("data-atlas-more-state", "loading");
    each("button.atlas-more-button", table, function (b) { b.disabled = true; });
    table.__atlasMore = fetch(url).then(function (res) {
      if (!res.ok) throw new Error("HTTP " + res.status + " " + res.statusText);
      return res.json();
    }).then(function (data) {
      var missing = fill(table, data);
      table.setAttribute("data-atlas-more-state", "loaded");
      each("p.atlas-more", table, function (p) { p.hidden = true; });
      each("p.atlas-more-message", table, function (p) { p.remove(); }); // an earlier failure's
      if (missing.length) {
        message(table, "No " + data.columns.join(", ") + " in " + url + " for " + missing.length + " row(s) (" +
          missing.slice(0, 5).join(", ") + (missing.length > 5 ? ", \u2026" : "") + "): those cells are empty.");
      }
      window.atlasTables.apply(table);
      return true;
    }).catch(function (err) {
      table.__atlasMore = null;
      table.setAttribute("data-atlas-more-state", "failed");
      each("button.atlas-more-button", table, function (b) { b.disabled = false; });
      message(table, "The table's last columns could not be loaded from " + url + ": " + (err && err.message || err) +
        ". Each row's link shows them, and so does the CSV under the table.");
      return false;
    });
    return table.__atlasMore;
  };
})();
