"""Entry point for the browser (Pyodide worker) and the build-time prerender.

``run(bundle, params)`` takes the calculator bundle and a dict of form
parameters (strings as typed by the user); ``params["calc"]`` names the
calculator (default ``footprint``). It returns a JSON-able dict:
``{"ok": True, "html": ..., "downloads": {name: {"text", "mime", "filename"}}, "chart": spec|None, "inputs": ...}``
or ``{"ok": False, "error": message}`` for bad input (the calculator's
documented ValueError subclass). Any other exception propagates: that is a
bug, and the page reports it as one.

Each calculator module registers ``run_web(bundle, params) -> dict`` in
``CALCULATORS``; it raises its own ValueError subclass for bad input.
"""
from __future__ import annotations

import json

from . import footprint, render


def _flag(v) -> bool:
    return str(v or "").lower() in ("1", "true", "on", "yes")


def footprint_web(bundle: dict, params: dict) -> dict:
    res = footprint.compute(
        bundle, params.get("scenario", ""), params.get("load"),
        target_cpu_percent=params.get("target") or None,
        sites=params.get("sites") or None,
        failover=_flag(params.get("failover")),
        asm=params.get("asm") or "keep",
        node_cores=params.get("node_cores") or None, node_mem_gib=params.get("node_mem") or None,
        min_replicas=params.get("min_replicas") or 1, asm_from=params.get("asm_from") or None,
        sidecar_cpu=params.get("sidecar_cpu") or None, sidecar_mem=params.get("sidecar_mem") or None)
    return {"html": render.result_html(res), "chart": render.result_chart(res), "inputs": res["inputs"],
            "downloads": {"csv": {"text": render.result_csv(res), "mime": "text/csv", "filename": f"footprint-{res['baseline']['id']}.csv"},
                          "helm": {"text": render.result_helm(res), "mime": "application/yaml",
                                   "filename": f"footprint-{res['baseline']['id']}-values.yaml"}}}


CALCULATORS = {"footprint": footprint_web}
ERRORS: tuple[type[Exception], ...] = (footprint.FootprintError,)


def register(name: str, fn, error: type[Exception]) -> None:
    """Add a calculator: ``fn(bundle, params) -> dict`` raising ``error`` for bad input."""
    global ERRORS
    CALCULATORS[name] = fn
    if error not in ERRORS:
        ERRORS = ERRORS + (error,)


def run(bundle: dict, params: dict) -> dict:
    name = params.get("calc") or "footprint"
    fn = CALCULATORS.get(name)
    if fn is None:
        return {"ok": False, "error": f"Unknown calculator {name!r}."}
    try:
        out = fn(bundle, params)
    except ERRORS as e:
        return {"ok": False, "error": str(e)}
    return {"ok": True, "chart": None, "downloads": {}, **out}


def run_json(bundle_json: str, params_json: str) -> str:
    """JSON in, JSON out: what the Pyodide worker calls."""
    return json.dumps(run(json.loads(bundle_json), json.loads(params_json)))


def _load_optional() -> None:
    """Register the calculators that live in their own modules (each calls register())."""
    import importlib
    for mod in ("dsr", "shcm", "asm", "overtarget"):
        try:
            importlib.import_module(f"calculators.{mod}")
        except ModuleNotFoundError as e:
            if e.name != f"calculators.{mod}":
                raise


_load_optional()
