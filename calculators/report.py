"""One calculator result as a report: the same six sheets for every calculator (Inputs, Results,
Totals, Warnings, Method, Sources), each a list of rows of typed cells, which
``reportxlsx.write`` turns into an XLSX workbook (build time in CPython, in the browser in Pyodide).

Standard library only. Imported only when a report is asked for (``catalogue.report``), never
while a calculator page boots.

Each calculator builds its own report with these helpers, next to the calculator (``footprint_report.report_of``,
``dsr.report_of``, ``shcm.report_of``, ``asm_report.report_of``, ``overtarget_report.report_of``): this module imports no calculator.

Shape (``build``)::

    {"calculator": "footprint", "title": str, "subtitle": str, "filename": "footprint-bsf-3-3.xlsx",
     "sheets": [{"name": "Inputs", "columns": [{"header": "Value", "unit": None}, ...],
                 "rows": [[cell, ...], ...]}, ...]}

A cell is an int, a float, a str or None (empty): numbers stay numbers (an exact Fraction becomes
an int when whole, else the nearest float), booleans become "yes"/"no", and a column's unit is in
its header ("CPU request per pod (cores)"), never in its cells. Where one column holds values of
different units (the DSR and ShCM steps), a "Unit" column beside it names each row's.

Every number's source is copied from the result's own provenance (the table, row, column and
printed text each calculator keeps beside its figures, the errata it names), never looked up
again: the Sources sheet is the result's citations, one row per cited figure.
"""
from __future__ import annotations

from fractions import Fraction

SHEETS = ("Inputs", "Results", "Totals", "Warnings", "Method", "Sources")
"""The sheets of every report, in this order (a sheet with no rows says so in one row)."""

SOURCE_COLUMNS = ("Item", "Document", "Section", "Table", "Row", "Row label", "Column", "Printed", "Errata")
"""Columns of the Sources sheet: what the figure is, then where it is printed."""


class ReportError(ValueError):
    """A report cannot be made of this result (a cell of a type a workbook cannot hold)."""


def cell(v):
    """A value as a report cell: int, float, str or None. Fractions become int (whole) or float,
    booleans "yes"/"no", an empty text None (an empty cell); lists are joined with "; " (empty: None). Raises ReportError for any other type."""
    t = type(v)
    if t is str:
        return v or None
    if v is None or t is int:
        return v
    if t is bool:
        return "yes" if v else "no"
    if t is float:
        return v if v == v and v not in (float("inf"), float("-inf")) else str(v)
    if isinstance(v, Fraction):
        return v.numerator if v.denominator == 1 else float(v)
    if isinstance(v, (list, tuple)):
        return "; ".join(str(cell(x)) for x in v) or None
    raise ReportError(f"a report cell cannot hold a {t.__name__} ({v!r})")


def col(header: str, unit: str | None = None) -> dict:
    """A column: its header and the unit every one of its numbers is in (None: text, counts, or mixed)."""
    return {"header": header, "unit": unit}


def sheet(name: str, columns: list[dict], rows: list[list]) -> dict:
    """A sheet: ``columns`` (``col``) and ``rows`` (lists of values, each made a ``cell``).
    Raises ReportError for a row whose length is not the number of columns."""
    out = []
    for n, r in enumerate(rows, 1):
        if len(r) != len(columns):
            raise ReportError(f"sheet {name!r} row {n} has {len(r)} cells for {len(columns)} columns")
        out.append([cell(v) for v in r])
    return {"name": name, "columns": columns, "rows": out}


def header_text(c: dict) -> str:
    """A column's header as shown: 'CPU request (cores)' when it has a unit."""
    return f"{c['header']} ({c['unit']})" if c.get("unit") else c["header"]


def build(calculator: str, title: str, subtitle: str, filename: str, *, inputs: list, results: dict, totals: dict,
          warnings: list, method: list, sources: list) -> dict:
    """The report of one result. ``inputs``: rows (input, value, unit, note); ``results`` and ``totals``:
    ``{"columns": [...], "rows": [...]}``; ``warnings``: rows (kind, text); ``method``: rows (topic, text);
    ``sources``: rows of SOURCE_COLUMNS. Returns the report dict (module docstring)."""
    text = [col("Kind"), col("Text")]
    return {
        "calculator": calculator, "title": title, "subtitle": subtitle, "filename": filename,
        "sheets": [
            sheet("Inputs", [col("Input"), col("Value"), col("Unit"), col("Note")], inputs),
            sheet("Results", results["columns"], results["rows"]),
            sheet("Totals", totals["columns"], totals["rows"]),
            sheet("Warnings", text, warnings or [["none", "No warnings for these inputs."]]),
            sheet("Method", [col("Topic"), col("Text")], method),
            sheet("Sources", [col(h) for h in SOURCE_COLUMNS], sources),
        ],
    }


def sheet_named(report: dict, name: str) -> dict:
    """The sheet called ``name`` (KeyError if the report has none)."""
    for s in report["sheets"]:
        if s["name"] == name:
            return s
    raise KeyError(name)


def doc_names(bundle: dict) -> dict:
    """Document id -> its title (the sources' ``title``, else short name), for a report's Sources sheet."""
    return {s["id"]: s.get("title") or s.get("short_name") or s["id"] for s in bundle.get("sources") or []}


def sections(bundle: dict) -> dict:
    """Scenario id -> its section in its guide, for a report's Sources sheet."""
    return {s["id"]: s.get("section") for s in bundle.get("scenarios") or []}


# ---------------------------------------------------------------- DSR and ShCM: steps

STEP_COLUMNS = [col("Kind"), col("Key"), col("Item"), col("Value"), col("Unit"), col("Source / how")]


def steps_report(calculator: str, res: dict, steps: list[tuple], figures: list[dict], doc: str, section, bundle: dict,
           title: str, sub: str, filename: str, method: list, extra_sources=()) -> dict:
    """The report of a result given as steps (``calculators.sizing``: (kind, key, label, value, unit, source)): the
    inputs from the input steps, the results from the others, the totals from the result steps; ``figures`` (each with
    label, table_id, row, column, raw, errata) and ``extra_sources`` ((item, table, row, printed)) become the Sources
    sheet under document ``doc``'s name and ``section``."""
    kinds = {"input": "Input", "measured": "Measured (source)", "computed": "Computed", "result": "Result"}
    inputs = [[label, value, unit, src] for kind, key, label, value, unit, src in steps if kind == "input"]
    results = {"columns": STEP_COLUMNS, "rows": [[kinds[kind], key, label, value, unit, src]
                                                 for kind, key, label, value, unit, src in steps if kind != "input"]}
    totals = {"columns": [col("Item"), col("Value"), col("Unit"), col("How")],
              "rows": [[label, value, unit, src] for kind, key, label, value, unit, src in steps if kind == "result"]}
    name = doc_names(bundle).get(doc, doc)
    sources = [[f["label"], name, section, f["table_id"], f["row"], None, f.get("column"), f.get("raw"), f.get("errata") or None]
               for f in figures]
    sources += [[item, name, section, table, row, None, None, printed, None] for item, table, row, printed in extra_sources]
    return build(calculator, title, sub, filename, inputs=inputs, results=results, totals=totals,
                 warnings=[["warning", w] for w in res["warnings"]], method=method, sources=sources)
