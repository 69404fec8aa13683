"""PAYTABLES: the approved files, the active one, the figures of each, and the switch (SPEC §6:
"paytable view and switch").

Every file of ``paytables/`` is loaded and validated as the table would load
it; one that cannot be is listed with the reason. SWITCH asks the engine
first (a dry run): a switch is allowed only between rounds with no credits on
any seat, and the controller records it with the old and new hashes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from etg.config.loader import LoadedPaytable, default_config_dir, load_paytable
from etg.config.problems import ConfigError
from etg.core.commands import SwitchPaytable
from etg.core.money import format_cents
from etg.core.paytable import Paytable
from etg.table.controller import TableTilted
from etg.table.records import OPERATOR
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.operator.page import Confirm, Desk, OperatorPage
from etg.ui.operator.sheet import (
    BODY_W,
    BODY_X,
    BODY_Y,
    CONTENT,
    PageView,
    PaytableEntry,
    Sheet,
    dollars,
)
from etg.ui.widgets import Button

if TYPE_CHECKING:
    from etg.ui.scene import Context


class PaytablesPage(OperatorPage):
    """The list of files with VIEW and SWITCH, or one file's figures in full."""

    def __init__(self) -> None:
        self.viewing: int | None = None  # the file shown in full, by its place in the list
        self.entries: tuple[PaytableEntry, ...] = ()  # the list as last read

    def opened(self) -> None:
        self.viewing = None

    def act(self, desk: Desk, tag: str) -> None:
        head, _, what = tag.partition(":")
        if head != "pt":
            return
        verb, _, index_text = what.partition(":")
        if verb == "back":
            self.viewing = None
            desk.reload()
            return
        index = int(index_text)
        entry = self.entries[index]
        if verb == "view":
            self.viewing = index
            desk.log("view_paytable", file=entry.file)
            desk.reload()
        elif verb == "switch" and entry.loaded is not None:
            loaded = entry.loaded
            desk.confirm = Confirm(
                f"SWITCH TO {loaded.paytable.id}?", loaded.paytable.name,
                "Allowed only between rounds with no credits on any seat. The switch is "
                "logged with the old and new hashes.",
                lambda: self._switch(desk, loaded), danger=False)

    def _switch(self, desk: Desk, loaded: LoadedPaytable) -> None:
        try:
            refusal = desk.ctx.switch_paytable(loaded, OPERATOR)
        except (TableTilted, ConfigError, OSError) as error:
            refusal = str(error)
            desk.ctx.notify(refusal)
        desk.log("switch_paytable", file=loaded.path.name, paytable_id=loaded.paytable.id,
                 sha256=loaded.sha256, refused=refusal)
        self.viewing = None
        desk.reload()

    def read(self, desk: Desk) -> PageView:
        ctx = desk.ctx
        active = ctx.table.paytable
        folder = (ctx.options.config_dir or default_config_dir()) / "paytables"
        entries = tuple(_paytable_entry(path, active) for path in sorted(folder.glob("*.yaml")))
        self.entries = entries
        sheet = Sheet()
        x, y = BODY_X, BODY_Y
        if self.viewing is not None and self.viewing < len(entries) \
                and entries[self.viewing].loaded is not None:
            entry = entries[self.viewing]
            assert entry.loaded is not None
            _paytable_summary(sheet, entry.loaded, x, y)
            sheet.buttons.append(Button((x + BODY_W - 470, CONTENT[1] + 20, 220, 64), "◀ BACK",
                                        "pt:back", size=22))
            why_not = None if entry.active else _switch_refusal(ctx, entry.loaded)
            sheet.buttons.append(Button((x + BODY_W - 230, CONTENT[1] + 20, 220, 64), "SWITCH",
                                        f"pt:switch:{self.viewing}",
                                        enabled=not entry.active and why_not is None,
                                        colour=(24, 110, 64), size=22))
            subtitle = f"{entry.file}: the figures as read and validated from the file"
            return sheet.view(f"PAYTABLE  ·  {entry.loaded.paytable.id}",
                              subtitle if why_not is None else f"SWITCH is off: {why_not}",
                              paytables=entries)
        sheet.box((x, y, BODY_W, 150), theme.FELT_DARK, theme.GOLD_DARK, 14, 2)
        sheet.text("ACTIVE", x + 24, y + 18, 18, theme.GOLD, style=Style.BOLD)
        sheet.text(active.paytable.name, x + 24, y + 44, 30, theme.WHITE, style=Style.BOLD)
        sheet.text(f"id {active.paytable.id}  ·  file {_relative(active.path)}", x + 24,
                   y + 88, 20, theme.CREAM)
        sheet.text(f"sha256 {active.sha256}", x + 24, y + 116, 18, theme.TEXT_DIM)
        y += 176
        sheet.box((x, y, BODY_W, 40), theme.PANEL_LIGHT, radius=8)
        for title, offset in (("FILE", 14), ("ID", 430), ("NAME", 660), ("SHA-256", 1040)):
            sheet.text(title, x + offset, y + 20, 18, theme.TEXT_DIM, "midleft", Style.BOLD)
        y += 46
        row_h = 72
        for index, entry in enumerate(entries):
            _list_row(sheet, ctx, index, entry, y, row_h)
            y += row_h
        why_not = _switch_refusal(ctx, active)  # the active file is valid: the rest is the table
        rule = ("A switch is allowed only between rounds with no credits on any seat."
                if why_not is None else f"SWITCH is off: {why_not}.")
        return sheet.view("PAYTABLES", f"Approved files in {folder}. {rule}", paytables=entries)


