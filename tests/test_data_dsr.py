"""Real values of the DSR cloud benchmarking chapter (seed 002) in data/dsr/.

Every expected value below was read from the seed text; each test names its
table and row. Regenerate the data with ``python -m curation dsr``.
"""
from __future__ import annotations

import re

import pandas as pd
import pytest
import yaml

from conftest import data_file, one, seed_path


@pytest.fixture(scope="module")
def meas() -> pd.DataFrame:
    return pd.read_csv(data_file("dsr", "measurements.csv"), dtype={"table_id": str, "note": str, "raw": str})


@pytest.fixture(scope="module")
def sett() -> pd.DataFrame:
    return pd.read_csv(data_file("dsr", "settings.csv"), dtype=str, keep_default_na=False)


def load(name):
    return yaml.safe_load(data_file("dsr", name).read_text(encoding="utf-8"))


def seed_text() -> str:
    return seed_path("dsr").read_text(encoding="utf-8")


# ---------------------------------------------------------------- benchmark rows
def test_table_3_1_row1_relay_12vcpu(meas):
    """Table 3-1, row 1 'Relay': 288K MPS on 16 DA-MPs of 12 vCPU (Regular), CPU Peak 19%, RAM 35% (line 256)."""
    kw = dict(table_id="3-1", row=1)
    r = one(meas, metric="mps_achieved", **kw)
    assert (r.value, r.unit, r.raw, r.subject, r.line, r.scenario) == (288000, "MPS", "288K", "Relay", 256, "dsr-relay-12vcpu")
    assert one(meas, metric="da_mp_vcpu", **kw).value == 12
    assert one(meas, metric="da_mp_count", **kw).value == 16
    assert one(meas, metric="cpu_peak", **kw).value == 19
    assert one(meas, metric="ram_peak", **kw).value == 35


def test_table_3_1_row3_relay_18vcpu_large(meas, sett):
    """Table 3-1, row 3 'Relay': 560K, 18 vCPU (Large), profile 35K_MPS, CPU Peak 28%, RAM 26% (line 268)."""
    kw = dict(table_id="3-1", row=3)
    assert one(meas, metric="mps_achieved", **kw).value == 560000
    assert one(meas, metric="da_mp_vcpu", **kw).value == 18
    assert one(meas, metric="cpu_peak", **kw).value == 28
    assert one(meas, metric="ram_peak", **kw).value == 26
    assert one(sett, table_id="3-1", row="3", column_label="DA-MP Flavor").value == "18 vCPU (Large)"
    assert one(sett, table_id="3-1", row="3", column_label="DA-MP Profile").value == "35K_MPS"


def test_table_3_8_fabr_udr_per_da_mp(meas):
    """Table 3-8, row 1 'FABR + Relay': '288K (18K/MP)' -> 288000 total and 18000 per DA-MP, CPU Peak 38%."""
    kw = dict(table_id="3-8", row=1)
    assert one(meas, metric="mps_achieved", **kw).value == 288000
    r = one(meas, metric="mps_achieved_per_da_mp", **kw)
    assert (r.value, r.raw) == (18000, "288K (18K/MP)")
    assert one(meas, metric="cpu_peak", **kw).value == 38
    assert one(meas, metric="da_mp_vcpu", **kw).value == 12


def test_table_3_15_dsa_previous_location_check(meas):
    """Table 3-15, row 1 'Previous_Location_Check': 9.2K per DA-MP, 12 vCPU DA-MP, UDR 18vCPU, CPU 29%, RAM 63%."""
    kw = dict(table_id="3-15", row=1)
    r = one(meas, metric="mps_achieved_per_da_mp", **kw)
    assert (r.value, r.raw, r.subject) == (9200, "9.2K", "Previous_Location_Check")
    assert one(meas, metric="da_mp_vcpu", **kw).value == 12
    assert one(meas, metric="udr_vcpu", **kw).value == 18
    assert one(meas, metric="cpu_peak", **kw).value == 29
    assert one(meas, metric="ram_peak", **kw).value == 63
    assert one(meas, metric="da_mp_count", **kw).value == 2


def test_table_3_10_vstp_bare_percent_and_home_sms(meas):
    """Table 3-10 row 1 'SFAPP + MNP + GTT' 18K/MP, 8 vCPU, CPU '22' read as percent; row 13 Home SMS split."""
    kw = dict(table_id="3-10", row=1)
    assert one(meas, metric="mps_achieved_per_ss7_mp", **kw).value == 18000
    assert one(meas, metric="ss7_mp_vcpu", **kw).value == 8
    cpu = one(meas, metric="cpu_peak", **kw)
    assert (cpu.value, cpu.raw, cpu.status) == (22, "22", "corrected")
    home = dict(table_id="3-10", row=13)
    assert one(meas, metric="mps_achieved_per_ss7_mp", **home).value == 10000
    assert one(meas, metric="mps_achieved_per_proxy_mp", **home).value == 20000
    assert one(meas, metric="ss7_mp_count", **home).value == 2


