"""Text the ASM page, its CSV downloads and its report give the reader (calculators/asm_report.py), whole cells and
rows, with the figures from the guides' tables or by hand in each test's docstring: what the seed 20261131 draw of
the module's mutants showed no test read (the per-service replicas cell's title, the chart's scenario axis, the
Totals note of a scenario without sidecar rows, the downloads' type, the view CSV's sidecar CPU per 1K)."""
from __future__ import annotations

import csv
import io
import re

from calculators import asm, asm_report, report


def test_per_service_row_of_a_sidecar_counted_at_the_max_of_its_range(bundle):
    """Policy 3.2.4, Table 3-104 row 6 'Ingress Gateway': 2 to 27 replicas, request per pod 5 CPU and 6 Gi, Istio
    sidecar 2.5 CPU and 2 Gi. At the max end, 27 replicas: sidecar CPU 27 x 2.5 = 67.5 cores of 27 x (5 + 2.5) =
    202.5 (33.3 %), sidecar memory 27 x 2 = 54 GiB of 27 x (6 + 2) = 216 (25.0 %); the guide measures no sidecar
    share for this run (— / —). The replicas cell says the 27 is the max of 2-27 and, on hover, which table row."""
    html = asm_report.run_web(bundle, {"on": "policy-3-2-4", "off": "policy-3-1-1"})["html"]
    row = re.search(r'<tr data-service="ingress-gateway">.*?</tr>', html).group(0)
    assert row == ('<tr data-service="ingress-gateway"><td>app</td><td>ingress-gateway</td>'
                   '<td>27 <span class="atlas-note-ref" title="Table 3-104 row 6: min 2, max 27 replicas">max of 2-27</span></td>'
                   '<td>67.5</td><td>202.5</td><td>33.3 %</td><td>54</td><td>216</td><td>25.0 %</td><td>— / —</td>'
                   '<td>3-104/6</td></tr>')


def test_chart_axes_are_the_scenarios_and_the_share(bundle):
    """One band per scenario (nominal, in the overview's order, no axis title: the scenario ids say it), the share in
    % along x, CPU and memory bars side by side and coloured by what they are."""
    enc = asm_report.chart(asm.overview(bundle))["encoding"]
    assert enc == {"y": {"field": "scenario", "type": "nominal", "title": None, "sort": None},
                   "yOffset": {"field": "what"},
                   "x": {"field": "share", "type": "quantitative", "title": "Sidecar share (%)"},
                   "color": {"field": "what", "type": "nominal", "title": None}}


def test_report_totals_row_of_an_asm_scenario_without_sidecar_rows(bundle):
    """Policy 3.2.1 runs ASM (Table 3-62 'ASM | Enable') but prints no istio-proxy row: its Totals row has no figures
    and the note says the sidecar cost is unknown, not 0."""
    rep = asm_report.report_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})
    rows = [r for r in report.sheet_named(rep, "Totals")["rows"] if r[0] == "policy-3-2-1"]
    assert rows == [["policy-3-2-1", "TOTAL", None, None, None, None, None, None,
                     "ASM enabled, but no sidecar rows are printed: sidecar cost unknown (not 0)"]]


def test_both_downloads_are_csv_files_named_for_what_they_hold(bundle):
    """The comparison shown (named for its pair) and the overview of every scenario, both served as text/csv."""
    downloads = asm_report.run_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})["downloads"]
    assert {k: (d["mime"], d["filename"]) for k, d in downloads.items()} == {
        "csv": ("text/csv", "asm-bsf-3-3-vs-bsf-3-1.csv"),
        "overview": ("text/csv", "asm-overview-every-scenario.csv")}
    assert downloads["overview"]["text"]().startswith("scenario,component,service,cpu_sidecar_cores,")


