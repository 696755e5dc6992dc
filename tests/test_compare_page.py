"""The compare page's behaviour: a link naming an unknown scenario, the 'Differences only'
switch (with and without JavaScript), the CSV and JSON exports of the comparison shown, and the search index
(the page's text and headings, not its tables). That compare.js and Python render the same markup is
tests/test_compare_agrees.py."""
from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import pytest

RESULT = "#atlas-compare-result"
FACT_ROWS = f'{RESULT} table[data-atlas-table="compare-facts"] tbody tr'
SERVICE_ROWS = f'{RESULT} table[data-atlas-table="compare-services"] tbody tr'


def _shown(page, a: str, b: str) -> None:
    page.wait_for_selector(f'{RESULT}[data-a="{a}"][data-b="{b}"][data-prerendered="false"]', timeout=30000)


def _visible_keys(page, rows: str) -> list[str]:
    return page.eval_on_selector_all(rows, "trs => trs.filter(t => t.getClientRects().length).map(t => t.dataset.key)")


# ------------------------------------------------------------------ a link naming an unknown scenario
@pytest.mark.browser
def test_unknown_scenario_in_link_is_named_and_the_pair_shown_is_the_pair_selected(page, site_url):
    """?a=bogus&b=bsf-3-1 once said 'showing the defaults' while select B showed bsf-3-1 and the tables compared
    bsf-3-2 with bsf-3-3. Now: the unknown id is named, A falls back to its default (bsf-3-2), B stays bsf-3-1, and
    the selects, the tables' headings and the address all give that pair."""
    page.goto(f"{site_url}/tools/compare/?a=bogus&b=bsf-3-1", wait_until="load")
    _shown(page, "bsf-3-2", "bsf-3-1")
    status = page.inner_text("#atlas-compare-status")
    assert status.startswith("Unknown scenario “bogus” (A) in the link: showing bsf-3-2 against bsf-3-1."), status
    assert "defaults" not in status
    assert (page.input_value("#compare-a"), page.input_value("#compare-b")) == ("bsf-3-2", "bsf-3-1")
    heads = page.locator(f'{RESULT} [data-compare-side] a').all_inner_texts()
    assert heads[0].startswith("BSF 3.2:") and heads[1].startswith("BSF 3.1:"), heads
    # BSF 3.1 is the 22K TPS run, BSF 3.2 the 54K TPS run (the guide's scenario titles)
    loads = page.locator(f'{FACT_ROWS}[data-key="load_per_site"] td').all_inner_texts()
    assert [t.split(" (")[0] for t in loads] == ["54,000 TPS", "22,000 TPS"]
    assert page.url.endswith("/tools/compare/?a=bsf-3-2&b=bsf-3-1")
    assert page.js_errors == []


@pytest.mark.browser
def test_unknown_scenarios_falling_back_to_the_prerendered_pair(page, site_url):
    """Both sides unknown: both named; the pair is the default (bsf-3-2 against bsf-3-3), already on the page, and the
    selects and the address say so."""
    page.goto(f"{site_url}/tools/compare/?a=nope&b=bsf-9-9", wait_until="load")
    page.wait_for_function("document.getElementById('atlas-compare-status').textContent.startsWith('Unknown')")
    assert page.inner_text("#atlas-compare-status").startswith(
        "Unknown scenario “nope” (A) and “bsf-9-9” (B) in the link: showing bsf-3-2 against bsf-3-3.")
    assert (page.input_value("#compare-a"), page.input_value("#compare-b")) == ("bsf-3-2", "bsf-3-3")
    assert (page.get_attribute(RESULT, "data-a"), page.get_attribute(RESULT, "data-b")) == ("bsf-3-2", "bsf-3-3")
    assert page.url.endswith("/tools/compare/?a=bsf-3-2&b=bsf-3-3")
    assert page.js_errors == []


# ------------------------------------------------------------------ differences only
# BSF 3.2 (54K TPS) against BSF 3.3 (63K TPS), the default pair: the same product, sites carrying traffic (1, site1),
# ASM (on), deployment mode and completeness; every other fact differs.
SAME_FACTS = {"product", "sites_traffic", "asm", "mode", "completeness"}
DIFFERING_FACTS = ["section", "load_per_site", "load_total", "sites_provisioned", "release", "cpu_request", "mem_request",
                   "efficiency"]


