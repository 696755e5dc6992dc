"""Calculator reports: the report of every calculator's result (Inputs, Results,
Totals, Warnings, Method, Sources), its XLSX read back with openpyxl, the inputs at the head of the
CSV and Helm downloads, and in the browser: the XLSX of a result computed there, the report pack
loaded only on that click, and the page printed without filter boxes, sort glyphs or clipped tables.

Expected values are the guides' (table and row named) or hand arithmetic on them."""
from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime

import openpyxl
import pytest

import reportxlsx
from calculators import catalogue, report
from conftest import BOOT_LIMIT_MS, computed, csv_body

BSF_TITLE = "Oracle Communications Cloud Native Core, Binding Support Function Benchmarking Guide"


def rep(bundle, **params) -> dict:
    out = catalogue.report(bundle, params)
    assert out["ok"], out
    return out["report"]


def rows_of(r: dict, name: str) -> list[dict]:
    """A report sheet's rows as dicts keyed by the shown header (with its unit)."""
    s = report.sheet_named(r, name)
    heads = [report.header_text(c) for c in s["columns"]]
    return [dict(zip(heads, row)) for row in s["rows"]]


def xlsx_rows(book, name: str, header_row: int = 1) -> list[dict]:
    ws = book[name]
    rows = list(ws.iter_rows(min_row=header_row, values_only=True))
    return [dict(zip(rows[0], r)) for r in rows[1:]]


# ------------------------------------------------------------------ report contents, per calculator

def test_footprint_report(bundle):
    """BSF 3.3 at 126K TPS, 70 % target. BSF Management Service, Table 3-25 row 2: 14 replicas of 4 cores, 1 GiB;
    memory 57.52 % x 14 x 1 GiB = 8.0528 GiB (Table 3-28 row 4) x 2 / 1 GiB = 16.11 -> 17 replicas (memory binds)."""
    r = rep(bundle, calc="footprint", scenario="bsf-3-3", load="126000", target="70")
    assert [s["name"] for s in r["sheets"]] == list(report.SHEETS)
    inputs = {x["Input"]: x for x in rows_of(r, "Inputs")}
    assert inputs["Target load, total"]["Value"] == 126000 and inputs["Target load, total"]["Unit"] == "TPS"
    assert inputs["Target CPU utilization of traffic services"]["Value"] == 70
    assert inputs["Database CPU target"]["Value"] is None and inputs["Database CPU target"]["Note"] == "default"
    mgmt = next(x for x in rows_of(r, "Results") if x["Service"] == "BSF Management Service" and x["Container"] == "app")
    assert mgmt["Replicas (baseline) (pods)"] == 14 and mgmt["Replicas (target) (pods)"] == 17
    assert mgmt["CPU request per pod (cores)"] == 4 and mgmt["Memory request per pod (GiB)"] == 1
    assert mgmt["CPU request total, target (cores)"] == 68  # 17 x 4
    assert (mgmt["Source table"], mgmt["Source row"], mgmt["Binding"]) == ("3-25", 2, "memory")
    src = next(x for x in rows_of(r, "Sources") if x["Item"] == "BSF Management Service / app")
    assert (src["Document"], src["Section"], src["Table"], src["Row"], src["Row label"]) == (BSF_TITLE, "3.3", "3-25", 2, "BSF Management Service")
    # every result row has its source row
    assert len(rows_of(r, "Sources")) == len(rows_of(r, "Results"))
    assert any("cnDBTier" in m["Text"] for m in rows_of(r, "Method"))


def test_footprint_report_totals_at_the_scenarios_own_load(bundle):
    """At its own 63K TPS, BSF 3.3's site requests 763.8 cores (Tables 3-25 and 3-26, every container's replicas x
    request, as the ASM test sums them); 'Per site' before and after agree, the sidecars' 280 cores (126 + 154) with them."""
    r = rep(bundle, calc="footprint", scenario="bsf-3-3", load="63000")
    totals = {x["Total"]: x for x in rows_of(r, "Totals")}
    site = totals["Per site"]
    assert site["CPU request, baseline site (cores)"] == pytest.approx(763.8)
    assert site["CPU request, target (cores)"] == pytest.approx(763.8)
    assert totals["Group: sidecars"]["CPU request, baseline site (cores)"] == 280
    # the one warning: BSF 3.3 does not state its provisioned sites consistently (title three, tables four)
    assert [w["Text"] for w in rows_of(r, "Warnings")] == [
        "The guide does not state consistently how many sites bsf-3-3 provisioned (see its scenario page): sized as 1 "
        "provisioned, the sites carrying traffic. Give Sites provisioned for your deployment: every georedundant site "
        "holds its own cnDBTier."]
    r3 = rep(bundle, calc="footprint", scenario="bsf-3-3", load="63000", sites_provisioned="3")
    assert rows_of(r3, "Warnings") == [{"Kind": "none", "Text": "No warnings for these inputs."}]


