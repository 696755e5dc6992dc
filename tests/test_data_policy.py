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


# ---------------------------------------------------------------- readings of 0 that cannot be measurements
# A CPU reading of 0 at a site carrying traffic, for a service the run's call model sends traffic through, is not a
# measurement: the erratum of its table is 'flagged-excluded' and the cells have status 'flagged' (kept as printed,
# left out of calculations). Zeros the guide allows (a service the call model does not exercise, a feature disabled,
# the cnDBTier management node) stay usable.
@pytest.fixture(scope="module")
def util_rows():
    from conftest import DocData
    return DocData("policy").rows("utilization")


@pytest.fixture(scope="module")
def seed():
    return seed_path("policy").read_text(encoding="utf-8").splitlines()


def _cells(rows, table_id, row_label, metric="cpu"):
    """The utilization rows of one printed row, by site ('' for a table without a site column)."""
    out = {r["site"]: r for r in rows if r["table_id"] == table_id and r["row_label"] == row_label and r["metric"] == metric}
    assert out, (table_id, row_label)
    return out


def _erratum_of(row, errata):
    """The one flagged-excluded erratum the row's note cites."""
    hits = [errata[i.strip()] for i in row["note"].split(";") if i.strip() in errata
            and errata[i.strip()]["action"] == "flagged-excluded"]
    assert len(hits) == 1, row
    return hits[0]


def _assert_flagged_zero(rows, seed, errata, table_id, printed, sites):
    """The printed row (``printed``, quoted from the seed) reads 0 % CPU at ``sites``: status flagged, the raw cell as
    printed, and one flagged-excluded erratum of the table that quotes the row. Returns that erratum."""
    label = printed.split(" | ")[0]
    cells = _cells(rows, table_id, label)
    line = int(next(iter(cells.values()))["line"])
    assert seed[line - 1].strip() == printed
    found = set()
    for site in sites:
        r = cells[site]
        assert float(r["observed_percent"]) == 0 and r["status"] == "flagged", r
        assert r["raw"] in printed
        found.add(_erratum_of(r, errata)["id"])
    assert len(found) == 1
    e = errata[found.pop()]
    assert e["table_id"] == table_id and line in e["lines"] and printed in e["raw"].split("\n")
    return e


def test_table_3_40_service_zeros_at_15k_tps_are_flagged(util_rows, seed, errata):
    """Table 3-40 (scenario 3.1.4, Table 3-33 'Call Rate | 30K TPS (15K TPS on each site)'): PCRF Core, PRE and Binding
    print 0 % at both sites while the same call model loads them elsewhere: policy-E309, flagged-excluded (it was
    kept-as-printed). Diameter Connector and PolicyDS, which this voice call model does not exercise (0 % at the
    traffic sites of 3.3.1 and 3.3.2 too), stay as printed and usable."""
    for printed in ("ocpcf-pcrf-core | 0%/40% | 0%/40% |", "ocpcf-ocpm-pre | 0%/80% | 0%/80% |",
                    "ocpcf-oc-binding | 0%/60% | 0%/60% |"):
        e = _assert_flagged_zero(util_rows, seed, errata, "3-40", printed, ("site1", "site2"))
        assert e["id"] == "policy-E309"
    assert e["action"] == "flagged-excluded" and e["scenario"] == "policy-3-1-4"
    assert "ndbappmysqld | 78%/80% | 78%/80% |" in e["raw"] and "Call Rate | 30K TPS (15K TPS on each site) |" in e["raw"]
    assert "Table 3-195" in e["reason"] and "ndbappmysqld 78%" in e["reason"]
    assert _cells(util_rows, "3-40", "ocpcf-ocpm-pre")["site1"]["target_percent"] == "80"  # Y kept as printed
    for label in ("ocpcf-oc-diam-connector", "ocpcf-ocpm-policyds", "ocpcf-occnp-ingress-gateway"):
        for r in _cells(util_rows, "3-40", label).values():
            assert (r["observed_percent"], r["status"]) == ("0", "ok"), r


def test_table_3_41_ndbmysqld_zero_with_replication_is_flagged(util_rows, seed, errata):
    """Table 3-41 (3.1.4) 'ndbmysqld | 0%/80% | 0%/80% |' while Table 3-34 says 'Replication | Enable' and ndbappmysqld
    runs at 78 %: flagged. 'ndbmgmd | 0%/80% | 0%/80% |', the management node, stays usable."""
    e = _assert_flagged_zero(util_rows, seed, errata, "3-41", "ndbmysqld | 0%/80% | 0%/80% |", ("site1", "site2"))
    assert "Replication | Enable |" in e["raw"].split("\n") and "Table 3-188" in e["reason"]
    assert all(r["status"] == "ok" for r in _cells(util_rows, "3-41", "ndbmgmd").values())


def test_table_3_20_site2_zeros_are_flagged_site1_kept(util_rows, seed, errata):
    """Table 3-20 (3.1.2, 15K TPS on each site by Table 3-12): Binding 12 %, PRE 13 %, PCRF Core 25 % at Site 1 and
    0 % at Site 2. Only the Site 2 cells are flagged; Site 1's stay usable."""
    for printed, site1 in (("ocpcf-oc-binding | 12%/60% | 0%/60% |", "12"), ("ocpcf-ocpm-pre | 13%/80% | 0%/80% |", "13"),
                           ("ocpcf-pcrf-core | 25%/40% | 0%/40% |", "25")):
        e = _assert_flagged_zero(util_rows, seed, errata, "3-20", printed, ("site2",))
        r = _cells(util_rows, "3-20", printed.split(" | ")[0])["site1"]
        assert (r["observed_percent"], r["status"]) == (site1, "ok")
    assert "Call Rate | 30K TPS (15K TPS on each site) |" in e["raw"] and e["scenario"] == "policy-3-1-2"


