"""Values behind the errata and readings an audit of the provenance added (provenance that survives an audit).

Each test names the table and row of the guide it reads; the figures are the printed ones, and the
shares in the Traffic Ratio tests are computed by hand in the docstrings.
"""
from conftest import DocData

BSF, POLICY, NEF, DSR, SHCM = (DocData(d) for d in ("bsf", "policy", "nef", "dsr", "shcm"))


def erratum(doc: DocData, eid: str) -> dict:
    return next(e for e in doc.load("errata") if e["id"] == eid)


def noted(doc: DocData, row: dict, **match) -> dict:
    """The one erratum cited in the row's note that matches every key (kind, table_id, ...)."""
    ids = [x.strip().split(":")[0] for x in row["note"].split(";")]
    hits = [e for e in doc.load("errata") if e["id"] in ids and all(e.get(k) == v for k, v in match.items())]
    assert len(hits) == 1, (row["note"], match, hits)
    return hits[0]


# ----------------------------------------------------------------- BSF


def test_bsf_table_3_16_bare_memory_read_as_gib_is_corrected():
    """Table 3-16, Appinfo: memory '1' / '1' under 'Memory Request/Limit Per Pod' (no unit) -> 1 GiB, corrected."""
    r = BSF.one("resources", table_id="3-16", row_label="Appinfo", container="app")
    assert (r["raw_mem_request"], r["mem_request_gib"], r["status"]) == ("1", "1", "corrected")
    e = noted(BSF, r, kind="unit")
    assert e["reading"] == "GiB" and "Memory Request Per Pod" in e["raw"]
    side = BSF.one("resources", table_id="3-16", row_label="Appinfo", container="istio-proxy")
    assert side["status"] == "ok"  # the Istio columns print '(Gi)'


def test_bsf_table_3_18_and_3_19_absolute_values_are_readings():
    """Table 3-18 bsf-managent-service Site1 CPU '13.1 (36.3 %)' (percent of limit by erratum) and Table 3-19
    ndbappmysqld Site1 CPU '17.6 (73.2 %)' (cores by erratum): both corrected, with their unit errata."""
    r = BSF.one("utilization", table_id="3-18", row_label="bsf-managent-service", site="site1", metric="cpu", container="app")
    assert (r["observed_abs"], r["observed_percent"], r["percent_basis"], r["status"]) == ("13.1", "36.3", "limit", "corrected")
    assert noted(BSF, r, kind="typo")["reading"] == "BSF Management Service"
    r = BSF.one("utilization", table_id="3-19", line="551", site="site1", metric="cpu", container="app")
    assert (r["observed_abs"], r["abs_unit"], r["percent_basis"], r["status"]) == ("17.6", "cores", "unstated", "corrected")
    assert noted(BSF, r, kind="unit", table_id="3-19")["action"] == "read-as"


def test_bsf_table_3_30_site2_writes_above_site1():
    """Table 3-30: Site2 writes 7.244K per second against Site1's 5.254K, although traffic runs on Site1."""
    s1 = BSF.one("db_operations", table_id="3-30", site="site1", operation="write")
    s2 = BSF.one("db_operations", table_id="3-30", site="site2", operation="write")
    assert (s1["ops_per_second"], s2["ops_per_second"]) == ("5254", "7244")
    e = noted(BSF, s2, kind="inconsistent-values")
    assert "7.244K" in e["problem"] and "5.254K" in e["problem"] and s1["note"] == s2["note"]


def test_bsf_table_3_20_dashes_have_an_erratum():
    """Table 3-20: Site2 and Site3 print '-' for read, write and commit."""
    for site in ("site2", "site3"):
        r = BSF.one("db_operations", table_id="3-20", site=site, operation="read")
        assert r["status"] == "not_applicable" and noted(BSF, r, kind="missing")["action"] == "noted"


