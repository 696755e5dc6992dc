"""CPU readings of 0 in the Policy guide's utilization tables that cannot be measurements: a service the run's call
model sends traffic through reads 0 % at a site carrying traffic (Tables 3-20, 3-40, 3-41, 3-70, 3-204, 3-267). Each
table's zeros get one flagged-excluded erratum that says why, and their cells status ``flagged``: kept as printed,
left out of the calculators. The zeros the call model allows (a service the run does not exercise, a feature
disabled, a site without traffic, ndbmgmd) stay usable; tests/test_data_policy.py pins the audit."""
from __future__ import annotations

from .common import CellError
from .policy_guide import PolicyGuide


class ZeroReadings(PolicyGuide):
    """``flag_zero_cpu`` flags one table's zeros; ``zero_reading_errata`` records their errata (but that of Table 3-40,
    which ``TableErrata.audit_errata`` records in its place among the published ids)."""

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
        self._zero_3_41()
        self._zero_3_20()
        self._zero_3_70()
        self._zero_3_204()
        self._zero_3_267()
        self._chf_contradiction_3_63()

    def _zero_3_41(self):
        """Table 3-41, scenario 3.1.4: the replication SQL nodes (ndbmysqld) idle while both sites write and replicate."""
        E = self.E
        by = self.by_id
        zero = self._rows_labelled("3-41", "ndbmysqld")
        busy = self._rows_labelled("3-41", "ndbappmysqld")
        repl = self.line_of("3-34", "Replication")
        prose = self.find_line("replicated on both the sites using Single-channel replication", by["3-33"].first_line - 10)
        eid = E(table_id="3-41", lines=[prose, repl.line] + [r.line for r in busy + zero], where="row ndbmysqld, Site1 and Site2",
                kind="inconsistent-values",
                raw="\n".join(["replicated on both the sites using Single-channel replication", repl.text] + _texts(busy + zero)),
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

    def _zero_3_20(self):
        """Table 3-20, scenario 3.1.2: Site 2 reads like a site without traffic, but the scenario gives it 15K TPS."""
        E = self.E
        zero = self._rows_labelled("3-20", "ocpcf-oc-binding", "ocpcf-ocpm-pre", "ocpcf-pcrf-core")
        rate, bind = self.line_of("3-12", "Call Rate"), self.line_of("3-14", "Binding Service")
        busy = self._rows_labelled("3-21", "ndbappmysqld")
        eid = E(table_id="3-20", lines=[rate.line, bind.line] + [r.line for r in zero + busy],
                where="rows ocpcf-oc-binding, ocpcf-ocpm-pre, ocpcf-pcrf-core, Site 2", kind="inconsistent-values",
                raw="\n".join([rate.text, bind.text] + _texts(zero + busy)),
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

    def _zero_3_70(self):
        """Table 3-70, scenario 3.2.1: Bulwark enabled, on the call model's path, at 0%."""
        E = self.E
        zero = self._rows_labelled("3-70", "ocpcf-bulwark")
        path, on = self.line_of("3-63", "Bulwark"), self.line_of("3-64", "Bulwark Service")
        alloc = self._rows_labelled("3-68", "Bulwark Service")
        eid = E(table_id="3-70", lines=[path.line, on.line] + [r.line for r in alloc + zero], where="row ocpcf-bulwark, Site1",
                kind="inconsistent-values", raw="\n".join([path.text, on.text] + _texts(alloc + zero)),
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

    def _zero_3_204(self):
        """Table 3-204, scenario 3.4.1: PCRF Core's Site2 cell holds what Query Service reads elsewhere."""
        E = self.E
        zero = self._rows_labelled("3-204", "ocpcf-pcrf-core-hpa")
        other = self._rows_labelled("3-204", "ocpcf-query-service-hpa")
        rate = self.line_of("U-3.4.1.1-1", "Call Rate (Diameter Gateway)")
        swap = next(e["id"] for e in self.c.errata if e["table_id"] == "3-204" and e["kind"] == "inconsistent-values")
        eid = E(table_id="3-204", lines=[rate.line] + [r.line for r in zero + other], where="row ocpcf-pcrf-core-hpa, Site2",
                kind="inconsistent-values", raw="\n".join([rate.text] + _texts(zero + other)),
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

    def _zero_3_267(self):
        """Table 3-267, scenario 3.6.1: the Ingress Gateway serves 1000 TPS at 0.00%."""
        E = self.E
        zero = self._rows_labelled("3-267", "Ingress Gateway")
        egress = self._rows_labelled("3-267", "Egress Gateway")
        tps, lat = self.line_of("3-261", "Ingress Gateway"), self.line_of("3-270", "Ingress Gateway")
        eid = E(table_id="3-267", lines=[tps.line, lat.line] + [r.line for r in egress + zero], where="row Ingress Gateway, CPU",
                kind="inconsistent-values", raw="\n".join([tps.text, lat.text] + _texts(egress + zero)),
                problem="Table 3-267: the Ingress Gateway prints 0.00% CPU although Table 3-261 puts 1000 TPS through it.",
                action="flagged-excluded",
                reason="The Ingress Gateway serves traffic in scenario 3.6.1: 1000 TPS in its traffic table (Table 3-261 "
                       "'Ingress Gateway | 1000 |') and an average latency of 31.8 ms (Table 3-270 'Ingress Gateway | "
                       "31.8 |'), while the Egress Gateway of the same run reads 7.00%; its 8 pods (Table 3-265) cannot "
                       "have used 0.00% of their CPU request. The CPU cell is kept as printed, flagged and left out "
                       "of calculations; the memory cell (10.00%) stays usable.")
        self.flag_zero_cpu("3-267", zero, ("",), eid)

    def _chf_contradiction_3_63(self):
        """Table 3-63, scenario 3.2.1: the call model and the feature tables disagree on the CHF Connector; its 0% (Table
        3-70) stays usable: a noted contradiction, not a flag."""
        E = self.E
        chf = self.line_of("3-63", "CHF Connector")
        sm, am = self.line_of("3-65", "CHF (SM-Nchf)"), self.line_of("3-66", "CHF enabled (AM)")
        util = self._rows_labelled("3-70", "ocpcf-occnp-chf-connector")
        eid = E(table_id="3-63", lines=[chf.line, sm.line, am.line] + [r.line for r in util],
                where="row 'CHF Connector' against Tables 3-65, 3-66 and 3-70", kind="contradiction",
                raw="\n".join([chf.text, sm.text, am.text] + _texts(util)),
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

    def _rows_labelled(self, tid, *labels):
        """The rows of Table ``tid`` as printed whose label is one of ``labels``, one each; KeyError naming the table
        and the rows otherwise."""
        out = [r for r in self.by_id[tid].rows if r.cells and r.cells[0] in labels]
        if len(out) != len(labels):
            raise KeyError(f"Table {tid}: rows {labels} expected, found {[r.cells[0] for r in out]}")
        return out


def _texts(rs):
    """The printed text of each of rows ``rs``, stripped."""
    return [r.text.strip() for r in rs]
