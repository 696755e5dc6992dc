"""The scenario tables of products measured by their own metrics rather than by Kubernetes resource requests:
DSR runs (MPS achieved, MPs, CPU and RAM peak) and ShCM tests (SPS, RPS, JVM CPU, heap, client latency), each row
linking to its calculator with the run preselected, and the scenario pages' link to that calculator.

``TABLES`` maps a document id to the function that renders its product page's scenario table; the product page uses
the resource-request table for the others. Every figure is read from the calculator bundle (``dsr_runs``,
``shcm_tests``: usable rows only, each with its table and row); nothing here computes a figure, except the per-MP rate
the DSR calculator itself derives (``calculators.dsr.per_mp``), which is marked as derived.
"""
from __future__ import annotations

import re
from urllib.parse import urlencode

from calculators import dsr as dsr_calc
from calculators import shcm as shcm_calc
from calculators.formatting import fmt

from ..html import esc

CALCULATOR = {"dsr": "calculators/dsr/", "shcm": "calculators/shcm/"}
"""The calculator page of each document measured by its own metrics, from the site root."""


def _missing(text: str = "not printed") -> str:
    return f'<span class="atlas-missing">{esc(text)}</span>'


def _fig(m: dict | None, unit: str = "") -> str:
    """A measured figure (a bundle metric record) as a cell's content: the value, the text as printed when it differs,
    its table and row as a tooltip; ``_missing()`` when absent."""
    if not m:
        return _missing()
    shown = fmt(m["value"]) + unit
    raw = m.get("raw")
    bare = lambda t: re.sub(r"[^0-9.]", "", t)  # "16 DA-MPs" is 16 as printed; "288K" is not 288,000
    extra = f' <span class="atlas-raw" title="as printed">{esc(raw)}</span>' if raw and bare(raw) != bare(shown) else ""
    mark = (f' <span class="atlas-flag atlas-flag-corrected" title="corrected: {esc(", ".join(m.get("errata") or []))}">✎</span>'
            if m.get("status") == "corrected" else "")
    return f'<span title="Table {esc(m["table_id"])}, row {esc(m["row"])}">{esc(shown)}</span>{extra}{mark}'


def calculator_url(r, sid: str, prefix: str = "") -> str | None:
    """The calculator link that computes run ``sid`` at its own measured load (``?scenario=&target=``, the page's
    permalink format; ShCM adds ``unit``), relative to ``prefix`` (the way back to the site root), or None when
    ``sid`` is not a run its calculator can size."""
    doc = r.a.scenario(sid)["doc"]
    if doc not in CALCULATOR:
        return None
    mod = dsr_calc if doc == "dsr" else shcm_calc
    try:
        d = mod.defaults(r.bundle, sid)
    except KeyError:
        return None
    keep = ("scenario", "target", "unit") if doc == "shcm" else ("scenario", "target")
    return prefix + CALCULATOR[doc] + "?" + urlencode({k: d[k] for k in keep if d.get(k)})


def calculator_button(r, sid: str) -> str:
    """The scenario page's link to its calculator with the run preselected ('' for a run that cannot be sized, with
    the reason for a DSR run)."""
    url = calculator_url(r, sid, "../../../")
    doc = r.a.scenario(sid)["doc"]
    if url:
        what = "DA-MPs" if doc == "dsr" else "Rhino nodes"
        if doc == "dsr":
            what = dsr_calc.mp_kind(next(x for x in r.bundle["dsr_runs"] if x["id"] == sid)) + "s"
        return f'<p><a class="md-button" href="{esc(url)}">Size {esc(what)} from this run in the calculator</a></p>'
    if doc == "dsr":
        run = next((x for x in r.bundle["dsr_runs"] if x["id"] == sid), None)
        if run is not None:
            return f'<p class="atlas-note">The DSR calculator cannot size from this run: {esc(dsr_calc.per_mp(run)["reason"])}</p>'
    return ""


