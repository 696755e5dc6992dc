"""The built site has no broken internal link or anchor, and building twice gives the same bytes."""
from __future__ import annotations

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


def test_build_is_deterministic(tmp_path, built_site):
    """Two builds are byte-identical: a fresh one against the session's (built_site). The only files allowed to
    differ are the sitemap's (sitemap.xml's <lastmod> and sitemap.xml.gz's gzip header hold the build date, so they
    differ only when the builds straddle midnight); without the dates they are identical too. The fresh build reads
    the caches under build/ that the run's earlier builds wrote, the session's and the variant one side by side
    (conftest.HEAVY_FIRST), so a cache written wrongly by two builds at once shows here too. A source edited while
    the tests run also shows here: run again. (This test built two sites side by side: one build more, 20 to 30 s.)"""
    one, two = built_site, tmp_path / "two"
    r = build_site(two)
    assert r.returncode == 0, r.stdout + r.stderr
    first = {p.relative_to(one).as_posix() for p in one.rglob("*") if p.is_file()}
    second = {p.relative_to(two).as_posix() for p in two.rglob("*") if p.is_file()}
    assert len(first) > 100 and first == second, f"only in one build: {sorted(first ^ second)[:20]}"
    differ = sorted(p for p in first if (one / p).read_bytes() != (two / p).read_bytes())
    assert set(differ) <= {"sitemap.xml", "sitemap.xml.gz"}, f"files that differ between two builds: {differ[:20]}"
    assert _no_dates((one / "sitemap.xml").read_bytes()) == _no_dates((two / "sitemap.xml").read_bytes())
    assert _no_dates(gzip.decompress((one / "sitemap.xml.gz").read_bytes())) == \
        _no_dates(gzip.decompress((two / "sitemap.xml.gz").read_bytes()))
