"""DSR and ShCM calculators: the bundle keys they read and the page macros.

``bundle(atlas)`` adds four small keys, every value with its table and row:

* ``dsr_runs``: one record per DSR scenario (data/dsr): the measured figures
  the DSR calculator may use (``mps_achieved``, ``da_mp_count``,
  ``mps_achieved_per_da_mp``, ``cpu_peak``, ``ram_peak``, ``da_mp_vcpu``, the
  vSTP per-SS7-MP figures, ``sbr_mps_achieved``, ``dp_mps_achieved``), the
  flavor/profile text from settings.csv, the call model, the scenario's notes
  and contradictions;
* ``dsr_notes``: the errata those rows cite and the DSR infrastructure rules
  that bear on MP sizing (guidance.yaml), by id;
* ``shcm_tests``: one record per row of T-rhino-performance (SPS, RPS, CPU as
  printed and in cores, heap, server config, client latency p50/p99/max);
* ``shcm_info``: the node hardware sentence (vCPUs read from it), the server
  configurations, the load-profile sentences and the errata the calculator cites.

Only rows with status ``ok`` or ``corrected`` are used; nothing is computed here
except reading the vCPU count out of the printed hardware sentence.
"""
from __future__ import annotations

import re
from html import escape

from calculators import dsr as dsr_calc
from calculators import shcm as shcm_calc

from . import calculator_page
from .bundle import records

DSR_METRICS = ("mps_achieved", "da_mp_count", "mps_achieved_per_da_mp", "cpu_peak", "ram_peak", "da_mp_vcpu",
               "mps_achieved_per_ss7_mp", "ss7_mp_vcpu", "ss7_mp_count", "mps_achieved_per_proxy_mp",
               "sbr_mps_achieved", "dp_mps_achieved")
DSR_SETTINGS = ("DA-MP Flavor", "DA-MP Profile", "SS7-MP Flavor", "UDR Flavor")
DSR_GUIDANCE_TOPICS = ("vstp-message-weights", "vstp-timers", "da-mp-relay-tuning", "dsa-comagent", "pdra-sbr-sizing")
SHCM_METRICS = ("sps", "rps", "cpu_percent", "cpu_cores", "heap_avg", "duration")
SHCM_TABLE = "T-rhino-performance"
SHCM_ERRATA = ("shcm-E003", "shcm-E006", "shcm-E008", "shcm-E020")
MEAS_COLS = ["metric", "value", "unit", "raw", "table_id", "row", "column_label", "status", "note"]
ERRATUM_RE = re.compile(r"\b((?:dsr|shcm)-E\d{3})\b")


def _good(df):
    return df[df["status"].isin(["ok", "corrected"])]


def _metrics(df, names) -> dict:
    """{metric: {value, unit, raw, table_id, row, column_label, status, errata: [ids the row's note cites]}}."""
    out = {}
    for rec in records(df[df["metric"].isin(list(names))], MEAS_COLS):
        rec["errata"] = ERRATUM_RE.findall(rec.pop("note") or "")
        out.setdefault(rec.pop("metric"), rec)
    return out


def _dsr(atlas) -> dict:
    meas = _good(atlas.rows("measurements", doc="dsr"))
    sett = _good(atlas.rows("settings", doc="dsr"))
    runs, cited = [], set()
    for s in atlas.scenarios:
        if s["doc"] != "dsr":
            continue
        m = _metrics(meas[meas["scenario"] == s["id"]], DSR_METRICS)
        if not m:
            continue
        st = {}
        for rec in records(sett[(sett["scenario"] == s["id"]) & sett["column_label"].isin(list(DSR_SETTINGS))],
                           ["column_label", "value", "table_id", "row"]):
            st.setdefault(rec.pop("column_label"), rec)
        mix = s.get("call_mix") or {}
        contra = [{"summary": c["summary"], "erratum": c.get("erratum")} for c in s.get("contradictions") or []]
        for v in m.values():
            cited.update(v["errata"])
        cited.update(c["erratum"] for c in contra if c["erratum"])
        runs.append({"id": s["id"], "doc": "dsr", "section": s.get("section"), "title": s["title"],
                     "short_title": s.get("short_title") or s["title"], "deployment_mode": s.get("deployment_mode"),
                     "call_mix": mix.get("raw"), "call_mix_where": (mix.get("cite") or {}).get("where"),
                     "metrics": m, "settings": st, "notes": list(s.get("notes") or []), "contradictions": contra})
    errata = {e["id"]: {"problem": e["problem"], "action": e["action"], "where": e.get("where")}
              for e in atlas.errata if e["id"] in cited}
    guidance = {g["id"]: {"topic": g["topic"], "setting": g["setting"], "line": (g.get("cite") or {}).get("line")}
                for g in (atlas.extras.get("dsr", {}).get("guidance") or []) if g.get("topic") in DSR_GUIDANCE_TOPICS}
    return {"dsr_runs": runs, "dsr_notes": {"errata": errata, "guidance": guidance}}


