"""Your own deployment beside the vendor's runs: match what ``kubectl`` printed to the atlas's services, see where you
stand per 1K of load, which workloads are over their HPA target, which use far less than they request, and scale your
own deployment as a footprint baseline.

Standard library only: the same code runs in CPython (command line, tests) and in Pyodide (the "Your deployment" page).
The readers are ``calculators.deployment_inputs``; the page, CSV and report are ``calculators.deployment_report``.

What is compared, and how (every definition reused, none new):

* **Your site.** What you paste is one site's cluster carrying ``load`` (in the product's unit: TPS, MPS, SPS) when
  observed. Requested = replicas x the per-pod request of every container that runs (init containers are listed and
  left out: they finish before the pod serves; native sidecars, init containers with ``restartPolicy: Always``, run and
  count). Used = the sum of ``kubectl top pods --containers`` over the workload's pods.
* **Matching** (``match_name``): a workload's name (or, from ``kubectl top`` alone, its pod's name with the ReplicaSet
  and pod hashes or the StatefulSet ordinal stripped, ``workload_of_pod``) is matched to the product's services through
  the names the guides print for them (the registry the service pages use: services.yaml canonical, display and alias
  names, bundle key ``deployment_names``), dropping a release prefix one hyphen-separated word at a time:
  ``ocpcf-occnp-ingress-gateway`` is printed as is; ``myrel-occnp-ingress-gateway`` matches at ``ingress-gateway``.
  Names are folded as the service pages fold them (lower case, letters and digits only). A workload matched nowhere is
  listed and can be mapped by hand (``mapping``).
* **The vendor's runs** are the comparable runs the footprint calculator uses: same product and call model (``calculators.evidence``),
  read with ``calculators.runs`` (requested CPU as the home chart counts it, ``runs.requested_cpu``; cores used as the
  footprint and the service pages count them, ``runs.cores_used``). Per 1K = per 1,000 of the load per site.
* **Over target** (``over_target``): each HPA's CPU reading as the controller computes it (usage and requests summed
  over the pods with metrics, utilization a whole percent of the requests, truncated), then
  ``calculators.overtarget.hpa_view``: the controller's tolerance test of the Kubernetes version chosen, the desired
  replicas clamped to min/max, the max it must rise to, and the severity (critical above the band or stopped by the max,
  warning inside it, ok below). A pod with a container that sets no CPU request cannot be read by the controller
  ("missing request for cpu"): the row says so and has no severity.
* **Far less than requested** (``under_use``): your per-pod CPU and memory request against what the vendor's own ratio
  of use to request for that service would request for your use: ``recommended = your use per pod / vendor ratio``,
  taken from the comparable run nearest your load that has a reading for the service. Severity by Robusta KRR's own
  thresholds on the difference (robusta-dev/krr, robusta_krr/core/models/severity.py, ``cpu_severity_calculator`` and
  ``memory_severity_calculator``): CPU |current - recommended| >= 0.5 cores critical, >= 0.25 warning, >= 0.1 ok, else
  good; memory >= 500 MiB critical, >= 250 warning, >= 100 ok, else good.
* **Scale your own** (``scale_own``): your rows become a run in the bundle's shape (a scenario ``yours`` of the product
  and call model, its resource and utilization rows) and ``calculators.footprint.compute`` sizes it for a target load:
  the same rules, node packing and report as the footprint calculator; ``footprint.recommend`` sizes the same request
  from the vendor's comparable runs, shown beside it.

Errors: ``DeploymentError`` (a ValueError) for a bad product, call model, load, sites, mapping or Kubernetes version,
and input that holds nothing readable (``deployment_inputs.DeploymentInputError`` is one). Bad rows never raise: they
are listed as problems and the other rows are used.
"""
from __future__ import annotations

import json
import math
import re
from fractions import Fraction

from . import deployment_inputs as di
from . import evidence, footprint, inputs, overtarget, runs
from .scenario import asm_on

YOURS = "yours"
"""The scenario id your deployment gets when it is sized as a footprint baseline."""
KRR_CPU = ((Fraction(1, 2), "critical"), (Fraction(1, 4), "warning"), (Fraction(1, 10), "ok"))
"""Robusta KRR's CPU severity thresholds on |current - recommended| in cores (robusta_krr/core/models/severity.py,
``cpu_severity_calculator``); below the last: 'good'."""
KRR_MEM_MIB = ((500, "critical"), (250, "warning"), (100, "ok"))
"""Robusta KRR's memory severity thresholds on |current - recommended| in MiB (``memory_severity_calculator``)."""
MAX_WORKLOADS = 5000
"""Most workloads read from one paste; a Benchmark Atlas limit."""

_H = "[b-df-hj-np-tv-z0-9]"
"""A character of a generated name: Kubernetes draws them from "bcdfghjklmnpqrstvwxz2456789" (no vowels, so no words;
k8s.io/apimachinery/pkg/util/rand); other digits are accepted too (the issue's own example, ``x2k1l``, has a 1)."""
_POD_HASH = (re.compile(rf"^(?P<base>.+)-{_H}{{6,10}}-{_H}{{5}}$"), re.compile(rf"^(?P<base>.+)-{_H}{{5}}$"),
             re.compile(r"^(?P<base>.+)-[0-9]+$"))
"""Pod names, tried in this order: ``<deployment>-<ReplicaSet hash>-<pod hash>`` (a hash of 6 to 10 characters, a
suffix of 5), ``<daemonset>-<pod hash>``, ``<statefulset>-<ordinal>``."""


class DeploymentError(di.DeploymentInputError):
    """Bad input to the "Your deployment" calculator; the message names the field. A ``DeploymentInputError`` (the
    readers' error), so one except clause catches both."""


