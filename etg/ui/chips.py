"""Casino chips drawn by code: a chip from above, its edge, and stacks of them.

Why by code: a wager is shown as the chips a dealer would stack for it, in
the house colours of :mod:`etg.ui.theme`, at whatever size a betting spot
has, so the sprites are drawn (supersampled, then shrunk for clean edges)
and cached rather than loaded. A stack is seen from a little above:
each chip below the top shows only its striped edge, the top chip shows its
face, squashed into the same ellipse as the edges so the stack reads as one
solid object.

Returned surfaces are shared by the caches: blit them, never draw on them.
"""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from etg.ui import theme
from etg.ui.assets import Style, font
from etg.ui.cards import downsample
from etg.ui.theme import CHIP_DENOMINATIONS, chip_colour, shade

RGB = tuple[int, int, int]

TILT = 0.5
"""Height over width of a chip's face in a stack: how far above the table the eye is."""

_SUPERSAMPLE = 4
_MIN_DIAMETER = 8
_WHITE: RGB = (250, 250, 246)
_NAVY: RGB = (34, 62, 140)
_LABEL_MASTER = 240  # labels are rendered this large once, then scaled down
_TURNS = 4  # chips in a stack lie turned by quarters of the spot spacing ...
_STACK_TURNS = (0, 2, 1, 3, 1, 0, 3, 2)  # ... in this irregular-looking order


# --------------------------------------------------------------------------- public API


@lru_cache(maxsize=256)
def chip(cents: int, diameter: int) -> pygame.Surface:
    """A chip of ``cents`` seen from above, ``diameter`` px across, on a transparent square."""
    _check_diameter(diameter)
    colour = chip_colour(cents)
    size = diameter * _SUPERSAMPLE
    big = pygame.Surface((size, size), pygame.SRCALPHA)
    radius = size / 2
    centre = (radius, radius)
    pygame.draw.circle(big, shade(colour, 0.55), centre, radius)
    pygame.draw.circle(big, colour, centre, radius - max(_SUPERSAMPLE, 0.05 * radius))
    _draw_edge_spots(big, centre, radius, _spot_count(diameter), _spot_colour(colour))
    _draw_inlay(big, centre, radius, colour)
    _draw_label(big, centre, radius, denomination_label(cents), _text_colour(colour))
    return downsample(big, _SUPERSAMPLE)


@lru_cache(maxsize=256)
def chip_side(cents: int, diameter: int) -> pygame.Surface:
    """The striped edge of a chip of ``cents`` in a stack, seen from a little above.

    The band lies under the chip's face ellipse (``TILT`` × ``diameter`` tall):
    its top follows the lower half of that ellipse and it is :func:`chip_step`
    px thick, so the surface is ``diameter`` wide and about ``diameter`` × 0.39
    tall, and stacked bands, each :func:`chip_step` higher, tile exactly.
    """
    return _turned_side(cents, diameter, 0)


def chip_step(diameter: int) -> int:
    """How many px each chip in a stack sits above the one below it."""
    return max(2, round(diameter / 7))


def breakdown(amount_cents: int,
              denominations: tuple[int, ...] = CHIP_DENOMINATIONS) -> list[int]:
    """The chips a dealer would stack for ``amount_cents``, largest first (greedy).

    A remainder below the smallest denomination becomes one last odd chip of
    exactly that value, so the chips always sum to the amount.
    """
    if amount_cents < 0:
        raise ValueError(f"cannot make chips for a negative amount: {amount_cents}")
    if not denominations or min(denominations) <= 0:
        raise ValueError(f"denominations must be positive: {denominations!r}")
    chips: list[int] = []
    remaining = amount_cents
    for value in sorted(set(denominations), reverse=True):
        count, remaining = divmod(remaining, value)
        chips.extend([value] * count)
    if remaining:
        chips.append(remaining)
    return chips


def stack_ahead(diameter: int) -> None:
    """Make every denomination's chip and turned edges at `diameter` (tens of milliseconds in
    all): for between frames, before the first payout's stacks fly (``etg.ui.ahead``)."""
    for cents in CHIP_DENOMINATIONS:
        chip(cents, diameter)
        for turn in range(_TURNS):
            _turned_side(cents, diameter, turn)


