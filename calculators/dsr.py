"""DSR message-processor sizing: how many DA-MPs (or vSTP SS7-MPs) of a benchmarked
flavor carry a target message rate at a chosen CPU ceiling.

Standard library only: this module runs unchanged in CPython and in Pyodide.

Data: the bundle key ``dsr_runs`` (built by macros/pages_calculators_dsr_shcm.py
from data/dsr/measurements.csv and settings.csv), one record per benchmark run
(scenario) with, per metric, ``value``, ``unit``, ``raw`` and its ``table_id``/
``row``/``column_label``. Units: message rates in MPS (messages per second),
CPU and RAM peaks in percent of the MP's vCPUs/RAM, flavors in vCPU.

Method, per run (scenario):

* **Per-MP rate P (MPS).** ``mps_achieved_per_da_mp`` where the guide prints it
  (Tables 3-8, 3-15, 3-19, 3-24); otherwise ``mps_achieved / da_mp_count``
  (Tables 3-1 and 3-3, whose captions print the DA-MP count) -- computed here,
  never stored. vSTP runs (Table 3-10) print ``mps_achieved_per_ss7_mp`` and are
  sized in SS7-MPs of ``ss7_mp_vcpu`` vCPU.
* **Measured CPU peak c (percent)**: ``cpu_peak`` of the same row.
* **At the measured load**: MPs = ceil(T / P).
* **At a CPU ceiling C (percent)**: each MP is assumed to carry P x C / c, so
  MPs = ceil(T x c / (P x C)). This extrapolates *linearly* from CPU peaks that
  the guide measured well below saturation (14-53 % for the sizable DA-MP
  runs, 2-56 % for vSTP); it is a planning estimate, not a vendor figure.
* **Spares (N+k)**: the user's number of spare MPs is added; the result shows
  the expected CPU per MP with all MPs in service and with k of them lost.
* **vCPU**: total MPs x the flavor's vCPU (``da_mp_vcpu`` / ``ss7_mp_vcpu``).

Runs that print neither a per-MP rate nor an MP count (Table 3-5 FABR-SDS,
dsr-E037; the PDRA runs of Table 3-12, which print only 'SBR MPS Achieved',
dsr-E049) are *not sizable*: ``not_sizable(bundle)`` lists them with the reason
and ``compute`` refuses them with that reason.

Errors: every bad input raises ``DsrError`` (a ValueError) with a message that
says what is wrong: unknown or not-sizable scenario; a target that is empty,
non-numeric, NaN/infinite, zero or negative; a ceiling outside (0, 100]; a spare
count that is not a whole number from 0 to MAX_SPARE; a result above MAX_MPS.
"""
from __future__ import annotations

import re
from fractions import Fraction

from . import inputs, web
from .text import escape, fmt
from .sizing import capacity_chart, ceil, cite, frac, list_html, steps_csv, steps_html

MAX_SPARE = 64
"""Most spare MPs accepted (a Benchmark Atlas limit, not a vendor figure)."""
MAX_MPS = 10000
"""A result above 10,000 MPs is refused: far outside anything the guide measured
(its largest setup has 16 DA-MPs); a Benchmark Atlas limit, not a vendor figure."""
DEFAULT_SCENARIO = "dsr-relay-12vcpu"


class DsrError(ValueError):
    """Bad input to the DSR calculator; the message says what and why."""


# ---------------------------------------------------------------- inputs


def _number(value, name: str, unit: str) -> Fraction:
    """A positive, finite number as an exact Fraction (see calculators.inputs.positive)."""
    return inputs.positive(value, name, unit, DsrError)


def _ceiling(value) -> Fraction | None:
    return inputs.optional_ceiling(value, DsrError)


def _spare(value) -> int:
    return inputs.spare_count(value, "Spare MPs", MAX_SPARE, DsrError)


# ---------------------------------------------------------------- runs

def runs(bundle: dict) -> list[dict]:
    """Every DSR run in the bundle (``dsr_runs``), in the guide's order."""
    return list(bundle.get("dsr_runs") or [])


def mp_kind(run: dict) -> str:
    """'SS7-MP' for vSTP runs (Table 3-10), else 'DA-MP'."""
    m = run["metrics"]
    return "SS7-MP" if "mps_achieved_per_ss7_mp" in m or "ss7_mp_vcpu" in m else "DA-MP"



