"""What a reader reads of a footprint result, on one made-up result whose every figure is worked out by hand below
(never taken from the code under test): the page's totals table and rows, the comparable runs table, the CSV's
columns and lines, the Helm values, the chart's spec and the report's sheets (calculators/footprint_report.py).

The made-up result (``_result``): one run, ``run-a`` of the made-up guide ``guide-x``, measured at 14,000 TPS per site,
scaled to 42,000 TPS on 2 sites carrying traffic of 2 provisioned, so 21,000 TPS per site (x1.5). Two rows, both
of the service ``svc-one``:

* ``main``: 2 -> 3 replicas, per pod 1.5 cores / 2 cores limit, 4 GiB / 6 GiB limit: baseline totals 2 x 1.5 = 3
  cores and 2 x 4 = 8 GiB (limits 4 cores, 12 GiB); target totals 3 x 1.5 = 4.5 cores, 3 x 2 = 6 cores limit,
  3 x 4 = 12 GiB, 3 x 6 = 18 GiB limit; likely 3-5 replicas (a made-up band of one pod's cores);
* ``istio-proxy``, a sidecar added from run ``run-b`` (Table 3-12 row 7): 0 -> 3, per pod 0.25 / 0.5 cores and
  0.25 / 0.5 GiB: target 0.75 cores, 1.5 cores limit, 0.75 GiB, 1.5 GiB limit.

Per site, target: 4.5 + 0.75 = 5.25 cores, 6 + 1.5 = 7.5 cores limit, 12 + 0.75 = 12.75 GiB, 18 + 1.5 = 19.5 GiB
limit; baseline 3 cores, 4 cores limit, 8 GiB, 12 GiB limit. All 2 sites: 10.5 cores, 15 cores limit, 25.5 GiB,
39 GiB limit. No whole-footprint band (``range`` says why), no node shape (no packing)."""
from __future__ import annotations

import csv
import io

from calculators import footprint_report, report

WHY_NO_RANGE = "no held-out backtest of this method for guide-x"


def _result(partial: bool = False) -> dict:
    """The made-up result of the module docstring, new on every call (tests may change it). ``partial``: the
    container ``svc-two`` / ``main`` could not be sized (Table 3-4 row 9, erratum E-3)."""
    main = {"component": "Core", "service": "svc-one", "container": "main", "is_sidecar": False, "role": "traffic",
            "rule": "cpu", "rule_detail": "scaled by CPU", "binding": "CPU", "group": "Core",
            "replicas_before": 2, "replicas_after": 3, "range": {"low": 3, "high": 5, "lo": 0.8, "hi": 1.3},
            "cpu_request": 1.5, "cpu_limit": 2, "mem_request": 4, "mem_limit": 6,
            "cpu_request_before": 3, "cpu_request_after": 4.5, "cpu_limit_after": 6,
            "mem_request_before": 8, "mem_request_after": 12, "mem_limit_after": 18,
            "table_id": "3-4", "source_row": 5, "row_label": "svc-one", "source_scenario": None, "added": False,
            "notes": ["first note", "second note"]}
    sidecar = {"component": "Core", "service": "svc-one", "container": "istio-proxy", "is_sidecar": True,
               "role": "sidecar", "rule": "sidecar", "rule_detail": "sized from run-b", "binding": None,
               "group": "sidecars", "replicas_before": 0, "replicas_after": 3, "range": None,
               "cpu_request": 0.25, "cpu_limit": 0.5, "mem_request": 0.25, "mem_limit": 0.5,
               "cpu_request_before": 0, "cpu_request_after": 0.75, "cpu_limit_after": 1.5,
               "mem_request_before": 0, "mem_request_after": 0.75, "mem_limit_after": 1.5,
               "table_id": "3-12", "source_row": 7, "row_label": "istio-proxy", "source_scenario": "run-b",
               "added": True, "notes": []}
    missing = [{"service": "svc-two", "container": "main", "component": "Core", "reason": "no CPU request printed",
                "table_id": "3-4", "row": 9, "errata": ["E-3"]}] if partial else []
    zero = {"cpu_request": 0, "cpu_limit": 0, "mem_request": 0, "mem_limit": 0}
    return {
        "inputs": {"scenario": "run-a", "target_load": 42000.0, "unit": "TPS", "sites": 2, "sites_provisioned": 2,
                   "redundancy": "none", "failover": False},
        "baseline": {"id": "run-a", "doc": "guide-x", "title": "Run A in full", "short_title": "Run A",
                     "load_per_site": 14000.0},
        "states": [{"state": "normal", "load": 21000.0, "factor": 1.5, "ceiling": None, "how": ""}],
        "per_site_load": 21000.0,
        "rows": [main, sidecar], "test_rows": [],
        "totals": {"groups": {
            "Core": {"replicas_before": 2, "replicas_after": 3,
                     "before": {"cpu_request": 3, "cpu_limit": 4, "mem_request": 8, "mem_limit": 12},
                     "after": {"cpu_request": 4.5, "cpu_limit": 6, "mem_request": 12, "mem_limit": 18}},
            "sidecars": {"replicas_before": 0, "replicas_after": 3, "before": dict(zero),
                         "after": {"cpu_request": 0.75, "cpu_limit": 1.5, "mem_request": 0.75, "mem_limit": 1.5}},
            "DB": {"replicas_before": 0, "replicas_after": 0, "before": dict(zero), "after": dict(zero)}},
            "site": {"before": {"cpu_request": 3, "cpu_limit": 4, "mem_request": 8, "mem_limit": 12},
                     "after": {"cpu_request": 5.25, "cpu_limit": 7.5, "mem_request": 12.75, "mem_limit": 19.5}},
            "deployment": {"cpu_request": 10.5, "cpu_limit": 15, "mem_request": 25.5, "mem_limit": 39},
            "sites": 2},
        "completeness": {"missing": missing, "partial": partial},
        "partial": partial, "nodes_per_site": None, "packing": None, "warnings": [], "evidence": None,
        "method": "Rules: made up for this test.",
        "sizing": {"method": "one-run", "extrapolation": {"text": "the load is 1.5 times the run's"}},
        "range": {"none": WHY_NO_RANGE, "method": "one-run"},
    }


