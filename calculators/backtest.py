"""Backtest: how well the calculators' scaling rules predict the guides' own observations.

Standard library only (it runs at build time in CPython; the footprint calculator reads its
summary, ``bands()``, from the bundle in Pyodide).

For every product, every ordered pair of runs (A, B) that share a call model and a deployment
mode, the observed CPU of each service of A (cores used at A's load per site) is scaled to B's
load per site by the calculators' own rule, and compared with what the guide printed for B:

* ``load-scaled`` (traffic services, application SQL nodes ``ndbappmysqld``, data nodes
  ``ndbmtd``, sidecars): cores used grow in proportion to the load per site, the rule the
  footprint calculator applies to CPU (``observed-cpu``);
* ``fixed`` (management services, cnDBTier management ``ndbmgmd``, replication SQL nodes
  ``ndbmysqld`` and replication/backup/monitor services): the footprint keeps them as they were,
  so the implied prediction is the same cores at any load;
* ``scenario-cpu`` (NEF): the one scenario-wide CPU percentage grows with the load ratio;
* ``measured-rate`` (DSR): a DA-MP's CPU peak grows in proportion to the MPS per DA-MP;
* ``cpu-per-node`` (ShCM): a Rhino node's CPU (cores) grows in proportion to the SPS.

Error is the absolute percentage error ``|predicted - printed| / printed`` in percent; a printed 0
has none and is listed apart. The 90th percentile is the nearest-rank one (the smallest error
at or above which 90 % of the pairs fall), so it is always an error that occurred.

Call model: the scenario's printed call mix (``call_mix`` raw text, Policy/BSF/NEF/ShCM; DSR's
'Call Flow Model'), compared after folding case, white space, dashes and a trailing full stop.
A call mix printed only as a pointer to a table ("Call Model Data") names no model and is
paired with nothing (those tables differ between runs).
"""
from __future__ import annotations

import math
import re
from fractions import Fraction

from .inputs import exact
from .partial import usable

FIXED_CNDB = ("ndbmgmd", "ndbmysqld")
"""cnDBTier services the footprint keeps fixed per site: management nodes and the SQL nodes that
carry georeplication channels (MySQL NDB Cluster manual; Oracle cnDBTier guides: see
shared sizing notes)."""

GENERIC_CALL_MODEL = ("call model data",)


class BacktestError(ValueError):
    """The bundle lacks what the backtest reads; the message names the key."""


_frac = exact


def call_model_key(text) -> str | None:
    """The call mix folded for comparison (case, white space, dashes, trailing full stop), or
    None when the text is empty or only points at a table ('Call Model Data')."""
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
    if component in ("stub", "simulator") or role == "test":
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


def _cols(table) -> list[dict]:
    """Rows of a columnar bundle table ``{"cols": [...], "rows": [[...]]}`` (or a list) as dicts."""
    if isinstance(table, dict) and "cols" in table:
        return [dict(zip(table["cols"], r)) for r in table["rows"]]
    return list(table or [])


def observed_cores(bundle: dict, scenario: dict) -> dict[tuple, dict]:
    """Cores each container of ``scenario`` used at its busiest site carrying traffic.

    Reads ``bundle["resources"]`` (per-pod request/limit, replicas) and ``bundle["cpu_obs"]``
    (CPU utilization rows with table and row; status ok/corrected only). A percentage is taken of
    the per-pod request (of the limit where the table says so) times the replicas, as the footprint
    calculator reads it; an absolute figure in cores is used as printed.

    Returns ``{(component, service, container): {"cores": Fraction, "site", "table_id", "row",
    "is_sidecar"}}``; containers without a usable observation are absent.
    """
    sid = scenario["id"]
    sites = set(scenario.get("sites_with_traffic") or [])
    res: dict[tuple, dict] = {}
    primary = (scenario.get("sites_with_traffic") or [""])[0]
    for r in bundle["resources"]:
        if r["scenario"] != sid or not usable(r):
            continue
        key = (r["service"], r["container"])
        if key not in res or (r["site"] in ("", primary) and res[key]["site"] not in ("", primary)):
            res[key] = r
    out: dict[tuple, dict] = {}
    for u in _cols(bundle["cpu_obs"]):
        if u["scenario"] != sid or (sites and u["site"] and u["site"] not in sites):
            continue
        r = res.get((u["service"], u["container"]))
        if r is None:
            continue
        if u.get("observed_abs") is not None and u.get("abs_unit") == "cores":
            cores = _frac(u["observed_abs"])
        elif u.get("observed_percent") is not None:
            per_pod = r.get("cpu_limit_cores") if u.get("percent_basis") == "limit" else r.get("cpu_request_cores")
            per_pod = per_pod if per_pod is not None else r.get("cpu_cores")
            if per_pod is None or r.get("replicas") is None:
                continue
            cores = _frac(u["observed_percent"]) / 100 * r["replicas"] * _frac(per_pod)
        else:
            continue
        key = (r["component"], r["service"], r["container"])
        if key not in out or cores > out[key]["cores"]:
            out[key] = {"cores": cores, "site": u["site"], "table_id": u["table_id"], "row": u["row"],
                        "is_sidecar": bool(r["is_sidecar"])}
    return out


