"""calculators/evidence.py on small made-up runs, every expected value worked out by hand in the comments (never from
the code under test): the ranking of comparable runs and what each says, the caveats, the curves' texts, the anchor,
the printed HPA targets and the power beyond the measured range. tests/test_evidence.py holds the same rules to the
guides' own tables."""
from __future__ import annotations

from fractions import Fraction

import pytest

from calculators import evidence
from calculators.evidence import Curve, EvidenceError


def _scenario(sid, load, mode="X", asm="disabled", cm="m", cm_name="M", doc="syn", **kw):
    s = {"id": sid, "doc": doc, "title": f"Run {sid}", "short_title": f"{sid} short", "load_per_site": load,
         "load_total": load, "load_unit": "TPS", "sites_with_traffic": ["site1"], "sites_provisioned": 1, "asm": asm,
         "deployment_mode": mode, "call_model": cm, "call_model_name": cm_name}
    s.update(kw)
    return s


def _bundle():
    """Product "syn", one traffic service 'svc' (10 replicas x 10 cores requested in every run, HPA target 80 %), its
    printed CPU percent = the cores used (percent x 10 x 10 / 100):

    ====  =============  ====  =======  ============  ==========
    run   load per site  mode  ASM      call model    cores used
    ====  =============  ====  =======  ============  ==========
    r1    1,000          X     off      m (M)         10
    r2    3,000          X     off      m (M)         30
    r3    2,000          Y     on       m (M)         50
    r4    1,500          X     off      none          15
    r5    2,500          X     off      n (no name)   25
    r6    4,000          X     off      m (M)         no resource rows: not a candidate
    r7    2,000          X     off      m (M)         no load per site: not a candidate
    o1    1,000          X     off      m (M)         product "oth"
    ====  =============  ====  =======  ============  ==========

    r3 has no short title and no load unit; r5's call model has no name. Facts: r2 (the first comparable run for a
    request of mode X, ASM off at 2,000) prints Binding Service Enabled, Audit Disable, replication, hardware and
    release; r1 prints Binding 'enabled (true)' (the same setting) and 'Audit feature' Enabled (not the same) and a
    call mix."""
    cores = {"r1": 10, "r2": 30, "r3": 50, "r4": 15, "r5": 25, "r7": 20, "o1": 10}
    scenarios = [_scenario("r1", 1000), _scenario("r2", 3000),
                 _scenario("r3", 2000, mode="Y", asm="enabled", short_title=None, load_unit=None),
                 _scenario("r4", 1500, cm=None, cm_name=None), _scenario("r5", 2500, cm="n", cm_name=None),
                 _scenario("r6", 4000), _scenario("r7", None), _scenario("o1", 1000, doc="oth")]
    with_rows = list(cores)
    return {
        "scenarios": scenarios,
        "services": [{"doc": "syn", "service": "svc", "component": "app", "role": "traffic"}],
        "resources": [{"scenario": r, "table_id": f"T-{r}", "row": 1, "row_label": "svc", "site": "", "component": "app",
                       "service": "svc", "container": "app", "is_sidecar": False, "replicas": 10, "replicas_min": None,
                       "replicas_max": None, "cpu_request_cores": 10, "cpu_limit_cores": 10, "cpu_cores": None,
                       "mem_request_gib": 1, "mem_limit_gib": 1, "mem_gib": None} for r in with_rows],
        "utilization": [{"scenario": r, "table_id": f"U-{r}", "row": 2, "site": "site1", "service": "svc",
                         "container": "app", "metric": "cpu", "observed_percent": cores[r], "observed_abs": None,
                         "abs_unit": None, "target_percent": 80, "percent_basis": None, "status": "ok"} for r in with_rows],
        "scenario_facts": [
            {"id": "r2", "features": {"Binding Service": "Enabled", "Audit": "Disable"}, "replication": "2-site",
             "hardware_server": "HP DL380", "release": "23.4"},
            {"id": "r1", "features": {"Binding": "enabled (true)", "Audit feature": "Enabled"}, "call_mix": "Gx 50 %"},
        ],
        "extrapolation": {"syn": {"power": 0.75}},
    }


