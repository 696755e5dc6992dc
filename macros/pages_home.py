"""Home page overview chart: CPU cores requested per 1K of load for every scenario
with resource data (Renderer.efficiency), coloured by product, shaped by ASM, each
point linking to its scenario page. The data is also rendered as a table, so the
page says the same without JavaScript.

post_build publishes vega-interpreter as a classic script (the package ships only
an ES module importing the bare specifier 'vega-util'), so charts draw without
eval under a strict Content-Security-Policy.
"""
from __future__ import annotations

import re
from pathlib import Path

from calculators.text import fmt

from .render import esc, json_for_html, partial_mark

ROOT = Path(__file__).resolve().parent.parent
INTERPRETER = ROOT / "node_modules" / "vega-interpreter" / "build" / "vega-interpreter.js"
ASM_LABEL = {"enabled": "ASM on", "disabled": "ASM off", "partial": "ASM partial", "unknown": "ASM not stated",
             "not_applicable": "no ASM (not applicable)"}
ASM_SHAPE = {"ASM on": "circle", "ASM off": "square", "ASM partial": "diamond", "ASM not stated": "triangle-up",
             "no ASM (not applicable)": "cross"}


def efficiency_points(r) -> list[dict]:
    names = {s["id"]: s["short_name"] for s in r.bundle["sources"]}
    pts = []
    for s in r.a.scenarios:
        e = r.efficiency(s["id"])
        if e is None:
            continue
        load = s["load"]
        pts.append({"scenario": f'{names.get(s["doc"], s["doc"])} {s["section"]}: {s.get("short_title") or s["title"]}',
                    "id": s["id"], "product": names.get(s["doc"], s["doc"]), "asm": ASM_LABEL.get(s["asm"], s["asm"]),
                    "load": float(load["per_site"]), "unit": load["unit"], "efficiency": round(e, 2),
                    "partial": r.completeness(s["id"])["partial"],
                    "counted": "partial: at least this (services missing)" if r.completeness(s["id"])["partial"] else "complete",
                    "url": f'products/{s["doc"]}/{s["id"]}/'})
    return pts


def spec(points: list[dict]) -> dict:
    asm = [a for a in ASM_SHAPE if any(p["asm"] == a for p in points)]
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": "CPU cores requested per 1K of load for every scenario with resource data; each point links to its scenario.",
        "width": "container", "height": 320, "autosize": {"type": "fit", "contains": "padding"},
        "data": {"values": points},
        "mark": {"type": "point", "filled": False, "strokeWidth": 2, "size": 90, "opacity": 0.85, "tooltip": True, "cursor": "pointer"},
        "encoding": {
            "x": {"field": "load", "type": "quantitative", "scale": {"type": "log"}, "title": "Load per site (log scale)",
                  "axis": {"labelFlush": True, "tickCount": 5, "format": "~s"}},
            "y": {"field": "efficiency", "type": "quantitative", "title": "CPU cores requested per 1K of load"},
            "color": {"field": "product", "type": "nominal", "title": "Product", "legend": {"orient": "bottom", "direction": "horizontal"}},
            # a partial scenario (services the source does not give usably) is drawn hollow: its figure is a lower bound
            "fill": {"condition": {"test": "datum.partial", "value": "transparent"}, "field": "product", "type": "nominal", "legend": None},
            "shape": {"field": "asm", "type": "nominal", "title": "ASM", "scale": {"domain": asm, "range": [ASM_SHAPE[a] for a in asm]},
                      "legend": {"orient": "bottom", "direction": "horizontal", "columns": 2}},
            "href": {"field": "url", "type": "nominal"},
            "tooltip": [{"field": "scenario", "title": "Scenario"}, {"field": "asm", "title": "ASM"},
                        {"field": "load", "title": "Load per site", "format": ","}, {"field": "unit", "title": "Unit"},
                        {"field": "efficiency", "title": "Cores per 1K"}, {"field": "counted", "title": "Services counted"}],
        },
    }


def home_chart(r) -> str:
    pts = efficiency_points(r)
    if not pts:
        return ""
    without = sorted({r.a.source(s["doc"])["short_name"] for s in r.a.scenarios if r.efficiency(s["id"]) is None})
    rows = "".join(
        f'<tr><td><a href="{esc(p["url"])}">{esc(p["scenario"])}</a></td><td>{esc(p["product"])}</td><td>{esc(p["asm"])}</td>'
        f'<td>{esc(fmt(p["load"]))} {esc(p["unit"])}</td><td>{partial_mark(p["partial"])}{esc(fmt(p["efficiency"]))}</td></tr>' for p in pts)
    return "\n".join([
        '<figure class="atlas-figure" aria-labelledby="atlas-efficiency-caption">',
        '<div class="atlas-chart atlas-chart-home" data-chart-id="home-efficiency" role="img" '
        'aria-label="Scatter chart: CPU cores requested per 1K of load against load per site, one point per scenario. The table below holds the same data."></div>',
        f'<script type="application/json" id="home-efficiency">{json_for_html(spec(pts))}</script>',
        '<figcaption id="atlas-efficiency-caption" class="atlas-note">CPU cores requested per 1K of load at one site carrying traffic '
        '(application, sidecars and cnDBTier), for every scenario with resource data; lower is leaner. Colour is the product, shape '
        'whether the Istio service mesh (ASM) ran; a hollow point is a partial scenario whose figure is a lower bound '
        '(services the source does not give usably are named on its page); select a point to open its scenario.'
        + (f' Not plotted (no resource tables in the source): {esc(", ".join(without))}.' if without else "") + '</figcaption>',
        '</figure>',
        '<details class="atlas-chart-data"><summary>The chart as a table</summary>',
        '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="efficiency"><thead><tr><th>Scenario</th><th>Product</th>'
        '<th>ASM</th><th>Load per site</th><th>CPU cores per 1K of load</th></tr></thead><tbody>' + rows + '</tbody></table></div>',
        '</details>',
    ])


def macros(r) -> dict:
    return {"home_chart": lambda: home_chart(r)}


def interpreter_script(source: str) -> str:
    """vega-interpreter's ES module as a classic script: the 'vega-util' import is read
    from the global ``vega`` (vega.min.js re-exports vega-util), the export becomes
    ``window.vegaInterpreter``."""
    imp = re.search(r"^import \{([^}]*)\} from 'vega-util';\s*$", source, re.M)
    exp = re.search(r"^export \{ expression as expressionInterpreter \};\s*$", source, re.M)
    if not imp or not exp or source.count("import ") != 1:
        raise RuntimeError("vega-interpreter's module layout changed: update macros/pages_home.py interpreter_script")
    names = [n.strip() for n in imp.group(1).split(",") if n.strip()]
    head = "".join(f"var {n} = vega.{n};\n" for n in names)
    body = source[:imp.start()] + source[imp.end():exp.start()] + source[exp.end():]
    return ("/* vega-interpreter (BSD-3-Clause), rewritten at build time as a classic script. */\n(function (vega) {\n'use strict';\n"
            + head + body + "\nwindow.vegaInterpreter = { expressionInterpreter: expression };\n})(window.vega);\n")


def post_build(config, r, site_dir: Path) -> None:
    dest = Path(site_dir) / "assets" / "vendor" / "vega"
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "vega-interpreter.js").write_text(interpreter_script(INTERPRETER.read_text(encoding="utf-8")), encoding="utf-8")
