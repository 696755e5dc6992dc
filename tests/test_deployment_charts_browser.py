"""Your deployment on the site's own charts, in Debian's Chromium: the Your deployment page's "Export inputs" carries the
points its Python computed (calculators.deployment.own_points), and "Add my deployment..." beside the home chart and a
service page's chart draws them, marked "yours" by shape and label; a wrong file, a file of another build and a file
with no point for the chart are refused with a message naming what and where. The reader's file never goes into the
address, the browser's storage or a request. And the deployment report's print view.

The ``page`` fixture fails a test on any request outside 127.0.0.1; every wait is for a state of the page, with the
boot limit for anything that waits for Python.

Inputs: tests/fixtures/deployment/get-small.json and top-small.txt, Policy PCF SM at 10,000 TPS. Worked by hand:
* home point: requested = ingress-gateway 3 replicas x (4 + 0.25 istio-proxy) = 12.75 cores, plus ndbmtd 4 replicas x
  1.5 (mysqlndbcluster sets only a limit, which the API server takes as its request) = 6; 18.75 cores / 10,000 TPS x
  1,000 = 1.875, shown to 2 decimals as the home chart shows its points: 1.88 (round half to even on 1.875 exactly).
  db-backup-executor-svc sets no CPU request: the figure is a lower bound, "partial: at least".
* Ingress Gateway's service page: its own containers used 2500m + 1.5 = 4 cores (kubectl top), its istio-proxy 150m =
  0.15 cores; per 1K of 10,000 TPS: 0.4 and 0.015.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import BOOT_LIMIT_MS, CALC_READY, ROOT

pytestmark = pytest.mark.browser

FIX = ROOT / "tests" / "fixtures" / "deployment"
CALC = "/calculators/deployment/?product=policy&call_model=pcf-sm&load=10000"


def _export(page, site_url, tmp_path) -> dict:
    """The file "Export inputs" writes for the small fixture, once its result is shown."""
    page.goto(site_url + CALC, wait_until="load")
    page.wait_for_selector(CALC_READY, state="attached", timeout=BOOT_LIMIT_MS)
    page.fill("#deployment-objects-text", (FIX / "get-small.json").read_text(encoding="utf-8"))
    page.fill("#calc-top", (FIX / "top-small.txt").read_text(encoding="utf-8"))
    # the result of both pastes, not the one of the workloads alone that may show before the kubectl top paste's run
    # starts (tests/test_deployment_report_text.py: 4 workloads with the kubectl top pod, 0.415 cores used per 1K TPS)
    page.wait_for_function("() => { const h = document.getElementById('deployment-headline'); "
                           "return h && h.innerText.includes('4 workload(s) read') && h.innerText.includes('0.415 used per 1K') && "
                           "!document.getElementById('atlas-calculator').hasAttribute('data-busy'); }", timeout=BOOT_LIMIT_MS)
    with page.expect_download() as d:
        page.click("#deployment-export")
    assert "and the points of this result" in page.inner_text("#deployment-io-status")
    return json.loads(Path(d.value.path()).read_text(encoding="utf-8"))


def _add(page, chart_id: str, path: Path) -> str:
    """Chooses ``path`` in the chart's "Add my deployment..." and waits for its answer: the status text."""
    box = f'.atlas-yours[data-yours-for="{chart_id}"]'
    page.wait_for_selector(box + ":not([hidden])")
    page.evaluate("b => { const s = document.querySelector(b + ' .atlas-yours-status'); s.textContent = ''; }", box)
    page.set_input_files(box + " input[type=file]", str(path))
    page.wait_for_function("b => document.querySelector(b + ' .atlas-yours-status').textContent !== ''", arg=box)
    return page.inner_text(box + " .atlas-yours-status")


def _drawn_yours(page, chart_id: str) -> list[dict]:
    """The points the live chart drew as "yours" (Vega's dataset), once the chart is drawn."""
    sel = f'.atlas-chart[data-chart-id="{chart_id}"]'
    page.wait_for_function("s => { const e = document.querySelector(s); return e.getAttribute('data-rendered') === 'true' "
                           "&& e.atlasView; }", arg=sel, timeout=BOOT_LIMIT_MS)
    return page.evaluate("s => document.querySelector(s).atlasView.data('yours')", sel)


STORAGE = "() => JSON.stringify([localStorage, sessionStorage].map(s => Object.keys(s).sort().map(k => [k, s.getItem(k)])))"
"""What the page keeps in the browser's storage (Material keeps its own state there, e.g. the palette)."""


