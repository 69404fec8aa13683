"""Integrity of a ledger (SPEC §5): run at every start-up and by ``etg ledger verify``.

Verification **recomputes**; it does not only re-hash:

1. ``PRAGMA quick_check``: the file itself.
2. **The chain**: entries run 1, 2, 3 ... without a gap, and each one's hash is
   the keyed HMAC of the one before and its own content. Any edit, deletion,
   insertion or reordering of any entry shows here, with or without triggers.
   Start-up walks it from the newest checkpoint (constant in history; the
   anchor pins the head); ``--full`` from the first entry.
3. **The anchor**: the file holds the entry the anchor recorded, with the same
   hash, and is the same ledger (its id). A truncated or restored file, a lost
   ``-wal`` or a swapped file is behind or beside its anchor.
4. **The money**, from a checkpoint on (start-up: the newest one; ``--full``:
   the first): each seat's credits = the checkpoint's + cash-in − cash-out + the
   rounds' results, checked at every round, every checkpoint and at the end, and
   never negative; each round's net = the sum of its settled wagers; each
   progressive meter = the checkpoint's + contributions − awards + seeds and
   reserve flows, at every event of the meter and at every checkpoint; every
   meter = the ledger's sums since the last RAM clear.
5. **The schema and the paytables**: the migrations table is what the chain
   recorded; each recorded paytable file matches its hash; the active paytable
   file is the one the ledger recorded.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from etg.config.loader import LoadedPaytable
from etg.core.engine import apply
from etg.core.events import ProgressiveAwarded, ProgressiveContributed, RoundComplete, WagerSettled
from etg.core.state import LEVELS, Phase, TableState
from etg.ledger import chain
from etg.ledger.codec import load_command, load_event
from etg.ledger.legacy import LEGACY_GENESIS, legacy_hash
from etg.ledger.meters import log_meters, round_meters
from etg.ledger.store import (
    Entry,
    EntryKind,
    Ledger,
    LedgerError,
    Problem,
    describe,
    entry_content,
    round_events_of,
)

MAX_PROBLEMS = 12
"""Problems reported per check; the rest are counted."""

Progress = Callable[[int, int], None]
"""Called with (entries checked, entries in all) while verifying."""


def verify(ledger: Ledger, paytable: LoadedPaytable | None = None, full: bool = False,
           state: TableState | None = None, progress: Progress | None = None,
           file_check: bool = True) -> list[Problem]:
    """Every problem found; an empty list means the ledger is sound.

    ``state``: the table's state as rebuilt (start-up); without it the state is
    rebuilt here from the newest checkpoint. ``full``: recompute from the first
    checkpoint instead of the newest. ``file_check=False`` leaves out
    ``PRAGMA quick_check``, the one check that reads the whole file: the kiosk
    runs it beside play instead (:func:`check_file`), so start-up stays flat.
    """
    try:
        anchor = chain.read_anchor(ledger.path, ledger.key) if ledger.key else None
        anchor_problem = None
    except chain.AnchorError as error:
        anchor, anchor_problem = None, Problem("anchor", str(error))
    with ledger.reading():
        problems = ledger.quick_check() if file_check else []
        if problems:
            return problems  # a damaged file: the other checks would only repeat it
        if anchor_problem is not None:
            problems.append(anchor_problem)
        checks = _Checks(ledger, full)
        checks.walk(progress)
        problems += _capped(checks.chain)
        if anchor_problem is None and ledger.key is not None:
            problems += check_anchor(ledger, anchor)
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
        state = replay_one(state, row)
    return state


def replay_one(state: TableState, row: dict[str, Any]) -> TableState:
    """``state`` after the journaled command ``row``; raises :class:`ReplayError`."""
    from etg.core.refusal import Refused

    try:
        if "unreadable" in row:
            raise ValueError(row["unreadable"])
        state, _ = apply(state, load_command(row["command"]))
    except (Refused, ValueError, KeyError, TypeError) as error:
        raise ReplayError(f"journal entry {row['seq']} ({row['command'].get('type')}) does not "
                          f"replay: {error}") from None
    return state


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
    """The migrations table holds exactly the rows the chain recorded when they were applied."""
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
        problems.append(Problem("paytable", f"the cabinet names paytable "
                                            f"`{paytable.paytable.id}` ({paytable.path}), but the "
                                            f"ledger's active paytable is `{recorded_id}` (sha256 "
                                            f"{recorded[:12]}…)"))
    return problems


# --- the walk -----------------------------------------------------------------------------------

class _Checks:
    """One pass over the chain and the money: from the newest checkpoint at start-up (the
    checkpoint's own link to the entry before it included, so start-up costs the same after
    a year as after a day), from entry 1 with ``--full``."""

    def __init__(self, ledger: Ledger, full: bool) -> None:
        self.ledger = ledger
        self.chain: list[Problem] = []
        self.broken = False
        self.recount = Recount(ledger)
        newest = ledger.conn.execute("SELECT max(seq) FROM entries WHERE kind = 'checkpoint'"
                                     ).fetchone()[0]
        self.start = 0 if full or newest is None else int(newest)

    def walk(self, progress: Progress | None) -> None:
        key = self.ledger.key
        if key is None:
            self.chain.append(Problem("chain", "the ledger key is not available here: the chain's "
                                               "signatures were not checked"))
        total, _ = self.ledger.head
        previous, expected = chain.GENESIS, 1
        legacy = LEGACY_GENESIS
        counting = self.start == 0
        if self.start:  # start-up: the newest checkpoint's link to the entry before it, then on
            expected = self.start
            previous = self.ledger.entry_hash(self.start - 1) or chain.GENESIS
        for entry in self.ledger.entries(after=expected - 1):
            if entry.seq != expected:
                self._fail(f"entries row {expected} is missing (the next is {entry.seq})")
                expected = entry.seq
            if key is not None:
                content = entry_content(entry.seq, entry.kind, entry.round, entry.at, entry.actor,
                                        entry.tag, entry.body)
                if not hmac.compare_digest(chain.link(key, previous, content), entry.hash):
                    self._fail(f"entries row {entry.seq} ({entry.kind} {entry.tag or ''}): its "
                               f"content does not match its hash (edited, inserted or moved)")
            if entry.kind == EntryKind.ROUND.value and counting:
                legacy = self._legacy(entry, legacy)
            if entry.seq == self.start:
                counting = True
            if counting:
                try:
                    self.recount.feed(entry)
                except (ValueError, KeyError, TypeError, IndexError) as error:
                    self._fail(f"entries row {entry.seq} ({entry.kind}) cannot be read: {error}")
            previous, expected = entry.hash, entry.seq + 1
            if progress is not None and entry.seq % 5000 == 0:
                progress(entry.seq, total)
        if progress is not None:
            progress(total, total)

    def _legacy(self, entry: Entry, previous: str) -> str:
        body = entry.data()
        digest = body.pop("legacy_hash", None)
        if digest is None:
            return previous
        if legacy_hash(previous, body) != digest:
            self._fail(f"entries row {entry.seq}: round {entry.round} does not match the hash "
                       f"the older hand ledger gave it")
        return str(digest)

    def _fail(self, message: str) -> None:
        self.broken = True
        self.chain.append(Problem("chain", message))


@dataclass
class Recount:
    """The money recomputed entry by entry, from a checkpoint on."""

    ledger: Ledger
    found: list[Problem] = field(default_factory=list)
    credits: list[int] | None = None  # per seat, as cash-in − cash-out + results say
    progressives: list[int | None] = field(default_factory=list)
    reserves: list[int] = field(default_factory=list)
    meters: dict[str, Counter[tuple[int, str]]] = field(default_factory=dict)
    round_events: list[dict[str, Any]] = field(default_factory=list)
    at_open: list[int] | None = None
    sealed: bool = False

    def feed(self, entry: Entry) -> None:
        kind = entry.kind
        if kind == EntryKind.CHECKPOINT.value:
            self._checkpoint(entry)
        elif self.credits is None:
            return  # nothing to count from until the first checkpoint
        elif kind == EntryKind.COMMAND.value:
            body = entry.data()
            if body["command"]["type"] == "OpenBets":
                self.round_events, self.at_open = [], list(self.credits)
            self.round_events.append(body)
        elif kind == EntryKind.EVENT.value:
            self._event(entry)
        elif kind == EntryKind.ROUND.value:
            self._round(entry)

    def finish(self, state: TableState | None) -> list[Problem]:
        """Compare the state now with what the ledger adds up to, and the meters table."""
        if self.credits is None or state is None:
            return _capped(self.found)
        self._compare_state(state, "now", "the table's state")
        problems = self.found
        actual = self.ledger.meters()
        for paytable_id in sorted(set(self.meters) | set(actual)):
            want = +self.meters.get(paytable_id, Counter())
            have = actual.get(paytable_id, Counter())
            for seat, name in sorted(set(want) | set(have)):
                if want[(seat, name)] != have[(seat, name)]:
                    problems.append(Problem(
                        "meters", f"meters row ({paytable_id}, seat {seat}, {name}) is "
                                  f"{have[(seat, name)]}, the ledger sums to {want[(seat, name)]}"))
        return _capped(problems)

    # --- entries --------------------------------------------------------------------------

    def _checkpoint(self, entry: Entry) -> None:
        body = entry.data()
        state = _state_of(body)
        if self.credits is None or body["reason"] in ("paytable_switch", "migration"):
            if self.credits is not None and any(self.credits):
                self._found("credits", f"entries row {entry.seq}: the paytable was switched "
                                       f"with credits on the seats {self.credits}")
            # Mid-round, the money on the table and this round's contributions are counted
            # when the round ends: start from the credits and meters as they were before it.
            self.credits, meters = list(state.credits), state.meters
            if state.phase not in (Phase.IDLE, Phase.COMPLETE, Phase.VOIDED) and \
                    state.round.staked:
                self.credits = [c + s - r for c, s, r in zip(
                    self.credits, state.round.staked, state.round.returned, strict=True)]
                meters = state.round.meters_before or meters
            self.progressives = [None if m is None else m.cents for m in meters]
            self.reserves = [0 if m is None else m.reserve_cents for m in meters]
            self.meters = {pid: Counter({(seat, name): value for seat, name, value in rows})
                           for pid, rows in body["meters"].items()}
            opened = body.get("round_open")
            self.at_open = None if opened is None else list(opened["credits"])
            self.round_events = [] if opened is None else [
                e.data() for e in self.ledger.entries(after=int(opened["seq"]) - 1,
                                                      until=entry.seq,
                                                      kind=EntryKind.COMMAND)]
            return
        where = f"entries row {entry.seq} (checkpoint)"
        if body["credits"] != list(state.credits) or body["progressives"] != [
                None if m is None else m.cents for m in state.meters]:
            self._found("checkpoint", f"{where}: its credits or meters differ from its state")
        self._compare_state(state, where, where)
        recorded = {pid: Counter({(seat, name): value for seat, name, value in rows})
                    for pid, rows in body["meters"].items()}
        if {p: +c for p, c in recorded.items()} != {p: +c for p, c in self.meters.items()
                                                    if +c}:
            self._found("meters", f"{where}: its meters differ from the ledger's sums")

    def _event(self, entry: Entry) -> None:
        details = entry.data()
        kind = entry.tag
        # A tip leaves the seat's credits for the dealer's tip box as cash out leaves them.
        if kind in ("cash_in", "cash_out", "tip") and self.credits is not None:
            seat = int(details["seat"])
            amount = int(details["amount"])
            self.credits[seat - 1] += amount if kind == "cash_in" else -amount
            if self.credits[seat - 1] < 0:
                self._found("credits", f"entries row {entry.seq}: seat {seat} "
                                       f"{'tipped' if kind == 'tip' else 'cashed out'} more "
                                       f"than its credits")
        if kind == "ram_clear":
            self.meters = {}
        logged = {"id": entry.seq, "at": entry.at, "kind": kind, "actor": entry.actor,
                  "details": details}
        owner = str(details.get("paytable_id", "cabinet"))
        self.meters.setdefault(owner, Counter()).update(log_meters(logged))

    def _round(self, entry: Entry) -> None:
        body = entry.data()
        record = body if "events" in body else {**body, "events":
                                                round_events_of(self.round_events)}
        where = f"entries row {entry.seq} (round {entry.round})"
        self.meters.setdefault(record["paytable"]["id"], Counter()).update(round_meters(record))
        assert self.credits is not None
        events = [load_event(e) for e in record["events"]]
        complete = record["outcome"] == "complete"
        net = [0] * len(self.credits)
        settled = [0] * len(self.credits)
        for event in events:
            if isinstance(event, WagerSettled):
                settled[event.seat - 1] += event.paid - event.payment.stake
            elif isinstance(event, RoundComplete):
                net = list(event.net)
        if complete and net != settled:
            self._found("credits", f"{where}: its net {net} is not the sum of its settled "
                                   f"wagers {settled}")
        if "events" not in body and self.at_open is not None and \
                record["credits_before"] != self.at_open:
            self._found("credits", f"{where}: credits before {record['credits_before']}, the "
                                   f"ledger adds up to {self.at_open}")
        expected = [c + (n if complete else 0) for c, n in zip(self.credits, net, strict=True)]
        if record["credits_after"] != expected:
            self._found("credits", f"{where}: credits after {record['credits_after']}, cash-in, "
                                   f"cash-out and results add up to {expected}")
        if any(c < 0 for c in record["credits_after"]):
            self._found("credits", f"{where}: negative credits {record['credits_after']}")
        self.credits = list(record["credits_after"])
        if complete:
            self._progressive(events, where, self.progressives, self.reserves, report=True)
        after = record.get("meters_after") or {}
        for level, value in zip(LEVELS, self.progressives, strict=False):
            if level.value in after and after[level.value] != value:
                self._found("progressive", f"{where}: the {level.value} meter after it is "
                                           f"{after[level.value]}, its contributions and awards "
                                           f"add up to {value}")
        self.round_events, self.at_open = [], None

    # --- helpers ------------------------------------------------------------------------

    def _progressive(self, events: Iterable[Any], where: str, meters: list[int | None],
                     reserves: list[int], report: bool) -> None:
        index = {level: i for i, level in enumerate(LEVELS)}
        for event in events:
            if isinstance(event, ProgressiveContributed):
                i = index[event.level]
                value = meters[i]
                if value is not None:
                    meters[i] = value + event.to_meter
                    reserves[i] += event.to_reserve
                    if report and meters[i] != event.meter:
                        self._found("progressive", f"{where}: the {event.level.value} meter is "
                                                   f"{event.meter}, its contributions add up to "
                                                   f"{meters[i]}")
            elif isinstance(event, ProgressiveAwarded):
                i = index[event.level]
                if report and meters[i] != event.meter_before:
                    self._found("progressive", f"{where}: the {event.level.value} meter paid "
                                               f"{event.meter_before}, the ledger adds up to "
                                               f"{meters[i]}")
                meters[i] = (event.meter_before - event.amount + event.seeded
                             + event.from_reserve)
                reserves[i] -= event.from_reserve
                if report and (meters[i] != event.meter_after or reserves[i] < 0):
                    self._found("progressive", f"{where}: the {event.level.value} meter after "
                                               f"the award is {event.meter_after}, the ledger "
                                               f"adds up to {meters[i]}")

    def _compare_state(self, state: TableState, where: str, what: str) -> None:
        assert self.credits is not None
        expected = list(self.credits)
        progressives = list(self.progressives)
        in_round = state.phase not in (Phase.IDLE, Phase.COMPLETE, Phase.VOIDED)
        if in_round and state.round.staked:
            expected = [c - s + r for c, s, r in
                        zip(expected, state.round.staked, state.round.returned, strict=True)]
            events = [load_event(e) for body in self.round_events for e in body["events"]]
            self._progressive(events, where, progressives, list(self.reserves), report=False)
        if list(state.credits) != expected:
            self._found("credits", f"{where}: {what} holds credits {list(state.credits)}, "
                                   f"cash-in, cash-out and results add up to {expected}")
        if any(c < 0 for c in state.credits):
            self._found("credits", f"{where}: negative credits {list(state.credits)}")
        cents = [None if m is None else m.cents for m in state.meters]
        if cents != progressives:
            self._found("progressive", f"{where}: {what} holds progressive meters {cents}, "
                                       f"contributions and awards add up to {progressives}")

    def _found(self, check: str, message: str) -> None:
        self.found.append(Problem(check, message))


def _state_of(body: dict[str, Any]) -> TableState:
    from etg.ledger.codec import load_state

    return load_state(json.dumps(body["state"]))


def _capped(problems: list[Problem]) -> list[Problem]:
    if len(problems) <= MAX_PROBLEMS:
        return problems
    more = len(problems) - MAX_PROBLEMS
    return [*problems[:MAX_PROBLEMS], Problem(problems[-1].check, f"and {more} more problems")]
