"""Datasets: the curated data as downloads, a data dictionary, errata and coverage pages.

Everything is built from data/ at site build time, for every document that has
data, with no code per product:

* ``downloads/csv/<name>.csv`` and ``downloads/json/<name>.json``: one tidy table
  per kind (resources, utilization, latency, db_operations, measurements,
  settings) over all documents, plus scenarios, errata and tables (the table
  index) flattened to one row per record;
* ``downloads/benchmark-atlas.xlsx``: one sheet per table, header frozen, the
  unit of every numeric column in its header;
* ``downloads/benchmark-atlas.sqlite``: the same tables in one SQLite database
  (``sqlite(renderer, sheets)``): one table per download table with the schema's column
  types, NOT NULL for required fields and the schema's primary key, indexes on
  the join keys, a view per document and table (``bsf_resources``), and the
  sources and rights note in ``sources`` and ``about``;
* ``downloads/datapackage.json``: Frictionless Data Package (schemas from
  data/schemas, units, sizes, SHA-256, sources, rights note; the SQLite file
  as a non-tabular resource with its size and SHA-256);
* ``downloads/tables/<doc>/<table id>.csv``: every curated table on its own, the
  rows of data/<doc>/<kind>.csv for that table (linked under each rendered table, "tidy, long");
* ``downloads/tables/<doc>/<table id>.shown.csv`` and ``downloads/views/<page>/<table>.csv``: each
  table as the page shows it (same columns, header labels and cell text, page order; ``atlas.tableview``),
  for the curated tables and for the home, product-scenarios and errata tables, and the cross-product ranking
  and mesh tables with their tidy files (``atlas.pages.shown``);
* ``downloads/SHA256SUMS``: checksums of every file above (``sha256sum -c``).

All bytes are produced once per build (``build``, the build's "downloads" step, before the pages) so the
checksums the pages show (``built(renderer)``) are those of the files written.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import re
import sqlite3
import tempfile
import threading
import zipfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pandas as pd

from calculators.formatting import csv_writer

from .datastore import KIND_LABEL, KINDS
from .tableview import shown_csv

RECORD_TABLES = ["scenarios", "errata", "tables"]
NAMES = KINDS + RECORD_TABLES
WORKBOOK = "benchmark-atlas.xlsx"
SQLITE = "benchmark-atlas.sqlite"
SQL_TYPES = {"string": "TEXT", "integer": "INTEGER", "number": "REAL", "boolean": "INTEGER"}
SQLITE_USER_VERSION = 1  # PRAGMA user_version of the file: bumped when its layout (not its data) changes
FIXED_TIME = datetime(2020, 1, 1)  # workbook metadata and zip entries: same data, same bytes

RIGHTS = ("The numbers and labels in these files are facts quoted from the vendor benchmarking guides cited "
          "in sources: each row names its document, table, row and seed line. The guides, their text and "
          "their layout remain the copyright of their publishers ({publishers}); the atlas does not license the "
          "vendors' text and claims no open licence for it. Cite the guide when you use a number, and check "
          "the publisher's terms before republishing quoted text.")


def rights(a) -> str:
    """The rights note of the downloads (RIGHTS), naming the publishers of every document with data."""
    pubs = list(dict.fromkeys(a.source(d)["publisher"] for d in a.docs()))
    return RIGHTS.format(publishers=", ".join(pubs))


# Column names that already end with their unit (the workbook header keeps them as they are).
UNIT_SUFFIXES = ("_cores", "_gib", "_percent", "_ms", "_ms_max", "ops_per_second", "_hours")


def schema(a, name: str) -> dict:
    """Table Schema of download table ``name`` for the data ``a`` (an Atlas: its sources.yaml gives the document ids),
    every numeric field with its ``unit``: data/schemas/<kind>.schema.json for the six kinds (the schema that validates
    data/<doc>/<kind>.csv), data/schemas/<name>.csv.schema.json for a record file flattened (scenarios, errata,
    tables). A new dict on every call. Raises DataError for a numeric field without a unit."""
    return a.schema(name if name in KINDS else f"{name}.csv")


def header_label(name: str, f: dict) -> str:
    """Workbook header: the column name, with its unit where the name does not carry it."""
    if f["type"] not in ("integer", "number") or name.endswith(UNIT_SUFFIXES):
        return name
    return f"{name} [{f['unit']}]"


def table_file(doc: str, tid: str, kind: str | None = None) -> str:
    """Path of a table's own CSV, relative to downloads/: <table id>.csv for the rows of the table's kind (those the
    pages show), <table id>.<other kind>.csv for rows the curation put in another file."""
    return f"tables/{doc}/{re.sub(r'[^A-Za-z0-9_-]+', '-', tid)}{'.' + kind if kind else ''}.csv"


def shown_file(doc: str, tid: str) -> str:
    """Path of a curated table's CSV as shown on its page, relative to downloads/: <table id>.shown.csv beside its
    tidy file ("shown" is no kind, so never a kind's file name)."""
    return f"tables/{doc}/{re.sub(r'[^A-Za-z0-9_-]+', '-', tid)}.shown.csv"


def view_file(page: str, table: str) -> str:
    """Path of a page table's CSV as shown (home, product scenarios, errata, backtest comparisons), relative to
    downloads/."""
    return f"views/{page}/{table}.csv"


def sha256(b: bytes) -> str:
    """The SHA-256 of ``b`` as 64 hex digits (SHA256SUMS, datapackage.json, the datasets page)."""
    return hashlib.sha256(b).hexdigest()


@dataclass
class Build:
    """Every download of one build, in bytes (``build``): ``files`` (path under downloads/ -> bytes), ``tables`` and
    ``extra`` (each table's own CSVs), ``table_bytes``, ``rows`` per download table and ``sums`` (SHA256SUMS text)."""
    files: dict[str, bytes] = field(default_factory=dict)      # main downloads, path relative to downloads/
    tables: dict[tuple, str] = field(default_factory=dict)     # (doc, table id) -> CSV of the rows of its kind
    extra: dict[tuple, dict] = field(default_factory=dict)     # (doc, table id) -> {other kind: CSV}
    shown: dict[tuple, str] = field(default_factory=dict)      # shown_tables key -> CSV of the table as shown
    table_bytes: dict[str, bytes] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)         # rows per download table
    sums: str = ""


