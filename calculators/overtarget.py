"""Over-target flags: services whose observed CPU is at or over its target, or close below it, with what the
Kubernetes HPA controller would do about it and how severe that is.

Standard library only: this module runs unchanged in CPython and in Pyodide.

Inputs are the calculator bundle (``util_rows``: every CPU utilization row
printing a target, the Y of the guide's X/Y cells, and every memory row, all
with status ok or corrected: flagged, missing and not-applicable values are
never in the bundle; ``scenario_cpu``: a scenario-wide observed CPU where a
guide prints only one, with the scenario's 'Target CPU' setting; ``resources``
for the replica counts and the HPA's min/max) and, optionally, a CSV of the
user's own services.

Units: CPU and memory utilization in percent (of the request unless the data
says limit), CPU request in cores, replicas in pods.

Flags (per row, i.e. per service, container and site), the atlas's own exact
comparison of the printed values:

* ``over``: observed >= target.
* ``near``: observed below target but within 10 % of it, *relative*:
  observed >= 0.9 x target (a 30 % target is near from 27 %, an 80 % target
  from 72 %), the width of the HPA's default tolerance.
* ``memory``: observed memory at or above the user's threshold (percent).

What the HPA controller would do (``hpa``), step by step as kubernetes/kubernetes
writes it in pkg/controller/podautoscaler (read in the sources, not the
documentation's summary):

1. metrics/utilization.go, ``GetResourceUtilizationRatio``: the utilization is
   ``int32((metricsTotal * 100) / requestsTotal)``, integer milli-units, so a
   whole percent, truncated (29.9 % reads 29 %; exact arithmetic here, as there);
   the usage ratio is ``float64(utilization) / float64(targetUtilization)``, a
   float64 division (Python's float is the same IEEE 754 binary64, rounded to
   nearest). The target is an int32: a target that is not a whole percent is refused.
2. replica_calculator.go, ``GetResourceReplicas``: the count stays while the
   ratio is inside the tolerance, else it becomes
   ``int32(math.Ceil(usageRatio * float64(readyPodCount)))``, one float64
   multiplication then the ceiling: 42 replicas at 45 % against 70 % give
   0.6428571428571429 x 42 = 27.000000000000004 -> 28 (the exact 27 is never
   computed). The current replicas stand for the ready pods with metrics
   (the guides print no unready or missing pods).
   The tolerance test depends on the Kubernetes version (``CONTROLLERS``):
   up to v1.32, ``math.Abs(1.0-usageRatio) <= tolerance``; since v1.33
   (KEP-4951, implementation PR kubernetes/kubernetes#130797),
   ``Tolerances.isWithin``: ``(1.0-scaleDown) <= usageRatio && usageRatio <=
   (1.0+scaleUp)``, both tolerances the cluster's
   ``--horizontal-pod-autoscaler-tolerance`` (0.1) unless the HPA sets
   ``spec.behavior.scaleUp/scaleDown.tolerance`` (feature gate
   HPAConfigurableTolerance, alpha in v1.33). In float64 the two differ at a
   ratio of exactly 1.1: 88 % against 80 % gives |1.0 - 1.1| =
   0.10000000000000009 > 0.1 (v1.32: scale, ceil(5 x 1.1) = 6 from 5) but
   1.1 <= 1.0 + 0.1 = 1.1 (v1.33: no change). For whole percents the v1.33 test
   is the exact one (checked for every reading 0-200 % and target 1-100 %).
3. horizontal.go, ``reconcileAutoscaler`` and ``convertDesiredReplicasWithRules``:
   a current count of 0 disables scaling; a current count above maxReplicas
   becomes maxReplicas (below minReplicas: minReplicas) without reading any
   metric; otherwise the metric's count is clamped to [minReplicas, maxReplicas]
   (ScalingLimited, reason TooManyReplicas or TooFewReplicas). Not modelled:
   the per-sync scale-up limit (max(2 x current, 4) pods without
   ``spec.behavior``; the behavior's policies with it) and the stabilization
   windows, which slow the way to the count, not the count.

The min/max are those the guide prints (policy Tables 3-81, 3-92, 3-104: 'Min
Replicas', 'Max Replicas'); where only the range is printed (no current
count), the result gives what the HPA would ask starting from either end. The
current replicas are those printed for the same scenario, service and
container (same site, or the table without a site); without them no desired
count is given. When the count the metric asks for is above the max, the
result says the HPA max must rise to that count for the service to reach its
target (``max_must_rise_to``).

Severity (``severity``), one per row as KRR shows it: ``critical`` when the
controller would scale up (the ratio above the tolerance band) or its max
stops it reaching the count it asks for; ``warning`` inside the tolerance band
(the HPA holds still, near its target, above or below); ``ok`` below the band
(it would scale in). It follows the controller's reading, so a row flagged
'near' can be ``ok`` (67.6 % against 75 % reads 67: 0.893, below the band).

Partial: scenarios with utilization rows flagged by an erratum or printed
without a value (``partial.exclusions``) are listed above the flags and
marked on each of their rows: a service missing there may still be over.

Errors: ``OverTargetError`` (a ValueError) for a bad memory threshold, an
unknown product or Kubernetes version, an oversized, binary or header-less CSV.
Malformed CSV rows do not raise: they are reported by line number and the
other rows are evaluated.
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
TOLERANCE = 0.1
"""The HPA controller's tolerance, a float64 as the controller holds it: kube-controller-manager's
``--horizontal-pod-autoscaler-tolerance``, 0.1 when unset (kubernetes/kubernetes,
pkg/controller/podautoscaler/config/v1alpha1/defaults.go, ``RecommendedDefaultHPAControllerConfiguration``)."""
INT32_MAX = 2 ** 31 - 1
"""The most replicas an HPA's int32 count holds (the controller's ``int32(math.Ceil(...))``)."""
CONTROLLERS = {"1.33": "Kubernetes v1.33 or later", "1.32": "Kubernetes v1.32 or earlier"}
"""The HPA controllers whose tolerance tests differ (see the module docstring): key -> the name the page shows."""
DEFAULT_CONTROLLER = "1.33"
"""The controller of today's Kubernetes releases (the ``Tolerances.isWithin`` test, since v1.33)."""
NEAR = Fraction(1, 10)
"""'Near' band of the flags: within 10 % of the target, relative (observed >= 0.9 x target)."""
SEVERITIES = ("critical", "warning", "ok")
"""Severity levels, most severe first (the order the rows are listed in)."""
DEFAULT_MEM_THRESHOLD = "80"
HPA_RULE = ("HPA desired replicas as the Kubernetes HPA controller computes them (kubernetes/kubernetes, "
            "pkg/controller/podautoscaler: GetResourceUtilizationRatio, GetResourceReplicas, normalizeDesiredReplicas): "
            "utilization is read as a whole percent of the request, truncated (29.9 % reads 29 %); the usage ratio is "
            "reading / target in float64; the count stays while the ratio is within the tolerance of 0.1 "
            "(--horizontal-pod-autoscaler-tolerance): since Kubernetes v1.33 (1 - 0.1) <= ratio <= (1 + 0.1), each side "
            "settable per HPA (spec.behavior.scaleUp/scaleDown.tolerance, KEP-4951); up to v1.32 |1 - ratio| <= 0.1, "
            "which in float64 scales at a ratio of exactly 1.1 (88 % against 80 %: |1 - 1.1| = 0.10000000000000009); "
            "otherwise desired = ceil(ratio x current) in float64 (42 replicas at 45 % against 70 %: "
            "0.6428571428571429 x 42 = 27.000000000000004, so 28); then clamped to the HPA's min/max replicas where "
            "printed: a count the max stops is shown with the max it needs. Severity: critical where the HPA would "
            "scale up or its max stops it, warning inside the tolerance band (it holds still), ok below it.")
