"""Reading one benchmark run (scenario) from the calculator bundle: its rows, its pods and what they used.

Standard library only: the same code runs in CPython (build, tests, command line) and in Pyodide.

One definition each, shared by the footprint calculator, the backtest and the evidence for a sizing
(``calculators.evidence``):

* ``index(bundle)``: the bundle's resource and utilization rows grouped by scenario, built once per bundle;
* ``baseline_rows``: one resource row per (component, service, container), from no site or the first site
  carrying traffic (a container printed only for another site keeps that site's row);
* ``pods``: those rows grouped per pod (component, service), and ``main_container`` of a pod (``app``, else
  ``mysqlndbcluster``, else the container with the largest CPU request; never a sidecar when there is another);
* ``base_replicas``: the replicas a pod ran, a count printed as a min-max range read at its max end (the most pods
  the benchmark's autoscaler could run at its load: conservative);
* ``reading_container``: which of a pod's printed containers a utilization row reads (the same name; or the pod's
  main container, printed without a name in the resource table, which the utilization table names after the service
  or ``mysqlndbcluster``), and ``rows_read`` the rows of that container among any resource rows (usable or left out);
* ``amount_used``: cores (or GiB) a container used at the busiest site carrying traffic: an absolute figure in the
  unit where printed, else percent x replicas x the per-pod request (the limit where the data records that the
  percentage is of the limit);
* ``cores_used``: ``amount_used`` for every container of a run that has a CPU reading, with its source row.

Units: CPU in cores, memory in GiB, load in the scenario's own unit per site (TPS, MPS, SPS, RPS).
"""
from __future__ import annotations

from fractions import Fraction

from .inputs import exact

_INDEX: list[tuple[dict, dict]] = []


def index(bundle: dict) -> dict:
    """``{"resources": {scenario: [rows]}, "utilization": {scenario: [rows]}}`` of ``bundle``, built once per bundle
    object (a recompute in the browser then reads one scenario's rows instead of scanning every row). The bundle
    itself is not changed; the last 4 bundles are remembered (tests build edited copies)."""
    for b, idx in _INDEX:
        if b is bundle:
            return idx
    idx = {"resources": {}, "utilization": {}, "pods": {}, "cores_used": {}}
    for key in ("resources", "utilization"):
        for r in bundle.get(key) or []:
            idx[key].setdefault(r["scenario"], []).append(r)
    _INDEX.insert(0, (bundle, idx))
    del _INDEX[4:]
    return idx


def scenario(bundle: dict, sid: str) -> dict | None:
    """The bundle's scenario record ``sid`` (``bundle["scenarios"]``), or None."""
    return next((s for s in bundle["scenarios"] if s["id"] == sid), None)


def baseline_rows(rows: list[dict], traffic_sites: list[str]) -> list[dict]:
    """One row per (component, service, container) of a run's resource ``rows``: the row for no site or the first
    traffic site; a container printed only for another site keeps that site's row. Order as printed."""
    primary = traffic_sites[0] if traffic_sites else ""
    chosen: dict[tuple, dict] = {}
    rank = lambda r: 0 if r["site"] in ("", primary) else 1
    for r in sorted(rows, key=rank):
        key = (r["component"], r["service"], r["container"])
        if key not in chosen:
            chosen[key] = r
    order = {id(r): i for i, r in enumerate(rows)}
    return sorted(chosen.values(), key=lambda r: order[id(r)])


def pods(bundle: dict, sid: str) -> dict[tuple, list[dict]]:
    """The baseline rows of run ``sid`` grouped per pod: ``{(component, service): [container rows]}``, in printed order
    (computed once per bundle and run: do not change the result)."""
    idx = index(bundle)
    if sid in idx["pods"]:
        return idx["pods"][sid]
    s = scenario(bundle, sid)
    out: dict[tuple, list[dict]] = {}
    for r in baseline_rows(idx["resources"].get(sid, []), list((s or {}).get("sites_with_traffic") or [])):
        out.setdefault((r["component"], r["service"]), []).append(r)
    idx["pods"][sid] = out
    return out


