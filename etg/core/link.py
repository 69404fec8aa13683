"""The table's side of a linked progressive (SPEC §13), as commands of the pure engine.

The floor's controller keeps the linked levels; everything it tells the table
comes in as a command carrying the value it answered (the meters it shows, the
amount of a hit, whether it can be reached), journaled like any other, so
``apply`` stays pure and a replay of the ledger alone gives back every round.

- :class:`LinkLevels` (between rounds): which levels the controller keeps.
- :class:`ShowLinkedMeters` (any time): the amounts shown for them.
- :class:`SetLinkStatus` (any time): link down or back. While it is down the
  wagers feeding a linked level are refused, "progressive link down"; the base
  game and the unlinked wagers go on (issue 27, item 3).
- :class:`ConfirmLinkedHit` (in the jackpot lock): the controller's amount for
  a linked hit. The lock cannot be validated before every linked hit it holds
  has its amount, so a hit pending when the link drops keeps the table locked
  until the controller confirms it (MD Ch. 9 J(4)(c); SPEC §13).
"""

from __future__ import annotations

from dataclasses import replace

from etg.core.commands import ConfirmLinkedHit, LinkLevels, SetLinkStatus, ShowLinkedMeters
from etg.core.events import (
    Events,
    LevelsLinked,
    LinkedHitConfirmed,
    LinkedMetersShown,
    LinkStatusChanged,
)
from etg.core.evolve import evolve
from etg.core.jackpot import HeldAward
from etg.core.linked import LINK_DOWN, LinkedMeter
from etg.core.money import format_cents
from etg.core.paytable import ProgressiveLevel
from etg.core.refusal import Reason, Refused
from etg.core.settle import Payment, Result, WagerKind
from etg.core.state import BETWEEN_ROUNDS, Phase, TableState


def link_levels(s: TableState, c: LinkLevels) -> tuple[TableState, Events]:
    """The levels the controller keeps from now on: between rounds, each one offered."""
    if s.phase not in BETWEEN_ROUNDS:
        raise Refused(Reason.ROUND_IN_PROGRESS,
                      f"the link changes only between rounds (the table is {s.phase.value})")
    if len(set(c.levels)) != len(c.levels):
        raise Refused(Reason.NOT_OFFERED, "each linked level is named once")
    for level in c.levels:
        if s.paytable.meter(level) is None:
            raise Refused(Reason.NOT_OFFERED, f"this paytable has no {level.value} meter to link")
    if c.levels and s.paytable.progressive_in_payout_limit:
        # A linked amount is the whole floor's meter: no one table's payout limit caps it.
        raise Refused(Reason.INVALID_PAYTABLE,
                      "a paytable that puts progressive awards inside its payout limit cannot "
                      "link a meter: the controller's amount is paid whole (MD Ch. 10 D(4))")
    kept = {m.level: m for m in s.linked}
    linked = tuple(kept.get(level, LinkedMeter(level)) for level in c.levels)
    previous = tuple(m.level for m in s.linked)
    return (evolve(s, linked=linked, link_down=s.link_down and bool(linked)),
            Events.of(LevelsLinked, c.levels, previous))


def show_linked_meters(s: TableState, c: ShowLinkedMeters) -> tuple[TableState, Events]:
    """The controller's amounts for linked levels, shown from now on."""
    amounts: dict[ProgressiveLevel, int | None] = {}
    for meter in c.meters:
        if s.linked_meter(meter.level) is None:
            raise Refused(Reason.NOT_OFFERED, f"the {meter.level.value} meter is not linked")
        if meter.cents is None or meter.cents < 0:
            raise Refused(Reason.NOT_POSITIVE, f"the controller's {meter.level.value} meter is "
                                               f"an amount of 0 or more, not {meter.cents}")
        amounts[meter.level] = meter.cents
    linked = tuple(replace(m, cents=amounts[m.level]) if m.level in amounts else m
                   for m in s.linked)
    return evolve(s, linked=linked), Events.of(LinkedMetersShown, c.meters)


def set_link_status(s: TableState, c: SetLinkStatus) -> tuple[TableState, Events]:
    """The link went down, or came back."""
    if not s.linked:
        raise Refused(Reason.NOT_OFFERED, "this table links no meter")
    if s.link_down is not c.up:
        state = "up" if c.up else "down"
        raise Refused(Reason.WRONG_PHASE, f"the progressive link is already {state}")
    return evolve(s, link_down=not c.up), Events.of(LinkStatusChanged, c.up)


def confirm_linked_hit(s: TableState, c: ConfirmLinkedHit) -> tuple[TableState, Events]:
    """The controller's amount for a linked hit the lock holds; the lock may then be validated.

    At or above the cabinet's hand-pay threshold it is paid by the attendant, as
    any award is (MD Ch. 9 J(4)(d)).
    """
    lock = s.jackpot
    if s.phase is not Phase.JACKPOT or lock is None:
        raise Refused(Reason.NO_JACKPOT, "no linked jackpot is waiting for its amount")
    at = next((i for i, a in enumerate(lock.awards)
               if not a.confirmed and a.linked is c.level and a.seat == c.seat
               and a.spot == c.spot), None)
    if at is None:
        raise Refused(Reason.NO_JACKPOT, f"no {c.level.value} hit of seat {c.seat} on spot "
                                         f"{c.spot} is waiting for its amount")
    if c.amount < 0 or c.meter_after < 0:
        raise Refused(Reason.NOT_POSITIVE, f"a linked hit pays 0 or more and leaves the meter "
                                           f"at 0 or more, not {format_cents(c.amount)} and "
                                           f"{format_cents(c.meter_after)}")
    held = lock.awards[at]
    rules = s.jackpot_rules
    hand_pay = rules is not None and c.amount >= rules.hand_pay_cents
    paid = HeldAward(held.seat, held.spot, Payment(WagerKind.PROGRESSIVE, Result.WON, 0, 0,
                                                   c.amount),
                     c.amount, 0, hand_pay, held.linked, held.percent, True)
    awards = (*lock.awards[:at], paid, *lock.awards[at + 1:])
    linked = tuple(replace(m, cents=c.meter_after) if m.level is c.level else m
                   for m in s.linked)
    return (evolve(s, jackpot=replace(lock, awards=awards), linked=linked),
            Events.of(LinkedHitConfirmed, lock.round_number, c.level, c.seat, c.spot, c.amount,
                      c.hit_id, c.order_no, c.meter_after, hand_pay))


def linked_wager_refusal(s: TableState, level: ProgressiveLevel) -> None:
    """Refuse a wager feeding ``level`` while the link to its controller is down."""
    if s.link_down and s.linked_meter(level) is not None:
        raise Refused(Reason.LINK_DOWN,
                      f"{LINK_DOWN}: the {level.value} meter is kept by the floor's controller, "
                      f"which cannot be reached; the base game and unlinked wagers go on")


def unconfirmed_refusal(s: TableState) -> None:
    """Refuse a validation while a linked hit of the lock has no amount yet."""
    lock = s.jackpot
    if lock is not None and lock.unconfirmed:
        held = lock.unconfirmed[0]
        level = held.linked.value if held.linked is not None else "linked"
        raise Refused(Reason.LINK_PENDING,
                      f"the {level} hit of seat {held.seat} waits for its amount from the "
                      f"floor's controller: the lock holds until the controller confirms it")
