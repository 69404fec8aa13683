"""The on-screen Bonus Spin Xtreme wheel: three rings that land on stops already drawn (SPEC §3).

The RNG draws every stop before the wheel moves and the engine records them; this
view only shows them. ``spin_to`` is given the recorded stops and an app time, and
from then on the picture is a pure function of the time: the same ``now`` always
draws the same frame, a spin interrupted by a restart is shown again from its
stops (``rest_on``), and nothing here can change where a ring lands.

The rings from the outside in are the Community ring, the Seat ring (one segment
per seat, in the seat's colour) and the Hot Spot ring, whose JACKPOT and MINI
JACKPOT wedges wear the progressive meters' gold and ink. Every segment of a ring
is drawn the same width, whatever its weight: the weights stay in the draw
(:mod:`etg.core.wheel`) and the help screen prints each segment's odds, while the
wheel gives every segment room for an upright label of at least 20 logical px
(SPEC §6: "visual width is not the weight"). A pointer at 12 o'clock has one tip
in each ring, over that ring's stop.

Labels never stand upside down at rest. Community and seat labels run across
their ring (tangential): level under the pointer, tops toward the rim on the
upper half and toward the hub on the lower half, as on a Big Six wheel. The Hot
Spot wedges are narrow and deep and JACKPOT is a long word, so their labels run
along the radius, reading outward on the right half and inward on the left (see
:func:`etg.ui.wheel_labels.rest_rotation`). Each spin is painted for its own stops:
every label is set in the ring's artwork already turned the way it will read
when the ring has landed, so the rings come to rest with every label upright and
nothing flips once they stop (the labels change their turn only as a spin sets
off, when the ring is already a blur).

Speed matters because the wheel spins inside the busiest table scene (SPEC §11:
a whole frame well under 8 ms). The wedges (each ring also in six smooth copies
turned 15° apart), rim (both blink states of its bulbs), pointer and hub are
painted once, supersampled, at construction. When a spin is set, each ring's
copies get their labels for its stops; the still pictures it will land on are
made by its first frames, one a frame. A moving frame is then three
``pygame.transform.rotate`` calls, each from the copy nearest its angle so the
turn and its bounding box stay small, and six blits. ``rotate`` samples the
nearest pixel, which nobody sees on a turning ring but shows on a still one, so a
ring that has stopped shows a picture made smoothly for its stop, with its labels
set level where they rest and a frame round the segment it landed on.

Those three rotations (about a millisecond and a half each at the table's radius)
are made between frames where there is time: :meth:`WheelView.frame_ahead` gives
the next frame's as work ahead, and a frame within :data:`AHEAD_SLACK_S` of the
moment they were made for shows them as they are — a ring a few milliseconds early
or late, never on another stop, and never when it comes to rest (a ring at rest
shows its still picture).

Angles are in degrees, counter-clockwise positive (pygame's sense). A ring turned
by ``a`` shows under the pointer the point of its artwork that lay ``a`` degrees
clockwise of 12 o'clock; segment 0 is painted centred on 12 o'clock, so a ring
rests on stop ``i`` at the angle of the centre of segment ``i``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from functools import partial

import pygame

from etg.core.paytable import BonusSpin
from etg.core.wheel import WheelStops, stops_problem
from etg.ui import theme
from etg.ui.ahead import Task
from etg.ui.ring_art import COPIES, RingArt
from etg.ui.wheel_art import (
    COMMUNITY_FILLS,
    COMMUNITY_INK,
    HOT_SPOT_FILLS,
    HOT_SPOT_INK,
    NOTCH,
    Segment,
    blit_ring,
    display_ready,
    ink_on,
    paint_hub,
    paint_pointer,
    paint_rim,
    ring_segments,
)
from etg.ui.wheel_celebration import CELEBRATION_S, celebrate
from etg.ui.wheel_labels import (
    MIN_LABEL_PX,
    LabelFit,
    Orientation,
    rest_rotation,
)
from etg.ui.wheel_rings import (
    COMMUNITY_RADII,
    DIRECTIONS,
    DURATIONS_S,
    FULL_TURNS,
    HOT_SPOT_RADII,
    HUB_RADIUS,
    RIM_INNER,
    RINGS,
    SEAT_RADII,
    Motion,
    Ring,
)

__all__ = ["CELEBRATION_S", "DURATIONS_S", "FULL_TURNS", "MIN_LABEL_PX", "RIM_INNER", "RINGS",
           "WheelView", "celebrate"]

AHEAD_SLACK_S = 0.004
"""How far from a frame's moment a turning ring's picture made ahead for another moment may
be and still be shown: 4 ms, under 3° at the fastest (a blur of 12° a frame) and a fraction
of a degree as the ring eases onto its stop."""


class WheelView:
    """The three-ring wheel of one paytable and table, at rest or spinning to recorded stops."""

    def __init__(self, bonus: BonusSpin, seats: int, radius: int) -> None:
        if seats < 1:
            raise ValueError(f"a wheel needs at least one seat, got {seats}")
        if radius < 40:
            raise ValueError(f"radius {radius} is too small to draw a wheel")
        self._bonus = bonus
        self._seats = seats
        self._radius = radius
        seat_segments = tuple(Segment(f"SEAT {n}", theme.seat_colour(n),
                                      ink_on(theme.seat_colour(n)))
                              for n in range(1, seats + 1))
        self._rings = (
            Ring.fitted(ring_segments(bonus.community_ring, COMMUNITY_FILLS, COMMUNITY_INK),
                         COMMUNITY_RADII, (COMMUNITY_RADII[0], COMMUNITY_RADII[1] - NOTCH),
                         Orientation.TANGENTIAL, radius),
            Ring.fitted(seat_segments, SEAT_RADII, (SEAT_RADII[0], SEAT_RADII[1] - NOTCH),
                         Orientation.TANGENTIAL, radius),
            Ring.fitted(ring_segments(bonus.hot_spot_ring, HOT_SPOT_FILLS, HOT_SPOT_INK),
                         HOT_SPOT_RADII, (HUB_RADIUS + NOTCH, HOT_SPOT_RADII[1]),
                         Orientation.RADIAL, radius),
        )
        art = display_ready
        self._arts = tuple(RingArt(ring, radius) for ring in self._rings)
        self._rims = (art(paint_rim(radius, RIM_INNER, lit=0)),
                      art(paint_rim(radius, RIM_INNER, lit=1)))
        pointer, self._pointer_offset = paint_pointer(radius, RIM_INNER, SEAT_RADII[1],
                                                      HUB_RADIUS)
        self._pointer = art(pointer)
        self._hub = art(paint_hub(radius, HUB_RADIUS))
        # Caches of pictures, not state (the same ``now`` draws the same frame without them):
        # each ring's still pictures and turned artworks (RingArt), and its last rotation.
        self._rotated: list[tuple[float, int, pygame.Surface] | None] = [None, None, None]
        self._ahead: list[_Rotation | None] = [None, None, None]  # made for the next frame
        self._expected: tuple[int, ...] = (-1, -1, -1)  # the stops of a spin made ahead
        self._motions: tuple[Motion, ...] = ()
        self._stops: tuple[int, int, int] = (0, 0, 0)
        self._landed = False
        self._before: tuple[tuple[int, bool] | None, ...] = (None, None, None)
        self.rest_on(None)

    # -- motion -----------------------------------------------------------------------------

    def rest_on(self, stops: WheelStops | None) -> None:
        """Rings at rest: on `stops` (e.g. after a restart, or the last spin's result), each
        stop framed, or, for None, at angle 0 (segment 0 of each ring under the pointer)."""
        indices = (0, 0, 0) if stops is None else self._check(stops)
        self._motions = tuple(Motion.rest(ring.centre(index))
                              for ring, index in zip(self._rings, indices, strict=True))
        self._stops = indices
        self._landed = stops is not None
        self._before = (None, None, None)
        self._prepare()

    def spin_to(self, stops: WheelStops, start: float) -> None:
        """Start a spin at app time `start` (seconds) that ends exactly on `stops`.

        Each ring sets off from where it is at `start` (its resting angle, or its angle in
        a spin still running), turns its full turns in its direction and eases onto the
        centre of its stop segment.
        """
        indices = self._check(stops)
        motions = []
        before = []
        for k, (ring, index) in enumerate(zip(self._rings, indices, strict=True)):
            old = self._motions[k]
            origin = old.angle(start) % 360.0
            centre = ring.centre(index)
            if DIRECTIONS[k] > 0:
                target = origin + 360.0 * FULL_TURNS[k] + (centre - origin) % 360.0
            else:
                target = origin - 360.0 * FULL_TURNS[k] - (origin - centre) % 360.0
            motions.append(Motion(origin, target, start, DURATIONS_S[k]))
            before.append((self._stops[k], self._landed) if start >= old.ends else None)
        self._motions = tuple(motions)
        self._stops = indices
        self._landed = True
        self._before = tuple(before)
        self._expected = (-1, -1, -1)
        self._ahead = [None, None, None]
        for ring_art, index in zip(self._arts, indices, strict=True):
            ring_art.drop_turned(keep=(index,))  # only this spin's turned copies
        # Not made here (a spin starts inside a frame): between frames, from
        # :meth:`work_ahead`, or each when a frame first shows it.

    def work_ahead(self, stops: WheelStops | None = None
                   ) -> list[Task]:
        """The pictures a spin onto `stops` will show (None: the current motions'), as tasks
        for between frames: each turning ring's turned artworks (about a millisecond each),
        then the still picture each ring lands on (a few). Made already, a task costs a
        dictionary lookup. Known as soon as the spin is committed, they are made while the
        payouts before it are still on show."""
        if stops is None:
            indices, turning = self._stops, [m.duration > 0.0 for m in self._motions]
        else:
            indices, turning = self._check(stops), [True] * len(self._rings)
            self._expected = indices
        tasks: list[Task] = []
        for k, stop in enumerate(indices):
            if turning[k]:
                tasks += [(("turned", k), partial(self._arts[k].turned_art, stop, step,
                                                  self._keep(k)))
                          for step in range(COPIES)]
        tasks += [(("rest", k), partial(self._arts[k].rest_picture, stop, True))
                  for k, stop in enumerate(indices)]
        return tasks

    def frame_ahead(self, at: float) -> list[Task]:
        """The rotations a frame at app time `at` (the next one) will show, as tasks for
        between frames: one for each ring turning then."""
        return [(("rotation", k), partial(self._rotate_ahead, k, at))
                for k, motion in enumerate(self._motions) if motion.start < at < motion.ends]

    @property
    def ring_arts(self) -> tuple[RingArt, ...]:
        """Each ring's pictures, outside in (what memory they hold is theirs to say)."""
        return self._arts

    def angles(self, now: float) -> tuple[float, float, float]:
        """Rotation in degrees (counter-clockwise) of the (community, seat, hot_spot) rings."""
        community, seat, hot_spot = (motion.angle(now) for motion in self._motions)
        return community, seat, hot_spot

    def spinning(self, now: float) -> bool:
        """True from ``spin_to`` until the last ring has stopped."""
        return now < self.ends_at

    @property
    def ends_at(self) -> float:
        """App time when the last ring stops; ``-inf`` for a wheel at rest."""
        return max(motion.ends for motion in self._motions)

    def segment_under_pointer(self, ring: str, now: float) -> int:
        """Index of the segment of ring 'community'|'seat'|'hot_spot' under the pointer at
        `now` (the Seat ring answers the 1-based seat)."""
        k = RINGS.index(ring)
        index = self._rings[k].index_at(self._motions[k].angle(now))
        return index + 1 if ring == "seat" else index

    # -- labels -----------------------------------------------------------------------------

    def segment_degrees(self, ring: str) -> float:
        """The angle every segment of `ring` is drawn across (all the same, whatever the odds)."""
        return self._rings[RINGS.index(ring)].span

    def label_band(self, ring: str) -> tuple[float, float]:
        """Inner and outer radius in pixels between which `ring`'s labels lie: the ring,
        less the reach of the pointer's tip into it."""
        inner, outer = self._rings[RINGS.index(ring)].band
        return inner * self._radius, outer * self._radius

    def label_fits(self, ring: str) -> tuple[LabelFit | None, ...]:
        """How each segment's label of `ring` is set (None: too small a wheel for any)."""
        return self._rings[RINGS.index(ring)].fits

    def rest_rotations(self, ring: str, index: int) -> tuple[float, ...]:
        """The on-screen turn (degrees counter-clockwise) of each label of `ring` when it
        rests with segment `index` (0-based) under the pointer: each in (−90°, 90°]."""
        r = self._rings[RINGS.index(ring)]
        return tuple(rest_rotation(r.orientation, r.centre(j) - r.centre(index))
                     for j in range(len(r.segments)))

    # -- drawing ----------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, centre: tuple[int, int], now: float) -> None:
        """The wheel at `now`, centred on `centre`; it reaches about 1.1 radii from it."""
        self.draw_rings(surface, centre, now)
        self.draw_over_rings(surface, centre, now)

    def draw_rings(self, surface: pygame.Surface, centre: tuple[int, int],
                   now: float) -> list[pygame.Rect]:
        """The three rings alone: while :meth:`still` they look the same from frame to frame,
        so a caller may keep them drawn on its background. Returns the boxes drawn in."""
        drawn = []
        for k, ring in enumerate(self._rings):
            # Only the ring's own square (the corners a rotation adds are transparent), and
            # not the hole in its middle.
            drawn += blit_ring(surface, self._picture_at(k, now), centre,
                               self._arts[k].base.get_width(), ring.radii[0] * self._radius)
        return drawn

    def draw_over_rings(self, surface: pygame.Surface, centre: tuple[int, int],
                        now: float) -> list[pygame.Rect]:
        """The rim with its blinking bulbs, the hub and the pointer, over the rings. Returns
        the boxes drawn in: the rim's four strips, the hub's, the pointer's."""
        # The rim's middle is clear but for its bulbs' glow, just inside it.
        drawn = blit_ring(surface, self._rims[self._bulb_phase(now)], centre,
                          self._rims[0].get_width(), (RIM_INNER - 0.03) * self._radius)
        drawn.append(surface.blit(self._hub, self._hub.get_rect(center=centre)))
        drawn.append(surface.blit(self._pointer, (centre[0] + self._pointer_offset[0],
                                                  centre[1] + self._pointer_offset[1])))
        return drawn

    def rim_key(self, now: float) -> Hashable:
        """Equal while :meth:`draw_over_rings` draws the same picture at the same centre
        (this view's rim, hub and pointer, the same bulbs lit)."""
        return (id(self._rims), self._bulb_phase(now))

    def still(self, now: float) -> Hashable | None:
        """What the rings show at `now` when none of them is turning (equal keys: the same
        picture), or None while one turns."""
        shown = []
        for k, motion in enumerate(self._motions):
            before = self._before[k]
            if now >= motion.ends:
                shown.append((self._stops[k], self._landed))
            elif now <= motion.start and before is not None:
                shown.append(before)
            else:
                return None
        return tuple(shown)

    def _prepare(self) -> None:
        """Make the pictures the current motions show first: a still ring's picture, a
        turning ring's turned artworks (about half a millisecond each at the table's
        radius). For a spin, :meth:`work_ahead` has them made between frames instead."""
        for k, stop in enumerate(self._stops):
            if self._motions[k].duration > 0.0:
                for step in range(COPIES):
                    self._arts[k].turned_art(stop, step, self._keep(k))
            else:
                self._arts[k].rest_picture(stop, self._landed)

    def _picture_at(self, k: int, now: float) -> pygame.Surface:
        """Ring `k` as shown at `now`: still on its stop, still before a spin, or turning."""
        motion = self._motions[k]
        if now >= motion.ends:
            # At rest: its turned copies (up to a megabyte each) go, but for those made
            # ahead for the next spin.
            self._arts[k].drop_turned(keep=(self._expected[k],))
            self._ahead[k] = None
            return self._arts[k].rest_picture(self._stops[k], self._landed)
        before = self._before[k]
        if now <= motion.start and before is not None:
            return self._arts[k].rest_picture(*before)
        ahead = self._ahead[k]
        if (ahead is not None and ahead.motion is motion and ahead.stop == self._stops[k]
                and abs(ahead.at - now) <= AHEAD_SLACK_S):
            return ahead.picture
        angle = motion.angle(now) % 360.0
        stop = self._stops[k]
        last = self._rotated[k]
        if last is not None and last[0] == angle and last[1] == stop:
            return last[2]
        rotated = self._arts[k].rotation(stop, angle, self._keep(k))
        self._rotated[k] = (angle, stop, rotated)
        return rotated

    def _keep(self, k: int) -> tuple[int, ...]:
        """The stops ring `k`'s turned copies are kept for: this spin's and the next's."""
        return self._stops[k], self._expected[k]

    def _rotate_ahead(self, k: int, at: float) -> None:
        motion = self._motions[k]
        if motion.start < at < motion.ends:
            stop = self._stops[k]
            self._ahead[k] = _Rotation(motion, stop, at, self._arts[k].rotation(
                stop, motion.angle(at) % 360.0, self._keep(k)))

    def _bulb_phase(self, now: float) -> int:
        """Which half of the bulbs is lit: a fast chase while spinning, a slow blink at rest."""
        rate = 9.0 if self.spinning(now) else 1.5
        return math.floor(now * rate) % 2

    def _check(self, stops: WheelStops) -> tuple[int, int, int]:
        """The segment index of each ring's stop; ValueError for a stop this wheel lacks."""
        problem = stops_problem(self._bonus, self._seats, stops)
        if problem is not None:
            raise ValueError(problem)
        return stops.community, stops.seat - 1, stops.hot_spot


@dataclass(frozen=True, slots=True)
class _Rotation:
    """A turning ring's picture made ahead for the frame at `at` of `motion` onto `stop`."""

    motion: Motion
    stop: int
    at: float
    picture: pygame.Surface
