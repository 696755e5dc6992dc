"""Footprint rules: hand-computed expectations from named tables, one rule per test.

Every expected number below is worked out in the docstring from the guide's tables (via data/), never taken
from the code under test."""
from __future__ import annotations

import copy

import pytest

from calculators import footprint, packing, footprint_report
from calculators.footprint import FootprintError, compute


def row(res, service, container=None):
    rows = [r for r in res["rows"] + res["test_rows"] if r["service"] == service]
    if container is None:
        rows = [r for r in rows if not r["is_sidecar"]] or rows
        return rows[0]
    return next(r for r in rows if r["container"] == container)


def own_load(bundle, sid):
    s = next(x for x in bundle["scenarios"] if x["id"] == sid)
    return s["load_per_site"] * max(1, len(s["sites_with_traffic"]))


# ------------------------------------------------------------------ cnDBTier

def test_data_nodes_kept_at_double_load_with_a_target(bundle):
    """Reported case: policy 3.2.6 at 120,000 TPS, 2 sites, failover, target 70. Table 3-129 (Site1) prints ndbmtd 10,
    ndbmgmd 2, ndbmysqld 6 replicas; ndbmtd memory 81.13 % observed (Table 3-132 row 7). Every site holds a full copy,
    so ndbmtd stays 10 (5 node groups of 2), ndbmgmd 2 and ndbmysqld 6 per site; the old model gave 1, 1, 1."""
    res = compute(bundle, "policy-3-2-6", 120000, sites=2, failover=True, target_cpu_percent=70)
    mtd = row(res, "ndbmtd", "mysqlndbcluster")
    assert mtd["replicas_after"] == 10 and mtd["rule"] == "data-held"
    assert "81.13 %" in mtd["rule_detail"] and "full copy" in mtd["rule_detail"]
    assert row(res, "ndbmgmd", "mysqlndbcluster")["replicas_after"] == 2
    assert row(res, "ndbmysqld", "mysqlndbcluster")["replicas_after"] == 6
    assert {row(res, s, "mysqlndbcluster")["rule"] for s in ("ndbmgmd", "ndbmysqld")} == {"fixed-per-site"}
    # with the target left empty the old model doubled ndbmtd to 20: now it is the same 10
    assert row(compute(bundle, "policy-3-2-6", 120000, sites=2, failover=True), "ndbmtd", "mysqlndbcluster")["replicas_after"] == 10


def test_data_nodes_do_not_shrink_with_a_sites_share(bundle):
    """Reported case: bsf 3.3 with 3 sites and failover: Table 3-26 row 19 prints ndbmtd 12 replicas; the old model gave
    12 -> 4 per site. Each of the 3 sites keeps 12, so the deployment has 36 data nodes."""
    res = compute(bundle, "bsf-3-3", 80000, target_cpu_percent=70, sites=3, failover=True)
    assert row(res, "ndbmtd", "mysqlndbcluster")["replicas_after"] == 12
    assert res["inputs"]["sites_provisioned"] == 3


def test_data_nodes_from_a_data_size(bundle):
    """bsf 3.3 ndbmtd: 64 GiB request per pod (Table 3-26 row 19), memory 86.37 % observed (Table 3-29 row 19, Site1).
    1000 GiB per copy / (64 x 0.8637 = 55.2768 GiB) = 18.09 -> 19 node groups -> 38 data nodes.
    100 GiB / 55.2768 = 1.81 -> 2 node groups -> 4 data nodes, fewer than the baseline's 12 and said so."""
    big = row(compute(bundle, "bsf-3-3", 63000, data_size_gib=1000), "ndbmtd", "mysqlndbcluster")
    assert big["replicas_after"] == 38
    small = row(compute(bundle, "bsf-3-3", 63000, data_size_gib="100"), "ndbmtd", "mysqlndbcluster")
    assert small["replicas_after"] == 4
    assert any("fewer data nodes than the benchmark's 12" in n for n in small["notes"])
    assert any(n.startswith("uncertain") for n in small["notes"])


