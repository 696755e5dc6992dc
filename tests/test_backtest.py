"""Backtest ("How accurate is this?"): predictions made without the run they predict, hand-computed from named tables
and from a small made-up product whose held-out band and coverage are worked out by hand."""
from __future__ import annotations

import pytest

from calculators import backtest


@pytest.fixture(scope="module")
def result(bundle):
    return backtest.run(bundle)


def point(result, method, to, subject_start, frm=None, level="service"):
    found = [p for p in result["points"] if p["method"] == method and p["to"] == to and p["level"] == level
             and p["subject"].startswith(subject_start) and (frm is None or p["from"] == frm)]
    assert len(found) == 1, found
    return found[0]


def test_policy_pre_service_3_4_2_from_3_4_1_held_out(result):
    """Policy data (Gx/Rx) has two runs, 3.4.1 (7.5K TPS per site) and 3.4.2 (15K). PRE Service: Tables 3-202 and 3-211
    row 14 give 15 replicas x 5-core request; Table 3-204 row 11 prints 6 %/80 % at 3.4.1's traffic sites, Table 3-213
    row 11 37 %/80 % at 3.4.2's. Used: 0.06 x 15 x 5 = 4.5 cores and 0.37 x 15 x 5 = 27.75 cores.
    3.4.2 held out, its only comparable run is 3.4.1, below its load: the comparable-runs method scales the nearest run
    beyond the measured range by (load ratio) ** power, the power chosen without 3.4.2 (Policy's other runs: 1/2):
    4.5 x (15000/7500) ** 0.5 = 4.5 x 1.41421 = 6.36396 cores; error |6.36396 - 27.75| / 27.75 = 77.067 %, ratio
    27.75 / 6.36396 = 4.3605. Proportional it would be 4.5 x 2 = 9 cores. In sample (3.4.2 among its own evidence) the
    prediction would be 27.75 itself: this test would fail."""
    p = point(result, "evidence", "policy-3-4-2", "pre / app")
    assert p["from"] == "policy-3-4-1" and p["how"] == "scaled" and p["power"] == 0.5
    assert p["observed_to"] == pytest.approx(27.75)
    assert p["predicted_to"] == pytest.approx(6.36396, abs=1e-5)
    assert p["ape"] == pytest.approx(77.067, abs=1e-3)
    assert p["ratio"] == pytest.approx(4.3605, abs=1e-4)
    assert p["source_to"] == "Table 3-213 row 11"
    one = point(result, "one-run", "policy-3-4-1", "pre / app", frm="policy-3-4-2")
    assert one["predicted_to"] == pytest.approx(13.875)  # 27.75 x 7500/15000
    assert one["ape"] == pytest.approx(208.333, abs=1e-3)  # |13.875 - 4.5| / 4.5


def test_no_prediction_reads_the_run_it_predicts(result):
    pts = [p for p in result["points"] if p["method"] == "evidence"]
    assert len(pts) > 300
    assert all(p["to"] not in p["from"].split(" + ") for p in pts)


def test_shcm_config_a_test_1_to_2(result):
    """ShCM, Rhino performance table rows 1 and 2 (server config A): 280% (2.8 cores) at 1000 SPS, 310% at 1100 SPS.
    Predicted: 2.8 x 1100/1000 = 3.08 cores; error |3.08 - 3.1| / 3.1 = 0.645 %."""
    p = point(result, "one-run", "shcm-test-2", "Rhino node CPU", frm="shcm-test-1")
    assert p["rule"] == "cpu-per-node"
    assert p["predicted_to"] == pytest.approx(3.08)
    assert p["ape"] == pytest.approx(0.6452, abs=1e-3)
    assert not [q for q in result["points"] if q["doc"] == "shcm" and {q["from"], q["to"]} == {"shcm-test-1", "shcm-test-4"}], \
        "tests on different server configurations are not paired"


def test_dsr_dsa_measured_rate(result):
    """DSR DSA, Table 3-15 rows 1 and 2: Previous Location Check 9.2K MPS per DA-MP at 29 % CPU peak, Time Distance
    Check 9.8K at 34 %, both 12 vCPU, profile 30K_MPS. Predicted: 29 x 9.8/9.2 = 30.891 %; error 3.109/34 = 9.14 %."""
    p = point(result, "one-run", "dsr-dsa-time-distance-check", "DA-MP CPU peak", frm="dsr-dsa-previous-location-check")
    assert p["predicted_to"] == pytest.approx(30.8913, abs=1e-3)
    assert p["ape"] == pytest.approx(9.1432, abs=1e-3)


