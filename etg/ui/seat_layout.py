"""Where each seat's betting controls sit in its panel, as pure geometry (SPEC §6).

Each seat has its own piece of the felt, as a live table has for each player
(MD Ch. 2 B(2)-(4): a separate betting area for the Initial and War Wagers,
one for the Tie Wager and, where offered, one for the Progressive Payout
Wager): for every spot the seat may play, an Initial circle, a Tie circle and
a Progressive Payout light. With them: the chip rail, the Bonus Spin spot,
CLEAR / REPEAT / DOUBLE and CASH OUT.

Two arrangements, the first that fits:

- *columns*: the spots side by side in the order of the cards above (spot 1
  on the left), each a column of its circles; the chip rail, the actions and
  the Bonus Spin spot with CASH OUT in rows under them. Few spots get large
  circles this way.
- *rows*: one row of circles per spot, the chip rail and the Bonus Spin spot
  down the right-hand side, the actions and CASH OUT under them: many spots
  in a narrow panel.

Every target is a rectangle at least :data:`MIN_TARGET` logical pixels on
each side and none overlaps another; when neither arrangement fits, the panel
is too short and :func:`arrange` says so (the table layout then makes it
taller). While a seat decides a tie, its War / Surrender controls lie over
its piece of the felt (:meth:`SeatLayout.decision_controls`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from etg.ui.canvas import Rect
from etg.ui.input import MIN_TARGET

HEADER_H = 40.0  # the seat's name and credits
PAD = 3.0  # between the panel's edge and its controls
GAP = 3.0  # between two controls
ROW_H = 50.0  # a row of buttons or chips
LABEL_H = 20.0  # "SPOT n" over a column of circles
INITIAL_MAX = 104.0  # the Initial circle's largest diameter
SMALL_MAX = 80.0  # the Tie circle's and the Progressive Payout light's
BONUS_W = 50.0  # each Bonus Spin denomination on the bottom row
DECIDE_W = 150.0  # a column this wide takes its spot's WAR / SURRENDER controls itself, the
# words at the players' 20 px in the narrow face


class Arrangement(Enum):
    COLUMNS = "columns"
    ROWS = "rows"


@dataclass(frozen=True)
class SpotArea:
    """One seat's betting area on one spot: its circles, each a square around the circle."""

    spot: int
    rect: Rect
    initial: Rect  # the Initial Wager, and the War Wager beside it after a tie
    tie: Rect
    payout: Rect | None  # the Progressive Payout light, if the paytable offers the wager
    label: Rect | None  # where "SPOT n" is printed; None: the number is in the Initial circle


@dataclass(frozen=True)
class DecisionControls:
    """A tied spot's choices (MD Ch. 9 E): War, Surrender, and War with a Tie Wager."""

    spot: int
    war: Rect
    surrender: Rect
    war_tie: Rect | None  # MD Ch. 7 F(2), where the paytable offers it
    inside: bool = False  # within the spot's own column (under its SPOT label)


