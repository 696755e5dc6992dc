"""ASM (Istio service mesh) overhead: what the istio-proxy sidecars cost in each benchmark.

Standard library only: this module runs unchanged in CPython and in Pyodide.

Inputs: the calculator bundle (``resources`` rows with ``is_sidecar``,
``utilization`` CPU rows, ``util_rows`` memory rows, ``scenario_facts``).
Units: CPU in cores, memory in GiB (requests); observed memory in the unit
the source prints (GB or GiB), used only as a share; load in the scenario's
unit (TPS, MPS, SPS or RPS); "per 1K" = per 1,000 of that unit.

1. Overhead, for every ASM-enabled scenario (asm 'enabled' or 'partial' with
   sidecar rows): per service (component + service) and in total, the
   sidecars' requested CPU and memory as a share of everything the scenario's
   resource tables request at one site carrying traffic
   (``calculators.sidecars.sidecar_requests``, the count the product tables and
   the footprint calculator's baseline use: the rows printed for no site or for
   the first site carrying traffic, replicas x per-container request, or the
   single value where the source does not say request or limit; a replica
   count printed as a min-max range counts at its max end, and the overview
   names those rows). Per 1K of load: that request divided by the load per
   site. Observed share, where measured: at the first site carrying
   traffic, sidecar use / use of every container with an observation (cores
   printed, else percent x replicas x request, or limit where the data says
   the percentage is of the limit).
   Partial: a scenario with resource rows flagged by an erratum or printed
   without a value (``partial.exclusions``, e.g. policy-3-2-7, Table 3-140:
   13 application rows, erratum policy-E031), or usable rows with no replica
   count or request to multiply, gets no share over every row;
   the share is given over the services whose rows are all usable, and the
   overview names the rows left out. An ASM-enabled scenario with no sidecar
   rows (``asm_without_sidecars``) is listed as such, never as 0 sidecars.
   Observed sidecar CPU per 1K of load is given beside the requested figure,
   with Istio's published per-1,000-requests cost (``ISTIO_REFERENCE``) as a
   labelled reference.
2. Comparison of an ASM-on and an ASM-off scenario of the same product, per
   1K of load, like for like only: the on - off difference is given only when
   both runs share the call model and the deployment mode (``comparable``);
   otherwise "not comparable" with the reasons. Every difference between the
   two runs (call mix, sites, release, duration, deployment mode, load) is
   listed either way: it is not a controlled experiment.
3. What-if, through ``footprint.compute``: the ASM-off scenario with sidecars
   added (sized from the ASM-on scenario, per service, else its median), and
   the ASM-on scenario with them removed, at the user's load.

Errors: ``AsmError`` (a ValueError) for an unknown scenario, an ASM-off
scenario that has sidecars or belongs to another product, and a bad load
(footprint errors are re-raised as AsmError with the same message).

HTML, chart, CSV, the report and the catalogue entry: ``calculators.asm_report``.
"""
from __future__ import annotations

from fractions import Fraction

from . import footprint as fp
from . import runs
from .inputs import exact
from .scenario import asm_on, benchmark_load
from .partial import exclusions, usable
from .sidecars import ranges_rows, ranges_text, sidecar_requests


class AsmError(ValueError):
    """Bad input to the ASM overhead calculator; the message says what and why."""


ISTIO_REFERENCE = (
    ("1.3.5", "0.6", "50 MB", "https://istio.io/v1.3/docs/concepts/performance-and-scalability"),
    ("1.12.3 to 1.16.2", "0.35", "40 MB", "https://istio.io/v1.16/docs/ops/deployment/performance-and-scalability"),
)
"""Istio's published sidecar cost, by version: (version, vCPU and memory per 1,000 requests per second
going through the proxy, source). From the 'Performance and Scalability' page of each version (1,000
services, 2,000 sidecars, 70,000 mesh-wide requests per second). A labelled reference only: a benchmark
transaction may pass several proxies, and the guides do not say which Istio release ASM ships."""


