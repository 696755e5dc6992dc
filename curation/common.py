"""Shared helpers for turning raw table cells into rows of the data model.

Every parser here is strict: it returns a value only when the cell's meaning
is certain and raises ``CellError`` otherwise, so the document's curation
module must decide (and record an erratum) for anything unusual. Nothing is
rounded: values are kept as printed, only converted between units.

Units: CPU in cores (1000m = 1 core); memory in GiB (1 Gi = 1 GiB,
1024 Mi = 1 GiB, 1 Ti = 1024 GiB); latency in ms (1 s = 1000 ms).
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
SCHEMAS = DATA / "schemas"
SEEDS = Path(os.environ.get("ATLAS_SEEDS") or ROOT.parent / "shared" / "seeds")
"""The seed texts: ../shared/seeds beside the repository, or $ATLAS_SEEDS (e.g. from a git worktree)."""
SOURCES = DATA / "sources.yaml"
"""One entry per document: its ``id`` (the data/<id>/ folder and curation.<id> module) and ``seed_file``."""


def sources() -> list[dict]:
    """The entries of data/sources.yaml, in its order."""
    return yaml.safe_load(SOURCES.read_text(encoding="utf-8"))


def seed_path(doc: str, seeds: Path | None = None) -> Path:
    """The seed text of ``doc``: its ``seed_file`` in data/sources.yaml, inside ``seeds``
    (default ``SEEDS``). Raises KeyError for a document sources.yaml does not list and
    FileNotFoundError, naming the file and $ATLAS_SEEDS, when the seed is not there."""
    entry = next((s for s in sources() if s["id"] == doc), None)
    if entry is None:
        raise KeyError(f"document {doc!r} is not in {SOURCES}")
    p = (SEEDS if seeds is None else seeds) / entry["seed_file"]
    if not p.is_file():
        raise FileNotFoundError(f"seed of {doc!r} ({entry['seed_file']}, its seed_file in data/sources.yaml) is missing: "
                                f"{p} (set ATLAS_SEEDS to the seeds folder, default ../shared/seeds beside the repository)")
    return p


class CellError(ValueError):
    """A cell whose meaning is not certain under the rule asked for."""


def num(text: str) -> float:
    """Parse a plain decimal number ('12', '0.128', '1,024'). Raises CellError."""
    t = text.strip().replace(",", "")
    if not re.fullmatch(r"\d+(\.\d+)?", t):
        raise CellError(f"not a plain number: {text!r}")
    d = Decimal(t)
    return int(d) if d == d.to_integral_value() and "." not in t else float(d)


def integer(text: str) -> int:
    """Parse a whole count such as a replica number. Raises CellError."""
    t = text.strip()
    if not re.fullmatch(r"\d+", t):
        raise CellError(f"not a whole number: {text!r}")
    return int(t)


def cpu_cores(text: str, bare_unit: str = "cores") -> float:
    """CPU cell to cores: '3' -> 3, '0.2' -> 0.2, '200m' -> 0.2, '2500m' -> 2.5.

    ``bare_unit`` says what a number without suffix means ('cores' or
    'millicores'); the curator passes 'millicores' only for tables where the
    erratum records that reading. Raises CellError for anything else.
    """
    t = text.strip().replace(" ", "")
    m = re.fullmatch(r"(\d+(?:\.\d+)?)m", t)
    if m:
        return _clean(Decimal(m.group(1)) / 1000)
    v = Decimal(str(num(t)))
    if bare_unit == "millicores":
        return _clean(v / 1000)
    if bare_unit != "cores":
        raise ValueError(f"unknown bare CPU unit {bare_unit!r}")
    return _clean(v)


MEM_FACTORS = {"gi": Decimal(1), "g": None, "mi": Decimal(1) / 1024, "ti": Decimal(1024), "gb": None}


def mem_gib(text: str, bare_unit: str = "GiB") -> float:
    """Memory cell to GiB: '17Gi' -> 17, '256Mi' -> 0.25, '1 Gi' -> 1, '512 Mi' -> 0.5,
    '11520Mi' -> 11.25; a bare number takes ``bare_unit`` ('GiB' or 'MiB').

    Decimal units (GB, G) are refused: converting them would change the
    printed value's meaning. Raises CellError.
    """
    t = text.strip().replace(" ", "")
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(Gi|Mi|Ti)", t)
    if m:
        return _clean(Decimal(m.group(1)) * MEM_FACTORS[m.group(2).lower()])
    v = Decimal(str(num(t)))
    if bare_unit == "GiB":
        return _clean(v)
    if bare_unit == "MiB":
        return _clean(v / 1024)
    raise ValueError(f"unknown bare memory unit {bare_unit!r}")


def percent(text: str) -> float:
    """'19.97%' -> 19.97, '40 %' -> 40. Raises CellError for anything else."""
    t = text.strip()
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*%", t)
    if not m:
        raise CellError(f"not a percentage: {text!r}")
    return num(m.group(1))


def abs_and_percent(text: str) -> tuple[float, float]:
    """'14.7 (45.9 %)' -> (14.7, 45.9). Raises CellError."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*\((\d+(?:\.\d+)?)\s*%\)", text.strip())
    if not m:
        raise CellError(f"not 'value (percent %)': {text!r}")
    return num(m.group(1)), num(m.group(2))


