"""Resource-allocation and utilization tables of the Policy guide (seed 000).

Called by ``curation/policy.py``::

    from .policy_resources import curate_tables
    handled = curate_tables(c, tables, scenario_of)

``curate_tables`` maps the 61 resource-allocation tables onto resources.csv and
the 48 utilization tables onto utilization.csv, appends one catalogue entry per
table to ``c.tables``, one services.yaml record per canonical service it met
and one erratum per distinct defect. Every reading that is not the literal
text is recorded in an erratum; nothing is shifted silently.

Run ``python -m curation.policy_resources`` for a dry run (prints counts,
writes nothing).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .common import (CellError, Curated, abs_and_percent, cpu_cores, header_mem_unit, integer, mem_gib, num,
                     percent, resource_header, site_from_label, table_entry)

DOC = "policy"

RESOURCE_TABLES = {
    "3-7", "3-8", "3-18", "3-19", "3-28", "3-29", "3-38", "3-39", "3-48", "3-49", "3-50", "3-51", "3-52", "3-53",
    "3-68", "3-69", "3-81", "3-82", "3-92", "3-93", "3-104", "3-105", "3-115", "3-116", "3-117", "3-118",
    "3-127", "3-128", "3-129", "3-130", "3-140", "3-141", "3-150", "3-151", "3-160", "3-161", "3-162", "3-163",
    "3-174", "3-175", "3-176", "3-185", "3-186", "3-193", "3-194", "3-202", "3-203", "3-211", "3-212", "3-220",
    "3-221", "3-230", "3-231", "3-232", "3-233", "3-244", "3-245", "3-255", "3-256", "3-265", "3-266",
}
UTILIZATION_TABLES = {
    "3-9", "3-10", "3-20", "3-21", "3-30", "3-31", "3-40", "3-41", "3-54", "3-55", "3-70", "3-71", "3-83", "3-84",
    "3-94", "3-95", "3-106", "3-107", "3-119", "3-120", "3-131", "3-132", "3-142", "3-143", "3-152", "3-153",
    "3-164", "3-165", "3-177", "3-178", "3-187", "3-188", "3-195", "3-196", "3-204", "3-205", "3-213", "3-214",
    "3-222", "3-223", "3-234", "3-235", "3-246", "3-247", "3-257", "3-258", "3-267", "3-268",
}
assert len(RESOURCE_TABLES) == 61 and len(UTILIZATION_TABLES) == 48

# ------------------------------------------------------------------ services
# (canonical service, display name, role, normalised keys, note)
APP_SERVICES = [
    ("appinfo", "Appinfo", "management", ["appinfo", "appinfo service"], ""),
    ("alternate-route", "Alternate Route Service", "management",
     ["alternate route", "alternate route service", "alternate-route"], ""),
    ("am-service", "AM Service", "traffic", ["am service", "amservice"], "N15 access and mobility policy."),
    ("audit-service", "Audit Service", "management", ["audit", "audit service", "audit-service"], ""),
    ("binding", "Binding Service", "traffic", ["binding", "binding service"], ""),
    ("bulwark", "Bulwark Service", "traffic", ["bulwark", "bulwark service"],
     "Concurrency/lock service called on the signalling path."),
    ("chf-connector", "CHF Connector", "traffic",
     ["chf connector", "chf connector user service", "chf connector/ user service", "chf-connector"],
     "Printed as 'CHF Connector User Service' / 'CHF Connector/ User Service'; the pod is a user-service."),
    ("cm-service", "CM Service", "management", ["cm service", "cm-service"], ""),
    ("config-server", "Config Server", "management", ["config server", "config service", "config-server"], ""),
    ("diam-connector", "Diameter Connector", "traffic",
     ["diam-connector", "diameter connector", "diameter connector service"], ""),
    ("diam-gateway", "Diameter Gateway", "traffic",
     ["diam-gateway", "diameter gateway", "diameter gateway service", "diam-gw (from dashboard)"], ""),
    ("egress-gateway", "Egress Gateway", "traffic", ["egress gateway", "egress gateway service", "egress-gateway"], ""),
    ("ingress-gateway", "Ingress Gateway", "traffic",
     ["ingress gateway", "ingress gateway service", "ingress-gateway"], ""),
    ("ldap-gateway", "LDAP Gateway", "traffic", ["ldap gateway", "ldap gateway service", "ldap-gateway"], ""),
    ("nrf-client-nfdiscovery", "NRF Client NF Discovery", "traffic",
     ["nrf client discovery", "nrf client nf discovery", "nrf client nf discovry", "nrf-client-nfdiscovery",
      "nrf-client-nfdiscovery service"],
     "NF discovery is called per UDR/CHF lookup and scales with load (e.g. 38%/80% in Table 3-70)."),
    ("nrf-client-nfmanagement", "NRF Client NF Management", "management",
     ["nrf client management", "nrf client nf management", "nrf-client-nfmanagament", "nrf-client-nfmanagement",
      "nrf-client-nfmanagement service"], ""),
    ("pcrf-core", "PCRF Core", "traffic", ["pcrf core", "pcrf core service", "pcrf-core"], ""),
    ("policyds", "PolicyDS (PDS)", "traffic", ["pds", "pds service", "policyds", "policyds service"], ""),
    ("perf-info", "Perf-Info", "management", ["perf-info", "perfinfo", "performance"], ""),
    ("pre", "PRE", "traffic", ["pre", "pre service", "pre-service"], "Policy Runtime Engine."),
    ("query-service", "Query Service", "management", ["query service", "query-service", "queryservice"], ""),
    ("sm-service", "SM Service", "traffic", ["sm service", "sm-service", "smservice"], "N7 session management policy."),
    ("soap-connector", "SOAP Connector", "traffic", ["soap connector", "soapconnector"], ""),
    ("udr-connector", "UDR Connector", "traffic",
     ["udr connector", "udr connector user service", "udr-connector"],
     "Printed as 'UDR connector User Service' / 'UDR Connector User Service'; the pod is a user-service."),
    ("ue-service", "UE Policy Service", "traffic", ["ue policy service", "ue service", "ueservice"], ""),
    ("usage-monitoring", "Usage Monitoring", "traffic", ["usage monitoring"], ""),
]
APP_KEY = {k: s for s, _, _, keys, _ in APP_SERVICES for k in keys}
APP_INFO = {s: (d, r, n) for s, d, r, _, n in APP_SERVICES}
SIMULATORS = {"nrfsim": "nrfsim", "udmsim": "udmsim"}
CNDB_DATA_PODS = ("ndbmtd", "ndbmysqld", "ndbappmysqld", "ndbmgmd")
UDR_TRAFFIC = ("ocudr-ingressgateway-sig", "ocudr-egressgateway", "ocudr-nudr-drservice", "ocudr-nudr-notify-service",
               "ocudr-nudr-diameterproxy", "ocudr-nudr-diam-gateway")

# Name typos met in row labels: key fragment -> (reading, reason)
NAME_TYPOS = {
    "Discovry": ("Discovery", "letter dropped; the same service is 'NRF Client NF Discovery' in Tables 3-116, 3-128, 3-150"),
    "nfmanagament": ("nfmanagement", "the deployment is ocpcf-occnp-nrf-client-nfmanagement in every other table"),
    "occpm": ("ocpm", "the namespace prefix is ocpm- everywhere else (ocpcf-ocpm-audit-service, ocpcf-ocpm-policyds)"),
    "mdbmysqld": ("ndbmysqld", "no cnDBTier pod is called mdbmysqld; the other three rows are ndbappmysqld, ndbmgmd, ndbmtd"),
    "alternate route": ("alternate-route", "Kubernetes deployment names contain no spaces; Table 3-9 prints ocpcf-alternate-route"),
}


class _Run:
    """State for one curate_tables call: errata grouped per (table, defect)."""

    def __init__(self, c: Curated, scenario_of):
        self.c = c
        self.scenario_of = scenario_of
        self.services: dict[tuple[str, str], dict] = {}
        self.typos: dict[tuple[str, str], dict] = {}

    # ---- errata helpers
    def erratum(self, t, **e) -> str:
        if t.id not in e["problem"]:
            e["problem"] = f"Table {t.id}: {e['problem']}"  # a recurring defect says where it is
        return self.c.erratum(scenario=self.scenario_of(t), table_id=t.id, **e)

    def typo(self, t, frag: str, raw: str, line: int) -> str:
        key = (t.id, frag)
        if key not in self.typos:
            reading, reason = NAME_TYPOS[frag]
            eid = self.erratum(t, lines=[line], where=f"row label(s) containing '{frag}'", kind="typo", raw=raw,
                               problem=f"'{frag}' is a misspelling in a service name.", action="read-as",
                               reading=reading, reason=reason)
            self.typos[key] = {"id": eid, "e": self.c.errata[-1]}
        else:
            self.typos[key]["e"]["lines"].append(line)
        return self.typos[key]["id"]

    # ---- services
    def service(self, component: str, service: str, alias: str) -> None:
        rec = self.services.get((component, service))
        if rec is None:
            if component == "app":
                display, role, note = APP_INFO[service]
            elif component == "simulator":
                display, role, note = {"nrfsim": "NRF simulator", "udmsim": "UDM simulator"}[service], "test", ""
            elif component == "udr":
                display, role = service, ("database" if service in UDR_TRAFFIC else "management")
                note = "Oracle UDR microservice (Table 3-49); 'database' for the UDR signalling/data path."
            else:
                display = service
                role = "database" if service in CNDB_DATA_PODS else "management"
                note = ""
            rec = {"doc": DOC, "service": service, "display_name": display, "component": component, "role": role,
                   "aliases": []}
            if note:
                rec["note"] = note
            self.services[(component, service)] = rec
        if alias not in rec["aliases"]:
            rec["aliases"].append(alias)

    # ---- row labels
    def name(self, t, row, label: str | None = None) -> dict:
        """Row label -> site, component, service, container, is_sidecar (+ notes of errata used)."""
        raw = row.cells[0] if label is None else label
        s = raw.strip()
        out = {"site": None, "notes": []}
        udr = False
        prefix = ""
        m = re.match(r"^(UDR-)?Site(\d+)-", s)
        if m:
            prefix = m.group(0)
            udr = bool(m.group(1))
            out["site"] = f"site{int(m.group(2))}"
            s = s[m.end():]
        sidecar = False
        m = re.search(r"\s+Istio$", s, re.I)
        if m:
            sidecar = True
            s = s[: m.start()]
        container = "app"
        m = re.fullmatch(r"(.+)/([a-z0-9-]+)", s)
        if m:
            s, container = m.group(1), m.group(2)
            if container in ("istio", "istio-proxy"):
                container, sidecar = "istio-proxy", True
        if sidecar:
            container = "istio-proxy"
        alias = prefix + s
        low = s.lower()
        for frag in NAME_TYPOS:
            if frag in s and not (frag == "alternate route" and not s.startswith("ocpcf-")):
                out["notes"].append(self.typo(t, frag, raw, row.line))
        if udr:
            component, service = "udr", s
        elif low in SIMULATORS:
            component, service = "simulator", SIMULATORS[low]
        elif re.match(r"^(ndb|mdb|mysql-cluster-|db-)", low):
            component = "cndbtier"
            service = "ndbmysqld" if low == "mdbmysqld" else low
        else:
            component = "app"
            k = re.sub(r"^ocpcf-", "", low)
            k = re.sub(r"(-hpa)?(-v2beta1|-v2)?$", "", k)
            for p in ("occnp-", "ocpm-", "occpm-", "pcf-", "oc-"):
                if k.startswith(p):
                    k = k[len(p):]
                    break
            if k not in APP_KEY:
                raise CellError(f"{t.id} line {row.line}: unknown Policy service {raw!r}")
            service = APP_KEY[k]
        out.update(component=component, service=service, container=container, is_sidecar=sidecar, alias=alias)
        return out


# ====================================================================== resources
# Per-table readings decided from the source (each recorded in an erratum below).
SWAPPED_HEADER = {"3-160", "3-161"}          # header request-first, data limit-first
DUP_LIMIT_HEADER = {"3-174", "3-175", "3-176"}  # 'CPU Limit per Container (#)' printed twice
MEM_RESOURCES_HEADER = {"3-230", "3-231", "3-232", "3-233"}  # last header 'Memory Resources per Container'
BARE_MILLI = {"3-245", "3-256"}               # bare 200/500, 100/128 rows that must be millicores/MiB
# 3-140: CPU per container equal to the replica count (notes 4.7); rows flagged.
CPU_EQUALS_REPLICAS_3_140 = {1947, 1948, 1949, 1950, 1951, 1952, 1953, 1955, 1957, 1958, 1959, 1960, 1946}

NA = {"NA", "['NA']", "None", ""}


def _site_from_caption(t) -> str | None:
    cap = t.caption or ""
    try:
        return site_from_label(cap)
    except CellError:
        return None


def _fields(t) -> list:
    """Header -> list of (container, field) or None per column, with the per-table readings applied."""
    cols = []
    seen_cpu_limit = False
    for h in t.header:
        col = resource_header(h)
        if col and t.id in DUP_LIMIT_HEADER and col == ("app", "cpu_limit"):
            if seen_cpu_limit:
                col = ("app", "cpu_request")
            seen_cpu_limit = True
        if col and t.id in MEM_RESOURCES_HEADER and col == ("app", "mem"):
            col = ("app", "mem_request")
        if col and t.id in SWAPPED_HEADER:
            swap = {"cpu_request": "cpu_limit", "cpu_limit": "cpu_request", "mem_request": "mem_limit",
                    "mem_limit": "mem_request"}
            col = (col[0], swap.get(col[1], col[1]))
        cols.append(col)
    return cols


@dataclass
class _ResourceTable:
    """What reading one resource-allocation table carries from row to row: its scenario, its columns (``_fields``),
    the site its caption names, the errata of its header (noted on every row), the rows' errata by line (flagged rows,
    corrected rows and how their cells are read) and the bare memory cells met, ``(line, header, container)``, read as
    GiB and recorded in one erratum after the last row."""
    t: object
    scen: str
    cols: list
    cap_site: str | None
    table_errata: list[str]
    flagged_rows: dict[int, str] = field(default_factory=dict)
    corrected_rows: dict[int, list[str]] = field(default_factory=dict)
    row_readings: dict[int, dict] = field(default_factory=dict)  # line -> how its cells are read, e.g. {"bare": True}
    bare_mem: list[tuple[int, str, str]] = field(default_factory=list)


def _resources(run: _Run, t) -> None:
    """One resource-allocation table onto resources.csv: its header errata, its rows' errata (3-140, bare
    millicores), one row per container of each printed row, the bare-memory erratum, then the request/limit
    check. The errata are recorded in this order, which fixes their ids."""
    scen = run.scenario_of(t)
    cols = _fields(t)
    cap_site = _site_from_caption(t)
    table_errata = _header_errata(run, t)  # errata that apply to every row of the table
    # 3-82: misaligned rows; five values under seven headers.
    if t.id == "3-82":
        _resources_3_82(run, t, scen)
        return
    rt = _ResourceTable(t, scen, cols, cap_site, table_errata)
    _row_errata(run, rt)
    for i, r in enumerate(t.rows, 1):
        _resource_row(run, rt, i, r)
    if rt.bare_mem:
        _bare_memory_erratum(run, rt)
    _check_request_limit(run, t)
    _finish_notes(run.c, t)


def _header_errata(run: _Run, t) -> list[str]:
    """The errata of a resource table's header (swapped request/limit columns, a CPU Limit printed twice, 'Memory
    Resources'): their ids, noted on every row of the table."""
    table_errata: list[str] = []
    if t.id in SWAPPED_HEADER:
        table_errata.append(run.erratum(
            t, lines=[t.header_line], where="header, CPU and memory columns", kind="swapped-columns",
            raw=" | ".join(t.header),
            problem="The header puts Request before Limit, but the data are limit-first: read as headed, the request "
                    "exceeds the limit in several rows (Config Service | 4 | 2 | 2 | 512 Mi, Query Service | 2 | 1 | 1 | 1, "
                    "Alternate Route Service | 2 | 2 | 4 | 2), which Kubernetes does not allow.",
            action="read-as", reading="columns 2-5 as CPU Limit, CPU Request, Memory Limit, Memory Request",
            reason="Limit-first is the order of every other per-container table of the guide (3-48, 3-115, 3-162, 3-174) and "
                   "gives limit >= request in every row; Config Service then reads limit 2 GiB / request 512 Mi as in 3-174."))
    if t.id in DUP_LIMIT_HEADER:
        table_errata.append(run.erratum(
            t, lines=[t.header_line], where="header, 4th column", kind="typo", raw=" | ".join(t.header),
            problem="'CPU Limit per Container (#)' is printed twice; the table has no CPU Request column.",
            action="read-as", reading="the second 'CPU Limit per Container (#)' column as CPU Request",
            reason="Layout D tables (3-48, 3-162, 3-163) print CPU Limit then CPU Request in these positions, and the values "
                   "give limit >= request in every row (CM Service 4 then 2, Query Service 2 then 1 in 3-174)."))
    if t.id in MEM_RESOURCES_HEADER:
        table_errata.append(run.erratum(
            t, lines=[t.header_line], where="header, last column", kind="other", raw=t.header[-1],
            problem="The last header 'Memory Resources per Container' says neither request nor limit.",
            action="read-as", reading="Memory Request per Container",
            reason="It follows 'Memory Limit per Container' in the layout of 3-48..3-53 and 3-162, whose last column is "
                   "'Memory Request per Container', and its values never exceed the limit (Binding Service 8Gi / 1Gi)."))
    return table_errata