def _same(a, b) -> bool:
    """Two call models or deployment modes are the same when their text matches, ignoring case and spacing."""
    norm = lambda x: " ".join(str(x or "").lower().split())
    return norm(a) == norm(b) and bool(norm(a))


_f = exact


def _num(r, *keys):
    for k in keys:
        if r.get(k) is not None:
            return r[k]
    return None


def asm_on_ids(bundle: dict) -> list[str]:
    """Scenario ids with asm 'enabled' or 'partial' and at least one sidecar resource row."""
    have = {r["scenario"] for r in bundle["resources"] if r["is_sidecar"]}
    return [s["id"] for s in bundle["scenarios"] if asm_on(s) and s["id"] in have]


def asm_without_sidecars(bundle: dict) -> list[str]:
    """Scenario ids marked ASM 'enabled' or 'partial' with resource rows but no sidecar row: their sidecar
    cost is not printed, which the overview says instead of reporting 0 sidecars."""
    have = {r["scenario"] for r in bundle["resources"] if r["is_sidecar"]}
    rows = {r["scenario"] for r in bundle["resources"]}
    return [s["id"] for s in bundle["scenarios"] if asm_on(s) and s["id"] in rows
            and s["id"] not in have]


def _sidecar_tables(bundle: dict, sid: str) -> list[str]:
    """The resource tables of ``sid`` that print sidecar (istio-proxy) rows, sorted."""
    return sorted({r["table_id"] for r in bundle["resources"] if r["scenario"] == sid and r["is_sidecar"]})


def asm_off_ids(bundle: dict) -> list[str]:
    """Scenario ids that can stand as the ASM-off side of a comparison: asm 'disabled' as curated from the
    guide, resource rows and a numeric load (``footprint.scenarios_with_resources``), no sidecar row, and a
    product with at least one ASM-on scenario (``asm_on_ids``) to compare with."""
    docs = {_scenario(bundle, sid)["doc"] for sid in asm_on_ids(bundle)}
    return [s["id"] for s in fp.scenarios_with_resources(bundle)
            if s["doc"] in docs and s.get("asm") == "disabled" and not _sidecar_tables(bundle, s["id"])]


def not_offered(bundle: dict) -> list[dict]:
    """Scenarios with resource data, of a product with an ASM-on scenario, that are neither an ASM-on nor an
    ASM-off choice: ``[{"id", "reason"}]``, the reason in words (ASM on with no sidecar printed; ASM off per
    the guide yet sidecars printed; the guide not saying whether ASM runs)."""
    on, off = set(asm_on_ids(bundle)), set(asm_off_ids(bundle))
    docs = {_scenario(bundle, sid)["doc"] for sid in on}
    out = []
    for s in fp.scenarios_with_resources(bundle):
        if s["doc"] not in docs or s["id"] in on or s["id"] in off:
            continue
        out.append({"id": s["id"], "reason": _why_not_off(bundle, s)})
    return out


def _why_not_off(bundle: dict, s: dict) -> str:
    """Why scenario record ``s`` cannot be the ASM-off side, in words ('' when it can)."""
    tables = _sidecar_tables(bundle, s["id"])
    if asm_on(s):
        return (f"{s['id']} runs ASM (asm '{s.get('asm')}' in the guide)"
                + (", so it is not an ASM-off run" if tables else ", but its resource tables print no sidecar, so its sidecar cost is unknown")
                + "; choose an ASM-off scenario.")
    if tables:
        return (f"{s['id']} is ASM-off in the guide (asm '{s.get('asm')}'), but its resource tables print istio-proxy sidecars "
                f"(Table {', '.join(tables)}), so it is not a clean ASM-off run; choose another ASM-off scenario.")
    if s.get("asm") != "disabled":
        return f"the guide does not say whether ASM runs in {s['id']} (asm '{s.get('asm')}'); choose a scenario the guide states as ASM-off."
    return ""


