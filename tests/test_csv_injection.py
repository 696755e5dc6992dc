"""CSV formula injection (OWASP "CSV Injection"): no CSV the site or a calculator writes has a cell
a spreadsheet would run. Cells starting with =, +, -, @, tab or carriage return get a leading
apostrophe, and so do cells whose first sign after white space is one of them or its full-width or small
form (＝ ＋ － ＠); real numbers (-5, +3.2, -0.5) and the guides' lone "-" stay as they are."""
from __future__ import annotations

import copy
import csv
import io
import os
import shutil
import subprocess

import pytest

from calculators import catalogue
from calculators.formatting import csv_cell, csv_writer
from conftest import AT_SUM, DDE, HYPERLINK


@pytest.mark.parametrize("cell, want", [
    (HYPERLINK, "'" + HYPERLINK),
    (DDE, "'" + DDE),
    (AT_SUM, "'" + AT_SUM),
    ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
    ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
    ("\t=1+1", "'\t=1+1"),
    ("\r=1+1", "'\r=1+1"),
    ("-XX:+TieredCompilation", "'-XX:+TieredCompilation"),  # data/shcm/settings.csv: Excel would run it as -XX:+...
    ("-5", "-5"), ("+3.2", "+3.2"), ("-0.5", "-0.5"), ("-.5", "-.5"), ("1e-3", "1e-3"), ("-2E+4", "-2E+4"),
    ("-", "-"),                                              # the guides' "not measured" dash: no formula can follow
    ("BSF Management Service", "BSF Management Service"), ("a=b", "a=b"), ("", ""),
    (-5, -5), (3.25, 3.25), (None, None),
    # full-width and small forms of the signs (U+FF1D U+FF0B U+FF0D U+FF20, U+FE66 U+FE62 U+FE63 U+FE6B)
    ("\uff1dHYPERLINK(\"http://attacker.example/\")", "'\uff1dHYPERLINK(\"http://attacker.example/\")"),
    ("\uff0b1+1", "'\uff0b1+1"), ("\uff0d1+1", "'\uff0d1+1"), ("\uff20SUM(1+1)", "'\uff20SUM(1+1)"),
    ("\ufe661+1", "'\ufe661+1"), ("\ufe621+1", "'\ufe621+1"), ("\ufe631+1", "'\ufe631+1"), ("\ufe6bSUM(1)", "'\ufe6bSUM(1)"),
    # white space before a sign: a spreadsheet that trims it on import runs what follows
    (" =1+1", "' =1+1"), ("   =1+1", "'   =1+1"), (" +1+1", "' +1+1"), (" -2+3", "' -2+3"), (" @SUM(1+1)", "' @SUM(1+1)"),
    ("\n=1+1", "'\n=1+1"), ("\u3000=1+1", "'\u3000=1+1"), ("\u00a0=1+1", "'\u00a0=1+1"), (" \uff1d1+1", "' \uff1d1+1"),
    (" " + HYPERLINK, "' " + HYPERLINK),
    # ... but numbers and the dash stay as they are, white space aside; a sign later in the text is no formula
    ("-\uff15", "'-\uff15"),  # a full-width digit is no number (as tables.js and compare.js read one): a formula sign first
    (" -5", " -5"), ("+3.2 ", "+3.2 "), (" - ", " - "), ("- ", "- "), ("   ", "   "), ("a =1", "a =1"),
])
def test_csv_cell(cell, want):
    assert csv_cell(cell) == want


LIBREOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
TRIM_SPACES = "CSV:44,34,76,1,,0,false,true,false,false,true,-1,true"
"""LibreOffice's CSV import options (its 'Filter Options for the CSV Filter'): comma, double quote, UTF-8 (76), from
line 1, standard cells, language 0, quoted fields not as text, special numbers detected, (two export options),
"Trim spaces" on (token 11), all sheets, "Evaluate formulas" on (token 13): the text-import dialog's choices a reader
may tick."""


@pytest.mark.skipif(not LIBREOFFICE, reason="LibreOffice is not installed (apt-get install libreoffice-calc-nogui)")
def test_libreoffice_runs_no_cell_the_writer_wrote(tmp_path):
    """What a spreadsheet really does with the cells: LibreOffice imports the CSV with "Trim spaces" and "Evaluate
    formulas" on, and converts it to XLSX. The cells as given run ('=1+1' and ' =1+1' become formulas: the white
    space trimmed, the formula follows); written through csv_writer, no cell is a formula, every one text."""
    cells = ["=1+1", " =1+1", "   =1+1", " \uff1d1+1", "\uff1d1+1", "\uff0b1+1", " +1+1", " @SUM(1+1)", HYPERLINK, " " + HYPERLINK]
    from openpyxl import load_workbook

    def formulas(name: str, rows: list[list[str]], writer) -> list[str]:
        path = tmp_path / f"{name}.csv"
        with path.open("w", newline="", encoding="utf-8") as f:
            writer(f).writerows(rows)
        r = subprocess.run([LIBREOFFICE, "--headless", f"--infilter={TRIM_SPACES}", "--convert-to", "xlsx", "--outdir",
                            str(tmp_path), str(path)], env=dict(os.environ, HOME=str(tmp_path)), capture_output=True,
                           text=True, timeout=180)
        assert (tmp_path / f"{name}.xlsx").exists(), r.stdout + r.stderr
        ws = load_workbook(tmp_path / f"{name}.xlsx").active
        return [row[1].value for row in ws.iter_rows() if row[1].data_type == "f"]

    rows = [[str(i), c] for i, c in enumerate(cells)]
    assert formulas("as-given", rows, lambda f: csv.writer(f, lineterminator="\n"))[:3] == ["=1+1", "=1+1", "=1+1"]
    assert formulas("written", rows, csv_writer) == []


