"""The Data section's pages, rendered from data/ and from the downloads (``atlas.downloads``): the
datasets page (every file with its size and checksum), the data dictionary (from the schemas),
the errata and the coverage page (every table id of every guide), and the download links under
each rendered table."""
from __future__ import annotations

import json
from pathlib import Path

from .. import guides
from ..downloads import KINDS, NAMES, SQLITE, WORKBOOK, built, record_rows, rights, schema, sha256, view_name
from ..html import anchor, esc, md_esc
from .views import facet_bar, row_attrs, shown_link


def _loose(renderer, doc: str) -> set[str]:
    """Tables of doc on no scenario page (rendered on the product page)."""
    listed = {tid for s in renderer.atlas.scenarios if s["doc"] == doc for tid in s["tables"]}
    return {t["id"] for t in renderer.atlas.tables if t["doc"] == doc and t["id"] not in listed}


def table_download_links(renderer, doc: str, table: dict) -> str:
    """The links under every rendered table: "CSV (as shown)", the table as the page shows it (same columns and
    cell text; with JavaScript the visible rows in their visible order), then "CSV (tidy, long)", the rows of
    data/<doc>/<kind>.csv for this table in the same columns, and the rows the curation put in another kind's file."""
    b = built(renderer)
    key = (doc, table["id"])
    p = b.tables.get(key)
    extra = b.extra.get(key, {})
    if not p and not extra:
        return ""
    # Scenario pages live at products/<doc>/<scenario>/, product pages at products/<doc>/.
    up = "../../" if table["id"] in _loose(renderer, doc) else "../../../"
    links = []
    if key in b.shown:
        links.append(shown_link(f"{up}downloads/{b.shown[key]}", table["id"]))
    if p:
        rows = len(renderer.atlas.rows(table["kind"], doc=doc, table_id=table["id"]))
        links.append(f'<a class="atlas-download-table" href="{up}downloads/{esc(p)}" download data-rows="{rows}">'
                     f'CSV (tidy, long)</a> <span class="atlas-note">{rows} rows of <code>{esc(table["kind"])}.csv</code>, '
                     f'{_size(len(b.table_bytes[p]))}</span>')
    for kind, q in extra.items():
        rows = len(renderer.atlas.rows(kind, doc=doc, table_id=table["id"]))
        links.append(f'<a class="atlas-download-extra" href="{up}downloads/{esc(q)}" download data-rows="{rows}">'
                     f'{esc(kind)} rows of this table (CSV, tidy, long)</a> <span class="atlas-note">{rows} rows in '
                     f'<code>{esc(kind)}.csv</code></span>')
    return '<p class="atlas-download">Download: ' + " · ".join(links) + "</p>"


TIDY_OF_VIEW = {"scenarios": "scenarios", "errata": "errata"}
"""Page tables whose tidy long form is a whole download (csv/<name>.csv), linked beside their "as shown" CSV."""


def view_links(renderer, key: tuple, up: str) -> str:
    """The download links under a page table (home, product scenarios, errata): "CSV (as shown)" and, where one
    exists, the tidy long download it comes from. ``key``: ("views", page, table) of ``shown.shown_tables``;
    ``up``: the relative path from the page to the site root. Raises KeyError for a key the build has no file for."""
    b = built(renderer)
    table = key[2]
    links = [shown_link(f"{up}downloads/{b.shown[key]}", table)]
    tidy = TIDY_OF_VIEW.get(table)
    if tidy:
        links.append(f'<a class="atlas-download-tidy" href="{up}downloads/csv/{tidy}.csv" download>CSV (tidy, long: {esc(tidy)}.csv, '
                     f'every document)</a>')
    return '<p class="atlas-download">Download: ' + " · ".join(links) + "</p>"


# ---------------------------------------------------------------- pages
def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / 1024 / 1024:.2f} MiB"


def _link(path: str, label: str, data: bytes) -> str:
    return (f'<a href="../../downloads/{esc(path)}" download>{esc(label)}</a> '
            f'<span class="atlas-note atlas-nowrap">{_size(len(data))}</span>')




