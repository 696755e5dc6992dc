"""Render an ASM overhead result (``calculators.asm``) as HTML, a Vega-Lite chart spec, CSV and the report, and
register the calculator (``run_web``, ``report_web``: the form's strings in). Every text is HTML-escaped."""
from __future__ import annotations

import io

from . import asm, catalogue
from .asm import AsmError
from .formatting import csv_writer, escape, fmt


def _pct(v):
    return "—" if v is None else f"{v:.1f} %"


def _share_cell(o, m) -> str:
    """The sidecar share, or for a partial scenario 'partial' with the share over its complete services."""
    if not o["partial"]:
        return _pct(o[f"{m}_share"])
    return (f'<span class="atlas-partial" title="{escape(o["partial"]["text"])}">partial</span>: '
            f'{_pct(o[f"{m}_share_complete"])} over {o["complete_services"]} of {o["services_total"]} services with every row')


def _range_mark(o, sidecars: bool = False) -> str:
    """After a figure of overview ``o``: a mark saying it counts replica ranges at their max end, '' when it counts none
    (``sidecars``: the figure counts sidecar rows only)."""
    if not any(r["sidecar"] or not sidecars for r in o["ranges"]):
        return ""
    return f' <abbr class="atlas-note-ref atlas-range-max" title="{escape(o["ranges_text"])}">ranges at max</abbr>'


def _replicas_cell(v) -> str:
    """The replicas a service's sidecar counts at, and the printed min-max range when it is the range's max end."""
    rng = v.get("replica_range")
    if rng is None:
        return fmt(v.get("replicas_sidecar"))
    return (f'{fmt(v.get("replicas_sidecar"))} <span class="atlas-note-ref" title="Table {escape(str(rng["table_id"]))} row '
            f'{fmt(rng["row"])}: min {fmt(rng["min"])}, max {fmt(rng["max"])} replicas">max of {fmt(rng["min"])}-{fmt(rng["max"])}</span>')


def _observed_cell(o, m) -> str:
    x = o["observed"].get(m)
    if x is None:
        return "not measured"
    return _pct(x["share"]) + (" (partial)" if x.get("partial") else "")


