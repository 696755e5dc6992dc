"""The query result's summary line (calculators/query.py ``result_html``): rows and columns counted in words, and the
run time only where the reader ran the query (Pyodide, ``sys.platform == "emscripten"``), never in the build's
prerendered example, which must be the same bytes from one build to the next."""
from __future__ import annotations

from calculators import query


def _line(html: str) -> str:
    return html[:html.index("</p>") + 4]


RES = {"columns": ["service", "cores"], "rows": [["svc-a", 4.0]], "more": False, "ms": 1250}


def test_in_the_readers_browser_the_line_gives_the_run_time(monkeypatch):
    """1 row, 2 columns, run in 1,250 ms (thousands separated)."""
    monkeypatch.setattr(query.sys, "platform", "emscripten")
    assert _line(query.result_html(RES)) == '<p class="atlas-query-summary">1 row, 2 columns, in 1,250 ms.</p>'


def test_at_build_time_the_line_gives_no_time(monkeypatch):
    monkeypatch.setattr(query.sys, "platform", "linux")
    assert _line(query.result_html(RES)) == '<p class="atlas-query-summary">1 row, 2 columns.</p>'
    one_column = {**RES, "columns": ["service"], "rows": [["a"], ["b"]]}
    assert _line(query.result_html(one_column)) == '<p class="atlas-query-summary">2 rows, 1 column.</p>'
