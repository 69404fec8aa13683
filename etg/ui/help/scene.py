"""The help scene: the paytable and rules, page by page, over the table (SPEC §6).

Tabs across the top, PREV / NEXT / CLOSE along the bottom; Left and Right turn
the page, Escape (or the keys that open help, F9 and H) closes it. The pages
are those of the table's active paytable, rebuilt when it is switched; each is
rendered once (:mod:`etg.ui.help.render`) and only its live meters are drawn
every frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from etg.core.money import format_cents
from etg.core.paytable import Paytable
from etg.ui import theme
from etg.ui.canvas import LOGICAL_H, LOGICAL_W
from etg.ui.help.model import HelpPage
from etg.ui.help.pages import help_pages
from etg.ui.help.render import NAVY_LIGHT, Rendered, render_page
from etg.ui.scene import Close, Input, KeyPress, Scene, Tap
from etg.ui.widgets import Button, draw_button, draw_text

if TYPE_CHECKING:
    from etg.ui.scene import Context

BUTTON_H = 68  # at least 64 logical px: tabs and page buttons are pressed by players
_TAB_Y = 22
_BAR_Y = LOGICAL_H - 22 - BUTTON_H


class HelpScene(Scene):
    """The paytable and rules, page by page, over the table (SPEC §6)."""

    opaque = True
    name = "help"

    def __init__(self, ctx: Context, page: int = 0) -> None:
        super().__init__(ctx)
        self.page = page
        self._paytable: Paytable | None = None
        self._pages: list[HelpPage] = []
        self._rendered: dict[int, Rendered] = {}

    @property
    def pages(self) -> list[HelpPage]:
        """The pages of the table's active paytable (rebuilt when it is switched)."""
        paytable = self.ctx.table.state.paytable
        if paytable is not self._paytable:
            self._paytable = paytable
            self._pages = help_pages(paytable)
            self._rendered.clear()
        return self._pages

    @property
    def current(self) -> HelpPage:
        return self.pages[self._index()]

    def show(self, page: int) -> None:
        """Turn to ``page`` (clamped to the pages there are)."""
        self.page = max(0, min(page, len(self.pages) - 1))

    def buttons(self, now: float) -> Sequence[Button]:
        pages = self.pages
        index = self._index()
        out: list[Button] = []
        width = min(330, (LOGICAL_W - 2 * 70 - 12 * (len(pages) - 1)) // len(pages))
        left = (LOGICAL_W - len(pages) * width - 12 * (len(pages) - 1)) // 2
        for i, page in enumerate(pages):
            out.append(Button((left + i * (width + 12), _TAB_Y, width, BUTTON_H), page.tab,
                              f"tab:{i}", hot=i == index, colour=NAVY_LIGHT, size=26))
        out.append(Button((70, _BAR_Y, 260, BUTTON_H), "◀  PREV", "prev", enabled=index > 0,
                          size=28))
        out.append(Button((LOGICAL_W - 70 - 260 - 24 - 260, _BAR_Y, 260, BUTTON_H), "NEXT  ▶",
                          "next", enabled=index < len(pages) - 1, size=28))
        out.append(Button((LOGICAL_W - 70 - 260, _BAR_Y, 260, BUTTON_H), "CLOSE", "close",
                          colour=(128, 24, 32), size=28))
        return out

    def handle(self, event: Input) -> bool:
        """Taps on the tabs and buttons; Left / Right turn the page; Escape closes, as do the
        keys that open help (F9, H).

        Other keys fall through to the scenes below, so the dealer's keys keep working.
        """
        if isinstance(event, Tap):
            tag = event.button.tag
            if tag == "prev":
                self.show(self._index() - 1)
            elif tag == "next":
                self.show(self._index() + 1)
            elif tag == "close":
                self.ctx.go(Close(self))
            elif tag.startswith("tab:"):
                self.show(int(tag.removeprefix("tab:")))
            return True
        if not isinstance(event, KeyPress):
            return False
        if event.key == pygame.K_LEFT:
            self.show(self._index() - 1)
        elif event.key == pygame.K_RIGHT:
            self.show(self._index() + 1)
        elif event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE, pygame.K_F9, pygame.K_h):
            self.ctx.go(Close(self))
        else:
            return False
        return True

    def draw(self, surface: pygame.Surface, now: float) -> None:
        index = self._index()
        rendered = self._rendered.get(index)
        if rendered is None:
            rendered = self._rendered[index] = render_page(self.pages[index])
        surface.blit(rendered.surface, (0, 0))
        state = self.ctx.table.state
        for level, slot in rendered.meters:
            meter = state.meter(level)
            amount = format_cents(meter.cents) if meter is not None else "—"
            draw_text(surface, amount, slot.height - 6, theme.WIN, slot.midright, "midright",
                      shadow=True, max_width=slot.width)
        pressed = self.ctx.pressed_tags(self)
        for button in self.buttons(now):
            draw_button(surface, button, button.tag in pressed)
        _draw_page_dots(surface, index, len(self.pages))

    def _index(self) -> int:
        return max(0, min(self.page, len(self.pages) - 1))


def _draw_page_dots(surface: pygame.Surface, index: int, count: int) -> None:
    """``PAGE 2 OF 5`` between the page buttons over one dot per page, the current one gold."""
    cx, cy = LOGICAL_W // 2, _BAR_Y + BUTTON_H // 2
    draw_text(surface, f"PAGE {index + 1} OF {count}", 22, theme.TEXT_DIM, (cx, cy - 16))
    step = 26
    left = cx - step * (count - 1) // 2
    for i in range(count):
        centre = (left + i * step, cy + 18)
        if i == index:
            pygame.draw.circle(surface, theme.GOLD, centre, 8)
        else:
            pygame.draw.circle(surface, theme.TEXT_DIM, centre, 6, width=2)