# ---------------------------------------------------------------- building the files
def _csv_bytes(header: list[str], rows: list[list[str]]) -> bytes:
    buf = io.StringIO()
    w = csv_writer(buf)  # formula-like cells made inert (calculators.formatting.csv_cell)
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode("utf-8")


def _read_kind(a, docs: list[str], kind: str) -> tuple[list[str], list[list[str]]]:
    """Rows of data/<doc>/<kind>.csv over all documents, cells as the files hold them."""
    root = Path(a.root)
    header = [f["name"] for f in schema(a, kind)["fields"]]
    rows: list[list[str]] = []
    for doc in docs:
        p = root / doc / f"{kind}.csv"
        if not p.exists():
            continue
        with p.open(newline="", encoding="utf-8") as fh:
            rd = csv.reader(fh)
            h = next(rd)
            if h != header:
                raise ValueError(f"{p}: header differs from data/schemas/{kind}.schema.json")
            rows += [list(r) for r in rd]
    return header, rows


def _s(v) -> str:
    return "" if v is None else str(v)


def _j(v) -> str:
    return "" if v in (None, {}, []) else json.dumps(v, ensure_ascii=False, sort_keys=True)


def record_rows(renderer, name: str) -> list[dict]:
    """The rows of record download ``name`` (scenarios, errata or tables): each YAML record flattened to one row of
    plain values (nested facts as JSON text), in the columns of data/schemas/<name>.csv.schema.json."""
    a = renderer.atlas
    if name == "scenarios":
        out = []
        for s in a.scenarios:
            load, dur, mix, sub = s["load"], s.get("duration") or {}, s.get("call_mix") or {}, s.get("subscribers") or {}
            cm = s.get("call_model") or {}
            out.append({
                "doc": s["doc"], "scenario": s["id"], "section": s["section"], "title": s["title"],
                "short_title": s.get("short_title"), "deployment_mode": s["deployment_mode"], "release": s.get("release"),
                "sites_provisioned": s.get("sites_provisioned"), "sites_with_traffic": ";".join(s.get("sites_with_traffic") or []),
                "load_total": load.get("total"), "load_per_site": load.get("per_site"), "load_unit": load["unit"], "load_raw": load["raw"],
                "asm": s["asm"], "asm_note": s.get("asm_note"), "duration_hours": dur.get("hours"), "duration_raw": dur.get("raw"),
                "call_mix_raw": mix.get("raw"), "traffic_ratio": mix.get("traffic_ratio"),
                "call_model_id": cm.get("id"), "call_model_name": cm.get("name"), "call_model_json": _j(cm),
                "replication": (s.get("replication") or {}).get("raw"),
                "subscribers_label": sub.get("label"), "subscribers_raw": sub.get("raw"), "tables": ";".join(s["tables"]),
                "footprint_partial": renderer.completeness(s["id"])["partial"] if renderer.baseline(s["id"]) else None,
                "footprint_missing": renderer.missing_note(s["id"]) or None,
                "software_json": _j(s.get("software")), "hardware_json": _j(s.get("hardware")), "features_json": _j(s.get("features")),
                "interfaces_json": _j(s.get("interfaces")), "parameters_json": _j(s.get("parameters")),
                "contradictions_json": _j(s.get("contradictions")), "notes": " | ".join(s.get("notes") or []),
            })
        return out
    if name == "errata":
        return [{"doc": e["doc"], "scenario": e.get("scenario"), "table_id": e.get("table_id"), "erratum": e["id"],
                 "kind": e["kind"], "where": e["where"], "lines": ";".join(str(x) for x in e.get("lines") or []),
                 "raw": e["raw"], "problem": e["problem"], "action": e["action"], "reading": e.get("reading"),
                 "reason": e.get("reason")} for e in a.errata]
    if name == "tables":
        counts: dict[tuple, dict] = {}
        for kind in KINDS:
            df = a.frames[kind]
            if not df.empty:
                for k, n in df.groupby(["doc", "table_id"]).size().items():
                    counts.setdefault((k[0], k[1]), {})[kind] = int(n)
        listed: dict[tuple, list[str]] = {}
        for s in a.scenarios:
            for tid in s["tables"]:
                listed.setdefault((s["doc"], tid), []).append(s["id"])
        return [{"doc": t["doc"], "scenario": t.get("scenario"), "table_id": t["id"], "section": t.get("section"),
                 "caption": t.get("caption"), "title": t.get("title"), "kind": t["kind"], "category": t.get("category"),
                 "line_first": t["lines"][0], "line_last": t["lines"][1], "segments": t["segments"], "rows": t["rows"],
                 "data_rows": sum(counts.get((t["doc"], t["id"]), {}).values()),
                 "data_files": ";".join(f"{k}:{n}" for k, n in counts.get((t["doc"], t["id"]), {}).items()),
                 "scenarios": ";".join(listed.get((t["doc"], t["id"]), [])),
                 "header": " | ".join(t.get("header") or []), "excluded_reason": t.get("excluded_reason"), "note": t.get("note")}
                for t in a.tables]
    raise KeyError(name)