def _row_errata(run: _Run, rt: _ResourceTable) -> None:
    """The errata of whole rows decided before the rows are read: Table 3-140's CPU equal to the replica count
    (flagged, notes 4.7) and the bare 200/500, 100/128 rows of BARE_MILLI (read as millicores and MiB)."""
    t = rt.t
    if t.id == "3-140":
        eid = run.erratum(
            t, lines=sorted(CPU_EQUALS_REPLICAS_3_140), where="13 rows, CPU Limit and CPU Request", kind="inconsistent-values",
            raw=_rows_raw(t, CPU_EQUALS_REPLICAS_3_140),
            problem="In 13 rows the CPU limit and request equal the replica count (27, 24, 20, 12, 9, 8, 7, 2, 1 cores), "
                    "while the same services have 2 to 7 cores in the sibling Tables 3-127/3-128; the replica count was "
                    "probably copied into the CPU columns.",
            action="flagged-excluded",
            reason="The real CPU values cannot be recovered; rows are kept as printed and left out of calculations.")
        for ln in CPU_EQUALS_REPLICAS_3_140:
            rt.flagged_rows[ln] = eid
    if t.id in BARE_MILLI:
        lines = [r.line for r in t.rows if r.cells[0] in ("db-infra-monitor-svc", "db-backup-manager-svc")]
        eid = run.erratum(
            t, lines=lines, where="rows db-infra-monitor-svc and db-backup-manager-svc, CPU and memory", kind="unit",
            raw=_rows_raw(t, lines),
            problem="Under 'CPU ... (#)' and 'Memory ... (Gi)' these rows print 200/500 and 100/128: read literally 200 cores "
                    "and 500 GiB for a monitor sidecar, more than any server described in the guide (at most 128 cores and "
                    "1024 GB, Tables 3-43, 3-155, 3-225).",
            action="read-as", reading="CPU in millicores (200m = 0.2 cores, 100m = 0.1), memory in MiB (500Mi, 128Mi)",
            reason="The same containers get 100m-200m CPU and 128Mi-256Mi memory in Tables 3-50, 3-162 and 3-175, and 3-266 "
                   "prints db-backup-manager-svc as 0.1 cores; the suffixes m/Mi were lost.")
        for ln in lines:
            rt.corrected_rows.setdefault(ln, []).append(eid)
            rt.row_readings[ln] = {"bare": True}


