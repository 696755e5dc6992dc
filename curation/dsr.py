"""Curate Oracle Communications cloud deployable DSR, chapter 3 "Benchmarking
Cloud Deployable DSR" (seed 002) into data/dsr/.

Run: ``python -m curation dsr``.

Every table of this seed is FLATTENED: no delimiters, the header is one
space-joined line and cells wrap over blank lines. The pipe-table segmenter
does not apply, so each of the 25 captioned tables is reconstructed here from
an explicit spec (caption, printed header line(s), reconstructed column
headers, and the expected cell sequence of every row). ``read_table`` checks
the spec against the text and raises ``CellError`` on any mismatch:

* the caption line must read exactly ``Table 3-N <caption>`` and occur once;
* the printed header line(s) must follow it, and the reconstructed column
  headers must join back into the printed header line;
* the table's body lines (blank lines skipped) are consumed row by row: the
  physical lines of a row, joined by one space, must equal the row's cells
  joined by one space -- nothing may be left over, nothing may be missing;
* the line after the table must be blank, a heading, or the end of the file.

Alarm tables are one physical line per alarm; their spec pins Number,
Severity, Server and Name, and the Description is the rest of the line.

Besides the four YAML files and the CSVs written by ``Curated.write``, this
module writes data/dsr/guidance.yaml: the infrastructure rules of 3.1 (and a
few tuning rules stated in 3.2) as structured records with exact quotes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .common import DATA, CellError, Curated, k_number, num, percent, seed_path
from .pipetables import read_lines

DOC = "dsr"
NB = "\u00a0"  # an empty cell is printed as a no-break space (Table 3-14)


# --------------------------------------------------------------------------- specs
@dataclass
class Spec:
    id: str
    caption: str
    section: str
    end: int                      # last line of the table (1-based)
    header_lines: list[str]       # printed header line(s), exactly
    columns: list[str]            # reconstructed leaf column headers
    kind: str                     # measurements / settings
    rows: list[tuple] = field(default_factory=list)
    category: str | None = None
    alarms: bool = False


RESULT_HEADER_8 = ["Scenario", "Call Flow Model", "DSR MPS Achieved", "DA-MP Flavor", "DA-MP Profile",
                   "Avg Msg Size", "CPU Peak", "RAM Utilization Peak"]
ALARM_HEADER = ["Number", "Severity", "Server", "Name", "Description"]
VUL = "15% Vulnerable and 85% Non Vulnerable traffic"
R12 = "12 vCPU (Regular)"


def _alarm(tid, caption, section, end, rows, header=ALARM_HEADER):
    return Spec(tid, caption, section, end, [" ".join(header)], list(header), "settings", rows,
                category="alarms", alarms=True)


OAR = ("22008", "Info", "DA-MP", "Orphan Answer Response Received")
RXALL = ("22201", "Minor", "DA-MP", "MpRxAllRate")
RMPS = ("22221", "Minor", "DA-MP", "Routing MPS Rate")
RXLEN = ("22225", "Minor", "DA-MP", "MpRxDiamAllLen")
HB = ("19814", "Info", "DA-MP", "Communication Agent Peer has not responded to heartbeat")
TFR = "Communication Agent Transaction Failure Rate"
RTF = ("19832", "Info", "DA-MP", "Communication Agent Reliable Transaction Failed")
DBERR = ("22606", "Info", "DA-MP", "Database or DB connection error")

SPECS: list[Spec] = [
    Spec("3-1", "Relay Performance Benchmarking on 16 DA-MPs DSR Setup", "3.2.1.2", 273,
         [" ".join(RESULT_HEADER_8)], RESULT_HEADER_8, "measurements", [
             ("Relay", "100% Relay", "288K", R12, "30K_MPS", "2.0 K", "19%", "35%"),
             ("Relay (with Multique enable, configuration set to DOC/CL1/CL2 discards set to 0 and multi queuing "
              "enabled on all hosts)", "100% Relay", "576K", R12, "40K_MPS_FABR", "2.0 K", "36%", "32%"),
             ("Relay", "100% Relay", "560K", "18 vCPU (Large)", "35K_MPS", "2.0 K", "28%", "26%"),
         ]),
    _alarm("3-2", "DA-MP Relay Alarms or Events", "3.2.1.3", 286, [
        ("5007", "Minor", "IPFE", "Out of Balance: Low"), ("5008", "Minor", "IPFE", "Out of Balance: High"),
        OAR, RXALL, RMPS, RXLEN]),
    Spec("3-3", "RBAR Performance Benchmarking on 16 DA-MPs DSR Setup", "3.2.2.2", 329,
         [" ".join(RESULT_HEADER_8)], RESULT_HEADER_8, "measurements", [
             ("RBAR", "100% RBAR", "256K", R12, "30K_MPS", "2.0 K", "29%", "30%")]),
    _alarm("3-4", "DA-MP RBAR Alarms or Events", "3.2.2.3", 337, [OAR, RXLEN]),
    Spec("3-5", "SDS DP Performance Benchmarking using one SDS DP", "3.2.3.2", 374,
         ["Scenario Call Flow Model DP MPS Achieved DA-MP MPS Achieved DA-MP Flavor DA-MP Profile Avg Msg Size "
          "CPU Peak RAM Utilization Peak"],
         ["Scenario", "Call Flow Model", "DP MPS Achieved", "DA-MP MPS Achieved", "DA-MP Flavor", "DA-MP Profile",
          "Avg Msg Size", "CPU Peak", "RAM Utilization Peak"], "measurements", [
             ("FABR", "100% FABR", "80K", "160K", R12, "30K_MPS", "400", "23%", "28%")]),
    _alarm("3-6", "SDS DP Alarms or Events", "3.2.3.3", 387, [
        HB, ("19825", "Major, Critical", "DA-MP", TFR), RTF,
        ("22004", "Info", "DA-MP", "Maximum pending transactions allowed exceeded"), OAR, RXLEN, DBERR,
        ("31000", "Critical", "DA-MP", "S/W Fault")]),
    Spec("3-7", "UDR Profile", "3.2.4.1", 412, ["vCPU RAM (GB) HDD (GB)"], ["vCPU", "RAM (GB)", "HDD (GB)"],
         "settings", [("18", "70", "400")], category="hardware"),
    Spec("3-8", "FABR with UDR Performance Benchmarking on 16 DA-MPs DSR Setup", "3.2.4.2", 432,
         [" ".join(RESULT_HEADER_8)], RESULT_HEADER_8, "measurements", [
             ("FABR + Relay", "70% FABR + 30% Relay", "288K (18K/MP)", R12, "30K_MPS", "2.0 K", "38%", "36%")]),
    _alarm("3-9", "FABR with UDR Alarms or Events", "3.2.4.3", 444, [
        ("19825", "Minor/Major/Critical", "DA-MP", TFR), RTF, OAR, RXALL, RMPS, RXLEN, DBERR]),
    Spec("3-10", "Feature-wise vSTP MP Benchmarking", "3.2.5.1", 478,
         ["Scenario Call Flow Model vSTP MPS Achieved SS7-MP Flavor CPU Peak RAM Peak"],
         ["Scenario", "Call Flow Model", "vSTP MPS Achieved", "SS7-MP Flavor", "CPU Peak", "RAM Peak"], "measurements", [
             ("SFAPP + MNP + GTT", "2K MNP + 2K SFAPP + 6K GTT", "18K/MP", "8 vCPU", "22", "55"),
             ("SFAPP + MNP + GFLEX + GTT", "2K MNP + 2K SFAPP + 1K GFLEX + 4K GTT", "18K/MP", "8 vCPU", "25", "49"),
             ("TIF + GTT", "5K MNP + 10K GTT", "20K/MP", "8 vCPU", "28", "39"),
             ("vMNP + GTT", "5K MNP + 10K GTT", "20K/MP", "8 vCPU", "28", "43"),
             ("GFLEX + GTT", "5K MNP + 10K GTT", "20K/MP", "8 vCPU", "27", "61"),
             ("INPQ + GTT", "5K MNP + 10K GTT", "20K/MP", "8 vCPU", "40", "52"),
             ("GTT + MTP Routing with MTP screening (M2PA & M3UA)", "16K MPS", "16K/MP", "8 vCPU", "56", "50"),
             ("GTT + MTP Routing", "20K MPS", "20K/MP", "8 vCPU", "56", "42"),
             ("vEIR", "5K", "5K/MP", "8 vCPU", "17", "49"),
             ("Elynx (E1/T1 Card) – GTT Relay", "10K TDM + 10K GTT", "20K/MP", "8 vCPU", "29", "52"),
             ("ENUM", "5K", "5K/MP", "8 vCPU", "9", "26"),
             ("DNS", "10K", "10K/MP", "8 vCPU", "2", "25"),
             ("vSTP – Home SMS MO-FSM", "AllowList + BlockList Traffic (10K + 10K)", "10K/SS7 (2 MPs) 20K /Proxy MP",
              "8 vCPU", "46", "45"),
             ("Tracing (GTT)", "9K (Tracing)", "18K/MP", "8 vCPU", "45", "48"),
             ("Tracing (GTT) + Non-Tracing (GTT)", "6K (Tracing) + 6K (GTT)", "18K/MP", "8 vCPU", "40", "44"),
         ]),
    Spec("3-11", "PDRA Test Call Model", "3.2.6.2", 528,
         ["Messages Traffic Details", "Message Count Distribution Message Distribution"],
         ["Messages: Message", "Messages: Count", "Messages: Distribution", "Traffic Details: Message",
          "Traffic Details: Distribution"], "measurements", [
             ("CCR-I, CCA-I", "1", "7.14%", "Gx with MSISDN Alternative Key, Gx Topology Hiding", "100%"),
             ("CCR-U, CCA-U", "3", "21.42%", "Gx Topology Hiding", "100%"),
             ("CCR-T, CCA-T", "1", "7.14%", "Gx Topology Hiding", "100%"),
             ("Gx RAR, RAA", "3", "21.42%", "Gx Topology Hiding", "100%"),
             ("AAR, AAA Initial", "2", "14.29%", "Rx Topology Hiding", "100%"),
             ("STR, STA", "2", "14.29%", "Rx Topology Hiding", "100%"),
             ("Rx RAR, RAA", "2", "14.29%", "Rx Topology Hiding", "100%"),
         ], category="call-model"),
    Spec("3-12", "PDRA Performance Benchmarking on 16 DA-MPs DSR Setup", "3.2.6.2", 552,
         ["Scenario Call Flow Model SBR MPS Achieved DA-MP Flavor DA-MP Profile Avg Msg Size DA-MPCPU Peak "
          "RAM Utilization Peak"],
         ["Scenario", "Call Flow Model", "SBR MPS Achieved", "DA-MP Flavor", "DA-MP Profile", "Avg Msg Size",
          "DA-MPCPU Peak", "RAM Utilization Peak"], "measurements", [
             ("Single Server group (1 SBR(s), 1 SBR(b))", "100% PDRA", "50K", R12, "30K_MPS", "600", "21%", "23%"),
             ("Single Server group (4 SBR(s), 4 SBR(b))", "100% PDRA", "200K", R12, "30K_MPS", "648", "25%", "23%"),
         ]),
    _alarm("3-13", "PDRA Alarms or Events", "3.2.6.3", 570, [
        HB, ("19825", "Major, Critical", "DA-MP", TFR), RTF, OAR,
        ("22328", "Minor", "DA-MP", "IcRate"),
        ("22704", "Info", "DA-MP", "Communication Agent Error"),
        ("22705", "Info", "DA-MP", "SBR Error Response Received"),
        ("22714", "Info", "SBR", "SBR RAR Initiation Error"),
        ("22716", "Info", "SBR", "SBR Audit Statistics Report"),
        ("22718", "Info", "DA-MP", "Binding Not Found for Binding Dependent Session Initiate Request"),
        ("22741", "Info", "DA-MP", "Failed to route PCA generated RAR"),
        ("31232", "Critical, Minor", "DA-MP", "HA Late Heartbeat Warning"),
        ("31236", "Major", "DA-MP", "HA Link Down")]),
    Spec("3-14", "Stateful and Statelss Counter Measures", "3.2.7.1", 618,
         ["Application Configuration Data General Options Settings",
          "Table Name Count of Configured Entries Options Values"],
         ["Application Configuration Data: Table Name", "Application Configuration Data: Count of Configured Entries",
          "General Options Settings: Options", "General Options Settings: Values"], "settings", [
             ("AppCmdCst_Config", "2", "Opcodes Accounting", "Disabled"),
             ("AppIdWL_Config", "1", "Max. UDR Queries per Message", "5"),
             ("AVPInstChk_Config", "48", "Max. Size of Application State", "4800"),
             ("Foreign_WL_Peers_Cfg_Sets", "14", "Logging of Vulnerable Messages", "Enabled"),
             ("MCC_MNC_List", "11", NB, NB),
             ("MsgRateMon_Config", "1", NB, NB),
             ("Realm_List", "6", NB, NB),
             ("Security_Countermeasure_Config", "19", NB, NB),
             ("SpecAVPScr_Config", "1", "Application Threads", None),   # sub-header over Options+Values
             ("System_Config_Options", "1", "Request", "6"),
             ("TimeDistChk_Config", "2000", "Answer", "4"),
             ("TTL_Config", "5", "SbrEvent", "4"),
             ("VplmnORCst_Config", "1", "AsyncEvent", "2"),
             ("TimeDistChk_Country_Config", "2", NB, NB),
             ("TimeDistChk_Exception_List", "0", NB, NB),
             ("TimeDistChk_Continent_Config", "15", NB, NB),
             ("VplmnORCst_Config", "1", NB, NB),
             ("RealmIMSICst_Config", "210", NB, NB),
             ("Exception_Rule_Config", "0", NB, NB),
             ("All Exception Types Table • IMSI_Exception_Config • MCC_MNC_Exception_Config • "
              "Origin_Host_Exception_Config • Realm_Exception_Config • VPLMN_ID_Exception_Config", "0", NB, NB),
         ], category="configuration"),
    Spec("3-15", "DSA Performance Benchmarking on 2 DA-MPs DSR Setup", "3.2.7", 680,
         ["Counter Measure (CM) Call Flow Model DSR MPS Achieved (Per DA-MP) DA-MP Flavor UDR Flavor DA-MP Profile "
          "Avg Msg Size CPU Peak RAM Utilization Peak"],
         ["Counter Measure (CM)", "Call Flow Model", "DSR MPS Achieved (Per DA-MP)", "DA-MP Flavor", "UDR Flavor",
          "DA-MP Profile", "Avg Msg Size", "CPU Peak", "RAM Utilization Peak"], "measurements", [
             ("Previous_Location_Check", VUL, "9.2K", R12, "18vCPU", "30K_MPS", "2.0 K", "29%", "63%"),
             ("Time_Distance_Check", VUL, "9.8K", R12, "18vCPU", "30K_MPS", "2.0 K", "34%", "63%"),
             ("Source_Host_Validation_Hss", VUL, "9.6K", R12, "18vCPU", "30K_MPS", "2.0 K", "34%", "62%"),
             ("Source_Host_Validation_Mme", VUL, "10K", R12, "18vCPU", "30K_MPS", "2.0 K", "33%", "63%"),
             ("Message_Monitoring_Rate", VUL, "10K", R12, "18vCPU", "30K_MPS", "2.0 K", "30%", "63%"),
             ("Session_Integrity_Validation_Chk", VUL, "10K", R12, "18vCPU", "30K_MPS", "2.0 K", "39%", "63%"),
             ("All Stateful", VUL, "7.02K", R12, "18vCPU", "30K_MPS", "2.0 K", "15%", "30%"),
             ("All Stateful + All stateless", VUL, "5.25K", R12, "18vCPU", "30K_MPS", "2.0 K", "14%", "31%"),
         ]),
    _alarm("3-16", "Indicative Alarms/Events", "3.2.7", 691, [
        ("19825", "Minor/Major/Critical", "DA-MP", TFR), RTF,
        ("33308", "Info", "DA-MP", "DCA to UDR Comagent Error"),
        ("33446", "Major", "DA-MP", "SrcHostValHssExecFailedAlrm"),
        ("33449", "Major", "DA-MP", "TimeDistChkExecFailedAlrm")],
        header=["Number", "Severity", "server", "Name", "Description"]),
    Spec("3-17", "DSR common configuration", "3.2.8", 741,
         ["DSR Common Configuration parameters No of Records Rx Message originator Supported Diameter Message"],
         ["DSR Common Configuration parameters", "No of Records", "Rx Message originator",
          "Supported Diameter Message"], "settings", [
             ("No of DAMP's", "2", "MCPTT Client", "AAR-I/U, STR"),
             ("No of Local Nodes", "2", "PCRF", "ASR, RAR"),
             ("No of Peer Nodes", "40", "-", "-"),
             ("No of MCPTT Client Connections", "16", "Rx Message originator", "Supported Message Type"),  # 2nd header
             ("No of PCRF connections", "16", "Rx ShUDR application", "Sh-UDR"),
             ("No of HSS Connections", "8", "-", "-"),
             ("Total No of connections", "40", "-", "-"),
         ], category="configuration"),
    Spec("3-18", "Application configuration", "3.2.8", 751, ["Table Name Counts Messages Distribution"],
         ["Table Name", "Counts", "Messages", "Distribution"], "settings", [
             ("Error_Action_Config", "41", "Rx AAR, AAA Initial", "40%"),
             ("PDNGWHost_PCRF_Mapping", "7", "Rx AAR, AAA Update", "4%"),
             ("Rx_Client", "10", "Rx STR, STA", "13%"),
             ("System_Config_Options", "1", "Rx ASR, ASA", "13%"),
             ("Topology_Hiding", "3", "Rx RAR, RAA", "3%"),
             ("-", "-", "Sh-UDR, Sh-UDA", "27%"),
         ], category="configuration"),
    Spec("3-19", "RSA Performance Benchmarking", "3.2.8", 758, [" ".join(RESULT_HEADER_8)], RESULT_HEADER_8,
         "measurements", [
             ("Use Case (A+B) scenario with 27% of the traffic having Sh_lookup", "Use Case (A + B)", "30K (15K/MP)",
              R12, "30K_MPS", "400", "53%", "24%")]),
    _alarm("3-20", "Indicative Alarms/Events", "3.2.8", 771, [
        OAR, ("33318", "Major", "DA-MP", "DCA CreateAndSend Request Message Send Failed"),
        ("33430", "Major", "DA-MP", "RxShUDRAppExecFailedAlrm"),
        ("5002", "Critical", "IPFE", "IPFE address configuration error"),
        ("5003", "Critical", "IPFE", "IPFE state sync run error"),
        ("5011", "Critical", "IPFE", "System or platform error prohibiting operation"),
        ("5012", "Critical", "IPFE", "Signaling interface heartbeat timeout")]),
    Spec("3-21", "Radius Configuration", "3.2.9", 806, ["Parameters Counts"], ["Parameters", "Counts"], "settings", [
        ("Number of DAMP's", "2"),
        ("Number of Radius Client Connections for Access-Accept", "16"),
        ("Number of Radius Server Connections Access-Request", "45"),
        ("Number of Radius Client Connections Accounting-Accept", "8"),
        ("Number of Radius Server Connections Accounting-Request", "45"),
        ("Total Number of Connections", "114"),
        ("Number of Local Nodes", "9"),
        ("Number of Peer Nodes", "114"),
    ], category="configuration"),
    Spec("3-22", "Diameter Configuration", "3.2.9", 820, ["Parameters Counts"], ["Parameters", "Counts"], "settings", [
        ("Number of DAMP's", "2"),
        ("Number of DAMPs with fixed or floating connections", "2"),
        ("Number of IFEE", "2"),
        ("Number of TSA Defined", "1"),
        ("Number of DAMP in TSA Groups", "2"),
        ("Number of Initiator Connections", "120"),
        ("Number of Responder Connections", "40"),
        ("Total Number of Diameter Connections", "160"),
        ("Number of Local Nodes", "2"),
        ("Number of Peer Nodes", "10"),
    ], category="configuration"),
    Spec("3-23", "Traffic Call Model", "3.2.9", 827, ["Traffic Type Distribution"], ["Traffic Type", "Distribution"],
         "measurements", [
             ("Radius Access Traffic", "5%"),
             ("Radius Accounting Traffic", "25%"),
             ("Diameter Relay Traffic", "70%"),
         ], category="call-model"),
    Spec("3-24", "Radius + Diameter Performance Benchmarking on 2 DA-MPs DSR Setup", "3.2.9", 832,
         [" ".join(RESULT_HEADER_8)], RESULT_HEADER_8, "measurements", [
             ("Radius + Diameter", "30% Radius + 70% Diameter", "36K (18K/MP)", R12, "30K_MPS", "400", "42%", "28%")]),
    _alarm("3-25", "Indicative Alarms/Events", "3.2.9", 839, [OAR, RXALL, RMPS]),
]

# Rows whose right-hand cells are a sub-header, not data: (table, row) -> what it is.
SUBHEADER_RIGHT = {("3-14", 9): "Application Threads", ("3-17", 4): "Rx Message originator / Supported Message Type"}

# Benchmark sections (one heading per section) and the scenario of every result row.
SECTIONS = {
    "3.2.1": "DA-MP Relay Benchmark",
    "3.2.2": "RBAR Benchmark",
    "3.2.3": "Full Address Based Resolution (FABR - SDS) Capacity",
    "3.2.4": "Full Address Based Resolution (FABR-UDR) Capacity",
    "3.2.5": "vSTP MP",
    "3.2.6": "Policy DRA (PDRA) Benchmarking",
    "3.2.7": "Diameter Security Application (DSA) Benchmarking",
    "3.2.8": "Rx-ShUDR-Application (RSA) Benchmarking",
    "3.2.9": "Radius Benchmarking",
}
RESULT_TABLES = {  # table -> (section, deployment_mode, scenario slug per row)
    "3-1": ("3.2.1", "DA-MP relay", ["relay-12vcpu", "relay-multiqueue-12vcpu", "relay-18vcpu"]),
    "3-3": ("3.2.2", "DA-MP RBAR", ["rbar"]),
    "3-5": ("3.2.3", "DA-MP FABR with SDS DP", ["fabr-sds"]),
    "3-8": ("3.2.4", "DA-MP FABR with UDR", ["fabr-udr"]),
    "3-10": ("3.2.5", "vSTP SS7-MP", ["vstp-sfapp-mnp-gtt", "vstp-sfapp-mnp-gflex-gtt", "vstp-tif-gtt", "vstp-vmnp-gtt",
                                    "vstp-gflex-gtt", "vstp-inpq-gtt", "vstp-gtt-mtp-routing-screening",
                                    "vstp-gtt-mtp-routing", "vstp-veir", "vstp-elynx-gtt-relay", "vstp-enum", "vstp-dns",
                                    "vstp-home-sms-mo-fsm", "vstp-tracing-gtt", "vstp-tracing-non-tracing-gtt"]),
    "3-12": ("3.2.6", "DA-MP PDRA with SBR", ["pdra-1-sbr-s-1-sbr-b", "pdra-4-sbr-s-4-sbr-b"]),
    "3-15": ("3.2.7", "DA-MP DSA with UDR", ["dsa-previous-location-check", "dsa-time-distance-check",
                                            "dsa-source-host-validation-hss", "dsa-source-host-validation-mme",
                                            "dsa-message-monitoring-rate", "dsa-session-integrity-validation-chk",
                                            "dsa-all-stateful", "dsa-all-stateful-all-stateless"]),
    "3-19": ("3.2.8", "DA-MP RSA (Rx-ShUDR, DCA)", ["rsa"]),
    "3-24": ("3.2.9", "DA-MP RADIUS + Diameter", ["radius-diameter"]),
}
# Supporting tables of each section (alarms, configuration, call models).
SECTION_TABLES = {
    "3.2.1": ["3-1", "3-2"], "3.2.2": ["3-3", "3-4"], "3.2.3": ["3-5", "3-6"], "3.2.4": ["3-7", "3-8", "3-9"],
    "3.2.5": ["3-10"], "3.2.6": ["3-11", "3-12", "3-13"], "3.2.7": ["3-14", "3-15", "3-16"],
    "3.2.8": ["3-17", "3-18", "3-19", "3-20"], "3.2.9": ["3-21", "3-22", "3-23", "3-24", "3-25"],
}
# Number of DA-MPs under test as printed (caption or floating heading): table -> (count, raw, line of the text).
DA_MP_COUNT_TEXT = {
    "3-1": ("on 16 DA-MPs", "Table 3-1 Relay Performance Benchmarking on 16 DA-MPs DSR Setup"),
    "3-3": ("on 16 DA-MPs", "Table 3-3 RBAR Performance Benchmarking on 16 DA-MPs DSR Setup"),
    "3-8": ("on 16 DA-MPs", "Table 3-8 FABR with UDR Performance Benchmarking on 16 DA-MPs DSR Setup"),
    "3-12": ("on 16 DA-MPs", "Table 3-12 PDRA Performance Benchmarking on 16 DA-MPs DSR Setup"),
    "3-15": ("on 2 DA-MPs", "Table 3-15 DSA Performance Benchmarking on 2 DA-MPs DSR Setup"),
    "3-19": ("on 2 DA-MPs", "RSA Performance Benchmarking on 2 DA-MPs DSR Setup"),   # floating heading above 3-19
    "3-24": ("on 2 DA-MPs", "Table 3-24 Radius + Diameter Performance Benchmarking on 2 DA-MPs DSR Setup"),
}

SERVICES = [
    ("DA-MP", "traffic", "app", ["DA-MP", "DA MP", "DA-MPs", "DAMP", "DAMP's", "DAMPs"],
     "Diameter Agent Message Processor: carries all Diameter (and encapsulated RADIUS) traffic; the benchmarked VM. "
     "Flavors printed: '12 vCPU (Regular)', '18 vCPU (Large)'."),
    ("IPFE", "traffic", "app", ["IPFE", "IFEE"],
     "IP Front End (load distribution to DA-MPs); 'IFEE' in Table 3-22 is read as IPFE (see errata)."),
    ("SS7-MP", "traffic", "app", ["SS7-MP", "vSTP MP", "vSTP-MP", "vSTP", "SS7"],
     "Virtualized STP message processor (M2PA, M3UA, TDM). Flavor printed: '8 vCPU'."),
    ("vENUM-MP", "traffic", "app", ["vENUM-MP", "vENUM"], "ENUM message processor; sends messages to UDR over ComAgent."),
    ("SBR(s)", "database", "app", ["SBR(s)", "SBR-s", "SBR(session)"],
     "Session SBR used by PDRA; at most 16 million sessions per SBR (from the DSR 8.3 release). The alarm tables "
     "print the server as plain 'SBR' (either kind)."),
    ("SBR(b)", "database", "app", ["SBR(b)", "SBR-b", "SBR (binding)", "SBR-g"],
     "Binding SBR used by PDRA; 'SBR-g' (L490) is read as SBR-b (see errata)."),
    ("SDS DP", "database", "app", ["SDS DP", "DP", "Database Processor (DP)"],
     "Database Processor for FABR lookups against the SDS database."),
    ("SDS", "management", "app", ["SDS", "SDS SOAM"], "Subscriber Database Server and its SOAM (FABR provisioning)."),
    ("UDR", "database", "udr", ["UDR", "vUDR", "User Data Repository (UDR)"],
     "User Data Repository used by FABR-UDR, DSA and vENUM. Profile printed in Table 3-7: 18 vCPU, 70 GB RAM, 400 GB HDD."),
    ("NOAM", "management", "app", ["NOAM", "DSR NOAM", "Active DSR NOAM"], "Network OAM&P; the ComAgent commands of 3.2.7 are run from it."),
]


# --------------------------------------------------------------------------- reading
class DsrCurated(Curated):
    """Curated plus data/dsr/guidance.yaml."""

    guidance: list = []

    def write(self, root: Path = DATA) -> None:
        """``Curated.write`` into ``root`` (data/ by default), then <root>/dsr/guidance.yaml."""
        text = yaml.safe_dump(self.guidance, sort_keys=False, allow_unicode=True, width=100)
        super().write(root)
        (root / self.doc / "guidance.yaml").write_text(text, encoding="utf-8")


@dataclass
class TRow:
    line: int
    last_line: int
    cells: list


@dataclass
class Table:
    spec: Spec
    caption_line: int
    rows: list


def _line(lines: list[str], n: int) -> str:
    return lines[n - 1].strip(" ")


def read_table(lines: list[str], spec: Spec) -> Table:
    """Reconstruct one flattened table from its spec; raise CellError on any mismatch with the text."""
    cap = f"Table {spec.id} {spec.caption}"
    hits = [i + 1 for i, l in enumerate(lines) if l.strip(" ") == cap]
    if len(hits) != 1:
        raise CellError(f"{spec.id}: caption {cap!r} found {len(hits)} times")
    n = hits[0] + 1
    for h in spec.header_lines:
        while not _line(lines, n):
            n += 1
        if _line(lines, n) != h:
            raise CellError(f"{spec.id} line {n}: header {lines[n - 1]!r} is not {h!r}")
        n += 1
    leaf = spec.header_lines[-1]
    leaves = [c.split(": ")[-1] for c in spec.columns]
    if " ".join(leaves) != leaf:
        raise CellError(f"{spec.id}: columns {leaves} do not join into the header {leaf!r}")
    body = [(i, _line(lines, i)) for i in range(n, spec.end + 1) if _line(lines, i)]
    if spec.end < len(lines):
        after = _line(lines, spec.end + 1)
        if after and not re.match(r"^\d+(\.\d+)+ ", after):
            raise CellError(f"{spec.id}: line {spec.end + 1} {after!r} continues the table beyond its spec")
    rows: list[TRow] = []
    k = 0
    for cells in spec.rows:
        if k >= len(body):
            raise CellError(f"{spec.id}: spec row {cells[0]!r} has no text left")
        if spec.alarms:
            i, text = body[k]
            prefix = " ".join(cells) + " "
            if not text.startswith(prefix) or not text[len(prefix):].strip():
                raise CellError(f"{spec.id} line {i}: {text!r} does not start with {prefix!r} plus a description")
            rows.append(TRow(i, i, list(cells) + [text[len(prefix):]]))
            k += 1
            continue
        expected = " ".join(c for c in cells if c is not None)
        first, acc = body[k][0], body[k][1]
        k += 1
        while acc != expected:
            if not expected.startswith(acc + " ") or k >= len(body):
                raise CellError(f"{spec.id} line {first}: text {acc!r} does not match spec {expected!r}")
            acc += " " + body[k][1]
            k += 1
        rows.append(TRow(first, body[k - 1][0], list(cells)))
    if k != len(body):
        raise CellError(f"{spec.id}: text left over after the last spec row: {body[k:]}")
    return Table(spec, hits[0], rows)


HEADING = re.compile(r"^(3(?:\.\d+)*) (\S.*)$")
"""A numbered heading of the guide's chapter 3 ('3.1.1.1 Hyper-Threading and CPU Over-Subscription'; '3 Benchmarking
Cloud Deployable DSR' is the chapter's own, line 1)."""


def section_of(lines: list[str], ln: int) -> str:
    """The numbered heading that line ``ln`` (1-based) stands under, as printed: 'section 3.1.1.1 Hyper-Threading and
    CPU Over-Subscription' (readers are told sections, not seed lines). Raises CellError when no heading precedes it."""
    for i in range(min(ln, len(lines)), 0, -1):
        m = HEADING.match(lines[i - 1].strip())
        if m:
            return f"section {m.group(1)} {m.group(2)}"
    raise CellError(f"line {ln} stands under no numbered heading of chapter 3")