def fold(name) -> str:
    """A name folded for matching, as the service pages fold it: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]+", "", str(name).lower())


def registry(bundle: dict, doc: str) -> dict[str, dict]:
    """The product's service names folded: ``{folded name: service record}`` of bundle key ``deployment_names``
    (``{"doc", "service", "display_name", "component", "role", "holds", "names", "page"}``). A folded name printed for
    two services of the product is dropped (ambiguous), so it never matches either."""
    out: dict[str, dict] = {}
    ambiguous = set()
    for s in (bundle.get("deployment_names") or {}).get("services", []):
        if s["doc"] != doc:
            continue
        for n in s["names"]:
            f = fold(n)
            if not f:
                continue
            if f in out and out[f]["service"] != s["service"]:
                ambiguous.add(f)
            out.setdefault(f, s)
    for f in ambiguous:
        out.pop(f, None)
    return out


def match_name(name: str, names: dict[str, dict]) -> dict | None:
    """The service record of workload ``name`` in ``names`` (``registry``), dropping a release prefix one
    hyphen-separated word at a time (module docstring), or None."""
    words = [w for w in str(name).split("-") if w]
    for i in range(len(words)):
        hit = names.get(fold("".join(words[i:])))
        if hit is not None:
            return hit
    return None


def workload_of_pod(pod: str) -> str:
    """The workload name a pod name carries: the ReplicaSet and pod hashes (``-7d9c5b6f4-x2k1l``), a DaemonSet's pod
    hash or a StatefulSet's ordinal (``-0``) stripped; the name itself when none is there."""
    for rx in _POD_HASH:
        m = rx.match(pod)
        if m:
            return m.group("base")
    return pod


def _pods_of(workload: dict, pod: str) -> bool:
    """Whether ``pod`` is one of ``workload``'s pods by its name (a Deployment's ``<name>-<hash>-<hash>``, a
    StatefulSet's ``<name>-<ordinal>``, a DaemonSet's ``<name>-<hash>``)."""
    name = workload["name"]
    if not pod.startswith(name + "-"):
        return False
    rest = pod[len(name) + 1:]
    if workload["kind"] == "StatefulSet":
        return rest.isdigit()
    if workload["kind"] in ("DaemonSet", "ReplicaSet"):
        return bool(re.fullmatch(f"{_H}{{5}}", rest))
    return bool(re.fullmatch(f"{_H}{{6,10}}-{_H}{{5}}", rest))


def key_of(w: dict) -> str:
    """A workload's key in a mapping: ``namespace/name`` (``?/name`` when ``kubectl top`` was pasted without -A)."""
    return f"{w['namespace'] or '?'}/{w['name']}"


def products(bundle: dict) -> list[dict]:
    """The products whose service names and comparable runs the page offers: ``[{"doc", "name", "unit",
    "call_models": [{"id", "name", "runs"}]}]`` (``evidence.call_models``), in sources order."""
    cms = evidence.call_models(bundle)
    out = []
    for s in bundle["sources"]:
        mine = [{"id": m["id"], "name": m["name"], "runs": m["runs"]} for m in cms if m["doc"] == s["id"]]
        if mine:
            out.append({"doc": s["id"], "name": s["short_name"], "unit": s.get("load_unit") or "TPS", "call_models": mine})
    return out


# ------------------------------------------------------------------ reading your input into workloads
def _objects(objects) -> dict:
    if objects in (None, ""):
        return {"workloads": [], "hpas": [], "problems": [], "ignored": []}
    obj = di.load_json(objects) if isinstance(objects, str) else objects
    if isinstance(obj, dict) and set(obj) == {"yamlError"}:
        # the page's js-yaml could not read the YAML pasted (docs/assets/js/deployment.js)
        raise DeploymentError(f"Workloads: the YAML could not be read: {obj['yamlError']}")
    return di.parse_objects(obj)


def workloads(objects, top_text: str | None) -> dict:
    """Your workloads from the ``kubectl get`` objects (JSON text or the dict YAML was read into; may be empty) and the
    ``kubectl top`` text (may be empty), each workload with its pods' readings.

    Returns ``{"workloads": [{"kind", "namespace", "name", "replicas", "containers", "pods": {pod: {container:
    {"cpu", "memory"}}}, "from": 'kubectl get' or 'kubectl top', "hpa": HPA dict or None, "path"}], "problems": [...],
    "ignored", "top_rows": n, "top_unplaced": [rows matched to no workload of kubectl get]}``. Workloads seen only in
    ``kubectl top`` are grouped by ``workload_of_pod`` (their replicas are the pods seen, their requests unknown).
    Raises DeploymentError when neither input holds anything, DeploymentInputError for unreadable text."""
    got = _objects(objects)
    top = di.parse_top(top_text) if top_text and top_text.strip() else {"rows": [], "problems": []}
    if not got["workloads"] and not top["rows"]:
        raise DeploymentError("Workloads: nothing to read. Paste what `kubectl get deployments,statefulsets,hpa -o json` "
                              "prints, or `kubectl top pods --containers` text, or both.")
    if len(got["workloads"]) > MAX_WORKLOADS:
        raise DeploymentError(f"Workloads: {len(got['workloads']):,} workloads, more than the {MAX_WORKLOADS:,} read at once.")
    wls = [dict(w, pods={}, **{"from": "kubectl get", "hpa": None}) for w in got["workloads"]]
    by_name: dict[str, list[dict]] = {}
    for w in wls:
        by_name.setdefault(w["name"], []).append(w)
    for h in got["hpas"]:
        t = next((w for w in wls if w["name"] == h["target_name"] and w["namespace"] == h["namespace"]
                  and (not h["target_kind"] or h["target_kind"] == w["kind"])), None)
        if t is None:
            got["problems"].append({"where": h["path"], "message": f"its target {h['target_kind'] or ''} "
                                    f"{h['target_name']} is not among the workloads pasted: not read"})
        else:
            t["hpa"] = h
    only_top: dict[tuple, dict] = {}
    unplaced = []
    for r in top["rows"]:
        base = workload_of_pod(r["pod"])
        # the workload is the one whose name the pod carries, in its namespace where kubectl top printed one
        cands = [w for w in by_name.get(base, []) + by_name.get(base.rsplit("-", 1)[0], [])
                 if (r["namespace"] is None or w["namespace"] == r["namespace"]) and _pods_of(w, r["pod"])]
        w = cands[0] if cands else None
        if w is None and wls:
            unplaced.append(r)
        if w is None:
            k = (r["namespace"], base)
            w = only_top.get(k)
            if w is None:
                w = only_top[k] = {"kind": "Pod", "namespace": r["namespace"], "name": base, "replicas": 0,
                                   "containers": [], "pods": {}, "from": "kubectl top", "hpa": None,
                                   "path": f"kubectl top line {r['line']}"}
        w["pods"].setdefault(r["pod"], {})[r["container"]] = {"cpu": r["cpu"], "memory": r["memory"]}
    for w in only_top.values():
        w["replicas"] = len(w["pods"])
        names = []
        for p in w["pods"].values():
            names += [c for c in p if c not in names]
        w["containers"] = [{"name": c, "init": False, "sidecar": c in di.SIDECAR_NAMES, "native_sidecar": False,
                            "mesh_init": False, "cpu_request": None, "cpu_limit": None, "mem_request": None,
                            "mem_limit": None} for c in names]
    return {"workloads": wls + list(only_top.values()), "problems": got["problems"] + top["problems"],
            "ignored": got["ignored"], "top_rows": len(top["rows"]), "top_unplaced": unplaced}


