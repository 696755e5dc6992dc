"""Reading user-supplied numbers for every calculator (standard library only).

Each function takes the calculator's own error class (a ValueError subclass)
so every page reports bad input in the same plain words.
"""
from __future__ import annotations

import math
from fractions import Fraction


def positive(value, name: str, unit: str, error: type[ValueError] = ValueError, *, allow_zero: bool = False) -> Fraction:
    """A finite number > 0 (>= 0 with ``allow_zero``) from an int, float, Fraction or text
    such as '80000' or '80,000', as an exact Fraction. Raises ``error`` with a message
    naming the field and its unit for empty, non-numeric, NaN/infinite, negative or zero input."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise error(f"{name} is empty: enter a number in {unit}.")
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Fraction)):
        raise error(f"{name} must be a number in {unit}.")
    text = value.strip().replace(",", "").replace("_", "") if isinstance(value, str) else str(value)
    try:
        f = float(value) if isinstance(value, Fraction) else float(text)
    except (ValueError, OverflowError):
        raise error(f"{name} must be a number in {unit}, not {value!r}.") from None
    if math.isnan(f) or math.isinf(f):
        raise error(f"{name} must be a finite number in {unit}.")
    if f < 0 or (f == 0 and not allow_zero):
        raise error(f"{name} must be greater than zero ({unit}); got {value}.")
    return value if isinstance(value, Fraction) else Fraction(text)


def optional_ceiling(value, error: type[ValueError], of_what: str = "") -> Fraction | None:
    """A CPU ceiling in percent (0 < c <= 100), or None when left empty. Raises ``error``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    c = positive(value, "CPU ceiling", "percent", error)
    if c > 100:
        raise error(f"CPU ceiling must be at most 100 percent{of_what}; got {value}.")
    return c


def spare_count(value, label: str, most: int, error: type[ValueError]) -> int:
    """A whole number from 0 to ``most`` (0 when empty), e.g. spare MPs. Raises ``error``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return 0
    if isinstance(value, str):
        value = value.strip()
    try:
        f = Fraction(str(value)) if not isinstance(value, bool) else None
    except (ValueError, ZeroDivisionError):
        f = None
    if f is None or f.denominator != 1 or f < 0 or f > most:
        raise error(f"{label} must be a whole number from 0 to {most}; got {value!r}.")
    return int(f)