@dataclass(frozen=True)
class SeatLayout:
    """One seat's panel: its piece of the felt, chip rail, Bonus Spin spot and buttons."""

    seat: int
    rect: Rect
    arrangement: Arrangement
    felt: Rect  # the seat's piece of the felt; every SpotArea lies inside it
    spots: tuple[SpotArea, ...]
    rail: Rect  # the chip rail, around the chips
    chips: tuple[tuple[int, Rect], ...]  # (denomination, rect), smallest first
    bonus_area: Rect | None  # the Bonus Spin spot, around its denominations
    bonus: tuple[tuple[int, Rect], ...]  # (Bonus Spin denomination, rect)
    clear: Rect
    repeat: Rect
    double: Rect
    cash_out: Rect

    @property
    def header(self) -> Rect:
        x, y, w, _ = self.rect
        return x, y, w, HEADER_H

    def area(self, spot: int) -> SpotArea | None:
        return next((a for a in self.spots if a.spot == spot), None)

    def decision_controls(self, spots: Sequence[int],
                          war_tie: bool) -> tuple[DecisionControls, ...]:
        """War / Surrender controls on each tied spot in ``spots``, in spot order.

        A column of circles wide enough for the words takes its spot's controls
        itself, one under the other. Otherwise each spot gets a block the width
        of the seat, WAR and SURRENDER side by side with WAR and a Tie Wager
        under them when ``war_tie``, laid from its spot's area and pushed clear
        of the block before, all above the CASH OUT row (the only other control
        while a tie waits). When the blocks do not fit (a seat may play many
        spots), each spot's own area is split between its controls.
        """
        areas = [a for a in self.spots if a.spot in spots]
        count = 3 if war_tie else 2
        if self.arrangement is Arrangement.COLUMNS and all(
                a.rect[2] >= DECIDE_W and a.rect[3] - LABEL_H >= count * (ROW_H + GAP) - GAP
                for a in areas):
            return tuple(_in_column(a, war_tie) for a in areas)
        return self._blocks(areas, war_tie) or tuple(self._split(a, war_tie) for a in areas)

    def _blocks(self, areas: list[SpotArea], war_tie: bool) -> tuple[DecisionControls, ...]:
        """A block the seat's width for each area, or none at all if they do not all fit."""
        x, top, w, _ = self.felt
        height = ROW_H * 2 + GAP if war_tie else ROW_H
        limit = self.cash_out[1] - GAP
        if len(areas) * (height + GAP) - GAP > limit - top:
            return ()
        ys = [a.rect[1] for a in areas]
        for i in range(1, len(ys)):  # down, clear of the block above ...
            ys[i] = max(ys[i], ys[i - 1] + height + GAP)
        for i in reversed(range(len(ys))):  # ... and up, clear of CASH OUT and the block below
            ys[i] = min(ys[i], limit - height)
            limit = ys[i] - GAP
        war_w, surrender_w = _war_and_surrender(w)
        return tuple(DecisionControls(
            a.spot, (x, y, war_w, ROW_H), (x + war_w + GAP, y, surrender_w, ROW_H),
            (x, y + ROW_H + GAP, w, ROW_H) if war_tie else None)
            for a, y in zip(areas, ys, strict=True))

    def _split(self, area: SpotArea, war_tie: bool) -> DecisionControls:
        """The area's own room split between its controls: across a row, down a column."""
        x, y, w, h = area.rect
        if self.arrangement is Arrangement.ROWS:
            x, _, w, _ = self.felt  # the whole row: the rail beside it is idle while deciding
            if war_tie:
                war, surrender, tie = (_share(w, 3),) * 3
            else:
                (war, surrender), tie = _war_and_surrender(w), 0.0
            return DecisionControls(
                area.spot, (x, y, war, h), (x + war + GAP, y, surrender, h),
                (x + war + surrender + 2 * GAP, y, tie, h) if war_tie else None)
        y += LABEL_H
        cell = _share(h - LABEL_H, 3 if war_tie else 2)
        rows = [(x, y + i * (cell + GAP), w, cell) for i in range(3)]
        return DecisionControls(area.spot, rows[0], rows[1], rows[2] if war_tie else None, True)


def _in_column(area: SpotArea, war_tie: bool) -> DecisionControls:
    x, y, w, _ = area.rect
    y += LABEL_H
    rows = [(x, y + i * (ROW_H + GAP), w, ROW_H) for i in range(3)]
    return DecisionControls(area.spot, rows[0], rows[1], rows[2] if war_tie else None, True)


SURRENDER_W = 136  # "SURRENDER" at 20 px in the narrow face, with its margins


def _war_and_surrender(width: float) -> tuple[float, float]:
    """WAR and SURRENDER side by side in ``width``: SURRENDER is the longer word, and keeps
    :data:`SURRENDER_W` for it at the players' text size where the seat is narrow."""
    war = max(MIN_TARGET, min(round((width - GAP) * 0.42), round(width - GAP - SURRENDER_W)))
    return war, width - GAP - war


def arrange(seat: int, rect: Rect, spots: Sequence[int], payout: bool,
            chips: Sequence[int], bonus: Sequence[int], war_tie: bool = True,
            most_tied: int = 1) -> SeatLayout | None:
    """The seat's panel at ``rect`` laid out, or None if the panel is too short for it.

    ``spots`` are the spots the seat may play, ``payout`` whether the paytable
    offers the Progressive Payout Wager, ``chips`` the chip rail's
    denominations (thinned, smallest and largest kept, if they do not all fit)
    and ``bonus`` the Bonus Spin denominations (none: no Bonus Spin spot).
    The decision controls of ``most_tied`` tied spots (with WAR and a Tie
    Wager if ``war_tie``) must fit too.
    """
    for plan in (_columns(rect, spots, payout, chips, bonus, bands=1),
                 _rows(rect, spots, payout, chips, bonus),
                 _columns(rect, spots, payout, chips, bonus, bands=2)):
        if plan is not None:
            layout = SeatLayout(seat, rect, *plan)
            if _decisions_fit(layout, spots, war_tie, most_tied):
                return layout
    return None


