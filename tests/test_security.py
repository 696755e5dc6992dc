"""The site is safe to host inside an operator network and to feed its own numbers:

* no request leaves the site, on any built page;
* everything runs under a strict Content-Security-Policy (no inline script, no eval; only
  'wasm-unsafe-eval' for Pyodide's WebAssembly), including Pyodide, the charts and search;
* data is inert: markup, script, Jinja and ``javascript:`` in data render as text and run nothing,
  on the pages, in the chart specs, the calculator bundle, the search index and the calculator;
  the same for what a reader types into a calculator.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from conftest import (BOOT_LIMIT_MS, FAILED, PAYLOAD, SERVICE, _Handler, offline, chart_spec, result_cell, serve,
                      wait_for_chart)

# The policy an operator can put in front of the site. Every directive, and why:
CSP_DIRECTIVES = [
    "default-src 'self'",                    # anything not named below (fonts, manifests, media): this site only
    "script-src 'self' 'wasm-unsafe-eval'",  # script files from this site only: no inline script, no eval/new Function;
                                             # 'wasm-unsafe-eval' lets Pyodide compile pyodide.asm.wasm (nothing else needs it)
    "worker-src 'self'",                     # assets/js/pyworker.mjs (Pyodide) and Material's search worker
    "connect-src 'self'",                    # fetch(): Pyodide's stdlib and lock file, calculator code, data bundle, search index
    "img-src 'self' data:",                  # Material's CSS draws its icons as data: SVG (mask-image); no blob: images are used
    "style-src 'self'",                      # stylesheets from this site only: no style="" attribute, no <style> element
                                             # (vega-embed's CSS ships as a file; see test_charts_and_tooltips_need_no_inline_style)
    "object-src 'none'",                     # no plugins
    "base-uri 'self'",                       # a <base> injected into a page could not re-point relative URLs
    "form-action 'self'",                    # the calculator form submits (GET) to its own page only
    "report-uri /csp-report",                # test only: the server records every violation, from pages and workers alike
]
# Downloads need nothing: the prerendered data: links and the blob: links the calculator makes are
# navigations/downloads, which CSP level 3 does not restrict (the download test below proves it).
CSP = "; ".join(CSP_DIRECTIVES)
LISTEN_CSP = ("window.__csp = [];"
              "document.addEventListener('securitypolicyviolation', function (e) {"
              "  window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber); });")


def _csp_handler(policy: str, reports: list):
    class H(_Handler):
        def end_headers(self):
            self.send_header("Content-Security-Policy", policy)
            super().end_headers()

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path == "/csp-report":
                r = json.loads(body).get("csp-report", {})
                reports.append(f"{r.get('violated-directive')} {r.get('blocked-uri')} {r.get('source-file')}:{r.get('line-number')}")
            self.send_response(204)
            self.end_headers()
    return H


def _csp_page(browser, **ctx_options):
    """A fresh context that blocks (and records) every request outside 127.0.0.1 and collects
    the page's CSP violation events (LISTEN_CSP); returns (ctx, page, blocker)."""
    ctx = browser.new_context(service_workers="block", **ctx_options)
    blocker = offline(ctx)
    ctx.add_init_script(LISTEN_CSP)
    return ctx, ctx.new_page(), blocker



def _all_pages(site: Path) -> list[str]:
    """URL path of every built page (every index.html, plus 404.html)."""
    out = []
    for f in sorted(site.rglob("*.html")):
        rel = f.relative_to(site).as_posix()
        out.append("/" + (rel[: -len("index.html")] if rel.endswith("index.html") else rel))
    return out


# --- no request leaves the site; every page under the strict CSP -------------------------------

@pytest.mark.browser
def test_every_page_stays_on_site_without_errors_under_strict_csp(browser, built_site):
    """Visits every built page with the strict CSP header and every
    request outside 127.0.0.1 blocked: none is attempted, no page throws, nothing same-site fails, and
    no CSP violation is reported. Plain page loads: Pyodide is not waited for."""
    paths = _all_pages(built_site)
    reports: list[str] = []
    httpd, url = serve(built_site, _csp_handler(CSP, reports))
    ctx, pg, blocker = _csp_page(browser)
    errors, bad, violations = [], [], []
    current = {"path": ""}
    pg.on("pageerror", lambda e: errors.append(f"{current['path']}: {e}"))
    pg.on("response", lambda r: r.status >= 400 and bad.append(f"{current['path']}: {r.status} {r.url}"))
    try:
        for path in paths:
            current["path"] = path
            resp = pg.goto(url + path, wait_until="load")
            assert resp is not None and resp.status == 200, path
            violations += [f"{path}: {v}" for v in pg.evaluate("window.__csp || []")]
        pg.goto(url + "/", wait_until="load")  # a last same-site request: earlier reports have been sent
    finally:
        ctx.close()
        httpd.shutdown()
    assert len(paths) > 40
    assert blocker.blocked == [], f"requests outside 127.0.0.1: {blocker.blocked[:20]}"
    assert errors == [], errors[:20]
    assert bad == [], bad[:20]
    assert violations == [] and reports == [], (violations + reports)[:20]


