"""The record downloads (scenarios, errata, tables: ``atlas.downloads.record_rows`` and ``typed_records``) on made-up
records, every expected row written out by hand: what a record leaves out is an empty cell (None, '' once typed),
lists are joined with ';' (notes with ' | '), nested facts are JSON with sorted keys, an empty mapping or list is an
empty cell, and the tables index counts each table's data rows per kind. Also the rows of a kind read from
data/<doc>/<kind>.csv (``_read_kind``) and its refusal of a file whose header is not the schema's. No site build, no
data/: these run in milliseconds."""
from __future__ import annotations

import pandas as pd
import pytest

from atlas.datastore import KINDS

MINIMAL = {"doc": "x", "id": "x-1", "section": "1", "title": "Made-up run", "deployment_mode": "M",
           "load": {"unit": "TPS", "raw": "1K TPS"}, "asm": "disabled", "tables": []}
"""A scenario with only the fields data/schemas/scenarios.schema.json requires."""
FULL = {"doc": "x", "id": "x-2", "section": "2", "title": "Made-up run two", "short_title": "two",
        "deployment_mode": "M", "release": "1.0", "sites_provisioned": 2, "sites_with_traffic": ["site1", "site2"],
        "load": {"total": 2000, "per_site": 1000, "unit": "TPS", "raw": "2K TPS"}, "asm": "enabled",
        "asm_note": "title", "duration": {"hours": 12, "raw": "12 hours"},
        "call_mix": {"raw": "50% A, 50% B", "traffic_ratio": "A-1 B-1"},
        "call_model": {"name": "Model", "id": "m"}, "replication": {"raw": "two-site"},
        "subscribers": {"label": "Subscribers", "raw": "1M"}, "tables": ["1-1", "1-2"],
        "software": {"B": "2", "A": "1"}, "hardware": {}, "features": [], "interfaces": ["N5"],
        "parameters": {"k": "v"}, "contradictions": [{"field": "load.total"}], "notes": ["first", "second"]}


class _Atlas:
    def __init__(self, scenarios=(), errata=(), tables=(), frames=None):
        self.scenarios, self.errata, self.tables = list(scenarios), list(errata), list(tables)
        self.frames = frames or {}

    def schema(self, name):
        from atlas.datastore import _schema
        return _schema(name, ["x", "y"])


class _Renderer:
    """A footprint for x-2 only: partial, with one line of what it leaves out."""

    def __init__(self, atlas):
        self.atlas = atlas

    def baseline(self, sid):
        return {"total": 1} if sid == "x-2" else None

    def completeness(self, sid):
        return {"partial": sid == "x-2", "missing": []}

    def missing_note(self, sid):
        return "Table 1-2 row 3 not sized." if sid == "x-2" else ""


def test_scenario_without_optional_fields_is_a_row_of_empty_cells():
    from atlas.downloads import record_rows
    [row] = record_rows(_Renderer(_Atlas([MINIMAL])), "scenarios")
    assert row == {
        "doc": "x", "scenario": "x-1", "section": "1", "title": "Made-up run", "short_title": None,
        "deployment_mode": "M", "release": None, "sites_provisioned": None, "sites_with_traffic": "",
        "load_total": None, "load_per_site": None, "load_unit": "TPS", "load_raw": "1K TPS", "asm": "disabled",
        "asm_note": None, "duration_hours": None, "duration_raw": None, "call_mix_raw": None, "traffic_ratio": None,
        "call_model_id": None, "call_model_name": None, "call_model_json": "", "replication": None,
        "subscribers_label": None, "subscribers_raw": None, "tables": "", "footprint_partial": None,
        "footprint_missing": None, "software_json": "", "hardware_json": "", "features_json": "", "interfaces_json": "",
        "parameters_json": "", "contradictions_json": "", "notes": ""}