def _erratum_ids(*texts) -> list[str]:
    out = []
    for t in texts:
        for e in re.findall(r"\bdsr-E\d{3}\b", t or ""):
            if e not in out:
                out.append(e)
    return out


def per_mp(run: dict) -> dict:
    """How the run gives a per-MP rate, or why it cannot.

    Returns ``{"sizable": True, "kind", "rate" (Fraction, MPS per MP), "how"
    ('printed' or 'derived'), "figures" (list of the measured figures used, each
    with value, unit, raw and cite), "vcpu" (Fraction or None), "cpu_peak"
    (Fraction or None)}`` or ``{"sizable": False, "kind", "reason"}``.
    """
    m, kind = run["metrics"], mp_kind(run)
    figures = []

    def fig(key, label):
        x = m[key]
        figures.append({"key": key, "label": label, "value": frac(x["value"]), "unit": x["unit"], "raw": x["raw"],
                        "cite": cite(x), "status": x.get("status"), "errata": list(x.get("errata") or [])})
        return frac(x["value"])

    if kind == "SS7-MP":
        if "mps_achieved_per_ss7_mp" not in m:
            return {"sizable": False, "kind": kind, "reason": "No MPS per SS7-MP is printed for this run."}
        rate = fig("mps_achieved_per_ss7_mp", "MPS achieved per SS7-MP (printed)")
        how = "printed"
        if "ss7_mp_count" in m:
            fig("ss7_mp_count", "SS7-MPs in the run")
        vcpu = fig("ss7_mp_vcpu", "SS7-MP flavor") if "ss7_mp_vcpu" in m else None
    elif "mps_achieved_per_da_mp" in m:
        if "mps_achieved" in m:
            fig("mps_achieved", "MPS achieved, whole setup")
        if "da_mp_count" in m:
            fig("da_mp_count", "DA-MPs in the setup")
        rate = fig("mps_achieved_per_da_mp", "MPS achieved per DA-MP (printed)")
        how = "printed"
        vcpu = fig("da_mp_vcpu", "DA-MP flavor") if "da_mp_vcpu" in m else None
    elif "mps_achieved" in m and "da_mp_count" in m:
        total = fig("mps_achieved", "MPS achieved, whole setup")
        count = fig("da_mp_count", "DA-MPs in the setup")
        rate = total / count
        how = "derived"
        vcpu = fig("da_mp_vcpu", "DA-MP flavor") if "da_mp_vcpu" in m else None
    else:
        key = "mps_achieved" if "mps_achieved" in m else "sbr_mps_achieved" if "sbr_mps_achieved" in m else None
        ids = list(m[key].get("errata") or []) if key else []
        for e in _erratum_ids(*run.get("notes", [])):
            if e not in ids:
                ids.append(e)
        if "mps_achieved" in m:
            reason = (f"The run prints {fmt(frac(m['mps_achieved']['value']))} MPS ({cite(m['mps_achieved'])}) but no "
                      "number of DA-MPs, so no per-DA-MP rate can be derived.")
        elif "sbr_mps_achieved" in m:
            reason = (f"The only rate printed is 'SBR MPS Achieved' ({fmt(frac(m['sbr_mps_achieved']['value']))} MPS, "
                      f"{cite(m['sbr_mps_achieved'])}); the guide does not say whether it is the rate at the DA-MPs, "
                      "so no per-DA-MP rate is derived.")
        else:
            reason = "Neither a rate per MP nor an MP count is printed for this run."
        if ids:
            reason += " See " + ", ".join(ids) + "."
        return {"sizable": False, "kind": kind, "reason": reason, "errata": ids}
    cpu = fig("cpu_peak", "CPU peak per MP") if "cpu_peak" in m else None
    if "ram_peak" in m:
        fig("ram_peak", "RAM peak per MP")
    if kind == "SS7-MP" and "mps_achieved_per_proxy_mp" in m:
        fig("mps_achieved_per_proxy_mp", "MPS per proxy MP (printed, not sized here)")
    return {"sizable": True, "kind": kind, "rate": rate, "how": how, "figures": figures, "vcpu": vcpu, "cpu_peak": cpu}


def sizable_runs(bundle: dict) -> list[dict]:
    """Runs with a per-MP rate (printed or derivable), in the guide's order."""
    return [r for r in runs(bundle) if per_mp(r)["sizable"]]


