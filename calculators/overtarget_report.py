"""Render an over-target result (``calculators.overtarget``) as HTML, CSV and the report, and register the
calculator (``run_web``, ``report_web``: the form's strings in). Every text is HTML-escaped."""
from __future__ import annotations

import io

from . import catalogue, overtarget
from .formatting import csv_writer, escape, fmt, table_anchor

SHOWN_ROWS = 100
"""Most of the user's rows (and of their problems) written into the page; all are in the CSV
download and counted in the page. Chosen by the Benchmark Atlas: a 5,000-row table took about
1.2 s of layout on the browser's main thread (2-core machine); with 200 rows the whole result
still took up to 190 ms there under load, so 100, with room to spare."""


def _link(e) -> str:
    return f"../../products/{escape(e['doc'])}/{escape(e['scenario'])}/#{table_anchor(e['table_id'])}"


CSV_COLS = ["kind", "status", "doc", "scenario", "table_id", "row", "row_label", "site", "service", "container", "observed_percent",
            "target_percent", "threshold_percent", "replicas", "replicas_table", "replicas_row", "hpa_reads_percent",
            "hpa_min_replicas", "hpa_max_replicas", "partial", "hpa_desired_replicas", "severity", "hpa_unclamped_replicas",
            "hpa_max_must_rise_to", "kubernetes_version_note"]


def to_csv(res: dict, own: list[dict] | None = None) -> str:
    """The result as CSV (``CSV_COLS``): one 'cpu' line per CPU row, one 'memory' line per memory row, one 'own-cpu'
    line per row of the user's CSV (``own``, from ``overtarget.parse_own``). Counts in pods, utilization in percent."""
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(CSV_COLS)
    for e in res["cpu"]:
        w.writerow(["cpu", e["status"], e["doc"], e["scenario"], e["table_id"], e["row"], e["row_label"], e["site"], e["service"],
                    e["container"], e["observed"], e["target"], "", _e(e["replicas"]), _e(e["replicas_table"]), _e(e["replicas_row"]),
                    e["hpa_reads"], _e(e["hpa_min"]), _e(e["hpa_max"]), e["partial"], desired_text(e), e["severity"],
                    _e(e["unclamped"]), _e(e["max_must_rise_to"]), _e(e["controller_note"])])
    for e in res["memory"]:
        w.writerow(["memory", "memory", e["doc"], e["scenario"], e["table_id"], e["row"], e["row_label"], e["site"], e["service"],
                    e["container"], e["observed"], "", e["threshold"], "", "", "", "", "", "", res.get("partial", {}).get(e["scenario"], ""),
                    "", "", "", "", ""])
    for e in own or []:
        w.writerow(["own-cpu", e["status"], "", "", "", e["line"], e["name"], "", e["name"], "", round(e["observed"], 4), e["target"],
                    "", e["replicas"], "", "", e["hpa_reads"], _e(e["hpa_min"]), _e(e["hpa_max"]), "", desired_text(e), e["severity"],
                    _e(e["unclamped"]), _e(e["max_must_rise_to"]), _e(e["controller_note"])])
    return buf.getvalue()


def _e(v):
    return "" if v is None else v


def desired_text(e) -> str | int:
    """The HPA's desired replicas of row ``e`` (pods): a count; 'N (asks P, clamped at max)' where a bound set it,
    followed by ': the HPA max must rise to P' where the max stops the count the metric asks for; the controller's
    reason where it reads no metric (current 0, or outside min/max); where only the HPA's range is printed, what it
    would ask from either end; 'no count: ...' where the replica row is excluded; '' when no count or range is printed."""
    rise = f": the HPA max must rise to {e['max_must_rise_to']}" if e.get("max_must_rise_to") is not None else ""
    if e["desired"] is not None:
        reason = e.get("reason")
        if reason == "scaling disabled":
            return f"{e['desired']} (current 0: the HPA does not scale a target at 0 replicas)"
        if reason == "current above max":
            return f"{e['desired']} (current {e['replicas']} is above max {e['hpa_max']}: the HPA scales to its max){rise}"
        if reason == "current below min":
            return f"{e['desired']} (current {e['replicas']} is below min {e['hpa_min']}: the HPA scales to its min)"
        if not e["bound"]:
            return e["desired"]
        return f"{e['desired']} (asks {e['unclamped']}, clamped at {e['bound']}){rise}"
    ends = e.get("desired_from_ends")
    if e.get("replicas_excluded"):
        return "no count: " + e["replicas_excluded"]
    if ends:
        part = lambda k: (f"from {k} {e['hpa_' + k]}: {ends[k]['desired']}"
                          + (f" (asks {ends[k]['unclamped']}, clamped at {ends[k]['bound']})" if ends[k]["bound"] else ""))
        return f"current not printed; {part('min')}; {part('max')}{rise}"
    return ""


