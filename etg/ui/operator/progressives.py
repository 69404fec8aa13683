"""PROGRESSIVES: the live meters of the active paytable, their rules, and their last awards
(SPEC §6: "progressive meters").

The amounts are the table's state; hits, awarded and contributed are the
meters since the last RAM clear; the last awards are read from the newest
:data:`AWARD_ROUNDS` rounds of the hand ledger only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from etg.core.events import ProgressiveAwarded
from etg.core.money import format_cents
from etg.core.paytable import ProgressiveLevel
from etg.core.state import LEVELS
from etg.table.books import LEVEL_LABELS, TABLE, RoundRecord, round_events
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.operator.page import Desk, OperatorPage
from etg.ui.operator.sheet import BODY_W, BODY_X, BODY_Y, CONTENT, PageView, Sheet

AWARD_ROUNDS = 200
"""The newest rounds searched for the LAST AWARDS of each meter."""


class ProgressivesPage(OperatorPage):
    """A column per meter: the amount, its rules and figures, its last awards."""

    follows_play = True

    def read(self, desk: Desk) -> PageView:
        table = desk.ctx.table
        state = table.state
        paytable = state.paytable
        meters = table.books.meters().get(paytable.id, Counter())
        awards = recent_awards(table.books.rounds(last=AWARD_ROUNDS))
        sheet = Sheet()
        gap = 24
        width = (BODY_W - 2 * gap) // 3
        for index, level in enumerate(LEVELS):
            x = BODY_X + index * (width + gap)
            y = BODY_Y
            height = CONTENT[1] + CONTENT[3] - 32 - y
            sheet.box((x, y, width, height), theme.PANEL_LIGHT, theme.PANEL_EDGE, 16, 1)
            sheet.text(LEVEL_LABELS[level].upper(), x + width / 2, y + 20, 22, theme.GOLD,
                       "midtop", Style.BOLD)
            meter = state.meter(level)
            rules = paytable.meter(level)
            if meter is None or rules is None:
                sheet.text("Not offered by this paytable", x + width / 2, y + 120, 22,
                           theme.TEXT_DIM, "midtop")
                continue
            sheet.box((x + 24, y + 62, width - 48, 96), (4, 10, 18), theme.GOLD_DARK, 12, 2)
            sheet.text(format_cents(meter.cents), x + width / 2, y + 110, 50, theme.WIN,
                       "center", Style.BOLD, max_width=width - 70)
            rows = [
                ("Initial amount", format_cents(rules.initial_cents)),
                ("Reset amount", format_cents(rules.reset_cents)),
                ("Ceiling", format_cents(rules.ceiling_cents) if rules.ceiling_cents is not None
                 else "none"),
                ("Rate of progression", f"{rules.rate_millionths / 10_000:g} % of wagers"),
                ("Reserve", format_cents(meter.reserve_cents)),
                ("Carry", f"{meter.carry / 1_000_000:.6f}¢"),
                ("Hits", f"{meters[TABLE, f'progressive.hits.{level.value}']:,}"),
                ("Awarded", format_cents(meters[TABLE, f"progressive.amount.{level.value}"])),
                ("Contributed", format_cents(meters[TABLE,
                                                    f"progressive.contribution.{level.value}"])),
            ]
            row_y = y + 184
            for label, value in rows:
                sheet.label_value(label, value, x + 28, row_y, width - 56)
                row_y += 38
            sheet.section("LAST AWARDS", x + 28, row_y + 12, width - 56)
            row_y += 56
            mine = [a for a in awards if a.level is level][:6]
            if not mine:
                sheet.text(f"None in the last {AWARD_ROUNDS} rounds", x + 28, row_y, 19,
                           theme.TEXT_DIM)
            for award in mine:
                sheet.label_value(f"Round {award.round}  ·  seat {award.seat}",
                                  format_cents(award.amount), x + 28, row_y, width - 56,
                                  theme.WIN, size=19)
                row_y += 32
        return sheet.view("PROGRESSIVES", f"Live meters of {paytable.id}; hits and amounts are "
                                          f"the meters since the last RAM clear.")


@dataclass(frozen=True)
class Award:
    round: int
    level: ProgressiveLevel
    seat: int
    amount: int


def recent_awards(records: list[RoundRecord]) -> list[Award]:
    """Progressive awards in ``records``, newest first."""
    out: list[Award] = []
    for record in reversed(records):
        if not any(e.get("type") == "ProgressiveAwarded" for e in record["events"]):
            continue
        for event in reversed(round_events(record)):
            if isinstance(event, ProgressiveAwarded):
                out.append(Award(int(record["round"]), event.level, event.seat, event.amount))
    return out
