"""Datasets: the curated data as downloads, a data dictionary, errata and coverage pages.

Everything is built from data/ at site build time, for every document that has
data, with no code per product:

* ``downloads/csv/<name>.csv`` and ``downloads/json/<name>.json``: one tidy table
  per kind (resources, utilization, latency, db_operations, measurements,
  settings) over all documents, plus scenarios, errata and tables (the table
  index) flattened to one row per record;
* ``downloads/benchmark-atlas.xlsx``: one sheet per table, header frozen, the
  unit of every numeric column in its header;
* ``downloads/datapackage.json``: Frictionless Data Package (schemas from
  data/schemas, units, sizes, SHA-256, sources, rights note);
* ``downloads/tables/<doc>/<table id>.csv``: every curated table on its own, the
  rows of data/<doc>/<kind>.csv for that table (linked under each rendered table);
* ``downloads/SHA256SUMS``: checksums of every file above (``sha256sum -c``).

All bytes are produced once per build (``build(r)``) so the checksums shown on
the pages are those of the files written in ``post_build``.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import re
import zipfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pandas as pd

from calculators.formatting import csv_writer

from .datastore import KIND_LABEL, KINDS, _schema

RECORD_TABLES = ["scenarios", "errata", "tables"]
NAMES = KINDS + RECORD_TABLES
WORKBOOK = "benchmark-atlas.xlsx"
FIXED_TIME = datetime(2020, 1, 1)  # workbook metadata and zip entries: same data, same bytes

RIGHTS = ("The numbers and labels in these files are facts quoted from the vendor benchmarking guides cited "
          "in sources: each row names its document, table, row and seed line. The guides, their text and "
          "their layout remain the copyright of their publishers ({publishers}); the atlas does not license the "
          "vendors' text and claims no open licence for it. Cite the guide when you use a number, and check "
          "the publisher's terms before republishing quoted text.")


def rights(a) -> str:
    pubs = list(dict.fromkeys(a.source(d)["publisher"] for d in a.docs()))
    return RIGHTS.format(publishers=", ".join(pubs))

# Unit of every numeric column. A numeric column without a unit stops the build.
UNITS = {
    "row": "row number", "line": "seed line number", "line_first": "seed line number", "line_last": "seed line number",
    "replicas": "pods", "replicas_min": "pods", "replicas_max": "pods",
    "cpu_request_cores": "cores", "cpu_limit_cores": "cores", "cpu_cores": "cores",
    "mem_request_gib": "GiB", "mem_limit_gib": "GiB", "mem_gib": "GiB", "storage_gib": "GiB",
    "observed_percent": "percent", "target_percent": "percent", "observed_abs": "unit in column abs_unit",
    "value_ms": "ms", "value_ms_max": "ms", "ops_per_second": "operations per second",
    "value": "unit in column unit",
    "sites_provisioned": "sites", "load_total": "unit in column load_unit", "load_per_site": "unit in column load_unit",
    "duration_hours": "hours", "segments": "parts", "rows": "source rows", "data_rows": "data rows",
}
# Column names that already end with their unit (the workbook header keeps them as they are).
UNIT_SUFFIXES = ("_cores", "_gib", "_percent", "_ms", "_ms_max", "ops_per_second", "_hours")


def _f(name, type_, description, **constraints):
    d = {"name": name, "type": type_, "description": description}
    if constraints:
        d["constraints"] = constraints
    return d


_DOC = _f("doc", "string", "Source document (product) id, see sources.", required=True)
RECORD_SCHEMAS = {
    "scenarios": {
        "title": "scenarios",
        "description": "Test scenarios (data/<doc>/scenarios.yaml), one row per scenario; nested facts as JSON text.",
        "fields": [
            _DOC,
            _f("scenario", "string", "Scenario id (<doc>-<slug>), the value of the scenario column in the other tables.", required=True, unique=True),
            _f("section", "string", "Section number in the guide.", required=True),
            _f("title", "string", "Section heading exactly as printed.", required=True),
            _f("short_title", "string", "Short display title."),
            _f("deployment_mode", "string", "Deployment mode as stated (e.g. georedundant sites).", required=True),
            _f("release", "string", "Product release the scenario ran on, as printed."),
            _f("sites_provisioned", "integer", "Number of sites provisioned; empty when disputed or not stated.", minimum=1),
            _f("sites_with_traffic", "string", "Sites carrying traffic, separated by ';' (site1;site2)."),
            _f("load_total", "number", "Total load over all sites carrying traffic, in load_unit.", minimum=0),
            _f("load_per_site", "number", "Load per site carrying traffic, in load_unit.", minimum=0),
            _f("load_unit", "string", "Unit of the load.", required=True, enum=["TPS", "MPS", "SPS", "RPS"]),
            _f("load_raw", "string", "The load as printed.", required=True),
            _f("asm", "string", "Aspen Service Mesh (Istio sidecars) in the run.", required=True,
               enum=["enabled", "disabled", "partial", "unknown", "not_applicable"]),
            _f("asm_note", "string", "Note on the service mesh."),
            _f("duration_hours", "number", "Run duration in hours where stated."),
            _f("duration_raw", "string", "Run duration as printed."),
            _f("call_mix_raw", "string", "Call mix as printed."),
            _f("traffic_ratio", "string", "Traffic ratio as printed."),
            _f("subscribers_label", "string", "What the subscriber figure counts, as printed."),
            _f("subscribers_raw", "string", "Subscriber figure as printed."),
            _f("tables", "string", "Table ids of the scenario, separated by ';'."),
            _f("footprint_partial", "boolean", "True when resource rows of the scenario are excluded by an erratum or give no usable "
               "value (or ASM ran with no sidecar rows): every total computed from it (CPU and memory requested, cores per 1K) is a "
               "lower bound. Empty for scenarios without resource tables."),
            _f("footprint_missing", "string", "What those totals leave out: service / container (table, row, errata), separated by ';'."),
            _f("software_json", "string", "Software versions as printed (JSON object)."),
            _f("hardware_json", "string", "Key hardware facts as printed (JSON object); the full tables are in settings."),
            _f("features_json", "string", "Features as printed (JSON object)."),
            _f("interfaces_json", "string", "Interfaces as printed (JSON object)."),
            _f("parameters_json", "string", "Other parameters as printed (JSON object)."),
            _f("contradictions_json", "string", "Contradictions between title, prose and tables, each version cited (JSON array)."),
            _f("notes", "string", "Curator's notes, separated by ' | '."),
        ],
        "missingValues": [""],
    },
    "errata": {
        "title": "errata",
        "description": "Source defects (data/<doc>/errata.yaml) and what the data does about each.",
        "fields": [
            _DOC,
            _f("scenario", "string", "Scenario the erratum belongs to; empty for a defect outside any scenario."),
            _f("table_id", "string", "Table the erratum is in; empty for prose, titles or the document as a whole."),
            _f("erratum", "string", "Erratum id (<doc>-Ennn), cited in the note column of the rows it affects.", required=True, unique=True,
               pattern="^[a-z]+-E[0-9]{3}$"),
            _f("kind", "string", "Kind of defect.", required=True,
               enum=["typo", "name", "format", "unit", "swapped-columns", "impossible-value", "inconsistent-values",
                     "arithmetic", "contradiction", "missing", "duplicate", "other"]),
            _f("where", "string", "Row and column, or the prose location.", required=True),
            _f("lines", "string", "Seed lines, separated by ';'."),
            _f("raw", "string", "The text exactly as printed.", required=True),
            _f("problem", "string", "What is wrong.", required=True),
            _f("action", "string", "What the data does: kept-as-printed, read-as (the reading column holds the value used), "
                                   "flagged-excluded (kept, status flagged, left out of calculations), left-out, noted.",
               required=True, enum=["kept-as-printed", "read-as", "flagged-excluded", "left-out", "noted"]),
            _f("reading", "string", "The value or name the data uses, where it differs from the printed text."),
            _f("reason", "string", "Why the reading is certain, or why the value is flagged."),
        ],
        "missingValues": [""],
    },
    "tables": {
        "title": "tables",
        "description": "Every table found in each guide (data/<doc>/tables.yaml) and where its rows live in the data.",
        "fields": [
            _DOC,
            _f("scenario", "string", "Scenario the table belongs to; empty for a table shared by several runs or outside any scenario."),
            _f("table_id", "string", "Table id: caption number as printed, or U-<section>-<n> for an uncaptioned table.", required=True),
            _f("section", "string", "Section of the guide."),
            _f("caption", "string", "Caption exactly as printed, without 'Table N-M'; empty when the table has none."),
            _f("title", "string", "Display title."),
            _f("kind", "string", "Which table holds its rows (resources.csv, ...), or excluded.", required=True,
               enum=KINDS + ["excluded"]),
            _f("category", "string", "Category of the table."),
            _f("line_first", "integer", "First seed line of the table.", required=True, minimum=1),
            _f("line_last", "integer", "Last seed line of the table.", required=True, minimum=1),
            _f("segments", "integer", "Printed parts merged into the table ('(Cont.)').", required=True, minimum=1),
            _f("rows", "integer", "Logical rows in the source table (header excluded).", required=True, minimum=0),
            _f("data_rows", "integer", "Rows of the table in the data file of its kind (tidy rows: one per value or container).",
               required=True, minimum=0),
            _f("data_files", "string", "Data files holding its rows, with their row counts: kind:rows separated by ';' "
                                       "(a table can put a few values in a second kind, e.g. latency read from a measurements table)."),
            _f("scenarios", "string", "Scenarios whose pages show the table, separated by ';'."),
            _f("header", "string", "Header cells as printed, separated by ' | '."),
            _f("excluded_reason", "string", "Why the table is not curated."),
            _f("note", "string", "Curator's note."),
        ],
        "missingValues": [""],
    },
}


def schema(name: str) -> dict:
    """Table Schema of a download, with the unit of every numeric field."""
    d = json.loads(json.dumps(_schema(name) if name in KINDS else RECORD_SCHEMAS[name]))
    for f in d["fields"]:
        if f["type"] in ("integer", "number"):
            if f["name"] not in UNITS:
                raise ValueError(f"datasets: numeric column {name}.{f['name']} has no unit in atlas/downloads.py UNITS")
            f["unit"] = UNITS[f["name"]]
    return d


def header_label(name: str, f: dict) -> str:
    """Workbook header: the column name, with its unit where the name does not carry it."""
    if f["type"] not in ("integer", "number") or name.endswith(UNIT_SUFFIXES):
        return name
    return f"{name} [{f['unit']}]"


def table_file(doc: str, tid: str, kind: str | None = None) -> str:
    """Path of a table's own CSV, relative to downloads/: <table id>.csv for the rows of the table's kind (those the
    pages show), <table id>.<other kind>.csv for rows the curation put in another file."""
    return f"tables/{doc}/{re.sub(r'[^A-Za-z0-9_-]+', '-', tid)}{'.' + kind if kind else ''}.csv"


def sha256(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


@dataclass
class Build:
    files: dict[str, bytes] = field(default_factory=dict)      # main downloads, path relative to downloads/
    tables: dict[tuple, str] = field(default_factory=dict)     # (doc, table id) -> CSV of the rows of its kind
    extra: dict[tuple, dict] = field(default_factory=dict)     # (doc, table id) -> {other kind: CSV}
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


def _read_kind(root: Path, docs: list[str], kind: str) -> tuple[list[str], list[list[str]]]:
    """Rows of data/<doc>/<kind>.csv over all documents, cells as the files hold them."""
    header = [f["name"] for f in _schema(kind)["fields"]]
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


def record_rows(r, name: str) -> list[dict]:
    a = r.a
    if name == "scenarios":
        out = []
        for s in a.scenarios:
            load, dur, mix, sub = s["load"], s.get("duration") or {}, s.get("call_mix") or {}, s.get("subscribers") or {}
            out.append({
                "doc": s["doc"], "scenario": s["id"], "section": s["section"], "title": s["title"],
                "short_title": s.get("short_title"), "deployment_mode": s["deployment_mode"], "release": s.get("release"),
                "sites_provisioned": s.get("sites_provisioned"), "sites_with_traffic": ";".join(s.get("sites_with_traffic") or []),
                "load_total": load.get("total"), "load_per_site": load.get("per_site"), "load_unit": load["unit"], "load_raw": load["raw"],
                "asm": s["asm"], "asm_note": s.get("asm_note"), "duration_hours": dur.get("hours"), "duration_raw": dur.get("raw"),
                "call_mix_raw": mix.get("raw"), "traffic_ratio": mix.get("traffic_ratio"),
                "subscribers_label": sub.get("label"), "subscribers_raw": sub.get("raw"), "tables": ";".join(s["tables"]),
                "footprint_partial": r.completeness(s["id"])["partial"] if r.baseline(s["id"]) else None,
                "footprint_missing": r.missing_note(s["id"]) or None,
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


def typed_records(r, name: str) -> tuple[list[dict], list[dict]]:
    """(fields, records with typed values, '' for a missing string) for one download table."""
    fields = schema(name)["fields"]
    if name in KINDS:
        df = r.a.frames[name]
        cols = {f["name"]: df[f["name"]].tolist() for f in fields}
        n = len(df)
        recs = [{f["name"]: _typed(cols[f["name"]][i], f["type"]) for f in fields} for i in range(n)]
    else:
        recs = [{f["name"]: _typed(row.get(f["name"]), f["type"]) for f in fields} for row in record_rows(r, name)]
    for rec in recs:
        for f in fields:
            if f["type"] == "string" and rec[f["name"]] is None:
                rec[f["name"]] = ""
    return fields, recs


def _workbook(r, sheets: dict[str, tuple[list[dict], list[dict]]]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    wb = Workbook()
    about = wb.active
    about.title = "about"
    about.append(["Benchmark Atlas: curated telecom network-function benchmark data"])
    about["A1"].font = Font(bold=True)
    about.append([])
    about.append(["Rights", rights(r.a)])
    about.append(["Sheets", "One sheet per table; the first row is the header (frozen), with the unit of every numeric column. "
                            "Empty cells are values the source does not give (see the status column)."])
    about.append([])
    about.append(["Sources"])
    about.append(["doc", "title", "publisher", "release", "document id", "date", "chapter"])
    for s in r.a.sources:
        about.append([s["id"], s["title"], s["publisher"], s["release"], s.get("document_id"), s.get("date"), s.get("chapter")])
    about.column_dimensions["A"].width = 12
    about.column_dimensions["B"].width = 100
    for name, (fields, recs) in sheets.items():
        ws = wb.create_sheet(name)
        ws.append([header_label(f["name"], f) for f in fields])
        for c in ws[1]:
            c.font = Font(bold=True)
        for rec in recs:
            ws.append([None if rec[f["name"]] == "" else rec[f["name"]] for f in fields])
        for row in ws.iter_rows(min_row=2):
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    c.data_type = "s"  # text as printed, never a formula
        ws.freeze_panes = "A2"
        ws.auto_filter.ref = f"A1:{get_column_letter(len(fields))}{max(1, len(recs) + 1)}"
        for i, f in enumerate(fields, 1):
            ws.column_dimensions[get_column_letter(i)].width = max(10, min(40, len(header_label(f["name"], f)) + 2))
    wb.properties.creator = "Benchmark Atlas"
    wb.properties.created = FIXED_TIME
    wb.properties.modified = FIXED_TIME
    buf = io.BytesIO()
    wb.save(buf)
    # Rewrite the zip with fixed entry times, so the same data gives the same bytes and checksum.
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zi = zipfile.ZipInfo(info.filename, date_time=FIXED_TIME.timetuple()[:6])
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = info.external_attr
            data = zin.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps the save time as 'modified'
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                              rb"\g<1>" + FIXED_TIME.strftime("%Y-%m-%dT%H:%M:%SZ").encode() + rb"\g<2>", data)
            zout.writestr(zi, data)
    return out.getvalue()


def _datapackage(r, b: Build) -> bytes:
    a = r.a
    docs = a.docs()
    cite = {s["id"]: {"title": s["title"], "publisher": s["publisher"], "version": s["release"],
                      **({"document_id": s["document_id"]} if s.get("document_id") else {}),
                      **({"date": s["date"]} if s.get("date") else {}),
                      **({"chapter": s["chapter"]} if s.get("chapter") else {})}
            for s in a.sources if s["id"] in docs}
    resources = []
    for name in NAMES:
        path = f"csv/{name}.csv"
        sch = schema(name)
        desc = sch.pop("description", "")
        sch.pop("title", None)
        if name in KINDS:
            present = [d for d in docs if not a.frames[name].empty and (a.frames[name]["doc"] == d).any()]
        else:
            present = sorted({rec["doc"] for rec in record_rows(r, name)}, key=docs.index)
        resources.append({
            "name": name, "title": KIND_LABEL.get(name, name.capitalize()),
            "description": desc, "path": path, "format": "csv", "mediatype": "text/csv", "encoding": "utf-8",
            "bytes": len(b.files[path]), "hash": "sha256:" + sha256(b.files[path]),
            "sources": [cite[d] for d in present], "schema": sch,
        })
    pkg = {
        "name": "benchmark-atlas",
        "title": "Benchmark Atlas: curated telecom network-function benchmark data",
        "description": ("Resources, utilization, latency, database operations, measurements and settings of the benchmark "
                        "tables in vendor benchmarking guides, one tidy row per value, each with its document, scenario, "
                        "table, row and seed line; with the scenarios, the source defects (errata) and the index of every "
                        "table. Numeric columns carry their unit in the field property 'unit'. JSON and Excel forms of the "
                        "same rows: json/<name>.json and " + WORKBOOK + "."),
        "licenses": [{"name": "other-closed",
                      "title": "Not an open licence: facts quoted from the cited vendor guides, which remain the vendors' copyright"}],
        "rights": rights(a),
        "sources": list(cite.values()),
        "resources": resources,
    }
    return (json.dumps(pkg, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


_CACHE: dict[tuple, Build] = {}


def _data_key(r) -> tuple:
    """Identity of the data a build reads: every file under the data folder with its size and mtime."""
    root = Path(r.a.root)
    return (str(root),) + tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(root.rglob("*")) if p.is_file())


def build(r) -> Build:
    """Every download's bytes, computed once per Renderer and data (the bytes are deterministic: same data, same
    checksums, whichever Renderer of the build asks)."""
    cached = getattr(r, "_datasets_build", None)
    if cached is not None:
        return cached
    key = _data_key(r)
    if key in _CACHE:
        r._datasets_build = _CACHE[key]
        return _CACHE[key]
    a = r.a
    docs = sorted(p.name for p in Path(a.root).iterdir() if p.is_dir() and p.name != "schemas")
    b = Build()
    sheets = {}
    for name in NAMES:
        if name in KINDS:
            header, rows = _read_kind(Path(a.root), docs, name)
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
            fields = schema(name)["fields"]
            header = [f["name"] for f in fields]
            rows = [[_s(rec[h]) for h in header] for rec in record_rows(r, name)]
        b.files[f"csv/{name}.csv"] = _csv_bytes(header, rows)
        fields, recs = typed_records(r, name)
        if len(recs) != len(rows):
            raise ValueError(f"datasets: {name}: {len(recs)} typed rows for {len(rows)} CSV rows")
        b.rows[name] = len(recs)
        b.files[f"json/{name}.json"] = ("[\n" + ",\n".join(json.dumps(x, ensure_ascii=False) for x in recs) + "\n]\n").encode("utf-8")
        sheets[name] = (fields, recs)
    b.files[WORKBOOK] = _workbook(r, sheets)
    b.files["datapackage.json"] = _datapackage(r, b)
    b.sums = "".join(f"{sha256(data)}  {p}\n" for p, data in sorted({**b.files, **b.table_bytes}.items()))
    r._datasets_build = b
    _CACHE.clear()
    _CACHE[key] = b
    return b


def write(r, docs_dir: Path) -> None:
    """Write every download (``build(r)``) under ``docs_dir``/downloads/, with ``SHA256SUMS``.
    Raises OSError if a file cannot be written."""
    b = build(r)
    out = Path(docs_dir) / "downloads"
    for p, data in {**b.files, **b.table_bytes}.items():
        dest = out / p
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    (out / "SHA256SUMS").write_text(b.sums, encoding="utf-8")
