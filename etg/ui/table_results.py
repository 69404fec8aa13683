"""What each seat was paid this round, counting up, and the round's recap (SPEC §6:
"paid amounts (stake + win) count up"; "losers dim quietly").

Pure drawing from the :class:`~etg.ui.presenter.Presenter`'s record of the round's
payments (:attr:`~etg.ui.presenter.Presenter.paid`) and the shown state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pygame

from etg.core.money import format_cents
from etg.core.state import Phase, TableState
from etg.ui import theme
from etg.ui.animations import Paid
from etg.ui.assets import Style
from etg.ui.count_up import counted, draw_amount
from etg.ui.layout import TableLayout
from etg.ui.presenter import Presenter
from etg.ui.seat_layout import SeatLayout
from etg.ui.widgets import draw_text


@dataclass(frozen=True)
class SeatResult:
    """What a seat shows of its round now: paid back so far, spot by spot, or dimmed."""

    paid: int  # cents counted up so far: stakes and winnings paid back
    lines: tuple[tuple[str, int], ...]  # (SPOT n, BONUS or ENVY, cents so far)
    dimmed: bool  # the round is over and the seat lost everything


def seat_result(presenter: Presenter, shown: TableState, seat: int,
                now: float) -> SeatResult | None:
    """The seat's result as the screen shows it at ``now``; None: nothing to show yet."""
    paid = [p for p in presenter.paid.get(seat, ()) if p.lands <= now]
    if paid:
        return SeatResult(sum(counted(p.cents, p.lands, now) for p in paid),
                          tuple(_paid_lines(paid, now)), False)
    r = shown.round
    if shown.phase is Phase.COMPLETE and r.staked[seat - 1] and not r.returned[seat - 1]:
        return SeatResult(0, (), True)
    return None


def recap_words(presenter: Presenter, shown: TableState, now: float) -> str | None:
    """The round at its end in one line, once every payment has landed; None before."""
    r = shown.round
    landed = all(p.lands <= now for paid in presenter.paid.values() for p in paid)
    if shown.phase is not Phase.COMPLETE or not landed or r.dealer_card is None:
        return None
    seats = [n for n in range(1, len(r.returned) + 1) if r.returned[n - 1]]
    war = f"  ·  WAR {r.dealer_war_card.code}" if r.dealer_war_card is not None else ""
    paid = (f"PAID {format_cents(sum(r.returned))} TO {len(seats)} "
            f"SEAT{'' if len(seats) == 1 else 'S'}" if seats else "THE HOUSE WINS")
    return f"ROUND {r.number}  ·  DEALER {r.dealer_card.code}{war}  ·  {paid}"


def draw_result(surface: pygame.Surface, seat: SeatLayout, result: SeatResult) -> pygame.Rect:
    """What the seat is paid back (stake and winnings) as worked out (:func:`seat_result`),
    counting up as the chips land, spot by spot; at the round's end a seat that lost
    everything is quietly dimmed. (While a seat is deciding War or Surrender its controls
    come first: its caller shows no result then.) Returns the box of what it drew."""
    rect = pygame.Rect(*map(round, seat.rect))
    if result.dimmed:
        return surface.blit(_dimmer(rect.size), rect)
    ribbon = pygame.Rect(rect.x + 4, rect.y + 44, rect.width - 8, 60 + 26 * len(result.lines))
    pygame.draw.rect(surface, theme.INK, ribbon, border_radius=10)
    pygame.draw.rect(surface, theme.WIN, ribbon, width=3, border_radius=10)
    drawn = ribbon.union(draw_text(surface, "PAID", 20, theme.CREAM,
                                   (ribbon.x + 12, ribbon.y + 30), "midleft"))
    drawn.union_ip(draw_amount(surface, result.paid, 30, theme.WIN,
                               (ribbon.right - 12, ribbon.y + 30), "midright",
                               max_width=ribbon.width - 80))
    for i, (where, cents) in enumerate(result.lines):
        y = ribbon.y + 72 + 26 * i
        drawn.union_ip(draw_text(surface, where, 20, theme.CREAM, (ribbon.x + 12, y), "midleft",
                                 Style.CONDENSED))
        drawn.union_ip(draw_amount(surface, cents, 20, theme.WHITE, (ribbon.right - 12, y),
                                   "midright", Style.CONDENSED))
    return drawn


def draw_recap(surface: pygame.Surface, presenter: Presenter, layout: TableLayout,
               shown: TableState, now: float) -> pygame.Rect:
    """The round at its end, in one line over the spots: its cards and what it paid. Returns
    the box of what it drew (empty: nothing)."""
    words = recap_words(presenter, shown, now)
    if words is None:
        return pygame.Rect(0, 0, 0, 0)
    plate = pygame.Rect(*map(round, layout.banner_row))
    pygame.draw.rect(surface, theme.INK, plate, border_radius=12)
    pygame.draw.rect(surface, theme.GOLD, plate, width=2, border_radius=12)
    return plate.union(draw_text(surface, words, 22, theme.GOLD, plate.center,
                                 max_width=plate.width - 20))


def _paid_lines(paid: list[Paid], now: float) -> list[tuple[str, int]]:
    """What each of the seat's spots (and its Bonus Spin, its Envy Bonus) has paid back so far."""
    lines: dict[str, int] = {}
    for p in paid:
        if p.envy:
            where = "ENVY"
        elif p.spot == 0:
            where = "BONUS"
        else:
            where = f"SPOT {p.spot}"
        lines[where] = lines.get(where, 0) + counted(p.cents, p.lands, now)
    return list(lines.items())


@lru_cache(maxsize=4)
def _dimmer(size: tuple[int, int]) -> pygame.Surface:
    """A seat that lost the round, quietly: its panel a shade darker."""
    layer = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(layer, (0, 0, 0, 110), layer.get_rect(), border_radius=14)
    return layer


