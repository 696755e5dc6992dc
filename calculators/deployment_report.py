"""The "Your deployment" calculator's result as the page shows it (HTML, chart), its CSV, its report (XLSX, print) and
its registration (``run_web``, ``report_web``); the computation is ``calculators.deployment``.

Standard library only (runs in Pyodide). Form parameters (strings as typed): ``product`` (document id), ``call_model``
(its id), ``load`` (the load your site carried when observed, product's unit), ``objects`` (``kubectl get
deployments,statefulsets,hpa -o json`` text; the page turns ``-o yaml`` into JSON first), ``top`` (``kubectl top pods
--containers`` text), ``mapping`` (JSON ``{"namespace/name": "service"}``), ``kubernetes`` ('1.33' or '1.32'), and for
scaling your own: ``target_load`` (total), ``target_sites``, ``redundancy``, ``node_cores``, ``node_mem``. None of
these is ever written into the address: the page keeps ``objects``, ``top`` and ``mapping`` out of the permalink
(``data-no-permalink``) and exports them only as a file the reader asks for.
"""
from __future__ import annotations

import io
from fractions import Fraction

from . import catalogue, deployment as dp
from .formatting import csv_writer, escape, fmt

SHOWN_WORKLOADS = 200
"""Most workloads listed in the page (all are in the CSV); a Benchmark Atlas limit that keeps 500 pods' result light."""
SEVERITY_CLASS = {"critical": "atlas-sev-critical", "warning": "atlas-sev-warning", "ok": "atlas-sev-ok", "good": "atlas-sev-ok"}

METHOD = (
    "Your site: what you paste is one site's cluster carrying the load you give. Requested = replicas x each running "
    "container's request (init containers listed, not counted; native sidecars counted); used = kubectl top summed over "
    "the workload's pods. Per 1K = per 1,000 of the load per site. Workloads match the atlas's services through the names "
    "the guides print (the service pages' registry), a release prefix dropped word by word; the rest can be mapped by "
    "hand. The vendor's comparable runs: same product and call model (the footprint calculator's definition), requested "
    "CPU as the home chart counts it, cores used as the service pages count them. Over target: the HPA controller's own "
    "rule (the over-target calculator's), usage and requests summed over the pods with metrics. Far less than requested: "
    "your per-pod request against your use divided by the vendor's ratio of use to request for the service (the "
    "comparable run nearest your load), with Robusta KRR's severity thresholds (CPU 0.5 / 0.25 / 0.1 cores, memory "
    "500 / 250 / 100 MiB). Scaling: your rows as a run, sized by the footprint calculator's rules and packing.")


def defaults(bundle: dict) -> dict:
    """The page's default inputs: the first product with comparable runs, its first call model, the load of its first
    run; nothing pasted (the result then shows the vendor's runs only)."""
    p = dp.products(bundle)[0]
    cm = p["call_models"][0]
    s = next(x for x in bundle["scenarios"] if x["id"] == cm["runs"][0])
    return {"product": p["doc"], "call_model": cm["id"], "load": f"{s['load_per_site']:g}", "kubernetes": "1.33",
            "objects": "", "top": "", "mapping": "", "target_load": "", "target_sites": "", "redundancy": "",
            "node_cores": "", "node_mem": ""}


def _f(x, places: int = 3) -> str:
    return "–" if x is None else fmt(float(x), places)


def _sev(s) -> str:
    if not s:
        return "–"
    return f'<span class="atlas-sev {SEVERITY_CLASS.get(s, "")}" data-severity="{escape(s)}">{escape(s)}</span>'


def compute_web(bundle: dict, params: dict) -> dict:
    """``{"res": deployment.compute result or None (nothing pasted), "request", "runs", "scale": deployment.scale_own
    or None}`` of the form's strings (no product: the page's default product, call model and load). Raises
    DeploymentError."""
    if not (params.get("product") or "").strip():  # no product chosen: the page's defaults (the first product)
        params = {**params, **{k: v for k, v in defaults(bundle).items() if k in ("product", "call_model", "load")}}
    g = lambda k: (params.get(k) or "").strip() if isinstance(params.get(k) or "", str) else params.get(k)
    objects = params.get("objects") or ""
    top = params.get("top") or ""
    req = dp.read_request(bundle, g("product") or None, g("call_model") or None, g("load"), None)
    res = scale = None
    if (objects.strip() if isinstance(objects, str) else objects) or top.strip():
        res = dp.compute(bundle, doc=req["doc"], call_model=req["call_model"], load=req["load"], objects=objects, top=top,
                         mapping=params.get("mapping") or None, kubernetes=g("kubernetes") or None)
        if g("target_load"):
            scale = dp.scale_own(bundle, res, g("target_load"), sites=g("target_sites") or None,
                                 redundancy=g("redundancy") or None, node_cores=g("node_cores") or None,
                                 node_mem_gib=g("node_mem") or None)
    runs_ = res["runs"] if res else dp.comparable_runs(bundle, req["doc"], req["call_model"], req["load"])
    return {"res": res, "request": res["request"] if res else req, "runs": runs_, "scale": scale}


