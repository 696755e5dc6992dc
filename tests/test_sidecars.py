"""One count of the Istio sidecars' requested CPU and memory (calculators/sidecars.py) behind every figure of the site:
the ASM overhead calculator, the product tables' "CPU request, sidecars (cores)" cell, the compare page's istio-proxy
rows and the footprint calculator's baseline sidecar group. Expected values are worked out by hand from the guides'
tables in each docstring, never taken from the code under test.

Policy 3.2.4 (Policy guide, section 3.2.4, PCF SM on a 2-site georedundant setup, 30K TPS per site): Table 3-104
"Policy Microservices Resources" prints no replica count, only Min Replicas and Max Replicas, and the Istio sidecar
request in its last two columns (one value for request and limit, erratum policy-E013). Sidecar CPU per row, replicas
(the max end where min and max differ) x the Istio CPU column:

    equal min and max, 2 replicas x 2 cores = 4 cores each: Appinfo (row 1), Audit Service (2), CM Service (3),
      Config Service (4), NRF Client Management (7), Diameter Gateway (8), Diameter Connector (9), NRF Client
      Discovery (12), Query Service (13), Performance (15), UDR Connector (19), CHF Connector (20), Alternate Route
      Service (24): 13 x 4                                                            =  52
    0 / 0 replicas: AM Service (10), UE Service (11), PCRF Core Service (14), LDAP Gateway Service (21),
      SOAP Connector (23)                                                             =   0
    ranges, at the max end: Egress Gateway (5) 2 / 6: 6 x 2 = 12; Ingress Gateway (6) 2 / 27: 27 x 2.5 = 67.5;
      PRE Service (16) 2 / 55: 55 x 1.5 = 82.5; SM Service (17) 2 / 76: 76 x 2.5 = 190; PDS Service (18) 2 / 21:
      21 x 2.5 = 52.5; Binding Service (22) 2 / 3: 3 x 2.5 = 7.5; Bulwark Service (25) 2 / 19: 19 x 2.5 = 47.5
                                                                                      = 459.5
    Table 3-105 "cnDBTier Microservices Resources" prints no Istio column: no sidecar    =   0
    total                                                                             = 511.5 cores

Memory, the same replicas x the Istio memory column (Gi): 13 x 2 x 2 = 52; ranges 6 x 2 + 27 x 2 + 55 x 2 + 76 x 2
+ 21 x 4 + 3 x 2 + 19 x 2 = 12 + 54 + 110 + 152 + 84 + 6 + 38 = 456; total 508 GiB.
Counting the seven ranges as 0, as the ASM page did, gives 52 cores.
"""
from __future__ import annotations

import csv
import io
from html.parser import HTMLParser

import pytest

from calculators import asm, catalogue, footprint, sidecars
from calculators.scenario import benchmark_load
from conftest import csv_body

POLICY_3_2_4_SIDECAR_CORES = 511.5
POLICY_3_2_4_SIDECAR_GIB = 508
POLICY_3_2_4_RANGE_ROWS = (5, 6, 16, 17, 18, 22, 25)
"""Table 3-104 rows whose Min and Max Replicas differ (module docstring)."""

BSF_3_2_SIDECAR_CORES = 167
BSF_3_2_SIDECAR_GIB = 146
"""BSF guide, section 3.2 (54K TPS, 3-site setup, traffic on Site1), replica counts printed, no range.
Table 3-16 "BSF microservices Resource Allocation": every Istio CPU request is 2 cores and every Istio memory request
2 Gi; replicas Appinfo 3, Audit Service 3, BSF Management Service 9, CM Service 3, Config Service 3, Diameter Gateway 8,
Egress Gateway 3, Ingress Gateway 3, Nrf Client Management 2, Query Service 3, Performance 3 = 43 pods: 86 cores, 86 GiB.
Table 3-17 "cnDBTier Services Resource Allocation", replicas x Istio CPU / memory request: ndbmgmd 2 x 2 / 2, ndbmtd
8 x 5 / 2, mysqld 4 x 4 / 4, appmysqld 3 x 5 / 6, db-monitor-service 1 x 2 / 2, db-replication-service 2 x 2 / 2,
db-backup-service 1 x 0 / 0: 4 + 40 + 16 + 15 + 2 + 4 + 0 = 81 cores, 4 + 16 + 16 + 18 + 2 + 4 + 0 = 60 GiB.
Total 86 + 81 = 167 cores, 86 + 60 = 146 GiB."""


