"""The cross-product ranking (docs/tools/ranking.md, ``{{ ranking_page() }}``): "which services cost the most CPU per
1K of load?", one row per service of every run with resource tables, filterable by product, call model, ASM,
deployment mode and component, sortable, with a chart of the top of the ranking and two downloads (as shown, and tidy).

Every figure comes from the one definition the calculators and the other pages use; nothing is counted anew:

* requested CPU and memory: ``calculators.sidecars.sidecar_requests`` (the ASM page's, the product tables' and the
  footprint's count): one site carrying traffic, every container of the pod (sidecars included), replicas x request
  per container (the one value printed where a table does not say request or limit), a replica count printed as a
  min-max range at its max end;
* CPU used: ``calculators.runs.cores_used`` (the footprint's, the evidence's and the backtest's), summed over the pod's
  containers that have a usable CPU reading: at the busiest site carrying traffic, a percentage of the per-pod request
  (of the limit where the table says so) times the replicas, or cores as printed;
* per 1K of load: the figure divided by the run's load per site carrying traffic, times 1,000 (as the service pages
  compute it, ``atlas.pages.services``), in the run's own load unit (TPS for Policy, BSF and NEF);
* what is left out: ``calculators.partial.exclusions`` (rows flagged by an erratum or printed without a value) and the
  requests ``sidecar_requests`` could not count: a service with such a row is shown with its figure marked "at least",
  a service with no usable row at all is shown with the reason and no figure; a CPU-used figure that misses a container
  with a CPU request (no reading printed, or its reading flagged) is marked "at least" too, one whose pods are counted
  at the max of a printed replica range "at most" (fewer may have run: the backtest leaves such readings out), and one
  with both "neither" (``used_bound``).

The page holds the first FIRST_ROWS rows (the top of the ranking); the others load on the reader's first use of the
table (docs/assets/js/tablerows.js, from ``rows_file``), so that the page stays within the 400 KB a page may move before
use. The "as shown" download (``atlas.pages.shown.shown_tables``) is the whole table.

Test stubs and simulators are not the product (``calculators.partial.TEST_COMPONENTS``): left out, as in every total.
DSR and ShCM size by MP or Rhino node, not by pod: they have no resource tables per service and no row here.
Memory used is not ranked: the guides print observed memory as a share, in GB in some tables and GiB in others.
"""
from __future__ import annotations

import io
from fractions import Fraction

from calculators import runs
from calculators.formatting import csv_writer, fmt, tidy_number
from calculators.inputs import exact
from calculators.partial import TEST_COMPONENTS, exclusions
from calculators.sidecars import sidecar_requests

from ..html import anchor, esc, json_for_html
from .home import ASM_LABEL
from ..downloads import built
from .views import facet_bar, shown_link

TABLE = "service-ranking"
"""The ranking table's ``data-atlas-table`` key (chips and views in the address: ``?c.service-ranking.product=...``)."""
VIEW = ("views", "ranking", "services")
"""The key of its "as shown" CSV in ``atlas.pages.shown.shown_tables`` (downloads/views/ranking/services.csv)."""
TIDY = "views/ranking/services-tidy.csv"
"""Its tidy download under downloads/: one line per row with plain numbers, units, ids and sources."""
NOT_STATED = "not stated"

FACETS = (("product", "Product"), ("call_model", "Call model"), ("asm", "ASM"), ("mode", "Mode"), ("component", "Component"))
"""The chip groups: (facet, label)."""
FACET_COLS = {"product": 4, "call_model": 6, "asm": 7, "mode": 8, "component": 9}
"""The column of the table whose cell text is each facet's value (rows carry no facet attribute: ``views.facet_bar``)."""
HEAD = ["Service", "CPU requested per 1K load (cores)", "CPU used per 1K load (cores)", "Memory requested per 1K load (GiB)",
        "Product", "Run", "Call model", "ASM", "Mode", "Component", "Load per site", "Replicas", "CPU requested (cores)",
        "CPU used (cores)", "Memory requested (GiB)", "Not counted"]
"""The table's columns, in order (the "as shown" CSV's header): the service and its three figures per 1K first (what a
phone shows without scrolling sideways), then the run it comes from, then the figures per site."""
CHART_TOP = 25
"""Rows the chart shows: the top of the ranking by CPU requested per 1K of load."""


