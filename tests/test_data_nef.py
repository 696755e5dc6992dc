"""Values of data/nef/ checked against the NEF Benchmarking Model B chapter (seed 001, NEF 24.2.0)."""
from conftest import ROOT, DocData, seed_path

OUT = ROOT / "data" / "nef"

_DATA = DocData("nef")
rows, load, one = _DATA.rows, _DATA.load, _DATA.one


def scenario(sid):
    return next(s for s in load("scenarios") if s["id"] == sid)


def test_table_3_5_me_scenario_1_total_tps_2500():
    r = one("measurements", table_id="3-5", row_label="Total TPS", subject="Total")
    assert (r["scenario"], r["value"], r["unit"], r["line"], r["raw"]) == ("nef-me-1", "2500", "TPS", "109", "2500")
    r = one("measurements", table_id="3-5", row_label="Total TPS", subject="Notification")
    assert r["value"] == "2000"


def test_table_3_5_subscription_latency_99_2_ms():
    r = one("latency", table_id="3-5", row_label="Average Latency", subject="Subscription")
    assert (r["statistic"], r["value_ms"], r["raw"], r["line"]) == ("avg", "99.2", "99.2 ms", "110")
    total = one("latency", table_id="3-5", row_label="Average Latency", subject="Total")
    assert (total["raw"], total["value_ms"], total["status"]) == ("NA", "", "missing")


def test_table_3_5_average_cpu_and_memory():
    cpu = one("measurements", table_id="3-5", row_label="Average CPU", subject="Total")
    assert (cpu["value"], cpu["unit"], cpu["qualifier"], cpu["raw"]) == ("60", "percent", "~", "~60%")
    mem = one("measurements", table_id="3-5", row_label="Max Memory", subject="Total")
    assert (mem["value"], mem["unit"], mem["raw"]) == ("2.0", "GB", "2.0 GB")


def test_scenario_nef_me_1_record():
    s = scenario("nef-me-1")
    assert s["load"]["total"] == 2500 and s["load"]["unit"] == "TPS" and s["load"]["cite"]["table_id"] == "3-5"
    assert s["duration"]["hours"] == 90 and s["duration"]["cite"]["table_id"] == "3-4"
    assert s["sites_with_traffic"] == ["site1"] and s["asm"] == "unknown"
    assert s["parameters"]["Target CPU"] == "70%"
    assert {"3-1", "3-2", "3-3", "3-4", "3-5"} == set(s["tables"])


def test_ten_scenarios_with_tps_loads():
    ss = {s["id"]: s for s in load("scenarios")}
    assert len(ss) == 10
    expect = {"nef-me-1": 2500, "nef-me-2": 2500, "nef-qos-1": 2500, "nef-qos-2": 2500, "nef-ti-1": 2550,
              "nef-ti-2": 2500, "nef-dt-1": 2600, "nef-dt-2": 2600, "nef-msisdn-less-1": 6000, "nef-msisdn-less-2": 6000}
    assert {k: v["load"]["total"] for k, v in ss.items()} == expect
    assert {v["load"]["unit"] for v in ss.values()} == {"TPS"}
    assert {v["duration"]["hours"] for k, v in ss.items() if k.endswith("-2")} == {19}


def test_table_3_1_deployment_performance_200m_is_0_2_cores():
    r = one("resources", table_id="3-1", row_label="performance", scenario="nef-me-1")
    assert (r["replicas"], r["raw_cpu"], r["cpu_cores"], r["raw_mem"], r["mem_gib"]) == ("2", "200m", "0.2", "1Gi", "1")
    assert r["line"] == "65" and r["component"] == "app"
    r = one("resources", table_id="3-1", row_label="NEF Ingress Gateway", scenario="nef-me-2")
    assert (r["replicas"], r["cpu_cores"], r["mem_gib"], r["raw_mem"]) == ("4", "4", "4", "4Gi")


def test_table_3_25_fiveGC_ingress_one_replica_and_stub_diam():
    r = one("resources", table_id="3-25", row_label="FiveGC Ingress", scenario="nef-dt-1")
    assert r["replicas"] == "1" and r["note"].startswith("nef-E")
    d = one("resources", table_id="3-26", row_label="DIAM", scenario="nef-dt-2")
    assert (d["component"], d["replicas"], d["cpu_cores"], d["mem_gib"]) == ("stub", "3", "1", "1")


def test_table_3_3_target_cpu_70_percent():
    r = one("settings", table_id="3-3", key="Target CPU")
    assert (r["value"], r["line"], r["scenario"]) == ("70%", "90", "nef-me-1")


