"""Progressive meters in integer cents, with nothing ever lost to rounding.

How fractions of a cent are carried: a rate of progression is exact in
millionths (``Meter.rate_millionths``). A contribution of ``w`` cents adds
``w * rate_millionths`` millionths of a cent to the meter's ``carry``; whole
cents move from the carry to the meter and the rest (under one cent) stays in
the carry for the next contribution. So the sum of all contributions, in
millionths, always equals the meter's growth plus its reserve plus its carry.

Above the optional ceiling, whole cents overflow to the ``reserve``. After an
award the reserve flows back onto the meter, up to the ceiling, so overflow
always returns to the players.

An award pays the meter as it stands when that seat is paid (MD Ch. 10 D(4)),
``percent`` of it rounded down to the cent; what remains stays on the meter.
If less than the reset amount remains, the meter restarts at the reset amount,
the house seeding the difference (MD Ch. 10 C(2), D(3)).
"""

from __future__ import annotations

from dataclasses import dataclass

from etg.core.paytable import RATE_SCALE, Meter


@dataclass(frozen=True, slots=True)
class MeterState:
    cents: int
    carry: int = 0  # millionths of a cent not yet on the meter, 0 <= carry < RATE_SCALE
    reserve_cents: int = 0


@dataclass(frozen=True, slots=True)
class Contribution:
    """What one contribution did: millionths added, cents onto the meter and into the reserve."""

    millionths: int
    to_meter: int
    to_reserve: int


@dataclass(frozen=True, slots=True)
class Award:
    """A meter award: the amount paid, the house's seed and the reserve used to reset."""

    amount: int
    seeded: int
    from_reserve: int


def initial_state(rules: Meter) -> MeterState:
    return MeterState(rules.initial_cents)


def contribute(rules: Meter, state: MeterState, wagers_cents: int) -> tuple[MeterState,
                                                                            Contribution]:
    """Add the meter's share of ``wagers_cents`` of wagers (MD Ch. 10 C(1), D(3)(a))."""
    millionths = wagers_cents * rules.rate_millionths
    total = state.carry + millionths
    whole, carry = divmod(total, RATE_SCALE)
    cents = state.cents + whole
    reserve = 0
    if rules.ceiling_cents is not None and cents > rules.ceiling_cents:
        reserve = cents - max(rules.ceiling_cents, state.cents)
        cents -= reserve
    return (MeterState(cents, carry, state.reserve_cents + reserve),
            Contribution(millionths, whole - reserve, reserve))


def award(rules: Meter, state: MeterState, percent: int) -> tuple[MeterState, Award]:
    """Pay ``percent`` of the meter as it stands; reset if less than the reset amount remains."""
    amount = state.cents * percent // 100
    remaining = state.cents - amount
    seeded = max(0, rules.reset_cents - remaining)
    cents = remaining + seeded
    room = (rules.ceiling_cents - cents) if rules.ceiling_cents is not None else None
    from_reserve = state.reserve_cents if room is None else max(0, min(state.reserve_cents, room))
    after = MeterState(cents + from_reserve, state.carry, state.reserve_cents - from_reserve)
    return after, Award(amount, seeded, from_reserve)
