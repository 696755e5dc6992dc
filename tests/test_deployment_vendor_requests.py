"""calculators/deployment.py ``vendor_services``: the vendor's requests per service where the guide prints replicas as a
min-max range (sized from the max end, as ``runs.base_replicas`` documents) and where it prints one memory figure per
pod instead of a request column (taken as the request, as ``runs.pod_request`` takes the one CPU figure). Expected
values are the guides' printed figures (table and row named), multiplied out by hand in the comments."""
from __future__ import annotations

from fractions import Fraction

from calculators import deployment as dp


def test_replicas_printed_as_a_range_are_sized_from_the_max_end(bundle):
    # Policy 3.2.2, Table 3-81 "Policy Microservices Resources", row Egress Gateway: CPU request 4, memory request 6 Gi
    # per pod, Min Replicas 2, Max Replicas 27, Istio CPU 2 and memory 2 (request/limit). No replicas column: the pod
    # count is the max end, 27; CPU requested 27 x (4 + 2) = 162 cores, memory 27 x (6 + 2) = 216 GiB
    eg = dp.vendor_services(bundle, "policy-3-2-2")["egress-gateway"]
    assert (eg["replicas"], eg["range"]) == (27, True)
    assert eg["cpu_request"] == 162
    assert eg["mem_request"] == 216
    # the same table's Ingress Gateway: 5 + 2.5 cores and 6 + 2 Gi per pod, Max Replicas 8: 60 cores, 64 GiB
    ig = dp.vendor_services(bundle, "policy-3-2-2")["ingress-gateway"]
    assert (ig["replicas"], ig["cpu_request"], ig["mem_request"], ig["range"]) == (8, 60, 64, True)


def test_one_memory_figure_per_pod_is_taken_as_its_request(bundle):
    # NEF 3.2.1.1.1.1 (Monitoring Event scenario 1), Table 3-1 "Deployment Configuration", row NEF Ingress Gateway:
    # Replica 4, CPU 4, Memory 4Gi (one figure each, no request/limit columns): 4 x 4 = 16 cores and 16 GiB requested
    ig = dp.vendor_services(bundle, "nef-me-1")["NEF Ingress Gateway"]
    assert (ig["replicas"], ig["cpu_request"], ig["mem_request"], ig["range"]) == (4, 16, 16, False)
    # row performance: Replica 2, CPU 200m, Memory 1Gi: 0.4 cores, 2 GiB
    perf = dp.vendor_services(bundle, "nef-me-1")["performance"]
    assert (perf["replicas"], perf["cpu_request"], perf["mem_request"]) == (2, Fraction(2, 5), 2)