def _private(page, url_before: str, storage_before: str, requests: list, secret: str) -> None:
    """Nothing of the reader's file is in the address, the browser's storage (as it was before the file was read) or
    any request (all GETs of the site's own files: Vega and the chart's spec)."""
    assert page.url == url_before
    assert page.evaluate(STORAGE) == storage_before and secret not in storage_before
    for r in requests:
        assert secret not in r.url and not (r.post_data or ""), r.url
        assert r.method == "GET", r.url


def test_exported_points_drawn_on_the_home_and_a_service_chart(page, site_url, tmp_path):
    saved = _export(page, site_url, tmp_path)
    pts = saved["points"]
    assert pts["product"] == "Policy" and pts["call_model"] == "pcf-sm" and pts["load"] == 10000
    # the home point (worked in the module docstring): 18.75 cores / 10K TPS = 1.875 -> 1.88, a lower bound
    assert pts["home"]["load"] == 10000 and pts["home"]["efficiency"] == 1.88 and pts["home"]["counted"] == "partial: at least"
    ig = {p["kind"]: p for p in pts["services"] if p["page"] == "ingress-gateway"}
    assert (ig["service"]["cores"], ig["service"]["per_1k"]) == (4.0, 0.4)
    assert (ig["sidecar"]["cores"], ig["sidecar"]["per_1k"]) == (0.15, 0.015)
    f = tmp_path / "mine.json"
    f.write_text(json.dumps(saved), encoding="utf-8")

    page.goto(site_url + "/", wait_until="load")
    assert page.get_attribute('.atlas-yours[data-yours-for="home-efficiency"]', "data-build") == pts["build"]
    before, kept, reqs = page.url, page.evaluate(STORAGE), []
    page.on("request", lambda r: reqs.append(r))
    msg = _add(page, "home-efficiency", f)
    assert "Policy, PCF SM, 1.88 cores requested per 1K at 10,000 TPS (partial: at least)" in msg, msg
    drawn = _drawn_yours(page, "home-efficiency")
    assert [(p["load"], p["efficiency"], p["label"]) for p in drawn] == [(10000, 1.88, "yours")]
    # told apart by shape and words: a star among the vendor's circles and squares, and the label "yours"
    chart = page.locator('.atlas-chart[data-chart-id="home-efficiency"]')
    assert chart.locator("text", has_text="yours").count() == 1
    # the vendor's points are all still there beside it
    assert page.evaluate("() => document.querySelector('[data-chart-id=home-efficiency]').atlasView.data('data_0').length") > 20
    _private(page, before, kept, reqs, "ocpcf")

    page.click('.atlas-yours[data-yours-for="home-efficiency"] .atlas-yours-remove')
    page.wait_for_function("() => !document.querySelector('.atlas-yours[data-yours-for=home-efficiency]').hasAttribute('data-yours-shown')")
    page.wait_for_function("() => document.querySelector('[data-chart-id=home-efficiency]').getAttribute('data-rendered') === 'true'")
    assert chart.locator("text", has_text="yours").count() == 0

    page.goto(site_url + "/services/ingress-gateway/", wait_until="load")
    before, kept, reqs = page.url, page.evaluate(STORAGE), []
    page.on("request", lambda r: reqs.append(r))
    msg = _add(page, "svc-ingress-gateway", f)
    assert "yours 4 cores used at 10,000 TPS; yours: sidecar 0.15 cores used at 10,000 TPS" in msg, msg
    drawn = _drawn_yours(page, "svc-ingress-gateway")
    assert sorted((p["label"], p["load"], p["cores"]) for p in drawn) == [("yours", 10000, 4.0), ("yours: sidecar", 10000, 0.15)]
    assert page.locator('.atlas-chart[data-chart-id="svc-ingress-gateway"] text', has_text="yours").count() == 2
    _private(page, before, kept, reqs, "ocpcf")
    assert page.js_errors == []


def test_export_leaves_out_points_of_other_inputs(page, site_url, tmp_path):
    """The points exported are those of the inputs exported: once the form's inputs are not the shown result's (here a
    load that is refused, so the shown result stays that of 10,000 TPS), the file carries no points and says why."""
    _export(page, site_url, tmp_path)
    page.fill("#calc-load", "ten thousand")
    page.wait_for_selector("#atlas-calc-message:not([hidden])", timeout=BOOT_LIMIT_MS)
    with page.expect_download() as d:
        page.click("#deployment-export")
    saved = json.loads(Path(d.value.path()).read_text(encoding="utf-8"))
    assert saved["points"] is None and saved["inputs"]["load"] == "ten thousand"
    assert "without points for the charts: the result of your newest inputs is not shown" in page.inner_text("#deployment-io-status")
    assert page.js_errors == []