def test_bsf_every_scenario_contradiction_has_an_erratum_and_traffic_ratio_is_one():
    """Table 3-21 (3.3): Traffic Ratio gives nBSF 1 + 1 + 0.15 = 2.15 of 6.15 parts = 35.0 %; the Call Mix
    8.43K of 8.43K + 54.7K = 63.13K is 13.4 %. Table 3-1 (3.1): 2 of 6 = 33.3 % against 14.4/22.2 = 64.9 %."""
    scen = {s["id"]: s for s in BSF.load("scenarios")}
    ids = {e["id"] for e in BSF.load("errata")}
    for s in scen.values():
        assert s["contradictions"] and all(c.get("erratum") in ids for c in s["contradictions"])
    tr = next(c for c in scen["bsf-3-3"]["contradictions"] if c["field"] == "call_mix.traffic_ratio")
    assert "2.15 of 6.15" in tr["summary"] and "35.0%" in tr["summary"] and "13.4%" in tr["summary"]
    tr = next(c for c in scen["bsf-3-1"]["contradictions"] if c["field"] == "call_mix.traffic_ratio")
    assert "33.3%" in tr["summary"] and "64.9%" in tr["summary"]
    sites = next(c for c in scen["bsf-3-3"]["contradictions"] if c["field"] == "sites_provisioned")
    assert erratum(BSF, sites["erratum"])["kind"] == "contradiction"


def test_bsf_no_invented_site_in_latency():
    """Table 3-11, Ingress Gateway p50 2 ms: the table prints no site."""
    r = BSF.one("latency", table_id="3-11", subject="Ingress Gateway", statistic="p50")
    assert (r["value_ms"], r["site"]) == ("2", "")


# ----------------------------------------------------------------- Policy


def test_policy_percentile_latency_unit_is_a_reading():
    """Table 3-167, UE POST, 50th Percentile (Site1) 39.09: no unit printed, read as ms through an erratum."""
    r = POLICY.one("latency", table_id="3-167", row_label="UE POST", column_label="50th Percentile (Site1)")
    assert (r["value_ms"], r["raw_unit"], r["status"]) == ("39.09", "ms", "corrected")
    assert noted(POLICY, r, kind="unit")["reading"] == "ms"


def test_policy_table_3_172_traffic_unit_is_a_reading():
    """Table 3-172, TOTAL-IGW, Traffic at Site1 21844.57: read as TPS (only the TOTAL-TPS row prints the unit)."""
    r = POLICY.one("measurements", table_id="3-172", row_label="TOTAL-IGW", column_label="Traffic at Site1")
    assert (r["value"], r["unit"], r["status"]) == ("21844.57", "TPS", "corrected")
    tot = POLICY.one("measurements", table_id="3-172", row_label="TOTAL-TPS", column_label="Traffic at Site1")
    assert (tot["value"], tot["status"]) == ("41280", "ok")


def test_policy_table_3_94_target_not_stored_is_marked():
    """Table 3-94, ocpcf-appinfo, CPU (X/Y) - Site 1 '4.40%/25.78%': X = 4.4 stored, Y not a target -> corrected."""
    r = POLICY.one("utilization", table_id="3-94", row_label="ocpcf-appinfo", column_label="CPU (X/Y) - Site 1")
    assert (r["observed_percent"], r["target_percent"], r["status"]) == ("4.4", "", "corrected")


def test_policy_glued_headings_give_their_section():
    """Tables 3-9 and 3-10 stand under '3.1.1.2 CPU Utilization' (glued to a note), not under 3.1.1.1."""
    tables = {t["id"]: t for t in POLICY.load("tables")}
    assert tables["3-9"]["section"] == "3.1.1.2" and tables["3-10"]["section"] == "3.1.1.2"
    assert tables["3-107"]["section"] == "3.2.4.2" and tables["3-7"]["section"] == "3.1.1.1"


def test_policy_leading_dot_errata_quote_their_own_cell():
    """Table 3-164, Memory (Site2) '.28%' and Table 3-119, CPU (Site 2) '.60%': each erratum quotes its cell."""
    for tid, raw in (("3-164", ".28%"), ("3-119", ".60%")):
        e = next(e for e in POLICY.load("errata") if e["table_id"] == tid and e["raw"] == raw)
        assert f"('{raw}')" in e["problem"] and e["reading"] == "0" + raw


def test_policy_binding_replicas_while_disabled_table_3_265():
    """Table 3-265, Binding Service: 10 replicas, while Table 3-263 says Binding Disabled."""
    r = POLICY.one("resources", table_id="3-265", row_label="Binding Service")
    assert (r["replicas"], r["status"]) == ("10", "ok")
    e = noted(POLICY, r, kind="inconsistent-values")
    assert "Binding | Disabled |" in e["raw"] and e["action"] == "kept-as-printed"