def test_pairing_follows_the_curated_call_model(result):
    pairs = {(p["from"], p["to"]) for p in result["points"] if p["method"] == "one-run"}
    assert ("policy-3-2-5", "policy-3-2-6") in pairs               # PCF AM/UE, both
    assert ("policy-3-1-4", "policy-3-3-1") in pairs               # PCRF voice: the same traffic ratio, two sections
    assert ("policy-3-1-1", "policy-3-4-1") not in pairs           # PCRF data (Sy, LDAP) and Policy data (Gx/Rx) differ
    assert not any("policy-3-4-4" in (a, b) for a, b in pairs)     # the guide names no call model for it
    assert ("nef-qos-1", "nef-dt-1") not in pairs and ("nef-qos-1", "nef-qos-2") in pairs  # one call model per API
    assert ("dsr-relay-12vcpu", "dsr-relay-multiqueue-12vcpu") not in pairs  # DA-MP profiles 30K_MPS and 40K_MPS_FABR
    assert ("bsf-3-1", "bsf-3-3") in pairs                         # BSF nBSF + Rx: all three runs
    left = {(x["scenario"], x["what"]) for x in result["left_out"]}
    assert ("policy-3-4-4", "the whole run") in left and ("policy-3-6-1", "the whole run") in left


def test_fixed_services_are_predicted_unchanged(result):
    """Policy data (Gx/Rx), 3.4.2 from 3.4.1, ndbmysqld (a replication channel: fixed, whatever the load): Tables
    3-203 and 3-212 row 4 give 6 replicas x 4 cores; Table 3-205 row 4 prints 12/12/13/12 % at 3.4.1's four traffic
    sites, the busiest 13 %: 0.13 x 24 = 3.12 cores, predicted for 3.4.2 unchanged at twice the load. Table 3-214 row 4
    prints 12 % at 3.4.2's traffic sites (1 and 3): 0.12 x 24 = 2.88 cores; error 0.24 / 2.88 = 8.33 %."""
    p = point(result, "one-run", "policy-3-4-2", "ndbmysqld / app", frm="policy-3-4-1")
    assert p["rule"] == "fixed" and p["source_to"] == "Table 3-214 row 4"
    assert (p["observed_from"], p["predicted_to"], p["observed_to"]) == pytest.approx((3.12, 3.12, 2.88))
    assert p["ape"] == pytest.approx(8.3333, abs=1e-3)
    fixed = [p for p in result["points"] if p["rule"] == "fixed" and p["method"] == "one-run"]
    assert fixed and all(p["predicted_to"] == p["observed_from"] for p in fixed)
    assert all(p["subject"].split(" / ")[0] not in ("pre", "am-service", "ndbappmysqld") for p in fixed)


def test_range_readings_are_left_out_and_named(result):
    """Policy 3.2.2 prints its traffic services' replicas only as min-max ranges (Table 3-81: Ingress Gateway 2 to 8):
    their readings are never compared, and the page names them."""
    assert not [p for p in result["points"] if p["to"] == "policy-3-2-2" and p["subject"].startswith("ingress-gateway")]
    why = next(x for x in result["left_out"] if x["scenario"] == "policy-3-2-2" and "ingress-gateway" in x["what"])
    assert "min-max range" in why["why"]
    # with them left out 3.2.2's readings cover too little of its CPU request to be compared as a whole footprint
    whole = next(x for x in result["left_out"] if x["scenario"] == "policy-3-2-2" and x["what"] == "whole footprint")
    assert "of the CPU it requests (a whole-footprint comparison needs 50 %)" in whole["why"]
    assert not [p for p in result["points"] if p["to"] == "policy-3-2-2" and p["level"] == "whole"]
    assert all(p["coverage"] >= 0.5 for p in result["points"] if p["level"] == "whole" and p["rule"] == "whole footprint")


