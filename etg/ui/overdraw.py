"""What a frame draws over the table's kept layer, so that the next frame drawn on the same
canvas puts back only that.

A frame of the table starts from its kept layer (:class:`etg.ui.panel_layer.PanelLayer`:
the background with the panels on it) and draws what moves over it. Blitting the layer
whole each frame read and wrote 16 MB at 1920×1080 and left everything the frame drew
next to be fetched from memory again: in ``bench_frame``'s round, frames that skipped it
(with a wrong picture) were over a millisecond faster at p50 in every phase, and more at
p99 (``benchmarks/README.md``). A canvas that still holds the last frame drawn on it
differs from the layer only where that frame drew over it, and where the layer has changed
since (:meth:`PanelLayer.changes_since`); only those areas are put back (:func:`put_back`).

So the frame notes where it draws over the layer as it draws (:class:`Overdraw`): each part
adds the rectangle it drew in (what pygame's blits and draws return), or, where that is not
known, the whole canvas. What a canvas holds is :class:`CanvasNotes`' business: a canvas
that anything else was drawn on since (another scene, a toast, a new window) is put back
whole. The picture is the one the whole blit gives; ``tests/test_ui_overdraw.py``
compares them frame by frame over whole rounds.

Some overlays look the same from frame to frame: the resting wheel's rim (its bulbs blink
twice in three seconds), hub and pointer, and what the wheel stopped on. Putting them back
and drawing them again each frame cost about a millisecond of every frame the wheel was at
rest. Such an overlay *stands* (:class:`Standing`): it is drawn first, right after the
layer is put back, with a key that is equal while its picture is. When the last frame on a
canvas drew the same standing overlays with the same keys, they are left where they are and
drawn again only inside what was put back around them (a flake of confetti crossing the
rim, a banner over its edge), clipped to it (:func:`put_back_and_stand`).

On a scaled display the same notes tell the scaling thread where the canvas just drawn may
differ from the one it last scaled (:meth:`CanvasNotes.difference`): where either frame drew
over the layer, where the layer changed between them, and standing overlays that changed.
Only the tiles those reach are scaled again, those that differ when they are most of the
canvas (:func:`etg.ui.scaling.tiles_to_scale`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import pygame

SLACK = 2
"""Pixels added around each area drawn: a text's shadow (2 px down and right of the box
its drawing returns) and any rounding in a returned box."""

WHOLE_SHARE = 0.5
"""Past this share of the canvas, the areas to put back are put back as one whole blit."""


@dataclass(frozen=True)
class Held:
    """What a canvas holds over the layer, as the last frame drawn on it noted."""

    areas: list[pygame.Rect] | None
    """Where it drew over the layer, standing overlays aside (None: not known, the whole)."""
    standing: tuple[tuple[Hashable, tuple[pygame.Rect, ...]], ...] = ()
    """Its standing overlays, in the order drawn: each one's key and boxes."""


def differences(new: Held, old: Held) -> list[pygame.Rect] | None:
    """Where a canvas holding `new` over a layer may differ from one holding `old` over the
    same layer (its own changes aside): where either drew over it, and their standing
    overlays unless they stand the same. None if either is not known."""
    if new.areas is None or old.areas is None:
        return None
    out = new.areas + old.areas
    if tuple(key for key, _ in new.standing) != tuple(key for key, _ in old.standing):
        out += [box for _, boxes in (*new.standing, *old.standing) for box in boxes]
    return out


@runtime_checkable
class Comparable(Protocol):
    """A canvas's note that can tell where its canvas may differ from another's."""

    def differs_from(self, older: object) -> list[pygame.Rect] | None:
        """Where this note's canvas may differ from the canvas that `older` (another note,
        kept earlier) is of; None if not known."""


