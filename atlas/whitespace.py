"""Build step "collapse whitespace": the rendered pages without the indentation of their templates.

Material's templates indent every line, and nest blank lines in the navigation and the table of contents: about
14 KB of a scenario page is runs of white space. A browser shows any run of white space in a page's text as one
space (CSS ``white-space: normal``), so each run of two or more white-space characters outside a tag becomes one
character: a line break where the run held one, else a space. Never changed: the inside of a tag (attribute values),
and the elements whose white space shows or is not text: ``pre``, ``code`` (Material sets ``white-space: pre-wrap``
on code), ``textarea``, ``script`` and ``style``. This is the conservative collapse HTML minifiers offer
(html-minifier's ``conservativeCollapse``), and no more: no tag, quote or character reference is touched, so the
page's elements, attributes and text are those MkDocs rendered (tests/test_whitespace.py compares them)."""
from __future__ import annotations

import re
from pathlib import Path

KEPT = re.compile(r"<(pre|code|textarea|script|style)\b[^>]*>.*?</\1\s*>", re.S | re.I)
"""Elements whose content is left exactly as it is."""
TAG_OR_RUN = re.compile(r"<[^>]*>|[ \t\n\r\f]{2,}")


def _run(m: re.Match) -> str:
    s = m.group(0)
    if s[0] == "<":
        return s
    return "\n" if "\n" in s else " "


def collapse(html: str) -> str:
    """``html`` with each run of white space outside tags and outside KEPT elements as one character (see the
    module docstring)."""
    out, pos = [], 0
    for m in KEPT.finditer(html):
        out.append(TAG_OR_RUN.sub(_run, html[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(TAG_OR_RUN.sub(_run, html[pos:]))
    return "".join(out)


def collapse_site(site: Path) -> None:
    """``collapse`` every .html file under ``site`` in place. Raises OSError if a file cannot be read or written."""
    for f in sorted(Path(site).rglob("*.html")):
        text = f.read_text(encoding="utf-8")
        new = collapse(text)
        if new != text:
            f.write_text(new, encoding="utf-8")
