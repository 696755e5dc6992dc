"""Latency tables of the Policy guide into latency.csv: average, 50th and 99th percentile and peak latencies per
service or call flow and site, and the cnDBTier replication delays (in ms; seconds converted exactly, a 'low-high'
delay kept as a range). A table read in a way of its own has a method ``lat_<table id>``; every other is read by
``lat_generic``. Units printed in the wrong column or not at all, row-span losses and percentiles below their average
are recorded as errata."""
from __future__ import annotations

import re

from .common import CellError, num, site_from_label
from .policy_guide import PolicyGuide, ms_from_s, scenario_of


class Latency(PolicyGuide):
    """``do_latency``: a latency table's cells as rows of latency.csv, with the errata of its defects."""

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
