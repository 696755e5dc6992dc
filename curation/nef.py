"""Curate the NEF "Benchmarking Model B" chapter (NEF 24.2.0, seed 001) into data/nef/.

Run: ``python -m curation nef``. All 40 captioned tables are mapped:

* Deployment Configuration (3-1, 3-9, 3-17, 3-25, 3-33) -> resources.csv, component app.
  One CPU and one Memory value per pod, request/limit not stated -> cpu_cores / mem_gib.
* Stub Parameters (3-2, 3-10, 3-18, 3-26, 3-34) -> resources.csv, component stub.
* Testcase Parameters (3-3, 3-6, ...) -> settings.csv (test-parameters; holds the 70% Target CPU).
* Result and Observation (3-4, 3-7, ...) -> settings.csv (test-parameters: Test Duration, Replica).
* NEF Microservices and their Utilization (3-5, 3-8, ...) -> measurements.csv (Average CPU, Total TPS,
  Average/Max Memory) and latency.csv (Average Latency).

Feature-level tables (Deployment Configuration, Stub Parameters) belong to both scenarios of a
feature; resources.csv holds their rows once per scenario (same table_id, row and line) so that each
scenario has its own allocation, and the table entry has an empty scenario.
Every reading that is not the literal text is recorded in data/nef/errata.yaml.
"""
from __future__ import annotations

import re

from .common import (CellError, Curated, cpu_cores, integer, mem_gib, num, percent, printed_counts, resource_header,
                     seed_path, table_entry)
from .pipetables import read_lines, segment

DOC = "nef"

SUBSCRIPTIONS = "1 million subscription records"
"""What the pre-loaded database held for the ME, QoS and TI runs (section 3.1 Note): its count is scenarios.yaml's
subscribers.counts. The chapter keeps the records in that database and never says a NEF service holds
subscriptions or sessions, so no NEF service has ``holds``."""

# feature section -> (slug, feature name as in the headings)
FEATURES = {
    "3.2.1.1": ("me", "Monitoring Event"),
    "3.2.1.2": ("qos", "Quality of Service"),
    "3.2.1.3": ("ti", "Traffic Influence"),
    "3.2.1.4": ("dt", "Device Trigger"),
    "3.2.1.5": ("msisdn-less", "MSISDN-Less-MO-SMS"),
}

# Canonical NEF microservices: (service, role, aliases as printed in tables, note)
APP_SERVICES = [
    ("NEF Ingress Gateway", "traffic", ["NEF Ingress Gateway"], "Northbound (AF-facing) HTTP entry point."),
    ("NEF Egress Gateway", "traffic", ["NEF Egress Gateway"], "Outbound HTTP towards the AF (notifications)."),
    ("Diameter Gateway", "traffic", ["Diameter Gateway"],
     "Only in the Device Trigger and MSISDN-Less MO SMS deployments (Tables 3-25, 3-33); Diameter (T4) path."),
    ("API Router", "traffic", ["API Router"], ""),
    ("ME", "traffic", ["ME"], "Monitoring Event service; the prose also writes 'Monitoring Event (ME)'."),
    ("TI", "traffic", ["TI"], "Traffic Influence service; absent from Tables 3-25 and 3-33."),
    ("QOS", "traffic", ["QOS"], "Quality of Service service; the prose writes QOS, QoS, Quality Of Service and Quality of Service."),
    ("DT", "traffic", ["DT"], "Device Trigger service; only in Tables 3-25 and 3-33."),
    ("MSISDNLess Mo SMS", "traffic", ["MSISDNLess Mo SMS"],
     "MSISDN-Less MO SMS service; the prose writes MSISDN-Less MO SMS, MSISDN-Less-MO-SMS, MSISDN-less MO-SMS "
     "and Nnef_MSISDN-Less-MO-SMS. Only in Tables 3-25 and 3-33."),
    ("FiveGC Agent", "traffic", ["FiveGC Agent"], "Southbound agent towards the 5GC NFs (the prose writes Fivegcagent)."),
    ("FiveGC Egress", "traffic", ["FiveGC Egress"], "Southbound egress towards the 5GC NFs."),
    ("FiveGC Ingress", "traffic", ["FiveGC Ingress"], "Southbound ingress for notifications from the 5GC NFs."),
    ("Expiry Auditor", "management", ["Expiry Auditor"], "Audits subscription expiry; not on the request path."),
    ("Apd Manager", "management", ["Apd Manager"],
     "The text says it is hit only when the apd-agent cache evicts (global.cache.evict.time), so it was not tuned."),
    ("nrf-client-nfmanagement", "management", ["nrf-client-nfmanagement"],
     "The text says the nrf-client pods are not in the real-time sub/unsub/notification flow."),
    ("nrf-client-nfdiscovery", "management", ["nrf-client-nfdiscovery"],
     "The text says the nrf-client pods are not in the real-time sub/unsub/notification flow."),
    ("performance", "management", ["performance"], "The microservice named 'performance' (not the word)."),
    ("Config-server", "management", ["Config-server"], ""),
    ("app-info", "management", ["app-info"], ""),
]
ALIAS = {a: s for s, _, aliases, _ in APP_SERVICES for a in aliases}
STUBS = [
    ("GMLC", "Gateway Mobile Location Centre stub (Monitoring Event)."),
    ("UDM", ""), ("AF", ""), ("PCF", ""), ("BSF", ""), ("NRF", ""), ("UDR", ""),
    ("DIAM", "Diameter stub; only in Tables 3-26 and 3-34 (Device Trigger, MSISDN-Less MO SMS)."),
]


