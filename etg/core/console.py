"""What the dealer's console may do now: each of its actions asked of the engine.

The console (:mod:`etg.ui.dealer`) shows as pressable only the actions the engine
would accept on the table as it stands, dims the others, and shows the engine's own
reason when a dimmed one is touched (issue 24). No rule is restated here: each action
is one representative command dry-run through :func:`etg.core.engine.refusal`, so the
console can never disagree with what :func:`~etg.core.engine.apply` decides.

Two of the commands carry a draw that the controller makes from its RNG source only
when the dealer presses the button (the shoe's shuffle, the wheel's stops). A draw
from the source is always a valid one, so a fixed valid draw stands in for it here:
only what does not depend on the draw (the phase, a jackpot lock) can refuse it, and
nothing random is spent on a question. The same holds for the names a command
carries (the dealer who signs in, the floorperson who validates, a void's reason):
they are typed or checked when the button is pressed.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

from etg.core.commands import (
    CloseBets,
    Command,
    Deal,
    NextRound,
    OpenBets,
    Shuffle,
    ShuffleReason,
    SignInDealer,
    Spin,
    ValidateJackpot,
    Void,
    WarDeal,
)
from etg.core.engine import refusal
from etg.core.jackpot import ValidatorRole
from etg.core.paytable import Shoe as ShoeRules
from etg.core.shoe import ShoeDraw, stacked_draw
from etg.core.state import TableState
from etg.core.wheel import WheelStops


class ConsoleAction(Enum):
    """One button of the dealer's console (SPEC §6)."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    OPEN = "open"  # MD Ch. 7 C
    CLOSE = "close"  # MD Ch. 7 D
    DEAL = "deal"  # MD Ch. 8 F
    WAR_DEAL = "war_deal"  # MD Ch. 9 H
    SPIN = "spin"  # SPEC §3
    NEXT_ROUND = "next_round"
    SHUFFLE = "shuffle"  # MD Ch. 5
    VOID = "void"  # MD Ch. 11
    SIGN_IN = "sign_in"  # MD Ch. 8 E(4)
    VALIDATE = "validate"  # MD Ch. 9 J(4)(c)


_STAND_IN_STOPS = WheelStops(0, 1, 0)
"""The first segment of each ring and seat 1: a stop every wheel has."""


def console_refusals(state: TableState) -> dict[ConsoleAction, str | None]:
    """For each console action, the engine's reason to refuse it on ``state``, or None if
    the engine would accept it (a pure dry run: nothing is drawn, nothing changes)."""
    return {action: refusal(state, _stand_in(action, state)) for action in ConsoleAction}


def _stand_in(action: ConsoleAction, state: TableState) -> Command:
    """The command ``action`` sends, with a valid stand-in for what is drawn or typed later."""
    if action is ConsoleAction.SHUFFLE:
        return Shuffle(_ordered_shoe(state.paytable.shoe), ShuffleReason.SUPERVISOR)
    if action is ConsoleAction.SPIN:
        return Spin(_STAND_IN_STOPS)
    if action is ConsoleAction.VOID:
        return Void("asked by the console")
    if action is ConsoleAction.SIGN_IN:  # another dealer than the one at the table
        return SignInDealer("D1" if state.dealer == "D0" else "D0")
    if action is ConsoleAction.VALIDATE:
        return ValidateJackpot("floorperson", ValidatorRole.FLOORPERSON)
    simple: dict[ConsoleAction, Command] = {
        ConsoleAction.OPEN: OpenBets(), ConsoleAction.CLOSE: CloseBets(),
        ConsoleAction.DEAL: Deal(), ConsoleAction.WAR_DEAL: WarDeal(),
        ConsoleAction.NEXT_ROUND: NextRound()}
    return simple[action]


@lru_cache(maxsize=4)
def _ordered_shoe(rules: ShoeRules) -> ShoeDraw:
    """The shoe in slot order with the cut card where the rules allow: a valid draw."""
    return stacked_draw(rules, ())
