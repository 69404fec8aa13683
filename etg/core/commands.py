"""Commands: everything that can happen to a table, as values.

Players, the dealer, the supervisor, the attendant and the clock all act by
sending one of these to :func:`etg.core.engine.apply`. Randomness enters only
inside :class:`Shuffle`, as a recorded draw; time only as :class:`CloseBets`
or :class:`CloseDecisions` sent when a countdown ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from etg.core.jackpot import JackpotRules, ValidatorRole
from etg.core.linked import LinkedMeter
from etg.core.paytable import Decision, Paytable, ProgressiveLevel
from etg.core.shoe import ShoeDraw
from etg.core.wheel import WheelStops


class ShuffleReason(Enum):
    NEW_SHOE = "new_shoe"  # the table's first shoe (MD Ch. 5 A(1))
    CUT_CARD = "cut_card"  # the cut card came out last round (MD Ch. 5 H)
    SUPERVISOR = "supervisor"  # ordered between rounds (MD Ch. 5 A(3), H)


class BetKind(Enum):
    """Wagers a player places while betting is open (MD Ch. 7 F(1)-(2))."""

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    INITIAL = "initial"
    TIE = "tie"
    PROGRESSIVE_PAYOUT = "progressive_payout"  # MD Ch. 7 F(3): fixed amount, on a spot
    BONUS_SPIN = "bonus_spin"  # MD Ch. 7 F(4): $1 or $5, per seat (spot 0)


class VoidTarget(Enum):
    """What a supervisor's single-wager void returns (MD Ch. 11 C).

    ``spot``: everything the seat still has on the spot (the Initial Wager with its
    Tie, and War and Progressive Payout Wagers); the others one side wager each.
    """

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    SPOT = "spot"
    TIE = "tie"  # the spot's Tie Wager: the original deal's, or the War deal's
    PROGRESSIVE_PAYOUT = "progressive_payout"
    BONUS_SPIN = "bonus_spin"  # the seat's, on spot 0


class Actor(Enum):
    """Who sent a command; recorded with it so the ledger says who acted."""

    PLAYER = "player"
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    ATTENDANT = "attendant"
    TIMER = "timer"


@dataclass(frozen=True, slots=True)
class Shuffle:
    draw: ShoeDraw
    reason: ShuffleReason


@dataclass(frozen=True, slots=True)
class OpenBets:
    pass


@dataclass(frozen=True, slots=True)
class PlaceWager:
    """Add ``amount`` cents to the seat's ``kind`` wager on ``spot``."""

    seat: int
    spot: int
    kind: BetKind
    amount: int


@dataclass(frozen=True, slots=True)
class PlaceBonusSpin:
    """The seat's Bonus Spin Xtreme wager for this round: $1 or $5 (MD Ch. 7 F(4))."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class ClearWagers:
    seat: int


@dataclass(frozen=True, slots=True)
class RepeatWagers:
    """Place again what the seat wagered last round."""

    seat: int


@dataclass(frozen=True, slots=True)
class DoubleWagers:
    """Double every wager the seat has placed this round."""

    seat: int


@dataclass(frozen=True, slots=True)
class CloseBets:
    """No more bets: the dealer's CLOSE or the end of the betting countdown."""

    actor: Actor = Actor.DEALER


@dataclass(frozen=True, slots=True)
class Deal:
    pass


@dataclass(frozen=True, slots=True)
class Settle:
    pass


@dataclass(frozen=True, slots=True)
class Decide:
    """War or Surrender on a tied spot, with an optional War-deal Tie Wager (MD Ch. 7 F(2))."""

    seat: int
    spot: int
    decision: Decision
    war_tie: int = 0


@dataclass(frozen=True, slots=True)
class CloseDecisions:
    """Decision time is over (countdown or dealer): the default decision applies."""

    actor: Actor = Actor.TIMER


@dataclass(frozen=True, slots=True)
class WarDeal:
    pass


@dataclass(frozen=True, slots=True)
class Spin:
    """The Bonus Spin wheel's stops, drawn by the RNG source before anything is shown."""

    stops: WheelStops


@dataclass(frozen=True, slots=True)
class Void:
    """Supervisor's void of the round in progress (MD Ch. 11): every wager returned."""

    reason: str