def _per_1k(v: Fraction | None, load) -> Fraction | None:
    """``v`` per 1K of ``load`` (per site, in the run's unit): v / load x 1000, exact; None without a figure or load."""
    return None if v is None or not load else v / exact(load) * 1000


def _sources(where: list[tuple[str, int]]) -> str:
    """'Table 3-25 rows 2, 3; Table 3-26 row 1' from (table id, row) pairs, in order, each once."""
    by: dict[str, list] = {}
    for t, row in where:
        if row not in by.setdefault(t, []):
            by[t].append(row)
    return "; ".join(f"Table {t} row{'s' if len(rs) > 1 else ''} {', '.join(str(x) for x in rs)}" for t, rs in by.items())


def run_rows(bundle: dict, sid: str, names: dict[str, str], components: dict[tuple, str]) -> list[dict]:
    """The ranking's rows of run ``sid`` (a scenario with resource rows and a load per site), one per production service.

    ``names``: document id -> product short name; ``components``: (doc, service) -> services.yaml component, for a
    service known only from its excluded rows. Each row: ``doc``, ``scenario``, ``section``, ``product``, ``call_model``
    (id or None), ``call_model_name`` (or NOT_STATED), ``asm`` (ASM_LABEL text), ``mode``, ``component``, ``service``,
    ``load`` (per site, float), ``unit``, ``replicas`` (the pod's, a range at its max end; None when not counted),
    ``replica_range`` ("2-27" or ''), ``cpu_request``, ``mem_request``, ``cpu_used`` (Fraction: cores, GiB; None when not
    counted), ``cpu_request_per_1k``, ``mem_request_per_1k``, ``cpu_used_per_1k`` (Fraction or None), ``request_least``
    and ``used_least`` (the figure leaves something out), ``used_bound`` ('' exact as far as printed, 'at least' (a
    container's reading missing or flagged), 'at most' (pods counted at the max of a printed replica range), 'neither'
    (both)), ``request_sources`` and ``used_sources`` (tables and rows),
    ``request_table`` and ``used_table`` (the table the figure links to), ``used_site``, ``containers_used`` (the
    containers summed), ``not_counted`` (one sentence: what is left out and why, '' when nothing), ``errata`` (ids).
    Raises ValueError for a scenario not in the bundle."""
    s = runs.scenario(bundle, sid)
    if s is None:
        raise ValueError(f"ranking: unknown scenario {sid!r}")
    req = sidecar_requests(bundle, sid)
    used = runs.cores_used(bundle, sid)
    pods = runs.pods(bundle, sid)
    load = s.get("load_per_site")
    traffic = set(s.get("sites_with_traffic") or [])
    ex_res: dict[str, list[dict]] = {}
    for x in req["excluded"]["rows"]:
        ex_res.setdefault(x["service"], []).append(x)
    ex_util: dict[tuple, list[dict]] = {}
    for x in exclusions(bundle, sid, "utilization")["rows"]:
        if x["metric"] == "cpu" and (not traffic or not x["site"] or x["site"] in traffic):
            ex_util.setdefault((x["service"], x["container"]), []).append(x)
    base = {"doc": s["doc"], "scenario": sid, "section": s.get("section") or "", "product": names.get(s["doc"], s["doc"]),
            "call_model": s.get("call_model"), "call_model_name": s.get("call_model_name") or NOT_STATED,
            "asm": ASM_LABEL.get(s.get("asm"), s.get("asm") or NOT_STATED), "mode": s.get("deployment_mode") or NOT_STATED,
            "load": float(load) if load else None, "unit": s.get("load_unit") or ""}
    out = []
    for svc in req["services"]:
        component, service = svc["component"], svc["service"]
        containers = pods[(component, service)]
        replicas = runs.base_replicas(runs.main_container(containers), containers)[0]
        rng = svc["replica_range"]
        left: list[str] = []
        errata: list[str] = []
        for x in ex_res.get(service, []):
            left.append(f"Table {x['table_id']} row {x['row']} ({x['container']}{', ' + x['site'] if x['site'] else ''}): {x['status']}")
            errata += [e for e in x["errata"] if e not in errata]
        for u in req["uncounted"]:
            if u["service"] == service and u["component"] == component:
                left.append(f"Table {u['table_id']} row {u['row']} ({u['container']}): {u['reason']}")
        parts, missed, stand_in, used_where = [], [], [], []
        for c in containers:
            got = used.get((component, service, c["container"]))
            flagged = ex_util.get((service, c["container"]), [])
            for x in flagged:
                left.append(f"CPU reading of {x['container']} at {x['site'] or 'no site'} (Table {x['table_id']} row {x['row']}): {x['status']}")
                errata += [e for e in x["errata"] if e not in errata]
            if got is not None:
                parts.append((c["container"], got))
                used_where.append((got["table_id"], got["row"]))
                if flagged:
                    stand_in.append(c["container"])  # another traffic site's reading stands in for the flagged one
            elif (c.get("cpu_request_cores") or c.get("cpu_cores")) and (c.get("replicas") if c.get("replicas") is not None else replicas):
                missed.append(c["container"])  # it requests CPU, but no usable reading of it is printed
        cpu_used = sum((p["cores"] for _, p in parts), Fraction(0)) if parts else None
        if parts and missed:
            left.append("CPU used leaves out " + ", ".join(dict.fromkeys(missed)) + " (no usable reading printed)")
        if parts and stand_in:
            left.append("CPU used of " + ", ".join(dict.fromkeys(stand_in)) + " read at another traffic site")
        missed += stand_in
        # a percentage of pods whose count is printed as a min-max range is counted at the max end (runs.cores_used): if
        # fewer pods ran, they used fewer cores, so the figure is an upper bound (the backtest leaves such readings out)
        ranged = [n for n, p in parts if p.get("range")]
        if ranged:
            left.append("CPU used of " + ", ".join(ranged) + f" counted at the max of the replica range {rng['min']}-{rng['max']}"
                        if rng else "CPU used counted at the max of a replica range")
        cpu_req, mem_req = exact(svc["cpu_pod"]), exact(svc["mem_pod"])
        out.append({**base, "component": component, "service": service, "replicas": replicas,
                    "replica_range": f"{rng['min']}-{rng['max']}" if rng else "",
                    "cpu_request": cpu_req, "mem_request": mem_req, "cpu_used": cpu_used,
                    "cpu_request_per_1k": _per_1k(cpu_req, load), "mem_request_per_1k": _per_1k(mem_req, load),
                    "cpu_used_per_1k": _per_1k(cpu_used, load),
                    "request_least": bool(svc["partial"]), "used_least": bool(parts and missed),
                    "used_bound": ("neither" if missed and ranged else "at least" if missed else "at most" if ranged else "") if parts else "",
                    "request_sources": _sources([tuple(x.split("/", 1)) for x in svc["sources"]]),
                    "request_table": svc["sources"][0].split("/", 1)[0] if svc["sources"] else "",
                    "used_sources": _sources(used_where), "used_table": used_where[0][0] if used_where else "",
                    "used_site": ", ".join(dict.fromkeys(p["site"] for _, p in parts if p.get("site"))),
                    "containers_used": [n for n, _ in parts], "not_counted": "; ".join(left), "errata": errata})
    counted = {svc["service"] for svc in req["services"]}
    for service, xs in ex_res.items():
        if service in counted:
            continue
        comp = next((x.get("component") for x in xs if x.get("component")), None) or components.get((s["doc"], service), "")
        if comp in TEST_COMPONENTS:
            continue
        errata = list(dict.fromkeys(e for x in xs for e in x["errata"]))
        out.append({**base, "component": comp, "service": service, "replicas": None, "replica_range": "",
                    "cpu_request": None, "mem_request": None, "cpu_used": None,
                    "cpu_request_per_1k": None, "mem_request_per_1k": None, "cpu_used_per_1k": None,
                    "request_least": False, "used_least": False, "used_bound": "",
                    "request_sources": _sources([(x["table_id"], x["row"]) for x in xs]), "request_table": xs[0]["table_id"],
                    "used_sources": "", "used_table": "", "used_site": "", "containers_used": [],
                    "not_counted": "no usable resource row: " + "; ".join(
                        f"Table {x['table_id']} row {x['row']} ({x['container']}{', ' + x['site'] if x['site'] else ''}): {x['status']}"
                        for x in xs), "errata": errata})
    return out


