"""Hosting anywhere: the default build names no host (no canonical link or sitemap entry pointing
at a development server); a build for https://atlas.example.org/atlas/ (ATLAS_SITE_URL) gives
canonical links and a sitemap there, and a 404 page that loads its assets from /atlas/ at any depth.
The Hosting page's nginx, Apache and Caddy configurations, as printed (for the sub-path /atlas/) and in the
root form the page describes, pass each server's own check, and run by the real servers they serve the site
with every file's type and headers, and a calculator that computes."""
from __future__ import annotations

import http.client
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest

from conftest import BOOT_LIMIT_MS, PUBLIC_URL, _Handler, result_cell, serve
from test_precompress import (PREFIX, SERVERS, _conf, _port, check_cmd, need, readable_copy, root_form, server_cmd,
                              start)

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
    assert "application/wasm          wasm;" in blocks["nginx"] and "text/javascript           js mjs;" in blocks["nginx"]
    assert "application/octet-stream  pack marshal;" in blocks["nginx"] and "default_type application/octet-stream;" in blocks["nginx"]
    assert "gzip_static on;" in blocks["nginx"] and "gzip_vary on;" in blocks["nginx"]
    assert "AddType application/wasm .wasm" in blocks["apache"] and "AddType text/javascript .js .mjs" in blocks["apache"]
    assert "AddType application/octet-stream .pack .marshal" in blocks["apache"]
    assert "%{REQUEST_FILENAME}.br -f" in blocks["apache"] and "%{REQUEST_FILENAME}.gz -f" in blocks["apache"]
    assert "precompressed br gzip" in blocks["caddy"] and "header @binary Content-Type application/octet-stream" in blocks["caddy"]


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
    versioned = {"nginx": "if ($arg_v) {", "apache": '%{QUERY_STRING} =~ /(^|&)v=/', "caddy": "query v=*"}
    manifest = json.loads((built_site / "assets" / "py" / "manifest.json").read_text(encoding="utf-8"))
    hashed = {f"assets/py/{p['pack']}" for p in manifest["packs"].values()} | {f"assets/py/{manifest['report']['pack']}"}
    hashed.add(f"assets/py/{manifest['snapshot']['file']}")
    hashed |= {f"assets/data/{b[ext]}" for b in manifest["bundles"].values() for ext in ("marshal", "json") if ext in b}
    # Material's: bundle.<hash>.min.js, workers/search.<hash>.min.js, and its stylesheets as the build trimmed them,
    # main.<hash>.<hash of the trimmed text>.min.css and palette.<hash>.<hash>.min.css (atlas/trimcss.py)
    # (not lunr's language files, min/lunr.de.min.js and the like, which keep their names)
    hashed |= {f.relative_to(built_site).as_posix() for d in ("javascripts", "stylesheets")
               for f in (built_site / "assets" / d).rglob("*") if re.search(r"\.[0-9a-f]{8,12}\.min\.(js|css)$", f.name)}
    # 7 packs, the report pack, the snapshot, 12 bundles (6 calculators: .marshal and .json), 4 Material (the query page's database, benchmark-atlas.<hash>.sqlite,
    # is revalidated: the configurations' pattern names no .sqlite)
    assert len(hashed) == 25 and any("bundle." in f for f in hashed)
    files = [f.relative_to(built_site).as_posix() for f in built_site.rglob("*") if f.is_file()]
    for name, conf in blocks.items():
        assert forever in conf and '"no-cache"' in conf, name
        assert versioned[name] in conf, name
        rx = re.compile(re.search(patterns[name], conf).group(1))
        # the addresses as served under the sub-path the configurations are written for
        assert {f for f in files if rx.search(f"{PREFIX}/{f}") and not f.endswith((".gz", ".br"))} == hashed, name
        if name == "apache":  # also the precompressed files the rewrite serves in their place
            assert {f for f in files if rx.search(f"{PREFIX}/{f}") and f.endswith((".gz", ".br"))} == {
                f + ext for f in hashed for ext in (".gz", ".br") if f + ext in files}
            assert sorted(hashed)[0] + ".br" in files
    assert "add_header Cache-Control $atlas_cache always;" in blocks["nginx"]
    assert '?Cache-Control "no-cache"' in blocks["caddy"]