def _resource_row(run: _Run, rt: _ResourceTable, i: int, r) -> None:
    """Row ``i`` (line ``r``) of a resource table: its name and site, the reading of a misaligned row
    (``_row_specials``), its cells per container (``_read_cells``), memory cells with a millicore suffix flagged,
    the replica count shared by the row's containers, then one resources row per container (``_add_containers``)."""
    t = rt.t
    nm = run.name(t, r)
    site = nm["site"] or rt.cap_site
    if nm["site"] and rt.cap_site and nm["site"] != rt.cap_site:
        raise CellError(f"{t.id} line {r.line}: site prefix {nm['site']} under caption site {rt.cap_site}")
    cells = list(r.cells)
    notes = list(rt.table_errata) + nm["notes"]
    if "for UDR" in (t.caption or ""):
        notes.insert(0, "cnDBTier instance of the UDR deployment (caption 'cnDBTier (for UDR)'), not Policy's.")
    status_override = None
    container0 = nm["container"]
    special = _row_specials(run, t, r, cells, nm)
    if special:
        cells = special.get("cells", cells)
        notes += special.get("notes", [])
        status_override = special.get("status")
        if special.get("site"):
            site = special["site"]
        if special.get("container"):
            container0 = special["container"]
    cols = rt.cols
    if len(cells) < len(cols):
        cells = cells + [""] * (len(cols) - len(cells))
    if len(cells) > len(cols):
        if any(x for x in cells[len(cols):]):
            raise CellError(f"{t.id} line {r.line}: extra non-empty cells {cells[len(cols):]}")
        cells = cells[: len(cols)]
    per, missing_cols, flagged_cols = _read_cells(run, rt, r, cells, container0)
    # memory cells with a millicore suffix: flagged
    for cont, heads in flagged_cols.items():
        eid = run.erratum(
            t, lines=[r.line], where=f"row '{r.cells[0]}', column(s) " + ", ".join(repr(h) for h in heads), kind="unit",
            raw=" | ".join(r.cells),
            problem=f"Row '{r.cells[0]}': a memory cell carries the CPU millicore suffix 'm' (" + ", ".join(
                cells[t.header.index(h)] for h in heads) + "). As a Kubernetes quantity 'm' on memory means "
                "milli-bytes, so the value is meaningless as printed; it may be 500Mi/0.5Gi (or a CPU value copied "
                "into the memory column) but which cannot be told.",
            action="flagged-excluded",
            reason="The memory value is left empty (raw kept) and the row is flagged.")
        per[cont]["_flag"] = eid
    replicas_keys = ("replicas", "replicas_min", "replicas_max", "raw_replicas")
    app_d = per.get(container0, {})
    for cont, d in per.items():
        for k in replicas_keys:
            if k not in d and k in app_d:
                d[k] = app_d[k]
    _add_containers(run, rt, i, r, nm, site, container0, per, missing_cols, notes, status_override)
    run.service(nm["component"], nm["service"], nm["alias"])


