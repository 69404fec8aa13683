"""Playing cards drawn by code: faces, the back, the turn-over and the shadow.

Why by code and not from image files: the table draws cards at every size
from 40 px (the history strip) to 220 px (the community spots), and a bitmap
scaled that far goes blurry or blocky. Each sprite is drawn once at a
multiple of its size and smooth-scaled down, which gives clean antialiased
edges with plain ``pygame.draw``, then cached; a frame only blits (SPEC §11).

The faces follow a real deck: corner indices top-left and, turned round,
bottom-right; the standard pip layouts with the lower pips upside down; one
large pip on an ace; a framed, double-headed panel on a court card. Below
:data:`COMPACT_BELOW` px there is no room for that, and a card shows a large
index and one big pip, which is how small cards stay legible.

Returned surfaces are shared by the caches: blit them, never draw on them.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pygame

from etg.core.cards import Card, Colour, Rank, Suit
from etg.ui import theme
from etg.ui.card_courts import COURT_TINT, draw_court
from etg.ui.card_glyphs import RGB, SUPERSAMPLE, Point, blit_centred, label, suit_shape

CARD_ASPECT = 7 / 5
"""Height over width: a poker-size card is 2.5 × 3.5 in."""

COMPACT_BELOW = 72
"""Faces narrower than this show a large index and one big pip."""


_MIN_WIDTH = 8

_PAPER: RGB = (253, 251, 245)
_EDGE: RGB = (150, 150, 156)
_BACK_FIELD: RGB = (132, 16, 30)
_BACK_LATTICE: RGB = (176, 44, 58)
_BACK_EMBLEM: RGB = (96, 8, 20)

# Pip centres in column units (0 left, 0.5 centre, 1 right) and row units
# (0 top, 1 bottom), the layout printed on real cards.
_L, _C, _R = 0.0, 0.5, 1.0
_PIP_LAYOUTS: dict[Rank, tuple[Point, ...]] = {
    Rank.TWO: ((_C, 0), (_C, 1)),
    Rank.THREE: ((_C, 0), (_C, 0.5), (_C, 1)),
    Rank.FOUR: ((_L, 0), (_R, 0), (_L, 1), (_R, 1)),
    Rank.FIVE: ((_L, 0), (_R, 0), (_C, 0.5), (_L, 1), (_R, 1)),
    Rank.SIX: ((_L, 0), (_R, 0), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)),
    Rank.SEVEN: ((_L, 0), (_R, 0), (_C, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)),
    Rank.EIGHT: ((_L, 0), (_R, 0), (_C, 0.25), (_L, 0.5), (_R, 0.5), (_C, 0.75), (_L, 1),
                 (_R, 1)),
    Rank.NINE: ((_L, 0), (_R, 0), (_L, 1 / 3), (_R, 1 / 3), (_C, 0.5), (_L, 2 / 3), (_R, 2 / 3),
                (_L, 1), (_R, 1)),
    Rank.TEN: ((_L, 0), (_R, 0), (_C, 1 / 6), (_L, 1 / 3), (_R, 1 / 3), (_L, 2 / 3),
               (_R, 2 / 3), (_C, 5 / 6), (_L, 1), (_R, 1)),
}


# --------------------------------------------------------------------------- public API


def card_size(width: int) -> tuple[int, int]:
    """Width and height in pixels of a card ``width`` pixels wide."""
    return width, round(width * CARD_ASPECT)


@lru_cache(maxsize=256)
def card_face(card: Card, width: int) -> pygame.Surface:
    """The face of ``card``, ``width`` pixels wide, on a transparent surface."""
    paper = _blank_card(width)
    big_w = paper.get_width()
    ink = _ink(card.suit)
    if width < COMPACT_BELOW:
        _draw_compact(paper, card, ink)
    else:
        _draw_indices(paper, card, ink)
        if card.rank is Rank.ACE:
            _draw_pip(paper, card.suit, ink, round(0.46 * big_w), paper.get_rect().center)
        elif card.rank >= Rank.JACK:
            draw_court(paper, card, ink)
        else:
            _draw_pips(paper, card, ink)
    return downsample(paper, SUPERSAMPLE)


@lru_cache(maxsize=32)
def card_back(width: int) -> pygame.Surface:
    """The casino back: white margin, red lattice field, gold border and the ETG emblem."""
    paper = _blank_card(width)
    big_w, big_h = paper.get_size()
    margin = round(0.065 * big_w)
    field_rect = pygame.Rect(margin, margin, big_w - 2 * margin, big_h - 2 * margin)
    field = _lattice(field_rect.size, spacing=max(3 * SUPERSAMPLE, round(0.07 * big_w)))
    _clip_rounded(field, round(0.045 * big_w))
    paper.blit(field, field_rect)
    _draw_back_border(paper, field_rect)
    _draw_emblem(paper)
    return downsample(paper, SUPERSAMPLE)


def flip_frame(card: Card, width: int, progress: float) -> pygame.Surface:
    """One frame of ``card`` turning face up: 0 the back, 0.5 edge-on, 1 the face.

    The card keeps its height and is squeezed horizontally by the cosine of
    the turn, so it slows at the edges like a real card; centre the frame on
    the card's position. At 0 and 1 the cached sprite itself is returned.
    """
    turn = min(1.0, max(0.0, progress))
    source = card_back(width) if turn < 0.5 else card_face(card, width)
    full_w, height = source.get_size()
    frame_w = max(1, round(full_w * abs(math.cos(math.pi * turn))))
    if frame_w == full_w:
        return source
    return pygame.transform.scale(source, (frame_w, height))


@lru_cache(maxsize=32)
def card_shadow(width: int) -> pygame.Surface:
    """A soft dark card-shaped shadow, card-sized, to blit a few px under and right of a card."""
    size = card_size(width)
    blur = max(1, width // 30)
    shadow = pygame.Surface(size, pygame.SRCALPHA)
    body = shadow.get_rect().inflate(-blur, -blur)
    pygame.draw.rect(shadow, (0, 0, 0, 150), body, border_radius=_corner_radius(width))
    return pygame.transform.gaussian_blur(shadow, blur)


def downsample(big: pygame.Surface, factor: int) -> pygame.Surface:
    """``big`` shrunk ``factor`` times, each pixel the alpha-weighted mean of its block.

    Sprites are drawn ``factor`` times too large and shrunk here (chips too).
    Unlike ``smoothscale`` this is exact: an opaque block stays fully opaque
    (``smoothscale`` tops out at 253) and transparent pixels never tint an edge.
    """
    big_w, big_h = big.get_size()
    width, height = big_w // factor, big_h // factor
    # BGRA is the byte order of pygame's own per-pixel-alpha surfaces (and of
    # convert_alpha), so blits of the result take the fast path.
    pixels = np.frombuffer(pygame.image.tobytes(big, "BGRA"), np.uint8).reshape(big_h, big_w, 4)
    alpha = pixels[..., 3].astype(np.uint32)
    weighted = pixels[..., :3] * alpha[..., None]
    colour_sum = np.zeros((height, width, 3), np.uint32)
    alpha_sum = np.zeros((height, width), np.uint32)
    for row in range(factor):  # strided adds beat a reshape-and-sum by a wide margin
        for column in range(factor):
            block = (slice(row, height * factor, factor), slice(column, width * factor, factor))
            colour_sum += weighted[block]
            alpha_sum += alpha[block]
    small = np.empty((height, width, 4), np.uint8)
    small[..., :3] = (colour_sum + alpha_sum[..., None] // 2) // np.maximum(alpha_sum, 1)[..., None]
    small[..., 3] = (alpha_sum + factor * factor // 2) // (factor * factor)
    return pygame.image.frombytes(small.tobytes(), (width, height), "BGRA")


# --------------------------------------------------------------------------- card blanks


def _corner_radius(width: int) -> int:
    return max(2, round(0.065 * width))


def _blank_card(width: int) -> pygame.Surface:
    """A supersampled card: ivory rounded rectangle with a thin grey border."""
    if width < _MIN_WIDTH:
        raise ValueError(f"card width {width} is below the minimum of {_MIN_WIDTH} px")
    w, h = card_size(width)
    big = pygame.Surface((w * SUPERSAMPLE, h * SUPERSAMPLE), pygame.SRCALPHA)
    radius = _corner_radius(width) * SUPERSAMPLE
    pygame.draw.rect(big, _EDGE, big.get_rect(), border_radius=radius)
    inner = big.get_rect().inflate(-2 * SUPERSAMPLE, -2 * SUPERSAMPLE)
    pygame.draw.rect(big, _PAPER, inner, border_radius=radius - SUPERSAMPLE)
    return big


def _ink(suit: Suit) -> RGB:
    return theme.CARD_RED if suit.colour is Colour.RED else theme.CARD_BLACK


# --------------------------------------------------------------------------- faces


def _draw_indices(paper: pygame.Surface, card: Card, ink: RGB) -> None:
    """Rank over suit in the top-left corner, and the same turned round bottom-right."""
    big_w = paper.get_width()
    index = _index(card, ink, cap=round(0.125 * big_w), suit_h=round(0.09 * big_w),
                   column=round(0.135 * big_w))
    left, top = round(0.03 * big_w), round(0.06 * big_w)
    paper.blit(index, (left, top))
    turned = pygame.transform.flip(index, True, True)
    paper.blit(turned, turned.get_rect(bottomright=(big_w - left, paper.get_height() - top)))


def _index(card: Card, ink: RGB, cap: int, suit_h: int, column: int) -> pygame.Surface:
    """A corner index: the rank label centred above the suit symbol in a column."""
    rank = label(card.rank.label, ink, cap, max_width=column)
    suit = suit_shape(card.suit, ink, suit_h)
    gap = max(1, round(0.2 * cap))
    surface = pygame.Surface((column, cap + gap + suit_h), pygame.SRCALPHA)
    surface.blit(rank, rank.get_rect(midtop=(column // 2, 0)))
    surface.blit(suit, suit.get_rect(midtop=(column // 2, cap + gap)))
    return surface


def _draw_pip(paper: pygame.Surface, suit: Suit, ink: RGB, height: int, centre: Point,
              upside_down: bool = False) -> None:
    blit_centred(paper, suit_shape(suit, ink, height), centre, upside_down)


def _draw_pips(paper: pygame.Surface, card: Card, ink: RGB) -> None:
    """The standard pip layout; pips below the middle are printed upside down."""
    big_w, big_h = paper.get_size()
    pip = suit_shape(card.suit, ink, round(0.175 * big_w))
    turned = pygame.transform.flip(pip, True, True)
    left, right = 0.3 * big_w, 0.7 * big_w
    top, bottom = 0.18 * big_h, 0.82 * big_h
    for column, row in _PIP_LAYOUTS[card.rank]:
        x = left + column * (right - left)
        y = top + row * (bottom - top)
        sprite = turned if row > 0.5 else pip
        paper.blit(sprite, sprite.get_rect(center=(round(x), round(y))))


def _draw_compact(paper: pygame.Surface, card: Card, ink: RGB) -> None:
    """A small card: a large index top-left and one big pip; court cards get a gold frame."""
    big_w, big_h = paper.get_size()
    index = _index(card, ink, cap=round(0.3 * big_w), suit_h=round(0.2 * big_w),
                   column=round(0.36 * big_w))
    paper.blit(index, (round(0.06 * big_w), round(0.07 * big_w)))
    centre = (0.62 * big_w, 0.66 * big_h)
    if card.rank >= Rank.JACK and card.rank is not Rank.ACE:
        frame = pygame.Rect(0, 0, round(0.56 * big_w), round(0.56 * big_w))
        frame.center = (round(centre[0]), round(centre[1]))
        pygame.draw.rect(paper, COURT_TINT[card.suit.colour], frame,
                         border_radius=round(0.05 * big_w))
        pygame.draw.rect(paper, theme.GOLD_DARK, frame, width=max(2, round(0.03 * big_w)),
                         border_radius=round(0.05 * big_w))
    _draw_pip(paper, card.suit, ink, round(0.42 * big_w), centre)


# --------------------------------------------------------------------------- the back


def _lattice(size: tuple[int, int], spacing: int) -> pygame.Surface:
    """The red field with a fine diagonal diamond lattice and a dot in every diamond."""
    width, height = size
    field = pygame.Surface(size, pygame.SRCALPHA)
    field.fill((*_BACK_FIELD, 255))
    line = max(1, SUPERSAMPLE)
    for offset in range(-height, width + height, spacing):
        pygame.draw.line(field, _BACK_LATTICE, (offset, 0), (offset + height, height), line)
        pygame.draw.line(field, _BACK_LATTICE, (offset, 0), (offset - height, height), line)
    dot = max(1, spacing // 7)
    for row, y in enumerate(range(spacing // 2, height + spacing, spacing // 2)):
        shift = 0 if row % 2 else spacing // 2
        for x in range(shift, width + spacing, spacing):
            pygame.draw.circle(field, theme.GOLD_DARK, (x, y), dot)
    return field


def _clip_rounded(surface: pygame.Surface, radius: int) -> None:
    """Make ``surface`` transparent outside a rounded rectangle of its own size."""
    shape = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shape.fill((255, 255, 255, 0))
    pygame.draw.rect(shape, (255, 255, 255, 255), shape.get_rect(), border_radius=radius)
    surface.blit(shape, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)


def _draw_back_border(paper: pygame.Surface, field: pygame.Rect) -> None:
    big_w = paper.get_width()
    gold = max(SUPERSAMPLE, round(0.016 * big_w))
    inset = round(0.05 * big_w)
    outer = field.inflate(-2 * inset, -2 * inset)
    pygame.draw.rect(paper, theme.GOLD, outer, gold, border_radius=round(0.03 * big_w))
    inner = outer.inflate(-3 * gold, -3 * gold)
    pygame.draw.rect(paper, theme.GOLD_DARK, inner, max(1, gold // 2),
                     border_radius=round(0.02 * big_w))


def _draw_emblem(paper: pygame.Surface) -> None:
    """A gold-ringed oval medallion in the centre with "ETG" in gold."""
    big_w, big_h = paper.get_size()
    oval = pygame.Rect(0, 0, round(0.5 * big_w), round(0.32 * big_w))
    oval.center = (big_w // 2, big_h // 2)
    gold = max(SUPERSAMPLE, round(0.016 * big_w))
    pygame.draw.ellipse(paper, theme.GOLD, oval.inflate(2 * gold, 2 * gold))
    pygame.draw.ellipse(paper, _BACK_EMBLEM, oval)
    pygame.draw.ellipse(paper, theme.GOLD_DARK, oval.inflate(-3 * gold, -3 * gold),
                        max(1, gold // 2))
    words = label("ETG", theme.GOLD, round(0.12 * big_w), max_width=round(0.36 * big_w))
    blit_centred(paper, words, oval.center)
