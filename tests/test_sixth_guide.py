"""A sixth guide is its data/<doc>/ files, one data/sources.yaml entry and, for metrics of its own, one guide module;
nothing else.

tests/fixtures/sixth_guide/ holds a made-up guide shaped like BSF: id ``xyz``, short name XWF, two scenarios on one
site (xyz-1-1 at 10K TPS, xyz-1-2 at 20K TPS), each with a resource allocation table (1-1, 1-3) and a utilization
table (1-2, 1-4), a table of its own metrics (1-5: widget throughput in TPS and widget CPU per run), one erratum (xyz-E001:
Table 1-3 prints Widget Store's memory limit as '16G' under a (Gi) header), its services, and the seed text all of them
cite (999_0123456789abcdef.txt); and its guide module (guides/xyz.py: the bundle key ``widget_runs`` and its product
page's scenarios table from Table 1-5, atlas.guides). The variant build (conftest.variant_site) copies data/, adds the
folder and the sources.yaml entry (source.yaml), puts guides/ on ATLAS_GUIDES and builds the site once, with the
repository's code and schemas untouched; every page, download and calculator of that build must carry the new guide.
The numbers asserted are the fixture's.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from html import unescape
from pathlib import Path

import pytest
import yaml

from conftest import DOC_IDS, SIXTH_GUIDE, bundle_file, chart_spec

FIXTURE = SIXTH_GUIDE
TITLE = "Example Widget Function Benchmarking Guide (test fixture, not a published guide)"


@pytest.fixture(scope="module")
def site(variant_site) -> Path:
    """The variant build (conftest.variant_site): data/ plus the fixture guide, its folder and its sources.yaml entry,
    with the repository's code and schemas untouched (the build's other variations are in BSF's data and the site's
    address, which this guide's pages do not use)."""
    return variant_site


