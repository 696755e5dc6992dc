"""calculators/deployment_inputs.py ``parse_objects``: the fields of each workload and HPA read from ``kubectl get -o
json`` objects, a DaemonSet's pods, and every problem named at its place (item number, object path and field) with its
whole message. Every expected value is written out by hand from the objects in the test."""
from __future__ import annotations

import pytest

from calculators import deployment_inputs as di

POD = {"template": {"spec": {"containers": [{"name": "app", "resources": {"requests": {"cpu": "1"}}}]}}}


def _daemonset(name, status):
    o = {"kind": "DaemonSet", "metadata": {"name": name, "namespace": "ops"}, "spec": POD}
    if status is not None:
        o["status"] = status
    return o


def test_a_daemonsets_pods_are_its_scheduled_pods():
    got = di.parse_objects({"kind": "List", "items": [
        _daemonset("node-agent", {"desiredNumberScheduled": 3, "currentNumberScheduled": 2}),
        _daemonset("no-status", None),
        _daemonset("bad-count", {"desiredNumberScheduled": "many"})]})
    reps = {w["name"]: w["replicas"] for w in got["workloads"]}
    # status.desiredNumberScheduled (not spec.replicas, which a DaemonSet has not); none printed: 0 pods, not 1
    assert reps == {"node-agent": 3, "no-status": 0, "bad-count": 0}
    assert got["problems"] == [{"where": "DaemonSet/ops/bad-count/status.desiredNumberScheduled",
                                "message": "'many' is not a whole number of 0 or more"}]


def test_each_workload_carries_its_path_and_an_unnamed_one_is_named_by_a_question_mark():
    got = di.parse_objects({"kind": "List", "items": [
        {"kind": "StatefulSet", "metadata": {"name": "ndbmtd", "namespace": "db"}, "spec": dict(POD, replicas=2)},
        {"kind": "Deployment", "metadata": {"namespace": "db"}, "spec": POD}]})
    assert [(w["kind"], w["name"], w["path"], w["replicas"]) for w in got["workloads"]] == [
        ("StatefulSet", "ndbmtd", "StatefulSet/db/ndbmtd", 2), ("Deployment", "?", "Deployment/db/?", 1)]


def test_an_item_that_is_no_object_is_named_by_its_place_in_the_list():
    # items 1 and 3 are objects; item 2 is a number and item 4 a dict without kind
    got = di.parse_objects({"kind": "List", "items": [
        {"kind": "Service", "metadata": {"name": "s"}}, 5, {"kind": "Service", "metadata": {"name": "t"}}, {"a": 1}]})
    assert got["problems"] == [{"where": "item 2", "message": "not a Kubernetes object (no kind)"},
                               {"where": "item 4", "message": "not a Kubernetes object (no kind)"}]
    assert got["ignored"] == [{"kind": "Service", "count": 2}] and got["workloads"] == []


def _hpa(name, spec):
    return {"kind": "HorizontalPodAutoscaler", "metadata": {"name": name, "namespace": "ns"},
            "spec": dict({"scaleTargetRef": {"kind": "Deployment", "name": "a"}}, **spec)}


def test_an_hpa_without_max_replicas_is_a_problem_at_that_field():
    got = di.parse_objects(_hpa("h", {"targetCPUUtilizationPercentage": 70}))
    assert got["problems"] == [{"where": "HorizontalPodAutoscaler/ns/h/spec.maxReplicas",
                                "message": "missing (an HPA must set maxReplicas)"}]
    (h,) = got["hpas"]
    assert (h["max_replicas"], h["min_replicas"], h["cpu_target"]) == (None, 1, 70)


def test_hpa_metrics_other_than_a_utilization_target_are_named_by_type_resource_and_target():
    got = di.parse_objects(_hpa("h", {"maxReplicas": 4, "metrics": [
        {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "AverageValue", "averageValue": "500m"}}},
        {"type": "ContainerResource", "containerResource": {"name": "memory", "container": "app",
                                                            "target": {"type": "Utilization"}}},
        {"type": "Pods", "pods": {"metric": {"name": "packets-per-second"}}}]}))
    (h,) = got["hpas"]
    assert h["other_metrics"] == ["Resource cpu AverageValue", "ContainerResource memory Utilization", "Pods"]
    assert (h["cpu_target"], h["memory_target"], got["problems"]) == (None, None, [])


@pytest.mark.parametrize("typ,key", [("Resource", "resource"), ("ContainerResource", "containerResource")])
def test_a_bad_utilization_target_is_named_at_its_metric(typ, key):
    body = {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": -5}}
    if typ == "ContainerResource":
        body["container"] = "app"
    got = di.parse_objects(_hpa("h", {"maxReplicas": 4, "metrics": [
        {"type": "Pods", "pods": {}}, {"type": typ, key: body}]}))
    # the second metric, index 1
    assert got["problems"] == [{"where": f"HorizontalPodAutoscaler/ns/h/spec.metrics[1].{key}.target.averageUtilization",
                                "message": "'-5' is not a whole number of 0 or more"}]
    assert got["hpas"][0]["cpu_target"] is None
