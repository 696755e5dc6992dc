"""calculators/report.py: the report's cells, sheets and shape, the Sources sheet's names and sections, and the steps
report of DSR and ShCM. Expected values are written out by hand in each test (the guides' titles from
data/sources.yaml, the sections from data/<doc>/scenarios.yaml)."""
from __future__ import annotations

import math
from fractions import Fraction

import pytest

from calculators import report


@pytest.mark.parametrize("value,cell", [
    ("text", "text"), ("", None), (None, None), (0, 0), (7, 7), (-3, -3),
    (True, "yes"), (False, "no"),
    (2.5, 2.5), (0.0, 0.0),
    (Fraction(6, 2), 3), (Fraction(0), 0), (Fraction(1, 4), 0.25), (Fraction(-3, 2), -1.5),
    (["a", 1, None, True], "a; 1; None; yes"), (("x",), "x"), ([], None), ((), None),
])
def test_cell_by_type(value, cell):
    got = report.cell(value)
    assert got == cell and type(got) is type(cell)


def test_a_float_that_is_no_number_becomes_its_text():
    # a workbook holds no NaN or infinity as a number: written as text
    assert report.cell(float("nan")) == "nan"
    assert report.cell(math.inf) == "inf" and report.cell(-math.inf) == "-inf"
    assert report.cell(1e308) == 1e308


def test_cell_refuses_other_types_naming_them():
    with pytest.raises(report.ReportError, match=r"a report cell cannot hold a dict \(\{'a': 1\}\)"):
        report.cell({"a": 1})
    with pytest.raises(report.ReportError, match="cannot hold a set"):
        report.cell({1})


def test_col_header_and_sheet():
    assert report.col("Load") == {"header": "Load", "unit": None}
    assert report.col("CPU", "cores") == {"header": "CPU", "unit": "cores"}
    assert report.header_text(report.col("CPU request", "cores")) == "CPU request (cores)"
    assert report.header_text(report.col("Item")) == "Item"
    assert report.header_text({"header": "Item", "unit": ""}) == "Item"
    cols = [report.col("a"), report.col("b")]
    assert report.sheet("S", cols, [[Fraction(1, 2), True], ["", 3]]) == \
        {"name": "S", "columns": cols, "rows": [[0.5, "yes"], [None, 3]]}
    assert report.sheet("S", cols, []) == {"name": "S", "columns": cols, "rows": []}
    with pytest.raises(report.ReportError, match="sheet 'S' row 2 has 3 cells for 2 columns"):
        report.sheet("S", cols, [[1, 2], [1, 2, 3]])


def _built(warnings):
    return report.build("calc", "Title", "Sub", "f.xlsx", inputs=[["Load", 5, "TPS", "note"]],
                        results={"columns": [report.col("R")], "rows": [[1]]},
                        totals={"columns": [report.col("T", "cores")], "rows": [[Fraction(3, 2)]]},
                        warnings=warnings, method=[["Rule", "text"]],
                        sources=[["Item", "Doc", "3.3", "3-25", 2, None, "CPU", "4", None]])


def test_build_gives_the_six_sheets_in_order():
    r = _built([["warning", "w1"]])
    assert (r["calculator"], r["title"], r["subtitle"], r["filename"]) == ("calc", "Title", "Sub", "f.xlsx")
    assert [s["name"] for s in r["sheets"]] == ["Inputs", "Results", "Totals", "Warnings", "Method", "Sources"] \
        == list(report.SHEETS)
    inputs = report.sheet_named(r, "Inputs")
    assert [c["header"] for c in inputs["columns"]] == ["Input", "Value", "Unit", "Note"]
    assert inputs["rows"] == [["Load", 5, "TPS", "note"]]
    assert report.sheet_named(r, "Totals")["rows"] == [[1.5]]
    assert report.sheet_named(r, "Totals")["columns"] == [{"header": "T", "unit": "cores"}]
    assert [c["header"] for c in report.sheet_named(r, "Warnings")["columns"]] == ["Kind", "Text"]
    assert report.sheet_named(r, "Warnings")["rows"] == [["warning", "w1"]]
    assert [c["header"] for c in report.sheet_named(r, "Method")["columns"]] == ["Topic", "Text"]
    assert [c["header"] for c in report.sheet_named(r, "Sources")["columns"]] == \
        ["Item", "Document", "Section", "Table", "Row", "Row label", "Column", "Printed", "Errata"]
    assert report.sheet_named(r, "Sources")["rows"] == [["Item", "Doc", "3.3", "3-25", 2, None, "CPU", "4", None]]
    with pytest.raises(KeyError):
        report.sheet_named(r, "Charts")