def test_footprint_report_of_a_partial_result_says_so(bundle):
    """Policy 3.2.7, Table 3-140: the app containers of 13 rows (4-11, 13, 15-18) are excluded by erratum policy-E031
    (row 7 also policy-E032), and row 11's istio-proxy prints no usable value (policy-E094). The report's totals say
    'at least'; each of the 14 containers left out is a warning and a source naming its table, row and errata."""
    r = rep(bundle, calc="footprint", scenario="policy-3-2-7", load="75000")
    missing = [w["Text"] for w in rows_of(r, "Warnings") if w["Kind"].startswith("not sized")]
    assert len(missing) == 14 and sum("policy-E031" in w for w in missing) == 13
    assert "query-service / istio-proxy: no usable value printed (Table 3-140, row 11); errata policy-E094" in missing
    gone = {(x["Item"], x["Table"], x["Row"], x["Section"], x["Errata"]) for x in rows_of(r, "Sources") if x["Item"].endswith("(not sized)")}
    assert {row for _, _, row, _, _ in gone} == {4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 16, 17, 18} and len(gone) == 14
    assert ("nrf-client-nfdiscovery / app (not sized)", "3-140", 7, "3.2.7", "policy-E032; policy-E031") in gone
    assert any(x["Total"] == "Per site (at least: partial result)" for x in rows_of(r, "Totals"))


def test_dsr_report(bundle):
    """Relay, 12 vCPU (Table 3-1 row 1): 288K MPS on 16 DA-MPs = 18,000 per DA-MP at 19 % CPU. At a 40 % ceiling that
    scales to 37,894.7, capped at the 30K_MPS profile: 240,000 / 30,000 = 8 DA-MPs by both methods, 8 x 12 = 96 vCPU."""
    r = rep(bundle, calc="dsr", scenario="dsr-relay-12vcpu", target="240000", ceiling="40")
    totals = {x["Item"]: x for x in rows_of(r, "Totals")}
    assert totals["DA-MPs to deploy"]["Value"] == 8 and totals["vCPU for these DA-MPs"]["Value"] == 96
    results = {x["Key"]: x for x in rows_of(r, "Results")}
    assert results["rate"]["Value"] == 18000 and results["rate"]["Unit"] == "MPS"
    assert results["rate_at_ceiling"]["Value"] == pytest.approx(720000 / 19)  # 18,000 x 40 / 19
    assert {x["Input"]: x["Value"] for x in rows_of(r, "Inputs")}["CPU ceiling per MP"] == 40
    src = {x["Item"]: x for x in rows_of(r, "Sources")}
    achieved = src["MPS achieved, whole setup"]
    assert (achieved["Document"].startswith("Oracle Communications Diameter Signaling Router"), achieved["Section"],
            achieved["Table"], achieved["Row"], achieved["Printed"]) == (True, "3.2.1", "3-1", 1, "288K")
    assert src["Setting: DA-MP Profile"]["Printed"] == "30K_MPS"
    assert any("profile" in w["Text"] for w in rows_of(r, "Warnings"))


