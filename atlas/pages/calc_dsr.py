"""The DSR DA-MP calculator's page: benchmark run, target MPS, CPU ceiling, redundancy and spares."""
from __future__ import annotations

from html import escape

from calculators import dsr as dsr_calc
from calculators.formatting import fmt

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


EXAMPLE = {"scenario": "dsr-relay-12vcpu", "target": 240000, "ceiling": 40}
"""The method page's worked example (issue 12's case): the 12-vCPU relay run, 240,000 MPS, a 40 % ceiling."""


def example(r) -> str:
    """The DSR method page's worked example (``{{ dsr_example() }}``), every figure read from the bundle or computed
    by ``calculators.dsr.compute`` now, so the text cannot drift from the data or the rule. Raises KeyError if the
    example run is not curated."""
    b = r.bundle
    sid, target, ceiling = EXAMPLE["scenario"], EXAMPLE["target"], EXAMPLE["ceiling"]
    res = dsr_calc.compute(b, sid, target, ceiling)
    bare = dsr_calc.compute(b, sid, target)
    fig = {f["key"]: f for f in res["figures"]}
    mps, mps_n, cpu = fig["mps_achieved"], fig["da_mp_count"], fig["cpu_peak"]
    run = next(x for x in b["dsr_runs"] if x["id"] == sid)
    printed = run["metrics"]["mps_achieved"]
    table, row = f"Table {printed['table_id']}", f"row {printed['row']}"
    m, e = res["methods"]["measured"], res["methods"]["engineered"]
    prof = res["profile"]
    scaled = res["rate_at_ceiling"]
    capped = (f"above the run's own `{escape(prof['value'])}` profile, so it is capped at {fmt(prof['rate'])}"
              if m["capped_profile"] else "within the run's profile")
    return (f"Example: relay, {fmt(fig['da_mp_vcpu']['value'])} vCPU ({table}, {row}: "
            f"{fmt(mps['value'])} MPS on {fmt(mps_n['value'])} DA-MPs = {fmt(res['rate'])} MPS per "
            f"DA-MP at {fmt(cpu['value'])} % CPU), {fmt(target)} MPS at a {ceiling} % ceiling. The measured "
            f"rate scales to {fmt(res['rate'])} x {ceiling} / {fmt(cpu['value'])} = {fmt(scaled, 0)} MPS, "
            f"{capped}: {m['needed']} DA-MPs; the engineered method gives {e['needed']}. Without a ceiling the measured "
            f"method gives {bare['methods']['measured']['needed']}"
            + (" and is the headline" if bare["headline"] == "measured" else "") + ". (Computed when this site was built.)")