def find_line(lines: list[str], text: str, start: int = 1) -> int:
    """1-based line holding ``text`` exactly once (from ``start``); raise CellError otherwise."""
    hits = [i + 1 for i in range(start - 1, len(lines)) if text in lines[i]]
    if not hits:
        raise CellError(f"quote not in the seed: {text!r}")
    return hits[0]


# --------------------------------------------------------------------------- value parsers
K_RE = r"(\d+(?:\.\d+)?)K"


def mps_cell(raw: str) -> list[tuple[str, float, str]]:
    """'288K' -> [(total)], '288K (18K/MP)' -> [(total), (per MP)]. Returns (kind, value, raw part)."""
    m = re.fullmatch(rf"{K_RE}(?: \({K_RE}/MP\))?", raw)
    if not m:
        raise CellError(f"not an MPS cell: {raw!r}")
    out = [("total", k_number(m.group(1) + "K"), m.group(1) + "K")]
    if m.group(2):
        out.append(("per_mp", k_number(m.group(2) + "K"), f"({m.group(2)}K/MP)"))
    return out


def vcpu(raw: str) -> int:
    m = re.fullmatch(r"(\d+) ?vCPU(?: \((Regular|Large)\))?", raw)
    if not m:
        raise CellError(f"not a vCPU flavor: {raw!r}")
    return int(m.group(1))