"""The rule the desired-replica column follows, stated on the page, in the report and on the command line."""


class OverTargetError(ValueError):
    """Bad input to the over-target calculator; the message says what and why."""


_frac = inputs.exact


def controller_of(kubernetes) -> str:
    """The ``CONTROLLERS`` key of ``kubernetes`` ('1.33', '1.32', or None/'' for the default, '1.33').
    Raises OverTargetError naming the choices for anything else."""
    k = DEFAULT_CONTROLLER if kubernetes in (None, "") else str(kubernetes).strip()
    if k not in CONTROLLERS:
        raise OverTargetError(f"Kubernetes version must be one of {', '.join(CONTROLLERS)} "
                              f"({'; '.join(f'{k}: {v}' for k, v in CONTROLLERS.items())}), not {inputs.shown(kubernetes)!r}.")
    return k


def within_tolerance(usage_ratio: float, controller: str = DEFAULT_CONTROLLER, tolerance_up: float = TOLERANCE,
                     tolerance_down: float = TOLERANCE) -> bool:
    """Whether the HPA controller keeps the current count at ``usage_ratio`` (a float64, reading / target).

    ``controller`` '1.33' (Kubernetes v1.33 or later): ``Tolerances.isWithin`` in replica_calculator.go,
    ``(1.0 - tolerance_down) <= usage_ratio <= (1.0 + tolerance_up)``; '1.32' (up to v1.32):
    ``math.Abs(1.0 - usage_ratio) <= tolerance``, one tolerance for both directions. Tolerances are float64
    fractions (0.1 = 10 %), default ``TOLERANCE``. Raises OverTargetError for a negative tolerance, an unknown
    controller, or different up and down tolerances with '1.32' (per-direction tolerances came with KEP-4951)."""
    if tolerance_up < 0 or tolerance_down < 0:
        raise OverTargetError("Tolerances must be 0 or more (0.1 is 10 %).")
    if controller == "1.33":
        return (1.0 - tolerance_down) <= usage_ratio <= (1.0 + tolerance_up)
    if controller == "1.32":
        if tolerance_up != tolerance_down:
            raise OverTargetError("Separate scale-up and scale-down tolerances need Kubernetes v1.33 or later (KEP-4951).")
        return abs(1.0 - usage_ratio) <= tolerance_up
    raise OverTargetError(f"Unknown HPA controller {controller!r}; choose one of: {', '.join(CONTROLLERS)}.")


