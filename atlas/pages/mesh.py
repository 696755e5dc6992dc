"""What the service mesh costs across products (docs/tools/mesh.md, ``{{ mesh_page() }}``): the sidecar share of requested
and of observed CPU for every run with ASM, and, like for like, each ASM-on run against the ASM-off runs of the same call
model and deployment mode.

Every figure is the ASM calculator's (``calculators.asm.overhead``), which counts the sidecars' requests with the one
count the product tables and the footprint use (``calculators.sidecars.sidecar_requests``: one site carrying traffic,
replicas x per-container request, a replica range at its max end) and reads the observed share at the first site
carrying traffic (sidecar use over the use of every container with a reading). A run with a resource row flagged by an
erratum or printed without a value (``calculators.partial.exclusions``) is partial: its share over every row would mix
sidecars whose application rows are missing, so the share shown is the one over the services whose rows are all usable,
named as such, and its totals are lower bounds. A run with ASM on whose tables print no sidecar is listed with its cost
unknown, never 0.

Like for like: two runs are compared only when they share the curated call model (``call_model``, the id the
footprint's comparable runs share) and the deployment mode; the difference is per 1K of load (each run's load per site),
and the printed call mix, load and sites of the two are shown beside it, since the runs differ in more than ASM.
"""
from __future__ import annotations

import io

from calculators import asm
from calculators.formatting import csv_writer, fmt, tidy_number

from ..html import esc, json_for_html
from ..downloads import built
from .views import facet_bar, shown_link

TABLE = "mesh-runs"
"""The per-run table's ``data-atlas-table`` key."""
PAIRS = "mesh-pairs"
"""The like-for-like table's key."""
VIEW = ("views", "mesh", "runs")
"""Keys of the two tables' "as shown" CSVs in ``atlas.pages.shown.shown_tables``."""
PAIRS_VIEW = ("views", "mesh", "pairs")
TIDY = "views/mesh/runs-tidy.csv"
"""The per-run tidy download under downloads/."""
NOT_STATED = "not stated"
HEAD = ["Run", "Product", "Call model", "Mode", "Load per site", "Sidecar CPU requested (cores)", "All CPU requested (cores)",
        "Sidecar share of requested CPU", "Sidecar CPU requested per 1K load (cores)", "Observed sidecar share of CPU",
        "Sidecar CPU used per 1K load (cores)", "Like-for-like ASM-off runs", "Rows not used"]
PAIR_HEAD = ["Call model and mode", "ASM on", "ASM off", "CPU requested per 1K, on (cores)", "CPU requested per 1K, off (cores)",
             "On − off per 1K (cores)", "Sidecar CPU per 1K, on (cores)", "Also differs (call mix, load, sites)"]
FACETS = (("product", "Product"), ("call_model", "Call model"))
FACET_COLS = {"product": 1, "call_model": 2}


def _scenario(bundle: dict, sid: str) -> dict:
    return next(s for s in bundle["scenarios"] if s["id"] == sid)


def _group(s: dict) -> tuple:
    """The like-for-like key of a scenario record: (doc, call model id, deployment mode); None parts never match."""
    return (s["doc"], s.get("call_model"), (s.get("deployment_mode") or "").strip().lower())


