"""Load and validate everything under data/ for the site build and the tests.

``load(root)`` returns an ``Atlas``: pandas DataFrames per kind of table
(all documents concatenated) plus the YAML records. Validation is strict and
happens before anything is rendered: a CSV row that breaks its Frictionless
Table Schema, a YAML record that breaks its JSON Schema, or a reference to a
scenario, table or erratum that does not exist raises ``DataError`` naming the
file, the row and the column. Nothing is written while loading.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jsonschema
import pandas as pd
import yaml
from frictionless import Resource, Schema

from curation.provenance import data_problems  # at import: MkDocs loads the build hooks with the root on sys.path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
KINDS = ["resources", "utilization", "latency", "db_operations", "measurements", "settings"]
RECORDS = ["tables", "scenarios", "services", "errata"]
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader where PyYAML was built with it (same results, several times faster)."""


class DataError(Exception):
    """A data file breaks its schema or references something that does not exist."""


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
    _by_table: dict = field(default_factory=dict, repr=False)

    def docs(self) -> list[str]:
        """Document ids that have curated data, in sources.yaml order."""
        have = {s["doc"] for s in self.scenarios} | {t["doc"] for t in self.tables}
        return [s["id"] for s in self.sources if s["id"] in have]

    def source(self, doc: str) -> dict:
        return next(s for s in self.sources if s["id"] == doc)

    def scenario(self, sid: str) -> dict:
        for s in self.scenarios:
            if s["id"] == sid:
                return s
        raise KeyError(f"unknown scenario {sid!r}")

    def table(self, doc: str, tid: str) -> dict:
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


def _schema(name: str) -> dict:
    return json.loads((DATA / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))


def _validate_yaml(path: Path, schema_name: str):
    try:
        items = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    except yaml.YAMLError as e:
        raise DataError(f"{path}: not valid YAML: {e}") from None
    if items is None:
        items = []
    v = jsonschema.Draft202012Validator(_schema(schema_name))
    errs = sorted(v.iter_errors(items), key=lambda e: list(e.absolute_path))
    if errs:
        e = errs[0]
        where = list(e.absolute_path)
        item = f"item {where[0] + 1}" if where and isinstance(where[0], int) else "top level"
        fieldpath = ".".join(str(p) for p in where[1:]) or "(record)"
        raise DataError(f"{path}: {item}, field {fieldpath}: {e.message}"
                        + (f" ({len(errs) - 1} more errors)" if len(errs) > 1 else ""))
    return items


def _validate_csv(path: Path, kind: str) -> pd.DataFrame:
    descriptor = _schema(kind)
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
    return df


def load(root: Path | str = DATA) -> Atlas:
    """Load and validate data/ (or another folder of the same shape).

    Raises DataError for the first problem found, naming file, row and column.
    """
    root = Path(root)
    sources = _validate_yaml(root / "sources.yaml", "sources")
    frames: dict[str, list[pd.DataFrame]] = {k: [] for k in KINDS}
    recs: dict[str, list[dict]] = {k: [] for k in RECORDS}
    extras: dict[str, dict] = {}
    known_docs = {s["id"] for s in sources}
    for d in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "schemas"):
        if d.name not in known_docs:
            raise DataError(f"{d}: folder for a document that data/sources.yaml does not list")
        for kind in KINDS:
            p = d / f"{kind}.csv"
            if p.exists():
                df = _validate_csv(p, kind)
                bad = df[df["doc"] != d.name]
                if len(bad):
                    raise DataError(f"{p}: row {bad.index[0] + 2}, column doc: '{bad.iloc[0]['doc']}' in the folder of '{d.name}'")
                frames[kind].append(df)
        for name in RECORDS:
            p = d / f"{name}.yaml"
            if p.exists():
                items = _validate_yaml(p, name)
                for i, it in enumerate(items, 1):
                    if it.get("doc") != d.name:
                        raise DataError(f"{p}: item {i}, field doc: '{it.get('doc')}' in the folder of '{d.name}'")
                recs[name].extend(items)
        for p in sorted(d.glob("*.yaml")):
            if p.stem not in RECORDS:
                extras.setdefault(d.name, {})[p.stem] = yaml.load(p.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    empty = {k: pd.DataFrame({f["name"]: pd.Series(dtype="object") for f in _schema(k)["fields"]}) for k in KINDS}
    atlas = Atlas(root=root, sources=sources,
                  frames={k: (pd.concat(v, ignore_index=True) if v else empty[k]) for k, v in frames.items()},
                  extras=extras, **recs)
    _check_references(atlas, root)
    _check_provenance(root)
    return atlas


def _check_references(a: Atlas, root: Path) -> None:
    scen_ids = [s["id"] for s in a.scenarios]
    dup = {x for x in scen_ids if scen_ids.count(x) > 1}
    if dup:
        raise DataError(f"scenarios.yaml: scenario id(s) used twice: {sorted(dup)}")
    scen = set(scen_ids)
    tables = {(t["doc"], t["id"]) for t in a.tables}
    if len(tables) != len(a.tables):
        raise DataError("tables.yaml: a table id is listed twice")
    errata = {e["id"] for e in a.errata}
    for s in a.scenarios:
        for tid in s["tables"]:
            if (s["doc"], tid) not in tables:
                raise DataError(f"{root / s['doc'] / 'scenarios.yaml'}: scenario {s['id']}, field tables: unknown table '{tid}'")
    for t in a.tables:
        if t.get("scenario") and t["scenario"] not in scen:
            raise DataError(f"{root / t['doc'] / 'tables.yaml'}: table {t['id']}, field scenario: unknown scenario '{t['scenario']}'")
    for e in a.errata:
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
        for i, k in enumerate(keys):
            if k not in tables:
                raise DataError(f"{root / k[0] / (kind + '.csv')}: row {_file_row(df, df.index[i])}, column table_id: '{k[1]}' is not in tables.yaml")
        notes = df["note"]
        for i, n in notes.items():
            for token in re.findall(r"\b([a-z]+-E\d{3})\b", n):
                if token.split("-E")[0] in {s["id"] for s in a.sources} and token not in errata:
                    raise DataError(f"{root / df.at[i, 'doc'] / (kind + '.csv')}: row {_file_row(df, i)}, column note: unknown erratum '{token}'")


def _file_row(df: pd.DataFrame, idx) -> int:
    """Row number in the source CSV file (header = row 1) for a concatenated frame index."""
    doc = df.at[idx, "doc"]
    first = df.index[df["doc"] == doc][0]
    return int(idx - first) + 2


@lru_cache(maxsize=4)
def cached(root: str = str(DATA)) -> Atlas:
    """load() once per process and folder (the build renders many pages from it)."""
    return load(root)


def _check_provenance(root: Path) -> None:
    """Issue 15, checks 2 and 3 (logic in curation/provenance.py, no seeds needed): a value read through something
    the source does not print is marked corrected/flagged with its erratum id, and no two errata of a document share
    a problem text on other lines. Raises DataError naming the first case and how many more."""
    problems = data_problems(root)
    if problems:
        raise DataError(f"provenance: {problems[0]}" + (f" ({len(problems) - 1} more)" if len(problems) > 1 else ""))
