"""SQL over the atlas's SQLite database, read-only and time-limited, in the browser (the query page) and in CPython.

Standard library only (``sqlite3`` is part of Pyodide's standard library): this module runs unchanged in Pyodide.

The database is the datasets page's ``downloads/benchmark-atlas.sqlite`` (``atlas.downloads.sqlite_bytes``: one table
per download table, a view per document and table, ``sources`` and ``about``). The calculator's data is that file itself:
``bundle["sqlite"]`` holds its bytes (``calculators.catalogue.load_bundle`` gives a SQLite file so; the build serves
the same bytes as the page's data file). Nothing leaves the page: the query runs on a copy of the database in memory.

What a query may do, and how that is held:

* **read only**: the copy is opened in memory (``Connection.deserialize``), ``PRAGMA query_only`` is set, and an
  authorizer allows reading tables and views, SELECT, functions and recursive WITH (``ALLOWED``) and denies every other
  action (writes, schema changes, ATTACH, PRAGMA, transactions); a statement must start with SELECT or WITH (after
  comments), and only one statement runs at a time;
* **time-limited**: a progress handler stops a query that runs longer than ``TIME_LIMIT_S`` seconds (3), so a
  runaway query (a recursive WITH without end, a cross join of every table) ends with a message and the page stays
  usable; text and blobs are limited to ``MAX_VALUE_BYTES`` (10 MB) each, so no value can exhaust the memory;
* **bounded output**: at most ``MAX_ROWS`` rows are read (1,000); the result says when there were more.

Errors: ``QueryError`` (a ValueError) for anything refused or failed, its message naming what and why (the statement
kind that was refused, SQLite's own message with the position where it stopped, the time limit).
"""
from __future__ import annotations

import io
import re
import sqlite3
import sys
import time

from . import catalogue
from .catalogue import SQLITE_HEADER
from .formatting import csv_writer, escape, fmt


class QueryError(ValueError):
    """A query refused (not read-only, more than one statement), failed (SQLite's message) or stopped (time limit)."""


TIME_LIMIT_S = 3.0
"""Seconds a query may run before the progress handler stops it (the page's own run limit is 20 s: calculator.js)."""
PROGRESS_STEPS = 20_000
"""SQLite virtual-machine steps between two checks of the clock (a few ms of work)."""
MAX_ROWS = 1000
"""Rows of a result read and shown; the CSV download holds the same rows."""
MAX_VALUE_BYTES = 10_000_000
"""The longest text or blob a query may make (SQLITE_LIMIT_LENGTH): randomblob(2e9) is refused, not allocated."""
MAX_SQL_CHARS = 20_000
"""The longest query text accepted."""
SHOWN_FILE = "query-as-shown.csv"
"""The "CSV (as shown)" link's file, beside the page: the build writes the prerendered example's table there (readers
without JavaScript); with JavaScript, tables.js writes the table as sorted and filtered, under this name."""

ALLOWED = {sqlite3.SQLITE_SELECT: "SELECT", sqlite3.SQLITE_READ: "read", sqlite3.SQLITE_FUNCTION: "function",
           sqlite3.SQLITE_RECURSIVE: "recursive WITH"}
"""The authorizer's allowed actions; every other one is denied (and named in the message)."""
ACTION_NAMES = {sqlite3.SQLITE_INSERT: "INSERT", sqlite3.SQLITE_UPDATE: "UPDATE", sqlite3.SQLITE_DELETE: "DELETE",
                sqlite3.SQLITE_PRAGMA: "PRAGMA", sqlite3.SQLITE_ATTACH: "ATTACH", sqlite3.SQLITE_DETACH: "DETACH",
                sqlite3.SQLITE_TRANSACTION: "a transaction (BEGIN, COMMIT)", sqlite3.SQLITE_SAVEPOINT: "SAVEPOINT",
                sqlite3.SQLITE_ALTER_TABLE: "ALTER TABLE", sqlite3.SQLITE_REINDEX: "REINDEX", sqlite3.SQLITE_ANALYZE: "ANALYZE",
                sqlite3.SQLITE_CREATE_TABLE: "CREATE TABLE", sqlite3.SQLITE_CREATE_TEMP_TABLE: "CREATE TEMP TABLE",
                sqlite3.SQLITE_CREATE_VIEW: "CREATE VIEW", sqlite3.SQLITE_CREATE_TEMP_VIEW: "CREATE TEMP VIEW",
                sqlite3.SQLITE_CREATE_INDEX: "CREATE INDEX", sqlite3.SQLITE_CREATE_TRIGGER: "CREATE TRIGGER",
                sqlite3.SQLITE_DROP_TABLE: "DROP TABLE", sqlite3.SQLITE_DROP_VIEW: "DROP VIEW", sqlite3.SQLITE_DROP_INDEX: "DROP INDEX",
                sqlite3.SQLITE_DROP_TRIGGER: "DROP TRIGGER", sqlite3.SQLITE_CREATE_VTABLE: "CREATE VIRTUAL TABLE",
                sqlite3.SQLITE_DROP_VTABLE: "DROP VIRTUAL TABLE"}
