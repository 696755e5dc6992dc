"""The ShCM Rhino-node calculator's page: baseline test, target load and unit, CPU ceiling and spares."""
from __future__ import annotations

from html import escape

from calculators import shcm as shcm_calc

from . import calculator_shell


def page(r) -> str:
    """The ShCM calculator page body (``{{ shcm_calculator() }}``), prerendered for the default test."""
    b = r.bundle
    tests = b.get("shcm_tests") or []
    if not tests:
        return calculator_shell.nothing_to_compute("ShCM")
    d = shcm_calc.defaults(b)
    opts = calculator_shell.scenario_options(b, tests, d["scenario"], lambda s: (
        f' data-config="{escape((s.get("config") or {}).get("value") or "")}"'))
    form = f"""
  <label>Baseline test (sets the server configuration) <select name="scenario" id="calc-scenario">{opts}</select></label>
  <label><span>Target load</span> <input name="target" id="calc-target" type="text" inputmode="decimal" value="{escape(d['target'])}" required></label>
  <label>Unit of the target <select name="unit" id="calc-unit"><option value="RPS"{" selected" if d["unit"] == "RPS" else ""}>RPS (requests per second)</option><option value="SPS"{" selected" if d["unit"] == "SPS" else ""}>SPS (sessions per second)</option></select></label>
  <label>CPU ceiling per Rhino node (% of the node's vCPUs; empty = size at the measured CPU, no extrapolation) <input name="ceiling" id="calc-ceiling" type="text" inputmode="decimal" value="{escape(d['ceiling'])}" placeholder="e.g. 60"></label>
  <label>Spare Rhino nodes (N+k; 0 = none) <input name="spare" id="calc-spare" type="number" min="0" max="{shcm_calc.MAX_SPARE}" step="1" value="{escape(d['spare'])}"></label>"""
    return calculator_shell.shell(r, "shcm", form, d)
