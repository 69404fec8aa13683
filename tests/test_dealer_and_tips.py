"""The dealer at the table and the players' tips, in the engine (MD Ch. 8 E(4), Ch. 2 D)."""

from __future__ import annotations

import pytest

from etg.core.commands import (
    BetKind,
    CloseBets,
    Command,
    Deal,
    NextRound,
    OpenBets,
    PlaceWager,
    Settle,
    Shuffle,
    ShuffleReason,
    SignInDealer,
    Tip,
)
from etg.core.engine import Phase, TableState, apply
from etg.core.events import CardDealt, CardsBurned, DealerSignedIn, TipGiven
from etg.core.refusal import Reason, Refused
from tests.tables import maryland, rigged_draw, run, table, total_money

CREDITS = 100_000
# burn, spots 1-3, dealer; then the next round's spots and dealer
CODES = ["7D", "2C", "3C", "4C", "KH", "5C", "6C", "8C", "QS", "9D", "TD", "JD", "AS"]


def one_round(state: TableState) -> tuple[TableState, list[object]]:
    return run(state, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), CloseBets(), Deal(),
                       Settle(), NextRound()])


def dealt(events: list[object]) -> list[str]:
    return [e.card.code for e in events if isinstance(e, CardDealt)]


def burned(events: list[object]) -> list[list[str]]:
    return [[c.code for c in e.cards] for e in events if isinstance(e, CardsBurned)]


def test_a_new_dealer_burns_the_first_card_of_the_next_deal() -> None:
    # MD Ch. 8 E(4): "each new dealer who comes to the table shall also remove the first card"
    s = table(maryland(3), CODES, CREDITS)
    s, first = one_round(s)
    assert burned(first) == [["7D"]] and dealt(first) == ["2C", "3C", "4C", "KH"]
    s, events = apply(s, SignInDealer("D0417"))
    assert events == [DealerSignedIn("D0417", None)]
    assert s.dealer == "D0417" and s.dealer_burn_due
    s, second = one_round(s)
    assert burned(second) == [["5C"]]  # one card, face down, before the deal
    assert dealt(second) == ["6C", "8C", "QS", "9D"]
    assert not s.dealer_burn_due
    s, third = one_round(s)  # the same dealer deals on: no burn
    assert burned(third) == [] and dealt(third)[:3] == ["10D", "JD", "AS"]


def test_without_a_new_dealer_the_cards_come_in_shoe_order() -> None:
    s = table(maryland(3), CODES, CREDITS)
    s, _ = one_round(s)
    s, second = one_round(s)
    assert burned(second) == [] and dealt(second) == ["5C", "6C", "8C", "QS"]


def test_a_new_dealer_on_a_fresh_shoe_burns_after_the_shoes_own_burn() -> None:
    # MD Ch. 8 E(1) burns the first card of a new shoe; E(4)'s new dealer "also" burns one
    p = maryland(3)
    s = table(p, CODES, CREDITS)
    s, _ = apply(s, SignInDealer("D1"))
    s, events = one_round(s)
    assert burned(events) == [["7D"], ["2C"]]
    assert dealt(events) == ["3C", "4C", "KH", "5C"]
    s, _ = apply(s, Shuffle(rigged_draw(p, CODES), ShuffleReason.SUPERVISOR))
    s, _ = apply(s, SignInDealer("D2"))
    s, events = one_round(s)
    assert burned(events) == [["7D"], ["2C"]]


@pytest.mark.parametrize(("commands", "dealer_id", "reason", "message"), [
    ([OpenBets()], "D2", Reason.ROUND_IN_PROGRESS,
     "dealers change only between rounds (the table is betting)"),
    ([OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), CloseBets(), Deal()], "D2",
     Reason.ROUND_IN_PROGRESS, "dealers change only between rounds (the table is dealt)"),
    ([], "D1", Reason.ALREADY_SIGNED_IN, "dealer D1 is already at the table"),
    ([], "417", Reason.INVALID_DEALER, "a dealer ID is D and 1 to 8 digits (D0417), not '417'"),
    ([], "", Reason.INVALID_DEALER, "a dealer ID is D and 1 to 8 digits (D0417), not ''"),
])
def test_sign_in_refusals(commands: list[Command], dealer_id: str, reason: Reason,
                          message: str) -> None:
    s, _ = run(table(maryland(3), CODES, CREDITS), [SignInDealer("D1"), *commands])
    with pytest.raises(Refused) as refusal:
        apply(s, SignInDealer(dealer_id))
    assert (refusal.value.reason, refusal.value.message) == (reason, message)


def test_the_dealer_changes_when_the_round_is_over_before_the_next_begins() -> None:
    s, _ = run(table(maryland(3), CODES, CREDITS), [
        SignInDealer("D1"), OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), CloseBets(),
        Deal(), Settle()])
    assert s.phase is Phase.COMPLETE
    s, events = apply(s, SignInDealer("D2"))
    assert events == [DealerSignedIn("D2", "D1")] and s.dealer == "D2"


def test_a_tip_moves_exactly_its_amount_from_the_credits_to_the_dealer() -> None:
    # MD Ch. 2 D: the tip box; a tip is not a wager, so nothing is staked or settled
    s, _ = apply(table(maryland(3), CODES, CREDITS), SignInDealer("D0417"))
    before = total_money(s)
    s, events = apply(s, Tip(2, 500))
    assert events == [TipGiven(2, "D0417", 500, CREDITS - 500)]
    assert s.credits[1] == CREDITS - 500
    assert total_money(s) == before - 500  # out of the table, into the tip box
    s, _ = apply(s, OpenBets())
    s, events = apply(s, Tip(2, 1_000))  # any time outside a jackpot lock
    assert events == [TipGiven(2, "D0417", 1_000, CREDITS - 1_500)]
    assert s.round.staked == (0,) * 6  # never a wager


@pytest.mark.parametrize(("sign_in", "tip", "reason", "message"), [
    (False, Tip(1, 100), Reason.NO_DEALER, "no dealer is signed in to receive a tip"),
    (True, Tip(1, 0), Reason.NOT_POSITIVE, "a tip must be a positive amount"),
    (True, Tip(1, CREDITS + 1), Reason.INSUFFICIENT_CREDITS,
     "seat 1 has $1,000.00, a tip of $1,000.01 needs more"),
    (True, Tip(7, 100), Reason.NO_SUCH_SEAT, "there is no seat 7"),
])
def test_tip_refusals(sign_in: bool, tip: Tip, reason: Reason, message: str) -> None:
    s = table(maryland(3), CODES, CREDITS)
    if sign_in:
        s, _ = apply(s, SignInDealer("D1"))
    with pytest.raises(Refused) as refusal:
        apply(s, tip)
    assert (refusal.value.reason, refusal.value.message) == (reason, message)


def test_the_dealer_and_a_pending_burn_survive_a_round_trip_through_the_ledger_codec() -> None:
    from etg.ledger.codec import dump_state, load_state

    s, _ = apply(table(maryland(3), CODES, CREDITS), SignInDealer("D9"))
    assert load_state(dump_state(s)) == s