def _own_load(bundle, sid):
    return benchmark_load(next(s for s in bundle["scenarios"] if s["id"] == sid))


class _Rows(HTMLParser):
    """Rows of the first table in an HTML fragment: [[cell text, ...], ...] (header row first)."""

    def __init__(self):
        super().__init__()
        self.rows, self._cell, self._in = [], None, False

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _table(html: str, start: str) -> list[dict]:
    """The rows of the table that begins at ``start`` in ``html``, as dicts keyed by header."""
    p = _Rows()
    p.feed(html[html.index(start):].split("</table>")[0])
    head, *body = p.rows
    return [dict(zip(head, r)) for r in body]


@pytest.fixture(scope="module")
def renderer(atlas):
    from atlas.pages.products import Renderer
    return Renderer(atlas)


# ------------------------------------------------------------------ the shared count

def test_policy_3_2_4_sidecars_by_hand(bundle):
    """The shared count of Policy 3.2.4 is the hand figure (module docstring), and it names the seven range rows."""
    res = sidecars.sidecar_requests(bundle, "policy-3-2-4")
    assert res["cpu_sidecar"] == POLICY_3_2_4_SIDECAR_CORES
    assert res["mem_sidecar"] == POLICY_3_2_4_SIDECAR_GIB
    side_ranges = [r for r in res["ranges"] if r["sidecar"]]
    assert sorted(r["row"] for r in side_ranges) == list(POLICY_3_2_4_RANGE_ROWS)
    assert {r["table_id"] for r in side_ranges} == {"3-104"} and {r["used"] for r in res["ranges"]} == {"max"}
    ingress = next(v for v in res["services"] if v["service"] == "ingress-gateway")
    # Table 3-104 row 6, Ingress Gateway: Min 2, Max 27, Istio CPU 2.5: 27 x 2.5 = 67.5 cores
    assert (ingress["replicas_sidecar"], ingress["cpu_sidecar"]) == (27, 67.5)
    assert (ingress["replica_range"]["min"], ingress["replica_range"]["max"], ingress["replica_range"]["row"]) == (2, 27, 6)
    # Application rows too: Ingress Gateway 27 x 5 cores + its sidecar 67.5 = 202.5 cores for the pod
    assert ingress["cpu_pod"] == 202.5
    assert sidecars.ranges_text(res).startswith(
        "Replicas printed as a min-max range, counted at the max end (7 rows): Table 3-104 row 5 (Egress Gateway, 2-6), "
        "row 6 (Ingress Gateway, 2-27),")
    # every sidecar row is usable: only UDR Connector's application row is flagged (Table 3-104 row 19, policy-E014)
    assert res["sidecars_partial"] is False and res["partial"] is True
    assert res["excluded"]["services"] == ["udr-connector"] and res["excluded"]["sidecar_rows"] == 0
    assert res["tables"] == ["3-104", "3-105"]


def test_a_scenario_without_ranges_keeps_its_figures(bundle):
    """BSF 3.2 prints every replica count: 167 cores and 146 GiB of sidecars by hand (BSF_3_2_SIDECAR_*), no range."""
    res = sidecars.sidecar_requests(bundle, "bsf-3-2")
    assert (res["cpu_sidecar"], res["mem_sidecar"]) == (BSF_3_2_SIDECAR_CORES, BSF_3_2_SIDECAR_GIB)
    assert res["ranges"] == [] and sidecars.ranges_text(res) == "" and res["uncounted"] == []
    assert res["sidecars_partial"] is False and res["partial"] is False and res["sidecars_unknown"] is False
    # Table 3-17 ndbmtd: 8 replicas x 5 Istio cores = 40
    assert next(v for v in res["services"] if v["service"] == "ndbmtd")["cpu_sidecar"] == 40


