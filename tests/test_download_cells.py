"""Cells of the downloads as the guides give them and as a spreadsheet must keep them (``atlas.downloads``), in this
process without building the site: a scenario's provisioned sites in every form of the scenarios download, and the
workbook writing text as text (never a formula, a link or a number) with fixed times, so the same data gives the
same bytes. The mutation runs (tools/mutation_sample.py) use these tests."""
from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import zipfile


def test_scenarios_download_gives_the_sites_each_title_states(download_build, tmp_path):
    """BSF guide section 3.1 'Test Scenario: BSF Performance Benchmarking 22K TPS Traffic on a Four-site Setup with
    Traffic on One Site': 4 sites provisioned; section 3.2 '... 54K TPS traffic on a Three-site Setup ...': 3. The CSV
    holds the text, the JSON, the workbook and the SQLite file the integer (schema: integer, unit sites), and the
    workbook's header carries the unit: 'sites_provisioned [sites]'."""
    text = download_build.files["csv/scenarios.csv"].decode("utf-8")
    rows = {r["scenario"]: r for r in csv.DictReader(io.StringIO(text))}
    assert (rows["bsf-3-1"]["sites_provisioned"], rows["bsf-3-2"]["sites_provisioned"]) == ("4", "3")
    recs = {r["scenario"]: r for r in json.loads(download_build.files["json/scenarios.json"])}
    assert (recs["bsf-3-1"]["sites_provisioned"], recs["bsf-3-2"]["sites_provisioned"]) == (4, 3)

    from openpyxl import load_workbook
    ws = load_workbook(io.BytesIO(download_build.files["benchmark-atlas.xlsx"]))["scenarios"]
    header = [c.value for c in ws[1]]
    sheet = {r[header.index("scenario")]: dict(zip(header, r)) for r in ws.iter_rows(min_row=2, values_only=True)}
    assert (sheet["bsf-3-1"]["sites_provisioned [sites]"], sheet["bsf-3-2"]["sites_provisioned [sites]"]) == (4, 3)

    p = tmp_path / "a.sqlite"
    p.write_bytes(download_build.files["benchmark-atlas.sqlite"])
    con = sqlite3.connect(p)
    try:
        got = con.execute("SELECT scenario, sites_provisioned FROM scenarios WHERE scenario IN ('bsf-3-1', 'bsf-3-2') "
                          "ORDER BY scenario").fetchall()
    finally:
        con.close()
    assert got == [("bsf-3-1", 4), ("bsf-3-2", 3)]


class _Atlas:
    """The little of an Atlas the workbook reads: one made-up guide 'x' by publisher 'P'."""
    sources = [{"id": "x", "title": "Made-up guide", "publisher": "P", "release": "1.0"}]

    def docs(self):
        return ["x"]

    def source(self, doc):
        return self.sources[0]


class _Renderer:
    atlas = _Atlas()


# A made-up sheet of text cells a spreadsheet would otherwise turn into something else: a formula ('=...' and the
# array form '{=...}'), a link (http://, mailto:), a number ('0.25', '1e3'); and an empty text, which is no cell.
TEXTS = ["=1+2", "{=SUM(A1:A2)}", "http://example.invalid/a", "mailto:someone@example.invalid", "0.25", "1e3", ""]


def _made_up_workbook() -> bytes:
    from atlas.downloads import _workbook
    fields = [{"name": "text", "type": "string"}]
    return _workbook(_Renderer(), {"notes": (fields, [{"text": t} for t in TEXTS])})


