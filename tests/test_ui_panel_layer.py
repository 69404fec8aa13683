"""The seats' panels kept drawn on the table's background (:mod:`etg.ui.panel_layer`): a
panel is drawn again only when what it shows changes, and the table looks exactly as if
every panel were drawn afresh each frame."""

from __future__ import annotations

import gc
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pygame
import pytest

from etg.core.commands import CashIn, SignInDealer
from etg.core.state import Phase
from etg.table.bots import busiest_bots
from etg.ui.app import App
from etg.ui.demo import DemoDirector
from etg.ui.panel_layer import Panel, PanelLayer
from etg.ui.table_scene import TableScene
from tests.kiosk_support import config_copy, make_app, run_for, war_and_the_wheel


def _panel(rect: pygame.Rect, colour: tuple[int, int, int, int], label_left: int) -> Panel:
    """A panel that fills its rectangle with a translucent `colour` and draws a label that
    stands `label_left` px out past its left edge (into its neighbour's margin)."""
    def draw(surface: pygame.Surface) -> None:
        ink = pygame.Surface(rect.size, pygame.SRCALPHA)
        ink.fill(colour)
        surface.blit(ink, rect)
        label = pygame.Surface((30, 10), pygame.SRCALPHA)
        label.fill((255, 255, 255, 128))
        surface.blit(label, (rect.x - label_left, rect.y + 5))
    return Panel(rect, (colour, label_left), draw)


def _fresh(base: pygame.Surface, panels: list[Panel]) -> bytes:
    surface = base.copy()
    for panel in panels:
        panel.draw(surface)
    return pygame.image.tobytes(surface, "RGB")


def _base() -> pygame.Surface:
    base = pygame.Surface((200, 60))
    for x in range(200):
        pygame.draw.line(base, (x, 255 - x, 90), (x, 0), (x, 59))
    return base


def test_only_a_changed_panel_and_its_neighbours_margins_are_drawn_again() -> None:
    base = _base()
    rects = [pygame.Rect(4 + 50 * i, 10, 44, 40) for i in range(4)]
    panels = [_panel(r, (200, 40, 40, 120), 6) for r in rects]
    layer = PanelLayer()
    kept = layer.over(base, panels)
    assert layer.redrawn == 4
    assert pygame.image.tobytes(kept, "RGB") == _fresh(base, panels)
    layer.over(base, panels)  # nothing changed: nothing drawn
    assert layer.redrawn == 4
    panels[2] = _panel(rects[2], (40, 40, 200, 160), 9)  # the third panel changes
    kept = layer.over(base, panels)
    assert layer.redrawn == 4 + 3  # it, and its neighbours in the margin they share
    assert pygame.image.tobytes(kept, "RGB") == _fresh(base, panels)
    panels[0] = _panel(rects[0], (40, 200, 40, 90), 2)
    panels[3] = _panel(rects[3], (90, 90, 90, 250), 12)
    kept = layer.over(base, panels)
    assert pygame.image.tobytes(kept, "RGB") == _fresh(base, panels)


def test_a_panel_with_a_narrow_margin_leaves_the_panels_below_it_alone() -> None:
    """As the spots over the seats: a row whose margin stops short of the panels under it
    is drawn again alone, and nothing it draws reaches past its margin."""
    base = _base()
    top = pygame.Rect(4, 4, 192, 20)
    below = [pygame.Rect(4 + 50 * i, 30, 44, 26) for i in range(4)]

    def panels(colour: tuple[int, int, int, int]) -> list[Panel]:
        row = _panel(top, colour, 0)
        return [Panel(row.rect, row.key, row.draw, margin=0),
                *(Panel(p.rect, p.key, p.draw, margin=4)
                  for p in (_panel(r, (200, 40, 40, 120), 3) for r in below))]

    layer = PanelLayer()
    layer.over(base, panels((40, 40, 200, 160)))
    drawn = layer.redrawn
    kept = layer.over(base, panels((40, 200, 40, 90)))  # the top row changes
    assert layer.redrawn == drawn + 1
    assert pygame.image.tobytes(kept, "RGB") == _fresh(base, panels((40, 200, 40, 90)))
    # A panel that drew past its margin is cut at it: the layer never keeps stray pixels.
    stray = Panel(pygame.Rect(60, 8, 20, 10), "stray",
                  lambda surface: surface.fill((255, 0, 255), (50, 4, 40, 40)), margin=2)
    layer.over(base, [*panels((40, 200, 40, 90)), stray])
    kept = layer.over(base, [*panels((200, 200, 40, 90)), stray])  # drawn again for the row
    magenta = pygame.mask.from_threshold(kept, (255, 0, 255), (1, 1, 1)).get_bounding_rects()
    assert magenta and magenta[0].unionall(magenta) == pygame.Rect(58, 6, 24, 14)


