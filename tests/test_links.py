"""The built site has no broken internal link or anchor, and building twice gives the same bytes."""
from __future__ import annotations

import concurrent.futures
import gzip
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

from conftest import build_site

# Absolute links Material itself emits (footer "Made with Material for MkDocs"); nothing else may leave the site.
EXTERNAL_OK = {"https://squidfunk.github.io/mkdocs-material/"}
LINK_ATTRS = {("a", "href"), ("link", "href"), ("area", "href"), ("script", "src"), ("img", "src"),
              ("source", "src"), ("iframe", "src"), ("embed", "src"), ("video", "src"), ("audio", "src"),
              ("form", "action"), ("object", "data")}
IGNORED_SCHEMES = ("data:", "blob:", "mailto:")


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []  # (tag.attr, value)

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if v is None:
                continue
            if k == "id" or (k == "name" and tag == "a"):
                self.ids.add(v)
            if (tag, k) in LINK_ATTRS:
                self.links.append((f"{tag}.{k}", v.strip()))

    handle_startendtag = handle_starttag


def _parse(path: Path) -> _Page:
    p = _Page()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def _url_of(site: Path, f: Path) -> str:
    rel = f.relative_to(site).as_posix()
    return "/" + (rel[: -len("index.html")] if rel.endswith("index.html") else rel)


def _file_for(site: Path, path: str) -> Path | None:
    p = site / unquote(path).lstrip("/")
    if path.endswith("/") or p.is_dir():
        p = p / "index.html"
    return p if p.is_file() else None


def test_no_broken_internal_link_or_anchor(built_site):
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 20
    parsed = {f: _parse(f) for f in pages}
    broken, external = [], set()
    checked = 0
    for f, page in parsed.items():
        here = _url_of(built_site, f)
        for where, raw in page.links:
            if not raw or raw.startswith(IGNORED_SCHEMES):
                continue
            assert not raw.lower().startswith("javascript:"), f"{here}: {where}={raw!r}"
            u = urlparse(raw)
            if u.scheme or u.netloc:
                external.add(raw)
                continue
            target_path = urljoin(here, u.path) if u.path else here
            target = _file_for(built_site, target_path)
            checked += 1
            if target is None:
                broken.append(f"{here}: {where}={raw!r} -> no file {target_path}")
                continue
            frag = unquote(u.fragment)
            if frag and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parse(target).ids
                if frag not in ids:
                    broken.append(f"{here}: {where}={raw!r} -> no id {frag!r} in {_url_of(built_site, target)}")
    assert checked > 1000
    assert broken == [], f"{len(broken)} broken links:\n" + "\n".join(broken[:40])
    assert external <= EXTERNAL_OK, f"unexpected absolute links: {sorted(external - EXTERNAL_OK)}"


def _no_dates(xml: bytes) -> bytes:
    return re.sub(rb"<lastmod>[^<]*</lastmod>", b"", xml)


def test_build_is_deterministic(tmp_path):
    """Two builds are byte-identical. The only files allowed to differ are the sitemap's
    (sitemap.xml's <lastmod> and sitemap.xml.gz's gzip header hold the build date, so they differ only
    when the builds straddle midnight); without the dates they are identical too. Two fresh builds,
    side by side, rather than one against the session's site: a source edited meanwhile is no
    nondeterminism (and two builds at once, sharing the caches under build/, must agree as well)."""
    one, two = tmp_path / "one", tmp_path / "two"
    # side by side, as two builds may run (their shared caches under build/ are written under temporary names)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for r in pool.map(build_site, (one, two)):
            assert r.returncode == 0, r.stdout + r.stderr
    first = {p.relative_to(one).as_posix() for p in one.rglob("*") if p.is_file()}
    second = {p.relative_to(two).as_posix() for p in two.rglob("*") if p.is_file()}
    assert len(first) > 100 and first == second, f"only in one build: {sorted(first ^ second)[:20]}"
    differ = sorted(p for p in first if (one / p).read_bytes() != (two / p).read_bytes())
    assert set(differ) <= {"sitemap.xml", "sitemap.xml.gz"}, f"files that differ between two builds: {differ[:20]}"
    assert _no_dates((one / "sitemap.xml").read_bytes()) == _no_dates((two / "sitemap.xml").read_bytes())
    assert _no_dates(gzip.decompress((one / "sitemap.xml.gz").read_bytes())) == \
        _no_dates(gzip.decompress((two / "sitemap.xml.gz").read_bytes()))