def test_nearest_rank():
    assert backtest.nearest_rank([5, 1, 3, 2, 4], 0.5) == 3
    assert backtest.nearest_rank(list(range(1, 11)), 0.9) == 9
    assert backtest.nearest_rank(list(range(1, 12)), 0.9) == 10  # ceil(9.9) = 10th value
    assert backtest.nearest_rank([], 0.9) is None


def test_band_ranks():
    """k = round(0.1 x (m + 1)): 9 ratios k = 1 (lowest to highest), 19 ratios k = 2, 100 ratios k = 10; fewer than 9:
    none. Expected coverage (m + 1 - 2k) / (m + 1): 8/10, 16/20, 81/101."""
    assert backtest.band([2, 1, 3, 9, 4, 5, 6, 7, 8]) == {"lo": 1, "hi": 9, "comparisons": 9, "k": 1, "expected_coverage": 80.0}
    b = backtest.band(list(range(1, 20)))
    assert (b["lo"], b["hi"], b["k"], b["expected_coverage"]) == (2, 18, 2, 80.0)
    b = backtest.band(list(range(100)))
    assert (b["lo"], b["hi"], b["k"]) == (9, 90, 10) and b["expected_coverage"] == pytest.approx(8100 / 101)
    assert "none" in backtest.band([1.0] * 8)


def _made_up(cores: list[float]) -> dict:
    """A product "syn" with one call model and one traffic service, one run per load 1,000 ... 10,000 TPS (one site),
    10 replicas x 10 cores requested, printed CPU percent = the cores used (x 10 x 10 / 100)."""
    runs = [f"syn-{n}" for n in range(1, len(cores) + 1)]
    return {
        "sources": [{"id": "syn", "title": "made up", "short_name": "Syn", "product": "Syn", "load_unit": "TPS"}],
        "scenarios": [{"id": r, "doc": "syn", "title": r, "short_title": r, "load_per_site": 1000 * n, "load_total": 1000 * n,
                       "load_unit": "TPS", "sites_with_traffic": ["site1"], "sites_provisioned": 1, "asm": "disabled",
                       "deployment_mode": "X", "call_model": "m", "call_model_name": "M"} for n, r in enumerate(runs, 1)],
        "services": [{"doc": "syn", "service": "svc", "component": "app", "role": "traffic"}],
        "resources": [{"scenario": r, "table_id": f"T{n}", "row": 1, "row_label": "svc", "site": "", "component": "app",
                       "service": "svc", "container": "app", "is_sidecar": False, "replicas": 10, "replicas_min": None,
                       "replicas_max": None, "cpu_request_cores": 10, "cpu_limit_cores": 10, "cpu_cores": None,
                       "mem_request_gib": 1, "mem_limit_gib": 1, "mem_gib": None} for n, r in enumerate(runs, 1)],
        "utilization": [{"scenario": r, "table_id": f"U{n}", "row": 1, "site": "site1", "service": "svc", "container": "app",
                         "metric": "cpu", "observed_percent": c, "observed_abs": None, "abs_unit": None, "target_percent": 80,
                         "percent_basis": None, "status": "ok"} for n, (r, c) in enumerate(zip(runs, cores), 1)],
    }