def ranking_rows(renderer) -> list[dict]:
    """Every row of the ranking (``run_rows`` of each run with resource rows and a load per site), ranked: CPU requested
    per 1K of load, highest first, rows without a figure last (then by run and service, in data order). Computed once
    per Renderer."""
    cached = getattr(renderer, "_ranking_rows", None)
    if cached is not None:
        return cached
    b = renderer.bundle
    names = {s["id"]: s["short_name"] for s in b["sources"]}
    components = {(x["doc"], x["service"]): x["component"] for x in b["services"]}
    have = runs.index(b)["resources"]
    rows = []
    for s in b["scenarios"]:
        if s["id"] in have and s.get("load_per_site"):
            rows += run_rows(b, s["id"], names, components)
    order = {id(x): i for i, x in enumerate(rows)}
    rows.sort(key=lambda x: (x["cpu_request_per_1k"] is None, -(x["cpu_request_per_1k"] or 0), order[id(x)]))
    renderer._ranking_rows = rows
    return rows


USED_MARKS = {"at least": ("≥", "at least: see the last column"), "at most": ("≤", "at most: see the last column"),
              "neither": ("~", "neither a lower nor an upper bound: see the last column")}
"""The mark before a CPU-used figure that is not exact, by its ``used_bound``: (symbol, what it means)."""


