"""The chain's links, checked row by row, with the money read in the same pass.

Each entry's hash is a hash of the previous entry's *stored* hash and its own
content (:func:`etg.ledger.chain.digest`; a MAC under the old secret key for the
entries before the seal of an older ledger), so any stretch of the chain can be
checked on its own, given the hash just before it: ``etg ledger verify --full``
hands stretches of a long ledger to worker processes (:mod:`etg.ledger.verify`).
The signatures of the heads are checked apart (:mod:`etg.ledger.verify`): the
chain's links are what tie every entry to them.

A compact entry's content is put together by SQLite (every column but the hash,
joined with NUL, the body last: :func:`etg.ledger.entry.compact_content`), so a
row costs one fetch of two values and one hash, set up once per walk
(:func:`_hasher`). The walk goes window by window of entry numbers: a window that
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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from etg.ledger.chain import DIGEST_BYTES, GENESIS, MAC_BYTES, link
from etg.ledger.entry import COMPACT, ENTRY_SELECT, entry_of
from etg.ledger.signing import Verifier

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
    legacy_until: int = 0
    verbose_unkeyed: bool = False


def check(conn: sqlite3.Connection, key: bytes | None, stretch: Stretch,
          progress: Callable[[int], None] | None = None,
          money: Money | None = None,
          unchecked: list[str] | None = None) -> tuple[list[str], int]:
    """Every broken link in ``stretch`` (as messages, at most :data:`MAX_REPORTED`) and the
    number of entries read. An entry missing from the sequence is a broken link too.
    ``key``: the old secret key, for the entries before the seal (None: not here, and
    ``unchecked`` is told which entries could not be checked). ``progress`` is told the
    entry reached after each chunk; ``money`` the entries linked."""
    problems: list[str] = []
    count = 0
    expected = stretch.low
    previous = stretch.previous if stretch.previous is not None else _hash_before(conn,
                                                                                   stretch.low)
    counted = stretch.low if stretch.counted_from is None else stretch.counted_from
    verbose_key = b"" if stretch.verbose_unkeyed else key
    if stretch.low <= stretch.verbose_until:
        last_verbose = min(stretch.high, stretch.verbose_until)
        if verbose_key is None and unchecked is not None:
            unchecked.append(_unchecked(conn, stretch.low, last_verbose))
        cursor = conn.execute(f"SELECT {ENTRY_SELECT} FROM entries WHERE seq >= ? AND seq <= ? "
                              f"ORDER BY seq", [stretch.low, last_verbose])
        while rows := cursor.fetchmany(2000):
            for row in rows:
                entry = entry_of(row, None)
                expected = _gap(problems, expected, entry.seq)
                if entry.format == COMPACT or (verbose_key is not None and not
                                               hmac.compare_digest(link(verbose_key, previous,
                                                                        entry.content()),
                                                                   entry.hash)):
                    _broken(problems, entry.seq, entry.kind, entry.tag)
                previous, expected, count = entry.hash, entry.seq + 1, count + 1
            if money is not None:
                money(conn, counted, expected - 1)
                counted = expected
            if progress is not None:
                progress(expected - 1)
    low = max(stretch.low, stretch.verbose_until + 1)
    signed = max(low, stretch.legacy_until + 1)  # the first entry of the signed chain
    if low < signed and key is None and unchecked is not None:
        unchecked.append(_unchecked(conn, low, min(stretch.high, signed - 1)))
    for start, end, hasher in ((low, min(stretch.high, signed - 1), _hasher(key, MAC_BYTES)),
                               (signed, stretch.high, _hasher(b"", DIGEST_BYTES))):
        for first in range(start, end + 1, CHUNK):
            last = min(first + CHUNK - 1, end)
            rows = conn.execute(_WINDOW, [first, last]).fetchall()
            if len(rows) == last - first + 1:  # entries first..last, every one: seq is implied
                if expected != first:
                    _gap(problems, expected, first)
                for offset in [] if hasher is None else _links(hasher, previous, rows):
                    _broken_row(conn, problems, first + offset)
                previous, expected = rows[-1][1], last + 1
            else:  # some are missing: read their numbers too, to say which
                expected, previous = _window_with_gaps(conn, hasher, problems, first, last,
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


def _links(hasher: Callable[[], Any], previous: bytes, rows: list[Any]) -> list[int]:
    """The places in ``rows`` (content, stored hash) whose link does not hold: the few
    lines every entry of a long walk goes through."""
    bad = []
    for offset, (content, stored) in enumerate(rows):
        link_ = hasher()
        link_.update(previous)
        link_.update(content or b"")
        if link_.digest() != stored or content is None:
            bad.append(offset)
        previous = stored
    return bad


def _window_with_gaps(conn: sqlite3.Connection, hasher: Callable[[], Any] | None,
                      problems: list[str], first: int, last: int, expected: int,
                      previous: bytes) -> tuple[int, bytes]:
    """Entries ``first``..``last`` when some are missing: each link (unless ``hasher`` is
    None: the old key is not here), and each gap."""
    for seq, content, stored in conn.execute(f"SELECT seq, {_WINDOW[len('SELECT '):]}",
                                             [first, last]):
        expected = _gap(problems, expected, seq)
        if hasher is not None and _links(hasher, previous, [(content, stored)]):
            _broken_row(conn, problems, seq)
        previous, expected = stored, seq + 1
    return expected, previous


def _hasher(key: bytes | None, size: int) -> Callable[[], Any] | None:
    """A fresh BLAKE2b at each call, copied from one made once (a key's own block is not set
    up again for every entry): keyed with the old secret for the MACed entries
    (:func:`etg.ledger.chain.mac`), unkeyed (``b""``) for the signed chain
    (:func:`etg.ledger.chain.digest`); None when the old key is not here."""
    if key is None:
        return None
    return hashlib.blake2b(key=key, digest_size=size).copy


def _unchecked(conn: sqlite3.Connection, first: int, last: int) -> str:
    """Which entries (and rounds) could not be checked without the old secret key."""
    low, high = conn.execute("SELECT min(round), max(round) FROM entries WHERE kind = 'round' "
                             "AND seq >= ? AND seq <= ?", [first, last]).fetchone()
    rounds = "no round" if low is None else f"rounds {low} to {high}"
    return (f"entries {first} to {last} ({rounds}) were chained under the old secret key "
            f"(keys/ledger.key), which is not here: their links could not be checked")


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


def sealed(carried: dict[str, Any], seals: Iterable[Any], low: int, high: int) -> Stretch:
    """Entries ``low``..``high`` as a :class:`Stretch` with what the seals say, from what an
    archive ``carried`` and the bodies of the ledger's ``seal`` entries: the last verbose
    entry and the last MACed one (0 for a ledger born compact, born signed), and whether the
    verbose ones were MACed under no key."""
    verbose = carried.get("sealed_chain") or None
    keyed = carried.get("sealed_keyed_chain") or None
    for body in seals:
        if isinstance(body, dict):
            verbose = verbose or body.get("sealed_chain")
            keyed = keyed or body.get("sealed_keyed_chain")
    verbose_until = int(verbose["seq"]) if verbose else 0
    legacy_until = int(keyed["seq"]) if keyed else verbose_until
    unkeyed = verbose is not None and verbose.get("mac_key") == "none"
    return Stretch(low, high, verbose_until, legacy_until=legacy_until, verbose_unkeyed=unkeyed)


def check_head(conn: sqlite3.Connection, verifier: Verifier, seq: int, head: bytes) -> list[str]:
    """The signature of the newest entry ``seq`` (its hash ``head``), which covers every entry
    before it through the chain."""
    if not seq:
        return []
    row = conn.execute("SELECT seq, CAST(signature AS BLOB) FROM head_signature").fetchone()
    signed = None if row is None else int(row[0])
    if signed is not None and signed > seq:
        return [f"head_signature: the signed head is entry {signed}, but the ledger ends at "
                f"entry {seq}: entries were cut off its end"]
    if signed != seq:
        return [f"entries row {seq}, the newest, is not the signed head (head_signature: "
                f"{'none' if signed is None else f'entry {signed}'}): entries were added "
                f"without the cabinet's private key"]
    if not verifier.head_signed(seq, head, bytes(row[1] or b"")):
        return [f"head_signature: the signature of entries row {seq}, the newest, does not hold "
                f"under the cabinet's public key {verifier.fingerprint[:23]}… (forged, or "
                f"signed with another key)"]
    return []