def read_mapping(mapping) -> dict[str, str]:
    """Your hand mapping ``{"namespace/name": service}`` from a dict or its JSON text ('' or None: none). A service of
    '' leaves the workload out of the comparison. Raises DeploymentError for text that is not a JSON object of strings."""
    if mapping in (None, ""):
        return {}
    if isinstance(mapping, str):
        try:
            mapping = json.loads(mapping)
        except json.JSONDecodeError as e:
            raise DeploymentError(f"Mapping: not JSON ({e.msg}, column {e.colno}).") from None
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
        raise DeploymentError('Mapping: expected a JSON object of "namespace/name": "service" strings.')
    return mapping


# ------------------------------------------------------------------ your rows per workload and per service
def _sum(xs):
    return sum(xs, Fraction(0))


LEFT_OUT = "left out by your mapping"
"""A workload's ``matched_by`` when the planner's mapping maps it to nothing: read, not counted in any total."""


def _known_sum(xs: list) -> Fraction | None:
    """The sum of the figures of ``xs`` that were read (not None); None when none was (unknown, not 0)."""
    known = [x for x in xs if x is not None]
    return _sum(known) if known else None


def _running(w: dict) -> list[dict]:
    return [c for c in w["containers"] if not c["init"]]


def workload_figures(w: dict) -> dict:
    """One workload's figures: ``{"pods": replicas, "cpu_request", "mem_request" (cores, GiB over its replicas; None
    when no running container sets one), "missing_requests": [containers without a CPU request], "cpu_used",
    "mem_used" (cores, GiB summed over its pods in kubectl top; None without readings), "pods_read": pods with
    readings, "sidecar_cpu_request", "sidecar_cpu_used"}``."""
    run = _running(w)
    n = w["replicas"] or 0
    cpu_req = [c["cpu_request"] for c in run if c["cpu_request"] is not None]
    mem_req = [c["mem_request"] for c in run if c["mem_request"] is not None]
    side = {c["name"] for c in run if c["sidecar"]}
    used_cpu = [v["cpu"] for p in w["pods"].values() for v in p.values()]
    used_mem = [v["memory"] for p in w["pods"].values() for v in p.values()]
    return {"pods": n, "cpu_request": _sum(cpu_req) * n if cpu_req else None,
            "mem_request": _sum(mem_req) * n if mem_req else None,
            "missing_requests": [c["name"] for c in run if c["cpu_request"] is None],
            "cpu_used": _sum(used_cpu) if used_cpu else None, "mem_used": _sum(used_mem) if used_mem else None,
            "pods_read": len(w["pods"]),
            "sidecar_cpu_request": _sum(c["cpu_request"] for c in run if c["sidecar"] and c["cpu_request"] is not None) * n,
            "sidecar_cpu_used": _sum(v["cpu"] for p in w["pods"].values() for c, v in p.items() if c in side)}


def match(bundle: dict, doc: str, wls: list[dict], mapping: dict[str, str]) -> list[dict]:
    """Each workload with its service: adds ``"key"`` (``key_of``), ``"service"`` (the canonical service record, or
    None), ``"matched_by"`` ('name', 'container name', 'your mapping', 'left out by your mapping' or None) and
    ``"figures"`` (``workload_figures``). A mapping naming a service the product does not have raises DeploymentError."""
    names = registry(bundle, doc)
    by_service = {s["service"]: s for s in (bundle.get("deployment_names") or {}).get("services", []) if s["doc"] == doc}
    out = []
    for w in wls:
        k = key_of(w)
        svc, how = None, None
        if k in mapping:
            if mapping[k] == "":
                how = LEFT_OUT
            elif mapping[k] not in by_service:
                raise DeploymentError(f"Mapping: {k} is mapped to {mapping[k]!r}, which is not a service of this product "
                                      f"(one of: {', '.join(sorted(by_service))}).")
            else:
                svc, how = by_service[mapping[k]], "your mapping"
        else:
            svc = match_name(w["name"], names)
            how = "name" if svc else None
            if svc is None:
                main = next((c for c in _running(w) if not c["sidecar"]), None)
                svc = match_name(main["name"], names) if main else None
                how = "container name" if svc else None
        out.append({**w, "key": k, "service": svc, "matched_by": how, "figures": workload_figures(w)})
    return out