def test_dsr_report_names_the_sites_the_limit_needs(bundle):
    """The case of tests/test_calculators_dsr_shcm.py (Table 3-1 row 1, 18,000 MPS per DA-MP): 1,000,000 MPS with mated
    pairs at most 16 DA-MPs per site = ceil(1,000,000 / (18,000 x 16)) = 4 pairs, 8 DSR sites of
    ceil(250,000 / 18,000) = 14 DA-MPs, 112 in all; the Method sheet says where the limit comes from."""
    r = rep(bundle, calc="dsr", scenario="dsr-relay-12vcpu", target="1000000", redundancy="mated-pair")
    totals = {x["Item"]: x["Value"] for x in rows_of(r, "Totals")}
    assert (totals["Mated pairs"], totals["DSR sites"], totals["DA-MPs per DSR site"], totals["DA-MPs to deploy"]) == (4, 8, 14, 112)
    method = {x["Topic"]: x["Text"] for x in rows_of(r, "Method")}
    assert method["DSR sites"].startswith("At most 16 DA-MPs per DSR site, spares included (Oracle DSR Policy and Charging "
                                          "Application documentation (releases 8.2 and 8.4), section 'MP Growth'")
    assert method["Spares"] == "0 spare DA-MP(s) per DSR site added (N+k), counted within the site limit."
    assert r["subtitle"].startswith("112 DA-MPs in 8 DSR site(s) for 1,000,000 MPS; baseline 3.2.1 ")


def test_shcm_report(bundle):
    """Test 5 (Table T-rhino-performance row 5): 2,160 RPS at 3.2 cores of a c5.2xlarge's 8 vCPUs (Table T-hardware
    row 1). At an 80 % ceiling: 2,160 x (8 x 0.8) / 3.2 = 4,320 RPS per node; 21,600 / 4,320 = 5 nodes, + the default
    spare (N+1) = 6. Cassandra is not sized: the report says so in its Totals, its Warnings (first) and its Method."""
    r = rep(bundle, calc="shcm", scenario="shcm-test-5", target="21600", unit="RPS", ceiling="80")
    totals = {x["Item"]: x["Value"] for x in rows_of(r, "Totals")}
    assert totals["Rhino nodes to deploy"] == 6 and totals["Cassandra database"] == "not sized"
    warnings = rows_of(r, "Warnings")
    assert warnings[0]["Kind"] == "not sized (partial: Rhino nodes only)"
    assert warnings[0]["Text"].startswith("Not sized: the Cassandra database the ShCM reads and writes (Cassandra 3.11.2).")
    assert "config B as '6 c5.2xlarge servers. 1 server for Rhino. 3 servers for Cassandra." in warnings[0]["Text"]
    method = {x["Topic"]: x["Text"] for x in rows_of(r, "Method")}
    assert method["Not sized"] == "Cassandra database" and method["Spares"].startswith("1 spare node(s) added (N+k)")
    assert r["subtitle"].endswith("(partial: Rhino nodes only, Cassandra not sized)")
    assert {x["Key"]: x["Value"] for x in rows_of(r, "Results")}["rate_at_ceiling"] == 4320
    src = {x["Item"]: x for x in rows_of(r, "Sources")}
    assert (src["ShCM JVM CPU (average), cores"]["Table"], src["ShCM JVM CPU (average), cores"]["Row"],
            src["ShCM JVM CPU (average), cores"]["Printed"]) == ("T-rhino-performance", 5, "320%")
    node = src["Rhino node (vCPUs read from the sentence)"]
    assert (node["Table"], node["Row"]) == ("T-hardware", 1) and "8 vCPUs" in node["Printed"]


def test_asm_report(bundle):
    """BSF 3.2: sidecar CPU requests 86 cores (Table 3-16) + 81 (Table 3-17) = 167 of 469.7 cores."""
    r = rep(bundle, calc="asm", on="bsf-3-2", off="bsf-3-1")
    total = next(x for x in rows_of(r, "Totals") if x["Scenario"] == "bsf-3-2" and x["What"].startswith("TOTAL"))
    assert total["Sidecar CPU request (cores)"] == 167 and total["All CPU request (cores)"] == pytest.approx(469.7)
    tables = {x["Table"] for x in rows_of(r, "Sources") if x["Item"].startswith("bsf-3-2:")}
    assert tables == {"3-16", "3-17"}


