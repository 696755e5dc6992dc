"""Every download link of a calculator shows what it will give. After Compute the XLSX link kept
the default example's file (../../assets/reports/footprint-default.<hash>.xlsx) with the computed result's name: a
click built the right workbook, but copying the link or a middle click gave the default report. What a copy or a
middle click gives is the link's href (and its download name): these tests read them.

The XLSX link's states (data-link-state, calculator.js): "build" (the prerendered result's file), "held" (a link's
own result is being computed), "on-click" (a result computed in the browser whose workbook is made when clicked: no
href, so there is nothing to copy that would give another result), "made" (that workbook's object URL, under its
name). The CSV and Helm links of a computed result are object URLs of that result's files."""
from __future__ import annotations

import io
import re

import openpyxl
import pytest

from conftest import BOOT_LIMIT_MS, FAILED, _Handler, computed, offline, result_cell, serve, wait_calc, wasm_holder

pytestmark = pytest.mark.browser

CALC = "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70"
"""126K TPS on BSF scenario 3.3 at a 70 % target: BSF Management Service 17 replicas (Table 3-25, memory binds:
test_calculators.test_observed_cpu_rule_scenario_3_3); files named footprint-bsf-3-3.*."""
DEFAULT_XLSX = re.compile(r"\.\./\.\./assets/reports/footprint-default\.[0-9a-f]{12}\.xlsx")


def _links(page) -> dict[str, dict]:
    """Every link of the downloads line, by id: what a copy or a middle click would give (href, download name), its
    state, role and text."""
    return {a["id"]: a for a in page.evaluate("""() => [...document.querySelectorAll('.atlas-downloads a')].map(a => ({
        id: a.id, href: a.getAttribute('href'), download: a.getAttribute('download'), state: a.getAttribute('data-link-state'),
        role: a.getAttribute('role'), disabled: a.getAttribute('aria-disabled'), text: a.textContent}))""")}


