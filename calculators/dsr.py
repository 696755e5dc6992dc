"""DSR message-processor sizing: how many DA-MPs (or vSTP SS7-MPs) of a benchmarked
flavor carry a target message rate at a chosen CPU ceiling.

Standard library only: this module runs unchanged in CPython and in Pyodide.

Data: the bundle key ``dsr_runs`` (built by atlas/bundle_dsr.py
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
* **Two methods, the more conservative is the headline** (``compute``):
  *measured*: P, or with a CPU ceiling C, P x C / c, scaled linearly only up to
  the highest CPU peak the guide measured for the flavour (MP kind and vCPU:
  12-vCPU DA-MP 14-53 %, 18-vCPU DA-MP 28 %, 8-vCPU SS7-MP 2-56 %); beyond it a
  warning and that cap. *engineered*: the rate the DA-MP Profile names
  ('30K_MPS' = 30,000 MPS per DA-MP; alarm 22221 fires when a DA-MP approaches
  its engineered capacity, seed 002 line 285). A DA-MP is never given more than
  its profile's rated MPS, in either method.
* **Redundancy**: none, or a mated pair, where "one DSR needs to support full
  traffic, when one of the DSRs is unavailable" (seed 002 line 28): each DSR is
  sized for the whole target and two are deployed.
* **Spares (N+k)**: the user's number of spare MPs per DSR is added; the result
  shows the expected CPU per MP (linear from the measured point) with all MPs in
  service and with the spares lost and the mate down.
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

from . import catalogue, inputs
from .formatting import escape, fmt
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
                        "cite": cite(x), "table_id": x["table_id"], "row": x["row"], "column": x.get("column_label"),
                        "status": x.get("status"), "errata": list(x.get("errata") or [])})
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
    """The message rate named by the DA-MP Profile (e.g. '30K_MPS' -> 30000 MPS, '40K_MPS_FABR' -> 40000 MPS)
    with its settings row, or None."""
    s = (run.get("settings") or {}).get("DA-MP Profile")
    if not s:
        return None
    found = re.match(r"^\s*(\d+(?:\.\d+)?)\s*K_MPS(?:_[A-Za-z0-9]+)*\s*$", str(s["value"]))
    return (Fraction(found.group(1)) * 1000, s) if found else None


def defaults(bundle: dict, scenario: str | None = None) -> dict:
    """Default inputs (strings, as the page's fields hold them): run ``scenario`` at its own measured load (its MPS
    achieved, else its per-MP rate: one MP), no ceiling, no spare, no redundancy. Without ``scenario``, the 12-vCPU
    relay run of Table 3-1 (288K MPS). Raises KeyError for a ``scenario`` that is not a sizable run."""
    rs = sizable_runs(bundle)
    if scenario is not None:
        r = next((x for x in rs if x["id"] == scenario), None)
        if r is None:
            raise KeyError(f"{scenario!r} is not a DSR run with a per-MP rate")
    else:
        r = next((x for x in rs if x["id"] == DEFAULT_SCENARIO), rs[0])
    m = r["metrics"]
    p = per_mp(r)
    target = m["mps_achieved"]["value"] if "mps_achieved" in m else p["rate"]
    return {"scenario": r["id"], "target": fmt(frac(target)).replace(",", ""), "ceiling": "", "spare": "0", "redundancy": "none"}


# ---------------------------------------------------------------- compute


REDUNDANCY = {"none": "none (one DSR carries the target)",
              "mated-pair": "mated pair (each DSR carries the whole target when its mate is down)"}
"""Redundancy choices. Mated pair: 'one DSR needs to support full traffic, when one of the DSRs is
unavailable' (the guide's planning section, seed 002 line 28), so each of the two DSRs is sized for the
whole target and the pair deploys twice that."""


def flavour_range(bundle: dict, kind: str, vcpu) -> tuple[Fraction, Fraction] | None:
    """Lowest and highest CPU peak (percent) the guide measured for one MP flavour: the sizable runs
    of the same MP kind and vCPU count (12-vCPU DA-MP: 14-53 %; 18-vCPU DA-MP: 28 %; 8-vCPU SS7-MP:
    2-56 %). None when no run of that flavour prints a CPU peak."""
    peaks = [p["cpu_peak"] for p in (per_mp(r) for r in runs(bundle))
             if p["sizable"] and p["kind"] == kind and p["vcpu"] == vcpu and p["cpu_peak"] is not None]
    return (min(peaks), max(peaks)) if peaks else None


def compute(bundle: dict, scenario: str, target_mps, cpu_ceiling_percent=None, spare=0, redundancy="none") -> dict:
    """Size the MPs of run ``scenario`` for ``target_mps`` by two methods; the more conservative is the headline.

    Arguments:
        bundle: the calculator bundle (needs ``dsr_runs``; ``dsr_notes`` optional).
        scenario: a DSR scenario id, e.g. 'dsr-relay-12vcpu'.
        target_mps: total message rate to carry, MPS (> 0). For vSTP runs, in the
            guide's weighted messages (MNP = 2, SFAPP = 4 messages, dsr-G24).
        cpu_ceiling_percent: highest CPU per MP you accept when an MP carries the
            load it is sized for, percent (1 <= C <= 100; with a mated pair, when
            one DSR carries everything); None sizes at the measured per-MP rate.
        spare: spare MPs per DSR (N+k), 0..MAX_SPARE.
        redundancy: 'none' or 'mated-pair' (see REDUNDANCY).

    Methods:
        measured: the per-MP rate P as benchmarked at CPU peak c; with a ceiling C,
            P x min(C, hi) / c, where hi is the highest CPU peak the guide measured
            for the flavour (``flavour_range``): beyond it a warning and that cap.
            Never above the DA-MP profile's rated MPS.
        engineered: the DA-MP profile's rated MPS (e.g. '30K_MPS' = 30,000 MPS per
            DA-MP; alarm 22221 fires when a DA-MP approaches or exceeds its
            engineered capacity, seed 002 line 285). None for vSTP runs (no profile).
        Each method sizes one DSR for the load it must carry (the whole target,
        with or without a mate); the headline is the method needing more MPs.

    Returns a dict: ``inputs``; ``run``; ``kind`` ('DA-MP'/'SS7-MP'); ``figures``
    (measured values used, each cited); ``rate`` (MPS per MP at the measured CPU
    peak), ``how`` ('printed'/'derived'); ``cpu_peak``; ``flavour_range``;
    ``mps_at_measured`` (MPs per DSR at P); ``rate_at_ceiling`` (P scaled to the
    ceiling within the flavour's range, before the profile cap; None without a
    ceiling) and ``mps_at_ceiling``; ``methods``: {"measured": {rate, needed,
    capped_range, capped_profile}, "engineered": {rate, needed} or None};
    ``headline`` ('measured'/'engineered'/'both'); ``needed`` (MPs per DSR for the
    load), ``per_dsr`` (needed + spare), ``dsrs`` (1 or 2), ``total`` (all DSRs),
    ``vcpu_per_mp``/``vcpu_total``; ``cpu_all`` (expected CPU per MP in normal
    operation) and ``cpu_after_loss`` (spares lost and, with a mated pair, the mate
    down), percent, from the measured point (linear); ``profile``; ``extrapolation``;
    ``warnings``; ``notes``; ``cpu_range``; ``not_sizable``. Fractions are exact.

    Raises DsrError for an unknown or not-sizable scenario, an unknown redundancy
    and any invalid number.
    """
    run = next((r for r in runs(bundle) if r["id"] == scenario), None)
    if run is None:
        raise DsrError(f"Unknown scenario {inputs.shown(scenario)!r}: choose a DSR benchmark run.")
    p = per_mp(run)
    if not p["sizable"]:
        raise DsrError(f"Scenario {scenario} cannot be sized: {p['reason']}")
    if redundancy in (None, ""):
        redundancy = "none"
    if redundancy not in REDUNDANCY:
        raise DsrError(f"Redundancy must be one of {', '.join(REDUNDANCY)}; got {inputs.shown(redundancy)!r}.")
    target = _number(target_mps, "Target traffic", "MPS")
    ceiling = _ceiling(cpu_ceiling_percent)
    k = _spare(spare)
    kind, rate, c = p["kind"], p["rate"], p["cpu_peak"]
    dsrs = 2 if redundancy == "mated-pair" else 1
    carry = target  # the load one DSR must carry: all of it, alone or when its mate is down
    warnings: list[str] = []
    rng = flavour_range(bundle, kind, p["vcpu"])
    flavour = f"{fmt(p['vcpu'])}-vCPU {kind}" if p["vcpu"] is not None else kind

    # measured method
    at_measured = ceil(carry / rate)
    rate_ceiling = at_ceiling = extrapolation = None
    capped_range = False
    if ceiling is not None:
        if c is None or c == 0:
            warnings.append("No CPU peak is printed for this run, so the ceiling cannot be applied; sized at the measured rate.")
        else:
            use = ceiling
            if rng is not None and ceiling > rng[1] and ceiling > c:
                use = max(rng[1], c)
                capped_range = True
                warnings.append(f"The ceiling of {fmt(ceiling)}% is above the highest CPU peak the guide measured for the "
                                f"{flavour} ({fmt(rng[1])}%, range {fmt(rng[0])}-{fmt(rng[1])}%): the measured rate is scaled "
                                f"only to {fmt(use)}%, not beyond; nothing in the guide shows the rate rising in step with CPU further.")
            extrapolation = use / c
            rate_ceiling = rate * use / c
            at_ceiling = ceil(carry / rate_ceiling)
            if extrapolation > 1:
                warnings.append(f"The measured rate is extrapolated linearly from {fmt(rate)} MPS at {fmt(c)}% CPU to "
                                f"{fmt(rate_ceiling)} MPS at {fmt(use)}% ({fmt(extrapolation, 2)} x): a planning estimate, "
                                "not a vendor figure.")
    prof = profile_rate(run) if kind == "DA-MP" else None
    m_rate = rate_ceiling if rate_ceiling is not None else rate
    capped_profile = False
    if prof is not None and m_rate > prof[0]:
        warnings.append(f"The measured method would give each DA-MP {fmt(m_rate)} MPS, above the {fmt(prof[0])} MPS rated by "
                        f"its DA-MP Profile '{prof[1]['value']}' (Table {prof[1]['table_id']}, row {prof[1]['row']}); a DA-MP "
                        f"is never given more than its profile's rated MPS, so {fmt(prof[0])} MPS is used.")
        m_rate = prof[0]
        capped_profile = True
    m_needed = ceil(carry / m_rate)
    measured = {"rate": m_rate, "needed": m_needed, "capped_range": capped_range, "capped_profile": capped_profile}
    engineered = {"rate": prof[0], "needed": ceil(carry / prof[0])} if prof is not None else None
    if engineered is None or m_needed > engineered["needed"]:
        headline = "measured"
    elif engineered["needed"] > m_needed:
        headline = "engineered"
    else:
        headline = "both"
    needed = max(m_needed, engineered["needed"] if engineered else 0)
    per_dsr = needed + k
    total = per_dsr * dsrs
    if total > MAX_MPS:
        raise DsrError(f"The target needs {total:,} {kind}s, above the {MAX_MPS:,} this calculator accepts: "
                       f"no benchmark supports extrapolating that far. Check the target ({fmt(target)} MPS).")
    normal = target / dsrs  # load per DSR with every DSR in service
    cpu_all = normal * c / (per_dsr * rate) if c is not None else None
    cpu_loss = carry * c / (needed * rate) if c is not None else None
    vcpu_total = total * p["vcpu"] if p["vcpu"] is not None else None
    if engineered is None and kind == "DA-MP":
        warnings.append("No DA-MP Profile is printed for this run, so the engineered method cannot be applied; "
                        "sized by the measured rate only.")
    best = max(((per_mp(r)["rate"], r) for r in runs(bundle) if per_mp(r).get("kind") == kind and per_mp(r)["sizable"]),
               key=lambda x: x[0], default=None)
    if best is not None and m_rate > best[0]:
        warnings.append(f"Each {kind} would carry {fmt(m_rate)} MPS, above the highest rate per {kind} of any run "
                        f"in the guide ({fmt(best[0])} MPS, {best[1]['section']} {best[1]['short_title']}).")
    if c is not None and ceiling is not None and ceiling < c:
        warnings.append(f"The ceiling ({fmt(ceiling)}%) is below the measured CPU peak ({fmt(c)}%): each MP is sized "
                        "for less than the benchmark carried.")
    if cpu_loss is not None and rng is not None and cpu_loss > rng[1]:
        warnings.append(f"With {'the mate down and ' if dsrs == 2 else ''}{k} spare(s) lost each {kind} would run at about "
                        f"{fmt(cpu_loss, 1)}% CPU (linear from the measured point), above the {fmt(rng[1])}% the guide measured "
                        f"for the {flavour}.")

    notes = _notes(bundle, run, p)
    return {
        "inputs": {"scenario": scenario, "target_mps": target, "cpu_ceiling_percent": ceiling, "spare": k, "redundancy": redundancy},
        "run": {"id": run["id"], "section": run.get("section"), "title": run["title"], "short_title": run["short_title"],
                "call_mix": run.get("call_mix"), "call_mix_where": run.get("call_mix_where"),
                "settings": run.get("settings") or {}, "deployment_mode": run.get("deployment_mode")},
        "kind": kind, "figures": p["figures"], "rate": rate, "how": p["how"], "cpu_peak": c, "flavour": flavour,
        "flavour_range": rng, "mps_at_measured": at_measured, "rate_at_ceiling": rate_ceiling, "mps_at_ceiling": at_ceiling,
        "methods": {"measured": measured, "engineered": engineered}, "headline": headline,
        "needed": needed, "per_dsr": per_dsr, "dsrs": dsrs, "total": total, "vcpu_per_mp": p["vcpu"], "vcpu_total": vcpu_total,
        "cpu_all": cpu_all, "cpu_after_loss": cpu_loss, "extrapolation": extrapolation,
        "profile": {"rate": prof[0], "value": prof[1]["value"], "cite": f"Table {prof[1]['table_id']}, row {prof[1]['row']}"} if prof else None,
        "cpu_range": cpu_range(bundle, kind), "warnings": warnings, "notes": notes, "not_sizable": not_sizable(bundle),
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
        ("input", "spare", f"Spare {kind}s per DSR (N+k)", i["spare"], "count", "your input"),
        ("input", "redundancy", "Redundancy", REDUNDANCY[i["redundancy"]], "", "your input; mated pair: seed 002, line 28"),
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
    m, e = res["methods"]["measured"], res["methods"]["engineered"]
    if res["rate_at_ceiling"] is not None:
        use = res["rate_at_ceiling"] * res["cpu_peak"] / res["rate"]
        out.append(("computed", "rate_at_ceiling", f"MPS per {kind} scaled to the ceiling", res["rate_at_ceiling"], "MPS",
                    f"{fmt(res['rate'])} x {fmt(use)} / {fmt(res['cpu_peak'])} (linear"
                    + (f"; capped at the {fmt(use)}% the guide measured for the {res['flavour']})" if m["capped_range"] else ")")))
    out.append(("computed", "rate_measured", f"Measured method: MPS per {kind}", m["rate"], "MPS",
                f"capped at the profile's rated {fmt(m['rate'])} MPS" if m["capped_profile"] else "as above"))
    out.append(("result", "needed_measured", f"Measured method: {kind}s per DSR", m["needed"], "count",
                f"ceil({fmt(i['target_mps'])} / {fmt(m['rate'])})"))
    if e is not None:
        out.append(("measured", "rate_engineered", f"Engineered method: rated MPS per {kind}", e["rate"], "MPS",
                    f"DA-MP Profile '{res['profile']['value']}', {res['profile']['cite']}"))
        out.append(("result", "needed_engineered", f"Engineered method: {kind}s per DSR", e["needed"], "count",
                    f"ceil({fmt(i['target_mps'])} / {fmt(e['rate'])})"))
    else:
        out.append(("result", "needed_engineered", "Engineered method", "not available", "",
                    "no DA-MP Profile rate printed for this run"))
    out.append(("result", "needed", f"{kind}s per DSR for the load (headline)", res["needed"], "count",
                {"measured": "measured method (more conservative)", "engineered": "engineered method (more conservative)",
                 "both": "both methods agree"}[res["headline"]]))
    out.append(("result", "per_dsr", f"{kind}s per DSR", res["per_dsr"], "count", f"{res['needed']:,} + {i['spare']} spare"))
    out.append(("result", "total", f"{kind}s to deploy", res["total"], "count",
                f"{res['per_dsr']:,} per DSR x {res['dsrs']} DSR(s), redundancy {i['redundancy']}"))
    if res["vcpu_total"] is not None:
        out.append(("result", "vcpu_total", f"vCPU for these {kind}s", res["vcpu_total"], "vCPU",
                    f"{res['total']:,} x {fmt(res['vcpu_per_mp'])} vCPU"))
    if res["cpu_all"] is not None:
        out.append(("result", "cpu_all", f"Expected CPU per {kind}, all in service", res["cpu_all"], "percent",
                    f"{fmt(i['target_mps'] / res['dsrs'])} x {fmt(res['cpu_peak'])} / ({res['per_dsr']:,} x {fmt(res['rate'])}), "
                    "linear from the measured point"))
        if i["spare"] or res["dsrs"] > 1:
            lost = " and ".join(x for x in ((f"{i['spare']} spare(s) lost" if i["spare"] else ""),
                                            ("the mate down" if res["dsrs"] > 1 else "")) if x)
            out.append(("result", "cpu_after_loss", f"Expected CPU per {kind} with {lost}", res["cpu_after_loss"],
                        "percent", f"{fmt(i['target_mps'])} x {fmt(res['cpu_peak'])} / ({res['needed']:,} x {fmt(res['rate'])})"))
    return out


def result_html(res: dict) -> str:
    """The result as an HTML fragment (every text escaped)."""
    kind, i = res["kind"], res["inputs"]
    parts = [f'<div class="atlas-result" data-scenario="{escape(res["run"]["id"])}" data-kind="{escape(kind)}">']
    m, e = res["methods"]["measured"], res["methods"]["engineered"]
    how = {"measured": "the measured method, the more conservative", "engineered": "the engineered method, the more conservative",
           "both": "both methods"}[res["headline"]]
    pair = f" per DSR, x {res['dsrs']} DSRs (mated pair)" if res["dsrs"] > 1 else ""
    parts.append(f'<p class="atlas-summary"><strong data-key="total">{res["total"]:,} {escape(kind)}s</strong> '
                 f'({res["needed"]:,} for {fmt(i["target_mps"])} MPS by {escape(how)}, + {i["spare"]} spare{escape(pair)})'
                 + (f', {fmt(res["vcpu_total"])} vCPU' if res["vcpu_total"] is not None else "")
                 + f'. Baseline: {escape(res["run"]["section"] or "")} {escape(res["run"]["short_title"])}. '
                 'A planning estimate, not a vendor figure.</p>')
    parts.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-dsr-methods"><thead><tr><th>Method</th>'
                 f'<th>MPS per {escape(kind)}</th><th>{escape(kind)}s per DSR</th><th>Basis</th></tr></thead><tbody>'
                 f'<tr data-method="measured"><td>Measured</td><td class="atlas-num">{fmt(m["rate"])}</td><td class="atlas-num">{m["needed"]:,}</td>'
                 f'<td>{fmt(res["rate"])} MPS at {fmt(res["cpu_peak"])}% CPU as benchmarked'
                 + (", scaled to the ceiling within the CPU range measured for the flavour" if res["rate_at_ceiling"] is not None else "")
                 + ("; capped at the profile's rated MPS" if m["capped_profile"] else "") + '</td></tr>'
                 + (f'<tr data-method="engineered"><td>Engineered</td><td class="atlas-num">{fmt(e["rate"])}</td>'
                    f'<td class="atlas-num">{e["needed"]:,}</td><td>DA-MP Profile {escape(res["profile"]["value"])} '
                    f'({escape(res["profile"]["cite"])}): the rated MPS per DA-MP</td></tr>' if e is not None else
                    '<tr data-method="engineered"><td>Engineered</td><td>—</td><td>—</td><td>no DA-MP Profile rate printed for this run</td></tr>')
                 + '</tbody></table></div>')
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
    m, e = res["methods"]["measured"], res["methods"]["engineered"]
    top = max(res["per_dsr"], res["mps_at_measured"], m["needed"])
    counts = sorted({0, res["needed"], res["per_dsr"], res["mps_at_measured"], m["needed"], top})
    series = [(f"at the measured CPU peak ({fmt(res['cpu_peak'])}%)" if res["cpu_peak"] is not None else "at the measured rate", res["rate"])]
    if m["rate"] != res["rate"]:
        series.append(("measured method (scaled" + (", capped at the profile)" if m["capped_profile"] else ")"), m["rate"]))
    if e is not None and e["rate"] != m["rate"]:
        series.append((f"engineered (profile {res['profile']['value']})", e["rate"]))
    return capacity_chart(description=f"MPS capacity of one DSR against its number of {kind}s, with the load it must carry", x_field="mps_count",
                          x_title=f"{kind}s", unit="MPS", series=series, counts=counts, target=target)


def compute_web(bundle: dict, params: dict) -> dict:
    """``compute`` of the form's strings (``params``). Raises DsrError."""
    return compute(bundle, params.get("scenario") or "", params.get("target"),
                   cpu_ceiling_percent=params.get("ceiling") or None, spare=params.get("spare") or 0,
                   redundancy=params.get("redundancy") or "none")


def run_web(bundle: dict, params: dict) -> dict:
    """Form parameters (strings) -> ``{html, chart, downloads: {csv}, inputs}``; raises DsrError for bad input."""
    res = compute_web(bundle, params)
    i = res["inputs"]
    return {"html": result_html(res), "chart": result_chart(res),
            "inputs": {"scenario": i["scenario"], "target": fmt(i["target_mps"], 6).replace(",", ""),
                       "ceiling": "" if i["cpu_ceiling_percent"] is None else fmt(i["cpu_ceiling_percent"], 6),
                       "spare": str(i["spare"]), "redundancy": i["redundancy"]},
            "downloads": {"csv": {"text": lambda: result_csv(res), "mime": "text/csv", "filename": f"dsr-{res['run']['id']}.csv"}}}


def report_web(bundle: dict, params: dict) -> dict:
    """The report (``calculators.report``) of the result ``run_web`` gives."""
    from . import report
    return report.dsr(compute_web(bundle, params), bundle)


catalogue.register("dsr", run_web, DsrError, report_web)