def not_sizable(bundle: dict) -> list[dict]:
    """Runs that cannot be sized, each ``{"id", "section", "short_title", "reason"}``."""
    out = []
    for r in runs(bundle):
        p = per_mp(r)
        if not p["sizable"]:
            out.append({"id": r["id"], "section": r.get("section"), "short_title": r["short_title"], "reason": p["reason"]})
    return out


def cpu_range(bundle: dict, kind: str) -> tuple[Fraction, Fraction] | None:
    """Lowest and highest measured CPU peak (percent) over the sizable runs of one MP kind."""
    peaks = [p["cpu_peak"] for p in (per_mp(r) for r in runs(bundle)) if p["sizable"] and p["kind"] == kind and p["cpu_peak"] is not None]
    return (min(peaks), max(peaks)) if peaks else None


def profile_rate(run: dict) -> tuple[Fraction, dict] | None:
    """The message rate named by the DA-MP Profile (e.g. '30K_MPS' -> 30000 MPS) with its settings row, or None."""
    s = (run.get("settings") or {}).get("DA-MP Profile")
    if not s:
        return None
    found = re.match(r"^\s*(\d+(?:\.\d+)?)\s*K_MPS\b", str(s["value"]))
    return (Fraction(found.group(1)) * 1000, s) if found else None


def defaults(bundle: dict) -> dict:
    """Default inputs: the 12-vCPU relay run of Table 3-1 at its own measured 288K MPS, no ceiling, no spare."""
    rs = sizable_runs(bundle)
    r = next((x for x in rs if x["id"] == DEFAULT_SCENARIO), rs[0])
    m = r["metrics"]
    p = per_mp(r)
    target = m["mps_achieved"]["value"] if "mps_achieved" in m else p["rate"]
    return {"scenario": r["id"], "target": fmt(frac(target)).replace(",", ""), "ceiling": "", "spare": "0"}


# ---------------------------------------------------------------- compute


