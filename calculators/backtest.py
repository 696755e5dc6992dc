"""Backtest: held out, how well the calculators' sizing predicts what the guides' own runs used, and the band each
sizing method's results carry.

Standard library only (it runs at build time in CPython; the footprint, DSR and ShCM calculators read its bands
from the bundle key ``sizing_bands`` in Pyodide).

Nothing is fitted on the run it predicts. For every product, every run B is predicted from the *other* runs only:

* ``evidence`` (the footprint's default, ``calculators.evidence``): B's pods predicted from the product's other runs
  of B's call model (curated in data/<doc>/scenarios.yaml), ranked for B's deployment mode and ASM, at B's load per
  site: interpolated between the runs that bracket it, the nearest run scaled beyond them by (load ratio) ** power,
  the power of ``POWERS`` chosen without B (``select_power``, ``_nested_evidence``); a service kept fixed by
  the footprint (management, ``ndbmgmd``, ``ndbmysqld``, cnDBTier replication, backup and monitor services) keeps
  the nearest run's cores;
* ``one-run`` (a planner picking one run): every ordered pair (A, B) of runs of one call model, A's cores scaled in
  proportion to load (fixed services kept); NEF's one scenario-wide CPU percentage (``scenario-cpu``), DSR's DA-MP
  CPU peak per MPS per DA-MP (``measured-rate``, runs of one call flow model, VM flavour and DA-MP profile) and
  ShCM's Rhino node CPU per SPS (``cpu-per-node``, per server configuration) are compared the same way.

Two levels. *Service*: one pod's main container (the container the footprint sizes from; sidecars follow their
pod). *Whole footprint*: the sum over the pods predicted and printed for B, what a footprint adds up; a run is a
whole-footprint comparison only when its usable CPU readings cover at least ``MIN_COVERAGE`` of the CPU it
requests (``runs.requested_cpu``), else it is listed as left out with its share; and the pods one comparison sums
(those the predicting runs read too) must cover that share of it, else that comparison has no whole-footprint twin
and is listed as left out with the share it would sum. A reading whose replicas were
printed as a min-max range (the pods that ran are unknown) and a reading flagged by an erratum are never used.

Error: the absolute percentage error ``|predicted - printed| / printed``; a printed 0 has none and is counted apart.
Medians and 90th percentiles are nearest-rank (``nearest_rank``): each is an error that occurred.

Band (``band``): the ratios printed / predicted of a method's held-out comparisons, sorted; with m of them, the
k-th smallest and the k-th largest, k = max(1, round(0.1 x (m + 1))): the 10th and 90th percentiles with ranks
rounded to the nearest. A new comparison exchangeable with these falls between them with probability
(m + 1 - 2k) / (m + 1), about 80 % (split-conformal prediction; Vovk, Gammerman and Shafer, *Algorithmic
Learning in a Random World*; Angelopoulos and Bates, *A Gentle Introduction to Conformal Prediction*). Ratios, so
neither side is negative. Fewer than ``MIN_BAND`` comparisons give no band. Its *held-out coverage* is measured,
not assumed: for each run B, the band is computed again from the comparisons of the product with B removed
entirely (for ``evidence``, every other run predicted again without B), and B's own comparisons are checked
against it.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction

from . import evidence, runs
from .inputs import exact
from .partial import TEST_COMPONENTS, exclusions, usable

FIXED_CNDB = ("ndbmgmd", "ndbmysqld")
"""cnDBTier services the footprint keeps fixed per site: management nodes and the SQL nodes that carry
georeplication channels (MySQL NDB Cluster manual; Oracle cnDBTier guides: see shared sizing notes)."""

GENERIC_CALL_MODEL = ("call model data",)
MIN_COVERAGE = Fraction(1, 2)
"""A run is a whole-footprint comparison when its usable CPU readings cover at least half of the CPU it requests,
and so must the pods one comparison sums (a Benchmark Atlas choice, stated before any error was looked at: below it,
the sum compares a few small pods; applied to each comparison's pods since November 2026, when a pair from a run
with three usable pods was found counted as a whole footprint)."""
MIN_BAND = 9
"""Fewest held-out comparisons that give a band: with 9, k = 1 and the band spans the lowest to the highest ratio,
expected to cover 8 in 10 new comparisons."""
POWERS = (Fraction(1), Fraction(3, 4), Fraction(1, 2))
"""The powers the backtest may choose for the comparable runs' scaling beyond the measured range (``evidence.Curve``:
cores x (load / nearest measured load) ** power), first preferred. 1, proportional, is the calculators' rule and the
most conservative above the range; 3/4 and 1/2 are sub-linear (part of a pod's cores does not grow with its load:
idle work, housekeeping). A Benchmark Atlas choice. The list was set after an earlier look at Policy's figures with
1/2 and 3/4 applied to every run (not held out); the nested selection (``select_power``) keeps the reported figures
held out for the choice among these three, not for the choice of the three."""
SELECT_MIN = 9
"""Fewest whole-footprint comparisons (held out) on which ``select_power`` departs from proportional: as ``MIN_BAND``."""
METHODS = ("evidence", "one-run")
LEVELS = ("whole", "service")


class BacktestError(ValueError):
    """The bundle lacks what the backtest reads; the message names the key."""


_frac = exact


def call_model_key(text) -> str | None:
    """A printed call mix folded for comparison (case, white space, dashes, trailing full stop), or None when the
    text is empty or only points at a table ('Call Model Data'). Used for DSR's call flow models."""
    if not text:
        return None
    t = str(text).lower().replace("\u2013", "-").replace("\u2014", "-")
    t = re.sub(r"\s*([-:,=+/])\s*", r"\1", t)
    t = re.sub(r"\s+", " ", t).strip().rstrip(".:").strip()
    if not t or t in GENERIC_CALL_MODEL:
        return None
    return t


