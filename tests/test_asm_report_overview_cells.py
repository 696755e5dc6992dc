"""The ASM page's overview of every ASM-enabled scenario (calculators/asm_report.py): the table's rows and cells a
reader reads one by one (``to_html``) and the chart beside it (``chart``), from named tables of the BSF and Policy
guides, the figures worked out by hand in each test's docstring."""
from __future__ import annotations

from calculators import asm, asm_report


def _overview_cell(html: str, scenario: str, index: int) -> str:
    """The ``index``-th cell (from 0) of ``scenario``'s row in the page's overview table."""
    row = html.split(f'<tr data-scenario="{scenario}"', 1)[1].split("</tr>", 1)[0]
    return row.split("<td>")[index + 1].split("</td>")[0]


def test_observed_sidecar_cpu_per_1k_needs_a_load_per_site(bundle):
    """BSF 3.2 (54K TPS per site, traffic on Site1): its sidecars are observed at 32.765 cores (Tables 3-18 rows
    1-11 and 3-19 rows 1-3), 32.765 / 54,000 x 1,000 = 0.60676: '0.607 per 1K TPS (site1)' in the overview's
    'Sidecar CPU per 1K load (cores, observed at one site)' column (the 11th). The same reading from a scenario that
    states no load per site has nothing to divide by: 'not measured in cores', as the mesh page writes it, not a
    dash per 1K."""
    ov, cmp, wi, _ = asm_report.compute_web(bundle, {"on": "bsf-3-2", "off": "bsf-3-1"})
    assert _overview_cell(asm_report.to_html(ov, cmp, wi), "bsf-3-2", 10) == "0.607 per 1K TPS (site1)"
    no_load = [dict(o, observed=dict(o["observed"], cpu=dict(o["observed"]["cpu"], sidecar_per_1k=None)))
               if o["scenario"] == "bsf-3-2" else o for o in ov]
    assert _overview_cell(asm_report.to_html(no_load, cmp, wi), "bsf-3-2", 10) == "not measured in cores"


def test_overview_rows_mark_the_partial_scenarios(bundle):
    """Policy 3.2.7 is partial (Table 3-140's application rows flagged by erratum policy-E031, its Query Service
    sidecar printed without a value, policy-E094) and prints no replica range: its row carries data-partial alone.
    BSF 3.2 (Tables 3-16, 3-17) has every row usable: neither mark."""
    html = asm_report.run_web(bundle, {"on": "bsf-3-2", "off": "bsf-3-1"})["html"]
    assert '<tr data-scenario="policy-3-2-7" data-partial><td>policy-3-2-7</td>' in html
    assert '<tr data-scenario="bsf-3-2"><td>bsf-3-2</td>' in html


def test_chart_describes_itself(bundle):
    """The chart's description, which a screen reader reads in place of the bars, says what they show."""
    spec = asm_report.chart(asm.overview(bundle))
    assert spec["description"] == "Sidecar share of requested CPU and memory per ASM-enabled scenario"


def test_overview_observed_share_cell(bundle):
    """BSF 3.2 at Site1 (Tables 3-18 and 3-19): sidecars use 32.765 of 100.04 cores (32.75 %) and 21.446 of 599.684 GB
    of memory (3.58 %), shown to one decimal: '32.8 % / 3.6 %' in the 'Observed sidecar share of CPU / memory'
    column (the 9th)."""
    html = asm_report.run_web(bundle, {"on": "bsf-3-2", "off": "bsf-3-1"})["html"]
    assert _overview_cell(html, "bsf-3-2", 8) == "32.8 % / 3.6 %"


def test_chart_is_bars_as_wide_as_the_page(bundle):
    """Bars with a tooltip, as wide as their container, 26 pixels of height per ASM-enabled scenario with sidecar rows
    (11: BSF 3.2 and 3.3, Policy 3.2.2 to 3.2.10): 286."""
    spec = asm_report.chart(asm.overview(bundle))
    assert spec["mark"] == {"type": "bar", "tooltip": True}
    assert (spec["width"], spec["height"]) == ("container", 26 * 11)
