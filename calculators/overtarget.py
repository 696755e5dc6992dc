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

Replicas the HPA would ask for (``hpa``; source: Kubernetes documentation,
"Horizontal Pod Autoscaling", section "Algorithm details",
https://kubernetes.io/docs/concepts/workloads/autoscaling/horizontal-pod-autoscale/#algorithm-details,
and the controller's GetResourceUtilizationRatio): utilization read as a whole
percent, truncated as the controller's integer arithmetic does (29.9 % reads
29 %); ``desiredReplicas = ceil(currentReplicas x reading / target)``; no
change while |reading/target - 1| <= the tolerance, 0.1 by default
(``--horizontal-pod-autoscaler-tolerance``, cluster-wide; since Kubernetes
v1.33 each HPA may set its own scale-up/scale-down tolerance, alpha feature
HPAConfigurableTolerance, KEP-4951); then clamped to the HPA's min/max
replicas where the guide prints them (policy Tables 3-81, 3-92, 3-104: 'Min
Replicas', 'Max Replicas'). Example: 50 replicas at 90 % against 75 %: ratio
1.2 -> 60. Where only the min/max range is printed (no current count), the
result gives what the HPA would ask starting from either end. The current
replicas are those printed for the same scenario, service and container (same
site, or the table without a site); without them no desired count is given.

Partial: scenarios with utilization rows flagged by an erratum or printed
without a value (``partial.exclusions``) are listed above the flags and
marked on each of their rows: a service missing there may still be over.

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

from . import catalogue, inputs
from .partial import exclusions, usable
from .formatting import csv_writer, escape, fmt

MAX_BYTES = 1048576
"""Largest CSV accepted (1 MiB, the file input's data-max-bytes); chosen by the Benchmark Atlas."""
MAX_CELL = 30
"""Longest number text accepted in a CSV cell (characters); a longer one is that line's problem, never an
OverflowError or a 4,300-digit conversion. A Benchmark Atlas limit."""
MAX_OBSERVED = 100000
"""Highest observed utilization accepted from a CSV line, percent of the request (1,000 x: far above any
printed value, whose highest is the flagged 22,530 % of policy Table 3-196). A Benchmark Atlas limit."""
MAX_ROWS = 5000
"""Most service rows evaluated from one CSV; chosen by the Benchmark Atlas."""
SHOWN_ROWS = 100
"""Most of the user's rows (and of their problems) written into the page; all are in the CSV
download and counted in the page. Chosen by the Benchmark Atlas: a 5,000-row table took about
1.2 s of layout on the browser's main thread (2-core machine); with 200 rows the whole result
still took up to 190 ms there under load, so 100, with room to spare."""
TOLERANCE = Fraction(1, 10)
"""The HPA's default tolerance (Kubernetes HPA documentation, see the module docstring)."""
NEAR = Fraction(1, 10)
"""'Near' band: within 10 % of the target, relative (observed >= 0.9 x target)."""
DEFAULT_MEM_THRESHOLD = "80"
HPA_RULE = ("HPA desired replicas as the Kubernetes controller computes them (kubernetes.io, Horizontal Pod Autoscaling, "
            "'Algorithm details'): utilization is read as a whole percent of the request, truncated (29.9 % reads 29 %); "
            "desired = ceil(current x reading / target), unchanged while |reading / target - 1| <= 0.1, the default "
            "cluster-wide tolerance (--horizontal-pod-autoscaler-tolerance; since Kubernetes v1.33 an HPA may set its own "
            "scale-up and scale-down tolerance, alpha feature HPAConfigurableTolerance, KEP-4951); then clamped to the "
            "HPA's min/max replicas where the guide prints them.")
"""The rule the desired-replica column follows, stated on the page with its Kubernetes version."""


class OverTargetError(ValueError):
    """Bad input to the over-target calculator; the message says what and why."""


_frac = inputs.exact


def hpa(current: int, observed, target, tolerance=TOLERANCE, min_replicas=None, max_replicas=None) -> dict:
    """What the Kubernetes HPA controller would do, step by step.

    ``current`` pods (int >= 0); ``observed`` and ``target`` utilization in percent (target > 0);
    ``min_replicas``/``max_replicas`` the HPA's bounds where printed (None: unbounded). Steps, as
    the controller does them (kubernetes.io, Horizontal Pod Autoscaling, "Algorithm details";
    the controller's GetResourceUtilizationRatio): utilization is read as a *whole* percent,
    truncated (``int32(usage x 100 / request)``, so 29.9 % reads 29 %); ratio = whole / target;
    within the tolerance (|ratio - 1| <= 0.1) the count stays; else ceil(current x ratio); then
    the result is clamped to [min, max]. Returns ``{"reads": whole percent, "ratio": Fraction,
    "within_tolerance": bool, "unclamped": int, "desired": int, "bound": 'min'/'max'/None}``.
    Raises OverTargetError for a negative current count, a target <= 0 or a negative observation.
    """
    if not isinstance(current, int) or isinstance(current, bool) or current < 0:
        raise OverTargetError(f"Current replicas must be a whole number >= 0, not {inputs.shown(current)!r}.")
    obs, tgt = _frac(observed), _frac(target)
    if tgt <= 0 or obs < 0:
        raise OverTargetError("Target must be above 0 % and observed at least 0 %.")
    reads = math.floor(obs)
    ratio = Fraction(reads) / tgt
    within = abs(ratio - 1) <= _frac(tolerance)
    unclamped = current if within else math.ceil(current * ratio)
    desired, bound = unclamped, None
    if min_replicas is not None and max_replicas is not None and min_replicas > max_replicas:
        min_replicas = max_replicas = None  # printed bounds contradict each other: not applied
    if max_replicas is not None and desired > max_replicas:
        desired, bound = int(max_replicas), "max"
    elif min_replicas is not None and desired < min_replicas:
        desired, bound = int(min_replicas), "min"
    return {"reads": reads, "ratio": ratio, "within_tolerance": within, "unclamped": unclamped, "desired": desired, "bound": bound}


def hpa_desired(current: int, observed, target, tolerance=TOLERANCE, min_replicas=None, max_replicas=None) -> int:
    """Replicas the Kubernetes HPA would ask for (see ``hpa``): ``current`` pods (int >= 0),
    ``observed`` and ``target`` utilization in percent, optional HPA bounds. Raises OverTargetError."""
    return hpa(current, observed, target, tolerance, min_replicas, max_replicas)["desired"]


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
             and r["container"] == container and (r.get("replicas") is not None or r.get("replicas_max") is not None)]
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
    thr = inputs.percent(mem_threshold, "Memory threshold", OverTargetError)
    doc_of = {s["id"]: s["doc"] for s in bundle["scenarios"]}
    want = lambda sid: doc_of.get(sid) is not None and (not product or doc_of[sid] == product)
    cpu, mem = [], []
    partial_by = {}

    def part(sid):
        if sid not in partial_by:
            ex = exclusions(bundle, sid, "utilization")
            partial_by[sid] = ex["text"] if ex["partial"] else ""
        return partial_by[sid]

    for u in util_rows(bundle):
        if not want(u["scenario"]) or not usable(u) or u["observed_percent"] is None:
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
            lo = int(rep["replicas_min"]) if rep and rep.get("replicas_min") is not None else None
            hi = int(rep["replicas_max"]) if rep and rep.get("replicas_max") is not None else None
            h = hpa(int(cur), u["observed_percent"], u["target_percent"], min_replicas=lo, max_replicas=hi) if cur is not None else None
            ends = None
            gone = None
            if rep is None:
                gone = next((x for x in exclusions(bundle, u["scenario"], "resources")["rows"]
                             if x["service"] == u["service"] and x["container"] == u["container"] and x["site"] in (u["site"], "")), None)
            if cur is None and lo is not None and hi is not None and lo <= hi:
                # only the HPA range is printed: what the HPA would ask starting from either end
                ends = {"min": hpa(lo, u["observed_percent"], u["target_percent"], min_replicas=lo, max_replicas=hi),
                        "max": hpa(hi, u["observed_percent"], u["target_percent"], min_replicas=lo, max_replicas=hi)}
            cpu.append({**base, "target": u["target_percent"], "status": st,
                        "ratio": float(_frac(u["observed_percent"]) / _frac(u["target_percent"])),
                        "hpa_reads": math.floor(_frac(u["observed_percent"])),
                        "replicas": cur, "replicas_table": rep["table_id"] if rep else None, "replicas_row": rep["row"] if rep else None,
                        "hpa_min": lo, "hpa_max": hi, "bound": h["bound"] if h else None,
                        "desired": h["desired"] if h else None, "unclamped": h["unclamped"] if h else None,
                        "desired_from_ends": {k: {x: v[x] for x in ("desired", "unclamped", "bound")} for k, v in ends.items()} if ends else None,
                        "partial": part(u["scenario"]),
                        "replicas_excluded": (f"its replica row, Table {gone['table_id']} row {gone['row']}, is {gone['status']}"
                                              + (f" ({', '.join(gone['errata'])})" if gone["errata"] else "")) if gone else None})
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
                        "hpa_reads": math.floor(_frac(w["observed_percent"])), "hpa_min": None, "hpa_max": None,
                        "bound": None, "desired_from_ends": None, "partial": part(w["scenario"]), "replicas_excluded": None,
                        "target_table": w.get("target_table_id"), "target_row": w.get("target_row")})
    cpu.sort(key=lambda e: (-e["ratio"], e["scenario"], e["row"], e["site"]))
    mem.sort(key=lambda e: (-e["observed"], e["scenario"], e["row"], e["site"]))
    partial = {sid: t for sid, t in partial_by.items() if t}
    for sid in sorted({s["id"] for s in bundle["scenarios"] if want(s["id"])} - set(partial_by)):
        t = part(sid)
        if t:
            partial[sid] = t
    return {"cpu": cpu, "memory": mem, "inputs": {"product": product or "", "mem_threshold": float(thr)}, "partial": partial,
            "counts": {"over": sum(e["status"] == "over" for e in cpu), "near": sum(e["status"] == "near" for e in cpu),
                       "memory": len(mem)}}


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
        except (OverflowError, ValueError, ZeroDivisionError) as e:  # a number no check above foresaw
            problems.append({"line": line, "message": f"a value cannot be read as a number ({type(e).__name__})."})
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
    for c in ("replicas", "cpu_request", "observed", "target"):
        if len(cell(c)) > MAX_CELL:
            raise OverTargetError(f"{c} is too long to be a number ({len(cell(c)):,} characters: {inputs.shown(cell(c))}).")
    rep_t = cell("replicas")
    if not re.fullmatch(r"[0-9]{1,6}", rep_t):
        raise OverTargetError(f"replicas must be a whole number from 0 to 999999, not {rep_t!r}.")
    replicas = int(rep_t)
    tgt_m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*%?", cell("target"))
    if not tgt_m or not 1 <= Fraction(tgt_m.group(1)) <= 100:
        raise OverTargetError(f"target must be a percent from 1 to 100, not {inputs.shown(cell('target'))!r}.")
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
    if observed > MAX_OBSERVED:
        raise OverTargetError(f"observed works out at {inputs.shown(observed)} % of the request, above {MAX_OBSERVED:,} %: "
                              "check the value and its unit.")
    status = classify(observed, target) or "ok"
    return {"line": line, "hpa_reads": math.floor(observed), "name": name, "replicas": replicas, "cpu_request": float(request) if request is not None else None,
            "observed": float(observed), "observed_how": how, "target": float(target), "ratio": float(observed / target),
            "status": status, "desired": hpa_desired(replicas, observed, target)}


