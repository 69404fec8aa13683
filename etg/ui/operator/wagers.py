"""WAGERS: the supervisor's desk for the round in play (SPEC §2): void a single wager while no
card has been dealt to it (MD Ch. 11 C), or mark a seat abandoned (MD Ch. 7 B(3)-(4)).

Both are the supervisor's calls, as the round's void is: the command is sent
only after the supervisor PIN. What may be voided, and whether the engine
would take it now, is :mod:`etg.ui.wager_desk`'s; this page lays it out.
"""

from __future__ import annotations

from etg.core.commands import Actor, MarkAbandoned, VoidWager
from etg.table.pin import PinRole
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.operator.page import Desk, OperatorPage
from etg.ui.operator.sheet import (
    BODY_W,
    BODY_X,
    BODY_Y,
    HEAD_GAP,
    RED,
    PageView,
    Sheet,
    Text,
    pager,
    rows_fit,
)
from etg.ui.scene import AskPin
from etg.ui.wager_desk import VOID_REASONS, abandon_actions, command_for, describe, wager_lines
from etg.ui.widgets import Button


class WagersPage(OperatorPage):
    """The void reason, ABANDONED for each seat, and every wager on the layout with its voids."""

    follows_play = True

    def __init__(self) -> None:
        self.void_reason = 0  # index into VOID_REASONS: the reason the supervisor chose

    def act(self, desk: Desk, tag: str) -> None:
        """Choose the void reason, or ask the supervisor's PIN for a void or an abandoned seat."""
        head, _, what = tag.partition(":")
        if head != "wager":
            return
        verb, _, index = what.partition(":")
        if verb == "reason":
            self.void_reason = int(index)
            desk.reload()
            return
        command = command_for(what, VOID_REASONS[self.void_reason])
        desk.ctx.go(AskPin.role(PinRole.SUPERVISOR, f"SUPERVISOR PIN  ·  {describe(command)}",
                                lambda: _supervise(desk, command)))

    def read(self, desk: Desk) -> PageView:
        """The round's wagers on the layout, each with its void, and the seats' ABANDONED.

        Every control asks the engine whether it would be accepted now; a disabled
        one is the engine's refusal, not a rule of the screen.
        """
        table = desk.ctx.table
        state = table.state
        sheet = Sheet()
        x, y = BODY_X, BODY_Y - 20
        sheet.text("VOID REASON", x, y + 28, 18, theme.TEXT_DIM, "midleft", Style.BOLD)
        reason_w = (BODY_W - 240 - 3 * 10) // len(VOID_REASONS)
        for index, words in enumerate(VOID_REASONS):
            sheet.buttons.append(Button((x + 240 + index * (reason_w + 10), y, reason_w, 56),
                                        words, f"wager:reason:{index}",
                                        hot=index == self.void_reason, size=17))
        y += 72
        sheet.text("ABANDONED SEAT", x, y + 28, 18, theme.TEXT_DIM, "midleft", Style.BOLD)
        abandon = abandon_actions(state, table.refusal)
        seat_w = min(170, (BODY_W - 240 - (len(abandon) - 1) * 10) // max(len(abandon), 1))
        for index, action in enumerate(abandon):
            sheet.buttons.append(Button((x + 240 + index * (seat_w + 10), y, seat_w, 56),
                                        f"SEAT {index + 1}", action.tag,
                                        enabled=action.refusal is None, colour=(120, 60, 30),
                                        size=20, sublabel="ABANDONED"))
        y += 80
        lines = wager_lines(state, table.refusal)
        columns = [("SEAT", 90, "l"), ("SPOT", 110, "l"),
                   ("ON THE LAYOUT", BODY_W - 200 - 660, "l")]
        row_h = 60
        size = max(1, rows_fit(y, row_h))
        shown = lines[desk.offset:desk.offset + size]
        rows: list[list[Text]] = [
            [(str(line.seat), theme.seat_colour(line.seat)),
             str(line.spot) if line.spot else "Bonus", line.on_layout] for line in shown]
        sheet.table([*columns, ("VOID", 660, "l")], rows, x, y, row_h=row_h, size=20)
        button_w = (660 - 4 * 10) // 3
        for index, line in enumerate(shown):
            top = y + row_h + HEAD_GAP + index * row_h + 4
            for n, action in enumerate(line.actions):
                sheet.buttons.append(Button((x + BODY_W - 660 + 10 + n * (button_w + 10), top,
                                             button_w, row_h - 8), action.label, action.tag,
                                            enabled=action.refusal is None, colour=RED, size=18))
        if not lines:
            sheet.text(f"No wager is on the layout (the table is "
                       f"{state.phase.value.replace('_', ' ')}).", x + 14,
                       y + row_h + HEAD_GAP + 12, 21, theme.TEXT_DIM)
        pager(sheet, desk.offset, size, len(lines), y + row_h + HEAD_GAP + len(shown) * row_h)
        return sheet.view(f"WAGERS IN PLAY  ·  ROUND {state.round.number}",
                          "The supervisor voids a wager that has no card yet (MD Ch. 11 C) or "
                          "marks a seat abandoned (MD Ch. 7 B(3)-(4)); each asks the supervisor "
                          "PIN and is logged.", rows=len(lines), page_size=size)


def _supervise(desk: Desk, command: VoidWager | MarkAbandoned) -> None:
    """The supervisor's PIN is in: send the command, and record it with the engine's answer."""
    refusal = desk.ctx.send(command, Actor.SUPERVISOR)
    if isinstance(command, VoidWager):
        desk.log("void_wager", seat=command.seat, spot=command.spot,
                 wager=command.target.value, reason=command.reason, refused=refusal)
    else:
        desk.log("mark_abandoned", seat=command.seat, refused=refusal)
    desk.reload()
