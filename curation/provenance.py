"""Provenance checks: what the data says it read must be what the seed prints.

Three checks over curated data (the tests run them, the build runs the two that
need no seed):

- ``quote_problems(errata, seed_lines)``: every erratum's ``raw`` appears
  verbatim, whitespace aside, within the seed lines it cites (a raw text that
  quotes several places puts one quote per line: each must be found there);
- ``unmarked_readings(rows, tables, errata)``: every data row whose value differs
  from the literal reading of its raw text (another number, or a unit, target or
  percent basis the source does not print) has status ``corrected`` or
  ``flagged`` and an erratum id of its document in ``note``;
- ``shared_problems(errata)``: no two errata of a document share their problem
  text unless they cite the same lines.

Each returns a list of messages (empty when all is well), one per case, naming
the document, the file and the row or erratum. Pure standard library, so the
build can call it without the seeds.

The build also checks every other citation against the seed when it has the seeds
(``citation_problems``): each data row's seed line exists and prints its row label
and raw text, each table's lines and caption, each quote of a YAML record (a
``cite`` or contradiction version: ``text`` on ``line``).
"""
from __future__ import annotations

import bisect
import re
from decimal import Decimal, InvalidOperation

from curation.pipetables import split_cells

READ_THROUGH = {"corrected", "flagged"}
NO_VALUE = {"missing", "not_applicable"}

# What a unit looks like when the source prints it (searched in the raw cell,
# its column label, its row label, the table's header and caption).
UNIT_PRINTED = {
    "cores": r"\bcores?\b",
    "GiB": r"\bGiB?\b|\(\s*Gi\s*\)|\dGi\b",
    "MiB": r"\bMiB?\b|\dMi\b",
    "GB": r"GB",
    "ms": r"(?i)\bms\b|milli\s*seconds?",
    "s": r"(?i)\bs\b|\bsec\b|seconds?\b|\d\s*s\b",
    "percent": r"%|percent",
    "TPS": r"(?i)TPS\b",
    "MPS": r"(?i)MPS\b",
    "CPS": r"(?i)CPS\b",
    "SPS": r"(?i)SPS\b",
    "RPS": r"(?i)RPS\b",
    "vCPU": r"(?i)vCPU",
    "bytes": r"(?i)bytes?\b",
    "hours": r"(?i)hours?\b",
}
NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?|\.\d+"


def _squash(text: str) -> str:
    return "".join(text.split())


def _quote_problem(e: dict, lines: list[str]) -> tuple[str, str] | None:
    """(field, what is wrong) when erratum ``e``'s raw text is not found, whitespace aside, in the lines of ``lines``
    (its seed's, index 0 = line 1) it cites; None when it is."""
    cited = e.get("lines") or []
    if not cited:
        return "lines", "cites no seed lines"
    bad = [n for n in cited if not 1 <= n <= len(lines)]
    if bad:
        return "lines", f"cites lines {bad} outside the seed (1..{len(lines)})"
    text = _squash("".join(lines[n - 1] for n in sorted(set(cited))))
    quotes = [q for q in (_squash(x) for x in e["raw"].split("\n")) if q]
    missing = [q for q in quotes if q not in text]
    if not quotes or missing:
        return "raw", f"raw {(missing or [e['raw']])[0][:80]!r} not in its lines {cited}"
    return None


def quote_problems(errata: list[dict], seed_lines: dict[str, list[str]]) -> list[str]:
    """Errata whose raw text is not found, whitespace aside, in the seed lines they cite.

    ``seed_lines`` maps a document id to its seed's lines (index 0 = line 1).
    Returns one message per erratum (empty list when every quote holds)."""
    out = []
    for e in errata:
        lines = seed_lines.get(e["doc"])
        problem = None if lines is None else _quote_problem(e, lines)
        if problem:
            out.append(f"{e['id']}: {problem[1]}")
    return out


def shared_problems(errata: list[dict]) -> list[str]:
    """Pairs of errata of one document with the same problem text but different cited lines."""
    seen: dict[tuple, dict] = {}
    out = []
    for e in errata:
        key = (e["doc"], " ".join(e["problem"].split()))
        first = seen.setdefault(key, e)
        if first is not e and sorted(first.get("lines") or []) != sorted(e.get("lines") or []):
            out.append(f"{e['id']}: same problem text as {first['id']} but other lines "
                       f"({e.get('lines')} vs {first.get('lines')}): {e['problem'][:80]!r}")
    return out


