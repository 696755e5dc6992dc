"""Over-target flags: services whose observed CPU is at or over its target, or close below it.

Standard library only: this module runs unchanged in CPython and in Pyodide.

Inputs are the calculator bundle (``util_rows``: every CPU utilization row
printing a target, the Y of the guide's X/Y cells, and every memory row, all
with status ok or corrected: flagged, missing and not-applicable values are
never in the bundle; ``scenario_cpu``: a scenario-wide observed CPU where a
guide prints only one, with the scenario's 'Target CPU' setting; ``resources``
for the replica counts) and, optionally, a CSV of the user's own services.

Units: CPU and memory utilization in percent (of the request unless the data
says limit), CPU request in cores, replicas in pods.

Flags (per row, i.e. per service, container and site):

* ``over``: observed >= target.
* ``near``: observed below target but within 10 % of it, *relative*:
  observed >= 0.9 x target (a 30 % target is near from 27 %, an 80 % target
  from 72 %). Relative, not percentage points, because the Kubernetes HPA
  compares the ratio observed/target with its tolerance (0.1): a service is
  "near" exactly when the HPA would hold still rather than scale in.
* ``memory``: observed memory at or above the user's threshold (percent).

Replicas the HPA would ask for (source: Kubernetes documentation, "Horizontal
Pod Autoscaling", section "Algorithm details",
https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/#algorithm-details):
``desiredReplicas = ceil(currentReplicas x currentMetricValue / desiredMetricValue)``,
and no scaling when the ratio is within the tolerance, whose default is 0.1
(``--horizontal-pod-autoscaler-tolerance``): |observed/target - 1| <= 0.1.
Example: 50 replicas at 90 % against a 75 % target: ratio 1.2 -> ceil(60) = 60.
The current replicas are those printed for the same scenario, service and
container (same site, or the table without a site); without them no desired
count is given.

Errors: ``OverTargetError`` (a ValueError) for a bad memory threshold, an
unknown product, an oversized, binary or header-less CSV. Malformed CSV rows
do not raise: they are reported by line number and the other rows are
evaluated.
"""
from __future__ import annotations

import csv
import io
import math
import re
from fractions import Fraction

from . import web
from .text import csv_writer, escape, fmt

MAX_BYTES = 1048576
"""Largest CSV accepted (1 MiB, the file input's data-max-bytes); chosen by the Benchmark Atlas."""
MAX_ROWS = 5000
"""Most service rows evaluated from one CSV; chosen by the Benchmark Atlas."""
TOLERANCE = Fraction(1, 10)
"""The HPA's default tolerance (Kubernetes HPA documentation, see the module docstring)."""
NEAR = Fraction(1, 10)
"""'Near' band: within 10 % of the target, relative (observed >= 0.9 x target)."""
DEFAULT_MEM_THRESHOLD = "80"


class OverTargetError(ValueError):
    """Bad input to the over-target calculator; the message says what and why."""


def _frac(x) -> Fraction:
    return Fraction(str(x))


def hpa_desired(current: int, observed, target, tolerance=TOLERANCE) -> int:
    """Replicas the Kubernetes HPA would ask for.

    ``current`` pods (int >= 0), ``observed`` and ``target`` utilization in
    percent (> 0 target). Returns ``current`` when |observed/target - 1| <=
    tolerance, else ceil(current x observed / target). Raises OverTargetError
    for a negative current count or a target <= 0.
    """
    if not isinstance(current, int) or isinstance(current, bool) or current < 0:
        raise OverTargetError(f"Current replicas must be a whole number >= 0, not {current!r}.")
    obs, tgt = _frac(observed), _frac(target)
    if tgt <= 0 or obs < 0:
        raise OverTargetError("Target must be above 0 % and observed at least 0 %.")
    ratio = obs / tgt
    if abs(ratio - 1) <= _frac(tolerance):
        return current
    return math.ceil(current * ratio)


