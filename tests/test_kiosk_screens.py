"""What the kiosk shows: every phase in the demo, the same screen after a power loss,
touch targets a finger can hit, and a clear word when there is no screen at all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.core.commands import CashIn
from etg.core.state import Phase
from etg.ui.input import MIN_TARGET
from etg.ui.layout import TableLayout
from tests import kiosk_support as k

PHASES = ["idle", "betting", "bets_closed", "dealt", "decisions", "war_pending", "war_dealt",
          "bonus_spin", "complete"]
DEMO_SEED = 56  # its first round has a War and a Bonus Spin (found by search, see the test)


def test_the_demo_shows_and_saves_every_phase_of_a_round(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    app = k.make_app(tmp_path, seed=DEMO_SEED, demo=True, screenshots=shots)
    app.options.rounds = 1
    k.run_until(app, lambda: app.quit_requested, limit_s=240)
    names = sorted(p.name for p in shots.iterdir())
    assert [n.split("-", 2)[2].removesuffix(".png") for n in names] == PHASES
    for path in shots.iterdir():
        image = pygame.image.load(path)
        assert image.get_size() == (1920, 1080)
        assert k.not_blank(image), path.name
    assert app.table.ledger.round_count() == 1
    # The demo plays with bots: the ledger says who acted.
    actors = {row["actor"] for row in app.table.ledger.journal_after(0)}
    assert {"demo-player", "demo-dealer"} <= actors
    app.table.ledger.close()


def test_after_a_power_loss_the_screen_shows_the_round_where_it_was(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    config = k.config_copy(tmp_path)
    first = k.make_app(tmp_path, seed=DEMO_SEED, demo=True, db=db, config=config)
    k.run_until(first, lambda: first.table.state.phase is Phase.DECISIONS
                and first.settled, limit_s=240)
    first.draw()
    before = pygame.image.tobytes(first.canvas.subsurface((0, 70, 1920, 1010)), "RGB")
    state = first.table.state
    remaining = first.timekeeper.remaining(first.now)
    assert remaining is not None
    first.table.ledger.close()  # the power goes: no shutdown entry, no goodbye

    again = k.make_app(tmp_path, seed=DEMO_SEED, db=db, config=config)
    # The same instant, and a decision countdown begun as long ago (after a real power loss
    # it starts again in full: see etg.table.timekeeper), so the bulbs and the clock read alike.
    started = first.now - (state.paytable.timers.decision_s - remaining)
    again.timekeeper.deadline(started)
    again.now = first.now
    assert again.table.state == state
    assert again.settled  # nothing to animate: the committed state is simply shown
    again.draw()
    after = pygame.image.tobytes(again.canvas.subsurface((0, 70, 1920, 1010)), "RGB")
    assert after == before  # below the top bar (the demo's badge), pixel for pixel
    again.table.ledger.close()


@pytest.mark.parametrize("paytable", sorted(p.name for p in (shipped_config_dir() / "paytables")
                                            .glob("*.yaml")))
def test_every_touch_target_is_a_finger_wide_and_none_overlap(paytable: str,
                                                              tmp_path: Path) -> None:
    app = k.make_app(tmp_path, paytable=paytable)
    for seat in range(1, app.table.state.paytable.seats + 1):
        app.send(CashIn(seat, 10_000), "attendant")
    k.dealer(app, "shuffle")
    k.dealer(app, "open")
    buttons = list(app.base.buttons(app.now))
    assert len(buttons) > 30
    rects = [pygame.Rect(*map(round, b.rect)) for b in buttons]
    for button, rect in zip(buttons, rects, strict=True):
        assert rect.width >= MIN_TARGET and rect.height >= MIN_TARGET, button.tag
        assert pygame.Rect(0, 0, 1920, 1080).contains(rect), button.tag
    for i, rect in enumerate(rects):
        others = rects[:i] + rects[i + 1:]
        assert rect.collidelist(others) == -1, buttons[i].tag
    layout = TableLayout.for_paytable(load_paytable(shipped_config_dir() / "paytables" / paytable)
                                      .paytable)
    assert all(value % app.table.state.paytable.unit_cents == 0 for value in layout.chip_values)
    app.table.ledger.close()


@pytest.mark.slow
def test_without_a_display_run_says_to_use_headless(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    env.update(SDL_VIDEODRIVER="x11", WAYLAND_DISPLAY="")
    result = subprocess.run(
        [sys.executable, "-m", "etg", "run", "--windowed", "--rounds", "1",
         "--db", str(tmp_path / "t.db")], capture_output=True, text=True, env=env, timeout=120,
        check=False)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--headless" in lines[0], result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_with_no_screen_at_all_sdl_does_not_fall_back_to_drawing_nowhere(tmp_path: Path) -> None:
    # No DISPLAY, no Wayland, no SDL_VIDEODRIVER: SDL would pick its offscreen driver and the
    # kiosk would run forever showing nothing. It must say so in one line, at once (SPEC §6):
    # before any ledger is opened. How fast is not timed here (shared machines are noisy); the
    # generous timeout only stops a kiosk that went on to run forever.
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    db = tmp_path / "t.db"
    result = subprocess.run([sys.executable, "-m", "etg", "run", "--windowed", "--demo",
                             "--db", str(db)], capture_output=True, text=True, env=env,
                            timeout=120, check=False)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "etg run: no display to open a window on (SDL found no screen and fell back to its "
        "offscreen driver); use --headless --demo to run without one"]
    assert not db.exists()  # said before anything was opened


@pytest.mark.slow
def test_headless_without_demo_is_refused_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "etg", "run", "--headless",
                             "--db", str(tmp_path / "t.db")],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2
    assert result.stderr == ("etg run: --headless shows the table to nobody, so no dealer or "
                             "player could act; add --demo (bots deal and play), or use etg "
                             "autoplay\n")
    assert not (tmp_path / "t.db").exists()


@pytest.mark.slow
def test_headless_run_from_the_command_line(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    result = subprocess.run(
        [sys.executable, "-m", "etg", "run", "--headless", "--demo", "--rounds", "1",
         "--seed", "3", "--db", str(tmp_path / "demo.db"), "--screenshots", str(shots)],
        capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    names = [p.name for p in sorted(shots.iterdir())]
    assert names[0].endswith("round0001-idle.png") and names[-1].endswith("-complete.png")


def test_a_smaller_window_scales_the_canvas_and_touches_still_land(tmp_path: Path) -> None:
    # SDL's dummy driver (set for the tests) stands in for a 1280x720 window.
    config = k.sized(k.config_copy(tmp_path), (1280, 720))
    app = k.make_app(tmp_path, config=config, windowed=True)
    try:
        assert app.window.get_size() == (1280, 720)
        assert app.viewport.scale == 2 / 3
        app.send(CashIn(2, 10_000), "attendant")
        k.dealer(app, "shuffle")
        k.dealer(app, "open")  # the mouse lands at 2/3 of the logical position
        k.tap(app, "seat:2:chip:500")
        k.tap(app, "seat:2:initial:3")
        assert app.table.state.round.wagers[1][2].initial == 500
        app.frame(1 / 60, draw=True)  # drawn on the logical canvas, then scaled to the window
        assert app.canvas is not app.window
        assert k.not_blank(pygame.transform.scale(app.window, (1920, 1080)))
    finally:
        app.table.ledger.close()
