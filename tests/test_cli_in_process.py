"""calculators/__main__.py run in this process: what tests/test_calculator_details.py checks of ``python -m
calculators dsr`` in a subprocess (left out of mutation runs: that subprocess loads the whole bundle for every mutant it
meets), here with ``main()`` and ``runpy`` on a bundle file, so a mutant of the command line meets it cheaply.

Expected values are the DSR guide's (Table 3-1, the 12-vCPU relay run, as curated in data/dsr/) or written by hand."""
from __future__ import annotations

import json
import runpy
import sys

import pytest

from calculators.__main__ import main as cli


@pytest.fixture
def bfile(bundle, tmp_path):
    f = tmp_path / "bundle.json"
    f.write_text(json.dumps(bundle))
    return str(f)


def test_dsr_prints_a_table_by_default(bfile, capsys):
    assert cli(["--bundle", bfile, "dsr", "--scenario", "dsr-relay-12vcpu"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # the table's header and the dashes under it, one run of dashes per column: a table, not CSV or JSON
    assert lines[0].split() == ["section", "item", "value", "unit", "source"] and "," not in lines[0]
    assert len(lines[1].split()) == 5 and set(lines[1].replace(" ", "")) == {"-"}


def test_dsr_help_explains_its_target(capsys):
    with pytest.raises(SystemExit) as e:
        cli(["dsr", "--help"])
    assert e.value.code == 0
    assert "total message rate, MPS (default: the run's own)" in " ".join(capsys.readouterr().out.split())


def test_the_module_run_as_a_command_prints_the_same_table(bfile, capsys, monkeypatch):
    assert cli(["--bundle", bfile, "dsr", "--scenario", "dsr-relay-12vcpu"]) == 0
    direct = capsys.readouterr().out
    # python -m calculators: the module's `if __name__ == "__main__"` exits with main()'s status
    monkeypatch.setattr(sys, "argv", ["calculators", "--bundle", bfile, "dsr", "--scenario", "dsr-relay-12vcpu"])
    monkeypatch.delitem(sys.modules, "calculators.__main__", raising=False)
    with pytest.raises(SystemExit) as e:
        runpy.run_module("calculators", run_name="__main__", alter_sys=False)
    assert e.value.code == 0
    assert capsys.readouterr().out == direct


def test_table_cells_are_left_aligned_under_their_headers():
    from calculators.__main__ import _table
    # widths: "item" 4 (its cell "x" is shorter), "value" 5 (12 is "12"); two spaces between columns, every cell
    # padded on its right
    assert _table([{"item": "x", "value": 12}], ["item", "value"]).splitlines() == [
        "item  value", "----  -----", "x     12   "]
    # no rows: the headers and their dashes
    assert _table([], ["a", "bb"]).splitlines() == ["a  bb", "-  --"]


def test_asm_what_if_table_prints_before_after_and_deltas(bfile, capsys):
    # tests/test_calculators_asm_overtarget.py test_whatif_remove_and_add: removing ASM from BSF 3.3 frees its 280
    # sidecar cores (126 + 154, Tables 3-25/3-26) of 763.8 requested: 483.8 after; the sidecars' memory is freed too
    assert cli(["--bundle", bfile, "asm", "--on", "bsf-3-3", "--off", "bsf-3-1", "--format", "table"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("What-if (per site, requests):")
    header, dashes = lines[at + 1], lines[at + 2]
    spans = [m.span() for m in __import__("re").finditer(r"-+", dashes)]
    spans[-1] = (spans[-1][0], None)
    names = [header[a:b].strip() for a, b in spans]
    assert names == ["change", "scenario", "load", "cpu_before", "cpu_after", "cpu_delta", "mem_delta"]
    row = next(dict(zip(names, (x[a:b].strip() for a, b in spans))) for x in lines[at + 3:] if x.startswith("remove"))
    assert (row["scenario"], row["cpu_before"], row["cpu_after"], row["cpu_delta"]) == ("bsf-3-3", "763.8", "483.8", "-280")
    assert row["mem_delta"].startswith("-")


def test_footprint_refuses_an_asm_choice_it_does_not_know(capsys):
    # --asm is keep, remove or add (footprint.ASM_CHOICES): anything else is refused before any bundle is read
    with pytest.raises(SystemExit) as e:
        cli(["footprint", "--scenario", "bsf-3-3", "--load", "1000", "--asm", "bogus"])
    assert e.value.code == 2
    assert "argument --asm: invalid choice: 'bogus'" in capsys.readouterr().err


def test_asm_prints_csv_by_default_and_when_asked(bundle, bfile, capsys):
    from calculators import asm, asm_report
    # the same CSV as the page's overview download: every ASM-enabled scenario's sidecar share
    want = asm_report.to_csv(asm.overview(bundle), asm.asm_without_sidecars(bundle))
    assert cli(["--bundle", bfile, "asm", "--format", "csv"]) == 0
    assert capsys.readouterr().out == want
    assert cli(["--bundle", bfile, "asm"]) == 0
    assert capsys.readouterr().out == want


def test_the_help_says_what_each_calculator_does(capsys):
    with pytest.raises(SystemExit) as e:
        cli(["--help"])
    assert e.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    # one line per calculator, its name then what it does
    for name, does in [("footprint", "size a footprint for a target load from the comparable runs, or from one run"),
                       ("asm", "ASM sidecar overhead, on/off comparison and what-if"),
                       ("overtarget", "services at, over or near their CPU target; memory over a threshold"),
                       ("dsr", "DSR DA-MPs (or vSTP SS7-MPs) for a target MPS: measured and engineered methods"),
                       ("shcm", "ShCM Rhino nodes for a target RPS or SPS"),
                       ("deployment", "your own deployment (kubectl get/top output) beside the vendor's comparable runs")]:
        assert f" {name} {does}" in text, name


def test_deployment_list_gives_the_options_to_pass(bfile, capsys):
    # each line: the options that choose a product and call model, then their names and runs
    assert cli(["--bundle", bfile, "deployment", "--list"]) == 0
    lines = [x.strip() for x in capsys.readouterr().out.splitlines()]
    assert any(x.startswith("--product policy --call-model pcf-sm ") for x in lines)


def test_deployment_points_file_keeps_the_workloads_as_given(bfile, tmp_path, capsys):
    from pathlib import Path
    fix = Path(__file__).parent / "fixtures" / "deployment"
    points = tmp_path / "mine.json"
    assert cli(["--bundle", bfile, "deployment", "--product", "policy", "--call-model", "pcf-sm", "--load", "10000",
                "--get", str(fix / "get-small.json"), "--top", str(fix / "top-small.txt"), "--format", "json",
                "--points", str(points)]) == 0
    saved = json.loads(points.read_text())
    assert saved["format"] == "benchmark-atlas-deployment-inputs" and saved["version"] == 1
    assert saved["inputs"]["objects_text"] == (fix / "get-small.json").read_text() and saved["inputs"]["load"] == "10000"


def test_footprint_refuses_an_unknown_format(capsys):
    with pytest.raises(SystemExit) as e:
        cli(["footprint", "--scenario", "bsf-3-3", "--load", "1000", "--format", "xml"])
    assert e.value.code == 2 and "argument --format: invalid choice: 'xml'" in capsys.readouterr().err


def test_footprint_table_names_the_cpu_target_given(bfile, capsys):
    assert cli(["--bundle", bfile, "footprint", "--scenario", "bsf-3-3", "--load", "80000", "--target", "70"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("Scenario bsf-3-3:"))
    assert "; CPU target 70 %; ASM " in line
