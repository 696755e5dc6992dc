"""Policy guide (seed 000): call models, parameters, latency, scenarios and errata.

Values asserted here are read from the seed (``../shared/seeds/000_be26e3bd3a95fd14.txt``), naming the table and
row. The tests read data/policy/ as written by ``python -m curation policy``. The resource and utilization
tables have their own tests (test_data_policy_resources.py).
"""
from __future__ import annotations

import pandas as pd
import pytest
import yaml

from conftest import data_file, one, seed_path


def _csv(name: str) -> pd.DataFrame:
    return pd.read_csv(data_file("policy", f"{name}.csv"), dtype={"table_id": str, "site": str, "note": str, "raw": str, "value": str}
                       if name == "settings" else {"table_id": str, "site": str, "note": str, "raw": str},
                       keep_default_na=False, na_values=[""])


@pytest.fixture(scope="module")
def meas():
    return _csv("measurements")


@pytest.fixture(scope="module")
def lat():
    return _csv("latency")


@pytest.fixture(scope="module")
def sets():
    return _csv("settings")


@pytest.fixture(scope="module")
def tables():
    return {t["id"]: t for t in yaml.safe_load(data_file("policy", "tables.yaml").read_text())}


@pytest.fixture(scope="module")
def errata():
    return {e["id"]: e for e in yaml.safe_load(data_file("policy", "errata.yaml").read_text())}


@pytest.fixture(scope="module")
def scen():
    return {s["id"]: s for s in yaml.safe_load(data_file("policy", "scenarios.yaml").read_text())}


# ---------------------------------------------------------------- catalogue and coverage
def test_every_segmented_table_is_catalogued(tables):
    """Every table the segmenter finds in the seed (270) has a tables.yaml entry, from either module."""
    from curation.pipetables import segment
    ids = [t.id for t in segment(seed_path("policy"))]
    assert len(ids) == 270
    missing = [i for i in ids if i not in tables]
    assert missing == []
    assert len(tables) == 270


def test_table_kinds(tables):
    kinds = pd.Series([t["kind"] for t in tables.values()]).value_counts().to_dict()
    cats = pd.Series([t.get("category") for t in tables.values()]).value_counts().to_dict()
    assert cats["call-model"] == 28 and cats["test-parameters"] == 24 and cats["features"] == 24
    assert cats["interfaces"] == 37 and cats["helm"] + cats["db-parameters"] == 17 and cats["latency"] == 22
    assert cats["hardware"] == 4 and cats["software"] == 4 and cats["results-summary"] == 1
    assert kinds["latency"] == 22


def test_preamble_table_belongs_to_no_scenario(tables, scen):
    """Table 3-61 (3.2 preamble, cnDBTier Helm parameters for all AM/UE runs) has no scenario."""
    assert tables["3-61"]["scenario"] is None
    assert scen["policy-3-2-6"]["parameters"]["shared"]["table_id"] == "3-61"


# ---------------------------------------------------------------- call models
def test_multi_row_header_call_model_3_63(meas, tables):
    """Table 3-63, row 'PDS': AM Service Ingress 9000, UE Service Egress 6300, Total MPS 34200, Total TPS 17100.
    The sub-header line 'Ingress | Egress | Total MPS | ...' (L819) is not a data row."""
    t = meas[meas.table_id == "3-63"]
    assert tables["3-63"]["rows"] == 10
    assert 819 not in set(t.line)
    pds = t[t.row_label == "PDS"]
    assert one(pds, column_label="AM Service / Ingress").value == 9000
    assert one(pds, column_label="UE Service / Egress").value == 6300
    assert one(pds, column_label="Total MPS").value == 34200
    assert one(pds, column_label="Total TPS").value == 17100
    assert (pds.unit == "MPS").sum() == 7 and one(pds, column_label="Total TPS").unit == "TPS"
    # row 'Egress', Total TPS printed '23,400'
    eg = one(t, row_label="Egress", column_label="Total TPS")
    assert eg.value == 23400 and eg.raw == "23,400"


def test_call_model_3_63_pds_total_does_not_add_up(meas, errata):
    """Table 3-63, row 'PDS': 18000 + 14400 = 32400, printed Total MPS 34200 -> arithmetic erratum, value kept."""
    row = one(meas[meas.table_id == "3-63"], row_label="PDS", column_label="Total MPS")
    eids = [e for e in row.note.split("; ")]
    kinds = {errata[e]["kind"] for e in eids}
    assert "arithmetic" in kinds
    e = next(errata[e] for e in eids if errata[e]["kind"] == "arithmetic")
    assert "32400" in e["problem"] and "34200" in e["problem"]


