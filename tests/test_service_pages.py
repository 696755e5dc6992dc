"""Service pages: one page per canonical service with every scenario it appears in, values from
the guides' tables, rows an erratum excludes shown and not counted, a chart whose points open their scenarios,
an index of services with a filter, and site search that puts a service's page first."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from conftest import CHART_DONE, chart_spec, wait_for_chart


class _Rows(HTMLParser):
    """The rows of the first table with class ``cls``: per row its attributes and its cells, each cell as
    ``{"shown": text outside span.atlas-raw, "text": all text, "links": [href]}``."""

    def __init__(self, cls: str):
        super().__init__(convert_charrefs=True)
        self.cls, self.depth, self.done = cls, 0, False
        self.rows: list[dict] = []
        self.raw = 0
        self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if self.done:
            return
        if tag == "table" and self.cls in (a.get("class") or "").split():
            self.depth = 1
            return
        if not self.depth:
            return
        if tag == "tr" and self.rows is not None:
            self.rows.append({"attrs": a, "cells": []})
        elif tag == "td":
            self.cell = {"shown": "", "text": "", "links": []}
            self.rows[-1]["cells"].append(self.cell)
        elif tag == "span" and self.cell is not None and ("atlas-raw" in (a.get("class") or "").split() or self.raw):
            self.raw += 1
        elif tag == "a" and self.cell is not None:
            self.cell["links"].append(a.get("href"))

    def handle_endtag(self, tag):
        if not self.depth:
            return
        if tag == "table":
            self.depth, self.done = 0, True
        elif tag == "td":
            self.cell = None
        elif tag == "span" and self.raw:
            self.raw -= 1

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data
            if not self.raw:
                self.cell["shown"] += data


HEAD = ["Scenario", "Load per site", "Table, row", "Site", "Container", "Replicas", "CPU request (cores)", "CPU limit (cores)",
        "Memory request (GiB)", "Memory limit (GiB)", "Observed CPU (%)", "HPA target (%)", "CPU used (cores)",
        "Cores used per 1K load", "Status"]


def service_table(site, slug: str) -> list[dict]:
    """The service page's rows (tbody only) as {"scenario", "mark", "class", column header: shown text, "_cells"}."""
    html = (site / "services" / slug / "index.html").read_text(encoding="utf-8")
    p = _Rows("atlas-service-rows")
    p.feed(html)
    out = []
    for r in p.rows:
        if not r["cells"]:
            continue  # the header row
        assert len(r["cells"]) == len(HEAD), r
        row = {h: " ".join(c["shown"].split()) for h, c in zip(HEAD, r["cells"])}
        row.update(scenario=r["attrs"].get("data-scenario"), mark=r["attrs"].get("data-mark"), cls=r["attrs"].get("class"),
                   _cells=r["cells"])
        out.append(row)
    return out


def the_row(rows, **match) -> dict:
    hits = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(hits) == 1, f"{match}: {len(hits)} rows"
    return hits[0]


def spec_of(site, slug: str) -> dict:
    return chart_spec(site, f"services/{slug}", f"svc-{slug}")


