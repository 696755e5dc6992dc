"""Offline after one visit: the site's service worker (sw/service-worker.mjs, written by the build
step "service worker", atlas/offline.py) keeps the pages, calculators and downloads a reader used, and never mixes
two builds.

The site is served here under a sub-path (/atlas/), with the Hosting page's Cache-Control and the site's
Content-Security-Policy as headers, by a server whose folder a test can switch to another build at the same address.
Each test opens its own browser context with service workers allowed (the ``page`` fixture of conftest.py blocks
them, so that every other browser test starts from the network); "offline" is the context set offline *and* every
request aborted by a route, so nothing can reach the server. Every wait is for a state, never a time.
"""
from __future__ import annotations

import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from atlas.offline import HASHED_NAME, WORKER, build_manifest, write_service_worker
from atlas.pipeline import config_extra
from conftest import BOOT_LIMIT_MS, _Server, computed, offline, result_cell

pytestmark = pytest.mark.browser

PREFIX = "/atlas/"
"""The sub-path the site is served under."""
CSP = "; ".join(config_extra()["csp"])
KEPT = 'html[data-atlas-offline="{}"]'
"""Offline.js marks the page once the worker has kept its files ("page"), and a calculator's ("calculator")."""
NEWER = "A newer version of the atlas is available: reload"
B_MARK = "Second build of the atlas (test_offline)"
CALC = "calculators/footprint/?scenario=bsf-3-3&load=126000&target=70"
"""126K TPS on BSF scenario 3.3 at a 70 % target: BSF Management Service 17 replicas and Diameter Gateway's sidecar 18
(tests/test_calculators.py test_observed_cpu_rule_scenario_3_3 computes them by hand from Table 3-25; the
prerendered default is 14): a link's own inputs, so the page computes in the browser."""


def _footprint_computed(pg) -> None:
    computed(pg)
    assert result_cell(pg, "BSF Management Service", "app", "Replicas (target)") == "17"
    assert result_cell(pg, "Diameter Gateway", "istio-proxy", "Replicas (target)") == "18"


ACTIVATED_CACHES = """async () => {
    const reg = await navigator.serviceWorker.ready;
    const sw = reg.active;
    if (sw.state !== "activated") {
        await new Promise((done) => sw.addEventListener("statechange", () => sw.state === "activated" && done()));
    }
    return caches.keys();
}"""
"""The page's cache names once its worker is activated (its activate handler, which deletes older caches, done)."""


class SwitchableSite(SimpleHTTPRequestHandler):
    """Serves ``root`` (a class attribute: a test switches builds by setting it) under PREFIX, with the Hosting page's
    headers: ``Cache-Control`` immutable for ?v= addresses and content-hashed names, no-cache for everything else
    (docs/about/hosting.md), and the site's Content-Security-Policy (mkdocs.yml extra.csp)."""
    root: Path = Path(".")
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript", ".json": "application/json"}

    def translate_path(self, path):
        path = unquote(urlsplit(path).path)
        if not path.startswith(PREFIX):
            return str(self.root / "does-not-exist")
        return str(self.root / path[len(PREFIX):])

    def end_headers(self):
        parts = urlsplit(self.path)
        hashed = "v=" in parts.query or HASHED_NAME.search(parts.path)
        self.send_header("Cache-Control", "public, max-age=31536000, immutable" if hashed else "no-cache")
        self.send_header("Content-Security-Policy", CSP + "; frame-ancestors 'self'")
        super().end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def server(built_site):
    """A SwitchableSite serving the built site; yields (handler class, base URL ending in PREFIX)."""
    handler = type("Site", (SwitchableSite,), {"root": built_site})
    httpd = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield handler, f"http://127.0.0.1:{httpd.server_address[1]}{PREFIX}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def second_build(built_site, tmp_path_factory) -> Path:
    """Another build of the site: the built site with its home page changed (B_MARK in its first heading) and its
    service worker written again for it (``write_service_worker``), as a new build would be. Files are hard links to
    the built site's but for the two written (each unlinked first, so the built site is untouched)."""
    b = tmp_path_factory.mktemp("second-build") / "site"
    shutil.copytree(built_site, b, copy_function=os.link)
    home = b / "index.html"
    html = home.read_text(encoding="utf-8")
    home.unlink()
    assert "</h1>" in html
    home.write_text(html.replace("</h1>", f" {B_MARK}</h1>", 1), encoding="utf-8")
    for z in (".gz", ".br"):
        (b / f"index.html{z}").unlink(missing_ok=True)
    for z in ("", ".gz", ".br"):
        (b / f"{WORKER}{z}").unlink(missing_ok=True)
    write_service_worker(b)
    return b


