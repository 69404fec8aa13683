"""Jackpot validation and hand pays (MD Ch. 9 J(4)(a)-(e)).

A progressive award (a meter-paid Progressive Payout Hand, a Hot Spot
progressive on the wheel) and any single award at or above the cabinet's
hand-pay threshold are not paid when the cards decide them. The award is
*held*: the table stops in a jackpot lock with the hand and the progressive
light on screen, until a floorperson or above validates it (MD Ch. 9 J(4)(a)-(c)).
Then the held awards are paid in the order they were won, the hand before the
Envy Bonuses it earned the other seats (J(4)(d)-(e)): below the threshold to
the seat's credits, at or above it by the attendant, a *hand pay*, which never
touches the credits.

Whether an award is a hand pay is decided when it is held, with the threshold
of that moment, so a lock resumed after a restart pays exactly what it showed.

A table without :class:`JackpotRules` (the simulators, and rounds recorded
before this procedure existed) pays every award straight to the credits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from etg.core.paytable import ProgressiveLevel
from etg.core.settle import Payment, WagerKind

DEFAULT_HAND_PAY_CENTS = 120_000
"""$1,200.00: the cabinet's default hand-pay threshold.

The figure at which a U.S. casino's slot jackpots are customarily hand paid
(the IRS W-2G reporting threshold for slot machine winnings), so attendants
and the cage already work with it; ``cabinet.yaml`` sets the table's own.
"""


@dataclass(frozen=True, slots=True)
class JackpotRules:
    """The cabinet's jackpot procedure: a single award of ``hand_pay_cents`` or more is paid
    by the attendant; it and every progressive award lock the table until validated."""

    hand_pay_cents: int = DEFAULT_HAND_PAY_CENTS


class ValidatorRole(Enum):
    """Who may validate a jackpot: "a floorperson or above" (MD Ch. 9 J(4)(c)).

    The values are the roles' names in the PIN registry (``etg.table.pin.PinRole``),
    which checks the PIN before a validation is sent.
    """

    FLOORPERSON = "floorperson"
    SUPERVISOR = "supervisor"


def validator_words(validator: str, role: ValidatorRole | None) -> str:
    """Who validated, for recall and export: the ID and the role it was checked in.

    A role's own PIN has the role's name for its ID: said once. A validation recorded
    before the role was recorded (``role`` None) says so rather than guess it.
    """
    if role is None:
        return f"{validator} (role not recorded)"
    return validator if validator == role.value else f"{validator} ({role.value})"


class AfterJackpot(Enum):
    """What the round does once the lock is validated: the step the award interrupted."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    DECISIONS = "decisions"  # tie hands then choose War or Surrender (MD Ch. 9 E)
    BONUS_SPIN = "bonus_spin"  # after the Progressive Payout Wagers: the Bonus Spin (SPEC §2)
    COMPLETE = "complete"  # after the wheel: the round is over


@dataclass(frozen=True, slots=True)
class HeldAward:
    """One payment held by a jackpot lock.

    ``win`` is the winnings after the payout limit (``capped`` withheld by it);
    ``hand_pay``: paid by the attendant, not to the credits. The stake a
    payment returns always goes back to the credits: it is the player's own.

    A linked meter's award (SPEC §13) names its ``linked`` level and ``percent``;
    until the floor's controller says its amount it is held with none
    (``confirmed`` False), and the lock cannot be validated.
    """

    seat: int
    spot: int  # 0: the seat's own (Bonus Spin, Envy Bonus, a Hot Spot progressive)
    payment: Payment
    win: int
    capped: int
    hand_pay: bool
    linked: ProgressiveLevel | None = None
    percent: int = 0
    confirmed: bool = True

    @property
    def to_credits(self) -> int:
        """What the seat's credits receive when the lock is validated."""
        return self.payment.returned + (0 if self.hand_pay else self.win)

    @property
    def by_attendant(self) -> int:
        """What the attendant pays the player by hand."""
        return self.win if self.hand_pay else 0


@dataclass(frozen=True, slots=True)
class JackpotLock:
    """The table's jackpot lock: the held awards, in the order they will be paid."""

    round_number: int
    awards: tuple[HeldAward, ...]
    then: AfterJackpot

    @property
    def amount(self) -> int:
        """Winnings held: what validation pays to credits and by hand, stakes apart."""
        return sum(a.win for a in self.awards)

    @property
    def hand_pay_amount(self) -> int:
        return sum(a.by_attendant for a in self.awards)

    @property
    def unconfirmed(self) -> tuple[HeldAward, ...]:
        """The linked awards still waiting for the controller's amount (SPEC §13)."""
        return tuple(a for a in self.awards if not a.confirmed)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats with an award held, in the order they will be paid."""
        return tuple(dict.fromkeys(a.seat for a in self.awards))


def paid_on_validation(settled: Iterable[tuple[int, int, Payment, int, int]],
                       rules: JackpotRules | None) -> bool:
    """Whether a round's results (``Round.settled()``) hold an award a validation paid.

    Under jackpot rules every progressive award is held until validated, and a hand
    pay is the one result whose winnings (its win less what the limit capped) are
    more than it credited. Such a round has paid money that no void can take back
    (SPEC §2): the attendant's cash, a meter reset before the players' eyes.
    """
    for _seat, _spot, payment, paid, capped in settled:
        if payment.win - capped > paid - payment.returned:
            return True  # a hand pay: the winnings left by the attendant's hand
        if rules is not None and payment.kind is WagerKind.PROGRESSIVE:
            return True
    return False
