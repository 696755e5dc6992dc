"""HTML and Markdown text helpers for the build's pages: every text that comes from data/ goes
through ``esc`` (HTML) or ``md_esc`` (Markdown headings) before it reaches a page, so data can
never become markup. Numbers are shown with ``calculators.formatting.fmt``, as the calculators
show them."""
from __future__ import annotations

import json
import math
import re
from html import escape

import pandas as pd

from calculators.formatting import fmt, table_anchor


def esc(v, quote: bool = True) -> str:
    """``v`` as HTML-escaped text; None, NaN and pandas NA become ''. ``quote=False`` for an element's text (never an
    attribute): only ``&``, ``<`` and ``>``, quotes as they are (``'`` is ``&#x27;`` otherwise, 6 bytes: 5 KB of the
    errata page's problem texts)."""
    if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA:
        return ""
    return escape(str(v), quote=quote)


def md_esc(text: str) -> str:
    """Escape text for Markdown (a heading, a nav label): HTML-escape, then backslash Markdown specials. A ``|`` becomes
    ``&#124;``: Markdown without the tables extension (the nav, mkdocs-literate-nav) keeps ``\\|`` as printed."""
    return re.sub(r"([\\`*_{}\[\]()!])", r"\\\1", escape(str(text), quote=False)).replace("|", "&#124;")


def anchor(tid: str) -> str:
    """The HTML id of table ``tid`` on its page: ``3-29`` -> ``table-3-29`` (links from other pages use it; the
    calculators link to the same ids: one rule, ``calculators.formatting.table_anchor``)."""
    return table_anchor(tid)


def num(v) -> str:
    """A number as shown on pages (``fmt``: thousands separators, no float noise), HTML-escaped; '' for a missing value."""
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return ""
    return esc(fmt(float(v) if not isinstance(v, (int,)) else v))


def page_depth_prefix(depth: int) -> str:
    """The relative prefix (``../`` per level) from a page ``depth`` folders deep back to the site root."""
    return "../" * depth


def partial_mark(partial: bool) -> str:
    """The lower-bound mark put before a total of a partial scenario ('' when complete)."""
    return '<abbr class="atlas-flag atlas-at-least" title="at least: some services could not be counted">≥&#8239;</abbr>' if partial else ""


def json_for_html(obj) -> str:
    """JSON safe inside <script type="application/json">: '<', '>' and '&' escaped."""
    return json.dumps(obj).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
