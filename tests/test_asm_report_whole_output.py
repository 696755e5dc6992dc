"""The ASM report module's whole output for a made-up product, every cell written out by hand.

calculators/asm_report.py only renders what ``calculators.asm`` computed (``overhead``, ``compare``, ``whatif``), so
its text is tested here on results made up small enough to check by eye: the overview table of every ASM-enabled
scenario, the on/off comparison (comparable, and not), the what-if, the per-service table, both CSV downloads, the
chart and every sheet of the report. The per-guide tests (tests/test_asm_report_*.py) check the same text on the
guides' own tables; these pin every sentence, cell and column, so that a changed word, a lost mark or a column out
of place fails here.

The made-up product "x" (figures per site carrying traffic, as ``asm.overhead`` gives them):

* ``x-on``, ASM on, 3,000 TPS per site (site1), Table 9-1: one service, svc-a, 2 sidecars (printed 1-2 replicas:
  counted at its max end, Table 9-1 row 2) requesting 2 of its 10 cores (20 %) and 1 of its 4 GiB (25 %). Per 1K
  TPS: 10 / 3 = 3.333 cores, 2 / 3 = 0.6667 sidecar cores, 4 / 3 = 1.333 GiB, 1 / 3 = 0.3333 sidecar GiB. The guide
  measures its sidecars' CPU at 12.5 % of what svc-a uses (0.125 cores per 1K TPS), not their memory.
* ``x-part``, ASM on, 4,000 TPS (site2), Tables 9-2 and 9-3, partial: svc-c's row 5 of Table 9-3 has no CPU request.
  svc-b: 3 of 9 cores (33.3 %), 1.5 of 6 GiB (25 %); svc-c (left out of the shares): 1 of 5 cores, 0.5 of 2 GiB.
  Totals 4 of 14 cores, 2 of 8 GiB; per 1K TPS 1, 3.5, 0.5, 2. An application row (Table 9-2 row 1) printed 2-6
  replicas. Observed: sidecars 10 % of CPU (partial: Table 9-4 row 2 was flagged), 40 % of memory (all of it svc-b's,
  the one service with a sidecar reading), in percent only.
* ``x-off``, ASM off, 1,000 TPS (site1), Table 9-5: 4 cores, 1.5 GiB, no sidecars; per 1K TPS 4 and 1.5.
* ``x-bare``: ASM enabled, no sidecar rows printed.

x-on against x-off per 1K TPS: all CPU 3.333 - 4 = -0.6667 cores, sidecar CPU 0.6667, all memory 1.333 - 1.5 =
-0.1667 GiB, sidecar memory 0.3333. What-if at 3,000 TPS: adding ASM to x-off takes it from 12 to 15 cores (+3)
and 4.5 to 6 GiB (+1.5); removing it from x-on, the reverse.
"""
from __future__ import annotations

import csv
import io

import pytest

from calculators import asm_report, report

LOAD_HOW_1 = "load per site (the figures are for one site carrying traffic, site1)"
LOAD_HOW_2 = "load per site (the figures are for one site carrying traffic, site2)"
RANGES_ON = "Table 9-1 row 2 (svc-a, istio-proxy): 1-2 replicas, counted at 2."
RANGES_PART = "Table 9-2 row 1 (svc-b, app): 2-6 replicas, counted at 6."
PARTIAL_TEXT = "Table 9-3 row 5 (svc-c, app) has no CPU request."
NO_ROWS = "ASM enabled, but no sidecar rows are printed: sidecar cost unknown (not 0)"


def on_overview() -> dict:
    return {"scenario": "x-on", "doc": "x", "title": "X on", "asm": "Enable", "unit": "TPS", "load": 3000.0,
            "load_how": LOAD_HOW_1, "site": "site1", "tables": ["9-1"],
            "services": [{"component": "app", "service": "svc-a", "sources": ["9-1/1", "9-1/2"], "partial": False,
                          "cpu_sidecar": 2, "cpu_total": 10, "cpu_share": 20.0, "mem_sidecar": 1, "mem_total": 4,
                          "mem_share": 25.0, "replicas_sidecar": 2,
                          "replica_range": {"table_id": "9-1", "row": 2, "min": 1, "max": 2},
                          "observed_cpu_share": 12.5, "observed_memory_share": None}],
            "cpu_sidecar": 2, "cpu_total": 10, "cpu_share": 20.0, "mem_sidecar": 1, "mem_total": 4, "mem_share": 25.0,
            "partial": None, "cpu_share_complete": 20.0, "mem_share_complete": 25.0, "complete_services": 1,
            "services_total": 1, "cpu_sidecar_per_1k": 2 / 3000 * 1000, "cpu_total_per_1k": 10 / 3000 * 1000,
            "mem_sidecar_per_1k": 1 / 3000 * 1000, "mem_total_per_1k": 4 / 3000 * 1000,
            "ranges": [{"sidecar": True}], "ranges_text": RANGES_ON, "ranges_rows": "9-1/2",
            "observed": {"cpu": {"site": "site1", "sidecar": 0.375, "total": 3.0, "unit": "cores", "partial": [],
                                 "by_service": {"svc-a": 12.5}, "share": 12.5, "sidecar_per_1k": 0.125}}}


