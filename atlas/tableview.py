"""Tables as shown: the wide CSV of a rendered HTML table, the same columns, header labels and cell text
as the page, rows in page order ("download = view").

The build writes this file beside each table's tidy long CSV (``atlas.downloads``) as the link's target
without JavaScript; with JavaScript, ``docs/assets/js/tables.js`` builds the same CSV from the table in
the page (the visible rows, in their visible order). Both read a cell the same way, so an unfiltered,
unsorted table downloads the same bytes either way (tests/test_table_views.py):

* the cell's text content, every element's text included (values, the raw text as printed, marks),
  a ``<br>`` read as a space;
* runs of whitespace (space, tab, line breaks, no-break and narrow no-break space) become one space,
  and the text is trimmed;
* the header is the last header row's cell texts; body rows are every ``<tr>`` of every ``<tbody>``;
* written with ``calculators.formatting.csv_writer`` (``\\n`` line ends, minimal quoting, formula-like
  text made inert with a leading apostrophe).
"""
from __future__ import annotations

import io
import re
from html.parser import HTMLParser

from calculators.formatting import csv_writer

SPACE = re.compile("[ \t\n\r\f\u00a0\u202f]+")
"""Whitespace a cell's text collapses (tables.js uses the same class)."""


def cell_text(text: str) -> str:
    """A cell's text content as exported: whitespace runs (SPACE) as one space, trimmed."""
    return SPACE.sub(" ", text).strip()


class _TableParser(HTMLParser):
    """Collects the header cells of the last ``<thead>`` row and the cells of every ``<tbody>`` row of the
    first ``<table>`` (a nested table's cells count as text of the outer cell)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0          # <table> nesting
        self.section = None     # "thead" / "tbody"
        self.head: list[list[str]] = []
        self.body: list[list[str]] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.done = False       # the first table has ended: the rest of the HTML is not read

    def handle_starttag(self, tag, attrs):
        if self.done:
            return
        if tag == "table":
            self.depth += 1
            if self.depth > 1:
                return
        if self.depth != 1:
            if tag == "br" and self.cell is not None:
                self.cell.append(" ")
            return
        if tag in ("thead", "tbody"):
            self.section = tag
        elif tag == "tr" and self.section:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
        elif tag == "br" and self.cell is not None:
            self.cell.append(" ")

    def handle_endtag(self, tag):
        if self.done:
            return
        if tag == "table":
            self.depth -= 1
            self.done = self.depth == 0
            return
        if self.depth != 1:
            return
        if tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(cell_text("".join(self.cell)))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            (self.head if self.section == "thead" else self.body).append(self.row)
            self.row = None
        elif tag in ("thead", "tbody"):
            self.section = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def shown_rows(table_html: str) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of the first ``<table>`` in ``table_html`` as a reader sees it: header labels of the last
    header row, then each body row's cell texts (``cell_text``), in document order. Raises ValueError when the
    HTML holds no table with a header row."""
    p = _TableParser()
    p.feed(table_html)
    p.close()
    if not p.head:
        raise ValueError("shown_rows: no <table> with a <thead> row in the HTML given")
    return p.head[-1], p.body


def shown_csv(table_html: str) -> bytes:
    """The CSV (UTF-8 bytes) of the first table in ``table_html`` as shown (``shown_rows``), written with the
    site's CSV writer. Raises ValueError as ``shown_rows`` does."""
    header, rows = shown_rows(table_html)
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode("utf-8")
