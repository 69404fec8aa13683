"""Where everything sits on the 1920×1080 table screen, as pure geometry.

One layout per paytable shape (spots, seats, side wagers): the dealer's row
at the top with the shoe, meters and history; the community spots (or the
seats' own spots) across the middle; the Bonus Spin wheel on the right; the
dealer console on the left; a panel per seat along the bottom. Every touch
target is at least 48 logical pixels on each side (SPEC §6), which a test
checks for every shipped paytable.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from etg.core.paytable import Layout, Paytable
from etg.ui.canvas import LOGICAL_W, Rect
from etg.ui.input import MIN_TARGET
from etg.ui.theme import CHIP_DENOMINATIONS

TOP_BAR_H = 64
PANEL_TOP = 604
PANEL_BOTTOM = 1074
GAP = 6
WAR_OFFSET = 0.3  # the War card lies over the original card, shifted right by this share
ROW = 52  # a row of touch targets: 48 px plus room for the button's shadow

CONSOLE_W = 168
WHEEL_BOX: Rect = (1352.0, 72.0, 556.0, 524.0)
MIDDLE_LEFT = 16 + CONSOLE_W + 12


@dataclass(frozen=True)
class SeatLayout:
    """One seat's panel: where its credits, chips, wager boxes and buttons are."""

    seat: int
    rect: Rect
    chips: tuple[tuple[int, Rect], ...]  # (denomination, rect) of the chip selector
    kinds: tuple[tuple[str, Rect], ...]  # bet-kind toggle: "initial", "tie", "payout"
    spot_boxes: tuple[tuple[int, Rect], ...]  # (spot, rect) where a tap places the chip
    bonus: tuple[tuple[int, Rect], ...]  # (denomination, rect) of the Bonus Spin buttons
    clear: Rect
    repeat: Rect
    double: Rect
    cash_out: Rect
    decision_area: Rect  # replaces the betting controls while a tie waits for a decision

    @property
    def header(self) -> Rect:
        x, y, w, _ = self.rect
        return x, y, w, 44.0