def scenario_of(section: str | None) -> str | None:
    """'3.2.1.1.1.2' -> 'nef-me-2'; a feature-level section (3.2.1.1.1) -> None."""
    if not section:
        return None
    parts = section.split(".")
    if len(parts) == 6 and ".".join(parts[:4]) in FEATURES:
        return f"nef-{FEATURES['.'.join(parts[:4])][0]}-{parts[5]}"
    return None


def feature_of(section: str | None) -> str | None:
    if not section:
        return None
    return ".".join(section.split(".")[:4]) if ".".join(section.split(".")[:4]) in FEATURES else None


def build() -> Curated:
    path = seed_path(DOC)
    lines = read_lines(path)
    tables = segment(path)
    c = Curated(DOC)
    by_id = {t.id: t for t in tables}

    for s, role, aliases, note in APP_SERVICES:
        c.services.append({"doc": DOC, "service": s, "component": "app", "role": role, "aliases": aliases,
                           **({"note": note} if note else {})})
    for s, note in STUBS:
        c.services.append({"doc": DOC, "service": s, "display_name": f"{s} stub", "component": "stub", "role": "test",
                           "aliases": [s], **({"note": note} if note else {})})

    for t in tables:
        cap = (t.caption or "").lower()
        scen = scenario_of(t.section)
        feat = feature_of(t.section)
        both = [f"nef-{FEATURES[feat][0]}-1", f"nef-{FEATURES[feat][0]}-2"] if feat else []
        if cap == "deployment configuration" or cap == "stub parameters":
            component = "app" if cap.startswith("deployment") else "stub"
            resources(c, t, component, both)
            c.tables.append(table_entry(t, DOC, None, "resources", category="stubs" if component == "stub" else "deployment",
                                        note=f"Feature-level table (section {t.section}): applies to both {both[0]} and {both[1]}; "
                                             "resources.csv holds its rows once per scenario, with the same table_id, row and line."))
        elif cap.endswith("testcase parameters"):
            settings(c, t, scen)
            c.tables.append(table_entry(t, DOC, scen, "settings", category="test-parameters"))
        elif cap == "result and observation":
            settings(c, t, scen)
            c.tables.append(table_entry(t, DOC, scen, "settings", category="test-parameters",
                                        note="Run metadata (Test Duration, Replica), not results; the results are in the "
                                             "following 'NEF Microservices and their Utilization' table."))
        elif cap == "nef microservices and their utilization":
            results(c, t, scen)
            c.tables.append(table_entry(t, DOC, scen, "measurements",
                                        note="Average Latency rows are in latency.csv; the other rows in measurements.csv."))
        else:
            raise CellError(f"NEF table {t.id} ({t.caption!r}) has no mapping")

    errata(c, lines, by_id)
    scenarios(c, lines, by_id)
    apply_notes(c)
    return c


def resources(c: Curated, t, component: str, scenarios: list[str]) -> None:
    """Rows of a feature-level table, written once per scenario of the feature (same provenance)."""
    for scen in scenarios:
        _resources(c, t, component, scen)


def _resources(c: Curated, t, component: str, scen: str) -> None:
    cols = [resource_header(h) for h in t.header]
    if [x[1] if x else None for x in cols] != [None, "replicas", "cpu", "mem"]:
        raise CellError(f"{t.id}: unexpected header {t.header}")
    for i, r in enumerate(t.rows, 1):
        if len(r.cells) != len(t.header):
            raise CellError(f"{t.id} line {r.line}: {len(r.cells)} cells for {len(t.header)} columns")
        label, rep, cpu, mem = r.cells
        if component == "app":
            if label not in ALIAS:
                raise CellError(f"{t.id} line {r.line}: unknown NEF microservice {label!r}")
            service = ALIAS[label]
        else:
            if label not in dict(STUBS):
                raise CellError(f"{t.id} line {r.line}: unknown stub {label!r}")
            service = label
        c.add("resources", scenario=scen, table_id=t.id, row=i, line=r.line, row_label=label, site=None,
              component=component, service=service, container="app", is_sidecar=False,
              replicas=integer(rep), raw_replicas=rep, cpu_cores=cpu_cores(cpu), raw_cpu=cpu,
              mem_gib=mem_gib(mem), raw_mem=mem, status="ok",
              note="One CPU and one Memory value per pod; the table does not say whether request or limit.")


