"""The ASM overhead calculator's page: ASM-on and ASM-off scenario choices and the what-if load."""
from __future__ import annotations

from calculators import asm as asm_calc, footprint as fp

from . import calculator_shell as cp


def page(r) -> str:
    """The ASM overhead calculator page body (``{{ asm_calculator() }}``), prerendered for the default pair."""
    bundle = r.bundle
    d = asm_calc.defaults(bundle)
    on = [s for s in bundle["scenarios"] if s["id"] in asm_calc.asm_on_ids(bundle)]
    off = [s for s in fp.scenarios_with_resources(bundle) if s["id"] not in asm_calc.asm_on_ids(bundle)]
    form = f"""
  <label>ASM-on scenario <select name="on" id="calc-on">{cp.scenario_options(bundle, on, d['on'])}</select></label>
  <label>ASM-off scenario (same product; the difference is given only for the same call model and deployment mode) <select name="off" id="calc-off">{cp.scenario_options(bundle, off, d['off'])}</select></label>
  <label>What-if load, total (the ASM-off scenario's unit; empty = its own load) <input name="load" id="calc-load" type="text" inputmode="decimal" value="" placeholder="e.g. 80000"></label>"""
    return cp.shell(r, "asm", form, d)