def mesh_runs(renderer) -> dict:
    """The page's model, computed once per Renderer: ``{"runs": [row per ASM-on run with sidecar rows, in data order],
    "unknown": [row per ASM-on run whose tables print no sidecar], "pairs": [like-for-like pair]}``.

    A run row: ``scenario``, ``doc``, ``section``, ``product``, ``call_model`` (id or None), ``call_model_name`` (or
    NOT_STATED), ``mode``, ``load`` (per site), ``unit``, ``overhead`` (``calculators.asm.overhead``), ``off`` (the
    like-for-like ASM-off scenario ids: ``calculators.asm.asm_off_ids`` of the same call model and mode). A pair:
    ``on``, ``off`` (run rows; the off row's ``overhead`` too), ``diff_per_1k`` (CPU requested per 1K, on - off, cores;
    None when a side has none) and ``differences`` (``calculators.asm.differences``: call mix, sites, release, load...)."""
    cached = getattr(renderer, "_mesh_model", None)
    if cached is not None:
        return cached
    b = renderer.bundle
    names = {s["id"]: s["short_name"] for s in b["sources"]}

    def row(sid: str) -> dict:
        s = _scenario(b, sid)
        return {"scenario": sid, "doc": s["doc"], "section": s.get("section") or "", "product": names.get(s["doc"], s["doc"]),
                "call_model": s.get("call_model"), "call_model_name": s.get("call_model_name") or NOT_STATED,
                "mode": s.get("deployment_mode") or NOT_STATED, "load": s.get("load_per_site"), "unit": s.get("load_unit") or "",
                "overhead": asm.overhead(b, sid), "group": _group(s)}
    offs = [row(sid) for sid in asm.asm_off_ids(b)]
    runs_ = []
    for sid in asm.asm_on_ids(b):
        x = row(sid)
        x["off"] = [o["scenario"] for o in offs if o["group"] == x["group"] and x["call_model"]]
        runs_.append(x)
    unknown = []
    for sid in asm.asm_without_sidecars(b):
        x = row(sid)
        x["off"] = [o["scenario"] for o in offs if o["group"] == x["group"] and x["call_model"]]
        unknown.append(x)
    pairs = []
    by_id = {o["scenario"]: o for o in offs}
    for x in runs_:
        for oid in x["off"]:
            o = by_id[oid]
            a, c = x["overhead"]["cpu_total_per_1k"], o["overhead"]["cpu_total_per_1k"]
            pairs.append({"on": x, "off": o, "diff_per_1k": None if a is None or c is None else a - c,
                          "differences": [d for d in asm.differences(b, x["scenario"], oid) if d["differs"] and d["what"] != "ASM"]})
    renderer._mesh_model = {"runs": runs_, "unknown": unknown, "pairs": pairs}
    return renderer._mesh_model


def _pct(v) -> str:
    return "" if v is None else f"{fmt(round(v, 1))} %"


def share_text(o: dict) -> str:
    """The sidecar share of requested CPU of overhead ``o`` as the page writes it: "35.6 %", or for a partial run
    "partial: 30.4 % over 20 of 28 services with every row"."""
    if not o["partial"]:
        return _pct(o["cpu_share"])
    return f'partial: {_pct(o["cpu_share_complete"])} over {o["complete_services"]} of {o["services_total"]} services with every row'


def observed_text(o: dict) -> str:
    """The observed sidecar share of CPU of overhead ``o``: "32.8 % (site1)", "(partial)" added when a reading at that
    site is excluded, or "not measured"."""
    c = o["observed"].get("cpu")
    if not c:
        return "not measured"
    return f'{_pct(c["share"])} ({c["site"]})' + (" (partial: " + "; ".join(c["partial"]) + " not used)" if c.get("partial") else "")


def _observed_per_1k(o: dict):
    c = o["observed"].get("cpu") or {}
    return c.get("sidecar_per_1k") if c.get("unit") == "cores" else None


def _least(o: dict, sidecars: bool) -> str:
    """'at least ' before a figure of a partial run (``sidecars``: the figure counts sidecar rows only)."""
    p = o["partial"]
    if not p or (sidecars and not p["sidecar_rows"]):
        return ""
    return '<abbr class="atlas-flag atlas-at-least" title="at least: rows not used (last column)">≥&#8239;</abbr>'