def k_number(text: str) -> float:
    """'1.24K' -> 1240, '7.298K' -> 7298, '950' -> 950. Raises CellError."""
    t = text.strip()
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[Kk]", t)
    if m:
        return _clean(Decimal(m.group(1)) * 1000)
    return num(t)


COUNT_SCALE = {None: Decimal(1), "K": Decimal(1000), "M": Decimal(1000000), "million": Decimal(1000000)}
"""Multipliers a printed count may carry: '7M' and '1 million' are 7,000,000 and 1,000,000, '4K' is 4,000."""


def count_number(text: str) -> tuple[int | float, bool]:
    """A printed count to (value, approx): '~50000000' -> (50000000, True), '7M' -> (7000000, False),
    '1 million' -> (1000000, False), '200,000' -> (200000, False), '12591141' -> (12591141, False).

    A leading '~' is kept as approx=True; K, M and the word 'million' scale the number (COUNT_SCALE); commas
    are thousands separators only between groups of three digits. Raises CellError for anything else ('NA',
    '10M+', a number with words)."""
    m = re.fullmatch(r"\s*(~)?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(?:(K|M)|\s(million))?\s*", text)
    if not m:
        raise CellError(f"not a count: {text!r}")
    d = Decimal(m.group(2).replace(",", "") + (m.group(3) or "")) * COUNT_SCALE[m.group(4) or m.group(5)]
    return _clean(d), bool(m.group(1))


def printed_counts(raw: str, what: str) -> list[dict]:
    """Every number a 'how many were held' cell prints, as {value, what, approx, raw[, site], status}, in print
    order (status 'ok': the caller marks a count it reads through an erratum 'corrected', with the id in note).

    ``what`` names what a bare number counts (from the row label: 'subscribers' for 'Active Subscribers');
    a number printed with words names its own ('7M subscribers and 14M sessions' -> 7000000 subscribers and
    14000000 sessions). Forms read:
      - one count: '~50000000', '32M', '1 million subscription records';
      - counts joined by ' and ': '7M subscribers and 14M sessions';
      - per-site counts and their printed sum: '393590 (Site1) + 393589 (Site2) = 787179' -> one entry per
        number, the site counts with ``site``, the sum without (it counts the whole run).
    Values via ``count_number`` (approx from '~'). Raises CellError for any other form, for a cell that
    prints no number ('NA': the caller records it as missing) and for a printed sum that the parts do not
    add up to."""
    text = raw.strip()
    if "=" in text:
        left, _, right = text.partition("=")
        out = []
        for part in left.split("+"):
            m = re.fullmatch(r"\s*(.+?)\s*\(([^)]*)\)\s*", part)
            if not m:
                raise CellError(f"not 'count (SiteN)': {part!r} in {raw!r}")
            value, approx = count_number(m.group(1))
            out.append({"value": value, "what": what, "approx": approx, "raw": part.strip(), "site": site_from_label(m.group(2)),
                        "status": "ok"})
        total, approx = count_number(right)
        parts = sum(Decimal(str(e["value"])) for e in out)
        if parts != Decimal(str(total)):
            raise CellError(f"{raw!r}: the parts add up to {parts}, not the printed {right.strip()}")
        return out + [{"value": total, "what": what, "approx": approx, "raw": right.strip(), "status": "ok"}]
    out = []
    for part in re.split(r"\s+and\s+", text):
        m = re.fullmatch(r"(~?\s*[\d,.]+(?:\s*[KM]\b|\s+million\b)?)(?:\s+([A-Za-z][A-Za-z ]*))?", part.strip())
        if not m:
            raise CellError(f"not a count: {part!r} in {raw!r}")
        value, approx = count_number(m.group(1))
        out.append({"value": value, "what": m.group(2) or what, "approx": approx, "raw": part.strip(), "status": "ok"})
    return out


def _clean(d: Decimal) -> float:
    """Decimal to int when whole, else float, without binary noise."""
    d = d.normalize()
    if d == d.to_integral_value():
        return int(d)
    return float(d)


