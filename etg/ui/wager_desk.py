"""The supervisor's desk for the round in play: void a wager, mark a seat abandoned.

What the operator menu's WAGERS page lists and sends, without drawing it: every
wager still on the layout, seat by seat and spot by spot, each with the
commands a supervisor may give about it (MD Ch. 11 C: a single-wager void;
MD Ch. 7 B(3)-(4): an abandoned seat). Whether a command is allowed now is the
engine's answer (:meth:`Table.refusal`), never a rule of this module: a
control the engine would refuse is shown disabled with the engine's reason.

Buttons carry tags ``wager:void:SEAT:SPOT:TARGET`` and ``wager:abandon:SEAT``;
:func:`command_for` turns a tag back into the command, with the reason the
supervisor chose from :data:`VOID_REASONS` (a touch screen has no keyboard).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from etg.core.commands import Command, MarkAbandoned, VoidTarget, VoidWager
from etg.core.money import format_cents
from etg.core.state import TableState

VOID_REASONS: tuple[str, ...] = (
    "no card dealt to the wager (MD Ch. 11 C)",
    "wager accepted in error",
    "equipment fault at the seat",
    "dispute settled by the supervisor",
)
"""The reasons a supervisor picks from; each void is recorded with the one chosen."""

_TARGET_LABELS = {VoidTarget.SPOT: "VOID SPOT", VoidTarget.TIE: "VOID TIE",
                  VoidTarget.PROGRESSIVE_PAYOUT: "VOID PROG.",
                  VoidTarget.BONUS_SPIN: "VOID BONUS SPIN"}
_SPOT_TARGETS = (VoidTarget.SPOT, VoidTarget.TIE, VoidTarget.PROGRESSIVE_PAYOUT)

Refusal = Callable[[Command], str | None]
"""The controller's dry run: why a command would be refused now, or None."""


@dataclass(frozen=True)
class DeskAction:
    """One button: its label, its tag, and the engine's reason to refuse it (None: allowed)."""

    label: str
    tag: str
    refusal: str | None


@dataclass(frozen=True)
class WagerLine:
    """A seat's wagers on one spot (spot 0: its Bonus Spin wager), with what may be voided."""

    seat: int
    spot: int
    on_layout: str
    actions: tuple[DeskAction, ...]


def wager_lines(state: TableState, refusal: Refusal) -> list[WagerLine]:
    """Every wager still on the layout, seat by seat from seat 1, spot by spot."""
    out: list[WagerLine] = []
    reason = VOID_REASONS[0]  # any reason: the engine's answer does not depend on it
    for seat in range(1, state.paytable.seats + 1):
        for spot, w in enumerate(state.round.wagers[seat - 1], start=1):
            parts = [(words, cents) for words, cents in (
                ("Initial", w.initial), ("Tie", w.tie), ("War", w.war),
                ("War-deal Tie", w.war_tie), ("Prog. Payout", w.progressive_payout)) if cents]
            if not parts:
                continue
            actions = tuple(
                DeskAction(_TARGET_LABELS[target], f"wager:void:{seat}:{spot}:{target.value}",
                           refusal(VoidWager(seat, spot, target, reason)))
                for target in _SPOT_TARGETS)
            out.append(WagerLine(seat, spot, _words(parts), actions))
        bonus = state.round.bonus_spin[seat - 1]
        if bonus:
            target = VoidTarget.BONUS_SPIN
            action = DeskAction(_TARGET_LABELS[target], f"wager:void:{seat}:0:{target.value}",
                                refusal(VoidWager(seat, 0, target, reason)))
            out.append(WagerLine(seat, 0, _words([("Bonus Spin", bonus)]), (action,)))
    return out


def abandon_actions(state: TableState, refusal: Refusal) -> list[DeskAction]:
    """MARK ABANDONED for each seat; the engine allows it while a tie hand awaits a decision."""
    return [DeskAction(f"SEAT {seat} ABANDONED", f"wager:abandon:{seat}",
                       refusal(MarkAbandoned(seat)))
            for seat in range(1, state.paytable.seats + 1)]


def command_for(tag: str, reason: str) -> VoidWager | MarkAbandoned:
    """The command a desk button's ``tag`` (after ``wager:``) gives; raises ValueError."""
    parts = tag.split(":")
    if parts[0] == "void" and len(parts) == 4:
        return VoidWager(int(parts[1]), int(parts[2]), VoidTarget(parts[3]), reason)
    if parts[0] == "abandon" and len(parts) == 2:
        return MarkAbandoned(int(parts[1]))
    raise ValueError(f"not a desk action: {tag!r}")


def describe(command: VoidWager | MarkAbandoned) -> str:
    """The command in a few words for the PIN pad's title, e.g. "VOID SEAT 3 SPOT 2 TIE"."""
    if isinstance(command, MarkAbandoned):
        return f"SEAT {command.seat} ABANDONED"
    if command.target is VoidTarget.BONUS_SPIN:
        return f"VOID SEAT {command.seat} BONUS SPIN"
    what = {VoidTarget.SPOT: "WAGERS", VoidTarget.TIE: "TIE",
            VoidTarget.PROGRESSIVE_PAYOUT: "PROG. PAYOUT"}[command.target]
    return f"VOID SEAT {command.seat} SPOT {command.spot} {what}"


def _words(parts: list[tuple[str, int]]) -> str:
    return " · ".join(f"{words} {format_cents(cents)}" for words, cents in parts)
