"""Errata of the Policy guide's tables that no table's own reading records: rows split over several printed lines,
table numbers and captions lost or glued to a note, truncated content, typos and malformed cells, duplicated rows
and tables, implausible values, call models whose arithmetic does not agree with the test parameters
(``table_errata``, in the order of the curation notes, 4.1 to 4.9), units the guide does not print
(``unprinted_readings``) and the defects a second reading found (``audit_errata``). Appended after the tables' own
errata, in this order, so published erratum ids keep their numbers."""
from __future__ import annotations

import re

from .common import k_number
from .policy_guide import LOST_NUMBER
from .policy_zero_readings import ZeroReadings
from .provenance import mark_readings

MISSING_NUMBERS = ["3-32", "3-42", "3-85", "3-96", "3-108", "3-144", "3-154", "3-189", "3-197", "3-206", "3-215", "3-224"]


class TableErrata(ZeroReadings):
    """Errata over the tables (the audit flags Table 3-40's zeros through ``ZeroReadings.flag_zero_cpu``)."""

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
        """The errata of the tables that no table's own reading records, in the order of the curation notes' sections
        (the order fixes their ids)."""
        self._lost_number_errata()
        self._glued_caption_errata()
        self._truncated_content_errata()
        self._typo_errata()
        self._malformed_cell_errata()
        self._duplicate_errata()
        self._implausible_value_errata()
        self._call_model_arithmetic_errata()
        # the 3-260/3-249 pair is noted in Latency.lat_3_260; 3-11 has none

    def _lost_number_errata(self):
        """4.2: tables without a caption or number, the twelve numbers that never appear, a header without its
        separator row."""
        E = self.E
        by = self.by_id
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

    def _glued_caption_errata(self):
        """4.1: captions and section headings glued to the end of the line before them."""
        E = self.E
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

    def _truncated_content_errata(self):
        """4.3: cells, captions, rows and words lost in extraction."""
        E = self.E
        by = self.by_id
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

    def _typo_errata(self):
        """4.4: typos in captions, headers, row labels and values."""
        E = self.E
        by = self.by_id
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
        for tid in ("3-122", "3-147"):
            self._row_erratum(tid, "Dnabled", "'Dnabled' is neither 'Enabled' nor 'Disabled'; which was meant cannot be "
                              "told.", col=1)
        for tid in ("3-190", "3-199", "3-208"):
            self._row_erratum(tid, "Bulkwark", "'Bulkwark' for 'Bulwark'.")
        self._row_erratum("3-135", "Preferntial", "'Preferntial' for 'Preferential'.")
        self._row_erratum("3-173", "cacheing", "'cacheing' for 'caching'.")
        self._row_erratum("3-67", "ndbsqld", "'ndbsqld' is not a cnDBTier node name (probably 'ndbmysqld').",
                          kind="name")
        self._row_erratum("3-139", "db_eventbuffer_max_alloc",
                          "Elsewhere the parameter is 'ndb_eventbuffer_max_alloc' (Tables 3-6, 3-17, 3-27, 3-37).",
                          kind="name")
        for tid in ("3-5", "3-16", "3-26", "3-36", "3-66", "3-79", "3-89", "3-101", "3-112", "3-124", "3-137", "3-149"):
            self._row_erratum(tid, "Gx UDR subscription (Gx-Nudr", "The closing parenthesis is missing "
                              "('Gx UDR subscription (Gx-Nudr' against 'Gx UDR subscription (Gx-Nudr)' in Table "
                              "3-184).")
        for tid in ("3-33", "U-3.3.1.1-1", "U-3.3.2.1-1", "U-3.4.3.1-1"):
            self._row_erratum(tid, "CCRI-I", "'CCRI-I' in the traffic ratio, probably 'CCRI-1' like the other '-1' "
                              "counts; 'AARI –1' and 'STR –1' use an en dash.", col=1)
        for tid in ("3-168", "3-181"):
            t = by[tid]
            E(table_id=tid, lines=[t.header_line], where="header", kind="typo", raw=self.src(t.header_line),
              problem="'cnDBtier' for 'cnDBTier' (case).", action="kept-as-printed")
        n = self.find_line("Test Case Parmeters", by["U-3.3.1.1-1"].header_line - 3)
        E(table_id="U-3.3.1.1-1", lines=[n], where="heading introducing the table", kind="typo", raw=self.src(n),
          problem="'Parmeters' for 'Parameters'.", action="kept-as-printed")
        self._row_erratum("U-3.4.2.1-1", "15 KTPS", "A space inside the unit ('15 KTPS'; elsewhere '15KTPS').",
                          kind="format", col=1)
        self._row_erratum("3-227", "(15 ktps each sites)", "A space inside the unit and lower-case 'ktps' ('15 ktps'); "
                          "'each sites' for 'each site'.", kind="format", col=1)
        self._row_erratum("3-14", "Subscriber Activity Logging (SAL)",
                          "'Subscriber Activity Logging (SAL)' here, 'Subscriber Activity Log (SAL)' in Tables 3-3, 3-24 "
                          "and 3-34.", kind="name")

    def _malformed_cell_errata(self):
        """Test-parameter cells whose list items are glued together or printed twice."""
        for tid in ("3-86",):
            self._row_erratum(tid, "DeleteIMS", "List items glued together without separators ('1 SM DeleteIMS:-', "
                              "'1 SM DeleteAPP:-', '1 SM DeleteADMIN:-').", kind="format", col=1)
        for tid in ("U-3.5.1.1-1", "U-3.5.2.1-1"):
            self._row_erratum(tid, "Diam-Out 3IGW-11", "The traffic ratio is printed twice, glued together "
                              "('...Diam-Out 3IGW-11 ,EGW-26,Diam-in=9,Diam-out - 3').", kind="duplicate", col=1)

    def _duplicate_errata(self):
        """4.9: keys, features and interfaces listed twice, and whole tables repeated across scenarios."""
        E = self.E
        by = self.by_id
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

    def _implausible_value_errata(self):
        """4.7: values the same run's other tables contradict."""
        E = self.E
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

    def _call_model_arithmetic_errata(self):
        """4.8: call-model totals against the test parameters' call rate."""
        E = self.E
        tot = self.line_of("3-2", "Total Messages")
        cr = self.line_of("3-1", "Call Rate")
        E(table_id="3-2", lines=[tot.line, cr.line], where="row 'Total Messages' vs Table 3-1 Call Rate", kind="contradiction",
          raw=f"{tot.text}\n{cr.text}",
          problem="The call model totals 1920 (TPS per its header) while the test parameters give a call rate of 30K TPS "
                  "(7.5K TPS on each site); the call model's unit or scale is unclear.", action="kept-as-printed")
        a, b = self.line_of("3-216", "Diameter Gateway Ingress"), self.line_of("3-216", "Diameter Gateway Egress")
        s = k_number(a.cells[1].replace(" TPS", "")) + k_number(b.cells[1].replace(" TPS", ""))
        p = self.line_of("U-3.4.3.1-1", "Call Rate (Diameter Gateway)")
        E(table_id="3-216", lines=[a.line, b.line, p.line], where="rows 'Diameter Gateway Ingress/Egress'", kind="arithmetic",
          raw=f"{a.cells[1]}\n{b.cells[1]}\n{p.cells[1]}",
          problem=f"Ingress 8.33K + Egress 6.31K = {s:g} TPS, against 15K TPS per site in the test parameters.",
          action="kept-as-printed")

    def _row_erratum(self, tid, label, problem, kind="typo", action="kept-as-printed", reading=None, reason=None,
                     col=0):
        """An erratum on the rows of Table ``tid`` whose cell ``col`` (0: the label) holds ``label``, noted on each of
        them; its id. KeyError (tid, label) if no row does."""
        rows = [r for r in self.lrows[tid] if label in r.cells[col]]
        if not rows:
            raise KeyError((tid, label))
        extra = {}
        if reading is not None:
            extra["reading"] = reading
        if reason is not None:
            extra["reason"] = reason
        eid = self.E(table_id=tid, lines=[r.line for r in rows], where=("row label" if col == 0 else "value") +
                     f" '{rows[0].cells[0]}'", kind=kind, raw=rows[0].text, problem=problem, action=action, **extra)
        for r in rows:
            self._note_rows(tid, r.line, eid)
        return eid

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
        """Defects a second reading of the guide (an audit of the provenance: tests/test_data_audit_values.py) found with no
        erratum; appended so earlier ids keep their numbers."""
        self._audit_typo_errata()
        self._idle_call_path_errata()
        self._audit_value_errata()

    def _audit_typo_errata(self):
        """Typos in headers and row labels, and 'NA' printed as a list literal."""
        E, by = self.E, self.by_id
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
        rs = self._printed_rows("3-174", lambda r: r.cells[0] == "PDs")
        eid = E(table_id="3-174", lines=[r.line for r in rs], where="row label 'PDs'", kind="typo", raw=rs[0].text.strip(),
                problem="'PDs' for 'PDS' (the row follows 'PDS Istio').", action="read-as", reading="PDS",
                reason="Every other table of the chapter prints 'PDS'.")
        self._note_printed("3-174", rs, eid)
        # list-literal NA markers
        for tid in ("3-54", "3-235"):
            rs = self._printed_rows(tid, lambda r: "['NA']" in r.cells)
            eid = E(table_id=tid, lines=[r.line for r in rs], where="rows " + ", ".join(r.cells[0] for r in rs),
                    kind="format", raw="\n".join(r.text.strip() for r in rs),
                    problem="'NA' printed as a Python list literal (\"['NA']\"), a serialisation artefact.",
                    action="read-as", reading="NA: no value", reason="Kept with status 'missing' and no value.")
            self._note_printed(tid, rs, eid)

    def _idle_call_path_errata(self):
        """Table 3-40: services on the call path of scenario 3.1.4 at 0 % under load, flagged
        (``ZeroReadings.flag_zero_cpu``)."""
        E = self.E
        # services on the call path at 0% under load: not measurements (flagged, left out of calculations)
        idle = self._printed_rows("3-40", lambda r: r.cells[0] in ("ocpcf-pcrf-core", "ocpcf-ocpm-pre",
                                                                   "ocpcf-oc-binding"))
        busy = self._printed_rows("3-41", lambda r: r.cells[0] == "ndbappmysqld")
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

    def _audit_value_errata(self):
        """Values the runs' other tables or settings do not explain: cnDBTier busy at a site without traffic, zero
        latencies, a setting that differs between two compared runs, resource tables missing, replicas of a disabled
        feature."""
        E, by = self.E, self.by_id
        # cnDBTier busy on a site without traffic
        for tid, sec, why in (("3-84", "3.2.2", "Total TPS | 50K | 0 | in its call model"),
                              ("3-143", "3.2.7", "the title's 'Single-Site Handling 75K TPS Traffic'")):
            rs = self._printed_rows(tid, lambda r: r.cells[0] == "ndbmtd")
            eid = E(table_id=tid, lines=[r.line for r in rs], where="row ndbmtd, Site2", kind="inconsistent-values",
                    raw=rs[0].text.strip(),
                    problem=f"ndbmtd prints {rs[0].cells[-1]} CPU at Site2, which carries no traffic in scenario {sec} "
                            f"({why}).", action="kept-as-printed",
                    reason="Possible (replication into the idle site's data nodes), but the guide does not explain it.")
            self._note_printed(tid, rs, eid)
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
            self._note_printed(tid, rs, eid)
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
        self._note_printed("3-265", [r], eid)

    def _printed_rows(self, tid, pred):
        """The rows of Table ``tid`` as printed (one per line, not merged) for which ``pred`` holds; KeyError(tid) if
        none does."""
        out = [r for r in self.by_id[tid].rows if pred(r)]
        if not out:
            raise KeyError(tid)
        return out

    def _note_printed(self, tid, rs, eid):
        """Add erratum ``eid`` to the notes of every curated row of Table ``tid`` (any kind) printed on a line of
        ``rs``."""
        lines = {r.line for r in rs}
        for kind in ("resources", "utilization", "latency", "measurements", "settings"):
            for row in self.c.rows.get(kind, []):
                if row["table_id"] == tid and row["line"] in lines:
                    row["note"] = (row["note"] + "; " if row.get("note") else "") + eid
