"""The evidence for a sizing: which benchmark runs are comparable to a planner's request, and what a service uses
at a load according to all of them.

Standard library only: the same code runs in CPython (build, tests, command line, backtest) and in Pyodide.

Comparable runs (``candidates``). A planner states the product (document), the call model as the guide names it
(curated per run: data/<doc>/scenarios.yaml ``call_model``, with its citation), the deployment mode, ASM on or
off and the load per site. Every run of the product with resource data is ranked:

1. same call model (a run of another call model, or of none stated, is *not comparable*: listed with why, used
   only when the planner picks it);
2. same deployment mode; 3. same ASM (on = asm enabled or partial);
4. closeness of load per site, |ln(run's load / the load sized for)|: a run at half or twice the load is as far.

Each candidate says what matches and what differs: call mix as printed, features whose setting differs from the
best-ranked run's, replication, hardware and release where the guide prints them.

Demand (``plan``, ``Curve``). The cores a pod's main container uses at a load per site come from the comparable
runs that measured them (``runs.cores_used``; a reading whose replicas were printed as a range is left out: the
pods that ran are unknown), taken from the best tier of those runs (same deployment mode and ASM as asked, else
the next): at a load a run measured, the mean of the runs measured there; between two measured loads, linear
interpolation between the nearest below and the nearest above; beyond the measured range, the nearest measured
point scaled by (load / its load) ** power, and the result says by how much it extrapolates; and never below what a smaller load gives (where a run at a higher load
printed less than one below it, the higher reading is kept: conservative, and the answer never falls as the load
rises). Why interpolation: held out, the cores a run used are predicted better
from the runs that bracket its load than by scaling one run (the "How accurate is this?" page gives the figures;
``calculators.backtest``). The pods themselves (containers, per-pod requests and limits, HPA targets, replicas
printed) are those of the *anchor*: of the comparable runs in the best tier, the one measured at the highest load (the
deployment the vendor ran for the most traffic; a complete run before a partial one at the same load). It does not
depend on the load asked for, so the answer never falls as the load rises.

The power beyond the measured range (``extrapolation_power``) is 1, proportional (the calculators' single-run rule:
a run's cores per unit of load kept), unless the product's own runs show held out that another power of
``calculators.backtest.POWERS`` predicts their whole footprints better: the backtest chooses it (``select_power``) and
the bundle carries it (key ``extrapolation``). A power below 1 is *not* conservative above the measured range (at 4 x
the load, power 1/2 gives 2 x the cores, not 4 x): the result then also states what proportional scaling gives, and the
held-out band, calibrated on the same rule, is the range to plan with.

Errors: ``EvidenceError`` (a ValueError) names what is missing: an unknown product or call model, or no run of
the call model with resource data.
"""
from __future__ import annotations

import math
from fractions import Fraction

from . import runs
from .inputs import exact
from .partial import completeness
from .scenario import asm_on


class EvidenceError(ValueError):
    """A sizing request the evidence cannot serve; the message says what is missing and what to pick instead."""


FIXED_RULES = ("fixed",)

_SIMILAR = str.maketrans({c: " " for c in "-_()/:,."})


def _fold(text) -> str:
    """A printed feature name or setting folded for comparison: lower case, punctuation as spaces, one space."""
    return " ".join(str(text or "").lower().translate(_SIMILAR).split())


def _setting(value) -> str:
    """'Enable', 'Enabled', 'enabled (true)' -> 'on'; 'Disable', 'Disabled' -> 'off'; anything else folded."""
    v = _fold(value)
    if v.startswith("enable"):
        return "on"
    if v.startswith("disable"):
        return "off"
    return v


def _feature_key(name) -> str:
    """A feature name folded so that the guide's spellings of one feature meet ('Binding Service' = 'Binding')."""
    k = _fold(name)
    for tail in (" service", " feature"):
        if k.endswith(tail):
            k = k[: -len(tail)]
    return k


def call_models(bundle: dict) -> list[dict]:
    """Every curated call model with a run that has resource data and a load: ``[{"doc", "id", "name", "runs":
    [scenario ids], "modes": [deployment modes], "asm": [True/False seen]}]`` in bundle order."""
    have = set(runs.index(bundle)["resources"])
    out: dict[tuple, dict] = {}
    for s in bundle["scenarios"]:
        if not s.get("call_model") or s["id"] not in have or not s.get("load_per_site"):
            continue
        m = out.setdefault((s["doc"], s["call_model"]), {"doc": s["doc"], "id": s["call_model"],
                                                        "name": s.get("call_model_name") or s["call_model"],
                                                        "runs": [], "modes": [], "asm": []})
        m["runs"].append(s["id"])
        for key, v in (("modes", s.get("deployment_mode")), ("asm", asm_on(s))):
            if v not in m[key]:
                m[key].append(v)
    return list(out.values())


