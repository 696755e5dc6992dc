"""atlas.mdraw (mkdocs.yml): raw HTML blocks stored without Python-Markdown parsing them, for the same output.
Every page of the built site's docs tree is rendered with the site's Markdown settings with and without it; tricky
blocks are rendered both ways; and the blocks it does take are most of a scenario page (else it would not be worth
having)."""
from __future__ import annotations

import markdown
import pytest
from mkdocs.config import load_config
from mkdocs.utils.meta import get_data

from atlas.mdraw import RawBlocks, elements
from conftest import ROOT

TRICKY = [
    "<div>a</div><ol><li>x</li></ol>\n\n<p>b</p>",         # two elements on one line: Markdown puts them on two
    "<p>a</p> <p>b</p>",
    "<div>a</div>x",                                     # text after an element becomes a paragraph
    "<div>a\n\n*b*\n\n</div>",                           # an element open across blank lines
    "<div><script>if (a<b) x = '</div>';</script></div>",
    '<div class="c"></div>\n<script type="application/json" id="x">{"a": "<b>"}</script>\n<p class="n">t</p>',
    "<script>let a = 1;",                                # a script never closed
    '<svg viewBox="0 0 1 1"><path d="M0,0h1"/><text>x</text></svg>',  # svg is not block-level: a paragraph
    "<div/>\n\ntext",
    "<!-- a comment -->\n<div>a</div>",
    "<table><tr><td>1<br>2</td></tr></table>\n<p class=\"x\">y</p>",
    "<span>inline</span> and *text*",
    "<div>a</span></div>",
    "<details><summary>s</summary>\n<p>x</p>\n</details>",
    "```html\n<div>code</div>\n\n<p>more</p>\n```",       # HTML shown as code stays code (fenced_code runs first)
    "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n\n## Heading { #h }\n\n<p>c</p>",
]


def _markdown(with_raw: bool) -> markdown.Markdown:
    """Python-Markdown as MkDocs configures it for this site (mkdocs.yml), with or without atlas.mdraw."""
    cfg = load_config(str(ROOT / "mkdocs.yml"), docs_dir=str(ROOT / "docs"))  # any existing folder: only its Markdown settings are read
    exts = [e for e in cfg["markdown_extensions"] if with_raw or e != "atlas.mdraw"]
    assert ("atlas.mdraw" in exts) == with_raw
    return markdown.Markdown(extensions=exts, extension_configs=cfg["mdx_configs"])


@pytest.mark.parametrize("src", TRICKY)
def test_a_tricky_block_renders_as_markdown_renders_it(src):
    assert _markdown(True).convert(src) == _markdown(False).convert(src)


def test_elements_takes_closed_block_level_html_and_leaves_the_rest():
    block = lambda name: name in ("div", "p", "table", "ol", "script")  # noqa: E731
    assert elements('<div>a</div><ol><li>x</li></ol>', block) == ["<div>a</div>", "<ol><li>x</li></ol>"]
    assert elements('<p>a<br>b</p>\n<script type="x">"</p>"</script>', block) == ["<p>a<br>b</p>", '<script type="x">"</p>"</script>']
    for left in ("<div>a</div>x", "<div>a", "<div>a</p>", "<span>x</span>", "<div/>", "<!-- c --><div></div>", "<div", "<script>x"):
        assert elements(left, block) is None, left


def test_every_page_renders_the_same_with_and_without_it(built_site):
    docs = built_site.with_name(f".{built_site.name}.docs")
    pages = sorted(docs.rglob("*.md"))
    assert len(pages) > 150
    fast, slow = _markdown(True), _markdown(False)
    for page in pages:
        text, _ = get_data(page.read_text(encoding="utf-8"))
        assert fast.reset().convert(text) == slow.reset().convert(text), page.relative_to(docs)


def test_it_takes_most_of_a_scenario_page(built_site):
    """Policy 3.1.5's page: nine blocks in ten are raw HTML it stores without parsing."""
    docs = built_site.with_name(f".{built_site.name}.docs")
    text, _ = get_data((docs / "products" / "policy" / "policy-3-1-5.md").read_text(encoding="utf-8"))
    md = _markdown(True)
    before = len(md.htmlStash.rawHtmlBlocks)
    RawBlocks(md).run(text.split("\n"))
    stored = md.htmlStash.rawHtmlBlocks[before:]
    assert sum(map(len, stored)) > 0.9 * len(text), (sum(map(len, stored)), len(text))
