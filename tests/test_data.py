"""Generic checks over every curated document, plus BSF values read from the guide."""
from __future__ import annotations

import pytest
import yaml

from conftest import DOC_IDS, copy_data, one, seed_path
from curation.pipetables import segment
from atlas.datastore import DataError, load


def test_every_file_validates(atlas):
    """Every document of data/sources.yaml has data, in its order, and every row of every data/<doc>/<kind>.csv is
    loaded (1,444 resource rows over BSF, Policy and NEF when this was written), none dropped or doubled."""
    import csv

    from conftest import ROOT
    assert atlas.docs() == ["bsf", "policy", "nef", "dsr", "shcm"]
    for kind, df in atlas.frames.items():
        files = sorted((ROOT / "data").glob(f"*/{kind}.csv"))
        rows = sum(1 for f in files for _ in csv.DictReader(f.open(encoding="utf-8", newline="")))
        assert len(df) == rows, kind
        assert sorted(df["doc"].unique()) == sorted(f.parent.name for f in files), kind
    assert len(atlas.frames["resources"]) >= 1444


@pytest.mark.parametrize("doc", DOC_IDS)
def test_coverage_every_pipe_table_is_curated(atlas, doc):
    """Every pipe table the seed holds (captioned or not) is listed in tables.yaml. (The DSR and ShCM
    seeds print theirs as flattened text, which the segmenter does not see: their own tests cover them.)"""
    if doc not in atlas.docs():
        pytest.skip(f"{doc} not curated yet")
    found = {t.id for t in segment(seed_path(doc))}
    listed = {t["id"] for t in atlas.tables if t["doc"] == doc}
    assert found - listed == set(), f"tables in the seed but not in data/{doc}/tables.yaml"


def test_every_catalogued_table_has_its_rows(atlas):
    for t in atlas.tables:
        if t["kind"] == "excluded":
            assert t.get("excluded_reason"), t["id"]
            continue
        rows = atlas.rows(t["kind"], doc=t["doc"], table_id=t["id"])
        assert len(rows) > 0, f"{t['doc']} {t['id']} ({t['kind']}) has no rows"


def test_flagged_and_corrected_values_cite_an_erratum(atlas):
    ids = {e["id"] for e in atlas.errata}
    for kind, df in atlas.frames.items():
        for r in df[df["status"].isin(["flagged", "corrected"])].itertuples():
            assert any(i in r.note for i in ids), f"{kind} {r.doc} {r.table_id} row {r.row}: no erratum id in note {r.note!r}"


def test_errata_ids_unique(atlas):
    ids = [e["id"] for e in atlas.errata]
    assert len(ids) == len(set(ids))


def test_bsf_63k_management_service_table_3_25(atlas):
    """Table 3-25 (scenario 3.3), BSF Management Service: 14 replicas, CPU 4/4, memory 1/4 Gi, Istio 2/2 cores, 2/2 Gi."""
    app = one(atlas.rows("resources"), table_id="3-25", service="BSF Management Service", container="app")
    assert (app.replicas, app.cpu_request_cores, app.cpu_limit_cores, app.mem_request_gib, app.mem_limit_gib) == (14, 4, 4, 1, 4)
    side = one(atlas.rows("resources"), table_id="3-25", service="BSF Management Service", container="istio-proxy")
    assert (side.replicas, side.cpu_request_cores, side.cpu_limit_cores, side.mem_request_gib, side.mem_limit_gib) == (14, 2, 2, 2, 2)
    assert bool(side.is_sidecar) and side.scenario == "bsf-3-3"


def test_bsf_merged_cont_table_3_5_ingress_gateway(atlas):
    """Table 3-5 is printed in two parts; Ingress Gateway (second part, seed line 277): 9 replicas, CPU 3/4, memory 4/6 Gi."""
    r = one(atlas.rows("resources"), table_id="3-5", service="Ingress Gateway")
    assert (r.replicas, r.cpu_request_cores, r.cpu_limit_cores, r.mem_request_gib, r.mem_limit_gib) == (9, 3, 4, 4, 6)
    assert r.row == 6 and r.line == 277
    assert len(atlas.rows("resources", table_id="3-5")) == 12
    assert atlas.table("bsf", "3-5")["segments"] == 2