def test_view_csv_totals_give_the_sidecar_cpu_per_1k(bundle):
    """BSF 3.3 at 63K TPS: sidecars request 280 cores (126 in Table 3-25, 154 in Table 3-26): 280 / 63 = 4.4444 per
    1K TPS (4 decimals). BSF 3.1 runs without ASM: 0 sidecar cores, 0 per 1K."""
    _, cmp, wi, _ = asm_report.compute_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})
    total = {r["scenario"]: r for r in csv.DictReader(io.StringIO(asm_report.view_csv(cmp, wi))) if r["part"] == "total"}
    assert float(total["bsf-3-3"]["cpu_sidecar_per_1k_cores"]) == round(280 / 63, 4) == 4.4444
    assert float(total["bsf-3-1"]["cpu_sidecar_per_1k_cores"]) == 0


def test_overview_csv_line_of_a_sidecar_counted_at_the_max_of_its_range(bundle):
    """Policy 3.2.4, Table 3-104 row 6 'Ingress Gateway' (as above): 27 sidecars at 2.5 CPU and 2 Gi, 67.5 cores of
    202.5 (33.3333 %) and 54 GiB of 216 (25.0 %), counted at the max of its 2-27 replicas; no observed share."""
    text = asm_report.to_csv(asm.overview(bundle), asm.asm_without_sidecars(bundle))
    line = next(r for r in csv.DictReader(io.StringIO(text))
                if (r["scenario"], r["service"]) == ("policy-3-2-4", "ingress-gateway"))
    assert [float(line[k]) for k in ("cpu_sidecar_cores", "cpu_total_cores", "cpu_sidecar_share_percent", "mem_sidecar_gib",
                                     "mem_total_gib", "mem_sidecar_share_percent")] == [67.5, 202.5, round(67.5 / 202.5 * 100, 4),
                                                                                        54, 216, 25.0]
    assert (line["component"], line["sources"], line["sidecar_replicas"], line["replica_range"], line["partial"],
            line["observed_cpu_sidecar_share_percent"], line["observed_memory_sidecar_share_percent"]) == (
        "app", "3-104/6", "27", "2-27 counted at 27 (Table 3-104 row 6)", "", "", "")


def test_report_results_and_sources_rows_of_a_sidecar_counted_at_the_max_of_its_range(bundle):
    """The same service in the report: its Results row gives the range it was counted from as '2-27', its Sources row
    names Table 3-104 row 6 as where its replicas and requests come from."""
    rep = asm_report.report_web(bundle, {"on": "policy-3-2-4", "off": "policy-3-1-1"})
    row = next(r for r in report.sheet_named(rep, "Results")["rows"] if r[:3] == ["policy-3-2-4", "app", "ingress-gateway"])
    assert row[3:5] == [67.5, 202.5] and row[6:8] == [54, 216] and row[13:] == [27, "2-27", None]
    src = [r for r in report.sheet_named(rep, "Sources")["rows"] if r[0] == "policy-3-2-4: ingress-gateway"]
    assert [(r[3], r[4], r[6]) for r in src] == [("3-104", 6, "replicas and requests")]


def test_overview_row_of_an_asm_scenario_without_sidecar_rows(bundle):
    """Policy 3.2.1 (ASM enabled in Table 3-62, no istio-proxy row): one row across the figures' 12 columns saying so."""
    html = asm_report.run_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})["html"]
    assert ('<tr data-scenario="policy-3-2-1" data-no-sidecars><td>policy-3-2-1</td><td colspan="12">ASM enabled, but no '
            'sidecar rows are printed in its resource tables: its sidecar cost is unknown (not 0).</td></tr>'
            '</tbody></table></div>') in html


def test_report_what_if_remove_row(bundle):
    """Removing ASM from BSF 3.3 at its own 63,000 TPS: 763.8 cores and 1,449.875 GiB before, less its 280 cores and
    282 GiB of sidecars (tests/test_asm_report_comparison.py's docstring): 483.8 cores and 1,167.875 GiB after."""
    rep = asm_report.report_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})
    row = next(r for r in report.sheet_named(rep, "Totals")["rows"] if r[1].startswith("what-if: remove"))
    assert row[:2] == ["bsf-3-3", "what-if: remove sidecars at 63000 TPS"]
    assert row[2:4] == [763.8, 483.8] and row[4] is None and row[5:7] == [1449.875, 1167.875] and row[7] is None
    assert row[8] == "per site: CPU -280 cores, memory -282 GiB"


