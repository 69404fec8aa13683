"""The dealer's screens: the dealer display of a two-display cabinet, and the dealer panel of
a cabinet with one (SPEC §6: the dealer's controls are never on the players' surface).

- :class:`DealerWindow` opens a window of its own on the display ``dealer_display`` of
  ``cabinet.yaml`` names, full screen, and shows :class:`DealerScreen` there: the round's
  state for the dealer and the console's buttons, big enough for a gloved finger.
- :class:`DealerPanel` is the one-display cabinet's console: it opens over the table's
  left edge with the panel key (F12) only for a dealer signed in (MD Ch. 8 E(4)), takes
  only the touches on it (the players keep the rest of the table), and closes by itself
  after :data:`PANEL_IDLE_S` without a touch, when the dealer signs out, or with CLOSE.

Both send their actions through :func:`etg.ui.dealer.act`, as the keypad does. Only the
actions the engine would accept now are pressable; a touch on a dimmed one shows the
engine's reason on the console (:func:`etg.ui.dealer.why_not`) and sends nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import pygame

from etg.config.cabinet import Cabinet
from etg.core.flow import dealer_next
from etg.core.linked import LINK_DOWN
from etg.core.money import format_cents
from etg.core.state import Phase, TableState
from etg.ui import theme
from etg.ui.assets import Style, wrap
from etg.ui.canvas import LOGICAL, LOGICAL_W, Rect
from etg.ui.dealer import CONSOLE, PANEL_KEYS, Said, act, console_buttons, why_not
from etg.ui.options import RunOptions
from etg.ui.scene import Close, Input, KeyPress, Scene, Tap, Touched
from etg.ui.screen import Screen
from etg.ui.theme import shade
from etg.ui.widgets import Button, draw_button, draw_panel, draw_text
from etg.ui.words import players_words

if TYPE_CHECKING:
    from etg.ui.scene import Context

log = logging.getLogger("etg.kiosk")

PANEL_IDLE_S = 20.0
"""The dealer panel closes after this long without the dealer touching it."""

PANEL: Rect = (16.0, 72.0, 416.0, 440.0)
"""Where the dealer panel lies on the table screen: over the meters and the dealer's cards,
clear of the seats; two columns of keys a finger high (at least 48 px, SPEC §6)."""

_PANEL_HEAD = 92.0
"""The panel's title and, under it, two lines for why a dimmed key cannot be pressed."""

_SDL_WINDOWPOS_CENTERED_DISPLAY = 0x2FFF0000  # SDL_WINDOWPOS_CENTERED_DISPLAY(index), SDL 2


