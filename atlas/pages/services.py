"""Service pages: one page per canonical service (services.yaml) with every scenario it appears in, and the
index of services (``services/``).

Services of different products share one page when their names match: the canonical name (``service``) or the
display name of one equals one of the other's once case, spaces, hyphens and other punctuation are folded away
(``Ingress Gateway`` = ``ingress-gateway``), and they are the same component kind (an application service never
shares a page with a test stub of the same name). Names printed only as aliases do not merge services (Policy
prints ``user-service`` for two different connectors); they are listed on the page and searched.

Every row of the service is shown, one per resource-allocation row as printed (and one per container that has
utilization rows but no resource row), with its status: a row flagged by an erratum or printed without a value is
shown with the erratum, never counted. CPU used follows the calculators' rule (``calculators.runs.cores_used``):
at the busiest site carrying traffic, a percentage is of the per-pod request (of the limit where the table says
so; of the one printed CPU where the table does not say which) times the replicas, an absolute figure in cores is
used as printed. Cores per 1K divide that by the scenario's load per site.
"""
from __future__ import annotations

import re
from fractions import Fraction
from weakref import WeakKeyDictionary

from calculators.formatting import fmt
from calculators.partial import USABLE

from ..datastore import errata_cited, records
from ..html import anchor, esc, json_for_html, md_esc
from .data import erratum_url
from .yours import control as yours_control
from .yours import layer as yours_layer

COMPONENT_GROUP = {"app": "Application services", "cndbtier": "cnDBTier", "udr": "UDR", "stub": "Test stubs and simulators",
                   "simulator": "Test stubs and simulators", "infrastructure": "Other", "other": "Other"}
"""Nav and index sections per services.yaml component, in this order."""

MARK_LABEL = {"ok": "as printed", "corrected": "corrected by an erratum", "partial": "at least (a traffic site's value not usable)"}
"""How a plotted value was counted (the chart's shape legend and tooltip)."""
MARK_SHAPE = {"as printed": "circle", "corrected by an erratum": "diamond", "at least (a traffic site's value not usable)": "triangle-up"}

RES_COLS = ["doc", "scenario", "table_id", "row", "row_label", "site", "component", "service", "container", "is_sidecar",
            "replicas", "replicas_min", "replicas_max", "cpu_request_cores", "cpu_limit_cores", "cpu_cores", "mem_request_gib",
            "mem_limit_gib", "mem_gib", "raw_replicas", "status", "note"]
UTIL_COLS = ["doc", "scenario", "table_id", "row", "row_label", "site", "component", "service", "container",
             "observed_percent", "observed_abs", "abs_unit", "target_percent", "percent_basis", "raw", "status", "note"]


def fold(name: str) -> str:
    """``name`` folded for matching: lower case, letters and digits only (``Ingress Gateway`` -> ``ingressgateway``)."""
    return re.sub(r"[^a-z0-9]+", "", str(name).lower())


def slug(name: str) -> str:
    """The page name of a service: lower case, every run of other characters one hyphen (``SBR(s)`` -> ``sbr-s``)."""
    return re.sub(r"[^a-z0-9]+", "-", str(name).lower()).strip("-") or "service"


def _kind(component: str) -> str:
    return "test" if component in ("stub", "simulator") else component


