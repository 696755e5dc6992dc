"""The Istio sidecars' (``istio-proxy``) requested CPU and memory in a benchmark scenario, per service and in total:
the one count behind every sidecar figure of the site (standard library only: it runs in Pyodide too).

Callers: the ASM overhead calculator (``calculators.asm.overhead``: its overview table, per-service table, CSVs
and report), the product tables' "CPU request, sidecars (cores)" column (``atlas.pages.products``). The footprint
calculator's baseline sidecar group reads the same rows by the same rules (``calculators.runs``), so the three
agree; tests/test_sidecars.py holds them to one hand-computed figure.

What is counted, for one site carrying traffic (``runs.pods``: the rows printed for no site or for the first site
carrying traffic; a container printed or usable only at another site counts that site's row; a table that prints
no site is one site's allocation, as in the footprint calculator):

* per row: replicas x per-container request, CPU in cores and memory in GiB (the single printed value where the
  table does not say request or limit);
* replicas: the row's own printed count, else its pod's (``runs.base_replicas``): a count printed only as a
  min-max range counts at its **max end** (the most pods the benchmark's autoscaler could run at its load,
  conservative, as the footprint sizes it), and the result lists every such row (``ranges``);
* test stubs and simulators (``partial.TEST_COMPONENTS``) are never counted: they are not the product.

What is not counted is named, never read as 0: rows ``partial.exclusions`` leaves out (flagged by an erratum or
printed without a value: the one definition, shared with the footprint and the product pages), and usable rows
with no replica count or no request to multiply (``uncounted``). A figure with any of these among its sidecar
rows is a lower bound (``sidecars_partial``). An ASM-enabled scenario whose tables print no sidecar at all has
``sidecars_unknown`` True: its sidecar cost is unknown, not 0.
"""
from __future__ import annotations

from fractions import Fraction

from .inputs import exact
from .partial import TEST_COMPONENTS, exclusions
from . import runs
from .scenario import asm_on

SIDECAR_CONTAINER = "istio-proxy"
"""The container name of an Istio sidecar row (resources.csv ``container``; ``is_sidecar`` true)."""


def _value(row: dict, request_key: str, single_key: str):
    """The per-container request of ``row`` (``request_key``), else the single printed value (``single_key``), or None."""
    for k in (request_key, single_key):
        if row.get(k) is not None:
            return row[k]
    return None