# --------------------------------------------------------------------------- build
def build() -> DsrCurated:
    lines = read_lines(seed_path(DOC))
    c = DsrCurated(DOC)
    c.guidance = []
    E = errata(c, lines)
    tables = {s.id: read_table(lines, s) for s in SPECS}

    # caption coverage: every 'Table 3-N' caption in the text has a spec
    printed = {m.group(1) for l in lines for m in [re.match(r"^Table (3-\d+) ", l)] if m}
    if printed != set(tables):
        raise CellError(f"captions without spec: {sorted(printed - set(tables))}; specs without caption: "
                        f"{sorted(set(tables) - printed)}")

    text = "\n".join(lines)
    for s, role, comp, aliases, note in SERVICES:
        for a in aliases:
            if not re.search(r"(?<![\w-])" + re.escape(a) + r"(?![\w-])", text):
                raise CellError(f"service alias {a!r} not printed in the seed")
        c.services.append({"doc": DOC, "service": s, "component": comp, "role": role, "aliases": aliases, "note": note})

    scen_of: dict[tuple[str, int], str] = {}
    for tid, (_, _, slugs) in RESULT_TABLES.items():
        if len(slugs) != len(tables[tid].rows):
            raise CellError(f"{tid}: {len(slugs)} scenario slugs for {len(tables[tid].rows)} rows")
        for i, slug in enumerate(slugs, 1):
            scen_of[(tid, i)] = f"dsr-{slug}"

    def section_scenario(tid: str) -> str | None:
        """Scenario of a supporting table: the section's only run, or None when the section holds several."""
        sec = next(s for s, ts in SECTION_TABLES.items() if tid in ts)
        runs = [scen_of[k] for k in scen_of if RESULT_TABLES[k[0]][0] == sec]
        return runs[0] if len(runs) == 1 else None

    for spec in SPECS:
        t = tables[spec.id]
        if spec.id in RESULT_TABLES:
            results(c, t, scen_of, E, lines)
            scen = scen_of[(spec.id, 1)] if len(t.rows) == 1 else None
            note = ("One scenario per result row (see scenarios.yaml); text cells (call flow model, flavor, profile) "
                    "are in settings.csv.")
        elif spec.alarms:
            scen = section_scenario(spec.id)
            alarms(c, t, scen)
            note = "One settings row per alarm cell (Severity, Server, Name, Description), key = alarm number."
        else:
            scen = section_scenario(spec.id)
            note = other(c, t, scen, E)
        entry = {"id": spec.id, "doc": DOC, "scenario": scen, "section": spec.section, "caption": spec.caption,
                 "title": spec.caption, "kind": spec.kind}
        if spec.category:
            entry["category"] = spec.category
        entry.update({"lines": [t.caption_line, spec.end], "segments": 1, "rows": len(t.rows),
                      "header": spec.columns, "note": "Flattened in the source; reconstructed from an explicit cell "
                      f"spec checked against every line ({E['flattened']}). " + note})
        c.tables.append(entry)

    scenarios(c, tables, scen_of, lines, E)
    prose_parameters(c, lines)
    c.guidance = guidance(lines)
    audit_errata(c, lines, tables)
    return c