def test_wrong_files_are_named(page, site_url, tmp_path):
    page.goto(site_url + "/", wait_until="load")
    build = page.get_attribute('.atlas-yours[data-yours-for="home-efficiency"]', "data-build")
    assert len(build) == 16
    point = {"load": 10000, "unit": "TPS", "efficiency": 1.5, "counted": "complete", "label": "yours", "scenario": "x", "note": ""}
    good = {"format": "benchmark-atlas-deployment-inputs", "version": 1, "inputs": {},
            "points": {"format": "benchmark-atlas-deployment-points", "build": build, "product": "Policy", "doc": "policy",
                       "call_model": "pcf-sm", "call_model_name": "PCF SM", "unit": "TPS", "load": 10000, "home": point,
                       "services": [{**point, "page": "ingress-gateway", "display_name": "Ingress Gateway", "kind": "service",
                                     "cores": 2.0, "per_1k": 0.2}], "without_reading": ["SM Service"]}}

    def write(name, obj):
        p = tmp_path / name
        p.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
        return p

    box = '.atlas-yours[data-yours-for="home-efficiency"]'
    msg = _add(page, "home-efficiency", write("notes.txt", "kubectl top pods"))
    assert msg.startswith("“notes.txt” is not JSON") and page.get_attribute(box, "data-yours-error") == "true"
    msg = _add(page, "home-efficiency", write("other.json", {"format": "something-else"}))
    assert "“other.json” is not a file Your deployment's Export inputs wrote: its “format” is “something-else”" in msg
    msg = _add(page, "home-efficiency", write("old.json", {**good, "points": None}))
    assert "“old.json” holds your inputs but no points" in msg
    other = {**good, "points": {**good["points"], "build": "0123456789abcdef"}}
    msg = _add(page, "home-efficiency", write("other-build.json", other))
    assert (f"“other-build.json” was exported from another build of the atlas (its “points.build” is “0123456789abcdef”, "
            f"this page's build is “{build}”)") in msg
    msg = _add(page, "home-efficiency", write("no-home.json", {**good, "points": {**good["points"], "home": None}}))
    assert "“no-home.json” has no point for the home chart" in msg
    assert page.get_attribute(box, "data-yours-shown") is None  # nothing refused was drawn, so nothing to remove
    assert not page.is_visible(box + " .atlas-yours-remove")
    msg = _add(page, "home-efficiency", write("good.json", good))
    assert "1.5 cores requested per 1K at 10,000 TPS" in msg and page.get_attribute(box, "data-yours-error") is None

    page.goto(site_url + "/services/am-service/", wait_until="load")
    msg = _add(page, "svc-am-service", write("good.json", good))
    assert ("“good.json” has no point for AM Service (“points.services” holds points for Ingress Gateway). "
            "Matched without a kubectl top reading: SM Service.") in msg, msg
    assert page.js_errors == []


def test_print_view_shows_the_result_its_notes_and_runs_not_the_form(page, site_url):
    """Printed (print media, A4's 794 px): the headline, the vendor's runs used, the service rows and the method note
    print; the pasted text, the examples, the file inputs, export and import, the downloads and buttons do not."""
    page.set_viewport_size({"width": 794, "height": 1123})
    page.goto(site_url + CALC, wait_until="load")
    page.wait_for_selector(CALC_READY, state="attached", timeout=BOOT_LIMIT_MS)
    page.click('button[data-example="policy-pcf-sm"]')
    page.wait_for_function("() => { const h = document.getElementById('deployment-headline'); "
                           "return h && h.innerText.includes('23 workload(s) read') && "
                           "!document.getElementById('atlas-calculator').hasAttribute('data-busy'); }", timeout=BOOT_LIMIT_MS)
    assert page.is_visible("#deployment-inputs") and page.is_visible("#deployment-export")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    for shown in ("#deployment-headline", "#atlas-calc-result table", "#deployment-points-note",
                  "#atlas-calc-result p.atlas-note >> text=Your site: what you paste"):
        assert page.locator(shown).first.is_visible(), shown
    # the runs used: policy-3-2-8, the run the example is built from, is named as readers know it (Policy 3.2.8)
    assert "Policy 3.2.8" in page.inner_text("#atlas-calc-result")
    assert page.locator("#deployment-inputs:visible, #deployment-objects-text:visible, #deployment-export:visible, "
                        "button[data-example]:visible, input[type=file]:visible, .atlas-downloads:visible, #calc-run:visible, "
                        ".md-header:visible, .md-sidebar:visible").count() == 0
    assert page.locator("#atlas-calculator form select:visible").count() >= 1  # the product and call model print
    assert page.evaluate("document.documentElement.scrollWidth") <= 794
    assert page.js_errors == []