def hpa_usage(observed, target, controller: str = DEFAULT_CONTROLLER, tolerance_up: float = TOLERANCE,
              tolerance_down: float = TOLERANCE) -> dict:
    """The controller's reading of ``observed`` % against ``target`` % (a whole percent above 0), before any
    replica count: ``{"reads": whole percent (int, truncated), "ratio": float64 reads / target,
    "within_tolerance": bool, "severity": 'critical' above the band, 'warning' inside it, 'ok' below it}``
    (``severity`` without the max, which needs a count: see ``hpa``). Raises OverTargetError for a negative
    observation, a target not a whole percent above 0, or a bad tolerance or controller."""
    obs, tgt = _frac(observed), _frac(target)
    if tgt <= 0 or obs < 0:
        raise OverTargetError("Target must be above 0 % and observed at least 0 %.")
    if tgt.denominator != 1:
        raise OverTargetError(f"Target must be a whole percent (an HPA's averageUtilization is an integer), "
                              f"not {inputs.shown(target)}.")
    reads = math.floor(obs)
    ratio = float(reads) / float(tgt.numerator)
    within = within_tolerance(ratio, controller, tolerance_up, tolerance_down)
    return {"reads": reads, "target": tgt.numerator, "ratio": ratio, "within_tolerance": within,
            "severity": "warning" if within else "critical" if ratio > 1.0 else "ok"}


def hpa(current: int, observed, target, *, controller: str = DEFAULT_CONTROLLER, tolerance_up: float = TOLERANCE,
        tolerance_down: float = TOLERANCE, min_replicas=None, max_replicas=None) -> dict:
    """What the Kubernetes HPA controller would do, step by step (module docstring: GetResourceUtilizationRatio,
    GetResourceReplicas, reconcileAutoscaler, convertDesiredReplicasWithRules).

    ``current`` pods (int >= 0); ``observed`` and ``target`` utilization in percent (target a whole percent above 0);
    ``controller`` a ``CONTROLLERS`` key; tolerances as in ``within_tolerance``; ``min_replicas``/``max_replicas`` the
    HPA's bounds where printed (None: unbounded; bounds with min above max contradict each other and are not applied).
    Returns ``{"reads": whole percent, "target": int, "ratio": float64 usage ratio, "within_tolerance": bool, "controller",
    "unclamped": the count the metric asks for (pods), "desired": the controller's count after its bounds (pods),
    "bound": 'min'/'max'/None (which bound set ``desired``), "reason": None or 'current above max' / 'current below
    min' / 'scaling disabled' (the controller reads no metric then), "max_must_rise_to": the count the metric asks
    for when it is above the max (pods), else None, "severity": 'critical' / 'warning' / 'ok'}``.
    Raises OverTargetError for a current count that is not a whole number >= 0, a target that is not a whole percent
    above 0, a negative observation, a bad tolerance or controller, or a count beyond the HPA's int32."""
    if not isinstance(current, int) or isinstance(current, bool) or current < 0:
        raise OverTargetError(f"Current replicas must be a whole number >= 0, not {inputs.shown(current)!r}.")
    use = hpa_usage(observed, target, controller, tolerance_up, tolerance_down)
    ratio = use["ratio"]
    unclamped = current if use["within_tolerance"] else math.ceil(ratio * float(current))
    if unclamped > INT32_MAX:
        raise OverTargetError(f"The HPA would ask for {unclamped:,} replicas, more than its int32 count holds "
                              f"({INT32_MAX:,}).")
    lo = None if min_replicas is None else int(min_replicas)
    hi = None if max_replicas is None else int(max_replicas)
    if lo is not None and hi is not None and lo > hi:
        lo = hi = None  # printed bounds contradict each other: not applied
    desired, bound, reason = unclamped, None, None
    if current == 0:
        desired, reason = 0, "scaling disabled"
    elif hi is not None and current > hi:
        desired, bound, reason = hi, "max", "current above max"
    elif lo is not None and current < lo:
        desired, bound, reason = lo, "min", "current below min"
    elif hi is not None and unclamped > hi:
        desired, bound = hi, "max"
    elif lo is not None and unclamped < lo:
        desired, bound = lo, "min"
    must_rise = unclamped if hi is not None and unclamped > hi else None
    return {**use, "controller": controller, "unclamped": unclamped, "desired": desired, "bound": bound, "reason": reason,
            "max_must_rise_to": must_rise, "severity": "critical" if must_rise is not None else use["severity"]}


def hpa_desired(current: int, observed, target, **options) -> int:
    """Replicas the Kubernetes HPA would ask for (``hpa(...)["desired"]``, pods): ``current`` pods (int >= 0),
    ``observed`` and ``target`` utilization in percent, ``options`` those of ``hpa`` (controller, tolerances,
    min_replicas, max_replicas). Raises OverTargetError as ``hpa`` does."""
    return hpa(current, observed, target, **options)["desired"]


def other_controller(controller: str) -> str:
    """The other ``CONTROLLERS`` key ('1.32' for '1.33' and back)."""
    return next(k for k in CONTROLLERS if k != controller)