def test_text_folding_by_hand():
    assert evidence._fold("A-B_(c)/d:e,f.g  H") == "a b c d e f g h" and evidence._fold(None) == ""
    assert evidence._setting("Enable") == "on" and evidence._setting("enabled (true)") == "on"
    assert evidence._setting("Disabled") == "off" and evidence._setting("Partial (x)") == "partial x"
    assert evidence._feature_key("Binding Service") == "binding" and evidence._feature_key("Audit feature") == "audit"
    assert evidence._feature_key("Service") == "service"  # no space before it: not a tail


def test_call_models_by_hand():
    # r4 names none, r6 has no rows, r7 no load: left out; (doc, call model) pairs in bundle order
    assert evidence.call_models(_bundle()) == [
        {"doc": "syn", "id": "m", "name": "M", "runs": ["r1", "r2", "r3"], "modes": ["X", "Y"], "asm": [False, True]},
        {"doc": "syn", "id": "n", "name": "n", "runs": ["r5"], "modes": ["X"], "asm": [False]},
        {"doc": "oth", "id": "m", "name": "M", "runs": ["o1"], "modes": ["X"], "asm": [False]},
    ]


def test_candidates_ranked_by_hand():
    """A request for m, mode X, ASM off, 2,000 TPS per site. Comparable first: r2 (tier 0, |ln(2000/3000)| = 0.405),
    r1 (tier 0, |ln 2| = 0.693), r3 (tier 2: mode and ASM differ, though at the very load); then the others: r5
    (|ln 0.8| = 0.223), r4 (|ln(4/3)| = 0.288). Ratio = 2,000 / the run's load."""
    c = evidence.candidates(_bundle(), "syn", "m", "X", False, 2000)
    assert [x["id"] for x in c] == ["r2", "r1", "r3", "r5", "r4"]
    assert c[0] == {"id": "r2", "short_title": "r2 short", "load_per_site": 3000, "unit": "TPS", "ratio": 2 / 3,
                    "call_model": "m", "call_model_name": "M", "mode": "X", "asm": False, "comparable": True, "tier": 0,
                    "matches": ["same call model (M)", "deployment mode X", "ASM off"], "differs": [],
                    "caveats": ["replication: 2-site", "hardware: HP DL380", "release 23.4"], "call_mix": None}
    # r1 against r2: Binding is on in both; Audit differs (on against off)
    assert c[1]["caveats"] == ["features set differently: Audit feature Enabled (there: Disable)"]
    assert (c[1]["ratio"], c[1]["call_mix"], c[1]["tier"]) == (2.0, "Gx 50 %", 0)
    assert c[2] == {"id": "r3", "short_title": "Run r3", "load_per_site": 2000, "unit": "", "ratio": 1.0,
                    "call_model": "m", "call_model_name": "M", "mode": "Y", "asm": True, "comparable": True, "tier": 2,
                    "matches": ["same call model (M)"],
                    "differs": ["deployment mode Y (you asked X)", "ASM on (you asked off)"], "caveats": [],
                    "call_mix": None}
    assert (c[3]["comparable"], c[3]["differs"], c[3]["matches"], c[3]["ratio"]) == (
        False, ["another call model (n)"], ["deployment mode X", "ASM off"], 0.8)
    assert c[4]["differs"] == ["the guide names no call model for this run"] and c[4]["tier"] == 0


def test_candidates_without_mode_or_asm_asked():
    """Mode None and ASM None: every run matches both, nothing is said about ASM; r3 (at the very load) ranks first
    of the comparable runs, then r2 (0.405), then r1 (0.693). ASM asked on: r3 is tier 1 (mode Y differs)."""
    c = evidence.candidates(_bundle(), "syn", "m", None, None, 2000)
    assert evidence.candidates(_bundle(), "syn", "m", "", None, 2000) == c  # an empty mode is no mode asked
    assert [x["id"] for x in c if x["comparable"]] == ["r3", "r2", "r1"]
    assert c[0]["matches"] == ["same call model (M)", "deployment mode Y"] and c[0]["tier"] == 0
    on = evidence.candidates(_bundle(), "syn", "m", "X", True, 2000)
    assert [(x["id"], x["tier"]) for x in on if x["comparable"]] == [("r3", 1), ("r2", 1), ("r1", 1)]
    assert on[0]["differs"] == ["deployment mode Y (you asked X)"] and on[0]["matches"][-1] == "ASM on"
    # no call model asked: nothing is comparable, and no run's caveats compare features
    none = evidence.candidates(_bundle(), "syn", None, "X", False, 2000)
    assert not any(x["comparable"] for x in none) and next(x for x in none if x["id"] == "r1")["caveats"] == []


