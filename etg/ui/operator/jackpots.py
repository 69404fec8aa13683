"""JACKPOTS (MD Ch. 9 J(4)): the jackpot lock waiting for its validation, and the hand pays.

A progressive award, or an award at the cabinet's hand-pay threshold, holds
the table until a floorperson or above validates it with their PIN
(:func:`etg.ui.floor.validate_jackpot`); what the attendant then pays by hand
is listed here, newest first, with who validated it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from etg.core.jackpot import ValidatorRole, validator_words
from etg.core.money import format_cents
from etg.table.books import ATTENDANT_PAID_JACKPOTS, ATTENDANT_PAID_JACKPOTS_AMOUNT, TABLE
from etg.ui import theme
from etg.ui.floor import AWARD_WORDS, recent, validate_jackpot
from etg.ui.operator.page import Desk, OperatorPage
from etg.ui.operator.sheet import BODY_W, BODY_X, BODY_Y, PageView, Sheet, Text, when
from etg.ui.widgets import Button

HAND_PAYS_SHOWN = 10
"""Hand pays the JACKPOTS page lists, newest first."""


class JackpotsPage(OperatorPage):
    """The lock's awards with VALIDATE, the hand-pay threshold and meters, the hand pays."""

    follows_play = True

    def act(self, desk: Desk, tag: str) -> None:
        if tag == "jackpot:validate":
            desk.log("validate_jackpot")
            validate_jackpot(desk.ctx)

    def read(self, desk: Desk) -> PageView:
        table = desk.ctx.table
        state = table.state
        sheet = Sheet()
        x, width = BODY_X, BODY_W
        y: float = BODY_Y
        rules = state.jackpot_rules
        threshold = ("no validation (the cabinet sets none)" if rules is None else
                     f"awards of {format_cents(rules.hand_pay_cents)} or more are hand paid")
        lock = state.jackpot
        sheet.section("JACKPOT LOCK" if lock else "NO JACKPOT WAITS", x, y, width)
        if lock is None:
            sheet.text("Play goes on: no award is held for validation.", x, y + 48, 22,
                       theme.TEXT_DIM)
            y += 100
        else:
            rows: list[list[Text]] = [
                [str(a.seat), str(a.spot or "—"), AWARD_WORDS[a.payment.kind.value],
                 (format_cents(a.win), theme.WIN),
                 ("HAND PAY", theme.WAR) if a.hand_pay else "to credits"] for a in lock.awards]
            y = sheet.table([("SEAT", 90, "l"), ("SPOT", 90, "l"), ("AWARD", 420, "l"),
                             ("AMOUNT", 240, "r"), ("PAID", width - 840 - 380, "l")],
                            rows[:6], x, y + 44, 38, 20)
            sheet.buttons.append(Button((x + width - 360, BODY_Y + 44, 360, 96), "VALIDATE",
                                        "jackpot:validate", hot=True, colour=(150, 100, 20),
                                        size=30, sublabel="FLOORPERSON PIN"))
            y += 24
        meters = Counter[tuple[int, str]]()
        for counter in table.books.meters().values():
            meters.update(counter)
        sheet.text(f"Hand-pay threshold: {threshold}.  Hand pays since the last RAM clear: "
                   f"{meters[TABLE, ATTENDANT_PAID_JACKPOTS]:,}, "
                   f"{format_cents(meters[TABLE, ATTENDANT_PAID_JACKPOTS_AMOUNT])}.", x, y, 21,
                   theme.CREAM, max_width=width)
        y += 48
        sheet.section("HAND PAYS", x, y, width)
        pays = recent(desk.ctx, "hand_pay", HAND_PAYS_SHOWN)
        rows = [[when(e["at"]), str(e["details"]["round"]), str(e["details"]["seat"]),
                 AWARD_WORDS.get(str(e["details"]["kind"]), str(e["details"]["kind"])),
                 (format_cents(int(e["details"]["amount"])), theme.WIN),
                 validator_words(str(e["details"]["validator"]), _role(e["details"]))]
                for e in pays]
        sheet.history([("TIME (UTC)", 260, "l"), ("ROUND", 120, "r"), ("SEAT", 100, "r"),
                       ("AWARD", 420, "l"), ("AMOUNT", 240, "r"),
                       ("VALIDATED BY", width - 1140, "l")], rows, x, y + 44, 36, 19,
                      "No hand pay has been recorded on this ledger.")
        return sheet.view("JACKPOTS", "A progressive award, or an award at the hand-pay "
                                      "threshold, waits for a floorperson's PIN (MD Ch. 9 J(4)).")


def _role(details: dict[str, Any]) -> ValidatorRole | None:
    """The validator's role a ``hand_pay`` entry records; None in one written before roles."""
    role = details.get("role")
    return None if role is None else ValidatorRole(role)
