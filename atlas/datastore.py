"""Load and validate everything under data/ for the site build and the tests.

``load(root)`` returns an ``Atlas``: pandas DataFrames per kind of table
(all documents concatenated) plus the YAML records. Validation is strict and
happens before anything is rendered: a CSV row that breaks its Frictionless
Table Schema, a YAML record that breaks its JSON Schema, a reference to a
scenario, table or erratum that does not exist, a table whose rows are not the
ones tables.yaml counts, a value outside its physical range (the schemas' range
rules: a limit below its request, a percentage of a limit over 100 %, a site the
scenario does not have), or a citation its seed does not print (the seeds,
where the build has them) raises ``DataError`` naming the file, the row and the
column. Nothing is written while loading.
"""
from __future__ import annotations

import csv
import io
import json
import logging
import math
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jsonschema
import pandas as pd
import yaml
from frictionless import Resource, Schema

from calculators.partial import USABLE
# at import: MkDocs loads the build hooks with the root on sys.path
from curation import common as curation_common
from curation.pipetables import read_lines
from curation.provenance import citation_problems, shared_problems, unmarked_readings

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
KINDS = ["resources", "utilization", "latency", "db_operations", "measurements", "settings"]
KIND_LABEL = {  # each kind (and "excluded": a table not curated) as pages and downloads name it
    "resources": "Resource allocation", "utilization": "Utilization", "latency": "Latency",
    "db_operations": "Database operations", "measurements": "Measurements", "settings": "Settings", "excluded": "Not curated"}
RECORDS = ["tables", "scenarios", "services", "errata"]
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it (same results, several times faster)."""


class DataError(Exception):
    """A data file breaks its schema or references something that does not exist."""


class _UniqueKeyLoader(SAFE_LOADER):
    """The safe loader, refusing a mapping that names a key twice (PyYAML keeps the last one)."""

    def construct_mapping(self, node, deep=False):
        """A mapping as PyYAML builds it; raises yaml.constructor.ConstructorError naming a key given twice."""
        seen: dict = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                m = key_node.start_mark
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice (first on line {seen[key] + 1}); the second would silently win", m)
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


def _text(path: Path, csv_header: bool = False) -> str:
    """The file as UTF-8 text. A byte that is not UTF-8 raises DataError naming its line and byte
    (1-based), or for a CSV (``csv_header``) its row (header = row 1) and column."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        start = raw.rfind(b"\n", 0, e.start) + 1
        where = f"line {line}, byte {e.start - start + 1}"
        if csv_header:
            header = next(csv.reader([raw[: raw.find(b"\n")].decode("utf-8", "replace")]), [])
            cells = next(csv.reader([raw[start:e.start].decode("utf-8", "replace")]), [""])
            col = header[len(cells) - 1] if 0 < len(cells) <= len(header) else f"{len(cells)}"
            where = f"row {line}, column {col}"
        raise DataError(f"{path}: {where}: not UTF-8 (byte 0x{raw[e.start]:02x}, as Latin-1 or Windows-1252 write "
                        f"accented letters; save the file as UTF-8)") from None


def _yaml(path: Path):
    """Parse a YAML file strictly (UTF-8, no duplicate keys); DataError naming line and column."""
    try:
        return yaml.load(_text(path), Loader=_UniqueKeyLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise DataError(f"{path}: {where}not valid YAML: {getattr(e, 'problem', None) or e}") from None


@dataclass
class Atlas:
    """All curated data. ``frames[kind]`` is one DataFrame over every document."""

    root: Path
    sources: list[dict]
    frames: dict[str, pd.DataFrame]
    tables: list[dict] = field(default_factory=list)
    scenarios: list[dict] = field(default_factory=list)
    services: list[dict] = field(default_factory=list)
    errata: list[dict] = field(default_factory=list)
    extras: dict[str, dict] = field(default_factory=dict)
    seeds: Path | None = None
    """The seeds folder every citation was checked against; None when the build had no seeds (``seeds_folder``)."""
    _by_table: dict = field(default_factory=dict, repr=False)

    def docs(self) -> list[str]:
        """Document ids that have curated data, in sources.yaml order."""
        have = {s["doc"] for s in self.scenarios} | {t["doc"] for t in self.tables}
        return [s["id"] for s in self.sources if s["id"] in have]

    def source(self, doc: str) -> dict:
        """The sources.yaml entry of document ``doc``. Raises StopIteration for an unknown id."""
        return next(s for s in self.sources if s["id"] == doc)

    def schema(self, name: str) -> dict:
        """data/schemas/<name>.schema.json as this data is validated with it: its document ids are those of this
        data's sources.yaml (``_schema``). A new dict on every call."""
        return _schema(name, [s["id"] for s in self.sources])

    def scenario(self, sid: str) -> dict:
        """The scenario record ``sid`` (scenarios.yaml, with its ``doc``). Raises KeyError for an unknown id."""
        for s in self.scenarios:
            if s["id"] == sid:
                return s
        raise KeyError(f"unknown scenario {sid!r}")

    def table(self, doc: str, tid: str) -> dict:
        """The tables.yaml record of table ``tid`` of ``doc``. Raises KeyError for an unknown table."""
        for t in self.tables:
            if t["doc"] == doc and t["id"] == tid:
                return t
        raise KeyError(f"unknown table {doc}/{tid}")

    def rows(self, kind: str, **eq) -> pd.DataFrame:
        """Rows of ``kind`` filtered by column equality, e.g. rows('resources', scenario='bsf-3-3').

        Filters on doc and table_id (every rendered table asks for them) use an index built
        once per kind instead of scanning the whole frame."""
        df = self.frames[kind]
        if "doc" in eq and "table_id" in eq:
            index = self._by_table.get(kind)
            if index is None:
                index = self._by_table[kind] = df.groupby(["doc", "table_id"], sort=False).indices if len(df) else {}
            df = df.iloc[index.get((eq.pop("doc"), eq.pop("table_id")), [])]
        for k, v in eq.items():
            df = df[df[k] == v]
        return df


SCHEMAS = DATA / "schemas"
"""The schemas (data/schemas/README.md): ``<name>.schema.json`` validates data/<doc>/<name>.csv (a Frictionless Table
Schema) or .yaml (a JSON Schema); ``<name>.csv.schema.json`` is the Table Schema of a record file flattened to
downloads/csv/<name>.csv."""
NUMERIC = ("integer", "number")


def _shown(p: Path) -> str:
    return str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p)


