"""The "Your deployment" calculator (calculators/deployment.py, deployment_report.py): matching, where you stand beside
the vendor's comparable runs, HPAs over target, use far below request, scaling your own, page and command line agreeing.

Expected values are the guides' printed figures (table and row named) or worked out by hand in the comments. The two
examples (docs/assets/examples/deployment/, tools/make_deployment_examples.py) are built from Policy section 3.2.8 and
BSF section 3.3, so a reading of either must give back its run's own per-1K figures."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from calculators import catalogue
from calculators import deployment as dp
from calculators import deployment_report as dr

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "docs" / "assets" / "examples" / "deployment"
FIX = Path(__file__).parent / "fixtures" / "deployment"


def _policy_example(bundle):
    return dp.compute(bundle, doc="policy", call_model="pcf-sm", load=43000, objects=(EX / "policy-pcf-sm.json").read_text(),
                      top=(EX / "policy-pcf-sm-top.txt").read_text())


@pytest.fixture(scope="module")
def policy_once(bundle):
    return _policy_example(bundle)


@pytest.fixture
def policy(request, bundle):
    """The Policy example (Policy 3.2.8 as kubectl prints it) read, once per test module; but read again for every test
    during mutmut's statistics run (MUTANT_UNDER_TEST=stats, tools/mutation_sample.py): mutmut credits a function to
    the tests during which it was called, so a result shared by the module would be credited to its first test alone,
    and a mutant of deployment.py caught only by a later test (the HPAs, the home chart point) would be graded
    survived."""
    if os.environ.get("MUTANT_UNDER_TEST") != "stats":
        return request.getfixturevalue("policy_once")
    return _policy_example(bundle)


def _svc(res, name):
    return next(s for s in res["services"] if s["service"] == name)


def test_examples_are_what_the_script_writes(bundle):
    sys.path.insert(0, str(ROOT / "tools"))
    import make_deployment_examples as mk
    for name, text in mk.files(bundle).items():
        assert (EX / name).read_text() == text, f"{name}: run tools/make_deployment_examples.py"


def test_matching_through_the_service_pages_registry(bundle):
    names = dp.registry(bundle, "policy")
    # a name the Policy guide prints (services.yaml alias), a release prefix dropped word by word, a container name
    assert dp.match_name("ocpcf-occnp-ingress-gateway", names)["service"] == "ingress-gateway"
    assert dp.match_name("myrel-occnp-ingress-gateway", names)["service"] == "ingress-gateway"
    assert dp.match_name("prod-pcf-smservice", names)["service"] == "sm-service"
    assert dp.match_name("my-log-shipper", names) is None
    # pod names: ReplicaSet and pod hashes, a StatefulSet's ordinal
    assert dp.workload_of_pod("ocpcf-occnp-ingress-gateway-7d9c5b-x2k1l") == "ocpcf-occnp-ingress-gateway"
    assert dp.match_name(dp.workload_of_pod("ocpcf-occnp-ingress-gateway-7d9c5b-x2k1l"), names)["service"] == "ingress-gateway"
    assert dp.workload_of_pod("ndbmtd-3") == "ndbmtd"
    # a word is not a hash (Kubernetes' generated names have no vowels): only the 5-character suffix goes
    assert dp.workload_of_pod("my-log-shipper-x7k2p") == "my-log-shipper"
    # BSF's names: "Ingress Gateway" folds to ingressgateway
    assert dp.match_name("ocbsf-ingress-gateway", dp.registry(bundle, "bsf"))["service"] == "Ingress Gateway"


def test_top_alone_and_unmatched_mapped_by_hand(bundle):
    top = ("POD NAME CPU(cores) MEMORY(bytes)\n"
           "ocpcf-occnp-ingress-gateway-7d9c5b-x2k1l ingress-gateway 500m 1Gi\n"
           "ocpcf-occnp-ingress-gateway-7d9c5b-p9q8r ingress-gateway 1500m 1Gi\n"
           "ocpcf-occnp-ingress-gateway-7d9c5b-p9q8r istio-proxy 100m 128Mi\n"
           "my-log-shipper-x7k2p app 10m 64Mi\n")
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, top=top)
    ig = _svc(res, "ingress-gateway")
    # 2 pods seen; used 0.5 + 1.5 + 0.1 = 2.1 cores -> 2.1 / 10 = 0.21 per 1K; no requests known from top alone
    assert ig["pods"] == 2 and ig["cpu_used"] == Fraction(21, 10) and ig["per_1k"]["cpu_used"] == Fraction(21, 100)
    assert ig["cpu_request"] is None
    assert [w["key"] for w in res["unmatched"]] == ["?/my-log-shipper"]
    mapped = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, top=top,
                        mapping=json.dumps({"?/my-log-shipper": "perf-info"}))
    assert mapped["unmatched"] == [] and _svc(mapped, "perf-info")["cpu_used"] == Fraction(1, 100)
    left = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, top=top, mapping={"?/my-log-shipper": ""})
    assert left["unmatched"] == [] and [w["key"] for w in left["left_out"]] == ["?/my-log-shipper"]
    with pytest.raises(dp.DeploymentError, match="Mapping: \\?/my-log-shipper is mapped to 'nope'"):
        dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, top=top, mapping={"?/my-log-shipper": "nope"})


def test_policy_example_reads_back_its_run(policy, bundle):
    r = policy
    assert r["unmatched"] == [] and r["problems"] == [] and r["top_unplaced"] == []
    ig = _svc(r, "ingress-gateway")
    # Table 3-150 row 9: 29 replicas x (5 cores app + 2.5 cores istio-proxy) = 217.5 cores; / 43K TPS = 5.05814 per 1K
    assert ig["pods"] == 29 and ig["cpu_request"] == Fraction(435, 2)
    assert ig["per_1k"]["cpu_request"] == Fraction(435, 2) / 43
    # Table 3-152 row 9: 23.737 cores used at site1 (the app container; the guide prints no sidecar use)
    assert ig["cpu_used"] == Fraction("23.737")
    # memory requested: 29 x (6 + 2) GiB = 232 GiB
    assert ig["mem_request"] == 232
    # every comparable run is a PCF SM run of the Policy guide, nearest 43K first: 3.2.8 itself (43K), then 3.2.10 (41K)
    assert [x["id"] for x in r["runs"]][:2] == ["policy-3-2-8", "policy-3-2-10"]
    near = ig["vendor"][0]
    assert near["run"] == "policy-3-2-8" and near["cpu_request"] == ig["per_1k"]["cpu_request"]
    # the total used: Tables 3-152 and 3-153 summed by hand, PerfInfo (row 19, 0.481) left out: no replica count printed
    printed = ["0.1", "20.899", "7.875", "3.362", "0.004", "2.902", "0.582", "13.399", "23.737", "1.493", "0.008", "6.971",
               "0.01", "0.061", "44.964", "34.096", "0.002", "96.699", "1.579", "52.806", "0.013", "53.643", "2.729"]
    assert r["totals"]["yours"]["cpu_used"] == sum(Fraction(x) for x in printed) == Fraction("367.934")


def test_policy_example_hpas(policy):
    hpa = {x["key"]: x for x in policy["over_target"]}
    b = hpa["ocpcf/ocpcf-bulwark"]
    # bulwark: 15 pods x 8 cores (Table 3-150 row 2), 20.899 cores used (Table 3-152 row 2): 20.899 / 120 = 17.4158 %,
    # read 17 % against 60 % (Table 3-106 row 3) -> 17/60 = 0.2833 -> ceil(0.2833 x 15) = ceil(4.25) = 5 (min 2,
    # Table 3-104 row 25: 2-19): the HPA would scale in, severity ok
    assert b["target"] == 60 and b["view"]["hpa_reads"] == 17 and b["view"]["desired"] == 5 and b["view"]["severity"] == "ok"
    bd = hpa["ocpcf/ocpcf-oc-binding"]
    # binding: 11 replicas (Table 3-150 row 3) above its max of 3 (Table 3-104 row 22): the controller goes to the max
    assert bd["view"]["desired"] == 3 and bd["view"]["reason"] == "current above max"
    ig = hpa["ocpcf/ocpcf-occnp-ingress-gateway"]
    # ingress-gateway: a ContainerResource metric on its app container (the istio-proxy's use is not printed, so not in
    # the top text): 23.737 cores of 29 x 5 (Tables 3-152 row 9, 3-150 row 9) = 16.37 %, read 16 against 80 % (Table
    # 3-106 row 7); 29 replicas are above its max of 27 (Table 3-104 row 6): the controller goes to 27
    assert (ig["view"]["hpa_reads"], ig["view"]["desired"], ig["view"]["reason"]) == (16, 27, "current above max")


def _hpa_case(cores_each: str, pods: int = 5, max_replicas: int = 20, request: str = "1", container_request=True) -> dict:
    res = {"requests": {"cpu": request}} if container_request else {}
    obj = {"kind": "List", "items": [
        {"kind": "Deployment", "metadata": {"name": "ocpcf-pcf-smservice", "namespace": "p"},
         "spec": {"replicas": pods, "template": {"spec": {"containers": [{"name": "sm", "resources": res}]}}}},
        {"kind": "HorizontalPodAutoscaler", "metadata": {"name": "sm", "namespace": "p"},
         "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "ocpcf-pcf-smservice"}, "minReplicas": 2,
                  "maxReplicas": max_replicas, "metrics": [{"type": "Resource", "resource": {
                      "name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]}}]}
    top = "NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\n" + "".join(
        f"p ocpcf-pcf-smservice-5c7d8f9b6-x{i}b2c sm {cores_each} 1Gi\n" for i in range(pods))
    return {"objects": json.dumps(obj), "top": top}


@pytest.mark.parametrize("kubernetes,desired,severity", [("1.33", 5, "warning"), ("1.32", 6, "critical")])
def test_hpa_88_against_80_as_the_controller_decides(bundle, kubernetes, desired, severity):
    # 5 pods at 880m of a 1-core request: 88 % against 80 %, 88/80 = 1.1 in float64. v1.33: 1.1 <= 1.0 + 0.1, holds
    # still (warning); v1.32: |1 - 1.1| = 0.10000000000000009 > 0.1, scales to ceil(5 x 1.1) = 6 (critical)
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, kubernetes=kubernetes, **_hpa_case("880m"))
    v = res["over_target"][0]["view"]
    assert (v["hpa_reads"], v["desired"], v["severity"]) == (88, desired, severity)


def test_hpa_max_must_rise_and_missing_request(bundle):
    # 5 pods at 2 cores of 1 requested: 200 % against 80 % -> 2.5 x 5 = 12.5 -> 13, above its max of 5: must rise to 13
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, **_hpa_case("2", max_replicas=5))
    v = res["over_target"][0]["view"]
    assert (v["desired"], v["max_must_rise_to"], v["severity"]) == (5, 13, "critical")
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, **_hpa_case("2", container_request=False))
    x = res["over_target"][0]
    assert x["view"] is None and "sets no CPU request" in x["why"]


@pytest.mark.parametrize("current,recommended,resource,sev", [
    # KRR's thresholds (robusta_krr/core/models/severity.py): CPU diff >= 0.5 critical, >= 0.25 warning (0.26 here), >= 0.1 ok
    (1, Fraction(1, 2), "cpu", "critical"), (1, Fraction(74, 100), "cpu", "warning"), (1, Fraction(85, 100), "cpu", "ok"),
    (1, Fraction(95, 100), "cpu", "good"), (None, 1, "cpu", "warning"), (None, None, "cpu", "good"),
    # memory in GiB, thresholds in MiB: 1 - 0.5 GiB = 512 MiB >= 500 critical; 1 - 0.75 = 256 MiB warning; 1 - 0.9 = 102.4 ok
    (1, Fraction(1, 2), "memory", "critical"), (1, Fraction(3, 4), "memory", "warning"), (1, Fraction(9, 10), "memory", "ok"),
    (1, Fraction(95, 100), "memory", "good"),
])
def test_krr_severity(current, recommended, resource, sev):
    assert dp.krr_severity(current, recommended, resource) == sev


def test_far_less_than_requested_against_the_vendor_ratio(bundle):
    # ingress-gateway in policy-3-2-8 (the run nearest 43K): used 23.737 of 29 x 7.5 = 217.5 requested (Tables 3-152
    # row 9, 3-150 row 9): ratio 0.109136. Yours: 2 pods of 7.5 cores using 0.2 cores in all: 0.1 per pod; at the
    # vendor's ratio that asks 0.1 / 0.109136 = 0.916 cores per pod; 7.5 - 0.916 = 6.58 >= 0.5: critical, far less
    runs_ = dp.comparable_runs(bundle, "policy", "pcf-sm", 43000)
    mine = {"cpu_request": Fraction(15), "cpu_used": Fraction(1, 5), "mem_request": None, "mem_used": None}
    u = dp.under_use("ingress-gateway", mine, 2, runs_)
    assert u["run"] == "policy-3-2-8"
    c = u["cpu"]
    assert c["ratio_vendor"] == Fraction("23.737") / Fraction("217.5")
    assert c["recommended"] == Fraction(1, 10) / (Fraction("23.737") / Fraction("217.5"))
    assert c["severity"] == "critical" and c["far_less"]
    assert u["memory"] is None


def test_scale_your_own_at_your_own_load_is_your_deployment(policy, bundle):
    # sized at its own load on one site, your deployment is its own footprint: 2431 cores requested per site (56.535 per
    # 1K x 43), as the vendor's run policy-3-2-8 requests at one site (runs.requested_cpu, the home chart's count)
    sc = dp.scale_own(bundle, policy, 43000)
    assert sc["yours"]["totals"]["site"]["before"]["cpu_request"] == pytest.approx(2431)
    assert sc["yours"]["scale_factor"] == 1
    assert sc["vendor"]["evidence"]["call_model"] == "pcf-sm"


def test_bad_input_names_its_field(bundle):
    for params, field in (({"load": "0"}, "load"), ({"load": "x"}, "load"), ({"product": "nope"}, "product"),
                          ({"call_model": "nope"}, "call_model"), ({"kubernetes": "1.2", "top": "POD NAME CPU(cores) MEMORY(bytes)\na b 1m 1Mi"}, "kubernetes"),
                          ({"objects": "{not json"}, "objects"), ({"objects": '{"yamlError": "bad indentation (3:4)"}'}, "objects"),
                          ({"top": "no header"}, "top")):
        p = {**dr.defaults(bundle), "product": "policy", "call_model": "pcf-sm", "load": "43000", **params}
        out = catalogue.run(bundle, {"calc": "deployment", **p})
        assert not out["ok"] and out["field"] == field, (params, out)


def test_page_and_command_line_agree(bundle, tmp_path):
    """The page reads -o yaml with js-yaml (in Node here, the file the page loads) and hands Python JSON; the command line
    reads it with PyYAML: the same numbers."""
    js = ROOT / "node_modules" / "js-yaml" / "dist" / "browser" / "js-yaml.umd.min.js"
    out = subprocess.run(["node", "-e", "const y=require(process.argv[1]);const fs=require('fs');"
                          "const d=[];y.loadAll(fs.readFileSync(process.argv[2],'utf8'),x=>{if(x!==null&&x!==undefined)d.push(x)});"
                          "process.stdout.write(JSON.stringify(d.length===1?d[0]:d))", str(js), str(EX / "bsf-3-3.yaml")],
                         capture_output=True, text=True, timeout=60, check=True)
    params = {**dr.defaults(bundle), "product": "bsf", "call_model": "bsf-nbsf-rx", "load": "63000", "objects": out.stdout,
              "top": (EX / "bsf-3-3-top.txt").read_text(), "target_load": "126000", "target_sites": "2"}
    page = dr.summary(bundle, params)
    cli = subprocess.run([sys.executable, "-m", "calculators", "deployment", "--product", "bsf", "--call-model", "bsf-nbsf-rx",
                          "--load", "63000", "--get", str(EX / "bsf-3-3.yaml"), "--top", str(EX / "bsf-3-3-top.txt"),
                          "--target-load", "126000", "--sites", "2", "--format", "json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout) == json.loads(json.dumps(page))
    # and the BSF example reads back bsf-3-3: 763.8 cores requested at site 1 (Tables 3-25, 3-26) / 63 = 12.12381 per 1K
    assert page["yours"]["cpu_request"] == round(763.8 / 63, 6)
    assert page["runs"][0]["run"] == "bsf-3-3" and page["runs"][0]["cpu_request_per_1k"] == page["yours"]["cpu_request"]


def test_nothing_pasted_shows_the_vendors_runs(bundle):
    out = catalogue.run(bundle, {"calc": "deployment", **dr.defaults(bundle)})
    assert out["ok"] and "Paste what kubectl prints" in out["html"]
    assert out["chart"]["vconcat"][0]["data"]["values"]


def test_your_point_on_the_home_chart(policy, bundle):
    pts = dp.efficiency_points(bundle, policy)
    yours = [p for p in pts if p["who"] == "yours"]
    # 2431 cores / 43K TPS = 56.53 per 1K, beside policy-3-2-8's own 56.53 (the home chart's figure)
    assert yours == [dict(yours[0], efficiency=56.53)]
    assert next(p for p in pts if p["id"] == "policy-3-2-8")["efficiency"] == 56.53


def test_report_and_csv(policy, bundle):
    p = {**dr.defaults(bundle), "product": "policy", "call_model": "pcf-sm", "load": "43000",
         "objects": (EX / "policy-pcf-sm.json").read_text(), "top": (EX / "policy-pcf-sm-top.txt").read_text()}
    rep = catalogue.report(bundle, {"calc": "deployment", **p})
    assert rep["ok"], rep
    out = catalogue.run(bundle, {"calc": "deployment", **p})
    csv_text = out["downloads"]["csv"]["text"]
    assert "ocpcf/ocpcf-oc-binding" in csv_text
    # the pasted text itself is never in the downloads' inputs
    assert "ocpcf-occnp-ingress-gateway-" not in csv_text.split("kind,service")[0]


def test_init_containers_not_counted_native_sidecars_counted():
    got = dp.workloads((FIX / "get-small.json").read_text(), (FIX / "top-small.txt").read_text())
    w = next(x for x in got["workloads"] if x["name"] == "ocpcf-occnp-ingress-gateway")
    f = dp.workload_figures(w)
    # 3 replicas x (4 cores ingress-gateway + 0.25 istio-proxy) = 12.75 cores; istio-init (10m) and init-service (1 core)
    # finish before the pod serves: not counted. Used: 2500m + 150m + 1.5 cores over the two pods top printed = 4.15
    assert f["cpu_request"] == Fraction(51, 4) and f["cpu_used"] == Fraction(83, 20) and f["pods_read"] == 2
    # memory: 3 x (6 GiB + 512 MiB) = 19.5 GiB
    assert f["mem_request"] == Fraction(39, 2)
    obj = {"kind": "Deployment", "metadata": {"name": "x"}, "spec": {"replicas": 2, "template": {"spec": {
        "initContainers": [{"name": "proxy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "100m"}}}],
        "containers": [{"name": "app", "resources": {"requests": {"cpu": "1"}}}]}}}}
    # a native sidecar runs beside the app: 2 x (1 + 0.1) = 2.2 cores
    assert dp.workload_figures(dp.workloads(obj, "")["workloads"][0])["cpu_request"] == Fraction(11, 5)


def test_hpa_reads_only_pods_with_metrics(bundle):
    # Resource metric over the whole pod (sm + istio-proxy, 1 + 0.5 cores requested). Pod 0 has no istio-proxy line, so
    # the controller has no full metrics for it and leaves it out: 4 pods, (4 x (1.2 + 0.3)) / (4 x 1.5) = 100 % against
    # 80 % -> 1.25 x 5 replicas = 6.25 -> 7 (critical)
    case = _hpa_case("1200m")
    obj = json.loads(case["objects"])
    obj["items"][0]["spec"]["template"]["spec"]["containers"].append(
        {"name": "istio-proxy", "resources": {"requests": {"cpu": "500m"}}})
    lines = case["top"].splitlines()
    top = "\n".join(lines + [x.replace(" sm 1200m", " istio-proxy 300m") for x in lines[2:]]) + "\n"
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=json.dumps(obj), top=top)
    x = res["over_target"][0]
    assert x["pods_with_metrics"] == 4 and x["view"]["hpa_reads"] == 100 and x["view"]["desired"] == 7


# ------------------------------------------------------------------ your points on the site's own charts
def test_own_points_worked_by_hand(bundle):
    """get-small.json and top-small.txt, Policy PCF SM at 10,000 TPS.
    Home chart: requested = ingress-gateway 3 x (4 + 0.25) = 12.75 cores + ndbmtd 4 x 1.5 (a limit only, taken as the
    request) = 6 -> 18.75 / 10,000 x 1,000 = 1.875 cores per 1K, 1.88 to the home chart's 2 decimals; a lower bound
    (db-backup-executor-svc sets no CPU request). Ingress Gateway's chart: its own container used 2500m + 1.5 = 4 cores,
    istio-proxy 150m = 0.15; per 1K: 0.4, 0.015. ndbmtd: 100u = 0.0001 cores (the other two lines are refused), 0.0 to
    the service chart's 3 decimals."""
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=(FIX / "get-small.json").read_text(),
                     top=(FIX / "top-small.txt").read_text())
    pts = dp.own_points(bundle, res)
    assert pts["format"] == "benchmark-atlas-deployment-points" and pts["build"] == bundle["build_id"]
    assert (pts["product"], pts["call_model"], pts["unit"], pts["load"]) == ("Policy", "pcf-sm", "TPS", 10000.0)
    assert pts["home"]["load"] == 10000.0 and pts["home"]["efficiency"] == 1.88
    assert pts["home"]["counted"] == "partial: at least" and pts["home"]["label"] == "yours"
    got = {(p["page"], p["kind"]): (p["load"], p["cores"], p["per_1k"], p["label"]) for p in pts["services"]}
    assert got == {("ingress-gateway", "service"): (10000.0, 4.0, 0.4, "yours"),
                   ("ingress-gateway", "sidecar"): (10000.0, 0.15, 0.015, "yours: sidecar"),
                   ("ndbmtd", "service"): (10000.0, 0.0, 0.0, "yours")}
    assert pts["without_reading"] == []