def _severity_cell(sev: str) -> str:
    return f"<strong>{sev}</strong>" if sev == "critical" else sev


def _desired_cell(e) -> str:
    """The desired-replicas cell: ``desired_text``, and where the other Kubernetes version decides differently, what
    it does in short (the whole sentence as the title, and in the list above the tables)."""
    text = escape(str(desired_text(e))) or "—"
    o = e.get("other_controller")
    if not o:
        return text
    short = f'{overtarget.CONTROLLERS[o["controller"]].replace("Kubernetes ", "")}: ' + (str(o["desired"]) if o["desired"] is not None else o["severity"])
    return text + f'<br><small class="atlas-k8s-note" title="{escape(e["controller_note"])}">{escape(short)}</small>'


def _differences(res: dict, own) -> str:
    """The rows the other Kubernetes version decides differently, each with its sentence, as a closed details block
    ('' when there are none)."""
    rows = [(f'{e.get("where") or e["scenario"]}, Table {e["table_id"]} row {e["row"]}: {e["service"]}'
             + (f' at {e["site"]}' if e["site"] else ""), e["controller_note"]) for e in res["cpu"] if e.get("controller_note")]
    rows += [(f'Your CSV, line {e["line"]}, {e["name"]}', e["controller_note"]) for e in own or [] if e.get("controller_note")]
    if not rows:
        return ""
    other = overtarget.CONTROLLERS[overtarget.other_controller(res["inputs"].get("kubernetes") or overtarget.DEFAULT_CONTROLLER)]
    return (f'<details class="atlas-k8s-differences"><summary>{len(rows):,} row{"s" if len(rows) != 1 else ""} the HPA '
            f'controller of {escape(other)} decides differently</summary><ul>'
            + "".join(f"<li>{escape(w)}: {escape(t)}</li>" for w, t in rows[:SHOWN_ROWS]) + "</ul></details>")