# Test parameters printed in prose, not in a table: scenario ids -> (key, exact text, text that locates its line).
PROSE_PARAMETERS = {
    ("dsr-relay-12vcpu", "dsr-relay-multiqueue-12vcpu", "dsr-relay-18vcpu"): [
        ("Traffic generation", "Diameter traffic is generated by an MME simulator and sent to an HSS simulator.",
         "3.2.1.1 Topology")],
    ("dsr-rbar",): [
        ("Traffic generation", "Diameter traffic is generated by an MME simulator and sent to an HSS simulator.",
         "3.2.2.1 Topology")],
    ("dsr-fabr-sds",): [
        ("SDS DB Size", "300 million routing entities (150 million MSISDNs or 150 million IMSIs)", "SDS DB Size:"),
        ("AVP Decoded", "User-Name for IMSI", "SDS DB Size:"),
        ("SDS profile (Large)", "enhances the capacity of SDS FABR database to 780 million routing entities",
         "SDS profile (Large)"),
        ("SDS profile (Large) configuration", "260 million subscribers having 2 IMSI, 1 MSISDN = 780 million routing entities",
         "260 million subscribers")],
    ("dsr-fabr-udr",): [
        ("UDR DB Size", "Tested with 40 Million records", "UDR DB Size:"),
        ("AVP Decoded", "User-Name for IMSI", "UDR DB Size:")],
}


def prose_parameters(c: Curated, lines: list[str]) -> None:
    """Add the prose test parameters to their scenarios' ``parameters`` (exact text) with a note citing the line.
    Raises CellError when a text is not found after the line it is looked for from."""
    for sids, items in PROSE_PARAMETERS.items():
        for key, text, anchor in items:
            start = find_line(lines, anchor)
            ln = next((n for n in range(start, min(start + 12, len(lines)) + 1) if text in lines[n - 1]), None)
            if ln is None:
                raise CellError(f"prose parameter {key!r}: {text!r} not within 12 lines of {anchor!r}")
            for sc in c.scenarios:
                if sc["id"] in sids:
                    sc["parameters"][key] = text
                    sc.setdefault("notes", []).append(f"Parameter '{key}' is printed in the prose (line {ln}), not in a table.")


def audit_errata(c: Curated, lines: list[str], tables: dict) -> None:
    """Defects the second reading found with no erratum; appended so earlier ids keep their numbers."""
    E = c.erratum
    # Table 3-10: the call-flow parts against the MPS per MP, with the L485 weights
    weights = find_line(lines, "MNP processing is equivalent to two messages")
    t10 = tables["3-10"]
    row2 = next(r for r in t10.rows if r.cells[0] == "SFAPP + MNP + GFLEX + GTT")
    E(scenario="dsr-vstp-sfapp-mnp-gflex-gtt", table_id="3-10", lines=[row2.line, weights], where="row 2, Call Flow Model",
      kind="arithmetic", raw=f"{row2.cells[1]}\n{row2.cells[2]}",
      problem="With the stated weights (MNP = 2 messages, SFAPP = 4) 2K MNP + 2K SFAPP + 1K GFLEX + 4K GTT is "
              "4K + 8K + 1K + 4K = 17K messages, against the printed 18K/MP (row 1, without GFLEX, gives 18K exactly).",
      action="kept-as-printed", reason="18K/MP is the data; a GFLEX weight of 2 would reconcile it, but none is printed.")
    tr = [r for r in t10.rows if r.cells[0].startswith("Tracing")]
    E(scenario="dsr-vstp-tracing-gtt", table_id="3-10", lines=[r.line for r in tr] + [weights], where="rows 'Tracing (GTT)'",
      kind="missing", raw="\n".join(f"{r.cells[1]} {r.cells[2]}" for r in tr),
      problem="9K (Tracing) and 6K (Tracing) + 6K (GTT) are both printed as 18K/MP: this holds only if a traced message "
              "counts as two, and no weight for tracing is printed (the weights line names MNP and SFAPP only).",
      action="noted", reason="The MPS per MP are kept as printed.")
    # one alarm, several wordings
    for num_ in ("19825", "19832", "22008"):
        hits = [n for n, l in enumerate(lines, 1) if l.startswith(num_ + " ")]
        texts = {lines[n - 1].strip() for n in hits}
        if len(texts) < 2:
            raise CellError(f"alarm {num_}: printed one way only")
        tids = [tid for tid, t in tables.items() if t.spec.alarms and any(r.line in hits for r in t.rows)]
        eid = E(scenario=None, table_id=None, lines=hits, where=f"alarm {num_} in Tables " + ", ".join(tids),
                kind="inconsistent-values", raw="\n".join(dict.fromkeys(lines[n - 1].strip() for n in hits)),
                problem=f"Alarm {num_} is printed {len(texts)} different ways across Tables " + ", ".join(tids)
                        + (" (severity 'Major, Critical' or 'Minor/Major/Critical'; 'configured' or 'the configured' "
                           "thresholds)" if num_ == "19825" else
                           " (description: the name repeated, with or without a period, or 'Failed transaction between "
                           "servers result in/from ...')" if num_ == "19832" else
                           " ('An answer response' or 'An Answer response')") + ".",
                action="kept-as-printed", reason="Each table keeps its own wording.")
        for row in c.rows["settings"]:
            if row["key"] == num_ and row["line"] in hits:
                row["note"] = (row["note"] + "; " if row.get("note") else "") + eid


