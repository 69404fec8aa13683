"""Exact figures under each decision policy on a tie: always War, always Surrender, best.

The decision (MD Ch. 9 E) is taken knowing the tied rank and, for the
Progressive Payout Wager, whether the tie is suited (the spot's and the
dealer's cards are face up). So a policy is a map from :class:`TieClass` to
:class:`~etg.core.paytable.Decision`:

- ``WAR`` and ``SURRENDER`` take the same decision on every tie;
- ``BEST`` takes, on each class, the decision of the larger expected return
  *given that class*: for the main game the return of the Initial Wager (with
  its War Wager), for a spot that also holds the Progressive Payout Wager the
  return of both wagers together, with the Initial Wager at the table minimum
  and the meter at its reset amount (the least a player can count on).

Every probability is a sum over the finite shoe (the four-card argument of
:mod:`etg.math.exact`); every net comes from :mod:`etg.core.settle` through
:func:`etg.math.exact.main_game_nets`. A player who surrenders forfeits the
War cards, so the Double Tie and both Four-of-a-Kinds (MD Ch. 10 B(1)-(4))
are never his: they count only on the classes the policy takes to War.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from etg.core.paytable import Decision, PayoutHand, Paytable, ProgressivePayout
from etg.core.settle import Outcome
from etg.math.bonus import CARD_FACES
from etg.math.exact import RANK_COUNT, SUITS_PER_DECK, main_game_nets, pair_probabilities
from etg.math.progressive_payout import (
    TieClass,
    break_even_meter,
    hand_win_cents,
    war_hand_counts_by_tie,
)


class Policy(Enum):
    """How a player decides every tie."""

    WAR = "war"
    SURRENDER = "surrender"
    BEST = "best"

    @property
    def label(self) -> str:
        return {"war": "always War", "surrender": "always Surrender",
                "best": "best decision"}[self.value]


@dataclass(frozen=True)
class OutcomeLine:
    """One outcome of a spot's hand: its net per unit of the Initial Wager and probability."""

    label: str
    net: Fraction
    probability: Fraction


@dataclass(frozen=True)
class RankDecision:
    """The main game's values after a tie of ``rank``, per unit of the Initial Wager.

    ``war`` is the expected net of the Initial and War Wagers after going to
    War, ``surrender`` the net of surrendering (−½); ``best`` the larger.
    """

    rank: int
    probability: Fraction  # P(original tie of this rank)
    war: Fraction
    surrender: Fraction

    @property
    def best(self) -> Decision:
        return Decision.WAR if self.war >= self.surrender else Decision.SURRENDER


@dataclass(frozen=True)
class MainPolicyFigures:
    """The Initial Wager (with its War Wager) of one spot under one policy.

    ``house_edge`` is the expected loss per unit of the Initial Wager;
    ``mean_wagered`` the expected Initial plus War Wager per unit of the
    Initial Wager and ``house_edge_per_wagered`` the loss per unit wagered;
    ``element_of_risk`` the loss per unit of the final wager in action, a
    surrendered hand counting as the half it loses (the half returned is
    taken back before the War deal, as a pulled bet). ``hit_frequency`` is
    P(the hand wins money), ``variance`` that of the net per unit Initial.
    """

    policy: Policy
    outcomes: tuple[OutcomeLine, ...]
    house_edge: Fraction
    mean_wagered: Fraction
    house_edge_per_wagered: Fraction
    mean_at_risk: Fraction
    element_of_risk: Fraction
    hit_frequency: Fraction
    variance: Fraction
    war_probability: Fraction  # P(the hand goes to War)


@dataclass(frozen=True)
class MainPolicies:
    """The main game under each policy and the per-rank values behind ``BEST``."""

    decisions: tuple[RankDecision, ...]
    by_policy: tuple[MainPolicyFigures, ...]

    def of(self, policy: Policy) -> MainPolicyFigures:
        return next(f for f in self.by_policy if f.policy is policy)

    @property
    def best_differs_from_war(self) -> tuple[int, ...]:
        """The ranks on which the best decision is to Surrender (empty: best is always War)."""
        return tuple(d.rank for d in self.decisions if d.best is Decision.SURRENDER)


