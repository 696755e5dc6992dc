"""The ASM page's comparison of an ASM-on and an ASM-off run and its what-if (calculators/asm_report.py): the
comparison table's four per-1K lines and the what-if lines of the CSV download, from BSF 3.3 (ASM on, Tables 3-25 and
3-26) and BSF 3.1 (ASM off, Tables 3-5 and 3-6), summed by hand in each test's docstring.

Requests at Site1 (replicas x per-container request), by hand from the guide's tables:
- BSF 3.1 at 22K TPS: CPU 96 (Table 3-5) + 155 (Table 3-6) = 251 cores; memory 70 GiB (Table 3-5: 2 x 0.5 + 11 x 1 +
  2 x 2 + 2 x 0.5 + 2 x 4 + 9 x 4 + 2 x 1 + 2 x 1 + 2 x 0.5 + 2 x 1 + 2 x 0.5 + 2 x 0.5) + 385 GiB (Table 3-6: 1 + 4 +
  1 + 1 + 17 + 0.25 + 6 x 8 + 6 x 0.25 + 6 x 0.25 + 2 x 8 + 2 x 0.25 + 6 x 30 + 6 x 0.125 + 6 x 0.25 + 6 x 18 + 6 x
  0.25 + 6 x 0.25) = 455 GiB; no sidecars.
- BSF 3.3 at 63K TPS: CPU 763.8 cores, 280 of them sidecars (126 + 154); memory 96 GiB of applications and 126 of
  sidecars (63 replicas x 2 GiB) in Table 3-25, 1,071.875 of applications and 156 of sidecars in Table 3-26:
  1,449.875 GiB, 282 of them sidecars.
"""
from __future__ import annotations

import csv
import io

from calculators import asm_report


def _like_for_like(bundle) -> dict:
    """The bundle with bsf-3-1's call mix written as bsf-3-3's (as tests/test_asm_report_values.py does): the pair is
    then like for like and the page gives on - off."""
    f33 = next(f for f in bundle["scenario_facts"] if f["id"] == "bsf-3-3")
    facts = [dict(f, call_mix=f33["call_mix"]) if f["id"] == "bsf-3-1" else f for f in bundle["scenario_facts"]]
    return dict(bundle, scenario_facts=facts)


def test_comparison_table_lines_per_1k_of_load(bundle):
    """Per 1K TPS, 4 decimals, shown to 3: CPU 763.8 / 63 = 12.1238 against 251 / 22 = 11.4091, on - off 0.7147;
    sidecar CPU 280 / 63 = 4.4444 against 0; memory 1,449.875 / 63 = 23.0139 against 455 / 22 = 20.6818, on - off
    2.3321; sidecar memory 282 / 63 = 4.4762 against 0."""
    html = asm_report.run_web(_like_for_like(bundle), {"on": "bsf-3-3", "off": "bsf-3-1"})["html"]
    assert ('<tr data-key="cpu_total_per_1k"><td>CPU request, all (cores)</td><td>12.124</td><td>11.409</td>'
            '<td>0.715</td></tr>'
            '<tr data-key="cpu_sidecar_per_1k"><td>CPU request, sidecars (cores)</td><td>4.444</td><td>0</td>'
            '<td>4.444</td></tr>'
            '<tr data-key="mem_total_per_1k"><td>Memory request, all (GiB)</td><td>23.014</td><td>20.682</td>'
            '<td>2.332</td></tr>'
            '<tr data-key="mem_sidecar_per_1k"><td>Memory request, sidecars (GiB)</td><td>4.476</td><td>0</td>'
            '<td>4.476</td></tr>') in html


def test_comparison_table_of_a_pair_not_like_for_like(bundle):
    """As the guide prints them, the two runs' call mixes differ: each line still gives both runs' figures, and
    'not comparable' where the difference would be."""
    html = asm_report.run_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})["html"]
    assert ('<tr data-key="cpu_total_per_1k"><td>CPU request, all (cores)</td><td>12.124</td><td>11.409</td>'
            '<td>not comparable</td></tr>') in html


