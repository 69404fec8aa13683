"""The painted parts of the Bonus Spin wheel: ring wedges, rim, pointer and hub.

Everything here is painted once, supersampled, and handed to :mod:`etg.ui.wheel`, which
only turns and blits it; the words on the wedges are :mod:`etg.ui.wheel_labels`'. Sizes
are in pixels of the logical 1920×1080 canvas.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import pygame

from etg.core.paytable import ProgressiveLevel, WheelSegment
from etg.ui import theme
from etg.ui.theme import shade
from etg.ui.wheel_labels import Point, fit_in_circle, label_sprite, point

RGB = tuple[int, int, int]

SS = 3  # supersampling of the painted art: antialiased edges for free per frame

NOTCH = 0.018
"""How far (in wheel radii) each pointer tip reaches into its ring; labels stay clear of it."""

# Segment fills: neighbours alternate; a ring with an odd number of segments uses the third
# colour once, so the last segment never matches the first.
COMMUNITY_FILLS: tuple[RGB, ...] = ((176, 20, 34), (24, 22, 30), (92, 24, 120))
COMMUNITY_INK: RGB = (255, 222, 130)
HOT_SPOT_FILLS: tuple[RGB, ...] = ((28, 70, 160), (74, 26, 118), (16, 110, 110))
HOT_SPOT_INK: RGB = (250, 242, 222)

LEVEL_COLOURS: dict[ProgressiveLevel, tuple[RGB, RGB]] = {
    # The progressive wedges wear the table's meter colours (gold on ink, the meter plates
    # of the table scene): the JACKPOT wedge is the meters' gold with ink letters, the MINI
    # JACKPOT wedge is a meter plate itself, ink with gold letters and a gold frame.
    ProgressiveLevel.PRIMARY: (theme.WIN, theme.INK),
    ProgressiveLevel.SECONDARY: (theme.INK, theme.WIN),
}
"""(fill, ink) of a progressive's wedge, by level."""

SEPARATOR: RGB = (236, 198, 96)
EDGE_DARK: RGB = (70, 44, 8)
_BULB_ON: RGB = (255, 248, 214)
_BULB_GLOW: RGB = (255, 206, 90)
_BULB_OFF: RGB = (128, 84, 30)


@dataclass(frozen=True, slots=True)
class Segment:
    """One wedge as painted: its words, colours, and the progressive it pays, if any."""

    label: str
    fill: RGB
    ink: RGB
    level: ProgressiveLevel | None = None


# -- geometry -----------------------------------------------------------------------------------


def sector(centre: Point, inner: float, outer: float, start: float, end: float) -> list[Point]:
    """The outline of the ring sector between radii and clockwise angles, as a polygon."""
    steps = max(2, math.ceil((end - start) / 0.5))
    arc = [start + (end - start) * i / steps for i in range(steps + 1)]
    return [point(centre, outer, a) for a in arc] + [point(centre, inner, a) for a in reversed(arc)]


def ink_on(fill: RGB) -> RGB:
    """White letters on a dark fill, ink on a light one (a yellow or silver seat)."""
    red, green, blue = fill
    return theme.INK if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else theme.WHITE


