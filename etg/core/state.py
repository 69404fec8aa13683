"""The table's state: frozen values that :func:`etg.core.engine.apply` turns into new ones.

Seats and spots are numbered from 1, at the dealer's far left (MD Ch. 8 F).
Everything money is integer cents.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from etg.core.cards import Card
from etg.core.events import WagerSettled
from etg.core.jackpot import JackpotLock, JackpotRules
from etg.core.linked import LinkedMeter
from etg.core.paytable import Decision, Paytable, ProgressiveLevel, SettleFrom
from etg.core.progressive import MeterState, initial_state
from etg.core.settle import Outcome, Payment, compare
from etg.core.shoe import ShoeState
from etg.core.wheel import WheelStops


class Phase(Enum):
    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    IDLE = "idle"  # between rounds
    BETTING = "betting"  # MD Ch. 7 C: wagers before "no more bets"
    BETS_CLOSED = "bets_closed"  # MD Ch. 7 D: locked
    DEALT = "dealt"  # original deal on the table (MD Ch. 8 F)
    DECISIONS = "decisions"  # tie hands choose War or Surrender (MD Ch. 9 E)
    WAR_PENDING = "war_pending"  # War Wagers placed, War deal due
    WAR_DEALT = "war_dealt"  # War deal on the table (MD Ch. 9 H)
    BONUS_SPIN = "bonus_spin"  # triggered: the wheel's stops are due (SPEC §3)
    COMPLETE = "complete"
    VOIDED = "voided"  # MD Ch. 11
    JACKPOT = "jackpot"  # awards held until a floorperson validates them (MD Ch. 9 J(4))


IN_PLAY = frozenset({Phase.BETS_CLOSED, Phase.DEALT, Phase.DECISIONS, Phase.WAR_PENDING,
                     Phase.WAR_DEALT, Phase.BONUS_SPIN, Phase.JACKPOT})
BETWEEN_ROUNDS = frozenset({Phase.IDLE, Phase.COMPLETE, Phase.VOIDED})
VOIDABLE = IN_PLAY | {Phase.BETTING}
LEVELS: tuple[ProgressiveLevel, ...] = tuple(ProgressiveLevel)
_TIED = Outcome.TIE  # read once: an enum member's look-up costs a descriptor call in 3.11


@dataclass(frozen=True)  # no slots: see etg.core.evolve
class SpotWagers:
    """One seat's wagers on one spot; amounts still on the layout, in cents."""

    initial: int = 0
    tie: int = 0
    war: int = 0
    war_tie: int = 0
    progressive_payout: int = 0
    decision: Decision | None = None

    @property
    def on_table(self) -> int:
        return self.initial + self.tie + self.war + self.war_tie + self.progressive_payout


NO_WAGERS = SpotWagers()
_NONE_LEFT = NO_WAGERS.__dict__


def without(w: SpotWagers, fields: Iterable[str]) -> SpotWagers:
    """``w`` with the wagers named by ``fields`` off the layout (settled, collected, returned).

    A hand left with nothing, and no decision, is :data:`NO_WAGERS` itself.
    """
    attributes = w.__dict__.copy()  # as etg.core.evolve does, without a call per field
    for name in fields:
        attributes[name] = 0
    if attributes == _NONE_LEFT:
        return NO_WAGERS
    left: SpotWagers = object.__new__(SpotWagers)
    object.__setattr__(left, "__dict__", attributes)
    return left


Grid = tuple[tuple[SpotWagers, ...], ...]  # [seat - 1][spot - 1]
Meters = tuple[MeterState | None, ...]  # in LEVELS order; None: the paytable has no such meter


Recorded = tuple[Any, ...]
"""A result recorded, not built: ``(WagerSettled, seat, spot, payment, paid, capped, credits)``,
as :meth:`etg.core.events.Events.record` keeps an event."""


class _ResultsWhenRead:
    """``Round.results``: the WagerSettled of the round's settlements, built when first read.

    A settlement command records each result as its field values, as its events are
    recorded (:class:`~etg.core.events.Events`), and the round it makes keeps them so
    (:meth:`Round.settling`): the engine itself only needs a few figures of them
    (:meth:`Round.settled`), and a round is often over before anything reads them. The
    first read builds the objects, once, and keeps them as the field's ordinary value,
    so ``results``, equality, ``repr`` and the ledger's JSON are what they always were.

    This is a dataclass field whose default is a descriptor without ``__set__``: the
    class reads ``()`` as the default, and a Round built by its constructor (a new
    round, a ledger's checkpoint) holds its results in its ``__dict__`` like any field.
    """

    def __get__(self, r: Round | None, owner: type | None = None) -> tuple[WagerSettled, ...]:
        if r is None:
            return ()  # the field's default, as the dataclass decorator reads it
        attributes = r.__dict__
        built = tuple([item if type(item) is not tuple else item[0](*item[1:])
                       for item in attributes["_recorded_results"]])
        attributes["results"] = built  # read as the plain field from now on
        return built