def test_own_points_without_readings_or_requests(bundle):
    # kubectl get alone: the home point (4 cores / 10K TPS = 0.4 per 1K, every container sets a request: complete), no
    # service point, and the service named as having no reading
    obj = {"kind": "Deployment", "metadata": {"name": "ocpcf-occnp-ingress-gateway", "namespace": "pcf"},
           "spec": {"replicas": 1, "template": {"spec": {"containers": [
               {"name": "ingress-gateway", "resources": {"requests": {"cpu": "4"}}}]}}}}
    pts = dp.own_points(bundle, dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=json.dumps(obj)))
    assert pts["home"]["efficiency"] == 0.4 and pts["home"]["counted"] == "complete"
    assert pts["services"] == [] and pts["without_reading"] == ["Ingress Gateway"]
    # kubectl top alone: no request is known, so no home point; the service point is there
    top = "NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\npcf ocpcf-occnp-ingress-gateway-7d9c5b6f4-x2k1l ingress-gateway 1500m 1Gi\n"
    pts = dp.own_points(bundle, dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, top=top))
    assert pts["home"] is None and [(p["page"], p["cores"]) for p in pts["services"]] == [("ingress-gateway", 1.5)]
    # nothing pasted: the result carries no points (the exported file then says so)
    out = catalogue.run(bundle, {"calc": "deployment", **dr.defaults(bundle)})
    assert out["ok"] and out["points"] is None


