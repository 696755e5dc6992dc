"""ShCM (Sh Cache Microservice) sizing: how many Rhino nodes carry a target load,
from the CPU that one node's ShCM JVM used in a benchmark test.

Standard library only: this module runs unchanged in CPython and in Pyodide.

Data: the bundle keys ``shcm_tests`` (one record per row of table
T-rhino-performance, 'Rhino Performance', tests 1..7: SPS, RPS, CPU (average)
as printed in percent and read as cores, heap, server configuration, and the
client latency p50/p99/max of table T-client-latency) and ``shcm_info`` (the
node hardware of table T-hardware, the server configurations of
T-server-configs, the load-profile sentences of T-load-profile, errata).
Units: load in RPS (requests per second) or SPS (sessions per second), CPU in
cores (100 % = one core, shcm-E003) and in percent of the node's vCPUs.

Method:

* One Rhino node is the c5.2xlarge of T-hardware: V = 8 vCPU (read from the
  printed sentence '(8 vCPUs, 16gb RAM)').
* The baseline test measured load L (its printed SPS or RPS, in the unit you
  choose) with the ShCM JVM using k cores on average (CPU (average) / 100).
* **At the measured CPU**: nodes = ceil(T / L).
* **At a CPU ceiling C (percent of the node's V vCPUs)**: a node is assumed to
  carry L x (V x C / 100) / k, so nodes = ceil(T x k / (L x V x C / 100)).
  Linear extrapolation from one test, a planning estimate.
* **No SPS/RPS conversion is made.** The guide says 1 SPS = 1.8 RPS, which its
  own 84 % GET / 11 % PUT / 5 % SUBSCRIBE mix contradicts (shcm-E006); the
  result tables print both SPS and RPS with RPS = 1.8 x SPS. The calculator scales
  the target against the figure printed *in the same unit*, so the ratio never
  enters the result; the RPS figure is only as right as the printed RPS.
* **Spares (N+k)**: added on top; one by default (DEFAULT_SPARE, N+1), so that
  with one node down the others still carry its SPS. The user may set 0.

Limits the result states: the CPU is the ShCM JVM's only, not the host's; in
configurations A and C Cassandra runs on the same server, so its CPU is not in
the figure and the ceiling leaves it unaccounted; config A's latency collapsed at
1200 SPS (test 3) at 330 % CPU, so CPU is not the only limit (shcm-E020).
**Cassandra is not sized** (``not_sized``, every result): the guide prints no CPU
or memory for it, only where it ran (table T-server-configs: one node on the
Rhino server in configs A and C, a replicated 3-node cluster on three servers
of their own in config B) and its disk use (table T-cassandra-disk), so every
result is marked partial: Rhino nodes only.

Errors: every bad input raises ``ShcmError`` (a ValueError) with a message that
says what is wrong: unknown test; a target that is empty, non-numeric,
NaN/infinite, zero or negative; an unknown unit; a ceiling outside (0, 100]; a
spare count that is not a whole number from 0 to MAX_SPARE (empty means
DEFAULT_SPARE); a result above MAX_NODES; a test or node whose needed figures
are missing from the data.
"""
from __future__ import annotations

from fractions import Fraction

from . import catalogue, inputs
from .formatting import escape, fmt
from .sizing import likely_text as sizing_likely_text, band_words, capacity_chart, ceil, cite, frac, held_out_band, list_html, steps_csv, steps_html

MAX_SPARE = 64
"""Most spare nodes accepted (a Benchmark Atlas limit, not a vendor figure)."""
MAX_NODES = 10000
"""A result above 10,000 nodes is refused: the guide tested one Rhino node; a
Benchmark Atlas limit, not a vendor figure."""
NAME = "shcm"
"""This calculator's name: its page (calculators/shcm/), command-line subcommand, downloads and report."""
DEFAULT_SPARE = 1
"""Spare Rhino nodes by default (count): N+1. With a node down the others must carry its SPS, so one node more than
the load needs is deployed; the convention telecom planners engineer to (losing one unit, the rest carry its load
within their ceiling: the atlas's sizing notes, "Telecom engineering conventions"). The guide benchmarks one node and
says nothing about a cluster's failover; the user may set 0."""
SPARE_LABEL = "Spare nodes"
"""How refusals name the spare field (``catalogue.field_of`` maps it to the form's ``spare``)."""
UNITS = {"RPS": ("rps", "requests per second"), "SPS": ("sps", "sessions per second")}
COLOCATED = ("A", "C")


