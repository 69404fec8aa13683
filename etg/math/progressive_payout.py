"""Exact Progressive Payout Wager figures (MD Ch. 7 F(3), Ch. 9 J, Ch. 10 B-C; SPEC §4, §8).

The four cards
--------------
A spot's Progressive Payout Hand is its card with the dealer's card and, after
a War on that spot, the two War cards. As :mod:`etg.math.exact` explains, those
four cards are an ordered draw without replacement from the full shoe, here
with suits: each of the 52 faces (rank and suit) is in a shoe of ``d`` decks
``d`` times. So the probability of four given faces is
``d · (d − [f₁ = f₀]) · (d − [f₂ = f₀] − [f₂ = f₁]) · … / (N (N−1) (N−2) (N−3))``.

**Assumption: the player goes to War on every tie.** The Double Tie and both
Four-of-a-Kinds need the War cards; a player who surrenders a tie keeps only
the Suited Tie or Tie of the original deal. Every figure here is for a player
who always goes to War on that spot.

Each hand is classified by :func:`etg.core.hands.payout_hand`, the function the
engine settles with, so the precedence (a Suited Double Tie of one rank in two
suits outranks a Four-of-a-Kind) cannot drift from the rules. The sum runs
over the spot's face, the dealer's face of the same rank, and the War pairs of
equal rank (a War pair of two ranks leaves the original Suited Tie or Tie):
52 · 4 · 208 classifications with integer multiplicities.

Money
-----
Odds are "to 1" with the wager returned on a win, so a hand returns
``wager + wager · pays // to`` (as :mod:`etg.core.side_wagers` pays it) and, on
a hand with ``meter_percent``, ``floor(meter · percent / 100)`` more. RTP is per
unit wagered. *At reset* takes the meter at its reset amount; the *break-even
meter* is the smallest whole-cent meter at which the RTP reaches 1 (SPEC §8);
*long run* is the meter at its mean when every wager is a Progressive Payout
Wager of this amount (see :mod:`etg.math.bonus` for the argument: with a 100 %
award it is exactly ``rate + q · reset / wager``).

Envy Bonus
----------
A seat holding a Progressive Payout Wager is paid the envy amount for each
qualifying hand held by *another* seat (MD Ch. 9 J(4)(e)), never its own. By
linearity of expectation, whatever the correlation between spots of a
community layout, a seat with one wager among ``others`` other seats' wagers
(each going to War on every tie) expects ``others · Σ P(hand) · envy(hand)``;
``envy_rtp_per_other`` is that per other wager and per unit of this wager.
It is reported apart, because it depends on who else plays.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from etg.core.cards import Card, Rank
from etg.core.hands import payout_hand
from etg.core.paytable import PayoutHand, Paytable, ProgressiveLevel, ProgressivePayout
from etg.math.bonus import CARD_FACES, MeterFigures, meter_figures

SUITS = 4
RANKS = CARD_FACES // SUITS


@dataclass(frozen=True, order=True)
class TieClass:
    """An original tie as the player sees it: the tied rank (2..14) and whether it is suited."""

    rank: int
    suited: bool

    @property
    def label(self) -> str:
        """E.g. "A suited", "10 unsuited"."""
        return f"{Rank(self.rank).label} {'suited' if self.suited else 'unsuited'}"


@dataclass(frozen=True)
class ProgressivePayoutFigures:
    """Exact figures of the Progressive Payout Wager, going to War on every tie.

    ``rtp_*`` are expected returns (stake included) per unit wagered.
    ``break_even_meter`` is the meter (cents, exact) at which the RTP is 1 if
    the award were not rounded down; ``break_even_meter_cents`` the smallest
    whole-cent meter at which the RTP, as paid, reaches 1. Both are None when no
    hand pays a share of the meter.
    """

    decks: int
    wager_cents: int
    hands: dict[PayoutHand, Fraction]  # highest hands first; they exclude one another
    no_hand_probability: Fraction
    rtp_fixed: Fraction  # the odds and the stake returned, without the meter
    rtp_progressive_at_reset: Fraction
    rtp_at_reset: Fraction
    rtp_long_run: Fraction
    meter: MeterFigures
    break_even_meter: Fraction | None
    break_even_meter_cents: int | None
    envy_rtp_per_other: Fraction

    def rtp_with_envy(self, others: int = 0) -> Fraction:
        """RTP at the reset meter plus the Envy Bonus from ``others`` other seats' wagers."""
        return self.rtp_at_reset + others * self.envy_rtp_per_other


def hand_probabilities(decks: int) -> dict[PayoutHand, Fraction]:
    """P(each Progressive Payout Hand) for ``decks`` decks, going to War on every tie."""
    counts = hand_counts(decks)
    n = CARD_FACES * decks
    total = n * (n - 1) * (n - 2) * (n - 3)
    return {hand: Fraction(counts[hand], total) for hand in PayoutHand}


def hand_counts(decks: int) -> Counter[PayoutHand]:
    """Ordered draws of four physical cards (spot, dealer, spot War, dealer War) per hand.

    Sums to ``N (N−1) (N−2) (N−3)`` with the draws that make no hand, which are
    not counted here.
    """
    out: Counter[PayoutHand] = Counter()
    for counts in war_hand_counts_by_tie(decks).values():
        out.update(counts)
    return out