"""How a denied action is named to the reader."""

EXAMPLES = (
    ("ranking", "Services by CPU requested per 1K of load, every run (the ranking page, in SQL)", """\
-- CPU requested per 1K of load, per service and run, highest first: the requested figure of the
-- "Services by CPU per 1K of load" page. One site carrying traffic: per container, its row printed
-- for no site or for the first site carrying traffic (else its first row printed for another site);
-- replicas (a min-max range at its max end) x the CPU request per container (the one CPU figure
-- where the table does not say request or limit), every container of the pod, sidecars included;
-- test stubs and simulators left out. Rows flagged by an erratum or printed without a value are
-- left out (the page marks those services "at least").
WITH run AS (
  SELECT doc, scenario, call_model_name, asm, deployment_mode, load_per_site, load_unit,
         substr(sites_with_traffic || ';', 1, instr(sites_with_traffic || ';', ';') - 1) AS first_site
  FROM scenarios
  WHERE load_per_site > 0
),
used_row AS (
  SELECT r.*, run.call_model_name, run.asm, run.deployment_mode, run.load_per_site, run.load_unit,
         row_number() OVER (PARTITION BY r.doc, r.scenario, r.component, r.service, r.container
                            ORDER BY coalesce(r.site, '') NOT IN ('', run.first_site), r.line) AS pick
  FROM resources AS r JOIN run USING (doc, scenario)
  WHERE r.status IN ('ok', 'corrected') AND r.component NOT IN ('stub', 'simulator')
)
SELECT service, doc, scenario, call_model_name AS call_model, asm, deployment_mode, load_per_site, load_unit,
       round(sum(coalesce(replicas, replicas_max) * coalesce(cpu_request_cores, cpu_cores)), 3)
         AS cpu_requested_cores,
       round(1000 * sum(coalesce(replicas, replicas_max) * coalesce(cpu_request_cores, cpu_cores))
             / load_per_site, 3) AS cpu_requested_per_1k
FROM used_row
WHERE pick = 1
GROUP BY doc, scenario, component, service
ORDER BY cpu_requested_per_1k DESC, doc, scenario, service
LIMIT 100;"""),
    ("sidecars", "Sidecar share of requested CPU, every run with ASM on", """\
-- The istio-proxy sidecars' share of the CPU requested at one site carrying traffic, per run with
-- ASM on, counted as the ranking counts (one row per container). The mesh page counts the same rows;
-- a run with rows not used (flagged by an erratum or printed without a value) is partial there, its
-- share over every row a mix of counted and missing services: the page gives it over the complete ones.
WITH run AS (
  SELECT doc, scenario, section, asm,
         substr(sites_with_traffic || ';', 1, instr(sites_with_traffic || ';', ';') - 1) AS first_site
  FROM scenarios
  WHERE asm IN ('enabled', 'partial')
),
used_row AS (
  SELECT r.*, run.section, run.asm,
         coalesce(r.replicas, r.replicas_max) * coalesce(r.cpu_request_cores, r.cpu_cores) AS cpu,
         row_number() OVER (PARTITION BY r.doc, r.scenario, r.component, r.service, r.container
                            ORDER BY coalesce(r.site, '') NOT IN ('', run.first_site), r.line) AS pick
  FROM resources AS r JOIN run USING (doc, scenario)
  WHERE r.status IN ('ok', 'corrected') AND r.component NOT IN ('stub', 'simulator')
)
SELECT doc, scenario, section, asm,
       round(sum(CASE WHEN is_sidecar = 1 THEN cpu ELSE 0 END), 3) AS sidecar_cpu_cores,
       round(sum(cpu), 3) AS all_cpu_cores,
       round(100.0 * sum(CASE WHEN is_sidecar = 1 THEN cpu ELSE 0 END) / sum(cpu), 1) AS sidecar_share_percent,
       (SELECT count(*) FROM resources AS x WHERE x.doc = used_row.doc AND x.scenario = used_row.scenario
          AND x.status IN ('flagged', 'missing') AND x.component NOT IN ('stub', 'simulator')) AS rows_not_used
FROM used_row
WHERE pick = 1
GROUP BY doc, scenario
HAVING sidecar_cpu_cores > 0
ORDER BY sidecar_share_percent DESC;"""),
    ("errata", "Errata per guide and action taken", """\
-- How many defects the curation found in each guide, and what was done with them.
SELECT doc, action, count(*) AS errata
FROM errata
GROUP BY doc, action
ORDER BY doc, errata DESC;"""),
    ("schema", "Every table and view, with its columns and units", """\
-- The database's tables and views; each CREATE statement names its columns, types and units.
SELECT type, name, sql
FROM sqlite_master
WHERE type IN ('table', 'view')
ORDER BY type, name;"""),
)
"""The page's example queries over every guide: (key, title, SQL). The first is the default (prerendered at build
time). The page adds the datasets page's example query, one guide's table (``atlas.guides`` example ``sql``), as
GUIDE_EXAMPLE: this module names no guide."""
GUIDE_EXAMPLE = "guide"
"""The key of the page's example that a guide provides (``examples_of``)."""

