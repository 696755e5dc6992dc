"""DSR calculator: the rows a vSTP mated-pair result shows, the report's Method sheet, and the held-out points of the
DSR rule (``dsr.backtest_points``). Values are the guide's printed cells (table and row named) or hand arithmetic in
each test's comment; each test calls the calculator itself, so a mutation run credits the test to the code it checks."""
from __future__ import annotations

import csv
import io

from calculators import dsr, report


def test_vstp_mated_pair_rows_name_one_pair_of_two_sites(bundle):
    """Table 3-10 row 9 (vEIR, 8 vCPU): 5K/MP per SS7-MP. No per-site limit for SS7-MPs, so one mated pair carries the
    10,000 MPS target; each site of the pair carries the pair's whole 10,000 MPS with its mate down: ceil(10000 /
    5000) = 2 SS7-MPs per site, 2 sites, 2 x 2 = 4 SS7-MPs, 4 x 8 = 32 vCPU."""
    res = dsr.compute(bundle, "dsr-vstp-veir", 10000, redundancy="mated-pair")
    assert (res["units"], res["dsrs"], res["needed"], res["total"], res["vcpu_total"]) == (1, 2, 2, 4, 32)
    lines = dsr.result_csv(res).splitlines()
    assert "dsr-vstp-veir,result,mated_pairs,Mated pairs,1,count,one: no per-site limit applied" in lines
    assert "dsr-vstp-veir,result,dsr_sites,DSR sites,2,count,1 mated pair x 2" in lines
    assert "dsr-vstp-veir,result,total,SS7-MPs to deploy,4,count,2 per DSR site x 2 DSR sites (1 mated pair)" in lines
    # without redundancy the same row says DSR sites: one site, no limit applied
    plain = dsr.result_csv(dsr.compute(bundle, "dsr-vstp-veir", 10000)).splitlines()
    assert "dsr-vstp-veir,result,dsr_sites,DSR sites,1,count,one: no per-site limit applied" in plain


def test_report_method_sheet_states_each_rule(bundle):
    """The report of Table 3-1 row 1 (Relay, 12 vCPU) for 240,000 MPS with 1 spare: its Method sheet gives the methods,
    the site rule, the redundancy, the spares and the estimate's nature, in that order, in these words."""
    rep = dsr.report_web(bundle, {"scenario": "dsr-relay-12vcpu", "target": "240000", "spare": "1"})
    method = report.sheet_named(rep, "Method")["rows"]
    assert [row[0] for row in method[:5]] == ["Methods", "DSR sites", "Redundancy", "Spares", "Estimate"]
    assert method[0][1] == ("Measured: the per-MP rate as benchmarked (with a CPU ceiling, scaled linearly within the "
                            "CPU range the guide measured for the flavour); engineered: the rate the DA-MP Profile "
                            "names. A DA-MP is never given more than its profile's rated MPS; the method needing more "
                            "MPs is the headline.")
    assert method[3][1] == "1 spare DA-MP(s) per DSR site added (N+k), counted within the site limit."
    assert method[4][1] == "A planning estimate from the vendor's benchmark, not a vendor figure."


def test_held_out_point_between_two_dsa_runs(bundle):
    """Table 3-15 rows 7 and 8 (DSA All Stateful; All Stateful + All stateless; both 12 vCPU, 30K_MPS, one call flow
    model): A = 7.02K MPS per DA-MP at 15 % CPU, B = 5.25K at 14 %. B's CPU predicted from A's: 15 x 5250 / 7020 =
    78750 / 7020 = 11.2179... %; error |11.2179 - 14| / 14 = 19.87 %. One point at the service and one at the whole
    level (one DA-MP is the whole footprint's unit), made by the 'one-run' method of the 'measured-rate' rule."""
    pts = [p for p in dsr.backtest_points(bundle, "dsr")
           if (p["from"], p["to"]) == ("dsr-dsa-all-stateful", "dsr-dsa-all-stateful-all-stateless")]
    assert [p["level"] for p in pts] == ["service", "whole"]
    for p in pts:
        assert (p["doc"], p["method"], p["rule"], p["subject"], p["unit"], p["value_unit"]) == (
            "dsr", "one-run", "measured-rate", "DA-MP CPU peak (12 vCPU)", "MPS per DA-MP", "%")
        assert (p["load_from"], p["load_to"], p["observed_from"], p["observed_to"]) == (7020, 5250, 15, 14)
        assert abs(p["predicted_to"] - 78750 / 7020) < 1e-9 and abs(p["ape"] - 19.8718) < 1e-3
        assert (p["source_from"], p["source_to"]) == ("Table 3-15 row 7; CPU Table 3-15 row 7",
                                                      "Table 3-15 row 8; CPU Table 3-15 row 8")


