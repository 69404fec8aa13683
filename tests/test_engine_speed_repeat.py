"""REPEAT's kept checks (etg.core.engine._row_change): the same answers as checking afresh.

REPEAT puts last round's row, the very tuple, on an empty seat round after round, so the
engine keeps what that row's checks and placements came to. These tests hold the kept
answer to what a fresh check gives: per paytable, never past a link that went down, and
within a bounded number of rows.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from etg.core import engine
from etg.core.commands import (
    BetKind,
    CloseBets,
    Deal,
    NextRound,
    OpenBets,
    PlaceWager,
    RepeatWagers,
    SetLinkStatus,
    Settle,
)
from etg.core.engine import Phase, apply
from etg.core.events import WagerPlaced
from etg.core.paytable import Limit, Limits
from etg.core.refusal import Reason, Refused
from etg.core.state import TableState
from tests.tables import maryland, run, table
from tests.test_floor_table_engine import linked

# burn, five spot cards all under the dealer's King: every Initial Wager loses, no tie
LOSING = ["7D", "2H", "3H", "4H", "5H", "6H", "KC"]
CREDITS = 100_000


def _betting_after_a_round_of(commands: list[PlaceWager]) -> TableState:
    """Round 2 open for bets, after a round where seat 1 placed ``commands`` and lost."""
    s = table(maryland(), LOSING + LOSING, CREDITS)
    s, _ = run(s, [OpenBets(), *commands, CloseBets(), Deal(), Settle()])
    assert s.phase is Phase.COMPLETE
    s, _ = run(s, [NextRound(), OpenBets()])
    return s


def _placed(events: list[object]) -> list[tuple[int, int, BetKind, int, int, int]]:
    return [(e.seat, e.spot, e.kind, e.amount, e.total, e.credits) for e in events
            if isinstance(e, WagerPlaced)]


def test_a_kept_repeat_places_the_same_wagers_and_cents_as_the_first() -> None:
    s = _betting_after_a_round_of([PlaceWager(1, 2, BetKind.INITIAL, 1_000),
                                   PlaceWager(1, 2, BetKind.TIE, 300),
                                   PlaceWager(1, 3, BetKind.INITIAL, 700)])
    left = CREDITS - 2_000  # round 1 lost $20.00
    expected = [(1, 2, BetKind.INITIAL, 1_000, 1_000, left - 1_000),
                (1, 2, BetKind.TIE, 300, 300, left - 1_300),
                (1, 3, BetKind.INITIAL, 700, 700, left - 2_000)]
    first, events = apply(s, RepeatWagers(1))
    assert _placed(events) == expected
    again, events = apply(s, RepeatWagers(1))  # the same rows: the kept answer
    assert _placed(events) == expected
    assert again == first and again.credits[0] == left - 2_000
    # and in the next round, where the row repeated is the very tuple REPEAT put down
    s, _ = run(first, [CloseBets(), Deal(), Settle(), NextRound(), OpenBets()])
    left -= 2_000  # lost again: $17.00 of Initial Wagers and the $3.00 Tie Wager
    s, events = apply(s, RepeatWagers(1))
    assert _placed(events) == [(1, 2, BetKind.INITIAL, 1_000, 1_000, left - 1_000),
                               (1, 2, BetKind.TIE, 300, 300, left - 1_300),
                               (1, 3, BetKind.INITIAL, 700, 700, left - 2_000)]


def test_a_row_kept_on_one_paytable_is_checked_afresh_on_another() -> None:
    s = _betting_after_a_round_of([PlaceWager(1, 1, BetKind.INITIAL, 1_000)])
    apply(s, RepeatWagers(1))  # accepted, and kept, under a $500.00 Initial maximum
    lower = replace(s.paytable, limits=Limits(Limit(500, 900), Limit(100, 10_000)))
    with pytest.raises(Refused) as refused:
        apply(replace(s, paytable=lower), RepeatWagers(1))
    assert refused.value.reason is Reason.OVER_MAXIMUM
    assert "$9.00, not $10.00" in refused.value.message


def test_a_repeat_accepted_while_linked_is_refused_once_the_link_is_down() -> None:
    s = linked(codes=LOSING + LOSING)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                   PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), CloseBets(), Deal(),
                   Settle(), NextRound(), OpenBets(), RepeatWagers(1)])
    assert s.round.wagers[0][0].progressive_payout == 500  # the link is up: accepted
    s, _ = run(s, [CloseBets(), Deal(), Settle(), NextRound(), SetLinkStatus(False),
                   OpenBets()])
    with pytest.raises(Refused) as refused:  # the very row REPEAT placed last round
        apply(s, RepeatWagers(1))
    assert refused.value.reason is Reason.LINK_DOWN


def test_the_rows_kept_stay_bounded() -> None:
    s = _betting_after_a_round_of([PlaceWager(1, 1, BetKind.INITIAL, 500)])
    rows = []  # every row alive at once, so that none shares another's identity
    for _ in range(2 * engine._ROW_CHANGES_KEPT + 1):
        rows.append(tuple(list(s.last_bets[0])))
        after, _ = apply(replace(s, last_bets=(rows[-1], *s.last_bets[1:])), RepeatWagers(1))
        assert after.credits[0] == CREDITS - 500 - 500
    assert 0 < len(engine._ROW_CHANGES) <= engine._ROW_CHANGES_KEPT
