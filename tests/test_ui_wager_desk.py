"""The operator menu's WAGERS page: a supervisor voids a wager or marks a seat abandoned.

Headless through the real App: the operator PIN opens the menu, the supervisor
PIN lets each action through (like the round's void at the dealer console), the
engine decides which controls are enabled, and the event log and recall pages
show what was done (MD Ch. 11 C; MD Ch. 7 B(3)-(4); SPEC §2, §5).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from etg.config.cabinet_edit import set_cabinet_value
from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    Deal,
    OpenBets,
    PlaceWager,
    Settle,
    Shuffle,
    ShuffleReason,
)
from etg.core.state import Phase
from etg.table.pin import hash_pin
from etg.ui.app import App
from etg.ui.operator.menu import OperatorMenu
from etg.ui.operator.page import Page
from etg.ui.pinpad import PinPad
from etg.ui.scene import OpenOperatorMenu, Scene
from etg.ui.wager_desk import VOID_REASONS, command_for, describe, wager_lines
from tests.kiosk_support import button, config_copy, make_app, not_blank, tap, type_keys
from tests.tables import rigged_draw

OPERATOR, SUPERVISOR = "2468", "8642"


@pytest.fixture
def app(tmp_path: Path) -> App:
    config = config_copy(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "operator_pin_hash", hash_pin(OPERATOR))
    set_cabinet_value(config / "cabinet.yaml", "supervisor_pin_hash", hash_pin(SUPERVISOR))
    return make_app(tmp_path, base=lambda a: Scene(a), config=config)


def bets_closed(app: App) -> None:
    """Seat 1: $10 Initial and $1 Tie on spot 1, seat 2: $5 Initial on spot 3; No More
    Bets, no card dealt yet."""
    table = app.table
    table.send(Shuffle(rigged_draw(table.state.paytable, ["7D", "9H", "2C", "2C", "2C", "2C",
                                                          "9C"]), ShuffleReason.SUPERVISOR))
    for seat in (1, 2):
        table.send(CashIn(seat, 10_000), actor="attendant")
    for command in (OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000),
                    PlaceWager(1, 1, BetKind.TIE, 100), PlaceWager(2, 3, BetKind.INITIAL, 500),
                    CloseBets()):
        table.send(command)


def decisions(app: App) -> None:
    """:func:`bets_closed`, then the deal: spot 1 is a tie hand (9H against 9C), spot 3
    lower. The table waits for seat 1's War or Surrender."""
    bets_closed(app)
    for command in (Deal(), Settle()):
        app.table.send(command)
    assert app.table.state.phase is Phase.DECISIONS


def wagers_page(app: App) -> OperatorMenu:
    app.go(OpenOperatorMenu())
    type_keys(app, OPERATOR + "\n")
    menu = app.top
    assert isinstance(menu, OperatorMenu)
    tap(app, f"tab:{Page.WAGERS.value}")
    assert menu.page is Page.WAGERS
    return menu


def texts(menu: OperatorMenu) -> list[str]:
    return [cell.text for cell in menu.view.cells]


def logged(app: App, kind: str) -> list[tuple[str | None, dict[str, Any]]]:
    return [(e["actor"], e["details"]) for e in app.table.ledger.event_log(kind)]


def test_the_page_lists_what_is_on_the_layout_and_what_the_engine_allows(app: App) -> None:
    decisions(app)
    menu = wagers_page(app)
    assert "Initial $10.00" in texts(menu)  # seat 1's Tie was settled (won) at the deal
    # the Initial's card is on the table, the Tie is settled and there is no Progressive
    # Payout Wager: nothing may be voided (MD Ch. 11 C)
    assert not button(app, "wager:void:1:1:spot").enabled
    assert not button(app, "wager:void:1:1:tie").enabled
    assert not button(app, "wager:void:1:1:progressive_payout").enabled
    # seat 1's tie hand awaits a decision; seat 2 has none (MD Ch. 7 B(3)-(4))
    assert button(app, "wager:abandon:1").enabled
    assert not button(app, "wager:abandon:2").enabled
    app.draw()
    assert not_blank(app.canvas)


