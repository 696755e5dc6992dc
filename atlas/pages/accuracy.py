"""The backtest pages ("How accurate is this?" and "Every backtest comparison"): every run of a product predicted
without its own figures, by the footprint's default method (the comparable runs) and by scaling one run, per service
and whole footprint, the band each method's results carry with its held-out coverage, and every run or reading left
out with why (``calculators.backtest``, computed from the build's bundle at build time)."""
from __future__ import annotations

from weakref import WeakKeyDictionary

from calculators import backtest
from calculators.formatting import fmt

from ..html import esc, json_for_html
from .data import view_links
from .views import facet_bar, row_attrs

METHOD_NAMES = {"evidence": "Comparable runs (the default)", "one-run": "One run, scaled in proportion"}
METHOD_SHORT = {"evidence": "comparable runs", "one-run": "one run"}
"""The methods as the comparisons table's chips and cells name them (the page's method section says what each is)."""
LEVEL_NAMES = {"whole": "whole footprint", "service": "per service"}


def _pct(v) -> str:
    return "—" if v is None else f"{v:,.1f} %"


def _num(v) -> str:
    return "—" if v is None else fmt(round(v, 3))


def _ratio_text(p: dict) -> str:
    return "—" if p["ratio"] is None else f"{p['ratio']:.2f}"


_RESULTS: WeakKeyDictionary = WeakKeyDictionary()
"""``calculators.backtest.run`` of ``renderer.bundle`` per Renderer ``renderer`` (a build has one Renderer; the entry goes with it)."""


def _result(renderer) -> dict:
    """``calculators.backtest.run`` of the build's bundle, computed once per build (two pages and a download read it)."""
    if renderer not in _RESULTS:
        _RESULTS[renderer] = backtest.run(renderer.bundle)
    return _RESULTS[renderer]


def _names(renderer) -> dict:
    return {s["id"]: s["short_name"] for s in renderer.bundle["sources"]}


def _cm_names(renderer) -> dict:
    return {(s["doc"], s.get("call_model")): s.get("call_model_name") or s.get("call_model") for s in renderer.bundle["scenarios"]}


SINGLE_FIGURE = ("scenario-cpu", "measured-rate", "cpu-per-node")
"""Rules of products sized from one figure per run (NEF, DSR, ShCM): the same comparison at both levels."""
ALL_POINTS = ("views", "accuracy", "backtest-all")
"""The download of every comparison (``all_points_csv``), under downloads/ as views/accuracy/backtest-all.csv."""


def _shown_points(res: dict) -> list[dict]:
    """The comparisons the page lists: the comparable runs at both levels, one run as whole footprints, once each (a
    product with one figure per run, NEF, DSR and ShCM, has the same comparison at both levels: listed once, as the
    whole footprint; NEF's two methods coincide, with two runs per API: listed once, as one run). One run's
    per-service comparisons (every ordered pair of a call model, about 1,100) are in the download of every comparison
    (``all_points_csv``) only: listed, they took the page past 400 KB before use."""
    out, seen = [], set()
    for p in res["points"]:
        key = (p["doc"], p["from"], p["to"], p["subject"])
        single = p["rule"] in SINGLE_FIGURE
        if single and (p["level"] != "whole" or key in seen):
            continue
        if not single and p["method"] == "one-run" and p["level"] == "service":
            continue
        seen.add(key)
        out.append(p)
    return out


def chart_spec(points: list[dict]) -> dict:
    """Vega-Lite: predicted against printed, one point per comparison of the default method of each product, log-log,
    with the line where prediction equals the printed value."""
    pts = [{"product": p["doc"], "level": LEVEL_NAMES[p["level"]], "pair": f'{p["from"]} -> {p["to"]}', "subject": p["subject"],
            "printed": p["observed_to"], "predicted": p["predicted_to"], "unit": p["value_unit"],
            "error": None if p["ape"] is None else round(p["ape"], 1)}
           for p in points if p["observed_to"] > 0 and p["predicted_to"] > 0]
    lo = min([min(p["printed"], p["predicted"]) for p in pts] or [0.001])
    hi = max([max(p["printed"], p["predicted"]) for p in pts] or [1])
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": "Predicted against printed for every held-out comparison of each product's default method.",
        "width": "container", "height": 360, "autosize": {"type": "fit", "contains": "padding"},
        "layer": [
            {"data": {"values": [{"x": lo, "y": lo}, {"x": hi, "y": hi}]}, "mark": {"type": "line", "strokeDash": [4, 4], "color": "gray"},
             "encoding": {"x": {"field": "x", "type": "quantitative", "scale": {"type": "log"}},
                          "y": {"field": "y", "type": "quantitative", "scale": {"type": "log"}}}},
            {"data": {"values": pts}, "mark": {"type": "point", "filled": True, "opacity": 0.7, "tooltip": True},
             "encoding": {
                 "x": {"field": "printed", "type": "quantitative", "scale": {"type": "log"}, "title": "Printed in the guide (cores or %)"},
                 "y": {"field": "predicted", "type": "quantitative", "scale": {"type": "log"}, "title": "Predicted, held out"},
                 "color": {"field": "product", "type": "nominal", "title": "Product", "legend": {"orient": "bottom"}},
                 "shape": {"field": "level", "type": "nominal", "title": "Level", "legend": {"orient": "bottom"}},
                 "tooltip": [{"field": "pair", "title": "From -> to"}, {"field": "subject", "title": "Service"},
                             {"field": "printed", "title": "Printed"}, {"field": "predicted", "title": "Predicted", "format": ".3~g"},
                             {"field": "unit", "title": "Unit"}, {"field": "error", "title": "Error (%)"}]}},
        ],
    }


