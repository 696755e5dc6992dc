"""Shared output of the sizing calculators (DSR MPs for a target MPS, ShCM Rhino nodes
for a target RPS/SPS): a result is a list of steps, each
``(kind, key, label, value, unit, source)`` with kind one of input / measured /
computed / result, shown as one table, written as one CSV, and drawn as a capacity
chart (capacity against the number of MPs or nodes, with the target as a rule).
Standard library only; every text is HTML-escaped.
"""
from __future__ import annotations

import io
from fractions import Fraction

from .formatting import csv_writer, escape, fmt
from .inputs import exact

STEP_KINDS = {"input": "Input", "measured": "Measured (source)", "computed": "Computed", "result": "Result"}


frac = exact
"""An exact Fraction of a number as written (calculators.inputs.exact)."""


def ceil(x: Fraction) -> int:
    """Exact ceiling of a Fraction."""
    return -((-x.numerator) // x.denominator)


def cite(m: dict, column: bool = True) -> str:
    """'Table 3-1, row 2, column 'MPS'' for a bundle figure with table_id, row and column_label."""
    s = f"Table {m['table_id']}, row {m['row']}"
    return s + (f", column '{m['column_label']}'" if column and m.get("column_label") else "")


def steps_html(steps: list[tuple], css_class: str) -> str:
    """The steps as one table (Kind, Item, Value, Unit, Source / how)."""
    parts = [f'<div class="atlas-table-wrap"><table class="atlas-rows {escape(css_class)}"><thead><tr><th>Kind</th><th>Item</th>'
             '<th>Value</th><th>Unit</th><th>Source / how</th></tr></thead><tbody>']
    for kind, key, label, value, unit, src in steps:
        v = value if isinstance(value, str) else fmt(value)
        parts.append(f'<tr data-key="{escape(key)}"><td>{escape(STEP_KINDS[kind])}</td><td>{escape(label)}</td>'
                     f'<td class="atlas-num">{escape(v)}</td><td>{escape(unit)}</td><td>{escape(src)}</td></tr>')
    parts.append("</tbody></table></div>")
    return "".join(parts)


def list_html(items: list[str], css_class: str, intro: str = "") -> str:
    """Warnings or notes as an escaped list, with an optional lead-in paragraph; '' when empty."""
    if not items:
        return ""
    return ((f"<p>{escape(intro)}</p>" if intro else "") + f'<ul class="{escape(css_class)}">'
            + "".join(f"<li>{escape(x)}</li>" for x in items) + "</ul>")


def steps_csv(scenario_id: str, steps: list[tuple], warnings: list[str]) -> str:
    """One CSV line per step (scenario, section, key, item, value, unit, source), then the warnings."""
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(["scenario", "section", "key", "item", "value", "unit", "source"])
    for kind, key, label, value, unit, src in steps:
        v = value if isinstance(value, str) else ("" if value is None else fmt(value, 6).replace(",", ""))
        w.writerow([scenario_id, kind, key, label, v, unit, src])
    for x in warnings:
        w.writerow([scenario_id, "warning", "", x, "", "", ""])
    return buf.getvalue()


LEGEND_LABEL_LIMIT = 320
"""Pixels a capacity chart's legend label may take: a phone's chart width (350 px, atlas/chart_theme.json "narrow") less
the symbol, where the site's default (140 px on a phone: docs/assets/js/charts.js) cut the longest series names."""


def capacity_chart(*, description: str, x_field: str, x_title: str, unit: str, series: list[tuple],
                   counts, target, target_label: str | None = None) -> dict:
    """Vega-Lite spec: capacity (``unit``) = count x rate for each (name, rate) series over
    ``counts``, with a dashed rule at ``target`` whose tooltip is ``target_label`` (default
    'target <target> <unit>')."""
    values = [{x_field: n, "capacity": float(n * rate), "series": name} for name, rate in series for n in sorted(counts)]
    target = float(target)
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": description,
        "width": "container", "height": 220,
        "layer": [
            {"data": {"values": values}, "mark": {"type": "line", "point": True, "tooltip": True},
             "encoding": {"x": {"field": x_field, "type": "quantitative", "title": x_title, "axis": {"tickMinStep": 1}},
                          "y": {"field": "capacity", "type": "quantitative", "title": f"Capacity ({unit})"},
                          # one label per line, each whole: on a phone a row of them was cut ("at the measured CPU peak (…")
                          "color": {"field": "series", "type": "nominal", "title": None,
                                    "legend": {"orient": "bottom", "direction": "vertical", "labelLimit": LEGEND_LABEL_LIMIT}}}},
            {"data": {"values": [{"target": target, "label": target_label or f"target {fmt(target)} {unit}"}]},
             "mark": {"type": "rule", "strokeDash": [4, 4], "tooltip": True},
             "encoding": {"y": {"field": "target", "type": "quantitative"}, "tooltip": {"field": "label"}}},
        ],
    }


def held_out_band(bundle: dict, doc: str) -> dict:
    """The held-out band of ``doc``'s one-run sizing (bundle key ``sizing_bands``, built by ``calculators.backtest``):
    ``{"lo", "hi", "comparisons", "coverage", "covered", "checked", "basis", ...}`` (ratios printed / predicted of the
    figure a run is sized from), or ``{"none": why}``."""
    b = (((bundle.get("sizing_bands") or {}).get(doc) or {}).get("one-run") or {}).get("whole")
    return b if b else {"none": f"no held-out backtest for {doc}: see How accurate is this?"}


def band_words(b: dict, figure: str) -> str:
    """What a held-out band means, in one sentence naming the ``figure`` it was measured on."""
    if "lo" not in b:
        return f"No likely range: {b['none']}."
    cov = ("" if b.get("coverage") is None else
           f"; held out it covered {b['covered']} of {b['checked']} ({b['coverage']:.0f} %"
           + (")" if b.get("basis") == "run" else ", each comparison held out)"))
    return (f"Likely: where {figure} fell in {b['comparisons']} held-out comparisons of one run predicted from another "
            f"(printed / predicted {b['lo']:.2f} to {b['hi']:.2f}{cov}); the counts at the band's two ends, same rules.")


def likely_text(likely: dict | None) -> str:
    """A result's likely count in words: '104–128' (the counts at the low and high end of its held-out band), one
    figure when they agree, 'no band' without one, or why an end could not be sized. ``likely``: ``{"band", "low":
    {"total"}, "high": {"total"}}`` (an end may be ``{"error": message}``) as the DSR and ShCM calculators give it."""
    lk = likely or {}
    if "low" not in lk or "error" in lk["low"] or "error" in lk.get("high", {"error": 1}):
        return "no band" if "lo" not in (lk.get("band") or {}) else "beyond this calculator's limit at the band's end"
    lo, hi = lk["low"]["total"], lk["high"]["total"]
    return f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"

