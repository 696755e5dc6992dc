"""The downloads' bytes as the build makes them (``atlas.downloads.build``), in this process, without building the
site: rows and cells against the guides and data/, and rows in the order the pages show them. The same files are
checked in the built site by tests/test_datasets.py and tests/test_table_views.py; these run in seconds, so the
mutation runs (tools/mutation_sample.py) use them."""
from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest
import yaml

from conftest import ROOT

BSF_3_3_SCENARIO = {
    # BSF guide section 3.3, "Test Scenario: BSF Performance Benchmarking 63K TPS Traffic on a Three-site Setup with
    # Traffic on One Site (with ASM)", Table 3-21 Test Case Parameters (seed lines 573-576), as data/bsf/scenarios.yaml
    # holds it: every column of the scenarios download but the JSON ones (SCENARIO_JSON below).
    "doc": "bsf", "scenario": "bsf-3-3", "section": "3.3",
    "title": "Test Scenario: BSF Performance Benchmarking 63K TPS Traffic on a Three-site Setup with Traffic on One Site "
             "(with ASM)",
    "short_title": "63K TPS, 3-site setup, traffic on Site1 (with ASM)", "deployment_mode": "BSF", "release": "25.2.200",
    "sites_provisioned": "",  # the title says three sites, Table 3-28 prints four (erratum bsf-E037): not given
    "sites_with_traffic": "site1", "load_total": "63000", "load_per_site": "63000", "load_unit": "TPS",
    "load_raw": "63K TPS",  # Call Rate
    "asm": "enabled",
    "asm_note": "Title '(with ASM)'; Table 3-23 'ASM | 1.14.6-am9'; Istio rows in 3-28 and istio-proxy containers in "
                "3-26/3-29.",
    "duration_hours": "72", "duration_raw": "~72 hours",  # Execution Time
    "call_mix_raw": "8.43K nbsf traffic and 54.7K Rx traffic",  # Call Mix
    "traffic_ratio": "Binding Create ratio - 1 Binding Delete ratio - 1 Binding Get ratio (Discovery) - 0.15 Rx AAR-I "
                     "ratio - 1 Rx RAR ratio - 1 Rx AAR-U ratio - 1 Rx STR ratio - 1",  # Traffic Ratio
    "call_model_id": "bsf-nbsf-rx", "call_model_name": "BSF nBSF + Rx",
    "replication": "",  # no replication setup quoted for BSF
    "subscribers_label": "Active Subscribers", "subscribers_raw": "32M",
    "tables": "3-21;3-22;3-23;3-24;3-25;3-26;3-27;3-28;3-29;3-30;3-31",
    "footprint_partial": "False",  # every row of Tables 3-25 and 3-26 is usable: the footprint is whole
    "footprint_missing": "", "interfaces_json": "", "parameters_json": "", "notes": "",
}
SCENARIO_JSON = {
    # Table 3-23 (software), 3-24 (hardware) and 3-22 (features) of section 3.3, as printed
    "software_json": {"BSF": "25.2.200", "cnDBTier": "25.2.200", "CNC Console": "25.2.200", "OSO": "25.2.200-rc2",
                      "ASM": "1.14.6-am9", "CNE": "23.3.4"},
    "hardware_json": {"Environment": "BareMetal", "Server": "ORACLE SERVER X9-2",
                      "Model": "Intel(R) Xeon(R) Platinum 8358 CPU", "Clock Speed": "2.600 GHz", "Total Cores": "64",
                      "Memory Size": "1024 GB", "Type": "DDR4 SDRAM", "Installed DIMMs": "16", "Maximum DIMMs": "32",
                      "Installed Memory": "1024 GB"},
    "features_json": {"Audit": "Enabled", "Overload": "Enabled", "dnssrv": "Enabled", "Controlled Shutdown": "Enabled",
                      "NF Scoring": "Enabled", "SBI Routing": "Enabled"},
}
BSF_3_25_ORDER = ["Appinfo", "BSF Management Service", "Alternate Route Service", "Configuration Service",
                  "Egress Gateway", "Ingress Gateway", "NRF Client NF Management", "Audit Service", "CM Service",
                  "Query Service", "Perfinfo", "Diameter Gateway"]