def _default_points(res: dict) -> list[dict]:
    """Each product's comparisons under the method its calculator uses by default: the comparable runs where the
    product has pods, one run elsewhere (NEF's two coincide; DSR and ShCM size from one run)."""
    has_evidence = {d for d, by in res["summary"].items() if by["evidence"]["service"]["comparisons"]}
    return [p for p in _shown_points(res) if p["method"] == ("evidence" if p["doc"] in has_evidence else "one-run")]


def _stat_cells(st: dict) -> str:
    return f'<td>{st["comparisons"]}</td><td>{_pct(st["median_ape"])}</td><td>{_pct(st["p90_ape"])}</td>'


def _band_cell(b: dict) -> str:
    if "lo" not in b:
        return f'<td colspan="2">{esc(b.get("none", ""))}</td>'
    cov = ("not measurable held out" if b.get("coverage") is None
           else f'{b["coverage"]:.0f} % ({b["covered"]} of {b["checked"]})')
    return f'<td>{b["lo"]:.2f}–{b["hi"]:.2f}</td><td>{esc(cov)}</td>'


HEAD = ('<thead><tr><th>{what}</th><th>Method</th><th>Whole footprint: comparisons</th><th>median error</th>'
        '<th>90th percentile</th><th>Per service: comparisons</th><th>median error</th><th>90th percentile</th>'
        '<th>Band on totals (printed / predicted)</th><th>Its held-out coverage</th></tr></thead>')


def _rows(res: dict, names: dict, cm_names: dict, by_call_model: bool) -> str:
    out = []
    for doc, by_m in (res["by_call_model"] if by_call_model else res["summary"]).items():
        groups = by_m.items() if by_call_model else [(None, by_m)]
        for cm, stats in groups:
            for m in backtest.METHODS:
                st = stats[m]
                if not st["whole"]["comparisons"] and not st["service"]["comparisons"]:
                    continue
                label = names.get(doc, doc) + ("" if cm is None else f": {cm_names.get((doc, cm)) or cm}")
                band = "" if by_call_model else _band_cell(res["bands"][doc][m]["whole"])
                out.append(f'<tr><td>{esc(label)}</td><td>{esc(METHOD_NAMES[m])}</td>{_stat_cells(st["whole"])}'
                           f'{_stat_cells(st["service"])}{band}</tr>')
    return "".join(out)


