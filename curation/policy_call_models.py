"""Which call model each Policy scenario benchmarks, and its replication setup, as the guide says them: the
``call_model`` of scenarios.yaml (an id of CALL_MODEL_NAMES, the quote that names it, checked to lie in the scenario's
own section, and a note where the evidence conflicts), ``replication`` (the prose's words), and the errata of the
call models the guide contradicts (CALL_MODEL_CONTRADICTIONS). Runs with one call model id are the comparable runs
the footprint calculator sizes from."""
from __future__ import annotations

import re

from .common import CellError
from .policy_guide import PolicyGuide, scenario_of

CALL_MODEL_NAMES = {
    "pcrf-data": "PCRF data",
    "pcrf-voice": "PCRF voice",
    "policy-data-gx-rx": "Policy data (Gx/Rx)",
    "pcf-am-ue": "PCF AM/UE",
    "pcf-am-ue-n1n2": "PCF AM/UE with N1N2",
    "pcf-sm": "PCF SM",
    "pcf-usage-monitoring": "PCF usage monitoring (Gx)",
}
"""Call model id -> the name a planner knows. Runs of one id are comparable in traffic."""

_VOICE_RATIO = "the voice ratio of 3.1.4 (Table 3-33)"
_DATA_34 = ("The prose names a 'Policy data call model' (the title says only 'Policy Call Model', section '3.4 Policy Call "
            "Model 4'). 'Gx/Rx' is read from its Traffic Ratio, 'CCRI (Single APN), CCRU (Single APN), CCRT (Single APN), "
            "AARU, RAR -rx, RAR-gx, STR.' (no counts): Gx and Rx messages, where the PCRF data call models of 3.1.1 "
            "(Table 3-2) and 3.1.3 (Table 3-23) list Gx, Sy and LDAP messages and no Rx; and no AARI, which the voice ratio "
            "of 3.1.4 (Table 3-33) has. So it is a call model of its own.")
_VOICE_33 = ("The title says 'Policy Voice Call Model' (section '3.3 Policy Call Model 3', converged mode); its Traffic Ratio "
             "is " + _VOICE_RATIO + " with a final period.")
