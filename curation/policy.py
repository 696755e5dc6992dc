"""Curate the Oracle Converged Policy (PCF/PCRF) Benchmarking Guide, chapter 3 (seed 000) into data/policy/.

Run: ``python -m curation policy``.

The 61 resource-allocation and 48 utilization tables are curated by
``curation.policy_resources.curate_tables`` (imported defensively); this module
curates every other table (call models, test parameters, features, interfaces,
Helm/cnDBTier parameters, hardware, software, results, latency), the 24
scenario records and the errata of those tables and of the scenario facts.
Every reading that is not the literal text is recorded in errata.yaml.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from decimal import Decimal

from .common import (CellError, Curated, k_number, num, percent, printed_counts, seed_path, site_from_label,
                     table_entry)
from .pipetables import read_lines, segment
from .provenance import mark_readings

DOC = "policy"

# Uncaptioned tables: the table number they probably lost (curation notes, 4.2).
LOST_NUMBER = {
    "U-3.2.5.1-1": "probably Table 3-108 (the number 3-108 never appears and this table stands where it would)",
    "U-3.2.6.1-1": "no number is missing here (3-120 is followed by 3-121); the table was never numbered",
    "U-3.3.1.1-1": "no number is missing here; the table was never numbered",
    "U-3.3.1.1-2": "no number is missing here; the table was never numbered",
    "U-3.3.2.1-1": "possibly Table 3-189 (3-189 never appears; it belongs to this table or to U-3.3.2.1-2)",
    "U-3.3.2.1-2": "possibly Table 3-189 (3-189 never appears; it belongs to this table or to U-3.3.2.1-1)",
    "U-3.4.1.1-1": "probably Table 3-197 (the number 3-197 never appears)",
    "U-3.4.2.1-1": "probably Table 3-206 (the number 3-206 never appears)",
    "U-3.4.3.1-1": "probably Table 3-215 (the number 3-215 never appears)",
    "U-3.5.1.1-1": "no number is missing here; the table was never numbered",
    "U-3.5.2.1-1": "no number is missing here; the table was never numbered",
    "U-3.6.1.1-1": "no number is missing here; the table was never numbered",
}
MISSING_NUMBERS = ["3-32", "3-42", "3-85", "3-96", "3-108", "3-144", "3-154", "3-189", "3-197", "3-206", "3-215", "3-224"]
RESOURCE_IDS = {"3-48", "3-49"}  # resource tables whose captions ('PCRF', 'UDR') do not say so


# ---------------------------------------------------------------- helpers
def scenario_of(t) -> str | None:
    """'policy-3-2-5' for a table under 3.2.5.x; None for the 3.2 preamble (Table 3-61)."""
    sec = t.section if hasattr(t, "section") else t
    if not sec:
        return None
    parts = sec.split(".")
    if len(parts) < 3:
        return None
    return "policy-" + "-".join(parts[:3])


@dataclass
class LRow:
    """One logical row: cells merged from one to three physical lines."""

    line: int
    cells: list[str]
    lines: list[int] = field(default_factory=list)
    label_only: bool = False
    text: str = ""

    @property
    def split(self) -> bool:
        return len(self.lines) > 1


def logical_rows(t) -> list[LRow]:
    """Merge rows split over several physical lines.

    - a lone '|' line closes the previous row: it adds an empty cell, or, after a
      label printed alone on its line, just ends the label cell (Table 3-173);
    - a row holding only its label ('Traffic Ratio |') takes the next line's
      cell as its value (Table 3-97).
    """
    width = len(t.header)
    out: list[LRow] = []
    for r in t.rows:
        text = r.text.strip()
        prev = out[-1] if out else None
        if text == "|" and prev is not None:
            prev.lines.append(r.line)
            prev.text += "\n" + text
            if prev.label_only:
                prev.label_only = False
            else:
                prev.cells.append("")
            continue
        if "|" not in text:
            out.append(LRow(r.line, [text], [r.line], label_only=True, text=text))
            continue
        if (prev is not None and not prev.label_only and len(prev.cells) == 1 and prev.split is False
                and len(r.cells) + 1 <= width and len(r.cells) < width and _awaits_value(prev, t)):
            prev.cells.extend(r.cells)
            prev.lines.append(r.line)
            prev.text += "\n" + text
            continue
        if prev is not None and prev.split and len(prev.cells) == 1 and not prev.label_only and len(r.cells) == 1:
            # after 'label' + '|' (label-only case) the value line follows
            prev.cells.extend(r.cells)
            prev.lines.append(r.line)
            prev.text += "\n" + text
            continue
        out.append(LRow(r.line, list(r.cells), [r.line], text=text))
    return out


def _awaits_value(prev: LRow, t) -> bool:
    """A one-cell row in a two-column key/value table is waiting for its value."""
    return len(t.header) == 2 and len(prev.cells) == 1


def dec(text: str) -> Decimal:
    return Decimal(text.strip().replace(",", ""))


def clean(d: Decimal):
    d = d.normalize()
    if d == d.to_integral_value():
        return int(d)
    return float(d)


def ms_from_s(text: str):
    """'0.01588' (seconds) -> 15.88 (ms), exactly."""
    num(text)  # validates
    return clean(dec(text) * 1000)


def fmt(d: Decimal) -> str:
    d = d.normalize()
    return format(d, "f")


# ---------------------------------------------------------------- classify
def classify(t) -> tuple[str, str] | None:
    """(kind, category) for the tables curated here; None for resource/utilization tables."""
    cap = (t.caption or "").lower()
    tid = t.id
    if tid in RESOURCE_IDS or "resource" in cap or "utiliz" in cap:
        return None
    if tid == "3-11":
        return "measurements", "results-summary"
    if "latency" in cap:
        return "latency", "latency"
    if "hardware" in cap:
        return "settings", "hardware"
    if "software" in cap:
        return "settings", "software"
    if "interface" in cap or "inteface" in cap:
        return "settings", "interfaces"
    if "helm" in cap or "optimization param" in cap:
        return "settings", "db-parameters" if ("cndbtier" in cap) else "helm"
    if "configuration" in cap:
        return "settings", "features"
    if "parmeters" in cap or "parameters" in cap or (t.caption is None and t.header[:2] == ["Parameters", "Values"]):
        return "settings", "test-parameters"
    if "call model" in cap or "traffic" in cap or "tps" in cap or "model data" in cap or (
            t.caption is None and t.header[-1] == "TPS"):
        return "measurements", "call-model"
    raise CellError(f"policy table {tid} ({t.caption!r}) has no mapping")


def _glued_section_fix(lines: list[str], tables) -> dict[str, tuple[str, str]]:
    """Seven 'x.x.x.2 CPU Utilization' headings are glued to the end of a 'Min Replica = Max Replica' note, so the
    segmenter files the tables under them in the preceding x.x.x.1 section. Give those tables their printed section;
    returns {table id: (section as segmented, section as printed)}."""
    moved = {}
    for n, line in enumerate(lines, 1):
        m = re.match(r"Min Replica = Max Replica(3(?:\.\d+){3}) ", line)
        if not m:
            continue
        sec = m.group(1)
        before = sec[: sec.rindex(".")] + ".1"
        for t in tables:
            if t.first_line > n and t.section == before:
                moved[t.id] = (t.section, sec)
                t.section = sec
    return moved


# ---------------------------------------------------------------- curation
class Builder:
    def __init__(self):
        self.path = seed_path(DOC)
        self.lines = read_lines(self.path)
        self.tables = segment(self.path)
        self.by_id = {t.id: t for t in self.tables}
        self.glued_sections = _glued_section_fix(self.lines, self.tables)
        self.c = Curated(DOC)
        self.lrows: dict[str, list[LRow]] = {}
        self.notes_by_table: dict[str, dict] = {}
        self.heads: dict[str, tuple[int, str]] = {}

    # errata helper
    def E(self, **e) -> str:
        if "table_id" in e and e["table_id"] and "scenario" not in e:
            e["scenario"] = scenario_of(self.by_id[e["table_id"]])
        e.setdefault("scenario", None)
        e.setdefault("table_id", None)
        if e.get("lines"):
            # citing a logical row cites every physical line it is printed on
            phys = {r.line: r.lines for rows in self.lrows.values() for r in rows}
            e["lines"] = sorted({n for k in e["lines"] for n in phys.get(k, [k])})
        if e["table_id"] and e["table_id"] not in e["problem"]:
            e["problem"] = f"Table {e['table_id']}: {e['problem']}"  # a recurring defect says where it is
        keys = ["scenario", "table_id", "lines", "where", "kind", "raw", "problem", "action", "reading", "reason"]
        ordered = {k: e[k] for k in keys if k in e}
        return self.c.erratum(**ordered)

    def src(self, n: int) -> str:
        """Seed line n as printed (stripped)."""
        return self.lines[n - 1].strip()

    def line_of(self, tid: str, label: str) -> LRow:
        for r in self.lrows[tid]:
            if r.cells[0] == label:
                return r
        raise KeyError((tid, label))

    def find_line(self, text: str, start: int = 1) -> int:
        for n in range(start, len(self.lines) + 1):
            if text in self.lines[n - 1]:
                return n
        raise KeyError(text)

    # ------------------------------------------------------------ run
    def run(self) -> Curated:
        c = self.c
        handled: set[str] = set()
        try:
            pr = importlib.import_module("curation.policy_resources")
        except ModuleNotFoundError as ex:
            if ex.name not in ("curation.policy_resources",):
                raise
            pr = None
        if pr is not None:
            handled = set(pr.curate_tables(c, self.tables, scenario_of) or ())
        mine: set[str] = set()
        for t in self.tables:
            if t.id in handled:
                continue
            cls = classify(t)
            if cls is None:
                continue
            kind, cat = cls
            self.lrows[t.id] = logical_rows(t)
            getattr(self, "do_" + kind.replace("-", "_"))(t, cat)
            mine.add(t.id)
        unhandled = [t.id for t in self.tables if t.id not in handled and t.id not in mine]
        if unhandled:
            msg = "policy tables handled by no module: " + ", ".join(unhandled)
            if pr is None:
                print(msg + " (curation.policy_resources is absent)")
            else:
                raise CellError(msg)
        self.split_row_errata()
        self.table_errata()
        self.scenarios()
        self.unprinted_readings()
        self.audit_errata()
        self.zero_reading_errata()
        self.call_model_errata()
        self.held_state()
        order = {t.id: i for i, t in enumerate(self.tables)}
        c.tables.sort(key=lambda e: order.get(e["id"], 10 ** 6))
        return c

    def entry(self, t, kind: str, category: str, **extra):
        scen = scenario_of(t)
        title = None
        if t.caption is None:
            # the heading that introduces an uncaptioned table
            n = t.header_line - 1
            while n > 0 and (self.lines[n - 1].startswith("The following") or not self.lines[n - 1].strip()):
                n -= 1
            title = self.lines[n - 1].strip()
            extra.setdefault("note", "No caption; " + LOST_NUMBER[t.id] + ".")
        self.c.tables.append(table_entry(t, DOC, scen, kind, title=title, category=category,
                                         rows=len(self.lrows[t.id]), **extra))

    # ------------------------------------------------------------ settings
    def do_settings(self, t, cat: str):
        scen = scenario_of(t)
        for i, r in enumerate(self.lrows[t.id], 1):
            label = r.cells[0]
            for h, cell in zip(t.header[1:], (r.cells + [""] * len(t.header))[1:len(t.header)]):
                status, value, note = "ok", cell, None
                if cell == "":
                    status = "missing"
                elif cell in ("NA", "None", "['NA']"):
                    status, value, note = "missing", "", f"Printed '{cell}'."
                elif cell == "-":
                    status, value, note = "not_applicable", "", "Printed '-'."
                self.c.add("settings", scenario=scen, table_id=t.id, row=i, line=r.line, row_label=label, category=cat,
                           key=label, column_label=h, value=value, status=status, note=note)
        self.entry(t, "settings", cat)

    # ------------------------------------------------------------ measurements
    def meas(self, t, i, r, *, subject, metric, unit, column_label, raw, site=None, value=None, status=None,
             qualifier="", note=None, row_label=None):
        if status is None:
            status = "ok"
        self.c.add("measurements", scenario=scenario_of(t), table_id=t.id, row=i, line=r.line,
                   row_label=row_label if row_label is not None else r.cells[0], site=site, subject=subject,
                   metric=metric, value=value, unit=unit, qualifier=qualifier, column_label=column_label, raw=raw,
                   status=status, note=note)

    def cell_value(self, cell: str, parser=num):
        """(value, status, note) for a numeric cell."""
        c0 = cell.strip()
        if c0 == "-":
            return None, "not_applicable", None
        if c0 in ("", "NA", "None"):
            return None, "missing", (f"Printed '{c0}'." if c0 else "Empty cell.")
        return parser(c0), "ok", None

    def do_measurements(self, t, cat: str):
        getattr(self, "cm_" + t.id.replace("-", "_").replace(".", "_"), self.cm_generic)(t)
        self.entry(t, "measurements", cat)

    def cm_generic(self, t):
        """Label column + one value column per header (site, TPS, ...)."""
        for i, r in enumerate(self.lrows[t.id], 1):
            for h, cell in zip(t.header[1:], r.cells[1:]):
                site = None
                if re.search(r"site", h, re.I):
                    site = site_from_label(h)
                metric, unit, parser = self.metric_for(t, h, r.cells[0], cell)
                raw = cell
                text = re.sub(r"\s*TPS$", "", cell.strip())
                v, st, note = self.cell_value(text, parser)
                self.meas(t, i, r, subject=r.cells[0], metric=metric, unit=unit, column_label=h, raw=raw, site=site,
                          value=v, status=st, note=note)

    def metric_for(self, t, h, label, cell):
        hl = h.lower()
        if t.id in ("3-240", "3-251", "3-262"):
            return "db_rows", "count", num
        if "mps" in hl or "(MPS)" in label:
            return "mps", "MPS", num
        if "messages per call" in hl:
            return "messages_per_call_share", "percent", percent
        if "cps" in hl:
            return "cps", "CPS", num
        return "tps", "TPS", k_number

    def cm_3_11(self, t):
        for i, r in enumerate(self.lrows[t.id], 1):
            label, cell = r.cells[0], r.cells[1]
            if label == "Test Duration":
                m = re.fullmatch(r"(\d+) Hours", cell)
                self.meas(t, i, r, subject=label, metric="duration", unit="hours", column_label=t.header[1], raw=cell,
                          value=num(m.group(1)))
            elif label == "TPS Achieved":
                m = re.fullmatch(r"(\d+(?:\.\d+)?K) TPS \((\d+(?:\.\d+)?K)TPS on each site\)", cell)
                self.meas(t, i, r, subject=label, metric="tps_achieved", unit="TPS", column_label=t.header[1], raw=cell,
                          value=k_number(m.group(1)), note="Total over the four sites.")
                self.meas(t, i, r, subject=label, metric="tps_achieved_per_site", unit="TPS", column_label=t.header[1],
                          raw=cell, value=k_number(m.group(2)), note="Printed as '(7.5KTPS on each site)'.")
            else:
                raise CellError(f"3-11: unknown row {label!r}")

    def cm_3_2(self, t):
        eid = self.E(table_id=t.id, lines=[t.header_line], where="header", kind="unit",
                     raw=self.src(t.header_line),
                     problem="'sy Traffic' and 'Ldap Traffic' give no unit; the first value column is headed CPS "
                             "and the last 'Total TPS', and each row's values add up to its Total TPS.",
                     action="read-as", reading="CPS for 'Total CPS Instance-1' as headed; TPS for the other columns",
                     reason="'sy Traffic' and 'Ldap Traffic' add into 'Total TPS'; no unit is printed for them.")
        for i, r in enumerate(self.lrows[t.id], 1):
            for h, cell in zip(t.header[1:], r.cells[1:]):
                if h.startswith("Total CPS"):
                    metric, unit, note = "cps", "CPS", None
                elif h == "Total TPS":
                    metric, unit, note = "tps", "TPS", None
                else:
                    metric, unit, note = "tps", "TPS", eid
                self.meas(t, i, r, subject=r.cells[0], metric=metric, unit=unit, column_label=h, raw=cell,
                          value=num(cell), status="corrected" if note else "ok", note=note)

    def cm_3_13(self, t):
        spaced = [r for r in self.lrows[t.id] if re.search(r"\d %", r.cells[1])]
        eid = self.E(table_id=t.id, lines=[r.line for r in spaced], where="rows " + ", ".join(r.cells[0] for r in spaced),
                     kind="format", raw="\n".join(r.cells[1] for r in spaced),
                     problem="A space stands between the number and the percent sign.", action="read-as",
                     reading="the same percentages", reason="The space carries no meaning.")
        total = sum(dec(r.cells[1].replace("%", "").strip()) for r in self.lrows[t.id])
        self.E(table_id=t.id, lines=[r.line for r in self.lrows[t.id]], where="column 'Messages per call'",
               kind="arithmetic", raw="\n".join(r.text for r in self.lrows[t.id]),
               problem=f"The shares add up to {fmt(total)}%, not 100% ('CCRI (Single APN) | 9.08%' where the other "
                       "single-message rows print 9.09%).", action="kept-as-printed")
        for i, r in enumerate(self.lrows[t.id], 1):
            self.meas(t, i, r, subject=r.cells[0], metric="messages_per_call_share", unit="percent",
                      column_label=t.header[1], raw=r.cells[1], value=percent(r.cells[1]),
                      note=eid if r in spaced else None)

    def cm_3_47(self, t):
        r = self.lrows[t.id][0]
        eid = self.E(table_id=t.id, lines=[r.line], where="row 1 label", kind="missing", raw=r.cells[0],
                     problem="The row label is cut off after an opening parenthesis.", action="kept-as-printed",
                     reason="The label is kept as printed; the subject is the printed text without the dangling parenthesis.")
        for h, cell in zip(t.header[1:], r.cells[1:]):
            v, st, note = self.cell_value(cell)
            self.meas(t, 1, r, subject="Pcrf-Total-Tps", metric="tps", unit="TPS", column_label=h, raw=cell,
                      site=site_from_label(h), value=v, status=st, note=eid)

    def cm_3_63(self, t):
        self._am_ue_matrix(t)

    def cm_3_76(self, t):
        self._am_ue_matrix(t)

    def _am_ue_matrix(self, t):
        rows = self.lrows[t.id]
        second = rows[0]
        body = rows[1:]
        self.lrows[t.id] = body
        cols = [("AM Service", second.cells[0]), ("AM Service", second.cells[1]), ("AM Service", second.cells[2]),
                ("UE Service", second.cells[3]), ("UE Service", second.cells[4]), ("UE Service", second.cells[5]),
                ("Total MPS", ""), ("Total TPS", "")]
        assert second.cells[:6] == ["Ingress", "Egress", "Total MPS", "Ingress", "Egress", "Total MPS"], second.cells
        self.E(table_id=t.id, lines=[t.header_line, second.line], where="header (two lines)", kind="format",
               raw=self.src(t.header_line) + "\n" + second.text,
               problem="A two-row header was flattened: the group labels (AM Service, UE Service, Total MPS, Total TPS) "
                       "stand on the header line padded with empty cells, and the sub-labels (Ingress, Egress, Total MPS) "
                       "are printed as the first body line.",
               action="read-as",
               reading="columns AM Service/Ingress, AM Service/Egress, AM Service/Total MPS, UE Service/Ingress, "
                       "UE Service/Egress, UE Service/Total MPS, Total MPS, Total TPS; the sub-label line is not a data row",
               reason="Every data row has eight values and each group's Ingress + Egress equals its Total MPS.")
        bad = []
        comma = []
        for i, r in enumerate(body, 1):
            vals = [dec(x) for x in r.cells[1:9]]
            checks = [(vals[0] + vals[1], vals[2], "AM Service Ingress + Egress", "AM Service Total MPS"),
                      (vals[3] + vals[4], vals[5], "UE Service Ingress + Egress", "UE Service Total MPS"),
                      (vals[2] + vals[5], vals[6], "AM + UE Total MPS", "Total MPS")]
            for s, printed, what, col in checks:
                if s != printed:
                    bad.append((r, what, col, s, printed))
            for (g, sub), cell in zip(cols, r.cells[1:9]):
                if "," in cell:
                    comma.append((r, cell))
                label = f"{g} / {sub}" if sub else g
                metric = "tps" if g == "Total TPS" else ("mps_" + sub.lower().replace(" ", "_") if sub and sub != "Total MPS" else "mps_total")
                unit = "TPS" if g == "Total TPS" else "MPS"
                self.meas(t, i, r, subject=r.cells[0], metric=metric, unit=unit, column_label=label, raw=cell,
                          value=num(cell), note=None)
        for r, cell in comma:
            eid = self.E(table_id=t.id, lines=[r.line], where=f"row '{r.cells[0]}', Total TPS", kind="format", raw=cell,
                         problem="The only number in the chapter's call models printed with a thousands separator.",
                         action="read-as", reading=num(cell), reason="A comma between thousands and hundreds.")
            self._note_rows(t.id, r.line, eid, column="Total TPS")
        for r, what, col, s, printed in bad:
            eid = self.E(table_id=t.id, lines=[r.line], where=f"row '{r.cells[0]}', column {col}", kind="arithmetic",
                         raw=r.text,
                         problem=f"{what} = {fmt(s)}, but {col} prints {fmt(printed)}; the row's Total TPS "
                                 f"({r.cells[8]}) is half of the printed, not the computed, total.",
                         action="kept-as-printed",
                         reason="Which number is wrong cannot be told; both are kept (printed total in the data, sum here).")
            self._note_rows(t.id, r.line, eid)

    def _note_rows(self, tid, line, eid, column=None):
        for kind in ("measurements", "latency", "settings"):
            for row in self.c.rows.get(kind, []):
                if row["table_id"] == tid and row["line"] == line and (column is None or row["column_label"] == column):
                    row["note"] = (row.get("note") + "; " if row.get("note") else "") + eid

    def cm_3_98(self, t):
        rows = self.lrows[t.id]
        second = rows[0]
        body = rows[1:]
        self.lrows[t.id] = body
        groups = ["DNN1 SM Service (MPS)", "DNN1 SM Service (MPS)", "DNN2 SM Service and Rx Interface (MPS)",
                  "DNN2 SM Service and Rx Interface (MPS)", "(no group label)", "(no group label)", "Total MPS"]
        subs = second.cells[:6] + [""]
        eid_h = self.E(table_id=t.id, lines=[t.header_line, second.line], where="header (two lines)", kind="format",
                       raw=self.src(t.header_line) + "\n" + second.text,
                       problem="A two-row header was flattened: the group labels stand on the header line padded with empty "
                               "cells and the sub-labels (Inbound Message, Outbound Message) are printed as the first body "
                               "line. Three in/out pairs and a total follow the label, but only two group labels are printed "
                               "before 'Total MPS'.",
                       action="read-as",
                       reading="pairs 1 and 2 under 'DNN1 SM Service (MPS)' and 'DNN2 SM Service and Rx Interface (MPS)'; "
                               "the third pair is given no group label; the last column is Total MPS",
                       reason="Each row's Total MPS is (to within rounding) the sum of all six in/out values; which group the "
                              "third pair belongs to is not printed.")
        diffs = []
        for i, r in enumerate(body, 1):
            vals = [dec(x) for x in r.cells[1:8]]
            s = sum(vals[:6])
            if s != vals[6]:
                diffs.append((r, s, vals[6]))
            for g, sub, cell in zip(groups, subs, r.cells[1:8]):
                label = f"{g} / {sub}" if sub else g
                metric = "mps_total" if not sub else ("mps_inbound" if sub.startswith("Inbound") else "mps_outbound")
                self.meas(t, i, r, subject=r.cells[0], metric=metric, unit="MPS", column_label=label, raw=cell,
                          value=num(cell), note=eid_h if g == "(no group label)" else None)
        if diffs:
            eid = self.E(table_id=t.id, lines=[r.line for r, _, _ in diffs], where="column Total MPS", kind="arithmetic",
                         raw="\n".join(r.text for r, _, _ in diffs),
                         problem="Total MPS does not equal the sum of the six in/out values: " +
                                 "; ".join(f"{r.cells[0]} sums to {fmt(s)}, printed {fmt(p)}" for r, s, p in diffs) +
                                 ". The printed totals look rounded to tens.",
                         action="kept-as-printed")
            for r, _, _ in diffs:
                self._note_rows(t.id, r.line, eid, column="Total MPS")

    def cm_3_109(self, t):
        self._site_gateway_split(t)

    def cm_3_121(self, t):
        self._site_gateway_split(t)

    def _site_gateway_split(self, t):
        """Tables 3-109 / 3-121: 'UE service | Site 1 | Site 2 | ||||' then the UE values on the next line."""
        phys = t.rows
        grp = phys[0]
        assert grp.cells[:3] == ["UE service", "Site 1", "Site 2"], grp.cells
        ue_vals = phys[1]
        am = phys[2]
        tot = phys[3]
        logical = [LRow(grp.line, ["UE service"] + ue_vals.cells[:6], [grp.line, ue_vals.line],
                        text=grp.text.strip() + "\n" + ue_vals.text.strip()),
                   LRow(am.line, am.cells[:7], [am.line], text=am.text.strip()),
                   LRow(tot.line, tot.cells, [tot.line], text=tot.text.strip())]
        self.lrows[t.id] = logical
        cols = [(f"Site 1 / {h}", "site1") for h in t.header[0:3]] + [(f"Site 2 / {h}", "site2") for h in t.header[3:6]]
        unit_e = self.E(table_id=t.id, lines=[t.header_line], where="all values", kind="unit", raw=self.src(t.header_line),
                        problem="No unit is printed for the gateway traffic.", action="read-as", reading="TPS",
                        reason="The section's test parameters state the call rate in TPS, and the Site 1 total "
                               f"({tot.cells[1]}) is of the order of the stated per-site TPS.")
        fmt_e = self.E(table_id=t.id, lines=[grp.line, ue_vals.line, tot.line], where="header, row 'UE service', row 'Total'",
                       kind="format",
                       raw="\n".join((grp.text.strip(), ue_vals.text.strip(), tot.text.strip())),
                       problem="A two-row header was flattened: the site group labels ('Site 1', 'Site 2') are printed on the "
                               "same line as the first row label 'UE service', whose values follow on the next line; the "
                               "'Total' row has fewer cells than the header (col-span collapsed).",
                       action="read-as",
                       reading="row 'UE service' = the values on the next line; columns Site 1 (Ingress Gateway, Egress "
                               "Gateway, Total) and Site 2 (the same); the Total row's first value is the Site 1 total "
                               "and its second the Site 2 total",
                       reason="The Site 1 and Site 2 totals equal (to within 1) the sum of the two rows' Total columns.")
        for i, r in enumerate(logical[:2], 1):
            for (label, site), cell, h in zip(cols, r.cells[1:7], t.header[:6]):
                v, st, note = self.cell_value(cell)
                metric = "tps_" + ("ingress" if h.startswith("Ingress") else "egress" if h.startswith("Egress") else "total")
                self.meas(t, i, r, subject=r.cells[0], metric=metric, unit="TPS", column_label=label, raw=cell, site=site,
                          value=v, status="corrected" if st == "ok" else st,
                          note=f"{fmt_e}; {unit_e}" if i == 1 else unit_e)
        # the Total row
        r = logical[2]
        tv = r.cells[1:]
        for k, cell in enumerate(tv):
            if k >= 2:
                continue
            site = "site1" if k == 0 else "site2"
            v, st, note = self.cell_value(cell)
            self.meas(t, 3, r, subject="Total", metric="tps_total", unit="TPS", column_label=f"Site {k + 1} / Total Ingress/Egress Traffic",
                      raw=cell, site=site, value=v, status="corrected" if st == "ok" else st, note=fmt_e)
        if len(tv) > 2:
            self.E(table_id=t.id, lines=[r.line], where="row 'Total', cells 3 and later", kind="format", raw=r.text,
                   problem="The short Total row has more '-' cells than sites.", action="left-out",
                   reason="Only the first two values (Site 1, Site 2) are read; the extra '-' cells carry no value.")
        # arithmetic
        bad = []
        for r in logical[:2]:
            for a, b, cidx in ((1, 2, 3), (4, 5, 6)):
                if "-" in (r.cells[a], r.cells[b], r.cells[cidx]):
                    continue
                s = dec(r.cells[a]) + dec(r.cells[b])
                if s != dec(r.cells[cidx]):
                    bad.append(f"{r.cells[0]} Site {1 if a == 1 else 2}: {r.cells[a]} + {r.cells[b]} = {fmt(s)}, printed {r.cells[cidx]}")
        for k, site_cols in ((0, 3), (1, 6)):
            if k >= len(tv) or tv[k] == "-":
                continue
            parts = [logical[0].cells[site_cols], logical[1].cells[site_cols]]
            if "-" in parts:
                continue
            s = dec(parts[0]) + dec(parts[1])
            if s != dec(tv[k]):
                bad.append(f"Total Site {k + 1}: {parts[0]} + {parts[1]} = {fmt(s)}, printed {tv[k]}")
        if bad:
            eid = self.E(table_id=t.id, lines=[r.line for r in logical], where="totals", kind="arithmetic",
                         raw="\n".join(r.text.strip() for r in t.rows),
                         problem="Printed totals do not add up: " + "; ".join(bad) + ".", action="kept-as-printed",
                         reason="Both the printed totals (in the data) and the sums (here) are given; which is wrong cannot be told.")
            for r in logical:
                self._note_rows(t.id, r.line, eid)

    def cm_3_134(self, t):
        rows = self.lrows[t.id]
        eid = None
        unit_e = self.E(table_id=t.id, lines=[t.header_line], where="all values", kind="unit", raw=self.src(t.header_line),
                        problem="No unit is printed for the gateway traffic.", action="read-as", reading="TPS",
                        reason="The test parameters (Table 3-133) state the call rate as '75k on site-1' (Ingress + "
                               "Egress), and the printed total is 75060.")
        for i, r in enumerate(rows, 1):
            if r.cells[0] == "Total":
                eid = self.E(table_id=t.id, lines=[r.line], where="row 'Total'", kind="format", raw=r.text,
                             problem="The Total row has one value for three value columns (col-span collapsed); by position "
                                     "it stands under 'Ingress Gateway'.",
                             action="read-as", reading="Total Ingress/Egress Traffic",
                             reason="75060 = 45870 + 29190, the two rows' totals.")
                self.meas(t, i, r, subject="Total", metric="tps_total", unit="TPS", column_label=t.header[3], raw=r.cells[1],
                          site="site1", value=num(r.cells[1]), status="corrected", note=f"{eid}; {unit_e}")
                continue
            for h, cell in zip(t.header[1:], r.cells[1:]):
                metric = "tps_" + ("ingress" if h.startswith("Ingress") else "egress" if h.startswith("Egress") else "total")
                self.meas(t, i, r, subject=r.cells[0], metric=metric, unit="TPS", column_label=h, raw=cell, site="site1",
                          value=num(cell), status="corrected",
                          note=unit_e + "; site from the caption 'Traffic distribution on Site1'")

    def cm_3_146(self, t):
        self._site_totals(t, "Total SM")

    def cm_3_158(self, t):
        self._site_totals(t, "Total")

    def cm_3_172(self, t):
        self._site_totals(t, "TOTAL-TPS")

    def cm_3_239(self, t):
        self._site_totals(t, "Total")

    def cm_3_250(self, t):
        self._site_totals(t, "Total")

    def cm_3_261(self, t):
        self._site_totals(t, "Total")

    def _site_totals(self, t, total_label):
        self.cm_generic(t)
        rows = self.lrows[t.id]
        tot = [r for r in rows if r.cells[0] == total_label][0]
        parts = [r for r in rows if r is not tot]
        bad = []
        for k, h in enumerate(t.header[1:], 1):
            s = sum(dec(r.cells[k]) for r in parts)
            if s != dec(tot.cells[k]):
                bad.append((h, s, tot.cells[k]))
        if bad:
            extra = ""
            if t.id == "3-261":
                extra = (" The printed total 29747 is the total of Tables 3-239 and 3-250 (scenarios 3.5.1 and 3.5.2); "
                         "the 3.6.1 test parameters state 27K TPS.")
            eid = self.E(table_id=t.id, lines=[r.line for r in parts] + [tot.line], where=f"row '{total_label}'",
                         kind="arithmetic", raw=tot.text,
                         problem="; ".join(f"the rows above add up to {fmt(s)} in column '{h}', but {total_label} prints {p}"
                                           for h, s, p in bad) + "." + extra,
                         action="kept-as-printed",
                         reason="The printed total is kept in the data; the sum is given here.")
            self._note_rows(t.id, tot.line, eid)

    def cm_3_240(self, t):
        self._db_rows(t)

    def cm_3_251(self, t):
        self._db_rows(t)

    def cm_3_262(self, t):
        self._db_rows(t)

    def _db_rows(self, t):
        eid = self.E(table_id=t.id, lines=[t.header_line], where="header", kind="unit", raw=self.src(t.header_line),
                     problem="The value column is headed 'TPS' but the first column says 'Number of Entries' and the values "
                             "are database row counts (e.g. 'occnp_policyds.pdssubscriber'), not rates.",
                     action="read-as", reading="count (rows in the table)",
                     reason="The rows name database tables and their $EX (expiry) shadows; counts of hundreds of thousands "
                            "of rows match the subscriber counts, not the 30K TPS rate.")
        for i, r in enumerate(self.lrows[t.id], 1):
            self.meas(t, i, r, subject=r.cells[0], metric="db_rows", unit="count", column_label=t.header[1], raw=r.cells[1],
                      value=num(r.cells[1]), status="corrected", note=eid)
        typo = [r for r in self.lrows[t.id] if r.cells[0].startswith("ooccnp")]
        if typo:
            e2 = self.E(table_id=t.id, lines=[r.line for r in typo], where="row label", kind="typo", raw=typo[0].cells[0],
                        problem="'ooccnp' for 'occnp' (doubled o).", action="kept-as-printed",
                        reason="Labels are kept as printed; the other rows use the 'occnp_' schema prefix.")
            for r in typo:
                self._note_rows(t.id, r.line, e2)

    # ------------------------------------------------------------ latency
    def do_latency(self, t, cat: str):
        getattr(self, "lat_" + t.id.replace("-", "_"), self.lat_generic)(t)
        self.entry(t, "latency", cat)

    def lat(self, t, i, r, *, subject, statistic, raw, column_label, site=None, raw_unit="ms", value=None,
            value_max=None, qualifier="", status=None, note=None, row_label=None):
        if status is None:
            status = "ok"
        self.c.add("latency", scenario=scenario_of(t), table_id=t.id, row=i, line=r.line,
                   row_label=row_label if row_label is not None else r.cells[0], site=site, subject=subject,
                   statistic=statistic, value_ms=value, value_ms_max=value_max, qualifier=qualifier, raw_unit=raw_unit,
                   column_label=column_label, raw=raw, status=status, note=note)

    @staticmethod
    def stat_of(h: str) -> str:
        hl = h.lower()
        if hl.startswith("50th"):
            return "p50"
        if hl.startswith("99th") or "(99%)" in hl:
            return "p99"
        if "peak" in hl:
            return "peak"
        if "replication" in hl:
            return "replication_delay"
        if "average" in hl or hl.startswith("avg") or "latency" in hl:
            return "avg"
        raise CellError(f"unknown latency column {h!r}")

    def lat_generic(self, t, seconds: bool = False, note=None, status=None):
        for i, r in enumerate(self.lrows[t.id], 1):
            for h, cell in zip(t.header[1:], r.cells[1:]):
                site = site_from_label(h) if re.search(r"site", h, re.I) else None
                stat = self.stat_of(h)
                v, st, n2 = self.cell_value(cell, ms_from_s if seconds else num)
                self.lat(t, i, r, subject=r.cells[0], statistic=stat, raw=cell, column_label=h, site=site,
                         raw_unit="s" if seconds else "ms", value=v,
                         status=(status if (status and st == "ok") else st), note=note or n2)

    def lat_3_60(self, t):
        self._replication(t, header_unit=True)

    def lat_3_238(self, t):
        self._replication(t, header_unit=True)

    def lat_3_168(self, t):
        self._replication(t, header_unit=False)

    def lat_3_181(self, t):
        self._replication(t, header_unit=False)

    def _replication(self, t, header_unit: bool):
        note = None
        if not header_unit:
            note = self.E(table_id=t.id, lines=[t.header_line], where="header", kind="format", raw=self.src(t.header_line),
                          problem="The unit '( In Seconds)' is printed in the first (node) column's header, not in the delay "
                                  "column's header.", action="read-as", reading="delay values in seconds",
                          reason="The node column holds names; the unit can only belong to the delay values.")
        for i, r in enumerate(self.lrows[t.id], 1):
            cell = r.cells[1]
            site = site_from_label(r.cells[0])
            m = re.fullmatch(r"(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)", cell)
            if m:
                self.lat(t, i, r, subject=r.cells[0], statistic="replication_delay", raw=cell, column_label=t.header[1],
                         site=site, raw_unit="s", value=ms_from_s(m.group(1)), value_max=ms_from_s(m.group(2)),
                         qualifier="range", note=note)
            else:
                self.lat(t, i, r, subject=r.cells[0], statistic="replication_delay", raw=cell, column_label=t.header[1],
                         site=site, raw_unit="s", value=ms_from_s(cell), note=note)

    def lat_3_72(self, t):
        rows = self.lrows[t.id]
        nf = None
        shifted = []
        for i, r in enumerate(rows, 1):
            cells = [x for x in r.cells]
            if cells[0].endswith("-PCF"):
                nf = cells[0]
                proc, a, b = cells[1], cells[2], cells[3]
                note = None
            else:
                proc, a, b = cells[0], cells[1], cells[2]
                shifted.append(r)
                note = "shift"
            for stat, h, cell in (("avg", t.header[2], a), ("p99", t.header[3], b)):
                self.lat(t, i, r, subject=f"{nf} {proc}", statistic=stat, raw=cell, column_label=h, value=num(cell),
                         status="corrected" if note else "ok", note=note)
        e1 = self.E(table_id=t.id, lines=[r.line for r in shifted], where="rows 2 and 4", kind="format",
                    raw="\n".join(r.text.strip() for r in shifted),
                    problem="Row-span loss: the NF cell (AM-PCF, UE-PCF) spans two rows and is printed only on the first, so "
                            "the second row's procedure stands under 'NF' and its values shift one column left "
                            "(row 4 also has one cell fewer than the header).",
                    action="read-as", reading="NF of the row above; procedure, Average/50%, 99% in that order",
                    reason="Rows 1 and 3 give NF | Procedure | value | value.")
        for row in self.c.rows["latency"]:
            if row["table_id"] == t.id and row["note"] == "shift":
                row["note"] = e1
        self.E(table_id=t.id, lines=[r.line for r in rows], where="all rows", kind="inconsistent-values",
               raw="\n".join(r.text for r in rows),
               problem="In every row the '99%' value is below the 'Average/50%' value (e.g. AM-Create 56.2 vs 47.6); a 99th "
                       "percentile cannot be below the median. The 'Average/50%' header also leaves open whether the first "
                       "value is a mean or a median.",
               action="kept-as-printed",
               reason="The columns may be swapped, but that cannot be told; values are kept where the header puts them "
                      "(first value recorded as statistic 'avg').")
        ue = rows[2]
        self.E(table_id=t.id, lines=[ue.line], where="row 'UE-PCF'", kind="name", raw=ue.text,
               problem="The UE-PCF rows name AM procedures ('AM-Create (simulator)', 'AM-Delete (simulator)'); UE procedures "
                       "are expected.", action="kept-as-printed")

    def lat_3_73(self, t):
        self.lat_generic(t)
        pds = self.line_of(t.id, "PDS")
        bl = self.find_line("approximate of <=20ms")
        self.E(table_id=t.id, lines=[pds.line, bl], where="row 'PDS' vs prose after the table", kind="contradiction",
               raw=f"PDS | 26.9 |\n{self.lines[bl - 1].strip()}",
               problem="The prose says latency was about 20 ms or less for the PCF services other than Ingress, but the "
                       "table prints 26.9 ms for PDS.", action="kept-as-printed")
        b0 = self.find_line("- Latency was constant through out")
        self.E(table_id=t.id, lines=[b0, b0 + 1, b0 + 2], where="prose after the table", kind="format",
               raw="\n".join(self.lines[n - 1].strip() for n in (b0, b0 + 1, b0 + 2)),
               problem="One sentence is broken into three bullet items ('through out' for 'throughout').",
               action="noted")

    def lat_3_237(self, t):
        r = self.lrows[t.id][0]
        eid = self.E(table_id=t.id, lines=[t.header_line, r.line], where="whole table", kind="missing",
                     raw=r.text,
                     problem="The table has no row-label column; the single row's subject is given only by the caption "
                             "('... for Diameter call flow').", action="read-as", reading="Diameter call flow",
                     reason="The caption names the call flow.")
        for h, cell in zip(t.header, r.cells):
            self.lat(t, 1, r, subject="Diameter call flow", statistic=self.stat_of(h), raw=cell, column_label=h,
                     site=site_from_label(h), value=num(cell), note=eid, row_label="(no label column)")

    def lat_3_249(self, t):
        self.lat_generic(t, seconds=True, note="Column 'NF Service Latency ( In Seconds)': seconds converted to ms.")

    def lat_3_260(self, t):
        eid = self.E(table_id=t.id, lines=[t.header_line] + [r.line for r in self.lrows[t.id]], where="header vs values",
                     kind="unit", raw=self.src(t.header_line) + "\n" + "\n".join(r.text for r in self.lrows[t.id]),
                     problem="The header says seconds, but the values are on the millisecond scale: PCF_IGW_Latency 17.45 "
                             "'seconds' would exceed the run's 66.775 ms peak latency (Table 3-259), and the same header in "
                             "Table 3-249 carries 0.01588 (seconds) for the same service.",
                     action="read-as", reading="milliseconds",
                     reason="Only a millisecond reading agrees with Table 3-259 of the same run and with Table 3-249.")
        for i, r in enumerate(self.lrows[t.id], 1):
            cell = r.cells[1]
            self.lat(t, i, r, subject=r.cells[0], statistic="avg", raw=cell, column_label=t.header[1], raw_unit="s",
                     value=num(cell), status="corrected", note=eid)

    def lat_3_270(self, t):
        eid = self.E(table_id=t.id, lines=[t.header_line], where="header", kind="unit", raw=self.src(t.header_line),
                     problem="The first column's header says '( In Seconds)' while the value column says 'Avg (ms)'.",
                     action="read-as", reading="milliseconds",
                     reason="The value column's own header states ms, and the values (3.84 to 124) match the ms-scale "
                            "averages of Table 3-269.")
        self.lat_generic(t, note=eid)

    def lat_3_248(self, t):
        self.lat_generic(t)
        rows = [r for r in self.lrows[t.id] if r.cells[0].startswith("N7-") or r.cells[0] == "Overall"]
        self.E(table_id=t.id, lines=[r.line for r in rows], where="rows N7-dnn_internet_* and Overall", kind="inconsistent-values",
               raw="\n".join(r.text for r in rows),
               problem="The N7 call flows average 1518 to 1568 ms (peak 2239.414 ms), against 20 to 24 ms for the same "
                       "flows in scenario 3.5.2 (Table 3-259) with the same traffic.", action="kept-as-printed",
               reason="Seconds-scale outliers; possibly caused by the User Connector restart the 3.5.1 prose mentions.")

    # ------------------------------------------------------------ errata over tables
    def split_row_errata(self):
        for tid, rows in self.lrows.items():
            if tid in ("3-109", "3-121"):
                continue  # their merged first row is recorded by the table's own format erratum
            split = [r for r in rows if r.split]
            if not split:
                continue
            t = self.by_id[tid]
            label_only = [r for r in split if "|" not in self.lines[r.line - 1]]
            ex = split[0]
            raw = "\n".join(self.lines[n - 1].strip() for n in ex.lines)
            if label_only:
                prob = ("Rows are split over three physical lines: the label alone, a lone '|', then the value.")
            elif len(t.header) == 3:
                prob = ("Every row is split over two physical lines: 'name | value |' then a lone '|' that closes the empty "
                        "third column.")
            elif all(len(r.cells) == 2 and r.cells[1] == "" for r in split):
                prob = "Every row is split over two physical lines: the label then a lone '|'; the value cell is empty."
            else:
                prob = "A row is split over two physical lines: its label on one line and its value on the next."
            eid = self.E(table_id=tid, lines=[r.line for r in split], where=f"{len(split)} row(s)", kind="format", raw=raw,
                         problem=prob, action="read-as",
                         reading="one logical row per label; its line is the first physical line",
                         reason="The physical lines together give exactly the header's cells.")
            for r in split:
                self._note_rows(tid, r.line, eid)

    def table_errata(self):
        E = self.E
        by = self.by_id
        # ---- 4.2 missing captions / numbers
        for tid in LOST_NUMBER:
            t = by[tid]
            title = next(e for e in self.c.tables if e["id"] == tid)["title"]
            head = next(n for n in range(t.header_line - 1, 0, -1) if self.src(n) == title)
            E(table_id=tid, lines=[head, t.header_line], where="caption", kind="missing",
              raw=f"{self.src(head)}\n{self.src(t.header_line)}",
              problem="The table has no 'Table 3-N' caption; it is introduced only by the heading '" + title + "'.",
              action="noted", reason="Given the id " + tid + "; " + LOST_NUMBER[tid] + ".")
        # the captions either side of each missing number show the gap
        gap = []
        for tid in MISSING_NUMBERS:
            k = int(tid.split("-")[1])
            for other in (f"3-{k - 1}", f"3-{k + 1}"):
                if other in by and by[other].caption_line and by[other].caption_line not in gap:
                    gap.append(by[other].caption_line)
        E(table_id=None, lines=sorted(gap), where="whole chapter", kind="missing",
          raw="\n".join(self.lines[n - 1][self.lines[n - 1].index("Table 3-"):].strip() for n in sorted(gap)),
          problem="Twelve table numbers never appear. 3-108, 3-197, 3-206, 3-215 (and 3-189, for one of the two 3.3.2 tables) "
                  "sit where uncaptioned tables stand; 3-32, 3-42, 3-85, 3-96, 3-144, 3-154 and 3-224 fall at the end of "
                  "scenarios 3.1.3, 3.1.4, 3.2.2, 3.2.3, 3.2.7, 3.2.8 and 3.4.3, which have no Results subsection, and "
                  "were probably lost results or latency tables.", action="noted")
        t = by["U-3.4.1.1-1"]
        E(table_id=t.id, lines=[t.header_line, t.header_line + 1], where="header", kind="format",
          raw=self.lines[t.header_line - 1] + "\n" + self.lines[t.header_line],
          problem="No '---|---|' separator row after the header.", action="noted")
        # ---- 4.1 glued captions in these tables
        for t in self.tables:
            if not t.caption_line or self.lines[t.caption_line - 1].startswith("Table "):
                continue
            if t.id not in self.lrows and any(e.get("table_id") == t.id and "caption" in e["where"].lower()
                                              for e in self.c.errata):
                continue  # a resource/utilization table whose module already recorded it
            line = self.lines[t.caption_line - 1]
            lead = line[: line.index("Table " + t.id)]
            E(table_id=t.id, lines=[t.caption_line], where="caption", kind="format", raw=line,
              problem=f"The caption is glued to the end of the preceding note ('{lead}'), so it does not start its own line"
                      + ("; the note also says 'values remains'." if "values remains" in lead else
                         "; the bold highlighting it announces is lost in the text." if "in bold" in lead else "."),
              action="read-as", reading=f"Table {t.id} {t.caption}",
              reason="The caption pattern 'Table 3-N' is unambiguous.")
        glued = [n for n, l in enumerate(self.lines, 1) if re.match(r"Min Replica = Max Replica3\.\d", l)]
        E(table_id=None, lines=glued, where="section headings", kind="format",
          raw="\n".join(self.lines[n - 1] for n in glued),
          problem="Seven section headings (3.1.1.2, 3.1.2.2, 3.1.3.2, 3.1.4.2, 3.2.1.2, 3.2.3.2, 3.2.4.2 CPU Utilization) are "
                  "glued to the end of a 'Min Replica = Max Replica' note, so they do not start a line; the tables under "
                  "them are attributed to the preceding x.x.x.1 section by the segmenter.",
          action="read-as", reading="the headings as printed: the 14 tables under them (" + ", ".join(self.glued_sections) +
                                     ") carry their x.x.x.2 section",
          reason="The section number is printed, only not at the start of its line; scenario attribution uses the "
                 "first three section levels and is unaffected.")
        # ---- 4.3 truncated content
        for tid in ("3-90", "3-102", "3-113", "3-125", "3-138"):
            t = by[tid]
            rows = self.lrows[tid]
            eid = E(table_id=tid, lines=[r.line for r in rows], where=f"column '{t.header[1]}'", kind="missing",
                    raw="\n".join(self.lines[n - 1].strip() for r in rows for n in r.lines),
                    problem="Every Policy Helm configuration cell is empty: only the service names survive (the content, "
                            "probably a bulleted list, was lost in extraction).", action="noted",
                    reason="Rows are kept with an empty value and status 'missing'.")
            for r in rows:
                self._note_rows(tid, r.line, eid)
        for tid in ("3-80", "3-91", "3-103", "3-114", "3-126", "3-139"):
            t = by[tid]
            rows = self.lrows[tid]
            eid = E(table_id=tid, lines=[t.header_line] + [r.line for r in rows], where=f"column '{t.header[2]}'", kind="missing",
                    raw=self.src(t.header_line) + "\n" + "\n".join(r.text for r in rows),
                    problem="The third column is empty in every row.", action="noted",
                    reason="The cells are kept as empty values with status 'missing'.")
            for row in self.c.rows["settings"]:
                if row["table_id"] == tid and row["column_label"] == t.header[2]:
                    row["note"] = (row["note"] + "; " if row.get("note") else "") + eid
        t = by["3-228"]
        E(table_id="3-228", lines=[t.caption_line], where="caption", kind="missing", raw=self.lines[t.caption_line - 1],
          problem="The caption is truncated ('Model Data', probably 'Call Model Data').", action="noted")
        t = by["3-252"]
        E(table_id="3-252", lines=list(range(t.first_line, t.last_line + 1)), where="whole table", kind="missing",
          raw="\n".join(self.src(n) for n in range(t.first_line, t.last_line + 1)),
          problem="9 rows against 11 in the matching Table 3-241: no 'Pre Service(MPS)' and no 'Nrf Discovery(MPS)' row.",
          action="noted")
        allm = [k for k, l in enumerate(self.lines, 1) if "RegEx mat >=" in l]
        E(table_id=None, lines=allm, where="Policy project complexity bullets (prose)", kind="missing", raw="RegEx mat >= 6",
          problem=f"The word 'match' is truncated to 'mat' in {len(allm)} places.", action="noted")
        # ---- 4.4 typos in these tables
        for tid in ("3-1", "3-12", "3-22", "3-33", "3-62", "3-74", "3-86", "3-97"):
            t = by[tid]
            E(table_id=tid, lines=[t.caption_line], where="caption", kind="typo", raw=self.lines[t.caption_line - 1],
              problem="'Parmeters' for 'Parameters'.", action="kept-as-printed")
        for tid in ("3-44", "3-156", "3-170", "3-226"):
            t = by[tid]
            E(table_id=tid, lines=[t.header_line], where="header", kind="typo", raw=self.src(t.header_line),
              problem="'Aplications' for 'Applications'.", action="kept-as-printed")
        for tid in ("3-60", "3-168", "3-181", "3-238"):
            t = by[tid]
            E(table_id=tid, lines=[t.caption_line], where="caption", kind="typo", raw=self.lines[t.caption_line - 1],
              problem="'obervations' for 'observations'.", action="kept-as-printed")
        for tid in ("3-114", "3-126", "3-139"):
            t = by[tid]
            E(table_id=tid, lines=[t.caption_line], where="caption", kind="typo", raw=self.lines[t.caption_line - 1],
              problem="'paramters' for 'parameters'.", action="kept-as-printed")
        t = by["3-201"]
        E(table_id="3-201", lines=[t.caption_line], where="caption", kind="typo", raw=self.lines[t.caption_line - 1],
          problem="'intefaces' for 'interfaces'.", action="kept-as-printed")

        def label_typo(tid, label, problem, kind="typo", action="kept-as-printed", reading=None, reason=None, col=0):
            rows = [r for r in self.lrows[tid] if label in r.cells[col]]
            if not rows:
                raise KeyError((tid, label))
            extra = {}
            if reading is not None:
                extra["reading"] = reading
            if reason is not None:
                extra["reason"] = reason
            eid = E(table_id=tid, lines=[r.line for r in rows], where=("row label" if col == 0 else "value") +
                    f" '{rows[0].cells[0]}'", kind=kind, raw=rows[0].text, problem=problem, action=action, **extra)
            for r in rows:
                self._note_rows(tid, r.line, eid)
            return eid

        for tid in ("3-122", "3-147"):
            label_typo(tid, "Dnabled", "'Dnabled' is neither 'Enabled' nor 'Disabled'; which was meant cannot be told.",
                       col=1)
        for tid in ("3-190", "3-199", "3-208"):
            label_typo(tid, "Bulkwark", "'Bulkwark' for 'Bulwark'.")
        label_typo("3-135", "Preferntial", "'Preferntial' for 'Preferential'.")
        label_typo("3-173", "cacheing", "'cacheing' for 'caching'.")
        label_typo("3-67", "ndbsqld", "'ndbsqld' is not a cnDBTier node name (probably 'ndbmysqld').", kind="name")
        label_typo("3-139", "db_eventbuffer_max_alloc",
                   "Elsewhere the parameter is 'ndb_eventbuffer_max_alloc' (Tables 3-6, 3-17, 3-27, 3-37).", kind="name")
        for tid in ("3-5", "3-16", "3-26", "3-36", "3-66", "3-79", "3-89", "3-101", "3-112", "3-124", "3-137", "3-149"):
            label_typo(tid, "Gx UDR subscription (Gx-Nudr", "The closing parenthesis is missing "
                       "('Gx UDR subscription (Gx-Nudr' against 'Gx UDR subscription (Gx-Nudr)' in Table 3-184).")
        for tid in ("3-33", "U-3.3.1.1-1", "U-3.3.2.1-1", "U-3.4.3.1-1"):
            label_typo(tid, "CCRI-I", "'CCRI-I' in the traffic ratio, probably 'CCRI-1' like the other '-1' counts; "
                       "'AARI –1' and 'STR –1' use an en dash.", col=1)
        for tid in ("3-168", "3-181"):
            t = by[tid]
            E(table_id=tid, lines=[t.header_line], where="header", kind="typo", raw=self.src(t.header_line),
              problem="'cnDBtier' for 'cnDBTier' (case).", action="kept-as-printed")
        n = self.find_line("Test Case Parmeters", by["U-3.3.1.1-1"].header_line - 3)
        E(table_id="U-3.3.1.1-1", lines=[n], where="heading introducing the table", kind="typo", raw=self.src(n),
          problem="'Parmeters' for 'Parameters'.", action="kept-as-printed")
        label_typo("U-3.4.2.1-1", "15 KTPS", "A space inside the unit ('15 KTPS'; elsewhere '15KTPS').", kind="format",
                   col=1)
        label_typo("3-227", "(15 ktps each sites)", "A space inside the unit and lower-case 'ktps' ('15 ktps'); "
                   "'each sites' for 'each site'.", kind="format", col=1)
        label_typo("3-14", "Subscriber Activity Logging (SAL)",
                   "'Subscriber Activity Logging (SAL)' here, 'Subscriber Activity Log (SAL)' in Tables 3-3, 3-24 and 3-34.",
                   kind="name")
        # ---- malformed cells in test parameters
        for tid in ("3-86",):
            label_typo(tid, "DeleteIMS", "List items glued together without separators ('1 SM DeleteIMS:-', "
                       "'1 SM DeleteAPP:-', '1 SM DeleteADMIN:-').", kind="format", col=1)
        for tid in ("U-3.5.1.1-1", "U-3.5.2.1-1"):
            label_typo(tid, "Diam-Out 3IGW-11", "The traffic ratio is printed twice, glued together "
                       "('...Diam-Out 3IGW-11 ,EGW-26,Diam-in=9,Diam-out - 3').", kind="duplicate", col=1)
        # ---- 4.9 duplicates inside tables
        t = by["3-61"]
        dup = [r for r in self.lrows["3-61"] if r.cells[0].endswith("ndb_allow_copying_alter_table")]
        E(table_id="3-61", lines=[r.line for r in dup], where="rows '...mysqld.ndb_allow_copying_alter_table'", kind="duplicate",
          raw="\n".join(r.text for r in dup),
          problem="The same Helm key is listed twice with different values ('1' and 'ON').", action="kept-as-printed",
          reason="Both rows are kept; the two values mean the same setting (on) in MySQL.")
        r = self.line_of("3-61", "global.additionalndbconfigurations.ndb.binlog_expire_logs_seconds")
        E(table_id="3-61", lines=[r.line], where="row 'global.additionalndbconfigurations.ndb.binlog_expire_logs_seconds'",
          kind="name", raw=r.text,
          problem="binlog_expire_logs_seconds is a mysqld option but is filed under 'ndb'.", action="kept-as-printed")
        rows = [self.line_of("3-135", "SYSTEM.COLLISION.DETECTION"), self.line_of("3-135", "Collision Detection")]
        E(table_id="3-135", lines=[r.line for r in rows], where="rows 'SYSTEM.COLLISION.DETECTION', 'Collision Detection'",
          kind="duplicate", raw="\n".join(r.text for r in rows),
          problem="Apparently the same feature listed twice under two names.", action="kept-as-printed",
          reason="Both rows agree (Enabled).")
        for tid in ("3-111", "3-123", "3-136", "3-148"):
            r = self.line_of(tid, "Subscriber HTTP Notifier (Gx)")
            E(table_id=tid, lines=[r.line], where="row 'Subscriber HTTP Notifier (Gx)'", kind="duplicate",
              raw=r.text, problem="A Gx (PCRF) interface listed in the Policy interfaces table; it is also "
              "listed in the paired PCRF interfaces table.", action="kept-as-printed")
        r = self.line_of("3-210", "Diameter (PGW to PCRF)")
        E(table_id="3-210", lines=[r.line], where="row 'Diameter (PGW to PCRF)'", kind="duplicate", raw=r.text,
          problem="The same interface is listed in both the Policy (3-209) and the PCRF (3-210) interfaces tables.",
          action="kept-as-printed")
        # whole data tables repeated across scenarios
        groups: dict[tuple, list[str]] = {}
        for tid, rows in self.lrows.items():
            e = next((x for x in self.c.tables if x["id"] == tid), None)
            if e is None or e["kind"] not in ("measurements", "latency"):
                continue
            key = tuple(tuple(r.cells) for r in rows)
            groups.setdefault(key, []).append(tid)
        for key, tids in groups.items():
            if len(tids) < 2:
                continue
            last = tids[-1]
            E(table_id=last, lines=[by[x].first_line for x in tids], where="whole table", kind="duplicate",
              raw="\n".join(self.src(by[x].first_line) for x in tids),
              problem="The body is identical to that of " + ", ".join(tids[:-1]) + ", a table of a different scenario "
                      "(different run): probably copied.", action="kept-as-printed",
              reason="Both tables are kept as printed, each under its own scenario.")
        # ---- 4.7 implausible values in these tables
        rows = self.lrows["3-241"]
        zero = [r for r in rows if r.cells[0] in ("Pre Service(MPS)", "UDR Connector(MPS)")]
        E(table_id="3-241", lines=[r.line for r in zero], where="rows 'Pre Service(MPS)', 'UDR Connector(MPS)'",
          kind="inconsistent-values", raw="\n".join(r.text for r in zero),
          problem="No traffic (0.00000 MPS) at PRE and the UDR connector, while the same run's utilization table (3-246) "
                  "shows PRE Service at 19.81% CPU and UDR Connector at 19.05%.", action="kept-as-printed")
        for tid, bind in (("3-251", "3-253"), ("3-262", "3-263")):
            r = self.line_of(tid, "occnp_binding.contextbinding")
            E(table_id=tid, lines=[r.line], where="row 'occnp_binding.contextbinding'", kind="inconsistent-values",
              raw=r.text, problem=f"The binding table holds rows although Binding is 'Disabled' in Table {bind}.",
              action="kept-as-printed")
        for tid, labels in (("3-58", ["DIAM"]), ("3-59", [r.cells[0] for r in self.lrows["3-59"]]),
                            ("3-236", ["PCRF_Policyds", "PCRF_Diam_connector"]), ("3-167", ["UE DELETE", "AM DELETE"])):
            rows = [r for r in self.lrows[tid] if r.cells[0] in labels]
            E(table_id=tid, lines=[r.line for r in rows], where="rows " + ", ".join(labels), kind="inconsistent-values",
              raw="\n".join(r.text for r in rows),
              problem="Zero or sub-millisecond latencies (0.00 to 0.02 ms) at a site that carries traffic, where a real "
                      "processing latency is expected.", action="kept-as-printed",
              reason="Values are kept as printed; 0.00 at an idle site is kept as printed without an erratum.")
        r = self.line_of("3-139", "ConnectCheckIntervalDelay")
        E(table_id="3-139", lines=[r.line], where="row 'ConnectCheckIntervalDelay'", kind="inconsistent-values",
          raw=r.text, problem="0 here against 500 in Tables 3-61, 3-80, 3-91, 3-103, 3-114 and 3-126.",
          action="kept-as-printed")
        r = self.line_of("3-77", "Binding Service")
        E(table_id="3-77", lines=[r.line], where="row 'Binding Service'", kind="other", raw=r.text,
          problem="The feature status is 'NA', neither enabled nor disabled.", action="kept-as-printed",
          reason="Recorded with status 'missing'.")
        # ---- 4.8 arithmetic / consistency in call models
        t = by["3-2"]
        tot = self.line_of("3-2", "Total Messages")
        cr = self.line_of("3-1", "Call Rate")
        E(table_id="3-2", lines=[tot.line, cr.line], where="row 'Total Messages' vs Table 3-1 Call Rate", kind="contradiction",
          raw=f"{tot.text}\n{cr.text}",
          problem="The call model totals 1920 (TPS per its header) while the test parameters give a call rate of 30K TPS "
                  "(7.5K TPS on each site); the call model's unit or scale is unclear.", action="kept-as-printed")
        rows = self.lrows["3-216"]
        a, b = self.line_of("3-216", "Diameter Gateway Ingress"), self.line_of("3-216", "Diameter Gateway Egress")
        s = k_number(a.cells[1].replace(" TPS", "")) + k_number(b.cells[1].replace(" TPS", ""))
        p = self.line_of("U-3.4.3.1-1", "Call Rate (Diameter Gateway)")
        E(table_id="3-216", lines=[a.line, b.line, p.line], where="rows 'Diameter Gateway Ingress/Egress'", kind="arithmetic",
          raw=f"{a.cells[1]}\n{b.cells[1]}\n{p.cells[1]}",
          problem=f"Ingress 8.33K + Egress 6.31K = {s:g} TPS, against 15K TPS per site in the test parameters.",
          action="kept-as-printed")
        # ---- 3-260/3-249 pair noted in lat_3_260; 3-11 none.

    def unprinted_readings(self):
        """Readings of what the source does not print, marked on their rows (appended errata: earlier ids keep
        their numbers)."""
        by = self.by_id
        for tid, avg, where in (("3-167", "3-166", "caption '(in MilliSeconds)'"),
                                ("3-180", "3-179", "caption '(In Milli Seconds)'"),
                                ("3-237", "3-236", "headers 'Latency at Site1/Site2 (Milliseconds)'")):
            t = by[tid]
            eid = self.E(table_id=tid, lines=[t.caption_line, t.header_line], where="caption and header", kind="unit",
                         raw=self.src(t.caption_line) + "\n" + self.src(t.header_line),
                         problem=f"Table {tid} prints no unit for its percentile latencies, in the caption or the header.",
                         action="read-as", reading="ms",
                         reason=f"The average latencies of the same run, Table {avg}, are given in milliseconds ({where}) "
                                "and are of the same order.")
            mark_readings(self.c, {tid}, eid)
        t = by["3-172"]
        eid = self.E(table_id="3-172", lines=[t.caption_line, t.header_line], where="caption and header", kind="unit",
                     raw=self.src(t.caption_line) + "\n" + self.src(t.header_line),
                     problem="Table 3-172 prints no unit for the traffic per call flow; only the last row's label says "
                             "'TOTAL-TPS'.", action="read-as", reading="TPS",
                     reason="The TOTAL-TPS row (41280 at Site1) matches the 41K TPS of the scenario title, so the other "
                            "rows are on the same scale.")
        mark_readings(self.c, {"3-172"}, eid)
        # Tables 3-94/3-95: Y of 'X/Y' is not stored as a target (their erratum says why); the rows are read, not literal
        mark_readings(self.c, {"3-94", "3-95"})
        # values read through a header erratum: the seconds of 3-168/3-181 (unit in the first column's header), the ms
        # of 3-270 (against '( In Seconds)'), the memory of 3-120 (header 'Memory CPU')
        read_through = {e["id"] for e in self.c.errata if e["action"] == "read-as" and e["where"].startswith("header")
                        and e["table_id"] in ("3-168", "3-181", "3-270", "3-120")}
        for kind in ("latency", "utilization"):
            for row in self.c.rows[kind]:
                if row["status"] == "ok" and set(re.findall(r"policy-E\d{3}", row.get("note") or "")) & read_through:
                    row["status"] = "corrected"

    def audit_errata(self):
        """Defects the second reading found with no erratum (issue 15); appended so earlier ids keep their numbers."""
        E, by = self.E, self.by_id

        def rows(tid, pred):
            out = [r for r in by[tid].rows if pred(r)]
            if not out:
                raise KeyError(tid)
            return out

        def note(tid, rs, eid):
            lines = {r.line for r in rs}
            for kind in ("resources", "utilization", "latency", "measurements", "settings"):
                for row in self.c.rows.get(kind, []):
                    if row["table_id"] == tid and row["line"] in lines:
                        row["note"] = (row["note"] + "; " if row.get("note") else "") + eid

        # header and label typos
        for tid in ("3-234", "3-235"):
            t = by[tid]
            E(table_id=tid, lines=[t.header_line], where="header, first column", kind="typo", raw=self.src(t.header_line),
              problem="'Contrainer' for 'Container'.", action="kept-as-printed")
        for tid in ("3-81", "3-92", "3-104"):
            t = by[tid]
            E(table_id=tid, lines=[t.header_line], where="header, last two columns", kind="typo",
              raw=self.src(t.header_line), problem="'Isito' for 'Istio' in 'Request/Limit Isito CPU' and 'Request/Limit "
              "Isito Memory'.", action="read-as", reading="Istio sidecar columns",
              reason="The columns sit where the other tables print the Istio request/limit.")
        rs = rows("3-174", lambda r: r.cells[0] == "PDs")
        eid = E(table_id="3-174", lines=[r.line for r in rs], where="row label 'PDs'", kind="typo", raw=rs[0].text.strip(),
                problem="'PDs' for 'PDS' (the row follows 'PDS Istio').", action="read-as", reading="PDS",
                reason="Every other table of the chapter prints 'PDS'.")
        note("3-174", rs, eid)
        # list-literal NA markers
        for tid in ("3-54", "3-235"):
            rs = rows(tid, lambda r: "['NA']" in r.cells)
            eid = E(table_id=tid, lines=[r.line for r in rs], where="rows " + ", ".join(r.cells[0] for r in rs),
                    kind="format", raw="\n".join(r.text.strip() for r in rs),
                    problem="'NA' printed as a Python list literal (\"['NA']\"), a serialisation artefact.",
                    action="read-as", reading="NA: no value", reason="Kept with status 'missing' and no value.")
            note(tid, rs, eid)
        # services on the call path at 0% under load: not measurements (flagged, left out of calculations)
        idle = rows("3-40", lambda r: r.cells[0] in ("ocpcf-pcrf-core", "ocpcf-ocpm-pre", "ocpcf-oc-binding"))
        busy = rows("3-41", lambda r: r.cells[0] == "ndbappmysqld")
        rate, bind = self.line_of("3-33", "Call Rate"), self.line_of("3-34", "Binding Service")
        eid = E(table_id="3-40", lines=[rate.line, bind.line] + [r.line for r in idle + busy],
                where="rows ocpcf-pcrf-core, ocpcf-ocpm-pre, ocpcf-oc-binding",
                kind="inconsistent-values", raw="\n".join([rate.text, bind.text] + [r.text.strip() for r in idle + busy]),
                problem="Table 3-40: PCRF Core, PRE and Binding print 0% CPU ('0%/40%', '0%/80%', '0%/60%') at both sites "
                        "of scenario 3.1.4, each carrying 15K TPS.",
                action="flagged-excluded",
                reason="A service that carries the call model cannot read 0% under load (Table 3-33 'Call Rate | 30K TPS "
                       "(15K TPS on each site)'). Every other run of this Traffic Ratio (scenarios 3.3.1, 3.3.2 and 3.4.3) "
                       "puts load on these three "
                       "services: at the same 15K TPS per site, 3.3.2 prints PCRF Core 25% and 24%, PRE 10% and Binding "
                       "11% at its traffic sites (Table 3-195) and 3.4.3 PCRF Core 25% and 24%, PRE 40% and 42%, Binding "
                       "8% (Table 3-222); the PCRF voice run 3.1.2 prints PCRF Core 25%, PRE 13% and Binding 12% at Site 1 "
                       "(Table 3-20). Binding is enabled here (Table 3-34 'Binding Service | Enable'), and the database is busy "
                       "(ndbappmysqld 78%, Table 3-41). The cells are kept as printed, flagged and left out of "
                       "calculations: the backtest does not use them and the footprint sizes these services by the load "
                       "ratio.")
        self.flag_zero_cpu("3-40", idle, ("site1", "site2"), eid)
        # cnDBTier busy on a site without traffic
        for tid, sec, why in (("3-84", "3.2.2", "Total TPS | 50K | 0 | in its call model"),
                              ("3-143", "3.2.7", "the title's 'Single-Site Handling 75K TPS Traffic'")):
            rs = rows(tid, lambda r: r.cells[0] == "ndbmtd")
            eid = E(table_id=tid, lines=[r.line for r in rs], where="row ndbmtd, Site2", kind="inconsistent-values",
                    raw=rs[0].text.strip(),
                    problem=f"ndbmtd prints {rs[0].cells[-1]} CPU at Site2, which carries no traffic in scenario {sec} "
                            f"({why}).", action="kept-as-printed",
                    reason="Possible (replication into the idle site's data nodes), but the guide does not explain it.")
            note(tid, rs, eid)
        # zero latencies for services the run does not exercise
        for tid, what in (("3-56", "PCRF_Binding prints 0.00 ms at Site1 of a PCRF run"),
                          ("3-166", "the services named in 'where' (SM, CHF, user, binding, Diameter, PCRF core) print "
                                    "0.00 ms at Site1 of an AM/UE run"),
                          ("3-180", "the AM and UE flows and SM DELETE print 0.00 ms at Site1 of an SM run")):
            rs = [r for r in self.lrows[tid] if len(r.cells) > 1 and r.cells[1] in ("0.00", "0")]
            eid = E(table_id=tid, lines=[r.line for r in rs], where="rows " + ", ".join(r.cells[0] for r in rs),
                    kind="other", raw="\n".join(r.text.strip() for r in rs),
                    problem=f"Zero latencies: {what}; 0.00 probably stands for a flow the run did not exercise "
                            "rather than a measured zero, which the guide does not say.", action="kept-as-printed",
                    reason="Kept as printed (0 ms); read them as 'not exercised', not as a latency of the benchmarked "
                           "traffic.")
            note(tid, rs, eid)
        # SSV differs between the Binding-on and Binding-off runs
        a = self.line_of("3-242", "Subscriber State Variable (SSV)")
        b = self.line_of("3-253", "Subscriber State Variable (SSV)")
        eid = E(table_id="3-253", lines=[a.line, b.line], where="row 'Subscriber State Variable (SSV)'",
                kind="inconsistent-values", raw=f"{a.text}\n{b.text}",
                problem="SSV is Disabled in Table 3-242 (scenario 3.5.1, Binding enabled) but Enabled in Table 3-253 "
                        "(3.5.2, Binding disabled): the two runs differ in more than the Binding feature they compare, "
                        "although their traffic tables (3-239, 3-250) are identical.", action="noted")
        self._note_rows("3-242", a.line, eid)
        self._note_rows("3-253", b.line, eid)
        # scenarios that carry only some of their resource tables
        for sec, tids in (("3.2.7", ("3-140", "3-141")), ("3.2.8", ("3-150", "3-151"))):
            lines = [by[x].caption_line for x in tids]
            E(scenario="policy-" + sec.replace(".", "-"), table_id=tids[0], lines=lines, where="resource tables",
              kind="missing", raw="\n".join(self.src(n)[self.src(n).index("Table 3-"):] for n in lines),
              problem=f"Scenario {sec} prints the Policy resources of Site1 ({tids[0]}) and the cnDBTier resources of "
                      f"Site2 ({tids[1]}) only: no Site2 Policy and no Site1 cnDBTier allocation, although the setup is "
                      "two-site georedundant.", action="noted", reason="Nothing is filled in for the missing tables.")
        # replicas for a disabled feature
        r = next(r for r in by["3-265"].rows if r.cells[0] == "Binding Service")
        off = self.line_of("3-263", "Binding")
        eid = E(table_id="3-265", lines=[r.line, off.line], where="row 'Binding Service'", kind="inconsistent-values",
                raw=f"{r.text.strip()}\n{off.text}",
                problem="Binding Service is given 10 replicas while Table 3-263 of the same scenario (3.6.1) says "
                        "Binding is Disabled.", action="kept-as-printed",
                reason="The allocation is kept as printed (the pods may run idle).")
        note("3-265", [r], eid)

    # ------------------------------------------------------------ readings of 0 that cannot be measurements
    def flag_zero_cpu(self, tid: str, printed_rows, sites, eid: str) -> int:
        """Flag the CPU utilization cells of ``printed_rows`` (rows of Table ``tid`` as segmented, each with ``line``)
        at each of ``sites`` ('site1'..; '' for a table without a site column): status ``flagged`` (left out of
        calculations) and ``eid`` added to the note. Only a usable reading of 0 (observed percent 0, no other absolute
        value) may be flagged this way: raises CellError, naming the table, line and site, when a cell is not there
        or is not such a reading. Returns the number of cells flagged."""
        n = 0
        for pr in printed_rows:
            for site in sites:
                hits = [row for row in self.c.rows.get("utilization", []) if row["table_id"] == tid
                        and row["line"] == pr.line and row["metric"] == "cpu" and (row["site"] or "") == site]
                if len(hits) != 1:
                    raise CellError(f"Table {tid} line {pr.line} {site or '(no site)'}: {len(hits)} CPU cells, "
                                    "expected the one reading of 0 an erratum flags")
                row = hits[0]
                if row["status"] not in ("ok", "corrected") or row.get("observed_percent") != 0 \
                        or row.get("observed_abs") not in (None, 0):
                    raise CellError(f"Table {tid} line {pr.line} {site or '(no site)'}: {row['raw']!r} "
                                    f"(status {row['status']}) is not a usable reading of 0; only a 0 is flagged here")
                row["status"] = "flagged"
                row["note"] = (row["note"] + "; " if row.get("note") else "") + eid
                n += 1
        return n

    def zero_reading_errata(self):
        """CPU readings of 0 at a site carrying traffic for a service that carries the run's call model: not
        measurements, so each table's zeros get one flagged-excluded erratum and their cells status ``flagged``
        (Table 3-40's, policy-E309, is made in ``audit_errata``). The zeros the call model allows (a service the run
        does not exercise, a feature disabled, a site without traffic, ndbmgmd) stay as printed; one of them, the CHF
        Connector of scenario 3.2.1, gets a noted contradiction (its call model routes CHF traffic, its feature tables
        disable CHF). Appended, so earlier erratum ids keep their numbers. Raises KeyError, naming the table and rows,
        when a row it quotes is not printed, and CellError (``flag_zero_cpu``) when a cell to flag is not a usable 0."""
        E, by = self.E, self.by_id

        def printed(tid, *labels):
            out = [r for r in by[tid].rows if r.cells and r.cells[0] in labels]
            if len(out) != len(labels):
                raise KeyError(f"Table {tid}: rows {labels} expected, found {[r.cells[0] for r in out]}")
            return out

        def text(rs):
            return [r.text.strip() for r in rs]

        # 3.1.4: the replication SQL nodes idle while both sites write and replicate
        zero = printed("3-41", "ndbmysqld")
        busy = printed("3-41", "ndbappmysqld")
        repl = self.line_of("3-34", "Replication")
        prose = self.find_line("replicated on both the sites using Single-channel replication", by["3-33"].first_line - 10)
        eid = E(table_id="3-41", lines=[prose, repl.line] + [r.line for r in busy + zero], where="row ndbmysqld, Site1 and Site2",
                kind="inconsistent-values",
                raw="\n".join(["replicated on both the sites using Single-channel replication", repl.text] + text(busy + zero)),
                problem="Table 3-41: ndbmysqld prints 0% CPU ('0%/80%') at both sites of scenario 3.1.4, which carry 15K TPS "
                        "each and replicate to each other.",
                action="flagged-excluded",
                reason="Replication is enabled (Table 3-34 'Replication | Enable'; single-channel replication in the prose) "
                       "and ndbappmysqld runs at 78%. ndbmysqld are the SQL nodes that carry the georeplication channel; "
                       "with replication enabled and "
                       "both sites writing, their 2 pods of 10 cores (Table 3-39) cannot read 0%. The runs of the same "
                       "Traffic Ratio with single-channel replication print ndbmysqld at 6% at both sites of the two-site "
                       "run 3.4.3 (Table 3-223), 8% to 10% at the four traffic sites of 3.3.1 (Table 3-188) and 8% at the two "
                       "traffic sites of 3.3.2 (Table 3-196); the PCRF voice run 3.1.2 prints 8% and 3% (Table 3-21). The cells are kept as printed, flagged and left out of calculations (the "
                       "footprint keeps ndbmysqld fixed per site in any case).")
        self.flag_zero_cpu("3-41", zero, ("site1", "site2"), eid)

        # 3.1.2: Site 2 reads like a site without traffic, but the scenario gives it 15K TPS
        zero = printed("3-20", "ocpcf-oc-binding", "ocpcf-ocpm-pre", "ocpcf-pcrf-core")
        rate, bind = self.line_of("3-12", "Call Rate"), self.line_of("3-14", "Binding Service")
        busy = printed("3-21", "ndbappmysqld")
        eid = E(table_id="3-20", lines=[rate.line, bind.line] + [r.line for r in zero + busy],
                where="rows ocpcf-oc-binding, ocpcf-ocpm-pre, ocpcf-pcrf-core, Site 2", kind="inconsistent-values",
                raw="\n".join([rate.text, bind.text] + text(zero + busy)),
                problem="Table 3-20: at Site 2, which carries 15K TPS in scenario 3.1.2, Binding, PRE and PCRF Core print 0% "
                        "CPU ('0%/60%', '0%/80%', '0%/40%'; Site 1: 12%, 13%, 25%).",
                action="flagged-excluded",
                reason="Scenario 3.1.2 gives each of its two sites 15K TPS (Table 3-12 'Call Rate | 30K TPS (15K TPS on "
                       "each site)'). These services carry the voice call model at Site 1 and at every traffic site of scenario 3.3.2 "
                       "(PCRF Core 25% and 24%, PRE 10%, Binding 11% at 15K TPS per site, Table 3-195); Binding is enabled "
                       "(Table 3-14 'Binding Service | Enable') and Site 2's database is busy (ndbappmysqld 76%, Table "
                       "3-21). Site 2's other figures (ndbmtd 6% against 19% at Site 1, ndbmysqld 3% against 8%) resemble "
                       "a site without traffic, which the title, the prose and Table 3-12 contradict; either way the zeros "
                       "are not readings of a site carrying 15K TPS. The Site 2 cells are kept as printed, flagged and left "
                       "out of calculations; the Site 1 cells stay usable.")
        self.flag_zero_cpu("3-20", zero, ("site2",), eid)

        # 3.2.1: Bulwark enabled, on the call model's path, at 0%
        zero = printed("3-70", "ocpcf-bulwark")
        path, on = self.line_of("3-63", "Bulwark"), self.line_of("3-64", "Bulwark Service")
        alloc = printed("3-68", "Bulwark Service")
        eid = E(table_id="3-70", lines=[path.line, on.line] + [r.line for r in alloc + zero], where="row ocpcf-bulwark, Site1",
                kind="inconsistent-values", raw="\n".join([path.text, on.text] + text(alloc + zero)),
                problem="Table 3-70: Bulwark prints 0% CPU ('0%/60%') at Site1, though enabled (Table 3-64) and given 14400 "
                        "MPS by the call model (Table 3-63).",
                action="flagged-excluded",
                reason="Site1 carries scenario 3.2.1's 30K TPS; its call model sends 7200 MPS of AM and 7200 MPS of UE "
                       "traffic through Bulwark (Table 3-63 'Bulwark | 7200 | 0 | 7200 | 7200 | 0 | 7200 | 14400 | 7200 |') "
                       "and Table 3-64 says 'Bulwark Service | Enable'. With the service enabled and 14400 MPS through its "
                       "3 pods of 8 cores (Table 3-68), 0% is not a "
                       "measurement: the other runs that enable Bulwark print 22% and 23% (scenario 3.2.4, Table 3-106) "
                       "and 46% (3.2.7, Table 3-142), while 3.2.2, which disables it (Table 3-77), prints 0 MPS for it in "
                       "its call model (Table 3-76). The cell is kept as printed, flagged and left out of calculations.")
        self.flag_zero_cpu("3-70", zero, ("site1",), eid)

        # 3.4.1: PCRF Core's Site2 cell holds what Query Service reads elsewhere
        zero = printed("3-204", "ocpcf-pcrf-core-hpa")
        other = printed("3-204", "ocpcf-query-service-hpa")
        rate = self.line_of("U-3.4.1.1-1", "Call Rate (Diameter Gateway)")
        swap = next(e["id"] for e in self.c.errata if e["table_id"] == "3-204" and e["kind"] == "inconsistent-values")
        eid = E(table_id="3-204", lines=[rate.line] + [r.line for r in zero + other], where="row ocpcf-pcrf-core-hpa, Site2",
                kind="inconsistent-values", raw="\n".join([rate.text] + text(zero + other)),
                problem="Table 3-204: PCRF Core prints '0%/80%' at Site2, which carries 7.5K TPS like the other sites (13% "
                        "to 14% there).",
                action="flagged-excluded",
                reason=f"Every site of scenario 3.4.1 carries 7.5K TPS ('Call Rate (Diameter Gateway) | 30KTPS (7.5KTPS on "
                       f"each site)'); at Site2 Query Service prints '13%/40%', PCRF Core's reading and target at the other "
                       f"sites. PCRF Core carries this Diameter call model at every other site of the run, and Binding and PRE read "
                       f"6% at all four sites, Site2 included; the Site2 cell looks exchanged with Query Service's ({swap} "
                       "records the exchanged targets). The zero is not PCRF Core's reading at a site carrying 7.5K TPS: it "
                       "is kept as printed, flagged and left out of calculations. Query Service's '13%/40%' is not a zero "
                       "and a Query Service could read it, so it stays as printed and usable.")
        self.flag_zero_cpu("3-204", zero, ("site2",), eid)

        # 3.6.1: the Ingress Gateway serves 1000 TPS at 0.00%
        zero = printed("3-267", "Ingress Gateway")
        egress = printed("3-267", "Egress Gateway")
        tps, lat = self.line_of("3-261", "Ingress Gateway"), self.line_of("3-270", "Ingress Gateway")
        eid = E(table_id="3-267", lines=[tps.line, lat.line] + [r.line for r in egress + zero], where="row Ingress Gateway, CPU",
                kind="inconsistent-values", raw="\n".join([tps.text, lat.text] + text(egress + zero)),
                problem="Table 3-267: the Ingress Gateway prints 0.00% CPU although Table 3-261 puts 1000 TPS through it.",
                action="flagged-excluded",
                reason="The Ingress Gateway serves traffic in scenario 3.6.1: 1000 TPS in its traffic table (Table 3-261 "
                       "'Ingress Gateway | 1000 |') and an average latency of 31.8 ms (Table 3-270 'Ingress Gateway | "
                       "31.8 |'), while the Egress Gateway of the same run reads 7.00%; its 8 pods (Table 3-265) cannot "
                       "have used 0.00% of their CPU request. The CPU cell is kept as printed, flagged and left out "
                       "of calculations; the memory cell (10.00%) stays usable.")
        self.flag_zero_cpu("3-267", zero, ("",), eid)

        # 3.2.1: the call model and the feature tables disagree on the CHF Connector; its 0% stays usable
        chf = self.line_of("3-63", "CHF Connector")
        sm, am = self.line_of("3-65", "CHF (SM-Nchf)"), self.line_of("3-66", "CHF enabled (AM)")
        util = printed("3-70", "ocpcf-occnp-chf-connector")
        eid = E(table_id="3-63", lines=[chf.line, sm.line, am.line] + [r.line for r in util],
                where="row 'CHF Connector' against Tables 3-65, 3-66 and 3-70", kind="contradiction",
                raw="\n".join([chf.text, sm.text, am.text] + text(util)),
                problem="Table 3-63: row 'CHF Connector' sends 7200 MPS (Total MPS '7200') of AM traffic, while Tables 3-65 "
                        "and 3-66 disable CHF and Table 3-70 prints the CHF Connector at '0%/50%'.",
                action="noted",
                reason="Tables 3-65 and 3-66 print 'CHF (SM-Nchf) | Disable' and 'CHF enabled (AM) | Disable'. Which is "
                       "right cannot be told from the guide. The 0% reading stays as printed and usable: with CHF "
                       "disabled by the feature tables an idle CHF Connector is possible, and scenario 3.2.2's call model "
                       "(Table 3-76) prints 0 MPS for it with the same AM/UE traffic ratio.")
        self._note_rows("3-63", chf.line, eid)
        for row in self.c.rows["utilization"]:
            if row["table_id"] == "3-70" and row["line"] == util[0].line:
                row["note"] = (row["note"] + "; " if row.get("note") else "") + eid

    # ------------------------------------------------------------ scenarios
    def cite_row(self, tid, label, where=None):
        r = self.line_of(tid, label)
        return {"text": r.cells[1], "table_id": tid, "line": r.line, "where": where or f"Table {tid}, row '{label}'"}

    def cite_text(self, text, where, start=1, table_id=None):
        n = self.find_line(text, start)
        return {"text": text, "table_id": table_id, "line": n, "where": where}

    def kv(self, tid):
        return {r.cells[0]: (r.cells[1] if len(r.cells) > 1 else "") for r in self.lrows[tid]}

    def scenarios(self):
        c = self.c
        heads = {}
        for n, l in enumerate(self.lines, 1):
            m = re.match(r"(3\.\d+\.\d+) (.*)$", l)
            if m:
                heads[m.group(1)] = (n, m.group(2))
        self.heads = heads
        S = SPEC
        for sec, spec in S.items():
            sid = "policy-" + sec.replace(".", "-")
            hline, title = heads[sec]
            tables = [t.id for t in self.tables if scenario_of(t) == sid]
            my = [tid for tid in tables if tid in self.lrows]
            cat = {e["id"]: e.get("category") for e in c.tables}
            tp = [tid for tid in my if cat.get(tid) == "test-parameters"]
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
            # call mix and subscribers from the test parameters
            rec["call_mix"] = None
            rec["subscribers"] = None
            for tid in tp:
                kv = self.kv(tid)
                for k, v in kv.items():
                    if k == "Traffic Ratio":
                        rec["call_mix"] = {"raw": v, "traffic_ratio": v, "cite": self.cite_row(tid, k)}
                    if k.startswith("Active"):
                        rec["subscribers"] = {"raw": v, "label": k, "cite": self.cite_row(tid, k)}
            cm = [tid for tid in my if cat.get(tid) == "call-model"]
            if rec["call_mix"] is None and cm:
                rec["call_mix"] = {"raw": self.by_id[cm[0]].caption or "Call Model Data", "cite": {"text": self.by_id[cm[0]].caption or "Call Model Data",
                                   "table_id": cm[0], "line": self.by_id[cm[0]].first_line, "where": f"Table {cm[0]}"}}
            if cm:
                rec["notes"].append("Call model / traffic tables (rows in measurements.csv): " + ", ".join(cm) + ".")
            hw = [tid for tid in my if cat.get(tid) == "hardware"]
            sw = [tid for tid in my if cat.get(tid) == "software"]
            rec["hardware"] = self.kv(hw[0]) if hw else None
            rec["software"] = self.kv(sw[0]) if sw else None
            feats = [tid for tid in my if cat.get(tid) == "features"]
            rec["features"] = self.merged_kv(feats) if feats else None
            ifs = [tid for tid in my if cat.get(tid) == "interfaces"]
            rec["interfaces"] = self.merged_kv(ifs) if ifs else None
            params = {}
            for tid in tp:
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
            rec["parameters"] = params or None
            rec["tables"] = tables
            rec["call_model"] = self.call_model(sec, sid, hline)
            rec["replication"] = self.replication(sec, hline)
            if rec["call_model"] is None:
                rec["notes"].append(CALL_MODEL_NOT_STATED[sec])
            if sec in REPLICATION_ELSEWHERE:
                rec["notes"].append(REPLICATION_ELSEWHERE[sec])
            rec["contradictions"] = []
            for con in spec.get("contradictions", []):
                versions = [self._cite(v, hline) for v in con["versions"]]
                reuse = con.get("reuse")
                prior = [e["id"] for e in c.errata if reuse and e.get("table_id") == reuse[0] and e["kind"] == reuse[1]]
                eid = prior[0] if prior else self.E(scenario=sid, table_id=next((v["table_id"] for v in versions if v.get("table_id")), None),
                             lines=[v["line"] for v in versions if v.get("line")], where=con["field"], kind="contradiction",
                             raw="\n".join(v["text"] for v in versions), problem=con["summary"], action="noted",
                             reason=con.get("reason", "Every version is cited in scenarios.yaml; the record uses "
                                                      "the value stated in its field's note."))
                rec["contradictions"].append({"field": con["field"], "summary": con["summary"], "versions": versions,
                                              "erratum": eid})
            order = ["id", "doc", "section", "title", "short_title", "deployment_mode", "release", "sites_provisioned",
                     "sites_with_traffic", "load", "asm", "asm_note", "duration", "call_mix", "call_model", "subscribers",
                     "replication", "hardware", "software", "features", "interfaces", "parameters", "tables",
                     "contradictions", "notes"]
            c.scenarios.append({k: rec[k] for k in order if k in rec})
        self.prose_errata(heads)

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

    def _cite(self, spec, hline):
        """spec: ('title', text) | ('prose', text) | ('row', tid, label) | ('table', tid, text, where)."""
        kind = spec[0]
        if kind == "title":
            if spec[1] not in self.lines[hline - 1]:
                raise KeyError(spec)
            return {"text": spec[1], "table_id": None, "line": hline, "where": "title"}
        if kind == "prose":
            return self.cite_text(spec[1], "prose", start=hline)
        if kind == "row":
            return self.cite_row(spec[1], spec[2])
        if kind == "table":
            tid, text, where = spec[1], spec[2], spec[3]
            t = self.by_id[tid]
            n = self.find_line(text, t.first_line)
            if n > t.last_line:
                raise KeyError(spec)
            return {"text": text, "table_id": tid, "line": n, "where": where}
        raise ValueError(spec)

    # ------------------------------------------------------------ call model and replication
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

    # ------------------------------------------------------------ held state
    def held_state(self):
        """Which services hold sessions, bindings or subscriber data, and how many each run held (appended after every
        other erratum, so published ids keep their numbers).

        ``holds`` of a service (services.yaml): the 'Traffic distribution to Policy databases' tables (3-240, 3-251,
        3-262) name database schemas and their tables, not services; DB_SCHEMAS connects each schema to the service
        whose printed name it carries, and the cite is the first row naming the schema's main table. ``subscribers``
        of a scenario gets ``counts`` (``common.printed_counts``; a bare number counts what its label names,
        COUNTED) and ``status`` (missing for 'NA'). Raises CellError for a schema or a row label with no reading, a
        service or name that is not in the data, or a main table no row names."""
        c = self.c
        dbt = [t for t in self.tables if (t.caption or "").endswith("Traffic distribution to Policy databases")]
        if [t.id for t in dbt] != ["3-240", "3-251", "3-262"]:
            raise CellError(f"policy: 'Traffic distribution to Policy databases' tables are {[t.id for t in dbt]}")
        printed: dict[str, list] = {}
        for t in dbt:
            for r in self.lrows[t.id]:
                if r.cells[0].endswith("$EX"):
                    continue
                schema, _, table = r.cells[0].partition(".")
                if schema not in DB_SCHEMAS:
                    raise CellError(f"policy Table {t.id} line {r.line}: no service known for schema {schema!r} (DB_SCHEMAS)")
                printed.setdefault(schema, []).append((t, r, table))
        services = {s["service"]: s for s in c.services if s["component"] == "app"}
        names = {}
        for row in c.rows["resources"]:
            names.setdefault(row["row_label"], row["table_id"])
        for schema, (service, what, main, name) in DB_SCHEMAS.items():
            rec = services.get(service)
            if rec is None or name not in rec["aliases"] or name not in names:
                raise CellError(f"policy: schema {schema!r}: service {service!r} or its printed name {name!r} is not in the data")
            hits = printed.get(schema, [])
            first = next(((t, r) for t, r, table in hits if table == main), None)
            if first is None:
                raise CellError(f"policy: no row names {schema}.{main}")
            t, r = first
            tabs = list(dict.fromkeys(table for _, _, table in hits))
            where = list(dict.fromkeys(t2.id for t2, _, _ in hits))
            secs = list(dict.fromkeys(t2.section.rsplit(".", 1)[0] for t2, _, _ in hits))
            rec["holds"] = {
                "what": what,
                "cite": {"text": r.cells[0], "table_id": t.id, "line": r.line, "where": f"Table {t.id}, row '{r.cells[0]}'"},
                "note": (f"{_plural('Table', where)} {_and(where)} ('Traffic distribution to Policy databases', "
                         f"{_plural('scenario', secs)} {_and(secs)}) {'name' if len(where) > 1 else 'names'} the database "
                         f"schema {schema}, with its {_plural('table', tabs)} {_and(tabs)}, but not the service that owns "
                         f"it: the schema is read as that of the {_service_words(rec['display_name'])}, whose name it carries "
                         f"('{name}', Table {names[name]}). The records are rows of cnDBTier tables; the guide does not "
                         "say the service keeps them in its own memory."),
            }
        for sc in c.scenarios:
            sub = sc.get("subscribers")
            if not sub:
                continue
            if sub["label"] not in COUNTED:
                raise CellError(f"policy {sc['id']}: no reading of what row {sub['label']!r} counts (COUNTED)")
            if sub["raw"].strip() == "NA":
                sub.update(counts=[], status="missing")
                continue
            sub.update(counts=printed_counts(sub["raw"], COUNTED[sub["label"]]), status="ok")
            if any(n["what"] == "sessions" for n in sub["counts"]):
                cite = sub["cite"]
                self.E(scenario=sc["id"], table_id=cite["table_id"], lines=[cite["line"]], where=f"row '{sub['label']}'",
                       kind="unit", raw=sub["raw"],
                       problem=f"The row '{sub['label']}' also counts sessions ('{sub['raw']}') without saying which "
                               "sessions.", action="kept-as-printed",
                       reason="Kept as 'sessions': the Traffic Ratio of the same table creates SM sessions and IMS Rx "
                              "sessions, and the guide does not say whether the count is of the first or of both.")

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


# ---------------------------------------------------------------- held state
DB_SCHEMAS = {
    "occnp_pcf_sm": ("sm-service", "sessions", "SmPolicyAssociation", "ocpcf-pcf-smservice"),
    "occnp_binding": ("binding", "bindings", "contextbinding", "ocpcf-oc-binding"),
    "occnp_policyds": ("policyds", "subscriber-data", "pdssubscriber", "ocpcf-ocpm-policyds"),
    "occnp_pcrf_core": ("pcrf-core", "sessions", "gxsession", "ocpcf-pcrf-core"),
    "occnp_usagemon": ("usage-monitoring", "usage-monitoring-contexts", "UmContext", "Usage Monitoring"),
}
"""Database schema of the 'Traffic distribution to Policy databases' tables -> (service, what it holds, the table
whose row is cited, the printed service name the schema's name matches). The guide names the schemas, not their
services: each is connected by its name alone (occnp_pcf_sm / ocpcf-pcf-smservice). No table of the AM or UE
service is printed, so neither gets one."""
COUNTED = {"Active Subscribers": "subscribers", "Active User Count": "users"}
"""What a bare number of each test-parameter row label counts."""


def _and(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _service_words(display: str) -> str:
    """'SM Service' as is, 'PCRF Core' -> 'PCRF Core service'."""
    return display if display.lower().endswith("service") else display + " service"


def _plural(word: str, items: list) -> str:
    return word + ("s" if len(items) > 1 else "")


# ---------------------------------------------------------------- scenario facts
def _L(total, per_site, cite):
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


# ---------------------------------------------------------------- call models (which runs share one)
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


def curate() -> Curated:
    return Builder().run()