def classify(observed, target) -> str | None:
    """'over' (observed >= target), 'near' (>= 0.9 x target) or None."""
    obs, tgt = _frac(observed), _frac(target)
    if obs >= tgt:
        return "over"
    if obs >= tgt * (1 - NEAR):
        return "near"
    return None


def util_rows(bundle: dict) -> list[dict]:
    """The bundle's columnar ``util_rows`` as dicts."""
    u = bundle.get("util_rows") or {"cols": [], "rows": []}
    return [dict(zip(u["cols"], r)) for r in u["rows"]]


def products(bundle: dict) -> list[str]:
    have = {r[0] for r in (bundle.get("util_rows") or {}).get("rows", [])} | {w["scenario"] for w in bundle.get("scenario_cpu") or []}
    docs = {s["doc"] for s in bundle["scenarios"] if s["id"] in have}
    return [s["id"] for s in bundle["sources"] if s["id"] in docs]


def anchor(table_id: str) -> str:
    """The scenario page's anchor for a table: 'table-' + id lowercased, non-alphanumerics to '-'."""
    return "table-" + re.sub(r"[^a-z0-9]+", "-", str(table_id).lower()).strip("-")


def _replicas(bundle, scenario, service, container, site):
    cands = [r for r in bundle["resources"] if r["scenario"] == scenario and r["service"] == service
             and r["container"] == container and r.get("replicas") is not None]
    for r in sorted(cands, key=lambda r: 0 if r["site"] == site else 1 if not r["site"] else 2):
        if r["site"] in (site, ""):
            return r
    return None


def compute(bundle: dict, product=None, mem_threshold=DEFAULT_MEM_THRESHOLD) -> dict:
    """Flag every service over or near its CPU target, and memory at or over ``mem_threshold`` %.

    Returns ``{"cpu": [...], "memory": [...], "counts": {...}, "inputs": {...}}``;
    each entry names doc, scenario, table_id, row, row_label, site, service,
    container, observed and target (percent), status ('over'/'near'/'memory'),
    and for CPU the current replicas (with their table and row) and the HPA's
    desired replicas (None when no replica count is printed).
    Raises OverTargetError for an unknown product or a threshold outside 1-100 %.
    """
    docs = products(bundle)
    if product not in (None, "") and product not in docs:
        raise OverTargetError(f"Unknown product {product!r}; choose one of: {', '.join(docs)}.")
    thr = _number(mem_threshold, "Memory threshold")
    if not 1 <= thr <= 100:
        raise OverTargetError("Memory threshold must be between 1 and 100 %.")
    doc_of = {s["id"]: s["doc"] for s in bundle["scenarios"]}
    want = lambda sid: doc_of.get(sid) is not None and (not product or doc_of[sid] == product)
    cpu, mem = [], []
    for u in util_rows(bundle):
        if not want(u["scenario"]) or u.get("status", "ok") not in ("ok", "corrected") or u["observed_percent"] is None:
            continue
        base = {k: u[k] for k in ("scenario", "table_id", "row", "row_label", "site", "service", "container", "percent_basis")}
        base["doc"] = doc_of[u["scenario"]]
        base["observed"] = u["observed_percent"]
        if u["metric"] == "cpu" and u.get("target_percent"):
            st = classify(u["observed_percent"], u["target_percent"])
            if not st:
                continue
            rep = _replicas(bundle, u["scenario"], u["service"], u["container"], u["site"])
            cur = rep["replicas"] if rep else None
            cpu.append({**base, "target": u["target_percent"], "status": st,
                        "ratio": float(_frac(u["observed_percent"]) / _frac(u["target_percent"])),
                        "replicas": cur, "replicas_table": rep["table_id"] if rep else None, "replicas_row": rep["row"] if rep else None,
                        "desired": hpa_desired(cur, u["observed_percent"], u["target_percent"]) if cur is not None else None})
        elif u["metric"] == "memory" and _frac(u["observed_percent"]) >= thr:
            mem.append({**base, "threshold": float(thr), "status": "memory"})
    for w in bundle.get("scenario_cpu") or []:
        if not want(w["scenario"]) or not w.get("target_percent"):
            continue
        st = classify(w["observed_percent"], w["target_percent"])
        if st:
            cpu.append({"doc": doc_of[w["scenario"]], "scenario": w["scenario"], "table_id": w["table_id"], "row": w["row"],
                        "row_label": "Average CPU, Total", "site": "", "service": "(scenario-wide; pods not stated)",
                        "container": "", "percent_basis": "unstated", "observed": w["observed_percent"], "target": w["target_percent"],
                        "status": st, "ratio": float(_frac(w["observed_percent"]) / _frac(w["target_percent"])),
                        "replicas": None, "replicas_table": None, "replicas_row": None, "desired": None,
                        "target_table": w.get("target_table_id"), "target_row": w.get("target_row")})
    cpu.sort(key=lambda e: (-e["ratio"], e["scenario"], e["row"], e["site"]))
    mem.sort(key=lambda e: (-e["observed"], e["scenario"], e["row"], e["site"]))
    return {"cpu": cpu, "memory": mem, "inputs": {"product": product or "", "mem_threshold": float(thr)},
            "counts": {"over": sum(e["status"] == "over" for e in cpu), "near": sum(e["status"] == "near" for e in cpu),
                       "memory": len(mem)}}


