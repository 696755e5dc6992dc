"""Datasets: the downloads hold exactly the curated data, the package validates,
checksums match, and the dictionary, errata and coverage pages cover everything."""
from __future__ import annotations

import csv
import hashlib
import json
import math
import posixpath
import re
from html import unescape
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from atlas.datastore import KINDS
from conftest import DOC_IDS, ROOT, one
from test_download_files import BSF_3_3_SCENARIO, SCENARIO_JSON

RECORDS = ["scenarios", "errata", "tables"]


def _norm(v):
    """A cell as a comparable Python value: missing is None, numbers are floats."""
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, float)) or hasattr(v, "item"):
        return float(v)
    return None if v == "" else str(v)


def _rows(df: pd.DataFrame, cols) -> list[tuple]:
    return [tuple(_norm(v) for v in r) for r in df[list(cols)].itertuples(index=False, name=None)]


def _inert(rows: list[tuple]) -> list[tuple]:
    """Rows as the site's CSVs write them: formula-like text cells start with an apostrophe
    (calculators.formatting.csv_cell, whose rule tests/test_csv_injection.py checks case by case)."""
    from calculators.formatting import csv_cell
    return [tuple(csv_cell(v) for v in r) for r in rows]


def _schema_fields(kind):
    return [f["name"] for f in json.loads((ROOT / "data" / "schemas" / f"{kind}.schema.json").read_text())["fields"]]


def _raw_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _html(site: Path, url_path: str) -> str:
    return (site / url_path.strip("/") / "index.html").read_text(encoding="utf-8")


def _resolve(page_dir: str, href: str) -> tuple[str, str]:
    """(path relative to the site root, fragment) of a relative href on the page at page_dir/."""
    path, _, frag = unescape(href).partition("#")
    return posixpath.normpath(posixpath.join(page_dir, path)), frag


# ------------------------------------------------------------------ CSV and JSON
@pytest.mark.parametrize("kind", KINDS)
def test_csv_download_is_the_data(built_site, atlas, kind):
    """csv/<kind>.csv parses (pandas, the schema's types) to the same rows and values as data/<doc>/<kind>.csv."""
    from atlas.datastore import _validate_csv
    got, _ = _validate_csv(built_site / "downloads" / "csv" / f"{kind}.csv", kind, [s["id"] for s in atlas.sources])
    want = atlas.frames[kind]
    assert list(got.columns) == _schema_fields(kind)
    assert len(got) == len(want) > 0
    assert sorted(set(got["doc"])) == sorted(set(want["doc"]))
    assert _rows(got, want.columns) == _inert(_rows(want, want.columns))


def test_csv_download_writes_jvm_flags_as_text(built_site):
    """ShCM's JVM flags (data/shcm/settings.csv, T-jvm-settings) start with '-': Excel would run
    -XX:+TieredCompilation as a formula, so the CSVs hold it behind an apostrophe; the JSON keeps it."""
    for path in ("csv/settings.csv", "tables/shcm/T-jvm-settings.csv"):
        rows = [r for r in _raw_csv(built_site / "downloads" / path) if r["table_id"] == "T-jvm-settings"]
        flag = next(r for r in rows if r["row"] == "4")
        assert (flag["row_label"], flag["value"]) == ("'-XX:+TieredCompilation", "'-XX:+TieredCompilation"), path
    js = json.loads((built_site / "downloads" / "json" / "settings.json").read_text(encoding="utf-8"))
    assert any(r["value"] == "-XX:+TieredCompilation" for r in js)


@pytest.mark.parametrize("kind", KINDS)
def test_json_download_is_the_data(built_site, atlas, kind):
    got = pd.read_json(built_site / "downloads" / "json" / f"{kind}.json", dtype=False, precise_float=True)
    want = atlas.frames[kind]
    assert list(got.columns) == _schema_fields(kind)
    assert _rows(got, want.columns) == _rows(want, want.columns)


def test_csv_and_json_hold_bsf_table_3_25_management_service(built_site):
    """BSF guide, Table 3-25 (scenario 3.3), BSF Management Service: 14 replicas, CPU request 4 cores, memory request 1 GiB."""
    df = pd.read_csv(built_site / "downloads" / "csv" / "resources.csv", dtype=str, keep_default_na=False)
    row = df[(df.doc == "bsf") & (df.table_id == "3-25") & (df.service == "BSF Management Service") & (df.container == "app")]
    assert len(row) == 1
    assert (row.iloc[0].scenario, row.iloc[0].replicas, float(row.iloc[0].cpu_request_cores), float(row.iloc[0].mem_request_gib)) \
        == ("bsf-3-3", "14", 4.0, 1.0)
    js = json.loads((built_site / "downloads" / "json" / "resources.json").read_text())
    rec = next(r for r in js if r["doc"] == "bsf" and r["table_id"] == "3-25" and r["service"] == "BSF Management Service"
               and r["container"] == "app")
    assert rec["replicas"] == 14 and rec["cpu_request_cores"] == 4 and rec["is_sidecar"] is False and rec["cpu_cores"] is None


