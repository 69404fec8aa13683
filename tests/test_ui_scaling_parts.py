"""What a scaled frame scales (etg.ui.scaling, etg.ui.screen): the spans of the changed tiles
are scaled straight into the window, the rest of the window is left alone, and it still shows
each frame exactly as scaling it whole would."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pygame
import pytest

from etg.ui.canvas import LOGICAL
from etg.ui.scaling import GAP, Grid, changed, changed_tiles, comparison_shape, spans
from etg.ui.screen import Screen
from tests.test_ui_screen_scaling import busy_canvas, scaled_whole, scribbled

GRID = Grid(60, 40)  # 1920×1080 onto 1280×720


@pytest.fixture
def window() -> Iterator[pygame.Surface]:
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((1280, 800))
    yield surface
    pygame.display.quit()


def tiles_of(*rows: str) -> np.ndarray:
    return np.array([[c == "#" for c in row] for row in rows])


def test_spans_are_each_bands_runs_of_changed_tiles_joined_down_the_bands() -> None:
    """A run goes on over up to GAP unchanged tiles (one call rather than two), not past."""
    assert GAP == 4
    tiles = tiles_of("##...#..",
                     "##...#..",
                     "##.....#")
    assert spans(tiles, GRID) == [pygame.Rect(0, 0, 360, 120),  # two bands of one span
                                  pygame.Rect(0, 120, 120, 60),  # five unchanged: two spans
                                  pygame.Rect(420, 120, 60, 60)]
    assert spans(tiles_of("........"), GRID) == []


def test_the_tiles_found_with_a_scratch_are_those_found_without(window: pygame.Surface) -> None:
    before = busy_canvas(11)
    after = scribbled(before, 12)
    scratch = np.empty(comparison_shape(before, GRID), np.bool_)
    found = changed_tiles(after, before, GRID, scratch)
    assert np.array_equal(found, changed_tiles(after, before, GRID))
    assert 0 < found.sum() < found.size // 4
    assert spans(found, GRID) == changed(after, before, GRID)
    # Every changed tile is in a span.
    covered = np.zeros_like(found)
    for area in spans(found, GRID):
        covered[area.top // 60:area.bottom // 60, area.left // 60:area.right // 60] = True
    assert not (found & ~covered).any()


def test_the_picture_is_scaled_straight_into_the_window_and_only_the_spans_are_written(
        window: pygame.Surface) -> None:
    screen = Screen(window, lambda: window, None)
    picture = screen._scaled
    assert picture is not None and picture.get_parent() is window  # no picture of its own
    assert picture.get_abs_offset() == (0, 40) and picture.get_size() == (1280, 720)
    frame = busy_canvas(13)
    screen.begin().blit(frame, (0, 0))
    screen.present()
    # Marks in the window where tiles (band 5, column 7), (band 6, column 7) and (band 5,
    # column 15) land (the picture starts 40 px down, below the bar): none of them changes.
    in_span, below, past_gap = ((7 * 40 + 5, 40 + 5 * 40 + 5), (7 * 40 + 5, 40 + 6 * 40 + 5),
                                (15 * 40 + 5, 40 + 5 * 40 + 5))
    for mark in (in_span, below, past_gap):
        screen.window.set_at(mark, (255, 0, 255))
    for column in (5, 9, 21):  # band 5: a gap of three tiles, then one of eleven
        frame.fill((255, 255, 255), (column * 60 + 10, 5 * 60 + 10, 20, 20))
    screen.begin().blit(frame, (0, 0))
    screen.present()
    shown = screen.window
    # Band 5's span, columns 5 to 9, is scaled again whole: the mark in it is painted over
    # with what the canvas holds there; band 6, and band 5 past the long gap, are left.
    assert tuple(shown.get_at(in_span))[:3] != (255, 0, 255)
    assert tuple(shown.get_at(below))[:3] == (255, 0, 255)
    assert tuple(shown.get_at(past_gap))[:3] == (255, 0, 255)
    for column in (5, 9, 21):
        r, g, b, _ = shown.get_at((column * 40 + 13, 40 + 5 * 40 + 13))  # its middle
        assert min(r, g, b) >= 250  # each square, scaled


@pytest.mark.parametrize("size", [(1280, 800), (3840, 2160)])
def test_the_window_shows_every_frame_as_its_canvas_scaled_whole(size: tuple[int, int]) -> None:
    pygame.display.init()
    pygame.font.init()
    try:
        window = pygame.display.set_mode(size)
        screen = Screen(window, lambda: window, None)
        x, y, w, h = screen.viewport.content_rect
        frame = busy_canvas(14)
        for n in range(5):
            screen.begin().blit(frame, (0, 0))
            screen.present()
            shown = pygame.image.tobytes(screen.window.subsurface((x, y, w, h)), "RGB")
            assert shown == scaled_whole(frame, (w, h))
            frame = scribbled(frame, 30 + n)
    finally:
        pygame.display.quit()


def test_a_scaled_screen_has_made_its_canvases_and_picture_before_its_first_frame(
        window: pygame.Surface) -> None:
    screen = Screen(window, lambda: window, None)
    made = list(screen._canvases)
    picture = screen._scaled
    assert len(made) == 3 and picture is not None and picture.get_size() == (1280, 720)
    for n in range(8):
        canvas = screen.begin()
        assert any(canvas is c for c in made)  # none made by a frame
        canvas.fill((20 * n, 90, 40))
        screen.present()
    screen.close()
    assert screen._scaled is picture
    pygame.display.set_mode((1024, 768))
    screen.resized()  # a new size: made again at once, for that size
    assert screen._scaled is not None and screen._scaled.get_size() == (1024, 576)
    assert len(screen._canvases) == 3
    assert not any(new is old for new in screen._canvases for old in made)


def test_a_screen_of_the_canvas_size_makes_nothing_more() -> None:
    pygame.display.init()
    try:
        window = pygame.display.set_mode(LOGICAL)
        screen = Screen(window, lambda: window, None)
        assert screen._canvases == [window] and screen._scaled is None
    finally:
        pygame.display.quit()
