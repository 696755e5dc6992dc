"""The number reader every calculator shares (calculators/inputs.py): whole refusal messages for each kind of bad
number, and the spellings of a number it accepts. Expected texts are the messages the module's docstrings promise
(field name, unit, the value as typed), written out here by hand."""
from __future__ import annotations

from fractions import Fraction

import pytest

from calculators import inputs


class Refused(ValueError):
    pass


@pytest.mark.parametrize("value, typed", [(float("nan"), "nan"), (float("inf"), "inf"), (float("-inf"), "-inf"),
                                          ("nan", "nan"), (" Infinity ", "Infinity"), ("-inf", "-inf")])
def test_nan_and_infinity_are_refused_quoting_the_value(value, typed):
    """A float NaN or infinity, and their spellings as text, are refused by name, the value quoted as typed."""
    with pytest.raises(Refused) as e:
        inputs.parse(value, "Target traffic", "MPS", Refused)
    assert str(e.value) == f"Target traffic must be a finite number in MPS, not {typed}."


@pytest.mark.parametrize("text, value", [("80_000", 80000), ("1_234.5", Fraction(2469, 2)), ("1e1_0", 10**10)])
def test_underscores_between_digits_are_read_as_python_reads_them(text, value):
    """'80_000' (Python's digit grouping) reads as 80,000: the underscores are dropped before the number is read."""
    assert inputs.parse(text, "Target traffic", "MPS", Refused) == value


def test_empty_and_non_numbers_are_refused_in_whole_sentences():
    """Each refusal names the field and its unit; a non-number is quoted as typed."""
    cases = [(None, "Target traffic is empty: enter a number in MPS."),
             ("  ", "Target traffic is empty: enter a number in MPS."),
             (True, "Target traffic must be a number in MPS."),
             ([1], "Target traffic must be a number in MPS."),
             ("12 MPS", "Target traffic must be a number in MPS, not '12 MPS'."),
             ("1e401", "Target traffic must be a number between 0.000001 and 1,000,000,000,000 MPS; got 1e401.")]
    for value, message in cases:
        with pytest.raises(Refused) as e:
            inputs.parse(value, "Target traffic", "MPS", Refused)
        assert str(e.value) == message, value


@pytest.mark.parametrize("value, message", [
    ("-3", "Load must be greater than zero (TPS); got -3."),
    ("0", "Load must be greater than zero (TPS); got 0."),
    (" 0.0000001 ", "Load must be from 0.000001 to 1,000,000,000,000 TPS; got 0.0000001."),
    ("2e12", "Load must be from 0.000001 to 1,000,000,000,000 TPS; got 2e12."),
])
def test_positive_refusals_in_whole_sentences(value, message):
    with pytest.raises(Refused) as e:
        inputs.positive(value, "Load", "TPS", Refused)
    assert str(e.value) == message


def test_positive_ranges_narrowed_by_the_caller_and_zero_when_allowed():
    """``minimum``/``maximum`` narrow 0.000001..10^12 (never widen it); ``allow_zero`` lets 0 through unchecked."""
    with pytest.raises(Refused) as e:
        inputs.positive("150", "Target", "percent", Refused, maximum=100)
    assert str(e.value) == "Target must be from 0.000001 to 100 percent; got 150."
    with pytest.raises(Refused) as e:
        inputs.positive("2e12", "Load", "TPS", Refused, maximum=10**15)  # above 10^12: the module's limit holds
    assert str(e.value) == "Load must be from 0.000001 to 1,000,000,000,000 TPS; got 2e12."
    with pytest.raises(Refused) as e:
        inputs.positive("0.0000001", "Load", "TPS", Refused, minimum=0)  # below 0.000001: the module's limit holds
    assert str(e.value) == "Load must be from 0.000001 to 1,000,000,000,000 TPS; got 0.0000001."
    assert inputs.positive("100", "Target", "percent", Refused, minimum=1, maximum=100) == 100
    assert inputs.positive("0", "Spare nodes", "nodes", Refused, allow_zero=True) == 0
    with pytest.raises(Refused) as e:
        inputs.positive("-1", "Spare nodes", "nodes", Refused, allow_zero=True)
    assert str(e.value) == "Spare nodes must be greater than zero (nodes); got -1."