# ------------------------------------------------------------------ the vendor's comparable runs, read as the atlas reads them
def _per_pod(containers: list[dict], field: str, single: str):
    vals = [c.get(field) if c.get(field) is not None else c.get(single) for c in containers]
    return vals


def vendor_services(bundle: dict, sid: str) -> dict[str, dict]:
    """Per canonical service of run ``sid`` (one traffic site, test stubs left out): ``{service: {"component",
    "replicas", "cpu_request", "mem_request" (cores, GiB over its replicas; memory None when a container prints no
    memory request, e.g. only a limit: the atlas never takes the limit for it), "cpu_used" (cores, ``runs.cores_used``
    summed over its containers; None without a reading), "mem_used" (GiB, ``runs.amount_used`` of its memory readings;
    None without one), "range": replicas from a min-max range}}``."""
    used = runs.cores_used(bundle, sid)
    mem_read: dict[tuple, list[dict]] = {}
    for u in runs.readings(bundle, sid, "memory"):
        mem_read.setdefault((u["service"], u["reads"]), []).append(u)
    out = {}
    for (component, service), containers in runs.pods(bundle, sid).items():
        if component in ("stub", "simulator"):
            continue
        main = runs.main_container(containers)
        rep, rng = runs.base_replicas(main, containers)
        mem = Fraction(0)
        mem_used, any_mem = Fraction(0), False
        for c in containers:
            n = c.get("replicas") if c.get("replicas") is not None else rep
            m = c.get("mem_request_gib") if c.get("mem_request_gib") is not None else c.get("mem_gib")
            if m is None:
                mem = None  # a container printed without a memory request (e.g. only a limit): no total to compare
            elif n is not None and mem is not None:
                mem += inputs.exact(m) * n
            got = runs.amount_used(mem_read.get((service, c["container"]), []), n, m, c.get("mem_limit_gib"), "GiB")
            if got is not None:
                mem_used += got[0]
                any_mem = True
        cores = [used[(component, service, c["container"])]["cores"] for c in containers
                 if (component, service, c["container"]) in used]
        out[service] = {"component": component, "replicas": rep, "cpu_request": runs.pod_request(containers, rep),
                        "mem_request": mem, "cpu_used": _sum(cores) if cores else None,
                        "mem_used": mem_used if any_mem else None, "range": bool(rng)}
    return out


def comparable_runs(bundle: dict, doc: str, call_model: str, load) -> list[dict]:
    """The vendor's comparable runs (same product and call model), nearest your load per site first:
    ``[{"id", "short_title", "load_per_site", "unit", "asm", "mode", "services": vendor_services, "cpu_request"
    (``runs.requested_cpu``, the home chart's count), "cpu_used" (cores used summed over services with a reading),
    "partial": services without a reading, "section": the run's section in its guide, "tables": the tables read}]``."""
    cands = [c for c in evidence.candidates(bundle, doc, call_model, None, None, load) if c["comparable"]]
    cands.sort(key=lambda c: abs(math.log(float(load) / c["load_per_site"])))
    out = []
    for c in cands:
        sv = vendor_services(bundle, c["id"])
        scen = runs.scenario(bundle, c["id"]) or {}
        tables = sorted({r["table_id"] for rows in runs.pods(bundle, c["id"]).values() for r in rows}
                        | {u["table_id"] for u in runs.readings(bundle, c["id"], "cpu") + runs.readings(bundle, c["id"], "memory")})
        out.append({"id": c["id"], "section": scen.get("section"), "tables": tables,
                    "short_title": c["short_title"], "load_per_site": c["load_per_site"], "unit": c["unit"],
                    "asm": c["asm"], "mode": c["mode"], "services": sv, "cpu_request": runs.requested_cpu(bundle, c["id"]),
                    "cpu_used": _sum(v["cpu_used"] for v in sv.values() if v["cpu_used"] is not None),
                    "mem_request": _sum(v["mem_request"] for v in sv.values() if v["mem_request"] is not None),
                    "mem_used": _sum(v["mem_used"] for v in sv.values() if v["mem_used"] is not None),
                    "mem_request_missing": sorted(k for k, v in sv.items() if v["mem_request"] is None),
                    "without_reading": sorted(k for k, v in sv.items() if v["cpu_used"] is None),
                    "mem_without_reading": sorted(k for k, v in sv.items() if v["mem_used"] is None)})
    return out


def per_1k(x, load):
    """``x`` (cores or GiB) per 1,000 of ``load`` (load per site), as a Fraction; None when ``x`` is None."""
    return None if x is None else Fraction(x) / Fraction(load) * 1000


# ------------------------------------------------------------------ over target and under use
def over_target(w: dict, controller: str) -> dict | None:
    """The HPA view of workload ``w`` (module docstring), or None without an HPA CPU target. Returns ``{"hpa", "target",
    "reading" (exact percent of the requests, before the controller's truncation), "pods_with_metrics", "view"
    (``overtarget.hpa_view``) or None, "why" (why no view)}``."""
    h = w.get("hpa")
    if not h or h.get("cpu_target") is None:
        return None
    out = {"hpa": h, "target": h["cpu_target"], "reading": None, "pods_with_metrics": 0, "view": None, "why": None}
    run = _running(w)
    if h.get("cpu_container"):
        run = [c for c in run if c["name"] == h["cpu_container"]]
    missing = [c["name"] for c in run if c["cpu_request"] is None]
    if missing:
        out["why"] = (f"the HPA cannot read this workload: container {', '.join(missing)} sets no CPU request "
                      "(the controller's 'missing request for cpu')")
        return out
    pods = [p for p in w["pods"].values() if all(c["name"] in p for c in run)]
    out["pods_with_metrics"] = len(pods)
    if not pods:
        out["why"] = "no kubectl top readings for its pods"
        return out
    used = _sum(p[c["name"]]["cpu"] for p in pods for c in run)
    requested = _sum(c["cpu_request"] for c in run) * len(pods)
    if requested <= 0 or h["cpu_target"] <= 0:
        out["why"] = "its CPU requests add up to 0"
        return out
    # the controller: int32((metricsTotal * 100) / requestsTotal) in milli-units; hpa_usage truncates the exact value
    out["reading"] = used * 100 / requested
    try:
        out["view"] = overtarget.hpa_view(out["reading"], h["cpu_target"], current=w["replicas"],
                                          min_replicas=h.get("min_replicas"), max_replicas=h.get("max_replicas"),
                                          controller=controller)
    except overtarget.OverTargetError as e:
        out["why"] = str(e)
    return out


