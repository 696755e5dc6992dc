"""The Policy guide (Oracle Converged Policy Benchmarking Guide, chapter 3) as its curation reads it, and what every
part of that curation writes through.

``PolicyGuide`` holds the guide's lines, its tables as segmented (``tables``, ``by_id``), the logical rows of the
tables curated here (``lrows``: a row split over several printed lines is one row), the scenario headings (``heads``,
filled by ``Scenarios.scenarios``) and the curated output (``c``). Its helpers record an erratum (``E``), add an
erratum's id to the notes of the rows of a printed line (``_note_rows``), quote a line, a row or a table of the guide
(``src``, ``line_of``, ``find_line``, ``cite_row``, ``cite_text``, ``_cite``), add a table's catalogue entry (``entry``)
and read a numeric cell (``cell_value``). Each part of the curation is a class over it; ``curation/policy.py`` puts
them together.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from .common import Curated, num, seed_path, table_entry
from .pipetables import read_lines, segment

DOC = "policy"

# Uncaptioned tables: the table number they probably lost (curation notes, 4.2).
LOST_NUMBER = {
    "U-3.2.5.1-1": "probably Table 3-108 (the number 3-108 never appears and this table stands where it would)",
    "U-3.2.6.1-1": "no number is missing here (3-120 is followed by 3-121); the table was never numbered",
    "U-3.3.1.1-1": "no number is missing here; the table was never numbered",
    "U-3.3.1.1-2": "no number is missing here; the table was never numbered",
    "U-3.3.2.1-1": "possibly Table 3-189 (3-189 never appears; it belongs to this table or to U-3.3.2.1-2)",
    "U-3.3.2.1-2": "possibly Table 3-189 (3-189 never appears; it belongs to this table or to U-3.3.2.1-1)",
    "U-3.4.1.1-1": "probably Table 3-197 (the number 3-197 never appears)",
    "U-3.4.2.1-1": "probably Table 3-206 (the number 3-206 never appears)",
    "U-3.4.3.1-1": "probably Table 3-215 (the number 3-215 never appears)",
    "U-3.5.1.1-1": "no number is missing here; the table was never numbered",
    "U-3.5.2.1-1": "no number is missing here; the table was never numbered",
    "U-3.6.1.1-1": "no number is missing here; the table was never numbered",
}


def scenario_of(t) -> str | None:
    """'policy-3-2-5' for a table under 3.2.5.x; None for the 3.2 preamble (Table 3-61)."""
    sec = t.section if hasattr(t, "section") else t
    if not sec:
        return None
    parts = sec.split(".")
    if len(parts) < 3:
        return None
    return "policy-" + "-".join(parts[:3])


@dataclass
class LRow:
    """One logical row: cells merged from one to three physical lines."""

    line: int
    cells: list[str]
    lines: list[int] = field(default_factory=list)
    label_only: bool = False
    text: str = ""

    @property
    def split(self) -> bool:
        return len(self.lines) > 1


def logical_rows(t) -> list[LRow]:
    """Merge rows split over several physical lines.

    - a lone '|' line closes the previous row: it adds an empty cell, or, after a
      label printed alone on its line, just ends the label cell (Table 3-173);
    - a row holding only its label ('Traffic Ratio |') takes the next line's
      cell as its value (Table 3-97).
    """
    width = len(t.header)
    out: list[LRow] = []
    for r in t.rows:
        text = r.text.strip()
        prev = out[-1] if out else None
        if text == "|" and prev is not None:
            prev.lines.append(r.line)
            prev.text += "\n" + text
            if prev.label_only:
                prev.label_only = False
            else:
                prev.cells.append("")
            continue
        if "|" not in text:
            out.append(LRow(r.line, [text], [r.line], label_only=True, text=text))
            continue
        if (prev is not None and not prev.label_only and len(prev.cells) == 1 and prev.split is False
                and len(r.cells) + 1 <= width and len(r.cells) < width and _awaits_value(prev, t)):
            prev.cells.extend(r.cells)
            prev.lines.append(r.line)
            prev.text += "\n" + text
            continue
        if prev is not None and prev.split and len(prev.cells) == 1 and not prev.label_only and len(r.cells) == 1:
            # after 'label' + '|' (label-only case) the value line follows
            prev.cells.extend(r.cells)
            prev.lines.append(r.line)
            prev.text += "\n" + text
            continue
        out.append(LRow(r.line, list(r.cells), [r.line], text=text))
    return out


def _awaits_value(prev: LRow, t) -> bool:
    """A one-cell row in a two-column key/value table is waiting for its value."""
    return len(t.header) == 2 and len(prev.cells) == 1


def dec(text: str) -> Decimal:
    return Decimal(text.strip().replace(",", ""))


def clean(d: Decimal):
    d = d.normalize()
    if d == d.to_integral_value():
        return int(d)
    return float(d)


def ms_from_s(text: str):
    """'0.01588' (seconds) -> 15.88 (ms), exactly."""
    num(text)  # validates
    return clean(dec(text) * 1000)


def fmt(d: Decimal) -> str:
    d = d.normalize()
    return format(d, "f")


def _glued_section_fix(lines: list[str], tables) -> dict[str, tuple[str, str]]:
    """Seven 'x.x.x.2 CPU Utilization' headings are glued to the end of a 'Min Replica = Max Replica' note, so the
    segmenter files the tables under them in the preceding x.x.x.1 section. Give those tables their printed section;
    returns {table id: (section as segmented, section as printed)}."""
    moved = {}
    for n, line in enumerate(lines, 1):
        m = re.match(r"Min Replica = Max Replica(3(?:\.\d+){3}) ", line)
        if not m:
            continue
        sec = m.group(1)
        before = sec[: sec.rindex(".")] + ".1"
        for t in tables:
            if t.first_line > n and t.section == before:
                moved[t.id] = (t.section, sec)
                t.section = sec
    return moved


class PolicyGuide:
    """The guide's lines, tables and logical rows, the curated output, and the helpers every part writes through."""

    def __init__(self):
        self.path = seed_path(DOC)
        self.lines = read_lines(self.path)
        self.tables = segment(self.path)
        self.by_id = {t.id: t for t in self.tables}
        self.glued_sections = _glued_section_fix(self.lines, self.tables)
        self.c = Curated(DOC)
        self.lrows: dict[str, list[LRow]] = {}
        self.heads: dict[str, tuple[int, str]] = {}

    def E(self, **e) -> str:
        """Record an erratum (the fields of errata.yaml: scenario, table_id, lines, where, kind, raw, problem, action,
        reading, reason) and return its id. The scenario defaults to the table's; a logical row's line stands for every
        printed line of the row; a problem that does not name its table is prefixed with it."""
        if "table_id" in e and e["table_id"] and "scenario" not in e:
            e["scenario"] = scenario_of(self.by_id[e["table_id"]])
        e.setdefault("scenario", None)
        e.setdefault("table_id", None)
        if e.get("lines"):
            # citing a logical row cites every physical line it is printed on
            phys = {r.line: r.lines for rows in self.lrows.values() for r in rows}
            e["lines"] = sorted({n for k in e["lines"] for n in phys.get(k, [k])})
        if e["table_id"] and e["table_id"] not in e["problem"]:
            e["problem"] = f"Table {e['table_id']}: {e['problem']}"  # a recurring defect says where it is
        keys = ["scenario", "table_id", "lines", "where", "kind", "raw", "problem", "action", "reading", "reason"]
        ordered = {k: e[k] for k in keys if k in e}
        return self.c.erratum(**ordered)

    def src(self, n: int) -> str:
        """Seed line n as printed (stripped)."""
        return self.lines[n - 1].strip()

    def line_of(self, tid: str, label: str) -> LRow:
        """The logical row of Table ``tid`` whose first cell is ``label``; KeyError (tid, label) if none is."""
        for r in self.lrows[tid]:
            if r.cells[0] == label:
                return r
        raise KeyError((tid, label))

    def find_line(self, text: str, start: int = 1) -> int:
        """The number of the first line from ``start`` on that holds ``text``; KeyError(text) if none does."""
        for n in range(start, len(self.lines) + 1):
            if text in self.lines[n - 1]:
                return n
        raise KeyError(text)

    def entry(self, t, kind: str, category: str, **extra):
        """Add table ``t``'s catalogue entry (tables.yaml) of ``kind`` and ``category``; an uncaptioned table is titled
        by the heading that introduces it, with the number it probably lost (LOST_NUMBER) as its note."""
        scen = scenario_of(t)
        title = None
        if t.caption is None:
            # the heading that introduces an uncaptioned table
            n = t.header_line - 1
            while n > 0 and (self.lines[n - 1].startswith("The following") or not self.lines[n - 1].strip()):
                n -= 1
            title = self.lines[n - 1].strip()
            extra.setdefault("note", "No caption; " + LOST_NUMBER[t.id] + ".")
        self.c.tables.append(table_entry(t, DOC, scen, kind, title=title, category=category,
                                         rows=len(self.lrows[t.id]), **extra))

    def cell_value(self, cell: str, parser=num):
        """(value, status, note) for a numeric cell."""
        c0 = cell.strip()
        if c0 == "-":
            return None, "not_applicable", None
        if c0 in ("", "NA", "None"):
            return None, "missing", (f"Printed '{c0}'." if c0 else "Empty cell.")
        return parser(c0), "ok", None

    def _note_rows(self, tid, line, eid, column=None):
        """Add erratum ``eid`` to the notes of the settings, measurement and latency rows of Table ``tid`` printed on
        ``line`` (only those of ``column`` when given)."""
        for kind in ("measurements", "latency", "settings"):
            for row in self.c.rows.get(kind, []):
                if row["table_id"] == tid and row["line"] == line and (column is None or row["column_label"] == column):
                    row["note"] = (row.get("note") + "; " if row.get("note") else "") + eid

    def cite_row(self, tid, label, where=None):
        """A cite of row ``label`` of Table ``tid``: {text (its value), table_id, line, where}."""
        r = self.line_of(tid, label)
        return {"text": r.cells[1], "table_id": tid, "line": r.line, "where": where or f"Table {tid}, row '{label}'"}

    def cite_text(self, text, where, start=1, table_id=None):
        """A cite of the first line from ``start`` on that holds ``text``: {text, table_id, line, where}."""
        n = self.find_line(text, start)
        return {"text": text, "table_id": table_id, "line": n, "where": where}

    def _cite(self, spec, hline):
        """spec: ('title', text) | ('prose', text) | ('row', tid, label) | ('table', tid, text, where)."""
        kind = spec[0]
        if kind == "title":
            if spec[1] not in self.lines[hline - 1]:
                raise KeyError(spec)
            return {"text": spec[1], "table_id": None, "line": hline, "where": "title"}
        if kind == "prose":
            return self.cite_text(spec[1], "prose", start=hline)
        if kind == "row":
            return self.cite_row(spec[1], spec[2])
        if kind == "table":
            tid, text, where = spec[1], spec[2], spec[3]
            t = self.by_id[tid]
            n = self.find_line(text, t.first_line)
            if n > t.last_line:
                raise KeyError(spec)
            return {"text": text, "table_id": tid, "line": n, "where": where}
        raise ValueError(spec)
