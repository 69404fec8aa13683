"""Reconciliation of the floor, exact to the cent (SPEC §13, NJ 13:69E-1.39A).

Two halves:

- **The levels' books.** For each level, from the rows themselves (every
  contribution, hit and signed adjustment) and from the level's running totals:
  ``seed + contributions + adjustments = current + wins + overflow + reserve``,
  the millionths shipped equal the whole cents contributed times a million plus
  the carry, and each running total equals the sum of its rows.
- **Each table against its own ledger**, round by round: the contributions a
  table's ledger recorded for the link (its outbox, acknowledged or not) against
  the controller's rows for that table, its linked hits against the controller's
  hits, and its voided rounds against the controller's marks. A round the table
  recorded that the controller lacks is a difference too: ``reconcile`` runs
  after the outboxes have drained.

A voided round's contributions stay in the pool (a meter goes down only through
a hit or a signed adjustment, SPEC §13) and so in the books; the players had
their wagers back (MD Ch. 11 D), so the house funded them: each level says how
much (``voided_cents``).

Every difference names its level, or its table and round.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from etg.core.paytable import RATE_SCALE
from etg.floor.functions import Contribution


@dataclass(frozen=True, slots=True)
class LevelBooks:
    """One level's books in cents (carry in millionths), and whether they balance."""

    level: str
    seed_cents: int
    contributions_cents: int
    adjustments_cents: int
    current_cents: int
    wins_cents: int
    overflow_cents: int
    reserve_cents: int
    carry_millionths: int
    contributions_millionths: int
    hits: int
    voided_cents: int = 0  # of contributions_cents: rounds voided at their table (house-funded)

    @property
    def exact(self) -> bool:
        return (self.seed_cents + self.contributions_cents + self.adjustments_cents
                == self.current_cents + self.wins_cents + self.overflow_cents
                + self.reserve_cents
                and self.contributions_millionths
                == self.contributions_cents * RATE_SCALE + self.carry_millionths)


@dataclass(frozen=True, slots=True)
class LocalHit:
    """A linked hit as the table's ledger recorded it: the amount the controller confirmed for
    the seat's hand on ``spot`` (0: the seat's own, a Bonus Spin)."""

    round: int
    seat: int
    spot: int
    level: str
    amount_cents: int


@dataclass(frozen=True, slots=True)
class LocalBook:
    """What one table's own ledger recorded for the link."""

    table_id: str
    contributions: tuple[Contribution, ...]
    hits: tuple[LocalHit, ...] | None = None  # None: the ledger does not say; not compared
    voided_rounds: tuple[int, ...] | None = None  # rounds the table voided; None: not compared


@dataclass(frozen=True, slots=True)
class Difference:
    """One disagreement: where (a level, or a table and a round) and what."""

    where: str
    what: str
    table_id: str | None = None
    round: int | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclass(frozen=True, slots=True)
class Reconciliation:
    levels: tuple[LevelBooks, ...]
    differences: tuple[Difference, ...]
    tables_checked: tuple[str, ...]

    @property
    def exact(self) -> bool:
        return not self.differences


def reconcile(conn: psycopg.Connection[Any], books: Iterable[LocalBook] = ()) -> Reconciliation:
    """Both halves, from one snapshot of the controller (REPEATABLE READ, read only)."""
    with conn.transaction(force_rollback=True):
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        levels, differences = _levels(conn)
        checked = []
        for book in books:
            differences += _table(conn, book)
            checked.append(book.table_id)
    return Reconciliation(tuple(levels), tuple(differences), tuple(checked))