def datasets_page(renderer) -> str:
    """The datasets page (``{{ datasets_page() }}``): every download with its rows, size and checksum, the workbook,
    the data package and the sources with their rights note."""
    b = built(renderer)
    a = renderer.atlas
    sql = guides.example(renderer, "sql")  # a guide's example query (atlas.guides): BSF 3.3's Table 3-25
    out = ['<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="downloads"><thead><tr>'
           "<th>Table</th><th>Rows</th><th>What one row is</th><th>CSV</th><th>JSON</th></tr></thead><tbody>"]
    for name in NAMES:
        sch = schema(renderer.atlas, name)
        out.append(f'<tr><td class="atlas-nowrap"><a href="../dictionary/#{esc(name)}"><code>{esc(name)}</code></a></td>'
                   f'<td>{b.rows[name]}</td><td>{esc(sch.get("description", ""))}</td>'
                   f'<td class="atlas-nowrap">{_link(f"csv/{name}.csv", "CSV", b.files[f"csv/{name}.csv"])}</td>'
                   f'<td class="atlas-nowrap">{_link(f"json/{name}.json", "JSON", b.files[f"json/{name}.json"])}</td></tr>')
    out.append("</tbody></table></div>")
    out += ["", "## All tables in one file", "",
            '<ul class="atlas-downloads">'
            f'<li>{_link(WORKBOOK, "Excel workbook (" + WORKBOOK + ")", b.files[WORKBOOK])}: one sheet per table above, '
            "header row frozen and filterable, the unit of every numeric column in its header, an <em>about</em> sheet with "
            "the sources.</li>"
            f'<li>{_link(SQLITE, "SQLite database (" + SQLITE + ")", b.files[SQLITE])}: one table per table above, same '
            "columns and rows, typed (<code>TEXT</code>, <code>INTEGER</code>, <code>REAL</code>; booleans 0 and 1) with "
            "the schemas' primary keys and each column's unit as a comment in its <code>CREATE TABLE</code>; a view per "
            "product and table (" + ", ".join(f"<code>{esc(view_name(d, n))}</code>" for d, n in zip(renderer.atlas.docs()[:2], ("resources", "latency")))
            + ", …), indexes on "
            "<code>(doc, scenario)</code> and <code>(doc, table_id)</code>, and tables <code>sources</code> and "
            "<code>about</code>. A value the guide does not give is <code>NULL</code> in a numeric column and empty text "
            "in a text column, as in the JSON. Open it with <code>sqlite3</code>, any SQLite client or "
            "<code>datasette " + SQLITE + "</code>" + (", e.g.:" f'<pre><code class="language-sql">{esc(sql)}</code></pre>' if sql else ".")
            + "</li>"
            f'<li>{_link("datapackage.json", "Frictionless Data Package (datapackage.json)", b.files["datapackage.json"])}: '
            "describes every CSV above with its Table Schema (types, constraints, units), size, SHA-256 and sources, "
            "and the SQLite file with its size and SHA-256. "
            "Validate with <code>frictionless validate datapackage.json</code> after downloading the <code>csv/</code> files "
            "beside it.</li>"
            f'<li><a href="../../downloads/SHA256SUMS" download>SHA256SUMS</a> <span class="atlas-note">{_size(len(b.sums))}</span>: '
            "checksums of every file, including the per-table CSVs; check with <code>sha256sum -c SHA256SUMS</code> in a copy "
            "of the <code>downloads/</code> folder.</li></ul>",
            "", "## One table at a time", "",
            f"<p>Every curated table on the product and scenario pages has two links under it. <em>CSV (tidy, long)</em>: "
            f"the rows of that table in <code>data/&lt;doc&gt;/&lt;kind&gt;.csv</code>, same columns "
            f"({len(b.tables) + sum(len(x) for x in b.extra.values())} files; the <a href=\"../coverage/\">coverage page</a> "
            f"links each one). <em>CSV (as shown)</em>: the table as the page shows it, its columns, header labels and "
            f"cell text, wide where the page is wide; after filtering or sorting the table, the visible rows in their "
            f"visible order ({len(b.shown)} files for the whole tables, <code>tables/&lt;doc&gt;/&lt;table&gt;.shown.csv</code> "
            f"and <code>views/</code>). All are listed in SHA256SUMS.</p>",
            "", "## Sources and rights", "", f"<p>{esc(rights(a))}</p>", "",
            '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="sources"><thead><tr><th>doc</th>'
            "<th>Guide</th><th>Publisher</th><th>Release</th><th>Document id, date</th></tr></thead><tbody>"]
    for s in a.sources:
        if s["id"] not in a.docs():
            continue
        out.append(f'<tr><td class="atlas-nowrap"><a href="../../products/{esc(s["id"])}/"><code>{esc(s["id"])}</code></a></td><td><em>{esc(s["title"])}</em></td>'
                   f'<td>{esc(s["publisher"])}</td><td>{esc(s["release"])}</td>'
                   f'<td>{esc(", ".join(x for x in (s.get("document_id"), s.get("date")) if x))}</td></tr>')
    out += ["</tbody></table></div>", "", "## Checksums", "",
            '<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="checksums"><thead><tr><th>File</th>'
            "<th>Bytes</th><th>SHA-256</th></tr></thead><tbody>"]
    for p, data in sorted(b.files.items()):
        out.append(f'<tr><td><a href="../../downloads/{esc(p)}" download>{esc(p)}</a></td><td>{len(data)}</td>'
                   f'<td><code class="atlas-sha256">{sha256(data)}</code></td></tr>')
    out.append("</tbody></table></div>")
    return "\n".join(out)