def to_html(ov: list[dict], cmp: dict, wi: dict, no_sidecars: list[str] = ()) -> str:
    """The ASM page result: overview of every ASM-enabled scenario, the on/off comparison (or 'not
    comparable' with the reasons), the what-if and the per-service table; every text escaped."""
    p = ['<div class="atlas-result atlas-asm">', "<h3>Sidecar share of requested resources, every ASM-enabled scenario</h3>",
         '<p class="atlas-note">Requests at one site carrying traffic, as the product pages and the footprint calculator count '
         'them; a replica count printed as a min-max range counts at its max end (the column <em>Replica ranges</em> names '
         'those rows).</p>',
         '<div class="atlas-table-wrap"><table class="atlas-rows atlas-asm-overview"><thead><tr><th>Scenario</th><th>Sidecar CPU (cores)</th>'
         '<th>All CPU (cores)</th><th>Sidecar share of CPU</th><th>Sidecar memory (GiB)</th><th>All memory (GiB)</th><th>Sidecar share of memory</th>'
         '<th>Sidecar CPU per 1K load (cores, requested)</th><th>Observed sidecar share of CPU / memory</th><th>Source tables</th>'
         '<th>Sidecar CPU per 1K load (cores, observed at one site)</th><th>Replica ranges (counted at the max end)</th>'
         '<th>Rows not used</th></tr></thead><tbody>']
    for o in ov:
        obs = " / ".join(_observed_cell(o, m) for m in ("cpu", "memory"))
        oc = o["observed"].get("cpu") or {}
        per1k_obs = (f'{fmt(oc["sidecar_per_1k"])} per 1K {escape(o["unit"] or "")} ({escape(oc["site"])})'
                     if oc.get("sidecar_per_1k") is not None and oc.get("unit") == "cores" else "not measured in cores")
        side_least = "at least " if o["partial"] and o["partial"]["sidecar_rows"] else ""
        least = "at least " if o["partial"] else ""
        req = side_least + f'{fmt(o["cpu_sidecar_per_1k"])} per 1K {escape(o["unit"] or "")}'
        p.append(f'<tr data-scenario="{escape(o["scenario"])}"{" data-partial" if o["partial"] else ""}'
                 f'{" data-ranges" if o["ranges"] else ""}><td>{escape(o["scenario"])}</td>'
                 f'<td>{side_least}{fmt(o["cpu_sidecar"])}{_range_mark(o, True)}</td><td>{least}{fmt(o["cpu_total"])}{_range_mark(o)}</td>'
                 f'<td>{_share_cell(o, "cpu")}</td><td>{side_least}{fmt(o["mem_sidecar"])}{_range_mark(o, True)}</td>'
                 f'<td>{least}{fmt(o["mem_total"])}{_range_mark(o)}</td><td>{_share_cell(o, "mem")}</td><td>{req}</td><td>{obs}</td>'
                 f'<td>{escape(", ".join(o["tables"]))}</td><td>{per1k_obs}</td>'
                 f'<td>{escape(o["ranges_rows"]) if o["ranges"] else "none"}</td>'
                 f'<td>{escape(o["partial"]["text"]) if o["partial"] else "none"}</td></tr>')
    for sid in no_sidecars:
        p.append(f'<tr data-scenario="{escape(sid)}" data-no-sidecars><td>{escape(sid)}</td>'
                 '<td colspan="12">ASM enabled, but no sidecar rows are printed in its resource tables: its sidecar cost is unknown '
                 '(not 0).</td></tr>')
    p.append("</tbody></table></div>")
    p.append('<p class="atlas-note">A <strong>partial</strong> scenario has resource rows flagged by an erratum or printed '
             'without a value (or without a replica count or request to multiply): its share over every row would mix sidecars '
             'whose application rows are missing, so the share is given only over the services whose rows are all usable, and '
             'totals marked "at least" are lower bounds.</p>')
    p.append('<p class="atlas-note">Reference, not from the guides: Istio publishes the sidecar (Envoy) cost per 1,000 requests '
             'per second going through one proxy: '
             + "; ".join(f'Istio {escape(v)}: {escape(c)} vCPU and {escape(m)} (<code>{escape(u)}</code>)'
                         for v, c, m, u in asm.ISTIO_REFERENCE)
             + '. A benchmark transaction may pass several proxies (ingress gateway, service, egress gateway), and the guides do '
             'not say which Istio release their ASM ships, so this is a yardstick, not a prediction.</p>')
    a, b = cmp["on"], cmp["off"]
    p.append(f'<h3>{escape(a["scenario"])} (ASM on) against {escape(b["scenario"])} (ASM off), per 1K {escape(a["unit"] or "")}</h3>')
    p.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-asm-compare"><thead><tr><th>Per 1K of load</th>'
             f'<th>{escape(a["scenario"])} (on)</th><th>{escape(b["scenario"])} (off)</th><th>On − off</th></tr></thead><tbody>')
    for k, label in (("cpu_total_per_1k", "CPU request, all (cores)"), ("cpu_sidecar_per_1k", "CPU request, sidecars (cores)"),
                     ("mem_total_per_1k", "Memory request, all (GiB)"), ("mem_sidecar_per_1k", "Memory request, sidecars (GiB)")):
        d = fmt(_r(cmp["diff"][k])) if cmp["comparable"] else "not comparable"
        p.append(f'<tr data-key="{k}"><td>{label}</td><td>{fmt(_r(a[k]))}</td><td>{fmt(_r(b[k]))}</td><td>{d}</td></tr>')
    p.append(f'<tr><td>Load per site (what the figures serve)</td><td>{fmt(a["load"])} ({escape(a["load_how"])})</td><td>{fmt(b["load"])} ({escape(b["load_how"])})</td><td></td></tr>')
    p.append("</tbody></table></div>")
    if not cmp["comparable"]:
        p.append('<div class="atlas-warnings atlas-not-comparable"><p><strong>Not comparable.</strong> The ASM cost is not given as '
                 'on − off because the two runs are not like for like:</p><ul>'
                 + "".join(f"<li>{escape(x)}</li>" for x in cmp["not_comparable"]) + "</ul></div>")
    p.append('<p class="atlas-caveat"><strong>Not a controlled experiment.</strong> The two runs differ in more than ASM:</p>'
             '<table class="atlas-rows atlas-asm-differences"><thead><tr><th>What</th><th>ASM on</th><th>ASM off</th><th>Differs</th></tr></thead><tbody>')
    for d in cmp["differences"]:
        p.append(f'<tr><td>{escape(d["what"])}</td><td>{escape(str(d["on"] if d["on"] not in (None, "") else "not stated"))}</td>'
                 f'<td>{escape(str(d["off"] if d["off"] not in (None, "") else "not stated"))}</td><td>{"yes" if d["differs"] else "no"}</td></tr>')
    p.append("</tbody></table>")
    p.append("<h3>What-if on a footprint (per site, requests)</h3>")
    p.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-asm-whatif"><thead><tr><th>Change</th><th>Scenario at load</th>'
             '<th>CPU before (cores)</th><th>CPU after (cores)</th><th>Δ CPU</th><th>Memory before (GiB)</th><th>Memory after (GiB)</th><th>Δ memory</th></tr></thead><tbody>')
    for change, w in wi.items():
        label = f"add ASM (sized from {escape(w['source'] or '')})" if change == "add" else "remove ASM"
        p.append(f'<tr data-change="{change}"><td>{label}</td><td>{escape(w["scenario"])} at {fmt(w["load"])} {escape(w["unit"])}</td>'
                 f'<td>{fmt(w["cpu_before"])}</td><td>{fmt(w["cpu_after"])}</td><td>{fmt(w["cpu_delta"])}</td>'
                 f'<td>{fmt(w["mem_before"])}</td><td>{fmt(w["mem_after"])}</td><td>{fmt(w["mem_delta"])}</td></tr>')
    p.append("</tbody></table></div>")
    p.append(f'<h3>Per service: {escape(a["scenario"])}</h3>')
    p.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-asm-services"><thead><tr><th>Component</th><th>Service</th>'
             '<th>Sidecar replicas</th><th>Sidecar CPU (cores)</th><th>Pod CPU (cores)</th><th>Sidecar share of CPU</th><th>Sidecar memory (GiB)</th>'
             '<th>Pod memory (GiB)</th><th>Sidecar share of memory</th><th>Observed sidecar share of CPU / memory</th>'
             '<th>Source (table/row)</th></tr></thead><tbody>')
    for v in a["services"]:
        p.append(f'<tr data-service="{escape(v["service"])}"><td>{escape(v["component"])}</td><td>{escape(v["service"])}</td>'
                 f'<td>{_replicas_cell(v)}</td><td>{fmt(v["cpu_sidecar"])}</td><td>{fmt(v["cpu_total"])}</td><td>{_pct(v["cpu_share"])}</td><td>{fmt(v["mem_sidecar"])}</td>'
                 f'<td>{fmt(v["mem_total"])}</td><td>{_pct(v["mem_share"])}</td>'
                 f'<td>{_pct(v["observed_cpu_share"])} / {_pct(v["observed_memory_share"])}</td><td>{escape(", ".join(v["sources"]))}</td></tr>')
    p.append("</tbody></table></div></div>")
    return "".join(p)