# -- painting -----------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def paint_ring(segments: tuple[Segment, ...], radii: tuple[float, float],
               radius: int) -> pygame.Surface:
    """A ring of equal wedges, segment 0 centred on 12 o'clock, without its labels.

    Painted once per ring and size and kept (a new table scene after a paytable switch, or
    a restart of the screen, finds it ready); never mutate it.

    The surface is square, the wheel's centre in its middle, transparent outside the ring.
    The gold line round the ring's outer edge reaches :data:`OVERLAP` pixels beyond it,
    over the inner edge of the ring outside (drawn before it), so the rings meet without
    a seam of felt showing between them.
    """
    inner, outer = radii[0] * radius, radii[1] * radius
    side = ring_side(radii, radius)
    big = pygame.Surface((side * SS, side * SS), pygame.SRCALPHA)
    c = (side * SS / 2.0, side * SS / 2.0)
    count = len(segments)
    width = 360.0 / count
    bands = 14
    for index, segment in enumerate(segments):
        start, end = index * width - width / 2.0, index * width + width / 2.0
        for b in range(bands):
            r0 = inner + (outer - inner) * b / bands
            r1 = inner + (outer - inner) * (b + 1) / bands + 0.5
            colour = shade(segment.fill, _pillow((b + 0.5) / bands))
            pygame.draw.polygon(big, colour, sector(c, r0 * SS, r1 * SS, start, end))
        if segment.level is ProgressiveLevel.SECONDARY:
            # The meter plate's gold frame, just inside the wedge.
            inset = max(2.0, radius / 80.0)
            frame = sector(c, (inner + inset) * SS, (outer - inset) * SS,
                           start + math.degrees(inset / inner), end - math.degrees(inset / inner))
            pygame.draw.polygon(big, theme.GOLD, frame, max(1, round(radius / 110.0 * SS)))
    separator = max(1.0, radius / 190.0)
    for index in range(count if count > 1 else 0):
        a = index * width - width / 2.0
        beside = segments[index].level is not None or segments[index - 1].level is not None
        pygame.draw.line(big, EDGE_DARK if beside else SEPARATOR, point(c, inner * SS, a),
                         point(c, outer * SS, a), max(1, round(separator * SS)))
    edge = max(2.0, radius / 90.0)
    pygame.draw.circle(big, SEPARATOR, c, (outer + OVERLAP) * SS, round((edge + OVERLAP) * SS))
    pygame.draw.circle(big, EDGE_DARK, c, (outer - edge) * SS + 1, max(1, SS))
    pygame.draw.circle(big, EDGE_DARK, c, inner * SS + SS, max(1, SS))
    return pygame.transform.smoothscale(big, (side, side))


OVERLAP = 2.0
"""Pixels by which a ring's painted gold edge reaches over the ring outside it."""

def ring_side(radii: tuple[float, float], radius: int) -> int:
    """The side of a ring's square surface: the ring, its overlap and a margin."""
    return 2 * math.ceil(radii[1] * radius + OVERLAP) + 4


def paint_highlight(surface: pygame.Surface, centre: Point, inner: float, outer: float,
                    span: float, radius: int) -> None:
    """A bright frame round the wedge under the pointer: the stop of a ring that has landed."""
    width = max(2, round(radius / 80.0))
    inset = math.degrees(width / 2.0 / inner)
    outline = sector(centre, inner + width / 2.0, outer - width / 2.0, -span / 2.0 + inset,
                     span / 2.0 - inset)
    pygame.draw.polygon(surface, theme.WHITE, outline, width)
    pygame.draw.aalines(surface, theme.WIN, True, outline)


def _pillow(x: float) -> float:
    """Light across a ring from its inner (0) to outer (1) edge: a gently domed band."""
    return 0.62 + 0.5 * x - 0.28 * max(0.0, x - 0.82) / 0.18


def _metal(x: float) -> RGB:
    """Polished gold across a band, 0 at one edge and 1 at the other."""
    light = 0.55 + 0.65 * math.sin(math.pi * x) ** 1.5
    return shade(theme.GOLD_DARK, light) if light <= 1.0 else shade(theme.GOLD, light - 0.05)


def paint_rim(radius: int, rim_inner: float, lit: int) -> pygame.Surface:
    """The gold rim and its bulbs (every other one lit, by `lit`), over a soft drop shadow."""
    margin = math.ceil(radius * 0.07)
    side = 2 * (radius + margin)
    big = pygame.Surface((side * SS, side * SS), pygame.SRCALPHA)
    c = (side * SS / 2.0, side * SS / 2.0)
    shadow_c = (c[0], c[1] + radius * 0.025 * SS)
    rings = 16
    for i in range(rings):
        r = (radius + margin * 0.95 * (1.0 - i / rings)) * SS
        pygame.draw.circle(big, (0, 0, 0, round(120 * ((i + 1) / rings) ** 2)), shadow_c, r)
    pygame.draw.circle(big, (0, 0, 0, 0), c, rim_inner * radius * SS)
    inner = (rim_inner * radius - 1.5) * SS
    outer = radius * SS
    steps = 24
    for i in range(steps):
        r = outer - (outer - inner) * i / steps
        pygame.draw.circle(big, _metal(i / (steps - 1)), c, r,
                           max(1, math.ceil((outer - inner) / steps) + 1))
    pygame.draw.circle(big, EDGE_DARK, c, outer, max(1, SS))
    pygame.draw.circle(big, EDGE_DARK, c, inner + SS, max(1, round(1.5 * SS)))
    bulb = max(2.5, radius * (1.0 - rim_inner) * 0.28)
    track = (1.0 + rim_inner) / 2.0 * radius
    count = 2 * max(8, round(math.tau * track / (bulb * 7.0) / 2))
    sprites = (_bulb_sprite(bulb, on=False), _bulb_sprite(bulb, on=True))
    for i in range(count):
        x, y = point(c, track * SS, 360.0 * i / count)
        sprite = sprites[1 if i % 2 == lit else 0]
        big.blit(sprite, sprite.get_rect(center=(round(x), round(y))))
    return pygame.transform.smoothscale(big, (side, side))


