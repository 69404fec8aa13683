"""The ledger's writer: commits run in order on a thread of their own, never on the caller's.

A durable commit (``synchronous=FULL``) waits for the disk, up to tens of
milliseconds; the kiosk draws a frame every 16.7 ms. So the kiosk hands each
piece of ledger work to a :class:`LedgerWriter` and goes on drawing: the work
runs on the writer's thread, inside a transaction, and the caller learns the
outcome from a :class:`~concurrent.futures.Future` that is done once the
transaction is committed (or has failed).

- **In order.** Work runs in the order it was submitted, one transaction at a
  time. Work queued while a commit is in flight is committed together in the
  next transaction (group commit): each piece keeps its own entries, in order,
  and the disk is waited for once.
- **All or nothing, then nothing.** A transaction that fails rolls back
  everything in it; its futures carry the error, and every piece queued or
  submitted after it fails with :class:`Dropped` without touching the ledger,
  until the owner has dealt with the failure and calls :meth:`recover`. So
  nothing that depended on the failed work is ever written after it.
- **Between frames.** Inside :meth:`LedgerWriter.held_back` no new
  transaction starts: the kiosk holds its commits back while it draws and lets
  them go when the frame is shown, so the writer's own interpreter work runs
  while the frame loop sleeps (both share one GIL). A caller that waits for
  the writer lifts the hold.
- **One connection, two threads.** The ledger's SQLite connection is shared;
  two threads using it at once would interleave their transactions (a read
  inside the writer's ``BEGIN IMMEDIATE`` fails, or sees uncommitted rows). The
  writer holds :attr:`LedgerWriter.lock` for every transaction; another thread
  reads through :meth:`reading`, which first waits until everything it
  submitted is committed and then holds the lock, so it reads its own writes
  and never a transaction in flight. :meth:`wait` alone (no lock) is enough
  for a thread that is the only one submitting work.

Before :meth:`start` (and after :meth:`stop`) work runs at once on the
caller's thread, exactly as a plain ``with ledger.atomic()`` would: command-line
play and the tests stay synchronous. The thread leaves after a few idle seconds
and comes back with the next piece of work, so a forgotten writer holds no
thread.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

from etg.ledger.store import Ledger

T = TypeVar("T")

MAX_BATCH = 256
"""Most pieces of work committed in one transaction (a burst beyond waits for the next)."""

IDLE_S = 2.0
"""Seconds without work after which the writer's thread leaves (it returns with the next)."""


