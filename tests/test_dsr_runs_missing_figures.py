"""DSR calculator on runs the guide prints less for: a run with only a per-DA-MP rate (Table 3-15, no whole-setup MPS),
a vSTP run (Table 3-10, per SS7-MP only), a run with no rate at all and a run without a DA-MP Profile. Expected values
are the guide's printed cells (table and row named) or hand arithmetic in each test's comment; each test calls the
calculator itself (no session-scoped result), so a mutation run credits the test to the code it checks."""
from __future__ import annotations

import copy

from calculators import dsr


def _run(bundle, run_id: str) -> dict:
    return next(r for r in bundle["dsr_runs"] if r["id"] == run_id)


def test_defaults_of_a_run_without_whole_setup_mps_are_its_per_mp_rate(bundle):
    """Table 3-15 row 7 (DSA All Stateful, 12 vCPU) prints only 'DSR MPS Achieved (Per DA-MP)' 7.02K, no whole-setup
    MPS: the default target is that one DA-MP's 7,020 MPS (as the form holds it: '7020'). Table 3-10 row 9 (vEIR)
    prints 5K/MP per SS7-MP: '5000'."""
    assert dsr.defaults(bundle, "dsr-dsa-all-stateful") == {
        "scenario": "dsr-dsa-all-stateful", "target": "7020", "ceiling": "", "spare": "0", "redundancy": "none"}
    assert dsr.defaults(bundle, "dsr-vstp-veir")["target"] == "5000"
    # Table 3-1 row 1 prints the whole setup's 288K MPS: that is the default there
    assert dsr.defaults(bundle, "dsr-relay-12vcpu")["target"] == "288000"


def test_a_run_with_no_rate_and_no_mp_count_is_not_sizable_and_says_so():
    """A made-up run printing only a CPU peak: no 'MPS achieved' of any kind, no MP count, no erratum."""
    run = {"id": "made-up", "metrics": {"cpu_peak": {"value": 20, "unit": "percent", "raw": "20%", "table_id": "3-1",
                                                     "row": 1}}, "notes": []}
    assert dsr.per_mp(run) == {"sizable": False, "kind": "DA-MP",
                               "reason": "Neither a rate per MP nor an MP count is printed for this run.", "errata": []}


def test_a_da_mp_run_without_a_profile_is_sized_by_the_measured_rate_only(bundle):
    """Table 3-1 row 1 (Relay, 12 vCPU) with its settings row left out (no DA-MP Profile): 288,000 MPS / 16 DA-MPs
    = 18,000 MPS per DA-MP at 19 % CPU; at its own 288,000 MPS, ceil(288000 / 18000) = 16 DA-MPs, by the measured
    method alone, and the one warning says why."""
    run = copy.deepcopy(_run(bundle, "dsr-relay-12vcpu"))
    run["settings"] = {}
    made_up = dict(bundle, dsr_runs=[run if r["id"] == run["id"] else r for r in bundle["dsr_runs"]])
    res = dsr.compute(made_up, "dsr-relay-12vcpu", 288000)
    assert res["methods"]["engineered"] is None and res["profile"] is None
    assert res["headline"] == "measured" and res["needed"] == 16 and res["total"] == 16
    assert res["warnings"] == ["No DA-MP Profile is printed for this run, so the engineered method cannot be applied; "
                               "sized by the measured rate only."]
    csv = dsr.result_csv(res)
    assert ("dsr-relay-12vcpu,result,needed_engineered,Engineered method,not available,,"
            "no DA-MP Profile rate printed for this run\n") in csv
    assert csv.endswith('dsr-relay-12vcpu,warning,,"No DA-MP Profile is printed for this run, so the engineered method '
                        'cannot be applied; sized by the measured rate only.",,,\n')