def _facts(bundle: dict) -> dict:
    return {f["id"]: f for f in bundle.get("scenario_facts") or []}


def candidates(bundle: dict, doc: str, call_model: str | None, mode: str | None, asm: bool | None, load) -> list[dict]:
    """Every run of ``doc`` with resource data and a load per site, ranked for a request (module docstring).

    ``mode``: a deployment mode as printed (None: any); ``asm``: True/False (None: either); ``load``: the load per
    site sized for, in the product's unit (> 0). Returns dicts in rank order: ``{"id", "short_title", "load_per_site",
    "unit", "ratio" (load sized for / the run's load), "call_model", "call_model_name", "mode", "asm" (bool),
    "comparable" (same call model), "tier" (0 same mode and ASM, 1 one differs, 2 both), "matches": [text],
    "differs": [text], "caveats": [text]}``. The caveats compare each run with the first comparable one."""
    have = set(runs.index(bundle)["resources"])
    facts = _facts(bundle)
    load = exact(load)
    out = []
    for s in bundle["scenarios"]:
        if s["doc"] != doc or s["id"] not in have or not s.get("load_per_site"):
            continue
        same_cm = bool(call_model) and s.get("call_model") == call_model
        same_mode = mode in (None, "") or s.get("deployment_mode") == mode
        same_asm = asm is None or asm_on(s) == asm
        ratio = load / exact(s["load_per_site"])
        matches, differs = [], []
        cm_name = s.get("call_model_name") or s.get("call_model")
        if same_cm:
            matches.append(f"same call model ({cm_name})")
        else:
            differs.append(f"another call model ({cm_name})" if cm_name else "the guide names no call model for this run")
        (matches if same_mode else differs).append(
            f"deployment mode {s.get('deployment_mode')}" + ("" if same_mode else f" (you asked {mode})"))
        if asm is not None:
            (matches if same_asm else differs).append(
                f"ASM {'on' if asm_on(s) else 'off'}" + ("" if same_asm else f" (you asked {'on' if asm else 'off'})"))
        out.append({"id": s["id"], "short_title": s.get("short_title") or s["title"], "load_per_site": s["load_per_site"],
                    "unit": s.get("load_unit") or "", "ratio": float(ratio), "call_model": s.get("call_model"),
                    "call_model_name": cm_name, "mode": s.get("deployment_mode"), "asm": asm_on(s), "comparable": same_cm,
                    "tier": (not same_mode) + (not same_asm), "matches": matches, "differs": differs, "caveats": [],
                    "call_mix": (facts.get(s["id"]) or {}).get("call_mix"),
                    "_distance": abs(math.log(ratio))})
    out.sort(key=lambda c: (not c["comparable"], c["tier"], c["_distance"]))
    first = next((c for c in out if c["comparable"]), None)
    for c in out:
        c["caveats"] = _caveats(facts.get(c["id"]) or {}, facts.get(first["id"]) or {} if first else {}, c is first)
        del c["_distance"]
    return out


def _caveats(f: dict, ref: dict, is_ref: bool) -> list[str]:
    """What may make run ``f`` behave unlike the best-ranked comparable run ``ref`` (their scenario facts): features
    set differently, replication, hardware, release; printed text quoted, nothing inferred."""
    out = []
    mine = {_feature_key(k): (k, v) for k, v in (f.get("features") or {}).items()}
    theirs = {_feature_key(k): (k, v) for k, v in (ref.get("features") or {}).items()}
    if not is_ref and theirs:
        diff = [f"{mine[k][0]} {mine[k][1]} (there: {theirs[k][1]})" for k in mine if k in theirs
                and _setting(mine[k][1]) != _setting(theirs[k][1])]
        if diff:
            out.append("features set differently: " + "; ".join(diff))
    if f.get("replication"):
        out.append(f"replication: {f['replication']}")
    if f.get("hardware_server"):
        out.append(f"hardware: {f['hardware_server']}")
    if f.get("release"):
        out.append(f"release {f['release']}")
    return out


