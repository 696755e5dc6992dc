"""Each curated table's own CSV files (``atlas.downloads.build``: ``tables``, ``extra``, ``table_bytes``), in this
process without building the site: the rows of the table's own kind in <table id>.csv, and the rows the curation put
in another kind's file in <table id>.<kind>.csv, each file the header of data/<doc>/<kind>.csv and the table's rows
as that file holds them. The datasets page and the links under every table list these (``atlas.pages.data``)."""
from __future__ import annotations


from conftest import ROOT


def _rows_of(doc: str, kind: str, tid: str) -> list[str]:
    """The header line and the lines of data/<doc>/<kind>.csv whose table_id (third column) is ``tid``."""
    lines = (ROOT / "data" / doc / f"{kind}.csv").read_text(encoding="utf-8").splitlines()
    return [lines[0]] + [x for x in lines[1:] if x.split(",")[2] == tid]


def test_table_with_rows_in_other_kinds_gets_a_file_per_kind(download_build):
    """The ShCM guide's 'Client latency in milliseconds grouped by percentile' (data/shcm/tables.yaml T-client-latency,
    kind latency, seed lines 651-807): its latency rows in T-client-latency.csv; its 21 measurements rows and 7
    settings rows (data/shcm/measurements.csv, settings.csv) each in a file of their own named for the kind, listed
    in the kinds' order (measurements before settings)."""
    key = ("shcm", "T-client-latency")
    assert download_build.tables[key] == "tables/shcm/T-client-latency.csv"
    assert download_build.extra[key] == {"measurements": "tables/shcm/T-client-latency.measurements.csv",
                                "settings": "tables/shcm/T-client-latency.settings.csv"}
    assert list(download_build.extra[key]) == ["measurements", "settings"]
    for kind, path, n in (("latency", "tables/shcm/T-client-latency.csv", None),
                          ("measurements", "tables/shcm/T-client-latency.measurements.csv", 21),
                          ("settings", "tables/shcm/T-client-latency.settings.csv", 7)):
        want = _rows_of("shcm", kind, "T-client-latency")
        assert n is None or len(want) == 1 + n, kind
        assert download_build.table_bytes[path].decode("utf-8").splitlines() == want, path


def test_a_settings_table_with_measurements_rows(download_build):
    """DSR Table 3-18 'Application configuration' (section 3.2.8, kind settings): its settings rows in 3-18.csv and
    its 6 measurements rows in 3-18.measurements.csv; a table whose rows are all of its own kind (BSF Table 3-25) has
    no other file."""
    key = ("dsr", "3-18")
    assert download_build.tables[key] == "tables/dsr/3-18.csv"
    assert download_build.extra[key] == {"measurements": "tables/dsr/3-18.measurements.csv"}
    want = _rows_of("dsr", "measurements", "3-18")
    lines = lambda path: download_build.table_bytes[path].decode("utf-8").splitlines()
    assert len(want) == 7 and lines("tables/dsr/3-18.measurements.csv") == want
    assert lines("tables/dsr/3-18.csv") == _rows_of("dsr", "settings", "3-18")
    assert ("bsf", "3-25") not in download_build.extra and download_build.tables["bsf", "3-25"] == "tables/bsf/3-25.csv"
