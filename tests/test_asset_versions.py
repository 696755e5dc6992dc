"""Content versions: the code packs and data bundles carry their content hash in
their names, which the manifest gives; every page names the site's own scripts and stylesheets, the
worker and the manifest with their content hash (``?v=``). So a site replaced by a new build never
mixes a cached old manifest, worker or script with the new files."""
from __future__ import annotations

import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlparse

import pytest

from atlas import assets, codepack
from conftest import ROOT, _Handler, result_cell, serve, site_manifest

HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{12})\.(?P<ext>pack|marshal|json|sqlite)$")
MATERIAL = ("assets/javascripts/", "assets/stylesheets/", "assets/images/")
"""Material's own files: its bundle and stylesheets carry its own hash in their names, the favicon none."""


def _hash(path: Path) -> str:
    return assets.content_hash(path.read_bytes())


# --- code packs and data bundles -----------------------------------------------------------------

def test_every_pack_and_bundle_the_manifest_names_exists_under_its_content_hash(built_site):
    from calculators import catalogue
    manifest = site_manifest(built_site)
    py, data = built_site / "assets" / "py", built_site / "assets" / "data"
    assert set(manifest["packs"]) == set(manifest["bundles"]) == set(catalogue.CATALOGUE)
    named = set()
    for calc in catalogue.CATALOGUE:
        files = [(py, manifest["packs"][calc]["pack"], f"code.{calc}", "pack")]
        if calc in catalogue.FILE_BUNDLES:  # the query page's data: the datasets page's database, the same bytes
            assert manifest["bundles"][calc] == {"file": manifest["bundles"][calc]["file"]}
            files.append((data, manifest["bundles"][calc]["file"], "benchmark-atlas", "sqlite"))
            assert (data / manifest["bundles"][calc]["file"]).read_bytes() == (built_site / "downloads" / "benchmark-atlas.sqlite").read_bytes()
        else:
            files += [(data, manifest["bundles"][calc][ext], f"calculator-bundle.{calc}", ext) for ext in ("marshal", "json")]
        for folder, name, stem, ext in files:
            m = HASHED.match(name)
            assert m and m["stem"] == stem and m["ext"] == ext, name
            assert (folder / name).is_file(), name
            assert m["hash"] == _hash(folder / name), f"{name}: the name's hash is not its content's"
            named.add(name)
        # the pack is the one the manifest indexes: every entry lies inside it
        codepack.unpack(manifest["packs"][calc]["files"], (py / manifest["packs"][calc]["pack"]).read_bytes())
    # the report pack (fetched on the first XLSX of a result computed in the browser) likewise
    report = manifest["report"]["pack"]
    m = HASHED.match(report)
    assert m and m["stem"] == "code.report" and m["ext"] == "pack" and m["hash"] == _hash(py / report), report
    codepack.unpack(manifest["report"]["files"], (py / report).read_bytes())
    named.add(report)
    # and the memory snapshot of every calculator (tests/test_snapshot.py)
    snap = manifest["snapshot"]["file"]
    m = HASHED.match(snap)
    assert m and m["stem"] == "snapshot" and m["ext"] == "pack" and m["hash"] == _hash(py / snap), snap
    named.add(snap)
    # no pack or bundle the manifest does not name (an older build's, or an unhashed one); the .gz and .br
    # beside them are the build's precompressed copies (tests/test_precompress.py)
    shipped = {f.name for f in py.glob("*.pack")} | {f.name for f in [*data.glob("calculator-bundle.*.*"), *data.glob("benchmark-atlas.*.*")]
                                                      if f.suffix not in (".gz", ".br")}
    assert shipped == named


def test_hashed_name_puts_the_content_hash_before_the_extension():
    assert assets.hashed_name("code.footprint.pack", b"abc") == "code.footprint.ba7816bf8f01.pack"
    assert assets.hashed_name("calculator-bundle.dsr.json", b"abc") == "calculator-bundle.dsr.ba7816bf8f01.json"
    with pytest.raises(ValueError):
        assets.hashed_name("noextension", b"abc")


