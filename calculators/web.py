"""Entry point for the browser (Pyodide worker) and the build-time prerender.

``run(bundle, params)`` takes the calculator bundle and a dict of form
parameters (strings as typed by the user) and returns a JSON-able dict:
``{"ok": True, "html", "csv", "helm", "chart", "inputs"}`` or
``{"ok": False, "error": message}`` for bad input (FootprintError). Any
other exception propagates: that is a bug, and the page reports it as one.
"""
from __future__ import annotations

import json

from . import footprint, render

FIELDS = ("scenario", "load", "target", "sites", "failover", "asm", "node_cores", "node_mem", "min_replicas")


def run(bundle: dict, params: dict) -> dict:
    try:
        res = footprint.compute(
            bundle, params.get("scenario", ""), params.get("load"),
            target_cpu_percent=params.get("target") or None,
            sites=params.get("sites") or None,
            failover=str(params.get("failover", "")).lower() in ("1", "true", "on", "yes"),
            asm=params.get("asm") or "keep",
            node_cores=params.get("node_cores") or None, node_mem_gib=params.get("node_mem") or None,
            min_replicas=params.get("min_replicas") or 1)
    except footprint.FootprintError as e:
        return {"ok": False, "error": str(e)}
    return {"ok": True, "html": render.result_html(res), "csv": render.result_csv(res), "helm": render.result_helm(res),
            "chart": render.result_chart(res), "inputs": res["inputs"], "per_site_load": res["per_site_load"]}


def run_json(bundle_json: str, params_json: str) -> str:
    """JSON in, JSON out: what the Pyodide worker calls."""
    return json.dumps(run(json.loads(bundle_json), json.loads(params_json)))
