"""calculators/deployment.py ``workloads``: a ``kubectl top`` line is a workload's pod only when its name has the shape
that workload's kind gives its pods (a Deployment's ``<name>-<ReplicaSet hash>-<pod hash>``, a StatefulSet's
``<name>-<ordinal>``, a DaemonSet's ``<name>-<pod hash>``); an HPA is attached to the workload it names, of its kind;
and what cannot be read at all is refused with a message saying what to paste. Every expected value is read off the
text pasted in the test by hand."""
from __future__ import annotations

from fractions import Fraction

import pytest

from calculators import deployment as dp

POD = {"template": {"spec": {"containers": [{"name": "app", "resources": {"requests": {"cpu": "1"}}}]}}}


def _workload(kind, name, **spec):
    return {"kind": kind, "metadata": {"name": name, "namespace": "n"}, "spec": dict(POD, **spec)}


OBJECTS = {"kind": "List", "items": [_workload("StatefulSet", "db", replicas=2), _workload("DaemonSet", "node-agent"),
                                     _workload("Deployment", "web", replicas=1)]}


def test_each_kind_takes_the_pods_its_names_give():
    top = ("NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\n"
           "n db-0 app 100m 1Gi\n"                      # line 2: the StatefulSet's ordinal 0
           "n db-1 app 200m 1Gi\n"                      # line 3: ordinal 1
           "n node-agent-x7k2p app 10m 64Mi\n"          # line 4: the DaemonSet's pod hash
           "n web-7d9c5b6f4-q8r7t app 300m 1Gi\n"       # line 5: the Deployment's ReplicaSet and pod hashes
           "n web-x7k2p app 50m 64Mi\n")                # line 6: a DaemonSet's shape, but web is a Deployment
    got = dp.workloads(OBJECTS, top)
    by = {(w["kind"], w["name"]): w for w in got["workloads"]}
    assert sorted(by[("StatefulSet", "db")]["pods"]) == ["db-0", "db-1"]
    assert sorted(by[("DaemonSet", "node-agent")]["pods"]) == ["node-agent-x7k2p"]
    assert sorted(by[("Deployment", "web")]["pods"]) == ["web-7d9c5b6f4-q8r7t"]
    # web-x7k2p is no pod of the Deployment web: listed as unplaced and read as a workload of its own, named by the
    # pod name with its hash stripped, from kubectl top line 6; 50m, 64Mi = 1/16 GiB
    assert [r["line"] for r in got["top_unplaced"]] == [6]
    lone = by[("Pod", "web")]
    assert (lone["from"], lone["path"], lone["replicas"], lone["namespace"]) == ("kubectl top", "kubectl top line 6", 1, "n")
    assert lone["pods"] == {"web-x7k2p": {"app": {"cpu": Fraction(1, 20), "memory": Fraction(1, 16)}}}


def test_a_statefulset_does_not_take_a_deployments_pod_shape():
    top = ("NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\nn db-7d9c5b6f4-q8r7t app 1 1Gi\nn node-agent-7 app 1 1Gi\n"
           "n node-agent-x7k2 app 1 1Gi\n")
    got = dp.workloads(OBJECTS, top)
    by = {(w["kind"], w["name"]): w for w in got["workloads"]}
    # db-7d9c5b6f4-q8r7t is no ordinal of db; node-agent-7 and node-agent-x7k2 (4 characters) are no 5-character pod
    # hash of the DaemonSet: all three unplaced
    assert by[("StatefulSet", "db")]["pods"] == {} and by[("DaemonSet", "node-agent")]["pods"] == {}
    assert [r["line"] for r in got["top_unplaced"]] == [2, 3, 4]
    assert by[("Pod", "db")]["pods"] == {"db-7d9c5b6f4-q8r7t": {"app": {"cpu": 1, "memory": 1}}}


def _hpa(name, kind, target):
    return {"kind": "HorizontalPodAutoscaler", "metadata": {"name": name, "namespace": "n"},
            "spec": {"scaleTargetRef": {"kind": kind, "name": target}, "maxReplicas": 3,
                     "targetCPUUtilizationPercentage": 70}}


def test_an_hpa_is_attached_to_the_workload_of_its_kind_and_name():
    objects = dict(OBJECTS, items=OBJECTS["items"] + [_hpa("h-web", "Deployment", "web"), _hpa("h-ghost", "Deployment", "ghost"),
                                                       _hpa("h-kind", "StatefulSet", "web"), _hpa("h-any", "", "db")])
    got = dp.workloads(objects, "")
    by = {w["name"]: w for w in got["workloads"]}
    assert by["web"]["hpa"]["name"] == "h-web" and by["db"]["hpa"]["name"] == "h-any"  # no kind named: any kind
    assert by["node-agent"]["hpa"] is None
    assert got["problems"] == [
        {"where": "HorizontalPodAutoscaler/n/h-ghost",
         "message": "its target Deployment ghost is not among the workloads pasted: not read"},
        {"where": "HorizontalPodAutoscaler/n/h-kind",
         "message": "its target StatefulSet web is not among the workloads pasted: not read"}]


def test_nothing_to_read_says_what_to_paste():
    with pytest.raises(dp.DeploymentError) as e:
        dp.workloads(None, "  \n")
    assert str(e.value) == ("Workloads: nothing to read. Paste what `kubectl get deployments,statefulsets,hpa -o json` "
                            "prints, or `kubectl top pods --containers` text, or both.")
    with pytest.raises(dp.DeploymentError, match="^Workloads: the YAML could not be read: bad indentation$"):
        dp.workloads({"yamlError": "bad indentation"}, "")


def test_more_workloads_than_read_at_once_is_refused():
    # MAX_WORKLOADS, 5,000: one more is refused, naming both counts with thousands separators
    many = {"kind": "List", "items": [_workload("Deployment", f"w{i}") for i in range(5001)]}
    with pytest.raises(dp.DeploymentError) as e:
        dp.workloads(many, "")
    assert str(e.value) == "Workloads: 5,001 workloads, more than the 5,000 read at once."
    assert len(dp.workloads(dict(many, items=many["items"][:5000]), "")["workloads"]) == 5000
