"""The Bonus Spin wheel's rings as geometry and motion, apart from their pictures.

Where each ring lies (fractions of the wheel's radius), how its equal segments
sit round it and which one a given angle puts under the pointer (:class:`Ring`),
and how a ring turns over time onto a stop drawn before the spin (:class:`Motion`):
several full turns, then an ease-out, each ring stopping after the one outside it.
:mod:`etg.ui.wheel` paints and turns the rings these describe.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from etg.ui.wheel_art import Segment
from etg.ui.wheel_labels import MIN_LABEL_PX, LabelFit, Orientation, fit_label

RINGS: tuple[str, str, str] = ("community", "seat", "hot_spot")
"""The rings from the outside in, in the order of :meth:`etg.ui.wheel.WheelView.angles`."""

# Radii as fractions of the wheel's outer radius: the Hot Spot ring is the deepest, for its
# radial JACKPOT labels; the others hold one line of type across them.
RIM_INNER = 0.95
COMMUNITY_RADII = (0.81, 0.95)
SEAT_RADII = (0.674, 0.81)
HOT_SPOT_RADII = (0.2, 0.674)
HUB_RADIUS = 0.215

# The spin: each ring turns several full turns, then eases out onto its stop; they stop one
# after another, outside first, and neighbouring rings turn opposite ways.
DURATIONS_S: tuple[float, float, float] = (4.5, 5.5, 6.5)
FULL_TURNS: tuple[int, int, int] = (3, 4, 5)
DIRECTIONS: tuple[int, int, int] = (-1, 1, -1)  # -1 clockwise, +1 counter-clockwise

LABEL_TOP = 0.125  # the largest label type, in wheel radii


@dataclass(frozen=True, slots=True)
class Ring:
    """One ring's equal segments clockwise from 12 o'clock, segment 0 centred on it."""

    segments: tuple[Segment, ...]
    radii: tuple[float, float]
    band: tuple[float, float]  # where labels lie, in radii
    orientation: Orientation
    fits: tuple[LabelFit | None, ...]

    @classmethod
    def fitted(cls, segments: tuple[Segment, ...], radii: tuple[float, float],
               band: tuple[float, float], orientation: Orientation, radius: int) -> Ring:
        """The ring with its labels fitted in `band` at `radius`: one type size for the
        ring (the largest every plain label fits), a progressive's label no larger."""
        inner, outer = band[0] * radius, band[1] * radius
        span = 360.0 / len(segments)
        top = max(MIN_LABEL_PX, round(radius * LABEL_TOP))

        def fit(segment: Segment, size: int) -> LabelFit | None:
            return fit_label(segment.label, inner, outer, span, orientation, size)

        plain = [fit(s, top) for s in segments if s.level is None]
        sizes = [f.size for f in plain if f is not None]
        size = min(sizes) if sizes and len(sizes) == len(plain) else top
        return cls(segments, radii, band, orientation, tuple(fit(s, size) for s in segments))

    @property
    def span(self) -> float:
        return 360.0 / len(self.segments)

    def centre(self, index: int) -> float:
        """Clockwise angle of segment `index`'s centre from 12 o'clock in the ring's art."""
        return index * self.span

    def index_at(self, angle: float) -> int:
        """The segment whose span holds the clockwise position `angle` (any number of turns)."""
        return math.floor((angle % 360.0 + self.span / 2.0) / self.span) % len(self.segments)


@dataclass(frozen=True, slots=True)
class Motion:
    """A ring's angle over time: from `origin` at `start` to `target` after `duration`."""

    origin: float
    target: float
    start: float
    duration: float

    @classmethod
    def rest(cls, angle: float) -> Motion:
        return cls(angle, angle, -math.inf, 0.0)

    @property
    def ends(self) -> float:
        return self.start + self.duration

    def angle(self, now: float) -> float:
        if now >= self.ends:
            return self.target
        if now <= self.start:
            return self.origin
        u = (now - self.start) / self.duration
        return self.origin + (self.target - self.origin) * (1.0 - (1.0 - u) ** 3)