def test_one_site_carrying_traffic_is_counted(bundle):
    """Policy 3.2.10 prints its cnDBTier per site: Table 3-175 (Site1, the site carrying traffic) and Table 3-176 (Site2),
    the same pods. Site1's istio-proxy rows: ndbappmysqld 18 x 3000m = 54, ndbmgmd 2 x 1000m = 2, ndbmtd 10 x 4000m = 40,
    ndbmysqld 12 x 5000m = 60: 156 cores and 18 x 2 + 2 x 2 + 10 x 2 + 12 x 4 = 108 GiB, from Table 3-175 only (both
    sites would be 312 cores), as the footprint sizes one site and the product table shows it."""
    res = sidecars.sidecar_requests(bundle, "policy-3-2-10")
    db = [v for v in res["services"] if v["component"] == "cndbtier"]
    assert sum(v["cpu_sidecar"] for v in db) == 156 and sum(v["mem_sidecar"] for v in db) == 108
    assert {s.split("/")[0] for v in db for s in v["sources"]} == {"3-175"}
    assert res["site"] == "site1"


def test_rows_it_could_not_count_are_named(bundle):
    """Policy 3.2.8 (Table 3-150, Site1): Performance prints replica count 'NA' (row 20) and no Istio values (its
    sidecar row is missing, erratum policy-E095); Bulwark (row 2) and Binding (row 3) sidecars are flagged (policy-E037,
    policy-E038). The application row is named as uncounted, the sidecar figure is a lower bound."""
    res = sidecars.sidecar_requests(bundle, "policy-3-2-8")
    perf = [u for u in res["uncounted"] if u["service"] == "perf-info"]
    assert perf == [{"component": "app", "service": "perf-info", "container": "app", "sidecar": False, "table_id": "3-150",
                     "row": 20, "row_label": "Performance", "what": "replicas", "reason": "no replica count printed"}]
    assert res["sidecars_partial"] is True and res["excluded"]["sidecar_rows"] == 3
    assert {"bulwark", "binding", "perf-info"} <= set(res["excluded"]["services"])


def test_asm_scenario_without_sidecar_rows_is_unknown_not_zero(bundle):
    """Policy 3.2.1 runs ASM but its resource tables print no istio-proxy column (asm.asm_without_sidecars)."""
    res = sidecars.sidecar_requests(bundle, "policy-3-2-1")
    assert res["sidecars_unknown"] is True and res["cpu_sidecar"] == 0
    assert sidecars.sidecar_requests(bundle, "bsf-3-1")["sidecars_unknown"] is False  # ASM off: no sidecars, known


def test_unknown_scenario_is_named(bundle):
    with pytest.raises(ValueError, match="Unknown scenario 'policy-9-9': it is not in the calculator bundle."):
        sidecars.sidecar_requests(bundle, "policy-9-9")


# ------------------------------------------------------------------ every page shows the hand figure