def controller_difference(h: dict, other: dict) -> str | None:
    """What the other Kubernetes version's controller does where it differs from ``h`` (both ``hpa`` or
    ``hpa_usage`` results of the same row), as a sentence naming the float64 arithmetic; None when they agree."""
    keys = ("desired", "unclamped", "severity", "within_tolerance")
    if all(h.get(k) == other.get(k) for k in keys):
        return None
    r, reads, target = other["ratio"], other["reads"], other["target"]
    what = (f"{CONTROLLERS[other['controller']]}: " +
            (f"{other['desired']} replicas" if other.get("desired") is not None else
             "holds still" if other["within_tolerance"] else "scales")
            + f" ({other['severity']})")
    if other["controller"] == "1.32":
        why = (f"|1 - {reads}/{target}| = {abs(1.0 - r)!r} in float64, "
               + ("within" if other["within_tolerance"] else "above") + " the 0.1 tolerance")
    else:
        why = (f"{reads}/{target} = {r!r} in float64, " + ("within" if other["within_tolerance"] else "outside")
               + f" (1 - 0.1) <= ratio <= (1 + 0.1) = {1.0 + TOLERANCE!r}")
    return f"{what}: {why}"


def classify(observed, target) -> str | None:
    """The atlas's flag of ``observed`` % against ``target`` %, exact: 'over' (observed >= target), 'near'
    (>= 0.9 x target) or None."""
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


def hpa_view(observed, target, current=None, min_replicas=None, max_replicas=None,
             controller: str = DEFAULT_CONTROLLER) -> dict:
    """The HPA fields of one row (a guide's or the user's): ``observed`` and ``target`` in percent, ``current``
    pods (None: not printed), the HPA's ``min_replicas``/``max_replicas`` (None: not printed).

    Returns ``{"hpa_reads", "usage_ratio" (float64), "within_tolerance", "severity", "desired", "unclamped", "bound",
    "reason", "max_must_rise_to", "desired_from_ends", "hpa_min", "hpa_max", "controller_note", "other_controller"}``:
    with a current
    count, ``hpa``'s counts (pods); without one but with a consistent min/max, ``desired_from_ends`` gives ``hpa``
    started from either end (``{"min": {...}, "max": {...}}``, each with desired, unclamped, bound and
    max_must_rise_to) and ``max_must_rise_to`` the higher of theirs; without either, no counts (None) and the
    severity of the ratio alone. ``controller_note`` is ``controller_difference`` against the other Kubernetes
    version and ``other_controller`` its ``{"controller", "desired", "severity"}`` (both None where they agree).
    Raises OverTargetError as ``hpa`` does."""
    def view(ctl):
        use = hpa_usage(observed, target, ctl)
        out = {"hpa_reads": use["reads"], "usage_ratio": use["ratio"], "within_tolerance": use["within_tolerance"],
               "severity": use["severity"], "desired": None, "unclamped": None, "bound": None, "reason": None,
               "max_must_rise_to": None, "desired_from_ends": None, "hpa_min": min_replicas, "hpa_max": max_replicas}
        first = use
        if current is not None:
            first = hpa(int(current), observed, target, controller=ctl, min_replicas=min_replicas, max_replicas=max_replicas)
            out.update({k: first[k] for k in ("desired", "unclamped", "bound", "reason", "max_must_rise_to", "severity")})
        elif min_replicas is not None and max_replicas is not None and min_replicas <= max_replicas:
            # only the HPA range is printed: what the HPA would ask starting from either end
            ends = {k: hpa(int(n), observed, target, controller=ctl, min_replicas=min_replicas, max_replicas=max_replicas)
                    for k, n in (("min", min_replicas), ("max", max_replicas))}
            out["desired_from_ends"] = {k: {x: v[x] for x in ("desired", "unclamped", "bound", "max_must_rise_to")}
                                        for k, v in ends.items()}
            rise = [v["max_must_rise_to"] for v in ends.values() if v["max_must_rise_to"] is not None]
            out["max_must_rise_to"] = max(rise) if rise else None
            out["severity"] = "critical" if rise else use["severity"]
            first = {**use, "severity": out["severity"]}  # no single count to compare: the decision and severity
        return out, {**first, "controller": ctl}

    mine, first = view(controller)
    theirs, other = view(other_controller(controller))
    same = all(mine[k] == theirs[k] for k in ("desired", "unclamped", "severity", "within_tolerance", "desired_from_ends"))
    mine["controller_note"] = None if same else controller_difference(first, other)
    mine["other_controller"] = None if same else {"controller": other["controller"], "desired": theirs["desired"],
                                                  "severity": theirs["severity"]}
    return mine