def test_policy_na_list_literal_table_3_54():
    """Table 3-54, NRFsim: CPU at Site1 "['NA']": no value, status missing, with a format erratum."""
    r = POLICY.one("utilization", table_id="3-54", row_label="NRFsim", column_label="CPU at Site1")
    assert (r["raw"], r["observed_percent"], r["status"]) == ("['NA']", "", "missing")
    assert noted(POLICY, r, kind="format")["reading"] == "NA: no value"


# ----------------------------------------------------------------- DSR


def test_dsr_table_3_12_readings_are_marked():
    """Table 3-12, 1 SBR(s) + 1 SBR(b): Avg Msg Size '600' (bytes by erratum), DA-MPCPU Peak '21%' (glued header)."""
    rows = [r for r in DSR.rows("measurements") if r["table_id"] == "3-12" and r["row"] == "1"]
    size = next(r for r in rows if r["metric"] == "avg_message_size")
    cpu = next(r for r in rows if r["metric"] == "cpu_peak")
    assert (size["value"], size["unit"], size["status"]) == ("600", "bytes", "corrected")
    assert (cpu["value"], cpu["raw"], cpu["status"]) == ("21", "21%", "corrected")


def test_dsr_table_3_10_weighted_parts():
    """Table 3-10 row 2: 2K MNP x 2 + 2K SFAPP x 4 + 1K GFLEX + 4K GTT = 4 + 8 + 1 + 4 = 17K against 18K/MP."""
    e = next(e for e in DSR.load("errata") if e["table_id"] == "3-10" and e["kind"] == "arithmetic")
    assert "17K" in e["problem"] and "18K/MP" in e["raw"] and "1K GFLEX" in e["raw"]


def test_dsr_prose_parameters_and_guidance():
    """3.2.3: 'SDS DB Size: 300 million routing entities ...'; 3.2.4: 'UDR DB Size: Tested with 40 Million records';
    3.2.6: sessions = subscribers x IPCAN sessions; 3.1: 'Multiqueue should be enabled on any IPFE VMs'."""
    scen = {s["id"]: s for s in DSR.load("scenarios")}
    assert scen["dsr-fabr-sds"]["parameters"]["SDS DB Size"].startswith("300 million routing entities")
    assert scen["dsr-fabr-udr"]["parameters"]["UDR DB Size"] == "Tested with 40 Million records"
    assert scen["dsr-fabr-udr"]["parameters"]["AVP Decoded"] == "User-Name for IMSI"
    g = {x["id"]: x for x in DSR.load("guidance")}
    assert "any IPFE VMs" in g["dsr-G13"]["setting"]
    assert any("IPCAN" in x["cite"]["text"] for x in g.values())
    assert any(x["topic"] == "planning-procedure" for x in g.values())


# ----------------------------------------------------------------- NEF, ShCM


def test_nef_latency_has_no_invented_site():
    """Table 3-5, Average Latency, Subscription 99.2 ms: no site printed."""
    r = NEF.one("latency", table_id="3-5", subject="Subscription", statistic="avg")
    assert (r["value_ms"], r["site"]) == ("99.2", "")


def test_shcm_heap_reading_and_disk_units():
    """Rhino Performance, test 1: Heap (average) '1.4G' -> 1.4 GiB through shcm-E005 (corrected); Cassandra '8GB'
    kept in GB with an erratum saying GB or GiB is not stated."""
    r = next(r for r in SHCM.rows("measurements") if r["metric"] == "heap_avg" and r["row"] == "1")
    assert (r["raw"], r["value"], r["unit"], r["status"]) == ("1.4G", "1.4", "GiB", "corrected")
    d = SHCM.one("measurements", table_id="T-cassandra-disk", metric="commitlog_limit")
    assert (d["value"], d["unit"], d["status"]) == ("8", "GB", "ok")
    e = next(e for e in SHCM.load("errata") if e["id"] in d["note"])
    assert e["kind"] == "unit" and e["raw"] == "8GB\naround 9GB"
    assert all(s["sites_with_traffic"] == [] for s in SHCM.load("scenarios"))
