"""Curate the BSF Benchmarking Guide 25.2.200 (seed 003) into data/bsf/.

Run: ``python -m curation bsf``. Every table of the seed is mapped; every
reading that is not the literal text is recorded in data/bsf/errata.yaml.
"""
from __future__ import annotations

import re
from decimal import Decimal

from .common import (CellError, Curated, abs_and_percent, cpu_cores, header_mem_unit, integer,
                     k_number, mem_gib, num, percent, printed_counts, resource_header, seed_path, site_from_label,
                     table_entry)
from .pipetables import read_lines, segment

DOC = "bsf"

# Canonical BSF application services, their roles and every name printed for them.
APP_SERVICES = [
    ("BSF Management Service", "traffic", ["BSF Management Service", "bsf-managent-service"],
     "Binding create/delete/discovery (nBSF) processing."),
    ("Ingress Gateway", "traffic", ["Ingress Gateway", "ingress-gateway"], "SBI (HTTP/2) entry point."),
    ("Diameter Gateway", "traffic", ["Diameter Gateway", "diameter-gateway"], "Rx (Diameter) entry point; carries all Rx traffic."),
    ("Egress Gateway", "traffic", ["Egress Gateway", "egress-gateway", "Egress Service"], "Outbound SBI."),
    ("Appinfo", "management", ["Appinfo"], ""),
    ("Alternate Route Service", "management", ["Alternate Route Service"], ""),
    ("Configuration Service", "management", ["Configuration Service", "Config Service", "Config-server"], ""),
    ("NRF Client NF Management", "management", ["NRF Client NF Management", "Nrf Client Management", "nrf-client-nfmanent"], ""),
    ("Audit Service", "management", ["Audit Service", "audit-service"], ""),
    ("CM Service", "management", ["CM Service", "cm-service"], ""),
    ("Query Service", "management", ["Query Service", "queryservice"], ""),
    ("Perf-Info", "management", ["Perinfo", "Perfinfo", "Performance"],
     "Printed as Perinfo (3-5), Perfinfo (3-18, 3-25, 3-28) and Performance (3-16)."),
]
ALIAS = {a: s for s, _, aliases, _ in APP_SERVICES for a in aliases}

# Name typos: (raw fragment, reading, how certain).
DB_POD_FIXES = {
    "ndbmcmd": ("ndbmgmd", "typo for the management node ndbmgmd (m and g swapped)"),
    "ndbmt": ("ndbmtd", "the data node ndbmtd with its final d lost"),
    "ndbappmysql": ("ndbappmysqld", "ndbappmysqld with its final d lost"),
    "ndbmysql": ("ndbmysqld", "ndbmysqld with its final d lost"),
    "ndbcmd": ("ndbmtd", "inferred: this pod has a db-backup-executor-svc container and 86% memory, "
               "which only the ndbmtd data node has in this table; the printed name matches no cnDBTier pod"),
    "mysqld": ("ndbmysqld", "inferred: Table 3-17 lists the SQL node pods without their ndb prefix"),
    "appmysqld": ("ndbappmysqld", "inferred: Table 3-17 lists the SQL node pods without their ndb prefix"),
    "db-monitor-service": ("mysql-cluster-db-monitor-svc", "Table 3-17 names the monitor service without its mysql-cluster- prefix"),
}


def scenario_of(section: str | None) -> str | None:
    if not section or not section.startswith("3."):
        return None
    return "bsf-" + "-".join(section.split(".")[:2])


