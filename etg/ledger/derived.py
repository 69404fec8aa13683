"""The meters as the chain adds them up, carried in memory: what a checkpoint records.

Issue 25, finding 1: a checkpoint used to copy the ``meters`` table, the one
mutable table of the ledger, and start-up trusted the newest checkpoint; a
trigger that skimmed the table, or a plain ``UPDATE meters`` while play ran, was
absorbed by the next checkpoint and quick verify was clean. Now the meters are
**derived, never copied** (SPEC §5: the meters "always equal the sums over the
ledger"): the newest checkpoint's meters plus what every round record and log
entry since then adds (:mod:`etg.ledger.meters`), and the table is only
*compared* with them.

:class:`DerivedMeters` is loaded once from the chain (the newest checkpoint and
the entries after it, a tail of at most one checkpoint interval), then carried
as entries are written: the store adds a round's or an entry's meters to it as
it adds them to the table (:meth:`~etg.ledger.store.Ledger.add_meters`), inside
the same transaction, and a transaction that is rolled back takes its additions
back (:meth:`DerivedMeters.rollback`). A checkpoint costs no scan of the rounds
before it: this is what keeps the commit and frame budget.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping
from typing import Any

from etg.ledger.entry import COMPACT, Entry, EntryKind, checkpoint_data
from etg.ledger.history import LedgerHistory
from etg.ledger.meters import Meters, log_meters, round_meters
from etg.ledger.terms import Problem

__all__ = ["DerivedMeters", "meter_differences", "meters_of_checkpoint", "summary_meters"]

AllMeters = dict[str, Meters]
"""Meters by paytable id (``cabinet`` for the entries that belong to no paytable)."""


class DerivedMeters:
    """Every paytable's meters as the chain adds them up, kept up to date in memory.

    Not loaded (``None``) until first asked for; until then additions are not
    carried (loading reads them from the chain, this transaction's own included).
    """

    def __init__(self) -> None:
        self._meters: AllMeters | None = None
        self._since = 0  # the checkpoint they count from (its entry; 0: the first entry)
        self._undo: list[tuple[str, Meters]] | None = None  # this transaction's additions
        self._before_clear: AllMeters | None = None  # the meters a clear in it replaced
        self._since_before = 0
        self._loaded_in_transaction = False
        self._faults: list[Problem] = []
        self._lock = threading.Lock()  # noted on the writer's thread, taken on the table's

    # --- the transaction ---------------------------------------------------------------------

    def begin(self) -> None:
        self._undo = []
        self._before_clear = None
        self._since_before = self._since
        self._loaded_in_transaction = False

    def commit(self) -> None:
        self._undo = None
        self._before_clear = None

    def rollback(self) -> None:
        """Take back what the transaction added: what was committed is what stands."""
        if self._loaded_in_transaction:
            self._meters = None  # loaded from rows that are now gone: load again
        elif self._meters is not None and self._undo is not None:
            if self._before_clear is not None:
                self._meters = self._before_clear
            else:
                for paytable_id, deltas in reversed(self._undo):
                    self._meters.setdefault(paytable_id, Counter()).subtract(deltas)
        self._since = self._since_before
        self.commit()

    # --- carrying ----------------------------------------------------------------------------

    def add(self, paytable_id: str, deltas: Meters) -> None:
        """What one round or log entry adds, as the store adds it to the table."""
        if self._meters is None or not deltas:
            return
        self._meters.setdefault(paytable_id, Counter()).update(deltas)
        if self._undo is not None and self._before_clear is None:
            self._undo.append((paytable_id, Counter(deltas)))

    def clear(self) -> None:
        """A RAM clear: the meters count from here (the ``ram_clear`` entry says so)."""
        if self._meters is None:
            return
        if self._undo is not None and self._before_clear is None:
            for paytable_id, deltas in reversed(self._undo):  # as the last commit left them
                self._meters.setdefault(paytable_id, Counter()).subtract(deltas)
            self._before_clear = self._meters
        self._meters = {}

    # --- reading -----------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._meters is not None

    def meters(self, ledger: LedgerHistory) -> AllMeters:
        """The derived meters now, without zeros (loaded from ``ledger``'s chain if need be)."""
        if self._meters is None:
            self._meters = self._load(ledger)
            self._loaded_in_transaction = self._undo is not None
        return {pid: +counter for pid, counter in self._meters.items() if +counter}

    def checkpointed(self, seq: int) -> None:
        """A checkpoint was written at entry ``seq`` (with these meters)."""
        self._since = seq

    def missing_rows(self, ledger: LedgerHistory) -> list[Problem]:
        """Entries written since the last checkpoint that the file does not hold (a ``BEFORE
        INSERT … RAISE(IGNORE)`` trigger drops a row and SQLite says nothing): one count
        over the rows since, by their numbers."""
        head = ledger.head[0]
        held = ledger.conn.execute("SELECT count(*) FROM entries WHERE seq > ? AND seq <= ?",
                                   [self._since, head]).fetchone()[0]
        if held == head - self._since:
            return []
        present = {int(r[0]) for r in ledger.conn.execute(
            "SELECT seq FROM entries WHERE seq > ? AND seq <= ?", [self._since, head])}
        missing = [seq for seq in range(self._since + 1, head + 1) if seq not in present]
        shown = ", ".join(map(str, missing[:10])) + (" …" if len(missing) > 10 else "")
        return [Problem("chain", f"entries rows {shown} were written and are not in the file "
                                 f"({len(missing)} since the checkpoint at entries row "
                                 f"{self._since}): something dropped them as they were "
                                 f"written")]

    def note(self, problems: list[Problem]) -> None:
        """Problems found while writing (a checkpoint's checks), for the controller to tilt on."""
        if problems:
            with self._lock:
                self._faults += problems

    def take_faults(self) -> list[Problem]:
        """The problems noted since the last call."""
        with self._lock:
            faults, self._faults = self._faults, []
        return faults

    def restore_table(self, ledger: LedgerHistory) -> dict[str, list[str]]:
        """Make the ``meters`` table what the chain adds up to (inside a transaction, when a
        supervisor acknowledges a tilt); returns the details of the ``meters_restored`` entry
        to log, naming what differed, or an empty dict if nothing did."""
        derived = self.meters(ledger)
        differences = meter_differences(ledger.meters(), derived)
        if differences:
            ledger.conn.execute("DELETE FROM meters")
            ledger.conn.executemany(
                "INSERT INTO meters (paytable_id, seat, name, value) VALUES (?, ?, ?, ?)",
                [(pid, seat, name, value) for pid, counter in sorted(derived.items())
                 for (seat, name), value in sorted(counter.items())])
            return {"differences": [p.message for p in differences]}
        return {}

    def forget(self) -> None:
        """Load again from the chain when next asked (the chain was changed under it)."""
        self._meters = None

    def _load(self, ledger: LedgerHistory) -> AllMeters:
        self._since, meters, unreadable = derive(ledger)
        self.note(unreadable)
        return meters


def derive(ledger: LedgerHistory) -> tuple[int, AllMeters, list[Problem]]:
    """The newest checkpoint's entry and the meters the chain adds up to now: that
    checkpoint's and the entries' since. Never the ``meters`` table. Before any checkpoint,
    from the first entry on. An entry that cannot be read (an edited row) adds nothing and
    is a problem: the sums go on without it, and the table then differs from them too.
    """
    since = 0
    meters: AllMeters = {}
    unreadable: list[Problem] = []
    for seq in ledger.checkpoint_seqs():  # the newest that can be read
        entry = ledger.entry(seq)
        try:
            assert entry is not None
            meters = meters_of_checkpoint(checkpoint_data(entry)[0])
        except (ValueError, LookupError, TypeError) as error:
            unreadable.append(Problem("meters", f"entries row {seq} (checkpoint) cannot be read "
                                                f"to add up the meters: {str(error)[:200]}"))
            continue
        since = seq
        break
    for entry in ledger.entries(after=since):
        try:
            if entry.kind == EntryKind.ROUND.value:
                record, summary = _round(ledger, entry)
                paytable_id = str(record["paytable"]["id"])
                meters.setdefault(paytable_id, Counter()).update(summary)
            elif entry.kind == EntryKind.EVENT.value:
                if entry.tag == "ram_clear":
                    meters = {}
                details = entry.data()
                logged = {"id": entry.seq, "at": entry.at, "kind": entry.tag,
                          "actor": entry.actor, "details": details}
                owner = str(details.get("paytable_id", "cabinet"))
                meters.setdefault(owner, Counter()).update(log_meters(logged))
        except (ValueError, LookupError, TypeError) as error:
            unreadable.append(Problem("meters", f"entries row {entry.seq} ({entry.kind}) cannot "
                                                f"be read to add up the meters: {error}"))
    return since, meters, unreadable


def meters_of_checkpoint(body: Mapping[str, Any]) -> AllMeters:
    """A checkpoint's meters as a body holds them: ``{paytable: [[seat, name, value], …]}``."""
    return {pid: Counter({(int(seat), str(name)): int(value) for seat, name, value in rows})
            for pid, rows in body["meters"].items()}


def summary_meters(by_name: Mapping[str, list[int]]) -> Meters:
    """A round summary's meters (each name's values by seat, :func:`etg.ledger.money.summarize`)
    as ``(seat, name)`` keys."""
    return Counter({(seat, name): value for name, row in by_name.items()
                    for seat, value in enumerate(row) if value})


def meter_differences(have: AllMeters, want: AllMeters) -> list[Problem]:
    """Each meter of the table (``have``) that is not what the chain adds up to (``want``),
    named by paytable, seat and meter."""
    problems = []
    for paytable_id in sorted(set(want) | set(have)):
        wanted = want.get(paytable_id, Counter())
        held = have.get(paytable_id, Counter())
        for seat, name in sorted(set(wanted) | set(held)):
            if wanted[(seat, name)] != held[(seat, name)]:
                problems.append(Problem(
                    "meters", f"meters row ({paytable_id}, seat {seat}, {name}) is "
                              f"{held[(seat, name)]}, the ledger sums to {wanted[(seat, name)]}"))
    return problems


def _round(ledger: LedgerHistory, entry: Entry) -> tuple[dict[str, Any], Meters]:
    """A round's record (its header, for a compact one) and the meters it counted."""
    if entry.format == COMPACT:
        header = entry.round_header()
        return header, summary_meters(header["summary"]["meters"])
    record = ledger.record_of(entry)  # a verbose round stored no summary: its events say
    return record, round_meters(record)
