"""Exact Progressive Payout Wager figures: closed forms, brute force, simulation, money.

Every figure assumes the player goes to War on every tie (the Double Tie and
both Four-of-a-Kinds need the War cards).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from etg.core.cards import SUITS, Card, Rank
from etg.core.hands import payout_hand
from etg.core.paytable import EnvyPays, PayoutHand
from etg.math.exact import check_json
from etg.math.progressive_payout import (
    ProgressivePayoutFigures,
    hand_counts,
    hand_probabilities,
    progressive_payout_figures,
    rtp_at_meter,
)
from etg.math.vector_sim import (
    HAND_CODES,
    NO_HAND,
    draw_faces,
    payout_hand_codes,
    proportion_estimate,
    simulate_side_wagers,
)
from tests.test_exact_bonus import PROGRESSIVE_PAYOUT, maryland

H = PayoutHand


def closed_forms(d: int) -> dict[PayoutHand, Fraction]:
    """Each hand for ``d`` decks, derived by hand.

    Original deal: the dealer's card is the spot's face with probability
    (d−1)/(N−1), or the same rank in another suit with 3d/(N−1). Then the War
    cards are two of the N−2 left: the tied rank has 4d−2 cards, each other rank
    4d, and a War tie of the tied rank is suited when both War cards are one face.
    """
    n = 52 * d
    same_face = Fraction(d - 1, n - 1)
    other_suit = Fraction(3 * d, n - 1)
    pairs = (n - 2) * (n - 3)
    tied_rank = (4 * d - 2) * (4 * d - 3)  # War pairs of the tied rank
    other_ranks = 12 * 4 * d * (4 * d - 1)  # War pairs of one of the 12 other ranks
    war_tie = Fraction(tied_rank + other_ranks, pairs)
    # after a suited tie: the spot's face has d−2 cards left, its rank's 3 other faces d each
    s4k = Fraction((d - 2) * (d - 3), pairs)
    sdt = Fraction(3 * d * (d - 1) + 48 * d * (d - 1), pairs)  # War tie on one other face
    four_suited = Fraction(tied_rank - (d - 2) * (d - 3) - 3 * d * (d - 1), pairs)
    double_suited = Fraction(other_ranks - 48 * d * (d - 1), pairs)
    return {
        H.SUITED_FOUR_OF_A_KIND: same_face * s4k,
        H.SUITED_DOUBLE_TIE: same_face * sdt,
        H.FOUR_OF_A_KIND: same_face * four_suited + other_suit * Fraction(tied_rank, pairs),
        H.DOUBLE_TIE: same_face * double_suited + other_suit * Fraction(other_ranks, pairs),
        H.SUITED_TIE: same_face * (1 - war_tie),
        H.TIE: other_suit * (1 - war_tie),
    }


@pytest.mark.parametrize("decks", range(1, 9))
def test_hand_probabilities_match_the_closed_forms(decks: int) -> None:
    got = hand_probabilities(decks)
    assert got == closed_forms(decks)
    n = 52 * decks
    assert sum(got.values()) == Fraction(4 * decks - 1, n - 1)  # P(original tie)
    assert (got[H.SUITED_TIE] + got[H.SUITED_DOUBLE_TIE] + got[H.SUITED_FOUR_OF_A_KIND]
            <= Fraction(decks - 1, n - 1))  # these need a suited original tie


def test_six_deck_hands() -> None:
    got = hand_probabilities(6)
    assert got[H.SUITED_FOUR_OF_A_KIND] == Fraction(5, 311) * Fraction(4 * 3, 310 * 309)
    assert got == {
        H.SUITED_FOUR_OF_A_KIND: Fraction(2, 993023),
        H.SUITED_DOUBLE_TIE: Fraction(255, 993023),
        H.FOUR_OF_A_KIND: Fraction(1686, 4965115),
        H.DOUBLE_TIE: Fraction(24192, 4965115),
        H.SUITED_TIE: Fraction(14784, 993023),
        H.TIE: Fraction(266112, 4965115),
    }


def test_one_deck_has_no_suited_hand() -> None:
    got = hand_probabilities(1)
    assert got[H.SUITED_TIE] == got[H.SUITED_DOUBLE_TIE] == got[H.SUITED_FOUR_OF_A_KIND] == 0
    assert got[H.TIE] == Fraction(3, 51) * Fraction(50 * 49 - 2 * 1 - 12 * 4 * 3, 50 * 49)


# --- the vectorised classifier is the engine's ---------------------------------------------

def _pattern_tuples() -> list[tuple[int, ...]]:
    """Four cards for every pattern of equal ranks and equal suits among them."""
    return [tuple((12 - r) * 4 + s for r, s in zip(ranks, suits, strict=True))
            for ranks in itertools.product(range(4), repeat=4)
            for suits in itertools.product(range(4), repeat=4)]


def test_vector_classifier_agrees_with_payout_hand() -> None:
    tuples = _pattern_tuples()  # 4^8 tuples cover every equality pattern
    rng = np.random.default_rng(7)
    tuples += [tuple(int(x) for x in row) for row in rng.integers(0, 52, size=(20_000, 4))]
    faces = np.array(tuples, dtype=np.int32).T
    codes = payout_hand_codes(faces)
    cards = [Card.from_index(i) for i in range(52)]
    for (a, b, c, d), code in zip(tuples, codes, strict=True):
        hand = payout_hand(cards[a], cards[b], (cards[c], cards[d]))
        assert code == (NO_HAND if hand is None else HAND_CODES[hand]), (a, b, c, d)


def test_faces_are_card_indices() -> None:
    assert Card.from_index(0) == Card(Rank.TWO, SUITS[0])
    assert Card.parse("AS").index == 51
    faces = draw_faces(np.random.default_rng(1), 6, 200_000)
    assert faces.min() == 0 and faces.max() == 51
    counts = np.bincount(faces.ravel(), minlength=52)
    assert counts.min() > 0.9 * counts.mean()  # every face is dealt


# --- brute force -----------------------------------------------------------------------------

def _enumerate(decks: int) -> dict[PayoutHand, int]:
    """Every ordered draw of four cards from the shoe, counted per hand, face by face.

    Each (f0, f1, f2, f3) of faces stands for d · (d − [f1=f0]) · (d − [f2=f0] −
    [f2=f1]) · (d − …) ordered draws of physical cards; with one deck these
    multiplicities are 0 or 1 and this is the plain enumeration of all
    52·51·50·49 ordered draws.
    """
    rest = np.indices((52, 52, 52)).reshape(3, -1).astype(np.int32)
    f1, f2, f3 = rest
    totals = np.zeros(NO_HAND + 1, dtype=np.int64)
    for f0 in range(52):
        weight = (decks * (decks - (f1 == f0)) * (decks - (f2 == f0) - (f2 == f1))
                  * (decks - (f3 == f0) - (f3 == f1) - (f3 == f2))).astype(np.int64)
        weight[weight < 0] = 0
        faces = np.vstack([np.full_like(f1, f0), f1, f2, f3])
        totals += np.bincount(payout_hand_codes(faces), weights=weight,
                              minlength=NO_HAND + 1).astype(np.int64)
    n = 52 * decks
    assert int(totals.sum()) == n * (n - 1) * (n - 2) * (n - 3)
    return {hand: int(totals[code]) for hand, code in HAND_CODES.items()}


@pytest.mark.parametrize("decks", [1, 6])
def test_brute_force_enumeration(decks: int) -> None:
    counts = _enumerate(decks)
    assert counts == {hand: hand_counts(decks)[hand] for hand in PayoutHand}
    if decks == 1:
        assert counts[H.SUITED_TIE] == 0
        assert sum(counts.values()) == 52 * 3 * 50 * 49


# --- money -----------------------------------------------------------------------------------

def _figures(decks: int = 6) -> ProgressivePayoutFigures:
    f = progressive_payout_figures(maryland(6, decks))
    assert f is not None
    return f


def test_rtp_at_reset_by_hand() -> None:
    f = _figures()
    p = hand_probabilities(6)
    odds = {H.SUITED_FOUR_OF_A_KIND: 1000, H.SUITED_DOUBLE_TIE: 200, H.FOUR_OF_A_KIND: 150,
            H.DOUBLE_TIE: 30, H.SUITED_TIE: 15, H.TIE: 5}
    fixed = sum((p[h] * (1 + odds[h]) for h in PayoutHand), Fraction(0))
    assert f.rtp_fixed == fixed
    assert f.rtp_progressive_at_reset == p[H.SUITED_FOUR_OF_A_KIND] * Fraction(1_000_000, 500)
    assert f.rtp_at_reset == fixed + p[H.SUITED_FOUR_OF_A_KIND] * 2000
    assert f.no_hand_probability == 1 - Fraction(23, 311)
    assert rtp_at_meter(f, PROGRESSIVE_PAYOUT, 1_000_000) == f.rtp_at_reset


def test_break_even_meter() -> None:
    f = _figures()
    p4 = hand_probabilities(6)[H.SUITED_FOUR_OF_A_KIND]
    assert f.break_even_meter == (1 - f.rtp_fixed) * 500 / p4
    assert f.break_even_meter_cents == 45_745_000  # $457,450.00
    assert rtp_at_meter(f, PROGRESSIVE_PAYOUT, f.break_even_meter_cents) >= 1
    assert rtp_at_meter(f, PROGRESSIVE_PAYOUT, f.break_even_meter_cents - 1) < 1


def test_break_even_with_a_partial_meter_share_rounds_up_to_a_paid_cent() -> None:
    pays = replace(PROGRESSIVE_PAYOUT.pays,
                   suited_four_of_a_kind=replace(PROGRESSIVE_PAYOUT.pays.suited_four_of_a_kind,
                                                 meter_percent=30))
    rules = replace(PROGRESSIVE_PAYOUT, pays=pays)
    f = progressive_payout_figures(maryland(6, payout=rules))
    assert f is not None and f.break_even_meter_cents is not None
    assert rtp_at_meter(f, rules, f.break_even_meter_cents) >= 1
    assert rtp_at_meter(f, rules, f.break_even_meter_cents - 1) < 1
    no_meter = replace(rules, pays=replace(pays, suited_four_of_a_kind=replace(
        pays.suited_four_of_a_kind, meter_percent=0)))
    g = progressive_payout_figures(maryland(6, payout=no_meter))
    assert g is not None and g.break_even_meter is None and g.break_even_meter_cents is None


def test_long_run_and_envy() -> None:
    f = _figures()
    p4 = hand_probabilities(6)[H.SUITED_FOUR_OF_A_KIND]
    # A 100 % award: every contribution (5 %) comes back on top of the reset award.
    assert f.rtp_long_run == f.rtp_at_reset + Fraction(5, 100)
    assert f.meter.hit_probability == p4
    assert f.envy_rtp_per_other == p4 * Fraction(500_000, 500)
    assert f.rtp_with_envy() == f.rtp_at_reset
    assert f.rtp_with_envy(8) == f.rtp_at_reset + 8 * p4 * 1000
    tie_envy = replace(PROGRESSIVE_PAYOUT, envy_cents=EnvyPays(500_000, tie=100))
    g = progressive_payout_figures(maryland(6, payout=tie_envy))
    assert g is not None
    assert g.envy_rtp_per_other == p4 * 1000 + hand_probabilities(6)[H.TIE] * Fraction(1, 5)


def test_rtp_figures_by_decks() -> None:
    six, eight = _figures(6), _figures(8)
    assert float(six.rtp_at_reset) == pytest.approx(0.8197625, abs=1e-7)
    assert six.rtp_at_reset != eight.rtp_at_reset  # suits matter: the shoe's size shows


def test_no_progressive_payout() -> None:
    assert progressive_payout_figures(maryland(6, payout=None)) is None
    assert check_json(maryland(6, payout=None), "x")["wagers"]["progressive_payout"] is None


def test_check_json_progressive_payout() -> None:
    entry = check_json(maryland(6), "md.yaml")
    w = entry["wagers"]["progressive_payout"]
    f = _figures()
    assert set(w["hands"]) == {h.value for h in PayoutHand}
    assert w["hands"]["tie"] == {"probability": float(Fraction(266112, 4965115))}
    assert w["rtp_at_reset"] == float(f.rtp_at_reset)
    assert w["break_even_meter_cents"] == 45_745_000
    assert w["envy_rtp_per_other_wager"] == float(f.envy_rtp_per_other)
    exact = entry["exact"]
    assert exact["progressive_payout.hands.suited_four_of_a_kind"] == "2/993023"
    assert Fraction(exact["progressive_payout.rtp_at_reset"]) == f.rtp_at_reset
    json.dumps(entry)


# --- the simulation --------------------------------------------------------------------------

@pytest.mark.parametrize("decks,rounds,seed", [
    pytest.param(6, 12_000_000, 311, marks=pytest.mark.slow),  # 12 million rounds: about 2 s
    (8, 6_000_000, 415),
])
def test_simulated_hands_are_inside_their_99_percent_intervals(decks: int, rounds: int,
                                                               seed: int) -> None:
    p = maryland(6, decks)
    f = progressive_payout_figures(p)
    assert f is not None
    result = simulate_side_wagers(p, rounds, seed)
    for hand, estimate in result.hands.items():
        assert estimate.n == rounds
        assert estimate.contains(float(f.hands[hand])), (hand, estimate, float(f.hands[hand]))
    assert result.hands[H.SUITED_FOUR_OF_A_KIND].mean > 0  # the rarest hand was seen
    assert result.progressive_payout_rtp_at_reset is not None
    assert result.progressive_payout_rtp_at_reset.contains(float(f.rtp_at_reset))


def test_wilson_interval() -> None:
    e = proportion_estimate(0, 1000)
    assert e.low == 0 and 0 < e.high < 0.01
    e = proportion_estimate(500, 1000)
    assert e.low < 0.5 < e.high and e.half_width == pytest.approx(0.0407, abs=1e-3)
    assert proportion_estimate(3, 0).n == 0