class DealerPanel(Scene):
    """The console over the table for the dealer signed in, on a cabinet with one display."""

    opaque = False
    name = "dealer_panel"
    area = PANEL

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.dealer = ctx.table.state.dealer
        self.last_touch = ctx.now
        self.said: Said | None = None

    def handle(self, event: Input) -> bool:
        if isinstance(event, Tap):
            self.last_touch = self.ctx.now
            self.said = None  # a key pressed: what was said before no longer applies
            tag = event.button.tag
            if tag == "panel:close":
                self.ctx.go(Close(self))
            else:
                act(self.ctx, tag.removeprefix("dealer:"))
            return True
        if isinstance(event, Touched):
            self.last_touch = self.ctx.now
            self.said = why_not(self.ctx, self.buttons(self.ctx.now), event) or self.said
            return True
        if isinstance(event, KeyPress) and event.key in PANEL_KEYS:
            self.ctx.go(Close(self))
            return True
        return False  # the keypad's keys reach the table under the panel

    def update(self, now: float) -> None:
        signed_in = self.ctx.table.state.dealer
        if signed_in is None or signed_in != self.dealer or now - self.last_touch > PANEL_IDLE_S:
            self.ctx.go(Close(self))

    def buttons(self, now: float) -> Sequence[Button]:
        x, y, w, h = PANEL
        rows = (len(CONSOLE) + 1) // 2
        step = (h - _PANEL_HEAD - 66) / rows
        half = (w - 30) / 2
        rects: list[Rect] = [(x + 10 + (i % 2) * (half + 10), y + _PANEL_HEAD + (i // 2) * step,
                              half, step - 8) for i in range(len(CONSOLE))]
        table = self.ctx.table
        return [*console_buttons(table.committed, table.console_refusals(), rects, size=24),
                Button((x + 10, y + h - 62, w - 20, 52), "CLOSE", "panel:close",
                       colour=theme.PANEL_LIGHT, size=22)]

    def said_lines(self, now: float) -> list[str]:
        """Why the dimmed key touched last cannot be pressed, on the panel's two lines under
        its title; in the players' words, since the panel is on their screen (issue 12)."""
        if self.said is None or not self.said.shown(now):
            return []
        return wrap(players_words(self.said.words), theme.PLAYER_TEXT, round(PANEL[2]) - 24,
                    Style.CONDENSED)[:2]

    def draw(self, surface: pygame.Surface, now: float) -> None:
        draw_panel(surface, PANEL, (6, 12, 20, 240), theme.GOLD, radius=16, width=3)
        x, y, w, _ = PANEL
        draw_text(surface, f"DEALER {self.dealer}", 22, theme.GOLD, (x + w / 2, y + 24),
                  max_width=round(w) - 16)
        for row, line in enumerate(self.said_lines(now)):
            draw_text(surface, line, theme.PLAYER_TEXT, theme.WAR,
                      (x + w / 2, y + 50 + row * 22), style=Style.CONDENSED,
                      max_width=round(w) - 24)
        pressed = self.ctx.pressed_tags(self)
        for button in self.buttons(now):
            draw_button(surface, button, button.tag in pressed)


class DealerScreen(Scene):
    """The dealer display of a two-display cabinet: the round for the dealer, the console."""

    name = "dealer_screen"

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.said: Said | None = None

    def handle(self, event: Input) -> bool:
        if isinstance(event, Tap):
            self.said = None  # a key pressed: what was said before no longer applies
            act(self.ctx, event.button.tag.removeprefix("dealer:"))
            return True
        if isinstance(event, Touched):
            self.said = why_not(self.ctx, self.buttons(self.ctx.now), event) or self.said
            return True
        return False

    def buttons(self, now: float) -> Sequence[Button]:
        columns, width, height, gap = 3, 560.0, 150.0, 30.0
        left = (LOGICAL_W - columns * width - (columns - 1) * gap) / 2
        rects: list[Rect] = [(left + (i % columns) * (width + gap),
                              430 + (i // columns) * (height + gap), width, height)
                             for i in range(len(CONSOLE))]
        table = self.ctx.table
        return console_buttons(table.committed, table.console_refusals(), rects, size=44)

    def draw(self, surface: pygame.Surface, now: float) -> None:
        surface.blit(_backdrop(), (0, 0))
        state = self.ctx.table.committed
        dealer = state.dealer
        draw_text(surface, "DEALER CONSOLE", 40, theme.GOLD, (60, 60), "midleft", shadow=True)
        draw_text(surface, f"DEALER {dealer}" if dealer else "NO DEALER SIGNED IN  ·  SIGN IN",
                  36, theme.WHITE if dealer else theme.WAR, (LOGICAL_W - 60, 60), "midright")
        self._draw_round(surface, state, now)
        pressed = self.ctx.pressed_tags(self)
        for button in self.buttons(now):
            draw_button(surface, button, button.tag in pressed)
        if self.said is not None and self.said.shown(now):  # under the keys: the engine's words
            draw_text(surface, self.said.words, 32, theme.WAR, (LOGICAL_W / 2, 1000),
                      max_width=LOGICAL_W - 120)

    def _draw_round(self, surface: pygame.Surface, state: TableState, now: float) -> None:
        box = pygame.Rect(60, 120, LOGICAL_W - 120, 260)
        draw_panel(surface, box, theme.INK, theme.GOLD_DARK, radius=18, width=2)
        status = _STATUS.get(state.phase, state.phase.value.upper())
        remaining = self.ctx.timekeeper.remaining(now)
        if remaining is not None:
            seconds = int(remaining + 0.999)
            status += f"  {seconds // 60}:{seconds % 60:02d}"
        if self.ctx.table.tilted:
            status = "TILT  ·  PLAY HAS STOPPED"
        draw_text(surface, f"ROUND {state.round.number}", 32, theme.CREAM,
                  (box.x + 30, box.y + 50), "midleft")
        draw_text(surface, status, 56, theme.WAR if state.phase is Phase.DECISIONS
                  else theme.WHITE, (box.centerx, box.y + 120), shadow=True)
        next_action = dealer_next(state).value.replace("_", " ").upper()
        draw_text(surface, f"NEXT: {next_action}", 34, theme.GOLD,
                  (box.centerx, box.y + 200))
        shoe = state.shoe
        cards = f"{shoe.remaining} CARDS IN THE SHOE" if shoe else "NO SHOE"
        draw_text(surface, cards, 28, theme.CREAM, (box.right - 30, box.y + 50), "midright")
        if state.jackpot is not None:
            waiting = bool(state.jackpot.unconfirmed)  # a linked hit's amount (SPEC §13)
            words = ("JACKPOT  ·  WAITING FOR THE FLOOR'S AMOUNT" if waiting else
                     f"JACKPOT {format_cents(state.jackpot.amount)}  ·  VALIDATE")
            draw_text(surface, words, 34, theme.WIN, (box.centerx, box.bottom + 20))
        elif state.linked and state.link_down:
            # issue 27 item 3: why the linked wagers are refused, on the dealer's screen too
            draw_text(surface, f"{LINK_DOWN.upper()}  ·  LINKED WAGERS REFUSED, THE BASE GAME "
                               f"GOES ON", 30, theme.TILT, (box.centerx, box.bottom + 20),
                      max_width=box.width)


@lru_cache(maxsize=1)
def _backdrop() -> pygame.Surface:
    """The dealer screen's felt: the table's green, darker at the edges."""
    surface = pygame.Surface(LOGICAL)
    for row in range(0, LOGICAL[1], 4):
        k = 1 - abs(row - 540) / 700
        surface.fill(shade(theme.FELT, 0.55 + 0.35 * k), (0, row, LOGICAL[0], 4))
    return surface.convert() if pygame.display.get_surface() is not None else surface


_STATUS = {Phase.IDLE: "BETWEEN ROUNDS", Phase.BETTING: "BETS OPEN",
           Phase.BETS_CLOSED: "NO MORE BETS", Phase.DEALT: "DEALT",
           Phase.DECISIONS: "PLAYERS DECIDING: WAR OR SURRENDER", Phase.WAR_PENDING: "WAR",
           Phase.WAR_DEALT: "WAR DEALT", Phase.BONUS_SPIN: "BONUS SPIN",
           Phase.COMPLETE: "ROUND COMPLETE", Phase.VOIDED: "ROUND VOID",
           Phase.JACKPOT: "JACKPOT  ·  AWAITING VALIDATION"}


class DealerWindow:
    """The dealer display's window, its screen and the scene on it."""

    def __init__(self, window: pygame.Window, scene: Scene, headless: bool) -> None:
        self.window = window
        self.scene = scene
        self.screen = Screen(window.get_surface(), window.get_surface,
                             None if headless else window.flip)

    @classmethod
    def open(cls, ctx: Context, cabinet: Cabinet, options: RunOptions) -> DealerWindow | None:
        """The dealer's window on ``cabinet.dealer_display``; None if the cabinet has none
        (the keypad and the dealer panel serve) or that display is not connected."""
        index = cabinet.dealer_display
        if index is None:
            return None
        displays = pygame.display.get_num_displays()
        if index >= displays:
            log.warning("dealer_display %d is not connected (%d display%s): the dealer uses "
                        "the keypad and the dealer panel", index, displays,
                        "" if displays == 1 else "s")
            return None
        where = _SDL_WINDOWPOS_CENTERED_DISPLAY | index
        window = pygame.Window("ETG · DEALER", LOGICAL if options.headless else (1280, 720),
                               position=(where, where))
        if not (options.headless or options.windowed):
            window.set_fullscreen(desktop=True)
        return cls(window, DealerScreen(ctx), options.headless)

    def owns(self, event: pygame.event.Event) -> bool:
        """The event happened on this window (a touch or a resize of the dealer's screen)."""
        return getattr(event, "window", None) is self.window

    def show(self, now: float) -> None:
        self.scene.draw(self.screen.begin(), now)
        self.screen.present()