def test_bsf_normalised_units_table_3_6(atlas):
    """Table 3-6 prints Limit before Request and units in the cells: db-infra-monitor-svc 200m / 256Mi = 0.2 cores / 0.25 GiB;
    one-four-replication-svc memory limit 2Gi, request 1Gi."""
    r = one(atlas.rows("resources"), table_id="3-6", row_label="mysql-cluster-one-two-replication-svc/db-infra-monitor-svc")
    assert (r.cpu_request_cores, r.mem_request_gib, r.raw_cpu_request, r.raw_mem_request) == (0.2, 0.25, "200m", "256Mi")
    r = one(atlas.rows("resources"), table_id="3-6", service="mysql-cluster-one-four-replication-svc")
    assert (r.mem_limit_gib, r.mem_request_gib) == (2, 1)
    r = one(atlas.rows("resources"), table_id="3-6", row_label="ndbmcmd/ mysqlndbcluster")
    assert (r.service, r.container, r.mem_limit_gib, r.mem_request_gib) == ("ndbmgmd", "mysqlndbcluster", 10, 8)


def test_bsf_utilization_abs_and_percent_table_3_18(atlas):
    """Table 3-18, diameter-gateway Site1 CPU '14.7 (45.9 %)': 14.7 cores, 45.9 % (of the limit, by erratum)."""
    r = one(atlas.rows("utilization"), table_id="3-18", service="Diameter Gateway", container="app", site="site1", metric="cpu")
    assert (r.observed_abs, r.observed_percent, r.abs_unit, r.percent_basis) == (14.7, 45.9, "cores", "limit")
    flagged = one(atlas.rows("utilization"), table_id="3-18", service="CM Service", container="app", site="site2", metric="cpu")
    assert flagged.status == "flagged" and flagged.raw == "0.139 (0.115 %)"


def test_bsf_not_applicable_is_not_zero_table_3_20(atlas):
    """Table 3-20: Site2 and Site3 print '-': not applicable, no value."""
    df = atlas.rows("db_operations", table_id="3-20", site="site2")
    assert len(df) == 3 and set(df.status) == {"not_applicable"} and df.ops_per_second.isna().all()
    r = one(atlas.rows("db_operations"), table_id="3-30", site="site1", operation="read")
    assert r.ops_per_second == 7298 and r.raw == "7.298K"


def test_bsf_scenario_records(atlas):
    s = atlas.scenario("bsf-3-3")
    assert s["load"]["total"] == 63000 and s["load"]["unit"] == "TPS" and s["asm"] == "enabled"
    assert any(c["field"] == "sites_provisioned" for c in s["contradictions"])
    assert atlas.scenario("bsf-3-2")["release"] == "25.1.100"
    assert len([x for x in atlas.scenarios if x["doc"] == "bsf"]) == 3


def test_bsf_runs_share_one_call_model_cited_from_their_call_mix(atlas):
    """The three BSF runs share 'BSF nBSF + Rx', each cited from its Call Mix row: Table 3-1 '14.4K nBSF + 7.8K Rx' (L208),
    Table 3-12 '4.5k nbsf Traffic and 50k Rx traffic' (L438), Table 3-21 '8.43K nbsf traffic and 54.7K Rx traffic' (L574);
    3.3's note names the 'Binding Get ratio (Discovery) - 0.15' its Traffic Ratio (L575) adds."""
    seed = seed_path("bsf").read_text(encoding="utf-8").splitlines()
    for sid, tid, line, text in (("bsf-3-1", "3-1", 208, "14.4K nBSF + 7.8K Rx"),
                                 ("bsf-3-2", "3-12", 438, "4.5k nbsf Traffic and 50k Rx traffic"),
                                 ("bsf-3-3", "3-21", 574, "8.43K nbsf traffic and 54.7K Rx traffic")):
        cm = atlas.scenario(sid)["call_model"]
        assert (cm["id"], cm["name"]) == ("bsf-nbsf-rx", "BSF nBSF + Rx")
        assert cm["cite"] == {"text": text, "table_id": tid, "line": line, "where": f"Table {tid}, row 'Call Mix'"}
        assert seed[line - 1] == f"| Call Mix | {text} |"
    assert "Binding Get ratio (Discovery) - 0.15" in seed[575 - 1]
    assert "Binding Get ratio (Discovery) - 0.15" in atlas.scenario("bsf-3-3")["call_model"]["note"]


@pytest.mark.parametrize("doc", DOC_IDS)
def test_call_models_are_consistent_and_quote_the_seed(atlas, doc):
    """Where a document curates call models: every scenario has the field, one id has one name, and every cite of a
    call model or a replication setup quotes its seed line (of a row split over two lines, those two lines)."""
    scen = [s for s in atlas.scenarios if s["doc"] == doc]
    if not any("call_model" in s for s in scen):
        pytest.skip(f"{doc} curates no call models")
    assert all("call_model" in s for s in scen), [s["id"] for s in scen if "call_model" not in s]
    names: dict[str, set] = {}
    for s in scen:
        if s["call_model"]:
            names.setdefault(s["call_model"]["id"], set()).add(s["call_model"]["name"])
    assert {k: v for k, v in names.items() if len(v) > 1} == {}
    seed = seed_path(doc).read_text(encoding="utf-8").splitlines()
    for s in scen:
        for field in ("call_model", "replication"):
            cite = (s.get(field) or {}).get("cite")
            if cite:
                text = " ".join(seed[cite["line"] - 1: cite["line"] + 1]).split()
                assert " ".join(cite["text"].split()) in " ".join(text), (s["id"], field, cite)