def _pairs_of(items: list[dict], key) -> list[tuple[dict, dict]]:
    groups: dict = {}
    for it in items:
        k = key(it)
        if k is not None:
            groups.setdefault(k, []).append(it)
    return [(a, b) for g in groups.values() for a in g for b in g if a is not b]


def _point(doc, rule, a_id, b_id, subject, load_a, load_b, unit, obs_a, obs_b, src_a, src_b, value_unit) -> dict:
    pred = obs_a * _frac(load_b) / _frac(load_a) if rule != "fixed" else obs_a
    ape = None if obs_b == 0 else abs(pred - obs_b) / obs_b * 100
    return {"doc": doc, "rule": rule, "from": a_id, "to": b_id, "subject": subject, "load_from": float(load_a),
            "load_to": float(load_b), "unit": unit, "observed_from": float(obs_a), "observed_to": float(obs_b),
            "predicted_to": float(pred), "value_unit": value_unit, "ape": None if ape is None else float(ape),
            "source_from": src_a, "source_to": src_b}


def _call_mix(bundle: dict) -> dict[str, str | None]:
    """Scenario id -> printed call mix (bundle key ``scenario_facts``)."""
    return {f["id"]: f.get("call_mix") for f in bundle.get("scenario_facts") or []}


def _run_key(s: dict, mixes: dict) -> tuple | None:
    """What two runs must share to be paired: deployment mode and call model (None: pair with none).
    Where a title names the feature under test and numbers the runs ('Monitoring Event Test Scenario 1',
    NEF), the feature is part of the call model: NEF prints the same mix for different APIs."""
    model = call_model_key(mixes.get(s["id"]))
    feature = re.match(r"(.*?)\s*Test Scenario \d+\s*$", s.get("title") or "")
    return (s.get("deployment_mode"), model, feature.group(1) if feature else None) if model else None


def _footprint_points(bundle: dict, doc: str, roles: dict) -> tuple[list[dict], list[str]]:
    scen = [s for s in bundle["scenarios"] if s["doc"] == doc and s.get("load_per_site")]
    mixes = _call_mix(bundle)
    pairs = _pairs_of(scen, lambda s: _run_key(s, mixes))
    obs = {s["id"]: observed_cores(bundle, s) for s in scen}
    pts = []
    for a, b in pairs:
        for k, oa in obs[a["id"]].items():
            ob = obs[b["id"]].get(k)
            if ob is None:
                continue
            component, service, container = k
            rule = cpu_rule(component, service, roles.get((doc, service)), oa["is_sidecar"])
            if rule is None:
                continue
            pts.append(_point(doc, rule, a["id"], b["id"], f"{service} / {container}", a["load_per_site"],
                              b["load_per_site"], a.get("load_unit") or "TPS", oa["cores"], ob["cores"],
                              f"Table {oa['table_id']} row {oa['row']}", f"Table {ob['table_id']} row {ob['row']}", "cores"))
    notes = []
    if not pairs:
        notes.append("no two runs share both a call model and a deployment mode: "
                     + "; ".join(f"{s['id']}: {s.get('deployment_mode')}, '{mixes.get(s['id']) or 'no call mix'}'" for s in scen))
    return pts, notes


