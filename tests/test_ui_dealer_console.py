"""The dealer's console shows as pressable only what the engine would accept now (issue 24,
item 4): the other keys are dimmed, a touch on one sends nothing and shows the engine's
reason on the console. Through the real App, the dealer's screen of a two-display cabinet
and the dealer panel of a one-display one, in several phases of a round."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pygame

from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    Deal,
    Decide,
    PlaceWager,
    Settle,
    Shuffle,
    ShuffleReason,
)
from etg.core.paytable import Decision
from etg.core.state import Phase
from etg.ledger.store import Ledger
from etg.ui import theme
from etg.ui.app import App
from etg.ui.dealer import SAID_S
from etg.ui.dealer_console import PANEL, DealerPanel, DealerScreen, DealerWindow
from etg.ui.widgets import Button
from etg.ui.words import players_words
from tests import kiosk_support as k
from tests.tables import rigged_draw
from tests.test_ui_floor import _app as floor_app
from tests.test_ui_floor import _lock
from tests.test_ui_operator import _play

TIE_DEAL = ["7D", "9H", "2C", "2C", "2C", "2C", "9C"]  # spot 1 ties the dealer's 9
LOCKED = ("the table is locked on a jackpot (seats 1, 2) until a floorperson validates it "
          "(MD Ch. 9 J(4)(c))")


def _with_dealer_screen(app: App) -> DealerScreen:
    # SDL's dummy driver has one display: the dealer's window opens on it for the test
    app.cabinet = dataclasses.replace(app.cabinet, dealer_display=0)
    app.dealer = DealerWindow.open(app, app.cabinet, app.options)
    assert app.dealer is not None and isinstance(app.dealer.scene, DealerScreen)
    return app.dealer.scene


def _key(app: App, tag: str) -> Button:
    assert app.dealer is not None
    app.table.deliver(wait=True)
    return next(b for b in app.dealer.scene.buttons(app.now) if b.tag == f"dealer:{tag}")


def _pressable(app: App) -> set[str]:
    assert app.dealer is not None
    app.table.deliver(wait=True)
    return {b.tag.removeprefix("dealer:") for b in app.dealer.scene.buttons(app.now)
            if b.enabled}


def _touch_dealer_screen(app: App, tag: str) -> None:
    """A finger on the dealer's screen, down and up on the key ``tag``."""
    assert app.dealer is not None
    x, y, w, h = _key(app, tag).rect
    sx, sy = app.dealer.screen.viewport.to_screen(x + w / 2, y + h / 2)
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        app.handle(pygame.event.Event(kind, pos=(round(sx), round(sy)), button=1, touch=False,
                                      window=app.dealer.window))


def _reason_band_lit(app: App, later: float = 0.0) -> bool:
    """The dealer's screen, drawn ``later`` seconds on, has the refusal's red under its keys."""
    assert app.dealer is not None
    app.dealer.show(app.now + later)
    return _has_colour(app.dealer.screen.canvas.subsurface((60, 975, 1800, 50)), theme.WAR)


def _has_colour(surface: pygame.Surface, colour: tuple[int, int, int]) -> bool:
    """Some pixel of ``surface`` is exactly ``colour`` (text drawn in it)."""
    return pygame.mask.from_threshold(surface, colour, (1, 1, 1, 255)).count() > 0


def _touch_dimmed(app: App, tag: str, words: str) -> None:
    """A touch on the dimmed key ``tag``: nothing reaches the engine, the console says why."""
    assert app.dealer is not None
    scene = app.dealer.scene
    assert isinstance(scene, DealerScreen)
    assert not _key(app, tag).enabled
    before, toasts = app.table.state, list(app.toasts)
    _touch_dealer_screen(app, tag)
    app.table.deliver(wait=True)
    assert app.table.state is before  # nothing was sent: not even a refused command
    assert app.toasts == toasts  # and nothing was refused on the players' table
    assert scene.said is not None and scene.said.words == words
    assert _reason_band_lit(app)


def _round(app: App) -> None:
    p = app.table.state.paytable
    for command, actor in ((CashIn(1, 100_000), "attendant"),
                           (Shuffle(rigged_draw(p, TIE_DEAL), ShuffleReason.NEW_SHOE), "dealer")):
        assert app.send(command, actor) is None


