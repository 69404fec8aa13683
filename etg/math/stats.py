"""Running means and two-sided 99 % confidence intervals for the simulators.

Every simulated figure is the mean of per-round samples: a net per unit wagered
(a house edge is the mean of minus the net) or a 0/1 indicator (a hit
frequency is a Bernoulli proportion). The interval is the normal (central limit)
approximation ``mean ± z·s/√n`` with the sample variance ``s²`` taken with
``n − 1``; for a 0/1 indicator that is the Wald interval of a proportion, which
is accurate for the millions of rounds a par-sheet simulation runs and the
probabilities (a few percent and up) it measures.

The accumulator keeps the count, the sum and the sum of squares, so that
chunks of any size (one sample, a NumPy array, or a histogram of outcome
classes) merge exactly in any order. Samples are small numbers (a Casino War
net is a few units), so float64 sums of up to ~10¹² samples keep the variance
far more precise than the interval needs; ``add_many`` sums with NumPy's
pairwise summation and ``add_counts`` with :func:`math.fsum`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

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
