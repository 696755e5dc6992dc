"""CLI parity: every calculator on the command line, --list with titles (also in the
unknown-id error), help for every option, complete table output, the same number reader as the pages."""
from __future__ import annotations

import json
import re

import pytest

from calculators.__main__ import main as cli

CALCS = ("footprint", "asm", "overtarget", "dsr", "shcm")


def table_cells(out: str) -> dict[str, dict[str, str]]:
    """The command line's table (``--format table``) as {item: {column: cell}}: the columns cut where the dashes under
    the header line start and end (the last one runs to the line's end); notes and warnings are not rows."""
    lines = out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("--------"))
    spans = [m.span() for m in re.finditer(r"-+", lines[at])]
    spans[-1] = (spans[-1][0], None)
    header = [lines[at - 1][a:b].strip() for a, b in spans]
    rows = {}
    for line in lines[at + 1:]:
        if line.strip() and not line.startswith(("note: ", "warning: ")):
            cells = dict(zip(header, (line[a:b].strip() for a, b in spans)))
            rows[cells["item"]] = cells
    return rows


@pytest.fixture(scope="module")
def bfile(bundle, tmp_path_factory):
    f = tmp_path_factory.mktemp("cli") / "bundle.json"
    f.write_text(json.dumps(bundle))
    return str(f)


@pytest.mark.parametrize("calc, line", [
    ("footprint", "bsf-3-3"), ("dsr", "dsr-relay-12vcpu"), ("shcm", "shcm-test-5"), ("overtarget", "policy"), ("asm", "bsf-3-2"),
])
def test_list_gives_ids_with_titles(bfile, capsys, calc, line):
    assert cli(["--bundle", bfile, calc, "--list"]) == 0
    out = capsys.readouterr().out
    hit = next(x for x in out.splitlines() if x.split()[0] == line)
    assert len(hit.split()) > 1  # a title follows the id
    if calc == "dsr":
        assert "dsr-fabr-sds" in out and "(cannot be sized)" in out


@pytest.mark.parametrize("argv", [["dsr", "--scenario", "nope", "--target", "5"],
                                  ["shcm", "--scenario", "nope", "--target", "5"],
                                  ["footprint", "--scenario", "nope", "--load", "5"],
                                  ["overtarget", "--product", "nope"]])
def test_unknown_id_error_lists_the_choices(bfile, capsys, argv):
    assert cli(["--bundle", bfile, *argv]) == 2
    err = capsys.readouterr().err
    assert "Unknown" in err and "choose one of:" in err
    assert len(err.splitlines()) > 3


@pytest.mark.parametrize("calc", CALCS)
def test_every_option_has_help(calc, capsys):
    """In --help, each option's line (or the line under it) carries a help text."""
    with pytest.raises(SystemExit):
        cli([calc, "--help"])
    lines = capsys.readouterr().out.split("options:")[1].splitlines()
    seen = 0
    for i, line in enumerate(lines):
        if not line.startswith("  -"):
            continue
        seen += 1
        parts = line.strip().split("  ", 1)
        text = parts[1].strip() if len(parts) > 1 else (lines[i + 1].strip() if i + 1 < len(lines) else "")
        assert text and not text.startswith("-"), (calc, line)
    assert seen >= 3


def test_dsr_table_is_complete(bfile, capsys):
    """The reported DSR case on the command line: inputs, both methods, totals, warnings."""
    assert cli(["--bundle", bfile, "dsr", "--target", "240000", "--ceiling", "40", "--redundancy", "mated-pair"]) == 0
    out = capsys.readouterr().out
    assert "warning: " in out and "never given more than its profile's rated MPS" in out
    for item in ("Target traffic", "Redundancy", "Measured method: DA-MPs per DSR", "Engineered method: DA-MPs per DSR",
                 "DA-MPs to deploy", "vCPU for these DA-MPs"):
        assert item in out, item
    # Table 3-1 row 1 (relay, 12 vCPU, profile 30K_MPS): 288K MPS over 16 DA-MPs = 18,000 per DA-MP at 19 % CPU,
    # 37,894.7 at 40 %, capped at the profile's 30,000: ceil(240,000 / 30,000) = 8 per DSR site (a mated pair: each
    # site carries the whole 240,000 with its mate down), x 2 sites = 16 DA-MPs, 16 x 12 = 192 vCPU
    rows = table_cells(out)
    assert (rows["DA-MPs to deploy"]["section"], rows["DA-MPs to deploy"]["value"], rows["DA-MPs to deploy"]["unit"]) \
        == ("result", "16", "count")
    assert rows["DA-MPs per DSR site"]["value"] == "8" and rows["DSR sites"]["value"] == "2"
    assert rows["MPS per DA-MP at the measured CPU peak"]["value"] == "18,000"
    assert rows["Measured method: MPS per DA-MP"]["value"] == "30,000"
    assert (rows["vCPU for these DA-MPs"]["value"], rows["vCPU for these DA-MPs"]["unit"]) == ("192", "vCPU")


