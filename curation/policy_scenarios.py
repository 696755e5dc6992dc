"""The 24 scenario records of the Policy guide (scenarios.yaml): title, deployment mode, sites, load, ASM, duration,
call mix and subscribers (from the test parameters), call model and replication (``CallModels``), hardware,
software, features, interfaces, Helm and cnDBTier parameters, tables, contradictions and notes. SPEC holds what is
read from the prose and titles, each with its quote; the errata of the scenarios' prose (``prose_errata``)."""
from __future__ import annotations

import re

from .policy_call_models import CALL_MODEL_NOT_STATED, REPLICATION_ELSEWHERE, CallModels
from .policy_guide import DOC, scenario_of


def _L(total, per_site, cite):
    """A scenario's load for SPEC: total and per site carrying traffic (TPS), and the ``_cite`` spec that says it."""
    return {"total": total, "per_site": per_site, "cite": cite}


SPEC = {
    "3.1.1": dict(short="PCRF data, 4-site GR, 7.5K TPS per site", mode="converged", sites=4,
                  traffic=["site1", "site2", "site3", "site4"], load=_L(30000, 7500, ("row", "3-1", "Call Rate")),
                  asm="disabled", asm_note="Title 'ASM disabled'; prose 'Aspen Service Mesh (ASM) is disabled'; Table 3-1 'ASM | Disable'.",
                  duration={"hours": 12, "cite": ("row", "3-1", "Execution Time")},
                  notes=["Table 3-11 (results): 'Test Duration | 12 Hours', 'TPS Achieved | 30K TPS (7.5KTPS on each site)'.",
                         "Deployed in converged mode (prose)."]),
    "3.1.2": dict(short="PCRF voice, 2 of 4 GR sites, 15K TPS per site", mode="converged", sites=4,
                  traffic=["site1", "site2"], load=_L(30000, 15000, ("row", "3-12", "Call Rate")),
                  asm="disabled", asm_note="Title 'ASM disabled'; Table 3-12 'ASM | Disable'.",
                  duration={"hours": 10, "cite": ("row", "3-12", "Execution Time")},
                  notes=["Traffic-carrying sites taken from the utilization tables 3-20/3-21, which have Site 1 and Site 2 "
                         "columns only; the title says 'Two-Sites of Four-Site GeoRedundant setup'.",
                         "No Results subsection."]),
    "3.1.3": dict(short="PCRF data, 2-site GR, 11.5K TPS per site, multi-channel replication", mode="converged", sites=2,
                  traffic=["site1", "site2"], load=_L(23000, 11500, ("row", "3-22", "Call Rate")),
                  asm="disabled", asm_note="Title 'ASM disabled'; Table 3-22 'ASM | Disable'.",
                  duration={"hours": 60, "cite": ("row", "3-22", "Execution Time")},
                  notes=["Multi-channel replication (prose).", "No Results subsection; table number 3-32 is missing."]),
    "3.1.4": dict(short="PCRF voice, 2-site GR, 15K TPS per site, single-channel replication", mode="converged", sites=2,
                  traffic=["site1", "site2"], load=_L(30000, 15000, ("row", "3-33", "Call Rate")),
                  asm="disabled", asm_note="Title 'ASM disabled'; Table 3-33 'ASM | Disable'.",
                  duration={"hours": 110, "cite": ("row", "3-33", "Execution Time")},
                  notes=["Single-channel replication (prose).", "No Call Model Data table; only a Traffic Ratio row.",
                         "No Results subsection; table number 3-42 is missing."]),
    "3.1.5": dict(short="46.5K TPS on one site of two, UDR interworking, no ASM", mode="PCF", sites=2, traffic=["site1"],
                  load=_L(46500, 46500, ("row", "3-45", "Call Rate (Ingress + Egress)")),
                  asm="disabled",
                  asm_note="Prose 'Non-ASM PCF Setup'; Table 3-45 'ASM | Disable'; yet the UDR resource table 3-49 lists "
                           "istio-proxy containers.",
                  notes=["Filed under '3.1 PCRF Call Model 1' but 'deployed in PCF mode' (prose); its resource table is "
                         "captioned 'Table 3-48 PCRF'.",
                         "Two sites provisioned: cnDBTier tables for Site2 (3-51, 3-53); Table 3-47 Site2 traffic '-'.",
                         "Table 3-47: 'Pcrf-Total-Tps ( | 46500 | - |'."],
                  contradictions=[dict(field="asm",
                                       summary="Described as a Non-ASM setup, yet the UDR resource table lists istio-proxy containers.",
                                       versions=[("prose", "Non-ASM PCF Setup with UDR interworking"),
                                                 ("row", "3-45", "ASM"),
                                                 ("table", "3-49", "UDR-Site1-ocudr-alternate-route/istio-proxy | 2 | 1000m | 1000m | 1Gi | 1Gi |",
                                                  "Table 3-49, row 'UDR-Site1-ocudr-alternate-route/istio-proxy'")],
                                       reuse=("3-49", "contradiction"),
                                       reason="Recorded as disabled (prose and test parameters); the sidecars belong to the UDR deployment."),
                                  dict(field="deployment_mode",
                                       summary="Filed under the PCRF call model section, deployed in PCF mode per the prose, "
                                               "with a resource table captioned 'PCRF'.",
                                       versions=[("prose", "deployed in PCF mode"),
                                                 ("table", "3-48", "Table 3-48 PCRF", "Table 3-48 caption")],
                                       reason="The record follows the prose (PCF).")]),
    "3.2.1": dict(short="PCF AM/UE 30K TPS (15K AM + 15K UE) on one site, ASM", mode="PCF", sites=2, traffic=["site1"],
                  load=_L(30000, 30000, ("row", "3-62", "Call Rate")), asm="enabled",
                  asm_note="Title 'ASM enabled'; Table 3-62 'ASM | Enable'. The resource tables 3-68/3-69 show no Istio columns.",
                  duration={"hours": 17, "cite": ("row", "3-62", "Execution Time")},
                  notes=["Prose: 'Able to achieve 30K TPS with AM (15K) and UE (15K) with constant approximate run of 17 Hours.'",
                         "Traffic site taken from the utilization tables (Site1 columns only)."],
                  contradictions=[dict(field="sites_provisioned",
                                       summary="The title says a two-site GR setup; the test parameters say the 30K TPS ran on a single site.",
                                       versions=[("title", "Two-Site GeoRedundant setup"), ("row", "3-62", "Call Rate")],
                                       reason="Recorded as two sites provisioned (title) with traffic on one (table).")]),
    "3.2.2": dict(short="PCF AM/UE 50K TPS on Site1 of a 2-site GR, ASM", mode="PCF", sites=2, traffic=["site1"],
                  load=_L(50000, 50000, ("row", "3-74", "Call Rate (Ingress + Egress)")), asm="enabled",
                  asm_note="Title 'ASM enabled'; Table 3-74 'ASM | Enable'.",
                  duration={"hours": 94, "cite": ("row", "3-74", "Execution Time")},
                  notes=["3-channel replication (prose).", "No Results subsection; table number 3-85 is missing."],
                  contradictions=[dict(field="load.per_site",
                                       summary="Title and prose say each site handles 25K TPS; the tables put all 50K TPS on Site1 and 0 on Site2.",
                                       versions=[("title", "with each site handling 25K TPS traffic"),
                                                 ("prose", "with each site handling a traffic of 25K TPS"),
                                                 ("row", "3-74", "Call Rate (Ingress + Egress)"),
                                                 ("table", "3-75", "Total TPS | 50K | 0 |", "Table 3-75, row 'Total TPS'")],
                                       reason="The record follows the tables (50K on Site1).")]),
    "3.2.3": dict(short="PCF SM, 2-site GR, 21.5K TPS per site, ASM", mode="PCF", sites=2, traffic=["site1", "site2"],
                  load=_L(None, 21500, ("row", "3-86", "Call Rate (Ingress + Egress)")), asm="enabled",
                  asm_note="Title 'ASM Enabled'; Table 3-86 'ASM | Enable'.",
                  notes=["load.total left empty: the title implies 43K per site, the prose says a total of 60K TPS, and "
                         "the table gives 21.5K TPS on each of the two sites without printing a total.",
                         "3-channel replication (prose).", "No Results subsection; table number 3-96 is missing."],
                  contradictions=[dict(field="load",
                                       summary="Title: 43K TPS per site; prose: 60K TPS total with 21.5K TPS per site; "
                                               "table: 21.5K TPS on each of Site1 and Site2.",
                                       versions=[("title", "with each site handling 43K TPS traffic"),
                                                 ("prose", "traffic of 60K TPS, with each site handling a traffic of 21.5K TPS"),
                                                 ("row", "3-86", "Call Rate (Ingress + Egress)")],
                                       reason="The record keeps the per-site 21.5K on which prose and table agree; the total is left empty.")]),
    "3.2.4": dict(short="PCF SM, 2-site GR, 30K TPS per site, ASM", mode="PCF", sites=2, traffic=["site1", "site2"],
                  load=_L(60000, 30000, ("row", "3-97", "Call Rate (Ingress + Egress)")), asm="enabled",
                  asm_note="Title 'ASM Enabled'; Table 3-97 'ASM | Enable'.",
                  notes=["Total 60K TPS from the prose: 'total (Ingress + Egress) traffic of 60K TPS, with each site handling a traffic of 30K TPS'.",
                         "3-channel replication (prose).", "No Results subsection."]),
    "3.2.5": dict(short="PCF AM/UE, 2-site GR, 30K TPS per site, compression and MTA, ASM between Policy services",
                  mode="PCF", sites=2, traffic=["site1", "site2"],
                  load=_L(60000, 30000, ("row", "U-3.2.5.1-1", "Call Rate (Ingress + Egress)")), asm="partial",
                  asm_note="Prose: 'ASM was enabled between Policy services and it was disabled between Policy services and "
                           "cnDBTier data services'; test parameters 'ASM | Enable'. Yet 3-117/3-118 allocate and 3-120 "
                           "measures Istio sidecars on cnDBTier pods.",
                  notes=["Measured site totals in Table 3-109: 28220 (Site 1) and 27271 (Site 2).",
                         "Application data compression at AM, UE and PDS and the Multithreaded Applier (MTA) at cnDBTier (prose).",
                         "No Results subsection."],
                  contradictions=[dict(field="asm",
                                       summary="The prose says ASM was disabled between Policy and cnDBTier data services, yet "
                                               "Istio sidecars are allocated and measured on cnDBTier pods.",
                                       versions=[("prose", "it was disabled between Policy services and cnDBTier data services"),
                                                 ("table", "3-117", "ndbappmysqld | 12 | 12 | 20Gi | 20Gi | 12 | 5 | 5Gi |",
                                                  "Table 3-117, row 'ndbappmysqld' (Istio CPU 5, Istio memory 5Gi)"),
                                                 ("table", "3-120", "ndbmtd/istio-proxy | 47.02% | 2.06% | 31.61% | 1.96% |",
                                                  "Table 3-120, row 'ndbmtd/istio-proxy'")],
                                       reason="Recorded as 'partial' (ASM between Policy services only, per the prose)."),
                                  dict(field="features",
                                       summary="The prose says compression was enabled at AM, UE and PDS; Table 3-110 lists compression for Binding and SM.",
                                       versions=[("prose", "Application data compression was enabled at AM, UE, and PDS services"),
                                                 ("row", "3-110", "Compression (Binding & SM Service)")])]),
    "3.2.6": dict(short="PCF AM/UE 60K TPS on one site of a 2-site GR, ASM between Policy services", mode="PCF", sites=2,
                  traffic=["site1"], load=_L(60000, 60000, ("row", "U-3.2.6.1-1", "Call Rate (Ingress + Egress)")),
                  asm="partial",
                  asm_note="Prose: ASM 'enabled between Policy services and it was disabled between Policy service pods and DB "
                           "data pods'; test parameters 'ASM | Enable'. Yet 3-129/3-130 allocate and 3-132 measures Istio "
                           "sidecars on cnDBTier pods.",
                  duration={"hours": 1.0, "cite": ("prose", "The test was run for 1.0 hour duration.")},
                  contradictions=[dict(field="asm",
                                       summary="The prose says ASM was disabled between Policy service pods and DB data pods, yet "
                                               "Istio sidecars are measured on cnDBTier pods.",
                                       versions=[("prose", "it was disabled between Policy service pods and DB data pods"),
                                                 ("table", "3-132", "ndbappmysqld/istio-proxy | 0.40% | 2.00% | 0.33% | 2.22% |",
                                                  "Table 3-132, row 'ndbappmysqld/istio-proxy'")],
                                       reason="Recorded as 'partial' (ASM between Policy services only, per the prose).")],
                  notes=["Table 3-121 total: 60048 on Site 1, '-' on Site 2.", "2 channel replication (prose); compression "
                         "at AM, UE and PDS on Site 2.", "Prose 'deployed in PCF mode..' (double period)."]),
    "3.2.7": dict(short="PCF AM/UE 75K TPS on one site of a 2-site GR, ASM between Policy services", mode="PCF", sites=2,
                  traffic=["site1"], load=_L(75000, 75000, ("row", "3-133", "Call Rate (Ingress + Egress)")),
                  asm="partial",
                  asm_note="Prose: ASM 'enabled between Policy services and it was disabled between Policy service pods and "
                           "Database data pods'; Table 3-133 'ASM | Enable'. Table 3-141 allocates Istio sidecars on cnDBTier pods.",
                  notes=["Table 3-134 total: 75060 on Site1.", "3 channel replication (prose).",
                         "No Results subsection; table number 3-144 is missing."],
                  contradictions=[dict(field="asm",
                                       summary="The prose says ASM was disabled between Policy service pods and Database data "
                                               "pods, yet Table 3-141 allocates Istio sidecars to the cnDBTier pods.",
                                       versions=[("prose", "it was disabled between Policy service pods and Database data pods"),
                                                 ("table", "3-141", "ndbappmysqld | 12 | 12 | 20Gi | 20Gi | 12 | 5 | 5Gi |",
                                                  "Table 3-141, row 'ndbappmysqld' (Istio CPU 5, Istio memory 5Gi)")],
                                       reason="Recorded as 'partial' (ASM between Policy services only, per the prose)."),
                                  dict(field="features",
                                       summary="The prose says compression at AM, UE and PDS; Table 3-135 lists compression for AM, SM and PDS.",
                                       versions=[("prose", "Application Data compression was enabled at AM, UE, and PDS services on Site 2"),
                                                 ("row", "3-135", "Compression (AM, SM, and PDS Service)")])]),
    "3.2.8": dict(short="PCF SM 43K TPS on one site of a 2-site GR, ASM", mode="PCF", sites=2, traffic=["site1"],
                  load=_L(43000, 43000, ("row", "3-145", "Call Rate (Ingress + Egress)")), asm="enabled",
                  asm_note="Title 'ASM Enabled'; Table 3-145 'ASM | Enable'.",
                  notes=["Table 3-146 'Total SM | 43206 | 0 |'.", "Multi channel replication (prose).",
                         "No Results subsection; table number 3-154 is missing."]),
    "3.2.9": dict(short="54K TPS AM/UE + N1N2 from Site-1 without profile, ASM", mode="PCF", sites=2, traffic=["site1"],
                  load=_L(54000, 54000, ("row", "3-157", "Call Rate (Ingress + Egress)")), asm="enabled",
                  asm_note="Table 3-157 'ASM | Enable'; Table 3-156 'ASM | 1.14.6'; Istio rows in 3-160/3-161.",
                  notes=["Deployment mode not stated; PCF features and AM/UE/N1N2 traffic.",
                         "Table 3-158 'Total | 53743 | 0.00 |'.", "Title reads '54K TPS from 1 Site-1'.",
                         "Single-channel replication; Binding service and PRE enabled (prose).",
                         "No optimization parameters were configured (prose)."]),
    "3.2.10": dict(short="SM 41K TPS on Site-1 with NRF caching and UDR group-id-list discovery", mode="PCF", sites=2,
                   traffic=["site1"], load=_L(41000, 41000, ("row", "3-171", "Call Rate (Ingress + Egress)")),
                   asm="enabled",
                   asm_note="Contradictory: the prose says 'with ASM disabled', but Table 3-171 says 'ASM | Enabled', Table "
                            "3-170 gives 'ASM | 1.14.6-am1' and Tables 3-174 to 3-178 list Istio sidecars. Recorded as enabled "
                            "on the tables' evidence.",
                   notes=["Table 3-172 'TOTAL-TPS | 41280 | 0.00 |'.", "No optimization parameters were configured (prose)."],
                   contradictions=[
                       dict(field="asm", summary="Prose: ASM disabled; test parameters: ASM Enabled; software: ASM 1.14.6-am1.",
                            versions=[("prose", "The test was run for 41K TPS on 2 sites with ASM disabled."),
                                      ("row", "3-171", "ASM"), ("row", "3-170", "ASM")],
                            reason="The record says enabled: the tables state it and list Istio sidecars."),
                       dict(field="sites_with_traffic", summary="Title and table: 41K TPS on Site-1; prose: 41K TPS on 2 sites.",
                            versions=[("title", "41K TPS on Site-1"), ("prose", "41K TPS on two sites"),
                                      ("row", "3-171", "Call Rate (Ingress + Egress)"),
                                      ("table", "3-172", "TOTAL-TPS | 41280 | 0.00 |", "Table 3-172, row 'TOTAL-TPS'")],
                            reason="The record follows the title and tables (Site1 only).")]),
    "3.3.1": dict(short="Policy voice, 4-site GR, 7.5K TPS per site at Diameter Gateway", mode="converged", sites=4,
                  traffic=["site1", "site2", "site3", "site4"],
                  load=_L(30000, 7500, ("row", "U-3.3.1.1-1", "Call Rate (Diameter Gateway)")), asm="disabled",
                  asm_note="Title 'ASM Disabled'; test parameters 'ASM | Disable'.",
                  notes=["Single-channel replication (prose).", "No optimization parameters were configured (prose).",
                         "No Results subsection."],
                  contradictions=[dict(field="features",
                                       summary="The prose says Policy Event Record (PER) was enabled; Table 3-182 lists PRE, and no PER row.",
                                       versions=[("prose", "Policy Event Record (PER) and Binding feature were enabled"),
                                                 ("row", "3-182", "PRE")])]),
    "3.3.2": dict(short="Policy voice, 4-site GR, 15K TPS on site1 and site3", mode="converged", sites=4,
                  traffic=["site1", "site3"], load=_L(30000, 15000, ("row", "U-3.3.2.1-1", "Call Rate (Diameter Gateway)")),
                  asm="disabled", asm_note="Prose 'Aspen Service Mesh (ASM) was disabled'; test parameters 'ASM | Disable'.",
                  notes=["Prose: 'Two of the sites (site1 and site3) handle a traffic of 15K TPS at Diameter Gateway and there "
                         "is no traffic on the other two sites (site2 and site4)'.", "No Results subsection."]),
    "3.4.1": dict(short="Policy data, 4-site GR, 7.5K TPS per site at Diameter Gateway, Binding", mode="converged", sites=4,
                  traffic=["site1", "site2", "site3", "site4"],
                  load=_L(30000, 7500, ("row", "U-3.4.1.1-1", "Call Rate (Diameter Gateway)")), asm="disabled",
                  asm_note="Title 'ASM Disabled'; test parameters 'ASM | Disable'.",
                  notes=["Binding feature enabled; single-channel replication (prose).", "No Results subsection."]),
    "3.4.2": dict(short="Policy data, 4-site GR, 15K TPS on site1 and site3", mode="converged", sites=4,
                  traffic=["site1", "site3"], load=_L(30000, 15000, ("row", "U-3.4.2.1-1", "Call Rate (Diameter Gateway)")),
                  asm="disabled", asm_note="Prose 'Aspen Service Mesh (ASM) was disabled'; test parameters 'ASM | Disable'.",
                  notes=["The heading 'Configuring cnDbTier Helm Parameters' is printed twice; the first should be the Policy one.",
                         "No Results subsection."]),
    "3.4.3": dict(short="Policy data (Gx/Rx), 2-site GR, 15K TPS on each site", mode="PCF", sites=2, traffic=["site1", "site2"],
                  load=_L(30000, 15000, ("row", "U-3.4.3.1-1", "Call Rate (Diameter Gateway)")), asm="disabled",
                  asm_note="Prose 'non-ASM GR Setup'; test parameters 'ASM | Disable'.",
                  notes=["'deployed in PCF mode' (prose) although the traffic is Diameter Gx/Rx.",
                         "Table 3-216: Diameter Gateway Ingress 8.33K TPS, Egress 6.31K TPS.",
                         "No Results subsection; table number 3-224 is missing."],
                  contradictions=[dict(field="deployment_mode",
                                       summary="The prose says PCF mode, but the traffic is Diameter (Gx/Rx) at the Diameter "
                                               "Gateway, as in the converged runs.",
                                       versions=[("prose", "deployed in PCF mode on a two-site of a two-site non-ASM GR Setup"),
                                                 ("row", "U-3.4.3.1-1", "Traffic Ratio")],
                                       reason="The record follows the prose (PCF)."),
                                  dict(field="load.total",
                                       summary="The test parameters give 30K TPS (15K TPS on each of two sites); the prose "
                                               "gives a total of 15K TPS on two sites.",
                                       versions=[("row", "U-3.4.3.1-1", "Call Rate (Diameter Gateway)"),
                                                 ("prose", "total Ingress and Egress traffic of 15K TPS on two sites")],
                                       reason="The record follows the table (30K total, 15K per site).")]),
    "3.4.4": dict(short="PCRF 15K TPS on each of two non-ASM sites (hypervisor X8-2)", mode="PCRF", sites=2,
                  traffic=["site1", "site2"], load=_L(None, 15000, ("row", "3-227", "Call Rate (Ingress + Egress)")),
                  asm="disabled", asm_note="Title 'two Non ASM Sites'; Table 3-227 'ASM | Disabled'.",
                  duration={"hours": 128.0, "cite": ("prose", "duration=128.0 hours")},
                  notes=["load.total not stated; Table 3-228 measures Pcrf-Total-Tps 15107.29 (Site1) and 15119.52 (Site2).",
                         "No optimization parameters were configured (prose)."],
                  contradictions=[dict(field="deployment_mode",
                                       summary="The title says PCF; the deployment model row says PCRF and the traffic is 'Pcrf-Total-Tps'.",
                                       versions=[("title", "PCF 15K TPS on two Non ASM Sites"), ("row", "3-227", "Deployment Model"),
                                                 ("table", "3-228", "Pcrf-Total-Tps | 15107.29 | 15119.52 |", "Table 3-228")],
                                       reason="The record follows the deployment model row (PCRF).")]),
    "3.5.1": dict(short="PCF SM 30K TPS single site, Binding enabled, no ASM", mode="PCF", sites=1, traffic=["site1"],
                  load=_L(30000, 30000, ("row", "U-3.5.1.1-1", "Call Rate (Ingress + Egress)")), asm="disabled",
                  asm_note="Prose 'Aspen Service Mesh (ASM) was disabled'; test parameters 'ASM | Disable'.",
                  duration={"hours": 4.0, "cite": ("prose", "User Connecttor microservice restart with a duration of 4.0 hours.")},
                  notes=["The 4.0 hours is printed with a User Connector restart ('Connecttor' sic); it is the only duration given.",
                         "Table 3-239 'Total | 29747 |'.", "Deployment model 'PCF 1 at Site1'."]),
    "3.5.2": dict(short="PCF SM 30K TPS single site, Binding disabled, no ASM", mode="PCF", sites=1, traffic=["site1"],
                  load=_L(30000, 30000, ("row", "U-3.5.2.1-1", "Call Rate (Ingress + Egress)")), asm="disabled",
                  asm_note="Prose 'Aspen Service Mesh (ASM) was disabled'; test parameters 'ASM | Disable'.",
                  notes=["Traffic tables 3-250/3-251 are identical to 3.5.1's 3-239/3-240 although Binding differs; "
                         "Table 3-242 (3.5.1) has 'Subscriber State Variable (SSV) | Disabled' and 3-253 'Enabled'."]),
    "3.6.1": dict(short="PCF standalone, 10K TPS Diameter Ingress + 17K TPS Egress, Usage Monitoring", mode="PCF", sites=1,
                  traffic=["site1"], load=_L(27000, 27000, ("row", "U-3.6.1.1-1", "Call Rate (Ingress + Egress)")),
                  asm="disabled", asm_note="Test parameters 'ASM | Disable' and 'Non ASM PCF Setup'.",
                  notes=["No prose paragraph; the heading is followed by Figure 3-2.", "Deployment model 'PCF as a standalone'; Gx traffic."],
                  contradictions=[dict(field="load.total",
                                       summary="The test parameters give 27K TPS; Table 3-261 prints a total of 29747, while its rows add up to 28000.",
                                       versions=[("row", "U-3.6.1.1-1", "Call Rate (Ingress + Egress)"),
                                                 ("table", "3-261", "Total | 29747 |", "Table 3-261, row 'Total'")],
                                       reason="The record follows the test parameters (27K).")]),
}


