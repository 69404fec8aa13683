"""A screen smaller than the canvas: each frame is scaled on a thread while the next one is
drawn (etg.ui.screen), and the display still gets every frame, whole and in order."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from etg.ui.canvas import LOGICAL
from etg.ui.screen import Screen

WINDOW = (1280, 800)
COLOURS = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (220, 220, 40), (240, 240, 240)]


@pytest.fixture
def window() -> Iterator[pygame.Surface]:
    pygame.display.init()
    surface = pygame.display.set_mode(WINDOW)
    yield surface
    pygame.display.quit()


def middle(surface: pygame.Surface) -> tuple[int, int, int]:
    r, g, b, _ = surface.get_at((surface.get_width() // 2, surface.get_height() // 2))
    return r, g, b


def near(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """The same colour but for the filter's rounding (smoothscale loses up to 2 a channel)."""
    return all(abs(x - y) <= 3 for x, y in zip(a, b, strict=True))


def test_every_frame_reaches_the_display_whole_and_in_order(window: pygame.Surface) -> None:
    shown: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
    screen = Screen(window, lambda: window, lambda: shown.append(
        (middle(window), tuple(window.get_at((5, 5)))[:3])))  # type: ignore[arg-type]
    for colour in COLOURS:
        canvas = screen.begin()
        scaling = screen._scaling  # the last frame's, if still under way
        if scaling is not None and not scaling.done.is_set():
            assert canvas is not scaling.canvas  # never drawn over while it is scaled
        assert canvas.get_size() == LOGICAL
        canvas.fill(colour)
        screen.present()
    # Each frame is shown as the next one is presented, scaled in full: its colour in the
    # middle, the bars above and below the 16:9 picture black.
    assert len(shown) == len(COLOURS) - 1
    for (seen, bar), colour in zip(shown, COLOURS, strict=False):
        assert near(seen, colour) and bar == (0, 0, 0)
    assert near(middle(screen.window), COLOURS[-1])  # the last one, finished when looked at


def test_a_screen_of_the_canvas_size_is_drawn_on_directly(window: pygame.Surface) -> None:
    pygame.display.set_mode(LOGICAL)
    direct = pygame.display.get_surface()
    flips: list[tuple[int, int, int]] = []
    screen = Screen(direct, lambda: direct, lambda: flips.append(middle(direct)))
    for colour in COLOURS[:2]:
        assert screen.begin() is direct
        direct.fill(colour)
        screen.present()
    assert flips == COLOURS[:2]  # shown at once, no frame late


def test_a_window_resized_mid_scaling_gets_the_next_frame_at_its_new_size(
        window: pygame.Surface) -> None:
    screen = Screen(window, pygame.display.get_surface, None)
    screen.begin().fill(COLOURS[0])
    screen.present()  # being scaled for 1280x800 now
    pygame.display.set_mode((1024, 768), pygame.RESIZABLE)
    screen.resized()  # that picture is dropped: it never reaches the new window
    assert screen.window.get_size() == (1024, 768)
    screen.begin().fill(COLOURS[1])
    screen.present()
    shown = screen.window
    assert shown.get_size() == (1024, 768) and near(middle(shown), COLOURS[1])
    assert tuple(shown.get_at((5, 5)))[:3] == (0, 0, 0)  # the bars of a 16:9 picture