def backtest_page(renderer) -> str:
    """The body of the "How accurate is this?" page, computed from the bundle at build time. Its headings are
    Markdown (``## Headline { #headline }``), so that the page's table of contents lists them."""
    res = _result(renderer)
    names, cm_names = _names(renderer), _cm_names(renderer)
    scen_url = {s["id"]: f'../../products/{s["doc"]}/{s["id"]}/' for s in renderer.atlas.scenarios}
    link = lambda sid: f'<a href="{esc(scen_url.get(sid, ""))}">{esc(sid)}</a>' if sid in scen_url else esc(sid)
    out = ["\n## Headline { #headline }\n",
           '<p>Every run of a product predicted without its own figures. <em>Comparable runs</em> is how the footprint '
           'calculator sizes by default; <em>one run</em> is what a planner picking a single run gets (every ordered pair of '
           'runs of one call model). Whole footprint: the cores every pod of the run used, summed; per service: one pod.</p>',
           '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="backtest-products">'
           + HEAD.format(what="Product") + "<tbody>" + _rows(res, names, cm_names, False) + "</tbody></table></div>",
           "\n## By call model { #by-call-model }\n",
           '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="backtest-call-models">'
           + HEAD.format(what="Product and call model").replace("<th>Band on totals (printed / predicted)</th><th>Its held-out coverage</th>", "")
           + "<tbody>" + _rows(res, names, cm_names, True) + "</tbody></table></div>"]
    out += ["\n## The band { #band }\n",
            "<p>What the calculators show as <em>likely</em>: the ratios printed / predicted of the method's held-out "
            "comparisons, the k-th lowest and the k-th highest, k = round(0.1 x (comparisons + 1)); a new comparison "
            "falls between them with the expected coverage given (about 80 %). Its held-out coverage is measured: each run "
            "is removed entirely, the band computed again without it (for the comparable-runs method, every other run "
            "predicted again), and the run's own comparisons checked against that band.</p>",
            '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="backtest-bands"><thead><tr><th>Product</th>'
            '<th>Method</th><th>Level</th><th>Comparisons</th><th>Band (printed / predicted)</th><th>k</th><th>Expected coverage</th>'
            '<th>Held-out coverage</th></tr></thead><tbody>']
    for doc, by_m in res["bands"].items():
        for m, by_l in by_m.items():
            for lv, b in by_l.items():
                if not b.get("comparisons"):
                    continue
                if "lo" in b:
                    cov = ("not measurable: too few comparisons" if b.get("coverage") is None
                           else f'{b["coverage"]:.0f} % ({b["covered"]} of {b["checked"]})'
                           + ("" if b.get("basis") == "run" else ", each comparison held out (too few runs to hold one out)"))
                    out.append(f'<tr><td>{esc(names.get(doc, doc))}</td><td>{esc(METHOD_NAMES[m])}</td><td>{LEVEL_NAMES[lv]}</td>'
                               f'<td>{b["comparisons"]}</td><td>{b["lo"]:.2f}–{b["hi"]:.2f}</td><td>{b["k"]}</td>'
                               f'<td>{b["expected_coverage"]:.0f} %</td><td>{esc(cov)}</td></tr>')
                else:
                    out.append(f'<tr><td>{esc(names.get(doc, doc))}</td><td>{esc(METHOD_NAMES[m])}</td><td>{LEVEL_NAMES[lv]}</td>'
                               f'<td>{b["comparisons"]}</td><td colspan="4">no band: {esc(b["none"])}</td></tr>')
    out.append("</tbody></table></div>")
    out += _beyond_the_range(res.get("extrapolation") or {}, names)
    whole = [p for p in res["points"] if p["level"] == "whole" and p["method"] == "evidence" and p["rule"] == "whole footprint"]
    if whole:
        out += ["\n## Whole footprints, comparable runs { #whole-footprint }\n",
                '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="backtest-whole"><thead><tr>'
                '<th>Run predicted</th><th>Call model</th><th>Load per site</th><th>Pods</th><th>Cores predicted</th>'
                '<th>Cores printed</th><th>Error</th><th>Printed / predicted</th><th>Its CPU readings cover</th>'
                '<th>Power beyond the range (chosen without it)</th></tr></thead><tbody>'
                + "".join(f'<tr><td>{link(p["to"])}</td><td>{esc(cm_names.get((p["doc"], p["call_model"])) or p["call_model"])}</td>'
                          f'<td>{fmt(p["load_to"])} {esc(p["unit"])}</td><td>{esc(p["subject"])}</td><td>{_num(p["predicted_to"])}</td>'
                          f'<td>{_num(p["observed_to"])}</td><td>{_pct(p["ape"])}</td>'
                          f'<td>{_ratio_text(p)}</td>'
                          f'<td>{p["coverage"] * 100:.0f} % of its CPU request</td>'
                          f'<td>{_power_text(p.get("power", 1))}</td></tr>' for p in whole)
                + "</tbody></table></div>"]
    out += ["\n## Left out { #left-out }\n", "<p>Every run or reading the backtest could not use, and why:</p><ul>"]
    out += [f'<li><strong>{link(x["scenario"])}</strong> ({esc(names.get(x["doc"], x["doc"]))}): {esc(x["what"])}: {esc(x["why"])}.</li>'
            for x in res["left_out"]]
    out += [f'<li>{esc(line)}</li>' for line in _flagged_readings(renderer)]
    out += [f"<li><strong>{esc(names.get(d, d))}</strong>: {esc('; '.join(n))}.</li>" for d, n in res["notes"].items()]
    out.append("</ul>")
    pts = _default_points(res)
    n = len(_shown_points(res))
    out += ["\n## Every comparison { #every-comparison }\n",
            f'<p>The chart plots predicted against printed for the {sum(1 for p in pts if p["observed_to"] > 0 and p["predicted_to"] > 0):,} '
            "comparisons of each product's default method where both are above zero (log scales). All "
            f'{n:,} comparisons of both methods are rows of <a href="../accuracy-comparisons/">Every backtest comparison</a>, to '
            'filter by product, method and level, sort, and download as shown.</p>',
            '<div class="atlas-chart" data-chart-id="backtest-chart" role="img" aria-label="Scatter chart of predicted against '
            'printed values, log scales; the page Every backtest comparison holds the same data as a table."></div>',
            f'<script type="application/json" id="backtest-chart">{json_for_html(chart_spec(pts))}</script>']
    return "\n".join(out)


