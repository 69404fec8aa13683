"""The whole-game vectorised simulator: its draw, its hands, its meters, its figures."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.config.places import shipped_config_dir
from etg.core.cards import Card
from etg.core.hands import payout_hand
from etg.core.paytable import Decision, Layout, Meter, PayoutLimit, Paytable, ProgressiveLevel
from etg.core.progressive import MeterState, award, contribute, initial_state
from etg.math.bonus import bonus_spin_figures, mix_long_run, rtp_long_run_of_mix
from etg.math.engine_sim import agrees
from etg.math.progressive_payout import progressive_payout_figures
from etg.math.sim_figures import exact_figures, figure_label
from etg.math.sim_setup import SeatPlay, bots, standard_mix, standard_setup
from etg.math.vector_full import (
    MIN_AWARD_ROUNDS,
    MetersAtAward,
    _Game,
    _original_hand_codes,
    draw_faces,
    simulate_full,
)
from etg.math.vector_sim import HAND_CODES, NO_HAND
from tests import tables

MD5 = shipped_config_dir() / "paytables" / "maryland-community-5.yaml"


def code(hand: object) -> int:
    return NO_HAND if hand is None else HAND_CODES[hand]  # type: ignore[index]


# --- the draw -------------------------------------------------------------------------------

def test_drawn_cards_are_distinct_and_every_ordered_pair_is_equally_likely() -> None:
    # one deck: faces are positions, so all 12 cards of a round are distinct
    faces = draw_faces(np.random.default_rng(5), 1, 12, 265_200)
    assert faces.shape == (12, 265_200)
    ordered = np.sort(faces, axis=0)
    assert (np.diff(ordered, axis=0) > 0).all()
    # (first card, last card): 52 * 51 ordered pairs, 100 expected each
    pairs = faces[0].astype(np.int64) * 52 + faces[11]
    counts = np.bincount(pairs, minlength=52 * 52).reshape(52, 52)
    assert (np.diag(counts) == 0).all()
    used = counts[~np.eye(52, dtype=bool)]
    chi2 = float(((used - 100.0) ** 2 / 100.0).sum())
    assert chi2 < 2_870  # 2,651 degrees of freedom: the 99.9 % quantile is about 2,866


def test_each_face_stands_decks_times_in_the_shoe() -> None:
    # two decks: a card and the next one are the same face with probability 1/103
    faces = draw_faces(np.random.default_rng(8), 2, 2, 1_030_000)
    same = int(np.count_nonzero(faces[0] == faces[1]))
    assert abs(same - 10_000) < 400  # sd 99.5
    assert faces.min() == 0 and faces.max() == 51


def test_bad_draws_are_refused() -> None:
    with pytest.raises(ValueError):
        draw_faces(np.random.default_rng(1), 1, 53, 10)
    with pytest.raises(ValueError):
        simulate_full(tables.maryland(5), 0, seed=1)
    with pytest.raises(ValueError):
        simulate_full(tables.maryland(5), 10, seed=1, chunk=0)
    # the payout limit per hand is not modelled: a table that could reach it is refused
    low_limit = tables.maryland_bonus(5, payout_limit=PayoutLimit(100_000))
    with pytest.raises(ValueError, match="payout limit"):
        simulate_full(low_limit, 10, seed=1)


# --- hands and meters -----------------------------------------------------------------------

def test_a_surrendered_spot_keeps_only_its_original_hand() -> None:
    spot, dealer = np.meshgrid(np.arange(52), np.arange(52), indexing="ij")
    codes = _original_hand_codes(spot, dealer)
    for s in range(52):
        for d in range(52):
            expected = payout_hand(Card.from_index(s), Card.from_index(d), None)
            assert codes[s, d] == code(expected), (s, d)


@pytest.mark.parametrize("ceiling", [None, 1_000_050, 1_000_000])
def test_summed_wagers_contribute_what_one_round_at_a_time_does(ceiling: int | None) -> None:
    rules = Meter(1_000_000, 1_000_000, 0.015, ceiling)
    rng = random.Random(ceiling)
    for _ in range(200):
        wagers = [rng.choice((0, 100, 300, 500, 2_700)) for _ in range(rng.randint(1, 30))]
        start = MeterState(rng.randint(1_000_000, ceiling or 1_000_100), rng.randrange(10**6),
                           rng.randrange(500))
        one_by_one = start
        for w in wagers:
            one_by_one, _ = contribute(rules, one_by_one, w)
        at_once, _ = contribute(rules, start, sum(wagers))
        assert at_once == one_by_one


def test_meter_awards_in_settlement_order_from_the_meter_as_it_stands() -> None:
    # Two awards in round 2 (the second from the reset amount), one partial in round 5;
    # each round feeds the meter 300 cents of wagers.
    rules = Meter(1_000_000, 1_000_000, 0.5, None)
    paytable = tables.maryland_bonus(5)
    bonus = paytable.bonus_spin
    assert bonus is not None
    paytable = replace(paytable, bonus_spin=replace(bonus, primary=rules))
    game = _Game(paytable, standard_setup(paytable))
    sinks = [np.zeros(8), np.zeros(8)]
    game._run_meter(ProgressiveLevel.PRIMARY, [(2, 100, 0), (2, 100, 1), (5, 20, 1)],
                    lambda k: 300 * (k + 1), sinks, 1)
    state = initial_state(rules)
    paid: list[int] = []
    for round_number in range(8):
        state, _ = contribute(rules, state, 300)
        for r, pct in ((2, 100), (2, 100), (5, 20)):
            if r == round_number:
                state, done = award(rules, state, pct)
                paid.append(done.amount)
    assert paid == [1_000_450, 1_000_000, (1_000_000 + 450) * 20 // 100]
    assert sinks[0][2] == 1_000_450 and sinks[1][2] == 1_000_000 and sinks[1][5] == paid[2]
    assert game.meters[ProgressiveLevel.PRIMARY] == state
    assert game.awards[ProgressiveLevel.PRIMARY] == 3


def test_mean_meter_at_award_skips_the_first_and_groups_by_round() -> None:
    meters = MetersAtAward()
    meters.add(0, 999)  # the first award: its meter started at the initial amount
    for r in range(MIN_AWARD_ROUNDS - 1):
        meters.add(r + 1, 100)
        meters.add(r + 1, 300)
    assert meters.estimate() is None  # one round short
    meters.add(MIN_AWARD_ROUNDS, 200)
    estimate = meters.estimate()
    assert estimate is not None
    assert estimate.mean == 200.0
    assert estimate.n == MIN_AWARD_ROUNDS


# --- the table ------------------------------------------------------------------------------

@pytest.mark.parametrize(("spots", "seats"), [(3, 6), (5, 6), (7, 6), (7, 9), (5, 1)])
def test_standard_setup_plays_adjacent_spots_covering_the_layout(spots: int, seats: int) -> None:
    paytable = tables.maryland(spots, seats=seats)
    setup = standard_setup(paytable)
    assert [s.seat for s in setup.seats] == list(range(1, seats + 1))
    for s in setup.seats:
        assert len(s.spots) == 3
        assert s.spots == tuple(range(s.spots[0], s.spots[0] + 3))
        assert s.spots[0] >= 1 and s.spots[-1] <= spots
    if seats >= spots - 2:
        assert {j for s in setup.seats for j in s.spots} == set(range(1, spots + 1))
    assert setup.mix == Fraction(1, 2)
    assert (setup.initial_cents, setup.tie_cents, setup.war_tie_cents) == (500, 100, 100)
    assert (setup.payout_cents, setup.bonus_spin) == (0, False)


def test_setup_of_a_per_seat_table_and_its_bots() -> None:
    paytable = tables.south_dakota()
    setup = standard_setup(paytable, decision=Decision.SURRENDER)
    assert paytable.layout is Layout.PER_SEAT
    assert [s.spots for s in setup.seats] == [(k,) for k in range(1, 8)]
    assert setup.war_tie_cents == 0  # South Dakota offers no Tie Wager on the War deal
    players = bots(setup, {1: 500})
    assert players[0].bonus_spin == 500 and players[1].bonus_spin == 0
    assert all(b.decision is Decision.SURRENDER and b.war_tie == 0 for b in players)
    assert setup.players(3) == 1 and setup.players(3, Decision.WAR) == 0


def test_mix_must_be_a_share() -> None:
    assert standard_mix(tables.maryland(5), Fraction(1, 3)) == Fraction(1, 3)
    with pytest.raises(ValueError):
        standard_mix(tables.maryland(5), Fraction(3, 2))


# --- the exact values -----------------------------------------------------------------------

@pytest.mark.parametrize("mix", [Fraction(0), Fraction(1), Fraction(1, 3)])
def test_the_long_run_figures_are_the_renewal_reward_ones_for_the_mix(mix: Fraction) -> None:
    paytable = tables.maryland_bonus(5)
    exact = exact_figures(paytable, standard_setup(paytable, mix))
    figures = bonus_spin_figures(paytable)
    assert figures is not None
    long_run = rtp_long_run_of_mix(paytable, mix)
    meters = mix_long_run(paytable, mix)
    played = [c for c, part in ((100, mix), (500, 1 - mix)) if part]
    for cents in played:
        assert exact[f"bonus_spin.{cents}.rtp"] == long_run[cents]
        assert exact[f"bonus_spin.{cents}.rtp_fixed"] == figures.of(cents).rtp_fixed
    for cents in {100, 500} - set(played):
        assert f"bonus_spin.{cents}.rtp" not in exact
    assert exact["meter.primary.at_award"] == meters[ProgressiveLevel.PRIMARY].mean_meter_at_hit_cents
    if mix == 0:  # every wager pays 100 % of a meter without a ceiling: the closed form,
        # the same renewal argument as the single-denomination figures of etg.math.bonus
        assert meters[ProgressiveLevel.PRIMARY].mean_meter_at_hit_cents == figures.of(500).meter(
            ProgressiveLevel.PRIMARY).mean_meter_at_award_cents


def test_envy_and_payout_exact_values() -> None:
    paytable = tables.maryland_bonus(5)
    payout = progressive_payout_figures(paytable)
    assert payout is not None
    exact = exact_figures(paytable, standard_setup(paytable))
    # six holding seats: each qualifying hand is paid to the five others
    assert exact["envy_bonus.rtp"] == 5 * payout.envy_rtp_per_other
    assert exact["progressive_payout.rtp"] == payout.rtp_long_run
    assert exact["hand.suited_four_of_a_kind"] == payout.hands[
        next(iter(payout.hands))]
    surrender = exact_figures(paytable, standard_setup(paytable, decision=Decision.SURRENDER))
    assert "progressive_payout.rtp" not in surrender and "hand.tie" not in surrender
    assert "house_edge_surrender" in surrender and "house_edge_war" not in surrender


@pytest.mark.slow  # a million simulated rounds
def test_a_meter_whose_ceiling_is_within_reach_still_has_its_long_run_from_the_chain() -> None:
    paytable = tables.maryland_bonus(5)
    bonus = paytable.bonus_spin
    assert bonus is not None
    capped = replace(paytable, bonus_spin=replace(
        bonus, secondary=Meter(1_000_000, 500_000, 0.005, 510_000)))
    exact = exact_figures(capped, standard_setup(capped))
    # the Markov chain on meter and reserve: the meter stands at or just under its ceiling
    assert 505_000 < exact["meter.secondary.at_award"] <= 510_000
    assert exact["bonus_spin.500.rtp"] == rtp_long_run_of_mix(capped, Fraction(1, 2))[500]


def test_figure_labels() -> None:
    assert figure_label("tie_house_edge") == "Tie Wager house edge"
    assert figure_label("hand.suited_four_of_a_kind") == (
        "Progressive Payout Hand: Suited Four-of-a-Kind, per spot")
    assert figure_label("bonus_spin.100.rtp") == "Bonus Spin Xtreme $1 wager return, meters evolving"
    assert figure_label("meter.secondary.at_award") == (
        "Mean secondary progressive at an award (cents)")
    assert figure_label("hot_spot.JACKPOT") == "Hot Spot ring: JACKPOT, per spin"


# --- the whole game against the exact figures -----------------------------------------------

def maryland() -> Paytable:
    return tables.maryland_bonus(5)


@pytest.mark.slow  # a million simulated rounds
def test_a_million_rounds_agree_with_every_exact_figure() -> None:
    paytable = maryland()
    setup = standard_setup(paytable)
    result = simulate_full(paytable, 1_000_000, seed=2026, setup=setup)
    exact = exact_figures(paytable, setup)
    assert len(exact) == 35  # 5 main game, 19 Bonus Spin, 11 Progressive Payout
    # 11 Suited Four-of-a-Kinds: too few rounds with an award for the mean meter at one
    assert set(exact) - set(result.figures) == {"meter.progressive_payout.at_award"}
    outside = [(key, float(value), result.figures[key]) for key, value in exact.items()
               if key in result.figures and not agrees(result.figures[key], float(value))]
    assert outside == []
    assert result.figures["tie_probability"].n == 5_000_000  # every spot of every round
    assert result.figures["house_edge_war"].half_width < 0.002
    assert result.awards[ProgressiveLevel.SECONDARY] > 500


def test_always_surrender_and_a_per_seat_table() -> None:
    paytable = maryland()
    setup = standard_setup(paytable, decision=Decision.SURRENDER)
    result = simulate_full(paytable, 300_000, seed=5, setup=setup)
    exact = exact_figures(paytable, setup)
    assert "war_tie_probability" not in result.figures  # nobody goes to War
    assert [k for k, v in exact.items() if not agrees(result.figures[k], float(v))] == []
    south_dakota = tables.south_dakota()
    result = simulate_full(south_dakota, 300_000, seed=4)
    assert set(result.figures) == {"tie_probability", "war_tie_probability", "house_edge_war",
                                   "tie_house_edge"}
    exact = exact_figures(south_dakota, standard_setup(south_dakota))
    assert [k for k, v in exact.items() if not agrees(result.figures[k], float(v))] == []


def test_seat_without_a_wager_on_a_per_seat_table_gets_no_card() -> None:
    paytable = tables.pennsylvania()
    setup = replace(standard_setup(paytable), seats=(SeatPlay(2, (2,), Decision.WAR),))
    result = simulate_full(paytable, 10_000, seed=1, setup=setup)
    assert result.figures["tie_probability"].n == 10_000


def test_same_seed_same_figures_and_progress() -> None:
    seen: list[int] = []
    a = simulate_full(maryland(), 25_000, seed=9, chunk=10_000, progress=seen.append)
    b = simulate_full(maryland(), 25_000, seed=9, chunk=10_000)
    assert seen == [10_000, 20_000, 25_000]
    assert a.figures == b.figures
    assert a.rounds_per_second > 0


def test_cli_vector_mode_reports_the_whole_game() -> None:
    result = CliRunner().invoke(main, ["sim", str(MD5), "--rounds", "20000", "--seed", "3",
                                       "--mode", "vector", "--mix", "0.25", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["mode"], data["rounds"]) == ("vector", 20_000)
    figures = data["figures"]
    tie = figures["tie_probability"]
    assert tie["exact"] == float(Fraction(23, 311))
    assert tie["label"] == "Tie on the original deal, per spot"
    assert tie["within_99"] is True
    for key in ("envy_bonus.rtp", "bonus_spin.100.rtp_fixed", "hot_spot.JACKPOT",
                "hand.suited_tie", "progressive_payout.rtp_at_reset"):
        assert figures[key]["within_99"] is not None, key
    assert figures["bonus_spin.100.rtp_fixed"]["exact"] == pytest.approx(0.6778734, abs=1e-6)