def _allowed(f: dict) -> str:
    c = f.get("constraints") or {}
    parts = []
    if c.get("enum"):
        parts.append(" ".join(f"<code>{esc(v)}</code>" if v != "" else "<code>(empty)</code>" for v in c["enum"]))
    if c.get("pattern"):
        parts.append(f"matches <code>{esc(c['pattern'])}</code>")
    if "minimum" in c:
        parts.append(f"≥ {esc(c['minimum'])}")
    if "maximum" in c:
        parts.append(f"≤ {esc(c['maximum'])}")
    if c.get("unique"):
        parts.append("unique")
    return "; ".join(parts)


def dictionary_page(renderer) -> str:
    """The data dictionary (``{{ data_dictionary() }}``): every column of every download from its schema file, with
    type, unit, constraints and allowed values."""
    b = built(renderer)
    out = []
    for name in NAMES:
        sch = schema(renderer.atlas, name)
        src = f"data/schemas/{name}.schema.json" if name in KINDS else f"data/&lt;doc&gt;/{name}.yaml, flattened"
        out += [f"## {md_esc(name)} {{ #{name} }}", "",
                f'<p>{esc(sch.get("description", ""))} <span class="atlas-note">{b.rows[name]} rows; from <code>{src}</code>; '
                f'download <a href="../../downloads/csv/{esc(name)}.csv">CSV</a>, '
                f'<a href="../../downloads/json/{esc(name)}.json">JSON</a>.</span></p>', "",
                f'<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="dictionary-{esc(name)}"><thead><tr>'
                "<th>Column</th><th>Type</th><th>Unit</th><th>Required</th><th>Allowed values</th><th>Meaning</th>"
                "</tr></thead><tbody>"]
        for f in sch["fields"]:
            req = "yes" if (f.get("constraints") or {}).get("required") else ""
            out.append(f'<tr id="{esc(name)}-{esc(f["name"])}"><td class="atlas-nowrap"><code>{esc(f["name"])}</code></td><td>{esc(f["type"])}</td>'
                       f'<td>{esc(f.get("unit", ""))}</td><td>{req}</td><td>{_allowed(f)}</td><td>{esc(f.get("description", ""))}</td></tr>')
        out += ["</tbody></table></div>", ""]
    return "\n".join(out)


def erratum_url(renderer, e: dict) -> str:
    """Page (relative to the site root) where an erratum is rendered with its id as anchor."""
    a = renderer.atlas
    doc = e["doc"]
    if e.get("table_id"):
        if e["table_id"] in _loose(renderer, doc):
            return f"products/{doc}/#{e['id']}"
        owners = [s["id"] for s in a.scenarios if s["doc"] == doc and e["table_id"] in s["tables"]]
        sid = e["scenario"] if e.get("scenario") in owners else owners[0]
        return f"products/{doc}/{sid}/#{e['id']}"
    if e.get("scenario"):
        return f"products/{doc}/{e['scenario']}/#{e['id']}"
    return f"products/{doc}/#{e['id']}"


