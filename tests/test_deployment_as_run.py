"""calculators/deployment.py ``as_run``: your deployment as one more run in the bundle's own shape, which the footprint
calculator then sizes. On the small hand-written fixture (tests/fixtures/deployment/get-small.json, top-small.txt),
Policy PCF SM at 10,000 TPS; every figure below is read off the fixture by hand:

* ingress-gateway, 3 replicas: its app container requests and limits 4 cores and 6Gi; istio-proxy requests 250m and
  512Mi (0.5 GiB), limits 2 cores and 1G (10^9 / 2^30 = 0.9313225746154785 GiB). kubectl top, two pods: the app used
  2500m + 1.5 = 4 cores and 3Gi + 1G = 3.9313225746154785 GiB; istio-proxy 150m and 200Mi (0.1953125 GiB). Its HPA
  targets 80 % CPU (the app's row; a sidecar's is not the HPA's);
* ndbmtd, 4 replicas: mysqlndbcluster sets limits only, 1.5 cores and 128974848 B (0.1201171875 GiB), taken as its
  requests; db-backup-executor-svc sets nothing. kubectl top: ndbmtd-0's 100u (0.0001 cores), 128974848 B.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from calculators import deployment as dp

FIX = Path(__file__).parent / "fixtures" / "deployment"


@pytest.fixture
def small(bundle):
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=(FIX / "get-small.json").read_text(),
                     top=(FIX / "top-small.txt").read_text())
    return dp.as_run(bundle, res)


def _yours(rows):
    return {(r["service"], r["container"]): r for r in rows if r["scenario"] == dp.YOURS}


def test_your_run_is_a_scenario_of_the_bundles_shape(bundle, small):
    scen = next(s for s in small["scenarios"] if s["id"] == "yours")
    assert set(scen) == set(bundle["scenarios"][0])  # the same fields as every run the guides print
    assert (scen["doc"], scen["call_model"], scen["load_per_site"], scen["load_total"], scen["load_unit"]) == \
        ("policy", "pcf-sm", 10000.0, 10000.0, "TPS")
    assert scen["sites_with_traffic"] == ["site1"] and scen["sites_provisioned"] == 1
    assert scen["asm"] == "enabled"  # istio-proxy runs beside ingress-gateway
    assert scen["state_counts"] == []
    # the bundle itself is left as it was
    assert "yours" not in {s["id"] for s in bundle["scenarios"]}
    assert len(small["scenarios"]) == len(bundle["scenarios"]) + 1


def test_your_resource_rows_by_hand(bundle, small):
    rows = _yours(small["resources"])
    assert set(rows) == {("ingress-gateway", "ingress-gateway"), ("ingress-gateway", "istio-proxy"),
                         ("ndbmtd", "mysqlndbcluster"), ("ndbmtd", "db-backup-executor-svc")}
    app = rows[("ingress-gateway", "ingress-gateway")]
    assert (app["replicas"], app["cpu_request_cores"], app["cpu_limit_cores"], app["mem_request_gib"], app["mem_limit_gib"]) \
        == (3, 4.0, 4.0, 6.0, 6.0)
    assert app["is_sidecar"] is False and app["table_id"] == "yours" and app["row_label"] == "pcf/ocpcf-occnp-ingress-gateway"
    proxy = rows[("ingress-gateway", "istio-proxy")]
    assert (proxy["replicas"], proxy["cpu_request_cores"], proxy["cpu_limit_cores"], proxy["mem_request_gib"]) == (3, 0.25, 2.0, 0.5)
    assert proxy["mem_limit_gib"] == pytest.approx(10 ** 9 / 2 ** 30) and proxy["is_sidecar"] is True
    db = rows[("ndbmtd", "mysqlndbcluster")]
    assert (db["replicas"], db["cpu_request_cores"], db["mem_request_gib"]) == (4, 1.5, 0.1201171875)
    backup = rows[("ndbmtd", "db-backup-executor-svc")]
    assert (backup["replicas"], backup["cpu_request_cores"], backup["mem_request_gib"]) == (4, None, None)
    assert sorted(r["row"] for r in rows.values()) == [1, 2, 3, 4]
    # rows of the run's whole shape: the columns of every resource row the guides give
    assert set(app) == set(bundle["resources"][0])


def test_your_utilization_rows_by_hand(bundle, small):
    util = [u for u in small["utilization"] if u["scenario"] == dp.YOURS]
    got = {(u["service"], u["container"], u["metric"]): (u["observed_abs"], u["abs_unit"], u["target_percent"]) for u in util}
    assert got == {
        ("ingress-gateway", "ingress-gateway", "cpu"): (4.0, "cores", 80),
        ("ingress-gateway", "ingress-gateway", "memory"): (pytest.approx(3 + 10 ** 9 / 2 ** 30), "GiB", None),
        ("ingress-gateway", "istio-proxy", "cpu"): (pytest.approx(0.15), "cores", None),
        ("ingress-gateway", "istio-proxy", "memory"): (0.1953125, "GiB", None),
        ("ndbmtd", "mysqlndbcluster", "cpu"): (pytest.approx(0.0001), "cores", None),
        ("ndbmtd", "mysqlndbcluster", "memory"): (0.1201171875, "GiB", None)}
    assert {u["status"] for u in util} == {"ok"} and {u["site"] for u in util} == {"site1"}
    assert set(util[0]) == set(bundle["utilization"][0])


def test_workloads_of_one_service_are_summed_and_their_requests_weighted(bundle):
    # two Deployments of ingress-gateway: 1 replica requesting 1 core, 3 replicas requesting 2 cores: 4 replicas,
    # (1 x 1 + 3 x 2) / 4 = 1.75 cores per pod, the replica-weighted mean
    import json
    obj = {"kind": "List", "items": [
        {"kind": "Deployment", "metadata": {"name": f"{rel}-occnp-ingress-gateway", "namespace": "p"},
         "spec": {"replicas": n, "template": {"spec": {"containers": [
             {"name": "ingress-gateway", "resources": {"requests": {"cpu": cpu}}}]}}}}
        for rel, n, cpu in (("a", 1, "1"), ("b", 3, "2"))]}
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=json.dumps(obj))
    row = _yours(dp.as_run(bundle, res)["resources"])[("ingress-gateway", "ingress-gateway")]
    assert row["replicas"] == 4 and row["cpu_request_cores"] == 1.75
    assert next(s for s in dp.as_run(bundle, res)["scenarios"] if s["id"] == "yours")["asm"] == "disabled"
