"""The over-target calculator's report, HTML and CSV (calculators/overtarget_report.py): what a reader finds in each,
from named rows of the NEF and Policy guides or the reader's own CSV, with the counts worked out by hand."""
from __future__ import annotations

from calculators import overtarget, overtarget_report, report

OWN = "name,replicas,cpu_request,observed,target\ngw,50,4,90%,75\nbad\n"
"""One readable line (line 2: 50 replicas at 90 % against 75 %: ratio 1.2, ceil(50 x 1.2) = 60 replicas, critical)
and one line without its fields (line 3)."""


def _sheet(rep: dict, name: str) -> dict:
    return report.sheet_named(rep, name)


def _headers(sheet: dict) -> list[tuple]:
    return [(c["header"], c["unit"]) for c in sheet["columns"]]


def _nef_report(bundle, csv_text: str = ""):
    res, own, problems = overtarget_report.compute_web(bundle, {"product": "nef", "csv": csv_text})
    return overtarget_report.report_of(res, own, problems, bundle)


def test_report_sheets_name_their_columns_and_units(bundle):
    """The Results sheet: one column per field a reader filters on, percent and pods as units; the Totals sheet
    counts rows."""
    rep = _nef_report(bundle)
    assert _headers(_sheet(rep, "Results")) == [
        ("Kind", None), ("Severity", None), ("Flag", None), ("Scenario", None), ("Service", None), ("Container", None),
        ("Site", None), ("Observed", "%"), ("Target or threshold", "%"), ("Observed / target", None),
        ("Replicas (printed)", "pods"), ("HPA reads", "whole %"), ("HPA desired replicas", None),
        ("HPA max must rise to", "pods"), ("Source table", None), ("Source row", None), ("Scenario partial", None),
        ("Other Kubernetes version", None)]
    assert _headers(_sheet(rep, "Totals")) == [("Count", None), ("Rows", None), ("Note", None)]


def test_nef_scenario_wide_row_and_its_two_sources(bundle):
    """NEF Table 3-21 row 1 (nef-ti-1, 'Average CPU, Total' ~69 %) against the 70 % 'Target CPU' of Table 3-19 row 5:
    69 >= 0.9 x 70 = 63 and below 70: near; the HPA reads 69, 69 / 70 = 0.986, inside the band: warning. The
    Sources sheet names both rows, with the guide's title and the scenario's section."""
    rep = _nef_report(bundle)
    inputs = _sheet(rep, "Inputs")["rows"]
    assert inputs == [["Product", "nef", None, None], ["Memory threshold", 80, "%", None],
                      ["Kubernetes version", "1.33", None, "the HPA controller of Kubernetes v1.33 or later"],
                      ["Your CSV", None, "rows evaluated", "none given"]]
    row = next(r for r in _sheet(rep, "Results")["rows"] if r[3] == "nef-ti-1")
    assert row[:10] == ["cpu", "warning", "near", "nef-ti-1", "(scenario-wide; pods not stated)", None, None, 69, 70,
                        69 / 70]
    assert row[11] == 69 and row[14:16] == ["3-21", 1]
    title = next(s["title"] for s in bundle["sources"] if s["id"] == "nef")
    section = next(s["section"] for s in bundle["scenarios"] if s["id"] == "nef-ti-1")
    sources = [r for r in _sheet(rep, "Sources")["rows"] if r[0].startswith("nef-ti-1:")]
    assert sources == [["nef-ti-1: (scenario-wide; pods not stated) (observed, target)", title, section, "3-21", 1,
                        "Average CPU, Total", None, None, None],
                       ["nef-ti-1: target CPU", title, section, "3-19", 5, None, None, None, None]]


def test_own_csv_rows_in_the_inputs_totals_and_sources(bundle):
    """``OWN``: one row evaluated (line 2) and one not (line 3, a warning naming it); the row's source is the
    reader's CSV, line 2; the Totals count it as over and critical."""
    rep = _nef_report(bundle, OWN)
    inputs = {r[0]: r for r in _sheet(rep, "Inputs")["rows"]}
    assert inputs["Your CSV"] == ["Your CSV", 1, "rows evaluated", "1 line(s) not evaluated"]
    assert [r for r in _sheet(rep, "Sources")["rows"] if r[1] == "your CSV"] == [
        ["your row: gw", "your CSV", None, None, 2, None, None, None, None]]
    totals = {r[0]: r[1] for r in _sheet(rep, "Totals")["rows"]}
    assert (totals["Your rows: over"], totals["Your rows: near"], totals["Your rows: ok"]) == (1, 0, 0)
    assert (totals["Your rows: critical (severity)"], totals["Your rows: warning (severity)"]) == (1, 0)
    mine = next(r for r in _sheet(rep, "Results")["rows"] if r[0] == "your row")
    assert mine[1:3] == ["critical", "over"] and mine[12] == 60 and mine[15] == 2