# ----------------------------------------------------------------- literal readings


def _dec(x) -> Decimal | None:
    if x is None or x == "":
        return None
    try:
        return Decimal(str(x).replace(",", ""))
    except InvalidOperation:
        return None


def _same(value, literal) -> bool:
    a, b = _dec(value), _dec(literal)
    return a == b if (a is not None and b is not None) else (a is None and b is None)


def _numbers(raw: str, scale: dict[str, Decimal] | None = None) -> list[Decimal]:
    """Every number printed in ``raw``, each also times a suffix that follows it
    ('288K' gives 288 and 288000)."""
    out = []
    for m in re.finditer(rf"({NUMBER})\s*([KkM])?", raw):
        d = Decimal(m.group(1).replace(",", ""))
        out.append(d)
        if m.group(2):
            out.append(d * (1000 if m.group(2) in "Kk" else 1000000))
    return out


def _printed(unit: str, context: str) -> bool:
    if not unit or unit == "count":
        return True
    pat = UNIT_PRINTED.get(unit)
    return bool(pat and re.search(pat, context))


def _context(row: dict, table: dict | None) -> str:
    bits = [row.get("raw") or "", row.get("column_label") or "", row.get("row_label") or ""]
    if table:
        # an uncaptioned table's title is the heading printed above it
        bits += [table.get("caption") or table.get("title") or "", " | ".join(table.get("header") or [])]
    return " | ".join(str(b) for b in bits)


def _mem_literal(raw: str, header: str) -> Decimal | None:
    t = raw.strip().replace(" ", "")
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(Gi|Mi|Ti)", t)
    if m:
        return Decimal(m.group(1)) * {"Gi": 1, "Mi": Decimal(1) / 1024, "Ti": 1024}[m.group(2)]
    if re.fullmatch(r"\d+(?:\.\d+)?", t):
        if re.search(r"\(\s*Gi\s*\)|\bGi\b|GiB", header):
            return Decimal(t)
        if re.search(r"\(\s*Mi\s*\)|\bMi\b|MiB", header):
            return Decimal(t) / 1024
    return None


def _cpu_literal(raw: str, header: str) -> Decimal | None:
    t = raw.strip().replace(" ", "")
    m = re.fullmatch(r"(\d+(?:\.\d+)?)m", t)
    if m:
        return Decimal(m.group(1)) / 1000
    if re.fullmatch(r"\d+(?:\.\d+)?", t):
        return Decimal(t) / 1000 if re.search(r"\(\s*m\s*\)|millicore", header) else Decimal(t)
    return None


RESOURCE_FIELDS = [
    ("replicas", "raw_replicas", "int"), ("replicas_min", "raw_replicas", "int"), ("replicas_max", "raw_replicas", "int"),
    ("cpu_request_cores", "raw_cpu_request", "cpu"), ("cpu_limit_cores", "raw_cpu_limit", "cpu"),
    ("cpu_cores", "raw_cpu", "cpu"), ("mem_request_gib", "raw_mem_request", "mem"),
    ("mem_limit_gib", "raw_mem_limit", "mem"), ("mem_gib", "raw_mem", "mem"), ("storage_gib", "raw_storage", "mem"),
]


def _resource_diffs(r: dict, table: dict | None) -> list[str]:
    header = " | ".join((table or {}).get("header") or [])
    out = []
    for col, rawcol, how in RESOURCE_FIELDS:
        v, raw = r.get(col, ""), r.get(rawcol) or ""
        if v in ("", None):
            continue
        printed = _numbers(raw)
        if col in ("replicas_min", "replicas_max") or (col == "replicas" and len(set(printed)) == 1):
            # a Min/Max pair, or one count printed more than once ('2 / 2')
            if not any(_same(v, n) for n in printed):
                out.append(f"{col}={v} not printed in {raw!r}")
            continue
        if how == "int":
            lit = _dec(raw) if re.fullmatch(r"\d+", raw.strip()) else None
        elif how == "cpu":
            lit = _cpu_literal(raw, header)
        else:
            lit = _mem_literal(raw, header)
        if lit is None:
            out.append(f"{col}={v} from {raw!r}: no literal reading (unit or number not printed)")
        elif not _same(v, lit):
            out.append(f"{col}={v} but {raw!r} reads {lit.normalize()}")
    return out


