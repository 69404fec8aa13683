"""A frame of the table puts back only what the last frame on its canvas drew over the kept
layer (:mod:`etg.ui.overdraw`), and looks exactly as if the layer were blitted whole."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pygame
import pytest

from etg.core.state import Phase
from etg.table.bots import busiest_bots
from etg.ui import overdraw
from etg.ui import screen as screen_module
from etg.ui.animations import BigWin
from etg.ui.app import App
from etg.ui.canvas import LOGICAL
from etg.ui.demo import DemoDirector
from etg.ui.overdraw import SLACK, CanvasNotes, Overdraw, _copied_fast, _uncovered, put_back
from etg.ui.overdraw import _draw_inside as draw_inside
from etg.ui.panel_layer import CHANGES_KEPT, Panel, PanelLayer
from etg.ui.scaling import scale
from etg.ui.table_scene import TableScene
from etg.ui.toasts import draw_toasts
from tests import kiosk_support as k


def _gradient(size: tuple[int, int] = (200, 60)) -> pygame.Surface:
    surface = pygame.Surface(size)
    for x in range(size[0]):
        pygame.draw.line(surface, (x % 256, 255 - x % 256, 90), (x, 0), (x, size[1] - 1))
    return surface


def _filled(rect: pygame.Rect, colour: tuple[int, int, int]) -> Panel:
    def draw(surface: pygame.Surface) -> None:
        surface.fill(colour, rect)
    return Panel(rect, colour, draw, margin=2)


def test_the_layer_numbers_its_changes_and_keeps_their_areas_for_a_few() -> None:
    base, other = _gradient(), _gradient()
    left, right = pygame.Rect(10, 10, 40, 40), pygame.Rect(100, 10, 40, 40)
    layer = PanelLayer()
    layer.over(base, [_filled(left, (200, 0, 0)), _filled(right, (0, 200, 0))])
    first = layer.version
    assert layer.changes_since(0) is None  # made whole from its background
    assert layer.changes_since(first) == []
    layer.over(base, [_filled(left, (200, 0, 0)), _filled(right, (0, 200, 0))])
    assert layer.version == first  # nothing changed: no new number
    layer.over(base, [_filled(left, (0, 0, 200)), _filled(right, (0, 200, 0))])
    assert layer.version == first + 1
    assert layer.changes_since(first) == [left.inflate(4, 4)]  # the panel and its margin
    for shade in range(CHANGES_KEPT):
        layer.over(base, [_filled(left, (shade, 0, 0)), _filled(right, (0, 200, 0))])
    assert layer.changes_since(first) is None  # older than the changes kept
    assert layer.changes_since(layer.version - 2) == [left.inflate(4, 4)] * 2
    before = layer.version
    layer.over(other, [_filled(left, (1, 2, 3)), _filled(right, (0, 200, 0))])
    assert layer.changes_since(before) is None  # a new background: changed whole


def test_putting_back_the_areas_drawn_over_gives_the_layer_again() -> None:
    layer = _gradient()
    canvas = layer.copy()
    over = Overdraw()
    over.add(pygame.draw.circle(canvas, (255, 255, 255), (40, 30), 12))
    over.add(canvas.fill((0, 0, 0), (150, 5, 20, 8)))
    assert pygame.image.tobytes(canvas, "RGB") != pygame.image.tobytes(layer, "RGB")
    untouched = canvas.get_at((100, 30))
    canvas.set_at((100, 30), (1, 2, 3))  # not drawn over, so not put back
    put_back(canvas, layer, over.kept().areas)
    assert tuple(canvas.get_at((100, 30)))[:3] == (1, 2, 3)
    canvas.set_at((100, 30), untouched)
    assert pygame.image.tobytes(canvas, "RGB") == pygame.image.tobytes(layer, "RGB")
    assert over.areas[1] == pygame.Rect(150 - SLACK, 5 - SLACK, 20 + 2 * SLACK, 8 + 2 * SLACK)


def test_an_area_inside_another_is_put_back_once_and_each_whole() -> None:
    layer = _gradient((400, 100))
    canvas = layer.copy()
    banner, flake, edge = pygame.Rect(48, 10, 200, 60), pygame.Rect(60, 20, 10, 10), \
        pygame.Rect(0, 80, 33, 10)
    for area in (banner, flake, edge):
        canvas.fill((255, 255, 255), area)
    assert _uncovered([flake, banner, edge, banner.copy()]) == [banner, edge]
    put_back(canvas, layer, [flake, banner, edge, banner.copy()])
    assert pygame.image.tobytes(canvas, "RGB") == pygame.image.tobytes(layer, "RGB")
    for area in (banner, flake, edge, pygame.Rect(61, 5, 7, 7)):
        grown = _copied_fast(area)  # a row SDL copies without its slow remainder
        assert grown.contains(area)
        assert grown.x % 4 or grown.width % 16 == 0
        assert grown.width <= area.width + 15


def test_most_of_the_canvas_or_an_unknown_area_is_put_back_whole() -> None:
    layer = _gradient()
    canvas = layer.copy()
    canvas.set_at((199, 59), (1, 2, 3))  # outside every area given
    put_back(canvas, layer, [pygame.Rect(0, 0, 150, 60)])  # three quarters: one whole blit
    assert canvas.get_at((199, 59)) == layer.get_at((199, 59))
    canvas.set_at((199, 59), (1, 2, 3))
    over = Overdraw()
    over.add(pygame.Rect(0, 0, 5, 5))
    over.everything()  # something whose box is not known
    assert over.kept().areas is None
    put_back(canvas, layer, over.kept().areas)
    assert canvas.get_at((199, 59)) == layer.get_at((199, 59))


def test_disjoint_pieces_cover_each_pixel_of_the_rectangles_once() -> None:
    rects = [pygame.Rect(0, 0, 30, 20), pygame.Rect(10, 5, 30, 30), pygame.Rect(12, 8, 4, 4),
             pygame.Rect(50, 50, 0, 9), pygame.Rect(35, 0, 10, 40)]
    pieces = overdraw.disjoint_pieces(rects)
    counts = pygame.Surface((60, 60))
    for piece in pieces:
        for x in range(piece.left, piece.right):
            for y in range(piece.top, piece.bottom):
                assert counts.get_at((x, y))[0] == 0, (x, y)
                counts.set_at((x, y), (1, 0, 0))
    covered = {(x, y) for r in rects for x in range(r.left, r.right) for y in range(r.top, r.bottom)}
    assert {(x, y) for x in range(60) for y in range(60) if counts.get_at((x, y))[0]} == covered


def _rim(surface: pygame.Surface) -> list[pygame.Rect]:
    """A translucent ring of a standing overlay: blended twice anywhere, it shows."""
    ring = pygame.Surface((80, 40), pygame.SRCALPHA)
    pygame.draw.rect(ring, (250, 200, 40, 120), ring.get_rect(), width=6)
    return [surface.blit(ring, (60, 10))]


def test_a_standing_overlay_is_left_and_drawn_again_only_where_something_crossed_it() -> None:
    layer = _gradient()
    canvas = layer.copy()
    first = Overdraw()
    overdraw.put_back_and_stand(canvas, layer, None, [overdraw.Standing("lit", _rim)], first)
    flake = pygame.draw.circle(canvas, (255, 255, 255), (64, 14), 9)  # over the ring's corner
    first.add(flake)
    expected = layer.copy()
    _rim(expected)
    drawn: list[pygame.Rect] = []

    def rim_noting(surface: pygame.Surface) -> list[pygame.Rect]:
        drawn.append(surface.get_clip())
        return _rim(surface)

    second = Overdraw()
    held = first.kept()
    overdraw.put_back_and_stand(canvas, layer, held, [overdraw.Standing("lit", rim_noting)],
                                second)
    assert pygame.image.tobytes(canvas, "RGB") == pygame.image.tobytes(expected, "RGB")
    assert drawn and all(flake.inflate(2 * SLACK + 2, 2 * SLACK).contains(c) for c in drawn)
    assert second.kept().standing == held.standing  # it stands on
    # another key (the bulbs blink): its old boxes are put back and it is drawn whole
    third = Overdraw()
    canvas.fill((0, 0, 0), (70, 12, 60, 30))  # as if the old picture differed
    overdraw.put_back_and_stand(canvas, layer, second.kept(),
                                [overdraw.Standing("dark", _rim)], third)
    assert pygame.image.tobytes(canvas, "RGB") == pygame.image.tobytes(expected, "RGB")
    with pytest.raises(ValueError, match="before every other"):
        third.add(flake)
        third.stand("late", [flake])


def test_a_canvas_keeps_its_note_until_something_else_draws_on_it() -> None:
    notes = CanvasNotes()
    one, two, elsewhere = pygame.Surface((4, 4)), pygame.Surface((4, 4)), pygame.Surface((4, 4))
    notes.begin(one)
    assert notes.held(one) is None
    notes.keep(one, "first")
    notes.keep(elsewhere, "never")  # not the canvas being drawn: no note
    notes.begin(two)
    assert notes.held(one) is None  # not the canvas being drawn
    notes.begin(one)
    assert notes.held(one) == "first"
    notes.begin(elsewhere)
    assert notes.held(elsewhere) is None
    notes.begin(one)
    assert notes.held(one) is None  # the frame before drew it and kept no note
    notes.keep(one, "third")
    notes.spoil(one)  # a toast, another scene: the frame is no scene's alone
    notes.begin(one)
    assert notes.held(one) is None
    notes.keep(one, "fourth")
    notes.forget()  # a new window
    notes.begin(one)
    assert notes.held(one) is None


def _drawn_whole(app: App) -> bytes:
    """What App.draw shows, with the table's layer blitted whole: the scenes drawn on a
    surface that is no canvas of the screen's."""
    start = max(i for i, scene in enumerate(app.stack) if scene.opaque)
    surface = pygame.Surface(LOGICAL).convert()
    for scene in app.stack[start:]:
        scene.draw(surface, app.now)
    draw_toasts(surface, app.toasts, app.now)
    return pygame.image.tobytes(surface, "RGB")