def test_overtarget_report(bundle):
    """A row of the reader's own CSV, 50 replicas at 90 % against a 75 % target: ceil(50 x 90 / 75) = 60 replicas;
    its line is the source. A line that cannot be read is a warning naming it."""
    own = "name,replicas,cpu_request,observed,target\ngw,50,4,90%,75\nbad\n"
    r = rep(bundle, calc="overtarget", product="policy", mem_threshold="90", csv=own)
    mine = next(x for x in rows_of(r, "Results") if x["Kind"] == "your row")
    assert (mine["Service"], mine["Flag"], mine["HPA desired replicas"], mine["Source row"]) == ("gw", "over", 60, 2)
    assert any(w["Text"].startswith("Line 3:") for w in rows_of(r, "Warnings"))
    inputs = {x["Input"]: x for x in rows_of(r, "Inputs")}
    assert inputs["Memory threshold"]["Value"] == 90 and inputs["Your CSV"]["Value"] == 1
    cpu = [x for x in rows_of(r, "Results") if x["Kind"] == "cpu"]
    assert cpu and all(x["Source table"] and x["Source row"] is not None for x in cpu)
    # 90 / 75 = 1.2, above the band: the HPA scales up, critical
    assert mine["Severity"] == "critical" and inputs["Kubernetes version"]["Value"] == "1.33"


def test_overtarget_report_says_to_what_the_hpa_max_must_rise(bundle):
    """Policy 3.2.2, Table 3-83 row 16: ue-service reads 54 % against 30 %; at its max of 16 (Table 3-81 row 11) the HPA
    asks ceil(16 x 1.8) = ceil(28.8) = 29: the Results row names 29 and is critical, the Warnings sheet says the max must
    rise to 29. On the v1.32 controller, Policy 3.3.1 Table 3-188 row 1 at Site1 (88 % of 80 %, 5 replicas) asks
    ceil(5 x 1.1) = 6 and the row names what v1.33 does instead."""
    r = rep(bundle, calc="overtarget", product="policy", kubernetes="1.32")
    ue = next(x for x in rows_of(r, "Results") if x["Scenario"] == "policy-3-2-2" and x["Service"] == "ue-service")
    assert (ue["Severity"], ue["HPA max must rise to (pods)"], ue["Source table"], ue["Source row"]) == ("critical", 29, "3-83", 16)
    assert any(w["Kind"] == "HPA max too low" and w["Text"].startswith("Policy 3.2.2, Table 3-83 row 16: ue-service at site1")
               and "the HPA max must rise to 29" in w["Text"] for w in rows_of(r, "Warnings"))
    site1 = next(x for x in rows_of(r, "Results") if x["Scenario"] == "policy-3-3-1" and x["Site"] == "site1")
    assert (site1["HPA desired replicas"], site1["Severity"]) == (6, "critical")
    assert site1["Other Kubernetes version"].startswith("Kubernetes v1.33 or later: 5 replicas (warning)")
    assert {x["Input"]: x["Value"] for x in rows_of(r, "Inputs")}["Kubernetes version"] == "1.32"


def test_report_of_refused_inputs_says_why(bundle):
    out = catalogue.report(bundle, {"calc": "dsr", "scenario": "dsr-relay-12vcpu", "target": "-5"})
    assert out["ok"] is False and "Target traffic" in out["error"]
    assert catalogue.report(bundle, {"calc": "nope"})["ok"] is False


def test_report_cells_are_typed():
    """Numbers stay numbers, an exact Fraction becomes its int or float, a flag yes/no, an empty text an empty cell."""
    from fractions import Fraction
    assert [report.cell(v) for v in (3, 2.5, Fraction(6, 2), Fraction(1, 4), True, "", None, ["a", "b"])] == \
        [3, 2.5, 3, 0.25, "yes", None, None, "a; b"]
    with pytest.raises(report.ReportError):
        report.cell(object())
    with pytest.raises(report.ReportError, match="row 1 has 1 cells for 2 columns"):
        report.sheet("X", [report.col("a"), report.col("b")], [[1]])


# ------------------------------------------------------------------ XLSX

def test_xlsx_sheets_typed_cells_units_and_sources(bundle):
    r = rep(bundle, calc="footprint", scenario="bsf-3-3", load="126000", target="70")
    data = reportxlsx.write(r)
    assert data == reportxlsx.write(rep(bundle, calc="footprint", scenario="bsf-3-3", load="126000", target="70"))
    book = openpyxl.load_workbook(io.BytesIO(data))
    assert book.sheetnames == list(report.SHEETS)
    assert book.properties.created == datetime(2020, 1, 1)
    assert book["Inputs"]["A1"].value.startswith("Footprint scaling: 63K TPS")
    inputs = {x["Input"]: x for x in xlsx_rows(book, "Inputs", header_row=4)}
    assert inputs["Target load, total"]["Value"] == 126000 and isinstance(inputs["Target load, total"]["Value"], int)
    results = xlsx_rows(book, "Results")
    mgmt = next(x for x in results if x["Service"] == "BSF Management Service" and x["Container"] == "app")
    assert mgmt["Replicas (target) (pods)"] == 17 and mgmt["CPU request per pod (cores)"] == 4
    assert book["Results"]["J2"].data_type == "n"  # numbers are numbers, not text
    assert book["Results"].freeze_panes == "A2"
    src = xlsx_rows(book, "Sources")
    assert {"Item": "BSF Management Service / app", "Table": "3-25", "Row": 2, "Section": "3.3"}.items() <= \
        next(x for x in src if x["Item"] == "BSF Management Service / app").items()


