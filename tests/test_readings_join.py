"""Which printed container a utilization reading reads (``runs.reading_container``): the resource tables of Policy
3.2.5, 3.5.1, 3.5.2 and 3.6.1 print a pod's main container as an unnamed row (curated ``app``), their utilization
tables name it (``mysqlndbcluster``, or the service's own name). Values by hand from the named tables."""
from __future__ import annotations

from fractions import Fraction

import pytest

from calculators import asm, backtest, runs

# Policy 3.2.5, Table 3-117 row 3 (ndbmtd): one row with the pod's own columns and its Istio columns
NDBMTD = [{"service": "ndbmtd", "container": "app", "is_sidecar": False},
          {"service": "ndbmtd", "container": "istio-proxy", "is_sidecar": True}]


def reading(service, container):
    return {"service": service, "container": container}


def test_a_reading_naming_the_main_container_reads_the_unnamed_row():
    # Table 3-120 row 7 'ndbmtd/mysqlndbcluster' and row 6 'ndbmtd/istio-proxy'
    assert runs.reading_container(reading("ndbmtd", "mysqlndbcluster"), NDBMTD) == "app"
    assert runs.reading_container(reading("ndbmtd", "istio-proxy"), NDBMTD) == "istio-proxy"
    # Table 3-247 row 8 'ocpcf-oc-diam-gateway/diam-gateway': named after the service; Table 3-244 row 4 prints the pod
    assert runs.reading_container(reading("diam-gateway", "diam-gateway"),
                                  [{"service": "diam-gateway", "container": "app", "is_sidecar": False}]) == "app"


def test_a_container_the_resource_tables_do_not_print_reads_nothing():
    # Table 3-120 row 3 'ndbappmysqld/init-sidecar': no resource row, no request to turn 2.25 % into cores
    assert runs.reading_container(reading("ndbmtd", "init-sidecar"), NDBMTD) is None
    # another service's name is not this pod's main container
    assert runs.reading_container(reading("ndbmtd", "ndbmgmd"), NDBMTD) is None
    # no unnamed main row: nothing to read (a sidecar-only pod, or a service with no rows at all)
    assert runs.reading_container(reading("ndbmtd", "mysqlndbcluster"), NDBMTD[1:]) is None
    assert runs.reading_container(reading("am-service", "app"), []) is None


def test_a_printed_name_wins_over_the_unnamed_row():
    pod = [{"service": "perf-info", "container": "app", "is_sidecar": False},
           {"service": "perf-info", "container": "perf-info", "is_sidecar": False},
           {"service": "perf-info", "container": "mysqlndbcluster", "is_sidecar": False}]
    assert runs.reading_container(reading("perf-info", "perf-info"), pod) == "perf-info"
    assert runs.reading_container(reading("perf-info", "mysqlndbcluster"), pod) == "mysqlndbcluster"
    assert runs.reading_container(reading("perf-info", "app"), pod) == "app"


def test_joined_keeps_the_printed_container():
    got = runs.joined([reading("ndbmtd", "mysqlndbcluster"), reading("ndbmtd", "init-sidecar")], NDBMTD)
    assert [(u["container"], u["reads"]) for u in got] == [("mysqlndbcluster", "app"), ("init-sidecar", None)]



def test_rows_read_are_the_read_containers_rows_of_its_service_at_every_site():
    # the ndbmtd pod printed for two sites (as Policy 3.2.5 prints one table per site), beside another service's
    # unnamed row: 'ndbmtd/mysqlndbcluster' reads ndbmtd's two unnamed rows, in their order, never ndbmgmd's
    rows = [dict(NDBMTD[0], site="site1", row=3), dict(NDBMTD[1], site="site1", row=3),
            {"service": "ndbmgmd", "container": "app", "is_sidecar": False, "site": "site1", "row": 1},
            dict(NDBMTD[0], site="site2", row=3)]
    assert runs.rows_read(reading("ndbmtd", "mysqlndbcluster"), rows) == [rows[0], rows[3]]
    assert runs.rows_read(reading("ndbmtd", "istio-proxy"), rows) == [rows[1]]
    assert runs.rows_read(reading("ndbmtd", "init-sidecar"), rows) == []
    assert runs.rows_read(reading("am-service", "app"), rows) == []

def test_policy_3_5_1_cndbtier_and_diameter_gateway_cores_used(bundle):
    """Table 3-245: ndbappmysqld 4 replicas x 12 cores, ndbmtd 8 x 8; Table 3-244 row 4: Diameter Gateway 2 x 4.
    Table 3-247: ndbappmysqld/mysqlndbcluster 60.41 % (row 1), ndbmtd/mysqlndbcluster 36.65 % (row 5),
    diam-gateway 18.56 % (row 8). Used: 0.6041 x 4 x 12 = 28.9968, 0.3665 x 8 x 8 = 23.456, 0.1856 x 2 x 4 = 1.4848."""
    used = runs.cores_used(bundle, "policy-3-5-1")
    got = {k: (v["cores"], v["table_id"], v["row"]) for k, v in used.items()
           if k in (("cndbtier", "ndbappmysqld", "app"), ("cndbtier", "ndbmtd", "app"), ("app", "diam-gateway", "app"))}
    assert got == {("cndbtier", "ndbappmysqld", "app"): (Fraction("28.9968"), "3-247", 1),
                   ("cndbtier", "ndbmtd", "app"): (Fraction("23.456"), "3-247", 5),
                   ("app", "diam-gateway", "app"): (Fraction("1.4848"), "3-247", 8)}
    # ndbmtd's db-backup-executor-svc and db-infra-monitor-svc (rows 6, 7) have no resource row in the ndbmtd pod
    assert {k[2] for k in used if k[1] == "ndbmtd"} == {"app"}