def test_held_out_band_and_its_coverage_by_hand():
    """Ten made-up runs at 1,000 ... 10,000 TPS using 10 x the load in K cores, except the 5,000 TPS run: 60 cores.
    Held out, each run is predicted from its neighbours (interpolated) or, at the ends, from the nearest run scaled:
    run 1: 20 x 1/2 = 10; run 4: (30 + 60)/2 = 45, ratio 40/45 = 0.8889; run 5: (40 + 60)/2 = 50, ratio 1.2;
    run 6: (60 + 70)/2 = 65, ratio 60/65 = 0.9231; run 10: 90 x 10/9 = 100; every other ratio 1.
    Band: 10 ratios, k = round(1.1) = 1: lowest 0.8889 to highest 1.2.
    Coverage with each run removed entirely (its neighbours then predicted from the next ones out):
    without run 4, run 3 is 20 + (60 - 20)/3 = 33.3 (ratio 0.9) and run 5 is 30 + 30 x 2/3 = 50 (1.2): band 0.9-1.2
    misses run 4's 0.8889; without run 5 every other ratio is 1 (run 4: 30 + 30/3 = 40, run 6: 40 + 30 x 2/3 = 60):
    band 1-1 misses run 5's 1.2; every other run's ratio (1, or 0.9231 for run 6 against 0.8889-1.2) is inside: 8 of
    10. Computed in sample (each run among its own evidence) every ratio would be 1 and this would fail."""
    res = backtest.run(_made_up([10, 20, 30, 40, 60, 60, 70, 80, 90, 100]))
    ev = {p["to"]: p for p in res["points"] if p["method"] == "evidence" and p["level"] == "service"}
    assert ev["syn-1"]["predicted_to"] == pytest.approx(10) and ev["syn-1"]["how"] == "scaled"
    assert ev["syn-4"]["predicted_to"] == pytest.approx(45) and ev["syn-4"]["how"] == "interpolated"
    assert ev["syn-5"]["ratio"] == pytest.approx(1.2) and ev["syn-6"]["ratio"] == pytest.approx(60 / 65)
    assert ev["syn-10"]["predicted_to"] == pytest.approx(100)
    for level in ("service", "whole"):
        b = res["bands"]["syn"]["evidence"][level]
        assert (b["comparisons"], b["k"]) == (10, 1)
        assert b["lo"] == pytest.approx(40 / 45) and b["hi"] == pytest.approx(1.2)
        assert (b["covered"], b["checked"], b["basis"]) == (8, 10, "run")
        assert b["coverage"] == 80.0 and b["expected_coverage"] == pytest.approx(900 / 11)


def test_power_beyond_the_range_is_chosen_held_out_by_hand():
    """Ten made-up runs at 1,000 ... 10,000 TPS using 10 x sqrt(load in K) cores (10, 14.142, ..., 31.623): sub-linear.
    Held out, an end run is scaled from its neighbour. Proportional: run 1 from run 2, 14.142 x 1/2 = 7.071 (error
    29.3 %); run 10 from run 9, 30 x 10/9 = 33.333 (5.4 %). Power 1/2: 14.142 x (1/2) ** 0.5 = 10 and 30 x (10/9) ** 0.5
    = 31.623, both exact. The interior runs are interpolated alike under every power, so 1/2 has the lowest median + p90
    and is chosen, for the product and for each run held out; run 1 is then predicted at 10 cores."""
    cores = [10 * n ** 0.5 for n in range(1, 11)]
    res = backtest.run(_made_up(cores))
    assert res["extrapolation"]["syn"]["power"] == 0.5
    assert res["extrapolation"]["syn"]["held_out_choices"] == {"1": 0, "0.75": 0, "0.5": 10}
    ev = {p["to"]: p for p in res["points"] if p["method"] == "evidence" and p["level"] == "service"}
    assert ev["syn-1"]["predicted_to"] == pytest.approx(10) and ev["syn-1"]["power"] == 0.5
    assert ev["syn-10"]["predicted_to"] == pytest.approx(10 * 10 ** 0.5)
    one = {p["from"]: p for p in res["points"] if p["method"] == "one-run" and p["to"] == "syn-1" and p["level"] == "service"}
    assert one["syn-2"]["predicted_to"] == pytest.approx(10 * 2 ** 0.5 / 2)  # one run stays proportional


def test_power_choice_never_sees_the_run_it_predicts(monkeypatch):
    """Every choice of power made for a run B is made on comparisons that neither predict B nor read it; and a product
    with fewer than 9 whole-footprint comparisons keeps proportional scaling."""
    seen = []
    real = backtest.select_power
    monkeypatch.setattr(backtest, "select_power", lambda by_power: seen.append(by_power) or real(by_power))
    b = _made_up([10 * n ** 0.5 for n in range(1, 11)])
    backtest.run(b)
    per_run = seen[:10]  # one choice per run held out, then the product's own
    assert len(seen) == 11
    for n, by_power in enumerate(per_run, 1):
        for pts in by_power.values():
            assert pts and all(p["to"] != f"syn-{n}" and f"syn-{n}" not in p["from"].split(" + ") for p in pts), n
    few = backtest.run(_made_up([10 * n ** 0.5 for n in range(1, 9)]))
    assert few["extrapolation"]["syn"]["power"] == 1.0 and "only 8" in few["extrapolation"]["syn"]["why"]