def test_xlsx_text_is_never_a_formula():
    """A text cell starting with '=' is written as that text (no formula runs when the workbook opens)."""
    r = report.build("x", "t", "s", "x.xlsx", inputs=[["name", "=HYPERLINK(\"http://x\",\"y\")", None, "@SUM(A1)"]],
                     results={"columns": [report.col("a")], "rows": [["+1"]]}, totals={"columns": [report.col("a")], "rows": []},
                     warnings=[], method=[], sources=[])
    book = openpyxl.load_workbook(io.BytesIO(reportxlsx.write(r)))
    cell = book["Inputs"]["B5"]
    assert cell.value == "=HYPERLINK(\"http://x\",\"y\")" and cell.data_type == "s"
    assert book["Results"]["A2"].value == "+1" and book["Results"]["A2"].data_type == "s"


# ------------------------------------------------------------------ CSV and Helm carry the inputs

def test_csv_and_helm_start_with_the_inputs(bundle):
    out = catalogue.run(bundle, {"calc": "footprint", "scenario": "bsf-3-3", "load": "126,000", "target": "70"})
    text = out["downloads"]["csv"]["text"]
    head = text.split("\nscenario,", 1)[0].splitlines()
    assert head[0] == "# Benchmark Atlas footprint calculator: inputs of this result"
    assert {"# scenario: bsf-3-3", "# target_load: 126000", "# unit: TPS", "# target_cpu_percent: 70",
            "# db_target_percent: (not given)", "# failover: no"} <= set(head)
    rows = list(csv.reader(io.StringIO(csv_body(text))))
    assert rows[0][:3] == ["scenario", "component", "service"] and len(rows) > 40
    helm = out["downloads"]["helm"]["text"].splitlines()
    assert "# target_load: 126000" in helm and "# target_cpu_percent: 70" in helm
    assert helm.index("# target_load: 126000") < next(i for i, x in enumerate(helm) if not x.startswith("#"))
    dsr = catalogue.run(bundle, {"calc": "dsr", "scenario": "dsr-relay-12vcpu", "target": "240000", "ceiling": "40"})
    assert dsr["downloads"]["csv"]["text"].splitlines()[:4] == [
        "# Benchmark Atlas dsr calculator: inputs of this result", "# scenario: dsr-relay-12vcpu", "# target: 240000", "# ceiling: 40"]


def test_input_lines_stay_one_inert_cell():
    """A value with a comma, a quote or a line break stays one line and, in the CSV, one cell that starts with '#'."""
    lines = catalogue.input_lines("x", {"a": 'one,=HYPERLINK("http://x")\n=2+3', "b": None, "c": 1.5})
    assert lines[1:] == ['# a: one,=HYPERLINK("http://x") =2+3', "# b: (not given)", "# c: 1.5"]
    d = catalogue._with_inputs("x", {"a": 'one,=HYPERLINK("http://x")'}, {"mime": "text/csv", "text": "h\n1\n"})
    rows = list(csv.reader(io.StringIO(d["text"])))
    assert rows[1] == ['# a: one,=HYPERLINK("http://x")'] and rows[-2:] == [["h"], ["1"]]
    y = catalogue._with_inputs("x", {"a": "v\nkey: 1"}, {"mime": "application/yaml", "text": "k: 1\n"})
    assert y["text"].splitlines() == ["# Benchmark Atlas x calculator: inputs of this result", "# a: v key: 1", "k: 1"]


# ------------------------------------------------------------------ the built site

