"""The rules the site writes twice, once in Python for the pages and downloads and once in JavaScript for what the
reader changes, give the same answers on the same cases, checked in Node without a browser (tests/js/agree.cjs,
with jsdom for the DOM):

- compare.js against atlas/pages/compare.py: the model of a pair (facts, service rows, deltas, what differs), the
  sentence above the tables, the markup, the CSV and JSON exports (all rows and differences only), for every
  scenario against the next one in the catalogue, against the one before it, and against itself;
- tables.js's "CSV (as shown)" against atlas/tableview.py's ``shown_csv`` for every table the build writes as
  shown, and for hand-made tables whose cells are the edge cases of the cell reading and of the CSV escape;
- compare.js's CSV cell against calculators.formatting's ``csv_writer`` on formula-like and quoted text.

The browser tests (test_compare_agrees.py, test_table_views.py) keep checking the pages as a reader uses them.
"""
from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
AGREE = ROOT / "tests" / "js" / "agree.cjs"
SITE = "http://atlas.test/"
PAGE = SITE + "tools/compare/"

# Cell texts at the edges of the two rules: formula signs (OWASP's list: = + - @ tab, carriage return), numbers
# written with a sign (left as they are), the guides' lone dash, quotes, commas and line breaks (quoted), text
# after white space, full-width and small forms of the signs.
CELLS = ["=1+1", "+1", "-5", "+3.2", "-0.5", "1e-3", "-", "@SUM(A1)", "-x", "+x", "\t=1", "\r=1", "=HYPERLINK(\"x\")",
         'say "hi"', "a,b", "line\nbreak", "cr\rhere", " =1+1", "  -5", "\uff1d1+1", "\uff0b1", "\ufe66x", "\uff20x",
         "plain", "1,234.5", "50 %", "not in A", "0.063", ".5", "5.", "--1", "=", "+", "@",
         " \uff1d1+1", "\u3000=1", "\u00a0-5", "-\uff15", " - "]

# Tables whose cells read as the reader sees them: <br> a space, runs of white space (no-break and narrow no-break
# spaces among them) one space, nested markup read as text, a nested table's text part of its cell, character
# references decoded; then each CELLS text in a cell of its own.
TABLES = [
    "<table><thead><tr><th>Service</th><th>CPU<br>(cores)</th></tr></thead><tbody>"
    "<tr><td>  Query\u00a0\u00a0Service </td><td><span>1</span>,<b>234</b>.5</td></tr>"
    "<tr><td>a<br/>b</td><td>x\u202fy\n\tz</td></tr>"
    "<tr><td>&lt;tag&gt; &amp; &quot;q&quot;</td><td><table><tr><td>in</td></tr></table>ner</td></tr>"
    "<tr><td></td><td></td></tr></tbody></table>",
    "<table><thead><tr><th colspan=2>Group</th></tr><tr><th>Only</th><th>Last header row</th></tr></thead>"
    "<tbody><tr><td>1</td><td>2</td></tr></tbody><tbody><tr><td>second</td><td>body</td></tr></tbody></table>",
    "<table><thead><tr><th>Text</th></tr></thead><tbody>"
    + "".join(f"<tr><td>{c.replace('&', '&amp;').replace('<', '&lt;')}</td></tr>" for c in CELLS)
    + "<tr><td></td></tr></tbody></table>",
]


def _pairs(ids: list[str]) -> list[tuple[str, str]]:
    """Every scenario against the next (crossing from one guide to the next), the one before it, and itself."""
    nxt = ids[1:] + ids[:1]
    return [(a, b) for a, b in zip(ids, nxt)] + [(b, a) for a, b in zip(ids, nxt)] + [(a, a) for a in ids]


@pytest.fixture(scope="module")
def agreed():
    """Python's answers and Node's for the same cases: (cases, python, node)."""
    from atlas.datastore import load
    from atlas.pages.compare import render_pair, scenario_data
    from atlas.pages.products import Renderer
    from atlas.pages.shown import shown_tables
    from atlas.tableview import shown_csv
    r = Renderer(load())
    ids = [s["id"] for s in r.atlas.scenarios]
    data = {sid: scenario_data(r, sid) for sid in ids}
    pairs = _pairs(ids)
    shown = sorted(shown_tables(r).items(), key=lambda kv: kv[1][0])
    tables = [(f"{path} ({'/'.join(map(str, key))})", html) for key, (path, html) in shown]
    tables += [(f"hand-made table {i + 1}", html) for i, html in enumerate(TABLES)]
    tables += [(f"compare {a} vs {b}", render_pair(data[a], data[b])) for a, b in pairs[:5]]
    request = {"site": SITE, "page": PAGE, "cells": CELLS, "tables": [html for _, html in tables],
               "pairs": [{"a": data[a], "b": data[b], "py_html": render_pair(data[a], data[b])} for a, b in pairs]}
    run = subprocess.run(["node", str(AGREE)], input=json.dumps(request), capture_output=True, text=True, cwd=ROOT,
                         timeout=600)
    assert run.returncode == 0, f"tests/js/agree.cjs failed:\n{run.stderr[-3000:]}"
    return {"pairs": pairs, "data": data, "tables": tables}, json.loads(run.stdout)


def _first_difference(js: str, py: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(js, py)) if x != y), min(len(js), len(py)))
    return f"at character {at}:\n  js: ...{js[max(0, at - 120):at + 120]!r}\n  py: ...{py[max(0, at - 120):at + 120]!r}"