# ------------------------------------------------------------------ values from named tables, without JavaScript
def test_ingress_gateway_page_shows_bsf_and_policy_rows_from_their_tables(built_site):
    """BSF and Policy print the same service under different names (BSF "Ingress Gateway", Policy
    "ingress-gateway"): one page holds both products' rows."""
    rows = service_table(built_site, "ingress-gateway")
    # BSF 3.3 (63K TPS per site) Table 3-25 row "Ingress Gateway": 7 replicas, CPU request 4, limit 4, memory 4 / 6 Gi;
    # Table 3-28 row "Ingress Gateway": Site1 CPU 21.32 %. By hand: 0.2132 x 7 x 4 = 5.9696 cores; / 63 = 0.0948 per 1K.
    bsf = the_row(rows, scenario="bsf-3-3", Container="app")
    assert (bsf["Replicas"], bsf["CPU request (cores)"], bsf["CPU limit (cores)"]) == ("7", "4", "4")
    assert (bsf["Memory request (GiB)"], bsf["Memory limit (GiB)"]) == ("4", "6")
    assert bsf["Observed CPU (%)"] == "21.32" and "site1" in bsf["_cells"][10]["text"]
    assert bsf["Load per site"] == "63,000 TPS"
    assert bsf["CPU used (cores)"] == "5.97" and bsf["Cores used per 1K load"] == "0.095"
    assert bsf["Table, row"].startswith("3-25, row 6") and "3-28, row 12" in bsf["Table, row"]
    assert bsf["_cells"][0]["links"] == ["../../products/bsf/bsf-3-3/"]
    # Policy 3.2.1 (30K TPS) Table 3-68 row "Ingress Gateway": CPU request 4, limit 4, memory 4 / 6 Gi, 4 replicas;
    # Table 3-70 row "ocpcf-occnp-ingress-gateway": "38%/80%" (observed / HPA target). By hand: 0.38 x 4 x 4 = 6.08
    # cores; 6.08 / 30 = 0.2027 per 1K.
    pol = the_row(rows, scenario="policy-3-2-1", Container="app")
    assert (pol["Replicas"], pol["CPU request (cores)"], pol["CPU limit (cores)"]) == ("4", "4", "4")
    assert (pol["Memory request (GiB)"], pol["Memory limit (GiB)"]) == ("4", "6")
    assert (pol["Observed CPU (%)"], pol["HPA target (%)"]) == ("38", "80")
    assert pol["CPU used (cores)"] == "6.08" and pol["Cores used per 1K load"] == "0.203"
    assert pol["mark"] == "ok" and pol["Status"] == "ok"
    # BSF 3.1 (22K TPS) Table 3-5 (Cont.) row "Ingress Gateway": 9 replicas, CPU request 3, limit 4; Table 3-8 row
    # "Ingress Gateway": Site1 CPU 28.43 % (of the request: the table does not say, the calculators read the request).
    # By hand: 0.2843 x 9 x 3 = 7.6761 cores; 7.6761 / 22 = 0.3489 per 1K.
    b31 = the_row(rows, scenario="bsf-3-1", Container="app")
    assert (b31["Replicas"], b31["CPU request (cores)"], b31["CPU limit (cores)"], b31["Observed CPU (%)"]) == ("9", "3", "4", "28.43")
    assert b31["CPU used (cores)"] == "7.676" and b31["Cores used per 1K load"] == "0.349"
    # the BSF 3.3 sidecar: Table 3-25 row "Ingress Gateway", Istio CPU 2 / 2; Table 3-28 row "Ingress Gateway Istio" 28.91 %
    side = the_row(rows, scenario="bsf-3-3", Container="istio-proxy")
    assert (side["CPU request (cores)"], side["Observed CPU (%)"]) == ("2", "28.91")
    assert side["CPU used (cores)"] == "4.047"  # 0.2891 x 7 x 2 = 4.0474


def test_excluded_row_is_shown_with_its_erratum_and_not_counted(built_site):
    """Policy 3.2.7 Table 3-140 row "Ingress Gateway" prints CPU limit 8 and request 8 for 8 replicas (the replica
    count repeated in the CPU columns, erratum policy-E031, flagged): the row is on the page, marked, with the
    erratum, and its observed 48 % (Table 3-142 row 5, target 80 %) is not turned into cores nor plotted."""
    rows = service_table(built_site, "ingress-gateway")
    r = the_row(rows, scenario="policy-3-2-7", Container="app")
    assert r["mark"] == "flagged" and "atlas-status-flagged" in r["cls"]
    assert r["Replicas"] == "8" and r["CPU request (cores)"] == "8"
    assert "flagged" in r["Status"] and "policy-E031" in r["Status"]
    assert any("#policy-E031" in h for h in r["_cells"][14]["links"])
    assert (r["Observed CPU (%)"], r["HPA target (%)"]) == ("48", "80")
    assert "not counted" in r["CPU used (cores)"] and r["Cores used per 1K load"] == ""
    pts = spec_of(built_site, "ingress-gateway")["data"]["values"]
    assert not [p for p in pts if "3.2.7" in p["scenario"] and p["container"] == "app"]
    # the same run's sidecar row (Istio CPU 2.5, status ok) stays, without an observed CPU of its own
    side = the_row(rows, scenario="policy-3-2-7", Container="istio-proxy")
    assert side["mark"] == "none" and side["CPU request (cores)"] == "2.5"