def _num(v, digits: int = 3) -> str:
    """A figure as the table shows it: rounded to ``digits`` decimals (``fmt``), '' for None."""
    return "" if v is None else fmt(round(float(v), digits))


def _facets(x: dict) -> dict[str, str]:
    return {"product": x["product"], "call_model": x["call_model_name"], "asm": x["asm"], "mode": x["mode"], "component": x["component"]}


def row_cells(renderer, x: dict, root: str = "../../") -> list[list[list[str]]]:
    """The cells of ranking row ``x`` (``ranking_rows``) in HEAD order, each a list of parts, the one model the page's
    HTML (``cells_html``) and the rows loaded on first use (ROWS_FILE, built the same way in the browser by
    docs/assets/js/tablerows.js) are made from: ``["", text]`` text; ``["a", text, href, title]`` a link (title '' for
    none); ``["mark", symbol, title]`` a bound's mark ("≥" at least, "≤" at most, "~" neither: USED_MARKS); ``["missing",
    text]`` a value not counted, with why;
    ``["raw", text, title]`` the text as printed beside a value. Each requested figure (CPU, per 1K, and memory per 1K)
    links to the run's resource table and each used figure to the utilization table it was read from, the rows in the
    title of the CPU requested's and used's link (the cores; the per-1K figures link to the same tables)."""
    run = f'{root}products/{x["doc"]}/{x["scenario"]}/'
    slug = _service_page(renderer, x["doc"], x["service"])
    name = _display_name(renderer, x["doc"], x["service"])
    req_least = [["mark", "≥", "at least: see the last column"]] if x["request_least"] else []
    used_least = [["mark", *USED_MARKS[x["used_bound"]]]] if x["used_bound"] else []
    reps = [] if x["replicas"] is None else [["", fmt(x["replicas"])]]
    if x["replica_range"]:
        reps += [["", " "], ["raw", f'max of {x["replica_range"]}', "printed as a min-max range, counted at its max end"]]
    if x["cpu_request"] is None:
        req = [[["missing", "not counted"]], []]
        mem = [[], []]
    else:
        req_link = lambda v, title="": ["a", _num(v), f'{run}#{anchor(x["request_table"])}', title]
        req = [req_least + [req_link(x["cpu_request"], x["request_sources"])], req_least + [req_link(x["cpu_request_per_1k"])]]
        mem = [req_least + [["", _num(x["mem_request"])]], req_least + [req_link(x["mem_request_per_1k"])]]
    if x["cpu_used"] is None:
        used = [[["missing", "no reading"]] if x["cpu_request"] is not None else [], []]
    else:
        used_link = lambda v, title="": ["a", _num(v), f'{run}#{anchor(x["used_table"])}', title]
        used = [used_least + [used_link(x["cpu_used"], f'{x["used_sources"]}, {x["used_site"]}')],
                used_least + [used_link(x["cpu_used_per_1k"])]]
    return [[["a", name, f"{root}services/{slug}/", ""]] if slug else [["", name]],
            req[1], used[1], mem[1],
            [["", x["product"]]], [["a", x["section"], run, ""]], [["", x["call_model_name"]]], [["", x["asm"]]], [["", x["mode"]]],
            [["", x["component"]]], [["", f'{fmt(x["load"])} {x["unit"]}']], reps, req[0], used[0], mem[0],
            [["", x["not_counted"]]] if x["not_counted"] else []]


