"""The Oracle DSR guide: measured by its own metrics (MPS per DA-MP, CPU and RAM peak of virtual machines on KVM),
not by Kubernetes requests, and sized by the DSR calculator (``calculators.dsr``). The guide interface is
``atlas.guides``; this module's document id is its name.

Bundle keys, every value with its table and row:

* ``dsr_runs``: one record per scenario of this guide: the measured figures the DSR calculator may use
  (``mps_achieved``, ``da_mp_count``, ``mps_achieved_per_da_mp``, ``cpu_peak``, ``ram_peak``, ``da_mp_vcpu``, the vSTP
  per-SS7-MP figures, ``sbr_mps_achieved``, ``dp_mps_achieved``), the flavor/profile text from settings.csv, the call
  model, the scenario's notes and contradictions;
* ``dsr_notes``: the errata those rows cite and the DSR infrastructure rules that bear on MP sizing (guidance.yaml),
  by id.

Only rows with status ``ok`` or ``corrected`` are used; nothing is computed here.
"""
from __future__ import annotations

from calculators import dsr as dsr_calc
from calculators.formatting import fmt

from ..datastore import metric_records, records, usable
from ..html import esc
from . import calculator_url, figure, missing

_METRICS = ("mps_achieved", "da_mp_count", "mps_achieved_per_da_mp", "cpu_peak", "ram_peak", "da_mp_vcpu",
            "mps_achieved_per_ss7_mp", "ss7_mp_vcpu", "ss7_mp_count", "mps_achieved_per_proxy_mp",
            "sbr_mps_achieved", "dp_mps_achieved")
_SETTINGS = ("DA-MP Flavor", "DA-MP Profile", "SS7-MP Flavor", "UDR Flavor")
_GUIDANCE_TOPICS = ("vstp-message-weights", "vstp-timers", "da-mp-relay-tuning", "dsa-comagent", "pdra-sbr-sizing")
_KEEP = ("scenario", "target")
"""The DSR calculator's permalink parameters that open a run at its own load."""

BUNDLE_KEYS = ("dsr_runs", "dsr_notes")
CALCULATOR = dsr_calc.NAME
EXAMPLES = {
    dsr_calc.NAME: {"scenario": "dsr-relay-12vcpu", "target": 240000, "ceiling": 40,
                    "site_target": 1000000, "site_redundancy": "mated-pair"},
}
"""The DSR calculator's default run and the method page's worked example: the 12-vCPU relay run of Table 3-1
(288K MPS on 16 DA-MPs), 240,000 MPS at a 40 % ceiling; the site-limit example: 1,000,000 MPS on mated pairs."""


def bundle(atlas, doc: str) -> dict:
    """``{"dsr_runs": [...], "dsr_notes": {"errata", "guidance"}}`` from data/<doc> (empty without its data)."""
    meas = usable(atlas.rows("measurements", doc=doc))
    sett = usable(atlas.rows("settings", doc=doc))
    runs, cited = [], set()
    for s in atlas.scenarios:
        if s["doc"] != doc:
            continue
        m = metric_records(meas[meas["scenario"] == s["id"]], _METRICS)
        if not m:
            continue
        st = {}
        for rec in records(sett[(sett["scenario"] == s["id"]) & sett["column_label"].isin(list(_SETTINGS))],
                           ["column_label", "value", "table_id", "row"]):
            st.setdefault(rec.pop("column_label"), rec)
        mix = s.get("call_mix") or {}
        contra = [{"summary": c["summary"], "erratum": c.get("erratum")} for c in s.get("contradictions") or []]
        for v in m.values():
            cited.update(v["errata"])
        cited.update(c["erratum"] for c in contra if c["erratum"])
        runs.append({"id": s["id"], "doc": doc, "section": s.get("section"), "title": s["title"],
                     "short_title": s.get("short_title") or s["title"], "deployment_mode": s.get("deployment_mode"),
                     "call_mix": mix.get("raw"), "call_mix_where": (mix.get("cite") or {}).get("where"),
                     "metrics": m, "settings": st, "notes": list(s.get("notes") or []), "contradictions": contra})
    errata = {e["id"]: {"problem": e["problem"], "action": e["action"], "where": e.get("where")}
              for e in atlas.errata if e["id"] in cited}
    guidance = {g["id"]: {"topic": g["topic"], "setting": g["setting"], "line": (g.get("cite") or {}).get("line")}
                for g in (atlas.extras.get(doc, {}).get("guidance") or []) if g.get("topic") in _GUIDANCE_TOPICS}
    return {"dsr_runs": runs, "dsr_notes": {"errata": errata, "guidance": guidance}}


