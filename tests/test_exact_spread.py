"""Two spots of one round: the covariance of their nets, against a brute-force enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from etg.core.paytable import Decision
from etg.core.settle import Outcome
from etg.math.exact import main_game_nets
from etg.math.policies import Policy, main_policies
from etg.math.spread import _joint_mean, spread_figures
from tests import tables


def _net(spot: int, dealer: int, war: tuple[int, int] | None, decision: Decision,
         nets: dict[str, dict[Outcome, Fraction] | Fraction]) -> Fraction:
    original = nets["original"]
    war_nets = nets["war"]
    assert isinstance(original, dict) and isinstance(war_nets, dict)
    if spot != dealer:
        return original[Outcome.HIGHER if spot > dealer else Outcome.LOWER]
    surrender = nets["surrender"]
    assert isinstance(surrender, Fraction)
    if decision is Decision.SURRENDER:
        return surrender
    assert war is not None
    mine, theirs = war
    outcome = (Outcome.TIE if mine == theirs else
               Outcome.HIGHER if mine > theirs else Outcome.LOWER)
    return war_nets[outcome]


def _brute_force(counts: list[int], decision: Decision) -> Fraction:
    """E[X_A · X_B] over every order of a tiny shoe: dealer, A, B, then the War cards.

    The dealer's War card is dealt after the spots' War cards (MD Ch. 9 H);
    which cards play does not depend on the order of the rest.
    """
    nets_obj = main_game_nets(tables.maryland(7))
    nets: dict[str, dict[Outcome, Fraction] | Fraction] = {
        "original": nets_obj.original, "war": nets_obj.war, "surrender": nets_obj.surrender}
    cards = [rank for rank, c in enumerate(counts) for _ in range(c)]
    total = Fraction(0)
    orders = 0
    for order in itertools.permutations(cards):
        d, a, b, *rest = order
        war_cards = iter(rest)
        a_war = b_war = None
        if a == d and decision is Decision.WAR:
            a_war = next(war_cards)
        if b == d and decision is Decision.WAR:
            b_war = next(war_cards)
        dealer_war = next(war_cards)
        x_a = _net(a, d, None if a_war is None else (a_war, dealer_war), decision, nets)
        x_b = _net(b, d, None if b_war is None else (b_war, dealer_war), decision, nets)
        total += x_a * x_b
        orders += 1
    return total / orders


@pytest.mark.parametrize("counts", [[2, 2, 3], [3, 2, 2], [1, 3, 2, 1]])
@pytest.mark.parametrize("decision", [Decision.WAR, Decision.SURRENDER])
def test_joint_mean_against_every_order_of_a_tiny_shoe(counts: list[int],
                                                       decision: Decision) -> None:
    nets = main_game_nets(tables.maryland(7))
    rule = dict.fromkeys(range(len(counts)), decision)
    assert _joint_mean(counts, nets, rule) == _brute_force(counts, decision)


def test_six_deck_spread() -> None:
    p = tables.maryland(7)
    policies = main_policies(p)
    war = spread_figures(p, Policy.WAR, policies)
    assert war.variance == policies.of(Policy.WAR).variance
    assert war.correlation == war.covariance / war.variance
    assert 0.29 < war.correlation < 0.31  # one dealer card for every spot
    assert [s.spots for s in war.seats] == [1, 2, 3]
    assert war.seats[2].variance == 3 * war.variance + 6 * war.covariance
    assert war.seats[0].sd_per_wagered == pytest.approx(float(war.variance) ** 0.5)
    surrender = spread_figures(p, Policy.SURRENDER, policies)
    assert surrender.variance == policies.of(Policy.SURRENDER).variance
    assert spread_figures(p, Policy.BEST, policies).covariance == war.covariance
