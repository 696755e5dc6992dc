"""The cross-product pages without a browser: the ranking of services by CPU per 1K of load
(atlas/pages/ranking.py), the mesh across runs (atlas/pages/mesh.py), SQL on the database (calculators/query.py), and the
defects fixed beside them (the home chart's hollow points, the compare page's release, the DSR pages' seed
lines, the footprint's detail table on a phone, the DSR chart's legend).

Figures are read from the guides' tables (data/<doc>/*.csv, named by table and row) and computed by hand in the comments;
the code under test gives the other side of each assertion."""
from __future__ import annotations

import csv
import html
import json
import re
import sqlite3
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import DocData, ROOT, seed_path


@pytest.fixture(scope="module")
def r(atlas):
    from atlas.pages.products import Renderer
    return Renderer(atlas)


@pytest.fixture(scope="module")
def paged(r):
    """``r`` after the build's downloads step (``shown.build_downloads``), which pages listing their tables' downloads
    read: as the build runs it, and whatever tests of this module ran before."""
    from atlas.pages import shown
    shown.build_downloads(r)
    return r


@pytest.fixture(scope="module")
def ranking_rows(r):
    from atlas.pages import ranking
    return ranking.ranking_rows(r)


def _row(rows, scenario, service):
    hits = [x for x in rows if x["scenario"] == scenario and x["service"] == service]
    assert len(hits) == 1, (scenario, service, len(hits))
    return hits[0]


# ------------------------------------------------------------------ the ranking: figures by hand

def test_bsf_3_3_management_service_per_1k_by_hand(ranking_rows):
    """BSF 3.3 (63,000 TPS per site, traffic on site1), BSF Management Service. Table 3-25 row 2: 14 replicas, app 4 cores
    and 1 GiB, istio-proxy 2 cores and 2 GiB per container. Requested CPU 14 x 4 + 14 x 2 = 84 cores, per 1K: 84 / 63 =
    1.3333; memory 14 x 1 + 14 x 2 = 42 GiB, per 1K 0.6667. Table 3-28 at site1: app 27.72 % (row 4), istio-proxy 32.46 %
    (row 3), of the request times the replicas: 0.2772 x 14 x 4 = 15.5232 and 0.3246 x 14 x 2 = 9.0888, used 24.612
    cores, per 1K 24.612 / 63 = 0.390667 (the service page's two rows per 1K, 0.2464 + 0.144267)."""
    bsf = DocData("bsf")
    for container, cpu, mem in (("app", "4", "1"), ("istio-proxy", "2", "2")):
        row = bsf.one("resources", scenario="bsf-3-3", table_id="3-25", row="2", container=container)
        assert (row["replicas"], row["cpu_request_cores"], row["mem_request_gib"]) == ("14", cpu, mem)
    for container, pct, row_no in (("app", "27.72", "4"), ("istio-proxy", "32.46", "3")):
        u = bsf.one("utilization", scenario="bsf-3-3", table_id="3-28", row=row_no, site="site1", metric="cpu")
        assert (u["container"], u["observed_percent"]) == (container, pct)
    x = _row(ranking_rows, "bsf-3-3", "BSF Management Service")
    assert x["cpu_request"] == 84 and x["cpu_request_per_1k"] == Fraction(84, 63)
    assert x["mem_request"] == 42 and x["mem_request_per_1k"] == Fraction(42, 63)
    assert x["cpu_used"] == Fraction("24.612") and x["cpu_used_per_1k"] == Fraction("24.612") / 63
    assert (x["request_least"], x["used_bound"], x["not_counted"]) == (False, "", "")
    assert (x["request_sources"], x["used_sources"], x["used_site"]) == ("Table 3-25 row 2", "Table 3-28 rows 4, 3", "site1")
    assert (x["call_model_name"], x["asm"], x["mode"], x["product"]) == ("BSF nBSF + Rx", "ASM on", "BSF", "BSF")


