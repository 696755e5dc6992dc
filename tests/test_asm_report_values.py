"""The ASM overhead calculator's report (calculators/asm_report.py): what a reader finds on each sheet, from named
tables of the BSF guide, the figures per 1K of load worked out by hand."""
from __future__ import annotations

import csv
import io

import pytest

from calculators import asm, asm_report, report


def _like_for_like(bundle) -> dict:
    """The bundle with bsf-3-1's call mix written as bsf-3-3's (as tests/test_calculators_asm_overtarget.py's
    test_same_call_model_and_mode_is_comparable does): the pair is then like for like and the difference is given."""
    f33 = next(f for f in bundle["scenario_facts"] if f["id"] == "bsf-3-3")
    facts = [dict(f, call_mix=f33["call_mix"]) if f["id"] == "bsf-3-1" else f for f in bundle["scenario_facts"]]
    return dict(bundle, scenario_facts=facts)


def _report(bundle, params: dict) -> dict:
    ov, cmp, wi, i = asm_report.compute_web(bundle, params)
    return asm_report.report_of(ov, cmp, wi, asm.asm_without_sidecars(bundle), i, bundle)


def _rows(rep: dict, name: str) -> list[list]:
    return report.sheet_named(rep, name)["rows"]


def test_comparable_pair_gives_the_difference_per_1k(bundle):
    """bsf-3-3 (ASM on) requests 763.8 cores for 63K TPS: 12.124 per 1K; bsf-3-1 (ASM off) 251 for 22K: 11.409; on -
    off = 0.7147 cores per 1K TPS (4 significant digits). Sidecars: 280 cores (126 + 154, Tables 3-25/3-26) / 63 =
    4.444 per 1K against none. Without a what-if load each scenario keeps its own."""
    rep = _report(_like_for_like(bundle), {"on": "bsf-3-3", "off": "bsf-3-1"})
    what_if = _rows(rep, "Inputs")[2]
    assert what_if == ["What-if load, total", None, "TPS", "each scenario's own load"]
    per_1k = {r[1]: r for r in _rows(rep, "Totals") if r[0] == "bsf-3-3 - bsf-3-1"}
    cpu = per_1k["CPU request per 1K of load (cores): on 12.12, off 11.41"]
    assert cpu[8] == "difference 0.7147 cores" and cpu[2:8] == [None] * 6
    side = per_1k["sidecar CPU request per 1K of load (cores): on 4.444, off 0"]
    assert side[8] == "difference 4.444 cores"
    assert ["difference between the runs", "ASM: enabled against disabled"] in _rows(rep, "Warnings")
    assert ["difference between the runs", "Load: 63K TPS against 22K TPS"] in _rows(rep, "Warnings")


def test_pair_not_like_for_like_gives_no_difference(bundle):
    """bsf-3-3 against bsf-3-1 as the guide prints them: the call mixes differ (8.43K nbsf + 54.7K Rx against 14.4K
    nBSF + 7.8K Rx), so each comparison row says 'not comparable' and the reason is a warning."""
    rep = _report(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})
    per_1k = [r for r in _rows(rep, "Totals") if r[0] == "bsf-3-3 - bsf-3-1"]
    assert len(per_1k) == 4 and all(r[8] == "not comparable" for r in per_1k)
    assert any(k == "not comparable" and t.startswith("call model differs") for k, t in _rows(rep, "Warnings"))


def test_results_columns_name_their_units(bundle):
    rep = _report(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})
    cols = [(c["header"], c["unit"]) for c in report.sheet_named(rep, "Results")["columns"]]
    assert cols == [
        ("Scenario", None), ("Component", None), ("Service", None), ("Sidecar CPU request", "cores"),
        ("All CPU request", "cores"), ("Sidecar share of CPU request", "%"), ("Sidecar memory request", "GiB"),
        ("All memory request", "GiB"), ("Sidecar share of memory request", "%"), ("Observed sidecar share of CPU", "%"),
        ("Observed sidecar share of memory", "%"), ("Load per site", None), ("Load unit", None),
        ("Sidecar replicas", "pods"), ("Replica range (counted at the max end)", None), ("Partial", None)]
    assert [(c["header"], c["unit"]) for c in report.sheet_named(rep, "Totals")["columns"]] == [
        ("Scenario", None), ("What", None), ("Sidecar CPU request", "cores"), ("All CPU request", "cores"),
        ("Sidecar share of CPU request", "%"), ("Sidecar memory request", "GiB"), ("All memory request", "GiB"),
        ("Sidecar share of memory request", "%"), ("Note", None)]


def test_bsf_3_3_totals_row(bundle):
    """bsf-3-3 at Site1: sidecars request 280 of 763.8 cores (36.66 %)."""
    rep = _report(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})
    row = next(r for r in _rows(rep, "Totals") if r[:2] == ["bsf-3-3", "TOTAL, one site carrying traffic"])
    assert row[2:4] == [280, pytest.approx(763.8)] and row[4] == pytest.approx(280 / 763.8 * 100)


