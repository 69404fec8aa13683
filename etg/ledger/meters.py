"""Meters as pure functions of the hand ledger and the event log (SPEC §5).

SPEC §5 asks that the meters "always equal the sums over the ledger". So the
meters are *defined* here as sums: :func:`round_meters` of one hand ledger
record, :func:`log_meters` of one event log entry, and :func:`sum_meters` of
both. The store adds each finished round's and each entry's meters to its
meters table in the same transaction that writes the row, and the integrity
check recomputes :func:`sum_meters` over the ledger and compares. One function
serves both, so the two can never disagree about a definition.

Keys are ``(seat, name)``. Seat ``0`` is the whole table: for money meters it
is the sum over the seats; for counts of rounds (``games.played``,
``bonus_spin.triggers``, ``bonus_spin.spins``, ``voids``) it counts rounds,
while seat ``n`` counts the rounds in which seat ``n`` took part. Every value
is an exact integer: cents, millionths of a cent, or a count. Meters that
would be zero are left out, so a :class:`~collections.Counter` compares equal
whether or not a meter has ever moved.

Per-dealer meters are named by the dealer's ID: ``dealer.<ID>.rounds`` (complete
rounds dealt, from the record's ``dealer``) and ``dealer.<ID>.tips`` (cents tipped
to that dealer, from ``tip`` entries), at seat 0; :func:`dealer_meter` reads such a
name back.

Meters are kept per paytable: the store groups rounds by the record's
``paytable.id`` and attributes event log entries to the paytable active when
they were written. A RAM clear zeroes the meters table (a logged event); the
store then sums only what was recorded after the last ``ram_clear`` entry.

Every result comes from the round's events as the engine emitted them
(:mod:`etg.core.events`); nothing here re-states a payout rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from etg.core.events import (
    BonusSpinTriggered,
    DecisionMade,
    DecisionsOpened,
    Event,
    HandPaid,
    JackpotLocked,
    LinkedHitConfirmed,
    ProgressiveAwarded,
    ProgressiveContributed,
    WagerSettled,
    WagerVoided,
    WheelStopped,
)
from etg.core.paytable import Decision, ProgressiveLevel
from etg.core.settle import WagerKind
from etg.ledger.codec import load_event

Meters = Counter[tuple[int, str]]
"""Meter values keyed by ``(seat, name)``; seat 0 is the whole table."""

TABLE = 0
"""The seat number of the whole table."""

# --- meter names -------------------------------------------------------------------------------

STAKED_KINDS: tuple[WagerKind, ...] = (
    WagerKind.INITIAL, WagerKind.TIE, WagerKind.WAR, WagerKind.WAR_TIE,
    WagerKind.PROGRESSIVE_PAYOUT, WagerKind.BONUS_SPIN,
)
"""Wager kinds that put a stake at risk; awards (progressive, Envy Bonus) have none."""

MAIN_GAME_KINDS = frozenset({WagerKind.INITIAL, WagerKind.TIE, WagerKind.WAR, WagerKind.WAR_TIE})
"""The wagers whose net decides whether a seat won or lost a game."""

COIN_IN: dict[WagerKind, str] = {kind: f"coin_in.{kind.value}" for kind in STAKED_KINDS}
"""``coin_in.<kind>``: cents at risk, the ``stake`` of each WagerSettled of that kind."""

COIN_OUT: dict[WagerKind, str] = {kind: f"coin_out.{kind.value}" for kind in WagerKind}
"""``coin_out.<kind>``: cents credited, the ``paid`` of each WagerSettled of that kind.