def _scenario(bundle, sid):
    s = next((x for x in bundle["scenarios"] if x["id"] == sid), None)
    if s is None:
        raise AsmError(f"Unknown scenario {sid!r}.")
    return s


def _uncounted_text(uncounted: list[dict]) -> str:
    """One sentence naming usable rows that could not be counted in full (``sidecars.sidecar_requests``), or ''."""
    if not uncounted:
        return ""
    return ("Not counted: " + "; ".join(f"Table {u['table_id']} row {u['row']} ({u['row_label']}, {u['container']}): {u['reason']}"
                                        for u in uncounted) + ".")


def overhead(bundle: dict, sid: str) -> dict:
    """Sidecar share of requested CPU/memory per service and in total for scenario ``sid`` at one site carrying
    traffic (``calculators.sidecars.sidecar_requests``: the count the product tables and the footprint use, a
    replica range at its max end); observed share where measured; per 1K of load per site.

    Returns ``{"scenario", "doc", "title", "asm", "unit", "load" (load per site), "load_how", "site", "tables",
    "services": [{"component", "service", "sources", "partial", "cpu_sidecar", "cpu_total", "cpu_share",
    "mem_sidecar", "mem_total", "mem_share", "replicas_sidecar", "replica_range", "observed_cpu_share",
    "observed_memory_share"}], "cpu_sidecar", "cpu_total", "cpu_share", "mem_sidecar", "mem_total", "mem_share"
    (cores, GiB, %), "partial" (None, or the excluded rows with ``text``), "cpu_share_complete",
    "mem_share_complete", "complete_services", "services_total", "cpu_sidecar_per_1k", "cpu_total_per_1k",
    "mem_sidecar_per_1k", "mem_total_per_1k", "ranges" (rows counted at the max end of a range), "ranges_text" (a sentence naming them with
    their labels and ranges), "ranges_rows" (their tables and rows, compactly),
    "observed"}``. Raises AsmError for an unknown scenario."""
    s = _scenario(bundle, sid)
    rows = [r for r in bundle["resources"] if r["scenario"] == sid]
    req = sidecar_requests(bundle, sid)
    ex, uncounted = req["excluded"], req["uncounted"]
    left_out = list(ex["services"]) + [u["service"] for u in uncounted if u["service"] not in ex["services"]]
    left_out = list(dict.fromkeys(left_out))
    partial = None
    if ex["partial"] or uncounted:
        partial = {**ex, "partial": True, "services": left_out,
                   "sidecar_rows": ex["sidecar_rows"] + sum(1 for u in uncounted if u["sidecar"]),
                   "text": " ".join(x for x in (ex["text"], _uncounted_text(uncounted)) if x)}
    share = lambda a, b: float(a / b * 100) if b else None
    comp = {"cpu_sidecar": Fraction(0), "cpu_pod": Fraction(0), "mem_sidecar": Fraction(0), "mem_pod": Fraction(0)}
    for v in req["services"]:
        if v["service"] not in left_out:
            for k in comp:
                comp[k] += _f(v[k])
    load = float(s["load_per_site"]) if s.get("load_per_site") else None
    load_how = ("load per site (the figures are for one site carrying traffic" + (f", {req['site']})" if req["site"] else ")")
                if load else "no numeric load")
    per1k = lambda a: float(_f(a) / _f(load) * 1000) if load else None
    services = []
    for v in req["services"]:
        if not v["cpu_sidecar"] and not v["mem_sidecar"]:
            continue
        out = v["service"] in left_out
        services.append({"component": v["component"], "service": v["service"], "sources": v["sources"], "partial": out,
                         "cpu_sidecar": v["cpu_sidecar"], "cpu_total": v["cpu_pod"],
                         "cpu_share": None if out else share(_f(v["cpu_sidecar"]), _f(v["cpu_pod"])),
                         "mem_sidecar": v["mem_sidecar"], "mem_total": v["mem_pod"],
                         "mem_share": None if out else share(_f(v["mem_sidecar"]), _f(v["mem_pod"])),
                         "replicas_sidecar": v["replicas_sidecar"], "replica_range": v["replica_range"]})
    obs = _observed(bundle, s, rows)
    for v in services:
        for m in ("cpu", "memory"):
            v[f"observed_{m}_share"] = obs.get(m, {}).get("by_service", {}).get(v["service"])
    cs, ca, ms, ma = (_f(req[k]) for k in ("cpu_sidecar", "cpu_all", "mem_sidecar", "mem_all"))
    return {"scenario": sid, "doc": s["doc"], "title": s.get("short_title") or s["title"], "asm": s.get("asm"),
            "unit": s.get("load_unit"), "load": load, "load_how": load_how, "site": req["site"], "tables": req["tables"],
            "services": services,
            "cpu_sidecar": req["cpu_sidecar"], "cpu_total": req["cpu_all"],
            "cpu_share": None if partial else share(cs, ca),
            "mem_sidecar": req["mem_sidecar"], "mem_total": req["mem_all"],
            "mem_share": None if partial else share(ms, ma),
            "partial": partial,
            "cpu_share_complete": share(comp["cpu_sidecar"], comp["cpu_pod"]),
            "mem_share_complete": share(comp["mem_sidecar"], comp["mem_pod"]),
            "complete_services": sum(1 for v in req["services"] if v["service"] not in left_out),
            "services_total": len({v["service"] for v in req["services"]} | set(left_out)),
            "cpu_sidecar_per_1k": per1k(cs), "cpu_total_per_1k": per1k(ca),
            "mem_sidecar_per_1k": per1k(ms), "mem_total_per_1k": per1k(ma),
            "ranges": req["ranges"], "ranges_text": ranges_text(req, sidecars_only=False),
            "ranges_rows": ranges_rows(req, sidecars_only=False),
            "observed": obs}


