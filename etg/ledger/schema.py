"""The ledger's schema: the migrations this program knows, and how old a file's schema is.

A file's schema is ``current``, ``older`` (the kiosk migrates it at its next
start) or ``newer`` (written by a newer program: never touched). The
migrations are sqlite-utils' (:class:`sqlite_utils.Migrations`), applied in
order, each once: ``0001`` and ``0002`` made the separate tables of schema 2,
``0003`` carries their rows into one keyed chain (:mod:`etg.ledger.legacy`),
``0004`` the compact format (:mod:`etg.ledger.entry`), ``0005`` the signed heads
(:mod:`etg.ledger.signing`).
"""

from __future__ import annotations

import contextvars
import sqlite3
import uuid
from pathlib import Path
from typing import Any

from sqlite_utils import Database, Migrations

from etg.ledger.entry import EntryKind
from etg.ledger.legacy import UNKEYED, VerboseWriter, convert
from etg.ledger.terms import LedgerError, LedgerKind, now

__all__ = ["MIGRATIONS", "applied_migrations", "migrate", "refuse_schema", "schema_age"]

migrations = Migrations("etg-ledger")
MIGRATIONS = ("0001_initial", "0002_checkpoints", "0003_chained_ledger", "0004_compact_ledger",
              "0005_signed_heads")
"""The migrations this program knows, in order (a file with others is from a newer program)."""

_MIGRATION_CONTEXT: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar(
    "etg_ledger_migration")


def migrate(db: Database, *, kind: LedgerKind, rng: str, fresh: bool) -> None:
    """Apply the migrations the file lacks, each in its own transaction.

    ``kind`` and ``rng`` are for ``0003``: an older ledger's rows are chained after a
    genesis of this kind; ``fresh``: a new file, whose genesis is written after the
    migrations, as its first compact entry.
    """
    token = _MIGRATION_CONTEXT.set({"kind": kind, "rng": rng, "fresh": fresh})
    try:
        migrations.apply(db)
    finally:
        _MIGRATION_CONTEXT.reset(token)


def applied_migrations(conn: sqlite3.Connection) -> list[str]:
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE name = '_sqlite_migrations'"
                          ).fetchone()
    if not exists:
        return []
    return [r[0] for r in conn.execute(
        "SELECT name FROM _sqlite_migrations WHERE migration_set = 'etg-ledger' ORDER BY rowid")]


def schema_age(conn: sqlite3.Connection, applied: list[str]) -> str:
    """"current", "older" (to migrate) or "newer" (never touched).

    A newer program's migrations follow ours. Whether the file still needs
    converting is read from the tables themselves (the compact chain has a
    ``format`` column), not from the migrations table: an edited migrations
    table is for verify to report, never a reason to migrate again.
    """
    known = list(MIGRATIONS)
    if applied[:len(known)] == known and any(name not in known for name in applied):
        return "newer"
    columns = {r[1] for r in conn.execute("PRAGMA table_info(entries)")}
    signed = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                          "name = 'head_signature'").fetchone()
    if "format" in columns and signed:
        return "current"
    return "newer" if any(name not in known for name in applied) else "older"


def refuse_schema(path: Path, applied: list[str], write: bool) -> None:
    unknown = [name for name in applied if name not in MIGRATIONS]
    if unknown:
        raise LedgerError(f"{path}: written by a newer program (schema {', '.join(unknown)}); "
                          f"this program knows {len(MIGRATIONS)} migrations and will not "
                          f"touch it")
    if not write:
        raise LedgerError(f"{path}: written by an older program (schema {len(applied)} of "
                          f"{len(MIGRATIONS)}); the kiosk converts it at its next start, "
                          f"audit commands never change a ledger")


_SCHEMA_1 = [
    "CREATE TABLE journal (seq INTEGER PRIMARY KEY, round INTEGER NOT NULL, command TEXT NOT NULL,"
    " actor TEXT, at TEXT NOT NULL, events TEXT NOT NULL)",
    "CREATE INDEX journal_round ON journal (round)",
    "CREATE TABLE snapshots (seq INTEGER PRIMARY KEY, state TEXT NOT NULL)",
    "CREATE TABLE hand_ledger (round INTEGER PRIMARY KEY, ended_at TEXT NOT NULL,"
    " outcome TEXT NOT NULL, record TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL)",
    "CREATE TABLE meters (paytable_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,"
    " value INTEGER NOT NULL, PRIMARY KEY (paytable_id, seat, name))",
    "CREATE TABLE event_log (id INTEGER PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL,"
    " actor TEXT, details TEXT NOT NULL)",
    "CREATE TABLE paytables (sha256 TEXT PRIMARY KEY, id TEXT NOT NULL, source TEXT NOT NULL)",
    "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    *(
        f"CREATE TRIGGER {table}_no_{verb} BEFORE {verb.upper()} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
        for table in ("journal", "hand_ledger", "event_log")
        for verb in ("update", "delete")
    ),
]