def _read_cells(run: _Run, rt: _ResourceTable, r, cells: list[str], container0: str) -> tuple[dict, dict, dict]:
    """The cells of one resource row read per container: ``(per, missing_cols, flagged_cols)``, ``per`` mapping a
    container to its raw cells (``raw_*``) and values (cores, GiB, replicas), ``missing_cols`` and ``flagged_cols``
    a container to the headers of its cells printed NA or blank and of its memory cells with a millicore suffix.
    A memory number with a trailing dot is read without it, with its erratum (its row then reads as corrected); a bare
    memory number under a header without a unit is read as GiB (``rt.bare_mem``, one erratum per table)."""
    t = rt.t
    reading = rt.row_readings.get(r.line, {})
    per: dict[str, dict] = {}
    missing_cols: dict[str, list[str]] = {}
    flagged_cols: dict[str, list[str]] = {}
    for h, col, cell in zip(t.header, rt.cols, cells):
        if col is None:
            continue
        cont, field_ = col
        cont = container0 if cont == "app" else cont
        d = per.setdefault(cont, {})
        kind = "cpu" if field_.startswith("cpu") else "mem" if field_.startswith("mem") else field_
        raw_keys = ([f"raw_{kind}_request", f"raw_{kind}_limit"] if field_.endswith("_request_limit")
                    else ["raw_replicas"] if field_.startswith("replicas") else [f"raw_{field_}"])
        if field_ in ("replicas_min", "replicas_max"):
            d["raw_replicas"] = (d.get("raw_replicas", "") + (" / " if d.get("raw_replicas") else "") + cell)
        else:
            for k in raw_keys:
                d[k] = cell
        if cell.strip() in NA:
            missing_cols.setdefault(cont, []).append(h)
            continue
        val_keys = ([f"{kind}_request", f"{kind}_limit"] if field_.endswith("_request_limit") else [field_])
        if field_.startswith("replicas"):
            d[field_] = integer(cell)
            continue
        if field_ == "storage":
            d["storage_gib"] = mem_gib(cell)
            continue
        if kind == "cpu":
            v = cpu_cores(cell, "millicores" if reading.get("bare") else "cores")
            for k in val_keys:
                d[_cpu_col(k)] = v
            continue
        # memory
        if re.fullmatch(r"\d+(\.\d+)?\s*m", cell.strip()):
            flagged_cols.setdefault(cont, []).append(h)
            continue
        unit = header_mem_unit(h)
        if reading.get("bare"):
            unit = "MiB"
        elif unit is None and not re.search(r"[A-Za-z]", cell):
            unit = "GiB"
            rt.bare_mem.append((r.line, h, cont))
        if cell.strip().endswith("."):
            eid = run.erratum(t, lines=[r.line], where=f"row '{r.cells[0]}', column '{h}'", kind="format", raw=cell,
                              problem="Malformed number with a trailing dot.", action="read-as",
                              reading=cell.strip().rstrip("."),
                              reason="The trailing dot is a stray full stop; 0.5 is the value of this column for the "
                                     "same service in Tables 3-7 and 3-28.")
            rt.corrected_rows.setdefault(r.line, []).append(eid)
            cell = cell.strip().rstrip(".")
        v = mem_gib(cell, unit or "GiB")
        for k in val_keys:
            d[_mem_col(k)] = v
    return per, missing_cols, flagged_cols


def _add_containers(run: _Run, rt: _ResourceTable, i: int, r, nm: dict, site: str | None, container0: str,
                    per: dict, missing_cols: dict, notes: list[str], status_override: str | None) -> None:
    """One resources row per container of printed row ``i``, with its status (ok, missing, corrected, flagged: the
    row's errata decide it, a flag winning over a correction) and its notes; a sidecar left blank on a row that names
    another container is skipped (the sidecar is given on the pod's main row)."""
    t = rt.t
    for cont, d in per.items():
        rnotes = list(notes)
        status = "ok"
        if cont == "istio-proxy" and container0 != "istio-proxy":
            rnotes.insert(0, "Istio sidecar columns of this row.")
        if d.get("replicas_min") is not None and d.get("replicas") is None and "replicas_max" in d:
            if d["replicas_min"] == d["replicas_max"]:
                d["replicas"] = d["replicas_min"]
                rnotes.append("replicas = Min = Max (the table prints equal Min and Max Replicas, no replica count).")
        values = [k for k in d if not k.startswith("raw_") and not k.startswith("_") and not k.startswith("replicas")]
        miss = missing_cols.get(cont, [])
        if not values and not d.get("_flag"):
            if cont == "istio-proxy" and container0 != "app" and all(not d.get(k) for k in d if k.startswith("raw_cpu") or k.startswith("raw_mem")):
                # sidecar cells blank on a row that names another container: the sidecar is given on the pod's main row
                continue
            status = "missing"
            rnotes.append("No value printed (" + ", ".join(repr(h) for h in miss) + ").")
        elif miss:
            rnotes.append("Not printed: " + ", ".join(repr(h) for h in miss) + ".")
        if r.line in rt.corrected_rows:
            status = "corrected"
            rnotes += rt.corrected_rows[r.line]
        if t.id in SWAPPED_HEADER or t.id in DUP_LIMIT_HEADER or (t.id in MEM_RESOURCES_HEADER and cont == container0):
            # every value of these tables is read through the table's header erratum
            status = "corrected" if status == "ok" else status
        if status_override:
            status = status_override
        if d.get("_flag"):
            status = "flagged"
            rnotes.append(d["_flag"])
        if r.line in rt.flagged_rows and cont == container0:
            status = "flagged"
            rnotes.append(rt.flagged_rows[r.line])
        d.pop("_flag", None)
        row = run.c.add("resources", scenario=rt.scen, table_id=t.id, row=i, line=r.line, row_label=r.cells[0], site=site,
                        component=nm["component"], service=nm["service"], container=cont,
                        is_sidecar=cont == "istio-proxy", status=status, note=None, **d)
        row["_notes"] = rnotes


def _bare_memory_erratum(run: _Run, rt: _ResourceTable) -> None:
    """One erratum for a table's bare memory numbers read as GiB (``rt.bare_mem``), noted on their rows, which
    then read as corrected where they were ok."""
    t, bare_mem, c = rt.t, rt.bare_mem, run.c
    heads = sorted({h for _, h, _ in bare_mem})
    eid = run.erratum(
        t, lines=[t.header_line] + sorted({ln for ln, _, _ in bare_mem}), where="column(s) " + ", ".join(repr(h) for h in heads),
        kind="unit", raw="\n".join(heads), problem="Memory cells print bare numbers and neither the cells nor the header give a unit.",
        action="read-as", reading="GiB",
        reason=("The same sidecar memory is printed '2 Gi' in Tables 3-115/3-116 and the app memory columns of this table "
                "are headed '(Gi)'." if any("istio" in h.lower() or "isito" in h.lower() for h in heads) else
                "Cells of the same column that do carry a unit use Mi only for sub-GiB values ('512 Mi'), and the same "
                "services get whole-Gi memory (2Gi, 4Gi, 6Gi, 8Gi) in Tables 3-150 and 3-174."))
    bare_keys = {(ln, cont) for ln, _, cont in bare_mem}
    for row in c.rows["resources"]:
        if row["table_id"] == t.id and (row["line"], row["container"]) in bare_keys:
            row["_notes"].append(eid)
            if row["status"] == "ok":
                row["status"] = "corrected"


def _cpu_col(k: str) -> str:
    return {"cpu_request": "cpu_request_cores", "cpu_limit": "cpu_limit_cores", "cpu": "cpu_cores"}[k]


def _mem_col(k: str) -> str:
    return {"mem_request": "mem_request_gib", "mem_limit": "mem_limit_gib", "mem": "mem_gib"}[k]


def _finish_notes(c: Curated, t) -> None:
    for kind in ("resources", "utilization"):
        for row in c.rows.get(kind, []):
            if row["table_id"] == t.id and "_notes" in row:
                notes = []
                for n in row.pop("_notes"):
                    if n and n not in notes:
                        notes.append(n)
                row["note"] = "; ".join(notes) if notes else None


def _check_request_limit(run: _Run, t) -> None:
    """Flag rows whose request exceeds the limit or whose Min exceeds Max replicas (impossible in Kubernetes)."""
    bad = []
    for row in run.c.rows.get("resources", []):
        if row["table_id"] != t.id or row["status"] == "flagged":
            continue
        probs = []
        for kind, req, lim in (("CPU", "cpu_request_cores", "cpu_limit_cores"), ("memory", "mem_request_gib", "mem_limit_gib")):
            if row.get(req) is not None and row.get(lim) is not None and row[req] > row[lim]:
                probs.append(f"{kind} request {row['raw_' + req.split('_')[0] + '_request']} > limit {row['raw_' + lim.split('_')[0] + '_limit']}")
        if row.get("replicas_min") is not None and row.get("replicas_max") is not None and row["replicas_min"] > row["replicas_max"]:
            probs.append(f"Min Replicas {row['replicas_min']} > Max Replicas {row['replicas_max']}")
        if probs:
            bad.append((row, probs))
    by_line: dict[int, list] = {}
    for row, probs in bad:
        by_line.setdefault(row["line"], []).append((row, probs))
    for line, items in by_line.items():
        raw = next(r.text.strip() for r in t.rows if r.line == line)
        probs = []
        for row, ps in items:
            probs += [p for p in ps if p not in probs]
        eid = run.erratum(t, lines=[line], where=f"row '{items[0][0]['row_label']}'",
                          kind="impossible-value", raw=raw, problem="; ".join(probs) + ": not a valid Kubernetes allocation.",
                          action="flagged-excluded",
                          reason="Which of the values is wrong cannot be told; the row is kept as printed and left out of calculations.")
        for row, _ in items:
            row["status"] = "flagged"
            row.setdefault("_notes", []).append(eid)