def inputs_of(out: dict, params: dict) -> dict:
    """The inputs shown with a result (and as comment lines of its CSV): never the pasted text, only its size."""
    r = out["request"]
    res = out["res"]
    return {"product": r["doc"], "call_model": r["call_model"], "load": float(r["load"]), "unit": r["unit"],
            "kubernetes": (res or {}).get("request", {}).get("kubernetes") or (params.get("kubernetes") or "1.33"),
            "workloads_read": len(res["workloads"]) if res else 0, "top_rows_read": res["top_rows"] if res else 0,
            "mapped_by_hand": len((res or {}).get("mapping") or {}), "target_load": params.get("target_load") or None,
            "target_sites": params.get("target_sites") or None, "node_cores": params.get("node_cores") or None,
            "node_mem": params.get("node_mem") or None}


# ------------------------------------------------------------------ HTML
def _run_name(out: dict, sid: str) -> str:
    """A vendor run as readers know it: the product and the guide's section (``Policy 3.2.8``)."""
    x = next((r for r in out["runs"] if r["id"] == sid), None)
    return f'{out["request"]["product"]} {x["section"]}' if x and x.get("section") else sid


def _runs_table(out: dict) -> str:
    r = out["request"]
    res = out["res"]
    unit = escape(r["unit"])
    rows = []
    if res:
        t = res["totals"]["yours"]
        rows.append(f'<tr class="atlas-yours"><th scope="row">Your deployment (matched services)</th><td>{_f(r["load"], 0)}</td>'
                    f'<td>{_f(t["per_1k"]["cpu_request"])}</td><td>{_f(t["per_1k"]["cpu_used"])}</td>'
                    f'<td>{_f(t["per_1k"]["mem_request"])}</td><td>{_f(t["per_1k"]["mem_used"])}</td><td></td></tr>')
    for v in (res["totals"]["vendor"] if res else [
            {"run": x["id"], "short_title": x["short_title"], "load_per_site": x["load_per_site"], "asm": x["asm"],
             "cpu_request": dp.per_1k(x["cpu_request"], x["load_per_site"]), "cpu_used": dp.per_1k(x["cpu_used"], x["load_per_site"]),
             "mem_request": dp.per_1k(x["mem_request"], x["load_per_site"]), "without_reading": x["without_reading"],
             "mem_used": dp.per_1k(x["mem_used"], x["load_per_site"]) if x["mem_used"] else None,
             "mem_request_missing": x["mem_request_missing"]}
            for x in out["runs"]]):
        mem_missing = next((x.get("mem_without_reading") for x in out["runs"] if x["id"] == v["run"]), None)
        note = "; ".join(x for x in (
            f'no CPU reading for {len(v["without_reading"])} service(s): used is at least this' if v["without_reading"] else "",
            f'no memory reading for {len(mem_missing)} service(s): memory used is at least this' if mem_missing else "",
            f'no memory request printed for {", ".join(v["mem_request_missing"])}: memory requested is at least this'
            if v["mem_request_missing"] else "") if x)
        rows.append(f'<tr><th scope="row"><a href="../../products/{escape(r["doc"])}/{escape(v["run"])}/">{escape(_run_name(out, v["run"]))}</a>: '
                    f'{escape(v["short_title"])} ({"ASM on" if v["asm"] else "ASM off"})</th><td>{_f(v["load_per_site"], 0)}</td>'
                    f'<td>{_f(v["cpu_request"])}</td><td>{_f(v["cpu_used"])}</td><td>{_f(v["mem_request"])}</td><td>{_f(v.get("mem_used"))}</td>'
                    f'<td>{escape(note)}</td></tr>')
    return ('<div class="atlas-table-wrap"><table class="atlas-data" id="deployment-totals"><caption>Per 1K ' + unit +
            ' at one site: yours and the vendor\'s comparable runs (same product and call model), nearest load first</caption>'
            f'<thead><tr><th>Run</th><th>Load per site ({unit})</th><th>CPU requested (cores per 1K)</th><th>CPU used (cores per 1K)</th>'
            '<th>Memory requested (GiB per 1K)</th><th>Memory used (GiB per 1K)</th><th>Note</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table></div>")


def _services_table(out: dict, res: dict) -> str:
    rows = []
    for s in res["services"]:
        vend = s["vendor"]
        near = vend[0] if vend else None
        rng = lambda k: ("–" if not [v for v in vend if v[k] is not None] else
                         f'{_f(min(v[k] for v in vend if v[k] is not None))} to {_f(max(v[k] for v in vend if v[k] is not None))}')
        page = f'<a href="../../services/{escape(s["page"])}/">{escape(s["display_name"])}</a>' if s.get("page") else escape(s["display_name"])
        miss = f' <span class="atlas-note">(no CPU request: {escape(", ".join(s["missing_requests"][:3]))})</span>' if s["missing_requests"] else ""
        rows.append(f'<tr data-service="{escape(s["service"])}"><th scope="row">{page}{miss}</th><td>{s["pods"]}</td>'
                    f'<td>{_f(s["per_1k"]["cpu_request"])}</td><td>{_f(s["per_1k"]["cpu_used"])}</td>'
                    f'<td>{_f(near["cpu_request"]) if near else "–"}</td><td>{_f(near["cpu_used"]) if near else "–"}</td>'
                    f'<td>{escape(_run_name(out, near["run"])) if near else "not in the comparable runs"}</td><td>{rng("cpu_used")}</td>'
                    f'<td>{_f(s["per_1k"]["mem_request"])}</td><td>{_f(near["mem_request"]) if near else "–"}</td></tr>')
    return ('<div class="atlas-table-wrap"><table class="atlas-data" id="deployment-services"><caption>Per service, per 1K of '
            'load per site (all its running containers, sidecars included)</caption><thead><tr><th>Service</th><th>Pods</th>'
            '<th>Your CPU requested</th><th>Your CPU used</th><th>Vendor CPU requested (nearest run)</th>'
            '<th>Vendor CPU used (nearest run)</th><th>Nearest run</th><th>Vendor CPU used, every comparable run</th>'
            '<th>Your memory requested (GiB)</th><th>Vendor memory requested (GiB, nearest run)</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table></div>")


def _over_table(res: dict) -> str:
    if not res["over_target"]:
        return '<p id="deployment-over-none">No workload pasted has an HPA with a CPU utilization target.</p>'
    rows = []
    for x in res["over_target"]:
        v = x["view"] or {}
        h = x["hpa"]
        desired = "–" if not v else str(v["desired"]) + (f' (max must rise to {v["max_must_rise_to"]})' if v.get("max_must_rise_to") else "")
        rows.append(f'<tr data-workload="{escape(x["key"])}"><th scope="row">{escape(x["key"])}</th><td>{escape(x["service"] or "unmatched")}</td>'
                    f'<td>{x["replicas"]}</td><td>{h.get("min_replicas")}-{h.get("max_replicas")}</td><td>{h["cpu_target"]}</td>'
                    f'<td>{_f(x["reading"], 2)}</td><td>{v.get("hpa_reads", "–")}</td>'
                    f'<td>{fmt(v["usage_ratio"], 4) if v else "–"}</td><td>{desired}</td><td>{_sev(v.get("severity"))}</td>'
                    f'<td>{escape(x["why"] or v.get("controller_note") or "")}</td></tr>')
    return ('<div class="atlas-table-wrap"><table class="atlas-data" id="deployment-over"><caption>HPAs: over, near or under '
            'their CPU target as the HPA controller reads them</caption><thead><tr><th>Workload</th><th>Service</th>'
            '<th>Replicas</th><th>HPA min-max</th><th>Target (%)</th><th>Reading (% of requests)</th><th>HPA reads (whole %)</th>'
            '<th>Ratio</th><th>Desired replicas</th><th>Severity</th><th>Note</th></tr></thead><tbody>' + "".join(rows)
            + "</tbody></table></div>")


def _under_table(out: dict, res: dict) -> str:
    rows = []
    for s in res["services"]:
        u = s["under_use"]
        if not u:
            continue
        for what, unit in (("cpu", "cores"), ("memory", "GiB")):
            x = u.get(what)
            if not x:
                continue
            flag = "far less than requested" if x["far_less"] else ("more than the vendor's ratio would request"
                                                                      if x["current"] < x["recommended"] else "")
            rows.append(f'<tr data-service="{escape(s["service"])}" data-resource="{what}"><th scope="row">{escape(s["display_name"])}</th>'
                        f'<td>{what}</td><td>{_f(x["ratio_yours"] * 100, 1)} %</td><td>{_f(x["ratio_vendor"] * 100, 1)} % '
                        f'({escape(_run_name(out, u["run"]))})</td><td>{_f(x["current"])} {unit}</td><td>{_f(x["recommended"])} {unit}</td>'
                        f'<td>{_sev(x["severity"])}</td><td>{escape(flag)}</td></tr>')
    if not rows:
        return '<p>No matched service has both your use and a vendor reading to compare.</p>'
    return ('<div class="atlas-table-wrap"><table class="atlas-data" id="deployment-under"><caption>Use against request, '
            'per pod: yours beside the vendor\'s ratio</caption><thead><tr><th>Service</th><th>Resource</th>'
            '<th>Your use / request</th><th>Vendor use / request</th><th>Your request per pod</th>'
            '<th>Request at the vendor\'s ratio</th><th>Severity (KRR)</th><th>Flag</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table></div>")


def _unmatched(res: dict) -> str:
    um = res["unmatched"] + res["left_out"]
    if not um:
        return '<p id="deployment-unmatched-none">Every workload matched a service.</p>'
    opts = "".join(f'<option value="{escape(c["service"])}">{escape(c["display_name"])}</option>' for c in res["choices"])
    items = []
    for w in um[:SHOWN_WORKLOADS]:
        cur = res["mapping"].get(w["key"])
        sel = '<option value="">(leave out)</option>' if cur == "" else '<option value="" selected>(not mapped)</option>'
        items.append(f'<li data-workload="{escape(w["key"])}"><label>{escape(w["kind"])} <code>{escape(w["key"])}</code> '
                     f'({w["figures"]["pods"]} pod(s), containers {escape(", ".join(c["name"] for c in w["containers"][:4]))}) '
                     f'<select class="atlas-map" data-map-key="{escape(w["key"])}">{sel}'
                     f'<option value="-">leave out of the comparison</option>{opts}</select></label></li>')
    more = f"<p>{len(um) - SHOWN_WORKLOADS} more in the CSV.</p>" if len(um) > SHOWN_WORKLOADS else ""
    return (f'<p>{len(res["unmatched"])} workload(s) matched no service of this product by name: map each by hand (your '
            'mapping is exported with your inputs, never put in the address).</p><ul id="deployment-unmatched">'
            + "".join(items) + "</ul>" + more)


def _scale_html(out: dict) -> str:
    sc = out["scale"]
    if sc is None:
        return ('<p id="deployment-scale-none">Give a target load to size your own deployment with the footprint '
                "calculator's rules, beside the vendor's comparable runs.</p>")
    y, v = sc["yours"], sc["vendor"]
    unit = escape(y["inputs"]["unit"])
    def row(label, r):
        s = r["totals"]["site"]["after"]
        d = r["totals"]["deployment"]
        return (f'<tr><th scope="row">{label}</th><td>{_f(s["cpu_request"], 1)}</td><td>{_f(s["mem_request"], 1)}</td>'
                f'<td>{r["nodes_per_site"] if r["nodes_per_site"] is not None else "–"}</td><td>{_f(d["cpu_request"], 1)}</td>'
                f'<td>{"partial: at least" if r["partial"] else ""}</td></tr>')
    rows = row("From your deployment", y)
    if v is not None:
        rows += row(f'From the vendor\'s comparable runs ({escape(", ".join(v["evidence"]["runs_used"]))})', v)
    err = f'<p class="atlas-note">Vendor runs: {escape(sc["vendor_error"])}</p>' if sc["vendor_error"] else ""
    warn = "".join(f"<li>{escape(w)}</li>" for w in y["warnings"])
    return (f'<p>Sized for {_f(y["inputs"]["target_load"], 0)} {unit} on {y["inputs"]["sites"]} site(s) '
            f'({_f(y["scale_factor"], 3)} x your load per site).</p><div class="atlas-table-wrap"><table class="atlas-data" '
            'id="deployment-scale"><thead><tr><th>Sized from</th><th>CPU requested per site (cores)</th>'
            '<th>Memory requested per site (GiB)</th><th>Worker nodes per site</th><th>CPU requested, all sites (cores)</th>'
            f'<th>Note</th></tr></thead><tbody>{rows}</tbody></table></div>{err}'
            + (f"<ul>{warn}</ul>" if warn else ""))


def _problems(res: dict) -> str:
    ps = res["problems"]
    if not ps and not res["top_unplaced"]:
        return ""
    items = "".join(f'<li><code>{escape(p["where"])}</code>: {escape(p["message"])}</li>' for p in ps[:SHOWN_WORKLOADS])
    if res["top_unplaced"]:
        items += (f'<li>{len(res["top_unplaced"])} kubectl top line(s) belong to no workload of kubectl get (e.g. line '
                  f'{res["top_unplaced"][0]["line"]}, pod {escape(res["top_unplaced"][0]["pod"])}): read as workloads of their own</li>')
    return (f'<details class="admonition warning" open id="deployment-problems"><summary>{len(ps)} problem(s) in what you pasted: '
            'the other rows are used</summary><ul>' + items + "</ul></details>")


def result_html(out: dict) -> str:
    """The page's result of ``compute_web``'s output ``out``."""
    r = out["request"]
    res = out["res"]
    head = (f'<p class="atlas-headline" id="deployment-headline">{escape(r["product"])}, {escape(r["call_model_name"])}, '
            f'{_f(r["load"], 0)} {escape(r["unit"])} at your site: ')
    if res is None:
        return (head + f'{len(out["runs"])} comparable run(s) of the vendor. Paste what kubectl prints to see where you '
                "stand.</p>" + _runs_table(out) + f'<p class="atlas-note">{escape(METHOD)}</p>')
    n, um = len(res["workloads"]), len(res["unmatched"])
    ot = [x for x in res["over_target"] if x["view"]]
    crit = sum(1 for x in ot if x["view"]["severity"] == "critical")
    far = sum(1 for s in res["services"] if s["under_use"] and any((s["under_use"].get(k) or {}).get("far_less") for k in ("cpu", "memory")))
    t = res["totals"]["yours"]["per_1k"]
    head += (f'{n} workload(s) read, {n - um - len(res["left_out"])} matched to {len(res["services"])} service(s), {um} unmatched; '
             f'{_f(t["cpu_request"])} cores requested and '
             + (f'{_f(t["cpu_used"])} used' if t["cpu_used"] is not None else "use not read (no kubectl top pasted)")
             + f' per 1K {escape(r["unit"])}; '
             f'{crit} HPA(s) critical; {far} service(s) using far less than they request.</p>')
    return "".join([
        head, _problems(res),
        "<h3>Where you stand</h3>", _runs_table(out), _services_table(out, res), _points_note(res),
        "<h3>Over their HPA target</h3>", _over_table(res),
        "<h3>Using far less than requested</h3>", _under_table(out, res),
        '<h3 id="deployment-unmatched-heading">Unmatched workloads</h3>', _unmatched(res),
        "<h3>Scale your own</h3>", _scale_html(out),
        f'<p class="atlas-note">{escape(METHOD)}</p>'])


def _points_note(res: dict) -> str:
    """How to see this result on the home and service pages' charts: the exported file carries its points."""
    return ('<p class="atlas-note" id="deployment-points-note">On the site\'s own charts: <strong>Export inputs</strong> '
            "writes this result's points into the file with your inputs (the home chart's CPU requested per 1K, each "
            "matched service's cores used); <strong>Add my deployment…</strong> beside the chart on the home page or a "
            "service page reads that file in your browser and draws them, marked “yours”. Nothing is uploaded.</p>")


# ------------------------------------------------------------------ chart
def result_chart(bundle: dict, out: dict) -> dict:
    """Vega-Lite: the home chart (CPU cores requested per 1K of load against load per site, every run) with your
    deployment as one more point marked as yours, and under it one panel per matched service (cores used per 1K)."""
    res = out["res"]
    pts = dp.efficiency_points(bundle, res)
    layer_home = {
        "title": "CPU cores requested per 1K of load (the home chart), yours marked",
        "width": "container", "height": 260, "data": {"values": pts},
        "mark": {"type": "point", "filled": True, "size": 80, "tooltip": True},
        "encoding": {
            "x": {"field": "load", "type": "quantitative", "scale": {"type": "log"}, "title": "Load per site (log scale)"},
            "y": {"field": "efficiency", "type": "quantitative", "title": "CPU cores requested per 1K of load"},
            "color": {"field": "product", "type": "nominal", "title": "Product"},
            "shape": {"field": "who", "type": "nominal", "title": "Point", "scale": {"domain": ["vendor run", "yours"],
                                                                                     "range": ["circle", "diamond"]}},
            "size": {"condition": {"test": "datum.who === 'yours'", "value": 260}, "value": 70},
            "tooltip": [{"field": "scenario", "title": "Run"}, {"field": "load", "title": "Load per site", "format": ","},
                        {"field": "efficiency", "title": "Cores per 1K"}]}}
    spec = {"$schema": "https://vega.github.io/schema/vega-lite/v6.json",
            "description": "CPU cores per 1K of load for every vendor run and your deployment; per matched service, cores used per 1K.",
            "vconcat": [layer_home],
            # the home chart colours by product, the service panels by whose point: each keeps its own scales and legends
            "resolve": {"scale": {"color": "independent", "shape": "independent", "size": "independent"},
                        "legend": {"color": "independent", "shape": "independent", "size": "independent"}}}
    if res is not None and res["services"]:
        sp = dp.service_points(bundle, res)
        spec["vconcat"].append({
            "title": "Cores used per 1K of load, per matched service (yours marked)",
            "data": {"values": sp},
            "facet": {"field": "service", "type": "nominal", "title": None}, "columns": 3,
            "spec": {"width": 180, "height": 120, "mark": {"type": "point", "filled": True, "tooltip": True},
                     "encoding": {"x": {"field": "load", "type": "quantitative", "title": "Load per site"},
                                  "y": {"field": "per_1k", "type": "quantitative", "title": "Cores used per 1K"},
                                  "color": {"field": "who", "type": "nominal", "title": "Point",
                                            "scale": {"domain": ["your call model's runs", "other runs", "yours"]}},
                                  "shape": {"field": "who", "type": "nominal", "scale": {"domain": ["your call model's runs", "other runs", "yours"],
                                                                                         "range": ["circle", "square", "diamond"]}},
                                  "size": {"condition": {"test": "datum.who === 'yours'", "value": 160}, "value": 40},
                                  "tooltip": [{"field": "run"}, {"field": "load", "format": ","}, {"field": "per_1k"}]}},
            "resolve": {"scale": {"y": "independent"}}})
    return spec


# ------------------------------------------------------------------ CSV and report
CSV_COLS = ["kind", "service", "workload", "run", "load_per_site", "pods", "cpu_request_per_1k", "cpu_used_per_1k",
            "mem_request_per_1k_gib", "mem_used_per_1k_gib", "hpa_target_percent", "hpa_reads_percent", "desired_replicas",
            "max_must_rise_to", "severity", "note"]


def _c(x):
    return None if x is None else round(float(x), 6)


def result_csv(out: dict) -> str:
    """The result as CSV (CSV_COLS): your total and each comparable run's; per service yours and each run's; every HPA
    row; every workload with how it matched."""
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(CSV_COLS)
    res = out["res"]
    blank = dict.fromkeys(CSV_COLS)
    def put(**kw):
        w.writerow([{**blank, **kw}[c] for c in CSV_COLS])
    if res:
        t = res["totals"]["yours"]["per_1k"]
        put(kind="total", run="yours", load_per_site=_c(out["request"]["load"]), cpu_request_per_1k=_c(t["cpu_request"]),
            cpu_used_per_1k=_c(t["cpu_used"]), mem_request_per_1k_gib=_c(t["mem_request"]), mem_used_per_1k_gib=_c(t["mem_used"]))
    for r in out["runs"]:
        put(kind="total", run=r["id"], load_per_site=r["load_per_site"], cpu_request_per_1k=_c(dp.per_1k(r["cpu_request"], r["load_per_site"])),
            cpu_used_per_1k=_c(dp.per_1k(r["cpu_used"], r["load_per_site"])),
            mem_request_per_1k_gib=_c(dp.per_1k(r["mem_request"], r["load_per_site"])),
            note=("used: at least (no reading for " + ", ".join(r["without_reading"]) + ")") if r["without_reading"] else None)
    if res:
        for s in res["services"]:
            put(kind="service", service=s["service"], run="yours", load_per_site=_c(out["request"]["load"]), pods=s["pods"],
                cpu_request_per_1k=_c(s["per_1k"]["cpu_request"]), cpu_used_per_1k=_c(s["per_1k"]["cpu_used"]),
                mem_request_per_1k_gib=_c(s["per_1k"]["mem_request"]), mem_used_per_1k_gib=_c(s["per_1k"]["mem_used"]))
            for v in s["vendor"]:
                put(kind="service", service=s["service"], run=v["run"], load_per_site=v["load_per_site"],
                    cpu_request_per_1k=_c(v["cpu_request"]), cpu_used_per_1k=_c(v["cpu_used"]),
                    mem_request_per_1k_gib=_c(v["mem_request"]), mem_used_per_1k_gib=_c(v["mem_used"]),
                    note="replicas printed as a range, read at its max end" if v["range"] else None)
        for x in res["over_target"]:
            v = x["view"] or {}
            put(kind="hpa", service=x["service"], workload=x["key"], pods=x["replicas"], hpa_target_percent=x["target"],
                hpa_reads_percent=v.get("hpa_reads"), desired_replicas=v.get("desired"), max_must_rise_to=v.get("max_must_rise_to"),
                severity=v.get("severity"), note=x["why"])
        for wl in res["workloads"]:
            put(kind="workload", service=(wl["service"] or {}).get("service"), workload=wl["key"], pods=wl["figures"]["pods"],
                note=_workload_note(wl["matched_by"]))
    return buf.getvalue()


def _workload_note(matched_by: str | None) -> str:
    """The CSV's note on a workload: how it met its service ('matched by name', 'matched by your mapping'), 'left out
    by your mapping' (mapped to nothing: read, not counted), or 'unmatched'."""
    if not matched_by:
        return "unmatched"
    return matched_by if matched_by == dp.LEFT_OUT else f"matched by {matched_by}"


def run_web(bundle: dict, params: dict) -> dict:
    """The calculator for ``catalogue.run``: form strings in, result out (HTML, chart, inputs, CSV, and ``points``:
    your deployment as points of the home and service pages' charts, ``deployment.own_points``, or None when nothing
    is pasted; "Export inputs" writes them into its file). Raises DeploymentError."""
    out = compute_web(bundle, params)
    return {"html": result_html(out), "chart": result_chart(bundle, out), "inputs": inputs_of(out, params),
            "points": dp.own_points(bundle, out["res"]) if out["res"] is not None else None,
            "downloads": {"csv": {"text": lambda: result_csv(out), "mime": "text/csv", "filename": "your-deployment.csv"}}}


EXPORT_FORMAT = "benchmark-atlas-deployment-inputs"
"""The ``format`` of the file the page's "Export inputs" writes (docs/assets/js/deployment.js) and ``export_file``."""


def export_file(bundle: dict, params: dict, objects_text: str) -> dict:
    """The file the page's "Export inputs" writes, for the command line: ``{"format": EXPORT_FORMAT, "version": 1,
    "inputs": the form's fields (the workloads as given, ``objects_text``, YAML staying YAML), "points":
    deployment.own_points of the result, or None when nothing is pasted}``. The page's "Import inputs" reads it, and
    "Add my deployment..." beside the home and service charts draws its points. Raises DeploymentError."""
    out = compute_web(bundle, params)
    inputs = {k: str(v) for k, v in params.items() if k not in ("objects", "calc") and v is not None}
    inputs["objects_text"] = objects_text
    return {"format": EXPORT_FORMAT, "version": 1, "inputs": inputs,
            "points": dp.own_points(bundle, out["res"]) if out["res"] is not None else None}


def report_web(bundle: dict, params: dict) -> dict:
    """The report (``calculators.report``) of the result ``run_web`` gives: the inputs (not the pasted text), the CSV's
    rows, your totals beside each run's, the problems as warnings, the method, the runs' sources. Raises
    DeploymentError."""
    from . import report
    out = compute_web(bundle, params)
    inp = [[k, v, None, ""] for k, v in inputs_of(out, params).items()]
    text = result_csv(out).splitlines()
    import csv as _csv
    rows = list(_csv.reader(text))[1:]
    cols = [report.col(c) for c in CSV_COLS]
    res = out["res"]
    tcols = [report.col("Run"), report.col("Load per site"), report.col("CPU requested per 1K", "cores"),
             report.col("CPU used per 1K", "cores")]
    trows = [[r[3], r[4], r[6], r[7]] for r in rows if r[0] == "total"]
    warnings = [["input problem", f"{p['where']}: {p['message']}"] for p in (res or {}).get("problems", [])]
    warnings += [["unmatched", f"{w['key']}: matched no service"] for w in (res or {}).get("unmatched", [])]
    docs, sections = report.doc_names(bundle), report.sections(bundle)
    doc = out["request"]["doc"]
    sources = [[f"{_run_name(out, r['id'])} (comparable run {r['id']})", docs.get(doc, doc), sections.get(r["id"]), t, None,
                r["short_title"], "resources and utilization", None, None] for r in out["runs"] for t in r["tables"]]
    return report.build("deployment", "Your deployment beside the vendor's runs",
                        f"{out['request']['product']}, {out['request']['call_model_name']}, {float(out['request']['load']):g} "
                        f"{out['request']['unit']} at your site", "your-deployment.xlsx", inputs=inp,
                        results={"columns": cols, "rows": [[None if x == "" else x for x in r] for r in rows]},
                        totals={"columns": tcols, "rows": trows}, warnings=warnings,
                        method=[["Method", METHOD], ["HPA", "The over-target calculator's rule (calculators/overtarget.py)."]],
                        sources=sources)


FIELDS = {"Product": "product", "Call model": "call_model", "Load observed": "load", "Workloads": "objects",
          "kubectl top": "top", "Mapping": "mapping", "Kubernetes version": "kubernetes", "Target load": "target_load",
          "Number of sites carrying traffic": "target_sites", "Node CPU": "node_cores", "Node memory": "node_mem"}
"""The names the calculator's messages start with, and the form parameter each is about."""

catalogue.register("deployment", run_web, dp.di.DeploymentInputError, report_web, FIELDS)


# ------------------------------------------------------------------ the command line's view (calculators.__main__)
def _num(x, places: int = 6):
    return None if x is None else round(float(x), places)


def summary(bundle: dict, params: dict) -> dict:
    """The figures of the result ``run_web`` gives for ``params``, as plain numbers (cores, GiB per 1K of load per
    site; the HPA rows; the workloads unmatched; the scaling totals): what the command line prints, and what a test
    compares with the page. Raises DeploymentError."""
    out = compute_web(bundle, params)
    res, r = out["res"], out["request"]
    s = {"request": {"product": r["doc"], "call_model": r["call_model"], "load": _num(r["load"]), "unit": r["unit"]},
         "runs": [{"run": x["id"], "load_per_site": x["load_per_site"],
                   "cpu_request_per_1k": _num(dp.per_1k(x["cpu_request"], x["load_per_site"])),
                   "cpu_used_per_1k": _num(dp.per_1k(x["cpu_used"], x["load_per_site"]))} for x in out["runs"]]}
    if res is None:
        return s
    t = res["totals"]["yours"]
    s["yours"] = {k: _num(v) for k, v in t["per_1k"].items()}
    s["services"] = {x["service"]: {"pods": x["pods"], **{k: _num(v) for k, v in x["per_1k"].items()},
                                    "krr_cpu": ((x["under_use"] or {}).get("cpu") or {}).get("severity")}
                     for x in res["services"]}
    s["hpa"] = {x["key"]: {"target": x["target"], "reads": (x["view"] or {}).get("hpa_reads"),
                           "desired": (x["view"] or {}).get("desired"), "max_must_rise_to": (x["view"] or {}).get("max_must_rise_to"),
                           "severity": (x["view"] or {}).get("severity"), "why": x["why"]} for x in res["over_target"]}
    s["unmatched"] = [w["key"] for w in res["unmatched"]]
    s["problems"] = [f"{p['where']}: {p['message']}" for p in res["problems"]]
    if out["scale"]:
        y, v = out["scale"]["yours"], out["scale"]["vendor"]
        s["scale"] = {"yours": {"cpu_request_site": y["totals"]["site"]["after"]["cpu_request"],
                                "mem_request_site": y["totals"]["site"]["after"]["mem_request"], "nodes_per_site": y["nodes_per_site"]},
                      "vendor": None if v is None else {"cpu_request_site": v["totals"]["site"]["after"]["cpu_request"],
                                                        "mem_request_site": v["totals"]["site"]["after"]["mem_request"],
                                                        "nodes_per_site": v["nodes_per_site"], "runs_used": v["evidence"]["runs_used"]}}
    return s


def summary_text(s: dict) -> str:
    """``summary`` as the command line's table text."""
    r = s["request"]
    lines = [f"{r['product']} {r['call_model']} at {r['load']:g} {r['unit']} at your site"]
    if "yours" in s:
        y = s["yours"]
        lines.append(f"yours: {y['cpu_request']} cores requested, {y['cpu_used']} used, {y['mem_request']} GiB requested, "
                     f"{y['mem_used']} GiB used per 1K {r['unit']}")
    for x in s["runs"]:
        lines.append(f"{x['run']} at {x['load_per_site']:g}: {x['cpu_request_per_1k']} cores requested, {x['cpu_used_per_1k']} used per 1K")
    for name, v in (s.get("services") or {}).items():
        lines.append(f"  {name}: {v['pods']} pods, {v['cpu_request']} requested, {v['cpu_used']} used per 1K; KRR {v['krr_cpu']}")
    for k, v in (s.get("hpa") or {}).items():
        lines.append(f"  HPA {k}: target {v['target']} %, reads {v['reads']}, desired {v['desired']}"
                     + (f", max must rise to {v['max_must_rise_to']}" if v["max_must_rise_to"] else "") + f", {v['severity'] or v['why']}")
    if s.get("unmatched"):
        lines.append("unmatched: " + ", ".join(s["unmatched"]))
    for p in s.get("problems") or []:
        lines.append("problem: " + p)
    if s.get("scale"):
        lines.append(f"scaled from yours: {s['scale']['yours']}")
        lines.append(f"from the vendor's runs: {s['scale']['vendor']}")
    return "\n".join(lines)