def _utilization_diffs(r: dict, table: dict | None) -> list[str]:
    raw = (r.get("raw") or "").strip()
    ctx = _context(r, table)
    pct = tgt = ab = None
    m = re.fullmatch(rf"({NUMBER})\s*%", raw)
    if m:
        pct = m.group(1)
    elif m := re.fullmatch(rf"({NUMBER})\s*%\s*/\s*({NUMBER})\s*%", raw):
        pct, tgt = m.groups()
    elif m := re.fullmatch(rf"({NUMBER})\s*\(\s*({NUMBER})\s*%\s*\)", raw):
        ab, pct = m.groups()
    elif r.get("observed_percent") or r.get("observed_abs") or r.get("target_percent"):
        return [f"value(s) from {raw!r}, which has no literal reading"]
    else:
        return []
    out = []
    for col, lit in (("observed_percent", pct), ("target_percent", tgt), ("observed_abs", ab)):
        if not _same(r.get(col), lit):
            out.append(f"{col}={r.get(col)!r} but {raw!r} reads {lit!r}")
    if r.get("abs_unit") and not _printed(r["abs_unit"], ctx):
        out.append(f"abs_unit {r['abs_unit']} not printed")
    basis = r.get("percent_basis")
    if basis and basis != "unstated" and not re.search(basis, ctx, re.I):
        out.append(f"percent_basis {basis} not printed")
    return out


def _latency_diffs(r: dict, table: dict | None) -> list[str]:
    raw = (r.get("raw") or "").strip()
    unit = r.get("raw_unit")
    out = []
    if unit and not _printed(unit, _context(r, table)):
        out.append(f"unit {unit} not printed")
    nums = [m.group(0) for m in re.finditer(NUMBER, raw)]
    factor = Decimal(1000) if unit == "s" else Decimal(1)
    if not nums:
        if r.get("value_ms") or r.get("value_ms_max"):
            out.append(f"value from {raw!r}, which prints no number")
        return out
    lits = [Decimal(n.replace(",", "")) * factor for n in nums]
    if not _same(r.get("value_ms"), lits[0]) and not (r.get("value_ms") in ("", None) and r.get("value_ms_max")):
        out.append(f"value_ms={r.get('value_ms')} but {raw!r} ({unit}) reads {lits[0].normalize()}")
    if r.get("value_ms_max") and not any(_same(r["value_ms_max"], x) for x in lits):
        out.append(f"value_ms_max={r['value_ms_max']} not printed in {raw!r}")
    return out


def _value_unit_diffs(r: dict, table: dict | None, col: str, unit: str | None) -> list[str]:
    raw = r.get("raw") or ""
    out = []
    v = r.get(col)
    if v not in ("", None) and not any(_same(v, n) for n in _numbers(raw)):
        out.append(f"{col}={v} not printed in {raw!r}")
    if v not in ("", None) and unit and not _printed(unit, _context(r, table)):
        out.append(f"unit {unit} not printed")
    return out


def row_diffs(kind: str, r: dict, table: dict | None) -> list[str]:
    """How a data row differs from the literal reading of its raw text ([] when it does not)."""
    if r.get("status") in NO_VALUE:
        return []
    if kind == "resources":
        return _resource_diffs(r, table)
    if kind == "utilization":
        return _utilization_diffs(r, table)
    if kind == "latency":
        return _latency_diffs(r, table)
    if kind == "db_operations":
        return _value_unit_diffs(r, table, "ops_per_second", None)
    if kind == "measurements":
        return _value_unit_diffs(r, table, "value", r.get("unit"))
    return []


