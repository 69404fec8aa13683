"""DEALERS (MD Ch. 8 E(4), Ch. 2 D): the dealers who may sign in, the rounds each has dealt and
the tips each has been given, and the newest tips.

A dealer is added, or a dealer's PIN changed, with the badge number and a new
PIN typed twice; a removal keeps the ID and takes the PIN away. Both write
``cabinet.yaml`` (:mod:`etg.ui.floor`) and are recorded as operator actions.
"""

from __future__ import annotations

from functools import partial

from etg.core.money import format_cents
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.floor import add_dealer, dealer_rows, recent, remove_dealer
from etg.ui.operator.page import Confirm, Desk, OperatorPage
from etg.ui.operator.sheet import (
    BODY_W,
    BODY_X,
    BODY_Y,
    CONTENT,
    HEAD_GAP,
    RED,
    PageView,
    Sheet,
    Text,
    when,
)
from etg.ui.widgets import Button

TIPS_SHOWN = 8
"""Tips the DEALERS page lists, newest first."""


class DealersPage(OperatorPage):
    """Who is at the table, each dealer with rounds, tips and REMOVE, then the newest tips."""

    follows_play = True

    def act(self, desk: Desk, tag: str) -> None:
        """Add a dealer or change a dealer's PIN (badge, new PIN twice), or remove one."""
        head, _, what = tag.partition(":")
        if head != "dealer":
            return
        verb, _, dealer_id = what.partition(":")
        if verb == "add":
            add_dealer(desk.ctx, partial(_dealer_set, desk))
        elif verb == "remove":
            desk.confirm = Confirm(f"REMOVE DEALER {dealer_id}?",
                                   "The dealer's PIN no longer signs in at this table.",
                                   "The ID stays in cabinet.yaml (null) and in the ledger's "
                                   "rounds; the change is logged.",
                                   lambda: _dealer_removed(desk, dealer_id))

    def read(self, desk: Desk) -> PageView:
        ctx = desk.ctx
        sheet = Sheet()
        x, y, width = BODY_X, BODY_Y, BODY_W
        end: float
        at_table = ctx.table.state.dealer
        sheet.text(f"At the table: "
                   f"{'dealer ' + at_table if at_table else 'no dealer signed in'}",
                   x, y - 6, 24, theme.GOLD if at_table else theme.TEXT_DIM, style=Style.BOLD)
        sheet.buttons.append(Button((x + width - 360, CONTENT[1] + 20, 360, 72),
                                    "ADD / SET PIN", "dealer:add", colour=(30, 96, 66), size=24))
        dealers = dealer_rows(ctx)
        row_h = 44
        columns = [("DEALER", 220, "l"), ("PIN", 200, "l"), ("ROUNDS DEALT", 240, "r"),
                   ("TIPS", 240, "r"), ("", width - 900, "l")]
        top = y + 40
        rows: list[list[Text]] = [
            [(d.dealer_id, theme.GOLD) if d.at_table else d.dealer_id,
             "set" if d.has_pin else ("removed", theme.TEXT_DIM), f"{d.rounds:,}",
             format_cents(d.tips), "at the table" if d.at_table else ""] for d in dealers[:8]]
        if rows:
            end = sheet.table(columns, rows, x, top, row_h, 21)
            for index, d in enumerate(dealers[:8]):
                if d.has_pin:
                    sheet.buttons.append(Button((x + width - 200, top + row_h + HEAD_GAP
                                                 + index * row_h + 2, 190, row_h - 4), "REMOVE",
                                                f"dealer:remove:{d.dealer_id}", colour=RED,
                                                size=18))
        else:
            sheet.text("No dealer yet: ADD / SET PIN adds one (badge number and PIN).", x,
                       top + 8, 21, theme.TEXT_DIM)
            end = top + 50
        sheet.section("TIPS", x, end + 24, width)
        tips = recent(ctx, "tip", TIPS_SHOWN)
        tip_rows: list[list[Text]] = [
            [when(e["at"]), str(e["details"]["seat"]), str(e["details"]["dealer"]),
             (format_cents(int(e["details"]["amount"])), theme.WIN)] for e in tips]
        sheet.history([("TIME (UTC)", 300, "l"), ("SEAT", 140, "r"), ("DEALER", 260, "l"),
                       ("AMOUNT", 240, "r")], tip_rows, x, end + 68, 36, 19,
                      "No tip has been given on this ledger.")
        return sheet.view("DEALERS", "A dealer signs in at the console with a badge number and "
                                     "PIN; tips go from the seats' credits to the dealer at the "
                                     "table.")


def _dealer_set(desk: Desk, dealer_id: str, refusal: str | None) -> None:
    desk.log("dealer_pin", dealer=dealer_id, refused=refusal)
    desk.ctx.notify(f"DEALER {dealer_id}: PIN NOT SET  ·  {refusal}" if refusal else
                    f"DEALER {dealer_id}: PIN SET", error=refusal is not None)
    desk.reload()


def _dealer_removed(desk: Desk, dealer_id: str) -> None:
    refusal = remove_dealer(desk.ctx, dealer_id)
    desk.log("dealer_removed", dealer=dealer_id, refused=refusal)
    if refusal is not None:
        desk.ctx.notify(refusal)
    desk.reload()