def test_bundle_carries_call_models_and_run_facts(bundle):
    """The calculator bundle: Policy 3.5.1 is PCF SM, read from Table 3-241 row 'SM Service(MPS)' (seed line 3555);
    3.4.4 names none; 3.1.4's replication is the prose's 'Single-channel replication'; 3.5.1's features are Table
    3-242 ('Binding | Enabled |'); 3.4.4 runs on 'ORACLE SERVER X8-2' (Table 3-225) with 'Policy | 25.1.200'
    (Table 3-226); a DSR run has no call model (its guide is not curated for one)."""
    scen = {s["id"]: s for s in bundle["scenarios"]}
    facts = {f["id"]: f for f in bundle["scenario_facts"]}
    assert (scen["policy-3-5-1"]["call_model"], scen["policy-3-5-1"]["call_model_name"]) == ("pcf-sm", "PCF SM")
    assert facts["policy-3-5-1"]["call_model"]["cite"] == {"text": "SM Service(MPS) | 44669.88753 |", "table_id": "3-241",
                                                           "line": 3555, "where": "Table 3-241, row 'SM Service(MPS)'"}
    assert (scen["policy-3-4-4"]["call_model"], scen["policy-3-4-4"]["call_model_name"], facts["policy-3-4-4"]["call_model"]) \
        == (None, None, None)
    assert facts["policy-3-1-4"]["replication"].endswith("using Single-channel replication")
    assert facts["policy-3-5-1"]["replication"] is None
    assert facts["policy-3-5-1"]["features"]["Binding"] == "Enabled"
    assert facts["policy-3-4-4"]["hardware_server"] == "ORACLE SERVER X8-2"
    assert facts["policy-3-4-4"]["software"]["Policy"] == "25.1.200"
    assert (scen["bsf-3-2"]["call_model"], scen["nef-dt-1"]["call_model"]) == ("bsf-nbsf-rx", "nef-device-trigger")
    dsr = next(s for s in bundle["scenarios"] if s["doc"] == "dsr")
    assert (dsr["call_model"], dsr["call_model_name"], facts[dsr["id"]]["call_model"], facts[dsr["id"]]["replication"]) \
        == (None, None, None, None)


def test_bsf_counts_each_run_held(atlas):
    """Table 3-1 'Active Subscribers | 7M subscribers and 14M sessions' (L210): 7,000,000 subscribers and 14,000,000
    sessions, read as binding sessions through an erratum (Table 3-12 names the same parameter 'Active Binding
    Sessions'); Table 3-12 'Active Binding Sessions | ~50000000' (L440): 50,000,000 binding sessions, approx;
    Table 3-21 'Active Subscribers | 32M' (L576): 32,000,000 subscribers."""
    seed = seed_path("bsf").read_text(encoding="utf-8").splitlines()
    expect = {"bsf-3-1": (210, "Active Subscribers", "7M subscribers and 14M sessions",
                          [(7000000, "subscribers", False, "7M subscribers", "ok"),
                           (14000000, "binding sessions", False, "14M sessions", "corrected")]),
              "bsf-3-2": (440, "Active Binding Sessions", "~50000000", [(50000000, "binding sessions", True, "~50000000", "ok")]),
              "bsf-3-3": (576, "Active Subscribers", "32M", [(32000000, "subscribers", False, "32M", "ok")])}
    for sid, (line, label, raw, counts) in expect.items():
        sub = atlas.scenario(sid)["subscribers"]
        assert seed[line - 1] == f"| {label} | {raw} |"
        assert (sub["cite"]["line"], sub["label"], sub["raw"], sub["status"]) == (line, label, raw, "ok")
        assert [(n["value"], n["what"], n["approx"], n["raw"], n["status"]) for n in sub["counts"]] == counts
    read = atlas.scenario("bsf-3-1")["subscribers"]["counts"][1]
    e = next(e for e in atlas.errata if e["id"] == read["note"])
    assert (e["doc"], e["table_id"], e["lines"], e["raw"], e["action"], e["reading"]) == \
        ("bsf", "3-1", [210], "7M subscribers and 14M sessions", "read-as", "binding sessions")
    assert "note" not in atlas.scenario("bsf-3-1")["subscribers"]["counts"][0]


