"""The round's flow: burns, deal order, cut card, reshuffles, void, and the seat buttons."""

from __future__ import annotations

from etg.core.cards import Card
from etg.core.commands import (
    BetKind,
    CashIn,
    CashOut,
    ClearWagers,
    CloseBets,
    Deal,
    Decide,
    DoubleWagers,
    NextRound,
    OpenBets,
    PlaceWager,
    RepeatWagers,
    Settle,
    Shuffle,
    ShuffleReason,
    Void,
)
from etg.core.engine import Phase, apply
from etg.core.events import (
    BetsClosed,
    CardDealt,
    CardsBurned,
    CreditsIn,
    CreditsOut,
    CutCardOut,
    RoundComplete,
    RoundVoided,
    Target,
    WagerPlaced,
)
from etg.core.paytable import Decision, Shoe
from etg.core.refusal import Reason, Refused
from tests.tables import maryland, pennsylvania, rigged_draw, run, table, total_money

ROUND = [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000), CloseBets(), Deal(), Settle()]


def test_first_deal_after_a_shuffle_burns_one_card_then_deals_spots_then_dealer() -> None:
    # MD Ch. 8 E(1), F(1)-(2)
    codes = ["7D", "2H", "3H", "4H", "5H", "6H", "KC"]
    s, events = run(table(maryland(), codes), ROUND[:4])
    burns = [e for e in events if isinstance(e, CardsBurned)]
    assert [[str(c) for c in b.cards] for b in burns] == [["7♦"]]
    dealt = [(e.target, e.spot, e.card.code) for e in events if isinstance(e, CardDealt)]
    assert dealt == [(Target.SPOT, 1, "2H"), (Target.SPOT, 2, "3H"), (Target.SPOT, 3, "4H"),
                     (Target.SPOT, 4, "5H"), (Target.SPOT, 5, "6H"), (Target.DEALER, 0, "KC")]
    s, events = run(s, [Settle(), NextRound(), *ROUND[:4]])
    assert not [e for e in events if isinstance(e, CardsBurned)]  # no burn mid-shoe
    assert s.shoe is not None and s.shoe.position == 7 + 6


def test_war_deal_burns_three_cards() -> None:
    # MD Ch. 9 H
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9C", "3S", "4S", "5S", "KD", "4C"]
    s, _ = run(table(maryland(), codes), [*ROUND, Decide(1, 1, Decision.WAR)])
    from etg.core.commands import WarDeal
    s, events = run(s, [WarDeal()])
    burns = [e for e in events if isinstance(e, CardsBurned)]
    assert [[c.code for c in b.cards] for b in burns] == [["3S", "4S", "5S"]]
    assert s.round.dealer_war_card == Card.parse("4C")


def test_per_seat_layout_deals_only_players_with_an_initial_wager() -> None:
    # 58 Pa. Code § 651a.8(c)(1): one card to each player who placed an Initial Wager
    s = table(pennsylvania(), ["7D", "2H", "3H", "KC"])
    s, events = run(s, [OpenBets(), PlaceWager(2, 2, BetKind.INITIAL, 500),
                        PlaceWager(5, 5, BetKind.INITIAL, 500), CloseBets(), Deal()])
    dealt = [(e.target, e.spot, e.card.code) for e in events if isinstance(e, CardDealt)]
    assert dealt == [(Target.SPOT, 2, "2H"), (Target.SPOT, 5, "3H"), (Target.DEALER, 0, "KC")]


def test_cut_card_completes_the_round_then_requires_a_reshuffle() -> None:
    # MD Ch. 8 G, Ch. 5 H; 58 Pa. Code § 651a.8(d)
    p = maryland(shoe=Shoe(6, 0.25, 0.9))
    low, _ = p.shoe.cut_window()
    s = table(p, [], cut_index=low)
    seen_cut = False
    for _ in range(20):
        s, events = run(s, ROUND)
        if s.phase is Phase.DECISIONS:
            s, more = run(s, [Decide(1, 1, Decision.SURRENDER)])
            events += more
        complete = next(e for e in events if isinstance(e, RoundComplete))
        seen_cut = any(isinstance(e, CutCardOut) for e in events)
        assert complete.shuffle_due is seen_cut
        s, _ = run(s, [NextRound()])
        if seen_cut:
            break
    assert seen_cut
    assert s.shuffle_due
    try:
        apply(s, OpenBets())
        raise AssertionError("betting opened on a finished shoe")
    except Refused as refused:
        assert refused.reason is Reason.SHUFFLE_DUE
    s, events = run(s, [Shuffle(rigged_draw(p, ["AS"]), ShuffleReason.CUT_CARD), *ROUND[:4]])
    assert [[c.code for c in e.cards] for e in events if isinstance(e, CardsBurned)] == [["AS"]]
    assert s.shoe is not None and s.shoe.shuffle_number == 2