@migrations(name="0001_initial")
def _initial(db: Database) -> None:
    for statement in _SCHEMA_1:
        db.execute(statement)


@migrations(name="0002_checkpoints")
def _checkpoints(db: Database) -> None:
    db.execute(
        "CREATE TABLE checkpoints (round INTEGER PRIMARY KEY, hash TEXT NOT NULL,"
        " event_id INTEGER NOT NULL, meters TEXT NOT NULL)"
    )


@migrations(name="0003_chained_ledger")
def _chained(db: Database) -> None:
    """One keyed chain for every row; an older ledger's rows are carried over into it."""
    context = _MIGRATION_CONTEXT.get()
    db.execute(
        "CREATE TABLE entries (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
        " round INTEGER NOT NULL, at TEXT NOT NULL, actor TEXT, tag TEXT,"
        " body TEXT NOT NULL, hash BLOB NOT NULL)")
    db.execute("CREATE INDEX entries_kind ON entries (kind, seq)")
    db.execute("CREATE INDEX entries_round ON entries (kind, round, seq)")
    db.execute("CREATE INDEX entries_tag ON entries (tag, seq)")
    for verb in ("update", "delete"):
        db.execute(f"CREATE TRIGGER entries_no_{verb} BEFORE {verb.upper()} ON entries "
                   f"BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END")
    if not context["fresh"]:  # a new ledger's genesis is its first compact entry (0004)
        # MACed under no secret: the signed chain seals these entries as the migration
        # ends (:data:`etg.ledger.legacy.UNKEYED`), and they verify without any old key.
        writer = VerboseWriter(db.conn, UNKEYED)
        writer.append(EntryKind.GENESIS, {"ledger_id": str(uuid.uuid4()),
                                          "kind": context["kind"].value, "rng": context["rng"],
                                          "created_at": now()})
        convert(db.conn, writer)
    for table in ("journal", "snapshots", "hand_ledger", "event_log", "paytables", "settings",
                  "checkpoints"):
        db.execute(f"DROP TABLE {table}")


_PARTIAL_INDEXES = {
    "entries_checkpoints": "(seq) WHERE kind = 'checkpoint'",
    "entries_rounds": "(round) WHERE kind = 'round'",
    "entries_events": "(seq) WHERE kind = 'event'",
    "entries_event_tags": "(tag) WHERE kind = 'event'",
    "entries_settings": "(tag) WHERE kind = 'setting'",
    "entries_paytables": "(tag) WHERE kind = 'paytable'",
    "entries_schema": "(seq) WHERE kind = 'schema'",
}
"""What the readers look up, each index on its own kind: a command, most of the entries,
is written into the table alone (the rowid is the chain's order), and a round into one index."""


@migrations(name="0004_compact_ledger")
def _compact(db: Database) -> None:
    """The compact format (:mod:`etg.ledger.entry`): entries written from now on are compact,
    the verbose ones stay as they were, sealed by the first compact entry (written by
    :meth:`~etg.ledger.store.Ledger.open` with the layout, as the migration's own transaction ends).

    The table is made again with the columns' new types (times as integers, bodies as
    bytes) and the verbose rows copied into it unchanged: their text keeps its type
    (an ISO time is not a number to SQLite), so their hashes still hold.
    """
    db.execute("CREATE TABLE entries_compact (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
               " round INTEGER NOT NULL, at INTEGER NOT NULL, actor TEXT, tag TEXT,"
               " body BLOB NOT NULL, hash BLOB NOT NULL, format INTEGER)")
    db.execute("INSERT INTO entries_compact (seq, kind, round, at, actor, tag, body, hash) "
               "SELECT seq, kind, round, at, actor, tag, body, hash FROM entries ORDER BY seq")
    db.execute("DROP TABLE entries")
    db.execute("ALTER TABLE entries_compact RENAME TO entries")
    for name, definition in _PARTIAL_INDEXES.items():
        db.execute(f"CREATE INDEX {name} ON entries {definition}")
    for verb in ("update", "delete"):
        db.execute(f"CREATE TRIGGER entries_no_{verb} BEFORE {verb.upper()} ON entries "
                   f"BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END")


@migrations(name="0005_signed_heads")
def _signed(db: Database) -> None:
    """The newest head signed with the Ed25519 private key (:mod:`etg.ledger.signing`): one
    row, replaced by each commit with its last entry's number and signature. Entries written
    from now on are chained by an unkeyed hash; the MACed ones before stay as they were,
    sealed by the first entry after them (:meth:`~etg.ledger.store.Ledger.open`)."""
    db.execute("CREATE TABLE head_signature (id INTEGER PRIMARY KEY CHECK (id = 1),"
               " seq INTEGER NOT NULL, signature BLOB NOT NULL)")
