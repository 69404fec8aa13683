"""Each jurisdiction's War-deal burns and settlement order, from its paytable (issue 14, item 6).

- South Dakota: "The dealer than burns three cards and gives the player the next card,
  face-up. The dealer burns three more cards and gives the dealer the next card"
  (S.D. Admin. R. 20:18:16:15.17(4)(d)); settlement "beginning from the dealer's left"
  (15.17(4)).
- Pennsylvania's 2011 proposal: settlement "starting from his left" (§ 651a.9(a), (g)).
- Maryland and Pennsylvania 2012: from the dealer's right (MD Ch. 9 A, I; § 651a.9(a)).

Seat 1 sits at the dealer's far left, so "from the left" pays seat 1 first.
"""

from __future__ import annotations

import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.core.cards import Card
from etg.core.commands import (
    BetKind,
    CloseBets,
    Deal,
    Decide,
    OpenBets,
    PlaceWager,
    Settle,
    WarDeal,
)
from etg.core.events import (
    CardDealt,
    CardsBurned,
    ProgressiveAwarded,
    Target,
    WagerSettled,
)
from etg.core.paytable import Decision, Paytable, SettleFrom, WarBurn
from etg.core.settle import WagerKind
from tests.tables import maryland, maryland_bonus, run, table

PAYTABLES = shipped_config_dir() / "paytables"


def shipped(name: str) -> Paytable:
    return load_paytable(PAYTABLES / name).paytable


def cards(*codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes)


@pytest.mark.parametrize(("file", "burns", "settle_from"), [
    ("maryland-community-5.yaml", WarBurn(3, 0), SettleFrom.DEALER_RIGHT),
    ("pennsylvania.yaml", WarBurn(3, 0), SettleFrom.DEALER_RIGHT),
    ("pennsylvania-2011.yaml", WarBurn(3, 0), SettleFrom.DEALER_LEFT),
    ("south-dakota.yaml", WarBurn(3, 3), SettleFrom.DEALER_LEFT),
])
def test_the_shipped_paytables_say_what_their_rules_say(file: str, burns: WarBurn,
                                                        settle_from: SettleFrom) -> None:
    p = shipped(file)
    assert (p.war_burn, p.settle_from) == (burns, settle_from)


def test_south_dakotas_war_deal_burns_three_before_the_player_and_three_before_the_dealer(
) -> None:
    p = shipped("south-dakota.yaml")
    # burn, seat 1's card, seat 3's card, the dealer's; then the War deal
    codes = ["7D", "9H", "KS", "9C", "2C", "3C", "4C", "AS", "5C", "6C", "7C", "8C"]
    s, events = run(table(p, codes), [
        OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceWager(3, 3, BetKind.INITIAL, 500),
        CloseBets(), Deal(), Settle(), Decide(1, 1, Decision.WAR), WarDeal()])
    war = events[next(i for i, e in enumerate(events) if isinstance(e, CardsBurned)
                      and e.cards == cards("2C", "3C", "4C")):]
    assert [e for e in war if isinstance(e, CardsBurned | CardDealt)] == [
        CardsBurned(cards("2C", "3C", "4C")),
        CardDealt(Target.SPOT, 1, Card.parse("AS"), True),
        CardsBurned(cards("5C", "6C", "7C")),
        CardDealt(Target.DEALER, 0, Card.parse("8C"), True),
    ]
    assert s.round.war_cards[0] == Card.parse("AS") and s.round.dealer_war_card == Card.parse("8C")


def test_maryland_burns_three_before_the_war_cards_and_none_before_the_dealers() -> None:
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9C", "2D", "3D", "4D", "AS", "8C"]
    s, events = run(table(maryland(), codes), [
        OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), CloseBets(), Deal(), Settle(),
        Decide(1, 1, Decision.WAR), WarDeal()])
    burned = [e.cards for e in events if isinstance(e, CardsBurned)]
    assert burned[-1] == cards("2D", "3D", "4D")
    assert s.round.war_cards[0] == Card.parse("AS") and s.round.dealer_war_card == Card.parse("8C")


@pytest.mark.parametrize(("file", "first"), [("south-dakota.yaml", 1),
                                              ("pennsylvania-2011.yaml", 1),
                                              ("pennsylvania.yaml", 3)])
def test_who_is_settled_first(file: str, first: int) -> None:
    p = shipped(file)
    codes = ["7D", "KH", "QS", "9C"]  # seats 1 and 3 both beat the dealer's 9
    _, events = run(table(p, codes), [
        OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceWager(3, 3, BetKind.INITIAL, 500),
        CloseBets(), Deal(), Settle()])
    seats = [e.seat for e in events if isinstance(e, WagerSettled)
             and e.payment.kind is WagerKind.INITIAL]
    assert seats == [first, 4 - first]


@pytest.mark.parametrize(("settle_from", "order"), [
    (SettleFrom.DEALER_RIGHT, [(2, 1_000_050), (1, 1_000_000)]),  # MD Ch. 9 A, Ch. 10 D(4)
    (SettleFrom.DEALER_LEFT, [(1, 1_000_050), (2, 1_000_000)]),
])
def test_the_side_settled_first_is_paid_the_meter_and_the_other_its_reset(
        settle_from: SettleFrom, order: list[tuple[int, int]]) -> None:
    # Two seats on one spot both make a Suited Four-of-a-Kind: the first paid takes the meter
    # as it stands, the second the reset value (SPEC §3) — so the order is money.
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", "3D", "4D", "5D", "9H", "9H"]
    bets = [PlaceWager(seat, 1, kind, 500) for seat in (1, 2)
            for kind in (BetKind.INITIAL, BetKind.PROGRESSIVE_PAYOUT)]
    _, events = run(table(maryland_bonus(settle_from=settle_from), codes), [
        OpenBets(), *bets, CloseBets(), Deal(), Settle(), Decide(1, 1, Decision.WAR),
        Decide(2, 1, Decision.WAR), WarDeal(), Settle()])
    assert [(e.seat, e.amount) for e in events if isinstance(e, ProgressiveAwarded)] == order
