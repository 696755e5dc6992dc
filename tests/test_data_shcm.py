"""Values of data/shcm/ checked against the Sh Cache Microservice benchmark book (seed 004)."""
import re

from conftest import ROOT, DocData, seed_path

OUT = ROOT / "data" / "shcm"

_DATA = DocData("shcm")
rows, load, one = _DATA.rows, _DATA.load, _DATA.one


def test_rhino_performance_test_1():
    """T-rhino-performance, test 1: 1000 SPS, 1800 RPS, 2 hours, config A, CPU 280% (= 2.8 cores), heap 1.4G."""
    m = lambda metric: one("measurements", table_id="T-rhino-performance", row_label="1", metric=metric)
    assert (m("sps")["value"], m("sps")["unit"]) == ("1000", "SPS")
    assert (m("rps")["value"], m("rps")["unit"]) == ("1800", "RPS")
    assert (m("duration")["value"], m("duration")["unit"]) == ("2", "hours")
    cpu = m("cpu_percent")
    assert (cpu["value"], cpu["unit"], cpu["raw"]) == ("280", "percent", "280%")
    cores = m("cpu_cores")
    assert (cores["value"], cores["unit"], cores["raw"]) == ("2.8", "cores", "280%")
    e = next(e for e in load("errata") if cores["note"].startswith(e["id"]))
    assert e["action"] == "read-as" and "280% = 2.8 cores" in e["reading"] and "JVM" in e["raw"]
    heap = m("heap_avg")
    assert (heap["value"], heap["raw"]) == ("1.4", "1.4G")
    cfg = one("settings", table_id="T-rhino-performance", row_label="1", key="Server config")
    assert cfg["value"] == "A"
    assert cpu["line"] == cores["line"] == cfg["line"] == "551" and cpu["row"] == "1"


def test_rhino_performance_test_6_peak():
    m = lambda metric: one("measurements", table_id="T-rhino-performance", row_label="6", metric=metric)
    assert (m("sps")["value"], m("rps")["value"], m("cpu_percent")["value"], m("cpu_cores")["value"]) == (
        "1400", "2520", "380", "3.8")
    assert one("settings", table_id="T-rhino-performance", row_label="6", key="Server config")["value"] == "B"


def test_client_latency_test_1_percentiles():
    """T-client-latency, test 1: 50th 6, 75th 17.9, 90th 58.8, 95th 119, 99th 264, Max 757 ms."""
    got = {r["statistic"]: r["value_ms"] for r in rows("latency") if r["table_id"] == "T-client-latency" and r["row_label"] == "1"}
    assert got == {"p50": "6", "p75": "17.9", "p90": "58.8", "p95": "119", "p99": "264", "max": "757"}


def test_client_latency_test_4_max_837_9():
    r = one("latency", table_id="T-client-latency", row_label="4", statistic="max")
    assert (r["value_ms"], r["raw"], r["column_label"], r["scenario"]) == ("837.9", "837.9", "Max", "shcm-test-4")


def test_seven_scenarios_in_sps():
    ss = {s["id"]: s for s in load("scenarios")}
    assert list(ss) == [f"shcm-test-{i}" for i in range(1, 8)]
    assert [s["load"]["total"] for s in ss.values()] == [1000, 1100, 1200, 1000, 1200, 1400, 1000]
    assert {s["load"]["unit"] for s in ss.values()} == {"SPS"}
    assert [s["parameters"]["RPS"] for s in ss.values()] == ["1800", "1980", "2160", "1800", "2160", "2520", "1800"]
    assert [s["parameters"]["Server config"] for s in ss.values()] == list("AAABBBC")
    assert {s["asm"] for s in ss.values()} == {"not_applicable"}
    assert {s["duration"]["hours"] for s in ss.values()} == {2}


def test_load_units_never_mixed():
    for r in rows("measurements"):
        if r["metric"] == "sps":
            assert r["unit"] == "SPS"
        if r["metric"] == "rps":
            assert r["unit"] == "RPS"


def test_mix_and_data_pool_errata():
    errata = load("errata")
    mix = next(e for e in errata if e["kind"] == "contradiction" and "84% GETS" in e["raw"])
    assert "1.8" in mix["problem"]
    # 5 scenarios x 200,000 subscribers = the conclusion's pool of 1m: noted, not a contradiction
    pool = next(e for e in errata if "1m" in e["raw"])
    assert pool["kind"] == "other" and pool["action"] == "noted"
    assert "200,000" in pool["problem"] and "5 x 200,000 = 1,000,000" in pool["problem"]
    s = load("scenarios")[0]
    assert {c["erratum"] for c in s["contradictions"]} == {mix["id"]}
    assert any(pool["id"] in n for n in s["notes"])


def test_settings_tables():
    assert one("settings", table_id="T-software-versions", key="Cassandra")["value"] == "3.11.2"
    assert one("settings", table_id="T-jvm-settings", key="Heap")["value"] == "3072m"
    assert one("settings", table_id="T-server-configs", key="B")["value"].startswith("6 c5.2xlarge servers.")
    assert len([r for r in rows("settings") if r["table_id"] == "T-scenario-files"]) == 5


def test_services():
    sv = {s["service"]: s for s in load("services")}
    assert sv["Rhino node"]["role"] == "traffic" and sv["Cassandra"]["role"] == "database"


def test_no_phone_number_from_the_xml_is_published():
    text = seed_path("shcm").read_text(encoding="utf-8")
    numbers = set(re.findall(r"tel:(\+?\d{6,})", text))
    assert numbers, "expected the XML examples to hold tel: numbers"
    digits = {n.lstrip("+") for n in numbers}
    for p in OUT.iterdir():
        data = p.read_text(encoding="utf-8")
        for n in digits:
            assert n not in data, (p.name, "phone number published")
        assert "<Sh-Data>" not in data or p.name == "errata.yaml"


def test_every_reconstructed_table_is_catalogued():
    lines = seed_path("shcm").read_text(encoding="utf-8").split("\n")
    # the two untitled one-cell-per-line tables, found independently of the curation code
    headers = [i for i, l in enumerate(lines) if l.startswith("Test SPS RPS Duration (hours) Server config")]
    assert len(headers) == 2
    titles = {lines[i - 2].strip() for i in headers}
    assert titles == {"Rhino Performance", "Client latency in milliseconds grouped by percentile"}
    from curation import shcm
    rebuilt = {t["id"] for t in shcm.curate().tables}
    catalogued = {t["id"]: t for t in load("tables")}
    assert {"T-rhino-performance", "T-client-latency"} <= rebuilt
    assert rebuilt == set(catalogued)
    assert [catalogued[t]["title"] for t in ("T-rhino-performance", "T-client-latency")] == [
        "Rhino Performance", "Client latency in milliseconds grouped by percentile"]
    used = {r["table_id"] for k in ("measurements", "latency", "settings") for r in rows(k)}
    assert used == set(catalogued)