def test_every_pair_has_the_same_model_in_javascript_and_python(agreed):
    from atlas.pages.compare import pair_rows, summary
    cases, node = agreed
    assert len(node["pairs"]) == len(cases["pairs"]) == 3 * len(cases["data"]) and len(cases["data"]) > 70
    for (a, b), js in zip(cases["pairs"], node["pairs"]):
        facts, services = pair_rows(cases["data"][a], cases["data"][b])
        assert js["facts"] == facts, f"{a} vs {b}: the facts differ"
        assert js["services"] == services, f"{a} vs {b}: the service rows differ"
        assert js["summary"] == summary(facts, services), f"{a} vs {b}"


def test_every_pair_renders_the_same_markup(agreed):
    cases, node = agreed
    for (a, b), js in zip(cases["pairs"], node["pairs"]):
        assert js["js_html"] == js["py_html"], f"{a} vs {b}: compare.js and render_pair differ " + _first_difference(
            js["js_html"], js["py_html"])


def test_every_pair_exports_the_same_csv_and_json(agreed):
    from atlas.pages.compare import export_csv, export_json
    cases, node = agreed
    for (a, b), js in zip(cases["pairs"], node["pairs"]):
        x, y = cases["data"][a], cases["data"][b]
        assert js["csv"] == export_csv(x, y), f"{a} vs {b}: " + _first_difference(js["csv"], export_csv(x, y))
        assert js["csv_diff"] == export_csv(x, y, True), f"{a} vs {b}, differences only"
        assert json.loads(js["json"]) == json.loads(export_json(x, y)), f"{a} vs {b}: JSON"
        assert json.loads(js["json_diff"]) == json.loads(export_json(x, y, True)), f"{a} vs {b}: JSON, differences only"


def test_the_pairs_cover_what_differs_and_what_is_missing(agreed):
    """The cases are not all alike: some pairs differ in service rows, some have services on one side only (the
    'not in A' cells), some compare a guide without per-service data, and the pairs of a scenario with itself have
    no delta at all."""
    cases, node = agreed
    cells = [c for p in node["pairs"] for s in p["services"] for c in s["cells"]]
    assert any(c["a"] is None for c in cells) and any(c["b"] is None for c in cells)
    assert any(c["delta"] for c in cells) and any(c["delta"].startswith("-") for c in cells)
    assert any(not p["services"] for p in node["pairs"])
    same = [p for (a, b), p in zip(cases["pairs"], node["pairs"]) if a == b]
    assert same and all(not f["delta"] for p in same for f in p["facts"])


def test_every_shown_table_downloads_the_same_csv_from_the_page_and_the_build(agreed):
    from atlas.tableview import shown_csv
    cases, node = agreed
    assert len(node["tables"]) == len(cases["tables"]) > 100
    for (name, html), js in zip(cases["tables"], node["tables"]):
        py = shown_csv(html).decode("utf-8")
        assert js == py, f"{name}: tables.js and tableview.shown_csv differ " + _first_difference(js, py)


def test_hand_made_tables_read_as_worked_out_by_hand(agreed):
    """The first hand-made table's CSV, written out by hand: <br> as a space, no-break and narrow no-break spaces,
    tabs and line breaks collapsed, nested markup and a nested table read as text, references decoded, an empty
    row kept."""
    cases, node = agreed
    js = node["tables"][[n for n, _ in cases["tables"]].index("hand-made table 1")]
    assert js == ('Service,CPU (cores)\nQuery Service,"1,234.5"\na b,x y z\n'
                  '<tag> & ""q"",inner\n,\n').replace('<tag> & ""q""', '"<tag> & ""q"""')
    second = node["tables"][[n for n, _ in cases["tables"]].index("hand-made table 2")]
    assert second == "Only,Last header row\n1,2\nsecond,body\n"


def test_csv_cells_are_made_inert_and_quoted_alike(agreed):
    from calculators.formatting import csv_writer
    _, node = agreed
    for cell, js in zip(CELLS, node["cells"]):
        buf = io.StringIO()
        csv_writer(buf).writerow([cell, "x"])
        assert js + ",x\n" == buf.getvalue(), f"{cell!r}: compare.js writes {js!r}, Python {buf.getvalue()!r}"
    # by hand: OWASP's signs get an apostrophe, signed numbers and the dash do not, quotes are doubled
    by_cell = dict(zip(CELLS, node["cells"]))
    assert by_cell["=1+1"] == "'=1+1" and by_cell["@SUM(A1)"] == "'@SUM(A1)" and by_cell["-x"] == "'-x"
    assert by_cell["-5"] == "-5" and by_cell["+3.2"] == "+3.2" and by_cell["-"] == "-"
    assert by_cell['say "hi"'] == '"say ""hi"""' and by_cell["a,b"] == '"a,b"'
    assert list(csv.reader(io.StringIO(by_cell["line\nbreak"]))) == [["line\nbreak"]]
    # a bare carriage return is quoted by both (the csv module alone left it bare, and its own reader split the row)
    buf = io.StringIO()
    csv_writer(buf).writerow(["cr\rhere", "x"])
    assert list(csv.reader(io.StringIO(buf.getvalue(), newline=""))) == [["cr\rhere", "x"]]