def _enum_at(ref: str, where: str) -> list:
    """The ``enum`` that ``ref`` (``<file>#<JSON pointer>``, a file of data/schemas) points at; DataError naming
    ``where`` (schema file and field) when the file, the pointer or the enum is not there."""
    name, _, pointer = ref.partition("#")
    p = SCHEMAS / name
    node = json.loads(p.read_text(encoding="utf-8")) if p.is_file() else None
    for part in pointer.strip("/").split("/") if node is not None else []:
        node = node.get(part.replace("~1", "/").replace("~0", "~")) if isinstance(node, dict) else None
    if not isinstance(node, dict) or not isinstance(node.get("enum"), list):
        raise DataError(f"{where}: enumFrom {ref!r} names no enum (a file of data/schemas, '#', a JSON pointer to a "
                        f"node with an enum)")
    return list(node["enum"])


def _schema(name: str, doc_ids: list[str] | None = None) -> dict:
    """data/schemas/<name>.schema.json as the data is validated and published with it, a new dict on every call.

    * ``"enumFrom"`` on a node (a JSON Schema property, a Table Schema field) becomes its enum (a Table Schema field's
      ``constraints.enum``): ``"sources"`` the document ids ``doc_ids`` (the ids of the data's sources.yaml, in its
      order: the one list of documents), ``"<file>#<JSON pointer>"`` the enum of another schema (a flattened record
      file keeps the enums of its JSON Schema).
    * In a Table Schema (one with ``fields``) every numeric field names its ``unit`` (the downloads, the workbook's
      headers and the data dictionary print it).

    Raises DataError naming the schema file and the field: a numeric field without a unit, an enumFrom that names
    no enum. Raises ValueError for ``"enumFrom": "sources"`` without ``doc_ids``."""
    p = SCHEMAS / f"{name}.schema.json"
    d = json.loads(p.read_text(encoding="utf-8"))
    table = "fields" in d

    def resolve(node: dict, where: str) -> None:
        ref = node.pop("enumFrom", None)
        if ref is None:
            return
        if ref == "sources" and doc_ids is None:
            raise ValueError(f"{where}: its enum is the document ids; pass doc_ids")
        values = list(doc_ids) if ref == "sources" else _enum_at(ref, where)
        if table:
            node.setdefault("constraints", {})["enum"] = values
        else:
            node["enum"] = values

    if table:
        for f in d["fields"]:
            resolve(f, f"{_shown(p)}: field {f.get('name')}")
    else:
        todo: list[tuple[object, str]] = [(d, "")]
        while todo:
            node, pointer = todo.pop()
            if isinstance(node, dict):
                resolve(node, f"{_shown(p)}: at {pointer or '/'}")
                todo += [(v, f"{pointer}/{k}") for k, v in node.items()]
            elif isinstance(node, list):
                todo += [(v, f"{pointer}/{i}") for i, v in enumerate(node)]
    for f in d.get("fields") or []:
        if f.get("type") in NUMERIC and not f.get("unit"):
            raise DataError(f"{_shown(p)}: field {f['name']}: {f['type']} but no \"unit\"; every numeric field names its "
                            f"unit (e.g. \"unit\": \"cores\" or \"unit in column unit\")")
    return d


NON_EMPTY = {"sources", "scenarios", "tables", "services"}
"""Record files that are never empty where they exist: an empty one is a mistake (a truncated save),
not 'no records' (errata.yaml may be empty: a document without errata)."""


