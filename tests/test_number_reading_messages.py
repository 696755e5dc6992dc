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