def results(c: Curated, t: Table, scen_of: dict, E: dict, lines: list[str]) -> None:
    spec = t.spec
    tid = spec.id
    for i, r in enumerate(t.rows, 1):
        scen = scen_of[(tid, i)]
        label = r.cells[0]
        base = dict(scenario=scen, table_id=tid, row=i, line=r.line, row_label=label)

        def m(metric, value, unit, col, raw, status="ok", note=None):
            c.add("measurements", **base, site=None, subject=label, metric=metric, value=value, unit=unit,
                  qualifier="", column_label=col, raw=raw, status=status, note=note)

        def s(category, col, value, note=None):
            c.add("settings", **base, category=category, key=label, column_label=col, value=value, status="ok", note=note)

        for col, raw in zip(spec.columns[1:], r.cells[1:]):
            if col == "Call Flow Model":
                s("call-model", col, raw)
            elif col in ("DSR MPS Achieved", "DA-MP MPS Achieved"):
                for kind, v, part in mps_cell(raw):
                    if kind == "total":
                        m("mps_achieved", v, "MPS", col, raw, note=E["sds-count"] if tid == "3-5" else None)
                    else:
                        m("mps_achieved_per_da_mp", v, "MPS", col, raw,
                          note=f"Per-DA-MP rate printed in the cell as '{part}'.")
            elif col == "DSR MPS Achieved (Per DA-MP)":
                m("mps_achieved_per_da_mp", k_number(raw), "MPS", col, raw)
            elif col == "DP MPS Achieved":
                m("dp_mps_achieved", k_number(raw), "MPS", col, raw)
            elif col == "SBR MPS Achieved":
                m("sbr_mps_achieved", k_number(raw), "MPS", col, raw, note=E["pdra-sbr-mps"])
            elif col == "vSTP MPS Achieved":
                mm = re.fullmatch(rf"{K_RE}/MP", raw)
                if mm:
                    m("mps_achieved_per_ss7_mp", k_number(mm.group(1) + "K"), "MPS", col, raw)
                elif raw == "10K/SS7 (2 MPs) 20K /Proxy MP":
                    m("mps_achieved_per_ss7_mp", 10000, "MPS", col, raw, "corrected", E["home-sms"])
                    m("ss7_mp_count", 2, "count", col, raw, "corrected", E["home-sms"])
                    m("mps_achieved_per_proxy_mp", 20000, "MPS", col, raw, "corrected", E["home-sms"])
                else:
                    raise CellError(f"{tid} line {r.line}: vSTP MPS cell {raw!r}")
            elif col == "DA-MP Flavor":
                s("hardware", col, raw)
                m("da_mp_vcpu", vcpu(raw), "vCPU", col, raw)
            elif col == "SS7-MP Flavor":
                s("hardware", col, raw)
                m("ss7_mp_vcpu", vcpu(raw), "vCPU", col, raw)
            elif col == "UDR Flavor":
                s("hardware", col, raw, E["udr-flavor"])
                m("udr_vcpu", vcpu(raw), "vCPU", col, raw, "corrected", E["udr-flavor"])
            elif col == "DA-MP Profile":
                s("configuration", col, raw, E["relay-profile"] if raw == "40K_MPS_FABR" else None)
            elif col == "Avg Msg Size":
                if raw == "2.0 K":
                    m("avg_message_size", k_number("2.0K"), "bytes", col, raw, "corrected", E["msg-size"])
                else:
                    m("avg_message_size", num(raw), "bytes", col, raw, "corrected", E["msg-size"])
            elif col in ("CPU Peak", "DA-MPCPU Peak"):
                if raw.endswith("%"):
                    m("cpu_peak", percent(raw), "percent", col, raw, "corrected" if col == "DA-MPCPU Peak" else "ok", note=E["glued-header"] if col == "DA-MPCPU Peak" else None)
                else:
                    m("cpu_peak", num(raw), "percent", col, raw, "corrected", E["bare-percent"])
            elif col in ("RAM Utilization Peak", "RAM Peak"):
                if raw.endswith("%"):
                    m("ram_peak", percent(raw), "percent", col, raw)
                else:
                    m("ram_peak", num(raw), "percent", col, raw, "corrected", E["bare-percent"])
            else:
                raise CellError(f"{tid}: no mapping for column {col!r}")
        if tid in DA_MP_COUNT_TEXT:
            phrase, where = DA_MP_COUNT_TEXT[tid]
            ln = find_line(lines, where)
            cnt = int(re.fullmatch(r"on (\d+) DA-MPs", phrase).group(1))
            m("da_mp_count", cnt, "count", "Caption" if where.startswith("Table") else "Heading above the table",
              phrase.replace("on ", ""),
              note=f"Printed in line {ln} ('{where}'); applies to every row of Table {tid}.")


def alarms(c: Curated, t: Table, scen: str | None) -> None:
    for i, r in enumerate(t.rows, 1):
        for col, val in zip(t.spec.columns[1:], r.cells[1:]):
            c.add("settings", scenario=scen, table_id=t.spec.id, row=i, line=r.line, row_label=r.cells[0],
                  category="alarms", key=r.cells[0], column_label=col, value=val, status="ok")


def other(c: Curated, t: Table, scen: str | None, E: dict) -> str:
    """Configuration, profile and call-model tables. Returns the table note."""
    spec, tid = t.spec, t.spec.id
    cols = spec.columns

    def s(i, r, key, col, value, category=None, note=None):
        c.add("settings", scenario=scen, table_id=tid, row=i, line=r.line, row_label=key, category=category or spec.category,
              key=key, column_label=col, value=value, status="ok", note=note)

    def m(i, r, subject, metric, value, unit, col, raw, note=None):
        c.add("measurements", scenario=scen, table_id=tid, row=i, line=r.line, row_label=subject, site=None,
              subject=subject, metric=metric, value=value, unit=unit, qualifier="", column_label=col, raw=raw,
              status="ok", note=note)

    if tid == "3-7":
        r = t.rows[0]
        for col, v in zip(cols, r.cells):
            s(1, r, col, col, v, note="The table has one unlabelled row; key = column header.")
        return "UDR VM profile; one settings row per column."
    if tid == "3-11":
        for i, r in enumerate(t.rows, 1):
            msg = r.cells[0]
            m(i, r, msg, "message_count", num(r.cells[1]), "count", cols[1], r.cells[1])
            m(i, r, msg, "message_distribution", percent(r.cells[2]), "percent", cols[2], r.cells[2],
              E["pdra-rounding"] if r.cells[2] == "21.42%" else None)
            s(i, r, msg, cols[3], r.cells[3])
            m(i, r, msg, "traffic_details_distribution", percent(r.cells[4]), "percent", cols[4], r.cells[4])
        return ("Call model: counts and distributions in measurements.csv; the Traffic Details (PDRA options) text in "
                "settings.csv (category call-model). Two printed header lines (group + leaf) merged into 'group: leaf'.")
    if tid == "3-23":
        for i, r in enumerate(t.rows, 1):
            m(i, r, r.cells[0], "traffic_distribution", percent(r.cells[1]), "percent", cols[1], r.cells[1])
        return "Traffic mix in measurements.csv (metric traffic_distribution)."
    if tid in ("3-21", "3-22"):
        for i, r in enumerate(t.rows, 1):
            s(i, r, r.cells[0], cols[1], r.cells[1], note=E["ifee"] if "IFEE" in r.cells[0] else None)
        return "Configuration counts as printed."
    if tid in ("3-14", "3-17", "3-18"):
        # two side-by-side logical tables in one printed table
        right_head = {"3-14": (cols[2], cols[3]), "3-17": (cols[2], cols[3]), "3-18": (cols[2], cols[3])}[tid]
        sub = None
        for i, r in enumerate(t.rows, 1):
            lk, lv, rk, rv = r.cells
            if lk != "-":
                s(i, r, lk, cols[1], lv, note=E["dup-vplmn"] if lk == "VplmnORCst_Config" else None)
            if (tid, i) in SUBHEADER_RIGHT:
                sub = (rk, rv)
                continue
            if rk in (NB, "-"):
                continue
            if tid == "3-18":
                m(i, r, rk, "message_distribution", percent(rv), "percent", cols[3], rv)
            elif tid == "3-14" and sub:
                s(i, r, rk, f"{right_head[1]} ({sub[0]})", rv)
            elif tid == "3-17" and sub:
                s(i, r, rk, sub[1], rv, category="interfaces")
            else:
                s(i, r, rk, right_head[1], rv, category="interfaces" if tid == "3-17" else None)
        return {"3-14": "Two side-by-side tables (Application Configuration Data | General Options Settings, with an "
                        "'Application Threads' sub-header in the right part); empty right-hand cells produce no rows "
                        "(errata: side-by-side tables).",
                "3-17": "Two side-by-side tables (DSR Common Configuration | Rx Message originator), the right part "
                        "re-headed mid-table ('Rx Message originator Supported Message Type'); '-' padding cells produce "
                        "no rows.",
                "3-18": "Two side-by-side tables: application configuration counts (settings.csv) and the RSA message "
                        "distribution (measurements.csv, metric message_distribution); '-' padding produces no rows."}[tid]
    raise CellError(f"no mapping for table {tid}")


# --------------------------------------------------------------------------- scenarios
HARDWARE = {
    "Server": "Oracle Server X9-2",
    "CPU Model": "Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz",
    "CPUs": "2 CPUs",
    "Cores": "32 physical cores per CPU",
    "vCPUs per server": "(2 CPUs) x (32 cores per CPU) x (2 threads per core) = 128 vCPUs",
    "RAM": "768 GB",
    "HDD": "3.8 TB of NVMe storage (with Software RAID-1 configured)",
    "NIC": "Oracle Quad Port 10G Base-T Adapter",
    "Hypervisor": "QEMU-KVM Version: QEMU 6.2.0, libvirt 8.0.0, API QEMU 8.0.0",
}