def _unknown_doc(value, doc_ids: list[str], sources: Path) -> str:
    return f"unknown document {value!r}; the documents are the ids of {sources}: {', '.join(doc_ids)}"


def _validate_yaml(path: Path, schema_name: str, doc_ids: list[str] | None = None):
    """The records of the YAML file ``path``, checked against data/schemas/<schema_name>.schema.json (its enum of
    document ids being ``doc_ids``, sources.yaml's: a document id it does not list is named as unknown).
    Raises DataError naming the file, the item and the field."""
    items = _yaml(path)
    if not items:
        if schema_name in NON_EMPTY:
            raise DataError(f"{path}: line 1, item 1: the file is empty; it should list the {schema_name}")
        items = []
    v = jsonschema.Draft202012Validator(_schema(schema_name, doc_ids))
    errs = sorted(v.iter_errors(items), key=lambda e: list(e.absolute_path))
    if errs:
        e = errs[0]
        where = list(e.absolute_path)
        item = f"item {where[0] + 1}" if where and isinstance(where[0], int) else "top level"
        fieldpath = ".".join(str(p) for p in where[1:]) or "(record)"
        if e.validator == "required":  # the missing field is the one to name, not the record holding it
            missing = re.search(r"'([^']+)' is a required property", e.message)
            fieldpath = ".".join([*(str(p) for p in where[1:]), missing.group(1)]) if missing else fieldpath
        what = e.message
        if e.validator == "enum" and doc_ids is not None and e.validator_value == list(doc_ids):
            what = _unknown_doc(e.instance, doc_ids, path.parent.parent / "sources.yaml")
        raise DataError(f"{path}: {item}, field {fieldpath}: {what}"
                        + (f" ({len(errs) - 1} more errors)" if len(errs) > 1 else ""))
    return items


NON_FINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}


def _precheck_csv(path: Path, descriptor: dict, doc_ids: list[str]) -> list[list[str]]:
    """What Frictionless lets through or reports without a place or the value: a byte that is not UTF-8, a
    header that differs from the schema's columns, no data row at all, a document id that sources.yaml does not
    list (``doc_ids``), a number cell that is nan or inf, a row repeated whole, and two rows with the same primary
    key (the schema's primaryKey). Returns the file's rows as text (the header first). Raises DataError naming
    file, row (header = row 1) and column."""
    rows = list(csv.reader(io.StringIO(_text(path, csv_header=True), newline="")))
    names = [f["name"] for f in descriptor["fields"]]
    header = rows[0] if rows else []
    for i, name in enumerate(names):
        if name not in header:
            raise DataError(f"{path}: row 1, column {name}: missing from the header (data/schemas/{descriptor.get('title', '?')}.schema.json "
                            f"lists it as column {i + 1})")
    extra = [h for h in header if h not in names]
    if extra or header != names:
        what = f"column {extra[0]}: not in the schema" if extra else "columns out of the schema's order"
        raise DataError(f"{path}: row 1, {what} (expected {', '.join(names)})")
    if len(rows) < 2:
        raise DataError(f"{path}: row 2, every column: no data rows, only the header (delete the file if the document has none)")
    numeric = [i for i, f in enumerate(descriptor["fields"]) if f["type"] in ("number", "integer")]
    key = [names.index(k) for k in descriptor.get("primaryKey", [])]
    doc = names.index("doc") if "doc" in names else None
    seen_rows: dict[tuple, int] = {}
    seen_keys: dict[tuple, int] = {}
    for n, r in enumerate(rows[1:], 2):
        if len(r) != len(names):
            continue  # Frictionless names it (extra or missing cells)
        if doc is not None and r[doc] not in doc_ids:
            raise DataError(f"{path}: row {n}, column doc: {_unknown_doc(r[doc], doc_ids, path.parent.parent / 'sources.yaml')}")
        for i in numeric:
            if r[i].strip().lower() in NON_FINITE:
                raise DataError(f"{path}: row {n}, column {names[i]}: '{r[i]}' is not a number (leave the cell empty for a value the guide does not give)")
        t = tuple(r)
        if t in seen_rows:
            raise DataError(f"{path}: row {n}, every column: repeats row {seen_rows[t]} exactly")
        seen_rows[t] = n
        if key:
            k = tuple(r[i] for i in key)
            if k in seen_keys:
                first = rows[seen_keys[k] - 1]
                col = next(names[i] for i in range(len(names)) if r[i] != first[i])
                raise DataError(f"{path}: row {n}, column {col}: same key ({', '.join(f'{names[i]}={r[i]!r}' for i in key)}) as row "
                                f"{seen_keys[k]}, with a different value ({first[names.index(col)]!r} there, {r[names.index(col)]!r} here)")
            seen_keys[k] = n
    return rows