@pytest.fixture
def reading_page(browser):
    """A fresh page (cold cache) that can read what a link's object URL holds: the site's Content-Security-Policy
    (connect-src 'self') keeps the page's own scripts from fetching blob: URLs, so this context bypasses it for the
    test's reads (a click, a copy or a middle click is a navigation, which that rule does not govern). Asserts after the
    test that nothing left 127.0.0.1."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block", bypass_csp=True)
    blocker = offline(ctx)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.js_errors = errors
    yield pg
    ctx.close()
    assert blocker.blocked == [], f"requests outside 127.0.0.1: {blocker.blocked}"


def _fetched(page, url: str) -> bytes:
    """What the object URL ``url`` holds (what copying the link, or a middle click, gives while the page is open)."""
    return bytes(page.evaluate("(u) => fetch(u).then(r => r.arrayBuffer()).then(b => Array.from(new Uint8Array(b)))", url))


def _idle_at(page, load: str) -> None:
    wait_calc(page, f"load {load} shown, Python idle", until=f"""() => {{ const c = document.getElementById('atlas-calculator');
        return c.dataset.state === 'ready' && !c.hasAttribute('data-busy') && c.hasAttribute('data-downloads-for')
            && new URLSearchParams(location.search).get('load') === '{load}'; }}""")


def test_after_compute_every_download_link_gives_the_result_shown(reading_page, site_url):
    page = reading_page
    page.goto(site_url + CALC, wait_until="load")
    computed(page)
    _idle_at(page, "126000")
    links = _links(page)
    assert not [a for a in links.values() if DEFAULT_XLSX.fullmatch(a["href"] or "")], links  # no default report left
    # the XLSX: nothing to copy or open yet (no href, no name); a button that makes this result's workbook
    xlsx = links["calc-dl-xlsx"]
    assert (xlsx["href"], xlsx["download"], xlsx["state"], xlsx["role"]) == (None, None, "on-click", "button"), xlsx
    # CSV and Helm values: this result's files, under its names, with its inputs at their head
    for key, name in (("csv", "footprint-bsf-3-3.csv"), ("helm", "footprint-bsf-3-3-values.yaml")):
        a = links[f"calc-dl-{key}"]
        assert a["href"].startswith("blob:") and a["download"] == name, a
        assert "# target_load: 126000\n" in _fetched(page, a["href"]).decode("utf-8"), key
    # clicked, the workbook is made and downloaded; the link is then its object URL under its name, the same bytes
    with page.expect_download(timeout=BOOT_LIMIT_MS) as d:
        page.click("#calc-dl-xlsx")
    assert d.value.suggested_filename == "footprint-bsf-3-3.xlsx"
    xlsx = _links(page)["calc-dl-xlsx"]
    assert xlsx["state"] == "made" and xlsx["href"].startswith("blob:") and xlsx["download"] == "footprint-bsf-3-3.xlsx", xlsx
    made = _fetched(page, xlsx["href"])
    assert made == open(d.value.path(), "rb").read()
    book = openpyxl.load_workbook(io.BytesIO(made))
    rows = list(book["Inputs"].iter_rows(values_only=True))
    head = list(rows[3])  # the Inputs sheet's header is its 4th row (tests/test_reports.py)
    inputs = {r[head.index("Input")]: r[head.index("Value")] for r in rows[4:] if r and r[head.index("Input")]}
    assert inputs["Target load, total"] == 126000, inputs
    # a newer result: the workbook made is not its own, so the link goes back to making one, and the old URL is revoked
    page.fill("#calc-load", "80000")
    _idle_at(page, "80000")
    links = _links(page)
    assert (links["calc-dl-xlsx"]["href"], links["calc-dl-xlsx"]["state"]) == (None, "on-click"), links["calc-dl-xlsx"]
    assert page.evaluate("(u) => fetch(u).then(() => 'fetched', () => 'revoked')", xlsx["href"]) == "revoked"
    assert "# target_load: 80000\n" in _fetched(page, links["calc-dl-csv"]["href"]).decode("utf-8")
    assert page.js_errors == []


def test_the_xlsx_button_works_from_the_keyboard(page, site_url):
    page.goto(site_url + CALC, wait_until="load")
    computed(page)
    page.focus("#calc-dl-xlsx")
    with page.expect_download(timeout=BOOT_LIMIT_MS) as d:
        page.keyboard.press("Enter")
    assert d.value.suggested_filename == "footprint-bsf-3-3.xlsx"
    assert page.js_errors == []


_Held = wasm_holder()


def test_while_a_links_result_is_computed_the_xlsx_is_held_back_with_the_others(page, built_site):
    """A permalink of other inputs while Python loads: the prerendered workbook (the default example's) is not offered
    as the link's; once computed, the XLSX makes the link's own."""
    httpd, url = serve(built_site, _Held)
    try:
        page.goto(url + "/calculators/footprint/?scenario=policy-3-2-7&load=75000&sites=1", wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-state="booting"]', state="attached")
        xlsx = _links(page)["calc-dl-xlsx"]
        assert (xlsx["href"], xlsx["download"], xlsx["state"], xlsx["disabled"]) == (None, None, "held", "true"), xlsx
        _Held.release.set()
        computed(page)
        xlsx = _links(page)["calc-dl-xlsx"]
        assert (xlsx["href"], xlsx["state"]) == (None, "on-click"), xlsx
        with page.expect_download(timeout=BOOT_LIMIT_MS) as d:
            page.click("#calc-dl-xlsx")
        assert d.value.suggested_filename == "footprint-policy-3-2-7.xlsx"
    finally:
        _Held.release.set()
        httpd.shutdown()


class _NoWasm(_Handler):
    """Pyodide's WebAssembly missing (HTTP 404): Python cannot load."""

    def do_GET(self):
        if self.path.split("?")[0].endswith("/pyodide.asm.wasm"):
            return self.send_error(404)
        super().do_GET()

    def do_HEAD(self):
        if self.path.split("?")[0].endswith("/pyodide.asm.wasm"):
            return self.send_error(404)
        super().do_HEAD()


def test_when_python_cannot_load_a_links_page_offers_the_default_examples_files_named_as_such(page, built_site):
    httpd, url = serve(built_site, _NoWasm)
    try:
        page.goto(url + "/calculators/footprint/?scenario=policy-3-2-7&load=75000&sites=1", wait_until="load")
        wait_calc(page, FAILED)
        links = _links(page)
        xlsx = links["calc-dl-xlsx"]
        assert DEFAULT_XLSX.fullmatch(xlsx["href"]) and xlsx["download"] == "footprint-bsf-bsf-nbsf-rx.xlsx", xlsx
        assert xlsx["text"] == "XLSX (the default example's)" and xlsx["state"] == "build"
        assert links["calc-dl-csv"]["download"] == "footprint-bsf-bsf-nbsf-rx.csv"
        assert page.inner_text("#atlas-calc-downloads").endswith("(the default example's)")
        assert result_cell(page, "BSF Management Service") == "14"  # the default example, as the links say
    finally:
        httpd.shutdown()