HEADS = ("Replicas (baseline)", "Replicas (target)", "CPU request (cores), baseline site",
         "CPU request (cores), target site", "CPU limit (cores), target site", "Memory request (GiB), baseline site",
         "Memory request (GiB), target site", "Memory limit (GiB), target site")
"""The totals table's columns after 'Group', as the page heads them."""


def _cells(*values: str) -> str:
    """The expected cells after a totals row's first: each labelled with its column's head; an empty one bare."""
    assert len(values) == len(HEADS)
    return "".join(f'<td data-label="{h}">{v}</td>' if v else "<td></td>" for h, v in zip(HEADS, values))


def test_totals_table_heads_each_group_and_total_row():
    """The page's totals table: its heads, one row per group with resources (the DB group, all zero, is left out;
    the sidecars' replicas are a dash: a sidecar has the replicas of its pod), per site, all sites."""
    html = footprint_report.result_html(_result())
    assert ('<table class="atlas-totals"><thead><tr><th>Group</th>' + "".join(f"<th>{h}</th>" for h in HEADS)
            + "</tr></thead><tbody>") in html
    assert "<tr><td>Core</td>" + _cells("2", "3", "3", "4.5", "6", "8", "12", "18") + "</tr>" in html
    assert "<tr><td>sidecars</td>" + _cells("—", "—", "0", "0.75", "1.5", "0", "0.75", "1.5") + "</tr>" in html
    assert "<td>DB</td>" not in html
    # not partial: the totals are not "at least"
    assert ('<tr class="atlas-total-row"><th>Per site</th>' + _cells("", "", "3", "5.25", "7.5", "8", "12.75", "19.5")
            + "</tr>") in html
    assert ('<tr class="atlas-total-row"><th>All 2 site(s)</th>' + _cells("", "", "", "10.5", "15", "", "25.5", "39")
            + "</tr></tbody></table></div>") in html


def test_partial_result_says_at_least_and_lists_what_it_could_not_size():
    html = footprint_report.result_html(_result(partial=True))
    assert 'data-partial="true"' in html
    assert '<p class="atlas-headline">Per site: at least 5.25 cores, 12.75 GiB requested. All 2 site(s): at least 10.5 cores.</p>' in html
    assert '<th>Per site (at least)</th>' in html and "<th>All 2 site(s) (at least)</th>" in html
    assert ("<ul><li>svc-two / main: no CPU request printed (Table 3-4, row 9) — erratum E-3</li></ul></div>") in html


