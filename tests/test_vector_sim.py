"""The vectorised simulator agrees with the exact figures and with the settlement rules."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from etg.core.paytable import (
    Paytable,
    Shoe,
)
from etg.core.settle import (
    Outcome,
    WagerKind,
    settle_going_to_war,
    settle_original,
    settle_surrender,
    settle_war,
)
from etg.math.exact import main_game_figures
from etg.math.vector_sim import (
    OUTCOME_CODE,
    draw_classes,
    draw_positions,
    draw_ranks,
    net_tables,
    simulate_main_game,
)
from tests import tables


def maryland(decks: int = 6) -> Paytable:
    """config/paytables/maryland-community-5.yaml, built without the YAML loader."""
    return tables.maryland(5, decks)


def pa_2011(decks: int = 8) -> Paytable:
    return tables.pennsylvania_2011(shoe=Shoe(decks, 0.25, 0.40))


def south_dakota(decks: int = 6) -> Paytable:
    return tables.south_dakota(seats=6, spots=6, shoe=Shoe(decks, 0.25, 0.40))


PAYTABLES = [maryland(), pa_2011(), south_dakota()]
IDS = ["md-6-initial_pushed", "pa2011-8-initial_forfeited", "sd-6-dealer_matched"]


@pytest.mark.parametrize("paytable", PAYTABLES, ids=IDS)
def test_two_million_rounds_agree_with_exact_figures(paytable: Paytable) -> None:
    # A fixed seed makes this deterministic; each figure's 99 % interval must hold the exact value.
    sim = simulate_main_game(paytable, 2_000_000, seed=20240601)
    exact = main_game_figures(paytable)
    assert sim.rounds == 2_000_000
    assert sim.tie_probability.n == 2_000_000
    pairs = [
        (sim.tie_probability, exact.tie_probability),
        (sim.war_tie_probability, exact.war_tie_probability),
        (sim.house_edge_war, exact.house_edge_war),
        (sim.house_edge_surrender, exact.house_edge_surrender),
        (sim.tie_house_edge, exact.tie_house_edge),
    ]
    if exact.war_tie_wager_house_edge is None:
        assert sim.war_tie_wager_house_edge is None
    else:
        assert sim.war_tie_wager_house_edge is not None
        pairs.append((sim.war_tie_wager_house_edge, exact.war_tie_wager_house_edge))
    for estimate, value in pairs:
        assert estimate.contains(float(value)), (estimate, float(value))
    # The War deal is measured over the original ties only.
    assert sim.war_tie_probability.n == round(sim.tie_probability.mean * sim.rounds)


@pytest.mark.parametrize("paytable", PAYTABLES, ids=IDS)
def test_lookup_tables_equal_the_settle_functions(paytable: Paytable) -> None:
    tables = net_tables(paytable)
    p, form = paytable.payouts, paytable.war_form
    stake = 200  # cents; every shipped payout on it is a whole cent
    for original in Outcome:
        for war in Outcome:
            k = 3 * OUTCOME_CODE[original] + OUTCOME_CODE[war]
            if original is Outcome.TIE:
                war_net = sum(pay.net for pay in settle_going_to_war(form, stake)
                              + settle_war(form, p, war, stake, stake, 0))
                surrender_net = settle_surrender(stake).net
            else:
                war_net = surrender_net = sum(
                    pay.net for pay in settle_original(p, original, stake, 0))
            tie_net = sum(pay.net for pay in settle_original(p, original, 0, stake)
                          if pay.kind is WagerKind.TIE)
            assert tables.edge_war[k] == -Fraction(war_net, stake)
            assert tables.edge_surrender[k] == -Fraction(surrender_net, stake)
            assert tables.edge_tie[k] == -Fraction(tie_net, stake)
            assert tables.tie[k] == (original is Outcome.TIE)
            assert tables.war_tie[k] == (war is Outcome.TIE)
            if tables.edge_war_tie_wager is None:
                assert not paytable.war_tie_wager
            else:
                side = sum(pay.net for pay in settle_war(form, p, war, stake, stake, stake)
                           if pay.kind is WagerKind.WAR_TIE)
                assert tables.edge_war_tie_wager[k] == -Fraction(side, stake)


def test_lookup_tables_hold_the_hand_values() -> None:
    # Classes 3*original + war, LOWER 0, HIGHER 1, TIE 2: the player's nets are
    # -1 / +1 on the original deal, and after a tie -2 / +1 / +2 at War, -1/2 on Surrender.
    for paytable in PAYTABLES:
        t = net_tables(paytable)
        assert t.edge_war == (1, 1, 1, -1, -1, -1, 2, -1, -2)
        assert t.edge_surrender == (1, 1, 1, -1, -1, -1, 0.5, 0.5, 0.5)
        assert t.edge_tie == (1, 1, 1, 1, 1, 1, -10, -10, -10)


def test_positions_are_distinct_and_in_range() -> None:
    rng = np.random.default_rng(7)
    positions = draw_positions(rng, 8, 200_000)
    assert positions.shape == (4, 200_000)
    assert positions.min() == 0
    assert positions.max() == 7
    ordered = np.sort(positions, axis=0)
    assert (np.diff(ordered, axis=0) > 0).all()


def test_ordered_position_tuples_are_uniform() -> None:
    # 6 cards: 6*5*4*3 = 360 ordered 4-tuples, 1,000 expected each out of 360,000.
    rng = np.random.default_rng(11)
    p = draw_positions(rng, 6, 360_000).astype(np.int64)
    codes = ((p[0] * 6 + p[1]) * 6 + p[2]) * 6 + p[3]
    counts = np.bincount(codes, minlength=6**4)
    used = counts[counts > 0]
    assert used.size == 360
    chi2 = float(((used - 1000.0) ** 2 / 1000.0).sum())
    assert chi2 < 460  # 359 degrees of freedom: the 99.9 % quantile is about 448


def test_ranks_and_classes() -> None:
    rng = np.random.default_rng(3)
    ranks = draw_ranks(rng, 6, 100_000)
    assert ranks.min() == 0
    assert ranks.max() == 12
    classes = draw_classes(np.random.default_rng(3), 6, 100_000)
    lower = ranks[0] < ranks[1]
    higher = ranks[0] > ranks[1]
    assert ((classes // 3 == 0) == lower).all()
    assert ((classes // 3 == 1) == higher).all()


def test_same_seed_same_result_and_progress() -> None:
    seen: list[int] = []
    a = simulate_main_game(maryland(), 250_000, seed=5, chunk=100_000, progress=seen.append)
    b = simulate_main_game(maryland(), 250_000, seed=5, chunk=100_000)
    assert seen == [100_000, 200_000, 250_000]
    assert a.house_edge_war == b.house_edge_war
    assert a.tie_probability == b.tie_probability
    assert a.rounds_per_second > 0


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        simulate_main_game(maryland(), 0, seed=1)
    with pytest.raises(ValueError):
        simulate_main_game(maryland(), 10, seed=1, chunk=0)
    with pytest.raises(ValueError):
        draw_positions(np.random.default_rng(1), 3, 10)