def test_a_changed_calculator_source_changes_the_names_of_the_packs_holding_it(built_site, bundle, tmp_path):
    """The build's packs (from calculators/ as it is) against packs built from a copy with one comment
    added to footprint.py: exactly the packs that hold footprint.py get new names; the others, and the
    data bundles, keep theirs."""
    src = tmp_path / "calculators"
    shutil.copytree(ROOT / "calculators", src, ignore=shutil.ignore_patterns("__pycache__"))
    with (src / "footprint.py").open("a", encoding="utf-8") as f:
        f.write("\n# a comment changes the source, so the pack's bytes and name\n")
    assets.calculators_and_bundles(bundle, tmp_path / "docs", sources=src,
                                   data_files={"query": ("benchmark-atlas.sqlite", (built_site / "downloads" / "benchmark-atlas.sqlite").read_bytes())})
    before, after = site_manifest(built_site), site_manifest(tmp_path / "docs")
    holding = {calc for calc, entry in before["packs"].items() if any(f == "calculators/footprint.py" for f, _, _ in entry["files"])}
    assert "footprint" in holding and "dsr" not in holding
    for calc in before["packs"]:
        old, new = before["packs"][calc]["pack"], after["packs"][calc]["pack"]
        assert (old != new) == (calc in holding), (calc, old, new)
        assert (tmp_path / "docs" / "assets" / "py" / new).is_file()
    assert after["bundles"] == before["bundles"]


# --- the site's own scripts and stylesheets --------------------------------------------------------

class _AssetRefs(HTMLParser):
    """(tag, attribute, value) of every src/href of <script> and <link>, and pyboot.js's data-worker
    and data-manifest."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for attr in ("src", "href", "data-worker", "data-manifest"):
            if tag in ("script", "link") and a.get(attr) is not None:
                self.refs.append((tag, attr, a[attr]))


def _page_url(site: Path, f: Path) -> str:
    rel = f.relative_to(site).as_posix()
    return "http://site/" + (rel[:-len("index.html")] if rel.endswith("index.html") else rel)


def test_pages_name_the_sites_own_files_with_versions_matching_their_contents(built_site):
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 40
    seen: set[str] = set()
    manifests = 0
    for f in pages:
        p = _AssetRefs()
        p.feed(f.read_text(encoding="utf-8"))
        here = "http://site/" if f.name == "404.html" else _page_url(built_site, f)  # the 404 page's URLs are absolute
        for tag, attr, value in p.refs:
            if attr == "data-manifest":
                assert value == _hash(built_site / "assets" / "py" / "manifest.json"), (f, value)
                manifests += 1
                continue
            u = urlparse(urljoin(here, value))
            if u.netloc != "site" or not u.path.startswith("/assets/"):
                continue
            rel = u.path[1:]
            if rel.startswith(MATERIAL):
                assert not u.query, (f, value)
                continue
            version = parse_qs(u.query).get("v")
            assert version, f"{f.relative_to(built_site)}: {value} has no content version"
            assert version == [_hash(built_site / rel)], f"{f.relative_to(built_site)}: {value} is not {rel}'s content"
            seen.add(rel)
    # every script and stylesheet of docs/assets is loaded by some page with its version; the worker too
    own = {f"assets/{p.relative_to(ROOT / 'docs' / 'assets').as_posix()}" for p in (ROOT / "docs" / "assets").rglob("*")
           if p.suffix in (".js", ".mjs", ".css")}
    assert own <= seen, sorted(own - seen)
    # Vega's scripts are not among them: charts.js loads them when a chart is first used (their npm version is their
    # version); the static charts' dark palette is a stylesheet the build writes (atlas.charts)
    assert {"assets/vendor/tablesort/tablesort.min.js", "assets/vendor/vega/vega-embed.css", "assets/css/charts.css"} <= seen
    from calculators import catalogue
    assert manifests == len(catalogue.CATALOGUE)  # one per calculator page


def test_asset_versions_follow_the_file_and_refuse_a_missing_one(tmp_path):
    (tmp_path / "assets" / "js").mkdir(parents=True)
    f = tmp_path / "assets" / "js" / "a.js"
    f.write_text("one", encoding="utf-8")
    v = assets.AssetVersions(tmp_path)
    first = v["assets/js/a.js"]
    assert first == assets.content_hash(b"one") and "assets/js/a.js" in v
    f.write_text("two!", encoding="utf-8")
    assert v["assets/js/a.js"] == assets.content_hash(b"two!") != first  # mkdocs serve: a rewritten file, a new version
    # not a LookupError: Jinja would render that as an empty version instead of stopping the build
    for bad in ("assets/js/missing.js", "../secret", "/etc/passwd", ""):
        with pytest.raises(ValueError, match="not a file of the docs tree"):
            v[bad]
        assert bad not in v


def test_a_template_naming_a_missing_file_stops_the_build_naming_it(tmp_path):
    """The template's asset() of a file the docs tree lacks fails the render step, not a page with '?v='."""
    from atlas import pipeline
    docs = tmp_path / "docs"
    (docs / "assets" / "js").mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (docs / "SUMMARY.md").write_text("* [Home](index.md)\n", encoding="utf-8")
    with pytest.raises(pipeline.StepFailed, match=r"render \(MkDocs\).*'assets/[a-z]+/[a-z-]+\.(js|css)'.*not a file of the docs tree"):
        pipeline.render(docs, tmp_path / "site")
    assert not (tmp_path / "site").exists()


