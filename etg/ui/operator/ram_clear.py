"""RAM CLEAR: every meter to zero, behind a second confirmation (SPEC §6: "RAM clear (second
confirmation)").

Meters only: the hand ledger, the event log and the credits on the seats are
kept, and the meters count again from this point of the ledger. The
controller records the clear; the menu records the action too.
"""

from __future__ import annotations

from etg.table.controller import TableTilted
from etg.table.records import OPERATOR
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.operator.page import Confirm, Desk, OperatorPage
from etg.ui.operator.sheet import BODY_W, BODY_X, BODY_Y, RED, PageView, Sheet, Text, when
from etg.ui.theme import shade
from etg.ui.widgets import Button

CLEARS_SHOWN = 10
"""Earlier RAM clears the page lists, newest first."""


class RamClearPage(OperatorPage):
    """What a RAM clear does and keeps, RAM CLEAR, then the earlier clears."""

    def act(self, desk: Desk, tag: str) -> None:
        if tag == "ram:clear":
            desk.confirm = Confirm("CONFIRM RAM CLEAR",
                                   "This zeroes every meter. The hand ledger and event log "
                                   "are kept.",
                                   "Every paytable, every seat. The clear itself is logged and "
                                   "cannot be undone.", lambda: _ram_clear(desk))

    def read(self, desk: Desk) -> PageView:
        books = desk.ctx.table.books
        sheet = Sheet()
        x, y = BODY_X, BODY_Y
        sheet.box((x, y, BODY_W, 300), shade(RED, 0.3), RED, 18, 3)
        lines = [
            ("A RAM clear sets every meter to zero: every paytable, every seat.", theme.WHITE),
            ("The hand ledger, the event log and the credits on the seats are kept.",
             theme.CREAM),
            ("The meters then count from this point of the ledger; the clear itself is logged.",
             theme.CREAM),
            ("A second confirmation is asked for.", theme.TEXT_DIM),
        ]
        for index, (line, colour) in enumerate(lines):
            sheet.text(line, x + 36, y + 36 + index * 40, 24, colour, max_width=BODY_W - 500)
        moving = sum(len(c) for c in books.meters().values())
        sheet.text(f"{moving} meters hold a value now.", x + 36, y + 220, 22, theme.GOLD,
                   style=Style.BOLD)
        sheet.buttons.append(Button((x + BODY_W - 460, y + 95, 420, 110), "RAM CLEAR",
                                    "ram:clear", colour=RED, size=34,
                                    sublabel="ZERO EVERY METER"))
        y += 332
        sheet.section("EARLIER RAM CLEARS", x, y, BODY_W)
        clears = books.last_events(("ram_clear",), CLEARS_SHOWN)[::-1]
        rows: list[list[Text]] = [[when(e["at"]), str(e["actor"] or "—"),
                                   f"{e['details'].get('after_round', '—')}"] for e in clears]
        sheet.history([("TIME (UTC)", 360, "l"), ("BY", 360, "l"),
                       ("AFTER ROUND", BODY_W - 720, "l")], rows, x, y + 46, 38, 20,
                      "The meters have never been cleared on this ledger.")
        return sheet.view("RAM CLEAR", "Meters only; the history is never erased.")


def _ram_clear(desk: Desk) -> None:
    """Confirmed: zero every meter (the controller records the clear)."""
    try:
        desk.ctx.table.ram_clear(OPERATOR, confirmed=True)
    except TableTilted as fault:
        desk.ctx.notify(str(fault))
        desk.reload()
        return
    desk.log("ram_clear")
    desk.ctx.notify("RAM CLEAR DONE  ·  EVERY METER IS ZERO", error=False)
    desk.reload()
