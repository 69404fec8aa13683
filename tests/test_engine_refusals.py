"""Every out-of-turn or invalid command is refused with a typed reason, and changes nothing."""

from __future__ import annotations

import pytest

from etg.core.commands import (
    BetKind,
    CashIn,
    CashOut,
    ClearWagers,
    CloseBets,
    CloseDecisions,
    Command,
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
    SwitchPaytable,
    Void,
    WarDeal,
)
from etg.core.engine import TableState, apply
from etg.core.paytable import Decision
from etg.core.refusal import Reason, Refused
from etg.core.shoe import ShoeDraw
from tests.tables import (
    maryland,
    maryland_bonus,
    pennsylvania,
    rigged_draw,
    run,
    south_dakota,
    table,
)

TIE_DEAL = ["7D", "9H", "2C", "2C", "2C", "2C", "9C"]  # spot 1 ties the dealer


def betting(p=None, credits: int = 100_000) -> TableState:  # type: ignore[no-untyped-def]
    s, _ = run(table(p or maryland(), TIE_DEAL, credits), [OpenBets()])
    return s


def tied() -> TableState:
    s, _ = run(betting(), [PlaceWager(1, 1, BetKind.INITIAL, 1_000), CloseBets(), Deal(), Settle()])
    return s


def closed() -> TableState:
    s, _ = run(betting(), [PlaceWager(1, 1, BetKind.INITIAL, 1_000), CloseBets()])
    return s


