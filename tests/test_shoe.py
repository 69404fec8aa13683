"""Cards, the RNG source and the shoe (MD Ch. 3, 5, 6, 8)."""

from __future__ import annotations

from collections import Counter

import pytest

from etg.core.cards import Card, Colour, Rank, Suit, deck
from etg.core.rng import SeededSource, SystemSource, fisher_yates
from etg.core.shoe import ShoeExhaustedError, ShoeState, draw_problem, draw_shoe
from tests.tables import maryland


def test_ranks_ace_high_two_low_and_suits_equal() -> None:
    # MD Ch. 6 A-B
    assert sorted(Rank, reverse=True)[0] is Rank.ACE
    assert min(Rank) is Rank.TWO
    assert [r.label for r in sorted(Rank)] == [
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def test_colours() -> None:
    assert Card.parse("AH").colour is Colour.RED
    assert Card.parse("AD").colour is Colour.RED
    assert Card.parse("AS").colour is Colour.BLACK
    assert Card.parse("AC").colour is Colour.BLACK


def test_card_codes_round_trip_and_index_is_a_bijection() -> None:
    cards = deck()
    assert len(set(cards)) == 52
    for i, card in enumerate(cards):
        assert card.index == i
        assert Card.from_index(i) == card
        assert Card.parse(card.code) == card
    assert Card.parse("10h") == Card(Rank.TEN, Suit.HEARTS)
    assert Card.parse("TS") == Card(Rank.TEN, Suit.SPADES)
    assert str(Card.parse("QD")) == "Q♦"


@pytest.mark.parametrize("bad", ["", "A", "1H", "AX", "11S"])
def test_bad_card_codes_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a"):
        Card.parse(bad)


def test_fisher_yates_is_a_permutation_and_reproducible_with_a_seed() -> None:
    a = fisher_yates(312, SeededSource(7))
    assert sorted(a) == list(range(312))
    assert a == fisher_yates(312, SeededSource(7))
    assert a != fisher_yates(312, SeededSource(8))


def test_fisher_yates_is_uniform_over_the_six_orders_of_three() -> None:
    source = SeededSource(2026)
    counts = Counter(fisher_yates(3, source) for _ in range(60_000))
    assert len(counts) == 6
    # chi-square with 5 degrees of freedom; 20.5 is the 0.999 quantile
    chi2 = sum((n - 10_000) ** 2 / 10_000 for n in counts.values())
    assert chi2 < 20.5


def test_system_source_stays_in_range() -> None:
    source = SystemSource()
    values = {source.randbelow(5) for _ in range(500)}
    assert values == {0, 1, 2, 3, 4}


def test_cut_card_window_keeps_a_quarter_of_the_shoe_behind_it() -> None:
    # MD Ch. 5 F(2): at least 1/4 of the way in from the bottom
    rules = maryland().shoe
    assert rules.cut_window() == (312 - 124, 312 - 78)
    source = SeededSource(3)
    cuts = {draw_shoe(rules, source).cut_index for _ in range(2_000)}
    assert min(cuts) == 188 and max(cuts) == 234


def test_eight_deck_shoe() -> None:
    rules = maryland(decks=8).shoe
    draw = draw_shoe(rules, SeededSource(1))
    assert len(draw.order) == 416
    assert draw_problem(rules, draw) is None
    shoe = ShoeState(draw)
    cards = Counter()
    for _ in range(416):
        card, shoe = shoe.deal()
        cards[card] += 1
    assert set(cards.values()) == {8}
    with pytest.raises(ShoeExhaustedError):
        shoe.deal()
