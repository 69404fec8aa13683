"""TILT: whether play is stopped by an integrity failure, its acknowledgement, and the history
of tilts (SPEC §5: "tilt clear").

A tilt is cleared by a supervisor: ACKNOWLEDGE asks the supervisor's PIN, then
the controller clears the tilt and records it; the menu records the action too.
"""

from __future__ import annotations

from etg.table.books import Entry
from etg.table.controller import TableTilted
from etg.table.pin import PinRole
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.operator.page import Desk, OperatorPage
from etg.ui.operator.sheet import BODY_W, BODY_X, BODY_Y, PageView, Sheet, Text, clip, when
from etg.ui.scene import AskPin
from etg.ui.theme import shade
from etg.ui.widgets import Button

HISTORY_SHOWN = 12
"""Tilts and clears the page lists, newest first."""


class TiltPage(OperatorPage):
    """The tilt's problems (or NO TILT) with ACKNOWLEDGE, then the tilt history."""

    follows_play = True

    def act(self, desk: Desk, tag: str) -> None:
        if tag == "tilt:ack":
            desk.ctx.go(AskPin.role(PinRole.SUPERVISOR, "SUPERVISOR PIN  ·  ACKNOWLEDGE TILT",
                                    lambda: _acknowledged(desk)))

    def read(self, desk: Desk) -> PageView:
        table = desk.ctx.table
        sheet = Sheet()
        x, y = BODY_X, BODY_Y
        tilt = table.tilt
        colour = theme.TILT if tilt is not None else (40, 130, 80)
        sheet.box((x, y, BODY_W, 240), shade(colour, 0.35), colour, 18, 3)
        if tilt is None:
            sheet.text("NO TILT", x + 40, y + 40, 48, theme.WHITE, style=Style.BOLD)
            sheet.text("Every start-up check passed; play is allowed.", x + 40, y + 120, 24,
                       theme.CREAM)
        else:
            sheet.text("TILT  ·  PLAY IS STOPPED", x + 40, y + 30, 44, theme.WHITE,
                       style=Style.BOLD)
            for index, problem in enumerate(tilt.problems[:4]):
                sheet.text(f"{problem.check}: {problem.message}", x + 40,
                           y + 100 + index * 32, 21, theme.CREAM, max_width=BODY_W - 420)
        sheet.buttons.append(Button((x + BODY_W - 340, y + 80, 300, 88), "ACKNOWLEDGE",
                                    "tilt:ack", enabled=tilt is not None, colour=(150, 100, 20),
                                    size=26))
        y += 272
        sheet.section("TILT HISTORY", x, y, BODY_W)
        history = table.books.last_events(("tilt", "tilt_cleared"), HISTORY_SHOWN)[::-1]
        rows: list[list[Text]] = [
            [when(e["at"]),
             ("TILT", theme.TILT) if e["kind"] == "tilt" else ("CLEARED", theme.PUSH),
             str(e["actor"] or "—"), clip(_tilt_words(e), 19, BODY_W - 700 - 24)]
            for e in history]
        sheet.history([("TIME (UTC)", 260, "l"), ("EVENT", 200, "l"), ("BY", 240, "l"),
                       ("WHAT", BODY_W - 700, "l")], rows, x, y + 48, 38, 19,
                      "No tilt has ever been recorded on this ledger.")
        return sheet.view("TILT", "An integrity failure stops play until an operator "
                                  "acknowledges it; both are logged.")


def _acknowledged(desk: Desk) -> None:
    """The supervisor's PIN is in: clear the tilt (the controller records the clear)."""
    table = desk.ctx.table
    message = table.tilt.message if table.tilt is not None else None
    try:
        table.acknowledge_tilt(PinRole.SUPERVISOR.value)
    except TableTilted as fault:
        desk.ctx.notify(str(fault))
    else:
        desk.log("acknowledge_tilt", tilt=message)
    desk.reload()


def _tilt_words(entry: Entry) -> str:
    details = entry["details"]
    if entry["kind"] == "tilt":
        return f"{details.get('check')}: {details.get('message')}"
    return str(details.get("problems", ""))