def main_policies(paytable: Paytable) -> MainPolicies:
    """The main game's figures under always War, always Surrender and the best decision."""
    decisions = rank_decisions(paytable)
    nets = main_game_nets(paytable)
    counts = [SUITS_PER_DECK * paytable.shoe.decks] * RANK_COUNT
    original = pair_probabilities(counts)
    war_given_rank = {d.rank: _war_outcomes(counts, d.rank - 2) for d in decisions}
    by_policy = []
    for policy in Policy:
        choice = {d.rank: _choose(policy, d.best) for d in decisions}
        lines: list[OutcomeLine] = [
            OutcomeLine("spot higher", nets.original[Outcome.HIGHER], original[Outcome.HIGHER]),
            OutcomeLine("spot lower", nets.original[Outcome.LOWER], original[Outcome.LOWER]),
        ]
        surrendered = sum((d.probability for d in decisions
                           if choice[d.rank] is Decision.SURRENDER), Fraction(0))
        if surrendered:
            lines.append(OutcomeLine("tie, Surrender", nets.surrender, surrendered))
        for outcome, label in ((Outcome.HIGHER, "tie, War won"), (Outcome.TIE, "tie, War tied"),
                               (Outcome.LOWER, "tie, War lost")):
            p = sum((d.probability * war_given_rank[d.rank][outcome] for d in decisions
                     if choice[d.rank] is Decision.WAR), Fraction(0))
            if p:
                lines.append(OutcomeLine(label, nets.war[outcome], p))
        by_policy.append(_policy_figures(policy, tuple(lines), 1 - original[Outcome.TIE],
                                         surrendered))
    return MainPolicies(decisions, tuple(by_policy))


def rank_decisions(paytable: Paytable) -> tuple[RankDecision, ...]:
    """For each tied rank, 2 to Ace: its probability and the values of War and Surrender."""
    nets = main_game_nets(paytable)
    counts = [SUITS_PER_DECK * paytable.shoe.decks] * RANK_COUNT
    n = sum(counts)
    out = []
    for index, c in enumerate(counts):
        war = _war_outcomes(counts, index)
        value = sum((war[o] * nets.war[o] for o in Outcome), Fraction(0))
        out.append(RankDecision(index + 2, Fraction(c * (c - 1), n * (n - 1)), value,
                                nets.surrender))
    return tuple(out)


def _war_outcomes(counts: list[int], tied: int) -> dict[Outcome, Fraction]:
    rest = [k - 2 if i == tied else k for i, k in enumerate(counts)]
    return pair_probabilities(rest)


def _choose(policy: Policy, best: Decision) -> Decision:
    if policy is Policy.WAR:
        return Decision.WAR
    if policy is Policy.SURRENDER:
        return Decision.SURRENDER
    return best


def _policy_figures(policy: Policy, lines: tuple[OutcomeLine, ...], decided: Fraction,
                    surrendered: Fraction) -> MainPolicyFigures:
    """The moments of ``lines``; ``decided`` = P(no tie), ``surrendered`` = P(tie, Surrender)."""
    mean = sum((line.net * line.probability for line in lines), Fraction(0))
    second = sum((line.net ** 2 * line.probability for line in lines), Fraction(0))
    war = 1 - decided - surrendered
    wagered = 1 + war  # the War Wager equals the Initial Wager (MD Ch. 9 E(2))
    at_risk = decided + 2 * war + surrendered / 2
    return MainPolicyFigures(
        policy=policy,
        outcomes=lines,
        house_edge=-mean,
        mean_wagered=wagered,
        house_edge_per_wagered=-mean / wagered,
        mean_at_risk=at_risk,
        element_of_risk=-mean / at_risk,
        hit_frequency=sum((line.probability for line in lines if line.net > 0), Fraction(0)),
        variance=second - mean * mean,
        war_probability=war,
    )


# --- the Progressive Payout Wager under a policy ---------------------------------------------

@dataclass(frozen=True)
class ClassDecision:
    """One tie class for a spot holding the Initial Wager and the Progressive Payout Wager.

    Values are expected returns in cents of both wagers from the tie on, with
    the Initial Wager at ``initial_cents`` and the meter at its reset amount.
    """

    tie: TieClass
    probability: Fraction  # P(original tie of this class)
    war_cents: Fraction
    surrender_cents: Fraction

    @property
    def best(self) -> Decision:
        return Decision.WAR if self.war_cents >= self.surrender_cents else Decision.SURRENDER


@dataclass(frozen=True)
class PayoutPolicyFigures:
    """The Progressive Payout Wager under one policy (returns per unit wagered, stake included).

    ``rtp_at_meter(m)`` is ``rtp_fixed + meter_slope · m`` before each award is
    floored to the cent; ``meter_hit_probability`` is P(a hand paying a share
    of the meter) per wager. Break-even figures are None when no hand the
    policy can reach pays the meter.
    """

    policy: Policy
    hands: dict[PayoutHand, Fraction]
    hit_frequency: Fraction  # P(any hand)
    rtp_fixed: Fraction
    rtp_at_reset: Fraction
    meter_slope: Fraction  # RTP per cent of meter
    meter_hit_probability: Fraction
    meter_shares: tuple[tuple[Fraction, int], ...]  # (share of meter hits, percent paid)
    break_even_meter: Fraction | None
    break_even_meter_cents: int | None
    envy_per_other: Fraction  # Envy Bonus per other seat's wager, per unit of this wager
    variance_at_reset: Fraction  # of the return per unit wagered, meter at reset

    def rtp_at_meter(self, meter_cents: Fraction) -> Fraction:
        """The RTP with the meter at ``meter_cents`` (awards not floored)."""
        return self.rtp_fixed + self.meter_slope * meter_cents