CASES: list[tuple[str, object, Command, Reason, str]] = [
    ("wager before betting opens", lambda: table(maryland(), TIE_DEAL),
     PlaceWager(1, 1, BetKind.INITIAL, 500), Reason.BETTING_CLOSED,
     "betting is not open (the table is idle)"),
    ("wager after no more bets", closed, PlaceWager(1, 2, BetKind.INITIAL, 500),
     Reason.BETTING_CLOSED, "no more bets: wagers are locked for this round"),
    ("clear after no more bets", closed, ClearWagers(1), Reason.BETTING_CLOSED,
     "no more bets: wagers are locked for this round"),
    ("double after no more bets", closed, DoubleWagers(1), Reason.BETTING_CLOSED,
     "no more bets: wagers are locked for this round"),
    ("no such seat", betting, PlaceWager(7, 1, BetKind.INITIAL, 500), Reason.NO_SUCH_SEAT,
     "there is no seat 7"),
    ("no such spot", betting, PlaceWager(1, 6, BetKind.INITIAL, 500), Reason.NO_SUCH_SPOT,
     "there is no spot 6"),
    ("not a multiple of the unit", betting, PlaceWager(1, 1, BetKind.INITIAL, 550),
     Reason.NOT_A_MULTIPLE_OF_UNIT, "wagers are in multiples of $1.00, not $5.50"),
    ("negative amount", betting, PlaceWager(1, 1, BetKind.INITIAL, -500), Reason.NOT_POSITIVE,
     "a wager must be a positive amount"),
    ("under the minimum", betting, PlaceWager(1, 1, BetKind.INITIAL, 400), Reason.UNDER_MINIMUM,
     "the Initial Wager minimum is $5.00, not $4.00"),
    ("over the maximum", betting, PlaceWager(1, 1, BetKind.INITIAL, 50_100), Reason.OVER_MAXIMUM,
     "the Initial Wager maximum is $500.00, not $501.00"),
    ("insufficient credits", lambda: betting(credits=700), PlaceWager(1, 1, BetKind.INITIAL, 800),
     Reason.INSUFFICIENT_CREDITS, "seat 1 has $7.00, needs $8.00"),
    ("tie without initial", betting, PlaceWager(1, 1, BetKind.TIE, 100),
     Reason.TIE_WITHOUT_INITIAL, "a Tie Wager needs an Initial Wager on the same spot (MD Ch. 7 F(2))"),
    ("spot limit", lambda: run(betting(), [PlaceWager(1, s, BetKind.INITIAL, 500)
                                           for s in (1, 2, 3)])[0],
     PlaceWager(1, 4, BetKind.INITIAL, 500), Reason.SPOT_LIMIT,
     "a seat may wager on at most 3 spots (MD Ch. 7 E)"),
    ("spots not adjacent", lambda: run(betting(), [PlaceWager(1, 1, BetKind.INITIAL, 500)])[0],
     PlaceWager(1, 4, BetKind.INITIAL, 500), Reason.SPOT_LIMIT,
     "a seat's spots must be adjacent: spot 4 is too far from spot 1 "
     "(at most 3 adjacent spots, MD Ch. 7 E)"),
    ("spots 1 and 3 without 2", lambda: run(betting(), [PlaceWager(1, 1, BetKind.INITIAL, 500)])[0],
     PlaceWager(1, 3, BetKind.INITIAL, 500), Reason.SPOT_LIMIT,
     "a seat's spots must be adjacent: spot 3 leaves spot 2 empty between them (MD Ch. 7 E)"),
    ("a gap from the other side", lambda: run(betting(), [PlaceWager(1, 4, BetKind.INITIAL,
                                                                     500)])[0],
     PlaceWager(1, 2, BetKind.INITIAL, 500), Reason.SPOT_LIMIT,
     "a seat's spots must be adjacent: spot 2 leaves spot 3 empty between them (MD Ch. 7 E)"),
    ("per-seat layout: another seat's hand", lambda: betting(pennsylvania()),
     PlaceWager(1, 2, BetKind.INITIAL, 500), Reason.NOT_YOUR_SPOT,
     "seat 1 wagers on its own hand only"),
    ("close with no wagers", betting, CloseBets(), Reason.NO_WAGERS,
     "no Initial Wager has been placed"),
    ("clear nothing", betting, ClearWagers(2), Reason.NOTHING_TO_CLEAR,
     "seat 2 has no wagers to clear"),
    ("double nothing", betting, DoubleWagers(2), Reason.NOTHING_TO_DOUBLE,
     "seat 2 has no wagers to double"),
    ("repeat with nothing last round", betting, RepeatWagers(2), Reason.NOTHING_TO_REPEAT,
     "seat 2 had no wagers last round"),
    ("repeat on a seat that already wagered",
     lambda: run(betting(), [PlaceWager(1, 1, BetKind.INITIAL, 500)])[0],
     RepeatWagers(1), Reason.ALREADY_WAGERED, "REPEAT places last round's wagers on an empty seat"),
    ("double over the maximum",
     lambda: run(betting(), [PlaceWager(1, 1, BetKind.INITIAL, 30_000)])[0],
     DoubleWagers(1), Reason.OVER_MAXIMUM, "the Initial Wager maximum is $500.00, not $600.00"),
    ("double without the credits",
     lambda: run(betting(credits=1_500), [PlaceWager(1, 1, BetKind.INITIAL, 1_000)])[0],
     DoubleWagers(1), Reason.INSUFFICIENT_CREDITS, "seat 1 has $5.00, needs $10.00"),
    ("deal before no more bets", betting, Deal(), Reason.WRONG_PHASE,
     "the original deal follows No More Bets (the table is betting)"),
    ("settle with nothing dealt", closed, Settle(), Reason.WRONG_PHASE, "there is no deal to settle"),
    ("war deal before decisions", tied, WarDeal(), Reason.WRONG_PHASE,
     "the War deal follows the War Wagers (the table is decisions)"),
    ("decide on a seat that is not tied", tied, Decide(2, 1, Decision.WAR), Reason.SEAT_NOT_TIED,
     "seat 2 has no tie hand on spot 1"),
    ("decide on a spot that did not tie", tied, Decide(1, 2, Decision.WAR), Reason.SEAT_NOT_TIED,
     "seat 1 has no tie hand on spot 2"),
    ("decide twice", lambda: run(tied(), [Decide(1, 1, Decision.WAR)])[0],
     Decide(1, 1, Decision.SURRENDER), Reason.WRONG_PHASE,
     "there is no tie hand to decide (the table is war_pending)"),
    ("decide twice while others decide", lambda: run(_two_tied(), [Decide(1, 1, Decision.WAR)])[0],
     Decide(1, 1, Decision.SURRENDER), Reason.ALREADY_DECIDED,
     "seat 1 has already chosen war on spot 1"),
    ("war-deal tie wager with surrender", tied, Decide(1, 1, Decision.SURRENDER, war_tie=100),
     Reason.WAR_TIE_NOT_OFFERED, "a Tie Wager on the War deal is placed only with a War Wager"),
    ("war-deal tie wager not offered", lambda: _sd_tied(), Decide(1, 1, Decision.WAR, war_tie=100),
     Reason.WAR_TIE_NOT_OFFERED, "this paytable offers no Tie Wager on the War deal"),
    ("war-deal tie wager over the limit", tied, Decide(1, 1, Decision.WAR, war_tie=10_100),
     Reason.OVER_MAXIMUM, "the Tie Wager maximum is $100.00, not $101.00"),
    ("war without the credits", lambda: _tied_with(1_000), Decide(1, 1, Decision.WAR),
     Reason.INSUFFICIENT_CREDITS, "seat 1 has $0.00, needs $10.00"),
    ("close decisions when none are open", closed, CloseDecisions(), Reason.WRONG_PHASE,
     "there are no decisions to close (the table is bets_closed)"),
    ("open betting twice", betting, OpenBets(), Reason.WRONG_PHASE,
     "betting opens between rounds (the table is betting)"),
    ("next round mid-round", tied, NextRound(), Reason.WRONG_PHASE, "the round is not over"),
    ("shuffle mid-round", betting, Shuffle(rigged_draw(maryland(), []), ShuffleReason.SUPERVISOR),
     Reason.ROUND_IN_PROGRESS, "the shoe is shuffled only between rounds"),
    ("open before the first shuffle", lambda: _no_shoe(), OpenBets(), Reason.SHUFFLE_DUE,
     "the shoe must be shuffled before the next round"),
    ("a shuffle that is not a permutation", lambda: table(maryland()),
     Shuffle(ShoeDraw(tuple([0] * 312), 200), ShuffleReason.SUPERVISOR), Reason.INVALID_DRAW,
     "the shuffled order is not a permutation of 6 decks"),
    ("a cut card outside the window", lambda: table(maryland()),
     Shuffle(ShoeDraw(tuple(range(312)), 300), ShuffleReason.SUPERVISOR), Reason.INVALID_DRAW,
     "the cut card at 300 is outside 188..234"),
    ("void between rounds", lambda: table(maryland()), Void("dealer error"), Reason.WRONG_PHASE,
     "there is no round in progress to void"),
    ("cash out with wagers in play", closed, CashOut(1), Reason.ROUND_IN_PROGRESS,
     "seat 1 has wagers in this round; cash out after the round (a void would return them)"),
    ("cash out nothing", lambda: table(maryland(), credits=0), CashOut(1), Reason.NO_CREDITS,
     "seat 1 has no credits"),
    ("cash in nothing", betting, CashIn(1, 0), Reason.NOT_POSITIVE,
     "cash in must be a positive amount"),
    ("switch the paytable mid-round", lambda: betting(credits=0),
     SwitchPaytable(maryland(7)), Reason.ROUND_IN_PROGRESS,
     "the paytable is switched only between rounds"),
    ("switch the paytable with credits on a seat", lambda: table(maryland()),
     SwitchPaytable(maryland(7)), Reason.ROUND_IN_PROGRESS,
     "the paytable is switched only with no credits on the seats (seat 1 has $1,000.00)"),
    ("switch to an invalid paytable", lambda: table(maryland(), credits=0),
     SwitchPaytable(maryland(4)), Reason.INVALID_PAYTABLE,
     "not a valid paytable: a community layout uses 3, 5 or 7 spots (MD Ch. 9 L(2)), not 4"),
    ("switch away from a progressive meter", lambda: table(maryland_bonus(), credits=0),
     SwitchPaytable(maryland()), Reason.NOT_OFFERED,
     "the new paytable has no primary meter to carry $10,000.00 to"),
]