def test_summary_names_the_run_the_target_and_how_far_beyond_the_run():
    """One run at 14,000 TPS per site, 42,000 TPS on 2 of 2 sites, no redundancy: 21,000 TPS per site."""
    html = footprint_report.result_html(_result())
    assert ('<p class="atlas-summary">Sized from one run: <strong>Run A</strong> (run-a) at 14,000 TPS per site, scaled '
            "in proportion to load. Target: a total of <strong>42,000 TPS</strong> on 2 site(s) carrying traffic of 2 "
            "provisioned; redundancy none. Each site is sized for <strong>21,000 TPS</strong>. "
            '<span class="atlas-extrapolation">Beyond what was measured: the load is 1.5 times the run\'s.</span></p>'
            ) in html.replace("&#x27;", "'")
    assert ('<ul class="atlas-states"><li>normal: 21,000 TPS per site carrying traffic (x1.5 the baseline)</li></ul>'
            in html)
    assert f"<p>No range: {WHY_NO_RANGE}. " in html


def test_rows_table_names_an_added_sidecars_run_table_and_row():
    html = footprint_report.result_html(_result())
    # the main container: its notes in italics under the rule, its likely replicas 3 to 5
    assert "<td>scaled by CPU<br><em>first note</em><br><em>second note</em></td>" in html
    assert "<td>3–5</td>" in html and "<td>Table 3-4, row 5</td>" in html
    # the sidecar added from run-b's Table 3-12 row 7
    assert "<td>added sidecar: run-b Table 3-12, row 7</td>" in html
    # without a source row: the table alone; without a source run: no run named
    rows = _result()["rows"]
    rows[1].update(source_row=None, source_scenario="")
    assert "<td>added sidecar: 3-12</td>" in footprint_report._rows_html(rows)


def _csv_lines(text: str) -> tuple[list[str], list[str], list[dict]]:
    """(the comment lines read as CSV, without '# ' (a line holding a comma is quoted); the header; the lines after
    it as dicts)."""
    lines = list(csv.reader(io.StringIO(text)))
    comments = [line[0][2:] for line in lines if len(line) == 1 and line[0].startswith("# ")]
    header, *rest = lines[len(comments):]
    return comments, header, [dict(zip(header, line, strict=True)) for line in rest]


CSV_COLUMNS = ["scenario", "component", "service", "container", "is_sidecar", "role", "rule", "rule_detail",
               "replicas_before", "replicas_after", "range_low", "range_high", "cpu_request", "cpu_limit",
               "mem_request", "mem_limit", "cpu_request_before", "cpu_request_after", "cpu_limit_after",
               "mem_request_before", "mem_request_after", "mem_limit_after", "table_id", "source_row", "row_label",
               "source_scenario", "added", "group", "binding", "notes", "partial"]
"""The CSV download's columns, in order (result_csv's docstring: range_low/range_high beside the replicas)."""


def test_csv_has_its_columns_the_answer_and_one_line_per_container():
    text = footprint_report.result_csv(_result())
    comments, header, rows = _csv_lines(text)
    assert header == CSV_COLUMNS
    assert comments == ["answer: Per site: 5.25 cores, 12.75 GiB requested. All 2 site(s): 10.5 cores.",
                        "sized from: one run, run-a, scaled in proportion to load",
                        "beyond what was measured: the load is 1.5 times the run's",
                        f"No range: {WHY_NO_RANGE}."]
    main, sidecar = rows
    assert {k: main[k] for k in CSV_COLUMNS if k not in ("is_sidecar", "added")} == {
        "scenario": "run-a", "component": "Core", "service": "svc-one", "container": "main", "role": "traffic",
        "rule": "cpu", "rule_detail": "scaled by CPU", "replicas_before": "2", "replicas_after": "3",
        "range_low": "3", "range_high": "5", "cpu_request": "1.5", "cpu_limit": "2", "mem_request": "4",
        "mem_limit": "6", "cpu_request_before": "3", "cpu_request_after": "4.5", "cpu_limit_after": "6",
        "mem_request_before": "8", "mem_request_after": "12", "mem_limit_after": "18", "table_id": "3-4",
        "source_row": "5", "row_label": "svc-one", "source_scenario": "", "group": "Core", "binding": "CPU",
        "notes": "first note; second note", "partial": "false"}
    # no range for the sidecar (its replicas are its pod's): empty, not "None"
    assert (sidecar["range_low"], sidecar["range_high"], sidecar["binding"], sidecar["notes"]) == ("", "", "", "")
    assert (sidecar["source_scenario"], sidecar["mem_request_after"], sidecar["group"]) == ("run-b", "0.75", "sidecars")


