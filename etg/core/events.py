"""Events: what a command did, in the order it happened.

The controller commits them, then hands them to whoever listens (the screen,
the meters). Burned cards are recorded for the ledger but marked face down.

:func:`etg.core.engine.apply` returns a command's events as :class:`Events`, a
list that builds its event objects when it is first read (see there).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from etg.core.cards import Card
from etg.core.commands import BetKind, ShuffleReason, VoidTarget
from etg.core.jackpot import HeldAward, ValidatorRole
from etg.core.linked import LinkedMeter
from etg.core.paytable import AbandonedWager, Decision, PayoutHand, ProgressiveLevel
from etg.core.settle import Payment, WagerKind
from etg.core.wheel import WheelStops


class Target(Enum):
    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    SPOT = "spot"
    DEALER = "dealer"


@dataclass(frozen=True, slots=True)
class ShoeShuffled:
    shuffle_number: int
    reason: ShuffleReason
    cut_index: int


@dataclass(frozen=True, slots=True)
class BetsOpened:
    round_number: int


@dataclass(frozen=True, slots=True)
class WagerPlaced:
    seat: int
    spot: int
    kind: BetKind
    amount: int  # added now
    total: int  # the wager after it
    credits: int  # the seat's credits after it


@dataclass(frozen=True, slots=True)
class WagersCleared:
    seat: int
    refunded: int
    credits: int


@dataclass(frozen=True, slots=True)
class BetsClosed:
    round_number: int


@dataclass(frozen=True, slots=True)
class CardsBurned:
    """Cards removed face down into the discard rack (MD Ch. 8 E(1), Ch. 9 H)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardDealt:
    target: Target
    spot: int  # 0 for the dealer
    card: Card
    war: bool  # dealt in the War deal


@dataclass(frozen=True, slots=True)
class CutCardOut:
    """The cut card appeared: the round is completed, then the shoe reshuffled (MD Ch. 8 G)."""


@dataclass(frozen=True, slots=True)
class DecisionsOpened:
    pending: tuple[tuple[int, int], ...]  # (seat, spot) pairs, in settlement order


@dataclass(frozen=True, slots=True)
class DecisionMade:
    seat: int
    spot: int
    decision: Decision
    by_default: bool
    war_tie: int
    credits: int


@dataclass(frozen=True, slots=True)
class WagerSettled:
    """One wager's result; ``capped`` is winnings withheld by the payout limit per hand."""

    seat: int
    spot: int  # 0 for the seat's Bonus Spin wager
    payment: Payment
    paid: int  # credited to the seat: returned stake plus winnings after the cap
    capped: int
    credits: int


@dataclass(frozen=True, slots=True)
class ProgressiveContributed:
    """A meter's share of this round's wagers, taken at No More Bets (MD Ch. 10 C(1), D(3))."""

    level: ProgressiveLevel
    wagers: int  # cents wagered that feed this meter
    millionths: int  # the contribution, in millionths of a cent
    to_meter: int  # whole cents onto the meter
    to_reserve: int  # whole cents over the ceiling
    meter: int  # the meter after it


@dataclass(frozen=True, slots=True)
class PayoutHandMade:
    """A seat's Progressive Payout Hand on a spot (MD Ch. 10 B)."""

    seat: int
    spot: int
    hand: PayoutHand


@dataclass(frozen=True, slots=True)
class EnvyBonus:
    """An Envy Bonus to ``seat`` for ``holder_seat``'s qualifying hand (MD Ch. 9 J(4)(e))."""

    seat: int
    holder_seat: int
    holder_spot: int
    hand: PayoutHand


@dataclass(frozen=True, slots=True)
class ProgressiveAwarded:
    """A meter paid as it stood when the seat was paid (MD Ch. 10 D(4)), then reset."""

    level: ProgressiveLevel
    seat: int
    spot: int  # 0 for the Bonus Spin
    amount: int
    meter_before: int
    meter_after: int
    seeded: int  # cents the house added to restart at the reset amount
    from_reserve: int


@dataclass(frozen=True, slots=True)
class BonusSpinTriggered:
    """The dealer's original card is a designated card and seats hold the wager (SPEC §3)."""

    card: Card
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class WheelStopped:
    stops: WheelStops
    community_symbol: str
    hot_spot_symbol: str


@dataclass(frozen=True, slots=True)
class RoundComplete:
    round_number: int
    net: tuple[int, ...]  # per seat, the round's gain (negative: loss)
    shuffle_due: bool


@dataclass(frozen=True, slots=True)
class RoundVoided:
    round_number: int
    reason: str
    refunds: tuple[int, ...]  # per seat, credited back


