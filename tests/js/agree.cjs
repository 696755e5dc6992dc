/* The site's JavaScript rules run in Node on cases Python sends, for tests/test_js_agrees.py: the same cases
 * go through atlas/pages/compare.py and atlas/tableview.py there, and the answers must be equal.
 *
 * stdin: JSON {"site": "<site root URL>", "page": "<the compare page's URL>",
 *              "pairs": [{"a": <scenario_data>, "b": <scenario_data>, "py_html": "<render_pair's HTML>"}],
 *              "tables": ["<table HTML>", ...], "cells": ["<cell text>", ...]}
 * stdout: JSON {"pairs": [{"facts", "services", "summary", "csv", "csv_diff", "json", "json_diff",
 *                          "js_html", "py_html"}],   (both HTMLs normalised the same way)
 *               "tables": ["<tables.js shownCSV>", ...], "cells": ["<compare.js csvCell: tables.js's>", ...]}
 *
 * compare.js exports its rules when loaded as a CommonJS module (it returns before touching the page);
 * tables.js is run as the page runs it, in a jsdom window, and its public shownCSV is called. jsdom (a
 * devDependency) gives both a standard DOM; no browser is started. */
"use strict";
const fs = require("fs");
const path = require("path");
const { JSDOM } = require("jsdom");

const JS = path.join(__dirname, "..", "..", "docs", "assets", "js");
const input = JSON.parse(fs.readFileSync(0, "utf8"));

const dom = new JSDOM("<!doctype html><html><head></head><body></body></html>",
  { url: input.page, runScripts: "outside-only", pretendToBeVisual: true });
const { window } = dom;
global.document = window.document;   // compare.js's render() builds nodes with the global document, as in a page
global.window = window;               // and writes a CSV cell with tables.js's rule (window.atlasTables.csvCell)

const compare = require(path.join(JS, "compare.js"));
// as the page loads them: tablesort (node_modules, atlas/assets.py copies the same file), then tables.js
window.eval(fs.readFileSync(require.resolve("tablesort/dist/tablesort.min.js"), "utf8"));
window.eval(fs.readFileSync(path.join(JS, "tables.js"), "utf8"));
const tables = window.atlasTables;
if (!tables || typeof tables.shownCSV !== "function") throw new Error("tables.js did not define window.atlasTables.shownCSV");

/* The markup both renderers write, compared as the DOM reads it: whitespace-only text between elements (Python
 * joins its lines with newlines) dropped outside cells, links resolved against the compare page to their path. */
function normalise(node) {
  const box = window.document.createElement("div");
  if (typeof node === "string") box.innerHTML = node; else box.appendChild(node);
  (function walk(n) {
    for (const c of Array.from(n.childNodes)) {
      if (c.nodeType === 3 && !c.textContent.trim() && c.parentNode.nodeName !== "TD" && c.parentNode.nodeName !== "TH") c.remove();
      else if (c.nodeType === 1) walk(c);
    }
  })(box);
  box.querySelectorAll("a[href]").forEach(function (a) { a.setAttribute("href", new URL(a.getAttribute("href"), input.page).pathname); });
  return box.innerHTML;
}

const site = new URL(input.site);
const out = { pairs: [], tables: [], cells: [] };
for (const p of input.pairs) {
  const m = compare.pairRows(p.a, p.b);
  out.pairs.push({
    facts: m.facts, services: m.services, summary: compare.summary(m),
    csv: compare.exportCsv(m, false), csv_diff: compare.exportCsv(m, true),
    json: compare.exportJson(p.a, p.b, m, false), json_diff: compare.exportJson(p.a, p.b, m, true),
    js_html: normalise(compare.render(p.a, p.b, m, site)), py_html: normalise(p.py_html),
  });
}
for (const html of input.tables) {
  const box = window.document.createElement("div");
  box.innerHTML = html;
  const table = box.querySelector("table");
  out.tables.push(table ? tables.shownCSV(table) : null);
}
for (const cell of input.cells) out.cells.push(compare.csvCell(cell));
process.stdout.write(JSON.stringify(out));
