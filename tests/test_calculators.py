"""Footprint calculator: hand-computed expectations from real BSF scenarios, and bad input."""
from __future__ import annotations

import math

import pytest

from calculators import footprint, footprint_report, catalogue
from calculators.footprint import FootprintError, compute
from conftest import csv_body, result_row


def test_baseline_load_reproduces_table_3_25_and_3_26(bundle):
    """At its own 63K TPS, scenario 3.3 keeps every replica count of Tables 3-25/3-26; CPU requests per site add up to
    219 application + 126 + 154 sidecar + 264.8 cnDBTier = 763.8 cores (the sum of replicas x request over both tables)."""
    res = compute(bundle, "bsf-3-3", 63000)
    assert all(r["replicas_before"] == r["replicas_after"] for r in res["rows"])
    g = res["totals"]["groups"]
    assert g["application"]["before"]["cpu_request"] == 219
    assert g["sidecars"]["before"]["cpu_request"] == 280
    assert g["cnDBTier"]["before"]["cpu_request"] == pytest.approx(264.8)
    assert res["totals"]["site"]["after"]["cpu_request"] == pytest.approx(763.8)


def test_proportional_doubling_scenario_3_1(bundle):
    """Scenario 3.1 (Table 3-5, 22K TPS) has no CPU target printed: traffic services double at 44K TPS
    (BSF Management Service 11 -> 22, Ingress Gateway 9 -> 18, Diameter Gateway 2 -> 4); management stays (Appinfo 2)."""
    res = compute(bundle, "bsf-3-1", 44000)
    assert result_row(res, "BSF Management Service")["replicas_after"] == 22
    assert result_row(res, "Ingress Gateway")["replicas_after"] == 18
    assert result_row(res, "Diameter Gateway")["replicas_after"] == 4
    assert result_row(res, "Diameter Gateway")["rule"] == "proportional"
    assert result_row(res, "Appinfo")["replicas_after"] == 2 and result_row(res, "Appinfo")["rule"] == "fixed"
    # 30K TPS: Ingress Gateway 9 x 30000 / 22000 = 12.27 -> 13 whole pods (rounding to nearest would give 12)
    assert result_row(compute(bundle, "bsf-3-1", 30000), "Ingress Gateway")["replicas_after"] == 13


def test_observed_cpu_rule_scenario_3_3(bundle):
    """Scenario 3.3 at 126K TPS with a 70 % target; replicas from CPU *and* memory (Table 3-25 requests, Table 3-28
    Site1 observations, percentages read as of the request).
    BSF Management Service (Table 3-25 row 2: 14 x 4 cores, 1 GiB): CPU 27.72 % (3-28 row 4) x 14 x 4 = 15.5232 cores;
    x2 / (4 x 0.70) = 11.09 -> 12; memory 57.52 % x 14 x 1 = 8.0528 GiB; x2 / 1 = 16.11 -> 17: memory binds, 17.
    Ingress Gateway (row 6: 7 x 4 cores, 4 GiB): CPU 21.32 % x 7 x 4 = 5.9696; x2 / 2.8 = 4.26 -> 5; memory 39.88 % x 7 x 4
    = 11.1664 GiB; x2 / 4 = 5.58 -> 6; both below the 7 the benchmark ran: kept at 7 (the benchmark ran with headroom).
    Diameter Gateway (row 12: 15 x 4 cores, 1 GiB): CPU 27.71 % x 15 x 4 = 16.626; x2 / 2.8 = 11.88 -> 12; memory
    58.13 % x 15 x 1 = 8.7195; x2 = 17.44 -> 18: memory binds, 18."""
    res = compute(bundle, "bsf-3-3", 126000, target_cpu_percent=70)
    mgmt = result_row(res, "BSF Management Service")
    assert mgmt["replicas_after"] == 17 and mgmt["rule"] == "cpu+memory" and mgmt["binding"] == "memory"
    ingress = result_row(res, "Ingress Gateway")
    assert ingress["replicas_after"] == 7 and ingress["binding"] == "benchmark replicas"
    assert any("the benchmark ran with headroom" in n for n in ingress["notes"])
    assert result_row(res, "Diameter Gateway")["replicas_after"] == 18
    assert result_row(res, "Diameter Gateway", "istio-proxy")["replicas_after"] == 18