def test_policy_3_2_4_asm_overhead_is_the_hand_figure(bundle):
    """The ASM calculator's overview, its HTML and its CSV: 511.5 cores, 508 GiB; per 1K of load 511.5 / 30 (30,000 TPS
    per site, the tables print no site) = 17.05 cores; the range rows named beside the figures."""
    o = asm.overhead(bundle, "policy-3-2-4")
    assert (o["cpu_sidecar"], o["mem_sidecar"]) == (POLICY_3_2_4_SIDECAR_CORES, POLICY_3_2_4_SIDECAR_GIB)
    assert o["cpu_sidecar_per_1k"] == pytest.approx(17.05) and o["load"] == 30000
    out = catalogue.run(bundle, {"calc": "asm", "on": "policy-3-2-4", "off": "policy-3-1-1"})
    assert out["ok"], out
    row = next(r for r in _table(out["html"], '<table class="atlas-rows atlas-asm-overview"')
               if r["Scenario"] == "policy-3-2-4")
    assert row["Sidecar CPU (cores)"] == "511.5 ranges at max" and row["Sidecar memory (GiB)"] == "508 ranges at max"
    assert row["Replica ranges (counted at the max end)"] == "Table 3-104 rows 5, 6, 16, 17, 18, 22, 25"
    services = {r["Service"]: r for r in _table(out["html"], '<table class="atlas-rows atlas-asm-services"')}
    assert services["sm-service"]["Sidecar replicas"] == "76 max of 2-76"  # row 17, 76 x 2.5 = 190 cores
    assert services["sm-service"]["Sidecar CPU (cores)"] == "190"
    total = next(r for r in csv.DictReader(io.StringIO(csv_body(out["downloads"]["overview"]["text"])))
                 if r["scenario"] == "policy-3-2-4" and r["service"] == "TOTAL")
    assert (float(total["cpu_sidecar_cores"]), float(total["mem_sidecar_gib"])) == (511.5, 508)
    assert "Table 3-104 row 5 (Egress Gateway, 2-6)" in total["replica_range"] and "row 17 (SM Service, 2-76)" in total["replica_range"]
    view = [r for r in csv.DictReader(io.StringIO(csv_body(out["downloads"]["csv"]["text"])))
            if r["part"] == "per service" and r["service"] == "pre"]
    assert view[0]["sidecar_replicas"] == "55" and view[0]["replica_range"] == "2-55 counted at 55 (Table 3-104 row 16)"


def test_policy_3_2_4_asm_report_is_the_hand_figure(bundle):
    """The ASM page's report (XLSX and print): the Totals sheet's Policy 3.2.4 line is 511.5 cores and names the range
    rows; the Results sheet gives Ingress Gateway's sidecar 27 replicas, the max of 2-27 (Table 3-104 row 6)."""
    from calculators import report
    out = catalogue.report(bundle, {"calc": "asm", "on": "policy-3-2-4", "off": "policy-3-1-1"})
    assert out["ok"], out

    def rows_of(name):
        s = report.sheet_named(out["report"], name)
        return [dict(zip([report.header_text(c) for c in s["columns"]], r)) for r in s["rows"]]
    total = next(x for x in rows_of("Totals") if x["Scenario"] == "policy-3-2-4" and x["What"].startswith("TOTAL"))
    assert total["What"] == "TOTAL, one site carrying traffic" and total["Sidecar CPU request (cores)"] == 511.5
    assert total["Note"].startswith("Replicas printed as a min-max range, counted at the max end (7 rows): Table 3-104 row 5")
    ingress = next(x for x in rows_of("Results") if x["Scenario"] == "policy-3-2-4" and x["Service"] == "ingress-gateway")
    assert (ingress["Sidecar replicas (pods)"], ingress["Replica range (counted at the max end)"]) == (27, "2-27")


def test_policy_3_2_4_footprint_baseline_is_the_hand_figure(bundle):
    """The footprint at the scenario's own load (60,000 TPS over two sites): the baseline sidecar group and the ASM
    page's 'remove ASM' what-if both give 511.5 cores."""
    res = footprint.compute(bundle, "policy-3-2-4", _own_load(bundle, "policy-3-2-4"))
    g = res["totals"]["groups"]["sidecars"]["before"]
    assert (g["cpu_request"], g["mem_request"]) == (POLICY_3_2_4_SIDECAR_CORES, POLICY_3_2_4_SIDECAR_GIB)
    assert asm.whatif(bundle, "policy-3-2-4", "policy-3-1-1")["remove"]["cpu_delta"] == -POLICY_3_2_4_SIDECAR_CORES