def test_html_without_other_controller_differences_has_no_details_block(bundle):
    """NEF at the default controller: the scenario-wide rows read 65-69 % against 70 % (ratios 0.93-0.99, inside
    both controllers' band): no row differs, so the severity counts are followed directly by the HPA rule."""
    res, _, _ = overtarget_report.compute_web(bundle, {"product": "nef"})
    assert not any(e["controller_note"] for e in res["cpu"])
    html = overtarget_report.to_html(res)
    assert " ok.</p><p class=\"atlas-note\">" + overtarget.HPA_RULE[:20] in html


def test_memory_row_without_a_site_shows_a_dash(bundle):
    """Policy Table 3-246 row 17 (policy-3-5-1, SM Service, app) prints memory 89.29 % with no site: at or above the
    default 80 % threshold, listed with '—' in its Site cell and a link to its table on the scenario's page."""
    res, _, _ = overtarget_report.compute_web(bundle, {"product": "policy"})
    html = overtarget_report.to_html(res)
    assert ('<tr data-scenario="policy-3-5-1" data-service="sm-service"><td>policy-3-5-1</td><td>sm-service</td>'
            '<td>app</td><td>—</td><td>89.29</td><td>unstated</td>'
            '<td><a href="../../products/policy/policy-3-5-1/#table-3-246">Table 3-246, row 17</a></td></tr>') in html


def test_report_of_one_product_and_of_all(bundle):
    """The report names its calculator and, in its subtitle, the product it covers ('for policy') or 'across all
    products', which the Inputs sheet says too. Policy Table 3-246 row 17 (SM Service memory 89.29 % at or above the
    default 80 %) is a 'memory' row. The count rows carry no note except the near band's."""
    res, own, problems = overtarget_report.compute_web(bundle, {"product": "policy"})
    rep = overtarget_report.report_of(res, own, problems, bundle)
    assert rep["calculator"] == "overtarget" and rep["subtitle"].endswith(" critical for policy")
    mem = next(r for r in _sheet(rep, "Results")["rows"] if r[3] == "policy-3-5-1" and r[4] == "sm-service")
    assert mem[:3] == ["memory", None, "memory"] and mem[7:9] == [89.29, 80]
    totals = _sheet(rep, "Totals")["rows"]
    assert totals[0][0] == "CPU at or over the target" and totals[0][2] is None
    assert totals[1][2] == "observed >= 0.9 x target"
    res, own, problems = overtarget_report.compute_web(bundle, {})
    rep = overtarget_report.report_of(res, own, problems, bundle)
    assert _sheet(rep, "Inputs")["rows"][0] == ["Product", None, None, "all products"]
    assert rep["subtitle"].endswith(" critical across all products")


def test_html_block_and_the_own_rows_the_other_controller_decides_differently(bundle):
    """The result is one block the page styles (class atlas-result atlas-overtarget). A row of the reader's CSV at 88 %
    against 80 % (5 replicas): v1.33 holds still (1.1 <= 1.0 + 0.1), v1.32 scales to ceil(5 x 1.1) = 6; the details
    block lists it by its line."""
    res, own, problems = overtarget_report.compute_web(bundle, {"product": "nef", "csv": HEADER88})
    html = overtarget_report.to_html(res, own, problems)
    assert html.startswith('<div class="atlas-result atlas-overtarget">')
    assert "<li>Your CSV, line 2, svc: Kubernetes v1.32 or earlier: 6 replicas (critical)" in html


HEADER88 = "name,replicas,cpu_request,observed,target\nsvc,5,1,88%,80\n"


def test_desired_text_when_the_controller_reads_no_metric():
    """reconcileAutoscaler: a current count of 0 disables scaling; a current count below the HPA's min becomes the min
    without reading the metric. Rows of the reader's CSV: 0 replicas, and 2 replicas with min 4 / max 10."""
    head = "name,replicas,cpu_request,observed,target,min_replicas,max_replicas\n"
    own, problems = overtarget.parse_own(head + "idle,0,1,50%,70,,\nsmall,2,1,50%,70,4,10\n")
    assert problems == []
    texts = {e["name"]: overtarget_report.desired_text(e) for e in own}
    assert texts == {"idle": "0 (current 0: the HPA does not scale a target at 0 replicas)",
                     "small": "4 (current 2 is below min 4: the HPA scales to its min)"}