def settings(c: Curated, t, scen: str | None) -> None:
    for i, r in enumerate(t.rows, 1):
        if len(r.cells) != 2:
            raise CellError(f"{t.id} line {r.line}: {len(r.cells)} cells")
        c.add("settings", scenario=scen, table_id=t.id, row=i, line=r.line, row_label=r.cells[0],
              category="test-parameters", key=r.cells[0], column_label=t.header[1], value=r.cells[1], status="ok")


MEM_RE = re.compile(r"(\d+(?:\.\d+)?) GB")
LAT_RE = re.compile(r"(\d+(?:\.\d+)?) ms")
CPU_RE = re.compile(r"~(\d+(?:\.\d+)?%)")


def results(c: Curated, t, scen: str) -> None:
    expected = {"Average CPU", "Total TPS", "Average Latency", "Average Memory", "Max Memory"}
    if {r.cells[0] for r in t.rows} != expected:
        raise CellError(f"{t.id}: unexpected rows {[r.cells[0] for r in t.rows]}")
    for i, r in enumerate(t.rows, 1):
        if len(r.cells) != len(t.header):
            raise CellError(f"{t.id} line {r.line}: {len(r.cells)} cells for {len(t.header)} columns")
        label = r.cells[0]
        for h, cell in zip(t.header[1:], r.cells[1:]):
            # no site is printed: the scenarios run on a single site, which the text never names
            base = dict(scenario=scen, table_id=t.id, row=i, line=r.line, row_label=label, site=None,
                        subject=h, column_label=h, raw=cell)
            if label == "Average Latency":
                if cell == "NA":
                    c.add("latency", statistic="avg", raw_unit="ms", status="missing", qualifier="", **base)
                    continue
                m = LAT_RE.fullmatch(cell)
                if not m:
                    raise CellError(f"{t.id} line {r.line}: latency {cell!r}")
                c.add("latency", statistic="avg", value_ms=num(m.group(1)), qualifier="", raw_unit="ms", status="ok", **base)
                continue
            metric, unit = {"Average CPU": ("cpu_percent", "percent"), "Total TPS": ("tps", "TPS"),
                            "Average Memory": ("memory_avg", "GB"), "Max Memory": ("memory_max", "GB")}[label]
            if cell == "NA":
                c.add("measurements", metric=metric, unit=unit, qualifier="", status="missing", **base)
                continue
            if label == "Average CPU":
                m = CPU_RE.fullmatch(cell)
                if not m:
                    raise CellError(f"{t.id} line {r.line}: CPU {cell!r}")
                c.add("measurements", metric=metric, value=percent(m.group(1)), unit=unit, qualifier="~", status="ok",
                      **base)
            elif label == "Total TPS":
                c.add("measurements", metric=metric, value=integer(cell), unit=unit, qualifier="", status="ok", **base)
            else:
                m = MEM_RE.fullmatch(cell)
                if not m:
                    raise CellError(f"{t.id} line {r.line}: memory {cell!r}")
                c.add("measurements", metric=metric, value=num(m.group(1)), unit=unit, qualifier="", status="ok", **base)


def _line_of(lines: list[str], text: str, start: int = 1) -> int:
    for n in range(start, len(lines) + 1):
        if text in lines[n - 1]:
            return n
    raise KeyError(text)


CALL_MODELS = {
    # feature slug: (call model id, name, the words of the scenario titles that name it)
    "me": ("nef-monitoring-event", "Monitoring Event", "Monitoring Event"),
    "qos": ("nef-qos", "Quality of Service", "Quality of Service"),
    "ti": ("nef-traffic-influence", "Traffic Influence", "Traffic Influence"),
    "dt": ("nef-device-trigger", "Device Trigger", "Device Trigger"),
    "msisdn-less": ("nef-msisdn-less-mo-sms", "MSISDN-Less MO SMS", "MSISDN-Less-MO-SMS"),
}
"""One call model per exposed API: the two scenarios of a feature share it. The name is the feature as its section
heading prints it ('3.2.1.5 MSISDN-Less MO SMS Testcases'); the cite quotes the scenario title."""


