"""The words on the Bonus Spin wheel's segments: how large, where, and which way up.

SPEC §6: "every wheel segment is drawn wide enough for an upright label (visual width is
not the weight). Player text ≥ 20 logical px". :func:`fit_label` finds the largest type,
from :data:`MIN_LABEL_PX` up, whose ink fits a segment's wedge, clear of its separators
and of the pointer's tip. A label is either *tangential* (across the ring, like the seat
and community pays) or *radial* (along the radius, for the narrow, deep Hot Spot wedges
whose JACKPOT words are long). :func:`rest_rotation` turns each label so that it reads
upright where it comes to rest; see its docstring. Sizes are logical pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import pygame

from etg.ui.assets import Style, text

RGB = tuple[int, int, int]
Point = tuple[float, float]

MIN_LABEL_PX = 20
"""The smallest type a wheel label is set in at the table's wheel radius (SPEC §6)."""

LABEL_GAP = 2.0
"""Pixels of wedge kept clear between a label's ink and a separator or ring edge."""


class Orientation(Enum):
    """How a label lies in its wedge."""

    TANGENTIAL = "tangential"  # across the ring: the line of text is square to the radius
    RADIAL = "radial"  # along the radius


Box = tuple[int, int, int, int]
"""A line's ink as (left, top, right, bottom) pixels from its label's anchor, the label read
level (left to right, top down)."""


@dataclass(frozen=True, slots=True)
class LabelFit:
    """Where and how large a segment's label is set.

    The label's anchor lies ``centre`` pixels from the wheel's centre on the segment's
    centre line; ``boxes`` hold each line's ink around it, as the label reads with its
    end toward the rim (a radial label) or its top toward the rim (a tangential one).
    A tangential label's lines are centred on the anchor. A radial label's longest line
    is centred on it and the others sit at its outer end, where the wedge is wider.
    """

    lines: tuple[str, ...]
    size: int
    orientation: Orientation
    centre: float
    boxes: tuple[Box, ...]

    def corners(self) -> tuple[Point, ...]:
        """Every line's ink corners as (across, out): pixels across the segment's centre
        line and out from the wheel's centre."""
        out: list[Point] = []
        for left, top, right, bottom in self.boxes:
            for x in (left, right):
                for y in (top, bottom):
                    if self.orientation is Orientation.TANGENTIAL:
                        out.append((float(x), self.centre - y))
                    else:
                        out.append((float(y), self.centre + x))
        return tuple(out)

    def reach(self) -> tuple[float, float]:
        """How far the ink reaches in (toward the hub) and out from the anchor."""
        outs = [out - self.centre for _, out in self.corners()]
        return -min(outs), max(outs)


def fits_wedge(corners: tuple[Point, ...], inner: float, outer: float, span: float,
               gap: float = LABEL_GAP) -> bool:
    """True when every corner lies `gap` pixels inside a wedge of `span` degrees (centred
    on the centre line) between radii `inner` and `outer`."""
    half = math.radians(min(span, 359.0)) / 2.0
    for across, out in corners:
        distance = math.hypot(across, out)
        if distance > outer - gap or out < inner + gap:
            return False
        # Distance from the corner to the nearer side of the wedge.
        if span < 360.0 and out * math.sin(half) - abs(across) * math.cos(half) < gap:
            return False
    return True