SCENARIO_KEYS = ("id", "doc", "section", "title", "short_title", "deployment_mode", "release", "sites_provisioned",
                 "sites_with_traffic", "load", "asm", "asm_note", "duration", "call_mix", "call_model", "subscribers",
                 "replication", "hardware", "software", "features", "interfaces", "parameters", "tables",
                 "contradictions", "notes")
"""The keys of a scenario record, in the order scenarios.yaml writes them."""

class Scenarios(CallModels):
    """``scenarios``: one record per scenario of SPEC, then the errata of the scenarios' prose."""

    def kv(self, tid):
        return {r.cells[0]: (r.cells[1] if len(r.cells) > 1 else "") for r in self.lrows[tid]}

    def merged_kv(self, tids):
        out = {}
        for tid in tids:
            for r in self.lrows[tid]:
                k, v = r.cells[0], (r.cells[1] if len(r.cells) > 1 else "")
                if k in out and out[k] != v:
                    k = f"{k} [Table {tid}]"
                elif k in out:
                    continue
                out[k] = v
        return out

    def scenarios(self):
        """One record per scenario of SPEC (scenarios.yaml, in SPEC's order), then the errata of the scenarios' prose.
        Fills ``heads``: each scenario heading's section -> (line, title)."""
        heads = {}
        for n, l in enumerate(self.lines, 1):
            m = re.match(r"(3\.\d+\.\d+) (.*)$", l)
            if m:
                heads[m.group(1)] = (n, m.group(2))
        self.heads = heads
        for sec, spec in SPEC.items():
            self.c.scenarios.append(self._scenario(sec, spec))
        self.prose_errata(heads)

    def _scenario(self, sec: str, spec: dict) -> dict:
        """The record of scenario ``sec`` from its SPEC entry ``spec`` and its tables, keys in ``SCENARIO_KEYS`` order.
        Raises KeyError when a quote of ``spec`` is not printed where it says."""
        sid = "policy-" + sec.replace(".", "-")
        hline, title = self.heads[sec]
        tables = [t.id for t in self.tables if scenario_of(t) == sid]
        cat = {e["id"]: e.get("category") for e in self.c.tables}
        mine = lambda category: [tid for tid in tables if tid in self.lrows and cat.get(tid) == category]
        rec = {"id": sid, "doc": DOC, "section": sec, "title": title, "short_title": spec["short"],
               "deployment_mode": spec["mode"], "release": None,
               "sites_provisioned": spec["sites"], "sites_with_traffic": spec["traffic"]}
        load = spec["load"]
        cite = self._cite(load["cite"], hline)
        rec["load"] = {"total": load["total"], "per_site": load["per_site"], "unit": "TPS", "raw": cite["text"], "cite": cite}
        rec["asm"] = spec["asm"]
        rec["asm_note"] = spec["asm_note"]
        if spec.get("duration"):
            d = spec["duration"]
            dc = self._cite(d["cite"], hline)
            rec["duration"] = {"hours": d["hours"], "raw": dc["text"], "cite": dc}
        else:
            rec["duration"] = None
        rec["notes"] = list(spec.get("notes", []))
        self._test_parameter_facts(rec, mine("test-parameters"), mine("call-model"))
        hw, sw = mine("hardware"), mine("software")
        rec["hardware"] = self.kv(hw[0]) if hw else None
        rec["software"] = self.kv(sw[0]) if sw else None
        feats, ifs = mine("features"), mine("interfaces")
        rec["features"] = self.merged_kv(feats) if feats else None
        rec["interfaces"] = self.merged_kv(ifs) if ifs else None
        rec["parameters"] = self._parameters(sec, [tid for tid in tables if tid in self.lrows], cat) or None
        rec["tables"] = tables
        rec["call_model"] = self.call_model(sec, sid, hline)
        rec["replication"] = self.replication(sec, hline)
        if rec["call_model"] is None:
            rec["notes"].append(CALL_MODEL_NOT_STATED[sec])
        if sec in REPLICATION_ELSEWHERE:
            rec["notes"].append(REPLICATION_ELSEWHERE[sec])
        rec["contradictions"] = [self._contradiction(sid, con, hline) for con in spec.get("contradictions", [])]
        return {k: rec[k] for k in SCENARIO_KEYS if k in rec}

    def _test_parameter_facts(self, rec: dict, tp: list[str], cm: list[str]) -> None:
        """Set ``call_mix`` and ``subscribers`` of scenario record ``rec`` from its test-parameter tables ``tp`` (rows
        'Traffic Ratio' and 'Active ...'); without a Traffic Ratio, the call mix is the caption of its first call-model
        table (``cm``), which its notes name."""
        rec["call_mix"] = None
        rec["subscribers"] = None
        for tid in tp:
            kv = self.kv(tid)
            for k, v in kv.items():
                if k == "Traffic Ratio":
                    rec["call_mix"] = {"raw": v, "traffic_ratio": v, "cite": self.cite_row(tid, k)}
                if k.startswith("Active"):
                    rec["subscribers"] = {"raw": v, "label": k, "cite": self.cite_row(tid, k)}
        if rec["call_mix"] is None and cm:
            rec["call_mix"] = {"raw": self.by_id[cm[0]].caption or "Call Model Data", "cite": {"text": self.by_id[cm[0]].caption or "Call Model Data",
                               "table_id": cm[0], "line": self.by_id[cm[0]].first_line, "where": f"Table {cm[0]}"}}
        if cm:
            rec["notes"].append("Call model / traffic tables (rows in measurements.csv): " + ", ".join(cm) + ".")

    def _parameters(self, sec: str, my: list[str], cat: dict) -> dict:
        """The ``parameters`` of scenario ``sec``: its test-parameter, Helm and cnDBTier parameter tables (of ``my``, by
        their ``cat``egory) as key/value lists, and for the AM/UE scenarios (3.2.x) the shared Table 3-61."""
        params = {}
        for tid in my:
            if cat.get(tid) == "test-parameters":
                params[f"Table {tid}" if not tid.startswith("U-") else tid] = {
                    "category": "test-parameters", "values": [{"key": r.cells[0], "value": r.cells[1]} for r in self.lrows[tid]]}
        for tid in my:
            if cat.get(tid) in ("helm", "db-parameters"):
                t = self.by_id[tid]
                params[f"Table {tid}"] = {"category": cat[tid], "caption": t.caption,
                                          "values": [{"key": r.cells[0], "value": r.cells[1] if len(r.cells) > 1 else ""}
                                                     for r in self.lrows[tid]]}
        if sec.startswith("3.2."):
            params["shared"] = {"table_id": "3-61", "caption": self.by_id["3-61"].caption,
                                "note": "Printed in the 3.2 preamble: 'cnDBTier Helm Parameters that needs to be configured "
                                        "for all the test scenarios for AM/UE (15K, 25K, 30K, 60K, and 75K)'. The table "
                                        "belongs to no single scenario (scenario empty in the data)."}
        return params

    def _contradiction(self, sid: str, con: dict, hline: int) -> dict:
        """A ``contradictions`` entry of scenario ``sid`` from SPEC's ``con``: every version cited, and its erratum (one
        recorded now, or the erratum of kind ``con["reuse"]`` an earlier part recorded for that table)."""
        versions = [self._cite(v, hline) for v in con["versions"]]
        reuse = con.get("reuse")
        prior = [e["id"] for e in self.c.errata if reuse and e.get("table_id") == reuse[0] and e["kind"] == reuse[1]]
        eid = prior[0] if prior else self.E(scenario=sid, table_id=next((v["table_id"] for v in versions if v.get("table_id")), None),
                     lines=[v["line"] for v in versions if v.get("line")], where=con["field"], kind="contradiction",
                     raw="\n".join(v["text"] for v in versions), problem=con["summary"], action="noted",
                     reason=con.get("reason", "Every version is cited in scenarios.yaml; the record uses "
                                              "the value stated in its field's note."))
        return {"field": con["field"], "summary": con["summary"], "versions": versions, "erratum": eid}

    def prose_errata(self, heads):
        E = self.E
        n, title = heads["3.2.9"]
        E(scenario="policy-3-2-9", lines=[n], where="title", kind="typo", raw=title,
          problem="'54K TPS from 1 Site-1': a stray '1' (the prose says '54K from site-1').", action="kept-as-printed")
        n = self.find_line("User Connecttor microservice restart")
        E(scenario="policy-3-5-1", lines=[n], where="prose", kind="typo", raw="User Connecttor microservice restart",
          problem="'Connecttor' for 'Connector'.", action="kept-as-printed")
        n = self.find_line("deployed in PCF mode..")
        E(scenario="policy-3-2-6", lines=[n], where="prose", kind="typo", raw="deployed in PCF mode..",
          problem="Doubled period.", action="kept-as-printed")
        n = self.find_line("there is no traffic on the other site", heads["3.2.8"][0])
        E(scenario="policy-3-2-8", lines=[n], where="prose", kind="format", raw="there is no traffic on the other site",
          problem="The paragraph ends without its final period.", action="noted")
        for sec in ("3.4.2", "3.4.3"):
            a = self.find_line("Configuring cnDbTier Helm Parameters", heads[sec][0])
            E(scenario="policy-" + sec.replace(".", "-"), lines=[a, a + 2], where="headings", kind="duplicate",
              raw="Configuring cnDbTier Helm Parameters",
              problem=f"Scenario {sec}: the heading is printed twice; the first should introduce the Policy Helm parameters (there are none "
                      "for this run).", action="noted")
        no_results = [sec for sec in SPEC if not any(l.startswith(sec + ".") and l.endswith(" Results")
                                                     for l in self.lines)]
        E(table_id=None, lines=[heads[sec][0] for sec in no_results], where="scenario sections", kind="missing",
          raw="\n".join(self.src(heads[sec][0]) for sec in no_results),
          problem="These scenarios have no Results subsection (no latency or results tables).", action="noted")
        unnum = [sec for sec, (n, t) in heads.items() if sec in SPEC and t.startswith("Test Scenario:")]
        none = [sec for sec, (n, t) in heads.items() if sec in SPEC and not t.startswith("Test Scenario")]
        shown = [heads[sec][0] for sec in ("3.1.1", "3.1.2", unnum[0], none[0])]
        E(table_id=None, lines=shown, where="scenario headings", kind="other",
          raw="\n".join(self.src(n) for n in shown),
          problem="Only 3.1.1 and 3.1.2 are numbered 'Test Scenario N:'; " + ", ".join(unnum) + " use an unnumbered "
                  "'Test Scenario:'; " + ", ".join(none) + " have no 'Test Scenario' prefix.", action="noted")
        pre = self.find_line("for all the test scenarios for AM/UE")
        vs = []
        for tid, key in (("3-67", "binlog_cache_size"), ("3-67", "NoOfFragmentLogFiles"), ("3-80", "NoOfFragmentLogFiles"),
                         ("3-80", "FragmentLogFileSize"), ("3-80", "MaxNoOfExecutionThreads"),
                         ("3-114", "MaxNoOfExecutionThreads"), ("3-139", "NoOfFragmentLogFiles"),
                         ("3-139", "MaxNoOfExecutionThreads")):
            r = self.line_of(tid, key)
            vs.append((tid, key, r.cells[1], r.line))
        E(table_id="3-61", lines=[pre] + [l for *_, l in vs], where="whole table vs the scenario Helm tables",
          kind="contradiction", raw=self.lines[pre - 1].strip(),
          problem="Table 3-61 is said to hold the cnDBTier Helm parameters for all AM/UE scenarios, but the scenarios' own "
                  "tables give other values: 3-61 has binlog_cache_size 10485760, NoOfFragmentLogFiles 64, "
                  "FragmentLogFileSize 32M, MaxNoOfExecutionThreads 10; " +
                  "; ".join(f"Table {tid} {key} {v}" for tid, key, v, _ in vs) + ".",
          action="noted", reason="Each table is kept as printed; 3-61 belongs to no single scenario.")
