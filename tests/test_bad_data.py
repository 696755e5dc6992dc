"""Bad data is refused by name: each broken copy of data/ below makes atlas.datastore.load raise
DataError naming the file, the row (or YAML line / item) and the column (or field), and what is
wrong. Nothing is accepted silently: duplicate rows and keys, duplicate ids and YAML keys, a row
filed under another scenario than its table's, a header-only CSV, absurd or non-finite numbers, a
byte that is not UTF-8, a missing column, an empty record file; a citation its seed does not print
(a seed line or file that does not exist, a row label or a cell changed, an erratum, caption or
quote that is not on its lines), a value out of its physical range (the schemas' range rules), a
site the scenario does not have, a table whose rows are not the ones tables.yaml counts."""
from __future__ import annotations

import csv
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import DOC_IDS, ROOT, SEEDS, build_site, copy_data, rewrite_csv_cell
from atlas import datastore
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


def cells(rel: str, index: int, **values):
    """Set several cells of data row ``index`` (0-based) of ``rel``: a value and its raw text changed together."""
    def go(d: Path):
        for column, value in values.items():
            rewrite_csv_cell(d / rel, index, column, value)
    return go


def index_of(rel: str, **match) -> int:
    """The 0-based index of the first data row of data/``rel`` whose columns equal ``match`` (file row = index + 2)."""
    return next(i for i, r in enumerate(_rows(ROOT / "data" / rel)) if all(r[k] == v for k, v in match.items()))


def set_path(i: int, path: str, value):
    """Set the field at dotted ``path`` (e.g. 'load.cite.text') of item ``i``."""
    def fn(items):
        *parents, last = path.split(".")
        node = items[i]
        for k in parents:
            node = node[k]
        node[last] = value
        return items
    return fn


