"""Site experience in Debian's Chromium: the home efficiency chart and its links, sortable
and filterable tables, the compare page from a permalink, charts under a strict
Content-Security-Policy, and an axe-core accessibility check over every page type."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import CHART_DONE, ROOT, _Handler, offline, serve, wait_for_chart

pytestmark = pytest.mark.browser
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; "
       "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'")


def lead(text: str) -> float:
    m = re.match(r"\s*(-?\d[\d,]*(?:\.\d+)?)", text)
    return float(m.group(1).replace(",", "")) if m else float("-inf")


def column(page, table, header: str) -> list[str]:
    """Shown values (raw spans left out) of a column, visible rows only, in page order."""
    idx = table.locator("thead th").all_inner_texts()
    i = next(n for n, h in enumerate(idx) if h.strip().rstrip("↕▲▼").strip() == header)
    return table.evaluate(
        """(t, i) => Array.from(t.tBodies[0].rows).filter(r => !r.hidden).map(r => {
             const td = r.cells[i]; if (!td) return '';
             return Array.from(td.childNodes).filter(n => n.nodeType === 3 || !n.classList.contains('atlas-raw')).map(n => n.textContent).join('').trim();
           })""", i)


def test_home_chart_draws_points_that_link_to_scenarios(page, site_url):
    page.goto(site_url + "/", wait_until="load")
    wait_for_chart(page, ".atlas-chart-home" + CHART_DONE.replace(".atlas-chart", ""))
    rows = page.locator('table[data-atlas-table="efficiency"] tbody tr').count()
    points = page.locator(".atlas-chart-home g.mark-symbol.role-mark path")
    assert rows > 10 and points.count() == rows
    spec = page.evaluate("document.querySelector('.atlas-chart-home').__atlasSpec")  # as drawn: fetched from assets/charts/
    # product by fill and outline (a partial scenario hollow), ASM by shape
    assert spec["encoding"]["href"]["field"] == "url" and {"shape", "fill", "stroke"} <= set(spec["encoding"])
    assert all(not v["url"].startswith(("/", "http")) for v in spec["data"]["values"])
    with page.expect_navigation():
        points.first.click(force=True)
    assert re.search(r"/products/[a-z]+/[a-z0-9-]+/$", page.url), page.url
    assert page.js_errors == []


def test_table_sorts_numerically_and_filters(page, site_url):
    page.goto(site_url + "/products/bsf/bsf-3-3/", wait_until="load")
    table = page.locator('table[data-atlas-table="3-25"]')
    header = table.locator("thead th", has_text=re.compile(r"^CPU request \(cores\)"))
    header.click()
    assert table.get_attribute("data-atlas-enhanced") == "true"
    assert header.get_attribute("aria-sort") == "ascending"
    values = [lead(v) for v in column(page, table, "CPU request (cores)")]
    assert values == sorted(values) and len(set(values)) > 2
    header.click()
    values = [lead(v) for v in column(page, table, "CPU request (cores)")]
    assert values == sorted(values, reverse=True)
    # Replicas: numeric, not lexicographic ("14" after "2").
    table.locator("thead th", has_text=re.compile(r"^Replicas")).first.click()
    reps = [lead(v) for v in column(page, table, "Replicas")]
    assert reps == sorted(reps)
    total = table.locator("tbody tr").count()
    box = page.locator(f'input[aria-controls="{table.get_attribute("id")}"]')
    box.fill("diameter gateway")
    page.wait_for_function("t => t.getAttribute('data-atlas-filtered') === 'true'", arg=table.element_handle())
    shown = table.locator("tbody tr:not([hidden])")
    assert 0 < shown.count() < total
    assert all("diameter gateway" in t.lower() for t in shown.all_inner_texts())
    box.fill("")
    page.wait_for_function("t => t.getAttribute('data-atlas-filtered') === 'false'", arg=table.element_handle())
    assert table.locator("tbody tr:not([hidden])").count() == total
    assert page.js_errors == []


def test_tables_degrade_without_javascript(browser, site_url):
    ctx = browser.new_context(java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(site_url + "/products/bsf/bsf-3-3/")
    table = pg.locator('table[data-atlas-table="3-25"]')
    assert table.get_attribute("data-atlas-enhanced") is None and table.locator("tbody tr").count() > 10
    assert pg.locator(".atlas-filter").count() == 0
    ctx.close()


def fact(page, key: str) -> list[str]:
    return page.locator(f'#atlas-compare-result table[data-atlas-table="compare-facts"] tr[data-key="{key}"] td').all_inner_texts()


def test_compare_page_from_permalink(page, site_url):
    page.goto(site_url + "/tools/compare/?a=bsf-3-1&b=policy-3-2-2", wait_until="load")
    page.wait_for_selector('#atlas-compare-result[data-a="bsf-3-1"][data-b="policy-3-2-2"][data-prerendered="false"]', timeout=20000)
    assert page.input_value("#compare-a") == "bsf-3-1" and page.input_value("#compare-b") == "policy-3-2-2"
    assert [t.split(" (")[0] for t in fact(page, "load_per_site")] == ["22,000 TPS", "50,000 TPS"]
    assert fact(page, "asm")[0] == "off"
    assert fact(page, "product") == ["BSF", "Policy"] or fact(page, "product")[0] == "BSF"
    row = page.locator('table[data-atlas-table="compare-services"] tr[data-key="Appinfo\u241fapp"]')
    assert row.locator("td").nth(2).inner_text() == "2"  # BSF 3.1, Table 3-5: Appinfo 2 replicas
    assert page.locator("#atlas-compare-result td.atlas-diff").count() > 0
    # Changing a scenario updates the result and the address.
    page.select_option("#compare-b", "bsf-3-3")
    page.wait_for_selector('#atlas-compare-result[data-b="bsf-3-3"]', timeout=20000)
    assert "b=bsf-3-3" in page.url
    assert fact(page, "load_per_site")[1].startswith("63,000 TPS")
    assert page.js_errors == []


def test_compare_page_without_javascript_shows_default_pair(browser, site_url):
    ctx = browser.new_context(java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(site_url + "/tools/compare/")
    assert pg.get_attribute("#atlas-compare-result", "data-prerendered") == "true"
    assert len(fact(pg, "load_per_site")) == 2
    ctx.close()


class _StrictCSP(_Handler):
    def end_headers(self):
        if self.path.split("?")[0].endswith(("/", ".html")):
            self.send_header("Content-Security-Policy", CSP)
        super().end_headers()


WATCH_CSP = """window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""


