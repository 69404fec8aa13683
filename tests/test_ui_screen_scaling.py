"""A screen smaller than the canvas: each frame is scaled on a thread while the next one is
drawn (etg.ui.screen), and the display still gets every frame, whole and in order."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest

from etg.ui.canvas import LOGICAL
from etg.ui.scaling import (
    Grid,
    changed,
    changed_tiles,
    grid_for,
    reached_tiles,
    scale,
    scale_parts,
    tiles_to_scale,
)
from etg.ui.screen import HANDOVER_S, Screen
from tests import kiosk_support as k

WINDOW = (1280, 800)
COLOURS = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (220, 220, 40), (240, 240, 240)]


@pytest.fixture
def window() -> Iterator[pygame.Surface]:
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode(WINDOW)
    yield surface
    pygame.display.quit()


def middle(surface: pygame.Surface) -> tuple[int, int, int]:
    r, g, b, _ = surface.get_at((surface.get_width() // 2, surface.get_height() // 2))
    return r, g, b


def middle_of(surface: pygame.Surface, at: tuple[int, int]) -> tuple[int, int, int]:
    r, g, b, _ = surface.get_at(at)
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


def test_a_resized_window_gets_the_next_frame_at_its_new_size(window: pygame.Surface) -> None:
    screen = Screen(window, pygame.display.get_surface, None)
    screen.begin().fill(COLOURS[0])
    screen.present()  # being scaled into the 1280x800 window now
    # A window's size changes only with no scaling under way: SDL frees its pixels then
    # (the App closes its screens before it reads the events that resize them).
    screen.close()
    pygame.display.set_mode((1024, 768), pygame.RESIZABLE)
    screen.resized()
    assert screen.window.get_size() == (1024, 768)
    screen.begin().fill(COLOURS[1])
    screen.present()
    shown = screen.window
    assert shown.get_size() == (1024, 768) and near(middle(shown), COLOURS[1])
    assert tuple(shown.get_at((5, 5)))[:3] == (0, 0, 0)  # the bars of a 16:9 picture


# Scaling in parts (etg.ui.scaling): only the tiles that changed since the last frame scaled
# are scaled again into the window, where that gives the very pixels scaling the
# whole frame gives.

# Displays (the scaled picture's size) whose scaling is claimed exact in parts.
IN_PARTS = [(1920, 1080), (3840, 2160), (1280, 720), (960, 540), (640, 360), (1024, 576),
            (1536, 864)]
# And some that are not: enlarged by a fraction, a box filter whose steps are not exact in
# 16.16 fixed point, a picture not of the canvas's shape (1366×768's is 1365×768).
WHOLE_ONLY = [(2560, 1440), (1440, 810), (1600, 900), (1365, 768), (1280, 800)]


def busy_canvas(seed: int, size: tuple[int, int] = LOGICAL, depth: int = 0) -> pygame.Surface:
    """A canvas of sharp-edged rectangles of every colour, hairlines and text: what a filter
    that read across a tile's edge, or started a tile at the wrong phase, would get wrong."""
    rng = random.Random(seed)
    canvas = pygame.Surface(size, depth=depth) if depth else pygame.Surface(size).convert()
    canvas.fill((20, 90, 40))
    for _ in range(400):
        colour = [rng.randrange(256) for _ in range(3)]
        canvas.fill(colour, (rng.randrange(size[0]), rng.randrange(size[1]),
                             rng.randrange(1, 90), rng.randrange(1, 90)))
    for y in range(7, size[1], 61):
        pygame.draw.line(canvas, (255, 255, 255), (0, y), (size[0] - 1, y + 13), 1)
    font = pygame.font.Font(None, 31)
    for n in range(40):
        canvas.blit(font.render(f"PLACE YOUR BETS 0:{n:02d}", True, (250, 220, 90)),
                    (rng.randrange(size[0] - 200), rng.randrange(size[1] - 30)))
    return canvas


