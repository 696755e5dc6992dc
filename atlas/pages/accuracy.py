"""The backtest page ("How accurate is this?"): every pair of comparable runs predicted from each
other by the calculators' own rule (``calculators.backtest``, reading the bundle key ``cpu_obs``),
computed at build time."""
from __future__ import annotations

from calculators import backtest
from calculators.formatting import fmt

from ..html import esc, json_for_html
from .views import facet_bar, row_attrs


def _pct(v) -> str:
    return "—" if v is None else f"{v:,.1f} %"


def _num(v) -> str:
    return "—" if v is None else fmt(round(v, 3))


def chart_spec(points: list[dict]) -> dict:
    """Vega-Lite: predicted against printed, one point per service of a pair, log-log, with the
    line where prediction equals observation."""
    pts = [{"product": p["doc"], "rule": p["rule"], "pair": f'{p["from"]} -> {p["to"]}', "subject": p["subject"],
            "printed": p["observed_to"], "predicted": p["predicted_to"], "unit": p["value_unit"],
            "error": None if p["ape"] is None else round(p["ape"], 1)}
           for p in points if p["observed_to"] > 0 and p["predicted_to"] > 0]
    lo = min([min(p["printed"], p["predicted"]) for p in pts] or [0.001])
    hi = max([max(p["printed"], p["predicted"]) for p in pts] or [1])
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": "Predicted against printed observation for every backtested service and pair.",
        "width": "container", "height": 360, "autosize": {"type": "fit", "contains": "padding"},
        "layer": [
            {"data": {"values": [{"x": lo, "y": lo}, {"x": hi, "y": hi}]}, "mark": {"type": "line", "strokeDash": [4, 4], "color": "gray"},
             "encoding": {"x": {"field": "x", "type": "quantitative", "scale": {"type": "log"}},
                          "y": {"field": "y", "type": "quantitative", "scale": {"type": "log"}}}},
            {"data": {"values": pts}, "mark": {"type": "point", "filled": True, "opacity": 0.7, "tooltip": True},
             "encoding": {
                 "x": {"field": "printed", "type": "quantitative", "scale": {"type": "log"}, "title": "Printed in the guide (cores or %)"},
                 "y": {"field": "predicted", "type": "quantitative", "scale": {"type": "log"}, "title": "Predicted by the rule"},
                 "color": {"field": "product", "type": "nominal", "title": "Product", "legend": {"orient": "bottom"}},
                 "shape": {"field": "rule", "type": "nominal", "title": "Rule", "legend": {"orient": "bottom", "columns": 2}},
                 "tooltip": [{"field": "pair", "title": "Pair"}, {"field": "subject", "title": "Service"},
                             {"field": "printed", "title": "Printed"}, {"field": "predicted", "title": "Predicted", "format": ".3~g"},
                             {"field": "unit", "title": "Unit"}, {"field": "error", "title": "Error (%)"}]}},
        ],
    }


def _stats_rows(stats: dict, names: dict) -> str:
    return "".join(
        f'<tr><td>{esc(names.get(k, k))}</td><td>{v["pairs"]}</td><td>{v["with_error"]}</td>'
        f'<td>{_pct(v["median_ape"])}</td><td>{_pct(v["p90_ape"])}</td></tr>' for k, v in stats.items())


STATS_HEAD = ('<thead><tr><th>{what}</th><th>Comparisons</th><th>With an error (printed value not 0)</th>'
              '<th>Median absolute error</th><th>90th percentile absolute error</th></tr></thead>')


def _result(r) -> dict:
    """``calculators.backtest.run`` of the build's bundle, computed once per build (two pages and a download read it)."""
    if getattr(r, "_backtest_result", None) is None:
        r._backtest_result = backtest.run(r.bundle)
    return r._backtest_result


POINT_FACETS = (("product", "Product"), ("rule", "Rule"))
"""The chip groups of the comparisons table: (facet, label)."""
POINT_FACET_COLS = {"product": 0, "rule": 1}
"""The columns of the comparisons table that hold its facets (``facet_bar``'s ``cols``): its rows carry no facet attribute."""


def _point_facets(r) -> list[dict[str, str]]:
    """Each comparison's facet values (product short name, rule), in ``_result(r)["points"]`` order."""
    names = {s["id"]: s["short_name"] for s in r.bundle["sources"]}
    return [{"product": names.get(p["doc"], p["doc"]), "rule": p["rule"]} for p in _result(r)["points"]]


def points_table(r) -> str:
    """The HTML of the comparisons table (``data-atlas-table="backtest-points"``): one row per comparison of
    ``calculators.backtest.run``, in its order, its product and rule (the chips' facets) in the first two columns. The page
    "Every backtest comparison" shows it and the build writes it "as shown" (``downloads.shown_tables``)."""
    res = _result(r)
    facets = _point_facets(r)
    out = ['<div class="atlas-table-wrap"><table class="atlas-data atlas-comparisons" data-atlas-table="backtest-points"><thead><tr>'
           '<th>Product</th><th>Rule</th><th>From (A)</th><th>To (B)</th><th>Service or figure</th><th>Load A</th><th>Load B</th>'
           '<th>Printed for A</th><th>Predicted for B</th><th>Printed for B</th><th>Unit</th><th>Error</th>'
           '<th>Source A</th><th>Source B</th></tr></thead><tbody>']
    out += [f'<tr{row_attrs(f, POINT_FACET_COLS)}><td>{esc(f["product"])}</td><td>{esc(f["rule"])}</td><td>{esc(p["from"])}</td>'
            f'<td>{esc(p["to"])}</td><td>{esc(p["subject"])}</td><td>{fmt(p["load_from"])} {esc(p["unit"])}</td>'
            f'<td>{fmt(p["load_to"])} {esc(p["unit"])}</td><td>{_num(p["observed_from"])}</td><td>{_num(p["predicted_to"])}</td>'
            f'<td>{_num(p["observed_to"])}</td><td>{esc(p["value_unit"])}</td><td>{_pct(p["ape"])}</td>'
            f'<td>{esc(p["source_from"])}</td><td>{esc(p["source_to"])}</td></tr>' for p, f in zip(res["points"], facets)]
    out.append("</tbody></table></div>")
    return "\n".join(out)