def _r(v):
    return None if v is None else round(v, 4)


def _range_text(v) -> str:
    """A service's replica range as the CSVs write it: '2-27 counted at 27 (Table 3-104 row 6)', or ''."""
    rng = v.get("replica_range")
    return f"{rng['min']}-{rng['max']} counted at {rng['max']} (Table {rng['table_id']} row {rng['row']})" if rng else ""


def to_csv(ov: list[dict], no_sidecars: list[str] = ()) -> str:
    """One line per service with sidecars and a TOTAL line per ASM-enabled scenario, requests at one site carrying
    traffic (``overhead``): ``sidecar_replicas`` is the count a service's sidecar is counted at and
    ``replica_range`` the min-max range it came from (its max end), the TOTAL line naming every such row; the
    last column says why a scenario is partial. An ASM-enabled scenario without sidecar rows gets a TOTAL line
    with empty figures saying so, never zeros."""
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(["scenario", "component", "service", "cpu_sidecar_cores", "cpu_total_cores", "cpu_sidecar_share_percent",
                "mem_sidecar_gib", "mem_total_gib", "mem_sidecar_share_percent", "load", "load_unit", "sources",
                "observed_cpu_sidecar_share_percent", "observed_memory_sidecar_share_percent", "sidecar_replicas",
                "replica_range", "partial"])
    for o in ov:
        for v in o["services"]:
            w.writerow([o["scenario"], v["component"], v["service"], v["cpu_sidecar"], v["cpu_total"], _r(v["cpu_share"]),
                        v["mem_sidecar"], v["mem_total"], _r(v["mem_share"]), o["load"], o["unit"], " ".join(v["sources"]),
                        _r(v["observed_cpu_share"]), _r(v["observed_memory_share"]), v["replicas_sidecar"], _range_text(v),
                        "excluded rows" if v["service"] in (o["partial"] or {}).get("services", []) else ""])
        w.writerow([o["scenario"], "", "TOTAL", o["cpu_sidecar"], o["cpu_total"], _r(o["cpu_share"]), o["mem_sidecar"], o["mem_total"],
                    _r(o["mem_share"]), o["load"], o["unit"], " ".join(o["tables"]),
                    _r(o["observed"].get("cpu", {}).get("share")), _r(o["observed"].get("memory", {}).get("share")),
                    "", o["ranges_text"], o["partial"]["text"] if o["partial"] else ""])
    for sid in no_sidecars:
        w.writerow([sid, "", "TOTAL"] + [""] * 13 + ["ASM enabled, but no sidecar rows are printed: sidecar cost unknown (not 0)"])
    return buf.getvalue()


