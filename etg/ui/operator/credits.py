"""CREDITS: each seat's credits, its cash in and out, and a player's cash-out request waiting
(SPEC §5: credits enter and leave only through the attendant).

The attendant's CASH IN and CASH OUT are commands sent in the attendant's
name; each is recorded as an operator action too, with the seat, the amount
and the table's refusal if there was one.
"""

from __future__ import annotations

from collections import Counter

from etg.core.commands import CashIn, CashOut
from etg.core.money import format_cents
from etg.table.books import CASH_IN, CASH_OUT, Entry
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.operator.page import Desk, OperatorPage
from etg.ui.operator.sheet import BODY_W, BODY_X, BODY_Y, CONTENT, PageView, Sheet, dollars, when
from etg.ui.theme import shade
from etg.ui.widgets import Button

CASH_IN_CENTS: tuple[int, ...] = (2_000, 10_000, 50_000)
"""The attendant's cash-in buttons: $20, $100, $500."""

PENDING_WINDOW = 1_000
"""Newest cash-out requests and cash-outs read for the CREDITS page: a request is paid
within minutes, so one still pending lies far inside this window."""


class CreditsPage(OperatorPage):
    """A row per seat: credits, cash in, cash out, a request waiting, the attendant's buttons."""

    follows_play = True

    def act(self, desk: Desk, tag: str) -> None:
        parts = tag.split(":")
        if parts[0] != "cash":
            return
        ctx = desk.ctx
        if parts[1] == "in":
            seat, cents = int(parts[2]), int(parts[3])
            refusal = ctx.send(CashIn(seat, cents), "attendant")
            desk.log("cash_in", seat=seat, amount=cents, refused=refusal)
        else:
            seat = int(parts[2])
            amount = ctx.table.state.credits[seat - 1]
            refusal = ctx.send(CashOut(seat), "attendant")
            desk.log("cash_out", seat=seat, amount=amount, refused=refusal)
            if refusal is None:
                ctx.notify(f"SEAT {seat}: PAY {format_cents(amount)}", error=False)
        desk.reload()

    def read(self, desk: Desk) -> PageView:
        table = desk.ctx.table
        books = table.books
        state = table.state
        seats = state.paytable.seats
        # The totals are the meters (since the last RAM clear), never a sum over the event log.
        cash_in: Counter[int] = Counter()
        cash_out: Counter[int] = Counter()
        for counter in books.meters().values():
            for (seat, name), value in counter.items():
                if name == CASH_IN:
                    cash_in[seat] += value
                elif name == CASH_OUT:
                    cash_out[seat] += value
        # A request is pending until a cash-out of its seat follows it; only recent ones can be.
        pending: dict[int, Entry] = {}
        for entry in books.last_events(("cash_out_request", "cash_out"), PENDING_WINDOW):
            seat = int(entry["details"]["seat"])
            if entry["kind"] == "cash_out_request":
                pending[seat] = entry
            else:
                pending.pop(seat, None)
        sheet = Sheet()
        columns = [("SEAT", 110, "l"), ("CREDITS", 220, "r"), ("CASH IN", 200, "r"),
                   ("CASH OUT", 200, "r"), ("CASH-OUT REQUEST", 260, "l")]
        row_h = min(92, (CONTENT[3] - 150) // max(seats, 1) - 4)
        x, y = BODY_X, BODY_Y
        sheet.box((x, y, BODY_W, 40), theme.PANEL_LIGHT, radius=8)
        left = x
        for title, width, align in columns:
            sheet.text(title, left + width - 14 if align == "r" else left + 14, y + 20, 18,
                       theme.TEXT_DIM, "midright" if align == "r" else "midleft", Style.BOLD)
            left += width
        sheet.text("ATTENDANT", left + 14, y + 20, 18, theme.TEXT_DIM, "midleft", Style.BOLD)
        y += 48
        buttons_x = left + 10
        button_w = (x + BODY_W - buttons_x - 3 * 10) // 4
        for seat in range(1, seats + 1):
            credits = state.credits[seat - 1]
            if seat % 2 == 0:
                sheet.box((x, y, BODY_W, row_h), (255, 255, 255, 14), radius=8)
            sheet.box((x + 14, y + row_h / 2 - 20, 40, 40), theme.seat_colour(seat),
                      shade(theme.seat_colour(seat), 1.3), 20, 2)
            sheet.text(str(seat), x + 34, y + row_h / 2, 22, theme.INK, "center", Style.BOLD)
            cells = [format_cents(credits), format_cents(cash_in[seat]),
                     format_cents(cash_out[seat])]
            left = x + 110
            for index, (text, (_, width, _)) in enumerate(zip(cells, columns[1:4], strict=True)):
                first = index == 0
                sheet.text(text, left + width - 14, y + row_h / 2, 24 if first else 21,
                           theme.GOLD if first and credits else theme.WHITE, "midright",
                           Style.BOLD if first else Style.REGULAR)
                left += width
            request = pending.get(seat)
            if request is not None:
                asked = format_cents(int(request["details"].get("credits", 0)))
                sheet.text(f"PENDING  {asked}", left + 14, y + row_h / 2 - 12, 20, theme.WIN,
                           "midleft", Style.BOLD)
                sheet.text(when(request["at"]), left + 14, y + row_h / 2 + 14, 16,
                           theme.TEXT_DIM, "midleft")
            else:
                sheet.text("—", left + 14, y + row_h / 2, 20, theme.TEXT_DIM, "midleft")
            button_h = min(64, row_h - 16)
            by = y + (row_h - button_h) / 2
            for index, cents in enumerate(CASH_IN_CENTS):
                sheet.buttons.append(Button((buttons_x + index * (button_w + 10), by, button_w,
                                             button_h), f"+{dollars(cents)}",
                                            f"cash:in:{seat}:{cents}", colour=(30, 96, 66),
                                            size=24, sublabel="CASH IN"))
            sheet.buttons.append(Button((buttons_x + 3 * (button_w + 10), by, button_w,
                                         button_h), "CASH OUT", f"cash:out:{seat}",
                                        enabled=credits > 0,
                                        hot=request is not None and credits > 0,
                                        colour=(120, 60, 30), size=22))
            y += row_h + 4
        total_in, total_out = sum(cash_in.values()), sum(cash_out.values())
        sheet.text(f"All seats: cash in {format_cents(total_in)}  ·  cash out "
                   f"{format_cents(total_out)}  ·  on the seats now "
                   f"{format_cents(sum(state.credits))}", x + 14, y + 12, 20, theme.CREAM)
        return sheet.view("CREDITS", "Credits enter and leave only through the attendant; "
                                     "every cash in and cash out is logged with who and how much.")
