"""Build the calculator bundle: the plain-JSON subset of data/ that the
standard-library calculators read, in CPython and in the browser alike."""
from __future__ import annotations

import math
import re

from .datastore import Atlas

RESOURCE_COLS = ["scenario", "table_id", "row", "row_label", "site", "component", "service", "container", "is_sidecar",
                 "replicas", "replicas_min", "replicas_max", "cpu_request_cores", "cpu_limit_cores", "cpu_cores",
                 "mem_request_gib", "mem_limit_gib", "mem_gib"]
UTIL_COLS = ["scenario", "table_id", "row", "site", "service", "container", "metric", "observed_percent", "observed_abs",
             "abs_unit", "target_percent", "percent_basis", "status"]
EXCLUDED_COLS = ["scenario", "table_id", "row", "row_label", "site", "component", "service", "container", "is_sidecar",
                 "status", "note"]
ERRATUM = re.compile(r"\b[a-z]+-E\d+\b")


def excluded_resources(res) -> list[dict]:
    """Resource rows the calculators cannot use (status not ok/corrected: flagged by an erratum, or
    missing a value), each with ``errata``: the erratum ids named in its note. Kept in the bundle so
    a footprint can say what it could not size (calculators.footprint.completeness)."""
    out = []
    for r in _records(res[~res["status"].isin(["ok", "corrected"])], EXCLUDED_COLS):
        r["errata"] = ERRATUM.findall(r.get("note") or "")
        out.append(r)
    return out


def records(df, cols):
    """DataFrame rows as plain dicts (NaN/NA -> None, numpy scalars -> Python)."""
    return _records(df, cols)


def _records(df, cols):
    out = []
    for rec in df[cols].to_dict("records"):
        clean = {}
        for k, v in rec.items():
            if v is None or (isinstance(v, float) and math.isnan(v)) or (hasattr(v, "__class__") and str(v) in ("<NA>", "nan")):
                v = None
            elif hasattr(v, "item"):
                v = v.item()
            clean[k] = v
        out.append(clean)
    return out


def build(atlas: Atlas) -> dict:
    """Return the bundle dict: sources, scenarios (flattened load facts), services,
    resources and utilization rows. Every value comes from data/ unchanged."""
    scen = []
    for s in atlas.scenarios:
        load = s.get("load") or {}
        scen.append({
            "id": s["id"], "doc": s["doc"], "section": s.get("section"), "title": s["title"],
            "short_title": s.get("short_title") or s["title"], "release": s.get("release"),
            "load_total": load.get("total"), "load_per_site": load.get("per_site"), "load_unit": load.get("unit"),
            "load_raw": load.get("raw"), "sites_provisioned": s.get("sites_provisioned"),
            "sites_with_traffic": s.get("sites_with_traffic") or [], "asm": s.get("asm"),
            "deployment_mode": s.get("deployment_mode"),
        })
    res_all = atlas.frames["resources"]
    res = res_all[res_all["status"].isin(["ok", "corrected"])]
    util = atlas.frames["utilization"]
    # observed CPU and memory (the footprint sizes from both), never a flagged or missing value
    util = util[util["metric"].isin(["cpu", "memory"]) & util["status"].isin(["ok", "corrected"])]
    out = {
        "version": 1,
        "sources": [{"id": s["id"], "short_name": s["short_name"], "product": s["product"], "load_unit": s["load_unit"]}
                    for s in atlas.sources if s["id"] in atlas.docs()],
        "scenarios": scen,
        "services": [{"doc": s["doc"], "service": s["service"], "component": s["component"], "role": s["role"]} for s in atlas.services],
        "resources": _records(res, RESOURCE_COLS),
        "resources_excluded": excluded_resources(res_all),
        "utilization": _records(util, UTIL_COLS),
    }
    from .extensions import each
    for mod, fn in each("bundle"):
        extra = fn(atlas)
        clash = set(extra) & set(out)
        if clash:
            raise ValueError(f"{mod.__name__}.bundle() redefines bundle keys {sorted(clash)}")
        out.update(extra)
    # the backtest reads the finished bundle; the footprint shows its error per rule as each row's band
    from calculators import backtest
    out["backtest_bands"] = backtest.bands(backtest.run(out))
    return out


def calculator_slice(bundle: dict, name: str) -> dict:
    """The part of ``bundle`` that calculator ``name`` reads (``calculators.web.CATALOGUE``),
    plus ``version``: what that calculator's page loads. Raises KeyError for an unknown
    calculator, ValueError if the bundle lacks a key the calculator reads."""
    from calculators import web
    keys = web.bundle_keys(name)
    missing = [k for k in keys if k not in bundle]
    if missing:
        raise ValueError(f"calculator {name!r} reads bundle keys {missing} that the bundle does not have")
    return {"version": bundle["version"], **{k: bundle[k] for k in keys}}