def compute(bundle: dict, scenario: str, target_mps, cpu_ceiling_percent=None, spare=0) -> dict:
    """Size the MPs of run ``scenario`` for ``target_mps``.

    Arguments:
        bundle: the calculator bundle (needs ``dsr_runs``; ``dsr_notes`` optional).
        scenario: a DSR scenario id, e.g. 'dsr-relay-12vcpu'.
        target_mps: total message rate to carry, MPS (> 0). For vSTP runs, in the
            guide's weighted messages (MNP = 2, SFAPP = 4 messages, dsr-G24).
        cpu_ceiling_percent: highest CPU per MP you accept, percent (0 < C <= 100);
            None sizes at the measured per-MP rate (no extrapolation).
        spare: spare MPs added on top (N+k), 0..MAX_SPARE.

    Returns a dict: ``inputs``; ``run`` (id, section, titles, call model, flavor and
    profile settings); ``kind`` ('DA-MP' or 'SS7-MP'); ``figures`` (measured
    values used, each with its table/row/column cite); ``rate`` (MPS per MP at the
    measured CPU peak), ``how`` ('printed' or 'derived'); ``cpu_peak``;
    ``mps_at_measured`` (MPs at the measured rate); ``rate_at_ceiling`` and
    ``mps_at_ceiling`` (None without a ceiling); ``needed`` (the MPs for the load),
    ``total`` (needed + spare), ``vcpu_per_mp``/``vcpu_total``; ``cpu_all`` and
    ``cpu_after_loss`` (expected CPU per MP, percent, with all MPs and with the
    spares lost); ``profile`` (rate named by the DA-MP Profile, if any);
    ``extrapolation`` (C / c or None); ``warnings``; ``notes`` (errata and rules
    that apply); ``cpu_range`` (measured peaks of this MP kind); ``not_sizable``.
    Fractions are exact; render them with ``calculators.render.fmt``.

    Raises DsrError for an unknown or not-sizable scenario and any invalid number.
    """
    run = next((r for r in runs(bundle) if r["id"] == scenario), None)
    if run is None:
        raise DsrError(f"Unknown scenario {scenario!r}: choose a DSR benchmark run.")
    p = per_mp(run)
    if not p["sizable"]:
        raise DsrError(f"Scenario {scenario} cannot be sized: {p['reason']}")
    target = _number(target_mps, "Target traffic", "MPS")
    ceiling = _ceiling(cpu_ceiling_percent)
    k = _spare(spare)
    kind, rate, c = p["kind"], p["rate"], p["cpu_peak"]
    warnings: list[str] = []

    at_measured = ceil(target / rate)
    rate_ceiling = at_ceiling = extrapolation = None
    if ceiling is not None:
        if c is None or c == 0:
            warnings.append("No CPU peak is printed for this run, so the ceiling cannot be applied; sized at the measured rate.")
        else:
            extrapolation = ceiling / c
            rate_ceiling = rate * ceiling / c
            at_ceiling = ceil(target / rate_ceiling)
    needed = at_ceiling if at_ceiling is not None else at_measured
    total = needed + k
    if total > MAX_MPS:
        raise DsrError(f"The target needs {total:,} {kind}s, above the {MAX_MPS:,} this calculator accepts: "
                       f"no benchmark supports extrapolating that far. Check the target ({fmt(target)} MPS).")
    cpu_all = target * c / (total * rate) if c is not None else None
    cpu_loss = target * c / (needed * rate) if c is not None else None
    vcpu_total = total * p["vcpu"] if p["vcpu"] is not None else None

    rng = cpu_range(bundle, kind)
    if extrapolation is not None and extrapolation > 1:
        warnings.append(f"The ceiling of {fmt(ceiling)}% is {fmt(extrapolation, 2)} x the measured CPU peak of {fmt(c)}%: "
                        f"the per-MP rate is extrapolated linearly from {fmt(rate)} to {fmt(rate_ceiling)} MPS. "
                        f"The guide measured {kind} CPU peaks of {fmt(rng[0])}-{fmt(rng[1])}% only; "
                        "nothing in it shows that the rate keeps rising in step with CPU up to this ceiling.")
    prof = profile_rate(run) if kind == "DA-MP" else None
    per_mp_load = rate_ceiling if rate_ceiling is not None else rate
    if prof is not None and per_mp_load > prof[0]:
        alt = ceil(target / prof[0])
        warnings.append(f"Each DA-MP would carry {fmt(per_mp_load)} MPS, above the {fmt(prof[0])} MPS named by its "
                        f"DA-MP Profile '{prof[1]['value']}' (Table {prof[1]['table_id']}, row {prof[1]['row']}). If the profile "
                        f"caps the DA-MP's message rate, {alt:,} DA-MPs (+{k} spare) would be needed instead; the guide "
                        "does not state the profile's limit, so this is not applied.")
    best = max(((per_mp(r)["rate"], r) for r in runs(bundle) if per_mp(r).get("kind") == kind and per_mp(r)["sizable"]),
               key=lambda x: x[0], default=None)
    if best is not None and per_mp_load > best[0]:
        warnings.append(f"Each {kind} would carry {fmt(per_mp_load)} MPS, above the highest rate per {kind} of any run "
                        f"in the guide ({fmt(best[0])} MPS, {best[1]['section']} {best[1]['short_title']}).")
    if c is not None and ceiling is not None and ceiling < c:
        warnings.append(f"The ceiling ({fmt(ceiling)}%) is below the measured CPU peak ({fmt(c)}%): each MP is sized "
                        "for less than the benchmark carried.")

    notes = _notes(bundle, run, p)
    return {
        "inputs": {"scenario": scenario, "target_mps": target, "cpu_ceiling_percent": ceiling, "spare": k},
        "run": {"id": run["id"], "section": run.get("section"), "title": run["title"], "short_title": run["short_title"],
                "call_mix": run.get("call_mix"), "call_mix_where": run.get("call_mix_where"),
                "settings": run.get("settings") or {}, "deployment_mode": run.get("deployment_mode")},
        "kind": kind, "figures": p["figures"], "rate": rate, "how": p["how"], "cpu_peak": c,
        "mps_at_measured": at_measured, "rate_at_ceiling": rate_ceiling, "mps_at_ceiling": at_ceiling,
        "needed": needed, "total": total, "vcpu_per_mp": p["vcpu"], "vcpu_total": vcpu_total,
        "cpu_all": cpu_all, "cpu_after_loss": cpu_loss, "extrapolation": extrapolation,
        "profile": {"rate": prof[0], "value": prof[1]["value"], "cite": f"Table {prof[1]['table_id']}, row {prof[1]['row']}"} if prof else None,
        "cpu_range": rng, "warnings": warnings, "notes": notes, "not_sizable": not_sizable(bundle),
    }