def test_odd_data_node_count_rounds_up_to_a_whole_node_group(bundle):
    """A baseline of 9 data nodes (edited copy of bsf 3.3's 12) is not whole node groups of NoOfReplicas = 2: 10."""
    b = copy.deepcopy(bundle)
    for r in b["resources"]:
        if r["scenario"] == "bsf-3-3" and r["service"] == "ndbmtd":
            r["replicas"] = 9
    assert row(compute(b, "bsf-3-3", 63000), "ndbmtd", "mysqlndbcluster")["replicas_after"] == 10


def test_replication_nodes_flag_a_changed_topology(bundle):
    """policy 3.2.6 was provisioned on 2 sites; on 3 the replication SQL nodes keep Table 3-129's 6 and say it is uncertain."""
    res = compute(bundle, "policy-3-2-6", 60000, sites_provisioned=3)
    r = row(res, "ndbmysqld", "mysqlndbcluster")
    assert r["replicas_after"] == 6 and any(n.startswith("uncertain") for n in r["notes"])


# ------------------------------------------------------------------ georedundancy

def test_two_ceilings_under_failover(bundle):
    """policy 3.2.6 ue-service (Table 3-127 row 10: 20 replicas, 8-core and 2 GiB requests; Table 3-131 row 35 Site1: CPU
    44.94 %, memory 45.22 %). 120,000 TPS on 2 sites, N+1: normal 60,000 per site (x1), failover 120,000 (x2).
    CPU used 0.4494 x 20 x 8 = 71.904 cores; memory used 0.4522 x 20 x 2 = 18.088 GiB -> x2 / 2 = 18.09 -> 19.
    No target (none printed): the ceilings. normal 71.904 / (8 x 0.40) = 22.47 -> 23; failover 143.808 / (8 x 0.80)
    = 22.47 -> 23: 23, CPU binds (round() would give 22).
    Target 70: normal min(70, 40) = 40 % -> 23; failover min(70, 80) = 70 % -> 143.808 / 5.6 = 25.68 -> 26.
    Ceilings 50 / 100, no target: normal 71.904 / 4 = 17.98 -> 18; failover 143.808 / 8 = 17.98 -> 18; memory 19; both
    below the benchmark's 20: kept at 20 ("the benchmark ran with headroom")."""
    kw = dict(sites=2, failover=True)
    res = compute(bundle, "policy-3-2-6", 120000, **kw)
    assert [(s["state"], s["load"], s["ceiling"]) for s in res["states"]] == [("normal", 60000, 40), ("failover", 120000, 80)]
    ue = row(res, "ue-service", "app")
    assert ue["replicas_after"] == 23 and ue["binding"] == "cpu"
    assert row(compute(bundle, "policy-3-2-6", 120000, target_cpu_percent=70, **kw), "ue-service", "app")["replicas_after"] == 26
    wide = row(compute(bundle, "policy-3-2-6", 120000, normal_ceiling=50, failover_ceiling=100, **kw), "ue-service", "app")
    assert wide["replicas_after"] == 20 and wide["binding"] == "benchmark replicas"


def test_mated_pair_and_bad_ceilings(bundle):
    """Mated pair, 2 sites carrying 120,000: a site carries its mate's 60,000 too: failover 120,000 per site."""
    res = compute(bundle, "policy-3-2-6", 120000, sites=2, redundancy="mated-pair")
    assert [s["load"] for s in res["states"]] == [60000, 120000]
    with pytest.raises(FootprintError, match="normal ceiling"):
        compute(bundle, "policy-3-2-6", 120000, sites=2, failover=True, normal_ceiling=90, failover_ceiling=80)
    with pytest.raises(FootprintError, match="Redundancy"):
        compute(bundle, "policy-3-2-6", 120000, redundancy="n+2")
    with pytest.raises(FootprintError, match="cannot be fewer"):
        compute(bundle, "policy-3-2-6", 120000, sites=3, sites_provisioned=2)