def _list_row(sheet: Sheet, ctx: Context, index: int, entry: PaytableEntry, y: float,
              row_h: int) -> None:
    """One file of the list: its name, id, title and hash, VIEW, and SWITCH or ACTIVE."""
    x = BODY_X
    if index % 2:
        sheet.box((x, y, BODY_W, row_h), (255, 255, 255, 14), radius=8)
    middle = y + row_h / 2
    sheet.text(entry.file, x + 14, middle, 20, theme.WHITE, "midleft", Style.BOLD,
               max_width=400)
    if entry.loaded is None:
        sheet.text(entry.error or "cannot be loaded", x + 430, middle, 18, theme.TILT,
                   "midleft", max_width=BODY_W - 450)
        return
    p = entry.loaded.paytable
    sheet.text(p.id, x + 430, middle, 20, theme.CREAM, "midleft", max_width=215)
    sheet.text(p.name, x + 660, middle, 20, theme.CREAM, "midleft", max_width=365)
    sheet.text(entry.loaded.sha256[:12], x + 1040, middle, 18, theme.TEXT_DIM, "midleft")
    sheet.buttons.append(Button((x + BODY_W - 300, y + 8, 140, row_h - 16), "VIEW",
                                f"pt:view:{index}", size=22))
    if entry.active:
        sheet.box((x + BODY_W - 150, y + 8, 140, row_h - 16), theme.FELT_DARK, theme.GOLD, 12,
                  2)
        sheet.text("ACTIVE", x + BODY_W - 80, middle, 20, theme.GOLD, "center", Style.BOLD)
    else:
        sheet.buttons.append(Button((x + BODY_W - 150, y + 8, 140, row_h - 16), "SWITCH",
                                    f"pt:switch:{index}",
                                    enabled=_switch_refusal(ctx, entry.loaded) is None,
                                    colour=(24, 110, 64), size=22))


def _switch_refusal(ctx: Context, loaded: LoadedPaytable) -> str | None:
    """Why the engine would refuse a switch to ``loaded`` now (a dry run), or None."""
    return ctx.table.refusal(SwitchPaytable(loaded.paytable))


def _paytable_entry(path: Path, active: LoadedPaytable) -> PaytableEntry:
    try:
        loaded = load_paytable(path)
    except ConfigError as error:
        problems = error.problems
        first = f"{problems[0].key_path}: {problems[0].message}" if problems else str(error)
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return PaytableEntry(path.name, None, first + more, False)
    is_active = loaded.sha256 == active.sha256 and path.resolve() == active.path.resolve()
    return PaytableEntry(path.name, loaded, None, is_active)