def cells_html(cells: list[list[list[str]]]) -> str:
    """The ``<td>`` elements of one row of ``row_cells``: every text escaped."""
    out = []
    for parts in cells:
        html = []
        for p in parts:
            if p[0] == "":
                html.append(esc(p[1], quote=False))
            elif p[0] == "a":
                html.append(f'<a href="{esc(p[2])}"' + (f' title="{esc(p[3])}"' if p[3] else "") + f">{esc(p[1], quote=False)}</a>")
            elif p[0] == "mark":
                html.append(f'<abbr class="atlas-flag atlas-at-least" title="{esc(p[2])}">{esc(p[1], quote=False)}&#8239;</abbr>')
            elif p[0] == "missing":
                html.append(f'<span class="atlas-missing">{esc(p[1], quote=False)}</span>')
            elif p[0] == "raw":
                html.append(f'<span class="atlas-raw" title="{esc(p[2])}">{esc(p[1], quote=False)}</span>')
            else:
                raise ValueError(f"ranking: unknown cell part {p[0]!r}")
        out.append("<td>" + "".join(html) + "</td>")
    return "".join(out)


def _display_name(renderer, doc: str, service: str) -> str:
    """The service's name as its page titles it (services.yaml ``display_name``, else the canonical name)."""
    if getattr(renderer, "_ranking_names", None) is None:
        renderer._ranking_names = {(s["doc"], s["service"]): s.get("display_name") or s["service"] for s in renderer.atlas.services}
    return renderer._ranking_names.get((doc, service), service)


def _service_page(renderer, doc: str, service: str) -> str | None:
    """The slug of the service page of ``service`` of ``doc`` (``atlas.pages.services.page_of``), or None."""
    from .services import page_of
    return page_of(renderer, doc, service)


FIRST_ROWS = 100
"""Rows the page itself holds: the top of the ranking. The rest load on the reader's first use of the table (chips,
sort, filter, "CSV (as shown)", the button, scrolling to the table's end: docs/assets/js/tablerows.js), so the page
stays under the 400 KB a page may move before use (all 818 rows in the page took it to 690 KB)."""


def table_html(renderer, root: str = "../../", first: int | None = None) -> str:
    """The ranking as an HTML table (``data-atlas-table`` TABLE, columns HEAD) with its chip bar (counts of every row):
    every row (the "as shown" download), or with ``first`` the first ``first`` rows and ``data-atlas-rows`` naming the
    file of the others (``rows_file``: ROWS_FILE, written into ``renderer.files``) with ``data-atlas-rows-total``. ``root``: the relative path
    from the page to the site root."""
    rows = ranking_rows(renderer)
    shown = rows if first is None else rows[:first]
    lazy = ""
    if first is not None and len(rows) > first:
        lazy = f' data-atlas-rows="{esc(root)}{rows_file(renderer, root)}" data-atlas-rows-total="{len(rows)}"'
    body = "".join("<tr>" + cells_html(row_cells(renderer, x, root)) + "</tr>" for x in shown)
    bar = facet_bar(TABLE, list(FACETS), [_facets(x) for x in rows], {"asm": list(ASM_LABEL.values())}, cols=FACET_COLS)
    # data-search-exclude: a service's name in 818 rows would rank this page above the service's own page in search
    return (bar + f'<div class="atlas-table-wrap" data-search-exclude><table class="atlas-data atlas-ranking" data-atlas-table="{TABLE}"{lazy}><thead><tr>'
            + "".join(f"<th>{esc(h)}</th>" for h in HEAD) + "</tr></thead><tbody>" + body + "</tbody></table></div>")


ROWS_FILE = "assets/views/ranking-rows.json"
"""Where the build writes the rows after FIRST_ROWS (path in the docs tree); the page asks for it with its content hash
in the address (``?v=``), as it does the site's scripts, so a cache may keep it for good (Hosting page)."""


