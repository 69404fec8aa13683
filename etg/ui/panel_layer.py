"""The table's background with the seats' panels drawn on it, kept from frame to frame.

Nine panels of credits, stacks, chips in hand and buttons cost the table a millisecond
and a half a frame, and most frames show every one of them as the frame before did. A
:class:`PanelLayer` keeps one full-screen picture: the background (the felt, and the
wheel's rings while they rest) with each seat's panel as last drawn. Each frame every
panel is given with a key holding everything its picture depends on. Where a key changed,
the panel's area (its rectangle and its margin around it, :data:`MARGIN` unless it needs
less: a stack's amount may stand out past the panel's edge) is restored from the
background, and every panel whose area reaches into it is drawn again there, in order,
clipped to it: the pixels are those that drawing every panel afresh gives. The frame then
blits the layer once where it blitted the background, and draws what moves over it.

A new background (the wheel set turning or brought to rest) is copied in whole and every
panel drawn again. Each change is numbered (:attr:`PanelLayer.version`) and its areas kept
for a few frames, so that a canvas holding an older picture of the layer can be brought up
to date where it changed (:meth:`PanelLayer.changes_since`, :mod:`etg.ui.overdraw`).

The key is what keeps the picture true: whatever a panel shows must be in it
(:func:`etg.ui.seat_panel.seat_panel`), or a change would not reach the screen.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

MARGIN = 24
"""How far past its rectangle a panel may draw (px), unless it says otherwise."""


@dataclass(frozen=True)
class Panel:
    """One panel as the frame shows it: where, what it shows (equal keys: the same
    picture), how to draw it (on the surface given, in the canvas's coordinates) and how
    far past its rectangle that drawing may reach (``margin``).

    A margin no larger than the panel needs keeps its neighbours from being drawn again
    with it: the spots' changes (every wager placed) once drew seven seats' panels again,
    whose margins reached up into the spots' area."""

    rect: pygame.Rect
    key: object
    draw: Callable[[pygame.Surface], None]
    margin: int = MARGIN


class PanelLayer:
    """A background with panels on it, each drawn again only when its key changes."""

    def __init__(self) -> None:
        self._base: pygame.Surface | None = None
        self._layer: pygame.Surface | None = None
        self._keys: dict[tuple[int, int, int, int], object] = {}
        self.redrawn = 0
        """How many panels were drawn since the layer was made (for tests)."""
        self.version = 0
        """Counts the changes to the layer's picture: one a call to :meth:`over` that
        changed it."""
        self._changes: deque[tuple[int, list[pygame.Rect] | None]] = deque(maxlen=CHANGES_KEPT)

    def over(self, base: pygame.Surface, panels: Sequence[Panel]) -> pygame.Surface:
        """`base` with `panels` drawn on it in order, as they are now (a kept surface: blit
        it, never draw on it)."""
        layer = self._layer
        if layer is None or base is not self._base:
            layer = self._layer = base.copy()
            self._base = base
            self._keys.clear()
            self._changed(None)
        bounds = base.get_rect()
        areas = [panel.rect.inflate(2 * panel.margin, 2 * panel.margin).clip(bounds)
                 for panel in panels]
        changed = []
        for panel, area in zip(panels, areas, strict=True):
            where = (panel.rect.x, panel.rect.y, panel.rect.width, panel.rect.height)
            if where not in self._keys or self._keys[where] != panel.key:
                changed.append(area)
                self._keys[where] = panel.key
        redrawn = _disjoint(changed)
        if redrawn:
            self._changed(redrawn)
        for rect in redrawn:
            layer.blit(base, rect, rect)
            try:
                for panel, area in zip(panels, areas, strict=True):
                    if area.colliderect(rect):
                        layer.set_clip(area.clip(rect))  # never past its margin
                        panel.draw(layer)
                        self.redrawn += 1
            finally:
                layer.set_clip(None)
        return layer

    def changes_since(self, version: int) -> list[pygame.Rect] | None:
        """The areas of the layer that changed after `version`; None if it changed whole
        (a new background) or `version` is older than the changes kept."""
        if version == self.version:
            return []
        newer = [areas for number, areas in self._changes if number > version]
        if len(newer) != self.version - version:
            return None
        out: list[pygame.Rect] = []
        for areas in newer:
            if areas is None:
                return None
            out += areas
        return out

    def _changed(self, areas: list[pygame.Rect] | None) -> None:
        self.version += 1
        self._changes.append((self.version, areas))


CHANGES_KEPT = 8
"""How many of the layer's changes are kept: a canvas is at most a few frames behind (the
scaled displays draw on three in turn)."""


def _disjoint(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """`rects` with each group that overlaps replaced by the rectangle around it."""
    out: list[pygame.Rect] = []
    for rect in rects:
        grown = rect.copy()
        merged = True
        while merged:
            merged = False
            for other in out:
                if other.colliderect(grown):
                    out.remove(other)
                    grown.union_ip(other)
                    merged = True
                    break
        out.append(grown)
    return out