def test_percent_with_its_own_ends_and_a_percent_sign():
    assert inputs.percent(" 80% ", "Target", Refused) == 80
    assert inputs.percent("0", "Headroom", Refused, lowest=0, highest=50) == 0
    with pytest.raises(Refused) as e:
        inputs.percent("51%", "Headroom", Refused, lowest=0, highest=50)
    assert str(e.value) == "Headroom must be between 0 and 50 %; got 51."


@pytest.mark.parametrize("value, message", [
    ("150", "CPU ceiling must be at most 100 percent; got 150."),
    ("0.5", "CPU ceiling must be at least 1 percent; got 0.5."),
    ("0", "CPU ceiling must be greater than zero (percent); got 0."),
    ("abc", "CPU ceiling must be a number in percent, not 'abc'."),
])
def test_ceiling_refusals_in_whole_sentences(value, message):
    with pytest.raises(Refused) as e:
        inputs.optional_ceiling(value, Refused)
    assert str(e.value) == message


def test_ceiling_empty_is_none_and_the_message_can_say_of_what():
    assert inputs.optional_ceiling(None, Refused) is None and inputs.optional_ceiling(" ", Refused) is None
    assert inputs.optional_ceiling("1", Refused) == 1 and inputs.optional_ceiling(100, Refused) == 100
    with pytest.raises(Refused) as e:
        inputs.optional_ceiling("101", Refused, " of a node's cores")
    assert str(e.value) == "CPU ceiling must be at most 100 percent of a node's cores; got 101."
    with pytest.raises(Refused) as e:
        inputs.optional_ceiling("0.9", Refused, " of a node's cores")
    assert str(e.value) == "CPU ceiling must be at least 1 percent of a node's cores; got 0.9."


@pytest.mark.parametrize("value, count", [(None, 0), ("", 0), ("  ", 0), (" 3 ", 3), (3, 3), ("4.0", 4), (64, 64),
                                          ("0", 0)])
def test_spare_count_reads_whole_numbers(value, count):
    assert inputs.spare_count(value, "Spare MPs", 64, Refused) == count


@pytest.mark.parametrize("value, typed", [("1.5", "1.5"), ("-1", "-1"), ("65", "65"), (True, "True"), ("x", "x"),
                                          ("1/0", "1/0"), ("9" * 101, "9" * 39 + "…")])
def test_spare_count_refusals_quote_the_value(value, typed):
    with pytest.raises(Refused) as e:
        inputs.spare_count(value, "Spare MPs", 64, Refused)
    assert str(e.value) == f"Spare MPs must be a whole number from 0 to 64; got {typed!r}."


def test_shown_and_limits_as_messages_print_them():
    assert inputs.shown(Fraction(5)) == "5" and inputs.shown(Fraction(1, 3)) == "0.333333"
    assert inputs.shown(0.1) == "0.1" and inputs.shown("  x  ") == "x"
    assert inputs.shown("y" * 40) == "y" * 40 and inputs.shown("y" * 41) == "y" * 39 + "…"
    assert inputs.fmt_limit(Fraction(1, 10**6)) == "0.000001" and inputs.fmt_limit(Fraction(10**12)) == "1,000,000,000,000"
    assert inputs.fmt_limit(Fraction(1, 2)) == "0.5" and inputs.fmt_limit(Fraction(100)) == "100"


def test_parse_keeps_exact_values_and_refuses_overlong_text():
    """A float is read as the decimal it prints as (0.1 is 1/10); a Fraction and an int pass unchanged."""
    assert inputs.parse(0.1, "Load", "TPS", Refused) == Fraction(1, 10)
    assert inputs.parse(Fraction(2, 3), "Load", "TPS", Refused) == Fraction(2, 3)
    assert inputs.parse(-7, "Load", "TPS", Refused) == -7 and inputs.parse("+5", "Load", "TPS", Refused) == 5
    assert inputs.parse("1e400", "Load", "TPS", Refused) == 10**400  # an exponent of 400 is read (positive() refuses it)
    assert inputs.exact(0.1) == Fraction(1, 10) and inputs.exact("2.50") == Fraction(5, 2)
    with pytest.raises(Refused) as e:
        inputs.parse("1" * 101, "Load", "TPS", Refused)
    assert str(e.value) == f"Load is too long to be a number in TPS (101 characters: {'1' * 39}…)."
    with pytest.raises(Refused) as e:
        inputs.parse("1e-401", "Load", "TPS", Refused)
    assert str(e.value) == "Load must be a number between 0.000001 and 1,000,000,000,000 TPS; got 1e-401."