def test_html_what_if_table_opens_with_its_heading_and_columns(bundle):
    """The what-if table: per site, requests; before, after and the change of CPU (cores) and memory (GiB); the remove
    line of BSF 3.3 at its 63,000 TPS takes 280 cores and 282 GiB off 763.8 and 1,449.875."""
    html = asm_report.run_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})["html"]
    assert ('<h3>What-if on a footprint (per site, requests)</h3><div class="atlas-table-wrap"><table class="atlas-rows '
            'atlas-asm-whatif"><thead><tr><th>Change</th><th>Scenario at load</th><th>CPU before (cores)</th>'
            '<th>CPU after (cores)</th><th>Δ CPU</th><th>Memory before (GiB)</th><th>Memory after (GiB)</th>'
            '<th>Δ memory</th></tr></thead><tbody>') in html
    assert ('<tr data-change="remove"><td>remove ASM</td><td>bsf-3-3 at 63,000 TPS</td><td>763.8</td><td>483.8</td>'
            '<td>-280</td><td>1,449.875</td><td>1,167.875</td><td>-282</td></tr>') in html


def test_report_inputs_row_of_a_what_if_load_given(bundle):
    """A what-if load of 63,000 TPS typed in the form: the Inputs sheet echoes it in the scenario's unit, with no note
    (the note 'each scenario's own load' is for an empty load;
    the report writes an empty note as no value)."""
    rep = asm_report.report_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1", "load": "63000"})
    assert report.sheet_named(rep, "Inputs")["rows"][2] == ["What-if load, total", "63000", "TPS", None]


def test_html_overview_note_and_the_per_service_heading(bundle):
    """The overview opens with how it counts (requests at one site carrying traffic, ranges at their max end); the
    page closes the what-if table before the per-service heading of the ASM-on scenario."""
    html = asm_report.run_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})["html"]
    assert ('every ASM-enabled scenario</h3><p class="atlas-note">Requests at one site carrying traffic, as the product '
            'pages and the footprint calculator count them; a replica count printed as a min-max range counts at its max '
            'end (the column <em>Replica ranges</em> names those rows).</p><div class="atlas-table-wrap">') in html
    assert '<td>-282</td></tr></tbody></table></div><h3>Per service: bsf-3-3</h3>' in html


def test_view_csv_per_service_total_and_difference_lines(bundle):
    """BSF 3.3 at 63,000 TPS. BSF Management Service (Table 3-25 row 2): sidecar memory 28 of 42 GiB = 66.6667 %,
    its line carries the scenario's load. The total: sidecar memory 282 of 1,449.875 GiB = 19.4500 %, 282 / 63 =
    4.4762 GiB per 1K TPS. The on - off line is per 1K of TPS."""
    _, cmp, wi, _ = asm_report.compute_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})
    rows = list(csv.DictReader(io.StringIO(asm_report.view_csv(cmp, wi))))
    mgmt = next(r for r in rows if r["part"] == "per service" and r["service"] == "BSF Management Service")
    assert float(mgmt["mem_sidecar_share_percent"]) == round(28 / 42 * 100, 4) == 66.6667
    assert (float(mgmt["load"]), mgmt["load_unit"]) == (63000, "TPS")
    total = next(r for r in rows if r["part"] == "total" and r["scenario"] == "bsf-3-3")
    assert float(total["mem_sidecar_share_percent"]) == round(282 / 1449.875 * 100, 4)
    assert float(total["mem_sidecar_per_1k_gib"]) == round(282 / 63, 4) == 4.4762
    diff = next(r for r in rows if r["part"] == "on - off")
    assert (diff["scenario"], diff["load_unit"]) == ("bsf-3-3 - bsf-3-1", "TPS")