def test_csv_of_a_partial_result_adds_a_missing_line():
    _, _, rows = _csv_lines(footprint_report.result_csv(_result(partial=True)))
    assert [r["partial"] for r in rows] == ["true", "true", "true"]
    assert {k: v for k, v in rows[2].items() if v} == {
        "scenario": "run-a", "component": "Core", "service": "svc-two", "container": "main", "rule": "missing",
        "rule_detail": "no CPU request printed", "table_id": "3-4", "source_row": "9", "notes": "E-3",
        "partial": "true"}


def test_helm_values_per_service_with_millicores_and_mebibytes():
    """CPU 1.5 cores -> "1500m", 0.25 -> "250m", 2 -> "2"; memory 4 GiB -> "4Gi", 0.25 GiB = 256 MiB -> "256Mi",
    0.5 GiB -> "512Mi". The service's replicaCount is its main container's 3."""
    assert footprint_report.result_helm(_result()) == "\n".join([
        "# Benchmark Atlas footprint for run-a at 21,000 TPS per site",
        "# Keys are slugs of the service names in the guide; map them to your chart's values.",
        "# answer: Per site: 5.25 cores, 12.75 GiB requested. All 2 site(s): 10.5 cores.",
        "# sized from: one run, run-a, scaled in proportion to load",
        "# beyond what was measured: the load is 1.5 times the run's",
        f"# No range: {WHY_NO_RANGE}.",
        "svc-one:", "  replicaCount: 3", "  containers:",
        "    main:", "      resources:",
        "        requests:", '          cpu: "1500m"', '          memory: "4Gi"',
        "        limits:", '          cpu: "2"', '          memory: "6Gi"',
        "    istio-proxy:", "      resources:",
        "        requests:", '          cpu: "250m"', '          memory: "256Mi"',
        "        limits:", '          cpu: "500m"', '          memory: "512Mi"',
        ""])


def test_helm_values_of_a_partial_result_name_what_is_missing():
    helm = footprint_report.result_helm(_result(partial=True))
    assert "\n# MISSING (not sized): svc-two / main: no CPU request printed (E-3)\n" in helm


def test_chart_spec_is_vega_lite_bars_per_group_and_site():
    """The whole spec: Vega-Lite's own keywords are lower case ("container", "quantitative", "nominal"); Core 3 ->
    4.5 cores (8 -> 12 GiB), sidecars 0 cores at the baseline site (no bar) and 0.75 at the target site."""
    assert footprint_report.result_chart(_result()) == {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": "CPU request per group, baseline site against target site",
        "width": "container", "height": 220,
        "data": {"values": [{"group": "Core", "when": "baseline site", "cores": 3, "gib": 8},
                            {"group": "Core", "when": "target site", "cores": 4.5, "gib": 12},
                            {"group": "sidecars", "when": "target site", "cores": 0.75, "gib": 0.75}]},
        "mark": {"type": "bar", "tooltip": True},
        "encoding": {"y": {"field": "group", "type": "nominal", "title": None}, "yOffset": {"field": "when"},
                     "x": {"field": "cores", "type": "quantitative", "title": "CPU request (cores)"},
                     "color": {"field": "when", "type": "nominal", "title": None}}}


BUNDLE = {"sources": [{"id": "guide-x", "title": "Guide X Benchmarking Guide"}],
          "scenarios": [{"id": "run-a", "doc": "guide-x", "section": "3.2 Run A"},
                        {"id": "run-b", "doc": "guide-y", "section": "3.3 Run B"}]}
"""A made-up bundle: guide-x has a title, guide-y (run-b's guide) has none."""


def _sheet(rep: dict, name: str) -> tuple[list[str], list[list]]:
    s = report.sheet_named(rep, name)
    return [report.header_text(c) for c in s["columns"]], s["rows"]


def test_report_totals_sheet_columns_and_rows():
    rep = footprint_report.report_of(_result(), BUNDLE)
    heads, rows = _sheet(rep, "Totals")
    assert heads == ["Total", "Replicas (baseline) (pods)", "Replicas (target) (pods)",
                     "CPU request, baseline site (cores)", "CPU request, target (cores)", "CPU limit, target (cores)",
                     "Memory request, baseline site (GiB)", "Memory request, target (GiB)", "Memory limit, target (GiB)"]
    assert rows == [["Group: Core", 2, 3, 3, 4.5, 6, 8, 12, 18],
                    ["Group: sidecars", None, None, 0, 0.75, 1.5, 0, 0.75, 1.5],
                    ["Per site", None, None, 3, 5.25, 7.5, 8, 12.75, 19.5],
                    ["All 2 site(s)", None, None, None, 10.5, 15, None, 25.5, 39]]
    assert rep["filename"] == "footprint-run-a.xlsx" and rep["title"] == "Footprint scaling: Run A"
    assert rep["subtitle"] == "Baseline run-a at 14000 TPS per site, scaled to 42000 TPS on 2 site(s)"


