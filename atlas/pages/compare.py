"""Compare two scenarios side by side (docs/tools/compare.md), without Pyodide.

Build time: one small JSON per scenario (assets/data/compare/<id>.json: load, sites,
ASM, release, totals, and per service and container the replicas, CPU request per pod
and observed CPU) and a prerendered default pair. In the browser, compare.js fetches the
two chosen files and renders the same markup (text only, never HTML from data); the
choice lives in the URL (?a=<id>&b=<id>, &diff=1 for differences only).

One model of a pair (``pair_rows``) feeds both the tables (``render_pair``) and the
exports (``export_rows``, CSV and JSON: built here for the default pair, as files the
page links without JavaScript, and by compare.js as a Blob for any other pair).
"""
from __future__ import annotations

import io
import json
import math
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from calculators.formatting import csv_writer, fmt

from ..html import esc
from .products import NOT_STATED, release_of

ASM = {"enabled": "on", "disabled": "off", "partial": "partial", "unknown": "not stated", "not_applicable": "not applicable"}


def _num(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    return float(v)


def _cell(v, text=None) -> dict:
    v = _num(v)
    return {"v": v, "t": text if text is not None else ("not stated" if v is None else fmt(v))}


def scenario_data(renderer, sid: str) -> dict:
    """What the compare page shows of scenario ``sid``: ``{"id", "title", "url", "unit", "facts": [{"key", "label",
    "v": number or None, "t": text}], "services": [{"key", "service", "container", "replicas", "cpu_pod" (cores),
    "cpu_total" (cores), "cpu_obs" (percent as printed)}]}``; written per scenario as assets/data/compare/<id>.json.
    Raises KeyError for an unknown scenario."""
    s = renderer.atlas.scenario(sid)
    src = renderer.atlas.source(s["doc"])
    load = s["load"]
    b = renderer.baseline(sid)
    eff = renderer.efficiency(sid)
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
        # as the scenario and product pages read them (products.release_of, NOT_STATED): never a blank cell
        ("release", "Release", {"v": None, "t": release_of(s, src) or NOT_STATED}),
        ("mode", "Deployment mode", {"v": None, "t": s.get("deployment_mode") or NOT_STATED}),
    ]
    if b:
        site = b["totals"]["site"]["before"]
        partial = renderer.completeness(sid)["partial"]
        least = (lambda v: None if v is None else f"at least {fmt(v)}") if partial else (lambda v: None)
        facts += [("completeness", "Services counted in the totals",
                   {"v": None, "t": f"partial, at least: leaves out {renderer.missing_note(sid)}" if partial else "all"}),
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
    u = renderer.atlas.rows("utilization", scenario=sid, metric="cpu")
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
    """B minus A as the page prints it: sign shown, thousands separators, three decimals at most, rounded half away
    from zero on the exact binary value as JavaScript's ``toFixed`` does (``+9,000``, ``-266.247``, ``+0.063`` for
    0.0625); '' when a side is missing or both are equal. compare.js has the same rule (tests/test_js_agrees.py runs it in Node on every pair)."""
    if a is None or b is None or a == b:
        return ""
    d = b - a
    q = Decimal(d).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
    t = f"{q:,.3f}".rstrip("0").rstrip(".")
    return ("+" if d > 0 else "") + t


def plain_delta(shown: str) -> str:
    """A delta as ``delta`` prints it, for a CSV cell: no sign for a positive number, no thousands separators
    (``+9,000`` -> ``9000``)."""
    return shown.replace(",", "").lstrip("+")


def js_number(v) -> str:
    """A number as JavaScript's ``String(v)`` writes it (``54000``, ``0.25``), for CSV cells both renderers agree on;
    '' for None. Plain decimals only (the data has no value below 1e-6, where JavaScript turns to exponents)."""
    if v is None:
        return ""
    if float(v).is_integer():
        return str(int(v))
    r = repr(float(v))
    return format(Decimal(r), "f") if "e" in r else r


COLS = [("replicas", "Replicas"), ("cpu_pod", "CPU request per pod (cores)"), ("cpu_total", "CPU request, all replicas (cores)"),
        ("cpu_obs", "Observed CPU (max over traffic sites)")]


def pair_rows(a: dict, b: dict) -> tuple[list[dict], list[dict]]:
    """The comparison of two ``scenario_data`` dicts: (facts, services). A fact: ``{"key", "label", "a", "b" (texts
    shown, '' where a side lacks it), "av", "bv" (numbers or None), "delta" (``delta``), "differs"}``. A service row:
    ``{"key", "service", "container", "cells": [{"key", "label", "a", "b", "av", "bv", "delta", "differs"}],
    "differs"}``, where "a" or "b" is None for a service the side does not have (shown as 'not in A')."""
    fa = {f["key"]: f for f in a["facts"]}
    fb = {f["key"]: f for f in b["facts"]}
    facts = []
    for k in [f["key"] for f in a["facts"]] + [f["key"] for f in b["facts"] if f["key"] not in fa]:
        x, y = fa.get(k), fb.get(k)
        tx, ty = (x["t"] if x else ""), (y["t"] if y else "")
        av, bv = (x["v"] if x else None), (y["v"] if y else None)
        facts.append({"key": k, "label": (x or y)["label"], "a": tx, "b": ty, "av": av, "bv": bv,
                      "delta": delta(av, bv), "differs": tx != ty})
    sa = {s["key"]: s for s in a["services"]}
    sb = {s["key"]: s for s in b["services"]}
    services = []
    for k in list(sa) + [k for k in sb if k not in sa]:
        x, y = sa.get(k), sb.get(k)
        base = x or y
        cells = []
        for c, label in COLS:
            vx, vy = (x[c] if x else None), (y[c] if y else None)
            tx, ty = (vx["t"] if vx else ""), (vy["t"] if vy else "")
            av, bv = (vx["v"] if vx else None), (vy["v"] if vy else None)
            cells.append({"key": c, "label": label, "a": tx if x else None, "b": ty if y else None, "av": av, "bv": bv,
                          "delta": delta(av, bv), "differs": tx != ty})
        services.append({"key": k, "service": base["service"], "container": base["container"], "cells": cells,
                         "differs": any(c["differs"] for c in cells)})
    return facts, services


def summary(facts: list[dict], services: list[dict]) -> str:
    """The sentence above the tables: how many fields and service rows differ (compare.js writes the same)."""
    nf, ns = sum(f["differs"] for f in facts), sum(s["differs"] for s in services)
    out = f"{nf} of {len(facts)} scenario fields differ"
    if services:
        out += f"; {ns} of {len(services)} service rows differ"
    return out + "."


ONLY_A = '<span class="atlas-only">not in A</span>'
ONLY_B = '<span class="atlas-only">not in B</span>'


def _delta_html(dl: str) -> str:
    return f' <span class="atlas-delta">({esc(dl)})</span>' if dl else ""


# The markup below is mirrored by docs/assets/js/compare.js (render()); tests/test_js_agrees.py (Node, every pair) and
# tests/test_compare_agrees.py (the browser) prove the two agree.
def render_pair(a: dict, b: dict, prefix: str = "../../") -> str:
    """The comparison of two ``scenario_data`` dicts as HTML: a sentence counting the differences, a facts table and
    a per-service table, cells that differ marked, deltas (B - A) beside B, rows without a difference marked
    ``atlas-same`` (hidden by the page's 'Differences only' switch). The sentence and the tables carry
    ``data-search-exclude`` (Material's search leaves them out of its index; the headings stay). ``prefix``: from the
    compare page back to the site root."""
    def head(x):
        """Column heading: the scenario's title linking to its page."""
        return f'<a href="{esc(prefix + x["url"])}">{esc(x["title"])}</a>'

    def same(row):
        return "" if row["differs"] else ' class="atlas-same"'

    facts, services = pair_rows(a, b)
    out = [f'<p class="atlas-compare-summary" data-search-exclude>{esc(summary(facts, services))}</p>',
           '<h2 id="atlas-compare-facts">Scenarios</h2>',
           '<div class="atlas-table-wrap" data-search-exclude><table class="atlas-data atlas-compare" data-atlas-table="compare-facts"><thead><tr>'
           f'<th scope="col">Field</th><th scope="col" data-compare-side="a">A: {head(a)}</th><th scope="col" data-compare-side="b">B: {head(b)}</th></tr></thead><tbody>']
    for f in facts:
        diff = ' class="atlas-diff"' if f["differs"] else ""
        out.append(f'<tr data-key="{esc(f["key"])}"{same(f)}><th scope="row">{esc(f["label"])}</th><td{diff}>{esc(f["a"])}</td>'
                   f'<td{diff}>{esc(f["b"])}{_delta_html(f["delta"])}</td></tr>')
    out.append("</tbody></table></div>")
    out.append('<h2 id="atlas-compare-services">Per service</h2>')
    if not services:
        out.append('<p class="atlas-missing">Neither scenario has per-service resource or utilization data.</p>')
        return "\n".join(out)
    out.append('<div class="atlas-table-wrap" data-search-exclude><table class="atlas-data atlas-compare" data-atlas-table="compare-services"><thead><tr>'
               '<th scope="col">Service</th><th scope="col">Container</th>'
               + "".join(f'<th scope="col">{esc(h)}, A</th><th scope="col">{esc(h)}, B</th>' for _, h in COLS) + "</tr></thead><tbody>")
    for row in services:
        cells = []
        for c in row["cells"]:
            diff = ' class="atlas-diff"' if c["differs"] else ""
            cells.append(f'<td{diff}>{ONLY_A if c["a"] is None else esc(c["a"])}</td>'
                         f'<td{diff}>{ONLY_B if c["b"] is None else esc(c["b"])}{_delta_html(c["delta"])}</td>')
        out.append(f'<tr data-key="{esc(row["key"])}"{same(row)}><td>{esc(row["service"])}</td><td>{esc(row["container"])}</td>'
                   + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


EXPORT_COLUMNS = ["table", "field", "service", "container", "a", "b", "a_value", "b_value", "b_minus_a", "differs"]
"""The columns of a comparison's CSV and of each row of its JSON: one row per compared pair of cells shown."""


def export_rows(a: dict, b: dict, diff_only: bool = False) -> list[dict]:
    """The comparison of two ``scenario_data`` dicts as export rows (EXPORT_COLUMNS), one per pair of cells the page
    shows, in its order: the facts table ("scenarios": field = its label) then per service and column ("services":
    field = the column, service and container); "a" and "b" the texts shown ('not in A' for a service A lacks),
    "a_value"/"b_value" the numbers behind them (None when the value is not a number), "b_minus_a" the delta shown
    as a number (None when none is shown), "differs" whether the page marks the cells. ``diff_only``: only the rows
    the page shows with 'Differences only' on (a service row's four pairs when any differs)."""
    facts, services = pair_rows(a, b)
    out = []
    for f in facts:
        if diff_only and not f["differs"]:
            continue
        out.append({"table": "scenarios", "field": f["label"], "service": "", "container": "", "a": f["a"], "b": f["b"],
                    "a_value": f["av"], "b_value": f["bv"],
                    "b_minus_a": float(plain_delta(f["delta"])) if f["delta"] else None, "differs": f["differs"]})
    for s in services:
        if diff_only and not s["differs"]:
            continue
        for c in s["cells"]:
            out.append({"table": "services", "field": c["label"], "service": s["service"], "container": s["container"],
                        "a": "not in A" if c["a"] is None else c["a"], "b": "not in B" if c["b"] is None else c["b"],
                        "a_value": c["av"], "b_value": c["bv"],
                        "b_minus_a": float(plain_delta(c["delta"])) if c["delta"] else None, "differs": c["differs"]})
    return out


def export_name(a: dict, b: dict, diff_only: bool, ext: str) -> str:
    """The file name of a comparison's export: compare-<A id>-vs-<B id>[-differences].<ext>."""
    return f'compare-{a["id"]}-vs-{b["id"]}{"-differences" if diff_only else ""}.{ext}'


def export_csv(a: dict, b: dict, diff_only: bool = False) -> str:
    """``export_rows`` as CSV text (header EXPORT_COLUMNS; numbers as JavaScript writes them, the delta without sign
    or separators, differs as yes/no; formula-like text made inert, calculators.formatting.csv_writer)."""
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(EXPORT_COLUMNS)
    for row in export_rows(a, b, diff_only):
        w.writerow([row["table"], row["field"], row["service"], row["container"], row["a"], row["b"],
                    js_number(row["a_value"]), js_number(row["b_value"]), js_number(row["b_minus_a"]),
                    "yes" if row["differs"] else "no"])
    return buf.getvalue()


def export_json(a: dict, b: dict, diff_only: bool = False) -> str:
    """``export_rows`` as JSON text: ``{"a": {"id", "title", "url"}, "b": {...}, "differences_only", "columns",
    "rows"}`` (numbers as numbers, None as null)."""
    side = lambda x: {"id": x["id"], "title": x["title"], "url": x["url"]}  # noqa: E731
    return json.dumps({"a": side(a), "b": side(b), "differences_only": diff_only, "columns": EXPORT_COLUMNS,
                       "rows": export_rows(a, b, diff_only)}, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


EXPORT_DIR = "assets/data/compare/export"
"""Where the default pair's exports are written (the links the page has without JavaScript)."""


def _export_links(a: dict, b: dict, prefix: str) -> str:
    """The prerendered export links: the default pair's files, all rows and differences only (the page's CSS shows
    the set the switch asks for; compare.js replaces both with links to what it shows)."""
    def links(diff_only):
        cls = "atlas-export-diff" if diff_only else "atlas-export-all"
        return f'<span class="{cls}">' + " · ".join(
            f'<a href="{esc(prefix + EXPORT_DIR + "/" + export_name(a, b, diff_only, ext))}" download>{label}</a>'
            for ext, label in (("csv", "CSV"), ("json", "JSON"))) + "</span>"
    return links(False) + links(True)


def _options(renderer, selected: str) -> str:
    out = []
    for doc in renderer.atlas.docs():
        src = renderer.atlas.source(doc)
        out.append(f'<optgroup label="{esc(src["short_name"])}">')
        for s in renderer.atlas.scenarios:
            if s["doc"] != doc:
                continue
            sel = " selected" if s["id"] == selected else ""
            out.append(f'<option value="{esc(s["id"])}"{sel}>{esc(src["short_name"])} {esc(s["section"])}: {esc(s.get("short_title") or s["title"])}</option>')
        out.append("</optgroup>")
    return "".join(out)


def _default_pair(renderer) -> tuple[str, str]:
    ids = [s["id"] for s in renderer.atlas.scenarios]
    first = tuple(renderer.bundle.get("examples", {}).get("compare") or ())  # a guide module's example pair
    return first if first and all(x in ids for x in first) else (ids[0], ids[min(1, len(ids) - 1)])


def compare_page(renderer) -> str:
    """The compare page body (``{{ compare_page() }}``): the two scenario choices, the 'Differences only' switch, the
    export links and the default pair prerendered. The choices, status and tables are kept out of the search index
    (``data-search-exclude``, Material's): the page's own text is what search finds."""
    a, b = _default_pair(renderer)
    da, db = scenario_data(renderer, a), scenario_data(renderer, b)
    return f"""
<div id="atlas-compare" class="atlas-compare-root" data-default-a="{esc(a)}" data-default-b="{esc(b)}">
<form class="atlas-compare-form" method="get" action="./" data-search-exclude>
  <label>Scenario A <select name="a" id="compare-a">{_options(renderer, a)}</select></label>
  <label>Scenario B <select name="b" id="compare-b">{_options(renderer, b)}</select></label>
  <label class="atlas-compare-switch"><span><input type="checkbox" name="diff" value="1" id="compare-diff-only"> Differences only</span></label>
  <button type="submit" class="md-button md-button--primary" id="compare-run">Compare</button>
</form>
<p id="atlas-compare-status" class="atlas-status" role="status" aria-live="polite" data-search-exclude>Showing {esc(a)} against {esc(b)}, rendered when the site was built. Choosing other scenarios needs JavaScript (no Python is loaded on this page).</p>
<p class="atlas-compare-legend" data-search-exclude><span class="atlas-swatch"></span> highlighted cells differ; (+n) is B minus A. <a id="compare-permalink" href="?a={esc(a)}&amp;b={esc(b)}">Permalink</a> · Download this comparison: <span id="compare-export">{_export_links(da, db, "../../")}</span></p>
<div id="atlas-compare-result" data-a="{esc(a)}" data-b="{esc(b)}" data-prerendered="true">
{render_pair(da, db)}
</div>
</div>
"""


def write_data(renderer, docs_dir: Path) -> None:
    """Write one JSON per scenario (``scenario_data``) to ``docs_dir``/assets/data/compare/<id>.json, which
    compare.js fetches, and the default pair's exports (CSV and JSON, all rows and differences only) to
    ``docs_dir``/EXPORT_DIR, which the page links without JavaScript. Raises OSError if a file cannot be written."""
    out = Path(docs_dir) / "assets" / "data" / "compare"
    out.mkdir(parents=True, exist_ok=True)
    for s in renderer.atlas.scenarios:
        (out / f'{s["id"]}.json').write_text(json.dumps(scenario_data(renderer, s["id"]), separators=(",", ":"), allow_nan=False), encoding="utf-8")
    a, b = (scenario_data(renderer, x) for x in _default_pair(renderer))
    ex = Path(docs_dir) / EXPORT_DIR
    ex.mkdir(parents=True, exist_ok=True)
    for diff_only in (False, True):
        (ex / export_name(a, b, diff_only, "csv")).write_text(export_csv(a, b, diff_only), encoding="utf-8", newline="")
        (ex / export_name(a, b, diff_only, "json")).write_text(export_json(a, b, diff_only), encoding="utf-8")