def rows_file(renderer, root: str = "../../") -> str:
    """The address of the rows after FIRST_ROWS relative to the site root, ``ROWS_FILE?v=<content hash>``: the file,
    ``{"columns": HEAD, "first": FIRST_ROWS, "rows": [row_cells of each]}``, is written into ``renderer.files`` for the page
    writer. Its links are relative to a page ``root`` below the site root, as the page's."""
    import json
    from ..assets import content_hash
    data = json.dumps({"columns": HEAD, "first": FIRST_ROWS,
                       "rows": [row_cells(renderer, x, root) for x in ranking_rows(renderer)[FIRST_ROWS:]]},
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if hasattr(renderer, "files"):
        renderer.files[ROWS_FILE] = data
    return f"{ROWS_FILE}?v={content_hash(data)}"


TIDY_COLUMNS = ["rank", "doc", "scenario", "section", "product", "call_model_id", "call_model_name", "asm", "deployment_mode",
                "component", "service", "load_per_site", "load_unit", "replicas", "replica_range", "cpu_request_cores",
                "cpu_request_per_1k_cores", "cpu_used_cores", "cpu_used_per_1k_cores", "mem_request_gib", "mem_request_per_1k_gib",
                "request_at_least", "used_bound", "request_sources", "used_sources", "used_site", "containers_used",
                "not_counted", "errata"]
"""Columns of the tidy download: figures unrounded (at most 9 decimals), units in the names, booleans as true/false."""


def tidy_csv(renderer) -> bytes:
    """The ranking's tidy download (TIDY): one line per row of ``ranking_rows`` in rank order, TIDY_COLUMNS, written with
    the site's CSV writer (UTF-8)."""
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(TIDY_COLUMNS)
    for i, x in enumerate(ranking_rows(renderer), 1):
        w.writerow([i, x["doc"], x["scenario"], x["section"], x["product"], x["call_model"] or "", x["call_model_name"], x["asm"],
                    x["mode"], x["component"], x["service"], tidy_number(x["load"]), x["unit"], "" if x["replicas"] is None else x["replicas"],
                    x["replica_range"], tidy_number(x["cpu_request"]), tidy_number(x["cpu_request_per_1k"]), tidy_number(x["cpu_used"]),
                    tidy_number(x["cpu_used_per_1k"]), tidy_number(x["mem_request"]), tidy_number(x["mem_request_per_1k"]),
                    "true" if x["request_least"] else "false", x["used_bound"], x["request_sources"],
                    x["used_sources"], x["used_site"], " ".join(x["containers_used"]), x["not_counted"], " ".join(x["errata"])])
    return buf.getvalue().encode("utf-8")


def chart_spec(rows: list[dict], root: str = "../../", names: dict[tuple, str] | None = None) -> dict:
    """Vega-Lite spec: the first CHART_TOP rows of ``rows`` (ranked) as bars of CPU requested per 1K of load, coloured
    by product, with CPU used per 1K as a tick where a reading exists; a lower bound drawn hollow with the legend saying
    so; each bar links to its run (``href``). ``names``: (doc, service) -> the name shown (default the service)."""
    values = []
    for x in [x for x in rows if x["cpu_request_per_1k"] is not None][:CHART_TOP]:
        label = f'{(names or {}).get((x["doc"], x["service"]), x["service"])} ({x["product"]} {x["section"]})'
        values.append({"label": label, "product": x["product"], "requested": round(float(x["cpu_request_per_1k"]), 3),
                       "used": None if x["cpu_used_per_1k"] is None else round(float(x["cpu_used_per_1k"]), 3),
                       "counted": "at least (a row not counted)" if x["request_least"] else "every row counted",
                       "call_model": x["call_model_name"], "asm": x["asm"], "load": f'{fmt(x["load"])} {x["unit"]}',
                       "url": f'{root}products/{x["doc"]}/{x["scenario"]}/'})
    order = [v["label"] for v in values]
    y = {"field": "label", "type": "nominal", "title": None, "sort": order, "axis": {"labelLimit": 260}}
    tip = [{"field": "label", "title": "Service (run)"}, {"field": "call_model", "title": "Call model"}, {"field": "asm", "title": "ASM"},
           {"field": "load", "title": "Load per site"}, {"field": "requested", "title": "CPU requested per 1K (cores)"},
           {"field": "used", "title": "CPU used per 1K (cores)"}, {"field": "counted", "title": "Requested figure"}]
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": f"The {len(values)} services with the most CPU requested per 1K of load, every run; bars link to their run.",
        "width": "container", "height": {"step": 16},
        "data": {"values": values},
        "layer": [
            {"mark": {"type": "bar", "tooltip": True, "cursor": "pointer", "strokeWidth": 1.5},
             "encoding": {"y": y, "x": {"field": "requested", "type": "quantitative", "title": ["CPU cores per 1K of load", "(requested bar, used tick)"]},
                          "color": {"field": "product", "type": "nominal", "title": "Product", "legend": {"orient": "bottom", "direction": "horizontal"}},
                          "stroke": {"field": "product", "type": "nominal", "legend": None},
                          "fillOpacity": {"field": "counted", "type": "nominal", "legend": None,
                                          "scale": {"domain": ["every row counted", "at least (a row not counted)"], "range": [0.85, 0.15]}},
                          "href": {"field": "url", "type": "nominal"}, "tooltip": tip}},
            {"mark": {"type": "tick", "color": "black", "thickness": 3, "tooltip": True},
             "transform": [{"filter": "datum.used != null"}],
             "encoding": {"y": y, "x": {"field": "used", "type": "quantitative"}, "href": {"field": "url", "type": "nominal"}, "tooltip": tip}},
        ],
    }


