"""The errata page within the 400 KB a page may move before use: its table ships the columns a
reader scans (erratum, scenario, kind, action, problem) and loads the table and the three long ones (reading, where, the
text as printed) from assets/data/errata-details.json on first use: the filter box, "CSV (as shown)", the "Show
them now" button or a view in the address (docs/assets/js/tablemore.js). Expected values are data/*/errata.yaml's."""
from __future__ import annotations

import csv
import io
import json
import re

import pytest
import yaml

from atlas.tableview import shown_rows
from conftest import ROOT

DETAILS = "assets/data/errata-details.json"


def _errata() -> list[dict]:
    out = []
    for p in sorted((ROOT / "data").glob("*/errata.yaml")):
        out += yaml.safe_load(p.read_text(encoding="utf-8")) or []
    return out


def _one(eid: str) -> dict:
    return next(e for e in _errata() if e["id"] == eid)


def test_page_table_has_no_detail_cells_and_the_file_has_them_for_every_erratum(built_site):
    """bsf-E001 (data/bsf/errata.yaml: 'ndbappmysql' printed for ndbappmysqld, BSF Table 3-6): its row on the page
    has five cells and its problem with plain quotes; the details file gives its table, reading, the reason, where and
    the text as printed; the build's "CSV (as shown)" file has all nine columns, in the order the page shows them once
    loaded."""
    html = (built_site / "data/errata/index.html").read_text(encoding="utf-8")
    table = html[html.index('data-atlas-table="errata"'):]
    table = table[:table.index("</table>")]
    assert f'data-atlas-more="../../{DETAILS}"' in table
    assert re.findall(r"<th data-atlas-more-col>([^<]*)</th>", table) == ["Table", "Reading", "Where", "As printed"]
    header, rows = shown_rows('<div><table class="atlas-data" ' + table + "</table></div>")
    assert header == ["Erratum", "Scenario", "Kind", "Action", "Problem", "Table", "Reading", "Where", "As printed"]
    assert {len(r) for r in rows} == {5} and len(rows) == len(_errata()) == 488
    e = _one("bsf-E001")
    assert e["problem"] == "'ndbappmysql' (Table 3-6) is not a cnDBTier pod name"
    assert rows[0] == ["bsf-E001", "bsf-3-1", "typo", "read-as", e["problem"]]
    assert "<td>'ndbappmysql' (Table 3-6) is not a cnDBTier pod name</td>" in table  # no &#x27;
    details = json.loads((built_site / DETAILS).read_text(encoding="utf-8"))
    assert details["columns"] == ["Table", "Reading", "Where", "As printed"]
    assert list(details["rows"]) == [x["id"] for x in _errata()] or set(details["rows"]) == {x["id"] for x in _errata()}
    assert details["rows"]["bsf-E001"] == [[["", "3-6"]], [["", "ndbappmysqld"], ["", " "], ["note", "ndbappmysqld with its final d lost"]],
                                           [["", "pod name 'ndbappmysql' (row labels)"]], [["code", "ndbappmysql"]]]
    # an erratum without a reading: the reason alone (policy-E053, 22530% kept as printed and excluded)
    assert _one("policy-E053").get("reading") in (None, "")
    assert details["rows"]["policy-E053"][1] == [["", " "], ["note", _one("policy-E053")["reason"]]]
    shown = list(csv.reader(io.StringIO((built_site / "downloads/views/errata/errata.csv").read_text(encoding="utf-8"))))
    assert shown[0] == header
    assert shown[1] == rows[0] + ["3-6", "ndbappmysqld ndbappmysqld with its final d lost", "pod name 'ndbappmysql' (row labels)",
                                  "ndbappmysql"]
    assert len(shown) == 489


def _open(page, site_url, path):
    page.goto(f"{site_url}/{path}", wait_until="load")
    page.wait_for_selector("html[data-atlas-views]", state="attached")


def _visible_heads(table) -> list[str]:
    return table.evaluate("t => Array.from(t.tHead.rows[0].cells).filter(c => c.offsetParent !== null).map(c => c.textContent.trim())")


@pytest.mark.browser
def test_details_load_on_the_button_and_not_before(page, site_url):
    """Before use the page fetches no details (the bytes a reader pays for at load) and shows five columns; "Show them
    now" loads them: nine columns, every row nine cells, bsf-E001's cells as data/bsf/errata.yaml gives them, the
    note that explains the button hidden. Sorting by a loaded column works."""
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "errata-details" in r.url else None)
    _open(page, site_url, "data/errata/")
    table = page.locator('table[data-atlas-table="errata"]')
    assert _visible_heads(table) == ["Erratum", "Scenario", "Kind", "Action", "Problem"]
    assert asked == [] and table.get_attribute("data-atlas-more-state") is None
    button = page.locator('button.atlas-more-button[data-atlas-for="errata"]')
    assert re.fullmatch(r"Show them now \(\d+\.\d KiB\)", button.inner_text())
    button.click()
    page.wait_for_selector('table[data-atlas-table="errata"][data-atlas-more-state="loaded"]', state="attached")
    assert len(asked) == 1
    assert _visible_heads(table)[5:] == ["Table", "Reading", "Where", "As printed"]
    assert set(table.evaluate("t => Array.from(t.tBodies[0].rows).map(r => r.cells.length)")) == {9}
    row = table.locator("tbody tr", has=page.locator('a:text-is("bsf-E001")'))
    cells = [c.strip() for c in row.locator("td").all_inner_texts()]
    assert cells[5:] == ["3-6", "ndbappmysqld ndbappmysqld with its final d lost", "pod name 'ndbappmysql' (row labels)", "ndbappmysql"]
    assert row.locator("td").nth(8).locator("code").inner_text() == "ndbappmysql"
    assert row.locator("td").nth(6).locator("span.atlas-note").inner_text() == "ndbappmysqld with its final d lost"
    assert page.locator('p.atlas-more[data-atlas-for="errata"]').is_hidden()
    head = table.locator("thead th").nth(8)  # As printed
    head.click()
    assert head.get_attribute("aria-sort") == "ascending"
    first = table.evaluate("t => t.tBodies[0].rows[0].cells[8].textContent")
    values = table.evaluate("t => Array.from(t.tBodies[0].rows).map(r => r.cells[8].textContent.toLowerCase())")
    assert first.lower() == min(values) or values == sorted(values)
    assert page.js_errors == []