def build() -> Curated:
    path = seed_path(DOC)
    lines = read_lines(path)
    tables = segment(path)
    c = Curated(DOC)
    by_id = {t.id: t for t in tables}

    for s, role, aliases, note in APP_SERVICES:
        c.services.append({"doc": DOC, "service": s, "component": "app", "role": role, "aliases": aliases, **({"note": note} if note else {})})
    db_seen: dict[str, set] = {}

    def db_name(raw: str, t, row) -> tuple[str, str]:
        """cnDBTier 'pod/container' label -> (service, container), with errata for every repair."""
        despaced = re.sub(r"\s+", "", raw)
        if despaced != raw:
            breaks.setdefault(t.id, []).append((row.line, raw, despaced))
        m = re.fullmatch(r"ndbmt/d/(.+)", despaced)
        if m:
            # "ndbmt/d/ b-backup- executor- svc": the wrapped final "d" of ndbmtd (or the
            # first "d" of db-...) stands between two slashes.
            rest = m.group(1)
            container = "d" + rest if rest.startswith("b-") else rest
            key = (t.id, "ndbmt/d/")
            if key not in typo_seen:
                typo_seen[key] = [row.line]
                c.erratum(scenario=scenario_of(t.section), table_id=t.id, lines=typo_seen[key], where="row labels starting 'ndbmt/d/'",
                          kind="format", raw=raw, problem="A wrapped 'd' stands between two slashes: 'ndbmt/d/ b-backup- executor- svc'.",
                          action="read-as", reading="ndbmtd/<container> (ndbmtd/mysqlndbcluster, ndbmtd/db-backup-executor-svc, ndbmtd/db-infra-monitor-svc)",
                          reason="The same pod's containers are printed as ndbmt/db-backup-executor-svc in Table 3-6.")
            else:
                typo_seen[key].append(row.line)
            db_seen.setdefault("ndbmtd", set()).add("ndbmt/d")
            return "ndbmtd", container
        pod, _, container = despaced.partition("/")
        fixed = pod
        if pod in DB_POD_FIXES:
            fixed, why = DB_POD_FIXES[pod]
            key = (t.id, pod)
            if key not in typo_seen:
                typo_seen[key] = [row.line]
                c.erratum(scenario=scenario_of(t.section), table_id=t.id, lines=typo_seen[key], where=f"pod name '{pod}' (row labels)",
                          kind="typo" if "inferred" not in why else "name", raw=pod,
                          problem=f"'{pod}' (Table {t.id}) is not a cnDBTier pod name", action="read-as", reading=fixed, reason=why)
            else:
                typo_seen[key].append(row.line)
        db_seen.setdefault(fixed, set()).add(pod)
        return fixed, container or "app"

    breaks: dict[str, list] = {}
    typo_seen: dict[tuple, list] = {}

    def app_name(raw: str, t, row) -> tuple[str, str]:
        label = raw
        container = "app"
        if label.endswith(" Istio"):
            label, container = label[: -len(" Istio")], "istio-proxy"
        if label not in ALIAS:
            raise CellError(f"{t.id} line {row.line}: unknown BSF service {raw!r}")
        return ALIAS[label], container

    # ---------------------------------------------------------------- tables
    for t in tables:
        scen = scenario_of(t.section)
        cap = (t.caption or "").lower()
        if t.id == "U-front-1":
            c.tables.append(table_entry(t, DOC, None, "excluded", title="Contents",
                                        excluded_reason="Table of contents (section names and page numbers): navigation, not benchmark data."))
            continue
        if t.id.startswith("U-acronyms"):
            for i, r in enumerate(t.rows, 1):
                c.add("settings", scenario=None, table_id=t.id, row=i, line=r.line, row_label=r.cells[0], category="glossary",
                      key=r.cells[0], column_label=t.header[1], value=r.cells[1], status="ok")
            c.tables.append(table_entry(t, DOC, None, "settings", category="glossary", title="Acronyms and Terminologies"))
            continue
        if "parameters" in cap or "hardware" in cap or "software" in cap or "observability" in cap or "features" in cap:
            category = ("test-parameters" if "parameters" in cap else "hardware" if "hardware" in cap else
                        "software" if "software" in cap else "observability" if "observability" in cap else "features")
            for i, r in enumerate(t.rows, 1):
                c.add("settings", scenario=scen, table_id=t.id, row=i, line=r.line, row_label=r.cells[0], category=category,
                      key=r.cells[0], column_label=t.header[1], value=r.cells[1], status="ok")
            c.tables.append(table_entry(t, DOC, scen, "settings", category=category))
            continue
        if "resource allocation" in cap:
            resources(c, t, scen, app_name if cap.startswith("bsf") else db_name)
            c.tables.append(table_entry(t, DOC, scen, "resources"))
            continue
        if "utilization" in cap:
            utilization(c, t, scen, app_name if cap.startswith("bsf") else db_name)
            c.tables.append(table_entry(t, DOC, scen, "utilization"))
            continue
        if "operations" in cap:
            for i, r in enumerate(t.rows, 1):
                site = site_from_label(r.cells[0])
                for h, cell in zip(t.header[1:], r.cells[1:]):
                    op = h.split()[0].lower()
                    if cell == "-":
                        c.add("db_operations", scenario=scen, table_id=t.id, row=i, line=r.line, row_label=r.cells[0], site=site,
                              operation=op, ops_per_second=None, column_label=h, raw=cell, status="not_applicable")
                    else:
                        c.add("db_operations", scenario=scen, table_id=t.id, row=i, line=r.line, row_label=r.cells[0], site=site,
                              operation=op, ops_per_second=k_number(cell), column_label=h, raw=cell, status="ok")
            c.tables.append(table_entry(t, DOC, scen, "db_operations"))
            continue
        if "latency" in cap:
            for i, r in enumerate(t.rows, 1):
                for h, cell in zip(t.header[1:], r.cells[1:]):
                    stat = "p50" if h.startswith("50th") else "p99" if h.startswith("99th") else None
                    if stat is None:
                        raise CellError(f"{t.id}: unknown latency column {h!r}")
                    q, v = ("<", num(cell[1:])) if cell.startswith("<") else ("", num(cell))
                    c.add("latency", scenario=scen, table_id=t.id, row=i, line=r.line, row_label=r.cells[0], site=None,
                          subject=r.cells[0], statistic=stat, value_ms=v, qualifier=q, raw_unit="ms", column_label=h, raw=cell,
                          status="ok", note="Site not printed (the scenario carries traffic on Site1 only).")
            c.tables.append(table_entry(t, DOC, scen, "latency"))
            continue
        raise CellError(f"BSF table {t.id} ({t.caption!r}) has no mapping")

    for tid, items in breaks.items():
        t = by_id[tid]
        c.erratum(scenario=scenario_of(t.section), table_id=tid, lines=[l for l, _, _ in items],
                  where=f"{len(items)} row label(s)", kind="format", raw="\n".join(sorted({r for _, r, _ in items})),
                  problem=f"Table {tid}: pod/container names broken by PDF line wrapping (spaces inside names).",
                  action="read-as", reading="the same names with the spaces removed",
                  reason="cnDBTier pod and container names contain no spaces.")
    for pod, raws in sorted(db_seen.items()):
        c.services.append({"doc": DOC, "service": pod, "component": "cndbtier",
                           "role": "database" if pod.startswith(("ndbmtd", "ndbmysqld", "ndbappmysqld", "ndbmgmd")) else "management",
                           "aliases": sorted(raws)})
    scenarios(c, lines, by_id)
    known_errata(c, by_id, lines)
    more_errata(c, by_id, lines)
    held_state(c, lines)
    return c


