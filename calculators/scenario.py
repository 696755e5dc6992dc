"""Facts read from one scenario record of the bundle (``bundle["scenarios"]``), each defined once for
every calculator and page (standard library only).

* ``asm_on(s)``: the scenario runs the service mesh: asm ``enabled``, or ``partial`` (some services
  with sidecars), as curated from the guide (data/<doc>/scenarios.yaml);
* ``traffic_sites(s)``: how many sites carry traffic in the benchmark (at least 1: a guide that names
  no site benchmarked one);
* ``benchmark_load(s)``: the benchmark's total load, load per site x sites carrying traffic, in the
  scenario's ``load_unit`` (TPS, MPS, ...), or None when the guide states no numeric load.
"""
from __future__ import annotations

ASM_ON = ("enabled", "partial")
"""asm values of a scenario with sidecars (data/schemas/scenarios.schema.json: enabled, disabled, partial,
unknown, not_applicable)."""


def asm_on(s: dict) -> bool:
    """True if scenario ``s`` runs ASM (asm 'enabled' or 'partial')."""
    return s.get("asm") in ASM_ON


def traffic_sites(s: dict) -> int:
    """Sites carrying traffic in scenario ``s`` (len of ``sites_with_traffic``), at least 1."""
    return max(1, len(s.get("sites_with_traffic") or []))


def benchmark_load(s: dict) -> float | None:
    """The benchmark's total load of ``s`` (``load_per_site`` x ``traffic_sites``, in ``load_unit``), or None
    when no load per site is stated."""
    per_site = s.get("load_per_site")
    return None if per_site in (None, "") else per_site * traffic_sites(s)
