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


def test_containers_that_cannot_be_read_and_a_missing_pod_template_are_named():
    got = di.parse_objects({"kind": "List", "items": [
        {"kind": "Deployment", "metadata": {"name": "x", "namespace": "ns"}, "spec": {"replicas": "3", "template": {"spec": {
            "containers": ["app", {"resources": {"limits": {"cpu": "2", "memory": "1Gi"}}}],
            "initContainers": [{"name": "init", "resources": {"limits": {"memory": "lots"}}}]}}}},
        {"kind": "StatefulSet", "metadata": {"name": "y", "namespace": "ns"}, "spec": {"replicas": -1}}]})
    assert got["problems"] == [
        {"where": "Deployment/ns/x/containers[0]", "message": "not a container object"},
        {"where": "Deployment/ns/x/init/resources.limits.memory",
         "message": "'lots' is not a Kubernetes quantity (a number with an optional suffix: 250m, 1.5, 512Mi, 1Gi, 1G, 1e9)"},
        {"where": "StatefulSet/ns/y/spec.template.spec", "message": "no pod template: the workload is left out"}]
    (w,) = got["workloads"]
    # replicas printed as the text "3": read as 3
    assert w["replicas"] == 3
    # the unnamed container is named by its place; its requests default to its limits (2 cores, 1 GiB), both marked
    unnamed, init = w["containers"]
    assert unnamed["name"] == "containers[1]" and not unnamed["init"]
    assert (unnamed["cpu_request"], unnamed["mem_request"], unnamed["cpu_limit"], unnamed["mem_limit"]) == (2, 1, 2, 1)
    assert unnamed["cpu_request_from_limit"] is True and unnamed["mem_request_from_limit"] is True
    assert init["init"] and init["mem_request"] is None and init["mem_limit"] is None
    assert "mem_request_from_limit" not in init and "cpu_request_from_limit" not in init


@pytest.mark.parametrize("replicas,problem", [(-1, "'-1' is not a whole number of 0 or more"),
                                              (True, "'True' is not a whole number of 0 or more"),
                                              (2.5, "'2.5' is not a whole number of 0 or more")])
def test_replicas_that_are_no_whole_number_are_named_and_default_to_one(replicas, problem):
    got = di.parse_objects({"kind": "Deployment", "metadata": {"name": "x", "namespace": "ns"},
                            "spec": dict(POD, replicas=replicas)})
    assert got["problems"] == [{"where": "Deployment/ns/x/spec.replicas", "message": problem}]
    assert got["workloads"][0]["replicas"] == 1


def test_a_yaml_stream_of_lists_and_single_objects_is_read_in_order():
    # a YAML stream read into a list: a List, a single object and a nested list of one more
    obj = [{"kind": "List", "items": [{"kind": "Deployment", "metadata": {"name": "a"}, "spec": POD}]},
           {"kind": "StatefulSet", "metadata": {"name": "b"}, "spec": POD},
           [{"kind": "DaemonSet", "metadata": {"name": "c"}, "spec": POD, "status": {"desiredNumberScheduled": 2}}]]
    got = di.parse_objects(obj)
    assert [(w["kind"], w["name"], w["namespace"], w["replicas"]) for w in got["workloads"]] == [
        ("Deployment", "a", "default", 1), ("StatefulSet", "b", "default", 1), ("DaemonSet", "c", "default", 2)]
    assert got["problems"] == [] and got["ignored"] == []


def test_an_autoscaling_v1_hpa_has_every_field_of_the_documented_shape():
    got = di.parse_objects(_hpa("h", {"minReplicas": 2, "maxReplicas": 6, "targetCPUUtilizationPercentage": 75}))
    # autoscaling/v1: one CPU target for the whole pod (no container), no memory target, no other metric
    assert got["hpas"] == [{"namespace": "ns", "name": "h", "target_kind": "Deployment", "target_name": "a",
                            "min_replicas": 2, "max_replicas": 6, "cpu_target": 75, "cpu_container": None,
                            "memory_target": None, "other_metrics": [], "path": "HorizontalPodAutoscaler/ns/h"}]
    assert got["problems"] == []