@dataclass
class Overdraw:
    """Where a frame drew over the layer: rectangles, or the whole canvas; and its standing
    overlays."""

    areas: list[pygame.Rect] = field(default_factory=list)
    whole: bool = False
    standing: list[tuple[Hashable, tuple[pygame.Rect, ...]]] = field(default_factory=list)

    def add(self, area: pygame.Rect) -> None:
        """Something was drawn inside `area`."""
        if area.width and area.height:
            self.areas.append(area.inflate(2 * SLACK, 2 * SLACK))

    def add_all(self, areas: list[pygame.Rect]) -> None:
        for area in areas:
            self.add(area)

    def stand(self, key: Hashable, boxes: Sequence[pygame.Rect]) -> None:
        """A standing overlay with `key` is drawn inside `boxes` (:class:`Standing`): before
        anything else is drawn over the layer, or the next frame could not leave it."""
        if self.areas or self.whole:
            raise ValueError("a standing overlay is drawn before every other overlay")
        self.standing.append((key, tuple(box.inflate(2 * SLACK, 2 * SLACK)
                                         for box in boxes if box.width and box.height)))

    def everything(self) -> None:
        """Something was drawn whose extent is not known: the whole canvas is put back."""
        self.whole = True

    def kept(self) -> Held:
        """What the next frame on this canvas finds on it."""
        return Held(None if self.whole else self.areas, tuple(self.standing))


@dataclass(frozen=True)
class Standing:
    """An overlay that looks the same while `key` does (equal keys: the same pixels in the
    same places). `draw` draws it whole (clipped to the surface's clip) and returns the
    boxes it drew in."""

    key: Hashable
    draw: Callable[[pygame.Surface], list[pygame.Rect]]


def put_back_and_stand(surface: pygame.Surface, layer: pygame.Surface, held: Held | None,
                       standing: Sequence[Standing], over: Overdraw) -> None:
    """`layer` put back where `surface` differs from it (`held`: None, not known) but under
    `standing` overlays that the last frame drew there with the same keys, and `standing`
    drawn over it: whole, or (when every key is the last frame's) only inside what was put
    back. Their boxes go to `over`.

    What is left is right: a pixel not put back was drawn over by no overlay of the last
    frame but standing ones, and by the same ones in the same order that this frame draws
    (which draws every other overlay after them); the layer under it has not changed.
    """
    areas = None if held is None else held.areas
    before = () if held is None else held.standing
    stood = areas is not None and tuple(key for key, _ in before) == tuple(
        overlay.key for overlay in standing)
    if areas is not None and not stood:
        areas = areas + [box for _, boxes in before for box in boxes]
    restored = put_back(surface, layer, areas)
    if stood:
        for overlay, (key, boxes) in zip(standing, before, strict=True):
            _draw_inside(surface, restored, boxes, overlay.draw)
            over.standing.append((key, boxes))
    else:
        for overlay in standing:
            over.stand(overlay.key, overlay.draw(surface))


def put_back(surface: pygame.Surface, layer: pygame.Surface,
             areas: list[pygame.Rect] | None) -> list[pygame.Rect]:
    """`layer` blitted onto `surface` inside `areas`, or whole (None, or most of it).
    Returns the rectangles blitted."""
    bounds = surface.get_rect()
    if areas is not None:
        areas = _uncovered([area.clip(bounds) for area in areas])
        if sum(a.width * a.height for a in areas) <= WHOLE_SHARE * bounds.width * bounds.height:
            blitted = [_copied_fast(area).clip(bounds) for area in areas]
            surface.blits([(layer, area, area) for area in blitted], doreturn=False)
            return blitted
    surface.blit(layer, (0, 0))
    return [bounds]


def _draw_inside(surface: pygame.Surface, restored: list[pygame.Rect],
                 boxes: Sequence[pygame.Rect], draw: Callable[[pygame.Surface], object]) -> None:
    """`draw` again clipped to each piece of `restored` that meets `boxes`: pieces that do
    not overlap, so no pixel of a translucent overlay is blended twice."""
    meeting = [rect for rect in restored if rect.collidelist(boxes) != -1]
    clip = surface.get_clip()
    try:
        for piece in disjoint_pieces(meeting):
            surface.set_clip(piece.clip(clip))
            draw(surface)
    finally:
        surface.set_clip(clip)


def disjoint_pieces(rects: Sequence[pygame.Rect]) -> list[pygame.Rect]:
    """Rectangles that cover what `rects` cover, each pixel once."""
    pieces: list[pygame.Rect] = []
    for rect in rects:
        parts = [rect] if rect.width and rect.height else []
        for piece in pieces:
            parts = [part for whole in parts for part in _minus(whole, piece)]
        pieces += parts
    return pieces