def _number(value, name: str) -> Fraction:
    text = str(value if value is not None else "").strip().rstrip("%").strip()
    if not text:
        raise OverTargetError(f"{name} is empty: enter a number.")
    try:
        f = float(text)
    except ValueError:
        raise OverTargetError(f"{name} must be a number, not {value!r}.") from None
    if math.isnan(f) or math.isinf(f):
        raise OverTargetError(f"{name} must be a finite number.")
    return Fraction(text) if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", text) else Fraction(f)


# ---------------------------------------------------------------- your own CSV

_OBS = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(%|percent|cores?|c|m)?\s*$", re.I)


def parse_own(text: str) -> tuple[list[dict], list[dict]]:
    """Read the user's CSV: header ``name,replicas,cpu_request,observed,target``
    (optional ``observed_unit`` column: percent or cores). ``observed`` is a
    percent ('72%', or a bare number with observed_unit percent) or the cores
    all replicas used together ('3.5 cores', '3500m'); ``target`` in percent;
    ``cpu_request`` in cores per pod (needed to turn cores into percent).

    Returns (services, problems); each problem is {"line": n, "message": ...}
    (line 1 is the header). Raises OverTargetError for text over MAX_BYTES,
    binary content, a missing header or more than MAX_ROWS rows.
    """
    if text is None:
        text = ""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise OverTargetError(f"The CSV is {size:,} bytes; the limit is {MAX_BYTES:,} bytes (1 MiB). Nothing was evaluated.")
    if "\x00" in text or sum(1 for ch in text if ord(ch) < 32 and ch not in "\r\n\t") > max(2, len(text) // 100):
        raise OverTargetError("The CSV looks like binary data, not text. Nothing was evaluated.")
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")))
    try:
        numbered = [(reader.line_num, r) for r in reader]
        lines = [r for _, r in numbered]
    except csv.Error as e:
        raise OverTargetError(f"Line {reader.line_num}: the CSV cannot be read ({e}). Nothing was evaluated.") from None
    if not lines or not any(c.strip() for c in lines[0]):
        raise OverTargetError("The CSV is empty: give a header line name,replicas,cpu_request,observed,target.")
    head = [c.strip().lower() for c in lines[0]]
    need = ["name", "replicas", "cpu_request", "observed", "target"]
    missing = [c for c in need if c not in head]
    if missing:
        raise OverTargetError(f"Line 1 must be the header name,replicas,cpu_request,observed,target[,observed_unit]; "
                              f"missing {', '.join(missing)}.")
    body = [(n, r) for n, r in numbered[1:] if any(c.strip() for c in r)]
    if len(body) > MAX_ROWS:
        raise OverTargetError(f"The CSV has {len(body):,} rows; at most {MAX_ROWS:,} are evaluated. Nothing was evaluated.")
    col = {c: head.index(c) for c in head}
    out, problems = [], []
    for line, r in body:
        try:
            out.append(_own_row(line, r, col))
        except OverTargetError as e:
            problems.append({"line": line, "message": str(e)})
    return out, problems


def _own_row(line: int, r: list[str], col: dict) -> dict:
    def cell(name):
        i = col.get(name)
        return r[i].strip() if i is not None and i < len(r) else ""

    if len(r) < len(col):
        raise OverTargetError(f"{len(r)} fields, the header has {len(col)}.")
    name = cell("name")
    if not name:
        raise OverTargetError("name is empty.")
    rep_t = cell("replicas")
    if not re.fullmatch(r"[0-9]{1,6}", rep_t):
        raise OverTargetError(f"replicas must be a whole number from 0 to 999999, not {rep_t!r}.")
    replicas = int(rep_t)
    tgt_m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*%?", cell("target"))
    if not tgt_m or not 0 < Fraction(tgt_m.group(1)) <= 100:
        raise OverTargetError(f"target must be a percent above 0 and at most 100, not {cell('target')!r}.")
    target = Fraction(tgt_m.group(1))
    req_t = cell("cpu_request")
    request = None
    if req_t:
        m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*(m)?", req_t)
        if not m or Fraction(m.group(1)) == 0:
            raise OverTargetError(f"cpu_request must be cores above 0 (e.g. 4 or 500m), not {req_t!r}.")
        request = Fraction(m.group(1)) / (1000 if m.group(2) else 1)
    m = _OBS.match(cell("observed"))
    if not m:
        raise OverTargetError(f"observed must be a number with % or cores (e.g. 72% or 3.5 cores), not {cell('observed')!r}.")
    unit = (m.group(2) or cell("observed_unit")).lower()
    value = Fraction(m.group(1))
    if unit in ("%", "percent"):
        observed = value
        how = "percent"
    elif unit in ("core", "cores", "c", "m"):
        cores = value / 1000 if unit == "m" else value
        if request is None or replicas == 0:
            raise OverTargetError("observed in cores needs cpu_request and replicas above 0 to become a percent.")
        observed = cores / (replicas * request) * 100
        how = f"{fmt(float(cores))} cores / ({replicas} x {fmt(float(request))})"
    else:
        raise OverTargetError("observed has no unit: add % or cores, or an observed_unit column (percent or cores).")
    status = classify(observed, target) or "ok"
    return {"line": line, "name": name, "replicas": replicas, "cpu_request": float(request) if request is not None else None,
            "observed": float(observed), "observed_how": how, "target": float(target), "ratio": float(observed / target),
            "status": status, "desired": hpa_desired(replicas, observed, target)}


# ---------------------------------------------------------------- output

def _link(e) -> str:
    return f"../../products/{escape(e['doc'])}/{escape(e['scenario'])}/#{anchor(e['table_id'])}"


CSV_COLS = ["kind", "status", "doc", "scenario", "table_id", "row", "row_label", "site", "service", "container", "observed_percent",
            "target_percent", "threshold_percent", "replicas", "replicas_table", "replicas_row", "hpa_desired_replicas"]


def to_csv(res: dict, own: list[dict] | None = None) -> str:
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(CSV_COLS)
    for e in res["cpu"]:
        w.writerow(["cpu", e["status"], e["doc"], e["scenario"], e["table_id"], e["row"], e["row_label"], e["site"], e["service"],
                    e["container"], e["observed"], e["target"], "", _e(e["replicas"]), _e(e["replicas_table"]), _e(e["replicas_row"]),
                    _e(e["desired"])])
    for e in res["memory"]:
        w.writerow(["memory", "memory", e["doc"], e["scenario"], e["table_id"], e["row"], e["row_label"], e["site"], e["service"],
                    e["container"], e["observed"], "", e["threshold"], "", "", "", ""])
    for e in own or []:
        w.writerow(["own-cpu", e["status"], "", "", "", e["line"], e["name"], "", e["name"], "", round(e["observed"], 4), e["target"],
                    "", e["replicas"], "", "", e["desired"]])
    return buf.getvalue()


def _e(v):
    return "" if v is None else v


def to_html(res: dict, own=None, problems=None) -> str:
    c = res["counts"]
    p = ['<div class="atlas-result atlas-overtarget">']
    p.append(f'<p class="atlas-summary"><strong>{c["over"]}</strong> service rows at or over their CPU target, '
             f'<strong>{c["near"]}</strong> within 10 % below it (relative: observed ≥ 0.9 × target), and '
             f'<strong>{c["memory"]}</strong> memory rows at or above {fmt(res["inputs"]["mem_threshold"])} %'
             f'{" for " + escape(res["inputs"]["product"]) if res["inputs"]["product"] else " across all products"}.</p>')
    if own is not None or problems:
        p.append("<h3>Your services</h3>")
        if problems:
            p.append('<ul class="atlas-warnings" id="atlas-own-problems">' + "".join(
                f'<li data-line="{x["line"]}">Line {x["line"]}: {escape(x["message"])}</li>' for x in problems) + "</ul>")
        if own:
            p.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-own"><thead><tr><th>Line</th><th>Service</th>'
                     '<th>Replicas</th><th>Observed CPU (%)</th><th>Target (%)</th><th>Flag</th><th>HPA desired replicas</th></tr></thead><tbody>')
            for e in own:
                p.append(f'<tr data-service="{escape(e["name"])}" data-status="{e["status"]}"><td>{e["line"]}</td><td>{escape(e["name"])}</td>'
                         f'<td>{e["replicas"]}</td><td title="{escape(e["observed_how"])}">{fmt(round(e["observed"], 3))}</td>'
                         f'<td>{fmt(e["target"])}</td><td>{e["status"]}</td><td>{e["desired"]}</td></tr>')
            p.append("</tbody></table></div>")
    p.append("<h3>CPU at, over or near the target</h3>")
    p.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-cpu-flags"><thead><tr><th>Flag</th><th>Scenario</th><th>Service</th>'
             '<th>Container</th><th>Site</th><th>Observed CPU (%)</th><th>Target (%)</th><th>Observed / target</th>'
             '<th>Replicas (printed)</th><th>HPA desired replicas</th><th>Source</th></tr></thead><tbody>')
    for e in res["cpu"]:
        rep = (fmt(e["replicas"]) + f' <small>(Table {escape(str(e["replicas_table"]))}, row {e["replicas_row"]})</small>'
               if e["replicas"] is not None else '<span title="no replica count printed for this service, or its row is flagged">—</span>')
        p.append(f'<tr data-scenario="{escape(e["scenario"])}" data-service="{escape(e["service"])}" data-site="{escape(e["site"])}" '
                 f'data-status="{e["status"]}"><td>{e["status"]}</td><td>{escape(e["scenario"])}</td><td>{escape(e["service"])}</td>'
                 f'<td>{escape(e["container"])}</td><td>{escape(e["site"] or "—")}</td><td>{fmt(e["observed"])}</td><td>{fmt(e["target"])}</td>'
                 f'<td>{e["ratio"]:.3f}</td><td>{rep}</td><td>{fmt(e["desired"])}</td>'
                 f'<td><a href="{_link(e)}">Table {escape(str(e["table_id"]))}, row {e["row"]}</a></td></tr>')
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


def defaults() -> dict:
    return {"product": "", "mem_threshold": DEFAULT_MEM_THRESHOLD, "csv": ""}


def run_web(bundle: dict, params: dict) -> dict:
    res = compute(bundle, params.get("product") or None, params.get("mem_threshold") or DEFAULT_MEM_THRESHOLD)
    own = problems = None
    if (params.get("csv") or "").strip():
        own, problems = parse_own(params["csv"])
    return {"html": to_html(res, own, problems), "inputs": res["inputs"], "chart": None,
            "downloads": {"csv": {"text": to_csv(res, own), "mime": "text/csv", "filename": "over-target.csv"}}}


web.register("overtarget", run_web, OverTargetError)
