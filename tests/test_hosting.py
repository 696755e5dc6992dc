"""Hosting anywhere: the default build names no host (no canonical link or sitemap entry pointing
at a development server); a build for https://atlas.example.org/atlas/ (ATLAS_SITE_URL) gives
canonical links and a sitemap there, and a 404 page that loads its assets from /atlas/ at any depth."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from conftest import PUBLIC_URL, _Handler, serve

PUBLIC = PUBLIC_URL


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
def subpath_site(variant_site) -> Path:
    """The variant build (conftest.variant_site), built for PUBLIC (ATLAS_SITE_URL)."""
    return variant_site


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
    assert "gzip_static on;" in blocks["nginx"] and "gzip_vary on;" in blocks["nginx"]
    assert "AddType application/wasm .wasm" in blocks["apache"] and "AddType text/javascript .js .mjs" in blocks["apache"]
    assert "%{REQUEST_FILENAME}.br -f" in blocks["apache"] and "%{REQUEST_FILENAME}.gz -f" in blocks["apache"]
    assert "precompressed br gzip" in blocks["caddy"]


def test_hosting_page_caches_hashed_files_for_good_and_revalidates_the_rest(built_site):
    """Each server configuration sends Cache-Control: the year-long immutable one for addresses with ?v=
    and for files named by their content hash, no-cache for everything else (the pages name the
    versions). Its pattern for hashed names matches exactly the built site's content-hashed files:
    the code packs and data bundles the manifest names, and Material's bundle and stylesheets."""
    import html as h
    import json
    text = h.unescape((built_site / "about" / "hosting" / "index.html").read_text(encoding="utf-8"))
    blocks = dict(re.findall(r'<code class="language-(nginx|apache|caddy)">(.*?)</code>', text, re.S))
    forever = '"public, max-age=31536000, immutable"'
    patterns = {"nginx": r'if \(\$uri ~ "([^"]+)"\)', "apache": r"%\{REQUEST_URI\} =~ m#([^#]+)#", "caddy": r"path_regexp (\S+)"}
    versioned = {"nginx": "if ($arg_v) {", "apache": '%{QUERY_STRING} =~ /(^|&)v=/', "caddy": "@versioned query v=*"}
    manifest = json.loads((built_site / "assets" / "py" / "manifest.json").read_text(encoding="utf-8"))
    hashed = {f"assets/py/{p['pack']}" for p in manifest["packs"].values()} | {f"assets/py/{manifest['report']['pack']}"}
    hashed.add(f"assets/py/{manifest['snapshot']['file']}")
    hashed |= {f"assets/data/{b[ext]}" for b in manifest["bundles"].values() for ext in ("marshal", "json") if ext in b}
    # Material's: bundle.<hash>.min.js, workers/search.<hash>.min.js, and its stylesheets as the build trimmed them,
    # main.<hash>.<hash of the trimmed text>.min.css and palette.<hash>.<hash>.min.css (atlas/trimcss.py)
    # (not lunr's language files, min/lunr.de.min.js and the like, which keep their names)
    hashed |= {f.relative_to(built_site).as_posix() for d in ("javascripts", "stylesheets")
               for f in (built_site / "assets" / d).rglob("*") if re.search(r"\.[0-9a-f]{8,12}\.min\.(js|css)$", f.name)}
    # 6 packs, the report pack, the snapshot, 10 bundles, 4 Material (the query page's database, benchmark-atlas.<hash>.sqlite,
    # is revalidated: the configurations' pattern names no .sqlite)
    assert len(hashed) == 22 and any("bundle." in f for f in hashed)
    files = [f.relative_to(built_site).as_posix() for f in built_site.rglob("*") if f.is_file()]
    for name, conf in blocks.items():
        assert forever in conf and '"no-cache"' in conf, name
        assert versioned[name] in conf, name
        rx = re.compile(re.search(patterns[name], conf).group(1))
        assert {f for f in files if rx.search("/" + f) and not f.endswith((".gz", ".br"))} == hashed, name
        if name == "apache":  # also the precompressed files the rewrite serves in their place
            assert {f for f in files if rx.search("/" + f) and f.endswith((".gz", ".br"))} == {
                f + ext for f in hashed for ext in (".gz", ".br") if f + ext in files}
            assert sorted(hashed)[0] + ".br" in files
    assert "add_header Cache-Control $atlas_cache always;" in blocks["nginx"]
    assert 'header ?Cache-Control "no-cache"' in blocks["caddy"]
