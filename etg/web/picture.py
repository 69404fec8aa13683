"""The floor as the pages are sent it: one consistent read, as JSON-ready dicts.

:func:`read_picture` reads the controller's views through :mod:`etg.floor.reads`
(one REPEATABLE READ snapshot: a page never sees a hit without its reset) and
adds what the pages need to judge it: the time of the read, and each level's
books checked against the pool's identity (seed + contributions + adjustments =
current + wins + overflow + reserve, to the cent: SPEC §13, NJ 13:69E-1.39A).

Times go out as Unix seconds (the pages count heartbeat ages from them), money
as integer cents, never floats of dollars.

:func:`sign_view` is what the sign's stream carries: the meters and the hits'
amounts, tables and seats, and nothing about dealers, outboxes or the books.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

import psycopg

from etg.core.paytable import ProgressiveLevel
from etg.floor.reads import FloorView, HitView, LevelView, TableView, floor_view
from etg.web.board import Picture

_RANK = {level.value: rank for rank, level in enumerate(ProgressiveLevel)}
"""The levels in the paytable's order: the Bonus Spin primary (the sign's largest figure),
the secondary, then the Progressive Payout."""

SIGN_HITS = 5
"""Hits the sign is sent: enough for a run of near-simultaneous ones, in their order."""


def read_picture(conn: psycopg.Connection[Any]) -> Picture:
    return picture_of(floor_view(conn), time.time())


def picture_of(view: FloorView, now: float) -> Picture:
    ordered = sorted(view.levels, key=lambda level: (_RANK.get(level.level, len(_RANK)),
                                                     level.level))
    levels = [_level(level) for level in ordered]
    return {
        "controller": {"up": True},
        "now": now,
        "levels": levels,
        "tables": [_table(table) for table in view.tables],
        "hits": [_hit(hit) for hit in reversed(view.hits)],  # the newest first
        "reconciliation": _pool_books(view.levels, now),
    }


def sign_view(picture: Picture) -> Picture:
    """The sign's share of a picture: meters and the last hits' winners, nothing else."""
    return {
        "controller": picture.get("controller", {"up": False}),
        "now": picture.get("now"),
        "levels": [{key: level[key] for key in ("level", "current_cents", "hits",
                                                "adjustments", "contributions_cents")}
                   for level in picture.get("levels", [])],
        "hits": [{key: hit[key] for key in ("hit_id", "order_no", "level", "asset_number",
                                            "table_id", "seat", "amount_cents", "claimed_at")}
                 for hit in picture.get("hits", [])[:SIGN_HITS]],
    }


def _level(level: LevelView) -> dict[str, Any]:
    return {
        "level": level.level,
        "current_cents": level.current_cents,
        "seed_cents": level.seed_cents,
        "contributions_cents": level.contributions_cents,
        "contributions_today_cents": level.contributions_today_cents,
        "wins_cents": level.wins_cents,
        "overflow_cents": level.overflow_cents,
        "reserve_cents": level.reserve_cents,
        "carry_millionths": level.carry_millionths,
        "hits": level.hits,
        # Any change of the adjustments' sum is a recorded, supervisor-signed adjustment:
        # with a hit, the only way a page may show a meter lower than before.
        "adjustments": level.adjustments_cents,
        "ceiling_cents": level.ceiling_cents,
        "reset_cents": level.reset_cents,
    }


def _table(table: TableView) -> dict[str, Any]:
    return {
        "table_id": table.table_id,
        "asset_number": table.asset_number,
        "state": table.state,
        "link_state": table.link_state,
        "last_heartbeat": _seconds(table.last_heartbeat),
        "outbox_depth": table.outbox_depth,
        "dealer": table.dealer,
        "rounds": table.rounds,
        "rounds_today": table.rounds_today,
        "linked_levels": list(table.linked_levels),
        "contributions_cents": dict(table.contributions_cents),
    }


def _hit(hit: HitView) -> dict[str, Any]:
    return {
        "hit_id": hit.hit_id,
        "order_no": hit.order_no,
        "level": hit.level,
        "table_id": hit.table_id,
        "asset_number": hit.asset_number,
        "seat": hit.seat,
        "round": hit.round,
        "amount_cents": hit.amount_cents,
        "reset_to_cents": hit.reset_to_cents,
        "claimed_at": _seconds(hit.claimed_at),
        "validator": hit.validator,
        "validator_role": hit.validator_role,
        "validated_at": _seconds(hit.validated_at),
    }


def _pool_books(levels: tuple[LevelView, ...], now: float) -> dict[str, Any]:
    """Each level's identity, checked on this very snapshot: exact, or the first difference."""
    for level in levels:
        came_in = level.seed_cents + level.contributions_cents + level.adjustments_cents
        went_to = (level.current_cents + level.wins_cents + level.overflow_cents
                   + level.reserve_cents)
        if came_in != went_to:
            return {"at": now, "exact": False,
                    "difference": f"{level.level}: seed + contributions + adjustments "
                                  f"{came_in} ¢ ≠ current + wins + overflow + reserve "
                                  f"{went_to} ¢ ({came_in - went_to:+d} ¢)"}
    return {"at": now, "exact": True if levels else None, "difference": None}


def _seconds(moment: datetime | None) -> float | None:
    return None if moment is None else moment.timestamp()
