"""Reading what kubectl printed into workloads (calculators/deployment_inputs.py, calculators/deployment.py
``workloads``, ``match``, ``over_target``): the shape each documents, the problems named with their place, and a
workload matched by its main container's name. Every expected value is written out by hand from the text pasted in
the test."""
from __future__ import annotations

import json

import pytest

from calculators import deployment as dp
from calculators import deployment_inputs as di

TOP_ALONE = ("POD NAME CPU(cores) MEMORY(bytes)\n"
             "ocpcf-occnp-ingress-gateway-7d9c5b6f4-x2k1l ingress-gateway 500m 1Gi\n"
             "ocpcf-occnp-ingress-gateway-7d9c5b6f4-x2k1l istio-proxy 100m 128Mi\n"
             "ocpcf-occnp-ingress-gateway-7d9c5b6f4-p9q8r ingress-gateway 1500m 1Gi\n")


def test_a_workload_seen_only_in_kubectl_top_has_the_documented_shape():
    got = dp.workloads(None, TOP_ALONE)
    assert got["top_rows"] == 3 and got["problems"] == [] and got["top_unplaced"] == []
    (w,) = got["workloads"]
    # two pods seen (the ReplicaSet and pod hashes stripped), no request known, no HPA, no namespace column
    assert {k: v for k, v in w.items() if k not in ("pods", "containers")} == {
        "kind": "Pod", "namespace": None, "name": "ocpcf-occnp-ingress-gateway", "replicas": 2, "from": "kubectl top",
        "hpa": None, "path": "kubectl top line 2"}
    blank = {"init": False, "native_sidecar": False, "mesh_init": False, "cpu_request": None, "cpu_limit": None,
             "mem_request": None, "mem_limit": None}
    assert w["containers"] == [{"name": "ingress-gateway", "sidecar": False, **blank},
                               {"name": "istio-proxy", "sidecar": True, **blank}]
    # 500m, 100m; 1Gi, 128Mi = 1/8 GiB
    assert w["pods"]["ocpcf-occnp-ingress-gateway-7d9c5b6f4-x2k1l"] == {
        "ingress-gateway": {"cpu": di.cpu_cores("500m"), "memory": 1}, "istio-proxy": {"cpu": di.cpu_cores("100m"),
                                                                                    "memory": di.memory_gib("128Mi")}}
    assert di.memory_gib("128Mi") * 8 == 1 and di.cpu_cores("100m") * 10 == 1


def test_a_workload_is_matched_by_its_main_container_not_its_sidecar(bundle):
    # "edge-proxy" is no name the Policy guide prints; its first container is Istio's sidecar, its main one is named
    # as the guide names Ingress Gateway: matched by that container's name
    obj = {"kind": "Deployment", "metadata": {"name": "edge-proxy", "namespace": "p"}, "spec": {"replicas": 2, "template": {
        "spec": {"containers": [{"name": "istio-proxy", "resources": {"requests": {"cpu": "250m"}}},
                                {"name": "ingress-gateway", "resources": {"requests": {"cpu": "4"}}}]}}}}
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=json.dumps(obj))
    (w,) = res["workloads"]
    assert w["matched_by"] == "container name" and w["service"]["service"] == "ingress-gateway"
    assert res["unmatched"] == []


def test_an_hpa_that_cannot_read_its_workload_read_no_pod(bundle):
    obj = {"kind": "List", "items": [
        {"kind": "Deployment", "metadata": {"name": "ocpcf-pcf-smservice", "namespace": "p"},
         "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "sm", "resources": {}}]}}}},
        {"kind": "HorizontalPodAutoscaler", "metadata": {"name": "sm", "namespace": "p"},
         "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "ocpcf-pcf-smservice"}, "maxReplicas": 4,
                  "targetCPUUtilizationPercentage": 60}}]}
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=json.dumps(obj))
    (x,) = res["over_target"]
    assert (x["target"], x["reading"], x["pods_with_metrics"], x["view"]) == (60, None, 0, None)
    assert x["why"] == ("the HPA cannot read this workload: container sm sets no CPU request (the controller's "
                        "'missing request for cpu')")


def test_an_hpa_naming_no_target_is_a_problem_at_its_place():
    obj = {"kind": "HorizontalPodAutoscaler", "metadata": {"name": "h", "namespace": "ns"}, "spec": {"maxReplicas": 3}}
    got = di.parse_objects(obj)
    assert got["problems"] == [{"where": "HorizontalPodAutoscaler/ns/h/spec.scaleTargetRef",
                                "message": "no target workload named"}]
    assert got["hpas"][0]["target_name"] is None and got["hpas"][0]["min_replicas"] == 1


def test_kubectl_top_lines_before_a_header_are_named_not_read():
    got = di.parse_top("a b 1m 1Mi\nPOD NAME CPU(cores) MEMORY(bytes)\np c 2m 2Mi\n")
    assert got["problems"] == [{"where": "line 1",
                                "message": "before any header line (POD NAME CPU(cores) MEMORY(bytes)): not read"}]
    assert [(r["line"], r["pod"], r["container"]) for r in got["rows"]] == [(3, "p", "c")]


def test_kubectl_top_without_a_header_says_what_to_paste():
    with pytest.raises(di.DeploymentInputError) as e:
        di.parse_top("p c 2m 2Mi\n")
    assert str(e.value) == ("kubectl top: no header line POD NAME CPU(cores) MEMORY(bytes) found (paste what "
                            "`kubectl top pods --containers` prints, with -A or -n <namespace>).")


def test_hpa_targets_and_their_problems_named_at_their_field():
    obj = {"kind": "List", "items": [
        {"kind": "HorizontalPodAutoscaler", "metadata": {"name": "old", "namespace": "ns"},
         "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "a"}, "maxReplicas": 3,
                  "targetCPUUtilizationPercentage": "abc"}},
        {"kind": "HorizontalPodAutoscaler", "metadata": {"name": "v2", "namespace": "ns"},
         "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "b"}, "maxReplicas": 3, "metrics": [
             {"type": "Resource", "resource": {"name": "memory", "target": {"type": "Utilization", "averageUtilization": 70}}},
             {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 75}}}]}}]}
    got = di.parse_objects(obj)
    assert got["problems"] == [{"where": "HorizontalPodAutoscaler/ns/old/spec.targetCPUUtilizationPercentage",
                                "message": "'abc' is not a whole number of 0 or more"}]
    old, v2 = got["hpas"]
    assert old["cpu_target"] is None
    assert (v2["cpu_target"], v2["memory_target"], v2["cpu_container"], v2["other_metrics"]) == (75, 70, None, [])


def test_workloads_text_that_is_not_json_says_where_and_what_to_paste():
    with pytest.raises(di.DeploymentInputError) as e:
        di.load_json("{not json")
    assert str(e.value) == ("Workloads: not JSON (line 1, column 2: Expecting property name enclosed in double quotes). "
                            "Paste what `kubectl get deployments,statefulsets,hpa -o json` prints (on the page, -o yaml "
                            "is read too).")
