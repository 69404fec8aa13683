"""The logical canvas and how it sits on a real screen (SPEC §6).

Every screen is laid out once, on a 1920×1080 logical canvas, and scaled
uniformly to whatever 16:9 or 16:10 panel the cabinet has: the aspect is kept
and the spare pixels become bars (letterbox above and below, pillarbox left
and right), with the canvas centred. Layout, hit targets and touches all speak
logical pixels, so the same numbers work on every cabinet.

This module is pure arithmetic, with no pygame import, so the mapping can be
tested and used without a display.

The scale is kept as the exact ratio of two integers (screen pixels over
logical pixels along the axis that limits the fit) and every conversion
multiplies before it divides, so the common screens (1280×720, 1920×1200,
2560×1440, ...) map exactly, with no 959.9999 where 960 was meant.
"""

from __future__ import annotations

from dataclasses import dataclass

LOGICAL: tuple[int, int] = (1920, 1080)
"""Width and height of the logical canvas that every screen is designed on."""

LOGICAL_W, LOGICAL_H = LOGICAL

Rect = tuple[float, float, float, float]
"""A rectangle as (left, top, width, height)."""


@dataclass(frozen=True)
class Viewport:
    """Where the logical canvas lands on a screen of ``screen_w`` × ``screen_h`` pixels.

    Replace the viewport (it is immutable) when the window changes size, so a
    renderer and the input adapter holding the old one can never disagree
    halfway through a frame.
    """

    screen_w: int
    screen_h: int

    def __post_init__(self) -> None:
        if self.screen_w <= 0 or self.screen_h <= 0:
            raise ValueError(f"screen size must be positive, got {self.screen_w}×{self.screen_h}")

    @property
    def _ratio(self) -> tuple[int, int]:
        """The scale as (numerator, denominator): the axis that runs out of room first wins."""
        if self.screen_w * LOGICAL_H <= self.screen_h * LOGICAL_W:
            return self.screen_w, LOGICAL_W
        return self.screen_h, LOGICAL_H

    @property
    def scale(self) -> float:
        """Screen pixels per logical pixel, the same on both axes so nothing is stretched."""
        num, den = self._ratio
        return num / den

    @property
    def content_size(self) -> tuple[float, float]:
        """Size in screen pixels of the scaled canvas, bars excluded."""
        num, den = self._ratio
        return LOGICAL_W * num / den, LOGICAL_H * num / den

    @property
    def offset(self) -> tuple[float, float]:
        """Screen position of the canvas's top-left corner: half the spare room on each axis."""
        num, den = self._ratio
        return ((self.screen_w * den - LOGICAL_W * num) / (2 * den),
                (self.screen_h * den - LOGICAL_H * num) / (2 * den))

    @property
    def content_rect(self) -> tuple[int, int, int, int]:
        """The canvas area on screen in whole pixels; everything outside it is bar."""
        return self.rect_to_screen((0, 0, LOGICAL_W, LOGICAL_H))

    def _unclamped(self, px: float, py: float) -> tuple[float, float]:
        num, den = self._ratio
        ox, oy = self.offset
        return (px - ox) * den / num, (py - oy) * den / num

    def to_logical(self, px: float, py: float) -> tuple[float, float] | None:
        """Logical position of a screen point, or None when it falls in the bars.

        The far edges (x = 1920, y = 1080) still count as canvas: a finger
        reported at normalised 1.0 on a full-bleed screen is on the table, not
        off it.
        """
        x, y = self._unclamped(px, py)
        if 0 <= x <= LOGICAL_W and 0 <= y <= LOGICAL_H:
            return x, y
        return None

    def to_logical_clamped(self, px: float, py: float) -> tuple[float, float]:
        """Logical position of a screen point, pulled onto the nearest canvas edge if outside.

        For pointers that are already down: a drag or release that wanders
        into the bars must still be reported somewhere, or the pointer would
        stay pressed.
        """
        x, y = self._unclamped(px, py)
        return min(max(x, 0.0), float(LOGICAL_W)), min(max(y, 0.0), float(LOGICAL_H))

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """Screen position of a logical point."""
        num, den = self._ratio
        ox, oy = self.offset
        return ox + x * num / den, oy + y * num / den

    def rect_to_screen(self, rect: Rect) -> tuple[int, int, int, int]:
        """A logical (left, top, width, height) rectangle as a whole-pixel screen rectangle.

        Each edge is rounded on its own, rather than the size, so rectangles
        that touch on the canvas still touch on the screen: no one-pixel seams
        or overlaps between neighbouring seat panels at odd scales.
        """
        left, top, width, height = rect
        x0, y0 = self.to_screen(left, top)
        x1, y1 = self.to_screen(left + width, top + height)
        sx0, sy0 = round(x0), round(y0)
        return sx0, sy0, round(x1) - sx0, round(y1) - sy0