def _decisions_fit(layout: SeatLayout, spots: Sequence[int], war_tie: bool, most: int) -> bool:
    """Whether ``most`` adjacent tied spots, anywhere, get controls that lie apart."""
    for first in range(len(spots) - min(most, len(spots)) + 1):
        rects = [r for block in layout.decision_controls(spots[first:first + most], war_tie)
                 for r in (block.war, block.surrender, block.war_tie) if r is not None]
        if any(min(r[2], r[3]) < MIN_TARGET for r in rects):
            return False
        if any(_overlap(a, b) for i, a in enumerate(rects) for b in rects[i + 1:]):
            return False
        if any(r[1] < layout.felt[1] or r[1] + r[3] > layout.cash_out[1] for r in rects):
            return False
    return True


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def thin(values: Sequence[int], most: int) -> tuple[int, ...]:
    """At most ``most`` of ``values``: the first and the last, and evenly spread between."""
    if len(values) <= most:
        return tuple(values)
    if most <= 1:
        return tuple(values[:most])
    picks = sorted({round(i * (len(values) - 1) / (most - 1)) for i in range(most)})
    return tuple(values[i] for i in picks)


# --------------------------------------------------------------------------- arrangements

_Plan = tuple[Arrangement, Rect, tuple[SpotArea, ...], Rect, tuple[tuple[int, Rect], ...],
              Rect | None, tuple[tuple[int, Rect], ...], Rect, Rect, Rect, Rect]


def _inner(rect: Rect) -> Rect:
    x, y, w, h = rect
    return x + PAD, y + HEADER_H + PAD, w - 2 * PAD, h - HEADER_H - 2 * PAD


def _columns(rect: Rect, spots: Sequence[int], payout: bool, chips: Sequence[int],
             bonus: Sequence[int], bands: int) -> _Plan | None:
    """Spots side by side; under them the chip rail, the actions, Bonus Spin and CASH OUT."""
    x, y, w, h = _inner(rect)
    per_band = math.ceil(len(spots) / bands)
    if bands > 1 and per_band * (bands - 1) >= len(spots):
        return None  # a band would be empty
    column = _share(w, per_band)
    circles = 3 if payout else 2
    felt_h = h - 3 * (ROW_H + GAP)
    band_h = (felt_h - (bands - 1) * GAP) / bands
    room = band_h - LABEL_H - (circles - 1) * GAP
    initial = min(column, INITIAL_MAX, room - (circles - 1) * MIN_TARGET)
    small = min(column, SMALL_MAX, initial, (room - initial) / (circles - 1))
    rail_top = y + felt_h + GAP
    rail_chips = thin(chips, _fits(w))
    if min(initial, small) < MIN_TARGET or not rail_chips:
        return None
    used = LABEL_H + initial + (circles - 1) * (small + GAP)
    areas = []
    for index, spot in enumerate(spots):
        band, col = divmod(index, per_band)
        left = x + col * (column + GAP)
        top = y + band * (band_h + GAP) + (band_h - used) / 2
        cells = [_square(left, top + LABEL_H, column, initial)]
        below = top + LABEL_H + initial + GAP
        for _ in range(circles - 1):
            cells.append(_square(left, below, column, small))
            below += small + GAP
        areas.append(SpotArea(spot, (left, top, column, used), cells[0], cells[1],
                              cells[2] if payout else None, (left, top, column, LABEL_H)))
    rail = (x, rail_top, w, ROW_H)
    size = min(ROW_H, _share(w, len(rail_chips)))
    span = len(rail_chips) * size + (len(rail_chips) - 1) * GAP
    chip_rects = tuple((value, (x + (w - span) / 2 + i * (size + GAP), rail_top, size, ROW_H))
                       for i, value in enumerate(rail_chips))
    actions_top = rail_top + ROW_H + GAP
    clear, repeat, double = _split(x, actions_top, w, 3)
    bonus_area, bonus_rects, cash_out = _bottom_row(x, actions_top + ROW_H + GAP, w, bonus)
    return (Arrangement.COLUMNS, (x, y, w, felt_h), tuple(areas), rail, chip_rects, bonus_area,
            bonus_rects, clear, repeat, double, cash_out)