def test_curve_texts_by_hand():
    """Points a: 10 cores at 1,000 TPS; b and c: 30 and 34 at 3,000 (mean 32). At 2,000: halfway, 10 + 22 / 2 = 21;
    at 6,000: 32 x 2 = 64; at 500: 10 x 0.5 = 5; nearest to 2,500 is 3,000 (|ln 1.2| < |ln 0.4|)."""
    c = Curve([(1000, 10, {"scenario": "a"}), (3000, 30, {"scenario": "b"}), (3000, 34, {"scenario": "c"})], "TPS")
    assert c.ids() == ["a", "b", "c"] and c.loads == [1000, 3000]
    assert c.at(1000) == (10, {"kind": "measured", "runs": ["a"], "factor": 1.0, "text": "10 cores (a at 1K TPS)"})
    assert c.at(3000) == (32, {"kind": "measured", "runs": ["b", "c"], "factor": 1.0,
                               "text": "32 cores (b + c at 3K TPS)"})
    assert c.at(2000) == (21, {"kind": "interpolated", "runs": ["a", "b", "c"], "factor": 1.0,
                               "text": "21 cores (between a at 1K TPS: 10 and b + c at 3K TPS: 32)"})
    assert c.at(6000) == (64, {"kind": "scaled", "runs": ["b", "c"], "factor": 2.0, "side": "largest", "power": 1.0,
                               "proportional": 64.0, "text": "64 cores (b + c at 3K TPS: 32 x 2)"})
    assert c.at(500) == (5, {"kind": "scaled", "runs": ["a"], "factor": 0.5, "side": "smallest", "power": 1.0,
                             "proportional": 5.0, "text": "5 cores (a at 1K TPS: 10 x 0.5)"})
    assert c.nearest(2500) == (32, {"kind": "measured", "runs": ["b", "c"], "factor": 1.0,
                                    "text": "32 cores (b + c at 3K TPS, not scaled with load)"})
    assert c.nearest(1500)[0] == 10  # |ln(1000/1500)| = 0.405 < |ln(3000/1500)| = 0.693
    # three loads: beyond the largest, the largest (3,000) is scaled, not the second (2,000: 16 x 3 = 48)
    three = Curve([(1000, 10, {"scenario": "a"}), (2000, 16, {"scenario": "d"}), (3000, 32, {"scenario": "b"})], "TPS")
    assert three.at(6000)[0] == 64 and three.at(6000)[1]["runs"] == ["b"]
    # between 2,000 and 3,000: the nearest below is 2,000, not 1,000: 16 + 16 / 2 = 24
    assert three.at(2500)[0] == 24


def test_curve_keeps_the_higher_reading_and_says_so():
    """GiB 40 at 1,000 and 20 at 2,000: at 2,000 the 40 of 1,000 is kept; at 1,500 (interpolated 30) too. The runs
    named are those whose reading is used (a), the run measured at the load is named as compared (b); at 3,000 (20 x 1.5
    = 30 scaled from b) the 40 of a is kept and the load is still 1.5 x the largest run measured."""
    c = Curve([(1000, 40, {"scenario": "a"}), (2000, 20, {"scenario": "b"})], "TPS", what="GiB")
    assert c.at(2000) == (40, {"kind": "measured", "runs": ["a"], "compared_runs": ["b"], "factor": 1.0, "kept": 1000.0,
                               "text": "40 GiB (kept from a at 1K TPS: what a pod uses never falls as its load rises; "
                                       "at this load 20 GiB (b at 2K TPS))"})
    assert c.at(1500)[0] == 40 and c.at(1000)[1].get("kept") is None
    v, how = c.at(1500)
    assert (how["kind"], how["runs"], how["compared_runs"]) == ("interpolated", ["a"], ["a", "b"])
    v, how = c.at(3000)
    assert (v, how["kind"], how["factor"], how["runs"], how["compared_runs"]) == (40, "scaled", 1.5, ["a"], ["b"])