def scenarios(c: Curated, tables: dict, scen_of: dict, lines: list[str], E: dict) -> None:
    for v in HARDWARE.values():
        find_line(lines, v)
    for sec, title in SECTIONS.items():
        find_line(lines, f"{sec} {title}")
    by_key = {}
    for r in c.rows["measurements"]:
        by_key.setdefault((r["scenario"], r["metric"]), r)
    sett = {}
    for r in c.rows["settings"]:
        if r["scenario"] and r["table_id"] in RESULT_TABLES:
            sett[(r["scenario"], r["column_label"])] = r["value"]
    for tid, (sec, mode, slugs) in RESULT_TABLES.items():
        t = tables[tid]
        for i, r in enumerate(t.rows, 1):
            sid = scen_of[(tid, i)]
            label = r.cells[0]
            params = {k: v for (s_, k), v in sett.items() if s_ == sid}
            total = by_key.get((sid, "mps_achieved")) or by_key.get((sid, "sbr_mps_achieved"))
            mps_col = next(col for col in t.spec.columns if "MPS Achieved" in col and col != "DP MPS Achieved")
            raw_mps = r.cells[t.spec.columns.index(mps_col)]
            notes = []
            if total:
                load = {"total": total["value"], "per_site": None, "unit": "MPS", "raw": raw_mps}
            else:
                load = {"total": None, "per_site": None, "unit": "MPS", "raw": raw_mps}
                notes.append(f"Load is printed per MP only ('{raw_mps}'); no total is printed.")
            load["cite"] = {"text": raw_mps, "table_id": tid, "line": r.line, "where": f"Table {tid}, row {i} '{label}', "
                            f"column '{mps_col}'"}
            cnt = by_key.get((sid, "da_mp_count"))
            if cnt:
                params["DA-MP count"] = cnt["raw"]
            if tid == "3-12":
                notes.append("Load is the 'SBR MPS Achieved' column; the prose (L490) says the benchmarked metric is "
                             "the MPS rate seen at the DA-MPs (errata).")
            if tid == "3-5":
                notes.append("DP MPS Achieved 80K; DA-MP MPS Achieved 160K; the number of DA-MPs is not printed.")
            sc = {"id": sid, "doc": DOC, "section": sec, "title": SECTIONS[sec],
                  "short_title": label if len(slugs) == 1 else f"{label} | {params.get('DA-MP Flavor') or params.get('SS7-MP Flavor')}"
                  + (f" | {params['DA-MP Profile']}" if 'DA-MP Profile' in params else ""),
                  "deployment_mode": mode, "release": None, "sites_provisioned": None, "load": load,
                  "asm": "not_applicable", "asm_note": "VM-based DSR on KVM/QEMU; no service mesh.",
                  "duration": None,
                  "call_mix": {"raw": params.get("Call Flow Model", ""),
                               "cite": {"text": params.get("Call Flow Model", ""), "table_id": tid, "line": r.line,
                                        "where": f"Table {tid}, row {i}, column 'Call Flow Model'"}},
                  "hardware": dict(HARDWARE),
                  "parameters": params,
                  "tables": SECTION_TABLES[sec]}
            if tid == "3-15":
                sc["contradictions"] = [{
                    "field": "load", "summary": "The note says a ComAgent error appears above 1.7k call rate per MP; "
                    "the table reports 5.25K-10K MPS per DA-MP (probably call rate vs message rate; unexplained).",
                    "versions": [{"text": "if the call rate is more than 1.7k in each MP DSA", "table_id": None,
                                  "line": find_line(lines, "if the call rate is more than 1.7k in each MP DSA"),
                                  "where": "note in 3.2.7"},
                                 {"text": raw_mps, "table_id": tid, "line": r.line, "where": f"Table {tid}, row {i}"}],
                    "erratum": E["dsa-note"]}]
            if tid == "3-1":
                sc["contradictions"] = [{
                    "field": "load", "summary": "The section says it illustrates an overload of a DA-MP, while CPU Peak "
                    "stays at 19-36%.",
                    "versions": [{"text": "This benchmarking case illustrates conditions for an overload of a DSR DA MP.",
                                  "table_id": None, "line": find_line(lines, "conditions for an overload of a DSR DA MP"),
                                  "where": "prose 3.2.1"},
                                 {"text": r.cells[6], "table_id": tid, "line": r.line,
                                  "where": f"Table {tid}, row {i}, CPU Peak"}],
                    "erratum": E["overload"]}]
            if notes:
                sc["notes"] = notes
            c.scenarios.append(sc)


# --------------------------------------------------------------------------- guidance
GUIDANCE = [
    # (topic, setting, rationale, exact quote)
    ("hyper-threading", "Enable Hyper-Threading with a 1:1 vCPU subscription ratio in the hypervisor.",
     "All benchmarks ran this way; it is the recommended configuration.",
     "The recommended configuration is: Hyper-Threading is enabled with 1:1 CPU subscription ratio."),
    ("cpu-over-subscription", "Do not over-subscribe vCPUs (for instance 4:1).",
     "Not only is the performance lower, but it makes the performance more dependent on the other loads running on "
     "each physical server.",
     "It is not recommended to use over-subscribed vCPUs (for instance 4:1) in the hypervisor."),
    ("hyper-threading", "Do not turn Hyper-Threading off.",
     "A VM gains a little per vCPU without Hyper-Threading, but the number of vCPUs per processor halves, so the "
     "overall throughput for each server also drops almost by half.",
     "Turning off Hyper-Threading is also not recommended."),
    ("cpu-capacity", "Count 128 vCPUs per benchmarked server (2 CPUs x 32 cores x 2 threads).",
     "The benchmark servers were dual-processor Oracle X9-2 with 32 physical cores each and Hyper-Threading.",
     "(2 CPUs) x (32 cores per CPU) x (2 threads per core) = 128 vCPUs"),
    ("numa", "Size VMs to fit within a single NUMA node (9 physical cores for an 18-vCPU VM).",
     "Splitting a VM across NUMA nodes greatly reduces the performance of that VM; the largest VM is 18 vCPUs, so the "
     "smallest processor that should be used is a 9-core processor.",
     "The selected VM sizes should fit within a single NUMA node, for instance 9 physical cores for the VMs that "
     "required 18 vCPUs."),
    ("cpu-technology", "Compare a different CPU with the benchmarked one by per-thread integer performance "
     "(SPECint2006), not clock speed.",
     "The per-thread performance of a CPU is the main attribute that determines VM performance; CPU clock speeds are a "
     "relatively poor indicator of relative CPU performance.",
     "Check the performance of the target CPU type against the benchmarked CPU using per-thread integer performance "
     "metrics."),
    ("cpu-technology", "With very high core-count CPUs, watch contention for shared server resources (network "
     "interfaces, ephemeral storage).",
     "No such bottlenecks were seen on 32-core chips running only DSR VMs; other applications' VMs or higher core "
     "counts may cause them.",
     "This potential contention for shared server resources has to be watched closely."),
    ("vm-packing", "Do not rely on CPU pinning; VM placement follows the affinity/anti-affinity rules.",
     "The DSR does not require or use CPU pinning, so packing is left to the cloud manager.",
     "The DSR doesn’t require or use CPU pinning."),
    ("vm-packing", "Plan physical servers at a packing ratio of 80%.",
     "A packing ratio of 100% is hard to achieve and may affect the performance numbers shown in the benchmarks.",
     "When planning for physical server capacity a packing ratio of 80% is a good guideline."),
    ("vm-packing", "Keep the packing ratio at 95% or lower.",
     "Above 95% there are not sufficient server resources to handle the overhead of the host OSs (e.g. interrupt "
     "handling).",
     "Packing ratios of greater than 95% might affect the benchmark numbers since there aren’t sufficient server "
     "resources to handle the overhead of Host OSs."),
    ("infrastructure-tuning", "Set Txqueuelen to 120000 on the compute hosts (default 500).",
     "This increases the network throughput of a VM.",
     "Txqueuelen: The default of 500 is too small. Recommendation is to set this parameter to 120000."),
    ("infrastructure-tuning", "Set the ring buffer of the physical Ethernet interfaces to 4096 for both receive and "
     "transmit.", "The default is too small.",
     "The recommendation is to set both receive and transmit values to 4096."),
    ("infrastructure-tuning", "Enable Multiqueue on any IPFE VMs.", "To improve performance.",
     "Multiqueue: Multiqueue should be enabled on any IPFE VMs to improve performance."),
    ("kvm-device-drivers", "Use the VirtIO driver (used in the test bed).",
     "Guests get high performance network and disk operations and most of the benefits of para-virtualization.",
     "The VirtIO driver was used for Test Bed setting."),
    ("kvm-bios", "Set BIOS power to Allocated Power or the vendor's equivalent.",
     "Test bed setting among the three typical BIOS power options.",
     "Set to Allocated Power or equivalent for your Hardware vendor."),
    ("kvm-disk-format", "Use the QCOW2 disk image format (test bed setting).",
     "QCOW2 expands dynamically and supports copy-on-write and snapshots.", "Test Bed Setting: QCOW2"),
    ("kvm-caching", "Set the guest caching mode to Writeback (test bed setting).",
     "Good guest I/O performance, but data is not protected in a power failure; caching mode None is recommended for "
     "remote NFS storage and is the only option supporting migration.",
     "For Test Bed Setting, set Caching Mode to Writeback."),
    ("kvm-memory", "Set vm.swappiness to 10.",
     "This value is recommended to improve performance when sufficient memory exists in a system.",
     "For Test Bed Setting, set vm.swappiness to 10."),
    ("kvm-memory", "Activate the KSM service and run ksmtuned on KVM hosts.",
     "KSM shares identical guest memory pages, reducing memory usage and cache misses.",
     "For Test Bed Setting, set KSM service to active and ensure ksmtuned service running on KVM hosts."),
    ("kvm-memory", "Disable zone reclaim.",
     "Huge pages and KSM both cause zone reclaim, which can decrease performance in KVM environments.",
     "For Test Bed Setting, disable zone reclaim."),
    ("kvm-memory", "Enable Transparent Huge Pages.",
     "THP automatically optimizes system settings for performance.", "For Test Bed Setting, enable THP."),
    ("da-mp-relay-tuning", "Set DOC/CL1/CL2 discards to 0 and enable multi-queuing on all hosts to raise DA-MP CPU "
     "utilization (the 576K relay run of Table 3-1).",
     "All discards then happen at one step, CL3, for all incoming and outgoing messages.",
     "The dsr.cpu utilization can be further increased to higher levels by means of configuration changes with "
     "DOC/CL1/CL2 discards set to 0 and multi-queuing enabled on all hosts."),
    ("vstp-timers", "Update t1Timer to t5Timer when vSTP runs at 20K MPS per MP; default timers suit 10K MPS per MP.",
     "Default timer values are supported when vSTP is configured to operate at 10K MPS for each MP.",
     "When vSTP is configured to operate at 20K MPS, then the t1Timer to t5Timer values has to be updated."),
    ("vstp-message-weights", "Count MNP as two messages and SFAPP as four when sizing vSTP.",
     "As stated in the vSTP notes.",
     "MNP processing is equivalent to two messages and SFAPP processing is equivalent to four messages."),
    ("dsa-comagent", "Before DSA performance traffic, set ComAgent 'IntraNe Maximum Timeout Value' to 400 and "
     "'Maximum Number Of Retries' to 3 from the active DSR NOAM.",
     "Above 1.7k call rate per MP, UDR record creation fails because ComAgent connections time out (TTL expired).",
     "To avoid this, run the following commands from Active DSR NOAM before running performance traffic:"),
    ("pdra-sbr-sizing", "Size SBR server groups by the MPS at the DA-MPs and by bindings/sessions: at most 16 million "
     "per SBR.", "Session or binding capacity is set primarily by the memory sizing of the VM.",
     "is fixed at a maximum of 16 million per SBR from the DSR 8.3 release"),
    ("pdra-sbr-sizing", "Assume bindings = subscribers supported by the PCRFs.",
     "A good starting place for engineering.",
     "The number of bindings is equal to the number of subscribers supported by the PCRFs."),
    # added after the first curation: appended so earlier ids keep their numbers
    ("pdra-sbr-sizing", "Count sessions as subscribers x IPCAN sessions per subscriber on average.",
     "A subscriber might have one IPCAN session for LTE and one for VoLTE.",
     "The number of sessions is equal to number of subscribers times the number of IPCAN sessions required on average "
     "for each subscriber."),
    ("pdra-sbr-sizing", "Expect at least as many sessions as bindings.", "As stated for PDRA sizing.",
     "The number of sessions is equal to or greater than the number of bindings."),
    ("kvm-device-drivers", "vhost-net gives better network performance than Virtio-net.",
     "It bypasses QEMU as a fast path for interruptions and runs as a kernel thread: near native performance.",
     "The advantages of using the vhost-net approach are reduced copy operations, lower latency, and lower CPU usage."),
    ("planning-procedure", "1. Get an initial estimate of the DSR virtual servers and resources from the DSR Cloud "
     "Dimensioning tool.", "The tool models MPS per Diameter application, DSR applications and features, redundancy "
     "and infrastructure, and recommends a number of VMs per type.",
     "Use the DSR Cloud Dimensioning tool to get an estimate of the types of DSR virtual servers needed"),
    ("planning-procedure", "2. Decide from the deployment scenario whether more benchmarking is warranted.",
     "Labs and trials need none; different hardware can be estimated with industry metrics; the operator decides.",
     "Based on the initial deployment scenario, determine if additional benchmarking is warranted"),
    ("planning-procedure", "3. If required, benchmark on the target cloud only the DSR server types the deployment "
     "needs.", "For example, without full address resolution the SDS, SDS SOAM and DPs need no benchmark.",
     "Perform benchmark only on those types of DSR servers required for the deployment."),
    ("planning-procedure", "4. Where a function was estimated at X and observed at Y, use Y, and re-calculate the "
     "resources.", "The benchmark replaces the tool's baseline for that function.",
     "If the performance estimate for a given DSR function is X and the observed performance is Y, then adjust the "
     "performance for that DSR function to Y."),
    ("planning-procedure", "5. Deploy the DSR, then monitor performance and capacity and add resources as the network "
     "changes.", "The DSR can be grown or shrunk to meet changing needs.",
     "Monitor the DSR performance and capacity as described later in the document."),
]


