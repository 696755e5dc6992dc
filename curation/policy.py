"""Curate the Oracle Converged Policy (PCF/PCRF) Benchmarking Guide, chapter 3 (seed 000) into data/policy/.

Run: ``python -m curation policy``.

The 61 resource-allocation and 48 utilization tables are curated by
``curation.policy_resources.curate_tables`` (imported defensively); ``Builder`` curates every other table (call
models, test parameters, features, interfaces, Helm/cnDBTier parameters, hardware, software, results, latency), the
24 scenario records and the errata of those tables and of the scenario facts. Every reading that is not the literal
text is recorded in errata.yaml.

``Builder`` puts together one class per concern, each in its own module over ``policy_guide.PolicyGuide`` (the
guide's lines, tables and logical rows, and the helpers they share):

* ``policy_settings.Settings``: settings tables (settings.csv);
* ``policy_measurements.Measurements``: call-model and traffic tables, results, database row counts (measurements.csv);
* ``policy_latency.Latency``: latency and replication-delay tables (latency.csv);
* ``policy_errata.TableErrata``: errata over the tables (split rows, captions, typos, duplicates, implausible values);
* ``policy_zero_readings.ZeroReadings``: CPU readings of 0 that cannot be measurements (flagged);
* ``policy_scenarios.Scenarios`` and ``policy_call_models.CallModels``: the scenario records, their call models and
  replication setups (scenarios.yaml);
* ``policy_held_state.HeldState``: the state the services hold and the subscribers each run held.

``Builder.run`` calls them in one fixed order: an erratum's id is its place in that order, so a new erratum is
appended, never inserted.
"""
from __future__ import annotations

import importlib

from .common import CellError, Curated
from .policy_errata import TableErrata
from .policy_guide import logical_rows, scenario_of
from .policy_held_state import HeldState
from .policy_latency import Latency
from .policy_measurements import Measurements
from .policy_scenarios import Scenarios
from .policy_settings import Settings

RESOURCE_IDS = {"3-48", "3-49"}  # resource tables whose captions ('PCRF', 'UDR') do not say so


def classify(t) -> tuple[str, str] | None:
    """(kind, category) for the tables curated here; None for resource/utilization tables."""
    cap = (t.caption or "").lower()
    tid = t.id
    if tid in RESOURCE_IDS or "resource" in cap or "utiliz" in cap:
        return None
    if tid == "3-11":
        return "measurements", "results-summary"
    if "latency" in cap:
        return "latency", "latency"
    if "hardware" in cap:
        return "settings", "hardware"
    if "software" in cap:
        return "settings", "software"
    if "interface" in cap or "inteface" in cap:
        return "settings", "interfaces"
    if "helm" in cap or "optimization param" in cap:
        return "settings", "db-parameters" if ("cndbtier" in cap) else "helm"
    if "configuration" in cap:
        return "settings", "features"
    if "parmeters" in cap or "parameters" in cap or (t.caption is None and t.header[:2] == ["Parameters", "Values"]):
        return "settings", "test-parameters"
    if "call model" in cap or "traffic" in cap or "tps" in cap or "model data" in cap or (
            t.caption is None and t.header[-1] == "TPS"):
        return "measurements", "call-model"
    raise CellError(f"policy table {tid} ({t.caption!r}) has no mapping")


class Builder(Settings, Measurements, Latency, TableErrata, Scenarios, HeldState):
    """The Policy curation: every part over the guide (see the module docstring), run in the order that fixes the
    erratum ids."""

    def run(self) -> Curated:
        c = self.c
        handled: set[str] = set()
        try:
            pr = importlib.import_module("curation.policy_resources")
        except ModuleNotFoundError as ex:
            if ex.name not in ("curation.policy_resources",):
                raise
            pr = None
        if pr is not None:
            handled = set(pr.curate_tables(c, self.tables, scenario_of) or ())
        mine: set[str] = set()
        for t in self.tables:
            if t.id in handled:
                continue
            cls = classify(t)
            if cls is None:
                continue
            kind, cat = cls
            self.lrows[t.id] = logical_rows(t)
            getattr(self, "do_" + kind.replace("-", "_"))(t, cat)
            mine.add(t.id)
        unhandled = [t.id for t in self.tables if t.id not in handled and t.id not in mine]
        if unhandled:
            msg = "policy tables handled by no module: " + ", ".join(unhandled)
            if pr is None:
                print(msg + " (curation.policy_resources is absent)")
            else:
                raise CellError(msg)
        self.split_row_errata()
        self.table_errata()
        self.scenarios()
        self.unprinted_readings()
        self.audit_errata()
        self.zero_reading_errata()
        self.call_model_errata()
        self.held_state()
        order = {t.id: i for i, t in enumerate(self.tables)}
        c.tables.sort(key=lambda e: order.get(e["id"], 10 ** 6))
        return c


def curate() -> Curated:
    return Builder().run()
