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