def scaled_whole(canvas: pygame.Surface, size: tuple[int, int]) -> bytes:
    target = pygame.Surface(size).convert()
    scale(canvas, target)
    return pygame.image.tobytes(target, "RGB")


def scribbled(canvas: pygame.Surface, seed: int) -> pygame.Surface:
    """``canvas`` with a few small things changed, as a frame changes the last one."""
    rng = random.Random(seed)
    after = canvas.copy()
    for _ in range(12):
        after.fill([rng.randrange(256) for _ in range(3)],
                   (rng.randrange(1900), rng.randrange(1060), rng.randrange(1, 70), 9))
    after.set_at((1919, 1079), (1, 2, 3))  # the very last pixel: the last tile counts too
    return after


@pytest.mark.parametrize("size", IN_PARTS)
def test_the_changed_parts_scaled_give_the_pixels_the_whole_frame_scaled_gives(
        window: pygame.Surface, size: tuple[int, int]) -> None:
    grid = grid_for(LOGICAL, size)
    assert grid is not None
    before = busy_canvas(1)
    after = scribbled(before, 2)
    target = pygame.Surface(size).convert()
    scale(before, target)  # the last frame's picture
    areas = changed(after, before, grid)
    placed = scale_parts(after, target, areas, grid)
    assert pygame.image.tobytes(target, "RGB") == scaled_whole(after, size)
    # Only the changed tiles were scaled: far less than the frame.
    assert 0 < sum(p.w * p.h for p in placed) < size[0] * size[1] // 4
    assert [grid.on_display(a) for a in areas] == placed


@pytest.mark.parametrize("size", WHOLE_ONLY)
def test_a_display_where_only_the_whole_is_exact_is_scaled_whole(
        window: pygame.Surface, size: tuple[int, int]) -> None:
    assert grid_for(LOGICAL, size) is None


def test_the_displays_the_cabinets_use_are_scaled_in_parts() -> None:
    # The 16:10 1280x800 and 4K panels: their pictures are 1280x720 and 3840x2160.
    assert grid_for(LOGICAL, (1280, 720)) == Grid(60, 40)
    assert grid_for(LOGICAL, (3840, 2160)) == Grid(60, 120)


def test_twice_the_canvas_is_every_pixel_repeated_exactly(window: pygame.Surface) -> None:
    canvas = busy_canvas(3)
    pixels = np.frombuffer(pygame.image.tobytes(canvas, "RGB"), np.uint8).reshape(1080, 1920, 3)
    doubled = pixels.repeat(2, axis=0).repeat(2, axis=1)
    assert scaled_whole(canvas, (3840, 2160)) == doubled.tobytes()


def test_the_changed_areas_are_the_tiles_holding_the_changed_pixels(
        window: pygame.Surface) -> None:
    grid = Grid(60, 40)
    before = busy_canvas(4)
    assert changed(before.copy(), before, grid) == []
    after = before.copy()
    after.set_at((61, 119), (1, 2, 3))  # one pixel, in the second tile of the second band
    after.set_at((250, 70), (1, 2, 3))  # two tiles on in the same band: one span across both
    after.set_at((1000, 70), (1, 2, 3))  # far along it (past GAP tiles): a span of its own
    after.set_at((1000, 130), (1, 2, 3))  # the same span's tile in the band below: merged
    after.set_at((1919, 1079), (1, 2, 3))  # the very last tile
    assert changed(after, before, grid) == [pygame.Rect(60, 60, 300 - 60, 60),
                                            pygame.Rect(960, 60, 60, 120),
                                            pygame.Rect(1860, 1020, 60, 60)]


