"""ASM overhead and over-target calculators (and the full footprint form).

Extension module (see macros/extensions.py):

* ``bundle(atlas)`` adds, compactly (columnar ``{"cols": [...], "rows": [[...]]}``):
  ``util_rows``: every CPU utilization row that prints a target (the Y of
  X/Y) and every memory utilization row, status ok/corrected only, with its
  table and row; ``scenario_cpu``: the scenario-wide observed CPU where a
  guide prints only one (measurements.csv metric cpu_percent, subject Total)
  with the scenario's 'Target CPU' setting; ``scenario_facts``: what differs
  between two runs (call mix, duration, release, deployment mode, sites);
  ``excluded_rows``: resources/utilization rows flagged by an erratum or with
  no value (calculators/partial.py), so results without them are marked partial.
* ``macros(r)``: ``asm_calculator()``,
  ``overtarget_calculator()``, each built with ``calculator_page.shell``.
"""
from __future__ import annotations

import re
from html import escape

from calculators import asm as asm_calc, footprint as fp, overtarget as ot
from calculators.partial import EXCLUDED_COLS

from . import calculator_page as cp
from .bundle import records

UTIL_COLS = ["scenario", "table_id", "row", "row_label", "site", "service", "container", "metric",
             "observed_percent", "observed_abs", "abs_unit", "target_percent", "percent_basis"]
"""Columns of ``util_rows``; every row has status ok or corrected (flagged, missing and not-applicable rows are left out)."""


def _percent(text) -> float | None:
    m = re.fullmatch(r"\s*~?\s*([0-9]+(?:\.[0-9]+)?)\s*%\s*", str(text or ""))
    return float(m.group(1)) if m else None


def bundle(atlas) -> dict:
    util = atlas.frames["utilization"]
    util = util[util["status"].isin(["ok", "corrected"])]
    util = util[util["observed_percent"].notna() | util["observed_abs"].notna()]
    util = util[((util["metric"] == "cpu") & util["target_percent"].notna()) | (util["metric"] == "memory")]
    rows = records(util, UTIL_COLS)
    compact = {"cols": UTIL_COLS, "rows": [[r[c] for c in UTIL_COLS] for r in rows]}

    wide = []
    meas = atlas.frames.get("measurements")
    sett = atlas.frames.get("settings")
    if meas is not None and len(meas):
        m = meas[(meas["metric"] == "cpu_percent") & (meas["subject"] == "Total") & meas["status"].isin(["ok", "corrected"])]
        for rec in records(m, ["scenario", "table_id", "row", "value", "raw", "note"]):
            if rec["value"] is None or any(w["scenario"] == rec["scenario"] for w in wide):
                continue
            tgt = {}
            if sett is not None and len(sett):
                t = sett[(sett["scenario"] == rec["scenario"]) & (sett["key"] == "Target CPU") & sett["status"].isin(["ok", "corrected"])]
                for trec in records(t, ["table_id", "row", "value"]):
                    if _percent(trec["value"]) is not None:
                        tgt = {"target_percent": _percent(trec["value"]), "target_table_id": trec["table_id"], "target_row": trec["row"]}
                        break
            wide.append({"scenario": rec["scenario"], "observed_percent": rec["value"], "raw": rec["raw"], "table_id": rec["table_id"],
                         "row": rec["row"], "note": rec["note"], **tgt})

    facts = []
    for s in atlas.scenarios:
        facts.append({"id": s["id"], "call_mix": (s.get("call_mix") or {}).get("raw"), "duration": (s.get("duration") or {}).get("raw"),
                      "release": s.get("release"), "deployment_mode": s.get("deployment_mode"),
                      "sites_provisioned": s.get("sites_provisioned"), "asm_note": s.get("asm_note")})
    return {"util_rows": compact, "scenario_cpu": wide, "scenario_facts": facts, "excluded_rows": excluded_rows(atlas)}


ERRATUM_ID = re.compile(r"\b[a-z]+-E\d{3}\b")


def excluded_rows(atlas) -> dict:
    """``excluded_rows`` (see calculators/partial.py): every utilization row with status flagged or
    missing, with the errata its note cites, so a result without it is marked partial. (Excluded
    resource rows are the bundle's ``resources_excluded``, read through footprint.completeness.)"""
    out = []
    for kind in ("utilization",):
        df = atlas.frames.get(kind)
        if df is None or not len(df):
            continue
        df = df[df["status"].isin(["flagged", "missing"])]
        cols = ["scenario", "table_id", "row", "row_label", "site", "service", "container", "status", "note"]
        for r in records(df, cols + (["metric"] if kind == "utilization" else [])):
            errata = list(dict.fromkeys(ERRATUM_ID.findall(r.pop("note") or "")))
            out.append([r["scenario"], kind, r["table_id"], r["row"], r["row_label"], r["site"] or "", r["service"],
                        r["container"], r.get("metric") or "", r["status"], errata])
    return {"cols": EXCLUDED_COLS, "rows": out}


# ---------------------------------------------------------------- forms

def _asm(r) -> str:
    bundle = r.bundle
    d = asm_calc.defaults(bundle)
    on = [s for s in bundle["scenarios"] if s["id"] in asm_calc.asm_on_ids(bundle)]
    off = [s for s in fp.scenarios_with_resources(bundle) if s["id"] not in asm_calc.asm_on_ids(bundle)]
    form = f"""
  <label>ASM-on scenario <select name="on" id="calc-on">{cp.scenario_options(bundle, on, d['on'])}</select></label>
  <label>ASM-off scenario (same product; the difference is given only for the same call model and deployment mode) <select name="off" id="calc-off">{cp.scenario_options(bundle, off, d['off'])}</select></label>
  <label>What-if load, total (the ASM-off scenario's unit; empty = its own load) <input name="load" id="calc-load" type="text" inputmode="decimal" value="" placeholder="e.g. 80000"></label>"""
    return cp.shell(r, "asm", form, d)


def _overtarget(r) -> str:
    bundle = r.bundle
    d = ot.defaults()
    names = {s["id"]: s["short_name"] for s in bundle["sources"]}
    prods = "".join(f'<option value="{escape(doc)}">{escape(names.get(doc, doc))}</option>' for doc in ot.products(bundle))
    form = f"""
  <label>Product <select name="product" id="calc-product"><option value="" selected>all products</option>{prods}</select></label>
  <label>Memory threshold (% observed; memory at or above is flagged) <input name="mem_threshold" id="calc-mem" type="text" inputmode="decimal" value="{escape(d['mem_threshold'])}"></label>
  <fieldset class="atlas-own"><legend>Check your own services (optional; stays in this browser, never in the link)</legend>
  <label><span>CSV with the header name,replicas,cpu_request,observed,target: cpu_request in cores per pod; observed as a percent (72%) or the cores all replicas used (3.5 cores); target in percent</span>
  <textarea name="csv" id="calc-csv" rows="5" data-no-permalink placeholder="name,replicas,cpu_request,observed,target&#10;my-gateway,50,4,90%,75"></textarea></label>
  <label>…or read a file (CSV, at most 1 MiB) <input type="file" id="calc-csv-file" accept=".csv,text/csv,text/plain" data-into="csv" data-max-bytes="{ot.MAX_BYTES}"></label>
  </fieldset>"""
    return cp.shell(r, "overtarget", form, d)


def macros(r) -> dict:
    return {"asm_calculator": lambda: _asm(r), "overtarget_calculator": lambda: _overtarget(r)}