def _row_specials(run: _Run, t, r, cells: list[str], nm: dict) -> dict | None:
    """Misaligned or short rows (notes 4.6): the reading for each, with its erratum."""
    line = r.line
    if t.id == "3-115" and r.cells[0] == "AM Service":
        eid = run.erratum(
            t, lines=[line], where="row 'AM Service'", kind="missing", raw=r.text.strip(),
            problem="The Memory Request cell is missing and the following values shifted left: the replica count 12 stands "
                    "under 'Memory Resource per Container (Request)', the Istio CPU 3 under 'Replica Count' and the Istio "
                    "memory 2Gi under 'Request/Limit Istio CPU'; the last two cells are empty.",
            action="read-as", reading="CPU limit 6, CPU request 6, memory limit 10Gi, memory request not printed, replicas 12, "
                                      "Istio CPU 3, Istio memory 2Gi",
            reason="'12' is the only memory cell of the table without a unit, '2Gi' cannot be a CPU value, and Table 3-127 "
                   "prints the same row in full: AM Service | 6 | 6 | 10Gi | 10Gi | 12 | 3 | 2 Gi.")
        return {"cells": [cells[0], cells[1], cells[2], cells[3], "", cells[4], cells[5], cells[6]], "status": "corrected",
                "notes": [eid]}
    if t.id == "3-151" and r.cells[0] == "ndbmysqld":
        eid = run.erratum(
            t, lines=[line], where="row 'ndbmysqld'", kind="missing", raw=r.text.strip(),
            problem="7 cells for 8 columns: one memory cell is missing, so 12 (the replica count) stands under Memory "
                    "Request, 5000m under Replica Count and 4Gi under Istio CPU.",
            action="read-as", reading="CPU 4/4, memory limit 154Gi, memory request not printed, replicas 12, Istio CPU 5000m, "
                                      "Istio memory 4Gi",
            reason="Replica counts, millicore CPU and Gi memory are unmistakable by their form; the Istio values match the "
                   "ndbappmysqld and ndbmtd rows. Which memory value (limit or request) was lost cannot be told; 154Gi is "
                   "kept under Limit where it is printed (it also differs from 54Gi in 3-93/3-105).")
        return {"cells": [cells[0], cells[1], cells[2], cells[3], "", cells[4], cells[5], cells[6]], "status": "corrected",
                "notes": [eid]}
    if t.id == "3-161" and r.cells[0] == "Audit Service":
        eid = run.erratum(
            t, lines=[line], where="row 'Audit Service'", kind="inconsistent-values", raw=r.text.strip(),
            problem="Site2 prints 2 | 2 | 2 | 4 | 4 against Site1 'Audit Service | 2 | 2 | 4 | 4 | 2' (3-160): read "
                    "limit-first this is memory limit 2 below request 4 and 4 replicas, which looks like a shifted row.",
            action="flagged-excluded",
            reason="Whether the cells shifted or Site2 really differs cannot be told; kept as printed and left out of calculations.")
        return {"status": "flagged", "notes": [eid]}
    if t.id == "3-163" and r.cells[0] == "ndbmysqld":
        eid = run.erratum(
            t, lines=[line], where="row 'ndbmysqld'", kind="name", raw="ndbmysqld",
            problem="The only row without the 'Site2-' prefix and the '/container' suffix.",
            action="read-as", reading="Site2-ndbmysqld/mysqlndbcluster",
            reason="It stands between Site2-ndbmysqld/istio-proxy and Site2-ndbmysqld/init-sidecar, where Site1 (3-162) has "
                   "Site1-ndbmysqld/mysqlndbcluster with the same values (6 | 4 | 4 | 16Gi | 16Gi).")
        return {"site": "site2", "container": "mysqlndbcluster", "status": "corrected", "notes": [eid]}
    if t.id in ("3-129", "3-130") and len(r.cells) < len(t.header):
        eid = run.erratum(
            t, lines=[line], where=f"row '{r.cells[0]}'", kind="format", raw=r.text.strip(),
            problem=f"{len(r.cells)} cells for {len(t.header)} columns: the two Istio cells are absent.",
            action="noted", reason="The absent cells are read as blank (nothing printed); the pod's Istio sidecar is given "
                                   "on its mysqlndbcluster row.")
        return {"notes": [eid]}
    return None


def _resources_3_82(run: _Run, t, scen: str) -> None:
    """Table 3-82: five values under seven value headers in every row."""
    c = run.c
    eid = run.erratum(
        t, lines=[r.line for r in t.rows], where="all rows", kind="format",
        raw=_rows_raw(t, [r.line for r in t.rows]),
        problem="Every row prints five values under seven value headers (CPU Request, CPU Limit, Memory Request (Gi), Memory "
                "Limit (Gi), Replicas, Istio CPU, Istio Memory); read as headed, memory limit 5 Gi would be below the "
                "request 12 and the CPU limit 129 cores would exceed a server.",
        action="read-as",
        reading="CPU (one value), memory in GiB (one value), replicas, Istio CPU (request = limit), Istio memory in GiB",
        reason="The same pods in Table 3-117 read ndbappmysqld 12 / 20Gi / 12 replicas / Istio 5, 5Gi and ndbmtd 12 / 129Gi / "
               "10 / Istio 6, 6Gi, identical to this reading; ndbmysqld memory 54 matches 3-69 and 3-93. CPU and memory are "
               "stored as undifferentiated values (cpu_cores, mem_gib) because the row does not say request or limit.")
    for i, r in enumerate(t.rows, 1):
        nm = run.name(t, r)
        v = [x for x in r.cells[1:] if x != ""]
        if len(v) != 5:
            raise CellError(f"3-82 line {r.line}: expected five values, got {v}")
        cpu, mem, rep, icpu, imem = v
        common_ = dict(scenario=scen, table_id=t.id, row=i, line=r.line, row_label=r.cells[0], site=None,
                       component=nm["component"], service=nm["service"], replicas=integer(rep), raw_replicas=rep,
                       status="corrected")
        c.add("resources", container="app", is_sidecar=False, cpu_cores=cpu_cores(cpu), raw_cpu=cpu, mem_gib=mem_gib(mem),
              raw_mem=mem, note=eid, **common_)
        c.add("resources", container="istio-proxy", is_sidecar=True, cpu_request_cores=cpu_cores(icpu),
              cpu_limit_cores=cpu_cores(icpu), raw_cpu_request=icpu, raw_cpu_limit=icpu, mem_request_gib=mem_gib(imem),
              mem_limit_gib=mem_gib(imem), raw_mem_request=imem, raw_mem_limit=imem,
              note=f"Istio sidecar values of this row; {eid}", **common_)
        run.service(nm["component"], nm["service"], nm["alias"])


# ====================================================================== utilization
XY_RE = re.compile(r"(\d+(?:\.\d+)?)%(%?)(/?)(\d+(?:\.\d+)?)%")
NOT_HPA_XY = {"3-94", "3-95"}


def _util_header(t, h: str, run: _Run, header_errata: dict) -> tuple[str | None, str]:
    x = h.lower()
    site = None
    m = re.search(r"site\s*-?\s*(\d+)", x)
    if m:
        site = f"site{int(m.group(1))}"
    if "memory" in x and "cpu" in x:
        if h not in header_errata:
            header_errata[h] = run.erratum(
                t, lines=[t.header_line], where=f"header '{h}'", kind="typo", raw=h,
                problem="The header names both Memory and CPU.", action="read-as", reading="Memory (Site 1)",
                reason="The columns alternate CPU, Memory per site ('CPU (Site 1)', then this, then 'CPU (Site 2)', "
                       "'Memory (Site 2)'), and its values (e.g. ndbmtd/mysqlndbcluster 81.17%) match the memory column of "
                       "Site 2 (79.71%) and of Table 3-132 (81.13%).")
        return site, "memory"
    return site, "memory" if "memory" in x else "cpu"


