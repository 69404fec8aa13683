"""What a linked table's own ledger recorded for the link, read for ``etg floor reconcile``.

The table's side (etg/floor/outbox*.py) commits each linked round's contributions
to the table's SQLite ledger with the round (write before show), then ships them;
the controller's confirmed hits go there too. The shapes agreed in docs/floor.md:

- ``floor_outbox(table_id TEXT, round INTEGER, seat INTEGER, level TEXT,
  wager_cents INTEGER, acked_at TEXT NULL, PRIMARY KEY (round, seat, level))``:
  every contribution, acknowledged (``acked_at``) or still waiting.
- ``floor_hits(table_id TEXT, round INTEGER, seat INTEGER, level TEXT,
  amount_cents INTEGER, hit_id INTEGER, PRIMARY KEY (round, seat, level))``: the
  amounts the controller confirmed for the table's linked hits.

The ledger is opened read-only (``mode=ro``): reconciling never writes a ledger and
works beside a running kiosk.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from etg.floor.functions import Contribution
from etg.floor.reconcile import LocalBook, LocalHit


class LocalBookError(Exception):
    """The ledger cannot be read as a linked table's: the message says why, in one line."""


def read_local_book(ledger: Path) -> LocalBook:
    """The linked contributions and hits recorded in ``ledger``, all of one table."""
    if not ledger.is_file():
        raise LocalBookError(f"{ledger}: no such ledger")
    try:
        conn = sqlite3.connect(f"{ledger.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise LocalBookError(f"{ledger}: cannot open: {error}") from None
    try:
        names = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "floor_outbox" not in names:
            raise LocalBookError(f"{ledger}: not a linked table's ledger (no floor_outbox)")
        contributions = conn.execute(
            "SELECT table_id, round, seat, level, wager_cents FROM floor_outbox "
            "ORDER BY round, seat, level").fetchall()
        hits = (conn.execute("SELECT table_id, round, seat, level, amount_cents FROM floor_hits "
                             "ORDER BY round, seat, level").fetchall()
                if "floor_hits" in names else None)
    except sqlite3.Error as error:
        raise LocalBookError(f"{ledger}: cannot read its outbox: {error}") from None
    finally:
        conn.close()
    tables = {row[0] for row in contributions} | {row[0] for row in hits or []}
    if len(tables) > 1:
        raise LocalBookError(f"{ledger}: rows of several tables: {', '.join(sorted(tables))}")
    if not tables:
        raise LocalBookError(f"{ledger}: no linked contributions recorded")
    return LocalBook(
        tables.pop(),
        tuple(Contribution(int(r), int(s), str(lv), int(w)) for _, r, s, lv, w in contributions),
        None if hits is None else tuple(LocalHit(int(r), int(s), str(lv), int(a))
                                        for _, r, s, lv, a in hits))