# ---- the configurations on the real servers, under the sub-path and at the root ------------------------------

FORMS = {"sub-path": lambda conf: conf, "root": root_form}
"""The configurations as printed (for /atlas/), and as the page says to write them for the root of a host."""
OK = {"nginx": "test is successful", "apache": "Syntax OK", "caddy": "Valid configuration"}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("server", SERVERS)
def test_each_configuration_passes_its_servers_own_check(built_site, server, form, tmp_path):
    """nginx -t, apache2 -t and caddy validate accept each configuration, as printed and in its root form (Caddy 2.6
    refused the page's earlier one when written for a sub-path as its comment said: "directive 'handle_errors' is not
    an ordered HTTP handler")."""
    need(server)
    site = tmp_path / "site"
    site.mkdir()
    conf = FORMS[form](_conf(built_site, server))
    r = subprocess.run(check_cmd(server, site, conf, _port()), capture_output=True, text=True, timeout=60)
    out = r.stdout + r.stderr
    assert r.returncode == 0 and OK[server] in out and "[emerg]" not in out, out[-3000:]


def _get(port: int, path: str, accept: str | None = None) -> tuple[http.client.HTTPResponse, bytes]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    c.request("GET", path, headers={"Accept-Encoding": accept} if accept else {})
    r = c.getresponse()
    body = r.read()
    c.close()
    return r, body


FOREVER = "public, max-age=31536000, immutable"


