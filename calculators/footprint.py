"""Footprint scaling: size a deployment for a target load from a benchmark scenario.

Standard library only: this module runs unchanged in CPython and in Pyodide.

Input data is the *bundle* (built by ``atlas.bundle`` at site build time from data/):
plain dicts. Units: CPU in cores, memory in GiB, load in the scenario's own unit
(TPS, MPS, SPS or RPS). Every output row names its ``rule``, the engineering reason
(``rule_detail``), the ``binding`` resource and any ``notes``; the rules, with their
sources, are in ``METHOD`` and on the calculator page (docs/calculators/footprint.md).

Rules, by component (``rule`` values):

* ``cpu+memory``: a stateless traffic service with observed CPU at a site carrying
  traffic and a CPU target (yours, else the HPA target printed with the observation,
  else the georedundancy ceiling). Replicas = the larger of
  ceil(cores used x load ratio / (CPU request x target)) and
  ceil(memory used x load ratio / memory request) -- memory used is the observed memory
  where the data has it, else the full request (so without a memory observation the
  service never falls below proportional scaling). A pod over its memory request is the
  first the kubelet evicts under node memory pressure (kubernetes.io, node-pressure
  eviction), hence 100 % of the request as the memory ceiling. The binding resource is
  named per row. A target never takes a service below the replicas the benchmark
  itself ran, scaled down with the load below the benchmark's load ("the benchmark ran
  with headroom"; ``_benchmark_floor``).
* ``scenario-cpu``: as before for guides that print one CPU figure per scenario (NEF).
* ``proportional``: no observation or no target: replicas x load ratio.
* ``data-held``: cnDBTier data nodes (ndbmtd). They hold the data in memory in node
  groups of NoOfReplicas = 2 nodes (MySQL NDB Cluster manual: NoOfReplicas, node
  groups, DataMemory); every georedundant site holds a full copy, so a site keeps the
  baseline's data nodes whatever its share of traffic. Only a data size you give can
  change the count: 2 x ceil(data GiB / (memory request x observed fill)), in whole
  node groups.
* ``fixed-per-site``: ndbmgmd (a fixed management pair) and ndbmysqld (replication SQL
  nodes, one set per replication channel; they follow the site topology, not load).
* ``fixed``: management services; services the baseline ran with 0 replicas.
* ``test``: stubs and simulators: shown apart, left out of production totals and
  node counts.

Georedundancy: ``sites`` carry traffic, ``sites_provisioned`` exist (default as the
baseline). With redundancy 'n+1' (losing one site) or 'mated-pair' (a site's mate takes
all its traffic) each site is sized for the normal state at the *normal ceiling* and
for the failover state at the *failover ceiling* (defaults 40 % and 80 %, the common
telecom pair; DSR's PDRA DA-MP is rated at 40 % with and 80 % without site redundancy,
Oracle DSR PCA "MP growth"). The ceilings cap the CPU target: each state uses
min(target, its ceiling) (with no target, the ceiling itself).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields
from fractions import Fraction

from . import evidence as evidence_mod, inputs, packing, runs
from .scenario import asm_on
from .partial import TEST_COMPONENTS, completeness, exclusions, usable  # noqa: F401 (completeness: re-exported for the build side)

MAX_SCALE = 1000
"""A target load above 1000 x the baseline's per-site load is refused: no benchmark
supports extrapolating that far (chosen by the Benchmark Atlas, not a vendor figure)."""

GROUPS = ("application", "sidecars", "cnDBTier", "other")
"""Production groups; test stubs and simulators are the separate group "test"."""
TEST_GROUP = "test"
REDUNDANCY = ("none", "n+1", "mated-pair")
DEFAULT_NORMAL_CEILING = 40
DEFAULT_FAILOVER_CEILING = 80
"""Normal and failover CPU ceilings, percent: the common telecom pair (see the module docstring)."""
NO_OF_REPLICAS = 2
"""cnDBTier data nodes per node group (NDB NoOfReplicas, the usual and cnDBTier default setting)."""
ANTI_AFFINITY = ("ndbmtd", "ndbmgmd", "ndbmysqld", "ndbappmysqld")
"""cnDBTier node sets whose replicas never share a worker node."""
ASM_CHOICES = ("keep", "remove", "add")


class FootprintError(ValueError):
    """Bad input to the footprint calculator; the message says what and why."""


UNITS = 10 ** 9
"""Totals are summed exactly in integer units of 1e-9 (core or GiB): every data value has at most 9 decimals."""


def _units(x) -> int:
    """``x`` (cores or GiB, a float printed with at most 9 decimals) in integer units of 1e-9."""
    return round(x * UNITS)


_frac = inputs.exact


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



def _percent(value, name: str, *, lowest=1) -> Fraction | None:
    """A percentage from ``lowest`` to 100, or None when empty; raises FootprintError."""
    if value in (None, ""):
        return None
    p = parse_positive(value, name, "%")
    if p < lowest or p > 100:
        raise FootprintError(f"{name} must be between {lowest:g} and 100 %; got {value}.")
    return p


def _topology(total, sites, sites_provisioned, redundancy, failover, normal_ceiling, failover_ceiling, base_traffic: int,
              base_prov: int) -> tuple:
    """The sites, redundancy, ceilings and load states of a request: ``(sites carrying traffic, sites provisioned,
    redundancy, normal ceiling, failover ceiling, states)``. Sites default to ``base_traffic``; sites provisioned to
    the larger of the sites carrying traffic and ``base_prov``. Raises FootprintError for a bad count or choice."""
    n_traffic = base_traffic if sites in (None, "") else _whole(sites, "Number of sites carrying traffic", "sites", 64)
    n_prov = (max(n_traffic, base_prov) if sites_provisioned in (None, "")
              else _whole(sites_provisioned, "Sites provisioned", "sites", 64))
    if n_prov < n_traffic:
        raise FootprintError(f"Sites provisioned ({n_prov}) cannot be fewer than sites carrying traffic ({n_traffic}).")
    if redundancy in (None, ""):
        redundancy = "n+1" if failover else "none"
    if redundancy not in REDUNDANCY:
        raise FootprintError("Redundancy must be 'none', 'n+1' or 'mated-pair'.")
    c_norm = _percent(normal_ceiling, "Normal CPU ceiling") or Fraction(DEFAULT_NORMAL_CEILING)
    c_fail = _percent(failover_ceiling, "Failover CPU ceiling") or Fraction(DEFAULT_FAILOVER_CEILING)
    if c_norm > c_fail:
        raise FootprintError(f"The normal ceiling ({float(c_norm):g} %) cannot be above the failover ceiling ({float(c_fail):g} %).")
    return n_traffic, n_prov, redundancy, c_norm, c_fail, _load_states(total, n_traffic, n_prov, redundancy, c_norm, c_fail)


def _load_states(total, n_traffic: int, n_prov: int, redundancy: str, c_norm, c_fail) -> list[dict]:
    """Per-site load of a site carrying traffic in the normal state and, with redundancy, the failover state."""
    normal = total / n_traffic
    states = [{"state": "normal", "load": normal, "ceiling": c_norm if redundancy != "none" else None}]
    if redundancy == "none":
        return states
    if n_prov > n_traffic:
        # a site that carries no traffic in the normal state takes the lost site's whole load
        fail, how = normal, "a standby site takes the lost site's load"
    elif n_traffic < 2:
        raise FootprintError("Failover sizing needs at least 2 sites carrying traffic, or more sites provisioned than carrying traffic.")
    elif redundancy == "n+1":
        fail, how = total / (n_traffic - 1), f"one of {n_traffic} sites lost: total / {n_traffic - 1}"
    else:
        fail, how = 2 * normal, "a site carries its mate's traffic too: 2 x its normal share"
    states.append({"state": "failover", "load": fail, "ceiling": c_fail, "how": how})
    return states


def form_flag(v) -> bool:
    """A checkbox or permalink flag as browsers send it and links write it: '1', 'true', 'on', 'yes' (any case) are
    set; empty, None and anything else are not."""
    return str(v or "").lower() in ("1", "true", "on", "yes")


@dataclass(frozen=True)
class Request:
    """What a footprint sizing needs: the one typed request the page (``footprint_report.compute_web``), the command
    line and the report share. Numbers may be text as typed ('80,000'); every field is read and checked by ``size``.

    Either ``scenario`` (one run) or ``call_model`` ('<doc>:<id>', sized from its comparable runs) names the evidence.
    ``target_load``: total over the sites carrying traffic, in the product's unit (TPS/MPS/SPS/RPS), > 0. The other
    fields are ``compute``'s arguments (its docstring says what each means and its default)."""
    target_load: object
    scenario: str | None = None
    call_model: str | None = None
    mode: str | None = None
    target_cpu_percent: object = None
    db_target_percent: object = None
    sidecar_target_percent: object = None
    sites: object = None
    sites_provisioned: object = None
    failover: bool = False
    redundancy: str | None = None
    normal_ceiling: object = None
    failover_ceiling: object = None
    data_size_gib: object = None
    sessions: object = None
    asm: str = "keep"
    asm_from: str | None = None
    sidecar_cpu: object = None
    sidecar_mem: object = None
    node_cores: object = None
    node_mem_gib: object = None
    node_reserve: str = "gke"
    reserve_cpu: object = None
    reserve_mem: object = None
    daemonset_cpu: object = None
    daemonset_mem: object = None
    max_pods: object = None
    spare_nodes: object = None
    min_replicas: object = 1

    @classmethod
    def from_form(cls, params: dict) -> "Request":
        """The request of the page's form strings (``params``: the form's parameter names, as in the permalink:
        'load', 'scenario', 'call_model', 'mode', 'target', 'db_target', 'sidecar_target', 'sites',
        'sites_provisioned', 'failover', 'redundancy', 'normal_ceiling', 'failover_ceiling', 'data_size', 'asm',
        'node_cores', 'node_mem', 'node_reserve', 'reserve_cpu', 'reserve_mem', 'ds_cpu', 'ds_mem', 'max_pods',
        'spare_nodes', 'min_replicas', 'asm_from', 'sidecar_cpu', 'sidecar_mem', 'sessions'); an empty string is
        no value. The command line builds the same dict, so both size through here."""
        g = lambda k: params.get(k) or None
        return cls(target_load=params.get("load"), scenario=g("scenario"), call_model=params.get("call_model") or "",
                   mode=g("mode"), target_cpu_percent=g("target"), db_target_percent=g("db_target"),
                   sidecar_target_percent=g("sidecar_target"), sites=g("sites"), sites_provisioned=g("sites_provisioned"),
                   failover=form_flag(params.get("failover")),
                   redundancy=g("redundancy"), normal_ceiling=g("normal_ceiling"), failover_ceiling=g("failover_ceiling"),
                   data_size_gib=g("data_size"), asm=params.get("asm") or "keep", node_cores=g("node_cores"),
                   node_mem_gib=g("node_mem"), node_reserve=params.get("node_reserve") or "gke",
                   reserve_cpu=g("reserve_cpu"), reserve_mem=g("reserve_mem"), daemonset_cpu=g("ds_cpu"),
                   daemonset_mem=g("ds_mem"), max_pods=g("max_pods"), spare_nodes=g("spare_nodes"),
                   min_replicas=params.get("min_replicas") or 1, asm_from=g("asm_from"), sidecar_cpu=g("sidecar_cpu"),
                   sidecar_mem=g("sidecar_mem"), sessions=g("sessions"))

    def options(self) -> dict:
        """The request's fields besides the evidence (``scenario``, ``call_model``, ``mode``) and the load."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("target_load", "scenario", "call_model", "mode")}


def size(bundle: dict, request: Request) -> dict:
    """The footprint of ``request``: from its comparable runs (``recommend``) when it names a call model and no run,
    else from its one run (``compute``). Raises FootprintError as they do."""
    if request.scenario:
        return compute(bundle, request.scenario, request.target_load, **request.options())
    return recommend(bundle, request.call_model or "", request.target_load, mode=request.mode, **request.options())


def compute(bundle: dict, scenario: str, target_load, *, evidence: dict | None = None, **options) -> dict:
    """Scale the baseline ``scenario`` to ``target_load`` (total over the sites carrying traffic).

    Arguments (numbers may be text as typed, e.g. '80,000'):
        bundle: the calculator bundle (dict) built from data/.
        scenario: scenario id, e.g. 'bsf-3-3'.
        target_load: total load in the scenario's unit (TPS/MPS/SPS/RPS), > 0.
        target_cpu_percent: CPU target of traffic services, 1-100 % of the request; None: the HPA
            target printed with the observation, else the georedundancy ceiling, else proportional.
        db_target_percent: the same for cnDBTier SQL nodes (ndbappmysqld) and other database-role
            services; None: printed HPA target / ceiling / proportional.
        sidecar_target_percent: ceiling for a sidecar's CPU, % of its CPU limit (None: the printed
            HPA target of the sidecar, else 100 %): a warning when the scaled sidecar exceeds it.
        sites: sites carrying traffic (default: the baseline's).
        sites_provisioned: sites deployed (default: the larger of ``sites`` and the baseline's).
        failover: shorthand for ``redundancy='n+1'``.
        redundancy: 'none', 'n+1' or 'mated-pair'.
        normal_ceiling, failover_ceiling: CPU ceilings, % (defaults 40 and 80), with redundancy only.
        data_size_gib: data held per copy (GiB); the only input that may size ndbmtd below the baseline.
        asm, asm_from, sidecar_cpu, sidecar_mem: ASM keep/remove/add and how added sidecars are sized.
        node_cores, node_mem_gib: worker node shape; with both, pods are packed onto nodes
            (``calculators.packing``): node_reserve 'gke' (tiered) or 'custom' (reserve_cpu cores,
            reserve_mem GiB), daemonset_cpu/daemonset_mem per node, max_pods (110), spare_nodes.
        min_replicas: the fewest replicas any scaled service may get (default 1).
        sessions: the number of sessions, bindings or subscriber records your deployment holds (optional); scales the
            memory of the services that hold them, against the count printed for the baseline run.
        evidence: a plan of ``calculators.evidence.plan`` whose anchor is ``scenario``: each pod's cores used at a
            load come from its curve (the comparable runs) instead of the baseline's reading scaled in proportion;
            None sizes from the baseline alone ('one-run'). ``recommend`` builds it from a planner's request.

    Returns a dict: ``inputs``, ``baseline``, ``states`` (per-site load, normal and failover),
    ``per_site_load`` (the larger), ``scale_factor``, ``rows`` (one per service/container: rule,
    rule_detail, binding, notes, replicas before/after, per-pod and total CPU (cores) and memory
    (GiB) requests and limits, source table and row), ``test_rows`` (stubs/simulators, apart),
    ``totals`` (production groups per site before/after and all provisioned sites),
    ``completeness`` (``partial`` and ``missing``), ``ranges`` (services whose replicas are printed as
    a min-max range: service, min, max, the end used ('max'), table_id, row), ``nodes_per_site`` and ``packing``
    (None without a node shape), ``warnings`` and ``method``.

    Raises FootprintError for an unknown scenario, a scenario without resource data or load,
    an unknown ASM or redundancy choice, a pod larger than a node, and any invalid number.
    """
    return _size_run(bundle, scenario, Request(target_load=target_load, scenario=scenario, **options), evidence)


def _size_run(bundle: dict, scenario: str, req: Request, evidence: dict | None) -> dict:
    """``compute``'s work: read and check the request against the run, size every pod, add up, pack and range."""
    target_load, sites, sites_provisioned, redundancy = req.target_load, req.sites, req.sites_provisioned, req.redundancy
    asm, asm_from, sidecar_cpu, sidecar_mem = req.asm, req.asm_from, req.sidecar_cpu, req.sidecar_mem
    node_cores, node_mem_gib = req.node_cores, req.node_mem_gib
    scen = next((s for s in bundle["scenarios"] if s["id"] == scenario), None)
    if scen is None:
        raise FootprintError(f"Unknown scenario {scenario!r}.")
    unit = scen.get("load_unit") or "TPS"
    base_site_load = scen.get("load_per_site")
    if not base_site_load:
        raise FootprintError(f"Scenario {scenario} has no numeric load per site in the source, so it cannot be scaled.")
    idx = runs.index(bundle)
    all_rows = idx["resources"].get(scenario, [])
    if not all_rows:
        raise FootprintError(f"Scenario {scenario} has no resource-allocation data.")
    total = parse_positive(target_load, "Target load", unit)
    traffic_sites = list(scen.get("sites_with_traffic") or [])
    base_traffic = max(1, len(traffic_sites))
    base_prov = max(base_traffic, int(scen.get("sites_provisioned") or 0))
    n_traffic, n_prov, redundancy, c_norm, c_fail, states = _topology(
        total, sites, sites_provisioned, redundancy, req.failover, req.normal_ceiling, req.failover_ceiling, base_traffic, base_prov)
    base = _frac(base_site_load)
    for st in states:
        st["factor"] = st["load"] / base
    sizing = max(states, key=lambda st: st["load"])
    if sizing["factor"] > MAX_SCALE:
        raise FootprintError(f"Target load per site ({float(sizing['load']):,.0f} {unit}) is more than {MAX_SCALE} times the "
                             f"baseline's {float(base):,.0f} {unit}; the benchmark cannot support that extrapolation.")
    target = _percent(req.target_cpu_percent, "Target CPU utilization")
    db_target = _percent(req.db_target_percent, "Database CPU target")
    sc_target = _percent(req.sidecar_target_percent, "Sidecar CPU target")
    data_size = None if req.data_size_gib in (None, "") else parse_positive(req.data_size_gib, "Data size", "GiB per copy")
    if asm not in ASM_CHOICES:
        raise FootprintError("ASM must be 'keep', 'remove' or 'add'.")
    sidecar_size = _sidecar_source(bundle, scen, asm_from, sidecar_cpu, sidecar_mem) if asm == "add" else None
    node = None
    if node_cores not in (None, "") or node_mem_gib not in (None, ""):
        node = (parse_positive(node_cores, "Node CPU", "cores"), parse_positive(node_mem_gib, "Node memory", "GiB"))
    min_rep = _whole(req.min_replicas, "Minimum replicas", "pods", 1000)
    roles = {(s["doc"], s["service"]): s["role"] for s in bundle["services"]}
    rows = runs.baseline_rows(all_rows, traffic_sites)
    # the usable readings at the sites carrying traffic, or printed for no site, each with the printed container it
    # reads (``reads``): runs.readings
    cpu_util = runs.readings(bundle, scenario, "cpu")
    mem_util = runs.readings(bundle, scenario, "memory")

    pods: dict[tuple, list[dict]] = {}
    for r in rows:
        pods.setdefault((r["component"], r["service"]), []).append(r)

    out_rows, test_rows, warnings, ranges = [], [], [], []
    if scen.get("sites_provisioned") in (None, "") and sites_provisioned in (None, ""):
        # BSF 3.3: its title says three sites, its utilization tables report four (data/bsf/scenarios.yaml
        # contradictions): the data leaves the count empty rather than pick one; the result says which count it used
        warnings.append(f"The guide does not state consistently how many sites {scen['id']} provisioned (see its scenario "
                        f"page): sized as {n_prov} provisioned, the sites carrying traffic. Give Sites provisioned for your "
                        "deployment: every georedundant site holds its own cnDBTier.")
    wide = _scenario_cpu(bundle, scen, target)
    if wide and any(roles.get((scen["doc"], svc)) == "traffic" for (_, svc) in pods):
        warnings.append(
            f"Observed CPU for this scenario is one figure for the whole scenario ({wide['observed_percent']:g} %, "
            f"Table {wide['table_id']} row {wide['row']}) against a {float(wide['target']):g} % target "
            f"({wide['target_source']}); the source does not say which pods it covers, so every traffic service is "
            "scaled by the same ratio (scenario-cpu).")
    method = "evidence" if evidence else "one-run"
    ctx = {"states": states, "target": target, "db_target": db_target, "sc_target": sc_target, "cpu_util": cpu_util,
           "mem_util": mem_util, "wide": wide, "data_size": data_size, "n_prov": n_prov, "base_prov": base_prov,
           "warnings": warnings, "curves": (evidence or {}).get("curves") or {}, "unit": unit, "extrapolated": [],
           "printed_targets": (evidence or {}).get("targets") or {},
           "holds": {sv["service"]: sv["holds"] for sv in bundle["services"] if sv["doc"] == scen["doc"] and sv.get("holds")},
           "sessions": None if req.sessions in (None, "") else parse_positive(req.sessions, "Records held", "sessions, bindings or subscribers"),
           "held_count": _held_count(scen),
           "excluded_util": runs.joined(exclusions(bundle, scenario, "utilization")["rows"], rows)}
    for (component, service), containers in pods.items():
        role = roles.get((scen["doc"], service))
        main = runs.main_container(containers)
        base_rep, rng = runs.base_replicas(main, containers)
        floor = max(main.get("replicas_min") or 1, min_rep)
        sz = _size_pod(role, component, service, base_rep, floor, main, containers, ctx)
        if sz["rule"] in ("fixed", "test") and base_rep is None:
            warnings.append(f"{service}: no replica count printed; left out of totals.")
        if rng:
            sz["notes"].insert(0, rng)
            ranges.append({"service": service, "component": component, "min": main.get("replicas_min"),
                           "max": main.get("replicas_max"), "used": "max", "table_id": main["table_id"], "row": main["row"]})
        dest = test_rows if sz["rule"] == "test" else out_rows
        for c in containers:
            if asm == "remove" and c["is_sidecar"]:
                continue
            dest.append(_row(c, role, sz, base_rep))
            if c is not main:
                dest[-1]["demand"] = None  # the demand is the main container's
        if sidecar_size and component in ("app", "cndbtier") and not any(c["is_sidecar"] for c in containers):
            dest.append(_row(_added_sidecar(main, sidecar_size), role, sz, base_rep))
    _apply_bands(out_rows, bundle.get("sizing_bands"), scen["doc"], method)
    for r in test_rows:
        r.pop("_scale", None)
    comp = completeness(bundle, scenario)
    if asm == "remove" and not any(r["is_sidecar"] for r in rows):
        warnings.append("The baseline has no sidecars; 'remove ASM' changes nothing.")
    totals = _totals(out_rows, n_prov, comp["partial"])
    pack = None
    pack_args = (node, req.node_reserve, req.reserve_cpu, req.reserve_mem, req.daemonset_cpu, req.daemonset_mem, req.max_pods, req.spare_nodes) if node else None
    if node:
        pack = _pack(out_rows, *pack_args)
    rng = _range(out_rows, n_prov, comp["partial"], bundle.get("sizing_bands"), scen["doc"], method, pack_args)
    ext = ctx["extrapolated"]
    return {
        "inputs": {"scenario": scenario, "target_load": float(total), "unit": unit,
                   "target_cpu_percent": float(target) if target else None,
                   "db_target_percent": float(db_target) if db_target else None,
                   "sidecar_target_percent": float(sc_target) if sc_target else None,
                   "sites": n_traffic, "sites_provisioned": n_prov, "failover": redundancy != "none", "redundancy": redundancy,
                   "normal_ceiling": float(c_norm) if redundancy != "none" else None,
                   "failover_ceiling": float(c_fail) if redundancy != "none" else None,
                   "data_size_gib": float(data_size) if data_size else None, "asm": asm,
                   "node_cores": float(node[0]) if node else None, "node_mem_gib": float(node[1]) if node else None,
                   "min_replicas": min_rep, "asm_from": sidecar_size["label"] if sidecar_size else None,
                   "sessions": float(ctx["sessions"]) if ctx["sessions"] is not None else None},
        "baseline": {"id": scen["id"], "doc": scen["doc"], "title": scen["title"], "short_title": scen.get("short_title") or scen["title"],
                     "load_per_site": float(base), "load_total": scen.get("load_total"), "unit": unit,
                     "sites_with_traffic": traffic_sites, "sites_provisioned": base_prov, "asm": scen.get("asm")},
        "states": [{"state": s["state"], "load": float(s["load"]), "factor": float(s["factor"]),
                    "ceiling": float(s["ceiling"]) if s.get("ceiling") else None, "how": s.get("how", "")} for s in states],
        "per_site_load": float(sizing["load"]),
        "scale_factor": float(sizing["factor"]),
        "rows": out_rows,
        "test_rows": test_rows,
        "totals": totals,
        "completeness": comp,
        "ranges": ranges,
        "partial": comp["partial"],
        "nodes_per_site": pack["nodes"] if pack else None,
        "packing": pack,
        "warnings": warnings,
        "method": METHOD,
        "sizing": {"method": method, "label": METHODS[method], "extrapolation": _extrapolation(ext, sizing, unit, evidence)},
        "range": rng,
    }


def _extrapolation(ext: list[tuple], sizing: dict, unit: str, evidence: dict | None) -> dict | None:
    """How far the result reaches beyond what was measured: with evidence, the largest factor by which a pod's curve was
    scaled above the largest load its runs measured and below the smallest (``Curve.at``), with the pods and load
    states; from one run, the load ratio itself when it is not 1. ``{"factor" (the farthest), "up", "down", "services",
    "power" (evidence only: the curves' power beyond the measured range, ``evidence.extrapolation_power``), "text"}`` or
    None when the result stays within what was measured."""
    if evidence is None:
        f = float(sizing["factor"])
        if f == 1:
            return None
        return {"factor": f, "up": f if f > 1 else None, "down": f if f < 1 else None, "services": [],
                "text": f"{f:.3g} x the run's load per site: every CPU-sized pod is scaled from one run"}
    if not ext:
        return None
    up = [x for x in ext if x[1] > 1]
    down = [x for x in ext if x[1] < 1]
    parts = []
    for side, xs, pick, word in (("up", up, max, "largest"), ("down", down, min, "smallest")):
        if xs:
            f = pick(x[1] for x in xs)
            pods = sorted({x[0] for x in xs})
            states = sorted({x[3] for x in xs})
            parts.append(f"{f:.3g} x the {word} load measured ({', '.join(states)} state; {len(pods)} pod(s): "
                         f"{', '.join(pods[:5])}{', ...' if len(pods) > 5 else ''})")
    far = max(ext, key=lambda x: abs(math.log(x[1])))[1]
    power = float(evidence.get("power", 1))
    sides = [f for f in (max((x[1] for x in up), default=None), min((x[1] for x in down), default=None)) if f]
    how = "in proportion to load" if power == 1 else (
        f"by (load / its load)^{power:g}, the power that predicted this product's own runs best held out (How "
        f"accurate is this?): " + "; ".join(
            f"at {f:.3g} x the load, {f ** power:.3g} x the cores (proportional: {f:.3g} x"
            + (", more)" if f > 1 else ", fewer)") for f in sides))
    return {"factor": far, "up": max((x[1] for x in up), default=None), "down": min((x[1] for x in down), default=None),
            "services": sorted({x[0] for x in ext}), "power": power,
            "text": "; ".join(parts) + f": beyond the comparable runs each of these is scaled from the nearest run {how}"}


def _k(load) -> str:
    """A load per site for a sentence: '25K' for 25,000, '7.5K', else the number."""
    x = float(load)
    return f"{x / 1000:g}K" if x >= 1000 and x % 100 == 0 else f"{x:,.6g}"


def result_name(res: dict) -> str:
    """The file name (no extension) of a result's downloads and report: ``footprint-<run id>`` when sized from one
    run, ``footprint-<doc>-<call model>`` when sized from the comparable runs."""
    ev = res.get("evidence")
    return f"footprint-{ev['doc']}-{ev['call_model']}" if ev else f"footprint-{res['baseline']['id']}"


ASM_WANT = {"keep": None, "remove": False, "add": True}
"""The ASM choice read as a request for comparable runs: 'keep' (no preference), 'remove' (ASM off), 'add' (ASM on)."""


def _asm_action(want: bool | None, scen: dict) -> str:
    """How a run's sidecars meet the planner's ASM request: kept, removed (ASM off asked, run has it) or added."""
    if want is None or want == asm_on(scen):
        return "keep"
    return "add" if want else "remove"


def recommend(bundle: dict, call_model: str, target_load, *, mode=None, asm: str = "keep", sites=None, sites_provisioned=None,
              redundancy=None, failover: bool = False, normal_ceiling=None, failover_ceiling=None, spread: bool = True,
              **kw) -> dict:
    """Size a planner's request from every comparable run (``calculators.evidence``): the default of the page and the
    command line.

    ``call_model``: '<doc>:<call model id>' (e.g. 'policy:pcf-sm'; ``evidence.call_models`` lists them); ``mode``: a
    deployment mode as the guide prints it (None: any); ``asm``: 'keep' (no preference), 'remove' (ASM off) or 'add'
    (ASM on): runs with the asked ASM rank first, and the anchor's sidecars are removed or added to match; ``sites``
    (default 1) and ``sites_provisioned`` (default: the sites carrying traffic) are the planner's own, not a run's;
    the other keywords are ``compute``'s (targets, ceilings, data size, node shape...).

    Returns ``compute``'s result for the anchor run with the evidence's curves, plus ``evidence``: ``{"call_model",
    "call_model_name", "mode", "asm", "anchor", "candidates": evidence.candidates, "spread": [the same request sized
    from each comparable run alone: {"id", "short_title", "load_per_site", "ratio", "asm", "cpu_request_site",
    "mem_request_site", "nodes_per_site", "partial", "proportional", "error"}]}``. Raises FootprintError for an
    unknown product or call model, a call model without runs, and every input ``compute`` refuses."""
    doc, _, cm = str(call_model or "").partition(":")
    source = next((x for x in bundle["sources"] if x["id"] == doc), None)
    if source is None or not cm:
        known = ", ".join(f"{m['doc']}:{m['id']}" for m in evidence_mod.call_models(bundle))
        raise FootprintError(f"Call model must be one of {known}; got {call_model!r}.")
    if asm not in ASM_WANT:
        raise FootprintError("ASM must be 'keep', 'remove' or 'add'.")
    want = ASM_WANT[asm]
    unit = source.get("load_unit") or "TPS"
    total = parse_positive(target_load, "Target load", unit)
    n_traffic, n_prov, redundancy, _, _, states = _topology(total, sites, sites_provisioned, redundancy, failover,
                                                            normal_ceiling, failover_ceiling, 1, 1)
    try:
        plan = evidence_mod.plan(bundle, doc, cm, mode or None, want, max(st["load"] for st in states))
    except evidence_mod.EvidenceError as e:
        raise FootprintError(str(e)) from None
    common = dict(kw, sites=n_traffic, sites_provisioned=n_prov, redundancy=redundancy, normal_ceiling=normal_ceiling,
                  failover_ceiling=failover_ceiling)
    anchor = runs.scenario(bundle, plan["anchor"])
    res = compute(bundle, plan["anchor"], total, asm=_asm_action(want, anchor), evidence=plan, **common)
    rows = []
    for c in plan["candidates"]:
        if not c["comparable"] or not spread:
            continue
        row = {"id": c["id"], "short_title": c["short_title"], "load_per_site": c["load_per_site"], "ratio": c["ratio"],
               "asm": c["asm"], "tier": c["tier"], "error": None}
        try:
            one = compute(bundle, c["id"], total, asm=_asm_action(want, runs.scenario(bundle, c["id"])), **common)
        except FootprintError as e:
            row["error"] = str(e)
        else:
            row.update(cpu_request_site=one["totals"]["site"]["after"]["cpu_request"],
                       mem_request_site=one["totals"]["site"]["after"]["mem_request"], nodes_per_site=one["nodes_per_site"],
                       partial=one["partial"], proportional=sorted({r["service"] for r in one["rows"] if r["rule"] == "proportional"}))
        rows.append(row)
    cm_name = next((m["name"] for m in evidence_mod.call_models(bundle) if m["doc"] == doc and m["id"] == cm), cm)
    res["inputs"].update(call_model=f"{doc}:{cm}", mode=mode or None, sized_from="comparable runs")
    res["evidence"] = {"call_model": cm, "call_model_name": cm_name, "doc": doc, "product": source.get("short_name") or doc,
                       "mode": mode or None, "asm": want,
                       "anchor": plan["anchor"], "candidates": plan["candidates"], "spread": rows,
                       "runs_used": sorted({sid for curve in plan["curves"].values() for sid in curve.ids()})}
    return res


METHOD = (
    "Traffic services: replicas from CPU and memory (cpu+memory): cores used x load ratio / (CPU request x target), "
    "and memory used (observed, else the request) x load ratio / memory request; the larger binds, and a target never "
    "goes below the replicas the benchmark ran, scaled down with the load below its load (it ran with headroom). No observation or no target: replicas x load ratio "
    "(proportional). cnDBTier: data nodes (ndbmtd) by the data they hold: every site keeps a full copy, so the baseline's "
    "count in whole node groups of 2, unless you give a data size; ndbmgmd and ndbmysqld fixed per site; ndbappmysqld "
    "scales like a traffic service with the database target. Management services fixed; stubs and simulators shown apart, "
    "out of totals and node counts. With georedundancy each site is sized for its normal load at the normal ceiling and "
    "its failover load at the failover ceiling (each caps the target). Replicas round up to whole pods, never below the "
    "minimum printed in the source or yours. Sidecars follow their pod; per-pod requests and limits are unchanged."
)


def _state_target(t, st):
    """The target for a load state: min(target, the state's ceiling); the ceiling alone when no target."""
    cap = st.get("ceiling")
    if t is None:
        return cap
    return min(t, cap) if cap else t


def _size_pod(role, component, service, base_rep, floor, main, containers, ctx) -> dict:
    """Replicas after scaling for one pod (service): rule, detail, binding, notes."""
    states = ctx["states"]
    fmax = max(st["factor"] for st in states)
    out = {"rule": "fixed", "detail": "", "binding": "", "notes": [], "replicas": base_rep, "demand": None}
    if component in TEST_COMPONENTS or role == "test":
        out.update(rule="test", detail="test stub or simulator: shown apart, not in production totals or node counts")
        return out
    if base_rep is None:
        out["detail"] = "no replica count printed"
        return out
    if base_rep == 0:
        out["detail"] = "0 replicas in the baseline (service disabled)"
        out["replicas"] = 0
        return out
    if component == "cndbtier" and service == "ndbmtd":
        return _size_data_nodes(base_rep, main, ctx, out)
    if component == "cndbtier" and service in ("ndbmgmd", "ndbmysqld"):
        out["rule"] = "fixed-per-site"
        if service == "ndbmgmd":
            out["detail"] = "cnDBTier management nodes: a fixed set per site for availability, not load"
        else:
            out["detail"] = ("cnDBTier replication SQL nodes: one set per georeplication channel, so they follow the "
                             "site topology, not load")
            if ctx["n_prov"] != ctx["base_prov"]:
                out["notes"].append(f"uncertain: the baseline had {ctx['base_prov']} site(s), you have {ctx['n_prov']}; "
                                    "replication channels follow the number of remote sites, and the guide gives no rule "
                                    "per channel, so the baseline's count is kept")
        return out
    if role not in ("traffic", "database"):
        why = {"management": "management service: fixed", None: "role not known: fixed"}.get(role, f"{role}: fixed")
        out["detail"] = why
        return out
    t_user = ctx["db_target"] if role == "database" else ctx["target"]
    obs = [u for u in ctx["cpu_util"] if u["service"] == service and u["reads"] == main["container"]]
    request = main.get("cpu_request_cores")
    curve = ctx["curves"].get((component, service))
    printed = next((u["target_percent"] for u in obs if u.get("target_percent")), None)
    if printed is None and curve is not None:
        printed = ctx["printed_targets"].get((component, service))
    t = t_user if t_user is not None else (_frac(printed) if printed else None)
    t_src = ("your database target" if role == "database" else "your target") if t_user is not None else (
        "printed HPA target" if printed else "ceiling")
    used = runs.amount_used(obs, base_rep, request, main.get("cpu_limit_cores"), "cores") if request else None
    wide = ctx["wide"]
    if (used or (curve and request)) and (t is not None or all(st.get("ceiling") for st in states)):
        cpu_need, parts, targets, cpu_at, demand_parts = 0, [], {}, {}, []
        if curve is not None:
            lead = "cores used at each load from the comparable runs"
        else:
            u_cpu, u_row = used
            lead = (f"{float(u_cpu):.4g} cores used (Table {u_row.get('table_id', '?')} row {u_row.get('row', '?')}"
                    + (f", {u_row['site']})" if u_row["site"] else ")"))
        for st in states:
            ts = _state_target(t, st)
            if curve is not None:
                u_st, how = curve.at(st["load"])
                if how["kind"] == "scaled":
                    ctx["extrapolated"].append((service, how["factor"], how["runs"], st["state"]))
                ref = f"{how['text']} at {_k(st['load'])}"
            else:
                u_st = u_cpu * st["factor"]
                ref = f"{float(u_cpu):.4g} x {float(st['factor']):.4g}"
            n = math.ceil(u_st / (_frac(request) * ts / 100))
            targets[st["state"]] = float(ts)
            cpu_at[st["state"]] = float(u_st)
            demand_parts.append((u_st, _frac(request), ts))
            cpu_need = max(cpu_need, n)
            parts.append(f"{st['state']}: {ref} / ({float(request):g} x {float(ts):g} %) -> {n}")
        mem_need, mem_how, mem_used = _memory_need(base_rep, main, ctx, service)
        computed = max(cpu_need, mem_need)
        binding = "cpu" if cpu_need >= mem_need else "memory"
        out["demand"] = {"cpu_used": float(used[0]) if used else None, "mem_used": None if mem_used is None else float(mem_used),
                         "targets": targets, "cpu_at": cpu_at}
        out.update(rule="cpu+memory", detail=f"{lead} at {t_src}; " + "; ".join(parts) + f"; memory: {mem_how}")
        new = max(computed, floor)
        bench = _benchmark_floor(base_rep, fmax)
        if computed < bench:
            out["notes"].append(_headroom_note(computed, bench, base_rep, fmax))
            new = max(new, bench)
            binding = "benchmark replicas"
        elif new > computed:
            binding = "minimum replicas"
        out.update(replicas=new, binding=binding)
        out["_scale"] = {"cpu": demand_parts, "base": None, "fixed": max(mem_need, floor, bench)}
        _check_sidecars(containers, service, base_rep, new, ctx, out)
        return out
    if wide and role == "traffic" and not obs:
        ratio = _frac(wide["observed_percent"]) / wide["target"]
        cpu_need = math.ceil(base_rep * fmax * ratio)
        mem_need, mem_how, _ = _memory_need(base_rep, main, ctx, service)
        computed = max(cpu_need, mem_need)
        bench = _benchmark_floor(base_rep, fmax)
        new = max(computed, floor, bench)
        out.update(rule="scenario-cpu", replicas=new, binding="cpu" if cpu_need >= mem_need else "memory",
                   detail=(f"{base_rep} x {float(fmax):.4g} x {wide['observed_percent']:g}/{float(wide['target']):g} "
                           f"(scenario-wide CPU, Table {wide['table_id']}) -> {cpu_need}; memory: {mem_how}"))
        if computed < bench:
            out["notes"].append(_headroom_note(computed, bench, base_rep, fmax))
            out["binding"] = "benchmark replicas"
        out["_scale"] = {"cpu": [], "base": base_rep * fmax * ratio, "fixed": max(mem_need, floor, bench)}
        return out
    new = max(math.ceil(base_rep * fmax), floor)
    why = _no_reading_why(ctx, service, main) if not used else "no CPU target (none given, none printed)"
    out.update(rule="proportional", replicas=new, binding="load ratio",
               detail=f"{base_rep} x {float(fmax):.4g} (load ratio; {why})")
    if service in ctx["holds"] and (fmax < 1 or ctx["sessions"] is not None):
        mem_need, mem_how, _ = _memory_need(base_rep, main, ctx, service)
        out["detail"] += f"; memory: {mem_how}"
        if mem_need > new:
            new = mem_need
            out.update(replicas=new, binding="memory")
        floor = max(floor, mem_need)
    if role == "database" and component == "cndbtier":
        out["notes"].append("uncertain: SQL nodes scaled with load in proportion; the benchmark does not show how they scale")
    out["_scale"] = {"cpu": [], "base": base_rep * fmax, "fixed": floor}
    _check_sidecars(containers, service, base_rep, new, ctx, out)
    return out


def _held_count(scen: dict) -> dict | None:
    """The count of records the run held, as printed for the whole run (``state_counts``: no site, usable status);
    with several (subscribers and sessions), the sessions or bindings. None when the guide prints none."""
    counts = [c for c in scen.get("state_counts") or [] if not c.get("site") and c.get("status", "ok") in ("ok", "corrected")]
    return next((c for c in counts if "session" in c["what"] or "binding" in c["what"]), counts[0] if counts else None)


def _no_reading_why(ctx, service, main) -> str:
    """Why a pod has no CPU reading to size from: none printed, or printed but excluded (the erratum named)."""
    left = [x for x in ctx["excluded_util"] if x["service"] == service and x["reads"] == main["container"]
            and x["metric"] == "cpu"]
    if not left:
        return "no observed CPU for this pod"
    x = left[0]
    errata = ", ".join(x.get("errata") or []) or x["status"]
    return f"its observed CPU (Table {x['table_id']} row {x['row']}) is not used: {errata}"


def replicas_at(scale: dict | None, m) -> int | None:
    """Replicas a CPU-sized pod needs when its cores used are ``m`` times what the result assumed (``m``: a band
    ratio, printed / predicted): the same rule as the result (every load state at its target, memory, the minimum
    and the benchmark's own replicas as floors), so ``m = 1`` gives the result's replicas. None for a pod whose
    replicas do not follow CPU (``scale`` None)."""
    if scale is None:
        return None
    m = Fraction(m).limit_denominator(10**6) if not isinstance(m, Fraction) else m
    need = scale["fixed"]
    for u, req, ts in scale["cpu"]:
        need = max(need, math.ceil(u * m / (req * ts / 100)))
    if scale["base"] is not None:
        need = max(need, math.ceil(scale["base"] * m))
    return need


METHODS = {"evidence": "the comparable runs (interpolated between the runs that bracket the load, the nearest run "
                        "scaled beyond them)", "one-run": "one run, scaled in proportion to load"}
"""The two ways a footprint is sized, by the key the backtest calibrates each one's band under
(``calculators.backtest``, bundle key ``sizing_bands``)."""


def _band(bands: dict | None, doc: str, method: str, level: str) -> dict:
    """The held-out band of ``doc``'s ``method`` at ``level`` ('whole' footprint or 'service'): ``{"lo", "hi",
    "comparisons", "coverage", ...}`` or ``{"none": why}`` (bundle key ``sizing_bands``, built by the backtest)."""
    b = (((bands or {}).get(doc) or {}).get(method) or {}).get(level)
    if not b:
        return {"none": f"no held-out backtest of this method for {doc}: see How accurate is this?"}
    return b


def _apply_bands(rows: list[dict], bands: dict | None, doc: str, method: str) -> None:
    """Give each row whose replicas follow CPU its range (``row["range"]``): the replicas it would need if its cores
    used came out at the low and at the high end of the held-out band of per-service errors (``replicas_at``;
    ``{"none": why}`` without a band), and keep the replicas at the ends of the whole-footprint band for the totals
    (``row["_whole"]``). Rows that do not follow CPU (fixed, data nodes, stubs) get no range: their count does not
    depend on the cores predicted."""
    svc, whole = _band(bands, doc, method, "service"), _band(bands, doc, method, "whole")
    for r in rows:
        sc = r.pop("_scale", None)
        r["range"], r["_whole"] = None, None
        if sc is None or r["replicas_after"] is None:
            continue
        if "lo" in svc:
            r["range"] = {"low": replicas_at(sc, svc["lo"]), "high": replicas_at(sc, svc["hi"]), "lo": svc["lo"], "hi": svc["hi"],
                          "comparisons": svc["comparisons"], "coverage": svc.get("coverage")}
        else:
            r["range"] = {"none": svc["none"]}
        if "lo" in whole:
            r["_whole"] = (replicas_at(sc, whole["lo"]), replicas_at(sc, whole["hi"]))


def _at_replicas(r: dict, n) -> dict:
    """Row ``r`` with ``n`` replicas after (totals of requests and limits recomputed), for the range's totals."""
    def tot(v):
        return None if v is None or n is None else _units(v) * n / UNITS
    return dict(r, replicas_after=n, cpu_request_after=tot(r["cpu_request"]), cpu_limit_after=tot(r["cpu_limit"]),
                mem_request_after=tot(r["mem_request"]), mem_limit_after=tot(r["mem_limit"]))


def _range(rows: list[dict], n_prov: int, partial: bool, bands: dict | None, doc: str, method: str, pack_args) -> dict:
    """The whole-footprint range of a result: totals per site and for every site, and nodes per site, at the low and
    the high end of the held-out band (each CPU-sized row at ``row["_whole"]``). ``{"none": why}`` without a band."""
    whole = _band(bands, doc, method, "whole")
    if "lo" not in whole:
        for r in rows:
            r.pop("_whole", None)
        return {"none": whole["none"], "method": method}
    out = {"method": method, "band": whole}
    for end, i in (("low", 0), ("high", 1)):
        at = [_at_replicas(r, r["_whole"][i]) if r.get("_whole") else r for r in rows]
        t = _totals(at, n_prov, partial)
        out[end] = {"site": t["site"]["after"], "deployment": t["deployment"],
                    "nodes": _pack(at, *pack_args)["nodes"] if pack_args else None}
    for r in rows:
        r.pop("_whole", None)
    return out


def _benchmark_floor(base_rep: int, factor) -> int:
    """The fewest replicas a target may leave a service with: the benchmark's own count at or above
    its load, and that count scaled down with the load below it (ceil(replicas x load ratio)), so a
    pod never carries more load than the benchmark measured per pod unless the benchmark itself ran
    at that load. Monotone in the load: totals never fall as the load grows."""
    return base_rep if factor >= 1 else math.ceil(base_rep * factor)


def _headroom_note(computed: int, bench: int, base_rep: int, factor) -> str:
    """The row note saying a target would go below what the benchmark ran."""
    scaled = "" if factor >= 1 else f" scaled to the load (x{float(factor):.3g})"
    return (f"the benchmark ran with headroom: the target gives {computed} replicas, kept at {bench}, the "
            f"{base_rep} the benchmark ran{scaled} (conservative; fewer pods per unit of load were never measured)")


def _memory_need(base_rep, main, ctx, service) -> tuple[int, str, Fraction | None]:
    """Replicas the pod's memory needs at every load state (observed memory, else the full request):
    (replicas, how, GiB used at the baseline). A percentage whose basis the source does not state is
    read as a percentage of the request, as for CPU. Memory grows with the load ratio (conservative), except for a
    service that holds sessions, bindings or subscriber records (``_held_state_factor``)."""
    req = main.get("mem_request_gib") or main.get("mem_gib")
    if not req:
        return 0, "no memory request printed", None
    obs = [u for u in ctx["mem_util"] if u["service"] == service and u["reads"] == main["container"]]
    used = runs.amount_used(obs, base_rep, req, main.get("mem_limit_gib"), "GiB")
    if used:
        m, u = used
        how = f"{float(m):.4g} GiB observed (Table {u.get('table_id', '?')} row {u.get('row', '?')})"
    else:
        m, how = base_rep * _frac(req), "no observation, the full request assumed"
    fmax = max(st["factor"] for st in ctx["states"])
    f, why = _held_state_factor(service, fmax, ctx)
    n = math.ceil(m * f / _frac(req))
    return n, f"{how} x {float(f):.4g} / {float(req):g} GiB -> {n} ({why})", m


def _held_state_factor(service: str, fmax, ctx) -> tuple[Fraction, str]:
    """The factor a pod's memory is scaled by, and why. By default the load ratio (assumed to grow with load:
    conservative). A service that holds sessions, bindings or subscriber records (services.yaml ``holds``, from the
    guide's tables naming its database schema) is never scaled below the memory the benchmark used when the load
    falls, since fewer requests do not mean fewer records held; with your count of the records held (``sessions``) and
    one printed for the baseline run (scenarios.yaml ``subscribers.counts``), by their ratio instead, at any load."""
    holds = ctx["holds"].get(service)
    if not holds:
        return fmax, "assumed to grow with load: conservative"
    count = ctx["held_count"]
    if ctx["sessions"] is not None and count is not None:
        f = ctx["sessions"] / _frac(count["value"])
        return f, (f"it holds {holds}: scaled by the records held, your {float(ctx['sessions']):,.0f} / the benchmark's "
                   f"{count['value']:,} {count['what']}{' (approximate)' if count.get('approx') else ''}, not by the load")
    if ctx["sessions"] is not None:
        ctx["warnings"].append(f"{service} holds {holds}, but the baseline run prints no count of the records it held: "
                               "its memory is sized by the load instead of your count.")
    if fmax < 1:
        return Fraction(1), (f"it holds {holds}: not scaled below the memory the benchmark used as the load falls; give the "
                             "number of records held to size it")
    return fmax, f"it holds {holds}: grows with the load (conservative)"


def _size_data_nodes(base_rep, main, ctx, out) -> dict:
    """ndbmtd: by the data held, in whole node groups; never below the baseline without a data size."""
    req = main.get("mem_request_gib") or main.get("mem_gib")
    obs = [u for u in ctx["mem_util"] if u["service"] == "ndbmtd" and u["reads"] == main["container"]]
    fill = max((_frac(u["observed_percent"]) for u in obs if u.get("observed_percent") is not None), default=None)
    where = next((u for u in obs if u.get("observed_percent") is not None and _frac(u["observed_percent"]) == fill), None)
    seen = (f"memory {float(fill):g} % observed ({where['site'] + ', ' if where['site'] else ''}Table {where.get('table_id', '?')} "
            f"row {where.get('row', '?')})"
            if fill is not None else "no memory observation in the source")
    groups = math.ceil(base_rep / NO_OF_REPLICAS)
    base_even = groups * NO_OF_REPLICAS
    out.update(rule="data-held", binding="data held")
    if ctx["data_size"] is not None and req:
        f = fill / 100 if fill else Fraction(1)
        need_groups = math.ceil(ctx["data_size"] / (_frac(req) * f))
        n = max(need_groups, 1) * NO_OF_REPLICAS
        out["replicas"] = n
        out["detail"] = (f"data nodes hold the data in memory, NoOfReplicas = {NO_OF_REPLICAS}: {float(ctx['data_size']):g} GiB "
                         f"per copy / ({float(req):g} GiB x {float(f * 100):g} % fill) -> {need_groups} node group(s) x "
                         f"{NO_OF_REPLICAS}; {seen}; every site holds a full copy")
        out["notes"].append("uncertain: memory used includes more than table data (indexes, buffers); the fill the benchmark "
                            "ran at is taken as the ceiling" + ("" if fill else "; with no observation, 100 % of the request"))
        if n < base_rep:
            out["notes"].append(f"your data size gives fewer data nodes than the benchmark's {base_rep}")
        return out
    out["replicas"] = base_even
    out["detail"] = (f"data nodes are sized by the data they hold, not by CPU ({seen}); every site holds a full copy, so "
                     f"a site keeps the baseline's {base_rep}" + (f", rounded up to whole node groups of {NO_OF_REPLICAS}: "
                                                                 f"{base_even}" if base_even != base_rep else
                                                                 f" ({groups} node groups of {NO_OF_REPLICAS})")
                     + "; give a data size to size them from your data")
    if fill is None:
        out["notes"].append("uncertain: the source prints no memory use for the data nodes")
    return out


def _check_sidecars(containers, service, base_rep, new_rep, ctx, out) -> None:
    """Warn when a sidecar's CPU at the new load (observed cores scaled with the pod's traffic) exceeds its ceiling."""
    for c in containers:
        if not c["is_sidecar"]:
            continue
        lim = c.get("cpu_limit_cores") or c.get("cpu_cores")
        obs = [u for u in ctx["cpu_util"] if u["service"] == service and u["reads"] == c["container"]]
        used = runs.amount_used(obs, base_rep, c.get("cpu_request_cores") or c.get("cpu_cores"), lim, "cores")
        if not used or not lim or not new_rep:
            continue
        printed = next((u["target_percent"] for u in obs if u.get("target_percent")), None)
        t = ctx["sc_target"] if ctx["sc_target"] is not None else (_frac(printed) if printed else Fraction(100))
        fmax = max(st["factor"] for st in ctx["states"])
        per_pod = used[0] * fmax / new_rep
        cap = _frac(lim) * t / 100
        if per_pod > cap:
            msg = (f"{service}: sidecar {c['container']} would use {float(per_pod):.3g} cores per pod at this load "
                   f"(observed {float(used[0]):.3g} cores over {base_rep} pods, x {float(fmax):.4g}, over {new_rep} pods), "
                   f"above {float(t):g} % of its {float(lim):g}-core limit: raise the sidecar's CPU or the replicas")
            out["notes"].append(msg)
            ctx["warnings"].append(msg)


def _pack(rows, node, reserve, reserve_cpu, reserve_mem, ds_cpu, ds_mem, max_pods, spare) -> dict:
    """Pack one site's production pods (every container of a service summed per pod) onto nodes."""
    pods: dict[tuple, dict] = {}
    for r in rows:
        n = r["replicas_after"]
        if not n:
            continue
        p = pods.setdefault((r["component"], r["service"]), {"name": r["service"], "cpu": Fraction(0), "mem": Fraction(0),
                                                              "count": n, "anti": r["component"] == "cndbtier" and r["service"] in ANTI_AFFINITY})
        p["cpu"] += _frac(r["cpu_request"] or 0)
        p["mem"] += _frac(r["mem_request"] or 0)
    if reserve not in ("gke", "custom"):
        raise FootprintError("Node reservation must be 'gke' or 'custom'.")
    kw = {}
    if reserve == "custom":
        kw = {"reserve_cpu": inputs.positive(reserve_cpu or 0, "Reserved CPU", "cores", FootprintError, allow_zero=True),
              "reserve_mem_gib": inputs.positive(reserve_mem or 0, "Reserved memory", "GiB", FootprintError, allow_zero=True)}
    dc = inputs.positive(ds_cpu or 0, "DaemonSet CPU", "cores per node", FootprintError, allow_zero=True)
    dm = inputs.positive(ds_mem or 0, "DaemonSet memory", "GiB per node", FootprintError, allow_zero=True)
    mp = packing.DEFAULT_MAX_PODS if max_pods in (None, "") else _whole(max_pods, "Max pods per node", "pods", 1000)
    sp = inputs.spare_count(spare, "Spare nodes", 100, FootprintError)
    try:
        res = packing.pack([dict(p, cpu=float(p["cpu"]), mem=float(p["mem"])) for p in pods.values()], node[0], node[1],
                           reserve=reserve, daemonset_cpu=dc, daemonset_mem_gib=dm, max_pods=mp, spare=sp, **kw)
    except packing.PackingError as e:
        raise FootprintError(str(e)) from None
    res.update(reserve=reserve, daemonset_cpu=float(dc), daemonset_mem=float(dm), max_pods=mp)
    return res


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
    return [s for s in bundle["scenarios"] if s["doc"] == doc and asm_on(s) and s["id"] in have]


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



def _row(c, role, sz, base_rep):
    cpu_req = _num(c, "cpu_request_cores", "cpu_cores")
    cpu_lim = _num(c, "cpu_limit_cores", "cpu_cores")
    mem_req = _num(c, "mem_request_gib", "mem_gib")
    mem_lim = _num(c, "mem_limit_gib", "mem_gib")
    new_rep = sz["replicas"]
    rep_b = 0 if c.get("added") else c.get("replicas") if c.get("replicas") is not None else base_rep
    rep_a = new_rep if rep_b is not None else None
    if c.get("added") and base_rep is None:
        rep_a = None

    def tot(v, n):
        return None if v is None or n is None else _units(v) * n / UNITS

    return {
        "component": c["component"], "service": c["service"], "container": c["container"], "is_sidecar": c["is_sidecar"],
        "group": _group(c, sz["rule"]), "role": role or "unknown", "rule": sz["rule"], "rule_detail": sz["detail"],
        "binding": sz["binding"], "notes": list(sz["notes"]), "demand": None if c["is_sidecar"] else sz.get("demand"),
        "replicas_before": rep_b, "replicas_after": rep_a,
        "cpu_request": cpu_req, "cpu_limit": cpu_lim, "mem_request": mem_req, "mem_limit": mem_lim,
        "cpu_request_before": tot(cpu_req, rep_b), "cpu_request_after": tot(cpu_req, rep_a),
        "cpu_limit_before": tot(cpu_lim, rep_b), "cpu_limit_after": tot(cpu_lim, rep_a),
        "mem_request_before": tot(mem_req, rep_b), "mem_request_after": tot(mem_req, rep_a),
        "mem_limit_before": tot(mem_lim, rep_b), "mem_limit_after": tot(mem_lim, rep_a),
        "basis": "request/limit" if c.get("cpu_request_cores") is not None else "single value (request/limit not stated)",
        "table_id": c["table_id"], "source_row": c["row"], "row_label": c["row_label"],
        "source_scenario": c.get("source_scenario") or c.get("scenario"), "added": bool(c.get("added")),
        "_scale": sz.get("_scale"),
    }


def _group(c, rule="") -> str:
    if rule == "test":
        return TEST_GROUP
    if c["is_sidecar"]:
        return "sidecars"
    return {"app": "application", "cndbtier": "cnDBTier"}.get(c["component"], "other")


def _totals(rows: list[dict], n_sites: int, partial: bool = False) -> dict:
    """Per-group and per-site totals of production rows (before = the baseline site, after = one
    target site) and for all ``n_sites`` provisioned sites; ``at_least`` when the result is partial."""
    keys = ("cpu_request", "cpu_limit", "mem_request", "mem_limit")
    groups = {g: {"before": dict.fromkeys(keys, 0.0), "after": dict.fromkeys(keys, 0.0), "replicas_before": 0, "replicas_after": 0}
              for g in GROUPS}
    # exact decimal sums in integer units of 1e-9 (every data value has at most 9 decimals), converted once
    acc = {(g, when, k): 0 for g in GROUPS for when in ("before", "after") for k in keys}
    for r in rows:
        grp = r["group"]
        g = groups[grp]
        for k in keys:
            for when in ("before", "after"):
                v = r.get(f"{k}_{when}")
                if v is not None:
                    acc[grp, when, k] += _units(v)
        if not r["is_sidecar"]:
            g["replicas_before"] += r["replicas_before"] or 0
            g["replicas_after"] += r["replicas_after"] or 0
    for (grp, when, k), v in acc.items():
        groups[grp][when][k] = v / UNITS
    site_u = {when: {k: sum(acc[g, when, k] for g in GROUPS) for k in keys} for when in ("before", "after")}
    site = {when: {k: v / UNITS for k, v in d.items()} for when, d in site_u.items()}
    deployment = {k: site_u["after"][k] * n_sites / UNITS for k in keys}
    return {"groups": groups, "site": site, "deployment": deployment, "sites": n_sites, "at_least": bool(partial)}
