"""calculators/deployment.py ``service_points``: for each service you run, the CPU cores used per 1K of load in every
run of your product that reads it, told apart by call model, and yours. Expected values are the guides' printed
figures (table and row named) divided out by hand in the comments."""
from __future__ import annotations

from calculators import deployment as dp

TOP = ("POD NAME CPU(cores) MEMORY(bytes)\n"
       "ocpcf-occnp-ingress-gateway-7d9c5b-x2k1l ingress-gateway 500m 1Gi\n"
       "ocpcf-occnp-ingress-gateway-7d9c5b-p9q8r ingress-gateway 1500m 1Gi\n")


def test_your_service_beside_the_vendors_runs_per_1k(bundle):
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, top=TOP)
    pts = dp.service_points(bundle, res)
    # only the service you run, only Policy's runs (other products print other services)
    assert {p["service"] for p in pts} == {"ingress-gateway"}
    by_run = {p["run"]: p for p in pts}
    assert all(r.startswith("policy-") for r in by_run if r != "yours")
    # yours: 0.5 + 1.5 = 2 cores at 10,000 TPS -> 0.2 per 1K
    assert by_run["yours"] == {"service": "ingress-gateway", "run": "yours", "load": 10000.0, "per_1k": 0.2, "who": "yours"}
    # Policy 3.2.8 (PCF SM, your call model), Table 3-152 row 9: 23.737 cores at 43,000 TPS -> 0.552023 -> 0.552
    assert by_run["policy-3-2-8"] == {"service": "ingress-gateway", "run": "policy-3-2-8", "load": 43000.0,
                                      "per_1k": 0.552, "who": "your call model's runs"}
    # Policy 3.2.2 (PCF AM/UE, another call model), Table 3-83 row 6: 55 % of its CPU request; Table 3-81 row Ingress
    # Gateway: 5 cores a pod, Max Replicas 8 -> 0.55 x 5 x 8 = 22 cores at 50,000 TPS -> 0.44 per 1K
    assert by_run["policy-3-2-2"] == {"service": "ingress-gateway", "run": "policy-3-2-2", "load": 50000.0,
                                      "per_1k": 0.44, "who": "other runs"}


def test_without_kubectl_top_only_the_vendors_points(bundle):
    obj = ('{"kind": "Deployment", "metadata": {"name": "ocpcf-occnp-ingress-gateway", "namespace": "pcf"}, "spec": '
           '{"replicas": 1, "template": {"spec": {"containers": [{"name": "ingress-gateway", "resources": {"requests": '
           '{"cpu": "4"}}}]}}}}')
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=obj)
    pts = dp.service_points(bundle, res)
    # no use read: no point of yours; the vendor's Policy 3.2.8 point is still there (0.552 per 1K, as above)
    assert [p for p in pts if p["who"] == "yours"] == []
    assert next(p for p in pts if p["run"] == "policy-3-2-8")["per_1k"] == 0.552


def test_a_run_of_another_product_is_not_plotted(bundle):
    # made up: Policy 3.2.8 relabelled a BSF run. It still prints ingress-gateway's use, but it is no longer a run of
    # your product, so it has no point beside yours (Policy 3.2.2's 0.44 per 1K, worked above, still has one)
    b2 = dict(bundle, scenarios=[dict(s, doc="bsf") if s["id"] == "policy-3-2-8" else s for s in bundle["scenarios"]])
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, top=TOP)
    runs_plotted = {p["run"] for p in dp.service_points(b2, res)}
    assert "policy-3-2-8" not in runs_plotted and {"policy-3-2-2", "yours"} <= runs_plotted
