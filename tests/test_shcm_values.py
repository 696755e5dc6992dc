"""ShCM calculator (calculators/shcm.py): values computed by hand from the rows of the ShCM guide's tables, called
directly so that mutmut credits each check to its own test (the bundle fixture's own backtest runs once per session and
is credited to one test only: download_build in tests/conftest.py, MUTANT_UNDER_TEST)."""
from __future__ import annotations

import pytest

from calculators import report, shcm


def test_backtest_pairs_the_tests_of_one_server_config_at_both_levels(bundle):
    """Table T-rhino-performance: server config A is tests 1-3 (1000, 1100, 1200 SPS at 280, 310, 330 % = 2.8, 3.1,
    3.3 cores), config B tests 4-6, config C test 7 alone (T-server-configs). Ordered pairs within a config: 3 x 2 for
    A and for B, none for C = 12, each at the service and the whole level (one Rhino node is the whole footprint):
    24 points. Test 2's CPU predicted from test 1: 2.8 x 1100 / 1000 = 3.08 cores against the printed 3.1."""
    pts = shcm.backtest_points(bundle, "shcm")
    assert len(pts) == 24
    pairs = [(p["from"], p["to"]) for p in pts if p["level"] == "service"]
    assert pairs == [(p["from"], p["to"]) for p in pts if p["level"] == "whole"]
    assert len(pairs) == 12 and not any("shcm-test-7" in pair for pair in pairs)
    one_two = [p for p in pts if (p["from"], p["to"]) == ("shcm-test-1", "shcm-test-2")]
    assert [p["level"] for p in one_two] == ["service", "whole"]
    p = one_two[0]
    assert (p["rule"], p["call_model"], p["subject"]) == ("cpu-per-node", "server config A", "Rhino node CPU (server config A)")
    assert (p["load_from"], p["load_to"], p["unit"], p["observed_from"], p["observed_to"]) == (1000, 1100, "SPS", 2.8, 3.1)
    assert p["predicted_to"] == pytest.approx(2.8 * 1100 / 1000) and p["value_unit"] == "cores"
    assert (p["source_from"], p["source_to"]) == ("Table T-rhino-performance row 1", "Table T-rhino-performance row 2")
    assert {k: v for k, v in one_two[1].items() if k != "level"} == {k: v for k, v in p.items() if k != "level"}


def test_backtest_leaves_out_the_excluded_tests(bundle):
    """With test 2 held out, config A keeps tests 1 and 3 (2 ordered pairs) and config B its 6: 8 pairs, 16 points."""
    pts = shcm.backtest_points(bundle, "shcm", excluded=frozenset({"shcm-test-2"}))
    assert len(pts) == 16 and not any("shcm-test-2" in (p["from"], p["to"]) for p in pts)


def test_defaults_of_a_named_test_are_its_own_rps(bundle):
    """Table T-rhino-performance row 5 (test 5) prints 2160 RPS: the page's defaults for test 5 are that load in RPS,
    no ceiling, the default spare (N+1). An unknown test is a KeyError."""
    assert shcm.defaults(bundle, "shcm-test-5") == {"scenario": "shcm-test-5", "target": "2160", "unit": "RPS",
                                                    "ceiling": "", "spare": "1"}
    with pytest.raises(KeyError, match="shcm-test-9"):
        shcm.defaults(bundle, "shcm-test-9")


def test_report_title_method_and_extra_sources(bundle):
    """Test 5 (config B, Table T-rhino-performance row 5: 2160 RPS at 3.2 cores = 40 % of 8 vCPU) at 21,600 RPS and an
    80 % ceiling: 2160 x 6.4 / 3.2 = 4,320 RPS per node -> 5 nodes + the default spare = 6 (as
    tests/test_calculators_dsr_shcm.py::test_shcm_test5_config_b). The report says so in its title and subtitle, states
    the method, the spares and what is not sized, and cites the node's hardware sentence (T-hardware row 1) and the
    server config (row 5)."""
    rep = shcm.report_web(bundle, {"scenario": "shcm-test-5", "target": "21600", "unit": "RPS", "ceiling": "80"})
    assert (rep["title"], rep["filename"]) == ("ShCM Rhino nodes: test 5", "shcm-shcm-test-5.xlsx")
    assert rep["subtitle"] == ("6 Rhino node(s) for 21,600 RPS; baseline test 5 (shcm-test-5) (partial: Rhino nodes "
                               "only, Cassandra not sized)")
    method = report.sheet_named(rep, "Method")["rows"]
    assert method[:4] == [
        ["Method", "Rhino nodes = ceil(target / load per node): the load one node carried in test 5, or with a CPU "
                   "ceiling that load scaled linearly to the ceiling's share of the node's vCPUs; spares added (N+k)."],
        ["Spares", "1 spare node(s) added (N+k); the default is 1 (N+1): with a node down the others must carry its load."],
        ["Not sized", "Cassandra database"],
        ["Estimate", "A planning estimate from the vendor's benchmark, not a vendor figure."]]
    assert [x[0] for x in method[4:]] == ["Note from the guide"] * len(method[4:]) and method[4:]
    sources = {r[0]: r for r in report.sheet_named(rep, "Sources")["rows"]}
    # the measured figures name their table, row and column as printed: row 5's SPS column prints 1200
    assert sources["Load, sessions per second"][3:8] == ["T-rhino-performance", 5, None, "SPS", "1200"]
    node = sources["Rhino node (vCPUs read from the sentence)"]
    assert (node[3], node[4]) == ("T-hardware", 1) and "(8 vCPUs, 16gb RAM)" in node[7]
    assert (sources["Server config"][3], sources["Server config"][4], sources["Server config"][7]) == \
        ("T-rhino-performance", 5, "B")


def test_form_unit_sps_is_read(bundle):
    """Test 1 (Table T-rhino-performance row 1: 1000 SPS, 1800 RPS at 2.8 cores = 35 % of 8 vCPU) from the form in
    SPS at a 35 % ceiling: 5000 / 1000 = exactly 5 nodes for the load; read as RPS it would be 5000 / 1800 -> 3."""
    res = shcm.compute_web(bundle, {"scenario": "shcm-test-1", "target": "5000", "unit": "SPS", "ceiling": "35"})
    assert (res["inputs"]["unit"], res["load"], res["needed"], res["total"]) == ("SPS", 1000, 5, 6)


def test_a_config_the_bundle_does_not_describe_still_sizes(bundle):
    """Without table T-server-configs in the bundle (no config descriptions), test 1 (config A, 1800 RPS) still sizes:
    1800 / 1800 = 1 node + the default spare = 2; the config letter is kept, its description and cite are None and the
    result's steps name the config without a description."""
    info = dict(bundle["shcm_info"], configs={})
    res = shcm.compute(dict(bundle, shcm_info=info), "shcm-test-1", 1800)
    assert res["total"] == 2 and res["test"]["config"] == "A"
    assert res["test"]["config_text"] is None and res["test"]["config_text_cite"] is None
    config = next(r for r in shcm._rows(res) if r[1] == "config")
    assert config[3] == "A" and config[5] == "Table T-rhino-performance, row 1"