def compute(bundle: dict, product=None, mem_threshold=DEFAULT_MEM_THRESHOLD, kubernetes=DEFAULT_CONTROLLER) -> dict:
    """Flag every service over or near its CPU target, with what the HPA controller of Kubernetes version
    ``kubernetes`` ('1.33': v1.33 or later, the default; '1.32': v1.32 or earlier) would do and its severity; and
    memory at or over ``mem_threshold`` %.

    Returns ``{"cpu": [...], "memory": [...], "counts": {...}, "inputs": {...}, "partial": {...}, "max_blocked": [...]}``;
    each entry names doc, scenario, where (guide and section, e.g. 'Policy 3.2.2'), table_id, row, row_label, site,
    service, container, observed and target
    (percent), status ('over'/'near'/'memory'), and for CPU the current replicas (with their table and row), the
    HPA fields of ``hpa_view`` (desired replicas None when no replica count is printed) and severity. CPU rows are
    listed most severe first, then by observed / target. ``max_blocked`` lists the rows whose HPA max stops the
    count the metric asks for, each with a sentence saying to what the max must rise (``text``).
    Raises OverTargetError for an unknown product or Kubernetes version or a threshold outside 1-100 %.
    """
    docs = products(bundle)
    if product not in (None, "") and product not in docs:
        raise OverTargetError(f"Unknown product {product!r}; choose one of: {', '.join(docs)}.")
    thr = inputs.percent(mem_threshold, "Memory threshold", OverTargetError)
    controller = controller_of(kubernetes)
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
            gone = None
            if rep is None:
                gone = next((x for x in exclusions(bundle, u["scenario"], "resources")["rows"]
                             if x["service"] == u["service"] and x["container"] == u["container"] and x["site"] in (u["site"], "")), None)
            cpu.append({**base, "target": u["target_percent"], "status": st,
                        "ratio": float(_frac(u["observed_percent"]) / _frac(u["target_percent"])),
                        **hpa_view(u["observed_percent"], u["target_percent"], None if cur is None else int(cur), lo, hi, controller),
                        "replicas": cur, "replicas_table": rep["table_id"] if rep else None, "replicas_row": rep["row"] if rep else None,
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
                        **hpa_view(w["observed_percent"], w["target_percent"], controller=controller),
                        "replicas": None, "replicas_table": None, "replicas_row": None,
                        "partial": part(w["scenario"]), "replicas_excluded": None,
                        "target_table": w.get("target_table_id"), "target_row": w.get("target_row")})
    cpu.sort(key=lambda e: (SEVERITIES.index(e["severity"]), -e["ratio"], e["scenario"], e["row"], e["site"]))
    mem.sort(key=lambda e: (-e["observed"], e["scenario"], e["row"], e["site"]))
    partial = {sid: t for sid, t in partial_by.items() if t}
    for sid in sorted({s["id"] for s in bundle["scenarios"] if want(s["id"])} - set(partial_by)):
        t = part(sid)
        if t:
            partial[sid] = t
    names = {s["id"]: s.get("short_name") or s["id"] for s in bundle["sources"]}
    sections = {s["id"]: s.get("section") for s in bundle["scenarios"]}
    for e in cpu:
        e["where"] = f"{names.get(e['doc'], e['doc'])} {sections.get(e['scenario']) or e['scenario']}"
    blocked = [{"scenario": e["scenario"], "service": e["service"], "container": e["container"], "site": e["site"],
                "table_id": e["table_id"], "row": e["row"], "max_must_rise_to": e["max_must_rise_to"], "hpa_max": e["hpa_max"],
                "text": max_blocked_text(e, e["where"])} for e in cpu if e["max_must_rise_to"] is not None]
    return {"cpu": cpu, "memory": mem, "inputs": {"product": product or "", "mem_threshold": float(thr), "kubernetes": controller},
            "partial": partial, "max_blocked": blocked,
            "counts": {"over": sum(e["status"] == "over" for e in cpu), "near": sum(e["status"] == "near" for e in cpu),
                       "memory": len(mem), **{s: sum(e["severity"] == s for e in cpu) for s in SEVERITIES}}}


def max_blocked_text(e: dict, where: str) -> str:
    """The sentence saying the HPA max must rise, for row ``e`` (a CPU row of ``compute`` or a row of ``parse_own``
    with ``max_must_rise_to`` set); ``where`` names the row's scenario as readers know it (guide and section,
    e.g. 'Policy 3.2.2') or the user's CSV line."""
    ends = e.get("desired_from_ends")
    if ends:
        end = "max" if ends["max"]["max_must_rise_to"] == e["max_must_rise_to"] else "min"
        at = f"started from its {end} of {e['hpa_' + end]} replicas"
    else:
        at = f"at {e['replicas']} replicas"
    rep = (f" (Table {e['replicas_table']}, row {e['replicas_row']})" if e.get("replicas_table") else "")
    src = f", Table {e['table_id']} row {e['row']}" if e.get("table_id") else ""
    svc = e.get("service") or e.get("name")
    site = f" at {e['site']}" if e.get("site") else ""
    return (f"{where}{src}: {svc}{site} reads {e['hpa_reads']} % against its {fmt(e['target'])} % target; {at} the HPA asks "
            f"for {e['max_must_rise_to']:,}, above its max of {e['hpa_max']:,}{rep}: the HPA max must rise to "
            f"{e['max_must_rise_to']:,} for the service to reach its target.")


# ---------------------------------------------------------------- your own CSV

_OBS = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(%|percent|cores?|c|m)?\s*$", re.I)