@pytest.mark.parametrize("warnings", [[], None])
def test_no_warnings_says_so_in_one_row(warnings):
    assert report.sheet_named(_built(warnings), "Warnings")["rows"] == [["none", "No warnings for these inputs."]]


def test_doc_names_and_sections():
    bundle = {"sources": [{"id": "a", "title": "Guide A", "short_name": "A"}, {"id": "b", "short_name": "B"},
                          {"id": "c", "title": "", "short_name": ""}],
              "scenarios": [{"id": "s1", "section": "3.1"}, {"id": "s2"}]}
    # the title, else the short name, else the id
    assert report.doc_names(bundle) == {"a": "Guide A", "b": "B", "c": "c"}
    assert report.sections(bundle) == {"s1": "3.1", "s2": None}
    assert report.doc_names({}) == {} and report.sections({"scenarios": None}) == {}


def test_doc_names_and_sections_of_the_bundle(bundle):
    names = report.doc_names(bundle)
    # data/sources.yaml: BSF's title
    assert names["bsf"] == "Oracle Communications Cloud Native Core, Binding Support Function Benchmarking Guide"
    # data/bsf/scenarios.yaml: bsf-3-3 is section 3.3
    assert report.sections(bundle)["bsf-3-3"] == "3.3"


def test_steps_report_by_hand():
    steps = [("input", "target", "Target traffic", 240000, "MPS", "your input"),
             ("measured", "per_vm", "Measured per VM", 5000, "MPS", "Table 2-3 row 4"),
             ("computed", "vms", "VMs", Fraction(48), "VMs", "240000 / 5000"),
             ("result", "sites", "Sites", 2, "sites", "48 / 24")]
    figures = [{"label": "per VM", "table_id": "2-3", "row": 4, "column": "MPS", "raw": "5,000", "errata": ["E1"]},
               {"label": "other", "table_id": "2-4", "row": 1}]
    bundle = {"sources": [{"id": "dsr", "title": "DSR Guide"}]}
    r = report.steps_report("dsr", {"warnings": ["w"]}, steps, figures, "dsr", "2.1", bundle, "T", "S", "f.xlsx",
                            method=[["m", "t"]], extra_sources=[("extra", "2-5", 7, "12")])
    assert report.sheet_named(r, "Inputs")["rows"] == [["Target traffic", 240000, "MPS", "your input"]]
    res = report.sheet_named(r, "Results")
    assert [c["header"] for c in res["columns"]] == ["Kind", "Key", "Item", "Value", "Unit", "Source / how"]
    assert res["rows"] == [["Measured (source)", "per_vm", "Measured per VM", 5000, "MPS", "Table 2-3 row 4"],
                           ["Computed", "vms", "VMs", 48, "VMs", "240000 / 5000"],
                           ["Result", "sites", "Sites", 2, "sites", "48 / 24"]]
    tot = report.sheet_named(r, "Totals")
    assert [c["header"] for c in tot["columns"]] == ["Item", "Value", "Unit", "How"]
    assert tot["rows"] == [["Sites", 2, "sites", "48 / 24"]]
    assert report.sheet_named(r, "Warnings")["rows"] == [["warning", "w"]]
    assert report.sheet_named(r, "Sources")["rows"] == [
        ["per VM", "DSR Guide", "2.1", "2-3", 4, None, "MPS", "5,000", "E1"],
        ["other", "DSR Guide", "2.1", "2-4", 1, None, None, None, None],
        ["extra", "DSR Guide", "2.1", "2-5", 7, None, None, "12", None]]
    # a document the bundle does not name is shown by its id
    r = report.steps_report("x", {"warnings": []}, steps, figures[1:], "nodoc", None, bundle, "T", "S", "f.xlsx", method=[])
    assert report.sheet_named(r, "Sources")["rows"][0][1] == "nodoc"