class Curve:
    """What one pod's main container uses at a load per site, from the points (load per site, amount, source) the
    comparable runs measured. ``at(load)`` gives ``(amount, how)`` (module docstring: measured, interpolated or
    scaled beyond the measured range); ``how`` is a dict ``{"kind": 'measured'|'interpolated'|'scaled', "runs":
    [scenario ids used], "factor": load / the nearest measured load (scaled only), "text": one line}``. Amounts are
    exact Fractions (cores or GiB); loads in the product's unit per site."""

    def __init__(self, points: list[tuple], unit: str = "", what: str = "cores", power=1):
        if not 0 < exact(power) <= 1:
            raise ValueError(f"the extrapolation power must be in (0, 1]; got {power!r}")
        self.power = exact(power)
        by: dict[Fraction, list[tuple]] = {}
        for load, amount, src in points:
            by.setdefault(exact(load), []).append((exact(amount), src))
        self.loads = sorted(by)
        self.points = by
        self.unit = unit
        self.what = what
        if not self.loads:
            raise ValueError("a curve needs at least one measured point")

    def ids(self) -> list[str]:
        """Every run with a point on this curve."""
        return list(dict.fromkeys(src["scenario"] for load in self.loads for _, src in self.points[load]))

    def nearest(self, load) -> tuple[Fraction, dict]:
        """The amount at the measured load nearest ``load`` (|ln ratio|), unscaled: what a pod the footprint keeps fixed
        is predicted to use. Same ``how`` shape as ``at``, kind 'measured'."""
        load = exact(load)
        near = min(self.loads, key=lambda x: abs(math.log(x / load)))
        v = self._mean(near)
        return v, {"kind": "measured", "runs": self._ids(near), "factor": 1.0,
                   "text": f"{_num(v)} {self.what} ({self._label(near)}, not scaled with load)"}

    def _mean(self, load: Fraction) -> Fraction:
        vals = self.points[load]
        return sum((v for v, _ in vals), Fraction(0)) / len(vals)

    def _ids(self, load: Fraction) -> list[str]:
        return [src["scenario"] for _, src in self.points[load]]

    def _label(self, load: Fraction) -> str:
        return " + ".join(self._ids(load)) + f" at {_k(load)} {self.unit}"

    def at(self, load) -> tuple[Fraction, dict]:
        """The amount at ``load`` (module docstring), never below what a smaller load gives: where a run at a higher
        load printed less than one below it, the higher reading is kept: ``how["kept"]`` names its load and
        ``how["runs"]`` the runs whose reading it is; ``how["compared_runs"]`` the runs the load was measured,
        interpolated or scaled from (``kind`` and ``factor`` still describe that: where the load lies against the runs
        measured)."""
        load = exact(load)
        v, how = self._raw(load)
        peak = max((x for x in self.loads if x <= load), key=self._mean, default=None)
        if peak is not None and self._mean(peak) > v:
            v = self._mean(peak)
            how = dict(how, kept=float(peak), runs=self._ids(peak), compared_runs=how["runs"],
                       text=f"{_num(v)} {self.what} (kept from {self._label(peak)}: what a pod uses never falls as its "
                            f"load rises; at this load {how['text']})")
        return v, how

    def _raw(self, load: Fraction) -> tuple[Fraction, dict]:
        if load in self.points:
            v = self._mean(load)
            return v, {"kind": "measured", "runs": self._ids(load), "factor": 1.0,
                       "text": f"{_num(v)} {self.what} ({self._label(load)})"}
        below = [x for x in self.loads if x < load]
        above = [x for x in self.loads if x > load]
        if below and above:
            lo, hi = below[-1], above[0]
            w = (load - lo) / (hi - lo)
            v = self._mean(lo) + (self._mean(hi) - self._mean(lo)) * w
            return v, {"kind": "interpolated", "runs": self._ids(lo) + self._ids(hi), "factor": 1.0,
                       "text": f"{_num(v)} {self.what} (between {self._label(lo)}: {_num(self._mean(lo))} and "
                               f"{self._label(hi)}: {_num(self._mean(hi))})"}
        near = self.loads[-1] if below else self.loads[0]
        f = load / near
        grow = scale_factor(f, self.power)
        v = self._mean(near) * grow
        times = f"{float(f):.3g}" if self.power == 1 else f"{float(f):.3g}^{float(self.power):g} = {float(grow):.3g}"
        return v, {"kind": "scaled", "runs": self._ids(near), "factor": float(f), "side": "largest" if below else "smallest",
                   "power": float(self.power), "proportional": float(self._mean(near) * f),
                   "text": f"{_num(v)} {self.what} ({self._label(near)}: {_num(self._mean(near))} x {times})"}