def call_model(slug: str, title: str, hline: int) -> dict:
    """The ``call_model`` record of a scenario of feature ``slug`` whose title ``title`` is on seed line ``hline``.
    Raises CellError when the title does not print the feature's words."""
    cm_id, name, words = CALL_MODELS[slug]
    if words not in title:
        raise CellError(f"NEF title {title!r} (line {hline}) does not name {words!r}")
    return {"id": cm_id, "name": name, "cite": {"text": words, "table_id": None, "line": hline, "where": "title"}}


def scenarios(c: Curated, lines: list[str], by_id: dict) -> None:
    def row(tid, label):
        for i, r in enumerate(by_id[tid].rows, 1):
            if r.cells[0] == label:
                return i, r
        raise KeyError((tid, label))

    def cite_row(tid, label, col=1):
        _, r = row(tid, label)
        h = by_id[tid].header[col]
        return {"text": r.cells[col], "table_id": tid, "line": r.line, "where": f"Table {tid}, row '{label}', column '{h}'"}

    subs_line = _line_of(lines, SUBSCRIPTIONS)
    for feat, (slug, fname) in FEATURES.items():
        feat_tables = [t for t in by_id.values() if t.section and (t.section == feat or t.section.startswith(feat + "."))]
        dep = next(t.id for t in feat_tables if t.caption == "Deployment Configuration")
        stub = next(t.id for t in feat_tables if t.caption == "Stub Parameters")
        for n in (1, 2):
            sec = f"{feat}.1.{n}"
            sid = f"nef-{slug}-{n}"
            hline = next(k for k, l in enumerate(lines, 1) if l.startswith(sec + " "))
            title = lines[hline - 1][len(sec) + 1:]
            own = sorted((t for t in by_id.values() if t.section == sec), key=lambda t: t.first_line)
            params = next(t.id for t in own if t.caption.endswith("Testcase Parameters"))
            ro = next(t.id for t in own if t.caption == "Result and Observation")
            res = next(t.id for t in own if t.caption == "NEF Microservices and their Utilization")
            ptab = {r.cells[0]: r.cells[1] for r in by_id[params].rows}
            res_t = by_id[res]
            tcol = res_t.header.index("Total")
            _, tps_row = row(res, "Total TPS")
            total_raw = tps_row.cells[tcol]
            parts = [{"name": h, "value": integer(v), "unit": "TPS", "raw": v}
                     for h, v in zip(res_t.header[1:], tps_row.cells[1:]) if h != "Total"]
            dur_raw = row(ro, "Test Duration")[1].cells[1]
            # server sentence of this scenario's "Result and Observation" bullets
            sline = _line_of(lines, "- The server used is", hline)
            eline = _line_of(lines, "global.cache.evict.time is set to ", hline)
            evict = re.search(r"set to (\d+ hrs)\.", lines[eline - 1]).group(1)
            rec = {
                "id": sid, "doc": DOC, "section": sec, "title": title,
                "short_title": f"{fname} scenario {n}: {total_raw} TPS, single site, target CPU {ptab['Target CPU']}",
                "deployment_mode": "Model B (NRF discovery, no SCP, direct routing)",
                "release": ptab["NEF Version Tag"],
                "sites_provisioned": 1, "sites_with_traffic": ["site1"],
                "load": {"total": integer(total_raw), "per_site": integer(total_raw), "unit": "TPS", "raw": total_raw,
                         "cite": cite_row(res, "Total TPS", tcol)},
                "asm": "unknown",
                "asm_note": "Neither ASM/Istio nor sidecars are mentioned anywhere in the NEF chapter.",
                "duration": {"hours": integer(re.fullmatch(r"(\d+) hrs", dur_raw).group(1)), "raw": dur_raw,
                             "cite": cite_row(ro, "Test Duration")},
                "call_mix": {"raw": ptab["Traffic Distribution"], "parts": parts,
                             "cite": cite_row(params, "Traffic Distribution")},
                "call_model": call_model(slug, title, hline),
                "subscribers": ({"raw": SUBSCRIPTIONS, "label": "pre-loaded database",
                                 "cite": {"text": lines[subs_line - 1].lstrip("- "), "table_id": None, "line": subs_line,
                                          "where": "prose, section 3.1 Note"},
                                 "counts": printed_counts(SUBSCRIPTIONS, "subscription records"), "status": "ok"}
                                if slug in ("me", "qos", "ti") else None),
                "hardware": {"Server": lines[sline - 1][len("- The server used is "):].rstrip(".")},
                "software": {"NEF Version Tag": ptab["NEF Version Tag"]},
                "parameters": {**{k: v for k, v in ptab.items() if k not in ("Cluster", "Topology", "Deployment Configuration")},
                               "global.cache.evict.time": evict,
                               "Replica (Table " + ro + ")": row(ro, "Replica")[1].cells[1]},
                "tables": [dep, stub] + [t.id for t in own],
                "contradictions": [], "notes": [],
            }
            rec["notes"].append(f"Call-mix part values are the per-operation Total TPS cells of Table {res}; "
                                f"the Traffic Distribution row of Table {params} gives the percentages.")
            rec["notes"].append(f"Deployment (Table {dep}) and stubs (Table {stub}) are feature-level and shared by "
                                f"nef-{slug}-1 and nef-{slug}-2; the two scenarios' parameter tables are identical and differ "
                                "only in Test Duration and global.cache.evict.time.")
            rec["notes"].append(f"Average CPU/memory in Table {res} do not say which pods they cover; per-message CPU and "
                                "memory are NA.")
            c.scenarios.append(rec)
    by = {s["id"]: s for s in c.scenarios}
    # TI scenario 2: stated total vs parts
    r24 = row("3-24", "Total TPS")[1]
    e = next(e["id"] for e in c.errata if e["table_id"] == "3-24" and e["kind"] == "arithmetic")
    by["nef-ti-2"]["contradictions"].append({
        "field": "load.total",
        "summary": "The Total TPS cell says 2500 but Subscription 650 + Unsubscription 650 + Notification 1250 = 2550 "
                   "(Table 3-21 prints the same parts with Total 2550). load.total keeps the printed 2500.",
        "versions": [
            {"text": r24.cells[4], "table_id": "3-24", "line": r24.line, "where": "Table 3-24, Total TPS, Total"},
            {"text": " | ".join(r24.cells[1:4]), "table_id": "3-24", "line": r24.line,
             "where": "Table 3-24, Total TPS, Subscription | Unsubscription | Notification"},
        ], "erratum": e})
    # TI: parts vs stated distribution
    e_mix = next(e["id"] for e in c.errata if e["kind"] == "inconsistent-values" and e["table_id"] == "3-21")
    for sid, params, res in (("nef-ti-1", "3-19", "3-21"), ("nef-ti-2", "3-22", "3-24")):
        tr = row(res, "Total TPS")[1]
        by[sid]["contradictions"].append({
            "field": "call_mix",
            "summary": "The stated 25/25/50 split does not match 650/650/1250 TPS (Subscription and Unsubscription are each "
                       "more than a quarter of the total).",
            "versions": [cite_row(params, "Traffic Distribution"),
                         {"text": tr.text, "table_id": res, "line": tr.line, "where": f"Table {res}, row 'Total TPS'"}],
            "erratum": e_mix})
    # MSISDN: total latency vs the only component
    for sid, res in (("nef-msisdn-less-1", "3-37"), ("nef-msisdn-less-2", "3-40")):
        lr = row(res, "Average Latency")[1]
        eid = next(e["id"] for e in c.errata if e["table_id"] == res and e["kind"] == "inconsistent-values")
        by[sid]["contradictions"].append({
            "field": "latency.avg",
            "summary": "With 100% Notification traffic the Total average latency should equal the Notification latency.",
            "versions": [{"text": lr.cells[1], "table_id": res, "line": lr.line, "where": f"Table {res}, Average Latency, Notification"},
                         {"text": lr.cells[2], "table_id": res, "line": lr.line, "where": f"Table {res}, Average Latency, Total"}],
            "erratum": eid})
    # server wording
    e_srv = next(e["id"] for e in c.errata if e["where"].startswith("'The server used is'"))
    for s in c.scenarios:
        s["notes"].append(f"Server: the text calls the same 'bulk head' server shared Bare metal (ME, QoS, TI) and shared "
                          f"VMware (DT, MSISDN-Less); see {e_srv}.")
        s["notes"].append("Test Duration equals global.cache.evict.time in every scenario (see errata).")
    by["nef-msisdn-less-1"]["notes"].append("Table 3-35 names the pod count 'Number of NEF Pods for DT' (copied from Device Trigger).")
    by["nef-msisdn-less-2"]["notes"].append("Table 3-38 names the pod count 'Number of NEF Pods for DT' (copied from Device Trigger).")