@pytest.mark.slow  # a whole War, wheel and big-win round drawn frame by frame, twice: ~60 s
@pytest.mark.parametrize("size", [LOGICAL, (1280, 800)])
def test_a_whole_round_looks_as_if_the_layer_were_blitted_whole_each_frame(
        tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Bets and chips flying, the deal, War, the wheel turning and stopping, the big win's
    confetti and counting line, payments counting up, the recap and a toast, at 1920×1080
    (the window is the canvas) and scaled to 1280×800 (three canvases drawn on in turn)."""
    config = k.config_copy(tmp_path, "maryland-community-7.yaml")
    cabinet = config / "cabinet.yaml"
    cabinet.write_text(cabinet.read_text(encoding="utf-8").replace(
        "big_win_multiple: 20", "big_win_multiple: 2"), encoding="utf-8")
    windowed = size != LOGICAL
    app = k.make_app(tmp_path, config=k.sized(config, size) if windowed else config,
                     demo=True, windowed=windowed)
    assert isinstance(app.base, TableScene)
    assert (app.canvas is app.window) is not windowed
    app.director = DemoDirector(app.table, busiest_bots(app.table.state.paytable))
    k.war_and_the_wheel(app)
    whole: list[bool] = []
    stood: list[int] = []

    def noting(surface: pygame.Surface, layer: pygame.Surface,
               areas: list[pygame.Rect] | None) -> list[pygame.Rect]:
        if surface is app.canvas:  # the frames', not the comparison's own drawing
            whole.append(areas is None)
        return put_back(surface, layer, areas)

    def standing(surface: pygame.Surface, restored: list[pygame.Rect],
                 boxes: Sequence[pygame.Rect], draw: Callable[[pygame.Surface], object]) -> None:
        stood.append(app.frames)
        draw_inside(surface, restored, boxes, draw)

    monkeypatch.setattr(overdraw, "put_back", noting)
    monkeypatch.setattr(overdraw, "_draw_inside", standing)
    differ: list[tuple[int, str]] = []
    drawn = app.draw

    def draw_and_compare() -> None:  # before the frame goes on: the same state drawn twice
        drawn()
        if app.frames % 3 == 0 and pygame.image.tobytes(app.canvas, "RGB") != _drawn_whole(app):
            differ.append((app.frames, app.table.state.phase.value))

    monkeypatch.setattr(app, "draw", draw_and_compare)
    # Scaled, the scaling thread scales again only where the canvases' notes say they may
    # differ: the window shows what scaling the whole canvas would.
    within: list[int] = []
    to_scale = screen_module.tiles_to_scale

    def reaching(*args: Any) -> Any:
        if args[3] is not None:  # told where to look
            within.append(1)
        return to_scale(*args)

    monkeypatch.setattr(screen_module, "tiles_to_scale", reaching)
    scaled_wrong: list[int] = []
    seen, big_win = set(), False
    for frame in range(60 * 120):
        if frame == 300:
            app.notify("A toast over the table: the canvas is the table's alone no more")
        app.frame(1 / 60, draw=True)
        app.table.writer.wait()
        if windowed and app.frames % 3 == 1:
            shown = app.window.subsurface(app.viewport.content_rect)  # its scaling landed
            entire = pygame.Surface(shown.get_size()).convert()
            scale(app.canvas, entire)
            if pygame.image.tobytes(shown, "RGB") != pygame.image.tobytes(entire, "RGB"):
                scaled_wrong.append(app.frames)
        seen.add(app.table.state.phase)
        big_win |= any(isinstance(a, BigWin) for a in app.base.presenter.active(app.now))
        if app.rounds_finished >= 1 and app.settled:
            break
    app.screen.close()
    assert app.rounds_finished >= 1
    assert {Phase.BETTING, Phase.DECISIONS, Phase.WAR_DEALT, Phase.BONUS_SPIN} <= seen
    assert big_win
    assert differ == []
    assert scaled_wrong == []
    assert not windowed or len(within) > 0.8 * len(whole)
    # and the table did put back only parts of it, in most frames, and left the resting
    # wheel's rim and result standing in many
    assert whole.count(False) > 0.8 * len(whole)
    assert len(set(stood)) > 0.3 * len(whole)