def unmarked_readings(rows: dict[str, list[dict]], tables: list[dict], errata: list[dict]) -> list[str]:
    """Rows read through something the source does not print, without status corrected/flagged
    and an erratum id of their document in ``note``.

    ``rows`` maps a kind (resources, utilization, ...) to its rows as dicts of strings
    (as csv.DictReader gives them); ``tables`` and ``errata`` are the YAML records."""
    tabs = {(t["doc"], t["id"]): t for t in tables}
    ids = {e["id"] for e in errata}
    out = []
    for kind, rs in rows.items():
        for r in rs:
            diffs = row_diffs(kind, r, tabs.get((r["doc"], r["table_id"])))
            if not diffs:
                continue
            cited = [i for i in re.findall(r"\b[a-z]+-E\d{3}\b", r.get("note") or "") if i in ids and i.startswith(r["doc"] + "-")]
            if r.get("status") not in READ_THROUGH or not cited:
                out.append(f"{r['doc']}/{kind}.csv {r['table_id']} row {r['row']} ({r.get('row_label')}, "
                           f"{r.get('column_label') or ''}) status {r.get('status')}, note {r.get('note')!r}: "
                           + "; ".join(diffs))
    return out


def mark_readings(c, table_ids, eid: str | None = None) -> int:
    """For the curation modules: every row of ``c`` (a Curated) in ``table_ids`` whose value differs from the
    literal reading of its raw text and whose status is 'ok' becomes 'corrected', with ``eid`` added to its
    note (when given and not there yet). Returns how many rows were marked."""
    tabs = {t["id"]: t for t in c.tables}
    n = 0
    for kind, rows in c.rows.items():
        for r in rows:
            if r["table_id"] not in table_ids or r.get("status") != "ok":
                continue
            if not row_diffs(kind, {k: ("" if v is None else v) for k, v in r.items()}, tabs.get(r["table_id"])):
                continue
            r["status"] = "corrected"
            if eid and eid not in (r.get("note") or ""):
                r["note"] = (r["note"] + "; " if r.get("note") else "") + eid
            n += 1
    return n


# ----------------------------------------------------------------- citations against the seed

RAW_COLUMNS = {
    "resources": ("raw_replicas", "raw_cpu_request", "raw_cpu_limit", "raw_cpu", "raw_mem_request", "raw_mem_limit",
                  "raw_mem", "raw_storage"),
    "utilization": ("raw",), "latency": ("raw",), "db_operations": ("raw",), "measurements": ("raw",),
    "settings": ("value",),
}
"""The columns of each kind of data row that quote the seed as printed, besides ``row_label``."""
JOINED = " / "
"""How a raw text that quotes several cells joins them (Policy's Min and Max replicas, curation/policy_resources.py)."""
PLACEHOLDER_LABEL = re.compile(r"\(.*\)")
"""A row label in parentheses names a label the seed does not print (Policy's '(no label column)')."""


def _cells(lines: list[str]) -> set[str]:
    """The cells of a pipe-table row printed on ``lines``, white space removed: each line's cells, those of the lines
    joined (a cell a line break cuts in two) and, where every line has as many cells, each column's pieces joined."""
    rows = [split_cells(x) for x in lines]
    cells = {_squash(c) for r in rows for c in r}
    if len(rows) > 1:
        cells |= {_squash(c) for c in split_cells(" ".join(lines))}
        if len({len(r) for r in rows}) == 1:
            cells |= {_squash("".join(col)) for col in zip(*rows)}
    cells.discard("")
    return cells


def _ends_quote(text: str, i: int, edge: str, step: int) -> bool:
    """Whether ``text[i]``, beside a quote whose character there is ``edge`` (its first when ``step`` is -1, its last
    when 1), lets the quote end: no character, white space, or one that does not continue it (a letter or digit
    continues a letter or digit, '.' or ',' before a digit continues a number)."""
    if not 0 <= i < len(text) or text[i].isspace():
        return True
    c, j = text[i], i + step
    if edge.isalnum() and c.isalnum():
        return False
    return not (edge.isdigit() and c in ".," and 0 <= j < len(text) and text[j].isdigit())


class _Squashed:
    """A text with its white space removed, and where each remaining character stands in the text."""
    __slots__ = ("text", "pos", "squashed")

    def __init__(self, text: str):
        self.text = text
        self.pos = [i for i, c in enumerate(text) if not c.isspace()]
        self.squashed = "".join(text[i] for i in self.pos)