def krr_severity(current, recommended, resource: str) -> str:
    """Robusta KRR's severity of a request ``current`` against a ``recommended`` one (KRR_CPU in cores, KRR_MEM_MIB in
    MiB for ``resource`` 'memory' with GiB values): 'critical', 'warning', 'ok' or 'good'; 'warning' when one of
    them is None and the other is not (KRR: one of the two missing), 'good' when both are."""
    if current is None and recommended is None:
        return "good"
    if current is None or recommended is None:
        return "warning"
    diff = abs(Fraction(current) - Fraction(recommended))
    if resource == "memory":
        diff *= 1024
        for at, sev in KRR_MEM_MIB:
            if diff >= at:
                return sev
        return "good"
    for at, sev in KRR_CPU:
        if diff >= at:
            return sev
    return "good"


def under_use(service: str, mine: dict, pods: int, runs_: list[dict]) -> dict | None:
    """How far your per-pod request of ``service`` sits above what the vendor's ratio of use to request would request
    for your use (module docstring). ``mine``: the service's summed figures; ``pods``: its replicas; ``runs_``:
    ``comparable_runs``. Returns ``{"run", "cpu": {...}, "memory": {...}}`` (each ``{"ratio_yours", "ratio_vendor",
    "current", "recommended" (per pod), "severity", "far_less": bool}`` or None where a figure is missing), or None
    when no comparable run reads the service."""
    ref = next((r for r in runs_ if (r["services"].get(service) or {}).get("cpu_used") is not None), None)
    if ref is None or not pods:
        return None
    v = ref["services"][service]
    out = {"run": ref["id"]}
    for res, used_k, req_k in (("cpu", "cpu_used", "cpu_request"), ("memory", "mem_used", "mem_request")):
        if mine[req_k] in (None, 0) or mine[used_k] is None or v[req_k] in (None, 0) or v[used_k] is None or v[used_k] == 0:
            out[res] = None
            continue
        ratio_v = Fraction(v[used_k]) / Fraction(v[req_k])
        current = Fraction(mine[req_k]) / pods
        recommended = Fraction(mine[used_k]) / pods / ratio_v
        sev = krr_severity(current, recommended, res)
        out[res] = {"ratio_yours": Fraction(mine[used_k]) / Fraction(mine[req_k]), "ratio_vendor": ratio_v,
                    "current": current, "recommended": recommended, "severity": sev,
                    "far_less": current > recommended and sev in ("critical", "warning")}
    return out


# ------------------------------------------------------------------ where you stand
def read_request(bundle: dict, doc, call_model, load, sites=None) -> dict:
    """The product, call model, load per site and sites of a request, checked. ``doc``: a product id
    (``products``); ``call_model``: one of its call model ids ('' or None: its first); ``load``: the load your site
    carried when observed (> 0, product's unit); ``sites``: your sites carrying traffic (default 1). Raises
    DeploymentError naming the field."""
    prods = {p["doc"]: p for p in products(bundle)}
    if doc not in prods:
        raise DeploymentError(f"Product must be one of {', '.join(prods)}, not {inputs.shown(doc or '')!r}.")
    p = prods[doc]
    cm = call_model or p["call_models"][0]["id"]
    if cm not in {m["id"] for m in p["call_models"]}:
        raise DeploymentError(f"Call model must be one of {', '.join(m['id'] for m in p['call_models'])} for "
                              f"{p['name']}, not {inputs.shown(cm)!r}.")
    lo = inputs.positive(load, "Load observed", p["unit"], DeploymentError)
    n = 1 if sites in (None, "") else int(inputs.positive(sites, "Sites", "sites", DeploymentError))
    if Fraction(n) != inputs.positive(sites or 1, "Sites", "sites", DeploymentError):
        raise DeploymentError(f"Sites must be a whole number, not {inputs.shown(sites)}.")
    return {"doc": doc, "product": p["name"], "unit": p["unit"], "call_model": cm,
            "call_model_name": next(m["name"] for m in p["call_models"] if m["id"] == cm), "load": lo, "sites": n}


