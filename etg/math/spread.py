"""The community layout's spread: how two spots of one round move together.

Every spot of a round is compared with the same dealer card, and after ties
with the same dealer's War card (MD Ch. 9 H, L), so the nets of two spots are
correlated: a low dealer card makes both likely winners. A seat playing ``k``
spots of one round has a per-round variance ``k·σ² + k(k−1)·cov``, not
``k·σ²``. The same holds for two seats' cards in the per-seat layout.

Exact by the four-card argument of :mod:`etg.math.exact`, extended to the
cards two spots use: the dealer's card, the two spot cards and, after ties,
the dealer's War card and the spots' War cards are drawn without replacement
from the full shoe, ranks summed from their counts. Each tie follows the
policy's decision for its rank (:mod:`etg.math.policies`); two spots tied on
the same dealer card share his War card.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from etg.core.paytable import Decision, Paytable
from etg.core.settle import Outcome
from etg.math.exact import RANK_COUNT, SUITS_PER_DECK, MainGameNets, main_game_nets
from etg.math.policies import MainPolicies, Policy, main_policies


@dataclass(frozen=True)
class SeatSpread:
    """One seat playing ``spots`` spots of one round, an equal Initial Wager on each.

    ``variance`` is that of the round's net per unit of *one* Initial Wager;
    ``sd_per_wagered`` the standard deviation per unit of the seat's total
    Initial Wagers.
    """

    spots: int
    variance: Fraction
    sd_per_wagered: float


@dataclass(frozen=True)
class SpreadFigures:
    """Two spots of one round under ``policy`` (nets per unit of the Initial Wager)."""

    policy: Policy
    variance: Fraction  # one spot
    covariance: Fraction  # two spots of the same round
    correlation: Fraction
    seats: tuple[SeatSpread, ...]  # one seat playing 1 .. max_spots_per_seat spots


def spread_figures(paytable: Paytable, policy: Policy,
                   policies: MainPolicies | None = None) -> SpreadFigures:
    """Variance, covariance and correlation of two spots' nets, and a seat's per-round spread."""
    policies = policies or main_policies(paytable)
    figures = policies.of(policy)
    decision = {d.rank - 2: (Decision.WAR if policy is Policy.WAR else
                             Decision.SURRENDER if policy is Policy.SURRENDER else d.best)
                for d in policies.decisions}
    nets = main_game_nets(paytable)
    counts = [SUITS_PER_DECK * paytable.shoe.decks] * RANK_COUNT
    mean = -figures.house_edge
    covariance = _joint_mean(counts, nets, decision) - mean * mean
    variance = figures.variance
    seats = []
    for k in range(1, paytable.max_spots_per_seat + 1):
        v = k * variance + k * (k - 1) * covariance
        seats.append(SeatSpread(k, v, float(v) ** 0.5 / k))
    return SpreadFigures(policy, variance, covariance, covariance / variance, tuple(seats))


def _joint_mean(counts: list[int], nets: MainGameNets,
                decision: dict[int, Decision]) -> Fraction:
    """E[X_A · X_B] for two spots of one round, summed over the ranks of the cards they use."""
    n = sum(counts)
    total = Fraction(0)
    for d, cd in enumerate(counts):
        left = list(counts)
        left[d] -= 1
        for a, ca in enumerate(left):
            if not ca:
                continue
            left[a] -= 1
            for b, cb in enumerate(left):
                if not cb:
                    continue
                left[b] -= 1
                weight = Fraction(cd * ca * cb, n * (n - 1) * (n - 2))
                total += weight * _pair_value(left, d, a, b, nets, decision)
                left[b] += 1
            left[a] += 1
    return total


def _pair_value(rest: list[int], d: int, a: int, b: int, nets: MainGameNets,
                decision: dict[int, Decision]) -> Fraction:
    """E[X_A · X_B] given the dealer's rank ``d``, the spots' ``a`` and ``b``, ``rest`` unseen."""
    tie_a, tie_b = a == d, b == d
    if not tie_a and not tie_b:
        return _original(nets, a, d) * _original(nets, b, d)
    if tie_a and tie_b:
        if decision[d] is Decision.SURRENDER:
            return nets.surrender * nets.surrender
        return _shared_war(rest, nets)
    other = b if tie_a else a
    value = nets.surrender if decision[d] is Decision.SURRENDER else _war_value(rest, nets)
    return value * _original(nets, other, d)


def _original(nets: MainGameNets, spot: int, dealer: int) -> Fraction:
    return nets.original[Outcome.HIGHER if spot > dealer else Outcome.LOWER]


def _war_value(rest: list[int], nets: MainGameNets) -> Fraction:
    """The expected net of one spot's War, War cards drawn from ``rest``."""
    m = sum(rest)
    ties = sum(c * (c - 1) for c in rest)
    higher = (m * m - sum(c * c for c in rest)) // 2  # one card above the other: half of it
    return (higher * (nets.war[Outcome.HIGHER] + nets.war[Outcome.LOWER])
            + ties * nets.war[Outcome.TIE]) / (m * (m - 1))


def _shared_war(rest: list[int], nets: MainGameNets) -> Fraction:
    """E[X_A · X_B] when both spots tied and went to War against one dealer's War card."""
    w, t, lo = nets.war[Outcome.HIGHER], nets.war[Outcome.TIE], nets.war[Outcome.LOWER]
    m = sum(rest)
    total = Fraction(0)
    for dw, c in enumerate(rest):
        if not c:
            continue
        h = sum(rest[dw + 1:])
        e = c - 1
        low = sum(rest[:dw])
        k = m - 1
        pairs = (h * (h - 1) * w * w + e * (e - 1) * t * t + low * (low - 1) * lo * lo
                 + 2 * (h * e * w * t + h * low * w * lo + e * low * t * lo))
        total += Fraction(c, m) * pairs / (k * (k - 1))
    return total
