"""The cashier: moves settled wagers to the seats or the house within one command.

It accumulates in local lists and builds the new state once, however many
wagers a deal settles, so the engine stays a pure function at the speed a
simulator needs. Winnings above the payout limit per hand (MD Ch. 2 B(5)(b))
stay with the house and are recorded as ``capped``; meter awards are outside
the limit unless the paytable says otherwise (SPEC §2).
"""

from __future__ import annotations

from typing import Any

from etg.core.events import Event, ProgressiveAwarded, WagerSettled
from etg.core.evolve import evolve
from etg.core.paytable import ProgressiveLevel
from etg.core.progressive import award
from etg.core.settle import Payment, Result, WagerKind
from etg.core.state import LEVELS, SpotWagers, TableState

_SPOT_FIELDS = frozenset({WagerKind.INITIAL, WagerKind.TIE, WagerKind.WAR, WagerKind.WAR_TIE,
                          WagerKind.PROGRESSIVE_PAYOUT})


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
        self.wagers = [list(row) for row in r.wagers]
        self.bonus = list(r.bonus_spin)
        self.meters = list(s.meters)
        self.results: list[WagerSettled] = []

    def wager(self, seat: int, spot: int) -> SpotWagers:
        return self.wagers[seat - 1][spot - 1]

    def stake(self, seat: int, spot: int, amount: int, wagers: SpotWagers) -> None:
        """Take ``amount`` from the seat's credits onto the layout as ``wagers``."""
        self.credits[seat - 1] -= amount
        self.staked[seat - 1] += amount
        self.wagers[seat - 1][spot - 1] = wagers

    def pay(self, seat: int, spot: int, payments: list[Payment], exempt: bool = False) -> None:
        """Settle ``payments`` of one seat; ``exempt`` winnings ignore the payout limit."""
        if not payments:
            return
        i = seat - 1
        for payment in payments:
            win = payment.win if exempt else min(payment.win, max(0, self.limit - self.won[i]))
            paid = payment.returned + win
            self.credits[i] += paid
            self.returned[i] += paid
            if not exempt:
                self.won[i] += win
            self.house += payment.stake - paid
            settled = WagerSettled(seat, spot, payment, paid, payment.win - win, self.credits[i])
            self.results.append(settled)
            self.events.append(settled)
            if payment.kind is WagerKind.BONUS_SPIN:
                self.bonus[i] = 0
        # The spot wagers' kinds name the SpotWagers fields they settle.
        cleared = {p.kind.value: 0 for p in payments if p.kind in _SPOT_FIELDS}
        if cleared:
            self.wagers[i][spot - 1] = evolve(self.wagers[i][spot - 1], **cleared)

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
        r = self.s.round
        r = evolve(r, wagers=tuple(tuple(row) for row in self.wagers), staked=tuple(self.staked),
                   returned=tuple(self.returned), won=tuple(self.won),
                   bonus_spin=tuple(self.bonus), results=r.results + tuple(self.results),
                   **changes.pop("round_changes", {}))
        return evolve(self.s, credits=tuple(self.credits), house=self.house, round=r,
                      meters=tuple(self.meters), **changes)