def test_the_spots_changing_draws_no_seat_again_on_any_shipped_layout() -> None:
    """A wager placed changes the spots' panel: its area ends above every seat's, whatever
    the paytable's layout (SPOTS_MARGIN and SEAT_MARGIN within the gap between them)."""
    from etg.config.loader import load_paytable
    from etg.config.places import shipped_config_dir
    from etg.ui.layout import TableLayout
    from etg.ui.seat_panel import SEAT_MARGIN
    from etg.ui.table_art import SPOTS_MARGIN

    for path in sorted((shipped_config_dir() / "paytables").glob("*.yaml")):
        layout = TableLayout.for_paytable(load_paytable(path).paytable)
        columns = [layout.spot_column(spot) for spot in range(1, layout.spots + 1)]
        spots_bottom = max(y + h for _, y, _, h in columns) + SPOTS_MARGIN
        seats_top = min(seat.rect[1] for seat in layout.seat_layouts) - SEAT_MARGIN
        assert spots_bottom <= seats_top, path.name


def test_a_new_background_is_taken_whole() -> None:
    base = _base()
    panels = [_panel(pygame.Rect(10, 10, 40, 40), (200, 40, 40, 120), 4)]
    layer = PanelLayer()
    layer.over(base, panels)
    other = base.copy()
    other.fill((0, 0, 0), (120, 0, 80, 60))  # e.g. the wheel's rings, come to rest
    kept = layer.over(other, panels)
    assert pygame.image.tobytes(kept, "RGB") == _fresh(other, panels)


class _Afresh(PanelLayer):
    """Every panel drawn on a copy of the background, whole, in order, every time."""

    def over(self, base: pygame.Surface, panels: Sequence[Panel]) -> pygame.Surface:
        surface = base.copy()
        for panel in panels:
            panel.draw(surface)
        return surface


def _table_now(app: App) -> tuple[bytes, bytes]:
    """The table as drawn with its kept panels, and as drawn with every panel afresh."""
    scene = app.base
    assert isinstance(scene, TableScene)
    app.draw()
    kept = pygame.image.tobytes(app.canvas, "RGB")
    keys = scene._panels
    scene._panels = _Afresh()
    try:
        app.draw()
        fresh = pygame.image.tobytes(app.canvas, "RGB")
    finally:
        scene._panels = keys
    return kept, fresh


def test_a_seats_new_credits_reach_the_screen(tmp_path: Path) -> None:
    app = make_app(tmp_path, "maryland-community-7.yaml")
    scene = app.base
    assert isinstance(scene, TableScene)
    run_for(app, 0.2, draw=True)
    before, fresh = _table_now(app)
    assert before == fresh
    drawn = scene._panels.redrawn
    app.send(CashIn(4, 12_345), "attendant")
    app.table.deliver(wait=True)
    run_for(app, 2.0)  # the credits count up to the new amount
    after, fresh = _table_now(app)
    assert after == fresh
    assert after != before  # the seat's credits changed on the screen
    assert scene._panels.redrawn > drawn
    drawn = scene._panels.redrawn
    app.draw()
    assert scene._panels.redrawn == drawn  # and nothing is drawn again while nothing changes


def test_start_up_draws_the_table_so_its_first_frame_draws_no_panel(tmp_path: Path) -> None:
    """App.ready() draws the table once, unseen: the panels, fonts and card back the table
    shows first are made then, not in the first frame players watch."""
    app = make_app(tmp_path, "maryland-community-7.yaml")
    scene = app.base
    assert isinstance(scene, TableScene)
    assert scene._panels.redrawn == 0
    try:
        app.ready()
    finally:
        gc.unfreeze()  # the kiosk's for its life; a test's objects must stay collectable
    drawn = scene._panels.redrawn
    assert drawn >= 9  # every seat's panel at least
    app.frame(1 / 60)
    assert scene._panels.redrawn == drawn
    kept, fresh = _table_now(app)
    assert kept == fresh


@pytest.mark.slow  # a whole War-and-wheel round of the busiest table, compared every 15 frames: ~8 s
def test_a_whole_demo_round_looks_as_if_every_panel_were_drawn_afresh(tmp_path: Path) -> None:
    """Bets, chips flying, the deal, War, the wheel, payments counting up, the recap: the
top bar, the meters, the dealer's cards, the shoe, the history and the seats' panels."""
    app = make_app(tmp_path, "maryland-community-7.yaml", demo=True)
    app.director = DemoDirector(app.table, busiest_bots(app.table.state.paytable))
    war_and_the_wheel(app)
    differ, seen = [], set()
    for frame in range(60 * 120):
        app.frame(1 / 60, draw=False)
        app.table.writer.wait()
        seen.add(app.table.state.phase)
        if frame % 15 == 0:
            kept, fresh = _table_now(app)
            if kept != fresh:
                differ.append((frame, app.table.state.phase))
        if app.rounds_finished >= 1 and app.settled:
            break
    assert app.rounds_finished >= 1
    assert {Phase.BETTING, Phase.DECISIONS, Phase.WAR_DEALT, Phase.BONUS_SPIN} <= seen
    assert differ == []