def compute(bundle: dict, *, doc, call_model=None, load, sites=None, objects=None, top="", mapping=None,
            kubernetes=None) -> dict:
    """Where your deployment stands (module docstring). Arguments: ``doc``, ``call_model``, ``load``, ``sites`` as
    ``read_request``; ``objects``: ``kubectl get -o json`` text or the dict YAML was read into; ``top``: ``kubectl top
    pods --containers`` text; ``mapping``: ``read_mapping``; ``kubernetes``: '1.33' (default) or '1.32', the HPA
    controller's tolerance test.

    Returns ``{"request", "workloads" (``match``), "unmatched": [workloads without a service], "services": [{"service",
    "display_name", "component", "page", "workloads": [keys], "pods", "cpu_request", "mem_request", "cpu_used",
    "mem_used" (cores, GiB), "per_1k": {same four per 1K}, "vendor": [{"run", "load_per_site", "cpu_request",
    "cpu_used", "mem_request", "mem_used" per 1K (None where not read)}], "under_use"}], "totals": {"yours": {...},
    "vendor": [...]}, "over_target": [{"key", "service", ...over_target...}], "runs": comparable_runs, "problems",
    "ignored", "choices": services you can map to}``. Raises DeploymentError (module docstring)."""
    req = read_request(bundle, doc, call_model, load, sites)
    try:
        controller = overtarget.controller_of(kubernetes)
    except overtarget.OverTargetError as e:
        raise DeploymentError(str(e)) from None
    mp = read_mapping(mapping)
    wl = workloads(objects, top)
    matched = match(bundle, req["doc"], wl["workloads"], mp)
    cruns = comparable_runs(bundle, req["doc"], req["call_model"], req["load"])
    L = req["load"]
    svc_rows: dict[str, dict] = {}
    for w in matched:
        if w["service"] is None:
            continue
        s = w["service"]
        row = svc_rows.setdefault(s["service"], {
            "service": s["service"], "display_name": s.get("display_name") or s["service"], "component": s["component"],
            "role": s.get("role"), "page": s.get("page"), "workloads": [], "pods": 0, "cpu_request": None,
            "mem_request": None, "cpu_used": None, "mem_used": None, "missing_requests": []})
        f = w["figures"]
        row["workloads"].append(w["key"])
        row["pods"] += f["pods"]
        for k in ("cpu_request", "mem_request", "cpu_used", "mem_used"):
            if f[k] is not None:
                row[k] = (row[k] or Fraction(0)) + f[k]
        row["missing_requests"] += [f"{w['key']}/{c}" for c in f["missing_requests"]]
    services = []
    for name, row in svc_rows.items():
        row["per_1k"] = {k: per_1k(row[k], L) for k in ("cpu_request", "mem_request", "cpu_used", "mem_used")}
        row["vendor"] = []
        for r in cruns:
            v = r["services"].get(name)
            if v is None:
                continue
            row["vendor"].append({"run": r["id"], "load_per_site": r["load_per_site"],
                                  **{k: per_1k(v[k], r["load_per_site"]) for k in ("cpu_request", "cpu_used", "mem_request", "mem_used")},
                                  "range": v["range"]})
        row["under_use"] = under_use(name, row, row["pods"], cruns)
        services.append(row)
    order = {s["service"]: i for i, s in enumerate((bundle.get("deployment_names") or {}).get("services", []))}
    services.sort(key=lambda r: order.get(r["service"], 0))
    # a total of figures none of which was read (no kubectl top pasted: no use) is unknown, None, not 0
    mine_tot = {k: _known_sum([r[k] for r in services]) for k in ("cpu_request", "mem_request", "cpu_used", "mem_used")}
    every = {k: _known_sum([w["figures"][k] for w in matched if w["matched_by"] != LEFT_OUT])
             for k in ("cpu_request", "mem_request", "cpu_used", "mem_used")}
    totals = {"yours": {**mine_tot, "per_1k": {k: per_1k(v, L) for k, v in mine_tot.items()}, "every": every},
              "vendor": [{"run": r["id"], "short_title": r["short_title"], "load_per_site": r["load_per_site"],
                          "asm": r["asm"], "cpu_request": per_1k(r["cpu_request"], r["load_per_site"]),
                          "cpu_used": per_1k(r["cpu_used"], r["load_per_site"]),
                          "mem_request": per_1k(r["mem_request"], r["load_per_site"]),
                          "mem_used": per_1k(r["mem_used"], r["load_per_site"]) if r["mem_used"] else None,
                          "without_reading": r["without_reading"], "mem_request_missing": r["mem_request_missing"]}
                         for r in cruns]}
    ot = []
    for w in matched:
        v = over_target(w, controller)
        if v is not None:
            ot.append({"key": w["key"], "service": (w["service"] or {}).get("service"), "replicas": w["replicas"], **v})
    rank = {s: i for i, s in enumerate(overtarget.SEVERITIES)}
    ot.sort(key=lambda x: (rank.get((x["view"] or {}).get("severity"), 9), x["key"]))
    choices = [{"service": s["service"], "display_name": s.get("display_name") or s["service"]}
               for s in (bundle.get("deployment_names") or {}).get("services", []) if s["doc"] == req["doc"]]
    return {"request": {**req, "kubernetes": controller}, "workloads": matched,
            "unmatched": [w for w in matched if w["service"] is None and w["matched_by"] is None],
            "left_out": [w for w in matched if w["matched_by"] == LEFT_OUT],
            "services": services, "totals": totals, "over_target": ot, "runs": cruns, "problems": wl["problems"],
            "ignored": wl["ignored"], "top_rows": wl["top_rows"], "top_unplaced": wl["top_unplaced"], "choices": choices,
            "mapping": mp}