_LEAD = re.compile(r"\A(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?\*/)*", re.S)
_CONNECTIONS: list[tuple[bytes, sqlite3.Connection]] = []


def statement_kind(sql: str) -> str:
    """The first keyword of ``sql`` after white space and comments, upper case ('' when there is none)."""
    rest = sql[_LEAD.match(sql).end():]
    m = re.match(r"[A-Za-z]+", rest)
    return m.group(0).upper() if m else ""


def connect(db: bytes) -> sqlite3.Connection:
    """A read-only connection to a copy, in memory, of the SQLite database ``db`` (bytes): query_only, the value length
    limited (MAX_VALUE_BYTES). The last one made is kept for the same bytes object (a page's runs share it). Raises
    QueryError when ``db`` is not a SQLite database."""
    if not isinstance(db, (bytes, bytearray)) or not bytes(db[:16]) == SQLITE_HEADER:
        raise QueryError("The query page's data is not a SQLite database: rebuild the site (make build).")
    for held, con in _CONNECTIONS:
        if held is db:
            return con
    con = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    con.deserialize(bytes(db))
    con.execute("PRAGMA query_only = ON")
    con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    _CONNECTIONS[:] = [(db, con)]
    return con


def run_query(db: bytes, sql: str, time_limit: float = TIME_LIMIT_S, max_rows: int = MAX_ROWS) -> dict:
    """Run the one read-only statement ``sql`` on the database ``db`` (bytes of a SQLite file).

    Returns ``{"sql", "columns": [names], "rows": [tuples of values: int, float, str, bytes or None], "more": bool (rows
    beyond ``max_rows`` were not read), "ms": run time in ms}``. Raises QueryError: empty or too long text, a statement
    that is not SELECT or WITH, an action the authorizer denies (named: DELETE, ATTACH, PRAGMA, ...), more than one
    statement, SQLite's own error (its message), or a run longer than ``time_limit`` seconds (stopped)."""
    sql = (sql or "").strip()
    if not sql:
        raise QueryError("SQL: the query is empty. Write a SELECT (or WITH ... SELECT), or pick an example.")
    if len(sql) > MAX_SQL_CHARS:
        raise QueryError(f"SQL: the query is {len(sql):,} characters long; at most {MAX_SQL_CHARS:,} are accepted.")
    kind = statement_kind(sql)
    if kind not in ("SELECT", "WITH"):
        raise QueryError(f"SQL: only queries that read run here (SELECT, or WITH ... SELECT); this one starts with "
                         f"{kind or 'no keyword'}. The database is read-only.")
    con = connect(db)
    denied: list[str] = []

    def authorize(action, arg1, arg2, dbname, source):
        if action in ALLOWED:
            return sqlite3.SQLITE_OK
        name = ACTION_NAMES.get(action, f"action {action}")
        if action == sqlite3.SQLITE_UPDATE and arg1 in ("sqlite_master", "sqlite_schema", "sqlite_temp_master"):
            name = "a table-valued PRAGMA function (pragma_table_info and the like; read sqlite_master instead)"
        if name not in denied:
            denied.append(name + (f" ({arg1})" if action in (sqlite3.SQLITE_PRAGMA, sqlite3.SQLITE_ATTACH) and arg1 else ""))
        return sqlite3.SQLITE_DENY

    deadline = [0.0]

    def progress():
        return 1 if time.monotonic() > deadline[0] else 0

    con.set_authorizer(authorize)
    con.set_progress_handler(progress, PROGRESS_STEPS)
    t0 = time.monotonic()
    deadline[0] = t0 + time_limit
    try:
        cur = con.execute(sql)
        rows = cur.fetchmany(max_rows + 1)
        columns = [d[0] for d in cur.description or []]
        cur.close()
    except (sqlite3.Warning, sqlite3.Error) as e:
        if "one statement at a time" in str(e):
            raise QueryError("SQL: one statement at a time: this text holds more than one (a second one after a ';').") from None
        if denied:
            raise QueryError(f"SQL: refused: the database is read-only, and this query asks for {', '.join(denied)}.") from None
        if "interrupted" in str(e) and time.monotonic() >= deadline[0]:
            raise QueryError(f"SQL: the query was stopped after {fmt(time_limit)} s (the time limit). Narrow it with WHERE "
                             "or LIMIT, or drop a join.") from None
        raise QueryError(f"SQL: {e}.") from None
    finally:
        con.set_progress_handler(None, 0)
        con.set_authorizer(None)
        if con.in_transaction:
            con.rollback()
    return {"sql": sql, "columns": columns, "rows": rows[:max_rows], "more": len(rows) > max_rows,
            "ms": round((time.monotonic() - t0) * 1000)}