def guidance(lines: list[str]) -> list[dict]:
    out = []
    for n, (topic, setting, rationale, quote) in enumerate(GUIDANCE, 1):
        ln = find_line(lines, quote)
        out.append({"id": f"dsr-G{n:02d}", "topic": topic, "setting": setting, "rationale": rationale,
                    "cite": {"text": quote, "line": ln, "section": section_of(lines, ln)}})
    return out


# --------------------------------------------------------------------------- errata
def errata(c: Curated, lines: list[str]) -> dict:
    """Record every source defect; returns short keys -> erratum ids for row notes."""
    ids: dict[str, str] = {}

    def E(key, raw, lines_, **kw):
        # the raw text (its first 40 characters) must stand on the first listed line
        if kw.get("check", True) and raw[:40] not in lines[lines_[0] - 1]:
            raise CellError(f"erratum {key}: {raw!r} not on line {lines_[0]}")
        kw.pop("check", None)
        ids[key] = c.erratum(raw=raw, lines=lines_, **kw)

    R = "dsr-relay-12vcpu"
    E("flattened", "Relay 100% Relay 288K", [256], scenario=None, table_id=None, where="all 25 tables", kind="format",
      problem="Every table is flattened: the header is one space-joined line, cells are joined by spaces and wrap "
              "across blank lines; no delimiters (e.g. '12 vCPU' / blank / '(Regular)').",
      action="read-as", reading="cells reconstructed per explicit spec in curation/dsr.py",
      reason="Each row's physical lines, joined by single spaces, must equal its spec cells joined by single spaces; "
             "curation fails otherwise.")
    E("glued-header", "DA-MPCPU Peak", [532], scenario=None, table_id="3-12", where="header, 7th column",
      kind="format", problem="'DA-MP' and 'CPU Peak' are glued.", action="read-as", reading="DA-MP CPU Peak",
      reason="Same position as 'CPU Peak' in the sibling tables; column_label is kept as printed, metric cpu_peak.")
    E("statelss", "Stateful and Statelss Counter Measures", [589], scenario=None, table_id="3-14", where="caption",
      kind="typo", problem="'Statelss' for 'Stateless'.", action="kept-as-printed")
    E("cal-model", "RSA Test Cal Model", [730], scenario=None, table_id="3-17", where="floating heading above Table 3-17",
      kind="typo", problem="'Cal' for 'Call'.", action="kept-as-printed")
    E("messsage", "Messsage Flow", [719], scenario=None, table_id=None, where="alt text of Figure 3-13", kind="typo",
      problem="'Messsage' for 'Message'.", action="noted")
    E("sh-lookup", "SH lookup", [724], scenario=None, table_id=None, where="alt text of Figure 3-14 (caption 'Sh lookup', L721)",
      kind="typo", problem="'SH lookup' vs caption 'Sh lookup'.", action="noted")
    typos = [
        ("drs", "for an DRS", 97, "'an DRS' for 'a DSR'."),
        ("sbr-g", "SBR-s or SBR-g server groups", 490, "'SBR-g' for 'SBR-b' (binding SBR)."),
        ("ifee", "Number of IFEE 2", 813, "'IFEE' for 'IPFE'."),
        ("multique", "Multique enable", 262, "'Multique' for 'Multiqueue' (in Table 3-1, row 2 scenario label)."),
        ("by-passing", "by passing QEMU", 133, "'by passing' for 'bypassing'."),
        ("is-a-few", "Here is a few things", 38, "Agreement: 'Here is a few things'."),
        ("does-give", "Servers with different processors does give different results", 78, "Agreement: 'processors does'."),
        ("specint", "SPECint2006ratios", 81, "Missing space: 'SPECint2006 ratios'."),
        ("vmpacking", "VMPacking Ratio", 95, "Missing space: 'VM Packing Ratio'."),
        ("specially", "specially in WLAN networks", 775, "'specially' for 'especially'."),
        ("is-including", "is including the DSR Cloud Installation Guide", 103, "'is including' for 'are included in'."),
        ("is-oracles", "The message distribution is Oracle’s baseline benchmarking may differ", 511,
         "'is' for 'in': the distribution in Oracle's baseline benchmarking may differ."),
        ("no-verb", "The following stateful and stateless counter measure application configuration and the modes of "
         "operations used in benchmarking tests.", 587, "Sentence without a verb."),
        ("stray-brace", "Communication Agent Reliable Transaction Failed}  .. GN_INFO/INF", 625,
         "Stray '}' and double space in a quoted error text."),
        ("intrane", "IntraNe Maximum Timeout Value", 627, "'IntraNe' is probably 'IntraNE' (kept: it is a CLI parameter name)."),
    ]
    for key, raw, ln, prob in typos:
        sc = {"ifee": None, "multique": R.replace("12vcpu", "multiqueue-12vcpu")}.get(key)
        tid = {"ifee": "3-22", "multique": "3-1"}.get(key)
        extra = {"reading": "Number of IPFE", "reason": "IPFE is the DSR IP front end; key kept as printed, service "
                 "alias IFEE -> IPFE."} if key == "ifee" else {}
        E(key, raw, [ln], scenario=sc, table_id=tid, where=section_of(lines, ln) if not tid else f"Table {tid}",
          kind="typo", problem=prob, action="kept-as-printed" if tid else "noted", **extra)
    E("packing-def", "The ratio of the allocated to the unallocated vCPUs is the VMPacking Ratio.", [95], scenario=None,
      table_id=None, where="3.1.1.2 VM Packing Rate", kind="contradiction",
      problem="The definition says allocated/unallocated, but the example (102 of 128 vCPUs allocated -> ~80%) is "
              "allocated/total; allocated/unallocated would be 102/26.", action="read-as",
      reading="packing ratio = allocated vCPUs / total vCPUs", reason="The worked example and the 80%/95% guidance only "
              "make sense as a share of the total.")
    E("server-cpu", "The CPUs in the servers used for the benchmarking were the Oracle X9-2.", [78], scenario=None,
      table_id=None, where="CPU Technology", kind="name", problem="X9-2 is the server; the CPU is the Intel Xeon "
      "Platinum 8358 (L120).", action="noted")
    E("nic-nesting", "Oracle Quad Port 10G Base-T Adapter", [125, 126], scenario=None, table_id=None,
      where="3.1.2 Host Hardware bullets", kind="format", check=False,
      problem="'NIC' and 'Oracle Quad Port 10G Base-T Adapter' stand as sibling bullets; the adapter is the NIC.",
      action="read-as", reading="NIC: Oracle Quad Port 10G Base-T Adapter", reason="Nesting lost in extraction.")
    E("hypervisor", "under the control of OpenStack", [95, 114], scenario=None, table_id=None,
      where="3.1.1.2 vs 3.1.2 heading", kind="contradiction", check=False,
      problem="The environment is 'KVM (QEMU)/Oracle X9-2' (L114) but VM packing is said to be under the control of "
              "OpenStack (L95); 'API QEMU 8.0.0' (L128) is unclear next to QEMU 6.2.0.", action="noted")
    E("relay-profile", "40K_MPS_FABR", [267], scenario="dsr-relay-multiqueue-12vcpu", table_id="3-1",
      where="row 2, DA-MP Profile", kind="inconsistent-values",
      problem="A FABR profile name for a 100% Relay run.", action="kept-as-printed")
    E("relay-per-mp", "576K", [262], scenario="dsr-relay-multiqueue-12vcpu", table_id="3-1",
      where="row 2, DSR MPS Achieved", kind="other",
      problem="576K on 16 DA-MPs is 36K per DA-MP, above the 30K_MPS profile family; consistent only with the "
              "row's 40K_MPS_FABR profile.", action="noted")
    E("vstp-copies", "5K MNP + 10K GTT", [459, 460, 461, 462], scenario=None, table_id="3-10",
      where="rows 3-6, Call Flow Model", kind="duplicate",
      problem="TIF + GTT, vMNP + GTT, GFLEX + GTT and INPQ + GTT all print '5K MNP + 10K GTT' (suspicious for GFLEX, "
              "TIF, INPQ: probable copy-paste). The call-flow figures sum to the MPS achieved only with the L485 "
              "weights (MNP = 2 messages, SFAPP = 4).", action="kept-as-printed")
    E("boundary", "GTT + MTP Routing with MTP screening (M2PA & M3UA) 16K MPS", [463, 469, 758], scenario=None,
      table_id="3-10", where="Table 3-10 rows 7 and 13; Table 3-19 row 1", kind="format", check=False,
      problem="Where the Scenario cell ends and the Call Flow Model begins is not marked.", action="read-as",
      reading="'GTT + MTP Routing with MTP screening (M2PA & M3UA)' | '16K MPS'; 'vSTP – Home SMS MO-FSM' | "
              "'AllowList + BlockList Traffic (10K + 10K)'; 'Use Case (A+B) scenario with 27% of the traffic having "
              "Sh_lookup' | 'Use Case (A + B)'",
      reason="Each split follows the pattern of the neighbouring rows (scenario = feature list, call flow = traffic "
             "figures).")
    E("pdra-group", "Single Server group", [544, 546], scenario="dsr-pdra-4-sbr-s-4-sbr-b", table_id="3-12",
      where="row 2, Scenario", kind="other", check=False,
      problem="'Single Server group (4 SBR(s), 4 SBR(b))': same label as the 1+1 row; whether 1 or 4 server groups "
              "is unclear.", action="kept-as-printed")
    E("pdra-rounding", "21.42%", [523, 525], scenario=None, table_id="3-11", where="rows 2 and 4, Distribution",
      kind="arithmetic", problem="3/14 = 21.43%; the column sums to 99.99%.", action="kept-as-printed")
    E("dup-vplmn", "VplmnORCst_Config 1", [605, 609], scenario=None, table_id="3-14",
      where="rows 13 and 17, Table Name", kind="duplicate", problem="The same configuration table is listed twice.",
      action="kept-as-printed", reason="Both rows are kept with their own row numbers.")
    E("side-by-side", "No of MCPTT Client Connections 16 Rx Message originator Supported Message Type", [738, 601, 751],
      scenario=None, table_id="3-17", where="Tables 3-14, 3-17, 3-18", kind="format", check=False,
      problem="Two logical tables printed side by side in one table: 3-14 (with an 'Application Threads' sub-header, "
              "L601), 3-17 (right part re-headed mid-table, L738), 3-18 (left part padded with '- -', L751).",
      action="read-as", reading="each part curated under its own column headers; padding cells ('-' or no-break "
      "spaces) produce no rows", reason="The padding cells are layout, not values.")
    E("dsa-note", "if the call rate is more than 1.7k in each MP DSA", [622], scenario=None, table_id="3-15",
      where="note before Table 3-15", kind="contradiction",
      problem="The note gives an error above 1.7k call rate per MP, yet Table 3-15 reports 5.25K-10K MPS per DA-MP; "
              "probably call rate vs message rate, unexplained.", action="noted")
    E("dsa-drop", "All Stateful 15% Vulnerable and 85% Non Vulnerable traffic 7.02K", [669, 675], scenario=None,
      table_id="3-15", where="rows 7-8", kind="inconsistent-values", check=False,
      problem="'All Stateful' and 'All Stateful + All stateless' show lower CPU (15%, 14%) and RAM (30%, 31%) than "
              "single counter-measure rows (29-39% CPU, 62-63% RAM) at lower MPS.", action="kept-as-printed")
    E("overload", "This benchmarking case illustrates conditions for an overload of a DSR DA MP.", [232],
      scenario="dsr-relay-12vcpu", table_id="3-1", where="3.2.1 prose vs Table 3-1 CPU Peak", kind="contradiction",
      problem="An 'overload' case with CPU Peak 19% at 288K (alarms 22201/22221 listed); saturation cannot be inferred "
              "from CPU.", action="noted")
    E("sds-count", "SDS DP Performance Benchmarking using one SDS DP", [366], scenario="dsr-fabr-sds", table_id="3-5",
      where="caption", kind="missing", problem="The number of DA-MPs is not printed; DA-MP MPS Achieved 160K is twice "
      "DP MPS Achieved 80K without explanation.", action="noted",
      reason="No da_mp_count row for 3-5; a per-DA-MP rate cannot be derived.")
    E("msg-size", "2.0 K", [261, 374, 542, 552, 758, 832], scenario=None, table_id=None, check=False,
      where="column 'Avg Msg Size' of Tables 3-1, 3-3, 3-5, 3-8, 3-12, 3-15, 3-19, 3-24", kind="unit",
      problem="No unit printed; values are '2.0 K' or bare '400', '600', '648'.", action="read-as",
      reading="bytes; '2.0 K' = 2000 bytes (status corrected)",
      reason="Average Diameter message sizes; K read as thousand as in the MPS columns ('288K'). If K meant 1024 the "
             "value would be 2048 bytes.")
    E("bare-percent", "22 55", [457], scenario=None, table_id="3-10", where="columns 'CPU Peak' and 'RAM Peak', all rows",
      kind="unit", problem="Bare numbers without '%'.", action="read-as", reading="percent",
      reason="The same columns print '%' in every other table.")
    E("server-case", "Number Severity server Name Description", [686], scenario=None, table_id="3-16", where="header",
      kind="format", problem="'server' in lower case; 'Server' elsewhere.", action="kept-as-printed")
    E("floating", "RSA Performance Benchmarking on 2 DA-MPs DSR Setup", [753], scenario="dsr-rsa", table_id="3-19",
      where="heading above Table 3-19", kind="format",
      problem="3.2.7-3.2.9 use unnumbered headings; the DA-MP count of Table 3-19 is in a floating heading, not in "
              "its caption 'RSA Performance Benchmarking'.", action="read-as", reading="2 DA-MPs for Table 3-19",
      reason="Also printed as 'No of DAMP's 2' in Table 3-17.")
    E("future", "will be implemented using DCA framework", [695], scenario="dsr-rsa", table_id=None, where="3.2.8 prose",
      kind="other", problem="Future tense for a benchmarked application.", action="noted")
    for key, raw, ln, problem in [
            ("frag34", "These recommendations are just guidelines. Since the actual performance", 34,
             "Sentence fragment: 'Since the actual performance of the DSR can vary significantly ...' is a subordinate "
             "clause printed as a sentence, with no main clause."),
            ("frag88", "In clouds with VMs from other applications potentially running", 88,
             "Sentence fragment: 'In clouds with VMs from other applications ... much higher core counts.' has no verb."),
            ("frag97", "While performing functions such as interrupt handling, a packing ratio of 95%", 97,
             "Dangling modifier: 'While performing functions such as interrupt handling' has no subject of its own, so "
             "the sentence says the packing ratio performs them.")]:
        E(key, raw, [ln], scenario=None, table_id=None, where=section_of(lines, ln), kind="other", problem=problem, action="noted")
    E("alarm-order", "5002 Critical IPFE", [768, 387, 560, 839], scenario=None, table_id="3-20", check=False,
      where="alarm tables", kind="format",
      problem="Table 3-20 lists 22008, 33318, 33430 before 5002-5012; descriptions end with or without a period "
              "(19832 in 3-6 vs 3-13; the last line of the file has none).", action="kept-as-printed")
    E("figures", "Figure 3-1 DA-MP Relay Testing Topology", [237], scenario=None, table_id=None,
      where="Figures 3-1 to 3-15", kind="missing",
      problem="All 15 figures (topologies, message sequences) are lost; only captions and alt text remain; "
              "Figures 3-12 and 3-15 are both captioned 'Topology'.", action="noted")
    E("eof", "22221 Minor DA-MP Routing MPS Rate", [839], scenario="dsr-radius-diameter", table_id="3-25",
      where="last line of the file", kind="format",
      problem="The file ends without a newline; the last row of Table 3-25 is an unterminated line.", action="noted",
      reason="Read (read_lines keeps an unterminated last line).")
    E("pdra-sbr-mps", "SBR MPS Achieved", [532, 490], scenario=None, table_id="3-12", check=False,
      where="Table 3-12 header vs 3.2.6 prose", kind="contradiction",
      problem="The column is 'SBR MPS Achieved', while the prose says the benchmarked metric is 'the MPS traffic rate "
              "seen at the DA-MPs'.", action="kept-as-printed",
      reason="Stored as metric sbr_mps_achieved; whether it equals the DA-MP MPS is not stated.")
    E("home-sms", "10K/SS7", [471, 473, 475], scenario="dsr-vstp-home-sms-mo-fsm", table_id="3-10",
      where="row 13, vSTP MPS Achieved", kind="format", check=False,
      problem="The cell '10K/SS7 (2 MPs) 20K /Proxy MP' spans four lines and mixes two rates (and a space before "
              "'/Proxy').", action="read-as",
      reading="10K MPS per SS7-MP on 2 MPs (metric mps_achieved_per_ss7_mp, ss7_mp_count 2) and 20K MPS per proxy MP "
              "(metric mps_achieved_per_proxy_mp)", reason="Reading of the printed tokens; no total is printed.")
    E("udr-flavor", "18vCPU", [638], scenario=None, table_id="3-15", where="column 'UDR Flavor', all rows",
      kind="format", problem="No space between 18 and vCPU.", action="read-as", reading="18 vCPU",
      reason="Matches the UDR profile of Table 3-7 (vCPU 18).")
    E("nbsp", "MCC_MNC_List 11", [597, 618], scenario=None, table_id="3-14", where="right-hand empty cells", kind="format",
      problem="Empty cells are printed as space + no-break space pairs.", action="read-as", reading="empty",
      reason="Padding of the shorter side-by-side table; no rows produced.")
    E("pdra-header", "Messages Traffic Details", [515, 516], scenario=None, table_id="3-11", where="header", kind="format",
      check=False, problem="Two header lines: group headers 'Messages' and 'Traffic Details' over the leaf line "
      "'Message Count Distribution Message Distribution' (Message and Distribution each appear twice).",
      action="read-as", reading="'Messages: Message', 'Messages: Count', 'Messages: Distribution', "
      "'Traffic Details: Message', 'Traffic Details: Distribution'", reason="Group spans as in the printed layout.")
    E("alarm-split", "19814 Info DA-MP Communication Agent Peer has not responded to heartbeat", [380, 558, 566],
      scenario=None, table_id="3-6", where="Name/Description boundary in all alarm tables", kind="format", check=False,
      problem="Name and Description are both free text with no delimiter; some descriptions repeat the name "
              "(19814, 19832, 22716).", action="read-as",
      reading="Name as the Oracle alarm name pinned per alarm in the spec; the rest of the line is the Description",
      reason="The same name is used for an alarm number in every table it appears in.")
    return ids


def curate() -> Curated:
    return build()