def partial_overview(sidecar_rows: int = 0) -> dict:
    return {"scenario": "x-part", "doc": "x", "title": "X partial", "asm": "Enable", "unit": "TPS", "load": 4000.0,
            "load_how": LOAD_HOW_2, "site": "site2", "tables": ["9-2", "9-3"],
            "services": [{"component": "app", "service": "svc-b", "sources": ["9-2/1"], "partial": False,
                          "cpu_sidecar": 3, "cpu_total": 9, "cpu_share": 100 / 3, "mem_sidecar": 1.5, "mem_total": 6,
                          "mem_share": 25.0, "replicas_sidecar": 6, "replica_range": None,
                          "observed_cpu_share": None, "observed_memory_share": 40.0},
                         {"component": "db", "service": "svc-c", "sources": ["9-3/4"], "partial": True,
                          "cpu_sidecar": 1, "cpu_total": 5, "cpu_share": None, "mem_sidecar": 0.5, "mem_total": 2,
                          "mem_share": None, "replicas_sidecar": 1, "replica_range": None,
                          "observed_cpu_share": None, "observed_memory_share": None}],
            "cpu_sidecar": 4, "cpu_total": 14, "cpu_share": None, "mem_sidecar": 2, "mem_total": 8, "mem_share": None,
            "partial": {"partial": True, "services": ["svc-c"], "sidecar_rows": sidecar_rows, "text": PARTIAL_TEXT},
            "cpu_share_complete": 100 / 3, "mem_share_complete": 25.0, "complete_services": 1, "services_total": 2,
            "cpu_sidecar_per_1k": 1.0, "cpu_total_per_1k": 3.5, "mem_sidecar_per_1k": 0.5, "mem_total_per_1k": 2.0,
            "ranges": [{"sidecar": False}], "ranges_text": RANGES_PART, "ranges_rows": "9-2/1",
            "observed": {"cpu": {"site": "site2", "unit": "%", "partial": ["Table 9-4 row 2 (svc-c, app)"],
                                 "share": 10.0, "sidecar_per_1k": 0.2},
                         "memory": {"site": "site2", "unit": "%", "partial": [], "share": 40.0, "sidecar_per_1k": 1.0}}}


def off_overview() -> dict:
    return {"scenario": "x-off", "doc": "x", "title": "X off", "asm": "Disable", "unit": "TPS", "load": 1000.0,
            "load_how": LOAD_HOW_1, "site": "site1", "tables": ["9-5"], "services": [],
            "cpu_sidecar": 0, "cpu_total": 4, "cpu_share": 0.0, "mem_sidecar": 0, "mem_total": 1.5, "mem_share": 0.0,
            "partial": None, "cpu_share_complete": 0.0, "mem_share_complete": 0.0, "complete_services": 1,
            "services_total": 1, "cpu_sidecar_per_1k": 0.0, "cpu_total_per_1k": 4.0, "mem_sidecar_per_1k": 0.0,
            "mem_total_per_1k": 1.5, "ranges": [], "ranges_text": "", "ranges_rows": "", "observed": {}}


DIFFERENCES = [{"what": "Call model", "on": "A", "off": "A", "differs": False},
               {"what": "Release", "on": "1.0", "off": None, "differs": True},
               {"what": "Sites", "on": 2, "off": "", "differs": True}]
KEYS = ("cpu_total_per_1k", "mem_total_per_1k", "cpu_sidecar_per_1k", "mem_sidecar_per_1k")


def comparison(on: dict, off: dict, why: list[str] = ()) -> dict:
    """``asm.compare``'s shape: the on - off difference per 1K only when comparable."""
    return {"on": on, "off": off, "comparable": not why, "not_comparable": list(why), "differences": DIFFERENCES,
            "diff": {k: None if why else on[k] - off[k] for k in KEYS}}


def whatif() -> dict:
    return {"add": {"scenario": "x-off", "load": 3000, "unit": "TPS", "cpu_before": 12, "cpu_after": 15, "cpu_delta": 3.0,
                    "mem_before": 4.5, "mem_after": 6, "mem_delta": 1.5, "sidecars": 1, "source": "x-on"},
            "remove": {"scenario": "x-on", "load": 3000, "unit": "TPS", "cpu_before": 15, "cpu_after": 12, "cpu_delta": -3.0,
                       "mem_before": 6, "mem_after": 4.5, "mem_delta": -1.5, "sidecars": 0, "source": None}}


def mark(text: str) -> str:
    return f' <abbr class="atlas-note-ref atlas-range-max" title="{text}">ranges at max</abbr>'


# ------------------------------------------------------------------------------------------------ the page (HTML)