def _observed(bundle, s, rows) -> dict:
    """Observed sidecar share of CPU and memory at the first traffic site, where the source measures sidecars.
    ``by_service``: per service with a sidecar reading at that site, its sidecar's share of the service's observed
    amount in percent (a sidecar printed at 0.00 % is a share of 0, not a missing one); a service with no sidecar
    reading, or with no reading of its other containers that can be counted (no request to turn a percent into
    cores), is left out (not measured): its share is not known, not 100 %."""
    site = (s.get("sites_with_traffic") or ["site1"])[0]
    res = {}

    def pod(u):
        """The resource row at ``site`` of the container reading ``u`` reads (``runs.reading_container``), or None."""
        return next(iter(runs.rows_read(u, [r for r in rows if r["site"] in (site, "")])), None)

    mem_rows = [dict(zip(bundle["util_rows"]["cols"], x)) for x in (bundle.get("util_rows") or {"rows": []})["rows"]
                if x[0] == s["id"]] if bundle.get("util_rows") else []
    for metric, urows, keys in (("cpu", [u for u in bundle["utilization"] if u["scenario"] == s["id"] and u["metric"] == "cpu"],
                                 (("cpu_request_cores", "cpu_cores"), ("cpu_limit_cores", "cpu_cores"))),
                                ("memory", [u for u in mem_rows if u["metric"] == "memory"],
                                 (("mem_request_gib", "mem_gib"), ("mem_limit_gib", "mem_gib")))):
        urows = [u for u in urows if u["site"] in (site, "") and usable(u)]
        if not any(u["container"] == "istio-proxy" for u in urows):
            continue
        side = total = Fraction(0)
        units = set()
        per_svc: dict[str, list] = {}
        for u in urows:
            if u.get("observed_abs") is not None:
                v = _f(u["observed_abs"])
                units.add(u.get("abs_unit"))
            elif u.get("observed_percent") is not None:
                p = pod(u)
                basis = _num(p, *keys[1]) if p and u["percent_basis"] == "limit" else _num(p, *keys[0]) if p else None
                if p is None or basis is None or p.get("replicas") is None:
                    continue
                v = _f(u["observed_percent"]) / 100 * p["replicas"] * _f(basis)
                units.add("cores" if metric == "cpu" else "GiB")
            else:
                continue
            total += v
            acc = per_svc.setdefault(u["service"], [Fraction(0), Fraction(0), False, False])
            acc[1] += v
            if u["container"] == "istio-proxy":
                side += v
                acc[0] += v
                acc[2] = True  # a sidecar reading, 0 % included: measured, not missing
            else:
                acc[3] = True
        if total and len(units) == 1:
            gone = [r for r in exclusions(bundle, s["id"], "utilization")["rows"]
                    if r["site"] in (site, "") and r["metric"] == metric]
            res[metric] = {"site": site, "sidecar": float(side), "total": float(total), "unit": units.pop(),
                           "partial": [f"Table {r['table_id']} row {r['row']} ({r['service']}, {r['container']})" for r in gone],
                           "by_service": {k: float(a / t * 100) for k, (a, t, sidecar, rest) in per_svc.items()
                                          if t and sidecar and rest},
                           "share": float(side / total * 100),
                           "sidecar_per_1k": float(side / _f(s["load_per_site"]) * 1000) if s.get("load_per_site") else None}
    return res


