"""Surfaces (issue 12, item 1): the players' screen shows only what players touch.

The dealer works the keypad, the dealer display of a two-display cabinet, or the
dealer panel that opens only for a dealer signed in; the operator menu opens with the
attendant key or a long press on a hidden corner, then the operator's PIN. Nothing a
player can touch reaches a dealer's or an operator's action.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pygame
import pytest

from etg.config.cabinet_edit import set_cabinet_value
from etg.core.commands import (
    CashIn,
    ClearWagers,
    Command,
    Decide,
    DoubleWagers,
    PlaceBonusSpin,
    PlaceWager,
    RepeatWagers,
    Shuffle,
    ShuffleReason,
    Tip,
)
from etg.core.state import Phase
from etg.table.pin import PinRole, hash_pin
from etg.ui.dealer_console import PANEL, PANEL_IDLE_S, DealerPanel, DealerScreen
from etg.ui.numberpad import NumberPad
from etg.ui.pinpad import PinPad
from etg.ui.table_scene import ATTENDANT_CORNER, ATTENDANT_HOLD_S, TableScene
from tests import kiosk_support as k
from tests.tables import rigged_draw

PLAYER_COMMANDS = (PlaceWager, PlaceBonusSpin, ClearWagers, RepeatWagers, DoubleWagers, Decide,
                   Tip)
DEALER_PIN = "2468"
# burn; spots 1-7 (1, 2 and 7 tie the dealer's 9); the dealer's 9
TIES = ["2C", "9S", "9C", "4D", "KH", "3S", "QD", "9D", "9H"]


def _app(tmp_path: Path, spots: int = 5, seats: int = 6) -> k.App:
    config = k.layout_config(tmp_path, spots, seats)
    set_cabinet_value(config / "cabinet.yaml", "dealers.D0417", hash_pin(DEALER_PIN))
    set_cabinet_value(config / "cabinet.yaml", "operator_pin_hash", hash_pin("9753"))
    return k.make_app(tmp_path, config=config)


def _sent_by_taps(app: k.App) -> list[Command]:
    """Every command the players' taps send (accepted or not), tapping every target once."""
    sent: list[Command] = []
    send = app.send

    def spy(command: Command, actor: object, quiet: bool = False) -> str | None:
        sent.append(command)
        return send(command, actor, quiet)  # type: ignore[arg-type]

    app.send = spy  # type: ignore[method-assign]
    try:
        _tap_everything(app)
    finally:
        app.send = send  # type: ignore[method-assign]
    return sent


def _escape(app: k.App) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="\x1b", mod=0))


def _tap_everything(app: k.App) -> None:
    """Every target of the players' table, once each, as a finger would; HELP last (the
    help pages then cover the table, and are closed)."""
    buttons = sorted(app.base.buttons(app.now), key=lambda b: b.tag == "help")
    for button in buttons:
        x, y, w, h = button.rect
        k.tap_at(app, x + w / 2, y + h / 2)
    assert app.top.name == "help"


@pytest.mark.parametrize(("spots", "seats"), [(3, 6), (5, 9), (7, 9)])
def test_no_touch_on_the_players_table_reaches_the_dealer_or_the_operator(
        tmp_path: Path, spots: int, seats: int) -> None:
    app = _app(tmp_path, spots, seats)
    try:
        table = app.table
        for seat in range(1, seats + 1):
            app.send(CashIn(seat, 100_000), "attendant")
        codes = [*TIES[:spots + 1], TIES[-1]]
        app.send(Shuffle(rigged_draw(table.state.paytable, codes), ShuffleReason.NEW_SHOE),
                 "dealer")
        sent: list[Command] = []
        seen: list[Phase] = []

        def look_and_touch() -> None:
            k.run_until(app, lambda: app.settled)
            seen.append(table.state.phase)
            tags = [b.tag for b in app.base.buttons(app.now)]
            assert not [t for t in tags if t.startswith(("dealer:", "menu", "operator"))], tags
            sent.extend(_sent_by_taps(app))
            while app.top is not app.base:  # HELP is the players' own: close it
                _escape(app)

        look_and_touch()
        k.dealer(app, "open")
        look_and_touch()
        k.tap(app, "seat:1:initial:1")  # after CLEAR was touched too: a wager on a tied spot
        k.dealer(app, "close")
        look_and_touch()
        k.dealer(app, "deal")
        k.run_until(app, lambda: table.state.phase is Phase.DECISIONS)
        look_and_touch()  # WAR and SURRENDER on each tied spot: the players' own
        k.run_until(app, lambda: table.state.phase in (Phase.WAR_PENDING, Phase.COMPLETE))
        if table.state.phase is Phase.WAR_PENDING:
            k.dealer(app, "war_deal")
        k.run_until(app, lambda: table.state.phase is Phase.COMPLETE)
        look_and_touch()
        assert seen == [Phase.IDLE, Phase.BETTING, Phase.BETS_CLOSED, Phase.DECISIONS,
                        Phase.COMPLETE]
        assert sent, "the players' taps were sent"
        assert all(isinstance(c, PLAYER_COMMANDS) for c in sent), [
            type(c).__name__ for c in sent if not isinstance(c, PLAYER_COMMANDS)]
    finally:
        app.table.ledger.close()