def test_supervisor_orders_a_reshuffle_between_rounds() -> None:
    # MD Ch. 5 A(3), H: a floorperson may have the cards reshuffled after any round
    p = maryland()
    s, _ = run(table(p, ["7D", "2H", "2C", "2C", "2C", "2C", "KC"]), [*ROUND, NextRound()])
    assert not s.shuffle_due
    s, _ = run(s, [Shuffle(rigged_draw(p, ["AS"]), ShuffleReason.SUPERVISOR)])
    assert s.shoe is not None
    assert (s.shoe.position, s.shoe.burned, s.shoe.shuffle_number) == (0, False, 2)


def test_void_returns_every_wager_of_the_round_even_after_payments() -> None:
    # MD Ch. 11: a voided round returns every wager
    codes = ["7D", "9H", "KH", "2C", "2C", "2C", "9C"]
    s = table(maryland(), codes)
    before = (s.credits, s.house)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000),
                   PlaceWager(1, 1, BetKind.TIE, 500), PlaceWager(2, 2, BetKind.INITIAL, 2_000),
                   CloseBets(), Deal(), Settle(), Decide(1, 1, Decision.WAR, war_tie=200)])
    assert s.credits != before[0]
    s, events = run(s, [Void("card exposed in the shoe")])
    assert s.phase is Phase.VOIDED
    assert (s.credits, s.house) == before
    assert s.on_table == 0
    voided = next(e for e in events if isinstance(e, RoundVoided))
    # seat 1 staked 10 + 5 + 10 + 2 and was paid the Tie Wager (5 + 50): 27 - 55 = -28;
    # seat 2 staked 20 and was paid 40 on K♥ against 9♣: 20 - 40 = -20
    assert voided.refunds == (-2_800, -2_000, 0, 0, 0, 0)
    s, _ = run(s, [NextRound()])
    assert s.phase is Phase.IDLE


def test_clear_repeat_and_double() -> None:
    p = maryland()
    s = table(p, ["7D", "2H", "2C", "2C", "2C", "2C", "KC"], credits=10_000)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                   PlaceWager(1, 1, BetKind.TIE, 100), PlaceWager(1, 2, BetKind.INITIAL, 700)])
    assert s.credits[0] == 10_000 - 1_300
    s, events = run(s, [DoubleWagers(1)])
    assert s.credits[0] == 10_000 - 2_600
    assert [(e.spot, e.kind, e.amount, e.total) for e in events if isinstance(e, WagerPlaced)] == [
        (1, BetKind.INITIAL, 500, 1_000), (1, BetKind.TIE, 100, 200), (2, BetKind.INITIAL, 700, 1_400)]
    s, _ = run(s, [ClearWagers(1)])
    assert s.credits[0] == 10_000 and s.on_table == 0
    s, _ = run(s, [PlaceWager(1, 2, BetKind.INITIAL, 600), CloseBets(), Deal(), Settle(),
                   NextRound(), OpenBets(), RepeatWagers(1)])
    assert s.round.wagers[0][1].initial == 600
    assert s.credits[0] == 10_000 - 600 - 600  # lost last round's $6, repeated $6
    closed = run(s, [CloseBets()])[1]
    assert closed == [BetsClosed(2)]


def test_cash_in_and_cash_out() -> None:
    s = table(maryland(), credits=0)
    s, events = run(s, [CashIn(3, 12_345)])
    assert events == [CreditsIn(3, 12_345, 12_345)]
    s, events = run(s, [CashOut(3)])
    assert events == [CreditsOut(3, 12_345)]
    assert s.credits[2] == 0
    assert total_money(s) == 0