def table_field(tid: str, key: str, value):
    """Set field ``key`` of table ``tid`` in a tables.yaml."""
    def fn(items):
        next(t for t in items if t["id"] == tid)[key] = value
        return items
    return fn


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
U = "bsf/utilization.csv"
# Table 3-5 (seed 003, lines 263-283): Appinfo (line 267, data row 0: 2 replicas, CPU 1/1, memory 0.5/1 Gi) and BSF
# Management Service (line 268, data row 1: 11 replicas, CPU request 3, limit 4, memory 1/4 Gi).
# Table 3-8 (line 338): Appinfo Site1 CPU 1.95 %, Site1 Memory 27.78 % (utilization data rows 0 and 1).
POLICY_MIN_MAX = index_of("policy/resources.csv", table_id="3-81", row_label="Appinfo", container="app")
"""Policy Table 3-81, Appinfo (seed 000 line 1045): Min and Max replicas 2 and 2, printed '2 / 2' in raw_replicas."""
BSF_3_2_SITE1 = index_of(U, scenario="bsf-3-2", site="site1")
"""The first utilization row of BSF 3.2 (Table 3-18), a scenario that provisions 3 sites."""
DSR_288K = index_of("dsr/measurements.csv", table_id="3-1", metric="mps_achieved", raw="288K")
"""DSR Table 3-1, Relay (line 256, running text): DSR MPS Achieved '288K' = 288,000 MPS."""
BSF_SEED_LINES = 838
"""Lines of BSF's seed (003_79db879aed70b94d.txt) as curation reads them (curation.pipetables.read_lines): 837
newlines, then a last line without one."""

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
    # citations against the seed: the line and file exist, the line prints what the row quotes
    ("seed-line-9999999", cell(R, 0, "line", "9999999"), R, "row 2", "column line",
     "line 9999999 is outside table 3-5's lines 263 to 283"),
    ("erratum-line-999999", records("bsf/errata.yaml", set_field(0, "lines", [999999])), "bsf/errata.yaml", "erratum bsf-E001",
     "field lines", f"cites lines [999999] outside the seed (1..{BSF_SEED_LINES})"),
    ("seed-file-missing", records("sources.yaml", set_field(0, "seed_file", "003_0000000000000000.txt")), "sources.yaml",
     "item 1", "field seed_file", f"'003_0000000000000000.txt' is not in the seeds folder {SEEDS} (the seed of bsf)"),
    ("row-label-changed", cell(R, 0, "row_label", "Appinfx"), R, "row 2", "column row_label",
     "'Appinfx' is not printed on seed line 267 ('| Appinfo | 2 | 1 | 1 | 0.5 | 1 |')"),
    # Egress Gateway (data row 4) ends the table's first part (line 271); the '(Cont.)' part's caption and header
    # (lines 273-276) come before the next row, and its header cell 'Microservice' is not one of this row's cells
    ("label-from-the-next-parts-header", cell(R, 4, "row_label", "Microservice"), R, "row 6", "column row_label",
     "'Microservice' is not printed on seed line 271 ('| Egress Gateway | 2 | 3 | 4 | 4 | 6 |')"),
    ("cell-and-raw-changed-4-to-40", cells(R, 1, cpu_limit_cores="40", raw_cpu_limit="40"), R, "row 3", "column raw_cpu_limit",
     "'40' is not a cell on seed line 268 ('| BSF Management Service | 11 | 3 | 4 | 1 | 4 |')"),
    ("cell-and-raw-changed-1-to-11", cells(R, 0, replicas="11", raw_replicas="11"), R, "row 2", "column raw_replicas",
     "'11' is not a cell on seed line 267"),  # 11 is printed in the table, not on Appinfo's line
    ("utilization-raw-changed", cells(U, 0, observed_percent="1.5", raw="1.5%"), U, "row 2", "column raw",
     "'1.5%' is not a cell on seed line 338"),
    ("running-text-part-of-a-number", cells("dsr/measurements.csv", DSR_288K, value="88000", raw="88K"),
     "dsr/measurements.csv", f"row {DSR_288K + 2}", "column raw", "'88K' is not printed on seed lines 256-"),
    ("table-lines-beyond-the-seed", records("bsf/tables.yaml", table_field("3-5", "lines", [263, 999999])), "bsf/tables.yaml",
     "table 3-5", "field lines", f"[263, 999999] is not a range of the seed's lines (1 to {BSF_SEED_LINES}"),
    ("caption-changed", records("bsf/tables.yaml", table_field("3-5", "caption", "BSF microservices Resource Allotment")),
     "bsf/tables.yaml", "table 3-5", "field caption", "'BSF microservices Resource Allotment' is not printed on seed line 263"),
    ("erratum-raw-changed", records("bsf/errata.yaml", set_field(0, "raw", "a quote the seed does not print")), "bsf/errata.yaml",
     "erratum bsf-E001", "field raw", "'aquotetheseeddoesnotprint' not in its lines"),
    ("cite-text-changed", records("bsf/scenarios.yaml", set_path(0, "load.cite.text", "23K TPS")), "bsf/scenarios.yaml",
     "scenario bsf-3-1", "field load.cite.text", "'23K TPS' is not printed on seed line 207 ('| Call Rate | 22K TPS |')"),
    ("cite-line-changed", records("bsf/scenarios.yaml", set_path(0, "call_model.cite.line", 999999)), "bsf/scenarios.yaml",
     "scenario bsf-3-1", "field call_model.cite.line", f"line 999999 is not in the seed of bsf (lines 1 to {BSF_SEED_LINES})"),
    # physical ranges (the schemas' range rules)
    ("cell-and-raw-changed-3-to-30", cells(R, 1, cpu_request_cores="30", raw_cpu_request="30"), R, "row 3", "column cpu_limit_cores",
     "4 cores is below cpu_request_cores (30 cores) of the same row; Kubernetes refuses a container whose request is above"),
    ("cpu-limit-below-request", cells(R, 1, cpu_limit_cores="2", raw_cpu_limit="2"), R, "row 3", "column cpu_limit_cores",
     "2 cores is below cpu_request_cores (3 cores)"),
    ("memory-limit-below-request", cells(R, 1, mem_limit_gib="0.5", raw_mem_limit="0.5"), R, "row 3", "column mem_limit_gib",
     "0.5 GiB is below mem_request_gib (1 GiB)"),
    ("replicas-max-below-min", cells("policy/resources.csv", POLICY_MIN_MAX, replicas_max="1", raw_replicas="2 / 1"),
     "policy/resources.csv", f"row {POLICY_MIN_MAX + 2}", "column replicas_max", "1 pods is below replicas_min (2 pods)"),
    ("memory-250-percent", cells(U, 1, observed_percent="250", raw="250%"), U, "row 3", "column observed_percent",
     "250 % is over 100 % (metric memory, percent_basis unstated)"),
    ("percent-of-limit-over-100", cell(U, BSF_3_2_SITE1, "observed_percent", "100.5"), U, f"row {BSF_3_2_SITE1 + 2}",
     "column observed_percent", "100.5 % is over 100 % (percent_basis limit)"),
    # a share of the request: Appinfo's CPU limit is its request (1 and 1), its memory limit twice its request (1 and 0.5 Gi)
    ("cpu-percent-of-request-over-limit", cells(U, 0, observed_percent="150", raw="150%", percent_basis="request",
                                                status="corrected", note="bsf-E001"), U, "row 2", "column observed_percent",
     "150 % is over 100 % (percent_basis request; the pod's limit is 1 times its request)"),
    ("memory-percent-of-request-over-limit", cells(U, 1, observed_percent="250", raw="250%", percent_basis="request",
                                                   status="corrected", note="bsf-E001"), U, "row 3", "column observed_percent",
     "250 % is over 200 % (percent_basis request; the pod's limit is 2 times its request)"),
    # the sites a scenario names are its own
    ("sites-with-traffic-site9", records("bsf/scenarios.yaml", set_field(2, "sites_with_traffic", ["site9"])), "bsf/scenarios.yaml",
     "scenario bsf-3-3", "field sites_with_traffic", "'site9', but its data rows print only site1, site2, site3, site4"),
    ("sites-with-traffic-beyond-provisioned", records("bsf/scenarios.yaml", set_field(1, "sites_with_traffic", ["site1", "site4"])),
     "bsf/scenarios.yaml", "scenario bsf-3-2", "field sites_with_traffic", "'site4', but the scenario provisions 3 sites"),
    ("row-site-beyond-provisioned", cell(U, BSF_3_2_SITE1, "site", "site4"), U, f"row {BSF_3_2_SITE1 + 2}", "column site",
     "'site4', but scenario bsf-3-2 provisions 3 sites"),
    # row counts (tables.yaml) and rows within their table
    ("table-rows-one-more", records("bsf/tables.yaml", table_field("3-5", "rows", 13)), "bsf/tables.yaml", "table 3-5",
     "field rows", "13 rows, but no data row of the table is row 13"),
    ("table-rows-one-fewer", records("bsf/tables.yaml", table_field("3-5", "rows", 11)), R, "row 13", "column row",
     "row 12 of table 3-5, which tables.yaml gives 11 rows"),
    ("row-of-an-excluded-table", cells(R, 0, table_id="U-front-1", scenario="", line="40"), R, "row 2", "column table_id",
     "table U-front-1 is excluded in tables.yaml"),
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