def _typed(v, type_):
    """A cell as Python value for JSON and the workbook (None for missing)."""
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return None
    if type_ == "integer":
        return int(v)
    if type_ == "number":
        return float(v)
    if type_ == "boolean":
        return bool(v)
    return str(v)


def typed_records(renderer, name: str) -> tuple[list[dict], list[dict]]:
    """(fields, records with typed values, '' for a missing string) for one download table."""
    fields = schema(renderer.atlas, name)["fields"]
    if name in KINDS:
        df = renderer.atlas.frames[name]
        cols = {f["name"]: df[f["name"]].tolist() for f in fields}
        n = len(df)
        recs = [{f["name"]: _typed(cols[f["name"]][i], f["type"]) for f in fields} for i in range(n)]
    else:
        recs = [{f["name"]: _typed(row.get(f["name"]), f["type"]) for f in fields} for row in record_rows(renderer, name)]
    for rec in recs:
        for f in fields:
            if f["type"] == "string" and rec[f["name"]] is None:
                rec[f["name"]] = ""
    return fields, recs


def _workbook(renderer, sheets: dict[str, tuple[list[dict], list[dict]]]) -> bytes:
    """The Excel workbook: an "about" sheet (rights, the sources), then one sheet per download table, the header row
    bold and frozen, with an autofilter. Written with XlsxWriter (1.3 s here, where openpyxl took 2.1 s, in the build's
    page step), every text as text (never a formula, a URL or a number), the same bytes for the same data."""
    import xlsxwriter

    buf = io.BytesIO()
    wb = xlsxwriter.Workbook(buf, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False,
                                   "strings_to_numbers": False})
    bold = wb.add_format({"bold": True})
    about = wb.add_worksheet("about")
    lines = [["Benchmark Atlas: curated telecom network-function benchmark data"], [], ["Rights", rights(renderer.atlas)],
             ["Sheets", "One sheet per table; the first row is the header (frozen), with the unit of every numeric column. "
                        "Empty cells are values the source does not give (see the status column)."], [], ["Sources"],
             ["doc", "title", "publisher", "release", "document id", "date", "chapter"]]
    lines += [[s["id"], s["title"], s["publisher"], s["release"], s.get("document_id"), s.get("date"), s.get("chapter")]
              for s in renderer.atlas.sources]
    for i, line in enumerate(lines):
        about.write_row(i, 0, line)
    about.write(0, 0, lines[0][0], bold)
    about.set_column(0, 0, 12)
    about.set_column(1, 1, 100)
    for name, (fields, recs) in sheets.items():
        ws = wb.add_worksheet(name)
        ws.write_row(0, 0, [header_label(f["name"], f) for f in fields], bold)
        names = [f["name"] for f in fields]
        for i, rec in enumerate(recs, 1):
            ws.write_row(i, 0, [None if rec[n] == "" else rec[n] for n in names])
        ws.freeze_panes(1, 0)
        ws.autofilter(0, 0, max(0, len(recs)), len(fields) - 1)
        for i, f in enumerate(fields):
            ws.set_column(i, i, max(10, min(40, len(header_label(f["name"], f)) + 2)))
    wb.set_properties({"author": "Benchmark Atlas", "created": FIXED_TIME})
    wb.close()
    # Rewrite the zip with fixed entry times, so the same data gives the same bytes and checksum.
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zi = zipfile.ZipInfo(info.filename, date_time=FIXED_TIME.timetuple()[:6])
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = info.external_attr
            data = zin.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                              rb"\g<1>" + FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ").encode() + rb"\g<2>", data)
            zout.writestr(zi, data)
    return out.getvalue()