CALL_MODELS = {
    # section: (call model id, where the guide says it (a _cite spec), note or None)
    "3.1.1": ("pcrf-data", ("title", "PCRF Data Call Model"), None),
    "3.1.2": ("pcrf-voice", ("title", "PCRF Voice Call Model"),
              "Table 3-13 (Call Model Data) prints Gx RAR and Rx RAR at 18.18% of the messages per call each, as much as "
              "CCRU, while the Traffic Ratio of the other voice runs (Table 3-33 of 3.1.4, and 3.3.1, 3.3.2) counts "
              "RAR-Gx-1 and RAR-Rx-1 against CCRU-2."),
    "3.1.3": ("pcrf-data", ("title", "PCRF Data Call Model"), None),
    "3.1.4": ("pcrf-voice", ("title", "PCRF Voice Call Model"), None),
    "3.1.5": ("pcrf-data", ("prose", "Policy data call model that is deployed in PCF mode"),
              "Named from the section ('3.1 PCRF Call Model 1') and Table 3-47, which prints the traffic as "
              "'Pcrf-Total-Tps (': the prose's 'Policy data call model' also describes PCF runs (3.2.1, 3.2.10) and the "
              "Gx/Rx runs 3.4.1 and 3.4.2, and this run is deployed in PCF mode; its Traffic Ratio prints only '46.5K TPS "
              "on a single site'."),
    "3.2.1": ("pcf-am-ue", ("title", "15K TPS each for AM/UE"),
              "The title names a 'PCF Call Model' with 15K TPS each for AM/UE, the prose a 'Policy data call model' with "
              "15K TPS each for AM and UE services; Table 3-62's Traffic Ratio '1:0:1 (AM/UE Create: AM/UE Update: AM/UE "
              "delete)' is that of 3.2.2 (Table 3-74)."),
    "3.2.2": ("pcf-am-ue", ("title", "PCF AM/UE Call Model"), None),
    "3.2.3": ("pcf-sm", ("title", "PCF SM Call Model"), None),
    "3.2.4": ("pcf-sm", ("title", "PCF SM Call Model"), None),
    "3.2.5": ("pcf-am-ue", ("title", "PCF AM/UE Call Model"), None),
    "3.2.6": ("pcf-am-ue", ("title", "PCF AM/UE Call Model"), None),
    "3.2.7": ("pcf-am-ue", ("title", "PCF AM/UE Call Model"), None),
    "3.2.8": ("pcf-sm", ("title", "PCF SM Call Model"), None),
    "3.2.9": ("pcf-am-ue-n1n2", ("row", "3-157", "Traffic Ratio"),
              "Named from Table 3-157's Traffic Ratio: AM and UE create and delete plus N1N2transfer, N1subscribe and "
              "N1Unsubscribe, procedures no other run prints; the title and the prose ('Policy data with 54K from site-1 "
              "without profile') name no call model."),
    "3.2.10": ("pcf-sm", ("row", "3-171", "Traffic Ratio"),
               "Named from Table 3-171's Traffic Ratio, the SM mix Table 3-145 prints for 3.2.8 (Internet, IMS, "
               "Application and Administrator SM create, update and delete); the title names no call model and the "
               "prose says 'Policy data call model'."),
    "3.3.1": ("pcrf-voice", ("title", "Policy Voice Call Model"), _VOICE_33),
    "3.3.2": ("pcrf-voice", ("title", "Policy Voice Call Model"), _VOICE_33),
    "3.4.1": ("policy-data-gx-rx", ("prose", "Policy data call model that is deployed in converged mode"), _DATA_34),
    "3.4.2": ("policy-data-gx-rx", ("prose", "Policy data call model that is deployed in converged mode"), _DATA_34),
    "3.4.3": ("pcrf-voice", ("row", "U-3.4.3.1-1", "Traffic Ratio"),
              "Named from the Traffic Ratio of the test parameters, " + _VOICE_RATIO + "; the title names only a "
              "'Policy Call Model' and the prose a 'Policy data call model': see {erratum}."),
    "3.5.1": ("pcf-sm", ("table", "3-241", "SM Service(MPS) | 44669.88753 |", "Table 3-241, row 'SM Service(MPS)'"),
              "The title names a 'PCF Call Model' (section '3.5 PCF Call Model 5'); read from Table 3-241, whose traffic "
              "is at SM Service (44669.88753 MPS), none at AM Service and UE Service (0.00000)."),
    "3.5.2": ("pcf-sm", ("table", "3-252", "SM Service(MPS) | 46777.97 |", "Table 3-252, row 'SM Service(MPS)'"),
              "The title names a 'PCF Call Model' (section '3.5 PCF Call Model 5'); read from Table 3-252, whose traffic "
              "is at SM Service (46777.97 MPS), none at AM Service and UE Service (0.00)."),
    "3.6.1": ("pcf-usage-monitoring", ("title", "with Usage Monitoring Enabled"),
              "The title names the Usage Monitoring feature, not a call model (section '3.6 PCF Call Model 6'); 'Gx' is "
              "read from Table 3-262, which counts 'occnp_pcrf_core.gxsession' entries, and from the Diameter traffic of "
              "Table 3-261 ('Diam In | 10000 |')."),
}
"""Scenario section -> its call model: id (CALL_MODEL_NAMES), the quote that says it (title, prose, a test-parameter
row or a traffic-table row of the scenario, checked against the seed) and a note where the evidence conflicts or
the name is read from a table. A note's '{erratum}' is the id of its CALL_MODEL_CONTRADICTIONS erratum."""

CALL_MODEL_NOT_STATED = {
    "3.4.4": "Call model not stated: the title says 'PCF 15K TPS on two Non ASM Sites', Table 3-227 prints 'Traffic Ratio "
             "| 15ktps on two sites' and 'Deployment Model | Site1/2 PCRF deployed in same cluster thrust1', and Table "
             "3-228 measures 'Pcrf-Total-Tps'.",
}
"""Scenarios whose guide names no call model (call_model null): the note says what it prints."""

CALL_MODEL_CONTRADICTIONS = {
    "3.4.3": dict(
        versions=[("prose", "Policy data call model"), ("row", "U-3.4.3.1-1", "Traffic Ratio")],
        where="call model: prose vs row 'Traffic Ratio'",
        summary="The prose names a data call model, but the Traffic Ratio of the test parameters is " + _VOICE_RATIO +
                ", whose title says 'PCRF Voice Call Model'.",
        problem="Scenario 3.4.3: the prose says 'Policy data call model', but the Traffic Ratio of Table U-3.4.3.1-1 "
                "('CCRI-I, AARI –1, CCRU-2, AARU - 1, RAR-Gx-1, RAR-Rx-1, STR –1, CCRT-1') is " + _VOICE_RATIO +
                ", a 'PCRF Voice Call Model'.",
        reason="The call model follows the printed traffic ratio (pcrf-voice); both versions are cited in scenarios.yaml."),
}
"""Call-model contradictions: each gets an erratum (kind contradiction, action noted) and a ``contradictions`` entry."""