def test_table_3_70_bulwark_zero_is_flagged_chf_connector_noted(util_rows, seed, errata, meas):
    """Table 3-70 (3.2.1) 'ocpcf-bulwark | 0%/60% |' while Table 3-63 routes 'Bulwark | 7200 | 0 | 7200 | 7200 | 0 |
    7200 | 14400 | 7200 |' and Table 3-64 says 'Bulwark Service | Enable': flagged. 'ocpcf-occnp-chf-connector |
    0%/50% |' stays usable (Tables 3-65/3-66 disable CHF) with a noted contradiction against Table 3-63's 'CHF
    Connector' row (7200 MPS)."""
    e = _assert_flagged_zero(util_rows, seed, errata, "3-70", "ocpcf-bulwark | 0%/60% |", ("site1",))
    assert "Bulwark | 7200 | 0 | 7200 | 7200 | 0 | 7200 | 14400 | 7200 |" in e["raw"] and "Bulwark Service | Enable |" in e["raw"]
    chf = _cells(util_rows, "3-70", "ocpcf-occnp-chf-connector")["site1"]
    assert (chf["raw"], chf["status"]) == ("0%/50%", "ok")
    con = errata[chf["note"]]
    assert (con["kind"], con["action"], con["table_id"]) == ("contradiction", "noted", "3-63")
    assert "CHF enabled (AM) | Disable |" in con["raw"] and "CHF Connector | 3600 | 3600 | 7200 | 0 | 0 | 0 | 7200 | 3600 |" in con["raw"]
    m = one(meas[meas.table_id == "3-63"], row_label="CHF Connector", column_label="Total MPS")
    assert m.value == 7200 and m.note == chf["note"]
    assert _cells(util_rows, "3-70", "ocpcf-oc-binding")["site1"]["status"] == "ok"  # Table 3-64 'Binding Service | Disable'


def test_table_3_204_pcrf_core_site2_zero_is_flagged(util_rows, seed, errata):
    """Table 3-204 (3.4.1, 7.5K TPS on each of four sites) 'ocpcf-pcrf-core-hpa | 13%/40% | 0%/80% | 14%/40% | 14%/40% |':
    Site2 flagged (the cell holds Query Service's reading, which prints '13%/40%' there); Sites 1, 3 and 4 and the Query
    Service cell stay usable."""
    e = _assert_flagged_zero(util_rows, seed, errata, "3-204", "ocpcf-pcrf-core-hpa | 13%/40% | 0%/80% | 14%/40% | 14%/40% |",
                             ("site2",))
    assert "ocpcf-query-service-hpa | 0%/80% | 13%/40% | 0%/80% | 0%/80% |" in e["raw"]
    cells = _cells(util_rows, "3-204", "ocpcf-pcrf-core-hpa")
    assert [(cells[s]["observed_percent"], cells[s]["status"]) for s in ("site1", "site3", "site4")] == [
        ("13", "ok"), ("14", "ok"), ("14", "ok")]
    q = _cells(util_rows, "3-204", "ocpcf-query-service-hpa")["site2"]
    assert (q["observed_percent"], q["target_percent"], q["status"]) == ("13", "40", "ok")


def test_table_3_267_ingress_gateway_zero_is_flagged(util_rows, seed, errata):
    """Table 3-267 (3.6.1) 'Ingress Gateway | 0.00% | 10.00% |' while Table 3-261 prints 'Ingress Gateway | 1000 |' and
    Table 3-270 an average latency of 31.8 ms: the CPU cell is flagged, the memory cell stays usable. 'NRF Client NF
    Discovery | 0.00% |' (Table 3-264 'UDR on-demand nrf discovery | Disabled') and 'SM Service | 0.00% |' (Gx traffic
    only) stay usable."""
    e = _assert_flagged_zero(util_rows, seed, errata, "3-267", "Ingress Gateway | 0.00% | 10.00% |", ("",))
    assert "Ingress Gateway | 1000 |" in e["raw"] and "Ingress Gateway | 31.8 |" in e["raw"]
    mem = _cells(util_rows, "3-267", "Ingress Gateway", "memory")[""]
    assert (mem["observed_percent"], mem["status"]) == ("10.0", "ok")
    for label in ("NRF Client NF Discovery", "SM Service"):
        assert _cells(util_rows, "3-267", label)[""]["status"] == "ok"


def test_flagging_refuses_a_reading_that_is_not_zero():
    """The curation flags only a usable reading of 0: asked to flag Table 3-20's Site 1 PCRF Core cell ('25%/40%') or a
    row the table does not print at that site, it stops with a message naming the table, line and site."""
    from curation.common import CellError
    from curation.policy import Builder
    b = Builder()
    b.run()
    row = next(r for r in b.by_id["3-20"].rows if r.cells[0] == "ocpcf-pcrf-core")
    with pytest.raises(CellError, match=r"Table 3-20 line 251 site1: '25%/40%' \(status ok\) is not a usable reading of 0"):
        b.flag_zero_cpu("3-20", [row], ("site1",), "policy-E999")
    with pytest.raises(CellError, match=r"Table 3-20 line 251 site3: 0 CPU cells"):
        b.flag_zero_cpu("3-20", [row], ("site3",), "policy-E999")


