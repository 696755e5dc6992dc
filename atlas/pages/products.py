"""Product, scenario and infrastructure-rules pages, rendered from the validated data (build time,
pandas), with every table and its citation.

``Renderer`` holds one Atlas and its calculator bundle for a build; every page module renders with it
(``r``), and it computes each scenario's footprint at its own load once (``baseline``), which the product
table, the home chart and the compare page share. Every text from data/ goes through ``esc``/``md_esc``
(atlas.html), so data can never become markup.
"""
from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd

from calculators import footprint, overtarget, sidecars
from calculators.dsr import _reader_note as reader_note  # the one rule for a curated note's seed-line reference
from calculators.scenario import benchmark_load, traffic_sites
from calculators.formatting import fmt

from ..bundle import build as build_bundle
from ..datastore import KIND_LABEL, Atlas
from ..html import anchor, esc, json_for_html, md_esc, num, partial_mark
from .. import guides
from . import services
from .data import table_download_links, view_links
from .home import ASM_LABEL
from .views import LOAD_BUCKETS, facet_bar, load_bucket, row_attrs

NOT_STATED = "not stated in the guide"
"""How every page reads a value the guide does not give (release, load, sites)."""

TARGET_MARK = "HPA CPU target"
OVER_MARK = "At or over the target (outlined)"
OVER_COLOR = "#c62828"
AGAINST_TARGET = {"over": "at or over the target", "near": "within 10 % below the target", None: "below the target"}
"""Where a bar stands against its HPA target (``calculators.overtarget.classify``), as the scenario chart's tooltip
says it."""


def release_of(s: dict, src: dict) -> str | None:
    """The release scenario ``s`` runs: its ``release``, else the version its software table gives the product
    itself (``software[<short_name>]``, e.g. Policy 25.1.200), else None (the guide names none)."""
    return s.get("release") or (s.get("software") or {}).get(src["short_name"])


def disputed(s: dict, field: str) -> bool:
    """True when scenario ``s`` records a contradiction of the source on ``field`` (e.g. ``sites_provisioned``)."""
    return any(c.get("field") == field for c in s.get("contradictions") or [])


def sites_text(s: dict) -> tuple[str, str]:
    """(sites provisioned, sites carrying traffic) of scenario ``s`` as text: the number and the site names, or
    why there is none ("disputed in the guide", NOT_STATED)."""
    prov = s.get("sites_provisioned")
    prov = (str(prov) if prov is not None else
            "disputed in the guide" if disputed(s, "sites_provisioned") else NOT_STATED)
    traffic = ", ".join(s.get("sites_with_traffic") or []) or NOT_STATED
    return prov, traffic


def cited_where(cite: dict) -> str:
    """Where a scenario fact is stated, for readers: the table and row of a table cite ("Table 3-241, row 'SM
    Service(MPS)'"), or "title" / "prose" with the words quoted."""
    if cite.get("table_id"):
        return cite["where"]
    return f'{cite["where"]}: “{cite["text"]}”'


def call_model_text(s: dict) -> str | None:
    """The scenario page's call-model fact: "PCF SM (Table 3-241, row 'SM Service(MPS)')", with the curator's note;
    NOT_STATED where the guide names none; None where the document does not curate call models."""
    if "call_model" not in s:
        return None
    cm = s["call_model"]
    if cm is None:
        return NOT_STATED
    return f'{cm["name"]} ({cited_where(cm["cite"])})' + (f' — {cm["note"]}' if cm.get("note") else "")


def replication_text(s: dict) -> str | None:
    """The replication setup as the scenario's prose prints it, quoted; "not stated in the prose" where the record
    has none; None where the document does not curate it."""
    if "replication" not in s:
        return None
    rep = s["replication"]
    return f'“{rep["raw"]}” (prose)' if rep else "not stated in the prose"


def missing(text: str) -> str:
    """``text`` (why a value is absent) marked as such in a table cell."""
    return f'<span class="atlas-missing">{esc(text)}</span>'


def sites_cell(s: dict) -> str:
    """The product table's "Sites (provisioned / with traffic)" cell of scenario ``s``: two counts, an absent one
    named as such."""
    prov = s.get("sites_provisioned")
    n = len(s.get("sites_with_traffic") or [])
    return (esc(prov) if prov is not None else missing("disputed in the guide" if disputed(s, "sites_provisioned") else NOT_STATED)) \
        + " / " + (esc(n) if n else missing(NOT_STATED))



