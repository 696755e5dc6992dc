"""DSR (DA-MP / SS7-MP) and ShCM (Rhino node) calculators: hand-computed expectations from named
table rows of the guides, documented errors for bad input, and one Pyodide run per calculator."""
from __future__ import annotations

import csv
import io
import re
from fractions import Fraction

import pytest

from calculators import catalogue, dsr, report, shcm
from calculators.dsr import DsrError
from calculators.shcm import ShcmError
from conftest import BOOT_LIMIT_MS, CALC_READY, ROOT, computed, csv_body


def report_sheet(rep: dict, name: str) -> list[list]:
    """The rows of sheet ``name`` of a report (calculators.report)."""
    return report.sheet_named(rep, name)["rows"]


# ------------------------------------------------------------------ bundle

def test_bundle_carries_cited_figures(bundle):
    """Table 3-1 row 1 (Relay, 12 vCPU): 288K MPS, 16 DA-MPs (caption), CPU peak 19 %, profile 30K_MPS;
    T-rhino-performance row 1 (test 1): 1800 RPS, 280 % = 2.8 cores, config A; T-hardware: 8 vCPUs."""
    run = next(r for r in bundle["dsr_runs"] if r["id"] == "dsr-relay-12vcpu")
    m = run["metrics"]
    assert (m["mps_achieved"]["value"], m["mps_achieved"]["table_id"], m["mps_achieved"]["row"]) == (288000, "3-1", 1)
    assert m["da_mp_count"]["value"] == 16 and m["cpu_peak"]["value"] == 19 and m["da_mp_vcpu"]["value"] == 12
    assert "mps_achieved_per_da_mp" not in m  # not printed in Table 3-1: computed by the calculator, never stored
    assert run["settings"]["DA-MP Profile"]["value"] == "30K_MPS"
    t1 = next(t for t in bundle["shcm_tests"] if t["id"] == "shcm-test-1")
    assert t1["metrics"]["rps"]["value"] == 1800 and t1["metrics"]["cpu_cores"]["value"] == 2.8
    assert t1["metrics"]["cpu_cores"]["table_id"] == "T-rhino-performance" and t1["metrics"]["cpu_cores"]["row"] == 1
    assert t1["config"]["value"] == "A"
    assert bundle["shcm_info"]["node"]["vcpu"] == 8 and bundle["shcm_info"]["node"]["instance"] == "c5.2xlarge"
    assert set(bundle["shcm_info"]["configs"]) == {"A", "B", "C"}


# ------------------------------------------------------------------ DSR

def test_relay_12vcpu_at_measured_rate(bundle):
    """Table 3-1 row 1: 288,000 MPS on 16 DA-MPs = 18,000 MPS per DA-MP (derived) at 19 % CPU.
    At its own 288K MPS and no ceiling: 288000 / 18000 = 16 DA-MPs, 16 x 12 vCPU = 192 vCPU."""
    res = dsr.compute(bundle, "dsr-relay-12vcpu", 288000)
    assert res["how"] == "derived" and res["rate"] == 18000 and res["cpu_peak"] == 19
    assert res["kind"] == "DA-MP" and res["total"] == 16 and res["vcpu_total"] == 192
    assert res["cpu_all"] == 19 and res["warnings"] == []


def test_issue_case_relay_240k_at_40_percent(bundle):
    """A reported DSR case. Table 3-1 row 1: 288,000 / 16 = 18,000 MPS per DA-MP at 19 % CPU, profile '30K_MPS'.
    Before: 18000 x 40 / 19 = 37,894.7 MPS per DA-MP (above the run's own 30K profile) -> 240000 / 37894.7 = 6.33 -> 7.
    After: 40 % is inside the 14-53 % measured for 12-vCPU DA-MPs, so the measured rate scales to 37,894.7 but is
    capped at the profile's 30,000 -> ceil(240000 / 30000) = 8; the engineered method gives 240000 / 30000 = 8 too."""
    res = dsr.compute(bundle, "dsr-relay-12vcpu", 240000, cpu_ceiling_percent=40)
    assert res["rate_at_ceiling"] == Fraction(18000 * 40, 19)
    assert res["methods"]["measured"] == {"rate": 30000, "needed": 8, "capped_range": False, "capped_profile": True}
    assert res["methods"]["engineered"] == {"rate": 30000, "needed": 8}
    assert res["headline"] == "both" and res["needed"] == 8 and res["total"] == 8 and res["vcpu_total"] == 96
    assert any("never given more than its profile's rated MPS" in w for w in res["warnings"])


def test_issue_case_at_80_percent_is_capped_at_the_measured_range(bundle):
    """At 80 % (before: 18000 x 80 / 19 = 75,789 MPS per DA-MP): 80 % is above the highest CPU peak measured for a
    12-vCPU DA-MP (53 %, Table 3-19 RSA), so the rate scales only to 18000 x 53 / 19 = 50,210.5, then the profile
    cap 30,000: 8 DA-MPs, with a warning naming the 14-53 % range."""
    res = dsr.compute(bundle, "dsr-relay-12vcpu", 240000, cpu_ceiling_percent=80)
    assert res["flavour_range"] == (14, 53)
    assert res["rate_at_ceiling"] == Fraction(18000 * 53, 19) and res["methods"]["measured"]["capped_range"] is True
    assert res["methods"]["measured"]["rate"] == 30000 and res["needed"] == 8
    assert any("range 14-53%" in w for w in res["warnings"])


def test_measured_method_is_headline_when_more_conservative(bundle):
    """Table 3-1 row 1 without a ceiling: measured 18,000 MPS per DA-MP -> 240000 / 18000 = 13.3 -> 14;
    engineered 30K -> 8. The headline is the measured 14 (the more DA-MPs)."""
    res = dsr.compute(bundle, "dsr-relay-12vcpu", 240000)
    assert res["methods"]["measured"]["needed"] == 14 and res["methods"]["engineered"]["needed"] == 8
    assert res["headline"] == "measured" and res["total"] == 14


def test_mated_pair_sizes_each_dsr_for_the_whole_target(bundle):
    """Mated pair (seed 002 line 28: one DSR supports full traffic when its mate is unavailable), 240,000 MPS, 40 %,
    1 spare: 8 + 1 = 9 DA-MPs per DSR, 18 in all (216 vCPU). Normal CPU: 120,000 x 19 / (9 x 18,000) = 14.07 %;
    mate down and the spare lost: 240,000 x 19 / (8 x 18,000) = 31.67 %."""
    res = dsr.compute(bundle, "dsr-relay-12vcpu", 240000, cpu_ceiling_percent=40, spare=1, redundancy="mated-pair")
    assert (res["needed"], res["per_dsr"], res["dsrs"], res["total"], res["vcpu_total"]) == (8, 9, 2, 18, 216)
    assert res["cpu_all"] == Fraction(120000 * 19, 9 * 18000)
    assert res["cpu_after_loss"] == Fraction(240000 * 19, 8 * 18000)


