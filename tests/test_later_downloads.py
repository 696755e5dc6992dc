"""Live results write no files until the result stays: ``catalogue.run(..., later=True)`` gives a
result with its downloads unwritten, and ``catalogue.later_downloads()`` writes them, the same bytes an eager run
writes; in the browser a burst of input computes results and writes one set of downloads, for the result shown."""
from __future__ import annotations

import pytest

from conftest import BOOT_LIMIT_MS, computed

# the benchmark's recompute case (tools/benchmark.py RECOMPUTE_URL): Policy 3.1.5, 114 resource rows, packed
BIG = {"calc": "footprint", "scenario": "policy-3-1-5", "load": "93000", "target": "70", "redundancy": "n+1",
       "node_cores": "64", "node_mem": "512", "spare_nodes": "1"}


def test_a_later_result_holds_back_its_texts_and_writes_them_as_an_eager_run_does(bundle):
    from calculators import catalogue
    eager = catalogue.run(bundle, dict(BIG))
    lazy = catalogue.run(bundle, dict(BIG), later=True)
    assert eager["ok"] and lazy["ok"] and lazy["html"] == eager["html"]
    assert set(lazy["downloads"]) == {"csv", "helm"}
    for k, d in lazy["downloads"].items():
        assert "text" not in d and d["later"] is True
        assert {f: d[f] for f in ("mime", "filename", "label")} == {f: eager["downloads"][k][f] for f in ("mime", "filename", "label")}
    assert lazy["downloads"]["csv"]["filename"] == "footprint-policy-3-1-5.csv"
    written = catalogue.later_downloads()
    assert written == eager["downloads"]
    # the inputs head the CSV as comment lines, one cell each (catalogue.input_lines)
    assert written["csv"]["text"].startswith("# Benchmark Atlas footprint calculator: inputs of this result\n")
    assert "# target_load: 93000\n" in written["csv"]["text"]


def test_a_refused_run_keeps_the_shown_results_downloads(bundle):
    from calculators import catalogue
    catalogue.run(bundle, dict(BIG, load="80000"), later=True)
    refused = catalogue.run(bundle, dict(BIG, load="-5"), later=True)
    assert refused == {"ok": False, "error": "Target load must be greater than zero (TPS); got -5.", "field": "load"}
    assert "# target_load: 80000\n" in catalogue.later_downloads()["csv"]["text"]


def test_no_result_yet_is_an_error_not_an_empty_download():
    from calculators import catalogue
    catalogue._LATER.clear()
    with pytest.raises(LookupError, match="no result to write downloads for: compute one first"):
        catalogue.later_downloads()


@pytest.mark.parametrize("calc", ["footprint", "asm", "overtarget", "dsr", "shcm"])
def test_every_calculator_leaves_its_downloads_for_later(bundle, calc):
    """Every calculator's files wait: the over-target CSV of a 5,000-row paste is written once, not per keystroke."""
    from calculators import asm, catalogue, dsr, overtarget, shcm
    params = {"footprint": {"scenario": "bsf-3-3", "load": "63000"}, "asm": asm.defaults(bundle), "overtarget": overtarget.defaults(),
              "dsr": dsr.defaults(bundle), "shcm": shcm.defaults(bundle)}[calc]
    res = catalogue.run(bundle, dict(params, calc=calc), later=True)
    assert res["ok"], res
    assert res["downloads"] and all(d.get("later") is True and "text" not in d for d in res["downloads"].values())
    eager = catalogue.run(bundle, dict(params, calc=calc))
    assert catalogue.later_downloads() != {}  # the lazy run's (the eager run does not replace it)
    assert {k: d["text"] for k, d in catalogue.later_downloads().items()} == {k: d["text"] for k, d in eager["downloads"].items()}


@pytest.mark.browser
def test_a_burst_of_input_writes_the_downloads_once_for_the_result_shown(page, site_url):
    """Three loads submitted in quick succession: the page computes the first at once and the newest next (the middle
    one is replaced while it waits), and writes downloads only for the newest, the result that stays."""
    page.goto(site_url + "/calculators/footprint/?scenario=bsf-3-3&load=63000", wait_until="load")
    computed(page, 1)
    page.wait_for_selector('#atlas-calculator[data-downloads-for="1"]:not([data-busy])', state="attached", timeout=BOOT_LIMIT_MS)
    runs = int(page.get_attribute("#atlas-calculator", "data-runs-computed"))
    written = int(page.get_attribute("#atlas-calculator", "data-downloads-written"))
    page.evaluate("""() => { const f = document.getElementById('calc-load'), form = f.form;
        for (const v of ['70000', '80000', '90000']) { f.value = v; form.requestSubmit(); } }""")
    page.wait_for_selector('#atlas-calculator[data-result-seq="4"]:not([data-busy])', state="attached", timeout=BOOT_LIMIT_MS)
    page.wait_for_selector('#atlas-calculator[data-downloads-for="4"]', state="attached", timeout=BOOT_LIMIT_MS)
    assert int(page.get_attribute("#atlas-calculator", "data-runs-computed")) == runs + 2  # 70,000 and 90,000
    assert int(page.get_attribute("#atlas-calculator", "data-downloads-written")) == written + 1  # only 90,000's
    with page.expect_download() as dl:
        page.click("#calc-dl-csv")
    assert dl.value.suggested_filename == "footprint-bsf-3-3.csv"
    assert "# target_load: 90000\n" in open(dl.value.path(), encoding="utf-8").read()
