"""Work moved out of the frames (SPEC §11: a frame under 8 ms): what is made between frames
is what the frames then show, and nothing is made past the deadline it was given."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import time
from pathlib import Path

import pygame
import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.core.state import Phase
from etg.core.wheel import WheelStops
from etg.ui import wheel_celebration as wc
from etg.ui.ahead import WorkAhead
from etg.ui.cards import card_face
from etg.ui.table_scene import TableScene
from etg.ui.wheel import WheelView
from etg.ui.wheel_celebration import POP_SLACK_S, banner_ahead, celebrate, pop_ahead
from tests.kiosk_support import make_app, run_for, run_until


def test_tasks_run_in_order_only_while_their_time_fits() -> None:
    ahead = WorkAhead(first_guess_s=0.001)
    done: list[str] = []
    ahead.add("quick", lambda: done.append("b"))
    ahead.add("quick", lambda: done.append("c"))
    ahead.put_first([("first", lambda: done.append("a"))])
    ahead.run(time.perf_counter() - 1.0)  # the deadline has passed: nothing runs
    assert done == [] and len(ahead) == 3
    ahead.run(time.perf_counter() + 10.0)
    assert done == ["a", "b", "c"] and len(ahead) == 0


def test_a_new_spins_tasks_replace_the_last_ones_never_made() -> None:
    """With no time between frames (a busy machine) the queue stays bounded: each spin's
    pictures take the place of the last spin's."""
    ahead = WorkAhead()
    made: list[int] = []
    ahead.add("face", lambda: made.append(0))
    for spin in range(1, 200):
        ahead.put_first([(("turned", 0), lambda spin=spin: made.append(spin)),
                         (("rest", 0), lambda spin=spin: made.append(-spin))])
    assert len(ahead) == 3
    ahead.run(time.perf_counter() + 10.0)
    assert made == [199, -199, 0]


def test_a_kind_that_took_long_waits_for_a_frame_with_room_for_it() -> None:
    ahead = WorkAhead(first_guess_s=0.0)
    ahead.add("slow", lambda: time.sleep(0.03))
    ahead.add("slow", lambda: time.sleep(0.03))
    ahead.run(time.perf_counter() + 0.02)  # the first guess fits; it then takes 30 ms
    assert len(ahead) == 1
    ahead.run(time.perf_counter() + 0.02)  # 30 ms no longer fits in 20
    assert len(ahead) == 1
    ahead.run(time.perf_counter() + 0.05)
    assert len(ahead) == 0


def test_a_kind_measured_slow_once_is_tried_again() -> None:
    """One slow measure (the machine was busy) must not hold the queue for good: a kind
    passed over window after window is tried again, and what waits behind it is made."""
    ahead = WorkAhead(first_guess_s=0.0)
    made: list[int] = []
    ahead.add("face", lambda: (time.sleep(0.03), made.append(0)))  # busy: 30 ms this once
    for i in range(1, 4):
        ahead.add("face", lambda i=i: made.append(i))  # then quick, as it really is
    ahead.run(time.perf_counter() + 0.02)
    assert made == [0]
    windows = 0
    while len(ahead) and windows < 50:
        ahead.run(time.perf_counter() + 0.02)  # 20 ms windows: 30 ms never fits as measured
        windows += 1
    assert made == [0, 1, 2, 3]
    assert windows <= 8


@pytest.mark.slow  # the whole deck rendered afresh at three widths: about 2 s
def test_the_deck_is_rendered_between_frames_before_the_first_deal(tmp_path: Path) -> None:
    card_face.cache_clear()
    app = make_app(tmp_path, "maryland-community-7.yaml", demo=True)
    scene = app.base
    assert isinstance(scene, TableScene)
    assert len(scene.ahead) >= 3 * 52  # three card widths of the whole deck, backs, titles
    for _ in range(400):  # spare time between frames, as much as a busy machine needs
        app.idle(time.perf_counter() + 5.0)
        if not len(scene.ahead):
            break
    assert len(scene.ahead) == 0
    made = card_face.cache_info().misses
    assert made >= 2 * 52  # the spots' and the history's widths at least (the dealer's may
    # be the spots')
    run_until(app, lambda: app.table.state.round.number >= 1
              and app.table.state.phase is Phase.COMPLETE)
    run_for(app, 2.0, draw=True)  # the deal, drawn
    assert card_face.cache_info().hits > 0
    assert card_face.cache_info().misses == made  # no frame had to make a face