def test_page_form_carries_redundancy_and_the_measured_cpu_range(bundle):
    """The page's run_web passes the redundancy it is given (mated pair) and
    keeps it in the permalink inputs. The DA-MP CPU range is the lowest and highest CPU peak measured over the sizable
    DA-MP runs: 14 % (Table 3-15 row 8, DSA All Stateful + All stateless) to 53 % (Table 3-19 row 1, RSA); no run of a
    kind gives no range."""
    out = dsr.run_web(bundle, {"scenario": "dsr-relay-12vcpu", "target": "240000", "ceiling": "40", "spare": "1",
                               "redundancy": "mated-pair"})
    assert out["inputs"]["redundancy"] == "mated-pair"
    assert out["downloads"]["csv"]["mime"] == "text/csv" and out["downloads"]["csv"]["filename"] == "dsr-dsr-relay-12vcpu.csv"
    none = dsr.run_web(bundle, {"scenario": "dsr-relay-12vcpu", "target": "240000", "ceiling": "40", "spare": "1"})
    assert none["inputs"]["redundancy"] == "none"
    assert dsr.cpu_range({"dsr_runs": []}, "DA-MP") is None
    lo, hi = dsr.cpu_range(bundle, "DA-MP")
    assert (lo, hi) == (14, 53)


def test_relay_12vcpu_at_ceiling_with_spare(bundle):
    """Table 3-1 row 1 at 1,000,000 MPS, 60 % ceiling, N+1, no redundancy: 60 % is above the 53 % measured for the
    flavour, so 18000 x 53 / 19 = 50,210.5, capped at the profile's 30,000 (both methods 30,000). At most 16 DA-MPs per
    site, 1 of them spare: 15 carry traffic, so ceil(1e6 / (30000 x 15)) = ceil(2.22) = 3 DSR sites of 333,333.3 MPS:
    ceil(333,333.3 / 30000) = 12, + 1 spare = 13 per site, 39 DA-MPs = 468 vCPU (before the site limit: 35 in one
    DSR). At the measured rate 333,333.3 / 18000 = 18.5 -> 19, at the ceiling / 50,210.5 = 6.6 -> 7 (neither the
    headline). CPU per DA-MP: 333,333.3 x 19 / (13 x 18000) = 27.07 %, with the spare lost / (12 x 18000) = 29.32 %."""
    res = dsr.compute(bundle, "dsr-relay-12vcpu", 1_000_000, cpu_ceiling_percent=60, spare=1)
    assert res["rate_at_ceiling"] == Fraction(18000 * 53, 19)
    assert (res["units"], res["dsrs"], res["share"]) == (3, 3, Fraction(1_000_000, 3))
    assert (res["mps_at_measured"], res["mps_at_ceiling"], res["needed"], res["per_dsr"], res["total"]) == (19, 7, 12, 13, 39)
    assert res["vcpu_total"] == 468
    assert float(res["cpu_all"]) == pytest.approx(27.066, abs=1e-3)
    assert float(res["cpu_after_loss"]) == pytest.approx(29.321, abs=1e-3)
    assert res["profile"]["rate"] == 30000
    assert any(n.startswith("dsr-E036") for n in res["notes"])  # 'overload' case at 19 % CPU


