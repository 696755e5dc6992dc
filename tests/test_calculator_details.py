"""Details a reader sees in the calculators' output, each pinned to a named table row or computed by hand here:
a mutation sample (tools/mutation_samples/seed-20261125.txt) found each of them unchecked."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT


def test_asm_observed_share_is_marked_partial_only_when_it_is(bundle):
    """BSF 3.2's observed sidecar CPU share at Site1: 32.765 of 100.04 cores (the guide's utilization tables; the report
    names it, 32.75 %), shown to one decimal; "(partial)" only for a share missing some services' rows."""
    from calculators import asm, asm_report
    o = next(x for x in asm.overview(bundle) if x["scenario"] == "bsf-3-2")
    assert o["observed"]["cpu"]["sidecar"] == pytest.approx(32.765) and o["observed"]["cpu"]["total"] == pytest.approx(100.04)
    assert asm_report._observed_cell(o, "cpu") == "32.8 %"  # 32.765 / 100.04 = 32.75 %
    partial = {"observed": {"cpu": dict(o["observed"]["cpu"], partial=["Table 3-18 row 9"])}}
    assert asm_report._observed_cell(partial, "cpu") == "32.8 % (partial)"
    assert asm_report._observed_cell({"observed": {}}, "cpu") == "not measured"


def test_asm_differences_name_the_asm_setting_of_each_run(bundle):
    """BSF 3.3 ran with ASM (its title: "(with ASM)"), BSF 3.1 without."""
    from calculators import asm
    row = next(d for d in asm.differences(bundle, "bsf-3-3", "bsf-3-1") if d["what"] == "ASM")
    assert row == {"what": "ASM", "on": "enabled", "off": "disabled", "differs": True}


def test_backtest_leaves_out_a_service_whose_role_is_test():
    from calculators import backtest
    assert backtest.cpu_rule("app", "nrf-stub", "test", False) is None
    assert backtest.cpu_rule("stub", "udr-stub", None, False) is None
    assert backtest.cpu_rule("app", "ingress-gateway", "traffic", False) == "load-scaled"


def test_footprint_baseline_names_its_document_title_and_unit(bundle):
    """Data/bsf/scenarios.yaml, bsf-3-3: the guide's scenario heading, 63,000 TPS on one site."""
    from calculators import footprint
    res = footprint.compute(bundle, "bsf-3-3", 63000)
    base = res["baseline"]
    assert base["doc"] == "bsf" and base["unit"] == "TPS" and base["load_per_site"] == 63000
    assert base["title"] == ("Test Scenario: BSF Performance Benchmarking 63K TPS Traffic on a Three-site Setup with Traffic "
                             "on One Site (with ASM)")


@pytest.mark.parametrize("text, on", [("1", True), ("true", True), ("on", True), ("yes", True), ("Yes", True),
                                      ("", False), (None, False), ("no", False), ("0", False)])
def test_footprint_form_checkboxes_read_as_browsers_and_links_write_them(text, on):
    from calculators import footprint
    assert footprint.form_flag(text) is on
    assert footprint.Request.from_form({"load": "1", "failover": text}).failover is on


def test_footprint_csv_names_its_columns_and_the_rows_it_could_not_size(bundle):
    """Policy 3.2.7, Table 3-140: rows 4 to 6 (config-server, egress-gateway, ingress-gateway) are excluded by erratum
    policy-E031: each is a "missing" line naming its table and row, and every line says the result is partial."""
    from calculators import footprint, footprint_report
    from conftest import csv_body
    text = footprint_report.result_csv(footprint.compute(bundle, "policy-3-2-7", 75000))
    assert text.startswith('"# answer: Per site: at least ')  # the answer, marked partial, before the header
    lines = csv_body(text).splitlines()
    header = lines[0].split(",")
    assert header[:8] == ["scenario", "component", "service", "container", "is_sidecar", "role", "rule", "rule_detail"]
    assert header[-1] == "partial"
    missing = [dict(zip(header, line.split(","))) for line in lines[1:] if ",missing," in line]
    ingress = next(m for m in missing if m["service"] == "ingress-gateway")
    assert (ingress["table_id"], ingress["source_row"], ingress["notes"], ingress["partial"]) == ("3-140", "6", "policy-E031", "true")
    assert {m["source_row"] for m in missing if m["table_id"] == "3-140" and m["service"] in
            ("config-server", "egress-gateway")} == {"4", "5"}


