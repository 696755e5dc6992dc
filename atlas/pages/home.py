"""Home page overview chart: CPU cores requested per 1K of load for every scenario
with resource data (Renderer.efficiency), coloured by product, shaped by ASM, each
point linking to its scenario page. The data is also rendered as a table, so the
page says the same without JavaScript.

``products_table(renderer)``: the products at a glance, above the chart.
"""
from __future__ import annotations

from calculators.formatting import fmt

from ..html import esc, json_for_html, partial_mark
from .data import view_links
from .views import LOAD_BUCKETS, facet_bar, load_bucket, row_attrs
from .yours import control as yours_control
from .yours import layer as yours_layer

ASM_LABEL = {"enabled": "ASM on", "disabled": "ASM off", "partial": "ASM partial", "unknown": "ASM not stated",
             "not_applicable": "no ASM (not applicable)"}
ASM_SHAPE = {"ASM on": "circle", "ASM off": "square", "ASM partial": "diamond", "ASM not stated": "triangle-up",
             "no ASM (not applicable)": "cross"}


def efficiency_points(renderer) -> list[dict]:
    """One point per scenario with resource data: CPU cores requested per 1K of load at one traffic site
    (``Renderer.efficiency``, rounded to 2 decimals), load per site, product, ASM label, partial flag and page URL."""
    names = {s["id"]: s["short_name"] for s in renderer.bundle["sources"]}
    pts = []
    for s in renderer.atlas.scenarios:
        e = renderer.efficiency(s["id"])
        if e is None:
            continue
        load = s["load"]
        pts.append({"scenario": f'{names.get(s["doc"], s["doc"])} {s["section"]}: {s.get("short_title") or s["title"]}',
                    "id": s["id"], "product": names.get(s["doc"], s["doc"]), "asm": ASM_LABEL.get(s["asm"], s["asm"]),
                    "load": float(load["per_site"]), "unit": load["unit"], "efficiency": round(e, 2),
                    "partial": renderer.completeness(s["id"])["partial"],
                    "counted_as": COUNTED[1] if renderer.completeness(s["id"])["partial"] else COUNTED[0],
                    "counted": "partial: at least this (services missing)" if renderer.completeness(s["id"])["partial"] else "complete",
                    "url": f'products/{s["doc"]}/{s["id"]}/'})
    return pts


LEGEND_GREY = "#6e7781"
"""The legend symbols' colour where they stand for a shape or a count, not a product (chart_theme.json's muted grey, which
the dark palette repaints)."""
COUNTED = ("complete", "partial: at least")
"""The home chart's "Services counted" values: a complete scenario is drawn filled, a partial one (a lower bound) hollow
with a dashed outline."""


def spec(points: list[dict]) -> dict:
    """The Vega-Lite spec of the home chart for ``points`` (efficiency_points): load per site against cores per 1K,
    coloured by product, shaped by ASM (legend symbols filled), a partial scenario drawn hollow with a dashed outline and
    named in its own legend ("Services counted"): hollow means one thing only."""
    asm = [a for a in ASM_SHAPE if any(p["asm"] == a for p in points)]
    solid = {"symbols": {"fill": {"value": LEGEND_GREY}, "stroke": {"value": LEGEND_GREY}}}
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": "CPU cores requested per 1K of load for every scenario with resource data; each point links to its scenario.",
        "width": "container", "height": 320, "autosize": {"type": "fit", "contains": "padding"},
        "data": {"values": points},
        "mark": {"type": "point", "filled": True, "strokeWidth": 2, "size": 90, "opacity": 0.85, "tooltip": True, "cursor": "pointer"},
        "encoding": {
            "x": {"field": "load", "type": "quantitative", "scale": {"type": "log"}, "title": "Load per site (log scale)",
                  "axis": {"labelFlush": True, "tickCount": 5, "format": "~s"}},
            "y": {"field": "efficiency", "type": "quantitative", "title": "CPU cores requested per 1K of load"},
            # a complete scenario is filled with its product's colour; a partial one (services the source does not give
            # usably) is hollow: its figure is a lower bound
            "fill": {"condition": {"test": "datum.partial", "value": "transparent"}, "field": "product", "type": "nominal",
                     "title": "Product", "legend": {"orient": "top", "direction": "horizontal"}},
            "stroke": {"field": "product", "type": "nominal", "legend": None},
            "shape": {"field": "asm", "type": "nominal", "title": "ASM", "scale": {"domain": asm, "range": [ASM_SHAPE[a] for a in asm]},
                      "legend": {"orient": "bottom", "direction": "horizontal", "columns": 2, "encoding": solid}},
            # ... and its outline dashed, with a legend of its own
            "strokeDash": {"field": "counted_as", "type": "nominal", "title": "Services counted",
                           "scale": {"domain": list(COUNTED), "range": [[1, 0], [2, 2]]},
                           "legend": {"orient": "bottom", "direction": "vertical", "encoding": {"symbols": {
                               "fill": {"condition": {"test": f"datum.value === '{COUNTED[0]}'", "value": LEGEND_GREY}, "value": "transparent"},
                               "stroke": {"value": LEGEND_GREY}}}}},
            "href": {"field": "url", "type": "nominal"},
            "tooltip": [{"field": "scenario", "title": "Scenario"}, {"field": "asm", "title": "ASM"},
                        {"field": "load", "title": "Load per site", "format": ","}, {"field": "unit", "title": "Unit"},
                        {"field": "efficiency", "title": "Cores per 1K"}, {"field": "counted", "title": "Services counted"}],
        },
        # how a reader's own deployment is drawn over the chart (atlas/pages/yours.py; charts.js adds it from a file)
        "usermeta": {"yours": yours_layer("load", "efficiency", [
            {"field": "scenario", "title": "Scenario"}, {"field": "load", "title": "Load per site", "format": ","},
            {"field": "unit", "title": "Unit"}, {"field": "efficiency", "title": "Cores per 1K"},
            {"field": "counted", "title": "Services counted"}, {"field": "note", "title": "Counted"}])},
    }