def test_dsr_json_and_csv(bfile, capsys):
    assert cli(["--bundle", bfile, "dsr", "--target", "240000", "--format", "json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["total"] == 14 and res["headline"] == "measured"  # 240000 / 18000 = 13.3 -> 14 (Table 3-1 row 1)
    assert cli(["--bundle", bfile, "shcm", "--scenario", "shcm-test-5", "--target", "21600", "--ceiling", "80", "--format", "csv"]) == 0
    total = next(x for x in capsys.readouterr().out.splitlines() if ",result,total," in x)
    # T-rhino-performance row 5 at 80 %: 5 nodes, + the default spare (N+1) = 6
    assert total.startswith("shcm-test-5,result,total,") and ",6,count,5 for the load + 1 spare" in total


def test_shcm_table(bfile, capsys):
    """T-rhino-performance row 5: 21,600 RPS at 80 % = 5 Rhino nodes, + the default spare = 6 (as the page)."""
    assert cli(["--bundle", bfile, "shcm", "--scenario", "shcm-test-5", "--target", "21600", "--ceiling", "80"]) == 0
    out = capsys.readouterr().out
    assert "Rhino node" in out
    # row 5: 2,160 RPS at 320 % JVM CPU (3.2 cores) on 8 vCPU nodes; at 80 %: 2,160 x 6.4 / 3.2 = 4,320 RPS per node,
    # ceil(21,600 / 4,320) = 5 nodes, + 1 spare = 6
    rows = table_cells(out)
    deploy = rows["Rhino nodes to deploy"]
    assert (deploy["section"], deploy["value"], deploy["unit"], deploy["source"]) == \
        ("result", "6", "count", "5 for the load + 1 spare")
    assert rows["Load per node at the ceiling"]["value"] == "4,320" and rows["Rhino nodes at the ceiling"]["value"] == "5"


def test_asm_table_marks_partial_and_not_comparable(bfile, capsys):
    assert cli(["--bundle", bfile, "asm", "--on", "bsf-3-2", "--off", "bsf-3-1", "--format", "table"]) == 0
    out = capsys.readouterr().out
    assert "partial: policy-3-2-7: 14 rows of Table 3-140" in out
    assert "not comparable: call model differs" in out
    assert "no sidecar rows: policy-3-2-1" in out and "Istio 1.12.3 to 1.16.2: 0.35 vCPU" in out


def test_overtarget_table_is_complete(bfile, capsys):
    assert cli(["--bundle", bfile, "overtarget", "--product", "policy"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("inputs: product policy, memory threshold 80 %")
    assert "rule: HPA desired replicas" in out and "partial: policy-3-2-10: 78 rows of Table 3-177" in out
    assert "from max 16: 16 (asks 29, clamped at max)" in out
    assert "no count: its replica row, Table 3-140 row 10, is flagged (policy-E031)" in out


@pytest.mark.parametrize("argv, message", [
    (["dsr", "--target", "63,5"], "comma that is not a thousands separator"),
    (["dsr", "--target", "240000", "--ceiling", "0.000001"], "at least 1 percent; got 0.000001"),
    (["overtarget", "--mem-threshold", "0.000001"], "between 1 and 100 %; got 0.000001"),
    (["shcm", "--target", "1e-300"], "got 1e-300."),
])
def test_cli_refusals_use_the_shared_reader(bfile, capsys, argv, message):
    assert cli(["--bundle", bfile, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err) < 300


def test_cli_decimal_comma_with_thousands_is_fine(bfile, capsys):
    assert cli(["--bundle", bfile, "dsr", "--target", "1,234,567", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["inputs"]["target_mps"] == 1234567