def to_html(res: dict, own=None, problems=None) -> str:
    """The result as the page's HTML: counts by flag and severity, the rows whose HPA max must rise, the user's rows
    (``own``, ``problems`` from ``parse_own``), the HPA rule, the partial scenarios, then the CPU and memory tables."""
    c = res["counts"]
    ctl = res["inputs"].get("kubernetes") or overtarget.DEFAULT_CONTROLLER
    p = ['<div class="atlas-result atlas-overtarget">']
    p.append(f'<p class="atlas-summary"><strong>{c["over"]}</strong> service rows at or over their CPU target, '
             f'<strong>{c["near"]}</strong> within 10 % below it (relative: observed ≥ 0.9 × target), and '
             f'<strong>{c["memory"]}</strong> memory rows at or above {fmt(res["inputs"]["mem_threshold"])} %'
             f'{" for " + escape(res["inputs"]["product"]) if res["inputs"]["product"] else " across all products"}.</p>')
    p.append(f'<p class="atlas-severity-counts">Severity, as the HPA controller of {escape(overtarget.CONTROLLERS[ctl])} decides: '
             f'<strong>{c["critical"]}</strong> critical (it would scale up, or its max stops it), '
             f'<strong>{c["warning"]}</strong> warning (inside its tolerance band: it holds still), {c["ok"]} ok.</p>')
    p.append(_differences(res, own))
    blocked = [x["text"] for x in res.get("max_blocked") or []]
    blocked += [overtarget.max_blocked_text(e, f"Your CSV, line {e['line']}") for e in own or [] if e["max_must_rise_to"] is not None]
    if blocked:
        p.append('<div class="atlas-warnings atlas-max-blocked"><p><strong>HPA max too low:</strong> the count these HPAs ask '
                 'for is above their max replicas.</p><ul>' + "".join(f"<li>{escape(t)}</li>" for t in blocked[:SHOWN_ROWS])
                 + "</ul>" + (f"<p>The first {SHOWN_ROWS:,} of {len(blocked):,} are listed; the CSV download has all of them "
                              "(column hpa_max_must_rise_to).</p>" if len(blocked) > SHOWN_ROWS else "") + "</div>")
    if own is not None or problems:
        p.append("<h3>Your services</h3>")
        if own:
            n = {s: sum(1 for e in own if e["status"] == s) for s in ("over", "near", "ok")}
            v = {s: sum(1 for e in own if e["severity"] == s) for s in overtarget.SEVERITIES}
            p.append(f'<p class="atlas-own-counts">{len(own):,} rows evaluated: <strong>{n["over"]:,}</strong> over, '
                     f'<strong>{n["near"]:,}</strong> near, {n["ok"]:,} ok'
                     f'{f"; {len(problems):,} not evaluated (below)" if problems else ""}. Severity: '
                     f'<strong>{v["critical"]:,}</strong> critical, <strong>{v["warning"]:,}</strong> warning, {v["ok"]:,} ok.</p>')
        if problems:
            p.append('<ul class="atlas-warnings" id="atlas-own-problems">' + "".join(
                f'<li data-line="{x["line"]}">Line {x["line"]}: {escape(x["message"])}</li>' for x in problems[:SHOWN_ROWS]) + "</ul>")
            if len(problems) > SHOWN_ROWS:
                p.append(f'<p class="atlas-own-more">The first {SHOWN_ROWS:,} of {len(problems):,} problems are listed.</p>')
        if own:
            if len(own) > SHOWN_ROWS:
                p.append(f'<p class="atlas-own-more">The first {SHOWN_ROWS:,} of your {len(own):,} rows are shown here; '
                         f'the CSV download has all of them, with their flags.</p>')
            p.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-own"><thead><tr><th>Severity</th><th>Line</th>'
                     '<th>Service</th><th>Replicas (HPA min / max)</th><th>Observed CPU (%)</th><th>Target (%)</th>'
                     '<th>Flag</th><th>HPA desired replicas</th></tr></thead><tbody>')
            for e in own[:SHOWN_ROWS]:
                rng = ("" if e["hpa_min"] is None and e["hpa_max"] is None else
                       f' <small>({fmt(e["hpa_min"])} / {fmt(e["hpa_max"])})</small>')
                p.append(f'<tr data-service="{escape(e["name"])}" data-status="{e["status"]}" data-severity="{e["severity"]}"'
                         f'{_rise_attr(e)}><td>{_severity_cell(e["severity"])}</td><td>{e["line"]}</td><td>{escape(e["name"])}</td>'
                         f'<td>{e["replicas"]}{rng}</td><td title="{escape(e["observed_how"])}">{fmt(round(e["observed"], 3))}</td>'
                         f'<td>{fmt(e["target"])}</td><td>{e["status"]}</td><td>{_desired_cell(e)}</td></tr>')
            p.append("</tbody></table></div>")
    p.append(f'<p class="atlas-note">{escape(overtarget.HPA_RULE)} Applied here: {escape(overtarget.CONTROLLERS[ctl])}.</p>')
    if res.get("partial"):
        p.append('<div class="atlas-warnings atlas-partial"><p><strong>Partial:</strong> these scenarios have utilization rows '
                 'that could not be evaluated (flagged by an erratum or printed without a value); a service missing here may '
                 'still be over its target.</p><ul>' + "".join(
                     f'<li data-scenario="{escape(sid)}">{escape(sid)}: {escape(t)}</li>' for sid, t in res["partial"].items())
                 + "</ul></div>")
    p.append("<h3>CPU at, over or near the target</h3>")
    p.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-cpu-flags"><thead><tr><th>Severity</th><th>Flag</th>'
             '<th>Scenario</th><th>Service</th><th>Container</th><th>Site</th><th>Observed CPU (%)</th><th>Target (%)</th>'
             '<th>Observed / target</th><th>Replicas (printed)</th><th>HPA desired replicas</th><th>Source</th>'
             '<th>HPA reads (whole %)</th><th>Scenario partial</th></tr></thead><tbody>')
    for e in res["cpu"]:
        rep = (fmt(e["replicas"]) + f' <small>(Table {escape(str(e["replicas_table"]))}, row {e["replicas_row"]})</small>'
               if e["replicas"] is not None else (f'— <small>({escape(e["replicas_excluded"])})</small>' if e.get("replicas_excluded") else
                                                  '<span title="no replica count printed for this service">—</span>'))
        p.append(f'<tr data-scenario="{escape(e["scenario"])}" data-service="{escape(e["service"])}" data-site="{escape(e["site"])}" '
                 f'data-status="{e["status"]}" data-severity="{e["severity"]}"{_rise_attr(e)}{" data-partial" if e["partial"] else ""}>'
                 f'<td>{_severity_cell(e["severity"])}</td><td>{e["status"]}</td><td>{escape(e["scenario"])}</td><td>{escape(e["service"])}</td>'
                 f'<td>{escape(e["container"])}</td><td>{escape(e["site"] or "—")}</td><td>{fmt(e["observed"])}</td><td>{fmt(e["target"])}</td>'
                 f'<td>{e["ratio"]:.3f}</td><td>{rep}</td><td>{_desired_cell(e)}</td>'
                 f'<td><a href="{_link(e)}">Table {escape(str(e["table_id"]))}, row {e["row"]}</a></td>'
                 f'<td>{e["hpa_reads"]}</td><td>{"partial" if e["partial"] else ""}</td></tr>')
    p.append("</tbody></table></div>")
    p.append(f"<h3>Memory at or above {fmt(res['inputs']['mem_threshold'])} %</h3>")
    p.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-mem-flags"><thead><tr><th>Scenario</th><th>Service</th>'
             '<th>Container</th><th>Site</th><th>Observed memory (%)</th><th>Of</th><th>Source</th></tr></thead><tbody>')
    for e in res["memory"]:
        p.append(f'<tr data-scenario="{escape(e["scenario"])}" data-service="{escape(e["service"])}"><td>{escape(e["scenario"])}</td>'
                 f'<td>{escape(e["service"])}</td><td>{escape(e["container"])}</td><td>{escape(e["site"] or "—")}</td>'
                 f'<td>{fmt(e["observed"])}</td><td>{escape(e["percent_basis"])}</td>'
                 f'<td><a href="{_link(e)}">Table {escape(str(e["table_id"]))}, row {e["row"]}</a></td></tr>')
    p.append("</tbody></table></div></div>")
    return "".join(p)