def parse_own(text: str, kubernetes=DEFAULT_CONTROLLER) -> tuple[list[dict], list[dict]]:
    """Read the user's CSV: header ``name,replicas,cpu_request,observed,target``
    (optional columns: ``observed_unit``, percent or cores; ``min_replicas`` and
    ``max_replicas``, the HPA's bounds in pods). ``observed`` is a percent
    ('72%', or a bare number with observed_unit percent) or the cores all
    replicas used together ('3.5 cores', '3500m'); ``target`` a whole percent
    (an HPA's averageUtilization is an integer); ``cpu_request`` in cores per
    pod (needed to turn cores into percent). Each row gets the HPA fields of
    ``hpa_view`` for Kubernetes version ``kubernetes`` (``CONTROLLERS``).

    Returns (services, problems); each problem is {"line": n, "message": ...}
    (line 1 is the header). Raises OverTargetError for text over MAX_BYTES,
    binary content, a missing header, more than MAX_ROWS rows or an unknown
    Kubernetes version.
    """
    controller = controller_of(kubernetes)
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
        raise OverTargetError(f"Line 1 must be the header name,replicas,cpu_request,observed,target (optional: observed_unit, "
                              f"min_replicas, max_replicas); "
                              f"missing {', '.join(missing)}.")
    body = [(n, r) for n, r in numbered[1:] if any(c.strip() for c in r)]
    if len(body) > MAX_ROWS:
        raise OverTargetError(f"The CSV has {len(body):,} rows; at most {MAX_ROWS:,} are evaluated. Nothing was evaluated.")
    col = {c: head.index(c) for c in head}
    out, problems = [], []
    for line, r in body:
        try:
            out.append(_own_row(line, r, col, controller))
        except OverTargetError as e:
            problems.append({"line": line, "message": str(e)})
        except (OverflowError, ValueError, ZeroDivisionError) as e:  # a number no check above foresaw
            problems.append({"line": line, "message": f"a value cannot be read as a number ({type(e).__name__})."})
    return out, problems


def _own_row(line: int, r: list[str], col: dict, controller: str) -> dict:
    def cell(name):
        i = col.get(name)
        return r[i].strip() if i is not None and i < len(r) else ""

    if len(r) < len(col):
        raise OverTargetError(f"{len(r)} fields, the header has {len(col)}.")
    name = cell("name")
    if not name:
        raise OverTargetError("name is empty.")
    for c in ("replicas", "cpu_request", "observed", "target", "min_replicas", "max_replicas"):
        if len(cell(c)) > MAX_CELL:
            raise OverTargetError(f"{c} is too long to be a number ({len(cell(c)):,} characters: {inputs.shown(cell(c))}).")
    rep_t = cell("replicas")
    if not re.fullmatch(r"[0-9]{1,6}", rep_t):
        raise OverTargetError(f"replicas must be a whole number from 0 to 999999, not {rep_t!r}.")
    replicas = int(rep_t)
    bounds = {}
    for c in ("min_replicas", "max_replicas"):
        t = cell(c)
        if t and not re.fullmatch(r"[0-9]{1,6}", t):
            raise OverTargetError(f"{c} must be a whole number from 0 to 999999 (or empty), not {t!r}.")
        bounds[c] = int(t) if t else None
    lo, hi = bounds["min_replicas"], bounds["max_replicas"]
    if lo is not None and hi is not None and lo > hi:
        raise OverTargetError(f"min_replicas ({lo}) is above max_replicas ({hi}); an HPA refuses that.")
    tgt_m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*%?", cell("target"))
    if not tgt_m or not 1 <= Fraction(tgt_m.group(1)) <= 100:
        raise OverTargetError(f"target must be a percent from 1 to 100, not {inputs.shown(cell('target'))!r}.")
    target = Fraction(tgt_m.group(1))
    if target.denominator != 1:
        raise OverTargetError(f"target must be a whole percent (an HPA's averageUtilization is an integer), "
                              f"not {inputs.shown(cell('target'))!r}.")
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
    return {"line": line, "name": name, "replicas": replicas, "cpu_request": float(request) if request is not None else None,
            "observed": float(observed), "observed_how": how, "target": float(target), "ratio": float(observed / target),
            "status": status, **hpa_view(observed, target, replicas, lo, hi, controller),
            "desired_from_ends": None, "replicas_excluded": None}


# ---------------------------------------------------------------- output

def _link(e) -> str:
    return f"../../products/{escape(e['doc'])}/{escape(e['scenario'])}/#{anchor(e['table_id'])}"


CSV_COLS = ["kind", "status", "doc", "scenario", "table_id", "row", "row_label", "site", "service", "container", "observed_percent",
            "target_percent", "threshold_percent", "replicas", "replicas_table", "replicas_row", "hpa_reads_percent",
            "hpa_min_replicas", "hpa_max_replicas", "partial", "hpa_desired_replicas", "severity", "hpa_unclamped_replicas",
            "hpa_max_must_rise_to", "kubernetes_version_note"]


