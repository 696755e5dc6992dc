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
  its engineered capacity: section 3.2.1.3, Table 3-2; seed 002 line 285). A DA-MP is never given more than
  its profile's rated MPS, in either method.
* **DSR sites (at most 16 DA-MPs each, spares included)**: a DSR site holds
  at most MAX_DA_MPS_PER_SITE = 16 DA-MPs (Oracle's DSR Policy and Charging
  Application documentation, "MP Growth"). The k spare MPs per site count
  within the 16, so at most 16 - k carry traffic. With the rate r of the
  headline method (the lower of the two rates: it needs more MPs), the target
  T takes ceil(T / (r x (16 - k))) DSR sites (no redundancy) or mated pairs,
  and is split evenly over them: each site (or pair) carries T / that number.
  SS7-MPs: neither the DSR guide nor the atlas's sizing notes give a per-site
  limit, so none is applied (one DSR site or pair) and the result says so.
* **Redundancy**: none, or mated pairs, where "one DSR needs to support full
  traffic, when one of the DSRs is unavailable" (the guide's planning steps,
  chapter 3 "Data Usage"; seed 002 line 28): each DSR site of a pair is sized
  for its pair's whole share, and each pair deploys two sites.
* **Spares (N+k)**: the user's number of spare MPs per DSR site is added (within
  the site limit); the result shows the expected CPU per MP (linear from the
  measured point) with all MPs in service and with the spares lost and the mate
  down.
* **vCPU**: total MPs x the flavor's vCPU (``da_mp_vcpu`` / ``ss7_mp_vcpu``).

Runs that print neither a per-MP rate nor an MP count (Table 3-5 FABR-SDS,
dsr-E037; the PDRA runs of Table 3-12, which print only 'SBR MPS Achieved',
dsr-E049) are *not sizable*: ``not_sizable(bundle)`` lists them with the reason
and ``compute`` refuses them with that reason.

Errors: every bad input raises ``DsrError`` (a ValueError) with a message that
says what is wrong: unknown or not-sizable scenario; a target that is empty,
non-numeric, NaN/infinite, zero or negative; a ceiling outside (0, 100]; a spare
count that is not a whole number from 0 to MAX_SPARE, or (DA-MPs) that leaves no
DA-MP of a site's 16 to carry traffic; a result above MAX_MPS.
"""
from __future__ import annotations

import re
from fractions import Fraction

from . import catalogue, inputs
from .formatting import escape, fmt
from .sizing import likely_text as sizing_likely_text, band_words, capacity_chart, ceil, cite, frac, held_out_band, list_html, steps_csv, steps_html

MAX_SPARE = 64
"""Most spare MPs accepted (a Benchmark Atlas limit, not a vendor figure)."""
MAX_MPS = 10000
"""A result above 10,000 MPs is refused: far outside anything the guide measured
(its largest setup has 16 DA-MPs); a Benchmark Atlas limit, not a vendor figure."""
NAME = "dsr"
"""This calculator's name: its page (calculators/dsr/), command-line subcommand, downloads and report."""

MAX_DA_MPS_PER_SITE = 16
"""Most DA-MPs one DSR site holds, spares included (count). Source: "The DSR supports up to 16 DA-MPs per DSR
site" (Oracle Communications Diameter Signaling Router, Policy and Charging Application, releases 8.2 (E89000) and
8.4 (F12292), section "MP Growth", docs.oracle.com; its "PCA Scalability" section lists "Sixteen DA-MP servers per
PCA DSR"). The DSR benchmark guide's largest setups are 16-DA-MP systems: Tables 3-1, 3-3, 3-8 and 3-12 are captioned
"... on 16 DA-MPs DSR Setup" (Tables 3-15 and 3-24 ran on 2). A spare DA-MP is a DA-MP of the site, so spares count
within the 16."""

SITE_LIMIT = {"DA-MP": MAX_DA_MPS_PER_SITE, "SS7-MP": None}
"""Most MPs of each kind per DSR site (count), or None where no source gives one: neither the DSR benchmark guide
nor the atlas's sizing notes (shared/notes/sizing-engineering.md) give a per-site limit for vSTP SS7-MPs, so none is
applied to them and the result says so."""

SITE_LIMIT_SOURCE = ("Oracle DSR Policy and Charging Application documentation (releases 8.2 and 8.4), "
                     "section 'MP Growth': 'The DSR supports up to 16 DA-MPs per DSR site'")
"""Where MAX_DA_MPS_PER_SITE comes from, as the result and the method page name it."""