def test_multi_row_header_call_model_3_98(meas):
    """Table 3-98, row 'SM Service': DNN1 inbound 49654, outbound 209036; Total MPS 280590."""
    sm = meas[(meas.table_id == "3-98") & (meas.row_label == "SM Service")]
    assert one(sm, column_label="DNN1 SM Service (MPS) / Inbound Message").value == 49654
    assert one(sm, column_label="DNN1 SM Service (MPS) / Outbound Message").value == 209036
    assert one(sm, column_label="Total MPS").value == 280590
    assert len(meas[meas.table_id == "3-98"].row.unique()) == 12


def test_mangled_traffic_3_109_and_its_total_erratum(meas, errata):
    """Table 3-109: row 'UE service' (label on L1422, values on L1423) Site 1 Ingress 3157; 'Total | 28220 | 27271 |'.
    Site 2: 13615 + 13657 = 27272, printed 27271; Site 1 UE 3157 + 10953 = 14110, printed 14109."""
    t = meas[meas.table_id == "3-109"]
    ue = one(t, row_label="UE service", column_label="Site 1 / Ingress Gateway")
    assert ue.value == 3157 and ue.line == 1422 and ue.site == "site1"
    tot2 = one(t, row_label="Total", site="site2")
    assert tot2.value == 27271
    assert one(t, row_label="Total", site="site1").value == 28220
    ar = [errata[e] for e in tot2.note.split("; ") if errata[e]["kind"] == "arithmetic"]
    assert len(ar) == 1 and "27272" in ar[0]["problem"] and "14110" in ar[0]["problem"]


def test_short_total_rows(meas):
    """Table 3-121 'Total | 60048 | - | - | - |' and Table 3-134 'Total | 75060 |'."""
    assert one(meas[meas.table_id == "3-121"], row_label="Total", site="site1").value == 60048
    assert one(meas[meas.table_id == "3-121"], row_label="Total", site="site2").status == "not_applicable"
    t134 = one(meas[meas.table_id == "3-134"], row_label="Total")
    assert t134.value == 75060 and t134.column_label == "Total Ingress/Egress Traffic"


def test_totals_that_do_not_add_up(meas, errata):
    """Table 3-239 'Total | 29747 |' (rows sum to 29748); Table 3-261 'Total | 29747 |' (rows sum to 28000)."""
    for tid, s in (("3-239", "29748"), ("3-261", "28000")):
        row = one(meas[meas.table_id == tid], row_label="Total")
        assert row.value == 29747
        assert any(errata[e]["kind"] == "arithmetic" and s in errata[e]["problem"] for e in row.note.split("; "))


def test_uncaptioned_call_model(meas, tables):
    """U-3.3.1.1-2 (Call Model Data, 3.3.1): 'Diameter Gateway | 7.5K TPS |' = 7500 TPS; 'Ingress Service | NA |' missing."""
    t = meas[meas.table_id == "U-3.3.1.1-2"]
    assert one(t, row_label="Diameter Gateway").value == 7500
    na = one(t, row_label="Ingress Service")
    assert pd.isna(na.value) and na.status == "missing"
    assert tables["U-3.3.1.1-2"]["caption"] is None and tables["U-3.3.1.1-2"]["title"] == "Call Model Data"


def test_db_row_counts_not_tps(meas):
    """Table 3-240, 'occnp_policyds.pdssubscriber | 434475 |' under a 'TPS' header: a row count."""
    r = one(meas[meas.table_id == "3-240"], row_label="occnp_policyds.pdssubscriber")
    assert r.value == 434475 and r.unit == "count" and r.status == "corrected"


def test_3_75_k_numbers(meas):
    """Table 3-75 'AM Ingress | 6.12K | 0 |' -> 6120 TPS at site1; 'Total TPS | 50K | 0 |'."""
    t = meas[meas.table_id == "3-75"]
    assert one(t, row_label="AM Ingress", site="site1").value == 6120
    assert one(t, row_label="Total TPS", site="site1").value == 50000


