"""One number reader for every calculator (calculators/inputs.py): thousands separators stay valid,
an ambiguous decimal comma is an error (not 635), implausible values are refused with the number as typed."""
from __future__ import annotations

from fractions import Fraction

import pytest

from calculators import dsr, inputs, overtarget, shcm, catalogue


class E(ValueError):
    pass


@pytest.mark.parametrize("text, value", [
    ("63,500", 63500), ("1,234,567", 1234567), ("80,000.5", Fraction(160001, 2)), ("63.5", Fraction(127, 2)),
    (" 42 ", 42), ("1e5", 100000), ("0.000001", Fraction(1, 10**6)), (".5", Fraction(1, 2)), (7, 7),
])
def test_valid_numbers(text, value):
    assert inputs.positive(text, "Load", "TPS", E) == value


@pytest.mark.parametrize("text", ["63,5", "1,5000", "1,23", "63,50", ",500", "1,,000", "12,345,67"])
def test_ambiguous_decimal_comma_is_an_error(text):
    with pytest.raises(E, match="comma that is not a thousands separator"):
        inputs.positive(text, "Load", "TPS", E)


@pytest.mark.parametrize("value, shown", [("1e-300", "1e-300"), (1e-300, "1e-300"), ("1e400", "1e400"),
                                          ("0.0000001", "0.0000001"), (1e13, "10000000000000.0")])
def test_implausible_magnitudes_are_refused_as_typed(value, shown):
    with pytest.raises(E) as e:
        inputs.positive(value, "Node CPU", "cores", E)
    msg = str(e.value)
    assert f"got {shown}." in msg and "from 0.000001 to 1,000,000,000,000 cores" in msg
    assert len(msg) < 120  # no 300-digit expansion


def test_overlong_text_is_shortened():
    with pytest.raises(E) as e:
        inputs.positive("9" * 5000, "Load", "TPS", E)
    assert "5,000 characters" in str(e.value) and len(str(e.value)) < 120


@pytest.mark.parametrize("text", ["0.000001", "0.5", "0", "-3", "101", "100.01"])
def test_percent_from_1_to_100(text):
    with pytest.raises(E, match="between 1 and 100 %; got " + text.replace(".", r"\.") + r"\."):
        inputs.percent(text, "Target CPU utilization", E)


def test_percent_accepts_the_ends_and_a_sign():
    assert inputs.percent("1", "T", E) == 1 and inputs.percent("100%", "T", E) == 100
    assert inputs.percent("63.5", "T", E) == Fraction(127, 2)


def test_shown_never_expands():
    assert inputs.shown(1e-300) == "1e-300" and inputs.shown(Fraction(1, 3)) == "0.333333"
    assert inputs.shown("x" * 100) == "x" * 39 + "…"


def test_calculators_refuse_decimal_comma_and_tiny_ceiling(bundle):
    """The same reader behind the DSR, ShCM and over-target inputs, on the pages (catalogue.run) alike."""
    with pytest.raises(dsr.DsrError, match="comma"):
        dsr.compute(bundle, "dsr-relay-12vcpu", "240,00")
    assert dsr.compute(bundle, "dsr-relay-12vcpu", "288,000")["inputs"]["target_mps"] == 288000
    with pytest.raises(dsr.DsrError, match="at least 1 percent; got 0.000001"):
        dsr.compute(bundle, "dsr-relay-12vcpu", 1000, cpu_ceiling_percent="0.000001")
    with pytest.raises(shcm.ShcmError, match="comma"):
        shcm.compute(bundle, "shcm-test-1", "18,00")
    out = catalogue.run(bundle, {"calc": "overtarget", "mem_threshold": "63,5"})
    assert out["ok"] is False and "comma" in out["error"]
    with pytest.raises(overtarget.OverTargetError, match="between 1 and 100 %; got 0.000001"):
        overtarget.compute(bundle, None, "0.000001")


def test_footprint_node_of_1e_300_cores_is_refused(bundle):
    """A node of 1e-300 cores gave a 403-character node count; footprint reads node sizes through
    inputs.positive, which refuses it, quoting the value as typed."""
    from calculators import footprint
    with pytest.raises(footprint.FootprintError) as e:
        footprint.compute(bundle, "bsf-3-3", 63000, node_cores="1e-300", node_mem_gib=64)
    assert str(e.value) == "Node CPU must be from 0.000001 to 1,000,000,000,000 cores; got 1e-300."