# ------------------------------------------------------------------ ranges, stubs, partial results

def test_min_max_range_rows_are_used_at_the_max_end(bundle):
    """policy 3.2.2 Table 3-81 row 5 prints Egress Gateway replicas '2 / 27' (min / max), 4-core request; Table 3-83
    row 5 Site1: CPU 60 % (HPA target 80 %). Sized from the max end: 0.60 x 27 x 4 = 64.8 cores; at the scenario's
    own load with your 50 % target: 64.8 / (4 x 0.5) = 32.4 -> 33 (round() would give 32); before = 27, counted in totals
    (27 x 4 = 108 cores of the application's baseline)."""
    res = compute(bundle, "policy-3-2-2", own_load(bundle, "policy-3-2-2"), target_cpu_percent=50)
    eg = row(res, "egress-gateway", "app")
    assert eg["replicas_before"] == 27 and eg["replicas_after"] == 33
    assert any("max end" in n for n in eg["notes"])
    assert eg["cpu_request_before"] == 108
    assert {"service": "egress-gateway", "component": "app", "min": 2, "max": 27, "used": "max", "table_id": "3-81",
            "row": 5} in res["ranges"]


def test_stubs_shown_apart_and_out_of_totals(bundle):
    """NEF ME scenario 1, Table 3-2: stubs GMLC, UDM, AF, PCF, BSF, UDR at 3 replicas and NRF at 1 are test rows:
    listed in test_rows, not in rows, and not in the totals or the packing."""
    res = compute(bundle, "nef-me-1", 5000, node_cores=64, node_mem_gib=256)
    names = {r["service"] for r in res["test_rows"]}
    assert {"GMLC", "UDM", "AF", "PCF", "BSF", "NRF", "UDR"} <= names
    assert not names & {r["service"] for r in res["rows"]}
    assert all(r["rule"] == "test" and r["group"] == "test" for r in res["test_rows"])
    prod = {(r["component"], r["service"]): r["replicas_after"] for r in res["rows"] if r["replicas_after"]}
    assert res["packing"]["pod_count"] == sum(prod.values())


def test_partial_result_policy_3_2_7_erratum_e031(bundle):
    """policy 3.2.7 Table 3-140: 13 application rows are flagged by erratum policy-E031 (config-server, egress, ingress,
    nrf-client-nfdiscovery, nrf-client-nfmanagement, am, ue, query, pre, policyds, udr-connector, chf-connector,
    alternate-route), and query-service's sidecar prints no value (policy-E094). The result is partial, lists them
    with table, row and erratum, and its totals read 'at least'."""
    res = compute(bundle, "policy-3-2-7", 75000)
    comp = footprint.completeness(bundle, "policy-3-2-7")
    assert res["partial"] and comp["partial"] and res["totals"]["at_least"]
    e031 = [m for m in comp["missing"] if "policy-E031" in m["errata"]]
    assert len(e031) == 13 and all(m["table_id"] == "3-140" and m["container"] == "app" for m in e031)
    assert {m["service"] for m in e031} >= {"ue-service", "am-service", "policyds", "egress-gateway"}
    assert any(m["service"] == "query-service" and m["container"] == "istio-proxy" and m["errata"] == ["policy-E094"]
               for m in comp["missing"])
    html = footprint_report.result_html(res)
    assert "at least" in html and "policy-E031" in html and "3-140" in html
    # a scenario with every row usable is not partial
    assert footprint.completeness(bundle, "bsf-3-3") == {"partial": False, "missing": []}


def test_asm_scenario_without_sidecar_rows_says_so(bundle):
    """An ASM-enabled scenario whose source prints no sidecar rows (edited copy of bsf 3.3 with its istio-proxy rows
    removed) is partial with 'sidecars unknown, not 0'."""
    b = copy.deepcopy(bundle)
    b["resources"] = [r for r in b["resources"] if not (r["scenario"] == "bsf-3-3" and r["is_sidecar"])]
    comp = footprint.completeness(b, "bsf-3-3")
    assert comp["partial"] and "unknown, not 0" in comp["missing"][0]["reason"]