def _utilization(run: _Run, t) -> None:
    """One utilization table onto utilization.csv: its headers (site, metric; a header naming both Memory and CPU
    read with its erratum), its table-wide errata, one row per value cell of each printed row, then one erratum per
    kind of cell defect met in the table. The errata are recorded in this order, which fixes their ids."""
    scen = run.scenario_of(t)
    header_errata: dict[str, str] = {}
    heads = [(h,) + _util_header(t, h, run, header_errata) for h in t.header[1:]]
    groups: dict[str, dict] = {}   # defect kind -> {"lines": [...], "raw": [...], "rows": [...]} grouped per table
    table_notes = _util_table_errata(run, t)
    for i, r in enumerate(t.rows, 1):
        nm, notes_row, status_row = _util_row_name(run, t, r)
        cells = r.cells[1:]
        if len(cells) != len(heads):
            raise CellError(f"{t.id} line {r.line}: {len(cells)} value cells for {len(heads)} columns")
        row_notes = list(table_notes) + notes_row
        for (h, site, metric), cell in zip(heads, cells):
            notes = list(row_notes) + ([header_errata[h]] if h in header_errata else [])
            row = dict(scenario=scen, table_id=t.id, row=i, line=r.line, row_label=r.cells[0], site=site,
                       component=nm["component"], service=nm["service"], container=nm["container"], metric=metric,
                       column_label=h, raw=cell, percent_basis="unstated")
            _add_util_cell(run, t, r, row, cell, status_row, notes, groups)
        run.service(nm["component"], nm["service"], nm["alias"])
    _util_defect_errata(run, t, groups)
    _finish_notes(run.c, t)


def _util_table_errata(run: _Run, t) -> list[str]:
    """The errata of a whole utilization table, noted on every one of its rows: X/Y cells whose Y is no HPA target
    (NOT_HPA_XY) and Tables 3-152/3-153's list-literal cells."""
    table_notes: list[str] = []
    if t.id in NOT_HPA_XY:
        table_notes.append(run.erratum(
            t, lines=[t.header_line] + [r.line for r in t.rows], where="all cells", kind="inconsistent-values",
            raw=" | ".join(t.header) + "\n" + next(r.text.strip() for r in t.rows
                                                   if r.cells[0] == ("ocpcf-appinfo" if t.id == "3-94" else "ndbmgmd")),
            problem="The header says 'CPU (X/Y)' as in the other X/Y tables, but Y is not an HPA target: HPA targets are whole "
                    "percentages set per service (80%, 60%, 50%, 40%, 30% elsewhere), while Y here is a different two-decimal "
                    "value in every cell (25.78%, 17.13%, 46.89%) and differs between sites. It looks like a second measurement "
                    "(probably memory) but the source does not say.",
            action="read-as", reading="observed_percent = X (CPU); Y kept only in raw, target_percent left empty",
            reason="Only X is certainly the CPU observation the header announces; storing Y as a target would be wrong and "
                   "storing it as memory would be a guess."))
    if t.id == "3-152" or t.id == "3-153":
        table_notes.append(run.erratum(
            t, lines=[r.line for r in t.rows], where="all cells", kind="format",
            raw=t.rows[0].cells[1], problem="Every cell is a Python list literal wrapping 'absolute (percent%)' "
                                             "(serialisation artefact); no unit is printed for the absolute value.",
            action="read-as",
            reading="observed_abs = the number before the parenthesis (CPU in cores, memory in GiB, summed over the "
                    "service's pods), observed_percent = the percentage",
            reason="Absolute / percent gives replicas x per-pod allocation of Table 3-150 (appinfo CPU 0.100/2.50% = 4 = 2 x 2 "
                   "cores; memory 0.520/25.98% = 2.0 = 2 x 1 Gi; UDR connector user-service 6.971/14.52% = 48 = 8 x 6 cores), "
                   "so the values are cores and GiB totals over the pods."))
    return table_notes


def _util_row_name(run: _Run, t, r) -> tuple[dict, list[str], str | None]:
    """Who a utilization row measures: ``(nm, notes, status)``, ``nm`` as ``_Run.name`` gives it, ``notes`` the ids of
    the row's errata and ``status`` "corrected" where its label was read with an erratum (3-131's duplicated
    alternate-route label, 3-152's two 'user-service' rows), else None. A Policy application container met in
    the cnDBTier table 3-247 is noted."""
    label = r.cells[0]
    notes_row: list[str] = []
    status_row = None
    if t.id == "3-131" and r.line == 1788:
        label_for_name = "ocpcf-occnp-alternate route"
        eid = run.erratum(
            t, lines=[1787, 1788], where="rows 7 and 8", kind="duplicate", raw=r.cells[0],
            problem="Two rows are labelled 'ocpcf-occnp-alternate route/istio'; the app container has no row otherwise.",
            action="read-as", reading="second row = the alternate-route app container",
            reason="Every other service has an '/istio' row followed by its app row; the second row's memory (9.59%, "
                   "9.35%) is of the app's order (Table 3-119: app 9.38%, sidecar 4.88%), not of a sidecar (~5%).")
        notes_row.append(eid)
        status_row = "corrected"
        nm = run.name(t, r, label_for_name)
        nm["container"], nm["is_sidecar"] = "app", False
    elif t.id == "3-152" and label == "user-service":
        # positional: rows follow Table 3-150's order (CHF Connector 6th, UDR Connector after NRF Client Management)
        which = "chf-connector" if r.line == 2101 else "udr-connector"
        eid = run.erratum(
            t, lines=[2101, 2107], where="rows 'user-service' (6 and 12)", kind="name", raw="user-service",
            problem="Two rows carry the same label 'user-service' (the pod name of both the CHF and the UDR connector).",
            action="read-as", reading="row 6 (line 2101) = CHF Connector, row 12 (line 2107) = UDR Connector",
            reason="The rows follow Table 3-150's order (CHF Connector after Alternate Route, UDR Connector after NRF "
                   "Client Management), and absolute/percent gives 2.902/12.09% = 24.0 cores = 4 replicas x 6 (CHF "
                   "Connector) and 6.971/14.52% = 48.0 = 8 x 6 (UDR Connector).") if r.line == 2101 else \
            next(e["id"] for e in run.c.errata if e["table_id"] == "3-152" and e["raw"] == "user-service")
        notes_row.append(eid)
        status_row = "corrected"
        nm = {"site": None, "notes": [], "component": "app", "service": which, "container": "app",
              "is_sidecar": False, "alias": "user-service"}
    else:
        nm = run.name(t, r)
    notes_row += nm["notes"]
    if nm["component"] == "app" and nm["container"] == "app" and t.id in ("3-247",):
        eid = run.erratum(t, lines=[r.line], where=f"row '{label}'", kind="other", raw=r.text.strip(),
                          problem="A Policy application container is listed in the cnDBTier utilization table.",
                          action="noted", reason="Mapped as the Policy Diameter Gateway (component app).")
        notes_row.append(eid)
    return nm, notes_row, status_row


def _add_util_cell(run: _Run, t, r, row: dict, cell: str, status_row: str | None, notes: list[str],
                   groups: dict) -> None:
    """One utilization row (``row``: its scenario, table, site, service, metric and raw cell) with the cell read
    (``_util_cell``: percent, X/Y, absolute (percent)) and its status; a defective cell joins its defect's group in
    ``groups`` (kind -> lines, raw cells, rows), which ``_util_defect_errata`` records once per table."""
    c = run.c
    res = _util_cell(t, cell)
    st = res.pop("status")
    defect = res.pop("defect", None)
    if defect:
        g = groups.setdefault(defect, {"lines": [], "raw": [], "rows": []})
        if r.line not in g["lines"]:
            g["lines"].append(r.line)
        g["raw"].append(cell)
        g["rows"].append(row)
    if st == "ok" and status_row:
        st = status_row
    if t.id in ("3-152", "3-153") and st == "ok":
        st = "corrected"
    if res.get("abs_unit") == "_abs":
        res["abs_unit"] = "cores" if row["metric"] == "cpu" else "GiB"
    row.update(res)
    row["status"] = st
    row["_notes"] = notes
    c.add("utilization", **row)
    row_ref = c.rows["utilization"][-1]
    if defect:
        g["rows"][-1] = row_ref