def test_whole_footprint_needs_half_the_cpu_read():
    """The made-up product with the 5,000 TPS run's reading gone: no comparison predicts it, and none reads it."""
    b = _made_up([10, 20, 30, 40, 60, 60, 70, 80, 90, 100])
    b["utilization"] = [u for u in b["utilization"] if u["scenario"] != "syn-5"]
    res = backtest.run(b)
    assert not [p for p in res["points"] if p["to"] == "syn-5" or "syn-5" in p["from"].split(" + ")]
    assert ("syn-5", "the whole run") in {(x["scenario"], x["what"]) for x in res["left_out"]}


def test_missing_key_is_named():
    with pytest.raises(backtest.BacktestError, match="utilization"):
        backtest.run({"sources": [], "scenarios": [], "services": [], "resources": []})


@pytest.mark.parametrize("component, service, role, sidecar, rule", [
    ("stub", "nef-stub", "traffic", False, None),            # stubs and simulators are not production
    ("simulator", "udmsim", "traffic", False, None),
    ("app", "some-service", "test", False, None),
    ("app", "am-service", "traffic", True, "load-scaled"),   # a sidecar follows its pod's traffic
    ("app", "appinfo", "management", True, "load-scaled"),
    ("app", "am-service", "traffic", False, "load-scaled"),
    ("app", "ldap-gateway", "database", False, "load-scaled"),
    ("app", "appinfo", "management", False, "fixed"),
    ("app", "mystery", None, False, None),
    ("cndbtier", "ndbmgmd", "database", False, "fixed"),     # management pair per site
    ("cndbtier", "ndbmysqld", "database", False, "fixed"),   # replication channels follow the sites
    ("cndbtier", "db-replication-service", "management", False, "fixed"),
    ("cndbtier", "mysql-cluster-db-backup-manager-svc", "management", False, "fixed"),
    ("cndbtier", "mysql-cluster-db-monitor-svc", "management", False, "fixed"),
    ("cndbtier", "ndbappmysqld", "database", False, "load-scaled"),
    ("cndbtier", "ndbmtd", "database", False, "load-scaled"),
])
def test_cpu_rule_per_component(component, service, role, sidecar, rule):
    assert backtest.cpu_rule(component, service, role, sidecar) == rule


def test_every_comparison_has_its_own_page(built_site, result):
    """The comparisons table is on "Every backtest comparison", one row per comparison of both methods (a product with
    one figure per run listed once); the download "as shown" holds the same rows. The row for Policy 3.4.2's PRE
    Service from the comparable runs is the hand-computed one above (4.5 x 2 ** 0.5 = 6.363961 cores predicted, 27.75
    printed, ratio 27.75 / 6.363961 = 4.360492)."""
    import csv
    import io
    from atlas.tableview import shown_rows
    acc = (built_site / "calculators/accuracy/index.html").read_text(encoding="utf-8")
    assert 'data-atlas-table="backtest-points"' not in acc
    assert 'href="../accuracy-comparisons/"' in acc and 'data-chart-id="backtest-chart"' in acc
    page = (built_site / "calculators/accuracy-comparisons/index.html").read_text(encoding="utf-8")
    table = page[page.index('<table class="atlas-data atlas-comparisons"'):]
    head, rows = shown_rows(table[:table.index("</table>") + len("</table>")])
    single = ("scenario-cpu", "measured-rate", "cpu-per-node")
    listed = [p for p in result["points"] if not (p["rule"] in single and (p["level"] != "whole" or p["method"] != "one-run"))
              and not (p["rule"] not in single and p["method"] == "one-run" and p["level"] == "service")]
    assert len(rows) == len(listed) > 300
    # every comparison, one run's per service included, is in the download of them all
    every = list(csv.reader(io.StringIO((built_site / "downloads/views/accuracy/backtest-all.csv").read_text(encoding="utf-8"))))
    assert len(every) == len(result["points"]) + 1 > len(rows) + 1000
    row = next(dict(zip(every[0], x)) for x in every[1:] if x[1] == "evidence" and x[5] == "policy-3-4-2" and x[7] == "pre / app")
    assert (row["predicted"], row["printed"], row["printed_over_predicted"], row["how"]) == ("6.363961", "27.75", "4.360492", "scaled")
    pre = [dict(zip(head, r)) for r in rows if r[3] == "policy-3-4-2" and r[5] == "pre / app" and r[1] == "comparable runs"]
    assert pre == [{"Product": "Policy", "Method": "comparable runs", "Level": "per service", "Predicted": "policy-3-4-2",
                    "From": "policy-3-4-1", "Service or figure": "pre / app", "Load": "15,000 TPS", "Predicted value": "6.364",
                    "Printed": "27.75", "Unit": "cores", "Error": "77.1 %", "Source of the printed value": "Table 3-213 row 11"}]
    shown = list(csv.reader(io.StringIO((built_site / "downloads/views/accuracy/backtest-points.csv").read_text(encoding="utf-8"))))
    assert shown[0] == head and len(shown) == len(rows) + 1 and shown[1] == rows[0]
    assert 'href="../../downloads/views/accuracy/backtest-points.csv"' in page