def _scenario_cpu_points(bundle: dict, doc: str) -> list[dict]:
    wide = {w["scenario"]: w for w in bundle.get("scenario_cpu") or [] if w.get("observed_percent") is not None}
    scen = [s for s in bundle["scenarios"] if s["doc"] == doc and s["id"] in wide and s.get("load_per_site")]
    mixes = _call_mix(bundle)
    pts = []
    for a, b in _pairs_of(scen, lambda s: _run_key(s, mixes)):
        wa, wb = wide[a["id"]], wide[b["id"]]
        pts.append(_point(doc, "scenario-cpu", a["id"], b["id"], "whole scenario (CPU %)", a["load_per_site"],
                          b["load_per_site"], a.get("load_unit") or "TPS", _frac(wa["observed_percent"]),
                          _frac(wb["observed_percent"]), f"Table {wa['table_id']} row {wa['row']}",
                          f"Table {wb['table_id']} row {wb['row']}", "%"))
    return pts


def _metric(run: dict, key: str):
    m = (run.get("metrics") or {}).get(key)
    if not m or m.get("value") is None or not usable(m):
        return None
    return m


def _dsr_points(bundle: dict) -> list[dict]:
    runs = []
    for r in bundle.get("dsr_runs") or []:
        cpu, vcpu = _metric(r, "cpu_peak"), _metric(r, "da_mp_vcpu")
        rate = _metric(r, "mps_achieved_per_da_mp")
        total, count = _metric(r, "mps_achieved"), _metric(r, "da_mp_count")
        if rate is not None:
            mps, src = _frac(rate["value"]), f"Table {rate['table_id']} row {rate['row']}"
        elif total is not None and count is not None:
            mps, src = _frac(total["value"]) / _frac(count["value"]), f"Table {total['table_id']} row {total['row']}"
        else:
            continue
        if cpu is None or vcpu is None:
            continue
        runs.append({"id": r["id"], "mps": mps, "cpu": _frac(cpu["value"]), "vcpu": vcpu["value"],
                     "mode": r.get("deployment_mode"), "model": call_model_key(r.get("call_mix")),
                     "profile": ((r.get("settings") or {}).get("DA-MP Profile") or {}).get("value"),
                     "src": f"{src}; CPU Table {cpu['table_id']} row {cpu['row']}"})
    pts = []
    for a, b in _pairs_of(runs, lambda x: (x["mode"], x["model"], x["vcpu"], x["profile"]) if x["model"] else None):
        pts.append(_point("dsr", "measured-rate", a["id"], b["id"], f"DA-MP CPU peak ({a['vcpu']:g} vCPU)", a["mps"], b["mps"],
                          "MPS per DA-MP", a["cpu"], b["cpu"], a["src"], b["src"], "%"))
    return pts


def _shcm_points(bundle: dict) -> list[dict]:
    tests = []
    for t in bundle.get("shcm_tests") or []:
        sps, cpu = _metric(t, "sps"), _metric(t, "cpu_cores")
        cfg = (t.get("config") or {}).get("value")
        if sps is None or cpu is None or not cfg:
            continue
        tests.append({"id": t["id"], "sps": _frac(sps["value"]), "cpu": _frac(cpu["value"]), "config": cfg,
                      "src": f"Table {cpu['table_id']} row {cpu['row']}"})
    return [_point("shcm", "cpu-per-node", a["id"], b["id"], f"Rhino node CPU (server config {a['config']})", a["sps"], b["sps"],
                   "SPS", a["cpu"], b["cpu"], a["src"], b["src"], "cores")
            for a, b in _pairs_of(tests, lambda x: x["config"])]


def nearest_rank(values: list[float], q: float) -> float | None:
    """The nearest-rank ``q`` quantile (0 < q <= 1) of ``values``: the smallest value with at
    least q of the values at or below it; None for no values."""
    if not values:
        return None
    v = sorted(values)
    return v[max(0, math.ceil(q * len(v)) - 1)]


