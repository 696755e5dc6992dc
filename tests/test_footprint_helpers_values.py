"""calculators/footprint.py's small helpers, each on made-up values worked out by hand in the comments (never from
the code under test): the load in a sentence (``_k``), why a pod has no CPU reading (``_no_reading_why``), a row at
other replicas (``_at_replicas``), a range without a held-out band (``_range``), the scenario's printed CPU target
(``_scenario_cpu``), and what the comparable runs section of a result names (product, anchor, runs)."""
from __future__ import annotations

from fractions import Fraction

from calculators import footprint


def test_k_writes_whole_hundreds_from_one_thousand_as_k():
    # 1,000 / 1000 = 1 -> "1K" (the boundary is included); 25,000 -> "25K"; 7,500 -> "7.5K"; 950 is below 1,000 and
    # 1,050 is not a whole hundred: both written as the number
    assert footprint._k(1000) == "1K"
    assert footprint._k(25000) == "25K" and footprint._k(7500) == "7.5K"
    assert footprint._k(950) == "950" and footprint._k(1050) == "1,050"


def test_no_reading_why_names_only_the_pods_own_excluded_reading():
    """An excluded CPU reading counts for a pod only when both its service and its container are the pod's: a reading
    of another service's container of the same name (both 'main' here) is not this pod's. (``reads``: the container
    the reading reads, as ``runs.joined`` gives it.)"""
    other = {"service": "diam-gateway", "container": "main", "reads": "main", "metric": "cpu", "table_id": "3-9", "row": 4,
             "errata": ["E-7"], "status": "excluded"}
    ctx = {"excluded_util": [other]}
    assert footprint._no_reading_why(ctx, "bsf-management", {"container": "main"}) == "no observed CPU for this pod"
    # the pod's own reading, excluded by erratum E-7: named with its table and row
    assert footprint._no_reading_why(ctx, "diam-gateway", {"container": "main"}) == (
        "its observed CPU (Table 3-9 row 4) is not used: E-7")


def test_at_replicas_recomputes_every_total():
    # per pod 0.5 / 1 core and 2 / 4 GiB at 3 replicas: 1.5 and 3 cores, 6 and 12 GiB
    r = {"replicas_after": 2, "cpu_request": 0.5, "cpu_limit": 1, "mem_request": 2, "mem_limit": 4}
    at = footprint._at_replicas(r, 3)
    assert (at["replicas_after"], at["cpu_request_after"], at["cpu_limit_after"], at["mem_request_after"],
            at["mem_limit_after"]) == (3, 1.5, 3, 6, 12)
    # no replicas known: no totals; a column not printed (None) stays None
    none = footprint._at_replicas(dict(r, mem_limit=None), None)
    assert none["mem_request_after"] is None and none["cpu_request_after"] is None
    assert footprint._at_replicas(dict(r, mem_limit=None), 3)["mem_limit_after"] is None


def test_range_without_a_band_leaves_no_working_key_in_the_rows():
    """Without a held-out band the range says why, and the rows lose the working key ``_whole`` as they do with one
    (the rows go on to the page, the CSV and the JSON download)."""
    rows = [{"service": "a", "_whole": None}, {"service": "b", "_whole": None}]
    out = footprint._range(rows, 1, False, None, "bsf", "evidence", None)
    assert out["method"] == "evidence" and "no held-out backtest" in out["none"]
    assert rows == [{"service": "a"}, {"service": "b"}]


def test_scenario_cpu_names_the_table_and_row_of_the_printed_target():
    # a made-up scenario-wide reading: observed 40 %, the guide's 'Target CPU' 70 % printed in Table 3-5 row 7
    bundle = {"scenario_cpu": [{"scenario": "s1", "observed_percent": 40, "target_percent": "70",
                                "target_table_id": "3-5", "target_row": 7}]}
    w = footprint._scenario_cpu(bundle, {"id": "s1"}, None)
    assert w["target"] == Fraction(70) and w["target_source"] == "'Target CPU' in Table 3-5 row 7"
    mine = footprint._scenario_cpu(bundle, {"id": "s1"}, Fraction(60))
    assert mine["target"] == Fraction(60) and mine["target_source"] == "your target"


def test_comparable_runs_section_names_the_product_the_anchor_and_each_run(bundle):
    """A result from the comparable runs names its product as data/sources.yaml's short_name of the guide: 'Policy'
    for policy:pcf-sm (the Converged Policy guide), on the result and in the page's 'Comparable runs' section."""
    from calculators import footprint_report
    res = footprint.recommend(bundle, "policy:pcf-sm", 50000, mode="PCF", asm="remove", sites=2, redundancy="n+1")
    assert res["evidence"]["product"] == "Policy"
    html = footprint_report.result_html(res)
    assert "<p>The runs of Policy with the call model " in html
    # the ranked runs' table opens right after that paragraph, each run linked by its id (the anchor policy-3-5-1,
    # test_cli_and_page_size_from_the_comparable_runs_alike) over its short title
    assert ('alone, which is how far apart the runs are.</p><div class="atlas-table-wrap"><table class="atlas-comparable">'
            '<thead><tr><th>#</th><th>Run</th>') in html
    assert '<a href="../../products/policy/policy-3-5-1/">policy-3-5-1</a><br>' in html
    # the anchor's short title and load as data/policy/scenarios.yaml holds them (the guide's policy-3-5-1 run: PCF SM,
    # 30,000 TPS on one site)
    assert ("pods and per-pod requests as in <strong>PCF SM 30K TPS single site, Binding enabled, no ASM</strong> "
            "(policy-3-5-1, 30,000 TPS per site)") in html
