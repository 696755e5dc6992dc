"""calculators/backtest.py on small made-up runs, every expected value worked out by hand in the comments (never from
the code under test): one comparison's fields, the power choice, NEF-style scenario-wide CPU figures, the runs left out
and why, and the bands the calculators carry. tests/test_backtest.py holds the same rules to the guides' own runs and
to ten made-up runs (``_made_up``, reused here)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from calculators import backtest
from test_backtest import _made_up


def test_call_model_key_by_hand():
    # lower case; en and em dashes as '-'; no space around - : , = + /; one space; trailing '.' and ':' dropped
    assert backtest.call_model_key("  Gx \u2013 Rx :  50 % .") == "gx-rx:50 %"
    assert backtest.call_model_key("A\u2014B / C,  D = E + F:") == "a-b/c,d=e+f"
    assert backtest.call_model_key("Call Model Data.") is None and backtest.call_model_key("") is None
    assert backtest.call_model_key(None) is None and backtest.call_model_key(" . ") is None


def test_cpu_rule_by_hand():
    assert backtest.cpu_rule("stub", "x", "traffic", False) is None and backtest.cpu_rule("app", "x", "test", False) is None
    assert backtest.cpu_rule("app", "x", "management", True) == "load-scaled"  # a sidecar follows its pod's load
    assert [backtest.cpu_rule("cndbtier", s, None, False) for s in
            ("ndbmgmd", "ndbmysqld", "db-replication-svc", "db-backup-manager", "db-monitor-svc", "ndbmtd")] == \
        ["fixed"] * 5 + ["load-scaled"]
    assert backtest.cpu_rule("app", "cm", "management", False) == "fixed"
    assert backtest.cpu_rule("app", "x", "database", False) == "load-scaled"
    assert backtest.cpu_rule("app", "x", None, False) is None


def test_band_says_why_there_is_none():
    assert backtest.band([1.0]) == {"none": "only 1 held-out comparison (a band needs 9)", "comparisons": 1}
    assert backtest.band([]) == {"none": "only 0 held-out comparisons (a band needs 9)", "comparisons": 0}
    # 9 ratios: k = round(1.0) = 1, expected coverage (10 - 2) / 10 = 80 %
    assert backtest.band([0.5, 2, 1, 1, 1, 1, 1, 1, 1.5])["lo"] == 0.5


def test_one_comparison_by_hand():
    """Predicted 20 cores where 25 were printed: |20 - 25| / 25 = 20 %, ratio printed / predicted 25 / 20 = 1.25."""
    p = backtest.point("syn", "one-run", "load-scaled", "m", ["a", "b"], "c", "svc / app", 1000, Fraction(2000), "TPS",
                       10, Fraction(25), Fraction(20), "Table 1 row 2", "Table 3 row 4", "cores", "scaled")
    assert p == {"doc": "syn", "method": "one-run", "level": "service", "rule": "load-scaled", "call_model": "m",
                 "from": "a + b", "to": "c", "subject": "svc / app", "load_from": 1000.0, "load_to": 2000.0,
                 "unit": "TPS", "observed_from": 10.0, "observed_to": 25.0, "predicted_to": 20.0, "value_unit": "cores",
                 "ape": 20.0, "ratio": 1.25, "source_from": "Table 1 row 2", "source_to": "Table 3 row 4", "how": "scaled"}
    zero = backtest.point("syn", "evidence", "fixed", "m", ["a"], "c", "s", None, 1, "", None, 0, 3, "", "", "cores")
    # a printed 0 has no error and no ratio; no load or reading of the source: None
    assert (zero["ape"], zero["ratio"], zero["load_from"], zero["observed_from"], zero["how"]) == (None, None, None, None, "")
    assert backtest.point("syn", "evidence", "fixed", "m", ["a"], "c", "s", None, 1, "", None, 4, 0, "", "", "cores")["ratio"] is None


def _whole(ape, level="whole"):
    return {"level": level, "ape": ape}


def test_select_power_by_hand():
    """Nine whole-footprint errors per power. Proportional: 10 % each (median 10 + p90 10 = 20); 3/4: 5 % each (10);
    1/2: 5 % each (10, a tie: the earlier of POWERS, 3/4, is kept). Service points and printed zeros do not count."""
    extra = [_whole(99, "service"), _whole(None)]
    by = {Fraction(1): [_whole(10)] * 9 + extra, Fraction(3, 4): [_whole(5)] * 9 + extra,
          Fraction(1, 2): [_whole(5)] * 9 + extra}
    got = backtest.select_power(by)
    assert got["power"] == Fraction(3, 4)
    assert got["scores"] == [
        {"power": 1.0, "whole": 9, "median_ape": 10, "p90_ape": 10, "score": 20},
        {"power": 0.75, "whole": 9, "median_ape": 5, "p90_ape": 5, "score": 10},
        {"power": 0.5, "whole": 9, "median_ape": 5, "p90_ape": 5, "score": 10}]
    assert got["why"] == ("load^0.75 predicts the whole footprints best (median + p90 of their held-out errors 10.0 "
                          "against 20.0 proportional)")
    # 1/2 alone best: errors 1..9 % -> median 5 (5th), p90 9 (ceil(8.1) = 9th): 14 against proportional 20
    by[Fraction(1, 2)] = [_whole(e) for e in range(1, 10)]
    by[Fraction(3, 4)] = [_whole(8)] * 9
    got = backtest.select_power(by)
    assert got["power"] == Fraction(1, 2) and got["scores"][2]["score"] == 14 and "load^0.5 predicts" in got["why"]
    # proportional best
    by[Fraction(1)] = [_whole(1)] * 9
    assert backtest.select_power(by)["why"] == "proportional predicts the whole footprints best"
    # eight: kept proportional, whatever the others score
    few = {pw: [_whole(e)] * 8 for pw, e in zip(backtest.POWERS, (50, 1, 1))}
    got = backtest.select_power(few)
    assert got["power"] == 1 and got["why"] == "only 8 whole-footprint comparisons (a choice needs 9): proportional kept"


def _nef():
    """A product 'nef' whose runs print one scenario-wide CPU percentage (bundle key ``scenario_cpu``): n1 10 % at
    1,000 and n2 24 % at 2,000 (API a1; n1 names no load unit: TPS is assumed, n2's is 'req/s'); n3 7 % at 1,000 (API
    a2, alone); n4 (a1) prints no figure."""
    scen = [{"id": i, "doc": "nef", "title": i, "load_per_site": load, "call_model": cm, "sites_with_traffic": []}
            for i, load, cm in (("n1", 1000, "a1"), ("n2", 2000, "a1"), ("n3", 1000, "a2"), ("n4", 3000, "a1"))]
    scen[1]["load_unit"] = "req/s"
    return {"sources": [{"id": "nef"}], "scenarios": scen, "services": [], "resources": [], "utilization": [],
            "scenario_cpu": [{"scenario": "n1", "observed_percent": 10, "table_id": "5-1", "row": 1},
                             {"scenario": "n2", "observed_percent": 24, "table_id": "5-2", "row": 3},
                             {"scenario": "n3", "observed_percent": 7, "table_id": "5-3", "row": 1},
                             {"scenario": "n4", "observed_percent": None, "table_id": "5-4", "row": 1}]}


def test_scenario_cpu_points_by_hand():
    """n1 -> n2: 10 % x 2,000 / 1,000 = 20 % against 24 printed: error 4 / 24 = 16.67 %, ratio 1.2; n2 -> n1: 24 % x
    1/2 = 12 % against 10: error 20 %, ratio 10 / 12. Each for both methods and at both levels: 8 points."""
    pts = backtest._scenario_cpu_points(_nef(), "nef")
    assert len(pts) == 8
    first = pts[0]
    assert first == {"doc": "nef", "method": "evidence", "level": "service", "rule": "scenario-cpu", "call_model": "a1",
                     "from": "n1", "to": "n2", "subject": "whole scenario (CPU %)", "load_from": 1000.0, "load_to": 2000.0,
                     "unit": "TPS", "observed_from": 10.0, "observed_to": 24.0, "predicted_to": 20.0, "value_unit": "%",
                     "ape": pytest.approx(100 / 6), "ratio": pytest.approx(1.2), "source_from": "Table 5-1 row 1",
                     "source_to": "Table 5-2 row 3", "how": ""}
    assert pts[1] == dict(first, level="whole")
    assert [(p["method"], p["level"]) for p in pts[:4]] == [("evidence", "service"), ("evidence", "whole"),
                                                             ("one-run", "service"), ("one-run", "whole")]
    back = pts[4]
    assert (back["from"], back["to"], back["predicted_to"], back["ape"], back["unit"]) == ("n2", "n1", 12.0, 20.0, "req/s")
    assert back["ratio"] == pytest.approx(10 / 12)
    assert backtest._scenario_cpu_points(_nef(), "nef", frozenset({"n1"})) == []
    assert backtest.comparisons(_nef(), "nef") == pts


def test_run_of_a_scenario_cpu_product_by_hand():
    """Two comparisons per method and level (errors 16.67 % and 20 %): nearest-rank median the 1st = 16.67, p90 the
    2nd = 20; two runs. Two ratios give no band; with one held out no band either: coverage None."""
    res = backtest.run(_nef())
    assert res["summary"]["nef"]["one-run"]["whole"] == {"comparisons": 2, "with_error": 2,
                                                         "median_ape": pytest.approx(100 / 6), "p90_ape": 20.0, "runs": 2}
    assert res["by_call_model"]["nef"]["a1"]["evidence"]["service"]["comparisons"] == 2
    assert res["bands"]["nef"]["evidence"]["whole"] == {"none": "only 2 held-out comparisons (a band needs 9)",
                                                         "comparisons": 2, "covered": 0, "checked": 0, "basis": "run",
                                                         "coverage": None}
    assert res["left_out"] == [] and res["notes"] == {} and res["extrapolation"] == {}
    assert backtest.sizing_bands(res)["nef"]["one-run"]["service"] == {
        "none": "only 2 held-out comparisons (a band needs 9)", "comparisons": 2}


def test_a_product_without_pairs_is_noted():
    b = _nef()
    b["scenario_cpu"] = b["scenario_cpu"][2:3]  # n3 alone
    res = backtest.run(b)
    assert res["notes"] == {"nef": ["no two runs share a call model with readings in both"]} and res["points"] == []


def test_held_out_bands_as_the_calculators_carry_them():
    """The ten made-up runs of tests/test_backtest.py (test_held_out_band_and_its_coverage_by_hand): comparable runs'
    band 40/45 to 1.2 over 10 comparisons, k = 1, 8 of 10 covered held out, expected 9/11 = 81.8 %."""
    res = backtest.run(_made_up([10, 20, 30, 40, 60, 60, 70, 80, 90, 100]))
    b = backtest.sizing_bands(res)["syn"]["evidence"]["service"]
    assert set(b) == {"lo", "hi", "comparisons", "k", "expected_coverage", "coverage", "covered", "checked", "basis"}
    assert (b["comparisons"], b["k"], b["covered"], b["checked"], b["basis"], b["coverage"]) == (10, 1, 8, 10, "run", 80.0)
    assert b["lo"] == pytest.approx(40 / 45) and b["hi"] == pytest.approx(1.2)
    assert b["expected_coverage"] == pytest.approx(900 / 11)


def test_one_run_pairs_by_hand():
    """Three made-up runs at 1,000, 2,000 and 3,000 TPS using 10, 30 and 30 cores: every ordered pair, A's cores x
    B's load / A's load. 1 -> 2: 10 x 2 = 20 (printed 30, ratio 1.5); 2 -> 1: 30 / 2 = 15 (printed 10, error 50 %);
    3 -> 2: 30 x 2/3 = 20. Each service point has its whole-footprint twin (one pod covering all the CPU requested:
    10 x 10 cores)."""
    res = backtest.run(_made_up([10, 30, 30]))
    one = {(p["from"], p["to"], p["level"]): p for p in res["points"] if p["method"] == "one-run"}
    assert len(one) == 12
    s = one[("syn-1", "syn-2", "service")]
    assert (s["predicted_to"], s["observed_to"], s["ratio"], s["load_from"], s["observed_from"]) == (20, 30, 1.5, 1000, 10)
    assert (s["source_from"], s["source_to"], s["subject"], s["rule"]) == ("Table U1 row 1", "Table U2 row 1", "svc / app",
                                                                          "load-scaled")
    assert one[("syn-2", "syn-1", "service")]["ape"] == 50.0 and one[("syn-3", "syn-2", "service")]["predicted_to"] == 20
    w = one[("syn-1", "syn-2", "whole")]
    assert (w["predicted_to"], w["observed_to"], w["subject"], w["coverage"], w["rule"], w["ape"]) == (
        20.0, 30.0, "1 pods", 1.0, "whole footprint", pytest.approx(100 / 3))
    assert w["unit"] == "TPS"
    # held out, the comparable runs: 2 interpolated between 1 and 3 (20), 1 scaled from 2 (15), 3 scaled from 2 (45)
    ev = {p["to"]: p for p in res["points"] if p["method"] == "evidence" and p["level"] == "service"}
    assert (ev["syn-2"]["predicted_to"], ev["syn-1"]["predicted_to"], ev["syn-3"]["predicted_to"]) == (20, 15, 45)
    assert (ev["syn-2"]["from"], ev["syn-2"]["how"], ev["syn-2"]["source_to"]) == ("syn-1 + syn-3", "interpolated",
                                                                                  "Table U2 row 1")
    assert ev["syn-2"]["power"] == 1.0  # 3 runs: too few whole comparisons to leave proportional
    assert ev["syn-2"]["source_from"] == "20 cores (between syn-1 at 1K TPS: 10 and syn-3 at 3K TPS: 30)"
    assert {p["call_model"] for p in res["points"]} == {"m"}


@pytest.mark.parametrize("field, value", [("deployment_mode", "Y"), ("asm", "enabled")])
def test_comparable_runs_are_ranked_for_the_run_predicted(field, value):
    """syn-1 (1,000 TPS, 10 cores) and syn-3 (3,000, 30) in deployment mode X without ASM; syn-2 (2,000, 50) and syn-4
    (4,000, 100) in mode Y, or with ASM. syn-2 held out is predicted from the runs of its own mode or ASM first: syn-4
    alone, scaled 100 x 2,000 / 4,000 = 50 (ratio 1); ranked for any it would be interpolated between syn-1 and
    syn-3, 20. Its whole footprint is the one pod: no source rows of its own."""
    b = _made_up([10, 50, 30, 100])
    for i in (1, 3):
        b["scenarios"][i][field] = value
    res = backtest.run(b)
    p = next(p for p in res["points"] if p["method"] == "evidence" and p["level"] == "service" and p["to"] == "syn-2")
    assert (p["predicted_to"], p["from"], p["how"], p["ratio"]) == (50, "syn-4", "scaled", 1.0)
    w = next(p for p in res["points"] if p["method"] == "evidence" and p["level"] == "whole" and p["to"] == "syn-2")
    assert (w["source_from"], w["source_to"], w["from"], w["subject"]) == ("", "", "comparable runs", "1 pods")


def test_runs_left_out_and_why():
    """syn-4 names no call model; syn-5 is the only run of call model 'lone' (named 'Lone'); syn-6 has a second pod,
    'db' (10 x 30 cores requested, no reading): its reading covers 100 of 400 cores, 25 %, below half."""
    b = _made_up([10, 20, 30, 40, 50, 60])
    b["scenarios"][3]["call_model"] = None
    b["scenarios"][4].update(call_model="lone", call_model_name="Lone")
    b["services"].append({"doc": "syn", "service": "db", "component": "app", "role": "database"})
    b["resources"].append(dict(b["resources"][5], service="db", row=2, row_label="db", cpu_request_cores=30))
    res = backtest.run(b)
    assert res["left_out"] == [
        {"doc": "syn", "scenario": "syn-4", "what": "the whole run",
         "why": "the guide names no call model for this run, so no other run is comparable"},
        {"doc": "syn", "scenario": "syn-5", "what": "the whole run", "why": "the only run of its call model (Lone)"},
        {"doc": "syn", "scenario": "syn-6", "what": "whole footprint",
         "why": "its usable CPU readings cover 25 % of the CPU it requests (a whole-footprint comparison needs 50 %)"},
    ]
    assert not [p for p in res["points"] if p["to"] == "syn-6" and p["level"] == "whole"]
    # a power is chosen held out for the four runs of call model m only (too few whole comparisons: proportional)
    assert res["extrapolation"]["syn"]["held_out_choices"] == {"1": 4, "0.75": 0, "0.5": 0}


def test_held_out_coverage_reads_only_comparisons_made_without_the_run():
    """Run r2 removed entirely: every comparison that predicts r2 or reads it goes; the comparable-runs comparisons are
    replaced by those made without r2 (``inner``: its power, ranking and anchor chosen without it), even one that never
    read r2 (r3 from r1 below: made with r2 among the product's runs). Without ``inner`` (products with no nested
    choice) the comparisons that neither predict nor read r2 stay, whatever their method."""
    ev = [{"method": "evidence", "to": "r2", "from": "r1 + r3"}, {"method": "evidence", "to": "r1", "from": "r2"},
          {"method": "evidence", "to": "r3", "from": "r1"}]
    one = [{"method": "one-run", "to": "r1", "from": "r2"}, {"method": "one-run", "to": "r3", "from": "r1"}]
    inner = {"r2": [{"method": "evidence", "to": "r3", "from": "r1", "made": "without r2"},
                    {"method": "evidence", "to": "r2", "from": "r1"}]}
    assert backtest._without(ev + one, "r2", inner) == [one[1], inner["r2"][0]]
    assert backtest._without(ev + one, "r2", None) == [ev[2], one[1]]
    assert backtest._without(ev + one, "r2", {}) == [one[1]]


def test_held_out_coverage_checks_each_level_even_when_another_has_no_band():
    """Eleven runs r0..r10, each predicted once per service from a run x that is never predicted: ratios 1.0, and 2.0
    for r10; no whole-footprint comparison at all (no band at that level). Removing r10 leaves ten ratios of 1.0:
    band 1.0-1.0, r10's 2.0 not covered. Removing any other run leaves nine 1.0 and the 2.0: m = 10, k = round(1.1)
    = 1, band 1.0-2.0, its 1.0 covered. So, run by run (basis 'run'): 10 of 11 covered (by hand). The level with no band
    is skipped, not the levels after it."""
    points = [{"to": f"r{i}", "from": "x", "method": "evidence", "level": "service", "ratio": 2.0 if i == 10 else 1.0}
              for i in range(11)]
    cov = backtest._coverage(points, None)
    assert cov["evidence"]["service"] == {"covered": 10, "checked": 11, "basis": "run", "coverage": pytest.approx(1000 / 11)}
    assert cov["evidence"]["whole"] == {"covered": 0, "checked": 0, "basis": "run", "coverage": None}
    assert cov["one-run"]["service"]["checked"] == 0 and cov["one-run"]["service"]["coverage"] is None


def test_a_whole_footprint_sums_enough_of_the_run_predicted():
    """Three runs, three pods each: 'svc' (10 x 10 = 100 cores requested), 'db' (10 x 30 = 300) and 'aux' (10 x 10 =
    100): 500 cores. syn-1 prints a CPU reading of all three, syn-2 of svc and db (400 of 500: 80 %), syn-3 of svc
    only (100 of 500: 20 %, left out as a run to predict). From syn-3, syn-1's and syn-2's whole footprints would sum
    svc alone, the one pod syn-3 also read: 100 of 500 cores, 20 %, under half: no whole comparison, listed with its
    share. syn-2 -> syn-1 and syn-1 -> syn-2 sum svc and db, the pods both read: 400 of 500, coverage 0.8 (syn-1's own
    readings cover all 500)."""
    b = _made_up([10, 20, 30])
    b["services"] += [{"doc": "syn", "service": "db", "component": "app", "role": "database"},
                      {"doc": "syn", "service": "aux", "component": "app", "role": "traffic"}]
    for i in range(3):
        b["resources"].append(dict(b["resources"][i], service="db", row=2, row_label="db", cpu_request_cores=30))
        b["resources"].append(dict(b["resources"][i], service="aux", row=3, row_label="aux"))
    for i in range(2):
        b["utilization"].append(dict(b["utilization"][i], service="db", row=2, observed_percent=30))
    b["utilization"].append(dict(b["utilization"][0], service="aux", row=3, observed_percent=50))
    res = backtest.run(b)
    whole = {(p["from"], p["to"]): p for p in res["points"] if p["method"] == "one-run" and p["level"] == "whole"}
    assert set(whole) == {("syn-2", "syn-1"), ("syn-1", "syn-2")}
    # syn-2 -> syn-1: svc 20 x 1,000/2,000 = 10, db 0.3 x 10 x 30 = 90 x 1/2 = 45: 55 against 10 + 90 printed
    w = whole[("syn-2", "syn-1")]
    assert (w["subject"], w["coverage"], w["predicted_to"], w["observed_to"]) == ("2 pods", 0.8, 55.0, 100.0)
    assert whole[("syn-1", "syn-2")]["coverage"] == 0.8
    # the pairs from syn-3 keep their per-service comparisons
    assert [p["subject"] for p in res["points"] if p["method"] == "one-run" and p["from"] == "syn-3"] == ["svc / app"] * 2
    thin = [x for x in res["left_out"] if x["what"].startswith("whole footprint predicted from")]
    assert thin == [
        {"doc": "syn", "scenario": s, "what": "whole footprint predicted from syn-3 (20 %)",
         "why": "the pods read both by the runs it is predicted from and by this run cover less than 50 % of the CPU "
                "this run requests (the share in brackets): the sum would compare a few pods, not a footprint; their "
                "per-service comparisons are kept"}
        for s in ("syn-1", "syn-2")]


def test_a_thin_comparison_is_named_for_each_method():
    """Two runs, pods 'svc' (100 cores requested) and 'db' (300): syn-1 reads both, syn-2 svc only (100 of 400: 25 %,
    left out as a run to predict). syn-1 predicted from syn-2, by its comparable runs (syn-2 alone) and by one run,
    sums svc alone: 25 %, under half: no whole comparison by either method, each named."""
    b = _made_up([10, 20])
    b["services"].append({"doc": "syn", "service": "db", "component": "app", "role": "database"})
    for i in range(2):
        b["resources"].append(dict(b["resources"][i], service="db", row=2, row_label="db", cpu_request_cores=30))
    b["utilization"].append(dict(b["utilization"][0], service="db", row=2, observed_percent=30))
    res = backtest.run(b)
    assert not [p for p in res["points"] if p["level"] == "whole"]
    why = ("the pods read both by the runs it is predicted from and by this run cover less than 50 % of the CPU this run "
           "requests (the share in brackets): the sum would compare a few pods, not a footprint; their per-service "
           "comparisons are kept")
    assert res["left_out"] == [
        {"doc": "syn", "scenario": "syn-2", "what": "whole footprint",
         "why": "its usable CPU readings cover 25 % of the CPU it requests (a whole-footprint comparison needs 50 %)"},
        {"doc": "syn", "scenario": "syn-1", "what": "whole footprint predicted from its comparable runs", "why": why},
        {"doc": "syn", "scenario": "syn-1", "what": "whole footprint predicted from syn-2 (25 %)", "why": why}]


def test_band_of_thirteen_ratios():
    """m = 13: k = round(0.1 x 14) = round(1.4) = 1, the lowest and the highest ratio; expected coverage (14 - 2) / 14
    = 85.71 %. (With k = 2 the band would be 2-12.)"""
    b = backtest.band([float(x) for x in range(13, 0, -1)])
    assert (b["lo"], b["hi"], b["k"], b["comparisons"]) == (1.0, 13.0, 1, 13)
    assert b["expected_coverage"] == pytest.approx(1200 / 14)


def test_a_run_without_a_load_per_site_is_not_compared():
    """syn-3 prints no load per site: it is not among the product's runs (nothing to scale to or from), whatever its
    rows. The two others remain."""
    b = _made_up([10, 20, 30])
    b["scenarios"][2]["load_per_site"] = None
    assert [s["id"] for s in backtest._Product(b, "syn").runs] == ["syn-1", "syn-2"]


def test_comparisons_scale_beyond_the_range_with_the_products_power():
    """comparisons() scales with the power the bundle carries for the product (key ``extrapolation``): syn-2 (2,000
    TPS, 20 cores) held out from syn-1 alone (1,000 TPS, 10 cores) at power 1/2: 10 x 2 ** 0.5 = 14.1421 cores;
    without a power for 'syn', proportional: 20."""
    b = _made_up([10, 20])
    ev = lambda b: next(p for p in backtest.comparisons(b, "syn") if p["method"] == "evidence" and p["to"] == "syn-2"
                        and p["level"] == "service")
    assert ev(b)["predicted_to"] == 20
    b["extrapolation"] = {"syn": {"power": 0.5}}
    assert ev(b)["predicted_to"] == pytest.approx(14.1421, abs=1e-4)
    assert ev(b)["unit"] == "TPS"  # the run's own load unit


def test_a_reading_whose_resource_row_is_missing_names_its_status():
    """Run s: svc's main container has no usable resource row, only one printed without a value ('missing', no
    erratum: Table R1 row 4); its reading (Table U1 row 2, 10 %) reads it: left out, named with the row's status
    and no erratum list."""
    b = {"scenarios": [{"id": "s", "doc": "syn", "sites_with_traffic": ["site1"]}], "resources": [],
         "resources_excluded": [{"scenario": "s", "component": "app", "service": "svc", "container": "app",
                                 "table_id": "R1", "row": 4, "row_label": "svc", "site": "", "status": "missing",
                                 "errata": []}],
         "utilization": [{"scenario": "s", "service": "svc", "container": "app", "metric": "cpu", "site": "",
                          "status": "ok", "observed_percent": 10, "table_id": "U1", "row": 2}]}
    assert backtest._unjoined(b, "syn", "s") == [{
        "doc": "syn", "scenario": "s", "what": "svc/app (Table U1 row 2; its resource row: Table R1 row 4)",
        "why": "the container's resource row is missing: no request to turn the percentage into cores (readings not used)"}]


def test_a_lone_call_model_does_not_stop_the_others():
    """syn-1 is the only run of call model 'lone' and comes first; syn-2 and syn-3 (call model m, 20 and 30 cores at
    2,000 and 3,000 TPS) are still predicted from each other by their comparable runs: syn-2 from syn-3 scaled
    proportionally, 30 x 2/3 = 20; syn-3 from syn-2, 20 x 3/2 = 30."""
    b = _made_up([10, 20, 30])
    b["scenarios"][0].update(call_model="lone", call_model_name="Lone")
    ev = {p["to"]: p["predicted_to"] for p in backtest.run(b)["points"] if p["method"] == "evidence" and p["level"] == "service"}
    assert ev == {"syn-2": 20, "syn-3": 30}
