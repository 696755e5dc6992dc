"""`python -m calculators asm --list`: which runs the ASM calculator offers as ASM on and as ASM off, as the guides
state ASM for each run (each scenario's 'ASM' row, curated as data/*/scenarios.yaml's ``asm``) and as their resource
tables print istio-proxy sidecars; and the runs it cannot offer, with why."""
from __future__ import annotations

from calculators import __main__ as cli
from calculators import asm

ON = ["bsf-3-2", "bsf-3-3", "policy-3-2-2", "policy-3-2-3", "policy-3-2-4", "policy-3-2-5", "policy-3-2-6",
      "policy-3-2-7", "policy-3-2-8", "policy-3-2-9", "policy-3-2-10"]
OFF = ["bsf-3-1", "policy-3-1-1", "policy-3-1-2", "policy-3-1-3", "policy-3-1-4", "policy-3-3-1", "policy-3-3-2",
       "policy-3-4-1", "policy-3-4-2", "policy-3-4-3", "policy-3-4-4", "policy-3-5-1", "policy-3-5-2", "policy-3-6-1"]


def test_the_listing_names_each_run_asm_on_or_off_as_its_guide_states(bundle):
    """ASM on: BSF 3.2 and 3.3 (titled '(with ASM)'; Table 3-14 'ASM | 1.14.6', Table 3-23 'ASM | 1.14.6-am9';
    Istio sidecars in their resource tables), Policy 3.2.2 to 3.2.10 (3.2.5 to 3.2.7: 'ASM was enabled between
    Policy services'). ASM off: BSF 3.1 (no Istio anywhere in the run, while 3.2 and 3.3 say '(with ASM)') and
    Policy's runs of 3.1, 3.3 to 3.6 ('ASM | Disable'). Each line gives its run's short title after the side it
    stands on, in the guides' order."""
    got = cli.choices(bundle, "asm")
    assert [i for i, _ in got] == [i for i in [s["id"] for s in bundle["scenarios"]] if i in ON + OFF]
    assert {i: t.split(": ", 1)[0] for i, t in got} == {**dict.fromkeys(ON, "ASM on"), **dict.fromkeys(OFF, "ASM off")}
    titles = {s["id"]: s.get("short_title") or s["title"] for s in bundle["scenarios"]}
    assert all(t == ("ASM on: " if i in ON else "ASM off: ") + titles[i] for i, t in got)
    assert dict(got)["policy-3-5-1"] == "ASM off: PCF SM 30K TPS single site, Binding enabled, no ASM"


def test_runs_neither_side_can_take_are_left_out_of_the_listing_with_why(bundle):
    """Policy 3.2.1 runs ASM (Table 3-62 'ASM | Enable') but prints no istio-proxy row: its sidecar cost is unknown.
    Policy 3.1.5 is ASM-off in Table 3-45 ('ASM | Disable') yet its UDR table 3-49 prints istio-proxy containers: not
    a clean ASM-off run."""
    listed = {i for i, _ in cli.choices(bundle, "asm")}
    assert not {"policy-3-2-1", "policy-3-1-5"} & listed
    why = {x["id"]: x["reason"] for x in asm.not_offered(bundle)}
    assert why["policy-3-2-1"] == ("policy-3-2-1 runs ASM (asm 'enabled' in the guide), but its resource tables print "
                                   "no sidecar, so its sidecar cost is unknown; choose an ASM-off scenario.")
    assert why["policy-3-1-5"].startswith("policy-3-1-5 is ASM-off in the guide (asm 'disabled'), but its resource "
                                          "tables print istio-proxy sidecars (Table 3-49")
