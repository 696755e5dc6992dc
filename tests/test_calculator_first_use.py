"""Defects found on first use of the calculators. Each test is the
failing case of the issue. Browser tests for the footprint link, a permalink while Python boots, the
phone layout and keyboard focus are in tests/test_calculator_first_use_browser.py."""
from __future__ import annotations

import csv
import io

import pytest

from calculators import asm, catalogue
from conftest import DocData, csv_body, seed_path


# ------------------------------------------------------------------ ASM: which scenarios are offered

def test_asm_state_of_policy_3_1_5_and_3_2_1_follows_the_guide():
    """The data's ASM state is the guide's (Policy seed): 3.1.5 "46.5K TPS on a single site Non-ASM PCF Setup"
    and Table 3-45 "ASM | Disable" (lines 535-536); 3.2.1 titled "... and ASM enabled." and Table 3-62
    "ASM | Enable" (lines 805, 813). Yet Table 3-49 of 3.1.5 prints UDR istio-proxy containers (line 596)."""
    lines = seed_path("policy").read_text(encoding="utf-8").splitlines()
    assert lines[535 - 1].startswith("Call Rate (Ingress + Egress) | 46.5K TPS on a single site Non-ASM PCF Setup")
    assert lines[536 - 1].strip() == "ASM | Disable |"
    assert lines[805 - 1].startswith("3.2.1 ") and lines[805 - 1].rstrip().endswith("and ASM enabled.")
    assert lines[813 - 1].strip() == "ASM | Enable |"
    assert lines[596 - 1].startswith("UDR-Site1-ocudr-alternate-route/istio-proxy | 2 | 1000m")
    scen = {s["id"]: s for s in DocData("policy").load("scenarios")}
    assert scen["policy-3-1-5"]["asm"] == "disabled" and scen["policy-3-2-1"]["asm"] == "enabled"


def test_asm_off_choices_hold_neither_3_1_5_nor_3_2_1(bundle):
    """Issue: "Policy 3.1.5 is offered as ASM-off and always refused; Policy 3.2.1, titled '..., ASM' and
    'enabled' on its product table, is listed as ASM-off". 3.2.1 runs ASM with no sidecar printed; 3.1.5 is
    ASM-off per the guide but prints sidecars (Table 3-49): neither is a clean ASM-off run."""
    off = asm.asm_off_ids(bundle)
    assert "policy-3-2-1" not in off and "policy-3-1-5" not in off
    assert "bsf-3-1" in off and "policy-3-1-1" in off          # asm 'disabled', no sidecar row
    assert not any(x.startswith("nef-") for x in off)           # NEF has no ASM-on scenario to compare with
    why = {x["id"]: x["reason"] for x in asm.not_offered(bundle)}
    assert set(why) == {"policy-3-1-5", "policy-3-2-1"}
    assert "Table 3-49" in why["policy-3-1-5"] and "istio-proxy" in why["policy-3-1-5"]
    assert "runs ASM" in why["policy-3-2-1"] and "no sidecar" in why["policy-3-2-1"]


@pytest.mark.parametrize("off, words", [("policy-3-2-1", "runs ASM (asm 'enabled' in the guide)"),
                                        ("policy-3-1-5", "not a clean ASM-off run")])
def test_compare_refuses_an_asm_off_side_that_is_not_asm_off(bundle, off, words):
    """policy-3-2-2 (ASM on, Table 3-77 sidecars) against 3.2.1 used to compute as if 3.2.1 ran without ASM."""
    res = catalogue.run(bundle, {"calc": "asm", "on": "policy-3-2-2", "off": off})
    assert not res["ok"] and words in res["error"]


def test_asm_page_offers_only_the_choices_that_compute(bundle):
    """Every pair of the page's two selects computes, or is refused only because of the products differing."""
    for on in asm.asm_on_ids(bundle):
        for off in asm.asm_off_ids(bundle):
            res = catalogue.run(bundle, {"calc": "asm", "on": on, "off": off})
            assert res["ok"] or "different products" in res["error"], (on, off, res.get("error"))


def test_asm_csv_holds_the_pair_shown_not_every_scenario(bundle):
    """Issue: "its CSV holds every scenario, not the view". bsf-3-3 against bsf-3-1: the CSV names the pair, holds
    bsf-3-3's sidecar services (Tables 3-25/3-26), both totals (763.8 cores for 63K TPS = 12.1238 per 1K; 251 for
    22K = 11.4091), the refused difference (call models differ) and the what-if (remove: -280 cores), and no
    other scenario."""
    res = catalogue.run(bundle, {"calc": "asm", "on": "bsf-3-3", "off": "bsf-3-1"})
    d = res["downloads"]["csv"]
    assert d["filename"] == "asm-bsf-3-3-vs-bsf-3-1.csv"
    assert d["text"].startswith("# ")  # the inputs, as comment lines (catalogue.input_lines), then the table
    rows = list(csv.DictReader(io.StringIO(csv_body(d["text"]))))
    assert {r["scenario"] for r in rows} == {"bsf-3-3", "bsf-3-1", "bsf-3-3 - bsf-3-1"}
    tot = {r["scenario"]: r for r in rows if r["part"] == "total"}
    assert float(tot["bsf-3-3"]["cpu_total_cores"]) == pytest.approx(763.8)
    assert float(tot["bsf-3-3"]["cpu_total_per_1k_cores"]) == pytest.approx(763.8 / 63, abs=1e-4)
    assert float(tot["bsf-3-1"]["cpu_total_per_1k_cores"]) == pytest.approx(251 / 22, abs=1e-4)
    diff = next(r for r in rows if r["part"] == "on - off")
    assert diff["cpu_total_per_1k_cores"] == "" and diff["note"].startswith("not comparable: call model differs")
    remove = next(r for r in rows if r["part"] == "what-if: remove ASM")
    assert float(remove["cpu_delta_cores"]) == -280
    svc = [r["service"] for r in rows if r["part"] == "per service"]
    assert "Diameter Gateway" in svc and len(svc) == len(asm.overhead(bundle, "bsf-3-3")["services"])
    # the overview of every ASM scenario is its own download, named as such
    assert res["downloads"]["overview"]["filename"] == "asm-overview-every-scenario.csv"
    assert "policy-3-2-7" in res["downloads"]["overview"]["text"]


# ------------------------------------------------------------------ a refusal names its field

@pytest.mark.parametrize("params, field", [({"load": "-5"}, "load"), ({"sites": "0"}, "sites"),
                                           ({"target": "150"}, "target"), ({"sidecar_target": "0"}, "sidecar_target"),
                                           ({"sidecar_cpu": "-1", "asm": "add"}, "sidecar_cpu"),
                                           ({"normal_ceiling": "90", "failover_ceiling": "80"}, "normal_ceiling"),
                                           ({"node_cores": "8"}, "node_mem")])
def test_footprint_refusal_names_the_field(bundle, params, field):
    res = catalogue.run(bundle, {"calc": "footprint", "scenario": "bsf-3-3", "load": "63000", **params})
    assert not res["ok"] and res["field"] == field, res


def test_a_refusal_not_about_one_field_names_none(bundle):
    res = catalogue.run(bundle, {"calc": "footprint", "scenario": "nope", "load": "1"})
    assert not res["ok"] and res["field"] is None
