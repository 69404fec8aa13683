"""A progressive hit on the Bonus Spin wheel: rays, confetti and the award in gold.

Drawn over the table while :data:`CELEBRATION_S` lasts, as a pure function of the time
since the hit, so the same moment always draws the same picture.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pygame
import pygame.gfxdraw

from etg.ui import theme
from etg.ui.assets import Style, font
from etg.ui.theme import shade
from etg.ui.wheel_labels import point

RGB = tuple[int, int, int]

CELEBRATION_S = 6.0
"""How long :func:`celebrate` draws after a progressive hit."""


def celebrate(surface: pygame.Surface, rect: pygame.Rect, now: float, started: float,
              title: str, amount: str, lasts: float = CELEBRATION_S,
              rays: bool = True, widest: str | None = None) -> list[pygame.Rect]:
    """A progressive hit or a big win: rays (a progressive hit's alone: the jackpot outshines
    a big win, and they are the costliest pixels of the frame), confetti and pulsing gold
    `title` over `amount` (which may count up from frame to frame), inside `rect`.
    `widest`: the amount's line at its longest (counted up), which sets the banner's width
    and the line's size, so that neither changes while it counts; None: `amount`.

    It lasts `lasts` seconds from `started` and draws nothing outside that window. Every
    particle is a pure function of ``now - started`` (a fixed-seed table), so the same
    moment always draws the same picture. Returns the boxes it drew in (with rays, the whole
    of `rect`: their polygons give none back).
    """
    t = now - started
    if not 0.0 <= t <= lasts or rect.width <= 0 or rect.height <= 0:
        return []
    fade = max(0.0, min(1.0, t / 0.25, (lasts - t) / 0.6))
    clip = surface.get_clip()
    surface.set_clip(rect.clip(clip))
    try:
        drawn = []
        if rays:
            _draw_rays(surface, rect, t, fade)
            drawn.append(rect.clip(clip))
        drawn += _draw_confetti(surface, rect, t)
        drawn.append(_draw_banner(surface, rect, t, fade, title, amount, widest or amount))
        return drawn
    finally:
        surface.set_clip(clip)


@lru_cache(maxsize=256)
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


@dataclass(frozen=True, slots=True)
class _Line:
    """A line of :func:`_outlined` glyphs set side by side, their outlines overlapping."""

    glyphs: tuple[pygame.Surface, ...]
    advances: tuple[int, ...]
    outline: int

    def get_width(self) -> int:
        return sum(self.advances) + 2 * self.outline

    def get_height(self) -> int:
        return max(g.get_height() for g in self.glyphs)

    def draw(self, surface: pygame.Surface, midtop: tuple[int, int]) -> pygame.Rect:
        """Each glyph straight onto ``surface``: a line that counts up changes every frame,
        and setting it on a surface of its own first cost the frame a millisecond. (The
        glyphs are kept and shared: never set their alpha, a fading line fades its own
        surface, :func:`_faded_line`.) Returns the line's box."""
        x, y = midtop[0] - self.get_width() // 2, midtop[1]
        box = pygame.Rect(x, y, self.get_width(), self.get_height())
        for glyph, advance in zip(self.glyphs, self.advances, strict=True):
            surface.blit(glyph, (x, y))
            x += advance
        return box


def _outlined_line(words: str, size: int, top: RGB, bottom: RGB, style: Style,
                   outline: int) -> _Line:
    """:func:`_outlined` set character by character from cached glyphs."""
    glyphs = tuple(_outlined(char, size, top, bottom, style, outline) for char in words or " ")
    return _Line(glyphs, tuple(g.get_width() - 2 * outline for g in glyphs), outline)