@dataclass(frozen=True)  # no slots: see etg.core.evolve
class Round:
    """The round on the table: wagers, cards and what each seat has put in and taken out."""

    number: int
    wagers: Grid  # live: what is still at stake on the layout
    placed: Grid  # the wagers as locked at No More Bets
    spot_cards: tuple[Card | None, ...]
    dealer_card: Card | None = None
    war_cards: tuple[Card | None, ...] = ()
    dealer_war_card: Card | None = None
    staked: tuple[int, ...] = ()  # per seat: taken from credits this round
    returned: tuple[int, ...] = ()  # per seat: credited back this round, winnings included
    won: tuple[int, ...] = ()  # per seat: winnings paid inside the payout limit (see Cashier)
    results: tuple[WagerSettled, ...] = _ResultsWhenRead()  # type: ignore[assignment]
    bonus_spin: tuple[int, ...] = ()  # per seat: Bonus Spin wager still on the layout
    bonus_placed: tuple[int, ...] = ()  # per seat: as locked at No More Bets
    meters_before: Meters = ()  # the meters before this round's contributions, for a void
    wheel: WheelStops | None = None

    def settling(self, recorded: Sequence[Recorded], **changes: Any) -> Round:
        """This round with ``changes``, and the results ``recorded`` after its own, unbuilt."""
        earlier = self.__dict__
        results = earlier["results"] if "results" in earlier else earlier["_recorded_results"]
        attributes = earlier.copy()
        fields = len(attributes)
        attributes.update(changes)
        if len(attributes) != fields:
            raise TypeError(f"Round has no field {sorted(changes.keys() - earlier.keys())[0]!r}")
        attributes.pop("results", None)
        attributes["_recorded_results"] = (*results, *recorded)
        settled: Round = object.__new__(Round)
        object.__setattr__(settled, "__dict__", attributes)  # as etg.core.evolve copies
        return settled

    def settled(self) -> Iterator[tuple[int, int, Payment, int, int]]:
        """Each result's seat, spot, payment, ``paid`` and ``capped``, in order, without
        building it."""
        attributes = self.__dict__
        if "results" in attributes:
            for e in attributes["results"]:
                yield e.seat, e.spot, e.payment, e.paid, e.capped
            return
        for item in attributes["_recorded_results"]:
            if type(item) is tuple:
                yield item[1], item[2], item[3], item[4], item[5]
            else:
                yield item.seat, item.spot, item.payment, item.paid, item.capped


@dataclass(frozen=True)  # no slots: see etg.core.evolve
class TableState:
    paytable: Paytable
    phase: Phase
    credits: tuple[int, ...]  # per seat
    house: int  # the house's net win, cents
    shoe: ShoeState | None
    shuffle_due: bool
    round: Round
    last_bets: Grid  # the previous round's bets, for REPEAT
    last_bonus: tuple[int, ...]  # the previous round's Bonus Spin wagers, for REPEAT
    meters: Meters
    dealer: str | None = None  # the dealer signed in at the table (MD Ch. 8 E(4))
    dealer_burn_due: bool = False  # a new dealer's first card is still to be burned
    jackpot_rules: JackpotRules | None = None  # None: awards are never held (see etg.core.jackpot)
    jackpot: JackpotLock | None = None  # the awards held while the phase is JACKPOT
    # SPEC §13: the levels the floor's controller keeps, with the amounts it last answered;
    # their meters above stay as they were when linked (see etg.core.linked)
    linked: tuple[LinkedMeter, ...] = ()
    link_down: bool = False  # the controller cannot be reached: linked wagers are refused

    @property
    def on_table(self) -> int:
        """Cents at stake on the layout."""
        return (sum(w.on_table for row in self.round.wagers for w in row)
                + sum(self.round.bonus_spin))

    def meter(self, level: ProgressiveLevel) -> MeterState | None:
        return self.meters[LEVELS.index(level)]

    def linked_meter(self, level: ProgressiveLevel) -> LinkedMeter | None:
        """The level as the floor's controller keeps it, or None: this table's own meter."""
        for linked in self.linked:
            if linked.level is level:
                return linked
        return None

    def shown_meter(self, level: ProgressiveLevel) -> int | None:
        """The amount a screen shows for ``level``: the controller's for a linked level (None
        until it has answered), the table's own meter otherwise (None: no such meter)."""
        linked = self.linked_meter(level)
        if linked is not None:
            return linked.cents
        meter = self.meters[LEVELS.index(level)]
        return None if meter is None else meter.cents

    def seat_wagers(self, seat: int) -> tuple[SpotWagers, ...]:
        return self.round.wagers[seat - 1]

    @property
    def settles_from_left(self) -> bool:
        return self.paytable.settle_from is SettleFrom.DEALER_LEFT

    @property
    def settlement_seats(self) -> range:
        """The seats in the order they are settled and paid (the paytable's ``settle_from``)."""
        seats = self.paytable.seats
        return range(1, seats + 1) if self.settles_from_left else range(seats, 0, -1)

    def pending_decisions(self) -> tuple[tuple[int, int], ...]:
        """(seat, spot) tie hands still waiting for War or Surrender, in settlement order."""
        if self.phase is not Phase.DECISIONS:
            return ()
        r = self.round
        dealer = r.dealer_card
        if dealer is None:
            return ()
        ties = [spot for spot, card in enumerate(r.spot_cards, start=1)
                if card is not None and compare(card, dealer) is _TIED]
        return tuple((seat, spot) for seat in self.settlement_seats for spot in ties
                     if (w := r.wagers[seat - 1][spot - 1]).initial and w.decision is None)


