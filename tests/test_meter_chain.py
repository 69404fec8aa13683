"""The bracketing chains of :mod:`etg.math.meter_chain` against an independent derivation.

The derivation is brute force in exact Fractions over every cycle of a tiny
meter. With a $5 hit (100 %) the meter starts the next cycle at reset, so
the start after a hit is the $1 map ``F(x, G) = max(0, a·(x + G + c₁) − b)``
(``a = 1 − p``, ``b = p·R``) applied ``k`` times from 0, ``k`` the number of
$1 hits since the last $5 hit, of law ``(1 − s)·sᵏ``::

    E_π[X] = Σ_{k≥1} (1 − s)·sᵏ·E[X_k],   X_k = F(X_{k−1}, G_k),  X_0 = 0.

``G`` (the gain of the non-winning wagers) is enumerated exactly for up to
``N_MAX`` of them, and ``E[X_k]`` for ``k ≤ 3``. The rest is bounded, from
``0 ≤ F(x, g) ≤ a·(x + g + c₁)``, hence ``X_k ≤ Σ_j a^(k−j+1)·(G_j + c₁)``:
the paths with a gain beyond ``N_MAX`` are left out (``X_k ≥ 0``, so that
only lowers the sum), and they hold at most ``a/(1−a)·(E[G; N > N_MAX] +
c₁·ε) + k·ε·B`` of ``E[X_k]`` (``ε = P(N > N_MAX)``, ``B = a·(E[G] +
c₁)/(1 − a)``); the cycles with ``k > 3`` hold at most ``s⁴·B``. So the exact
``E_π[X]`` lies in ``[low, low + bound]``.
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction
from itertools import accumulate

import pytest

from etg.core.paytable import Meter
from etg.math.longrun import RTP_BOUND, Method, MixEntry, meter_long_run
from etg.math.meter_chain import bracket, bracket_on

RESET = 20  # cents
RATE = Fraction(1, 100)  # 1¢ on a $1 wager, 5¢ on a $5 one
Q = Fraction(3, 4)  # a hit on three wagers in four: short cycles, a small enumeration
S = Fraction(1, 100)  # share of $1 wagers, which win 20 %
N_MAX = 24
TINY = Meter(RESET, RESET, float(RATE), None)
MIX = (MixEntry(100, S, 20), MixEntry(500, 1 - S, 100))


def _gain_law() -> tuple[list[Fraction], list[Fraction], Fraction]:
    """The law of G on N ≤ N_MAX (values, probabilities) and a bound on E[G; N > N_MAX].

    P(N = n) = Q·(1 − Q)ⁿ; of n wagers, i are $1 (binomial): G = i·1¢ + (n − i)·5¢.
    """
    law: dict[Fraction, Fraction] = {}
    for n in range(N_MAX + 1):
        p_n = Q * (1 - Q) ** n
        binomial = Fraction(1)
        for i in range(n + 1):
            if i:
                binomial = binomial * (n - i + 1) / i
            g = RATE * (100 * i + 500 * (n - i))
            law[g] = law.get(g, Fraction(0)) + p_n * binomial * S**i * (1 - S) ** (n - i)
    values = sorted(law)
    # E[N; N > M] = (1 − Q)^(M+1)·(M + 1 + (1 − Q)/Q), and G ≤ 5¢ per wager
    p, m = 1 - Q, N_MAX + 1
    beyond = 5 * p**m * (m + p / Q)
    return values, [law[v] for v in values], beyond


def _brute_force() -> tuple[Fraction, Fraction]:
    """``[low, high]`` holding the exact mean start above reset, E_π[X] (cents)."""
    values, probs, beyond = _gain_law()
    a, c = Fraction(4, 5), RATE * 100
    threshold = Fraction(RESET) / 5 / a  # b / a: F(x, g) > 0 iff x + g + c > b/a
    # suffix sums of P and P·g give E_G[F(x, G)] for any x by one bisection
    tail_p = [*list(accumulate(reversed(probs)))[::-1], Fraction(0)]
    weighted = [p * v for p, v in zip(probs, values, strict=True)]
    tail_pg = [*list(accumulate(reversed(weighted)))[::-1], Fraction(0)]

    def mean_next(x: Fraction) -> Fraction:
        i = bisect_right(values, threshold - x - c)  # the gains that leave more than reset
        return a * ((x + c - threshold) * tail_p[i] + tail_pg[i])

    def step(law: dict[Fraction, Fraction]) -> dict[Fraction, Fraction]:
        out: dict[Fraction, Fraction] = {}
        for x, px in law.items():
            for g, pg in zip(values, probs, strict=True):
                y = max(Fraction(0), a * (x + g + c) - a * threshold)
                out[y] = out.get(y, Fraction(0)) + px * pg
        return out

    x1 = step({Fraction(0): Fraction(1)})
    x2 = step(x1)
    means = [sum((x * p for x, p in law.items()), Fraction(0)) for law in (x1, x2)]
    means.append(sum((p * mean_next(x) for x, p in x2.items()), Fraction(0)))
    low = sum(((1 - S) * S**k * m for k, m in enumerate(means, start=1)), Fraction(0))
    mean_gain = (1 / Q - 1) * RATE * (S * 100 + (1 - S) * 500)
    bound = a * (mean_gain + c) / (1 - a)  # B
    epsilon = (1 - Q) ** (N_MAX + 1)
    truncated = sum(((1 - S) * S**k * (a / (1 - a) * (beyond + c * epsilon) + k * epsilon * bound)
                     for k in (1, 2, 3)), Fraction(0))
    return low, low + S**4 * bound + truncated


@pytest.mark.slow
def test_the_chains_bracket_the_brute_force_mean_start() -> None:
    """Both brackets hold the exact value: they overlap, and each is narrow (10⁻⁷ ¢ or less)."""
    low, high = _brute_force()
    assert high - low < Fraction(11, 10**8)  # s⁴·B: the cycles of four $1 hits and more
    result = bracket(TINY, Q, (S, 1 - S), (100, 500), (20, 100), target_cents=1e-8)
    assert result.proven
    assert result.high - result.low < 1e-8
    assert max(float(low), result.low) <= min(float(high), result.high)
    assert 0.004 < float(low) < 0.006  # not a vacuous check: the $1 remainder often exceeds R


@pytest.mark.slow
def test_the_long_run_return_is_the_brute_force_one_within_its_bounds() -> None:
    """The $1 wager's return q·20 %·E[meter at its hit]/$1 from the brute force, against the API."""
    low, high = _brute_force()
    lr = meter_long_run(TINY, Q, MIX)
    assert lr is not None and lr.method is Method.BOUNDED
    gain = (1 / Q - 1) * RATE * (S * 100 + (1 - S) * 500)
    one = lr.of(100)
    exact_low, exact_high = (Q * Fraction(1, 5) * (RESET + x + gain + 1) / 100 for x in (low, high))
    assert exact_low - one.rtp_error <= one.rtp <= exact_high + one.rtp_error
    assert one.rtp_error <= RTP_BOUND
    # the $5 wager sees the same meter but for its own 5¢ instead of 1¢, and takes all of it
    five = lr.of(500)
    assert five.mean_meter_at_hit_cents - one.mean_meter_at_hit_cents == 4
    assert abs(five.mean_meter_at_hit_cents - (RESET + (low + high) / 2 + gain + 5)) <= (
        five.meter_error_cents + (high - low) / 2)


def test_a_coarse_grid_gives_a_wider_bracket_that_still_holds_the_finer_one() -> None:
    """Refining the grid narrows the bracket as the square of its step; each one is a bound."""
    coarse = bracket_on(TINY, Q, (S, 1 - S), (100, 500), (20, 100), 64, 1e-12)
    fine = bracket_on(TINY, Q, (S, 1 - S), (100, 500), (20, 100), 1024, 1e-12)
    assert max(coarse.low, fine.low) <= min(coarse.high, fine.high)
    assert fine.high - fine.low < (coarse.high - coarse.low) / 10


def test_a_ceiling_within_reach_is_not_proven() -> None:
    """A reserve that passes through whole contracts nothing: the chains settle, unproven."""
    rules = Meter(100_000, 100_000, 0.05, 150_000)
    result = bracket(rules, Fraction(1, 1000), (Fraction(1),), (500,), (100,), target_cents=1.0)
    assert not result.proven and not result.stuck
    assert result.low <= result.high