def test_what_a_pod_can_do_is_not_refused(tmp_path):
    """The range rules refuse only what no pod can do. Appinfo's memory limit is twice its request (Table 3-5: 0.5 and
    1 Gi), so 150 % of its request is 75 % of its limit: accepted as a share of the request. A CPU percentage of an
    unstated basis passes 100 %: it may be of the request or of one core (ShCM prints 280 %); BSF Table 3-19 prints
    ndbmtd's Istio CPU at 156 % (data row kept usable), and the data loads with it."""
    d = copy_data(tmp_path)  # raw texts kept (the seed prints them); the values read through an erratum
    cells(U, 1, observed_percent="150", percent_basis="request", status="corrected", note="bsf-E001")(d)
    cells(U, 0, observed_percent="180", status="corrected", note="bsf-E001")(d)
    a = load(d)
    u = a.frames["utilization"]
    assert list(u["observed_percent"].iloc[:2]) == [180, 150]
    assert ((u["table_id"] == "3-19") & (u["row_label"] == "ndbmt d") & (u["column_label"] == "Site1 Istio CPU")
            & (u["observed_percent"] == 156) & (u["status"] == "corrected")).sum() == 1


def test_the_data_is_checked_against_the_seeds(atlas):
    """The tests' data/ loads with every citation checked, against the seeds curation reads ($ATLAS_SEEDS or
    ../shared/seeds)."""
    assert atlas.seeds == SEEDS


def test_without_seeds_the_citations_are_not_checked_and_a_warning_says_so(tmp_path, monkeypatch, caplog):
    """A reader who has data/ but not the seeds (no $ATLAS_SEEDS, no ../shared/seeds beside the repository) can still
    build: the citations are not checked, a warning says so on stderr, and every other check still runs (a row label
    the seed does not print passes, a memory percentage of 250 does not)."""
    monkeypatch.delenv("ATLAS_SEEDS", raising=False)
    monkeypatch.setattr(datastore.curation_common, "SEEDS", tmp_path / "no-seeds")
    d = copy_data(tmp_path)
    cell(R, 0, "row_label", "Appinfx")(d)
    with caplog.at_level(logging.WARNING, logger="atlas.datastore"):
        a = load(d)
    assert a.seeds is None and a.frames["resources"]["row_label"].iloc[0] == "Appinfx"
    assert caplog.messages == [f"atlas: citations not checked against the seeds: no seeds folder at {tmp_path / 'no-seeds'} "
                               f"(set ATLAS_SEEDS to check them)"]
    cells(U, 1, observed_percent="250", raw="250%")(d)
    with pytest.raises(DataError, match=r"bsf/utilization.csv: row 3, column observed_percent: 250 % is over 100 %"):
        load(d)
    # the warning reaches a command line's stderr (nothing configures logging before the build's first step)
    env = {k: v for k, v in os.environ.items() if k != "ATLAS_SEEDS"}
    code = (f"import pathlib, curation.common as c; c.SEEDS = pathlib.Path({str(tmp_path / 'no-seeds')!r}); "
            f"from atlas.datastore import load; load()")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr.strip() == caplog.messages[0], r.stderr


def test_seeds_named_but_missing_stop_loading(tmp_path, monkeypatch):
    """Seeds named ($ATLAS_SEEDS, or load's ``seeds``) but not there are an error, not a silent skip: CI names them."""
    gone = tmp_path / "gone"
    monkeypatch.setenv("ATLAS_SEEDS", str(gone))
    monkeypatch.setattr(datastore.curation_common, "SEEDS", gone)  # as curation.common reads $ATLAS_SEEDS at import
    with pytest.raises(DataError) as e:
        load()
    assert str(e.value) == (f"seeds folder {gone} (ATLAS_SEEDS): not a folder, so the citations cannot be checked (set "
                            f"ATLAS_SEEDS to the folder of the seed texts, or unset it to build without checking them)")
    monkeypatch.delenv("ATLAS_SEEDS")
    with pytest.raises(DataError, match=rf"^seeds folder {re.escape(str(gone))}: not a folder"):
        load(seeds=gone)


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
