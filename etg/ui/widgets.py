"""Buttons and the small drawing vocabulary every scene shares.

A :class:`Button` is a value: where it is, what it says, what it does when
tapped (its ``tag``), and how it looks now. Scenes rebuild their buttons from
the state each frame, so a button can never show an action the state no
longer allows, and the App hit-tests touches against exactly what was drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import pygame

from etg.ui import theme
from etg.ui.assets import Colour, Style, fit_text, text
from etg.ui.canvas import Rect
from etg.ui.input import HitTarget, Touch, hit_test
from etg.ui.theme import shade

Anchor = Literal["center", "topleft", "topright", "midleft", "midright", "midtop", "midbottom",
                 "bottomleft", "bottomright"]


@dataclass(frozen=True)
class Button:
    """A touch target with its look; ``tag`` says what a tap means to the scene."""

    rect: Rect
    label: str
    tag: str
    enabled: bool = True
    hot: bool = False  # lit: the expected action, or the selected option
    colour: theme.RGB = theme.BUTTON
    size: int = 26
    sublabel: str = ""
    style: Style = Style.BOLD

    @property
    def target(self) -> HitTarget:
        return HitTarget(self.rect, tag=self.tag)


def button_at(buttons: Sequence[Button], touch: Touch) -> Button | None:
    """The topmost button under the touch (see :func:`etg.ui.input.hit_test`)."""
    hit = hit_test([b.target for b in buttons], touch)
    if hit is None:
        return None
    return next(b for b in reversed(buttons) if b.target == hit)


def draw_button(surface: pygame.Surface, button: Button, pressed: bool = False) -> pygame.Rect:
    """A raised, rounded casino button; lit when hot, sunk while pressed, grey when disabled;
    returns where it went.

    Each look is rendered once and blitted after (a table shows some 180 buttons a frame).
    """
    x, y, w, h = button.rect
    face = _button_face(round(x + w) - round(x), round(y + h) - round(y), button.label,
                        button.sublabel, button.size, button.colour, button.enabled, button.hot,
                        pressed, button.style)
    return surface.blit(face, (round(x), round(y)))


@lru_cache(maxsize=2048)
def _button_face(width: int, height: int, label: str, sublabel: str, size: int,
                 colour: theme.RGB, enabled: bool, hot: bool, pressed: bool,
                 style: Style = Style.BOLD) -> pygame.Surface:
    # Opaque with a colour key, not per-pixel alpha: the corners are the only see-through
    # part, and keyed blits cost a fraction of alpha-blended ones.
    face = pygame.Surface((width, height + 3))
    face.fill(_KEY)
    face.set_colorkey(_KEY, pygame.RLEACCEL)
    rect = pygame.Rect(0, 0, width, height)
    base = colour if enabled else theme.BUTTON_OFF
    if hot and enabled:
        base = theme.BUTTON_HOT
    if pressed:
        base = shade(base, 0.7)
    radius = min(14, rect.height // 3)
    pygame.draw.rect(face, shade(base, 0.45), rect.move(0, 3), border_radius=radius)
    pygame.draw.rect(face, base, rect, border_radius=radius)
    top = pygame.Rect(rect.x + 3, rect.y + 3, rect.width - 6, rect.height // 2 - 2)
    pygame.draw.rect(face, shade(base, 1.25), top, border_radius=max(radius - 3, 2))
    edge = theme.GOLD if hot and enabled else shade(base, 1.6)
    pygame.draw.rect(face, edge, rect, width=2, border_radius=radius)
    ink = theme.INK if hot and enabled else (theme.WHITE if enabled else theme.TEXT_DIM)
    words = fit_text(label, size, ink, rect.width - 10, style) if label else None
    if sublabel and words is not None:
        sub = fit_text(sublabel, max(size * 2 // 3, theme.PLAYER_TEXT), ink, rect.width - 10,
                       Style.CONDENSED)
        total = words.get_height() + sub.get_height() - 4
        top_y = rect.centery - total // 2
        face.blit(words, words.get_rect(midtop=(rect.centerx, top_y)))
        face.blit(sub, sub.get_rect(midtop=(rect.centerx, top_y + words.get_height() - 4)))
    elif words is not None:
        face.blit(words, words.get_rect(center=rect.center))
    return face.convert() if pygame.display.get_surface() is not None else face


_KEY = (255, 0, 254)  # a colour no button uses: the transparent corners


def draw_text(surface: pygame.Surface, words: str, size: int, colour: Colour,
              at: tuple[float, float], anchor: Anchor = "center", style: Style = Style.BOLD,
              shadow: bool = False, max_width: int | None = None) -> pygame.Rect:
    """Blit one line of cached text anchored at ``at``; returns where it went."""
    rendered = (text(words, size, colour, style) if max_width is None
                else fit_text(words, size, colour, max_width, style))
    rect = rendered.get_rect(**{anchor: (round(at[0]), round(at[1]))})
    if shadow:
        surface.blit(text(words, size, (0, 0, 0), style) if max_width is None
                     else fit_text(words, size, (0, 0, 0), max_width, style), rect.move(2, 2))
    surface.blit(rendered, rect)
    return rect


def draw_panel(surface: pygame.Surface, rect: Rect | pygame.Rect, fill: Colour = theme.PANEL,
               edge: Colour = theme.PANEL_EDGE, radius: int = 14, width: int = 2) -> None:
    """A rounded panel with an edge line; a 4-tuple fill is drawn translucent."""
    r = pygame.Rect(rect)
    if len(fill) == 4:
        layer = pygame.Surface(r.size, pygame.SRCALPHA)
        pygame.draw.rect(layer, fill, layer.get_rect(), border_radius=radius)
        surface.blit(layer, r)
    else:
        pygame.draw.rect(surface, fill, r, border_radius=radius)
    if width:
        pygame.draw.rect(surface, edge, r, width=width, border_radius=radius)