def test_record_tables_cover_every_scenario_erratum_and_table(built_site, atlas):
    sc = pd.read_csv(built_site / "downloads" / "csv" / "scenarios.csv", dtype=str, keep_default_na=False)
    assert list(sc["scenario"]) == [s["id"] for s in atlas.scenarios]
    bsf33 = sc[sc.scenario == "bsf-3-3"].iloc[0].to_dict()  # every column, as the guide's section 3.3 prints it
    assert {k: v for k, v in bsf33.items() if k in BSF_3_3_SCENARIO} == BSF_3_3_SCENARIO
    assert {k: json.loads(bsf33[k]) for k in SCENARIO_JSON} == SCENARIO_JSON
    assert set(bsf33) == set(BSF_3_3_SCENARIO) | set(SCENARIO_JSON) | {"call_model_json", "contradictions_json"}
    er = pd.read_csv(built_site / "downloads" / "csv" / "errata.csv", dtype=str, keep_default_na=False)
    assert list(er["erratum"]) == [e["id"] for e in atlas.errata]
    e1 = er[er.erratum == "bsf-E001"].iloc[0]
    assert (e1.table_id, e1.raw, e1.action, e1.reading) == ("3-6", "ndbappmysql", "read-as", "ndbappmysqld")
    tb = json.loads((built_site / "downloads" / "json" / "tables.json").read_text())
    assert [(t["doc"], t["table_id"]) for t in tb] == [(t["doc"], t["id"]) for t in atlas.tables]
    t325 = next(t for t in tb if t["doc"] == "bsf" and t["table_id"] == "3-25")
    assert t325["kind"] == "resources" and t325["data_rows"] == 24 and t325["data_files"] == "resources:24"
    # every data row of every kind is counted in exactly one table
    assert sum(t["data_rows"] for t in tb) == sum(len(df) for df in atlas.frames.values())


# ------------------------------------------------------------------ workbook
def test_workbook_one_sheet_per_table_frozen_header_units(built_site, atlas):
    from openpyxl import load_workbook

    from atlas.downloads import schema
    wb = load_workbook(built_site / "downloads" / "benchmark-atlas.xlsx", read_only=False)
    assert set(KINDS + RECORDS) <= set(wb.sheetnames)
    for kind in KINDS + RECORDS:
        ws = wb[kind]
        assert ws.freeze_panes == "A2", kind
        header = [c.value for c in ws[1]]
        fields = schema(atlas, kind)["fields"]
        assert [h.split(" [")[0] for h in header] == [f["name"] for f in fields]
        for h, f in zip(header, fields):
            if f["type"] in ("integer", "number"):
                assert re.search(r"(_cores|_gib|_percent|_ms|_ms_max|ops_per_second|_hours)$|\[.+\]$", h), (kind, h)
    assert "replicas [pods]" in [c.value for c in wb["resources"][1]]
    assert "cpu_request_cores" in [c.value for c in wb["resources"][1]]
    assert "value [unit in column unit]" in [c.value for c in wb["measurements"][1]]
    for kind in KINDS:
        ws = wb[kind]
        want = atlas.frames[kind]
        got = [tuple(_norm(v) for v in row) for row in ws.iter_rows(min_row=2, values_only=True)]
        assert got == _rows(want, want.columns), kind
    rows = list(wb["resources"].iter_rows(min_row=2, values_only=True))
    names = [f["name"] for f in schema(atlas, "resources")["fields"]]
    mgmt = [dict(zip(names, r)) for r in rows]
    mgmt = [r for r in mgmt if r["doc"] == "bsf" and r["table_id"] == "3-25" and r["service"] == "BSF Management Service"]
    assert sorted((r["container"], r["replicas"], r["cpu_request_cores"]) for r in mgmt) == [("app", 14, 4), ("istio-proxy", 14, 2)]
    assert "copyright" in " ".join(str(c.value) for row in wb["about"].iter_rows() for c in row if c.value)


