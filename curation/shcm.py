"""Curate the Sh Cache Microservice (ShCM) benchmark book (seed 004) into data/shcm/.

Run: ``python -m curation shcm``. The seed has no pipe tables: the two results tables
("Rhino Performance" and "Client latency in milliseconds grouped by percentile") are printed one
cell per line under a space-joined header line, and the configuration facts are bullet lists or
prose. This module reconstructs them as tables with stable ids:

* ``T-rhino-performance``   Test, SPS, RPS, Duration (hours), Server config, CPU (average), Heap (average)
                            -> measurements.csv (+ the Server config cell in settings.csv)
* ``T-client-latency``      Test, SPS, RPS, Duration (hours), Server config, 50th .. Max
                            -> latency.csv (+ the repeated test columns in measurements/settings.csv)
* ``T-scenario-files``      the five simulator .scen files                       -> settings.csv
* ``T-traffic-scenarios``   the five scenario descriptions (client-ShCM, ShCM-HSS) -> settings.csv
* ``T-load-profile``        request composition, SPS/RPS ratio, mix, data pool   -> settings.csv
* ``T-hardware``            the EC2 instance type                               -> settings.csv
* ``T-jvm-settings``        Java version, heap, new size and the added JVM flags -> settings.csv
* ``T-software-versions``   the seven software versions                         -> settings.csv
* ``T-server-configs``      server configurations A, B and C                    -> settings.csv
* ``T-glossary``            SPS and RPS                                         -> settings.csv
* ``T-cassandra-disk``      Cassandra commitlog limit and disk usage            -> measurements.csv

Each reconstructed row keeps the seed line of its first cell. The XML payloads of the GET and
PUT MMTel-Services scenarios are not curated: they hold telephone numbers (personal data) and no
benchmark figure.

CPU is the ShCM JVM's figure ("The CPU reading is for the ShCM JVM, not the whole host."), where
100% is one core: measurements.csv keeps the printed percent (metric cpu_percent, unit percent)
and a second row in cores (metric cpu_cores, unit cores, 280% -> 2.8), both citing the same cell.
"""
from __future__ import annotations

import re
from decimal import Decimal

from .common import CellError, Curated, _clean, integer, num, percent, seed_path
from .pipetables import read_lines

DOC = "shcm"

PERF_HEADER = ["Test", "SPS", "RPS", "Duration (hours)", "Server config", "CPU (average)", "Heap (average)"]
LAT_HEADER = ["Test", "SPS", "RPS", "Duration (hours)", "Server config", "50th", "75th", "90th", "95th", "99th", "Max"]
LAT_STAT = {"50th": "p50", "75th": "p75", "90th": "p90", "95th": "p95", "99th": "p99", "Max": "max"}
SECTION_RESULTS = "Benchmark Results"


class Src:
    """The seed's lines with exact-text lookups (1-based line numbers)."""

    def __init__(self, lines: list[str]):
        self.lines = lines

    def find(self, text: str, start: int = 1, exact: bool = True) -> int:
        for n in range(start, len(self.lines) + 1):
            l = self.lines[n - 1].strip()
            if (l == text) if exact else (text in l):
                return n
        raise CellError(f"ShCM seed: {text!r} not found from line {start}")

    def text(self, n: int) -> str:
        return self.lines[n - 1]

    def cells(self, first: int, last: int) -> list[tuple[int, str]]:
        """Non-blank lines in [first, last] as (line, stripped text)."""
        return [(n, self.lines[n - 1].strip()) for n in range(first, last + 1) if self.lines[n - 1].strip()]

    def bullets(self, first: int, last: int) -> list[tuple[int, str]]:
        out = []
        for n, t in self.cells(first, last):
            if not t.startswith("\u2022"):
                raise CellError(f"ShCM seed line {n}: expected a bullet, got {t!r}")
            out.append((n, t[1:].strip()))
        return out


def split_header(line: str, header: list[str]) -> list[str]:
    """Check that a space-joined header line is exactly the given column names."""
    if line.strip() != " ".join(header):
        raise CellError(f"header {line!r} is not {header}")
    return header


def grid(src: Src, header_line: int, end_line: int, header: list[str]) -> list[list[tuple[int, str]]]:
    """Cells one per line after ``header_line`` up to ``end_line``, cut into rows of len(header)."""
    split_header(src.text(header_line), header)
    cells = src.cells(header_line + 1, end_line)
    if len(cells) % len(header):
        raise CellError(f"{len(cells)} cells after line {header_line} do not fill rows of {len(header)}")
    rows = [cells[i:i + len(header)] for i in range(0, len(cells), len(header))]
    for k, r in enumerate(rows, 1):
        if r[0][1] != str(k):
            raise CellError(f"row {k} starts with {r[0]!r}, expected the test number {k}")
    return rows