# ------------------------------------------------------------------ sidecars

def test_sidecar_over_its_limit_warns(bundle):
    """policy 3.2.6 udr-connector sidecar (Table 3-127 row 16: 20 x istio-proxy, 2-core limit; Table 3-131 Site1 CPU
    69.88 %): 0.6988 x 20 x 2 = 27.952 cores. At 120,000 TPS on 2 sites N+1 (x2) with target 70 the application gets
    21 replicas (CPU 35.6 % x 20 x 4 = 28.48 cores; failover 56.96 / 2.8 = 20.34 -> 21): the sidecar needs
    55.904 / 21 = 2.66 cores per pod, above its 2-core limit: a warning."""
    res = compute(bundle, "policy-3-2-6", 120000, sites=2, failover=True, target_cpu_percent=70)
    assert row(res, "udr-connector", "app")["replicas_after"] == 21
    assert any(w.startswith("udr-connector: sidecar istio-proxy would use 2.66 cores") for w in res["warnings"])


# ------------------------------------------------------------------ packing

def test_pod_larger_than_a_node_is_named(bundle):
    """Reported case: bsf 3.3's ndbmtd pod requests 5 + 12 + 0.1 + 0.2 = 17.3 cores (Table 3-26 rows 18-21); a 16-core
    node keeps 15.89 cores after the GKE tiers (0.06 + 0.01 + 0.01 + 12 x 0.0025 = 0.11): no node can take it."""
    with pytest.raises(FootprintError, match=r"Pod ndbmtd requests 17.3 cores.*15.89 cores"):
        compute(bundle, "bsf-3-3", 63000, node_cores=16, node_mem_gib=128)


def test_gke_reservation_tiers():
    """16 cores / 64 GiB: CPU 0.06 + 0.01 + 2 x 0.005 + 12 x 0.0025 = 0.11 cores; memory 4 x 0.25 + 4 x 0.20 + 8 x 0.10
    + 48 x 0.06 = 5.48 GiB, + 100 MiB eviction = 5.48 + 0.09765625 GiB."""
    c, m = packing.reserved(16, 64)
    assert c == packing.Fraction(11, 100)
    assert float(m) == pytest.approx(5.48 + 100 / 1024)


def test_first_fit_decreasing_by_hand():
    """Room 4 cores / 16 GiB (no reservation). A: 2 cores x 3, B: 1.5 cores x 2 -> sorted A A A B B: node 1 = A A (4),
    node 2 = A B (3.5), the second B fits neither (4 + 1.5, 3.5 + 1.5 > 4): node 3. Anti-affinity D (1 core x 3): 3 nodes
    although 3 cores would fit one. Max 2 pods per node, E (0.1 core x 5): 3 nodes. One spare node adds 1."""
    p = dict(reserve="custom")
    res = packing.pack([{"name": "A", "cpu": 2, "mem": 1, "count": 3}, {"name": "B", "cpu": 1.5, "mem": 1, "count": 2}], 4, 16, **p)
    assert res["nodes"] == 3 and [f["pods"] for f in res["fill"]] == [2, 2, 1]
    assert res["fill"][0]["cpu"] == 100 and res["binding"] == "cpu"
    assert packing.pack([{"name": "D", "cpu": 1, "mem": 1, "count": 3, "anti": True}], 4, 16, **p)["nodes"] == 3
    assert packing.pack([{"name": "E", "cpu": 0.1, "mem": 0.1, "count": 5}], 4, 16, max_pods=2, **p)["nodes"] == 3
    assert packing.pack([{"name": "E", "cpu": 0.1, "mem": 0.1, "count": 5}], 4, 16, spare=1, **p)["nodes"] == 2
    with pytest.raises(packing.PackingError, match="no room"):
        packing.pack([], 4, 16, daemonset_cpu=4, **p)