def _shown(v) -> str:
    """A value as the table shows it: text as it is, integers as they are, a real with at most 10 significant digits,
    a blob by its size; NULL is shown apart (``result_html``)."""
    if isinstance(v, float):
        return format(v, ".10g")
    if isinstance(v, (bytes, bytearray)):
        return f"(blob, {len(v):,} bytes)"
    return str(v)


NOWRAP_CHARS = 40
"""A value with no white space and at most this many characters is kept on one line (an id such as policy-3-2-10 was
broken at its hyphens when the columns were narrow); longer text wraps."""


def _cell(v) -> str:
    """One result cell: NULL marked as such, a short word on one line (NOWRAP_CHARS), every text escaped."""
    if v is None:
        return '<td><span class="atlas-missing">NULL</span></td>'
    text = _shown(v)
    one_line = len(text) <= NOWRAP_CHARS and not any(c.isspace() for c in text)
    return ('<td class="atlas-nowrap">' if one_line else "<td>") + escape(text) + "</td>"


def result_html(res: dict) -> str:
    """The result as an HTML table (``data-atlas-table="query-result"``: sortable and filterable on the page, with its
    "CSV (as shown)" link), a line saying how many rows and how long, and the note when rows were left unread. Every
    text escaped."""
    n = len(res["rows"])
    head = "".join(f"<th>{escape(c)}</th>" for c in res["columns"])
    body = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in res["rows"])
    more = (f' Only the first {MAX_ROWS:,} rows were read: add <code>LIMIT</code> and <code>OFFSET</code>, or a '
            '<code>WHERE</code>, to see others.' if res["more"] else "")
    # the run time only where the reader ran the query (Pyodide): the build's prerendered example must be the same
    # bytes from one build to the next (tests/test_links.py), and the build machine's time says nothing to a reader
    took = f', in {res["ms"]:,} ms' if sys.platform == "emscripten" else ""
    out = [f'<p class="atlas-query-summary">{n:,} {"row" if n == 1 else "rows"}, {len(res["columns"])} '
           f'{"column" if len(res["columns"]) == 1 else "columns"}{took}.{more}</p>']
    if res["columns"]:
        out.append('<div class="atlas-table-wrap"><table class="atlas-data atlas-query-result" data-atlas-table="query-result">'
                   f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
                   f'<p class="atlas-download">Download: <a class="atlas-download-shown" href="{SHOWN_FILE}" download '
                   'data-atlas-for="query-result">CSV (as shown)</a> <span class="atlas-note">(the rows as sorted and filtered '
                   'here; the CSV link above holds the result as the query gave it)</span></p>')
    return "".join(out)