# A utilization cell's defect -> (erratum kind, problem, action, reading, reason, status of its rows); '{ex}' is the
# first such cell of the table.
UTIL_DEFECTS = {
    "no-slash": ("format", "X/Y cell printed without its slash ('{ex}').", "read-as",
                 "X as observed and Y as the HPA target", "The two percentages are unambiguous; X/Y cells elsewhere "
                 "in the chapter print them with a slash ('0%/80%').", "corrected"),
    "double-percent": ("format", "Doubled percent sign in an X/Y cell ('{ex}').", "read-as",
                       "0.10% with Y as in the rest of the table", "A doubled '%' carries no meaning.", "corrected"),
    "apostrophe": ("format", "Stray apostrophe before or after a percentage.", "read-as",
                   "the percentage without the apostrophe", "Quote marks are an export artefact.", "corrected"),
    "leading-dot": ("format", "Percentage without its leading zero ('{ex}').", "read-as", "0{ex}",
                    "A number cannot start with its decimal point; every other cell of the table has the leading zero.", "corrected"),
    "no-percent": ("format", "Value printed without '%' in a percentage column ('4.20').", "read-as", "4.20%",
                   "Every other cell of the column is a percentage and 4.20 is of the order of the same container's "
                   "other site (2.50%) and of 3-119 (2.65%, 4.40%).", "corrected"),
    "impossible": ("impossible-value", "Utilization above 100% of a container's allocation.", "flagged-excluded", None,
                   "Kept as printed (observed_percent as printed) and left out of calculations; the intended value "
                   "cannot be recovered.", "flagged"),
}


def _util_defect_errata(run: _Run, t, groups: dict) -> None:
    """One erratum per kind of cell defect met in a utilization table (UTIL_DEFECTS), noted on its rows, which read
    as flagged (impossible values) or corrected."""
    for key, g in groups.items():
        ek, problem, action, reading, reason, st = UTIL_DEFECTS[key]
        ex = g["raw"][0]
        problem, reading = problem.replace("{ex}", ex), (reading or "").replace("{ex}", ex) or None
        if key == "impossible" and t.id == "3-132":
            problem += " ndbmtd/mysqlndbcluster at Site 2 prints 5110.41% CPU, while Site 2 carries no traffic in 3.2.6 " \
                       "and Site 1 shows 0.69%."
        if key == "impossible" and t.id == "3-196":
            problem += " ndbmtd prints 22530% and 7280% of CPU against the 80% target at Sites 1 and 2 (Sites 3/4: 16%, 7%)."
        eid = run.erratum(t, lines=sorted(g["lines"]), where=f"{len(g['raw'])} cell(s)", kind=ek, raw="\n".join(g["raw"]),
                          problem=problem, action=action, reading=reading, reason=reason)
        for row in g["rows"]:
            row["_notes"].append(eid)
            row["status"] = "flagged" if st == "flagged" else ("corrected" if row["status"] in ("ok", "corrected") else row["status"])


def _util_cell(t, cell: str) -> dict:
    s = cell.strip()
    if s in ("None", "['NA']", "NA", ""):
        return {"status": "missing"}
    if s == "-":
        return {"status": "not_applicable"}
    m = re.fullmatch(r"\['(.*)'\]", s)
    if m:
        v, p = abs_and_percent(m.group(1))
        return {"status": "ok", "observed_abs": v, "observed_percent": p, "abs_unit": "_abs"}
    m = XY_RE.fullmatch(s)
    if m:
        x, dbl, slash, y = m.groups()
        out = {"observed_percent": num(x)}
        if t.id not in NOT_HPA_XY:
            out["target_percent"] = num(y)
        out["status"] = "ok"
        if dbl:
            out["defect"] = "double-percent"
        elif not slash:
            out["defect"] = "no-slash"
        if num(x) > 100:
            out["defect"] = "impossible"
        return out
    if "'" in s:
        v = percent(s.replace("'", ""))
        return {"status": "ok", "observed_percent": v, "defect": "apostrophe"}
    if re.fullmatch(r"\.\d+%", s):
        return {"status": "ok", "observed_percent": num("0" + s[:-1]), "defect": "leading-dot"}
    if re.fullmatch(r"\d+\.\d+", s):
        return {"status": "ok", "observed_percent": num(s), "defect": "no-percent"}
    v = percent(s)
    out = {"status": "ok", "observed_percent": v}
    if v > 100:
        out["defect"] = "impossible"
    return out