def sidecar_requests(bundle: dict, scenario: str) -> dict:
    """Sidecar and pod CPU and memory requested at one site carrying traffic of ``scenario``, per service and in total.

    ``bundle``: the calculator bundle (keys ``scenarios``, ``resources``, ``resources_excluded``).
    Returns a dict:

    * ``scenario``; ``site``: the first site carrying traffic ('' when the guide names none);
    * ``services``: one dict per production service (component + service) with a counted row, in table order:
      ``component``, ``service``, ``cpu_sidecar`` and ``cpu_pod`` (cores: its sidecars, and every container of
      its pod, sidecars included), ``mem_sidecar`` and ``mem_pod`` (GiB), ``sidecar`` (True when it has a
      sidecar row), ``replicas_sidecar`` (the replicas its sidecar counts at, None without one), ``replica_range``
      (the sidecar's or else the pod's min-max range counted at its max end, as in ``ranges``, or None), ``sources``
      (``"<table>/<row>"`` of every row counted), ``partial`` (True when a row of the service is excluded or
      uncounted);
    * ``cpu_sidecar``, ``mem_sidecar``, ``cpu_all``, ``mem_all``: the totals (cores, GiB) over every
      production service;
    * ``ranges``: every row counted from a min-max range, ``{"component", "service", "container", "sidecar",
      "table_id", "row", "row_label" (as printed), "min", "max", "used": "max"}``;
    * ``uncounted``: usable rows that could not be counted in full, ``{"component", "service", "container",
      "sidecar", "table_id", "row", "row_label", "what": "replicas" | "cpu" | "memory", "reason"}``;
    * ``excluded``: ``partial.exclusions(bundle, scenario, "resources")`` (rows flagged or printed without a
      value, with their tables, errata, services and one sentence);
    * ``sidecars_partial``: True when a sidecar row is excluded or uncounted (the sidecar totals are lower
      bounds); ``partial``: True when any row is (the pod and all totals are lower bounds);
    * ``sidecars_unknown``: True for an ASM-enabled scenario (asm 'enabled' or 'partial') whose resource tables
      print no sidecar row;
    * ``tables``: the resource tables counted, sorted.

    Exact decimal sums (every value has at most 9 decimals), returned as floats. Raises ValueError for a
    scenario that is not in the bundle. A scenario without resource rows gives empty services and zero totals.
    """
    scen = next((s for s in bundle["scenarios"] if s["id"] == scenario), None)
    if scen is None:
        raise ValueError(f"Unknown scenario {scenario!r}: it is not in the calculator bundle.")
    traffic = list(scen.get("sites_with_traffic") or [])
    mine = runs.index(bundle)["resources"].get(scenario, [])
    ex = exclusions(bundle, scenario, "resources")
    left_out = set(ex["services"])
    zero = Fraction(0)
    tot = {"cpu_sidecar": zero, "mem_sidecar": zero, "cpu_all": zero, "mem_all": zero}
    services, ranges, uncounted, tables = [], [], [], set()
    for (component, service), containers in runs.pods(bundle, scenario).items():
        if component in TEST_COMPONENTS:
            continue
        main = runs.main_container(containers)
        pod_rep, from_range = runs.base_replicas(main, containers)
        pod_range = ({"min": main.get("replicas_min"), "max": main["replicas_max"], "used": "max"}
                     if from_range else None)  # base_replicas read the main container's printed range at its max end
        svc = {"component": component, "service": service, "cpu_sidecar": zero, "cpu_pod": zero, "mem_sidecar": zero,
               "mem_pod": zero, "sidecar": False, "replicas_sidecar": None, "replica_range": None, "sources": [],
               "partial": service in left_out}
        for c in containers:
            side = bool(c["is_sidecar"])
            where = {"component": component, "service": service, "container": c["container"], "sidecar": side,
                     "table_id": c["table_id"], "row": c["row"], "row_label": c.get("row_label") or service}
            rep, rng = (c["replicas"], None) if c.get("replicas") is not None else (pod_rep, pod_range)
            if side:
                svc["sidecar"], svc["replicas_sidecar"] = True, rep
            if rng:
                ranges.append({**where, **rng})
                if side or svc["replica_range"] is None:
                    svc["replica_range"] = ranges[-1]
            if rep is None:
                uncounted.append({**where, "what": "replicas", "reason": "no replica count printed"})
                svc["partial"] = True
                continue
            tables.add(c["table_id"])
            src = f"{c['table_id']}/{c['row']}"
            if src not in svc["sources"]:
                svc["sources"].append(src)
            for what, key, req, single in (("cpu", "cpu", "cpu_request_cores", "cpu_cores"),
                                           ("memory", "mem", "mem_request_gib", "mem_gib")):
                v = _value(c, req, single)
                if v is None:
                    uncounted.append({**where, "what": what, "reason": f"no {'CPU' if what == 'cpu' else 'memory'} request printed"})
                    svc["partial"] = True
                    continue
                amount = exact(v) * rep
                svc[f"{key}_pod"] += amount
                tot[f"{key}_all"] += amount
                if side:
                    svc[f"{key}_sidecar"] += amount
                    tot[f"{key}_sidecar"] += amount
        services.append(svc)
    for svc in services:
        for k in ("cpu_sidecar", "cpu_pod", "mem_sidecar", "mem_pod"):
            svc[k] = float(svc[k])
    side_gaps = ex["sidecar_rows"] + sum(1 for u in uncounted if u["sidecar"])
    has_sidecars = any(r["is_sidecar"] for r in mine)
    return {"scenario": scenario, "site": traffic[0] if traffic else "", "services": services,
            **{k: float(v) for k, v in tot.items()},
            "ranges": ranges, "uncounted": uncounted, "excluded": ex,
            "sidecars_partial": bool(side_gaps), "partial": bool(ex["partial"] or uncounted),
            "sidecars_unknown": asm_on(scen) and bool(mine) and not has_sidecars,
            "tables": sorted(tables)}


def _range_rows(res: dict, sidecars_only: bool) -> list[dict]:
    """The printed rows of ``res`` counted from a min-max range, each once (a printed row whose application and
    sidecar columns were curated as two containers is one row), in table order."""
    seen: dict[tuple, dict] = {}
    for r in res["ranges"]:
        if r["sidecar"] or not sidecars_only:
            seen.setdefault((r["table_id"], r["row"]), r)
    return list(seen.values())


def ranges_where(res: dict, sidecars_only: bool = True) -> str:
    """Where ``res`` (a ``sidecar_requests`` result) counts a min-max replica range at its max end, by table and row
    with the row's label and the range as printed, e.g. 'Table 3-104 row 5 (Egress Gateway, 2-6), row 6
    (Ingress Gateway, 2-27)'; only rows with a sidecar when ``sidecars_only``; '' when there are none."""
    by_table: dict[str, list] = {}
    for r in _range_rows(res, sidecars_only):
        by_table.setdefault(r["table_id"], []).append(r)
    return "; ".join(f"Table {t} " + ", ".join(f"row {r['row']} ({r['row_label']}, {r['min']}-{r['max']})" for r in rs)
                     for t, rs in by_table.items())


def ranges_rows(res: dict, sidecars_only: bool = True) -> str:
    """The rows of ``res`` (a ``sidecar_requests`` result) counted at the max end of a min-max replica range, by table,
    compactly, e.g. 'Table 3-104 rows 5, 6, 16' (only rows with a sidecar when ``sidecars_only``); '' when none."""
    by_table: dict[str, list] = {}
    for r in _range_rows(res, sidecars_only):
        by_table.setdefault(r["table_id"], []).append(str(r["row"]))
    return "; ".join(f"Table {t} row{'s' if len(rs) > 1 else ''} {', '.join(rs)}" for t, rs in by_table.items())


def ranges_text(res: dict, sidecars_only: bool = True) -> str:
    """One sentence saying which rows of ``res`` (a ``sidecar_requests`` result) count a min-max replica range at its
    max end (``ranges_where``), or '' when none does."""
    n = len(_range_rows(res, sidecars_only))
    if not n:
        return ""
    return (f"Replicas printed as a min-max range, counted at the max end ({n} {'row' if n == 1 else 'rows'}): "
            f"{ranges_where(res, sidecars_only)}.")
