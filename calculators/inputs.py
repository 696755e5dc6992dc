"""Reading user-supplied numbers for every calculator (standard library only).

One reader for the command line and the pages alike: each function takes the
calculator's own error class (a ValueError subclass) so every page reports bad
input in the same plain words.

Number text accepted: digits with an optional decimal point ('63.5'), an
exponent ('1e5'), and commas only as thousands separators in groups of three
('63,500', '1,234,567.5'). A comma in any other place ('63,5', '1,5000') is
refused as an ambiguous decimal comma: read as a thousands separator it would
silently turn 63,5 into 635.

Plausibility: every quantity the calculators take (loads in TPS/MPS/SPS/RPS,
cores, GiB, percent) must lie between MIN_MAGNITUDE and MAX_MAGNITUDE;
narrower ranges (a percent from 1 to 100) are given by the caller. Refusals
quote the number as typed, shortened (``shown``), never a float expansion.
"""
from __future__ import annotations

import functools
import math
import re
from fractions import Fraction

MIN_MAGNITUDE = Fraction(1, 10**6)
"""Smallest non-zero number any calculator accepts (0.000001 of its unit): below it no load, core count,
GiB or percent is plausible. A Benchmark Atlas limit, not a vendor figure."""
MAX_MAGNITUDE = Fraction(10**12)
"""Largest number any calculator accepts (10^12 of its unit); a Benchmark Atlas limit, not a vendor figure."""
SHOWN_CHARS = 40
"""Longest echo of a typed value in a message; longer text is cut with an ellipsis."""

_PLAIN = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_GROUPED = re.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?")


@functools.lru_cache(maxsize=4096)
def exact(x) -> Fraction:
    """The exact decimal a number prints as, as a Fraction (0.1 -> 1/10, not the binary float 0.1000000000000000055...):
    every calculator does its arithmetic on these. ``x``: an int, float or numeric string from the bundle or a form.
    Raises ValueError for text that is not a number. Cached: Fractions are immutable, data values repeat, and
    parsing the text is most of a run."""
    return Fraction(str(x))


def shown(value) -> str:
    """A value as the user typed it, for messages: text stripped and cut to SHOWN_CHARS characters
    (with '…'); a float by its shortest repr ('1e-300', not 300 digits); a Fraction as a decimal
    of at most 6 places. Never raises."""
    if isinstance(value, Fraction):
        value = str(value) if value.denominator == 1 else f"{float(value):.6g}"
    elif isinstance(value, float):
        value = repr(value)
    text = str(value).strip()
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 1] + "…"


def parse(value, name: str, unit: str, error: type[ValueError] = ValueError) -> Fraction:
    """Any finite number, exactly, from an int, float, Fraction or text (see the module docstring).

    Raises ``error`` for empty text, a non-number, NaN or infinity, an ambiguous decimal comma
    ('63,5'), or text longer than 100 characters (no 4,300-digit conversions)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise error(f"{name} is empty: enter a number in {unit}.")
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Fraction)):
        raise error(f"{name} must be a number in {unit}.")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise error(f"{name} must be a finite number in {unit}, not {shown(value)}.")
        return Fraction(repr(value))
    text = value.strip().replace("_", "")
    if len(text) > 100:
        raise error(f"{name} is too long to be a number in {unit} ({len(text):,} characters: {shown(text)}).")
    if text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        raise error(f"{name} must be a finite number in {unit}, not {shown(value)}.")
    if "," in text:
        if not _GROUPED.fullmatch(text):
            raise error(f"{name}: {shown(value)} has a comma that is not a thousands separator. Write a decimal "
                        f"with a point (e.g. 63.5) or group thousands by three (e.g. 63,500); unit {unit}.")
        text = text.replace(",", "")
    if not _PLAIN.fullmatch(text):
        raise error(f"{name} must be a number in {unit}, not {shown(value)!r}.")
    mantissa, _, exp = text.lower().partition("e")
    if exp and abs(int(exp)) > 400:
        raise error(f"{name} must be a number between {fmt_limit(MIN_MAGNITUDE)} and {fmt_limit(MAX_MAGNITUDE)} {unit}; "
                    f"got {shown(value)}.")
    return Fraction(text)


def fmt_limit(x: Fraction) -> str:
    """A limit for messages: 0.000001, 1,000,000,000,000."""
    return f"{int(x):,}" if x.denominator == 1 else f"{float(x):.6f}".rstrip("0")


def positive(value, name: str, unit: str, error: type[ValueError] = ValueError, *, allow_zero: bool = False,
             minimum=None, maximum=None) -> Fraction:
    """A finite number > 0 (>= 0 with ``allow_zero``) from an int, float, Fraction or text such as
    '80000' or '80,000', as an exact Fraction. ``minimum``/``maximum`` (inclusive, in ``unit``)
    narrow the plausible range MIN_MAGNITUDE..MAX_MAGNITUDE. Raises ``error`` with a message naming
    the field, its unit and the value as typed for empty, non-numeric, NaN/infinite, ambiguous
    decimal comma, negative, zero or out-of-range input."""
    f = parse(value, name, unit, error)
    if f < 0 or (f == 0 and not allow_zero):
        raise error(f"{name} must be greater than zero ({unit}); got {shown(value)}.")
    lo = max(MIN_MAGNITUDE, Fraction(str(minimum))) if minimum is not None else MIN_MAGNITUDE
    hi = min(MAX_MAGNITUDE, Fraction(str(maximum))) if maximum is not None else MAX_MAGNITUDE
    if f != 0 and not lo <= f <= hi:
        raise error(f"{name} must be from {fmt_limit(lo)} to {fmt_limit(hi)} {unit}; got {shown(value)}.")
    return f


def percent(value, name: str, error: type[ValueError] = ValueError, *, lowest=1, highest=100) -> Fraction:
    """A percentage from ``lowest`` to ``highest`` (default 1 to 100 %), a trailing '%' allowed.
    Raises ``error`` otherwise (a target of 0.000001 % is refused, as the message says)."""
    if isinstance(value, str):
        value = value.strip()
        value = value[:-1] if value.endswith("%") else value
    f = parse(value, name, "percent", error)
    if not Fraction(str(lowest)) <= f <= Fraction(str(highest)):
        raise error(f"{name} must be between {lowest} and {highest} %; got {shown(value)}.")
    return f


def optional_ceiling(value, error: type[ValueError], of_what: str = "") -> Fraction | None:
    """A CPU ceiling in percent (1 <= c <= 100), or None when left empty. Raises ``error``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    c = positive(value, "CPU ceiling", "percent", error)
    if c > 100:
        raise error(f"CPU ceiling must be at most 100 percent{of_what}; got {shown(value)}.")
    if c < 1:
        raise error(f"CPU ceiling must be at least 1 percent{of_what}; got {shown(value)}.")
    return c


def spare_count(value, label: str, most: int, error: type[ValueError]) -> int:
    """A whole number from 0 to ``most`` (0 when empty), e.g. spare MPs. Raises ``error``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return 0
    if isinstance(value, str):
        value = value.strip()
    try:
        f = Fraction(str(value)) if not isinstance(value, bool) and len(str(value)) <= 100 else None
    except (ValueError, ZeroDivisionError):
        f = None
    if f is None or f.denominator != 1 or f < 0 or f > most:
        raise error(f"{label} must be a whole number from 0 to {most}; got {shown(value)!r}.")
    return int(f)