def _levels(conn: psycopg.Connection[Any]) -> tuple[list[LevelBooks], list[Difference]]:
    rows = _rows(conn, """
        SELECT l.*,
          (SELECT coalesce(sum(c.to_meter_cents + c.to_reserve_cents + c.overflow_cents), 0)
             FROM floor.contributions c WHERE c.level = l.level) AS rows_contributions,
          (SELECT coalesce(sum(c.millionths), 0) FROM floor.contributions c
             WHERE c.level = l.level) AS rows_millionths,
          (SELECT coalesce(sum(c.overflow_cents), 0) FROM floor.contributions c
             WHERE c.level = l.level) AS rows_overflow,
          (SELECT coalesce(sum(h.amount_cents), 0) FROM floor.hits h
             WHERE h.level = l.level) AS rows_wins,
          (SELECT coalesce(sum(h.seeded_cents), 0) FROM floor.hits h
             WHERE h.level = l.level) AS rows_seeded,
          (SELECT count(*) FROM floor.hits h WHERE h.level = l.level) AS rows_hits,
          (SELECT coalesce(sum(a.delta_cents), 0) FROM floor.adjustments a
             WHERE a.level = l.level AND a.kind = 'meter') AS rows_adjustments,
          (SELECT coalesce(sum(c.to_meter_cents + c.to_reserve_cents + c.overflow_cents), 0)
             FROM floor.contributions c
             WHERE c.level = l.level AND c.voided_at IS NOT NULL) AS rows_voided
        FROM floor.levels l ORDER BY l.level""")
    found, differences = [], []
    for row in rows:
        books = LevelBooks(row["level"], row["seed_cents"], row["contributions_cents"],
                           row["adjustments_cents"], row["current_cents"], row["wins_cents"],
                           row["overflow_cents"], row["reserve_cents"],
                           row["carry_millionths"], int(row["rows_millionths"]),
                           row["hits"], int(row["rows_voided"]))
        found.append(books)
        where = f"level {books.level}"
        totals = {
            "contributions": (books.contributions_cents, int(row["rows_contributions"])),
            "wins": (books.wins_cents, int(row["rows_wins"])),
            "overflow": (books.overflow_cents, int(row["rows_overflow"])),
            "seed": (books.seed_cents, row["opening_cents"] + int(row["rows_seeded"])),
            "adjustments": (books.adjustments_cents, int(row["rows_adjustments"])),
            "hits": (books.hits, int(row["rows_hits"])),
        }
        for name, (total, from_rows) in totals.items():
            if total != from_rows:
                differences.append(Difference(where, f"{name} total {total} but its rows "
                                                     f"sum to {from_rows}"))
        if not books.exact:
            differences.append(Difference(where, _imbalance(books)))
    differences += _table_totals(conn)
    return found, differences


def _table_totals(conn: psycopg.Connection[Any]) -> list[Difference]:
    """Each table's running totals per level (what the pages show) against its rows."""
    rows = _rows(conn, """
        SELECT coalesce(t.table_id, c.table_id) AS table_id, coalesce(t.level, c.level) AS level,
               coalesce(t.contributions, 0) AS kept_count, coalesce(c.n, 0) AS rows_count,
               coalesce(t.wagers_cents, 0) AS kept_wagers, coalesce(c.wagers, 0) AS rows_wagers,
               coalesce(t.millionths, 0) AS kept_millionths,
               coalesce(c.millionths, 0) AS rows_millionths,
               coalesce(t.cents, 0) AS kept_cents, coalesce(c.cents, 0) AS rows_cents
        FROM floor.table_totals t FULL JOIN (
            SELECT table_id, level, count(*) AS n, sum(wager_cents) AS wagers,
                   sum(millionths) AS millionths,
                   sum(to_meter_cents + to_reserve_cents + overflow_cents) AS cents
            FROM floor.contributions GROUP BY table_id, level) c
          ON c.table_id = t.table_id AND c.level = t.level
        ORDER BY 1, 2""")
    found = []
    for row in rows:
        for name in ("count", "wagers", "millionths", "cents"):
            kept, summed = int(row[f"kept_{name}"]), int(row[f"rows_{name}"])
            if kept != summed:
                found.append(Difference(f"table {row['table_id']} level {row['level']}",
                                        f"{name} total {kept} but its rows sum to {summed}",
                                        row["table_id"]))
    return found


def _imbalance(b: LevelBooks) -> str:
    left = b.seed_cents + b.contributions_cents + b.adjustments_cents
    right = b.current_cents + b.wins_cents + b.overflow_cents + b.reserve_cents
    if left != right:
        return (f"seed {b.seed_cents} + contributions {b.contributions_cents} + adjustments "
                f"{b.adjustments_cents} = {left}, but current {b.current_cents} + wins "
                f"{b.wins_cents} + overflow {b.overflow_cents} + reserve {b.reserve_cents} "
                f"= {right}")
    return (f"{b.contributions_millionths} millionths shipped, but {b.contributions_cents} "
            f"cents and a carry of {b.carry_millionths} millionths")


