"""Amounts that count up to what was paid (SPEC §6: "paid amounts count up").

A count-up is a pure function of the time since the chips landed: the same
``now`` always shows the same figure, and it always ends on the exact amount
the ledger holds. Larger amounts take a little longer, as a slot machine's
meter does, but never more than :data:`LONGEST_S`.

A counting figure changes every frame, so it is never rendered as a whole
string (each frame a new surface): it is set from cached glyphs, one per
character, size and colour.
"""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from etg.core.money import format_cents
from etg.ui.assets import Colour, Style, font

SHORTEST_S = 0.6
LONGEST_S = 2.4


def count_seconds(cents: int) -> float:
    """How long ``cents`` takes to count up: 0.6 s for a dollar, 0.4 s more per factor of ten."""
    dollars = max(1.0, cents / 100)
    return min(LONGEST_S, SHORTEST_S + 0.4 * math.log10(dollars))


def counted(cents: int, since: float, now: float) -> int:
    """The figure shown ``now`` of ``cents`` that started counting at ``since``: eased out,
    whole cents, exactly ``cents`` once the count is over (and before it starts, 0)."""
    if now <= since:
        return 0
    k = (now - since) / count_seconds(cents)
    if k >= 1.0:
        return cents
    return round(cents * (1 - (1 - k) ** 3))


def draw_amount(surface: pygame.Surface, cents: int, size: int, colour: Colour,
                at: tuple[float, float], anchor: str = "center", style: Style = Style.BOLD,
                max_width: int | None = None) -> pygame.Rect:
    """Set a (counting) amount anchored at ``at`` glyph by glyph straight onto `surface` (no
    surface made for it each frame); stepped down in size to fit ``max_width``."""
    words = format_cents(cents)
    glyphs = [_glyph(char, size, colour, style) for char in words]
    width = sum(g.get_width() for g in glyphs)
    while max_width is not None and width > max_width and size > 12:
        size -= 2
        glyphs = [_glyph(char, size, colour, style) for char in words]
        width = sum(g.get_width() for g in glyphs)
    rect = pygame.Rect(0, 0, width, max(g.get_height() for g in glyphs))
    setattr(rect, anchor, (round(at[0]), round(at[1])))
    x = rect.x
    for glyph in glyphs:
        surface.blit(glyph, (x, rect.y))
        x += glyph.get_width()
    return rect


@lru_cache(maxsize=512)
def _glyph(char: str, size: int, colour: Colour, style: Style) -> pygame.Surface:
    return font(size, style).render(char, True, colour)