def cores_from_jvm_percent(raw: str) -> float:
    """'280%' (JVM CPU, 100% = one core) -> 2.8 cores, exactly."""
    p = percent(raw)
    return _clean(Decimal(str(p)) / 100)


def heap_value(raw: str) -> float:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)G", raw)
    if not m:
        raise CellError(f"heap {raw!r}")
    return num(m.group(1))


def build() -> Curated:
    lines = read_lines(seed_path(DOC))
    src = Src(lines)
    c = Curated(DOC)
    tables: dict[str, dict] = {}

    def table(tid, title, kind, first, last, header, nrows, section, category=None, note=None, scenario=None):
        e = {"id": tid, "doc": DOC, "scenario": scenario, "section": section, "caption": None, "title": title, "kind": kind}
        if category:
            e["category"] = category
        e.update({"lines": [first, last], "segments": 1, "rows": nrows, "header": header})
        if note:
            e["note"] = note
        c.tables.append(e)
        tables[tid] = e
        return e

    def setting(tid, scen, i, line, label, category, key, col, value, note=None):
        c.add("settings", scenario=scen, table_id=tid, row=i, line=line, row_label=label, category=category, key=key,
              column_label=col, value=value, status="ok", note=note)

    # ------------------------------------------------------------------ errata first (ids used in notes)
    E = c.erratum
    perf_h = src.find(" ".join(PERF_HEADER))
    perf_title = perf_h - 2 if src.text(perf_h - 2).strip() == "Rhino Performance" else src.find("Rhino Performance")
    note_l = src.find("Note The CPU reading is for the ShCM JVM, not the whole host.")
    lat_h = src.find(" ".join(LAT_HEADER))
    lat_title = src.find("Client latency in milliseconds grouped by percentile")
    disk_l = src.find("Cassandra Disk Usage")
    concl = src.find("Conclusion")
    concl_text_l = src.find("Testing showed that", concl, exact=False)

    e_grid = {}
    for tid, title_l, h_l, last in (("T-rhino-performance", perf_title, perf_h, note_l - 1),
                                     ("T-client-latency", lat_title, lat_h, disk_l - 1)):
        e_grid[tid] = E(scenario=None, table_id=tid, lines=[title_l, h_l], where="whole table", kind="format",
                        raw=src.text(h_l).strip(),
                        problem=f"{tid}: untitled and unnumbered table printed one cell per line, blank lines between cells; the "
                                "header names are joined by spaces and row boundaries are implicit.",
                        action="read-as", reading=f"table {tid}: header split on the known column names, every "
                                                  f"{len(PERF_HEADER) if tid == 'T-rhino-performance' else len(LAT_HEADER)} "
                                                  "cells one row, each row starting with its test number 1..7",
                        reason="The cell count divides exactly into 7 rows and each row begins with the next test number; "
                               "the same SPS/RPS/config columns agree between the two tables.")
    e_cpu = E(scenario=None, table_id="T-rhino-performance", lines=[perf_h, note_l], where="column 'CPU (average)'",
              kind="unit", raw=src.text(note_l).strip(),
              problem="CPU is printed as a percentage above 100% ('280%' to '380%') with no basis in the table; the note says "
                      "it is the ShCM JVM's reading, not the host's.",
              action="read-as", reading="percent of one CPU core (100% = 1 core): 280% = 2.8 cores",
              reason="A per-process (JVM) CPU percentage above 100% counts cores; the c5.2xlarge host has 8 vCPUs, so the "
                     "host-level figure could not exceed 100% per core in this way. measurements.csv keeps both the printed "
                     "percent (metric cpu_percent) and the cores (metric cpu_cores, printed value / 100).")
    E(scenario=None, table_id="T-rhino-performance", lines=[note_l], where="note after the table", kind="format",
               raw="Note The CPU reading", problem="The 'Note' label is glued to the sentence.", action="noted")
    e_heap = E(scenario=None, table_id="T-rhino-performance", lines=[perf_h, src.find("1.4G")],
               where="column 'Heap (average)'", kind="unit",
               raw="1.4G", problem="'G' does not say GB or GiB.", action="read-as", reading="GiB",
               reason="JVM memory sizes are binary: the heap is set as '3072m' (3072 MiB = 3 GiB) and JVM size suffixes "
                      "(m, g) are powers of 1024. The value is kept as printed (1.4), only its unit is read as GiB.")
    mix_l = src.find("The scenario mix was weighted to", exact=False)
    ratio_l = src.find("So 1 SPS equals 1.8 requests per second.", exact=False)
    e_mix = E(scenario=None, table_id="T-load-profile", lines=[ratio_l, mix_l], where="Methodology and Scenarios prose",
              kind="contradiction", raw="The scenario mix was weighted to 84% GETS, 11% PUTs, and 5% Susbcribes",
              problem="'1 SPS equals 1.8 requests per second' comes from running each of the 5 scenarios equally often "
                      "(10 runs each = 50 sessions, 90 requests): then GET requests are 6 of 9, not 84%. Whatever the "
                      "weighting, 1.8 requests per session (PUT and GET scenarios send 2 requests, SUBSCRIBE 1) needs "
                      "SUBSCRIBE sessions at 1 in 5 of sessions, i.e. 1 in 9 requests, while the mix says 5% subscribes, "
                      "whether read as sessions or requests. The two statements cannot both hold.",
              action="kept-as-printed",
              reason="The results tables follow RPS = 1.8 x SPS exactly (1000 -> 1800 ... 1400 -> 2520), so the load unit "
                     "(SPS) and the printed RPS are used as printed; the mix is kept as text in each scenario.")
    pool_l = src.find("Each of the 5 scenarios were assigned a data pool of 200,000 unique subscribers.")
    e_pool = E(scenario=None, table_id="T-load-profile", lines=[pool_l, concl_text_l], where="Data Pools and Conclusion",
               kind="other", raw="a subscriber data pool of 1m",
               problem="Data Pools gives each of the 5 scenarios '200,000 unique subscribers' and the conclusion speaks of "
                       "'a subscriber data pool of 1m': the two agree (5 x 200,000 = 1,000,000), but the text never says "
                       "whether the five pools are disjoint.", action="noted",
               reason="Both wordings are kept (subscribers.raw, and a note on every scenario).")
    e_300 = E(scenario="shcm-test-5", table_id="T-rhino-performance", lines=[concl_text_l], where="Conclusion",
              kind="inconsistent-values", raw="using around 300% CPU with reasonable request latencies (test 5)",
              problem="Table T-rhino-performance prints 320% for test 5.", action="kept-as-printed",
              reason="The table value is the data; the conclusion is prose.")
    E(scenario="shcm-test-6", table_id=None, lines=[src.find("Even in the case the RPS was 2520", exact=False)],
      where="Conclusion", kind="other", raw="inside of acceptable ranges",
      problem="'acceptable ranges' of latency and CPU are never defined.", action="noted")
    E(scenario=None, table_id=None, lines=[mix_l], where="Scenarios prose", kind="typo", raw="84% GETS, 11% PUTs, and 5% Susbcribes",
      problem="'Susbcribes' for Subscribes; 'GETS' for GETs.", action="kept-as-printed")
    E(scenario=None, table_id=None, lines=[concl_text_l], where="Conclusion", kind="typo", raw="2160 requests per seconds",
      problem="'per seconds' for 'per second'.", action="kept-as-printed")
    E(scenario=None, table_id=None, lines=[pool_l], where="Data Pools", kind="typo", raw="Each of the 5 scenarios were assigned",
      problem="Grammar ('Each ... were').", action="kept-as-printed")
    hw_l = src.find("All testing was performed in Amazon ec2 using", exact=False)
    e_hw = E(scenario=None, table_id="T-hardware", lines=[hw_l], where="Hardware", kind="unit", raw="(8 vCPUs, 16gb RAM)",
             problem="'ec2' for EC2 and '16gb' with no binary/decimal distinction (the c5.2xlarge instance type has 16 GiB).",
             action="kept-as-printed", reason="Kept as text in settings; not converted.")
    pnr_l = src.find("PNR request to HSS")
    E(scenario=None, table_id="T-traffic-scenarios", lines=[pnr_l, src.find("This scenario sends a PUR request to the HSS with this data:")],
      where="PUT STN-SR, ShCM-HSS scenario", kind="name", raw="PNR request to HSS",
      problem="A client update sent to the HSS is a Sh PUR (as PUT MMTel-Services says); PNR is the HSS-to-AS push "
              "notification. Probably a slip for PUR.", action="kept-as-printed", reason="Kept as printed; flagged here only.")
    xml1 = (src.find("<Sh-Data>"), src.find("</Sh-Data>"))
    xml2 = (src.find("<Sh-Data>", xml1[1] + 1), src.find("</Sh-Data>", xml1[1] + 1))
    e_xml = E(scenario=None, table_id="T-traffic-scenarios", lines=[xml1[0], xml1[1], xml2[0], xml2[1]],
              where="GET MMTel-Services and PUT MMTel-Services payloads", kind="duplicate", raw="<Sh-Data>",
              problem="The HSS response of GET MMTel-Services and the PUR payload of PUT MMTel-Services are the same "
                      f"{xml1[1] - xml1[0] + 1}-line XML document, printed twice; it contains telephone numbers "
                      "(tel: URIs).", action="left-out",
              reason="Personal data is not published, and the payload holds no benchmark figure.")
    links = [src.find("Summaries of the benchmarks and links to detailed metrics."),
             src.find("Other documentation for the Sh Cache Microservice can be found on the Sh Cache Microservice product page.")]
    orphans = [n for n, t in src.cells(1, len(lines)) if t in ("Client HTTP scenario", "ShCM MMTel-Services")]
    E(scenario=None, table_id=None, lines=links + orphans, where="Topics and scenario descriptions", kind="missing",
      raw="Client HTTP scenario",
      problem="Links (detailed metrics, product page) and the scenario diagrams are lost; their captions remain as "
              "orphan lines.", action="noted")
    files_first = src.find("put-mmtel-services.scen")
    E(scenario=None, table_id="T-scenario-files", lines=[files_first], where="scenario file list", kind="other",
      raw="put-mmtel-services.scen",
      problem="The five .scen files are listed in a different order from the scenario descriptions "
              "(GET MMTel-Services, GET MSISDN, PUT MMTel-Services, PUT STN-SR, Ue-Reachability Subscribe).",
      action="noted")
    ver_first = src.find("\u2022 ShCM - master/latest.integration")
    E(scenario=None, table_id="T-software-versions", lines=[ver_first, ver_first + 2], where="ShCM and Rhino versions",
      kind="other", raw="master/latest.integration",
      problem="Not a release: ShCM, Rhino, the test scripts and the simulator JSON are development builds; no release is "
              "named anywhere in the book.", action="noted")
    E(scenario=None, table_id=None, lines=[1], where="first line", kind="format",
      raw="This book contains performance benchmarks using the Sh Cache Microservice",
      problem="The sentence has no final period.", action="noted")

    # ------------------------------------------------------------------ results tables
    perf_rows = grid(src, perf_h, note_l - 1, PERF_HEADER)
    lat_rows = grid(src, lat_h, disk_l - 1, LAT_HEADER)
    E(scenario=None, table_id="T-client-latency", lines=[lat_rows[6][5][0], lat_rows[0][5][0], perf_rows[6][5][0],
                                                          perf_rows[0][5][0], lat_rows[3][10][0], lat_rows[4][10][0]],
      where="tests 1, 3, 4, 5 and 7", kind="other", raw=lat_rows[6][5][1],
      problem="Counter-intuitive results: config C (all caching disabled) has a lower p50 than config A at the same "
              f"1000 SPS ({lat_rows[6][5][1]} against {lat_rows[0][5][1]} ms) but a higher CPU ({perf_rows[6][5][1]} against "
              f"{perf_rows[0][5][1]}); test 4's max ({lat_rows[3][10][1]} ms) is above test 5's ({lat_rows[4][10][1]} ms) at "
              f"a higher load; config A collapses at 1200 SPS (test 3: p50 {lat_rows[2][5][1]}, max {lat_rows[2][10][1]} ms) "
              f"at only {perf_rows[2][5][1]} CPU.",
      action="kept-as-printed", reason="Recorded as printed; nothing is corrected.")
    if len(perf_rows) != 7 or len(lat_rows) != 7:
        raise CellError("expected 7 tests in each results table")
    for p, l in zip(perf_rows, lat_rows):
        if [x[1] for x in p[:5]] != [x[1] for x in l[:5]]:
            raise CellError(f"test {p[0][1]}: Test/SPS/RPS/Duration/config differ between the two tables")

    def test_columns(tid, i, row, scen):
        """Test, SPS, RPS, Duration (hours), Server config of one row."""
        (ln, test), (_, sps), (_, rps), (_, dur), (_, cfg) = row[:5]
        base = dict(scenario=scen, table_id=tid, row=i, line=ln, row_label=test, site=None, subject=f"Test {test}",
                    qualifier="", status="ok")
        note = None if tid == "T-rhino-performance" else "Repeats the same column of T-rhino-performance."
        c.add("measurements", metric="sps", value=integer(sps), unit="SPS", column_label="SPS", raw=sps, note=note, **base)
        c.add("measurements", metric="rps", value=integer(rps), unit="RPS", column_label="RPS", raw=rps, note=note, **base)
        c.add("measurements", metric="duration", value=integer(dur), unit="hours", column_label="Duration (hours)", raw=dur,
              note=note, **base)
        setting(tid, scen, i, ln, test, "configuration", "Server config", "Server config", cfg, note)
        if (int(rps) * 10) != int(sps) * 18:
            raise CellError(f"{tid} test {test}: RPS {rps} is not 1.8 x SPS {sps}")

    for i, row in enumerate(perf_rows, 1):
        scen = f"shcm-test-{row[0][1]}"
        test_columns("T-rhino-performance", i, row, scen)
        ln, test = row[0]
        (_, cpu), (_, heap) = row[5:]
        base = dict(scenario=scen, table_id="T-rhino-performance", row=i, line=ln, row_label=test, site=None,
                    subject=f"Test {test}", qualifier="")
        c.add("measurements", metric="cpu_percent", value=percent(cpu), unit="percent", column_label="CPU (average)", raw=cpu,
              status="ok", note=f"ShCM JVM CPU, average; 100% = one core ({e_cpu}).", **base)
        c.add("measurements", metric="cpu_cores", value=cores_from_jvm_percent(cpu), unit="cores", column_label="CPU (average)",
              raw=cpu, status="corrected",
              note=f"{e_cpu}: derived from the printed '{cpu}' read as percent of one core (ShCM JVM reading, not the "
                   f"host): {percent(cpu)} / 100 = {cores_from_jvm_percent(cpu)} cores.", **base)
        c.add("measurements", metric="heap_avg", value=heap_value(heap), unit="GiB", column_label="Heap (average)", raw=heap,
              status="corrected", note=f"{e_heap}: 'G' read as GiB; JVM heap assigned 3072m.", **base)
    for i, row in enumerate(lat_rows, 1):
        scen = f"shcm-test-{row[0][1]}"
        test_columns("T-client-latency", i, row, scen)
        ln, test = row[0]
        for h, (_, cell) in zip(LAT_HEADER[5:], row[5:]):
            c.add("latency", scenario=scen, table_id="T-client-latency", row=i, line=ln, row_label=test, site=None,
                  subject="Client latency", statistic=LAT_STAT[h], value_ms=num(cell), qualifier="", raw_unit="ms",
                  column_label=h, raw=cell, status="ok")
    table("T-rhino-performance", "Rhino Performance", "measurements", perf_title, perf_rows[-1][-1][0], PERF_HEADER, 7,
          SECTION_RESULTS, note=f"Reconstructed from one-cell-per-line text ({e_grid['T-rhino-performance']}); the Server "
          "config column is in settings.csv. CPU kept as printed percent and as cores (" + e_cpu + ").")
    table("T-client-latency", "Client latency in milliseconds grouped by percentile", "latency", lat_title,
          lat_rows[-1][-1][0], LAT_HEADER, 7, SECTION_RESULTS,
          note=f"Reconstructed from one-cell-per-line text ({e_grid['T-client-latency']}); the repeated Test/SPS/RPS/"
               "Duration columns are in measurements.csv, Server config in settings.csv.")

    # ------------------------------------------------------------------ structured lists as settings tables
    files = src.cells(files_first, files_first + 8)[:5]
    for i, (n, f) in enumerate(files, 1):
        if not f.endswith(".scen"):
            raise CellError(f"line {n}: {f!r}")
        setting("T-scenario-files", None, i, n, f, "test-parameters", f, "Scenario file", f)
    table("T-scenario-files", "5 scenarios were used in the client simulator", "settings", src.find(
        "5 scenarios were used in the client simulator"), files[-1][0], ["Scenario file"], 5, "Benchmark Scenarios and Methodology",
        category="test-parameters")

    heads = ["GET MMTel-Services", "GET MSISDN", "PUT MMTel-Services", "PUT STN-SR", "Ue-Reachability Subscribe"]
    scen_start = src.find("Scenarios", src.find("Data Pools"))
    hw_head = src.find("Hardware and Software", scen_start)
    starts = []
    pos = src.find("The scenario mix was weighted to", exact=False) + 1
    for h in heads:
        pos = src.find(h, pos)
        starts.append(pos)
        pos += 1
    bounds = starts + [hw_head]
    last_line = None
    for i, h in enumerate(heads, 1):
        first, end = bounds[i - 1], bounds[i] - 1
        cl = src.find("The client-ShCM scenario:", first)
        sl = src.find("The ShCM-HSS scenario:", first)
        client = src.cells(cl + 1, end)[0]
        shcm = src.cells(sl + 1, end)[0]
        setting("T-traffic-scenarios", None, i, first, h, "test-parameters", h, "The client-ShCM scenario:", client[1],
                note=f"line {client[0]}" + ("; orphan diagram caption" if client[1] == "Client HTTP scenario" else ""))
        setting("T-traffic-scenarios", None, i, first, h, "test-parameters", h, "The ShCM-HSS scenario:", shcm[1],
                note=f"line {shcm[0]}")
        desc = [x for x in src.cells(shcm[0] + 1, end) if x[1].startswith("This scenario")]
        if desc:
            setting("T-traffic-scenarios", None, i, first, h, "test-parameters", h, "Description", desc[0][1],
                    note=f"line {desc[0][0]}" + (f"; the XML payload that follows is left out ({e_xml})"
                                                 if desc[0][1].endswith("data:") else ""))
        last_line = (desc[0][0] if desc else shcm[0])
    table("T-traffic-scenarios", "Scenarios", "settings", starts[0], last_line,
          ["Scenario", "The client-ShCM scenario:", "The ShCM-HSS scenario:", "Description"], 5,
          "Benchmark Scenarios and Methodology", category="test-parameters",
          note=f"Reconstructed from the scenario headings and their lines; the XML payloads are left out ({e_xml}).")

    lp = [
        (src.find("The two PUT scenarios contain a PUT and then a GET for the modified data."), "PUT scenarios",
         "a PUT and then a GET for the modified data"),
        (src.find("The two GET scenarios contain two GETs each for the same data."), "GET scenarios",
         "two GETs each for the same data"),
        (src.find("The SUBSCRIBE scenario contains one POST."), "SUBSCRIBE scenario", "one POST"),
        (ratio_l, "SPS to RPS", "1 SPS equals 1.8 requests per second"),
        (pool_l, "Data pool", "a data pool of 200,000 unique subscribers"),
        (mix_l, "Scenario mix", "84% GETS, 11% PUTs, and 5% Susbcribes"),
    ]
    for i, (n, k, v) in enumerate(lp, 1):
        if v not in src.text(n):
            raise CellError(f"line {n}: {v!r} not in the text")
        note = e_mix if k in ("SPS to RPS", "Scenario mix") else e_pool if k == "Data pool" else None
        setting("T-load-profile", None, i, n, k, "call-model", k, "Value (as printed in the sentence)", v, note)
    table("T-load-profile", "Methodology, Data Pools and Scenarios (load profile)", "settings", lp[0][0], mix_l,
          ["Item", "Value (as printed in the sentence)"], len(lp), "Benchmark Scenarios and Methodology", category="call-model",
          note="Reconstructed from prose sentences; each value is an exact substring of its line.")

    setting("T-hardware", None, 1, hw_l, "Hardware", "hardware", "Servers", "Value (as printed in the sentence)",
            "Amazon ec2 using c5.2xlarge servers (8 vCPUs, 16gb RAM)", e_hw)
    table("T-hardware", "Hardware", "settings", hw_l, hw_l, ["Item", "Value (as printed in the sentence)"], 1,
          "Hardware and Software", category="hardware")

    jvm_l = src.find("Oracle Java jdk1.8.0_172 was used for the testing.")
    heap_l = src.find("Rhino was assigned 3072m for Heap and 512m for New Size")
    flags_first = src.find("Aside from the standard Rhino JVM settings these were added:")
    flags = src.bullets(flags_first + 1, src.find("Software Versions") - 1)
    jvm = [(jvm_l, "Java", "Oracle Java jdk1.8.0_172"), (heap_l, "Heap", "3072m"), (heap_l, "New Size", "512m")]
    jvm += [(n, "Added JVM flag", f) for n, f in flags]
    for i, (n, k, v) in enumerate(jvm, 1):
        if v not in src.text(n):
            raise CellError(f"line {n}: {v!r}")
        setting("T-jvm-settings", None, i, n, k if k != "Added JVM flag" else v, "configuration", k,
                "Value (as printed)", v)
    table("T-jvm-settings", "JVM Setting for ShCM", "settings", src.find("JVM Setting for ShCM"), flags[-1][0],
          ["Item", "Value (as printed)"], len(jvm), "Hardware and Software", category="configuration",
          note=f"{len(flags)} added flags ('Aside from the standard Rhino JVM settings these were added:').")

    vers = src.bullets(src.find("Software Versions") + 1, src.find("Benchmark Results", hw_head) - 1)
    for i, (n, t) in enumerate(vers, 1):
        k, sep, v = t.partition(" - ")
        if not sep:
            raise CellError(f"line {n}: {t!r}")
        setting("T-software-versions", None, i, n, t, "software", k, "Version", v)
    table("T-software-versions", "Software Versions", "settings", src.find("Software Versions"), vers[-1][0],
          ["Software", "Version"], len(vers), "Hardware and Software", category="software")

    cfg_lines = []
    for letter in "ABC":
        n = src.find(f"Server Config {letter}: ", exact=False)
        cfg_lines.append((n, letter, src.text(n).strip()[len(f"Server Config {letter}: "):]))
    for i, (n, letter, v) in enumerate(cfg_lines, 1):
        setting("T-server-configs", None, i, n, f"Server Config {letter}", "infrastructure", letter, "Description", v)
    table("T-server-configs", "Server configuration", "settings", src.find("Server configuration"), cfg_lines[-1][0],
          ["Server Config", "Description"], 3, SECTION_RESULTS, category="infrastructure")

    gl = [src.find("SPS - Sessions per second"), src.find("RPS - Requests per second")]
    for i, n in enumerate(gl, 1):
        k, _, v = src.text(n).strip().partition(" - ")
        setting("T-glossary", None, i, n, src.text(n).strip(), "glossary", k, "Meaning", v)
    table("T-glossary", "Results (unit glossary)", "settings", gl[0], gl[1], ["Abbreviation", "Meaning"], 2, SECTION_RESULTS,
          category="glossary")

    cl8 = src.find("The default Cassandra settings allow for the commitlog to grow to 8GB before being cleaned up.")
    cl9 = src.find("Cassandra disk usage maxed at around 9GB for each test.")
    c.add("measurements", scenario=None, table_id="T-cassandra-disk", row=1, line=cl8, row_label="commitlog",
          site=None, subject="Cassandra commitlog", metric="commitlog_limit", value=8, unit="GB", qualifier="",
          column_label="Value (as printed in the sentence)", raw="8GB", status="ok",
          note="Default Cassandra setting: the commitlog grows to this size before being cleaned up.")
    c.add("measurements", scenario=None, table_id="T-cassandra-disk", row=2, line=cl9, row_label="disk usage",
          site=None, subject="Cassandra disk usage", metric="disk_max", value=9, unit="GB", qualifier="~",
          column_label="Value (as printed in the sentence)", raw="around 9GB", status="ok",
          note="For each test; every node of the 3-node cluster showed the same profile.")
    table("T-cassandra-disk", "Cassandra Disk Usage", "measurements", disk_l, cl9, ["Item", "Value (as printed in the sentence)"],
          2, SECTION_RESULTS, note="Reconstructed from prose; applies to all tests.")

    # ------------------------------------------------------------------ services
    c.services += [
        {"doc": DOC, "service": "Rhino node", "display_name": "ShCM on Rhino (single node)", "component": "app",
         "role": "traffic", "aliases": ["ShCM", "Rhino", "Sh Cache Microservice", "ShCM JVM", "single ShCM node"],
         "note": "The Sh Cache Microservice runs in one Rhino JVM (heap 3072m, new size 512m) on one c5.2xlarge server; "
                 "CPU (average) and Heap (average) in T-rhino-performance are this JVM's."},
        {"doc": DOC, "service": "Cassandra", "component": "other", "role": "database", "aliases": ["Cassandra"],
         "note": "Cassandra 3.11.2: one node co-located with Rhino (configs A and C) or a replicated 3-node cluster on "
                 "3 servers (config B). No CPU or memory figures are printed for it."},
        {"doc": DOC, "service": "client simulator", "component": "simulator", "role": "test",
         "aliases": ["client simulator"], "note": "2 c5.2xlarge servers in every server config; runs the five .scen files."},
    ]

    scenarios(c, src, perf_rows, lat_rows, cfg_lines, vers, dict(mix=e_mix, pool=e_pool, cpu=e_cpu, c300=e_300),
              (mix_l, ratio_l, pool_l, concl_text_l, hw_l, heap_l, jvm_l))
    # appended after the first curation (the provenance audit), so earlier erratum ids keep their numbers
    e_gb = E(scenario=None, table_id="T-cassandra-disk", lines=[cl8, cl9], where="Cassandra commitlog and disk usage",
             kind="unit", raw="8GB\naround 9GB",
             problem="The two Cassandra disk sizes are printed 'GB' without saying whether decimal gigabytes or binary "
                     "GiB are meant (the book's JVM sizes are binary: '3072m').",
             action="kept-as-printed", reason="Kept as printed, unit 'GB'; not converted to GiB.")
    for r in c.rows["measurements"]:
        if r["table_id"] == "T-cassandra-disk":
            r["note"] = f"{r['note']} ({e_gb})"
    return c


