"""A seat's panel on the table screen: its header, its piece of the felt and its buttons.

:func:`print_panel` draws what never changes into the table's background;
:func:`draw_panel_now` the rest each frame from the shown state: the credits,
the wagers on the felt, the seat's buttons (lit, pressed or, while betting is
closed, greyed), a tied spot ringed in the War colour, and a short message
(a refusal in the players' words, "ATTENDANT CALLED"). Drawing changes nothing.

:func:`seat_panel` gives the panel with what the seat was paid for the table's
:class:`~etg.ui.panel_layer.PanelLayer`, which draws it again only when its key, all
that the drawing reads, changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pygame

from etg.core.commands import BetKind
from etg.core.money import format_cents
from etg.core.state import TableState
from etg.ui import theme
from etg.ui.assets import Style, wrap
from etg.ui.felt import Target, seat_button
from etg.ui.felt_art import draw_bets, mark_tied, print_felt
from etg.ui.layout import TableLayout
from etg.ui.panel_layer import Panel
from etg.ui.presenter import Presenter
from etg.ui.seat_layout import HEADER_H, SeatLayout
from etg.ui.table_results import SeatResult, draw_result, seat_result
from etg.ui.theme import shade
from etg.ui.widgets import draw_button, draw_text


def print_panel(surface: pygame.Surface, seat: SeatLayout) -> None:
    """The seat's panel in its colour, its name in the header, and its felt."""
    rect = _rect(seat.rect)
    colour = theme.seat_colour(seat.seat)
    pygame.draw.rect(surface, theme.PANEL, rect, border_radius=14)
    pygame.draw.rect(surface, shade(colour, 0.8), rect, width=2, border_radius=14)
    head = pygame.Rect(rect.x, rect.y, rect.width, round(HEADER_H))
    pygame.draw.rect(surface, shade(colour, 0.45), head, border_top_left_radius=14,
                     border_top_right_radius=14)
    if _name_width(rect.width) > _BADGE:
        draw_text(surface, f"SEAT {seat.seat}", theme.PLAYER_TEXT, theme.WHITE,
                  (rect.x + 12, head.centery), "midleft")
    else:  # a narrow panel: the seat's number on a disc, so its credits keep their size
        centre = (rect.x + 8 + _BADGE // 2, head.centery)
        pygame.draw.circle(surface, shade(colour, 1.2), centre, _BADGE // 2)
        draw_text(surface, str(seat.seat), theme.PLAYER_TEXT, theme.INK, centre)
    print_felt(surface, seat)


def seat_panels(layout: TableLayout, presenter: Presenter, pending: Sequence[tuple[int, int]],
                now: float, pressed: set[str], targets: Mapping[int, Sequence[Target]],
                in_hand: Mapping[int, int], messages: Mapping[int, str]
                ) -> tuple[list[Panel], list[tuple[SeatLayout, SeatResult]]]:
    """Every seat's panel as the frame at `now` shows it (:func:`seat_panel`), with what the
    seat was paid once that stops changing; and the amounts still counting up, to draw over
    the table's layer each frame.

    ``pending``: the (seat, spot) decisions awaited; ``targets``: each seat's own;
    ``in_hand``: each seat's chip in hand while it may bet (empty otherwise); ``messages``:
    the words each seat shows now.
    """
    shown = presenter.shown
    tied: dict[int, list[int]] = {}
    for seat_number, spot in pending:
        tied.setdefault(seat_number, []).append(spot)
    landing = presenter.landing(now)
    panels, counting = [], []
    for seat in layout.seat_layouts:
        n = seat.seat
        result = None if tied.get(n) else seat_result(presenter, shown, n, now)
        if result is not None and result != seat_result(presenter, shown, n, now + _LATER_S):
            counting.append((seat, result))
            result = None
        panels.append(seat_panel(seat, shown, presenter.credits[n - 1], targets.get(n, []),
                                 pressed, in_hand.get(n), tied.get(n, []), messages.get(n),
                                 landing, result))
    return panels, counting


SEAT_MARGIN = 8
"""How far past its rectangle a seat's panel draws: everything on it lies inside it, but a
stack's picture reaches 6 px past its circle (:func:`etg.ui.felt_art.draw_bets`) and a
ring's stroke a little past what it rings. Kept under the 10 px between the spots and the
seats (:data:`etg.ui.table_art.SPOTS_MARGIN`), so a wager placed on the spots does not draw
the seats again."""

_LATER_S = 3600.0  # an hour on, every payment shown has long landed and counted up


def seat_panel(seat: SeatLayout, shown: TableState, credits: int, targets: Sequence[Target],
               pressed: set[str], in_hand: int | None, tied: list[int], message: str | None,
               landing: Mapping[tuple[int, int, BetKind], int],
               result: SeatResult | None) -> Panel:
    """The seat's panel now (:func:`draw_panel_now`'s arguments) with what it was paid
    (:func:`etg.ui.table_results.draw_result`) over it, keyed by everything the two read:
    equal keys, the same picture."""
    n = seat.seat
    row = shown.round.wagers[n - 1]
    bonus = shown.round.bonus_spin[n - 1] if shown.round.bonus_spin else 0
    key = (credits, row, bonus, tuple(targets),
           frozenset(tag for tag in pressed if tag.startswith("seat:")), in_hand, tuple(tied),
           message, frozenset(item for item in landing.items() if item[0][0] == n), result)

    def draw(surface: pygame.Surface) -> None:
        draw_panel_now(surface, seat, shown, credits, targets, pressed, in_hand, tied, message,
                       landing)
        if result is not None:
            draw_result(surface, seat, result)

    return Panel(_rect(seat.rect), key, draw, SEAT_MARGIN)


def draw_panel_now(surface: pygame.Surface, seat: SeatLayout, shown: TableState, credits: int,
                   targets: Sequence[Target], pressed: set[str], in_hand: int | None,
                   tied: list[int], message: str | None,
                   landing: Mapping[tuple[int, int, BetKind], int]) -> None:
    """The seat as shown now.

    ``targets`` are the seat's own, in drawing order; ``in_hand`` is the chip
    in hand while the seat may bet (None otherwise); ``tied`` the spots
    waiting for its War or Surrender; ``landing`` the chips still flying to
    the felt (:func:`etg.ui.felt_art.draw_bets`).
    """
    rect = _rect(seat.rect)
    if tied:  # the panel is part of the background; a tie lights its edge
        pygame.draw.rect(surface, theme.WAR, rect, width=3, border_radius=14)
    draw_text(surface, format_cents(credits), 24, theme.WIN,
              (rect.right - 10, rect.y + HEADER_H / 2), "midright", Style.CONDENSED,
              max_width=rect.width - _name_width(rect.width) - 20)
    draw_bets(surface, seat, shown, in_hand, {t for t in pressed if t.startswith("seat:")},
              landing)
    if in_hand is None:
        for where, words in ((seat.clear, "CLEAR"), (seat.repeat, "REPEAT"),
                             (seat.double, "DOUBLE")):
            draw_button(surface, seat_button(where, words, "", enabled=False))
    if tied:
        mark_tied(surface, seat, tied)
    for target in targets:
        if not target.felt:
            draw_button(surface, target.button, target.name in pressed)
    if message is not None:
        x, y, w, _ = seat.felt
        lines = wrap(message, theme.PLAYER_TEXT, round(w) - 12, Style.CONDENSED)[:3]
        box = pygame.Rect(round(x), round(y), round(w), 16 + 24 * len(lines))
        pygame.draw.rect(surface, (90, 16, 20), box, border_radius=8)
        pygame.draw.rect(surface, theme.TILT, box, width=2, border_radius=8)
        for i, line in enumerate(lines):
            draw_text(surface, line, theme.PLAYER_TEXT, theme.WHITE,
                      (box.centerx, box.y + 20 + 24 * i), style=Style.CONDENSED)


_BADGE = 30  # the seat number's disc on a narrow panel


def _name_width(panel_width: int) -> int:
    """Room the seat's name takes in the header: SEAT n where its credits still fit beside it
    at the players' size, else a numbered disc."""
    return 90 if panel_width >= 260 else _BADGE


def _rect(rect: tuple[float, float, float, float]) -> pygame.Rect:
    x, y, w, h = rect
    return pygame.Rect(round(x), round(y), round(x + w) - round(x), round(y + h) - round(y))
