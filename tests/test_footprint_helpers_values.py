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


def _sidecar_ctx(observed_cores) -> dict:
    """A made-up pod's context: one load state at the baseline's load (x1), a sidecar target of 80 % of the limit,
    the sidecar istio-proxy of svc-one observed at ``observed_cores`` over the pod's replicas."""
    return {"states": [{"state": "normal", "load": 1000, "factor": Fraction(1), "ceiling": None}],
            "sc_target": Fraction(80), "warnings": [],
            "cpu_util": [{"service": "svc-one", "container": "istio-proxy", "reads": "istio-proxy",
                          "observed_abs": observed_cores, "abs_unit": "cores", "table_id": "3-9", "row": 4}]}


def test_check_sidecars_warns_only_above_the_sidecars_ceiling():
    """A sidecar with a 2-core limit and an 80 % target may use 2 x 80 / 100 = 1.6 cores per pod. Observed 3.2 cores
    over 2 pods, at the same load, on 2 pods: 3.2 x 1 / 2 = 1.6 per pod, at the ceiling, not above it: no warning.
    Observed 3.3 cores: 1.65 per pod, above: a warning naming the figures."""
    sidecar = {"container": "istio-proxy", "is_sidecar": True, "cpu_limit_cores": 2, "cpu_request_cores": 1}
    main = {"container": "main", "is_sidecar": False, "cpu_limit_cores": 4, "cpu_request_cores": 4}
    ctx, out = _sidecar_ctx("3.2"), {"notes": []}
    footprint._check_sidecars([main, sidecar], "svc-one", 2, 2, ctx, out)
    assert out["notes"] == [] and ctx["warnings"] == []
    ctx, out = _sidecar_ctx("3.3"), {"notes": []}
    footprint._check_sidecars([main, sidecar], "svc-one", 2, 2, ctx, out)
    msg = ("svc-one: sidecar istio-proxy would use 1.65 cores per pod at this load (observed 3.3 cores over 2 pods, "
           "x 1, over 2 pods), above 80 % of its 2-core limit: raise the sidecar's CPU or the replicas")
    assert out["notes"] == [msg] and ctx["warnings"] == [msg]


def test_extrapolation_names_the_largest_and_smallest_load_measured():
    """Made-up curves scaled beyond their runs: svc-a at 1.5 and svc-b at 1.25 x the largest load measured (normal
    state), svc-a at 0.5 x the smallest (failover state, say); proportional beyond the runs (power 1)."""
    ext = [("svc-a", 1.5, ["run-a"], "normal"), ("svc-b", 1.25, ["run-a"], "normal"),
           ("svc-a", 0.5, ["run-b"], "failover")]
    out = footprint._extrapolation(ext, {"factor": 1}, "TPS", {"power": 1})
    assert out["text"] == ("1.5 x the largest load measured (normal state; 2 pod(s): svc-a, svc-b); "
                           "0.5 x the smallest load measured (failover state; 1 pod(s): svc-a): beyond the comparable "
                           "runs each of these is scaled from the nearest run in proportion to load")
    # the farthest is the one whose log is largest: |ln 0.5| = 0.69 > ln 1.5 = 0.41
    assert (out["factor"], out["up"], out["down"], out["services"]) == (0.5, 1.5, 0.5, ["svc-a", "svc-b"])


def test_row_takes_the_single_printed_figure_as_request_and_limit():
    """A container whose table prints one CPU and one memory figure (2 cores, 4 GiB; request or limit not stated):
    both are the request and the limit; 2 -> 3 replicas: 6 cores and 12 GiB of limits after, 4 and 8 before."""
    c = {"component": "app", "service": "svc-one", "container": "main", "is_sidecar": False, "cpu_cores": 2,
         "mem_gib": 4, "replicas": 2, "table_id": "3-4", "row": 5, "row_label": "svc-one"}
    sz = {"replicas": 3, "rule": "cpu+memory", "detail": "made up", "binding": "cpu", "notes": []}
    r = footprint._row(c, "traffic", sz, 2)
    assert (r["cpu_request"], r["cpu_limit"], r["mem_request"], r["mem_limit"]) == (2, 2, 4, 4)
    assert (r["cpu_limit_before"], r["cpu_limit_after"], r["mem_limit_before"], r["mem_limit_after"]) == (4, 6, 8, 12)
    assert r["basis"] == "single value (request/limit not stated)" and r["group"] == "application"


def test_pack_refuses_a_max_pods_that_is_not_positive_naming_its_unit():
    import pytest
    with pytest.raises(footprint.FootprintError) as e:
        footprint._pack([], (Fraction(16), Fraction(64)), "gke", None, None, None, None, "-5", None)
    assert str(e.value) == "Max pods per node must be greater than zero (pods); got -5."