def test_policy_3_2_4_product_table_cell_is_the_hand_figure(renderer):
    """The Policy product page's scenarios table (the fragment the page is built from): 511.5 in the sidecar column,
    with no lower-bound mark (every sidecar row of Table 3-104 is usable), and the note names the range rows."""
    html = renderer.scenarios_table("policy")
    rows = {r["Scenario"]: r for r in _table(html, '<table class="atlas-data" data-atlas-table="scenarios"')}
    title = next(s["short_title"] for s in renderer.bundle["scenarios"] if s["id"] == "policy-3-2-4")
    assert rows[title]["CPU request, sidecars (cores)"] == "511.5"
    notes = "\n".join(renderer.requests_notes("policy", renderer.atlas.source("policy"),
                                              [s for s in renderer.atlas.scenarios if s["doc"] == "policy"]))
    assert "A replica count printed as a min-max range counts at its max end" in notes
    assert "(Table 3-104 rows 5, 6, 16, 17, 18, 22, 25)" in notes


def test_product_cells_mark_what_the_sidecar_count_lacks(renderer):
    """BSF 3.2: 167 (hand, BSF_3_2_SIDECAR_CORES). Policy 3.2.5 (Table 3-115, Site1): Query Service and Performance
    print no Istio value (policy-E090): at least. Policy 3.2.1: ASM on, no sidecar printed: 'not printed', not 0."""
    bsf = {r["Scenario"]: r for r in _table(renderer.scenarios_table("bsf"), '<table class="atlas-data"')}
    title = lambda sid: next(s["short_title"] for s in renderer.bundle["scenarios"] if s["id"] == sid)
    assert bsf[title("bsf-3-2")]["CPU request, sidecars (cores)"] == "167"
    policy = {r["Scenario"]: r for r in _table(renderer.scenarios_table("policy"), '<table class="atlas-data"')}
    assert policy[title("policy-3-2-5")]["CPU request, sidecars (cores)"].startswith("≥")
    assert policy[title("policy-3-2-1")]["CPU request, sidecars (cores)"] == "not printed"


def test_compare_page_sidecar_rows_add_up_to_the_hand_figure(renderer):
    """The compare page's per-service rows of Policy 3.2.4 (assets/data/compare/policy-3-2-4.json): its istio-proxy
    rows' 'CPU request, all replicas' add up to 511.5 cores; Ingress Gateway's sidecar counts 27 replicas."""
    from atlas.pages import compare
    data = compare.scenario_data(renderer, "policy-3-2-4")
    side = [s for s in data["services"] if s["container"] == "istio-proxy"]
    assert sum(s["cpu_total"]["v"] for s in side) == POLICY_3_2_4_SIDECAR_CORES
    assert next(s for s in side if s["service"] == "ingress-gateway")["replicas"]["v"] == 27


def test_every_page_counts_the_same_sidecars(bundle):
    """Cross-check over every scenario with resource data: the ASM overview (ASM scenarios), the shared count and the
    footprint baseline's sidecar group give the same cores and GiB, and the same all-container totals."""
    on = set(asm.asm_on_ids(bundle))
    for s in footprint.scenarios_with_resources(bundle):
        res = sidecars.sidecar_requests(bundle, s["id"])
        t = footprint.compute(bundle, s["id"], benchmark_load(s))["totals"]
        g, site = t["groups"]["sidecars"]["before"], t["site"]["before"]
        assert (res["cpu_sidecar"], res["mem_sidecar"]) == (g["cpu_request"], g["mem_request"]), s["id"]
        assert (res["cpu_all"], res["mem_all"]) == (site["cpu_request"], site["mem_request"]), s["id"]
        if s["id"] in on:
            o = asm.overhead(bundle, s["id"])
            assert (o["cpu_sidecar"], o["cpu_total"]) == (res["cpu_sidecar"], res["cpu_all"]), s["id"]