@dataclass
class Curated:
    """Everything one document contributes to data/<doc>/, collected in memory.

    ``write()`` replaces the folder's files only after every file has been
    rendered, so a failing curation leaves the previous data in place.
    """

    doc: str
    rows: dict[str, list[dict]] = field(default_factory=dict)
    tables: list[dict] = field(default_factory=list)
    scenarios: list[dict] = field(default_factory=list)
    services: list[dict] = field(default_factory=list)
    errata: list[dict] = field(default_factory=list)

    def add(self, kind: str, **row) -> dict:
        """Append a row of ``kind`` (resources, utilization, ...); returns it."""
        row = {"doc": self.doc, **row}
        self.rows.setdefault(kind, []).append(row)
        return row

    def erratum(self, **e) -> str:
        """Record a source defect; returns its id (<doc>-E001, ...)."""
        eid = f"{self.doc}-E{len(self.errata) + 1:03d}"
        self.errata.append({"id": eid, "doc": self.doc, **e})
        return eid

    def write(self, root: Path = DATA) -> None:
        """Write <root>/<doc>/<kind>.csv and the YAML files, columns in schema order.

        ``root`` is the output folder, the repository's data/ unless given: pass another
        (e.g. a temporary folder) to curate without touching data/, as the test that
        checks data/ is reproduced does. Nothing else is written outside ``root``.
        """
        out = root / self.doc
        rendered: dict[str, str] = {}
        for kind, rows in sorted(self.rows.items()):
            schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text())
            names = [f["name"] for f in schema["fields"]]
            extra = {k for r in rows for k in r} - set(names)
            if extra:
                raise ValueError(f"{self.doc}/{kind}: columns not in the schema: {sorted(extra)}")
            buf = io.StringIO()
            w = csv.DictWriter(buf, fieldnames=names, lineterminator="\n")
            w.writeheader()
            for r in rows:
                w.writerow({k: _csv_value(r.get(k)) for k in names})
            rendered[f"{kind}.csv"] = buf.getvalue()
        for name, items in (("tables", self.tables), ("scenarios", self.scenarios),
                            ("services", self.services), ("errata", self.errata)):
            rendered[f"{name}.yaml"] = yaml.safe_dump(items, sort_keys=False, allow_unicode=True, width=100)
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.csv"):
            if old.name not in rendered:
                old.unlink()
        for name, text in rendered.items():
            (out / name).write_text(text, encoding="utf-8")


def _csv_value(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return v


def site_from_label(label: str) -> str:
    """'Site1', 'Site 2', 'site-3' -> 'site1'.. Raises CellError."""
    m = re.search(r"[Ss]ite[\s-]*(\d+)", label)
    if not m:
        raise CellError(f"no site in {label!r}")
    return f"site{int(m.group(1))}"


def table_entry(t, doc: str, scenario: str | None, kind: str, title: str | None = None, **extra) -> dict:
    """Catalogue record for a segmented table (see data/schemas/tables.schema.json)."""
    e = {
        "id": t.id, "doc": doc, "scenario": scenario, "section": t.section,
        "caption": t.caption, "title": title or t.caption or t.section_title or t.id,
        "kind": kind, "lines": [t.first_line, t.last_line], "segments": t.segments,
        "rows": len(t.rows), "header": t.header,
    }
    e.update(extra)
    return e


def resource_header(h: str) -> tuple[str, str] | None:
    """Classify a resource-allocation column header by its words, not its position.

    Returns (container, field) where container is 'app' or 'istio-proxy' and
    field one of replicas, replicas_min, replicas_max, cpu_request, cpu_limit,
    cpu_request_limit (one value for both), cpu, mem_request, mem_limit,
    mem_request_limit, mem, storage; None for a label column.
    Raises CellError for a header it cannot read.
    """
    x = h.lower()
    container = "istio-proxy" if ("istio" in x or "isito" in x) else "app"
    if "replica" in x:
        if "min" in x:
            return container, "replicas_min"
        if "max" in x:
            return container, "replicas_max"
        return container, "replicas"
    if "storage" in x:
        return container, "storage"
    kind = "cpu" if "cpu" in x else "mem" if "memory" in x else None
    if kind is None:
        return None
    req, lim = "request" in x, "limit" in x
    if req and lim:
        return container, f"{kind}_request_limit"
    if req:
        return container, f"{kind}_request"
    if lim:
        return container, f"{kind}_limit"
    return container, kind


def header_mem_unit(h: str) -> str | None:
    """'Memory Request Per Pod (Gi)' -> 'GiB'; None when the header names no unit."""
    if re.search(r"\(\s*gi\s*\)", h, re.I):
        return "GiB"
    if re.search(r"\(\s*mi\s*\)", h, re.I):
        return "MiB"
    return None