@pytest.mark.browser
def test_footprint_computes_in_pyodide_under_strict_csp(browser, built_site):
    """Pyodide boots, the calculator computes the known result (bsf-3-3 at 126K TPS and 70 % target:
    BSF Management Service 12 replicas), the chart draws and the CSV downloads, with no violation
    reported by the page or the worker."""
    reports: list[str] = []
    httpd, url = serve(built_site, _csp_handler(CSP, reports))
    ctx, pg, blocker = _csp_page(browser, accept_downloads=True)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        resp = pg.goto(url + "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70", wait_until="load")
        assert "'wasm-unsafe-eval'" in resp.headers["content-security-policy"]
        pg.wait_for_selector(f'#atlas-calculator[data-result-seq="1"], {FAILED}', timeout=BOOT_LIMIT_MS)
        assert pg.get_attribute("#atlas-calculator", "data-state") == "ready", pg.inner_text("#atlas-calc-status")
        assert result_cell(pg, "BSF Management Service") == "17"
        assert result_cell(pg, "Diameter Gateway", "istio-proxy") == "18"
        wait_for_chart(pg, '.atlas-chart[data-chart-id="calc-chart"][data-rendered="true"] svg')
        with pg.expect_download() as dl:
            pg.click("#calc-dl-csv")
        assert "BSF Management Service" in Path(dl.value.path()).read_text()
        violations = pg.evaluate("window.__csp")
        pg.goto(url + "/", wait_until="load")  # flushes: the reports above reached the server before this page
    finally:
        ctx.close()
        httpd.shutdown()
    assert blocker.blocked == [] and errors == []
    assert violations == [] and reports == [], violations + reports


@pytest.mark.browser
def test_charts_and_tooltips_need_no_inline_style(browser, built_site):
    """Under style-src 'self' a chart draws, its Vega tooltip shows styled by the shipped
    vega-embed.css (fixed, beside the pointer, not unstyled at the foot of the page), and search
    (Material's worker) works, with no violation at all."""
    reports: list[str] = []
    httpd, url = serve(built_site, _csp_handler(CSP, reports))
    ctx, pg, blocker = _csp_page(browser)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(url + "/products/bsf/bsf-3-3/", wait_until="load")
        wait_for_chart(pg)
        assert "Chart could not be drawn" not in pg.inner_text("article")
        pg.fill("input[data-md-component=search-query]", "Diameter Gateway")
        pg.wait_for_selector(".md-search-result__item", timeout=20000)
        pg.keyboard.press("Escape")  # close search: the chart is under its overlay
        pg.wait_for_function("() => !document.getElementById('__search').checked")
        marks = pg.locator('.atlas-chart[data-rendered="true"] svg path[role="graphics-symbol"]')
        big = pg.evaluate("""() => [...document.querySelectorAll('.atlas-chart[data-rendered="true"] svg path[role="graphics-symbol"]')]
            .findIndex(e => { const b = e.getBoundingClientRect(); return b.width * b.height > 30; })""")
        # hover() scrolls the mark into view and waits until it stands still (closing search restores the
        # scroll position), then moves the pointer onto it: Vega shows the tooltip on pointer moves over a mark
        marks.nth(big).hover(position={"x": 3, "y": 3})
        marks.nth(big).hover()
        pg.wait_for_selector("#vg-tooltip-element.visible", timeout=10000)
        tip = pg.evaluate("""() => { const t = document.getElementById('vg-tooltip-element'), s = getComputedStyle(t);
            return {position: s.position, visibility: s.visibility, top: t.getBoundingClientRect().top,
                    text: t.innerText, height: innerHeight}; }""")
        assert tip["position"] == "fixed" and tip["visibility"] == "visible", tip
        assert 0 <= tip["top"] < tip["height"] and tip["text"].strip(), tip
        assert pg.evaluate("document.querySelectorAll('style').length") == 0
        violations = pg.evaluate("window.__csp")
        pg.goto(url + "/", wait_until="load")
    finally:
        ctx.close()
        httpd.shutdown()
    assert blocker.blocked == [] and errors == []
    assert violations == [] and reports == [], (violations + reports)[:20]


