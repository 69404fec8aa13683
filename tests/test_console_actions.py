"""The dealer console's actions, asked of the engine (issue 24, item 4): on each state the
pressable ones are exactly those the engine accepts, and a refused one carries the engine's
own words."""

from __future__ import annotations

from etg.core.commands import (
    BetKind,
    CloseBets,
    Deal,
    Decide,
    NextRound,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    Settle,
    SignInDealer,
    Spin,
)
from etg.core.console import ConsoleAction, console_refusals
from etg.core.engine import TableState, apply, new_table
from etg.core.paytable import Decision
from etg.core.state import Phase
from etg.core.wheel import WheelStops
from tests.tables import maryland, maryland_bonus, run, table
from tests.test_jackpot_lock import suited_four_of_a_kind

A = ConsoleAction
TIE_DEAL = ["7D", "9H", "2C", "2C", "2C", "2C", "9C"]  # spot 1 ties the dealer


def legal(state: TableState) -> set[ConsoleAction]:
    return {action for action, why in console_refusals(state).items() if why is None}


def betting() -> TableState:
    s, _ = run(table(maryland(), TIE_DEAL), [OpenBets()])
    return s


def test_a_new_table_may_only_be_shuffled_or_signed_into() -> None:
    fresh = new_table(maryland(), (10_000,) * 6)
    refusals = console_refusals(fresh)
    assert legal(fresh) == {A.SHUFFLE, A.SIGN_IN}
    assert refusals[A.OPEN] == "the shoe must be shuffled before the next round"
    assert refusals[A.VOID] == "there is no round in progress to void"
    assert refusals[A.VALIDATE] == "there is no jackpot to validate"


def test_betting_open_may_be_closed_once_wagered_or_voided_and_nothing_else() -> None:
    s = betting()
    assert legal(s) == {A.VOID}
    assert console_refusals(s)[A.CLOSE] == "no Initial Wager has been placed"
    s, _ = apply(s, PlaceWager(1, 1, BetKind.INITIAL, 1_000))
    assert legal(s) == {A.CLOSE, A.VOID}
    refusals = console_refusals(s)
    assert refusals[A.DEAL] == ("the original deal follows No More Bets "
                                "(the table is betting)")
    assert refusals[A.SHUFFLE] == "the shoe is shuffled only between rounds"
    assert refusals[A.SIGN_IN] == "dealers change only between rounds (the table is betting)"
    assert refusals[A.SPIN] == ("the wheel spins only when the Bonus Spin is triggered "
                                "(the table is betting)")


def test_closed_bets_are_dealt() -> None:
    s, _ = run(betting(), [PlaceWager(1, 1, BetKind.INITIAL, 1_000), CloseBets()])
    assert legal(s) == {A.DEAL, A.VOID}


def test_while_the_players_decide_only_a_void_is_the_consoles() -> None:
    s, _ = run(betting(), [PlaceWager(1, 1, BetKind.INITIAL, 1_000), CloseBets(), Deal(),
                           Settle()])
    assert s.phase is Phase.DECISIONS
    assert legal(s) == {A.VOID}
    assert console_refusals(s)[A.WAR_DEAL] == ("the War deal follows the War Wagers "
                                               "(the table is decisions)")
    s, _ = apply(s, Decide(1, 1, Decision.WAR))
    assert s.phase is Phase.WAR_PENDING and legal(s) == {A.WAR_DEAL, A.VOID}


def test_a_complete_round_goes_on_to_the_next_and_nowhere_else() -> None:
    s, _ = run(betting(), [PlaceWager(1, 2, BetKind.INITIAL, 1_000), CloseBets(), Deal(),
                           Settle()])
    assert s.phase is Phase.COMPLETE
    assert legal(s) == {A.NEXT_ROUND, A.SIGN_IN}
    refusals = console_refusals(s)
    assert refusals[A.OPEN] == "betting opens between rounds (the table is complete)"
    assert refusals[A.DEAL] == ("the original deal follows No More Bets "
                                "(the table is complete)")
    assert refusals[A.SHUFFLE] == "the shoe is shuffled only between rounds"
    s, _ = apply(s, NextRound())
    assert legal(s) == {A.OPEN, A.SHUFFLE, A.SIGN_IN}


def test_a_jackpot_lock_leaves_the_validation_and_the_void() -> None:
    s, _ = suited_four_of_a_kind(120_000)
    assert s.phase is Phase.JACKPOT
    assert legal(s) == {A.VALIDATE, A.VOID}
    locked = ("the table is locked on a jackpot (seats 1, 2) until a floorperson validates "
              "it (MD Ch. 9 J(4)(c))")
    refusals = console_refusals(s)
    for action in (A.OPEN, A.CLOSE, A.DEAL, A.WAR_DEAL, A.SPIN, A.NEXT_ROUND, A.SHUFFLE,
                   A.SIGN_IN):
        assert refusals[action] == locked


def test_the_triggered_wheel_may_be_spun() -> None:
    # spot 1: the dealer's red Ace against a 2: the Bonus Spin triggers (SPEC §3)
    s, _ = run(table(maryland_bonus(), ["7D", "2C", "2C", "2C", "2C", "2C", "AH"]), [
        OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceBonusSpin(1, 500), CloseBets(),
        Deal(), Settle()])
    assert s.phase is Phase.BONUS_SPIN
    assert legal(s) == {A.SPIN, A.VOID}
    s, _ = apply(s, Spin(WheelStops(0, 1, 0)))
    assert A.SPIN not in legal(s)


def test_the_dealer_at_the_table_does_not_stop_another_signing_in() -> None:
    for dealer in ("D0", "D1", "D0417"):
        s, _ = apply(new_table(maryland(), (0,) * 6), SignInDealer(dealer))
        assert A.SIGN_IN in legal(s)


def test_the_dry_run_changes_nothing() -> None:
    closed, _ = run(betting(), [PlaceWager(1, 1, BetKind.INITIAL, 1_000), CloseBets()])
    before = (closed.phase, closed.shoe, closed.round, closed.credits)
    console_refusals(closed)  # the deal it asks about is not made
    assert (closed.phase, closed.shoe, closed.round, closed.credits) == before
    dealt, _ = apply(closed, Deal())
    assert dealt.round.dealer_card is not None and dealt.round.spot_cards[0] is not None
