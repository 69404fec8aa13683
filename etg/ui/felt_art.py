"""Each seat's piece of the felt, drawn: printed circles, the chip rail, the stacks on them.

What never changes is printed once into the table's background
(:func:`print_felt`): the felt, each spot's Initial and Tie circles and its
Progressive Payout light, the chip rail with its chips, the Bonus Spin spot.
Every frame :func:`draw_bets` puts on it what the shown state holds: a stack
of chips on each circle with a wager (the War Wager joins the Initial
Wager's stack, a Tie Wager on the War deal the Tie's), the Progressive
Payout light lit when its wager is accepted (MD Ch. 7 F(3)(b): the player
verifies it), the chip in hand lifted and ringed in gold. Drawing changes
nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import pygame

from etg.core.commands import BetKind
from etg.core.money import format_cents
from etg.core.state import TableState
from etg.ui import theme
from etg.ui.assets import Style, text
from etg.ui.canvas import Rect
from etg.ui.chips import chip, stack_sprite
from etg.ui.seat_layout import Arrangement, SeatLayout, SpotArea
from etg.ui.theme import PLAYER_TEXT, shade
from etg.ui.widgets import draw_text

PRINT = (214, 190, 120)  # the felt's printed lines: a worn gold
PRINT_DIM = (120, 150, 110)  # the spot numbers inside the Initial circles
LAMP_OFF = (70, 52, 20)
LAMP_ON = (255, 206, 60)
CHIP_LIFT = 3  # px the chip in hand rises off the rail


def print_felt(surface: pygame.Surface, seat: SeatLayout) -> None:
    """The seat's felt, circles, light, chip rail and Bonus Spin spot (the background's part)."""
    felt = _rect(seat.felt)
    pygame.draw.rect(surface, theme.FELT_DARK, felt, border_radius=10)
    pygame.draw.rect(surface, theme.GOLD_DARK, felt, width=1, border_radius=10)
    for area in seat.spots:
        _print_spot(surface, seat, area)
    rail = _rect(seat.rail).inflate(2, 2)
    pygame.draw.rect(surface, theme.RAIL, rail, border_radius=12)
    pygame.draw.rect(surface, theme.RAIL_LIGHT, rail, width=2, border_radius=12)
    for value, rect in seat.chips:
        size = _chip_size(rect)
        surface.blit(chip(value, size), chip(value, size).get_rect(center=_rect(rect).center))
    if seat.bonus_area is not None:
        spot = _rect(seat.bonus_area).inflate(2, 2)
        pygame.draw.rect(surface, shade(theme.BONUS, 0.7), spot, border_radius=12)
        pygame.draw.rect(surface, theme.GOLD, spot, width=2, border_radius=12)
        for value, rect in seat.bonus:
            _ring(surface, rect, theme.GOLD, 2, fill=shade(theme.BONUS, 1.15))
            r = _rect(rect)  # the wheel's purple says BONUS SPIN; the amount is what matters
            draw_text(surface, format_cents(value, whole_dollars=True), PLAYER_TEXT,
                      theme.WHITE, r.center)


def draw_bets(surface: pygame.Surface, seat: SeatLayout, shown: TableState,
              in_hand: int | None, pressed: set[str],
              landing: Mapping[tuple[int, int, BetKind], int]) -> None:
    """The seat's wagers on its felt as ``shown``, and the chip in hand (None: not betting).

    ``landing`` holds the cents of each (seat, spot, kind) whose chips are still
    flying from the rail: the stack shows them once they land.
    """
    n = seat.seat
    row = shown.round.wagers[n - 1]
    for area in seat.spots:
        w = row[area.spot - 1]
        spot = area.spot
        _stack(surface, area.initial,
               w.initial + w.war - landing.get((n, spot, BetKind.INITIAL), 0))
        _stack(surface, area.tie, w.tie + w.war_tie - landing.get((n, spot, BetKind.TIE), 0))
        lit = w.progressive_payout - landing.get((n, spot, BetKind.PROGRESSIVE_PAYOUT), 0)
        if area.payout is not None and lit:
            _lamp(surface, area.payout, lit)
    bonus = shown.round.bonus_spin[n - 1] if shown.round.bonus_spin else 0
    bonus -= landing.get((n, 0, BetKind.BONUS_SPIN), 0)
    for value, rect in seat.bonus:
        if bonus == value:
            _ring(surface, rect, theme.WIN, 3)
            _stack(surface, rect, bonus)
    if in_hand is None:
        surface.blit(_shade(round(seat.rail[2]) + 2, round(seat.rail[3]) + 2),
                     _rect(seat.rail).inflate(2, 2))
    else:
        for value, rect in seat.chips:
            if value == in_hand:
                _in_hand(surface, value, rect)
    for tag in pressed:
        target = _pressed_rect(seat, tag)
        if target is not None:
            _ring(surface, target, theme.WHITE, 3)


def mark_tied(surface: pygame.Surface, seat: SeatLayout, spots: list[int]) -> None:
    """A tied spot waiting for the seat's choice: its area ringed in the War colour."""
    for area in seat.spots:
        if area.spot in spots:
            pygame.draw.rect(surface, theme.WAR, _rect(area.rect).inflate(4, 4), width=3,
                             border_radius=8)


