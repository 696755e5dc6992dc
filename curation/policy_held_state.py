"""What the Policy guide says of the state its services hold: ``holds`` of the services whose database schema the
'Traffic distribution to Policy databases' tables name (sessions, bindings, subscriber data, usage-monitoring
contexts; services.yaml), and ``counts`` of each scenario's 'Active Subscribers' or 'Active User Count' row
(scenarios.yaml), for the footprint's memory floor."""
from __future__ import annotations

from .common import CellError, printed_counts
from .policy_guide import PolicyGuide

DB_SCHEMAS = {
    "occnp_pcf_sm": ("sm-service", "sessions", "SmPolicyAssociation", "ocpcf-pcf-smservice"),
    "occnp_binding": ("binding", "bindings", "contextbinding", "ocpcf-oc-binding"),
    "occnp_policyds": ("policyds", "subscriber-data", "pdssubscriber", "ocpcf-ocpm-policyds"),
    "occnp_pcrf_core": ("pcrf-core", "sessions", "gxsession", "ocpcf-pcrf-core"),
    "occnp_usagemon": ("usage-monitoring", "usage-monitoring-contexts", "UmContext", "Usage Monitoring"),
}
"""Database schema of the 'Traffic distribution to Policy databases' tables -> (service, what it holds, the table
whose row is cited, the printed service name the schema's name matches). The guide names the schemas, not their
services: each is connected by its name alone (occnp_pcf_sm / ocpcf-pcf-smservice). No table of the AM or UE
service is printed, so neither gets one."""
COUNTED = {"Active Subscribers": "subscribers", "Active User Count": "users"}
"""What a bare number of each test-parameter row label counts."""


def _and(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _service_words(display: str) -> str:
    """'SM Service' as is, 'PCRF Core' -> 'PCRF Core service'."""
    return display if display.lower().endswith("service") else display + " service"


def _plural(word: str, items: list) -> str:
    return word + ("s" if len(items) > 1 else "")


class HeldState(PolicyGuide):
    """``held_state``: the services' ``holds`` and the scenarios' subscriber ``counts``."""

    def held_state(self):
        """Which services hold sessions, bindings or subscriber data, and how many each run held (appended after every
        other erratum, so published ids keep their numbers).

        ``holds`` of a service (services.yaml): the 'Traffic distribution to Policy databases' tables (3-240, 3-251,
        3-262) name database schemas and their tables, not services; DB_SCHEMAS connects each schema to the service
        whose printed name it carries, and the cite is the first row naming the schema's main table. ``subscribers``
        of a scenario gets ``counts`` (``common.printed_counts``; a bare number counts what its label names,
        COUNTED) and ``status`` (missing for 'NA'). Raises CellError for a schema or a row label with no reading, a
        service or name that is not in the data, or a main table no row names."""
        c = self.c
        dbt = [t for t in self.tables if (t.caption or "").endswith("Traffic distribution to Policy databases")]
        if [t.id for t in dbt] != ["3-240", "3-251", "3-262"]:
            raise CellError(f"policy: 'Traffic distribution to Policy databases' tables are {[t.id for t in dbt]}")
        printed: dict[str, list] = {}
        for t in dbt:
            for r in self.lrows[t.id]:
                if r.cells[0].endswith("$EX"):
                    continue
                schema, _, table = r.cells[0].partition(".")
                if schema not in DB_SCHEMAS:
                    raise CellError(f"policy Table {t.id} line {r.line}: no service known for schema {schema!r} (DB_SCHEMAS)")
                printed.setdefault(schema, []).append((t, r, table))
        services = {s["service"]: s for s in c.services if s["component"] == "app"}
        names = {}
        for row in c.rows["resources"]:
            names.setdefault(row["row_label"], row["table_id"])
        for schema, (service, what, main, name) in DB_SCHEMAS.items():
            rec = services.get(service)
            if rec is None or name not in rec["aliases"] or name not in names:
                raise CellError(f"policy: schema {schema!r}: service {service!r} or its printed name {name!r} is not in the data")
            hits = printed.get(schema, [])
            first = next(((t, r) for t, r, table in hits if table == main), None)
            if first is None:
                raise CellError(f"policy: no row names {schema}.{main}")
            t, r = first
            tabs = list(dict.fromkeys(table for _, _, table in hits))
            where = list(dict.fromkeys(t2.id for t2, _, _ in hits))
            secs = list(dict.fromkeys(t2.section.rsplit(".", 1)[0] for t2, _, _ in hits))
            rec["holds"] = {
                "what": what,
                "cite": {"text": r.cells[0], "table_id": t.id, "line": r.line, "where": f"Table {t.id}, row '{r.cells[0]}'"},
                "note": (f"{_plural('Table', where)} {_and(where)} ('Traffic distribution to Policy databases', "
                         f"{_plural('scenario', secs)} {_and(secs)}) {'name' if len(where) > 1 else 'names'} the database "
                         f"schema {schema}, with its {_plural('table', tabs)} {_and(tabs)}, but not the service that owns "
                         f"it: the schema is read as that of the {_service_words(rec['display_name'])}, whose name it carries "
                         f"('{name}', Table {names[name]}). The records are rows of cnDBTier tables; the guide does not "
                         "say the service keeps them in its own memory."),
            }
        for sc in c.scenarios:
            sub = sc.get("subscribers")
            if not sub:
                continue
            if sub["label"] not in COUNTED:
                raise CellError(f"policy {sc['id']}: no reading of what row {sub['label']!r} counts (COUNTED)")
            if sub["raw"].strip() == "NA":
                sub.update(counts=[], status="missing")
                continue
            sub.update(counts=printed_counts(sub["raw"], COUNTED[sub["label"]]), status="ok")
            if any(n["what"] == "sessions" for n in sub["counts"]):
                cite = sub["cite"]
                self.E(scenario=sc["id"], table_id=cite["table_id"], lines=[cite["line"]], where=f"row '{sub['label']}'",
                       kind="unit", raw=sub["raw"],
                       problem=f"The row '{sub['label']}' also counts sessions ('{sub['raw']}') without saying which "
                               "sessions.", action="kept-as-printed",
                       reason="Kept as 'sessions': the Traffic Ratio of the same table creates SM sessions and IMS Rx "
                              "sessions, and the guide does not say whether the count is of the first or of both.")