def ranking_page(renderer) -> str:
    """The body of the ranking page (``{{ ranking_page() }}``): counts, the chart of the top of the ranking, the table
    with its chips and its downloads (as shown, tidy)."""
    rows = ranking_rows(renderer)
    if not rows:
        return '<p class="atlas-missing">No run of the curated guides prints resource tables per service.</p>'
    runs_n = len({x["scenario"] for x in rows})
    products = ", ".join(dict.fromkeys(x["product"] for x in rows))
    least = sum(1 for x in rows if x["request_least"] or x["used_least"])
    none = sum(1 for x in rows if x["cpu_request"] is None)
    _display_name(renderer, "", "")  # the names, once
    spec = chart_spec(rows, names=renderer._ranking_names)
    out = [f'<p class="atlas-note">{len(rows)} rows: every production service of the {runs_n} runs with resource tables '
           f'({esc(products)}), ranked by CPU requested per 1K of load. {least} rows have a figure that is not exact (≥ at '
           f'least, ≤ at most, ~ neither) and {none} services have no usable row (shown, not counted): the last column says '
           'why.</p>',
           '<figure class="atlas-figure">',
           '<div class="atlas-chart atlas-chart-ranking" data-chart-id="ranking-chart" role="img" aria-label="Bar chart: the '
           f'{len(spec["data"]["values"])} services with the most CPU requested per 1K of load, a tick at the CPU they used; the '
           'table below holds every row."></div>',
           f'<script type="application/json" id="ranking-chart">{json_for_html(spec)}</script>',
           f'<figcaption class="atlas-note">The top {len(spec["data"]["values"])} rows of the table below: the bar is the CPU '
           'requested per 1K of load at one site carrying traffic, the tick the CPU used per 1K where the run printed a reading; '
           'colour is the product; a pale bar is a lower bound (a row of the service is not counted). Select a bar to open its '
           'run. The chart shows every product; the chips filter the table.</figcaption>',
           '</figure>', "",
           table_html(renderer, first=FIRST_ROWS),
           f'<p class="atlas-note atlas-rows-more" data-atlas-for="{TABLE}">The table holds the first {min(FIRST_ROWS, len(rows))} '
           f'rows of {len(rows)}; the others load when you first filter, sort or download it, or scroll to its end. '
           f'<button type="button" class="atlas-more-button atlas-rows-button" data-atlas-for="{TABLE}" hidden>Show all {len(rows)} '
           'rows now</button> Without JavaScript, the CSV below holds every row.</p>',
           '<p class="atlas-download">Download: ' + shown_link(f"../../downloads/{built(renderer).shown[VIEW]}", TABLE)
           + f' · <a class="atlas-download-tidy" href="../../downloads/{TIDY}" download>CSV (tidy: every row, figures '
           'unrounded, units, sources)</a></p>']
    return "\n".join(out)