def _facts(bundle, sid) -> dict:
    return next((f for f in bundle.get("scenario_facts") or [] if f["id"] == sid), {})


def differences(bundle: dict, on: str, off: str) -> list[dict]:
    """What differs between the two runs besides ASM: [{what, on, off, differs}]."""
    a, b = _scenario(bundle, on), _scenario(bundle, off)
    fa, fb = _facts(bundle, on), _facts(bundle, off)
    items = [("Call mix", fa.get("call_mix"), fb.get("call_mix")),
             ("Sites carrying traffic", ", ".join(a.get("sites_with_traffic") or []), ", ".join(b.get("sites_with_traffic") or [])),
             ("Sites provisioned", fa.get("sites_provisioned"), fb.get("sites_provisioned")),
             ("Release", a.get("release"), b.get("release")),
             ("Duration", fa.get("duration"), fb.get("duration")),
             ("Deployment mode", a.get("deployment_mode"), b.get("deployment_mode")),
             ("Load", a.get("load_raw"), b.get("load_raw")),
             ("ASM", a.get("asm"), b.get("asm"))]
    return [{"what": w, "on": x, "off": y, "differs": (x or None) != (y or None)} for w, x, y in items]


def comparable(bundle: dict, on: str, off: str) -> list[str]:
    """Why two scenarios of one product cannot be compared like for like: [] when they share the call
    model and the deployment mode (the load may differ: figures are per 1K of load), else one sentence
    per difference."""
    a, b = _scenario(bundle, on), _scenario(bundle, off)
    fa, fb = _facts(bundle, on), _facts(bundle, off)
    why = []
    if not _same(fa.get("call_mix"), fb.get("call_mix")):
        why.append(f"call model differs: {on} runs '{fa.get('call_mix') or 'not stated'}', {off} runs '{fb.get('call_mix') or 'not stated'}'")
    if not _same(a.get("deployment_mode"), b.get("deployment_mode")):
        why.append(f"deployment mode differs: {a.get('deployment_mode') or 'not stated'} against {b.get('deployment_mode') or 'not stated'}")
    return why