# ------------------------------------------------------------------ data package and checksums
def test_datapackage_validates_with_frictionless(built_site, atlas):
    import frictionless
    path = built_site / "downloads" / "datapackage.json"
    report = frictionless.validate(str(path))
    assert report.valid, report.flatten(["taskName", "rowNumber", "fieldName", "type", "note"])[:10]
    assert len(report.tasks) == len(KINDS + RECORDS) + 1
    rows = {t.name: t.stats.get("rows") for t in report.tasks}
    assert rows["resources"] == len(atlas.frames["resources"]) and rows["errata"] == len(atlas.errata)
    # the SQLite file: a resource of its own, checked as a file (size and SHA-256), not as a table
    assert {t.name: t.type for t in report.tasks}["sqlite"] == "file"
    pkg = json.loads(path.read_text())
    db = next(r for r in pkg["resources"] if r["name"] == "sqlite")
    assert (db["path"], db["format"], db["mediatype"]) == ("benchmark-atlas.sqlite", "sqlite", "application/vnd.sqlite3")
    assert db["bytes"] == (path.parent / db["path"]).stat().st_size
    assert db["hash"] == "sha256:" + hashlib.sha256((path.parent / db["path"]).read_bytes()).hexdigest()
    for r in pkg["resources"]:
        if r["name"] == "sqlite":
            continue
        if r["name"] in KINDS:
            assert [f["name"] for f in r["schema"]["fields"]] == _schema_fields(r["name"])
        for f in r["schema"]["fields"]:
            if f["type"] in ("integer", "number"):
                assert f.get("unit"), (r["name"], f["name"])
        assert r["hash"] == "sha256:" + hashlib.sha256((path.parent / r["path"]).read_bytes()).hexdigest()
    res = next(r for r in pkg["resources"] if r["name"] == "resources")
    assert next(f for f in res["schema"]["fields"] if f["name"] == "mem_request_gib")["unit"] == "GiB"
    # rights: facts quoted from the vendors' guides; no open licence claimed
    assert "copyright" in pkg["rights"] and "Oracle" in pkg["rights"]
    assert all(lic["name"] not in ("CC-BY-4.0", "CC0-1.0", "ODC-BY-1.0", "ODbL-1.0", "PDDL-1.0") for lic in pkg["licenses"])
    titles = {s["title"] for s in pkg["sources"]}
    assert {s["title"] for s in atlas.sources if s["id"] in atlas.docs()} == titles


def _schema_file(name: str) -> dict:
    """data/schemas' Table Schema of download table ``name``, as the file holds it."""
    file = f"{name}.schema.json" if name in KINDS else f"{name}.csv.schema.json"
    return json.loads((ROOT / "data" / "schemas" / file).read_text(encoding="utf-8"))


def test_datapackage_schemas_are_the_schema_files(built_site):
    """Each resource's schema is its file in data/schemas (the six kinds' <kind>.schema.json, the flattened record
    files' <name>.csv.schema.json), description and title aside, with each enumFrom resolved: the document ids of
    sources.yaml in its order, or the enum of the record file's JSON Schema."""
    pkg = json.loads((built_site / "downloads" / "datapackage.json").read_text(encoding="utf-8"))
    errata_kinds = json.loads((ROOT / "data" / "schemas" / "errata.schema.json").read_text())["items"]["properties"]["kind"]["enum"]
    assert {r["name"] for r in pkg["resources"]} == set(KINDS + RECORDS) | {"sqlite"}
    for r in pkg["resources"]:
        if r["name"] == "sqlite":
            assert "schema" not in r  # not tabular: one file of many tables
            continue
        want = _schema_file(r["name"])
        assert r["description"] == want.pop("description") and "title" not in r["schema"]
        want.pop("title")
        for f in want["fields"]:
            ref = f.pop("enumFrom", None)
            if ref == "sources":
                f["constraints"]["enum"] = DOC_IDS
            elif ref:
                f["constraints"]["enum"] = next(x for x in r["schema"]["fields"] if x["name"] == f["name"])["constraints"]["enum"]
        assert r["schema"] == want, r["name"]
    fields = {(r["name"], f["name"]): f for r in pkg["resources"] for f in r.get("schema", {}).get("fields", [])}
    assert fields[("resources", "doc")]["constraints"] == {"required": True, "enum": DOC_IDS}
    assert fields[("settings", "doc")]["constraints"]["enum"] == DOC_IDS
    assert fields[("errata", "kind")]["constraints"]["enum"] == errata_kinds and "swapped-columns" in errata_kinds
    assert fields[("tables", "kind")]["constraints"]["enum"] == KINDS + ["excluded"]
    assert fields[("scenarios", "asm")]["constraints"]["enum"] == ["enabled", "disabled", "partial", "unknown", "not_applicable"]
    assert (fields[("resources", "replicas")]["unit"], fields[("scenarios", "duration_hours")]["unit"],
            fields[("tables", "line_first")]["unit"]) == ("pods", "hours", "seed line number")