def _run(renderer, sid: str) -> dict | None:
    return next((x for x in renderer.bundle.get("dsr_runs") or [] if x["id"] == sid), None)


def calculator_button(renderer, sid: str) -> str:
    """The scenario page's link to the DSR calculator with run ``sid`` preselected, or why it cannot size from it."""
    run = _run(renderer, sid)
    if run is None:
        return ""
    url = calculator_url(renderer, sid, dsr_calc, _KEEP, "../../../")
    if url:
        return (f'<p><a class="md-button" href="{esc(url)}">Size {esc(dsr_calc.mp_kind(run))}s from this run in the '
                'calculator</a></p>')
    return f'<p class="atlas-note">The DSR calculator cannot size from this run: {esc(dsr_calc.per_mp(run)["reason"])}</p>'


def scenarios_table(renderer, doc: str) -> str:
    """The product page's runs table: section, run, mode, call model, MP flavor, MPS achieved, MPs, MPS per MP
    (printed, or derived by the calculator and marked so), CPU and RAM peak, and the calculator link."""
    runs = {x["id"]: x for x in renderer.bundle.get("dsr_runs") or []}
    rows = []
    for s in (x for x in renderer.atlas.scenarios if x["doc"] == doc):
        run = runs.get(s["id"])
        m = run["metrics"] if run else {}
        st = run["settings"] if run else {}
        flavor = (st.get("DA-MP Flavor") or st.get("SS7-MP Flavor") or {}).get("value")
        kind = dsr_calc.mp_kind(run) if run else "DA-MP"
        mps = (figure(m["mps_achieved"]) if "mps_achieved" in m else
               figure(m["sbr_mps_achieved"]) + " (at the SBRs)" if "sbr_mps_achieved" in m else
               figure(m["dp_mps_achieved"]) + " (at the DP)" if "dp_mps_achieved" in m else missing())
        count = m.get("da_mp_count") or m.get("ss7_mp_count")
        per = m.get("mps_achieved_per_da_mp") or m.get("mps_achieved_per_ss7_mp")
        p = dsr_calc.per_mp(run) if run else {"sizable": False}
        if per:
            per_cell = figure(per)
        elif p["sizable"]:
            per_cell = f'{esc(fmt(p["rate"]))} <abbr title="derived: MPS achieved / {esc(kind)}s">(derived)</abbr>'
        else:
            per_cell = missing()
        url = calculator_url(renderer, s["id"], dsr_calc, _KEEP, "../../")
        link = (f'<a href="{esc(url)}">Size {esc(kind)}s</a>' if url else
                f'<span class="atlas-missing" title="{esc(p.get("reason") or "")}">not sizable</span>')
        rows.append(
            f'<tr><td>{esc(s["section"])}</td><td><a href="{esc(s["id"])}/">{esc(s.get("short_title") or s["title"])}</a></td>'
            f'<td>{esc(s.get("deployment_mode"))}</td><td>{esc((s.get("call_mix") or {}).get("raw")) or missing("not stated in the guide")}</td>'
            f'<td>{esc(flavor) if flavor else missing()}</td><td>{mps}</td>'
            f'<td>{figure(count) if count else missing()}</td><td>{per_cell}</td>'
            f'<td>{figure(m.get("cpu_peak"), " %")}</td><td>{figure(m.get("ram_peak"), " %")}</td><td>{link}</td></tr>')
    return ('<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="scenarios"><thead><tr>'
            "<th>Section</th><th>Run</th><th>Mode</th><th>Call model</th><th>MP flavor</th><th>MPS achieved</th>"
            "<th>MPs (DA-MPs or SS7-MPs)</th><th>MPS per MP</th><th>CPU peak</th><th>RAM peak</th><th>Calculator</th>"
            "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>\n\n"
            '<p class="atlas-note">As printed in each run\'s table (hover a figure for its table and row). The DSR runs '
            "are virtual machines on KVM: the guide gives no Kubernetes CPU or memory requests, so the figures are its own "
            "metrics. MPS per MP is printed, or derived as the DSR calculator derives it where the run prints MPS achieved "
            "and the number of MPs. The calculator link sizes MPs from the run at its own measured load.</p>")
