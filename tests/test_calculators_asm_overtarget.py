"""ASM overhead, over-target flags, footprint 'add ASM' and NEF scenario-wide CPU, and the CLI:
hand-computed expectations from real scenarios (scenario, table and row named in each test)."""
from __future__ import annotations

import csv
import io
import json

import pytest

from calculators import asm, footprint, overtarget as ot, overtarget_report as otr, catalogue, runs
from calculators.__main__ import main as cli
from calculators.asm import AsmError
from calculators.footprint import FootprintError
from calculators.overtarget import OverTargetError
from conftest import csv_body, result_row


# ------------------------------------------------------------------ ASM overhead

def test_bsf_3_2_sidecar_share_of_requested_cpu(bundle):
    """BSF scenario 3.2: sidecar CPU requests 86 cores (Table 3-16) + 81 (Table 3-17) = 167 of 469.7 cores
    requested by both tables: 35.55 %; per 1K TPS at the 54K TPS the (site-less) tables serve: 167 / 54 = 3.0926."""
    o = asm.overhead(bundle, "bsf-3-2")
    assert o["cpu_sidecar"] == 167 and o["cpu_total"] == pytest.approx(469.7)
    assert o["cpu_share"] == pytest.approx(167 / 469.7 * 100)
    assert o["tables"] == ["3-16", "3-17"] and o["load"] == 54000
    assert o["cpu_sidecar_per_1k"] == pytest.approx(167 / 54)
    assert o["observed"]["cpu"]["unit"] == "cores" and o["observed"]["cpu"]["site"] == "site1"  # Table 3-18/3-19 print cores


def test_bsf_3_2_observed_sidecar_share_per_service(bundle):
    """Table 3-18 row 1, Site1: diameter-gateway uses 14.7 cores, its Istio sidecar 2.76 cores:
    2.76 / 17.46 = 15.81 % of the pod's observed CPU."""
    o = asm.overhead(bundle, "bsf-3-2")
    dg = next(v for v in o["services"] if v["service"] == "Diameter Gateway")
    assert dg["observed_cpu_share"] == pytest.approx(2.76 / (14.7 + 2.76) * 100)


def test_bsf_3_3_sidecars_per_service(bundle):
    """Scenario 3.3, Table 3-25 row 2: BSF Management Service 14 replicas, sidecar 2 cores -> 28 sidecar cores
    next to 14 x 4 = 56 application cores (Table 3-25): 28 / 84 = 33.3 %."""
    o = asm.overhead(bundle, "bsf-3-3")
    svc = next(v for v in o["services"] if v["service"] == "BSF Management Service")
    assert svc["cpu_sidecar"] == 28 and svc["cpu_total"] == 84
    assert svc["cpu_share"] == pytest.approx(100 / 3)
    assert o["cpu_sidecar"] == 280  # 126 (Table 3-25) + 154 (Table 3-26)


def test_every_asm_scenario_has_an_overhead(bundle):
    ids = asm.asm_on_ids(bundle)
    assert {"bsf-3-2", "bsf-3-3", "policy-3-2-2"} <= set(ids)
    for o in asm.overview(bundle):
        share = o["cpu_share"] if o["partial"] is None else o["cpu_share_complete"]
        assert 0 < share < 100
        assert (o["cpu_share"] is None) == (o["partial"] is not None)


def test_bsf_3_2_observed_share_includes_the_sidecars(bundle):
    """Tables 3-18 (rows 1-11) and 3-19 (rows 1-3), Site1, cores as printed. Sidecars: 2.76 + 0.013 + 0.009 + 0.017
    + 0.086 + 7.83 + 0.011 + 2.17 + 0.006 + 0.007 + 0.006 + 5.54 + 14.0 + 0.31 = 32.765; applications: 14.7 + 0.114
    + 0.049 + 0.013 + 0.102 + 13.1 + 0.006 + 3.35 + 0.005 + 0.008 + 0.001 + 17.6 + 17.7 + 0.527 = 67.275.
    Share: 32.765 / (67.275 + 32.765) = 32.75 % (leaving the sidecars out of the total would give 48.7 %).
    Observed sidecar CPU per 1K TPS at the 54K TPS of Site1: 32.765 / 54 = 0.6068 cores (requested: 167 / 54 = 3.09)."""
    o = asm.overhead(bundle, "bsf-3-2")["observed"]["cpu"]
    assert o["sidecar"] == pytest.approx(32.765) and o["total"] == pytest.approx(100.04)
    assert round(o["share"], 2) == 32.75
    assert o["sidecar_per_1k"] == pytest.approx(32.765 / 54)
    assert o["partial"] == []  # the flagged rows of Table 3-18 (bsf-E024..E026) are at Site2 and Site3


def test_policy_3_2_7_is_partial_not_a_61_percent_share(bundle):
    """Table 3-140: 13 application rows flagged by erratum policy-E031 (row 7 also policy-E032) and the Query Service
    sidecar printed without a value (policy-E094). Over every kept row the sidecars were 566.5 of 923.5 cores,
    a 61 % 'share' that mixes sidecars whose applications are missing: the share is None and the result partial."""
    o = asm.overhead(bundle, "policy-3-2-7")
    assert o["cpu_share"] is None and o["mem_share"] is None
    p = o["partial"]
    assert p["app_rows"] == 13 and p["sidecar_rows"] == 1 and p["tables"] == ["3-140"]
    assert {"policy-E031", "policy-E032", "policy-E094"} == set(p["errata"])
    assert "config-server" in p["services"] and "ue-service" in p["services"]
    cfg = next(v for v in o["services"] if v["service"] == "config-server")
    assert cfg["partial"] and cfg["cpu_share"] is None
    html = catalogue.run(bundle, {"calc": "asm", "on": "policy-3-2-7", "off": "policy-3-1-1"})["html"]
    assert "61." not in html.split('data-scenario="policy-3-2-7"')[1].split("</tr>")[0]
    assert "policy-E031" in html


