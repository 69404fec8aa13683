"""The attract mode's pictures: the backdrop, the titles in lights, the fan's cards, the
jackpot signs and the bulbs round the screen, rendered once per paytable.

:class:`Art` holds what :func:`make_art` renders for one paytable (the words and
amounts read from it, as the help pages read them); :class:`etg.ui.attract.AttractScene`
blits them and turns a few cards a frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import pygame

from etg.core.cards import Card, Colour, Rank, Suit
from etg.core.paytable import Paytable, ProgressiveLevel
from etg.core.state import LEVELS
from etg.ui import theme
from etg.ui.assets import Style, fit_text, text
from etg.ui.canvas import LOGICAL_H, LOGICAL_W
from etg.ui.cards import card_back, card_face
from etg.ui.help.words import feature_pays, highlights, limits_line, meter_label

CARD_W = 168

WHEEL_RADIUS = 230
RIBBON_Y = 864


@dataclass(frozen=True)
class _Panel:
    """A lit sign: a live meter (``level``) or a fixed ``value`` such as ``10 TO 1``."""

    label: str
    level: ProgressiveLevel | None = None
    value: str = ""


@dataclass
class Art:
    """Everything drawn once per paytable; the surfaces are the scene's own to fade."""

    backdrop: pygame.Surface
    title: pygame.Surface
    title_shadow: pygame.Surface
    shine: tuple[pygame.Surface, ...]
    subtitle: pygame.Surface | None
    subtitle_glow: pygame.Surface
    cards: tuple[Card, ...]
    fan_centre: tuple[int, int]
    wheel_centre: tuple[int, int]
    panels: tuple[_Panel, ...]
    panel_rects: tuple[pygame.Rect, ...]
    highlights: tuple[pygame.Surface, ...]
    limits: str
    touch: pygame.Surface

    def turned(self, index: int, card: Card, angle: float, up: float) -> pygame.Surface:
        """Card ``index`` rotated by ``angle``, ``up`` of the way through turning face up."""
        if up in (0.0, 1.0):
            return _rotated(card, up == 1.0, angle)
        source = card_face(card, CARD_W) if up >= 0.5 else card_back(CARD_W)
        squeeze = max(1, round(source.get_width() * abs(math.cos(math.pi * up))))
        flat = pygame.transform.smoothscale(source, (squeeze, source.get_height()))
        return pygame.transform.rotozoom(flat, angle, 1.0)

    def shadow(self, angle: float) -> pygame.Surface:
        return _shadow(angle)


@lru_cache(maxsize=4)
def make_art(p: Paytable) -> Art:
    title = _metal_text("CASINO WAR", 168, Style.SERIF)
    shadow = text("CASINO WAR", 168, (0, 0, 0), Style.SERIF).copy()
    shadow.set_alpha(150)
    bright = _metal_text("CASINO WAR", 168, Style.SERIF, bright=True)
    shine = []
    for alpha in (70, 140, 230):
        band = bright.copy()
        band.set_alpha(alpha)
        shine.append(band)
    subtitle = None
    glow = pygame.Surface((1, 1), pygame.SRCALPHA)
    if p.bonus_spin is not None:
        subtitle = _metal_text("BONUS SPIN XTREME", 72, Style.BOLD, red=True)
        glow = _glow(subtitle.get_width() + 120, subtitle.get_height() + 50)
    panels = tuple(_Panel(meter_label(p, level), level) for level in LEVELS
                   if p.meter(level) is not None)
    if not panels:
        panels = tuple(_Panel(label, value=value) for label, value in feature_pays(p))
    wheel = p.bonus_spin is not None
    panel_rects = _meter_rects(len(panels), wheel)
    fan_centre = (400, 560) if wheel else (560, 560)
    cards = _fan_cards(p)
    line_w = LOGICAL_W - 240
    lines = tuple(_shadowed(fit_text(line, 54, theme.WIN, line_w, Style.BOLD))
                  for line in highlights(p))
    touch = text("TOUCH ANYWHERE TO PLAY", 46, theme.WHITE, Style.BOLD).copy()
    return Art(_backdrop(), title, shadow, tuple(shine), subtitle, glow, cards, fan_centre,
                (1590, 560), panels, panel_rects, lines, limits_line(p), touch)