def test_the_dealer_panel_opens_only_for_a_dealer_signed_in(tmp_path: Path) -> None:
    app = _app(tmp_path)
    try:
        app.send(CashIn(6, 10_000), "attendant")
        k.dealer(app, "shuffle")
        k.type_keys(app, "j")  # the panel key, nobody signed in: the sign-in comes first
        assert isinstance(app.top, NumberPad) and not any(
            isinstance(s, DealerPanel) for s in app.stack)
        k.type_keys(app, "0417\n")
        assert isinstance(app.top, PinPad) and app.top.role is PinRole.DEALER
        k.type_keys(app, DEALER_PIN + "\n")
        assert app.table.state.dealer == "D0417"
        k.type_keys(app, "j")
        panel = app.top
        assert isinstance(panel, DealerPanel)
        assert all(min(b.rect[2], b.rect[3]) >= 48 for b in panel.buttons(app.now))  # a finger
        k.tap(app, "dealer:open")  # the console on the panel
        assert app.table.state.phase is Phase.BETTING
        # The players keep the rest of the table while the panel is open.
        target = next(b for b in app.base.buttons(app.now) if b.tag == "seat:6:initial:5")
        x, y, w, h = target.rect
        assert not (PANEL[0] <= x + w / 2 <= PANEL[0] + PANEL[2])
        k.tap_at(app, x + w / 2, y + h / 2)
        assert app.table.state.round.wagers[5][4].initial == 500
        k.run_for(app, PANEL_IDLE_S + 1)  # nobody touched it: it closes by itself
        assert app.top is app.base
    finally:
        app.table.ledger.close()


def test_the_dealer_display_shows_the_console_on_a_window_of_its_own(tmp_path: Path) -> None:
    app = k.make_app(tmp_path)
    try:
        # SDL's dummy driver has one display: the dealer's window opens on it for the test
        app.cabinet = dataclasses.replace(app.cabinet, dealer_display=0)
        from etg.ui.dealer_console import DealerWindow

        app.dealer = DealerWindow.open(app, app.cabinet, app.options)
        assert app.dealer is not None and isinstance(app.dealer.scene, DealerScreen)
        k.dealer(app, "shuffle")
        screen = app.dealer.screen
        button = next(b for b in app.dealer.scene.buttons(app.now) if b.tag == "dealer:open")
        assert button.hot  # the round expects OPEN next
        assert all(min(b.rect[2], b.rect[3]) >= 48 for b in app.dealer.scene.buttons(app.now))
        x, y, w, h = button.rect
        sx, sy = screen.viewport.to_screen(x + w / 2, y + h / 2)
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            app.handle(pygame.event.Event(kind, pos=(round(sx), round(sy)), button=1,
                                          touch=False, window=app.dealer.window))
        assert app.table.state.phase is Phase.BETTING
        app.frame(1 / 60, draw=True)
        assert k.not_blank(screen.canvas)
        assert not [b for b in app.base.buttons(app.now) if b.tag.startswith("dealer:")]
    finally:
        app.table.ledger.close()


def test_the_attendant_key_and_the_hidden_corner_ask_for_the_operator_pin(
        tmp_path: Path) -> None:
    app = _app(tmp_path)
    try:
        assert isinstance(app.base, TableScene)
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F10, unicode="", mod=0))
        assert isinstance(app.top, PinPad) and app.top.role is PinRole.OPERATOR
        _escape(app)
        assert app.top is app.base
        x, y, w, h = ATTENDANT_CORNER
        k.finger_down(app, 1, x + w / 2, y + h / 2)
        k.run_for(app, ATTENDANT_HOLD_S - 0.5)
        k.finger_up(app, 1, x + w / 2, y + h / 2)
        k.run_for(app, 1)
        assert app.top is app.base  # a short press is nothing
        k.finger_down(app, 2, x + w / 2, y + h / 2)
        k.run_for(app, ATTENDANT_HOLD_S + 0.1)
        assert isinstance(app.top, PinPad) and app.top.role is PinRole.OPERATOR
    finally:
        app.table.ledger.close()