def test_bsf_no_service_holds_the_bindings(atlas):
    """The Introduction (L132) says 'The BSF stores the binding information for a certain PDU sessions' without naming
    a service or pod: no BSF service has holds, and the BSF Management Service's note says why."""
    seed = seed_path("bsf").read_text(encoding="utf-8").splitlines()
    assert seed[132 - 1].startswith("The BSF stores the binding information for a certain PDU sessions")
    bsf = [s for s in atlas.services if s["doc"] == "bsf"]
    assert [s["service"] for s in bsf if "holds" in s] == []
    note = next(s["note"] for s in bsf if s["service"] == "BSF Management Service")
    assert "stores the binding information" in note and "not which service or pod keeps it" in note


def test_count_parser_reads_what_the_cells_print():
    """common.count_number and printed_counts on the printed forms: '~' is approx, 'M' a million, the word 'million'
    too; '393590 (Site1) + 393589 (Site2) = 787179' one entry per number (393590 + 393589 = 787179 by hand); 'NA',
    a stray '+' and a sum that does not add up are refused."""
    from curation.common import CellError, count_number, printed_counts
    assert count_number("~50000000") == (50000000, True)
    assert count_number("7M") == (7000000, False) and count_number("32M") == (32000000, False)
    assert count_number("1 million") == (1000000, False) and count_number("200,000") == (200000, False)
    for bad in ("NA", "10M+", "1,00", "7 millions", ""):
        with pytest.raises(CellError):
            count_number(bad)
    assert [(n["value"], n["what"]) for n in printed_counts("7M subscribers and 14M sessions", "subscribers")] == \
        [(7000000, "subscribers"), (14000000, "sessions")]
    assert [(n["value"], n.get("site")) for n in printed_counts("393590 (Site1) + 393589 (Site2) = 787179", "subscribers")] == \
        [(393590, "site1"), (393589, "site2"), (787179, None)]
    for bad in ("NA", "393590 (Site1) + 393589 (Site2) = 787178", "about 5 subscribers"):
        with pytest.raises(CellError):
            printed_counts(bad, "subscribers")


def test_bundle_carries_holds_and_state_counts(bundle):
    """The bundle's services say what each holds (Policy's SM Service: sessions, Table 3-240; BSF's none) and its
    scenarios every count the guide prints (BSF 3.2: 50,000,000 binding sessions, approx; Policy 3.1.5's 'NA': [];
    a DSR run prints none: [])."""
    svc = {(s["doc"], s["service"]): s for s in bundle["services"]}
    assert svc[("policy", "sm-service")]["holds"] == "sessions" and svc[("policy", "binding")]["holds"] == "bindings"
    assert svc[("policy", "ndbmtd")]["holds"] is None and svc[("bsf", "BSF Management Service")]["holds"] is None
    assert all("holds" in s for s in bundle["services"])
    scen = {s["id"]: s for s in bundle["scenarios"]}
    assert [(n["value"], n["what"], n["approx"]) for n in scen["bsf-3-2"]["state_counts"]] == [(50000000, "binding sessions", True)]
    assert scen["policy-3-1-5"]["state_counts"] == [] and scen["policy-3-5-1"]["state_counts"] == []
    assert next(s for s in bundle["scenarios"] if s["doc"] == "dsr")["state_counts"] == []


def test_broken_count_or_holds_names_item_and_field(tmp_path):
    """A count whose approx is not a boolean, or a holds with an unknown 'what', stops loading with the file and item."""
    d = copy_data(tmp_path)
    p = d / "bsf" / "scenarios.yaml"
    items = yaml.safe_load(p.read_text())
    items[1]["subscribers"]["counts"][0]["approx"] = "~"
    p.write_text(yaml.safe_dump(items))
    with pytest.raises(DataError) as e:
        load(d)
    assert "scenarios.yaml" in str(e.value) and "item 2" in str(e.value) and "field subscribers.counts.0.approx" in str(e.value)
    d = copy_data(tmp_path / "b")
    p = d / "policy" / "services.yaml"
    items = yaml.safe_load(p.read_text())
    next(s for s in items if s["service"] == "binding")["holds"]["what"] = "everything"
    p.write_text(yaml.safe_dump(items))
    with pytest.raises(DataError) as e:
        load(d)
    assert "services.yaml" in str(e.value) and "field holds.what" in str(e.value)


# ---------------------------------------------------------------- broken data stops loading
# (a wrong type, an unknown unit or scenario in a CSV: test_bad_data.CASES, word-for-number, unknown-unit, unknown-scenario)

def test_broken_yaml_record_names_item_and_field(tmp_path):
    d = copy_data(tmp_path)
    p = d / "bsf" / "scenarios.yaml"
    items = yaml.safe_load(p.read_text())
    items[1]["asm"] = "sometimes"
    p.write_text(yaml.safe_dump(items))
    with pytest.raises(DataError) as e:
        load(d)
    assert "scenarios.yaml" in str(e.value) and "item 2" in str(e.value) and "field asm" in str(e.value)
