"""The Metaswitch Sh Cache microservice (ShCM) guide: measured by its own metrics (SPS, RPS, JVM CPU and heap of Rhino
nodes, client latency), not by Kubernetes requests, and sized by the ShCM calculator (``calculators.shcm``). The guide
interface is ``atlas.guides``; this module's document id is its name.

Bundle keys, every value with its table and row:

* ``shcm_tests``: one record per row of T-rhino-performance (SPS, RPS, CPU as printed and in cores, heap, server
  config, client latency p50/p99/max);
* ``shcm_info``: the node hardware sentence (vCPUs read from it), the server configurations, the load-profile
  sentences, the errata the calculator cites (``errata``; those it repeats as a note on every result: ``noted``),
  what the guide prints about Cassandra (its version, the Cassandra Disk Usage rows) and the title and section of
  every table the result names.

Only rows with status ``ok`` or ``corrected`` are used; nothing is computed here except reading the vCPU count out
of the printed hardware sentence.
"""
from __future__ import annotations

import re

from calculators import shcm as shcm_calc
from calculators.formatting import fmt

from ..datastore import metric_records, records, usable
from ..html import esc
from . import calculator_url, figure, missing

_METRICS = ("sps", "rps", "cpu_percent", "cpu_cores", "heap_avg", "duration")
_TABLE = "T-rhino-performance"
_ERRATA = ("shcm-E003", "shcm-E006", "shcm-E008", "shcm-E020")
"""The errata the ShCM result cites: E003, E006 and E020 on every result (``noted``), E008 where Cassandra is named."""
_NOTED = ("shcm-E003", "shcm-E006", "shcm-E020")
_NAMED_TABLES = ("T-rhino-performance", "T-client-latency", "T-hardware", "T-server-configs", "T-software-versions",
                 "T-cassandra-disk")
"""Tables the ShCM result names in words (their title and section go into ``shcm_info["tables"]``)."""
_KEEP = ("scenario", "target", "unit")
"""The ShCM calculator's permalink parameters that open a test at its own load."""

BUNDLE_KEYS = ("shcm_tests", "shcm_info")
CALCULATOR = shcm_calc.NAME
EXAMPLES = {shcm_calc.NAME: {"scenario": "shcm-test-1"}}
"""The ShCM calculator's default test: test 1 (server config A)."""


def bundle(atlas, doc: str) -> dict:
    """``{"shcm_tests": [...], "shcm_info": {"node", "configs", "load_profile", "errata", "noted", "cassandra",
    "tables"}}`` from data/<doc>. ``cassandra``: ``{"version": settings row or None, "disk": {metric: measurement
    record}}`` (table T-cassandra-disk: ``commitlog_limit``, ``disk_max``); ``tables``: ``{table id: {"title",
    "section"}}``."""
    meas = usable(atlas.rows("measurements", doc=doc))
    sett = usable(atlas.rows("settings", doc=doc))
    lat = usable(atlas.rows("latency", doc=doc))
    perf = meas[meas["table_id"] == _TABLE]
    tests = []
    for s in atlas.scenarios:
        if s["doc"] != doc:
            continue
        m = metric_records(perf[perf["scenario"] == s["id"]], _METRICS)
        if not m:
            continue
        conf = records(sett[(sett["scenario"] == s["id"]) & (sett["table_id"] == _TABLE) & (sett["key"] == "Server config")],
                       ["value", "table_id", "row", "line"])
        lrows = records(lat[lat["scenario"] == s["id"]], ["statistic", "value_ms", "table_id", "row", "line"])
        row = next(iter(m.values()))
        tests.append({"id": s["id"], "doc": doc, "section": s.get("section"), "title": s["title"],
                      "short_title": s.get("short_title") or s["title"], "test": row["row"], "metrics": m,
                      "config": conf[0] if conf else None,
                      "latency": {r.pop("statistic"): r for r in lrows if r["statistic"] in ("p50", "p99", "max")}})
    configs = {r["key"]: {k: r[k] for k in ("value", "table_id", "row", "line")}
               for r in records(sett[sett["table_id"] == "T-server-configs"], ["key", "value", "table_id", "row", "line"])}
    hw = records(sett[sett["table_id"] == "T-hardware"], ["value", "table_id", "row", "line"])
    node = None
    if hw:
        node = dict(hw[0])
        found = re.search(r"\((\d+)\s*vCPUs?\b", node["value"])
        node["vcpu"] = int(found.group(1)) if found else None
        found = re.search(r"\b(c\d\.\w+)\b", node["value"])
        node["instance"] = found.group(1) if found else None
    profile = {r["key"]: {k: r[k] for k in ("value", "table_id", "row", "line")}
               for r in records(sett[sett["table_id"] == "T-load-profile"], ["key", "value", "table_id", "row", "line"])}
    errata = {e["id"]: {"problem": e["problem"], "action": e["action"], "reason": e.get("reason")}
              for e in atlas.errata if e["id"] in _ERRATA}
    version = records(sett[(sett["table_id"] == "T-software-versions") & (sett["key"] == "Cassandra")],
                      ["value", "table_id", "row", "line"])
    disk = metric_records(meas[meas["table_id"] == "T-cassandra-disk"], ("commitlog_limit", "disk_max"))
    tables = {}
    for tid in _NAMED_TABLES:
        try:
            t = atlas.table(doc, tid)
        except KeyError:
            continue
        tables[tid] = {"title": t.get("title") or t.get("caption") or tid, "section": t.get("section")}
    return {"shcm_tests": tests, "shcm_info": {"node": node, "configs": configs, "load_profile": profile, "errata": errata,
                                               "noted": [e for e in _NOTED if e in errata],
                                               "cassandra": {"version": version[0] if version else None, "disk": disk},
                                               "tables": tables}}


