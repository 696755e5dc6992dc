"""Render a footprint result as HTML, CSV, a Helm-values YAML fragment and a
Vega-Lite chart spec. Standard library only; every text is HTML-escaped, so
names from data or user input can never become markup."""
from __future__ import annotations

import csv
import io
import re

from . import footprint, web
from .text import csv_writer, escape, fmt

COLUMNS = [
    ("component", "Component"), ("service", "Service"), ("container", "Container"), ("rule", "Rule"),
    ("replicas_before", "Replicas (baseline)"), ("replicas_after", "Replicas (target)"),
    ("cpu_request", "CPU request per pod (cores)"), ("cpu_limit", "CPU limit per pod (cores)"),
    ("mem_request", "Memory request per pod (GiB)"), ("mem_limit", "Memory limit per pod (GiB)"),
    ("cpu_request_after", "CPU request total (cores)"), ("mem_request_after", "Memory request total (GiB)"),
    ("table_id", "Source table"),
]


def result_html(res: dict) -> str:
    """The result as an HTML fragment: summary, totals table, per-row table."""
    b, i, t = res["baseline"], res["inputs"], res["totals"]
    unit = escape(i["unit"])
    parts = [f'<div class="atlas-result" data-scenario="{escape(b["id"])}">']
    parts.append(
        f'<p class="atlas-summary">Baseline <strong>{escape(b["short_title"])}</strong> ({escape(b["id"])}) at '
        f'{fmt(b["load_per_site"])} {unit} per site, scaled to <strong>{fmt(res["per_site_load"])} {unit} per site</strong> '
        f'on {fmt(i["sites"])} site(s){" sized for the failover of one site" if i["failover"] else ""} '
        f'(x{res["scale_factor"]:.4g}); total target {fmt(i["target_load"])} {unit}.</p>')
    if res["warnings"]:
        parts.append('<ul class="atlas-warnings">' + "".join(f"<li>{escape(w)}</li>" for w in res["warnings"]) + "</ul>")
    parts.append('<table class="atlas-totals"><thead><tr><th>Group</th><th>Replicas (baseline)</th><th>Replicas (target)</th>'
                 '<th>CPU request (cores), baseline site</th><th>CPU request (cores), target site</th>'
                 '<th>CPU limit (cores), target site</th><th>Memory request (GiB), baseline site</th>'
                 '<th>Memory request (GiB), target site</th><th>Memory limit (GiB), target site</th></tr></thead><tbody>')
    for g, v in t["groups"].items():
        if not any(v["before"].values()) and not any(v["after"].values()):
            continue
        parts.append(f'<tr><td>{escape(g)}</td><td>{fmt(v["replicas_before"]) if g != "sidecars" else "—"}</td>'
                     f'<td>{fmt(v["replicas_after"]) if g != "sidecars" else "—"}</td>'
                     f'<td>{fmt(v["before"]["cpu_request"])}</td><td>{fmt(v["after"]["cpu_request"])}</td>'
                     f'<td>{fmt(v["after"]["cpu_limit"])}</td><td>{fmt(v["before"]["mem_request"])}</td>'
                     f'<td>{fmt(v["after"]["mem_request"])}</td><td>{fmt(v["after"]["mem_limit"])}</td></tr>')
    s = t["site"]
    parts.append(f'<tr class="atlas-total-row"><th>Per site</th><td></td><td></td><td>{fmt(s["before"]["cpu_request"])}</td>'
                 f'<td>{fmt(s["after"]["cpu_request"])}</td><td>{fmt(s["after"]["cpu_limit"])}</td>'
                 f'<td>{fmt(s["before"]["mem_request"])}</td><td>{fmt(s["after"]["mem_request"])}</td><td>{fmt(s["after"]["mem_limit"])}</td></tr>')
    d = t["deployment"]
    parts.append(f'<tr class="atlas-total-row"><th>All {fmt(t["sites"])} site(s)</th><td></td><td></td><td></td>'
                 f'<td>{fmt(d["cpu_request"])}</td><td>{fmt(d["cpu_limit"])}</td><td></td>'
                 f'<td>{fmt(d["mem_request"])}</td><td>{fmt(d["mem_limit"])}</td></tr></tbody></table>')
    if res.get("nodes_per_site") is not None:
        parts.append(f'<p class="atlas-nodes">Worker nodes per site for the requests: <strong>{fmt(res["nodes_per_site"])}</strong> '
                     f'of {fmt(i["node_cores"])} cores / {fmt(i["node_mem_gib"])} GiB (no allowance for system reserve or packing loss).</p>')
    parts.append('<div class="atlas-table-wrap"><table class="atlas-rows"><thead><tr>'
                 + "".join(f"<th>{escape(h)}</th>" for _, h in COLUMNS) + "</tr></thead><tbody>")
    for r in res["rows"]:
        cells = []
        for k, _ in COLUMNS:
            v = r.get(k)
            if k == "rule":
                cells.append(f'<td title="{escape(r["rule_detail"] or "")}">{escape(v)}</td>')
            elif k == "table_id" and r.get("added"):
                src = "" if r.get("source_scenario") in (None, "") else f"{escape(str(r['source_scenario']))} "
                where = f"Table {escape(str(v))}, row {fmt(r['source_row'])}" if r.get("source_row") is not None else escape(str(v))
                cells.append(f"<td>added sidecar: {src}{where}</td>")
            elif k == "table_id":
                cells.append(f"<td>Table {escape(str(v))}, row {fmt(r['source_row'])}</td>")
            else:
                cells.append(f"<td>{escape(fmt(v))}</td>")
        parts.append(f'<tr data-service="{escape(r["service"])}" data-container="{escape(r["container"])}">' + "".join(cells) + "</tr>")
    parts.append("</tbody></table></div></div>")
    return "".join(parts)