OVERVIEW_HEAD = (
    '<div class="atlas-result atlas-asm"><h3>Sidecar share of requested resources, every ASM-enabled scenario</h3>'
    '<p class="atlas-note">Requests at one site carrying traffic, as the product pages and the footprint calculator count '
    'them; a replica count printed as a min-max range counts at its max end (the column <em>Replica ranges</em> names '
    'those rows).</p>'
    '<div class="atlas-table-wrap"><table class="atlas-rows atlas-asm-overview"><thead><tr><th>Scenario</th>'
    '<th>Sidecar CPU (cores)</th><th>All CPU (cores)</th><th>Sidecar share of CPU</th><th>Sidecar memory (GiB)</th>'
    '<th>All memory (GiB)</th><th>Sidecar share of memory</th><th>Sidecar CPU per 1K load (cores, requested)</th>'
    '<th>Observed sidecar share of CPU / memory</th><th>Source tables</th>'
    '<th>Sidecar CPU per 1K load (cores, observed at one site)</th><th>Replica ranges (counted at the max end)</th>'
    '<th>Rows not used</th></tr></thead><tbody>')

ON_ROW = ('<tr data-scenario="x-on" data-ranges><td>x-on</td>'
          f'<td>2{mark(RANGES_ON)}</td><td>10{mark(RANGES_ON)}</td><td>20.0 %</td>'
          f'<td>1{mark(RANGES_ON)}</td><td>4{mark(RANGES_ON)}</td><td>25.0 %</td>'
          '<td>0.667 per 1K TPS</td><td>12.5 % / not measured</td><td>9-1</td><td>0.125 per 1K TPS (site1)</td>'
          '<td>9-1/2</td><td>none</td></tr>')

PARTIAL_SHARE = '<span class="atlas-partial" title="Table 9-3 row 5 (svc-c, app) has no CPU request.">partial</span>: '
PARTIAL_ROW = ('<tr data-scenario="x-part" data-partial data-ranges><td>x-part</td>'
               f'<td>4</td><td>at least 14{mark(RANGES_PART)}</td>'
               f'<td>{PARTIAL_SHARE}33.3 % over 1 of 2 services with every row</td>'
               f'<td>2</td><td>at least 8{mark(RANGES_PART)}</td>'
               f'<td>{PARTIAL_SHARE}25.0 % over 1 of 2 services with every row</td>'
               '<td>1 per 1K TPS</td><td>10.0 % (partial) / 40.0 %</td><td>9-2, 9-3</td><td>not measured in cores</td>'
               f'<td>9-2/1</td><td>{PARTIAL_TEXT}</td></tr>')

BARE_ROW = ('<tr data-scenario="x-bare" data-no-sidecars><td>x-bare</td><td colspan="12">ASM enabled, but no sidecar rows '
            'are printed in its resource tables: its sidecar cost is unknown (not 0).</td></tr>')

NOTES = (
    '</tbody></table></div>'
    '<p class="atlas-note">A <strong>partial</strong> scenario has resource rows flagged by an erratum or printed without a '
    'value (or without a replica count or request to multiply): its share over every row would mix sidecars whose '
    'application rows are missing, so the share is given only over the services whose rows are all usable, and totals '
    'marked "at least" are lower bounds.</p>'
    '<p class="atlas-note">Reference, not from the guides: Istio publishes the sidecar (Envoy) cost per 1,000 requests per '
    'second going through one proxy: Istio 1.3.5: 0.6 vCPU and 50 MB '
    '(<code>https://istio.io/v1.3/docs/concepts/performance-and-scalability</code>); Istio 1.12.3 to 1.16.2: 0.35 vCPU and '
    '40 MB (<code>https://istio.io/v1.16/docs/ops/deployment/performance-and-scalability</code>). A benchmark transaction '
    'may pass several proxies (ingress gateway, service, egress gateway), and the guides do not say which Istio release '
    'their ASM ships, so this is a yardstick, not a prediction.</p>')


def compare_table(on: str, off: str, rows: list[tuple], loads: tuple[str, str]) -> str:
    head = (f'<h3>{on} (ASM on) against {off} (ASM off), per 1K TPS</h3>'
            '<div class="atlas-table-wrap"><table class="atlas-rows atlas-asm-compare"><thead><tr><th>Per 1K of load</th>'
            f'<th>{on} (on)</th><th>{off} (off)</th><th>On − off</th></tr></thead><tbody>')
    body = "".join(f'<tr data-key="{k}"><td>{label}</td><td>{a}</td><td>{b}</td><td>{d}</td></tr>' for k, label, a, b, d in rows)
    load = (f'<tr><td>Load per site (what the figures serve)</td><td>{loads[0]}</td><td>{loads[1]}</td><td></td></tr>'
            '</tbody></table></div>')
    return head + body + load


DIFFERENCES_TABLE = (
    '<p class="atlas-caveat"><strong>Not a controlled experiment.</strong> The two runs differ in more than ASM:</p>'
    '<table class="atlas-rows atlas-asm-differences"><thead><tr><th>What</th><th>ASM on</th><th>ASM off</th>'
    '<th>Differs</th></tr></thead><tbody>'
    '<tr><td>Call model</td><td>A</td><td>A</td><td>no</td></tr>'
    '<tr><td>Release</td><td>1.0</td><td>not stated</td><td>yes</td></tr>'
    '<tr><td>Sites</td><td>2</td><td>not stated</td><td>yes</td></tr></tbody></table>')

