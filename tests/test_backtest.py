"""Backtest ("How accurate is this?"): hand-computed predictions from named tables, pairing rules, statistics."""
from __future__ import annotations

import pytest

from calculators import backtest


@pytest.fixture(scope="module")
def result(bundle):
    return backtest.run(bundle)


def point(result, frm, to, subject_start):
    found = [p for p in result["points"] if p["from"] == frm and p["to"] == to and p["subject"].startswith(subject_start)]
    assert len(found) == 1, found
    return found[0]


def test_policy_pre_service_3_4_1_to_3_4_2(result):
    """PRE Service: Table 3-202 row 14 and Table 3-211 row 14 give 15 replicas x 5-core request; Table 3-204 row 11
    prints 6%/80% at each traffic site of 3.4.1 (7.5K TPS per site), Table 3-213 row 11 prints 37%/80% at 3.4.2 (15K TPS).
    Used: 0.06 x 15 x 5 = 4.5 cores and 0.37 x 15 x 5 = 27.75 cores. Predicted for 3.4.2: 4.5 x 15000/7500 = 9 cores;
    error |9 - 27.75| / 27.75 = 67.57 %."""
    p = point(result, "policy-3-4-1", "policy-3-4-2", "pre / app")
    assert p["rule"] == "load-scaled"
    assert p["observed_from"] == pytest.approx(4.5)
    assert p["observed_to"] == pytest.approx(27.75)
    assert p["predicted_to"] == pytest.approx(9.0)
    assert p["ape"] == pytest.approx(67.5676, abs=1e-3)
    assert p["source_to"] == "Table 3-213 row 11"
    back = point(result, "policy-3-4-2", "policy-3-4-1", "pre / app")
    assert back["predicted_to"] == pytest.approx(13.875)  # 27.75 x 7500/15000
    assert back["ape"] == pytest.approx(208.333, abs=1e-3)  # |13.875 - 4.5| / 4.5


def test_shcm_config_a_test_1_to_2(result):
    """ShCM, Rhino performance table rows 1 and 2 (server config A): 280% (2.8 cores) at 1000 SPS, 310% at 1100 SPS.
    Predicted: 2.8 x 1100/1000 = 3.08 cores; error |3.08 - 3.1| / 3.1 = 0.645 %."""
    p = point(result, "shcm-test-1", "shcm-test-2", "Rhino node CPU")
    assert p["rule"] == "cpu-per-node"
    assert p["predicted_to"] == pytest.approx(3.08)
    assert p["ape"] == pytest.approx(0.6452, abs=1e-3)
    assert not [q for q in result["points"] if q["doc"] == "shcm" and {q["from"], q["to"]} == {"shcm-test-1", "shcm-test-4"}], \
        "tests on different server configurations are not paired"


def test_dsr_dsa_measured_rate(result):
    """DSR DSA, Table 3-15 rows 1 and 2: Previous Location Check 9.2K MPS per DA-MP at 29 % CPU peak, Time Distance
    Check 9.8K at 34 %, both 12 vCPU, profile 30K_MPS. Predicted: 29 x 9.8/9.2 = 30.891 %; error 3.109/34 = 9.14 %."""
    p = point(result, "dsr-dsa-previous-location-check", "dsr-dsa-time-distance-check", "DA-MP CPU peak")
    assert p["predicted_to"] == pytest.approx(30.8913, abs=1e-3)
    assert p["ape"] == pytest.approx(9.1432, abs=1e-3)


def test_pairing_needs_call_model_mode_and_feature(result):
    pairs = {(p["from"], p["to"]) for p in result["points"]}
    # Policy 3.2.5 / 3.2.6 print the same AM/UE mix in PCF mode
    assert ("policy-3-2-5", "policy-3-2-6") in pairs
    # 3.1.4 (converged) and 3.4.3 (PCF) print the same mix but run in different modes
    assert ("policy-3-1-4", "policy-3-4-3") not in pairs
    # 'Call Model Data' points at tables that differ between 3.1.1, 3.1.2 and 3.1.3
    assert not any(a.startswith("policy-3-1-1") for a, _ in pairs)
    # NEF QoS and Device Trigger print the same mix for different APIs
    assert ("nef-qos-1", "nef-dt-1") not in pairs and ("nef-qos-1", "nef-qos-2") in pairs
    # relay runs with different DA-MP profiles (30K_MPS, 40K_MPS_FABR) are not paired
    assert ("dsr-relay-12vcpu", "dsr-relay-multiqueue-12vcpu") not in pairs
    # BSF's three runs print three different mixes: no pair, and the page says so
    assert not any(a.startswith("bsf") for a, _ in pairs)
    assert "bsf" in result["notes"]


def test_fixed_rule_predicts_unchanged(result):
    fixed = [p for p in result["points"] if p["rule"] == "fixed"]
    assert fixed and all(p["predicted_to"] == p["observed_from"] for p in fixed)
    assert all(p["subject"].split(" / ")[0] not in ("pre", "am-service", "ndbappmysqld") for p in fixed)


def test_nearest_rank():
    assert backtest.nearest_rank([5, 1, 3, 2, 4], 0.5) == 3
    assert backtest.nearest_rank(list(range(1, 11)), 0.9) == 9
    assert backtest.nearest_rank(list(range(1, 12)), 0.9) == 10  # ceil(9.9) = 10th value
    assert backtest.nearest_rank([], 0.9) is None