def test_every_page_carries_the_policy_as_a_meta_tag(built_site):
    """The policy ships with the site: each page's first <head> element is the <meta> CSP, with
    only directives a <meta> may hold, and the same as the header the tests serve (less report-uri)."""
    meta_policy = "; ".join(d for d in CSP_DIRECTIVES if not d.startswith("report-uri"))
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 40
    for f in pages:
        text = f.read_text(encoding="utf-8")
        head = text[text.index("<head>") + len("<head>"):].lstrip()
        m = re.match(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', head)
        assert m, f"{f}: no CSP <meta> first in <head>"
        policy = html.unescape(m.group(1))
        assert policy == meta_policy, f
        assert not re.search(r"frame-ancestors|report-uri|report-to|sandbox", policy)
        assert ' style="' not in text and "<style" not in text, f


# --- data is inert -------------------------------------------------------------------------------

ESC_IMG = "&lt;img src=x onerror=window.__pwned=1&gt;"
ESC_FULL = html.escape(PAYLOAD)


@pytest.fixture(scope="module")
def poisoned_site(variant_site) -> Path:
    """The variant build (conftest.variant_site): BSF's data carries PAYLOAD, "Egress Gateway" is SERVICE in every
    data/bsf file and bsf-3-3's title, short title and notes end in PAYLOAD."""
    return variant_site


def test_markup_in_data_is_escaped_in_every_built_file(poisoned_site):
    pages = {f.relative_to(poisoned_site).as_posix(): f.read_text(encoding="utf-8") for f in poisoned_site.rglob("*.html")}
    for rel in ("products/bsf/bsf-3-3/index.html", "products/bsf/index.html", "calculators/footprint/index.html"):
        assert pages[rel].count(ESC_FULL) > 0, f"{rel}: the payload is not shown as text"
    for rel, raw in pages.items():
        text = raw.replace("&#123;", "{").replace("&#125;", "}")  # the nav writes data's braces as entities
        assert "<img src=x" not in text, rel
        assert not re.search(r"""(href|src|action)\s*=\s*["']?\s*javascript:""", text, re.I), rel
        # every escaped payload is whole: Jinja did not evaluate {{ 7*7 }}, Markdown made no link of it
        assert text.count(ESC_IMG) == text.count(ESC_FULL), rel
        # inert JSON in <script type="application/json">: the payload's </script> did not end it early
        for m in re.finditer(r'<script type="application/json"[^>]*>(.*?)</script>', text, re.S):
            json.loads(m.group(1))
    spec = chart_spec(poisoned_site, "products/bsf/bsf-3-3", "util-bsf-3-3")  # a JSON file of its own: assets/charts/
    assert SERVICE in json.dumps(spec, ensure_ascii=False)  # the chart gets the exact name, as data


def test_markup_in_data_is_plain_data_in_bundle_and_search_index(poisoned_site):
    bundle = (poisoned_site / "assets" / "data" / "calculator-bundle.json").read_text(encoding="utf-8")
    assert SERVICE in json.dumps(json.loads(bundle), ensure_ascii=False)  # exact, for Python to escape when rendering
    index = json.loads((poisoned_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    texts = [d["title"] + " " + d["text"] for d in index["docs"]]
    assert any(ESC_IMG in t for t in texts), "the payload is not searchable as text"
    assert not any("<img src=x" in t for t in texts)  # Material inserts these strings as HTML in its results


@pytest.mark.browser
def test_markup_in_data_runs_nothing_in_the_browser(page, poisoned_site):
    httpd, url = serve(poisoned_site)
    try:
        for path in ("/products/bsf/bsf-3-3/", "/products/bsf/"):
            page.goto(url + path, wait_until="load")
            assert PAYLOAD in page.inner_text("article"), path
            if path.endswith("bsf-3-3/"):
                wait_for_chart(page)
                page.fill("input[data-md-component=search-query]", "Egress Gateway")
                page.wait_for_selector(".md-search-result__item", timeout=20000)
            assert page.locator("img[src=x]").count() == 0, path
            assert page.evaluate("window.__pwned") is None, path
        page.goto(url + "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70", wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-result-seq="1"]', timeout=BOOT_LIMIT_MS)
        assert page.locator("#atlas-calc-result").get_attribute("data-prerendered") == "false"
        assert PAYLOAD in page.inner_text("#atlas-calc-result")
        # what a reader types is shown as text too
        typed = "<img src=x onerror=window.__pwned=3>"
        page.fill("#calc-load", typed)
        page.click("#calc-run")
        page.wait_for_selector("#atlas-calc-message:not([hidden])", timeout=BOOT_LIMIT_MS)
        assert typed in page.inner_text("#atlas-calc-message")
        assert page.locator("#atlas-calc-message *").count() == 0
        assert result_cell(page, "BSF Management Service") == "17"  # the previous result stays
        assert page.locator("img[src=x]").count() == 0
        assert page.evaluate("window.__pwned") is None
        assert page.js_errors == []
    finally:
        httpd.shutdown()
