"""Decision policies on a tie: always War, always Surrender, best — main game and Progressive Payout.

Known values are derived by hand in the docstrings (6 decks: 312 cards, 24
of each rank, 6 of each face).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from etg.core.paytable import Decision, Limit, Limits, Odds, PayoutHand
from etg.math.exact import main_game_figures
from etg.math.policies import Policy, main_policies, payout_policies
from etg.math.progressive_payout import progressive_payout_figures
from tests import tables

TIE_6 = Fraction(23, 311)  # 24·23 / (312·311)
SUITED_TIE_6 = Fraction(5, 311)  # 6·5 / (312·311) per face, 52 faces


def test_six_deck_tie_and_always_surrender_edge() -> None:
    p = tables.maryland(7)
    figures = main_policies(p)
    surrender = figures.of(Policy.SURRENDER)
    assert main_game_figures(p).tie_probability == TIE_6
    assert surrender.house_edge == TIE_6 / 2 == Fraction(23, 622)
    assert surrender.war_probability == 0
    # A surrender is half a wager in action: 288/311 + (23/311)/2 = 599/622.
    assert surrender.mean_at_risk == Fraction(599, 622)
    assert surrender.element_of_risk == Fraction(23, 599)
    assert surrender.house_edge_per_wagered == Fraction(23, 622)
    assert surrender.hit_frequency == Fraction(144, 311)  # (1 − 23/311) / 2


def test_always_war_matches_the_main_game_figures() -> None:
    p = tables.maryland(7)
    war = main_policies(p).of(Policy.WAR)
    f = main_game_figures(p)
    assert war.house_edge == f.house_edge_war == Fraction(23138, 993023)
    assert war.war_probability == TIE_6
    assert war.mean_wagered == 1 + TIE_6
    assert war.house_edge_per_wagered == Fraction(23138, 993023) / (1 + TIE_6)
    assert war.house_edge_per_wagered == Fraction(11569, 533231)
    assert war.element_of_risk == war.house_edge_per_wagered
    assert war.hit_frequency == f.p_win + TIE_6 * (f.war_win_probability + f.war_tie_probability)
    # nets +1, -1, War: +1, +2, -2
    second = (f.p_win + f.p_lose + TIE_6 * (f.war_win_probability + 4 * f.war_tie_probability
                                           + 4 * f.war_lose_probability))
    assert war.variance == second - war.house_edge ** 2


@pytest.mark.parametrize("decks", [6, 8])
def test_outcomes_are_a_distribution_and_give_the_edge(decks: int) -> None:
    for f in main_policies(tables.maryland(5, decks=decks)).by_policy:
        assert sum(o.probability for o in f.outcomes) == 1
        assert -sum(o.net * o.probability for o in f.outcomes) == f.house_edge


def test_maryland_best_decision_is_war_on_every_rank() -> None:
    policies = main_policies(tables.maryland(7))
    assert policies.best_differs_from_war == ()
    assert all(d.best is Decision.WAR for d in policies.decisions)
    assert policies.of(Policy.BEST) == replace(policies.of(Policy.WAR), policy=Policy.BEST)
    # Every rank's War is worth -1006/3193 of the Initial Wager, better than Surrender's -1/2.
    assert {d.war for d in policies.decisions} == {Fraction(-1006, 3193)}
    assert sum(d.probability for d in policies.decisions) == TIE_6


def test_best_decision_surrenders_when_war_pays_nothing() -> None:
    """A War won paying 0 to 1 makes War worth about −0.78: the best is to surrender."""
    p = tables.maryland(7)
    stingy = replace(p, payouts=replace(p.payouts, war=Odds(0)))
    policies = main_policies(stingy)
    assert policies.best_differs_from_war == tuple(range(2, 15))
    assert policies.of(Policy.BEST).house_edge == policies.of(Policy.SURRENDER).house_edge
    assert policies.of(Policy.BEST).house_edge < policies.of(Policy.WAR).house_edge


def test_progressive_payout_always_war_matches_its_module() -> None:
    p = tables.maryland_bonus(7)
    figures = payout_policies(p)
    reference = progressive_payout_figures(p)
    assert figures is not None and reference is not None
    war = figures.of(Policy.WAR)
    assert war.hands == reference.hands
    assert war.hands[PayoutHand.SUITED_FOUR_OF_A_KIND] == Fraction(2, 993023)
    assert war.rtp_at_reset == reference.rtp_at_reset
    assert war.break_even_meter_cents == reference.break_even_meter_cents
    assert war.envy_per_other == reference.envy_rtp_per_other
    assert war.hit_frequency == TIE_6


def test_progressive_payout_always_surrender_forfeits_the_war_hands() -> None:
    figures = payout_policies(tables.maryland_bonus(7))
    assert figures is not None
    surrender = figures.of(Policy.SURRENDER)
    assert surrender.hands[PayoutHand.SUITED_TIE] == SUITED_TIE_6
    assert surrender.hands[PayoutHand.TIE] == TIE_6 - SUITED_TIE_6 == Fraction(18, 311)
    for hand in (PayoutHand.SUITED_FOUR_OF_A_KIND, PayoutHand.SUITED_DOUBLE_TIE,
                 PayoutHand.FOUR_OF_A_KIND, PayoutHand.DOUBLE_TIE):
        assert surrender.hands[hand] == 0
    # Suited Tie 15 to 1 and Tie 5 to 1, stake returned: (5·16 + 18·6) / 311
    assert surrender.rtp_fixed == surrender.rtp_at_reset == Fraction(188, 311)
    assert surrender.meter_hit_probability == 0 and surrender.meter_slope == 0
    assert surrender.break_even_meter is None and surrender.break_even_meter_cents is None
    assert surrender.envy_per_other == 0  # only the Suited Four-of-a-Kind earns the envy


def test_progressive_payout_best_is_war_and_rtp_is_linear_in_the_meter() -> None:
    figures = payout_policies(tables.maryland_bonus(7))
    assert figures is not None
    assert figures.best_differs_from_war == ()
    best = figures.of(Policy.BEST)
    assert best.hands == figures.of(Policy.WAR).hands
    assert len(figures.decisions) == 26  # 13 ranks, suited or not
    assert sum(d.probability for d in figures.decisions) == TIE_6
    slope = Fraction(2, 993023) / 500  # 100 % of the meter on a Suited Four-of-a-Kind
    assert best.meter_slope == slope
    assert best.rtp_at_meter(Fraction(2_000_000)) == best.rtp_fixed + slope * 2_000_000
    assert best.rtp_at_meter(best.break_even_meter or Fraction(0)) == 1


def test_progressive_payout_best_surrenders_a_large_initial_wager_when_war_pays_nothing() -> None:
    """War paying 0 to 1 with a $500 Initial Wager: the hands the War could make are not worth it.

    With a $5 Initial Wager the Double Tie and Four-of-a-Kind chances still pay
    for the War; at $500 the War costs about $140 more than surrendering.
    """
    p = tables.maryland_bonus(7)
    cheap = replace(p, payouts=replace(p.payouts, war=Odds(0)))
    small = payout_policies(cheap)
    assert small is not None and small.best_differs_from_war == ()
    large = payout_policies(replace(cheap, limits=Limits(Limit(50_000, 50_000), p.limits.tie)))
    assert large is not None
    assert len(large.best_differs_from_war) == 26
    assert all(d.surrender_cents > d.war_cents for d in large.decisions)
    best = large.of(Policy.BEST)
    assert best.hands == large.of(Policy.SURRENDER).hands
    assert best.rtp_at_reset == Fraction(188, 311)


def test_no_progressive_payout_no_figures() -> None:
    assert payout_policies(tables.maryland(5)) is None
