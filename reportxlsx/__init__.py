"""A calculator report (``calculators.report``) as an XLSX workbook, written with XlsxWriter
(pure Python, no dependencies): the same code at build time (CPython, the prerendered result's
download) and in the browser (Pyodide, loaded from its own code pack only when the reader asks
for the XLSX). Kept out of ``calculators/``, which is standard library only.

One worksheet per report sheet, in order; row 1 the column headers (bold, frozen, with the unit in
the header: "CPU request per pod (cores)"), then the rows: numbers written as numbers, text as
text (never as a formula: a cell starting with "=" stays the text it is), empty cells left empty.
The Inputs sheet starts with the report's title and subtitle above its table.

Deterministic: the workbook's creation date is ``CREATED`` and every zip entry carries XlsxWriter's
fixed 1980-01-01 time, so the same report gives the same bytes.
"""
from __future__ import annotations

import io
from datetime import datetime, timezone

import xlsxwriter

CREATED = datetime(2020, 1, 1, tzinfo=timezone.utc)
"""The workbook's creation date: fixed (as the datasets workbook's, atlas.downloads.FIXED_TIME), so
that the same inputs give the same file; the report's own Sources sheet dates its data."""
MAX_WIDTH = 60
"""Widest column, in characters; longer text wraps (a Benchmark Atlas choice for print and screen)."""


def _header(c: dict) -> str:
    return f"{c['header']} ({c['unit']})" if c.get("unit") else c["header"]


def write(report: dict) -> bytes:
    """The XLSX bytes of ``report`` (``{"title", "subtitle", "sheets": [{"name", "columns", "rows"}]}``, see
    ``calculators.report``). Raises TypeError for a cell that is not int, float, str or None, ValueError for
    a sheet name Excel refuses (over 31 characters, or any of []:*?/\\)."""
    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False,
                                   "strings_to_numbers": False, "nan_inf_to_errors": False})
    wb.set_properties({"title": report.get("title", ""), "subject": report.get("subtitle", ""),
                       "author": "Benchmark Atlas", "created": CREATED,
                       "comments": "Planning estimate computed from vendor benchmark guides; every number's source is in the Sources sheet."})
    bold = wb.add_format({"bold": True, "text_wrap": True, "valign": "top", "bottom": 1})
    title_f = wb.add_format({"bold": True, "font_size": 13})
    wrap = wb.add_format({"text_wrap": True, "valign": "top"})
    num = wb.add_format({"valign": "top"})
    for sh in report["sheets"]:
        ws = wb.add_worksheet(sh["name"])
        top = 0
        if sh["name"] == "Inputs":
            ws.write_string(0, 0, report.get("title", ""), title_f)
            ws.write_string(1, 0, report.get("subtitle", ""))
            top = 3
        widths = [len(_header(c)) for c in sh["columns"]]
        for j, c in enumerate(sh["columns"]):
            ws.write_string(top, j, _header(c), bold)
        for i, row in enumerate(sh["rows"], top + 1):
            for j, v in enumerate(row):
                if v is None:
                    continue
                if type(v) is str:
                    ws.write_string(i, j, v, wrap)
                    widths[j] = max(widths[j], min(len(v), MAX_WIDTH))
                elif type(v) in (int, float):
                    ws.write_number(i, j, v, num)
                    widths[j] = max(widths[j], len(f"{v:g}"))
                else:
                    raise TypeError(f"sheet {sh['name']!r} row {i - top}, column {j + 1}: a {type(v).__name__} is not a report cell")
        for j, w in enumerate(widths):
            ws.set_column(j, j, min(max(w, 8), MAX_WIDTH) + 2)
        ws.freeze_panes(top + 1, 0)
        if sh["rows"]:
            ws.autofilter(top, 0, top + len(sh["rows"]), len(sh["columns"]) - 1)
    wb.close()
    return buf.getvalue()


def for_browser(catalogue, bundle: dict, params_json: str) -> tuple:
    """The XLSX of the result ``catalogue.run`` gives for ``params_json`` (the page's parameters as JSON), for the
    browser worker: ``(bytes, filename, "")``, or ``(None, "", message)`` when the inputs are refused."""
    import json
    out = catalogue.report(bundle, json.loads(params_json))
    if not out["ok"]:
        return None, "", out["error"]
    return write(out["report"]), out["report"]["filename"], ""