def scenarios(c, src, perf_rows, lat_rows, cfg_lines, vers, eids, lns) -> None:
    mix_l, ratio_l, pool_l, concl_l, hw_l, heap_l, jvm_l = lns
    cfg = {letter: (n, v) for n, letter, v in cfg_lines}
    mix_raw = "84% GETS, 11% PUTs, and 5% Susbcribes"
    def parts():
        return [{"name": name, "value": v, "unit": "percent", "raw": raw}
                for name, v, raw in (("GET", 84, "84% GETS"), ("PUT", 11, "11% PUTs"), ("SUBSCRIBE", 5, "5% Susbcribes"))]
    settings_tables = ["T-scenario-files", "T-traffic-scenarios", "T-load-profile", "T-hardware", "T-jvm-settings",
                       "T-software-versions", "T-server-configs", "T-glossary", "T-cassandra-disk"]
    for row in perf_rows:
        (ln, test), (_, sps), (_, rps), (_, dur), (cl, letter), (_, cpu), (_, heap) = row
        sid = f"shcm-test-{test}"
        where = f"Table T-rhino-performance, test {test}"
        n_cfg, desc = cfg[letter]
        rec = {
            "id": sid, "doc": DOC, "section": SECTION_RESULTS,
            "title": f"Rhino Performance, Test {test}",
            "short_title": f"Test {test}: {sps} SPS ({rps} RPS), server config {letter}",
            "deployment_mode": f"Server Config {letter}",
            "release": None,
            # the book describes one Rhino server and a Cassandra cluster, never a site
            "sites_provisioned": None, "sites_with_traffic": [],
            "load": {"total": integer(sps), "per_site": integer(sps), "unit": "SPS", "raw": sps,
                     "cite": {"text": sps, "table_id": "T-rhino-performance", "line": row[1][0], "where": f"{where}, column 'SPS'"}},
            "asm": "not_applicable",
            "asm_note": "Not a Kubernetes deployment: Rhino and Cassandra run on EC2 servers; no service mesh.",
            "duration": {"hours": integer(dur), "raw": dur,
                         "cite": {"text": dur, "table_id": "T-rhino-performance", "line": row[3][0],
                                  "where": f"{where}, column 'Duration (hours)'"}},
            "call_mix": {"raw": mix_raw, "parts": parts(),
                         "traffic_ratio": "1 SPS equals 1.8 requests per second",
                         "cite": {"text": src.text(mix_l).strip(), "table_id": None, "line": mix_l, "where": "prose, Scenarios"}},
            "subscribers": {"raw": "200,000 unique subscribers", "label": "data pool per scenario (5 scenarios)",
                            "cite": {"text": src.text(pool_l).strip(), "table_id": None, "line": pool_l,
                                     "where": "prose, Data Pools"}},
            "hardware": {"Servers": "c5.2xlarge servers (8 vCPUs, 16gb RAM)", "Server config": desc},
            "software": {k: v for k, _, v in (t.partition(" - ") for _, t in vers)} | {"Java": "Oracle Java jdk1.8.0_172"},
            "parameters": {"SPS": sps, "RPS": rps, "Server config": letter, "Server config description": desc,
                           "Rhino heap": "3072m", "Rhino new size": "512m",
                           "CPU (average)": cpu, "Heap (average)": heap},
            "tables": ["T-rhino-performance", "T-client-latency"] + settings_tables,
            "contradictions": [], "notes": [],
        }
        rec["notes"].append(f"Load in SPS (sessions per second); the same test ran at {rps} RPS (requests per second), "
                            "1.8 requests per session.")
        rec["notes"].append(f"CPU (average) {cpu} is the ShCM JVM's, 100% = one core; measurements.csv also gives it in "
                            f"cores ({eids['cpu']}). Host: one c5.2xlarge with 8 vCPUs for Rhino"
                            + (" and the co-located Cassandra." if letter in "AC" else "."))
        rec["notes"].append(f"Server config {letter} is described at line {n_cfg}; the config cell is at line {cl}.")
        rec["contradictions"].append({
            "field": "call_mix", "erratum": eids["mix"],
            "summary": "The stated request mix cannot hold together with 1.8 requests per session.",
            "versions": [{"text": "84% GETS, 11% PUTs, and 5% Susbcribes", "table_id": None, "line": mix_l, "where": "prose, Scenarios"},
                         {"text": "So 1 SPS equals 1.8 requests per second.", "table_id": None, "line": ratio_l,
                          "where": "prose, Methodology"}]})
        rec["notes"].append(f"Subscribers: 'a data pool of 200,000 unique subscribers' per scenario (line {pool_l}); the "
                            f"conclusion's 'subscriber data pool of 1m' (line {concl_l}) is the five pools together "
                            f"({eids['pool']}).")
        c.scenarios.append(rec)
    t5 = next(s for s in c.scenarios if s["id"] == "shcm-test-5")
    row5 = perf_rows[4]
    t5["contradictions"].append({
        "field": "parameters.CPU (average)", "erratum": eids["c300"],
        "summary": "The conclusion says around 300% CPU for test 5; the table prints 320%.",
        "versions": [{"text": row5[5][1], "table_id": "T-rhino-performance", "line": row5[5][0],
                      "where": "Table T-rhino-performance, test 5, CPU (average)"},
                     {"text": "using around 300% CPU", "table_id": None, "line": concl_l, "where": "prose, Conclusion"}]})
    t5["notes"].append("The conclusion names test 5 (config B, 2160 RPS) as the sustainable operating point.")
    t7 = next(s for s in c.scenarios if s["id"] == "shcm-test-7")
    t7["notes"].append("Config C disables all caching: at 1000 SPS it shows a lower p50 (2.8 ms) than config A (6 ms, test 1) "
                       "but a higher JVM CPU (360% against 280%). Recorded as printed.")
    t3 = next(s for s in c.scenarios if s["id"] == "shcm-test-3")
    t3["notes"].append("Config A at 1200 SPS: p50 156 ms and max 3889 ms while CPU is 330%; latencies are recorded as printed.")
    t4 = next(s for s in c.scenarios if s["id"] == "shcm-test-4")
    t4["notes"].append("Max latency 837.9 ms is above test 5's 367.2 ms at a higher load; recorded as printed.")


def curate() -> Curated:
    return build()