def draw_stack(surface: pygame.Surface, amount_cents: int, bottom_centre: tuple[int, int],
               diameter: int, max_chips: int = 10) -> pygame.Rect:
    """Draw ``amount_cents`` as a stack standing on ``bottom_centre``; return the rect drawn.

    The largest chips go at the bottom; past ``max_chips`` the smallest are left
    off. A soft shadow peeks out below and right of the bottom chip, inside the
    rect. Nothing is drawn for 0, and the rect is then empty at ``bottom_centre``.
    """
    if max_chips < 1:
        raise ValueError(f"max_chips must be at least 1, not {max_chips}")
    chips = breakdown(amount_cents)[:max_chips]
    x, bottom = bottom_centre
    if not chips:
        return pygame.Rect(x, bottom, 0, 0)
    step = chip_step(diameter)
    left = x - diameter // 2
    shadow, offset = _contact_shadow(diameter)
    drawn = surface.blit(shadow, (left + offset[0], bottom + offset[1] - shadow.get_height()))
    band_top = bottom
    for position, value in enumerate(chips):
        band = _turned_side(value, diameter, _STACK_TURNS[position % len(_STACK_TURNS)])
        band_top = bottom - band.get_height()
        drawn.union_ip(surface.blit(band, (left, band_top)))
        bottom -= step
    face = _stack_top(chips[-1], diameter)
    drawn.union_ip(surface.blit(face, (left, band_top - face.get_height() // 2)))
    return drawn


@lru_cache(maxsize=512)
def stack_sprite(amount_cents: int, diameter: int,
                 max_chips: int = 10) -> tuple[pygame.Surface, tuple[int, int]]:
    """:func:`draw_stack`'s picture drawn once: the surface, and where the stack stands in it.

    Blit the surface with that point on the stack's bottom centre; a table
    with chips on every circle then costs one blit per stack a frame.
    """
    chips = max(1, min(max_chips, len(breakdown(amount_cents))))
    width = diameter * 2
    height = diameter * 2 + chip_step(diameter) * chips
    canvas = pygame.Surface((width, height), pygame.SRCALPHA)
    stands = (width // 2, height - diameter // 2)
    drawn = draw_stack(canvas, amount_cents, stands, diameter, max_chips)
    if not drawn.width or not drawn.height:
        return canvas.subsurface((0, 0, 1, 1)).copy(), (0, 0)
    return canvas.subsurface(drawn).copy(), (stands[0] - drawn.x, stands[1] - drawn.y)


def denomination_label(cents: int) -> str:
    """The value printed on a chip: "1", "25", "1K", "5K"; "2.50" and "45¢" for odd chips."""
    dollars, odd_cents = divmod(cents, 100)
    if odd_cents:
        return f"{dollars}.{odd_cents:02d}" if dollars else f"{odd_cents}¢"
    if dollars >= 1000 and dollars % 1000 == 0:
        return f"{dollars // 1000}K"
    return str(dollars)


# --------------------------------------------------------------------------- the face


def _check_diameter(diameter: int) -> None:
    if diameter < _MIN_DIAMETER:
        raise ValueError(f"chip diameter {diameter} is below the minimum of {_MIN_DIAMETER} px")


def _spot_count(diameter: int) -> int:
    return 8 if diameter >= 40 else 6


def _draw_edge_spots(big: pygame.Surface, centre: tuple[float, float], radius: float,
                     count: int, colour: RGB) -> None:
    """Rectangular inserts round the rim, as on a real clay chip."""
    half_angle = math.pi / count * 0.42
    inner, outer = 0.73 * radius, 0.93 * radius
    for spot in range(count):
        middle = 2 * math.pi * spot / count + math.pi / count
        pygame.draw.polygon(big, colour, _sector(centre, inner, outer, middle, half_angle))


def _sector(centre: tuple[float, float], inner: float, outer: float, middle: float,
            half_angle: float) -> list[tuple[float, float]]:
    """The points of an annular sector, outer arc then inner arc."""
    steps = 6
    angles = [middle - half_angle + 2 * half_angle * i / steps for i in range(steps + 1)]
    cx, cy = centre
    arc_out = [(cx + outer * math.cos(a), cy + outer * math.sin(a)) for a in angles]
    arc_in = [(cx + inner * math.cos(a), cy + inner * math.sin(a)) for a in reversed(angles)]
    return arc_out + arc_in


def _draw_inlay(big: pygame.Surface, centre: tuple[float, float], radius: float,
                colour: RGB) -> None:
    """A fine contrasting ring inside the spots and a dashed one round the label."""
    ring = _spot_colour(colour)
    line = max(_SUPERSAMPLE // 2, round(0.035 * radius))
    pygame.draw.circle(big, ring, centre, 0.68 * radius, line)
    pygame.draw.circle(big, shade(colour, 0.7), centre, 0.66 * radius - line,
                       max(1, line // 2))
    dashes = 24
    for dash in range(dashes):
        middle = 2 * math.pi * dash / dashes
        pygame.draw.polygon(big, shade(colour, 0.78),
                            _sector(centre, 0.55 * radius, 0.59 * radius, middle,
                                    math.pi / dashes * 0.55))


def _draw_label(big: pygame.Surface, centre: tuple[float, float], radius: float,
                words: str, colour: RGB) -> None:
    style = Style.BOLD if len(words) <= 2 else Style.CONDENSED
    rendered = _label_glyph(words, colour, style)
    cap = (0.42 if len(words) <= 2 else 0.34) * radius
    scale = cap / _cap_height(style)
    width = min(round(1.0 * radius), round(rendered.get_width() * scale))
    label = pygame.transform.smoothscale(rendered, (width, round(rendered.get_height() * scale)))
    big.blit(label, label.get_rect(center=(round(centre[0]), round(centre[1]))))


@lru_cache(maxsize=64)
def _label_glyph(words: str, colour: RGB, style: Style) -> pygame.Surface:
    rendered = font(_LABEL_MASTER, style).render(words, True, colour)
    return rendered.subsurface(rendered.get_bounding_rect()).copy()


@lru_cache(maxsize=8)
def _cap_height(style: Style) -> int:
    return int(font(_LABEL_MASTER, style).render("H", True, (0, 0, 0)).get_bounding_rect().height)


# --------------------------------------------------------------------------- colours


def _luminance(colour: RGB) -> float:
    red, green, blue = colour
    return 0.299 * red + 0.587 * green + 0.114 * blue


def _is_light(colour: RGB) -> bool:
    return _luminance(colour) > 150


def _spot_colour(colour: RGB) -> RGB:
    return _NAVY if _is_light(colour) else _WHITE


def _text_colour(colour: RGB) -> RGB:
    return theme.INK if _is_light(colour) else _WHITE


# --------------------------------------------------------------------------- stacks


def _half_face(diameter: int) -> int:
    return max(1, round(diameter * TILT / 2))


@lru_cache(maxsize=512)
def _turned_side(cents: int, diameter: int, turn: int) -> pygame.Surface:
    """:func:`chip_side` with the chip turned ``turn`` / :data:`_TURNS` of a spot spacing."""
    _check_diameter(diameter)
    colour = chip_colour(cents)
    half_face, step = _half_face(diameter), chip_step(diameter)
    big = pygame.Surface((diameter * _SUPERSAMPLE, (half_face + step) * _SUPERSAMPLE),
                         pygame.SRCALPHA)
    band = _Band(diameter * _SUPERSAMPLE / 2, half_face * _SUPERSAMPLE, step * _SUPERSAMPLE)
    spots = _spot_count(diameter)
    band.draw(big, colour, _spot_colour(colour), spots, 2 * math.pi / spots * turn / _TURNS)
    return downsample(big, _SUPERSAMPLE)


@lru_cache(maxsize=32)
def _contact_shadow(diameter: int) -> tuple[pygame.Surface, tuple[int, int]]:
    """A soft shadow of the stack's bottom face, and where it sits from the stack's corner.

    It peeks out a little below and to the right, as under the table's top light.
    """
    blur = max(1, diameter // 16)
    half = _half_face(diameter)
    shadow = pygame.Surface((diameter + 4 * blur, 2 * half + 4 * blur), pygame.SRCALPHA)
    pygame.draw.ellipse(shadow, (0, 0, 0, 110), shadow.get_rect().inflate(-3 * blur, -3 * blur))
    return pygame.transform.gaussian_blur(shadow, blur), (-blur, 2 * blur)


@lru_cache(maxsize=256)
def _stack_top(cents: int, diameter: int) -> pygame.Surface:
    """The top chip's face squashed into the stack's ellipse."""
    return pygame.transform.smoothscale(chip(cents, diameter), (diameter, 2 * _half_face(diameter)))


class _Band:
    """The visible edge of a chip: the lower half of its face ellipse, ``thickness`` deep.

    Angles run over the front of the chip, 0 at the right end, π/2 nearest the
    eye, π at the left end; light falls from the front, so the ends are darker.
    """

    _SLICES = 36

    def __init__(self, half_width: float, half_height: float, thickness: float) -> None:
        self.half_width = half_width
        self.half_height = half_height
        self.thickness = thickness

    def draw(self, big: pygame.Surface, colour: RGB, spot: RGB, spots: int,
             turned: float) -> None:
        for i in range(self._SLICES):
            start, end = math.pi * i / self._SLICES, math.pi * (i + 1) / self._SLICES
            self._fill(big, colour, start, end)
        half_angle = math.pi / spots * 0.42
        for k in range(-1, spots):
            middle = 2 * math.pi * k / spots + math.pi / (2 * spots) + turned
            start, end = max(0.0, middle - half_angle), min(math.pi, middle + half_angle)
            if start < end:
                self._fill(big, spot, start, end)
        rule = max(1, _SUPERSAMPLE // 2)
        pygame.draw.lines(big, shade(colour, 0.35), False, self._arc(0, math.pi, 1), rule)

    def _fill(self, big: pygame.Surface, colour: RGB, start: float, end: float) -> None:
        light = 0.62 + 0.38 * math.sin((start + end) / 2)
        top = self._arc(start, end, 0)
        bottom = self._arc(end, start, 1)
        pygame.draw.polygon(big, shade(colour, light), top + bottom)

    def _arc(self, start: float, end: float, depth: int) -> list[tuple[float, float]]:
        """Points along the lower ellipse from ``start`` to ``end``, ``depth`` bands down."""
        steps = max(2, round(abs(end - start) / math.pi * 48))
        offset = depth * self.thickness - (1 if depth else 0)
        return [
            (self.half_width * (1 + math.cos(a)), self.half_height * math.sin(a) + offset)
            for a in (start + (end - start) * i / steps for i in range(steps + 1))
        ]
