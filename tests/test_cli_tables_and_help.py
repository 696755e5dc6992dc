"""calculators/__main__.py, run in this process (``main()`` on a bundle file): the plain-text tables and the --help
text that the fresh mutation draw of November 2026 showed unchecked: the footprint's ranked comparable runs (each
sized alone), the runs and rows a partial footprint could not size, its rows' likely replicas, the ASM on/off table's
ASM-off column, and every option's help. Expected values come from the guides' tables named in each test, or are
worked out by hand in its comments."""
from __future__ import annotations

import argparse
import json
import re

import pytest

from calculators.__main__ import main as cli


@pytest.fixture
def bfile(bundle, tmp_path):
    f = tmp_path / "bundle.json"
    f.write_text(json.dumps(bundle))
    return str(f)


def _table_at(lines: list[str], header_start: str) -> list[dict]:
    """The rows of the plain-text table whose header line starts with ``header_start``, as dicts by column name: the
    columns are where the dashes under the header are (a cell may be empty)."""
    at = next(i for i, x in enumerate(lines) if x.startswith(header_start))
    spans = [m.span() for m in re.finditer(r"-+", lines[at + 1])]
    spans[-1] = (spans[-1][0], None)
    names = [lines[at][a:b].strip() for a, b in spans]
    rows = []
    for x in lines[at + 2:]:
        if not x.strip():
            break
        rows.append(dict(zip(names, (x[a:b].strip() for a, b in spans))))
    return rows