def test_asm_enabled_without_sidecar_rows_says_so(bundle):
    """Policy 3.2.1 is ASM-enabled (its scenario facts) but its resource tables print no istio-proxy row."""
    assert asm.asm_without_sidecars(bundle) == ["policy-3-2-1"]
    html = catalogue.run(bundle, {"calc": "asm", "on": "bsf-3-2", "off": "bsf-3-1"})["html"]
    assert 'data-scenario="policy-3-2-1" data-no-sidecars' in html and "unknown (not 0)" in html


def test_istio_reference_is_labelled_by_version(bundle):
    html = catalogue.run(bundle, {"calc": "asm", "on": "bsf-3-2", "off": "bsf-3-1"})["html"]
    assert "Istio 1.3.5: 0.6 vCPU and 50 MB" in html and "Istio 1.12.3 to 1.16.2: 0.35 vCPU and 40 MB" in html
    assert "https://istio.io/v1.16/docs/ops/deployment/performance-and-scalability" in html


def test_compare_normalised_per_1k_with_differences(bundle):
    """Bsf-3-3 (ASM on) requests 763.8 cores for 63K TPS = 12.124 per 1K; bsf-3-1 (ASM off) 251 for 22K = 11.409.
    Both runs are release 25.2.200 and ~72 hours, but the call mix differs (8.43K nbsf + 54.7K Rx against
    14.4K nBSF + 7.8K Rx), so no on - off difference is given: not comparable."""
    c = asm.compare(bundle, "bsf-3-3", "bsf-3-1")
    assert c["on"]["cpu_total_per_1k"] == pytest.approx(763.8 / 63)
    assert c["off"]["cpu_total_per_1k"] == pytest.approx(251 / 22)
    assert c["comparable"] is False and c["diff"]["cpu_total_per_1k"] is None
    d = {x["what"]: x for x in c["differences"]}
    assert not d["Release"]["differs"] and not d["Duration"]["differs"]
    assert d["Call mix"]["differs"] and d["ASM"]["differs"]


def test_issue_case_bsf_rx_heavy_against_nbsf_heavy_is_not_comparable(bundle):
    """Bsf-3-2 (4.5k nbsf + 50k Rx, 54K TPS: 469.7 / 54 = 8.698 cores per 1K) against bsf-3-1 (14.4K nBSF
    + 7.8K Rx, 22K TPS: 251 / 22 = 11.409) was reported as ASM 2.71 cores per 1K *cheaper*. Now: not comparable."""
    c = asm.compare(bundle, "bsf-3-2", "bsf-3-1")
    assert c["on"]["cpu_total_per_1k"] - c["off"]["cpu_total_per_1k"] == pytest.approx(469.7 / 54 - 251 / 22)
    assert round(469.7 / 54 - 251 / 22, 2) == -2.71
    assert c["comparable"] is False and all(v is None for v in c["diff"].values())
    assert any(w.startswith("call model differs") for w in c["not_comparable"])
    html = catalogue.run(bundle, {"calc": "asm", "on": "bsf-3-2", "off": "bsf-3-1"})["html"]
    assert "Not comparable." in html and "-2.71" not in html


def test_same_call_model_and_mode_is_comparable(bundle):
    """With bsf-3-1's call mix written as bsf-3-3's (spacing and case aside), the pair is like for like and the
    difference is on - off per 1K: 763.8 / 63 - 251 / 22 = 0.7147 cores per 1K TPS."""
    import copy
    b = copy.deepcopy(bundle)
    f33 = next(f for f in b["scenario_facts"] if f["id"] == "bsf-3-3")
    f31 = next(f for f in b["scenario_facts"] if f["id"] == "bsf-3-1")
    f31["call_mix"] = "  " + f33["call_mix"].upper()
    c = asm.compare(b, "bsf-3-3", "bsf-3-1")
    assert c["comparable"] and c["not_comparable"] == []
    assert c["diff"]["cpu_total_per_1k"] == pytest.approx(763.8 / 63 - 251 / 22)
    next(s for s in b["scenarios"] if s["id"] == "bsf-3-1")["deployment_mode"] = "converged"
    assert asm.comparable(b, "bsf-3-3", "bsf-3-1") == ["deployment mode differs: BSF against converged"]


def test_compare_rejects_bad_pairs(bundle):
    with pytest.raises(AsmError, match="different products"):
        asm.compare(bundle, "bsf-3-3", "policy-3-1-1")
    with pytest.raises(AsmError, match="runs with sidecars"):
        asm.compare(bundle, "bsf-3-3", "bsf-3-2")
    with pytest.raises(AsmError, match="not an ASM-enabled"):
        asm.compare(bundle, "bsf-3-1", "bsf-3-1")
    with pytest.raises(AsmError, match="Unknown scenario"):
        asm.compare(bundle, "nope", "bsf-3-1")


def test_whatif_remove_and_add(bundle):
    """Removing ASM from 3.3 at its own 63K TPS frees the 280 sidecar cores (126 + 154, Tables 3-25/3-26).
    Adding ASM to 3.1 sized from 3.3: Diameter Gateway (2 replicas, Table 3-5 row 12) gets 3.3's 2-core sidecar."""
    w = asm.whatif(bundle, "bsf-3-3", "bsf-3-1")
    assert w["remove"]["cpu_delta"] == -280 and w["remove"]["cpu_before"] == pytest.approx(763.8)
    assert w["add"]["cpu_delta"] > 0 and w["add"]["source"] == "bsf-3-3"
    with pytest.raises(AsmError, match="greater than zero"):
        asm.whatif(bundle, "bsf-3-3", "bsf-3-1", "-1")


def test_asm_web_and_csv(bundle):
    out = catalogue.run(bundle, {"calc": "asm", "on": "bsf-3-2", "off": "bsf-3-1"})
    assert out["ok"], out
    # the CSV holds the pair shown (test_calculator_first_use); the overview of every ASM scenario is the "overview" download
    assert "total,bsf-3-2,enabled,,TOTAL,167.0,469.7," in out["downloads"]["csv"]["text"]
    assert "bsf-3-2,,TOTAL,167.0,469.7," in out["downloads"]["overview"]["text"]
    assert out["chart"]["data"]["values"]
    bad = catalogue.run(bundle, {"calc": "asm", "on": "bsf-3-2", "off": "policy-3-1-1"})
    assert not bad["ok"] and "different products" in bad["error"]