def _validate_csv(path: Path, kind: str, doc_ids: list[str]) -> tuple[pd.DataFrame, list[dict]]:
    """The rows of the CSV file ``path`` of ``kind``, checked against data/schemas/<kind>.schema.json (its enum of
    document ids being ``doc_ids``, sources.yaml's): typed as the schema says, and as text (one dict per row, as
    csv.DictReader gives them: what the provenance checks read). Raises DataError naming the file, the row and the
    column."""
    descriptor = _schema(kind, doc_ids)
    text_rows = _precheck_csv(path, descriptor, doc_ids)
    report = Resource(path=path.name, basepath=str(path.parent), schema=Schema.from_descriptor(descriptor)).validate()
    if not report.valid:
        errs = report.flatten(["rowNumber", "fieldName", "type", "note", "message"])
        row, col, typ, note, msg = errs[0]
        raise DataError(f"{path}: row {row}, column {col}: {typ}: {note or msg}"
                        + (f" ({len(errs) - 1} more errors)" if len(errs) > 1 else ""))
    dtypes = {}
    for f in descriptor["fields"]:
        dtypes[f["name"]] = {"integer": "Int64", "number": "float64", "boolean": "boolean"}.get(f["type"], "string")
    df = pd.read_csv(path, dtype={k: ("string" if v == "boolean" else v) for k, v in dtypes.items()},
                     keep_default_na=False, na_values={k: [""] for k in dtypes})
    for k, v in dtypes.items():
        if v == "boolean":
            df[k] = df[k].map({"true": True, "false": False}).astype("boolean")
        if v == "string":
            df[k] = df[k].fillna("").astype(str)
    df.attrs["path"] = str(path)
    return df, [dict(zip(text_rows[0], r)) for r in text_rows[1:]]


def load(root: Path | str = DATA, seeds: Path | str | None = None) -> Atlas:
    """Load and validate data/ (or another folder of the same shape), its citations against the seeds in ``seeds``
    (default ``seeds_folder()``: $ATLAS_SEEDS, else ../shared/seeds beside the repository, as curation finds them).

    Raises DataError for the first problem found, naming file, row and column, and how many more its check found.
    Without seeds (no $ATLAS_SEEDS and no ../shared/seeds) every check but the citations runs, and a warning says
    so; ``seeds`` given or $ATLAS_SEEDS set but not a folder raises DataError.
    """
    root = Path(root)
    sources = _validate_yaml(root / "sources.yaml", "sources")
    doc_ids = [s["id"] for s in sources]
    for i, s in enumerate(sources):
        if s["id"] in doc_ids[:i]:
            raise DataError(f"{root / 'sources.yaml'}: item {i + 1}, field id: document id {s['id']!r} is already used by "
                            f"item {doc_ids.index(s['id']) + 1}")
    frames: dict[str, list[pd.DataFrame]] = {k: [] for k in KINDS}
    text_rows: dict[str, list[dict]] = {}
    recs: dict[str, list[dict]] = {k: [] for k in RECORDS}
    extras: dict[str, dict] = {}
    known_docs = set(doc_ids)
    for d in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "schemas"):
        if d.name not in known_docs:
            raise DataError(f"{d}: folder for a document that data/sources.yaml does not list")
        for kind in KINDS:
            p = d / f"{kind}.csv"
            if p.exists():
                df, as_text = _validate_csv(p, kind, doc_ids)
                bad = df[df["doc"] != d.name]
                if len(bad):
                    raise DataError(f"{p}: row {bad.index[0] + 2}, column doc: '{bad.iloc[0]['doc']}' in the folder of '{d.name}'")
                frames[kind].append(df)
                text_rows.setdefault(kind, []).extend(as_text)
        for name in RECORDS:
            p = d / f"{name}.yaml"
            if p.exists():
                items = _validate_yaml(p, name, doc_ids)
                for i, it in enumerate(items, 1):
                    if it.get("doc") != d.name:
                        raise DataError(f"{p}: item {i}, field doc: '{it.get('doc')}' in the folder of '{d.name}'")
                recs[name].extend(items)
        for p in sorted(d.glob("*.yaml")):
            if p.stem not in RECORDS:
                has_schema = (SCHEMAS / f"{p.stem}.schema.json").exists()
                extras.setdefault(d.name, {})[p.stem] = _validate_yaml(p, p.stem, doc_ids) if has_schema else _yaml(p)
    empty = {k: pd.DataFrame({f["name"]: pd.Series(dtype="object") for f in _schema(k, doc_ids)["fields"]}) for k in KINDS}
    atlas = Atlas(root=root, sources=sources,
                  frames={k: (pd.concat(v, ignore_index=True) if v else empty[k]) for k, v in frames.items()},
                  extras=extras, **recs)
    _check_references(atlas, root)
    _check_table_rows(atlas, root)
    _check_ranges(atlas, root)
    atlas.seeds = _check_citations(atlas, root, text_rows, seeds)
    _check_provenance(atlas, text_rows)
    return atlas