ERRATA_ACTIONS = ["kept-as-printed", "read-as", "flagged-excluded", "left-out", "noted"]
"""The errata actions, in the order the summary and the chips list them."""
ERRATA_FACET_COLS = {"document": (0, "-E"), "kind": 2, "action": 3}
"""The errata table's facets, each read from a column (``facet_bar``'s ``cols``): its rows carry no facet attribute.
The document is the start of the erratum id, "policy" of "policy-E050" (``atlas.datastore`` checks that every id
starts with its document's id): the page has no Document column (7 KB of the 400 KB a page may move before use)."""


ERRATA_DETAIL_COLUMNS = ("Table", "Reading", "Where", "As printed")
"""The errata table's last four columns: the long ones (about 120 KB of the page's 290 before they moved) and the table
id (7.5 KB of 488 rows; most problems name their table anyway): the page loads them on first use (``errata_details``),
the file "CSV (as shown)" links to has them."""
ERRATA_DETAILS = "assets/data/errata-details.json"
"""Where the build writes ``errata_details`` (relative to the site root), which docs/assets/js/tablemore.js fetches."""


def _erratum_detail_parts(e: dict) -> list[list[list[str]]]:
    """The detail cells of one erratum (ERRATA_DETAIL_COLUMNS), each a list of parts ``[tag, text]``: tag "" is
    plain text, "code" a ``<code>`` element, "note" a ``<span class="atlas-note">``. The page's script builds the
    cells from these parts (textContent, never HTML) and ``_parts_html`` writes the same cells for the build's
    CSV, so both read alike."""
    reading = [["", e["reading"]]] if e.get("reading") not in (None, "") else []
    if e.get("reason"):
        reading += [["", " "], ["note", e["reason"]]]
    return [[["", e.get("table_id") or "(prose)"]], reading, [["", e["where"]]], [["code", e["raw"]]]]


def _parts_html(parts: list[list[str]]) -> str:
    """One cell's HTML from its ``_erratum_detail_parts`` parts, escaped."""
    tags = {"": ("", ""), "code": ("<code>", "</code>"), "note": ('<span class="atlas-note">', "</span>")}
    return "".join(tags[t][0] + esc(x, quote=False) + tags[t][1] for t, x in parts)


def errata_details(renderer) -> dict:
    """The errata table's detail columns as the page fetches them (``ERRATA_DETAILS``): ``{"columns":
    [3 labels], "rows": {erratum id: [3 cells, each a list of [tag, text] parts]}}`` (``_erratum_detail_parts``),
    every erratum of ``renderer.atlas.errata``."""
    return {"columns": list(ERRATA_DETAIL_COLUMNS), "rows": {e["id"]: _erratum_detail_parts(e) for e in renderer.atlas.errata}}