def test_scenario_with_every_field_flattened():
    """Lists joined with ';' (notes with ' | '), nested facts as JSON with sorted keys and non-ASCII kept, an empty
    mapping or list as an empty cell, the footprint's partial flag and missing note where a baseline exists."""
    from atlas.downloads import record_rows
    [row] = record_rows(_Renderer(_Atlas([FULL])), "scenarios")
    assert row == {
        "doc": "x", "scenario": "x-2", "section": "2", "title": "Made-up run two", "short_title": "two",
        "deployment_mode": "M", "release": "1.0", "sites_provisioned": 2, "sites_with_traffic": "site1;site2",
        "load_total": 2000, "load_per_site": 1000, "load_unit": "TPS", "load_raw": "2K TPS", "asm": "enabled",
        "asm_note": "title", "duration_hours": 12, "duration_raw": "12 hours", "call_mix_raw": "50% A, 50% B",
        "traffic_ratio": "A-1 B-1", "call_model_id": "m", "call_model_name": "Model",
        "call_model_json": '{"id": "m", "name": "Model"}', "replication": "two-site",
        "subscribers_label": "Subscribers", "subscribers_raw": "1M", "tables": "1-1;1-2", "footprint_partial": True,
        "footprint_missing": "Table 1-2 row 3 not sized.", "software_json": '{"A": "1", "B": "2"}',
        "hardware_json": "", "features_json": "", "interfaces_json": '["N5"]', "parameters_json": '{"k": "v"}',
        "contradictions_json": '[{"field": "load.total"}]', "notes": "first | second"}


def test_scenario_rows_typed_for_json_and_the_workbook():
    """typed_records: the schema's types (sites_provisioned integer 2, load_total number 2000.0, footprint_partial
    boolean), None for a missing number or boolean, '' for a missing text."""
    from atlas.downloads import typed_records
    fields, recs = typed_records(_Renderer(_Atlas([MINIMAL, FULL])), "scenarios")
    assert [f["name"] for f in fields][:3] == ["doc", "scenario", "section"] and len(recs) == 2
    assert (recs[0]["sites_provisioned"], recs[0]["load_total"], recs[0]["footprint_partial"]) == (None, None, None)
    assert (recs[0]["short_title"], recs[0]["replication"], recs[0]["footprint_missing"]) == ("", "", "")
    assert (recs[1]["sites_provisioned"], recs[1]["load_total"], recs[1]["footprint_partial"]) == (2, 2000.0, True)
    assert type(recs[1]["sites_provisioned"]) is int and type(recs[1]["load_total"]) is float


def test_erratum_flattened_with_its_lines_joined():
    from atlas.downloads import record_rows
    errata = [{"doc": "x", "id": "x-E001", "kind": "typo", "where": "row 'A'", "raw": "ndbappmysql",
               "problem": "a letter missing", "action": "read-as", "reading": "ndbappmysqld", "scenario": "x-1",
               "table_id": "1-1", "lines": [10, 11], "reason": "the other rows say so"},
              {"doc": "x", "id": "x-E002", "kind": "gap", "where": "table 1-2", "raw": "", "problem": "no value",
               "action": "excluded"}]
    assert record_rows(_Renderer(_Atlas(errata=errata)), "errata") == [
        {"doc": "x", "scenario": "x-1", "table_id": "1-1", "erratum": "x-E001", "kind": "typo", "where": "row 'A'",
         "lines": "10;11", "raw": "ndbappmysql", "problem": "a letter missing", "action": "read-as",
         "reading": "ndbappmysqld", "reason": "the other rows say so"},
        {"doc": "x", "scenario": None, "table_id": None, "erratum": "x-E002", "kind": "gap", "where": "table 1-2",
         "lines": "", "raw": "", "problem": "no value", "action": "excluded", "reading": None, "reason": None}]


