"""The DSR DA-MP calculator's page: benchmark run, target MPS, CPU ceiling, redundancy and spares."""
from __future__ import annotations

from html import escape

from calculators import dsr as dsr_calc
from calculators.formatting import fmt
from calculators.sizing import ceil

from . import calculator_shell


def page(renderer) -> str:
    """The DSR calculator page body (``{{ dsr_calculator() }}``), prerendered for the default run."""
    b = renderer.bundle
    runs = dsr_calc.sizable_runs(b)
    if not runs:
        return calculator_shell.nothing_to_compute("DSR")
    d = dsr_calc.defaults(b)
    opts = calculator_shell.scenario_options(b, runs, d["scenario"], lambda s: (
        f' data-unit="{escape(dsr_calc.mp_kind(s))}"'))
    kind = next(dsr_calc.mp_kind(s) for s in runs if s["id"] == d["scenario"])
    limit = dsr_calc.MAX_DA_MPS_PER_SITE
    red = "".join(f'<option value="{escape(k)}"{" selected" if k == d["redundancy"] else ""}>{escape(v)}</option>'
                  for k, v in dsr_calc.REDUNDANCY.items())
    form = f"""
  <label>Benchmark run (sets the MP flavor, profile and call model) <select name="scenario" id="calc-scenario" data-sets-load="target">{opts}</select></label>
  <label><span>Target traffic (MPS, total)</span> <input name="target" id="calc-target" type="text" inputmode="decimal" value="{escape(d['target'])}" required></label>
  <label>CPU ceiling per MP (1-100 %; with mated pairs, when one DSR site carries its pair's share; empty = the measured CPU peak, no extrapolation) <input name="ceiling" id="calc-ceiling" type="text" inputmode="decimal" value="{escape(d['ceiling'])}" placeholder="e.g. 60"></label>
  <label>Redundancy (the target is split over as many DSR sites or mated pairs as {limit} DA-MPs per site need) <select name="redundancy" id="calc-redundancy">{red}</select></label>
  <label><span>Spare <span class="atlas-unit">{escape(kind)}</span>s per DSR site (N+k; 0 = none; DA-MP spares count within the {limit} DA-MPs a site holds)</span> <input name="spare" id="calc-spare" type="number" min="0" max="{dsr_calc.MAX_SPARE}" step="1" value="{escape(d['spare'])}"></label>"""
    return calculator_shell.shell(renderer, dsr_calc.NAME, form, d)




def example(renderer) -> str:
    """The DSR method page's worked example (``{{ dsr_example() }}``), every figure read from the bundle or computed
    by ``calculators.dsr.compute`` now, so the text cannot drift from the data or the rule. The example is the DSR
    guide's (``atlas.guides``, the DSR calculator's example: the 12-vCPU relay run, 240,000 MPS, a 40 % ceiling).
    Raises KeyError if no guide provides it or the example run is not curated."""
    b = renderer.bundle
    ex = b["examples"][dsr_calc.NAME]
    sid, target, ceiling = ex["scenario"], ex["target"], ex["ceiling"]
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




def site_example(renderer) -> str:
    """The DSR method page's site-limit example (``{{ dsr_site_example() }}``): how many mated pairs 1,000,000 MPS
    takes at most 16 DA-MPs per DSR site, every figure computed by ``calculators.dsr.compute`` now; the example is the
    DSR guide's (the calculator's example, ``site_target`` and ``site_redundancy``: the 12-vCPU relay run, 1,000,000
    MPS, mated pairs, no ceiling, no spare). Raises KeyError if no guide provides it or the example run is not
    curated."""
    b = renderer.bundle
    ex = b["examples"][dsr_calc.NAME]
    sid, target = ex["scenario"], ex["site_target"]
    res = dsr_calc.compute(b, sid, target, redundancy=ex["site_redundancy"])
    m, e = res["methods"]["measured"], res["methods"]["engineered"]
    one_dsr = ceil(target / res["sizing_rate"])
    limit = res["site_limit"]
    return (f"Example: {fmt(target)} MPS with mated pairs, from the same relay run ({fmt(res['rate'])} MPS per DA-MP "
            f"measured, {fmt(e['rate'])} by its profile; no ceiling, no spare). One DSR would need "
            f"ceil({fmt(target)} / {fmt(res['sizing_rate'])}) = {fmt(one_dsr)} DA-MPs, more than the {limit} a site holds. "
            f"At {limit} per site the target takes ceil({fmt(target)} / ({fmt(res['sizing_rate'])} x {limit})) = "
            f"{res['units']} mated pairs of {fmt(res['share'])} MPS each. Each DSR site carries its pair's "
            f"{fmt(res['carry'])} MPS when its mate is down: ceil({fmt(res['carry'])} / {fmt(m['rate'])}) = {m['needed']} "
            f"DA-MPs (the engineered method: {e['needed']}), so {res['per_dsr']} per site x {res['dsrs']} sites = "
            f"{res['total']} DA-MPs, {fmt(res['vcpu_total'])} vCPU. (Computed when this site was built.)")