# ====================================================================== known defects (noted)
def _known_errata(run: _Run, by_id: dict) -> None:
    """Defects found by reading the tables that change no value (action noted / kept-as-printed)."""
    c = run.c

    def note_rows(tid, lines, eid, kind="utilization", flag=False):
        for row in c.rows.get(kind, []):
            if row["table_id"] == tid and row["line"] in lines:
                row["note"] = (row["note"] + "; " if row.get("note") else "") + eid
                if flag:
                    row["status"] = "flagged"

    def E(tid, **e):
        if tid not in by_id:
            return None
        return run.erratum(by_id[tid], **e)

    def rows_raw(tid, lines):
        return _rows_raw(by_id[tid], lines) if tid in by_id else ""

    eid = E("3-177", lines=[2561, 2562], where="rows 'NRF Client NF Management' and 'NRF Client NF Management Istio', Site1",
            kind="inconsistent-values", raw=rows_raw("3-177", [2561, 2562]),
            problem="The app and sidecar rows look swapped: every other sidecar row of the table has 10-45% memory and the "
                    "app row the higher value, and the Istio row comes after the app row only here.",
            action="kept-as-printed", reason="A swap is likely but not certain; the values stay on the rows that print them.")
    if eid:
        note_rows("3-177", {2561, 2562}, eid)
    for tid, lines in (("3-195", [2896, 2897]), ("3-204", [3031, 3032]), ("3-222", [3302])):
        raw = rows_raw(tid, lines)
        eid = E(tid, lines=lines, where="Site2 cells of ocpcf-pcrf-core-hpa / ocpcf-query-service-hpa", kind="inconsistent-values",
                raw=raw, problem="At Site2 the HPA targets of PCRF Core (40% elsewhere) and Query Service (80% elsewhere) "
                                 "appear exchanged (PCRF Core x/80%, Query Service x/40%).",
                action="kept-as-printed", reason="Probably swapped cells; kept on the rows that print them.")
        if eid:
            note_rows(tid, set(lines), eid)
    eid = E("3-106", lines=[1387], where="row 'ocpcf-ocpm-audit-service'", kind="inconsistent-values",
            raw="ocpcf-ocpm-audit-service | 0%/50% | 0%/50% |",
            problem="HPA target 50% where every other table gives the audit service 60%.", action="kept-as-printed")
    if eid:
        note_rows("3-106", {1387}, eid)
    for tid in ("3-258", "3-268"):
        t = by_id.get(tid)
        if not t:
            continue
        lines = [r.line for r in t.rows if r.cells[0].startswith("ndbmtd/")]
        eid = E(tid, lines=lines, where="ndbmtd rows, CPU", kind="duplicate",
                raw=_rows_raw(t, lines),
                problem=f"Table {tid}: the three ndbmtd containers print the same CPU 35.1% (copied down the column); a backup executor "
                        "at 35% CPU is implausible. Tables 3-258 and 3-268 (scenarios 3.5.2 and 3.6.1) are identical.",
                action="kept-as-printed", reason="Kept as printed; the true per-container values cannot be recovered.")
        note_rows(tid, set(lines), eid)
    for tid, lines, raw, problem in (
            ("3-162", [2275], "Site1-ndbappmysqld/db-infra-monitor-svc | 16 | NA | NA | NA | 20Gi |",
             "A monitor sidecar with 20Gi memory request and NA elsewhere; the same container gets 100m/256Mi in Table 3-50."),
            ("3-232", [3420], "Site1-ndbappmysqld/db-infra-monitor-svc | 5 | NA | NA | NA | 19Gi |",
             "A monitor sidecar with 19Gi memory request and NA elsewhere; the same container gets 100m/256Mi in Table 3-50."),
            ("3-233", [3438], "Site2-ndbappmysqld/db-infra-monitor-svc | 5 | NA | NA | NA | 19Gi |",
             "A monitor sidecar with 19Gi memory request and NA elsewhere; the same container gets 100m/256Mi in Table 3-51.")):
        eid = E(tid, lines=lines, where="row db-infra-monitor-svc", kind="inconsistent-values", raw=raw, problem=problem,
                action="flagged-excluded", reason="Probably the mysqlndbcluster memory copied into the sidecar row; kept as "
                                                 "printed and left out of calculations.")
        note_rows(tid, set(lines), eid, kind="resources", flag=True)
    eid = E("3-161", lines=[2261, 2262], where="rows 'AM Service' and 'AM Service Istio'", kind="inconsistent-values",
            raw=rows_raw("3-161", [2261, 2262]),
            problem="The sidecar row prints 1 replica against 2 for its own pod; a sidecar runs in every replica.",
            action="kept-as-printed", reason="Both replica counts are kept as printed.")
    if eid:
        note_rows("3-161", {2261, 2262}, eid, kind="resources")
    eid = E("3-266", lines=[3933], where="row 'db-backup-manager-svc', memory", kind="unit",
            raw="db-backup-manager-svc | 1 | 0.1 | 0.1 | 0.128 | 0.128 |",
            problem="0.128 under '(Gi)' looks like 128Mi written in thousandths (128Mi = 0.125 GiB).",
            action="kept-as-printed", reason="Read literally as 0.128 GiB; the difference from 0.125 is 3 MiB.")
    if eid:
        note_rows("3-266", {3933}, eid, kind="resources")
    for tid, problem in (
            ("3-164",
             "The table stops after CM Service: no rows for PDS, PRE, Query Service, AM Service, UE Policy Service or "
             "PerfInfo, all allocated in Table 3-160."),
            ("3-165",
             "No rows for ndbappmysqld, ndbmgmd, ndbmtd or ndbmysqld, all allocated in Table 3-162."),
            ("3-95", "No ndbmysqld row, although Table 3-93 allocates 12 replicas."),
            ("3-257", "No Binding or Performance rows, although Table 3-255 allocates both.")):
        t = by_id.get(tid)
        if t:
            # the rows the table does print, so the absence can be checked
            E(tid, lines=[r.line for r in t.rows], where="whole table", kind="missing",
              raw=_rows_raw(t, [r.line for r in t.rows]), problem=problem,
              action="noted", reason="Nothing is filled in for the missing services.")
    for tid in ("3-187", "3-188", "3-195", "3-196", "3-204", "3-205", "3-213", "3-214", "3-222", "3-223"):
        t = by_id.get(tid)
        if t:
            E(tid, lines=[t.first_line, t.header_line], where="caption vs header", kind="contradiction",
              raw=f"{t.caption}\n{' | '.join(t.header)}",
              problem="The caption announces CPU/Memory utilization but the table has CPU (X/Y) columns only.",
              action="noted", reason="Only CPU rows are produced; no memory value exists for these runs.")
    for tid in ("3-55", "3-165", "3-235"):
        t = by_id.get(tid)
        if t:
            E(tid, lines=[t.first_line, t.header_line], where="caption vs header", kind="contradiction",
              raw=f"{t.caption}\n{' | '.join(t.header)}",
              problem="The caption says 'Observed CPU utilization' but the table also has Memory columns.",
              action="noted", reason="Metrics are read from the column headers (CPU and memory rows).")
    t = by_id.get("3-49")
    if t:
        lines = [r.line for r in t.rows if r.cells[0].endswith("/istio-proxy")]
        E("3-49", lines=lines, where="rows '.../istio-proxy'", kind="contradiction",
          raw="UDR-Site1-ocudr-ingressgateway-sig/istio-proxy | 9 | 4000m | 4000m | 1Gi | 1Gi |",
          problem="Scenario 3.1.5 is described as a Non-ASM setup (ASM 'Disable'), yet the UDR allocation lists istio-proxy "
                  "sidecar containers for 12 of its 16 services.",
          action="noted", reason="The sidecar rows are kept as printed (the UDR deployment may run its own mesh); "
                                 "they do not belong to the Policy pods.")
    for tid in ("3-115", "3-116", "3-127", "3-128", "3-140", "3-150"):
        t = by_id.get(tid)
        if not t:
            continue
        lines = [r.line for r in t.rows if len(r.cells) >= 8 and r.cells[6] in ("", "NA") and r.cells[7] in ("", "NA")
                 and r.cells[0] != "AM Service"]
        if not lines:
            continue
        eid = E(tid, lines=lines, where="Istio columns of " + ", ".join(r.cells[0] for r in t.rows if r.line in lines),
                kind="missing", raw="\n".join(r.text.strip() for r in t.rows if r.line in lines),
                problem="The Istio CPU and memory cells are blank for these services although ASM is enabled.",
                action="noted", reason="The sidecar rows are kept with status 'missing' and no values.")
        for row in c.rows["resources"]:
            if row["table_id"] == tid and row["line"] in lines and row["container"] == "istio-proxy":
                row["note"] = (row["note"] + "; " if row.get("note") else "") + eid


def _rows_raw(t, lines) -> str:
    """The printed text of the table rows on ``lines``, one row per line (an erratum's raw quote)."""
    want = set(lines)
    return "\n".join(r.text.strip() for r in t.rows if r.line in want)


def canonical_app_service(label: str) -> str | None:
    """Canonical Policy application service for a printed name ('ocpcf-ocpm-pre', 'PRE Service' -> 'pre'); None when
    the name is not a known Policy service. For other modules of the Policy curation (latency subjects etc.)."""
    k = re.sub(r"\s+Istio$", "", label.strip(), flags=re.I).lower()
    k = re.sub(r"^ocpcf-", "", k)
    k = re.sub(r"(-hpa)?(-v2beta1|-v2)?$", "", k)
    for p in ("occnp-", "ocpm-", "occpm-", "pcf-", "oc-"):
        if k.startswith(p):
            k = k[len(p):]
            break
    return APP_KEY.get(k)


# ====================================================================== entry point
def curate_tables(c: Curated, tables: list, scenario_of) -> set[str]:
    """Add resources/utilization rows, services and errata for every resource-allocation and utilization table in
    ``tables``; append a catalogue entry for each (kind 'resources' or 'utilization') to ``c.tables``; return the set
    of table ids handled."""
    run = _Run(c, scenario_of)
    handled: set[str] = set()
    by_id = {t.id: t for t in tables}
    for t in tables:
        if t.id in RESOURCE_TABLES:
            _resources(run, t)
            c.tables.append(table_entry(t, DOC, scenario_of(t), "resources", category="resource-allocation"))
            handled.add(t.id)
        elif t.id in UTILIZATION_TABLES:
            _utilization(run, t)
            c.tables.append(table_entry(t, DOC, scenario_of(t), "utilization", category="utilization"))
            handled.add(t.id)
    _known_errata(run, by_id)
    for rec in sorted(run.services.values(), key=lambda r: (r["component"], r["service"])):
        c.services.append(rec)
    return handled


def _driver() -> tuple[Curated, set[str]]:
    """Stand-alone run on the seed (what tests use before curation/policy.py exists)."""
    from .common import seed_path
    from .pipetables import segment
    tables = segment(seed_path(DOC))
    c = Curated(DOC)
    handled = curate_tables(c, tables, lambda t: "policy-" + "-".join(t.section.split(".")[:3]) if t.section else None)
    return c, handled


if __name__ == "__main__":
    cur, ids = _driver()
    print(f"tables {len(ids)}; " + ", ".join(f"{k} {len(v)}" for k, v in sorted(cur.rows.items()))
          + f"; errata {len(cur.errata)}; services {len(cur.services)}")
