"""Build step "collapse whitespace" (atlas/whitespace.py): the pages as served hold the elements, attributes and text
MkDocs rendered, only with each run of white space outside pre, code, textarea, script and style as one character."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from atlas.whitespace import collapse

KEPT = {"pre", "code", "textarea", "script", "style"}


class Events(HTMLParser):
    """A page as the sequence of its tags (with attributes) and texts; a text outside KEPT elements with each run
    of white space as one space (as a browser shows it), inside them exactly as written."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.out: list[tuple] = []
        self.kept = 0

    def handle_starttag(self, tag, attrs):
        self.out.append(("start", tag, tuple(attrs)))
        self.kept += tag in KEPT

    def handle_startendtag(self, tag, attrs):
        self.out.append(("start", tag, tuple(attrs)))

    def handle_endtag(self, tag):
        self.out.append(("end", tag))
        if tag in KEPT and self.kept:
            self.kept -= 1

    def handle_data(self, data):
        text = data if self.kept else re.sub(r"[ \t\n\r\f]+", " ", data)
        if self.out and self.out[-1][0] == "text":
            self.out[-1] = ("text", self.out[-1][1] + text)
        else:
            self.out.append(("text", text))

    def handle_entityref(self, name):
        self.handle_data(f"&{name};")

    def handle_charref(self, name):
        self.handle_data(f"&#{name};")

    def handle_comment(self, data):
        self.out.append(("comment", re.sub(r"\s+", " ", data)))

    def handle_decl(self, decl):
        self.out.append(("decl", decl))


def events(html: str) -> list[tuple]:
    p = Events()
    p.feed(html)
    p.close()
    # a text of only white space between two tags shows as at most one space either way
    return [e if e[0] != "text" else ("text", re.sub(r"^ +$", " ", e[1])) for e in p.out]


TRICKY = ["<p>a  b\n\n  c</p>", "<pre>  a\n\n  b</pre>\n\n  <p>x</p>", "<code>a  |  b\n  c</code>", '<a title="x  \n  y">t</a>',
          "<script>var a = '  ';\n\n</script>", "<style>a  {  }</style>", "<textarea>  a\n\n</textarea>",
          "<ul>\n  \n  <li>a</li>\n  \n</ul>", "<p>a</p>\t\t<p>b</p>", "<span>a</span>  <span>b</span>"]


@pytest.mark.parametrize("html", TRICKY)
def test_collapse_keeps_what_a_browser_shows(html):
    out = collapse(html)
    assert events(out) == events(html)
    assert not re.search(r"[ \t\n\r\f]{2,}", re.sub(r"<(pre|code|textarea|script|style)\b.*?</\1>|<[^>]*>", "", out, flags=re.S))


def test_collapse_by_hand():
    assert collapse("<p>a  b\n   c</p>\n\n<p>d</p>") == "<p>a b\nc</p>\n<p>d</p>"
    assert collapse("<pre>  a\n\n</pre>  <code> x  y </code>") == "<pre>  a\n\n</pre> <code> x  y </code>"
    assert collapse('<a title="x   y">  t  </a>') == '<a title="x   y"> t </a>'


PAGES = ["index.html", "products/bsf/index.html", "products/bsf/bsf-3-3/index.html", "products/policy/policy-3-1-5/index.html",
         "services/ingress-gateway/index.html", "calculators/footprint/index.html", "data/errata/index.html",
         "data/coverage/index.html", "calculators/accuracy/index.html", "about/hosting/index.html", "tools/compare/index.html"]


def test_rendered_pages_keep_what_a_browser_shows_and_served_pages_are_collapsed(built_site, tmp_path):
    """Pages as MkDocs renders them (the built site's docs tree rendered again, with the build's settings): collapsed,
    the same tags, attributes and shown text, and the indentation gone. The pages as served are collapsed already
    (collapsing them again changes nothing)."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    from atlas.pipeline import CONFIG, mkdocs_extra
    docs = built_site.with_name(f".{built_site.name}.docs")
    cfg = load_config(str(CONFIG), docs_dir=str(docs), site_dir=str(tmp_path / "rendered"), strict=True)
    cfg["extra"] = mkdocs_extra(docs, dict(cfg["extra"]))
    mkdocs_build(cfg)
    indented = re.compile(r"\n    <")
    for rel in PAGES:
        rendered = (tmp_path / "rendered" / rel).read_text(encoding="utf-8")
        out = collapse(rendered)
        assert indented.search(rendered) and len(rendered) - len(out) > 5000, rel  # every page: 8 to 15 KB of indentation
        assert events(out) == events(rendered), rel
        assert not indented.search(re.sub(r"<(pre|code|textarea|script|style)\b.*?</\1>", "", out, flags=re.S)), rel
        served = (built_site / rel).read_text(encoding="utf-8")
        assert collapse(served) == served, rel