def _rise_attr(e) -> str:
    return f' data-max-must-rise="{e["max_must_rise_to"]}"' if e.get("max_must_rise_to") is not None else ""


def compute_web(bundle: dict, params: dict) -> tuple:
    """(result, own rows or None, problems or None) of the form's strings (``params``: product, mem_threshold,
    kubernetes, csv). Raises OverTargetError."""
    kubernetes = params.get("kubernetes") or overtarget.DEFAULT_CONTROLLER
    res = overtarget.compute(bundle, params.get("product") or None, params.get("mem_threshold") or overtarget.DEFAULT_MEM_THRESHOLD, kubernetes)
    own = problems = None
    if (params.get("csv") or "").strip():
        own, problems = overtarget.parse_own(params["csv"], kubernetes)
    return res, own, problems


def run_web(bundle: dict, params: dict) -> dict:
    """The page's result of the form's strings ``params`` (``compute_web``): HTML, inputs and the CSV download.
    Raises OverTargetError."""
    res, own, problems = compute_web(bundle, params)
    return {"html": to_html(res, own, problems), "inputs": res["inputs"], "chart": None,
            "downloads": {"csv": {"text": lambda: to_csv(res, own), "mime": "text/csv", "filename": "over-target.csv"}}}


def report_web(bundle: dict, params: dict) -> dict:
    """The report (``calculators.report``) of the result ``run_web`` gives. Raises OverTargetError."""
    return report_of(*compute_web(bundle, params), bundle)