def test_absolute_cores_used_scenario_3_2(bundle):
    """Table 3-18 prints absolute cores: diameter-gateway Site1 uses 14.7 cores at 54K TPS. At 54K with a 50 % target
    of its 4-core request: 14.7 / 2 = 7.35 -> 8 replicas (Table 3-16 had 8)."""
    res = compute(bundle, "bsf-3-2", 54000, target_cpu_percent=50)
    assert result_row(res, "Diameter Gateway")["replicas_after"] == 8
    res = compute(bundle, "bsf-3-2", 108000, target_cpu_percent=50)
    assert result_row(res, "Diameter Gateway")["replicas_after"] == math.ceil(14.7 * 2 / 2)


def test_failover_sizing(bundle):
    """Two sites provisioned, both carrying traffic, N+1: normal 22K per site, failover the whole 44K (44000 / (2 - 1)).
    Scenario 3.1's BSF Management Service (Table 3-5 row 2: 11 x 3-core, 1 GiB requests; Table 3-8 row 2 Site1: CPU
    19.97 %, memory 57.34 %), no target, so the ceilings are the targets: CPU 0.1997 x 11 x 3 = 6.5901 cores;
    normal 6.5901 / (3 x 0.40) = 5.49 -> 6; failover 2 x 6.5901 / (3 x 0.80) = 5.49 -> 6; memory 0.5734 x 11 x 1 =
    6.3074 GiB; x 2 / 1 = 12.61 -> 13: memory binds, 13 (round() would give 13 too, ceil vs round is tested elsewhere)."""
    res = compute(bundle, "bsf-3-1", 44000, sites=2, sites_provisioned=2, failover=True)
    assert res["per_site_load"] == 44000
    assert [s["load"] for s in res["states"]] == [22000, 44000]
    assert result_row(res, "BSF Management Service")["replicas_after"] == 13
    assert result_row(res, "BSF Management Service")["binding"] == "memory"
    assert res["totals"]["deployment"]["cpu_request"] == pytest.approx(2 * res["totals"]["site"]["after"]["cpu_request"])


def test_failover_with_a_standby_site(bundle):
    """Scenario 3.1 was provisioned on 4 sites with traffic on one (scenarios.yaml): with 2 sites carrying 44K and the
    baseline's 4 provisioned, a standby site takes a lost site's 22K, so no site is sized above 22K; all 4 sites count."""
    res = compute(bundle, "bsf-3-1", 44000, sites=2, failover=True)
    assert res["inputs"]["sites_provisioned"] == 4
    assert res["per_site_load"] == 22000
    assert res["totals"]["deployment"]["cpu_request"] == pytest.approx(4 * res["totals"]["site"]["after"]["cpu_request"])


def test_remove_asm_drops_sidecars(bundle):
    res = compute(bundle, "bsf-3-3", 63000, asm="remove")
    assert not any(r["is_sidecar"] for r in res["rows"])
    assert res["totals"]["groups"]["sidecars"]["after"]["cpu_request"] == 0


def test_min_replicas_floor(bundle):
    res = compute(bundle, "bsf-3-3", 6300, min_replicas=2)
    assert result_row(res, "Egress Gateway")["replicas_after"] == 2  # 3 x 0.1 = 0.3 -> 1, raised to 2


def test_node_count(bundle):
    """3.3 at its own load requests 763.8 cores and 1449.875 GiB per site. A 64-core / 512 GiB node keeps, after the GKE
    tiers, 64 - (0.06 + 0.01 + 0.01 + 60 x 0.0025) = 63.77 cores and 512 - (1 + 0.8 + 0.8 + 6.72 + 384 x 0.02) - 100/1024
    = 494.90234375 GiB: at least ceil(763.8 / 63.77) = 12 nodes; whole pods never fill a node exactly."""
    res = compute(bundle, "bsf-3-3", 63000, node_cores=64, node_mem_gib=512)
    p = res["packing"]
    assert p["allocatable"]["cpu"] == 63.77
    assert p["allocatable"]["mem"] == pytest.approx(494.90234375, abs=1e-6)
    assert res["nodes_per_site"] >= 12
    assert all(f["cpu"] <= 100 and f["mem"] <= 100 for f in p["fill"])
    pods = {(r["component"], r["service"]): r["replicas_after"] for r in res["rows"]}
    assert sum(f["pods"] for f in p["fill"]) == sum(pods.values())  # every pod placed, once