def resources(c: Curated, t, scen: str, namer) -> None:
    cols = [resource_header(h) for h in t.header]
    component = "app" if (t.caption or "").lower().startswith("bsf") else "cndbtier"
    unit_fix_needed = []
    read_rows = []
    for i, r in enumerate(t.rows, 1):
        if len(r.cells) != len(t.header):
            raise CellError(f"{t.id} line {r.line}: {len(r.cells)} cells for {len(t.header)} columns")
        service, container0 = namer(r.cells[0], t, r)
        per: dict[str, dict] = {}
        for h, col, cell in zip(t.header, cols, r.cells):
            if col is None:
                continue
            cont, field = col
            cont = container0 if cont == "app" else cont
            d = per.setdefault(cont, {})
            if field == "replicas":
                d["replicas"] = integer(cell)
                d["raw_replicas"] = cell
            elif field.startswith("cpu"):
                d[f"{field}_cores"] = cpu_cores(cell)
                d[f"raw_{field}"] = cell
            elif field.startswith("mem"):
                unit = header_mem_unit(h)
                if unit is None and not re.search(r"[A-Za-z]", cell):
                    unit = "GiB"
                    unit_fix_needed.append((r.line, h, cell))
                    d["_read"] = True
                d[f"{field}_gib"] = mem_gib(cell, unit or "GiB")
                d[f"raw_{field}"] = cell
        replicas = per.get(container0, {}).get("replicas")
        for cont, d in per.items():
            d.setdefault("replicas", replicas)
            d.setdefault("raw_replicas", per[container0].get("raw_replicas"))
            if d.pop("_read", False):
                read_rows.append((r.line, cont))
            c.add("resources", scenario=scen, table_id=t.id, row=i, line=r.line, row_label=r.cells[0], site=None,
                  component=component, service=service, container=cont, is_sidecar=cont == "istio-proxy",
                  status="ok", note=("Istio sidecar columns of this row." if cont == "istio-proxy" and container0 != cont else None), **d)
    if unit_fix_needed:
        heads = sorted({h for _, h, _ in unit_fix_needed})
        eid = c.erratum(scenario=scen, table_id=t.id, lines=[t.header_line] + sorted({l for l, _, _ in unit_fix_needed}),
                  where="columns " + ", ".join(repr(h) for h in heads), kind="unit", raw="\n".join(heads),
                  problem="Memory columns print bare numbers and give no unit.",
                  action="read-as", reading="GiB",
                  reason="The same columns in the sibling tables (3-5, 3-25) and this table's own Istio memory columns are headed '(Gi)'.")
        for row in c.rows["resources"]:
            if row["table_id"] == t.id and (row["line"], row["container"]) in read_rows:
                row["status"] = "corrected"
                row["note"] = (row["note"] + "; " if row.get("note") else "") + eid


def utilization(c: Curated, t, scen: str, namer) -> None:
    component = "app" if (t.caption or "").lower().startswith("bsf") else "cndbtier"
    for i, r in enumerate(t.rows, 1):
        if len(r.cells) != len(t.header):
            raise CellError(f"{t.id} line {r.line}: {len(r.cells)} cells for {len(t.header)} columns")
        service, container0 = namer(r.cells[0], t, r)
        for h, cell in zip(t.header[1:], r.cells[1:]):
            site = site_from_label(h)
            metric = "cpu" if "CPU" in h else "memory"
            cont = "istio-proxy" if "Istio" in h else container0
            row = dict(scenario=scen, table_id=t.id, row=i, line=r.line, row_label=r.cells[0], site=site, component=component,
                       service=service, container=cont, metric=metric, column_label=h, raw=cell, percent_basis="unstated")
            if cell == "-":
                c.add("utilization", status="not_applicable", **row)
            elif "(" in cell:
                v, p = abs_and_percent(cell)
                c.add("utilization", observed_abs=v, observed_percent=p, abs_unit="cores" if metric == "cpu" else "GB",
                      status="ok", **row)
            else:
                c.add("utilization", observed_percent=percent(cell), status="ok", **row)


CALL_MODEL = {"id": "bsf-nbsf-rx", "name": "BSF nBSF + Rx"}
"""The one call model of the guide's three runs: nBSF (binding) and Rx traffic, as each run's Call Mix row names it."""