NO_SITE_LIMIT = ("Neither the DSR benchmark guide nor the atlas's sizing notes give a per-site limit for SS7-MPs "
                 "(Oracle's 16 per DSR site is for DA-MPs), so none is applied: one DSR site (or one mated pair) "
                 "carries the target. Check the vSTP documentation for your release before planning many SS7-MPs "
                 "at one site.")
"""What the result says for SS7-MPs instead of a site limit."""

MATED_PAIR_SOURCE = ("the DSR guide's planning steps (chapter 3, 'Data Usage'): mated pair deployments, 'where one DSR "
                     "needs to support full traffic, when one of the DSRs is unavailable'")
"""Where the mated-pair rule comes from (the guide's chapter 3 introduction, seed 002 line 28), in readers' words."""

def guide_pages(doc: str) -> str:
    """The atlas's pages of guide ``doc``, relative to the calculator page (calculators/dsr/): a run's page is
    ``<id>/``, the infrastructure rules ``guidance/`` (each rule's row has its id as anchor, each topic its slug)."""
    return f"../../products/{doc}/"


class DsrError(ValueError):
    """Bad input to the DSR calculator; the message says what and why."""


# ---------------------------------------------------------------- inputs


def _number(value, name: str, unit: str) -> Fraction:
    """A positive, finite number as an exact Fraction (see calculators.inputs.positive)."""
    return inputs.positive(value, name, unit, DsrError)


def _ceiling(value) -> Fraction | None:
    return inputs.optional_ceiling(value, DsrError)


def _spare(value) -> int:
    return inputs.spare_count(value, SPARE_LABEL, MAX_SPARE, DsrError)


SPARE_LABEL = "Spare MPs per DSR site"
"""How refusals name the spare field (``catalogue.field_of`` maps it to the form's ``spare``)."""


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
        first = ((bundle.get("examples") or {}).get(NAME) or {}).get("scenario")  # the guide module's EXAMPLES
        r = next((x for x in rs if x["id"] == first), rs[0])
    m = r["metrics"]
    p = per_mp(r)
    target = m["mps_achieved"]["value"] if "mps_achieved" in m else p["rate"]
    return {"scenario": r["id"], "target": fmt(frac(target)).replace(",", ""), "ceiling": "", "spare": "0", "redundancy": "none"}


# ---------------------------------------------------------------- compute


REDUNDANCY = {"none": "none (the target split evenly over as few DSR sites as the site limit allows)",
              "mated-pair": "mated pairs (each DSR site of a pair carries its pair's whole share when its mate is down)"}
"""Redundancy choices. Mated pair: 'one DSR needs to support full traffic, when one of the DSRs is unavailable' (the
guide's planning steps, chapter 3 'Data Usage', seed 002 line 28), so each DSR site of a pair is sized for its pair's
whole share of the target and each pair deploys two sites."""


def site_limit(kind: str) -> int | None:
    """Most MPs of ``kind`` ('DA-MP' or 'SS7-MP') one DSR site holds, spares included (count; SITE_LIMIT), or None
    when no source gives a limit (SS7-MPs)."""
    return SITE_LIMIT.get(kind)


def flavour_range(bundle: dict, kind: str, vcpu) -> tuple[Fraction, Fraction] | None:
    """Lowest and highest CPU peak (percent) the guide measured for one MP flavour: the sizable runs
    of the same MP kind and vCPU count (12-vCPU DA-MP: 14-53 %; 18-vCPU DA-MP: 28 %; 8-vCPU SS7-MP:
    2-56 %). None when no run of that flavour prints a CPU peak."""
    peaks = [p["cpu_peak"] for p in (per_mp(r) for r in runs(bundle))
             if p["sizable"] and p["kind"] == kind and p["vcpu"] == vcpu and p["cpu_peak"] is not None]
    return (min(peaks), max(peaks)) if peaks else None