def _meter_rects(count: int, wheel: bool) -> tuple[pygame.Rect, ...]:
    """The jackpot panels: the first (the primary) large, the others below it."""
    if not count:
        return ()
    left, width = (730, 560) if wheel else (1000, 760)
    rects = [pygame.Rect(left, 330, width, 196)]
    if count > 1:
        small_w = (width - 20 * (count - 2)) // (count - 1)
        for i in range(count - 1):
            rects.append(pygame.Rect(left + i * (small_w + 20), 546, small_w, 136))
    if count == 2:
        rects[1] = pygame.Rect(left, 546, width, 136)
    if count == 3:
        rects = [rects[0], pygame.Rect(left, 546, width, 120), pygame.Rect(left, 682, width,
                                                                            120)]
    return tuple(rects)


def _fan_cards(p: Paytable) -> tuple[Card, ...]:
    """Five cards; the middle one is the Bonus Spin trigger card when the table has one."""
    middle = Card(Rank.ACE, Suit.SPADES)
    if p.bonus_spin is not None and p.bonus_spin.trigger:
        designated = p.bonus_spin.trigger[0]
        suit = Suit.HEARTS if designated.colour is Colour.RED else Suit.SPADES
        middle = Card(Rank.parse(designated.rank), suit)
    return (Card(Rank.TEN, Suit.CLUBS), Card(Rank.KING, Suit.DIAMONDS), middle,
            Card(Rank.QUEEN, Suit.SPADES), Card(Rank.JACK, Suit.HEARTS))


@lru_cache(maxsize=32)
def _rotated(card: Card, face_up: bool, angle: float) -> pygame.Surface:
    sprite = card_face(card, CARD_W) if face_up else card_back(CARD_W)
    return pygame.transform.rotozoom(sprite, angle, 1.0)


@lru_cache(maxsize=8)
def _shadow(angle: float) -> pygame.Surface:
    w, h = CARD_W, round(CARD_W * 1.4)
    shadow = pygame.Surface((w + 24, h + 24), pygame.SRCALPHA)
    pygame.draw.rect(shadow, (0, 0, 0, 70), (12, 12, w, h), border_radius=12)
    shadow = pygame.transform.gaussian_blur(shadow, 8)
    return pygame.transform.rotozoom(shadow, angle, 1.0)


def _metal_text(words: str, size: int, style: Style, bright: bool = False,
                red: bool = False) -> pygame.Surface:
    """``words`` filled with a vertical metallic gradient and a dark outline."""
    mask = text(words, size, theme.WHITE, style)
    w, h = mask.get_size()
    if red:
        stops = ((255, 236, 200), (255, 120, 90), (200, 20, 40), (255, 180, 120))
    elif bright:
        stops = ((255, 255, 255), (255, 250, 220), (255, 236, 170), (255, 255, 240))
    else:
        stops = ((255, 244, 190), (240, 196, 80), (160, 104, 24), (250, 214, 110))
    gradient = pygame.Surface((w, h), pygame.SRCALPHA)
    for y in range(h):
        t = y / max(1, h - 1) * (len(stops) - 1)
        k = min(int(t), len(stops) - 2)
        f = t - k
        colour = tuple(round(a + (b - a) * f) for a, b in zip(stops[k], stops[k + 1],
                                                              strict=True))
        pygame.draw.line(gradient, (*colour, 255), (0, y), (w, y))
    filled = mask.copy()
    filled.blit(gradient, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    outline = text(words, size, (40, 20, 4), style)
    out = pygame.Surface((w + 8, h + 8), pygame.SRCALPHA)
    for dx, dy in ((-3, 0), (3, 0), (0, -3), (0, 3), (-2, -2), (2, 2), (-2, 2), (2, -2)):
        out.blit(outline, (4 + dx, 4 + dy))
    out.blit(filled, (4, 4))
    return out


def _shadowed(label: pygame.Surface) -> pygame.Surface:
    """``label`` over a soft dark copy of itself, on its own surface (so it can fade)."""
    w, h = label.get_size()
    out = pygame.Surface((w + 6, h + 6), pygame.SRCALPHA)
    dark = label.copy()
    dark.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGBA_MIN)
    out.blit(dark, (4, 4))
    out.blit(label, (0, 0))
    return out


