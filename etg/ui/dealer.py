"""The dealer's console: its actions, its keypad keys and its buttons (SPEC §6).

The dealer never works the players' touch surface. Each action is reached in
one of three ways, all ending in :func:`act`:

- the **keypad** at the dealer's place (keyboard keys, the same on every
  cabinet: :data:`CONSOLE`, documented in README);
- the **dealer screen**, a window of its own on the cabinet's second display
  (``dealer_display`` in ``cabinet.yaml``), see :mod:`etg.ui.dealer_console`;
- on a cabinet with one display, the **dealer panel**, which opens over the
  table with the panel key only for a dealer signed in (MD Ch. 8 E(4)), and
  closes again by itself.

Which action is expected next is :func:`etg.core.flow.dealer_next`'s (its button
is lit); whether each is accepted now is the engine's
(:func:`etg.core.console.console_refusals`, through the controller): the console's
buttons for the actions it would refuse are dimmed and send nothing, and a touch on
one shows the engine's reason on the console (:class:`Said`). A key on the keypad
out of turn is sent anyway, and the engine's reason is shown on the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from etg.core.commands import (
    Actor,
    CloseBets,
    Command,
    Deal,
    NextRound,
    OpenBets,
    Void,
    WarDeal,
)
from etg.core.console import ConsoleAction
from etg.core.flow import DealerAction, dealer_next
from etg.core.state import TableState
from etg.table.pin import PinRole
from etg.ui import floor, theme
from etg.ui.canvas import Rect
from etg.ui.input import Phase as TouchPhase
from etg.ui.scene import AskPin, Touched
from etg.ui.widgets import Button, button_at

if TYPE_CHECKING:
    from etg.ui.scene import Context


@dataclass(frozen=True)
class ConsoleKey:
    """One action of the dealer's console: its tag, its label and its keypad keys."""

    tag: str
    label: str
    keys: tuple[int, ...]


CONSOLE: tuple[ConsoleKey, ...] = (
    ConsoleKey("open", "OPEN", (pygame.K_F1, pygame.K_o)),
    ConsoleKey("close", "CLOSE", (pygame.K_F2, pygame.K_c)),
    ConsoleKey("deal", "DEAL", (pygame.K_F3, pygame.K_d)),
    ConsoleKey("war_deal", "WAR DEAL", (pygame.K_F4, pygame.K_w)),
    ConsoleKey("spin", "SPIN", (pygame.K_F5, pygame.K_s)),
    ConsoleKey("next_round", "NEXT ROUND", (pygame.K_F6, pygame.K_n)),
    ConsoleKey("shuffle", "SHUFFLE", (pygame.K_F7, pygame.K_u)),
    ConsoleKey("void", "VOID", (pygame.K_F8, pygame.K_v)),
    # the floor's button: the dealer's SIGN IN between rounds, VALIDATE while a jackpot waits
    ConsoleKey("floor", "SIGN IN", (pygame.K_F11, pygame.K_i)),
)

PANEL_KEYS = (pygame.K_F12, pygame.K_j)
"""Open or close the dealer panel on a cabinet with one display."""

LIT: dict[DealerAction, str] = {
    DealerAction.OPEN: "open", DealerAction.CLOSE: "close", DealerAction.DEAL: "deal",
    DealerAction.WAR_DEAL: "war_deal", DealerAction.SPIN: "spin",
    DealerAction.NEXT_ROUND: "next_round", DealerAction.SHUFFLE: "shuffle",
    DealerAction.VALIDATE: "floor"}
"""The console button lit for each action the round expects next."""


def action_for_key(key: int) -> str | None:
    """The console action a keypad key stands for, or None."""
    for console_key in CONSOLE:
        if key in console_key.keys:
            return console_key.tag
    return None


SAID_S = 6.0
"""How long the console shows why a dimmed button cannot be pressed."""


@dataclass(frozen=True)
class Said:
    """The engine's reason shown on the console since ``since`` (a dimmed button touched)."""

    words: str
    since: float

    def shown(self, now: float) -> bool:
        return self.since <= now < self.since + SAID_S


def console_action(tag: str, state: TableState) -> ConsoleAction:
    """The engine's action behind a console button's tag (``open``, ``floor`` ...): the
    floor's button validates while a jackpot waits and signs a dealer in otherwise."""
    if tag == "floor":
        return ConsoleAction.VALIDATE if state.jackpot else ConsoleAction.SIGN_IN
    return ConsoleAction(tag)


def console_buttons(state: TableState, refusals: Mapping[ConsoleAction, str | None],
                    rects: list[Rect], size: int = 26) -> list[Button]:
    """The console's buttons in ``rects`` (one each, in :data:`CONSOLE` order), tagged
    ``dealer:<action>``: those the engine would refuse (``refusals``, from
    :meth:`etg.table.controller.Table.console_refusals`) disabled, the expected one lit."""
    lit = LIT.get(dealer_next(state))
    buttons = []
    for key, rect in zip(CONSOLE, rects, strict=True):
        enabled = refusals[console_action(key.tag, state)] is None
        buttons.append(Button(
            rect, "VALIDATE" if key.tag == "floor" and state.jackpot else key.label,
            f"dealer:{key.tag}", enabled=enabled, hot=enabled and key.tag == lit,
            colour=theme.LOSE if key.tag == "void" else theme.BUTTON, size=size))
    return buttons


def why_not(ctx: Context, buttons: Sequence[Button], event: Touched) -> Said | None:
    """A finger down on a dimmed console button: the engine's reason, to show on the
    console (nothing is sent); None for a touch anywhere else."""
    if event.touch.phase is not TouchPhase.DOWN:
        return None
    button = button_at(buttons, event.touch)
    if button is None or button.enabled or not button.tag.startswith("dealer:"):
        return None
    table = ctx.table
    action = console_action(button.tag.removeprefix("dealer:"), table.committed)
    words = table.console_refusals()[action]
    return None if words is None else Said(words, ctx.now)


def act(ctx: Context, action: str) -> None:
    """A dealer console action, from a key or a button; the engine refuses it if out of turn."""
    if action == "floor":
        locked = ctx.table.state.jackpot is not None
        (floor.validate_jackpot if locked else floor.sign_in_dealer)(ctx)
        return
    if action == "void":  # MD Ch. 11: a supervisor voids the round in progress
        def void() -> None:
            ctx.send(Void("voided by the supervisor"), Actor.SUPERVISOR)

        ctx.go(AskPin.role(PinRole.SUPERVISOR, "SUPERVISOR PIN  ·  VOID ROUND", void))
        return
    command = _command(ctx, action)
    if command is not None:
        ctx.send(command, Actor.DEALER)


def _command(ctx: Context, action: str) -> Command | None:
    table = ctx.table
    if action == "shuffle":
        return table.shuffle_command()  # drawn now, shown only once committed
    if action == "spin":
        try:
            return table.spin_command()  # the stops are drawn before anything turns
        except ValueError as error:
            ctx.notify(str(error))
            return None
    simple: dict[str, Command] = {"open": OpenBets(), "close": CloseBets(), "deal": Deal(),
                                  "war_deal": WarDeal(), "next_round": NextRound()}
    return simple[action]
