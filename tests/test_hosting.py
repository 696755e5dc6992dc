"""Hosting anywhere: the default build names no host (no canonical link or sitemap entry pointing
at a development server); a build for https://atlas.example.org/atlas/ (ATLAS_SITE_URL) gives
canonical links and a sitemap there, and a 404 page that loads its assets from /atlas/ at any depth."""
from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from conftest import _Handler, build_site, serve

PUBLIC = "https://atlas.example.org/atlas/"


class _Refs(HTMLParser):
    """href/src of <link>, <script> and <img>, and the canonical link."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refs: list[str] = []
        self.canonical: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("rel") == "canonical":
            self.canonical.append(a.get("href") or "")
        elif tag in ("link", "script", "img") and (a.get("href") or a.get("src")):
            self.refs.append(a.get("href") or a.get("src"))


def _refs(path: Path) -> _Refs:
    p = _Refs()
    p.feed(path.read_text(encoding="utf-8"))
    return p


@pytest.fixture(scope="module")
def subpath_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("atlas") / "site"
    r = build_site(out, env=dict(os.environ, ATLAS_SITE_URL=PUBLIC))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out


def test_default_build_names_no_host(built_site):
    for f in [*built_site.rglob("*.html"), built_site / "sitemap.xml"]:
        text = f.read_text(encoding="utf-8")
        assert "127.0.0.1" not in text and "localhost" not in text, f
        assert 'rel="canonical"' not in text, f


def test_canonical_links_and_sitemap_use_the_public_url(subpath_site):
    pages = sorted(p for p in subpath_site.rglob("index.html"))
    for f in pages:
        rel = f.parent.relative_to(subpath_site).as_posix()
        want = PUBLIC + ("" if rel == "." else rel + "/")
        assert _refs(f).canonical == [want], f
    locs = re.findall(r"<loc>([^<]+)</loc>", (subpath_site / "sitemap.xml").read_text(encoding="utf-8"))
    assert len(locs) == len(pages) > 40
    for loc in locs:
        assert loc.startswith(PUBLIC), loc
        assert (subpath_site / loc[len(PUBLIC):] / "index.html").is_file(), loc


def test_404_page_loads_its_assets_from_the_sub_path(subpath_site):
    """Served for /atlas/no/such/page/ (any depth), every asset the 404 page names is under /atlas/
    and exists in the built site."""
    refs = _refs(subpath_site / "404.html").refs
    assert any(r.endswith(".css") for r in refs) and any(r.endswith(".js") for r in refs)
    for ref in refs:
        u = urlparse(urljoin("https://atlas.example.org/atlas/no/such/page/", ref))
        if u.scheme == "data":
            continue
        assert u.netloc == "atlas.example.org" and u.path.startswith("/atlas/"), ref
        assert (subpath_site / u.path[len("/atlas/"):]).is_file(), ref


def _mounted(prefix: str):
    """Serves the site under ``prefix`` (e.g. /atlas) and answers a missing path with 404.html,
    as the Hosting page's server configurations do."""
    class Mounted(_Handler):
        def translate_path(self, path):
            if not path.startswith(prefix + "/"):
                return "/nonexistent"
            return super().translate_path(path[len(prefix):])

        def send_error(self, code, message=None, explain=None):
            if code != 404:
                return super().send_error(code, message, explain)
            body = (Path(self.directory) / "404.html").read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    return Mounted


@pytest.mark.browser
def test_404_page_renders_under_a_sub_path(page, subpath_site):
    httpd, url = serve(subpath_site, _mounted("/atlas"))
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    try:
        resp = page.goto(url + "/atlas/no/such/page/", wait_until="load")
        assert resp.status == 404
        # Material's stylesheet applied: the header bar is laid out, not an unstyled list
        assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") in ("sticky", "fixed")
        assert page.evaluate("[...document.styleSheets].filter(s => s.href && s.href.includes('/atlas/assets/')).length") >= 2
        assert page.js_errors == []
    finally:
        httpd.shutdown()
    assert failed == [f"404 {url}/atlas/no/such/page/"], failed  # the page itself; none of its assets


def test_hosting_page_gives_each_server_the_full_header_set(built_site):
    """docs/about/hosting.md: nginx, Apache and Caddy each get the CSP of the pages' <meta> (plus
    frame-ancestors, which a <meta> cannot hold), nosniff, a Referrer-Policy, the .wasm and .mjs
    types (Caddy has them built in) and precompressed files."""
    import html as h
    text = h.unescape((built_site / "about" / "hosting" / "index.html").read_text(encoding="utf-8"))
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', text).group(1)
    blocks = dict(re.findall(r'<code class="language-(nginx|apache|caddy)">(.*?)</code>', text, re.S))
    assert sorted(blocks) == ["apache", "caddy", "nginx"]
    for name, conf in blocks.items():
        assert f"Content-Security-Policy \"{meta}; frame-ancestors 'self'\"" in conf, name
        assert 'X-Content-Type-Options "nosniff"' in conf and 'Referrer-Policy "no-referrer"' in conf, name
        assert "404.html" in conf, name
    assert "application/wasm       wasm;" in blocks["nginx"] and "text/javascript        js mjs;" in blocks["nginx"]
    assert "gzip_static on;" in blocks["nginx"]
    assert "AddType application/wasm .wasm" in blocks["apache"] and "AddType text/javascript .js .mjs" in blocks["apache"]
    assert "%{REQUEST_FILENAME}.br -f" in blocks["apache"] and "%{REQUEST_FILENAME}.gz -f" in blocks["apache"]
    assert "precompressed br gzip" in blocks["caddy"]