WHATIF_TABLE = (
    '<h3>What-if on a footprint (per site, requests)</h3>'
    '<div class="atlas-table-wrap"><table class="atlas-rows atlas-asm-whatif"><thead><tr><th>Change</th>'
    '<th>Scenario at load</th><th>CPU before (cores)</th><th>CPU after (cores)</th><th>Δ CPU</th>'
    '<th>Memory before (GiB)</th><th>Memory after (GiB)</th><th>Δ memory</th></tr></thead><tbody>'
    '<tr data-change="add"><td>add ASM (sized from x-on)</td><td>x-off at 3,000 TPS</td><td>12</td><td>15</td><td>3</td>'
    '<td>4.5</td><td>6</td><td>1.5</td></tr>'
    '<tr data-change="remove"><td>remove ASM</td><td>x-on at 3,000 TPS</td><td>15</td><td>12</td><td>-3</td><td>6</td>'
    '<td>4.5</td><td>-1.5</td></tr></tbody></table></div>')


def services_table(scenario: str, rows: str) -> str:
    return (f'<h3>Per service: {scenario}</h3>'
            '<div class="atlas-table-wrap"><table class="atlas-rows atlas-asm-services"><thead><tr><th>Component</th>'
            '<th>Service</th><th>Sidecar replicas</th><th>Sidecar CPU (cores)</th><th>Pod CPU (cores)</th>'
            '<th>Sidecar share of CPU</th><th>Sidecar memory (GiB)</th><th>Pod memory (GiB)</th>'
            '<th>Sidecar share of memory</th><th>Observed sidecar share of CPU / memory</th><th>Source (table/row)</th>'
            f'</tr></thead><tbody>{rows}</tbody></table></div></div>')


def test_the_page_of_a_comparable_pair_whole():
    """x-on against x-off: every table of the page, in order, every cell (module docstring for the figures; the
    comparison rounds to 4 decimals and shows 3)."""
    html = asm_report.to_html([on_overview(), partial_overview()], comparison(on_overview(), off_overview()), whatif(),
                              ["x-bare"])
    expected = (OVERVIEW_HEAD + ON_ROW + PARTIAL_ROW + BARE_ROW + NOTES
                + compare_table("x-on", "x-off", [
                    ("cpu_total_per_1k", "CPU request, all (cores)", "3.333", "4", "-0.667"),
                    ("cpu_sidecar_per_1k", "CPU request, sidecars (cores)", "0.667", "0", "0.667"),
                    ("mem_total_per_1k", "Memory request, all (GiB)", "1.333", "1.5", "-0.167"),
                    ("mem_sidecar_per_1k", "Memory request, sidecars (GiB)", "0.333", "0", "0.333")],
                    (f"3,000 ({LOAD_HOW_1})", f"1,000 ({LOAD_HOW_1})"))
                + DIFFERENCES_TABLE + WHATIF_TABLE
                + services_table("x-on", '<tr data-service="svc-a"><td>app</td><td>svc-a</td><td>2 <span class="atlas-note-ref" '
                                 'title="Table 9-1 row 2: min 1, max 2 replicas">max of 1-2</span></td><td>2</td><td>10</td>'
                                 '<td>20.0 %</td><td>1</td><td>4</td><td>25.0 %</td><td>12.5 % / —</td>'
                                 '<td>9-1/1, 9-1/2</td></tr>'))
    assert html == expected


def test_the_page_of_a_pair_not_comparable_whole():
    """x-part against x-off when the runs are not like for like: the comparison gives each side's figures and 'not
    comparable' for the difference, the reasons in a warning; the per-service table is x-part's, svc-c's shares left
    out (—) as its rows are not all usable."""
    html = asm_report.to_html([partial_overview()], comparison(partial_overview(), off_overview(),
                                                               ["call models differ: A against B"]), whatif())
    n = "not comparable"
    expected = (OVERVIEW_HEAD + PARTIAL_ROW + NOTES
                + compare_table("x-part", "x-off", [
                    ("cpu_total_per_1k", "CPU request, all (cores)", "3.5", "4", n),
                    ("cpu_sidecar_per_1k", "CPU request, sidecars (cores)", "1", "0", n),
                    ("mem_total_per_1k", "Memory request, all (GiB)", "2", "1.5", n),
                    ("mem_sidecar_per_1k", "Memory request, sidecars (GiB)", "0.5", "0", n)],
                    (f"4,000 ({LOAD_HOW_2})", f"1,000 ({LOAD_HOW_1})"))
                + '<div class="atlas-warnings atlas-not-comparable"><p><strong>Not comparable.</strong> The ASM cost is '
                  'not given as on − off because the two runs are not like for like:</p><ul><li>call models differ: A '
                  'against B</li></ul></div>'
                + DIFFERENCES_TABLE + WHATIF_TABLE
                + services_table("x-part",
                                 '<tr data-service="svc-b"><td>app</td><td>svc-b</td><td>6</td><td>3</td><td>9</td>'
                                 '<td>33.3 %</td><td>1.5</td><td>6</td><td>25.0 %</td><td>— / 40.0 %</td><td>9-2/1</td></tr>'
                                 '<tr data-service="svc-c"><td>db</td><td>svc-c</td><td>1</td><td>1</td><td>5</td>'
                                 '<td>—</td><td>0.5</td><td>2</td><td>—</td><td>— / —</td><td>9-3/4</td></tr>'))
    assert html == expected