def test_own_points_are_the_site_charts_own_values(bundle, atlas):
    """The Policy example reproduces Policy 3.2.8's tables, so its points must be that run's own points as the home page
    and the service pages compute them (atlas/pages/home.py, services.py: other code than deployment.py): x and y on
    the same definitions and rounding, partial where the run is."""
    from atlas.pages import home, services
    from atlas.pages.products import Renderer
    r = Renderer(atlas)
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=43000, objects=(EX / "policy-pcf-sm.json").read_text(),
                     top=(EX / "policy-pcf-sm-top.txt").read_text())
    pts = dp.own_points(bundle, res)
    run = next(p for p in home.efficiency_points(r) if p["id"] == "policy-3-2-8")
    assert (pts["home"]["load"], pts["home"]["efficiency"], pts["home"]["counted"]) == (run["load"], run["efficiency"], run["counted_as"])
    for slug in ("ingress-gateway", "egress-gateway", "sm-service", "binding-service", "pre"):
        g = next(x for x in services.groups_of(r) if x["slug"] == slug)
        theirs = [(p["load"], p["cores"]) for p in services.chart_points(services.service_rows(r, g))
                  if p["product"] == "Policy" and p["scenario"].startswith("Policy 3.2.8:") and p["container"] == "app"]
        mine = [(p["load"], p["cores"]) for p in pts["services"] if p["page"] == slug and p["kind"] == "service"]
        assert mine == theirs and len(mine) == 1, slug