def result_csv(res: dict) -> str:
    """The result as CSV: the column names, then every row read, values as SQLite gives them (NULL empty, a real in
    full precision, a blob by its size)."""
    buf = io.StringIO()
    w = csv_writer(buf)
    w.writerow(res["columns"])
    for row in res["rows"]:
        w.writerow(["" if v is None else repr(v) if isinstance(v, float) else _shown(v) for v in row])
    return buf.getvalue()


def examples_of(guide_sql: str | None) -> tuple[tuple[str, str, str], ...]:
    """The page's examples: EXAMPLES with, third, a guide's example query ``guide_sql`` (SQL text whose first line is a
    comment naming its guide, section and table, e.g. "-- BSF 3.3, Table 3-25: ..."; its title is that comment), when
    there is one. Returns ((key, title, SQL), ...)."""
    if not guide_sql:
        return EXAMPLES
    first = guide_sql.strip().splitlines()[0]
    title = first[2:].strip() if first.startswith("--") else "One guide's table"
    return EXAMPLES[:2] + ((GUIDE_EXAMPLE, title + " (the datasets page's example)", guide_sql),) + EXAMPLES[2:]


def example_sql(key: str) -> str:
    """The SQL of example ``key`` (EXAMPLES). Raises QueryError for an unknown key."""
    for k, _, sql in EXAMPLES:
        if k == key:
            return sql
    raise QueryError(f"Unknown example {key!r}; the examples are {', '.join(k for k, _, _ in EXAMPLES)}.")


def run_web(bundle: dict, params: dict) -> dict:
    """The query page for ``calculators.catalogue.run``: ``params["sql"]`` (the query as typed; empty: the first example)
    on ``bundle["sqlite"]``. Returns ``{html, inputs: {sql}, downloads: {csv}}``. Raises QueryError."""
    sql = params.get("sql") or EXAMPLES[0][2]
    res = run_query(bundle.get("sqlite"), sql)
    return {"html": result_html(res), "inputs": {"sql": sql},
            "downloads": {"csv": {"text": lambda: result_csv(res), "mime": "text/csv", "filename": "query-result.csv"}}}


def report_web(bundle: dict, params: dict) -> dict:
    """The report (``calculators.report``) of the result ``run_web`` gives: the query as its input, the rows as results.
    Raises QueryError."""
    from . import report
    sql = params.get("sql") or EXAMPLES[0][2]
    res = run_query(bundle.get("sqlite"), sql)
    cols = [report.col(c) for c in res["columns"]] or [report.col("(no columns)")]
    rows = [[None if v is None else v if isinstance(v, (int, float, str)) else _shown(v) for v in row] for row in res["rows"]]
    warnings = [["rows", f"Only the first {MAX_ROWS:,} rows were read."]] if res["more"] else []
    return report.build(
        "query", "SQL query on the Benchmark Atlas database", f"{len(rows):,} rows", "query-result.xlsx",
        inputs=[["SQL", sql, None, "run read-only on benchmark-atlas.sqlite (the datasets page's database)"]],
        results={"columns": cols, "rows": rows},
        # no run time: it is the reader's machine's, not the data's, and the build's default report must be the same
        # bytes from one build to the next (tests/test_links.py)
        totals={"columns": [report.col("Rows"), report.col("Columns")], "rows": [[len(rows), len(res["columns"])]]},
        warnings=warnings,
        method=[["Database", "benchmark-atlas.sqlite: one table per download table, a view per document and table; every "
                             "row names its document, scenario, table and row."],
                ["Read-only", "The query ran on a copy of the database in memory; only SELECT and WITH were allowed."]],
        sources=[["Every row", "the guides named in the table sources", None, None, None, None, None, None, None]])


catalogue.register("query", run_web, QueryError, report_web, fields={"SQL": "sql"})