def _glow(width: int, height: int) -> pygame.Surface:
    """A soft red-gold oval behind the Bonus Spin title."""
    glow = pygame.Surface((width, height), pygame.SRCALPHA)
    pygame.draw.ellipse(glow, (255, 90, 40, 120), glow.get_rect().inflate(-40, -20))
    return pygame.transform.gaussian_blur(glow, 18)


@lru_cache(maxsize=1)
def _backdrop() -> pygame.Surface:
    """Casino felt with a spotlight, a vignette, a padded rail and a gold inlay."""
    surface = pygame.Surface((LOGICAL_W, LOGICAL_H))
    surface.fill(theme.RAIL)
    felt = pygame.Rect(28, 28, LOGICAL_W - 56, LOGICAL_H - 56)
    small = pygame.Surface((LOGICAL_W // 8, LOGICAL_H // 8))
    cx, cy = small.get_width() / 2, small.get_height() * 0.42
    reach = math.hypot(cx, cy) * 1.1
    for y in range(small.get_height()):
        for x in range(small.get_width()):
            t = min(1.0, math.hypot(x - cx, (y - cy) * 1.3) / reach)
            colour = tuple(round(a + (b - a) * t) for a, b in zip(theme.FELT_LIGHT,
                                                                  (2, 30, 20), strict=True))
            small.set_at((x, y), colour)
    spot = pygame.transform.smoothscale(small, felt.size)
    surface.blit(spot, felt)
    pygame.draw.rect(surface, theme.RAIL_LIGHT, felt.inflate(8, 8), width=4, border_radius=30)
    pygame.draw.rect(surface, theme.GOLD_DARK, felt.inflate(-24, -24), width=3, border_radius=24)
    pygame.draw.rect(surface, theme.GOLD_DARK, felt.inflate(-36, -36), width=1, border_radius=20)
    # The ribbon the pay lines scroll on.
    ribbon = pygame.Surface((LOGICAL_W - 200, 84), pygame.SRCALPHA)
    ribbon.fill((0, 0, 0, 0))
    for x in range(ribbon.get_width()):
        edge = min(x, ribbon.get_width() - 1 - x) / 160
        pygame.draw.line(ribbon, (0, 0, 0, round(150 * min(1.0, edge))), (x, 0), (x, 83))
    surface.blit(ribbon, (100, RIBBON_Y - 42))
    for y in (RIBBON_Y - 42, RIBBON_Y + 41):
        pygame.draw.line(surface, theme.GOLD_DARK, (260, y), (LOGICAL_W - 260, y), 2)
    return surface


def mix(a: theme.RGB, b: theme.RGB, t: float) -> theme.RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


@lru_cache(maxsize=1)
def _bulb_positions() -> tuple[tuple[int, int], ...]:
    """Marquee bulbs along the rail, evenly spaced round the screen."""
    out: list[tuple[int, int]] = []
    step = 48
    inset = 14
    for x in range(inset, LOGICAL_W - inset + 1, step):
        out.append((x, inset))
    for y in range(inset + step, LOGICAL_H - inset + 1, step):
        out.append((LOGICAL_W - inset, y))
    for x in range(LOGICAL_W - inset - step, inset - 1, -step):
        out.append((x, LOGICAL_H - inset))
    for y in range(LOGICAL_H - inset - step, inset, -step):
        out.append((inset, y))
    return tuple(out)


def draw_bulbs(surface: pygame.Surface, now: float) -> None:
    """A chase of marquee lights round the rail: every third bulb lit, stepping 8 times a second."""
    phase = math.floor(now * 8)
    for i, centre in enumerate(_bulb_positions()):
        if (i + phase) % 3 == 0:
            pygame.draw.circle(surface, (255, 200, 80), centre, 9)
            pygame.draw.circle(surface, (255, 248, 214), centre, 5)
        else:
            pygame.draw.circle(surface, (110, 70, 26), centre, 6)