def printed_in_text(quote: str, text: "str | _Squashed") -> bool:
    """Whether ``quote`` is printed in ``text``, white space aside, and not as the middle of a longer word or number
    ('28' is not printed in '288K', nor '5' in '0.5')."""
    q = _squash(quote)
    if not q or q not in (_squash(text) if isinstance(text, str) else text.squashed):
        return False
    t = _Squashed(text) if isinstance(text, str) else text
    k = t.squashed.find(q)
    while k >= 0:
        if (_ends_quote(t.text, t.pos[k] - 1, q[0], -1)
                and _ends_quote(t.text, t.pos[k + len(q) - 1] + 1, q[-1], 1)):
            return True
        k = t.squashed.find(q, k + 1)
    return False


def _row_starts(rows: dict[str, list[dict]]) -> dict[tuple[str, str], list[int]]:
    """(doc, table id) -> the seed lines its data rows start on, sorted."""
    out: dict[tuple[str, str], set[int]] = {}
    for rs in rows.values():
        for r in rs:
            out.setdefault((r["doc"], r["table_id"]), set()).add(int(r["line"]))
    return {k: sorted(v) for k, v in out.items()}


def _span(lines: list[str], n: int, starts: list[int], table: dict | None) -> list[str]:
    """The seed lines a row (or a quote of a row) that starts on line ``n`` is printed on: to the line before the next
    row of its table (``starts``) or the table's last line; of a pipe table, only the lines with a '|' that follow
    it without a break (not the caption and header of a '(Cont.)' part)."""
    i = bisect.bisect_right(starts, n)
    last = starts[i] - 1 if i < len(starts) else ((table or {}).get("lines") or [n, n])[1]
    span = lines[n - 1:max(min(last, len(lines)), n)]
    if "|" in span[0]:
        k = 1
        while k < len(span) and "|" in span[k]:
            k += 1
        span = span[:k]
    return span


def _where_lines(n: int, span: list[str]) -> str:
    shown = " ".join(x.strip() for x in span)
    shown = shown if len(shown) <= 160 else shown[:157] + "..."
    return f"seed line{'s' if len(span) > 1 else ''} {n}{f'-{n + len(span) - 1}' if len(span) > 1 else ''} ({shown!r})"


def _title_lines(lines: list[str], table: dict) -> str:
    """The table's first seed line (its caption, for a captioned table) and the nearest line printed above it (a
    heading that names what the table's rows share, as DSR's 'RSA Performance Benchmarking on 2 DA-MPs DSR Setup')."""
    a = ((table or {}).get("lines") or [0])[0]
    if not 1 <= a <= len(lines):
        return ""
    above = next((lines[i] for i in range(a - 2, max(a - 5, -1), -1) if lines[i].strip()), "")
    return above + "\n" + lines[a - 1]


def _label_named_by_curation(label: str, row: dict, table: dict, lines: list[str], memo: dict) -> bool:
    """Whether a row label the row's lines do not print is one the seed is not expected to print: a placeholder in
    parentheses, the header of the row's own column where the table prints its row without a label (DSR Table 3-7:
    the row's label is its value's column header, which the table prints), or any label of a table whose label column
    the seed does not print (its first header cell is not in the table's lines: a table the curation rebuilt from
    prose, naming its items)."""
    if PLACEHOLDER_LABEL.fullmatch(label.strip()):
        return True
    key = (table.get("doc"), table.get("id"))
    if key not in memo:
        a, b = table.get("lines") or [1, 0]
        text = _Squashed("\n".join(lines[a - 1:b]))
        header = table.get("header") or []
        memo[key] = ({h for h in header if h.strip() and printed_in_text(h, text)},
                     bool(header) and not printed_in_text(header[0], text))
    printed_header, unprinted_label_column = memo[key]
    return (label == row.get("column_label") and label in printed_header) or unprinted_label_column