def main_container(containers: list[dict]) -> dict:
    """The container a pod is sized by: ``app``, else ``mysqlndbcluster``, else the largest CPU request; a sidecar
    only when the pod has nothing else."""
    non_sidecar = [c for c in containers if not c["is_sidecar"]] or containers
    for name in ("app", "mysqlndbcluster"):
        for c in non_sidecar:
            if c["container"] == name:
                return c
    return max(non_sidecar, key=lambda c: c.get("cpu_request_cores") or c.get("cpu_cores") or 0)


def base_replicas(main: dict, containers: list[dict]) -> tuple[int | None, str]:
    """The replicas the pod ran, and a note when they come from a printed min-max range (the max end is used:
    the most pods the benchmark's autoscaler could run at its load, conservative). None when none is printed."""
    rep = main.get("replicas")
    if rep is None:
        rep = next((c["replicas"] for c in containers if c.get("replicas") is not None), None)
    if rep is None and main.get("replicas_max") is not None:
        lo, hi = main.get("replicas_min"), main["replicas_max"]
        return hi, (f"replicas printed as a range {lo}-{hi} (Table {main['table_id']} row {main['row']}); sized from the "
                    f"max end, {hi}, the most pods the benchmark's autoscaler could run at its load (conservative)")
    return rep, ""


UNNAMED_MAIN = "app"
"""The container name curation gives a pod's main container when the resource table prints it without a name
(data/schemas/resources.schema.json, ``container``)."""
MAIN_NAMES = ("mysqlndbcluster",)
"""Names a utilization table gives a pod's main container besides the service's own name: cnDBTier's data, SQL and
management pods run their NDB process in the container ``mysqlndbcluster`` (Policy 3.2.5 Table 3-120, 3.5.1 Table
3-247, 3.5.2 Table 3-258, 3.6.1 Table 3-268 print it; their resource tables print the pod as one unnamed row)."""


def reading_container(u: dict, containers: list[dict]) -> str | None:
    """The container of a pod's resource rows ``containers`` (one service's rows) that utilization row ``u`` reads.

    The container of the same name when the pod prints one. Else, when the pod's resource rows print its main
    container without a name (``UNNAMED_MAIN``, not a sidecar) and the reading names the service itself or a
    ``MAIN_NAMES`` container, that unnamed main container: the resource table and the utilization table of one run
    print the same container, once by its row and once by its name (e.g. Policy 3.2.5: Table 3-117 prints the
    ndbmtd pod as one row with Istio columns, Table 3-120 reads ``ndbmtd/mysqlndbcluster`` and
    ``ndbmtd/istio-proxy``). Else None: the reading has no resource row (a container such as ``init-sidecar`` or
    ``db-infra-monitor-svc`` whose request is not printed), so no percentage of it can be turned into cores."""
    name = u["container"]
    if any(c["container"] == name for c in containers):
        return name
    if (name == u["service"] or name in MAIN_NAMES) and any(
            c["container"] == UNNAMED_MAIN and not c.get("is_sidecar") for c in containers):
        return UNNAMED_MAIN
    return None


def rows_read(u: dict, rows: list[dict]) -> list[dict]:
    """The rows of ``rows`` (resource rows, of any services and sites) of the container utilization row ``u`` reads
    (``reading_container`` over ``u``'s service's rows among them), in their order; [] when it reads none of them."""
    mine = [r for r in rows if r["service"] == u["service"]]
    name = reading_container(u, mine)
    return [r for r in mine if r["container"] == name] if name is not None else []


def joined(util: list[dict], resource_rows: list[dict]) -> list[dict]:
    """Utilization rows ``util`` of one run, each a copy with ``reads``: the name of the container of its service's
    rows in ``resource_rows`` (the same run's resource rows) that it reads (``reading_container``), None when the
    reading has no resource row. The printed ``container`` is kept as printed."""
    by_service: dict[str, list[dict]] = {}
    for r in resource_rows:
        by_service.setdefault(r["service"], []).append(r)
    return [dict(u, reads=reading_container(u, by_service.get(u["service"], []))) for u in util]