def test_table_3_24_total_tps_arithmetic_erratum():
    r = one("measurements", table_id="3-24", row_label="Total TPS", subject="Total")
    assert r["value"] == "2500" and r["raw"] == "2500"
    parts = [int(one("measurements", table_id="3-24", row_label="Total TPS", subject=s)["value"])
             for s in ("Subscription", "Unsubscription", "Notification")]
    assert parts == [650, 650, 1250] and sum(parts) == 2550
    e = next(e for e in load("errata") if e["table_id"] == "3-24" and e["kind"] == "arithmetic")
    assert e["lines"] == [359] and "2550" in e["problem"] and r["note"].startswith(e["id"])
    s = scenario("nef-ti-2")
    assert any(c["field"] == "load.total" and c["erratum"] == e["id"] for c in s["contradictions"])


def test_unsubscription_latency_outliers_have_errata():
    for tid, raw, line in (("3-8", "1532 ms", 144), ("3-24", "560 ms", 360)):
        r = one("latency", table_id=tid, row_label="Average Latency", subject="Unsubscription")
        assert r["raw"] == raw and r["value_ms"] == raw.split()[0]
        e = next(e for e in load("errata") if e["id"] == r["note"])
        assert e["raw"] == raw and e["lines"] == [line]


def test_glued_captions_have_errata():
    glued = {e["table_id"] for e in load("errata") if e["kind"] == "format" and e["where"] == "caption"}
    assert glued == {"3-2", "3-10", "3-18", "3-26", "3-34"}


def test_services_roles():
    sv = {s["service"]: s for s in load("services")}
    assert sv["API Router"]["role"] == "traffic" and sv["app-info"]["role"] == "management"
    assert sv["GMLC"]["component"] == "stub" and sv["GMLC"]["role"] == "test"
    names = {r["service"] for r in rows("resources")}
    assert names <= set(sv)


def test_no_internal_ip_published():
    for p in OUT.iterdir():
        assert "10.75.150.180" not in p.read_text(encoding="utf-8"), p.name


def test_every_segmented_table_is_catalogued():
    from curation.pipetables import segment
    found = {t.id for t in segment(seed_path("nef"))}
    assert len(found) == 40
    catalogued = {t["id"] for t in load("tables")}
    assert found <= catalogued
    for t in load("tables"):
        assert t["kind"] != "excluded"
    data_tables = {r["table_id"] for k in ("resources", "settings", "measurements", "latency") for r in rows(k)}
    assert data_tables == found


def test_one_call_model_per_api_from_the_titles():
    """Each feature's two scenarios share the call model their titles name: 'Monitoring Event Test Scenario 1' (L79),
    'Quality of Service ...' (L190), 'Traffic Influence ...' (L295), 'Device Trigger ...' (L404),
    'MSISDN-Less-MO-SMS Test Scenario 1' (L512) and their scenario 2 headings (L113, 224, 329, 438, 546)."""
    seed = seed_path("nef").read_text(encoding="utf-8").splitlines()
    expect = {"nef-me": ("nef-monitoring-event", "Monitoring Event", "Monitoring Event", (79, 113)),
              "nef-qos": ("nef-qos", "Quality of Service", "Quality of Service", (190, 224)),
              "nef-ti": ("nef-traffic-influence", "Traffic Influence", "Traffic Influence", (295, 329)),
              "nef-dt": ("nef-device-trigger", "Device Trigger", "Device Trigger", (404, 438)),
              "nef-msisdn-less": ("nef-msisdn-less-mo-sms", "MSISDN-Less MO SMS", "MSISDN-Less-MO-SMS", (512, 546))}
    for prefix, (cm_id, name, words, lines) in expect.items():
        for n, line in zip((1, 2), lines):
            cm = scenario(f"{prefix}-{n}")["call_model"]
            assert (cm["id"], cm["name"]) == (cm_id, name)
            assert cm["cite"] == {"text": words, "table_id": None, "line": line, "where": "title"}
            assert seed[line - 1].endswith(f"{words} Test Scenario {n}")
    assert "3.2.1.5 MSISDN-Less MO SMS Testcases" in seed  # the name as the feature heading prints it
    assert len({s["call_model"]["id"] for s in load("scenarios")}) == 5


def test_pre_loaded_subscription_records_counted_for_me_qos_ti():
    """Section 3.1 Note (L19): 'pre-loaded database with 1 million subscription records for Monitoring (ME), Quality Of
    Service (QOS), and Traffic Influence (TI)': 1,000,000 subscription records for those six runs, none for Device
    Trigger and MSISDN-less MO SMS; no NEF service holds them (the chapter puts them in the database)."""
    seed = seed_path("nef").read_text(encoding="utf-8").splitlines()
    assert "pre-loaded database with 1 million subscription records for Monitoring (ME)" in seed[19 - 1]
    for s in load("scenarios"):
        sub = s["subscribers"]
        if s["id"].split("-")[1] in ("me", "qos", "ti"):
            assert (sub["cite"]["line"], sub["status"]) == (19, "ok")
            assert sub["counts"] == [{"value": 1000000, "what": "subscription records", "approx": False,
                                      "raw": "1 million subscription records", "status": "ok"}], s["id"]
        else:
            assert sub is None, s["id"]
    assert [s["service"] for s in load("services") if "holds" in s] == []