def test_escape_matches_the_standard_library_for_every_special_character():
    import html

    from calculators.formatting import escape
    for s in ("a > b", "<tag attr=\"x\">", "Tom & Jerry's", ">>", "plain"):
        assert escape(s) == html.escape(s)
    assert escape("x > y") == "x &gt; y"


@pytest.mark.parametrize("value, message", [
    ("120", "CPU ceiling must be at most 100 percent; got 120."),
    ("0.5", "CPU ceiling must be at least 1 percent; got 0.5."),
])
def test_ceiling_refusals_quote_the_value_given(value, message):
    from calculators import inputs
    with pytest.raises(ValueError) as e:
        inputs.optional_ceiling(value, ValueError)
    assert str(e.value) == message


def test_overtarget_and_shcm_refusals_name_their_field(bundle):
    from calculators import overtarget, shcm
    with pytest.raises(overtarget.OverTargetError) as e:
        overtarget.compute(bundle, "policy", "150")
    assert str(e.value) == "Memory threshold must be between 1 and 100 %; got 150."
    with pytest.raises(shcm.ShcmError) as e:
        shcm.compute(bundle, "shcm-test-5", "x")
    assert str(e.value) == "Target load must be a number in RPS, not 'x'."


def test_overtarget_hpa_row_gives_the_controllers_unclamped_and_desired_counts(bundle):
    """Policy 3.4.2, Table 3-214 row 1, Site3: ndbappmysqld at 92 % against its 80 % target, 5 replicas (Table 3-212
    row 1), no HPA bounds printed. By hand: 92 / 80 = 1.15, beyond the 0.1 tolerance: ceil(5 x 1.15) = ceil(5.75) = 6,
    critical; no max, so nothing for it to rise to; both Kubernetes versions agree (no note)."""
    from calculators import overtarget
    row = next(r for r in overtarget.compute(bundle, "policy")["cpu"]
               if (r["scenario"], r["table_id"], r["row"], r["site"]) == ("policy-3-4-2", "3-214", 1, "site3"))
    assert (row["observed"], row["target"], row["replicas"], row["replicas_table"], row["replicas_row"]) == (92, 80, 5, "3-212", 1)
    assert (row["hpa_reads"], row["unclamped"], row["desired"], row["bound"]) == (92, 6, 6, None)
    assert (row["severity"], row["max_must_rise_to"], row["controller_note"]) == ("critical", None, None)


def test_packing_names_memory_as_the_binding_resource_by_hand():
    """Four pods of 1 core and 32 GiB on 16-core, 64 GiB nodes with no reservation: two fit a node (64 GiB), so 2
    nodes; the lower bounds are CPU ceil(4 / 16) = 1, memory ceil(128 / 64) = 2, pods ceil(4 / 110) = 1."""
    from calculators import packing
    res = packing.pack([{"name": "db", "cpu": 1, "mem": 32, "count": 4}], 16, 64, reserve="custom")
    assert res["nodes"] == 2
    assert res["bounds"] == {"cpu": 1, "memory": 2, "pods": 1, "anti-affinity": 0}
    assert res["binding"] == "memory"
    assert [f["mem"] for f in res["fill"]] == [100.0, 100.0]