def _bulb_sprite(bulb: float, on: bool) -> pygame.Surface:
    """One bulb in its socket at supersampled size; lit bulbs glow over the rim."""
    r = bulb * SS
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


def paint_pointer(radius: int, rim_inner: float, seat_top: float,
                  hub: float) -> tuple[pygame.Surface, tuple[int, int]]:
    """The pointer at 12 o'clock, with one tip in each ring.

    The main pointer stands over the rim with its tip in the Community ring; a gold
    arrowhead on the Seat ring's outer edge (`seat_top` radii out) points down into it,
    and one on the hub's rim (`hub` radii out) points up into the Hot Spot ring. Each tip
    reaches :data:`NOTCH` radii into its ring, where no label is set. Returns the art and
    where its top-left corner sits relative to the wheel's centre.
    """
    half_w = math.ceil(radius * 0.1)
    top = -math.ceil(radius * 1.1)
    bottom = -math.floor((hub - 0.03) * radius)
    w, h = 2 * half_w, bottom - top
    big = pygame.Surface((w * SS, h * SS), pygame.SRCALPHA)

    def at(x: float, y: float) -> Point:
        """Wheel coordinates in radii (y up is negative) to supersampled art pixels."""
        return (half_w + x * radius) * SS, (y * radius - top) * SS

    tip = rim_inner - NOTCH
    body = [at(0.0, -tip), at(0.05, -rim_inner + 0.01), at(0.066, -1.03), at(-0.066, -1.03),
            at(-0.05, -rim_inner + 0.01)]
    cap = at(0.0, -1.03)
    shadow = pygame.Surface(big.get_size(), pygame.SRCALPHA)
    offset = (radius * 0.012 * SS, radius * 0.02 * SS)
    pygame.draw.polygon(shadow, (0, 0, 0, 110), [(x + offset[0], y + offset[1]) for x, y in body])
    pygame.draw.circle(shadow, (0, 0, 0, 110), (cap[0] + offset[0], cap[1] + offset[1]),
                       radius * 0.066 * SS)
    big.blit(shadow, (0, 0))
    outline = max(1, round(radius / 130.0 * SS))
    pygame.draw.polygon(big, theme.GOLD, body)
    pygame.draw.circle(big, theme.GOLD, cap, radius * 0.066 * SS)
    shrunk = [at(0.0, -tip - 0.025), at(0.038, -rim_inner + 0.005), at(0.05, -1.02),
              at(-0.05, -1.02), at(-0.038, -rim_inner + 0.005)]
    pygame.draw.polygon(big, (150, 14, 24), shrunk)
    pygame.draw.polygon(big, (214, 40, 50), [*shrunk[:3], at(0.0, -1.02)])
    pygame.draw.circle(big, (150, 14, 24), cap, radius * 0.05 * SS)
    pygame.draw.polygon(big, EDGE_DARK, body, outline)
    pygame.draw.circle(big, theme.GOLD, cap, radius * 0.026 * SS)
    pygame.draw.circle(big, (255, 240, 190), (cap[0] - radius * 0.008 * SS,
                                              cap[1] - radius * 0.008 * SS),
                       radius * 0.011 * SS)
    # A gold arrowhead on the edge of each ring, over the main pointer's own tip too.
    tips = ((rim_inner + 0.004, rim_inner - NOTCH), (seat_top + 0.002, seat_top - NOTCH),
            (hub - 0.004, hub + NOTCH))
    for base, reach in tips:
        notch = [at(0.0, -reach), at(0.045, -base), at(-0.045, -base)]
        pygame.draw.polygon(big, theme.GOLD, notch)
        pygame.draw.polygon(big, EDGE_DARK, notch, outline)
    art = pygame.transform.smoothscale(big, (w, h))
    return art, (-half_w, top)


