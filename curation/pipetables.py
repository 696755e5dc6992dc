"""Find the pipe tables in a seed text and return them as logical tables.

The seeds are text extractions of vendor PDF/HTML guides. Tables come as pipe
rows either with a leading pipe (``| a | b |``, BSF) or without one
(``a | b |``, Policy and NEF). A caption ``Table 3-5 <title>`` precedes a table,
sometimes glued to the end of a prose line; ``Table 3-5 (Cont.) <title>``
starts a continuation segment that belongs to the same logical table.

This module only finds and splits. It never interprets a value: each
document's curation module maps the raw cells onto the data model.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

CAPTION_RE = re.compile(r"Table (\d+-\d+)( \(Cont\.\))?(?: (.*))?$")
UNNUMBERED_CAPTION_RE = re.compile(r"^Table ([A-Z][^|]*)$")
HEADING_RE = re.compile(r"^(\d+(?:\.\d+)+) ([A-Z\[].*)$")
SEPARATOR_CELL_RE = re.compile(r"^:?-+:?$")


@dataclass
class Row:
    """One physical pipe row: its 1-based source line and its cells."""

    line: int
    text: str
    cells: list[str]


@dataclass
class Table:
    """A logical table: all its segments merged, header once.

    ``id`` is the caption number ("3-16") or, for an uncaptioned table, a
    stable id derived from its section ("U-3.2.5-1").
    """

    id: str
    caption: str | None
    section: str | None
    section_title: str | None
    caption_line: int | None
    header: list[str]
    header_line: int
    rows: list[Row] = field(default_factory=list)
    segments: int = 1
    last_line: int = 0
    separators: list[int] = field(default_factory=list)
    continuation_lines: list[int] = field(default_factory=list)

    @property
    def first_line(self) -> int:
        return self.caption_line or self.header_line


def read_lines(path: str | Path) -> list[str]:
    """Return the file's lines without newlines, keeping an unterminated last line."""
    text = Path(path).read_text(encoding="utf-8")
    return text.split("\n") if not text.endswith("\n") else text[:-1].split("\n")


def is_pipe_row(text: str) -> bool:
    """True for a table row: it ends with a pipe (``a |`` is a one-cell row)."""
    return text.rstrip().endswith("|")


def split_cells(text: str) -> list[str]:
    """Split one pipe row into stripped cells.

    ``| a | b |`` and ``a | b |`` both give ``['a', 'b']``; empty cells between
    doubled pipes are kept as ``''``.
    """
    s = text.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [c.strip() for c in s.split("|")]


def is_separator(cells: list[str]) -> bool:
    """True for a header separator row such as ``|---|---|``."""
    filled = [c for c in cells if c]
    return bool(filled) and all(SEPARATOR_CELL_RE.match(c) for c in filled)


def _caption_in(text: str) -> re.Match | None:
    m = CAPTION_RE.search(text)
    if m and (m.start() == 0 or not text[m.start() - 1].isalnum() or text[m.start() - 1] in ".:"):
        return m
    # glued after prose ending in a letter, e.g. "Max ReplicaTable 3-8 ..."
    return m


def segment(path: str | Path) -> list[Table]:
    """Return every pipe table of the seed at ``path`` in source order.

    Continuation segments ("(Cont.)") are merged into their table. A table
    whose caption cannot be found gets the id ``U-<section>-<n>``.
    Raises ValueError when a "(Cont.)" segment has no earlier table to join.
    """
    lines = read_lines(path)
    tables: list[Table] = []
    by_id: dict[str, Table] = {}
    section = None
    section_title = None
    pending_caption: tuple[int, re.Match | None, str] | None = None
    uncaptioned_count: dict[str, int] = {}
    i = 0
    n = len(lines)
    while i < n:
        text = lines[i]
        lineno = i + 1
        stripped = text.strip()
        if not is_pipe_row(text):
            h = HEADING_RE.match(stripped)
            if h:
                section, section_title = h.group(1), h.group(2)
            m = _caption_in(stripped)
            if m:
                pending_caption = (lineno, m, "numbered")
            else:
                um = UNNUMBERED_CAPTION_RE.match(stripped)
                if um:
                    pending_caption = (lineno, um, "unnumbered")
                elif stripped and pending_caption and lineno - pending_caption[0] > 3:
                    pending_caption = None
            i += 1
            continue
        # a run of pipe rows starts here
        run: list[Row] = []
        while i < n and (is_pipe_row(lines[i]) or _is_label_only_continuation(lines, i)):
            run.append(Row(i + 1, lines[i], split_cells(lines[i]) if is_pipe_row(lines[i]) else [lines[i].strip()]))
            i += 1
        header = run[0]
        body = run[1:]
        seps = [r.line for r in body if is_separator(r.cells)]
        body = [r for r in body if not is_separator(r.cells)]
        cap_line, cap_match, cap_kind = pending_caption if pending_caption else (None, None, None)
        pending_caption = None
        if cap_kind == "numbered":
            tid = cap_match.group(1)
            cont = bool(cap_match.group(2))
            caption = (cap_match.group(3) or "").strip()
            if cont:
                if tid not in by_id:
                    raise ValueError(f"{path}:{cap_line}: '(Cont.)' of Table {tid} with no earlier segment")
                t = by_id[tid]
                t.rows.extend(body)
                t.segments += 1
                t.last_line = run[-1].line
                t.separators.extend(seps)
                t.continuation_lines.append(cap_line)
                continue
        elif cap_kind == "unnumbered":
            caption = cap_match.group(1).strip()
            tid = "U-" + re.sub(r"[^A-Za-z0-9]+", "-", caption).strip("-").lower()
        else:
            caption = None
            key = section or "front"
            uncaptioned_count[key] = uncaptioned_count.get(key, 0) + 1
            tid = f"U-{key}-{uncaptioned_count[key]}"
        t = Table(
            id=tid,
            caption=caption,
            section=section,
            section_title=section_title,
            caption_line=cap_line,
            header=header.cells,
            header_line=header.line,
            rows=body,
            last_line=run[-1].line,
            separators=seps,
        )
        if tid in by_id:
            raise ValueError(f"{path}:{cap_line or header.line}: table id {tid} appears twice")
        by_id[tid] = t
        tables.append(t)
    return tables


def _is_label_only_continuation(lines: list[str], i: int) -> bool:
    """A row label printed alone on a line, continued by a line starting with '|'.

    Seen in the Policy guide (Table 3-173): ``PDS Single UE ID Configuration`` /
    ``|`` / ``Enabled |``. Only accepted directly after a pipe row.
    """
    if i == 0 or i + 1 >= len(lines) or not is_pipe_row(lines[i - 1]):
        return False
    nxt = lines[i + 1].strip()
    return bool(lines[i].strip()) and "|" not in lines[i] and nxt.startswith("|") and not CAPTION_RE.search(lines[i])
