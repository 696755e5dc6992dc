"""calculators/partial.py on a small made-up bundle, every expected value worked out by hand in the comments (never
from the code under test): which rows a result is built without (``completeness``, ``exclusions``) and the one
sentence that names them."""
from __future__ import annotations

from calculators import partial


def _res(scenario, service, container="app", component="app", **kw):
    row = {"scenario": scenario, "component": component, "service": service, "container": container,
           "is_sidecar": container == "istio-proxy", "table_id": "3-1", "row": 1, "row_label": service, "site": "",
           "status": "ok"}
    row.update(kw)
    return row


def _bundle():
    """Scenario s1 (ASM on): usable rows for 'pcrf' (app and its istio-proxy) and 'binding' (Table 3-1); excluded: 'audit' app row 4 of
    Table 3-1 (flagged, erratum E1, no site printed), 'audit' again at site2 (the same container: named once),
    'pcrf' app row at site2 (missing, but pcrf's app is usable elsewhere: no gap), a stub's row (test equipment: no
    gap) and 'sm' istio-proxy row 7 of Table 3-2 (missing, site1). Utilization: s1 has one excluded row (Table 4-1
    row 3, 'binding' cpu, flagged, E2); s2's row belongs to another scenario.
    Scenario s2 (ASM on) has usable rows but no sidecar row; scenario s3 (ASM off) is clean."""
    resources = [_res("s1", "pcrf"), _res("s1", "pcrf", container="istio-proxy"), _res("s1", "binding", row=2), _res("s2", "pcrf"), _res("s3", "pcrf")]
    excluded = [
        _res("s1", "audit", row=4, status="flagged", errata=["E1"], site=None),
        _res("s1", "audit", row=5, status="flagged", errata=["E1"], site="site2"),
        _res("s1", "pcrf", row=6, status="missing", site="site2"),
        _res("s1", "stub-sbi", component="stub", row=8, status="missing"),
        _res("s1", "sm", container="istio-proxy", table_id="3-2", row=7, row_label="SM Service", status="missing",
             site="site1"),
        _res("s3", "other", row=9, status="flagged"),
    ]
    util_cols = partial.EXCLUDED_COLS
    util = [["s1", "utilization", "4-1", 3, "Binding", "site1", "binding", "app", "cpu", "flagged", ["E2"]],
            ["s2", "utilization", "4-2", 1, "PCRF", "", "pcrf", "app", "memory", "missing", []]]
    return {"scenarios": [{"id": "s1", "asm": "enabled"}, {"id": "s2", "asm": "partial"}, {"id": "s3", "asm": "disabled"}],
            "resources": resources, "resources_excluded": excluded,
            "excluded_rows": {"cols": util_cols, "rows": util}}


def test_completeness_names_each_gap_once():
    res = partial.completeness(_bundle(), "s1")
    # audit's app (once, from row 4), sm's sidecar; not pcrf (usable at another row), not the stub
    assert res == {"partial": True, "missing": [
        {"service": "audit", "container": "app", "component": "app", "table_id": "3-1", "row": 4, "row_label": "audit",
         "site": None, "status": "flagged", "errata": ["E1"], "reason": "excluded by erratum"},
        {"service": "sm", "container": "istio-proxy", "component": "app", "table_id": "3-2", "row": 7,
         "row_label": "SM Service", "site": "site1", "status": "missing", "errata": [], "reason": "no usable value printed"},
    ]}


def test_completeness_says_asm_without_sidecar_rows_apart():
    # s2 runs ASM (partial) and prints rows, none of them a sidecar: one entry saying the sidecars are unknown
    assert partial.completeness(_bundle(), "s2") == {"partial": True, "missing": [
        {"service": "(all)", "container": "istio-proxy", "component": "", "table_id": "", "row": None, "row_label": "",
         "site": "", "status": "missing", "errata": [],
         "reason": "ASM is enabled in this scenario but the source prints no sidecar rows: sidecars unknown, not 0"}]}


