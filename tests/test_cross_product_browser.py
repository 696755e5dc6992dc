"""The cross-product pages and the defects fixed beside them, in Chromium: the ranking's chips, sort and downloads over every row
(its rows after the first load on first use), the mesh page, SQL in the browser (refusals, the time limit, examples), the
filter box's keyboard focus, the footprint's detail table and the DSR chart's legend on a phone, and every new page at
1280 and 390 px in both palettes (screenshots into $ATLAS_SCREENSHOTS when set, else the test's own folder)."""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from conftest import BOOT_LIMIT_MS, CALC_READY, CHROMIUM, offline, wait_calc

pytestmark = pytest.mark.browser

RANKING, MESH, QUERY = "/tools/ranking/", "/tools/mesh/", "/data/query/"
TABLE = "table[data-atlas-table='service-ranking']"
VIEWS_READY = "html[data-atlas-views='ready']"


def _tidy(built_site: Path, name: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO((built_site / "downloads" / "views" / name).read_text(encoding="utf-8"))))


def _visible_rows(page, table: str) -> list[list[str]]:
    return page.evaluate("""t => Array.from(document.querySelectorAll(t + ' tbody tr')).filter(tr => !tr.hidden)
        .map(tr => Array.from(tr.cells).map(td => td.textContent.trim()))""", table)


# ------------------------------------------------------------------ the ranking

def test_ranking_page_holds_its_first_rows_and_a_chip_filters_every_row(page, site_url, built_site):
    """The page holds the top 100 rows; the NEF chip loads the others and shows NEF's rows of all of them: as many as the
    tidy download has NEF rows, the count under the filter and the address saying so."""
    tidy = _tidy(built_site, "ranking/services-tidy.csv")
    page.goto(site_url + RANKING, wait_until="load")
    page.wait_for_selector(VIEWS_READY, state="attached")
    assert page.locator(f"{TABLE} tbody tr").count() == 100
    assert page.get_attribute(TABLE, "data-atlas-rows-state") is None  # nothing more fetched before use
    assert page.is_visible("button.atlas-rows-button")
    page.click(".atlas-facets[data-atlas-for='service-ranking'] button[data-facet='product'][data-value='NEF']")
    page.wait_for_selector(f"{TABLE}[data-atlas-rows-state='loaded']", state="attached")
    assert page.locator(f"{TABLE} tbody tr").count() == len(tidy) == int(page.get_attribute(TABLE, "data-atlas-rows-total"))
    nef = [x for x in tidy if x["product"] == "NEF"]
    page.wait_for_function("n => document.querySelectorAll(\"table[data-atlas-table='service-ranking'] tbody tr:not([hidden])\").length === n",
                           arg=len(nef))
    rows = _visible_rows(page, TABLE)
    assert {r[4] for r in rows} == {"NEF"} and len(rows) == len(nef) == 168
    assert page.inner_text(".atlas-filter-status") == f"{len(nef)} of {len(tidy)} rows"
    assert "c.service-ranking.product=NEF" in page.url and not page.is_visible("p.atlas-rows-more")
    assert page.js_errors == []


def test_ranking_csv_as_shown_clicked_first_holds_every_row_as_the_build_writes_it(page, site_url, built_site):
    """'CSV (as shown)' pressed before any other use: the download waits for the other rows, and is then the build's file
    of the whole table, byte for byte (download = view)."""
    page.goto(site_url + RANKING, wait_until="load")
    page.wait_for_selector(VIEWS_READY, state="attached")
    with page.expect_download() as dl:
        page.click("a.atlas-download-shown[data-atlas-for='service-ranking']")
    got = Path(dl.value.path()).read_text(encoding="utf-8")
    assert got == (built_site / "downloads" / "views" / "ranking" / "services.csv").read_text(encoding="utf-8")
    assert dl.value.suggested_filename == "services.csv" and len(got.splitlines()) == 819  # header and 818 rows
    assert page.js_errors == []


