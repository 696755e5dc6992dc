"""DSR calculator: the rows, notes, sources and report text a reader sees, checked against named table rows of the
DSR guide and hand-written expectations (mutants of calculators/dsr.py that main's tests let survive)."""
from __future__ import annotations

from calculators import dsr, report


def _rows(res: dict) -> dict:
    return {row[1]: row for row in dsr._rows(res)}


def test_printed_rate_row_is_in_mps_as_printed(bundle):
    """Table 3-8 (FABR + Relay) prints '288K (18K/MP)': the rate row is 18,000 MPS per DA-MP, unit MPS, source 'as
    printed' (not derived: the guide prints it)."""
    res = dsr.compute(bundle, "dsr-fabr-udr", 288000, cpu_ceiling_percent=38)
    assert _rows(res)["rate"] == ("computed", "rate", "MPS per DA-MP at the measured CPU peak", 18000, "MPS", "as printed")


def test_relay_run_names_the_relay_tuning_rule(bundle):
    """Table 3-1 row 1 is a 'DA-MP relay' run: the DSR infrastructure rule of topic da-mp-relay-tuning (dsr-G22 in
    data/dsr/guidance.yaml) bears on it and is listed among its notes, naming the run's section."""
    res = dsr.compute(bundle, "dsr-relay-12vcpu", 288000)
    assert any(n.startswith("dsr-G22 (DSR infrastructure rule, stated in section ") for n in res["notes"]), res["notes"]


def test_html_names_where_the_mated_pair_rule_comes_from(bundle):
    """The result's sources link the guide's planning procedure on the DSR infrastructure rules page."""
    html = dsr.result_html(dsr.compute(bundle, "dsr-relay-12vcpu", 288000))
    assert ('(the guide\'s <a href="../../products/dsr/guidance/#planning-procedure">planning procedure</a> on the DSR '
            "infrastructure rules page)") in html


def test_report_method_sheet_spares_row(bundle):
    """Table 3-1 row 1, 240,000 MPS, one spare, mated pairs: the report's Method sheet says '1 spare DA-MP(s) per DSR
    site added (N+k), counted within the site limit.' under 'Spares' (DA-MPs have the 16-per-site limit)."""
    rep = dsr.report_web(bundle, {"scenario": "dsr-relay-12vcpu", "target": "240000", "spare": "1",
                                  "redundancy": "mated-pair"})
    method = {x[0]: x[1] for x in report.sheet_named(rep, "Method")["rows"]}
    assert method["Spares"] == "1 spare DA-MP(s) per DSR site added (N+k), counted within the site limit."