def fit_label(words: str, inner: float, outer: float, span: float,
              orientation: Orientation, top: int, smallest: int = 9) -> LabelFit | None:
    """The largest fit of `words` (size `top` down to `smallest`) in a wedge of `span`
    degrees between radii `inner` and `outer`; None when no size fits.

    A label of several words may break into two lines when that lets it be larger. Each
    size tries every position along the centre line (half a pixel apart) and takes the
    middle of those that fit.
    """
    for size in range(top, smallest - 1, -1):
        for lines in _breaks(words):
            boxes = _layout(lines, size, orientation)
            reach_in, reach_out = LabelFit(lines, size, orientation, 0.0, boxes).reach()
            low = inner + LABEL_GAP + reach_in
            steps = math.floor((outer - LABEL_GAP - reach_out - low) / 0.5)
            fitting = [fit for fit in (LabelFit(lines, size, orientation, low + 0.5 * i, boxes)
                                       for i in range(steps + 1))
                       if fits_wedge(fit.corners(), inner, outer, span)]
            if fitting:
                return fitting[len(fitting) // 2]
    return None


def rest_rotation(orientation: Orientation, position: float) -> float:
    """The on-screen rotation (degrees, counter-clockwise) of a label at rest `position`
    degrees clockwise of 12 o'clock: always in (−90°, 90°], so no label is ever upside down.

    A tangential label reads along the ring with the tops of its letters toward the rim
    on the upper half, and turns half a turn on the lower half (the top of its letters
    then toward the hub), as on a casino's Big Six wheel. A radial label reads outward,
    from the hub to the rim, on the right half, and inward on the left. Under the pointer
    at 12 o'clock a tangential label is level (0°) and a radial one reads upward, toward
    the pointer (90°).
    """
    if orientation is Orientation.TANGENTIAL:
        return _upright(-position)
    return _upright(90.0 - position)


def _upright(rotation: float) -> float:
    """`rotation` or its half-turn opposite, whichever lies in (−90°, 90°]."""
    r = rotation % 360.0
    if r > 270.0:
        return r - 360.0
    if r > 90.0:
        return r - 180.0
    return r


def reads_reversed(orientation: Orientation, position: float) -> bool:
    """True when the label at rest `position` is turned half a turn from its reading with
    the top (tangential) or the end (radial) toward the rim."""
    natural = -position if orientation is Orientation.TANGENTIAL else 90.0 - position
    return (rest_rotation(orientation, position) - natural) % 360.0 != 0.0


def label_sprite(fit: LabelFit, colour: RGB, reversed_: bool = False) -> pygame.Surface:
    """The label's lines in `colour` with a soft shadow, read level, the anchor in the
    middle of the surface.

    `reversed_` lays out a label that will be turned half a turn: its lines keep their
    reading order, and the shorter lines of a radial label move to the line's start, so
    that once turned they are again at the outer end.
    """
    inks = [_ink(line, fit.size, colour) for line in fit.lines]
    boxes = [(-right, top, -left, bottom) if reversed_ else (left, top, right, bottom)
             for left, top, right, bottom in fit.boxes]
    half_w = max(max(abs(b[0]), abs(b[2])) for b in boxes)
    half_h = max(max(abs(b[1]), abs(b[3])) for b in boxes)
    out = pygame.Surface((2 * half_w, 2 * half_h), pygame.SRCALPHA)
    for ink, (left, top, _, _) in zip(inks, boxes, strict=True):
        out.blit(ink, (half_w + left, half_h + top))
    return out


def place_label(surface: pygame.Surface, centre: Point, sprite: pygame.Surface,
                fit: LabelFit, at: float, rotation: float) -> None:
    """Blit `sprite` with its anchor on the segment's centre line, `at` degrees clockwise
    of 12 o'clock, turned `rotation` degrees counter-clockwise (a level label is not
    resampled)."""
    turned = sprite if rotation == 0.0 else pygame.transform.rotozoom(sprite, rotation, 1.0)
    x, y = point(centre, fit.centre, at)
    surface.blit(turned, turned.get_rect(center=(round(x), round(y))))


_LINE_GAP = 1


def _breaks(words: str) -> list[tuple[str, ...]]:
    """`words` on one line, and (when it has a space) on two lines broken near the middle."""
    spaces = [i for i, c in enumerate(words) if c == " "]
    if not spaces:
        return [(words,)]
    middle = min(spaces, key=lambda i: abs(i - len(words) / 2))
    return [(words,), (words[:middle], words[middle + 1:])]


def _layout(lines: tuple[str, ...], size: int, orientation: Orientation) -> tuple[Box, ...]:
    """Each line's ink box around the label's anchor (see :class:`LabelFit`)."""
    sizes = [_ink(line, size, (255, 255, 255)).get_size() for line in lines]
    tops = [sum(h for _, h in sizes[:i]) + _LINE_GAP * i for i in range(len(sizes))]
    height = tops[-1] + sizes[-1][1]
    if orientation is Orientation.TANGENTIAL:
        return tuple((-(w // 2), top - height // 2, w - w // 2, top - height // 2 + h)
                     for (w, h), top in zip(sizes, tops, strict=True))
    longest = max(range(len(sizes)), key=lambda i: sizes[i][0])
    width, middle = sizes[longest][0], tops[longest] + sizes[longest][1] // 2
    end = width - width // 2
    return tuple((-(width // 2) if i == longest else end - w, top - middle,
                  end, top - middle + h)
                 for i, ((w, h), top) in enumerate(zip(sizes, tops, strict=True)))


def _ink(words: str, size: int, colour: RGB) -> pygame.Surface:
    """`words` with a soft dark shadow, cropped to the ink so fitting is exact."""
    face = text(words, size, colour, Style.CONDENSED)
    shadow = text(words, size, (0, 0, 0), Style.CONDENSED)
    box = face.get_bounding_rect()
    out = pygame.Surface((box.width + 2, box.height + 2), pygame.SRCALPHA)
    dark = shadow.subsurface(box).copy()
    dark.set_alpha(150)
    out.blit(dark, (1, 1))
    out.blit(face.subsurface(box), (0, 0))
    return out


def fit_in_circle(words: str, radius: float, top: int, smallest: int = 9) -> LabelFit | None:
    """The largest fit of `words` (in one or two lines) centred in a circle of `radius`."""
    for size in range(top, smallest - 1, -1):
        for lines in _breaks(words):
            fit = LabelFit(lines, size, Orientation.TANGENTIAL, 0.0,
                           _layout(lines, size, Orientation.TANGENTIAL))
            if all(math.hypot(*corner) <= radius - LABEL_GAP for corner in fit.corners()):
                return fit
    return None


# -- geometry ----------------------------------------------------------------------------------


def point(centre: Point, radius: float, degrees: float) -> Point:
    """The point `radius` from `centre`, `degrees` clockwise from 12 o'clock."""
    a = math.radians(degrees)
    return centre[0] + radius * math.sin(a), centre[1] - radius * math.cos(a)