def test_held_out_points_pair_only_runs_of_one_profile(bundle):
    """Table 3-1 rows 1 and 2 are both 12-vCPU relay runs of the '100% Relay' model, but row 1 ran DA-MP Profile
    30K_MPS and row 2 40K_MPS_FABR (multi-queue): a rate of one profile says nothing of the other's CPU, so no point
    pairs them; row 3 is the only 18-vCPU relay run. No relay run is in any point."""
    pts = dsr.backtest_points(bundle, "dsr")
    relay = {"dsr-relay-12vcpu", "dsr-relay-multiqueue-12vcpu", "dsr-relay-18vcpu"}
    assert [p for p in pts if p["from"] in relay or p["to"] in relay] == []
    assert pts  # the DSA runs of Table 3-15 do pair (test above)


def test_many_sites_without_redundancy_summary_and_rows(bundle):
    """Table 3-1 row 1 (Relay, 12 vCPU): 288,000 MPS / 16 DA-MPs = 18,000 MPS per DA-MP at 19 % CPU, profile 30K_MPS.
    1,000,000 MPS with 1 spare, no redundancy: the sites are counted at the lower rate, 18,000: ceil(1000000 / (18000
    x (16 - 1))) = ceil(3.70) = 4 DSR sites of 250,000 MPS each; measured ceil(250000 / 18000) = 14 DA-MPs, engineered
    ceil(250000 / 30000) = 9: the measured 14 is the headline; 14 + 1 spare = 15 per site, 4 x 15 = 60 DA-MPs,
    60 x 12 = 720 vCPU. (No held-out band: the summary's likely sentence is left out.)"""
    res = dsr.compute(dict(bundle, sizing_bands={}), "dsr-relay-12vcpu", 1000000, spare=1)
    assert (res["units"], res["share"], res["needed"], res["per_dsr"], res["dsrs"], res["total"]) == (4, 250000, 14, 15, 4, 60)
    assert dsr.summary(res) == (
        "60 DA-MPs in 4 DSR sites: 15 per DSR site (14 by the measured method, the more conservative, for its 250,000 "
        "MPS, + 1 spare); 1,000,000 MPS split evenly over the 4 DSR sites; 720 vCPU. At most 16 DA-MPs per DSR site, "
        "spares included. ")
    rows = {r[2]: r for r in csv.reader(io.StringIO(dsr.result_csv(res)))}
    assert rows["dsr_sites"][3:] == ["DSR sites", "4", "count",
                                     "ceil(1,000,000 / (18,000 x (16 - 1 spare))): at most 15 DA-MPs carrying traffic "
                                     "per site, at the more conservative method's 18,000 MPS per DA-MP"]
    assert rows["share"][3:] == ["Traffic per DSR site", "250000", "MPS", "1,000,000 / 4 DSR sites, split evenly"]
    assert rows["per_dsr"][3:] == ["DA-MPs per DSR site", "15", "count", "14 + 1 spare (at most 16)"]
    assert rows["total"][3:] == ["DA-MPs to deploy", "60", "count", "15 per DSR site x 4 DSR sites"]
    # with 1 spare lost each site's 250,000 MPS on 14 DA-MPs: 250000 x 19 / (14 x 18000) = 18.849 %
    assert rows["cpu_after_loss"][3:] == ["Expected CPU per DA-MP with 1 spare(s) lost", "18.849206", "percent",
                                          "250,000 x 19 / (14 x 18,000)"]
