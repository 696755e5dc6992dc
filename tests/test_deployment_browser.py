"""The "Your deployment" page in Debian's Chromium (Pyodide): an example loaded and its result, YAML read by js-yaml,
kubectl output pasted, an unmatched workload mapped by hand, inputs exported and imported, and nothing of the reader's
in the address. The ``page`` fixture fails a test on any request outside 127.0.0.1 (offline); every wait is for a state
of the page, with the boot limit for anything that waits for Python."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import BOOT_LIMIT_MS, CALC_READY, ROOT

pytestmark = pytest.mark.browser

EX = ROOT / "docs" / "assets" / "examples" / "deployment"
URL = "/calculators/deployment/"


def ready(page) -> None:
    page.wait_for_selector(CALC_READY, state="attached", timeout=BOOT_LIMIT_MS)
    assert page.get_attribute("#atlas-calculator", "data-state") == "ready", page.inner_text("#atlas-calc-status")


def headline_has(page, text: str) -> str:
    page.wait_for_function("t => { const h = document.getElementById('deployment-headline'); "
                           "const c = document.getElementById('atlas-calculator'); "
                           "return h && h.innerText.includes(t) && !c.hasAttribute('data-busy'); }", arg=text,
                           timeout=BOOT_LIMIT_MS)
    return page.inner_text("#deployment-headline")


def test_examples_json_and_yaml(page, site_url):
    """The Policy example (Policy 3.2.8's own tables) gives back that run's 56.535 cores per 1K (2431 cores / 43K TPS);
    the BSF example, -o yaml through js-yaml, gives back BSF 3.3's 12.124 (763.8 / 63K, Tables 3-25 and 3-26)."""
    page.goto(site_url + URL, wait_until="load")
    ready(page)
    page.click('button[data-example="policy-pcf-sm"]')
    h = headline_has(page, "23 workload(s) read")
    assert "56.535 cores requested" in h and "0 unmatched" in h
    assert page.locator('#deployment-over tr[data-workload="ocpcf/ocpcf-oc-binding"]').count() == 1
    page.click('button[data-example="bsf-3-3"]')
    h = headline_has(page, "BSF")
    assert "12.124 cores requested" in h
    # nothing pasted is in the address or the permalink
    for where in (page.url, page.get_attribute("#calc-permalink", "href")):
        assert "objects" not in where and "top=" not in where and "mapping" not in where and "ocbsf" not in where
    assert page.js_errors == []


def test_paste_map_export_import(page, site_url, tmp_path):
    page.goto(site_url + URL + "?product=policy&call_model=pcf-sm&load=10000", wait_until="load")
    ready(page)
    top = ("NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\n"
           "pcf ocpcf-occnp-ingress-gateway-7d9c5b6f4-x2k1l ingress-gateway 1500m 1Gi\n"
           "pcf my-log-shipper-x7k2p app 10m 64Mi\n")
    obj = {"kind": "List", "items": [{"kind": "Deployment", "metadata": {"name": "ocpcf-occnp-ingress-gateway", "namespace": "pcf"},
                                      "spec": {"replicas": 1, "template": {"spec": {"containers": [
                                          {"name": "ingress-gateway", "resources": {"requests": {"cpu": "4", "memory": "6Gi"}}}]}}}}]}
    page.fill("#deployment-objects-text", json.dumps(obj))
    page.fill("#calc-top", top)
    h = headline_has(page, "1 unmatched")
    # 4 cores requested / 10K TPS = 0.4 per 1K (ingress-gateway only: the shipper is unmatched)
    assert "0.4 cores requested" in h
    page.select_option('select[data-map-key="pcf/my-log-shipper"]', "perf-info")
    h = headline_has(page, "0 unmatched")
    with page.expect_download() as d:
        page.click("#deployment-export")
    saved = json.loads(Path(d.value.path()).read_text(encoding="utf-8"))
    assert saved["format"] == "benchmark-atlas-deployment-inputs"
    assert json.loads(saved["inputs"]["mapping"]) == {"pcf/my-log-shipper": "perf-info"}
    assert "my-log-shipper" not in page.url
    # a fresh page: import the file, the same answer
    f = tmp_path / "inputs.json"
    f.write_text(json.dumps(saved), encoding="utf-8")
    page.goto(site_url + URL, wait_until="load")
    ready(page)
    page.set_input_files("#deployment-import", str(f))
    assert headline_has(page, "0 unmatched") == h
    assert page.js_errors == []


def test_bad_yaml_is_named(page, site_url):
    page.goto(site_url + URL + "?product=policy&call_model=pcf-sm&load=10000", wait_until="load")
    ready(page)
    page.fill("#deployment-objects-text", "items:\n  - kind: Deployment\n   metadata: {name: x")
    page.wait_for_selector("#atlas-calc-message:not([hidden])", timeout=BOOT_LIMIT_MS)
    assert page.inner_text("#atlas-calc-message").startswith("Workloads: the YAML could not be read")