def test_the_dealer_screen_dims_what_the_engine_refuses_and_says_why(tmp_path: Path) -> None:
    app = k.make_app(tmp_path)
    try:
        scene = _with_dealer_screen(app)
        _round(app)
        assert _pressable(app) == {"open", "shuffle", "floor"}  # the floor's key: SIGN IN
        assert not _reason_band_lit(app)  # nothing said before a dimmed key is touched
        _touch_dealer_screen(app, "open")
        assert app.table.state.phase is Phase.BETTING  # a pressable key sends its command
        # betting open, nothing wagered yet
        assert _pressable(app) == {"void"}
        _touch_dimmed(app, "close", "no Initial Wager has been placed")
        _touch_dimmed(app, "deal", "the original deal follows No More Bets (the table is "
                                   "betting)")
        assert app.send(PlaceWager(1, 1, BetKind.INITIAL, 1_000), "player") is None
        assert _pressable(app) == {"close", "void"} and _key(app, "close").hot
        for command in (CloseBets(), Deal(), Settle()):
            assert app.send(command, "dealer") is None
        # the players decide: the War deal waits for them
        assert app.table.state.phase is Phase.DECISIONS
        assert _pressable(app) == {"void"}
        _touch_dimmed(app, "war_deal", "the War deal follows the War Wagers (the table is "
                                       "decisions)")
        assert app.table.state.pending_decisions() == ((1, 1),)
        assert app.send(Decide(1, 1, Decision.SURRENDER), "player") is None
        # the round is complete: only the next round (or a new dealer) is pressable
        assert app.table.state.phase is Phase.COMPLETE
        assert _pressable(app) == {"next_round", "floor"} and _key(app, "next_round").hot
        for tag, words in (("open", "betting opens between rounds (the table is complete)"),
                           ("deal", "the original deal follows No More Bets (the table is "
                                    "complete)"),
                           ("spin", "the wheel spins only when the Bonus Spin is triggered "
                                    "(the table is complete)")):
            _touch_dimmed(app, tag, words)
        assert _reason_band_lit(app, SAID_S - 0.1)
        assert not _reason_band_lit(app, SAID_S + 0.1)  # said for a while, then gone
        _touch_dealer_screen(app, "next_round")
        assert app.table.state.phase is Phase.IDLE
        assert scene.said is None  # a key pressed clears what was said
        assert k.not_blank(app.dealer.screen.canvas)
    finally:
        app.table.ledger.close()


def test_on_a_jackpot_lock_only_the_validation_and_the_void_are_pressable(
        tmp_path: Path) -> None:
    app = floor_app(tmp_path)
    try:
        _with_dealer_screen(app)
        _lock(app)
        assert _pressable(app) == {"floor", "void"}
        assert _key(app, "floor").label == "VALIDATE" and _key(app, "floor").hot
        for tag in ("open", "deal", "spin", "next_round", "shuffle"):
            _touch_dimmed(app, tag, LOCKED)
        assert app.table.state.phase is Phase.JACKPOT and app.table.state.jackpot is not None
    finally:
        app.table.ledger.close()


def test_a_tilted_table_dims_every_key_with_the_tilts_words(tmp_path: Path) -> None:
    config, db = k.config_copy(tmp_path), tmp_path / "table.db"
    first = k.make_app(tmp_path, config=config, db=db)
    _play(first, 2)
    first.table.close()
    ledger = Ledger.open(db)
    with ledger.atomic():  # someone edits a meter behind the program's back: a real tilt
        ledger.db.execute("UPDATE meters SET value = value + 100 WHERE seat = 1 "
                          "AND name = 'coin_in.initial'")
    ledger.close()
    app = k.make_app(tmp_path, config=config, db=db)
    try:
        _with_dealer_screen(app)
        assert app.table.tilted and app.table.tilt is not None
        assert not _pressable(app)
        _touch_dimmed(app, "shuffle", f"the table is tilted: {app.table.tilt.message}")
    finally:
        app.table.ledger.close()


def test_the_dealer_panel_dims_too_and_says_why_in_the_players_words(tmp_path: Path) -> None:
    app = floor_app(tmp_path)
    try:
        _lock(app)
        panel = DealerPanel(app)
        panel.dealer = "D0417"
        app.push(panel)
        pressable = {b.tag for b in panel.buttons(app.now) if b.enabled}
        assert pressable == {"dealer:floor", "dealer:void", "panel:close"}
        deal = next(b for b in panel.buttons(app.now) if b.tag == "dealer:deal")
        x, y, w, h = deal.rect
        before = app.table.state
        k.tap_at(app, x + w / 2, y + h / 2)
        assert app.table.state is before and app.top is panel  # nothing sent
        assert panel.said is not None and panel.said.words == LOCKED
        assert " ".join(panel.said_lines(app.now)) == players_words(LOCKED) == (
            "the table is locked on a jackpot (seats 1, 2) until a floorperson validates it")
        head = (round(PANEL[0]), round(PANEL[1]) + 38, round(PANEL[2]), 46)
        app.draw()
        assert _has_colour(app.canvas.subsurface(head), theme.WAR)
        assert k.not_blank(app.canvas)
    finally:
        app.table.ledger.close()