def view_csv(cmp: dict, wi: dict) -> str:
    """The pair the page shows, as CSV: the ASM-on scenario's services with sidecars (part ``per service``), each
    scenario's totals with its per-1K figures (``total``), the on - off difference per 1K (``on - off``: empty
    figures and the reasons when the pair is not comparable) and the what-if rows (``what-if: add ASM``,
    ``what-if: remove ASM``: per-site requests before, after and the change). Requests at one site carrying traffic
    (``overhead``); ``sidecar_replicas`` and ``replica_range`` say what a service's sidecar is counted at and the
    min-max range it came from, the total line's ``replica_range`` every such row. CPU in cores, memory in GiB,
    per 1K = per 1,000 of the load unit (the load per site)."""
    buf = io.StringIO()
    w = csv_writer(buf)
    head = ["part", "scenario", "asm", "component", "service", "cpu_sidecar_cores", "cpu_total_cores", "cpu_sidecar_share_percent",
            "mem_sidecar_gib", "mem_total_gib", "mem_sidecar_share_percent", "cpu_total_per_1k_cores", "cpu_sidecar_per_1k_cores",
            "mem_total_per_1k_gib", "mem_sidecar_per_1k_gib", "observed_cpu_sidecar_share_percent",
            "observed_memory_sidecar_share_percent", "load", "load_unit", "cpu_before_cores", "cpu_after_cores", "cpu_delta_cores",
            "mem_before_gib", "mem_after_gib", "mem_delta_gib", "sidecar_replicas", "replica_range", "sources", "note"]
    w.writerow(head)

    def row(**kv):
        w.writerow([kv.get(h, "") if kv.get(h) is not None else "" for h in head])

    a, b = cmp["on"], cmp["off"]
    left_out = (a["partial"] or {}).get("services", [])
    for v in a["services"]:
        row(part="per service", scenario=a["scenario"], asm=a["asm"], component=v["component"], service=v["service"],
            cpu_sidecar_cores=v["cpu_sidecar"], cpu_total_cores=v["cpu_total"], cpu_sidecar_share_percent=_r(v["cpu_share"]),
            mem_sidecar_gib=v["mem_sidecar"], mem_total_gib=v["mem_total"], mem_sidecar_share_percent=_r(v["mem_share"]),
            observed_cpu_sidecar_share_percent=_r(v["observed_cpu_share"]),
            observed_memory_sidecar_share_percent=_r(v["observed_memory_share"]), load=a["load"], load_unit=a["unit"],
            sidecar_replicas=v["replicas_sidecar"], replica_range=_range_text(v),
            sources=" ".join(v["sources"]), note="excluded rows" if v["service"] in left_out else "")
    for o in (a, b):
        row(part="total", scenario=o["scenario"], asm=o["asm"], service="TOTAL", cpu_sidecar_cores=o["cpu_sidecar"],
            cpu_total_cores=o["cpu_total"], cpu_sidecar_share_percent=_r(o["cpu_share"]), mem_sidecar_gib=o["mem_sidecar"],
            mem_total_gib=o["mem_total"], mem_sidecar_share_percent=_r(o["mem_share"]),
            cpu_total_per_1k_cores=_r(o["cpu_total_per_1k"]), cpu_sidecar_per_1k_cores=_r(o["cpu_sidecar_per_1k"]),
            mem_total_per_1k_gib=_r(o["mem_total_per_1k"]), mem_sidecar_per_1k_gib=_r(o["mem_sidecar_per_1k"]),
            observed_cpu_sidecar_share_percent=_r(o["observed"].get("cpu", {}).get("share")),
            observed_memory_sidecar_share_percent=_r(o["observed"].get("memory", {}).get("share")),
            load=o["load"], load_unit=o["unit"], replica_range=o["ranges_text"], sources=" ".join(o["tables"]),
            note=((o["partial"]["text"] if o["partial"] else "") + f" load: {o['load_how']}").strip())
    d = cmp["diff"]
    row(part="on - off", scenario=f"{a['scenario']} - {b['scenario']}", cpu_total_per_1k_cores=_r(d["cpu_total_per_1k"]),
        cpu_sidecar_per_1k_cores=_r(d["cpu_sidecar_per_1k"]), mem_total_per_1k_gib=_r(d["mem_total_per_1k"]),
        mem_sidecar_per_1k_gib=_r(d["mem_sidecar_per_1k"]), load_unit=a["unit"],
        note="comparable: same call model and deployment mode" if cmp["comparable"]
        else "not comparable: " + "; ".join(cmp["not_comparable"]))
    for change, x in wi.items():
        row(part=f"what-if: {change} ASM", scenario=x["scenario"], load=x["load"], load_unit=x["unit"],
            cpu_before_cores=x["cpu_before"], cpu_after_cores=x["cpu_after"], cpu_delta_cores=x["cpu_delta"],
            mem_before_gib=x["mem_before"], mem_after_gib=x["mem_after"], mem_delta_gib=x["mem_delta"],
            note=f"per site, requests; sidecars sized from {x['source']}" if change == "add" and x["source"] else "per site, requests")
    return buf.getvalue()