def cpu_rule(component: str, service: str, role: str | None, is_sidecar: bool) -> str | None:
    """The rule the calculators apply to this service's CPU: 'load-scaled', 'fixed', or None for
    test stubs and simulators (left out of production sizing and so of the backtest)."""
    if component in TEST_COMPONENTS or role == "test":
        return None
    if is_sidecar:
        return "load-scaled"
    if component == "cndbtier":
        if service in FIXED_CNDB or "replication" in service or "backup" in service or "monitor" in service:
            return "fixed"
        return "load-scaled"
    if role == "management":
        return "fixed"
    if role in ("traffic", "database"):
        return "load-scaled"
    return None


def nearest_rank(values: list[float], q: float) -> float | None:
    """The nearest-rank ``q`` quantile (0 < q <= 1) of ``values``: the smallest value with at
    least q of the values at or below it; None for no values."""
    if not values:
        return None
    v = sorted(values)
    return v[max(0, math.ceil(q * len(v)) - 1)]


def band(ratios: list[float]) -> dict:
    """The 80 % band of ``ratios`` (printed / predicted, each > 0; module docstring): ``{"lo", "hi", "comparisons":
    m, "k", "expected_coverage": percent}``, or ``{"none": why}`` for fewer than MIN_BAND ratios."""
    m = len(ratios)
    if m < MIN_BAND:
        return {"none": f"only {m} held-out comparison{'s' if m != 1 else ''} (a band needs {MIN_BAND})", "comparisons": m}
    r = sorted(ratios)
    k = max(1, round(0.1 * (m + 1)))
    return {"lo": r[k - 1], "hi": r[m - k], "comparisons": m, "k": k, "expected_coverage": 100 * (m + 1 - 2 * k) / (m + 1)}


def _ratio(pred, printed) -> float | None:
    return None if not pred or not printed else float(printed / pred)


def point(doc, method, rule, call_model, a_ids, b, subject, load_a, load_b, unit, obs_a, obs_b, pred, src_a, src_b, value_unit,
           how="") -> dict:
    ape = None if obs_b == 0 else abs(pred - obs_b) / obs_b * 100
    return {"doc": doc, "method": method, "level": "service", "rule": rule, "call_model": call_model,
            "from": " + ".join(a_ids), "to": b, "subject": subject,
            "load_from": None if load_a is None else float(load_a), "load_to": float(load_b), "unit": unit,
            "observed_from": None if obs_a is None else float(obs_a), "observed_to": float(obs_b), "predicted_to": float(pred),
            "value_unit": value_unit, "ape": None if ape is None else float(ape), "ratio": _ratio(pred, obs_b),
            "source_from": src_a, "source_to": src_b, "how": how}


