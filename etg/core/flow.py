"""What the dealer does next: the routine of a round as a function of the state.

The dealer console lights the button for this action, the demo dealer and the
round driver send it, and nothing else follows from it: the engine still
decides whether a command is accepted.
"""

from __future__ import annotations

from enum import Enum

from etg.core.state import Phase, TableState


class DealerAction(Enum):
    __hash__ = object.__hash__  # members are singletons: hash by identity, in C

    SHUFFLE = "shuffle"  # MD Ch. 5: a new shoe, or the cut card came out
    OPEN = "open"  # MD Ch. 7 C: place your bets
    CLOSE = "close"  # MD Ch. 7 D: no more bets
    DEAL = "deal"  # MD Ch. 8 F
    SETTLE = "settle"  # MD Ch. 9 A: collect and pay
    CLOSE_DECISIONS = "close_decisions"  # MD Ch. 9 E: decision time is over
    WAR_DEAL = "war_deal"  # MD Ch. 9 H
    SPIN = "spin"  # SPEC §3: the Bonus Spin wheel
    NEXT_ROUND = "next_round"
    VALIDATE = "validate"  # MD Ch. 9 J(4)(c): a floorperson validates the jackpot


_BY_PHASE = {
    Phase.BETTING: DealerAction.CLOSE,
    Phase.BETS_CLOSED: DealerAction.DEAL,
    Phase.DEALT: DealerAction.SETTLE,
    Phase.WAR_DEALT: DealerAction.SETTLE,
    Phase.DECISIONS: DealerAction.CLOSE_DECISIONS,
    Phase.WAR_PENDING: DealerAction.WAR_DEAL,
    Phase.BONUS_SPIN: DealerAction.SPIN,
    Phase.COMPLETE: DealerAction.NEXT_ROUND,
    Phase.VOIDED: DealerAction.NEXT_ROUND,
    Phase.JACKPOT: DealerAction.VALIDATE,
}
# Enum members cost a metaclass look-up each in CPython 3.11; the round driver asks every step.
_IDLE, _SHUFFLE, _OPEN = Phase.IDLE, DealerAction.SHUFFLE, DealerAction.OPEN


def dealer_next(state: TableState) -> DealerAction:
    """The one action that moves the round on from ``state``."""
    if state.phase is _IDLE:
        due = state.shoe is None or state.shuffle_due
        return _SHUFFLE if due else _OPEN
    return _BY_PHASE[state.phase]