def _expected(site: Path) -> list[tuple[str, str, str]]:
    """(path in the site, Content-Type, Cache-Control) of a calculator page and what it loads, the downloads and the
    home page: the types the Hosting page gives each (text/javascript, application/wasm, application/octet-stream for
    code packs, data bundles and the snapshot, application/vnd.sqlite3, text/csv)."""
    m = json.loads((site / "assets" / "py" / "manifest.json").read_text(encoding="utf-8"))
    css = next((site / "assets" / "stylesheets").glob("main.*.min.css")).relative_to(site).as_posix()
    return [
        ("", "text/html", "no-cache"),
        ("calculators/footprint/", "text/html", "no-cache"),
        ("assets/py/manifest.json?v=1", "application/json", FOREVER),
        (f"assets/py/{m['packs']['footprint']['pack']}", "application/octet-stream", FOREVER),
        (f"assets/py/{m['report']['pack']}", "application/octet-stream", FOREVER),
        (f"assets/py/{m['snapshot']['file']}", "application/octet-stream", FOREVER),
        (f"assets/data/{m['bundles']['footprint']['marshal']}", "application/octet-stream", FOREVER),
        (f"assets/data/{m['bundles']['footprint']['json']}", "application/json", FOREVER),
        ("assets/js/pyworker.mjs?v=1", "text/javascript", FOREVER),
        ("assets/js/calculator.js", "text/javascript", "no-cache"),
        ("assets/vendor/pyodide/pyodide.asm.wasm", "application/wasm", "no-cache"),
        ("assets/vendor/pyodide/pyodide.asm.mjs", "text/javascript", "no-cache"),
        ("assets/vendor/pyodide/python_stdlib.zip", "application/zip", "no-cache"),
        (css, "text/css", FOREVER),
        ("search/search_index.json", "application/json", "no-cache"),
        ("downloads/benchmark-atlas.sqlite", "application/vnd.sqlite3", "no-cache"),
        ("downloads/csv/resources.csv", "text/csv", "no-cache"),
        ("downloads/benchmark-atlas.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "no-cache"),
        ("assets/images/favicon.png", "image/png", "no-cache"),
    ]


@pytest.fixture(scope="module")
def readable_sites(built_site, subpath_site):
    """The two builds readable by the servers' workers: the sub-path one (ATLAS_SITE_URL .../atlas/) for the printed
    configurations, the default one for their root form."""
    sites = {"sub-path": readable_copy(subpath_site), "root": readable_copy(built_site)}
    yield sites
    for s in sites.values():
        shutil.rmtree(s.parent, ignore_errors=True)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("server", SERVERS)
def test_each_server_serves_every_file_with_its_type(built_site, readable_sites, server, form, tmp_path):
    """Run with the configuration (printed, under /atlas/; or its root form, at /), each server sends a calculator page,
    its code pack, report pack, memory snapshot and data bundles, Pyodide's files, the downloads and the home page
    with their types (never text/plain or none), the security headers and their Cache-Control, compressed or not;
    the 404 page for a missing address; and, under the sub-path, /atlas on to /atlas/."""
    need(server)
    site, prefix = readable_sites[form], (PREFIX if form == "sub-path" else "")
    port = _port()
    proc = start(server_cmd(server, site, FORMS[form](_conf(built_site, server)), port), port, tmp_path / "server.log")
    try:
        for path, ctype, cache in _expected(site):
            for accept in ("br, gzip", None):
                r, body = _get(port, f"{prefix}/{path}", accept)
                what = f"{server} {form} /{path} Accept-Encoding: {accept}"
                assert r.status == 200, what
                assert r.getheader("Content-Type", "").split(";")[0].strip() == ctype, (what, r.getheader("Content-Type"))
                assert r.getheader("Cache-Control") == cache, (what, r.getheader("Cache-Control"))
                assert r.getheader("X-Content-Type-Options") == "nosniff", what
                assert r.getheader("Referrer-Policy") == "no-referrer", what
                assert "frame-ancestors 'self'" in (r.getheader("Content-Security-Policy") or ""), what
                if accept is None:
                    f = site / path.split("?")[0]
                    assert body == (f / "index.html" if not path or path.endswith("/") else f).read_bytes(), what
        r, body = _get(port, f"{prefix}/no/such/page/")
        assert r.status == 404 and r.getheader("Content-Type", "").startswith("text/html"), (server, form, r.status)
        assert body == (site / "404.html").read_bytes(), (server, form)
        assert r.getheader("Cache-Control") == "no-cache" and r.getheader("X-Content-Type-Options") == "nosniff", (server, form)
        if form == "sub-path":
            r, _ = _get(port, PREFIX)
            assert r.status in (301, 302, 307, 308) and urlparse(r.getheader("Location")).path == PREFIX + "/", (server, r.status)
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.browser
@pytest.mark.parametrize("server", SERVERS)
def test_a_calculator_computes_under_each_servers_sub_path(page, built_site, readable_sites, server, tmp_path):
    """The footprint calculator, opened under /atlas/ from the server run with the printed configuration, boots and
    computes: BSF 3.3 at 126K TPS and 70 %: 17 BSF Management Service replicas (memory binds: test_boot_failures,
    test_footprint_rules, Tables 3-25 and 3-28). Every file it asked for came with status 200, its code and data packs
    as application/octet-stream."""
    need(server)
    site = readable_sites["sub-path"]
    port = _port()
    proc = start(server_cmd(server, site, _conf(built_site, server), port), port, tmp_path / "server.log")
    seen: list[tuple[int, str, str]] = []
    page.on("response", lambda r: seen.append((r.status, r.url, r.headers.get("content-type", ""))))
    try:
        page.goto(f"http://127.0.0.1:{port}{PREFIX}/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70",
                  wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-result-seq="1"]', state="attached", timeout=BOOT_LIMIT_MS)
        assert result_cell(page, "BSF Management Service") == "17"
        assert page.get_attribute("#atlas-calculator", "data-state") == "ready"
        assert page.js_errors == []
    finally:
        proc.terminate()
        proc.wait(10)
    assert [s for s in seen if s[0] >= 400] == []
    packs = [s for s in seen if re.search(r"\.(pack|marshal)(\?|$)", s[1])]
    assert packs and all(t.split(";")[0] == "application/octet-stream" for _, _, t in packs), packs