def chart(ov: list[dict]) -> dict:
    """A Vega-Lite spec of the sidecar share (%) of requested CPU and memory per scenario of ``overview``; a partial
    scenario shows its share over its complete services, so marked."""
    values = []
    for o in ov:
        for m, label in (("cpu_share", "CPU request"), ("mem_share", "memory request")):
            v = o[m] if o[m] is not None else o.get(m + "_complete")
            if v is not None:
                values.append({"scenario": o["scenario"] + (" (partial: complete services only)" if o["partial"] else ""),
                               "what": label, "share": round(v, 2)})
    return {"$schema": "https://vega.github.io/schema/vega-lite/v6.json",
            "description": "Sidecar share of requested CPU and memory per ASM-enabled scenario",
            "width": "container", "height": 26 * max(1, len(ov)), "data": {"values": values},
            "mark": {"type": "bar", "tooltip": True},
            "encoding": {"y": {"field": "scenario", "type": "nominal", "title": None, "sort": None},
                         "yOffset": {"field": "what"},
                         "x": {"field": "share", "type": "quantitative", "title": "Sidecar share (%)"},
                         "color": {"field": "what", "type": "nominal", "title": None}}}


def compute_web(bundle: dict, params: dict) -> tuple:
    """(overview, compare, whatif, inputs) of the form's strings (``params``). Raises AsmError."""
    d = asm.defaults(bundle)
    on, off = params.get("on") or d["on"], params.get("off") or d["off"]
    cmp = asm.compare(bundle, on, off)
    wi = asm.whatif(bundle, on, off, params.get("load") or None)
    return asm.overview(bundle), cmp, wi, {"on": on, "off": off, "load": params.get("load") or ""}