def paint_hub(radius: int, hub: float) -> pygame.Surface:
    """The domed red hub, `hub` radii across, lettered BONUS SPIN at a legible size."""
    r = hub * radius
    side = 2 * math.ceil(r) + 4
    big = pygame.Surface((side * SS, side * SS), pygame.SRCALPHA)
    c = (side * SS / 2.0, side * SS / 2.0)
    steps = 12
    for i in range(steps):
        pygame.draw.circle(big, _metal(i / (steps - 1)), c, (r - r * 0.16 * i / steps) * SS)
    face = r * 0.86
    for i in range(20):
        x = i / 19
        colour = shade((150, 12, 24), 0.55 + 0.7 * x) if x < 0.7 else \
            shade((200, 28, 40), 1.0 + 0.25 * (x - 0.7))
        pygame.draw.circle(big, colour, (c[0] - face * 0.25 * x * SS, c[1] - face * 0.3 * x * SS),
                           face * (1.0 - 0.8 * x) * SS)
    pygame.draw.circle(big, EDGE_DARK, c, face * SS, max(1, SS))
    pygame.draw.circle(big, EDGE_DARK, c, r * SS, max(1, SS))
    art = pygame.transform.smoothscale(big, (side, side))
    centre = (side / 2.0, side / 2.0)
    fit = fit_in_circle("BONUS SPIN", face, 30)
    if fit is not None:
        sprite = label_sprite(fit, theme.CREAM)
        art.blit(sprite, sprite.get_rect(center=(round(centre[0]), round(centre[1]))))
    return art


# -- for the view --------------------------------------------------------------------------------


def ring_segments(segments: Sequence[WheelSegment], fills: tuple[RGB, ...],
                  ink: RGB) -> tuple[Segment, ...]:
    """A paytable ring's segments as painted: progressives in their meter's colours, the
    others alternating `fills` (the third once, for an odd count) with `ink` letters."""
    out = []
    for i, segment in enumerate(segments):
        if segment.progressive is not None:
            fill, letters = LEVEL_COLOURS[segment.progressive]
            out.append(Segment(segment.symbol, fill, letters, segment.progressive))
        else:
            odd_last = len(segments) % 2 == 1 and i == len(segments) - 1 and i > 0
            out.append(Segment(segment.symbol, fills[2] if odd_last else fills[i % 2], ink))
    return tuple(out)


def blit_ring(surface: pygame.Surface, picture: pygame.Surface, centre: tuple[int, int],
              side: int, hole: float) -> list[pygame.Rect]:
    """The `side` × `side` square in the middle of `picture`, centred on `centre`, less the
    largest square inside a transparent hole of radius `hole`: four strips, about a third
    fewer pixels to blend for the outer rings and the rim. Returns the boxes drawn in."""
    cx, cy = picture.get_width() // 2, picture.get_height() // 2
    left, top = cx - side // 2, cy - side // 2
    offset = (centre[0] - cx, centre[1] - cy)
    inside = math.floor(hole / math.sqrt(2.0)) - 1
    if inside < side // 8:
        areas = [pygame.Rect(left, top, side, side)]
    else:
        areas = [pygame.Rect(left, top, side, cy - inside - top),
                 pygame.Rect(left, cy + inside, side, top + side - cy - inside),
                 pygame.Rect(left, cy - inside, cx - inside - left, 2 * inside),
                 pygame.Rect(cx + inside, cy - inside, left + side - cx - inside, 2 * inside)]
    return [surface.blit(picture, area.move(offset), area) for area in areas]


@lru_cache(maxsize=12)
def turned(art: pygame.Surface, degrees: float) -> pygame.Surface:
    """A ring's square `art` turned smoothly `degrees` counter-clockwise, cropped to the
    same square (the ring is a disc, so nothing is lost). Kept per artwork and angle: a
    few, since up to a megabyte each (the wheel keeps its own still pictures and its turned
    copies; this spares a rest picture made twice the rotation)."""
    if degrees == 0.0:
        return art
    big = pygame.transform.rotozoom(art, degrees, 1.0)
    square = art.get_rect(center=(big.get_width() // 2, big.get_height() // 2))
    return big.subsurface(square).copy()


def display_ready(surface: pygame.Surface) -> pygame.Surface:
    """The surface in the display's pixel format when there is a display (faster blits)."""
    if pygame.display.get_surface() is None:
        return surface
    return surface.convert_alpha() if surface.get_flags() & pygame.SRCALPHA else surface.convert()