def test_the_accuracy_page_lists_its_sections_and_what_it_left_out(built_site, result):
    """The sections are in the table of contents; "Left out" names policy-3-2-2's range rows and policy-3-1-4's
    flagged Table 3-40 readings."""
    import re
    html = (built_site / "calculators/accuracy/index.html").read_text(encoding="utf-8")
    toc = html[html.index('<nav class="md-nav md-nav--secondary"'):html.index('<div class="md-content"')]
    want = ["headline", "by-call-model", "band", "beyond-the-range", "whole-footprint", "left-out", "every-comparison", "method"]
    assert list(dict.fromkeys(re.findall(r'href="#([^"]+)"', toc))) == want
    powers = html[html.index('id="beyond-the-range"'):html.index('id="whole-footprint"')]
    rows = re.findall(r"<tr><td>([^<]+)</td>\s*<td>([^<]+)</td>.*?<td>([^<]*)</td>\s*</tr>", powers)
    used = {(product, power) for product, power, why in rows if why.startswith("yes")}
    assert used == {("Policy", "0.5"), ("BSF", "1 (proportional)")}, rows
    left = html[html.index('id="left-out"'):html.index('id="every-comparison"')]
    assert "policy-3-2-2" in left and "min-max range" in left
    assert "policy-3-1-4, Table 3-40" in left and "policy-E309" in left


def test_a_calculator_product_is_compared_by_its_own_rule(bundle):
    """ShCM's runs are compared by its calculator's rule (Rhino node CPU per SPS), called directly (the module fixture
    ``result`` computes it once for the first test only): Rhino performance table rows 1 and 2 (server config A), 280 %
    (2.8 cores) at 1,000 SPS and 310 % at 1,100: 2.8 x 1100/1000 = 3.08 cores, as test_shcm_config_a_test_1_to_2."""
    pts = backtest.comparisons(bundle, "shcm")
    p = next(p for p in pts if p["method"] == "one-run" and p["level"] == "service" and p["from"] == "shcm-test-1"
             and p["to"] == "shcm-test-2")
    assert p["rule"] == "cpu-per-node" and p["predicted_to"] == pytest.approx(3.08)


def test_held_out_coverage_basis_per_product(bundle):
    """NEF's runs come two per API and ShCM's few per server configuration: removing a run leaves no band, so their
    coverage holds one comparison out at a time ('comparison'); Policy's and DSR's remove a whole run ('run').
    (Called directly, not through the module's fixture: a mutation run credits a shared fixture to one test only.)"""
    bands = backtest.run(bundle)["bands"]
    assert {doc: bands[doc]["one-run"]["whole"]["basis"] for doc in ("nef", "shcm", "policy", "dsr")} == {
        "nef": "comparison", "shcm": "comparison", "policy": "run", "dsr": "run"}


def test_a_run_with_ranged_replicas_is_named_with_its_services(bundle):
    """Policy 3.2.3, Table 3-92 prints the replicas of PRE (row 16, '2 / 55') and Ingress Gateway (row 6, '2 / 27')
    as a min / max range: their readings (Table 3-94) cannot be turned into the cores the pods used, so the run's
    entry under Left out names them. (Called directly: the module's fixture is credited to one test only.)"""
    entry = next(x for x in backtest.run(bundle)["left_out"]
                 if x["scenario"] == "policy-3-2-3" and x["why"].startswith("replicas printed as a min-max range"))
    assert set(entry) == {"doc", "scenario", "what", "why"} and entry["doc"] == "policy"
    assert {"pre", "ingress-gateway"} <= set(entry["what"].split(", "))