def test_daemonset_overhead_takes_room_on_every_node():
    """Room 4 cores minus a 1-core DaemonSet = 3 cores: A (2 cores x 3) needs 3 nodes instead of 2."""
    assert packing.pack([{"name": "A", "cpu": 2, "mem": 1, "count": 3}], 4, 16, reserve="custom")["nodes"] == 2
    assert packing.pack([{"name": "A", "cpu": 2, "mem": 1, "count": 3}], 4, 16, reserve="custom", daemonset_cpu=1)["nodes"] == 3


def test_custom_reservation_left_blank_reserves_nothing(bundle):
    """A custom node reservation with its two fields left blank reserves 0 cores and 0 GiB: a 16-core / 64 GiB node
    keeps all 16 cores / 64 GiB allocatable (0.5 cores / 1 GiB of DaemonSets aside). A negative reservation is refused
    naming the field and its unit."""
    params = dict(scenario="bsf-3-1", load="44000", node_cores="16", node_mem="64", node_reserve="custom",
                  reserve_cpu="", reserve_mem="", ds_cpu="0.5", ds_mem="1")
    html = footprint_report.run_web(bundle, params)["html"]
    assert "; allocatable 16 cores / 64 GiB after your reservations, DaemonSets 0.5 cores / 1 GiB per node" in html
    node = dict(node_cores=16, node_mem_gib=64, node_reserve="custom")
    with pytest.raises(footprint.FootprintError, match=r"^Reserved CPU must be greater than zero \(cores\); got -1\.$"):
        compute(bundle, "bsf-3-1", 44000, reserve_cpu="-1", **node)
    with pytest.raises(footprint.FootprintError, match=r"^Reserved memory must be greater than zero \(GiB\); got -2\.$"):
        compute(bundle, "bsf-3-1", 44000, reserve_mem="-2", **node)


# ------------------------------------------------------------------ outputs

def test_helm_memory_uses_1024_mi_per_gib(bundle):
    """bsf 3.3 Table 3-26: db-infra-monitor-svc requests 0.25 GiB = 256Mi (1000 per GiB would print 250Mi); ndbmtd
    64 GiB prints as 64Gi; and the data nodes' replicaCount is 12, not 1."""
    helm = footprint_report.result_helm(compute(bundle, "bsf-3-3", 80000, target_cpu_percent=70))
    assert 'memory: "256Mi"' in helm and 'memory: "250Mi"' not in helm
    assert "ndbmtd:\n  replicaCount: 12" in helm
    assert footprint_report._mem(1.5) == '"1536Mi"'


def test_normal_ceiling_caps_a_higher_target(bundle):
    """policy 3.2.6 ue-service (as in test_two_ceilings_under_failover: 71.904 cores, 18.088 GiB used at 60K per site).
    180,000 TPS on 3 sites, N+1: normal 60,000 per site (x1), failover 90,000 (x1.5). Target 70:
    normal min(70, 40) = 40 % -> 71.904 / 3.2 = 22.47 -> 23; failover 70 % -> 107.856 / 5.6 = 19.26 -> 20;
    memory 18.088 x 1.5 / 2 = 13.57 -> 14: the normal ceiling binds, 23 (a 70 % target alone would give 20)."""
    res = compute(bundle, "policy-3-2-6", 180000, sites=3, failover=True, target_cpu_percent=70)
    assert [s["load"] for s in res["states"]] == [60000, 90000]
    assert row(res, "ue-service", "app")["replicas_after"] == 23


def test_a_row_printed_usable_at_another_site_is_not_missing(bundle):
    """policy 3.2.6: config-server's application row is flagged at Site2 (Table 3-128 row 4, policy-E024) but usable at
    Site1 (Table 3-127 row 4), so it is sized; only query-service's sidecar, printed at neither site (policy-E092,
    policy-E093), is missing."""
    comp = footprint.completeness(bundle, "policy-3-2-6")
    assert [(m["service"], m["container"]) for m in comp["missing"]] == [("query-service", "istio-proxy")]
    assert comp["missing"][0]["errata"] == ["policy-E092"]