def test_footprint_ranks_the_comparable_runs_each_sized_alone(bfile, capsys):
    # PCF SM at 43,000 TPS on one site: Policy 3.2.8 (Table 3-150/3-151, 43,000 TPS on its site) is the comparable run
    # at exactly that load (ratio 1), ranked first; sized alone at its own load it is its own footprint, the 2,431
    # cores its tables request (56.535 per 1K x 43). No node size given: no node count. A run of another call model is
    # listed, not comparable, and not sized alone
    assert cli(["--bundle", bfile, "footprint", "--call-model", "policy:pcf-sm", "--load", "43000"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "Comparable runs, ranked (the same request sized from each alone):" in lines
    rows = _table_at(lines, "run ")
    assert rows[0] == {"run": "policy-3-2-8", "load_per_site": "43,000", "ratio": "1", "comparable": "yes",
                       "alone_cores": "2,431", "alone_nodes": "—",
                       "why": "same call model (PCF SM); deployment mode PCF"}
    # every comparable run is sized alone (a figure), every other is not
    assert all((r["alone_cores"] != "—") == (r["comparable"] == "yes") for r in rows)
    other = next(r for r in rows if r["run"] == "policy-3-2-2")
    assert (other["comparable"], other["alone_cores"]) == ("no", "—")


def test_footprint_lists_what_a_partial_run_could_not_size(bfile, capsys):
    # Policy 3.2.8 (Table 3-150): the Istio sidecar columns of row 2 (Bulwark) and row 3 (Binding) are excluded by
    # errata policy-E037 and policy-E038; row 20 (Performance) prints no sidecar values (policy-E095)
    assert cli(["--bundle", bfile, "footprint", "--scenario", "policy-3-2-8", "--load", "43000"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("PARTIAL: totals are at least these; not sized:")
    assert lines[at + 1:at + 4] == [
        "  bulwark / istio-proxy: excluded by erratum (Table 3-150 row 2) policy-E037",
        "  binding / istio-proxy: excluded by erratum (Table 3-150 row 3) policy-E038",
        "  perf-info / istio-proxy: no usable value printed (Table 3-150 row 20) policy-E095"]


def test_footprint_rows_show_their_likely_replicas(bundle, tmp_path, capsys):
    # tests/test_footprint_rules.py test_likely_range_of_a_row_from_the_held_out_band: BSF 3.3 at 126,000 TPS, target
    # 70 %, a made-up per-service band 0.5 to 2.0 for BSF's one-run method. BSF Management Service (Table 3-25 row 2:
    # 14 x 4 cores / 1 GiB; Table 3-28 row 4: 27.72 % CPU, 57.52 % memory): memory binds at 17 replicas; at half the
    # cores still 17, at twice 15.5232 x 2 x 2 / 2.8 = 22.18 -> 23: likely 17–23. Rows held at fixed replicas: no range
    band = {"lo": 0.5, "hi": 2.0, "comparisons": 40, "k": 4, "expected_coverage": 80.0, "coverage": 80.0}
    f = tmp_path / "bundle.json"
    f.write_text(json.dumps(dict(bundle, sizing_bands={"bsf": {"one-run": {"service": band,
                                                                           "whole": {"none": "made up: no band"}}}})))
    assert cli(["--bundle", str(f), "footprint", "--scenario", "bsf-3-3", "--load", "126000", "--target", "70"]) == 0
    rows = _table_at(capsys.readouterr().out.splitlines(), "service ")
    mgmt = next(r for r in rows if r["service"] == "BSF Management Service" and r["container"] == "app")
    assert (mgmt["replicas_after"], mgmt["likely"]) == ("17", "17–23")
    fixed = [r for r in rows if r["rule"] == "fixed"]
    assert fixed and all(r["likely"] == "" for r in fixed)


def test_asm_table_compares_on_and_off_per_1k(bfile, capsys):
    # BSF 3.2 (ASM on, Tables 3-16/3-17): 469.7 cores requested, 167 of them sidecars, at 54,000 TPS: 8.698 and 3.093
    # per 1K; BSF 3.1 (ASM off, Tables 3-5/3-6): 251 cores at 22,000 TPS: 11.409 per 1K, no sidecars: 0. Their call
    # mixes differ: no on - off difference
    assert cli(["--bundle", bfile, "asm", "--on", "bsf-3-2", "--off", "bsf-3-1", "--format", "table"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "bsf-3-2 (ASM on) against bsf-3-1 (ASM off), per 1K TPS:" in lines
    rows = {r["per_1k"]: r for r in _table_at(lines, "per_1k ")}
    assert rows["cpu_total_per_1k"] == {"per_1k": "cpu_total_per_1k", "on": "8.698", "off": "11.409",
                                        "on_minus_off": "not comparable"}
    assert rows["cpu_sidecar_per_1k"] == {"per_1k": "cpu_sidecar_per_1k", "on": "3.093", "off": "0",
                                          "on_minus_off": "not comparable"}
    assert rows["mem_sidecar_per_1k"]["off"] == "0"


def _helps(monkeypatch) -> list[tuple[str, str, object, str]]:
    """(command, option, default, help as shown: %% as %) of every option the command line declares."""
    seen = []
    add = argparse._ActionsContainer.add_argument

    def recording(self, *args, **kwargs):
        action = add(self, *args, **kwargs)
        seen.append((self.prog, "/".join(action.option_strings), action.default, (action.help or "").replace("%%", "%")))
        return action
    monkeypatch.setattr(argparse._ActionsContainer, "add_argument", recording)
    with pytest.raises(SystemExit) as e:
        cli(["--help"])
    assert e.value.code == 0
    return [x for x in seen if x[1] != "-h/--help"]


def test_every_option_help_keeps_the_guides_capitals_and_names_its_real_default(monkeypatch, capsys):
    helps = _helps(monkeypatch)
    capsys.readouterr()
    assert len(helps) > 60  # six calculators' options
    # units, acronyms and names keep their capitals (CPU, HPA, GiB, TPS, cnDBTier, Rhino, PyYAML...); what the reader
    # types is left as typed: option names and values (--asm add, --sidecar-cpu), a command in backticks, a file name,
    # and the names of the output formats of --format
    lower = re.compile(r"(?<![\w.-])(cpu|hpa|asm|gib|mib|gke|dsr|mps|rps|sps|tps|vcpus?|csv|json|pyyaml|daemonset|"
                       r"cndbtier|rhino|istio|kubernetes)(?![\w-])")
    for prog, opt, default, text in helps:
        assert text and text != text.upper() and "XX" not in text, (prog, opt, text)
        # nor shouted: three words in capitals in a row are no unit or acronym
        assert not re.search(r"\b[A-Z]{2,}\s+[A-Z]{2,}\s+[A-Z]{2,}\b", text), (prog, opt, text)
        if opt != "--format":
            assert not lower.search(re.sub(r"`[^`]*`", "", text)), (prog, opt, text)
    # where a help names the default and the parser has one, they agree: "(default X)" or "X (default)"
    for prog, opt, default, text in helps:
        if "default" in text and default not in (None, False):
            d = re.escape(str(default))
            assert re.search(rf"\(default {d}\b|\b{d} \((?:[^)]*, )?default\)", text), (prog, opt, default, text)
    # a few that carry meaning a planner acts on, in full
    by = {(p.split()[-1], o): t for p, o, _, t in helps}
    assert by[("footprint", "--sidecar-target")] == ("ceiling for a sidecar's CPU, % of its limit (default: printed HPA "
                                                     "target, else 100)")
    assert by[("footprint", "--sidecar-cpu")] == "with --asm add: cores per sidecar"
    assert by[("footprint", "--format")] == "output format (default table)"


def test_asm_table_overview_of_every_asm_enabled_run(bfile, capsys):
    assert cli(["--bundle", bfile, "asm", "--on", "bsf-3-2", "--off", "bsf-3-1", "--format", "table"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Sidecar share of requested CPU and memory at one site carrying traffic, every ASM-enabled scenario:"
    rows = {r["scenario"]: r for r in _table_at(lines, "scenario ")}
    # BSF 3.2: sidecars request 86 (Table 3-16) + 81 (Table 3-17) = 167 of 469.7 cores: 35.555 %; per 1K at 54,000 TPS
    # 167 / 54 = 3.093. Observed (Tables 3-18/3-19, Site1): sidecars 32.765 of 100.04 cores used: 32.752 %, and
    # 32.765 / 54 = 0.607 per 1K (tests/test_calculators_asm_overtarget.py works both out row by row)
    b32 = rows["bsf-3-2"]
    assert (b32["sidecar_cpu"], b32["all_cpu"], b32["cpu_share"], b32["sidecar_cpu_per_1k_requested"],
            b32["sidecar_cpu_per_1k_observed"], b32["observed_cpu_share"]) == ("167", "469.7", "35.555 %", "3.093",
                                                                               "0.607", "32.752 %")
    # Policy 3.2.7 (Table 3-140): 13 of its 23 services' application rows are flagged (policy-E031): its share is over
    # the 10 complete services only, and says so; it prints no observed sidecar CPU in cores
    p327 = rows["policy-3-2-7"]
    assert p327["cpu_share"].startswith("partial: ") and p327["cpu_share"].endswith(" % over 10 of 23 services")
    assert p327["mem_share"].endswith(" % over 10 of 23 services") and p327["observed_cpu_share"] == "not measured"
    assert p327["sidecar_cpu_per_1k_observed"] == "—"
    # the lines under the table: replicas printed as ranges, partial runs, a run without sidecar rows, the reference
    assert any(x.startswith("ranges: policy-3-2-3: ") and "Table 3-92" in x and "row 6 (Ingress Gateway, 2-27)" in x
               for x in lines)
    assert any(x.startswith("partial: policy-3-2-7: 14 rows of Table 3-140 could not be used") for x in lines)
    assert ("no sidecar rows: policy-3-2-1 is ASM-enabled but prints no sidecar rows; its sidecar cost is unknown "
            "(not 0).") in lines
    ref = next(x for x in lines if x.startswith("reference (not from the guides): "))
    assert ref.startswith("reference (not from the guides): Istio 1.3.5: 0.6 vCPU and 50 MB per 1,000 requests/s "
                          "through one proxy (https://istio.io/v1.3/docs/concepts/performance-and-scalability); ")
    # the pair's call mixes, as each guide section prints them, differ: no difference is given
    assert ("not comparable: call model differs: bsf-3-2 runs '4.5k nbsf Traffic and 50k Rx traffic', bsf-3-1 runs "
            "'14.4K nBSF + 7.8K Rx'") in lines


def test_footprint_ranked_runs_count_nodes_as_each_run_alone_does(bfile, capsys):
    # With 64-core / 256 GiB nodes (GKE reservations: 6 % of the first core, 1 % of the second, 0.5 % of the next two,
    # 0.25 % of the other 60 = 0.23 cores, 63.77 left for pods), Policy 3.2.8's 2,431 cores need at least
    # ceil(2431 / 63.77) = ceil(38.12) = 39 nodes; CPU binds and they fit: 39, the count the one-run footprint of
    # policy-3-2-8 gives for the same request
    nodes = ["--node-cores", "64", "--node-mem", "256"]
    assert cli(["--bundle", bfile, "footprint", "--call-model", "policy:pcf-sm", "--load", "43000", *nodes]) == 0
    ranked = {r["run"]: r for r in _table_at(capsys.readouterr().out.splitlines(), "run ")}
    assert ranked["policy-3-2-8"]["alone_nodes"] == "39"
    assert all((r["alone_nodes"] != "—") == (r["comparable"] == "yes") for r in ranked.values())
    assert cli(["--bundle", bfile, "footprint", "--scenario", "policy-3-2-8", "--load", "43000", *nodes]) == 0
    assert "Nodes per site: at least 39 (0 spare) of 64 cores / 256 GiB; binding: cpu; " in capsys.readouterr().out


def test_asm_what_if_names_the_load_each_change_is_sized_at(bfile, capsys):
    # no --load: each scenario at its own load per site, BSF 3.2 at 54,000 TPS (Tables 3-16/3-17), BSF 3.1 at 22,000
    # (Table 3-5); removing ASM from BSF 3.2 frees its 167 sidecar cores: 469.7 -> 302.7
    assert cli(["--bundle", bfile, "asm", "--on", "bsf-3-2", "--off", "bsf-3-1", "--format", "table"]) == 0
    rows = {r["change"]: r for r in _table_at(capsys.readouterr().out.splitlines(), "change ")}
    assert (rows["remove"]["scenario"], rows["remove"]["load"], rows["remove"]["cpu_before"], rows["remove"]["cpu_after"],
            rows["remove"]["cpu_delta"]) == ("bsf-3-2", "54,000", "469.7", "302.7", "-167")
    assert (rows["add"]["scenario"], rows["add"]["load"], rows["add"]["cpu_before"]) == ("bsf-3-1", "22,000", "251")


def test_deployment_refuses_a_kubernetes_version_it_does_not_model(capsys):
    # the HPA controller's rule is modelled for 1.33 (and later) and 1.32 (and earlier) only
    with pytest.raises(SystemExit) as e:
        cli(["deployment", "--product", "policy", "--load", "1000", "--kubernetes", "1.31"])
    assert e.value.code == 2 and "argument --kubernetes: invalid choice: '1.31'" in capsys.readouterr().err


def test_list_reads_the_bundle_given_as_one_argument(bfile, capsys):
    # --bundle=FILE before --list: the same listing as --bundle FILE
    assert cli(["--bundle", bfile, "deployment", "--list"]) == 0
    spaced = capsys.readouterr().out
    assert cli([f"--bundle={bfile}", "deployment", "--list"]) == 0
    assert capsys.readouterr().out == spaced and "--product policy --call-model pcf-sm " in spaced


def test_deployment_without_call_model_takes_the_products_first(bfile, capsys, tmp_path):
    # --call-model omitted: the product's first call model ("default: its first"); Policy's first with comparable
    # runs is PCRF data (policy-3-1-1, 3-1-3, 3-1-5; deployment --list prints it first for policy)
    fix = __import__("pathlib").Path(__file__).parent / "fixtures" / "deployment"
    argv = ["--bundle", bfile, "deployment", "--product", "policy", "--load", "10000", "--get", str(fix / "get-small.json"),
            "--format", "json"]
    assert cli(argv) == 0
    assert json.loads(capsys.readouterr().out)["request"]["call_model"] == "pcrf-data"
    # a mapping file that cannot be read is named as the form names it
    assert cli(argv + ["--mapping", str(tmp_path / "missing.json")]) == 2
    assert capsys.readouterr().err.startswith(f"error: Mapping: cannot read {tmp_path / 'missing.json'}: ")