def test_a_da_mp_never_gets_more_than_its_profile_rate(bundle):
    """Every DA-MP run with a profile, at every ceiling from 1 to 100 %: the rate the headline uses is at most the
    profile's rated MPS (Table 3-1 rows 1-3: 30K, 40K_MPS_FABR, 35K), so the DA-MPs carrying traffic over all sites
    are at least ceil(500,000 / the profile's rate); and no site holds more than 16 DA-MPs."""
    for run in dsr.sizable_runs(bundle):
        prof = dsr.profile_rate(run)
        if dsr.mp_kind(run) != "DA-MP" or prof is None:
            continue
        for ceiling in (1, 19, 40, 53, 80, 100):
            res = dsr.compute(bundle, run["id"], 500000, cpu_ceiling_percent=ceiling)
            assert res["methods"]["measured"]["rate"] <= prof[0], (run["id"], ceiling)
            assert res["needed"] * res["dsrs"] >= -(-500000 // prof[0])
            assert res["per_dsr"] <= 16, (run["id"], ceiling)


def test_relay_18vcpu_exact_boundary(bundle):
    """Table 3-1 row 3 (18 vCPU Large): 560,000 / 16 = 35,000 MPS per DA-MP at 28 % CPU, profile 35K_MPS; 28 % is
    the only peak measured for an 18-vCPU DA-MP, so a 56 % ceiling does not scale it: 560,000 / 35,000 = exactly 16
    DA-MPs (exact fractions: no 16.000001 -> 17), 16 x 18 = 288 vCPU."""
    res = dsr.compute(bundle, "dsr-relay-18vcpu", "560,000", cpu_ceiling_percent="56")
    assert res["rate"] == 35000 and res["rate_at_ceiling"] == 35000 and res["flavour_range"] == (28, 28)
    assert res["total"] == 16 and res["vcpu_total"] == 288 and res["headline"] == "both"


def test_printed_per_da_mp_rate_table_3_8_and_3_19(bundle):
    """Table 3-8 (FABR + Relay) prints '288K (18K/MP)' at 38 % CPU: 288,000 MPS at a 38 % ceiling = 16 DA-MPs.
    Table 3-19 (RSA) prints '30K (15K/MP)' at 53 % CPU: 100,000 MPS at a 50 % ceiling:
    15000 x 50 / 53 = 14,150.9 per DA-MP -> 7.07 -> 8 DA-MPs (ceiling below the measured peak: warned)."""
    res = dsr.compute(bundle, "dsr-fabr-udr", 288000, cpu_ceiling_percent=38)
    assert res["how"] == "printed" and res["rate"] == 18000 and res["total"] == 16
    res = dsr.compute(bundle, "dsr-rsa", 100000, cpu_ceiling_percent=50)
    assert res["rate"] == 15000 and res["cpu_peak"] == 53 and res["total"] == 8
    assert any("below the measured CPU peak" in w for w in res["warnings"])


def test_vstp_sized_in_ss7_mps(bundle):
    """Table 3-10 row 1 (SFAPP + MNP + GTT): 18K MPS per SS7-MP at 22 % CPU, 8 vCPU SS7-MP. 100,000 MPS at a 44 %
    ceiling: 36,000 per SS7-MP -> 2.78 -> 3, + 1 spare = 4 SS7-MPs, 32 vCPU. The weighting rule dsr-G24 is noted."""
    res = dsr.compute(bundle, "dsr-vstp-sfapp-mnp-gtt", 100000, cpu_ceiling_percent=44, spare=1)
    assert res["kind"] == "SS7-MP" and res["rate"] == 18000 and res["rate_at_ceiling"] == 36000
    assert res["total"] == 4 and res["vcpu_total"] == 32
    # 36,000 per SS7-MP is above 20,000, the highest per-SS7-MP rate of Table 3-10 (rows 3-6, 8, 10)
    assert any("highest rate per SS7-MP of any run in the guide (20,000 MPS" in w for w in res["warnings"])
    assert any(n.startswith("dsr-G24") for n in res["notes"])
    assert dsr.cpu_range(bundle, "SS7-MP") == (2, 56) and dsr.cpu_range(bundle, "DA-MP") == (14, 53)


def test_home_sms_sizes_ss7_mps_only(bundle):
    """Table 3-10 row 13 prints '10K/SS7 (2 MPs) 20K /Proxy MP' (dsr-E050): SS7-MPs are sized at 10,000 MPS each."""
    res = dsr.compute(bundle, "dsr-vstp-home-sms-mo-fsm", 30000)
    assert res["rate"] == 10000 and res["total"] == 3
    assert any(f["key"] == "mps_achieved_per_proxy_mp" and f["value"] == 20000 for f in res["figures"])


def test_runs_without_per_mp_figure_are_not_sizable(bundle):
    """Table 3-5 (FABR-SDS) prints no DA-MP count (dsr-E037); Table 3-12 (PDRA) prints only SBR MPS (dsr-E049)."""
    ns = {x["id"]: x["reason"] for x in dsr.not_sizable(bundle)}
    assert set(ns) == {"dsr-fabr-sds", "dsr-pdra-1-sbr-s-1-sbr-b", "dsr-pdra-4-sbr-s-4-sbr-b"}
    assert "dsr-E037" in ns["dsr-fabr-sds"] and "dsr-E049" in ns["dsr-pdra-1-sbr-s-1-sbr-b"]
    with pytest.raises(DsrError, match="cannot be sized.*dsr-E037"):
        dsr.compute(bundle, "dsr-fabr-sds", 100000)
    assert all(r["id"] not in ns for r in dsr.sizable_runs(bundle))


@pytest.mark.parametrize("kwargs, message", [
    ({"target_mps": ""}, "empty"),
    ({"target_mps": None}, "empty"),
    ({"target_mps": "abc"}, "must be a number"),
    ({"target_mps": "nan"}, "finite"),
    ({"target_mps": float("inf")}, "finite"),
    ({"target_mps": 0}, "greater than zero"),
    ({"target_mps": "-5"}, "greater than zero"),
    ({"target_mps": "1e12"}, "above the 10,000"),
    ({"target_mps": 1000, "cpu_ceiling_percent": "0"}, "greater than zero"),
    ({"target_mps": 1000, "cpu_ceiling_percent": 101}, "at most 100"),
    ({"target_mps": 1000, "cpu_ceiling_percent": "x"}, "must be a number"),
    ({"target_mps": 1000, "spare": -1}, "whole number from 0"),
    ({"target_mps": 1000, "spare": "1.5"}, "whole number from 0"),
    ({"target_mps": 1000, "spare": 65}, "whole number from 0"),
    ({"target_mps": 1000, "redundancy": "triple"}, "Redundancy must be one of none, mated-pair"),
    ({"target_mps": "24,00"}, "comma that is not a thousands separator"),
])
def test_dsr_bad_input(bundle, kwargs, message):
    with pytest.raises(DsrError, match=message):
        dsr.compute(bundle, "dsr-relay-12vcpu", **kwargs)


def test_dsr_unknown_scenario_and_web_error(bundle):
    with pytest.raises(DsrError, match="Unknown scenario"):
        dsr.compute(bundle, "bsf-3-3", 1000)
    out = catalogue.run(bundle, {"calc": "dsr", "scenario": "nope", "target": "1"})
    assert out["ok"] is False and "Unknown scenario" in out["error"]
    assert issubclass(DsrError, ValueError)


def test_dsr_web_outputs(bundle):
    """The web entry point returns escaped HTML, a CSV with the cited figures and a layered Vega-Lite chart. The case
    of test_relay_12vcpu_at_ceiling_with_spare: 3 DSR sites of 12 + 1 spare = 39 DA-MPs; each site's 333,333.3 MPS
    at the profile's 30,000 = 12 by the engineered method too."""
    out = catalogue.run(bundle, {"calc": "dsr", "scenario": "dsr-relay-12vcpu", "target": "1000000", "ceiling": "60", "spare": "1"})
    assert out["ok"] and 'data-key="total"' in out["html"] and "39 DA-MPs</strong> in 3 DSR sites" in out["html"]
    assert 'data-method="engineered"' in out["html"]
    assert "dsr-fabr-sds" in out["html"]  # the not-sizable list is on every result
    rows = {r["key"]: r for r in csv.DictReader(io.StringIO(csv_body(out["downloads"]["csv"]["text"])))}
    assert rows["total"]["value"] == "39" and rows["mps_achieved"]["value"] == "288000"
    assert rows["dsr_sites"]["value"] == "3" and rows["per_dsr"]["value"] == "13"
    assert rows["needed_engineered"]["value"] == "12" and rows["rate_measured"]["value"] == "30000"
    assert rows["mps_achieved"]["source"].startswith("Table 3-1, row 1")
    assert out["downloads"]["csv"]["filename"] == "dsr-dsr-relay-12vcpu.csv"
    assert [layer["mark"]["type"] for layer in out["chart"]["layer"]] == ["line", "rule"]
    assert out["inputs"] == {"scenario": "dsr-relay-12vcpu", "target": "1000000", "ceiling": "60", "spare": "1",
                             "redundancy": "none"}


# ------------------------------------------------------------------ DSR: at most 16 DA-MPs per DSR site

def test_one_million_mps_with_mated_pairs_stays_within_16_da_mps_per_site(bundle):
    """The default run, Table 3-1 row 1 (3.2.1 Relay, 12 vCPU, profile 30K_MPS): 288,000 MPS on 16 DA-MPs (caption)
    = 18,000 MPS per DA-MP at 19 % CPU; the profile rates 30,000. 1,000,000 MPS, mated pairs, no ceiling, no spare.
    Before the site limit: one DSR per side needed ceil(1,000,000 / 18,000) = ceil(55.6) = 56 DA-MPs.
    By hand, with at most 16 DA-MPs per DSR site (Oracle DSR PCA, 'MP Growth'), spares included (none here):
      mated pairs   = ceil(1,000,000 / (18,000 x 16)) = ceil(1,000,000 / 288,000) = ceil(3.47) = 4
      share         = 1,000,000 / 4 = 250,000 MPS per pair; each DSR site carries all of it with its mate down
      measured      = ceil(250,000 / 18,000) = ceil(13.9) = 14 DA-MPs per site (headline)
      engineered    = ceil(250,000 / 30,000) = ceil(8.3) = 9
      DSR sites     = 4 x 2 = 8; DA-MPs = 14 x 8 = 112; vCPU = 112 x 12 = 1,344
      CPU, all in service: each site carries 125,000: 125,000 x 19 / (14 x 18,000) = 2,375/252 = 9.42 %
      CPU, mate down: 250,000 x 19 / (14 x 18,000) = 4,750/252 = 18.85 %"""
    res = dsr.compute(dict(bundle, sizing_bands={}), "dsr-relay-12vcpu", 1_000_000, redundancy="mated-pair")
    assert res["rate"] == 18000 and res["methods"]["engineered"]["rate"] == 30000 and res["site_limit"] == 16
    assert (res["units"], res["dsrs"], res["share"], res["carry"]) == (4, 8, 250000, 250000)
    assert (res["methods"]["measured"]["needed"], res["methods"]["engineered"]["needed"], res["headline"]) == (14, 9, "measured")
    assert (res["needed"], res["per_dsr"], res["total"], res["vcpu_total"]) == (14, 14, 112, 1344)
    assert res["cpu_all"] == Fraction(2375, 252) and res["cpu_after_loss"] == Fraction(4750, 252)
    rows = {r["key"]: r for r in csv.DictReader(io.StringIO(csv_body(dsr.result_csv(res))))}
    assert [rows[k]["value"] for k in ("site_limit", "mated_pairs", "dsr_sites", "share", "per_dsr", "total", "vcpu_total")] == \
        ["16", "4", "8", "250000", "14", "112", "1344"]
    assert rows["mated_pairs"]["source"].startswith("ceil(1,000,000 / (18,000 x 16))")
    assert "MP Growth" in rows["site_limit"]["source"]
    html = dsr.result_html(res)
    assert ('<strong data-key="total">112 DA-MPs</strong> in 4 mated pairs (8 DSR sites): 14 per DSR site (14 by the '
            "measured method, the more conservative, for its pair&#x27;s whole 250,000 MPS when its mate is down (125,000 "
            "MPS normally), + 0 spare); 1,000,000 MPS split evenly over the 4 mated pairs; 1,344 vCPU. At most 16 DA-MPs "
            "per DSR site, spares included.") in html
    # the chart is one DSR site's: its load, 250,000 MPS, is the rule
    assert dsr.result_chart(res)["layer"][1]["data"]["values"][0]["target"] == 250000.0


def test_spares_count_within_the_site_limit(bundle):
    """The same 1,000,000 MPS (Table 3-1 row 1, 18,000 MPS per DA-MP) with 1 spare per site: 15 of the 16 carry traffic.
    Mated pairs: ceil(1,000,000 / (18,000 x 15)) = ceil(3.7) = 4 pairs of 250,000; 14 + 1 spare = 15 per site, x 8 =
    120 DA-MPs, 1,440 vCPU; normal CPU 125,000 x 19 / (15 x 18,000) = 2,375/270 = 8.80 %. No redundancy, no spare:
    ceil(1,000,000 / 288,000) = 4 DSR sites of 250,000, 14 each, 56 DA-MPs. 15 spares leave one DA-MP for traffic:
    ceil(1,000,000 / 18,000) = 56 sites of 17,857.1 MPS, 1 + 15 = 16 per site, 896 DA-MPs; 16 spares are refused."""
    res = dsr.compute(bundle, "dsr-relay-12vcpu", 1_000_000, spare=1, redundancy="mated-pair")
    assert (res["units"], res["needed"], res["per_dsr"], res["dsrs"], res["total"], res["vcpu_total"]) == (4, 14, 15, 8, 120, 1440)
    assert res["cpu_all"] == Fraction(2375, 270)
    none = dsr.compute(bundle, "dsr-relay-12vcpu", 1_000_000)
    assert (none["units"], none["dsrs"], none["share"], none["per_dsr"], none["total"]) == (4, 4, 250000, 14, 56)
    full = dsr.compute(bundle, "dsr-relay-12vcpu", 1_000_000, spare=15)
    assert (full["units"], full["needed"], full["per_dsr"], full["total"]) == (56, 1, 16, 896)
    with pytest.raises(DsrError, match=r"^Spare MPs per DSR site must be a whole number from 0 to 15 for DA-MPs: a DSR site "
                                       r"holds at most 16 DA-MPs, spares included, so 16 spare\(s\) would leave none"):
        dsr.compute(bundle, "dsr-relay-12vcpu", 1_000_000, spare=16)
    out = catalogue.run(bundle, {"calc": "dsr", "scenario": "dsr-relay-12vcpu", "target": "1000000", "spare": "16"})
    assert out["ok"] is False and out["field"] == "spare"


def test_no_da_mp_count_above_the_limit_for_any_run_target_or_spare(bundle):
    """Every sizable DA-MP run, targets from 1 MPS to 2,000,000, 0-15 spares, both redundancies: at most 16 DA-MPs per
    site, the sites carry the whole target (units x share), and no fewer traffic DA-MPs than the target needs at the
    headline rate (ceil(T / r) <= needed x units)."""
    for run in dsr.sizable_runs(bundle):
        if dsr.mp_kind(run) != "DA-MP":
            continue
        for target in (1, 99_999, 288_000, 1_000_000, 2_000_000):
            for spare in (0, 1, 7, 15):
                for red in ("none", "mated-pair"):
                    try:
                        res = dsr.compute(bundle, run["id"], target, spare=spare, redundancy=red)
                    except DsrError as e:  # 15 spares of every 16 at 2,000,000 MPS: more than MAX_MPS for some runs
                        assert "above the 10,000 this calculator accepts" in str(e) and spare == 15
                        continue
                    assert res["per_dsr"] <= 16 and res["needed"] + spare == res["per_dsr"], (run["id"], target, spare, red)
                    assert res["units"] * res["share"] == target
                    assert -(-target // res["sizing_rate"]) <= res["needed"] * res["units"]
                    assert res["dsrs"] == res["units"] * (2 if red == "mated-pair" else 1)


def test_ss7_mps_have_no_site_limit_and_the_result_says_so(bundle):
    """Table 3-10 row 1 (vSTP SFAPP + MNP + GTT): 18K per SS7-MP. Neither the DSR guide (its vSTP section 3.2.5 gives
    rates per MP, no count per site) nor the atlas's sizing notes give a per-site limit for SS7-MPs, so none is applied:
    1,000,000 MPS = ceil(1,000,000 / 18,000) = 56 SS7-MPs in one DSR site, and 20 spares are accepted (76)."""
    res = dsr.compute(bundle, "dsr-vstp-sfapp-mnp-gtt", 1_000_000, spare=20)
    assert res["site_limit"] is None and (res["units"], res["needed"], res["per_dsr"], res["total"]) == (1, 56, 76, 76)
    rows = {r["key"]: r for r in csv.DictReader(io.StringIO(csv_body(dsr.result_csv(res))))}
    assert rows["site_limit"]["value"] == "no limit known" and rows["site_limit"]["source"] == dsr.NO_SITE_LIMIT
    assert dsr.NO_SITE_LIMIT.startswith("Neither the DSR benchmark guide nor the atlas's sizing notes give a per-site limit "
                                        "for SS7-MPs")
    html = dsr.result_html(res)
    assert "No per-site limit on SS7-MPs is applied: none is known (see below)." in html
    assert "<li>SS7-MPs per DSR site: Neither the DSR benchmark guide" in html
    method = {x[0]: x[1] for x in report_sheet(dsr.report_web(bundle, {"scenario": "dsr-vstp-sfapp-mnp-gtt", "target": "1000000"}),
                                                "Method")}
    assert method["DSR sites"] == dsr.NO_SITE_LIMIT


def test_site_limit_is_a_sourced_constant_shown_in_the_method_text():
    """MAX_DA_MPS_PER_SITE = 16 with its source (Oracle DSR PCA, 'MP Growth') in its docstring, and the method page
    states the rule and how spares count."""
    import ast
    tree = ast.parse((ROOT / "calculators" / "dsr.py").read_text())
    body = tree.body
    at = next(i for i, n in enumerate(body) if isinstance(n, ast.Assign) and n.targets[0].id == "MAX_DA_MPS_PER_SITE")
    doc = " ".join(body[at + 1].value.value.split())
    assert body[at].value.value == 16 and "MP Growth" in doc and "The DSR supports up to 16 DA-MPs per DSR site" in doc
    method = (ROOT / "docs" / "calculators" / "dsr.md").read_text()
    assert "**At most 16 DA-MPs per DSR site, spares included.**" in method and "*MP Growth*" in method
    assert "with k spares at most 16 - k" in method and "**SS7-MPs:** neither the guide nor the atlas's sizing notes" in method


# ------------------------------------------------------------------ what readers are shown names guides, not seed files

SEED_REFERENCE = re.compile(r"\bseed\b|\blines? \d", re.I)


def _reader_texts(html: str, csv_text: str, rep: dict) -> list[str]:
    """Every text a reader sees: the page's text (tags out), the CSV download, every cell of every report sheet."""
    cells = [str(c) for s in rep["sheets"] for row in s["rows"] for c in row if c is not None]
    return [re.sub(r"<[^>]+>", " ", html), csv_text, rep["title"], rep["subtitle"], *cells]


def test_no_reader_facing_text_names_a_seed_file_or_line(bundle):
    """For every sizable DSR run (both redundancies) and every ShCM test: the HTML, the CSV and the report never say
    'seed' or 'line NNN'; they name the guide's section instead: the DSR run's section (e.g. 3.2.1) and the chapter 3
    introduction ('Data Usage') the mated-pair rule comes from; ShCM's section 'Benchmark Results'."""
    for run in dsr.sizable_runs(bundle):
        for red in ("none", "mated-pair"):
            params = {"scenario": run["id"], "target": "500000", "ceiling": "60", "spare": "1", "redundancy": red}
            out = dsr.run_web(bundle, params)
            texts = _reader_texts(out["html"], out["downloads"]["csv"]["text"](), dsr.report_web(bundle, params))
            for t in texts:
                assert not SEED_REFERENCE.search(t), (run["id"], SEED_REFERENCE.search(t), t[:200])
            assert f"section {run['section']} of the DSR guide" in texts[0]
            assert "chapter 3, 'Data Usage'" in texts[1]
    for t in shcm.tests(bundle):
        params = {"scenario": t["id"], "target": "5000", "unit": "RPS"}
        out = shcm.run_web(bundle, params)
        texts = _reader_texts(out["html"], out["downloads"]["csv"]["text"](), shcm.report_web(bundle, params))
        for x in texts:
            assert not SEED_REFERENCE.search(x), (t["id"], x[:200])
        assert "(section Benchmark Results)" in texts[0] and "(section Benchmark Results)" in texts[1]


def _sections(lines: list[str]) -> dict[str, tuple[int, int]]:
    """Every numbered heading of a seed ('3.2.1 DA-MP Relay Benchmark') with its first and last line (1-based): up to
    the next heading that is not inside it."""
    heads = [(n, m.group(1)) for n, text in enumerate(lines, 1) if (m := re.match(r"^(\d+(?:\.\d+)+) \S", text))]
    out = {}
    for i, (start, num) in enumerate(heads):
        end = next((n - 1 for n, other in heads[i + 1:] if not other.startswith(num + ".")), len(lines))
        out[num] = (start, end)
    return out


def test_sections_the_dsr_result_names_hold_the_lines_the_data_cites(bundle):
    """The result tells readers 'printed in the prose of section 3.2.1' and 'rule stated in section 3.2.1' where the
    curated data cites seed lines: each cited line lies within that run's section of the DSR guide (seed 002)."""
    from conftest import seed_path
    sections = _sections(seed_path("dsr").read_text(encoding="utf-8").splitlines())
    guidance = bundle["dsr_notes"]["guidance"]
    checked = 0
    for run in dsr.sizable_runs(bundle):
        lo, hi = sections[run["section"]]
        for note in run["notes"]:
            for n in re.findall(r"in the prose \(line (\d+)\)", note):
                assert lo <= int(n) <= hi, (run["id"], note, run["section"], (lo, hi))
                checked += 1
        res = dsr.compute(bundle, run["id"], 100000)
        for note in res["notes"]:
            found = re.match(r"(dsr-G\d+) \(DSR infrastructure rule, stated in section ([\d.]+) of the guide\)", note)
            if found:
                assert found.group(2) == run["section"]
                assert lo <= guidance[found.group(1)]["line"] <= hi, (run["id"], found.group(1))
                checked += 1
    assert checked >= 20  # relay, RBAR and FABR-UDR prose notes; the relay, vSTP and DSA rules


# ------------------------------------------------------------------ ShCM

def test_shcm_test1_at_measured_load(bundle):
    """T-rhino-performance row 1 (test 1, config A): 1800 RPS at 280 % = 2.8 cores = 35 % of 8 vCPU.
    1800 RPS without a ceiling: 1800 / 1800 = 1 node for the load, + the default spare (N+1) = 2. Config A colocates
    Cassandra: warned."""
    res = shcm.compute(bundle, "shcm-test-1", 1800)
    assert res["load"] == 1800 and res["cores"] == Fraction("2.8") and res["node_percent"] == 35
    assert (res["needed"], res["inputs"]["spare"], res["total"]) == (1, 1, 2)
    assert any("colocates Cassandra" in w for w in res["warnings"])


def test_shcm_test1_at_ceiling_with_spare(bundle):
    """Test 1 at 10,000 RPS and a 60 % ceiling: 1800 x (8 x 0.60) / 2.8 = 3,085.7 RPS per node; 10000 / 3085.7 = 3.24
    -> 4 nodes, + 1 spare = 5. Above config A's highest tested load (2160 RPS, test 3): warned."""
    res = shcm.compute(bundle, "shcm-test-1", "10000", unit="RPS", cpu_ceiling_percent=60, spare=1)
    assert res["rate_at_ceiling"] == Fraction(1800 * 48, 28)
    assert (res["nodes_at_measured"], res["nodes_at_ceiling"], res["total"]) == (6, 4, 5)
    assert res["config_max"] == {"test": 3, "load": 2160}
    assert any("highest load tested on server config A" in w for w in res["warnings"])


def test_shcm_sps_and_rps_agree_without_conversion(bundle):
    """Test 1 in SPS: 1000 SPS per node at the measured 35 %; 5000 SPS at a 35 % ceiling = exactly 5 nodes.
    The same load in the test's own RPS (9000) gives the same 5 nodes: no 1.8 ratio is applied (shcm-E006). Both
    + the default spare = 6."""
    a = shcm.compute(bundle, "shcm-test-1", 5000, unit="SPS", cpu_ceiling_percent=35)
    b = shcm.compute(bundle, "shcm-test-1", 9000, unit="rps", cpu_ceiling_percent=35)
    assert a["rate_at_ceiling"] == 1000 and a["needed"] == 5 and b["needed"] == 5
    assert a["total"] == 6 and b["total"] == 6
    assert any(n.startswith("shcm-E006") for n in a["notes"])


def test_shcm_test5_config_b(bundle):
    """Test 5 (config B, 1200 SPS / 2160 RPS, 320 % = 3.2 cores = 40 %): 21,600 RPS at 80 %:
    2160 x 6.4 / 3.2 = 4,320 per node -> exactly 5 nodes, + the default spare = 6. Config B has Cassandra on its own
    servers: no colocation warning, but the Cassandra cluster is not sized (a not-sized line, the result partial)."""
    res = shcm.compute(bundle, "shcm-test-5", 21600, cpu_ceiling_percent=80)
    assert res["node_percent"] == 40 and res["rate_at_ceiling"] == 4320 and res["needed"] == 5 and res["total"] == 6
    assert not any("colocates" in w for w in res["warnings"])
    assert res["partial"] is True and [x["key"] for x in res["not_sized"]] == ["cassandra"]


def test_shcm_default_is_one_spare_node(bundle):
    """T-rhino-performance row 1 (test 1, config A): 1800 RPS at 280 % = 2.8 cores = 35 % of the c5.2xlarge's 8 vCPUs
    (T-hardware row 1). The page's default inputs (test 1 at its own 1800 RPS, no spare given): 1800 / 1800 = 1 node
    for the load, + 1 spare (N+1: with a node down the other carries its load) = 2 nodes. All in service each carries
    900 RPS: 1800 / (2 x 1800) x 35 % = 17.5 %; with the spare lost: 1800 / (1 x 1800) x 35 % = 35 %. 0 still means
    none: 1 node."""
    d = shcm.defaults(bundle)
    assert d["spare"] == "1" and shcm.DEFAULT_SPARE == 1
    res = shcm.compute_web(bundle, {k: v for k, v in d.items() if k != "spare"})
    assert (res["inputs"]["spare"], res["needed"], res["total"]) == (1, 1, 2)
    assert res["cpu_all"] == Fraction(35, 2) and res["cpu_after_loss"] == 35
    rows = {r["key"]: r for r in csv.DictReader(io.StringIO(csv_body(shcm.result_csv(res))))}
    assert rows["spare"]["source"] == "your input (default 1: N+1)"
    assert rows["cpu_after_loss"]["item"] == "Expected JVM CPU per node with 1 lost" and rows["cpu_after_loss"]["value"] == "35"
    assert shcm.compute_web(bundle, {**d, "spare": "0"})["total"] == 1


def test_shcm_cassandra_is_named_as_not_sized_in_html_csv_and_report(bundle):
    """Every ShCM result says the Cassandra database is not sized and is marked partial: test 7 (config C, one
    Cassandra node colocated with Rhino: T-server-configs row 3) and test 5 (config B, a replicated 3-node cluster on
    three servers: row 2). The line names the guide's tables and section (Server configuration and Cassandra Disk
    Usage, Benchmark Results) and quotes the config; in the HTML under the summary, in the CSV as a 'not sized' row,
    in the report first among the warnings and in the totals."""
    for sid, conf, text in (("shcm-test-7", "C", "3 c5.2xlarge servers. 1 server with Rhino and Cassandra colocated. "
                                                 "Single Cassandra node. 2 servers for client simulator. All caching disabled."),
                            ("shcm-test-5", "B", "6 c5.2xlarge servers. 1 server for Rhino. 3 servers for Cassandra. "
                                                 "Replicated 3-node Cassandra cluster. 2 servers for client simulator.")):
        params = {"scenario": sid, "target": "1800", "unit": "RPS"}
        out = shcm.run_web(bundle, params)
        quoted = f"describes config {conf} as &#x27;{text}&#x27;"
        assert '<p class="admonition-title">Partial result: Rhino nodes only</p>' in out["html"] and quoted in out["html"]
        assert "Cassandra Disk Usage table</a> (section Benchmark Results) gives only its disk use, which peaked at around " \
               "9GB in each test" in out["html"]
        rows = {r["key"]: r for r in csv.DictReader(io.StringIO(csv_body(out["downloads"]["csv"]["text"]())))}
        line = rows["not_sized_cassandra"]
        assert (line["section"], line["item"], line["value"]) == ("result", "Cassandra database", "not sized")
        assert line["source"].startswith("Not sized: the Cassandra database the ShCM reads and writes (Cassandra 3.11.2). "
                                         "The guide prints no CPU or memory for Cassandra: its Server configuration table "
                                         "(section Benchmark Results) describes config " + conf)
        assert line["source"].endswith("Size Cassandra separately: this result counts Rhino nodes only. (not sized here; "
                                       "what the guide prints: Table T-server-configs, row " + {"B": "2", "C": "3"}[conf]
                                       + "; Table T-cassandra-disk, row 2; Table T-cassandra-disk, row 1; Table "
                                       "T-software-versions, row 3)")
        rep = shcm.report_web(bundle, params)
        kind, first = report_sheet(rep, "Warnings")[0]
        assert kind == "not sized (partial: Rhino nodes only)" and first == line["source"].split(" (not sized here;")[0]
        assert ["Cassandra database", "not sized", None, line["source"]] in report_sheet(rep, "Totals")


@pytest.mark.parametrize("kwargs, message", [
    ({"target": ""}, "empty"),
    ({"target": "many"}, "must be a number"),
    ({"target": "NaN"}, "finite"),
    ({"target": -1}, "greater than zero"),
    ({"target": "1e9"}, "above the 10,000"),
    ({"target": 1000, "unit": "TPS"}, "Unknown unit"),
    ({"target": 1000, "cpu_ceiling_percent": 150}, "at most 100"),
    ({"target": 1000, "cpu_ceiling_percent": -10}, "greater than zero"),
    ({"target": 1000, "spare": "2.5"}, "whole number from 0"),
])
def test_shcm_bad_input(bundle, kwargs, message):
    with pytest.raises(ShcmError, match=message):
        shcm.compute(bundle, "shcm-test-1", **kwargs)


def test_shcm_unknown_test_and_web(bundle):
    with pytest.raises(ShcmError, match="Unknown scenario"):
        shcm.compute(bundle, "shcm-test-9", 1000)
    # test 5 at 80 %: 5 nodes for the load (test_shcm_test5_config_b); no spare given: the default 1 -> 6
    out = catalogue.run(bundle, {"calc": "shcm", "scenario": "shcm-test-5", "target": "21600", "unit": "RPS", "ceiling": "80"})
    assert out["ok"] and "6 Rhino node(s)" in out["html"]
    rows = {r["key"]: r for r in csv.DictReader(io.StringIO(csv_body(out["downloads"]["csv"]["text"])))}
    assert rows["total"]["value"] == "6" and rows["cpu_cores"]["value"] == "3.2"
    assert rows["cpu_cores"]["source"].startswith("Table T-rhino-performance, row 5")
    assert catalogue.run(bundle, {"calc": "shcm", "scenario": "shcm-test-1", "target": "0"})["ok"] is False


def test_calculators_are_standard_library_only():
    import ast
    for name in ("dsr", "shcm"):
        tree = ast.parse((ROOT / "calculators" / f"{name}.py").read_text())
        mods = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        mods |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and n.level == 0}
        assert mods <= {"__future__", "csv", "io", "math", "re", "fractions", "html"}, (name, mods)


def test_pages_are_prerendered(built_site):
    html = (built_site / "calculators" / "dsr" / "index.html").read_text()
    assert 'data-calculator="dsr"' in html and 'data-prerendered="true"' in html and "16 DA-MPs" in html
    html = (built_site / "calculators" / "shcm" / "index.html").read_text()
    # test 1 at its own 1800 RPS: 1 node + the default spare (N+1) = 2; Cassandra named as not sized
    assert 'data-calculator="shcm"' in html and "2 Rhino node(s)" in html and 'data-key="not_sized_cassandra"' in html


# ------------------------------------------------------------------ browser

def _result(page, key):
    return page.locator(f'#atlas-calc-result tr[data-key="{key}"] td.atlas-num').inner_text()


@pytest.mark.browser
@pytest.mark.parametrize("link,prerendered,want", [
    # Table 3-1 row 1 (12 vCPU), mated pair: 240K MPS at a 40 % ceiling = 8 DA-MPs per DSR (profile cap 30K),
    # + 1 spare = 9, x 2 DSRs = 18, 216 vCPU (prerendered default: 16).
    ("dsr/?scenario=dsr-relay-12vcpu&target=240000&ceiling=40&spare=1&redundancy=mated-pair", {"total": "16"},
     {"total": "18", "vcpu_total": "216"}),
    # Test 5 (config B): 21,600 RPS at an 80 % ceiling = 5 Rhino nodes, + the form's default spare = 6 (prerendered
    # default: test 1 at 1800 RPS, 1 + 1 spare = 2).
    ("shcm/?scenario=shcm-test-5&target=21600&unit=RPS&ceiling=80", {"total": "2"},
     {"total": "6", "rate_at_ceiling": "4,320"}),
], ids=["dsr", "shcm"])
def test_computes_in_pyodide_from_permalink(browser, page, site_url, link, prerendered, want):
    """The page as served shows the prerendered default (read without JavaScript: with it, Python booted from the
    memory snapshot can replace it before the page's load event reaches the test, as it did once in a full run);
    Python then computes the link's inputs."""
    ctx = browser.new_context(java_script_enabled=False)
    try:
        static = ctx.new_page()
        static.goto(site_url + "/calculators/" + link, wait_until="load")
        assert {k: _result(static, k) for k in prerendered} == prerendered
    finally:
        ctx.close()
    page.goto(site_url + "/calculators/" + link, wait_until="load")
    computed(page, 1)
    assert {k: _result(page, k) for k in want} == want
    assert page.js_errors == []


@pytest.mark.browser
def test_dsr_page_refuses_a_decimal_comma(page, site_url):
    """The page uses the same reader as the CLI: '63,5' is an error, not 635 MPS; the prerendered 16 stays."""
    page.goto(site_url + "/calculators/dsr/", wait_until="load")
    page.wait_for_selector(CALC_READY, timeout=BOOT_LIMIT_MS)
    page.fill("#calc-target", "63,5")
    page.click("#calc-run")
    page.wait_for_selector("#atlas-calc-message:not([hidden])", timeout=BOOT_LIMIT_MS)
    assert "comma that is not a thousands separator" in page.inner_text("#atlas-calc-message")
    assert _result(page, "total") == "16"
    page.fill("#calc-target", "63,500")
    page.click("#calc-run")
    page.wait_for_function("() => document.querySelector('#atlas-calc-result tr[data-key=\"total\"] td.atlas-num').innerText === '4'",
                           timeout=BOOT_LIMIT_MS)
    assert page.js_errors == []


MADE_UP_BAND = {"lo": 0.5, "hi": 2.0, "comparisons": 40, "k": 4, "expected_coverage": 80.5, "coverage": 80.0, "covered": 32,
                "checked": 40, "basis": "run"}


def test_dsr_likely_range_from_the_held_out_band(bundle):
    """1,000,000 MPS, mated pair, relay 12 vCPU (Table 3-1 row 1: 18,000 MPS per DA-MP, profile 30K_MPS), with a made-up
    band: printed / predicted CPU peak 0.5 to 2. At 0.5 the CPU per MPS is half: 36,000 MPS per DA-MP, capped at the
    profile's 30,000; ceil(1,000,000 / (30,000 x 16)) = 3 mated pairs of 333,333.3 MPS, ceil(333,333.3 / 30,000) = 12
    per site, 6 sites: 72 DA-MPs. At 2: 9,000 MPS per DA-MP, ceil(1,000,000 / (9,000 x 16)) = 7 pairs of 142,857.1 MPS,
    ceil(142,857.1 / 9,000) = 16 per site, 14 sites: 224. As measured: 112 (4 pairs x 2 x 14)."""
    res = dsr.compute(dict(bundle, sizing_bands={"dsr": {"one-run": {"whole": MADE_UP_BAND}}}), "dsr-relay-12vcpu",
                      1_000_000, redundancy="mated-pair")
    assert res["total"] == 112
    assert res["likely"]["low"] == {"total": 72, "dsrs": 6, "per_dsr": 12, "units": 3}
    assert res["likely"]["high"] == {"total": 224, "dsrs": 14, "per_dsr": 16, "units": 7}
    assert dsr.likely_text(res) == "72–224"
    assert "Likely 72–224 DA-MPs in all" in dsr.result_html(res)
    row = next(r for r in csv.reader(io.StringIO(dsr.result_csv(res))) if r[2:3] == ["likely_total"])
    assert row[3:6] == ["DA-MPs to deploy, likely", "72–224", "count"] and row[6].startswith("Likely: where the DA-MP CPU peak")


def test_shcm_likely_range_from_the_held_out_band(bundle):
    """Test 5 at 21,600 RPS, 80 % ceiling, 1 spare (2,160 RPS per node at 40 % of 8 vCPU: 4,320 at 80 %, 5 + 1 = 6
    nodes), with a made-up band 0.5 to 2: at 0.5, 8,640 RPS per node, ceil(2.5) = 3 + 1 = 4; at 2, 2,160 per node,
    10 + 1 = 11."""
    res = shcm.compute(dict(bundle, sizing_bands={"shcm": {"one-run": {"whole": MADE_UP_BAND}}}), "shcm-test-5", "21600",
                       unit="RPS", cpu_ceiling_percent="80", spare="1")
    assert res["total"] == 6 and res["likely"]["low"] == {"total": 4} and res["likely"]["high"] == {"total": 11}
    assert shcm.likely_text(res) == "4–11" and "likely 4–11 node(s)" in shcm.result_html(res)


# ------------------------------------------------------------------ DSR: what a reader sees (mutants that survived)
def _dsr_rows(res: dict) -> dict:
    return {row[1]: row for row in dsr._rows(res)}


def test_printed_rate_row_is_in_mps_as_printed(bundle):
    """Table 3-8 (FABR + Relay) prints '288K (18K/MP)': the rate row is 18,000 MPS per DA-MP, unit MPS, source 'as
    printed' (not derived: the guide prints it)."""
    res = dsr.compute(bundle, "dsr-fabr-udr", 288000, cpu_ceiling_percent=38)
    assert _dsr_rows(res)["rate"] == ("computed", "rate", "MPS per DA-MP at the measured CPU peak", 18000, "MPS", "as printed")


def test_relay_run_names_the_relay_tuning_rule(bundle):
    """Table 3-1 row 1 is a 'DA-MP relay' run: the DSR infrastructure rule of topic da-mp-relay-tuning (dsr-G22 in
    data/dsr/guidance.yaml) bears on it and is listed among its notes, naming the run's section."""
    res = dsr.compute(bundle, "dsr-relay-12vcpu", 288000)
    assert any(n.startswith("dsr-G22 (DSR infrastructure rule, stated in section ") for n in res["notes"]), res["notes"]


def test_html_names_where_the_mated_pair_rule_comes_from(bundle):
    """The result's sources link the guide's planning procedure on the DSR infrastructure rules page."""
    html = dsr.result_html(dsr.compute(bundle, "dsr-relay-12vcpu", 288000))
    assert ('(the guide\'s <a href="../../products/dsr/guidance/#planning-procedure">planning procedure</a> on the DSR '
            "infrastructure rules page)") in html


def test_report_method_sheet_spares_row(bundle):
    """Table 3-1 row 1, 240,000 MPS, one spare, mated pairs: the report's Method sheet says '1 spare DA-MP(s) per DSR
    site added (N+k), counted within the site limit.' under 'Spares' (DA-MPs have the 16-per-site limit)."""
    rep = dsr.report_web(bundle, {"scenario": "dsr-relay-12vcpu", "target": "240000", "spare": "1",
                                  "redundancy": "mated-pair"})
    method = {x[0]: x[1] for x in report.sheet_named(rep, "Method")["rows"]}
    assert method["Spares"] == "1 spare DA-MP(s) per DSR site added (N+k), counted within the site limit."


def test_mated_pair_rows_are_labelled_mated_pairs(bundle):
    """Table 3-1 row 1 (18,000 MPS per DA-MP), 1,000,000 MPS with mated pairs: ceil(1,000,000 / (18,000 x 16)) = 4
    mated pairs, shown under the label 'Mated pairs' (not 'DSR sites'), then 4 x 2 = 8 DSR sites."""
    rows = _dsr_rows(dsr.compute(bundle, "dsr-relay-12vcpu", 1_000_000, redundancy="mated-pair"))
    assert rows["mated_pairs"][2:5] == ("Mated pairs", 4, "count")
    assert rows["dsr_sites"][2:5] == ("DSR sites", 8, "count")


def test_warnings_are_listed_as_the_result_warnings_list(bundle):
    """Table 3-19 (RSA) prints 15K per DA-MP at 53 % CPU: a 50 % ceiling is below that peak and warned; the warning is
    shown in the list the page styles as warnings (class atlas-warnings)."""
    html = dsr.result_html(dsr.compute(bundle, "dsr-rsa", 100000, cpu_ceiling_percent=50))
    assert '<ul class="atlas-warnings"><li>The ceiling (50%) is below the measured CPU peak (53%)' in html


def test_backtest_pairs_runs_after_a_run_it_cannot_use(bundle):
    """Called directly (the bundle fixture's own backtest is credited by mutmut to one test only). Table 3-15 rows 1
    and 2 (DSA, 12 vCPU, same call model): 9,200 MPS per DA-MP at 29 % CPU, 9,800 at 34 %. Row 2's CPU peak predicted
    from row 1 = 29 x 9,800 / 9,200 = 30.891 %. The vSTP runs listed before them have no per-DA-MP rate and are skipped,
    not the end of the list."""
    pts = [p for p in dsr.backtest_points(bundle, "dsr") if p["level"] == "service"
           and (p["from"], p["to"]) == ("dsr-dsa-previous-location-check", "dsr-dsa-time-distance-check")]
    assert len(pts) == 1
    p = pts[0]
    assert (p["load_from"], p["load_to"], p["observed_from"], p["observed_to"]) == (9200, 9800, 29, 34)
    assert abs(p["predicted_to"] - 29 * 9800 / 9200) < 1e-9
    assert (p["source_from"], p["source_to"]) == ("Table 3-15 row 1; CPU Table 3-15 row 1", "Table 3-15 row 2; CPU Table 3-15 row 2")