def compare(bundle: dict, on: str, off: str) -> dict:
    """ASM-on against ASM-off of the same product, per 1K of load, like for like only.

    Returns ``{"on", "off"`` (``overhead`` of each), ``"comparable"`` (bool), ``"not_comparable"``
    (the reasons, see ``comparable``), ``"diff"`` (on - off per 1K; every value None when not
    comparable), ``"differences"`` (every fact of the two runs side by side)}. Raises AsmError when
    ``on`` has no sidecars, ``off`` has some, they belong to different products, or ``off`` has no
    resource rows."""
    a, b = _scenario(bundle, on), _scenario(bundle, off)
    if on not in asm_on_ids(bundle):
        raise AsmError(f"{on} is not an ASM-enabled scenario with sidecar data.")
    if off in asm_on_ids(bundle):
        raise AsmError(f"{off} runs with sidecars; choose an ASM-off scenario.")
    if a["doc"] != b["doc"]:
        raise AsmError(f"{on} and {off} belong to different products ({a['doc']}, {b['doc']}); compare runs of one product.")
    why_not = _why_not_off(bundle, b)
    if why_not:
        raise AsmError(why_not)
    if not any(r["scenario"] == off for r in bundle["resources"]):
        raise AsmError(f"{off} has no resource-allocation data.")
    oa, ob = overhead(bundle, on), overhead(bundle, off)
    why = comparable(bundle, on, off)
    keys = ("cpu_total_per_1k", "mem_total_per_1k", "cpu_sidecar_per_1k", "mem_sidecar_per_1k")
    diff = {k: (oa[k] - ob[k]) if not why and oa[k] is not None and ob[k] is not None else None for k in keys}
    return {"on": oa, "off": ob, "diff": diff, "comparable": not why, "not_comparable": why,
            "differences": differences(bundle, on, off)}


def whatif(bundle: dict, on: str, off: str, load=None) -> dict:
    """Add ASM to ``off`` (sized from ``on``) and remove it from ``on`` via footprint.compute, at ``load``
    (total, the scenarios' unit; None = each scenario's own load). Returns the per-site request deltas."""
    out = {}
    for sid, change, extra in ((off, "add", {"asm_from": on}), (on, "remove", {})):
        s = _scenario(bundle, sid)
        x = load if load not in (None, "") else (benchmark_load(s) if s.get("load_per_site") else None)
        try:
            keep = fp.compute(bundle, sid, x)
            changed = fp.compute(bundle, sid, x, asm=change, **extra)
        except fp.FootprintError as e:
            raise AsmError(f"What-if on {sid}: {e}") from None
        k, c = keep["totals"]["site"]["after"], changed["totals"]["site"]["after"]
        out[change] = {"scenario": sid, "load": keep["inputs"]["target_load"], "unit": keep["inputs"]["unit"],
                       "cpu_before": k["cpu_request"], "cpu_after": c["cpu_request"], "cpu_delta": float(_f(c["cpu_request"]) - _f(k["cpu_request"])),
                       "mem_before": k["mem_request"], "mem_after": c["mem_request"], "mem_delta": float(_f(c["mem_request"]) - _f(k["mem_request"])),
                       "sidecars": sum(1 for r in changed["rows"] if r["is_sidecar"]), "source": changed["inputs"]["asm_from"]}
    return out


def overview(bundle: dict) -> list[dict]:
    """``overhead`` of every ASM-enabled scenario with sidecar rows (``asm_on_ids``), in bundle order."""
    return [overhead(bundle, sid) for sid in asm_on_ids(bundle)]


def defaults(bundle: dict) -> dict:
    """The page's default inputs ``{"on", "off", "load"}`` (strings as the form holds them): the guides' example
    ASM-on run (``bundle["examples"]["asm"]["on"]``, declared by a guide module in ``atlas.guides``) where the bundle
    has it (else the first ASM-on scenario), against the first ASM-off scenario of its product that is
    comparable like for like (``comparable``), else the first of its product; the load empty (each scenario's own)."""
    on_ids = asm_on_ids(bundle)
    first = ((bundle.get("examples") or {}).get("asm") or {}).get("on")  # a guide module's EXAMPLES
    on = first if first in on_ids else on_ids[0]
    doc = _scenario(bundle, on)["doc"]
    offs = [sid for sid in asm_off_ids(bundle) if _scenario(bundle, sid)["doc"] == doc]
    like = [x for x in offs if not comparable(bundle, on, x)]
    return {"on": on, "off": (like or offs or [""])[0], "load": ""}