@dataclass(frozen=True, slots=True)
class WagerVoided:
    """A single-wager void (MD Ch. 11 C): what was voided, returned to the seat, and why.

    Each voided wager is a Payment with Result.VOIDED and its whole stake returned.
    It is not a settlement: coin in and coin out do not count it; the void meter does.
    """

    seat: int
    spot: int  # 0 for the seat's Bonus Spin wager
    target: VoidTarget
    wagers: tuple[Payment, ...]
    amount: int  # credited back: the sum of the stakes
    credits: int  # the seat's credits after it
    reason: str


@dataclass(frozen=True, slots=True)
class SeatAbandoned:
    """A supervisor marked the seat abandoned (MD Ch. 7 B(3)-(4)); ``spots``: its tie hands
    that were awaiting War or Surrender, settled next by the paytable's ``rule``."""

    seat: int
    rule: AbandonedWager
    spots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableCleared:
    round_number: int  # the round that comes next


@dataclass(frozen=True, slots=True)
class PaytableSwitched:
    old_id: str
    new_id: str
    meters_carried: tuple[ProgressiveLevel, ...]


@dataclass(frozen=True, slots=True)
class CreditsIn:
    seat: int
    amount: int
    credits: int


@dataclass(frozen=True, slots=True)
class CreditsOut:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class JackpotLocked:
    """Awards held until a floorperson validates them (MD Ch. 9 J(4)(a)-(c)); play stops."""

    round_number: int
    awards: tuple[HeldAward, ...]  # in the order they will be paid


@dataclass(frozen=True, slots=True)
class JackpotValidated:
    """The lock's awards are validated by ``validator`` and paid now (MD Ch. 9 J(4)(c)-(e))."""

    round_number: int
    validator: str
    amount: int  # winnings validated, credited and hand paid together
    hand_paid: int  # of which paid by the attendant
    role: ValidatorRole | None  # None: recorded before the validator's role was


@dataclass(frozen=True, slots=True)
class HandPaid:
    """An award at or above the hand-pay threshold, paid by the attendant, not to credits.

    Its WagerSettled credits only the stake it returns; this is the hand-pay record.
    """

    round_number: int
    seat: int
    spot: int
    kind: WagerKind
    amount: int
    validator: str
    role: ValidatorRole | None  # None: recorded before the validator's role was


@dataclass(frozen=True, slots=True)
class DealerSignedIn:
    """A new dealer at the table; the dealer's first card is burned (MD Ch. 8 E(4))."""

    dealer_id: str
    previous: str | None


@dataclass(frozen=True, slots=True)
class TipGiven:
    """A tip from a seat's credits to the dealer's tip box (MD Ch. 2 D): not a wager."""

    seat: int
    dealer_id: str
    amount: int
    credits: int  # the seat's credits after it


@dataclass(frozen=True, slots=True)
class JackpotRulesSet:
    """The cabinet's hand-pay threshold as the table now applies it (None: no validation)."""

    hand_pay_cents: int | None
    previous: int | None


@dataclass(frozen=True, slots=True)
class LevelsLinked:
    """The levels the floor's controller keeps for this table from now on (SPEC §13)."""

    levels: tuple[ProgressiveLevel, ...]
    previous: tuple[ProgressiveLevel, ...]


@dataclass(frozen=True, slots=True)
class LinkedContributed:
    """A seat's wagers feeding a linked level this round, taken at No More Bets.

    The table's outbox ships it to the controller, which adds the level's share
    (MD Ch. 10 C(1), D(3)(a)); the key (round, seat, level) makes a retry count once.
    """

    level: ProgressiveLevel
    seat: int
    wager_cents: int


@dataclass(frozen=True, slots=True)
class LinkedMetersShown:
    """The linked meters the controller answered, now on the table's screens."""

    meters: tuple[LinkedMeter, ...]


@dataclass(frozen=True, slots=True)
class LinkStatusChanged:
    """The link to the floor's controller went down or came back (issue 27, item 3)."""

    up: bool


@dataclass(frozen=True, slots=True)
class LinkedHitPending:
    """A linked meter won: held in the jackpot lock until the controller says its amount."""

    level: ProgressiveLevel
    seat: int
    spot: int  # 0 for the Bonus Spin
    percent: int


@dataclass(frozen=True, slots=True)
class LinkedHitConfirmed:
    """The controller's amount for a linked hit; paid once validated (MD Ch. 9 J(4))."""

    round_number: int
    level: ProgressiveLevel
    seat: int
    spot: int
    amount: int
    hit_id: int
    order_no: int
    meter_after: int
    hand_pay: bool


