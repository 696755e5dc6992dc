"""ASM overhead calculator (calculators/asm.py): what it offers and computes, from named rows of the Policy and BSF
guides, called directly (not through the page or a session fixture)."""
from __future__ import annotations

import pytest

from calculators import asm


def test_scenarios_not_offered_say_why(bundle):
    """Policy 3.2.1 is titled '... and ASM enabled.' (Table 3-62 'ASM | Enable') yet its resource tables print no
    istio-proxy row; Policy 3.1.5 is 'Non-ASM' (Table 3-45 'ASM | Disable') yet Table 3-49 prints UDR istio-proxy
    containers. Neither can stand on either side of a comparison, and the page says why in the guide's words."""
    why = {x["id"]: x["reason"] for x in asm.not_offered(bundle)}
    assert why == {
        "policy-3-1-5": "policy-3-1-5 is ASM-off in the guide (asm 'disabled'), but its resource tables print istio-proxy "
                        "sidecars (Table 3-49), so it is not a clean ASM-off run; choose another ASM-off scenario.",
        "policy-3-2-1": "policy-3-2-1 runs ASM (asm 'enabled' in the guide), but its resource tables print no sidecar, so "
                        "its sidecar cost is unknown; choose an ASM-off scenario.",
    }


def test_differences_list_each_fact_of_both_runs(bundle):
    """bsf-3-3 (ASM on) against bsf-3-1 (ASM off): the call mixes as the guide prints them ('8.43K nbsf traffic and
    54.7K Rx traffic' against '14.4K nBSF + 7.8K Rx') differ; both are the BSF deployment mode, so that row does not."""
    d = {x["what"]: x for x in asm.differences(bundle, "bsf-3-3", "bsf-3-1")}
    assert d["Call mix"] == {"what": "Call mix", "on": "8.43K nbsf traffic and 54.7K Rx traffic",
                             "off": "14.4K nBSF + 7.8K Rx", "differs": True}
    assert d["Deployment mode"] == {"what": "Deployment mode", "on": "BSF", "off": "BSF", "differs": False}
    # bsf-3-1 is the '22K TPS, 4-site setup': 4 sites provisioned; bsf-3-3's facts state none
    assert d["Sites provisioned"] == {"what": "Sites provisioned", "on": None, "off": 4, "differs": True}


def test_observed_share_from_percent_of_the_request(bundle):
    """Policy 3.2.5 at Site1, where the guide prints utilization as percentages (Table 3-119) and the requests in
    Table 3-115. AM Service (row 9: 12 replicas, app 6 cores, istio-proxy 3 cores per pod): app 26.9 % x 12 x 6 =
    19.368 cores, sidecar 24.62 % x 12 x 3 = 8.8632 cores: 8.8632 / 28.2312 = 31.395 % of the service's observed CPU.
    Config Server (row 4: 2 replicas, app request 2 cores and limit 4, istio-proxy 2): the percentages are of the
    request (the basis is not stated as limit): app 7.51 % x 2 x 2 = 0.3004, sidecar 11.3 % x 2 x 2 = 0.452:
    0.452 / 0.7524 = 60.074 % (of the limit it would read 0.452 / 1.0528 = 42.9 %)."""
    share = {v["service"]: v["observed_cpu_share"] for v in asm.overhead(bundle, "policy-3-2-5")["services"]}
    assert share["am-service"] == pytest.approx(8.8632 / (19.368 + 8.8632) * 100)
    assert share["config-server"] == pytest.approx(0.452 / (0.3004 + 0.452) * 100)


def test_without_utilization_rows_no_observed_memory(bundle):
    """A bundle without ``util_rows`` (where the memory readings live) still gives BSF 3.2's observed CPU share
    (Tables 3-18/3-19 print cores: 32.765 of 100.04) and no observed memory share, instead of failing."""
    obs = asm.overhead(dict(bundle, util_rows=None), "bsf-3-2")["observed"]
    assert "memory" not in obs and obs["cpu"]["share"] == pytest.approx(32.765 / 100.04 * 100)


def test_observed_share_names_the_excluded_rows_of_its_site(bundle):
    """Made up: BSF 3.2's flagged Table 3-18 row 4 (CM Service app, erratum bsf-E024, printed for Site2) moved to
    Site1, the site the observed share is read at: the CPU share says it left that row out."""
    raw = bundle["excluded_rows"]
    cols = raw["cols"]
    moved = next(r for r in raw["rows"] if r[0] == "bsf-3-2" and r[cols.index("metric")] == "cpu"
                 and r[cols.index("site")] == "site2")
    moved = [("site1" if c == "site" else v) for c, v in zip(cols, moved)]
    made_up = dict(bundle, excluded_rows={"cols": cols, "rows": raw["rows"] + [moved]})
    obs = asm.overhead(made_up, "bsf-3-2")["observed"]
    assert obs["cpu"]["partial"] == ["Table 3-18 row 4 (CM Service, app)"]
    assert asm.overhead(bundle, "bsf-3-2")["observed"]["cpu"]["partial"] == []