def _stats(points: list[dict]) -> dict:
    errs = [p["ape"] for p in points if p["ape"] is not None]
    return {"pairs": len(points), "with_error": len(errs), "median_ape": nearest_rank(errs, 0.5),
            "p90_ape": nearest_rank(errs, 0.9), "runs": len({p["from"] for p in points} | {p["to"] for p in points})}


def pair_totals(points: list[dict]) -> list[dict]:
    """One row per ordered pair (A -> B) of the per-service ``points`` measured in cores: the
    cores predicted and printed summed over the services observed in both runs, with the absolute
    percentage error of that sum: what a whole-footprint sizing would have got wrong."""
    out: dict[tuple, dict] = {}
    for p in points:
        if p["value_unit"] != "cores" or p["doc"] == "shcm":
            continue
        t = out.setdefault((p["doc"], p["from"], p["to"]), {"doc": p["doc"], "from": p["from"], "to": p["to"],
                                                         "load_from": p["load_from"], "load_to": p["load_to"],
                                                         "unit": p["unit"], "services": 0, "predicted_to": Fraction(0),
                                                         "observed_to": Fraction(0)})
        t["services"] += 1
        t["predicted_to"] += _frac(p["predicted_to"])
        t["observed_to"] += _frac(p["observed_to"])
    rows = []
    for t in out.values():
        ape = None if t["observed_to"] == 0 else float(abs(t["predicted_to"] - t["observed_to"]) / t["observed_to"] * 100)
        rows.append(dict(t, predicted_to=float(t["predicted_to"]), observed_to=float(t["observed_to"]), ape=ape))
    return rows


def run(bundle: dict) -> dict:
    """The whole backtest of ``bundle`` (the full calculator bundle built from data/).

    Returns ``{"points": [...], "by_product": {doc: stats}, "by_rule": {(doc, rule) as "doc/rule":
    stats}, "totals": pair_totals(points), "by_total": {doc: stats of the totals}, "notes": {doc: [why
    a product has few or no pairs]}}``; each point is one service of one
    ordered pair (A -> B) with loads, observed and predicted values, the absolute percentage error
    (``ape``, percent, None when the printed value is 0) and the source table and row of both
    observations; stats hold ``pairs``, ``with_error``, ``median_ape`` and ``p90_ape`` (percent).
    Raises BacktestError when the bundle lacks ``cpu_obs``.
    """
    if "cpu_obs" not in bundle:
        raise BacktestError("the bundle has no 'cpu_obs' (CPU utilization rows with table and row)")
    roles = {(s["doc"], s["service"]): s["role"] for s in bundle["services"]}
    points, notes = [], {}
    for src in bundle["sources"]:
        doc = src["id"]
        if doc == "dsr":
            pts = _dsr_points(bundle)
        elif doc == "shcm":
            pts = _shcm_points(bundle)
        else:
            pts, n = _footprint_points(bundle, doc, roles)
            pts += _scenario_cpu_points(bundle, doc)
            if n:
                notes[doc] = n
        if not pts and doc not in notes:
            notes[doc] = ["no two runs share a call model and a deployment mode with observed CPU in both"]
        points += pts
    by_product = {d: _stats([p for p in points if p["doc"] == d]) for d in dict.fromkeys(p["doc"] for p in points)}
    by_rule = {f"{d}/{r}": _stats([p for p in points if p["doc"] == d and p["rule"] == r])
               for d, r in dict.fromkeys((p["doc"], p["rule"]) for p in points)}
    totals = pair_totals(points)
    by_total = {d: _stats([t for t in totals if t["doc"] == d]) for d in dict.fromkeys(t["doc"] for t in totals)}
    return {"points": points, "by_product": by_product, "by_rule": by_rule, "totals": totals, "by_total": by_total,
            "notes": notes}


def bands(result: dict) -> dict:
    """The uncertainty band per product and rule for the footprint result: ``{"doc/rule":
    {"p90_ape": percent, "median_ape": percent, "pairs": n}}`` for the rules with errors."""
    return {k: {"p90_ape": v["p90_ape"], "median_ape": v["median_ape"], "pairs": v["with_error"]}
            for k, v in result["by_rule"].items() if v["with_error"]}
