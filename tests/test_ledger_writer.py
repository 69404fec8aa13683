"""The ledger's writer (etg.ledger.writer): in order, grouped, all or nothing, then nothing.

Real ledgers on disk, real SQLite failures. A commit "in flight" is made to
last by another thread holding the writer's lock, the one every transaction
takes: the writer really waits, as behind a slow fsync.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path

import pytest

from etg.ledger.store import Ledger, LedgerError
from etg.ledger.writer import Dropped, LedgerWriter


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Ledger]:
    store = Ledger.open(tmp_path / "ledger.db")
    yield store
    store.close()


@contextmanager
def commits_held(writer: LedgerWriter) -> Iterator[threading.Event]:
    """Another thread holds the writer's lock: no transaction starts until the block ends.

    Setting the event yielded lets go earlier.
    """
    got, go = threading.Event(), threading.Event()

    def hold() -> None:
        with writer.lock:
            got.set()
            go.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    got.wait()
    try:
        yield go
    finally:
        go.set()
        holder.join()


def notes(ledger: Ledger) -> list[int]:
    """The ``n`` of every ``note`` entry in the event log, in chain order."""
    return [int(e["details"]["n"]) for e in ledger.event_log("note")]


def note(ledger: Ledger, n: int) -> int:
    return int(ledger.log("note", None, {"n": n})["id"])


def test_before_start_work_is_committed_on_the_callers_thread(ledger: Ledger) -> None:
    writer = LedgerWriter(ledger)
    ran_on: list[int] = []

    def work() -> int:
        ran_on.append(threading.get_ident())
        return note(ledger, 1)

    done = writer.submit(work)
    assert done.done() and done.result() > 0  # committed before submit returned
    assert ran_on == [threading.get_ident()]
    assert notes(ledger) == [1] and writer.stats.batches == 1


def test_work_queued_behind_a_commit_is_committed_together_in_order(ledger: Ledger) -> None:
    writer = LedgerWriter(ledger)
    writer.start()
    ran_on: set[int] = set()

    def work(n: int) -> int:
        ran_on.add(threading.get_ident())
        return note(ledger, n)

    with commits_held(writer):
        futures = [writer.submit(lambda n=n: work(n)) for n in range(1, 21)]  # type: ignore[misc]
        assert not any(f.done() for f in futures)  # nothing is committed while the disk is busy
    writer.wait()
    ids = [f.result() for f in futures]
    assert ids == sorted(ids)  # each keeps its own entry, in the order submitted
    assert notes(ledger) == list(range(1, 21))
    # The writer took what was queued when it started, then everything queued behind it:
    # twenty commands, two transactions at most (two waits for the disk, not twenty).
    assert writer.stats.batches <= 2 and writer.stats.largest_batch >= 10
    assert threading.get_ident() not in ran_on  # committed on the writer's thread
    writer.stop()


def test_a_failed_transaction_fails_its_batch_and_drops_the_rest_until_recovered(
        ledger: Ledger) -> None:
    writer = LedgerWriter(ledger)
    writer.start()
    with commits_held(writer):
        first = writer.submit(lambda: note(ledger, 1))
        bad = writer.submit(lambda: ledger.conn.execute("INSERT INTO nowhere VALUES (1)"))
        after = writer.submit(lambda: note(ledger, 3))
    writer.wait()
    # One transaction held all three (behind the first, at most): the failure undid its batch.
    assert isinstance(bad.exception(), sqlite3.OperationalError)
    assert "no such table: nowhere" in str(bad.exception())
    assert isinstance(writer.failure, sqlite3.OperationalError)
    later = writer.submit(lambda: note(ledger, 4))
    dropped = later.exception()
    assert isinstance(dropped, Dropped) and dropped.cause is writer.failure
    assert isinstance(after.exception(), sqlite3.OperationalError | Dropped)
    committed = notes(ledger)
    assert committed in ([], [1])  # the first stands only if it was committed on its own
    assert (first.exception() is None) == (committed == [1])
    writer.recover()
    again = writer.submit(lambda: note(ledger, 5))
    assert again.result(timeout=30) > 0
    writer.wait()
    assert notes(ledger) == [*committed, 5]  # nothing of the failed or dropped work, ever
    writer.stop()


def test_a_read_waits_for_the_writes_before_it_and_holds_the_next_off(ledger: Ledger) -> None:
    writer = LedgerWriter(ledger)
    writer.start()
    with commits_held(writer):
        writer.submit(lambda: note(ledger, 1))
        started = threading.Event()
        read: list[list[int]] = []

        def reader() -> None:
            started.set()
            with writer.reading() as view:
                read.append(notes(view))

        thread = threading.Thread(target=reader)
        thread.start()
        started.wait()
        assert not read  # the reader waits: its write is still in flight
    thread.join()
    assert read == [[1]]
    with writer.reading() as view:  # the lock is held: a new commit waits for the read
        late: Future[int] = writer.submit(lambda: note(ledger, 2))
        writer.wait()  # inside a read this cannot wait for the writer: it returns at once
        assert notes(view) == [1] and not late.done()
    assert late.result(timeout=30) > 0
    writer.stop()


def test_stop_commits_everything_queued_then_work_runs_on_the_callers_thread(
        ledger: Ledger) -> None:
    writer = LedgerWriter(ledger)
    writer.start()
    with commits_held(writer) as release:
        queued = [writer.submit(lambda n=n: note(ledger, n)) for n in range(3)]  # type: ignore[misc]
        threading.Timer(0.2, release.set).start()
        writer.stop()  # waits while the disk is busy, then for the queue
        assert all(f.done() and f.exception() is None for f in queued)
    assert notes(ledger) == [0, 1, 2]
    assert not writer.threaded
    here = writer.submit(lambda: threading.get_ident())
    assert here.result() == threading.get_ident()


def test_a_meter_that_would_decrease_is_refused_and_nothing_of_its_batch_is_kept(
        ledger: Ledger) -> None:
    from collections import Counter

    writer = LedgerWriter(ledger)
    meters_before = ledger.meters()
    def work() -> None:
        note(ledger, 1)
        ledger.add_meters("cabinet", Counter({(0, "x"): -1}))

    done = writer.submit(work)
    assert isinstance(done.exception(), LedgerError)
    assert notes(ledger) == [] and ledger.meters() == meters_before


def test_work_held_back_starts_after_the_block_unless_a_caller_waits_for_it(
        ledger: Ledger) -> None:
    import time

    writer = LedgerWriter(ledger)
    writer.start()
    with writer.held_back():  # a frame being drawn
        first = writer.submit(lambda: note(ledger, 1))
        time.sleep(0.05)
        assert not first.done() and notes(ledger) == []
        writer.wait()  # someone needs it now: the hold gives way
        assert first.done() and notes(ledger) == [1]
        second = writer.submit(lambda: note(ledger, 2))
        time.sleep(0.05)
        assert not second.done()
    assert second.result(timeout=30) > 0  # the frame is shown: the commit goes
    writer.stop()
