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
import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Any

from etg.config.loader import LoadedPaytable
from etg.core.engine import apply
from etg.core.events import Event
from etg.core.state import LEVELS, Phase, TableState
from etg.ledger import chain, chain_walk
from etg.ledger.codec import load_command
from etg.ledger.entry import COMPACT, ENTRY_SELECT, entry_of
from etg.ledger.legacy import LEGACY_GENESIS, legacy_hash
from etg.ledger.meters import log_meters, round_meters
from etg.ledger.money import CONTRIBUTED, settled_net, summarize
from etg.ledger.store import (
    Entry,
    EntryKind,
    Ledger,
    LedgerError,
    Problem,
    describe,
)

MAX_PROBLEMS = 12
"""Problems reported per check; the rest are counted."""

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
        checks = _Checks(ledger, full, events=not full if events is None else events)
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
    a year as after a day), from entry 1 with ``--full``.

    Two walks over the same snapshot: the links of every entry
    (:mod:`etg.ledger.chain_walk`, in worker processes beside this one for a long
    ``--full``), and the money, which reads every entry but the commands and decodes
    only what it adds up: checkpoints, the event log and each round's header (its
    summary). ``events`` (start-up, and ``verify --events``) also decodes each round's
    events and makes its summary again.
    """

    def __init__(self, ledger: Ledger, full: bool, events: bool) -> None:
        self.ledger = ledger
        self.full = full
        self.chain: list[Problem] = []
        self.broken = False
        self.recount = Recount(ledger, events=events)
        newest = ledger.conn.execute("SELECT max(seq) FROM entries WHERE kind = 'checkpoint'"
                                     ).fetchone()[0]
        self.first = ledger.first_seq()  # 1, or the first entry after an archive's cut
        self.start = 0 if full or newest is None else int(newest)

    def walk(self, progress: Progress | None) -> None:
        ledger = self.ledger
        key = ledger.key
        total, _ = ledger.head
        low = max(self.start, self.first)
        previous = None
        if low == self.first > 1:  # the live chain follows the archive's last entry
            archived = ledger.archived_head()
            if archived is None or archived[0] != low - 1:
                self._fail(f"entries rows 1 to {low - 1} are missing and no archive records "
                           f"taking them")
            else:
                previous = archived[1]
        stretch = chain_walk.Stretch(low, total, _verbose_until(ledger), previous)
        background = None
        if key is None:
            self.chain.append(Problem("chain", "the ledger key is not available here: the chain's "
                                               "signatures were not checked"))
        elif self.full:
            background = chain_walk.start(ledger.path, key, stretch, chain_walk.workers())
        halfway = key is not None and background is None
        if key is not None and background is None:
            tick = None if progress is None else (lambda seq: progress(seq // 2, total))
            links, _ = chain_walk.check(ledger.conn, key, stretch, tick)
            self._links(links)
        self._money(stretch, progress, total, halfway)
        if background is not None:
            links, _ = chain_walk.collect(background)
            self._links(links)
        if progress is not None:
            progress(total, total)

    def _money(self, stretch: chain_walk.Stretch, progress: Progress | None, total: int,
               halfway: bool) -> None:
        legacy = LEGACY_GENESIS
        counting = self.start == 0
        layouts = self.ledger.layouts
        cursor = self.ledger.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE seq >= ? AND seq <= ? "
            f"AND kind != 'command' ORDER BY seq", [stretch.low, stretch.high])
        while rows := cursor.fetchmany(4000):
            for row in rows:
                entry = entry_of(row, layouts)
                if entry.kind == "round" and counting and entry.format != COMPACT:
                    legacy = self._legacy(entry, legacy)
                if entry.seq == self.start:
                    counting = True
                if counting:
                    try:
                        self.recount.feed(entry)
                    except (ValueError, KeyError, TypeError, IndexError, LookupError) as error:
                        self._fail(f"entries row {entry.seq} ({entry.kind}) cannot be read: "
                                   f"{error}")
            if progress is not None:
                seq = int(rows[-1][0])
                progress((total + seq) // 2 if halfway else seq, total)

    def _links(self, problems: list[str]) -> None:
        for message in problems:
            self._fail(message)

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
    events: bool = False  # decode every round's events and make its summary again
    found: list[Problem] = field(default_factory=list)
    credits: list[int] | None = None  # per seat, as cash-in − cash-out + results say
    progressives: list[int | None] = field(default_factory=list)
    reserves: list[int] = field(default_factory=list)
    meters: dict[str, Counter[tuple[int, str]]] = field(default_factory=dict)
    at_open: list[int] | None = None  # a round open at the checkpoint: its credits then
    open_seq: int | None = None  # and its OpenBets entry
    rounds_meters: dict[str, dict[str, list[list[int]]]] = field(default_factory=dict)
    cash: list[tuple[int, int, int]] = field(default_factory=list)  # (entry, seat, amount) since
    # the last round: a round's credits before it are the credits less those after its OpenBets

    def feed(self, entry: Entry) -> None:
        """Count one entry (the walk feeds every entry but the commands)."""
        kind = entry.kind
        if kind == EntryKind.CHECKPOINT.value:
            self._checkpoint(entry)
        elif self.credits is None:
            return  # nothing to count from until the first checkpoint
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
        self._add_rounds()
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
        if "unreadable" in body:
            raise ValueError(body["unreadable"])
        state = _state_of(body)
        if self.credits is None or body["reason"] in ("paytable_switch", "migration"):
            if self.credits is not None and any(self.credits):
                self._found("credits", f"entries row {entry.seq}: the paytable was switched "
                                       f"with credits on the seats {self.credits}")
            # Mid-round, the money on the table and this round's contributions are counted
            # when the round ends: start from the credits and meters as they were before it.
            self.credits, meters = list(state.credits), state.meters
            if _in_round(state):
                self.credits = [c + s - r for c, s, r in zip(
                    self.credits, state.round.staked, state.round.returned, strict=True)]
                meters = state.round.meters_before or meters
            self.progressives = [None if m is None else m.cents for m in meters]
            self.reserves = [0 if m is None else m.reserve_cents for m in meters]
            self.meters = {pid: Counter({(seat, name): value for seat, name, value in rows})
                           for pid, rows in body["meters"].items()}
            self.rounds_meters = {}
            opened = body.get("round_open")
            self.at_open = None if opened is None else list(opened["credits"])
            self.open_seq = None if opened is None else int(opened["seq"])
            self.cash = []
            return
        where = f"entries row {entry.seq} (checkpoint)"
        if body["credits"] != list(state.credits) or body["progressives"] != [
                None if m is None else m.cents for m in state.meters]:
            self._found("checkpoint", f"{where}: its credits or meters differ from its state")
        self._compare_state(state, where, where)
        recorded = {pid: Counter({(seat, name): value for seat, name, value in rows})
                    for pid, rows in body["meters"].items()}
        self._add_rounds()
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
            delta = amount if kind == "cash_in" else -amount
            self.credits[seat - 1] += delta
            self.cash.append((entry.seq, seat, delta))
            if self.credits[seat - 1] < 0:
                self._found("credits", f"entries row {entry.seq}: seat {seat} "
                                       f"{'tipped' if kind == 'tip' else 'cashed out'} more "
                                       f"than its credits")
        if kind == "ram_clear":
            self.meters, self.rounds_meters = {}, {}
        logged = {"id": entry.seq, "at": entry.at, "kind": kind, "actor": entry.actor,
                  "details": details}
        owner = str(details.get("paytable_id", "cabinet"))
        self.meters.setdefault(owner, Counter()).update(log_meters(logged))

    def _round(self, entry: Entry) -> None:
        where = f"entries row {entry.seq} (round {entry.round})"
        record, summary = self._summary(entry, where)
        complete = record["outcome"] == "complete"
        rows = self.rounds_meters.setdefault(record["paytable"]["id"], {})
        for name, row in summary["meters"].items():  # added up when compared (_add_rounds)
            rows.setdefault(name, []).append(row)
        assert self.credits is not None
        net = summary["net"] if complete and summary["net"] is not None else [0] * len(
            self.credits)
        at_open = self.at_open if self.open_seq == record["opened_seq"] else None
        if at_open is None:  # the credits when betting opened: less the cash since then
            at_open = list(self.credits)
            for seq, seat, delta in self.cash:
                if seq > int(record["opened_seq"]):
                    at_open[seat - 1] -= delta
        if record["credits_before"] != at_open:
            self._found("credits", f"{where}: credits before {record['credits_before']}, the "
                                   f"ledger adds up to {at_open}")
        expected = [c + n for c, n in zip(self.credits, net, strict=True)]
        if record["credits_after"] != expected:
            self._found("credits", f"{where}: credits after {record['credits_after']}, cash-in, "
                                   f"cash-out and results add up to {expected}")
        if any(c < 0 for c in record["credits_after"]):
            self._found("credits", f"{where}: negative credits {record['credits_after']}")
        self.credits = list(record["credits_after"])
        if complete:
            self._progressive(summary["progressive"], where, self.progressives, self.reserves,
                              report=True)
        after = record.get("meters_after") or {}
        for level, value in zip(_LEVEL_NAMES, self.progressives, strict=False):
            if level in after and after[level] != value:
                self._found("progressive", f"{where}: the {level} meter after it is "
                                           f"{after[level]}, its contributions and awards "
                                           f"add up to {value}")
        self.at_open, self.open_seq, self.cash = None, None, []

    def _add_rounds(self) -> None:
        """Add the meters of the rounds read since the last time to :attr:`meters`: column by
        column, so a year of rounds costs a few sums a meter, not a dictionary a round."""
        for paytable_id, names in self.rounds_meters.items():
            counter = self.meters.setdefault(paytable_id, Counter())
            for name, rows in names.items():
                for seat, total in enumerate(map(sum, zip_longest(*rows, fillvalue=0))):
                    if total:
                        counter[(seat, name)] += total
        self.rounds_meters = {}

    def _summary(self, entry: Entry, where: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The round's record (its header, unless its events are needed) and its summary.

        A verbose round has none stored: it is made from its events. With
        :attr:`events`, a compact round's is made again and compared.
        """
        if entry.format == COMPACT and not self.events:
            record = entry.round_header()
            return record, record["summary"]
        record = self.ledger.record_of(entry)
        if "unreadable" in record:
            raise ValueError(record["unreadable"])
        made = summarize(record, round_meters(record))
        if record["outcome"] == "complete" and made["net"] is not None:
            settled = settled_net(record, len(made["net"]))
            if settled != made["net"]:
                self._found("credits", f"{where}: its net {made['net']} is not the sum of its "
                                       f"settled wagers {settled}")
        stored = record.get("summary")
        if stored is not None and stored != made:
            self._found("summary", f"{where}: its summary differs from its events")
        return record, made

    # --- helpers ------------------------------------------------------------------------

    def _progressive(self, flows: Iterable[list[Any]], where: str,
                     meters: list[int | None], reserves: list[int], report: bool) -> None:
        """Follow each progressive meter through a round's flows (:data:`CONTRIBUTED`)."""
        for flow in flows:
            level = flow[1]
            i = _LEVEL_NAMES.index(level)
            if flow[0] == CONTRIBUTED:
                _, _, to_meter, to_reserve, after = flow
                value = meters[i]
                if value is not None:
                    meters[i] = value + to_meter
                    reserves[i] += to_reserve
                    if report and meters[i] != after:
                        self._found("progressive", f"{where}: the {level} meter is {after}, its "
                                                   f"contributions add up to {meters[i]}")
                continue
            _, _, before, amount, seeded, from_reserve, after = flow
            if report and meters[i] != before:
                self._found("progressive", f"{where}: the {level} meter paid {before}, the "
                                           f"ledger adds up to {meters[i]}")
            meters[i] = before - amount + seeded + from_reserve
            reserves[i] -= from_reserve
            if report and (meters[i] != after or reserves[i] < 0):
                self._found("progressive", f"{where}: the {level} meter after the award is "
                                           f"{after}, the ledger adds up to {meters[i]}")

    def _compare_state(self, state: TableState, where: str, what: str) -> None:
        """The state against the running figures; mid-round, against the figures the round
        started from (its stakes out of the credits, the meters before its contributions)."""
        assert self.credits is not None
        expected = list(self.credits)
        cents = [None if m is None else m.cents for m in state.meters]
        if _in_round(state):
            expected = [c - s + r for c, s, r in
                        zip(expected, state.round.staked, state.round.returned, strict=True)]
            if state.round.meters_before:
                cents = [None if m is None else m.cents for m in state.round.meters_before]
        if list(state.credits) != expected:
            self._found("credits", f"{where}: {what} holds credits {list(state.credits)}, "
                                   f"cash-in, cash-out and results add up to {expected}")
        if any(c < 0 for c in state.credits):
            self._found("credits", f"{where}: negative credits {list(state.credits)}")
        if cents != self.progressives:
            self._found("progressive", f"{where}: {what} holds progressive meters {cents}, "
                                       f"contributions and awards add up to {self.progressives}")

    def _found(self, check: str, message: str) -> None:
        self.found.append(Problem(check, message))


_LEVEL_NAMES = tuple(level.value for level in LEVELS)


def _verbose_until(ledger: Ledger) -> int:
    """The last verbose entry: the one the seal names (0 for a ledger born compact)."""
    sealed = ledger.carried.get("sealed_chain")
    if sealed:  # the seal went to an archive
        return int(sealed["seq"])
    for entry in ledger.entries(kind=EntryKind.SCHEMA):
        body = entry.data()
        if entry.tag == "seal" and isinstance(body, dict) and "sealed_chain" in body:
            return int(body["sealed_chain"]["seq"])
    return 0


def _in_round(state: TableState) -> bool:
    return state.phase not in (Phase.IDLE, Phase.COMPLETE, Phase.VOIDED) and \
        bool(state.round.staked)


def _state_of(body: dict[str, Any]) -> TableState:
    from etg.ledger.codec import load_state

    return load_state(json.dumps(body["state"]))


def _capped(problems: list[Problem]) -> list[Problem]:
    if len(problems) <= MAX_PROBLEMS:
        return problems
    more = len(problems) - MAX_PROBLEMS
    return [*problems[:MAX_PROBLEMS], Problem(problems[-1].check, f"and {more} more problems")]