def test_a_partial_scenario_missing_sidecar_rows_gives_its_sidecar_figures_as_lower_bounds():
    """When a left-out row is a sidecar's, the sidecar totals and the requested sidecar CPU per 1K are lower bounds
    too ('at least'), not only the scenario's totals."""
    html = asm_report.to_html([partial_overview(sidecar_rows=1)], comparison(on_overview(), off_overview()), whatif())
    row = html[html.index('<tr data-scenario="x-part"'):]
    row = row[:row.index("</tr>") + 5]
    assert row == PARTIAL_ROW.replace("<td>4</td>", "<td>at least 4</td>").replace(
        "<td>2</td>", "<td>at least 2</td>").replace("<td>1 per 1K TPS</td>", "<td>at least 1 per 1K TPS</td>")


# ------------------------------------------------------------------------------------------------ CSV downloads

OVERVIEW_CSV_HEAD = ["scenario", "component", "service", "cpu_sidecar_cores", "cpu_total_cores", "cpu_sidecar_share_percent",
                     "mem_sidecar_gib", "mem_total_gib", "mem_sidecar_share_percent", "load", "load_unit", "sources",
                     "observed_cpu_sidecar_share_percent", "observed_memory_sidecar_share_percent", "sidecar_replicas",
                     "replica_range", "partial"]


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_overview_csv_whole():
    """A line per service with sidecars, a TOTAL line per scenario (its tables, its observed shares, the rows counted
    at a range's max end, why it is partial), and a TOTAL line with no figures for x-bare. Shares to 4 decimals
    (100 / 3 = 33.3333)."""
    text = asm_report.to_csv([on_overview(), partial_overview()], ["x-bare"])
    assert rows_of(text) == [
        OVERVIEW_CSV_HEAD,
        ["x-on", "app", "svc-a", "2", "10", "20.0", "1", "4", "25.0", "3000.0", "TPS", "9-1/1 9-1/2", "12.5", "", "2",
         "1-2 counted at 2 (Table 9-1 row 2)", ""],
        ["x-on", "", "TOTAL", "2", "10", "20.0", "1", "4", "25.0", "3000.0", "TPS", "9-1", "12.5", "", "", RANGES_ON, ""],
        ["x-part", "app", "svc-b", "3", "9", "33.3333", "1.5", "6", "25.0", "4000.0", "TPS", "9-2/1", "", "40.0", "6", "", ""],
        ["x-part", "db", "svc-c", "1", "5", "", "0.5", "2", "", "4000.0", "TPS", "9-3/4", "", "", "1", "", "excluded rows"],
        ["x-part", "", "TOTAL", "4", "14", "", "2", "8", "", "4000.0", "TPS", "9-2 9-3", "10.0", "40.0", "", RANGES_PART,
         PARTIAL_TEXT],
        ["x-bare", "", "TOTAL"] + [""] * 13 + [NO_ROWS]]
    assert text.endswith("\n") and "\r" not in text


VIEW_HEAD = ["part", "scenario", "asm", "component", "service", "cpu_sidecar_cores", "cpu_total_cores",
             "cpu_sidecar_share_percent", "mem_sidecar_gib", "mem_total_gib", "mem_sidecar_share_percent",
             "cpu_total_per_1k_cores", "cpu_sidecar_per_1k_cores", "mem_total_per_1k_gib", "mem_sidecar_per_1k_gib",
             "observed_cpu_sidecar_share_percent", "observed_memory_sidecar_share_percent", "load", "load_unit",
             "cpu_before_cores", "cpu_after_cores", "cpu_delta_cores", "mem_before_gib", "mem_after_gib", "mem_delta_gib",
             "sidecar_replicas", "replica_range", "sources", "note"]


def view_row(**kv) -> list[str]:
    return [kv.get(h, "") for h in VIEW_HEAD]


WHATIF_ROWS = [
    view_row(part="what-if: add ASM", scenario="x-off", load="3000", load_unit="TPS", cpu_before_cores="12",
             cpu_after_cores="15", cpu_delta_cores="3.0", mem_before_gib="4.5", mem_after_gib="6", mem_delta_gib="1.5",
             note="per site, requests; sidecars sized from x-on"),
    view_row(part="what-if: remove ASM", scenario="x-on", load="3000", load_unit="TPS", cpu_before_cores="15",
             cpu_after_cores="12", cpu_delta_cores="-3.0", mem_before_gib="6", mem_after_gib="4.5", mem_delta_gib="-1.5",
             note="per site, requests")]
OFF_TOTAL = view_row(part="total", scenario="x-off", asm="Disable", service="TOTAL", cpu_sidecar_cores="0",
                     cpu_total_cores="4", cpu_sidecar_share_percent="0.0", mem_sidecar_gib="0", mem_total_gib="1.5",
                     mem_sidecar_share_percent="0.0", cpu_total_per_1k_cores="4.0", cpu_sidecar_per_1k_cores="0.0",
                     mem_total_per_1k_gib="1.5", mem_sidecar_per_1k_gib="0.0", load="1000.0", load_unit="TPS",
                     sources="9-5", note=f"load: {LOAD_HOW_1}")