@dataclass(frozen=True)
class TableLayout:
    """The table screen for one paytable shape."""

    spots: int
    seats: int
    community: bool
    max_spots_per_seat: int
    has_wheel: bool
    has_payout: bool
    chip_values: tuple[int, ...]

    @classmethod
    def for_paytable(cls, p: Paytable) -> TableLayout:
        width = _seat_width(p.seats)
        fits = max(1, min(5, int((width - 2 * GAP + GAP) // (MIN_TARGET + 6))))
        return cls(p.spot_count, p.seats, p.layout is Layout.COMMUNITY, p.max_spots_per_seat,
                   p.bonus_spin is not None, p.progressive_payout is not None,
                   chip_values(p, fits))

    # --- the top half ------------------------------------------------------------------------

    @property
    def console(self) -> Rect:
        return 16.0, float(TOP_BAR_H + 10), float(CONSOLE_W), float(PANEL_TOP - TOP_BAR_H - 22)

    def console_button(self, index: int, count: int) -> Rect:
        x, y, w, h = self.console
        step = min(62.0, (h - 8) / count)
        return x + 4, y + 4 + index * step, w - 8, step - 8

    @property
    def meters(self) -> Rect:
        return float(MIDDLE_LEFT), 72.0, 330.0, 250.0

    @property
    def dealer_card(self) -> Rect:
        return 640.0, 92.0, 136.0, 190.0

    @property
    def dealer_war_card(self) -> Rect:
        return 800.0, 92.0, 136.0, 190.0

    @property
    def shoe(self) -> Rect:
        return 966.0, 86.0, 370.0, 110.0

    @property
    def history(self) -> Rect:
        return 966.0, 206.0, 370.0, 116.0

    @property
    def middle(self) -> Rect:
        right = WHEEL_BOX[0] - 12 if self.has_wheel else LOGICAL_W - 16
        return float(MIDDLE_LEFT), 332.0, right - MIDDLE_LEFT, PANEL_TOP - 332.0 - 10

    @property
    def wheel_centre(self) -> tuple[int, int]:
        x, y, w, h = WHEEL_BOX
        return round(x + w / 2), round(y + h / 2 + 14)

    @property
    def wheel_radius(self) -> int:
        return round(min(WHEEL_BOX[2], WHEEL_BOX[3]) / 2 - 26)

    @cached_property
    def card_width(self) -> int:
        _, _, w, h = self.middle
        return int(min(w / self.spots - 22, (h - 90) / 1.4, 132))

    def spot_column(self, spot: int) -> Rect:
        x, y, w, h = self.middle
        column = w / self.spots
        return x + (spot - 1) * column, y, column, h

    def spot_card(self, spot: int) -> Rect:
        x, y, w, _ = self.spot_column(spot)
        cw = self.card_width
        return x + (w - cw * (1 + WAR_OFFSET)) / 2, y + 24, float(cw), cw * 1.4

    def spot_war_card(self, spot: int) -> Rect:
        x, y, w, h = self.spot_card(spot)
        return x + w * WAR_OFFSET, y + 22, w, h

    def spot_badge(self, spot: int) -> Rect:
        """Under the cards: the spot's total wager and which seats hold it."""
        x, y, w, h = self.spot_column(spot)
        return x + 6, y + h - 40, w - 12, 36.0

    @property
    def shoe_mouth(self) -> tuple[float, float]:
        """Where dealt cards come from."""
        x, y, _, h = self.shoe
        return x + 40, y + h / 2

    @property
    def dealer_tray(self) -> tuple[float, float]:
        """Where lost wagers go."""
        x, y, w, _ = self.dealer_card
        return x + w + 12, y + 8

    # --- the seats ----------------------------------------------------------------------------

    @cached_property
    def seat_layouts(self) -> tuple[SeatLayout, ...]:
        return tuple(self._seat(seat) for seat in range(1, self.seats + 1))

    def seat(self, seat: int) -> SeatLayout:
        return self.seat_layouts[seat - 1]

    def _seat(self, seat: int) -> SeatLayout:
        width = _seat_width(self.seats)
        left = 8 + (seat - 1) * (width + GAP)
        top = float(PANEL_TOP)
        inner_left, inner_w = left + GAP, width - 2 * GAP
        y = top + 48
        chips = _row(inner_left, y, inner_w, len(self.chip_values), 56)
        y += 60
        kinds = ["initial", "tie"] + (["payout"] if self.has_payout else [])
        kind_rects = _row(inner_left, y, inner_w, len(kinds), 50)
        y += ROW + 2
        spots = tuple(range(1, self.spots + 1)) if self.community else (seat,)
        per_row = max(1, min(len(spots), int((inner_w + GAP) // (MIN_TARGET + 12 + GAP))))
        boxes: list[tuple[int, Rect]] = []
        rows = -(-len(spots) // per_row)
        for r in range(rows):
            chunk = spots[r * per_row:(r + 1) * per_row]
            for spot, rect in zip(chunk, _row(inner_left, y, inner_w, per_row, 56), strict=False):
                boxes.append((spot, rect))
            y += 60
        decision_top = top + 48 + 60
        y = max(y, top + 48 + 60 + ROW + 2 + 2 * 60)  # the same rows on every seat of a table
        actions = _row(inner_left, y, inner_w, 3, 50)
        y += ROW + 2
        bonus_values = (100, 500) if self.has_wheel else ()
        lower = _row(inner_left, y, inner_w, len(bonus_values) + 1, 50)
        bonus = tuple(zip(bonus_values, lower[:-1], strict=True))
        height = PANEL_BOTTOM - top
        decision_area = (inner_left, decision_top, inner_w, top + height - decision_top - GAP)
        return SeatLayout(seat, (float(left), top, float(width), float(height)),
                          tuple(zip(self.chip_values, chips, strict=True)),
                          tuple(zip(kinds, kind_rects, strict=True)), tuple(boxes), bonus,
                          actions[0], actions[1], actions[2], lower[-1], decision_area)


def chip_values(p: Paytable, count: int) -> tuple[int, ...]:
    """The chip selector's denominations: standard chips within the table's limits.

    Starts at the smallest wager a tap can place (the lower of the Initial and
    Tie minimums) and keeps ``count`` standard denominations up to the largest
    Initial Wager; every chip is a multiple of the paytable's unit.
    """
    low = min(p.limits.initial.min_cents, p.limits.tie.min_cents)
    high = max(p.limits.initial.max_cents, p.limits.tie.max_cents)
    usable = [d for d in CHIP_DENOMINATIONS
              if low <= d <= high and d % p.unit_cents == 0 and d not in (200, 1000)]
    if not usable:
        usable = [low]
    return tuple(usable[:count])


def _seat_width(seats: int) -> float:
    return (LOGICAL_W - 16 - (seats - 1) * GAP) / seats


def _row(left: float, top: float, width: float, count: int, height: float) -> list[Rect]:
    if count == 0:
        return []
    w = (width - (count - 1) * GAP) / count
    return [(left + i * (w + GAP), top, w, height) for i in range(count)]