def run_web(bundle: dict, params: dict) -> dict:
    """The ASM calculator for ``calculators.catalogue.run``: form strings in, result dict out (HTML, chart,
    inputs, and two CSV downloads: the comparison shown, and the overview of every scenario). Raises AsmError."""
    ov, cmp, wi, i = compute_web(bundle, params)
    on, off = i["on"], i["off"]
    return {"html": to_html(ov, cmp, wi, asm.asm_without_sidecars(bundle)), "chart": chart(ov), "inputs": i,
            "downloads": {"csv": {"text": lambda: view_csv(cmp, wi), "mime": "text/csv", "filename": f"asm-{on}-vs-{off}.csv"},
                          "overview": {"text": lambda: to_csv(ov, asm.asm_without_sidecars(bundle)), "mime": "text/csv",
                                       "filename": "asm-overview-every-scenario.csv"}}}


def report_web(bundle: dict, params: dict) -> dict:
    """The report (``calculators.report``) of the result ``run_web`` gives. Raises AsmError."""
    ov, cmp, wi, i = compute_web(bundle, params)
    return report_of(ov, cmp, wi, asm.asm_without_sidecars(bundle), i, bundle)


def report_of(ov: list[dict], cmp: dict, wi: dict, no_sidecars: list[str], inputs: dict, bundle: dict) -> dict:
    """The report (``calculators.report``) of the ASM overhead calculator: ``overview``, ``compare``, ``whatif`` and
    the ASM-enabled scenarios without sidecar rows, for ``inputs`` ({on, off, load})."""
    from . import report
    docs, sections = report.doc_names(bundle), report.sections(bundle)
    unit = cmp["on"]["unit"]
    inp = [["ASM-on scenario", inputs["on"], None, cmp["on"]["title"]], ["ASM-off scenario", inputs["off"], None, cmp["off"]["title"]],
           ["What-if load, total", inputs.get("load") or None, unit, "each scenario's own load" if not inputs.get("load") else ""]]
    cols = [report.col("Scenario"), report.col("Component"), report.col("Service"), report.col("Sidecar CPU request", "cores"), report.col("All CPU request", "cores"),
            report.col("Sidecar share of CPU request", "%"), report.col("Sidecar memory request", "GiB"), report.col("All memory request", "GiB"),
            report.col("Sidecar share of memory request", "%"), report.col("Observed sidecar share of CPU", "%"),
            report.col("Observed sidecar share of memory", "%"), report.col("Load per site"), report.col("Load unit"), report.col("Sidecar replicas", "pods"),
            report.col("Replica range (counted at the max end)"), report.col("Partial")]
    rows, sources = [], []
    for o in ov:
        for v in o["services"]:
            rows.append([o["scenario"], v["component"], v["service"], v["cpu_sidecar"], v["cpu_total"], v["cpu_share"],
                         v["mem_sidecar"], v["mem_total"], v["mem_share"], v["observed_cpu_share"], v["observed_memory_share"],
                         o["load"], o["unit"], v["replicas_sidecar"],
                         f'{v["replica_range"]["min"]}-{v["replica_range"]["max"]}' if v["replica_range"] else None, "excluded rows" if v["partial"] else None])
            for src in v["sources"]:
                table, row = src.split("/", 1)
                sources.append([f"{o['scenario']}: {v['service']}", docs.get(o["doc"], o["doc"]), sections.get(o["scenario"]),
                                table, int(row) if row.isdigit() else row, None, "replicas and requests", None, None])
    tcols = [report.col("Scenario"), report.col("What"), report.col("Sidecar CPU request", "cores"), report.col("All CPU request", "cores"),
             report.col("Sidecar share of CPU request", "%"), report.col("Sidecar memory request", "GiB"), report.col("All memory request", "GiB"),
             report.col("Sidecar share of memory request", "%"), report.col("Note")]
    trows = [[o["scenario"], "TOTAL, one site carrying traffic", o["cpu_sidecar"], o["cpu_total"], o["cpu_share"], o["mem_sidecar"],
              o["mem_total"], o["mem_share"], " ".join(x for x in (o["ranges_text"], o["partial"]["text"] if o["partial"] else "") if x)
              or None] for o in ov]
    for sid in no_sidecars:
        trows.append([sid, "TOTAL", None, None, None, None, None, None, "ASM enabled, but no sidecar rows are printed: sidecar cost unknown (not 0)"])
    for key, label, u in (("cpu_total_per_1k", "CPU request per 1K of load", "cores"), ("mem_total_per_1k", "memory request per 1K of load", "GiB"),
                          ("cpu_sidecar_per_1k", "sidecar CPU request per 1K of load", "cores"),
                          ("mem_sidecar_per_1k", "sidecar memory request per 1K of load", "GiB")):
        trows.append([f"{inputs['on']} - {inputs['off']}", f"{label} ({u}): on {_g(cmp['on'][key])}, off {_g(cmp['off'][key])}",
                      None, None, None, None, None, None,
                      "not comparable" if not cmp["comparable"] else f"difference {_g(cmp['diff'][key])} {u}"])
    for change, w in wi.items():
        trows.append([w["scenario"], f"what-if: {change} sidecars at {w['load']:g} {w['unit']}", w["cpu_before"], w["cpu_after"], None,
                      w["mem_before"], w["mem_after"], None, f"per site: CPU {w['cpu_delta']:+g} cores, memory {w['mem_delta']:+g} GiB"])
    warnings = [["not comparable", x] for x in cmp["not_comparable"]]
    warnings += [["partial", f"{o['scenario']}: {o['partial']['text']}"] for o in ov if o["partial"]]
    warnings += [["replica ranges", f"{o['scenario']}: {o['ranges_text']}"] for o in ov if o["ranges"]]
    warnings += [["no sidecar rows", f"{sid}: ASM enabled, but no sidecar rows are printed; sidecar cost unknown (not 0)"] for sid in no_sidecars]
    warnings += [["difference between the runs", f"{d['what']}: {d['on'] or 'not stated'} against {d['off'] or 'not stated'}"]
                 for d in cmp["differences"] if d["differs"]]
    method = [["Overhead", "Per scenario and service, the sidecars' requested CPU and memory (replicas x per-container request) "
               "as a share of everything the scenario's resource tables request, at one site carrying traffic (as the product "
               "pages and the footprint calculator count it); a replica count printed as a min-max range counts at its max "
               "end, the most pods the benchmark's autoscaler could run at its load. Observed share where the guide measures "
               "sidecars, at the first site carrying traffic."],
              ["Comparison", "ASM-on against ASM-off per 1K of load, like for like only: when both runs share the call model "
               "and the deployment mode; otherwise not comparable, with the differences listed."],
              ["What-if", "Through the footprint calculator: sidecars added to the ASM-off scenario (sized from the ASM-on "
               "one) and removed from the ASM-on one, at the load given."]]
    method += [["Istio reference", f"Istio {v}: {cpu} vCPU and {mem} per 1,000 requests per second through a proxy ({url}); "
                "a labelled reference only"] for v, cpu, mem, url in asm.ISTIO_REFERENCE]
    return report.build("asm", f"ASM overhead: {inputs['on']} against {inputs['off']}",
                 f"Sidecar share of requested CPU and memory for every ASM-enabled scenario; {inputs['on']} (ASM on) "
                 f"against {inputs['off']} (ASM off)", "asm-overhead.xlsx", inputs=inp,
                 results={"columns": cols, "rows": rows}, totals={"columns": tcols, "rows": trows},
                 warnings=warnings, method=method, sources=sources)


def _g(v) -> str:
    """A figure of the report's comparison rows: 4 significant digits, or an em dash."""
    return "—" if v is None else f"{v:.4g}"


catalogue.register("asm", run_web, AsmError, report_web)
