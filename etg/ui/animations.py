"""The animations the table screen plays, as data: what moves, from where to where, when.

Each is a frozen record of one movement (a card flying from the shoe and turning
over, chips flying to a spot or back to a seat, a banner, a progressive's
celebration, the big win, the wheel's spin) with the moment it starts and ends;
:class:`etg.ui.presenter.Presenter` makes them from the committed events and
:mod:`etg.ui.flights` draws them as a pure function of the time.
"""

from __future__ import annotations

from dataclasses import dataclass

from etg.core.commands import BetKind
from etg.ui.count_up import count_seconds

CardKey = tuple[str, int, bool]  # (dealer | spot, spot number, War deal)

CARD_FLIGHT_S = 0.45
CARD_FLIP_S = 0.25
CHIP_FLIGHT_S = 0.4
CELEBRATION_S = 6.0
BIG_WIN_S = 4.5  # the big-win sequence over the table
COUNT_AFTER_S = 0.3  # a celebration's amount starts counting up once its title has popped


@dataclass(frozen=True)
class CardFlight:
    key: CardKey
    card_code: str
    start: float
    origin: tuple[float, float]
    dest: tuple[float, float, float, float]

    @property
    def end(self) -> float:
        return self.start + CARD_FLIGHT_S + CARD_FLIP_S


@dataclass(frozen=True)
class ChipFlight:
    amount: int
    start: float
    origin: tuple[float, float]
    dest: tuple[float, float]
    seat: int
    lands_on: tuple[int, BetKind] | None = None
    """A placed wager's (spot, kind) on the seat's felt: its stack grows when the chips land."""

    @property
    def end(self) -> float:
        return self.start + CHIP_FLIGHT_S


@dataclass(frozen=True)
class Banner:
    text: str
    start: float
    duration: float
    tone: str = "gold"  # gold, war, void

    @property
    def end(self) -> float:
        return self.start + self.duration


@dataclass(frozen=True)
class Celebration:
    """A progressive hit: the meter amount paid, counting up under the level's title."""

    title: str
    cents: int
    detail: str
    start: float

    @property
    def end(self) -> float:
        return self.start + CELEBRATION_S


@dataclass(frozen=True)
class BigWin:
    """The seats paid at least the cabinet's big-win multiple of their stakes in a round: one
    sequence for them all (the table does not wait a sequence per seat), the largest amount
    paid back counting up."""

    seats: tuple[int, ...]  # in settlement order
    cents: int  # the largest paid back of them: stake and winnings
    start: float

    @property
    def end(self) -> float:
        return self.start + BIG_WIN_S

    @property
    def counted_at(self) -> float:
        """When the amount has counted up to what was paid (a screenshot of it waits for
        this: issue 24 caught one at $274.99 of $275.00)."""
        return self.start + COUNT_AFTER_S + count_seconds(self.cents)


@dataclass(frozen=True)
class Paid:
    """What one of a seat's wagers paid back this round, and when its chips land (count-up)."""

    spot: int  # 0: the seat's Bonus Spin wager, or an award of no spot
    envy: bool  # an Envy Bonus, paid for another seat's hand (MD Ch. 9 J(4)(e))
    cents: int
    lands: float


SPIN_LEAD_S = 0.25
"""From the spin's commit to the wheel setting off: a breath for the players, and the frames
in which the pictures of the rings turning onto their drawn stops are made between frames
(:meth:`etg.ui.wheel.WheelView.work_ahead`), so no frame of the spin makes one."""


@dataclass(frozen=True)
class WheelSpin:
    community: int
    seat: int
    hot_spot: int
    start: float
    end: float


Animation = CardFlight | ChipFlight | Banner | Celebration | BigWin | WheelSpin