def _minus(rect: pygame.Rect, cut: pygame.Rect) -> list[pygame.Rect]:
    """`rect` less `cut`: up to four rectangles (above, below, left and right of it)."""
    inside = rect.clip(cut)
    if not inside.width or not inside.height:
        return [rect]
    out = []
    if inside.top > rect.top:
        out.append(pygame.Rect(rect.left, rect.top, rect.width, inside.top - rect.top))
    if inside.bottom < rect.bottom:
        out.append(pygame.Rect(rect.left, inside.bottom, rect.width, rect.bottom - inside.bottom))
    if inside.left > rect.left:
        out.append(pygame.Rect(rect.left, inside.top, inside.left - rect.left, inside.height))
    if inside.right < rect.right:
        out.append(pygame.Rect(inside.right, inside.top, rect.right - inside.right,
                               inside.height))
    return out


def _copied_fast(area: pygame.Rect) -> pygame.Rect:
    """`area` grown by a pixel or a few so that SDL copies it quickly.

    SDL copies a row that starts on 16 bytes (x a multiple of 4, at 4 bytes a pixel) in
    64-byte blocks of streaming stores, and the bytes past the last block with a plain copy;
    mixed on one row they cost some 30 µs a blit whatever its size (measured on pygame-ce
    2.5.8's SDL 2.32: a 50 × 50 area 1.2 µs at x = 489, 34 µs at x = 488). A row that starts
    anywhere else is copied plainly, and a row of whole blocks has no remainder: the area
    starts a pixel to the left, or (at the canvas's left edge) ends on a whole block.
    """
    if area.x % 4:
        return area
    if area.x:
        return pygame.Rect(area.x - 1, area.y, area.width + 1, area.height)
    return pygame.Rect(0, area.y, -(-area.width // 16) * 16, area.height)


def _uncovered(areas: list[pygame.Rect]) -> list[pygame.Rect]:
    """`areas` less those that lie inside one of the large ones (a flake of confetti under a
    banner, last frame's box inside this one's): each pixel put back once, mostly."""
    kept: list[pygame.Rect] = []  # the large ones, largest first, none inside another
    for area in sorted((a for a in areas if a.width * a.height >= LARGE),
                       key=lambda a: a.width * a.height, reverse=True):
        if not any(other.contains(area) for other in kept):
            kept.append(area)
    small = [area for area in areas if 0 < area.width * area.height < LARGE]
    return kept + [area for area in small if not any(other.contains(area) for other in kept)]


LARGE = 10_000
"""An area of at least this many pixels is checked for others inside it (a few a frame)."""


class CanvasNotes:
    """What each canvas holds, as the scene that drew it alone said.

    A scene that draws a canvas keeps a note of what it drew there (:meth:`keep`); the next
    frame on that canvas finds the note (:meth:`held`) only if nothing else was drawn on the
    canvas in between: a frame that no scene keeps a note of (another scene drawn alone),
    one the App marks as drawn on by a toast or a second scene too (:meth:`spoil`), and a
    new window (:meth:`forget`) leave none.
    """

    def __init__(self) -> None:
        self._notes: dict[int, object] = {}  # by id(): the canvases are the screen's, kept
        self._canvas: pygame.Surface | None = None
        self._held: object | None = None

    def begin(self, canvas: pygame.Surface) -> None:
        """`canvas` is about to be drawn on, as a new frame: its note is taken off it."""
        self._held = self._notes.pop(id(canvas), None)
        self._canvas = canvas

    def held(self, surface: pygame.Surface) -> object | None:
        """The note kept of what `surface` held before this frame; None if there is none, or
        `surface` is no canvas of the screen's being drawn now (a screenshot, a test's)."""
        return self._held if surface is self._canvas else None

    def keep(self, surface: pygame.Surface, note: object) -> None:
        """What this frame drew on `surface` (ignored for a surface that is not the canvas
        being drawn)."""
        if surface is self._canvas:
            self._notes[id(surface)] = note

    def difference(self, canvas: pygame.Surface,
                   reference: pygame.Surface) -> list[pygame.Rect] | None:
        """Where `canvas` (just drawn) may differ from `reference` (another canvas of the
        screen's), as their notes tell (:meth:`Comparable.differs_from`); None where they
        cannot tell."""
        note, older = self._notes.get(id(canvas)), self._notes.get(id(reference))
        if not isinstance(note, Comparable) or older is None:
            return None
        return note.differs_from(older)

    def spoil(self, canvas: pygame.Surface) -> None:
        """Something else was drawn on `canvas` in this frame: no note stands for it."""
        self._notes.pop(id(canvas), None)

    def forget(self) -> None:
        """New canvases (a new window): none holds a known picture."""
        self._notes.clear()
        self._canvas = self._held = None