# ------------------------------------------------------------------ runs with pods (Policy, BSF, and NEF's footprint)

class _Product:
    """The runs of one footprint product with what the backtest reads of each, computed once."""

    def __init__(self, bundle: dict, doc: str):
        self.bundle, self.doc = bundle, doc
        self.roles = {(s["doc"], s["service"]): s["role"] for s in bundle["services"]}
        have = set(runs.index(bundle)["resources"])
        self.runs = [s for s in bundle["scenarios"] if s["doc"] == doc and s["id"] in have and s.get("load_per_site")]
        self.main: dict[str, dict[tuple, dict]] = {}
        self.coverage: dict[str, Fraction] = {}
        self.pod_cpu: dict[str, dict[tuple, Fraction]] = {}
        self.requested: dict[str, Fraction] = {}
        self.thin: dict[tuple, Fraction] = {}
        self.left_out: list[dict] = []
        for s in self.runs:
            sid = s["id"]
            used = runs.cores_used(bundle, sid)
            mains, covered, ranged, pod_cpu = {}, Fraction(0), [], {}
            for (component, service), containers in runs.pods(bundle, sid).items():
                main = runs.main_container(containers)
                rule = cpu_rule(component, service, self.roles.get((doc, service)), False)
                r = used.get((component, service, main["container"]))
                if rule is None or r is None:
                    continue
                if r["range"]:
                    ranged.append(service)
                    continue
                mains[(component, service)] = dict(r, rule=rule, container=main["container"])
                pod_cpu[(component, service)] = runs.pod_request(containers, r["replicas"])
                covered += pod_cpu[(component, service)]
            self.main[sid], self.pod_cpu[sid] = mains, pod_cpu
            req = self.requested[sid] = runs.requested_cpu(bundle, sid)
            self.coverage[sid] = covered / req if req else Fraction(0)
            if ranged:
                self.left_out.append({"doc": doc, "scenario": sid, "what": ", ".join(ranged),
                                      "why": "replicas printed as a min-max range: the pods that ran, and so the cores "
                                             "they used, are unknown (readings not used)"})
            self.left_out += _unjoined(bundle, doc, sid)

    def by_call_model(self, excluded=frozenset()) -> dict[str, list[dict]]:
        out: dict[str, list[dict]] = {}
        for s in self.runs:
            if s["id"] not in excluded and s.get("call_model"):
                out.setdefault(s["call_model"], []).append(s)
        return out


def _whole(points: list[dict], keys: list[tuple], prod: _Product, method: str, to: str, frm: str) -> dict | None:
    """The whole-footprint comparison of run ``to`` from its service ``points`` (one per pod ``keys``, in order): None
    when the pods compared cover less than MIN_COVERAGE of the CPU ``to`` requests (its pods with usable readings may
    cover more: the pods the predicting run also read are what is summed; ``prod.thin[(method, to, frm)]`` keeps
    the share compared)."""
    if not points:
        return None
    req = prod.requested[to]
    compared = sum((prod.pod_cpu[to][k] for k in keys), Fraction(0)) / req if req else Fraction(0)
    if compared < MIN_COVERAGE:
        if prod.coverage[to] >= MIN_COVERAGE:
            prod.thin[(method, to, frm)] = compared
        return None
    pred = sum(_frac(p["predicted_to"]) for p in points)
    printed = sum(_frac(p["observed_to"]) for p in points)
    ape = None if printed == 0 else float(abs(pred - printed) / printed * 100)
    p0 = points[0]
    return {"doc": p0["doc"], "method": method, "level": "whole", "rule": "whole footprint", "call_model": p0["call_model"],
            "from": frm, "to": to, "subject": f"{len(points)} pods", "load_from": p0["load_from"], "load_to": p0["load_to"],
            "unit": p0["unit"], "observed_from": None, "observed_to": float(printed), "predicted_to": float(pred),
            "value_unit": "cores", "ape": ape, "ratio": _ratio(pred, printed), "source_from": "", "source_to": "",
            "coverage": float(compared), "how": ""}


