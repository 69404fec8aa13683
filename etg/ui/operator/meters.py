"""METERS: every meter of one paytable (or of the cabinet), seat by seat, since the last RAM
clear (SPEC §5, §6).

The headline tiles and the table are the meters as the ledger keeps them:
nothing here is summed over the history, and a meter's name is said in words
(``coin_in.tie`` is "Coin in · Tie").
"""

from __future__ import annotations

from collections import Counter

from etg.core.money import format_cents
from etg.core.paytable import ProgressiveLevel
from etg.table.books import DEFINITIONS, LEVEL_LABELS, TABLE, dealer_meter
from etg.ui import theme
from etg.ui.assets import Style
from etg.ui.operator.page import Desk, OperatorPage
from etg.ui.operator.sheet import (
    BODY_W,
    BODY_X,
    BODY_Y,
    CONTENT,
    PageView,
    Sheet,
    pager,
    rows_fit,
    when,
)
from etg.ui.widgets import Button


class MetersPage(OperatorPage):
    """Tiles of the headline figures over a table of every meter that has moved."""

    follows_play = True

    def __init__(self) -> None:
        self.paytable: str | None = None  # whose meters: a paytable's id, or "cabinet"

    def act(self, desk: Desk, tag: str) -> None:
        head, _, paytable_id = tag.partition(":")
        if head == "meters":
            self.paytable, desk.offset = paytable_id, 0
            desk.reload()

    def read(self, desk: Desk) -> PageView:
        table = desk.ctx.table
        books = table.books
        meters = books.meters()
        active = table.state.paytable.id
        ids = sorted(meters, key=lambda pid: (pid != active, pid == "cabinet", pid))
        if active not in ids:
            ids.insert(0, active)
        selected = self.paytable if self.paytable in ids else ids[0]
        values = meters.get(selected, Counter())
        seats = max([s for s, _ in values] + [table.state.paytable.seats if selected == active
                                              else 0])
        sheet = Sheet()
        x, y, width = BODY_X, BODY_Y, BODY_W
        for index, pid in enumerate(ids[:5]):
            label = "CABINET" if pid == "cabinet" else pid
            sheet.buttons.append(Button((x + width - (index + 1) * 262 + 12, CONTENT[1] + 20,
                                         250, 56), label, f"meters:{pid}", hot=pid == selected,
                                        size=20))
        clears = books.last_events(("ram_clear",), 1)
        since = f"since the RAM clear of {when(clears[-1]['at'])}" if clears else \
            "since installation"
        coin_in = sum(v for (s, n), v in values.items() if s == TABLE and n.startswith("coin_in."))
        coin_out = sum(v for (s, n), v in values.items()
                       if s == TABLE and n.startswith("coin_out."))
        figures = [("ROUNDS IN LEDGER", f"{books.round_count():,}"),
                   ("GAMES PLAYED", f"{values[TABLE, 'games.played']:,}"),
                   ("COIN IN", format_cents(coin_in)), ("COIN OUT", format_cents(coin_out)),
                   ("HOLD", format_cents(coin_in - coin_out)),
                   ("CASH IN", format_cents(values[TABLE, "cash_in"])),
                   ("CASH OUT", format_cents(values[TABLE, "cash_out"]))]
        tile_w = (width - 6 * 12) // 7
        for index, (label, value) in enumerate(figures):
            tx = x + index * (tile_w + 12)
            sheet.box((tx, y, tile_w, 92), theme.PANEL_LIGHT, theme.PANEL_EDGE, 12, 1)
            sheet.text(label, tx + tile_w / 2, y + 14, 16, theme.TEXT_DIM, "midtop", Style.BOLD)
            sheet.text(value, tx + tile_w / 2, y + 44, 28, theme.GOLD if label == "HOLD"
                       else theme.WHITE, "midtop", Style.BOLD, max_width=tile_w - 16)
        names = [n for n in DEFINITIONS if any(name == n for _, name in values)]
        names += sorted({name for _, name in values} - set(names))
        columns: list[tuple[str, int, str]] = [("METER", 0, "l"), ("TABLE", 0, "r")]
        columns += [(f"SEAT {s}", 0, "r") for s in range(1, seats + 1)]
        number_w = min(150, (width - 380) // max(1, len(columns) - 1))
        columns = [(title, (width - number_w * (len(columns) - 1)) if i == 0 else number_w,
                    align) for i, (title, _, align) in enumerate(columns)]
        size = rows_fit(y + 116, 34)
        shown = names[desk.offset:desk.offset + size]
        rows = [[meter_label(name)] + [meter_value(name, values[s, name])
                                       for s in range(0, seats + 1)] for name in shown]
        if not names:
            sheet.text("No meter has moved " + since + ".", x, y + 140, 24, theme.TEXT_DIM)
        else:
            end = sheet.table(columns, rows, x, y + 116, row_h=34, size=20)
            pager(sheet, desk.offset, size, len(names), end)
        owner = "the cabinet (power-ups, menu entries)" if selected == "cabinet" else selected
        return sheet.view("METERS", f"Meters of {owner}, {since}. TABLE is the whole table.",
                          rows=len(names), page_size=size)


_METER_WORDS: dict[str, str] = {
    "capped": "Withheld by the payout limit",
    "games.played": "Games played", "games.won": "Games won", "games.lost": "Games lost",
    "games.tied": "Games tied", "wars": "Wars", "surrenders": "Surrenders", "voids": "Voids",
    "wager_voids": "Single wagers voided", "wager_voids.amount": "Single wagers voided, amount",
    "bonus_spin.triggers": "Bonus Spin triggers", "bonus_spin.spins": "Bonus Spin spins",
    "attendant_paid_jackpots": "Hand pays (attendant-paid jackpots)",
    "attendant_paid_jackpots.amount": "Hand pays, amount", "tips": "Tips to the dealers",
    "cash_in": "Cash in", "cash_out": "Cash out (cancelled credits)", "power_ups": "Power-ups",
    "operator_menu_entries": "Operator menu entries",
}
KIND_WORDS: dict[str, str] = {
    "initial": "Initial", "tie": "Tie", "war": "War", "war_tie": "War-deal Tie",
    "progressive_payout": "Progressive Payout", "bonus_spin": "Bonus Spin",
    "progressive": "Progressive awards", "envy_bonus": "Envy Bonus",
}
"""A wager kind as the meters and the recall name it, by its value."""
_PREFIX_WORDS: dict[str, str] = {
    "coin_in.": "Coin in", "coin_out.": "Coin out",
    "progressive.contribution_millionths.": "Contribution (µ¢)",
    "progressive.contribution.": "Contribution", "progressive.hits.": "Hits",
    "progressive.amount.": "Awarded",
}
_MONEY_PREFIXES = ("coin_in.", "coin_out.", "progressive.contribution.", "progressive.amount.")
_MONEY_NAMES = frozenset({"capped", "cash_in", "cash_out", "attendant_paid_jackpots.amount",
                          "wager_voids.amount", "tips"})


def meter_label(name: str) -> str:
    """A meter's name as the screen says it, e.g. ``coin_in.tie`` -> "Coin in · Tie"."""
    if name in _METER_WORDS:
        return _METER_WORDS[name]
    dealer = dealer_meter(name)
    if dealer is not None:
        return f"Dealer {dealer[0]} · {'rounds dealt' if dealer[1] == 'rounds' else 'tips'}"
    for prefix, words in _PREFIX_WORDS.items():
        if name.startswith(prefix):
            tail = name.removeprefix(prefix)
            if tail in KIND_WORDS and prefix.startswith("coin"):
                return f"{words} · {KIND_WORDS[tail]}"
            level = next((lv for lv in ProgressiveLevel if lv.value == tail), None)
            return f"{words} · {LEVEL_LABELS[level] if level else tail}"
    return name


def meter_value(name: str, value: int) -> str:
    """Cents as money, millionths of a cent as cents, counts as counts; zero as a dash."""
    if not value:
        return "—"
    dealer = dealer_meter(name)
    if name in _MONEY_NAMES or name.startswith(_MONEY_PREFIXES) or (dealer and
                                                                     dealer[1] == "tips"):
        return format_cents(value)
    if name.startswith("progressive.contribution_millionths."):
        cents, rest = divmod(value, 1_000_000)
        return f"{cents:,}.{rest:06d}¢"
    return f"{value:,}"