def _context(browser):
    """A browser context with service workers allowed; its pages record errors and CSP reports."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="allow")
    ctx.blocker = offline(ctx)
    ctx.csp = []
    return ctx


def _page(ctx):
    pg = ctx.new_page()
    pg.on("console", lambda m: "Content Security Policy" in m.text and ctx.csp.append(m.text))
    return pg


def _go_offline(ctx) -> list[str]:
    """No network from here on: the context offline, and every request that still reaches the network aborted.
    Returns the list the aborted URLs are added to."""
    aborted: list[str] = []
    ctx.set_offline(True)
    ctx.route("**/*", lambda route: (aborted.append(route.request.url), route.abort("internetdisconnected")))
    return aborted


def test_build_manifest_lists_unhashed_files_with_their_sha256(built_site):
    """The build written into sw.js: every file not named by its content, with its SHA-256's first 16 hex digits (the
    home page's computed here with hashlib), none named by its content (the snapshot's pack), no .br/.gz copy; sw.js
    holds the id."""
    import hashlib
    m = build_manifest(built_site)
    assert m["files"]["index.html"] == hashlib.sha256((built_site / "index.html").read_bytes()).hexdigest()[:16]
    assert "calculators/footprint/index.html" in m["files"]
    assert "assets/vendor/pyodide/pyodide.asm.wasm" in m["files"]
    assert "downloads/csv/resources.csv" in m["files"]
    assert not [f for f in m["files"] if f.endswith((".br", ".gz")) or f.startswith("assets/py/snapshot.")]
    assert WORKER not in m["files"]
    assert m["id"] in (built_site / WORKER).read_text(encoding="utf-8")


def test_pages_calculator_and_download_work_offline_after_one_visit(browser, server):
    """Visit the home page, the datasets page (one CSV downloaded) and the footprint calculator (a result computed),
    then take the network away entirely and reload: the calculator boots and computes again, the home page and the
    datasets page open, and the CSV downloads again, all from the worker's cache; a page never opened says it is not
    available offline; under /atlas/ and the site's CSP."""
    _, base = server
    ctx = _context(browser)
    try:
        pg = _page(ctx)
        pg.goto(base)
        pg.wait_for_selector(KEPT.format("page"), state="attached", timeout=BOOT_LIMIT_MS)
        scope = pg.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == base, scope
        pg.goto(base + "data/datasets/")
        pg.wait_for_selector(KEPT.format("page"), state="attached", timeout=BOOT_LIMIT_MS)
        with pg.expect_download() as dl:
            pg.click('a[href$="downloads/csv/resources.csv"]')
        first_csv = Path(dl.value.path()).read_bytes()
        pg.goto(base + CALC)
        _footprint_computed(pg)
        pg.wait_for_selector(KEPT.format("calculator"), state="attached", timeout=BOOT_LIMIT_MS)
        first = pg.inner_text("#atlas-calc-result")

        aborted = _go_offline(ctx)
        pg.reload()
        _footprint_computed(pg)
        assert pg.inner_text("#atlas-calc-result") == first
        for path, text in (("", "Benchmark Atlas"), ("data/datasets/", "resources.csv")):
            pg.goto(base + path)
            assert text in pg.inner_text("body"), path
        with pg.expect_download() as dl:
            pg.click('a[href$="downloads/csv/resources.csv"]')
        assert Path(dl.value.path()).read_bytes() == first_csv
        pg.goto(base + "products/nef/")  # never opened: the worker says so, and links home
        assert pg.inner_text("h1") == "Not available offline"
        assert pg.get_attribute("a", "href") == base
        assert ctx.csp == [] and ctx.blocker.blocked == []
        print(f"offline revisit: home, datasets, footprint computed, CSV downloaded; {len(aborted)} requests aborted")
    finally:
        ctx.close()


def test_new_build_is_announced_not_mixed(browser, server, second_build, built_site):
    """A newer build served at the same address: reloading shows the build the page came from (never the new home
    page), the page says a newer version is available, and only the reader's "reload" switches: then the new build's
    page, no announcement, and one cache left, the new build's."""
    handler, base = server
    ctx = _context(browser)
    try:
        pg = _page(ctx)
        pg.goto(base)
        pg.wait_for_selector(KEPT.format("page"), state="attached", timeout=BOOT_LIMIT_MS)
        old_id, new_id = build_manifest(built_site)["id"], build_manifest(second_build)["id"]
        assert pg.evaluate("caches.keys()") == [f"atlas-{old_id}"]

        handler.root = second_build
        pg.reload()
        pg.wait_for_selector("#atlas-update", state="visible", timeout=BOOT_LIMIT_MS)
        assert pg.inner_text("#atlas-update").replace("\n", " ").strip() == NEWER
        assert B_MARK not in pg.inner_text("body")
        pg.goto(base)  # navigating again does not switch either
        pg.wait_for_selector("#atlas-update", state="visible", timeout=BOOT_LIMIT_MS)
        assert B_MARK not in pg.inner_text("body")

        with pg.expect_navigation():
            pg.click("#atlas-update button")
        pg.wait_for_selector(f"h1:has-text('{B_MARK}')", timeout=BOOT_LIMIT_MS)
        assert pg.evaluate(ACTIVATED_CACHES) == [f"atlas-{new_id}"]
        assert pg.locator("#atlas-update").count() == 0
        assert ctx.csp == [] and ctx.blocker.blocked == []
    finally:
        ctx.close()


def test_pages_work_without_a_service_worker(browser, server):
    """A browser that refuses service workers (the context blocks them): the page and its calculator work as before,
    and offline.js only marks that nothing is kept."""
    _, base = server
    ctx = browser.new_context(service_workers="block")
    try:
        pg = ctx.new_page()
        errors = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(base + CALC)
        _footprint_computed(pg)
        assert pg.evaluate("navigator.serviceWorker ? navigator.serviceWorker.controller : null") is None
        assert errors == []
    finally:
        ctx.close()
