"""The SQLite ledger: one keyed chain of entries, the meters, and the anchor beside the file.

Everything that tells the money story is an **entry** of one append-only
table, each chained to the one before by an HMAC under the cabinet's key
(:mod:`etg.ledger.chain`):

- ``command``: what the table accepted, with its events, one per state change,
  written in one transaction before anything is shown (SPEC §5). The journal.
- ``round``: the hand-ledger record of a finished round. Its events are not
  stored twice: they are the events of the round's commands, read back with it.
- ``event``: the event log (power-ups, tilts, operator actions, voids,
  reshuffles, credits, PIN attempts), ``tag`` naming the kind.
- ``checkpoint``: the whole table state with its meters and credits, between
  rounds: at creation, every :data:`CHECKPOINT_EVERY` rounds, after a paytable
  switch or a RAM clear, at a clean start and a clean shutdown. A restart loads
  the newest one and replays the commands after it; the engine is pure and the
  draws travel inside the commands, so the state comes back exactly.
- ``paytable`` (a recorded paytable file), ``setting`` (the active paytable),
  ``genesis`` (the ledger's id, kind and RNG source), ``schema`` (the migrations
  applied, and the sealed head of an older ledger's chain).

The **meters** table is the one mutable table: it is checked against the
ledger's sums (:mod:`etg.ledger.verify`) and copied into every checkpoint.

One process writes (the kiosk or autoplay, under :mod:`etg.ledger.lock`);
audit commands open the file read-only and never write. A file that is not
ours, is damaged, or was written by a newer program is refused and never
overwritten; neither is an empty one.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from etg.core.commands import Command
from etg.core.events import Event
from etg.core.state import TableState
from etg.ledger import chain
from etg.ledger.chain import GENESIS, Anchor
from etg.ledger.codec import dump_command, dump_state
from etg.ledger.compact import Layout, Layouts, current_layout
from etg.ledger.entry import (
    COMPACT,
    ENTRY_SELECT,
    ROUND_HEADER,
    Entry,
    EntryKind,
    check_label,
    checkpoint_data,
    compact_content,
    encode_body,
    entry_of,
    micros,
)
from etg.ledger.ledger_file import (
    APPLICATION_ID,
    PAGE_SIZE,
    check_anchored_identity,
    check_header,
    check_identity,
    connect_readonly,
)
from etg.ledger.meters import log_meters
from etg.ledger.money import summarize
from etg.ledger.round_codec import encode_round
from etg.ledger.schema import applied_migrations, migrate, refuse_schema, schema_age
from etg.ledger.terms import LedgerError, LedgerKind, Problem, Span, describe, now

__all__ = ["Entry", "EntryKind", "Ledger", "LedgerError", "LedgerKind", "Problem", "Span"]

CHECKPOINT_EVERY = 100
"""Rounds between two rolling checkpoints: a restart replays at most this many rounds."""


_BY_TAG = {EntryKind.PAYTABLE: "entries_paytables", EntryKind.SETTING: "entries_settings"}
"""The partial indexes of the kinds looked up by tag: reading all of a kind in chain order
goes through them (the planner would rather scan the table by ``seq``)."""


class Ledger:
    """One ledger file. Use :meth:`open` (the one writer) or :meth:`open_readonly` (audits)."""

    busy_timeout_s = 5.0
    """How long a write waits for a lock someone else holds before it is a fault (a tilt)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, key: bytes | None,
                 readonly: bool) -> None:
        self.conn = conn
        self.db = Database(conn)
        self.path = path
        self.key = key
        self.readonly = readonly
        self.anchor_paused = False  # while a tilt is active, the anchor stays where it was
        self.anchor_fault: str | None = None  # the last anchor write that failed
        self._depth = 0
        self.layouts = Layouts()
        self._settings: dict[str, str | None] = {}
        self._head_seq, self._head_hash, self._rounds = self._read_head()
        self._indexes = {str(r[0]) for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries'")}
        self.carried: dict[str, Any] = {}  # what archived entries left behind for readers
        self._read_carried()
        self._read_layouts()
        self.ledger_id = ""
        self.kind: LedgerKind | None = None
        self._read_genesis()

    # --- opening ----------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, kind: LedgerKind = LedgerKind.TEST,
             key_path: Path | None = None, rng: str = "") -> Ledger:
        """Open the ledger at ``path`` to write, creating it (of ``kind``) if there is none.

        Raises :class:`LedgerError` for a file that cannot be a ledger, and for a
        missing file whose anchor says a ledger was there (a deleted ledger is
        never silently replaced by a new one).
        """
        path = Path(path)
        key_path = key_path or chain.default_key_path()
        fresh = not path.exists()
        if fresh and chain.anchor_path(path).exists():
            raise LedgerError(f"{path}: the ledger file is missing, but its anchor "
                              f"{chain.anchor_path(path)} records one; it was not re-created")
        if not fresh:
            check_header(path, anchored=chain.anchor_path(path).exists())
        try:
            key = chain.load_or_create_key(key_path)
        except (chain.LedgerKeyError, OSError) as error:
            raise LedgerError(f"{path}: {error}") from None
        if fresh:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise LedgerError(f"{path}: cannot create the ledger: {error}") from None
        try:
            conn = sqlite3.connect(path, isolation_level=None, timeout=cls.busy_timeout_s,
                                   check_same_thread=False)
        except sqlite3.Error as error:
            raise LedgerError(f"{path}: cannot open the ledger: {error}") from None
        try:
            if not fresh and chain.anchor_path(path).exists():
                check_anchored_identity(conn, path)
            migrated = _prepare(conn, path, fresh, key, kind, rng)
            ledger = cls(conn, path, key, readonly=False)
            ledger._after_migration(migrated, kind, rng)
            return ledger
        except LedgerError:
            conn.close()
            raise
        except sqlite3.Error as error:
            conn.close()
            raise LedgerError(f"{path}: {describe(error)}; it was left as it is") from None

    def _after_migration(self, migrated: bool, kind: LedgerKind, rng: str) -> None:
        """What the migrations leave to the chain: the genesis of a new ledger, the seal of a
        verbose one, this program's layout, and the migrations applied."""
        layout = current_layout()
        newest = self.layouts.newest
        if not migrated and newest is not None and newest.body == layout:
            return
        with self.atomic():  # the anchor is written with it
            if migrated and not self.ledger_id:
                self.append(EntryKind.GENESIS, {"ledger_id": str(uuid.uuid4()),
                                                "kind": kind.value, "rng": rng,
                                                "created_at": now()})
                self._read_genesis()
            elif migrated and self._head_seq and not self._compact_entries():
                self.append(EntryKind.SCHEMA, {"sealed_chain": {
                    "format": "verbose", "seq": self._head_seq, "head": self._head_hash.hex(),
                    "rounds": self._rounds}}, tag="seal")
            if newest is None or newest.body != layout:
                entry = self.append(EntryKind.SCHEMA, layout, tag="layout")
                self.layouts.add(entry.seq, layout)
            if migrated:
                self.append(EntryKind.SCHEMA, {"migrations": [list(r) for r in self.conn.execute(
                    "SELECT migration_set, name, applied_at FROM _sqlite_migrations "
                    "ORDER BY rowid")]})

    @classmethod
    def open_readonly(cls, path: Path, key_path: Path | None = None) -> Ledger:
        """Open the ledger to read only: no migration, no write, safe beside a running kiosk.

        Without the key (a copy audited elsewhere) the chain's signatures cannot
        be checked, and :func:`etg.ledger.verify.verify` says so.
        """
        path = Path(path)
        if not path.exists():
            raise LedgerError(f"{path}: no such ledger")
        check_header(path)
        try:
            key: bytes | None = chain.load_key(key_path or chain.default_key_path())
        except chain.LedgerKeyError:
            key = None
        try:
            conn = connect_readonly(path, cls.busy_timeout_s)
            check_identity(conn, path)
            applied = applied_migrations(conn)
            if schema_age(conn, applied) != "current":
                refuse_schema(path, applied, write=False)
            return cls(conn, path, key, readonly=True)
        except sqlite3.Error as error:
            raise LedgerError(f"{path}: {describe(error)}") from None

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()

    # --- transactions -----------------------------------------------------------------------

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        """One transaction: everything inside is committed together, or nothing is.

        After the commit the anchor is moved to the new head (unless paused by
        an active tilt). An anchor that cannot be written does not undo the
        commit: it is kept in :attr:`anchor_fault` for the controller to tilt on.
        """
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        head = (self._head_seq, self._head_hash, self._rounds)
        settings = dict(self._settings)
        layouts = len(self.layouts._seqs)
        dictionaries = [layout.dictionary for layout in self.layouts._layouts]
        self.conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException:
            self._head_seq, self._head_hash, self._rounds = head
            self._settings = settings
            del self.layouts._seqs[layouts:], self.layouts._layouts[layouts:]
            for layout, dictionary in zip(self.layouts._layouts, dictionaries, strict=True):
                layout.dictionary = dictionary
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")
            raise
        finally:
            self._depth = 0
        if self._head_seq != head[0] and not self.anchor_paused:
            self.write_anchor()

    def write_anchor(self) -> None:
        assert self.key is not None
        try:
            chain.write_anchor(self.path, self.anchor(), self.key)
            self.anchor_fault = None
        except OSError as error:
            self.anchor_fault = f"the anchor {chain.anchor_path(self.path)} cannot be written: " \
                                f"{error.strerror or error}"

    def anchor(self) -> Anchor:
        """Where the chain stands now."""
        return Anchor(self.ledger_id, self._head_seq, self._head_hash.hex(), self._rounds, now())

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """One read transaction: every read inside sees the same committed state."""
        if self._depth:
            yield
            return
        self.conn.execute("BEGIN")
        self._depth = 1
        try:
            self._head_seq, self._head_hash, self._rounds = self._read_head()  # this snapshot's
            self._settings.clear()
            yield
        finally:
            self._depth = 0
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("COMMIT")

    # --- writing ----------------------------------------------------------------------------

    def append(self, kind: EntryKind, body: Any, *, round_: int = 0, tag: str | None = None,
               actor: str | None = None, at: str | None = None,
               data: bytes | None = None) -> Entry:
        """Chain one compact entry after the head; call inside :meth:`atomic`.

        ``data``: the body already encoded (a round's), instead of ``body``.
        """
        assert self._depth and not self.readonly and self.key is not None
        check_label(actor)
        check_label(tag)
        at = at or now()
        at_us = micros(at)
        data = encode_body(kind.value, body) if data is None else data
        seq = self._head_seq + 1
        digest = chain.mac(self.key, self._head_hash,
                           compact_content(seq, kind.value, round_, at_us, actor, tag, data))
        self.conn.execute(
            "INSERT INTO entries (seq, kind, round, at, actor, tag, body, hash, format) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [seq, kind.value, round_, at_us, actor, tag, data, digest, COMPACT],
        )
        self._head_seq, self._head_hash = seq, digest
        return Entry(seq, kind.value, round_, at, actor, tag, data, digest, COMPACT, at_us,
                     self.layouts)

    def append_command(self, round_number: int, command: Command, actor: str | None,
                       events: list[Event], at: str) -> int:
        """Journal one accepted command; returns its entry number.

        Its events are not stored here: a restart replays the command to get
        them back, and the round's record keeps them (:meth:`append_round`).
        """
        entry = self.append(EntryKind.COMMAND, self._layout().pack_command(dump_command(command)),
                            round_=round_number, actor=actor, at=at)  # its type is its code
        return entry.seq

    def append_round(self, record: dict[str, Any], meters: Counter[tuple[int, str]]) -> str:
        """Add a finished round to the hand ledger with its events, and add ``meters`` (what
        the round counts, :func:`etg.ledger.meters.round_meters`) to the meters; returns the
        entry's hash (hex). The record keeps a summary of its events for audits
        (:mod:`etg.ledger.money`)."""
        layout = self._layout()
        summary = summarize(record, meters)
        body = {**{k: v for k, v in record.items() if k != "ended_at"},  # the entry's time
                "summary": summary, "events": [layout.pack_event(e) for e in record["events"]]}
        header = {k: body[k] for k in ROUND_HEADER if k in body}
        data, texts = encode_round(header, {k: v for k, v in body.items() if k not in header},
                                   layout.dictionary)
        entry = self.append(EntryKind.ROUND, None, round_=int(record["round"]),
                            tag=str(record["outcome"]), at=str(record["ended_at"]), data=data)
        if layout.dictionary is None:
            layout.dictionary = texts  # this first round under the layout primes the others
        self._rounds = int(record["round"])
        self.add_meters(str(record["paytable"]["id"]), meters)
        return entry.hash.hex()

    def log(self, kind: str, actor: str | None, details: dict[str, Any],
            at: str | None = None) -> dict[str, Any]:
        """Add an event-log entry, and the meters it counts; returns it as stored."""
        entry = self.append(EntryKind.EVENT, details, tag=kind, actor=actor, at=at)
        logged = {"id": entry.seq, "at": entry.at, "kind": kind, "actor": actor,
                  "details": details}
        self.add_meters(str(details.get("paytable_id", "cabinet")), log_meters(logged))
        return logged

    def add_meters(self, paytable_id: str, deltas: Counter[tuple[int, str]]) -> None:
        """Add ``deltas`` to the meters; meters never go down but through a logged RAM clear."""
        for (seat, name), delta in sorted(deltas.items()):
            if delta < 0:
                raise LedgerError(f"meter {name} of seat {seat} would decrease by {-delta}")
            if delta:
                self.conn.execute(
                    "INSERT INTO meters (paytable_id, seat, name, value) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (paytable_id, seat, name) "
                    "DO UPDATE SET value = value + excluded.value",
                    [paytable_id, seat, name, delta],
                )

    def clear_meters(self) -> None:
        self.conn.execute("DELETE FROM meters")

    def remember_paytable(self, sha256: str, paytable_id: str, source: str) -> None:
        if self._last(EntryKind.PAYTABLE, sha256) is None:
            self.append(EntryKind.PAYTABLE, {"id": paytable_id, "source": source}, tag=sha256)

    def set_setting(self, key: str, value: str) -> None:
        if self.setting(key) != value:
            self.append(EntryKind.SETTING, value, tag=key)
            self._settings[key] = value

    def save_checkpoint(self, reason: str, state: TableState,
                        round_open: dict[str, Any] | None = None) -> Entry:
        """The whole state, its meters and credits, as they stand now.

        ``round_open``: the entry, time, credits and events so far of the round's
        OpenBets when a round is in progress, so a restart can still write its record.
        """
        meters = {pid: [[seat, name, value] for (seat, name), value in sorted(c.items())]
                  for pid, c in sorted(self.meters().items())}
        body = {"reason": reason, "rounds": self._rounds, "round": state.round.number,
                "phase": state.phase.value, "credits": list(state.credits),
                "progressives": [None if m is None else m.cents for m in state.meters],
                "meters": meters, "state": json.loads(dump_state(state)),
                "round_open": round_open}
        return self.append(EntryKind.CHECKPOINT, body, round_=state.round.number, tag=reason)

    # --- reading ----------------------------------------------------------------------------

    @property
    def head(self) -> tuple[int, bytes]:
        return self._head_seq, self._head_hash

    def round_count(self) -> int:
        """The last round in the hand ledger (rounds are numbered 1, 2, 3 ... without gaps)."""
        return self._rounds

    def genesis(self) -> dict[str, Any] | None:
        if self.carried.get("genesis") is not None:  # archived: never look for it
            carried: dict[str, Any] = self.carried["genesis"]
            return carried
        found: dict[str, Any] | None = self._first(EntryKind.GENESIS)
        return found

    def setting(self, key: str) -> str | None:
        """A setting's newest value (kept in memory once read: asked for at every round)."""
        if key not in self._settings:
            value = self._last(EntryKind.SETTING, key)
            if value is None:  # recorded before an archive's cut
                value = self.carried.get("settings", {}).get(key)
            self._settings[key] = None if value is None else str(value)
        return self._settings[key]

    def paytable_source(self, sha256: str) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self._last(EntryKind.PAYTABLE, sha256)
        if found is None:  # recorded before an archive's cut
            found = dict(self.carried.get("paytables", [])).get(sha256)
        return found

    def last_checkpoint(self) -> tuple[int, dict[str, Any], TableState] | None:
        """The newest checkpoint: its entry number, its body and the state it holds.

        Raises ValueError (or KeyError) if it cannot be read; see :meth:`checkpoints`.
        """
        for found in self.checkpoints():
            return found
        return None

    def checkpoint_seqs(self) -> Iterator[int]:
        """The checkpoints' entry numbers, newest first, read through their index as they are
        asked for (a caller that stops at the newest reads one)."""
        cursor = self.conn.execute("SELECT seq FROM entries WHERE kind = 'checkpoint' "
                                   "ORDER BY seq DESC")
        while (row := cursor.fetchone()) is not None:
            yield int(row[0])

    def checkpoint(self, seq: int) -> tuple[int, dict[str, Any], TableState]:
        """The checkpoint at entry ``seq``: its body (its ``state`` loaded) and the state.

        Raises ValueError or KeyError if it cannot be read.
        """
        entry = self.entry(seq)
        if entry is None or entry.kind != EntryKind.CHECKPOINT.value:
            raise KeyError(f"entries row {seq} is not a checkpoint")
        body, state = checkpoint_data(entry)
        return seq, body, state

    def checkpoints(self) -> Iterator[tuple[int, dict[str, Any], TableState]]:
        """Checkpoints newest first, each read when it is reached (raises if unreadable)."""
        for seq in self.checkpoint_seqs():
            yield self.checkpoint(seq)

    def entry(self, seq: int) -> Entry | None:
        row = self.conn.execute(f"SELECT {ENTRY_SELECT} FROM entries WHERE seq = ?",
                                [seq]).fetchone()
        return None if row is None else entry_of(row, self.layouts)

    def entries(self, after: int = 0, until: int | None = None,
                kind: EntryKind | None = None) -> Iterator[Entry]:
        """Entries after ``after`` in chain order, read in chunks (constant memory)."""
        sql = f"SELECT {ENTRY_SELECT} FROM entries WHERE seq > ?"
        args: list[Any] = [after]
        if until is not None:
            sql += " AND seq <= ?"
            args.append(until)
        if kind is not None:
            sql += f" AND kind = '{kind.value}'"  # a literal: the partial indexes need one
            index = _BY_TAG.get(kind)
            if index is not None and index in self._indexes:  # else SQLite would scan the table
                sql = sql.replace("FROM entries", f"FROM entries INDEXED BY {index}", 1)
        cursor = self.conn.execute(sql + " ORDER BY seq", args)
        layouts = self.layouts
        while rows := cursor.fetchmany(2000):
            for r in rows:
                yield entry_of(r, layouts)

    def entry_hash(self, seq: int) -> bytes | None:
        if seq == 0:
            return GENESIS
        row = self.conn.execute("SELECT CAST(hash AS BLOB) FROM entries WHERE seq = ?",
                                [seq]).fetchone()
        return None if row is None else bytes(row[0])

    def journal_after(self, seq: int) -> Iterator[dict[str, Any]]:
        """The commands after entry ``seq``, in order: what a restart replays.

        Each is ``{"seq", "round", "actor", "at", "command"}``, with ``"events"``
        when the entry is in the verbose format (which stored them). A body that
        cannot be read comes back as ``{"command": {}, "unreadable": …}`` so the
        replay reports it instead of failing.
        """
        for e in self.entries(after=seq, kind=EntryKind.COMMAND):
            body = e.data()
            if "unreadable" in body or "command" not in body:
                body = {"command": {}, "unreadable": body.get("unreadable", "?")}
            yield {"seq": e.seq, "round": e.round, "actor": e.actor, "at": e.at, **body}

    def rounds(self, last: int | None = None, first: int | None = None) -> list[dict[str, Any]]:
        """Hand-ledger records with their events, oldest first (the ``last`` ones if given)."""
        if last is not None:
            rows = self.conn.execute(
                f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'round' "
                f"ORDER BY round DESC, seq DESC LIMIT ?", [int(last)]).fetchall()[::-1]
        else:
            rows = self.conn.execute(
                f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'round' AND round >= ? "
                f"ORDER BY round, seq", [first or 0]).fetchall()
        records = [self.record_of(entry_of(r, self.layouts)) for r in rows]
        return [r for r in records if "unreadable" not in r]  # an edited row: verify names it

    def audit_trail(self, span: Span | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
        """Hand-ledger records and event-log entries in chain order, read in chunks.

        Each item is ``("round", record with its events)`` or ``("event",
        entry)``. ``span`` limits them (see :class:`Span`); memory stays constant
        whatever the ledger's size, so an export of years of play streams.
        """
        span = span or Span()
        low, high = self._seq_bounds(span)
        # SQLite leaves out what is neither a round nor an event, and the compact entries
        # outside the times (their time is a number), before Python sees them; every entry
        # that comes through is still held against the times as the program shows them.
        sql = (f"SELECT {ENTRY_SELECT} FROM entries WHERE seq >= ? AND seq <= ? "
               f"AND kind IN ('round', 'event')")
        args: list[Any] = [low, high]
        if span.since is not None:
            sql += f" AND (format IS NOT {COMPACT} OR typeof(at) != 'integer' OR at >= ?)"
            args.append(micros(span.since))
        if span.before is not None:
            sql += f" AND (format IS NOT {COMPACT} OR typeof(at) != 'integer' OR at < ?)"
            args.append(micros(span.before))
        cursor = self.conn.execute(sql + " ORDER BY seq", args)
        layouts = self.layouts
        while rows := cursor.fetchmany(500):
            yield from self._trail(rows, layouts, span)

    def _trail(self, rows: list[Any], layouts: Layouts,
               span: Span) -> Iterator[tuple[str, dict[str, Any]]]:
        for row in rows:
            entry = entry_of(row, layouts)
            if (span.since is not None and entry.at < span.since) or \
                    (span.before is not None and entry.at >= span.before):
                continue
            if entry.kind == "event":
                yield "event", _logged(entry)
                continue
            record = self.record_of(entry)
            if "unreadable" not in record:  # an edited row: verify names it
                yield "round", record

    def record_of(self, entry: Entry) -> dict[str, Any]:
        """A round entry's record with its events (a verbose round's from its commands)."""
        record: dict[str, Any] = entry.data()
        if entry.format == COMPACT or "unreadable" in record:
            return record
        if "events" in record:  # a round migrated from a ledger that stored them twice
            return {k: v for k, v in record.items() if k != "legacy_hash"}
        commands = self.entries(after=int(record["opened_seq"]) - 1, until=entry.seq - 1,
                                kind=EntryKind.COMMAND)
        return {**record, "events": round_events_of(
            c.data() for c in commands if c.round == record["round"])}

    def event_log(self, kind: str | None = None) -> list[dict[str, Any]]:
        where, args = ("AND tag = ?", [kind]) if kind else ("", [])
        rows = self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'event' {where} "
            f"ORDER BY seq", args).fetchall()
        return [_logged(entry_of(r, self.layouts)) for r in rows]

    def last_events(self, kinds: tuple[str, ...], limit: int) -> list[dict[str, Any]]:
        """The newest ``limit`` event-log entries of these kinds, oldest first.

        Each kind is read backwards through the event log's index of kinds: the cost is
        the entries asked for, whatever the length of the log.
        """
        rows = sorted((row for kind in dict.fromkeys(kinds) for row in self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'event' AND tag = ? "
            f"ORDER BY seq DESC LIMIT ?", [kind, limit]).fetchall()),
            key=lambda row: int(row[0]))[-limit:] if limit > 0 else []
        return [_logged(entry_of(r, self.layouts)) for r in rows]

    def event_page(self, offset: int, limit: int) -> list[dict[str, Any]]:
        """``limit`` event-log entries, newest first, after skipping the newest ``offset``.

        Read through the event log's own index: a page costs its own rows,
        whatever the length of the log.
        """
        rows = self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'event' "
            f"ORDER BY seq DESC LIMIT ? OFFSET ?", [limit, offset]).fetchall()
        return [_logged(entry_of(r, self.layouts)) for r in rows]

    def meters(self) -> dict[str, Counter[tuple[int, str]]]:
        out: dict[str, Counter[tuple[int, str]]] = {}
        for paytable_id, seat, name, value in self.conn.execute(
            "SELECT paytable_id, seat, name, value FROM meters"
        ).fetchall():
            out.setdefault(paytable_id, Counter())[(seat, name)] = value
        return out

    def quick_check(self) -> list[Problem]:
        result = [r[0] for r in self.conn.execute("PRAGMA quick_check").fetchall()]
        return [] if result == ["ok"] else [Problem("quick_check", "; ".join(result))]

    @property
    def schema_version(self) -> int:
        return len(applied_migrations(self.conn))

    # --- helpers ----------------------------------------------------------------------------

    def _layout(self) -> Layout:
        layout = self.layouts.newest
        if layout is None:
            raise LedgerError(f"{self.path}: no layout is recorded; the ledger cannot be written")
        return layout

    def _compact_entries(self) -> bool:
        return self.conn.execute("SELECT 1 FROM entries WHERE format = 1 LIMIT 1"
                                 ).fetchone() is not None

    def _read_head(self) -> tuple[int, bytes, int]:
        row = self.conn.execute(
            "SELECT seq, CAST(hash AS BLOB) FROM entries "
            "WHERE seq = (SELECT max(seq) FROM entries)").fetchone()
        last_round = self.conn.execute(
            "SELECT max(round) FROM entries WHERE kind = 'round'").fetchone()
        seq, digest = (int(row[0]), bytes(row[1])) if row else (0, GENESIS)
        return seq, digest, int(last_round[0]) if last_round and last_round[0] else 0

    def _read_layouts(self) -> None:
        found: list[tuple[int, Any, Any]] = [(int(seq), body, dictionary) for seq, body, dictionary
                                             in self.carried.get("layouts", [])]
        rows = self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'schema' ORDER BY seq").fetchall()
        for row in rows:
            entry = entry_of(row, None)
            if entry.tag == "layout":
                body = entry.data()
                if "unreadable" not in body:
                    found.append((entry.seq, body, None))
        for seq, body, dictionary in sorted(found, key=lambda f: f[0]):
            layout = self.layouts.add(seq, body)
            if dictionary is not None:  # its first round went to an archive
                layout.dictionary = (dictionary[0].encode("utf-8"), dictionary[1].encode("utf-8"))
        for seq, layout in zip(self.layouts._seqs, self.layouts._layouts, strict=True):
            if layout.dictionary is not None:
                continue
            row = self.conn.execute(  # each layout's first round primes the others
                f"SELECT {ENTRY_SELECT} FROM entries WHERE seq > ? AND kind = 'round' "
                f"ORDER BY seq LIMIT 1", [seq]).fetchone()
            if row is not None:
                with contextlib.suppress(ValueError, LookupError):  # unreadable: verify names it
                    entry_of(row, self.layouts).raw(header_only=False)

    def _read_carried(self) -> None:
        """What archives took from before their cut and readers still need (the newest
        archive's record carries all of it, the older ones' included)."""
        rows = self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'schema' ORDER BY seq").fetchall()
        for row in rows:
            entry = entry_of(row, None)
            if entry.tag == "archive":
                body = entry.data()
                if isinstance(body, dict) and "archived" in body:
                    self.carried = body
        if not self.carried and self.conn.execute(
                "SELECT 1 FROM sqlite_master WHERE name = 'archive'").fetchone():
            text = self.conn.execute("SELECT carried FROM archive").fetchone()[0]
            self.carried = json.loads(text)  # an archive file read as a ledger

    def carried_before(self, cut: int) -> dict[str, Any]:
        """What readers need from the entries before ``cut`` once they are archived."""
        layouts = []
        for seq, layout in zip(self.layouts._seqs, self.layouts._layouts, strict=True):
            if seq < cut:
                dictionary = layout.dictionary
                layouts.append([seq, layout.body, None if dictionary is None else
                                [dictionary[0].decode("utf-8"), dictionary[1].decode("utf-8")]])
        paytables = {sha: body for sha, body in self.carried.get("paytables", [])}
        settings = dict(self.carried.get("settings", {}))
        migrations = self.carried.get("migrations")
        sealed = self.carried.get("sealed_chain")
        for entry in self.entries(until=cut - 1):
            if entry.kind in ("command", "round", "event", "checkpoint"):
                continue
            body = entry.data()
            if entry.kind == EntryKind.PAYTABLE.value and entry.tag:
                paytables[entry.tag] = body
            elif entry.kind == EntryKind.SETTING.value and entry.tag:
                settings[entry.tag] = body
            elif entry.kind == EntryKind.SCHEMA.value and isinstance(body, dict):
                migrations = body.get("migrations", migrations)
                sealed = body.get("sealed_chain", sealed)
        return {"genesis": self.genesis(), "layouts": layouts,
                "paytables": sorted([sha, body] for sha, body in paytables.items()),
                "settings": settings, "migrations": migrations, "sealed_chain": sealed}

    def forget_archived(self) -> None:
        """Read again what the archive left behind (after :func:`etg.ledger.archive.archive`)."""
        self._settings.clear()
        self._read_carried()

    def first_seq(self) -> int:
        """The first entry the file holds: 1, or the one after the newest archive's cut."""
        row = self.conn.execute("SELECT min(seq) FROM entries").fetchone()
        return int(row[0]) if row and row[0] is not None else 1

    def archived_head(self) -> tuple[int, bytes] | None:
        """The last archived entry and its hash, as the live chain's archive entry records it."""
        archived = self.carried.get("archived")
        if not archived:
            return None
        return int(archived["last"]), bytes.fromhex(str(archived["head"]))

    def _read_genesis(self) -> None:
        genesis = self.genesis()
        genesis = genesis if isinstance(genesis, dict) else {}
        self.ledger_id = str(genesis.get("ledger_id", ""))
        kinds = {k.value: k for k in LedgerKind}
        self.kind = kinds.get(str(genesis.get("kind")))

    def _seq_bounds(self, span: Span) -> tuple[int, int]:
        """The entries a span of rounds covers: from the first round's opening to the last's record.

        An empty range comes back as ``(1, 0)``.
        """
        low, high = 1, self._head_seq
        if span.first_round is not None:
            row = self.conn.execute(
                f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'round' AND round >= ? "
                f"ORDER BY round LIMIT 1", [span.first_round]).fetchone()
            if row is None:
                return 1, 0
            opened = entry_of(row, self.layouts).data().get("opened_seq")
            low = opened if isinstance(opened, int) else 1
        if span.last_round is not None:
            row = self.conn.execute(
                "SELECT seq FROM entries WHERE kind = 'round' AND round <= ? "
                "ORDER BY round DESC LIMIT 1", [span.last_round]).fetchone()
            if row is None:
                return 1, 0
            high = int(row[0])
        return low, high

    def _first(self, kind: EntryKind) -> Any:
        row = self.conn.execute(f"SELECT {ENTRY_SELECT} FROM entries "
                                f"WHERE kind = '{kind.value}' ORDER BY seq LIMIT 1").fetchone()
        return None if row is None else entry_of(row, self.layouts).data()

    def _last(self, kind: EntryKind, tag: str) -> Any:
        row = self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = '{kind.value}' AND tag = ? "
            f"ORDER BY seq DESC LIMIT 1", [tag]).fetchone()
        return None if row is None else entry_of(row, self.layouts).data()


