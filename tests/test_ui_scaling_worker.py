"""The thread that scales a screen's frames (etg.ui.screen): one for the process, kept from
frame to frame, so that handing a frame over never waits for a thread to start."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pygame
import pytest

from etg.ui import screen as screen_module
from etg.ui.screen import Screen

WINDOW = (1280, 800)


@pytest.fixture
def window() -> Iterator[pygame.Surface]:
    pygame.display.init()
    surface = pygame.display.set_mode(WINDOW)
    yield surface
    pygame.display.quit()


def test_every_frame_of_every_screen_is_scaled_on_the_same_kept_thread(
        window: pygame.Surface, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[threading.Thread] = []
    run = screen_module._Scaling.run

    def noted(job: screen_module._Scaling) -> None:
        threads.append(threading.current_thread())
        run(job)

    monkeypatch.setattr(screen_module._Scaling, "run", noted)
    table = Screen(window, lambda: window, None)
    dealer = Screen(window, lambda: window, None)  # a second display of the same cabinet
    for n in range(6):
        for screen in (table, dealer):
            screen.begin().fill((40 * n, 20, 200 - 30 * n))
            screen.present()
    table.close()
    dealer.close()
    assert len(threads) == 12
    assert len({id(t) for t in threads}) == 1  # started once, not once a frame
    assert threads[0] is not threading.main_thread() and threads[0].is_alive()
    assert threads[0].name == "etg-scale" and threads[0].daemon


def test_a_frame_whose_scaling_fails_raises_in_the_frame_and_the_next_is_scaled(
        window: pygame.Surface) -> None:
    screen = Screen(window, lambda: window, None)
    screen.begin().fill((200, 30, 30))
    screen.present()
    job = screen._scaling
    assert job is not None
    job.done.wait()
    # A real fault: the next frame's canvas is one the scaling cannot read (an 8-bit
    # surface: smoothscale takes only 24- and 32-bit ones).
    screen.canvas = pygame.Surface((1920, 1080), depth=8)
    screen.present()
    with pytest.raises(ValueError):
        screen.close()
    screen.begin().fill((30, 200, 30))
    screen.present()
    r, g, b, _ = screen.window.get_at((640, 400))
    # The thread lived on: the next frame reached the window (smoothscale rounds by 2 or so).
    assert all(abs(x - y) <= 3 for x, y in zip((r, g, b), (30, 200, 30), strict=True))
