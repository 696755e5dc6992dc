"""calculators/deployment.py ``compute``: the totals of your matched services beside the totals of every workload read
(unmatched ones included, the ones your mapping leaves out excluded), and the services you can map a workload to.
Every expected value is worked out by hand from the text pasted in the test."""
from __future__ import annotations

import json
from fractions import Fraction

from calculators import deployment as dp


def _deployment(name, replicas, container, cpu, memory):
    return {"kind": "Deployment", "metadata": {"name": name, "namespace": "p"},
            "spec": {"replicas": replicas, "template": {"spec": {"containers": [
                {"name": container, "resources": {"requests": {"cpu": cpu, "memory": memory}}}]}}}}


OBJECTS = json.dumps({"kind": "List", "items": [
    _deployment("ocpcf-pcf-smservice", 2, "sm", "2", "4Gi"),            # matched: SM Service (a name the guide prints)
    _deployment("my-log-shipper", 1, "shipper", "500m", "1Gi"),         # matched nowhere
    _deployment("ocpcf-occnp-ingress-gateway", 3, "ingress-gateway", "4", "6Gi")]})  # left out by the mapping below
TOP = ("NAMESPACE POD NAME CPU(cores) MEMORY(bytes)\n"
       "p ocpcf-pcf-smservice-7d9c5b6f4-x2k1l sm 1500m 2Gi\n"
       "p ocpcf-pcf-smservice-7d9c5b6f4-p9q8r sm 500m 1Gi\n"
       "p my-log-shipper-7d9c5b6f4-q8r7t shipper 250m 512Mi\n"
       "p ocpcf-occnp-ingress-gateway-7d9c5b6f4-z2z2z ingress-gateway 3 3Gi\n")
MAPPING = {"p/ocpcf-occnp-ingress-gateway": ""}


def test_totals_of_every_workload_read_beside_the_matched_services(bundle):
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=OBJECTS, top=TOP, mapping=MAPPING)
    assert [w["key"] for w in res["unmatched"]] == ["p/my-log-shipper"]
    assert [w["key"] for w in res["left_out"]] == ["p/ocpcf-occnp-ingress-gateway"]
    yours = res["totals"]["yours"]
    # matched (SM Service alone): 2 pods x 2 cores = 4 cores, 2 x 4 GiB = 8 GiB requested; used 1.5 + 0.5 = 2 cores,
    # 2 + 1 = 3 GiB; per 1K of 10,000 TPS: 0.4 cores, 0.8 GiB requested, 0.2 cores and 0.3 GiB used
    assert (yours["cpu_request"], yours["mem_request"], yours["cpu_used"], yours["mem_used"]) == (4, 8, 2, 3)
    assert yours["per_1k"] == {"cpu_request": Fraction(2, 5), "mem_request": Fraction(4, 5),
                               "cpu_used": Fraction(1, 5), "mem_used": Fraction(3, 10)}
    # every workload but the one left out: SM Service and the log shipper (1 pod x 500m, 1 GiB; used 250m, 512Mi):
    # 4 + 0.5 = 4.5 cores and 8 + 1 = 9 GiB requested, 2 + 0.25 = 2.25 cores and 3 + 0.5 = 3.5 GiB used. The
    # ingress gateway left out (3 x 4 cores, its 3 cores used) counts in neither
    assert yours["every"] == {"cpu_request": Fraction(9, 2), "mem_request": Fraction(9),
                              "cpu_used": Fraction(9, 4), "mem_used": Fraction(7, 2)}


def test_a_service_printed_without_a_display_name_is_offered_and_shown_by_its_own_name(bundle):
    # the registry's record of SM Service with its display name blanked (made up: every service the guides print has
    # one): the mapping choices and the service's row fall back to the service's own name, "sm-service"
    names = bundle["deployment_names"]
    blanked = [dict(s, display_name=None) if (s["doc"], s["service"]) == ("policy", "sm-service") else s
               for s in names["services"]]
    b2 = dict(bundle, deployment_names=dict(names, services=blanked))
    res = dp.compute(b2, doc="policy", call_model="pcf-sm", load=10000, objects=OBJECTS, top=TOP, mapping=MAPPING)
    choices = {c["service"]: c["display_name"] for c in res["choices"]}
    assert choices["sm-service"] == "sm-service"
    # every Policy service of the registry is offered once, and no other product's
    assert len(res["choices"]) == len([s for s in names["services"] if s["doc"] == "policy"]) == len(choices)
    (row,) = res["services"]
    assert (row["service"], row["display_name"]) == ("sm-service", "sm-service")
    # with the registry as curated (data/policy/services.yaml: sm-service, display_name SM Service) it keeps that name
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=OBJECTS, top=TOP, mapping=MAPPING)
    assert {c["service"]: c["display_name"] for c in res["choices"]}["sm-service"] == "SM Service"
    assert res["services"][0]["display_name"] == "SM Service"