def test_sm_service_3_2_3_counts_the_replica_range_at_its_max_and_marks_what_used_leaves_out(ranking_rows):
    """Policy 3.2.3 (21,500 TPS per site), SM service, Table 3-92 row 17: replicas printed '2 / 76', app 7 cores and 10 GiB,
    istio-proxy 2 cores and 2 GiB (corrected, policy-E007). At the range's max end: 76 x 7 + 76 x 2 = 684 cores, per 1K
    684 / 21.5 = 31.8140; memory 76 x 10 + 76 x 2 = 912 GiB. Table 3-94 row 15, site1: 22.38 % of 7 cores x 76 = 119.0616
    cores, per 1K 5.5377. The sidecar has no reading (a lower bound) and the 76 pods are the range's max (an upper bound):
    neither bound, both named."""
    policy = DocData("policy")
    app = policy.one("resources", scenario="policy-3-2-3", table_id="3-92", row="17", container="app")
    assert (app["raw_replicas"], app["replicas_max"], app["cpu_request_cores"], app["mem_request_gib"]) == ("2 / 76", "76", "7", "10")
    x = _row(ranking_rows, "policy-3-2-3", "sm-service")
    assert (x["replicas"], x["replica_range"], x["cpu_request"], x["mem_request"]) == (76, "2-76", 684, 912)
    assert x["cpu_request_per_1k"] == Fraction(684, 1) / Fraction(215, 10)
    assert x["cpu_used"] == Fraction("0.2238") * 76 * 7 == Fraction("119.0616")
    assert x["used_bound"] == "neither" and x["containers_used"] == ["app"]
    assert "CPU used leaves out istio-proxy" in x["not_counted"] and "max of the replica range 2-76" in x["not_counted"]


def test_a_flagged_reading_at_a_traffic_site_makes_used_a_lower_bound(ranking_rows):
    """Policy 3.4.1 (7,500 TPS per site, traffic on site1 to site3), PCRF Core: Table 3-202 row 12, 24 replicas of 7 cores:
    168 cores requested, 22.4 per 1K. Table 3-204 row 13 prints 13 % (site1), 0 % (site2, flagged: policy-E322) and 14 %
    (site3): 0.14 x 24 x 7 = 23.52 cores used, 3.136 per 1K, at least (site2's reading cannot be used)."""
    u = DocData("policy").one("utilization", scenario="policy-3-4-1", table_id="3-204", row="13", site="site2", metric="cpu")
    assert (u["raw"], u["status"]) == ("0%/80%", "flagged")
    x = _row(ranking_rows, "policy-3-4-1", "pcrf-core")
    assert (x["cpu_request"], x["cpu_request_per_1k"]) == (168, Fraction("22.4"))
    assert (x["cpu_used"], x["cpu_used_per_1k"], x["used_site"]) == (Fraction("23.52"), Fraction("3.136"), "site3")
    assert x["used_bound"] == "at least" and "policy-E322" in x["errata"]
    assert "CPU reading of app at site2 (Table 3-204 row 13): flagged" in x["not_counted"]


def test_a_service_with_no_usable_row_is_shown_not_counted(ranking_rows):
    """Policy 3.2.7, query-service: Table 3-140 row 11, app flagged (policy-E031), istio-proxy printed without a value
    (policy-E094): listed with no figure and why, never as 0."""
    x = _row(ranking_rows, "policy-3-2-7", "query-service")
    assert x["cpu_request"] is None and x["cpu_used"] is None and x["cpu_request_per_1k"] is None
    assert x["not_counted"].startswith("no usable resource row: Table 3-140 row 11 (app, site1): flagged")
    assert x["errata"] == ["policy-E031", "policy-E094"]