def _table(conn: psycopg.Connection[Any], book: LocalBook) -> list[Difference]:
    table = book.table_id
    known = conn.execute("SELECT 1 FROM floor.tables WHERE table_id = %s", (table,)).fetchone()
    if known is None:
        return [Difference(f"table {table}", "not on this floor", table)]
    theirs: dict[int, dict[tuple[int, str], int]] = defaultdict(dict)
    for row in _rows(conn, "SELECT round, seat, level, wager_cents FROM floor.contributions "
                           "WHERE table_id = %s", (table,)):
        theirs[row["round"]][(row["seat"], row["level"])] = row["wager_cents"]
    ours: dict[int, dict[tuple[int, str], int]] = defaultdict(dict)
    differences = []
    for c in book.contributions:
        if (c.seat, c.level) in ours[c.round]:
            differences.append(Difference(f"table {table} round {c.round}",
                                          f"seat {c.seat} {c.level} twice in the ledger",
                                          table, c.round))
        ours[c.round][(c.seat, c.level)] = c.wager_cents
    for round_no in sorted(set(theirs) | set(ours)):
        differences += _round(table, round_no, ours.get(round_no, {}),
                              theirs.get(round_no, {}))
    differences += _hits(conn, book)
    differences += _voids(conn, book)
    return differences


def _round(table: str, round_no: int, ours: Mapping[tuple[int, str], int],
           theirs: Mapping[tuple[int, str], int]) -> list[Difference]:
    where = f"table {table} round {round_no}"
    found = []
    for seat, level in sorted(set(ours) | set(theirs)):
        local, controller = ours.get((seat, level)), theirs.get((seat, level))
        if local == controller:
            continue
        if controller is None:
            what = f"seat {seat} {level}: {local} cents in the ledger, none at the controller"
        elif local is None:
            what = f"seat {seat} {level}: {controller} cents at the controller, none in the ledger"
        else:
            what = (f"seat {seat} {level}: {local} cents in the ledger, {controller} at the "
                    f"controller")
        found.append(Difference(where, what, table, round_no))
    return found


def _hits(conn: psycopg.Connection[Any], book: LocalBook) -> list[Difference]:
    if book.hits is None:
        return []
    table = book.table_id
    # a hit claimed before the controller recorded spots (migration 006) has none there
    theirs = {(r["round"], r["seat"], r["spot"], r["level"]): r["amount_cents"] for r in _rows(
        conn, "SELECT round, seat, spot, level, amount_cents FROM floor.hits "
              "WHERE table_id = %s", (table,))}
    ours = {(h.round, h.seat, h.spot, h.level): h.amount_cents for h in book.hits}
    found = []
    for key in sorted(set(ours) | set(theirs), key=lambda k: (k[0], k[1], k[2] or 0, k[3])):
        if ours.get(key) != theirs.get(key):
            round_no, seat, spot, level = key
            found.append(Difference(
                f"table {table} round {round_no}",
                f"seat {seat} spot {spot} {level} hit: {ours.get(key)} cents in the ledger, "
                f"{theirs.get(key)} at the controller", table, round_no))
    return found


def _voids(conn: psycopg.Connection[Any], book: LocalBook) -> list[Difference]:
    """Each round with linked contributions: voided in the ledger exactly when the controller
    marked all of them voided; and no voided round paid a linked hit (MD Ch. 9 J(4): such a
    round is finished by its validation, never voided)."""
    if book.voided_rounds is None:
        return []
    table = book.table_id
    ours = set(book.voided_rounds)
    marked = {r["round"]: (int(r["rows"]), int(r["voided"])) for r in _rows(
        conn, "SELECT round, count(*) AS rows, count(voided_at) AS voided "
              "FROM floor.contributions WHERE table_id = %s GROUP BY round", (table,))}
    contributed = {c.round for c in book.contributions}
    found = []
    for round_no in sorted((ours & contributed) | {r for r, (_, v) in marked.items() if v}):
        rows, voided = marked.get(round_no, (0, 0))
        where = f"table {table} round {round_no}"
        if round_no not in ours:
            found.append(Difference(where, f"{voided} contribution(s) marked voided at the "
                                           f"controller, but the ledger did not void the round",
                                    table, round_no))
        elif voided < rows:
            found.append(Difference(where, f"voided in the ledger, but {rows - voided} of its "
                                           f"{rows} contribution(s) not marked voided at the "
                                           f"controller", table, round_no))
    for r in _rows(conn, "SELECT DISTINCT round FROM floor.hits WHERE table_id = %s "
                         "ORDER BY round", (table,)):
        if r["round"] in ours:
            found.append(Difference(f"table {table} round {r['round']}",
                                    "voided in the ledger, but the controller paid a linked "
                                    "hit for it", table, r["round"]))
    return found


def _rows(conn: psycopg.Connection[Any], query: str,
          args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    with conn.cursor(row_factory=dict_row) as cursor:
        cursor.execute(query.encode(), args)
        return cursor.fetchall()
