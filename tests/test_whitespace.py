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
        self.kept -= tag in KEPT and self.kept > 0

    def handle_data(self, data):
        text = data if self.kept else re.sub(r"[ \t\n\r\f]+", " ", data)
        if self.out and self.out[-1][0] == "text":
            self.out[-1] = ("text", self.out[-1][1] + text)
        else:
            self.out.append(("text", text))

    for name in ("entityref", "charref"):
        exec(f"def handle_{name}(self, x):\n    self.handle_data('&{'#' if name == 'charref' else ''}' + x + ';')")

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


def test_served_pages_are_the_rendered_pages_without_their_indentation(built_site):
    """Each page as served against the same page collapsed again (the step is idempotent) and against its own events
    with the text normalised: the same tags, attributes and texts; and the indentation gone."""
    for rel in PAGES:
        html = (built_site / rel).read_text(encoding="utf-8")
        assert collapse(html) == html, rel
        assert "\n    <" not in re.sub(r"<(pre|code|textarea|script|style)\b.*?</\1>", "", html, flags=re.S), rel