def _flagged_readings(renderer) -> list[str]:
    """One line per table whose CPU readings an erratum excludes (bundle key ``excluded_rows``): never used to size or
    backtest."""
    raw = renderer.bundle.get("excluded_rows") or {"cols": [], "rows": []}
    by: dict[tuple, dict] = {}
    for row in (dict(zip(raw["cols"], x)) for x in raw["rows"]):
        if row["metric"] != "cpu" or row["status"] != "flagged":
            continue
        g = by.setdefault((row["scenario"], row["table_id"]), {"services": [], "errata": []})
        for lst, vals in ((g["services"], [row["service"]]), (g["errata"], row["errata"])):
            lst += [v for v in vals if v not in lst]
    return [f"{sid}, Table {tid}: CPU readings of {', '.join(g['services'])} flagged by {', '.join(g['errata'])}: not used"
            for (sid, tid), g in by.items()]


POINT_FACETS = (("product", "Product"), ("method", "Method"), ("level", "Level"))
"""The chip groups of the comparisons table: (facet, label)."""
POINT_FACET_COLS = {"product": 0, "method": 1, "level": 2}
"""The columns of the comparisons table that hold its facets (``facet_bar``'s ``cols``): its rows carry no facet attribute."""


def _point_facets(renderer) -> list[dict[str, str]]:
    """Each listed comparison's facet values (product short name, method, level), in ``_shown_points`` order."""
    names = _names(renderer)
    return [{"product": names.get(p["doc"], p["doc"]), "method": METHOD_SHORT[p["method"]], "level": LEVEL_NAMES[p["level"]]}
            for p in _shown_points(_result(renderer))]


def points_table(renderer) -> str:
    """The HTML of the comparisons table (``data-atlas-table="backtest-points"``): one row per listed comparison
    (``_shown_points``), product, method and level (the chips' facets) in the first three columns. The page "Every
    backtest comparison" shows it and the build writes it "as shown" (``shown.shown_tables``)."""
    pts = _shown_points(_result(renderer))
    out = ['<div class="atlas-table-wrap"><table class="atlas-data atlas-comparisons" data-atlas-table="backtest-points"><thead><tr>'
           '<th>Product</th><th>Method</th><th>Level</th><th>Predicted</th><th>From</th><th>Service or figure</th><th>Load</th>'
           '<th>Predicted value</th><th>Printed</th><th>Unit</th><th>Error</th><th>Source of the printed value</th></tr></thead><tbody>']
    out += [f'<tr{row_attrs(f, POINT_FACET_COLS)}><td>{esc(f["product"])}</td><td>{esc(f["method"])}</td><td>{esc(f["level"])}</td>'
            f'<td>{esc(p["to"])}</td><td>{esc(p["from"])}</td><td>{esc(p["subject"])}</td><td>{fmt(p["load_to"])} {esc(p["unit"])}</td>'
            f'<td>{_num(p["predicted_to"])}</td><td>{_num(p["observed_to"])}</td><td>{esc(p["value_unit"])}</td><td>{_pct(p["ape"])}</td>'
            f'<td>{esc(p["source_to"])}</td></tr>' for p, f in zip(pts, _point_facets(renderer))]
    out.append("</tbody></table></div>")
    return "\n".join(out)


ALL_COLUMNS = ("product", "method", "level", "rule", "call_model", "predicted_run", "from", "subject", "load_from", "load_to",
               "load_unit", "printed_from", "predicted", "printed", "value_unit", "error_percent", "printed_over_predicted",
               "how", "source_from", "source_to")


def _power_text(power: float) -> str:
    return "1 (proportional)" if power == 1 else f"{power:g}"


