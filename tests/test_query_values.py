"""calculators/query.py on a small database made here (three rows written out below), so each expected value is read
off the rows by hand: statement kinds, refusals and their messages, the row limit, the table and CSV of a result,
the examples, and the page's and report's results through the catalogue."""
from __future__ import annotations

import re
import sqlite3

import pytest

from calculators import catalogue, query


@pytest.fixture
def db() -> bytes:
    con = sqlite3.connect(":memory:")
    con.executescript("""
        CREATE TABLE runs (id TEXT, load REAL, pods INTEGER, note TEXT, raw BLOB);
        INSERT INTO runs VALUES ('bsf-3-3', 63000.0, 17, NULL, x'00010203');
        INSERT INTO runs VALUES ('policy-3-2-10', 41000.5, 3, 'two words', NULL);
        INSERT INTO runs VALUES ('a', 0.1234567890123, 1, 'x', NULL);
    """)
    data = con.serialize()
    con.close()
    query._CONNECTIONS.clear()
    return data


@pytest.mark.parametrize("sql,kind", [
    ("select 1", "SELECT"), ("  \n\tWITH x AS (SELECT 1) SELECT * FROM x", "WITH"),
    ("-- a comment\nSELECT 1", "SELECT"), ("/* block\n comment */ delete from t", "DELETE"),
    ("-- only a comment", ""), ("", ""), ("/* a */ -- b\n /* c */ pragma x", "PRAGMA"), ("123", ""),
])
def test_statement_kind(sql, kind):
    assert query.statement_kind(sql) == kind


def test_a_query_reads_columns_and_rows(db):
    res = query.run_query(db, "SELECT id, pods FROM runs ORDER BY pods DESC")
    assert res["sql"] == "SELECT id, pods FROM runs ORDER BY pods DESC"
    assert res["columns"] == ["id", "pods"]
    assert res["rows"] == [("bsf-3-3", 17), ("policy-3-2-10", 3), ("a", 1)]
    assert res["more"] is False and isinstance(res["ms"], int) and res["ms"] >= 0


def test_rows_beyond_max_rows_are_left_unread_and_said(db):
    res = query.run_query(db, "SELECT pods FROM runs ORDER BY pods", max_rows=2)
    assert res["rows"] == [(1,), (3,)] and res["more"] is True
    res = query.run_query(db, "SELECT pods FROM runs ORDER BY pods", max_rows=3)
    assert len(res["rows"]) == 3 and res["more"] is False


@pytest.mark.parametrize("sql,said", [
    ("", "SQL: the query is empty. Write a SELECT (or WITH ... SELECT), or pick an example."),
    ("   \n ", "SQL: the query is empty."),
    ("DELETE FROM runs", "SQL: only queries that read run here (SELECT, or WITH ... SELECT); this one starts with DELETE."),
    ("-- nothing", "SQL: only queries that read run here (SELECT, or WITH ... SELECT); this one starts with no keyword. "
                   "The database is read-only."),
    ("SELECT 1; SELECT 2", "SQL: one statement at a time: this text holds more than one (a second one after a ';')."),
    ("SELECT * FROM nope", "SQL: no such table: nope."),
    ("SELECT * FROM pragma_table_info('runs')",
     "SQL: refused: the database is read-only, and this query asks for a table-valued PRAGMA function"),
])
def test_refusals_name_what_and_why(db, sql, said):
    with pytest.raises(query.QueryError) as e:
        query.run_query(db, sql)
    assert str(e.value).startswith(said)


def test_a_query_too_long_is_refused_with_its_length(db):
    sql = "SELECT 1" + " " * 20_000  # stripped: 8 characters, accepted
    assert query.run_query(db, sql)["rows"] == [(1,)]
    sql = "SELECT '" + "x" * 19_991 + "'"  # 20,000 characters: at the limit, accepted
    assert len(sql) == 20_000 and query.run_query(db, sql)["rows"][0][0] == "x" * 19_991
    with pytest.raises(query.QueryError, match="SQL: the query is 20,001 characters long; at most 20,000 are accepted."):
        query.run_query(db, "SELECT '" + "x" * 19_992 + "'")


def test_not_a_database(db):
    with pytest.raises(query.QueryError, match="The query page's data is not a SQLite database: rebuild the site"):
        query.run_query(b"not a database at all", "SELECT 1")
    with pytest.raises(query.QueryError, match="not a SQLite database"):
        query.run_query(None, "SELECT 1")
    with pytest.raises(query.QueryError, match="not a SQLite database"):
        query.connect("SQLite format 3\x00")  # text, not bytes


def test_the_connection_is_kept_for_the_same_bytes_and_is_read_only(db):
    a = query.connect(db)
    assert query.connect(db) is a
    other = bytes(bytearray(db))  # the same bytes, another object: another copy
    assert query.connect(other) is not a
    with pytest.raises(sqlite3.OperationalError, match="readonly|read-only|attempt to write"):
        query.connect(other).execute("DELETE FROM runs")


def test_the_values_are_shown_by_type():
    assert query._shown(0.1234567890123) == "0.123456789"   # 10 significant digits
    assert query._shown(63000.0) == "63000"
    assert query._shown(b"\x00\x01\x02\x03") == "(blob, 4 bytes)"
    assert query._shown(bytearray(2000)) == "(blob, 2,000 bytes)"
    assert query._shown(17) == "17" and query._shown("a<b") == "a<b"