# ---------------------------------------------------------------- output

def _link(e) -> str:
    return f"../../products/{escape(e['doc'])}/{escape(e['scenario'])}/#{anchor(e['table_id'])}"


CSV_COLS = ["kind", "status", "doc", "scenario", "table_id", "row", "row_label", "site", "service", "container", "observed_percent",
            "target_percent", "threshold_percent", "replicas", "replicas_table", "replicas_row", "hpa_reads_percent",
            "hpa_min_replicas", "hpa_max_replicas", "partial", "hpa_desired_replicas"]


def to_csv(res: dict, own: list[dict] | None = None) -> str:
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(CSV_COLS)
    for e in res["cpu"]:
        w.writerow(["cpu", e["status"], e["doc"], e["scenario"], e["table_id"], e["row"], e["row_label"], e["site"], e["service"],
                    e["container"], e["observed"], e["target"], "", _e(e["replicas"]), _e(e["replicas_table"]), _e(e["replicas_row"]),
                    e["hpa_reads"], _e(e["hpa_min"]), _e(e["hpa_max"]), e["partial"], _desired_text(e)])
    for e in res["memory"]:
        w.writerow(["memory", "memory", e["doc"], e["scenario"], e["table_id"], e["row"], e["row_label"], e["site"], e["service"],
                    e["container"], e["observed"], "", e["threshold"], "", "", "", "", "", "", res.get("partial", {}).get(e["scenario"], ""), ""])
    for e in own or []:
        w.writerow(["own-cpu", e["status"], "", "", "", e["line"], e["name"], "", e["name"], "", round(e["observed"], 4), e["target"],
                    "", e["replicas"], "", "", e["hpa_reads"], "", "", "", e["desired"]])
    return buf.getvalue()