def test_the_tiles_areas_reach_hold_every_change_inside_them(window: pygame.Surface) -> None:
    """:func:`reached_tiles`, given areas holding every change (as the table's notes give
    them), holds every tile the comparison finds changed, and no tile they miss."""
    rng = random.Random(7)
    before = busy_canvas(5)
    for grid in (grid_for(LOGICAL, (1280, 720)), grid_for(LOGICAL, (3840, 2160))):
        assert grid is not None
        for _ in range(40):
            after = before.copy()
            areas = []
            for _ in range(rng.randint(0, 6)):
                area = pygame.Rect(rng.randrange(-40, 1900), rng.randrange(-40, 1070),
                                   rng.randint(1, 400), rng.randint(1, 300))
                areas.append(area)
                after.fill(rng.choice(COLOURS), area)
            reached = reached_tiles(LOGICAL, grid, areas)
            assert not (changed_tiles(after, before, grid) & ~reached).any()
            t = grid.tile
            for band, column in zip(*np.nonzero(reached), strict=True):
                tile = pygame.Rect(column * t, band * t, t, t)
                assert tile.collidelist(areas) != -1


def test_areas_reaching_most_of_the_canvas_are_compared_and_few_are_scaled_as_told(
        window: pygame.Surface) -> None:
    """:func:`tiles_to_scale`: told the canvases may differ anywhere (the whole layer
    changed, as when the bets close), it scales only the tiles that differ; told of a few
    areas, every tile they reach, unchanged or not; told nothing, what comparing finds."""
    grid = grid_for(LOGICAL, (3840, 2160))
    assert grid is not None
    before = busy_canvas(5)
    after = before.copy()
    after.fill((1, 2, 3), (130, 70, 100, 20))  # tiles (2..3, 1): two of the 576
    after.set_at((1900, 1060), (1, 2, 3))  # the last tile
    changed = changed_tiles(after, before, grid)
    assert int(changed.sum()) == 3
    whole = [pygame.Rect(0, 0, *LOGICAL)]
    assert np.array_equal(tiles_to_scale(after, before, grid, whole), changed)
    most = [pygame.Rect(0, 0, 1920, 600), pygame.Rect(1860, 1020, 60, 60)]  # 321 tiles
    assert np.array_equal(tiles_to_scale(after, before, grid, most), changed)
    few = [pygame.Rect(120, 60, 300, 120)]  # 10 tiles, of which two changed
    assert np.array_equal(tiles_to_scale(after, before, grid, few),
                          reached_tiles(LOGICAL, grid, few))
    assert int(tiles_to_scale(after, before, grid, few).sum()) == 10
    assert np.array_equal(tiles_to_scale(after, before, grid, None), changed)


def test_on_a_24_bit_canvas_changes_are_found_by_their_bytes(window: pygame.Surface) -> None:
    before = busy_canvas(5, depth=24)
    assert before.get_bytesize() == 3
    after = before.copy()
    after.set_at((179, 0), (0, 0, 1))  # one byte of one pixel, on a tile's last column
    assert changed(after, before, Grid(60, 40)) == [pygame.Rect(120, 0, 60, 60)]


def shown_picture(screen: Screen) -> bytes:
    window = screen.window
    x, y, w, h = screen.viewport.content_rect
    return pygame.image.tobytes(window.subsurface((x, y, w, h)), "RGB")


def test_the_window_shows_each_frame_as_scaling_it_whole_would(window: pygame.Surface) -> None:
    screen = Screen(window, lambda: window, None)
    frame = busy_canvas(6)
    for n in range(4):
        screen.begin().blit(frame, (0, 0))
        screen.present()
        assert shown_picture(screen) == scaled_whole(frame, (1280, 720))
        assert window.get_at((3, 3)) == (0, 0, 0) and window.get_at((1276, 796)) == (0, 0, 0)
        frame = scribbled(frame, 10 + n)


