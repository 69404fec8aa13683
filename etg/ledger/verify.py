"""Integrity of a ledger (SPEC §5): run at every start-up and by ``etg ledger verify``.

Verification **recomputes**; it does not only re-hash:

1. ``PRAGMA quick_check``: the file itself.
2. **The chain**: entries run 1, 2, 3 ... without a gap, and each one's hash is
   the hash of the one before and its own content (a MAC under the old secret
   key before an older ledger's seal); the newest entry's signature holds under
   the public key (:mod:`etg.ledger.signing`). Any edit, deletion, insertion or
   reordering of any entry shows here, with or without triggers, and nobody
   without the private key can sign a new head. Start-up walks it from the newest
   checkpoint (constant in history; the anchor pins the head); ``--full`` from
   the first entry.
3. **The anchor**: the file holds the entry the anchor recorded, with the same
   hash, and is the same ledger (its id). A truncated or restored file, a lost
   ``-wal`` or a swapped file is behind or beside its anchor. Ledger and anchor
   are not behind the record kept outside the data directory (a TPM counter or
   the anchor's copy, :mod:`etg.ledger.freshness`), when the writer has one.
4. **The money**, from a checkpoint on (start-up: the newest one; ``--full``:
   the first): each seat's credits = the checkpoint's + cash-in − cash-out + the
   rounds' results, checked at every round, every checkpoint and at the end, and
   never negative; each round's net = the sum of its settled wagers; each
   progressive meter = the checkpoint's + contributions − awards + seeds and
   reserve flows, at every event of the meter and at every checkpoint; every
   meter = the ledger's sums since the last RAM clear.
5. **The schema and the paytables**: every table, index, trigger and view is
   one the program's own migrations make (:mod:`etg.ledger.schema_check`); the
   migrations table is what the chain recorded; each recorded paytable file
   matches its hash; the active paytable file is the one the ledger recorded.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from etg.config.loader import LoadedPaytable
from etg.core.engine import apply
from etg.core.events import Event
from etg.core.state import TableState
from etg.ledger import chain, chain_walk
from etg.ledger.chain_walk import MAX_REPORTED
from etg.ledger.codec import load_command
from etg.ledger.entry import COMPACT, ENTRY_SELECT, entry_of, round_header
from etg.ledger.legacy import LEGACY_GENESIS, legacy_hash
from etg.ledger.recount import MAX_PROBLEMS, Figures, Recount, capped
from etg.ledger.schema_check import check_objects
from etg.ledger.store import (
    Entry,
    EntryKind,
    Ledger,
    LedgerError,
    Problem,
)
from etg.ledger.terms import describe

__all__ = ["MAX_PROBLEMS", "MoneyReader", "Recount", "ReplayError", "active_tilts",
           "check_anchor", "check_file", "check_paytable", "check_schema", "rebuild",
           "replay_one", "sealed_stretch", "verify"]

Progress = Callable[[int, int], None]
"""Called with (entries checked, entries in all) while verifying."""


def verify(ledger: Ledger, paytable: LoadedPaytable | None = None, full: bool = False,
           state: TableState | None = None, progress: Progress | None = None,
           file_check: bool = True, events: bool | None = None) -> list[Problem]:
    """Every problem found; an empty list means the ledger is sound.

    ``state``: the table's state as rebuilt (start-up); without it the state is
    rebuilt here from the newest checkpoint. ``full``: recompute from the first
    checkpoint instead of the newest. ``file_check=False`` leaves out
    ``PRAGMA quick_check``, the one check that reads the whole file: the kiosk
    runs it beside play instead (:func:`check_file`), so start-up stays flat.
    ``events``: decode every round's events and make its summary again (by
    default only from the newest checkpoint: ``--full`` adds up the summaries).
    """
    # The record kept elsewhere, then the anchor, then the ledger's snapshot: each is written
    # after the next one (etg.ledger.freshness.Seen), so none is read ahead of the snapshot.
    seen = ledger.freshness.observe(ledger) if ledger.freshness is not None else None
    try:
        anchor = chain.read_anchor(ledger.path, ledger.key) if ledger.key else None
        anchor_problem = None
    except chain.AnchorError as error:
        anchor, anchor_problem = None, Problem("anchor", str(error))
    with ledger.reading():
        beside = file_check and full and \
            ledger.head[0] >= PARALLEL_ROWS and workers() > 1  # in a worker of the walk
        problems = ledger.quick_check() if file_check and not beside else []
        if problems:
            return problems  # a damaged file: the other checks would only repeat it
        checks = None
        try:
            checks = _Checks(ledger, full, events=not full if events is None else events,
                             file_check=beside)
            checks.walk(progress)
        except (sqlite3.DatabaseError, BrokenProcessPool):
            found = checks.file_problems if checks else []
            found = found or (ledger.quick_check() if beside else [])
            if found:
                return found
            raise
        if checks.file_problems:
            return checks.file_problems
        if anchor_problem is not None:
            problems.append(anchor_problem)
        problems += capped(checks.chain)
        problems += check_signature(ledger)
        if anchor_problem is None and ledger.key is not None:
            problems += check_anchor(ledger, anchor)
        if anchor_problem is None and ledger.freshness is not None:
            problems += ledger.freshness.check(ledger, anchor, seen)  # the head kept elsewhere
        if state is None and not checks.broken:
            try:
                state = rebuild(ledger)
            except ReplayError as error:
                problems.append(Problem("journal", str(error)))
        problems += checks.recount.finish(state)
        problems += check_schema(ledger)
        problems += check_paytable(ledger, paytable)
    return problems


def check_file(path: Path) -> list[Problem]:
    """``PRAGMA quick_check`` of the ledger file on a read-only connection of its own.

    Safe beside the writer (WAL readers never block it) and from another thread;
    a file that cannot be opened or read is a problem too, never an exception.
    """
    try:
        store = Ledger.open_readonly(path)
    except LedgerError as error:
        return [Problem("quick_check", str(error))]
    try:
        with store.reading():
            return store.quick_check()
    except sqlite3.Error as error:
        return [Problem("quick_check", f"{path}: {describe(error)}")]
    finally:
        store.close()


class ReplayError(ValueError):
    """A journaled command that does not replay through the engine."""


def rebuild(ledger: Ledger) -> TableState | None:
    """The table's state now: the newest checkpoint and the commands after it.

    Raises :class:`ReplayError` naming the first command that does not replay.
    """
    try:
        newest = ledger.last_checkpoint()
    except (ValueError, KeyError, TypeError) as error:
        raise ReplayError(f"the newest checkpoint cannot be read: {error}") from None
    if newest is None:
        return None
    seq, _body, state = newest
    for row in ledger.journal_after(seq):
        state, _ = replay_one(state, row)
    return state


def replay_one(state: TableState, row: dict[str, Any]) -> tuple[TableState, list[Event]]:
    """``state`` after the journaled command ``row``, and its events; raises :class:`ReplayError`.

    A verbose entry recorded its events: the replay must give the same ones.
    """
    from etg.core.refusal import Refused
    from etg.ledger.codec import dump_event

    try:
        if "unreadable" in row:
            raise ValueError(row["unreadable"])
        state, events = apply(state, load_command(row["command"]))
    except (Refused, ValueError, KeyError, TypeError) as error:
        raise ReplayError(f"journal entry {row['seq']} ({row['command'].get('type')}) does not "
                          f"replay: {error}") from None
    if "events" in row and [dump_event(e) for e in events] != row["events"]:
        raise ReplayError(f"journal entry {row['seq']} ({row['command'].get('type')}) replays "
                          f"to other events than it recorded")
    return state, events


def active_tilts(ledger: Ledger) -> list[dict[str, Any]]:
    """Tilts not yet acknowledged, oldest first (each an event-log entry)."""
    active: dict[int, dict[str, Any]] = {}
    for entry in ledger.last_events(("tilt", "tilt_cleared"), 1_000_000):
        if entry["kind"] == "tilt":
            active[entry["id"]] = entry
        else:
            cleared = entry["details"].get("tilts")
            for tilt_id in (list(active) if cleared is None else cleared):
                active.pop(int(tilt_id), None)
    return list(active.values())


# --- the anchor, the schema, the paytables ------------------------------------------------------

def check_signature(ledger: Ledger) -> list[Problem]:
    """The newest entry's signature under the public key (it covers every entry before it
    through the chain), and no signed head beyond it (entries cut off the end)."""
    if ledger.key is None:
        return [Problem("signature", "the ledger's public key is not here (etg ledger pubkey "
                                     "on the cabinet prints it; --pubkey FILE): the heads' "
                                     "signatures and the anchor were not checked")]
    return [Problem("signature", message)
            for message in chain_walk.check_head(ledger.conn, ledger.key, *ledger.head)]


def check_anchor(ledger: Ledger, anchor: chain.Anchor | None) -> list[Problem]:
    seq, _ = ledger.head
    where = chain.anchor_path(ledger.path)
    if anchor is None:
        return [Problem("anchor", f"the anchor {where} is missing: the ledger cannot be shown "
                                  f"to be the latest copy")] if seq else []
    if anchor.ledger_id != ledger.ledger_id:
        return [Problem("anchor", f"the ledger file is not the one its anchor records (swapped): "
                                  f"its id is {ledger.ledger_id}, the anchor's {anchor.ledger_id}")]
    if anchor.seq > seq:
        return [Problem("anchor", f"the ledger is behind its anchor: entries rows {seq + 1} to "
                                  f"{anchor.seq} are missing (the anchor records round "
                                  f"{anchor.rounds} at {anchor.at}, the file ends at round "
                                  f"{ledger.round_count()}): rounds were lost (a truncated file, "
                                  f"a restored older copy or a deleted -wal)")]
    recorded = ledger.entry_hash(anchor.seq)
    if recorded is None or recorded.hex() != anchor.head:
        return [Problem("anchor", f"entries row {anchor.seq} differs from the one the anchor "
                                  f"recorded: the file was replaced or rewritten")]
    return []


def check_schema(ledger: Ledger) -> list[Problem]:
    """Every table, index, trigger and view of the file is one this program makes, as it
    makes it (:mod:`etg.ledger.schema_check`), and the migrations table holds exactly the
    rows the chain recorded when they were applied."""
    return [*check_objects(ledger.conn), *_check_migrations(ledger)]


def _check_migrations(ledger: Ledger) -> list[Problem]:
    rows = [[rowid, *r] for rowid, *r in ledger.conn.execute(
        "SELECT rowid, migration_set, name, applied_at FROM _sqlite_migrations ORDER BY rowid")]
    recorded = None
    for entry in ledger.entries(kind=EntryKind.SCHEMA):
        recorded = entry.data().get("migrations", recorded)
    if recorded is None:
        return []
    problems = [Problem("schema", f"_sqlite_migrations row {row[0]} is not the one the chain "
                                  f"recorded")
                for row, want in zip(rows, recorded, strict=False) if row[1:] != want]
    if len(rows) != len(recorded):
        problems.append(Problem("schema", f"_sqlite_migrations holds {len(rows)} rows, the "
                                          f"chain recorded {len(recorded)}"))
    return problems


def check_paytable(ledger: Ledger, paytable: LoadedPaytable | None) -> list[Problem]:
    problems: list[Problem] = []
    for entry in ledger.entries(kind=EntryKind.PAYTABLE):
        body = entry.data()
        if "source" not in body:
            continue  # unreadable: the chain check names the row
        if hashlib.sha256(str(body["source"]).encode("utf-8")).hexdigest() != entry.tag:
            problems.append(Problem("paytable", f"entries row {entry.seq}: the recorded copy of "
                                                f"{body['id']} does not match its hash"))
    recorded = ledger.setting("paytable_sha256")
    if paytable is None or recorded is None or recorded == paytable.sha256:
        return problems
    source = ledger.paytable_source(recorded)
    recorded_id = source["id"] if source else "?"
    if recorded_id == paytable.paytable.id:
        problems.append(Problem("paytable", f"the active paytable `{recorded_id}` differs from "
                                            f"the approved one: recorded sha256 {recorded[:12]}…,"
                                            f" now {paytable.sha256[:12]}… ({paytable.path})"))
    else:
        # Nothing rewrites what an operator wrote (issue 26): the two are named, the ledger is
        # the record of what was played, and either way out is one recorded command.
        problems.append(Problem("paytable", f"cabinet.yaml names paytable "
                                            f"`{paytable.paytable.id}` ({paytable.path}), but the "
                                            f"ledger's last paytable switch made `{recorded_id}` "
                                            f"active (sha256 {recorded[:12]}…); the ledger is the "
                                            f"record of play, so `{recorded_id}` stands until a "
                                            f"switch is recorded: once a supervisor has "
                                            f"acknowledged this tilt, `etg paytable activate "
                                            f"{paytable.paytable.id}` records the switch, or `etg "
                                            f"paytable activate {recorded_id}` makes cabinet.yaml "
                                            f"name `{recorded_id}` again"))
    return problems


# --- the walk -----------------------------------------------------------------------------------

PARALLEL_ROWS = 50_000
"""A full walk at least this long is split over worker processes (one per core, at most 4)."""

PARTS_PER_WORKER = 16
"""Stretches handed out per worker process: a worker slowed by a neighbour takes fewer, and
the last stretch leaves the other workers idle for less time."""


class _Checks:
    """One pass over the chain and the money: from the newest checkpoint at start-up (the
    checkpoint's own link to the entry before it included, so start-up costs the same after
    a year as after a day), from entry 1 with ``--full``.

    Each chunk of entries is linked (:mod:`etg.ledger.chain_walk`) and its entries that are
    not commands — checkpoints, the event log and each round's header (its summary) — are
    counted (:class:`MoneyReader`, :class:`etg.ledger.recount.Recount`) while their pages are
    still in SQLite's cache. ``events`` (start-up, and ``verify --events``) also decodes each
    round's events and makes its summary again.

    A long ``--full`` is cut at checkpoints between rounds into stretches walked by worker
    processes (:func:`_walk_part`), each counting the money from its first checkpoint on;
    the figures each stretch ends with must be the very figures the next one starts from
    (the checkpoint between them), so the parts add up to one recount from the first round.
    """

    def __init__(self, ledger: Ledger, full: bool, events: bool,
                 file_check: bool = False) -> None:
        self.ledger = ledger
        self.file_check = file_check  # PRAGMA quick_check too (before the walk, or in a worker)
        self.full = full
        self.chain: list[Problem] = []
        self.broken = False
        self.recount = Recount(ledger, events=events)
        newest = ledger.conn.execute("SELECT max(seq) FROM entries WHERE kind = 'checkpoint'"
                                     ).fetchone()[0]
        self.first = ledger.first_seq()  # 1, or the first entry after an archive's cut
        self.start = 0 if full or newest is None else int(newest)
        self.file_problems: list[Problem] = []  # quick_check's, when a worker ran it
        low = max(self.start, self.first)
        self.stretch = sealed_stretch(ledger, low, ledger.head[0])
        self.unchecked: list[str] = []  # entries the old secret key was needed for
        self.parts = self._parts(self.stretch) if full else [self.stretch]

    @property
    def parted(self) -> bool:
        """The walk runs in worker processes."""
        return len(self.parts) > 1

    def walk(self, progress: Progress | None) -> None:
        """The walk, and ``PRAGMA quick_check`` if asked (:attr:`file_problems`; nothing else
        is walked if it finds any)."""
        ledger = self.ledger
        if self.file_check and not self.parted:
            self.file_problems = ledger.quick_check()
            if self.file_problems:
                return
        key = ledger.legacy_key
        total, _ = ledger.head
        low = self.stretch.low
        if low == self.first > 1:  # the live chain follows the archive's last entry
            archived = ledger.archived_head()
            if archived is None or archived[0] != low - 1:
                self._fail(f"entries rows 1 to {low - 1} are missing and no archive records "
                           f"taking them")
            else:
                first = dataclasses.replace(self.parts[0], previous=archived[1])
                self.parts[0] = first
                if not self.parted:
                    self.stretch = first
        stretch = self.stretch
        money = MoneyReader(ledger, self.recount, legacy=self.start == 0)
        if self.parted:
            self._walk_parts(self.parts, progress, total, key, self.file_check)
        else:
            tick = None if progress is None else (lambda seq: progress(seq, total))
            links, _ = chain_walk.check(ledger.conn, key, stretch, tick, money, self.unchecked)
            self._links(links)
        if self.full:  # start-up's walk from the newest checkpoint vouches for nothing older
            self.chain += [Problem("unchecked", message) for message in self.unchecked[:1]]
        for message in money.failures:
            self._fail(message)
        if progress is not None:
            progress(total, total)

    def _parts(self, stretch: chain_walk.Stretch) -> list[chain_walk.Stretch]:
        """``stretch`` cut at rolling checkpoints (written between rounds, with the round
        before them) into about :data:`PARTS_PER_WORKER` parts per worker process."""
        size = stretch.high - stretch.low + 1
        count = workers()
        if count < 2 or size < PARALLEL_ROWS:
            return [stretch]
        pieces = count * PARTS_PER_WORKER
        floor = max(stretch.low, stretch.verbose_until + 1)  # a verbose stretch is not cut
        cuts: list[int] = []
        for i in range(1, pieces):
            row = self.ledger.conn.execute(
                "SELECT seq FROM entries WHERE kind = 'checkpoint' AND tag = 'interval' "
                "AND seq >= ? AND seq < ? ORDER BY seq LIMIT 1",
                [max(floor, stretch.low + size * i // pieces), stretch.high]).fetchone()
            if row is not None and int(row[0]) > max(cuts, default=stretch.low):
                cuts.append(int(row[0]))
        parts = []
        low, previous, counted = stretch.low, stretch.previous, None
        for cut in cuts:
            parts.append(dataclasses.replace(stretch, low=low, high=cut, previous=previous,
                                             counted_from=counted))
            low, previous, counted = cut + 1, None, cut
        parts.append(dataclasses.replace(stretch, low=low, previous=previous,
                                         counted_from=counted))
        return parts

    def _walk_parts(self, parts: list[chain_walk.Stretch], progress: Progress | None,
                    total: int, key: bytes | None, file_check: bool) -> None:
        """The parts in worker processes; their findings in chain order, and the money
        carried from each part into the next. ``file_check``: ``PRAGMA quick_check`` is one
        more task for the workers (a process, not a thread: nothing of SQLite's may be held
        by another thread of this process when it forks its workers)."""
        context = _context()
        done = context.Array("q", len(parts), lock=False)
        events = self.recount.events
        path = str(self.ledger.path)
        with ProcessPoolExecutor(max_workers=min(workers(), len(parts)), mp_context=context,
                                 initializer=_share_progress, initargs=(done,)) as pool:
            checked = pool.submit(check_file, Path(path)) if file_check else None
            futures = [pool.submit(_walk_part, path, key, part, index, events,
                                   index == 0 and self.start == 0)
                       for index, part in enumerate(parts)]
            pending = set(futures)
            while pending:
                _, pending = wait(pending, timeout=0.25)
                if progress is not None:
                    progress(min(sum(done), total), total)
            if checked is not None:
                self.file_problems = checked.result()
                if self.file_problems:
                    return
            results = [future.result() for future in futures]
        recount = self.recount
        for index, result in enumerate(results):
            self._links(result.links)
            self.unchecked += result.unchecked
            for message in result.failures:
                self._fail(message)
            recount.found += result.found
            recount.hidden += result.hidden
            if index and result.started != results[index - 1].ended:
                recount.found.append(Problem(
                    "checkpoint", f"entries row {parts[index].counted_from} (checkpoint): the "
                                  f"money the ledger adds up to before it is not what it holds "
                                  f"(credits, progressive meters and their reserves, meters, "
                                  f"cash since the last round)"))
        recount.start(results[-1].ended)

    def _links(self, problems: list[str]) -> None:
        for message in problems:
            self._fail(message)

    def _fail(self, message: str) -> None:
        self.broken = True
        self.chain.append(Problem("chain", message))


class MoneyReader:
    """The money's side of a walk (a :data:`etg.ledger.chain_walk.Money`): the entries of each
    range that are not commands, counted by ``recount`` — a compact round from its header
    alone (:func:`etg.ledger.entry.round_header`) unless it is to decode the events.

    ``legacy``: the walk starts at the first round, and the verbose rounds' own older
    hashes (:mod:`etg.ledger.legacy`) are followed too.
    """

    def __init__(self, ledger: Ledger, recount: Recount, legacy: bool) -> None:
        self.ledger = ledger
        self.recount = recount
        self.legacy: str | None = LEGACY_GENESIS if legacy else None
        self.failures: list[str] = []

    def __call__(self, conn: sqlite3.Connection, low: int, high: int) -> None:
        recount = self.recount
        layouts = self.ledger.layouts
        headers = not recount.events
        cursor = conn.execute(f"SELECT {ENTRY_SELECT} FROM entries WHERE seq >= ? AND "
                              f"seq <= ? AND kind != 'command' ORDER BY seq", [low, high])
        while rows := cursor.fetchmany(1000):
            for row in rows:
                seq, kind, fmt = row[0], row[1], row[8]
                try:
                    if headers and kind == "round" and fmt == COMPACT:
                        if recount.credits is not None:
                            recount.feed_header(seq, row[2], round_header(row[6],
                                                                          layouts.at(seq)))
                        continue
                    entry = entry_of(row, layouts)
                    if self.legacy is not None and kind == "round" and fmt != COMPACT:
                        self.legacy = self._legacy(entry, self.legacy)
                    recount.feed(entry)
                except (ValueError, KeyError, TypeError, IndexError, LookupError) as error:
                    self.failures.append(f"entries row {seq} ({kind}) cannot be read: {error}")

    def _legacy(self, entry: Entry, previous: str) -> str:
        body = entry.data()
        digest = body.pop("legacy_hash", None)
        if digest is None:
            return previous
        if legacy_hash(previous, body) != digest:
            self.failures.append(f"entries row {entry.seq}: round {entry.round} does not match "
                                 f"the hash the older hand ledger gave it")
        return str(digest)


@dataclass(frozen=True)
class _Part:
    """What a worker found in its part of a full walk."""

    links: list[str]
    unchecked: list[str]  # entries the old secret key was needed for
    failures: list[str]
    found: list[Problem]
    hidden: int  # problems found beyond those kept
    started: Figures | None  # the money as the part's first checkpoint holds it
    ended: Figures | None  # and as the part adds it up at its last entry


_DONE: Any = None
"""In a worker: the entries each part has linked so far, shared with the caller."""


def _share_progress(done: Any) -> None:
    global _DONE
    _DONE = done


def _walk_part(path: str, key: bytes | None, part: chain_walk.Stretch, index: int, events: bool,
               legacy: bool) -> _Part:
    """One part of a full walk, in a worker process with a read-only connection of its own.

    The cyclic garbage collector rests meanwhile: a walk makes no cycles, and it would
    otherwise go through every object of the program again and again for nothing.
    """
    store = Ledger.open_readonly(Path(path))
    store.legacy_key = key
    gc.disable()
    try:
        with store.reading():
            recount = Recount(store, events=events)
            money = MoneyReader(store, recount, legacy)

            def tick(seq: int) -> None:
                if _DONE is not None:
                    _DONE[index] = seq - part.low + 1

            unchecked: list[str] = []
            links, _ = chain_walk.check(store.conn, key, part, tick, money, unchecked)
            last = recount.last_checkpoint
            ended = recount.figures(last if last == part.high else 0)
            found = recount.found
            return _Part(links, unchecked, money.failures[:MAX_REPORTED], found[:MAX_REPORTED],
                         recount.hidden + max(0, len(found) - MAX_REPORTED), recount.started,
                         ended)
    finally:
        gc.enable()
        store.close()


def workers() -> int:
    """The processes worth starting here: the cores this process may use, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 4))


def _context() -> Any:
    """Forked workers where the platform has fork: they need nothing of the program but this
    module, and a spawned one would first run the caller's main module again (a script, a
    bench, a test) — only the ``etg`` command guards against that."""
    try:
        return get_context("fork")
    except ValueError:
        return get_context("spawn")


def sealed_stretch(ledger: Ledger, low: int, high: int) -> chain_walk.Stretch:
    """Entries ``low``..``high``, with what the ledger's seals say of the older entries."""
    return chain_walk.sealed(ledger.carried, (entry.data() for entry in ledger.entries(
        kind=EntryKind.SCHEMA) if entry.tag == "seal"), low, high)
