"""calculators/sidecars.py's count on a small made-up run, every figure worked out by hand in the comments (never from
the code under test). tests/test_sidecars.py holds the same count to the guides' own tables; this run reaches the
rules those tables do not: a test stub printed before the product, a sidecar counted at its pod's printed replica
count (no range), an application counted from a range without a sidecar, and a row without a CPU request."""
from __future__ import annotations

from calculators import sidecars


def _row(service, container="app", component="app", table_id="3-1", row=1, **kw):
    r = {"scenario": "s1", "component": component, "service": service, "container": container,
         "is_sidecar": container == "istio-proxy", "table_id": table_id, "row": row, "row_label": service.title(),
         "site": "", "status": "ok", "replicas": None, "replicas_min": None, "replicas_max": None,
         "cpu_request_cores": None, "cpu_cores": None, "mem_request_gib": None, "mem_gib": None}
    r.update(kw)
    return r


def _bundle():
    """s1 (ASM enabled, traffic at site1), printed in this order:

    * Table 3-9 row 1, a test stub (component 'stub'): 1 replica x 1 core, never counted;
    * Table 3-1 row 2, pcrf app: 3 replicas x 2 cores request, 4 GiB; row 3, its istio-proxy: no replica count of
      its own (the pod's 3 counts), 0.5 cores, 1 GiB: sidecar 3 x 0.5 = 1.5 cores, 3 x 1 = 3 GiB; pod 6 + 1.5 = 7.5
      cores, 12 + 3 = 15 GiB; no range;
    * Table 3-2 row 5, ingress app: replicas printed only as 2-6 (counted at 6), single values 1 core, 2 GiB: pod 6
      cores, 12 GiB, its range the app row's;
    * Table 3-1 row 4, audit app: 2 replicas, no CPU printed at all, 1 GiB request: CPU uncounted, 2 GiB.

    Totals: sidecars 1.5 cores, 3 GiB; all 7.5 + 6 = 13.5 cores, 15 + 12 + 2 = 29 GiB."""
    rows = [
        _row("stub-sbi", component="stub", table_id="3-9", row=1, replicas=1, cpu_request_cores=1, mem_request_gib=1),
        _row("pcrf", row=2, replicas=3, cpu_request_cores=2, mem_request_gib=4),
        _row("pcrf", container="istio-proxy", row=3, cpu_request_cores=0.5, mem_request_gib=1),
        _row("ingress", table_id="3-2", row=5, replicas_min=2, replicas_max=6, cpu_cores=1, mem_gib=2),
        _row("audit", row=4, replicas=2, mem_request_gib=1),
    ]
    return {"scenarios": [{"id": "s1", "asm": "enabled", "sites_with_traffic": ["site1"]}], "resources": rows,
            "resources_excluded": []}


def test_made_up_run_by_hand():
    res = sidecars.sidecar_requests(_bundle(), "s1")
    assert (res["scenario"], res["site"]) == ("s1", "site1")
    assert (res["cpu_sidecar"], res["mem_sidecar"], res["cpu_all"], res["mem_all"]) == (1.5, 3, 13.5, 29)
    ingress_range = {"component": "app", "service": "ingress", "container": "app", "sidecar": False, "table_id": "3-2",
                     "row": 5, "row_label": "Ingress", "min": 2, "max": 6, "used": "max"}
    assert res["ranges"] == [ingress_range]  # the pcrf sidecar counts the pod's printed 3: no range
    assert res["services"] == [
        {"component": "app", "service": "pcrf", "cpu_sidecar": 1.5, "cpu_pod": 7.5, "mem_sidecar": 3, "mem_pod": 15,
         "sidecar": True, "replicas_sidecar": 3, "replica_range": None, "sources": ["3-1/2", "3-1/3"], "partial": False},
        {"component": "app", "service": "ingress", "cpu_sidecar": 0, "cpu_pod": 6, "mem_sidecar": 0, "mem_pod": 12,
         "sidecar": False, "replicas_sidecar": None, "replica_range": ingress_range, "sources": ["3-2/5"],
         "partial": False},
        {"component": "app", "service": "audit", "cpu_sidecar": 0, "cpu_pod": 0, "mem_sidecar": 0, "mem_pod": 2,
         "sidecar": False, "replicas_sidecar": None, "replica_range": None, "sources": ["3-1/4"], "partial": True},
    ]
    assert res["uncounted"] == [
        {"component": "app", "service": "audit", "container": "app", "sidecar": False, "table_id": "3-1", "row": 4,
         "row_label": "Audit", "what": "cpu", "reason": "no CPU request printed"}]
    assert (res["sidecars_partial"], res["partial"], res["sidecars_unknown"]) == (False, True, False)
    assert res["tables"] == ["3-1", "3-2"]  # the stub's Table 3-9 is not counted
    assert sidecars.ranges_text(res) == ""  # no sidecar counted from a range
    assert sidecars.ranges_text(res, sidecars_only=False) == (
        "Replicas printed as a min-max range, counted at the max end (1 row): Table 3-2 row 5 (Ingress, 2-6).")
    assert sidecars.ranges_rows(res, sidecars_only=False) == "Table 3-2 row 5"


def test_a_row_without_memory_is_named_as_memory():
    b = _bundle()
    b["resources"][4].update(cpu_request_cores=0.25, mem_request_gib=None)  # audit: 2 x 0.25 = 0.5 cores, no memory
    res = sidecars.sidecar_requests(b, "s1")
    assert [(u["service"], u["what"], u["reason"]) for u in res["uncounted"]] == [
        ("audit", "memory", "no memory request printed")]
    assert (res["cpu_all"], res["mem_all"]) == (14, 27)  # 13.5 + 0.5 cores; 29 - 2 GiB


def test_no_site_carrying_traffic_and_ranges_in_two_tables():
    """A scenario naming no site carrying traffic: site ''. Two range rows in two tables (3-2 row 5 and, with pcrf's
    app printed as 1-3, Table 3-1 row 2): joined with '; '."""
    b = _bundle()
    b["scenarios"][0]["sites_with_traffic"] = []
    b["resources"][1].update(replicas=None, replicas_min=1, replicas_max=3)
    res = sidecars.sidecar_requests(b, "s1")
    assert res["site"] == ""
    assert sidecars.ranges_rows(res, sidecars_only=False) == "Table 3-1 rows 2, 3; Table 3-2 row 5"
    assert sidecars.ranges_rows(res) == "Table 3-1 row 3"  # by default only the rows with a sidecar (pcrf's row 3)