def _where(root: Path, items: list[dict], name: str) -> list[str]:
    """'<root>/<doc>/<name>.yaml: item <n>' for each record (n counts within its own file)."""
    count: dict[str, int] = {}
    out = []
    for it in items:
        count[it["doc"]] = count.get(it["doc"], 0) + 1
        out.append(f"{root / it['doc'] / (name + '.yaml')}: item {count[it['doc']]}")
    return out


def _unique(root: Path, items: list[dict], name: str, key: tuple[str, ...], what: str) -> None:
    """DataError naming both places when two records of ``name``.yaml share ``key``."""
    first: dict[tuple, str] = {}
    for it, where in zip(items, _where(root, items, name)):
        k = tuple(it.get(f) for f in key)
        if k in first:
            raise DataError(f"{where}, field {key[-1]}: {what} {k[-1]!r} is already used by {first[k]}")
        first[k] = where


def _check_references(a: Atlas, root: Path) -> None:
    """Ids unique, every scenario, table and erratum a record or row names exists, rows filed under their table's
    scenario, and the sites a scenario names are its own (``_check_sites``). Raises DataError naming the file, the
    record or row, and the field or column."""
    _unique(root, a.scenarios, "scenarios", ("id",), "scenario id")
    _unique(root, a.tables, "tables", ("doc", "id"), "table id")
    _unique(root, a.errata, "errata", ("id",), "erratum id")
    _unique(root, a.services, "services", ("doc", "service"), "service")
    scen_ids = [s["id"] for s in a.scenarios]
    scen = set(scen_ids)
    tables = {(t["doc"], t["id"]) for t in a.tables}
    table_scenario = {(t["doc"], t["id"]): t.get("scenario") for t in a.tables}
    errata = {e["id"] for e in a.errata}
    for s in a.scenarios:
        for tid in s["tables"]:
            if (s["doc"], tid) not in tables:
                raise DataError(f"{root / s['doc'] / 'scenarios.yaml'}: scenario {s['id']}, field tables: unknown table '{tid}'")
    for t in a.tables:
        if t.get("scenario") and t["scenario"] not in scen:
            raise DataError(f"{root / t['doc'] / 'tables.yaml'}: table {t['id']}, field scenario: unknown scenario '{t['scenario']}'")
    for e in a.errata:
        if not e["id"].startswith(f'{e["doc"]}-E'):
            # the errata page reads an erratum's document from its id (atlas/pages/data.py ERRATA_FACET_COLS)
            raise DataError(f"{root / e['doc'] / 'errata.yaml'}: erratum {e['id']}, field id: an erratum id starts with "
                            f"its document's id, '{e['doc']}-E'")
        if e.get("scenario") and e["scenario"] not in scen:
            raise DataError(f"{root / e['doc'] / 'errata.yaml'}: erratum {e['id']}, field scenario: unknown scenario '{e['scenario']}'")
        if e.get("table_id") and (e["doc"], e["table_id"]) not in tables:
            raise DataError(f"{root / e['doc'] / 'errata.yaml'}: erratum {e['id']}, field table_id: unknown table '{e['table_id']}'")
    for kind, df in a.frames.items():
        if df.empty:
            continue
        for col, known, what in (("scenario", scen, "scenario"),):
            vals = df[col]
            bad = df[(vals != "") & ~vals.isin(known)]
            if len(bad):
                r = bad.iloc[0]
                raise DataError(f"{root / r['doc'] / (kind + '.csv')}: row {_file_row(df, bad.index[0])}, column {col}: unknown {what} '{r[col]}'")
        keys = list(zip(df["doc"], df["table_id"]))
        for i, (k, sc) in enumerate(zip(keys, df["scenario"])):
            if k not in tables:
                raise DataError(f"{root / k[0] / (kind + '.csv')}: row {_file_row(df, df.index[i])}, column table_id: '{k[1]}' is not in tables.yaml")
            want = table_scenario[k]
            if want and sc and sc != want:
                raise DataError(f"{root / k[0] / (kind + '.csv')}: row {_file_row(df, df.index[i])}, column scenario: '{sc}', "
                                f"but tables.yaml gives table {k[1]} to scenario '{want}'")
        notes = df["note"]
        for i, n in notes.items():
            for token in re.findall(r"\b([a-z]+-E\d{3})\b", n):
                if token.split("-E")[0] in {s["id"] for s in a.sources} and token not in errata:
                    raise DataError(f"{root / df.at[i, 'doc'] / (kind + '.csv')}: row {_file_row(df, i)}, column note: unknown erratum '{token}'")
    _check_sites(a, root)


def _file_row(df: pd.DataFrame, idx) -> int:
    """Row number in the source CSV file (header = row 1) for a concatenated frame index."""
    doc = df.at[idx, "doc"]
    first = df.index[df["doc"] == doc][0]
    return int(idx - first) + 2


def _first(problems: list[str]) -> None:
    """DataError with the first of ``problems`` and how many more, when there are any."""
    if problems:
        raise DataError(problems[0] + (f" ({len(problems) - 1} more)" if len(problems) > 1 else ""))