def test_workbook_writes_every_text_as_text():
    """Text that looks like a formula, a link or a number is written as that text (cell type 's', the same
    characters), never evaluated, linked or converted; an empty text leaves the cell empty."""
    from openpyxl import load_workbook
    ws = load_workbook(io.BytesIO(_made_up_workbook()))["notes"]
    assert ws["A1"].value == "text" and ws["A1"].font.b
    cells = [ws.cell(row=i, column=1) for i in range(2, 2 + len(TEXTS))]
    assert [(c.value, c.data_type) for c in cells[:-1]] == [(t, "s") for t in TEXTS[:-1]]
    assert all(c.hyperlink is None for c in cells)
    assert cells[-1].value is None
    assert ws.freeze_panes == "A2" and ws.auto_filter.ref == f"A1:A{1 + len(TEXTS)}"


def test_workbook_about_sheet_names_the_rights_and_each_source():
    """The about sheet: the title, the rights note naming the made-up guide's publisher, what the sheets hold, then
    the sources table with its header and one row per guide (doc, title, publisher, release; no document id, date or
    chapter given here, so those cells are empty)."""
    from openpyxl import load_workbook
    ws = load_workbook(io.BytesIO(_made_up_workbook()))["about"]
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    for r in rows:  # each row as long as the widest (the sources header): drop the empty cells after the last
        while r and r[-1] is None:
            r.pop()
    assert rows[0][0] == "Benchmark Atlas: curated telecom network-function benchmark data" and ws["A1"].font.b
    assert rows[1] == []
    assert rows[2][0] == "Rights" and "remain the copyright of their publishers (P); " in rows[2][1]
    assert rows[3][0] == "Sheets" and rows[3][1].startswith("One sheet per table; the first row is the header (frozen)")
    assert rows[4:] == [[], ["Sources"], ["doc", "title", "publisher", "release", "document id", "date", "chapter"],
                        ["x", "Made-up guide", "P", "1.0"]]
    assert load_workbook(io.BytesIO(_made_up_workbook())).sheetnames == ["about", "notes"]


def test_workbook_has_fixed_times_so_the_same_data_gives_the_same_bytes():
    """Every zip entry dated 2020-01-01 00:00:00 and the document properties created and modified at
    2020-01-01T00:00:00Z (FIXED_TIME), author 'Benchmark Atlas': two workbooks of the same data are the same bytes."""
    data = _made_up_workbook()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert {i.date_time for i in z.infolist()} == {(2020, 1, 1, 0, 0, 0)}
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist())
        core = z.read("docProps/core.xml").decode("utf-8")
    assert re.search(r"<dcterms:created[^>]*>2020-01-01T00:00:00Z</dcterms:created>", core)
    assert re.search(r"<dcterms:modified[^>]*>2020-01-01T00:00:00Z</dcterms:modified>", core)
    assert "<dc:creator>Benchmark Atlas</dc:creator>" in core
    assert _made_up_workbook() == data


def _sqlite(download_build, tmp_path) -> sqlite3.Connection:
    p = tmp_path / "a.sqlite"
    p.write_bytes(download_build.files["benchmark-atlas.sqlite"])
    return sqlite3.connect(p)