# --------------------------------------------------------------------------- printing


def _print_spot(surface: pygame.Surface, seat: SeatLayout, area: SpotArea) -> None:
    if area.label is not None:
        label = _rect(area.label)
        draw_text(surface, str(area.spot), PLAYER_TEXT, theme.CREAM, label.center)
    elif seat.arrangement is Arrangement.ROWS and area.spot > seat.spots[0].spot:
        x, y, w, _ = area.rect
        pygame.draw.line(surface, shade(theme.FELT, 0.8), (round(x + 4), round(y - 2)),
                         (round(x + w - 4), round(y - 2)))
    _ring(surface, area.initial, PRINT, 3, fill=shade(theme.FELT, 0.85))
    _words(surface, str(area.spot), area.initial, PRINT_DIM, 0.5, Style.SERIF)
    _ring(surface, area.tie, PRINT, 2)
    _words(surface, "TIE", area.tie, PRINT, 0.42)
    if area.payout is not None:
        _lamp(surface, area.payout, 0)


def _lamp(surface: pygame.Surface, rect: Rect, amount: int) -> None:
    """The Progressive Payout light: dark until its wager is accepted, then lit with it."""
    r = _rect(rect)
    picture = _lamp_picture(min(r.width, r.height), amount)
    surface.blit(picture, picture.get_rect(center=r.center))


