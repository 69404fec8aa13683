"""A single-wager void and an abandoned seat through the controller and the ledger.

Write before show (SPEC §5): the void (MD Ch. 11 C) and the abandoned seat
(MD Ch. 7 B(3)-(4)) are committed with their round, logged in the event log with
who and why, counted on the void meter only, shown by recall, and a restart in
the middle of the round rebuilds them exactly. The shipped Maryland five-spot
paytable forfeits an abandoned tie hand (MD Ch. 7 B(4)).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    Deal,
    MarkAbandoned,
    NextRound,
    OpenBets,
    PlaceWager,
    Settle,
    Shuffle,
    ShuffleReason,
    VoidTarget,
    VoidWager,
)
from etg.core.refusal import Reason, Refused
from etg.core.state import Phase
from etg.ledger.recall import render_round
from etg.ledger.verify import verify
from etg.table.controller import Table
from tests.ledger_support import open_table
from tests.tables import rigged_draw

REASON = "no card was dealt to the wager (MD Ch. 11 C)"


def round_with_a_void(table: Table) -> None:
    """Seat 1: $10 Initial on spot 1, which ties (9H against 9C); seat 2: $5 Initial and $1
    Tie on spot 2 (2C, lower), its Tie voided after No More Bets."""
    p = table.state.paytable
    table.send(Shuffle(rigged_draw(p, ["7D", "9H", "2C", "2C", "2C", "2C", "9C"]),
                       ShuffleReason.SUPERVISOR), actor="supervisor")
    table.send(CashIn(1, 10_000), actor="attendant")
    table.send(CashIn(2, 10_000), actor="attendant")
    for command in (OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000),
                    PlaceWager(2, 2, BetKind.INITIAL, 500), PlaceWager(2, 2, BetKind.TIE, 100),
                    CloseBets()):
        table.send(command, actor="dealer")
    table.send(VoidWager(2, 2, VoidTarget.TIE, REASON), actor="supervisor")
    table.send(Deal(), actor="dealer")
    table.send(Settle(), actor="dealer")


def test_the_void_and_the_abandoned_seat_are_logged_metered_and_recalled(
        tmp_path: Path) -> None:
    table = open_table(tmp_path / "l.db")
    round_with_a_void(table)
    assert table.state.phase is Phase.DECISIONS
    table.send(MarkAbandoned(1), actor="supervisor")
    assert table.state.phase is Phase.COMPLETE
    assert table.state.credits[:2] == (9_000, 9_500)  # seat 1 forfeits $10; seat 2 loses $5
    ledger = table.ledger
    logged = [(e["kind"], e["actor"], e["details"])
              for e in ledger.last_events(("wager_void", "seat_abandoned"), 10)]
    assert sorted(logged, key=lambda e: e[0]) == [
        ("seat_abandoned", "supervisor", {"round": 1, "seat": 1, "spots": [1],
                                          "rule": "forfeit"}),
        ("wager_void", "supervisor", {"round": 1, "seat": 2, "spot": 2, "wager": "tie",
                                      "amount": 100, "reason": REASON}),
    ]
    meters = ledger.meters()["md-community-5"]
    assert {k: v for k, v in meters.items() if k[1].startswith(("wager_voids", "coin_in"))} \
        == Counter({(0, "wager_voids"): 1, (2, "wager_voids"): 1,
                    (0, "wager_voids.amount"): 100, (2, "wager_voids.amount"): 100,
                    (0, "coin_in.initial"): 1_500, (1, "coin_in.initial"): 1_000,
                    (2, "coin_in.initial"): 500})
    lines = render_round(ledger.rounds(last=1)[-1]).splitlines()
    assert lines[lines.index("Seat 2: credits $100.00 -> $95.00, net -$5.00"):][:4] == [
        "Seat 2: credits $100.00 -> $95.00, net -$5.00",
        "  placed   spot 2: Initial Wager $5.00, Tie Wager $1.00",
        f"  void     spot 2: Tie Wager $1.00 voided and returned, credited $1.00 ({REASON})",
        "  settled  spot 2: Initial Wager lost, stake $5.00, paid $0.00",
    ]
    seat_1 = lines[lines.index("Seat 1: credits $100.00 -> $90.00, net -$10.00"):][:4]
    assert seat_1 == [
        "Seat 1: credits $100.00 -> $90.00, net -$10.00",
        "  placed   spot 1: Initial Wager $10.00",
        "  abandoned seat marked abandoned by the supervisor; tie hand on spot 1: the Initial "
        "Wager is lost (MD Ch. 7 B(4))",
        "  settled  spot 1: Initial Wager abandoned, stake $10.00, paid $0.00",
    ]
    assert verify(ledger) == []
    table.send(NextRound(), actor="dealer")
    table.close()


def test_a_restart_after_a_void_rebuilds_the_round_exactly(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    table = open_table(db)
    round_with_a_void(table)
    before = table.state
    table.ledger.close()  # power loss in the middle of the decisions
    again = open_table(db)
    assert again.state == before
    assert again.tilt is None
    assert again.state.round.wagers[1][1].tie == 0 and again.state.credits[1] == 9_500
    again.close()


def test_a_voided_wager_is_a_row_of_its_own_in_the_csv_export(tmp_path: Path) -> None:
    from etg.ledger.export import csv_lines

    table = open_table(tmp_path / "l.db")
    round_with_a_void(table)
    table.send(MarkAbandoned(1), actor="supervisor")  # the round ends: its record is written
    rows = "".join(csv_lines(table.ledger.rounds())).splitlines()
    table.close()
    voided = [r for r in rows if ",voided," in r]
    # seat 2's $1 Tie on spot 2: its stake back, unsettled (MD Ch. 11 C)
    assert [r.split(",")[4:] for r in voided] == [["2", "2", "tie", "voided", "100", "100", "0",
                                                    "voided (tie)", ""]]


def test_a_wager_whose_card_is_dealt_is_not_voided_and_nothing_is_written(
        tmp_path: Path) -> None:
    # MD Ch. 11 C, SPEC §2: seat 2's $5 Initial on spot 2 (2C) has visibly lost to the
    # dealer's 9C; the supervisor's void is refused and the rules settle the wager
    table = open_table(tmp_path / "l.db")
    p = table.state.paytable
    table.send(Shuffle(rigged_draw(p, ["7D", "9H", "2C", "2C", "2C", "2C", "9C"]),
                       ShuffleReason.SUPERVISOR), actor="supervisor")
    table.send(CashIn(2, 10_000), actor="attendant")
    for command in (OpenBets(), PlaceWager(2, 2, BetKind.INITIAL, 500), CloseBets(), Deal()):
        table.send(command, actor="dealer")
    head = table.ledger.head
    with pytest.raises(Refused) as refused:
        table.send(VoidWager(2, 2, VoidTarget.SPOT, "player dispute"), actor="supervisor")
    assert refused.value.reason is Reason.CARD_DEALT
    assert table.ledger.head == head  # refused: nothing is written
    table.send(Settle(), actor="dealer")
    assert table.state.phase is Phase.COMPLETE and table.state.credits[1] == 9_500
    meters = table.ledger.meters()["md-community-5"]
    assert meters[(2, "coin_in.initial")] == 500 and meters[(2, "coin_out.initial")] == 0
    assert meters[(0, "wager_voids")] == 0
    assert table.ledger.last_events(("wager_void",), 10) == []
    assert verify(table.ledger) == []
    table.close()
