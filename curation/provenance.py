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
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

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
    return re.sub(r"\s+", "", text)


def quote_problems(errata: list[dict], seed_lines: dict[str, list[str]]) -> list[str]:
    """Errata whose raw text is not found, whitespace aside, in the seed lines they cite.

    ``seed_lines`` maps a document id to its seed's lines (index 0 = line 1).
    Returns one message per erratum (empty list when every quote holds)."""
    out = []
    for e in errata:
        lines = seed_lines.get(e["doc"])
        if lines is None:
            continue
        cited = e.get("lines") or []
        if not cited:
            out.append(f"{e['id']}: cites no seed lines")
            continue
        bad = [n for n in cited if not 1 <= n <= len(lines)]
        if bad:
            out.append(f"{e['id']}: cites lines {bad} outside the seed (1..{len(lines)})")
            continue
        text = _squash("".join(lines[n - 1] for n in sorted(set(cited))))
        quotes = [q for q in (_squash(x) for x in e["raw"].split("\n")) if q]
        missing = [q for q in quotes if q not in text]
        if not quotes or missing:
            out.append(f"{e['id']}: raw {(missing or [e['raw']])[0][:80]!r} not in its lines {cited}")
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