def _view(bundle, on: str, off: str) -> list[dict]:
    _, cmp, wi, _ = asm_report.compute_web(bundle, {"on": on, "off": off})
    return list(csv.DictReader(io.StringIO(asm_report.view_csv(cmp, wi))))


def test_view_csv_total_carries_the_observed_shares(bundle):
    """BSF 3.2, Tables 3-18 (rows 1-11) and 3-19 (rows 1-3) at Site1. CPU in cores: sidecars 32.765 of 100.04
    (tests/test_calculators_asm_overtarget.py::test_bsf_3_2_observed_share_includes_the_sidecars) = 32.7519 %.
    Memory in GB: sidecars 3.19 + 0.914 + 0.925 + 1.02 + 1.0 + 3.84 + 1.07 + 1.65 + 0.653 + 0.933 + 0.921 + 1.19 + 2.9
    + 1.24 = 21.446; applications 9.13 + 0.439 + 0.814 + 1.99 + 2.47 + 26.9 + 2.71 + 8.37 + 1.05 + 1.62 + 0.745 + 14.3
    + 439 + 68.7 = 578.238; share 21.446 / 599.684 = 3.5762 % (4 decimals). bsf-3-1 runs without ASM: no share."""
    total = {r["scenario"]: r for r in _view(bundle, "bsf-3-2", "bsf-3-1") if r["part"] == "total"}
    assert total["bsf-3-2"]["observed_cpu_sidecar_share_percent"] == str(round(32.765 / 100.04 * 100, 4))
    assert total["bsf-3-2"]["observed_memory_sidecar_share_percent"] == str(round(21.446 / 599.684 * 100, 4)) == "3.5762"
    assert total["bsf-3-1"]["observed_cpu_sidecar_share_percent"] == "" == total["bsf-3-1"]["observed_memory_sidecar_share_percent"]


def test_view_csv_marks_the_services_left_out_of_a_partial_scenario(bundle):
    """Policy 3.2.7, Table 3-140: the application rows flagged by erratum policy-E031 and the Query Service sidecar
    printed without a value (policy-E094) leave config-server, ue-service and the others out of the share: each of
    their per-service lines says 'excluded rows'."""
    rows = [r for r in _view(bundle, "policy-3-2-7", "policy-3-1-1") if r["part"] == "per service"]
    notes = {r["service"]: r["note"] for r in rows}
    assert notes["config-server"] == "excluded rows" and notes["ue-service"] == "excluded rows"


def test_html_opens_with_the_overview_table_and_its_columns(bundle):
    """The result is one block the page styles (class atlas-result atlas-asm); the overview's last column names the
    rows not used."""
    out = asm_report.run_web(bundle, {"on": "bsf-3-2", "off": "bsf-3-1"})["html"]
    assert out.startswith('<div class="atlas-result atlas-asm"><h3>Sidecar share of requested resources, every '
                          'ASM-enabled scenario</h3>')
    assert "<th>Replica ranges (counted at the max end)</th><th>Rows not used</th></tr></thead><tbody>" in out


def test_chart_bars_per_scenario_and_what(bundle):
    """BSF 3.2 requests 167 of 469.7 CPU cores for sidecars (Tables 3-16, 3-17): 35.55 %. Each bar is one scenario
    and what (CPU or memory request), the two side by side (yOffset), coloured by what; a partial scenario
    (policy-3-2-7) is labelled as counted over its complete services."""
    spec = asm_report.chart(asm.overview(bundle))
    bars = [v for v in spec["data"]["values"] if v["scenario"] == "bsf-3-2"]
    assert [(v["what"], v["share"]) for v in bars][0] == ("CPU request", round(167 / 469.7 * 100, 2)) == ("CPU request", 35.55)
    assert [v["what"] for v in bars] == ["CPU request", "memory request"] and 0 < bars[1]["share"] < 100
    assert any(v["scenario"] == "policy-3-2-7 (partial: complete services only)" for v in spec["data"]["values"])
    enc = spec["encoding"]
    assert (enc["y"]["field"], enc["x"]["field"], enc["yOffset"]["field"], enc["color"]["field"]) == \
        ("scenario", "share", "what", "what")


def test_what_if_at_the_load_given(bundle):
    """A what-if load of 63,000 TPS given in the form: both scenarios are sized at it (bsf-3-1 at 63K TPS, not its own
    22K), and the inputs echo it."""
    _, _, wi, inputs = asm_report.compute_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1", "load": "63000"})
    assert wi["add"]["scenario"] == "bsf-3-1" and wi["add"]["load"] == 63000 and wi["remove"]["load"] == 63000
    assert inputs == {"on": "bsf-3-3", "off": "bsf-3-1", "load": "63000"}