PROBE = 48
"""How far past a panel's area the probe looks for pixels it drew (px)."""


class _Probing(PanelLayer):
    """A layer that, the first time it is given each panel's picture (its place and key),
    draws it alone on blank surfaces and notes where it drew outside its area: there the
    layer would cut it off, and a neighbour redrawn alone would leave it standing."""

    def __init__(self) -> None:
        super().__init__()
        self.probed: set[tuple[tuple[int, int, int, int], object]] = set()
        self.outside: list[tuple[pygame.Rect, pygame.Rect]] = []  # (area, where drawn)

    def over(self, base: pygame.Surface, panels: Sequence[Panel]) -> pygame.Surface:
        for panel in panels:
            picture = ((panel.rect.x, panel.rect.y, panel.rect.w, panel.rect.h), panel.key)
            if picture not in self.probed:
                self.probed.add(picture)
                area = panel.rect.inflate(2 * panel.margin, 2 * panel.margin)
                drawn = _drawn_near(base.get_size(), panel)
                if drawn is not None and not area.contains(drawn):
                    self.outside.append((area, drawn))
        return super().over(base, panels)


def _drawn_near(size: tuple[int, int], panel: Panel) -> pygame.Rect | None:
    """The box around every pixel `panel` draws within :data:`PROBE` px of its area, found
    on a black and on a white surface (a pixel drawn in either colour shows on the other)."""
    window = panel.rect.inflate(2 * (panel.margin + PROBE),
                                2 * (panel.margin + PROBE)).clip(pygame.Rect((0, 0), size))
    found: pygame.Rect | None = None
    for blank in ((0, 0, 0), (255, 255, 255)):
        surface = pygame.Surface(size)
        surface.fill(blank, window)
        surface.set_clip(window)
        panel.draw(surface)
        pixels = np.asarray(pygame.surfarray.pixels3d(surface.subsurface(window)))
        drawn = (pixels != np.array(blank, np.uint8)).any(axis=2)  # x by y
        del pixels
        xs, ys = np.flatnonzero(drawn.any(axis=1)), np.flatnonzero(drawn.any(axis=0))
        if xs.size:
            box = pygame.Rect(window.x + int(xs[0]), window.y + int(ys[0]),
                              int(xs[-1] - xs[0]) + 1, int(ys[-1] - ys[0]) + 1)
            found = box if found is None else found.union(box)
    return found


@pytest.mark.slow  # a whole War-and-wheel round of the busiest table, each picture probed: ~20 s
def test_every_panel_draws_inside_its_area_through_a_whole_round(tmp_path: Path) -> None:
    """Each panel's margin is what lets the layer draw it again alone: the top bar's, the
    meters' and the dealer's tight ones keep a phase's new words from drawing the wheel's
    rings, the shoe and the spots again. Every picture of every panel in a War, wheel and
    big-win round of the busiest table, with the longest dealer's name, stays inside its
    rectangle and margin."""
    config = config_copy(tmp_path, "maryland-community-7.yaml")
    cabinet = config / "cabinet.yaml"
    cabinet.write_text(cabinet.read_text(encoding="utf-8").replace(
        "big_win_multiple: 20", "big_win_multiple: 2"), encoding="utf-8")
    app = make_app(tmp_path, config=config, demo=True)
    scene = app.base
    assert isinstance(scene, TableScene)
    probing = scene._panels = _Probing()
    app.director = DemoDirector(app.table, busiest_bots(app.table.state.paytable))
    war_and_the_wheel(app)
    seen = set()
    for _ in range(60 * 120):
        app.frame(1 / 60, draw=True)
        app.table.writer.wait()
        seen.add(app.table.state.phase)
        if app.rounds_finished >= 1 and app.settled:
            break
    assert app.rounds_finished >= 1
    assert {Phase.BETTING, Phase.DECISIONS, Phase.WAR_DEALT, Phase.BONUS_SPIN} <= seen
    # then the longest dealer ID the cabinet takes: the widest name the dealer's area shows
    assert app.send(SignInDealer("D12345678"), "dealer D12345678") is None
    run_for(app, 1.0, draw=True)
    assert app.table.state.dealer == "D12345678"
    assert any(key[0] == "D12345678" for _, key in probing.probed
               if isinstance(key, tuple) and key)
    assert len(probing.probed) > 100
    assert probing.outside == []