def _shcm(atlas) -> dict:
    meas = _good(atlas.rows("measurements", doc="shcm"))
    sett = _good(atlas.rows("settings", doc="shcm"))
    lat = _good(atlas.rows("latency", doc="shcm"))
    perf = meas[meas["table_id"] == SHCM_TABLE]
    tests = []
    for s in atlas.scenarios:
        if s["doc"] != "shcm":
            continue
        m = _metrics(perf[perf["scenario"] == s["id"]], SHCM_METRICS)
        if not m:
            continue
        conf = records(sett[(sett["scenario"] == s["id"]) & (sett["table_id"] == SHCM_TABLE) & (sett["key"] == "Server config")],
                       ["value", "table_id", "row", "line"])
        lrows = records(lat[lat["scenario"] == s["id"]], ["statistic", "value_ms", "table_id", "row", "line"])
        row = next(iter(m.values()))
        tests.append({"id": s["id"], "doc": "shcm", "section": s.get("section"), "title": s["title"],
                      "short_title": s.get("short_title") or s["title"], "test": row["row"], "metrics": m,
                      "config": conf[0] if conf else None,
                      "latency": {r.pop("statistic"): r for r in lrows if r["statistic"] in ("p50", "p99", "max")}})
    configs = {r["key"]: {k: r[k] for k in ("value", "table_id", "row", "line")}
               for r in records(sett[sett["table_id"] == "T-server-configs"], ["key", "value", "table_id", "row", "line"])}
    hw = records(sett[sett["table_id"] == "T-hardware"], ["value", "table_id", "row", "line"])
    node = None
    if hw:
        node = dict(hw[0])
        found = re.search(r"\((\d+)\s*vCPUs?\b", node["value"])
        node["vcpu"] = int(found.group(1)) if found else None
        found = re.search(r"\b(c\d\.\w+)\b", node["value"])
        node["instance"] = found.group(1) if found else None
    profile = {r["key"]: {k: r[k] for k in ("value", "table_id", "row", "line")}
               for r in records(sett[sett["table_id"] == "T-load-profile"], ["key", "value", "table_id", "row", "line"])}
    errata = {e["id"]: {"problem": e["problem"], "action": e["action"], "reason": e.get("reason")}
              for e in atlas.errata if e["id"] in SHCM_ERRATA}
    return {"shcm_tests": tests, "shcm_info": {"node": node, "configs": configs, "load_profile": profile, "errata": errata}}


def bundle(atlas) -> dict:
    return {**_dsr(atlas), **_shcm(atlas)}


# ---------------------------------------------------------------- pages

def _missing(what: str) -> str:
    return f'<div class="admonition warning"><p>No {escape(what)} data is curated, so this calculator has nothing to compute.</p></div>'


def dsr_page(r) -> str:
    b = r.bundle
    runs = dsr_calc.sizable_runs(b)
    if not runs:
        return _missing("DSR")
    d = dsr_calc.defaults(b)
    opts = calculator_page.scenario_options(b, runs, d["scenario"], lambda s: (
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
    return calculator_page.shell(r, "dsr", form, d)


def shcm_page(r) -> str:
    b = r.bundle
    tests = b.get("shcm_tests") or []
    if not tests:
        return _missing("ShCM")
    d = shcm_calc.defaults(b)
    opts = calculator_page.scenario_options(b, tests, d["scenario"], lambda s: (
        f' data-config="{escape((s.get("config") or {}).get("value") or "")}"'))
    form = f"""
  <label>Baseline test (sets the server configuration) <select name="scenario" id="calc-scenario">{opts}</select></label>
  <label><span>Target load</span> <input name="target" id="calc-target" type="text" inputmode="decimal" value="{escape(d['target'])}" required></label>
  <label>Unit of the target <select name="unit" id="calc-unit"><option value="RPS"{" selected" if d["unit"] == "RPS" else ""}>RPS (requests per second)</option><option value="SPS"{" selected" if d["unit"] == "SPS" else ""}>SPS (sessions per second)</option></select></label>
  <label>CPU ceiling per Rhino node (% of the node's vCPUs; empty = size at the measured CPU, no extrapolation) <input name="ceiling" id="calc-ceiling" type="text" inputmode="decimal" value="{escape(d['ceiling'])}" placeholder="e.g. 60"></label>
  <label>Spare Rhino nodes (N+k; 0 = none) <input name="spare" id="calc-spare" type="number" min="0" max="{shcm_calc.MAX_SPARE}" step="1" value="{escape(d['spare'])}"></label>"""
    return calculator_page.shell(r, "shcm", form, d)


def macros(r) -> dict:
    return {"dsr_calculator": lambda: dsr_page(r), "shcm_calculator": lambda: shcm_page(r)}

