"""The ShCM Rhino-node calculator's page: baseline test, target load and unit, CPU ceiling and spares."""
from __future__ import annotations

from html import escape

from calculators import shcm as shcm_calc

from . import calculator_shell


def page(renderer) -> str:
    """The ShCM calculator page body (``{{ shcm_calculator() }}``), prerendered for the default test."""
    b = renderer.bundle
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
  <label>Spare Rhino nodes (N+k; default {shcm_calc.DEFAULT_SPARE} = N+1, so that with a node down the others carry its load; 0 = none) <input name="spare" id="calc-spare" type="number" min="0" max="{shcm_calc.MAX_SPARE}" step="1" value="{escape(d['spare'])}"></label>"""
    return calculator_shell.shell(renderer, shcm_calc.NAME, form, d)


def _tests(renderer) -> list[dict]:
    return renderer.bundle.get("shcm_tests") or []


def _cpu(t: dict) -> float:
    return t["metrics"]["cpu_percent"]["value"]


def cpu_reading(renderer) -> str:
    """Method step 3's figures (``{{ shcm_cpu_reading() }}``): the range of JVM CPU the Rhino Performance table prints
    and what its lowest value means in cores and in percent of the node's vCPUs, read from the bundle now."""
    from calculators.formatting import fmt
    tests, vcpu = _tests(renderer), renderer.bundle["shcm_info"]["node"]["vcpu"]
    lo, hi = min(map(_cpu, tests)), max(map(_cpu, tests))
    return (f"({fmt(lo)} % to {fmt(hi)} %). It is read as percent of one core, so {fmt(lo)} % = {fmt(lo / 100)} cores = "
            f"{fmt(lo / vcpu, 1)} % of the node's {vcpu} vCPUs")


def extrapolation(renderer) -> str:
    """The limits section's CPU figures (``{{ shcm_extrapolation() }}``): the share of the node the JVM used over all
    tests, and configuration A's CPU at its lowest and highest SPS, read from the bundle now."""
    from calculators.formatting import fmt
    tests, vcpu = _tests(renderer), renderer.bundle["shcm_info"]["node"]["vcpu"]
    shares = [_cpu(t) / vcpu for t in tests]
    a = sorted((t for t in tests if (t["config"] or {}).get("value") == "A"), key=lambda t: t["metrics"]["sps"]["value"])
    return (f"The JVM used {fmt(min(shares), 1)}-{fmt(max(shares), 1)} % of the node in the tests. CPU did not grow in "
            f"proportion to load: config A used {fmt(_cpu(a[0]))} % at {fmt(a[0]['metrics']['sps']['value'])} SPS and "
            f"{fmt(_cpu(a[-1]))} % at {fmt(a[-1]['metrics']['sps']['value'])} SPS.")


def latency_limit(renderer) -> str:
    """The limits section's latency figures (``{{ shcm_latency() }}``): configuration A's test at its highest SPS, with
    its client latency (p50, max) and CPU, read from the bundle now."""
    from calculators.formatting import fmt
    a = max((t for t in _tests(renderer) if (t["config"] or {}).get("value") == "A"), key=lambda t: t["metrics"]["sps"]["value"])
    lat = a["latency"]
    return (f"Config A's latency collapsed at {fmt(a['metrics']['sps']['value'])} SPS (test {a['test']}: p50 "
            f"{fmt(lat['p50']['value_ms'])} ms, max {fmt(lat['max']['value_ms'])} ms) at only {fmt(_cpu(a))} % CPU")
