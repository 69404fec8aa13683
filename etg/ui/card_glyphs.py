"""The type and suit symbols on the cards: rendered once large, cropped to their ink.

A card's rank letters and suit symbols are set from glyphs rendered once at
:data:`MASTER_SIZE` (outside the shared text cache) and cropped from the cap line
to the lowest descender, then scaled to the size a card needs: capitals of an exact
height (:func:`label`), a symbol of an exact height (:func:`suit_shape`), at the
supersampled size a card is drawn at (:data:`SUPERSAMPLE`).
"""

from __future__ import annotations

from functools import lru_cache

import pygame

from etg.core.cards import Suit
from etg.ui.assets import Style, font

RGB = tuple[int, int, int]
Point = tuple[float, float]

SUPERSAMPLE = 3
"""A card is drawn this many times larger, then smooth-scaled down."""

MASTER_SIZE = 320  # glyphs are rendered once this large (outside the shared text cache)


@lru_cache(maxsize=128)
def glyph(words: str, colour: RGB, style: Style) -> pygame.Surface:
    """``words`` cropped to its ink, from the cap line down to the lowest descender."""
    rendered = font(MASTER_SIZE, style).render(words, True, colour)
    ink = rendered.get_bounding_rect()
    top = min(ink.top, cap_top(style))
    return rendered.subsurface(pygame.Rect(ink.left, top, ink.width, ink.bottom - top)).copy()


@lru_cache(maxsize=8)
def cap_top(style: Style) -> int:
    return int(capital(style).top)


@lru_cache(maxsize=8)
def cap_height(style: Style) -> int:
    return int(capital(style).height)


def capital(style: Style) -> pygame.Rect:
    """Where the ink of a capital H lies in a line rendered at the master size."""
    return font(MASTER_SIZE, style).render("H", True, (0, 0, 0)).get_bounding_rect()


def label(words: str, colour: RGB, cap: int, max_width: int,
           style: Style = Style.SERIF) -> pygame.Surface:
    """``words`` with capitals ``cap`` px tall, squeezed horizontally to ``max_width``."""
    master = glyph(words, colour, style)
    scale = cap / cap_height(style)
    width = max(1, min(max_width, round(master.get_width() * scale)))
    return pygame.transform.smoothscale(master, (width,
                                                 max(1, round(master.get_height() * scale))))


def suit_shape(suit: Suit, colour: RGB, height: int) -> pygame.Surface:
    """The suit symbol ``height`` px tall, cropped to its ink."""
    master = glyph(suit.symbol, colour, Style.SERIF)
    width = max(1, round(master.get_width() * height / master.get_height()))
    return pygame.transform.smoothscale(master, (width, max(1, height)))


def blit_centred(target: pygame.Surface, sprite: pygame.Surface, centre: Point,
                  upside_down: bool = False) -> None:
    if upside_down:
        sprite = pygame.transform.flip(sprite, True, True)
    target.blit(sprite, sprite.get_rect(center=(round(centre[0]), round(centre[1]))))
