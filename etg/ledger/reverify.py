"""The whole history re-verified in the background, slice by slice, while the table is idle.

Issue 25, finding 10: start-up and quick verify check the chain from the newest
checkpoint on, and nothing ran ``--full``, so a row edited before the newest
checkpoint went unseen for ever. Here the whole chain is walked again while the
table is idle — each entry's link (:mod:`etg.ledger.chain_walk`) and the money
from the first checkpoint on (:class:`etg.ledger.recount.Recount`: credits,
progressive meters, every meter at every checkpoint) — in slices small enough to
leave every frame its time: a slice reads at most :data:`SLICE_ENTRIES` entries
at a time and stops at the time it is given (:meth:`Reverifier.step`). A mismatch
anywhere is a problem naming the table and the row, which the controller tilts on.

**Where a pass stands is itself an entry of the chain.** An event-log entry
``reverified`` records "entries 1 to N verified, this pass started at S" when a
pass completes and at most every :data:`RECORD_EVERY_S` seconds of walking in
between (at a checkpoint, from whose figures the money can start again). After a
restart the pass resumes from the newest one. Why an entry of the chain and not a
file beside it: an entry is chained like every other, under a head signed with the
cabinet's private key, so it cannot be forged or moved forward without that key;
deleting it with the entries after it is a rollback the anchor shows; a file could be
edited or copied from another cabinet.
Resuming from it trusts nothing but what this program verified and wrote: the
entries after N are walked, and entry N's own hash is what the next link is
checked against, so an edit of any entry up to N since is caught by the next pass.

The time of the newest *completed* pass is the ledger's ``whole_history_verified_at``
(:func:`etg.ledger.scope.last_complete`), which ``etg ledger verify`` reports.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from etg.ledger import chain_walk
from etg.ledger.recount import Recount, capped
from etg.ledger.scope import KIND, last_complete, last_record
from etg.ledger.signing import Verifier
from etg.ledger.store import Ledger, LedgerError, Problem
from etg.ledger.terms import now
from etg.ledger.verify import MoneyReader, sealed_stretch

__all__ = ["KIND", "RECORD_EVERY_S", "REST_S", "SLICE_ENTRIES", "START_AFTER_S", "Reverifier",
           "Step", "last_complete"]

SLICE_ENTRIES = 128
"""Entries linked and counted at a time: about a millisecond of one core on the busiest table
(``bench_reverify``: some 4,500 of its rounds a CPU-second, twenty-odd entries each), so a step
stops within that of its deadline."""

RECORD_EVERY_S = 60.0
"""Seconds of walking between two records of a pass still under way (at the next checkpoint)."""

REST_S = 900.0
"""Seconds between the end of one pass and the start of the next."""

START_AFTER_S = 60.0
"""Seconds after the table opens before the first pass (start-up has just checked the tail)."""


@dataclass(frozen=True)
class Step:
    """What one step found (each a problem to tilt on) and the record to write, if one is due."""

    problems: list[Problem]
    record: dict[str, Any] | None = None


class Reverifier:
    """One background pass after another over the chain of the ledger at ``path``.

    It reads through a read-only connection of its own (WAL readers never block the
    writer) and writes nothing: the controller writes the records it hands back.
    """

    def __init__(self, path: Path, key: Verifier | None, legacy_key: bytes | None = None, *,
                 slice_entries: int = SLICE_ENTRIES,
                 record_every_s: float = RECORD_EVERY_S, rest_s: float = REST_S,
                 start_after_s: float = START_AFTER_S) -> None:
        self.path = path
        self.key = key  # the public key the writer's ledger checks its signed head with
        self.legacy_key = legacy_key  # the old secret, for entries before a seal (or None)
        self.slice_entries = slice_entries
        self.record_every_s = record_every_s
        self.rest_s = rest_s
        self._store: Ledger | None = None
        self._pass: _Pass | None = None
        self._resting_until = time.monotonic() + start_after_s  # no pass before then

    @property
    def walking(self) -> _Pass | None:
        """The pass under way, if any."""
        return self._pass

    def step(self, until: float) -> Step:
        """Walk on until ``until`` (a ``time.perf_counter()`` deadline), a slice at a time."""
        if self.key is None or time.monotonic() < self._resting_until:
            return Step([])
        if self._store is None:  # a step of its own: opening is the one step not in slices
            self._open()
            return Step([])
        store = self._store
        if self._pass is None:
            self._pass = self._begin(store)
            if self._pass is None:
                self._resting_until = time.monotonic() + self.rest_s
                return Step([])
        walk = self._pass
        problems: list[Problem] = []
        record: dict[str, Any] | None = None
        while time.perf_counter() < until and not walk.done:
            problems += walk.slice(self.slice_entries)
            if problems:
                break  # a tilt stops play: one at a time, the rest of the pass after it
            if not walk.done and walk.resumable and \
                    time.monotonic() - walk.recorded >= self.record_every_s:
                record = walk.record(complete=False)
                break
        if walk.done:
            record = walk.record(complete=True)
            self._pass = None
            self._resting_until = time.monotonic() + self.rest_s
        return Step(capped(problems), record)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
        self._store, self._pass = None, None

    # --- helpers ---------------------------------------------------------------------------

    def _open(self) -> Ledger:
        if self._store is None:
            self._store = Ledger.open_readonly(self.path)
            self._store.key = self.key
            self._store.legacy_key = self.legacy_key
        return self._store

    def _begin(self, store: Ledger) -> _Pass | None:
        """The pass to walk now: the one the newest record left under way, or a new one."""
        assert self.key is not None
        with store.reading():
            head = store.head[0]
            first = store.first_seq()
            last = last_record(store)
            archived = store.archived_head() if first > 1 else None
            sealed = sealed_stretch(store, 0, 0)  # what the seals say of the older entries
        if last is not None and not last.get("complete") and first <= int(last["through"]) < head:
            return _Pass(store, self.legacy_key, int(last["through"]) + 1, head, sealed,
                         str(last["started_at"]), resumed_at=int(last["through"]),
                         found=int(last.get("problems", 0)))
        if last is not None and last.get("complete") and int(last["id"]) >= head:
            return None  # nothing written since the last pass (but its record): walked
        previous = archived[1] if archived is not None else None
        return _Pass(store, self.legacy_key, first, head, sealed, now(), previous=previous)


class _Pass:
    """Entries ``low``..``end`` (the head when the pass began) walked slice by slice."""

    def __init__(self, store: Ledger, key: bytes | None, low: int, end: int,
                 sealed: chain_walk.Stretch,
                 started_at: str, resumed_at: int | None = None,
                 previous: bytes | None = None, found: int = 0) -> None:
        self.store = store
        self.key = key
        self.next = low
        self.end = end
        self.sealed = sealed  # the seals' bounds, for every slice
        self.unchecked: list[str] = []  # entries before a seal, without the old key here
        self.started_at = started_at
        self.previous = previous  # the hash entry ``low`` follows, where the file lacks it
        self.counted_from = resumed_at  # the checkpoint the money starts from
        self.base = resumed_at or 0
        self.recount = Recount(store)
        self.money = MoneyReader(store, self.recount, legacy=resumed_at is None and low == 1)
        self.recorded = time.monotonic()
        self._reported = 0  # the recount's problems already handed on
        self.found = found  # problems found so far in this pass

    @property
    def done(self) -> bool:
        return self.next > self.end

    @property
    def resumable(self) -> bool:
        """A record now could be resumed from: the money has reached a checkpoint since the
        one the pass (or this stretch of it) started from."""
        return self.recount.last_checkpoint > self.base

    def slice(self, size: int) -> list[Problem]:
        """The next ``size`` entries at most: their links and their money."""
        high = min(self.next + size - 1, self.end)
        stretch = dataclasses.replace(self.sealed, low=self.next, high=high,
                                      previous=self.previous, counted_from=self.counted_from)
        try:
            with self.store.reading():
                links, _ = chain_walk.check(self.store.conn, self.key, stretch, None, self.money,
                                            self.unchecked)
        except LedgerError as error:
            links = [str(error)]
        self.next, self.previous, self.counted_from = high + 1, None, None
        problems = [Problem("chain", message) for message in links]
        problems += [Problem("chain", message) for message in self.money.failures]
        self.money.failures.clear()
        found = self.recount.found
        problems += found[self._reported:]
        self._reported = len(found)
        self.found += len(problems)
        return problems

    def record(self, complete: bool) -> dict[str, Any]:
        """What a ``reverified`` entry records of this pass now."""
        self.recorded = time.monotonic()
        through = self.end if complete else self.recount.last_checkpoint
        self.base = through
        return {"through": through, "started_at": self.started_at, "complete": complete,
                "problems": self.found}