def test_datapackage_catches_a_changed_file(built_site, tmp_path):
    """The validation is real: a row number of 0 in a copy breaks the schema (minimum 1) and the hash."""
    import shutil

    import frictionless
    d = tmp_path / "downloads"
    shutil.copytree(built_site / "downloads", d)
    p = d / "csv" / "db_operations.csv"
    lines = p.read_text().splitlines()
    cells = lines[1].split(",")
    cells[3] = "0"
    lines[1] = ",".join(cells)
    p.write_text("\n".join(lines) + "\n")
    report = frictionless.validate(str(d / "datapackage.json"))
    assert not report.valid
    types = {e[0] for e in report.flatten(["type"])}
    assert "constraint-error" in types, types


def test_checksums_match_every_download(built_site):
    root = built_site / "downloads"
    sums = {}
    for line in (root / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split("  ", 1)
        sums[name] = digest
    # .gz and .br beside a file are its precompressed copies for the server (build step 'compress', the same
    # bytes once decoded: tests/test_precompress.py), not downloads of their own
    files = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and p.name != "SHA256SUMS"
             and not (p.suffix in (".gz", ".br") and p.with_suffix("").is_file())}
    assert set(sums) == files
    for name, digest in sums.items():
        assert hashlib.sha256((root / name).read_bytes()).hexdigest() == digest, name
    page = _html(built_site, "data/datasets")
    for name in ("benchmark-atlas.xlsx", "benchmark-atlas.sqlite", "datapackage.json", "csv/resources.csv", "json/errata.json"):
        # (the page's table cells are spaced apart: atlas.pages.generate, for the search index)
        assert re.search(rf'downloads/{re.escape(name)}" download>[^<]*</a></td>\s*<td>{(root / name).stat().st_size}</td>'
                         rf'\s*<td><code class="atlas-sha256">{sums[name]}</code>', page), name


def test_datasets_page_links_every_download(built_site):
    page = _html(built_site, "data/datasets")
    hrefs = {_resolve("data/datasets", h)[0] for h in re.findall(r'href="([^"]+)"', page) if "downloads/" in h}
    for name in KINDS + RECORDS:
        assert f"downloads/csv/{name}.csv" in hrefs and f"downloads/json/{name}.json" in hrefs
    assert {"downloads/benchmark-atlas.xlsx", "downloads/benchmark-atlas.sqlite", "downloads/datapackage.json",
            "downloads/SHA256SUMS"} <= hrefs
    for h in hrefs:
        assert (built_site / h).is_file(), h


# ------------------------------------------------------------------ per-table downloads
def _table_link(html: str, tid: str) -> str:
    start = html.index(f'data-atlas-table="{tid}"')
    m = re.search(r'<a class="atlas-download-table" href="([^"]+)"', html[start:])
    return m.group(1)


def test_scenario_table_download_holds_exactly_that_table(built_site):
    """BSF 3.3, Table 3-25: 24 rows (12 services x app and istio-proxy); BSF Management Service app replicas 14."""
    html = _html(built_site, "products/bsf/bsf-3-3")
    path, _ = _resolve("products/bsf/bsf-3-3", _table_link(html, "3-25"))
    assert path == "downloads/tables/bsf/3-25.csv"
    got = pd.read_csv(built_site / path, dtype=str, keep_default_na=False)
    assert len(got) == 24
    assert list(got.columns) == _schema_fields("resources")
    mgmt = got[(got.service == "BSF Management Service") & (got.container == "app")].iloc[0]
    assert (mgmt.replicas, mgmt.cpu_request_cores, mgmt.row_label) == ("14", "4", "BSF Management Service")
    want = [r for r in _raw_csv(ROOT / "data" / "bsf" / "resources.csv") if r["table_id"] == "3-25"]
    assert got.to_dict("records") == want