def _evidence_comparisons(prod: _Product, excluded=frozenset(), only=None, power=Fraction(1)) -> list[dict]:
    """Every run of ``prod`` (outside ``excluded``) predicted by ``evidence.plan`` from the other runs of its call
    model outside ``excluded``, scaled beyond their measured range with ``power``: service points and, where covered,
    the whole footprint. ``only``: one call model."""
    out = []
    for cm, group in prod.by_call_model(excluded).items():
        if (only is not None and cm != only) or len(group) < 2:
            continue
        for b in group:
            try:
                plan = evidence.plan(prod.bundle, prod.doc, cm, b.get("deployment_mode"), _asm(b), b["load_per_site"],
                                     exclude=tuple(excluded) + (b["id"],), power=power)
            except evidence.EvidenceError:
                continue
            pts, keys = [], []
            for key, r in prod.main[b["id"]].items():
                curve = plan["curves"].get(key)
                if curve is None:
                    continue
                keys.append(key)
                if r["rule"] == "fixed":
                    pred, how = curve.nearest(b["load_per_site"])
                else:
                    pred, how = curve.at(b["load_per_site"])
                pts.append(point(prod.doc, "evidence", r["rule"], cm, how["runs"], b["id"], f"{key[1]} / {r['container']}",
                                  None, b["load_per_site"], b.get("load_unit") or "", None, r["cores"], pred,
                                  how["text"], f"Table {r['table_id']} row {r['row']}", "cores", how["kind"]))
            out += pts
            w = _whole(pts, keys, prod, "evidence", b["id"], "comparable runs")
            if w:
                out.append(w)
    return out


def _whole_errors(points: list[dict]) -> list[float]:
    return [p["ape"] for p in points if p["level"] == "whole" and p["ape"] is not None]


def select_power(by_power: dict) -> dict:
    """The power of ``POWERS`` whose comparable-runs predictions ``by_power[power]`` (comparisons, each held out)
    predict whole footprints best: the lowest median + 90th percentile of their absolute percentage errors
    (nearest-rank), the earlier of ``POWERS`` on a tie; 1 (proportional) with fewer than ``SELECT_MIN`` whole
    comparisons. Returns ``{"power": Fraction, "scores": [{"power" (float), "whole": n, "median_ape", "p90_ape",
    "score"} per power], "why": one sentence}``."""
    scores = []
    for pw in POWERS:
        errs = _whole_errors(by_power[pw])
        med, p90 = nearest_rank(errs, 0.5), nearest_rank(errs, 0.9)
        scores.append({"power": float(pw), "whole": len(errs), "median_ape": med, "p90_ape": p90,
                       "score": None if med is None else med + p90})
    n = scores[0]["whole"]
    if n < SELECT_MIN:
        return {"power": POWERS[0], "scores": scores,
                "why": f"only {n} whole-footprint comparisons (a choice needs {SELECT_MIN}): proportional kept"}
    best = 0
    for i, sc in enumerate(scores):
        if sc["score"] < scores[best]["score"]:
            best = i
    pw = POWERS[best]
    return {"power": pw, "scores": scores,
            "why": ("proportional predicts the whole footprints best" if pw == 1 else
                    f"load^{float(pw):g} predicts the whole footprints best (median + p90 of their held-out errors "
                    f"{scores[best]['score']:.1f} against {scores[0]['score']:.1f} proportional)")}


def _nested_evidence(prod: _Product) -> tuple[list[dict], dict, dict, dict]:
    """The comparable-runs comparisons with the power beyond the measured range chosen without the run predicted.

    For each run B: every other run is predicted without B, once per power of ``POWERS``; ``select_power`` chooses on
    those; B is then predicted (from the other runs, as always) with the power chosen. Returns ``(points, inner,
    chosen, rule)``: B's points (each with ``power``); ``inner[B]``: the comparisons made without B at B's power (the
    band's held-out coverage checks B against them); ``chosen[B]``: the power (Fraction); ``rule``: ``select_power`` on
    every run, the power the calculator uses."""
    full = {pw: _evidence_comparisons(prod, power=pw) for pw in POWERS}
    groups = prod.by_call_model()
    points, inner, chosen = [], {}, {}
    for s in prod.runs:
        cm = s.get("call_model")
        if not cm or len(groups.get(cm, [])) < 2:
            continue
        b = s["id"]
        same = {x["id"] for x in groups[cm]}
        without = {pw: [p for p in full[pw] if p["to"] not in same]
                   + _evidence_comparisons(prod, frozenset({b}), only=cm, power=pw) for pw in POWERS}
        pw = select_power(without)["power"]
        chosen[b] = pw
        inner[b] = without[pw]
        points += [dict(p, power=float(pw)) for p in full[pw] if p["to"] == b]
    return points, inner, chosen, select_power(full)