@dataclass(frozen=True)
class PayoutPolicies:
    """The Progressive Payout Wager under each policy, and the class decisions behind BEST."""

    initial_cents: int
    decisions: tuple[ClassDecision, ...]
    by_policy: tuple[PayoutPolicyFigures, ...]

    def of(self, policy: Policy) -> PayoutPolicyFigures:
        return next(f for f in self.by_policy if f.policy is policy)

    @property
    def best_differs_from_war(self) -> tuple[TieClass, ...]:
        """The tie classes on which the best decision is to Surrender."""
        return tuple(d.tie for d in self.decisions if d.best is Decision.SURRENDER)


def payout_policies(paytable: Paytable) -> PayoutPolicies | None:
    """The Progressive Payout Wager's figures per policy, or None if it is not offered."""
    rules = paytable.progressive_payout
    if rules is None:
        return None
    decks = paytable.shoe.decks
    n = CARD_FACES * decks
    total = n * (n - 1) * (n - 2) * (n - 3)
    war_counts = war_hand_counts_by_tie(decks)
    initial = paytable.limits.initial.min_cents
    ranks = {d.rank: d for d in rank_decisions(paytable)}
    reset = rules.meter.reset_cents
    decisions = []
    for tie, counts in war_counts.items():
        tie_draws = sum(counts.values())
        if not tie_draws:
            continue
        surrendered = _surrendered_hand(tie)
        war_pp = Fraction(sum(k * _return_cents(rules, hand, reset)
                              for hand, k in counts.items()), tie_draws)
        decisions.append(ClassDecision(
            tie=tie,
            probability=Fraction(tie_draws, total),
            war_cents=initial * (1 + ranks[tie.rank].war) + war_pp,
            surrender_cents=initial * (1 + ranks[tie.rank].surrender)
            + _return_cents(rules, surrendered, reset),
        ))
    by_policy = []
    for policy in Policy:
        hands: Counter[PayoutHand] = Counter()
        for d in decisions:
            if _choose(policy, d.best) is Decision.WAR:
                hands.update(war_counts[d.tie])
            else:
                hands[_surrendered_hand(d.tie)] += sum(war_counts[d.tie].values())
        by_policy.append(_payout_figures(policy, rules,
                                         {h: Fraction(hands[h], total) for h in PayoutHand}))
    return PayoutPolicies(initial, tuple(decisions), tuple(by_policy))


def _surrendered_hand(tie: TieClass) -> PayoutHand:
    """The hand a surrendered tie keeps: the original deal's (MD Ch. 10 B(5)-(6))."""
    return PayoutHand.SUITED_TIE if tie.suited else PayoutHand.TIE


def _return_cents(rules: ProgressivePayout, hand: PayoutHand, meter_cents: int) -> int:
    """What the wager returns on ``hand``: stake, odds and the meter share, as paid."""
    pct = rules.pays.of(hand).meter_percent
    return rules.wager_cents + hand_win_cents(rules, hand) + meter_cents * pct // 100


def _payout_figures(policy: Policy, rules: ProgressivePayout,
                    hands: dict[PayoutHand, Fraction]) -> PayoutPolicyFigures:
    wager = rules.wager_cents
    hit = sum(hands.values(), Fraction(0))
    fixed = {h: wager + hand_win_cents(rules, h) for h in PayoutHand}
    rtp_fixed = sum((p * fixed[h] for h, p in hands.items()), Fraction(0)) / wager
    metered = {h: rules.pays.of(h).meter_percent for h in PayoutHand
               if rules.pays.of(h).meter_percent and hands[h]}
    q = sum((hands[h] for h in metered), Fraction(0))
    shares = tuple((hands[h] / q, pct) for h, pct in metered.items()) if q else ()
    reset = rules.meter.reset_cents
    returns = {h: Fraction(_return_cents(rules, h, reset)) for h in PayoutHand}
    rtp_at_reset = sum((p * returns[h] for h, p in hands.items()), Fraction(0)) / wager
    second = sum((p * returns[h] ** 2 for h, p in hands.items()), Fraction(0)) / wager ** 2
    slope = sum((hands[h] * Fraction(pct, 100) for h, pct in metered.items()),
                Fraction(0)) / wager
    exact, cents = break_even_meter(rtp_fixed, hands, metered, wager)
    return PayoutPolicyFigures(
        policy=policy,
        hands=hands,
        hit_frequency=hit,
        rtp_fixed=rtp_fixed,
        rtp_at_reset=rtp_at_reset,
        meter_slope=slope,
        meter_hit_probability=q,
        meter_shares=shares,
        break_even_meter=exact,
        break_even_meter_cents=cents,
        envy_per_other=sum((p * rules.envy_cents.of(h) for h, p in hands.items()),
                           Fraction(0)) / wager,
        variance_at_reset=second - rtp_at_reset ** 2,
    )