def test_every_rendered_table_links_its_own_rows(built_site, atlas):
    """On every product and scenario page, each download link under a table resolves, and the file holds the rows of
    data/<doc>/<kind>.csv for that table, in the same columns."""
    raw = {(doc, kind): _raw_csv(ROOT / "data" / doc / f"{kind}.csv")
           for doc in atlas.docs() for kind in KINDS if (ROOT / "data" / doc / f"{kind}.csv").exists()}
    pages = [f"products/{d}" for d in atlas.docs()] + [f"products/{s['doc']}/{s['id']}" for s in atlas.scenarios]
    seen = set()
    for page in pages:
        html = _html(built_site, page)
        doc = page.split("/")[1]
        for href, n in re.findall(r'<a class="atlas-download-(?:table|extra)" href="([^"]+)" download data-rows="(\d+)"', html):
            path, _ = _resolve(page, href)
            assert (built_site / path).is_file(), (page, href)
            if path in seen:
                continue
            seen.add(path)
            stem = path.rsplit("/", 1)[1][:-4]
            tid_file, _, kind = stem.partition(".")
            t = next(t for t in atlas.tables if t["doc"] == doc and re.sub(r"[^A-Za-z0-9_-]+", "-", t["id"]) == tid_file)
            kind = kind or t["kind"]
            got = _raw_csv(built_site / path)
            want = [r for r in raw[(doc, kind)] if r["table_id"] == t["id"]]
            assert got == [dict(zip(r, v)) for r, v in zip(want, _inert([tuple(r.values()) for r in want]))], path
            assert len(got) == int(n) > 0
    curated = {(doc, t) for doc, kind in raw for t in {r["table_id"] for r in raw[(doc, kind)]}}
    assert len(seen) >= len(curated)
    # a table whose values the curation split over two kinds: NEF Table 3-5 (measurements, with latency rows)
    html = _html(built_site, "products/nef/" + next(s["id"] for s in atlas.scenarios if s["doc"] == "nef" and "3-5" in s["tables"]))
    assert "downloads/tables/nef/3-5.latency.csv" in html and "downloads/tables/nef/3-5.csv" in html


# ------------------------------------------------------------------ pages
def test_coverage_page_lists_every_table_of_every_document(built_site, atlas):
    html = _html(built_site, "data/coverage")
    for doc in atlas.docs():
        tables = yaml.safe_load((ROOT / "data" / doc / "tables.yaml").read_text())
        seg = html.split(f'data-atlas-table="coverage-{doc}"', 1)[1].split("</table>", 1)[0]
        ids = [unescape(x) for x in re.findall(r"<tr[^>]*><td>([^<]*)</td>", seg)]
        assert ids == [t["id"] for t in tables], doc
        assert f"{len(tables)} tables" in html
    bsf = html.split('data-atlas-table="coverage-bsf"', 1)[1].split("</table>", 1)[0]
    row = bsf.split("<td>3-25</td>", 1)[1].split("</tr>", 1)[0]
    assert "<code>resources.csv</code>: 24 rows" in row and 'href="../../products/bsf/bsf-3-3/#table-3-25"' in row
    assert "<th>Where in <code>data/bsf/</code></th>" in bsf  # the folder of the files the rows name
    front = bsf.split("<td>U-front-1</td>", 1)[1].split("</tr>", 1)[0]
    assert "excluded: Table of contents" in front
    links = set(re.findall(r'href="(\.\./\.\./products/[^"#]+)#(table-[^"]*)"', html))
    assert len(links) >= sum(1 for t in atlas.tables if t["kind"] != "excluded")
    for href in links:
        path, _ = _resolve("data/coverage", href[0])
        target = (built_site / path / "index.html").read_text()
        assert f'id="{href[1]}"' in target, href


def test_errata_page_links_resolve_to_anchors(built_site, atlas):
    html = _html(built_site, "data/errata")
    table = html.split('data-atlas-table="errata"', 1)[1].split("</table>", 1)[0]
    links = re.findall(r'<td><a href="([^"]+)">([a-z]+-E\d{3})</a></td>', table)
    assert [e for _, e in links] == [e["id"] for doc in atlas.docs() for e in atlas.errata if e["doc"] == doc]
    cache: dict[str, str] = {}
    for href, eid in links:
        path, frag = _resolve("data/errata", href)
        assert frag == eid
        if path not in cache:
            cache[path] = (built_site / path / "index.html").read_text()
        assert f'<li id="{eid}">' in cache[path], (eid, path)
    assert ("../../products/bsf/bsf-3-1/#bsf-E001", "bsf-E001") in links
    for doc in atlas.docs():
        assert f'id="errata-{doc}"' in table and f'href="#errata-{doc}"' in html


