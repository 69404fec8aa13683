"""What moves over the players' table: cards flying from the shoe and turning over, chips
flying to the felt, banners, and the progressive hit's or big win's celebration.

Each is drawn from the :class:`~etg.ui.presenter.Presenter`'s animations as a pure
function of ``now`` (:func:`draw_animations`), over everything else on the table.
"""

from __future__ import annotations

from functools import partial

import pygame

from etg.core.cards import Card
from etg.core.money import format_cents
from etg.ui import theme
from etg.ui.ahead import Task
from etg.ui.animations import (
    BIG_WIN_S,
    CARD_FLIGHT_S,
    CELEBRATION_S,
    CHIP_FLIGHT_S,
    COUNT_AFTER_S,
    Banner,
    BigWin,
    CardFlight,
    Celebration,
    ChipFlight,
)
from etg.ui.assets import Style, text
from etg.ui.cards import card_back, flip_frame
from etg.ui.chips import draw_stack
from etg.ui.count_up import counted
from etg.ui.overdraw import Overdraw
from etg.ui.presenter import Presenter
from etg.ui.wheel import celebrate
from etg.ui.wheel_celebration import POP_S, banner_ahead, pop_ahead
from etg.ui.widgets import draw_panel

BANNER_CENTRE = (766, 462)  # over the spots, clear of the wheel

FLIGHT_CHIP = 40
"""The diameter of the chips that fly between the seats and the spots."""


def draw_animations(surface: pygame.Surface, presenter: Presenter, now: float,
                    over: Overdraw) -> None:
    """Everything moving over the table at `now`: cards flying and turning over, chips
    flying to the felt, banners, a progressive hit's or a big win's celebration; where each
    drew goes to `over`."""
    for animation in presenter.active(now):
        if isinstance(animation, CardFlight):
            over.add(_draw_card_flight(surface, animation, now))
        elif isinstance(animation, ChipFlight):
            over.add(_draw_chip_flight(surface, animation, now))
        elif isinstance(animation, Banner):
            over.add(_draw_banner(surface, animation, now))
        elif isinstance(animation, Celebration | BigWin):
            over.add_all(celebrate(surface, surface.get_rect(), now, animation.start,
                                   _title(animation), _line(animation, now),
                                   lasts=_lasts(animation), rays=isinstance(animation,
                                                                            Celebration),
                                   widest=_line(animation)))


def big_win_line(big: BigWin, now: float) -> str:
    """The big win's line under its title at ``now``: who, and the amount counting up to
    what was paid (exactly that from :attr:`BigWin.counted_at` on)."""
    return _line(big, now)


def celebrations_ahead(presenter: Presenter, canvas: pygame.Rect, at: float) -> list[Task]:
    """What a frame at app time `at` (the next one) shows of a celebration that it would
    otherwise make, as tasks for between frames: the popping title
    (:func:`etg.ui.wheel_celebration.pop_ahead`), the banner's panel and fading line
    (:func:`etg.ui.wheel_celebration.banner_ahead`)."""
    tasks: list[Task] = []
    for animation in presenter.active(at):
        if isinstance(animation, Celebration | BigWin):
            t = at - animation.start
            if t < POP_S:
                tasks.append((("pop",), partial(pop_ahead, canvas, _title(animation), t)))
            tasks.append((("banner",), partial(
                banner_ahead, canvas, _title(animation), _line(animation, at),
                _line(animation), t, _lasts(animation))))
    return tasks


def _title(animation: Celebration | BigWin) -> str:
    return animation.title if isinstance(animation, Celebration) else "BIG WIN!"


def _line(animation: Celebration | BigWin, now: float | None = None) -> str:
    """The line under the title at `now`: the amount counting up, and whose it is; with
    no `now`, the whole amount (the line at its widest)."""
    amount = format_cents(animation.cents if now is None else
                          counted(animation.cents, animation.start + COUNT_AFTER_S, now))
    if isinstance(animation, Celebration):
        return f"{amount}  ·  {animation.detail}"
    seats = animation.seats
    who = f"SEAT {seats[0]}" if len(seats) == 1 else "SEATS " + " · ".join(map(str, seats[:4]))
    return f"{who}  ·  PAID {amount}"


def _lasts(animation: Celebration | BigWin) -> float:
    return CELEBRATION_S if isinstance(animation, Celebration) else BIG_WIN_S


def _draw_card_flight(surface: pygame.Surface, flight: CardFlight, now: float) -> pygame.Rect:
    t = now - flight.start
    x0, y0 = flight.origin
    x1, y1, w, _ = flight.dest
    width = round(w)
    if t < CARD_FLIGHT_S:
        k = _ease_out(t / CARD_FLIGHT_S)
        x, y = x0 + (x1 - x0) * k, y0 + (y1 - y0) * k
        return surface.blit(card_back(width), (round(x), round(y)))
    progress = (t - CARD_FLIGHT_S) / (flight.end - flight.start - CARD_FLIGHT_S)
    frame = flip_frame(Card.parse(flight.card_code), width, progress)
    return surface.blit(frame, frame.get_rect(midtop=(round(x1 + w / 2), round(y1))))


def _draw_chip_flight(surface: pygame.Surface, flight: ChipFlight, now: float) -> pygame.Rect:
    k = _ease_out(min(1.0, (now - flight.start) / CHIP_FLIGHT_S))
    (x0, y0), (x1, y1) = flight.origin, flight.dest
    x, y = x0 + (x1 - x0) * k, y0 + (y1 - y0) * k - 60 * k * (1 - k)
    return draw_stack(surface, flight.amount, (round(x), round(y) + 12), FLIGHT_CHIP,
                      max_chips=5)


def _draw_banner(surface: pygame.Surface, banner: Banner, now: float) -> pygame.Rect:
    t = (now - banner.start) / banner.duration
    scale = min(1.0, t * 6)
    colour = {"gold": theme.GOLD, "war": theme.WAR, "void": theme.TILT}[banner.tone]
    words = text(banner.text, 56, colour, Style.SERIF)
    rect = pygame.Rect(0, 0, round((words.get_width() + 80) * scale), 100)
    rect.center = BANNER_CENTRE
    if rect.width < 20:
        return pygame.Rect(rect.center, (0, 0))
    draw_panel(surface, rect, (8, 14, 22, 225), colour, radius=20, width=4)
    if scale >= 1.0:
        return rect.union(surface.blit(words, words.get_rect(center=rect.center)))
    return rect


def _ease_out(k: float) -> float:
    k = min(max(k, 0.0), 1.0)
    return 1 - (1 - k) ** 3