# Every other CPU reading of 0 at a site carrying traffic, for a traffic or database service: (table, service,
# container) -> why 0 is possible in that run. Kept as printed and usable.
ZERO_POSSIBLE = {
    # 3.1.1 PCRF data (Table 3-2: Gx with Sy and LDAP): no SBI interface enabled (Tables 3-4, 3-5), Binding Disable
    # (Table 3-3), no SM (N7) traffic; ndbmgmd, the management node, is idle by design in every run
    ("3-9", "egress-gateway"), ("3-9", "ingress-gateway"), ("3-9", "nrf-client-nfdiscovery"), ("3-9", "binding"),
    ("3-9", "chf-connector"), ("3-9", "udr-connector"), ("3-9", "soap-connector"), ("3-9", "sm-service"), ("3-10", "ndbmgmd"),
    # 3.1.2 PCRF voice: Sy, LDAP, UDR, CHF disabled (Tables 3-14 to 3-16): Diameter Connector and PolicyDS idle
    ("3-20", "diam-connector"), ("3-20", "egress-gateway"), ("3-20", "ingress-gateway"), ("3-20", "nrf-client-nfdiscovery"),
    ("3-20", "policyds"), ("3-20", "sm-service"), ("3-21", "ndbmgmd"),
    # 3.1.3 PCRF data: no SBI interface enabled (Tables 3-25, 3-26)
    ("3-30", "egress-gateway"), ("3-30", "nrf-client-nfdiscovery"), ("3-31", "ndbmgmd"),
    # 3.1.4 PCRF voice: the same idle services as 3.1.2, 3.3.1 and 3.3.2
    ("3-40", "diam-connector"), ("3-40", "egress-gateway"), ("3-40", "ingress-gateway"), ("3-40", "nrf-client-nfdiscovery"),
    ("3-40", "policyds"), ("3-41", "ndbmgmd"),
    # 3.2.1 AM/UE: Binding Disable (Table 3-64); CHF disabled (Tables 3-65, 3-66; contradiction noted)
    ("3-70", "binding"), ("3-70", "chf-connector"), ("3-71", "ndbmgmd"),
    # 3.2.2 AM/UE: Bulwark Disable (Table 3-77), its call model (Table 3-76) prints 0 for Bulwark and CHF Connector
    ("3-83", "binding"), ("3-83", "bulwark"), ("3-83", "chf-connector"), ("3-84", "ndbmgmd"),
    # 3.2.4 SM: Table 3-98 has no AM or UE traffic
    ("3-106", "am-service"), ("3-106", "ue-service"), ("3-107", "ndbmgmd"),
    # 3.2.5, 3.2.6: ndbmysqld's sidecar (CPU and memory 0.00 %): ASM disabled towards cnDBTier (prose)
    ("3-120", "ndbmysqld"), ("3-132", "ndbmysqld"),
    # 3.2.7 AM/UE: no SM traffic (Table 3-134)
    ("3-142", "sm-service"),
    # 3.3.x and 3.4.x Diameter (Gx/Rx) runs: their call models print NA for these services
    ("3-187", "diam-connector"), ("3-187", "egress-gateway"), ("3-187", "ingress-gateway"), ("3-187", "nrf-client-nfdiscovery"),
    ("3-187", "policyds"), ("3-188", "ndbmgmd"),
    ("3-195", "diam-connector"), ("3-195", "egress-gateway"), ("3-195", "nrf-client-nfdiscovery"), ("3-195", "policyds"),
    ("3-195", "sm-service"), ("3-196", "ndbmgmd"),
    ("3-204", "diam-connector"), ("3-204", "egress-gateway"), ("3-204", "nrf-client-nfdiscovery"), ("3-204", "policyds"),
    ("3-204", "sm-service"), ("3-205", "ndbmgmd"),
    ("3-213", "diam-connector"), ("3-213", "egress-gateway"), ("3-213", "ingress-gateway"), ("3-213", "nrf-client-nfdiscovery"),
    ("3-213", "policyds"), ("3-214", "ndbmgmd"),
    ("3-222", "diam-connector"), ("3-222", "egress-gateway"), ("3-222", "ingress-gateway"), ("3-222", "nrf-client-nfdiscovery"),
    ("3-222", "policyds"), ("3-223", "ndbmgmd"),
    # 3.6.1 Gx only: UDR on-demand NRF discovery Disabled (Table 3-264), no SM (N7) traffic
    ("3-267", "nrf-client-nfdiscovery"), ("3-267", "sm-service"),
}
ZERO_FLAGGED = {("3-20", "ocpcf-oc-binding", "site2"), ("3-20", "ocpcf-ocpm-pre", "site2"), ("3-20", "ocpcf-pcrf-core", "site2"),
                ("3-41", "ndbmysqld", "site1"), ("3-41", "ndbmysqld", "site2"), ("3-70", "ocpcf-bulwark", "site1"),
                ("3-204", "ocpcf-pcrf-core-hpa", "site2"), ("3-267", "Ingress Gateway", "")} | {
    ("3-40", label, site) for label in ("ocpcf-oc-binding", "ocpcf-ocpm-pre", "ocpcf-pcrf-core") for site in ("site1", "site2")}