def test_cli_dsr_prints_a_table_by_default_and_explains_its_target(bundle, tmp_path, capsys):
    import json

    from calculators.__main__ import main as cli
    f = tmp_path / "bundle.json"
    f.write_text(json.dumps(bundle))
    assert cli(["--bundle", str(f), "dsr", "--scenario", "dsr-relay-12vcpu"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.split()[:3] == ["section", "item", "value"] and "," not in first  # a table, not CSV or JSON
    with pytest.raises(SystemExit):
        cli(["dsr", "--help"])
    assert "total message rate, MPS (default: the run's own)" in " ".join(capsys.readouterr().out.split())
    # and as a command (python -m calculators), the same table
    r = subprocess.run([sys.executable, "-m", "calculators", "dsr", "--scenario", "dsr-relay-12vcpu"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == first, r.stderr


def test_a_test_stubs_sidecar_is_left_out_too():
    from calculators import backtest
    assert backtest.cpu_rule("app", "nrf-stub", "test", True) is None
    assert backtest.cpu_rule("app", "ingress-gateway", "traffic", True) == "load-scaled"


def _cells(html: str, service: str, container: str) -> list[str]:
    import re
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        if cells[1:3] == [service, container]:
            return cells
    raise AssertionError(f"no row for {service} / {container}")


def test_footprint_result_row_shows_the_printed_row_and_its_totals(bundle):
    """BSF 3.3, Table 3-25 row 2: BSF Management Service, 14 replicas, CPU request/limit 4/4, memory 1/4 GiB. At the
    scenario's own 63,000 TPS and no target the replicas stay 14; totals by hand: 14 x 4 = 56 cores, 14 x 1 = 14 GiB."""
    from calculators import footprint, footprint_report
    html = footprint_report.result_html(footprint.compute(bundle, "bsf-3-3", 63000))
    cells = _cells(html, "BSF Management Service", "app")
    assert cells[5:7] == ["14", "14"] and cells[8:14] == ["4", "4", "1", "4", "56", "14"]
    assert cells[14] == "Table 3-25, row 2"
    side = _cells(html, "BSF Management Service", "istio-proxy")  # its sidecar: 2/2 cores, 2/2 GiB per pod
    assert side[8:14] == ["2", "2", "2", "2", "28", "28"]


def test_footprint_summary_says_how_many_sites_were_provisioned(bundle):
    """Data/bsf/scenarios.yaml, bsf-3-1: 4 sites provisioned, traffic on one."""
    from calculators import footprint, footprint_report
    html = footprint_report.result_html(footprint.compute(bundle, "bsf-3-1", 22000))
    assert "on 1 site(s) carrying traffic of 4 provisioned; redundancy none." in html


def test_helm_values_list_what_could_not_be_sized(bundle):
    """Policy 3.2.7, Table 3-140 rows 4-6, excluded by erratum policy-E031: named at the head of the Helm values."""
    from calculators import footprint, footprint_report
    helm = footprint_report.result_helm(footprint.compute(bundle, "policy-3-2-7", 75000))
    for svc in ("config-server", "egress-gateway", "ingress-gateway"):
        assert f"# MISSING (not sized): {svc} / app: excluded by erratum (policy-E031)\n" in helm


def test_overtarget_own_row_in_percent_to_three_decimals_and_its_hpa_count(bundle):
    """Own CSV: 7 replicas of 0.3 cores used 3.5 cores together: 3.5 / (7 x 0.3) = 166.667 % against a 70 % target;
    the HPA reads 166 %, 166 / 70 = 2.371, ceil(7 x 2.371) = ceil(16.6) = 17, critical (it scales up); no HPA bounds."""
    from calculators import overtarget_report
    html = overtarget_report.run_web(bundle, {"product": "policy", "csv": "name,replicas,cpu_request,observed,target\nsvc,7,0.3,3.5 cores,70\n"})["html"]
    row = next(r for r in _rows(html) if r[2:3] == ["svc"])
    assert row == ["critical", "2", "svc", "7", "166.667", "70", "over", "17"]


def test_overtarget_rows_of_a_partial_scenario_say_so(bundle):
    """Policy 3.3.2 is partial (Table 3-196: two ndbmtd rows flagged, policy-E053); its ndbappmysqld at Site3, 89 %
    against 80 % (Table 3-196 row 1) with 5 replicas (Table 3-194 row 1): 89 / 80 = 1.1125, ceil(5 x 1.1125) = 6, critical."""
    from calculators import overtarget_report
    html = overtarget_report.run_web(bundle, {"product": "policy"})["html"]
    row = next(r for r in _rows(html) if r[2:6] == ["policy-3-3-2", "ndbappmysqld", "app", "site3"])
    assert row == ["critical", "over", "policy-3-3-2", "ndbappmysqld", "app", "site3", "89", "80", "1.113", "5 (Table 3-194, row 1)", "6",
                   "Table 3-196, row 1", "89", "partial"]


def test_overtarget_no_csv_at_all_asks_for_the_header():
    from calculators import overtarget
    with pytest.raises(overtarget.OverTargetError) as e:
        overtarget.parse_own(None)
    assert str(e.value) == "The CSV is empty: give a header line name,replicas,cpu_request,observed,target."


def _rows(html: str) -> list[list[str]]:
    import re
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)]


def test_headroom_note_says_when_the_benchmark_count_was_scaled(bundle):
    """BSF 3.3, Ingress Gateway (Table 3-25 row 6: 7 replicas, CPU request 4) used 5.97 cores at Site1 (Table 3-28
    row 12, 21.32 %). At a 70 % target: 5.97 / (4 x 0.7) = 2.13 -> 3 replicas, fewer than the 7 the benchmark ran,
    so 7 are kept; at half the load 7 x 0.5 = 3.5 -> 4 are kept (the target gives 5.97 x 0.5 / 2.8 = 1.07 -> 2)."""
    from calculators import footprint
    def note(load):
        res = footprint.compute(bundle, "bsf-3-3", load, target_cpu_percent=70)
        r = next(r for r in res["rows"] if r["service"] == "Ingress Gateway" and not r["is_sidecar"])
        return r["replicas_after"], r["notes"]
    assert note(63000) == (7, ["the benchmark ran with headroom: the target gives 3 replicas, kept at 7, the 7 the benchmark "
                               "ran (conservative; fewer pods per unit of load were never measured)"])
    assert note(31500) == (4, ["the benchmark ran with headroom: the target gives 2 replicas, kept at 4, the 7 the benchmark "
                               "ran scaled to the load (x0.5) (conservative; fewer pods per unit of load were never measured)"])


def test_a_baseline_without_a_stated_site_count_says_so(bundle):
    """Data/bsf/scenarios.yaml, bsf-3-3: sites_provisioned is empty (the title says three sites, Tables 3-26 to 3-31 report
    four): the result warns and names the count it used; BSF 3.1 (4 stated) and a given count do not warn."""
    from calculators import footprint, footprint_report
    res = footprint.compute(bundle, "bsf-3-3", 63000)
    msg = ("The guide does not state consistently how many sites bsf-3-3 provisioned (see its scenario page): sized as 1 "
           "provisioned, the sites carrying traffic. Give Sites provisioned for your deployment: every georedundant site "
           "holds its own cnDBTier.")
    assert msg in res["warnings"]
    assert "how many sites bsf-3-3 provisioned" in footprint_report.result_html(res)
    assert not [w for w in footprint.compute(bundle, "bsf-3-3", 63000, sites_provisioned=3)["warnings"] if "provisioned" in w]
    assert not [w for w in footprint.compute(bundle, "bsf-3-1", 22000)["warnings"] if "provisioned" in w]


def test_tidy_numbers_are_written_plain():
    """The tidy downloads' number cells (the ranking's and the mesh's): 9 decimals at most, no separators, by hand:
    1/3 -> 0.333333333; 684/21.5 = 31.8139534883... -> 31.813953488; 12000 -> 12000; -0.0 -> 0; None -> ''."""
    from fractions import Fraction

    from calculators.formatting import tidy_number
    assert tidy_number(Fraction(1, 3)) == "0.333333333"
    assert tidy_number(Fraction(684) / Fraction("21.5")) == "31.813953488"
    assert tidy_number(12000) == "12000" and tidy_number(2.5) == "2.5"
    assert tidy_number(-0.0) == "0" and tidy_number(None) == ""