class Renderer:
    """Page fragments for one Atlas; ``bundle`` is built once and reused."""

    def __init__(self, atlas: Atlas):
        self.atlas = atlas
        self.bundle = build_bundle(atlas)
        self._baselines: dict[str, dict | None] = {}
        self._sidecars: dict[str, dict] = {}
        self._tables: dict[tuple, str] = {}
        self.files: dict[str, bytes] = {}
        """Files a page asks to be written beside it (path in the docs tree -> bytes), e.g. the prerendered
        result's XLSX report; ``generate.write`` writes them after the pages."""

    # ------------------------------------------------------------ helpers
    def scenario_url(self, sid: str, frm: str = "product") -> str:
        """The link to scenario ``sid`` from its product page (``frm="product"``) or from a page two folders deep."""
        s = self.atlas.scenario(sid)
        return f"{sid}/" if frm == "product" else f"../../products/{s['doc']}/{sid}/"

    def baseline(self, sid: str) -> dict | None:
        """Totals of the scenario as printed (per site, requests), or None without resource data.
        Computed once per scenario and build (product, home and scenario pages all ask)."""
        if sid not in self._baselines:
            self._baselines[sid] = self._baseline(sid)
        return self._baselines[sid]

    def _baseline(self, sid: str) -> dict | None:
        s = next(x for x in self.bundle["scenarios"] if x["id"] == sid)
        if not s.get("load_per_site") or not any(r["scenario"] == sid for r in self.bundle["resources"]):
            return None
        return footprint.compute(self.bundle, sid, benchmark_load(s))

    def scale_query(self, sid: str) -> str:
        """The footprint calculator's query for scenario ``sid`` at its own benchmark: ``scenario``, ``load`` (the
        benchmark's total, ``calculators.scenario.benchmark_load``, in the scenario's unit) and ``sites`` (sites
        carrying traffic), so the link opens at a scale factor of 1. Raises StopIteration for an unknown scenario."""
        s = next(x for x in self.bundle["scenarios"] if x["id"] == sid)
        q = {"scenario": sid}
        load = benchmark_load(s)
        if load is not None:
            q["load"] = str(int(load)) if float(load).is_integer() else repr(float(load))  # never rounded (":g" keeps 6 digits)
        q["sites"] = str(traffic_sites(s))
        return urlencode(q)

    def sidecars(self, sid: str) -> dict:
        """The sidecars' requested CPU and memory at one site carrying traffic of ``sid``
        (``calculators.sidecars.sidecar_requests``: the ASM page's and the footprint's count, a replica range at its
        max end), computed once per scenario and build. Raises ValueError for an unknown scenario."""
        if sid not in self._sidecars:
            self._sidecars[sid] = sidecars.sidecar_requests(self.bundle, sid)
        return self._sidecars[sid]

    def completeness(self, sid: str) -> dict:
        """What a footprint of ``sid`` cannot size (``calculators.footprint.completeness``): ``{"partial",
        "missing": [...]}``. A partial scenario's totals and cores per 1K are lower bounds ("at least")."""
        return footprint.completeness(self.bundle, sid)

    def missing_note(self, sid: str) -> str:
        """One line naming what a partial scenario's totals leave out (service, table, row, errata), or ''."""
        c = self.completeness(sid)
        if not c["partial"]:
            return ""
        parts = []
        for m in c["missing"]:
            where = f'Table {m["table_id"]} row {m["row"]}' if m.get("table_id") else ""
            errs = ", ".join(m.get("errata") or [])
            parts.append(f'{m["service"]} / {m["container"]}' + (f" ({where}" + (f", {errs}" if errs else "") + ")" if where else "")
                         + (f": {m['reason']}" if not where else ""))
        return "; ".join(parts)

    def efficiency(self, sid: str) -> float | None:
        """CPU cores requested per 1K of load at one traffic site, or None."""
        b = self.baseline(sid)
        if not b:
            return None
        return b["totals"]["site"]["before"]["cpu_request"] / b["baseline"]["load_per_site"] * 1000

    # ------------------------------------------------------------ product page
    def product_page(self, doc: str) -> str:
        """The product page of ``doc``: description, source, the scenarios table (totals, cores per 1K, partial marks),
        tables outside the scenarios and errata. Raises KeyError for an unknown document."""
        src = self.atlas.source(doc)
        scen = [s for s in self.atlas.scenarios if s["doc"] == doc]
        out = [f"# {md_esc(src['product'])}", "", esc(src.get("description", "")), ""]
        out.append(f'<p class="atlas-cite">Source: <em>{esc(src["title"])}</em>, {esc(src["publisher"])}, release {esc(src["release"])}'
                   + (f', {esc(src["document_id"])}' if src.get("document_id") else "") + (f', {esc(src["date"])}' if src.get("date") else "") + ".</p>")
        out.append("")
        out.append("## Scenarios")
        out.append("")
        out.append(self.scenarios_table(doc))
        out.append(view_links(self, ("views", doc, "scenarios"), "../../"))
        if not guides.hook(doc, "scenarios_table"):
            out += self.requests_notes(doc, src, scen)
        listed = {tid for x in scen for tid in x["tables"]}
        loose = [t for t in self.atlas.tables if t["doc"] == doc and t["id"] not in listed]
        if loose:
            out += ["", "## Tables outside the scenarios", "",
                    '<p class="atlas-note">Tables of the guide that belong to no single scenario (front matter, shared '
                    'parameters, alarm and configuration tables of sections with several runs).</p>', ""]
            out += [self.table_section(doc, t["id"], root="../../") for t in loose]
        doc_errata = [e for e in self.atlas.errata if e["doc"] == doc and not e.get("scenario") and not e.get("table_id")]
        if doc_errata:
            out += ["", "## Errata outside the scenarios", "", self.errata_list(doc_errata)]
        guidance = self.atlas.extras.get(doc, {}).get("guidance")
        if guidance:
            out += ["", f'See also the [{esc(src["short_name"])} infrastructure rules](guidance/).']
        return "\n".join(out)

    def requests_notes(self, doc: str, src: dict, scen: list[dict]) -> list[str]:
        """What follows the scenarios table of a product measured by resource requests: how its totals are computed,
        and the partial-totals warning naming what each partial scenario leaves out, as page lines."""
        unit = src["load_unit"]
        out: list[str] = []
        out.append("")
        ranged = [s for s in scen if self.baseline(s["id"]) and self.sidecars(s["id"])["ranges"]]
        out.append(f'<p class="atlas-note">CPU and memory are the sums of replicas x per-pod request over the scenario\'s '
                   f'resource-allocation tables for one site carrying traffic; cores per 1K {esc(unit)} divide that CPU by the '
                   f'load per site. Computed from the curated data, not printed in the guide.'
                   + (' A replica count printed as a min-max range counts at its max end, the most pods the benchmark\'s '
                      'autoscaler could run at its load, as in the footprint and ASM calculators: '
                      + "; ".join(f'<a href="{esc(s["id"])}/">{esc(s.get("short_title") or s["title"])}</a> '
                                  f'({esc(sidecars.ranges_rows(self.sidecars(s["id"]), sidecars_only=False))})' for s in ranged)
                      if ranged else "") + '</p>')
        partial_rows = [s for s in scen if self.baseline(s["id"]) and self.completeness(s["id"])["partial"]]
        if partial_rows:
            out.append('<div class="admonition warning atlas-partial"><p class="admonition-title">Partial totals (at least)</p><ul>'
                       + "".join(f'<li><a href="{esc(s["id"])}/">{esc(s.get("short_title") or s["title"])}</a>: the totals leave out '
                                 f'{esc(self.missing_note(s["id"]))}.</li>' for s in partial_rows)
                       + '</ul><p>Figures marked ≥ are lower bounds: rows the source does not give usably are named, not counted as 0.</p></div>')
        return out

    def scenarios_table(self, doc: str) -> str:
        """The scenarios table of product page ``doc`` (totals, cores per 1K, partial marks), each row with its facets
        (mode, ASM, load range; ``views.facet_bar`` above the table). Raises KeyError for an unknown document."""
        own = guides.hook(doc, "scenarios_table")  # a guide measured by its own metrics (its guide module)
        if own:
            return own(self, doc)
        src = self.atlas.source(doc)
        scen = [s for s in self.atlas.scenarios if s["doc"] == doc]
        unit = src["load_unit"]
        out = []
        facets = [{"mode": s.get("deployment_mode") or "not stated", "asm": ASM_LABEL.get(s["asm"], s["asm"]),
                   "load": load_bucket(s["load"].get("per_site"))} for s in scen]
        out.append(facet_bar("scenarios", [("mode", "Mode"), ("asm", "ASM"), ("load", "Load per site")], facets,
                             {"load": [b for _, b in LOAD_BUCKETS] + ["not stated"]}))
        out.append('<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="scenarios"><thead><tr>'
                   "<th>Section</th><th>Scenario</th><th>Mode</th><th>Load per site</th>"
                   f"<th>CPU cores per 1K {esc(unit)}</th><th>Sites (provisioned / with traffic)</th>"
                   "<th>ASM</th><th>Release</th><th>CPU request, application (cores)</th><th>CPU request, sidecars (cores)</th>"
                   "<th>CPU request, cnDBTier (cores)</th><th>Memory request, all (GiB)</th></tr></thead><tbody>")
        for s, fac in zip(scen, facets):
            b = self.baseline(s["id"])
            g = b["totals"]["groups"] if b else None
            load = s["load"]
            least = partial_mark(self.completeness(s["id"])["partial"]) if b else ""
            # cores per 1K beside the load (the column readers compare), the totals it comes from after
            per1k = f'<td>{least}{num(self.efficiency(s["id"]))}</td>' if b else '<td class="atlas-missing">no resource data</td>'
            out.append(
                f'<tr{row_attrs(fac)}><td>{esc(s["section"])}</td><td class="atlas-minw-8"><a href="{esc(s["id"])}/">{esc(s.get("short_title") or s["title"])}</a></td>'
                f'<td>{esc(s.get("deployment_mode"))}</td>'
                f'<td>{num(load.get("per_site")) + " " + esc(load["unit"]) if load.get("per_site") is not None else missing(NOT_STATED)}</td>'
                + per1k +
                f'<td>{sites_cell(s)}</td>'
                f'<td>{esc(ASM_LABEL.get(s["asm"], s["asm"]))}</td><td>{esc(release_of(s, src)) or missing(NOT_STATED)}</td>'
                + (f"<td>{least}{num(g['application']['before']['cpu_request'])}</td>" + self.sidecar_cell(s["id"])
                   + f"<td>{least}{num(g['cnDBTier']['before']['cpu_request'])}</td>"
                   + f'<td>{least}{num(b["totals"]["site"]["before"]["mem_request"])}</td>'
                   if b else '<td colspan="4" class="atlas-missing">no resource data in the source</td>')
                + "</tr>")
        out.append("</tbody></table></div>")
        return "\n".join(out)

    def sidecar_cell(self, sid: str) -> str:
        """The product table's "CPU request, sidecars (cores)" cell of ``sid``: the sidecars' requested cores at one site
        carrying traffic (``sidecars``), marked "at least" when a sidecar row could not be counted, and "not printed"
        for an ASM scenario whose tables print no sidecar (unknown, not 0)."""
        sc = self.sidecars(sid)
        if sc["sidecars_unknown"]:
            return '<td><span class="atlas-missing">not printed</span></td>'
        return f"<td>{partial_mark(sc['sidecars_partial'])}{num(sc['cpu_sidecar'])}</td>"

    # ------------------------------------------------------------ scenario page
    def scenario_page(self, sid: str) -> str:
        """The scenario page of ``sid``: facts, contradictions, errata, partial warning, observed-CPU chart and every
        table of the scenario with its citation and download. Raises KeyError for an unknown scenario."""
        s = self.atlas.scenario(sid)
        src = self.atlas.source(s["doc"])
        out = [f"# {md_esc(s.get('short_title') or s['title'])}", ""]
        out.append(f'<p class="atlas-cite">{esc(src["short_name"])} guide, section {esc(s["section"])}: '
                   f'<q>{esc(s["title"])}</q>. Source: <em>{esc(src["title"])}</em>, release {esc(src["release"])}.</p>')
        out.append("")
        out.append(self.facts(s))
        if s.get("contradictions"):
            out.append('<div class="admonition warning"><p class="admonition-title">The source contradicts itself</p><ul>')
            for c in s["contradictions"]:
                # where each version stands (a table and row, the title, the prose): its seed line is provenance, in the
                # scenarios download (contradictions_json), not reader text
                vs = "; ".join(f'{esc(v.get("where") or "")}: <q>{esc(v["text"])}</q>' for v in c["versions"])
                out.append(f'<li><strong>{esc(c["field"])}</strong>: {esc(c.get("summary", ""))} {vs}</li>')
            out.append("</ul></div>")
        loose_errata = [e for e in self.atlas.errata if e.get("scenario") == sid and not e.get("table_id")]
        if loose_errata:
            out.append('<details class="warning atlas-errata"><summary>Errata for this scenario outside its tables ('
                       + str(len(loose_errata)) + ")</summary>" + self.errata_list(loose_errata) + "</details>")
        b = self.baseline(sid)
        if b and self.completeness(sid)["partial"]:
            out.append('<div class="admonition warning atlas-partial"><p class="admonition-title">Partial footprint (at least)</p>'
                       f'<p>Totals computed from this scenario are lower bounds: they leave out {esc(self.missing_note(sid))}.</p></div>')
        if b:
            out.append("")
            out.append(f'<p><a class="md-button" id="atlas-scale-link" href="../../../calculators/footprint/?{esc(self.scale_query(sid))}">'
                       'Scale this footprint in the calculator</a></p>')
        elif own_calculator := guides.hook(s["doc"], "calculator_button", lambda renderer, x: "")(self, sid):
            out += ["", own_calculator]  # a guide measured by its own metrics links its calculator
        chart = self.utilization_chart(sid)
        if chart:
            out += ["", "## Observed CPU per service", "",
                    f'<div class="atlas-chart" data-chart-id="util-{esc(sid)}"></div>',
                    f'<script type="application/json" id="util-{esc(sid)}">{json_for_html(chart)}</script>',
                    '<p class="atlas-note">Observed CPU at the sites carrying traffic, as printed in the utilization tables '
                    '(percent of request or limit as each table states; flagged cells left out). The tables below hold every value.</p>']
        out += ["", "## Tables", ""]
        for tid in s["tables"]:
            out.append(self.table_section(s["doc"], tid, root="../../../"))
        return "\n".join(out)

    def facts(self, s: dict) -> str:
        """The facts table of scenario record ``s`` (section, mode, release, load, sites, ASM, duration, call model, call
        mix, replication, ...)."""
        src = self.atlas.source(s["doc"])
        rows = [("Document section", s["section"]), ("Deployment mode", s.get("deployment_mode")),
                ("Release", release_of(s, src) or NOT_STATED)]
        load = s["load"]
        rows.append(("Load", f'{fmt(load["total"]) + " " + load["unit"] if load.get("total") is not None else NOT_STATED} in total; '
                     f'{fmt(load["per_site"]) + " " + load["unit"] if load.get("per_site") is not None else NOT_STATED} per site carrying traffic'
                     f' (printed: “{load["raw"]}”)'))
        prov, traffic = sites_text(s)
        rows.append(("Sites provisioned", prov))
        rows.append(("Sites carrying traffic", traffic))
        asm = ASM_LABEL.get(s["asm"], s["asm"])
        rows.append(("ASM (service mesh)", asm + (f' — {s["asm_note"]}' if s.get("asm_note") else "")))
        if s.get("duration"):
            rows.append(("Duration", s["duration"].get("raw")))
        rows.append(("Call model", call_model_text(s)))
        if s.get("call_mix"):
            rows.append(("Call mix", s["call_mix"].get("raw")))
            if s["call_mix"].get("traffic_ratio"):
                rows.append(("Traffic ratio", s["call_mix"]["traffic_ratio"]))
        rows.append(("Replication", replication_text(s)))
        if s.get("subscribers"):
            rows.append((s["subscribers"].get("label") or "Subscribers", s["subscribers"].get("raw")))
        if s.get("software"):
            rows.append(("Software", ", ".join(f"{k} {v}" for k, v in s["software"].items())))
        if s.get("hardware"):
            rows.append(("Hardware", ", ".join(f"{k}: {v}" for k, v in s["hardware"].items())))
        for n in s.get("notes") or []:
            rows.append(("Note", reader_note(n, s.get("section"))))  # "printed in the prose of section 3.2.1", no seed line
        return ('<table class="atlas-facts"><tbody>' + "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows if v is not None)
                + "</tbody></table>")

    def utilization_chart(self, sid: str) -> dict | None:
        """Vega-Lite spec of observed CPU per service at the traffic sites (at most 40 bars), or None without usable CPU
        rows. Each bar's HPA target is a tick; a bar at or over its target (``calculators.overtarget.classify``:
        observed >= target) is outlined in red with a marker at its end; both are named in the "Marks" legend and the
        tooltip says where each bar stands against its target. With several traffic sites each bar names its site."""
        s = self.atlas.scenario(sid)
        u = self.atlas.rows("utilization", scenario=sid, metric="cpu")
        u = u[u["status"].isin(["ok", "corrected"]) & u["site"].isin(s.get("sites_with_traffic") or [])]
        u = u[u["observed_percent"].notna()]
        if u.empty:
            return None
        values = []
        for r in u.itertuples():
            target = None if pd.isna(r.target_percent) else float(r.target_percent)
            state = overtarget.classify(r.observed_percent, target) if target else None
            values.append({
                "service": r.service + (" (sidecar)" if r.container == "istio-proxy" else "") + ("" if r.container in ("app", "istio-proxy") else f" / {r.container}"),
                "percent": float(r.observed_percent), "site": r.site, "component": r.component, "table": r.table_id,
                "target": target, "over": state == "over",
                "against": ("no target printed" if target is None else AGAINST_TARGET[state])})
        values.sort(key=lambda v: -v["percent"])
        values = values[:40]
        # one bar per label: with several traffic sites (or tables) a service has several rows, which must not stack
        for extra in ("site", "table"):
            seen: dict[str, int] = {}
            for v in values:
                seen[v["service"]] = seen.get(v["service"], 0) + 1
            for v in values:
                if seen[v["service"]] > 1:
                    v["service"] += f' ({v["site"]})' if extra == "site" else f' [Table {v["table"]}]'
        y = {"field": "service", "type": "nominal", "sort": None, "title": None}
        return {
            "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
            "description": f"Observed CPU per service, scenario {sid}, with each service's HPA CPU target; "
                           f"bars at or over their target are outlined and marked.",
            "width": "container", "height": {"step": 14},
            "data": {"values": values},
            "layer": [
                {"mark": {"type": "bar", "tooltip": True},
                 "encoding": {"y": y,
                              "x": {"field": "percent", "type": "quantitative", "title": "Observed CPU (%)"},
                              "color": {"field": "component", "type": "nominal", "title": "Component", "legend": {"orient": "bottom"}},
                              "stroke": {"condition": {"test": "datum.over", "value": OVER_COLOR}, "value": None},
                              "strokeWidth": {"condition": {"test": "datum.over", "value": 2}, "value": 0},
                              "tooltip": [{"field": "service", "title": "Service"}, {"field": "site", "title": "Site"},
                                          {"field": "percent", "title": "CPU %"}, {"field": "target", "title": "HPA target %"},
                                          {"field": "against", "title": "Against the target"}, {"field": "table", "title": "Table"}]}},
                {"transform": [{"filter": {"field": "target", "valid": True}}],
                 "mark": {"type": "point", "color": "black", "filled": False, "strokeWidth": 2, "size": 150},
                 "encoding": {"y": y, "x": {"field": "target", "type": "quantitative"},
                              "shape": {"datum": TARGET_MARK, "type": "nominal", "title": None,
                                        "scale": {"domain": [TARGET_MARK], "range": ["M0,-1L0,1"]},
                                        "legend": {"orient": "bottom", "symbolStrokeWidth": 2}}}},
                {"transform": [{"filter": {"field": "over", "equal": True}}],
                 "mark": {"type": "point", "shape": "triangle-left", "filled": True, "size": 50, "xOffset": 7},
                 "encoding": {"y": y, "x": {"field": "percent", "type": "quantitative"},
                              "fill": {"datum": OVER_MARK, "type": "nominal", "title": None,
                                       "scale": {"domain": [OVER_MARK], "range": [OVER_COLOR]},
                                       "legend": {"orient": "bottom", "symbolType": "triangle-left", "symbolStrokeColor": OVER_COLOR,
                                                  "symbolStrokeWidth": 2}}}},
            ],
        }

    # ------------------------------------------------------------ tables
    def table_section(self, doc: str, tid: str, root: str | None = None) -> str:
        """One curated table as a page section: heading with its anchor, citation, note, errata, the table itself
        (resources as rows, other kinds pivoted) and its download links. With ``root`` (the relative path from the
        page to the site root, e.g. "../../../"), a resource table's service names link to their service pages."""
        t = self.atlas.table(doc, tid)
        src = self.atlas.source(doc)
        title = t.get("title") or t.get("caption") or tid
        label = f"Table {tid}" if not tid.startswith("U-") else f"Uncaptioned table ({tid})"
        out = [f"### {md_esc(label)}: {md_esc(title)} {{ #{anchor(tid)} }}", ""]
        cite = (f'<p class="atlas-cite">{esc(src["short_name"])} guide, section {esc(t.get("section") or "front matter")}, '
                f'{esc(label)}{" “" + esc(t["caption"]) + "”" if t.get("caption") else " (no caption in the source)"}, '
                f'seed lines {esc(t["lines"][0])}–{esc(t["lines"][1])}'
                f'{", " + esc(t["segments"]) + " parts merged" if t["segments"] > 1 else ""}. {esc(KIND_LABEL[t["kind"]])}.</p>')
        out.append(cite)
        if t.get("note"):
            out.append(f'<p class="atlas-note">{esc(t["note"])}</p>')
        errs = [e for e in self.atlas.errata if e["doc"] == doc and e.get("table_id") == tid]
        if errs:
            out.append('<details class="warning atlas-errata"><summary>Errata for this table (' + str(len(errs)) + ")</summary>"
                       + self.errata_list(errs) + "</details>")
        if t["kind"] == "excluded":
            out.append(f'<p class="atlas-missing">Not curated: {esc(t.get("excluded_reason", ""))}</p>')
        else:
            out.append(self.table_html(doc, tid, root))
        out.append(table_download_links(self, doc, t))
        out.append("")
        return "\n".join(out)

    def errata_list(self, errs: list[dict]) -> str:
        """Errata records as a list: id (the anchor other pages link to), kind, where, lines, what was printed, the
        problem, the action taken and the reading used."""
        items = []
        for e in errs:
            reading = f' Reading used: <q>{esc(e["reading"])}</q>.' if e.get("reading") not in (None, "") else ""
            items.append(f'<li id="{esc(e["id"])}"><strong>{esc(e["id"])}</strong> ({esc(e["kind"])}, {esc(e["where"])}'
                         + (f', lines {esc(", ".join(str(x) for x in e["lines"][:12]))}{"…" if len(e.get("lines") or []) > 12 else ""}' if e.get("lines") else "")
                         + f'): printed <code>{esc(e["raw"])}</code>. {esc(e["problem"])} '
                         f'<em>Action: {esc(e["action"])}.</em>{reading} {esc(e.get("reason", ""))}</li>')
        return '<ul class="atlas-errata-list">' + "".join(items) + "</ul>"

    def table_html(self, doc: str, tid: str, root: str | None = None) -> str:
        """Curated table ``tid`` of ``doc`` as its page renders it (``resources_table`` or ``pivot_table``), rendered
        once per build: the page and its "as shown" CSV (``atlas.pages.shown.shown_tables``) read the same HTML.
        ``root``: as ``resources_table``'s (service names link to their pages); with None, a table already rendered
        for a page is returned as it is (its cells' text is the same). Raises KeyError for an unknown table."""
        if root is None:
            for (d, t_id, _), html in self._tables.items():
                if (d, t_id) == (doc, tid):
                    return html
        key = (doc, tid, root)
        if key not in self._tables:
            t = self.atlas.table(doc, tid)
            self._tables[key] = self.resources_table(doc, tid, root) if t["kind"] == "resources" else self.pivot_table(doc, t)
        return self._tables[key]

    def resources_table(self, doc: str, tid: str, root: str | None = None) -> str:
        """Resource-allocation table ``tid`` of ``doc`` as HTML: each row as printed, normalised values (cores, GiB)
        with the raw text, flagged and corrected cells marked; with ``root`` (relative path to the site root) each
        service name links to its service page (atlas.pages.services)."""
        df = self.atlas.rows("resources", doc=doc, table_id=tid)
        cols = [("row_label", "Row as printed"), ("site", "Site"), ("service", "Service"), ("container", "Container"),
                ("replicas", "Replicas"), ("replicas_min", "Min replicas"), ("replicas_max", "Max replicas"),
                ("cpu_request_cores", "CPU request (cores)"), ("cpu_limit_cores", "CPU limit (cores)"), ("cpu_cores", "CPU (cores, request/limit not stated)"),
                ("mem_request_gib", "Memory request (GiB)"), ("mem_limit_gib", "Memory limit (GiB)"), ("mem_gib", "Memory (GiB, request/limit not stated)"),
                ("storage_gib", "Storage (GiB)"), ("status", "Status")]
        cols = [(k, h) for k, h in cols if k in ("row_label", "service", "container", "status") or df[k].replace("", pd.NA).notna().any()]
        raw_of = {"replicas": "raw_replicas", "cpu_request_cores": "raw_cpu_request", "cpu_limit_cores": "raw_cpu_limit", "cpu_cores": "raw_cpu",
                  "mem_request_gib": "raw_mem_request", "mem_limit_gib": "raw_mem_limit", "mem_gib": "raw_mem", "storage_gib": "raw_storage"}
        h = "".join(f"<th>{esc(x)}</th>" for _, x in cols)
        body = []
        notes: dict[str, int] = {}  # each row note once under the table, the Status cell names it by number
        for r in df.itertuples():
            cells = []
            for k, _ in cols:
                v = getattr(r, k)
                if k in raw_of:
                    raw = getattr(r, raw_of[k])
                    shown = num(v)
                    extra = f' <span class="atlas-raw" title="as printed">{esc(raw)}</span>' if raw and raw != shown and raw.replace(" ", "") != shown else ""
                    cells.append(f"<td>{shown}{extra}</td>")
                elif k == "status":
                    # a note may join several ("Istio sidecar columns of this row.; bsf-E046"): each part numbered once
                    ns = [notes.setdefault(part, len(notes) + 1) for part in dict.fromkeys(x.strip() for x in (r.note or "").split("; ")) if part]
                    cells.append(f'<td>{esc(v)}' + (f' {note_ref(tid, ns, r.note)}' if ns else "") + "</td>")
                elif k == "service" and root is not None and services.page_of(self, doc, v):
                    cells.append(f'<td><a href="{esc(root)}services/{esc(services.page_of(self, doc, v))}/">{esc(v)}</a></td>')
                else:
                    cells.append(f"<td>{esc(v)}</td>")
            body.append(f"<tr{status_class(r.status)}>" + "".join(cells) + "</tr>")
        return (f'<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="{esc(tid)}"><thead><tr>{h}</tr></thead>'
                f'<tbody>{"".join(body)}</tbody></table></div>' + note_list(tid, notes))

    def pivot_table(self, doc: str, t: dict) -> str:
        """A table in its printed shape: one line per source row, one column per printed column,
        cells as printed, marked where the data flags or corrects them."""
        # A table's cells may live in several kinds (numbers in measurements or latency, text in
        # settings): all of them together give the table as printed.
        parts = []
        for kind in ("measurements", "latency", "db_operations", "utilization", "settings"):
            part = self.atlas.rows(kind, doc=doc, table_id=t["id"])
            if len(part):
                part = part.assign(raw=part["value"]) if kind == "settings" else part
                part = part.assign(read=[read_value(kind, x) for x in part.itertuples()])
                parts.append(part[["row", "row_label", "column_label", "raw", "read", "status", "note"]])
        if not parts:
            return '<p class="atlas-missing">No rows.</p>'
        df = pd.concat(parts, ignore_index=True)
        header = t.get("header") or []
        first = header[0] if header else "Row"
        col_labels = list(dict.fromkeys(df["column_label"]))
        if header:
            order = {h: i for i, h in enumerate(header)}
            col_labels.sort(key=lambda c: order.get(c, len(order)))
        rows: dict[int, dict] = {}
        for r in df.itertuples():
            d = rows.setdefault(r.row, {"label": r.row_label, "cells": {}})
            d["cells"].setdefault(r.column_label, (r.raw, r.read, r.status, r.note))
        h = f"<th>{esc(first)}</th>" + "".join(f"<th>{esc(c)}</th>" for c in col_labels if c != first)
        body = []
        for _, d in sorted(rows.items()):
            cells = [f"<td>{esc(d['label'])}</td>"]
            for c in col_labels:
                if c == first:
                    continue
                v, read, st, note = d["cells"].get(c, ("", "", "", ""))
                mark = f' <span class="atlas-flag atlas-flag-{esc(st)}" title="{esc(st)} {esc(note)}">{"⚠" if st == "flagged" else "✎"}</span>' if st in ("flagged", "corrected") else ""
                # a cell read through an erratum shows the value read, with the text as printed beside it
                shown = (f'{esc(read)} <span class="atlas-raw" title="as printed">{esc(v)}</span>' if read and read != v else esc(v))
                cells.append(f"<td{status_class(st)}>{shown}{mark}</td>")
            body.append("<tr>" + "".join(cells) + "</tr>")
        return (f'<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="{esc(t["id"])}"><thead><tr>{h}</tr></thead>'
                f'<tbody>{"".join(body)}</tbody></table></div>')


