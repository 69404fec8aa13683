"""What the floor holds, read from the schema's views as frozen dataclasses.

The back office's commands (``etg floor status|meters|hits``) and the web pages
read through these; a ``floor_reader`` login may run every one of them (it may
SELECT the views and nothing else).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row


@dataclass(frozen=True, slots=True)
class LevelView:
    """One linked level: its parameters and its books, in cents (carry in millionths).

    ``seed + contributions + adjustments == current + wins + overflow + reserve``.
    """

    level: str
    initial_cents: int
    reset_cents: int
    rate_millionths: int
    ceiling_cents: int | None
    reserve_cap_cents: int | None
    opening_cents: int
    seed_cents: int
    contributions_cents: int
    current_cents: int
    wins_cents: int
    overflow_cents: int
    reserve_cents: int
    adjustments_cents: int
    carry_millionths: int
    hits: int
    paytable: str
    updated_at: datetime
    contributions_today_cents: int = 0  # since midnight of the controller's clock
    # of contributions_cents: the rounds their tables voided (MD Ch. 11 D); they stay in the
    # pool, as a meter goes down only through a hit or an adjustment, funded by the house
    voided_cents: int = 0
    voided_rounds: int = 0


@dataclass(frozen=True, slots=True)
class TableView:
    """One linked table: its state, link, heartbeat, outbox, dealer and rounds; its
    contributions per level in cents (whole cents it moved; see ``millionths`` for the exact
    share)."""

    table_id: str
    asset_number: str
    linked_levels: tuple[str, ...]
    state: str
    link_state: str
    last_heartbeat: datetime | None
    outbox_depth: int
    dealer: str | None
    rounds: int
    rounds_today: int
    chain_seq: int
    contributions_cents: Mapping[str, int]
    contributions_millionths: Mapping[str, int]
    wagers_cents: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class HitView:
    """One hit, in the order paid (``order_no`` within its level; ``hit_id`` across levels)."""

    hit_id: int
    order_no: int
    level: str
    table_id: str
    asset_number: str
    seat: int
    round: int
    percent: int
    meter_cents: int
    amount_cents: int
    reset_to_cents: int
    claimed_at: datetime
    validator: str | None
    validator_role: str | None
    validated_at: datetime | None
    spot: int | None = 0  # the seat's hand it paid; None: claimed before spots were recorded


@dataclass(frozen=True, slots=True)
class FloorView:
    """Everything a page shows, read in one transaction (one consistent snapshot)."""

    levels: tuple[LevelView, ...]
    tables: tuple[TableView, ...]
    hits: tuple[HitView, ...]


def levels(conn: psycopg.Connection[Any]) -> tuple[LevelView, ...]:
    rows = _rows(conn, "SELECT * FROM floor.level_meters ORDER BY level")
    return tuple(LevelView(**row) for row in rows)


def tables(conn: psycopg.Connection[Any]) -> tuple[TableView, ...]:
    shares: dict[str, dict[str, dict[str, int]]] = {}
    for row in _rows(conn, "SELECT * FROM floor.table_contributions"):
        mine = shares.setdefault(row["table_id"], {"cents": {}, "millionths": {}, "wagers": {}})
        mine["cents"][row["level"]] = int(row["cents"])
        mine["millionths"][row["level"]] = int(row["millionths"])
        mine["wagers"][row["level"]] = int(row["wagers_cents"])
    found = []
    for row in _rows(conn, "SELECT * FROM floor.table_status ORDER BY table_id"):
        mine = shares.get(row["table_id"], {"cents": {}, "millionths": {}, "wagers": {}})
        found.append(TableView(
            row["table_id"], row["asset_number"], tuple(row["linked_levels"]), row["state"],
            row["link_state"], row["last_heartbeat"], row["outbox_depth"], row["dealer"],
            row["rounds"], int(row["rounds_today"]), row["chain_seq"],
            mine["cents"], mine["millionths"], mine["wagers"]))
    return tuple(found)


def hits(conn: psycopg.Connection[Any], last: int = 25) -> tuple[HitView, ...]:
    """The last ``last`` hits, oldest first (the order they were paid)."""
    rows = _rows(conn, "SELECT * FROM (SELECT * FROM floor.last_hits ORDER BY hit_id DESC "
                       "LIMIT %s) h ORDER BY hit_id", (last,))
    return tuple(HitView(**row) for row in rows)


def floor_view(conn: psycopg.Connection[Any], last_hits: int = 25) -> FloorView:
    """Levels, tables and the last hits from one snapshot (REPEATABLE READ, read only)."""
    with conn.transaction(force_rollback=True):
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return FloorView(levels(conn), tables(conn), hits(conn, last_hits))


def _rows(conn: psycopg.Connection[Any], query: str,
          args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    with conn.cursor(row_factory=dict_row) as cursor:
        cursor.execute(query.encode(), args)
        return cursor.fetchall()