def test_policy_3_2_5_ndbmtd_at_its_busiest_site(bundle):
    """Both sites carry traffic. Table 3-117 row 3: 10 replicas, 12 cores, Istio 6 cores. Table 3-120 row 7:
    mysqlndbcluster 44.95 % (site 1), 42.45 % (site 2): 0.4495 x 10 x 12 = 53.94 cores; row 6: istio-proxy 47.02 %,
    31.61 %: 0.4702 x 10 x 6 = 28.212 cores."""
    used = runs.cores_used(bundle, "policy-3-2-5")
    main, side = used[("cndbtier", "ndbmtd", "app")], used[("cndbtier", "ndbmtd", "istio-proxy")]
    assert (main["cores"], main["site"], main["row"]) == (Fraction("53.94"), "site1", 7)
    assert (side["cores"], side["site"], side["row"]) == (Fraction("28.212"), "site1", 6)


def test_asm_share_of_policy_3_2_5_ndbmtd(bundle):
    """Site 1 of 3.2.5 (Tables 3-117 and 3-120, as above): sidecar 28.212 cores of 28.212 + 53.94 = 82.152:
    34.3414 %. Before the reading named mysqlndbcluster read the pod's unnamed row, ndbmtd had no share at all."""
    s = next(x for x in bundle["scenarios"] if x["id"] == "policy-3-2-5")
    rows = [r for r in bundle["resources"] if r["scenario"] == "policy-3-2-5"]
    got = asm._observed(bundle, s, rows)
    assert got["cpu"]["by_service"]["ndbmtd"] == pytest.approx(28.212 / 82.152 * 100)


def test_backtest_names_the_readings_it_cannot_join(bundle):
    left = [x for x in backtest.run(bundle)["left_out"] if x["scenario"] in ("policy-3-5-1", "policy-3-2-7")]
    whats = {x["what"]: x["why"] for x in left}
    # Table 3-247 row 2: the init-sidecar of the ndbappmysqld pod, which Table 3-245 does not print
    side = next(w for w in whats if "ndbappmysqld/init-sidecar (Table 3-247 row 2)" in w)
    assert "print no row of this container" in whats[side]
    # Table 3-246 rows 16 and 18: AM and UE service readings, no row of either in Table 3-244
    svc = next(w for w in whats if "am-service/app (Table 3-246 row 16)" in w)
    assert "ue-service/app (Table 3-246 row 18)" in svc and "print no row of this service" in whats[svc]
    # 3.2.7, Table 3-142 row 4 (Config Service): its resource row, Table 3-140 row 4, is flagged by policy-E031
    cfg = next(w for w in whats if "config-server/app (Table 3-142 row 4; its resource row: Table 3-140 row 4)" in w)
    assert whats[cfg].startswith("the container's resource row is flagged (policy-E031)")


def test_policy_3_5_1_ndbmtd_beside_a_planners_deployment(bundle):
    """The vendor's run beside a planner's deployment reads the same join. Table 3-245 row 3: ndbmtd 8 x 8 cores,
    42 GiB each; Table 3-247 row 5: CPU 36.65 %, memory 82.12 %: 23.456 cores and 0.8212 x 8 x 42 = 275.9232 GiB.
    Row 1, ndbappmysqld 4 x 24 GiB at 38.09 %: 36.5664 GiB."""
    from calculators import deployment
    v = deployment.vendor_services(bundle, "policy-3-5-1")
    assert (v["ndbmtd"]["cpu_used"], v["ndbmtd"]["mem_used"]) == (Fraction("23.456"), Fraction("275.9232"))
    assert v["ndbappmysqld"]["mem_used"] == Fraction("36.5664")


def test_a_reading_printed_for_no_site_sizes_a_single_site_run(bundle):
    """Policy 3.5.1 names site1 as its traffic site; its utilization tables print no site. Table 3-244 row 2: Binding
    Service 2 replicas x 6 cores; Table 3-246 row 2: 24.36 % -> 0.2436 x 2 x 6 = 2.9232 cores. SM Service: row 14 of
    Table 3-244, 9 x 8 cores; Table 3-246 row 17, 57.00 % -> 41.04 cores. The footprint reads them (it once kept only
    readings of a named traffic site, and scaled every pod of 3.5.1, 3.5.2 and 3.6.1 as if it had no reading)."""
    from calculators import footprint
    r = footprint.compute(bundle, "policy-3-5-1", 50000, sites=2, redundancy="n+1")
    rows = {x["service"]: x for x in r["rows"] if x["container"] == "app"}
    assert rows["binding"]["rule_detail"].startswith("2.923 cores used (Table 3-246 row 2) at ceiling")
    assert rows["sm-service"]["rule_detail"].startswith("41.04 cores used (Table 3-246 row 17) at ceiling")
    # ndbmtd is sized by the data it holds; the memory it was seen to use is named: Table 3-247 row 5, 82.12 %
    assert "(memory 82.12 % observed (Table 3-247 row 5))" in rows["ndbmtd"]["rule_detail"]