def errata(c: Curated, lines: list[str], by_id: dict) -> None:
    E = c.erratum
    # glued captions
    for tid in ("3-2", "3-10", "3-18", "3-26", "3-34"):
        t = by_id[tid]
        E(scenario=None, table_id=tid, lines=[t.caption_line], where="caption", kind="format",
          raw=lines[t.caption_line - 1][lines[t.caption_line - 1].index("Replica value."):],
          problem=f"The caption of Table {tid} is glued to the end of the preceding note sentence.",
          action="read-as", reading=f"Table {tid} Stub Parameters",
          reason="The table that follows is the stub table of this feature; segment() finds the caption inside the line.")
    E(scenario=None, table_id=None, lines=[by_id[t].caption_line for t in ("3-2", "3-10", "3-18", "3-26", "3-34")],
      where="Note after each Deployment Configuration table", kind="missing",
      raw="The VAR value for microservice in each scenario is based on the corresponding Replica value.",
      problem="'VAR value' is never defined.", action="noted")
    # glued headings
    l23 = _line_of(lines, "3.2.1 5G Callflow Testcases")
    E(scenario=None, table_id=None, lines=[l23], where="prose, Note under 3.2", kind="format",
      raw=").3.2.1 5G Callflow Testcases",
      problem="The heading 3.2.1 is glued to the end of the preceding note sentence (which also names an internal IP "
              "address, not reproduced here).", action="read-as", reading="heading 3.2.1 5G Callflow Testcases",
      reason="The section numbering continues with 3.2.1.1.")
    l30 = _line_of(lines, "2.3.2.1.1 Monitoring Event Testcases")
    E(scenario=None, table_id=None, lines=[l30], where="prose, Note under 3.2.1", kind="format",
      raw="100Gi in testcase 1 and 2.3.2.1.1 Monitoring Event Testcases",
      problem="The heading 3.2.1.1 is glued to the sentence; read naively it becomes '2.3.2.1.1'.",
      action="read-as", reading="'... testcase 1 and 2.' then heading 3.2.1.1 Monitoring Event Testcases",
      reason="Section 3.2.1.1 holds the Monitoring Event tables (3-1 to 3-8).")
    E(scenario=None, table_id=None, lines=[l30], where="prose, Note under 3.2.1", kind="contradiction",
      raw="the disk size for sql pod is 256Gi in testcase 3 and 100Gi in testcase 1 and 2",
      problem="Each feature has only Scenario 1 and Scenario 2; 'testcase 3' does not exist, so the 256Gi/100Gi disk "
              "sizes cannot be mapped to scenarios. No SQL pod appears in any Deployment Configuration table.",
      action="noted", reason="Not curated as a resource row.")
    # lost text
    E(scenario=None, table_id=None, lines=[1, 2, 7, 10, 32], where="prose, L1-8, L10-12, L32-44", kind="missing",
      raw="3 Benchmarking Model B",
      problem="Bullet lists appear without their lead-in sentences (features, Model B properties, topology components, "
              "monitoring event types); the list at L32-44 merges two lists with near-duplicates "
              "('PDU session status' / 'PDU Session status', 'Loss of connectivity' / 'Loss of Connectivity Event').",
      action="noted")
    E(scenario=None, table_id=None, lines=[_line_of(lines, "- Device Trigger (DT)"), _line_of(lines, "- MSISDN-Less MO SMS")],
      where="prose, feature lists L2-5 and L24-28", kind="missing",
      raw="- Device Trigger (DT)",
      problem="The opening list names four features; MSISDN-Less MO SMS, benchmarked in 3.2.1.5, is listed only at L28.",
      action="noted")
    l13 = _line_of(lines, "Figure 3-1 Model B test topology")
    E(scenario=None, table_id=None, lines=[l13], where="Figure 3-1", kind="missing", raw="Figure 3-1 Model B test topology",
      problem="The figure has no content in the text.", action="noted")
    # cross references
    cross = [r.line for t in by_id.values() if t.caption and t.caption.endswith("Testcase Parameters") for r in t.rows
             if r.cells[0] in ("Cluster", "Deployment Configuration")]
    E(scenario=None, table_id="3-3", lines=sorted(cross), where="rows 'Cluster' and 'Deployment Configuration' of all ten "
      "Testcase Parameters tables", kind="other",
      raw="Deployment Configuration | For more information, see Test Topology for Model B Benchmarking. |",
      problem="The Deployment Configuration row points at the topology section instead of the Deployment Configuration "
              "table; 'CNE Cluster Details' (Cluster row) is not in this chapter.", action="kept-as-printed")
    # server wording
    bare = [n for n, l in enumerate(lines, 1) if "shared Bare metal server" in l]
    vm = [n for n, l in enumerate(lines, 1) if "shared VMware server" in l]
    E(scenario=None, table_id=None, lines=bare + vm, where="'The server used is' bullets of every scenario",
      kind="contradiction", raw="The server used is bulk head, which is a shared VMware server.",
      problem="The same server ('Bulkhead' in 3.2, 'bulk head' in the bullets) is a 'shared Bare metal server' for ME, QoS "
              "and TI and a 'shared VMware server' for DT and MSISDN-Less MO SMS.", action="kept-as-printed",
      reason="Each scenario's hardware keeps its own wording.")
    # duration == evict time
    ev = [n for n, l in enumerate(lines, 1) if "global.cache.evict.time is set to " in l]
    E(scenario=None, table_id=None, lines=ev, where="Result and Observation bullets and tables", kind="other",
      raw="Therefore, global.cache.evict.time is set to 90 hrs.",
      problem="Test Duration (90 hrs in every Scenario 1, 19 hrs in every Scenario 2) always equals the cache evict time "
              "in the bullet above it; the duration may have been conflated with the evict time.",
      action="kept-as-printed", reason="scenario duration uses the Test Duration row of each Result and Observation table.")
    E(scenario=None, table_id="3-4", lines=[by_id["3-4"].caption_line], where="caption of every 'Result and Observation' table",
      kind="other", raw="Table 3-4 Result and Observation",
      problem="The caption repeats the run-in heading above the bullets; the table holds run metadata (Test Duration, "
              "Replica), not results, which follow in 'NEF Microservices and their Utilization'.", action="noted")
    # copy-paste
    for tid in ("3-35", "3-38"):
        i, r = next((i, r) for i, r in enumerate(by_id[tid].rows, 1) if r.cells[0].startswith("Number of NEF Pods"))
        E(scenario=scenario_of(by_id[tid].section), table_id=tid, lines=[r.line], where=f"row {i}", kind="name",
          raw=r.text, problem=f"Table {tid}: the MSISDN-Less-MO-SMS parameters name the pod count for DT (copied from Device Trigger).",
          action="kept-as-printed", reason="The key is kept as printed; the row gives the MSISDN-Less-MO-SMS pod count.")
    obj = [n for n, l in enumerate(lines, 1) if "for PCF requests with BSF enabled" in l]
    E(scenario=None, table_id=None, lines=obj, where="Objective of QoS, TI and DT scenarios", kind="other",
      raw="for PCF requests with BSF enabled",
      problem="The QoS objective is repeated for Traffic Influence and Device Trigger.", action="noted")
    garb = [n for n, l in enumerate(lines, 1) if "70% CPU utilizes Notification endpoints" in l]
    E(scenario=None, table_id=None, lines=garb, where="Objective of MSISDN-Less-MO-SMS scenarios", kind="other",
      raw="To determine average TPS and average latency at 70% CPU utilizes Notification endpoints.",
      problem="Garbled sentence.", action="noted")
    # FiveGC Ingress replica
    fl = [r.line for tid in ("3-25", "3-33") for r in by_id[tid].rows if r.cells[0] == "FiveGC Ingress"]
    E(scenario=None, table_id="3-25", lines=fl, where="row 'FiveGC Ingress' of Tables 3-25 and 3-33",
      kind="inconsistent-values", raw="FiveGC Ingress | 1 | 4 | 4Gi |",
      problem="1 replica for DT and MSISDN-Less MO SMS against 4 in Tables 3-1, 3-9 and 3-17; may be intentional.",
      action="kept-as-printed")
    # results tables
    r24 = next(r for r in by_id["3-24"].rows if r.cells[0] == "Total TPS")
    E(scenario="nef-ti-2", table_id="3-24", lines=[r24.line], where="row 'Total TPS', column 'Total'", kind="arithmetic",
      raw=r24.text, problem="650 + 650 + 1250 = 2550, not the printed 2500; Table 3-21 (TI scenario 1) prints the same "
      "parts with Total 2550.", action="kept-as-printed",
      reason="Which figure is wrong cannot be told from the text; the printed total is the scenario load and the "
             "contradiction is recorded on nef-ti-2.")
    r21 = next(r for r in by_id["3-21"].rows if r.cells[0] == "Total TPS")
    E(scenario=None, table_id="3-21", lines=[r21.line, r24.line, by_id["3-19"].rows[-1].line, by_id["3-22"].rows[-1].line],
      where="Traffic Distribution (3-19, 3-22) against Total TPS (3-21, 3-24)", kind="inconsistent-values",
      raw="25% Subscription, 25% Unsubscription, and 50% Notifications",
      problem="650/650/1250 TPS is not a 25/25/50 split (ME, QoS and DT match their stated distributions exactly).",
      action="kept-as-printed")
    for tid, sid, other, guess in (("3-8", "nef-me-2", "106.2 ms in Table 3-5", "possibly a typo (1532 for 153.2?)"),
                                   ("3-24", "nef-ti-2", "107.9 ms in Table 3-21", "possibly a typo")):
        r = next(r for r in by_id[tid].rows if r.cells[0] == "Average Latency")
        E(scenario=sid, table_id=tid, lines=[r.line], where="row 'Average Latency', column 'Unsubscription'",
          kind="inconsistent-values", raw=r.cells[2],
          problem=f"Unsubscription latency {r.cells[2]} against {other} (scenario 1 of the same feature) and against this "
                  f"table's own Subscription latency; {guess} or a real degradation.",
          action="kept-as-printed", reason="Not impossible; kept with this note on the latency row.")
    for tid, sid in (("3-37", "nef-msisdn-less-1"), ("3-40", "nef-msisdn-less-2")):
        r = next(r for r in by_id[tid].rows if r.cells[0] == "Average Latency")
        E(scenario=sid, table_id=tid, lines=[r.line], where="row 'Average Latency'", kind="inconsistent-values",
          raw=r.text, problem="With '100% Notification' traffic the Total latency should equal the only component "
          f"(Notification {r.cells[1]}, Total {r.cells[2]}).", action="kept-as-printed",
          reason="Both cells are kept; which one is authoritative cannot be told.")
    util = [t.id for t in by_id.values() if t.caption == "NEF Microservices and their Utilization"]
    rl = lambda labels: sorted(r.line for t in util for r in by_id[t].rows if r.cells[0] in labels)
    E(scenario=None, table_id="3-5", lines=rl(("Average CPU", "Average Memory", "Max Memory")),
      where="rows 'Average CPU', 'Average Memory', 'Max Memory' of every utilization table", kind="missing",
      raw="Average CPU | NA | NA | NA | ~60% |",
      problem="The tables do not say which pods the average CPU and memory cover (probably the two feature pods of 4 vCPU "
              "and 4 Gi, but not stated); per-operation CPU and memory, and the Total latency except in 3-37/3-40, are NA.",
      action="noted", reason="NA cells are rows with status 'missing'; the totals are subject 'Total' with no service.")
    E(scenario=None, table_id="3-5", lines=rl(("Average Memory", "Max Memory")), where="memory rows", kind="unit",
      raw="1.7 GB", problem="Memory results are printed in decimal GB while the allocations are in Gi.",
      action="kept-as-printed", reason="Kept in GB (unit 'GB'); not converted.")
    r16 = next(r for r in by_id["3-16"].rows if r.cells[0] == "Max Memory")
    E(scenario="nef-qos-2", table_id="3-16", lines=[r16.line], where="row 'Max Memory', column 'Total'", kind="format",
      raw="2 GB", problem="Printed without a decimal, where 3-5 prints '2.0 GB'.", action="kept-as-printed")
    E(scenario=None, table_id=None, lines=[_line_of(lines, "MSISDNLess Mo SMS"), _line_of(lines, "MSISDN-less MO-SMS")],
      where="feature and service names", kind="name", raw="MSISDNLess Mo SMS",
      problem="One feature is written MSISDN-Less MO SMS, MSISDN-Less-MO-SMS, MSISDNLess Mo SMS, MSISDN-less MO-SMS and "
              "Nnef_MSISDN-Less-MO-SMS; QoS as QOS, QoS, Quality Of Service and Quality of Service.",
      action="noted", reason="services.yaml keeps the table names; scenario ids use the slug msisdn-less.")