def _one_run_comparisons(prod: _Product, excluded=frozenset()) -> list[dict]:
    """Every ordered pair (A, B) of runs of one call model outside ``excluded``: A's cores scaled in proportion to
    load (fixed services kept)."""
    out = []
    for cm, group in prod.by_call_model(excluded).items():
        for a in group:
            for b in group:
                if a is b:
                    continue
                pts, keys = [], []
                ma, mb = prod.main[a["id"]], prod.main[b["id"]]
                for key, rb in mb.items():
                    ra = ma.get(key)
                    if ra is None:
                        continue
                    keys.append(key)
                    f = _frac(b["load_per_site"]) / _frac(a["load_per_site"])
                    pred = ra["cores"] if rb["rule"] == "fixed" else ra["cores"] * f
                    pts.append(point(prod.doc, "one-run", rb["rule"], cm, [a["id"]], b["id"], f"{key[1]} / {rb['container']}",
                                      a["load_per_site"], b["load_per_site"], b.get("load_unit") or "", ra["cores"], rb["cores"],
                                      pred, f"Table {ra['table_id']} row {ra['row']}", f"Table {rb['table_id']} row {rb['row']}",
                                      "cores"))
                out += pts
                w = _whole(pts, keys, prod, "one-run", b["id"], a["id"])
                if w:
                    out.append(w)
    return out


def _asm(s: dict) -> bool:
    from .scenario import asm_on
    return asm_on(s)


# ------------------------------------------------------------------ one figure per run (NEF, DSR, ShCM)

def _scenario_cpu_points(bundle: dict, doc: str, excluded=frozenset()) -> list[dict]:
    """NEF: the scenario-wide CPU percentage of each run predicted from every other run of its call model, in
    proportion to load (both methods: with two runs per API, the comparable runs are the other one)."""
    wide = {w["scenario"]: w for w in bundle.get("scenario_cpu") or [] if w.get("observed_percent") is not None}
    scen = [s for s in bundle["scenarios"] if s["doc"] == doc and s["id"] in wide and s.get("load_per_site")
            and s.get("call_model") and s["id"] not in excluded]
    pts = []
    for a in scen:
        for b in scen:
            if a is b or a["call_model"] != b["call_model"]:
                continue
            wa, wb = wide[a["id"]], wide[b["id"]]
            pred = _frac(wa["observed_percent"]) * _frac(b["load_per_site"]) / _frac(a["load_per_site"])
            for method in METHODS:
                p = point(doc, method, "scenario-cpu", a["call_model"], [a["id"]], b["id"], "whole scenario (CPU %)",
                           a["load_per_site"], b["load_per_site"], a.get("load_unit") or "TPS", _frac(wa["observed_percent"]),
                           _frac(wb["observed_percent"]), pred, f"Table {wa['table_id']} row {wa['row']}",
                           f"Table {wb['table_id']} row {wb['row']}", "%")
                pts += [p, dict(p, level="whole")]
    return pts


def metric(run: dict, key: str):
    m = (run.get("metrics") or {}).get(key)
    if not m or m.get("value") is None or not usable(m):
        return None
    return m


# ------------------------------------------------------------------ the whole backtest

def _kind(bundle: dict, doc: str) -> str:
    """How a product is backtested: 'calculator' (its guide's own calculator carries the rule: the bundle source's
    ``calculator``, whose module defines ``backtest_points``), 'scenario-cpu' (one CPU figure per run), 'pods'
    (resource tables with per-pod readings)."""
    if _calculator_rule(bundle, doc) is not None:
        return "calculator"
    wide = {w["scenario"] for w in bundle.get("scenario_cpu") or []}
    if any(s["doc"] == doc and s["id"] in wide for s in bundle["scenarios"]):
        return "scenario-cpu"
    return "pods"