def _check_sites(a: Atlas, root: Path) -> None:
    """The sites a scenario names are sites it has: each of its ``sites_with_traffic`` is one of the
    ``sites_provisioned`` (site1 to siteN) or, where the guide gives no count, one its data rows print; and no data row
    prints a site beyond the count of its scenario. Raises DataError naming the file, the scenario or row, and the
    field or column."""
    printed: dict[str, set[str]] = {}
    for df in a.frames.values():
        if "site" in df.columns and len(df):
            for sid, site in df.loc[(df["site"] != "") & (df["scenario"] != ""), ["scenario", "site"]].drop_duplicates().itertuples(index=False):
                printed.setdefault(sid, set()).add(site)
    count = {s["id"]: s.get("sites_provisioned") for s in a.scenarios}
    problems = []
    for s in a.scenarios:
        n, shown = s.get("sites_provisioned"), sorted(printed.get(s["id"], ()), key=lambda x: int(x[4:]))
        for site in s.get("sites_with_traffic") or []:
            if n is not None and not 1 <= int(site[4:]) <= n:
                problems.append(f"{root / s['doc'] / 'scenarios.yaml'}: scenario {s['id']}, field sites_with_traffic: '{site}', "
                                f"but the scenario provisions {n} site{'s' if n != 1 else ''} (sites_provisioned: site1 to site{n})")
            elif n is None and shown and site not in shown:
                problems.append(f"{root / s['doc'] / 'scenarios.yaml'}: scenario {s['id']}, field sites_with_traffic: '{site}', "
                                f"but its data rows print only {', '.join(shown)} (and sites_provisioned gives no count)")
    for kind, df in a.frames.items():
        if "site" not in df.columns or df.empty:
            continue
        limit = df["scenario"].map(count).astype("float64")
        number = pd.to_numeric(df["site"].str.slice(4), errors="coerce")
        for i in df.index[(df["site"] != "") & limit.notna() & (number > limit)]:
            r = df.loc[i]
            problems.append(f"{root / r['doc'] / (kind + '.csv')}: row {_file_row(df, i)}, column site: '{r['site']}', but scenario "
                            f"{r['scenario']} provisions {int(limit[i])} sites (scenarios.yaml, sites_provisioned)")
    _first(problems)


def _check_table_rows(a: Atlas, root: Path) -> None:
    """Each curated table's rows are the ones tables.yaml counts, and printed within its lines: its data rows (in
    every CSV) number 1 to ``rows`` with none missing; a table ``excluded`` has none; each row's ``line`` lies within
    the table's ``lines`` (first to last). Raises DataError naming the file, the row or table, and the column or
    field."""
    tabs = {(t["doc"], t["id"]): t for t in a.tables}
    numbers: dict[tuple[str, str], set[int]] = {}
    problems = []
    for kind, df in a.frames.items():
        if df.empty:
            continue
        keys = list(zip(df["doc"], df["table_id"]))
        first = pd.Series([tabs[k]["lines"][0] for k in keys], index=df.index)
        last = pd.Series([tabs[k]["lines"][1] for k in keys], index=df.index)
        rows = [tabs[k]["rows"] for k in keys]
        excluded = pd.Series([tabs[k]["kind"] == "excluded" for k in keys], index=df.index)
        line, row = df["line"].astype("int64"), df["row"].astype("int64")
        for i in df.index[(line < first) | (line > last)]:
            r = df.loc[i]
            problems.append(f"{root / r['doc'] / (kind + '.csv')}: row {_file_row(df, i)}, column line: line {r['line']} is outside "
                            f"table {r['table_id']}'s lines {first[i]} to {last[i]} (tables.yaml)")
        for i in df.index[excluded]:
            r = df.loc[i]
            problems.append(f"{root / r['doc'] / (kind + '.csv')}: row {_file_row(df, i)}, column table_id: table {r['table_id']} is "
                            f"excluded in tables.yaml ({tabs[(r['doc'], r['table_id'])].get('excluded_reason', 'not curated')}), "
                            f"yet this row is of it")
        over = row > pd.Series(rows, index=df.index)
        for i in df.index[over]:
            r = df.loc[i]
            problems.append(f"{root / r['doc'] / (kind + '.csv')}: row {_file_row(df, i)}, column row: row {r['row']} of table "
                            f"{r['table_id']}, which tables.yaml gives {tabs[(r['doc'], r['table_id'])]['rows']} rows")
        for k, n in zip(keys, row):
            numbers.setdefault(k, set()).add(int(n))
    for t in a.tables:
        if t["kind"] == "excluded":
            continue
        have = numbers.get((t["doc"], t["id"]), set())
        missing = sorted(set(range(1, t["rows"] + 1)) - have)
        if missing:
            shown = ", ".join(map(str, missing[:5])) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            problems.append(f"{root / t['doc'] / 'tables.yaml'}: table {t['id']}, field rows: {t['rows']} rows, but no data "
                            f"row of the table is row {shown}")
    _first(problems)