# ------------------------------------------------------------------ footprint: add ASM, NEF

def test_footprint_add_asm_per_service_from_chosen_scenario(bundle):
    """Bsf-3-1 has no sidecars. Adding them from bsf-3-3: Diameter Gateway keeps 2 replicas at 22K TPS and gets a
    sidecar of 2 cores request (bsf-3-3's Diameter Gateway istio-proxy row in Table 3-25), 4 cores in total."""
    res = footprint.compute(bundle, "bsf-3-1", 22000, asm="add", asm_from="bsf-3-3")
    sc = result_row(res, "Diameter Gateway", "istio-proxy")
    src = next(r for r in bundle["resources"] if r["scenario"] == "bsf-3-3" and r["service"] == "Diameter Gateway" and r["is_sidecar"])
    assert sc["added"] and sc["table_id"] == src["table_id"] == "3-25" and sc["source_scenario"] == "bsf-3-3"
    assert sc["cpu_request"] == src["cpu_request_cores"] and sc["replicas_after"] == 2
    assert sc["replicas_before"] == 0 and sc["cpu_request_before"] == 0
    assert res["totals"]["groups"]["sidecars"]["before"]["cpu_request"] == 0


def test_footprint_add_asm_user_size(bundle):
    """A user size of 0.5 cores / 0.25 GiB per sidecar on bsf-3-1 at 22K TPS: every app and cnDBTier pod gets one,
    so sidecar CPU = 0.5 x the replicas of those pods."""
    res = footprint.compute(bundle, "bsf-3-1", 22000, asm="add", sidecar_cpu="0.5", sidecar_mem="0.25")
    pods = sum(r["replicas_after"] or 0 for r in res["rows"] if not r["is_sidecar"] and r["component"] in ("app", "cndbtier")
               and r["container"] == runs.main_container([x for x in res["rows"] if x["service"] == r["service"]
                                                                 and not x["is_sidecar"]])["container"])
    assert res["totals"]["groups"]["sidecars"]["after"]["cpu_request"] == pytest.approx(0.5 * pods)
    assert result_row(res, "Ingress Gateway", "istio-proxy")["replicas_after"] == 9  # Table 3-5 row 6


def test_footprint_add_asm_errors(bundle):
    with pytest.raises(FootprintError, match="No ASM-enabled scenario"):
        footprint.compute(bundle, "nef-me-1", 2500, asm="add")
    with pytest.raises(FootprintError, match="not an ASM-enabled scenario"):
        footprint.compute(bundle, "bsf-3-1", 22000, asm="add", asm_from="policy-3-2-2")
    with pytest.raises(FootprintError, match="'keep', 'remove' or 'add'"):
        footprint.compute(bundle, "bsf-3-1", 22000, asm="maybe")
    with pytest.raises(FootprintError, match="Sidecar memory"):
        footprint.compute(bundle, "bsf-3-1", 22000, asm="add", sidecar_cpu="1")


def test_nef_scenario_wide_cpu(bundle):
    """NEF ME scenario 1: Average CPU Total ~60 % (Table 3-5 row 1) against Target CPU 70 % (Table 3-3 row 5).
    At 5000 TPS (2 x 2500): NEF Ingress Gateway 4 replicas (Table 3-1 row 1) x 2 x 60/70 = 6.86 -> 7;
    ME 2 x 2 x 60/70 = 3.43 -> 4; Expiry Auditor (management) stays 2. With your 60 % target: 4 x 2 = 8.
    NEF prints no memory use, so memory is taken at the full request, which grows with load: Ingress Gateway
    4 x 2 = 8 replicas by memory, which binds (footprint: replicas from CPU and memory)."""
    res = footprint.compute(bundle, "nef-me-1", 5000)
    assert result_row(res, "NEF Ingress Gateway")["replicas_after"] == 8
    assert result_row(res, "NEF Ingress Gateway")["rule"] == "scenario-cpu"
    assert result_row(res, "ME")["replicas_after"] == 4
    assert result_row(res, "Expiry Auditor")["replicas_after"] == 2 and result_row(res, "Expiry Auditor")["rule"] == "fixed"
    assert any("does not say which pods" in w for w in res["warnings"])
    assert result_row(footprint.compute(bundle, "nef-me-1", 5000, target_cpu_percent=60), "NEF Ingress Gateway")["replicas_after"] == 8


# ------------------------------------------------------------------ over-target

def test_hpa_formula_example():
    """Kubernetes HPA: 50 replicas at 90 % against 75 %: ceil(50 x 1.2) = 60; 88 / 80 = 1.1 is inside the 0.1 tolerance
    of the default controller (Kubernetes v1.33 or later: 1.1 <= 1.0 + 0.1)."""
    assert ot.hpa_desired(50, 90, 75) == 60
    assert ot.hpa_desired(5, 88, 80) == 5
    assert ot.hpa_desired(10, 50, 80) == 7  # ceil(10 x 0.625)
    with pytest.raises(OverTargetError):
        ot.hpa_desired(-1, 50, 80)