def test_every_production_service_of_every_run_once_ranked_highest_first(ranking_rows, bundle):
    """Every (run, service) with a resource row, usable or not, but test stubs and simulators, is one row; runs without a
    load per site (DSR, ShCM) have none; the order is CPU requested per 1K, highest first, rows without a figure last."""
    expect = set()
    for r_ in bundle["resources"] + bundle["resources_excluded"]:
        s = next(s for s in bundle["scenarios"] if s["id"] == r_["scenario"])
        if r_["component"] not in ("stub", "simulator") and s.get("load_per_site"):
            expect.add((r_["scenario"], r_["service"]))
    got = [(x["scenario"], x["service"]) for x in ranking_rows]
    assert len(got) == len(set(got)) and set(got) == expect
    figures = [x["cpu_request_per_1k"] for x in ranking_rows]
    shown = [f for f in figures if f is not None]
    assert shown == sorted(shown, reverse=True) and figures[len(shown):] == [None] * (len(figures) - len(shown))
    assert not any(x["doc"] in ("dsr", "shcm") for x in ranking_rows)


def test_tidy_download_has_every_row_unrounded(r, ranking_rows):
    from atlas.pages import ranking
    rows = list(csv.DictReader(ranking.tidy_csv(r).decode("utf-8").splitlines()))
    assert [k for k in rows[0]] == ranking.TIDY_COLUMNS and len(rows) == len(ranking_rows)
    bsf = next(x for x in rows if (x["scenario"], x["service"]) == ("bsf-3-3", "BSF Management Service"))
    # 84 / 63 and 24.612 / 63 to 9 decimals (hand-computed in test_bsf_3_3_management_service_per_1k_by_hand)
    assert (bsf["cpu_request_cores"], bsf["cpu_request_per_1k_cores"], bsf["cpu_used_per_1k_cores"]) == ("84", "1.333333333", "0.390666667")
    assert [int(x["rank"]) for x in rows] == list(range(1, len(rows) + 1))


def test_table_cells_hold_the_facets_and_the_first_rows_plus_the_rows_file_are_the_whole_table(r, ranking_rows):
    """The chips read their value from a column (FACET_COLS): each row's cell there is its value; the page holds the first
    FIRST_ROWS rows, and the file tablerows.js fetches holds the others, built from the same cells: together they are the
    table the "as shown" CSV is made of."""
    from atlas.pages import ranking
    from atlas.tableview import shown_rows
    head, body = shown_rows(ranking.table_html(r))
    assert head == ranking.HEAD and len(body) == len(ranking_rows)
    for x, cells in zip(ranking_rows, body):
        for facet, col in ranking.FACET_COLS.items():
            assert cells[col] == ranking._facets(x)[facet]
    page = ranking.table_html(r, first=ranking.FIRST_ROWS)
    m = re.search(r'data-atlas-rows="\.\./\.\./(assets/views/ranking-rows\.json)\?v=([0-9a-f]{12})" data-atlas-rows-total="(\d+)"', page)
    assert m and int(m.group(3)) == len(ranking_rows)
    from atlas.assets import content_hash
    assert content_hash(r.files[m.group(1)]) == m.group(2)  # the address changes with the content
    data = json.loads(r.files[m.group(1)])
    assert data["columns"] == ranking.HEAD and data["first"] == ranking.FIRST_ROWS
    _, first = shown_rows(page)
    rest = [shown_rows(f"<table><thead><tr><th>x</th></tr></thead><tbody><tr>{ranking.cells_html(cells)}</tr></tbody></table>")[1][0]
            for cells in data["rows"]]
    assert first + rest == body


# ------------------------------------------------------------------ the mesh

def test_bsf_3_3_sidecar_cpu_by_hand(r):
    """BSF 3.3 prints its sidecars for no site (one site's allocation) in two tables: Table 3-25 (BSF services), 12
    istio-proxy rows of 2 cores, 63 replicas in all: 126 cores; Table 3-26 (cnDBTier), 6 rows of 5 cores (30 replicas),
    one of 2 cores (1 replica) and one of 1 core (2 replicas): 150 + 2 + 2 = 154 cores. 126 + 154 = 280 cores of sidecars,
    as the mesh page and the SQL example count them."""
    from atlas.pages import mesh
    side = [x for x in DocData("bsf").rows("resources") if x["scenario"] == "bsf-3-3" and x["container"] == "istio-proxy"]
    by: dict = {}
    for x in side:
        assert x["site"] == "" and x["status"] == "ok"
        by.setdefault((x["table_id"], x["cpu_request_cores"]), []).append(int(x["replicas"]))
    assert {k: (len(v), sum(v)) for k, v in by.items()} == {("3-25", "2"): (12, 63), ("3-26", "5"): (6, 30), ("3-26", "2"): (1, 1),
                                                            ("3-26", "1"): (1, 2)}
    o = next(x for x in mesh.mesh_runs(r)["runs"] if x["scenario"] == "bsf-3-3")["overhead"]
    assert o["cpu_sidecar"] == 280 and not o["partial"]