def test_csv_writer_reads_back_as_text():
    buf = io.StringIO()
    csv_writer(buf).writerows([["name", "value"], [HYPERLINK, "-5"], [DDE, -0.5], [AT_SUM, "+3.2"]])
    rows = list(csv.reader(io.StringIO(buf.getvalue())))
    assert rows == [["name", "value"], ["'" + HYPERLINK, "-5"], ["'" + DDE, "-0.5"], ["'" + AT_SUM, "+3.2"]]
    assert not any(c.startswith(("=", "@", "\t", "\r")) for r in rows for c in r)


def _csv(out: dict) -> list[list[str]]:
    assert out["ok"], out
    return list(csv.reader(io.StringIO(out["downloads"]["csv"]["text"])))


def _rename(o, old: str, new: str):
    if isinstance(o, str):
        return o.replace(old, new)
    if isinstance(o, list):
        return [_rename(x, old, new) for x in o]
    if isinstance(o, dict):
        return {k: _rename(v, old, new) for k, v in o.items()}
    return o


def test_overtarget_csv_neutralises_names_a_reader_pasted():
    """The own-CSV rows of the over-target check name services as the reader typed them."""
    own = ("name,replicas,cpu_request,observed,target\n"
           f'"{HYPERLINK.replace(chr(34), chr(34) * 2)}",50,4,90%,75\n"{DDE}",2,1,80%,75\n{AT_SUM},3,1,70%,75\n')
    from atlas.bundle import build
    from atlas.datastore import cached
    rows = _csv(catalogue.run(build(cached()), {"calc": "overtarget", "product": "policy", "mem_threshold": "90", "csv": own}))
    names = [r[6] for r in rows if r[0] == "own-cpu"]
    assert names == ["'" + HYPERLINK, "'" + DDE, "'" + AT_SUM]
    assert not [c for r in rows for c in r if c.startswith(("=", "@"))]


@pytest.mark.parametrize("params", [
    {"calc": "footprint", "scenario": "bsf-3-3", "load": "126000", "target": "70"},
    {"calc": "asm", "on": "bsf-3-2", "off": "bsf-3-1"},
])
def test_calculator_csvs_neutralise_names_from_data(bundle, params):
    """A service named like a formula in the data (BSF's Egress Gateway renamed) is inert in the
    footprint and ASM CSVs; the numbers beside it (-/+ free) are unchanged."""
    poisoned = _rename(copy.deepcopy(bundle), "Egress Gateway", HYPERLINK)
    rows = _csv(catalogue.run(poisoned, params))
    assert any("'" + HYPERLINK in r for r in rows)
    assert not [c for r in rows for c in r if c.startswith(("=", "@"))]
    clean = _csv(catalogue.run(bundle, params))
    assert len(clean) == len(rows)
    # only the renamed cells differ
    diff = {(a, b) for r1, r2 in zip(clean, rows) for a, b in zip(r1, r2) if a != b}
    assert diff == {("Egress Gateway", "'" + HYPERLINK)}


def test_dataset_and_table_csvs_neutralise_cells(variant_site):
    """A data cell holding each payload reaches csv/resources.csv and the per-table CSV as text;
    the XLSX and JSON keep the exact value. The downloads of the variant build (conftest.variant_site), whose
    data/bsf/resources.csv has the three formulas as the notes of its first three rows."""
    import json

    data = variant_site.parent / "data"
    assert [r["note"] for r in list(csv.DictReader((data / "bsf" / "resources.csv").open()))[:3]] == [HYPERLINK, DDE, AT_SUM]
    first = next(csv.DictReader((data / "bsf" / "resources.csv").open()))
    table = f"tables/bsf/{first['table_id']}.csv"
    out = variant_site
    for path in ("csv/resources.csv", table):
        rows = list(csv.DictReader((out / "downloads" / path).open(encoding="utf-8")))
        notes = [x["note"] for x in rows if x["doc"] == "bsf"][:3]
        assert notes == ["'" + HYPERLINK, "'" + DDE, "'" + AT_SUM], path
        assert not [c for x in rows for c in x.values() if c.startswith(("=", "@"))], path
    js = json.loads((out / "downloads" / "json" / "resources.json").read_text(encoding="utf-8"))
    assert [x["note"] for x in js if x["doc"] == "bsf"][:3] == [HYPERLINK, DDE, AT_SUM]
    from openpyxl import load_workbook
    ws = load_workbook(out / "downloads" / "benchmark-atlas.xlsx")["resources"]
    names = [c.value for c in ws[1]]
    cells = [c for row in ws.iter_rows(min_row=2) if row[names.index("doc")].value == "bsf" for c in row[names.index("note"):names.index("note") + 1]][:3]
    assert [(c.value, c.data_type) for c in cells] == [(HYPERLINK, "s"), (DDE, "s"), (AT_SUM, "s")]  # text, never a formula