def test_a_spins_pictures_made_ahead_are_the_ones_it_shows() -> None:
    bonus = load_paytable(shipped_config_dir() / "paytables"
                          / "maryland-community-7.yaml").paytable.bonus_spin
    assert bonus is not None
    made_ahead, made_in_frames = WheelView(bonus, 9, 200), WheelView(bonus, 9, 200)
    for view in (made_ahead, made_in_frames):
        view.spin_to(WheelStops(3, 5, 2), 1.0)
    for _, task in made_ahead.work_ahead():
        task()
    for now in (0.5, 1.5, 3.0, 30.0):
        shots = []
        for view in (made_ahead, made_in_frames):
            surface = pygame.Surface((500, 500))
            surface.fill((10, 60, 30))
            view.draw(surface, (250, 250), now)
            shots.append(pygame.image.tobytes(surface, "RGB"))
        assert shots[0] == shots[1], now


def test_the_rings_kept_on_the_felt_draw_the_same_table(tmp_path: Path) -> None:
    """A resting wheel's rings are kept drawn on the table's layer; the frame is the one the
    wheel drawn afresh gives, pixel for pixel."""
    app = make_app(tmp_path, "maryland-community-7.yaml")
    scene = app.base
    assert isinstance(scene, TableScene) and scene.wheel is not None
    wheel = scene.wheel
    assert wheel.still(app.now) is not None
    app.draw()
    kept = pygame.image.tobytes(app.canvas, "RGB")
    drawn = scene._panels.redrawn
    app.draw()
    assert scene._panels.redrawn == drawn  # resting: the rings are not drawn again
    real_still = wheel.still
    wheel.still = lambda now: None  # type: ignore[method-assign]  # every ring drawn afresh
    try:
        app.draw()
    finally:
        wheel.still = real_still  # type: ignore[method-assign]
    assert pygame.image.tobytes(app.canvas, "RGB") == kept
    wheel.spin_to(WheelStops(1, 2, 3), app.now)
    assert wheel.still(app.now + 0.5) is None
    assert wheel.still(app.now + 60.0) is not None


def test_a_resting_wheel_keeps_only_the_turned_copies_made_for_its_next_spin() -> None:
    """Turned copies are up to a megabyte each: a landed ring lets its own go (memory stays
    flat over thousands of spins) but keeps those made ahead for the spin to come."""
    bonus = load_paytable(shipped_config_dir() / "paytables"
                          / "maryland-community-7.yaml").paytable.bonus_spin
    assert bonus is not None
    view = WheelView(bonus, 9, 200)
    surface = pygame.Surface((500, 500))

    def turned() -> dict[tuple[int, int, int], pygame.Surface]:
        return {(k, *key): copy for k, art in enumerate(view.ring_arts)
                for key, copy in art.turned_copies.items()}

    view.spin_to(WheelStops(1, 2, 3), 0.0)
    view.draw(surface, (250, 250), 1.0)  # turning: copies made for this spin
    assert turned()
    view.draw(surface, (250, 250), 100.0)  # landed
    assert turned() == {}
    for _, task in view.work_ahead(WheelStops(4, 5, 6)):
        task()
    ahead = turned()
    assert len(ahead) == 3 * 6  # every ring, every copy
    assert {stop for _, stop, _ in ahead} == {4, 5 - 1, 6}  # the next spin's stops
    view.draw(surface, (250, 250), 101.0)
    assert turned() == ahead
    view.spin_to(WheelStops(4, 5, 6), 102.0)
    assert turned() == ahead