def test_your_layer_plots_the_charts_own_fields(bundle):
    """The layer the home and service charts declare for your points reads the fields their own marks plot, and the
    points carry them: a chart and the points cannot drift apart silently."""
    from atlas.pages import home, services
    for spec, keys in ((home.spec([]), ("load", "efficiency")), (services.chart_spec("x", []), ("load", "cores"))):
        enc = spec["encoding"]
        assert (enc["x"]["field"], enc["y"]["field"]) == keys
        yours = spec["usermeta"]["yours"]
        assert yours["data"] == {"name": "yours"}
        for layer in yours["layer"]:
            assert (layer["encoding"]["x"]["field"], layer["encoding"]["y"]["field"]) == keys
        assert yours["layer"][1]["encoding"]["text"] == {"field": "label"}  # told apart in words, not colour alone


def test_build_id_names_the_data_and_the_rules(bundle):
    from atlas import bundle as bmod
    rest = {k: v for k, v in bundle.items() if k != "build_id"}
    assert len(bundle["build_id"]) == 16 and int(bundle["build_id"], 16) >= 0
    assert bmod.build_id(rest) == bundle["build_id"]
    # one vendor figure changed: another build
    changed = dict(rest, resources=[dict(rest["resources"][0], replicas=(rest["resources"][0]["replicas"] or 0) + 1)]
                   + rest["resources"][1:])
    assert bmod.build_id(changed) != bundle["build_id"]