def table_html(renderer, root: str = "../../") -> str:
    """The per-run table (``data-atlas-table`` TABLE, columns HEAD) with its chips: one row per ASM-on run, then one per
    ASM-on run with no sidecar printed (its cost unknown)."""
    m = mesh_runs(renderer)
    body, facets = [], []
    for x in m["runs"]:
        o = x["overhead"]
        facets.append({"product": x["product"], "call_model": x["call_model_name"]})
        offs = ", ".join(f'<a href="{esc(root)}products/{esc(x["doc"])}/{esc(s)}/">{esc(_scenario(renderer.bundle, s)["section"])}</a>'
                         for s in x["off"]) or '<span class="atlas-missing">none</span>'
        per1k_obs = _observed_per_1k(o)
        body.append(f'<tr data-scenario="{esc(x["scenario"])}"><td><a href="{esc(root)}products/{esc(x["doc"])}/{esc(x["scenario"])}/">'
                    f'{esc(x["section"])}</a></td><td>{esc(x["product"])}</td><td>{esc(x["call_model_name"])}</td><td>{esc(x["mode"])}</td>'
                    f'<td>{esc(fmt(x["load"]))} {esc(x["unit"])}</td><td>{_least(o, True)}{esc(fmt(round(o["cpu_sidecar"], 3)))}</td>'
                    f'<td>{_least(o, False)}{esc(fmt(round(o["cpu_total"], 3)))}</td><td>{esc(share_text(o))}</td>'
                    f'<td>{_least(o, True)}{esc(fmt(round(o["cpu_sidecar_per_1k"], 3))) if o["cpu_sidecar_per_1k"] is not None else ""}</td>'
                    f'<td>{esc(observed_text(o))}</td>'
                    f'<td>{esc(fmt(round(per1k_obs, 3))) if per1k_obs is not None else "not measured in cores"}</td>'
                    f'<td>{offs}</td><td>{esc(o["partial"]["text"]) if o["partial"] else "none"}</td></tr>')
    for x in m["unknown"]:
        facets.append({"product": x["product"], "call_model": x["call_model_name"]})
        body.append(f'<tr data-scenario="{esc(x["scenario"])}" data-no-sidecars><td><a href="{esc(root)}products/{esc(x["doc"])}/'
                    f'{esc(x["scenario"])}/">{esc(x["section"])}</a></td><td>{esc(x["product"])}</td><td>{esc(x["call_model_name"])}</td>'
                    f'<td>{esc(x["mode"])}</td><td>{esc(fmt(x["load"]))} {esc(x["unit"])}</td>'
                    '<td><span class="atlas-missing">unknown</span></td><td></td><td><span class="atlas-missing">unknown: ASM is on, '
                    'but the resource tables print no sidecar (not 0)</span></td><td></td><td></td><td></td><td></td>'
                    '<td>no sidecar row printed</td></tr>')
    bar = facet_bar(TABLE, list(FACETS), facets, cols=FACET_COLS)
    return (bar + f'<div class="atlas-table-wrap"><table class="atlas-data atlas-mesh" data-atlas-table="{TABLE}"><thead><tr>'
            + "".join(f"<th>{esc(h)}</th>" for h in HEAD) + "</tr></thead><tbody>" + "".join(body) + "</tbody></table></div>")


def _difference_text(d: dict) -> str:
    return f'{d["what"]}: {d["on"] if d["on"] not in (None, "") else NOT_STATED} against {d["off"] if d["off"] not in (None, "") else NOT_STATED}'


def diff_text(p: dict) -> str:
    """On - off of pair ``p`` as the page writes it: the figure; "at least" it when only the ASM-on side is partial (its
    figure a lower bound, the difference one too), "at most" when only the ASM-off side is; with both sides partial,
    "not known" and why."""
    if p["diff_per_1k"] is None:
        return ""
    on, off = bool(p["on"]["overhead"]["partial"]), bool(p["off"]["overhead"]["partial"])
    d = fmt(round(p["diff_per_1k"], 3))
    if on and off:
        return "not known: both runs are partial (their figures lower bounds)"
    return f"at least {d}" if on else f"at most {d}" if off else d


def pairs_html(renderer, root: str = "../../") -> str:
    """The like-for-like table (``data-atlas-table`` PAIRS, columns PAIR_HEAD): one row per ASM-on run and ASM-off run of
    the same call model and deployment mode, CPU requested per 1K of load on each side and on - off; '' without pairs."""
    m = mesh_runs(renderer)
    if not m["pairs"]:
        return ""
    body = []
    for p in m["pairs"]:
        a, c = p["on"], p["off"]
        oa, oc = a["overhead"], c["overhead"]
        least_a = "at least " if oa["partial"] else ""
        least_c = "at least " if oc["partial"] else ""
        diff = diff_text(p)
        body.append(f'<tr data-on="{esc(a["scenario"])}" data-off="{esc(c["scenario"])}"><td>{esc(a["product"])} {esc(a["call_model_name"])}, '
                    f'{esc(a["mode"])}</td><td><a href="{esc(root)}products/{esc(a["doc"])}/{esc(a["scenario"])}/">{esc(a["section"])}</a></td>'
                    f'<td><a href="{esc(root)}products/{esc(c["doc"])}/{esc(c["scenario"])}/">{esc(c["section"])}</a></td>'
                    f'<td>{least_a}{esc(fmt(round(oa["cpu_total_per_1k"], 3)))}</td><td>{least_c}{esc(fmt(round(oc["cpu_total_per_1k"], 3)))}</td>'
                    f'<td>{esc(diff)}</td><td>{"at least " if oa["partial"] and oa["partial"]["sidecar_rows"] else ""}'
                    f'{esc(fmt(round(oa["cpu_sidecar_per_1k"], 3)))}</td>'
                    f'<td>{esc("; ".join(_difference_text(d) for d in p["differences"]) or "nothing else")}</td></tr>')
    return (f'<div class="atlas-table-wrap"><table class="atlas-data atlas-mesh-pairs" data-atlas-table="{PAIRS}"><thead><tr>'
            + "".join(f"<th>{esc(h)}</th>" for h in PAIR_HEAD) + "</tr></thead><tbody>" + "".join(body) + "</tbody></table></div>")