def test_policy_rows_over_target(bundle):
    """Policy 3.3.1 Table 3-188 row 1, ndbappmysqld: 89%/80% at site3 and 88%/80% at site1, 5 replicas
    (Table 3-186 row 1). Site3: 89/80 = 1.1125 -> ceil(5 x 1.1125) = ceil(5.5625) = 6, critical. Site1: 88/80 = 1.1,
    inside the 0.1 tolerance of the default controller (v1.33 or later): stays 5, warning."""
    res = ot.compute(bundle)
    by = {(e["scenario"], e["service"], e["site"]): e for e in res["cpu"]}
    s3 = by[("policy-3-3-1", "ndbappmysqld", "site3")]
    assert (s3["status"], s3["replicas"], s3["replicas_table"], s3["replicas_row"], s3["desired"]) == ("over", 5, "3-186", 1, 6)
    assert s3["severity"] == "critical" and by[("policy-3-3-1", "ndbappmysqld", "site1")]["severity"] == "warning"
    assert (s3["table_id"], s3["row"]) == ("3-188", 1)
    assert by[("policy-3-3-1", "ndbappmysqld", "site1")]["desired"] == 5
    # Policy 3.2.7 Table 3-142 row 16: ue-service 58%/30%; its resource row (Table 3-140 row 10) is flagged: no count
    ue = by[("policy-3-2-7", "ue-service", "site1")]
    assert ue["status"] == "over" and ue["replicas"] is None and ue["desired"] is None
    # near, relative: Policy 3.2.1 Table 3-70 row 11, udr-connector 46%/50% (0.92 >= 0.9), 7 replicas stay 7
    near = by[("policy-3-2-1", "udr-connector", "site1")]
    assert near["status"] == "near" and near["desired"] == 7 and near["severity"] == "warning"
    # NEF TI 1: ~69 % against 70 % (Table 3-21 row 1), scenario-wide
    assert by[("nef-ti-1", "(scenario-wide; pods not stated)", "")]["status"] == "near"


def test_flagged_values_never_used(bundle):
    """Policy 3.3.2 Table 3-196 row 3 prints ndbmtd 22530%/80% (flagged impossible): never flagged here."""
    res = ot.compute(bundle, "policy")
    assert not any(e["scenario"] == "policy-3-3-2" and e["service"] == "ndbmtd" for e in res["cpu"])
    assert all(e["doc"] == "policy" for e in res["cpu"])


def test_memory_threshold(bundle):
    """Policy 3.4.4 Table 3-235 row 10: ndbmtd/mysqlndbcluster memory 93.1 % at site1 is over a 90 % threshold."""
    res = ot.compute(bundle, mem_threshold="90")
    assert any(e["scenario"] == "policy-3-4-4" and e["row"] == 10 and e["observed"] == 93.1 for e in res["memory"])
    assert all(e["observed"] >= 90 for e in res["memory"])
    assert len(ot.compute(bundle, mem_threshold="50")["memory"]) >= len(res["memory"])
    for bad in ("0", "101", "abc", "", "nan"):
        with pytest.raises(OverTargetError):
            ot.compute(bundle, mem_threshold=bad)
    with pytest.raises(OverTargetError, match="Unknown product"):
        ot.compute(bundle, "zzz")


def test_own_csv_reports_bad_lines_and_evaluates_the_rest():
    text = ("name,replicas,cpu_request,observed,target\n"
            "gw,50,4,90%,75\n"          # line 2: 60 replicas
            "bad,x,4,50%,80\n"          # line 3: replicas
            "cores,10,2,18 cores,80\n"  # line 4: 18 / (10 x 2) = 90 % of 80 -> 1.125 -> 12
            "nounit,3,1,50,80\n"        # line 5: no unit
            "short,1\n"                 # line 6: fields
            "low,4,1,10%,80\n")         # line 7: ok, HPA scales in to ceil(4 x 0.125) = 1
    own, problems = ot.parse_own(text)
    assert [p["line"] for p in problems] == [3, 5, 6]
    got = {o["name"]: o for o in own}
    assert got["gw"]["desired"] == 60 and got["gw"]["status"] == "over"
    assert got["cores"]["observed"] == pytest.approx(90) and got["cores"]["desired"] == 12
    assert got["low"]["status"] == "ok" and got["low"]["desired"] == 1


@pytest.mark.parametrize("text, message", [
    ("a" * (ot.MAX_BYTES + 1), "limit is 1,048,576 bytes"),
    ("name,replicas\x00\x01\x02", "binary"),
    ("\x01\x02\x03\x04\x05\x06" * 10, "binary"),
    ("foo,bar\n1,2\n", "header"),
    ("", "empty"),
])
def test_own_csv_rejects_garbage(text, message):
    with pytest.raises(OverTargetError, match=message):
        ot.parse_own(text)


def test_overtarget_web(bundle):
    out = catalogue.run(bundle, {"calc": "overtarget", "product": "policy", "mem_threshold": "90",
                           "csv": "name,replicas,cpu_request,observed,target\ngw,50,4,90%,75\nbad\n"})
    assert out["ok"], out
    assert "Line 3:" in out["html"] and 'href="../../products/policy/policy-3-3-1/#table-3-188"' in out["html"]
    lines = out["downloads"]["csv"]["text"].splitlines()
    assert "own-cpu,over,,,,2,gw,,gw,,90.0,75.0,,50,,,90,,,,60,critical,60,," in lines
    assert catalogue.run(bundle, {"calc": "overtarget", "mem_threshold": "x"})["ok"] is False


# ------------------------------------------------------------------ CLI

