"""Policy guide (seed 000): resource-allocation and utilization tables.

Values asserted here are read from the seed (``../shared/seeds/000_be26e3bd3a95fd14.txt``), naming the table and
row. The tests read data/policy/ as written by ``python -m curation policy``; a missing file fails them, naming it.
"""
from __future__ import annotations

import math

import pandas as pd
import pytest
import yaml

from conftest import data_file, one

RESOURCE_TABLES = 61
UTILIZATION_TABLES = 48


def _yaml(name: str) -> list:
    return yaml.safe_load(data_file("policy", name).read_text()) or []


@pytest.fixture(scope="module")
def d() -> dict:
    return {
        "res": pd.read_csv(data_file("policy", "resources.csv"), dtype={"table_id": str, "site": str, "note": str},
                           keep_default_na=False, na_values=[""]),
        "util": pd.read_csv(data_file("policy", "utilization.csv"), dtype={"table_id": str, "site": str, "note": str, "raw": str},
                            keep_default_na=False, na_values=[""]),
        "errata": _yaml("errata.yaml"),
        "tables": _yaml("tables.yaml"),
        "services": _yaml("services.yaml"),
    }


def empty(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def erratum_for(d, row) -> list[dict]:
    ids = [x.strip() for x in str(row["note"]).split(";")] if not empty(row["note"]) else []
    by_id = {e["id"]: e for e in d["errata"]}
    return [by_id[i] for i in ids if i in by_id]


# ------------------------------------------------------------------ resources
def test_3_7_pcrf_core_request_first_layout(d):
    # Table 3-7, row ocpcf-pcrf-core: | 7 | 8 | 8 | 8 | 30 | (request, limit, mem request (Gi), mem limit (Gi), replica)
    r = one(d["res"], table_id="3-7", row_label="ocpcf-pcrf-core")
    assert (r.cpu_request_cores, r.cpu_limit_cores, r.mem_request_gib, r.mem_limit_gib, r.replicas) == (7, 8, 8, 8, 30)
    assert r.service == "pcrf-core" and r.component == "app" and r.container == "app" and r.status == "ok"


def test_3_160_swapped_columns_read_limit_first(d):
    # Table 3-160 header says Request before Limit, data are limit-first: 'Config Service | 4 | 2 | 2 | 512 Mi | 2 |'
    r = one(d["res"], table_id="3-160", row_label="Config Service")
    assert r.cpu_limit_cores == 4 and r.cpu_request_cores == 2
    assert r.mem_limit_gib == 2 and r.mem_request_gib == 0.5
    assert r.raw_mem_request == "512 Mi" and r.replicas == 2
    assert r.status == "corrected"
    kinds = {e["kind"] for e in erratum_for(d, r)}
    assert "swapped-columns" in kinds
    # every row of 3-160/3-161 now has request <= limit
    for tid in ("3-160", "3-161"):
        rows = d["res"][(d["res"].table_id == tid) & (d["res"].status != "flagged")]
        assert (rows.cpu_request_cores <= rows.cpu_limit_cores).all()


def test_3_161_shifted_audit_row_flagged(d):
    # Table 3-161, 'Audit Service | 2 | 2 | 2 | 4 | 4 |' against Site1 '| 2 | 2 | 4 | 4 | 2 |'
    r = one(d["res"], table_id="3-161", row_label="Audit Service")
    assert r.status == "flagged" and r.site == "site2"
    assert r.raw_replicas == "4"


def test_3_245_bare_millicores_and_mib(d):
    # Table 3-245, 'db-infra-monitor-svc | 1 | 200 | 200 | 500 | 500 |' under (#) and (Gi): millicores / MiB
    r = one(d["res"], table_id="3-245", row_label="db-infra-monitor-svc")
    assert r.cpu_request_cores == 0.2 and r.cpu_limit_cores == 0.2
    assert r.mem_request_gib == pytest.approx(500 / 1024) and r.raw_mem_request == "500"
    assert r.status == "corrected" and r.component == "cndbtier"
    assert any(e["kind"] == "unit" and e["action"] == "read-as" for e in erratum_for(d, r))
    b = one(d["res"], table_id="3-245", row_label="db-backup-manager-svc")
    assert b.cpu_request_cores == 0.1 and b.mem_limit_gib == 0.125


def test_500m_in_memory_column_flagged(d):
    # Table 3-116, 'Config Service | 4 | 2 | 2Gi | 500m | 2 | 2 | 2 Gi |': 500m under Memory (Request)
    r = one(d["res"], table_id="3-116", row_label="Config Service", container="app")
    assert empty(r.mem_request_gib) and r.raw_mem_request == "500m"
    assert r.mem_limit_gib == 2 and r.cpu_limit_cores == 4 and r.cpu_request_cores == 2
    assert r.status == "flagged"
    assert any(e["kind"] == "unit" and e["action"] == "flagged-excluded" for e in erratum_for(d, r))


def test_3_18_malformed_decimal(d):
    # Table 3-18, 'ocpcf-occnp-nrf-client-nfdiscovery | 3 | 4 | 0.5. | 2 | 1 |'
    r = one(d["res"], table_id="3-18", row_label="ocpcf-occnp-nrf-client-nfdiscovery")
    assert r.mem_request_gib == 0.5 and r.raw_mem_request == "0.5." and r.status == "corrected"


def test_units_mi_and_millicores(d):
    # Table 3-232, 'Site1-ndbmgmd/mysqlndbcluster | 2 | 4 | 4 | 11520Mi | 9Gi |' (limit 11520Mi = 11.25 GiB)
    r = one(d["res"], table_id="3-232", row_label="Site1-ndbmgmd/mysqlndbcluster")
    assert r.mem_limit_gib == 11.25 and r.mem_request_gib == 9 and r.site == "site1"
    assert r.service == "ndbmgmd" and r.container == "mysqlndbcluster"
    # Table 3-50, 'Site1-ndbmtd/db-backup-executor-svc | 6 | 1200m | 1200m | 2560Mi | 2560Mi |'
    r = one(d["res"], table_id="3-50", row_label="Site1-ndbmtd/db-backup-executor-svc")
    assert r.cpu_limit_cores == 1.2 and r.mem_request_gib == 2.5 and r.replicas == 6
    # Table 3-115, 'Appinfo | 1 | 1 | 1 Gi | 512Mi | 2 | 2 | 2 Gi |' (limit-first 'Resource per Container')
    r = one(d["res"], table_id="3-115", row_label="Appinfo", container="app")
    assert r.mem_limit_gib == 1 and r.mem_request_gib == 0.5 and r.raw_mem_limit == "1 Gi"


def test_sidecar_as_row(d):
    # Table 3-160, 'Ingress Gateway Istio | 2500m | 2500m | 2 | 2 | 15 |'
    r = one(d["res"], table_id="3-160", row_label="Ingress Gateway Istio")
    assert r.container == "istio-proxy" and bool(r.is_sidecar) is True and r.service == "ingress-gateway"
    assert r.cpu_limit_cores == 2.5 and r.cpu_request_cores == 2.5 and r.replicas == 15 and r.mem_limit_gib == 2
    # Table 3-174, 'PDS Istio | 30 | 2500m | 2500m | 4Gi | 4Gi |' (replicas first, Istio row before the app row 'PDs')
    r = one(d["res"], table_id="3-174", row_label="PDS Istio")
    assert r.container == "istio-proxy" and r.service == "policyds" and r.replicas == 30 and r.mem_request_gib == 4
    app = one(d["res"], table_id="3-174", row_label="PDs")
    assert app.container == "app" and app.cpu_limit_cores == 7 and app.cpu_request_cores == 7


def test_istio_proxy_container_rows(d):
    # Table 3-49, 'UDR-Site1-ocudr-ingressgateway-sig/istio-proxy | 9 | 4000m | 4000m | 1Gi | 1Gi |'
    r = one(d["res"], table_id="3-49", row_label="UDR-Site1-ocudr-ingressgateway-sig/istio-proxy")
    assert r.component == "udr" and r.site == "site1" and r.container == "istio-proxy" and bool(r.is_sidecar)
    assert r.service == "ocudr-ingressgateway-sig" and r.replicas == 9 and r.cpu_limit_cores == 4 and r.mem_limit_gib == 1
    # Table 3-175, 'Site1-ndbmysqld/istio-proxy | 12 | 5000m | 5000m | 4Gi | 4Gi |'
    r = one(d["res"], table_id="3-175", row_label="Site1-ndbmysqld/istio-proxy")
    assert r.component == "cndbtier" and r.service == "ndbmysqld" and r.container == "istio-proxy"
    assert r.cpu_request_cores == 5 and r.mem_request_gib == 4 and r.replicas == 12


def test_istio_columns_one_value_for_request_and_limit(d):
    # Table 3-81, 'Ingress Gateway | 5 | 5 | 6 | 6 | 2 | 8 | 2.5 | 2 |' ('Request/Limit Isito CPU' = 2.5)
    r = one(d["res"], table_id="3-81", row_label="Ingress Gateway", container="istio-proxy")
    assert r.cpu_request_cores == 2.5 and r.cpu_limit_cores == 2.5 and r.mem_request_gib == 2 and r.mem_limit_gib == 2
    assert bool(r.is_sidecar)


def test_min_max_replicas(d):
    # Table 3-81, 'Egress Gateway | 4 | 4 | 6 | 6 | 2 | 27 | 2 | 2 |': Min 2, Max 27, no replica count
    r = one(d["res"], table_id="3-81", row_label="Egress Gateway", container="app")
    assert r.replicas_min == 2 and r.replicas_max == 27 and empty(r.replicas)
    # 'Appinfo | 1 | 1 | 0.5 | 1 | 2 | 2 | 2 | 2 |': Min = Max = 2 -> replicas 2, said in the note
    a = one(d["res"], table_id="3-81", row_label="Appinfo", container="app")
    assert a.replicas_min == 2 and a.replicas_max == 2 and a.replicas == 2 and "Min = Max" in a.note
    # 'Binding Service | 6 | 6 | 8 | 8 | 2 | 0 | 2.5 | 2 |': Min above Max, flagged
    b = one(d["res"], table_id="3-81", row_label="Binding Service", container="app")
    assert b.status == "flagged" and b.replicas_min == 2 and b.replicas_max == 0


def test_3_82_misaligned_rows(d):
    # Table 3-82, 'ndbappmysqld | 12 | 20 | 12 | 5 | 5 | ||': CPU 12, memory 20 Gi, 12 replicas, Istio 5 / 5 Gi
    r = one(d["res"], table_id="3-82", row_label="ndbappmysqld", container="app")
    assert r.cpu_cores == 12 and r.mem_gib == 20 and r.replicas == 12 and r.status == "corrected"
    assert empty(r.cpu_request_cores) and empty(r.mem_limit_gib)
    s = one(d["res"], table_id="3-82", row_label="ndbappmysqld", container="istio-proxy")
    assert s.cpu_request_cores == 5 and s.mem_limit_gib == 5


def test_3_115_am_service_missing_memory_request(d):
    # Table 3-115, 'AM Service | 6 | 6 | 10Gi | 12 | 3 | 2Gi | |': memory request lost, replicas 12, Istio 3 / 2Gi
    r = one(d["res"], table_id="3-115", row_label="AM Service", container="app")
    assert r.mem_limit_gib == 10 and empty(r.mem_request_gib) and r.replicas == 12 and r.status == "corrected"
    s = one(d["res"], table_id="3-115", row_label="AM Service", container="istio-proxy")
    assert s.cpu_limit_cores == 3 and s.mem_limit_gib == 2


def test_na_cells_are_missing_not_zero(d):
    # Table 3-48, 'NRFsim | 2 | NA | NA | NA | NA |'
    r = one(d["res"], table_id="3-48", row_label="NRFsim")
    assert r.component == "simulator" and r.status == "missing" and r.replicas == 2
    assert all(empty(r[c]) for c in ("cpu_request_cores", "cpu_limit_cores", "mem_request_gib", "mem_limit_gib"))
    # Table 3-115, 'Query Service | 2 | 1 | 1Gi | 1Gi | 2 | ||': sidecar row without values
    s = one(d["res"], table_id="3-115", row_label="Query Service", container="istio-proxy")
    assert s.status == "missing" and empty(s.cpu_limit_cores)


def test_storage_column(d):
    # Table 3-186, 'ndbmysqld | 4 | 4 | 25 | 25 | 6 | 131Gi |'
    r = one(d["res"], table_id="3-186", row_label="ndbmysqld")
    assert r.storage_gib == 131 and r.replicas == 6 and r.mem_request_gib == 25


# ------------------------------------------------------------------ utilization
def test_xy_hpa_target(d):
    # Table 3-9, 'ocpcf-appinfo | 1%/80% | 2%/80% | 2%/80% | 3%/80% |'
    r = one(d["util"], table_id="3-9", row_label="ocpcf-appinfo", site="site4")
    assert r.observed_percent == 3 and r.target_percent == 80 and r.metric == "cpu" and r.status == "ok"
    assert r.percent_basis == "unstated"


def test_xy_missing_slash(d):
    # Table 3-70, 'ocpcf-pcf-ueservice | 33%30% |'
    r = one(d["util"], table_id="3-70", row_label="ocpcf-pcf-ueservice")
    assert r.observed_percent == 33 and r.target_percent == 30 and r.raw == "33%30%" and r.status == "corrected"
    assert any(e["kind"] == "format" and e["action"] == "read-as" for e in erratum_for(d, r))


def test_impossible_value_flagged(d):
    # Table 3-196, 'ndbmtd | 22530%/80% | 7280%/80% | 16%/80% | 7%/80% |'
    r = one(d["util"], table_id="3-196", row_label="ndbmtd", site="site1")
    assert r.observed_percent == 22530 and r.target_percent == 80 and r.status == "flagged"
    assert any(e["action"] == "flagged-excluded" for e in erratum_for(d, r))
    ok = one(d["util"], table_id="3-196", row_label="ndbmtd", site="site3")
    assert ok.observed_percent == 16 and ok.status == "ok"
    # Table 3-132, 'ndbmtd/mysqlndbcluster | 0.69% | 81.13% | 5110.41% | 71.33% |'
    r = one(d["util"], table_id="3-132", row_label="ndbmtd/mysqlndbcluster", site="site2", metric="cpu")
    assert r.observed_percent == 5110.41 and r.status == "flagged"


def test_none_and_na_are_missing(d):
    # Table 3-54, 'Appinfo | 2.05% | 12.99% | None | None |' and 'NRFsim | ['NA'] | ['NA'] | None | None |'
    r = one(d["util"], table_id="3-54", row_label="Appinfo", site="site2", metric="cpu")
    assert r.status == "missing" and empty(r.observed_percent) and r.raw == "None"
    r1 = one(d["util"], table_id="3-54", row_label="Appinfo", site="site1", metric="memory")
    assert r1.observed_percent == 12.99 and r1.status == "ok"
    n = one(d["util"], table_id="3-54", row_label="NRFsim", site="site1", metric="cpu")
    assert n.status == "missing" and empty(n.observed_percent) and n.raw == "['NA']" and n.component == "simulator"
    # nothing printed as None/NA/blank carries a value
    u = d["util"]
    blank = u[u.raw.isin(["None", "['NA']", "NA", ""]) | u.raw.isna()]
    assert len(blank) > 0 and (blank.status == "missing").all() and blank.observed_percent.isna().all()


def test_3_94_y_is_not_an_hpa_target(d):
    # Table 3-94, 'ocpcf-appinfo | 4.40%/25.78% | 4.50%/25.34% |'
    r = one(d["util"], table_id="3-94", row_label="ocpcf-appinfo", site="site1")
    assert r.observed_percent == 4.4 and empty(r.target_percent) and r.raw == "4.40%/25.78%"
    assert any(e["table_id"] == "3-94" and e["kind"] == "inconsistent-values" for e in erratum_for(d, r))


def test_malformed_percentages(d):
    # Table 3-119, 'ocpcf-bulwark | 17.78%' | ...' and 'ocpcf-pcf-smservice/istio | ... | .60% | 6.01% |'
    r = one(d["util"], table_id="3-119", row_label="ocpcf-bulwark", site="site1", metric="cpu")
    assert r.observed_percent == 17.78 and r.status == "corrected"
    s = one(d["util"], table_id="3-119", row_label="ocpcf-pcf-smservice/istio", site="site2", metric="cpu")
    assert s.observed_percent == 0.6 and s.container == "istio-proxy" and s.status == "corrected"
    # Table 3-131, 'ocpcf-appinfo | 4.20 | 32.97% | ...'
    a = one(d["util"], table_id="3-131", row_label="ocpcf-appinfo", site="site1", metric="cpu")
    assert a.observed_percent == 4.2 and a.status == "corrected"
    # Table 3-94, 'ocpcf-occnp-alternate route | 0.10%%/9.56% | ...'
    b = one(d["util"], table_id="3-94", row_label="ocpcf-occnp-alternate route", site="site1")
    assert b.observed_percent == 0.1 and b.service == "alternate-route" and b.status == "corrected"


def test_absolute_with_percent_list_literal(d):
    # Table 3-152, 'appinfo | ['0.100 (2.50%)'] | ['0.520 (25.98%)'] |'
    r = one(d["util"], table_id="3-152", row_label="appinfo", metric="cpu")
    assert r.observed_abs == 0.1 and r.observed_percent == 2.5 and r.abs_unit == "cores"
    # the two 'user-service' rows are the CHF connector (line 2101) and the UDR connector (line 2107)
    chf = one(d["util"], table_id="3-152", line=2101, metric="cpu")
    udr = one(d["util"], table_id="3-152", line=2107, metric="cpu")
    assert chf.service == "chf-connector" and chf.observed_abs == 2.902
    assert udr.service == "udr-connector" and udr.observed_abs == 6.971 and udr.row_label == "user-service"


def test_sidecar_utilization_forms(d):
    # '/istio' (3-119), '/istio-proxy' (3-120) and ' Istio' rows (3-164) are all istio-proxy sidecars
    a = one(d["util"], table_id="3-119", row_label="ocpcf-bulwark/istio", site="site2", metric="cpu")
    assert a.container == "istio-proxy" and a.observed_percent == 59.09
    b = one(d["util"], table_id="3-120", row_label="ndbmtd/istio-proxy", site="site1", metric="cpu")
    assert b.container == "istio-proxy" and b.observed_percent == 47.02
    c = one(d["util"], table_id="3-164", row_label="Bulwark service Istio", site="site2", metric="memory")
    assert c.container == "istio-proxy" and c.observed_percent == 0.28 and c.status == "corrected"
    # 3-120 header 'Memory CPU (Site 1)' is read as memory
    m = one(d["util"], table_id="3-120", row_label="ndbmtd/mysqlndbcluster", site="site1", metric="memory")
    assert m.observed_percent == 81.17 and m.column_label == "Memory CPU (Site 1)"


def test_3_131_duplicate_label_second_row_is_app(d):
    # Table 3-131 prints 'ocpcf-occnp-alternate route/istio' twice; the second (line 1788) is the app container
    rows = d["util"][(d["util"].table_id == "3-131") & (d["util"].line == 1788)]
    assert set(rows.container) == {"app"} and (rows.status == "corrected").all()
    first = d["util"][(d["util"].table_id == "3-131") & (d["util"].line == 1787)]
    assert set(first.container) == {"istio-proxy"}


# ------------------------------------------------------------------ integrity
def test_every_table_covered(d):
    kinds = {t["id"]: t["kind"] for t in d["tables"]}
    res_ids = set(d["res"].table_id)
    util_ids = set(d["util"].table_id)
    assert len(res_ids) == RESOURCE_TABLES and len(util_ids) == UTILIZATION_TABLES
    assert all(kinds.get(t) == "resources" for t in res_ids)
    assert all(kinds.get(t) == "utilization" for t in util_ids)


def test_errata_ids_resolve_and_status_rules(d):
    ids = {e["id"] for e in d["errata"]}
    for df in (d["res"], d["util"]):
        for note in df.note.dropna():
            for part in str(note).split(";"):
                part = part.strip()
                if part.startswith("policy-E"):
                    assert part in ids, part
        for _, r in df[df.status.isin(["corrected", "flagged"])].iterrows():
            assert any(p.strip().startswith("policy-E") for p in str(r.note).split(";")), (r.table_id, r.line)


def test_services_cover_rows(d):
    svc = {(s["component"], s["service"]): s for s in d["services"]}
    for df in (d["res"], d["util"]):
        for comp, name in set(zip(df.component, df.service)):
            assert (comp, name) in svc, (comp, name)
    assert svc[("app", "pre")]["role"] == "traffic"
    assert {"ocpcf-ocpm-pre", "ocpcf-pcf-pre", "PRE"} <= set(svc[("app", "pre")]["aliases"])
    assert svc[("app", "config-server")]["role"] == "management"
    assert svc[("cndbtier", "ndbmtd")]["role"] == "database"
    assert svc[("simulator", "nrfsim")]["role"] == "test"


def test_sidecars_marked(d):
    r = d["res"]
    assert ((r.container == "istio-proxy") == r.is_sidecar.astype(str).str.lower().eq("true")).all()
    u = d["util"]
    assert "istio" not in " ".join(set(u.container) - {"istio-proxy"})