TIDY_COLUMNS = ["doc", "scenario", "section", "product", "call_model_id", "call_model_name", "deployment_mode", "load_per_site",
                "load_unit", "sidecars_printed", "cpu_sidecar_cores", "cpu_total_cores", "cpu_sidecar_share_percent",
                "cpu_sidecar_share_complete_services_percent", "complete_services", "services_total", "cpu_sidecar_per_1k_cores",
                "cpu_total_per_1k_cores", "observed_cpu_sidecar_share_percent", "observed_site", "observed_cpu_sidecar_per_1k_cores",
                "partial", "rows_not_used", "asm_off_like_for_like"]
"""Columns of the tidy download: one line per ASM-on run, figures unrounded."""


def tidy_csv(renderer) -> bytes:
    """The per-run tidy download (TIDY), TIDY_COLUMNS, one line per ASM-on run then per run with no sidecar printed."""
    m = mesh_runs(renderer)
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(TIDY_COLUMNS)
    for x in m["runs"]:
        o = x["overhead"]
        c = o["observed"].get("cpu") or {}
        w.writerow([x["doc"], x["scenario"], x["section"], x["product"], x["call_model"] or "", x["call_model_name"], x["mode"],
                    tidy_number(x["load"]), x["unit"], "true", tidy_number(o["cpu_sidecar"]), tidy_number(o["cpu_total"]), tidy_number(o["cpu_share"]),
                    tidy_number(o["cpu_share_complete"]), o["complete_services"], o["services_total"], tidy_number(o["cpu_sidecar_per_1k"]),
                    tidy_number(o["cpu_total_per_1k"]), tidy_number(c.get("share")), c.get("site", ""), tidy_number(_observed_per_1k(o)),
                    "true" if o["partial"] else "false", o["partial"]["text"] if o["partial"] else "", " ".join(x["off"])])
    for x in m["unknown"]:
        w.writerow([x["doc"], x["scenario"], x["section"], x["product"], x["call_model"] or "", x["call_model_name"], x["mode"],
                    tidy_number(x["load"]), x["unit"], "false"] + [""] * 11 + ["", "ASM enabled, but no sidecar rows are printed: "
                                                                          "sidecar cost unknown (not 0)", " ".join(x["off"])])
    return buf.getvalue().encode("utf-8")


def chart_spec(renderer, root: str = "../../") -> dict:
    """Vega-Lite spec: per ASM-on run, the sidecar share of requested CPU as a bar (a partial run's share over its
    complete services, drawn pale and named so) and the observed share as a tick where measured; coloured by call model;
    each bar links to its run."""
    values = []
    for x in mesh_runs(renderer)["runs"]:
        o = x["overhead"]
        share = o["cpu_share"] if not o["partial"] else o["cpu_share_complete"]
        if share is None:
            continue
        obs = (o["observed"].get("cpu") or {}).get("share")
        values.append({"run": f'{x["product"]} {x["section"]}', "call_model": x["call_model_name"],
                       "requested": round(share, 2), "observed": None if obs is None else round(obs, 2),
                       "counted": "partial: complete services only" if o["partial"] else "every row counted",
                       "load": f'{fmt(x["load"])} {x["unit"]}', "url": f'{root}products/{x["doc"]}/{x["scenario"]}/'})
    order = [v["run"] for v in values]
    y = {"field": "run", "type": "nominal", "title": None, "sort": order}
    tip = [{"field": "run", "title": "Run"}, {"field": "call_model", "title": "Call model"}, {"field": "load", "title": "Load per site"},
           {"field": "requested", "title": "Sidecar share of requested CPU (%)"}, {"field": "observed", "title": "Observed sidecar share of CPU (%)"},
           {"field": "counted", "title": "Requested share"}]
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": "Sidecar share of requested CPU per ASM-on run (bar) and of observed CPU (tick); bars link to their run.",
        "width": "container", "height": {"step": 22},
        "data": {"values": values},
        "layer": [
            {"mark": {"type": "bar", "tooltip": True, "cursor": "pointer", "strokeWidth": 1.5},
             "encoding": {"y": y, "x": {"field": "requested", "type": "quantitative", "title": ["Sidecar share of CPU (%):", "requested bar, observed tick"]},
                          "color": {"field": "call_model", "type": "nominal", "title": "Call model",
                                    "legend": {"orient": "bottom", "direction": "vertical"}},
                          "stroke": {"field": "call_model", "type": "nominal", "legend": None},
                          "fillOpacity": {"field": "counted", "type": "nominal", "legend": None,
                                          "scale": {"domain": ["every row counted", "partial: complete services only"], "range": [0.85, 0.15]}},
                          "href": {"field": "url", "type": "nominal"}, "tooltip": tip}},
            {"mark": {"type": "tick", "color": "black", "thickness": 2, "tooltip": True},
             "transform": [{"filter": "datum.observed != null"}],
             "encoding": {"y": y, "x": {"field": "observed", "type": "quantitative"}, "href": {"field": "url", "type": "nominal"},
                          "tooltip": tip}},
        ],
    }


