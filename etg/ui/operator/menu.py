"""The operator menu: a column of tabs on the left, the chosen page on the right.

The menu keeps what every page shares: the tabs, EXIT and SHUT DOWN, the
header with the table's paytable, round and tilt, the pager, and the second
confirmation an action may ask for. What a page shows and what its buttons do
is the page's own (:mod:`etg.ui.operator.page`); the menu hands each button
of the page on screen to that page.

Entering the menu is recorded as an operator login and an entry; every page
opened, page turned and action is recorded as an operator action (SPEC §5).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import pygame

from etg.core.events import Event
from etg.core.state import TableState
from etg.table.records import OperatorAction, OperatorLogin
from etg.ui import theme
from etg.ui.assets import Style, font
from etg.ui.canvas import LOGICAL
from etg.ui.operator.credits import CreditsPage
from etg.ui.operator.dealers import DealersPage
from etg.ui.operator.event_log import EventLogPage
from etg.ui.operator.jackpots import JackpotsPage
from etg.ui.operator.meters import MetersPage
from etg.ui.operator.page import Confirm, OperatorPage, Page
from etg.ui.operator.paytables import PaytablesPage
from etg.ui.operator.progressives import ProgressivesPage
from etg.ui.operator.ram_clear import RamClearPage
from etg.ui.operator.recall import RecallPage
from etg.ui.operator.self_test import SelfTestPage
from etg.ui.operator.sheet import CONTENT, HEADER_H, NAV_W, NAV_X, NAV_Y, RED, PageView, paint
from etg.ui.operator.sound import SoundPage
from etg.ui.operator.tilt import TiltPage
from etg.ui.operator.wagers import WagersPage
from etg.ui.scene import Close, Input, KeyPress, Quit, Scene, Tap
from etg.ui.theme import shade
from etg.ui.widgets import Button, draw_button, draw_panel, draw_text

if TYPE_CHECKING:
    from etg.ui.scene import Context

_TAB_H, _TAB_GAP = 68, 10
_CONFIRM = (LOGICAL[0] // 2 - 500, LOGICAL[1] // 2 - 200, 1000, 400)


class OperatorMenu(Scene):
    """The back office: page tabs on the left, the chosen page on the right."""

    opaque = True
    name = "operator"
    holds_the_clock = True  # betting and decision countdowns resume where they stood

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.page = Page.METERS
        self.pages: dict[Page, OperatorPage] = {
            Page.METERS: MetersPage(), Page.RECALL: RecallPage(),
            Page.EVENT_LOG: EventLogPage(), Page.CREDITS: CreditsPage(),
            Page.WAGERS: WagersPage(), Page.PROGRESSIVES: ProgressivesPage(),
            Page.JACKPOTS: JackpotsPage(), Page.DEALERS: DealersPage(),
            Page.PAYTABLES: PaytablesPage(), Page.SOUND: SoundPage(),
            Page.SELF_TEST: SelfTestPage(), Page.TILT: TiltPage(), Page.RAM_CLEAR: RamClearPage(),
        }
        self.confirm: Confirm | None = None
        self.offset = 0  # first row shown on paged pages
        self.view = PageView()
        self._load()

    # --- what the Context calls ---------------------------------------------------------------

    def draw(self, surface: pygame.Surface, now: float) -> None:
        surface.blit(_backdrop(), (0, 0))
        self._draw_header(surface)
        pressed = self.ctx.pressed_tags(self)
        content = pygame.Rect(CONTENT)
        draw_text(surface, self.view.title, 34, theme.GOLD, (content.x + 32, content.y + 22),
                  "topleft", shadow=True)
        if self.view.subtitle:
            draw_text(surface, self.view.subtitle, 20, theme.TEXT_DIM,
                      (content.x + 34, content.y + 66), "topleft", Style.REGULAR,
                      max_width=content.width - 420)
        paint(self.view, surface)
        for b in [*self.view.buttons, *self._nav_buttons()]:
            draw_button(surface, b, b.tag in pressed and self.confirm is None)
        if self.confirm is not None:
            self._draw_confirm(surface, self.confirm, pressed)

    def buttons(self, now: float) -> Sequence[Button]:
        if self.confirm is not None:
            return self._confirm_buttons(self.confirm)
        return [*self._nav_buttons(), *self.view.buttons]

    def enter(self) -> None:
        """Opened after the operator's PIN: recorded as a login and an entry."""
        self.ctx.table.record(OperatorLogin())
        self.log("enter")

    def handle(self, event: Input) -> bool:
        if isinstance(event, Tap):
            self.act(event.button.tag)
        elif isinstance(event, KeyPress):
            key = event.key
            if key == pygame.K_ESCAPE:
                self.act("confirm:no" if self.confirm is not None else "exit")
            elif key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.confirm is not None:
                self.act("confirm:yes")
            elif key == pygame.K_PAGEUP and self.confirm is None:
                self.act("page:up")
            elif key == pygame.K_PAGEDOWN and self.confirm is None:
                self.act("page:down")
        # Modal: no key reaches the dealer's keys under the menu.
        return True

    def table_changed(self, state: TableState, events: Sequence[Event]) -> None:
        if self.pages[self.page].follows_play:
            self._load()  # what the page shows has just changed on the table

    # --- the Desk a page works at ---------------------------------------------------------------

    def log(self, action: str, **details: Any) -> None:
        self.ctx.table.record(OperatorAction(action, details))

    def reload(self) -> None:
        self._load()

    # --- actions ----------------------------------------------------------------------------

    def act(self, tag: str) -> None:
        """Do what the button ``tag`` means (taps and keys both come here)."""
        if self.confirm is not None:
            confirm, self.confirm = self.confirm, None
            if tag == "confirm:yes":
                confirm.action()
            elif tag == "confirm:no":
                self.log("cancel", what=confirm.title)
            return
        head, _, rest = tag.partition(":")
        if head == "tab":
            self.open(Page(rest))
        elif tag == "exit":
            self.log("exit")
            self.ctx.go(Close(self))
        elif tag == "shutdown":
            self.confirm = Confirm("SHUT DOWN THE TABLE?",
                                   "The program closes; the ledger is saved and closed.",
                                   "The round in progress resumes exactly where it stopped "
                                   "at the next start.", self._shut_down)
        elif tag in ("page:up", "page:down"):
            self._turn(-1 if tag == "page:up" else 1)
        else:
            self.pages[self.page].act(self, tag)

    def open(self, page: Page) -> None:
        """Show ``page`` from its beginning, read fresh; recorded."""
        self.page, self.offset = page, 0
        self.pages[page].opened()
        self.log("page", page=page.value)
        self._load()

    def _turn(self, step: int) -> None:
        size = self.view.page_size
        if not size:
            return
        offset = self.offset + step * size
        if 0 <= offset < max(self.view.rows, 1):
            self.offset = offset
            self.log("page_turn", page=self.page.value, offset=offset)
            self._load()

    def _shut_down(self) -> None:
        self.log("shutdown")
        self.ctx.go(Quit())

    def _load(self) -> None:
        """Read what the page shows from the table and its books, ready to draw.

        The books are read once the writer has committed everything sent so far,
        and the writer is held off until the page is read (etg.table.controller:
        reads wait for the writer).
        """
        with self.ctx.table.reading():
            self.view = self.pages[self.page].read(self)

    # --- buttons ------------------------------------------------------------------------------

    def _nav_buttons(self) -> list[Button]:
        out = []
        # every tab fits above EXIT, each at least 48 px high
        room = LOGICAL[1] - 24 - 2 * _TAB_H - 2 * _TAB_GAP - NAV_Y
        tab_h = min(_TAB_H, room // len(Page) - _TAB_GAP)
        for index, page in enumerate(Page):
            rect = (NAV_X, NAV_Y + index * (tab_h + _TAB_GAP), NAV_W, tab_h)
            colour = RED if page is Page.RAM_CLEAR else theme.BUTTON
            out.append(Button(rect, page.label, f"tab:{page.value}", hot=page is self.page,
                              colour=colour, size=24))
        bottom = LOGICAL[1] - 24
        out.append(Button((NAV_X, bottom - 2 * _TAB_H - _TAB_GAP, NAV_W, _TAB_H), "EXIT",
                          "exit", colour=(40, 92, 70), size=26))
        out.append(Button((NAV_X, bottom - _TAB_H, NAV_W, _TAB_H), "SHUT DOWN", "shutdown",
                          colour=(92, 30, 36), size=24))
        return out

    def _confirm_buttons(self, confirm: Confirm) -> list[Button]:
        box = pygame.Rect(_CONFIRM)
        y = box.bottom - 120
        return [
            Button((box.centerx - 340, y, 320, 88), "CONFIRM", "confirm:yes",
                   colour=RED if confirm.danger else (24, 110, 64), size=30),
            Button((box.centerx + 20, y, 320, 88), "CANCEL", "confirm:no", size=30),
        ]

    # --- drawing ------------------------------------------------------------------------------

    def _draw_header(self, surface: pygame.Surface) -> None:
        draw_text(surface, "OPERATOR MENU", 38, theme.GOLD, (NAV_X + 4, 44), "midleft",
                  shadow=True)
        table = self.ctx.table
        state = table.state
        info = (f"{state.paytable.name}  ·  {state.paytable.id}  ·  round {state.round.number}"
                f"  ·  {state.phase.value.replace('_', ' ')}")
        draw_text(surface, info, 22, theme.CREAM, (420, 44), "midleft", Style.REGULAR,
                  max_width=980)
        badges = []
        if self.ctx.options.demo:
            badges.append(("DEMO", theme.DEMO))
        badges.append(("TILT", theme.TILT) if table.tilted else ("NO TILT", (40, 130, 80)))
        x = LOGICAL[0] - 24
        for label, colour in badges:
            words = font(22, Style.BOLD).size(label)[0]
            rect = pygame.Rect(x - words - 36, 22, words + 36, 44)
            draw_panel(surface, rect, colour, shade(colour, 1.4), radius=10, width=2)
            draw_text(surface, label, 22, theme.WHITE, rect.center)
            x = rect.x - 12

    def _draw_confirm(self, surface: pygame.Surface, confirm: Confirm,
                      pressed: set[str]) -> None:
        surface.blit(_dimmer(), (0, 0))
        box = pygame.Rect(_CONFIRM)
        edge = theme.TILT if confirm.danger else theme.GOLD
        draw_panel(surface, box.move(0, 10), (0, 0, 0, 120), (0, 0, 0), radius=24, width=0)
        draw_panel(surface, box, theme.PANEL, edge, radius=24, width=4)
        draw_text(surface, confirm.title, 40, edge, (box.centerx, box.y + 64), shadow=True,
                  max_width=box.width - 80)
        draw_text(surface, confirm.message, 28, theme.WHITE, (box.centerx, box.y + 150),
                  max_width=box.width - 80)
        draw_text(surface, confirm.detail, 22, theme.TEXT_DIM, (box.centerx, box.y + 200),
                  style=Style.REGULAR, max_width=box.width - 80)
        for b in self._confirm_buttons(confirm):
            draw_button(surface, b, b.tag in pressed)


@lru_cache(maxsize=1)
def _backdrop() -> pygame.Surface:
    """Gradient, header bar and the content panel: drawn once, blitted every frame."""
    surface = pygame.Surface(LOGICAL)
    top, bottom = (18, 34, 54), (5, 10, 18)
    for y in range(LOGICAL[1]):
        t = y / (LOGICAL[1] - 1)
        colour = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
        pygame.draw.line(surface, colour, (0, y), (LOGICAL[0], y))
    pygame.draw.rect(surface, (10, 20, 34), (0, 0, LOGICAL[0], HEADER_H))
    pygame.draw.line(surface, theme.GOLD_DARK, (0, HEADER_H), (LOGICAL[0], HEADER_H), 3)
    draw_panel(surface, CONTENT, (10, 20, 33), (44, 70, 100), radius=18, width=2)
    return surface


@lru_cache(maxsize=1)
def _dimmer() -> pygame.Surface:
    layer = pygame.Surface(LOGICAL, pygame.SRCALPHA)
    layer.fill((0, 0, 0, 160))
    return layer
