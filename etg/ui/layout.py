"""Where everything sits on the 1920×1080 table screen, as pure geometry.

One layout per paytable shape (spots, seats, side wagers): the dealer's row
at the top with the shoe, meters and history; the community spots (or the
seats' own spots) across the middle; the Bonus Spin wheel on the right; a
panel per seat along the bottom, each with its
own piece of the felt (:mod:`etg.ui.seat_layout`). Every touch target is at
least 48 logical pixels on each side (SPEC §6); where a seat's controls do
not fit at the usual height, the panels grow upward and the spots' cards and
the wheel get smaller.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from etg.core.paytable import Layout, Paytable
from etg.ui.canvas import LOGICAL_W, Rect
from etg.ui.seat_layout import SeatLayout, arrange, thin
from etg.ui.theme import CHIP_DENOMINATIONS

TOP_BAR_H = 64
PANEL_TOP = 604  # where the seat panels start when their controls fit below it
PANEL_TOP_MIN = 520  # the highest they may start: the spots and their cards need the rest
PANEL_BOTTOM = 1076
SEAT_MARGIN = 4  # from the screen's left and right edges to the outer panels
SEAT_GAP = 4  # between two panels
WAR_OFFSET = 0.3  # the War card lies over the original card, shifted right by this share

WHEEL_BOX: Rect = (1352.0, 72.0, 556.0, 524.0)
"""The Bonus Spin wheel's box with the seat panels at :data:`PANEL_TOP` (see TableLayout)."""
MIDDLE_LEFT = 16  # the dealer's console is not on the players' screen (etg.ui.dealer)
CHIP_RAIL_MOST = 6  # denominations on a chip rail, at most


@dataclass(frozen=True)
class TableLayout:
    """The table screen for one paytable shape."""

    spots: int
    seats: int
    community: bool
    max_spots_per_seat: int
    has_wheel: bool
    has_payout: bool
    rail_values: tuple[int, ...]  # the chip rail's denominations before any thinning
    bonus_values: tuple[int, ...]  # the Bonus Spin denominations (none: not offered)
    war_tie: bool = True  # a Tie Wager may be placed with the War Wager (MD Ch. 7 F(2))

    @classmethod
    def for_paytable(cls, p: Paytable) -> TableLayout:
        bonus = p.bonus_spin.denominations_cents if p.bonus_spin is not None else ()
        return cls(p.spot_count, p.seats, p.layout is Layout.COMMUNITY, p.max_spots_per_seat,
                   p.bonus_spin is not None, p.progressive_payout is not None,
                   chip_values(p, CHIP_RAIL_MOST), tuple(bonus), p.war_tie_wager)

    @property
    def chip_values(self) -> tuple[int, ...]:
        """The chip rail's denominations, as every seat shows them (smallest first)."""
        return tuple(value for value, _ in self.seat_layouts[0].chips)

    # --- the top half ------------------------------------------------------------------------

    @property
    def meters(self) -> Rect:
        return float(MIDDLE_LEFT), 72.0, 330.0, 250.0

    @property
    def dealer_card(self) -> Rect:
        return 384.0, 96.0, 136.0, 190.0

    @property
    def dealer_war_card(self) -> Rect:
        return 544.0, 96.0, 136.0, 190.0

    @property
    def shoe(self) -> Rect:
        return 706.0, 76.0, 634.0, 106.0

    @property
    def history(self) -> Rect:
        """The last rounds' dealer cards, right under the shoe, clear of the recap line."""
        return 706.0, 190.0, 634.0, 102.0

    @property
    def banner_row(self) -> Rect:
        """Over the spots, right of the meters: the odds motto, and the recap at a round's end."""
        mx, my, mw, _ = self.middle
        left = self.meters[0] + self.meters[2] + 12
        return left, my - 36, mx + mw - left, 34.0

    @property
    def middle(self) -> Rect:
        right = WHEEL_BOX[0] - 12 if self.has_wheel else LOGICAL_W - 16
        return float(MIDDLE_LEFT), 332.0, right - MIDDLE_LEFT, self.panel_top - 332.0 - 10

    @property
    def wheel_box(self) -> Rect:
        """The wheel's box: :data:`WHEEL_BOX`, ending above the seat panels when they are taller."""
        x, y, w, h = WHEEL_BOX
        return x, y, w, min(h, self.panel_top - 8 - y)

    @property
    def wheel_centre(self) -> tuple[int, int]:
        """The wheel's centre: lifted, at the same size, when the seat panels are taller."""
        x, y, w, h = WHEEL_BOX
        return round(x + w / 2), round(min(y + h / 2 + 14,
                                           self.panel_top - 8 - self.wheel_radius))

    @property
    def wheel_radius(self) -> int:
        """The same on every layout: the labels' sizes are set for it (etg.ui.wheel)."""
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
    def panel_top(self) -> float:
        """Where the seat panels start: :data:`PANEL_TOP`, or higher if their controls need it."""
        top = float(PANEL_TOP)
        while self._seat(1, top) is None:
            top -= 2
            if top < PANEL_TOP_MIN:
                raise ValueError(f"no room for the betting controls of {self.seats} seats "
                                 f"on {self.spots} spots")
        return top

    @cached_property
    def seat_layouts(self) -> tuple[SeatLayout, ...]:
        seats = []
        for seat in range(1, self.seats + 1):
            layout = self._seat(seat, self.panel_top)
            assert layout is not None  # panel_top is where every seat fits
            seats.append(layout)
        return tuple(seats)

    def seat(self, seat: int) -> SeatLayout:
        return self.seat_layouts[seat - 1]

    def seat_spots(self, seat: int) -> tuple[int, ...]:
        """The spots a seat may play: every community spot, or its own (per-seat layout)."""
        return tuple(range(1, self.spots + 1)) if self.community else (seat,)

    def _seat(self, seat: int, top: float) -> SeatLayout | None:
        width = _seat_width(self.seats)
        left = SEAT_MARGIN + (seat - 1) * (width + SEAT_GAP)
        rect = (left, top, width, PANEL_BOTTOM - top)
        spots = self.seat_spots(seat)
        return arrange(seat, rect, spots, self.has_payout, self.rail_values, self.bonus_values,
                       self.war_tie, min(self.max_spots_per_seat, len(spots)))


def chip_values(p: Paytable, most: int) -> tuple[int, ...]:
    """The chip rail's denominations: from the table minimum up to the maximum (SPEC §6).

    The smallest chip is the Initial Wager's minimum, the table minimum; the
    others are the standard casino denominations above it up to the Initial
    Wager's maximum ($5, $25, $100, $500 ...: the $2 and $10 chips are left
    out, as on most tables), each a multiple of the paytable's unit. At most
    ``most`` of them, the smallest and the largest always among them.
    """
    low, high = p.limits.initial.min_cents, p.limits.initial.max_cents
    above = [d for d in CHIP_DENOMINATIONS
             if low < d <= high and d % p.unit_cents == 0 and d not in (200, 1000)]
    return thin([low, *above], most)


def _seat_width(seats: int) -> float:
    return (LOGICAL_W - 2 * SEAT_MARGIN - (seats - 1) * SEAT_GAP) / seats