def test_the_comparison_csv_of_a_comparable_pair_whole():
    """The pair shown: x-on's service, both totals with their per-1K figures (4 decimals), the on - off line and the
    what-if lines, every column."""
    text = asm_report.view_csv(comparison(on_overview(), off_overview()), whatif())
    assert rows_of(text) == [
        VIEW_HEAD,
        view_row(part="per service", scenario="x-on", asm="Enable", component="app", service="svc-a", cpu_sidecar_cores="2",
                 cpu_total_cores="10", cpu_sidecar_share_percent="20.0", mem_sidecar_gib="1", mem_total_gib="4",
                 mem_sidecar_share_percent="25.0", observed_cpu_sidecar_share_percent="12.5", load="3000.0",
                 load_unit="TPS", sidecar_replicas="2", replica_range="1-2 counted at 2 (Table 9-1 row 2)",
                 sources="9-1/1 9-1/2"),
        view_row(part="total", scenario="x-on", asm="Enable", service="TOTAL", cpu_sidecar_cores="2", cpu_total_cores="10",
                 cpu_sidecar_share_percent="20.0", mem_sidecar_gib="1", mem_total_gib="4", mem_sidecar_share_percent="25.0",
                 cpu_total_per_1k_cores="3.3333", cpu_sidecar_per_1k_cores="0.6667", mem_total_per_1k_gib="1.3333",
                 mem_sidecar_per_1k_gib="0.3333", observed_cpu_sidecar_share_percent="12.5", load="3000.0",
                 load_unit="TPS", replica_range=RANGES_ON, sources="9-1", note=f"load: {LOAD_HOW_1}"),
        OFF_TOTAL,
        view_row(part="on - off", scenario="x-on - x-off", cpu_total_per_1k_cores="-0.6667",
                 cpu_sidecar_per_1k_cores="0.6667", mem_total_per_1k_gib="-0.1667", mem_sidecar_per_1k_gib="0.3333",
                 load_unit="TPS", note="comparable: same call model and deployment mode")] + WHATIF_ROWS


def test_the_comparison_csv_of_a_pair_not_comparable_whole():
    """x-part against x-off, not like for like: svc-c's line says its rows were excluded, x-part's total says why it
    is partial before its load, the on - off line has no figures and gives the reasons."""
    text = asm_report.view_csv(comparison(partial_overview(), off_overview(), ["call models differ: A against B",
                                                                               "deployment modes differ"]), whatif())
    assert rows_of(text) == [
        VIEW_HEAD,
        view_row(part="per service", scenario="x-part", asm="Enable", component="app", service="svc-b",
                 cpu_sidecar_cores="3", cpu_total_cores="9", cpu_sidecar_share_percent="33.3333", mem_sidecar_gib="1.5",
                 mem_total_gib="6", mem_sidecar_share_percent="25.0", observed_memory_sidecar_share_percent="40.0",
                 load="4000.0", load_unit="TPS", sidecar_replicas="6", sources="9-2/1"),
        view_row(part="per service", scenario="x-part", asm="Enable", component="db", service="svc-c",
                 cpu_sidecar_cores="1", cpu_total_cores="5", mem_sidecar_gib="0.5", mem_total_gib="2", load="4000.0",
                 load_unit="TPS", sidecar_replicas="1", sources="9-3/4", note="excluded rows"),
        view_row(part="total", scenario="x-part", asm="Enable", service="TOTAL", cpu_sidecar_cores="4",
                 cpu_total_cores="14", mem_sidecar_gib="2", mem_total_gib="8", cpu_total_per_1k_cores="3.5",
                 cpu_sidecar_per_1k_cores="1.0", mem_total_per_1k_gib="2.0", mem_sidecar_per_1k_gib="0.5",
                 observed_cpu_sidecar_share_percent="10.0", observed_memory_sidecar_share_percent="40.0", load="4000.0",
                 load_unit="TPS", replica_range=RANGES_PART, sources="9-2 9-3",
                 note=f"{PARTIAL_TEXT} load: {LOAD_HOW_2}"),
        OFF_TOTAL,
        view_row(part="on - off", scenario="x-part - x-off", load_unit="TPS",
                 note="not comparable: call models differ: A against B; deployment modes differ")] + WHATIF_ROWS


# ------------------------------------------------------------------------------------------------ chart

def test_the_chart_whole():
    """Two bars per scenario (CPU and memory request shares, 2 decimals); x-part, partial, shows its share over its
    complete services (100 / 3 = 33.33) and says so in its label; 26 px per scenario."""
    assert asm_report.chart([on_overview(), partial_overview()]) == {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "description": "Sidecar share of requested CPU and memory per ASM-enabled scenario",
        "width": "container", "height": 52,
        "data": {"values": [{"scenario": "x-on", "what": "CPU request", "share": 20.0},
                            {"scenario": "x-on", "what": "memory request", "share": 25.0},
                            {"scenario": "x-part (partial: complete services only)", "what": "CPU request", "share": 33.33},
                            {"scenario": "x-part (partial: complete services only)", "what": "memory request", "share": 25.0}]},
        "mark": {"type": "bar", "tooltip": True},
        "encoding": {"y": {"field": "scenario", "type": "nominal", "title": None, "sort": None},
                     "yOffset": {"field": "what"},
                     "x": {"field": "share", "type": "quantitative", "title": "Sidecar share (%)"},
                     "color": {"field": "what", "type": "nominal", "title": None}}}