def round_events_of(commands: Any) -> list[dict[str, Any]]:
    """A verbose round's events from its command bodies: credits in and out are in the log."""
    return [e for body in commands for e in body.get("events", ())
            if e["type"] not in ("CreditsIn", "CreditsOut")]


def _logged(entry: Entry) -> dict[str, Any]:
    return {"id": entry.seq, "at": entry.at, "kind": entry.tag, "actor": entry.actor,
            "details": entry.data()}


# --- opening ------------------------------------------------------------------------------------

def _prepare(conn: sqlite3.Connection, path: Path, fresh: bool, key: bytes,
             kind: LedgerKind, rng: str) -> bool:
    """Check the file is ours, set its pragmas, apply migrations; True if any was applied."""
    check_identity(conn, path, fresh)
    if fresh:
        conn.execute(f"PRAGMA page_size={PAGE_SIZE}")  # before the first table: fixed after
    if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] != "wal":
        raise LedgerError(f"{path}: the ledger cannot be put in WAL mode")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    applied = applied_migrations(conn)
    schema = schema_age(conn, applied)
    if schema == "newer":
        refuse_schema(path, applied, write=True)
    if fresh:
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    if schema == "current":
        return False
    migrate(Database(conn), key=key, kind=kind, rng=rng, fresh=fresh)
    return True
