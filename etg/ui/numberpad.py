"""A keypad for a number that is not checked against a hash: a dealer's badge, a new PIN.

It looks and types like the PIN pad (:mod:`etg.ui.pinpad`): a big 3×4 keypad
for a touch screen and the keyboard's digits, Backspace, Enter and Escape. The
digits show, after a fixed ``prefix`` (a dealer's ``D``), unless ``masked`` (a
new PIN, typed where the players can see the screen). ENTER hands the text to the
:class:`~etg.ui.scene.AskNumber`'s ``then``; its ``problem`` can refuse it with a reason,
and the pad stays open to try again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from etg.ui import theme
from etg.ui.keypad import draw_masked, draw_pad, entry_box, keypad_buttons, pad_press
from etg.ui.scene import AskNumber, Close, Input, Scene
from etg.ui.widgets import Button, draw_button, draw_panel, draw_text

if TYPE_CHECKING:
    from etg.ui.scene import Context


class NumberPad(Scene):
    """Type a number; ENTER gives ``prefix + digits`` to the ask's ``then`` (after ``problem``)."""

    opaque = False
    name = "numberpad"

    def __init__(self, ctx: Context, ask: AskNumber) -> None:
        super().__init__(ctx)
        self.ask = ask
        self.title = ask.title
        self.entry = ""
        self.message = ""

    def draw(self, surface: pygame.Surface, now: float) -> None:
        draw_pad(surface, self.title)
        if self.ask.masked:
            box = draw_masked(surface, len(self.entry), self.ask.most)
        else:
            box = entry_box()
            draw_panel(surface, box, (6, 14, 24), theme.PANEL_EDGE, radius=16, width=2)
            draw_text(surface, self.ask.prefix + self.entry, 48, theme.GOLD, box.center)
        words, colour = ((self.message, theme.TILT) if self.message
                         else (self.ask.hint, theme.TEXT_DIM))
        if words:
            draw_text(surface, words, 24, colour, (box.centerx, box.bottom + 34),
                      max_width=540)
        pressed = self.ctx.pressed_tags(self)
        for b in self.buttons(now):
            draw_button(surface, b, b.tag in pressed)

    def buttons(self, now: float) -> Sequence[Button]:
        return keypad_buttons(self.entry, True, self.ask.most)

    def handle(self, event: Input) -> bool:
        what = pad_press(event)
        if what is not None:
            self.press(what)
        return True  # modal, as the PIN pad

    def press(self, what: str) -> None:
        """One key: a digit, ``clear``, ``back``, ``enter`` or ``cancel``."""
        if what == "cancel":
            self.ctx.go(Close(self))
        elif what.isdigit() and len(what) == 1:
            if len(self.entry) < self.ask.most:
                self.entry += what
                self.message = ""
        elif what == "clear":
            self.entry = ""
        elif what == "back":
            self.entry = self.entry[:-1]
        elif what == "enter" and self.entry:
            text = self.ask.prefix + self.entry
            refusal = self.ask.problem(text) if self.ask.problem is not None else None
            if refusal is not None:
                self.entry, self.message = "", refusal
                return
            self.ctx.go(Close(self))
            self.ask.then(text)
