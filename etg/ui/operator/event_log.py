"""EVENT LOG: every entry of the event log, newest first, a page at a time (SPEC §5, §6).

A page reads its own rows and one more, to know whether older ones follow:
never a count of the whole log, however long it has grown.
"""

from __future__ import annotations

import json
from typing import Any

from etg.ui import theme
from etg.ui.operator.page import Desk, OperatorPage
from etg.ui.operator.sheet import (
    BODY_W,
    BODY_X,
    BODY_Y,
    PageView,
    Sheet,
    Text,
    clip,
    pager,
    rows_fit,
    when,
)


class EventLogPage(OperatorPage):
    """Time, kind, actor and details of each entry."""

    def read(self, desk: Desk) -> PageView:
        sheet = Sheet()
        size = rows_fit(BODY_Y, 38)
        page = desk.ctx.table.books.event_page(desk.offset, size + 1)  # one more: a next page?
        shown = page[:size]
        known = desk.offset + len(page)  # as many as the pager needs to know, never the whole log
        detail_w = BODY_W - 250 - 250 - 170
        columns = [("TIME (UTC)", 250, "l"), ("KIND", 250, "l"), ("ACTOR", 170, "l"),
                   ("DETAILS", detail_w, "l")]
        rows: list[list[Text]] = [
            [when(e["at"]), (str(e["kind"]), _KIND_COLOURS.get(str(e["kind"]), theme.CREAM)),
             str(e["actor"] or "—"), clip(compact(e["details"]), 18, detail_w - 24)]
            for e in shown]
        end = sheet.table(columns, rows, BODY_X, BODY_Y, row_h=38, size=18)
        pager(sheet, desk.offset, size, known, end, more=len(page) > size)
        first = desk.offset + 1 if shown else 0
        last = desk.offset + len(shown)
        return sheet.view("EVENT LOG", f"Newest first: entries {first:,}–{last:,}"
                                       f"{' and older' if len(page) > size else ''}.",
                          rows=known, page_size=size)


_KIND_COLOURS: dict[str, theme.RGB] = {
    "tilt": theme.TILT, "pin_failed": (240, 170, 70), "pin_locked": theme.TILT,
    "ram_clear": (240, 120, 90), "void": (240, 170, 70), "cash_in": (140, 220, 160),
    "cash_out": (140, 220, 160), "cash_out_request": theme.WIN, "tilt_cleared": theme.PUSH,
    "wager_void": (240, 170, 70), "seat_abandoned": (240, 170, 70),
    "jackpot_lock": theme.GOLD, "jackpot_validated": theme.GOLD, "hand_pay": theme.WIN,
    "dealer_sign_in": (150, 190, 240), "tip": (200, 170, 240),
}


def compact(details: dict[str, Any]) -> str:
    """Details as compact JSON: sorted keys, no spaces."""
    return json.dumps(details, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