def test_every_zero_cpu_reading_under_load_is_judged(util_rows, scen, errata):
    """The audit: every CPU reading of 0 at a site carrying traffic (or in a table without sites) for a service with
    role traffic or database is either flagged by a flagged-excluded erratum of its own table (ZERO_FLAGGED) or one the
    guide allows (ZERO_POSSIBLE, with the reason), and nothing else."""
    roles = {s["service"]: s["role"] for s in yaml.safe_load(data_file("policy", "services.yaml").read_text())}
    flagged, kept = set(), set()
    for r in util_rows:
        if r["metric"] != "cpu" or r["observed_percent"] == "" or float(r["observed_percent"]) != 0:
            continue
        if roles[r["service"]] not in ("traffic", "database"):
            continue
        if r["site"] and r["site"] not in scen[r["scenario"]]["sites_with_traffic"]:
            continue
        if r["status"] == "flagged":
            flagged.add((r["table_id"], r["row_label"], r["site"]))
            assert _erratum_of(r, errata)["table_id"] == r["table_id"]
        else:
            assert r["status"] == "ok", r
            kept.add((r["table_id"], r["service"]))
    assert flagged == ZERO_FLAGGED
    assert kept == ZERO_POSSIBLE


def test_flagged_zeros_leave_the_calculators(bundle):
    """The bundle leaves the flagged cells out of ``utilization`` and lists them in ``excluded_rows``; no backtest point
    reads or predicts a flagged row of Table 3-40 (3.1.4: rows 8 Binding, 11 PRE, 12 PCRF Core), and the cores used of
    every scenario (``runs.cores_used``, what the backtest and the footprint read) come from no flagged cell."""
    from calculators import backtest, runs
    from calculators.partial import exclusions
    gone = {("policy-3-1-4", "3-40", 8), ("policy-3-1-4", "3-40", 11), ("policy-3-1-4", "3-40", 12)}
    assert not [u for u in bundle["utilization"] if (u["scenario"], u["table_id"], u["row"]) in gone]
    ex = exclusions(bundle, "policy-3-1-4", "utilization")
    assert {(r["table_id"], r["row"], r["site"]) for r in ex["rows"]} == {
        (t, n, s) for t, n in (("3-40", 8), ("3-40", 11), ("3-40", 12), ("3-41", 4)) for s in ("site1", "site2")}
    assert ex["partial"] and "policy-E309" in ex["errata"]
    points = backtest.run(bundle)["points"]
    touched = [p for p in points if "policy-3-1-4" in p["from"].split(" + ") + [p["to"]]
               and p["subject"].split(" / ")[0] in ("binding", "pre", "pcrf-core")]
    assert touched == []
    assert not [p for p in points for src in (p["source_from"], p["source_to"])
                if src in ("Table 3-40 row 8", "Table 3-40 row 11", "Table 3-40 row 12")]
    flagged = {(x[0], x[2], x[3], x[5]) for x in bundle["excluded_rows"]["rows"] if x[9] == "flagged" and x[8] == "cpu"}
    for sid in {f[0] for f in flagged}:
        for o in runs.cores_used(bundle, sid).values():
            assert (sid, o["table_id"], o["row"], o["site"]) not in flagged, (sid, o)


def test_footprint_3_1_4_sizes_the_flagged_services_by_load_ratio(bundle):
    """Footprint of 3.1.4 at 60,000 TPS (30,000 per site against the 15,000 benchmarked: ratio 2): with their Table 3-40
    cells flagged, PCRF Core, PRE and Binding have no observed CPU and scale by the load ratio from Table 3-38's
    replicas: PCRF Core Service 24 -> 48, PRE Service 15 -> 30, Binding Service 18 -> 36. Each row says which reading it
    did not use and why (the row of Table 3-40 and the erratum)."""
    from calculators import footprint
    res = footprint.compute(bundle, "policy-3-1-4", 60000)
    rows = {r["service"]: r for r in res["rows"]}
    for service, before, after in (("pcrf-core", 24, 48), ("pre", 15, 30), ("binding", 18, 36)):
        r = rows[service]
        assert (r["rule"], r["replicas_before"], r["replicas_after"]) == ("proportional", before, after), r
        row = {"pcrf-core": 12, "pre": 11, "binding": 8}[service]
        assert r["rule_detail"] == f"{before} x 2 (load ratio; its observed CPU (Table 3-40 row {row}) is not used: policy-E309)"


def test_service_page_does_not_count_flagged_zeros(atlas):
    """The PCRF Core service page: 3.1.4 has no usable observed CPU (both Table 3-40 cells flagged, policy-E309): not
    counted. 3.1.2 counts Site 1 only, marked 'at least' (Site 2 flagged): Table 3-20 '25%/40%' of Table 3-18's
    ocpcf-pcrf-core, 24 replicas x 7 cores requested: 0.25 x 24 x 7 = 42 cores."""
    from atlas.pages import services
    from atlas.pages.products import Renderer
    r = Renderer(atlas)
    g = next(g for g in services.groups_of(r) if any(m["doc"] == "policy" and m["service"] == "pcrf-core" for m in g["members"]))
    rows = {x["scenario"]["id"]: x for x in services.service_rows(r, g) if x["scenario"]["doc"] == "policy"}
    x = rows["policy-3-1-4"]
    assert (x["mark"], x["cores"]) == ("none", None) and "not counted" in x["why"] and "policy-E309" in x["errata"]
    assert sorted((u["site"], u["status"]) for u in x["left_out"]) == [("site1", "flagged"), ("site2", "flagged")]
    x = rows["policy-3-1-2"]
    assert (x["mark"], x["site_used"], x["cores"]) == ("partial", "site1", 42.0)
    assert [(u["site"], u["status"]) for u in x["left_out"]] == [("site2", "flagged")]


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