class Dropped(RuntimeError):
    """Not written: an earlier transaction failed, and nothing after it may be committed."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"not written: an earlier commit failed ({cause})")
        self.cause = cause


@dataclass
class WriterStats:
    """What the writer did and what it cost its callers (for ``etg bench`` and the tests)."""

    commit_s: deque[float] = field(default_factory=lambda: deque(maxlen=20_000))
    """Seconds of each recent transaction, ``BEGIN`` to the anchor written after ``COMMIT``."""
    jobs: int = 0
    batches: int = 0
    largest_batch: int = 0
    failures: int = 0
    waits: int = 0
    """Times a caller had to wait for the writer (:meth:`LedgerWriter.wait` found it busy)."""
    waited_s: float = 0.0
    """Seconds callers spent waiting for the writer, all told."""


@dataclass
class _Job:
    work: Callable[[], Any]
    done: Future[Any]


class LedgerWriter:
    """Runs ledger work in order, in transactions, on one thread (see the module docstring)."""

    def __init__(self, ledger: Ledger, max_batch: int = MAX_BATCH,
                 idle_s: float = IDLE_S) -> None:
        self.ledger = ledger
        self.lock = threading.RLock()
        """Held for every transaction; hold it to use the connection from another thread."""
        self.stats = WriterStats()
        self.max_batch = max_batch
        self.idle_s = idle_s
        self.failure: BaseException | None = None
        """The error of the transaction that failed, until :meth:`recover`."""
        self._threaded = False
        self._thread: threading.Thread | None = None
        self._cond = threading.Condition()
        self._queue: deque[_Job] = deque()
        self._busy = False  # a batch has been taken and is not finished
        self._owner: int | None = None  # the thread running the batch
        self._anchor_fault: str | None = None
        self._reader: int | None = None  # the thread inside reading(): it holds the lock
        self._held = False  # new batches wait (see held_back)
        self._waiters = 0  # callers in wait(): they lift the hold

    # --- life cycle -------------------------------------------------------------------------

    @property
    def threaded(self) -> bool:
        """True between :meth:`start` and :meth:`stop`: commits run on the writer's thread."""
        return self._threaded

    def start(self) -> None:
        """From now on work runs on the writer's thread (started with the first piece)."""
        with self._cond:
            self._threaded = True

    def stop(self) -> None:
        """Commit everything submitted so far, end the thread; later work runs on the caller's."""
        self.wait()
        with self._cond:
            self._threaded = False
            thread = self._thread
            self._cond.notify_all()
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    @contextlib.contextmanager
    def held_back(self) -> Iterator[None]:
        """No new transaction starts inside the block (one in flight goes on); queued work
        waits for its end, unless a caller is in :meth:`wait`.

        The kiosk holds its commits back while it draws a frame and lets them go
        when the frame is shown: the writer's own interpreter work then runs
        while the frame loop sleeps, not against the frame (they share one GIL).
        """
        with self._cond:
            self._held = True
        try:
            yield
        finally:
            with self._cond:
                self._held = False
                self._cond.notify_all()

    # --- work -------------------------------------------------------------------------------

    def submit(self, work: Callable[[], T]) -> Future[T]:
        """Queue ``work`` to run inside a transaction; the future is done once it is committed.

        The future's result is what ``work`` returned; its exception is the one
        that failed the transaction, or :class:`Dropped` for work after a
        failure. Before :meth:`start`, the work is committed before this returns.
        """
        done: Future[T] = Future()
        inline = False
        with self._cond:
            if self.failure is not None:
                done.set_exception(Dropped(self.failure))
                return done
            self._queue.append(_Job(work, done))
            self.stats.jobs += 1
            if not self._threaded:
                inline = True
            elif self._thread is None:
                self._thread = threading.Thread(target=self._run, name="ledger-writer",
                                                daemon=True)
                self._thread.start()
            else:
                self._cond.notify_all()
        if inline:
            self._drain_here()
        return done

    def wait(self) -> None:
        """Return once everything submitted so far is committed or has failed.

        Called by the work itself (on the thread running it), or inside
        :meth:`reading` (whose lock the writer needs), it returns at once.
        """
        if threading.get_ident() in (self._owner, self._reader):
            return
        with self._cond:
            if not (self._queue or self._busy):
                return
            start = time.perf_counter()
            self._waiters += 1
            self._cond.notify_all()
            try:
                while self._queue or self._busy:
                    self._cond.wait()
            finally:
                self._waiters -= 1
            self.stats.waits += 1
            self.stats.waited_s += time.perf_counter() - start

    @contextlib.contextmanager
    def reading(self) -> Iterator[Ledger]:
        """The ledger for reads on this thread: every write submitted is in, none is in flight.

        Work submitted inside the block is committed after it.
        """
        self.wait()
        with self.lock:
            outer, self._reader = self._reader, threading.get_ident()
            try:
                yield self.ledger
            finally:
                self._reader = outer

    def recover(self) -> None:
        """The owner has dealt with the failure: new work is taken again."""
        with self._cond:
            while self._busy:
                self._cond.wait()
            self.failure = None

    def take_anchor_fault(self) -> str | None:
        """The first anchor write that failed since the last call (the commit itself stood)."""
        with self._cond:
            fault, self._anchor_fault = self._anchor_fault, None
            return fault

    # --- the writer's side ------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._threaded and not self._ready():
                    if not self._cond.wait(self.idle_s) and not self._queue:
                        break  # idle: the thread leaves, the next piece of work brings it back
                if not self._queue:
                    self._thread = None
                    self._cond.notify_all()
                    return
                batch = self._take()
            self._commit(batch)

    def _ready(self) -> bool:
        """Work to take now (call holding the condition)."""
        return bool(self._queue) and (not self._held or self._waiters > 0)

    def _drain_here(self) -> None:
        """Before :meth:`start`: commit the queue on the caller's thread."""
        while True:
            with self._cond:
                if not self._queue or self._busy:
                    return
                batch = self._take()
            self._commit(batch)

    def _take(self) -> list[_Job]:
        """The next batch (call holding the condition)."""
        batch = [self._queue.popleft() for _ in range(min(len(self._queue), self.max_batch))]
        self._busy = True
        self._owner = threading.get_ident()
        return batch

    def _commit(self, batch: list[_Job]) -> None:
        """One transaction for the whole batch; futures are settled in order after it."""
        start = time.perf_counter()
        try:
            with self.lock, self.ledger.atomic():
                results = [job.work() for job in batch]
        except Exception as error:  # every failure goes to the futures, in order
            self._fail(batch, error)
            return
        except BaseException as error:  # an interrupt on the caller's thread: fail, then stop
            self._fail(batch, error)
            raise
        seconds = time.perf_counter() - start
        with self._cond:
            self.stats.commit_s.append(seconds)
            self.stats.batches += 1
            self.stats.largest_batch = max(self.stats.largest_batch, len(batch))
            if self.ledger.anchor_fault is not None:  # taken once: one fault, one tilt
                self._anchor_fault = self._anchor_fault or self.ledger.anchor_fault
                self.ledger.anchor_fault = None
        for job, result in zip(batch, results, strict=True):
            job.done.set_result(result)
        self._finish()

    def _fail(self, batch: list[_Job], error: BaseException) -> None:
        with self._cond:
            self.failure = error
            self.stats.failures += 1
            dropped = list(self._queue)
            self._queue.clear()
        for job in batch:
            job.done.set_exception(error)
        for job in dropped:
            job.done.set_exception(Dropped(error))
        self._finish()

    def _finish(self) -> None:
        with self._cond:
            self._busy = False
            self._owner = None
            self._cond.notify_all()
