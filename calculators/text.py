"""Text helpers shared by every calculator's output: HTML escaping and number formatting.
Kept apart so a calculator page imports only what it shows (each import compiles in Pyodide)."""
from __future__ import annotations

from fractions import Fraction


def escape(s: str, quote: bool = True) -> str:
    """``html.escape``, without importing ``html``: that import loads ``html.entities``, a
    2,231-entry table the calculators never use, and in Pyodide compiling it costs about
    30 ms of every calculator page's start. Same output as ``html.escape`` (tested)."""
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if quote:
        s = s.replace('"', "&quot;").replace("'", "&#x27;")
    return s


def fmt(v, places: int = 3) -> str:
    """Numbers for people: whole numbers with thousands separators, others up to ``places``
    decimals (ints, floats and exact Fractions alike); None as an em dash; booleans as yes/no."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Fraction) and v.denominator == 1:
        return f"{v.numerator:,}"
    if isinstance(v, (int, float, Fraction)):
        f = float(v)
        if f.is_integer():
            return f"{int(f):,}"
        return f"{f:,.{places}f}".rstrip("0").rstrip(".")
    return str(v)
