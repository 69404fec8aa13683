"""Running means and two-sided 99 % confidence intervals for the simulators.

Three kinds of figure, three intervals:

- a **mean** of per-round samples (:class:`RunningMean`): the normal (central
  limit) approximation ``mean ± z·s/√n`` with the sample variance ``s²`` taken
  with ``n − 1``;
- a **ratio** of two per-round totals, such as a wager's return: money paid
  over money staked when the stake varies from round to round
  (:class:`RatioMean`): the same normal interval on the linearised ratio (the
  delta method), the rounds being the independent trials;
- a **proportion** (a hit frequency, :func:`proportion_estimate`): the Wilson
  score interval, which stays inside [0, 1] and keeps its coverage for an
  event seen a handful of times in millions of trials, where the Wald interval
  (the normal one on 0/1 samples) collapses to a point or goes below zero.

The accumulator keeps the count, the sum and the sum of squares, so that
chunks of any size (one sample, a NumPy array, or a histogram of outcome
classes) merge exactly in any order. Samples are small numbers (a Casino War
net is a few units), so float64 sums of up to ~10¹² samples keep the variance
far more precise than the interval needs; ``add_many`` sums with NumPy's
pairwise summation and ``add_counts`` with :func:`math.fsum`.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

Z99 = 2.5758293035489  # two-sided 99 %: the 0.995 quantile of the standard normal


@dataclass(frozen=True)
class Estimate:
    """A measured mean with its confidence interval ``[low, high]`` over ``n`` samples.

    With no samples ``mean`` is NaN; with fewer than two the interval is
    unbounded (no variance can be estimated).
    """

    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def contains(self, x: float) -> bool:
        return self.low <= x <= self.high


class RunningMean:
    """Count, sum and sum of squares of samples; :meth:`estimate` gives the interval."""

    __slots__ = ("count", "total", "total_sq")

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.total_sq = 0.0

    def add(self, x: float) -> None:
        self.count += 1
        self.total += x
        self.total_sq += x * x

    def add_many(self, values: npt.ArrayLike) -> None:
        """Every sample in ``values`` (any array-like of numbers or booleans)."""
        a = np.asarray(values, dtype=np.float64).ravel()
        self.count += int(a.size)
        self.total += float(a.sum())
        self.total_sq += float(np.dot(a, a))

    def add_counts(self, values: Iterable[float], counts: Iterable[int]) -> None:
        """``counts[i]`` samples equal to ``values[i]``: a histogram of outcome classes."""
        pairs = list(zip(values, (int(c) for c in counts), strict=True))
        self.count += sum(c for _, c in pairs)
        self.total += math.fsum(v * c for v, c in pairs)
        self.total_sq += math.fsum(v * v * c for v, c in pairs)

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else math.nan

    @property
    def variance(self) -> float:
        """Sample variance (``n − 1``); NaN with fewer than two samples."""
        n = self.count
        if n < 2:
            return math.nan
        return max(0.0, (self.total_sq - self.total * self.total / n) / (n - 1))

    def estimate(self, z: float = Z99) -> Estimate:
        """The mean with its two-sided interval ``mean ± z·s/√n`` (99 % by default)."""
        n = self.count
        mean = self.mean
        if n < 2:
            return Estimate(mean, -math.inf, math.inf, n)
        half = z * math.sqrt(self.variance / n)
        return Estimate(mean, mean - half, mean + half, n)


class RatioMean:
    """A ratio ``Σx / Σy`` of per-round totals, e.g. paid over staked, with its interval.

    Each round gives a pair ``(x, y)``; the rounds are independent, the pairs
    within a round need not be. The estimate ``R = x̄ / ȳ`` has the delta-method
    interval ``R ± z·s_d / (ȳ √n)``, ``s_d²`` the sample variance of the
    residuals ``d = x − R·y``. With ``y`` the same every round it is exactly the
    normal interval of the mean of ``x / y``. Sums are kept as in
    :class:`RunningMean`; give ``x`` and ``y`` in units of a typical stake so
    that their squares stay small. When no ``x`` was negative (money paid, never
    taken) the ratio cannot be, and the interval is cut at 0: a rare award's
    return then reads ``0 … high``, never a negative return.
    """

    __slots__ = ("count", "min_x", "sum_x", "sum_xx", "sum_xy", "sum_y", "sum_yy")

    def __init__(self) -> None:
        self.count = 0
        self.sum_x = self.sum_y = self.sum_xx = self.sum_xy = self.sum_yy = 0.0
        self.min_x = math.inf

    def add(self, x: float, y: float) -> None:
        self.count += 1
        self.min_x = min(self.min_x, x)
        self.sum_x += x
        self.sum_y += y
        self.sum_xx += x * x
        self.sum_xy += x * y
        self.sum_yy += y * y

    def add_many(self, x: npt.ArrayLike, y: npt.ArrayLike) -> None:
        """One round per element of ``x`` and ``y`` (broadcast: ``y`` may be one number)."""
        a, b = np.broadcast_arrays(np.asarray(x, dtype=np.float64).ravel(),
                                   np.asarray(y, dtype=np.float64).ravel())
        self.count += int(a.size)
        if a.size:
            self.min_x = min(self.min_x, float(a.min()))
        self.sum_x += float(a.sum())
        self.sum_y += float(b.sum())
        self.sum_xx += float(np.dot(a, a))
        self.sum_xy += float(np.dot(a, b))
        self.sum_yy += float(np.dot(b, b))

    @property
    def ratio(self) -> float:
        return self.sum_x / self.sum_y if self.sum_y else math.nan

    def estimate(self, z: float = Z99) -> Estimate:
        """``Σx / Σy`` with its two-sided interval (99 % by default); ``n`` counts the rounds.

        NaN when nothing was staked; unbounded with fewer than two rounds.
        """
        n = self.count
        r = self.ratio
        if n < 2 or math.isnan(r):
            return Estimate(r, -math.inf, math.inf, n)
        residual = self.sum_xx - 2 * r * self.sum_xy + r * r * self.sum_yy
        variance = max(0.0, residual / (n - 1))
        half = z * math.sqrt(variance / n) / (self.sum_y / n)
        low = r - half if self.min_x < 0 else max(0.0, r - half)
        return Estimate(r, low, r + half, n)


class ExactRatio:
    """:class:`RatioMean` of whole numbers (cents, counts), its sums exact Python integers.

    Integer sums do not round, so accumulators filled in any order, or in several
    processes and added together with :meth:`merge`, hold the same sums to the last
    unit, and give the same estimate to the last bit. The estimate does not depend
    on the unit of ``x`` and ``y`` (a ratio and its relative spread), so cents will
    do; its residual sum is worked out exactly before the one division.
    """

    __slots__ = ("count", "min_x", "sum_x", "sum_xx", "sum_xy", "sum_y", "sum_yy")

    def __init__(self) -> None:
        self.count = self.sum_x = self.sum_y = self.sum_xx = self.sum_xy = self.sum_yy = 0
        self.min_x: int | None = None

    def add(self, x: int, y: int) -> None:
        """One round's pair; ``operator.index`` refuses a float (it would not sum exactly)."""
        x, y = operator.index(x), operator.index(y)
        self.count += 1
        self.min_x = x if self.min_x is None else min(self.min_x, x)
        self.sum_x += x
        self.sum_y += y
        self.sum_xx += x * x
        self.sum_xy += x * y
        self.sum_yy += y * y

    def merge(self, other: ExactRatio) -> None:
        """Add ``other``'s rounds to these: the sums of both, exactly."""
        self.count += other.count
        if other.min_x is not None:
            self.min_x = other.min_x if self.min_x is None else min(self.min_x, other.min_x)
        self.sum_x += other.sum_x
        self.sum_y += other.sum_y
        self.sum_xx += other.sum_xx
        self.sum_xy += other.sum_xy
        self.sum_yy += other.sum_yy

    def totals(self) -> tuple[int, int | None, int, int, int, int, int]:
        """Every sum, for comparing two accumulators exactly."""
        return (self.count, self.min_x, self.sum_x, self.sum_y, self.sum_xx, self.sum_xy,
                self.sum_yy)

    @property
    def ratio(self) -> float:
        return self.sum_x / self.sum_y if self.sum_y else math.nan

    def estimate(self, z: float = Z99) -> Estimate:
        """As :meth:`RatioMean.estimate`; NaN when nothing was staked."""
        n, sx, sy = self.count, self.sum_x, self.sum_y
        r = self.ratio
        if n < 2 or not sy:
            return Estimate(r, -math.inf, math.inf, n)
        # Σ(x − R·y)² with R = Σx / Σy, times Σy²: an integer, exact
        scaled = self.sum_xx * sy * sy - 2 * sx * sy * self.sum_xy + sx * sx * self.sum_yy
        variance = float(Fraction(max(0, scaled), sy * sy * (n - 1)))
        half = z * math.sqrt(variance / n) / (sy / n)
        low = r - half if self.min_x is not None and self.min_x < 0 else max(0.0, r - half)
        return Estimate(r, low, r + half, n)


def proportion_estimate(hits: int, n: int, z: float = Z99) -> Estimate:
    """A proportion ``hits / n`` with its Wilson score interval (99 % by default).

    Unlike the Wald interval it never collapses to a point at 0 or 1 hits and
    keeps close to its nominal coverage for rare events. NaN with no trials.
    """
    if n < 1:
        return Estimate(math.nan, -math.inf, math.inf, n)
    p = hits / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if hits == 0 else max(0.0, centre - half)  # exactly 0 / 1 at the ends
    high = 1.0 if hits == n else min(1.0, centre + half)
    return Estimate(p, low, high, n)