def war_hand_counts_by_tie(decks: int) -> dict[TieClass, Counter[PayoutHand]]:
    """:func:`hand_counts` split by the original tie (its rank, suited or not), going to War.

    The counts of one class sum to the ordered draws of that tie times the
    ``(N−2)(N−3)`` ordered War pairs; a player who surrenders that tie holds
    its Suited Tie or Tie on every one of them instead.

    Counted once per number of decks (a par sheet asks for them several times);
    each call gets its own copy.
    """
    return {tie: Counter(counts) for tie, counts in _war_hand_counts_by_tie(decks).items()}


@lru_cache(maxsize=16)
def _war_hand_counts_by_tie(decks: int) -> dict[TieClass, Counter[PayoutHand]]:
    cards = [Card.from_index(f) for f in range(CARD_FACES)]
    n = CARD_FACES * decks
    out: dict[TieClass, Counter[PayoutHand]] = {
        TieClass(rank + 2, suited): Counter() for rank in range(RANKS) for suited in (True, False)}
    for f0 in range(CARD_FACES):
        rank = f0 // SUITS
        for f1 in range(rank * SUITS, rank * SUITS + SUITS):  # the dealer's card ties
            left = [decks] * CARD_FACES
            left[f0] -= 1
            base = decks * left[f1]
            left[f1] -= 1
            if not base:
                continue
            tally = out[TieClass(rank + 2, f0 == f1)]
            war_ties = 0
            for war_rank in range(RANKS):
                faces = range(war_rank * SUITS, war_rank * SUITS + SUITS)
                for f2 in faces:
                    for f3 in faces:
                        ways = left[f2] * (left[f3] - (f3 == f2))
                        if ways:
                            war_ties += ways
                            hand = payout_hand(cards[f0], cards[f1], (cards[f2], cards[f3]))
                            assert hand is not None
                            tally[hand] += base * ways
            # War cards of two ranks: the original deal's hand stands.
            hand = payout_hand(cards[f0], cards[f1], None)
            assert hand is not None
            tally[hand] += base * ((n - 2) * (n - 3) - war_ties)
    return out


def progressive_payout_figures(paytable: Paytable) -> ProgressivePayoutFigures | None:
    """The Progressive Payout Wager's exact figures, or None if the paytable does not offer it."""
    rules = paytable.progressive_payout
    if rules is None:
        return None
    hands = hand_probabilities(paytable.shoe.decks)
    wager = rules.wager_cents
    rtp_fixed = sum((p * (wager + hand_win_cents(rules, hand)) for hand, p in hands.items()),
                    Fraction(0)) / wager
    metered = {hand: rules.pays.of(hand).meter_percent for hand in PayoutHand
               if rules.pays.of(hand).meter_percent}
    q = sum((hands[hand] for hand in metered), Fraction(0))
    shares = [(hands[hand] / q, pct) for hand, pct in metered.items()] if q else []
    meter = meter_figures(ProgressiveLevel.PROGRESSIVE_PAYOUT, rules.meter, wager, q, shares)
    at_reset = sum((hands[hand] * (rules.meter.reset_cents * pct // 100)
                    for hand, pct in metered.items()), Fraction(0)) / wager
    envy = sum((p * rules.envy_cents.of(hand) for hand, p in hands.items()), Fraction(0)) / wager
    break_even, break_even_cents = break_even_meter(rtp_fixed, hands, metered, wager)
    return ProgressivePayoutFigures(
        decks=paytable.shoe.decks,
        wager_cents=wager,
        hands=hands,
        no_hand_probability=1 - sum(hands.values(), Fraction(0)),
        rtp_fixed=rtp_fixed,
        rtp_progressive_at_reset=at_reset,
        rtp_at_reset=rtp_fixed + at_reset,
        rtp_long_run=rtp_fixed + meter.rtp_long_run,
        meter=meter,
        break_even_meter=break_even,
        break_even_meter_cents=break_even_cents,
        envy_rtp_per_other=envy,
    )


def rtp_at_meter(figures: ProgressivePayoutFigures, rules: ProgressivePayout,
                 meter_cents: int) -> Fraction:
    """The wager's RTP with the meter standing at ``meter_cents``, each award floored as paid."""
    award = sum((p * (meter_cents * rules.pays.of(hand).meter_percent // 100)
                 for hand, p in figures.hands.items()), Fraction(0))
    return figures.rtp_fixed + award / figures.wager_cents


def hand_win_cents(rules: ProgressivePayout, hand: PayoutHand) -> int:
    """The odds' winnings in cents on the fixed wager, rounded down as the engine pays them."""
    pay = rules.pays.of(hand)
    return rules.wager_cents * pay.pays // pay.to


def break_even_meter(rtp_fixed: Fraction, hands: dict[PayoutHand, Fraction],
                     metered: dict[PayoutHand, int],
                     wager: int) -> tuple[Fraction | None, int | None]:
    """The meter at which the RTP is 1: unrounded, and the least whole cent that reaches it."""
    slope = sum((hands[hand] * Fraction(pct, 100) for hand, pct in metered.items()), Fraction(0))
    if not slope:
        return None, None
    exact = max(Fraction(0), (1 - rtp_fixed) * wager / slope)

    def reaches(cents: int) -> bool:
        award = sum((hands[hand] * (cents * pct // 100) for hand, pct in metered.items()),
                    Fraction(0))
        return rtp_fixed + award / wager >= 1

    # Flooring each award costs under a cent per percent step: at most 100 cents above.
    cents = math.ceil(exact)
    while not reaches(cents):
        cents += 1
    return exact, cents