def _calculator_rule(bundle: dict, doc: str):
    """``backtest_points(bundle, doc, excluded)`` of the calculator that sizes ``doc``'s runs from its own metrics (the
    bundle source's ``calculator``, declared by its guide module), or None."""
    import importlib
    name = next((s.get("calculator") for s in bundle["sources"] if s["id"] == doc), None)
    if not name:
        return None
    from .catalogue import CATALOGUE
    return getattr(importlib.import_module(CATALOGUE[name][0]), "backtest_points", None)


def comparisons(bundle: dict, doc: str, excluded=frozenset(), prod: _Product | None = None) -> list[dict]:
    """Every held-out comparison of product ``doc`` with the runs in ``excluded`` removed (module docstring)."""
    kind = _kind(bundle, doc)
    if kind == "calculator":
        return _calculator_rule(bundle, doc)(bundle, doc, excluded)
    if kind == "scenario-cpu":
        return _scenario_cpu_points(bundle, doc, excluded)
    prod = prod or _Product(bundle, doc)
    return _evidence_comparisons(prod, excluded, power=evidence.extrapolation_power(bundle, doc)) \
        + _one_run_comparisons(prod, excluded)


def _stats(points: list[dict]) -> dict:
    errs = [p["ape"] for p in points if p["ape"] is not None]
    return {"comparisons": len(points), "with_error": len(errs), "median_ape": nearest_rank(errs, 0.5),
            "p90_ape": nearest_rank(errs, 0.9), "runs": len({p["to"] for p in points})}


def _ratios(points: list[dict], method: str, level: str) -> list[float]:
    return [p["ratio"] for p in points if p["method"] == method and p["level"] == level and p["ratio"] is not None]


def _without(points: list[dict], b: str, inner: dict | None) -> list[dict]:
    """The comparisons of a product with run ``b`` removed entirely: a comparison that predicts ``b`` or reads it goes;
    with ``inner`` (``_nested_evidence``), the comparable-runs comparisons are those made without ``b`` at the power
    chosen without it."""
    kept = [p for p in points if p["to"] != b and b not in p["from"].split(" + ")
            and not (p["method"] == "evidence" and inner is not None)]
    if inner is None:
        return kept
    return kept + [p for p in inner.get(b, []) if p["to"] != b]


def _coverage(points: list[dict], inner: dict | None) -> dict:
    """Held-out coverage of each method's band at each level: for every run B, the band of the comparisons made with
    B removed entirely (``_without``), checked against B's own comparisons. ``{method: {level: {"covered", "checked",
    "coverage"}}}``."""
    out = {m: {lv: {"covered": 0, "checked": 0} for lv in LEVELS} for m in METHODS}
    for b in sorted({p["to"] for p in points}):
        inner_b = _without(points, b, inner)
        for m in METHODS:
            for lv in LEVELS:
                bd = band(_ratios(inner_b, m, lv))
                if "lo" not in bd:
                    continue
                for p in points:
                    if p["to"] == b and p["method"] == m and p["level"] == lv and p["ratio"] is not None:
                        c = out[m][lv]
                        c["checked"] += 1
                        c["covered"] += bd["lo"] <= p["ratio"] <= bd["hi"]
    for m in METHODS:
        for lv in LEVELS:
            c = out[m][lv]
            c["basis"] = "run"
            if not c["checked"]:
                _comparison_held_out(c, _ratios(points, m, lv))
            c["coverage"] = None if not c["checked"] else 100 * c["covered"] / c["checked"]
    return out


def _comparison_held_out(c: dict, ratios: list[float]) -> None:
    """Where no run can be removed with a band left (NEF's two runs per API, ShCM's few tests per configuration), the
    coverage with one *comparison* held out: each ratio against the band of all the others (the reverse comparison of
    the same two runs stays among them). Sets ``covered``, ``checked`` and ``basis`` 'comparison' in ``c``."""
    for i, r in enumerate(ratios):
        bd = band(ratios[:i] + ratios[i + 1:])
        if "lo" in bd:
            c["checked"] += 1
            c["covered"] += bd["lo"] <= r <= bd["hi"]
    if c["checked"]:
        c["basis"] = "comparison"


_LAST: list = []