def test_dictionary_page_has_every_column_with_units(built_site):
    html = _html(built_site, "data/dictionary")
    for kind in KINDS + RECORDS:
        assert f'id="{kind}"' in html
        for f in _schema_file(kind)["fields"]:
            assert f'id="{kind}-{f["name"]}"' in html, (kind, f["name"])
    row = html.split('id="resources-cpu_request_cores"', 1)[1].split("</tr>", 1)[0]
    assert re.search(r"<td>number</td>\s*<td>cores</td>", row) and "CPU request per pod/container, cores." in row
    row = html.split('id="latency-statistic"', 1)[1].split("</tr>", 1)[0]
    assert "<code>p99</code>" in row and "<td>yes</td>" in row
    # the document ids are those of data/sources.yaml, in its order
    row = html.split('id="measurements-doc"', 1)[1].split("</tr>", 1)[0]
    assert "<td>" + " ".join(f"<code>{d}</code>" for d in DOC_IDS) + "</td>" in row
    # the flattened record files: units and enums from data/schemas too
    row = html.split('id="scenarios-duration_hours"', 1)[1].split("</tr>", 1)[0]
    assert re.search(r"<td>number</td>\s*<td>hours</td>", row)
    row = html.split('id="errata-action"', 1)[1].split("</tr>", 1)[0]
    assert "<code>kept-as-printed</code> <code>read-as</code> <code>flagged-excluded</code> <code>left-out</code> <code>noted</code>" in row


@pytest.mark.parametrize("schema_file, field", [("resources.schema.json", "replicas"), ("scenarios.csv.schema.json", "load_total")])
def test_numeric_field_without_unit_stops_the_build(tmp_path, monkeypatch, schema_file, field):
    """Units live in data/schemas: a numeric field without one stops the build (loading the data for a data file's
    schema, writing the downloads for a flattened record file's), naming the schema file and the field."""
    import shutil

    from atlas import datastore, downloads
    schemas = tmp_path / "schemas"
    shutil.copytree(ROOT / "data" / "schemas", schemas)
    p = schemas / schema_file
    d = json.loads(p.read_text(encoding="utf-8"))
    assert next(f for f in d["fields"] if f["name"] == field).pop("unit") in ("pods", "unit in column load_unit")
    p.write_text(json.dumps(d), encoding="utf-8")
    monkeypatch.setattr(datastore, "SCHEMAS", schemas)
    with pytest.raises(datastore.DataError) as e:
        datastore.load() if schema_file == "resources.schema.json" else downloads.schema(datastore.load(), "scenarios")
    assert f"{p}: field {field}: " in str(e.value) and 'no "unit"' in str(e.value), str(e.value)


def test_enum_reference_to_nothing_stops_the_build(tmp_path, monkeypatch):
    """A flattened record file's enum is its JSON Schema's ("enumFrom": "<file>#<pointer>"): a reference that
    finds no enum is named with the schema file and the field, never read as 'any value'."""
    import shutil

    from atlas import datastore
    schemas = tmp_path / "schemas"
    shutil.copytree(ROOT / "data" / "schemas", schemas)
    p = schemas / "errata.csv.schema.json"
    d = json.loads(p.read_text(encoding="utf-8"))
    f = next(f for f in d["fields"] if f["name"] == "action")
    assert f["enumFrom"] == "errata.schema.json#/items/properties/action"
    f["enumFrom"] = "errata.schema.json#/items/properties/actions"
    p.write_text(json.dumps(d), encoding="utf-8")
    monkeypatch.setattr(datastore, "SCHEMAS", schemas)
    with pytest.raises(datastore.DataError) as e:
        datastore._schema("errata.csv", DOC_IDS)
    assert str(e.value).startswith(f"{p}: field action: enumFrom 'errata.schema.json#/items/properties/actions' names no enum")


