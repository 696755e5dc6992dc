"""What a reader reads on the over-target page and in its report (calculators/overtarget_report.py): the sentences
and table markup around the rows, from rows of the NEF and Policy guides or a CSV of the reader's own, every count
and sentence worked out by hand in each test's docstring."""
from __future__ import annotations

from calculators import overtarget_report, report

HEAD = "name,replicas,cpu_request,observed,target,min_replicas,max_replicas\n"

BLOCKED = HEAD + "svc,5,1,150%,75,1,6\nbad\n"
"""Line 2: 5 replicas reading 150 % against a 75 % target, ratio 2.0: the HPA asks for ceil(5 x 2.0) = 10, above its
max of 6 (critical, the max must rise to 10). Line 3 has 1 field where the header has 7: not evaluated."""

BLOCKED_TEXT = ("Your CSV, line 2: svc reads 150 % against its 75 % target; at 5 replicas the HPA asks for 10, above its "
                "max of 6: the HPA max must rise to 10 for the service to reach its target.")
"""The sentence naming line 2 of ``BLOCKED``, written out by hand."""


def _nef(bundle, csv_text: str):
    return overtarget_report.compute_web(bundle, {"product": "nef", "csv": csv_text})


def test_html_lists_the_reader_rows_whose_hpa_max_must_rise(bundle):
    """NEF's rows print no replica counts, so no HPA of the guide is stopped by its max: the block lists line 2 of
    ``BLOCKED`` alone, after the sentence saying what the list is."""
    res, own, problems = _nef(bundle, BLOCKED)
    html = overtarget_report.to_html(res, own, problems)
    assert ('<div class="atlas-warnings atlas-max-blocked"><p><strong>HPA max too low:</strong> the count these HPAs '
            f'ask for is above their max replicas.</p><ul><li>{BLOCKED_TEXT}</li></ul></div>') in html


def test_report_warnings_name_the_reader_rows_by_kind(bundle):
    """The report's Warnings sheet: line 2 of ``BLOCKED`` under 'HPA max too low' with its sentence, line 3 under
    'your CSV' with what is wrong with it (1 field, the header has 7)."""
    res, own, problems = _nef(bundle, BLOCKED)
    warnings = report.sheet_named(overtarget_report.report_of(res, own, problems, bundle), "Warnings")["rows"]
    assert ["HPA max too low", BLOCKED_TEXT] in warnings
    assert ["your CSV", "Line 3: 1 fields, the header has 7."] in warnings


def test_other_controller_summary_counts_rows_in_words(bundle):
    """A row at 88 % against 80 % (5 replicas, ratio 1.1): Kubernetes v1.33 holds still (1.1 <= 1.0 + 0.1), v1.32
    scales to ceil(5 x 1.1) = 6. NEF's own rows (ratios 0.93-0.99) are decided alike by both. One such row of the
    reader's: '1 row'; two: '2 rows'."""
    one = "name,replicas,cpu_request,observed,target\nsvc,5,1,88%,80\n"
    html = overtarget_report.to_html(*_nef(bundle, one))
    assert ('<summary>1 row the HPA controller of Kubernetes v1.32 or earlier decides differently</summary>') in html
    html = overtarget_report.to_html(*_nef(bundle, one + "other,5,1,88%,80\n"))
    assert ('<summary>2 rows the HPA controller of Kubernetes v1.32 or earlier decides differently</summary>') in html


def test_cpu_table_columns_and_its_end_before_the_memory_table(bundle):
    """The CPU table's 14 columns in the page's order; it closes before the memory table's heading, whose threshold
    is the default 80 %."""
    res, own, problems = overtarget_report.compute_web(bundle, {"product": "nef"})
    html = overtarget_report.to_html(res, own, problems)
    assert ('<table class="atlas-rows atlas-cpu-flags"><thead><tr><th>Severity</th><th>Flag</th><th>Scenario</th>'
            '<th>Service</th><th>Container</th><th>Site</th><th>Observed CPU (%)</th><th>Target (%)</th>'
            '<th>Observed / target</th><th>Replicas (printed)</th><th>HPA desired replicas</th><th>Source</th>'
            '<th>HPA reads (whole %)</th><th>Scenario partial</th></tr></thead><tbody><tr ') in html
    assert "</tr></tbody></table></div><h3>Memory at or above 80 %</h3>" in html


def test_report_sources_name_the_guide_by_id_when_the_bundle_has_no_title(bundle):
    """Policy Table 3-83 row 16 (policy-3-2-2, ue-service, app at Site1) reads 54 % against 30 %; its replicas are
    Table 3-81 row 11. With no title for the Policy guide in the bundle's sources, both of its Sources rows name the
    guide by its id, 'policy', rather than leaving the guide blank."""
    res, own, problems = overtarget_report.compute_web(bundle, {"product": "policy"})
    untitled = dict(bundle, sources=[s for s in bundle["sources"] if s["id"] != "policy"])
    rows = report.sheet_named(overtarget_report.report_of(res, own, problems, untitled), "Sources")["rows"]
    ue = [r for r in rows if r[0].startswith("policy-3-2-2: ue-service app")]
    assert [(r[0], r[1], r[3], r[4]) for r in ue] == [
        ("policy-3-2-2: ue-service app site1 (observed, target)", "policy", "3-83", 16),
        ("policy-3-2-2: ue-service app (replicas)", "policy", "3-81", 11)]


def test_report_sources_take_the_guide_from_the_row_when_the_scenario_is_not_listed(bundle):
    """Policy Table 3-83 row 16 (policy-3-2-2, ue-service): a row carries its guide ('policy'); where the bundle's
    scenario list does not name its scenario, the Sources row still names the Policy guide by its title."""
    res, own, problems = overtarget_report.compute_web(bundle, {"product": "policy"})
    title = next(s["title"] for s in bundle["sources"] if s["id"] == "policy")
    unlisted = dict(bundle, scenarios=[s for s in bundle["scenarios"] if s["id"] != "policy-3-2-2"])
    rows = report.sheet_named(overtarget_report.report_of(res, own, problems, unlisted), "Sources")["rows"]
    ue = next(r for r in rows if r[0] == "policy-3-2-2: ue-service app site1 (observed, target)")
    assert ue[1] == title


def test_report_method_sheet_names_its_three_rules(bundle):
    """The Method sheet: how the flags are set, the HPA's rule, and how severity is decided, in that order."""
    res, own, problems = overtarget_report.compute_web(bundle, {"product": "nef"})
    method = report.sheet_named(overtarget_report.report_of(res, own, problems, bundle), "Method")["rows"]
    assert [m[0] for m in method] == ["Flags", "HPA", "Severity"]
    assert method[0][1].startswith("over: observed >= target; near: below the target but observed >= 0.9 x target")
