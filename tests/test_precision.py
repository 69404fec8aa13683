"""Every figure printed with the precision it has (etg.math.precision)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from etg.math.precision import (
    bounded_decimal,
    bounded_money,
    bounded_percent,
    decimals_for,
    error_text,
    estimate_text,
    interval_text,
)


@pytest.mark.parametrize("error,decimals", [
    (Fraction(0), 10),  # exact: as many as the cap
    (Fraction(5, 1000), 2),  # ½·10⁻² exactly: the second decimal is still vouched for
    (Fraction(5001, 10**6), 1),  # a hair wider: one decimal fewer
    (Fraction(18, 10**9), 7),
    (Fraction(1, 10**20), 10),  # capped
    (Fraction(3), 0),  # wider than a unit: no decimals at all
])
def test_the_decimals_a_bound_allows(error: Fraction, decimals: int) -> None:
    assert decimals_for(error) == decimals


@pytest.mark.parametrize("value,error", [
    (Fraction(897631570378, 10**12), Fraction(18, 10**11)),
    (Fraction(1, 3), Fraction(1, 7000)),
    (Fraction(-2, 7), Fraction(4, 10**6)),
    (Fraction(12345, 1000), Fraction(1, 2)),
])
def test_a_bounded_figure_is_within_one_unit_of_its_last_digit_of_every_value_its_bound_allows(
        value: Fraction, error: Fraction) -> None:
    text = bounded_decimal(value, error)
    decimals = len(text.split(".")[1]) if "." in text else 0
    unit = Fraction(1, 10**decimals)
    for truth in (value - error, value, value + error):
        assert abs(Fraction(text) - truth) <= unit
    # and one more decimal would not be vouched for
    assert decimals == 10 or error > unit / 20


def test_the_maryland_return_prints_its_true_digits_only() -> None:
    """0.897631570378 ± 1.8·10⁻¹⁰ shows 89.7631570 %: nine decimals of the fraction."""
    value, error = Fraction(897631570378, 10**12), Fraction(18, 10**11)
    assert bounded_percent(value, error) == "89.7631570 %"
    assert bounded_percent(Fraction(1, 3), Fraction(0)) == "33.3333 %"  # exact: the page's four
    assert bounded_percent(Fraction(1, 3), Fraction(0), exact_digits=6) == "33.333333 %"
    assert error_text(error) == "± 1.8e-10" and error_text(Fraction(0)) == "exact"


def test_money_to_the_cent_or_coarser() -> None:
    assert bounded_money(Fraction(123456789), Fraction(3, 1000)) == "$1,234,567.89"
    assert bounded_money(Fraction(123456789), Fraction(60)) == "$1,234,568"  # ± 60¢
    assert bounded_money(Fraction(-250), Fraction(0)) == "-$2.50"


def test_a_simulated_mean_is_rounded_to_its_uncertainty() -> None:
    """To the decimal of the half-width's first significant digit; the interval alike."""
    assert estimate_text(0.1234567, 0.004) == "0.123"
    assert estimate_text(0.1234567, 0.04) == "0.12"
    assert estimate_text(0.1234567, 0.0004) == "0.1235"
    assert estimate_text(1_109_683.4, 34_000.0) == "1109683"  # cents: no decimals
    assert estimate_text(0.1234567, 0.0) == "0.123457"  # a point interval: the cap
    assert interval_text(0.0712, 0.0761) == "0.071 … 0.076"