# ------------------------------------------------------------------ SQLite
def _sqlite(site: Path):
    import sqlite3
    con = sqlite3.connect(f"file:{site / 'downloads' / 'benchmark-atlas.sqlite'}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    return con


def _typed_cell(text: str, type_: str):
    """A CSV cell as the SQLite file should hold it (by hand, from the schema's type): a missing number or boolean
    is NULL, a missing text ''; booleans 0/1."""
    if text == "":
        return "" if type_ == "string" else None
    return {"integer": int, "number": float, "boolean": lambda t: {"true": 1, "false": 0}[t], "string": str}[type_](text)


def test_sqlite_row_is_the_csv_row_bsf_3_29_ndbmtd(built_site, atlas):
    """BSF guide, scenario 3.3, Table 3-29 row 18 'ndbcmd/ istio-proxy' (printed so; the service is ndbmtd), Site1 CPU
    45.52%: the row of utilization in the SQLite file equals the CSV's, cell for cell, typed."""
    from atlas.downloads import schema
    fields = schema(atlas, "utilization")["fields"]
    csv_row = one(_raw_csv(built_site / "downloads" / "csv" / "utilization.csv"),
                  doc="bsf", table_id="3-29", row="18", column_label="Site1 CPU")
    con = _sqlite(built_site)
    got = con.execute("SELECT * FROM utilization WHERE doc = 'bsf' AND table_id = '3-29' AND row = 18 "
                      "AND column_label = 'Site1 CPU'").fetchall()
    assert len(got) == 1
    got = dict(got[0])
    assert (got["row_label"], got["service"], got["container"], got["scenario"], got["observed_percent"], got["raw"]) \
        == ("ndbcmd/ istio-proxy", "ndbmtd", "istio-proxy", "bsf-3-3", 45.52, "45.52%")
    assert got == {f["name"]: _typed_cell(csv_row[f["name"]], f["type"]) for f in fields}
    assert got["target_percent"] is None and got["note"] == ""


@pytest.mark.parametrize("name", KINDS + RECORDS)
def test_sqlite_table_holds_exactly_the_download_rows(built_site, atlas, name):
    """Each table: the CSV's columns in order, typed as the schema says, NOT NULL where required, the schema's primary
    key, and the JSON download's rows in the same order (the JSON keeps text as printed, where the CSV makes
    formula-like cells inert)."""
    from atlas.downloads import schema
    sch = schema(atlas, name)
    con = _sqlite(built_site)
    info = con.execute(f'PRAGMA table_info("{name}")').fetchall()
    header = next(csv.reader((built_site / "downloads" / "csv" / f"{name}.csv").open(encoding="utf-8")))
    assert [c["name"] for c in info] == header == [f["name"] for f in sch["fields"]]
    want_type = {"string": "TEXT", "integer": "INTEGER", "number": "REAL", "boolean": "INTEGER"}
    for c, f in zip(info, sch["fields"]):
        assert c["type"] == want_type[f["type"]], (name, f["name"])
        if (f.get("constraints") or {}).get("required"):
            assert c["notnull"] == 1, (name, f["name"])
    assert [c["name"] for c in sorted((c for c in info if c["pk"]), key=lambda c: c["pk"])] == sch.get("primaryKey", [])
    rows = [tuple(r) for r in con.execute(f'SELECT * FROM "{name}" ORDER BY rowid')]
    assert len(rows) == len(_raw_csv(built_site / "downloads" / "csv" / f"{name}.csv")) > 0
    js = json.loads((built_site / "downloads" / "json" / f"{name}.json").read_text(encoding="utf-8"))
    assert rows == [tuple(int(v) if isinstance(v, bool) else v for v in rec.values()) for rec in js]


def test_sqlite_views_per_product_and_indexes(built_site, atlas):
    """A view <doc>_<table> for every document with rows in the table, holding exactly that document's rows; the join
    keys (doc, scenario) and (doc, table_id) indexed in every table (by an index or the primary key's first columns)."""
    con = _sqlite(built_site)
    views = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'view'")}
    want = set()
    for name in KINDS + RECORDS:
        counts = dict(con.execute(f'SELECT doc, count(*) FROM "{name}" GROUP BY doc').fetchall())
        for doc in DOC_IDS:
            if doc not in counts:
                continue
            want.add(f"{doc}_{name}")
            docs = con.execute(f'SELECT doc, count(*) FROM "{doc}_{name}" GROUP BY doc').fetchall()
            assert [tuple(x) for x in docs] == [(doc, counts[doc])], (doc, name)
        indexed = [[c["name"] for c in con.execute(f'PRAGMA index_info("{ix["name"]}")')]
                   for ix in con.execute(f'PRAGMA index_list("{name}")')]
        for key in (["doc", "scenario"], ["doc", "table_id"]):
            if name != "scenarios" or key[1] == "scenario":
                assert any(cols[:2] == key for cols in indexed), (name, key, indexed)
    assert views == want and {"bsf_resources", "policy_latency", "dsr_measurements", "shcm_settings"} <= views
    # BSF 3.3 Table 3-25 (resources) is BSF's: in bsf_resources, not in policy_resources
    assert con.execute("SELECT count(*) FROM bsf_resources WHERE table_id = '3-25'").fetchone()[0] == 24
    assert con.execute("SELECT count(*) FROM policy_resources WHERE scenario = 'bsf-3-3'").fetchone()[0] == 0
    src = {r["doc"]: r["title"] for r in con.execute("SELECT * FROM sources")}
    assert src == {s["id"]: s["title"] for s in atlas.sources if s["id"] in atlas.docs()}
    about = dict(con.execute("SELECT key, value FROM about").fetchall())
    assert "copyright" in about["rights"] and "Oracle" in about["rights"]


def test_datasets_page_sql_example_runs_on_the_sqlite_file(built_site):
    """The query under the SQLite file on the datasets page, run on the built file: BSF 3.3 Table 3-25 has 24 rows;
    BSF Management Service, app: 14 replicas, 4 cores requested per pod; istio-proxy: 14 replicas, 2 cores."""
    page = _html(built_site, "data/datasets")
    sql = unescape(re.search(r'<pre><code class="language-sql">(.*?)</code></pre>', page, re.S).group(1))
    rows = [tuple(r) for r in _sqlite(built_site).execute(sql)]
    assert len(rows) == 24
    assert [r[1:] for r in rows if r[0] == "BSF Management Service"] == [("app", 14, 4.0), ("istio-proxy", 14, 2.0)]
    assert 'href="../../downloads/benchmark-atlas.sqlite" download>' in page


def test_sqlite_file_is_byte_deterministic(atlas):
    """Two SQLite files written from the same records are the same bytes (no time stamp in the format; the whole
    site's reproducibility is tests/test_links.py::test_build_is_deterministic)."""
    from atlas.downloads import NAMES, sqlite_bytes, typed_records
    from atlas.pages.products import Renderer
    r = Renderer(atlas)
    sheets = {n: typed_records(r, n) for n in NAMES}
    one_, two = sqlite_bytes(r, sheets), sqlite_bytes(r, sheets)
    assert one_[:16] == b"SQLite format 3\0" and one_ == two


def test_workbook_writes_text_as_text_and_numbers_as_numbers(tmp_path):
    """A text that looks like a formula, a URL or a number stays the text it is (a spreadsheet must never run a cell
    of the data); numbers and booleans keep their type; a missing value is an empty cell."""
    from types import SimpleNamespace

    from openpyxl import load_workbook

    from atlas.downloads import _workbook
    source = {"id": "bsf", "title": "T", "publisher": "P", "release": "1"}
    a = SimpleNamespace(sources=[source], source=lambda d: source, docs=lambda: ["bsf"])
    fields = [{"name": "text", "type": "string"}, {"name": "n", "type": "number", "unit": "cores"},
              {"name": "ok", "type": "boolean"}]
    recs = [{"text": "=1+1", "n": 2.5, "ok": True}, {"text": "http://example.org/x", "n": None, "ok": False},
            {"text": "0123", "n": 7.0, "ok": None}, {"text": "", "n": 0.0, "ok": True}]
    path = tmp_path / "w.xlsx"
    path.write_bytes(_workbook(SimpleNamespace(atlas=a), {"x": (fields, recs)}))
    ws = load_workbook(path)["x"]
    assert [c.value for c in ws[1]] == ["text", "n [cores]", "ok"]
    rows = [[(c.value, c.data_type) for c in row] for row in ws.iter_rows(min_row=2)]
    assert rows == [[("=1+1", "s"), (2.5, "n"), (True, "b")], [("http://example.org/x", "s"), (None, "n"), (False, "b")],
                    [("0123", "s"), (7, "n"), (None, "n")], [(None, "n"), (0, "n"), (True, "b")]]
    assert ws.freeze_panes == "A2" and ws.auto_filter.ref == "A1:C5"
    assert ws["A1"].font.b and not ws["A2"].font.b


def test_scenarios_download_names_call_model_and_replication(built_site):
    """downloads/csv/scenarios.csv: Policy 3.5.1 is PCF SM read from Table 3-241 row 'SM Service(MPS)' (seed line 3555),
    3.4.4 names no call model, 3.1.3's prose says 'replicated on both the sites using Multi-channel replication' (line
    262), 3.5.1's prose states no replication, and a DSR run has no call model."""
    sc = pd.read_csv(built_site / "downloads" / "csv" / "scenarios.csv", dtype=str, keep_default_na=False).set_index("scenario")
    r = sc.loc["policy-3-5-1"]
    assert (r.call_model_id, r.call_model_name, r.replication) == ("pcf-sm", "PCF SM", "")
    assert json.loads(r.call_model_json)["cite"] == {"text": "SM Service(MPS) | 44669.88753 |", "table_id": "3-241",
                                                     "line": 3555, "where": "Table 3-241, row 'SM Service(MPS)'"}
    assert (sc.loc["policy-3-4-4"].call_model_id, sc.loc["policy-3-4-4"].call_model_json) == ("", "")
    assert sc.loc["policy-3-1-3"].replication.endswith("replicated on both the sites using Multi-channel replication")
    assert (sc.loc["bsf-3-1"].call_model_id, sc.loc["nef-qos-2"].call_model_name) == ("bsf-nbsf-rx", "Quality of Service")
    dsr = sc[sc.doc == "dsr"].iloc[0]
    assert (dsr.call_model_id, dsr.call_model_json, dsr.replication) == ("", "", "")