def test_table_3_12_pdra_sbr_mps(meas):
    """Table 3-12 row 2 'Single Server group (4 SBR(s), 4 SBR(b))': SBR MPS 200K, Avg Msg Size 648, DA-MP CPU 25%."""
    kw = dict(table_id="3-12", row=2)
    assert one(meas, metric="sbr_mps_achieved", **kw).value == 200000
    assert one(meas, metric="avg_message_size", **kw).value == 648
    r = one(meas, metric="cpu_peak", **kw)
    assert (r.value, r.column_label) == (25, "DA-MPCPU Peak")


def test_mps_never_mixed_with_tps(meas):
    assert not meas.unit.isin(["TPS"]).any()
    assert set(meas[meas.metric.str.contains("mps")].unit) == {"MPS"}


# ---------------------------------------------------------------- alarms and configuration
def test_table_3_2_alarm_22221(sett):
    """Table 3-2 row 5: 22221 Minor DA-MP 'Routing MPS Rate' (line 285)."""
    rows = sett[(sett.table_id == "3-2") & (sett.key == "22221")]
    got = dict(zip(rows.column_label, rows.value))
    assert got["Severity"] == "Minor"
    assert got["Server"] == "DA-MP"
    assert got["Name"] == "Routing MPS Rate"
    assert got["Description"].startswith("Message processing rate for this DA-MP is approaching or exceeding")
    assert set(rows.category) == {"alarms"} and set(rows.line) == {"285"}


def test_table_3_13_alarm_31232_severity_list(sett):
    """Table 3-13 row 12: 31232 'Critical, Minor' DA-MP 'HA Late Heartbeat Warning'."""
    r = one(sett, table_id="3-13", key="31232", column_label="Severity")
    assert r.value == "Critical, Minor"
    assert one(sett, table_id="3-13", key="31232", column_label="Name").value == "HA Late Heartbeat Warning"


def test_table_3_22_diameter_configuration(sett):
    """Table 3-22 row 8: Total Number of Diameter Connections 160; row 6: Initiator Connections 120."""
    assert one(sett, table_id="3-22", key="Total Number of Diameter Connections").value == "160"
    assert one(sett, table_id="3-22", key="Number of Initiator Connections").value == "120"


def test_table_3_14_side_by_side(sett):
    """Table 3-14: TimeDistChk_Config 2000 entries (row 11) and Application Threads 'Request' 6 (row 10)."""
    assert one(sett, table_id="3-14", key="TimeDistChk_Config").value == "2000"
    r = one(sett, table_id="3-14", key="Request")
    assert (r.value, r.row) == ("6", "10")
    assert len(sett[(sett.table_id == "3-14") & (sett.key == "VplmnORCst_Config")]) == 2


def test_table_3_7_udr_profile(sett):
    """Table 3-7 UDR Profile: vCPU 18, RAM (GB) 70, HDD (GB) 400."""
    got = dict(zip(sett[sett.table_id == "3-7"].key, sett[sett.table_id == "3-7"].value))
    assert got == {"vCPU": "18", "RAM (GB)": "70", "HDD (GB)": "400"}


# ---------------------------------------------------------------- scenarios, guidance, coverage
def test_scenarios_per_result_row():
    scen = {s["id"]: s for s in load("scenarios.yaml")}
    assert len(scen) == 33
    s = scen["dsr-relay-12vcpu"]
    assert (s["load"]["total"], s["load"]["unit"], s["asm"]) == (288000, "MPS", "not_applicable")
    assert scen["dsr-dsa-all-stateful"]["load"]["total"] is None  # only per DA-MP is printed


def test_guidance_quote_verbatim():
    text = seed_text()
    lines = text.split("\n")
    rules = load("guidance.yaml")
    for g in rules:
        assert g["cite"]["text"] in lines[g["cite"]["line"] - 1], g["id"]
    txq = next(g for g in rules if "120000" in g["cite"]["text"])
    assert txq["cite"]["text"] == "Txqueuelen: The default of 500 is too small. Recommendation is to set this parameter to 120000."
    assert txq["cite"]["line"] == 104
    assert any(g["cite"]["text"] == "The recommended configuration is: Hyper-Threading is enabled with 1:1 CPU "
               "subscription ratio." for g in rules)


def test_every_caption_in_tables_yaml():
    text = seed_text()
    printed = set(re.findall(r"^Table (3-\d+) ", text, re.M))
    ids = {t["id"] for t in load("tables.yaml")}
    assert printed == {f"3-{n}" for n in range(1, 26)}
    assert printed <= ids


def test_errata_referenced_exist(meas, sett):
    ids = {e["id"] for e in load("errata.yaml")}
    notes = pd.concat([meas.note.fillna(""), sett.note])
    for n in notes:
        for tok in re.findall(r"dsr-E\d{3}", n):
            assert tok in ids