def test_simulators_without_values_leave_no_gap(bundle):
    """Policy 3.1.5, Table 3-48 rows 1 (NRFsim) and 23 (UDMsim): simulators printed with NA requests (status missing).
    Simulators are never in production totals, so the scenario is complete; a real service with NA would not be."""
    c = footprint.completeness(bundle, "policy-3-1-5")
    assert c["partial"] is False and c["missing"] == []
    excluded = [x for x in bundle["resources_excluded"] if x["scenario"] == "policy-3-1-5"]
    assert {x["service"] for x in excluded} >= {"nrfsim", "udmsim"}


def test_headroom_floor_scales_down_below_the_benchmark_load(bundle):
    """BSF 3.3 at half its load (31,500 TPS, x0.5), target 70 %. BSF Management Service: Table 3-25 row 2 gives 14
    replicas of 4 cores / 1 GiB request; Table 3-28 row 4 prints 27.72 % CPU and 57.52 % memory at Site1.
    Used: 0.2772 x 14 x 4 = 15.5232 cores, 0.5752 x 14 x 1 = 8.0528 GiB. CPU: 15.5232 x 0.5 / (4 x 0.70) = 2.77 -> 3;
    memory: 8.0528 x 0.5 / 1 = 4.03 -> 5. The target gives 5, below the benchmark's 14 pods scaled to half the load:
    ceil(14 x 0.5) = 7 is kept (no pod carries more load than measured) and the row says so. At 63,000 TPS it is 14."""
    half = compute(bundle, "bsf-3-3", 31500, target_cpu_percent=70)
    r = next(x for x in half["rows"] if x["service"] == "BSF Management Service" and x["container"] == "app")
    assert (r["replicas_before"], r["replicas_after"], r["binding"]) == (14, 7, "benchmark replicas")
    assert any("the target gives 5 replicas, kept at 7" in n for n in r["notes"])
    full = compute(bundle, "bsf-3-3", 63000, target_cpu_percent=70)
    r = next(x for x in full["rows"] if x["service"] == "BSF Management Service" and x["container"] == "app")
    assert r["replicas_after"] == 14


def _bands(doc, method, service=None, whole=None):
    """A made-up ``sizing_bands`` entry for one product and method (the held-out backtest's shape)."""
    none = {"none": "made up: no band"}
    return {doc: {method: {"service": service or none, "whole": whole or none}}}


def test_likely_range_of_a_row_from_the_held_out_band(bundle):
    """BSF 3.3 at 126,000 TPS (x2), target 70 %, with a made-up per-service band printed / predicted 0.5 to 2.0 for
    BSF's one-run method. BSF Management Service (Table 3-25 row 2: 14 x 4 cores / 1 GiB; Table 3-28 row 4: 27.72 % CPU,
    57.52 % memory): CPU 15.5232 x 2 / (4 x 0.70) = 11.09 -> 12, memory 8.0528 x 2 / 1 = 16.1 -> 17 (binds). Cores at
    half: 15.5232 x 2 x 0.5 / 2.8 = 5.54 -> 6, still 17 (memory); at twice: 15.5232 x 2 x 2 / 2.8 = 22.18 -> 23. Rows
    that do not follow CPU get no range; without a band the row says so."""
    band = {"lo": 0.5, "hi": 2.0, "comparisons": 40, "k": 4, "expected_coverage": 80.0, "coverage": 80.0}
    res = compute(dict(bundle, sizing_bands=_bands("bsf", "one-run", service=band)), "bsf-3-3", 126000, target_cpu_percent=70)
    r = next(x for x in res["rows"] if x["service"] == "BSF Management Service" and x["container"] == "app")
    assert r["replicas_after"] == 17
    assert (r["range"]["low"], r["range"]["high"]) == (17, 23)
    assert footprint_report.range_text(r["range"]) == "17–23"
    fixed = [x for x in res["rows"] if x["rule"] in ("fixed", "fixed-per-site", "data-held")]
    assert fixed and all(x["range"] is None for x in fixed)
    none = compute(dict(bundle, sizing_bands={}), "bsf-3-3", 126000, target_cpu_percent=70)
    r = next(x for x in none["rows"] if x["service"] == "BSF Management Service" and x["container"] == "app")
    assert "none" in r["range"] and footprint_report.range_text(r["range"]) == "no band"
    assert none["range"]["none"].startswith("no held-out backtest")
    head = [line for line in footprint_report.result_csv(res).splitlines() if not line.startswith(('"#', "#"))][0]
    assert "range_low" in head and "range_high" in head


