"""The ShCM calculator's bundle keys, every value with its table and row:

* ``shcm_tests``: one record per row of T-rhino-performance (SPS, RPS, CPU as
  printed and in cores, heap, server config, client latency p50/p99/max);
* ``shcm_info``: the node hardware sentence (vCPUs read from it), the server
  configurations, the load-profile sentences, the errata the calculator cites,
  what the guide prints about Cassandra (its version, the Cassandra Disk Usage
  rows) and the title and section of every table the result names.

Only rows with status ``ok`` or ``corrected`` are used; nothing is computed here
except reading the vCPU count out of the printed hardware sentence.
"""
from __future__ import annotations

import re

from .datastore import metric_records, records, usable

SHCM_METRICS = ("sps", "rps", "cpu_percent", "cpu_cores", "heap_avg", "duration")
SHCM_TABLE = "T-rhino-performance"
SHCM_ERRATA = ("shcm-E003", "shcm-E006", "shcm-E008", "shcm-E020")
SHCM_NAMED_TABLES = ("T-rhino-performance", "T-client-latency", "T-hardware", "T-server-configs", "T-software-versions",
                     "T-cassandra-disk")
"""Tables the ShCM result names in words (their title and section go into ``shcm_info["tables"]``)."""


def build(atlas) -> dict:
    """``{"shcm_tests": [...], "shcm_info": {"node", "configs", "load_profile", "errata", "cassandra", "tables"}}`` from
    data/shcm. ``cassandra``: ``{"version": settings row or None, "disk": {metric: measurement record}}`` (table
    T-cassandra-disk: ``commitlog_limit``, ``disk_max``); ``tables``: ``{table id: {"title", "section"}}``."""
    meas = usable(atlas.rows("measurements", doc="shcm"))
    sett = usable(atlas.rows("settings", doc="shcm"))
    lat = usable(atlas.rows("latency", doc="shcm"))
    perf = meas[meas["table_id"] == SHCM_TABLE]
    tests = []
    for s in atlas.scenarios:
        if s["doc"] != "shcm":
            continue
        m = metric_records(perf[perf["scenario"] == s["id"]], SHCM_METRICS)
        if not m:
            continue
        conf = records(sett[(sett["scenario"] == s["id"]) & (sett["table_id"] == SHCM_TABLE) & (sett["key"] == "Server config")],
                       ["value", "table_id", "row", "line"])
        lrows = records(lat[lat["scenario"] == s["id"]], ["statistic", "value_ms", "table_id", "row", "line"])
        row = next(iter(m.values()))
        tests.append({"id": s["id"], "doc": "shcm", "section": s.get("section"), "title": s["title"],
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
              for e in atlas.errata if e["id"] in SHCM_ERRATA}
    version = records(sett[(sett["table_id"] == "T-software-versions") & (sett["key"] == "Cassandra")],
                      ["value", "table_id", "row", "line"])
    disk = metric_records(meas[meas["table_id"] == "T-cassandra-disk"], ("commitlog_limit", "disk_max"))
    tables = {}
    for tid in SHCM_NAMED_TABLES:
        try:
            t = atlas.table("shcm", tid)
        except KeyError:
            continue
        tables[tid] = {"title": t.get("title") or t.get("caption") or tid, "section": t.get("section")}
    return {"shcm_tests": tests, "shcm_info": {"node": node, "configs": configs, "load_profile": profile, "errata": errata,
                                               "cassandra": {"version": version[0] if version else None, "disk": disk},
                                               "tables": tables}}