def mesh_page(renderer) -> str:
    """The body of the mesh page (``{{ mesh_page() }}``): the chart, the per-run table and the like-for-like table, each
    with its downloads."""
    m = mesh_runs(renderer)
    if not m["runs"] and not m["unknown"]:
        return '<p class="atlas-missing">No curated run has the service mesh (ASM) on.</p>'
    b = built(renderer)
    spec = chart_spec(renderer)
    partial = sum(1 for x in m["runs"] if x["overhead"]["partial"])
    out = ['<figure class="atlas-figure">',
           '<div class="atlas-chart atlas-chart-mesh" data-chart-id="mesh-chart" role="img" aria-label="Bar chart: the sidecar share '
           'of requested CPU per run with ASM, a tick at the observed share; the table below holds the same data."></div>',
           f'<script type="application/json" id="mesh-chart">{json_for_html(spec)}</script>',
           '<figcaption class="atlas-note">Bar: the sidecars\' share of the CPU requested at one site carrying traffic; tick: their '
           'share of the CPU observed at the first site carrying traffic, where the run measured the sidecars. Colour is the call '
           f'model. A pale bar is a partial run ({partial} of {len(m["runs"])}): its share is over the services whose rows are all '
           'usable. Select a bar to open its run.</figcaption>', '</figure>', "",
           "## Every run with ASM", "",
           table_html(renderer),
           '<p class="atlas-download">Download: ' + shown_link(f"../../downloads/{b.shown[VIEW]}", TABLE)
           + f' · <a class="atlas-download-tidy" href="../../downloads/{TIDY}" download>CSV (tidy: figures unrounded)</a></p>', ""]
    pairs = pairs_html(renderer)
    out += ["## Like for like: ASM on against ASM off", ""]
    if pairs:
        groups = {(p["on"]["product"], p["on"]["call_model_name"], p["on"]["mode"]) for p in m["pairs"]}
        without = sorted({f'{x["product"]} {x["call_model_name"]} ({x["mode"]})' for x in m["runs"] + m["unknown"] if not x["off"]})
        out += [f'<p class="atlas-note">{len(m["pairs"])} pairs in {len(groups)} call models: each ASM-on run against each ASM-off '
                'run of the same curated call model and deployment mode, CPU requested per 1K of load at one site carrying traffic. '
                'The runs differ in more than ASM (last column), so the difference is what these two benchmarks show, not a '
                'controlled measurement of the mesh. Where the ASM-on run is partial its figure is a lower bound, and so is the '
                'difference ("at least"); where the ASM-off run is, the difference is an upper bound ("at most").'
                + (f' No ASM-off run to compare with: {esc("; ".join(without))}.' if without else "") + "</p>",
                pairs, '<p class="atlas-download">Download: ' + shown_link(f"../../downloads/{b.shown[PAIRS_VIEW]}", PAIRS) + "</p>"]
    else:
        out.append('<p class="atlas-missing">No ASM-on run has an ASM-off run of the same call model and deployment mode.</p>')
    return "\n".join(out)