def paytable_summary(p: Paytable) -> list[tuple[str, list[tuple[str, str]]]]:
    """The figures of ``p`` an operator checks before a switch, by section."""
    money = format_cents
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        ("GAME", [("Jurisdiction", p.jurisdiction.value.replace("_", " ").title()),
                  ("Layout", f"{p.layout.value.replace('_', ' ')}, {p.spot_count} spots"),
                  ("Seats", f"{p.seats}, up to {p.max_spots_per_seat} spots each"),
                  ("Shoe", f"{p.shoe.decks} decks, cut card at {p.shoe.penetration_min:.0%}"
                           f"–{p.shoe.penetration_max:.0%} from the bottom")]),
        ("LIMITS", [("Initial Wager", f"{money(p.limits.initial.min_cents)} – "
                                      f"{money(p.limits.initial.max_cents)}"),
                    ("Tie Wager", f"{money(p.limits.tie.min_cents)} – "
                                  f"{money(p.limits.tie.max_cents)}"),
                    ("Wager unit", money(p.unit_cents)),
                    ("Payout limit", f"{money(p.payout_limit_rules.amount_cents)} per "
                                     f"{p.payout_limit_rules.scope.value.replace('_', ' ')}")]),
        ("PAYOUTS", [("Initial Wager", str(p.payouts.initial)), ("Tie Wager", str(p.payouts.tie)),
                     ("War Wager", str(p.payouts.war)),
                     ("War Wager on a tie", str(p.payouts.war_tie)),
                     ("War form", p.war_form.value.replace("_", " ")),
                     ("Default decision", p.default_decision.value),
                     ("Tie Wager with War", "offered" if p.war_tie_wager else "not offered")]),
        ("TIMERS", [("Betting", f"{p.timers.betting_s} s"),
                    ("Decision", f"{p.timers.decision_s} s"),
                    ("Opens by itself", "yes" if p.timers.auto_open else "no")]),
    ]
    side: list[tuple[str, str]] = []
    if p.bonus_spin is not None:
        b = p.bonus_spin
        trigger = ", ".join(f"{c.colour.value} {c.rank}" for c in b.trigger)
        side += [("Bonus Spin Xtreme", " / ".join(dollars(c) for c in b.denominations_cents)),
                 ("  trigger", trigger),
                 ("  rings", f"{len(b.community_ring)} community, {len(b.hot_spot_ring)} "
                             f"Hot Spot, {p.seats} seat segments"),
                 ("  primary meter", _meter_words(b.primary.initial_cents, b.primary.rate)),
                 ("  secondary meter", _meter_words(b.secondary.initial_cents,
                                                    b.secondary.rate))]
    if p.progressive_payout is not None:
        w = p.progressive_payout
        best = w.pays.suited_four_of_a_kind
        side += [("Progressive Payout", money(w.wager_cents)),
                 ("  best hand", f"{best.pays} to {best.to} + {best.meter_percent}% of meter"),
                 ("  Envy Bonus", money(w.envy_cents.suited_four_of_a_kind)),
                 ("  meter", _meter_words(w.meter.initial_cents, w.meter.rate))]
    sections.append(("SIDE WAGERS", side or [("Side wagers", "none")]))
    return sections


def _meter_words(initial: int, rate: float) -> str:
    return f"from {format_cents(initial)}, {rate * 100:g} % of wagers"


def _paytable_summary(sheet: Sheet, loaded: LoadedPaytable, x: float, y: float) -> None:
    p = loaded.paytable
    sections = paytable_summary(p)
    column_w = (BODY_W - 48) // 2
    columns = ([sections[0], sections[1], sections[3]], [sections[2], sections[4]])
    sheet.text(p.name, x, y - 10, 28, theme.WHITE, style=Style.BOLD)
    sheet.text(f"sha256 {loaded.sha256}", x + BODY_W, y - 2, 18, theme.TEXT_DIM, "topright")
    for index, group in enumerate(columns):
        cx = x + index * (column_w + 48)
        cy = y + 48
        for title, rows in group:
            sheet.section(title, cx, cy, column_w)
            cy += 44
            for label, value in rows:
                sheet.label_value(label, value, cx, cy, column_w)
                cy += 33
            cy += 14


def _relative(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"