def test_a_chart_of_no_scenario_keeps_one_band_of_height():
    assert asm_report.chart([])["height"] == 26 and asm_report.chart([])["data"] == {"values": []}


# ------------------------------------------------------------------------------------------------ report

BUNDLE = {"sources": [{"id": "x", "title": "X Guide"}],
          "scenarios": [{"id": "x-on", "section": "9.1"}, {"id": "x-part", "section": "9.2"}, {"id": "x-off", "section": "9.5"}]}


def headers(sheet: dict) -> list[str]:
    return [report.header_text(c) for c in sheet["columns"]]


@pytest.fixture
def made_up_report():
    return asm_report.report_of([on_overview(), partial_overview()], comparison(on_overview(), off_overview()), whatif(),
                                ["x-bare"], {"on": "x-on", "off": "x-off", "load": ""}, BUNDLE)


def test_the_report_names_and_inputs(made_up_report):
    """Title and subtitle name the pair; the inputs give each scenario's title and say an empty what-if load means
    each scenario's own."""
    rep = made_up_report
    assert (rep["calculator"], rep["title"], rep["subtitle"], rep["filename"]) == (
        "asm", "ASM overhead: x-on against x-off",
        "Sidecar share of requested CPU and memory for every ASM-enabled scenario; x-on (ASM on) against x-off (ASM off)",
        "asm-overhead.xlsx")
    assert [s["name"] for s in rep["sheets"]] == list(report.SHEETS)
    assert report.sheet_named(rep, "Inputs")["rows"] == [
        ["ASM-on scenario", "x-on", None, "X on"], ["ASM-off scenario", "x-off", None, "X off"],
        ["What-if load, total", None, "TPS", "each scenario's own load"]]


def test_the_report_results_sheet_whole(made_up_report):
    """A row per service with sidecars, shares in % as computed (100 / 3 unrounded), the range a sidecar count came
    from, svc-c marked as excluded."""
    sheet = report.sheet_named(made_up_report, "Results")
    assert headers(sheet) == [
        "Scenario", "Component", "Service", "Sidecar CPU request (cores)", "All CPU request (cores)",
        "Sidecar share of CPU request (%)", "Sidecar memory request (GiB)", "All memory request (GiB)",
        "Sidecar share of memory request (%)", "Observed sidecar share of CPU (%)", "Observed sidecar share of memory (%)",
        "Load per site", "Load unit", "Sidecar replicas (pods)", "Replica range (counted at the max end)", "Partial"]
    assert sheet["rows"] == [
        ["x-on", "app", "svc-a", 2, 10, 20.0, 1, 4, 25.0, 12.5, None, 3000.0, "TPS", 2, "1-2", None],
        ["x-part", "app", "svc-b", 3, 9, 100 / 3, 1.5, 6, 25.0, None, 40.0, 4000.0, "TPS", 6, None, None],
        ["x-part", "db", "svc-c", 1, 5, None, 0.5, 2, None, None, None, 4000.0, "TPS", 1, None, "excluded rows"]]


def test_the_report_totals_sheet_whole(made_up_report):
    """Each scenario's total with its notes (ranges, then why partial), x-bare's empty total, the four per-1K
    comparisons (4 significant digits: 10 / 3 = 3.333, difference -0.6667) and both what-ifs with signed changes."""
    sheet = report.sheet_named(made_up_report, "Totals")
    assert headers(sheet) == ["Scenario", "What", "Sidecar CPU request (cores)", "All CPU request (cores)",
                              "Sidecar share of CPU request (%)", "Sidecar memory request (GiB)",
                              "All memory request (GiB)", "Sidecar share of memory request (%)", "Note"]
    blank = [None] * 6
    assert sheet["rows"] == [
        ["x-on", "TOTAL, one site carrying traffic", 2, 10, 20.0, 1, 4, 25.0, RANGES_ON],
        ["x-part", "TOTAL, one site carrying traffic", 4, 14, None, 2, 8, None, f"{RANGES_PART} {PARTIAL_TEXT}"],
        ["x-bare", "TOTAL", *blank, NO_ROWS],
        ["x-on - x-off", "CPU request per 1K of load (cores): on 3.333, off 4", *blank, "difference -0.6667 cores"],
        ["x-on - x-off", "memory request per 1K of load (GiB): on 1.333, off 1.5", *blank, "difference -0.1667 GiB"],
        ["x-on - x-off", "sidecar CPU request per 1K of load (cores): on 0.6667, off 0", *blank, "difference 0.6667 cores"],
        ["x-on - x-off", "sidecar memory request per 1K of load (GiB): on 0.3333, off 0", *blank, "difference 0.3333 GiB"],
        ["x-off", "what-if: add sidecars at 3000 TPS", 12, 15, None, 4.5, 6, None, "per site: CPU +3 cores, memory +1.5 GiB"],
        ["x-on", "what-if: remove sidecars at 3000 TPS", 15, 12, None, 6, 4.5, None,
         "per site: CPU -3 cores, memory -1.5 GiB"]]