# --- in the browser: a site replaced under a browser that caches everything it may -----------------

class _Caching(_Handler):
    """Serves the site in ``root`` (a class attribute, so a test can replace the site being served): HTML
    revalidated on every request, every other file cacheable for a year, as a server that follows only
    half of the Hosting page's advice would. Records each request as (method, path with query, status)."""
    root: Path
    log: list[tuple[str, str, int]] = []

    def translate_path(self, path):
        self.directory = str(self.root)
        return super().translate_path(path)

    def end_headers(self):
        html = self.path.split("?")[0].endswith(("/", ".html"))
        self.send_header("Cache-Control", "no-cache" if html else "public, max-age=31536000")
        super().end_headers()

    def send_response(self, code, message=None):
        self.log.append((self.command, self.path, code))
        super().send_response(code, message)


@pytest.fixture
def caching_page(browser):
    """A fresh page whose browser cache works: Playwright's request interception (the ``page`` fixture's
    blocker) turns the cache off, so requests are watched instead; asserts afterwards that none left
    127.0.0.1."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    elsewhere: list[str] = []
    ctx.on("request", lambda r: r.url.startswith(("data:", "blob:")) or urlparse(r.url).hostname == "127.0.0.1"
           or elsewhere.append(r.url))
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.js_errors = errors
    yield pg
    ctx.close()
    assert elsewhere == [], f"requests outside 127.0.0.1: {elsewhere}"


def _upgrade(site: Path, out: Path) -> tuple[str, str]:
    """A copy of ``site`` (symlinks, but for the files changed) as a new build of it would be: the
    footprint calculator's code pack with one more file (so new bytes, a new name; the old pack gone),
    the manifest naming it (with its size and SHA-256), calculator.js changed, and the footprint page naming both new versions.
    Returns (new pack name, new calculator.js version)."""
    shutil.copytree(site, out, copy_function=os.symlink)
    py = out / "assets" / "py"
    manifest = json.loads((py / "manifest.json").read_text(encoding="utf-8"))
    entry = manifest["packs"]["footprint"]
    files = codepack.unpack(entry["files"], (py / entry["pack"]).read_bytes())
    files["calculators/upgraded.py"] = b"# shipped by the new build\n"
    entry["files"], blob = codepack.pack(list(files.items()))
    (py / entry["pack"]).unlink()
    del manifest["digests"][f"assets/py/{entry['pack']}"]
    entry["pack"] = assets.hashed_name("code.footprint.pack", blob)
    manifest["digests"][f"assets/py/{entry['pack']}"] = assets.file_digest(blob)  # the worker checks the new pack by it
    (py / entry["pack"]).write_bytes(blob)
    # no memory snapshot in the new build's manifest: the page must then take its code from the new pack, which it
    # can only know of from the new manifest (the old one, if cached, would boot it from the old snapshot)
    manifest.pop("snapshot", None)
    (py / "manifest.json").unlink()
    (py / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    js = out / "assets" / "js" / "calculator.js"
    text = js.read_text(encoding="utf-8") + "\n/* the new build's calculator.js */\n"
    js.unlink()
    js.write_text(text, encoding="utf-8")
    page = out / "calculators" / "footprint" / "index.html"
    html = page.read_text(encoding="utf-8")
    html = re.sub(r'data-manifest="[0-9a-f]+"', f'data-manifest="{_hash(py / "manifest.json")}"', html)
    html = re.sub(r"calculator\.js\?v=[0-9a-f]+", f"calculator.js?v={_hash(js)}", html)
    page.unlink()
    page.write_text(html, encoding="utf-8")
    return entry["pack"], _hash(js)


@pytest.mark.browser
def test_a_replaced_site_never_mixes_the_cached_old_manifest_with_its_new_packs(caching_page, built_site, tmp_path):
    """The footprint page computes its first result; the site is replaced by a new build (a new code pack,
    the old one deleted; a new manifest; a changed calculator.js) while the browser keeps everything it
    was allowed to cache; opened again, the page computes with the new build's manifest, pack and
    script, and nothing it asks for is missing."""
    page = caching_page
    new_pack, new_js = _upgrade(built_site, tmp_path / "v2")
    manifest = _hash(built_site / "assets" / "py" / "manifest.json")
    _Caching.root, _Caching.log = built_site, []
    httpd, url = serve(built_site, _Caching)
    calc = url + "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70"
    try:
        page.goto(calc, wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-result-seq="1"]', state="attached", timeout=90000)
        assert result_cell(page, "BSF Management Service") == "17"
        first = [(p, s) for m, p, s in _Caching.log if m == "GET"]
        worker = [p for p, _ in first if "/pyworker.mjs" in p]
        assert len(worker) == 1 and parse_qs(urlparse(worker[0]).query) == {
            "v": [_hash(built_site / "assets" / "js" / "pyworker.mjs")], "manifest": [manifest]}, worker
        assert ("/assets/py/manifest.json?v=" + manifest, 200) in first
        assert ("/assets/py/" + site_manifest(built_site)["snapshot"]["file"], 200) in first  # booted from the snapshot
        assert page.get_attribute("#atlas-calculator", "data-boot-from") == "snapshot"

        _Caching.root, _Caching.log = tmp_path / "v2", []
        page.goto(calc, wait_until="load")
        page.wait_for_selector('#atlas-calculator[data-result-seq="1"]', state="attached", timeout=90000)
        assert result_cell(page, "BSF Management Service") == "17"
        second = [(p, s) for m, p, s in _Caching.log if m == "GET"]
        assert [r for r in second if r[1] >= 400] == [], second
        assert ("/assets/py/manifest.json?v=" + _hash(tmp_path / "v2" / "assets" / "py" / "manifest.json"), 200) in second
        assert ("/assets/py/" + new_pack, 200) in second
        assert page.get_attribute("#atlas-calculator", "data-boot-from") == "files"
        assert ("/assets/js/calculator.js?v=" + new_js, 200) in second
        # the browser did cache: an unchanged script came from its cache, not the server
        assert not any(p.startswith("/assets/js/tables.js") for p, _ in second), second
        assert page.js_errors == []
    finally:
        httpd.shutdown()
