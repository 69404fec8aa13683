"""SELF-TEST: the production CSPRNG and shuffle, checked on this cabinet (SPEC §6: "shoe and RNG
self-test").

The test itself is :mod:`etg.table.selftest` (the screens may not touch the
RNG); this page runs it, shows the figures of the run, and lists the earlier
runs the event log holds. Every run is recorded with all its figures.
"""

from __future__ import annotations

from typing import Any

from etg.table.records import SelfTestRun
from etg.table.selftest import SelfTest, run_self_test
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.operator.page import Desk, OperatorPage
from etg.ui.operator.sheet import BODY_W, BODY_X, BODY_Y, CONTENT, PageView, Sheet, Text, when
from etg.ui.theme import shade
from etg.ui.widgets import Button

RUNS_SHOWN = 7
"""Earlier runs the page lists, newest first."""


class SelfTestPage(OperatorPage):
    """RUN SELF-TEST, a panel each for the RNG and the shoe, then the earlier runs."""

    def __init__(self) -> None:
        self.result: SelfTest | None = None  # the run made on this visit to the menu

    def act(self, desk: Desk, tag: str) -> None:
        if tag == "selftest:run":
            result = run_self_test(desk.ctx.table.state.paytable.shoe)
            desk.ctx.table.record(SelfTestRun(result))
            desk.log("self_test", passed=result.passed)
            self.result = result
            desk.reload()

    def read(self, desk: Desk) -> PageView:
        sheet = Sheet()
        x, y = BODY_X, BODY_Y
        sheet.buttons.append(Button((x + BODY_W - 300, CONTENT[1] + 20, 300, 72),
                                    "RUN SELF-TEST", "selftest:run", colour=(24, 110, 64),
                                    size=24))
        rng = self.result.rng if self.result is not None else None
        shoe = self.result.shoe if self.result is not None else None
        decks = desk.ctx.table.state.paytable.shoe.decks
        panels: list[tuple[str, bool | None, list[tuple[str, str]], str]] = [
            ("RNG  ·  randbelow(52)", None if rng is None else rng.passed, [
                ("Draws", f"{rng.draws:,}" if rng else "—"),
                ("Chi-square, 51 degrees of freedom", f"{rng.chi_square:.2f}" if rng else "—"),
                ("p-value", f"{rng.p_value:.4f}" if rng else "—"),
                ("Fewest / most of one card",
                 f"{rng.smallest_count:,} / {rng.largest_count:,}" if rng else "—"),
                ("Runs low/high, expected", f"{rng.runs:,} / {rng.runs_expected:,.1f}" if rng
                 else "—"),
                ("Runs z", f"{rng.runs_z:+.2f}" if rng else "—"),
            ], "Fails above chi-square 87.968 (p = 0.001) or beyond |z| = 3.29."),
            ("SHOE  ·  draw_shoe", None if shoe is None else shoe.passed, [
                ("Shoes shuffled", f"{shoe.shoes}" if shoe else "—"),
                ("Cards per shoe", f"{shoe.cards:,} ({shoe.decks} decks)" if shoe else "—"),
                ("Each of the 52 cards", (f"{shoe.decks} times in every shoe" if shoe.passed
                                          else "see the problems") if shoe else "—"),
                ("Cut card window", f"positions {shoe.cut_low}–{shoe.cut_high}" if shoe
                 else "—"),
                ("Cut cards drawn", f"{min(shoe.cuts)}–{max(shoe.cuts)}" if shoe and shoe.cuts
                 else "—"),
                ("Problems", f"{len(shoe.problems)}" if shoe else "—"),
            ], f"Every card exactly {decks} times; cut card at least 1/4 in (MD Ch. 5 F(2))."),
        ]
        width = (BODY_W - 32) // 2
        for index, (title, passed, rows, rule) in enumerate(panels):
            bx = x + index * (width + 32)
            sheet.box((bx, y, width, 440), theme.PANEL_LIGHT, theme.PANEL_EDGE, 16, 1)
            sheet.text(title, bx + 28, y + 26, 24, theme.GOLD, style=Style.BOLD)
            colour = (90, 100, 112) if passed is None else (40, 130, 80) if passed else theme.TILT
            badge = "NOT RUN" if passed is None else "PASS" if passed else "FAIL"
            sheet.box((bx + width - 190, y + 16, 162, 52), colour, shade(colour, 1.4), 12, 2)
            sheet.text(badge, bx + width - 109, y + 42, 24 if passed is None else 28,
                       theme.WHITE, "center", Style.BOLD)
            row_y = y + 96
            for label, value in rows:
                sheet.label_value(label, value, bx + 28, row_y, width - 56, size=21)
                row_y += 42
            problems = shoe.problems[:2] if shoe is not None and index == 1 else ()
            for problem in problems:
                sheet.text(problem, bx + 28, row_y, 17, theme.TILT, max_width=width - 56)
                row_y += 24
            sheet.text(rule, bx + 28, y + 400, 17, theme.TEXT_DIM, max_width=width - 56)
        y += 470
        sheet.section("EARLIER RUNS", x, y, BODY_W)
        logged = desk.ctx.table.books.last_events(("self_test",), RUNS_SHOWN)[::-1]
        rows_out: list[list[Text]] = []
        for entry in logged:
            figures = entry["details"]
            ok = bool(figures.get("passed"))
            rng_figures, shoe_figures = figures.get("rng", {}), figures.get("shoe", {})
            rows_out.append([
                when(entry["at"]), ("PASS", (110, 210, 140)) if ok else ("FAIL", theme.TILT),
                str(entry["actor"] or "—"), _figure(rng_figures.get("chi_square"), "{:.2f}"),
                _figure(rng_figures.get("runs_z"), "{:+.2f}"),
                f"{len(shoe_figures.get('problems', []))}"])
        sheet.history([("TIME (UTC)", 300, "l"), ("RESULT", 180, "l"), ("BY", 220, "l"),
                       ("CHI-SQUARE", 260, "r"), ("RUNS Z", 260, "r"),
                       ("SHOE PROBLEMS", BODY_W - 1220, "r")], rows_out, x, y + 46, 36, 19,
                      "The self-test has never been run on this ledger.")
        subtitle = "The production CSPRNG and shuffle, on this cabinet; every run is logged."
        return sheet.view("SHOE AND RNG SELF-TEST", subtitle)


def _figure(value: Any, pattern: str) -> str:
    return pattern.format(value) if isinstance(value, int | float) else "—"