def test_view_csv_what_if_lines(bundle):
    """Each scenario at its own load (no load given): adding ASM to BSF 3.1 starts from its 251 cores and 455 GiB;
    removing it from BSF 3.3 takes its 280 cores and 282 GiB of sidecars off 763.8 cores and 1,449.875 GiB."""
    _, cmp, wi, _ = asm_report.compute_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})
    rows = {r["part"]: r for r in csv.DictReader(io.StringIO(asm_report.view_csv(cmp, wi)))}
    add, remove = rows["what-if: add ASM"], rows["what-if: remove ASM"]
    assert (add["scenario"], float(add["load"]), add["load_unit"]) == ("bsf-3-1", 22000, "TPS")
    assert (float(add["cpu_before_cores"]), float(add["mem_before_gib"])) == (251, 455)
    assert add["note"] == "per site, requests; sidecars sized from bsf-3-3"
    assert remove["scenario"] == "bsf-3-3" and float(remove["load"]) == 63000
    assert [float(remove[k]) for k in ("cpu_before_cores", "cpu_after_cores", "cpu_delta_cores")] == [763.8, 483.8, -280]
    assert [float(remove[k]) for k in ("mem_before_gib", "mem_after_gib", "mem_delta_gib")] == [1449.875, 1167.875, -282]
    assert remove["note"] == "per site, requests"


def test_html_differences_and_per_service_tables(bundle):
    """The differences table follows the caveat; the per-service table of BSF 3.3 gives BSF Management Service
    (Table 3-25 row 2: 14 replicas, app 4 cores and 1 GiB, istio-proxy 2 cores and 2 GiB): sidecars 28 cores of
    14 x 6 = 84 (33.3 %) and 28 GiB of 14 x 3 = 42 (66.7 %); the page's block ends with that table."""
    html = asm_report.run_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})["html"]
    assert ('The two runs differ in more than ASM:</p><table class="atlas-rows atlas-asm-differences"><thead><tr>'
            '<th>What</th><th>ASM on</th><th>ASM off</th><th>Differs</th></tr></thead><tbody><tr>') in html
    mgmt = html.split('<tr data-service="BSF Management Service">')[1].split("</tr>")[0]
    assert "<td>14</td><td>28</td><td>84</td><td>33.3 %</td><td>28</td><td>42</td><td>66.7 %</td>" in mgmt
    assert html.endswith("</tr></tbody></table></div></div>")


def test_view_csv_totals_and_per_service_notes(bundle):
    """BSF 3.3's total line: sidecar memory 282 GiB, sidecar share of CPU 280 / 763.8 = 36.6588 %; no row of it is
    left out, so its per-service lines have no note and its total's note is the load alone. The like-for-like
    pair's on - off sidecar memory per 1K: 282 / 63 - 0 = 4.4762 GiB."""
    _, cmp, wi, _ = asm_report.compute_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})
    rows = list(csv.DictReader(io.StringIO(asm_report.view_csv(cmp, wi))))
    total = next(r for r in rows if r["part"] == "total" and r["scenario"] == "bsf-3-3")
    assert float(total["mem_sidecar_gib"]) == 282
    assert total["cpu_sidecar_share_percent"] == str(round(280 / 763.8 * 100, 4)) == "36.6588"
    assert total["note"].startswith("load: ")
    assert {r["note"] for r in rows if r["part"] == "per service"} == {""}
    _, cmp, wi, _ = asm_report.compute_web(_like_for_like(bundle), {"on": "bsf-3-3", "off": "bsf-3-1"})
    diff = next(r for r in csv.DictReader(io.StringIO(asm_report.view_csv(cmp, wi))) if r["part"] == "on - off")
    assert diff["mem_sidecar_per_1k_gib"] == str(round(282 / 63, 4)) == "4.4762"


def test_report_totals_note_and_what_if_method(bundle):
    """The report's Totals line of BSF 3.3 (no replica range, nothing partial) has no note; the Method sheet says the
    what-if goes through the footprint calculator."""
    from calculators import asm, report
    ov, cmp, wi, i = asm_report.compute_web(bundle, {"on": "bsf-3-3", "off": "bsf-3-1"})
    rep = asm_report.report_of(ov, cmp, wi, asm.asm_without_sidecars(bundle), i, bundle)
    row = next(r for r in report.sheet_named(rep, "Totals")["rows"] if r[:2] == ["bsf-3-3", "TOTAL, one site carrying traffic"])
    assert row[8] is None
    method = report.sheet_named(rep, "Method")["rows"]
    assert method[2] == ["What-if", "Through the footprint calculator: sidecars added to the ASM-off scenario (sized "
                         "from the ASM-on one) and removed from the ASM-on one, at the load given."]