def test_like_for_like_pairs_share_the_call_model_and_mode(r):
    """BSF 3.2 and 3.3 (ASM on) against BSF 3.1 (off): call model BSF nBSF + Rx, mode BSF. PCF SM 3.2.3, 3.2.4, 3.2.8,
    3.2.10 (on) against 3.5.1 and 3.5.2 (off): call model PCF SM, mode PCF. 2 + 8 = 10 pairs. PCF AM/UE (3.2.2, 3.2.5-3.2.7)
    and AM/UE with N1N2 (3.2.9) have no ASM-off run; 3.2.1 runs ASM with no sidecar printed: listed as unknown."""
    from atlas.pages import mesh
    m = mesh.mesh_runs(r)
    pairs = {(p["on"]["scenario"], p["off"]["scenario"]) for p in m["pairs"]}
    assert pairs == {("bsf-3-2", "bsf-3-1"), ("bsf-3-3", "bsf-3-1")} | {
        (on, off) for on in ("policy-3-2-3", "policy-3-2-4", "policy-3-2-8", "policy-3-2-10") for off in ("policy-3-5-1", "policy-3-5-2")}
    assert [x["scenario"] for x in m["unknown"]] == ["policy-3-2-1"]
    assert {x["scenario"] for x in m["runs"] if not x["off"]} == {"policy-3-2-2", "policy-3-2-5", "policy-3-2-6", "policy-3-2-7", "policy-3-2-9"}


def test_a_run_of_another_deployment_mode_or_call_model_is_not_like_for_like(r):
    """The same product's ASM-off run stops being like for like when its deployment mode differs (Policy 3.5.1 made
    'converged') or its call model does (3.5.2 made PCF usage monitoring, which no ASM-on run runs): its pairs go, the others stay."""
    import copy
    import types
    from atlas.pages import mesh
    b = copy.deepcopy(r.bundle)
    scen = {s["id"]: s for s in b["scenarios"]}
    scen["policy-3-5-1"]["deployment_mode"] = "converged"
    scen["policy-3-5-2"]["call_model"] = "pcf-usage-monitoring"  # a call model no ASM-on run shares
    pairs = {(p["on"]["scenario"], p["off"]["scenario"]) for p in mesh.mesh_runs(types.SimpleNamespace(bundle=b))["pairs"]}
    assert pairs == {("bsf-3-2", "bsf-3-1"), ("bsf-3-3", "bsf-3-1")}


def test_a_partial_side_bounds_the_difference(r):
    """On - off per 1K: with the ASM-on run partial (its figure a lower bound) the difference is at least the figure; with
    both complete it is the figure."""
    from atlas.pages import mesh
    pairs = {(p["on"]["scenario"], p["off"]["scenario"]): p for p in mesh.mesh_runs(r)["pairs"]}
    partial = pairs[("policy-3-2-3", "policy-3-5-1")]
    assert partial["on"]["overhead"]["partial"] and not partial["off"]["overhead"]["partial"]
    assert mesh.diff_text(partial).startswith("at least ")
    whole = pairs[("policy-3-2-10", "policy-3-5-1")]
    assert not whole["on"]["overhead"]["partial"] and re.fullmatch(r"-?[\d,.]+", mesh.diff_text(whole))
    fake = {**whole, "off": {**whole["off"], "overhead": {**whole["off"]["overhead"], "partial": {"text": "x"}}}}
    assert mesh.diff_text(fake).startswith("at most ")