def test_stats_and_totals_follow_the_points(result):
    pol = [p["ape"] for p in result["points"] if p["doc"] == "policy" and p["ape"] is not None]
    assert result["by_product"]["policy"]["with_error"] == len(pol)
    assert result["by_product"]["policy"]["median_ape"] == backtest.nearest_rank(pol, 0.5)
    zero = [p for p in result["points"] if p["observed_to"] == 0]
    assert zero and all(p["ape"] is None for p in zero)
    t = next(t for t in result["totals"] if t["from"] == "policy-3-4-1" and t["to"] == "policy-3-4-2")
    parts = [p for p in result["points"] if p["from"] == "policy-3-4-1" and p["to"] == "policy-3-4-2"]
    assert t["services"] == len(parts)
    assert t["predicted_to"] == pytest.approx(sum(p["predicted_to"] for p in parts))


def test_call_model_key_folds_only_spelling():
    assert backtest.call_model_key("CCRI-I, AARI –1, CCRU-2.") == backtest.call_model_key("CCRI-I, AARI -1 , CCRU-2")
    assert backtest.call_model_key("Call Model Data") is None
    assert backtest.call_model_key("") is None
    assert backtest.call_model_key("1:0:1") != backtest.call_model_key("1:1:1")


def test_bands_carry_p90_per_rule(result):
    b = backtest.bands(result)
    assert b["shcm/cpu-per-node"]["p90_ape"] == result["by_rule"]["shcm/cpu-per-node"]["p90_ape"]


def test_missing_key_is_named():
    with pytest.raises(backtest.BacktestError, match="cpu_obs"):
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


def test_every_comparison_has_its_own_page_and_the_accuracy_page_links_to_it(built_site, result):
    """The comparisons table moved from "How accurate is this?" to "Every backtest comparison" (issue 17 item 2: the
    accuracy page sent 446 KiB before use). One row per comparison, none lost; the first row is Policy 3.1.4 -> 3.3.1
    appinfo: Table 3-40 row 1 prints 2 % at site 1 of 1 replica x 1 core requested (Table 3-38 row 1), so 0.02 cores;
    Table 3-187 row 1 prints 3 % of 1 x 1 core (Table 3-185 row 1), 0.03 cores; appinfo is a management service
    (rule "fixed"), so 0.02 is predicted, |0.02 - 0.03| / 0.03 = 33.3 %. The download "as shown" holds the same rows."""
    import csv
    import io
    from atlas.tableview import shown_rows
    acc = (built_site / "calculators/accuracy/index.html").read_text(encoding="utf-8")
    assert 'data-atlas-table="backtest-points"' not in acc
    assert 'href="../accuracy-comparisons/"' in acc and 'data-chart-id="backtest-chart"' in acc
    page = (built_site / "calculators/accuracy-comparisons/index.html").read_text(encoding="utf-8")
    table = page[page.index('<table class="atlas-data atlas-comparisons"'):]
    head, rows = shown_rows(table[:table.index("</table>") + len("</table>")])
    assert len(rows) == len(result["points"]) > 300
    first = dict(zip(head, rows[0]))
    assert first == {"Product": "Policy", "Rule": "fixed", "From (A)": "policy-3-1-4", "To (B)": "policy-3-3-1",
                     "Service or figure": "appinfo / app", "Load A": "15,000 TPS", "Load B": "7,500 TPS",
                     "Printed for A": "0.02", "Predicted for B": "0.02", "Printed for B": "0.03", "Unit": "cores",
                     "Error": "33.3 %", "Source A": "Table 3-40 row 1", "Source B": "Table 3-187 row 1"}
    # chips count the rows of each product and rule
    assert f'data-value="Policy" aria-pressed="false">Policy <span class="atlas-chip-n">{sum(p["doc"] == "policy" for p in result["points"])}</span>' in page
    shown = list(csv.reader(io.StringIO((built_site / "downloads/views/accuracy/backtest-points.csv").read_text(encoding="utf-8"))))
    assert shown[0] == head and len(shown) == len(rows) + 1 and shown[1] == rows[0]
    assert 'href="../../downloads/views/accuracy/backtest-points.csv"' in page


def test_the_accuracy_page_lists_its_sections_in_its_table_of_contents(built_site, result):
    """The sections the page's macro writes (headline, whole footprint, by rule, not backtested, every comparison) are
    in the page's table of contents with the method the Markdown writes; they were missing, written as HTML headings."""
    import re
    html = (built_site / "calculators/accuracy/index.html").read_text(encoding="utf-8")
    toc = html[html.index('<nav class="md-nav md-nav--secondary"'):html.index('<div class="md-content"')]  # nested navs
    want = ["headline"] + (["whole-footprint"] if result["by_total"] else []) + ["by-rule"] \
        + (["not-backtested"] if result["notes"] else []) + ["every-comparison", "method"]
    assert list(dict.fromkeys(re.findall(r'href="#([^"]+)"', toc))) == want  # Material writes it twice (sidebar, phone menu)
    assert len(want) == 6 and all(f'id="{a}"' in html for a in want)