def new_table(paytable: Paytable, credits: tuple[int, ...] | None = None,
              jackpot_rules: JackpotRules | None = None) -> TableState:
    """A table between rounds with no shoe yet: the first command is a Shuffle.

    Progressive meters start at their initial amounts (MD Ch. 10 C(2), D(3)(b)).
    ``jackpot_rules``: the cabinet's jackpot validation and hand pays; without
    them every award goes straight to the credits (the simulators).
    """
    seats = paytable.seats
    start = credits if credits is not None else (0,) * seats
    if len(start) != seats:
        raise ValueError(f"credits for {len(start)} seats, the paytable has {seats}")
    meters = tuple(None if (rules := paytable.meter(level)) is None else initial_state(rules)
                   for level in LEVELS)
    return TableState(paytable, Phase.IDLE, start, 0, None, True, new_round(paytable, 1),
                      empty_grid(paytable), (0,) * seats, meters, jackpot_rules=jackpot_rules)


def new_round(p: Paytable, number: int) -> Round:
    zeros = (0,) * p.seats
    empty = empty_grid(p)
    cards = (None,) * p.spot_count
    return Round(number, empty, empty, cards, None, cards, None, zeros, zeros, zeros, (), zeros,
                 zeros)


def empty_row(spot_count: int) -> tuple[SpotWagers, ...]:
    """A seat's row with no wagers: one shared tuple per size, so ``row is empty_row(n)`` tests it.

    Rows equal to it but built elsewhere (a ledger's checkpoint) are still empty;
    the identity is only a shortcut.
    """
    row = _EMPTY_ROWS.get(spot_count)
    if row is None:
        row = _EMPTY_ROWS[spot_count] = (NO_WAGERS,) * spot_count
    return row


_EMPTY_ROWS: dict[int, tuple[SpotWagers, ...]] = {}


def empty_grid(p: Paytable) -> Grid:
    return (empty_row(p.spot_count),) * p.seats


def settlement_order(grid: Grid, from_left: bool = False) -> list[tuple[int, int, SpotWagers]]:
    """Highest seat first (the dealer's right, MD Ch. 9 A), or seat 1 first ``from_left``
    (PA 2011, S.D.), then spot by spot; only spots with wagers."""
    out: list[tuple[int, int, SpotWagers]] = []
    empty = empty_row(len(grid[0])) if grid else ()
    seats = range(1, len(grid) + 1) if from_left else range(len(grid), 0, -1)
    for seat in seats:
        row = grid[seat - 1]
        if row is empty:
            continue
        for spot, w in enumerate(row, start=1):
            if w is not NO_WAGERS and w.on_table:
                out.append((seat, spot, w))
    return out


def is_tie(r: Round, spot: int) -> bool:
    card = r.spot_cards[spot - 1]
    return card is not None and r.dealer_card is not None and (
        compare(card, r.dealer_card) is Outcome.TIE)


def spot_outcome(r: Round, spot: int) -> Outcome | None:
    """The spot's card against the dealer's: the War cards once dealt, else the original ones.

    None while either card is missing. For showing results; settlement is
    :mod:`etg.core.settle`'s.
    """
    card, dealer = r.spot_cards[spot - 1], r.dealer_card
    war = r.war_cards[spot - 1] if r.war_cards else None
    if war is not None and r.dealer_war_card is not None:
        card, dealer = war, r.dealer_war_card
    if card is None or dealer is None:
        return None
    return compare(card, dealer)
