"""The table functions of the controller, called from Python: one call, one transaction.

A table connects with its own role (``TableLogin``) and may do nothing but call
these six (etg/floor/sql/001_floor.sql, 005_ship_in_sets.sql, 006_hit_spot_and_voids.sql).
Each wrapper runs its call in its own transaction and returns the answer as frozen dataclasses;
a refusal of the controller raises :class:`~etg.floor.errors.FloorRefusal`, a lost link psycopg's
``OperationalError``. The link client (etg/floor/link*.py) is built on these.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from etg.floor.errors import refusal


@dataclass(frozen=True, slots=True)
class Contribution:
    """One linked wager's contribution as the table ships it (keyed by round, seat, level)."""

    round: int
    seat: int
    level: str
    wager_cents: int

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.round, self.seat, self.level)


@dataclass(frozen=True, slots=True)
class Shipped:
    """The controller's acknowledgement: the keys it holds now, and the meters after."""

    acked: tuple[tuple[int, int, str], ...]
    meters: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Hit:
    """A claimed hit: its id, amount, order among the level's hits, and the meters after.

    Keyed by (table, round, seat, spot, level): one seat's hands on two spots are two hits.
    ``spot`` is None only for a hit claimed before the controller recorded spots (migration
    005) and not claimed again since.
    """

    hit_id: int
    level: str
    table_id: str
    round: int
    seat: int
    spot: int | None
    percent: int
    order_no: int
    meter_cents: int
    amount_cents: int
    reset_to_cents: int
    validator: str | None
    validator_role: str | None
    meters: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Voided:
    """The controller's record of a round its table voided: how many of the round's
    contributions this call marked (0 on a retry), how many it holds, their cents, and when
    the round was first marked (None: it holds none, the round was voided before No More Bets)."""

    table_id: str
    round: int
    marked: int
    contributions: int
    cents: int
    voided_at: str | None


@dataclass(frozen=True, slots=True)
class Beat:
    """The answer to a heartbeat: the meters, each linked level's parameters, the server's
    clock (ISO 8601, UTC)."""

    meters: Mapping[str, int]
    levels: Mapping[str, Mapping[str, int | None]]
    now: str


def ship(conn: psycopg.Connection[Any], table_id: str, batch: Sequence[Contribution], *,
         chain_seq: int, chain_head: str, rounds: int, announce_new: bool = True) -> Shipped:
    """Ship ``batch`` (committed when this returns) and, if it held rows new to the controller
    and ``announce_new``, :func:`announce` them to the floor (a caller timing the commit
    itself announces afterwards)."""
    payload = [{"round": c.round, "seat": c.seat, "level": c.level,
                "wager_cents": c.wager_cents} for c in batch]
    answer = _call(conn, "SELECT floor.ship(%s, %s, %s, %s, %s)",
                   (table_id, Jsonb(payload), chain_seq, chain_head, rounds))
    if answer.get("new") and announce_new:  # rows new to the controller: the floor hears
        announce(conn, table_id)
    return Shipped(tuple((int(r), int(s), str(lv)) for r, s, lv in answer["acked"]),
                   _meters(answer))


def announce(conn: psycopg.Connection[Any], table_id: str) -> Mapping[str, int]:
    """Tell the floor (NOTIFY) that the table's last shipment changed the meters: called once
    ``floor.ship`` has answered, so the table's acknowledgement never waits for every
    listener on the floor to wake (migration 005). The meters as they stand."""
    return _meters(_call(conn, "SELECT floor.announce(%s)", (table_id,)))


def claim_hit(conn: psycopg.Connection[Any], table_id: str, round_no: int, seat: int, spot: int,
              level: str, percent: int) -> Hit:
    """Claim the hit of ``seat``'s hand on ``spot`` (0: the seat's own, a Bonus Spin) when it
    is paid (MD Ch. 10 D(4)); a retry returns the same hit."""
    return _hit(_call(conn, "SELECT floor.claim_hit(%s, %s, %s, %s, %s, %s)",
                      (table_id, round_no, seat, spot, level, percent)))


def validate_hit(conn: psycopg.Connection[Any], table_id: str, hit_id: int, validator: str,
                 role: str) -> Hit:
    return _hit(_call(conn, "SELECT floor.validate_hit(%s, %s, %s, %s)",
                      (table_id, hit_id, validator, role)))


def void_round(conn: psycopg.Connection[Any], table_id: str, round_no: int) -> Voided:
    """The table voided ``round_no`` (MD Ch. 11 D): its contributions are marked voided, left in
    the pool (house-funded). Idempotent."""
    answer = _call(conn, "SELECT floor.void_round(%s, %s)", (table_id, round_no))
    return Voided(str(answer["table"]), int(answer["round"]), int(answer["marked"]),
                  int(answer["contributions"]), int(answer["cents"]), answer["voided_at"])


def heartbeat(conn: psycopg.Connection[Any], table_id: str, state: str, dealer: str | None,
              outbox: int) -> Beat:
    answer = _call(conn, "SELECT floor.heartbeat(%s, %s, %s, %s)",
                   (table_id, state, dealer, outbox))
    return Beat(_meters(answer), {level: dict(rules) for level, rules
                                  in answer["levels"].items()}, str(answer["now"]))


def _call(conn: psycopg.Connection[Any], query: str, args: tuple[Any, ...]) -> dict[str, Any]:
    with refusal(), conn.transaction():
        row = conn.execute(query.encode(), args).fetchone()
    value = row[0] if row else None
    result = json.loads(value) if isinstance(value, str) else value
    if not isinstance(result, dict):
        raise psycopg.DataError(f"the controller answered {value!r}")
    return result


def _meters(answer: Mapping[str, Any]) -> dict[str, int]:
    return {str(level): int(cents) for level, cents in answer["meters"].items()}


def _hit(answer: Mapping[str, Any]) -> Hit:
    return Hit(int(answer["hit_id"]), str(answer["level"]), str(answer["table"]),
               int(answer["round"]), int(answer["seat"]),
               None if answer["spot"] is None else int(answer["spot"]), int(answer["percent"]),
               int(answer["order_no"]), int(answer["meter_cents"]),
               int(answer["amount_cents"]), int(answer["reset_to_cents"]),
               answer["validator"], answer["validator_role"], _meters(answer))