def compute(bundle: dict, scenario: str, target_mps, cpu_ceiling_percent=None, spare=0, redundancy="none",
            rate_ratio=None) -> dict:
    """Size the MPs of run ``scenario`` for ``target_mps`` by two methods, over as many DSR sites (or mated pairs) as
    the per-site limit needs; the more conservative method is the headline.

    Arguments:
        bundle: the calculator bundle (needs ``dsr_runs``; ``dsr_notes`` optional).
        scenario: a DSR scenario id, e.g. 'dsr-relay-12vcpu'.
        target_mps: total message rate to carry, MPS (> 0). For vSTP runs, in the
            guide's weighted messages (MNP = 2, SFAPP = 4 messages, dsr-G24).
        cpu_ceiling_percent: highest CPU per MP you accept when an MP carries the
            load it is sized for, percent (1 <= C <= 100; with mated pairs, when
            one DSR site carries its pair's share); None sizes at the measured
            per-MP rate.
        spare: spare MPs per DSR site (N+k), 0..MAX_SPARE; for DA-MPs fewer than
            MAX_DA_MPS_PER_SITE (spares count within the site limit).
        redundancy: 'none' or 'mated-pair' (see REDUNDANCY).
        rate_ratio: size as if the CPU per MPS were this many times the run's (a ratio of the held-out band, printed /
            predicted CPU peak): the measured rate is divided by it. None: as measured, and the result carries its
            likely range (``likely``: the counts at the band's two ends).

    Methods:
        measured: the per-MP rate P as benchmarked at CPU peak c; with a ceiling C,
            P x min(C, hi) / c, where hi is the highest CPU peak the guide measured
            for the flavour (``flavour_range``): beyond it a warning and that cap.
            Never above the DA-MP profile's rated MPS.
        engineered: the DA-MP profile's rated MPS (e.g. '30K_MPS' = 30,000 MPS per
            DA-MP; alarm 22221 fires when a DA-MP approaches or exceeds its
            engineered capacity: section 3.2.1.3, Table 3-2). None for vSTP runs.
        Sites: with r the lower of the two rates (the method needing more MPs),
            L the site limit (``site_limit``) and k the spares, the target T takes
            n = ceil(T / (r x (L - k))) DSR sites (no redundancy) or mated pairs,
            each carrying T / n (one when there is no limit). Each method then
            sizes one DSR site for the load it must carry (its share, or with a
            mated pair its pair's whole share when the mate is down); the headline
            is the method needing more MPs, at most L - k per site by construction.

    Returns a dict: ``inputs``; ``run``; ``kind`` ('DA-MP'/'SS7-MP'); ``figures``
    (measured values used, each cited); ``rate`` (MPS per MP at the measured CPU
    peak), ``how`` ('printed'/'derived'); ``cpu_peak``; ``flavour_range``;
    ``mps_at_measured`` (MPs per DSR site at P for its load); ``rate_at_ceiling``
    (P scaled to the ceiling within the flavour's range, before the profile cap;
    None without a ceiling) and ``mps_at_ceiling``; ``methods``: {"measured":
    {rate, needed, capped_range, capped_profile}, "engineered": {rate, needed} or
    None} (needed: MPs per DSR site); ``headline`` ('measured'/'engineered'/'both');
    ``site_limit`` (MPs per site, spares included, or None); ``sizing_rate`` (MPS
    per MP the sites are counted with); ``units`` (DSR sites, or mated pairs);
    ``share`` (MPS per DSR site, or per mated pair); ``carry`` (MPS one DSR site
    carries at most: its share, or its pair's with the mate down); ``needed`` (MPs
    per DSR site for that load), ``per_dsr`` (needed + spare), ``dsrs`` (DSR sites
    in all), ``total`` (MPs in all), ``vcpu_per_mp``/``vcpu_total``; ``cpu_all``
    (expected CPU per MP in normal operation) and ``cpu_after_loss`` (spares lost
    and, with a mated pair, the mate down), percent, from the measured point
    (linear); ``profile``; ``extrapolation``; ``warnings``; ``notes``;
    ``cpu_range``; ``not_sizable``. Fractions are exact.

    Raises DsrError for an unknown or not-sizable scenario, an unknown redundancy,
    spares that leave a DSR site no DA-MP for traffic and any invalid number.
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
    if rate_ratio is not None:
        rate = rate / Fraction(rate_ratio).limit_denominator(10**6)
    limit = site_limit(kind)
    if limit is not None and k >= limit:
        raise DsrError(f"{SPARE_LABEL} must be a whole number from 0 to {limit - 1} for {kind}s: a DSR site holds at "
                       f"most {limit} {kind}s, spares included, so {k} spare(s) would leave none to carry traffic; "
                       f"got {k}.")
    per_unit = 2 if redundancy == "mated-pair" else 1  # DSR sites per unit: a mated pair deploys two
    warnings: list[str] = []
    rng = flavour_range(bundle, kind, p["vcpu"])
    flavour = f"{fmt(p['vcpu'])}-vCPU {kind}" if p["vcpu"] is not None else kind

    # measured method: the rate per MP
    rate_ceiling = extrapolation = None
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

    # DSR sites (or mated pairs): as few as the site limit allows at the lower (more conservative) rate
    sizing_rate = min(m_rate, prof[0]) if prof is not None else m_rate
    units = ceil(target / (sizing_rate * (limit - k))) if limit is not None else 1
    share = target / units  # the load of one DSR site (no redundancy) or of one mated pair
    carry = share  # the most one DSR site carries: its share, or with a mated pair its pair's whole share (mate down)

    at_measured = ceil(carry / rate)
    at_ceiling = ceil(carry / rate_ceiling) if rate_ceiling is not None else None
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
    dsrs = units * per_unit
    total = per_dsr * dsrs
    if total > MAX_MPS:
        raise DsrError(f"The target needs {total:,} {kind}s, above the {MAX_MPS:,} this calculator accepts: "
                       f"no benchmark supports extrapolating that far. Check the target ({fmt(target)} MPS).")
    normal = share / per_unit  # load per DSR site with every site in service
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
        warnings.append(f"With {'the mate down and ' if per_unit == 2 else ''}{k} spare(s) lost each {kind} would run at about "
                        f"{fmt(cpu_loss, 1)}% CPU (linear from the measured point), above the {fmt(rng[1])}% the guide measured "
                        f"for the {flavour}.")

    notes = _notes(bundle, run, p)
    likely = None
    if rate_ratio is None:
        b = held_out_band(bundle, run["doc"])
        likely = {"band": b}
        if "lo" in b:
            for end, r in (("low", b["lo"]), ("high", b["hi"])):
                try:
                    x = compute(bundle, scenario, target, ceiling, k, redundancy, rate_ratio=r)
                except DsrError as e:
                    likely[end] = {"error": str(e)}
                else:
                    likely[end] = {"total": x["total"], "dsrs": x["dsrs"], "per_dsr": x["per_dsr"], "units": x["units"]}
    return {
        "likely": likely,
        "inputs": {"scenario": scenario, "target_mps": target, "cpu_ceiling_percent": ceiling, "spare": k, "redundancy": redundancy},
        "run": {"id": run["id"], "doc": run["doc"], "section": run.get("section"), "title": run["title"], "short_title": run["short_title"],
                "call_mix": run.get("call_mix"), "call_mix_where": run.get("call_mix_where"),
                "settings": run.get("settings") or {}, "deployment_mode": run.get("deployment_mode")},
        "kind": kind, "figures": p["figures"], "rate": rate, "how": p["how"], "cpu_peak": c, "flavour": flavour,
        "flavour_range": rng, "mps_at_measured": at_measured, "rate_at_ceiling": rate_ceiling, "mps_at_ceiling": at_ceiling,
        "methods": {"measured": measured, "engineered": engineered}, "headline": headline,
        "site_limit": limit, "sizing_rate": sizing_rate, "units": units, "share": share, "carry": carry,
        "needed": needed, "per_dsr": per_dsr, "dsrs": dsrs, "total": total, "vcpu_per_mp": p["vcpu"], "vcpu_total": vcpu_total,
        "cpu_all": cpu_all, "cpu_after_loss": cpu_loss, "extrapolation": extrapolation,
        "profile": {"rate": prof[0], "value": prof[1]["value"], "cite": f"Table {prof[1]['table_id']}, row {prof[1]['row']}"} if prof else None,
        "cpu_range": cpu_range(bundle, kind), "warnings": warnings, "notes": notes, "not_sizable": not_sizable(bundle),
    }


PROSE_LINE = re.compile(r"\s*\((?:seed )?lines? \d+(?:\s*[-–,]\s*\d+)*\)")
"""A seed-line reference in a curated note ('(line 235)'): readers are told the run's section instead."""