PLAIN_STATUSES = frozenset({"ok", "not_applicable", ""})
"""Row and cell statuses the stylesheet leaves unmarked (atlas.css marks flagged and corrected): their rows carry
no class (the Status column says them), which was a tenth of a scenario page's HTML."""


def status_class(status: str) -> str:
    """`` class="atlas-status-<status>"`` for a status the page marks, empty for PLAIN_STATUSES."""
    return "" if status in PLAIN_STATUSES else f' class="atlas-status-{esc(status)}"'


def note_ref(tid: str, ns: list[int], note: str) -> str:
    """The mark in a Status cell naming row notes ``ns`` of table ``tid`` (each listed once under the table by
    ``note_list``), "[1]" or "[1, 3]", each number linking to its note; the title holds the row's whole note, so
    hovering tells it too."""
    links = ", ".join(f'<a href="#{esc(anchor(tid))}-note-{n}">{n}</a>' for n in ns)
    return f'<span class="atlas-note-ref" title="{esc(note)}">[{links}]</span>'


def note_list(tid: str, notes: dict[str, int]) -> str:
    """The row notes of table ``tid`` (note text -> number, in first-use order) as one list under it, '' for none."""
    if not notes:
        return ""
    return ('<ol class="atlas-table-notes" aria-label="Row notes">'
            + "".join(f'<li id="{esc(anchor(tid))}-note-{n}" value="{n}">{esc(note)}</li>' for note, n in notes.items()) + "</ol>")