def test_report_results_sheet_gives_each_rows_likely_replicas():
    heads, rows = _sheet(footprint_report.report_of(_result(), BUNDLE), "Results")
    main, sidecar = (dict(zip(heads, r)) for r in rows)
    assert (main["Replicas, likely low (pods)"], main["Replicas, likely high (pods)"]) == (3, 5)
    assert (sidecar["Replicas, likely low (pods)"], sidecar["Replicas, likely high (pods)"]) == (None, None)
    assert (main["Group"], main["Sidecar"], main["Notes"]) == ("Core", "no", "first note; second note")
    assert (sidecar["Group"], sidecar["Sidecar"], sidecar["Memory request total, target (GiB)"]) == ("sidecars", "yes", 0.75)


def test_report_sources_name_each_rows_guide_by_its_title_else_its_id():
    """run-a's rows cite guide-x by its title; the sidecar added from run-b cites guide-y, which has no title in the
    bundle, by its id (never an empty cell); its section is run-b's."""
    heads, rows = _sheet(footprint_report.report_of(_result(partial=True), BUNDLE), "Sources")
    assert heads == list(report.SOURCE_COLUMNS)
    assert rows == [
        ["svc-one / main", "Guide X Benchmarking Guide", "3.2 Run A", "3-4", 5, "svc-one",
         "replicas, CPU and memory requests and limits", None, None],
        ["svc-one / istio-proxy (added sidecar)", "guide-y", "3.3 Run B", "3-12", 7, "istio-proxy",
         "replicas, CPU and memory requests and limits", None, None],
        ["svc-two / main (not sized)", "Guide X Benchmarking Guide", "3.2 Run A", "3-4", 9, None, None, None, "E-3"]]


def _evidence_result() -> dict:
    """The made-up result sized from the comparable runs of the call model 'Model M' of the made-up product
    'Product X': run-a the anchor (14,000 TPS per site: the target's 21,000 is 1.5 times it), run-c whose cores are
    also used (28,000 TPS: 0.75), run-d comparable but unusable alone, run-e of another call model; no ASM
    preference, so each run's ASM is named."""
    res = _result()
    res["evidence"] = {
        "doc": "guide-x", "product": "Product X", "call_model": "m", "call_model_name": "Model M", "mode": None,
        "asm": None, "anchor": "run-a", "runs_used": ["run-a", "run-c"],
        "spread": [{"id": "run-a", "cpu_request_site": 5.25, "nodes_per_site": None, "partial": False, "error": None},
                   {"id": "run-c", "cpu_request_site": 6, "nodes_per_site": 2, "partial": True, "error": None},
                   {"id": "run-d", "error": "cannot be sized alone: no CPU printed"}],
        "candidates": [
            {"id": "run-a", "short_title": "Run A", "comparable": True, "load_per_site": 14000.0, "ratio": 1.5,
             "matches": ["same call model"], "differs": [], "caveats": [], "asm": False},
            {"id": "run-c", "short_title": "Run C", "comparable": True, "load_per_site": 28000.0, "ratio": 0.75,
             "matches": ["same call model"], "differs": ["twice the load"],
             "caveats": ["measured on one site", "2 of 3 pods printed"], "asm": True},
            {"id": "run-d", "short_title": "Run D", "comparable": True, "load_per_site": 7000.0, "ratio": 3,
             "matches": ["same call model"], "differs": [], "caveats": [], "asm": False},
            {"id": "run-e", "short_title": "Run E", "comparable": False, "load_per_site": 7000.0, "ratio": 3,
             "matches": [], "differs": ["another call model"], "caveats": [], "asm": False}]}
    return res


