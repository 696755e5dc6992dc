"""The evidence for a sizing (calculators/evidence.py): comparable runs ranked for a request, each pod's curve of cores
used over load, and the footprint sized from them; values from named tables, worked out by hand."""
from __future__ import annotations

from fractions import Fraction

import pytest

from calculators import evidence, footprint, footprint_report
from calculators.evidence import Curve


def _pt(load, cores, sid):
    return (load, cores, {"scenario": sid})


def test_curve_measured_interpolated_and_scaled():
    """Points 4.5 cores at 7,500 and 27.75 at 15,000 (Policy 3.4.1 and 3.4.2, PRE Service, below): at 7,500 the
    reading; at 11,250 halfway, 4.5 + (27.75 - 4.5) / 2 = 16.125; a quarter of the way, at 9,375, 4.5 + 23.25 / 4 =
    10.3125; at 30,000 the nearest (15,000) scaled x 2 = 55.5; at 3,750 the smallest scaled x 0.5 = 2.25."""
    c = Curve([_pt(7500, "4.5", "a"), _pt(15000, "27.75", "b")], "TPS")
    assert c.at(7500) == (Fraction(9, 2), c.at(7500)[1]) and c.at(7500)[1]["kind"] == "measured"
    v, how = c.at(11250)
    assert v == Fraction("16.125") and how["kind"] == "interpolated" and how["runs"] == ["a", "b"]
    assert c.at(9375)[0] == Fraction("10.3125")
    v, how = c.at(30000)
    assert v == Fraction("55.5") and how["kind"] == "scaled" and how["factor"] == 2.0 and how["side"] == "largest"
    v, how = c.at(3750)
    assert v == Fraction("2.25") and how["side"] == "smallest"


def test_curve_scales_beyond_the_measured_range_by_a_power():
    """The same two points with power 1/2 beyond the range: at 30,000 (2 x 15,000) 27.75 x 2 ** 0.5 = 39.2444 cores
    (proportional: 55.5); at 3,750 (0.5 x 7,500) 4.5 x 0.5 ** 0.5 = 3.18198 (proportional: 2.25); inside the range
    nothing changes (11,250: 16.125). A power outside (0, 1] is refused."""
    c = Curve([_pt(7500, "4.5", "a"), _pt(15000, "27.75", "b")], "TPS", power=Fraction(1, 2))
    v, how = c.at(30000)
    assert float(v) == pytest.approx(39.24442, abs=1e-5) and how["power"] == 0.5 and how["proportional"] == 55.5
    assert "2^0.5 = 1.41" in how["text"]
    v, how = c.at(3750)
    assert float(v) == pytest.approx(3.18198, abs=1e-5) and how["proportional"] == 2.25
    assert c.at(11250)[0] == Fraction("16.125")
    for bad in (0, Fraction(3, 2), -1):
        with pytest.raises(ValueError, match="power"):
            Curve([_pt(7500, "4.5", "a")], "TPS", power=bad)


def test_curve_means_runs_at_one_load_and_never_falls():
    """Two runs at 30,000 (113.2 and 127.0: their mean 120.1) and one at 43,000 printing less (100): at 43,000 the
    higher 120.1 is kept, and at 50,000 too (100 x 50/43 = 116.3 < 120.1); between them, 36,500 interpolates to
    120.1 + (100 - 120.1) / 2 = 110.05, below 120.1, so 120.1 is kept. A curve never falls as the load rises."""
    c = Curve([_pt(30000, "113.2", "x"), _pt(30000, "127.0", "y"), _pt(43000, "100", "z")], "TPS")
    assert c.at(30000)[0] == Fraction("120.1")
    for load in (36500, 43000, 50000):
        v, how = c.at(load)
        assert v == Fraction("120.1") and how["kept"] == 30000.0, load
    assert c.at(100000)[0] == Fraction(100) * 100000 / 43000  # 232.6 > 120.1: scaled, not kept
    assert c.nearest(41000)[0] == 100  # fixed pods: the nearest load's reading, unscaled