def test_completeness_counts_sidecar_rows_printed_but_unusable():
    """An ASM scenario whose only sidecar rows are excluded: two istio-proxy rows of Table 3-2 (flagged, missing) and
    one app row usable. The gap entry says the source prints 2 sidecar rows, none usable; each is also named once."""
    bundle = {"scenarios": [{"id": "s4", "asm": "enabled"}],
              "resources": [_res("s4", "pcrf")],
              "resources_excluded": [_res("s4", "pcrf", container="istio-proxy", table_id="3-2", row=3, status="flagged"),
                                     _res("s4", "sm", container="istio-proxy", table_id="3-2", row=4, status="missing")]}
    res = partial.completeness(bundle, "s4")
    assert [(m["service"], m["container"]) for m in res["missing"]] == [("pcrf", "istio-proxy"), ("sm", "istio-proxy"), ("(all)", "istio-proxy")]
    assert res["missing"][-1]["reason"] == ("ASM is enabled in this scenario but the source prints 2 sidecar rows, none usable "
                                            "(named above): sidecars unknown, not 0")
    one = dict(bundle, resources_excluded=bundle["resources_excluded"][:1])
    assert partial.completeness(one, "s4")["missing"][-1]["reason"].startswith(
        "ASM is enabled in this scenario but the source prints 1 sidecar row, none usable")


def test_exclusions_of_both_kinds_by_hand():
    """s1: 2 resource rows (audit Table 3-1 row 4, sm Table 3-2 row 7) + 1 utilization row (Table 4-1 row 3): 3 rows
    of Tables 3-1, 3-2, 4-1; statuses flagged, missing (sorted); errata E1, E2; services audit, sm, binding; one
    sidecar row (sm's istio-proxy), two application rows."""
    ex = partial.exclusions(_bundle(), "s1")
    assert ex["rows"] == [
        {"scenario": "s1", "kind": "resources", "table_id": "3-1", "row": 4, "row_label": "audit", "site": "",
         "service": "audit", "container": "app", "metric": "", "status": "flagged", "errata": ["E1"]},
        {"scenario": "s1", "kind": "resources", "table_id": "3-2", "row": 7, "row_label": "SM Service", "site": "site1",
         "service": "sm", "container": "istio-proxy", "metric": "", "status": "missing", "errata": []},
        {"scenario": "s1", "kind": "utilization", "table_id": "4-1", "row": 3, "row_label": "Binding", "site": "site1",
         "service": "binding", "container": "app", "metric": "cpu", "status": "flagged", "errata": ["E2"]},
    ]
    assert (ex["partial"], ex["tables"], ex["errata"], ex["services"]) == (
        True, ["3-1", "3-2", "4-1"], ["E1", "E2"], ["audit", "sm", "binding"])
    assert (ex["sidecar_rows"], ex["app_rows"]) == (1, 2)
    assert ex["text"] == ("3 rows of Table 3-1, Table 3-2, Table 4-1 could not be used (flagged, missing; E1, E2): "
                          "audit, sm, binding.")


def test_exclusions_of_one_kind_and_one_row():
    b = _bundle()
    assert [r["kind"] for r in partial.exclusions(b, "s1", "resources")["rows"]] == ["resources", "resources"]
    util = partial.exclusions(b, "s1", "utilization")
    # one row: 'row', not 'rows'
    assert util["text"] == "1 row of Table 4-1 could not be used (flagged; E2): binding."
    # s3: one flagged row with no errata, no status list beyond it
    s3 = partial.exclusions(b, "s3")
    assert s3["text"] == "1 row of Table 3-1 could not be used (flagged): other."


def test_a_clean_scenario_says_nothing():
    b = _bundle()
    b["resources_excluded"] = []
    assert partial.exclusions(b, "s3") == {"partial": False, "rows": [], "tables": [], "errata": [], "services": [],
                                           "sidecar_rows": 0, "app_rows": 0, "text": ""}
    # s2's "(all)" entry is said apart (asm.asm_without_sidecars), not as an excluded row
    assert partial.exclusions(b, "s2", "resources")["rows"] == []


def test_a_bundle_without_exclusion_keys_says_nothing():
    bare = {"scenarios": [{"id": "s1", "asm": "disabled"}], "resources": []}
    assert partial.exclusions(bare, "s1")["partial"] is False and partial.exclusions(bare, "s1")["text"] == ""