# ---------------------------------------------------------------- call models and replication
@pytest.fixture(scope="module")
def seed():
    return seed_path("policy").read_text(encoding="utf-8").splitlines()


# Read from the seed: the call model, the seed line and the words that say it (title, prose or a table row).
CALL_MODELS = {
    "pcrf-data": {
        "policy-3-1-1": (8, "PCRF Data Call Model"),      # title 3.1.1 'PCRF Data Call Model on Four-Site ...'
        "policy-3-1-3": (260, "PCRF Data Call Model"),    # title 3.1.3
        "policy-3-1-5": (506, "Policy data call model that is deployed in PCF mode"),  # prose 3.1.5
    },
    # prose 'Policy data call model'; Traffic Ratio (L2916, L3051) 'CCRI (Single APN), ..., AARU, RAR -rx, RAR-gx, STR.':
    # Gx and Rx messages, where Tables 3-2 and 3-23 (PCRF data) list Gx, Sy and LDAP and no Rx
    "policy-data-gx-rx": {
        "policy-3-4-1": (2909, "Policy data call model that is deployed in converged mode"),  # prose 3.4.1
        "policy-3-4-2": (3043, "Policy data call model that is deployed in converged mode"),  # prose 3.4.2
    },
    "pcrf-voice": {
        "policy-3-1-2": (138, "PCRF Voice Call Model"),   # title 3.1.2
        "policy-3-1-4": (389, "PCRF Voice Call Model"),   # title 3.1.4
        "policy-3-3-1": (2642, "Policy Voice Call Model"),  # title 3.3.1
        "policy-3-3-2": (2774, "Policy Voice Call Model"),  # title 3.3.2
        # Table U-3.4.3.1-1, row 'Traffic Ratio': the ratio of Table 3-33 (3.1.4)
        "policy-3-4-3": (3186, "CCRI-I, AARI –1, CCRU-2, AARU - 1, RAR-Gx-1, RAR-Rx-1, STR –1, CCRT-1"),
    },
    "pcf-am-ue": {
        "policy-3-2-1": (805, "15K TPS each for AM/UE"),  # title 3.2.1
        "policy-3-2-2": (955, "PCF AM/UE Call Model"),
        "policy-3-2-5": (1401, "PCF AM/UE Call Model"),
        "policy-3-2-6": (1613, "PCF AM/UE Call Model"),
        "policy-3-2-7": (1832, "PCF AM/UE Call Model"),
    },
    "pcf-am-ue-n1n2": {  # Table 3-157, row 'Traffic Ratio'
        "policy-3-2-9": (2157, "AM- Create-1 , AM Delete-1 , UE Create-1 , UE Delete-1 , N1N2transfer-1, N1subscribe-1, "
                               "N1Unsubscribe-1"),
    },
    "pcf-sm": {
        "policy-3-2-3": (1106, "PCF SM Call Model"),
        "policy-3-2-4": (1243, "PCF SM Call Model"),
        "policy-3-2-8": (2003, "PCF SM Call Model"),
        # Table 3-171, row 'Traffic Ratio' (label on L2416, value on L2417): the SM mix of Table 3-145 (3.2.8, L2013)
        "policy-3-2-10": (2416, "Internet : SM 1-Create 15-update 1-delete IMS: SM 1-Create 8-update 1-delete "
                                "Application: SM 1-Create 0-update 1-delete Administrator: SM 1-Create 0-update 1-delete"),
        "policy-3-5-1": (3555, "SM Service(MPS) | 44669.88753 |"),  # Table 3-241 (AM/UE Service 0.00000)
        "policy-3-5-2": (3723, "SM Service(MPS) | 46777.97 |"),     # Table 3-252 (AM/UE Service 0.00)
    },
    "pcf-usage-monitoring": {"policy-3-6-1": (3840, "with Usage Monitoring Enabled")},  # title 3.6.1
}
NAMES = {"pcrf-data": "PCRF data", "pcrf-voice": "PCRF voice", "policy-data-gx-rx": "Policy data (Gx/Rx)",
         "pcf-am-ue": "PCF AM/UE", "pcf-am-ue-n1n2": "PCF AM/UE with N1N2", "pcf-sm": "PCF SM",
         "pcf-usage-monitoring": "PCF usage monitoring (Gx)"}


def test_call_model_groups(scen, seed):
    """Every run is in the group the seed names (title, prose or traffic table), and the cited words are on the cited
    line (of Table 3-171's split 'Traffic Ratio' row, on the line after its label); 3.4.4 names none."""
    for cm_id, runs in CALL_MODELS.items():
        assert sorted(s["id"] for s in scen.values() if (s["call_model"] or {}).get("id") == cm_id) == sorted(runs), cm_id
        for sid, (line, text) in runs.items():
            cm = scen[sid]["call_model"]
            assert cm["name"] == NAMES[cm_id]
            assert (cm["cite"]["line"], cm["cite"]["text"]) == (line, text), sid
            printed = seed[line] if sid == "policy-3-2-10" else seed[line - 1]
            assert text in printed, sid
    assert [sid for sid, s in scen.items() if s["call_model"] is None] == ["policy-3-4-4"]
    for line in (2916, 3051):  # the Gx/Rx traffic ratio of 3.4.1 and 3.4.2
        assert seed[line - 1] == ("Traffic Ratio | CCRI (Single APN), CCRU (Single APN), CCRT (Single APN), AARU, RAR -rx, "
                                  "RAR-gx, STR. |")