def test_ranking_view_in_the_address_sorts_every_row(page, site_url, built_site):
    """BSF's rows sorted by CPU used per 1K, highest first, from a link: over every BSF row (the loaded ones too), the
    first with a figure being the BSF row with the most CPU used per 1K in the tidy download."""
    tidy = [x for x in _tidy(built_site, "ranking/services-tidy.csv") if x["product"] == "BSF"]
    top = max((x for x in tidy if x["cpu_used_per_1k_cores"]), key=lambda x: float(x["cpu_used_per_1k_cores"]))
    page.goto(site_url + RANKING + "?c.service-ranking.product=BSF&s.service-ranking=2:desc", wait_until="load")
    page.wait_for_selector(f"{TABLE}[data-atlas-rows-state='loaded']", state="attached")
    page.wait_for_function("n => document.querySelectorAll(\"table[data-atlas-table='service-ranking'] tbody tr:not([hidden])\").length === n",
                           arg=len(tidy))
    # (tables.js sorts the rows without a figure above the numbers when descending: the first row with a figure)
    first = next(r for r in _visible_rows(page, TABLE) if r[2])
    assert first[5] == top["section"] and float(first[2].lstrip("≥≤~").strip()) == round(float(top["cpu_used_per_1k_cores"]), 3)
    assert (first[0], top["service"]) == ("ndbmtd", "ndbmtd")  # BSF 3.3's data nodes, 1.134 cores per 1K
    assert page.js_errors == []


# ------------------------------------------------------------------ the mesh

def test_mesh_page_runs_pairs_and_download(page, site_url, built_site):
    """One row per run with ASM (11 with sidecars, Policy 3.2.1 whose sidecars are not printed); the like-for-like pairs,
    a partial ASM-on side giving 'at least'; the CSV as shown is the build's."""
    page.goto(site_url + MESH, wait_until="load")
    page.wait_for_selector(VIEWS_READY, state="attached")
    assert page.locator("table[data-atlas-table='mesh-runs'] tbody tr").count() == 12
    assert "unknown" in page.inner_text("table[data-atlas-table='mesh-runs'] tr[data-scenario='policy-3-2-1']")
    assert page.inner_text("table[data-atlas-table='mesh-pairs'] tr[data-on='policy-3-2-3'][data-off='policy-3-5-1'] td:nth-child(6)").startswith("at least ")
    with page.expect_download() as dl:
        page.click("a.atlas-download-shown[data-atlas-for='mesh-runs']")
    assert Path(dl.value.path()).read_text(encoding="utf-8") == (built_site / "downloads" / "views" / "mesh" / "runs.csv").read_text(encoding="utf-8")
    assert page.locator(".atlas-chart-mesh .atlas-static-wide svg").count() == 1  # drawn at build time, wide and narrow
    assert page.locator(".atlas-chart-mesh .atlas-static-narrow svg").count() == 1
    assert page.js_errors == []


# ------------------------------------------------------------------ SQL in the browser

def _query(page, sql: str) -> None:
    """Types ``sql`` into the box and waits for its result (the page computes it as typed: live results)."""
    before = page.get_attribute("#atlas-calculator", "data-result-ms") or ""
    page.fill("#calc-sql", sql)
    wait_calc(page, "a new result", until=f"""() => {{ const c = document.getElementById('atlas-calculator');
        return !c.hasAttribute('data-busy') && (c.getAttribute('data-result-ms') || '') !== {json.dumps(before)}; }}""")