@lru_cache(maxsize=2)
def _faded_line(line: _Line) -> pygame.Surface:
    """The line on a surface of its own, to fade as one (glyph by glyph, the outlines where
    they overlap would darken twice): the line appearing and fading out, a few frames, in
    which the amount has mostly stopped counting. Kept: set its alpha every time."""
    out = pygame.Surface((line.get_width(), line.get_height()), pygame.SRCALPHA)
    line.draw(out, (out.get_width() // 2, 0))
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


@lru_cache(maxsize=2)
def _panel(width: int, height: int) -> pygame.Surface:
    """The banner's dark panel (a megabyte or two, its width set by the amount's: the one
    on show and the last are kept)."""
    panel = pygame.Surface((width, height), pygame.SRCALPHA)
    radius = height // 4
    pygame.draw.rect(panel, (10, 8, 20, 200), panel.get_rect(), border_radius=radius)
    pygame.draw.rect(panel, (*theme.GOLD, 255), panel.get_rect(), max(2, height // 40),
                     border_radius=radius)
    return panel


@dataclass(frozen=True)
class _Confetti:
    """The flakes, a property to an array and a flake to an index, so that a frame moves them
    all in a few array operations: a flake by flake loop of arithmetic cost the frame a
    millisecond. Drawn once from a fixed seed (:func:`_confetti`)."""

    heading: np.ndarray  # radians
    speed: np.ndarray  # fraction of the rect's larger side per second
    delay: np.ndarray  # seconds after the hit before it flies
    size: np.ndarray  # half its length, as a fraction of the rect's larger side
    spin: np.ndarray  # flips per second
    phase: np.ndarray
    sway: np.ndarray
    shades: tuple[tuple[RGB, ...], ...]  # each one's colour lit from edge-on (dim) to face-on


SHADES = 16
FLAKES = 110


@lru_cache(maxsize=1)
def _confetti() -> _Confetti:
    """The confetti, drawn once from a fixed seed; its own generator, no global random state."""
    rng = random.Random(0xB5_7E)
    colours = (theme.GOLD, theme.WIN, theme.CREAM, theme.RED, *theme.SEAT_COLOURS[:5])
    rows, shades = [], []
    for i in range(FLAKES):
        colour = rng.choice(colours)
        rows.append((rng.uniform(0.0, math.tau), rng.uniform(0.35, 1.25),
                     0.0 if i < FLAKES * 3 // 5 else rng.uniform(0.4, 1.6),
                     rng.uniform(0.007, 0.013), rng.uniform(0.8, 2.6),
                     rng.uniform(0.0, math.tau), rng.uniform(0.004, 0.02)))
        shades.append(tuple(shade(colour, 0.7 + 0.3 * k / (SHADES - 1)) for k in range(SHADES)))
    heading, speed, delay, size, spin, phase, sway = np.array(rows).T
    return _Confetti(heading, speed, delay, size, spin, phase, sway, tuple(shades))


DRAG = 1.6
"""The confetti's air drag (per second): the burst slows to the fall's speed."""


def _draw_confetti(surface: pygame.Surface, rect: pygame.Rect, t: float) -> list[pygame.Rect]:
    """A burst from the centre that drifts down under air drag (closed form, so pure in t).
    Flakes not yet thrown or wholly outside the clip are not drawn. Returns each flake's box."""
    c = _confetti()
    scale = max(rect.width, rect.height)
    fall = 0.22 * scale  # terminal speed, in pixels per second
    cx, cy = rect.centerx, rect.centery - rect.height * 0.08
    tau = t - c.delay
    spread = (1.0 - np.exp(-DRAG * tau)) / DRAG
    speed = c.speed * scale
    x = cx + np.cos(c.heading) * speed * spread + np.sin(c.phase + 3.0 * tau) * c.sway * scale
    y = cy + (np.sin(c.heading) * speed - 0.25 * scale) * spread + fall * (tau - spread)
    s = c.size * scale
    flip = np.cos(c.phase + math.tau * c.spin * tau)  # 1 face-on, 0 edge-on
    turn = c.phase + tau * c.spin * 2.0
    ux, uy = np.cos(turn) * s, np.sin(turn) * s  # along the flake
    wx, wy = -uy * 0.6 * flip, ux * 0.6 * flip  # across it, narrowed as it flips
    clip = surface.get_clip()
    reach = 1.6 * s + 1.0  # past its farthest corner (√1.36 s from its centre), and a pixel
    drawn = np.flatnonzero((tau > 0.0) & (x + reach >= clip.left) & (x - reach < clip.right)
                           & (y + reach >= clip.top) & (y - reach < clip.bottom))
    corners = np.stack([x - ux - wx, y - uy - wy, x + ux - wx, y + uy - wy,
                        x + ux + wx, y + uy + wy, x - ux + wx, y - uy + wy], axis=1)[drawn]
    lit = np.rint(np.abs(flip[drawn]) * (SHADES - 1)).astype(np.intp)
    polygon, shades = pygame.draw.polygon, c.shades
    return [polygon(surface, shades[flake][k], ((x0, y0), (x1, y1), (x2, y2), (x3, y3)))
            for flake, (x0, y0, x1, y1, x2, y2, x3, y3), k in zip(
                drawn.tolist(), corners.tolist(), lit.tolist(), strict=True)]


def _draw_rays(surface: pygame.Surface, rect: pygame.Rect, t: float, fade: float) -> None:
    """A slowly turning sunburst of translucent gold behind the banner.

    Blended pixels are what cost here (about 8 ns each in ``gfxdraw``), so there are eight
    narrow rays reaching half-way to the corners: about 130,000 pixels, a millisecond, at
    1920×1080, where the twelve long rays of two layers this replaced cost four.
    """
    cx, cy = rect.centerx, rect.centery
    length = math.hypot(rect.width, rect.height) / 2.0 * RAY_LENGTH
    turn = 18.0 * t
    tint = (255, 222, 110, round(RAY_ALPHA * fade))
    for i in range(RAYS):
        a = turn + 360.0 * i / RAYS
        tip_a = point((cx, cy), length, a - RAY_HALF_WIDTH)
        tip_b = point((cx, cy), length, a + RAY_HALF_WIDTH)
        pygame.gfxdraw.filled_polygon(surface, [(cx, cy), (round(tip_a[0]), round(tip_a[1])),
                                                (round(tip_b[0]), round(tip_b[1]))], tint)


RAYS = 8
RAY_HALF_WIDTH = 3.2  # degrees
RAY_LENGTH = 0.55  # of the half-diagonal: past the banner, short of the corners
RAY_ALPHA = 64


AMOUNT_CHARACTERS = "$0123456789.,·SEATPIDJCKOMNRGUVYBW! "
"""What a celebration's second line is set from: amounts, seats, spots, the Bonus Spin."""


def celebration_ahead(rect: pygame.Rect, title: str, pulse: bool = True) -> None:
    """Make what a celebration of `title` inside `rect` draws in its first frames (the
    confetti, the title, its halo, the amount's glyphs and, with `pulse`, the title's
    pulsing sizes, a megabyte each): tens of milliseconds, for between frames
    (:class:`etg.ui.ahead.WorkAhead`), not the frame the hit lands in."""
    _confetti()
    size = _title_size(rect, title)
    _outlined(title, size, (255, 246, 180), (222, 142, 24), Style.BOLD, max(2, size // 18))
    _glow(title, size, Style.BOLD)
    if pulse:
        for steps in range(round((1 - PULSE) / PULSE_STEP),
                           round((1 + PULSE) / PULSE_STEP) + 1):
            _title_at(title, size, steps)
    small = max(20, round(size * 0.42))
    for char in AMOUNT_CHARACTERS:
        _outlined(char, small, theme.WHITE, theme.CREAM, Style.BOLD, max(1, small // 14))


def _title_size(rect: pygame.Rect, title: str) -> int:
    size = max(20, min(140, round(rect.height * 0.15)))
    while size > 20 and font(size, Style.BOLD).size(title)[0] > rect.width * 0.8:
        size -= 4
    return size


def _draw_banner(surface: pygame.Surface, rect: pygame.Rect, t: float, fade: float, title: str,
                 amount: str, widest: str) -> pygame.Rect:
    """The title pops in and pulses in gold; the amount follows beneath it. Returns the box
    drawn in."""
    size, small, panel = _banner(rect, title, widest)
    face = _outlined(title, size, (255, 246, 180), (222, 142, 24), Style.BOLD,
                     max(2, size // 18))
    line = _outlined_line(amount, small, theme.WHITE, theme.CREAM, Style.BOLD,
                          max(1, small // 14))
    middle = (rect.centerx, rect.centery)
    panel.set_alpha(round(255 * min(1.0, fade)))  # a kept surface: its alpha set every time
    drawn = surface.blit(panel, panel.get_rect(center=middle))
    scale = _title_scale(t)
    title_y = middle[1] - line.get_height() // 2 - size // 12
    if t >= POP_S:  # landed: the pulse takes a few sizes over and over, so they are kept
        halo, shown = _title_at(title, size, round(scale / PULSE_STEP))
    else:
        ahead = _POPPED.get((title, size))
        if ahead is not None and abs(ahead[0] - t) <= POP_SLACK_S:
            halo, shown = ahead[1]
        else:
            halo, shown = _title_scaled(title, size, scale)
    halo.set_alpha(round(fade * (150 + 100 * math.sin(math.tau * 1.4 * t))))
    drawn.union_ip(surface.blit(halo, halo.get_rect(center=(middle[0], title_y))))
    shown.set_alpha(round(255 * min(1.0, fade)))  # kept surfaces: always set
    drawn.union_ip(surface.blit(shown, shown.get_rect(center=(middle[0], title_y))))
    if t >= 0.3:
        appear = min(1.0, (t - 0.3) / 0.3, fade)
        where = (middle[0], title_y + face.get_height() // 2)
        if appear < 1.0:
            faded = _faded_line(line)
            faded.set_alpha(round(255 * appear))
            drawn.union_ip(surface.blit(faded, faded.get_rect(midtop=where)))
        else:
            drawn.union_ip(line.draw(surface, where))
    return drawn


def _banner(rect: pygame.Rect, title: str, widest: str) -> tuple[int, int, pygame.Surface]:
    """The title's size, the amount's, and the panel behind them, as wide as the title or
    the `widest` line (kept: made ahead, :func:`banner_ahead`)."""
    return _banner_in(rect.size, title, widest)


@lru_cache(maxsize=2)  # as the panels: the banner on show and the last
def _banner_in(area: tuple[int, int], title: str,
               widest: str) -> tuple[int, int, pygame.Surface]:
    rect = pygame.Rect((0, 0), area)
    size = _title_size(rect, title)
    face = _outlined(title, size, (255, 246, 180), (222, 142, 24), Style.BOLD,
                     max(2, size // 18))
    small = max(20, round(size * 0.42))  # SPEC §6: player text at least 20 logical px
    while small > 20 and font(small, Style.BOLD).size(widest)[0] > rect.width * 0.8:
        small -= 2
    line = _outlined_line(widest, small, theme.WHITE, theme.CREAM, Style.BOLD,
                          max(1, small // 14))
    width = max(face.get_width(), line.get_width()) + size
    height = face.get_height() + line.get_height() + size // 2
    return size, small, _panel(min(rect.width, width), min(rect.height, height))


def banner_ahead(rect: pygame.Rect, title: str, amount: str, widest: str, t: float,
                 lasts: float) -> None:
    """Make what the banner of a celebration `t` seconds in shows that its frame would
    otherwise make: the panel, and the amount's line on a surface of its own while it fades
    in or out (a new one each frame while it counts, a millisecond: :func:`_faded_line`)."""
    if not 0.0 <= t <= lasts:
        return
    _, small, _ = _banner(rect, title, widest)
    fade = max(0.0, min(1.0, t / 0.25, (lasts - t) / 0.6))
    if t >= 0.3 and min(1.0, (t - 0.3) / 0.3, fade) < 1.0:
        _faded_line(_outlined_line(amount, small, theme.WHITE, theme.CREAM, Style.BOLD,
                                   max(1, small // 14)))


def pop_ahead(rect: pygame.Rect, title: str, t: float) -> None:
    """Make the popping title a frame `t` seconds into a celebration of `title` inside `rect`
    shows (the next frame: two smoothscales, for between frames); that frame, or one within
    :data:`POP_SLACK_S` of it, shows it as made."""
    if 0.0 <= t < POP_S:
        size = _title_size(rect, title)
        _POPPED.clear()  # only the next frame's
        _POPPED[(title, size)] = (t, _title_scaled(title, size, _title_scale(t)))


POP_S = 0.45
"""How long the title takes to pop in; each of its frames has a size of its own."""

POP_SLACK_S = 0.004
"""How far from a frame's moment the title made ahead for another moment may be and still
be shown: 4 ms, as a turning ring's (:data:`etg.ui.wheel.AHEAD_SLACK_S`), a few pixels of
its size at the fastest of the pop."""

_POPPED: dict[tuple[str, int], tuple[float, tuple[pygame.Surface, pygame.Surface]]] = {}
"""The popping title made ahead (:func:`pop_ahead`): when for, and its halo and face."""


def _title_scale(t: float) -> float:
    """The title's size `t` seconds in, as a fraction of its own: popping in, then pulsing."""
    pop = _ease_out_back(min(1.0, t / POP_S))
    pulse = 1.0 + PULSE * math.sin(math.tau * 1.4 * t)
    return max(0.05, pop * pulse)


PULSE = 0.045
"""How far the landed title swells and shrinks, as a fraction of its size (seven kept sizes
of one title: :func:`_title_at`)."""

PULSE_STEP = 0.015
"""The pulsing title's sizes, as fractions of its own: seven of them over the pulse."""


@lru_cache(maxsize=8)
def _title_at(title: str, size: int, steps: int) -> tuple[pygame.Surface, pygame.Surface]:
    """The title and its halo at ``steps × PULSE_STEP`` of their size, kept for the pulse."""
    return _title_scaled(title, size, steps * PULSE_STEP)


def _title_scaled(title: str, size: int, scale: float) -> tuple[pygame.Surface, pygame.Surface]:
    """The title's halo and face scaled by `scale` (new surfaces: their alpha is the caller's)."""
    face = _outlined(title, size, (255, 246, 180), (222, 142, 24), Style.BOLD,
                     max(2, size // 18))
    halo = _glow(title, size, Style.BOLD)
    return (pygame.transform.smoothscale(halo, (max(1, round(halo.get_width() * scale)),
                                                max(1, round(halo.get_height() * scale)))),
            pygame.transform.smoothscale(face, (max(1, round(face.get_width() * scale)),
                                                max(1, round(face.get_height() * scale)))))


def _ease_out_back(u: float) -> float:
    """0 to 1 with a small overshoot: the title lands with a bounce."""
    k = 1.7
    return 1.0 + (k + 1.0) * (u - 1.0) ** 3 + k * (u - 1.0) ** 2