def read_value(kind: str, row) -> str:
    """The value a corrected cell was read as (its erratum's reading), as text, or '' where the data keeps the text as
    printed: utilization cells give the absolute value and/or the percentage the curation read (``0.1 (2.5%)`` for
    the printed ``['0.100 (2.50%)']``), measurements their ``value``, latency its ``value_ms``. Only ``corrected`` cells get a reading."""
    if getattr(row, "status", "") != "corrected":
        return ""
    def ok(v):
        return v is not None and v is not pd.NA and not (isinstance(v, float) and v != v) and v != ""
    if kind == "utilization":
        pct = f"{fmt(float(row.observed_percent))}%" if ok(row.observed_percent) else ""
        if ok(row.observed_abs):
            return f"{fmt(float(row.observed_abs))}" + (f" ({pct})" if pct else "")
        return pct
    if kind == "measurements" and ok(row.value):
        return fmt(float(row.value))
    if kind == "latency" and ok(row.value_ms):
        return fmt(float(row.value_ms))
    return ""


TOPIC_TITLES = {
    "hyper-threading": "Hyper-Threading", "cpu-over-subscription": "CPU over-subscription", "cpu-capacity": "CPU capacity",
    "numa": "NUMA placement", "cpu-technology": "CPU technology", "vm-packing": "Packing VMs on servers",
    "infrastructure-tuning": "Infrastructure tuning", "kvm-device-drivers": "KVM device drivers", "kvm-bios": "KVM BIOS settings",
    "kvm-disk-format": "KVM disk image format", "kvm-caching": "KVM guest caching", "kvm-memory": "KVM memory",
    "da-mp-relay-tuning": "DA-MP relay tuning", "vstp-timers": "vSTP timers", "vstp-message-weights": "vSTP message weights",
    "dsa-comagent": "DSA ComAgent", "pdra-sbr-sizing": "PDRA SBR sizing", "planning-procedure": "Planning procedure",
}
"""Headings of the infrastructure-rules topics (guidance.yaml's ``topic`` slugs); a topic not listed reads as its
slug in words (``topic_title``)."""

