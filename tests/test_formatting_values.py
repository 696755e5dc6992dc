"""calculators/formatting.py's text helpers, each on values worked out by hand in the comments (never from the code
under test): HTML escaping, numbers for people (``fmt``), tidy CSV numbers, table anchors and RFC 4180 quoting.
tests/test_csv_injection.py holds the formula-cell rule (``csv_cell``) case by case; the cases here are the ones it
does not reach."""
from __future__ import annotations

import csv
import io
from fractions import Fraction

from calculators.formatting import _quoted, csv_cell, csv_writer, escape, fmt, table_anchor, tidy_number


def test_escape_replaces_an_ampersand_alone():
    # "AT&T" holds only the ampersand of the five characters: & -> &amp; (html.escape does the same)
    assert escape("AT&T") == "AT&amp;T"
    assert escape("Table 3-29 <Policy & BSF>") == "Table 3-29 &lt;Policy &amp; BSF&gt;"
    assert escape("a 'b' \"c\"") == "a &#x27;b&#x27; &quot;c&quot;"
    assert escape("a 'b' \"c\"", quote=False) == "a 'b' \"c\""
    assert escape("BSF Management Service") == "BSF Management Service"


def test_fmt_writes_booleans_as_yes_and_no():
    assert fmt(True) == "yes" and fmt(False) == "no"
    assert fmt(None) == "—"


def test_fmt_numbers_by_hand():
    # thousands separators; up to 3 decimals, trailing zeros dropped: 2.5, 1/3 = 0.333, 684 / 21.5 = 31.8139... -> 31.814
    assert fmt(126000) == "126,000"
    assert fmt(2.5) == "2.5" and fmt(2.0) == "2"
    assert fmt(Fraction(1, 3)) == "0.333" and fmt(Fraction(684) / Fraction("21.5")) == "31.814"
    assert fmt(Fraction(12000, 1)) == "12,000"
    assert fmt(1234.5678, places=1) == "1,234.6"
    assert fmt(0.10) == "0.1" and fmt(10.0) == "10"  # zeros before the point are kept, after it dropped
    assert fmt("n/a") == "n/a"
    assert fmt(2.0001) == "2"  # "2.000" -> trailing zeros, then the bare point, dropped
    assert fmt(2 ** 60 + 1) == "1,152,921,504,606,846,977"  # an int beyond a float's 53 bits stays exact


def test_fmt_reads_number_subclasses_as_numbers():
    """A subclass of float or int (numpy's float64 is one) formats as its value: 2.5 -> '2.5', 3 -> '3',
    Fraction subclass 7/2 -> 3.5."""
    class Cores(float):
        pass

    class Replicas(int):
        pass

    class Share(Fraction):
        pass

    assert fmt(Cores(2.5)) == "2.5" and fmt(Cores(4.0)) == "4"
    assert fmt(Replicas(12000)) == "12,000"
    assert fmt(Share(7, 2)) == "3.5" and fmt(Share(6, 1)) == "6"


def test_tidy_number_by_hand():
    # 9 decimals, trailing zeros and a bare point dropped, no separators
    assert tidy_number(12000.0) == "12000" and tidy_number(Fraction(5, 2)) == "2.5"
    assert tidy_number(Fraction(1, 8)) == "0.125" and tidy_number(-0.0000000001) == "0"


def test_table_anchor_keeps_letters():
    # Table ids as the guides print them: the SHCM guide's "T-cassandra-disk" (data/shcm/measurements.csv) and the
    # Policy guide's "U-3.2.5.1-1" (data/policy/settings.csv): lower case, every run of other characters one dash
    assert table_anchor("3-29") == "table-3-29"
    assert table_anchor("T-cassandra-disk") == "table-t-cassandra-disk"
    assert table_anchor("U-3.2.5.1-1") == "table-u-3-2-5-1-1"
    assert table_anchor(" A 1 ") == "table-a-1"


def test_csv_cell_keeps_text_after_white_space():
    # white space first, then a letter: no formula sign, the cell stays as it is
    assert csv_cell(" Total") == " Total"
    assert csv_cell("\u00a0Site1") == "\u00a0Site1"
    assert csv_cell(" -") == " -"


def test_quoted_cells_by_hand():
    """RFC 4180: text holding , " LF or CR in double quotes with its quotes doubled; numbers as str; None as ''."""
    assert _quoted("a,b") == '"a,b"'
    assert _quoted('say "hi"') == '"say ""hi"""'
    assert _quoted("a\rb") == '"a\rb"' and _quoted("a\nb") == '"a\nb"'
    assert _quoted("plain") == "plain" and _quoted(None) == ""
    assert _quoted(5) == "5" and _quoted(2.5) == "2.5"


def test_a_row_with_a_carriage_return_is_quoted_whole():
    """A row holding a bare CR is written by _quoted: 5 -> 5, "a,b" quoted, '=1' made inert ('=1), the CR cell
    quoted; Python's csv reader reads the same cells back."""
    f = io.StringIO()
    csv_writer(f).writerow([5, "a,b", "=1", 'x"\ry', None])
    assert f.getvalue() == '5,"a,b",\'=1,"x""\ry",\n'
    assert next(csv.reader(io.StringIO(f.getvalue(), newline=""))) == ["5", "a,b", "'=1", 'x"\ry', ""]


def test_csv_cell_marks_a_tab_or_carriage_return_first_whatever_follows():
    """OWASP's "CSV Injection" list: a cell starting with a tab (0x09) or a carriage return (0x0D) gets the apostrophe
    even when a letter follows (no formula sign after the white space): "\\tTotal" -> "'\\tTotal", "\\rSite1" ->
    "'\\rSite1". A space first is not on that list: " Total" stays as it is (test_csv_cell_keeps_text_after_white_space)."""
    assert csv_cell("\tTotal") == "'\tTotal"
    assert csv_cell("\rSite1") == "'\rSite1"
