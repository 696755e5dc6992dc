"""ASM overhead, over-target and footprint (georedundancy, packing) calculators in Debian's Chromium (Pyodide), one test each: a known result,
the permalink restores it, the CSV download holds the rows shown, nothing requested outside 127.0.0.1
(the ``page`` fixture fails the test otherwise)."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from conftest import BOOT_LIMIT_MS, computed, csv_body, result_cell

pytestmark = pytest.mark.browser


def download_csv(page) -> list[list[str]]:
    with page.expect_download() as d:
        page.click("#calc-dl-csv")
    return list(csv.reader(io.StringIO(csv_body(Path(d.value.path()).read_text(encoding="utf-8")))))


def asm_values(page) -> tuple[str, str, str]:
    per1k = page.locator('table.atlas-asm-compare tr[data-key="cpu_total_per_1k"] td')
    remove = page.locator('table.atlas-asm-whatif tr[data-change="remove"] td').nth(4).inner_text()
    return per1k.nth(1).inner_text(), per1k.nth(2).inner_text(), remove


def test_asm_calculator(page, site_url):
    """bsf-3-3 (on) against bsf-3-1 (off): 763.8 cores / 63K TPS = 12.124 per 1K, 251 / 22K = 11.409; removing
    ASM from 3.3 frees 280 cores (126 + 154, Tables 3-25/3-26). Default (prerendered) is bsf-3-2."""
    page.goto(site_url + "/calculators/asm/?on=bsf-3-3&off=bsf-3-1", wait_until="load")
    computed(page, 1)
    assert asm_values(page) == ("12.124", "11.409", "-280")
    shown = page.locator("table.atlas-asm-overview tbody tr").count()
    assert page.locator('table.atlas-asm-overview tr[data-scenario="bsf-3-2"] td').nth(3).inner_text() == "35.6 %"
    rows = download_csv(page)  # the pair shown (test_calculator_first_use): each side's TOTAL line
    assert [r[1] for r in rows[1:] if r[0] == "total"] == ["bsf-3-3", "bsf-3-1"]
    with page.expect_download() as d:
        page.click("#calc-dl-overview")
    rows = list(csv.reader(io.StringIO(csv_body(Path(d.value.path()).read_text(encoding="utf-8")))))
    totals = [r for r in rows[1:] if r[2] == "TOTAL"]
    assert len(totals) == shown
    assert ["bsf-3-2", "", "TOTAL", "167.0", "469.7"] == totals[[r[0] for r in totals].index("bsf-3-2")][:5]
    link = page.get_attribute("#calc-permalink", "href")
    assert "on=bsf-3-3" in link and "off=bsf-3-1" in link
    page.goto(site_url + "/calculators/asm/" + link, wait_until="load")
    computed(page, 1)
    assert asm_values(page) == ("12.124", "11.409", "-280")
    assert page.js_errors == []


def test_overtarget_calculator(page, site_url):
    """Policy only, memory at 90 %: Policy 3.3.1 Table 3-188 row 1, ndbappmysqld site3 89%/80% with 5 replicas
    -> HPA asks ceil(5 x 1.1125) = 6, critical. Your CSV: 50 replicas at 90 % of 75 % -> 60; a bad line 3 is reported.
    The v1.32 controller from the page's select: Site1's 88 % of 80 % scales to ceil(5 x 1.1) = 6 (|1 - 1.1| =
    0.10000000000000009 > 0.1), where v1.33 keeps 5."""
    page.goto(site_url + "/calculators/over-target/?product=policy&mem_threshold=90", wait_until="load")
    computed(page, 1)
    sel = '#atlas-calc-result tr[data-scenario="policy-3-3-1"][data-service="ndbappmysqld"][data-site="site3"] td'
    assert page.locator(sel).nth(10).inner_text() == "6" and page.locator(sel).nth(0).inner_text() == "critical"
    assert page.locator('#atlas-calc-result tr[data-scenario^="nef-"]').count() == 0
    shown_cpu = page.locator("table.atlas-cpu-flags tbody tr").count()
    shown_mem = page.locator("table.atlas-mem-flags tbody tr").count()
    page.set_input_files("#calc-csv-file", files=[{"name": "mine.csv", "mimeType": "text/csv", "buffer":
                         b"name,replicas,cpu_request,observed,target\ngw,50,4,90%,75\nbad,x,4,50%,80\n"}])
    # a function, not an expression: Playwright evals expressions in the page, which the page's CSP forbids
    page.wait_for_function("() => document.querySelector('#calc-csv').value.includes('gw,50')")
    page.click("#calc-run")
    # the file's live run and the press may be one run or two (then only the newest is shown): wait until no run is
    # in flight or waiting and the newest result is at least the second
    page.wait_for_function("""() => { const c = document.getElementById('atlas-calculator');
        return !c.hasAttribute('data-busy') && Number(c.getAttribute('data-result-seq') || 0) >= 2; }""", timeout=BOOT_LIMIT_MS)
    assert page.locator('table.atlas-own tr[data-service="gw"] td').nth(7).inner_text() == "60"
    assert page.inner_text('#atlas-own-problems li[data-line="3"]').startswith("Line 3: replicas")
    rows = download_csv(page)
    assert sum(r[0] == "cpu" for r in rows) == shown_cpu and sum(r[0] == "memory" for r in rows) == shown_mem
    assert ["cpu", "over", "policy", "policy-3-3-1", "3-188", "1"] == next(
        r for r in rows if r[3] == "policy-3-3-1" and r[7] == "site3")[:6]
    assert any(r[0] == "own-cpu" and r[6] == "gw" and r[20] == "60" and r[21] == "critical" for r in rows)
    link = page.get_attribute("#calc-permalink", "href")
    assert "product=policy" in link and "mem_threshold=90" in link and "csv" not in link
    page.goto(site_url + "/calculators/over-target/" + link, wait_until="load")
    computed(page, 1)
    assert page.locator(sel).nth(10).inner_text() == "6"
    assert page.locator("table.atlas-cpu-flags tbody tr").count() == shown_cpu
    site1 = sel.replace('"site3"', '"site1"')
    assert page.locator(site1).nth(10).inner_text().startswith("5")
    page.select_option("#calc-kubernetes", "1.32")
    page.wait_for_function("() => document.querySelector('#atlas-calc-result .atlas-note').textContent.includes('v1.32 or earlier.')",
                           timeout=BOOT_LIMIT_MS)
    assert page.locator(site1).nth(10).inner_text().startswith("6") and page.locator(site1).nth(0).inner_text() == "critical"
    assert "kubernetes=1.32" in page.get_attribute("#calc-permalink", "href")
    assert page.js_errors == []


def test_footprint_georedundancy_and_packing(page, site_url):
    """A reported sizing case in the browser: policy 3.2.6 at 120,000 TPS, 2 sites, N+1, target 70, 64-core / 512 GiB nodes.
    ndbmtd keeps Table 3-129's 10 per site; ue-service 26 (test_footprint_rules.test_two_ceilings_under_failover);
    the result is partial (query-service's sidecar, policy-E092) and the form restores every input from the permalink."""
    page.goto(site_url + "/calculators/footprint/?scenario=policy-3-2-6&load=120000&sites=2&redundancy=n%2B1&target=70"
              "&node_cores=64&node_mem=512", wait_until="load")
    computed(page, 1)
    assert result_cell(page, "ndbmtd", "mysqlndbcluster") == "10"
    assert result_cell(page, "ue-service", "app") == "26"
    assert page.get_attribute("#atlas-calc-result .atlas-result", "data-partial") == "true"
    assert "policy-E092" in page.inner_text("#atlas-calc-result .atlas-partial")
    assert "Worker nodes per site" in page.inner_text("#atlas-calc-result .atlas-nodes")
    assert page.input_value("#calc-redundancy") == "n+1"
    rows = download_csv(page)
    assert rows[0][-1] == "partial" and all(r[-1] == "true" for r in rows[1:])
    assert any(r[6] == "missing" and r[2] == "query-service" for r in rows[1:])
    assert page.js_errors == []
