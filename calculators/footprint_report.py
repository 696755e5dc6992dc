"""Render a footprint result as HTML, CSV, a Helm-values YAML fragment and a
Vega-Lite chart spec. Standard library only; every text is HTML-escaped, so
names from data or user input can never become markup."""
from __future__ import annotations

import io
import re

from . import catalogue, footprint
from .formatting import csv_writer, escape, fmt

COLUMNS = [
    ("component", "Component"), ("service", "Service"), ("container", "Container"), ("rule", "Rule"), ("binding", "Binding"),
    ("replicas_before", "Replicas (baseline)"), ("replicas_after", "Replicas (target)"),
    ("range", "Replicas, likely (held-out band of one pod's cores)"),
    ("cpu_request", "CPU request per pod (cores)"), ("cpu_limit", "CPU limit per pod (cores)"),
    ("mem_request", "Memory request per pod (GiB)"), ("mem_limit", "Memory limit per pod (GiB)"),
    ("cpu_request_after", "CPU request total (cores)"), ("mem_request_after", "Memory request total (GiB)"),
    ("table_id", "Source table"), ("rule_detail", "Why (rule, source, notes)"),
]


def _states_html(res: dict) -> str:
    unit = escape(res["inputs"]["unit"])
    items = []
    for st in res["states"]:
        ceil = f", CPU ceiling {fmt(st['ceiling'])} %" if st.get("ceiling") else ""
        how = f" ({escape(st['how'])})" if st.get("how") else ""
        items.append(f"<li>{escape(st['state'])}: {fmt(st['load'])} {unit} per site carrying traffic "
                     f"(x{st['factor']:.4g} the baseline){ceil}{how}</li>")
    return '<ul class="atlas-states">' + "".join(items) + "</ul>"


def _missing_html(res: dict) -> str:
    miss = res["completeness"]["missing"]
    if not miss:
        return ""
    items = []
    for m in miss:
        where = f"Table {escape(str(m['table_id']))}, row {fmt(m['row'])}" if m.get("table_id") else ""
        errata = ", ".join(m["errata"])
        items.append(f"<li>{escape(m['service'])} / {escape(m['container'])}: {escape(m['reason'])}"
                     f"{' (' + where + ')' if where else ''}{' — erratum ' + escape(errata) if errata else ''}</li>")
    return ('<div class="admonition warning atlas-partial"><p class="admonition-title">Partial result: totals are at least '
            'these</p><p>The source gives no usable resources for these containers, so they are not in the totals:</p>'
            '<ul>' + "".join(items) + "</ul></div>")


