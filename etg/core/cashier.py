"""The cashier: moves settled wagers to the seats or the house within one command.

It accumulates in local lists and builds the new state once, however many
wagers a deal settles, so the engine stays a pure function at the speed a
simulator needs. Winnings above the payout limit per hand (MD Ch. 2 B(5)(b))
stay with the house and are recorded as ``capped``. Which winnings count, and
over what, is the paytable's :class:`~etg.core.paytable.PayoutLimit`: the
fixed-odds wagers of one hand (one seat's wagers on one spot), or of a seat's
whole round; the Bonus Spin, the Envy Bonus and meter awards only where the
paytable puts them inside (SPEC §2).

On a table with :class:`~etg.core.jackpot.JackpotRules`, a progressive award
and any award at or above the hand-pay threshold are *held* instead of paid
(MD Ch. 9 J(4)): they wait in :attr:`Cashier.held` for the engine to lock the
table, and :meth:`Cashier.release` pays them once a floorperson validates.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from etg.core.events import Events, HandPaid, LinkedHitPending, ProgressiveAwarded, WagerSettled
from etg.core.evolve import evolve
from etg.core.jackpot import HeldAward, ValidatorRole
from etg.core.paytable import PayoutLimit, PayoutLimitScope, ProgressiveLevel
from etg.core.progressive import award
from etg.core.settle import Payment, Result, WagerKind
from etg.core.state import (
    LEVELS,
    Recorded,
    SpotWagers,
    TableState,
    settlement_order,
    without,
)

# The spot wagers' kinds name the SpotWagers fields they settle; the others are not on a spot.
_SPOT_FIELDS = {kind: kind.value for kind in (WagerKind.INITIAL, WagerKind.TIE, WagerKind.WAR,
                                              WagerKind.WAR_TIE, WagerKind.PROGRESSIVE_PAYOUT)}
_BONUS_SPIN = WagerKind.BONUS_SPIN
_HAND = PayoutLimitScope.HAND
_FIXED_ODDS = frozenset(_SPOT_FIELDS)  # a hand's own wagers: always inside the limit


@lru_cache(maxsize=64)
def limited_kinds(limit: PayoutLimit, progressive_inside: bool) -> frozenset[WagerKind]:
    """The kinds of payment whose winnings count against ``limit``."""
    kinds = set(_FIXED_ODDS)
    if limit.bonus_spin_inside:
        kinds.add(WagerKind.BONUS_SPIN)
    if limit.envy_bonus_inside:
        kinds.add(WagerKind.ENVY_BONUS)
    if progressive_inside:
        kinds.add(WagerKind.PROGRESSIVE)
    return frozenset(kinds)
_PROGRESSIVE = WagerKind.PROGRESSIVE


class Cashier:
    def __init__(self, s: TableState, events: Events) -> None:
        r = s.round
        self.s = s
        self.events = events
        p = s.paytable
        rules = p.payout_limit_rules
        self.limit = rules.amount_cents
        self.limited = limited_kinds(rules, p.progressive_in_payout_limit)
        self.per_hand = rules.scope is _HAND
        self._hands: dict[tuple[int, int], int] | None = None  # per (seat, spot), when needed
        self.credits = list(s.credits)
        self.house = s.house
        self.staked = list(r.staked)
        self.returned = list(r.returned)
        self.won = list(r.won)
        self.wagers = list(r.wagers)  # per seat, the row of spots: a new tuple when one changes
        self.bonus = list(r.bonus_spin)
        self.meters = list(s.meters)
        # This command's results: its WagerSettled events, recorded (see Round.settling)
        self.settled: list[Recorded] = []
        self._record = events.record
        jackpot = s.jackpot_rules
        self.hand_pay = None if jackpot is None else jackpot.hand_pay_cents  # None: never hold
        self.held: list[HeldAward] = []  # awards waiting for a jackpot's validation
        self.hold_all = False  # hold every award now (the Envy Bonuses after a held hand)
        self._in_order: list[tuple[int, int, SpotWagers]] | None = None

    def hands(self) -> list[tuple[int, int, SpotWagers]]:
        """The hands with wagers as this command found them, in settlement order (found once).

        Each is (seat, spot, the hand's wagers then); :meth:`wager` reads them as they are now.
        """
        if self._in_order is None:
            self._in_order = settlement_order(self.s.round.wagers, self.s.settles_from_left)
        return self._in_order

    def wager(self, seat: int, spot: int) -> SpotWagers:
        return self.wagers[seat - 1][spot - 1]

    def set_wager(self, seat: int, spot: int, wagers: SpotWagers) -> None:
        row = list(self.wagers[seat - 1])
        row[spot - 1] = wagers
        self.wagers[seat - 1] = tuple(row)

    def stake(self, seat: int, spot: int, amount: int, wagers: SpotWagers) -> None:
        """Take ``amount`` from the seat's credits onto the layout as ``wagers``."""
        self.credits[seat - 1] -= amount
        self.staked[seat - 1] += amount
        self.set_wager(seat, spot, wagers)

    def pay(self, seat: int, spot: int, payments: list[Payment]) -> None:
        """Settle ``payments`` of one seat on ``spot`` (0: the seat's own), within the limit."""
        i = seat - 1
        credits, returned, won, house = self.credits[i], self.returned[i], self.won[i], self.house
        hand_pay = self.hand_pay
        cleared: list[str] = []
        for payment in payments:
            kind = payment.kind
            win = payment.win
            if win and kind in self.limited:
                if self.per_hand:
                    hands = self._won_on_hands()
                    so_far = hands.get((seat, spot), 0)
                else:
                    so_far = won
                room = self.limit - so_far
                if win > room:
                    win = room if room > 0 else 0
                won += win
                if self.per_hand:
                    hands[seat, spot] = so_far + win
            if hand_pay is not None and (win >= hand_pay or self.hold_all or kind is _PROGRESSIVE):
                # MD Ch. 9 J(4)(c): validated by a floorperson before it is paid
                self.held.append(HeldAward(seat, spot, payment, win, payment.win - win,
                                           win >= hand_pay))
                continue
            paid = payment.returned + win
            credits += paid
            returned += paid
            house += payment.stake - paid
            self.settled.append(self._record(WagerSettled, seat, spot, payment, paid,
                                             payment.win - win, credits))
            if kind is _BONUS_SPIN:
                self.bonus[i] = 0
            elif kind in _SPOT_FIELDS:
                cleared.append(_SPOT_FIELDS[kind])
        self.credits[i], self.returned[i], self.won[i], self.house = credits, returned, won, house
        if cleared:
            self._clear(seat, spot, cleared)

    def collect(self, seat: int, spot: int, payment: Payment) -> None:
        """A lost wager's stake goes to the house: :meth:`pay` of one loss, in fewer steps."""
        hand_pay = self.hand_pay
        if hand_pay is not None and (self.hold_all or hand_pay <= 0
                                     or payment.kind is _PROGRESSIVE):
            self.pay(seat, spot, [payment])  # held, as pay() holds it
            return
        self.house += payment.stake
        self.settled.append(self._record(WagerSettled, seat, spot, payment, 0, 0,
                                         self.credits[seat - 1]))
        kind = payment.kind
        if kind is _BONUS_SPIN:
            self.bonus[seat - 1] = 0
        elif kind in _SPOT_FIELDS:
            self._clear(seat, spot, (_SPOT_FIELDS[kind],))

    def release(self, held: HeldAward, round_number: int, validator: str,
                role: ValidatorRole | None) -> None:
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
        self.settled.append(self._record(WagerSettled, held.seat, held.spot, payment, paid,
                                         held.capped, self.credits[i]))
        if held.hand_pay:
            self.events.record(HandPaid, round_number, held.seat, held.spot, payment.kind,
                               held.win, validator, role)
        kind = payment.kind
        if kind is _BONUS_SPIN:
            self.bonus[i] = 0
        elif kind in _SPOT_FIELDS:
            self._clear(held.seat, held.spot, (_SPOT_FIELDS[kind],))

    def award(self, level: ProgressiveLevel, seat: int, spot: int, percent: int) -> None:
        """Pay ``percent`` of the meter as it stands now (MD Ch. 10 D(4)), then reset it.

        A linked level's meter is the floor controller's: the award is held in the jackpot
        lock with no amount until the controller confirms it (SPEC §13).
        """
        if self.s.linked and self.s.linked_meter(level) is not None:
            self.events.record(LinkedHitPending, level, seat, spot, percent)
            self.held.append(HeldAward(seat, spot, Payment(WagerKind.PROGRESSIVE, Result.WON,
                                                           0), 0, 0, False, level, percent,
                                       False))
            return
        index = LEVELS.index(level)
        rules = self.s.paytable.meter(level)
        state = self.meters[index]
        assert rules is not None and state is not None
        after, done = award(rules, state, percent)
        self.meters[index] = after
        self.events.record(ProgressiveAwarded, level, seat, spot, done.amount, state.cents,
                           after.cents, done.seeded, done.from_reserve)
        self.pay(seat, spot, [Payment(WagerKind.PROGRESSIVE, Result.WON, 0, 0, done.amount)])

    def give_back(self, seat: int, spot: int, payments: list[Payment]) -> int:
        """Return the whole stake of each of ``payments`` to the seat, unsettled (a void).

        No WagerSettled: a voided wager was never decided, so it is neither coin in
        nor coin out (MD Ch. 11 C). Returns the cents credited.
        """
        i = seat - 1
        amount = sum(payment.stake for payment in payments)
        self.credits[i] += amount
        self.returned[i] += amount
        fields = [_SPOT_FIELDS[p.kind] for p in payments if p.kind in _SPOT_FIELDS]
        if any(p.kind is _BONUS_SPIN for p in payments):
            self.bonus[i] = 0
        if fields:
            self._clear(seat, spot, fields)
        return amount

    def _clear(self, seat: int, spot: int, fields: Iterable[str]) -> None:
        """Take the wagers named by ``fields`` off the hand: settled, collected or returned."""
        row = list(self.wagers[seat - 1])
        row[spot - 1] = without(row[spot - 1], fields)
        self.wagers[seat - 1] = tuple(row)

    def _won_on_hands(self) -> dict[tuple[int, int], int]:
        """Winnings counted against the limit so far this round, per (seat, spot) hand.

        A result's winnings are what it won less what the limit withheld, however they
        were paid: a hand pay credits only its stake, the attendant pays the rest, and
        it still counts (MD Ch. 2 B(5)(b): the limit is per hand, SPEC §5).
        """
        hands = self._hands
        if hands is None:
            # Earlier commands' settlements are the round's results: one pass, then kept.
            hands = self._hands = {}
            limited = self.limited
            for seat, spot, payment, _paid, capped in self.s.round.settled():
                if payment.kind in limited:
                    key = (seat, spot)
                    hands[key] = hands.get(key, 0) + payment.win - capped
        return hands

    def state(self, **changes: Any) -> TableState:
        """The table with everything settled so far, and ``changes``."""
        r = self.s.round.settling(self.settled, wagers=tuple(self.wagers),
                                  staked=tuple(self.staked), returned=tuple(self.returned),
                                  won=tuple(self.won), bonus_spin=tuple(self.bonus),
                                  **changes.pop("round_changes", {}))
        return evolve(self.s, credits=tuple(self.credits), house=self.house, round=r,
                      meters=tuple(self.meters), **changes)