def _sd_tied() -> TableState:
    s = table(south_dakota(), ["7D", "9H", "9C"])
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000), CloseBets(), Deal(),
                   Settle()])
    return s


def _two_tied() -> TableState:
    s, _ = run(betting(), [PlaceWager(1, 1, BetKind.INITIAL, 1_000),
                           PlaceWager(2, 1, BetKind.INITIAL, 1_000), CloseBets(), Deal(), Settle()])
    return s


def _tied_with(credits: int) -> TableState:
    s, _ = run(betting(credits=credits),
               [PlaceWager(1, 1, BetKind.INITIAL, 1_000), CloseBets(), Deal(), Settle()])
    return s


def _no_shoe() -> TableState:
    from etg.core.engine import new_table
    return new_table(maryland())


@pytest.mark.parametrize(("setup", "command", "reason", "message"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_refused_with_reason_and_state_unchanged(
    setup: object, command: Command, reason: Reason, message: str
) -> None:
    state = setup()  # type: ignore[operator]
    with pytest.raises(Refused) as refused:
        apply(state, command)
    assert refused.value.reason is reason
    assert str(refused.value) == message


def test_without_adjacent_spots_only_a_seat_may_leave_a_gap_but_not_pass_its_count() -> None:
    # MD Ch. 7 E is read as adjacency for every shipped Maryland file; a paytable that says
    # adjacent_spots_only: false keeps only the count of max_spots_per_seat.
    s, _ = run(betting(maryland(adjacent_spots_only=False)),
               [PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceWager(1, 3, BetKind.INITIAL, 500),
                PlaceWager(1, 5, BetKind.INITIAL, 500)])
    assert [w.initial for w in s.seat_wagers(1)] == [500, 0, 500, 0, 500]
    with pytest.raises(Refused) as refused:
        apply(s, PlaceWager(1, 2, BetKind.INITIAL, 500))
    assert refused.value.reason is Reason.SPOT_LIMIT
    assert str(refused.value) == "a seat may wager on at most 3 spots (MD Ch. 7 E)"