def row_citation_problems(rows: dict[str, list[dict]], tables: list[dict], seed_lines: dict[str, list[str]]) -> list[str]:
    """Data rows whose seed line does not exist or does not print what the row quotes: the row label and every raw
    column (``RAW_COLUMNS``), each on the lines the row is printed on (``_span``), white space aside. Of a pipe table
    each quote is a whole cell (a raw text joining cells with ' / ' each of them); of running text a run of words
    (``printed_in_text``). A raw text may also be printed in its table's caption or the heading right above it
    (``_title_lines``: DSR's '16 DA-MPs', '2 DA-MPs'); a label the seed need not print is named by
    ``_label_named_by_curation``.

    ``rows`` maps a kind to its rows, each document's in file order (as ``read_data`` gives them); ``seed_lines``
    maps a document id to its seed's lines (a document without is skipped). Returns one message per problem,
    '<doc>/<kind>.csv: row <n> (header = row 1), column <c>: ...'."""
    tabs = {(t["doc"], t["id"]): t for t in tables}
    starts = _row_starts(rows)
    memo: dict = {}
    spans: dict[tuple, tuple[list[str], set[str] | str]] = {}
    out = []
    for kind, rs in rows.items():
        count: dict[str, int] = {}
        for r in rs:
            doc = r["doc"]
            count[doc] = count.get(doc, 0) + 1
            lines = seed_lines.get(doc)
            if lines is None:
                continue
            where = f"{doc}/{kind}.csv: row {count[doc] + 1}"
            n = int(r["line"])
            if not 1 <= n <= len(lines):
                out.append(f"{where}, column line: line {n} is not in the seed of {doc} (lines 1 to {len(lines)})")
                continue
            t = tabs.get((doc, r["table_id"])) or {}
            key = (doc, r["table_id"], n)
            if key not in spans:  # the rows of one printed row (a utilization table's every column) share it
                span = _span(lines, n, starts[(doc, r["table_id"])], t)
                spans[key] = (span, _cells(span) if "|" in span[0] else _Squashed("\n".join(span)))
            span, printed_there = spans[key]
            if isinstance(printed_there, set):
                def printed(v: str) -> bool:
                    return _squash(v) in printed_there or (JOINED in v and all(_squash(x) in printed_there for x in v.split(JOINED)))
            else:
                def printed(v: str) -> bool:
                    return printed_in_text(v, printed_there) or (
                        JOINED in v and all(printed_in_text(x, printed_there) for x in v.split(JOINED)))
            label = r.get("row_label") or ""
            if label.strip() and not printed(label) and not _label_named_by_curation(label, r, t, lines, memo):
                out.append(f"{where}, column row_label: {label!r} is not printed on {_where_lines(n, span)}")
            for col in RAW_COLUMNS.get(kind, ()):
                v = r.get(col) or ""
                if v.strip() and not printed(v) and not printed_in_text(v, _title_lines(lines, t)):
                    out.append(f"{where}, column {col}: {v!r} is not {'a cell' if '|' in span[0] else 'printed'} on "
                               f"{_where_lines(n, span)}")
    return out


def table_citation_problems(tables: list[dict], seed_lines: dict[str, list[str]]) -> list[str]:
    """Tables whose ``lines`` are not lines of the seed (first to last) or whose caption is not printed on their first
    lines. Returns '<doc>/tables.yaml: table <id>, field <f>: ...' messages."""
    out = []
    for t in tables:
        lines = seed_lines.get(t["doc"])
        if lines is None:
            continue
        where = f"{t['doc']}/tables.yaml: table {t['id']}"
        a, b = t["lines"]
        if not 1 <= a <= b <= len(lines):
            out.append(f"{where}, field lines: [{a}, {b}] is not a range of the seed's lines (1 to {len(lines)}, first to last)")
        elif t.get("caption") and not printed_in_text(t["caption"], "\n".join(lines[a - 1:min(b, a + 2)])):
            out.append(f"{where}, field caption: {t['caption']!r} is not printed on {_where_lines(a, lines[a - 1:a])}")
    return out