def test_partial_value_is_marked_at_least_in_table_and_chart(built_site):
    """Policy 3.3.2 (traffic on site1 and site3, 15K TPS per site) Table 3-196 row 3 ndbmtd prints Site1 CPU
    "22530%/80%" (flagged, policy-E053) and Site3 "16%/80%"; Table 3-194 row 3 ndbmtd: 8 replicas, CPU 8 / 8. The busiest
    traffic site is unknown, so the 16 % at site3 gives a lower bound: 0.16 x 8 x 8 = 10.24 cores, 10.24 / 15 = 0.683
    per 1K, marked ≥ in the table and drawn as a hollow triangle whose tooltip names the flagged site."""
    row = the_row(service_table(built_site, "ndbmtd"), scenario="policy-3-3-2", Container="app")
    assert row["mark"] == "partial"
    assert row["CPU used (cores)"] == "≥ 10.24" and row["Cores used per 1K load"] == "≥ 0.683"
    assert row["Observed CPU (%)"] == "16" and "site3" in row["_cells"][10]["text"] and row["HPA target (%)"] == "80"
    assert "at least" in row["Status"] and "site1 flagged" in row["Status"] and "policy-E053" in row["Status"]
    spec = spec_of(built_site, "ndbmtd")
    pts = [p for p in spec["data"]["values"] if p["url"].endswith("/policy-3-3-2/")]
    assert len(pts) == 1 and pts[0]["partial"] is True and pts[0]["cores"] == 10.24
    assert "site1 flagged" in pts[0]["counted"] and "policy-E053" in pts[0]["counted"]
    shapes = dict(zip(spec["encoding"]["shape"]["scale"]["domain"], spec["encoding"]["shape"]["scale"]["range"]))
    assert shapes[pts[0]["mark"]] == "triangle-up" and shapes["as printed"] == "circle"
    assert spec["encoding"]["fill"]["condition"] == {"test": "datum.partial", "value": "transparent"}


def test_names_match_across_products_only_for_the_same_component(built_site, atlas):
    from atlas.pages.services import groups
    by = {(m["doc"], m["service"]): g["slug"] for g in groups(atlas) for m in g["members"]}
    # Diameter Gateway: BSF "Diameter Gateway", Policy diam-gateway (display name "Diameter Gateway"), NEF "Diameter Gateway"
    assert by[("bsf", "Diameter Gateway")] == by[("policy", "diam-gateway")] == by[("nef", "Diameter Gateway")] == "diameter-gateway"
    # NEF's UDR is a test stub; DSR's UDR is the data repository: two pages
    assert by[("nef", "UDR")] != by[("dsr", "UDR")]
    # Policy prints "user-service" for both the CHF and the UDR connector: aliases never merge services
    assert by[("policy", "chf-connector")] != by[("policy", "udr-connector")]
    # every canonical service has its page
    assert len(by) == len(atlas.services)
    for slug in set(by.values()):
        assert (built_site / "services" / slug / "index.html").exists(), slug


def test_scenario_page_service_names_link_to_their_service_page(built_site):
    html = (built_site / "products" / "bsf" / "bsf-3-3" / "index.html").read_text(encoding="utf-8")
    p = _Rows("atlas-data")
    p.feed(html[html.index('data-atlas-table="3-25"') - 200:])
    links = {c["text"]: c["links"] for r in p.rows for c in r["cells"] if c["links"]}
    assert links["Ingress Gateway"] == ["../../../services/ingress-gateway/"]
    assert (built_site / "services" / "ingress-gateway" / "index.html").exists()