def to_csv(res: dict, own: list[dict] | None = None) -> str:
    """The result as CSV (``CSV_COLS``): one 'cpu' line per CPU row, one 'memory' line per memory row, one 'own-cpu'
    line per row of the user's CSV (``own``, from ``parse_own``). Counts in pods, utilization in percent."""
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(CSV_COLS)
    for e in res["cpu"]:
        w.writerow(["cpu", e["status"], e["doc"], e["scenario"], e["table_id"], e["row"], e["row_label"], e["site"], e["service"],
                    e["container"], e["observed"], e["target"], "", _e(e["replicas"]), _e(e["replicas_table"]), _e(e["replicas_row"]),
                    e["hpa_reads"], _e(e["hpa_min"]), _e(e["hpa_max"]), e["partial"], _desired_text(e), e["severity"],
                    _e(e["unclamped"]), _e(e["max_must_rise_to"]), _e(e["controller_note"])])
    for e in res["memory"]:
        w.writerow(["memory", "memory", e["doc"], e["scenario"], e["table_id"], e["row"], e["row_label"], e["site"], e["service"],
                    e["container"], e["observed"], "", e["threshold"], "", "", "", "", "", "", res.get("partial", {}).get(e["scenario"], ""),
                    "", "", "", "", ""])
    for e in own or []:
        w.writerow(["own-cpu", e["status"], "", "", "", e["line"], e["name"], "", e["name"], "", round(e["observed"], 4), e["target"],
                    "", e["replicas"], "", "", e["hpa_reads"], _e(e["hpa_min"]), _e(e["hpa_max"]), "", _desired_text(e), e["severity"],
                    _e(e["unclamped"]), _e(e["max_must_rise_to"]), _e(e["controller_note"])])
    return buf.getvalue()


def _e(v):
    return "" if v is None else v


def _desired_text(e) -> str | int:
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
    """The desired-replicas cell: ``_desired_text``, and where the other Kubernetes version decides differently, what
    it does in short (the whole sentence as the title, and in the list above the tables)."""
    text = escape(str(_desired_text(e))) or "—"
    o = e.get("other_controller")
    if not o:
        return text
    short = f'{CONTROLLERS[o["controller"]].replace("Kubernetes ", "")}: ' + (str(o["desired"]) if o["desired"] is not None else o["severity"])
    return text + f'<br><small class="atlas-k8s-note" title="{escape(e["controller_note"])}">{escape(short)}</small>'


def _differences(res: dict, own) -> str:
    """The rows the other Kubernetes version decides differently, each with its sentence, as a closed details block
    ('' when there are none)."""
    rows = [(f'{e.get("where") or e["scenario"]}, Table {e["table_id"]} row {e["row"]}: {e["service"]}'
             + (f' at {e["site"]}' if e["site"] else ""), e["controller_note"]) for e in res["cpu"] if e.get("controller_note")]
    rows += [(f'Your CSV, line {e["line"]}, {e["name"]}', e["controller_note"]) for e in own or [] if e.get("controller_note")]
    if not rows:
        return ""
    other = CONTROLLERS[other_controller(res["inputs"].get("kubernetes") or DEFAULT_CONTROLLER)]
    return (f'<details class="atlas-k8s-differences"><summary>{len(rows):,} row{"s" if len(rows) != 1 else ""} the HPA '
            f'controller of {escape(other)} decides differently</summary><ul>'
            + "".join(f"<li>{escape(w)}: {escape(t)}</li>" for w, t in rows[:SHOWN_ROWS]) + "</ul></details>")


def to_html(res: dict, own=None, problems=None) -> str:
    """The result as the page's HTML: counts by flag and severity, the rows whose HPA max must rise, the user's rows
    (``own``, ``problems`` from ``parse_own``), the HPA rule, the partial scenarios, then the CPU and memory tables."""
    c = res["counts"]
    ctl = res["inputs"].get("kubernetes") or DEFAULT_CONTROLLER
    p = ['<div class="atlas-result atlas-overtarget">']
    p.append(f'<p class="atlas-summary"><strong>{c["over"]}</strong> service rows at or over their CPU target, '
             f'<strong>{c["near"]}</strong> within 10 % below it (relative: observed ≥ 0.9 × target), and '
             f'<strong>{c["memory"]}</strong> memory rows at or above {fmt(res["inputs"]["mem_threshold"])} %'
             f'{" for " + escape(res["inputs"]["product"]) if res["inputs"]["product"] else " across all products"}.</p>')
    p.append(f'<p class="atlas-severity-counts">Severity, as the HPA controller of {escape(CONTROLLERS[ctl])} decides: '
             f'<strong>{c["critical"]}</strong> critical (it would scale up, or its max stops it), '
             f'<strong>{c["warning"]}</strong> warning (inside its tolerance band: it holds still), {c["ok"]} ok.</p>')
    p.append(_differences(res, own))
    blocked = [x["text"] for x in res.get("max_blocked") or []]
    blocked += [max_blocked_text(e, f"Your CSV, line {e['line']}") for e in own or [] if e["max_must_rise_to"] is not None]
    if blocked:
        p.append('<div class="atlas-warnings atlas-max-blocked"><p><strong>HPA max too low:</strong> the count these HPAs ask '
                 'for is above their max replicas.</p><ul>' + "".join(f"<li>{escape(t)}</li>" for t in blocked[:SHOWN_ROWS])
                 + "</ul>" + (f"<p>The first {SHOWN_ROWS:,} of {len(blocked):,} are listed; the CSV download has all of them "
                              "(column hpa_max_must_rise_to).</p>" if len(blocked) > SHOWN_ROWS else "") + "</div>")
    if own is not None or problems:
        p.append("<h3>Your services</h3>")
        if own:
            n = {s: sum(1 for e in own if e["status"] == s) for s in ("over", "near", "ok")}
            v = {s: sum(1 for e in own if e["severity"] == s) for s in SEVERITIES}
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
    p.append(f'<p class="atlas-note">{escape(HPA_RULE)} Applied here: {escape(CONTROLLERS[ctl])}.</p>')
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


