"""The query page (docs/data/query.md, ``{{ query_calculator() }}``): SQL over the datasets page's SQLite database, in
the browser (``calculators.query``), with the example queries one click away and the first one's result prerendered."""
from __future__ import annotations

from html import escape
from urllib.parse import urlencode

from calculators import query

from .. import guides
from ..downloads import SQLITE, database
from . import calculator_shell as cp

SHOWN_PATH = "data/query/" + query.SHOWN_FILE
"""Where the build writes the prerendered result's table as shown (the page is data/query/; its link is relative)."""


def examples_html(renderer) -> str:
    """The example queries as a list of links (``?sql=...``: each opens the page with that query, and queryexamples.js
    puts it in the box and computes it without reloading): ``query.EXAMPLES`` and the guides' example query (the
    datasets page's, ``atlas.guides`` example ``sql``)."""
    items = [f'<li><a class="atlas-query-example" data-example="{escape(key)}" href="?{escape(urlencode({"sql": sql}))}">'
             f'{escape(title)}</a></li>' for key, title, sql in query.examples_of(guides.example(renderer, "sql"))]
    return '<ul class="atlas-query-examples">' + "".join(items) + "</ul>"


def page(renderer) -> str:
    """The query page body (``{{ query_calculator() }}``): the SQL box, the examples, and the first example's result
    computed now on the database the datasets page offers (``downloads.database``). Its table as shown is written
    beside the page (SHOWN_PATH) for readers without JavaScript."""
    from ..tableview import shown_csv
    db = database(renderer)
    sql = query.EXAMPLES[0][2]
    form = f"""
  <div class="atlas-query-help"><span class="atlas-note">Examples (each replaces the query below and runs it):</span>{examples_html(renderer)}</div>
  <label class="atlas-query-box"><span>SQL (SQLite; read-only: SELECT or WITH, one statement, stopped after {query.TIME_LIMIT_S:g} s; at most {query.MAX_ROWS:,} rows)</span>
  <textarea name="sql" id="calc-sql" rows="16" spellcheck="false" autocapitalize="off" autocomplete="off">{escape(sql)}</textarea></label>"""
    html = cp.shell(renderer, "query", form, {"sql": sql}, bundle={"sqlite": db})
    res = query.run_query(db, sql)
    if hasattr(renderer, "files") and res["columns"]:
        renderer.files[SHOWN_PATH] = shown_csv(query.result_html(res))
    return html


def database_note(renderer) -> str:
    """One line naming the database the page queries: its file on the datasets page, size and SHA-256
    (``{{ query_database() }}``)."""
    from ..downloads import sha256
    db = database(renderer)
    return (f'<p class="atlas-note">The database: <a href="../../downloads/{SQLITE}" download><code>{SQLITE}</code></a> '
            f'({len(db) / 1024 / 1024:.1f} MiB, SHA-256 <code>{sha256(db)[:16]}…</code>), the one the '
            '<a href="../datasets/">datasets page</a> offers; this page loads a copy of it once, and every query runs on '
            'that copy in your browser.</p>')
