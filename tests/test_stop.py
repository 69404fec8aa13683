"""etg.stop: SIGTERM noted politely or raised, SDL kept from taking it, the handler put back.

Real signals, sent to this very process (``os.kill(os.getpid(), SIGTERM)``): the
handler runs as it would for systemd's stop.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pygame
import pytest

from etg import stop
from etg.config.loader import load_cabinet
from etg.config.places import shipped_config_dir
from etg.ledger.store import Ledger
from etg.ui.kiosk import show_fault
from etg.ui.options import RunOptions
from tests.kiosk_support import make_app


def sigterm_self() -> None:
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.01)  # the handler runs at the next instruction; this is a few of them


def test_raising_ends_the_work_with_one_line_and_exit_143(
        capsys: pytest.CaptureFixture[str]) -> None:
    before = signal.getsignal(signal.SIGTERM)
    reached = []
    with pytest.raises(SystemExit) as ended, stop.on_sigterm("etg test", raising=True):
        sigterm_self()
        reached.append("after the signal")
    assert ended.value.code == stop.EXIT_CODE == 143
    assert reached == []
    assert capsys.readouterr().err == "etg test: stopped by SIGTERM\n"
    assert signal.getsignal(signal.SIGTERM) == (
        signal.SIG_DFL if before is None else before)
    assert not stop.requested()


def test_a_second_sigterm_never_cuts_the_clean_up_short() -> None:
    cleaned = []
    with pytest.raises(SystemExit), stop.on_sigterm("etg test", raising=True):
        try:
            sigterm_self()
        finally:
            sigterm_self()  # e.g. systemd's stop repeated while temporary files go
            cleaned.append(True)
    assert cleaned == [True]


def test_politely_the_request_is_only_noted_until_the_command_checks() -> None:
    steps = []
    with pytest.raises(SystemExit) as ended, stop.on_sigterm("etg test"):
        assert not stop.requested()
        stop.check()  # nothing asked yet: goes on
        sigterm_self()
        steps.append("the commit in hand finished")
        assert stop.requested()
        stop.check()
        steps.append("never")
    assert ended.value.code == stop.EXIT_CODE
    assert steps == ["the commit in hand finished"]
    assert not stop.requested()  # the next command starts afresh


def test_a_polite_command_that_stops_on_its_own_exits_as_it_chooses() -> None:
    with stop.on_sigterm("etg test"):
        sigterm_self()
        assert stop.requested()  # the kiosk sees this at its next frame and shuts down
    assert not stop.requested()


def test_sdl_started_inside_keeps_the_handler_so_sigterm_still_stops() -> None:
    # SDL installs its own (SIGTERM as a quit event) only over the default handler.
    already = pygame.display.get_init()
    try:
        with pytest.raises(SystemExit) as ended, stop.on_sigterm("etg test", raising=True):
            pygame.display.init()
            sigterm_self()
        assert ended.value.code == stop.EXIT_CODE
        assert not any(e.type == pygame.QUIT for e in pygame.event.get())
    finally:
        if not already:
            pygame.display.quit()


def test_the_kiosk_s_frame_loop_ends_on_sigterm_and_the_ledger_closes_with_its_shutdown(
        tmp_path: Path) -> None:
    app = make_app(tmp_path, demo=True)
    app.options.frames = 100  # without the stop, it would end here (the demo has no --rounds)
    with stop.on_sigterm("etg run"):
        sigterm_self()
        app.run()
    assert app.frames == 0 and not app.quit_requested  # stopped before a frame, not quit
    app.table.close()
    ledger = Ledger.open_readonly(tmp_path / "table.db")
    try:
        assert [e["kind"] for e in ledger.event_log()][-1] == "shutdown"
    finally:
        ledger.close()


def test_the_fault_screen_gives_way_to_sigterm(tmp_path: Path) -> None:
    cabinet = load_cabinet(shipped_config_dir() / "cabinet.yaml")
    with stop.on_sigterm("etg run"):
        sigterm_self()
        shown = show_fault(cabinet, RunOptions(headless=True), "the ledger cannot be opened",
                           frames=20)  # else: until a technician acts
    assert shown == 0