def scale_factor(ratio, power) -> Fraction:
    """How much a pod's cores grow when its load is ``ratio`` times the nearest measured load: ``ratio ** power``
    (both > 0; ``power`` 1 is proportional and exact; otherwise the float power as a Fraction). Dimensionless."""
    ratio, power = exact(ratio), exact(power)
    if power == 1:
        return ratio
    return Fraction(math.pow(float(ratio), float(power)))


def extrapolation_power(bundle: dict, doc: str) -> Fraction:
    """The power beyond the measured range for ``doc`` (bundle key ``extrapolation``, chosen by
    ``calculators.backtest.select_power`` from the product's own runs, held out); 1 (proportional) when the bundle
    carries none for ``doc``."""
    rule = (bundle.get("extrapolation") or {}).get(doc) or {}
    return exact(rule.get("power", 1))


def _k(load) -> str:
    x = float(load)
    return f"{x / 1000:g}K" if x >= 1000 and x % 100 == 0 else f"{x:g}"


def _num(v) -> str:
    return f"{float(v):.4g}"


def plan(bundle: dict, doc: str, call_model: str, mode: str | None, asm: bool | None, sizing_load,
         exclude: tuple[str, ...] = (), power=None) -> dict:
    """The evidence for sizing ``doc``'s ``call_model`` at ``sizing_load`` per site (the busiest load state).

    ``mode`` (None: any) and ``asm`` (None: either) rank the runs (``candidates``); ``exclude``: run ids left out
    (the backtest leaves out the run it predicts); ``power``: the curves' power beyond the measured range (None: the
    product's, ``extrapolation_power``). Returns ``{"anchor": scenario id, "candidates": [...],
    "comparable": [ids of the call model's runs used], "power": the power beyond the measured range (``Curve``),
    "curves": {(component, service): Curve}, "tiers":
    {(component, service): tier used}, "targets": {(component, service): the HPA CPU target printed for the pod's main
    container by the first ranked run that prints one (percent)}}``. Raises EvidenceError when no run of the call model
    has resource data."""
    cands = [c for c in candidates(bundle, doc, call_model, mode, asm, sizing_load) if c["id"] not in exclude]
    comparable = [c for c in cands if c["comparable"]]
    if not comparable:
        known = ", ".join(f"{m['name']} ({m['id']})" for m in call_models(bundle) if m["doc"] == doc) or "none"
        raise EvidenceError(f"Call model {call_model!r}: no run of {doc} with resource data measured it; its call models "
                            f"are: {known}. Pick one of them, or pick a run.")
    best_tier = min(c["tier"] for c in comparable)
    anchor = max((c for c in comparable if c["tier"] == best_tier),
                 key=lambda c: (exact(c["load_per_site"]), not completeness(bundle, c["id"])["partial"], -comparable.index(c)))
    tier = {c["id"]: c["tier"] for c in comparable}
    points: dict[tuple, dict[int, list[tuple]]] = {}
    printed_target: dict[tuple, float] = {}
    for c in comparable:
        sid = c["id"]
        pods = runs.pods(bundle, sid)
        used = runs.cores_used(bundle, sid)
        targets = {(u["service"], u["reads"]): u["target_percent"] for u in runs.readings(bundle, sid, "cpu")
                   if u.get("target_percent")}
        for (component, service), containers in pods.items():
            main = runs.main_container(containers)
            if (component, service) not in printed_target and (service, main["container"]) in targets:
                printed_target[(component, service)] = targets[(service, main["container"])]
            r = used.get((component, service, main["container"]))
            if r is None or r["range"]:
                continue
            src = {"scenario": sid, "table_id": r["table_id"], "row": r["row"], "site": r["site"]}
            points.setdefault((component, service), {}).setdefault(tier[sid], []).append((c["load_per_site"], r["cores"], src))
    curves, tiers, targets = {}, {}, {}
    unit = anchor["unit"]
    power = extrapolation_power(bundle, doc) if power is None else power
    for key, by_tier in points.items():
        best = min(by_tier)
        curves[key] = Curve(by_tier[best], unit, power=power)
        tiers[key] = best
        t = printed_target.get(key)
        if t is not None:
            targets[key] = t
    return {"anchor": anchor["id"], "candidates": cands, "comparable": [c["id"] for c in comparable],
            "curves": curves, "tiers": tiers, "targets": targets, "power": float(power)}
