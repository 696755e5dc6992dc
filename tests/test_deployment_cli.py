"""The "Your deployment" calculator's command line (calculators/__main__.py ``deployment``) and what it prints
(calculators/deployment_report.py ``summary``, ``summary_text``), run in this process, and the page's report and
scaling table, on the small hand-written fixture (tests/fixtures/deployment/get-small.json, top-small.txt).

The figures are worked out by hand from the fixture, Policy PCF SM at 10,000 TPS:

* ingress-gateway (3 replicas): requested 3 x (4 + 0.25) = 12.75 cores, 3 x (6 GiB + 512 MiB) = 19.5 GiB; used (kubectl
  top, two pods) 2500m + 150m + 1.5 = 4.15 cores, 3Gi + 200Mi + 1G = 3 + 0.1953125 + 0.931322574615478515625 GiB
  = 4.126635074615478515625 GiB;
* ndbmtd (StatefulSet, 4 replicas): its CPU and memory set as limits only, taken as requests: 4 x 1.5 = 6 cores,
  4 x 128974848 B = 4 x 0.1201171875 GiB = 0.48046875 GiB; used: ndbmtd-0 100u = 0.0001 cores, 0.1201171875 GiB
  (ndbmtd-1's 12x and ndbmtd-2's missing column are refused);
* per 1K (divided by 10): requested 18.75 / 10 = 1.875 cores, 19.98046875 / 10 = 1.998046875 GiB (1.998047 to the
  command line's 6 decimals); used 4.1501 / 10 = 0.41501 cores, 4.246752262115478515625 / 10 = 0.424675 GiB;
* the ingress-gateway HPA (target 80 %, min 2, max 5): a Resource metric over the pod's two containers, so only the pod
  with both in kubectl top counts: (2.5 + 0.15) / 4.25 = 62.35 %, read 62; 62/80 = 0.775, outside the tolerance:
  ceil(0.775 x 3) = ceil(2.325) = 3 replicas, below target: ok;
* the old-style HPA on ``broken`` (targetCPUUtilizationPercentage 60): its container's CPU request (12x) is refused, so
  it sets none and the controller cannot read it;
* unmatched: ``pcf/broken`` (kubectl get) and ``?/lone-pod`` (kubectl top alone, no namespace column).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from calculators import catalogue
from calculators import deployment_report as dr
from calculators.__main__ import main as cli

FIX = Path(__file__).parent / "fixtures" / "deployment"
EX = Path(__file__).resolve().parent.parent / "docs" / "assets" / "examples" / "deployment"
SMALL = {"product": "policy", "call_model": "pcf-sm", "load": "10000", "objects": (FIX / "get-small.json").read_text(),
         "top": (FIX / "top-small.txt").read_text()}
HPA_IG = "pcf/ocpcf-occnp-ingress-gateway"
NO_REQUEST = ("the HPA cannot read this workload: container app sets no CPU request (the controller's 'missing request "
              "for cpu')")
PROBLEM_12X = ("line 6: CPU(cores): '12x' is not a Kubernetes quantity (a number with an optional suffix: 250m, 1.5, "
               "512Mi, 1Gi, 1G, 1e9)")
PROBLEM_COLUMNS = "line 7: 4 columns, expected 5 (NAMESPACE POD NAME CPU(cores) MEMORY(bytes))"


@pytest.fixture(scope="module")
def bfile(bundle, tmp_path_factory):
    f = tmp_path_factory.mktemp("deployment-cli") / "bundle.json"
    f.write_text(json.dumps(bundle))
    return str(f)


def test_summary_of_the_small_fixture_by_hand(bundle):
    s = dr.summary(bundle, SMALL)
    assert s["request"] == {"product": "policy", "call_model": "pcf-sm", "load": 10000.0, "unit": "TPS"}
    assert s["yours"] == {"cpu_request": 1.875, "mem_request": 1.998047, "cpu_used": 0.41501, "mem_used": 0.424675}
    assert s["services"]["ingress-gateway"]["pods"] == 3 and s["services"]["ndbmtd"]["pods"] == 4
    assert s["services"]["ingress-gateway"]["cpu_request"] == 1.275       # 12.75 / 10
    assert s["services"]["ingress-gateway"]["cpu_used"] == 0.415          # 4.15 / 10
    assert s["services"]["ndbmtd"]["mem_request"] == 0.048047             # 0.48046875 / 10
    assert s["hpa"][HPA_IG] == {"target": 80, "reads": 62, "desired": 3, "max_must_rise_to": None, "severity": "ok",
                                "why": None}
    assert s["hpa"]["pcf/broken"] == {"target": 60, "reads": None, "desired": None, "max_must_rise_to": None,
                                      "severity": None, "why": NO_REQUEST}
    assert s["unmatched"] == ["pcf/broken", "?/lone-pod"]
    assert PROBLEM_12X in s["problems"] and PROBLEM_COLUMNS in s["problems"]
    assert "scale" not in s


def test_summary_text_of_the_small_fixture(bundle):
    lines = dr.summary_text(dr.summary(bundle, SMALL)).splitlines()
    assert lines[0] == "policy pcf-sm at 10000 TPS at your site"
    assert lines[1] == "yours: 1.875 cores requested, 0.41501 used, 1.998047 GiB requested, 0.424675 GiB used per 1K TPS"
    assert f"  HPA {HPA_IG}: target 80 %, reads 62, desired 3, ok" in lines
    assert f"  HPA pcf/broken: target 60 %, reads None, desired None, {NO_REQUEST}" in lines
    assert "unmatched: pcf/broken, ?/lone-pod" in lines
    assert "problem: " + PROBLEM_12X in lines and "problem: " + PROBLEM_COLUMNS in lines
    assert any(x.startswith("  ingress-gateway: 3 pods, 1.275 requested, 0.415 used per 1K; KRR ") for x in lines)


def test_summary_text_names_the_max_an_hpa_must_rise_to():
    s = {"request": {"product": "p", "call_model": "c", "load": 1.5, "unit": "TPS"}, "runs": [],
         "hpa": {"ns/a": {"target": 80, "reads": 200, "desired": 5, "max_must_rise_to": 13, "severity": "critical",
                          "why": None}},
         "scale": {"yours": {"cpu_request_site": 1}, "vendor": None}}
    assert dr.summary_text(s).splitlines() == [
        "p c at 1.5 TPS at your site", "  HPA ns/a: target 80 %, reads 200, desired 5, max must rise to 13, critical",
        "scaled from yours: {'cpu_request_site': 1}", "from the vendor's runs: None"]


def test_summary_of_the_policy_example_scaled_at_its_own_load(bundle):
    # Policy 3.2.8 read back (tests/test_deployment.py): sized at its own load, 43,000 TPS on one site, it is its own
    # footprint, 2,431 cores requested per site (56.535 per 1K x 43, policy-3-2-8's own figure)
    params = {"product": "policy", "call_model": "pcf-sm", "load": "43000", "objects": (EX / "policy-pcf-sm.json").read_text(),
              "top": (EX / "policy-pcf-sm-top.txt").read_text(), "target_load": "43000"}
    s = dr.summary(bundle, params)
    assert s["scale"]["yours"]["cpu_request_site"] == pytest.approx(2431)
    assert s["scale"]["vendor"]["runs_used"] and s["scale"]["vendor"]["cpu_request_site"] > 0
    # 29 ingress-gateway pods (Table 3-150 row 9)
    assert s["services"]["ingress-gateway"]["pods"] == 29
    html = catalogue.run(bundle, {"calc": "deployment", **params})["html"]
    assert '<table class="atlas-data" id="deployment-scale">' in html
    assert "Sized for 43,000 TPS on 1 site(s) (1 x your load per site)." in html
    # yours: 2,431 cores per site and in all (one site); the vendor's sizing misses services, so it is marked partial
    assert '<th scope="row">From your deployment</th><td>2,431</td>' in html
    assert '<td>partial: at least</td></tr></tbody>' in html


def test_command_line_prints_the_summary(bundle, bfile, capsys):
    argv = ["--bundle", bfile, "deployment", "--product", "policy", "--call-model", "pcf-sm", "--load", "10000",
            "--get", str(FIX / "get-small.json"), "--top", str(FIX / "top-small.txt")]
    assert cli(argv + ["--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["yours"] == {"cpu_request": 1.875, "mem_request": 1.998047, "cpu_used": 0.41501, "mem_used": 0.424675}
    assert got["hpa"][HPA_IG]["reads"] == 62 and got["unmatched"] == ["pcf/broken", "?/lone-pod"]
    assert cli(argv) == 0  # --format table, the default
    out = capsys.readouterr().out
    assert out.splitlines()[1] == ("yours: 1.875 cores requested, 0.41501 used, 1.998047 GiB requested, 0.424675 GiB used "
                                   "per 1K TPS")
    assert cli(argv + ["--format", "csv"]) == 0
    csv_lines = capsys.readouterr().out.splitlines()
    assert csv_lines[0] == ",".join(dr.CSV_COLS)
    assert csv_lines[1] == "total,,,yours,10000.0,,1.875,0.41501,1.998047,0.424675,,,,,,"


def test_command_line_passes_sites_and_the_target_load(bundle, bfile, capsys):
    # 100,000 TPS over 2 sites is 50,000 per site, 5 x your load: ingress-gateway's app used 4 cores, so 20 cores at its
    # HPA target of 80 % ask 25 cores, ceil(25 / 4) = 7 pods x (4 + 0.25) = 29.75 cores, plus ndbmtd's 6 (a database
    # service, not scaled by load) = 35.75 cores per site. On 1 site (no --sites), 10 x: 50 cores, ceil(12.5) = 13 pods x
    # 4.25 = 55.25 + 6 = 61.25
    argv = ["--bundle", bfile, "deployment", "--product", "policy", "--call-model", "pcf-sm", "--load", "10000",
            "--get", str(FIX / "get-small.json"), "--top", str(FIX / "top-small.txt"), "--target-load", "100000",
            "--format", "json"]
    assert cli(argv + ["--sites", "2"]) == 0
    two = json.loads(capsys.readouterr().out)["scale"]["yours"]
    assert two["cpu_request_site"] == 35.75
    assert cli(argv) == 0
    assert json.loads(capsys.readouterr().out)["scale"]["yours"]["cpu_request_site"] == 61.25
    assert dr.summary(bundle, dict(SMALL, target_load="100000", target_sites="2"))["scale"]["yours"] == two


def test_command_line_reads_yaml_as_the_page_does(bundle, bfile, capsys, tmp_path):
    yaml = pytest.importorskip("yaml")
    objects = json.loads((FIX / "get-small.json").read_text())
    f = tmp_path / "objects.yaml"
    f.write_text(yaml.safe_dump(objects))
    argv = ["--bundle", bfile, "deployment", "--product", "policy", "--call-model", "pcf-sm", "--load", "10000",
            "--top", str(FIX / "top-small.txt"), "--format", "json"]
    assert cli(argv + ["--get", str(f)]) == 0
    from_yaml = json.loads(capsys.readouterr().out)
    # a YAML stream of the items, one document each, is one list of objects
    g = tmp_path / "stream.yaml"
    g.write_text(yaml.safe_dump_all(objects["items"]))
    assert cli(argv + ["--get", str(g)]) == 0
    from_stream = json.loads(capsys.readouterr().out)
    assert from_yaml["yours"] == from_stream["yours"] == \
        {"cpu_request": 1.875, "mem_request": 1.998047, "cpu_used": 0.41501, "mem_used": 0.424675}
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1, 2\nb: 3\n")
    assert cli(argv + ["--get", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("error: Workloads: the YAML could not be read: ")
    assert cli(argv + ["--get", str(tmp_path / "missing.json")]) == 2
    assert capsys.readouterr().err.startswith(f"error: Workloads: cannot read {tmp_path / 'missing.json'}: ")


def test_defaults_are_the_first_products_first_call_model_and_nothing_pasted(bundle):
    d = dr.defaults(bundle)
    # data/sources.yaml lists BSF first; its call model "BSF nBSF + Rx" (Table 3-21)
    assert d["product"] == "bsf" and d["call_model"] == "bsf-nbsf-rx"
    assert d["kubernetes"] == "1.33"
    assert {k: v for k, v in d.items() if k not in ("product", "call_model", "load", "kubernetes")} == dict.fromkeys(
        ("objects", "top", "mapping", "target_load", "target_sites", "redundancy", "node_cores", "node_mem"), "")
    assert float(d["load"]) > 0


def test_report_totals_and_sources(bundle):
    rep = catalogue.report(bundle, {"calc": "deployment", **SMALL})
    assert rep["ok"], rep
    sheets = {s["name"]: s for s in rep["report"]["sheets"]}
    assert [(c["header"], c["unit"]) for c in sheets["Totals"]["columns"]] == [
        ("Run", None), ("Load per site", None), ("CPU requested per 1K", "cores"), ("CPU used per 1K", "cores")]
    assert sheets["Totals"]["rows"][0] == ["yours", "10000.0", "1.875", "0.41501"]
    # every source row names the Policy guide by its title (data/sources.yaml)
    title = 'Oracle Communications Cloud Native Core, Converged Policy Benchmarking Guide, chapter 3 "Benchmarking Policy Call Models"'
    assert sheets["Sources"]["rows"] and {r[1] for r in sheets["Sources"]["rows"]} == {title}
    warnings = sheets["Warnings"]["rows"]
    assert ["unmatched", "pcf/broken: matched no service"] in warnings
    assert ["input problem", PROBLEM_12X] in warnings


def test_over_table_notes_what_the_other_kubernetes_version_does(bundle):
    # 5 pods at 880m of a 1-core request: 88 % against 80 %. v1.33 holds still; v1.32 scales to 6
    # (tests/test_deployment.py, test_hpa_88_against_80_as_the_controller_decides): the note names the other version
    obj = {"kind": "List", "items": [
        {"kind": "Deployment", "metadata": {"name": "ocpcf-pcf-smservice", "namespace": "p"},
         "spec": {"replicas": 5, "template": {"spec": {"containers": [{"name": "sm", "resources": {"requests": {"cpu": "1"}}}]}}}},
        {"kind": "HorizontalPodAutoscaler", "metadata": {"name": "sm", "namespace": "p"},
         "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "ocpcf-pcf-smservice"}, "minReplicas": 2,
                  "maxReplicas": 20, "metrics": [{"type": "Resource", "resource": {
                      "name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]}}]}
    top = "NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\n" + "".join(
        f"p ocpcf-pcf-smservice-5c7d8f9b6-x{i}b2c sm 880m 1Gi\n" for i in range(5))
    out = catalogue.run(bundle, {"calc": "deployment", "product": "policy", "call_model": "pcf-sm", "load": "10000",
                                 "objects": json.dumps(obj), "top": top, "kubernetes": "1.33"})
    row = next(x for x in out["html"].split("<tr") if 'data-workload="p/ocpcf-pcf-smservice"' in x)
    note = row.rsplit("<td>", 1)[1]
    assert "6 replicas" in note and "1.32" in note
