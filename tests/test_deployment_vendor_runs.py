"""calculators/deployment.py: the vendor's runs read as the "Your deployment" page compares them (``vendor_services``),
and the home chart's point of your deployment (``own_points``). Expected values are the guides' (table and row named)
or worked out by hand in the comments."""
from __future__ import annotations

from pathlib import Path

from calculators import deployment as dp

FIX = Path(__file__).parent / "fixtures" / "deployment"


def test_vendor_memory_requested_per_service(bundle):
    sv = dp.vendor_services(bundle, "policy-3-2-8")
    ig = sv["ingress-gateway"]
    # Policy 3.2.8, Table 3-150 row 9: 29 replicas x (6Gi app + 2Gi istio-proxy) = 232 GiB; 29 x (5 + 2.5) = 217.5 cores
    assert ig["replicas"] == 29 and ig["mem_request"] == 232 and ig["cpu_request"] == 217.5
    assert ig["component"] == "app" and ig["range"] is False
    # Table 3-152 row 9: 23.737 cores used (the app container)
    assert float(ig["cpu_used"]) == 23.737


def test_home_point_note_counts_the_containers_without_a_cpu_request(bundle):
    # the small fixture: ndbmtd's db-backup-executor-svc sets no CPU request, one container: the point is a lower bound
    res = dp.compute(bundle, doc="policy", call_model="pcf-sm", load=10000, objects=(FIX / "get-small.json").read_text(),
                     top=(FIX / "top-small.txt").read_text())
    home = dp.own_points(bundle, res)["home"]
    assert home["note"] == "at least: 1 matched container(s) set no CPU request"
    assert home["scenario"] == "Your deployment (Policy, PCF SM)" and home["unit"] == "TPS"