def _notes(bundle: dict, run: dict, p: dict) -> list[str]:
    """Errata cited by the figures used and the run's contradictions, and the sizing rules that apply."""
    info = bundle.get("dsr_notes") or {}
    errata, guidance = info.get("errata") or {}, info.get("guidance") or {}
    out = []
    ids = []
    for f in p["figures"]:
        ids += [e for e in f["errata"] if e not in ids]
    for c in run.get("contradictions") or []:
        if c.get("erratum") and c["erratum"] not in ids:
            ids.append(c["erratum"])
    for e in ids:
        if e in errata:
            out.append(f"{e}: {errata[e]['problem']}")
    for n in run.get("notes") or []:
        out.append(n)

    def rule(topic):
        for gid, g in guidance.items():
            if g["topic"] == topic:
                out.append(f"{gid} (infrastructure rule, seed line {g['line']}): {g['setting']}")

    mode = (run.get("deployment_mode") or "").lower()
    if p["kind"] == "SS7-MP":
        rule("vstp-message-weights")
        rule("vstp-timers")
    if "relay" in mode:
        rule("da-mp-relay-tuning")
    if "dsa" in mode:
        rule("dsa-comagent")
    return out


# ---------------------------------------------------------------- output


def _rows(res: dict) -> list[tuple]:
    """(section, key, label, value, unit, source) for HTML and CSV alike."""
    i, kind = res["inputs"], res["kind"]
    out = [
        ("input", "scenario", "Benchmark run", f"{res['run']['section']} {res['run']['short_title']} ({res['run']['id']})", "", ""),
        ("input", "target_mps", "Target traffic", i["target_mps"], "MPS", "your input"),
        ("input", "cpu_ceiling_percent", "CPU ceiling per MP", i["cpu_ceiling_percent"], "percent",
         "your input" if i["cpu_ceiling_percent"] is not None else "none: sized at the measured CPU peak"),
        ("input", "spare", f"Spare {kind}s (N+k)", i["spare"], "count", "your input"),
    ]
    if res["run"].get("call_mix"):
        out.append(("measured", "call_mix", "Call model", res["run"]["call_mix"], "", res["run"].get("call_mix_where") or ""))
    for label, s in (res["run"]["settings"] or {}).items():
        out.append(("measured", "setting:" + label, label, s["value"], "", f"Table {s['table_id']}, row {s['row']}"))
    for f in res["figures"]:
        src = f["cite"] + (f" (printed '{f['raw']}')" if f["raw"] is not None else "")
        out.append(("measured", f["key"], f["label"], f["value"], f["unit"], src))
    if res["how"] == "derived":
        fig = {f["key"]: f for f in res["figures"]}
        out.append(("computed", "rate", f"MPS per {kind} at the measured CPU peak", res["rate"], "MPS",
                    f"= {fmt(fig['mps_achieved']['value'])} / {fmt(fig['da_mp_count']['value'])} (computed here, not printed)"))
    else:
        out.append(("computed", "rate", f"MPS per {kind} at the measured CPU peak", res["rate"], "MPS", "as printed"))
    out.append(("result", "mps_at_measured", f"{kind}s at the measured rate", res["mps_at_measured"], "count",
                f"ceil({fmt(i['target_mps'])} / {fmt(res['rate'])})"))
    if res["rate_at_ceiling"] is not None:
        out.append(("computed", "rate_at_ceiling", f"MPS per {kind} at the ceiling", res["rate_at_ceiling"], "MPS",
                    f"{fmt(res['rate'])} x {fmt(i['cpu_ceiling_percent'])} / {fmt(res['cpu_peak'])} (linear extrapolation)"))
        out.append(("result", "mps_at_ceiling", f"{kind}s at the ceiling", res["mps_at_ceiling"], "count",
                    f"ceil({fmt(i['target_mps'])} / {fmt(res['rate_at_ceiling'])})"))
    out.append(("result", "total", f"{kind}s to deploy", res["total"], "count",
                f"{res['needed']:,} for the load + {i['spare']} spare"))
    if res["vcpu_total"] is not None:
        out.append(("result", "vcpu_total", f"vCPU for these {kind}s", res["vcpu_total"], "vCPU",
                    f"{res['total']:,} x {fmt(res['vcpu_per_mp'])} vCPU"))
    if res["cpu_all"] is not None:
        out.append(("result", "cpu_all", f"Expected CPU per {kind}, all in service", res["cpu_all"], "percent",
                    f"{fmt(i['target_mps'])} x {fmt(res['cpu_peak'])} / ({res['total']:,} x {fmt(res['rate'])})"))
        if i["spare"]:
            out.append(("result", "cpu_after_loss", f"Expected CPU per {kind} with {i['spare']} lost", res["cpu_after_loss"],
                        "percent", f"{fmt(i['target_mps'])} x {fmt(res['cpu_peak'])} / ({res['needed']:,} x {fmt(res['rate'])})"))
    return out


