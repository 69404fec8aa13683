"""The chain's links, checked row by row, with the money read in the same pass.

Each entry's hash is a MAC of the previous entry's *stored* hash and its own
content, so any stretch of the chain can be checked on its own, given the hash
just before it: ``etg ledger verify --full`` hands stretches of a long ledger
to worker processes (:mod:`etg.ledger.verify`).

A compact entry's content is put together by SQLite (every column but the hash,
joined with NUL, the body last: :func:`etg.ledger.entry.compact_content`), so a
row costs one fetch of two values and one MAC, the key set up once per walk
(:func:`_keyed`). The walk goes window by window of entry numbers: a window that
holds as many rows as numbers holds each of them once, so a row's number is its
place and need not be fetched; a window with fewer is read again with the numbers,
to say which are missing. Verbose entries (before the seal) are read whole and
hashed as they were written.

After each window the walk hands its range to ``money`` (a :data:`Money`), which
reads the entries of that range that are not commands — a few in a hundred —
while their pages are still in SQLite's cache.
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from etg.ledger.chain import GENESIS, MAC_BYTES, link
from etg.ledger.entry import COMPACT, ENTRY_SELECT, entry_of

CHUNK = 4096
"""Entries fetched at a time (a window of entry numbers): memory stays flat at any length."""

MAX_REPORTED = 100
"""Problems kept per stretch (verify shows a dozen and counts the rest)."""

Money = Callable[[sqlite3.Connection, int, int], None]
"""Told each range of entries (first, last) the walk has linked, in order, to read what it
counts of them (every entry of the stretch once, the ``counted_from`` checkpoint first)."""


@dataclass(frozen=True)
class Stretch:
    """Entries ``low``..``high`` of the chain; entries up to ``verbose_until`` are verbose;
    ``previous``: the hash entry ``low`` follows when the file does not hold the entry
    before it (the head of an archive, or the genesis). ``counted_from``: an entry before
    ``low`` (the checkpoint a stretch of the money starts at) the money reads first; its link
    belongs to the stretch before."""

    low: int
    high: int
    verbose_until: int
    previous: bytes | None = None
    counted_from: int | None = None


def check(conn: sqlite3.Connection, key: bytes, stretch: Stretch,
          progress: Callable[[int], None] | None = None,
          money: Money | None = None) -> tuple[list[str], int]:
    """Every broken link in ``stretch`` (as messages, at most :data:`MAX_REPORTED`) and the
    number of entries read. An entry missing from the sequence is a broken link too.
    ``progress`` is told the entry reached after each chunk; ``money`` the entries linked."""
    problems: list[str] = []
    count = 0
    expected = stretch.low
    previous = stretch.previous if stretch.previous is not None else _hash_before(conn,
                                                                                   stretch.low)
    counted = stretch.low if stretch.counted_from is None else stretch.counted_from
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
            if money is not None:
                money(conn, counted, expected - 1)
                counted = expected
            if progress is not None:
                progress(expected - 1)
    low = max(stretch.low, stretch.verbose_until + 1)
    if low <= stretch.high:
        keyed = _keyed(key)
        for first in range(low, stretch.high + 1, CHUNK):
            last = min(first + CHUNK - 1, stretch.high)
            rows = conn.execute(_WINDOW, [first, last]).fetchall()
            if len(rows) == last - first + 1:  # entries first..last, every one: seq is implied
                if expected != first:
                    _gap(problems, expected, first)
                for offset in _links(keyed, previous, rows):
                    _broken_row(conn, problems, first + offset)
                previous, expected = rows[-1][1], last + 1
            else:  # some are missing: read their numbers too, to say which
                expected, previous = _window_with_gaps(conn, keyed, problems, first, last,
                                                       expected, previous)
            count += len(rows)
            if money is not None:
                money(conn, counted, last)
                counted = last + 1
            if progress is not None:
                progress(last)
    if money is not None and counted <= stretch.high:
        money(conn, counted, stretch.high)  # nothing to link: the money still reads its entries
    if expected <= stretch.high and count:
        problems.append(f"entries rows {expected} to {stretch.high} are missing")
    return problems[:MAX_REPORTED], count


_CONTENT = ("CAST(seq || char(0) || kind || char(0) || round || char(0) || at || char(0) || "
            "coalesce(actor, char(1)) || char(0) || coalesce(tag, char(1)) || char(0) || "
            "coalesce(format, '') || char(0) || body AS BLOB)")
_WINDOW = (f"SELECT {_CONTENT}, coalesce(CAST(hash AS BLOB), x'') FROM entries "
           f"WHERE seq >= ? AND seq <= ? ORDER BY seq")


def _links(keyed: Callable[[], Any], previous: bytes, rows: list[Any]) -> list[int]:
    """The places in ``rows`` (content, stored hash) whose link does not hold: the few
    lines every entry of a long walk goes through."""
    bad = []
    for offset, (content, stored) in enumerate(rows):
        mac = keyed()
        mac.update(previous)
        mac.update(content or b"")
        if mac.digest() != stored or content is None:
            bad.append(offset)
        previous = stored
    return bad


def _window_with_gaps(conn: sqlite3.Connection, keyed: Callable[[], Any], problems: list[str],
                      first: int, last: int, expected: int, previous: bytes) -> tuple[int, bytes]:
    """Entries ``first``..``last`` when some are missing: each link, and each gap."""
    for seq, content, stored in conn.execute(f"SELECT seq, {_WINDOW[len('SELECT '):]}",
                                             [first, last]):
        expected = _gap(problems, expected, seq)
        if _links(keyed, previous, [(content, stored)]):
            _broken_row(conn, problems, seq)
        previous, expected = stored, seq + 1
    return expected, previous


def _keyed(key: bytes) -> Callable[[], Any]:
    """A fresh keyed BLAKE2b of :func:`etg.ledger.chain.mac` at each call, copied from one
    made once: the key's own block is not set up again for every entry."""
    return hashlib.blake2b(key=key, digest_size=MAC_BYTES).copy


def _hash_before(conn: sqlite3.Connection, seq: int) -> bytes:
    if seq <= 1:
        return GENESIS
    row = conn.execute("SELECT CAST(hash AS BLOB) FROM entries WHERE seq = ?",
                       [seq - 1]).fetchone()
    return GENESIS if row is None or row[0] is None else bytes(row[0])


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