def scenarios(c: Curated, lines: list[str], by_id: dict) -> None:
    def cite(tid, key):
        t = by_id[tid]
        for r in t.rows:
            if r.cells[0] == key:
                return {"text": r.cells[1], "table_id": tid, "line": r.line, "where": f"Table {tid}, row '{key}'"}
        raise KeyError((tid, key))

    def kv(tid):
        return {r.cells[0]: r.cells[1] for r in by_id[tid].rows}

    def heading(section):
        for n, l in enumerate(lines, 1):
            if l.startswith(section + " Test Scenario"):
                return n, l[len(section) + 1:]
        raise KeyError(section)

    spec = [
        # section, params, hw, sw, features, resource tables, load, sites provisioned, asm, release
        ("3.1", "3-1", "3-2", "3-3", "3-7", 22000, 4, "disabled", "25.2.200"),
        ("3.2", "3-12", "3-13", "3-14", None, 54000, 3, "enabled", "25.1.100"),
        ("3.3", "3-21", "3-22", "3-23", "3-27", 63000, 3, "enabled", "25.2.200"),
    ]
    mix_re = re.compile(r"(\d+(?:\.\d+)?)\s*[kK]\s*(nBSF|nbsf|Rx)")
    for section, tp, hw, sw, feat, load, sites, asm, release in spec:
        sid = f"bsf-{section.replace('.', '-')}"
        hline, title = heading(section)
        p = kv(tp)
        mix_raw = p["Call Mix"]
        parts = [{"name": "nBSF" if m.group(2).lower() == "nbsf" else "Rx", "value": float(m.group(1)) * 1000 if "." in m.group(1) else int(m.group(1)) * 1000,
                  "unit": "TPS", "raw": m.group(0)} for m in mix_re.finditer(mix_raw)]
        subs_key = [k for k in p if k.startswith("Active")][0]
        dur = p["Execution Time"]
        tables = sorted((t for t in by_id.values() if t.section and (t.section == section or t.section.startswith(section + "."))),
                        key=lambda t: t.first_line)
        rec = {
            "id": sid, "doc": DOC, "section": section, "title": title,
            "short_title": f"{load // 1000}K TPS, {sites}-site setup, traffic on Site1" + (" (with ASM)" if asm == "enabled" else ""),
            "deployment_mode": "BSF", "release": release,
            "sites_provisioned": sites, "sites_with_traffic": ["site1"],
            "load": {"total": load, "per_site": load, "unit": "TPS", "raw": p["Call Rate"], "cite": cite(tp, "Call Rate")},
            "asm": asm,
            "duration": {"hours": num(re.search(r"\d+", dur).group(0)), "raw": dur, "cite": cite(tp, "Execution Time")},
            "call_mix": {"raw": mix_raw, "parts": parts, "traffic_ratio": p["Traffic Ratio"], "cite": cite(tp, "Call Mix")},
            "call_model": {**CALL_MODEL, "cite": cite(tp, "Call Mix")},
            "subscribers": {"raw": p[subs_key], "label": subs_key, "cite": cite(tp, subs_key)},
            "hardware": kv(hw), "software": kv(sw), "features": kv(feat) if feat else None,
            "tables": [t.id for t in tables], "contradictions": [], "notes": [],
        }
        c.scenarios.append(rec)
    s1, s2, s3 = c.scenarios
    s1["asm_note"] = ("Not stated in 3.1. No Istio columns, rows or ASM version appear anywhere in the scenario, "
                      "while 3.2 and 3.3 say '(with ASM)'; recorded as disabled on that evidence.")
    s1["notes"].append("Table 3-7 lists 'Congestion' twice.")
    s2["asm_note"] = "Title '(with ASM)'; Table 3-14 'ASM | 1.14.6'; Istio columns in Tables 3-16 to 3-19."
    s2["notes"].append("Runs BSF 25.1.100 (Table 3-14) although the guide is release 25.2.200.")
    s3["asm_note"] = "Title '(with ASM)'; Table 3-23 'ASM | 1.14.6-am9'; Istio rows in 3-28 and istio-proxy containers in 3-26/3-29."
    s3["sites_provisioned"] = None
    s3["call_model"]["note"] = ("Table 3-21's Traffic Ratio adds 'Binding Get ratio (Discovery) - 0.15' to the binding create "
                                "and delete and the Rx messages of 3.1 and 3.2; its Call Mix still names nbsf and Rx "
                                "traffic only, so the run keeps their call model.")
    t28 = by_id["3-28"]
    s3["contradictions"].append({
        "field": "sites_provisioned",
        "summary": "The title says a three-site setup; the utilization tables report four sites.",
        "versions": [
            {"text": "Three-site Setup", "table_id": None, "line": heading("3.3")[0], "where": "title"},
            {"text": " | ".join(t28.header[1:]), "table_id": "3-28", "line": t28.header_line, "where": "Table 3-28 header (Site1 to Site4)"},
            {"text": "| Site3 | 1.834K | 5.569K | 0.059K |", "table_id": "3-30", "line": by_id["3-30"].rows[-1].line,
             "where": "Table 3-30 lists Site1 to Site3 only"},
        ]})
    for s, tp in ((s1, "3-1"), (s2, "3-12"), (s3, "3-21")):
        tot = sum(p["value"] for p in s["call_mix"]["parts"])
        s["contradictions"].append({
            "field": "load.total",
            "summary": f"The call mix adds up to {tot:g} TPS, not the {s['load']['total']} TPS call rate.",
            "versions": [cite(tp, "Call Rate") | {"where": f"Table {tp}, Call Rate"}, cite(tp, "Call Mix") | {"where": f"Table {tp}, Call Mix"}]})