def run(bundle: dict) -> dict:
    """The whole backtest of ``bundle`` (the full calculator bundle built from data/).

    Returns ``{"points": [...], "summary": {doc: {method: {level: stats}}}, "by_call_model": {doc: {call model:
    {method: {level: stats}}}}, "bands": {doc: {method: {level: band + held-out coverage}}}, "left_out": [{"doc",
    "scenario", "what", "why"}], "notes": {doc: [why a product has few or no comparisons]}}``. A point is one
    comparison (``level`` 'service' or 'whole', ``method``, ``rule``, ``call_model``, ``from``, ``to``, loads, printed
    and predicted values, ``ape`` in percent or None for a printed 0, ``ratio`` printed / predicted or None, the
    source of each value); stats hold ``comparisons``, ``with_error``, ``median_ape`` and ``p90_ape`` (percent).
    Raises BacktestError when the bundle lacks ``utilization`` or ``resources``."""
    for key in ("utilization", "resources", "scenarios", "services", "sources"):
        if key not in bundle:
            raise BacktestError(f"the bundle has no {key!r}, which the backtest reads")
    if _LAST and _LAST[0] is bundle and _LAST[1] == _fingerprint(bundle):
        return _LAST[2]
    res = _run(bundle)
    _LAST[:] = [bundle, _fingerprint(bundle), res]
    return res


def _fingerprint(bundle: dict) -> tuple:
    """What the backtest reads of a bundle, by identity and length (a build computes it once for the bundle's bands
    and its pages; a test that edits a copy gets its own)."""
    return tuple((k, id(v), len(v or ())) for k, v in bundle.items()
                 if k not in ("sizing_bands", "extrapolation") and not isinstance(v, (int, str)))


def _run(bundle: dict) -> dict:
    points, summary, by_cm, bands, left_out, notes, extrapolation = [], {}, {}, {}, [], {}, {}
    for src in bundle["sources"]:
        doc = src["id"]
        kind = _kind(bundle, doc)
        prod = _Product(bundle, doc) if kind == "pods" else None
        inner = None
        if prod:
            nested, inner, chosen, rule = _nested_evidence(prod)
            pts = nested + _one_run_comparisons(prod)
            extrapolation[doc] = {"power": float(rule["power"]), "why": rule["why"], "scores": rule["scores"],
                                  "held_out_choices": {f"{float(pw):g}": sum(1 for c in chosen.values() if c == pw)
                                                       for pw in POWERS}}
            left_out += prod.left_out + _left_out_runs(prod, pts)
        else:
            pts = comparisons(bundle, doc, frozenset(), prod)
        if not pts:
            notes[doc] = ["no two runs share a call model with readings in both"]
            continue
        points += pts
        summary[doc] = {m: {lv: _stats([p for p in pts if p["method"] == m and p["level"] == lv]) for lv in LEVELS} for m in METHODS}
        by_cm[doc] = {}
        for cm in dict.fromkeys(p["call_model"] for p in pts):
            sub = [p for p in pts if p["call_model"] == cm]
            by_cm[doc][cm] = {m: {lv: _stats([p for p in sub if p["method"] == m and p["level"] == lv]) for lv in LEVELS}
                              for m in METHODS}
        cov = _coverage(pts, inner)
        bands[doc] = {m: {lv: dict(band(_ratios(pts, m, lv)), **cov[m][lv]) for lv in LEVELS} for m in METHODS}
    return {"points": points, "summary": summary, "by_call_model": by_cm, "bands": bands, "left_out": left_out, "notes": notes,
            "extrapolation": extrapolation}