def test_comparable_runs_table_ranks_each_run_with_what_it_gives_alone():
    html = footprint_report._evidence_html(_evidence_result())
    assert ("<thead><tr><th>#</th><th>Run</th><th>Load per site</th><th>Your load per site ÷ run's</th>"
            "<th>Why (matches; differs; <em>caveats</em>)</th><th>Used for</th>"
            "<th>Alone: CPU request per site (cores)</th><th>Alone: nodes per site</th></tr></thead><tbody>") in html
    # the anchor: no node shape, so no nodes alone (a dash)
    assert ('<tr data-run="run-a"><td>1</td><td><a href="../../products/guide-x/run-a/">run-a</a><br>Run A</td>'
            '<td class="atlas-num">14,000 TPS</td><td class="atlas-num">1.50</td><td>same call model; ASM off</td>'
            '<td>anchor: its pods and cores</td><td class="atlas-num">5.25</td><td class="atlas-num">—</td></tr>') in html
    # run-c alone is partial: both its figures are "at least" (≥), its caveats in italics
    assert ('<tr data-run="run-c"><td>2</td><td><a href="../../products/guide-x/run-c/">run-c</a><br>Run C</td>'
            '<td class="atlas-num">28,000 TPS</td><td class="atlas-num">0.75</td>'
            "<td>same call model; twice the load; ASM on<br><em>measured on one site; 2 of 3 pods printed</em></td>"
            '<td>cores used</td><td class="atlas-num">≥ 6</td><td class="atlas-num">≥ 2</td></tr>') in html
    assert ('<td class="atlas-num">3.00</td><td>same call model; ASM off</td><td></td>'
            '<td colspan="2">cannot be sized alone: no CPU printed</td></tr></tbody></table></div>') in html
    assert ('<details class="atlas-not-comparable"><summary>1 other run(s) of Product X: not comparable, not used'
            '</summary><ul><li data-run="run-e"><a href="../../products/guide-x/run-e/">run-e</a> (Run E): another '
            "call model</li></ul></details>") in html
    assert html.startswith('<h3 id="calc-comparable-runs">Comparable runs</h3><p>The runs of Product X with the call '
                           "model Model M, ranked: the same deployment mode and ASM first, then the nearest load.")


def test_summary_lines_of_an_evidence_result_give_each_run_alone():
    lines = footprint_report.summary_lines(_evidence_result())
    assert lines[1:5] == [
        "sized from: the comparable runs of Model M (guide-x); pods as in run-a; cores used from run-a, run-c",
        "the same request from run-a alone: 5.25 cores per site",
        "the same request from run-c alone: 6 cores per site, 2 nodes per site (at least)",
        "the same request from run-d alone: cannot be sized alone: no CPU printed"]


def test_summary_of_an_evidence_result_names_the_mode_and_the_asm_asked():
    res = _evidence_result()
    res["evidence"].update(mode="PCF", asm=False)
    html = footprint_report.result_html(res)
    assert ('<p class="atlas-summary">Sized from the comparable runs of <strong>Model M</strong> (guide-x, deployment '
            "mode PCF, ASM off): pods and per-pod requests as in <strong>Run A</strong> (run-a, 14,000 TPS per site), "
            "cores used from 2 run(s): run-a, run-c.") in html
    res["evidence"].update(mode=None, asm=True)
    assert "(guide-x, ASM on): pods" in footprint_report.result_html(res)


BAND = {"comparisons": 40, "lo": 0.8, "hi": 1.25, "k": 2, "expected_coverage": 90, "covered": 36, "checked": 40,
        "coverage": 90, "basis": "run"}
"""A made-up held-out band: printed / predicted 0.8 to 1.25 over 40 comparisons (the 2nd lowest and highest),
36 of 40 covered held out (90 %)."""


def test_band_sentence_says_how_much_the_band_covered_held_out():
    assert footprint_report.band_sentence({"method": "evidence", "band": BAND}) == (
        "Likely: where the cores the pods use fell in 40 held-out comparisons of sizing from the comparable runs, each "
        "run of the product predicted without its own figures: printed / predicted between 0.80 and 1.25 (the k-th "
        "lowest and highest, k = 2, expected to cover 90 % of new cases; held out, the band covered 36 of 40 (90 %)). "
        "The range moves only pods sized from CPU; pods held at the benchmark's replicas, by memory or by the data they "
        "hold do not move, and the choice of run is not in it: the comparable runs below show that.")
    # too few comparisons to measure its coverage
    few = footprint_report.band_sentence({"method": "one-run", "band": dict(BAND, coverage=None)})
    assert ("comparisons of scaling one run in proportion to load," in few
            and "of new cases; its coverage cannot be measured: too few comparisons). " in few)
