"""The "Your deployment" calculator's readers (calculators/deployment_inputs.py): Kubernetes quantities, `kubectl get -o
json` objects and `kubectl top pods --containers` text, from hand-written fixtures (tests/fixtures/deployment/) whose
expected values are worked out by hand in the comments."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from calculators import deployment_inputs as di

FIX = Path(__file__).parent / "fixtures" / "deployment"


@pytest.mark.parametrize("text,value", [
    # CPU spellings (Kubernetes Quantity docs: <signedNumber><suffix>)
    ("250m", Fraction(1, 4)), ("1", Fraction(1)), ("1.5", Fraction(3, 2)), ("0.5", Fraction(1, 2)), (".5", Fraction(1, 2)),
    ("2.", Fraction(2)), ("100u", Fraction(1, 10000)), ("5000000n", Fraction(1, 200)), (2, Fraction(2)), (0.25, Fraction(1, 4)),
    # memory spellings: binary SI, decimal SI, exponent, plain bytes
    ("512Mi", Fraction(512 * 2 ** 20)), ("1Gi", Fraction(2 ** 30)), ("1G", Fraction(10 ** 9)), ("1e9", Fraction(10 ** 9)),
    ("1E3", Fraction(1000)), ("128974848", Fraction(128974848)), ("1k", Fraction(1000)), ("1M", Fraction(10 ** 6)),
    ("1Ki", Fraction(1024)), ("2Ti", Fraction(2 * 2 ** 40)), ("1E", Fraction(10 ** 18)), ("1.5Gi", Fraction(3 * 2 ** 29)),
    ("+1m", Fraction(1, 1000)), ("1e-3", Fraction(1, 1000)),
])
def test_quantity_every_spelling(text, value):
    assert di.quantity(text) == value


@pytest.mark.parametrize("text", ["12x", "", "1.2.3", "1 Gi", "Gi", "1gi", "1KB", "1Mb", "e3", True, "1e"])
def test_quantity_refuses_what_kubernetes_refuses(text):
    with pytest.raises(ValueError, match="not a Kubernetes quantity"):
        di.quantity(text)


def test_memory_in_gib():
    # 512Mi = 512 / 1024 GiB = 0.5; 1G = 10^9 / 2^30 = 0.931322574615478515625 GiB
    assert di.memory_gib("512Mi") == Fraction(1, 2)
    assert di.memory_gib("1G") == Fraction(10 ** 9, 2 ** 30)
    assert float(di.memory_gib("1G")) == 0.931322574615478515625


def test_kubectl_get_list():
    got = di.parse_objects(json.loads((FIX / "get-small.json").read_text()))
    wl = {w["name"]: w for w in got["workloads"]}
    assert sorted(wl) == ["broken", "ndbmtd", "ocpcf-occnp-ingress-gateway"]
    ig = wl["ocpcf-occnp-ingress-gateway"]
    assert (ig["kind"], ig["namespace"], ig["replicas"]) == ("Deployment", "pcf", 3)
    c = {x["name"]: x for x in ig["containers"]}
    assert [x["name"] for x in ig["containers"]] == ["ingress-gateway", "istio-proxy", "istio-init", "init-service"]
    assert c["ingress-gateway"]["cpu_request"] == 4 and c["ingress-gateway"]["mem_request"] == 6
    assert c["istio-proxy"]["sidecar"] and not c["istio-proxy"]["init"]
    assert c["istio-proxy"]["cpu_request"] == Fraction(1, 4) and c["istio-proxy"]["mem_limit"] == Fraction(10 ** 9, 2 ** 30)
    assert c["istio-init"]["init"] and c["istio-init"]["mesh_init"]
    assert c["init-service"]["init"] and not c["init-service"]["mesh_init"]
    # a StatefulSet whose container sets only limits: the request defaults to the limit (1.5 cores; 128974848 bytes =
    # 123 MiB = 123/1024 GiB); a container with no resources keeps None
    nd = {x["name"]: x for x in wl["ndbmtd"]["containers"]}
    assert wl["ndbmtd"]["replicas"] == 4
    assert nd["mysqlndbcluster"]["cpu_request"] == Fraction(3, 2) and nd["mysqlndbcluster"]["cpu_request_from_limit"]
    assert nd["mysqlndbcluster"]["mem_request"] == Fraction(123, 1024)
    assert nd["db-backup-executor-svc"]["cpu_request"] is None and nd["db-backup-executor-svc"]["mem_request"] is None
    # the broken Deployment: replicas "many" and cpu "12x" are named by path, the rest still read (1e9 bytes)
    where = {p["where"]: p["message"] for p in got["problems"]}
    assert "Deployment/pcf/broken/spec.replicas" in where
    assert "Deployment/pcf/broken/app/resources.requests.cpu" in where and "12x" in where["Deployment/pcf/broken/app/resources.requests.cpu"]
    assert wl["broken"]["containers"][0]["mem_request"] == Fraction(10 ** 9, 2 ** 30)
    assert wl["broken"]["containers"][0]["cpu_request"] is None
    # HPAs: autoscaling/v2 Resource metric (80 %, min 2, max 5) and autoscaling/v1 (60 %, min defaulting to 1)
    h = {x["name"]: x for x in got["hpas"]}
    assert (h["ocpcf-occnp-ingress-gateway"]["cpu_target"], h["ocpcf-occnp-ingress-gateway"]["min_replicas"],
            h["ocpcf-occnp-ingress-gateway"]["max_replicas"]) == (80, 2, 5)
    assert (h["old-style"]["cpu_target"], h["old-style"]["min_replicas"], h["old-style"]["max_replicas"]) == (60, 1, 4)
    assert h["old-style"]["target_name"] == "broken"
    assert got["ignored"] == [{"kind": "Service", "count": 1}]


def test_kubectl_get_single_object_and_native_sidecar():
    obj = {"kind": "Deployment", "metadata": {"name": "x"}, "spec": {"template": {"spec": {
        "initContainers": [{"name": "proxy", "restartPolicy": "Always", "resources": {"requests": {"cpu": "100m"}}}],
        "containers": [{"name": "app"}]}}}}
    got = di.parse_objects(obj)
    w = got["workloads"][0]
    # no spec.replicas: Kubernetes' default of 1; no namespace: "default"
    assert (w["namespace"], w["replicas"]) == ("default", 1)
    proxy = next(c for c in w["containers"] if c["name"] == "proxy")
    assert proxy["sidecar"] and proxy["native_sidecar"] and not proxy["init"]


def test_kubectl_get_nothing_readable():
    with pytest.raises(di.DeploymentInputError, match="no Kubernetes objects"):
        di.parse_objects({"items": [1, 2]})
    with pytest.raises(di.DeploymentInputError, match="line 2"):
        di.load_json('{\n  "kind": ]')


def test_kubectl_top_with_and_without_namespace_column():
    got = di.parse_top((FIX / "top-small.txt").read_text())
    rows = got["rows"]
    # 8 data lines: line 6 (12x) and line 7 (a column missing) are named, the other 6 read
    assert [r["line"] for r in rows] == [2, 3, 4, 5, 9]
    by = {(r["pod"], r["container"]): r for r in rows}
    r = by[("ocpcf-occnp-ingress-gateway-7d9c5b6f4-x2k1l", "ingress-gateway")]
    assert (r["namespace"], r["cpu"], r["memory"]) == ("pcf", Fraction(5, 2), Fraction(3))
    assert by[("ocpcf-occnp-ingress-gateway-7d9c5b6f4-x2k1l", "istio-proxy")]["memory"] == Fraction(200, 1024)
    assert by[("ocpcf-occnp-ingress-gateway-7d9c5b6f4-q8r7t", "ingress-gateway")]["cpu"] == Fraction(3, 2)
    assert by[("ndbmtd-0", "mysqlndbcluster")]["cpu"] == Fraction(1, 10000)
    # without -A: no namespace; 5000000n = 0.005 cores; 1536Ki = 1.5 MiB = 1.5/1024 GiB
    lone = by[("lone-pod", "app")]
    assert (lone["namespace"], lone["cpu"], lone["memory"]) == (None, Fraction(1, 200), Fraction(3, 2048))
    msgs = {p["where"]: p["message"] for p in got["problems"]}
    assert "12x" in msgs["line 6"] and msgs["line 6"].startswith("CPU(cores)")
    assert "4 columns, expected 5" in msgs["line 7"]


def test_kubectl_top_without_header():
    with pytest.raises(di.DeploymentInputError, match="no header line"):
        di.parse_top("pod-a app 1m 1Mi\n")