def test_mesh_partial_run_gives_no_share_over_every_row(r):
    """Policy 3.2.7 (Table 3-140: 14 rows flagged or printed without a value, policy-E031): its share is given over the
    services whose rows are all usable, and said so."""
    from atlas.pages import mesh
    x = next(x for x in mesh.mesh_runs(r)["runs"] if x["scenario"] == "policy-3-2-7")
    assert mesh.share_text(x["overhead"]).startswith("partial: ") and "services with every row" in mesh.share_text(x["overhead"])
    html = mesh.table_html(r)
    row = re.search(r'<tr data-scenario="policy-3-2-7">.*?</tr>', html).group(0)
    assert "atlas-at-least" in row and "Table 3-140" in row


# ------------------------------------------------------------------ SQL

@pytest.fixture(scope="module")
def db(r):
    from atlas import downloads
    return downloads.database(r)


def test_the_page_queries_the_datasets_pages_database(r, db):
    from atlas import downloads
    from atlas.pages import shown
    assert db == shown.build_downloads(r).files[downloads.SQLITE]


@pytest.mark.parametrize("sql,said", [
    ("DELETE FROM resources", "starts with DELETE"),
    ("WITH x AS (SELECT 1) DELETE FROM resources", "asks for DELETE"),
    ("WITH x AS (SELECT 1) INSERT INTO sources (doc) SELECT 'x'", "asks for INSERT"),
    ("ATTACH ':memory:' AS other", "starts with ATTACH"),
    ("PRAGMA query_only = OFF", "starts with PRAGMA"),
    ("SELECT * FROM pragma_table_info('resources')", "table-valued PRAGMA function"),
    ("SELECT 1; DELETE FROM resources", "one statement at a time"),
    ("  -- a comment\n  UPDATE resources SET row = 0", "starts with UPDATE"),
    ("SELECT randomblob(20000000)", "string or blob too big"),
    ("SELECT nope FROM resources", "no such column: nope"),
    ("", "the query is empty"),
])
def test_anything_but_a_read_is_refused_with_a_message_naming_it(db, sql, said):
    from calculators import query
    with pytest.raises(query.QueryError, match=re.escape(said)):
        query.run_query(db, sql)
    # and the database is as it was: every row of every guide's resources.csv
    n = sum(len(DocData(d).rows("resources")) for d in ("bsf", "nef", "policy"))
    assert query.run_query(db, "SELECT count(*) FROM resources")["rows"] == [(n,)]


def test_the_copy_refuses_writes_even_without_the_authorizer(db):
    from calculators import query
    con = query.connect(db)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        con.execute("DELETE FROM sources")