COUNTED = {"Active Subscribers": "subscribers", "Active Binding Sessions": "binding sessions"}
"""What a bare number of each test-parameter row label counts (Tables 3-1, 3-12, 3-21)."""
BINDINGS_STORED = "The BSF stores the binding information for a certain PDU sessions"
"""The Introduction's words on the state the BSF keeps: the BSF as a whole, no service or pod named."""


def held_state(c: Curated, lines: list[str]) -> None:
    """How many subscribers and binding sessions each run held, and which service holds them.

    Each scenario's ``subscribers`` gets ``counts`` (``common.printed_counts``: one entry per number of its
    'Active ...' row; a bare number counts what its label names, COUNTED) and ``status`` ok. Table 3-1's
    '7M subscribers and 14M sessions' names its sessions without saying which: they are read as binding sessions
    through an erratum (appended after the others), the count ``corrected`` with the id in its note.

    No service gets ``holds``: the guide says the BSF stores the bindings (BINDINGS_STORED, chapter 1) but not
    which service or pod keeps them, which the BSF Management Service's note says. Raises CellError when the
    Introduction no longer reads so, or a row label is not in COUNTED."""
    stored = [n for n, l in enumerate(lines, 1) if BINDINGS_STORED in l]
    if len(stored) != 1:
        raise CellError(f"BSF: the Introduction's {BINDINGS_STORED!r} is printed {len(stored)} times, not once")
    for sc in c.scenarios:
        sub = sc["subscribers"]
        if sub["label"] not in COUNTED:
            raise CellError(f"BSF {sc['id']}: no reading of what row {sub['label']!r} counts (COUNTED)")
        sub["counts"] = printed_counts(sub["raw"], COUNTED[sub["label"]])
        sub["status"] = "ok"
        unnamed = [n for n in sub["counts"] if n["what"] == "sessions"]
        if unnamed:
            cite = sub["cite"]
            eid = c.erratum(scenario=sc["id"], table_id=cite["table_id"], lines=[cite["line"]],
                            where=f"row '{sub['label']}'", kind="unit", raw=sub["raw"],
                            problem=f"Table {cite['table_id']}: the row '{sub['label']}' also counts sessions "
                                    f"('{sub['raw']}') without saying which sessions.",
                            action="read-as", reading="binding sessions",
                            reason="The BSF stores binding information for PDU sessions (chapter 1, Introduction) and "
                                   "Table 3-12 prints the same parameter of scenario 3.2 as 'Active Binding Sessions'.")
            for n in unnamed:
                n.update(what="binding sessions", status="corrected", note=eid)
    mgmt = next(s for s in c.services if s["service"] == "BSF Management Service")
    mgmt["note"] = (mgmt["note"] + " The guide says the BSF stores the binding information (chapter 1, Introduction) but "
                    "not which service or pod keeps it: no held state is recorded for a BSF service.")


def _rows(t) -> tuple[list[int], str]:
    """(lines, text) of every row of table ``t``, the text one printed row per line (an erratum's raw quote)."""
    return [r.line for r in t.rows], "\n".join(r.text.strip() for r in t.rows)


