"""The DSR calculator's bundle keys, every value with its table and row:

* ``dsr_runs``: one record per DSR scenario (data/dsr): the measured figures
  the DSR calculator may use (``mps_achieved``, ``da_mp_count``,
  ``mps_achieved_per_da_mp``, ``cpu_peak``, ``ram_peak``, ``da_mp_vcpu``, the
  vSTP per-SS7-MP figures, ``sbr_mps_achieved``, ``dp_mps_achieved``), the
  flavor/profile text from settings.csv, the call model, the scenario's notes
  and contradictions;
* ``dsr_notes``: the errata those rows cite and the DSR infrastructure rules
  that bear on MP sizing (guidance.yaml), by id.

Only rows with status ``ok`` or ``corrected`` are used; nothing is computed here.
"""
from __future__ import annotations

from .datastore import metric_records, records, usable

DSR_METRICS = ("mps_achieved", "da_mp_count", "mps_achieved_per_da_mp", "cpu_peak", "ram_peak", "da_mp_vcpu",
               "mps_achieved_per_ss7_mp", "ss7_mp_vcpu", "ss7_mp_count", "mps_achieved_per_proxy_mp",
               "sbr_mps_achieved", "dp_mps_achieved")
DSR_SETTINGS = ("DA-MP Flavor", "DA-MP Profile", "SS7-MP Flavor", "UDR Flavor")
DSR_GUIDANCE_TOPICS = ("vstp-message-weights", "vstp-timers", "da-mp-relay-tuning", "dsa-comagent", "pdra-sbr-sizing")


def build(atlas) -> dict:
    """``{"dsr_runs": [...], "dsr_notes": {"errata", "guidance"}}`` from data/dsr (empty lists without DSR data)."""
    meas = usable(atlas.rows("measurements", doc="dsr"))
    sett = usable(atlas.rows("settings", doc="dsr"))
    runs, cited = [], set()
    for s in atlas.scenarios:
        if s["doc"] != "dsr":
            continue
        m = metric_records(meas[meas["scenario"] == s["id"]], DSR_METRICS)
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