# ------------------------------------------------------------------ scale your own
def as_run(bundle: dict, res: dict) -> dict:
    """A copy of ``bundle`` (shallow: the lists are new, their rows shared) with your deployment as run ``YOURS``: a
    scenario of your product and call model at your load per site on one site carrying traffic, one resource row per
    running container of each matched service's workloads (replicas summed over its workloads; per-pod request and
    limit as printed where the workloads agree, else the replica-weighted mean), one CPU and one memory utilization row
    per container (cores and GiB used, summed over its pods; its HPA target where it has one). Unmatched workloads are
    left out (they have no service, so no sizing rule)."""
    req = res["request"]
    scen = {"id": YOURS, "doc": req["doc"], "section": "", "title": "Your deployment", "short_title": "Your deployment",
            "release": None, "load_total": float(req["load"]), "load_per_site": float(req["load"]), "load_unit": req["unit"],
            "load_raw": None, "sites_provisioned": 1, "sites_with_traffic": ["site1"],
            "asm": "enabled" if any(c["sidecar"] for w in res["workloads"] if w["service"] for c in _running(w)) else "disabled",
            "deployment_mode": None, "call_model": req["call_model"], "call_model_name": req["call_model_name"],
            "state_counts": []}
    rows, util = [], []
    acc: dict[tuple, dict] = {}
    for w in res["workloads"]:
        if w["service"] is None:
            continue
        s = w["service"]
        for c in _running(w):
            k = (s["component"], s["service"], c["name"])
            a = acc.setdefault(k, {"replicas": 0, "cpu_req": [], "cpu_lim": [], "mem_req": [], "mem_lim": [], "sidecar": c["sidecar"],
                                   "cpu_used": None, "mem_used": None, "target": None, "label": key_of(w)})
            n = w["replicas"] or 0
            a["replicas"] += n
            for f, key in (("cpu_request", "cpu_req"), ("cpu_limit", "cpu_lim"), ("mem_request", "mem_req"), ("mem_limit", "mem_lim")):
                if c[f] is not None:
                    a[key].append((c[f], n))
            for p in w["pods"].values():
                if c["name"] in p:
                    a["cpu_used"] = (a["cpu_used"] or 0) + p[c["name"]]["cpu"]
                    a["mem_used"] = (a["mem_used"] or 0) + p[c["name"]]["memory"]
            if w.get("hpa") and w["hpa"].get("cpu_target") and not c["sidecar"]:
                a["target"] = w["hpa"]["cpu_target"]

    def per_pod(vals):
        if not vals:
            return None
        n = sum(m for _, m in vals)
        return float(_sum(v * m for v, m in vals) / n) if n else float(vals[0][0])

    for i, ((component, service, container), a) in enumerate(acc.items(), 1):
        rows.append({"scenario": YOURS, "table_id": "yours", "row": i, "row_label": a["label"], "site": "",
                     "component": component, "service": service, "container": container, "is_sidecar": a["sidecar"],
                     "replicas": a["replicas"], "replicas_min": None, "replicas_max": None,
                     "cpu_request_cores": per_pod(a["cpu_req"]), "cpu_limit_cores": per_pod(a["cpu_lim"]), "cpu_cores": None,
                     "mem_request_gib": per_pod(a["mem_req"]), "mem_limit_gib": per_pod(a["mem_lim"]), "mem_gib": None})
        for metric, v, unit in (("cpu", a["cpu_used"], "cores"), ("memory", a["mem_used"], "GiB")):
            if v is not None:
                util.append({"scenario": YOURS, "table_id": "yours", "row": i, "site": "site1", "service": service,
                             "container": container, "metric": metric, "observed_percent": None,
                             "observed_abs": float(v), "abs_unit": unit,
                             "target_percent": a["target"] if metric == "cpu" else None, "percent_basis": None,
                             "status": "ok"})
    return {**bundle, "scenarios": list(bundle["scenarios"]) + [scen], "resources": list(bundle["resources"]) + rows,
            "utilization": list(bundle["utilization"]) + util}


def scale_own(bundle: dict, res: dict, target_load, *, sites=None, redundancy=None, node_cores=None, node_mem_gib=None,
              target_cpu_percent=None) -> dict:
    """Your deployment sized for ``target_load`` (total over ``sites`` carrying traffic, product's unit) by
    ``footprint.compute`` from ``as_run``, and the same request from the vendor's comparable runs
    (``footprint.recommend``). Returns ``{"yours": footprint result, "vendor": footprint result or None,
    "vendor_error": message or None}``. Raises DeploymentError with the footprint's message for a bad request."""
    req = res["request"]
    if not any(w["service"] for w in res["workloads"]):
        raise DeploymentError("Target load: no workload is matched to a service, so there is nothing to scale.")
    opts = dict(sites=sites, redundancy=redundancy, node_cores=node_cores, node_mem_gib=node_mem_gib,
                target_cpu_percent=target_cpu_percent)
    b2 = as_run(bundle, res)
    try:
        mine = footprint.compute(b2, YOURS, target_load, **opts)
    except footprint.FootprintError as e:
        raise DeploymentError(str(e)) from None
    vendor, err = None, None
    try:
        vendor = footprint.recommend(bundle, f"{req['doc']}:{req['call_model']}", target_load, **opts)
    except footprint.FootprintError as e:
        err = str(e)
    return {"yours": mine, "vendor": vendor, "vendor_error": err}


# ------------------------------------------------------------------ the charts' points
def efficiency_points(bundle: dict, res: dict | None = None) -> list[dict]:
    """The home chart's points (CPU cores requested per 1K of load at one traffic site, ``runs.requested_cpu``: the
    figure the home page plots) for every run with resource data and a load, plus yours (``"yours": True``) when
    ``res`` is given (its matched services' requests)."""
    names = {s["id"]: s["short_name"] for s in bundle["sources"]}
    have = set(runs.index(bundle)["resources"])
    pts = []
    for s in bundle["scenarios"]:
        if s["id"] not in have or not s.get("load_per_site") or s["id"] == YOURS:
            continue
        pts.append({"scenario": f'{names.get(s["doc"], s["doc"])} {s.get("section") or ""}: {s.get("short_title") or s["title"]}',
                    "id": s["id"], "product": names.get(s["doc"], s["doc"]), "load": float(s["load_per_site"]),
                    "efficiency": round(float(runs.requested_cpu(bundle, s["id"]) / inputs.exact(s["load_per_site"]) * 1000), 2),
                    "who": "vendor run", "asm": "ASM on" if asm_on(s) else "ASM off"})
    if res is not None and res["totals"]["yours"]["cpu_request"]:
        r = res["request"]
        pts.append({"scenario": "Your deployment", "id": YOURS, "product": r["product"], "load": float(r["load"]),
                    "efficiency": round(float(res["totals"]["yours"]["per_1k"]["cpu_request"]), 2), "who": "yours",
                    "asm": "yours"})
    return pts


