"""calculators/deployment.py ``comparable_runs`` and ``as_run``: what each of the vendor's comparable runs says about
itself (its section, the tables read, the services printed without a memory request) and the run your own deployment
becomes, field by field. Expected values are the guides' (section, table and row named) or written out by hand."""
from __future__ import annotations

import json

from calculators import deployment as dp


def _run(runs_, sid):
    return next(r for r in runs_ if r["id"] == sid)


def test_a_comparable_run_names_its_section_tables_and_what_it_prints_no_memory_request_for(bundle):
    r = _run(dp.comparable_runs(bundle, "policy", "pcf-sm", 43000), "policy-3-2-8")
    # Policy 3.2.8: resources in Tables 3-150 (site1's services) and 3-151 (cnDBTier), use in Tables 3-152 and 3-153
    assert (r["section"], r["tables"]) == ("3.2.8", ["3-150", "3-151", "3-152", "3-153"])
    # Table 3-151 row ndbmysqld prints a memory limit (154Gi) and then the replicas, its memory request cell missing:
    # the one service with no memory request to total
    assert r["mem_request_missing"] == ["ndbmysqld"]


def test_the_tables_read_include_those_of_memory_readings_alone(bundle):
    # made up: Policy 3.2.8 without its CPU readings. Tables 3-152 and 3-153 still print its memory use, so they are
    # still read (and every service is without a CPU reading)
    b2 = dict(bundle, utilization=[u for u in bundle["utilization"]
                                   if not (u["scenario"] == "policy-3-2-8" and u["metric"] == "cpu")])
    r = _run(dp.comparable_runs(b2, "policy", "pcf-sm", 43000), "policy-3-2-8")
    assert r["tables"] == ["3-150", "3-151", "3-152", "3-153"]
    assert r["cpu_used"] == 0 and "ingress-gateway" in r["without_reading"]


def test_your_deployment_as_a_run_field_by_field(bundle):
    obj = {"kind": "Deployment", "metadata": {"name": "ocpcf-occnp-ingress-gateway", "namespace": "pcf"},
           "spec": {"replicas": 2, "template": {"spec": {"containers": [
               {"name": "ingress-gateway", "resources": {"requests": {"cpu": "4", "memory": "6Gi"}}}]}}}}
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=json.dumps(obj))
    scen = next(s for s in dp.as_run(bundle, res)["scenarios"] if s["id"] == "yours")
    # your paste is one site at the load you observed, with no guide section, release or printed load; no
    # istio-proxy runs: ASM disabled; the call model as chosen (data/policy/scenarios.yaml: pcf-sm, "PCF SM")
    assert scen == {"id": "yours", "doc": "policy", "section": "", "title": "Your deployment",
                    "short_title": "Your deployment", "release": None, "load_total": 10000.0, "load_per_site": 10000.0,
                    "load_unit": "TPS", "load_raw": None, "sites_provisioned": 1, "sites_with_traffic": ["site1"],
                    "asm": "disabled", "deployment_mode": None, "call_model": "pcf-sm", "call_model_name": "PCF SM",
                    "state_counts": []}