def defaults() -> dict:
    """The page's default inputs (strings as the form holds them)."""
    return {"product": "", "mem_threshold": DEFAULT_MEM_THRESHOLD, "kubernetes": DEFAULT_CONTROLLER, "csv": ""}


def compute_web(bundle: dict, params: dict) -> tuple:
    """(result, own rows or None, problems or None) of the form's strings (``params``: product, mem_threshold,
    kubernetes, csv). Raises OverTargetError."""
    kubernetes = params.get("kubernetes") or DEFAULT_CONTROLLER
    res = compute(bundle, params.get("product") or None, params.get("mem_threshold") or DEFAULT_MEM_THRESHOLD, kubernetes)
    own = problems = None
    if (params.get("csv") or "").strip():
        own, problems = parse_own(params["csv"], kubernetes)
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
    ctl = i.get("kubernetes") or DEFAULT_CONTROLLER
    inp = [["Product", i["product"] or None, None, "all products" if not i["product"] else ""],
           ["Memory threshold", i["mem_threshold"], "%", ""],
           ["Kubernetes version", ctl, None, f"the HPA controller of {CONTROLLERS[ctl]}"],
           ["Your CSV", len(own) if own is not None else None, "rows evaluated",
            f"{len(problems or [])} line(s) not evaluated" if own is not None else "none given"]]
    cols = [report.col("Kind"), report.col("Severity"), report.col("Flag"), report.col("Scenario"), report.col("Service"), report.col("Container"), report.col("Site"),
            report.col("Observed", "%"), report.col("Target or threshold", "%"), report.col("Observed / target"), report.col("Replicas (printed)", "pods"),
            report.col("HPA reads", "whole %"), report.col("HPA desired replicas"), report.col("HPA max must rise to", "pods"), report.col("Source table"),
            report.col("Source row"), report.col("Scenario partial"), report.col("Other Kubernetes version")]
    rows, sources = [], []
    for e in res["cpu"]:
        rows.append(["cpu", e["severity"], e["status"], e["scenario"], e["service"], e["container"], e["site"] or None, e["observed"],
                     e["target"], e["ratio"], e["replicas"], e["hpa_reads"], _desired_text(e) if _desired_text(e) != "" else None,
                     e["max_must_rise_to"], e["table_id"], e["row"], e["partial"] or None, e["controller_note"]])
    for e in res["memory"]:
        rows.append(["memory", None, "memory", e["scenario"], e["service"], e["container"], e["site"] or None, e["observed"],
                     e["threshold"], None, None, None, None, None, e["table_id"], e["row"], res["partial"].get(e["scenario"]), None])
    for e in own or []:
        rows.append(["your row", e["severity"], e["status"], None, e["name"], None, None, e["observed"], e["target"], e["ratio"],
                     e["replicas"], e["hpa_reads"], _desired_text(e), e["max_must_rise_to"], None, e["line"], None,
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
    trows += [[f"CPU rows: {s}", c[s], ""] for s in SEVERITIES]
    if own is not None:
        for s in ("over", "near", "ok"):
            trows.append([f"Your rows: {s}", sum(1 for e in own if e["status"] == s), ""])
        for s in SEVERITIES:
            trows.append([f"Your rows: {s} (severity)", sum(1 for e in own if e["severity"] == s), ""])
    warnings = [["HPA max too low", x["text"]] for x in res.get("max_blocked") or []]
    warnings += [["HPA max too low", max_blocked_text(e, f"Your CSV, line {e['line']}")] for e in own or []
                 if e["max_must_rise_to"] is not None]
    warnings += [["partial", f"{sid}: {t}"] for sid, t in res["partial"].items()]
    warnings += [["your CSV", f"Line {x['line']}: {x['message']}"] for x in problems or []]
    method = [["Flags", "over: observed >= target; near: below the target but observed >= 0.9 x target (relative, as the "
               "HPA's tolerance); memory: observed memory at or above the threshold."], ["HPA", HPA_RULE],
              ["Severity", "critical: the HPA controller would scale up, or its max stops the count it asks for (the HPA max "
               "must rise to that count); warning: inside the tolerance band, where it holds still; ok: below the band. "
               f"Decided by the controller of {CONTROLLERS[ctl]}."]]
    return report.build("overtarget", "Over target: services at, over or near their CPU target",
                 f"{c['over']} over, {c['near']} near, {c['memory']} memory rows; {c['critical']} critical"
                 + (f" for {i['product']}" if i["product"] else " across all products"), "over-target.xlsx", inputs=inp,
                 results={"columns": cols, "rows": rows}, totals={"columns": tcols, "rows": trows},
                 warnings=warnings, method=method, sources=sources)



catalogue.register("overtarget", run_web, OverTargetError, report_web,
                   fields={"Memory threshold": "mem_threshold", "Kubernetes version": "kubernetes"})