def apply_notes(c: Curated) -> None:
    """Point rows at the errata that concern them."""
    def eid(tid, kind, where_start=""):
        return next(e["id"] for e in c.errata if e["table_id"] == tid and e["kind"] == kind and e["where"].startswith(where_start))
    for r in c.rows["measurements"]:
        if r["table_id"] == "3-24" and r["row_label"] == "Total TPS" and r["subject"] == "Total":
            r["note"] = eid("3-24", "arithmetic") + ": parts add up to 2550"
    for r in c.rows["latency"]:
        if r["table_id"] in ("3-8", "3-24") and r["subject"] == "Unsubscription":
            r["note"] = eid(r["table_id"], "inconsistent-values")
        if r["table_id"] in ("3-37", "3-40"):
            r["note"] = eid(r["table_id"], "inconsistent-values")
    scope = eid("3-5", "missing")
    for r in c.rows["measurements"]:
        if r["row_label"] != "Total TPS" and r["subject"] == "Total":
            r["note"] = f"{scope}: the pods covered are not stated"
    for r in c.rows["resources"]:
        if r["row_label"] == "FiveGC Ingress" and r["table_id"] in ("3-25", "3-33"):
            r["note"] = eid("3-25", "inconsistent-values") + ": 1 replica here, 4 in Tables 3-1, 3-9, 3-17"
    for r in c.rows["settings"]:
        if r["table_id"] in ("3-35", "3-38") and r["key"].startswith("Number of NEF Pods"):
            r["note"] = eid(r["table_id"], "name")


def curate() -> Curated:
    return build()