def test_totals_range_from_the_whole_footprint_band(bundle):
    """The same request with a made-up whole-footprint band 0.5 to 2.0: the totals at each end are the totals with every
    CPU-sized row at its replicas for half and twice its cores. BSF Management Service again: 17 at both halves of
    the band's low end (memory binds), 23 at twice, so its CPU request total goes from 17 x 4 = 68 to 23 x 4 = 92
    cores: the high end of the site's CPU request is at least 24 cores above the result's."""
    band = {"lo": 0.5, "hi": 2.0, "comparisons": 20, "k": 2, "expected_coverage": 81.0, "coverage": 80.0, "covered": 16, "checked": 20}
    res = compute(dict(bundle, sizing_bands=_bands("bsf", "one-run", whole=band)), "bsf-3-3", 126000, target_cpu_percent=70,
                  node_cores=64, node_mem_gib=256)
    rng = res["range"]
    site = res["totals"]["site"]["after"]["cpu_request"]
    assert rng["low"]["site"]["cpu_request"] <= site <= rng["high"]["site"]["cpu_request"]
    assert rng["high"]["site"]["cpu_request"] - site >= 92 - 68
    assert rng["low"]["nodes"] <= res["nodes_per_site"] <= rng["high"]["nodes"]
    assert rng["high"]["deployment"]["cpu_request"] == rng["high"]["site"]["cpu_request"] * res["totals"]["sites"]
    text = footprint_report.headline(res)
    assert f"{res['nodes_per_site']} nodes (likely {rng['low']['nodes']}–{rng['high']['nodes']})" in text


def test_memory_of_a_service_holding_sessions_is_not_scaled_below_the_benchmark(bundle):
    """Policy 3.2.10 at half its load (20,500 TPS), 70 % target. SM Service holds sessions (services.yaml: Table 3-240's
    occnp_pcf_sm.SmPolicyAssociation). Table 3-174 row 36: 64 replicas of 7 cores / 10 GiB; Table 3-177 row 36: 29.44 %
    CPU and 55.17 % memory at Site1. CPU: 0.2944 x 64 x 7 = 131.89 cores x 0.5 / (7 x 0.7) = 13.5 -> 14; benchmark floor
    64 x 0.5 = 32. Memory 0.5517 x 64 x 10 = 353.09 GiB: scaled with the load it would be 17.7 -> 18, but a pod that holds
    sessions keeps what the benchmark used: 35.3 -> 36 (memory binds). With your count of records held against the 10M
    subscribers Table 3-171 prints for 3.2.10: 20,000,000 gives 353.09 x 2 / 10 = 70.6 -> 71; 5,000,000 gives 17.7 -> 18,
    below the floor of 32. A service that holds nothing (Ingress Gateway) is scaled with the load as before."""
    rows = lambda res: {r["service"]: r for r in res["rows"] if r["container"] == "app"}
    sm = rows(compute(bundle, "policy-3-2-10", 20500, target_cpu_percent=70))["sm-service"]
    assert (sm["replicas_after"], sm["binding"]) == (36, "memory")
    assert "it holds sessions: not scaled below the memory the benchmark used" in sm["rule_detail"]
    more = rows(compute(bundle, "policy-3-2-10", 20500, target_cpu_percent=70, sessions="20,000,000"))["sm-service"]
    assert (more["replicas_after"], more["binding"]) == (71, "memory")
    assert "your 20,000,000 / the benchmark's 10,000,000 subscribers" in more["rule_detail"]
    fewer = rows(compute(bundle, "policy-3-2-10", 20500, target_cpu_percent=70, sessions="5000000"))["sm-service"]
    assert (fewer["replicas_after"], fewer["binding"]) == (32, "benchmark replicas")
    ig = rows(compute(bundle, "policy-3-2-10", 20500, target_cpu_percent=70))["ingress-gateway"]
    assert "it holds" not in ig["rule_detail"] and "(assumed to grow with load: conservative)" in ig["rule_detail"]
    with pytest.raises(FootprintError, match="Records held must be"):
        compute(bundle, "policy-3-2-10", 20500, sessions="-3")