def known_errata(c: Curated, by_id: dict, lines: list[str]) -> None:
    """Defects found by reading the tables, beyond the name repairs made while mapping."""
    E = c.erratum
    h6, h26 = by_id["3-6"].header_line, by_id["3-26"].header_line
    E(scenario="bsf-3-1", table_id="3-6", lines=[h6], where="header", kind="swapped-columns",
      raw=lines[h6 - 1].strip(),
      problem="Limit columns come before Request columns, the reverse of Table 3-5.", action="noted",
      reason="Columns are read by their header words, so the data holds limit and request where the header puts them "
             "(for example one-four-replication-svc: memory limit 2Gi, request 1Gi).")
    E(scenario="bsf-3-3", table_id="3-26", lines=[h26], where="header", kind="swapped-columns",
      raw=lines[h26 - 1].strip(),
      problem="Limit columns come before Request columns, the reverse of Table 3-25.", action="noted",
      reason="Columns are read by their header words.")
    E(scenario="bsf-3-1", table_id="3-7", lines=[322, 326], where="rows 3 and 7", kind="duplicate", raw="| Congestion | Enabled |",
      problem="The feature 'Congestion' is listed twice.", action="kept-as-printed", reason="Both rows are kept; they agree.")
    E(scenario="bsf-3-1", table_id="3-7", lines=[323], where="row 'dnsrv'", kind="typo", raw="dnsrv",
      problem="Spelled 'dnssrv' in Table 3-27.", action="kept-as-printed", reason="Feature names are kept as printed.")
    ln8, raw8 = _rows(by_id["3-8"])
    E(scenario="bsf-3-1", table_id="3-8", lines=ln8, where="whole table", kind="missing", raw=raw8,
      problem="No utilization rows for Query Service, Perinfo and Diameter Gateway, which Table 3-5 allocates; "
              "Diameter Gateway carries all 7.8K Rx TPS.", action="noted",
      reason="Nothing is filled in: calculators fall back to proportional scaling for these services.")
    E(scenario="bsf-3-2", table_id="3-18", lines=[536], where="cm-service, Site2 CPU", kind="inconsistent-values",
      raw="0.139 (0.115 %)", problem="0.139 cores at 0.115% implies a 120.9-core basis; the other sites imply 11.5 to 12.3 "
      "(3 replicas x 4 cores). Probably 0.0139 cores.", action="flagged-excluded", reading=None,
      reason="Which of the two numbers is wrong cannot be told; the cell is kept as printed and left out of calculations.")
    E(scenario="bsf-3-2", table_id="3-18", lines=[536], where="cm-service, Site2 Memory", kind="inconsistent-values",
      raw="2.01 (3.11 %)", problem="Sites 1 and 3 show 1.99 (30.9 %) and 2.01 (31.3 %); 3.11% is probably 31.1%.",
      action="flagged-excluded", reason="Kept as printed and left out of calculations.")
    E(scenario="bsf-3-2", table_id="3-18", lines=[538], where="bsf-managent-service, Site3 CPU", kind="inconsistent-values",
      raw="0.012 (0.085 %)", problem="Site2 prints the same 0.012 cores as 0.033 %; 0.085% implies a 14-core basis instead of 36.",
      action="flagged-excluded", reason="Kept as printed and left out of calculations.")
    E(scenario="bsf-3-2", table_id="3-18", lines=[529, 533], where="absolute values", kind="unit",
      raw="14.7 (45.9 %)\n9.13 (53.2 %)", problem="Table 3-18 prints no unit for its absolute values, nor what its percentages are of.",
      action="read-as", reading="CPU in cores, memory in GB; percentages of the CPU/memory limit",
      reason="Value / percent gives replicas x limit for every consistent row: diameter-gateway CPU 14.7/0.459 = 32.0 = 8 x 4 cores, "
             "Istio 2.76/0.172 = 16 = 8 x 2; memory 9.13/0.532 = 17.2 = 16 GiB expressed in GB.")
    E(scenario="bsf-3-2", table_id="3-19", lines=[551, 552, 553], where="all rows", kind="inconsistent-values",
      raw="ndbmt d | 17.7 (73.9 %) | 439 (79.9 %) | 14.0 (156 %) |",
      problem="The percentages do not reconcile with Table 3-17's allocations (ndbmtd Site1 CPU implies 24 cores against 8 x 12 = 96 "
              "allocated; ndbmysqld implies 142 to 154 cores against 4 x 4); the Istio CPU of ndbmtd at Site1 is printed as 156%.",
      action="kept-as-printed", reason="Absolute values and percentages are both kept; percent_basis is 'unstated'. "
      "Calculators use the absolute cores.")
    E(scenario="bsf-3-3", table_id="3-31", lines=[836, 837], where="Ingress and Egress Gateway rows", kind="unit",
      raw="| Ingress Gateway | 0.007 | 0.015 |", problem="Under '(ms)' these are 7 and 15 microseconds, against 2 and 19 ms in "
      "scenario 3.1 (Table 3-11); probably seconds printed as milliseconds.", action="flagged-excluded",
      reason="The unit cannot be settled from the text; values are kept as printed and marked flagged.")
    E(scenario="bsf-3-1", table_id="3-10", lines=[408], where="Site1", kind="inconsistent-values", raw="| Site1 | 1.24K | 3.01K | 3.02K |",
      problem="More commits (3.02K) than writes (3.01K) per second.", action="kept-as-printed")
    ln16, raw16 = _rows(by_id["3-16"])
    E(scenario="bsf-3-2", table_id="3-16", lines=ln16, where="whole table", kind="missing", raw=raw16,
      problem="No Alternate Route Service row, although the service is allocated in 3.1 and 3.3.", action="noted")
    E(scenario="bsf-3-3", table_id="3-29", lines=[792, 806], where="row order", kind="other",
      raw="mysql-cluster-three-four-replication-svc/istio-proxy", problem="Rows of one pod are interleaved with rows of others "
      "(three-four among four-*, four-two among three-*).", action="noted", reason="Rows are keyed by name, so order does not matter.")
    E(scenario="bsf-3-2", table_id="3-13", lines=[456], where="row 'Memory Size'", kind="inconsistent-values", raw="| Memory Size | 64 GB |",
      problem="Tables 3-2 and 3-22 print 'Memory Size | 1024 GB' for the same server; here 64 GB is the size of one DIMM "
              "(16 x 64 GB = the 1024 GB 'Installed Memory').", action="kept-as-printed")
    E(scenario="bsf-3-3", table_id="3-23", lines=[610], where="row 'OSO'", kind="other", raw="25.2.200-rc2",
      problem="The OSO version is a release candidate.", action="kept-as-printed")


