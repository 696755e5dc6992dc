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

HTML, CSV, the report and the catalogue entry: ``calculators.overtarget_report``.
"""
from __future__ import annotations

import csv
import io
import math
import re
from fractions import Fraction

from . import inputs, runs
from .partial import exclusions, usable
from .formatting import fmt

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
    """The ids of the documents with utilization rows or a scenario-wide CPU reading, in ``sources`` order."""
    have = {r[0] for r in (bundle.get("util_rows") or {}).get("rows", [])} | {w["scenario"] for w in bundle.get("scenario_cpu") or []}
    docs = {s["doc"] for s in bundle["scenarios"] if s["id"] in have}
    return [s["id"] for s in bundle["sources"] if s["id"] in docs]


def _replicas(bundle, u):
    """The resource row giving the replicas of the pod that utilization row ``u`` reads, at its site or for no site
    (the container it reads by ``runs.reading_container``), or None."""
    cands = [r for r in runs.rows_read(u, runs.index(bundle)["resources"].get(u["scenario"], []))
             if r.get("replicas") is not None or r.get("replicas_max") is not None]
    for r in sorted(cands, key=lambda r: 0 if r["site"] == u["site"] else 1 if not r["site"] else 2):
        if r["site"] in (u["site"], ""):
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
            rep = _replicas(bundle, u)
            cur = rep["replicas"] if rep else None
            lo = int(rep["replicas_min"]) if rep and rep.get("replicas_min") is not None else None
            hi = int(rep["replicas_max"]) if rep and rep.get("replicas_max") is not None else None
            gone = None
            if rep is None:
                gone = next((x for x in runs.rows_read(u, exclusions(bundle, u["scenario"], "resources")["rows"])
                             if x["site"] in (u["site"], "")), None)
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


def defaults() -> dict:
    """The page's default inputs (strings as the form holds them)."""
    return {"product": "", "mem_threshold": DEFAULT_MEM_THRESHOLD, "kubernetes": DEFAULT_CONTROLLER, "csv": ""}