RANGE_STATUS_EXEMPT = {"flagged"}
"""Rows a range rule does not hold: a flagged value is kept as printed, known impossible (its erratum says why), and
left out of every calculation."""


def _when(df: pd.DataFrame, when: dict) -> pd.Series:
    m = pd.Series(True, index=df.index)
    for col, value in (when or {}).items():
        m &= df[col] == value
    return m


def _limit_over_request(a: Atlas, df: pd.DataFrame) -> pd.Series:
    """For each utilization row of ``df``, its pod's limit over its request for the row's metric (cpu: cores,
    memory: GiB), from the resources rows of the same document, scenario, service and container that are not
    flagged and print both (the largest where several do, e.g. per site); NaN where none does."""
    r = a.frames["resources"]
    r = r[~r["status"].isin(RANGE_STATUS_EXEMPT)]
    key = ["doc", "scenario", "service", "container"]
    ratio = pd.concat([
        r[key].assign(metric="cpu", ratio=r["cpu_limit_cores"] / r["cpu_request_cores"]),
        r[key].assign(metric="memory", ratio=r["mem_limit_gib"] / r["mem_request_gib"])])
    ratio = ratio[ratio["ratio"].notna() & (ratio["ratio"] != float("inf"))].groupby([*key, "metric"])["ratio"].max()
    return pd.Series(df.set_index([*key, "metric"]).index.map(ratio.to_dict()), index=df.index, dtype="float64")


def _check_ranges(a: Atlas, root: Path) -> None:
    """The physical ranges the schemas' range rules state (data/schemas/README.md), on every row whose status is not
    flagged (``RANGE_STATUS_EXEMPT``):

    * ``"notBelow": {"field": f, "because": ...}`` on a numeric field: its value is not below field ``f``'s in the
      same row (a CPU or memory limit below its request, a Max below a Min replica count);
    * ``"atMost": [{"when": {column: value, ...}, "value": v, "scale": "limit/request", "because": ...}, ...]``: in
      the rows matching ``when``, the value is at most ``v`` (times the pod's limit over its request, with
      ``scale``; a row whose pod prints no both is not bounded by that rule).

    Raises DataError naming the file, the row and the column, the value, the bound and why."""
    problems = []
    for kind, df in a.frames.items():
        if df.empty:
            continue
        fields = a.schema(kind)["fields"]
        live = ~df["status"].isin(RANGE_STATUS_EXEMPT)
        ratio = None
        for f in fields:
            name, unit = f["name"], {"percent": "%"}.get(f.get("unit", ""), f.get("unit", ""))
            rule = f.get("notBelow")
            if rule:
                other = rule["field"]
                for i in df.index[live & df[name].notna() & df[other].notna() & (df[name] < df[other])]:
                    r = df.loc[i]
                    problems.append(f"{root / r['doc'] / (kind + '.csv')}: row {_file_row(df, i)}, column {name}: {r[name]:g} {unit} "
                                    f"is below {other} ({r[other]:g} {unit}) of the same row; {rule['because']}")
            for rule in f.get("atMost") or []:
                bound = pd.Series(float(rule["value"]), index=df.index)
                if rule.get("scale") == "limit/request":
                    ratio = _limit_over_request(a, df) if ratio is None else ratio
                    bound = bound * ratio
                elif rule.get("scale"):
                    raise DataError(f"data/schemas/{kind}.schema.json: field {name}: atMost scale {rule['scale']!r} is not "
                                    f"one the build knows ('limit/request')")
                for i in df.index[live & _when(df, rule.get("when")) & df[name].notna() & bound.notna() & (df[name] > bound)]:
                    r = df.loc[i]
                    what = ", ".join(f"{k} {v}" for k, v in (rule.get("when") or {}).items())
                    problems.append(f"{root / r['doc'] / (kind + '.csv')}: row {_file_row(df, i)}, column {name}: {r[name]:g} {unit} "
                                    f"is over {bound[i]:g} {unit} ({what}"
                                    + (f"; the pod's limit is {ratio[i]:g} times its request" if rule.get("scale") else "")
                                    + f"): {rule['because']}")
    _first(problems)


def seeds_folder() -> tuple[Path, bool]:
    """Where the build finds the seeds, as curation does (``curation.common.SEEDS``: $ATLAS_SEEDS, else
    ../shared/seeds beside the repository), and whether they must be there ($ATLAS_SEEDS set)."""
    return Path(curation_common.SEEDS), bool(os.environ.get("ATLAS_SEEDS"))