def test_a_void_asks_the_supervisor_pin_then_returns_the_wager_with_the_chosen_reason(
        app: App) -> None:
    bets_closed(app)
    wagers_page(app)
    assert button(app, "wager:void:1:1:tie").enabled  # no card yet: each may be voided
    tap(app, "wager:reason:1")
    tap(app, "wager:void:1:1:spot")
    pad = app.top
    assert isinstance(pad, PinPad) and pad.title == "SUPERVISOR PIN  ·  VOID SEAT 1 SPOT 1 WAGERS"
    type_keys(app, OPERATOR + "\n")  # the operator's PIN is not the supervisor's
    assert app.table.state.round.wagers[0][0].initial == 1_000
    type_keys(app, SUPERVISOR + "\n")
    assert isinstance(app.top, OperatorMenu)
    # MD Ch. 11 C: the $10 Initial and the $1 Tie come back, before any card is dealt
    assert app.table.state.credits[0] == 10_000 - 1_100 + 1_100 == 10_000
    assert logged(app, "wager_void") == [("supervisor", {
        "round": 1, "seat": 1, "spot": 1, "wager": "spot", "amount": 1_100,
        "reason": VOID_REASONS[1]})]
    assert logged(app, "operator_menu")[-1] == ("operator", {
        "action": "void_wager", "seat": 1, "spot": 1, "wager": "spot",
        "reason": VOID_REASONS[1], "refused": None})
    assert app.table.state.phase is Phase.BETS_CLOSED  # seat 2's wager goes on


def test_mark_abandoned_settles_the_seats_pending_decision_by_the_paytables_rule(
        app: App) -> None:
    decisions(app)
    wagers_page(app)
    tap(app, "wager:abandon:1")
    type_keys(app, SUPERVISOR + "\n")
    # the shipped Maryland paytable forfeits (MD Ch. 7 B(4)): the $10 Initial is lost
    assert app.table.state.credits[0] == 10_000 - 1_100 + 1_100
    assert logged(app, "seat_abandoned") == [("supervisor", {
        "round": 1, "seat": 1, "spots": [1], "rule": "forfeit"})]
    menu = app.top
    assert isinstance(menu, OperatorMenu)
    tap(app, f"tab:{Page.EVENT_LOG.value}")
    assert {"seat_abandoned", "wager_void"} & set(texts(menu)) == {"seat_abandoned"}
    tap(app, f"tab:{Page.RECALL.value}")
    assert any("Abandoned (forfeit)" in text for text in texts(menu))


def test_the_desk_reads_the_engine_for_each_control() -> None:
    from etg.core.engine import apply, refusal
    from tests.tables import maryland_bonus, run, table

    s = table(maryland_bonus(), ["7D", "9H", "2C", "2C", "2C", "2C", "8C"], 100_000)
    s, _ = run(s, [OpenBets(), PlaceWager(2, 4, BetKind.INITIAL, 500),
                   PlaceWager(2, 4, BetKind.PROGRESSIVE_PAYOUT, 500), CloseBets()])
    lines = wager_lines(s, lambda command: refusal(s, command))
    assert [(line.seat, line.spot, line.on_layout) for line in lines] == [
        (2, 4, "Initial $5.00 · Prog. Payout $5.00")]
    assert [(a.label, a.refusal is None) for a in lines[0].actions] == [
        ("VOID SPOT", True), ("VOID TIE", False), ("VOID PROG.", True)]
    command = command_for("void:2:4:progressive_payout", VOID_REASONS[0])
    assert describe(command) == "VOID SEAT 2 SPOT 4 PROG. PAYOUT"
    s, _ = apply(s, command)
    assert s.credits[1] == 100_000 - 500  # the Initial rides; the $5 came back