def _rows(rect: Rect, spots: Sequence[int], payout: bool, chips: Sequence[int],
          bonus: Sequence[int]) -> _Plan | None:
    """A row of circles per spot; the chip rail (and Bonus Spin) down the right-hand side."""
    x, y, w, h = _inner(rect)
    n = len(spots)
    circles = 3 if payout else 2
    cell = _share(w, circles + 1)
    rail_chips = thin(chips, n)
    bonus_beside = len(rail_chips) + len(bonus) <= n
    felt_h = h - 2 * (ROW_H + GAP) - (0 if bonus_beside or not bonus else ROW_H + GAP)
    row = (felt_h - (n - 1) * GAP) / n
    size = min(cell, row, INITIAL_MAX)
    if size < MIN_TARGET or len(rail_chips) < min(len(chips), 2):
        return None
    areas = []
    for index, spot in enumerate(spots):
        top = y + index * (row + GAP)
        cells = [_square(x + j * (cell + GAP), top, cell, size, row) for j in range(circles)]
        areas.append(SpotArea(spot, (x, top, circles * cell + (circles - 1) * GAP, row),
                              cells[0], cells[1], cells[2] if payout else None, None))
    side = x + circles * (cell + GAP)
    chip_rects = tuple((value, _square(side, y + i * (row + GAP), cell, size, row))
                       for i, value in enumerate(rail_chips))
    rail = (side, y, cell, len(rail_chips) * (row + GAP) - GAP)
    below = y + felt_h + GAP
    if bonus_beside and bonus:
        first = y + len(rail_chips) * (row + GAP)
        bonus_rects = tuple((value, _square(side, first + i * (row + GAP), cell, size, row))
                            for i, value in enumerate(bonus))
        bonus_area: Rect | None = (side, first, cell, len(bonus) * (row + GAP) - GAP)
        clear, repeat, double = _split(x, below, w, 3)
        cash_out: Rect = (x, below + ROW_H + GAP, w, ROW_H)
    else:
        clear, repeat, double = _split(x, below, w, 3)
        bonus_area, bonus_rects, cash_out = _bottom_row(x, below + ROW_H + GAP, w, bonus)
    return (Arrangement.ROWS, (x, y, w, felt_h), tuple(areas), rail, chip_rects, bonus_area,
            bonus_rects, clear, repeat, double, cash_out)


def _bottom_row(x: float, top: float, w: float, bonus: Sequence[int]
                ) -> tuple[Rect | None, tuple[tuple[int, Rect], ...], Rect]:
    """The Bonus Spin spot at the left (if offered) and CASH OUT filling the rest."""
    if not bonus:
        return None, (), (x, top, w, ROW_H)
    span = len(bonus) * (BONUS_W + GAP)
    rects = tuple((value, (x + i * (BONUS_W + GAP), top, BONUS_W, ROW_H))
                  for i, value in enumerate(bonus))
    return (x, top, span - GAP, ROW_H), rects, (x + span, top, w - span, ROW_H)


def _share(width: float, count: int) -> float:
    """The width of each of ``count`` cells side by side in ``width``."""
    return (width - (count - 1) * GAP) / count


def _fits(width: float) -> int:
    """How many targets of the minimum size fit side by side in ``width``."""
    return int((width + GAP) // (MIN_TARGET + GAP))


def _split(x: float, top: float, w: float, count: int) -> tuple[Rect, ...]:
    cell = _share(w, count)
    return tuple((x + i * (cell + GAP), top, cell, ROW_H) for i in range(count))


def _square(left: float, top: float, width: float, size: float,
            height: float | None = None) -> Rect:
    """A ``size`` square centred across ``width`` (and down ``height``, if given)."""
    down = 0.0 if height is None else (height - size) / 2
    return left + (width - size) / 2, top + down, size, size
