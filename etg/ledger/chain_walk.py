"""The chain's links, checked row by row: in this process, or split over several.

Each entry's hash is a MAC of the previous entry's *stored* hash and its own
content, so any stretch of the chain can be checked on its own, given the hash
just before it: ``etg ledger verify --full`` hands stretches of a long ledger
to worker processes while it adds up the money, and a million rounds are
walked in well under a minute on two cores.

A compact entry's content is put together by SQLite (every column but the hash,
joined with NUL, the body last: :func:`etg.ledger.entry.compact_content`), so a
row costs one fetch of two values and one MAC. Verbose entries (before the seal) are read
whole and hashed as they were written.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from etg.ledger.chain import GENESIS, MAC_BYTES, link
from etg.ledger.entry import COMPACT, ENTRY_SELECT, entry_of

_COMPACT_SELECT = ("seq, CAST(seq || char(0) || kind || char(0) || round || char(0) || at || "
                   "char(0) || coalesce(actor, char(1)) || char(0) || coalesce(tag, char(1)) || "
                   "char(0) || coalesce(format, '') || char(0) || body AS BLOB), "
                   "CAST(hash AS BLOB)")

PARALLEL_ROWS = 400_000
"""A stretch at least this long is split over worker processes (one per core, at most 4)."""

MAX_REPORTED = 100
"""Problems kept per stretch (verify shows a dozen and counts the rest)."""


@dataclass(frozen=True)
class Stretch:
    """Entries ``low``..``high`` of the chain; entries up to ``verbose_until`` are verbose;
    ``previous``: the hash entry ``low`` follows when the file does not hold the entry
    before it (the head of an archive, or the genesis)."""

    low: int
    high: int
    verbose_until: int
    previous: bytes | None = None


def check(conn: sqlite3.Connection, key: bytes, stretch: Stretch,
          progress: Callable[[int], None] | None = None) -> tuple[list[str], int]:
    """Every broken link in ``stretch`` (as messages, at most :data:`MAX_REPORTED`) and the
    number of entries read. An entry missing from the sequence is a broken link too.
    ``progress`` is told the entry reached now and then."""
    problems: list[str] = []
    count = 0
    expected = stretch.low
    previous = stretch.previous if stretch.previous is not None else _hash_before(conn,
                                                                                   stretch.low)
    if stretch.low <= stretch.verbose_until:
        cursor = conn.execute(f"SELECT {ENTRY_SELECT} FROM entries WHERE seq >= ? AND seq <= ? "
                              f"ORDER BY seq", [stretch.low, min(stretch.high,
                                                                 stretch.verbose_until)])
        while rows := cursor.fetchmany(2000):
            for row in rows:
                entry = entry_of(row, None)
                expected = _gap(problems, expected, entry.seq)
                if entry.format == COMPACT or not hmac.compare_digest(
                        link(key, previous, entry.content()), entry.hash):
                    _broken(problems, entry.seq, entry.kind, entry.tag)
                previous, expected, count = entry.hash, entry.seq + 1, count + 1
    low = max(stretch.low, stretch.verbose_until + 1)
    if low <= stretch.high:
        blake = hashlib.blake2b
        cursor = conn.execute(f"SELECT {_COMPACT_SELECT} FROM entries WHERE seq >= ? AND "
                              f"seq <= ? ORDER BY seq", [low, stretch.high])
        while rows := cursor.fetchmany(4000):
            for seq, content, stored in rows:
                if seq != expected:
                    expected = _gap(problems, expected, seq)
                if blake(previous + content, key=key, digest_size=MAC_BYTES).digest() != stored:
                    _broken_row(conn, problems, seq)
                previous, expected = stored, seq + 1
            count += len(rows)
            if progress is not None:
                progress(expected - 1)
    if expected <= stretch.high and count:
        problems.append(f"entries rows {expected} to {stretch.high} are missing")
    return problems[:MAX_REPORTED], count


def start(path: Path, key: bytes, stretch: Stretch, workers: int
          ) -> tuple[ProcessPoolExecutor, list[Any]] | None:
    """Begin checking ``stretch`` in ``workers`` processes (each with a read-only connection
    of its own), in the background; collect with :func:`collect`. None if the stretch is too
    short to be worth the workers' start: then call :func:`check` in this process."""
    if workers < 2 or stretch.high - stretch.low + 1 < PARALLEL_ROWS:
        return None
    size = stretch.high - stretch.low + 1
    step = -(-size // workers)
    parts = [Stretch(low, min(low + step - 1, stretch.high), stretch.verbose_until,
                     stretch.previous if low == stretch.low else None)
             for low in range(stretch.low, stretch.high + 1, step)]
    pool = ProcessPoolExecutor(max_workers=len(parts), mp_context=_context())
    return pool, [pool.submit(_check_file, str(path), key, part) for part in parts]


def collect(started: tuple[ProcessPoolExecutor, list[Any]]) -> tuple[list[str], int]:
    """The problems of a :func:`start`, in chain order, and the entries read."""
    pool, futures = started
    try:
        results = [future.result() for future in futures]
    finally:
        pool.shutdown()
    return ([p for problems, _ in results for p in problems][:MAX_REPORTED],
            sum(n for _, n in results))


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


def _check_file(path: str, key: bytes, stretch: Stretch) -> tuple[list[str], int]:
    conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    try:
        conn.execute("BEGIN")
        return check(conn, key, stretch)
    finally:
        conn.close()


def _hash_before(conn: sqlite3.Connection, seq: int) -> bytes:
    if seq <= 1:
        return GENESIS
    row = conn.execute("SELECT CAST(hash AS BLOB) FROM entries WHERE seq = ?",
                       [seq - 1]).fetchone()
    return GENESIS if row is None else bytes(row[0])


def _gap(problems: list[str], expected: int, seq: int) -> int:
    if seq != expected:
        problems.append(f"entries row {expected} is missing (the next is {seq})")
    return seq


def _broken_row(conn: sqlite3.Connection, problems: list[str], seq: int) -> None:
    kind, tag = conn.execute("SELECT kind, tag FROM entries WHERE seq = ?", [seq]).fetchone()
    _broken(problems, seq, kind, tag)


def _broken(problems: list[str], seq: int, kind: str, tag: str | None) -> None:
    problems.append(f"entries row {seq} ({kind} {tag or ''}): its content does not match its "
                    f"hash (edited, inserted or moved)")