def _page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def _text(cell: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", cell)).strip()


def _table(html: str, tid: str) -> list[dict]:
    """The rows of the rendered table ``tid`` as {header: cell text}."""
    m = re.search(rf'<table class="atlas-data" data-atlas-table="{re.escape(tid)}">(.*?)</table>', html, re.S)
    assert m, f"no table {tid}"
    head = [_text(c) for c in re.findall(r"<th[^>]*>(.*?)</th>", m.group(1), re.S)]
    body = m.group(1).split("<tbody>", 1)[1]
    return [dict(zip(head, (_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S))))
            for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def _csv(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_the_fixture_quotes_its_seed():
    """The fixture is honest about its own seed: the erratum's raw text is on the line it cites, and every data row's
    label is on its seed line (as curation/provenance.py checks the real guides)."""
    from curation.provenance import quote_problems
    seed = (FIXTURE / "999_0123456789abcdef.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    errata = yaml.safe_load((FIXTURE / "xyz" / "errata.yaml").read_text(encoding="utf-8"))
    assert quote_problems(errata, {"xyz": seed}) == []
    for kind in ("resources", "utilization", "measurements"):
        for r in _csv(FIXTURE / "xyz" / f"{kind}.csv"):
            assert f"| {r['row_label']} |" in seed[int(r["line"]) - 1], (kind, r["line"])
            if kind == "measurements":
                assert f"| {r['raw']} |" in seed[int(r["line"]) - 1], (kind, r["line"], r["raw"])


def test_product_page_lists_its_scenarios(site):
    html = _page(site, "products/xyz")
    assert "XWF benchmarks" in html and "A guide made up for the tests" in html
    for sid, title in (("xyz-1-1", "10K TPS, one site"), ("xyz-1-2", "20K TPS, one site")):
        assert f'href="{sid}/"' in html and title in html, sid
        assert (site / "products" / "xyz" / sid / "index.html").is_file()
    nav = _page(site, "products/bsf")
    assert 'href="../xyz/"' in nav and "XWF" in nav


def test_its_guide_module_puts_its_own_metrics_on_its_product_page(site):
    """The guide module's scenarios table (fixtures/sixth_guide/guides/xyz.py) replaces the resource-request table:
    Table 1-5 prints 5,200 TPS of widgets at 38 % widget CPU for 10K TPS (row 1) and 10,350 at 61.5 % for 20K TPS
    (row 2), each figure with its table and row; the raw text '5,200' is the value 5,200 and so not repeated."""
    html = _page(site, "products/xyz")
    rows = _table(html, "scenarios")
    assert [(r["Run"], r["Widget throughput (TPS)"], r["Widget CPU"]) for r in rows] == [
        ("10K TPS, one site", "5,200", "38 %"), ("20K TPS, one site", "10,350", "61.5 %")]
    assert '<span title="Table 1-5, row 2">10,350</span>' in html
    assert "CPU cores per 1K" not in html.split('data-atlas-table="scenarios"')[1].split("</table>")[0]
    table = _page(site, "products/xyz")
    assert 'data-atlas-table="1-5"' in table  # the loose table itself (no scenario) on the product page


def test_scenario_pages_show_its_values(site):
    """Table 1-1 (scenario 1.1): Widget Gateway 3 replicas, CPU 2/4 cores, memory 2/4 GiB; Table 1-2: Widget Store
    CPU 12.75 %, memory 63.5 %. Table 1-3 (scenario 1.2): Widget Gateway 7 replicas; Widget Store memory limit 16 GiB,
    printed '16G', corrected through erratum xyz-E001, which the page shows."""
    one = _page(site, "products/xyz/xyz-1-1")
    gw = next(r for r in _table(one, "1-1") if r["Service"] == "Widget Gateway")
    assert (gw["Replicas"], gw["CPU request (cores)"], gw["CPU limit (cores)"], gw["Memory request (GiB)"],
            gw["Memory limit (GiB)"]) == ("3", "2", "4", "2", "4")
    store = next(r for r in _table(one, "1-2") if r["Service"] == "Widget Store")
    assert (store["Site1 CPU"], store["Site1 Memory"]) == ("12.75%", "63.5%")
    assert "seed lines 8–13" in one
    two = _page(site, "products/xyz/xyz-1-2")
    rows = {r["Service"]: r for r in _table(two, "1-3")}
    assert rows["Widget Gateway"]["Replicas"] == "7"
    assert rows["Widget Store"]["Memory limit (GiB)"] == "16 16G" and rows["Widget Store"]["Status"].startswith("corrected")
    assert 'id="xyz-E001"' in two and "prints its memory limit as &#x27;16G&#x27;" in two
    gw = next(r for r in _table(two, "1-4") if r["Service"] == "Widget Gateway")
    assert (gw["Site1 CPU"], gw["Site1 Memory"]) == ("47.25%", "23.5%")


def test_home_chart_has_its_cores_per_1k(site):
    """Cores requested per 1K TPS: 1.1 is (3 x 2 + 2 x 1.5) cores / 10K TPS = 0.9, 1.2 is (7 x 2 + 2 x 1.5) / 20K = 0.85."""
    points = {v["id"]: v for v in chart_spec(site, ".", "home-efficiency")["data"]["values"]}
    for sid, eff in (("xyz-1-1", 0.9), ("xyz-1-2", 0.85)):
        assert sid in points and points[sid]["efficiency"] == eff, sid


def test_per_table_downloads_and_checksums(site):
    root = site / "downloads"
    sums = dict(reversed(line.split("  ", 1)) for line in (root / "SHA256SUMS").read_text().splitlines())
    for tid, rows in (("1-1", 2), ("1-2", 4), ("1-3", 2), ("1-4", 4)):
        p = root / "tables" / "xyz" / f"{tid}.csv"
        assert len(_csv(p)) == rows, tid
        assert sums[f"tables/xyz/{tid}.csv"] == hashlib.sha256(p.read_bytes()).hexdigest(), tid
    store = next(r for r in _csv(root / "tables" / "xyz" / "1-3.csv") if r["service"] == "Widget Store")
    assert (store["mem_limit_gib"], store["raw_mem_limit"], store["status"]) == ("16", "16G", "corrected")
    page = _page(site, "products/xyz/xyz-1-2")
    assert 'href="../../../downloads/tables/xyz/1-3.csv" download data-rows="2"' in page


def test_datasets_and_datapackage_carry_it(site):
    root = site / "downloads"
    pkg = json.loads((root / "datapackage.json").read_text(encoding="utf-8"))
    assert TITLE in {s["title"] for s in pkg["sources"]}
    res = {r["name"]: r for r in pkg["resources"]}
    for name in ("resources", "utilization", "scenarios", "errata", "tables"):
        assert TITLE in {s["title"] for s in res[name]["sources"]}, name
        assert res[name]["hash"] == "sha256:" + hashlib.sha256((root / res[name]["path"]).read_bytes()).hexdigest()
    doc = next(f for f in res["resources"]["schema"]["fields"] if f["name"] == "doc")
    assert doc["constraints"]["enum"] == DOC_IDS + ["xyz"]  # sources.yaml's order, the new entry last
    rows = [r for r in _csv(root / "csv" / "resources.csv") if r["doc"] == "xyz"]
    assert sorted((r["table_id"], r["service"], r["replicas"]) for r in rows) == [
        ("1-1", "Widget Gateway", "3"), ("1-1", "Widget Store", "2"), ("1-3", "Widget Gateway", "7"), ("1-3", "Widget Store", "2")]
    scen = [r for r in _csv(root / "csv" / "scenarios.csv") if r["doc"] == "xyz"]
    assert [(r["scenario"], r["load_total"]) for r in scen] == [("xyz-1-1", "10000"), ("xyz-1-2", "20000")]
    assert [e["erratum"] for e in json.loads((root / "json" / "errata.json").read_text()) if e["doc"] == "xyz"] == ["xyz-E001"]
    assert "<code>xyz</code>" in _page(site, "data/dictionary")
    coverage = _page(site, "data/coverage")
    assert 'id="coverage-xyz"' in coverage and "XWF: 5 tables" in coverage
    assert 'href="../../products/xyz/xyz-1-2/#xyz-E001">xyz-E001</a>' in _page(site, "data/errata")


def test_footprint_calculator_lists_its_scenarios(site):
    """The footprint page's scenario list and the bundle its page loads both carry 1.1 and 1.2 with their loads."""
    html = _page(site, "calculators/footprint")
    select = re.search(r'<select name="scenario" id="calc-scenario"[^>]*>(.*?)</select>', html, re.S).group(1)
    for sid, load, label in (("xyz-1-1", "10000", "XWF 1.1: 10K TPS, one site"), ("xyz-1-2", "20000", "XWF 1.2: 20K TPS, one site")):
        m = re.search(rf'<option value="{sid}"([^>]*)>([^<]*)', select)
        assert m and f'data-load="{load}"' in m.group(1) and m.group(2).strip() == label, sid
    bundle = json.loads((site / "assets" / "data" / bundle_file(site, "footprint", "json")).read_text(encoding="utf-8"))
    scen = {s["id"]: s for s in bundle["scenarios"] if s["doc"] == "xyz"}
    assert {k: (s["load_per_site"], s["load_unit"]) for k, s in scen.items()} == {"xyz-1-1": (10000, "TPS"), "xyz-1-2": (20000, "TPS")}
    gw = next(r for r in bundle["resources"] if r["scenario"] == "xyz-1-2" and r["service"] == "Widget Gateway")
    assert (gw["replicas"], gw["cpu_request_cores"], gw["mem_limit_gib"]) == (7, 2, 4)
    compare = _page(site, "tools/compare")
    assert '<optgroup label="XWF"><option value="xyz-1-1">XWF 1.1: 10K TPS, one site</option>' in compare