REPLICATION = {
    "3.1.3": "The cnDBTier database and PCRF application is replicated on both the sites using Multi-channel replication",
    "3.1.4": "The cnDBTier database and PCRF application is replicated on both the sites using Single-channel replication",
    "3.2.2": "it was configured for 3 channel replication",
    "3.2.3": "it was configured for 3 channel replication",
    "3.2.4": "it was configured for 3 channel replication",
    "3.2.6": "It was configured for 2 channel replication",
    "3.2.7": "It was configured for 3 channel replication",
    "3.2.8": "It was configured for multi channel replication",
    "3.2.9": "Replication is on single-channel",
    "3.3.1": "This setup has single-channel replication",
    "3.3.2": "This setup has single-channel replication",
    "3.4.1": "This setup has single-channel replication",
    "3.4.2": "This setup has single-channel replication",
    "3.4.3": "Replication is on single-channel",
}
"""Scenario section -> the replication setup as its prose states it (verbatim; the other scenarios' prose states none)."""

REPLICATION_ELSEWHERE = {
    "3.1.1": "Replication: the prose of 3.1.1 gives no replication setup; the introduction of section 3.1 says 'The "
             "cnDBTier database and PCRF application are replicated on all the four-sites'.",
    "3.1.5": "Replication: the title says 'with Replication Enabled'; the prose gives no replication setup.",
}
"""Scenarios whose prose states no replication setup but whose section or title mentions replication (a note)."""


class CallModels(PolicyGuide):
    """A scenario's ``call_model`` and ``replication`` records and the call models' contradictions."""

    def section_lines(self, sec: str, hline: int) -> range:
        """Seed lines of scenario ``sec``: from its heading ``hline`` to the line before the next scenario or
        call-model heading (3.x or 3.x.y), or the end of the seed."""
        for n in range(hline + 1, len(self.lines) + 1):
            if re.match(r"3\.\d+(\.\d+)? \S", self.lines[n - 1]):
                return range(hline, n)
        return range(hline, len(self.lines) + 1)

    def scenario_cite(self, spec, sec: str, sid: str, hline: int) -> dict:
        """``_cite`` of ``spec``, checked to lie in scenario ``sec``: a title or prose quote within its lines, a table
        quote in one of its tables. Raises CellError naming the scenario and the quote otherwise."""
        cite = self._cite(spec, hline)
        if cite["line"] not in self.section_lines(sec, hline):
            raise CellError(f"policy {sid}: the quote {cite['text']!r} is on line {cite['line']}, outside section {sec}")
        if cite["table_id"] and scenario_of(self.by_id[cite["table_id"]]) != sid:
            raise CellError(f"policy {sid}: Table {cite['table_id']} belongs to another scenario")
        return cite

    def call_model(self, sec: str, sid: str, hline: int) -> dict | None:
        """The ``call_model`` record of scenario ``sec`` (CALL_MODELS): {id, name, cite, note?}; None where the guide names
        none (CALL_MODEL_NOT_STATED says what it prints). A note that names an erratum gets its id in
        ``call_model_errata``."""
        if sec not in CALL_MODELS:
            if sec not in CALL_MODEL_NOT_STATED:
                raise CellError(f"policy {sid}: no call model curated and no note saying why")
            return None
        cm_id, spec, note = CALL_MODELS[sec]
        out = {"id": cm_id, "name": CALL_MODEL_NAMES[cm_id], "cite": self.scenario_cite(spec, sec, sid, hline)}
        if note:
            out["note"] = note
        return out

    def replication(self, sec: str, hline: int) -> dict | None:
        """The ``replication`` record {raw, cite} of scenario ``sec``: the replication setup as its prose states it
        (REPLICATION), None where its prose does not."""
        if sec not in REPLICATION:
            return None
        cite = self.scenario_cite(("prose", REPLICATION[sec]), sec, "policy-" + sec.replace(".", "-"), hline)
        return {"raw": cite["text"], "cite": cite}

    def call_model_errata(self):
        """Call-model contradictions (appended after every other erratum, so published ids keep their numbers): the
        erratum, its entry in the scenario's ``contradictions`` and its id in the call model's note."""
        by_sid = {s["id"]: s for s in self.c.scenarios}
        for sec, con in CALL_MODEL_CONTRADICTIONS.items():
            sid = "policy-" + sec.replace(".", "-")
            rec = by_sid[sid]
            hline = self.heads[sec][0]
            versions = [self.scenario_cite(v, sec, sid, hline) for v in con["versions"]]
            eid = self.E(scenario=sid, table_id=next(v["table_id"] for v in versions if v["table_id"]),
                         lines=[v["line"] for v in versions], where=con["where"], kind="contradiction",
                         raw="\n".join(v["text"] for v in versions), problem=con["problem"], action="noted",
                         reason=con["reason"])
            rec["contradictions"].append({"field": "call_model", "summary": con["summary"], "versions": versions,
                                          "erratum": eid})
            rec["call_model"]["note"] = rec["call_model"]["note"].format(erratum=eid)