def result_csv(res: dict) -> str:
    """One CSV line per service and container with before/after replicas and resources."""
    cols = ["scenario", "component", "service", "container", "is_sidecar", "role", "rule", "rule_detail", "replicas_before",
            "replicas_after", "cpu_request", "cpu_limit", "mem_request", "mem_limit", "cpu_request_before", "cpu_request_after",
            "cpu_limit_after", "mem_request_before", "mem_request_after", "mem_limit_after", "table_id", "source_row", "row_label", "source_scenario", "added"]
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(cols)
    for r in res["rows"]:
        w.writerow([res["baseline"]["id"] if c == "scenario" else ("" if r.get(c) is None else r.get(c)) for c in cols])
    return buf.getvalue()


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "service"


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cpu(v) -> str:
    return _q(f"{round(v * 1000)}m") if not float(v).is_integer() else _q(str(int(v)))


def _mem(v) -> str:
    mi = v * 1024
    return _q(f"{int(v)}Gi") if float(v).is_integer() else _q(f"{round(mi)}Mi")


def result_helm(res: dict) -> str:
    """A YAML fragment shaped like Helm values: per service, replicas and
    resources.requests/limits of each container (CPU as cores or millicores,
    memory as Gi or Mi). Names are slugged; it is a starting point, not a chart's real keys."""
    lines = [f"# Benchmark Atlas footprint for {res['baseline']['id']} at {fmt(res['per_site_load'])} {res['inputs']['unit']} per site",
             "# Keys are slugs of the service names in the guide; map them to your chart's values."]
    by_service: dict[str, list[dict]] = {}
    for r in res["rows"]:
        by_service.setdefault(r["service"], []).append(r)
    for svc, rows in by_service.items():
        lines.append(f"{_slug(svc)}:")
        rep = next((r["replicas_after"] for r in rows if not r["is_sidecar"]), rows[0]["replicas_after"])
        lines.append(f"  replicaCount: {rep if rep is not None else 'null'}")
        lines.append("  containers:")
        for r in rows:
            lines.append(f"    {_slug(r['container'])}:")
            lines.append("      resources:")
            for part, cpu, mem in (("requests", r["cpu_request"], r["mem_request"]), ("limits", r["cpu_limit"], r["mem_limit"])):
                lines.append(f"        {part}:")
                lines.append(f"          cpu: {_cpu(cpu) if cpu is not None else 'null'}")
                lines.append(f"          memory: {_mem(mem) if mem is not None else 'null'}")
    return "\n".join(lines) + "\n"


def result_chart(res: dict) -> dict:
    """Vega-Lite spec: CPU request per group at the baseline site and the target site."""
    values = []
    for g, v in res["totals"]["groups"].items():
        for when, label in (("before", "baseline site"), ("after", "target site")):
            if v[when]["cpu_request"]:
                values.append({"group": g, "when": label, "cores": v[when]["cpu_request"], "gib": v[when]["mem_request"]})
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": "CPU request per group, baseline site against target site",
        "width": "container", "height": 220,
        "data": {"values": values},
        "mark": {"type": "bar", "tooltip": True},
        "encoding": {
            "y": {"field": "group", "type": "nominal", "title": None},
            "yOffset": {"field": "when"},
            "x": {"field": "cores", "type": "quantitative", "title": "CPU request (cores)"},
            "color": {"field": "when", "type": "nominal", "title": None},
        },
    }


def _flag(v) -> bool:
    return str(v or "").lower() in ("1", "true", "on", "yes")


def run_web(bundle: dict, params: dict) -> dict:
    """The footprint calculator for ``calculators.web.run``: form strings in, result dict out
    (HTML, chart, inputs, CSV and Helm-values downloads). Raises footprint.FootprintError."""
    res = footprint.compute(
        bundle, params.get("scenario", ""), params.get("load"),
        target_cpu_percent=params.get("target") or None,
        sites=params.get("sites") or None,
        failover=_flag(params.get("failover")),
        asm=params.get("asm") or "keep",
        node_cores=params.get("node_cores") or None, node_mem_gib=params.get("node_mem") or None,
        min_replicas=params.get("min_replicas") or 1, asm_from=params.get("asm_from") or None,
        sidecar_cpu=params.get("sidecar_cpu") or None, sidecar_mem=params.get("sidecar_mem") or None)
    return {"html": result_html(res), "chart": result_chart(res), "inputs": res["inputs"],
            "downloads": {"csv": {"text": result_csv(res), "mime": "text/csv", "filename": f"footprint-{res['baseline']['id']}.csv"},
                          "helm": {"text": result_helm(res), "mime": "application/yaml",
                                   "filename": f"footprint-{res['baseline']['id']}-values.yaml"}}}


web.register("footprint", run_web, footprint.FootprintError)