def test_report_pack_is_apart_from_every_page_pack(built_site):
    """The report pack (calculators/report.py, reportxlsx, XlsxWriter: sources and bytecode) is listed in the manifest;
    no calculator page's own pack holds any of it, so page boot fetches nothing more; no loose copy is served."""
    py = built_site / "assets" / "py"
    manifest = json.loads((py / "manifest.json").read_text())
    files = [f for f, _, _ in manifest["report"]["files"]]
    assert re.fullmatch(r"code\.report\.[0-9a-f]{12}\.pack", manifest["report"]["pack"])
    assert {"calculators/report.py", "reportxlsx/__init__.py", "xlsxwriter/workbook.py"} <= set(files)
    assert any(f.startswith("xlsxwriter/__pycache__/workbook.") and f.endswith(".pyc") for f in files)
    for name, entry in manifest["packs"].items():
        own = [f for f, _, _ in entry["files"]]
        assert not [f for f in own if f.startswith(("calculators/report.", "calculators/__pycache__/report.", "reportxlsx/",
                                                     "xlsxwriter/"))], name
    assert not (py / "xlsxwriter").exists() and not (py / "reportxlsx").exists()


def test_prerendered_xlsx_is_the_default_result(built_site):
    """The page's own XLSX link (no JavaScript needed) is a file of the site holding the default result: BSF nBSF + Rx
    at 63,000 TPS sized from its comparable runs; the page does not carry the workbook inline. The workbook carries the
    answer with its likely range and the runs it was sized from (Method sheet), and the totals' likely ends."""
    html = (built_site / "calculators" / "footprint" / "index.html").read_text(encoding="utf-8")
    m = re.search(r'<a id="calc-dl-xlsx" download="footprint-bsf-bsf-nbsf-rx.xlsx" href="\.\./\.\./(assets/reports/'
                  r'footprint-default\.[0-9a-f]{12}\.xlsx)"', html)
    assert m, "no XLSX link"
    book = openpyxl.load_workbook(built_site / m.group(1))
    inputs = {x["Input"]: x["Value"] for x in xlsx_rows(book, "Inputs", header_row=4)}
    assert inputs["Target load, total"] == 63000 and inputs["Call model"] == "bsf:bsf-nbsf-rx"
    assert inputs["Sized from"] == "comparable runs"
    method = [r for r in book["Method"].iter_rows(values_only=True) if r and r[0] == "Answer and how it was sized"]
    assert method[0][1].startswith("answer: Per site: ")
    assert any(str(r[1]).startswith("sized from: the comparable runs of BSF nBSF + Rx") for r in method)
    # BSF has three runs: three whole-footprint comparisons are too few for a band, and the workbook says so
    assert any(str(r[1]) == "No range: only 3 held-out comparisons (a band needs 9)." for r in method)
    assert "base64,UEsD" not in html  # no zip inline


def test_xlsx_of_the_pcf_sm_example_carries_its_range_and_runs(bundle):
    """The PCF SM example (50,000 TPS on two sites, N+1, 64-core / 256 GiB nodes): its workbook's Method sheet has the
    answer with its likely range, the runs it was sized from and each comparable run alone; its Totals sheet the likely
    low and high per site."""
    import io
    from calculators import catalogue
    rep = catalogue.report(bundle, {"calc": "footprint", "call_model": "policy:pcf-sm", "load": "50000", "sites": "2",
                                    "redundancy": "n+1", "node_cores": "64", "node_mem": "256"})
    assert rep["ok"] and rep["report"]["filename"] == "footprint-policy-pcf-sm.xlsx"
    book = openpyxl.load_workbook(io.BytesIO(reportxlsx.write(rep["report"])))
    method = [str(r[1]) for r in book["Method"].iter_rows(values_only=True) if r and r[0] == "Answer and how it was sized"]
    assert method[0].startswith("answer: Per site: ") and "nodes (likely " in method[0]
    assert method[1].startswith("sized from: the comparable runs of PCF SM (policy); pods as in policy-3-2-8")
    assert sum(m.startswith("the same request from ") for m in method) == 6
    assert any(m.startswith("Likely: where the cores the pods use fell in 16 held-out comparisons") for m in method)
    totals = [r[0] for r in book["Totals"].iter_rows(values_only=True) if r and isinstance(r[0], str)]
    assert any(t.startswith("Per site, likely low; worker nodes per site ") for t in totals)
    assert any(t.startswith("Per site, likely high; worker nodes per site ") for t in totals)