def comparisons_page(r) -> str:
    """The body of the "Every backtest comparison" page (docs/calculators/accuracy-comparisons.md): the chip bar,
    the comparisons table (``points_table``) and its downloads. Raises KeyError if the build wrote no file for it."""
    from .data import view_links
    return "\n".join([
        f'<p>{len(_result(r)["points"]):,} comparisons. "Predicted for B" is "Printed for A" scaled from load A to load B by the '
        'rule (<a href="../accuracy/#method">the method</a>); the error is its distance from "Printed for B"; the sources '
        'name the table and row of each printed value.</p>',
        facet_bar("backtest-points", list(POINT_FACETS), _point_facets(r), cols=POINT_FACET_COLS),
        points_table(r),
        view_links(r, ("views", "accuracy", "backtest-points"), "../../")])


def backtest_page(r) -> str:
    """The body of the "How accurate is this?" page, computed from the bundle at build time. Its headings are
    Markdown (``## Headline { #headline }``), so that the page's table of contents lists them."""
    res = _result(r)
    names = {s["id"]: s["short_name"] for s in r.bundle["sources"]}
    rule_names = {f"{d}/{ru}": f"{names.get(d, d)}: {ru}" for d, ru in (k.split("/", 1) for k in res["by_rule"])}
    scen_url = {s["id"]: f'../../products/{s["doc"]}/{s["id"]}/' for s in r.a.scenarios}
    out = ["\n## Headline { #headline }\n",
           '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="backtest-products">'
           + STATS_HEAD.format(what="Product") + "<tbody>" + _stats_rows(res["by_product"], names) + "</tbody></table></div>",
           '<p class="atlas-note">One comparison is one service (container) of run B predicted from the same service of run A. '
           'Errors are absolute percentage errors of the prediction against the value printed for run B.</p>']
    if res["by_total"]:
        out += ["\n### Whole footprint { #whole-footprint }\n",
                '<p>The sum over the services observed in both runs, which is what a footprint sizing adds up:</p>',
                '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="backtest-totals">'
                + STATS_HEAD.format(what="Product") + "<tbody>" + _stats_rows(res["by_total"], names) + "</tbody></table></div>",
                '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="backtest-pairs"><thead><tr>'
                '<th>From (A)</th><th>To (B)</th><th>Load per site A</th><th>Load per site B</th><th>Services in both</th>'
                '<th>Cores predicted for B</th><th>Cores printed for B</th><th>Error</th></tr></thead><tbody>'
                + "".join(f'<tr><td><a href="{esc(scen_url.get(t["from"], ""))}">{esc(t["from"])}</a></td>'
                          f'<td><a href="{esc(scen_url.get(t["to"], ""))}">{esc(t["to"])}</a></td>'
                          f'<td>{fmt(t["load_from"])} {esc(t["unit"])}</td><td>{fmt(t["load_to"])} {esc(t["unit"])}</td>'
                          f'<td>{t["services"]}</td><td>{_num(t["predicted_to"])}</td><td>{_num(t["observed_to"])}</td>'
                          f'<td>{_pct(t["ape"])}</td></tr>' for t in res["totals"])
                + "</tbody></table></div>"]
    out += ["\n## By rule { #by-rule }\n",
            '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="backtest-rules">'
            + STATS_HEAD.format(what="Product and rule") + "<tbody>" + _stats_rows(res["by_rule"], rule_names) + "</tbody></table></div>"]
    if res["notes"]:
        out += ["\n## Not backtested { #not-backtested }\n", "<ul>"]
        out += [f"<li><strong>{esc(names.get(d, d))}</strong>: {esc('; '.join(n))}.</li>" for d, n in res["notes"].items()]
        out.append("</ul>")
    n = len(res["points"])
    plotted = sum(1 for p in res["points"] if p["observed_to"] > 0 and p["predicted_to"] > 0)  # chart_spec's filter
    out += ["\n## Every comparison { #every-comparison }\n",
            f'<p>The chart plots predicted against printed for the {plotted:,} comparisons where both are above zero (log '
            f'scales). All {n:,} comparisons are rows of <a href="../accuracy-comparisons/">Every backtest comparison</a>, '
            'to filter by product, rule, pair or service, sort, and download as shown.</p>',
            '<div class="atlas-chart" data-chart-id="backtest-chart" role="img" aria-label="Scatter chart of predicted against '
            'printed values, log scales; the page Every backtest comparison holds the same data as a table."></div>',
            f'<script type="application/json" id="backtest-chart">{json_for_html(chart_spec(res["points"]))}</script>']
    return "\n".join(out)