def test_overview_csv_line_of_an_asm_scenario_without_sidecar_rows(bundle):
    """Policy 3.2.1 runs ASM (Table 3-62 'ASM | Enable') but prints no istio-proxy row: its TOTAL line has empty
    figures (16 columns after the scenario) and says why, never zeros."""
    text = asm_report.to_csv(asm.overview(bundle), asm.asm_without_sidecars(bundle))
    line = next(r for r in csv.reader(io.StringIO(text)) if r[0] == "policy-3-2-1")
    assert line == ["policy-3-2-1", "", "TOTAL"] + [""] * 13 + [
        "ASM enabled, but no sidecar rows are printed: sidecar cost unknown (not 0)"]


def test_method_sheet_states_how_the_overhead_is_counted(bundle):
    """The Method sheet says how the overhead is counted (requests at one site carrying traffic, a replica range at its
    max end), how the comparison and the what-if are made, and labels Istio's published figures as a reference."""
    method = _rows(_report(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"}), "Method")
    assert [m[0] for m in method] == ["Overhead", "Comparison", "What-if", "Istio reference", "Istio reference"]
    assert method[0][1] == (
        "Per scenario and service, the sidecars' requested CPU and memory (replicas x per-container request) as a share of "
        "everything the scenario's resource tables request, at one site carrying traffic (as the product pages and the "
        "footprint calculator count it); a replica count printed as a min-max range counts at its max end, the most pods "
        "the benchmark's autoscaler could run at its load. Observed share where the guide measures sidecars, at the first "
        "site carrying traffic.")
    assert method[3][1].startswith("Istio 1.3.5: 0.6 vCPU and 50 MB per 1,000 requests per second through a proxy (")


def test_csv_headers_and_the_comparable_pairs_rows(bundle):
    """The two downloads' columns, and for the like-for-like pair bsf-3-3 / bsf-3-1 the on - off line's sidecar CPU
    per 1K: 280 / 63 - 0 = 4.4444 cores (Tables 3-25/3-26). Each per-service line names its source table and row."""
    b = _like_for_like(bundle)
    out = asm_report.run_web(b, {"on": "bsf-3-3", "off": "bsf-3-1"})
    assert out["inputs"] == {"on": "bsf-3-3", "off": "bsf-3-1", "load": ""}
    view = list(csv.reader(io.StringIO(out["downloads"]["csv"]["text"]())))
    assert view[0] == ["part", "scenario", "asm", "component", "service", "cpu_sidecar_cores", "cpu_total_cores",
                       "cpu_sidecar_share_percent", "mem_sidecar_gib", "mem_total_gib", "mem_sidecar_share_percent",
                       "cpu_total_per_1k_cores", "cpu_sidecar_per_1k_cores", "mem_total_per_1k_gib",
                       "mem_sidecar_per_1k_gib", "observed_cpu_sidecar_share_percent",
                       "observed_memory_sidecar_share_percent", "load", "load_unit", "cpu_before_cores",
                       "cpu_after_cores", "cpu_delta_cores", "mem_before_gib", "mem_after_gib", "mem_delta_gib",
                       "sidecar_replicas", "replica_range", "sources", "note"]
    rows = [dict(zip(view[0], r)) for r in view[1:]]
    diff = next(r for r in rows if r["part"] == "on - off")
    assert diff["cpu_sidecar_per_1k_cores"] == str(round(280 / 63, 4))
    mgmt = next(r for r in rows if r["part"] == "per service" and r["service"] == "BSF Management Service")
    assert "3-25/2" in mgmt["sources"].split()  # Table 3-25 row 2: 14 replicas, 2-core sidecar
    overview = next(csv.reader(io.StringIO(out["downloads"]["overview"]["text"]())))
    assert overview == ["scenario", "component", "service", "cpu_sidecar_cores", "cpu_total_cores",
                        "cpu_sidecar_share_percent", "mem_sidecar_gib", "mem_total_gib", "mem_sidecar_share_percent",
                        "load", "load_unit", "sources", "observed_cpu_sidecar_share_percent",
                        "observed_memory_sidecar_share_percent", "sidecar_replicas", "replica_range", "partial"]


def test_html_comparison_and_differences_tables(bundle):
    """The comparison table labels its four per-1K lines; the differences table writes a fact a run does not state as
    'not stated' (bsf-3-3's facts give no sites provisioned; bsf-3-1 is the '4-site setup'); the per-service table
    gives a sidecar's replicas (BSF Management Service: 14, Table 3-25 row 2)."""
    html = asm_report.run_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})["html"]
    assert '<tr data-key="cpu_sidecar_per_1k"><td>CPU request, sidecars (cores)</td>' in html
    assert "<tr><td>Sites provisioned</td><td>not stated</td><td>4</td><td>yes</td></tr>" in html
    assert ('<tr data-service="BSF Management Service"><td>' in html
            and html.split('<tr data-service="BSF Management Service">')[1].split("</tr>")[0].count("<td>14</td>") == 1)
