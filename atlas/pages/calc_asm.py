"""The ASM overhead calculator's page: ASM-on and ASM-off scenario choices and the what-if load."""
from __future__ import annotations

from html import escape

from calculators import asm as asm_calc, footprint as fp

from . import calculator_shell as cp


def page(renderer) -> str:
    """The ASM overhead calculator page body (``{{ asm_calculator() }}``), prerendered for the default pair."""
    bundle = renderer.bundle
    d = asm_calc.defaults(bundle)
    on_ids, off_ids = set(asm_calc.asm_on_ids(bundle)), set(asm_calc.asm_off_ids(bundle))
    on = [s for s in bundle["scenarios"] if s["id"] in on_ids]
    off = [s for s in fp.scenarios_with_resources(bundle) if s["id"] in off_ids]
    skipped = asm_calc.not_offered(bundle)
    doc = lambda s: f' data-doc="{escape(s["doc"])}"'  # the ASM-off choices follow the ASM-on scenario's product (calculator.js)
    note = ""
    if skipped:
        note = ('<p class="atlas-note" id="calc-asm-not-offered">Not offered as either side: '
                + "; ".join(f'<span data-scenario="{escape(x["id"])}">{escape(x["reason"].removesuffix(".").split("; choose")[0])}</span>'
                            for x in skipped) + ".</p>")
    form = f"""
  <label>ASM-on scenario (ASM enabled in the guide, sidecars printed) <select name="on" id="calc-on">{cp.scenario_options(bundle, on, d['on'], doc)}</select></label>
  <label>ASM-off scenario (ASM disabled in the guide, no sidecar printed; same product; the difference is given only for the same call model and deployment mode) <select name="off" id="calc-off" data-same-doc-as="on">{cp.scenario_options(bundle, off, d['off'], doc)}</select></label>
  <label>What-if load, total (the ASM-off scenario's unit; empty = its own load) <input name="load" id="calc-load" type="text" inputmode="decimal" value="" placeholder="e.g. 80000"></label>
  {note}"""
    return cp.shell(renderer, "asm", form, d)


def _example(renderer) -> tuple[str, str]:
    """The method page's example pair (ASM-on, ASM-off scenario ids): the ``asm`` example a guide provides
    (``atlas.guides``: BSF 3.2 against BSF 3.1). Raises KeyError when no guide provides one."""
    ex = renderer.bundle["examples"]["asm"]
    return ex["on"], ex["off"]


def _name(renderer, sid: str) -> str:
    """A scenario as readers name it: the product's short name and the guide's section ("BSF 3.2")."""
    s = renderer.atlas.scenario(sid)
    return f"{renderer.atlas.source(s['doc'])['short_name']} {s['section']}"


def example_observed(renderer) -> str:
    """The ASM method page's observed-use example (``{{ asm_example_observed() }}``): the example ASM-on run's sidecar
    share of the CPU used at its traffic site (in total, and for the service with the largest share) and per 1K of
    load, computed now by ``calculators.asm.overhead`` from the data."""
    from calculators.formatting import fmt
    sid = _example(renderer)[0]
    o = asm_calc.overhead(renderer.bundle, sid)
    c = o["observed"]["cpu"]
    top = max(((v, k) for k, v in c["by_service"].items() if v is not None), default=None)
    tables = sorted({u["table_id"] for u in renderer.bundle["utilization"]
                     if u["scenario"] == sid and u["metric"] == "cpu" and u["site"] == c["site"]})
    per_service = (f" ({_name(renderer, sid)}, {c['site'].capitalize()}: {top[1]} {fmt(top[0], 1)} %, the largest share)"
                   if top else "")
    return (f"Per service, the same ratio over that service's containers{per_service}. In total at "
            f"{c['site'].capitalize()} (Tables {' and '.join(tables)}) the sidecars used {fmt(c['sidecar'])} of {fmt(c['total'])} "
            f"{c['unit']}: {fmt(c['share'], 2)} %. The observed sidecar CPU per 1K of load ({fmt(c['sidecar'])} cores at "
            f"{fmt(o['load'])} {o['unit']}: {fmt(c['sidecar_per_1k'], 2)} cores per 1K {o['unit']}) is shown beside the requested "
            f"figure ({fmt(o['cpu_sidecar_per_1k'], 2)}).")


def example_compare(renderer) -> str:
    """The ASM method page's like-for-like example (``{{ asm_example_compare() }}``): the example pair (ASM on against
    ASM off), normalised per 1K by ``calculators.asm.compare`` now, with its verdict (BSF 3.2 against BSF 3.1 is
    refused as not comparable: the call models differ)."""
    from calculators.formatting import fmt
    a, b = _example(renderer)
    c = asm_calc.compare(renderer.bundle, a, b)
    on, off = c["on"], c["off"]
    facts = {f["id"]: f for f in renderer.bundle["scenario_facts"]}
    d = on["cpu_total_per_1k"] - off["cpu_total_per_1k"]
    verdict = ("the call models differ, so no difference is given" if not c["comparable"]
               else "the pair is comparable")
    return (f"Example: {_name(renderer, a)} ({facts[a]['call_mix']}, {fmt(on['load'])} {on['unit']}: {fmt(on['cpu_total_per_1k'], 2)} "
            f"cores per 1K) against {_name(renderer, b)} ({facts[b]['call_mix']}, {fmt(off['load'])} {off['unit']}: "
            f"{fmt(off['cpu_total_per_1k'], 2)}) would read as ASM costing {fmt(abs(d), 2)} cores per 1K "
            f"*{'less' if d < 0 else 'more'}*; {verdict}.")