def test_call_model_cites_name_their_table(scen, seed):
    """A cite in a table names it: 3.2.9 Table 3-157 'Traffic Ratio' (L2157), 3.5.1 Table 3-241 'SM Service(MPS)'
    (L3555, under the caption 'Table 3-241 Traffic distribution at Policy services' on L3550); a title cite is the
    scenario heading's line."""
    assert scen["policy-3-2-9"]["call_model"]["cite"]["table_id"] == "3-157"
    c = scen["policy-3-5-1"]["call_model"]["cite"]
    assert (c["table_id"], c["where"]) == ("3-241", "Table 3-241, row 'SM Service(MPS)'")
    assert seed[3550 - 1] == "Table 3-241 Traffic distribution at Policy services"
    assert seed[3556 - 1].startswith("AM Service(MPS) | 0.00000")
    c = scen["policy-3-1-1"]["call_model"]["cite"]
    assert (c["table_id"], c["where"]) == (None, "title") and seed[c["line"] - 1].startswith("3.1.1 Test Scenario 1:")


def test_call_model_3_4_4_not_stated(scen, seed):
    """3.4.4 'PCF 15K TPS on two Non ASM Sites': Table 3-227 'Traffic Ratio | 15ktps on two sites |' (L3344) names no
    call model; a note says what the guide prints."""
    assert seed[3344 - 1] == "Traffic Ratio | 15ktps on two sites |"
    s = scen["policy-3-4-4"]
    assert s["call_model"] is None
    assert any(n.startswith("Call model not stated") and "15ktps on two sites" in n for n in s["notes"])


def test_call_model_3_4_3_contradiction_erratum(scen, errata, seed):
    """3.4.3: prose 'Policy data call model' (L3178) vs the Traffic Ratio of U-3.4.3.1-1 (L3186), which is the voice
    ratio of Table 3-33 (3.1.4, L398): one contradiction erratum, noted, quoting both lines; the record follows the ratio."""
    s = scen["policy-3-4-3"]
    con = [c for c in s["contradictions"] if c["field"] == "call_model"]
    assert len(con) == 1
    e = errata[con[0]["erratum"]]
    assert (e["kind"], e["action"], e["lines"], e["scenario"]) == ("contradiction", "noted", [3178, 3186], "policy-3-4-3")
    assert e["raw"].split("\n") == ["Policy data call model", "CCRI-I, AARI –1, CCRU-2, AARU - 1, RAR-Gx-1, RAR-Rx-1, STR –1, CCRT-1"]
    assert "Policy data call model" in seed[3178 - 1] and e["raw"].split("\n")[1] in seed[3186 - 1]
    assert e["raw"].split("\n")[1] in seed[398 - 1]  # the same ratio in Table 3-33 (3.1.4, 'PCRF Voice Call Model')
    assert [(v["line"], v["table_id"]) for v in con[0]["versions"]] == [(3178, None), (3186, "U-3.4.3.1-1")]
    assert s["call_model"]["id"] == "pcrf-voice" and con[0]["erratum"] in s["call_model"]["note"]


def test_call_model_notes_where_the_name_is_read_from_a_table(scen):
    """The runs named from a table or against a generic title say so: 3.2.9 (Table 3-157), 3.2.10 (Table 3-171),
    3.5.1 (Table 3-241), 3.5.2 (Table 3-252), 3.4.1/3.4.2 (title 'Policy Call Model'), 3.1.5 ('Pcrf-Total-Tps')."""
    for sid, words in (("policy-3-2-9", "Table 3-157"), ("policy-3-2-10", "Table 3-171"), ("policy-3-5-1", "Table 3-241"),
                       ("policy-3-5-2", "Table 3-252"), ("policy-3-4-1", "'Policy Call Model'"),
                       ("policy-3-4-2", "'Policy Call Model'"), ("policy-3-1-5", "Pcrf-Total-Tps")):
        assert words in scen[sid]["call_model"]["note"], sid
    assert "note" not in scen["policy-3-2-3"]["call_model"]  # its title says 'PCF SM Call Model'


# Read from each scenario's prose: the line and the words of its replication setup.
REPLICATION = {
    "policy-3-1-3": (262, "The cnDBTier database and PCRF application is replicated on both the sites using Multi-channel replication"),
    "policy-3-1-4": (391, "The cnDBTier database and PCRF application is replicated on both the sites using Single-channel replication"),
    "policy-3-2-2": (957, "it was configured for 3 channel replication"),
    "policy-3-2-3": (1108, "it was configured for 3 channel replication"),
    "policy-3-2-4": (1245, "it was configured for 3 channel replication"),
    "policy-3-2-6": (1615, "It was configured for 2 channel replication"),
    "policy-3-2-7": (1834, "It was configured for 3 channel replication"),
    "policy-3-2-8": (2005, "It was configured for multi channel replication"),
    "policy-3-2-9": (2124, "Replication is on single-channel"),
    "policy-3-3-1": (2643, "This setup has single-channel replication"),
    "policy-3-3-2": (2775, "This setup has single-channel replication"),
    "policy-3-4-1": (2909, "This setup has single-channel replication"),
    "policy-3-4-2": (3043, "This setup has single-channel replication"),
    "policy-3-4-3": (3178, "Replication is on single-channel"),
}