def amount_used(obs: list[dict], replicas, request, limit, unit: str) -> tuple[Fraction, dict] | None:
    """Peak amount used (cores for ``unit`` 'cores', GiB for 'GiB') over the utilization rows ``obs`` of one
    container, with the row it came from; None when no row gives one.

    A row printing an absolute figure in ``unit`` is read as printed; a percentage is of ``request`` per pod (of
    ``limit`` where the row's ``percent_basis`` is 'limit') times ``replicas``."""
    best = None
    for u in obs:
        if u.get("observed_abs") is not None and u.get("abs_unit") == unit:
            v = exact(u["observed_abs"])
        elif u.get("observed_percent") is not None:
            basis = limit if u.get("percent_basis") == "limit" else request
            if not basis or replicas is None:
                continue
            v = exact(u["observed_percent"]) / 100 * replicas * exact(basis)
        else:
            continue
        if best is None or v > best[0]:
            best = (v, u)
    return best


def readings(bundle: dict, sid: str, metric: str = "cpu") -> list[dict]:
    """Usable utilization rows of ``metric`` ('cpu' or 'memory') of run ``sid`` at its sites carrying traffic (every
    printed site when it names none; a row printed for no site is the run's), each a copy with ``reads``: the
    container of the run's resource rows it reads, None when none (``joined``)."""
    s = scenario(bundle, sid) or {}
    sites = set(s.get("sites_with_traffic") or [])
    usable = [u for u in index(bundle)["utilization"].get(sid, [])
              if u["metric"] == metric and u.get("status", "ok") in ("ok", "corrected") and (not sites or not u["site"] or u["site"] in sites)]
    return joined(usable, index(bundle)["resources"].get(sid, []))


def cores_used(bundle: dict, sid: str) -> dict[tuple, dict]:
    """Cores each container of run ``sid`` used at its busiest site carrying traffic (``amount_used``).

    Returns ``{(component, service, container): {"cores": Fraction, "site", "table_id", "row", "is_sidecar",
    "replicas", "range"}}`` for every container with a usable CPU reading; ``range`` is True when the replicas come
    from a min-max range (read at the max end, so the cores are an upper bound: the backtest leaves such readings
    out). The per-pod basis is the request, the limit where the row says so, or the one CPU figure printed where the
    table does not say which. Computed once per bundle and run: do not change the result."""
    idx = index(bundle)
    if sid in idx["cores_used"]:
        return idx["cores_used"][sid]
    out: dict[tuple, dict] = {}
    obs: dict[tuple, list[dict]] = {}
    for u in readings(bundle, sid, "cpu"):
        obs.setdefault((u["service"], u["reads"]), []).append(u)
    for (component, service), containers in pods(bundle, sid).items():
        main = main_container(containers)
        rep, rng = base_replicas(main, containers)
        for c in containers:
            rows = obs.get((service, c["container"]))
            if not rows:
                continue
            crep = c.get("replicas") if c.get("replicas") is not None else rep
            request = c.get("cpu_request_cores") if c.get("cpu_request_cores") is not None else c.get("cpu_cores")
            limit = c.get("cpu_limit_cores") if c.get("cpu_limit_cores") is not None else c.get("cpu_cores")
            got = amount_used(rows, crep, request, limit, "cores")
            if got is None:
                continue
            v, u = got
            out[(component, service, c["container"])] = {
                "cores": v, "site": u["site"], "table_id": u.get("table_id"), "row": u.get("row"), "is_sidecar": bool(c["is_sidecar"]),
                "replicas": crep, "range": c.get("replicas") is None and bool(rng)}
    idx["cores_used"][sid] = out
    return out


def requested_cpu(bundle: dict, sid: str) -> Fraction:
    """CPU requested by run ``sid``'s production pods at one site (cores): replicas (a range at its max end) x the
    per-pod request (or the one CPU figure printed) over the usable rows of ``baseline_rows``, test stubs and
    simulators left out."""
    total = Fraction(0)
    for (component, _), containers in pods(bundle, sid).items():
        if component not in ("stub", "simulator"):
            total += pod_request(containers, base_replicas(main_container(containers), containers)[0])
    return total


def pod_request(containers: list[dict], replicas) -> Fraction:
    """CPU requested by one pod's containers over its replicas (cores): each container's own replicas where printed,
    else ``replicas``, times its per-pod request (or the one CPU figure printed); containers without either count 0."""
    total = Fraction(0)
    for c in containers:
        cpu = c.get("cpu_request_cores") if c.get("cpu_request_cores") is not None else c.get("cpu_cores")
        n = c.get("replicas") if c.get("replicas") is not None else replicas
        if cpu is not None and n is not None:
            total += exact(cpu) * n
    return total
