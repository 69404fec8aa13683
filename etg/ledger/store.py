"""The SQLite ledger: one signed chain of entries, the meters, and the anchor beside the file.

Everything that tells the money story is an **entry** of one append-only
table, each chained to the one before by a hash, and each commit's last entry
signed with the cabinet's private key (:mod:`etg.ledger.chain`,
:mod:`etg.ledger.signing`):

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
overwritten; neither is an empty one. A real ledger is made only by ``etg ledger
init`` (:mod:`etg.ledger.site_record`): a real ledger, or its private key, that
is missing is refused in one line and never made again. Demo and test ledgers
are throwaway, made on first use with a key pair of their own.

Here: :class:`Ledger`'s opening, transactions and append path, and the names
its callers import (``__all__``). It inherits its reads (:mod:`etg.ledger.reads`,
:mod:`etg.ledger.history`); the file's checks and pragmas, the schema and the
shared words have modules of their own (:mod:`etg.ledger.ledger_file`,
:mod:`etg.ledger.schema`, :mod:`etg.ledger.terms`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from etg.core.commands import Command
from etg.core.events import Event
from etg.core.state import TableState
from etg.ledger import chain, freshness
from etg.ledger.chain import Anchor
from etg.ledger.codec import dump_command, dump_state
from etg.ledger.compact import Layout, current_layout
from etg.ledger.derived import DerivedMeters, meter_differences
from etg.ledger.entry import (
    COMPACT,
    ROUND_HEADER,
    Entry,
    EntryKind,
    check_label,
    compact_content,
    decode_json,
    encode_body,
    micros,
)
from etg.ledger.history import LedgerHistory
from etg.ledger.ledger_file import (
    check_anchored_identity,
    check_header,
    check_identity,
    check_single_link,
    connect_readonly,
    prepare,
)
from etg.ledger.meters import log_meters
from etg.ledger.money import summarize
from etg.ledger.round_codec import encode_round
from etg.ledger.schema import applied_migrations, migrate, refuse_schema, schema_age
from etg.ledger.schema_check import check_objects
from etg.ledger.signing import (
    CABINET,
    THROWAWAY,
    KeyPair,
    LedgerKeyError,
    Verifier,
    create_pair,
    keys_dir,
    load_signer,
    load_verifier,
    private_path,
    public_path,
    read_verifier,
)
from etg.ledger.site_record import read_record
from etg.ledger.terms import LedgerError, LedgerKind, Problem, Span, describe, now

__all__ = ["CHECKPOINT_EVERY", "Entry", "EntryKind", "Ledger", "LedgerError", "LedgerKeys",
           "LedgerKind", "Problem", "Span", "missing_real", "recorded_kind"]

CHECKPOINT_EVERY = 100
"""Rounds between two rolling checkpoints: a restart replays at most this many rounds."""


class Ledger(LedgerHistory):
    """One ledger file. Use :meth:`open` (the one writer) or :meth:`open_readonly` (audits).

    Here it is opened, made, transacted and written; it reads its chain as
    :class:`~etg.ledger.reads.LedgerReads` and its money story as
    :class:`~etg.ledger.history.LedgerHistory`.
    """

    busy_timeout_s = 5.0
    """How long a write waits for a lock someone else holds before it is a fault (a tilt)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, keys: LedgerKeys,
                 readonly: bool) -> None:
        self.db = Database(conn)
        self.key = keys.verifier  # the public key: checks the signed heads and the anchor
        self.signer = keys.signer  # the private key: the writer's alone
        self.legacy_key = keys.legacy  # the old secret, for the entries before the seal
        self.readonly = readonly
        self.anchor_paused = False  # while a tilt is active, the anchor stays where it was
        self.anchor_fault: str | None = None  # the last anchor write that failed
        self.derived = DerivedMeters()  # the meters as the chain adds them up (save_checkpoint)
        self.freshness: freshness.Keeper | None = None  # what remembers the head elsewhere
        self._freshness_due = False  # this commit holds a checkpoint or a shutdown
        self._counter: int | None = None  # without a source: the counter the anchor had
        self._counter_read = False
        self._depth = 0
        super().__init__(conn, path)

    # --- opening ----------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, kind: LedgerKind = LedgerKind.TEST,
             config_dir: Path | None = None, rng: str = "", create: bool = False) -> Ledger:
        """Open the ledger at ``path`` to write.

        A demo or test ledger (``kind``) is made if there is none. A real one is
        made only with ``create`` (``etg ledger init``): otherwise a missing real
        ledger is a :class:`LedgerError` saying to run ``etg ledger init``, or that
        the ledger it recorded is gone. The keys are the site configuration's
        (``config_dir``, else the default): a missing private key is never made
        again. Raises :class:`LedgerError` for a file that cannot be a ledger, and
        for a missing file whose anchor says a ledger was there.
        """
        path = Path(path)
        folder = keys_dir(config_dir)
        fresh = not path.exists()
        if fresh and chain.anchor_path(path).exists():
            raise LedgerError(f"{path}: the ledger file is missing, but its anchor "
                              f"{chain.anchor_path(path)} records one; it was not re-created")
        if fresh and kind is LedgerKind.REAL and not create:
            raise LedgerError(missing_real(path, config_dir))
        if not fresh:
            check_header(path, anchored=chain.anchor_path(path).exists())
            check_single_link(path)
        if fresh:  # a throwaway ledger, or etg ledger init's: made with its folder
            keys = _writer_keys(path, folder, kind, fresh=True)
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
            if not fresh:
                if chain.anchor_path(path).exists():
                    check_anchored_identity(conn, path)
                # a throwaway ledger not yet signed (written by an older program) may get
                # the throwaway pair as it is sealed; a signed one never a new key
                unsigned = "0005_signed_heads" not in applied_migrations(conn)
                keys = _writer_keys(path, folder, recorded_kind(conn) or kind, fresh=unsigned)
            migrated = prepare(conn, path, fresh)
            before = applied_migrations(conn)
            if migrated:
                migrate(Database(conn), kind=kind, rng=rng, fresh=fresh)
            ledger = cls(conn, path, keys, readonly=False)
            _check_record(ledger, config_dir)
            ledger._after_migration(migrated, kind, rng, before)
            return ledger
        except LedgerError:
            conn.close()
            raise
        except sqlite3.Error as error:
            conn.close()
            raise LedgerError(f"{path}: {describe(error)}; it was left as it is") from None

    def _after_migration(self, migrated: bool, kind: LedgerKind, rng: str,
                         before: list[str]) -> None:
        """What the migrations leave to the chain: the genesis of a new ledger, the seal of a
        verbose or MACed one (``before``: the migrations the file had), this program's
        layout, and the migrations applied."""
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
                self._check_old_anchor()
                unkeyed = {} if "0003_chained_ledger" in before else {"mac_key": "none"}
                self.append(EntryKind.SCHEMA, {"sealed_chain": {
                    "format": "verbose", "seq": self._head_seq, "head": self._head_hash.hex(),
                    "rounds": self._rounds, **unkeyed}}, tag="seal")
            elif migrated and self._head_seq and "0005_signed_heads" not in before:
                self._check_old_anchor()
                self.append(EntryKind.SCHEMA, {"sealed_keyed_chain": {
                    "seq": self._head_seq, "head": self._head_hash.hex(),
                    "rounds": self._rounds}}, tag="seal")
            if newest is None or newest.body != layout:
                entry = self.append(EntryKind.SCHEMA, layout, tag="layout")
                self.layouts.add(entry.seq, layout)
            if migrated:
                self.append(EntryKind.SCHEMA, {"migrations": [list(r) for r in self.conn.execute(
                    "SELECT migration_set, name, applied_at FROM _sqlite_migrations "
                    "ORDER BY rowid")]})

    def _check_old_anchor(self) -> None:
        """Before sealing the MACed chain, the old anchor must name the file's own head: a
        ledger rolled back as the program was upgraded is not sealed as it stands."""
        try:
            anchor = chain.read_old_anchor(self.path, self.legacy_key)
        except chain.AnchorError as error:
            raise LedgerError(f"{self.path}: {error}; the ledger was not sealed") from None
        if anchor is not None and (anchor.seq, anchor.head) != (self._head_seq,
                                                                 self._head_hash.hex()):
            raise LedgerError(f"{self.path}: the file ends at entry {self._head_seq}, but its "
                              f"anchor records entry {anchor.seq}; the ledger was not sealed")

    @classmethod
    def open_readonly(cls, path: Path, config_dir: Path | None = None,
                      public_key: Path | None = None) -> Ledger:
        """Open the ledger to read only: no migration, no write, safe beside a running kiosk.

        Only the public key is read (``public_key``, else the site configuration's:
        the cabinet's for a real ledger, the throwaway one for demo and test ledgers),
        and the old secret key where there is one, for the entries before the seal.
        Without the public key (a copy audited elsewhere) the chain's links are still
        checked, its signatures cannot be, and :func:`etg.ledger.verify.verify` says so.
        """
        path = Path(path)
        if not path.exists():
            raise LedgerError(f"{path}: no such ledger")
        check_header(path)
        check_single_link(path)
        try:
            conn = connect_readonly(path, cls.busy_timeout_s)
            check_identity(conn, path)
            applied = applied_migrations(conn)
            if schema_age(conn, applied) != "current":
                refuse_schema(path, applied, write=False)
            keys = _reader_keys(keys_dir(config_dir), recorded_kind(conn), public_key,
                                config_dir)
            return cls(conn, path, keys, readonly=True)
        except sqlite3.Error as error:
            raise LedgerError(f"{path}: {describe(error)}") from None

    def close(self) -> None:
        if self.freshness is not None:
            self.freshness.flush()  # a clean close leaves the record at the last anchor
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
        self.derived.begin()
        try:
            yield
            if self._head_seq != head[0]:
                self._sign_head()
            self.conn.execute("COMMIT")
            self.derived.commit()
        except BaseException:
            self.derived.rollback()
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
        """Move the anchor to the head. One that cannot be written pauses the anchor: the
        fault is one tilt, and the commit recording it must not fail the same way and tilt
        again (issue 25, finding 6: a read-only folder made a storm of tilts, then a
        RecursionError). The acknowledgement of that tilt tries the anchor again."""
        assert self.signer is not None
        keeper, due, self._freshness_due = self.freshness, self._freshness_due, False
        anchor = self.anchor()
        try:
            if keeper is not None:
                anchor = keeper.stamp(anchor, due)
            else:
                anchor = dataclasses.replace(anchor, counter=self._kept_counter())
            chain.write_anchor(self.path, anchor, self.signer)
            self.anchor_fault = None
        except OSError as error:
            self.anchor_paused = True
            self.anchor_fault = f"the anchor {chain.anchor_path(self.path)} cannot be written: " \
                                f"{error.strerror or error}"
            return
        except freshness.FreshnessError as error:
            self.anchor_paused = True
            self.anchor_fault = f"the anchor was not written: {error}"
            return
        if keeper is not None:
            # After the anchor, never before: a crash between the two leaves the source behind
            # the anchor (finished at the next start), never ahead of it (a false rollback).
            try:
                keeper.after(anchor, self.signer)
            except (OSError, freshness.FreshnessError) as error:
                self.anchor_paused = True
                self.anchor_fault = f"the freshness record ({keeper.source.value}) cannot be " \
                                    f"written: {getattr(error, 'strerror', None) or error}"

    def _kept_counter(self) -> int | None:
        """A writer without a freshness source (a script, a test) keeps the TPM counter value
        the anchor had when it opened the ledger: its anchors are not taken for older ones."""
        if not self._counter_read:
            assert self.key is not None
            try:
                found = chain.read_anchor(self.path, self.key)
            except chain.AnchorError:
                found = None
            self._counter = None if found is None else found.counter
            self._counter_read = True
        return self._counter

    def use_freshness(self, keeper: freshness.Keeper) -> None:
        """Remember the head outside the data directory from now on (the writer, at its
        start: finishes what a crash between anchor and source interrupted)."""
        self.freshness = keeper
        keeper.resume(self)

    def note_freshness(self) -> None:
        """Record the source in use (call inside :meth:`atomic`, at each start): from the
        first start with it, a missing record of it is a finding, not a first time."""
        if self.freshness is not None:
            self.set_setting(freshness.SETTING, self.freshness.source.value)

    def _sign_head(self) -> None:
        """The commit's last entry signed with the private key, in the same transaction, in
        place of the head before it: one signature covers every entry before it through the
        chain (:mod:`etg.ledger.signing`)."""
        assert self.signer is not None
        self.conn.execute("INSERT INTO head_signature (id, seq, signature) VALUES (1, ?, ?) "
                          "ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, "
                          "signature = excluded.signature",
                          [self._head_seq, self.signer.sign_head(self._head_seq,
                                                                 self._head_hash)])

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
        assert self._depth and not self.readonly and self.signer is not None
        check_label(actor)
        check_label(tag)
        at = at or now()
        at_us = micros(at)
        data = encode_body(kind.value, body) if data is None else data
        seq = self._head_seq + 1
        digest = chain.digest(self._head_hash,
                              compact_content(seq, kind.value, round_, at_us, actor, tag, data))
        self.conn.execute(
            "INSERT INTO entries (seq, kind, round, at, actor, tag, body, hash, format) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [seq, kind.value, round_, at_us, actor, tag, data, digest, COMPACT],
        )
        self._head_seq, self._head_hash = seq, digest
        if kind is EntryKind.CHECKPOINT or (kind is EntryKind.EVENT and tag == "shutdown"):
            self._freshness_due = True  # a rate-limited source advances with this commit
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
        self.derived.add(paytable_id, deltas)

    def clear_meters(self) -> None:
        self.conn.execute("DELETE FROM meters")
        self.derived.clear()

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

        The meters are the chain's (:mod:`etg.ledger.derived`: the last checkpoint's and
        what was written since), never the ``meters`` table's (issue 25, finding 1). The
        table, the file's schema and the entries since the last checkpoint are checked
        first: what differs is noted for the controller to tilt on
        (:meth:`~etg.ledger.derived.DerivedMeters.take_faults`), naming meter and seat.

        ``round_open``: the entry, time, credits and events so far of the round's
        OpenBets when a round is in progress, so a restart can still write its record.
        """
        derived = self.derived.meters(self)
        self.derived.note([*meter_differences(self.meters(), derived),
                           *check_objects(self.conn), *self.derived.missing_rows(self)])
        meters = {pid: [[seat, name, value] for (seat, name), value in sorted(c.items())]
                  for pid, c in sorted(derived.items())}
        body = {"reason": reason, "rounds": self._rounds, "round": state.round.number,
                "phase": state.phase.value, "credits": list(state.credits),
                "progressives": [None if m is None else m.cents for m in state.meters],
                "meters": meters, "state": json.loads(dump_state(state)),
                "round_open": round_open}
        entry = self.append(EntryKind.CHECKPOINT, body, round_=state.round.number, tag=reason)
        self.derived.checkpointed(entry.seq)
        return entry

    # --- helpers ----------------------------------------------------------------------------

    def _layout(self) -> Layout:
        layout = self.layouts.newest
        if layout is None:
            raise LedgerError(f"{self.path}: no layout is recorded; the ledger cannot be written")
        return layout


# --- keys -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LedgerKeys:
    """What a ledger is opened with: the public key (None where it is not to be had), the
    private key (the writer's only) and the old secret key (where there is one)."""

    verifier: Verifier | None
    signer: KeyPair | None = None
    legacy: bytes | None = None


def missing_real(path: Path, config_dir: Path | None) -> str:
    """The one line for a real ledger that is not there: never made but by ``etg ledger init``."""
    try:
        record = read_record(config_dir)
    except LedgerError as error:
        return str(error)
    if record is None:
        return f"{path}: no ledger: run `etg ledger init`"
    if record.path.resolve() != path.resolve():
        return (f"{path}: no such ledger; the cabinet's ledger, made by etg ledger init, is "
                f"{record.path}")
    return (f"{path}: the cabinet's ledger {record.ledger_id} (made by etg ledger init on "
            f"{record.initialised_at[:10]}, at {record.path}) is missing; a real ledger is "
            f"never made again: restore it (ledger.db and ledger.db.anchor) from its backup")


def _check_record(ledger: Ledger, config_dir: Path | None) -> None:
    """A real ledger must be the one ``etg ledger init`` recorded, its key the one it made."""
    if ledger.kind is not LedgerKind.REAL:
        return
    record = read_record(config_dir)
    if record is None:
        return
    if ledger.ledger_id and ledger.ledger_id != record.ledger_id:
        raise LedgerError(f"{ledger.path}: ledger {ledger.ledger_id} is not the cabinet's "
                          f"({record.ledger_id}, recorded by etg ledger init); it was left as "
                          f"it is")
    if ledger.key is not None and ledger.key.fingerprint != record.fingerprint:
        raise LedgerError(f"{ledger.path}: the cabinet's key ({ledger.key.fingerprint}) is not "
                          f"the one etg ledger init made ({record.fingerprint}); nothing was "
                          f"written")


def recorded_kind(conn: sqlite3.Connection) -> LedgerKind | None:
    """The kind the file's genesis records, or the newest archive's copy of it once the
    genesis went to an archive (None before the chain, or when unreadable)."""
    try:
        row = conn.execute("SELECT body, format FROM entries WHERE kind = 'genesis' "
                           "ORDER BY seq LIMIT 1").fetchone()
        archived = None if row is not None else conn.execute(
            "SELECT body, format FROM entries WHERE kind = 'schema' AND tag = 'archive' "
            "ORDER BY seq DESC LIMIT 1").fetchone()
    except sqlite3.OperationalError:  # no entries table: a schema-2 file
        return None
    try:
        if row is not None:
            return LedgerKind(decode_json("genesis", row[0], row[1])["kind"])
        if archived is not None:
            return LedgerKind(decode_json("schema", archived[0], archived[1])["genesis"]["kind"])
    except (ValueError, KeyError, TypeError):
        return None
    return None


def _key_name(kind: LedgerKind | None) -> str:
    return THROWAWAY if kind in (LedgerKind.DEMO, LedgerKind.TEST) else CABINET


def _writer_keys(path: Path, folder: Path, kind: LedgerKind | None, fresh: bool) -> LedgerKeys:
    """The private key of a ledger of ``kind``: the cabinet's for a real ledger (made by
    ``etg ledger init`` only), the throwaway pair for demo and test ledgers, made with the
    first of them (``fresh``: a new ledger, or one no key has signed yet). A key that is
    missing for a signed ledger is never made again."""
    name = _key_name(kind)
    try:
        if fresh and name == THROWAWAY and not private_path(folder, name).exists() \
                and not public_path(folder, name).exists():
            pair = create_pair(folder, name)
        else:
            pair = load_signer(folder, name)
    except LedgerKeyError as error:
        again = " (etg ledger init makes it)" if fresh and name == CABINET else \
            "; it is never made again"
        raise LedgerError(f"{path}: {error}{again}") from None
    try:
        legacy: bytes | None = chain.load_key(folder / "ledger.key")
    except LedgerKeyError:
        legacy = None
    return LedgerKeys(pair.verifier, pair, legacy)


def _reader_keys(folder: Path, kind: LedgerKind | None, public_key: Path | None,
                 config_dir: Path | None) -> LedgerKeys:
    """The public key to verify with (None where there is none) and the old secret key."""
    try:
        verifier: Verifier | None = (read_verifier(public_key) if public_key is not None
                                     else load_verifier(folder, _key_name(kind)))
    except LedgerKeyError:
        if public_key is not None:
            raise
        verifier = None
    try:
        legacy: bytes | None = chain.load_key(chain.default_key_path(config_dir))
    except LedgerKeyError:
        legacy = None
    return LedgerKeys(verifier, None, legacy)