def test_cells_keep_a_short_word_on_one_line():
    assert query._cell(None) == '<td><span class="atlas-missing">NULL</span></td>'
    assert query._cell("policy-3-2-10") == '<td class="atlas-nowrap">policy-3-2-10</td>'
    assert query._cell("two words") == "<td>two words</td>"
    assert query._cell("x" * 40) == f'<td class="atlas-nowrap">{"x" * 40}</td>'   # 40 characters: one line
    assert query._cell("x" * 41) == f"<td>{'x' * 41}</td>"
    assert query._cell("a\tb") == "<td>a\tb</td>"
    assert query._cell("<b>") == '<td class="atlas-nowrap">&lt;b&gt;</td>'


def test_result_html_by_hand(db):
    res = query.run_query(db, "SELECT id, note FROM runs ORDER BY pods")
    html = query.result_html(res)
    assert html.startswith('<p class="atlas-query-summary">3 rows, 2 columns.</p>')
    assert "<thead><tr><th>id</th><th>note</th></tr></thead>" in html
    assert '<tbody><tr><td class="atlas-nowrap">a</td><td class="atlas-nowrap">x</td></tr>' in html
    assert 'data-atlas-table="query-result"' in html and 'href="query-as-shown.csv"' in html
    assert "Only the first" not in html
    one = query.result_html(query.run_query(db, "SELECT id FROM runs LIMIT 1"))
    assert one.startswith('<p class="atlas-query-summary">1 row, 1 column.</p>')
    more = query.result_html({"columns": ["a"], "rows": [(1,)], "more": True, "ms": 5})
    assert ("1 row, 1 column. Only the first 1,000 rows were read: add <code>LIMIT</code> and <code>OFFSET</code>, or a "
            "<code>WHERE</code>, to see others.</p>") in more
    # no columns: the summary alone, no table
    assert query.result_html({"columns": [], "rows": [], "more": False, "ms": 0}) == \
        '<p class="atlas-query-summary">0 rows, 0 columns.</p>'


def test_result_csv_by_hand(db):
    res = query.run_query(db, "SELECT id, load, pods, note, raw FROM runs ORDER BY pods DESC")
    assert query.result_csv(res) == ("id,load,pods,note,raw\n"
                                      "bsf-3-3,63000.0,17,,\"(blob, 4 bytes)\"\n"
                                      "policy-3-2-10,41000.5,3,two words,\n"
                                      "a,0.1234567890123,1,x,\n")


def test_examples_of_puts_a_guides_example_third():
    assert query.examples_of(None) == query.EXAMPLES and query.examples_of("") == query.EXAMPLES
    got = query.examples_of("  -- BSF 3.3, Table 3-25: services\nSELECT 1")
    assert [k for k, _, _ in got] == ["ranking", "sidecars", "guide", "errata", "schema"]
    assert got[2] == ("guide", "BSF 3.3, Table 3-25: services (the datasets page's example)",
                      "  -- BSF 3.3, Table 3-25: services\nSELECT 1")
    assert query.examples_of("SELECT 1")[2][1] == "One guide's table (the datasets page's example)"


def test_example_sql():
    assert query.example_sql("errata").startswith("-- How many defects the curation found in each guide")
    with pytest.raises(query.QueryError, match=re.escape(
            "Unknown example 'nope'; the examples are ranking, sidecars, errata, schema.")):
        query.example_sql("nope")


def test_the_page_and_the_report_through_the_catalogue(db):
    out = catalogue.run({"sqlite": db}, {"calc": "query", "sql": "SELECT id, pods FROM runs ORDER BY pods"})
    assert out["ok"] and out["inputs"] == {"sql": "SELECT id, pods FROM runs ORDER BY pods"}
    d = out["downloads"]["csv"]
    assert (d["mime"], d["filename"], d["label"]) == ("text/csv", "query-result.csv", "CSV")
    assert d["text"].endswith("id,pods\na,1\npolicy-3-2-10,3\nbsf-3-3,17\n")
    bad = catalogue.run({"sqlite": db}, {"calc": "query", "sql": "DROP TABLE runs"})
    assert bad["ok"] is False and bad["field"] == "sql"
    rep = catalogue.report({"sqlite": db}, {"calc": "query", "sql": "SELECT id, raw, load FROM runs ORDER BY pods DESC"})
    assert rep["ok"], rep
    r = rep["report"]
    assert (r["calculator"], r["title"], r["subtitle"], r["filename"]) == \
        ("query", "SQL query on the Benchmark Atlas database", "3 rows", "query-result.xlsx")
    sheets = {s["name"]: s for s in r["sheets"]}
    assert [c["header"] for c in sheets["Results"]["columns"]] == ["id", "raw", "load"]
    assert sheets["Results"]["rows"] == [["bsf-3-3", "(blob, 4 bytes)", 63000.0], ["policy-3-2-10", None, 41000.5],
                                         ["a", None, 0.1234567890123]]
    assert sheets["Totals"]["rows"] == [[3, 3]]
    assert [c["header"] for c in sheets["Totals"]["columns"]] == ["Rows", "Columns"]
    assert sheets["Inputs"]["rows"][0][:2] == ["SQL", "SELECT id, raw, load FROM runs ORDER BY pods DESC"]
    assert sheets["Warnings"]["rows"] == [["none", "No warnings for these inputs."]]


def test_the_report_says_when_rows_were_left_unread(db):
    # 1,001 rows made by the query: the first 1,000 (MAX_ROWS) are read
    rep = query.report_web({"sqlite": db}, {"sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                                                   "LIMIT 1001) SELECT x FROM c"})
    sheets = {s["name"]: s for s in rep["sheets"]}
    assert sheets["Warnings"]["rows"] == [["rows", "Only the first 1,000 rows were read."]]
    assert sheets["Totals"]["rows"] == [[1000, 1]] and rep["subtitle"] == "1,000 rows"
    assert sheets["Results"]["rows"][-1] == [1000]