@lru_cache(maxsize=32)
def _lamp_picture(size: int, amount: int) -> pygame.Surface:
    pad = 8
    picture = pygame.Surface((size + 2 * pad, size + 2 * pad), pygame.SRCALPHA)
    box = (pad, pad, size, size)
    centre = (pad + size // 2, pad + size // 2)
    radius = size // 2 - 2
    if amount:
        for step in range(8, 0, -2):  # a soft glow round the lit lamp
            pygame.draw.circle(picture, (*LAMP_ON, 22), centre, radius + step)
        pygame.draw.circle(picture, LAMP_ON, centre, radius)
        pygame.draw.circle(picture, theme.WHITE, centre, radius, width=2)
        _words(picture, format_cents(amount, whole_dollars=True), box, theme.INK, 0.42,
               Style.CONDENSED)
    else:
        pygame.draw.circle(picture, LAMP_OFF, centre, radius)
        pygame.draw.circle(picture, shade(LAMP_ON, 0.6), centre, radius, width=2)
        _words(picture, "PP", box, shade(LAMP_ON, 0.7), 0.42)
    return picture


def _ring(surface: pygame.Surface, rect: Rect, colour: theme.RGB, width: int,
          fill: theme.RGB | None = None) -> None:
    r = _rect(rect)
    radius = min(r.width, r.height) // 2 - 1
    if fill is not None:
        pygame.draw.circle(surface, fill, r.center, radius)
    pygame.draw.circle(surface, colour, r.center, radius, width=width)


def _words(surface: pygame.Surface, words: str, rect: Rect, colour: theme.RGB, share: float,
           style: Style = Style.BOLD) -> None:
    """``words`` centred in ``rect``, ``share`` of its height tall (never under the players'
    :data:`PLAYER_TEXT`), within the circle."""
    r = _rect(rect)
    size = max(PLAYER_TEXT, round(min(r.width, r.height) * share))
    draw_text(surface, words, size, colour, r.center, style=style)


# --------------------------------------------------------------------------- wagers


def _stack(surface: pygame.Surface, rect: Rect, amount: int) -> None:
    """``amount`` as a stack of chips standing on the circle, its sum on a tag at its foot."""
    if amount <= 0:
        return
    r = _rect(rect)
    picture = _stack_picture(amount, r.width, r.height)
    surface.blit(picture, (r.x - _STACK_PAD, r.y - _STACK_PAD))


_STACK_PAD = 6  # room round a circle's square for the stack's shadow


@lru_cache(maxsize=512)
def _stack_picture(amount: int, width: int, height: int) -> pygame.Surface:
    """The stack and its tag on a circle of ``width`` × ``height``, drawn once."""
    pad = _STACK_PAD
    picture = pygame.Surface((width + 2 * pad, height + 2 * pad), pygame.SRCALPHA)
    r = pygame.Rect(pad, pad, width, height)
    diameter = max(12, round(min(width, height) * 0.72))
    bottom = r.centery + round(diameter * 0.3)
    step = max(2, round(diameter / 7))
    most = max(1, (bottom - r.top - diameter // 2) // step)
    sprite, (ax, ay) = stack_sprite(amount, diameter, most)
    picture.blit(sprite, (r.centerx - ax, bottom - ay))
    words = text(format_cents(amount, whole_dollars=True), PLAYER_TEXT, theme.WHITE,
                 Style.CONDENSED)
    tag = words.get_rect(center=(r.centerx, r.bottom - 8)).inflate(8, 2)
    pygame.draw.rect(picture, theme.INK, tag, border_radius=6)
    picture.blit(words, words.get_rect(center=tag.center))
    return picture


def _in_hand(surface: pygame.Surface, value: int, rect: Rect) -> None:
    r = _rect(rect)
    size = _chip_size(rect)
    centre = (r.centerx, r.centery - CHIP_LIFT)
    pygame.draw.circle(surface, theme.RAIL, r.center, size // 2 + 1)  # the printed chip below
    pygame.draw.circle(surface, theme.GOLD, centre, size // 2 + 3)
    surface.blit(chip(value, size), chip(value, size).get_rect(center=centre))


def _pressed_rect(seat: SeatLayout, tag: str) -> Rect | None:
    parts = tag.split(":")
    if len(parts) != 4 or parts[0] != "seat" or int(parts[1]) != seat.seat:
        return None
    what, value = parts[2], int(parts[3])
    if what == "chip":
        return next((r for v, r in seat.chips if v == value), None)
    if what == "bonus":
        return next((r for v, r in seat.bonus if v == value), None)
    area = seat.area(value)
    if area is None:
        return None
    return {"initial": area.initial, "tie": area.tie, "payout": area.payout}.get(what)


def _chip_size(rect: Rect) -> int:
    return round(min(rect[2], rect[3])) - 6


@lru_cache(maxsize=16)
def _shade(width: int, height: int) -> pygame.Surface:
    """A dark veil over the chip rail while betting is closed."""
    veil = pygame.Surface((width, height), pygame.SRCALPHA)
    pygame.draw.rect(veil, (8, 12, 18, 150), veil.get_rect(), border_radius=12)
    return veil


def _rect(rect: Rect) -> pygame.Rect:
    x, y, w, h = rect
    return pygame.Rect(round(x), round(y), round(x + w) - round(x), round(y + h) - round(y))