def test_curve_loads_and_power_texts():
    """Loads written as printed: 1,050 -> '1050' (not a round hundred), 1,500 -> '1.5K', 250 -> '250' (no unit given:
    none after it). Power 1/2 at 4 x the load: 10 x 4 ** 0.5 = 20 (proportional 40); 1/3 and 2/3 core -> '0.3333',
    '0.6667'."""
    c = Curve([(1050, Fraction(2, 3), {"scenario": "a"}), (1500, 1, {"scenario": "b"}),
               (250, Fraction(1, 3), {"scenario": "z"})])
    assert c.at(1050)[1]["text"] == "0.6667 cores (a at 1050 )" and c.at(1500)[1]["text"] == "1 cores (b at 1.5K )"
    assert c.at(250)[1]["text"] == "0.3333 cores (z at 250 )"
    half = Curve([(1000, 10, {"scenario": "a"})], "TPS", power=Fraction(1, 2))
    v, how = half.at(4000)
    assert v == 20 and how["power"] == 0.5 and how["proportional"] == 40.0 and how["factor"] == 4.0
    assert how["text"] == "20 cores (a at 1K TPS: 10 x 4^0.5 = 2)"
    assert Curve([(1000, 10, {"scenario": "a"})], power=1).power == 1
    with pytest.raises(ValueError, match=r"the extrapolation power must be in \(0, 1\]; got 0"):
        Curve([(1000, 10, {"scenario": "a"})], power=0)
    with pytest.raises(ValueError, match="a curve needs at least one measured point"):
        Curve([])


def test_scale_factor_and_the_products_power():
    assert evidence.scale_factor(3, 1) == 3 and isinstance(evidence.scale_factor(3, 1), Fraction)
    assert evidence.scale_factor(Fraction(9, 4), Fraction(1, 2)) == Fraction(3, 2)  # sqrt(2.25) = 1.5
    assert evidence.extrapolation_power(_bundle(), "syn") == Fraction(3, 4)
    assert evidence.extrapolation_power(_bundle(), "oth") == 1 and evidence.extrapolation_power({}, "syn") == 1


def test_plan_by_hand():
    """The request of test_candidates_ranked_by_hand: comparable r2, r1 (tier 0) and r3 (tier 2); the anchor is the
    tier-0 run measured at the highest load, r2 (3,000). svc's curve is tier 0's: 10 cores at 1,000, 30 at 3,000, so
    at 2,000 halfway, 20; beyond, at 6,000, 30 x 2 ** 0.75 (the product's power, 3/4) = 50.45. Its printed target: 80 %.
    Without r2: the anchor is r1 and beyond 1,000 scales from 10."""
    p = evidence.plan(_bundle(), "syn", "m", "X", False, 2000)
    assert (p["anchor"], p["comparable"], p["power"]) == ("r2", ["r2", "r1", "r3"], 0.75)
    assert p["tiers"] == {("app", "svc"): 0} and p["targets"] == {("app", "svc"): 80}
    curve = p["curves"][("app", "svc")]
    assert curve.ids() == ["r1", "r2"] and curve.at(2000)[0] == 20
    assert float(curve.at(6000)[0]) == pytest.approx(30 * 2 ** 0.75)
    src = curve.points[Fraction(3000)][0][1]
    assert src == {"scenario": "r2", "table_id": "U-r2", "row": 2, "site": "site1"}
    q = evidence.plan(_bundle(), "syn", "m", "X", False, 2000, exclude=("r2",), power=1)
    assert (q["anchor"], q["comparable"], q["power"]) == ("r1", ["r1", "r3"], 1.0)
    assert q["curves"][("app", "svc")].at(3000)[0] == 30  # r1's 10 x 3
    # asked on ASM and mode Y: r3 alone is tier 0, the anchor and the curve
    y = evidence.plan(_bundle(), "syn", "m", "Y", True, 2000)
    assert y["anchor"] == "r3" and y["curves"][("app", "svc")].ids() == ["r3"] and y["tiers"] == {("app", "svc"): 0}


def test_plan_names_the_call_models_it_has():
    with pytest.raises(EvidenceError) as e:
        evidence.plan(_bundle(), "syn", "zz", "X", False, 2000)
    assert str(e.value) == ("Call model 'zz': no run of syn with resource data measured it; its call models are: M (m), "
                            "n (n). Pick one of them, or pick a run.")
    with pytest.raises(EvidenceError, match="its call models are: none. Pick one"):
        evidence.plan(_bundle(), "nope", "m", None, None, 1000)