def test_cli_footprint_csv_and_json(bundle, tmp_path, capsys):
    f = tmp_path / "bundle.json"
    f.write_text(json.dumps(bundle))
    assert cli(["--bundle", str(f), "footprint", "--scenario", "bsf-3-3", "--load", "126000", "--target", "70", "--format", "json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert result_row(res, "BSF Management Service")["replicas_after"] == 17  # as test_calculators.test_observed_cpu_rule_scenario_3_3
    assert cli(["--bundle", str(f), "footprint", "--scenario", "bsf-3-3", "--load", "80000", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('"# answer: Per site: ') and csv_body(out).startswith("scenario,component,service")
    assert cli(["--bundle", str(f), "footprint", "--scenario", "bsf-3-3", "--load", "-1"]) == 2
    assert "greater than zero" in capsys.readouterr().err
    assert cli(["--bundle", str(f), "overtarget", "--product", "policy", "--format", "csv"]) == 0
    assert "policy-3-3-1" in capsys.readouterr().out


# ------------------------------------------------------------------ over-target: HPA rule, near band, partial

def test_near_band_boundary_27_of_30():
    """The 'near' band is relative: observed >= 0.9 x target. Against a 30 % target, 27 % is near, 26.99 % is not,
    30 % is over."""
    assert ot.classify(27, 30) == "near"
    assert ot.classify("26.99", 30) is None
    assert ot.classify(30, 30) == "over" and ot.classify("29.99", 30) == "near"


def test_hpa_reads_whole_percent():
    """The controller truncates utilization to a whole percent: 33.9 % against 30 % reads 33, ratio 1.1, inside the
    0.1 tolerance of the default controller (v1.33 or later): 10 replicas stay 10 (read as 33.9 it would be
    ceil(10 x 1.13) = 12). 29.9 % reads 29."""
    h = ot.hpa(10, "33.9", 30)
    assert h["reads"] == 33 and h["within_tolerance"] and h["desired"] == 10
    assert ot.hpa_desired(10, "34.0", 30) == 12  # 34 / 30 = 1.133 -> ceil(11.33) = 12
    assert ot.hpa(5, "29.9", 30)["reads"] == 29


def test_hpa_clamped_to_min_and_max():
    """Clamp after the formula: 10 replicas at 90 % of 60 % ask ceil(10 x 1.5) = 15, max 12 gives 12; 10 at 20 % of
    80 % ask ceil(2.5) = 3, min 4 gives 4; inside the tolerance a count above max still comes down to max."""
    h = ot.hpa(10, 90, 60, max_replicas=12)
    assert (h["unclamped"], h["desired"], h["bound"]) == (15, 12, "max")
    h = ot.hpa(10, 20, 80, min_replicas=4, max_replicas=20)
    assert (h["unclamped"], h["desired"], h["bound"]) == (3, 4, "min")
    assert ot.hpa_desired(14, 80, 80, min_replicas=2, max_replicas=12) == 12
    assert ot.hpa_desired(10, 90, 60, min_replicas=5, max_replicas=2) == 15  # contradictory bounds are not applied


def test_policy_3_2_2_range_printed_hpa_from_either_end(bundle):
    """Policy 3.2.2: ue-service 54 %/30 % (Table 3-83 row 16) with Min/Max Replicas 2 / 16 printed (Table 3-81 row 11)
    and no current count. From 2: ceil(2 x 1.8) = 4; from 16: ceil(16 x 1.8) = ceil(28.8) = 29, clamped at max 16."""
    res = ot.compute(bundle, "policy")
    ue = next(e for e in res["cpu"] if e["scenario"] == "policy-3-2-2" and e["service"] == "ue-service")
    assert (ue["hpa_min"], ue["hpa_max"], ue["replicas"], ue["desired"]) == (2, 16, None, None)
    ends = ue["desired_from_ends"]
    assert ends["min"] == {"desired": 4, "unclamped": 4, "bound": None, "max_must_rise_to": None}
    assert ends["max"] == {"desired": 16, "unclamped": 29, "bound": "max", "max_must_rise_to": 29}
    assert (ue["max_must_rise_to"], ue["severity"]) == (29, "critical")
    html = otr.to_html(res)
    assert "from max 16: 16 (asks 29, clamped at max): the HPA max must rise to 29" in html
    assert "KEP-4951" in html and "v1.33" in html


def test_overtarget_marks_partial_scenarios(bundle):
    """Policy 3.2.6 Table 3-132: the ndbmtd row is flagged (policy-E030); Policy 3.2.10 Table 3-177: 78 rows
    printed without a value (policy-E060). Both are listed as partial, and their flagged rows carry the mark."""
    res = ot.compute(bundle, "policy")
    assert "policy-E030" in res["partial"]["policy-3-2-6"] and "ndbmtd" in res["partial"]["policy-3-2-6"]
    assert res["partial"]["policy-3-2-10"].startswith("78 rows of Table 3-177")
    assert all(e["partial"] for e in res["cpu"] if e["scenario"] == "policy-3-2-6")
    html = otr.to_html(res)
    assert '<li data-scenario="policy-3-2-10">' in html


@pytest.mark.parametrize("cell, message", [
    ("9" * 5000 + "%", "too long to be a number (5,001 characters"),
    ("9" * 25 + "%", "above 100,000 %"),
    ("1" + "0" * 400 + " cores", "too long to be a number"),
])
def test_own_csv_overlong_number_is_that_lines_problem(cell, message):
    """An overlong number was 'internal error: OverflowError' or 'Exceeds the limit (4300 digits)'."""
    own, problems = ot.parse_own(f"name,replicas,cpu_request,observed,target\nok,5,4,50%,80\nbad,5,4,{cell},80\n")
    assert [o["name"] for o in own] == ["ok"]
    assert problems[0]["line"] == 3 and message in problems[0]["message"] and len(problems[0]["message"]) < 160


def test_own_csv_target_below_1_percent_is_refused():
    own, problems = ot.parse_own("name,replicas,cpu_request,observed,target\na,5,4,50%,0.000001\n")
    assert own == [] and problems[0]["message"] == "target must be a percent from 1 to 100, not '0.000001'."


def test_asm_csv_lists_the_scenario_without_sidecar_rows(bundle):
    import csv as _csv
    import io as _io
    out = catalogue.run(bundle, {"calc": "asm", "on": "bsf-3-2", "off": "bsf-3-1"})
    rows = list(_csv.reader(_io.StringIO(csv_body(out["downloads"]["overview"]["text"]))))
    line = next(r for r in rows if r[0] == "policy-3-2-1")
    assert line[2] == "TOTAL" and line[3] == "" and "no sidecar rows" in line[-1] and len(line) == len(rows[0])


# ------------------------------------------------------------------ over-target: the HPA controller's float64 arithmetic
# kubernetes/kubernetes pkg/controller/podautoscaler: GetResourceUtilizationRatio (metrics/utilization.go) reads a whole
# percent and divides in float64; GetResourceReplicas (replica_calculator.go) keeps the count while
# math.Abs(1.0-usageRatio) <= 0.1 up to v1.32, (1.0-0.1) <= usageRatio <= (1.0+0.1) since v1.33 (Tolerances.isWithin,
# KEP-4951), else int32(math.Ceil(usageRatio * float64(readyPodCount))).

def _row(res, scenario, service, site):
    return next(e for e in res["cpu"] if (e["scenario"], e["service"], e["site"]) == (scenario, service, site))


def test_88_of_80_scales_on_the_v1_32_controller_and_holds_on_v1_33(bundle):
    """Policy 3.3.1 Table 3-188 row 1: ndbappmysqld at Site1, 88 % against its 80 % target, 5 replicas (Table 3-186
    row 1). By hand, in float64: 88.0 / 80.0 = 1.1 (the double nearest 1.1).
    v1.32: 1.0 - 1.1 = -0.10000000000000009, |.| = 0.10000000000000009 > 0.1, so it scales: ceil(5 x 1.1) = ceil(5.5)
    = 6, critical. v1.33: 1.0 + 0.1 is that same double 1.1, and 1.1 <= 1.1: no change, 5, warning.
    The exact rule (|88/80 - 1| = 1/10 <= 1/10) gives 5 for both."""
    assert 1.0 - 88.0 / 80.0 == -0.10000000000000009 and 88.0 / 80.0 == 1.0 + 0.1
    old = _row(ot.compute(bundle, "policy", kubernetes="1.32"), "policy-3-3-1", "ndbappmysqld", "site1")
    assert (old["replicas"], old["replicas_table"], old["table_id"], old["row"]) == (5, "3-186", "3-188", 1)
    assert (old["hpa_reads"], old["within_tolerance"], old["unclamped"], old["desired"], old["severity"]) == (88, False, 6, 6, "critical")
    assert old["controller_note"] == ("Kubernetes v1.33 or later: 5 replicas (warning): 88/80 = 1.1 in float64, within "
                                      "(1 - 0.1) <= ratio <= (1 + 0.1) = 1.1")
    new = _row(ot.compute(bundle, "policy"), "policy-3-3-1", "ndbappmysqld", "site1")
    assert (new["within_tolerance"], new["unclamped"], new["desired"], new["severity"]) == (True, 5, 5, "warning")
    assert new["controller_note"] == ("Kubernetes v1.32 or earlier: 6 replicas (critical): |1 - 88/80| = "
                                      "0.10000000000000009 in float64, above the 0.1 tolerance")
    assert ot.hpa_desired(5, 88, 80, controller="1.32") == 6 and ot.hpa_desired(5, 88, 80, controller="1.33") == 5
    html = otr.to_html(ot.compute(bundle, "policy", kubernetes="1.32"))
    assert "Applied here: Kubernetes v1.32 or earlier." in html
    assert ('<small class="atlas-k8s-note" title="Kubernetes v1.33 or later: 5 replicas (warning): 88/80 = 1.1 in float64, '
            'within (1 - 0.1) &lt;= ratio &lt;= (1 + 0.1) = 1.1">v1.33 or later: 5</small>') in html
    # the four rows at exactly 1.1 x target (Policy 3.2.1 ue-service 33/30; 88/80 at Policy 3.3.1 Site1 and Site4, 3.4.2 Site4)
    assert "<summary>4 rows the HPA controller of Kubernetes v1.33 or later decides differently</summary>" in html
    assert ("<li>Policy 3.3.1, Table 3-188 row 1: ndbappmysqld at site1: Kubernetes v1.33 or later: 5 replicas (warning): "
            "88/80 = 1.1 in float64, within (1 - 0.1) &lt;= ratio &lt;= (1 + 0.1) = 1.1</li>") in html


@pytest.mark.parametrize("controller", ["1.32", "1.33"])
def test_just_inside_the_tolerance_both_controllers_hold_still(bundle, controller):
    """Policy 3.3.1 Table 3-188 row 1, ndbappmysqld at Site2: 87 % of 80 %, 5 replicas (Table 3-186 row 1):
    87.0 / 80.0 = 1.0875, |1 - 1.0875| = 0.0875 <= 0.1 and 1.0875 <= 1.1: stays 5, warning (over its target but
    inside the band). 72 % of 80 %: 0.9, the band's lower edge; in float64 1.0 - 0.1 == 72.0 / 80.0 (0.9) and
    |1 - 0.9| = 0.09999999999999998 <= 0.1: 10 replicas stay 10, warning. 71 %: 0.8875, below the band:
    ceil(10 x 0.8875) = ceil(8.875) = 9, ok."""
    row = _row(ot.compute(bundle, "policy", kubernetes=controller), "policy-3-3-1", "ndbappmysqld", "site2")
    assert (row["observed"], row["target"], row["replicas"]) == (87, 80, 5)
    assert (row["within_tolerance"], row["desired"], row["severity"], row["controller_note"]) == (True, 5, "warning", None)
    edge = ot.hpa(10, 72, 80, controller=controller)
    assert (edge["ratio"], edge["within_tolerance"], edge["desired"], edge["severity"]) == (0.9, True, 10, "warning")
    below = ot.hpa(10, 71, 80, controller=controller)
    assert (below["within_tolerance"], below["desired"], below["severity"]) == (False, 9, "ok")


def test_the_controllers_float64_ceiling_below_and_above_the_target():
    """Ceil(ratio x current) as the controller computes it, in float64, against the exact count:
    - below the target: 42 replicas at 45 % of 70 %: 45.0 / 70.0 = 0.6428571428571429, x 42 = 27.000000000000004,
      ceil 28 (exact 45 x 42 / 70 = 27); 50 replicas at 7 % of 50 %: 0.14 x 50 = 7.000000000000001, ceil 8 (exact 7);
    - above it: 21 replicas at 90 % of 70 %: 1.2857142857142858 x 21 = 27.000000000000004, ceil 28 (exact 27).
    The same from the reader's CSV: the rows' desired counts and severities (ok below the band, critical above)."""
    assert 45.0 / 70.0 * 42 == 27.000000000000004 and 7.0 / 50.0 * 50 == 7.000000000000001
    assert ot.hpa_desired(42, 45, 70) == 28 and ot.hpa_desired(50, 7, 50) == 8 and ot.hpa_desired(21, 90, 70) == 28
    own, problems = ot.parse_own("name,replicas,cpu_request,observed,target\n"
                                 "low,42,1,45%,70\nidle,50,1,7%,50\nhot,21,1,90%,70\n")
    assert problems == []
    assert [(e["name"], e["desired"], e["severity"]) for e in own] == [("low", 28, "ok"), ("idle", 8, "ok"), ("hot", 28, "critical")]


def test_the_v1_33_tolerance_test_is_the_exact_one_for_whole_percents_and_v1_32_differs_only_at_1_1():
    """For every reading 0-200 % and target 1-100 % (both whole, as the controller holds them): the v1.33 test
    (1.0 - 0.1) <= r <= (1.0 + 0.1) in float64 answers as the exact |reading / target - 1| <= 1/10; the v1.32 test
    |1.0 - r| <= 0.1 differs from it exactly where reading / target = 11/10 (88/80, 33/30, 110/100 ...)."""
    from fractions import Fraction
    differ = []
    for target in range(1, 101):
        for reading in range(0, 201):
            exact = abs(Fraction(reading, target) - 1) <= Fraction(1, 10)
            r = reading / target
            assert ot.within_tolerance(r, "1.33") == exact, (reading, target)
            if ot.within_tolerance(r, "1.32") != exact:
                differ.append((reading, target))
    assert differ == [(11 * k, 10 * k) for k in range(1, 11)]


def test_per_direction_tolerances_kep_4951():
    """KEP-4951's own example: 100 replicas at a usage ratio of 1.07 stay at 100 with the default tolerance (0.1),
    and go to 107 with a 5 % scale-up tolerance (1.07 x 100 = 107.0 in float64). A 25 % scale-down tolerance holds
    80 % of 100 % still (0.75 <= 0.8); the v1.32 controller has one tolerance for both directions."""
    assert ot.hpa_desired(100, 107, 100) == 100
    assert ot.hpa_desired(100, 107, 100, tolerance_up=0.05) == 107
    assert ot.hpa(10, 80, 100, tolerance_down=0.25)["desired"] == 10 and ot.hpa_desired(10, 80, 100) == 8
    with pytest.raises(OverTargetError, match="Kubernetes v1.33 or later"):
        ot.hpa(10, 80, 100, controller="1.32", tolerance_down=0.25)
    with pytest.raises(OverTargetError, match="0 or more"):
        ot.within_tolerance(1.0, tolerance_up=-0.1)


def test_the_controllers_own_bounds_before_any_metric():
    """Horizontal.go reconcileAutoscaler: a current count of 0 is not scaled (ScalingDisabled); above maxReplicas the
    count goes to the max, below minReplicas to the min, without reading the metric. 14 replicas at 40 % of 80 %
    (metric: ceil(14 x 0.5) = 7) with max 12: 12. 1 replica at 300 % of 50 % (metric: 6) with min 2: 2. 0 replicas
    at 300 %: 0."""
    h = ot.hpa(14, 40, 80, min_replicas=2, max_replicas=12)
    assert (h["unclamped"], h["desired"], h["reason"], h["max_must_rise_to"], h["severity"]) == (7, 12, "current above max", None, "ok")
    h = ot.hpa(1, 300, 50, min_replicas=2, max_replicas=10)
    assert (h["unclamped"], h["desired"], h["reason"], h["severity"]) == (6, 2, "current below min", "critical")
    h = ot.hpa(0, 300, 50)
    assert (h["desired"], h["reason"]) == (0, "scaling disabled")


def test_severity_boundaries_follow_the_controllers_reading():
    """Severity from the whole-percent reading against an 80 % target (band 72..88 %): 89 % critical (1.1125),
    88 % warning (v1.33) or critical (v1.32), 80 % warning, 72 % warning, 71 % ok (0.8875). 67.6 % of a 75 % target is
    'near' by the flag (67.6 >= 0.9 x 75 = 67.5) but reads 67: 67 / 75 = 0.8933 < 0.9, ok."""
    sev = lambda o, t=80, c="1.33": ot.hpa_usage(o, t, c)["severity"]
    assert [sev(o) for o in (89, 88, 80, 72, 71)] == ["critical", "warning", "warning", "warning", "ok"]
    assert sev(88, c="1.32") == "critical"
    assert ot.classify("67.6", 75) == "near" and sev("67.6", 75) == "ok"


def test_targets_must_be_whole_percents_as_the_hpa_holds_them():
    """An HPA's averageUtilization is an int32: a target of 72.5 % cannot be computed the controller's way."""
    with pytest.raises(OverTargetError, match="whole percent"):
        ot.hpa(10, 80, "72.5")
    own, problems = ot.parse_own("name,replicas,cpu_request,observed,target\na,5,4,50%,72.5\nb,5,4,50%,72.0\n")
    assert problems == [{"line": 2, "message": "target must be a whole percent (an HPA's averageUtilization is an integer), "
                                               "not '72.5'."}]
    assert [e["name"] for e in own] == ["b"]


def test_an_unknown_kubernetes_version_is_refused_naming_its_field(bundle):
    """The page's select offers 1.33 and 1.32; a link with another value is refused with the choices, the field marked."""
    with pytest.raises(OverTargetError, match="Kubernetes version must be one of 1.33, 1.32"):
        ot.compute(bundle, kubernetes="1.31")
    out = catalogue.run(bundle, {"calc": "overtarget", "kubernetes": "2"})
    assert out["ok"] is False and out["field"] == "kubernetes" and "not '2'" in out["error"]
    assert catalogue.run(bundle, {"calc": "overtarget", "mem_threshold": "0"})["field"] == "mem_threshold"


# ------------------------------------------------------------------ over-target: an HPA max too low

def test_policy_3_2_2_ue_service_max_must_rise_to_29(bundle):
    """The guides' one row whose HPA max stops the count asked for: Policy 3.2.2, Table 3-83 row 16, ue-service at
    Site1 reads 54 % against its 30 % target; Table 3-81 row 11 prints Min/Max Replicas 2 / 16 and no current count.
    From the max: 54.0 / 30.0 = 1.8, x 16 = 28.8, ceil 29 > 16: the HPA max must rise to 29 (critical). From the min:
    ceil(2 x 1.8) = ceil(3.6) = 4, within the max. Same for both Kubernetes versions."""
    for controller in ("1.33", "1.32"):
        res = ot.compute(bundle, kubernetes=controller)
        assert [(x["scenario"], x["table_id"], x["row"], x["max_must_rise_to"], x["hpa_max"]) for x in res["max_blocked"]] == [
            ("policy-3-2-2", "3-83", 16, 29, 16)]
    text = res["max_blocked"][0]["text"]
    assert text == ("Policy 3.2.2, Table 3-83 row 16: ue-service at site1 reads 54 % against its 30 % target; started from "
                    "its max of 16 replicas the HPA asks for 29, above its max of 16 (Table 3-81, row 11): the HPA max must "
                    "rise to 29 for the service to reach its target.")
    out = catalogue.run(bundle, {"calc": "overtarget", "product": "policy"})
    assert f"<li>{text}</li>" in out["html"] and '<strong>HPA max too low:</strong>' in out["html"]
    assert 'data-service="ue-service" data-site="site1" data-status="over" data-severity="critical" data-max-must-rise="29"' in out["html"]
    rows = list(csv.reader(io.StringIO(csv_body(out["downloads"]["csv"]["text"]))))
    head = rows[0]
    ue = next(r for r in rows if r[3] == "policy-3-2-2" and r[8] == "ue-service")
    assert (ue[head.index("severity")], ue[head.index("hpa_max_must_rise_to")], ue[head.index("hpa_max_replicas")]) == ("critical", "29", "16")


def test_own_row_with_an_hpa_max_says_to_what_it_must_rise():
    """Your row: 10 replicas at 90 % of 60 % with min 2, max 12: 90.0 / 60.0 = 1.5, x 10 = 15.0, ceil 15 > 12: the HPA
    sets 12 and its max must rise to 15 (critical). With max 20: 15, no note. Bounds that contradict, or are not
    whole numbers, are that line's problem."""
    own, problems = ot.parse_own("name,replicas,cpu_request,observed,target,min_replicas,max_replicas\n"
                                 "gw,10,2,90%,60,2,12\nroomy,10,2,90%,60,2,20\nbad,10,2,90%,60,8,4\nodd,10,2,90%,60,,1.5\n")
    gw, roomy = own
    assert (gw["unclamped"], gw["desired"], gw["bound"], gw["max_must_rise_to"], gw["severity"]) == (15, 12, "max", 15, "critical")
    assert (roomy["desired"], roomy["max_must_rise_to"]) == (15, None)
    assert problems == [{"line": 4, "message": "min_replicas (8) is above max_replicas (4); an HPA refuses that."},
                        {"line": 5, "message": "max_replicas must be a whole number from 0 to 999999 (or empty), not '1.5'."}]
    assert otr.desired_text(gw) == "12 (asks 15, clamped at max): the HPA max must rise to 15"
    text = otr.to_csv({"cpu": [], "memory": []}, own)
    assert "own-cpu,over,,,,2,gw,,gw,,90.0,60.0,,10,,,90,2,12,,\"12 (asks 15, clamped at max): the HPA max must rise to 15\",critical,15,15," in text.splitlines()
    html = otr.to_html({"cpu": [], "memory": [], "counts": {"over": 0, "near": 0, "memory": 0, "critical": 0, "warning": 0, "ok": 0},
                       "inputs": {"product": "", "mem_threshold": 80.0, "kubernetes": "1.33"}, "partial": {}, "max_blocked": []}, own, problems)
    assert ("<li>Your CSV, line 2: gw reads 90 % against its 60 % target; at 10 replicas the HPA asks for 15, above its max of "
            "12: the HPA max must rise to 15 for the service to reach its target.</li>") in html
    assert "Severity: <strong>2</strong> critical, <strong>0</strong> warning, 0 ok." in html
    assert '<tr data-service="gw" data-status="over" data-severity="critical" data-max-must-rise="15">' in html
    assert "<td>10 <small>(2 / 12)</small></td>" in html


def test_a_max_below_the_current_count_blocks_a_service_inside_its_band(bundle):
    """What if Policy 3.3.1's ndbappmysqld HPA (5 replicas, Table 3-186 row 1, no site: all four sites) had a max of 4?
    The controller takes a count above the max down to the max without reading the metric. Site2 reads 87 % of 80 %:
    1.0875, inside the band, so the metric asks for the current 5, above the max: the max must rise to 5, critical
    although the ratio alone is a warning, and the row is listed with the critical rows, before every warning.
    Site3 (89 %): ceil(5 x 1.1125) = ceil(5.5625) = 6 > 4: must rise to 6."""
    import copy
    b = copy.deepcopy(bundle)
    rep = next(r for r in b["resources"] if (r["scenario"], r["table_id"], r["row"], r["service"], r["container"])
               == ("policy-3-3-1", "3-186", 1, "ndbappmysqld", "app"))
    rep["replicas_min"], rep["replicas_max"] = 1, 4
    res = ot.compute(b, "policy")
    site2, site3 = _row(res, "policy-3-3-1", "ndbappmysqld", "site2"), _row(res, "policy-3-3-1", "ndbappmysqld", "site3")
    assert (site2["within_tolerance"], site2["desired"], site2["reason"], site2["max_must_rise_to"], site2["severity"]) == (
        True, 4, "current above max", 5, "critical")
    assert (site3["desired"], site3["max_must_rise_to"]) == (4, 6)
    order = [(e["scenario"], e["site"], e["severity"]) for e in res["cpu"]]
    first_warning = next(i for i, x in enumerate(order) if x[2] == "warning")
    assert order.index(("policy-3-3-1", "site2", "critical")) < first_warning
    assert otr.desired_text(site2) == "4 (current 5 is above max 4: the HPA scales to its max): the HPA max must rise to 5"
