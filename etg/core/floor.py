"""The people at the table: the dealer who signs in, and the players' tips to that dealer.

MD Ch. 8 E(4): "Each new dealer who comes to the table shall also remove the
first card from the dealing shoe face down". A dealer signs in between rounds
only (a round is dealt by one dealer); the sign-in makes the first card of the
new dealer's first deal a burn card, in addition to the burn after a shuffle
(Ch. 8 E(1)), since the rule says "also". The state knows the dealer, so the
ledger stamps each round with who dealt it.

MD Ch. 2 D: the table has a tip box beside the dealer. A tip moves cents from a
seat's credits to the signed-in dealer's tip box: it is not a wager, so it is
never coin in or coin out, and the money leaves the table as cash out does.
"""

from __future__ import annotations

import re

from etg.core.commands import SignInDealer, Tip
from etg.core.events import DealerSignedIn, Events, TipGiven
from etg.core.evolve import evolve
from etg.core.money import format_cents
from etg.core.refusal import Reason, Refused
from etg.core.state import BETWEEN_ROUNDS, TableState

DEALER_ID = re.compile(r"D[0-9]{1,8}")
"""A dealer's ID: ``D`` and the badge number, e.g. ``D0417``.

The letter keeps the ID a word wherever it is written (a YAML key, a meter
name, a CSV cell) rather than a number that loses its leading zeros.
"""


def dealer_id_problem(dealer_id: str) -> str | None:
    """Why ``dealer_id`` cannot be a dealer's ID, or None."""
    if DEALER_ID.fullmatch(dealer_id):
        return None
    return f"a dealer ID is D and 1 to 8 digits (D0417), not {dealer_id!r}"


def sign_in(s: TableState, c: SignInDealer) -> tuple[TableState, Events]:
    """The dealer ``c.dealer_id`` takes the table between rounds (MD Ch. 8 E(4))."""
    problem = dealer_id_problem(c.dealer_id)
    if problem is not None:
        raise Refused(Reason.INVALID_DEALER, problem)
    if s.phase not in BETWEEN_ROUNDS:
        raise Refused(Reason.ROUND_IN_PROGRESS,
                      f"dealers change only between rounds (the table is {s.phase.value})")
    if c.dealer_id == s.dealer:
        raise Refused(Reason.ALREADY_SIGNED_IN, f"dealer {c.dealer_id} is already at the table")
    return (evolve(s, dealer=c.dealer_id, dealer_burn_due=True),
            Events.of(DealerSignedIn, c.dealer_id, s.dealer))


def tip(s: TableState, c: Tip) -> tuple[TableState, Events]:
    """``c.amount`` from the seat's credits to the dealer's tip box (MD Ch. 2 D)."""
    if not 1 <= c.seat <= s.paytable.seats:
        raise Refused(Reason.NO_SUCH_SEAT, f"there is no seat {c.seat}")
    if s.dealer is None:
        raise Refused(Reason.NO_DEALER, "no dealer is signed in to receive a tip")
    if c.amount <= 0:
        raise Refused(Reason.NOT_POSITIVE, "a tip must be a positive amount")
    credits = s.credits[c.seat - 1]
    if credits < c.amount:
        raise Refused(Reason.INSUFFICIENT_CREDITS,
                      f"seat {c.seat} has {format_cents(credits)}, "
                      f"a tip of {format_cents(c.amount)} needs more")
    left = credits - c.amount
    seats = (*s.credits[: c.seat - 1], left, *s.credits[c.seat:])
    return evolve(s, credits=seats), Events.of(TipGiven, c.seat, s.dealer, c.amount, left)