def test_command_line_writes_the_file_export_inputs_writes(bundle, tmp_path):
    """``--points`` writes what the page's Export inputs writes: the same format the page's scripts read (deployment.js
    imports it, charts.js draws its points) and the points the page computes (1.88 for the small fixture: worked by
    hand in test_own_points_worked_by_hand)."""
    out = tmp_path / "mine.json"
    # the bundle the page computes with, as the command line reads a built site's (--bundle): building it again from
    # data/ in the subprocess took 20 s a run, which mutation testing pays for every mutant this test meets
    bundle_file = tmp_path / "bundle.json"
    bundle_file.write_text(json.dumps(bundle), encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "calculators", "--bundle", str(bundle_file), "deployment", "--product", "policy", "--call-model", "pcf-sm",
                          "--load", "10000", "--get", str(FIX / "get-small.json"), "--top", str(FIX / "top-small.txt"),
                          "--points", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr
    saved = json.loads(out.read_text(encoding="utf-8"))
    for js in ("deployment.js", "charts.js"):
        text = (ROOT / "docs" / "assets" / "js" / js).read_text(encoding="utf-8")
        assert f'"{saved["format"]}"' in text and (js == "deployment.js" or f'"{saved["points"]["format"]}"' in text), js
    assert saved["inputs"]["objects_text"] == (FIX / "get-small.json").read_text() and saved["inputs"]["load"] == "10000"
    page = catalogue.run(bundle, {"calc": "deployment", "product": "policy", "call_model": "pcf-sm", "load": "10000",
                                  "objects": (FIX / "get-small.json").read_text(), "top": (FIX / "top-small.txt").read_text()})
    assert saved["points"] == json.loads(json.dumps(page["points"])) and saved["points"]["home"]["efficiency"] == 1.88
