"""calculators/deployment_report.py: the page's result (headline, tables, unmatched list, points note), its inputs, its
CSV's service rows and its chart's encoding, on the small hand-written fixture (tests/fixtures/deployment/get-small.json,
top-small.txt, Policy PCF SM at 10,000 TPS; its figures are worked out by hand in tests/test_deployment_cli.py's
docstring) and on one made-up workload. Expected values are written out by hand in each test."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from calculators import deployment_report as dr

FIX = Path(__file__).parent / "fixtures" / "deployment"
SMALL = {"product": "policy", "call_model": "pcf-sm", "load": "10000", "objects": (FIX / "get-small.json").read_text(),
         "top": (FIX / "top-small.txt").read_text()}


def test_no_product_takes_the_default_products_call_model_and_load(bundle):
    # data/sources.yaml lists BSF first; its call model bsf-nbsf-rx's first run is bsf-3-1, BSF Table 3-1 row
    # 'Call Rate': 22K TPS on one site: the load the page starts with
    assert dr.defaults(bundle)["load"] == "22000"
    out = dr.compute_web(bundle, {})
    assert (out["request"]["doc"], out["request"]["call_model"], out["request"]["load"]) == ("bsf", "bsf-nbsf-rx", 22000)
    assert out["res"] is None and out["scale"] is None


def test_a_mapping_by_hand_leaves_a_workload_out(bundle):
    # {"pcf/broken": ""} leaves pcf/broken out of the comparison: of the two unmatched (pcf/broken, ?/lone-pod) one
    # stays, and the inputs say one workload was mapped by hand
    p = dict(SMALL, mapping=json.dumps({"pcf/broken": ""}))
    assert dr.summary(bundle, p)["unmatched"] == ["?/lone-pod"]
    out = dr.compute_web(bundle, p)
    assert dr.inputs_of(out, p)["mapped_by_hand"] == 1
    assert dr.inputs_of(dr.compute_web(bundle, SMALL), SMALL)["mapped_by_hand"] == 0


def test_inputs_name_the_scaling_fields_as_given(bundle):
    p = dict(SMALL, target_load="100000", target_sites="2", node_cores="32", node_mem="128")
    got = dr.inputs_of(dr.compute_web(bundle, p), p)
    assert {k: got[k] for k in ("product", "call_model", "load", "unit", "kubernetes", "target_load", "target_sites",
                                "node_cores", "node_mem")} == {
        "product": "policy", "call_model": "pcf-sm", "load": 10000.0, "unit": "TPS", "kubernetes": "1.33",
        "target_load": "100000", "target_sites": "2", "node_cores": "32", "node_mem": "128"}
    # never the pasted text
    assert "objects" not in got and "top" not in got


def test_csv_service_rows_of_the_small_fixture(bundle):
    rows = list(csv.DictReader(io.StringIO(dr.result_csv(dr.compute_web(bundle, SMALL)))))
    mine = [r for r in rows if r["kind"] == "service" and r["run"] == "yours"]
    # ingress-gateway: 3 pods, 12.75 cores requested and 4.15 used at 10,000 TPS: 1.275 and 0.415 per 1K;
    # ndbmtd: 4 pods, 6 cores requested: 0.6 per 1K
    got = {r["service"]: (r["load_per_site"], r["pods"], r["cpu_request_per_1k"], r["cpu_used_per_1k"]) for r in mine}
    assert got["ingress-gateway"] == ("10000.0", "3", "1.275", "0.415")
    assert got["ndbmtd"][:3] == ("10000.0", "4", "0.6")


def test_the_page_of_the_small_fixture(bundle):
    html = dr.result_html(dr.compute_web(bundle, SMALL))
    # the totals table comes right under its heading
    assert ('<h3>Where you stand</h3><div class="atlas-table-wrap"><table class="atlas-data" id="deployment-totals">'
            "<caption>Per 1K TPS at one site") in html
    # the unmatched Deployment pcf/broken is listed by kind and key, to be mapped by hand
    assert '<li data-workload="pcf/broken"><label>Deployment <code>pcf/broken</code> (' in html
    # the points note names the control beside the charts as that control reads (atlas/pages/yours.py: "Add my
    # deployment…")
    assert "<strong>Add my deployment…</strong> beside the chart on the home page" in html


def test_headline_counts_a_service_using_far_less_than_it_requests(bundle):
    # tests/test_deployment.py test_far_less_than_requested_against_the_vendor_ratio, pasted: 2 ingress-gateway pods of
    # 7.5 cores using 0.1 cores each at 43,000 TPS, against policy-3-2-8's ratio 23.737 / 217.5 (Tables 3-152 and
    # 3-150 row 9): 0.916 cores per pod would do, 7.5 - 0.916 >= 0.5 cores: critical, far less than requested
    obj = {"kind": "List", "items": [
        {"kind": "Deployment", "metadata": {"name": "ocpcf-occnp-ingress-gateway", "namespace": "p"},
         "spec": {"replicas": 2, "template": {"spec": {"containers": [
             {"name": "ingress-gateway", "resources": {"requests": {"cpu": "7.5"}}}]}}}}]}
    top = "NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\n" + "".join(
        f"p ocpcf-occnp-ingress-gateway-7d9c5b6f4-x{i}k1l ingress-gateway 100m 1Gi\n" for i in range(2))
    p = {"product": "policy", "call_model": "pcf-sm", "load": "43000", "objects": json.dumps(obj), "top": top}
    html = dr.result_html(dr.compute_web(bundle, p))
    assert "; 0 HPA(s) critical; 1 service(s) using far less than they request.</p>" in html
    assert 'data-service="ingress-gateway" data-resource="cpu"' in html
    assert ('<thead><tr><th>Service</th><th>Resource</th><th>Your use / request</th><th>Vendor use / request</th>'
            "<th>Your request per pod</th>") in html


def test_chart_marks_yours_and_keeps_each_panels_scales(bundle):
    spec = dr.result_chart(bundle, dr.compute_web(bundle, SMALL))
    home, services = spec["vconcat"]
    enc = home["encoding"]
    # the home chart: vendor runs as circles, yours as a larger diamond; the tooltip names the run
    assert enc["shape"]["scale"] == {"domain": ["vendor run", "yours"], "range": ["circle", "diamond"]}
    assert enc["size"] == {"condition": {"test": "datum.who === 'yours'", "value": 260}, "value": 70}
    assert enc["tooltip"][0] == {"field": "scenario", "title": "Run"}
    # the home chart colours by product, the service panels by whose point: colour, shape and size scales and
    # legends are each the panel's own
    both = {"color": "independent", "shape": "independent", "size": "independent"}
    assert spec["resolve"] == {"scale": both, "legend": both}
    # the service panels: three kinds of point, each its colour and shape, yours larger; each panel its own y scale
    inner = services["spec"]["encoding"]
    who = ["your call model's runs", "other runs", "yours"]
    assert inner["color"] == {"field": "who", "type": "nominal", "title": "Point", "scale": {"domain": who}}
    assert inner["shape"] == {"field": "who", "type": "nominal", "scale": {"domain": who,
                                                                          "range": ["circle", "square", "diamond"]}}
    assert inner["size"] == {"condition": {"test": "datum.who === 'yours'", "value": 160}, "value": 40}
    assert services["resolve"] == {"scale": {"y": "independent"}}


def test_the_small_fixtures_rows_on_the_page_and_in_the_csv(bundle):
    import re
    out = dr.compute_web(bundle, SMALL)
    html = dr.result_html(out)
    # yours per 1K at 10,000 TPS (tests/test_deployment_cli.py): 1.875 cores requested, 0.41501 used, 1.998046875 GiB
    # requested, 0.4246752... GiB used, to 3 decimals
    assert ('<tr class="atlas-yours"><th scope="row">Your deployment (matched services)</th><td>10,000</td>'
            "<td>1.875</td><td>0.415</td><td>1.998</td><td>0.425</td><td></td></tr>") in html
    # the services table: one row after another, nothing between them
    body = re.search(r'id="deployment-services">.*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    assert body.startswith('<tr data-service="') and body.count("</tr><tr data-service=") == body.count("<tr") - 1
    # the ingress-gateway HPA reads 62 % of 80 %: below target, ok
    row = next(x for x in html.split("<tr") if 'data-workload="pcf/ocpcf-occnp-ingress-gateway"' in x)
    assert '<span class="atlas-sev atlas-sev-ok" data-severity="ok">ok</span>' in row
    rows = list(csv.DictReader(io.StringIO(dr.result_csv(out))))
    # Policy 3.2.8 is a comparable run of PCF SM (tests/test_deployment.py): a total row of its own
    assert any(r["kind"] == "total" and r["run"] == "policy-3-2-8" for r in rows)
    assert {r["kind"] for r in rows} == {"total", "service", "hpa", "workload"}
    wl = next(r for r in rows if r["kind"] == "workload" and r["workload"] == "pcf/ocpcf-occnp-ingress-gateway")
    assert (wl["service"], wl["pods"]) == ("ingress-gateway", "3")


def test_every_field_the_chart_encodes_is_one_its_points_carry(bundle):
    # Vega-Lite draws nothing for a field its data lacks: the home layer's x, y and tooltip fields are keys of its
    # points (load, efficiency, scenario), the service panels' facet, axes and tooltips keys of theirs (service, load,
    # per_1k, run); both layers have titles, the spec names its schema
    spec = dr.result_chart(bundle, dr.compute_web(bundle, SMALL))
    assert spec["$schema"] == "https://vega.github.io/schema/vega-lite/v6.json"
    home, services = spec["vconcat"]
    assert home["title"] and services["title"] and services["facet"] == {"field": "service", "type": "nominal", "title": None}
    for layer, enc, keys in ((home, home["encoding"], ("x", "y", "color", "shape", "tooltip")),
                             (services, services["spec"]["encoding"], ("x", "y", "color", "shape", "tooltip"))):
        points = layer["data"]["values"]
        assert points
        fields = [enc[k]["field"] for k in keys if k != "tooltip"] + [t["field"] for t in enc["tooltip"]]
        assert (home["encoding"]["x"]["field"], home["encoding"]["y"]["field"]) == ("load", "efficiency")
        assert (services["spec"]["encoding"]["x"]["field"], services["spec"]["encoding"]["y"]["field"]) == ("load", "per_1k")
        assert all(f in points[0] for f in fields), [f for f in fields if f not in points[0]]
    assert "service" in services["data"]["values"][0]
