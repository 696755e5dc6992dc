"""Your deployment on the site's own charts: the home chart and each service page's chart carry, in their Vega-Lite
spec's ``usermeta``, how a reader's own deployment is drawn on them (``layer``), and beside the chart an
"Add my deployment..." file control (``control``). The reader's file is the one the Your deployment page's
"Export inputs" writes: its ``points`` (``calculators.deployment.own_points``) hold the x and y of each point computed
by the same Python that computes that page, with the build's id (bundle key ``build_id``).
docs/assets/js/charts.js reads the file in the browser, checks it is such a file, of this build, with a point for
this chart, and draws the points as a layer over the chart's own: it computes nothing. Nothing of the file goes into
the address, the browser's storage or any request.
"""
from __future__ import annotations

from ..html import esc

STAR = ("M0,-1L0.2245,-0.309L0.9511,-0.309L0.3633,0.118L0.5878,0.809L0,0.382L-0.5878,0.809L-0.3633,0.118"
        "L-0.9511,-0.309L-0.2245,-0.309Z")
"""A five-pointed star as a Vega symbol path (unit radius): the shape of your points, which no vendor run uses (the
home chart's shapes are circle, square, diamond, triangle and cross; the service charts' circle, diamond, triangle)."""
DATASET = "yours"
"""The name of the layer's data: charts.js fills it with the file's points."""


def layer(x: str, y: str, tooltip: list[dict]) -> dict:
    """The Vega-Lite layer that draws your points on a chart whose x and y are fields ``x`` and ``y``: a large star in
    the page's foreground colour (``black`` fill and outline, which charts.js repaints for the dark palette), hollow when ``counted`` is
    not 'complete' (a lower bound, as a hollow point means on the home chart), and the point's ``label`` ('yours')
    written beside it, so it is told apart by shape and words, not colour alone. Data: the named dataset ``yours``."""
    enc = {"x": {"field": x, "type": "quantitative"}, "y": {"field": y, "type": "quantitative"}}
    return {"data": {"name": DATASET}, "layer": [
        {"mark": {"type": "point", "shape": STAR, "size": 420, "filled": True, "color": "black", "stroke": "black",
                  "strokeWidth": 2,
                  "tooltip": True},
         "encoding": {**enc, "fillOpacity": {"condition": {"test": "datum.counted === 'partial: at least'", "value": 0},
                                             "value": 1},
                      "tooltip": tooltip}},
        {"mark": {"type": "text", "align": "left", "baseline": "bottom", "dx": 9, "dy": -7, "fontWeight": "bold",
                  "fontSize": 13, "color": "black"},
         "encoding": {**enc, "text": {"field": "label"}}}]}


def control(chart_id: str, build_id: str, kind: str, root: str, service: str = "", title: str = "") -> str:
    """The "Add my deployment..." control beside chart ``chart_id`` (hidden until charts.js runs): a file input, a
    status line (role=status) and a "Remove" button. ``kind``: 'home' (the file's ``home`` point) or 'service' (its
    ``services`` points whose ``page`` is ``service``, the page's slug; ``title``: the page's name for messages);
    ``build_id``: the bundle's ``build_id``, which the file's must equal; ``root``: the path from the page to the site
    root (the Your deployment page's link)."""
    what = "the home chart" if kind == "home" else f"the chart of {title}"
    return (f'<div class="atlas-yours" data-yours-for="{esc(chart_id)}" data-yours-kind="{esc(kind)}" '
            f'data-yours-service="{esc(service)}" data-yours-title="{esc(title)}" data-build="{esc(build_id)}" hidden>'
            f'<label class="atlas-inline">Add my deployment… <input type="file" class="atlas-yours-file" '
            f'accept=".json,application/json" aria-describedby="{esc(chart_id)}-yours-help"></label> '
            f'<button type="button" class="md-button atlas-yours-remove" hidden>Remove mine</button> '
            f'<span class="atlas-yours-status" role="status" aria-live="polite"></span>'
            f'<span class="atlas-note" id="{esc(chart_id)}-yours-help"> The file <a href="{esc(root)}calculators/deployment/">Your '
            f'deployment</a>\'s <strong>Export inputs</strong> writes: its points are drawn on {esc(what)} as a star '
            'labelled “yours”. It is read in this browser; nothing is uploaded or kept.</span></div>')
