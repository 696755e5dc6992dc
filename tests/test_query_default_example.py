"""The query page with no SQL typed runs its first example (the ranking of services by CPU requested per 1K of load) on
a small database made here, whose rows are written out below so each expected value is computed by hand; the report's
Method sheet in its words; and the run time a result gives, in milliseconds, on a made-up clock (no real timing)."""
from __future__ import annotations

import sqlite3
import types

import pytest

from calculators import query, report


@pytest.fixture
def db() -> bytes:
    """One run (load 2,000 per site, traffic at site1 then site2) and the resources rows the ranking example reads."""
    con = sqlite3.connect(":memory:")
    con.executescript("""
        CREATE TABLE scenarios (doc TEXT, scenario TEXT, call_model_name TEXT, asm TEXT, deployment_mode TEXT,
                                load_per_site REAL, load_unit TEXT, sites_with_traffic TEXT);
        CREATE TABLE resources (doc TEXT, scenario TEXT, component TEXT, service TEXT, container TEXT, site TEXT,
                                line INTEGER, status TEXT, replicas INTEGER, replicas_max INTEGER,
                                cpu_request_cores REAL, cpu_cores REAL);
        INSERT INTO scenarios VALUES ('bsf', 'bsf-3-3', 'Model A', 'enabled', 'one site', 2000, 'TPS', 'site1;site2');
        INSERT INTO resources VALUES ('bsf', 'bsf-3-3', 'app', 'svc-a', 'main', 'site1', 10, 'ok', 2, NULL, 1.5, NULL);
        INSERT INTO resources VALUES ('bsf', 'bsf-3-3', 'app', 'svc-a', 'istio-proxy', 'site1', 11, 'ok', 2, NULL, 0.5, NULL);
        INSERT INTO resources VALUES ('bsf', 'bsf-3-3', 'app', 'svc-a', 'main', 'site2', 20, 'ok', 5, NULL, 9, NULL);
        INSERT INTO resources VALUES ('bsf', 'bsf-3-3', 'stub', 'svc-stub', 'main', 'site1', 30, 'ok', 1, NULL, 4, NULL);
        INSERT INTO resources VALUES ('bsf', 'bsf-3-3', 'app', 'svc-b', 'main', NULL, 40, 'flagged', 1, NULL, 8, NULL);
        INSERT INTO resources VALUES ('bsf', 'bsf-3-3', 'app', 'svc-c', 'main', NULL, 50, 'corrected', NULL, 3, NULL, 0.25);
    """)
    data = con.serialize()
    con.close()
    query._CONNECTIONS.clear()
    return data


# By hand: svc-a's main container is printed for site1 (line 10) and site2 (line 20); site1 is the first site carrying
# traffic, so line 10 is used: 2 replicas x 1.5 cores = 3.0, plus its istio-proxy 2 x 0.5 = 1.0: 4.0 cores,
# 1000 x 4.0 / 2000 = 2.0 per 1K. svc-c: no replica count, its range's max end 3 x 0.25 cores (no request printed)
# = 0.75 cores, 1000 x 0.75 / 2000 = 0.375 per 1K. The stub and the flagged svc-b are left out.
RANKING_CSV = ("service,doc,scenario,call_model,asm,deployment_mode,load_per_site,load_unit,cpu_requested_cores,"
               "cpu_requested_per_1k\n"
               "svc-a,bsf,bsf-3-3,Model A,enabled,one site,2000.0,TPS,4.0,2.0\n"
               "svc-c,bsf,bsf-3-3,Model A,enabled,one site,2000.0,TPS,0.75,0.375\n")


def test_the_page_without_sql_runs_the_ranking_example(db):
    out = query.run_web({"sqlite": db}, {})
    assert out["inputs"] == {"sql": query.EXAMPLES[0][2]} and query.EXAMPLES[0][0] == "ranking"
    assert out["downloads"]["csv"]["text"]() == RANKING_CSV
    assert query.run_web({"sqlite": db}, {"sql": ""})["inputs"] == {"sql": query.EXAMPLES[0][2]}


def test_the_report_without_sql_and_its_method_sheet(db):
    rep = query.report_web({"sqlite": db}, {})
    assert report.sheet_named(rep, "Inputs")["rows"][0][:2] == ["SQL", query.EXAMPLES[0][2]]
    assert report.sheet_named(rep, "Results")["rows"] == [
        ["svc-a", "bsf", "bsf-3-3", "Model A", "enabled", "one site", 2000.0, "TPS", 4.0, 2.0],
        ["svc-c", "bsf", "bsf-3-3", "Model A", "enabled", "one site", 2000.0, "TPS", 0.75, 0.375]]
    assert report.sheet_named(rep, "Method")["rows"] == [
        ["Database", "benchmark-atlas.sqlite: one table per download table, a view per document and table; every row "
                     "names its document, scenario, table and row."],
        ["Read-only", "The query ran on a copy of the database in memory; only SELECT and WITH were allowed."]]


def test_the_run_time_is_given_in_milliseconds(db, monkeypatch):
    """A clock (the module's ``time``, replaced for this test only) that reads 100.0 s when the query starts and
    100.25 s at every later reading: the run took 0.25 s = 250 ms."""
    readings = iter([100.0])
    monkeypatch.setattr(query, "time", types.SimpleNamespace(monotonic=lambda: next(readings, 100.25)))
    assert query.run_query(db, "SELECT 1")["ms"] == 250