def test_sql_runs_in_the_browser_refuses_writes_and_stops_a_long_query(page, site_url):
    """Python boots from its files (not the snapshot); a query's rows are those of the guides' files (resources.csv: BSF
    208, NEF 242, Policy 994 rows); a DELETE is refused, the box marked and the result kept; a recursive WITH without end
    is stopped after 3 s, and Python answers the next query without a restart; an example runs without reloading the
    page. Every request stays on 127.0.0.1 (the page fixture)."""
    from conftest import DocData
    counts = {d: len(DocData(d).rows("resources")) for d in ("bsf", "nef", "policy")}
    page.goto(site_url + QUERY, wait_until="load")
    page.evaluate("window.__samePage = true")
    page.wait_for_selector(CALC_READY, state="attached", timeout=BOOT_LIMIT_MS)
    assert page.get_attribute("#atlas-calculator", "data-state") == "ready", page.inner_text("#atlas-calc-status")
    assert page.get_attribute("#atlas-calculator", "data-boot-from") == "files"
    _query(page, "SELECT doc, count(*) AS n FROM resources GROUP BY doc ORDER BY doc")
    assert _visible_rows(page, "#atlas-calc-result table") == [[d, str(n)] for d, n in sorted(counts.items())]
    assert "sql=SELECT+doc" in page.url
    before = page.inner_html("#atlas-calc-result")
    page.fill("#calc-sql", "DELETE FROM resources")
    page.wait_for_function("() => !document.getElementById('atlas-calc-message').hidden", timeout=BOOT_LIMIT_MS)
    assert "only queries that read run here" in page.inner_text("#atlas-calc-message") and "DELETE" in page.inner_text("#atlas-calc-message")
    assert page.get_attribute("#calc-sql", "aria-invalid") == "true" and page.inner_html("#atlas-calc-result") == before
    page.fill("#calc-sql", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
    page.wait_for_function("() => /stopped after 3 s/.test(document.getElementById('atlas-calc-message').textContent)", timeout=BOOT_LIMIT_MS)
    assert page.get_attribute("#atlas-calculator", "data-restarts") is None  # stopped by Python itself, not by the page
    _query(page, "SELECT count(*) FROM errata")
    assert page.get_attribute("#calc-sql", "aria-invalid") is None
    page.click("a.atlas-query-example[data-example='errata']")
    page.wait_for_function("() => document.querySelector('#atlas-calc-result table thead th').textContent === 'doc'", timeout=BOOT_LIMIT_MS)
    assert page.input_value("#calc-sql").startswith("-- How many defects") and page.evaluate("window.__samePage") is True
    assert page.js_errors == []


# ------------------------------------------------------------------ the filter box's focus

@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_filter_box_shows_keyboard_focus(browser, site_url, scheme):
    """Tabbing into a table's filter box draws an outline (it had none: outline none, the same border, no shadow), in
    both palettes."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    blocker = offline(ctx)
    pg = ctx.new_page()
    pg.goto(site_url + "/services/", wait_until="load")
    box = pg.locator(".atlas-filter input")
    box.wait_for()
    assert pg.get_attribute("body", "data-md-color-scheme") == ("slate" if scheme == "dark" else "default")
    rest = box.evaluate("el => getComputedStyle(el).outlineStyle")
    for _ in range(150):  # the keyboard, as a reader reaches it
        pg.keyboard.press("Tab")
        if pg.evaluate("document.activeElement && document.activeElement.matches('.atlas-filter input')"):
            break
    else:
        pytest.fail("the filter box was not reached with Tab")
    style = box.evaluate("el => { const s = getComputedStyle(el); return [s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor]; }")
    assert rest == "none" and style[0] == "solid" and style[1] >= 2, style
    ctx.close()
    assert blocker.blocked == []


# ------------------------------------------------------------------ phone layouts

def test_footprint_detail_table_fits_a_phone(browser, site_url):
    """At 390 px, the first row of the footprint's detail table shows the service, the replicas after, their likely range
    and the CPU requested after inside the screen, in that order from the top, and the table does not scroll sideways.
    The prerendered result, before Python answers."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    pg = ctx.new_page()
    pg.goto(site_url + "/calculators/footprint/", wait_until="load")
    # BSF Management Service: scaled with the load, so it has a likely range (a fixed service has none: that cell is empty)
    row = pg.locator('#atlas-calc-result table.atlas-rows tbody tr[data-service="BSF Management Service"][data-container="app"]')
    boxes = {n: row.locator(f"td:nth-child({i})").bounding_box() for n, i in (("service", 2), ("after", 7), ("likely", 8), ("cpu", 13))}
    for name, b in boxes.items():
        assert b and b["x"] >= 0 and b["x"] + b["width"] <= 390, (name, b)
    assert boxes["service"]["y"] < boxes["after"]["y"] <= boxes["likely"]["y"] < boxes["cpu"]["y"]
    assert row.locator("td:nth-child(7)").inner_text() != ""
    wrap = pg.evaluate("""() => { const w = document.querySelector('#atlas-calc-result table.atlas-rows').closest('.atlas-table-wrap');
        return [w.scrollWidth, w.clientWidth]; }""")
    assert wrap[0] <= wrap[1] + 1, wrap
    assert pg.evaluate("getComputedStyle(document.querySelector('#atlas-calc-result table.atlas-rows td:nth-child(7)'), '::before').content") == '"Replicas (target)"'
    ctx.close()


def test_dsr_chart_legend_is_whole_on_a_phone(browser, site_url):
    """The DSR result chart, drawn live at 390 px: every legend label whole (it read 'at the measured CPU peak (…')."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    pg = ctx.new_page()
    pg.goto(site_url + "/calculators/dsr/", wait_until="load")
    pg.wait_for_selector('.atlas-chart[data-chart-id="calc-chart"][data-rendered="true"] svg', timeout=BOOT_LIMIT_MS)
    labels = pg.evaluate("""() => Array.from(document.querySelectorAll('.atlas-chart[data-chart-id="calc-chart"] .role-legend-label text'))
        .map(t => t.textContent)""")
    assert labels and any(t.startswith("at the measured CPU peak (") for t in labels), labels
    assert not [t for t in labels if t.endswith("…")], labels
    ctx.close()


CLIPPED_TEXT = """() => Array.from(document.querySelectorAll('.atlas-chart svg')).flatMap(svg => {
  const box = svg.closest('.atlas-chart').getBoundingClientRect();
  return Array.from(svg.querySelectorAll('text')).map(t => [t.textContent, t.getBoundingClientRect()])
    .filter(([s, r]) => s.trim() && r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1))
    .map(([s, r]) => s + ' (' + Math.round(r.left) + '-' + Math.round(r.right) + ' px of ' + Math.round(box.left) + '-' + Math.round(box.right) + ')');
})"""


@pytest.mark.parametrize("path", [RANKING, MESH])
def test_chart_text_is_whole_on_a_phone(browser, site_url, path):
    """At 390 px, every text of the ranking's and the mesh's chart (the build's drawing, then the live one) lies within
    the chart: the ranking's axis title ran 8 px past the right edge ('... used tick' cut), so it is two lines."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    pg = ctx.new_page()
    pg.goto(site_url + path, wait_until="load")
    pg.wait_for_selector(".atlas-chart svg", state="attached")
    assert pg.evaluate(CLIPPED_TEXT) == [], "drawn by the build"
    pg.locator(".atlas-chart").first.scroll_into_view_if_needed()
    pg.locator(".atlas-chart").first.hover()
    pg.wait_for_selector('.atlas-chart[data-rendered="true"] svg', state="attached", timeout=BOOT_LIMIT_MS)
    assert pg.evaluate(CLIPPED_TEXT) == [], "drawn live"
    ctx.close()


# ------------------------------------------------------------------ every new page, 1280 and 390 px, light and dark

@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_new_pages_at_desktop_and_phone_width_in_both_palettes(browser, site_url, tmp_path, width, scheme):
    """The ranking, mesh and query pages, the home page (its chart) and the footprint page: no sideways scroll of the
    page itself (wide tables scroll in their own box), the charts drawn, no script error, no axe-core critical or serious
    violation of the colour rules; a screenshot of each."""
    from test_site_experience import COLOUR_RULES, run_axe
    out = Path(os.environ.get("ATLAS_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    ctx = browser.new_context(viewport={"width": width, "height": 900 if width > 500 else 844}, color_scheme=scheme,
                              bypass_csp=True)  # axe-core is injected as an inline script
    blocker = offline(ctx)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    for name, path in (("ranking", RANKING), ("mesh", MESH), ("query", QUERY), ("home", "/"), ("footprint", "/calculators/footprint/")):
        pg.goto(site_url + path, wait_until="load")
        pg.wait_for_selector(VIEWS_READY, state="attached")
        over = pg.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert over[0] <= over[1], (name, width, scheme, over)
        for chart in pg.locator(".atlas-chart[data-static]").all():
            assert chart.locator("svg").count() >= 1, name
        assert run_axe(pg, COLOUR_RULES) == [], (name, width, scheme)
        pg.screenshot(path=str(out / f"{name}-{width}-{scheme}.png"), full_page=False)
    ctx.close()
    assert errors == [] and blocker.blocked == []
