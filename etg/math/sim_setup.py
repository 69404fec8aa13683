"""Who plays what in a whole-game simulation: the same table for both simulators.

A :class:`TableSetup` is a table of seats that bet the same way every round:
each seat plays its spots with the Initial Wager, the Tie Wager and, where the
paytable offers it, the Progressive Payout Wager on each spot, and one Bonus
Spin wager; on a tie it always goes to War (with the Tie Wager on the War deal
where offered) or always surrenders. The Bonus Spin denomination is drawn
afresh for every seat and round: the smallest with probability ``mix``, else
the largest, so any share of $1 wagers can be simulated, not only a multiple
of one seat in six.

:func:`etg.math.vector_full.simulate_full` plays a setup in NumPy and
:func:`etg.math.engine_sim.simulate_engine_full` through the real state
machine, with :func:`bots` as the players.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from etg.core.paytable import Decision, Layout, Paytable
from etg.table.bots import Bot


@dataclass(frozen=True)
class SeatPlay:
    """One seat: the spots it plays (1-based, ascending) and its decision on every tie."""

    seat: int
    spots: tuple[int, ...]
    decision: Decision


@dataclass(frozen=True)
class TableSetup:
    """Every seat's play, the wager amounts in cents (0: not placed) and the Bonus Spin mix.

    ``mix`` is the share of Bonus Spin wagers in the smallest denomination; the
    rest are in the largest. ``bonus_spin`` says whether every seat places one.
    """

    seats: tuple[SeatPlay, ...]
    mix: Fraction
    initial_cents: int
    tie_cents: int
    war_tie_cents: int
    payout_cents: int
    bonus_spin: bool

    def players(self, spot: int, decision: Decision | None = None) -> int:
        """How many seats play ``spot`` (with ``decision``, if given)."""
        return sum(1 for s in self.seats
                   if spot in s.spots and (decision is None or s.decision is decision))

    def decides(self, decision: Decision) -> bool:
        """Some seat makes ``decision`` on its ties."""
        return any(s.decision is decision for s in self.seats)


def standard_mix(paytable: Paytable, mix: Fraction | None = None) -> Fraction:
    """``mix``, checked to lie in [0, 1]; None gives one half."""
    value = Fraction(1, 2) if mix is None else Fraction(mix)
    if not 0 <= value <= 1:
        raise ValueError(f"the share of the smallest Bonus Spin wager must be 0 to 1, not {mix}")
    return value


def standard_setup(paytable: Paytable, mix: Fraction | None = None,
                   decision: Decision = Decision.WAR) -> TableSetup:
    """Every seat of the table plays every wager offered, at the minimum amounts.

    Community layout: seat ``k`` plays ``max_spots_per_seat`` adjacent spots
    (MD Ch. 7 E) starting at spot ``(k − 1) mod (spots − max_spots_per_seat + 1) + 1``,
    so the seats' blocks slide along the layout and, with six seats, cover
    every spot of 3, 5 or 7; per-seat layout: seat ``k`` plays spot ``k``.
    """
    spots = paytable.spot_count
    width = paytable.max_spots_per_seat
    seats: list[SeatPlay] = []
    for seat in range(1, paytable.seats + 1):
        if paytable.layout is Layout.COMMUNITY:
            first = (seat - 1) % (spots - width + 1) + 1
            played = tuple(range(first, first + width))
        else:
            played = (seat,)
        seats.append(SeatPlay(seat, played, decision))
    tie = paytable.limits.tie.min_cents
    return TableSetup(
        seats=tuple(seats),
        mix=standard_mix(paytable, mix),
        initial_cents=paytable.limits.initial.min_cents,
        tie_cents=tie,
        war_tie_cents=tie if paytable.war_tie_wager else 0,
        payout_cents=paytable.progressive_payout.wager_cents if paytable.progressive_payout else 0,
        bonus_spin=paytable.bonus_spin is not None,
    )


def denominations(paytable: Paytable) -> tuple[int, int]:
    """(smallest, largest) Bonus Spin wager in cents; (0, 0) without a Bonus Spin."""
    if paytable.bonus_spin is None:
        return 0, 0
    amounts = paytable.bonus_spin.denominations_cents
    return min(amounts), max(amounts)


def bots(setup: TableSetup, bonus_cents: dict[int, int] | None = None) -> tuple[Bot, ...]:
    """The setup's seats as :class:`etg.table.bots.Bot` players; ``bonus_cents`` by seat now."""
    bonus_cents = bonus_cents or {}
    return tuple(
        Bot(seat=s.seat, spots=s.spots, initial=setup.initial_cents, tie=setup.tie_cents,
            decision=s.decision,
            war_tie=setup.war_tie_cents if s.decision is Decision.WAR else 0,
            progressive_payout=setup.payout_cents, bonus_spin=bonus_cents.get(s.seat, 0))
        for s in setup.seats)