def service_points(bundle: dict, res: dict) -> list[dict]:
    """For each matched service: the cores it used per 1K of load in every run of your product with a reading (all its
    containers, sidecars included), and yours (``"who": "yours"``)."""
    doc = res["request"]["doc"]
    want = {s["service"] for s in res["services"]}
    pts = []
    have = set(runs.index(bundle)["resources"])
    for s in bundle["scenarios"]:
        if s["doc"] != doc or s["id"] not in have or not s.get("load_per_site"):
            continue
        per: dict[str, Fraction] = {}
        for (component, service, _), u in runs.cores_used(bundle, s["id"]).items():
            if service in want:
                per[service] = per.get(service, Fraction(0)) + u["cores"]
        for service, cores in per.items():
            pts.append({"service": service, "run": s["id"], "load": float(s["load_per_site"]),
                        "per_1k": round(float(cores / inputs.exact(s["load_per_site"]) * 1000), 4),
                        "who": "your call model's runs" if s.get("call_model") == res["request"]["call_model"] else "other runs"})
    for r in res["services"]:
        if r["per_1k"]["cpu_used"] is not None:
            pts.append({"service": r["service"], "run": "yours", "load": float(res["request"]["load"]),
                        "per_1k": round(float(r["per_1k"]["cpu_used"]), 4), "who": "yours"})
    return pts


# ------------------------------------------------------------------ your points on the site's own charts
POINTS_FORMAT = "benchmark-atlas-deployment-points"
"""The ``format`` of ``own_points``: what the home and service pages' "Add my deployment..." control reads from an
exported inputs file (docs/assets/js/charts.js)."""


def _service_kinds(w: dict) -> dict[str, str]:
    """Each container name of workload ``w`` that runs or has readings: 'sidecar' (Istio's proxy, a native sidecar)
    or 'service' (every other running container: the service's own)."""
    kinds = {c["name"]: ("sidecar" if c["sidecar"] else "service") for c in _running(w)}
    for p in w["pods"].values():
        for c in p:
            kinds.setdefault(c, "sidecar" if c in di.SIDECAR_NAMES else "service")
    return kinds


def own_points(bundle: dict, res: dict) -> dict:
    """Your deployment as points of the site's own charts, computed by the rules those charts use, for the home and
    service pages to draw beside the vendor's runs (they plot these values; they compute nothing).

    * ``home``: the home chart's point (``atlas.pages.home``): x ``load`` = your load per site (your paste is one
      site), y ``efficiency`` = CPU cores requested per 1K of that load, summed over the workloads matched to a
      service (``totals.yours.per_1k.cpu_request``), rounded to 2 decimals as the home chart rounds; ``counted``
      'complete', or 'partial: at least' when a matched running container sets no CPU request (the figure is then
      a lower bound, as the home chart marks a partial run). None when no matched workload sets a CPU request.
    * ``services``: the service page chart's points (``atlas.pages.services.chart_points``), one per matched service
      and container kind: x ``load`` = your load per site, y ``cores`` = CPU cores used by all its pods' containers of
      that kind ('service': every running container but the sidecars; 'sidecar': Istio's proxy and native sidecars),
      summed over ``kubectl top``, rounded to 3 decimals, and ``per_1k`` (cores per 1K of load, 3 decimals). A service
      with no ``kubectl top`` reading has no point: it is named in ``without_reading``.

    Returns ``{"format": POINTS_FORMAT, "build": bundle's build_id, "product", "doc", "call_model", "call_model_name",
    "unit", "load" (float), "home": {...} or None, "services": [{"page" (service page slug), "service",
    "display_name", "kind", "label", "load", "cores", "per_1k", "workloads"}], "without_reading": [display names]}``.
    """
    req = res["request"]
    load = float(req["load"])
    cm = req["call_model_name"]
    home = None
    t = res["totals"]["yours"]
    if t["cpu_request"]:
        missing = [m for s in res["services"] for m in s["missing_requests"]]
        home = {"load": load, "unit": req["unit"], "efficiency": round(float(t["per_1k"]["cpu_request"]), 2),
                "counted": "partial: at least" if missing else "complete",
                "label": "yours", "scenario": f"Your deployment ({req['product']}, {cm})",
                "note": (f"at least: {len(missing)} matched container(s) set no CPU request" if missing else
                         "the workloads matched to a service; unmatched ones are not counted")}
    by_service: dict[str, dict] = {}
    for w in res["workloads"]:
        if w["service"] is None:
            continue
        kinds = _service_kinds(w)
        acc = by_service.setdefault(w["service"]["service"], {"record": w["service"], "cores": {}, "workloads": []})
        acc["workloads"].append(w["key"])
        for p in w["pods"].values():
            for c, v in p.items():
                k = kinds.get(c, "service")
                acc["cores"][k] = acc["cores"].get(k, Fraction(0)) + v["cpu"]
    services, without = [], []
    for row in res["services"]:
        acc = by_service.get(row["service"])
        shown = row["display_name"]
        if not acc or not acc["cores"]:
            without.append(shown)
            continue
        for kind in ("service", "sidecar"):
            if kind not in acc["cores"]:
                continue
            cores = acc["cores"][kind]
            services.append({"page": row.get("page"), "service": row["service"], "display_name": shown, "kind": kind,
                             "label": "yours" if kind == "service" else "yours: sidecar",
                             "scenario": f"Your deployment ({req['product']}, {cm}): {shown}"
                                         + (" sidecars" if kind == "sidecar" else ""),
                             "load": load, "unit": req["unit"], "cores": round(float(cores), 3),
                             "per_1k": round(float(per_1k(cores, req["load"])), 3), "workloads": acc["workloads"]})
    return {"format": POINTS_FORMAT, "build": bundle.get("build_id"), "product": req["product"], "doc": req["doc"],
            "call_model": req["call_model"], "call_model_name": cm, "unit": req["unit"], "load": load, "home": home,
            "services": services, "without_reading": without}