def test_interpolation_between_two_bracketing_runs_of_one_call_model(bundle):
    """Policy data (Gx/Rx): 3.4.1 at 7,500 TPS per site and 3.4.2 at 15,000, both converged, ASM off. PRE Service
    (Tables 3-202 and 3-211 row 14: 15 replicas x 5 cores requested; Table 3-204 row 11 6 % at 3.4.1's traffic sites,
    Table 3-213 row 11 37 % at 3.4.2's): 0.06 x 15 x 5 = 4.5 and 0.37 x 15 x 5 = 27.75 cores. 22,500 TPS on two sites,
    no redundancy: 11,250 per site, halfway: 16.125 cores. The anchor is 3.4.2 (the comparable run measured at the
    highest load): at its printed 80 % target, ceil(16.125 / (5 x 0.8)) = 5; 3.4.2 prints no memory use, so the full
    request is assumed used and growing with load: 15 x 11,250/15,000 = 11.25 -> 12, memory binds (the benchmark floor,
    15 x 0.75 -> 12, is the same)."""
    res = footprint.recommend(bundle, "policy:policy-data-gx-rx", 22500, sites=2)
    assert res["evidence"]["anchor"] == "policy-3-4-2" and res["baseline"]["id"] == "policy-3-4-2"
    pre = next(r for r in res["rows"] if r["service"] == "pre" and r["container"] == "app")
    assert pre["demand"]["cpu_at"] == {"normal": pytest.approx(16.125)}
    assert (pre["rule"], pre["replicas_after"], pre["binding"]) == ("cpu+memory", 12, "memory")
    assert "normal: 16.12 cores (between policy-3-4-1 at 7.5K TPS: 4.5 and policy-3-4-2 at 15K TPS: 27.75) at 11,250 / (5 x 80 %) -> 5" in pre["rule_detail"]
    assert set(res["evidence"]["runs_used"]) == {"policy-3-4-1", "policy-3-4-2"}


def test_candidates_ranked_with_reasons(bundle):
    """PCF SM, deployment mode PCF, ASM off, 50,000 TPS per site: its six runs first (the two ASM-off runs at 30,000,
    3.5.1 and 3.5.2, ahead of the four ASM-on ones, nearest load first: 3.2.8 at 43,000, 3.2.10 at 41,000, 3.2.4 at
    30,000, 3.2.3 at 21,500), then the product's other call models, not comparable; each says what matches."""
    c = evidence.candidates(bundle, "policy", "pcf-sm", "PCF", False, 50000)
    ids = [x["id"] for x in c if x["comparable"]]
    assert ids == ["policy-3-5-1", "policy-3-5-2", "policy-3-2-8", "policy-3-2-10", "policy-3-2-4", "policy-3-2-3"]
    assert all(not x["comparable"] for x in c[6:]) and len(c) == 24  # every Policy run has resource tables
    first = c[0]
    assert first["matches"] == ["same call model (PCF SM)", "deployment mode PCF", "ASM off"] and first["tier"] == 0
    asm_on = next(x for x in c if x["id"] == "policy-3-2-8")
    assert asm_on["tier"] == 1 and "ASM on (you asked off)" in asm_on["differs"]
    other = next(x for x in c if x["id"] == "policy-3-4-4")
    assert other["differs"][0] == "the guide names no call model for this run"


def test_the_answer_names_its_runs_and_the_spread(bundle):
    """The PCF SM 50,000 TPS example (two sites, N+1, 64-core / 256 GiB nodes): the answer comes with the same request
    sized from each of the six comparable runs alone, and the CSV and Helm values carry the answer and its runs."""
    res = footprint.recommend(bundle, "policy:pcf-sm", 50000, sites=2, redundancy="n+1", node_cores=64, node_mem_gib=256)
    assert [x["id"] for x in res["evidence"]["spread"]] == [c["id"] for c in res["evidence"]["candidates"] if c["comparable"]]
    alone = {x["id"]: x for x in res["evidence"]["spread"]}
    assert alone["policy-3-5-1"]["nodes_per_site"] < alone["policy-3-2-3"]["nodes_per_site"]  # the spread the issue saw
    csv = footprint_report.result_csv(res)
    assert csv.startswith('"# answer: Per site: ') and "# sized from: the comparable runs of PCF SM" in csv
    assert "# the same request from policy-3-5-1 alone:" in csv
    helm = footprint_report.result_helm(res)
    assert "# answer: Per site: " in helm and "# sized from: the comparable runs of PCF SM" in helm


def test_unknown_call_model_is_named(bundle):
    with pytest.raises(footprint.FootprintError, match="Call model must be one of .*policy:pcf-sm"):
        footprint.recommend(bundle, "nope", 1000)
    with pytest.raises(footprint.FootprintError, match=r"Call model 'nope-x': no run of policy .* PCF SM \(pcf-sm\)"):
        footprint.recommend(bundle, "policy:nope-x", 1000)
    with pytest.raises(footprint.FootprintError, match="Call model 'pcf-sm': no run of bsf"):
        footprint.recommend(bundle, "bsf:pcf-sm", 1000)