# ------------------------------------------------------------------ in the browser

@pytest.mark.browser
def test_browser_xlsx_of_a_computed_result(page, site_url, tmp_path):
    """The XLSX of a result computed in the browser (126K TPS, 70 %: BSF Management Service 17 replicas, as above);
    the report pack is fetched on that click, not while the page boots; a second click reuses the file."""
    packs = []
    page.on("request", lambda r: "/assets/py/code.report." in r.url and packs.append(r.url))
    page.goto(site_url + "/calculators/footprint/?scenario=bsf-3-3&load=126000&target=70", wait_until="load")
    computed(page, 1)
    assert packs == []
    with page.expect_download(timeout=BOOT_LIMIT_MS) as d:
        page.click("#calc-dl-xlsx")
    assert d.value.suggested_filename == "footprint-bsf-3-3.xlsx" and len(packs) == 1
    path = tmp_path / "r.xlsx"
    d.value.save_as(path)
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == list(report.SHEETS)
    inputs = {x["Input"]: x["Value"] for x in xlsx_rows(book, "Inputs", header_row=4)}
    assert inputs["Target load, total"] == 126000 and inputs["Target CPU utilization of traffic services"] == 70
    mgmt = next(x for x in xlsx_rows(book, "Results") if x["Service"] == "BSF Management Service" and x["Container"] == "app")
    assert mgmt["Replicas (target) (pods)"] == 17
    assert page.get_attribute("#atlas-calculator", "data-report") == "ready"
    with page.expect_download(timeout=BOOT_LIMIT_MS) as again:
        page.click("#calc-dl-xlsx")
    assert again.value.suggested_filename == "footprint-bsf-3-3.xlsx" and len(packs) == 1
    assert page.js_errors == []


@pytest.mark.browser
@pytest.mark.parametrize("path", ["footprint/?scenario=bsf-3-3&load=126000&target=70&node_cores=64&node_mem=256",
                                  "over-target/?product=policy", "asm/?on=bsf-3-3&off=bsf-3-1"])
def test_browser_print_report(page, site_url, path):
    """Printed (print media, A4's 794 px): no filter box, sort glyph, download link or button; every table of the
    result fits the paper's width (nothing scrolls or is clipped); the inputs and the closed details print."""
    page.set_viewport_size({"width": 794, "height": 1123})
    page.goto(site_url + "/calculators/" + path, wait_until="load")
    computed(page, 1)
    # tables.js enhances a table as it scrolls into view: enhance them all, as a reader scrolling down would have
    page.wait_for_function("window.atlasTables", timeout=BOOT_LIMIT_MS)
    page.evaluate("document.querySelectorAll('#atlas-calc-result table').forEach(t => window.atlasTables.enhance(t))")
    assert page.is_visible("#calc-print") and page.locator("#atlas-calc-result .atlas-filter").count() > 0
    assert page.locator("#atlas-calc-result table[data-atlas-enhanced] th[role=columnheader]").count() > 0
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    assert page.locator(".atlas-filter:visible, .atlas-downloads:visible, #calc-run:visible, #calc-print:visible, "
                        ".md-header:visible, .md-sidebar:visible").count() == 0
    glyphs = page.evaluate("""[...document.querySelectorAll('#atlas-calc-result th')]
        .map(th => getComputedStyle(th, '::after').content).filter(c => c !== 'none' && c !== 'normal')""")
    assert glyphs == []
    clipped = page.evaluate("""() => {
        const right = document.querySelector('article').getBoundingClientRect().right + 0.5;
        return [...document.querySelectorAll('#atlas-calc-result table')].filter(t => t.offsetParent).map(t => {
          const box = t.parentElement;
          return {cls: t.className, table: t.scrollWidth, box: box.clientWidth, right: t.getBoundingClientRect().right, page: right};
        }).filter(x => x.table > x.box + 0.5 || x.right > x.page);
    }""")
    assert clipped == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 794  # nothing, the inputs neither, runs off the paper
    assert page.locator("#atlas-calc-result table:visible").count() >= 1
    assert page.locator("#atlas-calc-result details:not([open])").count() == 0
    assert page.locator("#atlas-calculator form select:visible").count() >= 1  # the inputs print (as label and value)
