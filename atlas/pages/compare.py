"""Compare two scenarios side by side (docs/tools/compare.md), without Pyodide.

Build time: one small JSON per scenario (assets/data/compare/<id>.json: load, sites,
ASM, release, totals, and per service and container the replicas, CPU request per pod
and observed CPU) and a prerendered default pair. In the browser, compare.js fetches the
two chosen files and renders the same markup (text only, never HTML from data); the
choice lives in the URL (?a=<id>&b=<id>).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from calculators.formatting import fmt

from ..html import esc

DEFAULT = ("bsf-3-2", "bsf-3-3")
ASM = {"enabled": "on", "disabled": "off", "partial": "partial", "unknown": "not stated", "not_applicable": "not applicable"}


def _num(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    return float(v)


def _cell(v, text=None) -> dict:
    v = _num(v)
    return {"v": v, "t": text if text is not None else ("not stated" if v is None else fmt(v))}


def scenario_data(r, sid: str) -> dict:
    """What the compare page shows of scenario ``sid``: ``{"id", "title", "url", "unit", "facts": [{"key", "label",
    "v": number or None, "t": text}], "services": [{"key", "service", "container", "replicas", "cpu_pod" (cores),
    "cpu_total" (cores), "cpu_obs" (percent as printed)}]}``; written per scenario as assets/data/compare/<id>.json.
    Raises KeyError for an unknown scenario."""
    s = r.a.scenario(sid)
    src = r.a.source(s["doc"])
    load = s["load"]
    b = r.baseline(sid)
    eff = r.efficiency(sid)
    traffic = s.get("sites_with_traffic") or []
    facts = [
        ("product", "Product", {"v": None, "t": src["short_name"]}),
        ("section", "Section", {"v": None, "t": str(s["section"])}),
        ("load_per_site", "Load per site", _cell(load.get("per_site"), None if load.get("per_site") is None else f'{fmt(load["per_site"])} {load["unit"]}')),
        ("load_total", "Load in total", _cell(load.get("total"), None if load.get("total") is None else f'{fmt(load["total"])} {load["unit"]}')),
        ("sites_provisioned", "Sites provisioned", _cell(s.get("sites_provisioned"))),
        ("sites_traffic", "Sites carrying traffic", {"v": float(len(traffic)) if traffic else None,
                                                      "t": f'{len(traffic)} ({", ".join(traffic)})' if traffic else "not stated"}),
        ("asm", "ASM (service mesh)", {"v": None, "t": ASM.get(s["asm"], s["asm"])}),
        ("release", "Release", {"v": None, "t": s.get("release") or ""}),
        ("mode", "Deployment mode", {"v": None, "t": s.get("deployment_mode") or ""}),
    ]
    if b:
        site = b["totals"]["site"]["before"]
        partial = r.completeness(sid)["partial"]
        least = (lambda v: None if v is None else f"at least {fmt(v)}") if partial else (lambda v: None)
        facts += [("completeness", "Services counted in the totals",
                   {"v": None, "t": f"partial, at least: leaves out {r.missing_note(sid)}" if partial else "all"}),
                  ("cpu_request", "CPU requested at one traffic site (cores)", _cell(site["cpu_request"], least(site["cpu_request"]))),
                  ("mem_request", "Memory requested at one traffic site (GiB)", _cell(site["mem_request"], least(site["mem_request"]))),
                  ("efficiency", f'CPU cores per 1K {load["unit"]}', _cell(eff, least(eff)))]
    services: dict[str, dict] = {}
    if b:
        for row in b["rows"]:
            k = f'{row["service"]}\u241f{row["container"]}'
            d = services.setdefault(k, {"service": row["service"], "container": row["container"],
                                        "replicas": 0.0, "cpu_pod": None, "cpu_total": 0.0, "cpu_obs": None})
            d["replicas"] += row["replicas_before"] or 0
            d["cpu_pod"] = row["cpu_request"] if row["cpu_request"] is not None else d["cpu_pod"]
            d["cpu_total"] += row["cpu_request_before"] or 0
    u = r.a.rows("utilization", scenario=sid, metric="cpu")
    if not u.empty:
        u = u[u["status"].isin(["ok", "corrected"]) & u["site"].isin(traffic) & u["observed_percent"].notna()]
        for row in u.itertuples():
            k = f"{row.service}\u241f{row.container}"
            d = services.setdefault(k, {"service": row.service, "container": row.container,
                                        "replicas": None, "cpu_pod": None, "cpu_total": None, "cpu_obs": None})
            if d["cpu_obs"] is None or row.observed_percent > d["cpu_obs"]:
                d["cpu_obs"] = float(row.observed_percent)
    rows = []
    for k, d in services.items():
        rows.append({"key": k, "service": d["service"], "container": d["container"],
                     "replicas": _cell(d["replicas"], "" if d["replicas"] is None else None),
                     "cpu_pod": _cell(d["cpu_pod"], "" if d["cpu_pod"] is None else None),
                     "cpu_total": _cell(d["cpu_total"], "" if d["cpu_total"] is None else None),
                     "cpu_obs": _cell(d["cpu_obs"], "" if d["cpu_obs"] is None else f'{fmt(d["cpu_obs"])} %')})
    return {"id": sid, "title": f'{src["short_name"]} {s["section"]}: {s.get("short_title") or s["title"]}',
            "url": f'products/{s["doc"]}/{sid}/', "unit": load["unit"],
            "facts": [{"key": k, "label": label, **c} for k, label, c in facts], "services": rows}


def delta(a, b) -> str:
    """B minus A as the page prints it (``+1.5``, ``-266.247``: three decimals at most, sign shown), or '' when a
    side is missing or both are equal. compare.js has the same rule (tests/test_compare_agrees.py)."""
    if a is None or b is None or a == b:
        return ""
    d = b - a
    t = f"{round(d, 3):.3f}".rstrip("0").rstrip(".")
    return ("+" if d > 0 else "") + t


ONLY_A = '<span class="atlas-only">not in A</span>'
ONLY_B = '<span class="atlas-only">not in B</span>'


def _delta_html(dl: str) -> str:
    return f' <span class="atlas-delta">({esc(dl)})</span>' if dl else ""


# The markup below is mirrored by docs/assets/js/compare.js (render()); tests/test_compare_agrees.py proves the two agree.
def render_pair(a: dict, b: dict, prefix: str = "../../") -> str:
    """The comparison of two ``scenario_data`` dicts as HTML: a facts table and a per-service table, cells that
    differ marked, deltas (B - A) beside B. ``prefix``: from the compare page back to the site root."""
    def head(x):
        """Column heading: the scenario's title linking to its page."""
        return f'<a href="{esc(prefix + x["url"])}">{esc(x["title"])}</a>'

    out = ['<h2 id="atlas-compare-facts">Scenarios</h2>',
           '<div class="atlas-table-wrap"><table class="atlas-data atlas-compare" data-atlas-table="compare-facts"><thead><tr>'
           f'<th scope="col">Field</th><th scope="col" data-compare-side="a">A: {head(a)}</th><th scope="col" data-compare-side="b">B: {head(b)}</th></tr></thead><tbody>']
    fb = {f["key"]: f for f in b["facts"]}
    keys = [f["key"] for f in a["facts"]] + [f["key"] for f in b["facts"] if f["key"] not in {x["key"] for x in a["facts"]}]
    fa = {f["key"]: f for f in a["facts"]}
    for k in keys:
        x, y = fa.get(k), fb.get(k)
        label = (x or y)["label"]
        tx, ty = (x["t"] if x else ""), (y["t"] if y else "")
        diff = ' class="atlas-diff"' if tx != ty else ""
        dl = delta(x and x["v"], y and y["v"])
        out.append(f'<tr data-key="{esc(k)}"><th scope="row">{esc(label)}</th><td{diff}>{esc(tx)}</td>'
                   f'<td{diff}>{esc(ty)}{_delta_html(dl)}</td></tr>')
    out.append("</tbody></table></div>")
    out.append('<h2 id="atlas-compare-services">Per service</h2>')
    sa = {s["key"]: s for s in a["services"]}
    sb = {s["key"]: s for s in b["services"]}
    keys = list(sa) + [k for k in sb if k not in sa]
    if not keys:
        out.append('<p class="atlas-missing">Neither scenario has per-service resource or utilization data.</p>')
        return "\n".join(out)
    cols = [("replicas", "Replicas"), ("cpu_pod", "CPU request per pod (cores)"), ("cpu_total", "CPU request, all replicas (cores)"),
            ("cpu_obs", "Observed CPU (max over traffic sites)")]
    out.append('<div class="atlas-table-wrap"><table class="atlas-data atlas-compare" data-atlas-table="compare-services"><thead><tr>'
               '<th scope="col">Service</th><th scope="col">Container</th>'
               + "".join(f'<th scope="col">{esc(h)}, A</th><th scope="col">{esc(h)}, B</th>' for _, h in cols) + "</tr></thead><tbody>")
    for k in keys:
        x, y = sa.get(k), sb.get(k)
        base = x or y
        cells = []
        for c, _ in cols:
            vx, vy = (x[c] if x else None), (y[c] if y else None)
            tx, ty = (vx["t"] if vx else ""), (vy["t"] if vy else "")
            diff = ' class="atlas-diff"' if tx != ty else ""
            dl = delta(vx and vx["v"], vy and vy["v"])
            cells.append(f"<td{diff}>{esc(tx) if x else ONLY_A}</td><td{diff}>{esc(ty) if y else ONLY_B}{_delta_html(dl)}</td>")
        out.append(f'<tr data-key="{esc(k)}"><td>{esc(base["service"])}</td><td>{esc(base["container"])}</td>' + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def _options(r, selected: str) -> str:
    out = []
    for doc in r.a.docs():
        src = r.a.source(doc)
        out.append(f'<optgroup label="{esc(src["short_name"])}">')
        for s in r.a.scenarios:
            if s["doc"] != doc:
                continue
            sel = " selected" if s["id"] == selected else ""
            out.append(f'<option value="{esc(s["id"])}"{sel}>{esc(src["short_name"])} {esc(s["section"])}: {esc(s.get("short_title") or s["title"])}</option>')
        out.append("</optgroup>")
    return "".join(out)


def compare_page(r) -> str:
    """The compare page body (``{{ compare_page() }}``): the two scenario choices and the default pair prerendered."""
    ids = [s["id"] for s in r.a.scenarios]
    a, b = (DEFAULT if all(x in ids for x in DEFAULT) else (ids[0], ids[min(1, len(ids) - 1)]))
    return f"""
<div id="atlas-compare" class="atlas-compare-root" data-default-a="{esc(a)}" data-default-b="{esc(b)}">
<form class="atlas-compare-form" method="get" action="./">
  <label>Scenario A <select name="a" id="compare-a">{_options(r, a)}</select></label>
  <label>Scenario B <select name="b" id="compare-b">{_options(r, b)}</select></label>
  <button type="submit" class="md-button md-button--primary" id="compare-run">Compare</button>
</form>
<p id="atlas-compare-status" class="atlas-status" role="status" aria-live="polite">Showing {esc(a)} against {esc(b)}, rendered when the site was built. Choosing other scenarios needs JavaScript (no Python is loaded on this page).</p>
<p class="atlas-compare-legend"><span class="atlas-swatch"></span> highlighted cells differ; (+n) is B minus A. <a id="compare-permalink" href="?a={esc(a)}&amp;b={esc(b)}">Permalink</a></p>
<div id="atlas-compare-result" data-a="{esc(a)}" data-b="{esc(b)}" data-prerendered="true">
{render_pair(scenario_data(r, a), scenario_data(r, b))}
</div>
</div>
"""


def write_data(r, docs_dir: Path) -> None:
    """Write one JSON per scenario (``scenario_data``) to ``docs_dir``/assets/data/compare/<id>.json, which
    compare.js fetches. Raises OSError if a file cannot be written."""
    out = Path(docs_dir) / "assets" / "data" / "compare"
    out.mkdir(parents=True, exist_ok=True)
    for s in r.a.scenarios:
        (out / f'{s["id"]}.json').write_text(json.dumps(scenario_data(r, s["id"]), separators=(",", ":"), allow_nan=False), encoding="utf-8")
