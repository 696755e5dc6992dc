"""The downloads step (``atlas.downloads.build``) refusing two files at one path, and keeping its bytes once per data:
a page table as shown, or a page's other CSV, given a path that another download already has is refused with that
path, never written over; the same data built twice gives the same Build."""
from __future__ import annotations

import pytest

TABLE = ("<table><thead><tr><th>Service</th></tr></thead>"
         "<tbody><tr><td>Appinfo</td></tr></tbody></table>")
"""A made-up one-column table as a page renders it."""


@pytest.fixture
def fresh(monkeypatch):
    """An empty cache of builds, so each test builds from its own arguments."""
    from atlas import downloads
    monkeypatch.setattr(downloads, "_CACHE", {})
    return downloads


def test_table_as_shown_at_the_path_of_a_tidy_table_file_is_refused(atlas, fresh):
    """tables/bsf/3-25.csv is BSF Table 3-25's tidy file (its 24 rows of data/bsf/resources.csv)."""
    from atlas.pages.products import Renderer
    with pytest.raises(ValueError, match="^datasets: two tables share the file name tables/bsf/3-25.csv$"):
        fresh.build(Renderer(atlas), {("bsf", "3-25"): ("tables/bsf/3-25.csv", TABLE)}, {})


def test_page_csv_at_the_path_of_a_table_as_shown_is_refused(atlas, fresh):
    from atlas.pages.products import Renderer
    with pytest.raises(ValueError, match="^datasets: two tables share the file name views/home/scenarios.csv$"):
        fresh.build(Renderer(atlas), {("home", "scenarios"): ("views/home/scenarios.csv", TABLE)},
                    {"views/home/scenarios.csv": b"a\n"})


def test_tables_as_shown_and_page_csvs_are_kept_checksummed_and_built_once(atlas, fresh):
    """A made-up page table as shown becomes its CSV ('Service' then 'Appinfo', one line each), a page CSV is kept
    byte for byte, both with their SHA-256 in SHA256SUMS ('<digest>  <path>', sorted by path); the same data and
    renderer built again give the very same Build (computed once per data)."""
    import hashlib

    from atlas.pages.products import Renderer
    renderer = Renderer(atlas)
    b = fresh.build(renderer, {("made", "up"): ("views/made/up.csv", TABLE)}, {"views/made/other.csv": b"a,b\n1,2\n"})
    assert b.shown == {("made", "up"): "views/made/up.csv"}
    assert b.table_bytes["views/made/up.csv"] == b"Service\nAppinfo\n"
    assert b.table_bytes["views/made/other.csv"] == b"a,b\n1,2\n"
    lines = b.sums.splitlines()
    assert hashlib.sha256(b"Service\nAppinfo\n").hexdigest() + "  views/made/up.csv" in lines
    assert hashlib.sha256(b"a,b\n1,2\n").hexdigest() + "  views/made/other.csv" in lines
    paths = [line.split("  ", 1)[1] for line in lines]
    assert paths == sorted(paths) and "benchmark-atlas.xlsx" in paths and "tables/bsf/3-25.csv" in paths
    assert fresh.build(renderer, {}, {}) is b
