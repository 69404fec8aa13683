"""Exact main-game figures: closed forms, hand derivations and brute-force enumerations."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest

from etg.core.paytable import (
    Jurisdiction,
    Layout,
    Limit,
    Limits,
    Odds,
    Payouts,
    Paytable,
    SettleFrom,
    Shoe,
    WarBurn,
    WarForm,
    rule_violations,
)
from etg.core.settle import Outcome
from etg.math.exact import (
    MainGameFigures,
    check_json,
    exact_stake,
    figure_rows,
    format_fraction_percent,
    main_game_figures,
    main_game_nets,
)
from tests import tables

MD_WAR_TIE = Odds(2)


def maryland(decks: int = 6, spots: int = 5, war_tie: Odds = MD_WAR_TIE) -> Paytable:
    """config/paytables/maryland-community-5.yaml, built without the YAML loader."""
    return tables.maryland(spots, decks, payouts=Payouts(Odds(1), Odds(10), Odds(1), war_tie))


def pa_2011(decks: int = 8) -> Paytable:
    """PA 2011 proposal: per-seat layout, Initial forfeited, War 2:1, War tie 3:1."""
    return tables.pennsylvania_2011(shoe=Shoe(decks, 0.25, 0.40))


def south_dakota(decks: int = 6) -> Paytable:
    """South Dakota: dealer-matched War, 1 to 2 and 1 to 1 on Initial + War, no War Tie Wager."""
    return Paytable(
        id="sd",
        name="Casino War – South Dakota",
        jurisdiction=Jurisdiction.SOUTH_DAKOTA,
        layout=Layout.PER_SEAT,
        shoe=Shoe(decks=decks, penetration_min=0.25, penetration_max=0.40),
        spots=6,
        seats=6,
        max_spots_per_seat=1,
        unit_cents=100,
        limits=Limits(initial=Limit(500, 50000), tie=Limit(100, 10000)),
        payout_limit_per_hand_cents=10_000_000,
        payouts=Payouts(initial=Odds(1), tie=Odds(10), war=Odds(1, 2), war_tie=Odds(1, 1)),
        war_form=WarForm.DEALER_MATCHED,
        war_tie_wager=False,
        war_burn=WarBurn(3, 3),  # 20:18:16:15.17(4)(d): burns change none of the figures here
        settle_from=SettleFrom.DEALER_LEFT,  # 15.17(4)
    )


def test_fixtures_are_valid_paytables() -> None:
    for paytable in (maryland(6), maryland(8), pa_2011(6), pa_2011(8), south_dakota()):
        assert rule_violations(paytable) == []


@pytest.mark.parametrize("decks", [6, 7, 8])
def test_tie_probability_closed_form(decks: int) -> None:
    f = main_game_figures(maryland(decks))
    assert f.tie_probability == Fraction(4 * decks - 1, 52 * decks - 1)


def test_tie_probability_six_decks() -> None:
    assert main_game_figures(maryland(6)).tie_probability == Fraction(23, 311)


@pytest.mark.parametrize("decks", [6, 7, 8])
def test_war_tie_probability_closed_form(decks: int) -> None:
    c, n = 4 * decks, 52 * decks
    expected = Fraction((c - 2) * (c - 3) + 12 * c * (c - 1), (n - 2) * (n - 3))
    assert main_game_figures(maryland(decks)).war_tie_probability == expected


@pytest.mark.parametrize("decks", [6, 7, 8])
def test_win_and_lose_are_symmetric_on_both_deals(decks: int) -> None:
    f = main_game_figures(maryland(decks))
    assert f.p_win == f.p_lose == (1 - f.tie_probability) / 2
    assert f.war_win_probability == f.war_lose_probability == (1 - f.war_tie_probability) / 2
    assert f.p_win + f.p_lose + f.tie_probability == 1


@pytest.mark.parametrize("decks", [6, 8])
def test_surrender_edge_is_half_the_tie_probability(decks: int) -> None:
    f = main_game_figures(maryland(decks))
    assert f.house_edge_surrender == f.tie_probability / 2


def test_surrender_edge_six_decks() -> None:
    assert main_game_figures(maryland(6)).house_edge_surrender == Fraction(23, 622)


@pytest.mark.parametrize(
    ("decks", "expected"),
    [(6, Fraction(23138, 993023)), (8, Fraction(276706, 11826255))],
)
def test_war_edge_against_hand_derivation(decks: int, expected: Fraction) -> None:
    # Win and lose on the original deal cancel at 1:1; after a tie, going to War
    # nets +1 on a War win, -2 on a War loss, +2 on a War tie (War Wager 2:1).
    c, n = 4 * decks, 52 * decks
    p_tie = Fraction(c - 1, n - 1)
    p_wt = Fraction((c - 2) * (c - 3) + 12 * c * (c - 1), (n - 2) * (n - 3))
    p_ww = p_wl = (1 - p_wt) / 2
    ev = p_tie * (p_ww * 1 + p_wl * (-2) + p_wt * 2)
    assert -ev == expected
    assert main_game_figures(maryland(decks)).house_edge_war == expected


def test_war_edge_six_decks_value() -> None:
    edge = main_game_figures(maryland(6)).house_edge_war
    assert float(edge) == pytest.approx(0.0233006, abs=1e-7)


def test_classic_war_tie_rule_gives_the_published_two_point_eight_eight() -> None:
    # The widely published 2.88 % (6 decks) is the classic rule where a War tie pays
    # the War Wager 1:1 like a War win; Maryland's 2:1 "Tie War Wager" lowers it.
    f = main_game_figures(maryland(6, war_tie=Odds(1)))
    assert f.house_edge_war == Fraction(142853, 4965115)
    assert round(float(f.house_edge_war), 4) == 0.0288


@pytest.mark.parametrize(("decks", "expected"), [(6, Fraction(58, 311)), (8, Fraction(74, 415))])
def test_tie_wager_edge(decks: int, expected: Fraction) -> None:
    f = main_game_figures(maryland(decks))
    assert f.tie_house_edge == 1 - (10 + 1) * f.tie_probability == expected


@pytest.mark.parametrize(
    ("decks", "expected"), [(6, Fraction(2974, 15965)), (8, Fraction(5078, 28497))]
)
def test_war_deal_tie_wager_edge(decks: int, expected: Fraction) -> None:
    f = main_game_figures(maryland(decks))
    assert f.war_tie_wager_house_edge == 1 - (10 + 1) * f.war_tie_probability == expected


@pytest.mark.parametrize("decks", [6, 8])
def test_the_three_war_forms_have_identical_edges(decks: int) -> None:
    md, pa, sd = (main_game_figures(p) for p in (maryland(decks), pa_2011(decks),
                                                   south_dakota(decks)))
    for f in (pa, sd):
        assert f.house_edge_war == md.house_edge_war
        assert f.house_edge_surrender == md.house_edge_surrender
        assert f.tie_house_edge == md.tie_house_edge
    assert pa.war_tie_wager_house_edge == md.war_tie_wager_house_edge
    assert sd.war_tie_wager_house_edge is None


@pytest.mark.parametrize("paytable", [maryland(), pa_2011(), south_dakota()],
                         ids=["initial_pushed", "initial_forfeited", "dealer_matched"])
def test_nets_per_unit_initial_wager(paytable: Paytable) -> None:
    nets = main_game_nets(paytable)
    assert nets.original == {Outcome.LOWER: -1, Outcome.HIGHER: 1}
    assert nets.surrender == Fraction(-1, 2)
    assert nets.war == {Outcome.LOWER: -2, Outcome.HIGHER: 1, Outcome.TIE: 2}
    assert nets.tie_win == 10
    assert nets.tie_lose == -1


def test_exact_stake_makes_every_payout_whole() -> None:
    for paytable in (maryland(), pa_2011(), south_dakota()):
        stake = exact_stake(paytable)
        assert stake % paytable.unit_cents == 0
        assert stake % 2 == 0
        for odds in (paytable.payouts.war, paytable.payouts.war_tie):
            assert (2 * stake * odds.pays) % odds.to == 0


def test_figures_do_not_depend_on_layout_or_spots() -> None:
    base = main_game_figures(maryland(6, spots=5))
    assert main_game_figures(maryland(6, spots=3)) == base
    assert main_game_figures(maryland(6, spots=7)) == base


@pytest.mark.parametrize("decks", [1, 6])
def test_brute_force_over_rank_four_tuples(decks: int) -> None:
    """Enumerate every ordered 4-tuple of ranks with its without-replacement weight."""
    c, n = 4 * decks, 52 * decks
    total = n * (n - 1) * (n - 2) * (n - 3)
    weights: Counter[str] = Counter()
    ev_war = 0  # numerator over ``total``, per unit Initial Wager
    for a, b, x, y in itertools.product(range(13), repeat=4):
        left = [c] * 13
        w = 1
        for r in (a, b, x, y):
            w *= left[r]
            left[r] -= 1
        if a != b:
            ev_war += w * (1 if a > b else -1)
            continue
        weights["tie"] += w
        weights["war_tie"] += w * (x == y)
        ev_war += w * (1 if x > y else -2 if x < y else 2)
    f = main_game_figures(maryland(decks))
    assert f.tie_probability == Fraction(weights["tie"], total)
    assert f.war_tie_probability == Fraction(weights["war_tie"], weights["tie"])
    assert f.house_edge_war == -Fraction(ev_war, total)


def test_war_card_after_other_spots_is_a_fresh_draw() -> None:
    """The stopping-time argument, checked exactly on a tiny shoe.

    Shoe of 3 ranks x 3 cards, every distinct order equally likely. Deal spot 1,
    spot 2, the dealer, one burn, then a War card to each tied spot in spot
    order, then the dealer's War card. Spot 2's War card sits one place later
    when spot 1 also tied; the four cards of spot 2 must still be an ordered
    draw without replacement.
    """
    counts = [3, 3, 3]
    observed: Counter[tuple[int, int, int, int]] = Counter()
    orders = 0
    for order in _multiset_orders(counts):
        orders += 1
        s1, s2, dealer = order[0], order[1], order[2]
        tied = [s for s in (s1, s2) if s == dealer]
        if s2 != dealer:
            observed[(s2, dealer, -1, -1)] += 1
            continue
        spot2_war = order[4 + (len(tied) - 1)]
        dealer_war = order[4 + len(tied)]
        observed[(s2, dealer, spot2_war, dealer_war)] += 1
    for key, count in observed.items():
        s2, dealer, war, dealer_war = key
        cards = (s2, dealer) if war < 0 else (s2, dealer, war, dealer_war)
        assert Fraction(count, orders) == _without_replacement(counts, cards), key


def test_check_json_shape_and_values() -> None:
    entry = check_json(maryland(6), "config/paytables/maryland-community-5.yaml")
    assert set(entry) == {"file", "id", "decks", "wagers", "exact"}
    assert entry["file"] == "config/paytables/maryland-community-5.yaml"
    assert entry["id"] == "md-community-5"
    assert entry["decks"] == 6
    wagers = entry["wagers"]
    assert set(wagers) == {"initial", "tie", "war_tie_probability", "tie_probability",
                           "bonus_spin", "progressive_payout"}
    assert set(wagers["initial"]) == {"house_edge_war", "house_edge_surrender"}
    assert wagers["initial"]["house_edge_war"] == pytest.approx(0.0233006, abs=1e-7)
    assert wagers["initial"]["house_edge_surrender"] == pytest.approx(23 / 622)
    assert wagers["tie"] == {"house_edge": pytest.approx(58 / 311)}
    assert wagers["tie_probability"] == pytest.approx(23 / 311)
    assert wagers["war_tie_probability"] == pytest.approx(1181 / 15965)
    assert wagers["bonus_spin"] is None
    assert wagers["progressive_payout"] is None
    assert entry["exact"]["house_edge_surrender"] == "23/622"
    assert entry["exact"]["war_tie_probability"] == "1181/15965"
    figures = main_game_figures(maryland(6))
    for name, text in entry["exact"].items():
        assert Fraction(text) == getattr(figures, name)
    json.dumps(entry)  # serialisable as is


def test_check_json_without_war_tie_wager() -> None:
    entry = check_json(south_dakota(), "sd.yaml")
    assert entry["exact"]["war_tie_wager_house_edge"] is None
    json.dumps(entry)


def test_format_fraction_percent() -> None:
    assert format_fraction_percent(Fraction(23, 622)) == "3.6977 %"
    assert format_fraction_percent(Fraction(23138, 993023), digits=2) == "2.33 %"
    assert format_fraction_percent(Fraction(-1, 8), digits=1) == "-12.5 %"
    assert format_fraction_percent(Fraction(1, 3), digits=0) == "33 %"
    # half-even from the exact value: 0.00005 % -> 0.0000 %, 0.00015 % -> 0.0002 %
    assert format_fraction_percent(Fraction(5, 10**7)) == "0.0000 %"
    assert format_fraction_percent(Fraction(15, 10**7)) == "0.0002 %"


def test_figure_rows() -> None:
    rows = figure_rows(main_game_figures(maryland(6)))
    assert len(rows) == 10
    by_label = {label: (exact, percent) for label, exact, percent in rows}
    assert by_label["House edge, Initial Wager, always Surrender"] == ("23/622", "3.6977 %")
    assert by_label["Original deal: tie"] == ("23/311", "7.3955 %")
    sd = {label: exact for label, exact, _ in figure_rows(main_game_figures(south_dakota()))}
    assert sd["House edge, Tie Wager on the War deal"] == "not offered"


def test_figures_are_frozen() -> None:
    f = main_game_figures(maryland())
    assert isinstance(f, MainGameFigures)
    with pytest.raises(AttributeError):
        f.tie_probability = Fraction(0)  # type: ignore[misc]


def _multiset_orders(counts: list[int]) -> Iterator[tuple[int, ...]]:
    """Every distinct order of a shoe with ``counts[r]`` cards of rank ``r``."""
    if not any(counts):
        yield ()
        return
    for rank, c in enumerate(counts):
        if c:
            counts[rank] -= 1
            for rest in _multiset_orders(counts):
                yield (rank, *rest)
            counts[rank] += 1


def _without_replacement(counts: list[int], cards: tuple[int, ...]) -> Fraction:
    left = list(counts)
    n = sum(left)
    p = Fraction(1)
    for rank in cards:
        p *= Fraction(left[rank], n)
        left[rank] -= 1
        n -= 1
    return p