"""BSF guide, Table 3-25 BSF Microservices Resource Allocation (seed lines 634-645): the services in the guide's
order, which is not alphabetical (the page keeps it, and so must its download)."""


def _csv(data: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


def test_scenarios_download_holds_every_column_of_bsf_3_3(download_build):
    row = next(r for r in _csv(download_build.files["csv/scenarios.csv"]) if r["scenario"] == "bsf-3-3")
    assert {k: v for k, v in row.items() if k not in SCENARIO_JSON and k != "call_model_json" and k != "contradictions_json"} \
        == BSF_3_3_SCENARIO
    for column, want in SCENARIO_JSON.items():
        assert json.loads(row[column]) == want, column
        assert row[column] == json.dumps(want, ensure_ascii=False, sort_keys=True), column  # keys sorted: same bytes
    model = json.loads(row["call_model_json"])
    assert (model["id"], model["name"], model["cite"]["table_id"], model["cite"]["line"]) == \
        ("bsf-nbsf-rx", "BSF nBSF + Rx", "3-21", 574)
    contradictions = json.loads(row["contradictions_json"])
    assert [(c["field"], c["erratum"]) for c in contradictions] == \
        [("sites_provisioned", "bsf-E037"), ("load.total", "bsf-E038"), ("call_mix.traffic_ratio", "bsf-E041")]
    data = next(s for s in yaml.safe_load((ROOT / "data/bsf/scenarios.yaml").read_text(encoding="utf-8"))
                if s["id"] == "bsf-3-3")
    assert contradictions == data["contradictions"]


def test_scenarios_download_carries_each_guides_call_mix(download_build):
    """The Call Mix (or Traffic Distribution) row of a run of three guides, as printed: NEF guide section 3.2.1.1.1.1's
    Traffic Distribution (seed line 93), Policy section 3.1.1's Call Mix "Call Model Data", BSF Table 3-21's."""
    rows = {r["scenario"]: r for r in _csv(download_build.files["csv/scenarios.csv"])}
    assert rows["nef-me-1"]["call_mix_raw"] == "10% Subscription, 10% Unsubscription, and 80% Notifications"
    assert rows["policy-3-1-1"]["call_mix_raw"] == "Call Model Data"
    assert rows["bsf-3-3"]["call_mix_raw"] == "8.43K nbsf traffic and 54.7K Rx traffic"
    recs = {r["scenario"]: r for r in json.loads(download_build.files["json/scenarios.json"])}
    assert recs["bsf-3-3"]["call_mix_raw"] == "8.43K nbsf traffic and 54.7K Rx traffic"
    assert recs["bsf-3-3"]["load_total"] == 63000 and recs["bsf-3-3"]["asm"] == "enabled"


def test_shown_csv_keeps_the_guides_row_order(download_build):
    """Table 3-25 as its page shows it: each service of the guide's table in the guide's order, its app container
    then its istio-proxy; Appinfo's app 3 replicas, 2 cores requested and limit, 1 GiB request and limit; its
    istio-proxy 2 cores and 2 GiB (the table's Istio columns), with the row note [1]."""
    from atlas.downloads import shown_file
    text = download_build.table_bytes[shown_file("bsf", "3-25")].decode("utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["Row as printed", "Service", "Container", "Replicas", "CPU request (cores)", "CPU limit (cores)",
                       "Memory request (GiB)", "Memory limit (GiB)", "Status"]
    assert [r[0] for r in rows[1:]] == [s for s in BSF_3_25_ORDER for _ in (1, 2)]
    assert [r[2] for r in rows[1:]] == ["app", "istio-proxy"] * 12
    assert rows[1] == ["Appinfo", "Appinfo", "app", "3", "2", "2", "1", "1", "ok"]
    assert rows[2] == ["Appinfo", "Appinfo", "istio-proxy", "3", "2", "2", "2", "2", "ok [1]"]
    assert rows[24] == ["Diameter Gateway", "Diameter Gateway", "istio-proxy", "15", "2", "2", "2", "2", "ok [1]"]


def test_errata_view_keeps_the_page_order(download_build, atlas):
    """The errata page lists the errata as data/<doc>/errata.yaml does, guide by guide in sources.yaml's order; its
    download as shown keeps that order (the first column, the erratum id)."""
    from atlas.downloads import view_file
    rows = list(csv.reader(io.StringIO(download_build.table_bytes[view_file("errata", "errata")].decode("utf-8"))))
    ids = [e["id"] for doc in atlas.docs() for e in atlas.errata if e["doc"] == doc]
    first = [r[0] for r in rows[1:]]
    assert first[:3] == ["bsf-E001", "bsf-E002", "bsf-E003"] and len(first) == len(ids)
    assert first == ids


def test_tidy_table_file_is_exactly_its_rows(download_build):
    """downloads/tables/bsf/3-25.csv: the 24 rows of data/bsf/resources.csv whose table_id is 3-25, in that file's
    order, bytes as the file holds them."""
    from atlas.downloads import table_file
    got = download_build.table_bytes[table_file("bsf", "3-25")].decode("utf-8").splitlines()
    lines = (ROOT / "data/bsf/resources.csv").read_text(encoding="utf-8").splitlines()
    want = [lines[0]] + [x for x in lines[1:] if x.split(",")[2] == "3-25"]
    assert len(want) == 25 and got == want


def test_sqlite_holds_the_same_rows_with_types_keys_and_views(download_build):
    """The SQLite file: the bsf-3-3 scenario row typed (load 63000 INTEGER, asm text, duration 72.0), a view per
    document (bsf_resources: the 114 rows of data/bsf/resources.csv), the schema's primary key refusing a
    duplicate, and the sources table naming the BSF guide's release 25.2.200 and document id G54602-01."""
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "a.sqlite"
        p.write_bytes(download_build.files["benchmark-atlas.sqlite"])
        con = sqlite3.connect(p)
        try:
            row = con.execute("SELECT load_total, asm, duration_hours, call_mix_raw, sites_provisioned FROM scenarios "
                              "WHERE scenario = 'bsf-3-3'").fetchone()
            assert row == (63000, "enabled", 72.0, "8.43K nbsf traffic and 54.7K Rx traffic", None)
            assert con.execute("SELECT count(*) FROM bsf_resources").fetchone() == (114,)
            assert con.execute("SELECT count(*) FROM resources WHERE doc = 'bsf'").fetchone() == (114,)
            assert con.execute("SELECT release, document_id FROM sources WHERE doc = 'bsf'").fetchone() == \
                ("25.2.200", "G54602-01")
            assert con.execute("PRAGMA user_version").fetchone() == (1,)
            rights = con.execute("SELECT value FROM about WHERE key = 'rights'").fetchone()[0]
            assert "Oracle Communications" in rights and "{publishers}" not in rights
        finally:
            con.close()


def test_file_and_column_names():
    """Names by hand: a table id's punctuation becomes '-' in its file name (Policy's 'U-3.3.1.1-1'), rows of another
    kind get the kind before '.csv'; a numeric column's workbook header carries its schema unit unless its name ends
    with it; an SQL name is quoted, or refused with its name when it is not a-z, 0-9 and '_'."""
    from atlas.downloads import _ident, header_label, shown_file, table_file, view_file, view_name
    assert table_file("policy", "U-3.3.1.1-1") == "tables/policy/U-3-3-1-1-1.csv"
    assert table_file("bsf", "3-25", "utilization") == "tables/bsf/3-25.utilization.csv"
    assert shown_file("policy", "T 3.1/a") == "tables/policy/T-3-1-a.shown.csv"
    assert view_file("errata", "errata") == "views/errata/errata.csv" and view_name("bsf", "resources") == "bsf_resources"
    assert header_label("replicas", {"type": "integer", "unit": "pods"}) == "replicas [pods]"
    assert header_label("cpu_request_cores", {"type": "number", "unit": "cores"}) == "cpu_request_cores"
    assert header_label("duration_hours", {"type": "number", "unit": "hours"}) == "duration_hours"
    assert header_label("service", {"type": "string"}) == "service"
    assert _ident("bsf_resources") == '"bsf_resources"'
    with pytest.raises(ValueError, match="'bsf-resources' cannot name an SQLite table"):
        _ident("bsf-resources")


def test_typed_cells():
    """A cell as JSON and the workbook hold it: missing (None, NaN, pandas' NA) as None, else the schema's type."""
    import math

    import pandas as pd

    from atlas.downloads import _typed
    assert [_typed(v, "integer") for v in (None, math.nan, pd.NA)] == [None, None, None]
    assert _typed(14.0, "integer") == 14 and type(_typed(14.0, "integer")) is int
    assert _typed("0.25", "number") == 0.25 and _typed(0, "boolean") is False and _typed(1, "boolean") is True
    assert _typed(3, "string") == "3"


def test_rights_names_each_publisher_once(atlas):
    """data/sources.yaml: four guides by Oracle Communications and the ShCM guide by Metaswitch (Rhino platform)."""
    from atlas.downloads import rights
    text = rights(atlas)
    assert "(Oracle Communications, Metaswitch (Rhino platform))" in text
    assert text.count("Oracle Communications") == 1


def test_errata_and_tables_downloads_flatten_each_record(download_build):
    """data/bsf/errata.yaml's first erratum (Table 3-6, seed lines 303-304: 'ndbappmysql' read as 'ndbappmysqld') and
    data/bsf/tables.yaml's Table 3-25 (section 3.3.1.1, seed lines 630-645, 12 printed rows, 24 data rows: an app and
    an istio-proxy row each) as one row each."""
    errata = {r["erratum"]: r for r in _csv(download_build.files["csv/errata.csv"])}
    assert {k: errata["bsf-E001"][k] for k in ("doc", "scenario", "table_id", "lines", "kind", "raw", "action", "reading")} \
        == {"doc": "bsf", "scenario": "bsf-3-1", "table_id": "3-6", "lines": "303;304", "kind": "typo",
            "raw": "ndbappmysql", "action": "read-as", "reading": "ndbappmysqld"}
    assert errata["bsf-E001"]["where"] == "pod name 'ndbappmysql' (row labels)"
    tables = {(r["doc"], r["table_id"]): r for r in _csv(download_build.files["csv/tables.csv"])}
    t = tables["bsf", "3-25"]
    assert {k: t[k] for k in ("scenario", "section", "caption", "kind", "line_first", "line_last", "segments", "rows",
                              "data_rows", "data_files", "scenarios", "excluded_reason")} == \
        {"scenario": "bsf-3-3", "section": "3.3.1.1", "caption": "BSF Microservices Resource Allocation",
         "kind": "resources", "line_first": "630", "line_last": "645", "segments": "1", "rows": "12", "data_rows": "24",
         "data_files": "resources:24", "scenarios": "bsf-3-3", "excluded_reason": ""}
    assert t["header"].startswith("Service Name | Replica Count (#) | CPU Request Per Pod | ")
    assert download_build.rows["resources"] == 1444 and download_build.rows["errata"] == len(errata)


def test_workbook_sheets_headers_and_a_row(download_build):
    """The workbook: the about sheet (rights, then the sources), one sheet per download table with its header frozen,
    units in the header where the name has none ('replicas [pods]', 'cpu_request_cores'), and BSF Table 3-25's
    BSF Management Service rows: app 14 replicas x 4 cores, istio-proxy 14 x 2 (the table's Istio columns)."""
    import io as _io

    from openpyxl import load_workbook
    wb = load_workbook(_io.BytesIO(download_build.files["benchmark-atlas.xlsx"]))
    assert wb.sheetnames == ["about", "resources", "utilization", "latency", "db_operations", "measurements",
                             "settings", "scenarios", "errata", "tables"]
    about = [[c for c in row if c is not None] for row in wb["about"].iter_rows(values_only=True)]
    assert about[0] == ["Benchmark Atlas: curated telecom network-function benchmark data"]
    assert about[2][0] == "Rights" and "(Oracle Communications, Metaswitch (Rhino platform))" in about[2][1]
    assert ["doc", "title", "publisher", "release", "document id", "date", "chapter"] in about
    assert ["bsf", "Oracle Communications Cloud Native Core, Binding Support Function Benchmarking Guide",
            "Oracle Communications", "25.2.200", "G54602-01", "April 2026", "whole book"] in about
    ws = wb["resources"]
    assert ws.freeze_panes == "A2" and ws.auto_filter.ref == f"A1:AE{1 + 1444}"
    header = [c.value for c in ws[1]]
    assert header[:4] == ["doc", "scenario", "table_id", "row [row number]"] and "replicas [pods]" in header
    assert "cpu_request_cores" in header and ws[1][0].font.b
    rows = [dict(zip(header, r)) for r in ws.iter_rows(min_row=2, values_only=True)]
    mgmt = sorted((r["container"], r["replicas [pods]"], r["cpu_request_cores"], r["cpu_cores"])
                  for r in rows if r["table_id"] == "3-25" and r["service"] == "BSF Management Service")
    assert mgmt == [("app", 14, 4, None), ("istio-proxy", 14, 2, None)]  # no cores used printed: empty, not 0
    assert len(rows) == 1444 and rows[0]["doc"] == "bsf" and rows[0]["is_sidecar"] is False


def test_datapackage_describes_each_file(download_build):
    """datapackage.json: a resource per download table with its CSV's size and SHA-256, its sources and its schema's
    units, the SQLite file as a resource of its own; no open licence claimed."""
    import hashlib
    pkg = json.loads(download_build.files["datapackage.json"])
    assert [r["name"] for r in pkg["resources"]] == ["resources", "utilization", "latency", "db_operations",
                                                     "measurements", "settings", "scenarios", "errata", "tables",
                                                     "sqlite"]
    for r in pkg["resources"]:
        data = download_build.files[r["path"]]
        assert (r["bytes"], r["hash"]) == (len(data), "sha256:" + hashlib.sha256(data).hexdigest()), r["name"]
    res = pkg["resources"][0]
    assert (res["path"], res["format"], res["mediatype"], res["encoding"], res["title"]) == \
        ("csv/resources.csv", "csv", "text/csv", "utf-8", "Resource allocation")
    assert next(f for f in res["schema"]["fields"] if f["name"] == "mem_request_gib")["unit"] == "GiB"
    assert "title" not in res["schema"] and "description" not in res["schema"] and res["description"]
    assert [s["title"] for s in res["sources"]] == [s["title"] for s in pkg["sources"][:3]]  # BSF, Policy, NEF print resources
    assert pkg["resources"][-1]["format"] == "sqlite" and len(pkg["resources"][-1]["sources"]) == 5
    bsf = pkg["sources"][0]
    assert (bsf["version"], bsf["document_id"], bsf["date"], bsf["chapter"]) == \
        ("25.2.200", "G54602-01", "April 2026", "whole book")
    assert pkg["licenses"][0]["name"] == "other-closed" and "copyright" in pkg["rights"]


def test_write_puts_every_file_and_its_checksum(download_build, tmp_path):
    """downloads.write: every file under downloads/, and SHA256SUMS naming each with the SHA-256 of its bytes, sorted
    by path."""
    import hashlib

    from atlas import downloads
    downloads.write(download_build, tmp_path)
    sums = (tmp_path / "downloads" / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    names = [line.split("  ", 1)[1] for line in sums]
    assert names == sorted(names) and len(names) == len(download_build.files) + len(download_build.table_bytes)
    for line in sums:
        digest, name = line.split("  ", 1)
        assert hashlib.sha256((tmp_path / "downloads" / name).read_bytes()).hexdigest() == digest, name
    assert "  csv/scenarios.csv" in (tmp_path / "downloads" / "SHA256SUMS").read_text(encoding="utf-8")


def test_scenarios_download_keeps_notes_and_non_ascii_text(download_build):
    """BSF section 3.1's note (data/bsf/scenarios.yaml, bsf-3-1: Table 3-7 lists 'Congestion' twice) in the notes
    column; Policy Table 3-33's Traffic Ratio row as printed, with its en dashes ('AARI –1', 'STR –1'), kept as the
    characters themselves in the CSV's parameters JSON and in the JSON download, not as \\u2013 escapes."""
    rows = {r["scenario"]: r for r in _csv(download_build.files["csv/scenarios.csv"])}
    assert rows["bsf-3-1"]["notes"] == "Table 3-7 lists 'Congestion' twice."
    ratio = "CCRI-I, AARI \u20131, CCRU-2, AARU - 1, RAR-Gx-1, RAR-Rx-1, STR \u20131, CCRT-1"
    assert rows["policy-3-1-4"]["call_mix_raw"] == ratio
    params = rows["policy-3-1-4"]["parameters_json"]
    assert ratio in params and "\\u2013" not in params
    assert {"key": "Traffic Ratio", "value": ratio} in json.loads(params)["Table 3-33"]["values"]
    text = download_build.files["json/scenarios.json"].decode("utf-8")
    assert f'"call_mix_raw": "{ratio}"' in text and "\\u2013" not in text


def test_tables_download_carries_each_tables_title(download_build):
    """BSF Table 3-21 (section 3.3.1, data/bsf/tables.yaml): caption and title both 'Test Case Parameters', kind
    settings, listed by scenario bsf-3-3."""
    tables = {(r["doc"], r["table_id"]): r for r in _csv(download_build.files["csv/tables.csv"])}
    t = tables["bsf", "3-21"]
    assert (t["section"], t["caption"], t["title"], t["kind"], t["scenarios"]) == \
        ("3.3.1", "Test Case Parameters", "Test Case Parameters", "settings", "bsf-3-3")


def test_datapackage_sqlite_resource_says_its_type_and_missing_values(download_build):
    """The SQLite file's resource: media type application/vnd.sqlite3 (IANA's), and the missing-value rule the
    database keeps (NULL in numeric columns, '' in text: test_sqlite_holds_the_same_rows_with_types_keys_and_views
    reads sites_provisioned NULL) stated as SQLITE_ABOUT states it."""
    from atlas.downloads import SQLITE_ABOUT
    res = json.loads(download_build.files["datapackage.json"])["resources"][-1]
    assert (res["name"], res["path"], res["mediatype"]) == ("sqlite", "benchmark-atlas.sqlite", "application/vnd.sqlite3")
    assert res["description"].startswith("The resources above as tables of one SQLite database, same columns and rows")
    assert res["description"].endswith("Missing values: NULL in numeric columns, '' in text columns.")
    assert dict(SQLITE_ABOUT)["missing_values"].startswith("A value the source does not give is NULL in a numeric")


def test_numeric_header_without_unit_suffix_gets_its_unit():
    """A number column whose name does not end with its unit gets it in brackets, as an integer one does
    ('value' in ms -> 'value [ms]'); a string column never does, whatever its schema says."""
    from atlas.downloads import header_label
    assert header_label("value", {"type": "number", "unit": "ms"}) == "value [ms]"
    assert header_label("value", {"type": "string", "unit": "ms"}) == "value"


def test_pages_refuse_to_read_downloads_not_built():
    """downloads.built on a renderer whose downloads step has not run: RuntimeError naming the step, not
    AttributeError."""
    from atlas.downloads import built

    class NoDownloads:
        pass
    with pytest.raises(RuntimeError, match="run atlas.pages.shown.build_downloads"):
        built(NoDownloads())


def test_build_refuses_typed_rows_that_differ_from_csv_rows(atlas, monkeypatch):
    """A download whose typed rows (JSON, workbook, SQLite) are fewer than its CSV rows is refused with the table
    and both counts: errata's typed rows made one fewer here, so 'N - 1 typed rows for N CSV rows'."""
    from atlas import downloads
    from atlas.pages.products import Renderer
    typed = downloads.typed_records

    def one_errata_row_short(renderer, name):
        fields, recs = typed(renderer, name)
        return (fields, recs[:-1]) if name == "errata" else (fields, recs)
    monkeypatch.setattr(downloads, "typed_records", one_errata_row_short)
    monkeypatch.setattr(downloads, "_CACHE", {})
    n = len(atlas.errata)
    with pytest.raises(ValueError, match=f"^datasets: errata: {n - 1} typed rows for {n} CSV rows$"):
        downloads.build(Renderer(atlas), {}, {})