def _beyond_the_range(rules: dict, names: dict) -> list[str]:
    """The section on the comparable runs' scaling beyond the measured range: per product, each power of
    ``calculators.backtest.POWERS`` applied to every run (held out per run, the power fixed), the power the calculator
    uses and why, and how often each power was chosen with the run predicted left out (the figures above use those)."""
    if not rules:
        return []
    out = ["\n## Beyond the measured range { #beyond-the-range }\n",
           "<p>Between the loads two comparable runs measured, cores are interpolated. Beyond them, the nearest run is scaled "
           "by (load / its load)^power. Proportional (power 1) is the most conservative above the range; part of a pod's "
           "cores does not grow with its load (idle work, housekeeping), so a lower power may predict better. The power is "
           "chosen from the product's own runs: the one whose held-out whole-footprint predictions have the lowest median + "
           "90th percentile error, proportional kept on a tie and with fewer than 9 whole-footprint comparisons. The figures "
           "above are held out for that choice too: each run is predicted with the power chosen without it. The three powers "
           "offered were set after an earlier look at Policy's figures with 1/2 and 3/4, which this nesting does not undo.</p>",
           '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="backtest-powers"><thead><tr>'
           "<th>Product</th><th>Power</th><th>Whole footprints</th><th>Median error</th><th>p90 error</th>"
           "<th>Chosen when each run was predicted held out</th><th>Used by the calculator</th></tr></thead><tbody>"]
    for doc, rule in rules.items():
        for sc in rule["scores"]:
            key = f'{sc["power"]:g}'
            used = sc["power"] == rule["power"]
            out.append(f'<tr><td>{esc(names.get(doc, doc))}</td><td>{_power_text(sc["power"])}</td><td>{sc["whole"]}</td>'
                       f'<td>{_pct(sc["median_ape"])}</td><td>{_pct(sc["p90_ape"])}</td>'
                       f'<td>{rule["held_out_choices"].get(key, 0)} run(s)</td>'
                       f'<td>{"yes" if used else ""}</td></tr>')
    out.append("</tbody></table></div><ul>")
    out += [f'<li><strong>{esc(names.get(doc, doc))}</strong>: {esc(rule["why"])}.</li>' for doc, rule in rules.items()]
    out.append("</ul>")
    return out


def all_points_csv(renderer) -> bytes:
    """Every comparison of the backtest (both methods, both levels, one-run per service included) as one CSV, a row
    per comparison (ALL_COLUMNS: loads in the product's unit per site, values in cores or percent as ``value_unit``
    says, the error in percent, the ratio printed / predicted, how the prediction was made and the source of each
    printed value). Cells a spreadsheet could run are neutralised (calculators.formatting.csv_writer)."""
    import io
    from calculators.formatting import csv_writer
    names = _names(renderer)
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(ALL_COLUMNS)
    num = lambda v: "" if v is None else repr(round(v, 6))
    for p in _result(renderer)["points"]:
        w.writerow([names.get(p["doc"], p["doc"]), p["method"], p["level"], p["rule"], p["call_model"] or "", p["to"], p["from"],
                    p["subject"], num(p["load_from"]), num(p["load_to"]), p["unit"], num(p["observed_from"]), num(p["predicted_to"]),
                    num(p["observed_to"]), p["value_unit"], num(p["ape"]), num(p["ratio"]), p.get("how") or "", p["source_from"],
                    p["source_to"]])
    return buf.getvalue().encode("utf-8")


def comparisons_page(renderer) -> str:
    """The body of the "Every backtest comparison" page (docs/calculators/accuracy-comparisons.md): the chip bar,
    the comparisons table (``points_table``) and its downloads. Raises KeyError if the build wrote no file for it."""
    return "\n".join([
        f'<p>{len(_shown_points(_result(renderer))):,} comparisons. Each predicts a run (<em>Predicted</em>) from other runs '
        '(<em>From</em>: the comparable runs used, or the one run scaled) without its own figures '
        '(<a href="../accuracy/#method">the method</a>); the error is the prediction\'s distance from the value printed '
        'for the run, whose table and row the last column names.</p>',
        facet_bar("backtest-points", list(POINT_FACETS), _point_facets(renderer), cols=POINT_FACET_COLS),
        points_table(renderer),
        view_links(renderer, ("views", "accuracy", "backtest-points"), "../../"),
        f'<p class="atlas-download">Every comparison, one run\'s {_one_run_per_service(renderer):,} per-service ones included (not '
        f'listed here): <a href="../../downloads/views/accuracy/backtest-all.csv" download>backtest-all.csv</a> '
        f'({len(_result(renderer)["points"]):,} rows).</p>'])


def _one_run_per_service(renderer) -> int:
    return sum(1 for p in _result(renderer)["points"] if p["method"] == "one-run" and p["level"] == "service" and p["rule"] not in SINGLE_FIGURE)
