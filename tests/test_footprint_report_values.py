"""calculators/footprint_report.py's pieces on made-up results, the expected text worked out by hand in the comments
(never from the code under test): the YAML quoting of the Helm values, the chart's data and encoding, and the
worker-node fill table."""
from __future__ import annotations

from calculators import footprint_report


def test_q_quotes_yaml_double_quoted_with_escapes():
    # YAML double-quoted scalar: a backslash doubled, a double quote escaped with a backslash
    assert footprint_report._q("bsf-management") == '"bsf-management"'
    assert footprint_report._q('say "hi"') == '"say \\"hi\\""'
    assert footprint_report._q("a\\b") == '"a\\\\b"'


def test_chart_has_one_bar_per_group_and_site_with_cores():
    """A made-up result of two groups: Policy 10 -> 15 cores (20 -> 30 GiB); cnDBTier 0 cores at the baseline site
    (no bar) and 4 cores / 8 GiB at the target site. Bars are coloured by the site, a nominal field."""
    res = {"totals": {"groups": {
        "Policy": {"before": {"cpu_request": 10, "mem_request": 20}, "after": {"cpu_request": 15, "mem_request": 30}},
        "cnDBTier": {"before": {"cpu_request": 0, "mem_request": 0}, "after": {"cpu_request": 4, "mem_request": 8}}}}}
    spec = footprint_report.result_chart(res)
    assert spec["data"]["values"] == [
        {"group": "Policy", "when": "baseline site", "cores": 10, "gib": 20},
        {"group": "Policy", "when": "target site", "cores": 15, "gib": 30},
        {"group": "cnDBTier", "when": "target site", "cores": 4, "gib": 8}]
    assert spec["encoding"]["color"] == {"field": "when", "type": "nominal", "title": None}
    assert spec["encoding"]["y"] == {"field": "group", "type": "nominal", "title": None}


def test_packing_numbers_the_nodes_from_one():
    """Two made-up nodes filled 81.3 % CPU / 40 % memory / 12 pods and 50 % / 25.5 % / 7 pods, on two sites:
    rows numbered 1 and 2, fills to one decimal, 2 nodes per site x 2 sites = 4 nodes."""
    p = {"fill": [{"cpu": 81.3, "mem": 40, "pods": 12}, {"cpu": 50, "mem": 25.5, "pods": 7}], "spare": 0,
         "reserve": "gke", "nodes": 2, "allocatable": {"cpu": 15.5, "mem": 58}, "daemonset_cpu": 0.5,
         "daemonset_mem": 1, "max_pods": 110, "binding": "CPU"}
    res = {"packing": p, "inputs": {"node_cores": 16, "node_mem_gib": 64}, "partial": False, "totals": {"sites": 2}}
    html = footprint_report._packing_html(res)
    assert ("<tbody><tr><td>1</td><td>81.3</td><td>40.0</td><td>12</td></tr>"
            "<tr><td>2</td><td>50.0</td><td>25.5</td><td>7</td></tr></tbody>") in html
    assert "Worker nodes per site: <strong>2</strong> of 16 cores / 64 GiB" in html
    assert "after GKE-tier reservations" in html and "All 2 site(s): 4 nodes." in html


def test_headline_gives_nodes_first_when_packed():
    """A made-up result packed on 3 nodes per site, 12 cores / 48 GiB requested per site, 2 sites (24 cores), no
    range: per site '3 nodes, 12 cores, 48 GiB', all sites 3 x 2 = 6 nodes and 24 cores."""
    res = {"totals": {"site": {"after": {"cpu_request": 12, "mem_request": 48}}, "sites": 2,
                      "deployment": {"cpu_request": 24}}, "partial": False, "nodes_per_site": 3}
    assert footprint_report.headline(res) == ("Per site: 3 nodes, 12 cores, 48 GiB requested. "
                                              "All 2 site(s): 6 nodes, 24 cores.")
    # not packed (no node shape given): no nodes in the line
    assert footprint_report.headline(dict(res, nodes_per_site=None)) == (
        "Per site: 12 cores, 48 GiB requested. All 2 site(s): 24 cores.")


def test_report_notes_the_scenario_only_and_names_the_limit_column(bundle):
    """The downloadable report of bsf-3-3 at 63,000 TPS: its Inputs sheet notes the baseline scenario with its short
    title and guide as data/bsf/scenarios.yaml and data/sources.yaml hold them ("63K TPS, 3-site setup, traffic on
    Site1 (with ASM)", the BSF Benchmarking Guide); every other input's note is empty or "default". Its Totals sheet
    has a "CPU limit, target" column in cores."""
    from calculators import footprint, report
    rep = footprint_report.report_of(footprint.compute(bundle, "bsf-3-3", 63000), bundle)
    notes = {row[0]: row[3] for row in report.sheet_named(rep, "Inputs")["rows"]}
    scenario = "Baseline scenario (sized from the comparable runs: the anchor, whose pods are used)"
    assert notes[scenario] == ("63K TPS, 3-site setup, traffic on Site1 (with ASM) (Oracle Communications Cloud Native "
                               "Core, Binding Support Function Benchmarking Guide)")
    assert all(n in (None, "default") for label, n in notes.items() if label != scenario)
    assert "CPU limit, target (cores)" in [report.header_text(c) for c in report.sheet_named(rep, "Totals")["columns"]]