def _reader_note(note: str, section: str | None) -> str:
    """A run's curated note as readers see it: 'printed in the prose (line 235)' becomes 'printed in the prose of
    section 3.2.1' (the run's section, where the curation found it); any other seed-line reference is dropped."""
    where = f" of section {section}" if section else ""
    note = re.sub(r"in the prose\s*\((?:seed )?lines? \d+(?:\s*[-–,]\s*\d+)*\)", "in the prose" + where, note)
    return PROSE_LINE.sub("", note)


RULE_TOPICS = (("SS7-MP", None, ("vstp-message-weights", "vstp-timers")), ("DA-MP", "relay", ("da-mp-relay-tuning",)),
               ("DA-MP", "dsa", ("dsa-comagent",)))
"""The infrastructure rules (guidance topics) that bear on a run: (MP kind, word in its deployment mode or None,
topics). Each is printed in the section that benchmarks that kind of run (vSTP 3.2.5.1, relay 3.2.1.1, DSA
3.2.7.1), which the result names; tests/test_calculators_dsr_shcm.py checks each rule's line against the guide."""


def _notes(bundle: dict, run: dict, p: dict) -> list[str]:
    """Errata cited by the figures used and the run's contradictions, the run's own notes, and the infrastructure
    rules that apply (RULE_TOPICS), each naming the section of the guide it is printed in."""
    info = bundle.get("dsr_notes") or {}
    errata, guidance = info.get("errata") or {}, info.get("guidance") or {}
    section = run.get("section")
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
        out.append(_reader_note(n, section))
    mode = (run.get("deployment_mode") or "").lower()
    where = f"stated in section {section} of the guide" if section else "stated in the guide"
    for kind, word, topics in RULE_TOPICS:
        if p["kind"] != kind or (word is not None and word not in mode):
            continue
        for topic in topics:
            for gid, g in guidance.items():
                if g["topic"] == topic:
                    out.append(f"{gid} (DSR infrastructure rule, {where}): {g['setting']}")
    return out