def test_replication_multi_and_single_channel(scen, seed):
    """3.1.3 (L262) 'replicated on both the sites using Multi-channel replication'; 3.1.4 (L391) '... using
    Single-channel replication'."""
    r = scen["policy-3-1-3"]["replication"]
    assert r["raw"].endswith("using Multi-channel replication") and r["cite"]["line"] == 262 and r["cite"]["where"] == "prose"
    assert r["raw"] in seed[262 - 1]
    r = scen["policy-3-1-4"]["replication"]
    assert r["raw"].endswith("using Single-channel replication") and r["cite"]["line"] == 391
    assert r["raw"] in seed[391 - 1]


def test_replication_of_every_scenario(scen, seed):
    """Every scenario whose prose states a replication setup has it, quoted from its line; the others have null
    (3.1.1, 3.1.2, 3.1.5, 3.2.1, 3.2.5, 3.2.10, 3.4.4, 3.5.1, 3.5.2, 3.6.1 state none in their prose)."""
    for sid, s in scen.items():
        if sid not in REPLICATION:
            assert s["replication"] is None, sid
            continue
        line, text = REPLICATION[sid]
        assert (s["replication"]["raw"], s["replication"]["cite"]["line"], s["replication"]["cite"]["text"]) == (text, line, text)
        assert text in seed[line - 1], sid
    # 3.1.5's title (L505) says 'with Replication Enabled' and no more: a note, not a setup
    assert "Replication Enabled" in seed[505 - 1]
    assert any("'with Replication Enabled'" in n for n in scen["policy-3-1-5"]["notes"])
    # 3.1.1's prose states none; the introduction of section 3.1 (L7) speaks of all four sites: a note quotes it
    quote = "The cnDBTier database and PCRF application are replicated on all the four-sites"
    assert quote in seed[7 - 1] and any(quote in n for n in scen["policy-3-1-1"]["notes"])


# ---------------------------------------------------------------- held state: which services hold records, how many
HOLDS = {
    # service: (what, table, seed line, row as printed, the printed service name its schema carries, where printed)
    "sm-service": ("sessions", "3-240", 3540, "occnp_pcf_sm.SmPolicyAssociation", "ocpcf-pcf-smservice", "3-7", 88),
    "binding": ("bindings", "3-240", 3546, "occnp_binding.contextbinding", "ocpcf-oc-binding", "3-7", 74),
    "policyds": ("subscriber-data", "3-240", 3542, "occnp_policyds.pdssubscriber", "ocpcf-ocpm-policyds", "3-7", 85),
    "pcrf-core": ("sessions", "3-262", 3878, "occnp_pcrf_core.gxsession", "ocpcf-pcrf-core", "3-7", 89),
    "usage-monitoring": ("usage-monitoring-contexts", "3-262", 3880, "occnp_usagemon.UmContext", "Usage Monitoring", "3-265", 3921),
}


def test_services_holding_records_cite_the_database_tables(seed, tables):
    """Table 3-240 'Traffic distribution to Policy databases' (3.5.1) names occnp_pcf_sm.SmPolicyAssociation (L3540),
    occnp_policyds.pdssubscriber (L3542), occnp_binding.contextbinding (L3546); Table 3-262 (3.6.1) names
    occnp_pcrf_core.gxsession (L3878) and occnp_usagemon.UmContext (L3880). Each schema is the service whose printed
    name it carries (Table 3-7 L88 ocpcf-pcf-smservice, L74 ocpcf-oc-binding, L85 ocpcf-ocpm-policyds, L89
    ocpcf-pcrf-core; Table 3-265 L3921 Usage Monitoring); the note says so and that the records are cnDBTier rows."""
    services = {s["service"]: s for s in yaml.safe_load(data_file("policy", "services.yaml").read_text())}
    for name, (what, tid, line, text, printed, ptid, pline) in HOLDS.items():
        h = services[name]["holds"]
        assert (h["what"], h["cite"]) == (what, {"text": text, "table_id": tid, "line": line, "where": f"Table {tid}, row '{text}'"})
        assert seed[line - 1].startswith(f"{text} | "), name
        first, last = tables[tid]["lines"]
        assert first <= line <= last and tables[tid]["caption"].endswith("Traffic distribution to Policy databases")
        assert seed[pline - 1].startswith(f"{printed} | ") and tables[ptid]["lines"][0] <= pline <= tables[ptid]["lines"][1]
        assert f"('{printed}', Table {ptid})" in h["note"] and text.split(".")[0] in h["note"]
        assert "rows of cnDBTier tables" in h["note"], name
        assert printed in services[name]["aliases"]
    # no table of the AM or UE service is printed, and the data nodes carry no holds: nobody else holds anything
    assert {s for s, r in services.items() if "holds" in r} == set(HOLDS)


def test_sm_service_note_names_both_tables_of_its_schema(seed):
    """occnp_pcf_sm is printed with two tables, AppSession (L3539) and SmPolicyAssociation (L3540), in Tables 3-240
    and 3-251 (scenarios 3.5.1 and 3.5.2); the binding schema with contextbinding and dependentcontextbinding (L3548)."""
    services = {s["service"]: s for s in yaml.safe_load(data_file("policy", "services.yaml").read_text())}
    assert seed[3539 - 1].startswith("occnp_pcf_sm.AppSession |")
    assert "Tables 3-240 and 3-251" in services["sm-service"]["holds"]["note"]
    assert "scenarios 3.5.1 and 3.5.2" in services["sm-service"]["holds"]["note"]
    assert "its tables AppSession and SmPolicyAssociation" in services["sm-service"]["holds"]["note"]
    assert seed[3548 - 1].startswith("occnp_binding.dependentcontextbinding |")
    assert "contextbinding and dependentcontextbinding" in services["binding"]["holds"]["note"]
    assert "Table 3-262 (" in services["pcrf-core"]["holds"]["note"]