@pytest.mark.browser
def test_differences_only_hides_equal_rows_and_lives_in_the_address(page, site_url):
    page.goto(f"{site_url}/tools/compare/", wait_until="load")
    assert len(_visible_keys(page, FACT_ROWS)) == len(SAME_FACTS) + len(DIFFERING_FACTS)
    assert page.inner_text(f"{RESULT} .atlas-compare-summary").startswith("8 of 13 scenario fields differ")
    page.check("#compare-diff-only")
    page.wait_for_url(re.compile(r"\?a=bsf-3-2&b=bsf-3-3&diff=1$"))
    assert _visible_keys(page, FACT_ROWS) == DIFFERING_FACTS
    assert page.get_attribute("#compare-permalink", "href") == "?a=bsf-3-2&b=bsf-3-3&diff=1"
    # another pair keeps the switch: BSF 3.1 against 3.3 differs in 44 of its 49 service rows
    page.select_option("#compare-a", "bsf-3-1")
    _shown(page, "bsf-3-1", "bsf-3-3")
    assert "diff=1" in page.url
    assert len(_visible_keys(page, SERVICE_ROWS)) == 44 and page.locator(SERVICE_ROWS).count() == 49
    # a link with diff=1 opens with the switch on
    page.goto(f"{site_url}/tools/compare/?a=bsf-3-2&b=bsf-3-3&diff=1", wait_until="load")
    page.wait_for_function("document.getElementById('atlas-compare-status').textContent.startsWith('Comparing')")
    assert page.is_checked("#compare-diff-only")
    assert _visible_keys(page, FACT_ROWS) == DIFFERING_FACTS
    assert page.js_errors == []