def test_database_pod_sized_at_your_database_target():
    """A made-up database pod (role 'database') of 2 replicas with a 2-core request, observed at 2 cores in all
    (Table 3-9 row 4, Site1), at 1.5 x the baseline's load and your database target of 50 %: 2 x 1.5 / (2 x 50 %)
    = 3 -> 3 replicas; no memory request printed."""
    ctx = {"states": [{"state": "normal", "load": 1500, "factor": Fraction(3, 2), "ceiling": None}],
           "target": Fraction(70), "db_target": Fraction(50), "sc_target": None, "wide": None, "warnings": [],
           "cpu_util": [{"service": "db-svc", "container": "main", "reads": "main", "observed_abs": "2",
                         "abs_unit": "cores", "table_id": "3-9", "row": 4, "site": "Site1"}],
           "mem_util": [], "curves": {}, "printed_targets": {}, "holds": {}, "sessions": None, "excluded_util": []}
    main = {"container": "main", "is_sidecar": False, "cpu_request_cores": 2}
    out = footprint._size_pod("database", "app", "db-svc", 2, 1, main, [main], ctx)
    assert out["detail"] == ("2 cores used (Table 3-9 row 4, Site1) at your database target; "
                             "normal: 2 x 1.5 / (2 x 50 %) -> 3; memory: no memory request printed")
    assert (out["rule"], out["replicas"], out["binding"]) == ("cpu+memory", 3, "cpu")
    # a traffic pod of the same readings is sized at your (traffic) target, 70 %: 3 / (2 x 0.7) = 2.14 -> 3
    traffic = footprint._size_pod("traffic", "app", "db-svc", 2, 1, main, [main], ctx)
    assert traffic["detail"].startswith("2 cores used (Table 3-9 row 4, Site1) at your target; normal: 2 x 1.5 / (2 x 70 %) -> 3")


def test_empty_node_shape_fields_mean_no_packing(bundle):
    """The node shape left empty (as a form or a script may send it, "") is no node shape: no packing, no nodes,
    as with None; bsf-3-3 (the BSF guide's 63K TPS, 3-site run) at its own load."""
    res = footprint.compute(bundle, "bsf-3-3", 63000, node_cores="", node_mem_gib="")
    assert res["packing"] is None and res["nodes_per_site"] is None
    assert (res["inputs"]["node_cores"], res["inputs"]["node_mem_gib"]) == (None, None)


def test_added_sidecar_takes_the_request_and_limit_printed_for_the_same_service():
    """A sidecar added from another run's row of the same service printing a request and a limit (0.5 / 1 core,
    0.25 / 0.5 GiB) and no single figure: each kept as printed, the row cited."""
    src = {"scenario": "run-b", "table_id": "3-12", "row": 7, "row_label": "istio-proxy", "cpu_request_cores": 0.5,
           "cpu_limit_cores": 1, "mem_request_gib": 0.25, "mem_limit_gib": 0.5}
    main = {"component": "app", "service": "svc-one", "container": "main"}
    c = footprint._added_sidecar(main, {"by_service": {("app", "svc-one"): src}})
    assert (c["cpu_request_cores"], c["cpu_limit_cores"], c["mem_request_gib"], c["mem_limit_gib"]) == (0.5, 1, 0.25, 0.5)
    assert (c["source_scenario"], c["table_id"], c["row"], c["container"], c["added"]) == ("run-b", "3-12", 7, "istio-proxy", True)


def test_apply_bands_gives_a_cpu_sized_row_its_replicas_at_each_end_of_the_band():
    """A made-up band of one pod's cores, printed / predicted 0.8 to 1.5 over 20 comparisons (90 % covered), and a
    row sized from 3 x its baseline replicas' worth of load (``base`` 3, nothing fixed above 1): ceil(3 x 0.8) = 3
    and ceil(3 x 1.5) = 5 replicas; the band's own ends and counts kept beside them. A row not sized from CPU (no
    scale) gets no range."""
    bands = {"guide-x": {"one-run": {"service": {"lo": 0.8, "hi": 1.5, "comparisons": 20, "coverage": 90}}}}
    rows = [{"_scale": {"cpu": [], "base": 3, "fixed": 1}, "replicas_after": 3}, {"replicas_after": 2}]
    footprint._apply_bands(rows, bands, "guide-x", "one-run")
    assert rows[0]["range"] == {"low": 3, "high": 5, "lo": 0.8, "hi": 1.5, "comparisons": 20, "coverage": 90}
    assert rows[1]["range"] is None and "_scale" not in rows[0]


def test_extrapolation_of_one_run_is_the_load_ratio_up_or_down():
    # 1.5 x the run's load: up; 0.5 x: down; 1 x: within what was measured
    up = footprint._extrapolation([], {"factor": 1.5}, "TPS", None)
    assert up == {"factor": 1.5, "up": 1.5, "down": None, "services": [],
                  "text": "1.5 x the run's load per site: every CPU-sized pod is scaled from one run"}
    down = footprint._extrapolation([], {"factor": 0.5}, "TPS", None)
    assert (down["up"], down["down"]) == (None, 0.5)
    assert footprint._extrapolation([], {"factor": 1}, "TPS", None) is None


def test_held_state_factor_grows_with_a_rising_load_and_holds_at_a_falling_one():
    """A made-up service holding sessions, no count given: at 1.5 x the load its memory grows 1.5 x; at 0.5 x it is
    kept at what the benchmark used (1 x)."""
    ctx = {"holds": {"svc-one": "sessions"}, "held_count": None, "sessions": None, "warnings": []}
    assert footprint._held_state_factor("svc-one", Fraction(3, 2), ctx) == (
        Fraction(3, 2), "it holds sessions: grows with the load (conservative)")
    assert footprint._held_state_factor("svc-one", Fraction(1, 2), ctx)[0] == 1


def test_median_of_odd_and_even_counts():
    # sorted values: the middle one; of an even count, the mean of the two middle ones: (2 + 4) / 2 = 3
    assert footprint._median([Fraction(1), Fraction(2), Fraction(4)]) == 2
    assert footprint._median([Fraction(1), Fraction(2), Fraction(4), Fraction(8)]) == 3
    assert footprint._median([]) is None


def test_parse_positive_takes_zero_only_when_allowed():
    import pytest
    assert footprint.parse_positive("0", "Spare nodes", "nodes", allow_zero=True) == 0
    with pytest.raises(footprint.FootprintError):
        footprint.parse_positive("0", "Spare nodes", "nodes")