def test_a_scenario_whose_asm_state_is_not_stated_is_not_offered(bundle):
    """Made up: bsf-3-1's ASM state blanked to 'not stated' (the guide states 'disabled'): it is neither an ASM-on nor
    an ASM-off choice, and the page says the guide does not say whether ASM runs in it."""
    scenarios = [dict(s, asm="not stated") if s["id"] == "bsf-3-1" else s for s in bundle["scenarios"]]
    why = {x["id"]: x["reason"] for x in asm.not_offered(dict(bundle, scenarios=scenarios))}
    assert why["bsf-3-1"] == ("the guide does not say whether ASM runs in bsf-3-1 (asm 'not stated'); choose a scenario "
                              "the guide states as ASM-off.")


def test_observed_share_of_the_limit_where_the_guide_says_so(bundle):
    """Made up: Policy 3.2.5's Config Server app reading at Site1 (Table 3-119 row 8, 7.51 %) marked as a percent of the
    limit: the app then used 7.51 % x 2 replicas x its 4-core limit (Table 3-115 row 4) = 0.6008 cores, its sidecar
    11.3 % x 2 x 2 = 0.452: 0.452 / 1.0528 = 42.93 % (of the request it is 60.07 %)."""
    util = [dict(u, percent_basis="limit") if (u["scenario"], u["table_id"], u["row"], u["site"], u["metric"]) ==
            ("policy-3-2-5", "3-119", 8, "site1", "cpu") else u for u in bundle["utilization"]]
    share = {v["service"]: v["observed_cpu_share"]
             for v in asm.overhead(dict(bundle, utilization=util), "policy-3-2-5")["services"]}
    assert share["config-server"] == pytest.approx(0.452 / (0.6008 + 0.452) * 100)


def test_site1_is_read_when_the_scenario_names_no_traffic_site(bundle):
    """Made up: BSF 3.2 without its list of sites carrying traffic: the observed share is read at site1, as the
    guide's Tables 3-18/3-19 print it there (32.765 of 100.04 cores)."""
    scenarios = [{k: v for k, v in s.items() if k != "sites_with_traffic"} if s["id"] == "bsf-3-2" else s
                 for s in bundle["scenarios"]]
    obs = asm.overhead(dict(bundle, scenarios=scenarios), "bsf-3-2")["observed"]
    assert obs["cpu"]["site"] == "site1" and obs["cpu"]["share"] == pytest.approx(32.765 / 100.04 * 100)


def test_a_sidecar_printed_at_zero_percent_is_a_share_of_zero_not_missing(bundle):
    """Made up from Policy 3.2.5 at Site1 (Table 3-119): Config Server's istio-proxy reading (row 7, 11.3 %) printed as
    0.00 % instead, its app at 7.51 %: the sidecar's share of the service's observed CPU is 0 / (0 + 0.3004) = 0 %,
    measured, not missing (a printed 0.00 % is a reading: Table 3-120 row 8 prints ndbmysqld's sidecar so)."""
    util = [dict(u, observed_percent=0.0) if (u["scenario"], u["service"], u["container"], u["site"], u["metric"]) ==
            ("policy-3-2-5", "config-server", "istio-proxy", "site1", "cpu") else u for u in bundle["utilization"]]
    assert sum(1 for u in util if u["service"] == "config-server" and u.get("observed_percent") == 0.0) == 1
    share = {v["service"]: v["observed_cpu_share"] for v in asm.overhead(dict(bundle, utilization=util), "policy-3-2-5")["services"]}
    assert share["config-server"] == 0.0


def test_a_service_whose_only_counted_reading_is_its_sidecar_has_no_share(bundle):
    """Made up from Policy 3.2.5 at Site1 (Table 3-119): Config Server's app reading (row 8, 7.51 %) removed, its
    istio-proxy reading (row 7, 11.3 %) kept: the sidecar is all that was counted, so its share of the service is not
    known (None), not 100 %."""
    util = [u for u in bundle["utilization"] if (u["scenario"], u["service"], u["container"], u["site"], u["metric"]) !=
            ("policy-3-2-5", "config-server", "app", "site1", "cpu")]
    assert len(util) == len(bundle["utilization"]) - 1
    share = {v["service"]: v["observed_cpu_share"] for v in asm.overhead(dict(bundle, utilization=util), "policy-3-2-5")["services"]}
    assert share["config-server"] is None