@pytest.mark.browser
def test_filter_in_the_address_searches_the_loaded_columns(page, site_url):
    """"binlogthreadstore" is in the reading and as-printed text of policy-E185 to E190 (a cnDBTier parameter the
    guide prints in a table of config changes) and in none of the five columns the page ships: the address's filter
    loads the details before the page says its view is ready, and leaves exactly those rows."""
    want = [e["id"] for e in _errata()
            if "binlogthreadstore" in " ".join(str(e.get(k) or "") for k in ("reading", "reason", "where", "raw")).lower()]
    assert want == [f"policy-E{n}" for n in range(185, 191)]
    assert not any("binlogthreadstore" in e["problem"].lower() for e in _errata())
    _open(page, site_url, "data/errata/?f.errata=binlogthreadstore")
    table = page.locator('table[data-atlas-table="errata"]')
    assert table.get_attribute("data-atlas-more-state") == "loaded"
    shown = table.evaluate("t => Array.from(t.tBodies[0].rows).filter(r => !r.hidden).map(r => r.cells[0].textContent.trim())")
    assert shown == want
    assert page.js_errors == []


@pytest.mark.browser
def test_details_that_cannot_load_say_so_and_the_next_use_tries_again(page, site_url):
    """The details file answers 404: the table keeps its five columns and says which file failed and how; the chips
    still work; once the file is back, the button loads it, and the filter searches the new cells of rows whose
    text the chip had read before (policy-E185 to E190 hold "binlogthreadstore" only in their loaded columns)."""
    page.route(re.compile(r".*/errata-details\.json.*"), lambda route: route.fulfill(status=404, body="gone"))
    _open(page, site_url, "data/errata/")
    table = page.locator('table[data-atlas-table="errata"]')
    page.locator('button.atlas-more-button[data-atlas-for="errata"]').click()
    page.wait_for_selector('table[data-atlas-table="errata"][data-atlas-more-state="failed"]', state="attached")
    msg = page.locator('p.atlas-more-message[data-atlas-for="errata"]').inner_text()
    assert f"../../{DETAILS}" in msg and "HTTP 404" in msg, msg
    assert _visible_heads(table) == ["Erratum", "Scenario", "Kind", "Action", "Problem"]
    button = page.locator('button.atlas-more-button[data-atlas-for="errata"]')
    assert button.is_enabled()
    page.locator('.atlas-facets[data-atlas-for="errata"] button[data-value="swapped-columns"]').click()
    assert table.locator("tbody tr:not([hidden])").count() == sum(e["kind"] == "swapped-columns" for e in _errata()) == 4
    page.unroute(re.compile(r".*/errata-details\.json.*"))
    button.click()
    page.wait_for_selector('table[data-atlas-table="errata"][data-atlas-more-state="loaded"]', state="attached")
    assert table.locator("tbody tr:not([hidden])").count() == 4  # the chip still applies
    assert page.locator("p.atlas-more-message").count() == 0  # the failure's message went with it
    assert set(table.evaluate("t => Array.from(t.tBodies[0].rows).map(r => r.cells.length)")) == {9}
    # the rows' text read for the chip before the columns came is read again: the filter finds what they hold
    page.locator('.atlas-facets[data-atlas-for="errata"] button[data-value="swapped-columns"]').click()
    page.locator(f'input[aria-controls="{table.get_attribute("id")}"]').fill("binlogthreadstore")
    page.wait_for_function("() => new URLSearchParams(location.search).get('f.errata') === 'binlogthreadstore'")
    assert table.locator("tbody tr:not([hidden])").count() == 6
    assert [e for e in page.js_errors if "404" not in e] == []


@pytest.mark.browser
def test_without_javascript_the_page_says_where_the_columns_are(browser, site_url):
    """JavaScript off: five columns, no empty headers, no button or chips that would do nothing (the chip bar showed,
    inert, before), and the note naming where the reading, where and as printed are."""
    ctx = browser.new_context(java_script_enabled=False)
    try:
        page = ctx.new_page()
        page.goto(f"{site_url}/data/errata/", wait_until="load")
        table = page.locator('table[data-atlas-table="errata"]')
        assert _visible_heads(table) == ["Erratum", "Scenario", "Kind", "Action", "Problem"]
        assert page.locator('button.atlas-more-button').is_hidden()
        assert page.locator('.atlas-facets[data-atlas-for="errata"]').is_hidden()
        note = page.locator('p.atlas-more[data-atlas-for="errata"]')
        assert note.is_visible() and "on the page each erratum links to" in note.inner_text()
    finally:
        ctx.close()
