"""The cashier: moves settled wagers to the seats or the house within one command.

It accumulates in local lists and builds the new state once, however many
wagers a deal settles, so the engine stays a pure function at the speed a
simulator needs. Winnings above the payout limit per hand (MD Ch. 2 B(5)(b))
stay with the house and are recorded as ``capped``; meter awards are outside
the limit unless the paytable says otherwise (SPEC §2).

On a table with :class:`~etg.core.jackpot.JackpotRules`, a progressive award
and any award at or above the hand-pay threshold are *held* instead of paid
(MD Ch. 9 J(4)): they wait in :attr:`Cashier.held` for the engine to lock the
table, and :meth:`Cashier.release` pays them once a floorperson validates.
"""

from __future__ import annotations

from typing import Any

from etg.core.events import Event, HandPaid, ProgressiveAwarded, WagerSettled
from etg.core.evolve import evolve
from etg.core.jackpot import HeldAward
from etg.core.paytable import ProgressiveLevel
from etg.core.progressive import award
from etg.core.settle import Payment, Result, WagerKind
from etg.core.state import LEVELS, SpotWagers, TableState

# The spot wagers' kinds name the SpotWagers fields they settle; the others are not on a spot.
_SPOT_FIELDS = {kind: kind.value for kind in (WagerKind.INITIAL, WagerKind.TIE, WagerKind.WAR,
                                              WagerKind.WAR_TIE, WagerKind.PROGRESSIVE_PAYOUT)}
_BONUS_SPIN = WagerKind.BONUS_SPIN
_PROGRESSIVE = WagerKind.PROGRESSIVE


class Cashier:
    def __init__(self, s: TableState, events: list[Event]) -> None:
        r = s.round
        self.s = s
        self.events = events
        self.limit = s.paytable.payout_limit_per_hand_cents
        self.credits = list(s.credits)
        self.house = s.house
        self.staked = list(r.staked)
        self.returned = list(r.returned)
        self.won = list(r.won)
        self.wagers = list(r.wagers)  # per seat, the row of spots: a new tuple when one changes
        self.bonus = list(r.bonus_spin)
        self.meters = list(s.meters)
        self._first_event = len(events)  # this command's WagerSettled events are its results
        rules = s.jackpot_rules
        self.hand_pay = None if rules is None else rules.hand_pay_cents  # None: never hold
        self.held: list[HeldAward] = []  # awards waiting for a jackpot's validation
        self.hold_all = False  # hold every award now (the Envy Bonuses after a held hand)

    def wager(self, seat: int, spot: int) -> SpotWagers:
        return self.wagers[seat - 1][spot - 1]

    def set_wager(self, seat: int, spot: int, wagers: SpotWagers) -> None:
        row = self.wagers[seat - 1]
        self.wagers[seat - 1] = (*row[: spot - 1], wagers, *row[spot:])

    def stake(self, seat: int, spot: int, amount: int, wagers: SpotWagers) -> None:
        """Take ``amount`` from the seat's credits onto the layout as ``wagers``."""
        self.credits[seat - 1] -= amount
        self.staked[seat - 1] += amount
        self.set_wager(seat, spot, wagers)

    def pay(self, seat: int, spot: int, payments: list[Payment], exempt: bool = False) -> None:
        """Settle ``payments`` of one seat; ``exempt`` winnings ignore the payout limit."""
        if not payments:
            return
        i = seat - 1
        credits, returned, won, house = self.credits[i], self.returned[i], self.won[i], self.house
        events = self.events
        cleared: tuple[str, ...] = ()
        for payment in payments:
            win = payment.win
            if not exempt:
                room = self.limit - won
                if win > room:
                    win = room if room > 0 else 0
                won += win
            hand_pay = self.hand_pay
            if hand_pay is not None and (win >= hand_pay or self.hold_all
                                         or payment.kind is _PROGRESSIVE):
                # MD Ch. 9 J(4)(c): validated by a floorperson before it is paid
                self.held.append(HeldAward(seat, spot, payment, win, payment.win - win,
                                           win >= hand_pay))
                continue
            paid = payment.returned + win
            credits += paid
            returned += paid
            house += payment.stake - paid
            events.append(WagerSettled(seat, spot, payment, paid, payment.win - win, credits))
            kind = payment.kind
            if kind is _BONUS_SPIN:
                self.bonus[i] = 0
            elif kind in _SPOT_FIELDS:
                cleared += (_SPOT_FIELDS[kind],)
        self.credits[i], self.returned[i], self.won[i], self.house = credits, returned, won, house
        if cleared:
            row = self.wagers[i]
            settled = evolve(row[spot - 1], **dict.fromkeys(cleared, 0))
            self.wagers[i] = (*row[: spot - 1], settled, *row[spot:])

    def release(self, held: HeldAward, round_number: int, validator: str) -> None:
        """Pay an award a jackpot lock held: to the credits, or by the attendant (a hand pay).

        A hand pay credits only the stake the payment returns; the winnings leave the
        house by the attendant's hand and are recorded as :class:`HandPaid`.
        """
        i = held.seat - 1
        payment = held.payment
        paid = held.to_credits
        self.credits[i] += paid
        self.returned[i] += paid
        self.house += payment.stake - paid - held.by_attendant
        self.events.append(WagerSettled(held.seat, held.spot, payment, paid, held.capped,
                                        self.credits[i]))
        if held.hand_pay:
            self.events.append(HandPaid(round_number, held.seat, held.spot, payment.kind,
                                        held.win, validator))
        kind = payment.kind
        if kind is _BONUS_SPIN:
            self.bonus[i] = 0
        elif kind in _SPOT_FIELDS:
            self.set_wager(held.seat, held.spot,
                           evolve(self.wager(held.seat, held.spot), **{_SPOT_FIELDS[kind]: 0}))

    def award(self, level: ProgressiveLevel, seat: int, spot: int, percent: int) -> None:
        """Pay ``percent`` of the meter as it stands now (MD Ch. 10 D(4)), then reset it."""
        index = LEVELS.index(level)
        rules = self.s.paytable.meter(level)
        state = self.meters[index]
        assert rules is not None and state is not None
        after, done = award(rules, state, percent)
        self.meters[index] = after
        self.events.append(ProgressiveAwarded(level, seat, spot, done.amount, state.cents,
                                              after.cents, done.seeded, done.from_reserve))
        self.pay(seat, spot, [Payment(WagerKind.PROGRESSIVE, Result.WON, 0, 0, done.amount)],
                 exempt=not self.s.paytable.progressive_in_payout_limit)

    def state(self, **changes: Any) -> TableState:
        """The table with everything settled so far, and ``changes``."""
        r = self.s.round
        results = tuple([e for e in self.events[self._first_event:] if type(e) is WagerSettled])
        r = evolve(r, wagers=tuple(self.wagers), staked=tuple(self.staked),
                   returned=tuple(self.returned), won=tuple(self.won),
                   bonus_spin=tuple(self.bonus), results=r.results + results,
                   **changes.pop("round_changes", {}))
        return evolve(self.s, credits=tuple(self.credits), house=self.house, round=r,
                      meters=tuple(self.meters), **changes)