# ------------------------------------------------------------------ in the browser


@pytest.mark.browser
def test_chart_points_link_to_their_scenarios(page, site_url, built_site):
    page.goto(site_url + "/services/ingress-gateway/", wait_until="load")
    wait_for_chart(page, ".atlas-chart-service" + CHART_DONE.replace(".atlas-chart", ""))
    spec = spec_of(built_site, "ingress-gateway")
    pts = spec["data"]["values"]
    assert spec["encoding"]["href"]["field"] == "url"
    # one point per table row with cores used (BSF 3.1, 3.2, 3.3 and Policy runs)
    plotted = [r for r in service_table(built_site, "ingress-gateway") if r["mark"] in ("ok", "corrected", "partial")]
    assert len(pts) == len(plotted) and len(pts) > 10
    marks = page.locator(".atlas-chart-service g.mark-symbol.role-mark path")
    assert marks.count() == len(pts)
    for p in pts:
        assert re.fullmatch(r"\.\./\.\./products/(bsf|policy)/[a-z0-9-]+/", p["url"]), p["url"]
    with page.expect_navigation():
        marks.first.click(force=True)
    assert re.search(r"/products/(bsf|policy)/(bsf|policy)-[0-9-]+/$", page.url), page.url
    assert page.js_errors == []


@pytest.mark.browser
def test_index_lists_every_service_and_filters_by_printed_name(page, site_url, atlas):
    page.goto(site_url + "/services/", wait_until="load")
    table = page.locator('table[data-atlas-table="services"]')
    total = table.locator("tbody tr").count()
    assert total >= 100  # 109 pages today: every canonical service of five guides, merged where names match
    box = page.locator(f'input[aria-controls="{table.get_attribute("id")}"]')
    box.fill("ocpcf-ocpm-pre")  # Policy prints PRE as ocpcf-ocpm-pre (Table 3-7)
    page.wait_for_function("t => t.getAttribute('data-atlas-filtered') === 'true'", arg=table.element_handle())
    shown = table.locator("tbody tr:not([hidden])")
    assert shown.count() == 1 and shown.get_attribute("data-slug") == "pre"
    box.fill("ndbmtd")
    page.wait_for_function("""t => { const r = t.querySelectorAll('tbody tr:not([hidden])');
        return r.length === 1 && r[0].getAttribute('data-slug') === 'ndbmtd'; }""", arg=table.element_handle())
    assert table.locator("tbody tr:not([hidden])").get_attribute("data-slug") == "ndbmtd"
    box.fill("")
    page.wait_for_function("t => t.getAttribute('data-atlas-filtered') === 'false'", arg=table.element_handle())
    assert table.locator("tbody tr:not([hidden])").count() == total
    with page.expect_navigation():
        table.locator('tr[data-slug="ingress-gateway"] a').click()
    assert page.url.endswith("/services/ingress-gateway/")
    assert page.js_errors == []


@pytest.mark.browser
@pytest.mark.parametrize("query,slug", [("ingress-gateway", "ingress-gateway"), ("Ingress Gateway", "ingress-gateway"),
                                        ("ocpcf-ocpm-pre", "pre"), ("ndbmtd", "ndbmtd"), ("diameter gateway", "diameter-gateway")])
def test_search_puts_the_service_page_first(page, site_url, query, slug):
    """Offline site search (Material's, its index fetched on first use): a service's name, hyphenated as Policy prints
    it or in words, lists its service page first."""
    page.goto(site_url + "/products/bsf/", wait_until="load")
    page.wait_for_function("window.atlasSearch && document.querySelector('[data-md-component=search-query]')")
    page.fill("input[data-md-component=search-query]", query)
    page.wait_for_selector(".md-search-result__item", timeout=30000)
    first = page.locator(".md-search-result__item > a").first.get_attribute("href")
    assert re.search(rf"/services/{re.escape(slug)}/(\?|$)", first), (query, first)
