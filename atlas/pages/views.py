"""Table views shared by the pages: facet chips and the "as shown" download link.

A table with facets carries, on each body row, one ``data-f-<facet>`` attribute per facet (the row's value,
as text), except for a facet whose value is the whole text of one of the row's cells: the chip bar names that column
instead (``data-col`` on the facet's group, and ``data-col-before`` where the value is the start of the cell's text)
and tables.js reads the cell, so the value is not written twice per row (479 errata rows carried 37 KB of attributes
repeating their document, kind and action cells). Above the table sits
the chip bar built here from the same values: one group per facet with at least two
values, one ``<button aria-pressed>`` per value with its row count. The bar is ``hidden`` in the HTML and
shown by ``docs/assets/js/tables.js``, which filters the rows (values of one facet: any of them; several
facets: all of them; and the text filter) and keeps the choice in the page address
(``?c.<table>.<facet>=<value>``). Without JavaScript the bar stays hidden and the table whole.
"""
from __future__ import annotations

from ..html import esc

LOAD_BUCKETS = ((1_000, "under 1K"), (10_000, "1K to under 10K"), (100_000, "10K to under 100K"), (None, "100K and more"))
"""Load-per-site ranges of the "load" facet (upper bound exclusive, in the scenario's own load unit), in order."""


def load_bucket(per_site) -> str:
    """The LOAD_BUCKETS label of a load per site (a number in the scenario's unit), or "not stated" for None."""
    if per_site is None:
        return "not stated"
    for upper, label in LOAD_BUCKETS:
        if upper is None or per_site < upper:
            return label
    raise AssertionError("unreachable")


def row_attrs(values: dict[str, str], cols: dict[str, int | tuple[int, str]] | None = None) -> str:
    """The ``data-f-<facet>="value"`` attributes of one body row (leading space included), escaped; none for the
    facets of ``cols`` (as given to ``facet_bar``), which tables.js reads from the row's cells."""
    return "".join(f' data-f-{esc(k)}="{esc(v)}"' for k, v in values.items() if k not in (cols or {}))


def facet_bar(table: str, groups: list[tuple[str, str]], rows: list[dict[str, str]], order: dict[str, list[str]] | None = None,
              cols: dict[str, int | tuple[int, str]] | None = None, labels: dict[str, dict[str, str]] | None = None) -> str:
    """The chip bar of table ``table`` (its ``data-atlas-table``): ``groups`` lists (facet, label) in display
    order; ``rows`` the facet values of every body row (the dicts given to ``row_attrs``). Values appear in
    ``order[facet]`` order where given, else first-seen order; a facet with fewer than two values gets no group.
    ``cols``: facet -> the 0-based index of the column whose cell text is the row's value (exactly, once trimmed),
    or (index, separator): the value is the cell's text before the first ``separator`` (the errata's document,
    "policy" of "policy-E050"); the group says so (``data-col``, ``data-col-before``) and ``row_attrs`` writes no
    attribute for it. ``labels[facet]``: value -> the chip's text, where it is not the value itself.
    Returns '' when no group is left."""
    order, cols, labels = order or {}, cols or {}, labels or {}
    parts = []
    for facet, label in groups:
        counts: dict[str, int] = {}
        for row in rows:
            v = row.get(facet)
            if v is not None:
                counts[v] = counts.get(v, 0) + 1
        if len(counts) < 2:
            continue
        values = sorted(counts, key=lambda v: order[facet].index(v) if v in order.get(facet, []) else len(order.get(facet, [])) + list(counts).index(v))
        chips = "".join(f'<button type="button" class="atlas-chip" data-facet="{esc(facet)}" data-value="{esc(v)}" aria-pressed="false">'
                        f'{esc(labels.get(facet, {}).get(v, v))} <span class="atlas-chip-n">{counts[v]}</span></button>' for v in values)
        col = ""
        if facet in cols:
            index, before = cols[facet] if isinstance(cols[facet], tuple) else (cols[facet], None)
            col = f' data-facet="{esc(facet)}" data-col="{index}"' + (f' data-col-before="{esc(before)}"' if before else "")
        parts.append(f'<div class="atlas-facet-group"{col} role="group" aria-label="{esc(label)}">'
                     f'<span class="atlas-facet-label" aria-hidden="true">{esc(label)}:</span>{chips}</div>')
    if not parts:
        return ""
    return f'<div class="atlas-facets" data-atlas-for="{esc(table)}" hidden>{"".join(parts)}</div>'


def shown_link(href: str, table: str, label: str = "CSV (as shown)") -> str:
    """The "as shown" download link of table ``table`` (its ``data-atlas-table``): ``href`` is the build's file
    (the whole table, for readers without JavaScript); tables.js downloads the visible rows instead."""
    return (f'<a class="atlas-download-shown" href="{esc(href)}" download data-atlas-for="{esc(table)}">{esc(label)}</a>')
