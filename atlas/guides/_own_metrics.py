"""Cells and links shared by the guides measured by their own metrics (DSR's MPS, ShCM's SPS): a printed figure with
its table and row, a figure the guide does not print, and the link that opens a guide's calculator with a run
preselected. Nothing here names a guide."""
from __future__ import annotations

import re
from urllib.parse import urlencode

from calculators.formatting import fmt

from ..html import esc


def missing(text: str = "not printed") -> str:
    """A cell's content for a figure the guide does not print (``text`` says why)."""
    return f'<span class="atlas-missing">{esc(text)}</span>'


def figure(m: dict | None, unit: str = "") -> str:
    """A measured figure (a bundle metric record: ``value``, ``raw``, ``table_id``, ``row``, ``status``, ``errata``)
    as a cell's content: the value, the text as printed when it differs, its table and row as a tooltip, a mark when
    corrected by an erratum; ``missing()`` when absent."""
    if not m:
        return missing()
    shown = fmt(m["value"]) + unit
    raw = m.get("raw")
    bare = lambda t: re.sub(r"[^0-9.]", "", t)  # "16 DA-MPs" is 16 as printed; "288K" is not 288,000
    extra = f' <span class="atlas-raw" title="as printed">{esc(raw)}</span>' if raw and bare(raw) != bare(shown) else ""
    mark = (f' <span class="atlas-flag atlas-flag-corrected" title="corrected: {esc(", ".join(m.get("errata") or []))}">✎</span>'
            if m.get("status") == "corrected" else "")
    return f'<span title="Table {esc(m["table_id"])}, row {esc(m["row"])}">{esc(shown)}</span>{extra}{mark}'


def calculator_url(renderer, sid: str, calculator, keep: tuple[str, ...], prefix: str = "") -> str | None:
    """The link to ``calculator``'s page (a module of calculators/ with ``NAME`` and ``defaults(bundle, sid)``) that
    computes run ``sid`` at its own measured load, the page's permalink parameters ``keep`` (e.g. scenario, target),
    relative to ``prefix`` (the way back to the site root); None when ``sid`` is not a run the calculator can size."""
    try:
        d = calculator.defaults(renderer.bundle, sid)
    except KeyError:
        return None
    return f"{prefix}calculators/{calculator.NAME}/?" + urlencode({k: d[k] for k in keep if d.get(k)})
