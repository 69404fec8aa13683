"""The on-screen Bonus Spin Xtreme wheel: three rings that land on stops already drawn (SPEC §3).

The RNG draws every stop before the wheel moves and the engine records them; this
view only shows them. ``spin_to`` is given the recorded stops and an app time, and
from then on the picture is a pure function of the time: the same ``now`` always
draws the same frame, a spin interrupted by a restart is shown again from its
stops (``rest_on``), and nothing here can change where a ring lands.

Every segment's angle is proportional to its weight, so the wheel shows the true
odds: rings from the outside in are the Community ring, the Seat ring (one equal
segment per seat, in the seat's colour) and the Hot Spot ring, whose JACKPOT and
MINI JACKPOT segments are gold and silver. One fixed pointer at 12 o'clock
shows the stop of all three rings.

Speed matters because the wheel spins inside the busiest table scene (SPEC §11:
a whole frame well under 8 ms). Everything is painted once, supersampled, at
construction: each ring on its own transparent surface, the rim with its light
bulbs (both blink states), the pointer and the hub. A moving frame is then three
``pygame.transform.rotate`` calls and six blits, about 1.3 ms at radius 260.
``rotate`` samples the nearest pixel, which nobody sees on a turning ring but
shows on a still one, so a ring that has stopped shows a smooth rotation made
(once per segment) by ``spin_to`` or ``rest_on``.

Angles are in degrees, counter-clockwise positive (pygame's sense). A ring turned
by ``a`` shows under the pointer the point of its artwork that lay ``a`` degrees
clockwise of 12 o'clock; segment 0 is painted centred on 12 o'clock, so a ring
rests on stop ``i`` at the angle of the centre of segment ``i``.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import pygame
import pygame.gfxdraw

from etg.core.paytable import BonusSpin, ProgressiveLevel, WheelSegment
from etg.core.wheel import WheelStops, stops_problem
from etg.ui import theme
from etg.ui.assets import Style, font, text
from etg.ui.theme import shade

RGB = tuple[int, int, int]

RINGS: tuple[str, str, str] = ("community", "seat", "hot_spot")
"""The rings from the outside in, in the order of :meth:`WheelView.angles`."""

# Radii as fractions of the wheel's outer radius.
RIM_INNER = 0.90
COMMUNITY_RADII = (0.615, 0.90)
SEAT_RADII = (0.495, 0.615)
HOT_SPOT_RADII = (0.245, 0.495)
HUB_RADIUS = 0.255
POINTER_TIP = 0.872  # the tip just enters the Community ring, clear of its labels

# The spin: each ring turns several full turns, then eases out onto its stop; they stop one
# after another, outside first, and neighbouring rings turn opposite ways.
DURATIONS_S: tuple[float, float, float] = (4.5, 5.5, 6.5)
FULL_TURNS: tuple[int, int, int] = (3, 4, 5)
DIRECTIONS: tuple[int, int, int] = (-1, 1, -1)  # -1 clockwise, +1 counter-clockwise

CELEBRATION_S = 6.0
"""How long :func:`celebrate` draws after a progressive hit."""

_SS = 3  # supersampling factor of the pre-rendered art: antialiased edges for free per frame

# Segment fills: neighbours alternate; a ring with an odd number of segments uses the third
# colour once, so the last segment never matches the first.
_COMMUNITY_FILLS: tuple[RGB, ...] = ((176, 20, 34), (24, 22, 30), (92, 24, 120))
_COMMUNITY_INK: RGB = (255, 222, 130)
_HOT_SPOT_FILLS: tuple[RGB, ...] = ((28, 70, 160), (74, 26, 118), (16, 110, 110))
_HOT_SPOT_INK: RGB = (250, 242, 222)
_JACKPOT_FILL: RGB = (242, 196, 70)
_JACKPOT_INK: RGB = (120, 12, 12)
_MINI_FILL: RGB = (200, 206, 216)
_MINI_INK: RGB = (24, 30, 60)
_SEAT_INK: RGB = (255, 255, 255)
_SEPARATOR: RGB = (236, 198, 96)
_EDGE_DARK: RGB = (70, 44, 8)
_BULB_ON: RGB = (255, 248, 214)
_BULB_GLOW: RGB = (255, 206, 90)
_BULB_OFF: RGB = (128, 84, 30)


class WheelView:
    """The three-ring wheel of one paytable and table, at rest or spinning to recorded stops."""

    def __init__(self, bonus: BonusSpin, seats: int, radius: int) -> None:
        if seats < 1:
            raise ValueError(f"a wheel needs at least one seat, got {seats}")
        if radius < 40:
            raise ValueError(f"radius {radius} is too small to draw a wheel")
        self._bonus = bonus
        self._seats = seats
        seat_segments = [_Segment(f"SEAT {n}", 1, theme.seat_colour(n), _SEAT_INK, False)
                         for n in range(1, seats + 1)]
        self._rings = (
            _Ring(_ring_segments(bonus.community_ring, _COMMUNITY_FILLS, _COMMUNITY_INK),
                  COMMUNITY_RADII, radial_labels=True),
            _Ring(tuple(seat_segments), SEAT_RADII, radial_labels=False),
            _Ring(_ring_segments(bonus.hot_spot_ring, _HOT_SPOT_FILLS, _HOT_SPOT_INK),
                  HOT_SPOT_RADII, radial_labels=True),
        )
        art = _display_ready
        self._ring_art = tuple(art(_paint_ring(ring, radius)) for ring in self._rings)
        self._rims = (art(_paint_rim(radius, lit=0)), art(_paint_rim(radius, lit=1)))
        pointer, self._pointer_offset = _paint_pointer(radius)
        self._pointer = art(pointer)
        self._hub = art(_paint_hub(radius))
        # Caches of pictures, not state (the same ``now`` draws the same frame without them):
        # each ring's last rotation, and each ring smoothly at rest on a segment, made on
        # demand by (ring, segment), about 1 MB a segment at radius 260.
        self._rotated: list[tuple[float, pygame.Surface] | None] = [None, None, None]
        self._smooth: dict[tuple[int, int], pygame.Surface] = {}
        self._motions: tuple[_Motion, ...] = ()
        self._resting: tuple[tuple[float, pygame.Surface], ...] = ()
        self.rest_on(None)

    # -- motion -----------------------------------------------------------------------------

    def rest_on(self, stops: WheelStops | None) -> None:
        """Rings at rest: on `stops` (e.g. after a restart, or the last spin's result) or,
        for None, at angle 0 (segment 0 of each ring under the pointer)."""
        indices = (0, 0, 0) if stops is None else self._check(stops)
        self._set_motions(tuple(_Motion.rest(ring.centre(index))
                                for ring, index in zip(self._rings, indices, strict=True)), indices)

    def spin_to(self, stops: WheelStops, start: float) -> None:
        """Start a spin at app time `start` (seconds) that ends exactly on `stops`.

        Each ring sets off from where it is at `start` (its resting angle, or its angle in
        a spin still running), turns its full turns in its direction and eases onto the
        centre of its stop segment.
        """
        indices = self._check(stops)
        motions = []
        for k, (ring, index) in enumerate(zip(self._rings, indices, strict=True)):
            origin = self._motions[k].angle(start) % 360.0
            centre = ring.centre(index)
            if DIRECTIONS[k] > 0:
                target = origin + 360.0 * FULL_TURNS[k] + (centre - origin) % 360.0
            else:
                target = origin - 360.0 * FULL_TURNS[k] - (origin - centre) % 360.0
            motions.append(_Motion(origin, target, start, DURATIONS_S[k]))
        self._set_motions(tuple(motions), indices)

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

    # -- drawing ----------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, centre: tuple[int, int], now: float) -> None:
        """The wheel at `now`, centred on `centre`; it reaches about 1.1 radii from it."""
        for k, angle in enumerate(self.angles(now)):
            ring = self._rotate(k, angle % 360.0)
            # Only the ring's own square: the corners a rotation adds are transparent.
            side = self._ring_art[k].get_width()
            area = pygame.Rect(0, 0, side, side)
            area.center = (ring.get_width() // 2, ring.get_height() // 2)
            surface.blit(ring, area.move(centre[0] - ring.get_width() // 2,
                                         centre[1] - ring.get_height() // 2), area)
        rim = self._rims[self._bulb_phase(now)]
        surface.blit(rim, rim.get_rect(center=centre))
        surface.blit(self._hub, self._hub.get_rect(center=centre))
        surface.blit(self._pointer, (centre[0] + self._pointer_offset[0],
                                     centre[1] + self._pointer_offset[1]))

    def _set_motions(self, motions: tuple[_Motion, ...], indices: tuple[int, int, int]) -> None:
        """Take new motions, with each ring's smooth picture at rest on its stop segment.

        A smooth rotation costs about 5 ms for the three rings at radius 260, so it is made
        here, once per segment, and never in :meth:`draw`.
        """
        self._motions = motions
        resting = []
        for k, (motion, index) in enumerate(zip(motions, indices, strict=True)):
            smooth = self._smooth.get((k, index))
            if smooth is None:
                angle = self._rings[k].centre(index) % 360.0
                art = self._ring_art[k]
                smooth = art if angle == 0.0 else pygame.transform.rotozoom(art, angle, 1.0)
                self._smooth[(k, index)] = smooth
            resting.append((motion.target % 360.0, smooth))
        self._resting = tuple(resting)

    def _rotate(self, k: int, angle: float) -> pygame.Surface:
        if self._resting[k][0] == angle:
            return self._resting[k][1]
        last = self._rotated[k]
        if last is not None and last[0] == angle:
            return last[1]
        rotated = pygame.transform.rotate(self._ring_art[k], angle)
        self._rotated[k] = (angle, rotated)
        return rotated

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


def celebrate(surface: pygame.Surface, rect: pygame.Rect, now: float, started: float,
              title: str, amount: str) -> None:
    """A progressive hit: rays, confetti and pulsing gold `title` over `amount`, inside `rect`.

    It lasts :data:`CELEBRATION_S` seconds from `started` and draws nothing outside that
    window. Every particle is a pure function of ``now - started`` (a fixed-seed table),
    so the same moment always draws the same picture.
    """
    t = now - started
    if not 0.0 <= t <= CELEBRATION_S or rect.width <= 0 or rect.height <= 0:
        return
    fade = max(0.0, min(1.0, t / 0.25, (CELEBRATION_S - t) / 0.6))
    clip = surface.get_clip()
    surface.set_clip(rect.clip(clip))
    try:
        _draw_rays(surface, rect, t, fade)
        _draw_confetti(surface, rect, t)
        _draw_banner(surface, rect, t, fade, title, amount)
    finally:
        surface.set_clip(clip)


# -- the rings ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Segment:
    label: str
    weight: int
    fill: RGB
    ink: RGB
    star: bool  # a progressive: marked with a star when its label cannot fit


@dataclass(frozen=True, slots=True)
class _Ring:
    """One ring's segments laid out clockwise from 12 o'clock, segment 0 centred on it."""

    segments: tuple[_Segment, ...]
    radii: tuple[float, float]
    radial_labels: bool

    @property
    def _total(self) -> int:
        return sum(segment.weight for segment in self.segments)

    def span(self, index: int) -> tuple[float, float]:
        """Clockwise start and end of segment `index`, in degrees from 12 o'clock."""
        before = sum(segment.weight for segment in self.segments[:index])
        start = 360.0 * before / self._total - self._half_first
        return start, start + 360.0 * self.segments[index].weight / self._total

    def centre(self, index: int) -> float:
        start, end = self.span(index)
        return (start + end) / 2.0

    def index_at(self, angle: float) -> int:
        """The segment whose span holds the clockwise position `angle` (any number of turns)."""
        position = (angle + self._half_first) % 360.0 * self._total / 360.0
        bounds = []
        running = 0
        for segment in self.segments:
            bounds.append(running)
            running += segment.weight
        return min(bisect_right(bounds, position) - 1, len(self.segments) - 1)

    @property
    def _half_first(self) -> float:
        return 180.0 * self.segments[0].weight / self._total


@dataclass(frozen=True, slots=True)
class _Motion:
    """A ring's angle over time: from `origin` at `start` to `target` after `duration`."""

    origin: float
    target: float
    start: float
    duration: float

    @classmethod
    def rest(cls, angle: float) -> _Motion:
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


def _ring_segments(segments: Sequence[WheelSegment], fills: tuple[RGB, ...],
                   ink: RGB) -> tuple[_Segment, ...]:
    out = []
    for i, segment in enumerate(segments):
        if segment.progressive is ProgressiveLevel.PRIMARY:
            out.append(_Segment(segment.symbol, segment.weight, _JACKPOT_FILL, _JACKPOT_INK, True))
        elif segment.progressive is not None:
            out.append(_Segment(segment.symbol, segment.weight, _MINI_FILL, _MINI_INK, True))
        else:
            odd_last = len(segments) % 2 == 1 and i == len(segments) - 1 and i > 0
            fill = fills[2] if odd_last else fills[i % 2]
            out.append(_Segment(segment.symbol, segment.weight, fill, ink, False))
    return tuple(out)


def _display_ready(surface: pygame.Surface) -> pygame.Surface:
    """The surface in the display's pixel format when there is a display (faster blits)."""
    return surface.convert_alpha() if pygame.display.get_surface() is not None else surface


def _point(centre: tuple[float, float], radius: float, degrees: float) -> tuple[float, float]:
    """The point `radius` from `centre`, `degrees` clockwise from 12 o'clock."""
    a = math.radians(degrees)
    return centre[0] + radius * math.sin(a), centre[1] - radius * math.cos(a)


def _sector(centre: tuple[float, float], inner: float, outer: float, start: float,
            end: float) -> list[tuple[float, float]]:
    steps = max(2, math.ceil((end - start) / 0.5))
    arc = [start + (end - start) * i / steps for i in range(steps + 1)]
    return ([_point(centre, outer, a) for a in arc]
            + [_point(centre, inner, a) for a in reversed(arc)])


def _pillow(x: float) -> float:
    """Light across a ring from its inner (0) to outer (1) edge: a gently domed band."""
    return 0.62 + 0.5 * x - 0.28 * max(0.0, x - 0.82) / 0.18


def _paint_ring(ring: _Ring, radius: int) -> pygame.Surface:
    inner, outer = ring.radii[0] * radius, ring.radii[1] * radius
    side = 2 * math.ceil(outer) + 4
    big = pygame.Surface((side * _SS, side * _SS), pygame.SRCALPHA)
    c = (side * _SS / 2.0, side * _SS / 2.0)
    bands = 14
    for index, segment in enumerate(ring.segments):
        start, end = ring.span(index)
        for b in range(bands):
            r0 = inner + (outer - inner) * b / bands
            r1 = inner + (outer - inner) * (b + 1) / bands + 0.5
            colour = shade(segment.fill, _pillow((b + 0.5) / bands))
            pygame.draw.polygon(big, colour, _sector(c, r0 * _SS, r1 * _SS, start, end))
    separator = max(1.0, radius / 190.0)
    count = len(ring.segments)
    for index in range(count if count > 1 else 0):
        a = ring.span(index)[0]
        # Dark edges around a progressive, so a thin gold JACKPOT never reads as a separator.
        beside_star = ring.segments[index].star or ring.segments[index - 1].star
        pygame.draw.line(big, _EDGE_DARK if beside_star else _SEPARATOR,
                         _point(c, inner * _SS, a), _point(c, outer * _SS, a),
                         max(1, round(separator * _SS)))
    edge = max(2.0, radius / 90.0)
    pygame.draw.circle(big, _SEPARATOR, c, outer * _SS, round(edge * _SS))
    pygame.draw.circle(big, _EDGE_DARK, c, (outer - edge) * _SS + 1, max(1, _SS))
    pygame.draw.circle(big, _EDGE_DARK, c, inner * _SS + _SS, max(1, _SS))
    art = pygame.transform.smoothscale(big, (side, side))
    centre = (side / 2.0, side / 2.0)
    for index, segment in enumerate(ring.segments):
        start, end = ring.span(index)
        if ring.radial_labels:
            _radial_label(art, centre, segment, start, end, inner + 1, outer - edge, radius)
        else:
            _tangential_label(art, centre, segment, (start + end) / 2.0, inner, outer - edge)
    return art


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


def _radial_label(art: pygame.Surface, centre: tuple[float, float], segment: _Segment,
                  start: float, end: float, inner: float, outer: float, radius: int) -> None:
    """The label reads outward along the segment's centre line, its end near the rim.

    The largest size whose ink fits both the ring's depth and the segment's chord at the
    label's inner end; a segment too thin for any legible size gets a star (progressives)
    or nothing, its colour still showing it. Wide segments repeat the label every ~34°
    (always one on the centre line, where the pointer stops).
    """
    pad = max(3.0, radius * 0.032)  # clear of the pointer's tip and notches
    half = math.radians(end - start) / 2.0
    top = max(10, round(radius * 0.085))
    for size in range(top, 8, -1):
        label = _ink(segment.label, size, segment.ink)
        length, thick = label.get_size()
        if length > outer - inner - 2 * pad:
            continue
        near = outer - pad - length
        if 2.0 * near * math.sin(min(half, math.pi / 2)) - 1.5 < thick:
            continue
        middle = outer - pad - length / 2.0
        for offset in _repeats(end - start, math.degrees(thick / near) * 4 + 20.0):
            at = (start + end) / 2.0 + offset
            turned = pygame.transform.rotozoom(label, 90.0 - at, 1.0)
            art.blit(turned, turned.get_rect(center=_point(centre, middle, at)))
        return
    if segment.star:
        star = min((outer - inner) * 0.2, (outer - pad) * math.sin(half) - 1.5)
        if star >= 2.5:
            _star(art, _point(centre, outer - pad - star, (start + end) / 2.0), star,
                  segment.ink)


def _repeats(span: float, spacing: float) -> list[float]:
    """Offsets from a segment's centre for its labels: 0, then ±spacing, ... inside it."""
    offsets = [0.0]
    k = 1
    while k * spacing + spacing * 0.45 < span / 2.0:
        offsets += [k * spacing, -k * spacing]
        k += 1
    return offsets


def _tangential_label(art: pygame.Surface, centre: tuple[float, float], segment: _Segment,
                      at: float, inner: float, outer: float) -> None:
    """A seat label upright across the ring, the top of its letters toward the rim."""
    depth = outer - inner
    size = max(9, round(depth * 0.62))
    label = _ink(segment.label, size, segment.ink)
    while label.get_height() > depth * 0.62 and size > 9:
        size -= 1
        label = _ink(segment.label, size, segment.ink)
    turned = pygame.transform.rotozoom(label, -at, 1.0)
    art.blit(turned, turned.get_rect(center=_point(centre, (inner + outer) / 2.0, at)))


def _star(surface: pygame.Surface, at: tuple[float, float], r: float, colour: RGB) -> None:
    points = [_point(at, r if i % 2 == 0 else r * 0.45, i * 36.0) for i in range(10)]
    pygame.draw.polygon(surface, colour, points)


# -- rim, pointer and hub --------------------------------------------------------------------------


def _metal(x: float) -> RGB:
    """Polished gold across a band, 0 at one edge and 1 at the other."""
    light = 0.55 + 0.65 * math.sin(math.pi * x) ** 1.5
    return shade(theme.GOLD_DARK, light) if light <= 1.0 else shade(theme.GOLD, light - 0.05)


def _paint_rim(radius: int, lit: int) -> pygame.Surface:
    """The gold rim and its bulbs (every other one lit, by `lit`), over a soft drop shadow."""
    margin = math.ceil(radius * 0.07)
    side = 2 * (radius + margin)
    big = pygame.Surface((side * _SS, side * _SS), pygame.SRCALPHA)
    c = (side * _SS / 2.0, side * _SS / 2.0)
    shadow_c = (c[0], c[1] + radius * 0.025 * _SS)
    rings = 16
    for i in range(rings):
        r = (radius + margin * 0.95 * (1.0 - i / rings)) * _SS
        pygame.draw.circle(big, (0, 0, 0, round(120 * ((i + 1) / rings) ** 2)), shadow_c, r)
    pygame.draw.circle(big, (0, 0, 0, 0), c, RIM_INNER * radius * _SS)
    inner = (RIM_INNER * radius - 1.5) * _SS
    outer = radius * _SS
    steps = 24
    for i in range(steps):
        r = outer - (outer - inner) * i / steps
        pygame.draw.circle(big, _metal(i / (steps - 1)), c, r,
                           max(1, math.ceil((outer - inner) / steps) + 1))
    pygame.draw.circle(big, _EDGE_DARK, c, outer, max(1, _SS))
    pygame.draw.circle(big, _EDGE_DARK, c, inner + _SS, max(1, round(1.5 * _SS)))
    bulb = max(2.5, radius * 0.02)
    track = (1.0 + RIM_INNER) / 2.0 * radius
    count = 2 * max(8, round(math.tau * track / (bulb * 7.0) / 2))
    sprites = (_bulb_sprite(bulb, on=False), _bulb_sprite(bulb, on=True))
    for i in range(count):
        x, y = _point(c, track * _SS, 360.0 * i / count)
        sprite = sprites[1 if i % 2 == lit else 0]
        big.blit(sprite, sprite.get_rect(center=(round(x), round(y))))
    return pygame.transform.smoothscale(big, (side, side))


def _bulb_sprite(bulb: float, on: bool) -> pygame.Surface:
    """One bulb in its socket at supersampled size; lit bulbs glow over the rim."""
    r = bulb * _SS
    side = math.ceil(r * 5.0)
    sprite = pygame.Surface((side, side), pygame.SRCALPHA)
    c = (side / 2.0, side / 2.0)
    glow = pygame.Surface((side, side), pygame.SRCALPHA)
    if on:
        for i in range(12):
            pygame.draw.circle(glow, (*_BULB_GLOW, round(14 + 110 * (i / 11) ** 2)), c,
                               r * (2.4 - 1.2 * i / 11))
    pygame.draw.circle(glow, (40, 22, 4, 255), c, r * 1.3)
    sprite.blit(glow, (0, 0))
    core = _BULB_ON if on else _BULB_OFF
    pygame.draw.circle(sprite, shade(core, 0.8), c, r)
    pygame.draw.circle(sprite, core, (c[0] - r * 0.12, c[1] - r * 0.12), r * 0.8)
    highlight = (255, 255, 255) if on else (214, 180, 120)
    pygame.draw.circle(sprite, highlight, (c[0] - r * 0.35, c[1] - r * 0.35), r * 0.28)
    return sprite


def _paint_pointer(radius: int) -> tuple[pygame.Surface, tuple[int, int]]:
    """The pointer at 12 o'clock and the notches that carry it onto the inner rings.

    Returns the art and where its top-left corner sits relative to the wheel's centre.
    """
    half_w = math.ceil(radius * 0.1)
    top = -math.ceil(radius * 1.1)
    bottom = -math.floor(HOT_SPOT_RADII[1] * radius * 0.9)
    w, h = 2 * half_w, bottom - top
    big = pygame.Surface((w * _SS, h * _SS), pygame.SRCALPHA)

    def at(x: float, y: float) -> tuple[float, float]:
        """Wheel coordinates in radii (y up is negative) to supersampled art pixels."""
        return (half_w + x * radius) * _SS, (y * radius - top) * _SS

    body = [at(0.0, -POINTER_TIP), at(0.058, -0.945), at(0.066, -1.03), at(-0.066, -1.03),
            at(-0.058, -0.945)]
    cap = at(0.0, -1.03)
    shadow = pygame.Surface(big.get_size(), pygame.SRCALPHA)
    offset = (radius * 0.012 * _SS, radius * 0.02 * _SS)
    pygame.draw.polygon(shadow, (0, 0, 0, 110), [(x + offset[0], y + offset[1]) for x, y in body])
    pygame.draw.circle(shadow, (0, 0, 0, 110), (cap[0] + offset[0], cap[1] + offset[1]),
                       radius * 0.066 * _SS)
    big.blit(shadow, (0, 0))
    outline = max(1, round(radius / 130.0 * _SS))
    pygame.draw.polygon(big, theme.GOLD, body)
    pygame.draw.circle(big, theme.GOLD, cap, radius * 0.066 * _SS)
    shrunk = [at(0.0, -POINTER_TIP - 0.025), at(0.044, -0.945), at(0.05, -1.02),
              at(-0.05, -1.02), at(-0.044, -0.945)]
    pygame.draw.polygon(big, (150, 14, 24), shrunk)
    pygame.draw.polygon(big, (214, 40, 50), [*shrunk[:3], at(0.0, -1.02)])
    pygame.draw.circle(big, (150, 14, 24), cap, radius * 0.05 * _SS)
    pygame.draw.polygon(big, _EDGE_DARK, body, outline)
    pygame.draw.circle(big, theme.GOLD, cap, radius * 0.026 * _SS)
    pygame.draw.circle(big, (255, 240, 190), (cap[0] - radius * 0.008 * _SS,
                                              cap[1] - radius * 0.008 * _SS),
                       radius * 0.011 * _SS)
    for ring_outer in (SEAT_RADII[1], HOT_SPOT_RADII[1]):
        notch = [at(0.0, -ring_outer + 0.024), at(0.019, -ring_outer - 0.006),
                 at(-0.019, -ring_outer - 0.006)]
        pygame.draw.polygon(big, theme.GOLD, notch)
        pygame.draw.polygon(big, _EDGE_DARK, notch, outline)
    art = pygame.transform.smoothscale(big, (w, h))
    return art, (-half_w, top)


def _paint_hub(radius: int) -> pygame.Surface:
    r = HUB_RADIUS * radius
    side = 2 * math.ceil(r) + 4
    big = pygame.Surface((side * _SS, side * _SS), pygame.SRCALPHA)
    c = (side * _SS / 2.0, side * _SS / 2.0)
    steps = 12
    for i in range(steps):
        pygame.draw.circle(big, _metal(i / (steps - 1)), c, (r - r * 0.16 * i / steps) * _SS)
    face = r * 0.84
    for i in range(20):
        x = i / 19
        colour = shade((150, 12, 24), 0.55 + 0.7 * x) if x < 0.7 else \
            shade((200, 28, 40), 1.0 + 0.25 * (x - 0.7))
        pygame.draw.circle(big, colour, (c[0] - face * 0.25 * x * _SS, c[1] - face * 0.3 * x * _SS),
                           face * (1.0 - 0.8 * x) * _SS)
    pygame.draw.circle(big, _EDGE_DARK, c, face * _SS, max(1, _SS))
    pygame.draw.circle(big, _EDGE_DARK, c, r * _SS, max(1, _SS))
    art = pygame.transform.smoothscale(big, (side, side))
    width = face * 1.62
    centre = (side / 2.0, side / 2.0)
    upper = _fitted_ink("BONUS SPIN", round(r * 0.26), theme.CREAM, width, Style.CONDENSED)
    lower = _fitted_ink("XTREME", round(r * 0.4), theme.GOLD, width, Style.BOLD)
    gap = r * 0.06
    total = upper.get_height() + gap + lower.get_height()
    y = centre[1] - total / 2.0
    art.blit(upper, upper.get_rect(midtop=(round(centre[0]), round(y))))
    art.blit(lower, lower.get_rect(midtop=(round(centre[0]),
                                           round(y + upper.get_height() + gap))))
    return art


def _fitted_ink(words: str, size: int, colour: RGB, width: float,
                style: Style) -> pygame.Surface:
    """`words` outlined in dark ink, stepped down in size until `width` holds them."""
    while True:
        surface = _outlined(words, size, colour, colour, style, max(1, size // 14))
        if surface.get_width() <= width or size <= 8:
            return surface
        size -= 1


# -- the celebration -------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _outlined(words: str, size: int, top: RGB, bottom: RGB, style: Style,
              outline: int) -> pygame.Surface:
    """`words` in a vertical gradient from `top` to `bottom`, ringed by a dark outline."""
    face = font(size, style).render(words, True, (255, 255, 255))
    w, h = face.get_size()
    gradient = pygame.Surface((w, h), pygame.SRCALPHA)
    for y in range(h):
        x = y / max(1, h - 1)
        colour = tuple(round(a + (b - a) * x) for a, b in zip(top, bottom, strict=True))
        pygame.draw.line(gradient, (*colour, 255), (0, y), (w, y))
    face.blit(gradient, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    dark = font(size, style).render(words, True, (40, 18, 0))
    out = pygame.Surface((w + 2 * outline, h + 2 * outline), pygame.SRCALPHA)
    # A ring of copies at the outline's radius (and half of it, for thick ones) is as good
    # as a filled disc of them, at a tenth of the blits: the title appears without a hitch.
    rings = ((outline, 16), (outline / 2.0, 8)) if outline > 2 else ((outline, 8),)
    for reach, count in rings:
        for i in range(count):
            a = math.tau * i / count
            out.blit(dark, (outline + round(reach * math.cos(a)),
                            outline + round(reach * math.sin(a))))
    out.blit(face, (outline, outline))
    return out


@lru_cache(maxsize=8)
def _glow(words: str, size: int, style: Style) -> pygame.Surface:
    """A blurred gold halo behind the title."""
    face = font(size, style).render(words, True, (255, 200, 60))
    pad = max(4, size // 4)
    out = pygame.Surface((face.get_width() + 2 * pad, face.get_height() + 2 * pad),
                         pygame.SRCALPHA)
    out.blit(face, (pad, pad))
    # Blurred at a quarter of the size and scaled back: the same soft halo, ~20× cheaper.
    w, h = out.get_size()
    small = pygame.transform.smoothscale(out, (max(1, w // 4), max(1, h // 4)))
    small = pygame.transform.gaussian_blur(small, max(1, size // 32))
    return pygame.transform.smoothscale(small, (w, h))


@lru_cache(maxsize=8)
def _panel(width: int, height: int) -> pygame.Surface:
    panel = pygame.Surface((width, height), pygame.SRCALPHA)
    radius = height // 4
    pygame.draw.rect(panel, (10, 8, 20, 200), panel.get_rect(), border_radius=radius)
    pygame.draw.rect(panel, (*theme.GOLD, 255), panel.get_rect(), max(2, height // 40),
                     border_radius=radius)
    return panel


@dataclass(frozen=True, slots=True)
class _Flake:
    heading: float  # radians
    speed: float  # fraction of the rect's larger side per second
    delay: float
    size: float
    spin: float  # flips per second
    phase: float
    sway: float
    colour: RGB


@lru_cache(maxsize=1)
def _flakes() -> tuple[_Flake, ...]:
    """The confetti, drawn once from a fixed seed; its own generator, no global random state."""
    rng = random.Random(0xB5_7E)
    colours = (theme.GOLD, theme.WIN, theme.CREAM, theme.RED, *theme.SEAT_COLOURS[:5])
    flakes = []
    for i in range(150):
        flakes.append(_Flake(
            heading=rng.uniform(0.0, math.tau), speed=rng.uniform(0.35, 1.25),
            delay=0.0 if i < 90 else rng.uniform(0.4, 1.6), size=rng.uniform(0.006, 0.012),
            spin=rng.uniform(0.8, 2.6), phase=rng.uniform(0.0, math.tau),
            sway=rng.uniform(0.004, 0.02), colour=rng.choice(colours)))
    return tuple(flakes)


def _draw_confetti(surface: pygame.Surface, rect: pygame.Rect, t: float) -> None:
    """A burst from the centre that drifts down under air drag (closed form, so pure in t)."""
    scale = max(rect.width, rect.height)
    drag = 1.6
    fall = 0.22  # terminal speed, in rect sizes per second
    cx, cy = rect.centerx, rect.centery - rect.height * 0.08
    for flake in _flakes():
        tau = t - flake.delay
        if tau <= 0.0:
            continue
        spread = (1.0 - math.exp(-drag * tau)) / drag
        vx = math.cos(flake.heading) * flake.speed * scale
        vy = math.sin(flake.heading) * flake.speed * scale - 0.25 * scale
        x = cx + vx * spread + math.sin(flake.phase + 3.0 * tau) * flake.sway * scale
        y = cy + vy * spread + fall * scale * (tau - spread)
        s = flake.size * scale
        flip = math.cos(flake.phase + math.tau * flake.spin * tau)
        a = flake.phase + tau * flake.spin * 2.0
        ux, uy = math.cos(a) * s, math.sin(a) * s
        wx, wy = -math.sin(a) * s * 0.6 * flip, math.cos(a) * s * 0.6 * flip
        colour = shade(flake.colour, 0.7 + 0.3 * abs(flip))
        corners = [(x - ux - wx, y - uy - wy), (x + ux - wx, y + uy - wy),
                   (x + ux + wx, y + uy + wy), (x - ux + wx, y - uy + wy)]
        pygame.draw.polygon(surface, colour, corners)


def _draw_rays(surface: pygame.Surface, rect: pygame.Rect, t: float, fade: float) -> None:
    """A slowly turning sunburst of translucent gold behind the banner.

    Blended pixels are what cost here, so the rays are narrow and stop short of the corners;
    two layers give them a bright core that fades outward.
    """
    cx, cy = rect.centerx, rect.centery
    reach = math.hypot(rect.width, rect.height) / 2.0
    rays = 12
    turn = 18.0 * t
    for layer, (length, width, alpha) in enumerate(((0.62, 4.5, 44), (0.34, 3.0, 48))):
        tint = (255, 214 + 20 * layer, 90 + 60 * layer, round(alpha * fade))
        for i in range(rays):
            a = turn + 360.0 * i / rays
            points = [(cx, cy), _point((cx, cy), reach * length, a - width),
                      _point((cx, cy), reach * length, a + width)]
            pygame.gfxdraw.filled_polygon(surface, [(round(x), round(y)) for x, y in points],
                                          tint)


def _draw_banner(surface: pygame.Surface, rect: pygame.Rect, t: float, fade: float, title: str,
                 amount: str) -> None:
    """The title pops in and pulses in gold; the amount follows beneath it."""
    size = max(20, min(140, round(rect.height * 0.15)))
    while size > 20 and font(size, Style.BOLD).size(title)[0] > rect.width * 0.8:
        size -= 4
    face = _outlined(title, size, (255, 246, 180), (222, 142, 24), Style.BOLD,
                     max(2, size // 18))
    small = max(14, round(size * 0.42))
    while small > 14 and font(small, Style.BOLD).size(amount)[0] > rect.width * 0.8:
        small -= 2
    line = _outlined(amount, small, theme.WHITE, theme.CREAM, Style.BOLD, max(1, small // 14))
    width = max(face.get_width(), line.get_width()) + size
    height = face.get_height() + line.get_height() + size // 2
    panel = _panel(min(rect.width, width), min(rect.height, height))
    middle = (rect.centerx, rect.centery)
    if fade < 1.0:
        panel = panel.copy()
        panel.set_alpha(round(255 * fade))
    surface.blit(panel, panel.get_rect(center=middle))
    pop = _ease_out_back(min(1.0, t / 0.45))
    pulse = 1.0 + 0.045 * math.sin(math.tau * 1.4 * t)
    scale = max(0.05, pop * pulse)
    title_y = middle[1] - line.get_height() // 2 - size // 12
    halo = _glow(title, size, Style.BOLD)
    halo = pygame.transform.smoothscale(halo, (max(1, round(halo.get_width() * scale)),
                                               max(1, round(halo.get_height() * scale))))
    halo.set_alpha(round(fade * (150 + 100 * math.sin(math.tau * 1.4 * t))))
    surface.blit(halo, halo.get_rect(center=(middle[0], title_y)))
    shown = pygame.transform.smoothscale(face, (max(1, round(face.get_width() * scale)),
                                                max(1, round(face.get_height() * scale))))
    if fade < 1.0:
        shown.set_alpha(round(255 * fade))
    surface.blit(shown, shown.get_rect(center=(middle[0], title_y)))
    if t >= 0.3:
        appear = min(1.0, (t - 0.3) / 0.3, fade)
        if appear < 1.0:
            line = line.copy()
            line.set_alpha(round(255 * appear))
        surface.blit(line, line.get_rect(midtop=(middle[0], title_y + face.get_height() // 2)))


def _ease_out_back(u: float) -> float:
    """0 to 1 with a small overshoot: the title lands with a bounce."""
    k = 1.7
    return 1.0 + (k + 1.0) * (u - 1.0) ** 3 + k * (u - 1.0) ** 2