@pytest.mark.parametrize("load, message", [
    ("", "empty"), (None, "empty"), ("abc", "must be a number"), ("-5", "greater than zero"), (0, "greater than zero"),
    ("nan", "finite"), ("inf", "finite"), (1e12, "more than 1000 times"),
])
def test_bad_load_raises_documented_error(bundle, load, message):
    with pytest.raises(FootprintError, match=message):
        compute(bundle, "bsf-3-3", load)


def test_bad_scenario_and_options(bundle):
    with pytest.raises(FootprintError, match="Unknown scenario"):
        compute(bundle, "bsf-9-9", 1000)
    with pytest.raises(FootprintError, match="between 1 and 100"):
        compute(bundle, "bsf-3-3", 1000, target_cpu_percent=150)
    with pytest.raises(FootprintError, match="at least 2 sites"):
        compute(bundle, "bsf-3-3", 1000, sites=1, failover=True)
    with pytest.raises(FootprintError, match="whole number"):
        compute(bundle, "bsf-3-3", 1000, sites="1.5")


def test_web_entry_returns_message_not_exception(bundle):
    out = catalogue.run(bundle, {"scenario": "bsf-3-3", "load": "-1"})
    assert out == {"ok": False, "error": "Target load must be greater than zero (TPS); got -1.", "field": "load"}
    out = catalogue.run(bundle, {"scenario": "bsf-3-3", "load": "80000", "target": "70"})
    assert out["ok"] and "BSF Management Service" in out["html"]


def test_outputs_escape_names_and_match_rows(bundle):
    res = compute(bundle, "bsf-3-3", 63000)
    csv_lines = csv_body(footprint_report.result_csv(res)).strip().splitlines()
    assert len(csv_lines) == len(res["rows"]) + 1
    helm = footprint_report.result_helm(res)
    assert "bsf-management-service:\n  replicaCount: 14" in helm
    assert 'cpu: "200m"' in helm  # db-infra-monitor-svc 200m in Table 3-26
    evil = dict(res, rows=[dict(res["rows"][0], service="<img src=x onerror=alert(1)>")])
    assert "<img" not in footprint_report.result_html(evil) and "&lt;img" in footprint_report.result_html(evil)


def test_every_scalable_scenario_computes(bundle):
    """Every scenario with resources and a load scales without error, across products, to whole replica counts. BSF
    3.3 at 1.5 x its 63,000 TPS (94,500), by hand from Table 3-25: the traffic services scale in proportion, rounded
    up (BSF Management Service 14 x 1.5 = 21, Ingress Gateway 7 x 1.5 = 10.5 -> 11, Egress Gateway 3 x 1.5 = 4.5 -> 5,
    Diameter Gateway 15 x 1.5 = 22.5 -> 23), the management services stay (Appinfo, Audit Service 3), and Table 3-26's
    ndbappmysqld (9) scales too: 13.5 -> 14; ndbmgmd stays 2 per site."""
    res = compute(bundle, "bsf-3-3", 94500)
    got = {(r["service"], r["container"]): r["replicas_after"] for r in res["rows"]}
    assert {k: got[k, "app"] for k in ("BSF Management Service", "Ingress Gateway", "Egress Gateway", "Diameter Gateway",
                                       "Appinfo", "Audit Service")} == \
        {"BSF Management Service": 21, "Ingress Gateway": 11, "Egress Gateway": 5, "Diameter Gateway": 23, "Appinfo": 3,
         "Audit Service": 3}
    assert got["BSF Management Service", "istio-proxy"] == 21  # the sidecar follows its pod
    assert got["ndbappmysqld", "mysqlndbcluster"] == 14 and got["ndbmgmd", "mysqlndbcluster"] == 2
    for s in footprint.scenarios_with_resources(bundle):
        res = compute(bundle, s["id"], s["load_per_site"] * max(1, len(s["sites_with_traffic"])) * 1.5)
        for r in res["rows"]:
            if r["replicas_after"] is not None:
                assert isinstance(r["replicas_after"], int) and r["replicas_after"] >= 0


def test_download_links_are_labelled_once_for_page_and_browser(bundle):
    """The footprint's two downloads carry their link text (calculators.catalogue.download_label), which the
    prerendered page and calculator.js both show: short format names in capitals, longer keys as they are."""
    out = catalogue.run(bundle, {"scenario": "bsf-3-3", "load": "80000"})
    assert {k: d["label"] for k, d in out["downloads"].items()} == {"csv": "CSV", "helm": "HELM"}
    assert catalogue.download_label("values-yaml") == "values-yaml"