def efficiency_table(renderer) -> str:
    """The home chart's points as a table (scenario, product, ASM, load per site, cores per 1K), each row with its
    facets (product, ASM, mode, load range) and the chip bar above it; '' without points."""
    pts = efficiency_points(renderer)
    if not pts:
        return ""
    modes = {s["id"]: s.get("deployment_mode") or "not stated" for s in renderer.atlas.scenarios}
    facets = [{"product": p["product"], "asm": p["asm"], "mode": modes[p["id"]], "load": load_bucket(p["load"])} for p in pts]
    rows = "".join(
        f'<tr{row_attrs(f)}><td><a href="{esc(p["url"])}">{esc(p["scenario"])}</a></td><td>{esc(p["product"])}</td><td>{esc(p["asm"])}</td>'
        f'<td>{esc(fmt(p["load"]))} {esc(p["unit"])}</td><td>{partial_mark(p["partial"])}{esc(fmt(p["efficiency"]))}</td></tr>'
        for p, f in zip(pts, facets))
    return (facet_bar("efficiency", [("product", "Product"), ("asm", "ASM"), ("mode", "Mode"), ("load", "Load per site")], facets,
                      {"asm": list(ASM_SHAPE), "load": [b for _, b in LOAD_BUCKETS] + ["not stated"]})
            + '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="efficiency"><thead><tr><th>Scenario</th><th>Product</th>'
            '<th>ASM</th><th>Load per site</th><th>CPU cores per 1K of load</th></tr></thead><tbody>' + rows + '</tbody></table></div>')


def home_chart(renderer) -> str:
    """The home page chart (``{{ home_chart() }}``) and the same points as a table, for readers without JavaScript."""
    pts = efficiency_points(renderer)
    if not pts:
        return ""
    without = sorted({renderer.atlas.source(s["doc"])["short_name"] for s in renderer.atlas.scenarios if renderer.efficiency(s["id"]) is None})
    return "\n".join([
        '<figure class="atlas-figure" aria-labelledby="atlas-efficiency-caption">',
        '<div class="atlas-chart atlas-chart-home" data-chart-id="home-efficiency" role="img" '
        'aria-label="Scatter chart: CPU cores requested per 1K of load against load per site, one point per scenario. The table below holds the same data."></div>',
        f'<script type="application/json" id="home-efficiency">{json_for_html(spec(pts))}</script>',
        '<figcaption id="atlas-efficiency-caption" class="atlas-note">CPU cores requested per 1K of load at one site carrying traffic '
        '(application, sidecars and cnDBTier), for every scenario with resource data; lower is leaner. Colour is the product, shape '
        'whether the Istio service mesh (ASM) ran (every shape filled); a hollow point with a dashed outline is a partial scenario '
        'whose figure is a lower bound (services the source does not give usably are named on its page); select a point to open '
        'its scenario.'
        + (f' Not plotted (no resource tables in the source): {esc(", ".join(without))}.' if without else "") + '</figcaption>',
        '</figure>',
        yours_control("home-efficiency", renderer.bundle.get("build_id") or "", "home", ""),
        '<details class="atlas-chart-data"><summary>The chart as a table</summary>',
        efficiency_table(renderer),
        view_links(renderer, ("views", "home", "efficiency"), ""),
        '</details>',
    ])


def products_table_html(renderer) -> str:
    """Products at a glance as a table: scenario counts, load ranges, tables and errata per document."""
    rows = []
    for doc in renderer.atlas.docs():
        src = renderer.atlas.source(doc)
        scen = [s for s in renderer.atlas.scenarios if s["doc"] == doc]
        loads = [s["load"]["per_site"] for s in scen if s["load"].get("per_site") is not None]
        rng = (f"{fmt(min(loads))} to {fmt(max(loads))} {src['load_unit']}" if loads and min(loads) != max(loads)
               else f"{fmt(loads[0])} {src['load_unit']}" if loads else "not stated")
        ntab = sum(1 for t in renderer.atlas.tables if t["doc"] == doc)
        nerr = sum(1 for e in renderer.atlas.errata if e["doc"] == doc)
        rows.append(f'<tr><td><a href="products/{esc(doc)}/">{esc(src["product"])}</a></td><td>{len(scen)}</td>'
                    f'<td>{esc(rng)}</td><td>{ntab}</td><td>{nerr}</td><td>{esc(src["release"])}</td></tr>')
    return ('<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="products"><thead><tr><th>Product</th>'
            '<th>Scenarios</th><th>Load per site</th><th>Tables</th><th>Errata</th><th>Release</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table></div>")


def products_table(renderer) -> str:
    """Products at a glance (``{{ home_page() }}``): the table (``products_table_html``) and its download as shown."""
    return products_table_html(renderer) + "\n" + view_links(renderer, ("views", "home", "products"), "")
