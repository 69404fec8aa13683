"""The PIN pad keeps the screen alive while it checks, and its lock-out survives a restart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pygame
import pytest

from etg.config.cabinet_edit import set_cabinet_value
from etg.table.pin import hash_pin
from etg.ui import pinpad
from etg.ui.app import App
from etg.ui.operator.menu import OperatorMenu
from etg.ui.pinpad import LOCK_S, MAX_FAILURES, PinPad
from etg.ui.scene import OpenOperatorMenu
from tests.kiosk_support import config_copy, make_app, not_blank, type_keys

PIN = "2468"


def _app(tmp_path: Path, config: Path) -> App:
    return make_app(tmp_path, config=config, db=tmp_path / "table.db")


def _key(app: App, char: str) -> None:
    key = pygame.K_RETURN if char == "\n" else pygame.key.key_code(char)
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char, mod=0))


@pytest.mark.real_pin_cost  # the check must take a while for frames to go on beside it
def test_frames_go_on_while_the_pin_is_checked(tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "operator_pin_hash", hash_pin(PIN))
    app = _app(tmp_path, config)
    app.go(OpenOperatorMenu())
    pad = app.top
    assert isinstance(pad, PinPad)
    for char in PIN + "\n":
        _key(app, char)  # raw keys: nobody waits for the check here
    future = pad.checking
    assert future is not None and not future.done()  # 600,000 rounds of PBKDF2 take a while
    _key(app, "1")  # input during the check is ignored
    frames = 0
    while pad.checking is not None:
        app.frame(1 / 60, True)  # the hash runs on its worker; frames are not held up
        frames += 1
    assert frames >= 2 and future.result() is True
    assert not_blank(app.canvas)
    assert isinstance(app.top, OperatorMenu)
    assert [e["kind"] for e in app.table.ledger.event_log()][-3:] == [
        "pin_ok", "operator_login", "operator_menu"]


def test_the_lock_out_survives_a_restart_and_ends_on_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = config_copy(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "operator_pin_hash", hash_pin(PIN))
    app = _app(tmp_path, config)
    app.go(OpenOperatorMenu())
    for _ in range(MAX_FAILURES):
        type_keys(app, "1111\n")
    assert len(app.table.ledger.event_log("pin_locked")) == 1
    locked_at = datetime.fromisoformat(app.table.ledger.event_log("pin_locked")[0]["at"])
    app.table.close()  # the program restarts: a new App on the same ledger

    monkeypatch.setattr(pinpad, "wall_clock", lambda: locked_at + timedelta(seconds=20))
    again = _app(tmp_path, config)
    again.go(OpenOperatorMenu())
    pad = again.top
    assert isinstance(pad, PinPad) and pad.locked(again.now)
    type_keys(again, PIN + "\n")  # even the right PIN waits for the lock to end
    assert not isinstance(again.top, OperatorMenu)
    remaining = pinpad.guard(again, pad.role).locked_until - again.now
    assert remaining == pytest.approx(LOCK_S - 20, abs=1)
    again.table.close()

    monkeypatch.setattr(pinpad, "wall_clock",
                        lambda: datetime.now(UTC) + timedelta(seconds=LOCK_S + 1))
    later = _app(tmp_path, config)
    later.go(OpenOperatorMenu())
    assert isinstance(later.top, PinPad) and not later.top.locked(later.now)
    type_keys(later, PIN + "\n")
    assert isinstance(later.top, OperatorMenu)
    later.table.close()


def test_wrong_pins_counted_before_a_restart_still_count(tmp_path: Path) -> None:
    config = config_copy(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "operator_pin_hash", hash_pin(PIN))
    app = _app(tmp_path, config)
    app.go(OpenOperatorMenu())
    for _ in range(MAX_FAILURES - 1):
        type_keys(app, "1111\n")
    app.table.close()
    again = _app(tmp_path, config)
    again.go(OpenOperatorMenu())
    type_keys(again, "1111\n")  # the fifth in a row, across the restart
    assert len(again.table.ledger.event_log("pin_locked")) == 1
    again.table.close()