# ---------------------------------------------------------------- settings
def test_uncaptioned_test_parameters(sets, tables, errata):
    """U-3.2.5.1-1 (3.2.5 'Testcase Parameters', probably Table 3-108):
    'Call Rate (Ingress + Egress) | 60K TPS (30K on site-1 and 30K on SITE-2) |' at L1408."""
    r = one(sets[sets.table_id == "U-3.2.5.1-1"], row_label="Call Rate (Ingress + Egress)")
    assert r.value == "60K TPS (30K on site-1 and 30K on SITE-2)" and r.line == 1408
    assert r.category == "test-parameters" and r.scenario == "policy-3-2-5"
    assert "3-108" in tables["U-3.2.5.1-1"]["note"]
    assert tables["U-3.2.5.1-1"]["title"] == "Testcase Parameters"
    unc = [e for e in errata.values() if e.get("table_id", "") and str(e["table_id"]).startswith("U-")
           and e["kind"] == "missing" and e["where"] == "caption"]
    assert len(unc) == 12
    # the twelve lost numbers: named in the problem, the captions either side quoted as raw (3-223 and 3-225 around 3-224)
    assert any(e["kind"] == "missing" and "3-224" in e["problem"] and "3-108" in e["problem"]
               and "Table 3-223 CPU/Memory Utilization" in e["raw"] and "Table 3-225 Hardware Details" in e["raw"]
               for e in errata.values())


def test_helm_parameter_3_6(sets):
    """Table 3-6 'ndb_batch_size | 2G |' (L56, column 'New Value')."""
    r = one(sets[sets.table_id == "3-6"], row_label="ndb_batch_size")
    assert r.value == "2G" and r.line == 56 and r.column_label == "New Value" and r.category == "db-parameters"


def test_split_rows_merged(sets, tables):
    """Table 3-80: 'restartSQLNodesIfBinlogThreadStalled | true |' + '|' is one row (L1023), 9 rows in all;
    Table 3-173: 'PDS Single UE ID Configuration' / '|' / 'Enabled |' is one row at L2440;
    Table 3-97: 'Traffic Ratio |' + value line is one row at L1252."""
    t80 = sets[sets.table_id == "3-80"]
    assert tables["3-80"]["rows"] == 9
    r = one(t80, row_label="restartSQLNodesIfBinlogThreadStalled", column_label="Value")
    assert r.value == "true" and r.line == 1023
    third = one(t80, row_label="restartSQLNodesIfBinlogThreadStalled", column_label="cnDBTier Helm Configuration")
    assert third.status == "missing"
    r = one(sets[sets.table_id == "3-173"], row_label="PDS Single UE ID Configuration")
    assert r.value == "Enabled" and r.line == 2440
    assert tables["3-173"]["rows"] == 5
    r = one(sets[sets.table_id == "3-97"], row_label="Traffic Ratio")
    assert r.line == 1252 and r.value.startswith("Internet:- 1 SM Create : 74 SM Updates")


def test_policy_helm_values_lost(sets):
    """Table 3-90: 'Ingress Gateway |' + '|': the configuration cell is empty (status missing)."""
    r = one(sets[sets.table_id == "3-90"], row_label="Ingress Gateway")
    assert pd.isna(r.value) and r.status == "missing" and r.line == 1156


def test_hardware_software(sets):
    """Table 3-225 'Environment | Hypervisor |'; Table 3-170 'ASM | 1.14.6-am1 |'."""
    assert one(sets[sets.table_id == "3-225"], row_label="Environment").value == "Hypervisor"
    assert one(sets[sets.table_id == "3-170"], row_label="ASM").value == "1.14.6-am1"


# ---------------------------------------------------------------- latency
def test_latency_seconds_to_ms_3_249(lat):
    """Table 3-249 'PCF_IGW_Latency | 0.01588 |' under 'NF Service Latency ( In Seconds)' = 15.88 ms."""
    r = one(lat[lat.table_id == "3-249"], row_label="PCF_IGW_Latency")
    assert r.value_ms == pytest.approx(15.88, abs=1e-12) and r.raw == "0.01588" and r.raw_unit == "s"
    assert r.statistic == "avg" and r.scenario == "policy-3-5-1"


def test_latency_unit_contradiction_3_260(lat, errata):
    """Table 3-260 'PCF_IGW_Latency | 17.45 |' under the same '( In Seconds)' header: read as 17.45 ms with an erratum."""
    r = one(lat[lat.table_id == "3-260"], row_label="PCF_IGW_Latency")
    assert r.value_ms == 17.45 and r.status == "corrected"
    assert errata[r.note]["kind"] == "unit" and errata[r.note]["reading"] == "milliseconds"


def test_replication_delay_range(lat):
    """Table 3-60 'Site1-ndbmysqld | 0-1 |' (seconds) = 0 to 1000 ms; Table 3-168 'Site-2-ndbmysqld-4 | 0 |'."""
    r = one(lat[lat.table_id == "3-60"], row_label="Site1-ndbmysqld")
    assert r.statistic == "replication_delay" and r.qualifier == "range"
    assert r.value_ms == 0 and r.value_ms_max == 1000 and r.raw == "0-1" and r.raw_unit == "s" and r.site == "site1"
    r = one(lat[lat.table_id == "3-168"], row_label="Site-2-ndbmysqld-4")
    assert r.value_ms == 0 and r.site == "site2"


