"""The DSR DA-MP calculator's page: benchmark run, target MPS, CPU ceiling, redundancy and spares."""
from __future__ import annotations

from html import escape

from calculators import dsr as dsr_calc

from . import calculator_shell


def page(r) -> str:
    """The DSR calculator page body (``{{ dsr_calculator() }}``), prerendered for the default run."""
    b = r.bundle
    runs = dsr_calc.sizable_runs(b)
    if not runs:
        return calculator_shell.nothing_to_compute("DSR")
    d = dsr_calc.defaults(b)
    opts = calculator_shell.scenario_options(b, runs, d["scenario"], lambda s: (
        f' data-unit="{escape(dsr_calc.mp_kind(s))}"'))
    kind = next(dsr_calc.mp_kind(s) for s in runs if s["id"] == d["scenario"])
    red = "".join(f'<option value="{escape(k)}"{" selected" if k == d["redundancy"] else ""}>{escape(v)}</option>'
                  for k, v in dsr_calc.REDUNDANCY.items())
    form = f"""
  <label>Benchmark run (sets the MP flavor, profile and call model) <select name="scenario" id="calc-scenario" data-sets-load="target">{opts}</select></label>
  <label><span>Target traffic (MPS, total)</span> <input name="target" id="calc-target" type="text" inputmode="decimal" value="{escape(d['target'])}" required></label>
  <label>CPU ceiling per MP (1-100 %; with a mated pair, when one DSR carries everything; empty = the measured CPU peak, no extrapolation) <input name="ceiling" id="calc-ceiling" type="text" inputmode="decimal" value="{escape(d['ceiling'])}" placeholder="e.g. 60"></label>
  <label>Redundancy <select name="redundancy" id="calc-redundancy">{red}</select></label>
  <label><span>Spare <span class="atlas-unit">{escape(kind)}</span>s per DSR (N+k; 0 = none)</span> <input name="spare" id="calc-spare" type="number" min="0" max="{dsr_calc.MAX_SPARE}" step="1" value="{escape(d['spare'])}"></label>"""
    return calculator_shell.shell(r, "dsr", form, d)