# ---------------------------------------------------------------- output


def _unit_words(res: dict) -> tuple[str, str]:
    """('DSR site', 'DSR sites') or ('mated pair', 'mated pairs'): what the target is split over."""
    return ("mated pair", "mated pairs") if res["inputs"]["redundancy"] == "mated-pair" else ("DSR site", "DSR sites")


def _count(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _rows(res: dict) -> list[tuple]:
    """(section, key, label, value, unit, source) for HTML and CSV alike."""
    i, kind = res["inputs"], res["kind"]
    k, limit, units = i["spare"], res["site_limit"], res["units"]
    mated = i["redundancy"] == "mated-pair"
    one, many = _unit_words(res)
    out = [
        ("input", "scenario", "Benchmark run", f"{res['run']['section']} {res['run']['short_title']} ({res['run']['id']})", "", ""),
        ("input", "target_mps", "Target traffic", i["target_mps"], "MPS", "your input"),
        ("input", "cpu_ceiling_percent", "CPU ceiling per MP", i["cpu_ceiling_percent"], "percent",
         "your input" if i["cpu_ceiling_percent"] is not None else "none: sized at the measured CPU peak"),
        ("input", "spare", f"Spare {kind}s per DSR site (N+k)", k, "count",
         "your input; counted within the site limit" if limit is not None else "your input"),
        ("input", "redundancy", "Redundancy", REDUNDANCY[i["redundancy"]], "", "your input; mated pairs: " + MATED_PAIR_SOURCE),
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
    if e is not None:
        out.append(("measured", "rate_engineered", f"Engineered method: rated MPS per {kind}", e["rate"], "MPS",
                    f"DA-MP Profile '{res['profile']['value']}', {res['profile']['cite']}"))
    if limit is not None:
        out.append(("measured", "site_limit", f"{kind}s per DSR site, at most (spares included)", limit, "count", SITE_LIMIT_SOURCE))
        room = f"({limit} - {k} spare)" if k else f"{limit}"
        key = "mated_pairs" if mated else "dsr_sites"
        out.append(("result", key, "Mated pairs" if mated else "DSR sites", units, "count",
                    f"ceil({fmt(i['target_mps'])} / ({fmt(res['sizing_rate'])} x {room})): at most {limit - k} "
                    f"{kind}s carrying traffic per site, at the "
                    + ("more conservative method's" if e is not None else "measured method's")
                    + f" {fmt(res['sizing_rate'])} MPS per {kind}"))
    else:
        out.append(("measured", "site_limit", f"{kind}s per DSR site, at most", "no limit known", "", NO_SITE_LIMIT))
        out.append(("result", "mated_pairs" if mated else "dsr_sites", "Mated pairs" if mated else "DSR sites", units, "count",
                    "one: no per-site limit applied"))
    if mated:
        out.append(("result", "dsr_sites", "DSR sites", res["dsrs"], "count", f"{_count(units, one, many)} x 2"))
    out.append(("computed", "share", f"Traffic per {one}", res["share"], "MPS",
                f"{fmt(i['target_mps'])} / {_count(units, one, many)}, split evenly" if units > 1
                else f"the whole target (one {one})"))
    if mated:
        out.append(("computed", "carry", "Traffic one DSR site carries with its mate down", res["carry"], "MPS",
                    "its pair's whole share"))
    load = fmt(res["carry"])
    out.append(("result", "needed_measured", f"Measured method: {kind}s per DSR site", m["needed"], "count",
                f"ceil({load} / {fmt(m['rate'])})"))
    if e is not None:
        out.append(("result", "needed_engineered", f"Engineered method: {kind}s per DSR site", e["needed"], "count",
                    f"ceil({load} / {fmt(e['rate'])})"))
    else:
        out.append(("result", "needed_engineered", "Engineered method", "not available", "",
                    "no DA-MP Profile rate printed for this run"))
    out.append(("result", "needed", f"{kind}s per DSR site for the load (headline)", res["needed"], "count",
                {"measured": "measured method (more conservative)", "engineered": "engineered method (more conservative)",
                 "both": "both methods agree"}[res["headline"]]))
    out.append(("result", "per_dsr", f"{kind}s per DSR site", res["per_dsr"], "count",
                f"{res['needed']:,} + {k} spare" + (f" (at most {limit})" if limit is not None else "")))
    out.append(("result", "total", f"{kind}s to deploy", res["total"], "count",
                f"{res['per_dsr']:,} per DSR site x {_count(res['dsrs'], 'DSR site', 'DSR sites')}"
                + (f" ({_count(units, one, many)})" if mated else "")))
    lk = res.get("likely")
    if lk:
        out.append(("result", "likely_total", f"{kind}s to deploy, likely", likely_text(res), "count",
                    band_words(lk["band"], f"the DA-MP CPU peak per MPS per DA-MP")))
    if res["vcpu_total"] is not None:
        out.append(("result", "vcpu_total", f"vCPU for these {kind}s", res["vcpu_total"], "vCPU",
                    f"{res['total']:,} x {fmt(res['vcpu_per_mp'])} vCPU"))
    if res["cpu_all"] is not None:
        out.append(("result", "cpu_all", f"Expected CPU per {kind}, all in service", res["cpu_all"], "percent",
                    f"{fmt(res['share'] / (2 if mated else 1))} x {fmt(res['cpu_peak'])} / ({res['per_dsr']:,} x {fmt(res['rate'])}), "
                    "linear from the measured point"))
        if k or mated:
            lost = " and ".join(x for x in ((f"{k} spare(s) lost" if k else ""), ("the mate down" if mated else "")) if x)
            out.append(("result", "cpu_after_loss", f"Expected CPU per {kind} with {lost}", res["cpu_after_loss"],
                        "percent", f"{load} x {fmt(res['cpu_peak'])} / ({res['needed']:,} x {fmt(res['rate'])})"))
    return out


def likely_text(res: dict) -> str:
    """The result's likely count in words (``sizing.likely_text`` of its ``likely``)."""
    return sizing_likely_text(res.get("likely"))


def summary(res: dict) -> str:
    """The result in one paragraph of plain text (the HTML summary's words): MPs in all, over how many DSR sites or
    mated pairs, per site for which load by which method, spares, vCPU and the site limit."""
    kind, i = res["kind"], res["inputs"]
    one, many = _unit_words(res)
    mated = i["redundancy"] == "mated-pair"
    how = {"measured": "the measured method, the more conservative", "engineered": "the engineered method, the more conservative",
           "both": "both methods"}[res["headline"]]
    where = (f"{_count(res['units'], one, many)} ({_count(res['dsrs'], 'DSR site', 'DSR sites')})" if mated
             else _count(res["units"], one, many))
    load = (f"its pair's whole {fmt(res['carry'])} MPS when its mate is down ({fmt(res['share'] / 2)} MPS normally)" if mated
            else f"its {fmt(res['carry'])} MPS")
    if res["dsrs"] == 1:
        load = f"{fmt(res['carry'])} MPS"
    detail = f"{res['needed']:,} by {how}, for {load}, + {i['spare']} spare"
    if res["dsrs"] == 1:
        parts = [f"{res['total']:,} {kind}s in {where} ({detail})"]
    else:
        parts = [f"{res['total']:,} {kind}s in {where}: {res['per_dsr']:,} per DSR site ({detail})"]
    if res["units"] > 1:
        parts.append(f"{fmt(i['target_mps'])} MPS split evenly over the {res['units']:,} {many}")
    if res["vcpu_total"] is not None:
        parts.append(f"{fmt(res['vcpu_total'])} vCPU")
    text = "; ".join(parts) + ". "
    if (res.get("likely") or {}).get("low"):
        text += f"Likely {likely_text(res)} {kind}s in all (the held-out band, below). "
    if res["site_limit"] is not None:
        text += f"At most {res['site_limit']} {kind}s per DSR site, spares included. "
    else:
        text += f"No per-site limit on {kind}s is applied: none is known (see below). "
    return text


def _linked(text: str, res: dict) -> str:
    """Escaped ``text`` with the DSR infrastructure rules it names (dsr-G22) linked to their rows on the rules page and
    the run's section ('section 3.2.1') linked to the run's page, which shows its tables."""
    out = escape(text)
    pages = guide_pages(res["run"]["doc"])
    out = re.sub(r"\b(" + re.escape(res["run"]["doc"]) + r"-G\d+)\b",
                 lambda m: f'<a href="{pages}guidance/#{m.group(1)}">{m.group(1)}</a>', out)
    sec = res["run"].get("section")
    if sec:
        out = re.sub(r"\bsection " + re.escape(escape(sec)) + r"(?![0-9]|\.[0-9])",
                     lambda m: f'<a href="{pages}{escape(res["run"]["id"])}/">{m.group(0)}</a>', out)
    return out


def result_html(res: dict) -> str:
    """The result as an HTML fragment (every text escaped)."""
    kind, i = res["kind"], res["inputs"]
    parts = [f'<div class="atlas-result" data-scenario="{escape(res["run"]["id"])}" data-kind="{escape(kind)}">']
    m, e = res["methods"]["measured"], res["methods"]["engineered"]
    text = summary(res)
    head = f"{res['total']:,} {kind}s"
    parts.append(f'<p class="atlas-summary"><strong data-key="total">{escape(head)}</strong>{escape(text[len(head):])}'
                 f'Baseline: {escape(res["run"]["section"] or "")} {escape(res["run"]["short_title"])}. '
                 'A planning estimate, not a vendor figure.</p>')
    parts.append('<div class="atlas-table-wrap"><table class="atlas-rows atlas-dsr-methods"><thead><tr><th>Method</th>'
                 f'<th>MPS per {escape(kind)}</th><th>{escape(kind)}s per DSR site</th><th>Basis</th></tr></thead><tbody>'
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
    run = res["run"]
    pages = guide_pages(run["doc"])
    sources = [f'the run: <a href="{pages}{escape(run["id"])}/">section {escape(run["section"] or "")} of the DSR guide</a> '
               "(its tables, figures and errata on the run's page)",
               f'mated pairs: {escape(MATED_PAIR_SOURCE)} (the guide\'s <a href="{pages}guidance/#planning-procedure">'
               "planning procedure</a> on the DSR infrastructure rules page)"]
    sources.append(f"{escape(kind)}s per DSR site: " + (escape(SITE_LIMIT_SOURCE) + " (Oracle's DSR documentation, not the benchmark guide)"
                                                       if res["site_limit"] is not None else escape(NO_SITE_LIMIT)))
    parts.append('<p>Where the rules come from:</p><ul class="atlas-sources">' + "".join(f"<li>{x}</li>" for x in sources) + "</ul>")
    if res["notes"]:
        parts.append('<p>Notes from the guide and its errata that bear on this run:</p><ul class="atlas-notes">'
                     + "".join(f"<li>{_linked(x, res)}</li>" for x in res["notes"]) + "</ul>")
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
    """Vega-Lite spec: the MPS capacity of one DSR site against its number of MPs (at the measured rate and at the
    ceiling), with the load that site must carry (the target, or its share of it) as the rule."""
    kind, carry = res["kind"], res["carry"]
    m, e = res["methods"]["measured"], res["methods"]["engineered"]
    top = max(res["per_dsr"], res["mps_at_measured"], m["needed"])
    counts = sorted({0, res["needed"], res["per_dsr"], res["mps_at_measured"], m["needed"], top})
    series = [(f"at the measured CPU peak ({fmt(res['cpu_peak'])}%)" if res["cpu_peak"] is not None else "at the measured rate", res["rate"])]
    if m["rate"] != res["rate"]:
        series.append(("measured method (scaled" + (", capped at the profile)" if m["capped_profile"] else ")"), m["rate"]))
    if e is not None and e["rate"] != m["rate"]:
        series.append((f"engineered (profile {res['profile']['value']})", e["rate"]))
    label = None
    if carry != res["inputs"]["target_mps"]:
        one, many = _unit_words(res)
        label = (f"one DSR site's load {fmt(carry)} MPS (the {fmt(res['inputs']['target_mps'])} MPS target over "
                 f"{_count(res['units'], one, many)})")
    return capacity_chart(description=f"MPS capacity of one DSR site against its number of {kind}s, with the load it must carry",
                          x_field="mps_count", x_title=f"{kind}s", unit="MPS", series=series, counts=counts, target=carry,
                          target_label=label)


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
            "downloads": {"csv": {"text": lambda: result_csv(res), "mime": "text/csv", "filename": f"{NAME}-{res['run']['id']}.csv"}}}


def report_web(bundle: dict, params: dict) -> dict:
    """The report (``calculators.report``) of the result ``run_web`` gives."""
    return report_of(compute_web(bundle, params), bundle)


def report_of(res: dict, bundle: dict) -> dict:
    """The report (``calculators.report``) of a ``compute`` result."""
    from . import report
    run, kind = res["run"], res["kind"]
    limit = res["site_limit"]
    method = [["Methods", "Measured: the per-MP rate as benchmarked (with a CPU ceiling, scaled linearly within the CPU range "
               "the guide measured for the flavour); engineered: the rate the DA-MP Profile names. A DA-MP is never given "
               "more than its profile's rated MPS; the method needing more MPs is the headline."],
              ["DSR sites", (f"At most {limit} {kind}s per DSR site, spares included ({SITE_LIMIT_SOURCE}); the target is "
                             "split evenly over as few DSR sites (or mated pairs) as that allows, at the more conservative "
                             "method's rate." if limit is not None else NO_SITE_LIMIT)],
              ["Redundancy", REDUNDANCY[res["inputs"]["redundancy"]] + "; mated pairs as in " + MATED_PAIR_SOURCE],
              ["Spares", f"{res['inputs']['spare']} spare {kind}(s) per DSR site added (N+k)"
               + (", counted within the site limit." if limit is not None else ".")],
              ["Estimate", "A planning estimate from the vendor's benchmark, not a vendor figure."]]
    method += [["Note from the guide", n] for n in res["notes"]]
    extra = [(f"Setting: {label}", s["table_id"], s["row"], s["value"]) for label, s in (run["settings"] or {}).items()]
    return report.steps_report(NAME, res, _rows(res), res["figures"], run["doc"], run.get("section"), bundle,
                  f"DSR {kind} sizing: {run['short_title']}",
                  f"{res['total']:,} {kind}s in {res['dsrs']:,} DSR site(s) for {fmt(res['inputs']['target_mps'])} MPS; "
                  f"baseline {run.get('section') or ''} "
                  f"{run['short_title']} ({run['id']})", f"{NAME}-{run['id']}.xlsx", method, extra)


def backtest_points(bundle: dict, doc: str, excluded=frozenset()) -> list[dict]:
    """This calculator's rule held out (``calculators.backtest``, rule ``measured-rate``): for every ordered pair (A, B)
    of ``doc``'s runs with one call flow model, deployment mode, DA-MP vCPU count and DA-MP profile, B's DA-MP CPU
    peak (percent) predicted from A's as A's CPU x B's MPS per DA-MP / A's. Runs in ``excluded`` are left out (the
    coverage check removes one run at a time). Returns backtest points (``backtest.point``), each at the service and
    the whole level (one DA-MP is the whole footprint's unit)."""
    from .backtest import call_model_key, metric, point
    from .inputs import exact as _frac
    runs_ = []
    for r in bundle.get("dsr_runs") or []:
        if r["doc"] != doc or r["id"] in excluded:
            continue
        cpu, vcpu = metric(r, "cpu_peak"), metric(r, "da_mp_vcpu")
        rate = metric(r, "mps_achieved_per_da_mp")
        total, count = metric(r, "mps_achieved"), metric(r, "da_mp_count")
        if rate is not None:
            mps, src = _frac(rate["value"]), f"Table {rate['table_id']} row {rate['row']}"
        elif total is not None and count is not None:
            mps, src = _frac(total["value"]) / _frac(count["value"]), f"Table {total['table_id']} row {total['row']}"
        else:
            continue
        if cpu is None or vcpu is None:
            continue
        runs_.append({"id": r["id"], "mps": mps, "cpu": _frac(cpu["value"]), "vcpu": vcpu["value"],
                      "mode": r.get("deployment_mode"), "model": call_model_key(r.get("call_mix")),
                      "profile": ((r.get("settings") or {}).get("DA-MP Profile") or {}).get("value"),
                      "src": f"{src}; CPU Table {cpu['table_id']} row {cpu['row']}"})
    pts = []
    for a in runs_:
        for b in runs_:
            if a is b or not a["model"] or (a["mode"], a["model"], a["vcpu"], a["profile"]) != (b["mode"], b["model"], b["vcpu"], b["profile"]):
                continue
            p = point(doc, "one-run", "measured-rate", a["model"], [a["id"]], b["id"], f"DA-MP CPU peak ({a['vcpu']:g} vCPU)",
                       a["mps"], b["mps"], "MPS per DA-MP", a["cpu"], b["cpu"], a["cpu"] * b["mps"] / a["mps"], a["src"], b["src"], "%")
            pts += [p, dict(p, level="whole")]
    return pts


catalogue.register(NAME, run_web, DsrError, report_web,
                   fields={"Target traffic": "target", "CPU ceiling": "ceiling", SPARE_LABEL: "spare", "Redundancy": "redundancy",
                           "Unknown scenario": "scenario"})
