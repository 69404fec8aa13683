"""The keypad both pads share: the PIN pad (:mod:`etg.ui.pinpad`) and the number pad
(:mod:`etg.ui.numberpad`): a big 3×4 keypad for a touch screen over the dimmed table,
and what a keyboard's keys mean to it."""

from __future__ import annotations

from functools import lru_cache

import pygame

from etg.ui import theme
from etg.ui.canvas import LOGICAL
from etg.ui.scene import Input, KeyPress, Tap
from etg.ui.theme import shade
from etg.ui.widgets import Button, draw_panel, draw_text


def draw_pad(surface: pygame.Surface, title: str) -> None:
    """The dimmed table, the pad's panel and its title."""
    surface.blit(_dimmer(), (0, 0))
    panel = pygame.Rect(_PANEL)
    draw_panel(surface, panel.move(0, 8), (0, 0, 0, 110), (0, 0, 0), radius=28, width=0)
    draw_panel(surface, panel, theme.PANEL, theme.GOLD_DARK, radius=28, width=3)
    header = pygame.Rect(panel.x, panel.y, panel.width, 96)
    draw_panel(surface, header, theme.PANEL_LIGHT, theme.PANEL_LIGHT, radius=28, width=0)
    pygame.draw.rect(surface, theme.PANEL_LIGHT, (header.x, header.bottom - 28,
                                                  header.width, 28))
    pygame.draw.line(surface, theme.GOLD_DARK, (panel.x + 3, header.bottom),
                     (panel.right - 4, header.bottom), 2)
    pygame.draw.rect(surface, theme.GOLD_DARK, panel, width=3, border_radius=28)
    draw_text(surface, title, 34, theme.GOLD, header.center, max_width=header.width - 48,
              shadow=True)


def entry_box() -> pygame.Rect:
    """Where the pad shows what has been typed."""
    return pygame.Rect(_KEYPAD_X, _PANEL[1] + 124, 3 * _KEY_W + 2 * _GAP, 96)


def draw_masked(surface: pygame.Surface, typed: int, most: int) -> pygame.Rect:
    """A dot for each digit typed, never the digit; returns the entry box."""
    box = entry_box()
    draw_panel(surface, box, (6, 14, 24), theme.PANEL_EDGE, radius=16, width=2)
    step = box.width // (most + 1)
    for slot in range(most):
        centre = (box.x + step * (slot + 1), box.centery)
        if slot < typed:
            pygame.draw.circle(surface, theme.GOLD, centre, 15)
            pygame.draw.circle(surface, shade(theme.GOLD, 1.2), centre, 15, width=2)
        else:
            pygame.draw.circle(surface, theme.PANEL_LIGHT, centre, 7)
    return box


def keypad_buttons(entry: str, usable: bool, most: int) -> list[Button]:
    """The 3×4 keypad and CANCEL, tagged ``pin:<key>``."""
    out: list[Button] = []
    for index, label in enumerate(_KEYS):
        column, row = index % 3, index // 3
        rect = (_KEYPAD_X + column * (_KEY_W + _GAP), _KEYPAD_Y + row * (_KEY_H + _GAP),
                _KEY_W, _KEY_H)
        if label == "CLEAR":
            out.append(Button(rect, "CLEAR", "pin:clear", enabled=usable and bool(entry),
                              colour=_CLEAR, size=28))
        elif label == "ENTER":
            out.append(Button(rect, "ENTER", "pin:enter", enabled=usable and bool(entry),
                              colour=_ENTER, size=28))
        else:
            out.append(Button(rect, label, f"pin:{label}", enabled=usable and len(entry) < most,
                              size=48))
    cancel_y = _KEYPAD_Y + 4 * (_KEY_H + _GAP) + 8
    out.append(Button((_KEYPAD_X, cancel_y, 3 * _KEY_W + 2 * _GAP, 84), "CANCEL",
                      "pin:cancel", colour=_CANCEL, size=30))
    return out


def pad_press(event: Input) -> str | None:
    """What a tap or a key on a pad asks for (a digit, ``clear``, ``back``, ``enter``,
    ``cancel``), or None."""
    if isinstance(event, Tap):
        return event.button.tag.removeprefix("pin:")
    if isinstance(event, KeyPress):
        return keypad_key(event.key, event.unicode)
    return None


def keypad_key(key: int, unicode: str) -> str | None:
    """What a keyboard key means to a keypad: a digit, ``back``, ``enter``, ``cancel``."""
    if unicode and unicode in "0123456789":
        return unicode
    if key == pygame.K_BACKSPACE:
        return "back"
    if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
        return "enter"
    if key == pygame.K_ESCAPE:
        return "cancel"
    return None


_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "CLEAR", "0", "ENTER")
_KEY_W, _KEY_H, _GAP = 150, 112, 18
_PANEL = (LOGICAL[0] // 2 - 290, 70, 580, 940)
PAD_WIDTH = _PANEL[2]
_KEYPAD_X = _PANEL[0] + (_PANEL[2] - (3 * _KEY_W + 2 * _GAP)) // 2
_KEYPAD_Y = _PANEL[1] + 300
_CLEAR: theme.RGB = (96, 72, 30)
_ENTER: theme.RGB = (24, 110, 64)
_CANCEL: theme.RGB = (120, 32, 40)


@lru_cache(maxsize=1)
def _dimmer() -> pygame.Surface:
    layer = pygame.Surface(LOGICAL, pygame.SRCALPHA)
    layer.fill((0, 0, 0, 170))
    return layer
