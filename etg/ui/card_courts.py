"""The court cards' faces: a framed, double-headed panel as on a real deck.

Each head holds a crown (a king's three points, a queen's tiara of five, a jack's
velvet cap), the big rank letter and a pip either side, over soft rays in the
suit's accent colour; the lower head is the upper one turned round. Drawn at the
supersampled size (:mod:`etg.ui.cards` scales the card down).
"""

from __future__ import annotations

import math

import pygame

from etg.core.cards import Card, Colour, Rank
from etg.ui import theme
from etg.ui.card_glyphs import RGB, SUPERSAMPLE, blit_centred, label, suit_shape

COURT_TINT: dict[Colour, RGB] = {Colour.RED: (252, 238, 222), Colour.BLACK: (232, 238, 250)}
COURT_ACCENT: dict[Colour, RGB] = {Colour.RED: (36, 72, 150), Colour.BLACK: (176, 30, 44)}


def draw_court(paper: pygame.Surface, card: Card, ink: RGB) -> None:
    """A framed panel, double-headed like a real court card: the top half and it turned round."""
    big_w, big_h = paper.get_size()
    inset_y = round(0.06 * big_w)
    panel = pygame.Rect(round(0.2 * big_w), inset_y, round(0.6 * big_w), big_h - 2 * inset_y)
    tint = COURT_TINT[card.suit.colour]
    pygame.draw.rect(paper, tint, panel)
    half = _court_half(card, ink, (panel.width, panel.height // 2))
    paper.blit(half, panel.topleft)
    turned = pygame.transform.flip(half, True, True)
    paper.blit(turned, turned.get_rect(bottomleft=panel.bottomleft))
    _draw_court_frame(paper, panel, ink)


def _court_half(card: Card, ink: RGB, size: tuple[int, int]) -> pygame.Surface:
    """One head of the court panel: a crown, the big rank letter and a pip either side."""
    width, height = size
    half = pygame.Surface(size, pygame.SRCALPHA)
    _draw_fan(half, card.suit.colour)
    crown = pygame.Rect(0, 0, round(0.52 * width), round(0.2 * height))
    crown.midtop = (width // 2, round(0.13 * height))
    _draw_crown(half, card.rank, crown, ink, COURT_ACCENT[card.suit.colour])
    cap = round(0.4 * height)
    letter = label(card.rank.label, ink, cap, max_width=round(0.56 * width))
    letter_top = crown.bottom + round(0.06 * height)
    half.blit(letter, letter.get_rect(midtop=(width // 2, letter_top)))
    pip = suit_shape(card.suit, ink, round(0.15 * height))
    for x in (0.15 * width, 0.85 * width):
        blit_centred(half, pip, (x, letter_top + cap / 2))
    return half


def _draw_fan(half: pygame.Surface, colour: Colour) -> None:
    """Soft rays from the middle of the card behind each head, in the accent colour."""
    width, height = half.get_size()
    accent = (*COURT_ACCENT[colour], 34)
    origin = (width / 2, height)
    rays = 9
    for ray in range(rays):
        start = math.pi * (ray + 0.25) / rays
        end = math.pi * (ray + 0.75) / rays
        far = 1.5 * height
        pygame.draw.polygon(half, accent, [
            origin,
            (origin[0] - far * math.cos(start), origin[1] - far * math.sin(start)),
            (origin[0] - far * math.cos(end), origin[1] - far * math.sin(end)),
        ])


def _draw_crown(surface: pygame.Surface, rank: Rank, box: pygame.Rect, ink: RGB,
                accent: RGB) -> None:
    """A king's crown (3 points), a queen's tiara (5) or a jack's cap (a band and a plume)."""
    outline = max(1, box.height // 12)
    band = pygame.Rect(box.left, box.bottom - box.height // 3, box.width, box.height // 3)
    points = {Rank.KING: 3, Rank.QUEEN: 5}.get(rank, 0)
    if points:
        outline_points = _crown_outline(box, band, points)
        pygame.draw.polygon(surface, theme.GOLD, outline_points)
        pygame.draw.polygon(surface, theme.GOLD_DARK, outline_points, outline)
        ball = max(2, box.width // (4 * points))
        for x, y in outline_points[1:-1:2]:
            pygame.draw.circle(surface, theme.GOLD, (x, y), ball)
            pygame.draw.circle(surface, theme.GOLD_DARK, (x, y), ball, outline)
    else:
        _draw_cap(surface, box, band, accent, outline)
    pygame.draw.rect(surface, theme.GOLD, band)
    pygame.draw.rect(surface, theme.GOLD_DARK, band, outline)
    jewel = max(2, band.height // 3)
    for x in (band.left + band.width // 4, band.centerx, band.right - band.width // 4):
        pygame.draw.circle(surface, ink, (x, band.centery), jewel)


def _draw_cap(surface: pygame.Surface, box: pygame.Rect, band: pygame.Rect, accent: RGB,
              outline: int) -> None:
    """A jack's velvet cap: a dome in the accent colour with a gold button on top."""
    dome_top = box.top + box.height // 5
    dome = pygame.Rect(box.left + box.width // 8, dome_top, box.width * 3 // 4,
                       2 * (band.bottom - dome_top))
    previous_clip = surface.get_clip()
    surface.set_clip(pygame.Rect(box.left, box.top, box.width, band.top - box.top))
    pygame.draw.ellipse(surface, accent, dome)
    pygame.draw.ellipse(surface, theme.GOLD_DARK, dome, outline)
    surface.set_clip(previous_clip)
    button = max(2, box.height // 7)
    pygame.draw.circle(surface, theme.GOLD, (dome.centerx, dome_top), button)
    pygame.draw.circle(surface, theme.GOLD_DARK, (dome.centerx, dome_top), button, outline)


def _crown_outline(box: pygame.Rect, band: pygame.Rect, points: int) -> list[tuple[int, int]]:
    """Zig-zag from the band's left end over ``points`` peaks to its right end."""
    outline = [(box.left, band.top)]
    step = box.width / (2 * points)
    for peak in range(points):
        tall = box.top if peak in (0, points - 1) or peak == points // 2 else box.top + band.height
        outline.append((round(box.left + (2 * peak + 1) * step), tall))
        if peak < points - 1:
            outline.append((round(box.left + (2 * peak + 2) * step), band.top - band.height // 2))
    outline.append((box.right, band.top))
    return outline


def _draw_court_frame(paper: pygame.Surface, panel: pygame.Rect, ink: RGB) -> None:
    """Gold outer rule, a fine rule in the suit colour inside it, and a gold line across."""
    big_w = paper.get_width()
    gold = max(SUPERSAMPLE, round(0.014 * big_w))
    fine = max(1, SUPERSAMPLE // 2 + 1)
    pygame.draw.rect(paper, theme.GOLD_DARK, panel, gold)
    pygame.draw.rect(paper, ink, panel.inflate(-3 * gold, -3 * gold), fine)
    middle = panel.centery
    pygame.draw.line(paper, theme.GOLD_DARK, (panel.left, middle), (panel.right - 1, middle), fine)