def _e(v):
    return "" if v is None else v


def _desired_text(e) -> str | int:
    """The HPA's desired replicas: a count, 'N (clamped at max M)', or, where only the HPA's range is
    printed, what it would ask from either end; '' when no replica count or range is printed."""
    if e["desired"] is not None:
        if not e["bound"]:
            return e["desired"]
        return f"{e['desired']} (asks {e['unclamped']}, clamped at {e['bound']})"
    ends = e.get("desired_from_ends")
    if e.get("replicas_excluded"):
        return "no count: " + e["replicas_excluded"]
    if ends:
        part = lambda k: (f"from {k} {e['hpa_' + k]}: {ends[k]['desired']}"
                          + (f" (asks {ends[k]['unclamped']}, clamped at {ends[k]['bound']})" if ends[k]["bound"] else ""))
        return f"current not printed; {part('min')}; {part('max')}"
    return ""


def to_html(res: dict, own=None, problems=None) -> str:
    c = res["counts"]
    p = ['<div class="atlas-result atlas-overtarget">']
    p.append(f'<p class="atlas-summary"><strong>{c["over"]}</strong> service rows at or over their CPU target, '
             f'<strong>{c["near"]}</strong> within 10 % below it (relative: observed ≥ 0.9 × target), and '
             f'<strong>{c["memory"]}</strong> memory rows at or above {fmt(res["inputs"]["mem_threshold"])} %'
             f'{" for " + escape(res["inputs"]["product"]) if res["inputs"]["product"] else " across all products"}.</p>')
    if own is not None or problems:
        p.append("<h3>Your services</h3>")
        if own:
            n = {s: sum(1 for e in own if e["status"] == s) for s in ("over", "near", "ok")}
            p.append(f'<p class="atlas-own-counts">{len(own):,} rows evaluated: <strong>{n["over"]:,}</strong> over, '
                     f'<strong>{n["near"]:,}</strong> near, {n["ok"]:,} ok'
                     f'{f"; {len(problems):,} not evaluated (below)" if problems else ""}.</p>')
        if problems:
            p.append('<ul class="atlas-warnings" id="atlas-own-problems">' + "".join(
                f'<li data-line="{x["line"]}">Line {x["line"]}: {escape(x["message"])}</li>' for x in problems[:SHOWN_ROWS]) + "</ul>")
            if len(problems) > SHOWN_ROWS:
                p.append(f'<p class="atlas-own-more">The first {SHOWN_ROWS:,} of {len(problems):,} problems are listed.</p>')
        if own:
            if len(own) > SHOWN_ROWS:
                p.append(f'<p class="atlas-own-more">The first {SHOWN_ROWS:,} of your {len(own):,} rows are shown here; '
                         f'the CSV download has all of them, with their flags.</p>')
            p.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-own"><thead><tr><th>Line</th><th>Service</th>'
                     '<th>Replicas</th><th>Observed CPU (%)</th><th>Target (%)</th><th>Flag</th><th>HPA desired replicas</th></tr></thead><tbody>')
            for e in own[:SHOWN_ROWS]:
                p.append(f'<tr data-service="{escape(e["name"])}" data-status="{e["status"]}"><td>{e["line"]}</td><td>{escape(e["name"])}</td>'
                         f'<td>{e["replicas"]}</td><td title="{escape(e["observed_how"])}">{fmt(round(e["observed"], 3))}</td>'
                         f'<td>{fmt(e["target"])}</td><td>{e["status"]}</td><td>{e["desired"]}</td></tr>')
            p.append("</tbody></table></div>")
    p.append(f'<p class="atlas-note">{escape(HPA_RULE)}</p>')
    if res.get("partial"):
        p.append('<div class="atlas-warnings atlas-partial"><p><strong>Partial:</strong> these scenarios have utilization rows '
                 'that could not be evaluated (flagged by an erratum or printed without a value); a service missing here may '
                 'still be over its target.</p><ul>' + "".join(
                     f'<li data-scenario="{escape(sid)}">{escape(sid)}: {escape(t)}</li>' for sid, t in res["partial"].items())
                 + "</ul></div>")
    p.append("<h3>CPU at, over or near the target</h3>")
    p.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-cpu-flags"><thead><tr><th>Flag</th><th>Scenario</th><th>Service</th>'
             '<th>Container</th><th>Site</th><th>Observed CPU (%)</th><th>Target (%)</th><th>Observed / target</th>'
             '<th>Replicas (printed)</th><th>HPA desired replicas</th><th>Source</th><th>HPA reads (whole %)</th>'
             '<th>Scenario partial</th></tr></thead><tbody>')
    for e in res["cpu"]:
        rep = (fmt(e["replicas"]) + f' <small>(Table {escape(str(e["replicas_table"]))}, row {e["replicas_row"]})</small>'
               if e["replicas"] is not None else (f'— <small>({escape(e["replicas_excluded"])})</small>' if e.get("replicas_excluded") else
                                                  '<span title="no replica count printed for this service">—</span>'))
        p.append(f'<tr data-scenario="{escape(e["scenario"])}" data-service="{escape(e["service"])}" data-site="{escape(e["site"])}" '
                 f'data-status="{e["status"]}"{" data-partial" if e["partial"] else ""}><td>{e["status"]}</td><td>{escape(e["scenario"])}</td><td>{escape(e["service"])}</td>'
                 f'<td>{escape(e["container"])}</td><td>{escape(e["site"] or "—")}</td><td>{fmt(e["observed"])}</td><td>{fmt(e["target"])}</td>'
                 f'<td>{e["ratio"]:.3f}</td><td>{rep}</td><td>{escape(str(_desired_text(e))) or "—"}</td>'
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


def defaults() -> dict:
    return {"product": "", "mem_threshold": DEFAULT_MEM_THRESHOLD, "csv": ""}


def compute_web(bundle: dict, params: dict) -> tuple:
    """(result, own rows or None, problems or None) of the form's strings (``params``). Raises OverTargetError."""
    res = compute(bundle, params.get("product") or None, params.get("mem_threshold") or DEFAULT_MEM_THRESHOLD)
    own = problems = None
    if (params.get("csv") or "").strip():
        own, problems = parse_own(params["csv"])
    return res, own, problems


def run_web(bundle: dict, params: dict) -> dict:
    res, own, problems = compute_web(bundle, params)
    return {"html": to_html(res, own, problems), "inputs": res["inputs"], "chart": None,
            "downloads": {"csv": {"text": lambda: to_csv(res, own), "mime": "text/csv", "filename": "over-target.csv"}}}


def report_web(bundle: dict, params: dict) -> dict:
    """The report (``calculators.report``) of the result ``run_web`` gives. Raises OverTargetError."""
    from . import report
    return report.overtarget(*compute_web(bundle, params), bundle)


catalogue.register("overtarget", run_web, OverTargetError, report_web)