def test_sqlite_indexes_views_and_column_declarations(download_build, tmp_path):
    """The SQLite file's layout, derived by hand from data/schemas and the files under data/:

    * an index on (doc, scenario) and one on (doc, table_id) for every table holding both columns, except where the
      primary key already starts with them: the six kinds' keys start (doc, scenario, table_id, ...) (their schemas'
      primaryKey), so they get only <kind>_table_id; scenarios (no table_id column) only scenarios_scenario; errata
      and tables (no primary key) both;
    * a view <doc>_<table> for each guide with rows in that table: resources in data/bsf, data/policy, data/nef
      (resources.csv), utilization in bsf and policy, db_operations in bsf only, latency in all but dsr,
      measurements in all but bsf, settings, scenarios, errata and tables in all five;
    * each column's type and NOT NULL from its schema, its unit as a comment ('-- sites', '-- cores'), the primary key
      last; a table without a primary key has no comma after its last column."""
    con = _sqlite(download_build, tmp_path)
    try:
        master = con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
        indexes = {name: [r[2] for r in con.execute(f"PRAGMA index_info('{name}')")]
                   for type_, name, _, _ in master if type_ == "index" and not name.startswith("sqlite_autoindex")}
        views = {name for type_, name, _, _ in master if type_ == "view"}
        sql = {name: s for type_, name, _, s in master if type_ == "table"}
    finally:
        con.close()
    kinds = ["resources", "utilization", "latency", "db_operations", "measurements", "settings"]
    want = {f"{k}_table_id": ["doc", "table_id"] for k in kinds + ["errata", "tables"]}
    want.update({f"{k}_scenario": ["doc", "scenario"] for k in ("scenarios", "errata", "tables")})
    assert indexes == want
    five = ["bsf", "policy", "nef", "dsr", "shcm"]
    with_rows = {"resources": ["bsf", "policy", "nef"], "utilization": ["bsf", "policy"], "db_operations": ["bsf"],
                 "latency": ["bsf", "policy", "nef", "shcm"], "measurements": ["policy", "nef", "dsr", "shcm"],
                 "settings": five, "scenarios": five, "errata": five, "tables": five}
    assert views == {f"{doc}_{t}" for t, docs in with_rows.items() for doc in docs}
    assert set(sql) == set(kinds) | {"scenarios", "errata", "tables", "sources", "about"}
    lines = sql["scenarios"].splitlines()
    assert lines[:3] == ['CREATE TABLE "scenarios" (', '  "doc" TEXT NOT NULL,', '  "scenario" TEXT NOT NULL,']
    assert '  "short_title" TEXT,' in lines and '  "sites_provisioned" INTEGER, -- sites' in lines
    assert '  "duration_hours" REAL, -- hours' in lines and '  "footprint_partial" INTEGER,' in lines
    assert lines[-2:] == ['  "notes" TEXT', ")"]
    lines = sql["resources"].splitlines()
    assert lines[-2:] == ['  PRIMARY KEY ("doc", "scenario", "table_id", "row", "container")', ")"]
    assert '  "scenario" TEXT NOT NULL,' in lines and '  "cpu_request_cores" REAL, -- cores' in lines
    assert sql["sources"] == ('CREATE TABLE sources (\n  "doc" TEXT PRIMARY KEY,\n  "title" TEXT,\n'
                              '  "short_name" TEXT,\n  "publisher" TEXT,\n  "release" TEXT,\n  "document_id" TEXT,\n'
                              '  "date" TEXT,\n'
                              '  "chapter" TEXT\n)')


def test_sqlite_about_and_sources_rows(download_build, tmp_path):
    """The about table's keys in order (title, tables, missing_values, units, then the rights note naming both
    publishers of data/sources.yaml), one sources row per guide in sources.yaml's order, and a boolean stored as 0/1:
    BSF Table 3-25's Appinfo istio-proxy row is a sidecar (1), its app row is not (0)."""
    con = _sqlite(download_build, tmp_path)
    try:
        about = con.execute("SELECT key, value FROM about ORDER BY rowid").fetchall()
        docs = [r[0] for r in con.execute("SELECT doc FROM sources ORDER BY rowid")]
        shcm = con.execute("SELECT publisher FROM sources WHERE doc = 'shcm'").fetchone()
        sidecar = con.execute("SELECT container, typeof(is_sidecar), is_sidecar FROM resources WHERE doc = 'bsf' AND "
                              "table_id = '3-25' AND service = 'Appinfo' ORDER BY container").fetchall()
    finally:
        con.close()
    assert [k for k, _ in about] == ["title", "tables", "missing_values", "units", "rights"]
    assert about[0][1] == "Benchmark Atlas: curated telecom network-function benchmark data"
    assert "(Oracle Communications, Metaswitch (Rhino platform))" in about[-1][1]
    assert docs == ["bsf", "policy", "nef", "dsr", "shcm"] and shcm == ("Metaswitch (Rhino platform)",)
    assert sidecar == [("app", "integer", 0), ("istio-proxy", "integer", 1)]