def calculator_button(renderer, sid: str) -> str:
    """The scenario page's link to the ShCM calculator with test ``sid`` preselected ('' for a test it cannot size)."""
    url = calculator_url(renderer, sid, shcm_calc, _KEEP, "../../../")
    return f'<p><a class="md-button" href="{esc(url)}">Size Rhino nodes from this run in the calculator</a></p>' if url else ""


def scenarios_table(renderer, doc: str) -> str:
    """The product page's tests table: test, server configuration, SPS, RPS, JVM CPU (as printed and in cores), heap,
    client latency p50/p99/max and the calculator link (each test's duration is on its page)."""
    tests = {t["id"]: t for t in renderer.bundle.get("shcm_tests") or []}
    rows = []
    for s in (x for x in renderer.atlas.scenarios if x["doc"] == doc):
        t = tests.get(s["id"])
        m = t["metrics"] if t else {}
        lat = (t or {}).get("latency") or {}
        cfg = ((t or {}).get("config") or {}).get("value")

        def ms(k):
            v = lat.get(k)
            return (f'<span title="Table {esc(v["table_id"])}, row {esc(v["row"])}">{esc(fmt(v["value_ms"]))}</span>'
                    if v else missing())
        cpu = figure(m.get("cpu_percent"), " %") + (f' ({esc(fmt(m["cpu_cores"]["value"]))} cores)' if m.get("cpu_cores") else "")
        url = calculator_url(renderer, s["id"], shcm_calc, _KEEP, "../../")
        rows.append(
            f'<tr><td><a href="{esc(s["id"])}/">{esc(s.get("short_title") or s["title"])}</a></td>'
            f'<td>{esc(cfg) if cfg else missing()}</td><td>{figure(m.get("sps"))}</td><td>{figure(m.get("rps"))}</td>'
            f'<td>{cpu}</td><td>{figure(m.get("heap_avg"), " GiB")}</td>'
            f'<td>{ms("p50")}</td><td>{ms("p99")}</td><td>{ms("max")}</td>'
            f'<td>{f"""<a href="{esc(url)}">Size Rhino nodes</a>""" if url else missing("not sizable")}</td></tr>')
    return ('<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="scenarios"><thead><tr>'
            "<th>Test</th><th>Server config</th><th>SPS</th><th>RPS</th><th>JVM CPU, average</th>"
            "<th>Heap, average</th><th>Client latency p50 (ms)</th><th>p99 (ms)</th><th>max (ms)</th><th>Calculator</th>"
            "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>\n\n"
            '<p class="atlas-note">As printed in the Rhino Performance and client latency tables (hover a figure for its '
            "table and row). ShCM runs on Rhino nodes, not Kubernetes pods: the guide gives no CPU or memory requests. "
            "JVM CPU is printed in percent of one core. The calculator link sizes Rhino nodes from the test at its own "
            f"measured RPS, with the calculator's default of {shcm_calc.DEFAULT_SPARE} spare node (N+1).</p>")