def report_of(res: dict, own, problems, bundle: dict) -> dict:
    """The report of ``calculators.overtarget.compute`` with the reader's own rows (``parse_own``) if any: each row's
    severity, HPA counts and, where the HPA max stops the count asked for, the max it must rise to (also a warning)."""
    from . import report
    docs, sections = report.doc_names(bundle), report.sections(bundle)
    doc_of = {s["id"]: s["doc"] for s in bundle.get("scenarios") or []}
    i, c = res["inputs"], res["counts"]
    ctl = i.get("kubernetes") or overtarget.DEFAULT_CONTROLLER
    inp = [["Product", i["product"] or None, None, "all products" if not i["product"] else ""],
           ["Memory threshold", i["mem_threshold"], "%", ""],
           ["Kubernetes version", ctl, None, f"the HPA controller of {overtarget.CONTROLLERS[ctl]}"],
           ["Your CSV", len(own) if own is not None else None, "rows evaluated",
            f"{len(problems or [])} line(s) not evaluated" if own is not None else "none given"]]
    cols = [report.col("Kind"), report.col("Severity"), report.col("Flag"), report.col("Scenario"), report.col("Service"), report.col("Container"), report.col("Site"),
            report.col("Observed", "%"), report.col("Target or threshold", "%"), report.col("Observed / target"), report.col("Replicas (printed)", "pods"),
            report.col("HPA reads", "whole %"), report.col("HPA desired replicas"), report.col("HPA max must rise to", "pods"), report.col("Source table"),
            report.col("Source row"), report.col("Scenario partial"), report.col("Other Kubernetes version")]
    rows, sources = [], []
    for e in res["cpu"]:
        rows.append(["cpu", e["severity"], e["status"], e["scenario"], e["service"], e["container"], e["site"] or None, e["observed"],
                     e["target"], e["ratio"], e["replicas"], e["hpa_reads"], desired_text(e) if desired_text(e) != "" else None,
                     e["max_must_rise_to"], e["table_id"], e["row"], e["partial"] or None, e["controller_note"]])
    for e in res["memory"]:
        rows.append(["memory", None, "memory", e["scenario"], e["service"], e["container"], e["site"] or None, e["observed"],
                     e["threshold"], None, None, None, None, None, e["table_id"], e["row"], res["partial"].get(e["scenario"]), None])
    for e in own or []:
        rows.append(["your row", e["severity"], e["status"], None, e["name"], None, None, e["observed"], e["target"], e["ratio"],
                     e["replicas"], e["hpa_reads"], desired_text(e), e["max_must_rise_to"], None, e["line"], None,
                     e["controller_note"]])
    for e in res["cpu"] + res["memory"]:
        doc = doc_of.get(e["scenario"], e.get("doc"))
        sources.append([f"{e['scenario']}: {e['service']} {e['container']} {e['site']}".strip() + " (observed, target)",
                        docs.get(doc, doc), sections.get(e["scenario"]), e["table_id"], e["row"], e.get("row_label"), None, None, None])
        if e.get("replicas_table"):
            sources.append([f"{e['scenario']}: {e['service']} {e['container']} (replicas)", docs.get(doc, doc),
                            sections.get(e["scenario"]), e["replicas_table"], e["replicas_row"], None, None, None, None])
        if e.get("target_table"):
            sources.append([f"{e['scenario']}: target CPU", docs.get(doc, doc), sections.get(e["scenario"]),
                            e["target_table"], e["target_row"], None, None, None, None])
    for e in own or []:
        sources.append([f"your row: {e['name']}", "your CSV", None, None, e["line"], None, None, None, None])
    tcols = [report.col("Count"), report.col("Rows"), report.col("Note")]
    trows = [["CPU at or over the target", c["over"], ""], ["CPU within 10 % below the target", c["near"], "observed >= 0.9 x target"],
             [f"Memory at or above {i['mem_threshold']:g} %", c["memory"], ""]]
    trows += [[f"CPU rows: {s}", c[s], ""] for s in overtarget.SEVERITIES]
    if own is not None:
        for s in ("over", "near", "ok"):
            trows.append([f"Your rows: {s}", sum(1 for e in own if e["status"] == s), ""])
        for s in overtarget.SEVERITIES:
            trows.append([f"Your rows: {s} (severity)", sum(1 for e in own if e["severity"] == s), ""])
    warnings = [["HPA max too low", x["text"]] for x in res.get("max_blocked") or []]
    warnings += [["HPA max too low", overtarget.max_blocked_text(e, f"Your CSV, line {e['line']}")] for e in own or []
                 if e["max_must_rise_to"] is not None]
    warnings += [["partial", f"{sid}: {t}"] for sid, t in res["partial"].items()]
    warnings += [["your CSV", f"Line {x['line']}: {x['message']}"] for x in problems or []]
    method = [["Flags", "over: observed >= target; near: below the target but observed >= 0.9 x target (relative, as the "
               "HPA's tolerance); memory: observed memory at or above the threshold."], ["HPA", overtarget.HPA_RULE],
              ["Severity", "critical: the HPA controller would scale up, or its max stops the count it asks for (the HPA max "
               "must rise to that count); warning: inside the tolerance band, where it holds still; ok: below the band. "
               f"Decided by the controller of {overtarget.CONTROLLERS[ctl]}."]]
    return report.build("overtarget", "Over target: services at, over or near their CPU target",
                 f"{c['over']} over, {c['near']} near, {c['memory']} memory rows; {c['critical']} critical"
                 + (f" for {i['product']}" if i["product"] else " across all products"), "over-target.xlsx", inputs=inp,
                 results={"columns": cols, "rows": rows}, totals={"columns": tcols, "rows": trows},
                 warnings=warnings, method=method, sources=sources)


catalogue.register("overtarget", run_web, overtarget.OverTargetError, report_web,
                   fields={"Memory threshold": "mem_threshold", "Kubernetes version": "kubernetes"})
