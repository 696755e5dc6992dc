"""DSR calculator: the chart's series and load rule, and which runs the held-out points pair, on the guide's runs and on
copies of them with one printed figure left out (a run without a CPU peak, a run of another deployment mode). Expected
values are the guide's printed cells (table and row named) or hand arithmetic in each test's comment; each test calls
the calculator itself, so a mutation run credits the test to the code it checks."""
from __future__ import annotations

import copy

from calculators import dsr


def _with_run(bundle: dict, run_id: str, change) -> dict:
    """A copy of ``bundle`` whose run ``run_id`` is changed by ``change(run)`` (the other runs as they are)."""
    runs = []
    for r in bundle["dsr_runs"]:
        if r["id"] == run_id:
            r = copy.deepcopy(r)
            change(r)
        runs.append(r)
    return dict(bundle, dsr_runs=runs)


def test_chart_of_many_sites_names_one_sites_load(bundle):
    """Table 3-1 row 1 (Relay, 12 vCPU; 18,000 MPS per DA-MP at 19 % CPU): 1,000,000 MPS with 1 spare takes ceil(1000000
    / (18000 x 15)) = 4 DSR sites of 250,000 MPS: the chart's rule is one site's 250,000 MPS, and says so."""
    chart = dsr.result_chart(dsr.compute(dict(bundle, sizing_bands={}), "dsr-relay-12vcpu", 1000000, spare=1))
    rule = chart["layer"][-1]["data"]["values"]
    assert rule == [{"target": 250000.0,
                     "label": "one DSR site's load 250,000 MPS (the 1,000,000 MPS target over 4 DSR sites)"}]
    names = {v["series"] for v in chart["layer"][0]["data"]["values"]}
    assert "at the measured CPU peak (19%)" in names


def test_chart_of_a_run_without_a_cpu_peak_names_the_measured_rate(bundle):
    """Table 3-1 row 1 with its CPU peak left out: the rate's series is 'at the measured rate' (no CPU to name)."""
    made_up = _with_run(bundle, "dsr-relay-12vcpu", lambda r: r["metrics"].pop("cpu_peak"))
    chart = dsr.result_chart(dsr.compute(made_up, "dsr-relay-12vcpu", 288000))
    names = {v["series"] for v in chart["layer"][0]["data"]["values"]}
    assert "at the measured rate" in names and not any("CPU peak" in n for n in names)


def test_a_run_without_a_cpu_peak_is_skipped_not_the_end_of_the_pairs(bundle):
    """The held-out points predict a run's CPU peak: a run printing none (Table 3-1 row 1 with its CPU peak left out,
    first of the guide's runs) is left out, and every later run is still paired. The relay runs pair with no run (they
    differ in DA-MP Profile or vCPU), so the points are those of the guide's runs as printed."""
    made_up = _with_run(bundle, "dsr-relay-12vcpu", lambda r: r["metrics"].pop("cpu_peak"))
    points = dsr.backtest_points(made_up, "dsr")
    assert points and points == dsr.backtest_points(bundle, "dsr")
    # likewise leaving the first run out by name
    assert dsr.backtest_points(bundle, "dsr", excluded={"dsr-relay-12vcpu"}) == points


def test_held_out_points_pair_only_runs_of_one_deployment_mode(bundle):
    """Table 3-15 rows 7 and 8 (DSA All Stateful; All Stateful + All stateless) pair (one model, mode, 12 vCPU,
    30K_MPS). Given another deployment mode, row 8 pairs with none of the DSA runs."""
    made_up = _with_run(bundle, "dsr-dsa-all-stateful-all-stateless",
                        lambda r: r.update(deployment_mode="DA-MP another mode"))
    pairs = {(p["from"], p["to"]) for p in dsr.backtest_points(bundle, "dsr")}
    assert ("dsr-dsa-all-stateful", "dsr-dsa-all-stateful-all-stateless") in pairs
    moved = dsr.backtest_points(made_up, "dsr")
    assert moved and not [p for p in moved if "dsr-dsa-all-stateful-all-stateless" in (p["from"], p["to"])]
