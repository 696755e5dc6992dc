"""Markdown extension ``atlas.mdraw`` (mkdocs.yml): the pages' raw HTML blocks kept as they are without parsing them.

The generated pages are mostly HTML written by atlas/pages (tables, charts' data, errata lists): a scenario page is
60 KB of Markdown, nine tenths of it raw HTML blocks. Python-Markdown finds the end of each raw HTML block by running
Python's html.parser over the whole page (its ``html_block`` preprocessor): about 60 % of MkDocs' time for this
site in a profile; the render step took 6.1 s with it and 4.0 s with this extension, for byte-identical pages. A block that starts with a block-level tag at the start of a line and closes every element it opens before
the next blank line is raw HTML to Markdown either way (Markdown does not look inside raw HTML blocks); this
preprocessor stores such blocks in Markdown's own stash of raw HTML, as ``html_block`` does with what it finds, so
the output is the same, and leaves every other block (Markdown text, a block whose elements stay open across a blank
line, comments) to ``html_block``. Runs after ``fenced_code`` (code blocks are stashed by then, so HTML shown as code
stays code). tests/test_mdraw.py renders every page of the site with and without it and compares.
"""
from __future__ import annotations

import re

from markdown import Extension
from markdown.preprocessors import Preprocessor

START = re.compile(r"<[A-Za-z]")
"""A block that starts with a tag."""
TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)(?=[\s/>])")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
"""Elements without an end tag (HTML's void elements)."""


RAW_TEXT = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.S | re.I)
"""A script or style element whole: what is inside is text, not tags."""
SELF_CLOSED = frozenset({"path", "line", "rect", "circle", "ellipse", "polygon", "polyline", "use", "stop"})
"""SVG elements the drawings write as ``<path .../>``."""


def elements(block: str, block_level) -> list[str] | None:
    """The top-level elements ``block`` is made of, each closing every element it opens, in order, with nothing but
    white space between or after them, and each a block-level element (``block_level(name)``); else None (the block
    is left to Markdown: a block with a comment, CDATA or a processing instruction, text after an element, an
    unclosed element, script or style, a tag without its ``>``, or a self-closing tag other than a void element or
    an SVG shape, such as ``<div/>``)."""
    if "<!--" in block or "<![" in block or "<?" in block:
        return None
    out: list[str] = []
    stack: list[str] = []
    start = pos = 0
    while (m := TAG.search(block, pos)) is not None:
        name = m.group(2).lower()
        if not stack:
            if block[start:m.start()].strip() or m.group(1) or not block_level(name):
                return None
            start = m.start()
        end = block.find(">", m.end())
        if end < 0:
            return None
        pos = end + 1
        if m.group(1):
            if stack[-1] != name:
                return None
            stack.pop()
        elif name in ("script", "style"):
            whole = RAW_TEXT.match(block, m.start())  # its text holds no tags
            if whole is None:
                return None
            pos = whole.end()
        elif block[end - 1] == "/":
            if name not in VOID and name not in SELF_CLOSED:
                return None
        elif name not in VOID:
            stack.append(name)
        if not stack:
            out.append(block[start:pos])
            start = pos
    if stack or block[start:].strip():
        return None
    return out


class RawBlocks(Preprocessor):
    """Stores each closed raw HTML block (see the module docstring) in Markdown's HTML stash."""

    def run(self, lines: list[str]) -> list[str]:
        blocks = "\n".join(lines).split("\n\n")
        for i, b in enumerate(blocks):
            parts = elements(b, self.md.is_block_level) if START.match(b) else None
            if parts:
                # as html_block stores them: one element a line, the last with its line end
                blocks[i] = self.md.htmlStash.store("\n".join(parts) + "\n")
        return "\n\n".join(blocks).split("\n")


class RawBlocksExtension(Extension):
    def extendMarkdown(self, md) -> None:
        # after normalize_whitespace (30) and fenced_code_block (25), before html_block (20)
        md.preprocessors.register(RawBlocks(md), "atlas_raw_blocks", 21)


def makeExtension(**kwargs) -> RawBlocksExtension:
    """The extension, for Python-Markdown's ``extensions=["atlas.mdraw"]`` (and mkdocs.yml)."""
    return RawBlocksExtension(**kwargs)
