"""The SQLite ledger: journal, snapshots, hand ledger, meters and event log in one file.

- **Journal**: every command the table accepted, with its events, one row per
  state change, written in one transaction before anything is shown (SPEC §5).
- **Snapshots**: the whole table state when betting opens. A restart loads the
  last snapshot and replays the journal after it; the engine is a pure
  function and the draws travel inside the commands, so the state comes back
  exactly: the shoe, the cards, the wagers, the meters and their carries.
- **Hand ledger**: one append-only row per finished round, each carrying the
  SHA-256 of the previous row's hash and its own canonical content.
- **Meters**: per paytable and per seat, updated in the transaction that
  finishes a round or moves credits, so they always equal the ledger's sums.
- **Event log**: power-ups, tilts, operator actions, voids, reshuffles, credits.

The file lives outside the installed program (by default the platform's
per-user data directory). A file that is not ours, is damaged, or was written
by a newer program is refused and never overwritten.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs
from sqlite_utils import Database, Migrations

from etg.core.commands import Command
from etg.core.events import Event
from etg.core.state import TableState
from etg.ledger.codec import canonical, dump_command, dump_event, dump_state, load_state
from etg.ledger.meters import log_meters

APPLICATION_ID = 0x45544731  # "ETG1" in the SQLite header: this file is an ETG ledger
GENESIS = "0" * 64  # the previous hash of round 1
_HEADER = b"SQLite format 3\x00"

migrations = Migrations("etg-ledger")


class LedgerError(RuntimeError):
    """The file cannot be used as a ledger; the message says why. Nothing was written."""


def default_path(demo_of: str | None = None) -> Path:
    """The ledger in the platform's per-user data directory, never inside the program.

    Demo play gets a ledger of its own per paytable version (``demo_of``, e.g.
    ``md-community-5-e87bf504``): it never touches the cabinet's meters, and an
    edited paytable starts a fresh demo instead of tilting the old one.
    """
    folder = Path(platformdirs.user_data_dir("etg", appauthor=False))
    return folder / (f"demo-{demo_of}.db" if demo_of else "ledger.db")


def now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True)
class Problem:
    """One integrity failure: what is wrong, in words an operator can act on."""

    check: str  # quick_check, hash_chain, meters, paytable, journal
    message: str


class Ledger:
    """One ledger file. Use :meth:`open`; every write goes through a transaction."""

    def __init__(self, db: Database, path: Path) -> None:
        self.db = db
        self.path = path

    # --- opening ----------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path) -> Ledger:
        """Open or create the ledger at ``path``; raises :class:`LedgerError`."""
        path = Path(path)
        fresh = not path.exists() or path.stat().st_size == 0
        if not fresh:
            _check_header(path)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(path, isolation_level=None, timeout=30)
        except sqlite3.Error as error:
            raise LedgerError(f"{path}: cannot open the ledger: {error}") from None
        try:
            return cls._prepare(conn, path, fresh)
        except sqlite3.DatabaseError as error:
            conn.close()
            raise LedgerError(
                f"{path}: the ledger is damaged ({error}); it was left as it is "
                f"for an investigation"
            ) from None

    @classmethod
    def _prepare(cls, conn: sqlite3.Connection, path: Path, fresh: bool) -> Ledger:
        application_id = conn.execute("PRAGMA application_id").fetchone()[0]
        has_tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0
        if application_id != APPLICATION_ID and (has_tables or not fresh):
            conn.close()
            raise LedgerError(
                f"{path}: not an ETG ledger (application id {application_id:#x}); "
                f"it was not changed"
            )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        if application_id != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db = Database(conn)
        known = {m.name for m in migrations._migrations}
        unknown = [m.name for m in migrations.applied(db) if m.name not in known]
        if unknown:
            conn.close()
            raise LedgerError(
                f"{path}: written by a newer program (schema {', '.join(unknown)}); "
                f"this program knows {len(known)} migrations and will not touch it"
            )
        migrations.apply(db)
        return cls(db, path)

    def close(self) -> None:
        self.db.close()

    @property
    def schema_version(self) -> int:
        return len(migrations.applied(self.db))

    # --- writing ----------------------------------------------------------------------------

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        """One transaction: everything inside is committed together, or nothing is."""
        with self.db.atomic():
            yield

    def append_command(
        self, round_number: int, command: Command, actor: str | None, events: list[Event], at: str
    ) -> int:
        """Journal one accepted command with its events; returns its sequence number."""
        cursor = self.db.execute(
            "INSERT INTO journal (round, command, actor, at, events) VALUES (?, ?, ?, ?, ?)",
            [
                round_number,
                json.dumps(dump_command(command)),
                actor,
                at,
                json.dumps([dump_event(e) for e in events]),
            ],
        )
        return int(cursor.lastrowid or 0)

    def save_snapshot(self, seq: int, state: TableState) -> None:
        """The whole state after journal row ``seq``; older snapshots but one are pruned."""
        self.db.execute(
            "INSERT INTO snapshots (seq, state) VALUES (?, ?)", [seq, dump_state(state)]
        )
        self.db.execute(
            "DELETE FROM snapshots WHERE seq < (SELECT min(seq) FROM "
            "(SELECT seq FROM snapshots ORDER BY seq DESC LIMIT 2))"
        )

    def append_round(self, record: dict[str, Any]) -> str:
        """Add a finished round to the hand ledger, chained to the one before; returns its hash."""
        row = self.db.execute("SELECT hash FROM hand_ledger ORDER BY round DESC LIMIT 1").fetchone()
        previous = row[0] if row else GENESIS
        content = canonical(record)
        digest = chain_hash(previous, content)
        self.db.execute(
            "INSERT INTO hand_ledger (round, ended_at, outcome, record, prev_hash, hash) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [record["round"], record["ended_at"], record["outcome"], content, previous, digest],
        )
        return digest

    def log(
        self, kind: str, actor: str | None, details: dict[str, Any], at: str | None = None
    ) -> dict[str, Any]:
        """Add an event-log entry, and the meters it counts; returns it as stored."""
        at = at or now()
        cursor = self.db.execute(
            "INSERT INTO event_log (at, kind, actor, details) VALUES (?, ?, ?, ?)",
            [at, kind, actor, canonical(details)],
        )
        entry = {"id": cursor.lastrowid, "at": at, "kind": kind, "actor": actor, "details": details}
        self.add_meters(str(details.get("paytable_id", "cabinet")), log_meters(entry))
        return entry

    def add_meters(self, paytable_id: str, deltas: Counter[tuple[int, str]]) -> None:
        """Add ``deltas`` to the meters; meters never go down but through a logged RAM clear."""
        for (seat, name), delta in sorted(deltas.items()):
            if delta < 0:
                raise LedgerError(f"meter {name} of seat {seat} would decrease by {-delta}")
            if delta:
                self.db.execute(
                    "INSERT INTO meters (paytable_id, seat, name, value) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (paytable_id, seat, name) "
                    "DO UPDATE SET value = value + excluded.value",
                    [paytable_id, seat, name, delta],
                )

    def remember_paytable(self, sha256: str, paytable_id: str, source: str) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO paytables (sha256, id, source) VALUES (?, ?, ?)",
            [sha256, paytable_id, source],
        )

    def set_setting(self, key: str, value: str) -> None:
        self.db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [key, value],
        )

    # --- reading ----------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
        return None if row is None else str(row[0])

    def last_snapshot(self) -> tuple[int, TableState] | None:
        row = self.db.execute(
            "SELECT seq, state FROM snapshots ORDER BY seq DESC LIMIT 1"
        ).fetchone()
        return None if row is None else (int(row[0]), load_state(row[1]))

    def journal_after(self, seq: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT seq, round, command, actor, at, events FROM journal WHERE seq > ? ORDER BY seq",
            [seq],
        ).fetchall()
        return [
            {
                "seq": r[0],
                "round": r[1],
                "command": json.loads(r[2]),
                "actor": r[3],
                "at": r[4],
                "events": json.loads(r[5]),
            }
            for r in rows
        ]

    def round_journal(self, round_number: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT seq, command, at, events FROM journal WHERE round = ? ORDER BY seq",
            [round_number],
        ).fetchall()
        return [
            {"seq": r[0], "command": json.loads(r[1]), "at": r[2], "events": json.loads(r[3])}
            for r in rows
        ]

    def snapshot_at(self, seq: int) -> TableState | None:
        row = self.db.execute("SELECT state FROM snapshots WHERE seq = ?", [seq]).fetchone()
        return None if row is None else load_state(row[0])

    def rounds(self, last: int | None = None) -> list[dict[str, Any]]:
        """Hand ledger records, oldest first (the ``last`` ones if given)."""
        sql = "SELECT record FROM hand_ledger ORDER BY round"
        if last is not None:
            sql = (
                f"SELECT record FROM (SELECT round, record FROM hand_ledger ORDER BY round DESC "
                f"LIMIT {int(last)}) ORDER BY round"
            )
        return [json.loads(r[0]) for r in self.db.execute(sql).fetchall()]

    def rounds_after(self, round_number: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT record FROM hand_ledger WHERE round > ? ORDER BY round", [round_number]
        ).fetchall()
        return [json.loads(r[0]) for r in rows]

    def round_hash(self, round_number: int) -> str | None:
        row = self.db.execute(
            "SELECT hash FROM hand_ledger WHERE round = ?", [round_number]
        ).fetchone()
        return None if row is None else str(row[0])

    def last_checkpoint(self) -> dict[str, Any] | None:
        row = self.db.execute(
            "SELECT round, hash, event_id, meters FROM checkpoints ORDER BY round DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        return {"round": row[0], "hash": row[1], "event_id": row[2], "meters": json.loads(row[3])}

    def save_checkpoint(
        self, round_number: int, digest: str, event_id: int, meters: dict[str, list[list[Any]]]
    ) -> None:
        """Meter sums and chain hash as verified through ``round_number`` and ``event_id``."""
        self.db.execute(
            "INSERT OR REPLACE INTO checkpoints (round, hash, event_id, meters) "
            "VALUES (?, ?, ?, ?)",
            [round_number, digest, event_id, canonical(meters)],
        )

    def last_event_id(self) -> int:
        return int(self.db.execute("SELECT coalesce(max(id), 0) FROM event_log").fetchone()[0])

    def round_count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM hand_ledger").fetchone()[0])

    def event_log(self, kind: str | None = None) -> list[dict[str, Any]]:
        where, args = ("WHERE kind = ?", [kind]) if kind else ("", [])
        rows = self.db.execute(
            f"SELECT id, at, kind, actor, details FROM event_log {where} ORDER BY id", args
        ).fetchall()
        return [
            {"id": r[0], "at": r[1], "kind": r[2], "actor": r[3], "details": json.loads(r[4])}
            for r in rows
        ]

    def last_events(self, kinds: tuple[str, ...], limit: int) -> list[dict[str, Any]]:
        """The newest ``limit`` event-log entries of these kinds, oldest first."""
        marks = ", ".join("?" for _ in kinds)
        rows = self.db.execute(
            f"SELECT id, at, kind, actor, details FROM event_log WHERE kind IN ({marks}) "
            f"ORDER BY id DESC LIMIT ?", [*kinds, limit]
        ).fetchall()
        return [
            {"id": r[0], "at": r[1], "kind": r[2], "actor": r[3], "details": json.loads(r[4])}
            for r in reversed(rows)
        ]

    def meters(self) -> dict[str, Counter[tuple[int, str]]]:
        out: dict[str, Counter[tuple[int, str]]] = {}
        for paytable_id, seat, name, value in self.db.execute(
            "SELECT paytable_id, seat, name, value FROM meters"
        ).fetchall():
            out.setdefault(paytable_id, Counter())[(seat, name)] = value
        return out

    # --- integrity --------------------------------------------------------------------------

    def quick_check(self) -> list[Problem]:
        result = [r[0] for r in self.db.execute("PRAGMA quick_check").fetchall()]
        return [] if result == ["ok"] else [Problem("quick_check", "; ".join(result))]

    def check_chain(self) -> list[Problem]:
        """Each row's hash covers its content and the previous hash; rounds run 1, 2, 3, ..."""
        problems: list[Problem] = []
        previous, expected_round = GENESIS, None
        for number, record, prev_hash, digest in self.db.execute(
            "SELECT round, record, prev_hash, hash FROM hand_ledger ORDER BY round"
        ):
            if expected_round is not None and number != expected_round:
                problems.append(
                    Problem(
                        "hash_chain",
                        f"round {expected_round} is missing from "
                        f"the hand ledger (next is {number})",
                    )
                )
            if prev_hash != previous:
                problems.append(
                    Problem(
                        "hash_chain",
                        f"round {number}: the chain is broken (previous hash does not match)",
                    )
                )
            if chain_hash(prev_hash, record) != digest:
                problems.append(
                    Problem(
                        "hash_chain",
                        f"round {number}: its content does not match its hash (the row was edited)",
                    )
                )
            previous, expected_round = digest, number + 1
        return problems


def chain_hash(previous: str, content: str) -> str:
    return hashlib.sha256((previous + content).encode()).hexdigest()


def _check_header(path: Path) -> None:
    try:
        with path.open("rb") as file:
            header = file.read(len(_HEADER))
    except OSError as error:
        raise LedgerError(f"{path}: cannot read the ledger: {error}") from None
    if header != _HEADER:
        raise LedgerError(
            f"{path}: not an SQLite database (garbage or truncated); it was not changed"
        )


_SCHEMA_1 = [
    # what the table accepted, in order: the source of truth for the state
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
    # append-only: what was written stays as written (the hash chain shows any tampering anyway)
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
    # Start-up verification resumes from the last verified point instead of round 1, so a
    # cabinet's cold start does not grow with its history; `etg ledger verify` still reads all.
    db.execute(
        "CREATE TABLE checkpoints (round INTEGER PRIMARY KEY, hash TEXT NOT NULL,"
        " event_id INTEGER NOT NULL, meters TEXT NOT NULL)"
    )