def test_the_report_warnings_and_sources_whole(made_up_report):
    """Warnings: x-part partial, both scenarios' ranges, x-bare's missing rows, and each fact the runs differ in
    (an unstated one said so); the sources: one row per table row each service's figures come from."""
    assert report.sheet_named(made_up_report, "Warnings")["rows"] == [
        ["partial", f"x-part: {PARTIAL_TEXT}"],
        ["replica ranges", f"x-on: {RANGES_ON}"], ["replica ranges", f"x-part: {RANGES_PART}"],
        ["no sidecar rows", "x-bare: ASM enabled, but no sidecar rows are printed; sidecar cost unknown (not 0)"],
        ["difference between the runs", "Release: 1.0 against not stated"],
        ["difference between the runs", "Sites: 2 against not stated"]]
    sources = report.sheet_named(made_up_report, "Sources")
    assert headers(sources) == list(report.SOURCE_COLUMNS)
    assert sources["rows"] == [
        ["x-on: svc-a", "X Guide", "9.1", "9-1", 1, None, "replicas and requests", None, None],
        ["x-on: svc-a", "X Guide", "9.1", "9-1", 2, None, "replicas and requests", None, None],
        ["x-part: svc-b", "X Guide", "9.2", "9-2", 1, None, "replicas and requests", None, None],
        ["x-part: svc-c", "X Guide", "9.2", "9-3", 4, None, "replicas and requests", None, None]]


def test_the_report_method_whole(made_up_report):
    """How the overhead, the comparison and the what-if are worked out, and Istio's published cost as a labelled
    reference (istio.io's performance pages of 1.3 and 1.16)."""
    assert report.sheet_named(made_up_report, "Method")["rows"] == [
        ["Overhead", "Per scenario and service, the sidecars' requested CPU and memory (replicas x per-container request) "
                     "as a share of everything the scenario's resource tables request, at one site carrying traffic (as the "
                     "product pages and the footprint calculator count it); a replica count printed as a min-max range "
                     "counts at its max end, the most pods the benchmark's autoscaler could run at its load. Observed "
                     "share where the guide measures sidecars, at the first site carrying traffic."],
        ["Comparison", "ASM-on against ASM-off per 1K of load, like for like only: when both runs share the call model and "
                       "the deployment mode; otherwise not comparable, with the differences listed."],
        ["What-if", "Through the footprint calculator: sidecars added to the ASM-off scenario (sized from the ASM-on one) "
                    "and removed from the ASM-on one, at the load given."],
        ["Istio reference", "Istio 1.3.5: 0.6 vCPU and 50 MB per 1,000 requests per second through a proxy "
                            "(https://istio.io/v1.3/docs/concepts/performance-and-scalability); a labelled reference only"],
        ["Istio reference", "Istio 1.12.3 to 1.16.2: 0.35 vCPU and 40 MB per 1,000 requests per second through a proxy "
                            "(https://istio.io/v1.16/docs/ops/deployment/performance-and-scalability); a labelled "
                            "reference only"]]


def test_a_report_of_a_pair_not_comparable_says_so_on_every_comparison_row():
    """Not like for like: each per-1K row gives both sides and 'not comparable', and the reasons lead the warnings;
    a what-if load typed in the form is echoed with no note."""
    rep = asm_report.report_of([partial_overview()], comparison(partial_overview(), off_overview(), ["call models differ"]),
                               whatif(), [], {"on": "x-part", "off": "x-off", "load": "3000"}, BUNDLE)
    assert report.sheet_named(rep, "Inputs")["rows"][2] == ["What-if load, total", "3000", "TPS", None]
    comparisons = [r for r in report.sheet_named(rep, "Totals")["rows"] if r[0] == "x-part - x-off"]
    assert [(r[1], r[8]) for r in comparisons] == [
        ("CPU request per 1K of load (cores): on 3.5, off 4", "not comparable"),
        ("memory request per 1K of load (GiB): on 2, off 1.5", "not comparable"),
        ("sidecar CPU request per 1K of load (cores): on 1, off 0", "not comparable"),
        ("sidecar memory request per 1K of load (GiB): on 0.5, off 0", "not comparable")]
    assert report.sheet_named(rep, "Warnings")["rows"][0] == ["not comparable", "call models differ"]


def test_a_report_without_warnings_says_there_are_none():
    """x-on alone against x-off with nothing that differs, nothing partial, no range: the Warnings sheet says so."""
    on = {**on_overview(), "ranges": [], "ranges_text": ""}
    cmp = {**comparison(on, off_overview()), "differences": [DIFFERENCES[0]]}
    rep = asm_report.report_of([on], cmp, whatif(), [], {"on": "x-on", "off": "x-off", "load": ""}, BUNDLE)
    assert report.sheet_named(rep, "Warnings")["rows"] == [["none", "No warnings for these inputs."]]
    assert report.sheet_named(rep, "Totals")["rows"][0][8] is None