Event = (
    ShoeShuffled | BetsOpened | WagerPlaced | WagersCleared | BetsClosed | CardsBurned | CardDealt
    | CutCardOut | DecisionsOpened | DecisionMade | WagerSettled | ProgressiveContributed
    | PayoutHandMade | EnvyBonus | ProgressiveAwarded | BonusSpinTriggered | WheelStopped
    | RoundComplete | RoundVoided | TableCleared | CreditsIn | CreditsOut | PaytableSwitched
    | WagerVoided | SeatAbandoned
    | JackpotLocked | JackpotValidated | HandPaid | DealerSignedIn | TipGiven | JackpotRulesSet
    | LevelsLinked | LinkedContributed | LinkedMetersShown | LinkStatusChanged | LinkedHitPending
    | LinkedHitConfirmed
)


class Events(list[Event]):
    """A command's events, in order: recorded as values, built when first read.

    A busy round has about ninety events, and building a frozen dataclass costs
    more than most of the rules that produce one, while the bare engine's callers
    (the simulators, the benchmark) often never look at them. So the engine
    *records* each event as its class and field values (:meth:`record`), and the
    list builds the objects the first time anything reads it: iteration,
    indexing, comparison, ``repr``, any list method. From then on it is an
    ordinary list of the very objects the constructors return, so a reader cannot
    tell the difference; only ``len`` (and truth) never needs to build.
    :meth:`extend` with another unread Events list stays unread, so a round's
    events can be gathered command by command for nothing.

    Reading is safe from two threads at once (the kiosk's ledger writer and its
    screen both read a command's events).
    """

    __slots__ = ("_recorded",)

    def __init__(self, events: Iterable[Event] = ()) -> None:
        if events:
            super().__init__(events)
        # Not yet built, after the built ones: (class, *field values) recipes, or events
        # already built (no event is a tuple).
        self._recorded: list[Any] = []

    @classmethod
    def of(cls, *recipe: Any) -> Events:
        """A list of one event, recorded: see :meth:`record`."""
        events = cls()
        events._recorded.append(recipe)
        return events

    def record(self, *recipe: Any) -> tuple[Any, ...]:
        """Add the event ``recipe[0](*recipe[1:])``: its class, then its field values.

        Returns the record (the Cashier keeps its results so, see etg.core.state.Round).
        """
        self._recorded.append(recipe)
        return recipe

    def add(self, event: Event) -> None:
        """Add an event already built, after those recorded so far."""
        self._recorded.append(event)

    def extend(self, events: Iterable[Event]) -> None:
        """Add ``events``; another Events list's events are taken as they stand, unbuilt."""
        if type(events) is Events:
            with _BUILDING:
                if list.__len__(events):
                    self._recorded += list.__iter__(events)
                self._recorded += events._recorded
        else:
            if self._recorded:
                self._build()
            list.extend(self, events)

    def __iadd__(self, events: Iterable[Event]) -> Events:  # type: ignore[override,misc]
        self.extend(events)
        return self

    def __len__(self) -> int:
        if self._recorded:
            with _BUILDING:  # not while another thread moves the recorded into the list
                return list.__len__(self) + len(self._recorded)
        return list.__len__(self)

    def __radd__(self, other: list[Event]) -> list[Event]:
        return other + list(self)

    def __reduce__(self) -> tuple[Callable[[list[Event]], Events], tuple[list[Event]]]:
        return Events, (list(self),)

    def _build(self) -> None:
        with _BUILDING:
            recorded = self._recorded
            if recorded:
                list.extend(self, [item if type(item) is not tuple else item[0](*item[1:])
                                   for item in recorded])
                self._recorded = []


_BUILDING = threading.Lock()


def _reading(method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` of ``list``, on an Events list that first builds what it recorded."""
    def built_first(self: Events, *args: Any, **kwargs: Any) -> Any:
        if self._recorded:
            self._build()
        return method(self, *args, **kwargs)

    built_first.__name__ = method.__name__
    built_first.__doc__ = method.__doc__
    return built_first


# Every list method but len and the lazy extend reads or writes the built events.
for _name in ("__iter__", "__reversed__", "__getitem__", "__contains__", "__eq__", "__ne__",
              "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__", "__imul__",
              "__repr__", "__setitem__", "__delitem__", "index", "count", "copy", "append",
              "insert", "pop", "remove", "clear", "sort", "reverse"):
    setattr(Events, _name, _reading(getattr(list, _name)))
del _name