@dataclass(frozen=True, slots=True)
class VoidWager:
    """A supervisor voids one seat's wagers on a spot, or one side wager, before settlement.

    MD Ch. 11 C: a wager that got no card in the original deal "shall be void and
    returned to the player". The stake goes back to the seat's credits; the round
    goes on for everything else. ``spot`` is 0 for the seat's Bonus Spin wager.
    """

    seat: int
    spot: int
    target: VoidTarget
    reason: str


@dataclass(frozen=True, slots=True)
class MarkAbandoned:
    """A supervisor marks a seat abandoned: its player left during the round (MD Ch. 7 B(3)-(4)).

    Its tie hands awaiting War or Surrender take the paytable's ``abandoned_wager``.
    """

    seat: int


@dataclass(frozen=True, slots=True)
class NextRound:
    pass


@dataclass(frozen=True, slots=True)
class SwitchPaytable:
    """An operator's switch to another approved paytable: between rounds, no credits on seats.

    The regulators' rule (SPEC §5): a game configuration changes only when no
    player has money on the table.
    """

    paytable: Paytable


@dataclass(frozen=True, slots=True)
class CashIn:
    """Attendant adds credits to a seat."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class CashOut:
    """Attendant pays out a seat's credits (cancelled credits)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ValidateJackpot:
    """A floorperson or above validates the jackpot that locks the table (MD Ch. 9 J(4)(c)).

    ``validator`` is the ID and ``role`` the role the table layer checked the PIN
    against in the PIN registry (a role's own PIN has the role's name for its ID).
    ``role`` is None only in a validation recorded before roles were: the ledger
    decodes such a record as it was written, and the table never sends one.
    """

    validator: str
    role: ValidatorRole | None


@dataclass(frozen=True, slots=True)
class SignInDealer:
    """A dealer takes the table, after the controller checked the dealer's PIN (MD Ch. 8 E(4))."""

    dealer_id: str


@dataclass(frozen=True, slots=True)
class Tip:
    """A player tips the dealer ``amount`` cents from the seat's credits (MD Ch. 2 D)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class SetJackpotRules:
    """The cabinet's jackpot procedure (its hand-pay threshold), or None: no validation."""

    rules: JackpotRules | None


@dataclass(frozen=True, slots=True)
class LinkLevels:
    """The cabinet's link (``cabinet.yaml``): these levels are kept by the floor's controller.

    Between rounds only; an empty tuple unlinks the table (SPEC §13).
    """

    levels: tuple[ProgressiveLevel, ...]


@dataclass(frozen=True, slots=True)
class ShowLinkedMeters:
    """The linked meters as the floor's controller answered them: recorded, then shown.

    The controller's answer enters the engine as a recorded value, as an RNG draw
    does, so replaying the ledger shows exactly what was shown (SPEC §13).
    """

    meters: tuple[LinkedMeter, ...]


@dataclass(frozen=True, slots=True)
class SetLinkStatus:
    """The link to the floor's controller went down (``up`` False) or came back.

    While it is down the table refuses the wagers that feed a linked meter; the base
    game and the unlinked wagers go on (issue 27, item 3).
    """

    up: bool


@dataclass(frozen=True, slots=True)
class ConfirmLinkedHit:
    """The controller's amount for a linked hit the jackpot lock holds (SPEC §13).

    ``hit_id`` and ``order_no`` are the controller's record of the hit and its place
    among near-simultaneous hits on the level; ``meter_after`` the level after its reset.
    """

    level: ProgressiveLevel
    seat: int
    spot: int
    amount: int
    hit_id: int
    order_no: int
    meter_after: int


Command = (
    Shuffle | OpenBets | PlaceWager | PlaceBonusSpin | ClearWagers | RepeatWagers | DoubleWagers
    | CloseBets | Deal | Settle | Decide | CloseDecisions | WarDeal | Spin | Void | NextRound
    | CashIn | CashOut | SwitchPaytable | VoidWager | MarkAbandoned
    | ValidateJackpot | SignInDealer | Tip | SetJackpotRules
    | LinkLevels | ShowLinkedMeters | SetLinkStatus | ConfirmLinkedHit
)
