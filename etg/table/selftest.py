"""The operator's RNG and shoe self-test: the production source and shuffle, checked on site.

The operator menu offers it (SPEC §6: "shoe and RNG self-test") so that a
technician can show, on the cabinet itself and with its own CSPRNG, that:

- **RNG**: ``randbelow(52)`` is uniform. 52,000 draws (1,000 expected per
  card) give Pearson's chi-square with 51 degrees of freedom; the test fails
  above the critical value at p = 0.001 (87.968). A Wald–Wolfowitz runs test
  on low/high draws (below 26 or not) checks that successive draws are
  independent: it fails when |z| exceeds 3.2905 (two-sided p = 0.001).
- **Shoe**: 20 shuffles from :func:`etg.core.shoe.draw_shoe` with the active
  paytable's rules; each must hold every one of the 52 cards exactly
  ``decks`` times (MD Ch. 3 A: six or eight full decks) and place the cut card
  at least ``penetration_min`` of the shoe from the bottom (MD Ch. 5 F(2):
  "at least one-fourth of the way"), and no deeper than ``penetration_max``.

With 0.1 % critical values a sound source fails a run about once in 500;
running it again tells a fluke from a fault. The module lives outside
:mod:`etg.ui` because the screens may not touch the RNG (see
tests/test_architecture.py); it draws on the source it is given and changes
nothing else.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import asdict, dataclass
from itertools import pairwise
from typing import Any

from etg.core.cards import CARDS_PER_DECK
from etg.core.paytable import Shoe
from etg.core.rng import RandomSource, SystemSource
from etg.core.shoe import draw_shoe

RNG_DRAWS = 52_000
CATEGORIES = CARDS_PER_DECK
DEGREES_OF_FREEDOM = CATEGORIES - 1
CHI_SQUARE_CRITICAL = 87.968
"""Chi-square with 51 degrees of freedom at p = 0.001 (upper tail)."""

RUNS_Z_CRITICAL = 3.2905
"""Standard normal, two-sided p = 0.001."""

SHOES = 20


@dataclass(frozen=True)
class RngResult:
    draws: int
    chi_square: float
    degrees_of_freedom: int
    critical: float
    p_value: float
    runs: int
    runs_expected: float
    runs_z: float
    runs_critical: float
    smallest_count: int
    largest_count: int

    @property
    def uniform(self) -> bool:
        return self.chi_square <= self.critical

    @property
    def independent(self) -> bool:
        return abs(self.runs_z) <= self.runs_critical

    @property
    def passed(self) -> bool:
        return self.uniform and self.independent


@dataclass(frozen=True)
class ShoeResult:
    shoes: int
    decks: int
    cards: int
    cut_low: int  # the cut card may stand before positions cut_low..cut_high
    cut_high: int
    penetration_min: float
    penetration_max: float
    cuts: tuple[int, ...]
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class SelfTest:
    rng: RngResult
    shoe: ShoeResult

    @property
    def passed(self) -> bool:
        return self.rng.passed and self.shoe.passed

    def figures(self) -> dict[str, Any]:
        """Everything measured, for the event log."""
        rng = asdict(self.rng) | {"passed": self.rng.passed}
        shoe = asdict(self.shoe) | {"passed": self.shoe.passed}
        shoe["cuts"] = list(self.shoe.cuts)
        shoe["problems"] = list(self.shoe.problems)
        return {"passed": self.passed, "rng": _rounded(rng), "shoe": _rounded(shoe)}


def run_self_test(rules: Shoe, source: RandomSource | None = None) -> SelfTest:
    """Both tests, each on its own fresh source (the production CSPRNG unless given one)."""
    return SelfTest(rng_test(source or SystemSource()), shoe_test(rules, source or SystemSource()))


def rng_test(source: RandomSource, draws: int = RNG_DRAWS) -> RngResult:
    """Chi-square uniformity and a runs test over ``draws`` values of ``randbelow(52)``."""
    values = [source.randbelow(CATEGORIES) for _ in range(draws)]
    counts = Counter(values)
    expected = draws / CATEGORIES
    chi_square = sum((counts[c] - expected) ** 2 for c in range(CATEGORIES)) / expected
    runs, runs_expected, runs_z = _runs([v >= CATEGORIES // 2 for v in values])
    return RngResult(
        draws=draws, chi_square=chi_square, degrees_of_freedom=DEGREES_OF_FREEDOM,
        critical=CHI_SQUARE_CRITICAL, p_value=chi_square_p_value(chi_square, DEGREES_OF_FREEDOM),
        runs=runs, runs_expected=runs_expected, runs_z=runs_z, runs_critical=RUNS_Z_CRITICAL,
        smallest_count=min(counts[c] for c in range(CATEGORIES)),
        largest_count=max(counts[c] for c in range(CATEGORIES)),
    )


def shoe_test(rules: Shoe, source: RandomSource, shoes: int = SHOES) -> ShoeResult:
    """``shoes`` shuffles: every card ``decks`` times, the cut card inside its window."""
    low, high = rules.cut_window()
    problems: list[str] = []
    cuts: list[int] = []
    for number in range(1, shoes + 1):
        draw = draw_shoe(rules, source)
        cuts.append(draw.cut_index)
        if len(draw.order) != rules.cards or sorted(draw.order) != list(range(rules.cards)):
            problems.append(f"shoe {number}: the order is not a permutation of "
                            f"{rules.cards} cards")
        counts = Counter(slot % CARDS_PER_DECK for slot in draw.order)
        wrong = sorted(c for c in range(CARDS_PER_DECK) if counts[c] != rules.decks)
        if wrong:
            problems.append(f"shoe {number}: {len(wrong)} cards not held exactly "
                            f"{rules.decks} times")
        if not low <= draw.cut_index <= high:
            problems.append(f"shoe {number}: cut card at {draw.cut_index}, outside {low}..{high}")
    return ShoeResult(shoes, rules.decks, rules.cards, low, high, rules.penetration_min,
                      rules.penetration_max, tuple(cuts), tuple(problems))


def chi_square_p_value(statistic: float, degrees_of_freedom: int) -> float:
    """Upper-tail probability of ``statistic`` (the regularized upper incomplete gamma)."""
    if statistic <= 0:
        return 1.0
    a, x = degrees_of_freedom / 2, statistic / 2
    # The series of the lower regularized gamma converges for every x; it is used below the
    # mean, and the continued fraction of the upper one above it (Numerical Recipes §6.2).
    if x < a + 1:
        term = total = 1 / a
        n = 0
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / (a + n)
            total += term
        return max(0.0, 1 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return min(1.0, h * math.exp(-x + a * math.log(x) - math.lgamma(a)))


def _runs(flags: list[bool]) -> tuple[int, float, float]:
    """Runs of equal flags, their expected number, and the z score (Wald–Wolfowitz)."""
    n = len(flags)
    high = sum(flags)
    low = n - high
    runs = 1 + sum(1 for a, b in pairwise(flags) if a != b) if n else 0
    if not high or not low:
        return runs, float(runs), math.inf
    expected = 2 * high * low / n + 1
    variance = 2 * high * low * (2 * high * low - n) / (n * n * (n - 1))
    return runs, expected, (runs - expected) / math.sqrt(variance)


def _rounded(data: dict[str, Any]) -> dict[str, Any]:
    """Floats to six decimals for the log; an infinite z (a constant source) as null."""
    return {k: (round(v, 6) if math.isfinite(v) else None) if isinstance(v, float) else v
            for k, v in data.items()}
