"""Running means and 99 % intervals on small hand-computed samples."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from etg.math.stats import (
    Z99,
    Estimate,
    ExactRatio,
    RatioMean,
    RunningMean,
    proportion_estimate,
)


def test_z99_is_the_two_sided_99_percent_quantile() -> None:
    assert NormalDist().inv_cdf(0.995) == pytest.approx(Z99, abs=1e-12)


def test_mean_variance_and_interval_by_hand() -> None:
    acc = RunningMean()
    for x in (1, 2, 3, 4):
        acc.add(x)
    # mean 10/4; squares 30; variance (30 - 100/4) / 3 = 5/3
    assert acc.count == 4
    assert acc.mean == 2.5
    assert acc.variance == pytest.approx(5 / 3, rel=1e-15)
    est = acc.estimate()
    half = Z99 * math.sqrt(5 / 3 / 4)
    assert (est.mean, est.n) == (2.5, 4)
    assert (est.low, est.high) == pytest.approx((2.5 - half, 2.5 + half))
    assert est.half_width == pytest.approx(half)
    assert est.contains(2.5 + half * 0.999)
    assert not est.contains(2.5 + half * 1.001)


def test_bernoulli_proportion_by_hand() -> None:
    acc = RunningMean()
    acc.add_many([True, False, False, True, True])
    # p = 3/5; variance with n - 1: (3 - 9/5) / 4 = 0.3
    assert acc.mean == pytest.approx(0.6)
    assert acc.variance == pytest.approx(0.3)
    est = acc.estimate()
    assert est.low == pytest.approx(0.6 - Z99 * math.sqrt(0.3 / 5))
    assert est.high == pytest.approx(0.6 + Z99 * math.sqrt(0.3 / 5))
    assert est.n == 5


def test_add_add_many_and_add_counts_agree() -> None:
    samples = [-1.0, -1.0, 1.0, -0.5, 2.0, 1.0, -2.0, -1.0]
    one, many, counted = RunningMean(), RunningMean(), RunningMean()
    for x in samples:
        one.add(x)
    many.add_many(np.array(samples).reshape(2, 4))
    counted.add_counts([-2.0, -1.0, -0.5, 1.0, 2.0], [1, 3, 1, 2, 1])
    for acc in (many, counted):
        assert acc.count == one.count == 8
        assert acc.total == pytest.approx(one.total)
        assert acc.total_sq == pytest.approx(one.total_sq)
        assert acc.estimate() == one.estimate()
    # mean -1.5/8; squares 13.25; variance (13.25 - 2.25/8) / 7
    assert one.mean == pytest.approx(-0.1875)
    assert one.variance == pytest.approx((13.25 - 2.25 / 8) / 7)


def test_add_counts_rejects_mismatched_lengths() -> None:
    with pytest.raises(ValueError):
        RunningMean().add_counts([1.0, 2.0], [3])


def test_constant_samples_give_a_zero_width_interval() -> None:
    acc = RunningMean()
    acc.add_many(np.zeros(10))
    est = acc.estimate()
    assert (est.mean, est.low, est.high, est.n) == (0.0, 0.0, 0.0, 10)
    assert est.contains(0.0)
    assert not est.contains(1e-12)


def test_too_few_samples_give_an_unbounded_interval() -> None:
    empty = RunningMean().estimate()
    assert math.isnan(empty.mean)
    assert empty.n == 0
    assert empty.contains(123.0)
    acc = RunningMean()
    acc.add(3.0)
    one = acc.estimate()
    assert one.mean == 3.0
    assert (one.low, one.high) == (-math.inf, math.inf)
    assert math.isnan(acc.variance)


def test_custom_z() -> None:
    acc = RunningMean()
    acc.add_many([0.0, 2.0])
    # mean 1, variance 2, standard error 1
    est = acc.estimate(z=1.0)
    assert (est.low, est.high) == pytest.approx((0.0, 2.0))


def test_estimate_bounds_are_inclusive() -> None:
    est = Estimate(mean=1.0, low=0.5, high=1.5, n=10)
    assert est.half_width == 0.5
    assert est.contains(0.5)
    assert est.contains(1.5)
    assert not est.contains(0.49)


def test_ratio_by_hand() -> None:
    # rounds (x, y): (1, 2), (3, 2), (0, 4): R = 4/8; residuals d = x - y/2 = 0, 2, -2
    acc = RatioMean()
    for x, y in ((1, 2), (3, 2), (0, 4)):
        acc.add(x, y)
    est = acc.estimate()
    # s_d^2 = (0 + 4 + 4) / 2 = 4; half = z * 2 / sqrt(3) / mean y (8/3)
    half = Z99 * 2 / math.sqrt(3) / (8 / 3)
    assert (est.mean, est.n) == (0.5, 3)
    assert 0.5 - half < 0  # no x is negative, so the ratio cannot be: the interval stops at 0
    assert (est.low, est.high) == pytest.approx((0.0, 0.5 + half))


def test_ratio_with_a_constant_denominator_is_the_mean_of_the_ratios() -> None:
    x = np.array([3.0, -1.0, 0.0, 2.0, 5.0])
    ratio, mean = RatioMean(), RunningMean()
    ratio.add_many(x, 2.0)
    mean.add_many(x / 2)
    a, b = ratio.estimate(), mean.estimate()
    assert a.mean == pytest.approx(b.mean)
    assert (a.low, a.high) == pytest.approx((b.low, b.high))
    assert a.n == b.n == 5


def test_ratio_add_and_add_many_agree_and_edge_cases() -> None:
    one, many = RatioMean(), RatioMean()
    pairs = [(1.0, 1.0), (0.0, 0.0), (4.0, 2.0), (2.5, 3.0)]
    for x, y in pairs:
        one.add(x, y)
    many.add_many([p[0] for p in pairs], [p[1] for p in pairs])
    assert one.estimate().mean == pytest.approx(many.estimate().mean)
    assert one.estimate().half_width == pytest.approx(many.estimate().half_width)
    assert one.ratio == pytest.approx(7.5 / 6)
    nothing = RatioMean()
    nothing.add_many([0.0, 0.0], [0.0, 0.0])
    assert math.isnan(nothing.estimate().mean)
    single = RatioMean()
    single.add(1.0, 2.0)
    assert (single.estimate().low, single.estimate().high) == (-math.inf, math.inf)


def test_wilson_interval_by_hand() -> None:
    # 2 hits in 10: centre (0.2 + z²/20) / (1 + z²/10), half z/(1 + z²/10) · sqrt(0.016 + z²/400)
    z2 = Z99 * Z99
    centre = (0.2 + z2 / 20) / (1 + z2 / 10)
    half = Z99 / (1 + z2 / 10) * math.sqrt(0.2 * 0.8 / 10 + z2 / 400)
    est = proportion_estimate(2, 10)
    assert est.mean == 0.2
    assert (est.low, est.high) == pytest.approx((centre - half, centre + half))
    # never below zero, never a point, even with no hit at all (the Wald interval is [0, 0])
    none = proportion_estimate(0, 1_000_000)
    assert none.low == 0.0
    assert none.high == pytest.approx(z2 / (1_000_000 + z2))
    assert proportion_estimate(10, 10).high == 1.0


def test_a_ratio_of_money_paid_never_reads_below_zero() -> None:
    # An award seen twice in 10,000 rounds: the delta-method interval would reach below 0.
    paid = RatioMean()
    paid.add_many([0.0] * 9_998 + [250.0, 250.0], 1.0)
    estimate = paid.estimate()
    assert estimate.mean == 0.05 and estimate.low == 0.0 and estimate.high > 0.1
    net = RatioMean()  # a net result can be negative: no cut
    net.add_many([-1.0] * 5_000 + [1.0] * 5_000, 1.0)
    assert net.estimate().low < 0 < net.estimate().high


PAIRS = [(-500, 500), (1000, 500), (0, 500), (2500, 1000), (-1000, 1000), (500, 500)]


def test_exact_ratio_is_the_ratio_mean_of_whole_numbers() -> None:
    exact, floats = ExactRatio(), RatioMean()
    for x, y in PAIRS:
        exact.add(x, y)
        floats.add(x / 500, y / 500)  # in units of a stake: the same ratio and interval
    assert (exact.sum_x, exact.sum_y, exact.count, exact.min_x) == (2500, 4000, 6, -1000)
    assert (exact.sum_xx, exact.sum_xy, exact.sum_yy) == (8_750_000, 2_000_000, 3_000_000)
    e, f = exact.estimate(), floats.estimate()
    assert e.mean == 2500 / 4000 and e.n == 6
    assert (e.low, e.high) == pytest.approx((f.low, f.high), rel=1e-12)


def test_exact_ratio_residual_by_hand() -> None:
    """R = 1/2 over (1, 1), (0, 1): residuals ±1/2, variance (1/4 + 1/4) / 1."""
    acc = ExactRatio()
    acc.add(1, 1)
    acc.add(0, 1)
    half = Z99 * math.sqrt(0.5 / 2) / 1
    assert acc.estimate() == Estimate(0.5, max(0.0, 0.5 - half), 0.5 + half, 2)


def test_exact_ratios_merge_to_the_same_sums_in_any_order() -> None:
    whole, first, second = ExactRatio(), ExactRatio(), ExactRatio()
    for i, (x, y) in enumerate(PAIRS):
        whole.add(x, y)
        (first if i % 2 else second).add(x, y)
    merged_one_way, merged_other_way = ExactRatio(), ExactRatio()
    for part in (first, second):
        merged_one_way.merge(part)
    for part in (second, first):
        merged_other_way.merge(part)
    assert merged_one_way.totals() == merged_other_way.totals() == whole.totals()
    assert merged_one_way.estimate() == whole.estimate()


def test_exact_ratio_refuses_a_float_and_reports_nothing_staked() -> None:
    acc = ExactRatio()
    with pytest.raises(TypeError):
        acc.add(0.5, 1)  # type: ignore[arg-type]
    acc.add(np.int64(3), 0)  # NumPy integers are whole numbers too
    acc.add(2, 0)
    assert acc.count == 2 and isinstance(acc.sum_x, int)
    assert math.isnan(acc.estimate().mean)