def test_latency_dash_and_idle_zero(lat):
    """Table 3-56 'PCRF_Policyds | 12.7 | - |': Site2 not_applicable; Table 3-166 'PCF_IGW_Latency | 20.85 | 0.00 |'."""
    t = lat[lat.table_id == "3-56"]
    assert one(t, row_label="PCRF_Policyds", site="site1").value_ms == 12.7
    assert one(t, row_label="PCRF_Policyds", site="site2").status == "not_applicable"
    z = one(lat[lat.table_id == "3-166"], row_label="PCF_IGW_Latency", site="site2")
    assert z.value_ms == 0 and z.raw == "0.00" and z.status == "ok"


def test_latency_row_span_3_72(lat):
    """Table 3-72 'AM-Delete (simulator) | 50.2 | 44.6 | |' belongs to NF AM-PCF (row-span loss)."""
    r = one(lat[lat.table_id == "3-72"], row_label="AM-Delete (simulator)", statistic="avg", line=940)
    assert r.subject == "AM-PCF AM-Delete (simulator)" and r.value_ms == 50.2 and r.status == "corrected"


# ---------------------------------------------------------------- scenarios
def test_24_scenarios(scen):
    ids = [f"policy-{s}" for s in ("3-1-1 3-1-2 3-1-3 3-1-4 3-1-5 3-2-1 3-2-2 3-2-3 3-2-4 3-2-5 3-2-6 3-2-7 3-2-8 3-2-9 "
                                    "3-2-10 3-3-1 3-3-2 3-4-1 3-4-2 3-4-3 3-4-4 3-5-1 3-5-2 3-6-1").split()]
    assert sorted(scen) == sorted(ids)
    for s in scen.values():
        assert s["tables"], s["id"]


def test_asm_contradiction_3_2_10(scen, errata):
    """3.2.10: prose 'with ASM disabled' vs Table 3-171 'ASM | Enabled' (and 3-170 'ASM | 1.14.6-am1')."""
    s = scen["policy-3-2-10"]
    assert s["asm"] == "enabled"
    con = next(c for c in s["contradictions"] if c["field"] == "asm")
    texts = [v["text"] for v in con["versions"]]
    assert any("with ASM disabled" in t for t in texts)
    v = next(v for v in con["versions"] if v.get("table_id") == "3-171")
    assert v["text"] == "Enabled" and v["line"] == 2415
    assert errata[con["erratum"]]["kind"] == "contradiction"


def test_tps_contradiction_3_2_3(scen):
    """3.2.3: title 'each site handling 43K TPS' vs prose 60K TPS vs Table 3-86 '21.5K TPS on Site1, 21.5K TPS on Site2'."""
    s = scen["policy-3-2-3"]
    assert s["load"]["total"] is None and s["load"]["per_site"] == 21500
    assert s["load"]["raw"] == "21.5K TPS on Site1, 21.5K TPS on Site2"
    con = s["contradictions"][0]
    texts = " / ".join(v["text"] for v in con["versions"])
    assert "43K" in texts and "60K" in texts and "21.5K" in texts


def test_scenario_facts(scen):
    """3.1.1: 30K TPS (7.5K per site), 4 sites, 12 Hours, ASM disabled; 3.2.1: two-site title vs 'Single site';
    3.4.4: hypervisor X8-2, 128.0 hours; 3.2.5 ASM partial."""
    s = scen["policy-3-1-1"]
    assert (s["load"]["total"], s["load"]["per_site"], s["sites_provisioned"]) == (30000, 7500, 4)
    assert s["duration"]["hours"] == 12 and s["asm"] == "disabled" and s["deployment_mode"] == "converged"
    assert s["load"]["cite"] == {"text": "30K TPS (7.5K TPS on each site)", "table_id": "3-1", "line": 14,
                                 "where": "Table 3-1, row 'Call Rate'"}
    s = scen["policy-3-2-1"]
    assert s["sites_with_traffic"] == ["site1"]
    assert any(c["field"] == "sites_provisioned" for c in s["contradictions"])
    s = scen["policy-3-4-4"]
    assert s["hardware"]["Server"] == "ORACLE SERVER X8-2" and s["duration"]["hours"] == 128.0
    assert s["load"]["total"] is None and s["load"]["per_site"] == 15000
    assert scen["policy-3-2-5"]["asm"] == "partial"
