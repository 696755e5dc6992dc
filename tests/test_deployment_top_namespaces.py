"""calculators/deployment.py ``workloads``: each ``kubectl top`` line placed in the workload of ``kubectl get`` whose pod
it is, in the namespace ``kubectl top -A`` printed, or in any namespace when ``kubectl top`` was pasted without -A (no
NAMESPACE column). Every expected value is read off the text pasted in the test by hand."""
from __future__ import annotations

from fractions import Fraction

from calculators import deployment as dp


def _deployment(ns, name, cpu):
    return {"kind": "Deployment", "metadata": {"name": name, "namespace": ns},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [
                {"name": "sm", "resources": {"requests": {"cpu": cpu, "memory": "1Gi"}}}]}}}}


def test_the_same_workload_name_in_two_namespaces_keeps_each_namespaces_pods():
    objects = {"kind": "List", "items": [_deployment("site-a", "ocpcf-pcf-smservice", "2"),
                                         _deployment("site-b", "ocpcf-pcf-smservice", "2")]}
    # site-b's line comes first: it must still go to site-b's Deployment, not to the first of that name (site-a's)
    top = ("NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\n"
           "site-b ocpcf-pcf-smservice-7d9c5b6f4-x2k1l sm 300m 1Gi\n"
           "site-a ocpcf-pcf-smservice-5f6d7c8b9-p9q8r sm 100m 512Mi\n")
    got = dp.workloads(objects, top)
    assert got["top_rows"] == 2 and got["top_unplaced"] == [] and got["problems"] == []
    by_ns = {w["namespace"]: w for w in got["workloads"]}
    assert sorted(by_ns) == ["site-a", "site-b"] and len(got["workloads"]) == 2
    # 100m = 1/10 core, 512Mi = 1/2 GiB; 300m = 3/10 core, 1Gi = 1 GiB
    assert by_ns["site-a"]["pods"] == {"ocpcf-pcf-smservice-5f6d7c8b9-p9q8r": {"sm": {"cpu": Fraction(1, 10),
                                                                                    "memory": Fraction(1, 2)}}}
    assert by_ns["site-b"]["pods"] == {"ocpcf-pcf-smservice-7d9c5b6f4-x2k1l": {"sm": {"cpu": Fraction(3, 10),
                                                                                    "memory": Fraction(1)}}}
    assert {w["from"] for w in got["workloads"]} == {"kubectl get"}


def test_kubectl_top_without_namespaces_is_placed_in_the_workload_of_any_namespace():
    objects = {"kind": "List", "items": [_deployment("pcf", "ocpcf-pcf-smservice", "2")]}
    top = ("POD NAME CPU(cores) MEMORY(bytes)\n"
           "ocpcf-pcf-smservice-7d9c5b6f4-x2k1l sm 250m 256Mi\n")
    got = dp.workloads(objects, top)
    # the one line is the pcf Deployment's pod: placed there, not a workload of its own and not left unplaced
    assert got["top_unplaced"] == []
    (w,) = got["workloads"]
    assert (w["namespace"], w["name"], w["from"]) == ("pcf", "ocpcf-pcf-smservice", "kubectl get")
    # 250m = 1/4 core, 256Mi = 1/4 GiB
    assert w["pods"] == {"ocpcf-pcf-smservice-7d9c5b6f4-x2k1l": {"sm": {"cpu": Fraction(1, 4), "memory": Fraction(1, 4)}}}