def _unjoined(bundle: dict, doc: str, sid: str) -> list[dict]:
    """Left-out entries for run ``sid``'s usable CPU readings that read no container of its usable resource rows
    (``runs.reading_container``): grouped by why, each reading named by service, container, table and row."""
    rows = runs.index(bundle)["resources"].get(sid, [])
    left = exclusions(bundle, sid, "resources")["rows"]
    why_of: dict[str, list[str]] = {}
    for u in runs.readings(bundle, sid, "cpu"):
        if u["reads"] is not None:
            continue
        gone = next(iter(runs.rows_read(u, left)), None)
        where = f"Table {u['table_id']} row {u['row']}"
        if gone is not None:
            where += f"; its resource row: Table {gone['table_id']} row {gone['row']}"
            why = (f"the container's resource row is {gone['status']}"
                   + (f" ({', '.join(gone['errata'])})" if gone.get("errata") else "")
                   + ": no request to turn the percentage into cores (readings not used)")
        elif not any(r["service"] == u["service"] for r in rows):
            why = "the run's resource tables print no row of this service: no request to turn the percentage into cores (readings not used)"
        else:
            why = ("the run's resource tables print no row of this container (only its pod's other containers): no request to "
                   "turn the percentage into cores (readings not used)")
        what = f"{u['service']}/{u['container']} ({where})"
        if what not in why_of.setdefault(why, []):
            why_of[why].append(what)
    return [{"doc": doc, "scenario": sid, "what": ", ".join(whats), "why": why} for why, whats in why_of.items()]


def _left_out_runs(prod: _Product, pts: list[dict]) -> list[dict]:
    """Runs of ``prod`` that are in no comparison, or in no whole-footprint one, with why."""
    out = []
    groups = prod.by_call_model()
    predicted = {p["to"] for p in pts}
    whole = {p["to"] for p in pts if p["level"] == "whole"}
    for s in prod.runs:
        sid = s["id"]
        if not s.get("call_model"):
            out.append({"doc": prod.doc, "scenario": sid, "what": "the whole run",
                        "why": "the guide names no call model for this run, so no other run is comparable"})
        elif len(groups.get(s["call_model"], [])) < 2:
            out.append({"doc": prod.doc, "scenario": sid, "what": "the whole run",
                        "why": f"the only run of its call model ({s.get('call_model_name') or s['call_model']})"})
        elif sid not in predicted:
            out.append({"doc": prod.doc, "scenario": sid, "what": "the whole run", "why": "no pod with a usable CPU reading"})
        elif sid not in whole and prod.coverage[sid] < MIN_COVERAGE:  # else each thin comparison is named below
            out.append({"doc": prod.doc, "scenario": sid, "what": "whole footprint",
                        "why": f"its usable CPU readings cover {float(prod.coverage[sid]) * 100:.0f} % of the CPU it requests "
                               f"(a whole-footprint comparison needs {float(MIN_COVERAGE) * 100:.0f} %)"})
    whole_from = {(p["method"], p["to"], p["from"]) for p in pts if p["level"] == "whole"}
    predicted = {(p["method"], p["to"]) for p in pts if p["level"] == "service"}
    thin: dict[tuple, list[str]] = {}
    # prod.thin also holds what the held-out power choice computed without some runs: only a comparison the result
    # keeps (service points, and no whole twin) is named; a comparable runs' share is named without its figure, which
    # may come from such a computation
    for (method, to, frm), share in prod.thin.items():
        if (method, to) in predicted and (method, to, frm) not in whole_from:
            entry = f"{frm} ({float(share) * 100:.0f} %)" if method == "one-run" else "its comparable runs"
            if entry not in thin.setdefault((method, to), []):
                thin[(method, to)].append(entry)
    for (method, to), froms in thin.items():
        out.append({"doc": prod.doc, "scenario": to, "what": f"whole footprint predicted from {', '.join(froms)}",
                    "why": f"the pods read both by the runs it is predicted from and by this run cover less than "
                           f"{float(MIN_COVERAGE) * 100:.0f} % of the CPU this run requests (the share in brackets): the "
                           f"sum would compare a few pods, not a footprint; their per-service comparisons are kept"})
    return out


def sizing_bands(result: dict) -> dict:
    """The bands the calculators show, per product and method and level, from ``run``'s result: ``{doc: {method:
    {level: {"lo", "hi", "comparisons", "coverage", "covered", "checked", "expected_coverage"} or {"none": why}}}}``
    (bundle key ``sizing_bands``)."""
    out = {}
    for doc, by_m in result["bands"].items():
        out[doc] = {}
        for m, by_l in by_m.items():
            out[doc][m] = {}
            for lv, b in by_l.items():
                keep = (("lo", "hi", "comparisons", "k", "expected_coverage", "coverage", "covered", "checked", "basis") if "lo" in b
                        else ("none", "comparisons"))
                out[doc][m][lv] = {k: b[k] for k in keep if k in b}
    return out