def _cites(node, path: str = ""):
    """(field path, cite) for every quote of a YAML record: a mapping with ``text`` and a ``line`` number."""
    if isinstance(node, dict):
        if isinstance(node.get("text"), str) and isinstance(node.get("line"), int):
            yield path, node
        for k, v in node.items():
            yield from _cites(v, f"{path}.{k}" if path else str(k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _cites(v, f"{path}.{i}")


def record_citation_problems(records: list[tuple[str, str, dict]], rows: dict[str, list[dict]], tables: list[dict],
                             seed_lines: dict[str, list[str]]) -> list[str]:
    """Quotes of YAML records (a scenario's load, call mix, call model, subscribers or replication cite, a
    contradiction's versions, a service's holds, a guidance cite) whose line is not in the seed or does not print
    their ``text``, white space aside: the line alone, or of a cited table (``table_id``) the lines its row is
    printed on. ``records``: (file as '<doc>/<name>.yaml', where as 'scenario <id>' or 'item <n>', record).
    Returns '<file>: <where>, field <path>.text: ...' messages."""
    tabs = {(t["doc"], t["id"]): t for t in tables}
    starts = _row_starts(rows)
    out = []
    for file, where, rec in records:
        lines = seed_lines.get(rec.get("doc"))
        if lines is None:
            continue
        for path, cite in _cites(rec):
            n = cite["line"]
            if not 1 <= n <= len(lines):
                out.append(f"{file}: {where}, field {path}.line: line {n} is not in the seed of {rec['doc']} (lines 1 to {len(lines)})")
                continue
            key = (rec["doc"], cite.get("table_id"))
            span = _span(lines, n, starts.get(key, []), tabs[key]) if key in tabs else lines[n - 1:n]
            if not printed_in_text(cite["text"], "\n".join(span)):
                out.append(f"{file}: {where}, field {path}.text: {cite['text']!r} is not printed on {_where_lines(n, span)}")
    return out


def erratum_citation_problems(errata: list[dict], seed_lines: dict[str, list[str]]) -> list[str]:
    """``quote_problems`` placed: '<doc>/errata.yaml: erratum <id>, field lines|raw: ...'."""
    out = []
    for e in errata:
        lines = seed_lines.get(e["doc"])
        problem = None if lines is None else _quote_problem(e, lines)
        if problem:
            out.append(f"{e['doc']}/errata.yaml: erratum {e['id']}, field {problem[0]}: {problem[1]}")
    return out


def citation_problems(rows: dict[str, list[dict]], tables: list[dict], errata: list[dict],
                      records: list[tuple[str, str, dict]], seed_lines: dict[str, list[str]]) -> list[str]:
    """Every citation of the data checked against the seeds (``seed_lines``: document id -> its seed's lines): the
    errata's quotes (check 1), the data rows' lines, labels and raw texts, the tables' lines and captions, the YAML
    records' quotes. One message per problem, each naming the file (relative to the data folder), the row, erratum,
    table or record, and the column or field."""
    return (table_citation_problems(tables, seed_lines) + row_citation_problems(rows, tables, seed_lines)
            + erratum_citation_problems(errata, seed_lines) + record_citation_problems(records, rows, tables, seed_lines))


# ----------------------------------------------------------------- whole folders


def read_data(root) -> tuple[dict[str, list[dict]], list[dict], list[dict]]:
    """(rows by kind, tables, errata) of every document folder under ``root`` (a data/ folder),
    read as plain strings with csv and yaml."""
    import csv
    from pathlib import Path

    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where PyYAML has it: same result, faster

    rows: dict[str, list[dict]] = {}
    tables: list[dict] = []
    errata: list[dict] = []
    for d in sorted(p for p in Path(root).iterdir() if p.is_dir() and (p / "errata.yaml").exists()):
        tables += yaml.load((d / "tables.yaml").read_text(encoding="utf-8"), Loader=loader) or []
        errata += yaml.load((d / "errata.yaml").read_text(encoding="utf-8"), Loader=loader) or []
        for f in sorted(d.glob("*.csv")):
            with open(f, encoding="utf-8", newline="") as fh:
                rows.setdefault(f.stem, []).extend(csv.DictReader(fh))
    return rows, tables, errata


def data_problems(root) -> list[str]:
    """Checks 2 and 3 (they need only data/, not the seeds) over every document under ``root``."""
    rows, tables, errata = read_data(root)
    return unmarked_readings(rows, tables, errata) + shared_problems(errata)