@pytest.mark.browser
def test_differences_only_without_javascript(browser, site_url):
    """The switch is CSS alone: it hides the equal rows, and the export links become the differences-only files."""
    ctx = browser.new_context(java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(site_url + "/tools/compare/")
    assert len(_visible_keys(pg, FACT_ROWS)) == 13
    csv_link = pg.locator("#compare-export a:visible", has_text="CSV")
    assert csv_link.get_attribute("href").endswith("export/compare-bsf-3-2-vs-bsf-3-3.csv")
    pg.check("#compare-diff-only")
    assert _visible_keys(pg, FACT_ROWS) == DIFFERING_FACTS
    assert csv_link.get_attribute("href").endswith("export/compare-bsf-3-2-vs-bsf-3-3-differences.csv")
    ctx.close()


# ------------------------------------------------------------------ exports
_SHOWN_JS = """() => {
  const text = (td) => { const c = td.cloneNode(true); c.querySelectorAll('.atlas-delta').forEach(d => d.remove());
                         return c.textContent.trim(); };
  const delta = (td) => { const d = td.querySelector('.atlas-delta'); return d ? d.textContent.slice(1, -1) : ''; };
  const vis = (sel) => [...document.querySelectorAll(sel)].filter(t => t.getClientRects().length);
  const out = [];
  for (const tr of vis('#atlas-compare-result table[data-atlas-table="compare-facts"] tbody tr')) {
    const [a, b] = tr.querySelectorAll('td');
    out.push(['scenarios', tr.querySelector('th').textContent.trim(), '', '', text(a), text(b), delta(b)]);
  }
  const heads = [...document.querySelectorAll('#atlas-compare-result table[data-atlas-table="compare-services"] thead th')]
    .map(th => th.textContent.trim());
  for (const tr of vis('#atlas-compare-result table[data-atlas-table="compare-services"] tbody tr')) {
    const td = tr.querySelectorAll('td');
    for (let i = 2; i < td.length; i += 2)
      out.push(['services', heads[i].replace(/, A$/, ''), td[0].textContent.trim(), td[1].textContent.trim(),
                text(td[i]), text(td[i + 1]), delta(td[i + 1])]);
  }
  return out;
}"""


def _download(page, label: str):
    with page.expect_download() as dl:
        page.locator("#compare-export a:visible", has_text=label).click()
    d = dl.value
    return d.suggested_filename, open(d.path(), encoding="utf-8").read()


@pytest.mark.browser
@pytest.mark.parametrize("diff_only", [False, True], ids=["all-rows", "differences-only"])
def test_exports_hold_exactly_the_comparison_shown(page, site_url, diff_only):
    """BSF 3.1 against BSF 3.3: the CSV parses back to one row per pair of cells shown (the facts, then each shown
    service row's four columns), with the texts, the deltas (without sign or separators) and the marks the page
    shows; the JSON holds the same rows; the file names carry both scenario ids."""
    page.goto(f"{site_url}/tools/compare/?a=bsf-3-1&b=bsf-3-3" + ("&diff=1" if diff_only else ""), wait_until="load")
    _shown(page, "bsf-3-1", "bsf-3-3")
    page.wait_for_selector('#compare-export[data-a="bsf-3-1"][data-b="bsf-3-3"]')
    shown = page.evaluate(_SHOWN_JS)
    assert len(shown) == (8 + 44 * 4 if diff_only else 13 + 49 * 4)
    suffix = "-differences" if diff_only else ""
    name, text = _download(page, "CSV")
    assert name == f"compare-bsf-3-1-vs-bsf-3-3{suffix}.csv"
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["table", "field", "service", "container", "a", "b", "a_value", "b_value", "b_minus_a", "differs"]
    assert [r[:6] + [r[8]] for r in rows[1:]] == [s[:6] + [s[6].replace(",", "").lstrip("+")] for s in shown]
    diff_cells = page.evaluate("""() => [...document.querySelectorAll('#atlas-compare-result tbody tr')]
        .filter(t => t.getClientRects().length)
        .flatMap(t => { const td = [...t.querySelectorAll('td')]; const first = t.querySelector('th') ? 0 : 2;
                        const out = []; for (let i = first; i < td.length; i += 2) out.push(td[i].classList.contains('atlas-diff'));
                        return out; })""")
    assert [r[9] == "yes" for r in rows[1:]] == diff_cells
    # by hand, from the guide's scenario titles: BSF 3.1 ran 22K TPS per site, BSF 3.3 63K TPS
    load = next(r for r in rows if r[1] == "Load per site")
    assert load[4:] == ["22,000 TPS", "63,000 TPS", "22000", "63000", "41000", "yes"]
    name, text = _download(page, "JSON")
    assert name == f"compare-bsf-3-1-vs-bsf-3-3{suffix}.json"
    js = json.loads(text)
    assert (js["a"]["id"], js["b"]["id"], js["differences_only"]) == ("bsf-3-1", "bsf-3-3", diff_only)
    assert [[r[k] for k in ("table", "field", "service", "container", "a", "b")] for r in js["rows"]] == [s[:6] for s in shown]
    assert next(r for r in js["rows"] if r["field"] == "Load per site")["b_minus_a"] == 41000
    assert page.js_errors == []


def test_exports_agree_with_python_and_the_default_pair_files(built_site):
    """The default pair's files, which the page links without JavaScript, are compare.py's export of that pair (the
    same function the browser export mirrors, checked above against the page); BSF 3.2 against 3.3, load per
    site 54,000 against 63,000 TPS: +9,000."""
    from atlas.datastore import load
    from atlas.pages.compare import export_csv, export_json, scenario_data
    from atlas.pages.products import Renderer
    r = Renderer(load())
    a, b = scenario_data(r, "bsf-3-2"), scenario_data(r, "bsf-3-3")
    html = (built_site / "tools" / "compare" / "index.html").read_text(encoding="utf-8")
    hrefs = [unescape(h) for h in re.findall(r'<span id="compare-export">(.*?)</span></p>', html, re.S)[0].split('href="')[1:]]
    hrefs = [h.split('"', 1)[0] for h in hrefs]
    assert hrefs == [f"../../assets/data/compare/export/compare-bsf-3-2-vs-bsf-3-3{s}.{e}"
                     for s in ("", "-differences") for e in ("csv", "json")]
    for h, diff_only in zip(hrefs, (False, False, True, True)):
        got = (built_site / "tools" / "compare" / h).resolve().read_text(encoding="utf-8")
        assert got == (export_csv if h.endswith(".csv") else export_json)(a, b, diff_only), h
    rows = list(csv.reader(io.StringIO(export_csv(a, b))))
    assert rows[3] == ["scenarios", "Load per site", "", "", "54,000 TPS", "63,000 TPS", "54000", "63000", "9000", "yes"]


def test_policy_3_2_4_sidecar_rows_are_the_hand_figure(built_site):
    """The compare page's file for Policy 3.2.4 (assets/data/compare/policy-3-2-4.json): its istio-proxy rows add up
    to 511.5 cores, Table 3-104's sidecars with the seven min-max replica ranges at their max end (by hand in
    tests/test_sidecars.py), the figure the product table and the ASM page show; Ingress Gateway (row 6, 2 / 27)
    counts 27."""
    data = json.loads((built_site / "assets" / "data" / "compare" / "policy-3-2-4.json").read_text(encoding="utf-8"))
    side = [s for s in data["services"] if s["container"] == "istio-proxy"]
    assert sum(s["cpu_total"]["v"] for s in side) == 511.5
    assert next(s for s in side if s["service"] == "ingress-gateway")["replicas"]["v"] == 27


# ------------------------------------------------------------------ search index
def test_search_index_has_the_page_text_not_the_tables(built_site):
    """Material's index holds the compare page's intro, closing note and headings, not the prerendered tables, the
    status line or the scenario choices (data-search-exclude)."""
    idx = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    docs = [d for d in idx["docs"] if d["location"].startswith("tools/compare/")]
    text = " ".join(d["text"] for d in docs)
    assert "Pick two benchmark scenarios" in text and "A blank cell means the source gives no value" in text
    assert {d["title"] for d in docs} >= {"Compare two scenarios", "Scenarios", "Per service"}
    for blob in ("Appinfo", "54,000 TPS", "22K TPS, 4-site setup", "rendered when the site was built", "scenario fields differ",
                 "Download this comparison"):
        assert blob not in text, blob
    assert len(text) < 2000, len(text)