@pytest.mark.parametrize("path", ["/", "/products/bsf/bsf-3-3/", "/tools/compare/?a=bsf-3-1&b=bsf-3-3"])
def test_pages_work_under_strict_csp(page, built_site, path):
    httpd, url = serve(built_site, _StrictCSP)
    try:
        page.add_init_script(WATCH_CSP)
        resp = page.goto(url + path, wait_until="load")
        assert "script-src 'self'" in resp.headers.get("content-security-policy", "")
        if page.locator(".atlas-chart[data-chart-id]").count():
            wait_for_chart(page)
        if "compare" in path:
            page.wait_for_selector('#atlas-compare-result[data-prerendered="false"]', timeout=20000)
        th = page.locator("table.atlas-data thead th").first
        th.click()
        assert page.locator("table.atlas-data[data-atlas-enhanced]").count() >= 1
        page.wait_for_function("th => th.hasAttribute('aria-sort')", arg=th.element_handle())  # the click has sorted
        assert page.evaluate("window.__csp") == []
        assert page.js_errors == []
    finally:
        httpd.shutdown()


def page_types(site: Path) -> list[str]:
    paths = ["/", "/products/bsf/", "/products/bsf/bsf-3-3/", "/products/policy/policy-3-1-5/", "/tools/compare/",
             "/services/", "/services/ingress-gateway/"]
    for folder in ("calculators", "data", "about"):
        for md in sorted((ROOT / "docs" / folder).glob("*.md")):
            if (site / folder / md.stem / "index.html").exists():
                paths.append(f"/{folder}/{md.stem}/")
    return paths


COLOUR_RULES = ["color-contrast", "link-in-text-block"]
"""The axe-core rules whose result depends on colours: contrast of text, and links told apart from text by colour."""


def run_axe(page, rules: list[str] | None = None) -> list[dict]:
    """axe-core's critical and serious violations on the page as it is now (axe injected once per page): of every
    rule, or of ``rules`` only."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    res = page.evaluate("""async rules => {
        const r = await axe.run(document, rules ? {resultTypes: ['violations'], runOnly: {type: 'rule', values: rules}}
                                                : {resultTypes: ['violations']});
        return r.violations.filter(v => v.impact === 'critical' || v.impact === 'serious')
          .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""", rules)
    return res


SWITCHED = """from => document.body.getAttribute('data-md-color-scheme') !== from
    && !document.querySelector('.atlas-chart[data-rendered="pending"]')"""
"""The palette has switched away from ``from`` and every live chart has been redrawn in it (charts.js redraws on the
switch, marking each chart pending until it is drawn)."""


def test_axe_every_page_type_in_both_palettes(browser, built_site, site_url):
    """No critical or serious axe-core violation on every page type in both palettes. Each page is loaded once and
    checked with every rule in the palette it opens in, then switched with the header's toggle, as a reader does, and
    checked again with the rules that depend on colour (COLOUR_RULES): the palettes differ only in colours (Material's
    schemes are sets of colour properties), so the other rules cannot answer differently. The first page opens dark
    from the system's preference; Material keeps the reader's choice, so each later page opens in the palette the
    previous one was left in: half the pages open light, half dark (every rule runs in both palettes), and every page
    is checked in both."""
    assert AXE.exists(), "npm ci installs axe-core (devDependency)"
    # bypass_csp: axe-core is injected as an inline script, which the pages' own CSP <meta> forbids
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark", service_workers="block",
                              bypass_csp=True)
    blocker = offline(ctx)
    pg = ctx.new_page()
    found, checked, paths = {}, [], page_types(built_site)
    try:
        for path in paths:
            pg.goto(site_url + path, wait_until="load")
            if pg.locator(".atlas-chart[data-chart-id]:not([hidden])").count():
                wait_for_chart(pg)  # on a calculator page, Vega waits for Python: the boot limit
            for turn in (1, 2):
                scheme = pg.get_attribute("body", "data-md-color-scheme")
                v = run_axe(pg, None if turn == 1 else COLOUR_RULES)
                if v:
                    found[f"{path} ({scheme})"] = v
                checked.append((path, scheme))
                if turn == 1:
                    pg.locator("form[data-md-component=palette] label:not([hidden])").click()
                    pg.wait_for_function(SWITCHED, arg=scheme)
    finally:
        ctx.close()
    assert blocker.blocked == [], f"requests outside 127.0.0.1: {blocker.blocked}"
    assert checked[0] == (paths[0], "slate")  # the system's dark preference, on the first page
    assert sorted(checked) == sorted((p, s) for p in paths for s in ("default", "slate")), checked
    assert found == {}, found