Returned stakes count (a pushed or won wager's stake comes back as coin out),
so ``coin_in - coin_out`` is the house's win on that kind. ``coin_out.progressive``
and ``coin_out.envy_bonus`` are the awards, which have no coin in.
"""

CAPPED = "capped"
"""Cents of winnings withheld by the payout limit per hand (WagerSettled ``capped``)."""

GAMES_PLAYED = "games.played"
"""Seat 0: complete rounds. Seat n: complete rounds in which seat n had a stake settled."""

GAMES_WON = "games.won"
"""Seat n: played, no original tie hand, and the main-game net was above zero."""

GAMES_LOST = "games.lost"
"""Seat n: played, no original tie hand, and the main-game net was zero or below."""

GAMES_TIED = "games.tied"
"""Seat n: played with at least one original tie hand, whatever followed it."""

WARS = "wars"
"""DecisionMade with War: one per (seat, tied spot), by the player or by default."""

SURRENDERS = "surrenders"
"""DecisionMade with Surrender: one per (seat, tied spot), by the player or by default."""

VOIDS = "voids"
"""Seat 0 only: voided rounds (MD Ch. 11)."""

WAGER_VOIDS = "wager_voids"
"""Single-wager voids (MD Ch. 11 C): WagerVoided events, one per void a supervisor made.

A voided wager is returned whole and was never settled, so it is neither coin in
nor coin out; this meter and its amount are the only ones a single-wager void
moves. They count in a round voided afterwards too: the void happened.
"""

WAGER_VOIDS_AMOUNT = "wager_voids.amount"
"""Cents returned by single-wager voids (WagerVoided ``amount``)."""

PROGRESSIVE_CONTRIBUTION: dict[ProgressiveLevel, str] = {
    level: f"progressive.contribution.{level.value}" for level in ProgressiveLevel}
"""Seat 0 only: whole cents put on the meter or its reserve (``to_meter + to_reserve``)."""

PROGRESSIVE_CONTRIBUTION_MILLIONTHS: dict[ProgressiveLevel, str] = {
    level: f"progressive.contribution_millionths.{level.value}" for level in ProgressiveLevel}
"""Seat 0 only: the exact contribution in millionths of a cent, carry included."""

PROGRESSIVE_HITS: dict[ProgressiveLevel, str] = {
    level: f"progressive.hits.{level.value}" for level in ProgressiveLevel}
"""ProgressiveAwarded events of that level, and a linked level's confirmed hits."""

PROGRESSIVE_AMOUNT: dict[ProgressiveLevel, str] = {
    level: f"progressive.amount.{level.value}" for level in ProgressiveLevel}
"""Cents awarded from the meter (ProgressiveAwarded ``amount``, before any cap)."""

BONUS_SPIN_TRIGGERS = "bonus_spin.triggers"
"""Seat 0: rounds with BonusSpinTriggered. Seat n: those in which seat n held the wager."""

BONUS_SPIN_SPINS = "bonus_spin.spins"
"""Seat 0: rounds with WheelStopped. Seat n: those in which seat n's wager rode the spin."""

ATTENDANT_PAID_JACKPOTS = "attendant_paid_jackpots"
"""Hand pays: awards at or above the cabinet's hand-pay threshold, validated by a
floorperson and paid by the attendant, never to the credits (MD Ch. 9 J(4); HandPaid).

Their winnings are in no ``coin_out`` meter (the WagerSettled of a hand pay
credits only the stake it returns), so the house's win on the game is coin in
- coin out - ``attendant_paid_jackpots.amount``. A round recorded before jackpots
were validated (it holds no JackpotLocked) counted every progressive award here,
as that program did, though it credited them: such rounds still add up that way.
"""

ATTENDANT_PAID_JACKPOTS_AMOUNT = "attendant_paid_jackpots.amount"
"""Cents paid by the attendant (HandPaid ``amount``; before validation existed, every
ProgressiveAwarded ``amount``)."""

TIPS = "tips"
"""Cents the seats tipped the dealers (``tip`` entries; MD Ch. 2 D): never coin in or out."""

DEALER_ROUNDS = "rounds"
"""``dealer.<ID>.rounds``: complete rounds the dealer dealt (the record's ``dealer``)."""

DEALER_TIPS = "tips"
"""``dealer.<ID>.tips``: cents tipped to the dealer."""

CASH_IN = "cash_in"
"""Cents added by the attendant: ``cash_in`` event log entries."""

CASH_OUT = "cash_out"
"""Cents paid out by the attendant (cancelled credits): ``cash_out`` event log entries."""

POWER_UPS = "power_ups"
"""Seat 0 only: ``power_up`` event log entries."""

OPERATOR_MENU_ENTRIES = "operator_menu_entries"
"""Seat 0 only: ``operator_login`` event log entries."""


def _definitions() -> dict[str, str]:
    out: dict[str, str] = {}
    for kind in STAKED_KINDS:
        out[COIN_IN[kind]] = f"cents staked on {kind.value} wagers (WagerSettled stake)"
    for kind in WagerKind:
        out[COIN_OUT[kind]] = f"cents credited for {kind.value} (WagerSettled paid)"
    out.update({
        CAPPED: "cents of winnings withheld by the payout limit per hand",
        GAMES_PLAYED: "complete rounds (seat 0) / rounds with a stake settled (seat n)",
        GAMES_WON: "games with no original tie hand and a main-game net above zero",
        GAMES_LOST: "games with no original tie hand and a main-game net of zero or below",
        GAMES_TIED: "games with at least one original tie hand",
        WARS: "War decisions, one per seat and tied spot",
        SURRENDERS: "Surrender decisions, one per seat and tied spot",
        VOIDS: "voided rounds",
        WAGER_VOIDS: "single wagers voided before their card was dealt (MD Ch. 11 C)",
        WAGER_VOIDS_AMOUNT: "cents returned by single-wager voids",
    })
    for level in ProgressiveLevel:
        out[PROGRESSIVE_CONTRIBUTION[level]] = f"cents onto the {level.value} meter and reserve"
        out[PROGRESSIVE_CONTRIBUTION_MILLIONTHS[level]] = (
            f"millionths of a cent contributed to the {level.value} meter")
        out[PROGRESSIVE_HITS[level]] = f"{level.value} progressive awards"
        out[PROGRESSIVE_AMOUNT[level]] = f"cents awarded from the {level.value} meter"
    out.update({
        BONUS_SPIN_TRIGGERS: "Bonus Spin triggers (seat 0: rounds; seat n: with its wager)",
        BONUS_SPIN_SPINS: "Bonus Spin wheel spins (seat 0: rounds; seat n: with its wager)",
        ATTENDANT_PAID_JACKPOTS: "hand pays: jackpots paid by the attendant, not to credits",
        ATTENDANT_PAID_JACKPOTS_AMOUNT: "cents paid by the attendant as hand pays",
        TIPS: "cents tipped to the dealers from the seats' credits",
        CASH_IN: "cents of credits added by the attendant",
        CASH_OUT: "cents of credits paid out by the attendant (cancelled credits)",
        POWER_UPS: "power-ups",
        OPERATOR_MENU_ENTRIES: "operator menu entries (logins)",
    })
    return out


DEFINITIONS: dict[str, str] = _definitions()
"""Every meter name, in display order, with a one-line definition for the meters screen."""


# --- public API --------------------------------------------------------------------------------

def dealer_meter_name(dealer_id: str, what: str) -> str:
    """The name of a dealer's meter: ``dealer.D0417.rounds``, ``dealer.D0417.tips``."""
    return f"dealer.{dealer_id}.{what}"


def dealer_meter(name: str) -> tuple[str, str] | None:
    """(dealer ID, what) of a per-dealer meter's name, or None for any other meter."""
    head, _, rest = name.partition(".")
    dealer_id, _, what = rest.partition(".")
    if head != "dealer" or not dealer_id or what not in (DEALER_ROUNDS, DEALER_TIPS):
        return None
    return dealer_id, what


def round_events(record: dict[str, Any]) -> list[Event]:
    """The record's events as the core's dataclasses, in the order they happened."""
    return [load_event(data) for data in record["events"]]


def round_meters(record: dict[str, Any]) -> Meters:
    """What one finished round adds to the meters.

    A voided round adds ``voids`` at seat 0 and nothing else but its single-wager
    voids (``wager_voids``, which settle nothing): the void returns
    every wager and reverses every payment and meter contribution of the round
    (MD Ch. 11), so its coin in and coin out net to nothing, and counting the
    half-played part would make the meters disagree with the seats' credits.
    """
    meters: Meters = Counter()
    if record["outcome"] == "voided":
        meters[TABLE, VOIDS] += 1
        for event in round_events(record):
            if isinstance(event, WagerVoided):
                _count_wager_void(meters, event)
        return meters
    played: set[int] = set()
    tied: set[int] = set()
    net: Counter[int] = Counter()
    triggered: tuple[int, ...] = ()
    awarded: list[tuple[int, int]] = []  # (seat, amount) of each progressive award
    validated = False  # the round ran under jackpot validation (a JackpotLocked in it)
    for event in round_events(record):
        match event:
            case WagerSettled(seat=seat, payment=payment, paid=paid, capped=capped):
                if payment.stake:
                    played.add(seat)
                    _add(meters, seat, COIN_IN[payment.kind], payment.stake)
                _add(meters, seat, COIN_OUT[payment.kind], paid)
                _add(meters, seat, CAPPED, capped)
                if payment.kind in MAIN_GAME_KINDS:
                    net[seat] += paid - payment.stake
            case DecisionsOpened(pending=pending):
                tied.update(seat for seat, _spot in pending)
            case DecisionMade(seat=seat, decision=decision):
                _add(meters, seat, WARS if decision is Decision.WAR else SURRENDERS, 1)
            case ProgressiveContributed(level=level, millionths=millionths, to_meter=to_meter,
                                        to_reserve=to_reserve):
                meters[TABLE, PROGRESSIVE_CONTRIBUTION[level]] += to_meter + to_reserve
                meters[TABLE, PROGRESSIVE_CONTRIBUTION_MILLIONTHS[level]] += millionths
            case ProgressiveAwarded(level=level, seat=seat, amount=amount):
                _add(meters, seat, PROGRESSIVE_HITS[level], 1)
                _add(meters, seat, PROGRESSIVE_AMOUNT[level], amount)
                awarded.append((seat, amount))
            case LinkedHitConfirmed(level=level, seat=seat, amount=amount):
                # SPEC §13: a linked level's hit, paid at the controller's amount; always
                # under validation (a JackpotLocked), so never in ``awarded``
                _add(meters, seat, PROGRESSIVE_HITS[level], 1)
                _add(meters, seat, PROGRESSIVE_AMOUNT[level], amount)
            case JackpotLocked():
                validated = True
            case HandPaid(seat=seat, amount=amount):
                _add(meters, seat, ATTENDANT_PAID_JACKPOTS, 1)
                _add(meters, seat, ATTENDANT_PAID_JACKPOTS_AMOUNT, amount)
            case BonusSpinTriggered(seats=seats):
                triggered = seats
                _count_round(meters, BONUS_SPIN_TRIGGERS, seats)
            case WheelStopped():
                _count_round(meters, BONUS_SPIN_SPINS, triggered)
            case WagerVoided():
                _count_wager_void(meters, event)
            case _:
                pass
    if not validated:  # recorded before jackpot validation: as that program counted them
        for seat, amount in awarded:
            _add(meters, seat, ATTENDANT_PAID_JACKPOTS, 1)
            _add(meters, seat, ATTENDANT_PAID_JACKPOTS_AMOUNT, amount)
    _count_round(meters, GAMES_PLAYED, played)
    for seat in played:
        _add(meters, seat, _game_result(seat in tied, net[seat]), 1)
    dealer = record.get("dealer")
    if dealer:  # MD Ch. 8 E(4): the round's dealer, as the record names it
        meters[TABLE, dealer_meter_name(str(dealer), DEALER_ROUNDS)] += 1
    return +meters  # drop the zeros: every meter is a non-negative sum


def log_meters(entry: dict[str, Any]) -> Meters:
    """What one event log entry adds to the meters.

    Voids are counted from the hand ledger, not from their log entry, so that
    a void is counted once.
    """
    meters: Meters = Counter()
    kind = entry["kind"]
    if kind in ("cash_in", "cash_out"):
        details = entry["details"]
        _add(meters, int(details["seat"]), CASH_IN if kind == "cash_in" else CASH_OUT,
             int(details["amount"]))
    elif kind == "tip":  # MD Ch. 2 D: to the dealer's tip box, never coin in or out
        details = entry["details"]
        amount = int(details["amount"])
        _add(meters, int(details["seat"]), TIPS, amount)
        meters[TABLE, dealer_meter_name(str(details["dealer"]), DEALER_TIPS)] += amount
    elif kind == "power_up":
        meters[TABLE, POWER_UPS] += 1
    elif kind == "operator_login":
        meters[TABLE, OPERATOR_MENU_ENTRIES] += 1
    return +meters


def sum_meters(records: Iterable[dict[str, Any]], entries: Iterable[dict[str, Any]]) -> Meters:
    """The meters that ``records`` and ``entries`` add up to: what the meters table must equal.

    The caller passes the rounds and entries recorded since the last RAM clear,
    for one paytable.
    """
    total: Meters = Counter()
    for record in records:
        total.update(round_meters(record))
    for entry in entries:
        total.update(log_meters(entry))
    return total


# --- helpers -----------------------------------------------------------------------------------

def _add(meters: Meters, seat: int, name: str, value: int) -> None:
    """Add ``value`` to the seat's meter and to the whole table's."""
    meters[seat, name] += value
    meters[TABLE, name] += value


def _count_wager_void(meters: Meters, event: WagerVoided) -> None:
    _add(meters, event.seat, WAGER_VOIDS, 1)
    _add(meters, event.seat, WAGER_VOIDS_AMOUNT, event.amount)


def _game_result(tied: bool, net: int) -> str:
    """Won, lost or tied: the three partition the games a seat played.

    A tie hand is Casino War's own event (it leads to War or Surrender), so it
    decides first; otherwise the seat's net over its Initial, Tie, War and
    War-deal Tie Wagers does, and breaking even is not a win.
    """
    if tied:
        return GAMES_TIED
    return GAMES_WON if net > 0 else GAMES_LOST


def _count_round(meters: Meters, name: str, seats: Iterable[int]) -> None:
    """Count one round at seat 0, and one at each seat that took part."""
    meters[TABLE, name] += 1
    for seat in seats:
        meters[seat, name] += 1