COUNTS = {
    # scenario: (table, seed line, label, raw, [(value, what, approx, site)]) read from the 'Active ...' row by hand
    "policy-3-2-1": ("3-62", 815, "Active Subscribers", "~10000000", [(10000000, "subscribers", True, None)]),
    "policy-3-2-2": ("3-74", 966, "Active Subscribers", "12591141", [(12591141, "subscribers", False, None)]),
    "policy-3-2-3": ("3-86", 1116, "Active Subscribers", "10000000 subscribers and 20000000 sessions",
                     [(10000000, "subscribers", False, None), (20000000, "sessions", False, None)]),
    # 393590 + 393589 = 787179: the printed sum is its own entry, without a site
    "policy-3-2-4": ("3-97", 1254, "Active Subscribers", "393590 (Site1) + 393589 (Site2) = 787179",
                     [(393590, "subscribers", False, "site1"), (393589, "subscribers", False, "site2"),
                      (787179, "subscribers", False, None)]),
    "policy-3-2-5": ("U-3.2.5.1-1", 1411, "Active User Count", "12000000", [(12000000, "users", False, None)]),
    "policy-3-2-6": ("U-3.2.6.1-1", 1625, "Active User Count", "12000000", [(12000000, "users", False, None)]),
    "policy-3-2-7": ("3-133", 1843, "Active User Count", "12000000", [(12000000, "users", False, None)]),
    "policy-3-2-8": ("3-145", 2014, "Active User Count", "10000000", [(10000000, "users", False, None)]),
    "policy-3-2-9": ("3-157", 2158, "Active Subscribers", "8M", [(8000000, "subscribers", False, None)]),
    "policy-3-2-10": ("3-171", 2418, "Active Subscribers", "10M", [(10000000, "subscribers", False, None)]),
    "policy-3-3-1": ("U-3.3.1.1-1", 2652, "Active Subscribers", "10000000", [(10000000, "subscribers", False, None)]),
    "policy-3-3-2": ("U-3.3.2.1-1", 2784, "Active Subscribers", "10000000", [(10000000, "subscribers", False, None)]),
    "policy-3-4-1": ("U-3.4.1.1-1", 2917, "Active Subscribers", "10000000", [(10000000, "subscribers", False, None)]),
    "policy-3-4-2": ("U-3.4.2.1-1", 3052, "Active Subscribers", "10000000", [(10000000, "subscribers", False, None)]),
    "policy-3-4-3": ("U-3.4.3.1-1", 3187, "Active Subscribers", "10000000", [(10000000, "subscribers", False, None)]),
}


def test_counts_of_every_scenario_that_prints_one(scen, seed):
    """Every 'Active Subscribers' / 'Active User Count' row, read by hand from its seed line; 3.1.5's Table 3-45
    'Active User Count | NA |' (L538) gives no count and status missing; the scenarios without such a row
    (3.1.1 to 3.1.4, 3.4.4, 3.5.1, 3.5.2, 3.6.1) have none."""
    for sid, (tid, line, label, raw, counts) in COUNTS.items():
        sub = scen[sid]["subscribers"]
        assert seed[line - 1] == f"{label} | {raw} |", sid
        assert (sub["raw"], sub["label"], sub["cite"]["table_id"], sub["cite"]["line"], sub["status"]) == (raw, label, tid, line, "ok")
        assert [(n["value"], n["what"], n["approx"], n.get("site")) for n in sub["counts"]] == counts, sid
        assert all(n["raw"] in raw for n in sub["counts"]), sid
    na = scen["policy-3-1-5"]["subscribers"]
    assert seed[538 - 1] == "Active User Count | NA |"
    assert (na["raw"], na["cite"]["line"], na["counts"], na["status"]) == ("NA", 538, [], "missing")
    none = {"policy-3-1-1", "policy-3-1-2", "policy-3-1-3", "policy-3-1-4", "policy-3-4-4", "policy-3-5-1", "policy-3-5-2",
            "policy-3-6-1"}
    assert {sid for sid, s in scen.items() if s["subscribers"] is None} == none
    assert set(scen) == set(COUNTS) | none | {"policy-3-1-5"}


def test_unnamed_sessions_of_3_2_3_kept_with_an_erratum(scen, errata, seed):
    """Table 3-86 'Active Subscribers | 10000000 subscribers and 20000000 sessions |' (L1116) does not say which sessions
    (its Traffic Ratio, L1115, creates SM and IMS Rx sessions): kept as 'sessions', an erratum says so."""
    e = [e for e in errata.values() if e["table_id"] == "3-86" and e["where"] == "row 'Active Subscribers'"]
    assert len(e) == 1 and e[0]["action"] == "kept-as-printed" and e[0]["lines"] == [1116]
    assert e[0]["raw"] in seed[1116 - 1] and "IMS Rx:- 1 Create : 1 STR" in seed[1115 - 1]
    sessions = scen["policy-3-2-3"]["subscribers"]["counts"][1]
    assert (sessions["what"], sessions["status"], sessions.get("note")) == ("sessions", "ok", None)