def groups(a) -> list[dict]:
    """The canonical services of Atlas ``a`` grouped across products where names match (module docstring).

    Returns one dict per page, in sources.yaml order of its first member: ``{"slug", "title", "component",
    "section" (COMPONENT_GROUP), "members": [services.yaml records], "names": [every name as printed, canonical
    and display names first]}``. Raises ValueError if two pages would get the same slug."""
    order = {d: i for i, d in enumerate(s["id"] for s in a.sources)}
    recs = sorted(a.services, key=lambda s: order.get(s["doc"], len(order)))
    parent = list(range(len(recs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[tuple, int] = {}
    for i, s in enumerate(recs):
        for name in (s["service"], s.get("display_name")):
            if not name:
                continue
            k = (_kind(s["component"]), fold(name))
            if k in first:
                j = first[k]
                if recs[j]["doc"] != s["doc"]:  # one product's services never merge with each other
                    parent[find(i)] = find(j)
            else:
                first[k] = i
    members: dict[int, list[dict]] = {}
    for i, s in enumerate(recs):
        members.setdefault(find(i), []).append(s)
    out, used = [], {}
    for root in sorted(members):
        ms = members[root]
        title = ms[0].get("display_name") or ms[0]["service"]
        names: list[str] = []
        for m in ms:
            for n in [m["service"], m.get("display_name"), *m["aliases"]]:
                if n and n not in names:
                    names.append(n)
        sl = slug(title)
        if sl in used:
            sl = f"{sl}-{slug(ms[0]['component'])}"
        if sl in used:
            raise ValueError(f"services: {title!r} ({ms[0]['doc']}) and {used[sl]!r} would share the page services/{sl}/")
        used[sl] = title
        out.append({"slug": sl, "title": title, "component": ms[0]["component"], "section": COMPONENT_GROUP.get(ms[0]["component"], "Other"),
                    "members": ms, "names": names})
    return out


_GROUPS: WeakKeyDictionary = WeakKeyDictionary()
"""``groups(renderer.atlas)`` per Renderer ``renderer`` (a build has one Renderer; the entry goes with it)."""
_SLUGS: WeakKeyDictionary = WeakKeyDictionary()
"""Per Renderer, the service page's slug of each (doc, canonical service) of ``_GROUPS``."""
_ROWS: WeakKeyDictionary = WeakKeyDictionary()
"""Per Renderer, the resource and CPU utilization rows by (doc, service) (``_rows_by_service``)."""


def groups_of(renderer) -> list[dict]:
    """``groups(renderer.atlas)`` for Renderer ``renderer``, computed once per Renderer."""
    if renderer not in _GROUPS:
        _GROUPS[renderer] = groups(renderer.atlas)
    return _GROUPS[renderer]


def page_of(renderer, doc: str, service: str) -> str | None:
    """The slug of the service page of canonical service ``service`` of ``doc``, or None if services.yaml lacks it."""
    if renderer not in _SLUGS:
        _SLUGS[renderer] = {(m["doc"], m["service"]): g["slug"] for g in groups_of(renderer) for m in g["members"]}
    return _SLUGS[renderer].get((doc, service))


def _num(v) -> float | None:
    return None if v is None or (isinstance(v, float) and v != v) else v


def _cores(u: dict, res: dict) -> Fraction | None:
    """Cores used by all replicas of resource row ``res`` per utilization row ``u`` (the backtest's rule), or None."""
    if u.get("observed_abs") is not None and u.get("abs_unit") == "cores":
        return Fraction(str(u["observed_abs"]))
    if u.get("observed_percent") is None or res is None or res.get("replicas") is None:
        return None
    per_pod = res.get("cpu_limit_cores") if u.get("percent_basis") == "limit" else res.get("cpu_request_cores")
    per_pod = per_pod if per_pod is not None else res.get("cpu_cores")
    if per_pod is None:
        return None
    return Fraction(str(u["observed_percent"])) / 100 * res["replicas"] * Fraction(str(per_pod))


def _usable_value(u: dict) -> bool:
    return u["status"] in USABLE and (u.get("observed_percent") is not None or u.get("observed_abs") is not None)


def _observed(scenario: dict, res: dict | None, utils: list[dict]) -> dict:
    """What row ``res`` (None: a container with utilization rows only) used, from its CPU utilization rows ``utils``:
    ``{"best": utilization row or None, "cores": Fraction or None, "left_out": [unusable rows at the sites looked at]}``.
    The sites looked at are the scenario's sites carrying traffic (all printed sites when it names none), and of those
    only the resource row's own site when it has one."""
    traffic = set(scenario.get("sites_with_traffic") or [])
    site = (res or {}).get("site") or ""
    looked = [u for u in utils if (not traffic or not u["site"] or u["site"] in traffic) and (not site or not u["site"] or u["site"] == site)]
    looked = [u for u in looked if u["status"] != "not_applicable"]
    good = [u for u in looked if _usable_value(u)]
    left_out = [u for u in looked if not _usable_value(u)]
    best, best_cores = None, None
    for u in good:
        c = _cores(u, res)
        key = (c if c is not None else -1, u.get("observed_percent") or 0)
        if best is None or key > ((best_cores if best_cores is not None else -1), best.get("observed_percent") or 0):
            best, best_cores = u, c
    return {"best": best, "cores": best_cores, "left_out": left_out}


def _rows_by_service(renderer) -> dict:
    """Every resources.csv row and CPU utilization row as dicts, by (doc, service); computed once per Renderer."""
    if renderer not in _ROWS:
        res, util = renderer.atlas.frames["resources"], renderer.atlas.frames["utilization"]
        out: dict[str, dict] = {"resources": {}, "utilization": {}}
        for kind, recs in (("resources", records(res, RES_COLS)), ("utilization", records(util[util["metric"] == "cpu"], UTIL_COLS))):
            for x in recs:
                out[kind].setdefault((x["doc"], x["service"]), []).append(x)
        _ROWS[renderer] = out
    return _ROWS[renderer]


def service_rows(renderer, g: dict) -> list[dict]:
    """Every row of service page ``g`` (``groups``), in scenario order: one per resource row as printed, then one per
    container of a scenario with CPU utilization rows but no resource row.

    Each row: ``scenario`` (record), ``product`` (short name), ``load`` (per site, or None), ``unit``, ``res`` (the
    resources.csv row as a dict, or None), ``util`` (the utilization row used, or None), ``site_used``, ``cores``
    (cores used, float, or None when not counted), ``per_1k`` (cores per 1K of load per site, or None), ``mark``
    ('ok', 'corrected', 'partial' for plotted values; 'flagged', 'missing' for a resource row not counted; 'none'
    without a usable observation), ``why`` (a sentence for unplotted rows), ``errata`` (ids cited by the rows used
    or left out), ``left_out`` (utilization rows at the sites looked at that are not usable)."""
    a = renderer.atlas
    index = _rows_by_service(renderer)
    res_rows = [x for m in g["members"] for x in index["resources"].get((m["doc"], m["service"]), [])]
    util_rows = [x for m in g["members"] for x in index["utilization"].get((m["doc"], m["service"]), [])]
    names = {s["id"]: s["short_name"] for s in a.sources}
    scen_order = {s["id"]: i for i, s in enumerate(a.scenarios)}
    by_key: dict[tuple, list[dict]] = {}
    for u in util_rows:
        by_key.setdefault((u["scenario"], u["service"], u["container"]), []).append(u)
    out = []
    seen = set()

    def row(res: dict | None, utils: list[dict], sid: str) -> dict:
        s = a.scenario(sid)
        load = s["load"].get("per_site")
        obs = _observed(s, res, utils)
        best, cores = obs["best"], obs["cores"]
        errata = []
        for x in ([res] if res else []) + ([best] if best else []) + obs["left_out"]:
            errata += [e for e in errata_cited(x.get("note")) if e not in errata]
        status = res["status"] if res else "ok"
        if res and status not in USABLE:
            mark, why = status, f"not counted (resource row {status})"
            cores = None
        elif best is None:
            mark = "none"
            site = (res or {}).get("site")
            why = ("not counted (observed CPU " + "/".join(sorted({u["status"] for u in obs["left_out"]})) + ")" if obs["left_out"]
                   else "no observed CPU printed" if not utils
                   else f"{site} carries no traffic in this run" if site and site not in (s.get("sites_with_traffic") or [])
                   else "no observed CPU at a traffic site")
        elif cores is None:
            mark = "none"
            why = ("not computed (no resource row)" if res is None
                   else "not computed (replicas only as min and max)"
                   if res.get("replicas") is None and (res.get("replicas_min") is not None or res.get("replicas_max") is not None)
                   else "not computed (no replicas printed)" if res.get("replicas") is None
                   else "not computed (no CPU per pod printed)")
        elif obs["left_out"] and any(u["site"] != best["site"] for u in obs["left_out"]):
            mark, why = "partial", ""
        elif status == "corrected" or best["status"] == "corrected":
            mark, why = "corrected", ""
        else:
            mark, why = "ok", ""
        return {"scenario": s, "product": names.get(s["doc"], s["doc"]), "load": load, "unit": s["load"].get("unit"),
                "res": res, "util": best, "site_used": best["site"] if best else None, "left_out": obs["left_out"],
                "cores": float(cores) if cores is not None and mark in ("ok", "corrected", "partial") else None,
                "per_1k": (float(cores / Fraction(str(load)) * 1000) if cores is not None and load and mark in ("ok", "corrected", "partial") else None),
                "mark": mark, "why": why, "errata": errata}

    for res in res_rows:
        k = (res["scenario"], res["service"], res["container"])
        seen.add(k)
        out.append(row(res, by_key.get(k, []), res["scenario"]))
    for k, utils in by_key.items():
        if k not in seen:
            out.append(row(None, utils, k[0]))
    out.sort(key=lambda x: (scen_order.get(x["scenario"]["id"], 0), (x["res"] or {}).get("table_id") or "~",
                            (x["res"] or {}).get("row") or 0, x["res"] is None))
    return out


def _scenario_label(row: dict) -> str:
    s = row["scenario"]
    return f'{row["product"]} {s["section"]}: {s.get("short_title") or s["title"]}'


def chart_points(rows: list[dict], root: str = "../../") -> list[dict]:
    """One chart point per row with cores used (``service_rows``): load per site, cores, cores per 1K, product and
    container series, how it was counted (``MARK_LABEL``), the tables it comes from and its scenario page's URL
    (relative to a page ``root`` below the site root)."""
    pts = []
    for x in rows:
        if x["cores"] is None or x["load"] is None:
            continue
        s, res, u = x["scenario"], x["res"] or {}, x["util"] or {}
        container = res.get("container") or u.get("container") or ""
        kind = "sidecar" if container == "istio-proxy" else "service" if container == "app" else container
        left = ", ".join(f'{v["site"]} {v["status"]}' for v in x["left_out"])
        pts.append({"scenario": _scenario_label(x), "product": x["product"], "series": f'{x["product"]} {kind}',
                    "container": container, "load": float(x["load"]), "unit": x["unit"], "cores": round(x["cores"], 3),
                    "per_1k": round(x["per_1k"], 3) if x["per_1k"] is not None else None,
                    "site": x["site_used"] or "", "percent": u.get("observed_percent"),
                    "counted": MARK_LABEL[x["mark"]] + (f" ({left})" if left and x["mark"] == "partial" else "")
                               + (f" ({', '.join(x['errata'])})" if x["errata"] else ""),
                    "mark": MARK_LABEL[x["mark"]], "partial": x["mark"] == "partial",
                    "source": (f'Table {res["table_id"]} row {res["row"]}; ' if res else "") + f'Table {u.get("table_id")} row {u.get("row")}',
                    "url": f'{root}products/{s["doc"]}/{s["id"]}/'})
    return pts


def chart_spec(title: str, pts: list[dict]) -> dict:
    """Vega-Lite spec: cores used against load per site for ``pts`` (chart_points), coloured by product and
    container, shaped by how the value was counted; each point links to its scenario (``href``)."""
    marks = [m for m in MARK_SHAPE if any(p["mark"] == m for p in pts)]
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": f"CPU cores used by {title} against the scenario's load per site; each point links to its scenario.",
        "width": "container", "height": 300, "autosize": {"type": "fit", "contains": "padding"},
        "data": {"values": pts},
        "mark": {"type": "point", "filled": False, "strokeWidth": 2, "size": 90, "opacity": 0.85, "tooltip": True, "cursor": "pointer"},
        "encoding": {
            "x": {"field": "load", "type": "quantitative", "title": "Load per site", "scale": {"zero": True},
                  "axis": {"labelFlush": True, "tickCount": 5, "format": "~s"}},
            "y": {"field": "cores", "type": "quantitative", "title": "CPU used (cores)"},
            "color": {"field": "series", "type": "nominal", "title": "Product and container",
                      "legend": {"orient": "bottom", "direction": "horizontal", "columns": 2}},
            # a lower bound is drawn hollow, as on the home chart
            "fill": {"condition": {"test": "datum.partial", "value": "transparent"}, "field": "series", "type": "nominal", "legend": None},
            "shape": {"field": "mark", "type": "nominal", "title": "Value",
                      "scale": {"domain": marks, "range": [MARK_SHAPE[m] for m in marks]},
                      "legend": {"orient": "bottom", "direction": "horizontal", "columns": 1}},
            "href": {"field": "url", "type": "nominal"},
            "tooltip": [{"field": "scenario", "title": "Scenario"}, {"field": "container", "title": "Container"},
                        {"field": "load", "title": "Load per site", "format": ","}, {"field": "unit", "title": "Unit"},
                        {"field": "site", "title": "Busiest traffic site"}, {"field": "percent", "title": "Observed CPU %"},
                        {"field": "cores", "title": "CPU used (cores)"}, {"field": "per_1k", "title": "Cores per 1K"},
                        {"field": "counted", "title": "Value"}, {"field": "source", "title": "From"}],
        },
        # how a reader's own deployment is drawn over the chart (atlas/pages/yours.py; charts.js adds it from a file)
        "usermeta": {"yours": yours_layer("load", "cores", [
            {"field": "scenario", "title": "Scenario"}, {"field": "load", "title": "Load per site", "format": ","},
            {"field": "unit", "title": "Unit"}, {"field": "cores", "title": "CPU used (cores)"},
            {"field": "per_1k", "title": "Cores per 1K"}])},
    }


def _errata_links(renderer, ids: list[str], root: str) -> str:
    byid = {e["id"]: e for e in renderer.atlas.errata}
    return ", ".join(f'<a href="{esc(root + erratum_url(renderer, byid[i]))}">{esc(i)}</a>' if i in byid else esc(i) for i in ids)


def _cell(v, raw=None) -> str:
    v = _num(v)
    shown = esc(fmt(v)) if v is not None else ""
    extra = f' <span class="atlas-raw" title="as printed">{esc(raw)}</span>' if raw and raw != shown and str(raw).replace(" ", "") != shown else ""
    return f"<td>{shown}{extra}</td>"


def table(renderer, rows: list[dict], root: str = "../../") -> str:
    """The service page's table: one line per row of ``service_rows`` with its scenario (link), load, table and row
    (link to the table on the scenario page), site, container, replicas, CPU and memory request and limit, observed
    CPU and HPA target at the busiest traffic site, cores used, cores per 1K and the status with its errata."""
    head = ["Scenario", "Load per site", "Table, row", "Site", "Container", "Replicas", "CPU request (cores)", "CPU limit (cores)",
            "Memory request (GiB)", "Memory limit (GiB)", "Observed CPU (%)", "HPA target (%)", "CPU used (cores)",
            "Cores used per 1K load", "Status"]
    body = []
    for x in rows:
        s, res, u = x["scenario"], x["res"], x["util"]
        url = f'{root}products/{s["doc"]}/{s["id"]}/'
        src = res or u or (x["left_out"][0] if x["left_out"] else None)
        where = (f'<a href="{esc(url)}#{anchor(src["table_id"])}">{esc(src["table_id"])}</a>, row {esc(src["row"])}'
                 if src else "")
        if u and res is not None and u["table_id"] != res["table_id"]:
            where += f'; CPU: <a href="{esc(url)}#{anchor(u["table_id"])}">{esc(u["table_id"])}</a>, row {esc(u["row"])}'
        cells = [f'<td><a href="{esc(url)}">{esc(_scenario_label(x))}</a></td>',
                 f'<td>{esc(fmt(x["load"]))} {esc(x["unit"])}</td>' if x["load"] is not None else '<td><span class="atlas-missing">not stated</span></td>',
                 f"<td>{where}</td>",
                 f'<td>{esc((res or {}).get("site") or "")}</td>',
                 f'<td>{esc((res or u or src or {}).get("container", ""))}</td>']
        if res:
            rep = _cell(res["replicas"], res.get("raw_replicas"))
            if res.get("replicas_min") is not None or res.get("replicas_max") is not None:
                rep = rep[:-5] + f' <span class="atlas-raw" title="HPA minimum and maximum replicas">min {esc(res.get("replicas_min"))}, max {esc(res.get("replicas_max"))}</span></td>'
            if res.get("cpu_request_cores") is None and res.get("cpu_limit_cores") is None and res.get("cpu_cores") is not None:
                cpu = [f'<td>{esc(fmt(res["cpu_cores"]))} <span class="atlas-raw" title="the table prints one CPU value per pod">request or limit: not stated</span></td>', "<td></td>"]
            else:
                cpu = [_cell(res.get("cpu_request_cores")), _cell(res.get("cpu_limit_cores"))]
            if res.get("mem_request_gib") is None and res.get("mem_limit_gib") is None and res.get("mem_gib") is not None:
                mem = [f'<td>{esc(fmt(res["mem_gib"]))} <span class="atlas-raw" title="the table prints one memory value per pod">request or limit: not stated</span></td>', "<td></td>"]
            else:
                mem = [_cell(res.get("mem_request_gib")), _cell(res.get("mem_limit_gib"))]
            cells += [rep, *cpu, *mem]
        else:
            cells += ['<td><span class="atlas-missing">not in the resource tables</span></td>', "<td></td>", "<td></td>", "<td></td>", "<td></td>"]
        if u:
            pct = u.get("observed_percent")
            shown = (f'{esc(fmt(pct))} <span class="atlas-raw" title="site">{esc(u["site"])}</span>' if pct is not None
                     else f'{esc(fmt(u["observed_abs"]))} {esc(u["abs_unit"])} <span class="atlas-raw" title="site">{esc(u["site"])}</span>')
            cells += [f"<td>{shown}</td>", _cell(u.get("target_percent"))]
        elif x["left_out"]:
            lo = x["left_out"][0]
            cells += [f'<td class="atlas-status-{esc(lo["status"])}"><span class="atlas-missing">{esc(lo["status"])}'
                      f'{" (" + esc(lo.get("raw")) + ")" if lo.get("raw") else ""}</span></td>', "<td></td>"]
        else:
            cells += ['<td><span class="atlas-missing">not printed</span></td>', "<td></td>"]
        least = ('<abbr class="atlas-flag atlas-at-least" title="at least: the value at another traffic site is not usable">≥&#8239;</abbr>'
                 if x["mark"] == "partial" else "")
        if x["cores"] is not None:
            cells += [f'<td>{least}{esc(fmt(round(x["cores"], 3)))}</td>',
                      f'<td>{least}{esc(fmt(round(x["per_1k"], 3)))}</td>' if x["per_1k"] is not None else "<td></td>"]
        else:
            cells += [f'<td><span class="atlas-missing">{esc(x["why"])}</span></td>', "<td></td>"]
        st = (res or {}).get("status") or (u or {}).get("status") or (x["left_out"][0]["status"] if x["left_out"] else "")
        text = {"partial": f"ok; at least: {', '.join(v['site'] + ' ' + v['status'] for v in x['left_out'])}"}.get(x["mark"], st)
        errs = _errata_links(renderer, x["errata"], root)
        cells.append(f'<td>{esc(text)}{" (" + errs + ")" if errs else ""}</td>')
        cls = x["mark"] if x["mark"] in ("flagged", "missing") else "corrected" if x["mark"] == "corrected" else x["mark"]
        body.append(f'<tr class="atlas-status-{esc(cls)}" data-scenario="{esc(s["id"])}" data-mark="{esc(x["mark"])}">' + "".join(cells) + "</tr>")
    # data-search-exclude: the numbers are searched on the scenario pages they come from; here they would only make
    # (boosted) service pages outrank scenario pages for a scenario's own title
    return ('<div class="atlas-table-wrap" data-search-exclude><table class="atlas-data atlas-service-rows" data-atlas-table="service-rows"><thead><tr>'
            + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr></thead><tbody>" + "".join(body) + "</tbody></table></div>")


def service_page(renderer, sl: str) -> str:
    """The body of service page ``sl`` (a slug of ``groups``): who it is in each product, the chart of cores used
    against load, and every row in a table. Raises KeyError for an unknown slug."""
    g = next((x for x in groups_of(renderer) if x["slug"] == sl), None)
    if g is None:
        raise KeyError(f"unknown service page {sl!r}")
    rows = service_rows(renderer, g)
    names = {s["id"]: s["short_name"] for s in renderer.atlas.sources}
    out = [f"# {md_esc(g['title'])}", ""]
    facts = []
    for m in g["members"]:
        shown = m.get("display_name") or m["service"]
        facts.append(f'<tr><th>{esc(names.get(m["doc"], m["doc"]))}</th><td><a href="../../products/{esc(m["doc"])}/">{esc(shown)}</a>'
                     + (f' (<code>{esc(m["service"])}</code>)' if m.get("display_name") and m["display_name"] != m["service"] else "")
                     + f'; {esc(m["component"])}, {esc(m["role"])}' + (f'. {esc(m["note"])}' if m.get("note") else "") + "</td></tr>")
    printed = [n for n in g["names"]]
    facts.append('<tr><th>Printed as</th><td>' + ", ".join(f"<code>{esc(n)}</code>" for n in printed) + "</td></tr>")
    scen = list(dict.fromkeys(x["scenario"]["id"] for x in rows))
    facts.append(f'<tr><th>Scenarios</th><td>{len(scen)}</td></tr>')
    out.append('<table class="atlas-facts"><tbody>' + "".join(facts) + "</tbody></table>")
    out.append("")
    if not rows:
        out.append('<p class="atlas-missing">The guide prints no per-service resource or utilization table for this service; '
                   'its figures are on the product and scenario pages.</p>')
        return "\n".join(out)
    pts = chart_points(rows)
    if pts:
        cid = f"svc-{sl}"
        unplotted = [x for x in rows if x["cores"] is None]
        out += ["## CPU used against load", "",
                '<figure class="atlas-figure">',
                f'<div class="atlas-chart atlas-chart-service" data-chart-id="{esc(cid)}" role="img" aria-label="Scatter chart: CPU cores '
                f'used by {esc(g["title"])} against each scenario\'s load per site, one point per row of the table below, which holds the same data."></div>',
                f'<script type="application/json" id="{esc(cid)}">{json_for_html(chart_spec(g["title"], pts))}</script>',
                '<figcaption class="atlas-note">CPU used by all replicas of the container at the busiest site carrying traffic, '
                'against the scenario\'s load per site; colour is the product and container, a hollow triangle a lower bound '
                '(the value at another traffic site is flagged or missing), a diamond a value an erratum corrected; select a point '
                'to open its scenario.'
                + (f" Not plotted: {len(unplotted)} {'row' if len(unplotted) == 1 else 'rows'} without a usable value "
                   "(flagged, missing or no observed CPU; named in the table)." if unplotted else "")
                + "</figcaption>", "</figure>",
                yours_control(cid, renderer.bundle.get("build_id") or "", "service", "../../", sl, g["title"]), ""]
    out += ["## Every scenario", "", table(renderer, rows), "",
            '<p class="atlas-note">One line per resource-allocation row as printed (and per container with observed CPU but no '
            'resource row). Observed CPU and the HPA target are at the busiest site carrying traffic; CPU used is that '
            'percentage of the per-pod request (of the limit where the table says so) times the replicas, or the cores as '
            'printed; cores per 1K divide it by the scenario\'s load per site. A row flagged by an erratum or printed without '
            'a value is shown with its status and not counted. Computed from the curated data, not printed in the guide.</p>']
    return "\n".join(out)


def front_matter(g: dict) -> str:
    """Front matter of a service page: title, charts (Vega) and a search boost so that a service's name finds its
    page first (Material's search ``boost``)."""
    import json
    # the title is the guide's text, and the theme writes it into <title> and the search index as it is: escaped here
    return (f"---\ntitle: {json.dumps(esc(g['title']))}\ncharts: true\nhide:\n- toc\nsearch:\n  boost: 2\n---\n")


def index_page(renderer) -> str:
    """The index of services (``services/``): one line per page, by title, with products, component, roles, scenarios
    counted and the names as printed, filterable (tables.js)."""
    names = {s["id"]: s["short_name"] for s in renderer.atlas.sources}
    res, util = renderer.atlas.frames["resources"], renderer.atlas.frames["utilization"]
    appear: dict[tuple, set] = {}
    for df in (res, util):
        for d, sv, sc in zip(df["doc"], df["service"], df["scenario"]):
            appear.setdefault((d, sv), set()).add(sc)
    out = ["# Services", "",
           '<p class="atlas-note">Every canonical service of the guides (services.yaml), one page each with every scenario it '
           'appears in: replicas, CPU and memory request and limit, observed CPU, HPA target, load and cores per 1K. Services of '
           'different products share a page when their names match (case, spaces and hyphens aside). Type in the filter to '
           'find a service by any name it is printed as.</p>', ""]
    body = []
    for g in sorted(groups_of(renderer), key=lambda g: g["title"].lower()):
        scen = set().union(*(appear.get((m["doc"], m["service"]), set()) for m in g["members"]))
        body.append(f'<tr data-slug="{esc(g["slug"])}"><td><a href="{esc(g["slug"])}/">{esc(g["title"])}</a></td>'
                    f'<td>{esc(", ".join(dict.fromkeys(names.get(m["doc"], m["doc"]) for m in g["members"])))}</td>'
                    f'<td>{esc(g["section"])}</td><td>{esc(", ".join(dict.fromkeys(m["role"] for m in g["members"])))}</td>'
                    f'<td>{len(scen)}</td><td class="atlas-names">{", ".join(f"<code>{esc(n)}</code>" for n in g["names"])}</td></tr>')
    out.append('<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="services"><thead><tr><th>Service</th>'
               '<th>Products</th><th>Component</th><th>Role</th><th>Scenarios with rows</th><th>Printed as</th></tr></thead><tbody>'
               + "".join(body) + "</tbody></table></div>")
    return "\n".join(out)


def nav(renderer) -> list[str]:
    """Nav lines of the services section (literate-nav): the index only. The hundred-odd service pages are reached
    from the index, from the scenario tables and by search; listed in the nav they would add about 40 KB to every
    page of the site."""
    return ["* [Services](services/index.md)"]
