"""Text helpers shared by every calculator's output: HTML escaping, number formatting and
CSV cells a spreadsheet cannot run. Kept apart so a calculator page imports only what it
shows (each import compiles in Pyodide)."""
from __future__ import annotations

import csv
import re
from fractions import Fraction


def escape(s: str, quote: bool = True) -> str:
    """``html.escape``, without importing ``html``: that import loads ``html.entities``, a
    2,231-entry table the calculators never use, and in Pyodide compiling it costs about
    30 ms of every calculator page's start. Same output as ``html.escape`` (tested).
    Most texts (service names, numbers) hold none of the five characters: five ``in`` tests return them
    as they are, where five ``replace`` calls cost three times as long in Pyodide (a footprint result
    escapes about 1,400 texts: 2.7 ms against 0.8 ms, measured in Pyodide 314 under Node)."""
    if "&" in s or "<" in s or ">" in s or '"' in s or "'" in s:
        s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        if quote:
            s = s.replace('"', "&quot;").replace("'", "&#x27;")
    return s


def fmt(v, places: int = 3) -> str:
    """Numbers for people: whole numbers with thousands separators, others up to ``places``
    decimals (ints, floats and exact Fractions alike); None as an em dash; booleans as yes/no.
    Dispatches on the exact type first (a footprint result formats about a thousand numbers)."""
    t = type(v)
    if t is int:
        return f"{v:,}"
    if v is None:
        return "—"
    if t is bool:
        return "yes" if v else "no"
    if t is float:
        f = v
    elif t is Fraction:
        if v.denominator == 1:
            return f"{v.numerator:,}"
        f = float(v)
    elif isinstance(v, (int, float, Fraction)):  # subclasses (numpy-free, but kept general)
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, Fraction) and v.denominator == 1:
            return f"{v.numerator:,}"
        f = float(v)
    else:
        return str(v)
    if f.is_integer():
        return f"{int(f):,}"
    return f"{f:,.{places}f}".rstrip("0").rstrip(".")


def tidy_number(v) -> str:
    """A number (int, float or Fraction) as a tidy CSV cell writes it: up to 9 decimals, trailing zeros dropped, no
    thousands separators, '' for None, '0' for a negative zero (``Fraction(1, 3)`` -> ``0.333333333``)."""
    if v is None:
        return ""
    s = f"{float(v):.9f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def table_anchor(table_id) -> str:
    """The HTML id of table ``table_id`` on its page (``3-29`` -> ``table-3-29``), for the pages and the results' links."""
    return "table-" + re.sub(r"[^a-z0-9]+", "-", str(table_id).lower()).strip("-")


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a CSV cell as a formula (OWASP, "CSV Injection":
equals, plus, minus, at, tab 0x09 and carriage return 0x0D)."""
FORMULA_SIGNS = "=+-@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b"
"""The four formula signs and their look-alikes a cell may start with after white space: = + - @ in ASCII, full width
(U+FF1D U+FF0B U+FF0D U+FF20, what an East Asian input method types: ＝ ＋ － ＠) and small (U+FE66 U+FE62 U+FE63
U+FE6B), the forms Unicode's compatibility normalisation (NFKC) reads as the ASCII signs."""
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
"""A real number written as text, in ASCII digits (as tables.js and compare.js read one: a full-width digit is no
number to them, nor to a spreadsheet)."""


def csv_cell(v):
    """One CSV cell made inert for spreadsheets, as OWASP's "CSV Injection" page recommends: a text
    cell starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return gets a leading apostrophe
    (``=HYPERLINK(...)`` becomes ``'=HYPERLINK(...)``), which Excel and LibreOffice show as text. So does
    a cell whose first sign after white space (spaces, tabs, line breaks) is one of those or a full-width
    or small form of one (``FORMULA_SIGNS``: ``＝HYPERLINK(...)``, `` =1+1``): LibreOffice 7.4 imports
    `` =1+1`` as the formula 1+1 when the reader ticks "Trim spaces" in its text import, and reads the
    full-width forms as text, which other spreadsheets and locales need not (tests/test_csv_injection.py).
    Left as they are: non-strings (ints, floats, None), real numbers written as text (``-5``, ``+3.2``,
    ``-0.5``, ``1e-3``, `` -5``), and a lone ``-`` (the guides' "not measured" dash; with nothing after
    it no formula can run), white space around them aside. The csv module's quoting already keeps a
    cell's own commas, quotes and line breaks inside it. Returns the cell (a str when it was one)."""
    if not isinstance(v, str) or not v:
        return v
    first = v[0]
    if first == "\t" or first == "\r":
        return "'" + v
    if first not in FORMULA_SIGNS and not first.isspace():  # most cells: a letter or a digit first
        return v
    core = v.strip()
    if not core or core[0] not in FORMULA_SIGNS or core == "-" or _NUMBER.fullmatch(core):
        return v
    return "'" + v


def _quoted(v) -> str:
    """One cell as RFC 4180 writes it: text holding a comma, a double quote, a line feed or a carriage return in
    double quotes, its quotes doubled; None as nothing; numbers as ``str``. The csv module quotes only the
    characters of its line terminator ("\\n" here), so a bare carriage return would stay unquoted and end the row in
    a spreadsheet (and in Python's own csv reader); ``_InertWriter`` writes a row holding one with this rule, the
    rule tables.js and compare.js write every cell with (tests/test_js_agrees.py)."""
    t = "" if v is None else v if isinstance(v, str) else str(v)
    return '"' + t.replace('"', '""') + '"' if any(ch in t for ch in ',"\n\r') else t


class _InertWriter:
    """``csv.writer`` whose rows pass through :func:`csv_cell` first."""

    def __init__(self, f):
        self._f = f
        self._w = csv.writer(f, lineterminator="\n")

    def writerow(self, row):
        cells = [csv_cell(v) for v in row]
        if any(isinstance(c, str) and "\r" in c for c in cells):
            return self._f.write(",".join(_quoted(c) for c in cells) + "\n")
        return self._w.writerow(cells)

    def writerows(self, rows):
        for r in rows:
            self.writerow(r)


def csv_writer(f) -> _InertWriter:
    """The CSV writer for every CSV the site and the calculators write: ``csv.writer(f,
    lineterminator="\\n")`` with each cell passed through :func:`csv_cell` (formula injection)."""
    return _InertWriter(f)
