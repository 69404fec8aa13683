"""The logical canvas scaled onto a display of another size: whole, or only where it changed.

Scaling keeps text crisp (SPEC §6: "smooth scaling"): a display of the canvas's size gets
it as it is; a whole multiple of it (3840×2160) a pixel-exact enlargement, each pixel
repeated; anything else is filtered (``smoothscale``), never nearest-neighbour, which
drops whole rows of a letter at 1280×800.

Most frames change a small part of the table (the wheel, a countdown, chips in flight), and
scaling the whole canvas costs five milliseconds of a core at 1280×800 and seven at
3840×2160. So where it gives the very pixels the whole would,
only the tiles that differ from the last frame scaled are scaled again (:func:`changed`,
:func:`scale_parts`; or, where the table's notes tell where the two may differ, the tiles
those areas reach, :func:`reached_tiles`, compared only when they are most of the canvas:
:func:`tiles_to_scale`). That holds on a
:class:`Grid`: square tiles of the canvas that each land on whole pixels of the display,
scaled by a rule that reads nothing outside the tile.
Pixel repetition does, and so does ``smoothscale``'s box filter when it shrinks by a
fraction whose numerator is a power of two (2/3 at 1280×800, 1/2, 8/15 at 1024×576): it
steps through the source in 16.16 fixed point (``0x10000`` × source ÷ display), exact only
then, so a tile starts at the same phase as in the whole. Enlarging by a fraction
(2560×1440) interpolates across a tile's edge; such displays are scaled whole
(:func:`grid_for` gives None). ``tests/test_ui_screen_scaling.py`` holds each claimed size
to it: the parts equal the whole, pixel for pixel.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import numpy as np
import pygame

TILE = 60
"""A tile's side on the canvas (logical px): a multiple of 3 so that 2/3 lands on whole
pixels, and a divisor of 1920 and 1080; fine enough that a countdown's digits are a tile
or two, coarse enough that finding them costs a fraction of a scale."""


@dataclass(frozen=True)
class Grid:
    """Canvas tiles of ``tile`` logical px a side, each ``out`` display px a side once scaled."""

    tile: int
    out: int

    def on_display(self, area: pygame.Rect) -> pygame.Rect:
        """Where a tile-aligned area of the canvas lands on the scaled picture."""
        t, o = self.tile, self.out
        return pygame.Rect(area.x // t * o, area.y // t * o, area.w // t * o, area.h // t * o)


def grid_for(canvas_size: tuple[int, int], size: tuple[int, int]) -> Grid | None:
    """The grid on which ``canvas_size`` scaled to ``size`` may be scaled in parts, or None
    where only the whole gives the right pixels (see the module's doc)."""
    (cw, ch), (w, h) = canvas_size, size
    if w * ch != h * cw or cw % TILE or ch % TILE:
        return None  # not the canvas's shape: the axes would scale differently
    common = gcd(w, cw)
    num, den = w // common, cw // common
    if TILE % den:
        return None  # a tile would not land on whole pixels
    repeated = num % den == 0
    box_exact = num < den and num & (num - 1) == 0
    if not (repeated or box_exact):
        return None
    return Grid(TILE, TILE * num // den)


def scale(canvas: pygame.Surface, target: pygame.Surface) -> None:
    """``canvas`` onto ``target``'s whole area, keeping text crisp (see the module's doc)."""
    w, h = target.get_size()
    cw, ch = canvas.get_size()
    if (w, h) == (cw, ch):
        target.blit(canvas, (0, 0))
    elif w % cw == 0 and h % ch == 0 and w // cw == h // ch:
        pygame.transform.scale(canvas, (w, h), target)  # whole pixels, each repeated exactly
    else:
        pygame.transform.smoothscale(canvas, (w, h), target)


def changed(canvas: pygame.Surface, reference: pygame.Surface, grid: Grid) -> list[pygame.Rect]:
    """Tile-aligned areas of ``canvas`` that cover every pixel in which it differs from
    ``reference`` (of the same size and format): for each band of tiles, the span from its
    first changed tile to its last, and bands with the same span as one area. Few areas,
    each scaled with one call: the scaling thread takes the interpreter back after each."""
    return spans(changed_tiles(canvas, reference, grid), grid)


def changed_tiles(canvas: pygame.Surface, reference: pygame.Surface, grid: Grid,
                  scratch: np.ndarray | None = None) -> np.ndarray:
    """Which tiles of ``canvas`` differ from ``reference`` (of the same size and format) in
    any byte: booleans, a row per band of tiles. ``scratch``, if given, takes the pixel by
    pixel comparison (the shape :func:`comparison_shape` gives): a megabyte a frame not
    allocated and faulted in afresh."""
    t = grid.tile
    width, height = canvas.get_size()
    now, before = _pixels(canvas, t), _pixels(reference, t)
    differs = np.not_equal(now, before, out=scratch)
    del now, before  # the surfaces are locked while their pixels are viewed
    bands = differs.reshape(height // t, t, differs.shape[1]).any(axis=1)
    tiles: np.ndarray = bands.reshape(height // t, width // t, -1).any(axis=2)
    return tiles


def reached_tiles(size: tuple[int, int], grid: Grid, areas: list[pygame.Rect]) -> np.ndarray:
    """The tiles of a canvas of `size` that `areas` reach, as :func:`changed_tiles` gives
    them: for a canvas known to differ from the last one scaled only inside `areas` (the
    table's notes say where, :meth:`etg.ui.overdraw.CanvasNotes.difference`), the tiles
    that may need scaling again, found without reading the two 8 MB canvases
    (:func:`tiles_to_scale` decides whether to compare them)."""
    t = grid.tile
    width, height = size
    reached = np.zeros((height // t, width // t), np.bool_)
    bounds = pygame.Rect((0, 0), size)
    for area in areas:
        area = area.clip(bounds)
        if area.width and area.height:
            reached[area.top // t:(area.bottom - 1) // t + 1,
                    area.left // t:(area.right - 1) // t + 1] = True
    return reached


def tiles_to_scale(canvas: pygame.Surface, reference: pygame.Surface, grid: Grid,
                   within: list[pygame.Rect] | None,
                   scratch: np.ndarray | None = None) -> np.ndarray:
    """The tiles of ``canvas`` to scale again over ``reference``'s picture (as
    :func:`changed_tiles` gives them): where the table's notes say the two may differ only
    inside ``within``, the tiles those reach (:func:`reached_tiles`); else, or where they
    reach more than half the canvas, those of them that differ in any byte.

    A change of the whole layer reaches every tile: the bets closing draw all nine seats'
    panels, the meters, the spots and the top bar again, and a quarter of the tiles come
    out different (149 of 576). The scaling thread compares a whole canvas in about 2 ms
    and scales it in 5 (1280×800) to 7 (3840×2160): past half the canvas, comparing first
    is cheaper; below it, comparing costs more than it saves (a big win's banner and
    confetti change most tiles they reach, 177 of 302)."""
    if within is None:
        return changed_tiles(canvas, reference, grid, scratch)
    reached = reached_tiles(canvas.get_size(), grid, within)
    if 2 * int(reached.sum()) <= reached.size:
        return reached
    changed: np.ndarray = reached & changed_tiles(canvas, reference, grid, scratch)
    return changed


def comparison_shape(canvas: pygame.Surface, grid: Grid) -> tuple[int, int]:
    """The shape of :func:`changed_tiles`'s pixel by pixel comparison of ``canvas``."""
    shape: tuple[int, int] = _pixels(canvas, grid.tile).shape
    return shape


def spans(tiles: np.ndarray, grid: Grid) -> list[pygame.Rect]:
    """Areas of the canvas covering the changed ``tiles``: for each band, its runs of changed
    tiles, a run going on over fewer than :data:`GAP` unchanged ones; consecutive bands with
    the same span as one area."""
    areas = _Areas(grid.tile)
    for band, row in enumerate(tiles):
        hit = np.flatnonzero(row)
        if hit.size:
            breaks = np.flatnonzero(np.diff(hit) > GAP) + 1
            for run in np.split(hit, breaks):
                areas.add(band, int(run[0]), int(run[-1]) + 1)
    return areas.found


GAP = 4
"""Unchanged tiles (on a band) past which a span of changed ones ends and another begins:
confetti strewn across the table changes tiles far apart, and scaling everything between
them cost the scaling thread as much as the frame's drawing at 3840×2160. Each span is a
call, which gives the interpreter back, so a few tiles' gap is scaled rather than split."""


class _Areas:
    """Tile-aligned areas found band by band, each joined to the one right above it of the
    same columns."""

    def __init__(self, tile: int) -> None:
        self.tile = tile
        self.found: list[pygame.Rect] = []
        self._ending: dict[tuple[int, int, int], pygame.Rect] = {}  # by columns and bottom

    def add(self, band: int, first: int, end: int) -> None:
        """Tiles ``first`` to ``end`` (not included) of ``band``."""
        t = self.tile
        above = self._ending.pop((first, end, band * t), None)
        if above is not None:
            above.h += t
        else:
            above = pygame.Rect(first * t, band * t, (end - first) * t, t)
            self.found.append(above)
        self._ending[(first, end, above.bottom)] = above


def scale_parts(canvas: pygame.Surface, target: pygame.Surface, areas: list[pygame.Rect],
                grid: Grid) -> list[pygame.Rect]:
    """Each tile-aligned area of ``canvas`` scaled onto its place in ``target``, as
    :func:`scale` of the whole would put it there; returns those places."""
    placed = []
    for area in areas:
        place = grid.on_display(area)
        scale(canvas.subsurface(area), target.subsurface(place))
        placed.append(place)
    return placed


def _pixels(surface: pygame.Surface, tile: int) -> np.ndarray:
    """The surface's rows, without copying, as 8-byte words where a tile's row is whole words
    (two 32-bit pixels a word: half the numbers to compare), else as bytes."""
    width, height = surface.get_size()
    row = width * surface.get_bytesize()
    memory = np.asarray(surface.get_buffer())  # its bytes; the surface is locked while viewed
    rows: np.ndarray = memory.reshape(height, surface.get_pitch())[:, :row]
    return rows.view(np.uint64) if tile * surface.get_bytesize() % 8 == 0 else rows
