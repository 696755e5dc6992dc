"""calculators/scenario.py: the three facts read from one scenario record (ASM on, sites carrying traffic, the
benchmark's total load), on the guides' own scenarios and on hand-made records for the edge cases.

Expected values are the guides' (table and row named, as curated in data/<doc>/scenarios.yaml) or hand arithmetic."""
from __future__ import annotations

import pytest

from calculators import scenario


def _scenario(bundle, sid: str) -> dict:
    return next(s for s in bundle["scenarios"] if s["id"] == sid)


@pytest.mark.parametrize("sid,on", [
    ("bsf-3-1", False),       # BSF 3.1, Table 3-1: ASM disabled
    ("bsf-3-2", True),        # BSF 3.2 "(with ASM)": enabled
    ("policy-3-2-5", True),   # Policy 3.2.5: some services with sidecars, curated as partial
    ("policy-3-1-1", False),  # Policy 3.1.1: disabled
])
def test_asm_on_of_the_guides_scenarios(bundle, sid, on):
    assert scenario.asm_on(_scenario(bundle, sid)) is on


@pytest.mark.parametrize("asm,on", [("enabled", True), ("partial", True), ("disabled", False), ("unknown", False),
                                    ("not_applicable", False), (None, False)])
def test_asm_on_of_every_schema_value(asm, on):
    # data/schemas/scenarios.schema.json: enabled, disabled, partial, unknown, not_applicable; a record without the key
    assert scenario.asm_on({"asm": asm} if asm is not None else {}) is on


def test_traffic_sites_and_benchmark_load_of_the_guides_scenarios(bundle):
    # Policy 3.1.1, Table 3-1 row 'Call Rate': 7,500 TPS per site on site1..site4 = 30,000 TPS in all
    s = _scenario(bundle, "policy-3-1-1")
    assert scenario.traffic_sites(s) == 4
    assert scenario.benchmark_load(s) == 30000
    # Policy 3.3.2: 15,000 TPS per site on site1 and site3 = 30,000
    s = _scenario(bundle, "policy-3-3-2")
    assert scenario.traffic_sites(s) == 2 and scenario.benchmark_load(s) == 30000
    # BSF 3.1, Table 3-1 row 'Call Rate': 22K TPS on site1 alone
    s = _scenario(bundle, "bsf-3-1")
    assert scenario.traffic_sites(s) == 1 and scenario.benchmark_load(s) == 22000


def test_a_guide_naming_no_site_benchmarked_one():
    # no site named, an empty list: one site carried the traffic, and the total is the load per site x 1
    assert scenario.traffic_sites({}) == 1
    assert scenario.traffic_sites({"sites_with_traffic": []}) == 1
    assert scenario.traffic_sites({"sites_with_traffic": None}) == 1
    assert scenario.traffic_sites({"sites_with_traffic": ["a", "b", "c"]}) == 3
    assert scenario.benchmark_load({"load_per_site": 250, "sites_with_traffic": []}) == 250
    assert scenario.benchmark_load({"load_per_site": 250, "sites_with_traffic": ["a", "b"]}) == 500


@pytest.mark.parametrize("per_site", [None, ""])
def test_no_load_stated_is_none_not_zero(per_site):
    assert scenario.benchmark_load({"load_per_site": per_site, "sites_with_traffic": ["a"]}) is None
    assert scenario.benchmark_load({"sites_with_traffic": ["a"]}) is None
    # a stated 0 is a load (0 x 2 sites), not "no load"
    assert scenario.benchmark_load({"load_per_site": 0, "sites_with_traffic": ["a", "b"]}) == 0