def dsr_table(r, doc: str) -> str:
    """The DSR product page's runs table: section, run, mode, call model, MP flavor, MPS achieved, MPs, MPS per MP
    (printed, or derived by the calculator and marked so), CPU and RAM peak, and the calculator link."""
    runs = {x["id"]: x for x in r.bundle.get("dsr_runs") or []}
    rows = []
    for s in (x for x in r.a.scenarios if x["doc"] == doc):
        run = runs.get(s["id"])
        m = run["metrics"] if run else {}
        st = run["settings"] if run else {}
        flavor = (st.get("DA-MP Flavor") or st.get("SS7-MP Flavor") or {}).get("value")
        kind = dsr_calc.mp_kind(run) if run else "DA-MP"
        mps = (_fig(m["mps_achieved"]) if "mps_achieved" in m else
               _fig(m["sbr_mps_achieved"]) + " (at the SBRs)" if "sbr_mps_achieved" in m else
               _fig(m["dp_mps_achieved"]) + " (at the DP)" if "dp_mps_achieved" in m else _missing())
        count = m.get("da_mp_count") or m.get("ss7_mp_count")
        per = m.get("mps_achieved_per_da_mp") or m.get("mps_achieved_per_ss7_mp")
        p = dsr_calc.per_mp(run) if run else {"sizable": False}
        if per:
            per_cell = _fig(per)
        elif p["sizable"]:
            per_cell = f'{esc(fmt(p["rate"]))} <abbr title="derived: MPS achieved / {esc(kind)}s">(derived)</abbr>'
        else:
            per_cell = _missing()
        url = calculator_url(r, s["id"], "../../")
        link = (f'<a href="{esc(url)}">Size {esc(kind)}s</a>' if url else
                f'<span class="atlas-missing" title="{esc(p.get("reason") or "")}">not sizable</span>')
        rows.append(
            f'<tr><td>{esc(s["section"])}</td><td><a href="{esc(s["id"])}/">{esc(s.get("short_title") or s["title"])}</a></td>'
            f'<td>{esc(s.get("deployment_mode"))}</td><td>{esc((s.get("call_mix") or {}).get("raw")) or _missing("not stated in the guide")}</td>'
            f'<td>{esc(flavor) if flavor else _missing()}</td><td>{mps}</td>'
            f'<td>{_fig(count) if count else _missing()}</td><td>{per_cell}</td>'
            f'<td>{_fig(m.get("cpu_peak"), " %")}</td><td>{_fig(m.get("ram_peak"), " %")}</td><td>{link}</td></tr>')
    return ('<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="scenarios"><thead><tr>'
            "<th>Section</th><th>Run</th><th>Mode</th><th>Call model</th><th>MP flavor</th><th>MPS achieved</th>"
            "<th>MPs (DA-MPs or SS7-MPs)</th><th>MPS per MP</th><th>CPU peak</th><th>RAM peak</th><th>Calculator</th>"
            "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>\n\n"
            '<p class="atlas-note">As printed in each run\'s table (hover a figure for its table and row). The DSR runs '
            "are virtual machines on KVM: the guide gives no Kubernetes CPU or memory requests, so the figures are its own "
            "metrics. MPS per MP is printed, or derived as the DSR calculator derives it where the run prints MPS achieved "
            "and the number of MPs. The calculator link sizes MPs from the run at its own measured load.</p>")


def shcm_table(r, doc: str) -> str:
    """The ShCM product page's tests table: test, server configuration, SPS, RPS, JVM CPU (as printed and in cores),
    heap, client latency p50/p99/max and the calculator link (each test's duration is on its page)."""
    tests = {t["id"]: t for t in r.bundle.get("shcm_tests") or []}
    rows = []
    for s in (x for x in r.a.scenarios if x["doc"] == doc):
        t = tests.get(s["id"])
        m = t["metrics"] if t else {}
        lat = (t or {}).get("latency") or {}
        cfg = ((t or {}).get("config") or {}).get("value")

        def ms(k):
            v = lat.get(k)
            return (f'<span title="Table {esc(v["table_id"])}, row {esc(v["row"])}">{esc(fmt(v["value_ms"]))}</span>'
                    if v else _missing())
        cpu = _fig(m.get("cpu_percent"), " %") + (f' ({esc(fmt(m["cpu_cores"]["value"]))} cores)' if m.get("cpu_cores") else "")
        url = calculator_url(r, s["id"], "../../")
        rows.append(
            f'<tr><td><a href="{esc(s["id"])}/">{esc(s.get("short_title") or s["title"])}</a></td>'
            f'<td>{esc(cfg) if cfg else _missing()}</td><td>{_fig(m.get("sps"))}</td><td>{_fig(m.get("rps"))}</td>'
            f'<td>{cpu}</td><td>{_fig(m.get("heap_avg"), " GiB")}</td>'
            f'<td>{ms("p50")}</td><td>{ms("p99")}</td><td>{ms("max")}</td>'
            f'<td>{f"""<a href="{esc(url)}">Size Rhino nodes</a>""" if url else _missing("not sizable")}</td></tr>')
    return ('<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="scenarios"><thead><tr>'
            "<th>Test</th><th>Server config</th><th>SPS</th><th>RPS</th><th>JVM CPU, average</th>"
            "<th>Heap, average</th><th>Client latency p50 (ms)</th><th>p99 (ms)</th><th>max (ms)</th><th>Calculator</th>"
            "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>\n\n"
            '<p class="atlas-note">As printed in the Rhino Performance and client latency tables (hover a figure for its '
            "table and row). ShCM runs on Rhino nodes, not Kubernetes pods: the guide gives no CPU or memory requests. "
            "JVM CPU is printed in percent of one core. The calculator link sizes Rhino nodes from the test at its own "
            f"measured RPS, with the calculator's default of {shcm_calc.DEFAULT_SPARE} spare node (N+1).</p>")


TABLES = {"dsr": dsr_table, "shcm": shcm_table}
"""Document id -> its product page's scenario table (``f(r, doc)``), for products measured by their own metrics."""