def _packing_html(res: dict) -> str:
    p = res.get("packing")
    if not p:
        return ""
    i = res["inputs"]
    rows = "".join(f"<tr><td>{n + 1}</td><td>{f['cpu']:.1f}</td><td>{f['mem']:.1f}</td><td>{f['pods']}</td></tr>"
                   for n, f in enumerate(p["fill"]))
    spare = f", including {p['spare']} spare" if p["spare"] else ""
    reserve = ("GKE-tier reservations" if p["reserve"] == "gke" else "your reservations")
    return (f'<p class="atlas-nodes">Worker nodes per site: <strong>{"at least " if res["partial"] else ""}{fmt(p["nodes"])}</strong>'
            f"{spare} of {fmt(i['node_cores'])} cores / {fmt(i['node_mem_gib'])} GiB, packed first-fit decreasing; "
            f"allocatable {fmt(p['allocatable']['cpu'])} cores / {fmt(p['allocatable']['mem'])} GiB after {reserve}, "
            f"DaemonSets {fmt(p['daemonset_cpu'])} cores / {fmt(p['daemonset_mem'])} GiB per node, at most {p['max_pods']} pods "
            f"per node; binding: {escape(p['binding'] or 'one node')}. All {fmt(res['totals']['sites'])} site(s): "
            f"{fmt(p['nodes'] * res['totals']['sites'])} nodes.</p>"
            '<details class="atlas-fill"><summary>Fill per node (% of the room for pods)</summary><div class="atlas-table-wrap">'
            '<table class="atlas-fill-table"><thead><tr><th>Node</th><th>CPU %</th><th>Memory %</th><th>Pods</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></div></details>")


def _rows_html(rows: list[dict], caption: str = "") -> str:
    parts = ['<div class="atlas-table-wrap"><table class="atlas-rows">' + (f"<caption>{escape(caption)}</caption>" if caption else "")
             + "<thead><tr>" + "".join(f"<th>{escape(h)}</th>" for _, h in COLUMNS) + "</tr></thead><tbody>"]
    for r in rows:
        cells = []
        for k, _ in COLUMNS:
            v = r.get(k)
            if k == "rule_detail":
                notes = "".join(f"<br><em>{escape(n)}</em>" for n in r.get("notes") or [])
                cells.append(f"<td>{escape(v or '')}{notes}</td>")
            elif k == "table_id" and r.get("added"):
                src = "" if r.get("source_scenario") in (None, "") else f"{escape(str(r['source_scenario']))} "
                where = f"Table {escape(str(v))}, row {fmt(r['source_row'])}" if r.get("source_row") is not None else escape(str(v))
                cells.append(f"<td>added sidecar: {src}{where}</td>")
            elif k == "table_id":
                cells.append(f"<td>Table {escape(str(v))}, row {fmt(r['source_row'])}</td>")
            elif k == "range":
                cells.append(f"<td>{escape(range_text(v))}</td>")
            else:
                cells.append(f"<td>{escape(fmt(v))}</td>")
        parts.append(f'<tr data-service="{escape(r["service"])}" data-container="{escape(r["container"])}" data-rule="{escape(r["rule"])}">'
                     + "".join(cells) + "</tr>")
    parts.append("</tbody></table></div>")
    return "".join(parts)


def headline(res: dict) -> str:
    """The answer in one line of text: per site nodes (with a node shape), CPU and memory requested, each with its
    likely range, then all sites; 'at least' for a partial result."""
    t, rng = res["totals"], res.get("range") or {}
    least = "at least " if res["partial"] else ""
    lo, hi = rng.get("low"), rng.get("high")
    g = lambda end, *k: None if end is None else _dig(end, k)
    parts = []
    if res.get("nodes_per_site") is not None:
        parts.append(_likely(res["nodes_per_site"], g(lo, "nodes"), g(hi, "nodes"), "nodes"))
    parts.append(_likely(t["site"]["after"]["cpu_request"], g(lo, "site", "cpu_request"), g(hi, "site", "cpu_request"), "cores"))
    parts.append(_likely(t["site"]["after"]["mem_request"], g(lo, "site", "mem_request"), g(hi, "site", "mem_request"), "GiB"))
    per_site = f"Per site: {least}" + ", ".join(parts) + " requested"
    all_parts = []
    if res.get("nodes_per_site") is not None:
        n = t["sites"]
        all_parts.append(_likely(res["nodes_per_site"] * n, None if lo is None else lo["nodes"] * n,
                                 None if hi is None else hi["nodes"] * n, "nodes"))
    all_parts.append(_likely(t["deployment"]["cpu_request"], g(lo, "deployment", "cpu_request"), g(hi, "deployment", "cpu_request"),
                             "cores"))
    return f"{per_site}. All {fmt(t['sites'])} site(s): {least}" + ", ".join(all_parts) + "."


def _dig(d, keys):
    for k in keys:
        d = d[k]
    return d


def _evidence_html(res: dict) -> str:
    """Comparable runs, ranked, each with why it is comparable and the same request sized from it alone; the product's
    other runs (other call models) listed apart, folded, with why they are not used."""
    ev = res.get("evidence")
    if not ev:
        return ""
    spread = {x["id"]: x for x in ev["spread"]}
    unit = escape(res["inputs"]["unit"])
    link = lambda c: (f'<a href="../../products/{escape(ev["doc"])}/{escape(c["id"])}/">{escape(c["id"])}</a><br>'
                      f'{escape(c["short_title"])}')
    rows, others = [], []
    for n, c in enumerate([c for c in ev["candidates"] if c["comparable"]], 1):
        sp = spread.get(c["id"]) or {}
        if sp.get("error"):
            sized = f'<td colspan="2">{escape(sp["error"])}</td>'
        else:
            least = "≥ " if sp.get("partial") else ""
            nodes = "—" if sp.get("nodes_per_site") is None else f"{least}{fmt(sp['nodes_per_site'])}"
            sized = f'<td class="atlas-num">{least}{fmt(sp.get("cpu_request_site"))}</td><td class="atlas-num">{nodes}</td>'
        used = "anchor: its pods and cores" if c["id"] == ev["anchor"] else ("cores used" if c["id"] in ev["runs_used"] else "")
        why = "; ".join(c["matches"] + c["differs"] + ([] if ev["asm"] is not None else [f"ASM {'on' if c['asm'] else 'off'}"]))
        cave = "; ".join(c["caveats"])
        rows.append(f'<tr data-run="{escape(c["id"])}"><td>{n}</td><td>{link(c)}</td><td class="atlas-num">{fmt(c["load_per_site"])} '
                    f'{unit}</td><td class="atlas-num">{c["ratio"]:.2f}</td><td>{escape(why)}'
                    f'{"<br><em>" + escape(cave) + "</em>" if cave else ""}</td><td>{escape(used)}</td>{sized}</tr>')
    for c in ev["candidates"]:
        if not c["comparable"]:
            others.append(f'<li data-run="{escape(c["id"])}"><a href="../../products/{escape(ev["doc"])}/{escape(c["id"])}/">'
                          f'{escape(c["id"])}</a> ({escape(c["short_title"])}): {escape("; ".join(c["differs"]))}</li>')
    out = ('<h3 id="calc-comparable-runs">Comparable runs</h3>'
           f'<p>The runs of {escape(ev["product"])} with the call model {escape(ev["call_model_name"])}, ranked: the same '
           'deployment mode and ASM first, then the nearest load. The answer takes its pods from the anchor and the cores '
           'each pod uses from the runs marked "cores used"; the last two columns size the same request from each run '
           'alone, which is how far apart the runs are.</p>'
           '<div class="atlas-table-wrap"><table class="atlas-comparable"><thead><tr><th>#</th><th>Run</th>'
           "<th>Load per site</th><th>Your load per site ÷ run's</th><th>Why (matches; differs; <em>caveats</em>)</th>"
           '<th>Used for</th><th>Alone: CPU request per site (cores)</th><th>Alone: nodes per site</th></tr></thead><tbody>'
           + "".join(rows) + "</tbody></table></div>")
    if others:
        out += (f'<details class="atlas-not-comparable"><summary>{len(others)} other run(s) of {escape(ev["product"])}: not '
                'comparable, not used</summary><ul>' + "".join(others) + "</ul></details>")
    return out


def result_html(res: dict) -> str:
    """The result as an HTML fragment: the answer with its likely range, how it was sized, the comparable runs (when
    sized from them), load states, missing rows (partial), warnings, totals, node packing, per-row table and the
    test stubs apart."""
    b, i, t = res["baseline"], res["inputs"], res["totals"]
    unit = escape(i["unit"])
    least = "at least " if res["partial"] else ""
    ev = res.get("evidence")
    parts = [f'<div class="atlas-result" data-scenario="{escape(b["id"])}" data-partial="{"true" if res["partial"] else "false"}"'
             f' data-method="{escape(res["sizing"]["method"])}">']
    parts.append(f'<p class="atlas-headline">{escape(headline(res))}</p>')
    if ev:
        how = (f'Sized from the comparable runs of <strong>{escape(ev["call_model_name"])}</strong> ({escape(b["doc"])}'
               f'{", deployment mode " + escape(ev["mode"]) if ev["mode"] else ""}'
               f'{", ASM " + ("on" if ev["asm"] else "off") if ev["asm"] is not None else ""}): pods and per-pod requests as in '
               f'<strong>{escape(b["short_title"])}</strong> ({escape(b["id"])}, {fmt(b["load_per_site"])} {unit} per site), '
               f'cores used from {len(ev["runs_used"])} run(s): {escape(", ".join(ev["runs_used"]))}.')
    else:
        how = (f'Sized from one run: <strong>{escape(b["short_title"])}</strong> ({escape(b["id"])}) at '
               f'{fmt(b["load_per_site"])} {unit} per site, scaled in proportion to load.')
    ext = res["sizing"].get("extrapolation")
    parts.append(
        f'<p class="atlas-summary">{how} Target: a total of <strong>{fmt(i["target_load"])} {unit}</strong> on '
        f'{fmt(i["sites"])} site(s) carrying traffic of {fmt(i["sites_provisioned"])} provisioned; redundancy '
        f'{escape(i["redundancy"])}. Each site is sized for <strong>{fmt(res["per_site_load"])} {unit}</strong>.'
        + (f' <span class="atlas-extrapolation">Beyond what was measured: {escape(ext["text"])}.</span>' if ext else "") + "</p>")
    rng = res.get("range") or {}
    if rng:
        parts.append('<details class="atlas-likely"><summary>What "likely" means</summary><p>'
                     f'{escape(band_sentence(rng))} <a href="../accuracy/">How accurate is this?</a></p></details>')
    parts.append(_states_html(res))
    parts.append(_missing_html(res))
    if res["warnings"]:
        parts.append('<ul class="atlas-warnings">' + "".join(f"<li>{escape(w)}</li>" for w in res["warnings"]) + "</ul>")
    heads = ("Group", "Replicas (baseline)", "Replicas (target)", "CPU request (cores), baseline site", "CPU request (cores), target site",
             "CPU limit (cores), target site", "Memory request (GiB), baseline site", "Memory request (GiB), target site",
             "Memory limit (GiB), target site")

    def cells(values) -> str:
        """One row's cells after its first, each labelled with its column (a phone shows the table stacked, the labels in
        front of the values: atlas.css); an empty cell stays empty."""
        return "".join(f'<td data-label="{escape(h)}">{v}</td>' if v else "<td></td>" for h, v in zip(heads[1:], values))

    parts.append('<div class="atlas-table-wrap"><table class="atlas-totals"><thead><tr>' + "".join(f"<th>{escape(h)}</th>" for h in heads)
                 + "</tr></thead><tbody>")
    for g, v in t["groups"].items():
        if not any(v["before"].values()) and not any(v["after"].values()):
            continue
        parts.append(f'<tr><td>{escape(g)}</td>' + cells([
            fmt(v["replicas_before"]) if g != "sidecars" else "—", fmt(v["replicas_after"]) if g != "sidecars" else "—",
            fmt(v["before"]["cpu_request"]), fmt(v["after"]["cpu_request"]), fmt(v["after"]["cpu_limit"]),
            fmt(v["before"]["mem_request"]), fmt(v["after"]["mem_request"]), fmt(v["after"]["mem_limit"])]) + "</tr>")
    s = t["site"]
    parts.append(f'<tr class="atlas-total-row"><th>Per site{" (at least)" if least else ""}</th>' + cells([
        "", "", fmt(s["before"]["cpu_request"]), fmt(s["after"]["cpu_request"]), fmt(s["after"]["cpu_limit"]),
        fmt(s["before"]["mem_request"]), fmt(s["after"]["mem_request"]), fmt(s["after"]["mem_limit"])]) + "</tr>")
    rng = res.get("range") or {}
    for end in ("low", "high"):
        if end in rng:
            e = rng[end]["site"]
            parts.append(f'<tr class="atlas-total-row atlas-likely-row"><th>Per site, likely {end}</th>' + cells([
                "", "", "", fmt(e["cpu_request"]), fmt(e["cpu_limit"]), "", fmt(e["mem_request"]), fmt(e["mem_limit"])]) + "</tr>")
    d = t["deployment"]
    parts.append(f'<tr class="atlas-total-row"><th>All {fmt(t["sites"])} site(s){" (at least)" if least else ""}</th>' + cells([
        "", "", "", fmt(d["cpu_request"]), fmt(d["cpu_limit"]), "", fmt(d["mem_request"]), fmt(d["mem_limit"])])
        + "</tr></tbody></table></div>")
    parts.append(_packing_html(res))
    parts.append(_evidence_html(res))
    parts.append(_rows_html(res["rows"]))
    if res["test_rows"]:
        parts.append(_rows_html(res["test_rows"], "Test stubs and simulators: shown apart, not in the totals or node counts"))
    parts.append("</div>")
    return "".join(parts)


def range_text(rng: dict | None) -> str:
    """A row's likely replicas in words: '6-9', '6' when both ends agree, 'no band (why)', '' for rows whose replicas
    do not follow CPU."""
    if not rng:
        return ""
    if "none" in rng:
        return "no band"
    return fmt(rng["low"]) if rng["low"] == rng["high"] else f"{fmt(rng['low'])}–{fmt(rng['high'])}"


def _likely(value, low, high, unit: str = "") -> str:
    """'2,437 cores (likely 2,437–2,573)'; the value alone when no range."""
    u = f" {unit}" if unit else ""
    if low is None or high is None:
        return f"{fmt(value)}{u}"
    span = fmt(low) if fmt(low) == fmt(high) else f"{fmt(low)}–{fmt(high)}"
    return f"{fmt(value)}{u} (likely {span})"


def band_sentence(rng: dict) -> str:
    """What the range of a result means, in one paragraph of plain text (HTML, CSV, Helm values and the report)."""
    if "none" in rng:
        return f"No range: {rng['none']}."
    b = rng["band"]
    how = METHOD_WORDS[rng["method"]]
    cov = (f"; held out, the band covered {b['covered']} of {b['checked']} ({b['coverage']:.0f} %"
           + (")" if b.get("basis") == "run" else ", each comparison held out: too few runs to hold one out)")
           if b.get("coverage") is not None else "; its coverage cannot be measured: too few comparisons")
    return (f"Likely: where the cores the pods use fell in {b['comparisons']} held-out comparisons of {how}, each run of the "
            f"product predicted without its own figures: printed / predicted between {b['lo']:.2f} and {b['hi']:.2f} "
            f"(the k-th lowest and highest, k = {b['k']}, expected to cover {b['expected_coverage']:.0f} % of new cases{cov}). "
            "The range moves only pods sized from CPU; pods held at the benchmark's replicas, by memory or by the data "
            "they hold do not move, and the choice of run is not in it: the comparable runs below show that.")


METHOD_WORDS = {"evidence": "sizing from the comparable runs", "one-run": "scaling one run in proportion to load"}


def summary_lines(res: dict) -> list[str]:
    """The answer, how it was sized and what its range means, as lines of text for the head of the CSV and Helm
    values (each a comment line there)."""
    out = [f"answer: {headline(res)}"]
    ev = res.get("evidence")
    if ev:
        out.append(f"sized from: the comparable runs of {ev['call_model_name']} ({ev['doc']}); pods as in {res['baseline']['id']}; "
                   f"cores used from {', '.join(ev['runs_used'])}")
        for x in ev["spread"]:
            alone = (x["error"] if x["error"] else f"{fmt(x['cpu_request_site'])} cores per site"
                     + ("" if x["nodes_per_site"] is None else f", {fmt(x['nodes_per_site'])} nodes per site")
                     + (" (at least)" if x["partial"] else ""))
            out.append(f"the same request from {x['id']} alone: {alone}")
    else:
        out.append(f"sized from: one run, {res['baseline']['id']}, scaled in proportion to load")
    ext = res["sizing"].get("extrapolation")
    if ext:
        out.append(f"beyond what was measured: {ext['text']}")
    if res.get("range"):
        out.append(band_sentence(res["range"]))
    return out


def result_csv(res: dict) -> str:
    """The answer and how it was sized as comment lines (``summary_lines``), then one CSV line per service and
    container with before/after replicas, their likely range (``range_low``/``range_high``: replicas at the ends of the
    held-out band) and resources (test stubs with group 'test'), then one line per container the result could not size
    (rule 'missing', with its erratum ids); the ``partial`` column is 'true' on every line of a partial result."""
    cols = ["scenario", "component", "service", "container", "is_sidecar", "role", "rule", "rule_detail", "replicas_before",
            "replicas_after", "range_low", "range_high", "cpu_request", "cpu_limit", "mem_request", "mem_limit", "cpu_request_before",
            "cpu_request_after", "cpu_limit_after", "mem_request_before", "mem_request_after", "mem_limit_after", "table_id",
            "source_row", "row_label", "source_scenario", "added", "group", "binding", "notes", "partial"]
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerows([["# " + " ".join(x.split())] for x in summary_lines(res)])
    w.writerow(cols)
    fixed = {"scenario": res["baseline"]["id"], "partial": "true" if res["partial"] else "false"}
    for r in res["rows"] + res["test_rows"]:
        rng = r.get("range") or {}
        extra = {"range_low": rng.get("low"), "range_high": rng.get("high")}
        w.writerow([fixed[c] if c in fixed else "; ".join(r["notes"]) if c == "notes"
                    else ("" if extra.get(c) is None else extra[c]) if c in extra
                    else ("" if r.get(c) is None else r.get(c)) for c in cols])
    for m in res["completeness"]["missing"]:
        w.writerow([fixed[c] if c in fixed else {"service": m["service"], "container": m["container"], "rule": "missing",
                    "rule_detail": m["reason"], "notes": " ".join(m["errata"]), "table_id": m["table_id"],
                    "source_row": "" if m["row"] is None else m["row"], "component": m["component"]}.get(c, "") for c in cols])
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
    lines += ["# " + " ".join(x.split()) for x in summary_lines(res)]
    for m in res["completeness"]["missing"]:
        lines.append(f"# MISSING (not sized): {m['service']} / {m['container']}: {m['reason']}"
                     + (f" ({', '.join(m['errata'])})" if m["errata"] else ""))
    if res["test_rows"]:
        lines.append("# Test stubs and simulators are left out: " + ", ".join(sorted({r['service'] for r in res['test_rows']})))
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


def compute_web(bundle: dict, params: dict) -> dict:
    """The footprint of the form's strings (``params``, see ``footprint.Request.from_form``): from the comparable runs
    of ``call_model``, ``mode`` and the ASM choice when no run is picked (``scenario`` empty), else from the run
    picked. Raises footprint.FootprintError."""
    return footprint.size(bundle, footprint.Request.from_form(params))


def run_web(bundle: dict, params: dict) -> dict:
    """The footprint calculator for ``calculators.catalogue.run``: form strings in, result dict out
    (HTML, chart, inputs, CSV and Helm-values downloads). Raises footprint.FootprintError."""
    res = compute_web(bundle, params)
    name = footprint.result_name(res)
    return {"html": result_html(res), "chart": result_chart(res), "inputs": res["inputs"],
            "downloads": {"csv": {"text": lambda: result_csv(res), "mime": "text/csv", "filename": f"{name}.csv"},
                          "helm": {"text": lambda: result_helm(res), "mime": "application/yaml", "filename": f"{name}-values.yaml"}}}



FIELDS = {"Call model": "call_model", "Records held": "sessions", "Target load": "load", "Number of sites carrying traffic": "sites", "Sites provisioned": "sites_provisioned",
          "Normal CPU ceiling": "normal_ceiling", "Failover CPU ceiling": "failover_ceiling", "The normal ceiling": "normal_ceiling",
          "Target CPU utilization": "target", "Database CPU target": "db_target", "Sidecar CPU target": "sidecar_target",
          "Data size": "data_size", "Node CPU": "node_cores", "Node memory": "node_mem", "Minimum replicas": "min_replicas",
          "Reserved CPU": "reserve_cpu", "Reserved memory": "reserve_mem", "DaemonSet CPU": "ds_cpu", "DaemonSet memory": "ds_mem",
          "Max pods per node": "max_pods", "Spare nodes": "spare_nodes", "Sidecar CPU": "sidecar_cpu", "Sidecar memory": "sidecar_mem"}
"""The names ``footprint.compute`` gives its inputs in error messages, and the form parameter of each (the page
marks that field invalid)."""


def report_web(bundle: dict, params: dict) -> dict:
    """The report (``calculators.report``) of the result ``run_web`` gives. Raises footprint.FootprintError."""
    return report_of(compute_web(bundle, params), bundle)


FOOTPRINT_INPUTS = (
    ("sized_from", "Sized from", None), ("call_model", "Call model", None), ("mode", "Deployment mode", None),
    ("scenario", "Baseline scenario (sized from the comparable runs: the anchor, whose pods are used)", None), ("target_load", "Target load, total", "unit"), ("sites", "Sites carrying traffic", None),
    ("sites_provisioned", "Sites provisioned", None), ("redundancy", "Georedundancy", None), ("failover", "Failover", None),
    ("normal_ceiling", "Normal CPU ceiling", "%"), ("failover_ceiling", "Failover CPU ceiling", "%"),
    ("target_cpu_percent", "Target CPU utilization of traffic services", "% of request"),
    ("db_target_percent", "Database CPU target", "% of request"), ("sidecar_target_percent", "Sidecar CPU ceiling", "% of limit"),
    ("data_size_gib", "Data size per copy", "GiB"), ("sessions", "Sessions, bindings or subscribers held", "records"), ("asm", "ASM sidecars", None), ("asm_from", "Size added sidecars from", None),
    ("min_replicas", "Minimum replicas per scaled service", None), ("node_cores", "Worker node CPU", "cores"),
    ("node_mem_gib", "Worker node memory", "GiB"),
)
"""Footprint inputs (key of the result's ``inputs``, label, unit; 'unit' = the scenario's load unit)."""

FOOTPRINT_COLUMNS = (
    ("group", "Group", None), ("component", "Component", None), ("service", "Service", None), ("container", "Container", None),
    ("is_sidecar", "Sidecar", None), ("role", "Role", None), ("rule", "Rule", None), ("binding", "Binding", None),
    ("replicas_before", "Replicas (baseline)", "pods"), ("replicas_after", "Replicas (target)", "pods"),
    ("cpu_request", "CPU request per pod", "cores"), ("cpu_limit", "CPU limit per pod", "cores"),
    ("mem_request", "Memory request per pod", "GiB"), ("mem_limit", "Memory limit per pod", "GiB"),
    ("cpu_request_before", "CPU request total, baseline", "cores"), ("cpu_request_after", "CPU request total, target", "cores"),
    ("cpu_limit_after", "CPU limit total, target", "cores"), ("mem_request_before", "Memory request total, baseline", "GiB"),
    ("mem_request_after", "Memory request total, target", "GiB"), ("mem_limit_after", "Memory limit total, target", "GiB"),
    ("range_low", "Replicas, likely low", "pods"), ("range_high", "Replicas, likely high", "pods"),
    ("table_id", "Source table", None), ("source_row", "Source row", None), ("rule_detail", "Why (rule, source)", None),
    ("notes", "Notes", None),
)


def report_of(res: dict, bundle: dict) -> dict:
    """The report (``calculators.report``) of a footprint result (``footprint.compute`` or ``footprint.recommend``;
    ``bundle``: document names and sections)."""
    from . import report
    i, b, t = res["inputs"], res["baseline"], res["totals"]
    docs, sections = report.doc_names(bundle), report.sections(bundle)
    least = " (at least: partial result)" if res["partial"] else ""
    inputs = []
    for key, label, unit in FOOTPRINT_INPUTS:
        v = i.get(key)
        inputs.append([label, v, i["unit"] if unit == "unit" else unit,
                       "default" if v is None else ("" if key != "scenario" else f"{b['short_title']} ({docs.get(b['doc'], b['doc'])})")])
    rows = []
    for r in res["rows"] + res["test_rows"]:
        rng = r.get("range") or {}
        vals = {**r, "group": "test (not in totals)" if r in res["test_rows"] else r["group"],
                "range_low": rng.get("low"), "range_high": rng.get("high"), "notes": list(r.get("notes") or [])}
        rows.append([vals.get(k) for k, _, _ in FOOTPRINT_COLUMNS])
    results = {"columns": [report.col(h, u) for _, h, u in FOOTPRINT_COLUMNS], "rows": rows}
    tcols = [report.col("Total"), report.col("Replicas (baseline)", "pods"), report.col("Replicas (target)", "pods"),
             report.col("CPU request, baseline site", "cores"), report.col("CPU request, target", "cores"), report.col("CPU limit, target", "cores"),
             report.col("Memory request, baseline site", "GiB"), report.col("Memory request, target", "GiB"), report.col("Memory limit, target", "GiB")]
    trows = []
    for g, v in t["groups"].items():
        if not any(v["before"].values()) and not any(v["after"].values()):
            continue
        side = g == "sidecars"
        trows.append([f"Group: {g}", None if side else v["replicas_before"], None if side else v["replicas_after"],
                      v["before"]["cpu_request"], v["after"]["cpu_request"], v["after"]["cpu_limit"],
                      v["before"]["mem_request"], v["after"]["mem_request"], v["after"]["mem_limit"]])
    s, d = t["site"], t["deployment"]
    trows.append(["Per site" + least, None, None, s["before"]["cpu_request"], s["after"]["cpu_request"], s["after"]["cpu_limit"],
                  s["before"]["mem_request"], s["after"]["mem_request"], s["after"]["mem_limit"]])
    trows.append([f"All {t['sites']} site(s)" + least, None, None, None, d["cpu_request"], d["cpu_limit"], None,
                  d["mem_request"], d["mem_limit"]])
    rng = res.get("range") or {}
    for end in ("low", "high"):
        if end in rng:
            e = rng[end]
            nodes = "" if e["nodes"] is None else f"; worker nodes per site {e['nodes']}, all sites {e['nodes'] * t['sites']}"
            trows.append([f"Per site, likely {end}{nodes}", None, None, None, e["site"]["cpu_request"], e["site"]["cpu_limit"],
                          None, e["site"]["mem_request"], e["site"]["mem_limit"]])
    p = res.get("packing")
    if p:
        trows.append([f"Worker nodes per site{least}: {p['nodes']} (of which {p['spare']} spare), "
                      f"all sites {p['nodes'] * t['sites']}", None, None, None, None, None, None, None, None])
    warnings = [["warning", w] for w in res["warnings"]]
    for m in res["completeness"]["missing"]:
        where = f" (Table {m['table_id']}, row {m['row']})" if m.get("table_id") else ""
        errata = f"; errata {', '.join(m['errata'])}" if m["errata"] else ""
        warnings.append(["not sized (partial: totals are at least)", f"{m['service']} / {m['container']}: {m['reason']}{where}{errata}"])
    method = [["Answer and how it was sized", line] for line in summary_lines(res)] + [["Rules", res["method"]]]
    for st in res["states"]:
        ceil = f", CPU ceiling {st['ceiling']} %" if st.get("ceiling") else ""
        method.append([f"Load state: {st['state']}", f"{st['load']:g} {i['unit']} per site carrying traffic "
                       f"(x{st['factor']:.4g} the baseline){ceil}" + (f" ({st['how']})" if st.get("how") else "")])
    if p:
        method.append(["Node packing", f"first-fit decreasing; allocatable {p['allocatable']['cpu']:g} cores / "
                       f"{p['allocatable']['mem']:g} GiB per node after {'GKE-tier' if p['reserve'] == 'gke' else 'your'} "
                       f"reservations, DaemonSets {p['daemonset_cpu']:g} cores / {p['daemonset_mem']:g} GiB, at most "
                       f"{p['max_pods']} pods per node; binding: {p['binding'] or 'one node'}"])
    method.append(["Estimate", "A planning estimate from the vendor's benchmark, not a vendor figure."])
    sources = []
    for r in res["rows"] + res["test_rows"]:
        sid = r.get("source_scenario") or b["id"]
        doc = next((s["doc"] for s in bundle.get("scenarios") or [] if s["id"] == sid), b["doc"])
        sources.append([f"{r['service']} / {r['container']}" + (" (added sidecar)" if r.get("added") else ""),
                        docs.get(doc, doc), sections.get(sid), r["table_id"], r["source_row"], r.get("row_label"),
                        "replicas, CPU and memory requests and limits", None, None])
    for m in res["completeness"]["missing"]:
        sources.append([f"{m['service']} / {m['container']} (not sized)", docs.get(b["doc"], b["doc"]), sections.get(b["id"]),
                        m.get("table_id"), m.get("row"), None, None, None, m["errata"]])
    title = f"Footprint scaling: {b['short_title']}"
    sub = (f"Baseline {b['id']} at {b['load_per_site']:g} {i['unit']} per site, scaled to {i['target_load']:g} {i['unit']} "
           f"on {i['sites']} site(s){least}")
    return report.build("footprint", title, sub, f"{footprint.result_name(res)}.xlsx", inputs=inputs, results=results,
                 totals={"columns": tcols, "rows": trows}, warnings=warnings, method=method, sources=sources)



catalogue.register("footprint", run_web, footprint.FootprintError, report_web, FIELDS)
