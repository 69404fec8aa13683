"""Every figure printed with the precision it has.

Three kinds of figure reach a par sheet or ``etg paytable check``:

- an *exact* Fraction, which may be printed to as many digits as the page
  shows (rounded from the Fraction, never from a float);
- a *bounded* figure, the midpoint of a proven bracket (the meters' long
  run, :mod:`etg.math.meter_chain`): printed with no more decimals than its
  bound vouches for, so that the printed number is within one unit of its
  last digit of the exact value;
- a *simulated* figure: printed only beside its interval, both to the
  decimal of the half-width's first significant digit (a measurement
  rounded to its uncertainty, as a metrologist would).

A bounded figure takes the largest number of decimals ``d`` with ``error ≤
½·10^−d``: rounding to ``d`` decimals moves the value by at most
``½·10^−d``, so the printed figure is within ``10^−d`` (one unit of its last
digit) of the truth.
"""

from __future__ import annotations

import math
from fractions import Fraction

MAX_DECIMALS = 10  # a bound of zero or below 10⁻¹⁰ of the unit still prints at most this many


def decimals_for(error: Fraction | float, cap: int = MAX_DECIMALS) -> int:
    """Decimals a figure with this ``error`` (in the printed unit) may show: 0 to ``cap``."""
    if error <= 0:
        return cap
    decimals = max(0, min(cap, math.floor(-math.log10(2 * float(error)))))
    while decimals < cap and Fraction(error) <= Fraction(1, 2 * 10 ** (decimals + 1)):
        decimals += 1  # log10 of a float may fall short by one at an exact power of ten
    while decimals > 0 and Fraction(error) > Fraction(1, 2 * 10**decimals):
        decimals -= 1
    return decimals


def rounded(value: Fraction, decimals: int, grouping: bool = False) -> str:
    """``value`` rounded half-even to ``decimals`` decimals, from the Fraction itself."""
    scaled = round(value * 10**decimals)
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled), 10**decimals)
    digits = f"{whole:,}" if grouping else str(whole)
    return f"{sign}{digits}.{frac:0{decimals}d}" if decimals > 0 else f"{sign}{digits}"


def bounded_percent(value: Fraction, error: Fraction, exact_digits: int = 4,
                    cap: int = 8) -> str:
    """A return or probability as a percentage: ``exact_digits`` decimals when exact.

    A bounded one shows the decimals its error allows (at most ``cap``), e.g.
    ``"89.7631570 %"`` for 0.897631570378 ± 2·10⁻¹⁰.
    """
    if not error:
        return f"{rounded(value * 100, exact_digits)} %"
    return f"{rounded(value * 100, decimals_for(error * 100, cap))} %"


def bounded_decimal(value: Fraction, error: Fraction, exact_digits: int = 10,
                    cap: int = MAX_DECIMALS) -> str:
    """A plain decimal: ``exact_digits`` decimals when exact, else as many as its error allows."""
    return rounded(value, exact_digits if not error else decimals_for(error, cap))


def bounded_money(cents: Fraction, error: Fraction) -> str:
    """Dollars to the cent, or to the dollar (or coarser) when the error is wider than a cent."""
    dollars = cents / 100
    decimals = 2 if not error else min(2, decimals_for(error / 100, 2))
    text = rounded(abs(dollars), decimals, grouping=True)
    return f"-${text}" if dollars < 0 else f"${text}"


def error_text(error: Fraction, unit: str = "") -> str:
    """A bound in two significant figures, ``"± 1.8e-10"``; ``"exact"`` when zero."""
    if not error:
        return "exact"
    return f"± {float(error):.1e}{unit}"


def measured_decimals(half_width: float, cap: int = 6) -> int:
    """Decimals of a measurement: down to its half-width's first significant digit (0 to cap)."""
    if not half_width > 0:
        return cap
    return max(0, min(cap, -math.floor(math.log10(half_width))))


def estimate_text(mean: float, half_width: float, cap: int = 6) -> str:
    """A simulated mean to the decimal of its interval's half-width (at most ``cap``)."""
    return rounded(Fraction(mean), measured_decimals(half_width, cap))


def interval_text(low: float, high: float, cap: int = 6) -> str:
    """A 99 % interval ``"low … high"``, to the same decimal as its mean."""
    decimals = measured_decimals((high - low) / 2, cap)
    return f"{rounded(Fraction(low), decimals)} … {rounded(Fraction(high), decimals)}"
