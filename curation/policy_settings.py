"""Settings tables of the Policy guide into settings.csv: each scenario's test parameters, features, interfaces,
Policy and cnDBTier Helm parameters, hardware and software, one row per printed cell. An empty cell, 'NA', 'None'
or "['NA']" is recorded as missing and '-' as not applicable, each with what was printed; the values stay text."""
from __future__ import annotations

from .policy_guide import PolicyGuide, scenario_of


class Settings(PolicyGuide):
    """``do_settings``: a settings table's cells as rows of settings.csv and its catalogue entry."""

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