# Printed service names that are not the service's name elsewhere in the guide: (alias, kind, problem).
NAME_VARIANTS = [
    ("bsf-managent-service", "typo", "'bsf-managent-service' (Table 3-18) for the BSF Management Service: 'managent' lacks 'em'."),
    ("nrf-client-nfmanent", "typo", "'nrf-client-nfmanent' (Table 3-18) for NRF Client NF Management: 'nfmanent' lacks 'agem'."),
    ("Nrf Client Management", "name", "'Nrf Client Management' (Table 3-16) drops the 'NF' of 'NRF Client NF Management' "
                                      "(Tables 3-5, 3-25)."),
    ("Egress Service", "name", "'Egress Service Istio' (Table 3-28) for the Egress Gateway's sidecar; every other table "
                               "says 'Egress Gateway'."),
]
PERF_INFO = ["Perinfo", "Perfinfo", "Performance"]


def more_errata(c: Curated, by_id: dict, lines: list[str]) -> None:
    """Defects recorded after the first curation (the provenance audit), appended so earlier erratum ids keep their numbers:
    scenario contradictions, Traffic Ratio against Call Mix, name variants, DB operations, versions, Table 3-19 units."""
    E = c.erratum

    def src(n):
        return lines[n - 1].strip()

    # every contradiction of scenarios.yaml gets its erratum
    for sc in c.scenarios:
        for con in sc["contradictions"]:
            if con.get("erratum"):
                continue
            vs = con["versions"]
            con["erratum"] = E(scenario=sc["id"], table_id=next((v["table_id"] for v in vs if v.get("table_id")), None),
                               lines=sorted({v["line"] for v in vs}), where=con["field"], kind="contradiction",
                               raw="\n".join(v["text"] for v in vs), problem=f"Scenario {sc['section']}: {con['summary']}",
                               action="noted", reason="Every version is cited in scenarios.yaml; the record keeps the "
                                                      "value stated in its field.")
    # Traffic Ratio against Call Mix
    for sc in c.scenarios:
        cm = sc["call_mix"]
        tr_line = cm["cite"]["line"] + 1
        if not src(tr_line).startswith("| Traffic Ratio |"):
            raise CellError(f"BSF {sc['id']}: no Traffic Ratio row after the Call Mix (line {tr_line})")
        ratios = re.findall(r"(Binding \w+|Rx [\w-]+) ratio(?: \(\w+\))? - (\d+(?:\.\d+)?)", cm["traffic_ratio"])
        nbsf = sum(Decimal(v) for k, v in ratios if k.startswith("Binding"))
        total = sum(Decimal(v) for _, v in ratios)
        mix = {p["name"]: Decimal(str(p["value"])) for p in cm["parts"]}
        share_ratio = nbsf / total * 100
        share_mix = mix["nBSF"] / (mix["nBSF"] + mix["Rx"]) * 100
        summary = (f"The Traffic Ratio gives the nBSF messages {nbsf:g} of {total:g} parts ({share_ratio:.1f}%), the Call Mix "
                   f"gives nBSF {cm['raw'].split(' ')[0]} of the whole ({share_mix:.1f}%).")
        versions = [{"text": cm["traffic_ratio"], "table_id": cm["cite"]["table_id"], "line": tr_line,
                     "where": f"Table {cm['cite']['table_id']}, Traffic Ratio"},
                    {"text": cm["raw"], "table_id": cm["cite"]["table_id"], "line": cm["cite"]["line"],
                     "where": f"Table {cm['cite']['table_id']}, Call Mix"}]
        eid = E(scenario=sc["id"], table_id=cm["cite"]["table_id"], lines=[cm["cite"]["line"], tr_line],
                where="rows 'Call Mix' and 'Traffic Ratio'", kind="contradiction", raw=f"{cm['raw']}\n{cm['traffic_ratio']}",
                problem=f"Scenario {sc['section']}: {summary}", action="noted",
                reason="Both are kept as printed; the ratios may count message types rather than traffic, which the "
                       "guide does not say.")
        sc["contradictions"].append({"field": "call_mix.traffic_ratio", "summary": summary, "versions": versions,
                                     "erratum": eid})
    # service names printed otherwise
    for alias, kind, problem in NAME_VARIANTS:
        hits = [(t, r) for t in by_id.values() for r in t.rows if r.cells and r.cells[0] in (alias, alias + " Istio")]
        t0 = hits[0][0]
        eid = E(scenario=scenario_of(t0.section), table_id=t0.id, lines=[r.line for _, r in hits],
                where=f"row label '{hits[0][1].cells[0]}'", kind=kind, raw=alias, problem=problem, action="read-as",
                reading=ALIAS[alias], reason="services.yaml lists the printed name as an alias of the service; "
                                             "row_label keeps it as printed.")
        _note(c, {(t.id, r.line) for t, r in hits}, eid)
    hits = [(t, r) for t in by_id.values() for r in t.rows if r.cells and r.cells[0].removesuffix(" Istio") in PERF_INFO]
    eid = E(scenario=None, table_id=None, lines=[r.line for _, r in hits], where="row labels (Tables "
            + ", ".join(dict.fromkeys(t.id for t, _ in hits)) + ")", kind="name", raw="\n".join(PERF_INFO),
            problem="One service is printed 'Perinfo' (3-5), 'Performance' (3-16) and 'Perfinfo' (3-18, 3-25, 3-28).",
            action="read-as", reading="Perf-Info",
            reason="Same place in every allocation table and the same CPU limit (4); services.yaml lists the three "
                   "names as aliases.")
    _note(c, {(t.id, r.line) for t, r in hits}, eid)
    # DB operations
    t20 = by_id["3-20"]
    dash = [r for r in t20.rows if all(x == "-" for x in r.cells[1:])]
    eid = E(scenario="bsf-3-2", table_id="3-20", lines=[r.line for r in dash], where="rows " + ", ".join(r.cells[0] for r in dash),
            kind="missing", raw="\n".join(r.text.strip() for r in dash),
            problem="Table 3-20 prints '-' for every operation at Site2 and Site3, although Table 3-19 of the same run "
                    "shows their cnDBTier pods working (ndbmtd 5.65 cores at Site2).",
            action="noted", reason="Kept as not applicable ('-'), no value.")
    _note(c, {("3-20", r.line) for r in dash}, eid)
    t30 = by_id["3-30"]
    r1, r2 = t30.rows[0], t30.rows[1]
    eid = E(scenario="bsf-3-3", table_id="3-30", lines=[r1.line, r2.line], where="Write Operations per Second, Site1 and Site2",
            kind="inconsistent-values", raw=f"{r1.text.strip()}\n{r2.text.strip()}",
            problem=f"Site2 writes {r2.cells[2]} per second, more than Site1 ({r1.cells[2]}), although all traffic "
                    "runs on Site1.", action="kept-as-printed")
    _note(c, {("3-30", r1.line), ("3-30", r2.line)}, eid, column="Write Operations per Second")
    # one BSF release on two platforms
    sw = [(by_id[tid], key) for tid in ("3-3", "3-23") for key in ("BSF", "CNE")] + \
         [(t, key) for t in by_id.values() if t.section in ("3.1.1", "3.3.1") and "observability" in (t.caption or "").lower()
          for key in ("Kubernetes",)]
    hits = [next(r for r in t.rows if r.cells[0] == key) for t, key in sw]
    E(scenario=None, table_id="3-23", lines=[r.line for r in hits], where="software tables of 3.1 and 3.3", kind="inconsistent-values",
      raw="\n".join(r.text.strip() for r in hits),
      problem="The same BSF release 25.2.200 runs on CNE 25.1.200 with Kubernetes 1.32.0 in scenario 3.1 and on CNE 23.3.4 "
              "with Kubernetes 1.26.x in scenario 3.3, so the two runs differ in platform as well as load.",
      action="noted", reason="Both are kept as printed; comparisons across the two scenarios should allow for it.")
    # Table 3-19: the absolute values carry no unit
    t19 = by_id["3-19"]
    r = t19.rows[0]
    eid = E(scenario="bsf-3-2", table_id="3-19", lines=[t19.header_line, r.line], where="absolute values", kind="unit",
            raw=f"{src(t19.header_line)}\n{r.text.strip()}",
            problem="Table 3-19 prints no unit for its absolute values (e.g. ndbappmysqld Site1 CPU 17.6, memory 14.3).",
            action="read-as", reading="CPU in cores, memory in GB, as in Table 3-18; percentages of an unstated basis",
            reason="Same layout as Table 3-18, where value / percent gives replicas x limit; here the percentages do not "
                   "reconcile with Table 3-17 (see the table's inconsistent-values erratum), so the basis stays 'unstated'.")
    for row in c.rows["utilization"]:
        if row["table_id"] == "3-19" and row["status"] == "ok":
            row["status"] = "corrected"
            row["note"] = (row["note"] + "; " if row.get("note") else "") + eid