def test_frames_drawn_while_the_last_is_scaled_take_three_canvases_in_turn(
        window: pygame.Surface) -> None:
    screen = Screen(window, lambda: window, None)
    frame = busy_canvas(8)
    drawn: list[pygame.Surface] = []
    for n in range(8):
        canvas = screen.begin()
        job = screen._scaling
        if drawn:
            assert canvas is not drawn[-1]  # the next frame is compared with it
        if job is not None and not job.done.is_set():
            assert canvas is not job.canvas and canvas is not job.reference
        canvas.blit(frame, (0, 0))
        drawn.append(canvas)
        screen.present()
        frame = scribbled(frame, 20 + n)
    assert len({id(c) for c in drawn}) <= 3
    assert shown_picture(screen) == scaled_whole(drawn[-1], (1280, 720))


def test_only_what_changed_is_scaled_into_the_window(window: pygame.Surface) -> None:
    screen = Screen(window, lambda: window, None)
    frame = busy_canvas(7)
    screen.begin().blit(frame, (0, 0))
    screen.present()
    screen.window.set_at((10, 100), (255, 0, 255))  # a mark in a part no frame changes
    frame.fill((255, 255, 255), (1200, 600, 30, 30))
    screen.begin().blit(frame, (0, 0))
    screen.present()
    shown = screen.window
    assert shown.get_at((10, 100)) == (255, 0, 255)  # left alone: that tile did not change
    assert near(middle_of(shown, (810, 440)), (255, 255, 255))  # the new square, scaled


def test_a_scaled_screen_hands_the_interpreter_over_within_a_millisecond(
        window: pygame.Surface) -> None:
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)  # CPython's own
        screen = Screen(window, lambda: window, None)
        screen.begin().fill(COLOURS[0])
        screen.present()
        screen.close()
        assert sys.getswitchinterval() == pytest.approx(HANDOVER_S)
    finally:
        sys.setswitchinterval(before)


def test_no_scaling_is_under_way_while_the_app_reads_the_windows_events(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SDL frees a window's pixels when it handles a resize among the events; the thread
    scales into the window, so it must be done by then, and the last picture shown."""
    config = k.sized(k.config_copy(tmp_path, "maryland-community-7.yaml"), (1280, 800))
    app = k.make_app(tmp_path, "maryland-community-7.yaml", config=config, windowed=True,
                     demo=True)
    read_events = pygame.event.get
    under_way: list[bool] = []
    flipped: list[int] = []

    def get() -> list[pygame.event.Event]:
        under_way.append(app.screen._scaling is not None)  # set going, not yet finished
        flipped.append(app.screen._unshown)
        return read_events()

    monkeypatch.setattr("etg.ui.app.pygame.event.get", get)
    try:
        for _ in range(30):
            app.frame(1 / 60, draw=True)
            assert app.screen._scaling is not None  # set going as the frame presented
        assert len(under_way) == 30 and not any(under_way)
        assert not any(flipped)  # and the picture it made already shown
    finally:
        app.screen.close()
        app.table.ledger.close()


@pytest.mark.slow  # a kiosk in a window playing its demo for some 400 frames: about 10 s
def test_the_kiosk_at_1280x800_shows_every_frame_as_its_canvas_scaled_whole(
        tmp_path: Path) -> None:
    config = k.sized(k.config_copy(tmp_path, "maryland-community-7.yaml"), (1280, 800))
    app = k.make_app(tmp_path, "maryland-community-7.yaml", config=config, windowed=True,
                     demo=True)
    try:
        assert app.window.get_size() == (1280, 800)
        scaled: list[int] = []
        for n in range(400):
            app.frame(1 / 60, draw=True)
            job = app.screen._scaling
            assert job is not None
            job.done.wait()
            scaled.append(sum(p.w * p.h for p in job.placed))
            if n % 20 == 19:  # the picture landed in the window, bars and all
                assert shown_picture(app.screen) == scaled_whole(app.canvas, (1280, 720))
                assert app.window.get_at((640, 20)) == (0, 0, 0)
        assert scaled[0] == 1280 * 720  # the first frame whole
        assert min(scaled[1:]) < 1280 * 720 // 10  # most later ones a few tiles
    finally:
        app.screen.close()
        app.table.ledger.close()