ACRONYMS = {"cpu", "vm", "vms", "kvm", "bios", "numa", "da-mp", "dsa", "pdra", "sbr", "mps", "hpa", "asm", "jvm", "nic"}


def topic_title(topic: str) -> str:
    """The heading of guidance topic ``topic`` (a slug, e.g. ``kvm-bios``): TOPIC_TITLES, else its words with known
    acronyms in capitals and the first word capitalised (``kvm-huge-pages`` -> ``KVM huge pages``)."""
    if topic in TOPIC_TITLES:
        return TOPIC_TITLES[topic]
    words = [w.upper() if w in ACRONYMS else w for w in topic.split("-")]
    return " ".join(words)[:1].upper() + " ".join(words)[1:]


def guidance_page(renderer, doc: str) -> str:
    """Structured infrastructure rules (data/<doc>/guidance.yaml), each with its quote and the section it is printed in
    (its seed line stays in the data, as provenance)."""
    src = renderer.atlas.source(doc)
    rules = renderer.atlas.extras.get(doc, {}).get("guidance") or []
    out = [f"# {md_esc(src['short_name'])} infrastructure rules", "",
           f'<p class="atlas-cite">From <em>{esc(src["title"])}</em>. Each rule quotes the guide.</p>', ""]
    topics: dict[str, list] = {}
    for rule in rules:
        topics.setdefault(rule.get("topic") or "General", []).append(rule)
    for topic, items in topics.items():
        out += [f"## {md_esc(topic_title(topic))} {{ #{topic} }}", ""]
        out.append('<table class="atlas-data"><thead><tr><th>Setting</th><th>Why</th><th>As printed</th></tr></thead><tbody>')
        for rule in items:
            cite = rule.get("cite") or {}
            out.append(f'<tr id="{esc(rule.get("id", ""))}"><td>{esc(rule.get("setting"))}</td><td>{esc(rule.get("rationale"))}</td>'
                       f'<td><q>{esc(cite.get("text"))}</q>{" (" + esc(cite["section"]) + ")" if cite.get("section") else ""}</td></tr>')
        out.append("</tbody></table>")
        out.append("")
    return "\n".join(out)



