"""Bad data is refused by name: each broken copy of data/ below makes atlas.datastore.load raise
DataError naming the file, the row (or YAML line / item) and the column (or field), and what is
wrong. Nothing is accepted silently: duplicate rows and keys, duplicate ids and YAML keys, a row
filed under another scenario than its table's, a header-only CSV, absurd or non-finite numbers, a
byte that is not UTF-8, a missing column, an empty record file."""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
import yaml

from conftest import DOC_IDS, build_site, copy_data, rewrite_csv_cell
from atlas.datastore import DataError, load


def _rows(p: Path) -> list[dict]:
    return list(csv.DictReader(p.open(encoding="utf-8")))


def _write(p: Path, rows: list[dict], fields: list[str] | None = None) -> None:
    fields = fields or list(rows[0].keys())
    with p.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def append_copy(rel: str, index: int = 0, **change):
    """Append a copy of data row ``index`` (0-based) of ``rel``, with ``change`` applied."""
    def go(d: Path):
        p = d / rel
        rows = _rows(p)
        rows.append({**rows[index], **change})
        _write(p, rows)
    return go


def header_only(rel: str):
    def go(d: Path):
        p = d / rel
        p.write_text(p.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    return go


def drop_column(rel: str, column: str):
    def go(d: Path):
        p = d / rel
        rows = _rows(p)
        _write(p, rows, [c for c in rows[0] if c != column])
    return go


def add_column(rel: str, column: str):
    def go(d: Path):
        p = d / rel
        rows = _rows(p)
        _write(p, [{**r, column: "x"} for r in rows], [*rows[0], column])
    return go


def cell(rel: str, index: int, column: str, value: str):
    return lambda d: rewrite_csv_cell(d / rel, index, column, value)


def latin1(rel: str, text: str, into: str):
    """Replace the first ``text`` in ``rel`` by ``into`` written as Latin-1 bytes."""
    def go(d: Path):
        p = d / rel
        raw = p.read_bytes()
        assert text.encode() in raw
        p.write_bytes(raw.replace(text.encode(), into.encode("latin-1"), 1))
    return go


def records(rel: str, fn):
    """Rewrite the YAML list in ``rel`` through ``fn(items) -> items``."""
    def go(d: Path):
        p = d / rel
        p.write_text(yaml.safe_dump(fn(yaml.safe_load(p.read_text(encoding="utf-8"))), allow_unicode=True, sort_keys=False),
                     encoding="utf-8")
    return go


def set_field(i: int, key: str, value):
    def fn(items):
        items[i][key] = value
        return items
    return fn


def copy_field(src: int, dst: int, key: str):
    def fn(items):
        items[dst][key] = items[src][key]
        return items
    return fn


def without(i: int, key: str):
    def fn(items):
        del items[i][key]
        return items
    return fn


def text(rel: str, old: str, new: str):
    def go(d: Path):
        p = d / rel
        t = p.read_text(encoding="utf-8")
        assert old in t, (rel, old)
        p.write_text(t.replace(old, new, 1), encoding="utf-8")
    return go


def empty(rel: str, content: str = ""):
    return lambda d: (d / rel).write_text(content, encoding="utf-8")


R = "bsf/resources.csv"
# (id, breakage, file, where (row/line/item), column/field, what)
CASES = [
    # duplicate CSV rows
    ("dup-row-resources", append_copy(R), R, "row ", "every column", "repeats row 2"),
    ("dup-row-utilization", append_copy("bsf/utilization.csv", 1), "bsf/utilization.csv", "row ", "every column", "repeats row 3"),
    ("dup-row-settings", append_copy("bsf/settings.csv"), "bsf/settings.csv", "row ", "every column", "repeats row 2"),
    ("dup-row-latency", append_copy("nef/latency.csv"), "nef/latency.csv", "row ", "every column", "repeats row 2"),
    # a duplicate key with a conflicting value (primaryKey)
    ("dup-key-resources", append_copy(R, replicas="99"), R, "row ", "column replicas", "same key"),
    ("dup-key-utilization", append_copy("bsf/utilization.csv", observed_percent="99"), "bsf/utilization.csv", "row ",
     "column observed_percent", "same key"),
    ("dup-key-latency", append_copy("bsf/latency.csv", value_ms="99"), "bsf/latency.csv", "row ", "column value_ms", "same key"),
    ("dup-key-db-operations", append_copy("bsf/db_operations.csv", ops_per_second="99"), "bsf/db_operations.csv", "row ",
     "column ops_per_second", "same key"),
    ("dup-key-measurements", append_copy("nef/measurements.csv", note="changed"), "nef/measurements.csv", "row ", "column note",
     "same key"),
    ("dup-key-settings", append_copy("bsf/settings.csv", value="changed"), "bsf/settings.csv", "row ", "column value", "same key"),
    # duplicate ids
    ("dup-erratum-id", records("bsf/errata.yaml", copy_field(0, 1, "id")), "bsf/errata.yaml", "item 2", "field id",
     "already used by"),
    ("dup-service", records("bsf/services.yaml", copy_field(0, 1, "service")), "bsf/services.yaml", "item 2", "field service",
     "already used by"),
    ("dup-scenario-id", records("bsf/scenarios.yaml", copy_field(0, 1, "id")), "bsf/scenarios.yaml", "item 2", "field id",
     "bsf/scenarios.yaml: item 1"),
    ("dup-scenario-id-across-docs", records("nef/scenarios.yaml", set_field(0, "id", "bsf-3-1")), "scenarios.yaml", "item 1",
     "field id", "already used by"),
    ("dup-table-id", records("bsf/tables.yaml", copy_field(2, 3, "id")), "bsf/tables.yaml", "item 4", "field id",
     "bsf/tables.yaml: item 3"),
    # duplicate YAML keys
    ("dup-yaml-key-scenarios", text("bsf/scenarios.yaml", "  doc: bsf\n", "  doc: bsf\n  doc: nef\n"), "bsf/scenarios.yaml",
     "line 3", "column 3", "key 'doc' given twice"),
    ("dup-yaml-key-errata", text("bsf/errata.yaml", "  scenario: bsf-3-1\n", "  scenario: bsf-3-1\n  scenario: bsf-3-2\n"),
     "bsf/errata.yaml", "line 4", "column 3", "key 'scenario' given twice"),
    ("dup-yaml-key-sources", text("sources.yaml", "  product: Binding", "  product: X\n  product: Binding"), "sources.yaml",
     "line ", "column 3", "key 'product' given twice"),
    ("dup-yaml-key-guidance", text("dsr/guidance.yaml", "  topic: hyper-threading\n", "  topic: hyper-threading\n  topic: other\n"),
     "dsr/guidance.yaml", "line 3", "column 3", "key 'topic' given twice"),
    # a row filed under another scenario than its table's
    ("row-scenario-not-its-tables", cell(R, 0, "scenario", "bsf-3-2"), R, "row 2", "column scenario", "gives table 3-5 to scenario 'bsf-3-1'"),
    ("latency-scenario-not-its-tables", cell("bsf/latency.csv", 0, "scenario", "bsf-3-3"), "bsf/latency.csv", "row 2",
     "column scenario", "to scenario 'bsf-3-1'"),
    # a header-only CSV
    ("header-only-resources", header_only(R), R, "row 2", "every column", "no data rows"),
    ("header-only-latency", header_only("nef/latency.csv"), "nef/latency.csv", "row 2", "every column", "no data rows"),
    ("header-only-settings", header_only("shcm/settings.csv"), "shcm/settings.csv", "row 2", "every column", "no data rows"),
    # absurd values (plausible bounds in the schemas)
    ("cpu-1e308", cell(R, 2, "cpu_request_cores", "1e308"), R, "row 4", "column cpu_request_cores", "maximum"),
    ("mem-1e9", cell(R, 0, "mem_limit_gib", "1000000000"), R, "row 2", "column mem_limit_gib", "maximum"),
    ("replicas-1e6", cell(R, 0, "replicas", "1000000"), R, "row 2", "column replicas", "maximum"),
    ("latency-1e12", cell("bsf/latency.csv", 0, "value_ms", "1e12"), "bsf/latency.csv", "row 2", "column value_ms", "maximum"),
    ("percent-1e9", cell("bsf/utilization.csv", 0, "observed_percent", "1e9"), "bsf/utilization.csv", "row 2",
     "column observed_percent", "maximum"),
    ("ops-1e12", cell("bsf/db_operations.csv", 0, "ops_per_second", "1e12"), "bsf/db_operations.csv", "row 2",
     "column ops_per_second", "maximum"),
    ("negative-replicas", cell(R, 0, "replicas", "-1"), R, "row 2", "column replicas", "minimum"),
    # not numbers
    ("nan", cell(R, 1, "cpu_limit_cores", "nan"), R, "row 3", "column cpu_limit_cores", "'nan' is not a number"),
    ("NaN-percent", cell("bsf/utilization.csv", 0, "observed_percent", "NaN"), "bsf/utilization.csv", "row 2",
     "column observed_percent", "'NaN' is not a number"),
    ("inf-latency", cell("bsf/latency.csv", 0, "value_ms", "inf"), "bsf/latency.csv", "row 2", "column value_ms",
     "'inf' is not a number"),
    ("-Infinity-measurement", cell("nef/measurements.csv", 2, "value", "-Infinity"), "nef/measurements.csv", "row 4",
     "column value", "'-Infinity' is not a number"),
    ("word-for-number", cell(R, 2, "replicas", "many"), R, "row 4", "column replicas", "type"),
    # guidance.yaml has a schema
    ("guidance-without-topic", records("dsr/guidance.yaml", without(0, "topic")), "dsr/guidance.yaml", "item 1", "field topic",
     "required"),
    ("guidance-cite-without-line", records("dsr/guidance.yaml", set_field(1, "cite", {"text": "x"})), "dsr/guidance.yaml",
     "item 2", "field cite.line", "required"),
    # encoding
    ("latin1-csv", latin1(R, "BSF Management Service", "BSF Management Sérvice"), R, "row 3", "column row_label", "not UTF-8"),
    ("latin1-yaml", latin1("bsf/scenarios.yaml", "22K TPS", "22K TPS é"), "bsf/scenarios.yaml", "line ", "byte ", "not UTF-8"),
    # missing or unknown columns
    ("missing-row-label", drop_column(R, "row_label"), R, "row 1", "column row_label", "missing from the header"),
    ("missing-note", drop_column("bsf/latency.csv", "note"), "bsf/latency.csv", "row 1", "column note", "missing from the header"),
    ("unknown-column", add_column(R, "comment"), R, "row 1", "column comment", "not in the schema"),
    # empty record files
    ("empty-scenarios", empty("bsf/scenarios.yaml"), "bsf/scenarios.yaml", "line 1", "item 1", "the file is empty"),
    ("empty-sources", empty("sources.yaml", "# nothing\n"), "sources.yaml", "line 1", "item 1", "the file is empty"),
    ("empty-list-tables", empty("bsf/tables.yaml", "[]\n"), "bsf/tables.yaml", "line 1", "item 1", "the file is empty"),
    ("empty-services", empty("nef/services.yaml"), "nef/services.yaml", "line 1", "item 1", "the file is empty"),
    # references (named before)
    ("unknown-scenario", cell("bsf/latency.csv", 2, "scenario", "bsf-9-9"), "bsf/latency.csv", "row 4", "column scenario",
     "unknown scenario 'bsf-9-9'"),
    ("unknown-unit", cell("bsf/utilization.csv", 0, "abs_unit", "furlongs"), "bsf/utilization.csv", "row 2", "column abs_unit",
     "constraint"),
    # document ids: those of sources.yaml, each once
    ("unknown-doc-csv", cell("nef/measurements.csv", 3, "doc", "xyz"), "nef/measurements.csv", "row 5", "column doc",
     "unknown document 'xyz'"),
    ("unknown-doc-errata", records("bsf/errata.yaml", set_field(0, "doc", "xyz")), "bsf/errata.yaml", "item 1", "field doc",
     "unknown document 'xyz'"),
    ("unknown-doc-tables", records("shcm/tables.yaml", set_field(2, "doc", "xyz")), "shcm/tables.yaml", "item 3", "field doc",
     "unknown document 'xyz'"),
    ("unknown-doc-services", records("dsr/services.yaml", set_field(1, "doc", "xyz")), "dsr/services.yaml", "item 2", "field doc",
     "unknown document 'xyz'"),
    ("unknown-doc-scenarios", records("policy/scenarios.yaml", set_field(0, "doc", "xyz")), "policy/scenarios.yaml", "item 1",
     "field doc", "unknown document 'xyz'"),
    ("dup-source-id", records("sources.yaml", copy_field(0, 2, "id")), "sources.yaml", "item 3", "field id",
     "document id 'bsf' is already used by item 1"),
    ("source-id-not-lowercase", records("sources.yaml", set_field(1, "id", "Policy")), "sources.yaml", "item 2", "field id",
     "does not match"),
]


@pytest.mark.parametrize("breakage, file, where, column, what", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_data_is_named(tmp_path, breakage, file, where, column, what):
    d = copy_data(tmp_path)
    breakage(d)
    with pytest.raises(DataError) as e:
        load(d)
    msg = str(e.value)
    assert f"{d}/{file}:" in msg or (file == "scenarios.yaml" and re.search(rf"{d}/\w+/scenarios.yaml:", msg)), msg
    assert where in msg and column in msg and what in msg, msg
    assert "Traceback" not in msg and "None" not in msg, msg


def test_unknown_document_id_names_the_known_ones(tmp_path):
    """A doc value that data/sources.yaml does not list is refused, in a CSV and in a YAML record, naming the file,
    row or item, column or field, the value and the ids sources.yaml lists (the one list of documents)."""
    d = copy_data(tmp_path)
    cell(R, 1, "doc", "bsf2")(d)
    with pytest.raises(DataError) as e:
        load(d)
    assert str(e.value) == (f"{d}/bsf/resources.csv: row 3, column doc: unknown document 'bsf2'; the documents are the ids "
                            f"of {d}/sources.yaml: {', '.join(DOC_IDS)}")
    d = copy_data(tmp_path / "2")
    records("nef/errata.yaml", set_field(4, "doc", "NEF"))(d)
    with pytest.raises(DataError) as e:
        load(d)
    assert str(e.value) == (f"{d}/nef/errata.yaml: item 5, field doc: unknown document 'NEF'; the documents are the ids "
                            f"of {d}/sources.yaml: {', '.join(DOC_IDS)}")


def test_a_document_listed_in_sources_is_known_everywhere(tmp_path):
    """The list of documents is sources.yaml's alone: an id added there (and nowhere else) passes the doc check of
    every schema, so a row of it in another document's folder is refused for its folder, not as unknown."""
    d = copy_data(tmp_path)
    records("sources.yaml", lambda items: [*items, {**items[0], "id": "xyz"}])(d)
    cell(R, 0, "doc", "xyz")(d)
    with pytest.raises(DataError) as e:
        load(d)
    assert str(e.value) == f"{d}/bsf/resources.csv: row 2, column doc: 'xyz' in the folder of 'bsf'"


def test_duplicate_scenario_across_documents_names_both_files(tmp_path):
    d = copy_data(tmp_path)
    records("nef/scenarios.yaml", set_field(0, "id", "bsf-3-1"))(d)
    with pytest.raises(DataError) as e:
        load(d)
    msg = str(e.value)
    assert f"{d}/nef/scenarios.yaml: item 1, field id: scenario id 'bsf-3-1' is already used by {d}/bsf/scenarios.yaml: item 1" in msg


def test_bad_data_stops_the_build_in_one_line(tmp_path):
    """The build says the same as load(), in one line, without a traceback."""
    d = copy_data(tmp_path)
    append_copy(R, replicas="99")(d)
    r = build_site(tmp_path / "out", data=d)
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "Invalid data" in out and "Traceback" not in out
    assert re.search(r"bsf/resources\.csv: row \d+, column replicas: same key \(doc='bsf', scenario='bsf-3-1', table_id='3-5', "
                     r"row='1', container='app'\) as row 2, with a different value \('2' there, '99' here\)", out), out[-2000:]


def test_an_erratum_id_names_its_document(tmp_path):
    """The errata page reads an erratum's document from its id (atlas/pages/data.py ERRATA_FACET_COLS): an id of
    BSF's errata.yaml that starts with another document's id is refused, naming the file, the erratum and the rule."""
    d = copy_data(tmp_path)
    records("bsf/errata.yaml", set_field(0, "id", "nef-E901"))(d)
    with pytest.raises(DataError) as e:
        load(d)
    assert str(e.value) == (f"{d}/bsf/errata.yaml: erratum nef-E901, field id: an erratum id starts with its document's "
                            "id, 'bsf-E'")
