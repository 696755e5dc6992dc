"""Footprint scaling: size a deployment for a target load from a benchmark scenario.

Standard library only: this module runs unchanged in CPython and in Pyodide.

Input data is the *bundle* (see ``calculators.bundle``): plain dicts built at
site build time from data/. Units: CPU in cores, memory in GiB, load in the
scenario's own unit (TPS, MPS, SPS or RPS).

Method (stated on the calculator page, and per row in ``rule``):

* ``fixed``: management services (role ``management``), test stubs and
  simulators, services the baseline ran with 0 replicas, and services with no
  known role keep the baseline replica count.
* ``observed-cpu``: a traffic or database service with observed CPU at a site
  carrying traffic, and a target CPU utilization (given by the user, or the
  HPA target printed beside the observation): the cores it used are scaled by
  the load ratio and divided by (CPU request x target) to give replicas.
* ``scenario-cpu``: a traffic service of a scenario whose source prints only
  one observed CPU figure for the whole scenario (bundle key ``scenario_cpu``,
  e.g. NEF: measurements.csv metric cpu_percent, subject Total, ~60 % in
  Table 3-5) against a CPU target (the user's, or the scenario's printed
  'Target CPU' setting, 70 % in NEF Table 3-3): replicas = baseline x load
  ratio x observed / target. The source does not say which pods the figure
  covers, so every traffic service gets the same ratio (a caveat is returned
  in ``warnings``).
* ``proportional``: any other traffic or database service: replicas are
  scaled by the load ratio.

ASM (``asm``): ``keep`` the baseline's sidecars, ``remove`` them, or ``add``
an istio-proxy sidecar to every application and cnDBTier pod that has none.
Added sidecars are sized, per pod, from the same service's sidecar in the
ASM scenario ``asm_from`` (default: every ASM-enabled scenario of the product,
in data order), else from the median sidecar request and limit over those
scenarios' sidecar rows; or from the user's ``sidecar_cpu`` (cores) and
``sidecar_mem`` (GiB) per sidecar, used for request and limit alike.

Replicas are rounded up to whole pods and never go below the minimum replica
count printed in the source, nor below the user's minimum (default 1). Sidecar containers
follow their pod's replica count; per-pod requests and limits never change.
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction

from . import inputs

MAX_SCALE = 1000
"""A target load above 1000 x the baseline's per-site load is refused: no benchmark
supports extrapolating that far (chosen by the Benchmark Atlas, not a vendor figure)."""

GROUPS = ("application", "sidecars", "cnDBTier", "other")
ASM_CHOICES = ("keep", "remove", "add")


class FootprintError(ValueError):
    """Bad input to the footprint calculator; the message says what and why."""


@functools.lru_cache(maxsize=4096)
def _frac(x) -> Fraction:
    """The exact decimal a data value prints as (0.1 -> 1/10, not the binary float).
    Cached: Fractions are immutable, data values repeat, and parsing the text is most of a run."""
    return Fraction(str(x))


def parse_positive(value, name: str, unit: str, *, allow_zero: bool = False) -> Fraction:
    """Read a user-supplied number (int, float or text such as '80000' or '80,000').

    Returns an exact Fraction. Raises FootprintError for empty, non-numeric,
    non-finite, negative or (unless ``allow_zero``) zero values.
    """
    return inputs.positive(value, name, unit, FootprintError, allow_zero=allow_zero)


def _whole(value, name: str, unit: str, most: int) -> int:
    """A whole number from 1 to ``most``; raises FootprintError otherwise."""
    f = parse_positive(value, name, unit)
    if f.denominator != 1 or f > most:
        raise FootprintError(f"{name} must be a whole number from 1 to {most}.")
    return int(f)


def scenarios_with_resources(bundle: dict) -> list[dict]:
    """Scenarios that have resource-allocation rows and a numeric load, in bundle order."""
    have = {r["scenario"] for r in bundle["resources"]}
    return [s for s in bundle["scenarios"] if s["id"] in have and s.get("load_per_site")]


def compute(bundle: dict, scenario: str, target_load, *, target_cpu_percent=None, sites=None,
            failover: bool = False, asm: str = "keep", node_cores=None, node_mem_gib=None, min_replicas=1,
            asm_from=None, sidecar_cpu=None, sidecar_mem=None) -> dict:
    """Scale the baseline ``scenario`` to ``target_load`` (total over all sites).

    Arguments:
        bundle: the calculator bundle (dict) built from data/.
        scenario: scenario id, e.g. 'bsf-3-3'.
        target_load: total load in the scenario's unit (TPS/MPS/SPS/RPS), > 0.
        target_cpu_percent: CPU utilization target per pod, 1 to 100 (% of the
            CPU request); None uses the HPA target printed with the observation,
            or proportional scaling where none is printed.
        sites: number of sites carrying traffic (default: the baseline's).
        failover: size each site for its share plus the load of one lost site
            (total / (sites - 1)), as georedundant deployments are engineered.
        asm: 'keep' the baseline's sidecars, 'remove' them, or 'add' one to
            every application and cnDBTier pod without one.
        asm_from: with 'add', the ASM-enabled scenario of the same product
            whose sidecars size the added ones (None: all of the product's
            ASM-enabled scenarios).
        sidecar_cpu, sidecar_mem: with 'add', a sidecar size the user gives
            (cores and GiB per sidecar, request = limit); both or neither.
        node_cores, node_mem_gib: optional worker node shape; with both, the
            result gives the nodes per site needed for the requests.
        min_replicas: the fewest replicas any scaled service may get (default
            1; 2 keeps every scaled service highly available).

    Returns a dict: ``inputs``, ``baseline`` (scenario facts), ``per_site_load``,
    ``rows`` (one per service/container: rule, replicas before/after, per-pod
    and total CPU (cores) and memory (GiB) requests and limits, source table),
    ``totals`` per group and per site (before = the baseline site, after = one
    target site) and for the whole deployment after scaling (all sites), ``nodes_per_site``, ``warnings`` and
    ``method`` (text).

    Raises FootprintError for an unknown scenario, a scenario without resource
    data or load, an unknown ASM choice, 'add' with no ASM scenario of the
    product and no user sidecar size, and any invalid number.
    """
    scen = next((s for s in bundle["scenarios"] if s["id"] == scenario), None)
    if scen is None:
        raise FootprintError(f"Unknown scenario {scenario!r}.")
    unit = scen.get("load_unit") or "TPS"
    base_site_load = scen.get("load_per_site")
    if not base_site_load:
        raise FootprintError(f"Scenario {scenario} has no numeric load per site in the source, so it cannot be scaled.")
    rows = [r for r in bundle["resources"] if r["scenario"] == scenario]
    if not rows:
        raise FootprintError(f"Scenario {scenario} has no resource-allocation data.")
    total = parse_positive(target_load, "Target load", unit)
    base_sites = max(1, len(scen.get("sites_with_traffic") or []) or 1)
    n_sites = base_sites if sites in (None, "") else _whole(sites, "Number of sites", "sites", 64)
    if failover and n_sites < 2:
        raise FootprintError("Failover sizing needs at least 2 sites.")
    per_site = total / (n_sites - 1) if failover else total / n_sites
    base = _frac(base_site_load)
    factor = per_site / base
    if factor > MAX_SCALE:
        raise FootprintError(f"Target load per site ({float(per_site):,.0f} {unit}) is more than {MAX_SCALE} times the "
                             f"baseline's {float(base):,.0f} {unit}; the benchmark cannot support that extrapolation.")
    target = None
    if target_cpu_percent not in (None, ""):
        target = parse_positive(target_cpu_percent, "Target CPU utilization", "%")
        if target > 100:
            raise FootprintError("Target CPU utilization must be between 1 and 100 %.")
    if asm not in ASM_CHOICES:
        raise FootprintError("ASM must be 'keep', 'remove' or 'add'.")
    sidecar_size = _sidecar_source(bundle, scen, asm_from, sidecar_cpu, sidecar_mem) if asm == "add" else None
    node = None
    if node_cores not in (None, "") or node_mem_gib not in (None, ""):
        node = (parse_positive(node_cores, "Node CPU", "cores"), parse_positive(node_mem_gib, "Node memory", "GiB"))

    min_rep = _whole(min_replicas, "Minimum replicas", "pods", 1000)
    roles = {(s["doc"], s["service"]): s["role"] for s in bundle["services"]}
    traffic_sites = list(scen.get("sites_with_traffic") or [])
    rows = _baseline_rows(rows, traffic_sites)
    util = [u for u in bundle["utilization"] if u["scenario"] == scenario and u["metric"] == "cpu"
            and u["status"] in ("ok", "corrected") and (not traffic_sites or u["site"] in traffic_sites)]

    pods: dict[tuple, list[dict]] = {}
    for r in rows:
        pods.setdefault((r["component"], r["service"]), []).append(r)

    out_rows, warnings = [], []
    wide = _scenario_cpu(bundle, scen, target)
    if wide and any(roles.get((scen["doc"], svc)) == "traffic" for (_, svc) in pods):
        warnings.append(
            f"Observed CPU for this scenario is one figure for the whole scenario ({wide['observed_percent']:g} %, "
            f"Table {wide['table_id']} row {wide['row']}) against a {float(wide['target']):g} % target "
            f"({wide['target_source']}); the source does not say which pods it covers, so every traffic service is "
            "scaled by the same ratio (scenario-cpu).")
    for (component, service), containers in pods.items():
        role = roles.get((scen["doc"], service))
        main = _main_container(containers)
        base_rep = main.get("replicas")
        if base_rep is None:
            base_rep = next((c["replicas"] for c in containers if c.get("replicas") is not None), None)
        floor = max(main.get("replicas_min") or 1, min_rep)
        rule, detail, new_rep = _scale_pod(role, component, base_rep, floor, factor, target, main, util, service, wide)
        if rule.startswith("fixed") and base_rep is None:
            warnings.append(f"{service}: no replica count printed; left out of totals.")
        for c in containers:
            if asm == "remove" and c["is_sidecar"]:
                continue
            out_rows.append(_row(c, role, rule, detail, base_rep, new_rep))
        if (sidecar_size and component in ("app", "cndbtier") and not any(c["is_sidecar"] for c in containers)):
            out_rows.append(_row(_added_sidecar(main, sidecar_size), role, rule, detail, base_rep, new_rep))
    totals = _totals(out_rows, n_sites)
    nodes = None
    if node:
        after = totals["site"]["after"]
        nodes = max(math.ceil(_frac(after["cpu_request"]) / node[0]), math.ceil(_frac(after["mem_request"]) / node[1]))
    if asm == "remove" and not any(r["is_sidecar"] for r in rows):
        warnings.append("The baseline has no sidecars; 'remove ASM' changes nothing.")
    return {
        "inputs": {"scenario": scenario, "target_load": float(total), "unit": unit, "target_cpu_percent": float(target) if target else None,
                   "sites": n_sites, "failover": bool(failover), "asm": asm,
                   "node_cores": float(node[0]) if node else None, "node_mem_gib": float(node[1]) if node else None,
                   "min_replicas": min_rep,
                   "asm_from": sidecar_size["label"] if sidecar_size else None},
        "baseline": {"id": scen["id"], "doc": scen["doc"], "title": scen["title"], "short_title": scen.get("short_title") or scen["title"],
                     "load_per_site": float(base), "load_total": scen.get("load_total"), "unit": unit,
                     "sites_with_traffic": traffic_sites, "asm": scen.get("asm")},
        "per_site_load": float(per_site),
        "scale_factor": float(factor),
        "rows": out_rows,
        "totals": totals,
        "nodes_per_site": nodes,
        "warnings": warnings,
        "method": METHOD,
    }


METHOD = (
    "Management services, stubs and services with no known role keep the baseline replicas (fixed). "
    "Traffic and database services with observed CPU at a site carrying traffic and a CPU target are sized from "
    "the cores they used, scaled by the load ratio, divided by CPU request x target (observed-cpu). Other traffic "
    "and database services scale their replicas with the load ratio (proportional). Where the source prints only one "
    "observed CPU figure for the whole scenario (NEF), traffic services scale by load ratio x observed / target "
    "(scenario-cpu). Replicas round up to whole pods, "
    "never below the minimum printed in the source or the minimum you set (default 1). Sidecars follow their pod; per-pod requests and limits are unchanged."
)


def _baseline_rows(rows: list[dict], traffic_sites: list[str]) -> list[dict]:
    """One row per (component, service, container): prefer rows for no site or the first
    traffic site; a component printed only for another site uses that site's rows."""
    primary = traffic_sites[0] if traffic_sites else ""
    chosen: dict[tuple, dict] = {}
    rank = lambda r: 0 if r["site"] in ("", primary) else 1
    for r in sorted(rows, key=rank):
        key = (r["component"], r["service"], r["container"])
        if key not in chosen:
            chosen[key] = r
        elif rank(r) == rank(chosen[key]) and r["site"] == chosen[key]["site"] and r["table_id"] != chosen[key]["table_id"]:
            pass  # the same pod printed in a second table: the first one stands
    order = {id(r): i for i, r in enumerate(rows)}
    return sorted(chosen.values(), key=lambda r: order[id(r)])


def _main_container(containers: list[dict]) -> dict:
    non_sidecar = [c for c in containers if not c["is_sidecar"]] or containers
    for name in ("app", "mysqlndbcluster"):
        for c in non_sidecar:
            if c["container"] == name:
                return c
    return max(non_sidecar, key=lambda c: c.get("cpu_request_cores") or c.get("cpu_cores") or 0)


def _scale_pod(role, component, base_rep, floor, factor, target, main, util, service, wide=None):
    if base_rep is None:
        return "fixed", "no replica count printed", None
    if base_rep == 0:
        return "fixed", "0 replicas in the baseline (service disabled)", 0
    if role not in ("traffic", "database") or component in ("stub", "simulator"):
        why = {"management": "management service", "test": "test stub or simulator", None: "role not known"}.get(role, role)
        return "fixed", why, base_rep
    obs = [u for u in util if u["service"] == service and u["container"] == main["container"]]
    request = main.get("cpu_request_cores")
    if obs and request:
        t = target
        printed_target = next((u["target_percent"] for u in obs if u.get("target_percent")), None)
        if t is None and printed_target:
            t = _frac(printed_target)
        if t is not None:
            used = []
            for u in obs:
                if u.get("observed_abs") is not None and u.get("abs_unit") == "cores":
                    used.append(_frac(u["observed_abs"]))
                elif u.get("observed_percent") is not None:
                    basis = main.get("cpu_limit_cores") if u["percent_basis"] == "limit" else request
                    if basis:
                        used.append(_frac(u["observed_percent"]) / 100 * base_rep * _frac(basis))
            if used:
                peak = max(used)
                need = peak * factor / (_frac(request) * t / 100)
                new = max(math.ceil(need), floor)
                return ("observed-cpu",
                        f"{float(peak):.3g} cores used at {float(t):g}% target of {float(request):g}-core request", new)
    if wide and role == "traffic" and not obs:
        ratio = _frac(wide["observed_percent"]) / wide["target"]
        new = max(math.ceil(base_rep * factor * ratio), floor)
        return ("scenario-cpu", f"{base_rep} x {float(factor):.4g} x {wide['observed_percent']:g}/{float(wide['target']):g} "
                f"(scenario-wide CPU, Table {wide['table_id']})", new)
    return "proportional", f"{base_rep} x {float(factor):.4g}", max(math.ceil(base_rep * factor), floor)


def _scenario_cpu(bundle: dict, scen: dict, target) -> dict | None:
    """The scenario-wide observed CPU (bundle key ``scenario_cpu``) with the target to use:
    the user's, else the scenario's printed target; None when either is missing."""
    w = next((x for x in bundle.get("scenario_cpu") or [] if x["scenario"] == scen["id"]), None)
    if not w or w.get("observed_percent") is None:
        return None
    if target is not None:
        return dict(w, target=target, target_source="your target")
    if w.get("target_percent"):
        return dict(w, target=_frac(w["target_percent"]),
                    target_source=f"'Target CPU' in Table {w.get('target_table_id')} row {w.get('target_row')}")
    return None


def asm_scenarios(bundle: dict, doc: str) -> list[dict]:
    """ASM-enabled scenarios (asm 'enabled' or 'partial') of ``doc`` that have sidecar rows."""
    have = {r["scenario"] for r in bundle["resources"] if r["is_sidecar"]}
    return [s for s in bundle["scenarios"] if s["doc"] == doc and s.get("asm") in ("enabled", "partial") and s["id"] in have]


def _sidecar_source(bundle, scen, asm_from, sidecar_cpu, sidecar_mem) -> dict:
    """How added sidecars are sized: a user size, or sidecar rows of ASM scenarios of the same product."""
    if sidecar_cpu not in (None, "") or sidecar_mem not in (None, ""):
        cpu = parse_positive(sidecar_cpu, "Sidecar CPU", "cores per sidecar")
        mem = parse_positive(sidecar_mem, "Sidecar memory", "GiB per sidecar")
        if cpu > 64 or mem > 256:
            raise FootprintError("A sidecar of more than 64 cores or 256 GiB is not plausible; check the units (cores, GiB).")
        size = {"cpu_request": cpu, "cpu_limit": cpu, "mem_request": mem, "mem_limit": mem}
        return {"label": f"your size ({float(cpu):g} cores, {float(mem):g} GiB)", "by_service": {}, "median": size,
                "median_source": {"scenario": "", "table_id": "your input", "row": None}}
    options = asm_scenarios(bundle, scen["doc"])
    if asm_from not in (None, ""):
        chosen = [s for s in options if s["id"] == asm_from]
        if not chosen:
            raise FootprintError(f"{asm_from!r} is not an ASM-enabled scenario of the same product with sidecar data; "
                                 f"choose one of: {', '.join(s['id'] for s in options) or 'none'}.")
        options = chosen
    if not options:
        raise FootprintError("No ASM-enabled scenario of this product has sidecar data: give a sidecar size (cores and GiB).")
    ids = [s["id"] for s in options]
    rows = [r for r in bundle["resources"] if r["is_sidecar"] and r["scenario"] in ids]
    by_service: dict[tuple, dict] = {}
    for r in rows:
        by_service.setdefault((r["component"], r["service"]), r)
    med = {}
    for key, cols in (("cpu_request", ("cpu_request_cores", "cpu_cores")), ("cpu_limit", ("cpu_limit_cores", "cpu_cores")),
                      ("mem_request", ("mem_request_gib", "mem_gib")), ("mem_limit", ("mem_limit_gib", "mem_gib"))):
        vals = sorted(_frac(v) for v in (_num(r, *cols) for r in rows) if v is not None)
        med[key] = _median(vals)
    return {"label": " + ".join(ids), "by_service": by_service, "median": med,
            "median_source": {"scenario": " + ".join(ids), "table_id": "median of " + ", ".join(sorted({r["table_id"] for r in rows})), "row": None}}


def _median(vals: list) -> Fraction | None:
    if not vals:
        return None
    n = len(vals)
    return vals[n // 2] if n % 2 else (vals[n // 2 - 1] + vals[n // 2]) / 2


def _added_sidecar(main: dict, size: dict) -> dict:
    src = size["by_service"].get((main["component"], main["service"]))
    if src is not None:
        vals = {k: _num(src, *cols) for k, cols in (("cpu_request_cores", ("cpu_request_cores", "cpu_cores")),
                                                   ("cpu_limit_cores", ("cpu_limit_cores", "cpu_cores")),
                                                   ("mem_request_gib", ("mem_request_gib", "mem_gib")),
                                                   ("mem_limit_gib", ("mem_limit_gib", "mem_gib")))}
        where = {"source_scenario": src["scenario"], "table_id": src["table_id"], "row": src["row"], "row_label": src["row_label"]}
    else:
        m = size["median"]
        f = lambda v: None if v is None else float(v)
        vals = {"cpu_request_cores": f(m["cpu_request"]), "cpu_limit_cores": f(m["cpu_limit"]),
                "mem_request_gib": f(m["mem_request"]), "mem_limit_gib": f(m["mem_limit"])}
        ms = size["median_source"]
        where = {"source_scenario": ms["scenario"], "table_id": ms["table_id"], "row": None, "row_label": "added sidecar"}
    return {"component": main["component"], "service": main["service"], "container": "istio-proxy", "is_sidecar": True,
            "replicas": None, "cpu_cores": None, "mem_gib": None, "added": True, **vals, **where}


def _num(r, *keys):
    for k in keys:
        if r.get(k) is not None:
            return r[k]
    return None


def _row(c, role, rule, detail, base_rep, new_rep):
    cpu_req = _num(c, "cpu_request_cores", "cpu_cores")
    cpu_lim = _num(c, "cpu_limit_cores", "cpu_cores")
    mem_req = _num(c, "mem_request_gib", "mem_gib")
    mem_lim = _num(c, "mem_limit_gib", "mem_gib")
    rep_b = 0 if c.get("added") else c.get("replicas") if c.get("replicas") is not None else base_rep
    rep_a = new_rep if rep_b is not None else None
    if c.get("added") and base_rep is None:
        rep_a = None

    def tot(v, n):
        return None if v is None or n is None else float(_frac(v) * n)

    return {
        "component": c["component"], "service": c["service"], "container": c["container"], "is_sidecar": c["is_sidecar"],
        "group": _group(c), "role": role or "unknown", "rule": rule, "rule_detail": detail,
        "replicas_before": rep_b, "replicas_after": rep_a,
        "cpu_request": cpu_req, "cpu_limit": cpu_lim, "mem_request": mem_req, "mem_limit": mem_lim,
        "cpu_request_before": tot(cpu_req, rep_b), "cpu_request_after": tot(cpu_req, rep_a),
        "cpu_limit_before": tot(cpu_lim, rep_b), "cpu_limit_after": tot(cpu_lim, rep_a),
        "mem_request_before": tot(mem_req, rep_b), "mem_request_after": tot(mem_req, rep_a),
        "mem_limit_before": tot(mem_lim, rep_b), "mem_limit_after": tot(mem_lim, rep_a),
        "basis": "request/limit" if c.get("cpu_request_cores") is not None else "single value (request/limit not stated)",
        "table_id": c["table_id"], "source_row": c["row"], "row_label": c["row_label"],
        "source_scenario": c.get("source_scenario") or c.get("scenario"), "added": bool(c.get("added")),
    }


def _group(c) -> str:
    if c["is_sidecar"]:
        return "sidecars"
    return {"app": "application", "cndbtier": "cnDBTier"}.get(c["component"], "other")


def _totals(rows: list[dict], n_sites: int) -> dict:
    keys = ("cpu_request", "cpu_limit", "mem_request", "mem_limit")
    groups = {g: {"before": dict.fromkeys(keys, 0.0), "after": dict.fromkeys(keys, 0.0), "replicas_before": 0, "replicas_after": 0}
              for g in GROUPS}
    for r in rows:
        g = groups[r["group"]]
        for k in keys:
            for when in ("before", "after"):
                v = r.get(f"{k}_{when}")
                if v is not None:
                    g[when][k] = float(_frac(g[when][k]) + _frac(v))
        if not r["is_sidecar"]:
            g["replicas_before"] += r["replicas_before"] or 0
            g["replicas_after"] += r["replicas_after"] or 0
    site = {when: {k: float(sum(_frac(groups[g][when][k]) for g in GROUPS)) for k in keys} for when in ("before", "after")}
    deployment = {k: float(_frac(site["after"][k]) * n_sites) for k in keys}
    return {"groups": groups, "site": site, "deployment": deployment, "sites": n_sites}
