"""The page tables the downloads step writes "as shown", and the step that hands the downloads to the pages.

The build's steps hand their outputs forward (as each step of OWID's etl reads the outputs of the steps before it):

1. the page tables' HTML (``shown_tables``: the same functions the pages call, so a file is its page's table) and
   the page's own CSVs (``view_csvs``: the backtest's every comparison) are this module's output;
2. the downloads step (``atlas.downloads.build``) takes them as its input and returns every download's bytes;
3. ``build_downloads`` keeps that result on the Renderer (``renderer.downloads``), where the datasets page, the download
   links under every table and the checksums read it (``atlas.downloads.built``).

``atlas.downloads`` imports no page: a missing key there fails in the build step named "downloads", never in
"generate pages".
"""
from __future__ import annotations

from .. import downloads
from ..downloads import Build, shown_file, view_file
from . import accuracy, home, mesh, ranking
from .data import errata_table


def shown_tables(renderer) -> dict[tuple, tuple[str, str]]:
    """Every table the build writes "as shown": key -> (path under downloads/, the table's HTML as the page renders
    it). Keys: (doc, table id) for curated tables with rows, ("views", page, table) for the home products and
    efficiency tables, each product's scenarios table, the errata table, the backtest's comparisons table and the
    cross-product ranking and mesh tables (docs/tools: ``ranking.VIEW``, ``mesh.VIEW``, ``mesh.PAIRS_VIEW``). The HTML
    comes from the same functions the pages call, so the file is the page's table."""
    out: dict[tuple, tuple[str, str]] = {}
    for t in renderer.atlas.tables:
        if t["kind"] == "excluded":
            continue
        html = renderer.table_html(t["doc"], t["id"])
        if "<table" in html:
            out[(t["doc"], t["id"])] = (shown_file(t["doc"], t["id"]), html)
    out[("views", "home", "products")] = (view_file("home", "products"), home.products_table_html(renderer))
    eff = home.efficiency_table(renderer)
    if eff:
        out[("views", "home", "efficiency")] = (view_file("home", "efficiency"), eff)
    for doc in renderer.atlas.docs():
        out[("views", doc, "scenarios")] = (view_file(doc, "scenarios"), renderer.scenarios_table(doc))
    out[("views", "errata", "errata")] = (view_file("errata", "errata"), errata_table(renderer))
    out[("views", "accuracy", "backtest-points")] = (view_file("accuracy", "backtest-points"), accuracy.points_table(renderer))
    out[ranking.VIEW] = (view_file(*ranking.VIEW[1:]), ranking.table_html(renderer))
    out[mesh.VIEW] = (view_file(*mesh.VIEW[1:]), mesh.table_html(renderer))
    pairs = mesh.pairs_html(renderer)
    if pairs:
        out[mesh.PAIRS_VIEW] = (view_file(*mesh.PAIRS_VIEW[1:]), pairs)
    return out


def view_csvs(renderer) -> dict[str, bytes]:
    """CSV files a page offers beside its tables, path under downloads/ -> bytes: the backtest's every comparison
    (``accuracy.all_points_csv``, views/accuracy/backtest-all.csv) and the cross-product pages' tidy files
    (``ranking.tidy_csv``, ``mesh.tidy_csv``: one row per figure, with its run and table row)."""
    return {view_file(*accuracy.ALL_POINTS[1:]): accuracy.all_points_csv(renderer),
            ranking.TIDY: ranking.tidy_csv(renderer), mesh.TIDY: mesh.tidy_csv(renderer)}


def build_downloads(renderer) -> Build:
    """The downloads step: every download's bytes from the data and the page tables (``downloads.build``), kept on
    the Renderer as ``renderer.downloads`` for the pages that list and link them. Returns the Build. Raises ValueError
    (named by ``downloads.build``) for two tables sharing a file name or a download whose rows do not add up."""
    renderer.downloads = downloads.build(renderer, shown_tables(renderer), view_csvs(renderer))
    return renderer.downloads