class ShcmError(ValueError):
    """Bad input to the ShCM calculator; the message says what and why."""



def _number(value, name: str, unit: str) -> Fraction:
    """A positive, finite number as an exact Fraction (see calculators.inputs.positive)."""
    return inputs.positive(value, name, unit, ShcmError)


def _ceiling(value) -> Fraction | None:
    return inputs.optional_ceiling(value, ShcmError, " of the node's vCPUs")


def _spare(value) -> int:
    """Spare nodes as typed: a whole number from 0 to MAX_SPARE; empty (or None) means DEFAULT_SPARE."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return DEFAULT_SPARE
    return inputs.spare_count(value, SPARE_LABEL, MAX_SPARE, ShcmError)




def tests(bundle: dict) -> list[dict]:
    """The benchmark tests of T-rhino-performance (bundle ``shcm_tests``), in order."""
    return list(bundle.get("shcm_tests") or [])


def defaults(bundle: dict, scenario: str | None = None) -> dict:
    """Default inputs (strings, as the page's fields hold them): test ``scenario`` at its own measured RPS, no
    ceiling, DEFAULT_SPARE (1) spare node. Without ``scenario``, test 1 (config A). Raises KeyError for an unknown
    ``scenario``."""
    ts = tests(bundle)
    if scenario is not None:
        t = next((x for x in ts if x["id"] == scenario), None)
        if t is None:
            raise KeyError(f"{scenario!r} is not a ShCM test")
    else:
        first = ((bundle.get("examples") or {}).get(NAME) or {}).get("scenario")  # the guide module's EXAMPLES
        t = next((x for x in ts if x["id"] == first), ts[0])
    rps = t["metrics"].get("rps")
    return {"scenario": t["id"], "target": fmt(frac(rps["value"])).replace(",", "") if rps else "", "unit": "RPS",
            "ceiling": "", "spare": str(DEFAULT_SPARE)}


def compute(bundle: dict, scenario: str, target, unit: str = "RPS", cpu_ceiling_percent=None, spare=DEFAULT_SPARE,
            rate_ratio=None) -> dict:
    """Size the Rhino nodes for ``target`` from benchmark test ``scenario``.

    Arguments:
        bundle: the calculator bundle (needs ``shcm_tests`` and ``shcm_info``).
        scenario: a ShCM test id, 'shcm-test-1' .. 'shcm-test-7'.
        target: total load, in ``unit`` (> 0).
        unit: 'RPS' (requests per second) or 'SPS' (sessions per second).
        cpu_ceiling_percent: highest ShCM JVM CPU per node you accept, percent of
            the node's vCPUs (0 < C <= 100); None sizes at the measured load.
        spare: spare nodes added on top (N+k), 0..MAX_SPARE; DEFAULT_SPARE (1, N+1)
            when not given or empty.
        rate_ratio: size as if the node's CPU per SPS were this many times the test's (a ratio of the held-out band,
            printed / predicted): the load per node is divided by it. None: as measured, and the result carries its
            likely range (``likely``: the node counts at the band's two ends).

    Returns a dict: ``inputs``; ``test`` (id, number, titles, config letter and
    description with cites); ``node`` (hardware text, instance, vcpu, cite);
    ``figures`` (measured values used, with table/row/column cites); ``load`` (the
    test's load in the chosen unit), ``other_unit`` (the same test's load in the
    other unit, for information), ``cores`` (JVM cores used), ``node_percent``
    (cores / vCPU, percent); ``nodes_at_measured``; ``rate_at_ceiling`` and
    ``nodes_at_ceiling`` (None without a ceiling); ``needed``, ``total`` (+ spare);
    ``cpu_all``/``cpu_after_loss`` (expected JVM CPU per node, percent of vCPUs);
    ``config_max`` (the highest load tested on the same configuration, with its
    latency); ``not_sized`` (what the result leaves out, each ``{"key", "item",
    "text", "source"}``: the Cassandra database, always) and ``partial`` (True when
    ``not_sized`` is not empty); ``warnings``; ``notes``.

    Raises ShcmError for an unknown test or unit, missing figures and any invalid number.
    """
    t = next((x for x in tests(bundle) if x["id"] == scenario), None)
    if t is None:
        raise ShcmError(f"Unknown scenario {scenario!r}: choose ShCM test 1 to 7.")
    u = str(unit or "").strip().upper()
    if u not in UNITS:
        raise ShcmError(f"Unknown unit {unit!r}: use RPS or SPS.")
    metric = UNITS[u][0]
    other_u = "SPS" if u == "RPS" else "RPS"
    m = t["metrics"]
    for need in (metric, "cpu_cores"):
        if need not in m:
            raise ShcmError(f"Test {t['test']} has no {need} figure in the data; it cannot be sized.")
    info = bundle.get("shcm_info") or {}
    node = info.get("node") or {}
    if not node.get("vcpu"):
        raise ShcmError("The node's vCPU count is not in the data (table T-hardware); the ceiling cannot be applied.")
    value = _number(target, "Target load", u)
    ceiling = _ceiling(cpu_ceiling_percent)
    k = _spare(spare)

    load, cores, vcpu = frac(m[metric]["value"]), frac(m["cpu_cores"]["value"]), Fraction(node["vcpu"])
    if rate_ratio is not None:
        load = load / Fraction(rate_ratio).limit_denominator(10**6)
    node_percent = cores / vcpu * 100
    at_measured = ceil(value / load)
    rate_ceiling = at_ceiling = None
    if ceiling is not None:
        rate_ceiling = load * (vcpu * ceiling / 100) / cores
        at_ceiling = ceil(value / rate_ceiling)
    needed = at_ceiling if at_ceiling is not None else at_measured
    total = needed + k
    if total > MAX_NODES:
        raise ShcmError(f"The target needs {total:,} Rhino nodes, above the {MAX_NODES:,} this calculator accepts: "
                        f"the guide tested one node. Check the target ({fmt(value)} {u}).")
    cpu_all = value / (total * load) * node_percent
    cpu_loss = value / (needed * load) * node_percent

    conf = (t.get("config") or {}).get("value")
    configs = info.get("configs") or {}
    conf_info = configs.get(conf) if conf else None
    same = [x for x in tests(bundle) if (x.get("config") or {}).get("value") == conf and metric in x["metrics"]]
    top = max(same, key=lambda x: frac(x["metrics"][metric]["value"])) if same else None
    figures = []
    for key, label in (("sps", "Load, sessions per second"), ("rps", "Load, requests per second"),
                       ("cpu_percent", "ShCM JVM CPU (average), as printed"), ("cpu_cores", "ShCM JVM CPU (average), cores"),
                       ("heap_avg", "Heap (average)"), ("duration", "Duration")):
        if key in m:
            x = m[key]
            figures.append({"key": key, "label": label, "value": frac(x["value"]), "unit": x["unit"], "raw": x["raw"],
                            "cite": cite(x), "table_id": x["table_id"], "row": x["row"], "column": x.get("column_label")})
    lat = t.get("latency") or {}
    for stat in ("p50", "p99", "max"):
        if stat in lat:
            x = lat[stat]
            figures.append({"key": "latency_" + stat, "label": f"Client latency {stat}", "value": frac(x["value_ms"]), "unit": "ms",
                            "raw": None, "cite": f"Table {x['table_id']}, row {x['row']}", "table_id": x["table_id"], "row": x["row"],
                            "column": None})

    warnings, notes = [], []
    errata = info.get("errata") or {}
    if ceiling is not None and ceiling > node_percent:
        warnings.append(f"The ceiling of {fmt(ceiling)}% is {fmt(ceiling / node_percent, 2)} x the {fmt(node_percent, 2)}% "
                        f"of the node's {fmt(vcpu)} vCPUs that the ShCM JVM used in test {t['test']}: the per-node rate is "
                        f"extrapolated linearly from {fmt(load)} to {fmt(rate_ceiling)} {u}, a planning estimate: "
                        "across the guide's tests CPU did not rise in proportion to load.")
    per_node = rate_ceiling if rate_ceiling is not None else load
    if top is not None and per_node > frac(top["metrics"][metric]["value"]):
        tl = (top.get("latency") or {})
        lat_txt = (f" (client latency p50 {fmt(frac(tl['p50']['value_ms']))} ms, p99 {fmt(frac(tl['p99']['value_ms']))} ms)"
                   if "p50" in tl and "p99" in tl else "")
        warnings.append(f"Each node would carry {fmt(per_node)} {u}, above the highest load tested on server config {conf}: "
                        f"{fmt(frac(top['metrics'][metric]['value']))} {u} in test {top['test']}{lat_txt}.")
    if conf in COLOCATED:
        warnings.append(f"Server config {conf} colocates Cassandra with Rhino on the same server: the CPU figure is the ShCM JVM's "
                        "only, so Cassandra's CPU on the same vCPUs is not counted and the ceiling leaves it unaccounted.")
    for eid in info.get("noted") or ():
        if eid in errata:
            notes.append(f"{eid}: {errata[eid]['problem']}")
    cassandra = cassandra_not_sized(info, conf)
    likely = None
    if rate_ratio is None:
        b = held_out_band(bundle, t["doc"])
        likely = {"band": b}
        if "lo" in b:
            for end, r in (("low", b["lo"]), ("high", b["hi"])):
                try:
                    likely[end] = {"total": compute(bundle, scenario, target, unit, cpu_ceiling_percent, k, rate_ratio=r)["total"]}
                except ShcmError as e:
                    likely[end] = {"error": str(e)}
    return {
        "likely": likely,
        "inputs": {"scenario": scenario, "target": value, "unit": u, "cpu_ceiling_percent": ceiling, "spare": k},
        "test": {"id": t["id"], "doc": t["doc"], "test": t["test"], "title": t["title"], "short_title": t["short_title"], "config": conf,
                 "config_cite": f"Table {t['config']['table_id']}, row {t['config']['row']}" if t.get("config") else None,
                 "config_table": t["config"]["table_id"] if t.get("config") else None, "config_row": t["config"]["row"] if t.get("config") else None,
                 "config_text": conf_info["value"] if conf_info else None,
                 "config_text_cite": f"Table {conf_info['table_id']}, row {conf_info['row']}" if conf_info else None},
        "node": {"text": node.get("value"), "instance": node.get("instance"), "vcpu": vcpu,
                 "cite": f"Table {node.get('table_id')}, row {node.get('row')}", "table_id": node.get("table_id"), "row": node.get("row")},
        "figures": figures, "metric": metric, "load": load, "other_unit": other_u,
        "other_load": frac(m[UNITS[other_u][0]]["value"]) if UNITS[other_u][0] in m else None,
        "cores": cores, "node_percent": node_percent, "nodes_at_measured": at_measured,
        "rate_at_ceiling": rate_ceiling, "nodes_at_ceiling": at_ceiling, "needed": needed, "total": total,
        "cpu_all": cpu_all, "cpu_after_loss": cpu_loss,
        "config_max": {"test": top["test"], "load": frac(top["metrics"][metric]["value"])} if top else None,
        "not_sized": [cassandra], "partial": True, "warnings": warnings, "notes": notes,
    }


def _table_words(info: dict, tid: str) -> str:
    """A table as readers know it: "its Server configuration table (section Benchmark Results)"; the atlas id when
    the bundle does not name it."""
    t = (info.get("tables") or {}).get(tid) or {}
    title = t.get("title") or tid
    return f"its {title} table" + (f" (section {t['section']})" if t.get("section") else "")


def cassandra_not_sized(info: dict, conf: str | None) -> dict:
    """The line every result carries for the Cassandra database the ShCM runs against, which this calculator does not
    size: ``{"key": "cassandra", "item", "text", "source"}``. ``text`` says what the guide prints about Cassandra for
    server config ``conf`` (its description in T-server-configs, its disk use in T-cassandra-disk, its version in
    T-software-versions), read from ``info`` (bundle ``shcm_info``); a figure missing there is left out, not guessed."""
    configs = info.get("configs") or {}
    cas = info.get("cassandra") or {}
    disk = cas.get("disk") or {}
    facts = []
    c = configs.get(conf) if conf else None
    if c:
        facts.append(f"{_table_words(info, 'T-server-configs')} describes config {conf} as '{c['value']}'")
    if "disk_max" in disk:
        d = (f"{_table_words(info, 'T-cassandra-disk')} gives only its disk use, which peaked at {disk['disk_max']['raw']} in "
             "each test, the same on each node of a cluster")
        if "commitlog_limit" in disk:
            d += f", the commitlog growing to {disk['commitlog_limit']['raw']} before clean-up (Cassandra's default)"
        facts.append(d)
    version = cas.get("version")
    text = ("Not sized: the Cassandra database the ShCM reads and writes" + (f" (Cassandra {version['value']})" if version else "")
            + ". The guide prints no CPU or memory for Cassandra" + (": " + "; ".join(facts) if facts else "")
            + ". Size Cassandra separately: this result counts Rhino nodes only.")
    cites = []
    if c:
        cites.append(f"Table {c['table_id']}, row {c['row']}")
    for key in ("disk_max", "commitlog_limit"):
        if key in disk:
            cites.append(cite(disk[key], column=False))
    if version:
        cites.append(f"Table {version['table_id']}, row {version['row']}")
    return {"key": "cassandra", "item": "Cassandra database", "text": text,
            "source": "not sized here; what the guide prints: " + ("; ".join(cites) if cites else "nothing")}


def _rows(res: dict) -> list[tuple]:
    """(section, key, label, value, unit, source) for HTML and CSV alike."""
    i, t, n, u = res["inputs"], res["test"], res["node"], res["inputs"]["unit"]
    out = [
        ("input", "scenario", "Baseline test", f"Test {t['test']} ({t['id']})", "", ""),
        ("input", "target", "Target load", i["target"], u, "your input"),
        ("input", "cpu_ceiling_percent", "CPU ceiling per node", i["cpu_ceiling_percent"], "percent of vCPUs",
         "your input" if i["cpu_ceiling_percent"] is not None else "none: sized at the measured load"),
        ("input", "spare", "Spare nodes (N+k)", i["spare"], "count", f"your input (default {DEFAULT_SPARE}: N+1)"),
        ("measured", "node", "Rhino node", n["text"], "", n["cite"]),
        ("measured", "vcpu", "vCPUs per node", n["vcpu"], "vCPU", n["cite"] + " (read from the sentence)"),
    ]
    if t["config"]:
        out.append(("measured", "config", "Server config", t["config"] + (f": {t['config_text']}" if t["config_text"] else ""), "",
                    t["config_cite"] + (f"; {t['config_text_cite']}" if t["config_text_cite"] else "")))
    for f in res["figures"]:
        src = f["cite"] + (f" (printed '{f['raw']}')" if f.get("raw") is not None else "")
        out.append(("measured", f["key"], f["label"], f["value"], f["unit"], src))
    out.append(("computed", "node_percent", "JVM CPU as share of the node", res["node_percent"], "percent of vCPUs",
                f"{fmt(res['cores'])} cores / {fmt(n['vcpu'])} vCPU"))
    out.append(("result", "nodes_at_measured", "Rhino nodes at the measured load", res["nodes_at_measured"], "count",
                f"ceil({fmt(i['target'])} / {fmt(res['load'])})"))
    if res["rate_at_ceiling"] is not None:
        out.append(("computed", "rate_at_ceiling", "Load per node at the ceiling", res["rate_at_ceiling"], u,
                    f"{fmt(res['load'])} x ({fmt(n['vcpu'])} x {fmt(i['cpu_ceiling_percent'])}%) / {fmt(res['cores'])} cores (linear extrapolation)"))
        out.append(("result", "nodes_at_ceiling", "Rhino nodes at the ceiling", res["nodes_at_ceiling"], "count",
                    f"ceil({fmt(i['target'])} / {fmt(res['rate_at_ceiling'])})"))
    out.append(("result", "total", "Rhino nodes to deploy", res["total"], "count", f"{res['needed']:,} for the load + {i['spare']} spare"))
    if res.get("likely"):
        out.append(("result", "likely_total", "Rhino nodes to deploy, likely", likely_text(res), "count",
                    band_words(res["likely"]["band"], "a Rhino node's CPU per SPS")))
    out.append(("result", "cpu_all", "Expected JVM CPU per node, all in service", res["cpu_all"], "percent of vCPUs",
                f"{fmt(i['target'])} / ({res['total']:,} x {fmt(res['load'])}) x {fmt(res['node_percent'], 2)}%"))
    if i["spare"]:
        out.append(("result", "cpu_after_loss", f"Expected JVM CPU per node with {i['spare']} lost", res["cpu_after_loss"],
                    "percent of vCPUs", f"{fmt(i['target'])} / ({res['needed']:,} x {fmt(res['load'])}) x {fmt(res['node_percent'], 2)}%"))
    for x in res["not_sized"]:
        out.append(("result", "not_sized_" + x["key"], x["item"], "not sized", "", f"{x['text']} ({x['source']})"))
    return out


def likely_text(res: dict) -> str:
    """The result's likely count in words (``sizing.likely_text`` of its ``likely``)."""
    return sizing_likely_text(res.get("likely"))


def result_html(res: dict) -> str:
    """The result as an HTML fragment (every text escaped)."""
    i, t = res["inputs"], res["test"]
    u = i["unit"]
    how = (f"at a CPU ceiling of {fmt(i['cpu_ceiling_percent'])}% of the node's vCPUs"
           if res["rate_at_ceiling"] is not None else f"at the measured load ({fmt(res['load'])} {u} per node)")
    parts = [f'<div class="atlas-result" data-scenario="{escape(t["id"])}">',
             f'<p class="atlas-summary"><strong data-key="total">{res["total"]:,} Rhino node(s)</strong> '
             f'({res["needed"]:,} for {fmt(i["target"])} {escape(u)} {escape(how)}, + {i["spare"]} spare), each a '
             f'{escape(res["node"]["instance"] or "node")} of {fmt(res["node"]["vcpu"])} vCPU. Baseline: test {t["test"]}, '
             f'server config {escape(t["config"] or "—")}'
             + (f'; likely {escape(likely_text(res))} node(s) (the held-out band, below)' if (res.get("likely") or {}).get("low") else "")
             + '. A planning estimate, not a vendor figure.</p>']
    if res["not_sized"]:
        parts.append('<div class="admonition warning atlas-partial" data-key="not-sized"><p class="admonition-title">Partial '
                     'result: Rhino nodes only</p><ul>'
                     + "".join(f'<li data-key="not_sized_{escape(x["key"])}">{_linked(x["text"], t)}</li>'
                               for x in res["not_sized"]) + "</ul></div>")
    parts.append(list_html(res["warnings"], "atlas-warnings"))
    parts.append(steps_html(_rows(res), "atlas-shcm"))
    parts.append(list_html(res["notes"], "atlas-notes", "Notes from the guide and its errata:"))
    parts.append("</div>")
    return "".join(parts)


def _linked(text: str, test: dict) -> str:
    """Escaped ``text`` with the Server configuration and Cassandra Disk Usage tables it names linked to those tables
    on the page of ``test`` (a result's ``test``: ``id``, ``doc``): ``../../products/<doc>/<id>/`` from the calculator
    page (calculators/shcm/), each table anchored ``table-<id>`` (atlas.html.anchor)."""
    out = escape(text)
    page = f"../../products/{test['doc']}/{test['id']}/"
    for title, tid in (("Server configuration table", "T-server-configs"), ("Cassandra Disk Usage table", "T-cassandra-disk")):
        out = out.replace(title, f'<a href="{escape(page)}#table-{tid.lower()}">{title}</a>', 1)
    return out


def result_csv(res: dict) -> str:
    """One line per input, measured figure and result (section, key, item, value, unit, source), then the warnings."""
    return steps_csv(res["test"]["id"], _rows(res), res["warnings"])


def result_chart(res: dict) -> dict:
    """Vega-Lite spec: load capacity against the number of Rhino nodes (measured and at the ceiling), with the target."""
    u, target = res["inputs"]["unit"], float(res["inputs"]["target"])
    counts = sorted({0, res["needed"], res["total"], res["nodes_at_measured"]} | ({res["nodes_at_ceiling"]} if res["nodes_at_ceiling"] else set()))
    series = [(f"at the measured CPU ({fmt(res['node_percent'], 1)}% of vCPUs)", res["load"])]
    if res["rate_at_ceiling"] is not None:
        series.append((f"at the {fmt(res['inputs']['cpu_ceiling_percent'])}% ceiling (extrapolated)", res["rate_at_ceiling"]))
    return capacity_chart(description=f"{u} capacity against the number of Rhino nodes, with the target", x_field="nodes",
                          x_title="Rhino nodes", unit=u, series=series, counts=counts, target=target)


def compute_web(bundle: dict, params: dict) -> dict:
    """``compute`` of the form's strings (``params``). Raises ShcmError."""
    return compute(bundle, params.get("scenario") or "", params.get("target"), unit=params.get("unit") or "RPS",
                   cpu_ceiling_percent=params.get("ceiling") or None, spare=params.get("spare"))


def run_web(bundle: dict, params: dict) -> dict:
    """Form parameters (strings) -> ``{html, chart, downloads: {csv}, inputs}``; raises ShcmError for bad input."""
    res = compute_web(bundle, params)
    i = res["inputs"]
    return {"html": result_html(res), "chart": result_chart(res),
            "inputs": {"scenario": i["scenario"], "target": fmt(i["target"], 6).replace(",", ""), "unit": i["unit"],
                       "ceiling": "" if i["cpu_ceiling_percent"] is None else fmt(i["cpu_ceiling_percent"], 6),
                       "spare": str(i["spare"])},
            "downloads": {"csv": {"text": lambda: result_csv(res), "mime": "text/csv", "filename": f"{NAME}-{res['test']['id']}.csv"}}}


def report_web(bundle: dict, params: dict) -> dict:
    """The report (``calculators.report``) of the result ``run_web`` gives."""
    return report_of(compute_web(bundle, params), bundle)


def report_of(res: dict, bundle: dict) -> dict:
    """The report (``calculators.report``) of a ``compute`` result."""
    from . import report
    t, n, u = res["test"], res["node"], res["inputs"]["unit"]
    method = [["Method", f"Rhino nodes = ceil(target / load per node): the load one node carried in test {t['test']}, or with a "
               "CPU ceiling that load scaled linearly to the ceiling's share of the node's vCPUs; spares added (N+k)."],
              ["Spares", f"{res['inputs']['spare']} spare node(s) added (N+k); the default is {DEFAULT_SPARE} (N+1): with a "
               "node down the others must carry its load."],
              ["Not sized", "; ".join(x["item"] for x in res["not_sized"]) or "nothing"],
              ["Estimate", "A planning estimate from the vendor's benchmark, not a vendor figure."]]
    method += [["Note from the guide", x] for x in res["notes"]]
    extra = [("Rhino node (vCPUs read from the sentence)", n["table_id"], n["row"], n["text"])]
    if t.get("config_table"):
        extra.append(("Server config", t["config_table"], t["config_row"], t["config"]))
    partial = " (partial: Rhino nodes only, Cassandra not sized)" if res["partial"] else ""
    rep = report.steps_report(NAME, res, _rows(res), res["figures"], t["doc"], None, bundle,
                 f"ShCM Rhino nodes: test {t['test']}",
                 f"{res['total']:,} Rhino node(s) for {fmt(res['inputs']['target'])} {u}; baseline test {t['test']} "
                 f"({t['id']}){partial}", f"{NAME}-{t['id']}.xlsx", method, extra)
    warnings = report.sheet_named(rep, "Warnings")
    lines = [["not sized (partial: Rhino nodes only)", x["text"]] for x in res["not_sized"]]
    if lines:
        kept = [r for r in warnings["rows"] if r[0] != "none"]
        warnings["rows"] = [[report.cell(v) for v in r] for r in lines] + kept
    return rep


def backtest_points(bundle: dict, doc: str, excluded=frozenset()) -> list[dict]:
    """This calculator's rule held out (``calculators.backtest``, rule ``cpu-per-node``): for every ordered pair (A, B)
    of ``doc``'s tests on one server configuration, B's Rhino node CPU (cores) predicted from A's as A's cores x B's
    SPS / A's. Tests in ``excluded`` are left out. Returns backtest points (``backtest.point``), each at the service
    and the whole level (one Rhino node is the whole footprint's unit)."""
    from .backtest import metric, point
    from .inputs import exact as _frac
    tests = []
    for t in bundle.get("shcm_tests") or []:
        if t["doc"] != doc or t["id"] in excluded:
            continue
        sps, cpu = metric(t, "sps"), metric(t, "cpu_cores")
        cfg = (t.get("config") or {}).get("value")
        if sps is None or cpu is None or not cfg:
            continue
        tests.append({"id": t["id"], "sps": _frac(sps["value"]), "cpu": _frac(cpu["value"]), "config": cfg,
                      "src": f"Table {cpu['table_id']} row {cpu['row']}"})
    pts = []
    for a in tests:
        for b in tests:
            if a is b or a["config"] != b["config"]:
                continue
            p = point(doc, "one-run", "cpu-per-node", f"server config {a['config']}", [a["id"]], b["id"],
                       f"Rhino node CPU (server config {a['config']})", a["sps"], b["sps"], "SPS", a["cpu"], b["cpu"],
                       a["cpu"] * b["sps"] / a["sps"], a["src"], b["src"], "cores")
            pts += [p, dict(p, level="whole")]
    return pts


catalogue.register(NAME, run_web, ShcmError, report_web,
                   fields={"Target load": "target", "CPU ceiling": "ceiling", SPARE_LABEL: "spare", "Unknown unit": "unit",
                           "Unknown scenario": "scenario"})