def result_html(res: dict) -> str:
    """The result as an HTML fragment (every text escaped)."""
    kind, i = res["kind"], res["inputs"]
    parts = [f'<div class="atlas-result" data-scenario="{escape(res["run"]["id"])}" data-kind="{escape(kind)}">']
    how = (f"at a CPU ceiling of {fmt(i['cpu_ceiling_percent'])}% (measured peak {fmt(res['cpu_peak'])}%)"
           if res["rate_at_ceiling"] is not None else f"at the measured rate ({fmt(res['rate'])} MPS per {kind})")
    parts.append(f'<p class="atlas-summary"><strong data-key="total">{res["total"]:,} {escape(kind)}s</strong> '
                 f'({res["needed"]:,} for {fmt(i["target_mps"])} MPS {escape(how)}, + {i["spare"]} spare)'
                 + (f', {fmt(res["vcpu_total"])} vCPU' if res["vcpu_total"] is not None else "")
                 + f'. Baseline: {escape(res["run"]["section"] or "")} {escape(res["run"]["short_title"])}. '
                 'A planning estimate, not a vendor figure.</p>')
    parts.append(list_html(res["warnings"], "atlas-warnings"))
    parts.append(steps_html(_rows(res), "atlas-dsr"))
    parts.append(list_html(res["notes"], "atlas-notes", "Notes from the guide and its errata that bear on this run:"))
    ns = res["not_sizable"]
    if ns:
        parts.append(f'<details class="atlas-not-sizable"><summary>{len(ns)} benchmark run(s) cannot be sized from the guide</summary><ul>'
                     + "".join(f'<li data-scenario="{escape(x["id"])}"><strong>{escape((x["section"] or "") + " " + x["short_title"])}</strong>: '
                               f'{escape(x["reason"])}</li>' for x in ns) + "</ul></details>")
    parts.append("</div>")
    return "".join(parts)


def result_csv(res: dict) -> str:
    """One line per input, measured figure and result (section, key, item, value, unit, source), then the warnings."""
    return steps_csv(res["run"]["id"], _rows(res), res["warnings"])


def result_chart(res: dict) -> dict:
    """Vega-Lite spec: MPS capacity against the number of MPs (at the measured rate and at the ceiling), with the target."""
    kind, target = res["kind"], float(res["inputs"]["target_mps"])
    top = max(res["total"], res["mps_at_measured"], res["mps_at_ceiling"] or 0)
    counts = sorted({0, res["needed"], res["total"], res["mps_at_measured"], top} | ({res["mps_at_ceiling"]} if res["mps_at_ceiling"] else set()))
    series = [(f"at the measured CPU peak ({fmt(res['cpu_peak'])}%)" if res["cpu_peak"] is not None else "at the measured rate", res["rate"])]
    if res["rate_at_ceiling"] is not None:
        series.append((f"at the {fmt(res['inputs']['cpu_ceiling_percent'])}% ceiling (extrapolated)", res["rate_at_ceiling"]))
    return capacity_chart(description=f"MPS capacity against the number of {kind}s, with the target", x_field="mps_count",
                          x_title=f"{kind}s", unit="MPS", series=series, counts=counts, target=target)


def run_web(bundle: dict, params: dict) -> dict:
    """Form parameters (strings) -> ``{html, chart, downloads: {csv}, inputs}``; raises DsrError for bad input."""
    res = compute(bundle, params.get("scenario") or "", params.get("target"),
                  cpu_ceiling_percent=params.get("ceiling") or None, spare=params.get("spare") or 0)
    i = res["inputs"]
    return {"html": result_html(res), "chart": result_chart(res),
            "inputs": {"scenario": i["scenario"], "target": fmt(i["target_mps"], 6).replace(",", ""),
                       "ceiling": "" if i["cpu_ceiling_percent"] is None else fmt(i["cpu_ceiling_percent"], 6),
                       "spare": str(i["spare"])},
            "downloads": {"csv": {"text": result_csv(res), "mime": "text/csv", "filename": f"dsr-{res['run']['id']}.csv"}}}


web.register("dsr", run_web, DsrError)