def test_tables_index_counts_each_tables_rows_per_kind_and_lists_its_scenarios():
    """Table 1-1: two resources rows and one utilization row (data_rows 3, 'resources:2;utilization:1' in KINDS'
    order), listed by both scenarios; table 1-2: no data rows (0, empty), listed by x-2 only; a row of another
    document's table with the same id counts for that document only."""
    from atlas.downloads import record_rows
    frames = {k: pd.DataFrame({"doc": [], "table_id": []}) for k in KINDS}
    frames["resources"] = pd.DataFrame({"doc": ["x", "x", "y"], "table_id": ["1-1", "1-1", "1-1"]})
    frames["utilization"] = pd.DataFrame({"doc": ["x"], "table_id": ["1-1"]})
    tables = [{"doc": "x", "id": "1-1", "kind": "utilization", "lines": [10, 20], "segments": 2, "rows": 3,
               "scenario": "x-1", "section": "1.1", "caption": "Cap", "title": "Title", "category": "cat",
               "header": ["Service", "CPU"], "note": "n"},
              {"doc": "x", "id": "1-2", "kind": "excluded", "lines": [30, 31], "segments": 1, "rows": 0,
               "excluded_reason": "prose"}]
    scenarios = [dict(MINIMAL, tables=["1-1"]), FULL]
    assert record_rows(_Renderer(_Atlas(scenarios, tables=tables, frames=frames)), "tables") == [
        {"doc": "x", "scenario": "x-1", "table_id": "1-1", "section": "1.1", "caption": "Cap", "title": "Title",
         "kind": "utilization", "category": "cat", "line_first": 10, "line_last": 20, "segments": 2, "rows": 3,
         "data_rows": 3, "data_files": "resources:2;utilization:1", "scenarios": "x-1;x-2", "header": "Service | CPU",
         "excluded_reason": None, "note": "n"},
        {"doc": "x", "scenario": None, "table_id": "1-2", "section": None, "caption": None, "title": None,
         "kind": "excluded", "category": None, "line_first": 30, "line_last": 31, "segments": 1, "rows": 0,
         "data_rows": 0, "data_files": "", "scenarios": "x-2", "header": "", "excluded_reason": "prose", "note": None}]


def test_unknown_record_download_is_refused():
    from atlas.downloads import record_rows
    with pytest.raises(KeyError, match="services"):
        record_rows(_Renderer(_Atlas()), "services")


class _Folder:
    """An Atlas whose data folder is ``root`` and whose resources schema has three columns."""

    def __init__(self, root):
        self.root = root

    def schema(self, name):
        return {"fields": [{"name": "doc"}, {"name": "table_id"}, {"name": "value"}]}


def test_kind_rows_read_over_documents_as_the_files_hold_them(tmp_path):
    """Rows of every document's file in the order of the documents given, cells as text exactly as written (a
    quoted comma kept, a quoted line break kept as the two characters CR LF, '007' not read as a number), a document
    without the file skipped."""
    from atlas.downloads import _read_kind
    (tmp_path / "b").mkdir()
    (tmp_path / "a").mkdir()
    (tmp_path / "b" / "resources.csv").write_text('doc,table_id,value\nb,1-1,"1,5"\nb,1-2,007\n', encoding="utf-8")
    (tmp_path / "a" / "resources.csv").write_bytes(b'doc,table_id,value\na,2-1,\na,2-2,"one\r\ntwo"\n')
    header, rows = _read_kind(_Folder(tmp_path), ["b", "none", "a"], "resources")
    assert header == ["doc", "table_id", "value"]
    assert rows == [["b", "1-1", "1,5"], ["b", "1-2", "007"], ["a", "2-1", ""], ["a", "2-2", "one\r\ntwo"]]


def test_kind_file_whose_header_is_not_the_schemas_is_refused(tmp_path):
    from atlas.downloads import _read_kind
    (tmp_path / "b").mkdir()
    p = tmp_path / "b" / "resources.csv"
    p.write_text("doc,value,table_id\nb,1,1-1\n", encoding="utf-8")
    with pytest.raises(ValueError) as e:
        _read_kind(_Folder(tmp_path), ["b"], "resources")
    assert str(e.value) == f"{p}: header differs from data/schemas/resources.schema.json"