def test_a_popping_title_made_ahead_is_the_one_its_frame_shows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The big win's title pops in with a size for every frame: made between frames for the
    next one, that frame scales nothing and looks as if it had; a frame further off than
    the slack makes its own."""
    canvas = pygame.Rect(0, 0, 1920, 1080)
    scaled: list[tuple[int, int]] = []
    smoothscale = pygame.transform.smoothscale

    def counted(surface: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
        scaled.append(size)
        return smoothscale(surface, size)

    def frame(t: float) -> bytes:
        surface = pygame.Surface(canvas.size)
        surface.fill((10, 60, 30))
        celebrate(surface, canvas, 50.0 + t, 50.0, "BIG WIN!", "SEAT 3  ·  PAID $40.00",
                  rays=False)
        return pygame.image.tobytes(surface, "RGB")

    frame(0.2)  # the title, its halo and the amount's glyphs, made once
    monkeypatch.setattr(pygame.transform, "smoothscale", counted)
    for t in (0.05, 0.2, 0.4):
        scaled.clear()
        drawn_in_frame = frame(t)
        assert len(scaled) == 2  # the halo and the title, scaled in the frame
        pop_ahead(canvas, "BIG WIN!", t)
        scaled.clear()
        assert frame(t) == drawn_in_frame
        assert scaled == []
        frame(t + POP_SLACK_S / 2)
        assert scaled == []
        frame(t + 2 * POP_SLACK_S)
        assert len(scaled) == 2


def test_the_banner_is_as_wide_as_its_line_counted_up_and_made_ahead_of_its_frame() -> None:
    """While the amount counts up, the banner keeps the width of the whole amount's line (it
    does not jump wider as a digit is added), and a frame whose panel and fading line were
    made between frames (:func:`banner_ahead`) makes neither, and looks as if it had."""
    canvas = pygame.Rect(0, 0, 1920, 1080)
    widest = "SEATS 8 · 6 · 5 · 4  ·  PAID $822.00"

    def frame(t: float, amount: str) -> tuple[bytes, list[pygame.Rect]]:
        surface = pygame.Surface(canvas.size)
        surface.fill((10, 60, 30))
        boxes = celebrate(surface, canvas, 50.0 + t, 50.0, "BIG WIN!", amount, lasts=4.5,
                          rays=False, widest=widest)
        return pygame.image.tobytes(surface, "RGB"), boxes

    shown = [frame(t, f"SEATS 8 · 6 · 5 · 4  ·  PAID ${cents / 100:,.2f}")[1][-1]
             for t, cents in ((0.31, 995), (0.4, 10_161), (0.5, 82_200))]
    # the banner's box, as wide as the panel whatever the line shows (its height follows
    # the popping title)
    assert len({(box.left, box.width) for box in shown}) == 1
    for t, cents in ((0.35, 4_321), (0.45, 23_456), (4.2, 82_200)):  # fading in, and out
        amount = f"SEATS 8 · 6 · 5 · 4  ·  PAID ${cents / 100:,.2f}"
        wc._panel.cache_clear()
        wc._banner_in.cache_clear()
        wc._faded_line.cache_clear()
        banner_ahead(canvas, "BIG WIN!", amount, widest, t, 4.5)
        panels, lines = wc._panel.cache_info().misses, wc._faded_line.cache_info().misses
        assert (panels, lines) == (1, 1)
        drawn = frame(t, amount)[0]
        assert (wc._panel.cache_info().misses, wc._faded_line.cache_info().misses) == (1, 1)
        wc._panel.cache_clear()
        wc._banner_in.cache_clear()
        wc._faded_line.cache_clear()
        assert frame(t, amount)[0] == drawn  # made in the frame instead: the same picture
        assert (wc._panel.cache_info().misses, wc._faded_line.cache_info().misses) == (1, 1)
