"""A seat that took part in a round cannot cash out until the round is over (MD Ch. 11).

A void returns every wager of the round and takes back what the round paid.
Cashing out a seat's winnings before the round ends would let a void take
them back from credits that are no longer there: credits below zero. So a
seat with any stake in the round in progress is refused, whether its own
wagers are still on the layout or already settled; between rounds, and for a
seat that placed nothing, cash-out is as before.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from etg.core.commands import (
    BetKind,
    CashIn,
    CashOut,
    CloseBets,
    Deal,
    Decide,
    NextRound,
    OpenBets,
    PlaceWager,
    Settle,
    Void,
)
from etg.core.events import CreditsOut
from etg.core.paytable import Decision
from etg.core.refusal import Reason, Refused
from etg.core.state import Phase, TableState
from tests.tables import maryland, run, table, total_money

CODES = ["7D", "9H", "KH", "2C", "2C", "2C", "9C"]  # spot 1 ties the dealer's 9, spot 2 wins


def _mid_round() -> tuple[TableState, tuple[int, ...]]:
    s = table(maryland(), CODES)
    start = s.credits
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000),
                   PlaceWager(2, 2, BetKind.INITIAL, 2_000), CloseBets(), Deal(), Settle()])
    assert s.phase is Phase.DECISIONS  # seat 1's tie is pending; seat 2 was paid 40
    assert s.credits[1] == start[1] + 2_000
    return s, start


def test_a_paid_seat_cannot_cash_out_before_the_round_ends() -> None:
    s, _ = _mid_round()
    with pytest.raises(Refused) as refused:
        run(s, [CashOut(2)])
    assert refused.value.reason is Reason.ROUND_IN_PROGRESS
    assert refused.value.message == ("seat 2 has wagers in this round; cash out after the "
                                     "round (a void would return them)")


def test_a_void_then_leaves_every_seat_exactly_where_it_started() -> None:
    s, start = _mid_round()
    s, _ = run(s, [Void("a card was exposed")])
    assert s.credits == start
    assert min(s.credits) >= 0


def test_a_seat_without_a_stake_cashes_out_mid_round_and_a_void_keeps_it() -> None:
    s, start = _mid_round()
    s, events = run(s, [CashOut(3)])
    assert [e for e in events if isinstance(e, CreditsOut)] == [CreditsOut(3, start[2])]
    s, _ = run(s, [Void("a card was exposed")])
    assert s.credits == (start[0], start[1], 0, *start[3:])


def test_after_the_round_the_seat_cashes_out_its_winnings() -> None:
    s, start = _mid_round()
    s, _ = run(s, [Decide(1, 1, Decision.SURRENDER)])
    assert s.phase is Phase.COMPLETE
    s, events = run(s, [CashOut(2)])
    assert [e for e in events if isinstance(e, CreditsOut)] == [CreditsOut(2, start[1] + 2_000)]
    s, _ = run(s, [NextRound(), CashIn(2, 500), OpenBets()])
    s, events = run(s, [CashOut(2)])  # betting open, nothing placed: allowed
    assert [e.amount for e in events if isinstance(e, CreditsOut)] == [500]


ACTIONS = st.lists(st.sampled_from(["cash_out_1", "cash_out_2", "cash_in_2", "void", "war",
                                    "surrender", "next"]), max_size=8)


@settings(max_examples=150, deadline=None)
@given(ACTIONS)
def test_no_sequence_of_cash_outs_and_voids_drives_credits_below_zero(
        actions: list[str]) -> None:
    s, _ = _mid_round()
    came_in = total_money(s)
    cash = 0
    commands = {"cash_out_1": CashOut(1), "cash_out_2": CashOut(2), "cash_in_2": CashIn(2, 700),
                "void": Void("supervisor"), "war": Decide(1, 1, Decision.WAR),
                "surrender": Decide(1, 1, Decision.SURRENDER), "next": NextRound()}
    for action in actions:
        try:
            s, events = run(s, [commands[action]])
        except Refused:
            continue
        cash += sum(e.amount for e in events if isinstance(e, CreditsOut))
        cash -= 700 if action == "cash_in_2" else 0
        assert min(s.credits) >= 0
        assert total_money(s) + cash == came_in
