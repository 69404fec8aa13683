"""Why a command is refused: a typed reason and a sentence a person can read."""

from __future__ import annotations

from enum import Enum


class Reason(Enum):
    WRONG_PHASE = "wrong_phase"
    BETTING_CLOSED = "betting_closed"  # MD Ch. 7 D
    NO_SUCH_SEAT = "no_such_seat"
    NO_SUCH_SPOT = "no_such_spot"
    NOT_YOUR_SPOT = "not_your_spot"  # per-seat layout: a seat plays its own spot
    NOT_A_MULTIPLE_OF_UNIT = "not_a_multiple_of_unit"
    NOT_POSITIVE = "not_positive"
    UNDER_MINIMUM = "under_minimum"
    OVER_MAXIMUM = "over_maximum"
    INSUFFICIENT_CREDITS = "insufficient_credits"
    SPOT_LIMIT = "spot_limit"  # MD Ch. 7 E
    TIE_WITHOUT_INITIAL = "tie_without_initial"  # MD Ch. 7 F(2)
    NOTHING_TO_CLEAR = "nothing_to_clear"
    NOTHING_TO_REPEAT = "nothing_to_repeat"
    NOTHING_TO_DOUBLE = "nothing_to_double"
    ALREADY_WAGERED = "already_wagered"
    NO_WAGERS = "no_wagers"
    SEAT_NOT_TIED = "seat_not_tied"
    ALREADY_DECIDED = "already_decided"
    WAR_TIE_NOT_OFFERED = "war_tie_not_offered"
    SHUFFLE_DUE = "shuffle_due"
    INVALID_DRAW = "invalid_draw"
    ROUND_IN_PROGRESS = "round_in_progress"
    NO_CREDITS = "no_credits"
    NOT_OFFERED = "not_offered"
    WRONG_AMOUNT = "wrong_amount"
    INVALID_PAYTABLE = "invalid_paytable"
    INITIAL_REQUIRED = "initial_required"  # MD Ch. 7 F(3)(a), F(4)
    REASON_REQUIRED = "reason_required"  # MD Ch. 11: a void is recorded with its reason
    NOTHING_TO_VOID = "nothing_to_void"  # MD Ch. 11 C
    ALREADY_SETTLED = "already_settled"  # MD Ch. 11 C: a wager is voided before it is settled
    CARD_DEALT = "card_dealt"  # MD Ch. 11 C: only a wager that got no card is void
    NO_DECISION_PENDING = "no_decision_pending"  # MD Ch. 7 B(3)-(4)
    JACKPOT_LOCKED = "jackpot_locked"  # MD Ch. 9 J(4)(c): play waits for the validation
    NO_JACKPOT = "no_jackpot"
    NOT_A_VALIDATOR = "not_a_validator"  # MD Ch. 9 J(4)(c): a floorperson or above validates
    JACKPOT_PAID = "jackpot_paid"  # SPEC §2: a round with a validated jackpot is not voided
    INVALID_DEALER = "invalid_dealer"
    ALREADY_SIGNED_IN = "already_signed_in"
    NO_DEALER = "no_dealer"  # MD Ch. 2 D: a tip goes to the dealer at the table
    LINK_DOWN = "link_down"  # SPEC §13: a linked wager waits for the floor's controller
    LINK_PENDING = "link_pending"  # SPEC §13: a linked hit waits for the controller's amount


class Refused(ValueError):
    """A command that the table cannot accept now; the state is unchanged."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message

    def __reduce__(self) -> tuple[type[Refused], tuple[Reason, str]]:
        """Both arguments, so that a refusal crosses from a worker process intact."""
        return type(self), (self.reason, self.message)