def test_one_request_from_the_form_names_every_field():
    """The page's and the command line's parameter names land in the request's typed fields (a swapped pair, e.g.
    the database and sidecar targets, or an unread field, fails here)."""
    form = {"load": "80,000", "scenario": "", "call_model": "policy:pcf-sm", "mode": "Converged", "target": "61",
            "db_target": "62", "sidecar_target": "63", "sites": "2", "sites_provisioned": "3", "failover": "on",
            "redundancy": "n+1", "normal_ceiling": "41", "failover_ceiling": "79", "data_size": "12", "asm": "add",
            "node_cores": "64", "node_mem": "256", "node_reserve": "none", "reserve_cpu": "1.5", "reserve_mem": "7",
            "ds_cpu": "0.25", "ds_mem": "0.5", "max_pods": "110", "spare_nodes": "2", "min_replicas": "3",
            "asm_from": "policy:policy-3-2-8", "sidecar_cpu": "0.5", "sidecar_mem": "0.75", "sessions": "1,000,000"}
    r = footprint.Request.from_form(form)
    assert (r.target_load, r.scenario, r.call_model, r.mode) == ("80,000", None, "policy:pcf-sm", "Converged")
    assert (r.target_cpu_percent, r.db_target_percent, r.sidecar_target_percent) == ("61", "62", "63")
    assert (r.sites, r.sites_provisioned, r.failover, r.redundancy) == ("2", "3", True, "n+1")
    assert (r.normal_ceiling, r.failover_ceiling, r.data_size_gib, r.asm) == ("41", "79", "12", "add")
    assert (r.node_cores, r.node_mem_gib, r.node_reserve, r.reserve_cpu, r.reserve_mem) == ("64", "256", "none", "1.5", "7")
    assert (r.daemonset_cpu, r.daemonset_mem, r.max_pods, r.spare_nodes, r.min_replicas) == ("0.25", "0.5", "110", "2", "3")
    assert (r.asm_from, r.sidecar_cpu, r.sidecar_mem, r.sessions) == ("policy:policy-3-2-8", "0.5", "0.75", "1,000,000")
    assert footprint.Request.from_form({"load": "1", "failover": ""}).failover is False
    assert footprint.Request.from_form({"load": "1"}).node_reserve == "gke"


def test_a_request_naming_a_run_sizes_that_run_and_one_without_sizes_from_the_comparable_runs(bundle):
    one = footprint.size(bundle, footprint.Request(target_load="20000", scenario="bsf-3-1"))
    assert one["inputs"]["scenario"] == "bsf-3-1" and "evidence" not in one
    assert one == compute(bundle, "bsf-3-1", "20000")
    many = footprint.size(bundle, footprint.Request(target_load="20000", call_model="bsf:bsf-nbsf-rx"))
    assert many["evidence"]["call_model"] == "bsf-nbsf-rx" and many["inputs"]["sized_from"] == "comparable runs"
    with pytest.raises(TypeError):
        compute(bundle, "bsf-3-1", "20000", no_such_option=1)