def _check_citations(a: Atlas, root: Path, text_rows: dict[str, list[dict]], seeds: Path | str | None) -> Path | None:
    """Every citation checked against its seed (``curation.provenance.citation_problems``): each document's
    ``seed_file`` is in the seeds folder, each data row's line exists and prints its row label and raw text, each
    erratum's quote is on its lines, each table's lines and caption, each quote of a YAML record. ``seeds``: the
    folder (default ``seeds_folder()``). Returns the folder checked against, or None when there are no seeds (a
    warning says the citations were not checked). Raises DataError naming the file, the row, erratum or record,
    and the column or field; a ``seeds`` given, or $ATLAS_SEEDS, that is not a folder."""
    folder, required = (Path(seeds), True) if seeds is not None else seeds_folder()
    if not folder.is_dir():
        if required:
            raise DataError(f"seeds folder {folder}{'' if seeds is not None else ' (ATLAS_SEEDS)'}: not a folder, so the "
                            f"citations cannot be checked (set ATLAS_SEEDS to the folder of the seed texts, or unset it "
                            f"to build without checking them)")
        logging.getLogger("atlas.datastore").warning(
            "atlas: citations not checked against the seeds: no seeds folder at %s (set ATLAS_SEEDS to check them)", folder)
        return None
    seed_lines: dict[str, list[str]] = {}
    for i, s in enumerate(a.sources, 1):
        p = folder / s["seed_file"]
        if not p.is_file():
            raise DataError(f"{root / 'sources.yaml'}: item {i}, field seed_file: '{s['seed_file']}' is not in the seeds "
                            f"folder {folder} (the seed of {s['id']})")
        seed_lines[s["id"]] = read_lines(p)
    records: list[tuple[str, str, dict]] = []
    per_file: dict[str, int] = {}
    for name, items in (("scenarios", a.scenarios), ("services", a.services)):
        for it in items:
            file = f"{it['doc']}/{name}.yaml"
            per_file[file] = per_file.get(file, 0) + 1
            records.append((file, f"scenario {it['id']}" if name == "scenarios" else f"item {per_file[file]}", it))
    for doc, files in a.extras.items():
        for name, items in files.items():
            for n, it in enumerate(items if isinstance(items, list) else [], 1):
                if isinstance(it, dict):
                    records.append((f"{doc}/{name}.yaml", f"item {n}", {"doc": doc, **it}))
    _first([f"{root}/{m}" for m in citation_problems(text_rows, a.tables, a.errata, records, seed_lines)])
    return folder


@lru_cache(maxsize=4)
def cached(root: str = str(DATA)) -> Atlas:
    """load() once per process and folder (the build renders many pages from it)."""
    return load(root)


def _check_provenance(a: Atlas, text_rows: dict[str, list[dict]]) -> None:
    """Provenance checks 2 and 3 (curation/provenance.py, no seeds needed) over the rows as load() read them
    (``text_rows``: kind -> rows as text): a value read through something the source does not print is marked
    corrected/flagged with its erratum id, and no two errata of a document share a problem text on other lines.
    Raises DataError naming the first case and how many more."""
    problems = unmarked_readings(text_rows, a.tables, a.errata) + shared_problems(a.errata)
    if problems:
        raise DataError(f"provenance: {problems[0]}" + (f" ({len(problems) - 1} more)" if len(problems) > 1 else ""))


# ---------------------------------------------------------------- rows for the bundle and pages
ERRATUM_ID = re.compile(r"\b[a-z]+-E\d{3}\b")
"""An erratum id as notes cite it (``policy-E031``: document id, ``-E``, three digits)."""


def usable(df: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``df`` whose status is usable (``calculators.partial.USABLE``: ok or corrected)."""
    return df[df["status"].isin(list(USABLE))]


def records(df: pd.DataFrame, cols: list[str]) -> list[dict]:
    """The ``cols`` of every row of ``df`` as plain dicts, in order: NaN/NA become None, numpy
    scalars Python numbers (so the bundle is plain JSON). Raises KeyError for a missing column."""
    out = []
    for rec in df[cols].to_dict("records"):
        clean = {}
        for k, v in rec.items():
            if v is None or (isinstance(v, float) and math.isnan(v)) or (hasattr(v, "__class__") and str(v) in ("<NA>", "nan")):
                v = None
            elif hasattr(v, "item"):
                v = v.item()
            clean[k] = v
        out.append(clean)
    return out


def errata_cited(note: str | None) -> list[str]:
    """The erratum ids a row's note cites, in order of mention (repeats kept)."""
    return ERRATUM_ID.findall(note or "")


MEAS_COLS = ["metric", "value", "unit", "raw", "table_id", "row", "column_label", "status", "note"]


def metric_records(df: pd.DataFrame, names) -> dict:
    """Measurement rows of ``df`` (measurements.csv shape) whose metric is in ``names``, one per metric (the first):
    ``{metric: {value, unit, raw, table_id, row, column_label, status, errata: [ids the row's note cites]}}``."""
    out = {}
    for rec in records(df[df["metric"].isin(list(names))], MEAS_COLS):
        rec["errata"] = errata_cited(rec.pop("note"))
        out.setdefault(rec.pop("metric"), rec)
    return out