def test_a_long_query_is_stopped(db):
    """A recursive WITH without end runs until the progress handler stops it: within the limit, plus a step."""
    import time
    from calculators import query
    t0 = time.monotonic()
    with pytest.raises(query.QueryError, match=r"stopped after 0\.5 s \(the time limit\)"):
        query.run_query(db, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", time_limit=0.5)
    assert time.monotonic() - t0 < 2.5
    assert query.run_query(db, "SELECT 1")["rows"] == [(1,)]  # the connection still answers


def test_rows_beyond_the_limit_are_not_read_and_said_so(db):
    from calculators import query
    res = query.run_query(db, "SELECT * FROM resources")  # 1,444 rows
    assert len(res["rows"]) == query.MAX_ROWS and res["more"]
    assert "Only the first 1,000 rows were read" in query.result_html(res)


def test_the_ranking_in_sql_gives_the_pages_requested_figures(db, ranking_rows):
    """The ranking example, without its LIMIT, gives every row of the page with a requested figure, the same figure to
    three decimals; the one it gives as NULL (Policy 3.2.8 perf-info: no CPU request printed) the page marks 'at least'."""
    from calculators import query
    res = query.run_query(db, query.example_sql("ranking").replace("LIMIT 100;", ";"), max_rows=5000)
    got = {(d["doc"], d["scenario"], d["service"]): d for d in (dict(zip(res["columns"], x)) for x in res["rows"])}
    page = {(x["doc"], x["scenario"], x["service"]): x for x in ranking_rows if x["cpu_request"] is not None}
    assert set(got) == set(page)
    for k, x in page.items():
        if got[k]["cpu_requested_per_1k"] is None:
            assert k == ("policy", "policy-3-2-8", "perf-info") and x["request_least"]
            continue
        assert got[k]["cpu_requested_per_1k"] == round(float(x["cpu_request_per_1k"]), 3), k
    top = query.run_query(db, query.example_sql("ranking"))["rows"][0]
    assert top[:3] == ("sm-service", "policy", "policy-3-2-3") and top[-1] == 31.814  # 684 / 21.5, by hand above


def test_every_example_runs_and_the_sidecar_example_counts_as_the_mesh_page(r, db):
    from atlas import guides
    from atlas.pages import calc_query, mesh
    from calculators import query
    shown = query.examples_of(guides.example(r, "sql"))
    assert [k for k, _, _ in shown] == ["ranking", "sidecars", query.GUIDE_EXAMPLE, "errata", "schema"]
    # the guide's example is the datasets page's (BSF's: Table 3-25 of BSF 3.3), titled by its first comment
    assert shown[2][1].startswith("BSF 3.3, Table 3-25") and html.escape(shown[2][1]) in calc_query.examples_html(r)
    for key, _, sql in shown:
        assert query.run_query(db, sql)["rows"], key
    res = query.run_query(db, query.example_sql("sidecars"))
    side = {d["scenario"]: d for d in (dict(zip(res["columns"], x)) for x in res["rows"])}
    for x in mesh.mesh_runs(r)["runs"]:
        o = x["overhead"]
        assert (side[x["scenario"]]["sidecar_cpu_cores"], side[x["scenario"]]["all_cpu_cores"]) == (round(o["cpu_sidecar"], 3), round(o["cpu_total"], 3))
        assert (side[x["scenario"]]["rows_not_used"] > 0) == bool(o["partial"]), x["scenario"]
    assert side["bsf-3-3"]["sidecar_cpu_cores"] == 280  # by hand: test_bsf_3_3_sidecar_cpu_by_hand


def test_query_through_the_catalogue_names_the_field_and_writes_csv(db):
    from calculators import catalogue
    bad = catalogue.run({"sqlite": db}, {"calc": "query", "sql": "DROP TABLE resources"})
    assert bad["ok"] is False and bad["field"] == "sql" and "DROP" in bad["error"]
    ok = catalogue.run({"sqlite": db}, {"calc": "query", "sql": "SELECT doc, load_per_site FROM scenarios WHERE scenario IN "
                                                              "('bsf-3-3', 'dsr-rbar') ORDER BY doc"})
    text = ok["downloads"]["csv"]["text"]
    assert text.splitlines()[-3:] == ["doc,load_per_site", "bsf,63000.0", "dsr,"]  # NULL as an empty cell
    assert 'data-atlas-table="query-result"' in ok["html"] and '<span class="atlas-missing">NULL</span>' in ok["html"]


def test_load_bundle_reads_a_sqlite_file_and_the_worker_passes_it_on(db):
    """The worker hands the page's data file to catalogue.load_bundle_file: a SQLite database is given as {"sqlite": bytes}."""
    from calculators import catalogue
    assert catalogue.load_bundle(db) == {"sqlite": db}
    assert catalogue.FILE_BUNDLES == {"query": "sqlite"} and catalogue.bundle_keys("query") == ()
    worker = (ROOT / "docs" / "assets" / "js" / "pyworker.mjs").read_text(encoding="utf-8")
    assert 'const file = data && SAFE_NAME.test(data.file || "") ? data.file : null;' in worker


# ------------------------------------------------------------------ the home chart

def _compiled_legends(spec: dict) -> list[dict]:
    """The Vega legends Vega-Lite (the site's, node_modules) compiles ``spec`` to."""
    script = ("import * as vl from " + json.dumps((ROOT / "node_modules" / "vega-lite" / "build" / "index.js").as_uri()) + ";\n"
              "let s = ''; for await (const c of process.stdin) s += c;\n"
              "process.stdout.write(JSON.stringify(vl.compile(JSON.parse(s)).spec.legends || []));\n")
    out = subprocess.run(["node", "--input-type=module", "-e", script], input=json.dumps(spec), capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout)


def test_home_chart_hollow_means_partial_only(r):
    """ASM was a hollow circle (every mark was unfilled) and a partial scenario hollow too. Now every complete scenario is
    filled, the ASM legend's symbols are filled, and only a partial scenario is hollow, with a dashed outline and its own
    legend, 'Services counted': complete filled, partial hollow."""
    from atlas.pages import home
    pts = home.efficiency_points(r)
    spec = home.spec(pts)
    assert spec["mark"]["filled"] is True
    assert spec["encoding"]["fill"]["condition"] == {"test": "datum.partial", "value": "transparent"}
    assert {p["counted_as"] for p in pts} == set(home.COUNTED) and all((p["counted_as"] == home.COUNTED[1]) == p["partial"] for p in pts)
    legends = {x["title"]: x for x in _compiled_legends(spec)}
    assert set(legends) == {"Product", "ASM", "Services counted"}
    asm_fill = legends["ASM"]["encode"]["symbols"]["update"]["fill"]
    assert asm_fill == {"value": home.LEGEND_GREY}  # filled shapes: "ASM on" is no longer a hollow circle
    counted = legends["Services counted"]
    assert counted["strokeDash"] == "strokeDash"
    fill = counted["encode"]["symbols"]["update"]["fill"]
    assert fill[0]["value"] == home.LEGEND_GREY and "complete" in fill[0]["test"] and fill[1] == {"value": "transparent"}


# ------------------------------------------------------------------ compare's release

def test_compare_says_release_not_stated_as_the_scenario_page_does(r):
    """DSR RBAR (3.2.2) states no release and no product version: its scenario page reads 'not stated in the guide', and so
    does the compare page (it left the cell blank)."""
    from atlas.pages import compare
    from atlas.pages.products import NOT_STATED
    facts = {f["key"]: f for f in compare.scenario_data(r, "dsr-rbar")["facts"]}
    assert facts["release"]["t"] == NOT_STATED == "not stated in the guide"
    assert f"<th>Release</th><td>{NOT_STATED}</td>" in r.facts(r.atlas.scenario("dsr-rbar"))
    assert {f["key"]: f for f in compare.scenario_data(r, "bsf-3-3")["facts"]}["release"]["t"] == "25.2.200"


# ------------------------------------------------------------------ DSR pages name sections, not seed lines

SEED_LINE = re.compile(r"\((?:seed )?lines? \d+|\bline \d+\)")


def test_dsr_scenario_notes_and_contradictions_name_sections(paged):
    """RBAR's 'Traffic generation' is printed in the prose of section 3.2.2 (seed line 307, kept in the data); DSA's
    contradiction cites 'note in 3.2.7' and Table 3-15 row 7 (lines 622 and 669, kept in the data)."""
    s = paged.atlas.scenario("dsr-rbar")
    assert any("(line 307)" in n for n in s["notes"])  # the curated note, provenance
    facts = paged.facts(s)
    assert "printed in the prose of section 3.2.2, not in a table" in facts and not SEED_LINE.search(facts)
    page = paged.scenario_page("dsr-dsa-all-stateful")
    assert "note in 3.2.7: <q>" in page and "(line 622)" not in page and "(line 669)" not in page


def test_dsr_guidance_names_the_section_each_rule_is_printed_in(r):
    """dsr-G01 quotes line 74 of the DSR guide, under '3.1.1.1 Hyper-Threading and CPU Over-Subscription' (line 62; the
    next heading, 3.1.1.2, is at line 93): the rules page names that section, not the line."""
    from atlas.pages import products
    lines = seed_path("dsr").read_text(encoding="utf-8").splitlines()
    assert lines[61] == "3.1.1.1 Hyper-Threading and CPU Over-Subscription" and lines[92].startswith("3.1.1.2 ")
    g01 = next(g for g in r.atlas.extras["dsr"]["guidance"] if g["id"] == "dsr-G01")
    assert g01["cite"]["line"] == 74 and g01["cite"]["section"] == "section 3.1.1.1 Hyper-Threading and CPU Over-Subscription"
    page = products.guidance_page(r, "dsr")
    assert "(section 3.1.1.1 Hyper-Threading and CPU Over-Subscription)" in page and not SEED_LINE.search(page)


def test_dsr_errata_found_by_a_line_name_its_section(r):
    """dsr-E007 ('an DRS', line 97) stands under 3.1.1.2 VM Packing Rate (lines 93 to 101): its 'where' says so; the line
    stays in its lines (provenance)."""
    e = next(e for e in r.atlas.errata if e["id"] == "dsr-E007")
    assert (e["where"], e["lines"]) == ("section 3.1.1.2 VM Packing Rate", [97])
    assert not any(re.fullmatch(r"line \d+", x["where"]) for x in r.atlas.errata if x["doc"] == "dsr")


# ------------------------------------------------------------------ phone layouts

def test_footprint_phone_labels_are_the_detail_tables_headers():
    """On a phone the footprint's detail table is a card per row, each value behind its column's name, written in
    calculator.css (the calculator pages' own stylesheet) by column number: they must be COLUMNS' headers, in order (a
    column added or moved fails here)."""
    from calculators.footprint_report import COLUMNS
    css = (ROOT / "docs" / "assets" / "css" / "calculator.css").read_text(encoding="utf-8")
    labels = dict(re.findall(r'\[data-calculator="footprint"\] table\.atlas-rows td:nth-child\((\d+)\)::before \{ content: "([^"]*)"', css))
    assert [labels.get(str(i)) for i in range(1, len(COLUMNS) + 1)] == [h for _, h in COLUMNS]


def test_dsr_chart_legend_labels_fit_a_phone(bundle):
    """The DSR result chart's legend at a phone's width: one label per line, none cut. Drawn by the build's own chart
    code (tools/vega_svg.mjs, the theme's narrow size: the legend labels' default limit 140 px, as charts.js sets on a
    phone); before, 'at the measured CPU peak (19%)' was cut ('at the measured CPU peak (…')."""
    from calculators import dsr
    spec = dsr.run_web(bundle, {"scenario": "dsr-relay-12vcpu", "target": "1000000", "ceiling": "60"})["chart"]
    out = subprocess.run(["node", str(ROOT / "tools" / "vega_svg.mjs"), str(ROOT / "node_modules"), str(ROOT / "atlas" / "chart_theme.json")],
                         input=json.dumps({"dsr": spec}), capture_output=True, text=True, timeout=120, check=True)
    narrow = json.loads(out.stdout)["dsr"]["narrow"]
    names = [v["series"] for v in spec["layer"][0]["data"]["values"]]
    assert any(n.startswith("at the measured CPU peak (") for n in names) and len(set(names)) >= 2
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", narrow)
    for name in set(names):
        assert name in texts, (name, [t for t in texts if t.startswith(name[:10])])
    assert not [t for t in texts if t.endswith("…")]


def test_a_result_keeps_an_id_on_one_line_and_lets_text_wrap():
    """An id such as 'policy-3-2-10' was broken at its hyphens in narrow columns: a value with no white space and at most
    40 characters stays on one line; text with spaces (a call model name) and a long value wrap; NULL is marked."""
    from calculators import query
    html = query.result_html({"columns": ["scenario", "call_model", "sql", "x"], "more": False, "ms": 1,
                              "rows": [("policy-3-2-10", "Policy data (Gx/Rx)", "x" * 41, None)]})
    cells = re.findall(r"<td[^>]*>.*?</td>", html)
    assert cells == ['<td class="atlas-nowrap">policy-3-2-10</td>', "<td>Policy data (Gx/Rx)</td>", f"<td>{'x' * 41}</td>",
                     '<td><span class="atlas-missing">NULL</span></td>']
