"""Toasts: short messages over the top of the players' screen for a few seconds.

An operator's action done ("NOW PLAYING ..."), a refusal in the players' words, a
fault the attendant must see: at most three at once, the newest lowest, each for
:data:`TOAST_S` seconds from when it was given.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from etg.ui import theme
from etg.ui.canvas import LOGICAL
from etg.ui.widgets import draw_panel, draw_text

TOAST_S = 3.5


@dataclass(frozen=True)
class Toast:
    message: str
    until: float
    error: bool = True


def with_toast(toasts: list[Toast], message: str, now: float, error: bool) -> list[Toast]:
    """`toasts` with `message` shown from `now` (once: the same message again starts over),
    the two before it kept."""
    return [*[t for t in toasts if t.message != message][-2:], Toast(message, now + TOAST_S, error)]


def draw_toasts(surface: pygame.Surface, toasts: list[Toast], now: float) -> list[Toast]:
    """Draw the toasts still showing at `now` and return them (the rest are over)."""
    live = [t for t in toasts if t.until > now]
    for index, toast in enumerate(reversed(live)):
        rect = pygame.Rect(0, 0, 1100, 58)
        rect.midtop = (LOGICAL[0] // 2, 70 + index * 64)
        draw_panel(surface, rect, (60, 10, 14, 235) if toast.error else (10, 40, 70, 235),
                   theme.TILT if toast.error else theme.GOLD, radius=12, width=3)
        draw_text(surface, toast.message, 26, theme.WHITE, rect.center,
                  max_width=rect.width - 30)
    return live