def errata_details_bytes(renderer) -> bytes:
    """``errata_details`` as the file the build writes: compact JSON, UTF-8."""
    return json.dumps(errata_details(renderer), separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def write_errata_details(renderer, docs_dir) -> str:
    """Write ``errata_details_bytes`` to ``docs_dir``/ERRATA_DETAILS; returns that path relative to ``docs_dir``.
    Raises OSError if it cannot be written."""
    dest = Path(docs_dir) / ERRATA_DETAILS
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(errata_details_bytes(renderer))
    return ERRATA_DETAILS


def errata_table(renderer, details: bool = True) -> str:
    """Every erratum as one table row: id linking where it applies (it names the document: "policy-E050"), scenario,
    kind, action and problem (the columns a reader scans), then the table, the reading, where and the text as printed
    (ERRATA_DETAIL_COLUMNS). ``details=False`` is the page's table: the four detail headers are there, hidden
    (atlas.css) until tablemore.js has fetched the cells (``data-atlas-more``, ``errata_details``) on the reader's
    first use of the table;
    ``details=True`` is the whole table, which the build's "CSV (as shown)" file is read from.
    The chip bar above the table filters by document, kind and action, read from those columns (ERRATA_FACET_COLS)."""
    a = renderer.atlas
    facets, rows = [], []
    for doc in a.docs():
        first = True
        for e in (x for x in a.errata if x["doc"] == doc):
            rid = f' id="errata-{esc(doc)}"' if first else ""
            first = False
            f = {"document": doc, "kind": e["kind"], "action": e["action"]}
            facets.append(f)
            more = "".join(f"<td>{_parts_html(c)}</td>" for c in _erratum_detail_parts(e)) if details else ""
            # no class or attribute per cell: 479 rows made them 74 KB of the page; atlas.css sets each column's width
            # and wrapping by its position in table.atlas-errata. Text cells escape only & < > (esc, quote=False): the
            # problem's quotes as &#x27; were 5 KB of the page.
            rows.append(
                f'<tr{rid}{row_attrs(f, ERRATA_FACET_COLS)}><td><a href="../../{esc(erratum_url(renderer, e))}">{esc(e["id"])}</a></td>'
                f'<td>{esc(e.get("scenario") or "")}</td><td>{esc(f["kind"])}</td><td>{esc(f["action"])}</td>'
                f'<td>{esc(e["problem"], quote=False)}</td>{more}</tr>')
    bar = facet_bar("errata", [("document", "Document"), ("kind", "Kind"), ("action", "Action")], facets,
                    {"document": a.docs(), "action": ERRATA_ACTIONS}, ERRATA_FACET_COLS,
                    {"document": {d: a.source(d)["short_name"] for d in a.docs()}})
    lazy = "" if details else f' data-atlas-more="../../{ERRATA_DETAILS}"'
    return (bar + f'<div class="atlas-table-wrap"><table class="atlas-data atlas-errata" data-atlas-table="errata"{lazy}><thead><tr><th>Erratum</th>'
            "<th>Scenario</th><th>Kind</th><th>Action</th><th>Problem</th>"
            + "".join(f"<th{'' if details else ' data-atlas-more-col'}>{esc(c)}</th>" for c in ERRATA_DETAIL_COLUMNS)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>")


def errata_page(renderer) -> str:
    """The errata page (``{{ errata_page() }}``): a summary per document and action (not filterable: one row per
    document), then every erratum (``errata_table(details=False)``) with chips, a text filter and its downloads. The
    table's three long columns load on first use (``errata_details``, docs/assets/js/tablemore.js): with them the page
    moved 514 KiB before use, over the 400 KB a page may move before use; a note above the table says where they are without
    JavaScript, with a button that loads them."""
    a = renderer.atlas
    docs = a.docs()
    actions = ERRATA_ACTIONS
    out = ['<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="errata-summary" data-atlas-nofilter><thead><tr><th>Document</th>'
           "<th>Errata</th>" + "".join(f"<th>{esc(x)}</th>" for x in actions) + "</tr></thead><tbody>"]
    for doc in docs:
        errs = [e for e in a.errata if e["doc"] == doc]
        out.append(f'<tr><td><a href="#errata-{esc(doc)}">{esc(a.source(doc)["short_name"])}</a></td><td>{len(errs)}</td>'
                   + "".join(f'<td>{sum(e["action"] == x for e in errs)}</td>' for x in actions) + "</tr>")
    out.append(f"<tr><td><strong>All</strong></td><td>{len(a.errata)}</td>"
               + "".join(f'<td>{sum(e["action"] == x for e in a.errata)}</td>' for x in actions) + "</tr>")
    out += ["</tbody></table></div>", "",
            '<p class="atlas-note">Each erratum links to the page where it applies (the table on its scenario page, or the '
            'product page). Rows are grouped by document; the first row of each document is the target of the links above.</p>', "",
            f'<p class="atlas-note atlas-more" data-atlas-for="errata">Reading, where and the text as printed (the last three '
            f'columns) are on the page each erratum links to, and in "CSV (as shown)" under the table. They are fetched '
            f'here when you first filter the table or download it. <button type="button" class="atlas-more-button" '
            f'data-atlas-for="errata" hidden>Show them now ({_size(len(errata_details_bytes(renderer)))})</button></p>', "",
            errata_table(renderer, details=False), view_links(renderer, ("views", "errata", "errata"), "../../")]
    return "\n".join(out)


def coverage_page(renderer) -> str:
    """The coverage page (``{{ coverage_page() }}``): every table id of every guide, its kind, rows and download.
    Its per-document tables (class ``atlas-coverage``) keep the seed lines, each data file's count and the downloads
    on one line by column (atlas.css), not by a class on each of their 1,160 cells (24 KB of the page); the data
    files are named within the folder their column's header names (``data/<doc>/``), not by their whole path."""
    a = renderer.atlas
    b = built(renderer)
    recs = {(t["doc"], t["table_id"]): t for t in record_rows(renderer, "tables")}
    out = ['<div class="atlas-table-wrap"><table class="atlas-data" data-atlas-table="coverage-summary"><thead><tr>'
           "<th>Document</th><th>Tables found</th>" + "".join(f"<th>{esc(k)}</th>" for k in KINDS)
           + "<th>excluded</th><th>Curated tables without rows</th><th>Data rows</th><th>Errata</th></tr></thead><tbody>"]
    for doc in a.docs():
        ts = [t for t in recs.values() if t["doc"] == doc]
        empty = [t for t in ts if t["kind"] != "excluded" and t["data_rows"] == 0]
        out.append(f'<tr><td><a href="#coverage-{esc(doc)}">{esc(a.source(doc)["short_name"])}</a></td><td>{len(ts)}</td>'
                   + "".join(f'<td>{sum(t["kind"] == k for t in ts)}</td>' for k in KINDS + ["excluded"])
                   + f'<td>{len(empty)}</td><td>{sum(t["data_rows"] for t in ts)}</td>'
                   f'<td>{sum(e["doc"] == doc for e in a.errata)}</td></tr>')
    out += ["</tbody></table></div>", ""]
    for doc in a.docs():
        src = a.source(doc)
        ts = [t for t in recs.values() if t["doc"] == doc]
        out += [f"## {md_esc(src['short_name'])}: {len(ts)} tables {{ #coverage-{doc} }}", "",
                f'<p class="atlas-cite"><em>{esc(src["title"])}</em>, release {esc(src["release"])}; '
                f'list of tables from <code>data/{esc(doc)}/tables.yaml</code>.</p>', "",
                f'<div class="atlas-table-wrap"><table class="atlas-data atlas-coverage" data-atlas-table="coverage-{esc(doc)}"><thead><tr>'
                f"<th>Table</th><th>Title</th><th>Section</th><th>Seed lines</th><th>Source rows</th><th>Where in <code>data/{esc(doc)}/</code></th>"
                "<th>Data rows</th><th>Shown on</th><th>Download</th></tr></thead><tbody>"]
        loose = _loose(renderer, doc)
        for t in ts:
            tid = t["table_id"]
            pages = ([f'<a href="../../products/{esc(doc)}/#{esc(anchor(tid))}">product page</a>'] if tid in loose else
                     [f'<a href="../../products/{esc(doc)}/{esc(s)}/#{esc(anchor(tid))}">{esc(s)}</a>' for s in t["scenarios"].split(";")])
            files = dict(x.split(":") for x in t["data_files"].split(";") if x)
            if t["kind"] == "excluded":
                where = f'<span class="atlas-missing">excluded: {esc(t["excluded_reason"])}</span>'
            else:
                where = "<br>".join(f'<code>{esc(k)}.csv</code>: {esc(n)} rows' for k, n in files.items()) \
                    or f'<code>{esc(t["kind"])}.csv</code>: 0 rows'
            dls = ([("CSV", b.tables[(doc, tid)])] if (doc, tid) in b.tables else []) \
                + [(f"{k} CSV", q) for k, q in b.extra.get((doc, tid), {}).items()]
            dl = "<br>".join(f'<a href="../../downloads/{esc(q)}" download>{esc(label)}</a>' for label, q in dls)
            cls = ' class="atlas-status-flagged"' if t["kind"] != "excluded" and t["data_rows"] == 0 else ""
            out.append(f'<tr{cls}><td>{esc(tid)}</td><td>{esc(t["title"] or t["caption"] or "")}</td><td>{esc(t["section"] or "")}</td>'
                       f'<td>{t["line_first"]}–{t["line_last"]}</td><td>{t["rows"]}</td>'
                       f'<td>{where}</td><td>{t["data_rows"]}</td>'
                       f'<td>{", ".join(pages)}</td><td>{dl}</td></tr>')
        out += ["</tbody></table></div>", ""]
    return "\n".join(out)