def _ident(name: str) -> str:
    """``name`` as a quoted SQL identifier. Names come from data/schemas and sources.yaml; anything but lower-case
    letters, digits and underscores is refused (ValueError naming it) rather than escaped."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ValueError(f"datasets: {name!r} cannot name an SQLite table, view or column (a-z, 0-9, _ only)")
    return f'"{name}"'


def _sql_text(v: str) -> str:
    return "'" + v.replace("'", "''") + "'"


def view_name(doc: str, name: str) -> str:
    """The SQLite view of download table ``name`` restricted to document ``doc``: ``<doc>_<name>`` (bsf_resources)."""
    return f"{doc}_{name}"


SQLITE_ABOUT = [
    ("title", "Benchmark Atlas: curated telecom network-function benchmark data"),
    ("tables", "One table per download table (the CSVs in csv/), same columns and rows in the same order; "
               "a view <doc>_<table> per document (<doc>_resources: the rows of resources whose doc is <doc>); "
               "sources lists the documents."),
    ("missing_values", "A value the source does not give is NULL in a numeric or boolean column and '' (empty text) "
                       "in a text column, as in the JSON downloads. Booleans are 0 and 1."),
    ("units", "Each numeric column's unit is in the data package (datapackage.json, field property 'unit'), in the "
              "data dictionary, and as a comment in the table's CREATE statement (sqlite_master.sql)."),
]


def sqlite_bytes(renderer, sheets: dict[str, tuple[list[dict], list[dict]]]) -> bytes:
    """The SQLite database of the downloads, as bytes: for every download table of ``sheets`` (name -> (schema fields,
    typed records), as ``typed_records`` gives them) a table with the schema's column types (string TEXT, integer
    INTEGER, number REAL, boolean INTEGER 0/1), NOT NULL for required fields, the schema's primaryKey, each numeric
    column's unit as a comment; indexes on (doc, scenario) and (doc, table_id) where the primary key does not
    already start with them; a view ``<doc>_<name>`` per document with data and table; tables ``sources`` and
    ``about`` (rights note). Byte-deterministic for the same data and SQLite library (built in memory, written
    with VACUUM INTO: no timestamps in the format). Raises ValueError for a name that is not a plain SQL name and
    sqlite3.Error if SQLite refuses a row (e.g. a duplicate primary key)."""
    a = renderer.atlas
    docs = a.docs()
    con = sqlite3.connect(":memory:", isolation_level=None)
    try:
        con.execute("PRAGMA page_size = 4096")
        con.execute(f"PRAGMA user_version = {SQLITE_USER_VERSION}")
        con.execute("BEGIN")
        for name, (fields, recs) in sheets.items():
            pk = schema(a, name).get("primaryKey") or []
            cols = []
            for i, f in enumerate(fields):
                req = " NOT NULL" if (f.get("constraints") or {}).get("required") or f["name"] in pk else ""
                sep = "," if i < len(fields) - 1 or pk else ""
                unit = f" -- {f['unit']}" if f.get("unit") else ""
                cols.append(f"  {_ident(f['name'])} {SQL_TYPES[f['type']]}{req}{sep}{unit}")
            if pk:
                cols.append(f"  PRIMARY KEY ({', '.join(_ident(k) for k in pk)})")
            con.execute(f"CREATE TABLE {_ident(name)} (\n" + "\n".join(cols) + "\n)")
            names = [f["name"] for f in fields]
            con.executemany(f"INSERT INTO {_ident(name)} VALUES ({', '.join('?' * len(names))})",
                            ([rec[n] for n in names] for rec in recs))
            for key in (["doc", "scenario"], ["doc", "table_id"]):
                if all(k in names for k in key) and pk[:2] != key:
                    con.execute(f"CREATE INDEX {_ident(name + '_' + key[1])} ON {_ident(name)} "
                                f"({', '.join(_ident(k) for k in key)})")
            for doc in docs:
                if any(rec["doc"] == doc for rec in recs):
                    con.execute(f"CREATE VIEW {_ident(view_name(doc, name))} AS SELECT * FROM {_ident(name)} "
                                f"WHERE doc = {_sql_text(doc)}")
        src = ["doc", "title", "short_name", "publisher", "release", "document_id", "date", "chapter"]
        con.execute("CREATE TABLE sources (\n" + ",\n".join(f"  {_ident(c)} TEXT" + (" PRIMARY KEY" if c == "doc" else "")
                                                              for c in src) + "\n)")
        con.executemany("INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        ([s["id"]] + [_s(s.get(c)) for c in src[1:]] for s in a.sources if s["id"] in docs))
        con.execute("CREATE TABLE about (\n  key TEXT PRIMARY KEY,\n  value TEXT NOT NULL\n)")
        con.executemany("INSERT INTO about VALUES (?, ?)", SQLITE_ABOUT + [("rights", rights(a))])
        con.execute("COMMIT")
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / SQLITE
            con.execute("VACUUM INTO ?", (str(out),))
            return out.read_bytes()
    finally:
        con.close()


_DATABASE_LOCK = threading.Lock()


def database(renderer) -> bytes:
    """The SQLite database of the downloads (``sqlite_bytes`` of every download table), computed once per Renderer: the
    datasets page offers it, and the query page runs SQL on the same bytes (its data file, written by the build's
    bundle step in a thread of its own while the pages are generated: hence the lock)."""
    with _DATABASE_LOCK:
        if getattr(renderer, "_database", None) is None:
            renderer._database = sqlite_bytes(renderer, {name: typed_records(renderer, name) for name in NAMES})
        return renderer._database


def _datapackage(renderer, b: Build) -> bytes:
    a = renderer.atlas
    docs = a.docs()
    cite = {s["id"]: {"title": s["title"], "publisher": s["publisher"], "version": s["release"],
                      **({"document_id": s["document_id"]} if s.get("document_id") else {}),
                      **({"date": s["date"]} if s.get("date") else {}),
                      **({"chapter": s["chapter"]} if s.get("chapter") else {})}
            for s in a.sources if s["id"] in docs}
    resources = []
    for name in NAMES:
        path = f"csv/{name}.csv"
        sch = schema(a, name)
        desc = sch.pop("description", "")
        sch.pop("title", None)
        if name in KINDS:
            present = [d for d in docs if not a.frames[name].empty and (a.frames[name]["doc"] == d).any()]
        else:
            present = sorted({rec["doc"] for rec in record_rows(renderer, name)}, key=docs.index)
        resources.append({
            "name": name, "title": KIND_LABEL.get(name, name.capitalize()),
            "description": desc, "path": path, "format": "csv", "mediatype": "text/csv", "encoding": "utf-8",
            "bytes": len(b.files[path]), "hash": "sha256:" + sha256(b.files[path]),
            "sources": [cite[d] for d in present], "schema": sch,
        })
    # Not tabular for Frictionless (no dialect table): validated as a file, by its size and SHA-256.
    resources.append({
        "name": "sqlite", "title": "All tables in one SQLite database",
        "description": ("The resources above as tables of one SQLite database, same columns and rows, with the schemas' "
                        "column types and primary keys, and a view <doc>_<table> per document (bsf_resources). "
                        "Missing values: NULL in numeric columns, '' in text columns."),
        "path": SQLITE, "format": "sqlite", "mediatype": "application/vnd.sqlite3",
        "bytes": len(b.files[SQLITE]), "hash": "sha256:" + sha256(b.files[SQLITE]),
        "sources": list(cite.values()),
    })
    pkg = {
        "name": "benchmark-atlas",
        "title": "Benchmark Atlas: curated telecom network-function benchmark data",
        "description": ("Resources, utilization, latency, database operations, measurements and settings of the benchmark "
                        "tables in vendor benchmarking guides, one tidy row per value, each with its document, scenario, "
                        "table, row and seed line; with the scenarios, the source defects (errata) and the index of every "
                        "table. Numeric columns carry their unit in the field property 'unit'. JSON and Excel forms of the "
                        "same rows: json/<name>.json, " + WORKBOOK + " and " + SQLITE + "."),
        "licenses": [{"name": "other-closed",
                      "title": "Not an open licence: facts quoted from the cited vendor guides, which remain the vendors' copyright"}],
        "rights": rights(a),
        "sources": list(cite.values()),
        "resources": resources,
    }
    return (json.dumps(pkg, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


_CACHE: dict[tuple, Build] = {}


def _data_key(renderer) -> tuple:
    """Identity of the data a build reads: every file under the data folder with its size and mtime."""
    root = Path(renderer.atlas.root)
    return (str(root),) + tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(root.rglob("*")) if p.is_file())


def build(renderer, shown: dict[tuple, tuple[str, str]], views: dict[str, bytes]) -> Build:
    """Every download's bytes: the data's (from ``renderer.atlas``) and the page tables' as shown.

    ``shown``: key -> (path under downloads/, the table's HTML as its page renders it), written through
    ``atlas.tableview.shown_csv``; ``views``: other CSVs a page offers, path under downloads/ -> bytes. Both are the
    output of the step before (``atlas.pages.shown``): this module imports no page. Computed once per data (the bytes
    are deterministic: the page tables are rendered from the same data, so the same data gives the same checksums).
    Raises ValueError naming the file when two tables share a file name, or a download whose typed rows differ in
    number from its CSV rows."""
    data_key = _data_key(renderer)
    if data_key in _CACHE:
        return _CACHE[data_key]
    a = renderer.atlas
    docs = sorted(p.name for p in Path(a.root).iterdir() if p.is_dir() and p.name != "schemas")
    b = Build()
    sheets = {}
    for name in NAMES:
        if name in KINDS:
            header, rows = _read_kind(a, docs, name)
            tix = header.index("table_id")
            by_table: dict[tuple, list] = {}
            for row in rows:
                by_table.setdefault((row[0], row[tix]), []).append(row)
            for key, trows in by_table.items():
                main = a.table(*key)["kind"] == name
                p = table_file(*key, None if main else name)
                if p in b.table_bytes:
                    raise ValueError(f"datasets: two tables share the file name {p}")
                if main:
                    b.tables[key] = p
                else:
                    b.extra.setdefault(key, {})[name] = p
                b.table_bytes[p] = _csv_bytes(header, trows)
        else:
            fields = schema(a, name)["fields"]
            header = [f["name"] for f in fields]
            rows = [[_s(rec[h]) for h in header] for rec in record_rows(renderer, name)]
        b.files[f"csv/{name}.csv"] = _csv_bytes(header, rows)
        fields, recs = typed_records(renderer, name)
        if len(recs) != len(rows):
            raise ValueError(f"datasets: {name}: {len(recs)} typed rows for {len(rows)} CSV rows")
        b.rows[name] = len(recs)
        b.files[f"json/{name}.json"] = ("[\n" + ",\n".join(json.dumps(x, ensure_ascii=False) for x in recs) + "\n]\n").encode("utf-8")
        sheets[name] = (fields, recs)
    for key, (p, html) in shown.items():
        if p in b.table_bytes:
            raise ValueError(f"datasets: two tables share the file name {p}")
        b.shown[key] = p
        b.table_bytes[p] = shown_csv(html)
    for p, data in views.items():
        if p in b.table_bytes:
            raise ValueError(f"datasets: two tables share the file name {p}")
        b.table_bytes[p] = data
    b.files[WORKBOOK] = _workbook(renderer, sheets)
    b.files[SQLITE] = database(renderer)
    b.files["datapackage.json"] = _datapackage(renderer, b)
    b.sums = "".join(f"{sha256(data)}  {p}\n" for p, data in sorted({**b.files, **b.table_bytes}.items()))
    _CACHE.clear()
    _CACHE[data_key] = b
    return b


def built(renderer) -> Build:
    """The downloads step's output for this Renderer (``atlas.pages.shown.build_downloads`` keeps it as
    ``renderer.downloads``): what the datasets page and the links under every table list. Raises RuntimeError when the
    step has not run: the pages read the downloads, they never build them."""
    b = getattr(renderer, "downloads", None)
    if b is None:
        raise RuntimeError("The pages read the downloads step's output: run atlas.pages.shown.build_downloads(renderer) "
                           "(the build's 'downloads' step) before rendering them.")
    return b


def write(b: Build, docs_dir: Path) -> None:
    """Write every download of ``b`` (``build``) under ``docs_dir``/downloads/, with ``SHA256SUMS``.
    Raises OSError if a file cannot be written."""
    out = Path(docs_dir) / "downloads"
    for p, data in {**b.files, **b.table_bytes}.items():
        dest = out / p
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    (out / "SHA256SUMS").write_text(b.sums, encoding="utf-8")