def _note(c: Curated, where: set, eid: str, column: str | None = None) -> None:
    """Add erratum ``eid`` to the note of every row at (table_id, line) in ``where`` (status unchanged)."""
    for rows in c.rows.values():
        for row in rows:
            if (row["table_id"], row["line"]) in where and (column is None or row.get("column_label") == column):
                row["note"] = (row["note"] + "; " if row.get("note") else "") + eid


def apply_flags(c: Curated) -> None:
    """Mark the cells named by flagged-excluded errata."""
    flagged = {("3-18", 536, "Site2 CPU"), ("3-18", 536, "Site2 Memory"), ("3-18", 538, "Site3 CPU")}
    ids = {(e["table_id"], e["lines"][0], e["where"].split(", ")[-1]): e["id"] for e in c.errata if e["action"] == "flagged-excluded"}
    for r in c.rows["utilization"]:
        key = (r["table_id"], r["line"], r["column_label"])
        if key in flagged:
            r["status"] = "flagged"
            r["note"] = ids[key] + ("; " + r["note"] if r.get("note") else "")
    lat_id = next(e["id"] for e in c.errata if e["table_id"] == "3-31")
    for r in c.rows["latency"]:
        if r["table_id"] == "3-31" and r["subject"] in ("Ingress Gateway", "Egress Gateway"):
            r["status"] = "flagged"
            r["note"] = lat_id + ("; " + r["note"] if r.get("note") else "")
    basis_id = next(e["id"] for e in c.errata if e["table_id"] == "3-18" and e["kind"] == "unit")
    for r in c.rows["utilization"]:
        if r["table_id"] == "3-18" and r["status"] == "ok":
            r["percent_basis"] = "limit"
            r["status"] = "corrected"
            r["note"] = basis_id + ("; " + r["note"] if r.get("note") else "")


def curate() -> Curated:
    c = build()
    apply_flags(c)
    return c
