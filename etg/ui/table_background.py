"""The players' table's background: the felt, the rail and the printed layout, drawn once.

Everything that never changes during a game on one paytable: the felt's light, the
rail, the card outlines, the shoe's and history's panels, the Tie payouts printed on
the felt, the wheel's box and each seat's panel (:func:`etg.ui.seat_panel.print_panel`).
The table blits it first every frame.
"""

from __future__ import annotations

import pygame

from etg.core.paytable import Paytable
from etg.core.state import TableState
from etg.ui import theme
from etg.ui.assets import Style, text
from etg.ui.layout import TableLayout
from etg.ui.seat_panel import print_panel
from etg.ui.theme import shade
from etg.ui.widgets import draw_panel


def table_background(layout: TableLayout, state: TableState) -> pygame.Surface:
    """The felt, the rail and the printed layout: drawn once, blitted every frame."""
    surface = pygame.Surface((1920, 1080))
    for row in range(0, 1080, 4):
        k = 1 - abs(row - 420) / 900
        surface.fill(shade(theme.FELT, 0.7 + 0.45 * k), (0, row, 1920, 4))
    pygame.draw.rect(surface, theme.RAIL, (0, 0, 1920, 64))
    pygame.draw.line(surface, theme.GOLD_DARK, (0, 64), (1920, 64), 3)
    slots = [layout.spot_card(spot) for spot in range(1, layout.spots + 1)]
    for x, y, w, h in [*slots, layout.dealer_card, layout.dealer_war_card]:
        outline = pygame.Rect(round(x) - 6, round(y) - 6, round(w) + 12, round(h) + 12)
        pygame.draw.rect(surface, theme.FELT_LIGHT, outline, width=3, border_radius=14)
    for rect in (layout.shoe, layout.history):
        draw_panel(surface, rect, (0, 0, 0, 90), theme.GOLD_DARK, radius=12, width=1)
    surface.blit(*odds_motto(layout, state.paytable))
    if layout.has_wheel:
        draw_panel(surface, layout.wheel_box, (0, 0, 0, 70), theme.GOLD_DARK, radius=16, width=1)
    for seat in layout.seat_layouts:
        print_panel(surface, seat)
    return surface.convert() if pygame.display.get_surface() is not None else surface


def odds_motto(layout: TableLayout, p: Paytable) -> tuple[pygame.Surface, pygame.Rect]:
    """The Tie payouts printed on the felt over the spots, and where: centred on the banner
    row (what lies over the felt keeps clear of this box: tests/test_ui_jackpot_boxes.py)."""
    motto = (f"TIE PAYS {p.payouts.tie.pays} TO {p.payouts.tie.to}  ·  "
             f"WAR TIE PAYS {p.payouts.war_tie.pays} TO {p.payouts.war_tie.to}")
    bx, by, bw, bh = layout.banner_row
    words = text(motto, 24, theme.GOLD, Style.SERIF)
    return words, words.get_rect(center=(round(bx + bw / 2), round(by + bh / 2)))
