"""The build, as named steps run in order (``python -m atlas build``):

1. **validate data**: load data/ (or the folder ATLAS_DATA names) and check every file against its
   schema, the references between files and the provenance of every row (``atlas.datastore``);
2. **calculator bundle and code packs**: the bundle the calculators read, each page's slice, the
   calculators compiled to Pyodide bytecode and packed per page (``atlas.bundle``, ``atlas.assets``);
3. **downloads**: every dataset file with its checksums, and each page table "as shown" (the tables' HTML from
   ``atlas.pages.shown``, handed to ``atlas.downloads``, which imports no page); its output goes forward to the pages
   (``renderer.downloads``), which list the files with their sizes and checksums;
4. **generate pages**: product, scenario and rules pages from the data, the hand-written pages of
   docs/ with their macros expanded, and the navigation (``atlas.pages.generate``);
5. **page data**: the compare page's data and the errata page's detail columns, loaded on first use
   (``atlas.pages.compare``, ``atlas.pages.data``);
6. **browser assets**: Pyodide, Vega and tablesort from node_modules (``atlas.assets``), and the page script that
   registers the service worker (``atlas.offline.page_script``);
7. **render (MkDocs)**: MkDocs turns the docs tree (build/docs/) into HTML, strict, into a temporary
   folder beside the site that replaces the site only when everything succeeded. The templates put
   each own script's and stylesheet's content hash in its URL (``mkdocs_extra``);
8. **static charts**: each chart of a page that is not a calculator, drawn as SVG into its page, so
   the page shows it without loading Vega (``atlas.charts``; Node draws them while MkDocs renders);
9. **collapse whitespace**: each run of white space in the pages' text (the templates' indentation) as one
   character, outside pre, code, textarea, script and style (``atlas.whitespace``);
10. **trim stylesheets**: Material's stylesheets cut to the rules the site's pages and scripts can use
   (``atlas.trimcss``, PurgeCSS), renamed by content, every page's link rewritten;
11. **service worker**: ``sw.js`` at the site's root, bundled with Workbox, with the build's id and the SHA-256 of
   every file not named by its content written in (``atlas.offline``): pages and calculators work offline after one
   visit, and never with another build's files;
12. **compress**: ``<file>.gz`` and ``<file>.br`` beside every large compressible file of the rendered site
   (``atlas.compress``), which then replaces the site.

Steps 1 to 6 write the docs tree (``prepare``); MkDocs only renders it: no MkDocs plugin or hook
does pipeline work. A failing step is named ("Build step 'downloads' failed: ...") and leaves the
previous site as it was.
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DOCS = ROOT / "docs"
"""The hand-written pages, scripts and stylesheets."""
DOCS_TREE = ROOT / "build" / "docs"
"""Where ``prepare`` writes the docs tree by default (mkdocs.yml's docs_dir)."""
CONFIG = ROOT / "mkdocs.yml"

STEPS = ("validate data", "calculator bundle and code packs", "downloads", "generate pages", "page data", "browser assets",
         "render (MkDocs)", "static charts", "collapse whitespace", "trim stylesheets", "service worker", "compress")
"""The steps, in the order they run."""


class StepFailed(Exception):
    """A build step failed; the message names the step and what went wrong."""


@dataclass
class Prepared:
    """What ``prepare`` made: the Renderer (data, bundle), the docs tree and every file written to it."""
    renderer: object
    docs_dir: Path
    files: set[str] = field(default_factory=set)
    seconds: dict[str, float] = field(default_factory=dict)
    drawing: object = None
    """The static charts being drawn (``atlas.charts.Drawing``), when ``prepare`` was asked to start them."""


def data_root() -> Path:
    """data/, or the folder the environment variable ATLAS_DATA names (the tests build from fixtures)."""
    from .datastore import DATA
    return Path(os.environ.get("ATLAS_DATA") or DATA)


@contextlib.contextmanager
def step(name: str, seconds: dict | None = None, kept: Path | None = None):
    """Run the body as step ``name``: any exception becomes StepFailed("Build step '<name>' failed: <what>"),
    with "; the previous site in <kept> is unchanged" when a site is being replaced. Times the step into
    ``seconds``."""
    if name not in STEPS:
        raise ValueError(f"unknown build step {name!r}; the steps are {', '.join(STEPS)}")
    t0 = time.perf_counter()
    try:
        yield
    except StepFailed:
        raise
    except Exception as e:  # noqa: BLE001 - every failure is reported with its step
        from .assets import BuildError
        from .datastore import DataError
        detail = (f"Invalid data: {e}" if isinstance(e, DataError) else str(e) if isinstance(e, BuildError)
                  else f"{type(e).__name__}: {e}")
        note = f"; the previous site in {kept} is unchanged" if kept else ""
        raise StepFailed(f"Build step '{name}' failed: {detail}{note}") from e
    finally:
        if seconds is not None:
            seconds[name] = time.perf_counter() - t0


def config_extra() -> dict:
    """mkdocs.yml's ``extra`` (the CSP the Hosting page quotes), read without MkDocs."""
    class Loader(yaml.SafeLoader):
        pass
    Loader.add_constructor("!ENV", lambda loader, node: None)
    return (yaml.load(CONFIG.read_text(encoding="utf-8"), Loader=Loader) or {}).get("extra") or {}


def prepare(docs_dir: Path = DOCS_TREE, data: Path | None = None, kept: Path | None = None,
            draw_charts: bool = False) -> Prepared:
    """Run steps 1 to 6 into ``docs_dir`` (created if needed; files no step wrote are removed). ``data``: the
    data folder (default ``data_root()``). ``kept``: the site a failure leaves unchanged, named in its message.
    ``draw_charts``: start drawing the static charts (step 8) once the pages are written, so Node draws them
    while the later steps run (``Prepared.drawing``). Returns Prepared. Raises StepFailed naming the step that
    failed."""
    from . import assets, charts, downloads
    from .datastore import load
    from .pages import compare, data as pdata, generate, shown
    from .pages.products import Renderer

    docs_dir = Path(docs_dir).resolve()
    docs_dir.mkdir(parents=True, exist_ok=True)
    secs: dict[str, float] = {}
    with step("validate data", secs, kept):
        atlas = load(data or data_root())
    with step("calculator bundle and code packs", secs, kept):
        renderer = Renderer(atlas)
        # The bytecode compile (Node and Pyodide, about 4 s, mostly waiting on the subprocess) runs in a
        # thread while the pages are generated in this one: on two cores the two steps overlap. The pages
        # read nothing it writes (assets/py, assets/data); its files join the set once it has finished.
        # The step's time: the bundle and its start here, plus the wait for it after the pages are written.
        pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="atlas-bundle")
        # The query page's data is the downloads' SQLite database (downloads.database: computed once, by whichever
        # of this thread and the downloads step asks first).
        bundling = pool.submit(assets.calculators_and_bundles, renderer.bundle, docs_dir,
                               data_files={"query": (downloads.SQLITE, lambda: downloads.database(renderer))})
        pool.shutdown(wait=False)
    try:
        with step("downloads", secs, kept):
            # The pages list the downloads with their sizes and checksums: they read this step's output
            # (renderer.downloads), which reads the page tables' HTML (atlas.pages.shown), never the reverse.
            downloads.write(shown.build_downloads(renderer), docs_dir)
        with step("generate pages", secs, kept):
            w = generate.write(renderer, docs_dir, SOURCE_DOCS, config_extra())
    except BaseException:
        concurrent.futures.wait([bundling])  # its temporary folder is gone before the error is reported
        raise
    started = secs["calculator bundle and code packs"]
    with step("calculator bundle and code packs", secs, kept):
        files = set(bundling.result())  # waits; re-raises its error inside this step
    secs["calculator bundle and code packs"] += started
    files |= w.written
    drawing = None
    if draw_charts:
        with step("static charts", None, kept):
            drawing = charts.start(charts.collect(docs_dir))
    try:
        with step("page data", secs, kept):
            compare.write_data(renderer, docs_dir)
            files.add(pdata.write_errata_details(renderer, docs_dir))
            for sub in ("downloads", "assets/data/compare"):
                files |= {f.relative_to(docs_dir).as_posix() for f in (docs_dir / sub).rglob("*") if f.is_file()}
        with step("browser assets", secs, kept):
            files |= set(assets.vendor(docs_dir))
            from . import offline
            files.add(offline.page_script(docs_dir))
            css = docs_dir / charts.CSS
            css.parent.mkdir(parents=True, exist_ok=True)
            css.write_text(charts.dark_css(), encoding="utf-8")
            files.add(charts.CSS)
        generate.remove_stale(docs_dir, files)
    except BaseException:
        if drawing is not None:
            drawing.cancel()
        raise
    return Prepared(renderer, docs_dir, files, secs, drawing)


def mkdocs_extra(docs_dir: Path, extra: dict, service_worker: bool = False) -> dict:
    """MkDocs' ``extra`` (``config.extra`` in the templates) for rendering ``docs_dir``: ``extra`` (mkdocs.yml's,
    as MkDocs loaded it) plus ``asset_hash``, the content version of each file of the docs tree
    (``atlas.assets.AssetVersions``), which overrides/ puts in the URL of every script and stylesheet of
    this site a page loads, and of the code manifest the calculator worker fetches; and ``service_worker``: whether
    the pages register the site's service worker (a build, ``render``: True; ``make serve``: False, whose pages
    change under the same address and must never come from a build's cache)."""
    from .assets import AssetVersions
    return {**extra, "asset_hash": AssetVersions(docs_dir), "service_worker": service_worker}


def _mkdocs_logging(verbose: bool) -> None:
    log = logging.getLogger("mkdocs")
    if not any(getattr(h, "_atlas", False) for h in log.handlers):
        h = logging.StreamHandler(sys.stderr)
        h.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
        h._atlas = True  # type: ignore[attr-defined]
        log.addHandler(h)
    log.setLevel(logging.INFO if verbose else logging.WARNING)
    log.propagate = False


def swap_into_place(tmp: Path, final: Path) -> None:
    """Make the finished build ``tmp`` the site at ``final``: the old site is renamed aside, ``tmp``
    renamed to ``final``, then the old one deleted. Both are folders on one filesystem (``tmp`` is
    made beside ``final``), so each rename is atomic and a reader sees either site whole, never a
    mixture. Raises OSError if a rename fails (the old site is then put back)."""
    old = final.with_name(f".{final.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if final.exists():
        os.replace(final, old)
    try:
        os.replace(tmp, final)
    except OSError:
        if old.exists():
            os.replace(old, final)
        raise
    shutil.rmtree(old, ignore_errors=True)


def render(docs_dir: Path, site_dir: Path, verbose: bool = False, seconds: dict | None = None,
           drawing=None) -> None:
    """Steps 7 to 12: MkDocs renders ``docs_dir`` (strict: a broken link or any warning fails) into a temporary
    folder beside ``site_dir``, the static charts are put into its pages (``drawing``, an
    ``atlas.charts.Drawing`` started by ``prepare``; else they are drawn now), the pages' white-space runs collapsed
    (``atlas.whitespace``), Material's stylesheets trimmed (``atlas.trimcss``), the service worker written
    (``atlas.offline``), its large files are precompressed (``atlas.compress``), and it then replaces ``site_dir`` (``swap_into_place``). Raises
    StepFailed; the previous site is then unchanged and the temporary folder removed."""
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    final = Path(site_dir).resolve()
    tmp = final.with_name(f".{final.name}.building")
    shutil.rmtree(tmp, ignore_errors=True)  # left by a build that was killed
    _mkdocs_logging(verbose)
    kept = final if final.exists() else None
    try:
        with step("render (MkDocs)", seconds, kept):
            from mkdocs.commands.build import build as mkdocs_build
            from mkdocs.config import load_config
            from mkdocs.exceptions import Abort
            cfg = load_config(str(CONFIG), docs_dir=str(docs_dir), site_dir=str(tmp), strict=True)
            cfg["extra"] = mkdocs_extra(docs_dir, dict(cfg["extra"]), service_worker=True)
            cfg.plugins.on_startup(command="build", dirty=False)
            try:
                mkdocs_build(cfg)
            except Abort as e:
                raise RuntimeError(f"MkDocs stopped: {e}") from None
            finally:
                cfg.plugins.on_shutdown()
        with step("static charts", seconds, kept):
            from . import charts
            if drawing is None:
                drawing = charts.start(charts.collect(docs_dir))
            charts.inject(tmp, drawing.finish())
        with step("collapse whitespace", seconds, kept):
            from .whitespace import collapse_site
            collapse_site(tmp)
        with step("trim stylesheets", seconds, kept):
            from .trimcss import trim
            trim(tmp)
        with step("service worker", seconds, kept):
            from .offline import write_service_worker
            write_service_worker(tmp)
        with step("compress", seconds, kept):
            from .compress import precompress
            precompress(tmp)
            swap_into_place(tmp, final)  # the last step's last act: the finished site replaces the old one
    finally:
        if drawing is not None:
            drawing.cancel()  # when a step before it failed; else a no-op
        shutil.rmtree(tmp, ignore_errors=True)


def build(site_dir: Path = ROOT / "site", docs_dir: Path = DOCS_TREE, data: Path | None = None,
          verbose: bool = False) -> Prepared:
    """The whole build: ``prepare`` into ``docs_dir``, then ``render`` into ``site_dir``. Returns Prepared
    (with each step's seconds). Raises StepFailed naming the step; the previous site is then unchanged."""
    final = Path(site_dir).resolve()
    p = prepare(docs_dir, data, kept=final if final.exists() else None, draw_charts=True)
    render(p.docs_dir, final, verbose, p.seconds, p.drawing)
    return p
