"""Moving old rounds out of the live ledger into a verifiable archive file (issue 11, item 6).

``etg ledger archive --db PATH --before DATE --out FILE`` cuts the chain at the
newest checkpoint written before ``DATE`` between two rounds: every entry
before that checkpoint — completed rounds, their commands, the event log and the
older checkpoints — is copied as it is (same numbers, same bytes, same hashes)
into ``FILE``, an SQLite file of its own, then removed from the live ledger in
one transaction. The live ledger keeps its meters, the cut checkpoint and
everything after it.

The two still make one chain. The live ledger records the cut in an entry of
its own (a ``schema`` entry tagged ``archive``, chained and keyed like every
other): which entries went, the hash of the last one — the link the live
chain's first entry follows — the archive file's SHA-256, and what readers of
the live ledger still need from before the cut (the ledger's genesis, the
layouts and their round dictionaries, the recorded paytables and settings, the
migrations). ``etg ledger verify --full --archive FILE`` walks the archive's
links and then the live ledger's as one chain; without ``--archive`` the live
ledger verifies from the cut on.

The archive is written and synced before anything is removed: a failure at any
instant leaves the live ledger whole (and at worst a stray archive file).

What stays live whatever the date (issue 25, finding 8): the last
:data:`KEEP_LIVE` rounds, for game recall, and nothing is ever cut after the
present. Without the archive file, ``verify --full`` names the rounds it could
not check (:func:`unchecked`) instead of calling the history clean.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from etg.ledger.entry import EntryKind
from etg.ledger.ledger_file import APPLICATION_ID
from etg.ledger.store import Ledger, LedgerError, Problem
from etg.ledger.terms import now

KEEP_LIVE = 100
"""Rounds an archive always leaves in the live ledger, whatever the date.

Game recall shows "the last 10 rounds at least" (SPEC §5), and the rules ask that each
hand can be reconstructed "in the event of a question or dispute" (MD Ch. 9 F(1); Ch. 9 K
for the War deal): a question about a recent round is answered at the table, from the
live ledger, never from a file that may be elsewhere. 100 rounds is ten times recall's
least, and one checkpoint interval (:data:`etg.ledger.store.CHECKPOINT_EVERY`), so the
cut checkpoint is never the newest.
"""

ARCHIVE_TABLE = ("CREATE TABLE archive (ledger_id TEXT NOT NULL, first INTEGER NOT NULL,"
                 " last INTEGER NOT NULL, head BLOB NOT NULL, carried TEXT NOT NULL,"
                 " made_at TEXT NOT NULL)")


@dataclass(frozen=True)
class Archived:
    """What one archive took: entries ``first``..``last``, rounds ``rounds``."""

    path: Path
    first: int
    last: int
    rounds: tuple[int, int] | None
    sha256: str


def archive(ledger: Ledger, before: str, out: Path, actor: str = "supervisor") -> Archived:
    """Move the entries before the newest checkpoint older than ``before`` (ISO time) to ``out``.

    The cut keeps the last :data:`KEEP_LIVE` rounds live whatever ``before``
    says. Raises :class:`LedgerError` for a ``before`` in the future, if there is
    nothing to move, ``out`` exists, or the ledger cannot be written; the live
    ledger is then unchanged. ``actor`` is whose PIN allowed it, for the event log.
    """
    moment = datetime.fromisoformat(before)
    if (moment if moment.tzinfo else moment.replace(tzinfo=UTC)) > datetime.now(UTC):
        raise LedgerError(f"{before} is in the future: only what has happened is archived")
    if out.exists():
        raise LedgerError(f"{out}: already exists; an archive is never overwritten")
    cut = _cut(ledger, before)
    first = ledger.first_seq()
    if cut is None or cut <= first:
        raise LedgerError(f"{ledger.path}: no round ended between checkpoints before {before}: "
                          f"nothing to archive")
    if (kept := _cut(ledger, before, keep=KEEP_LIVE)) is None or kept <= first:
        raise LedgerError(f"{ledger.path}: no checkpoint before {before} leaves the last "
                          f"{KEEP_LIVE} rounds live: nothing to archive")
    cut = kept
    last = cut - 1
    head = ledger.entry_hash(last)
    assert head is not None
    rounds = ledger.conn.execute("SELECT min(round), max(round) FROM entries WHERE "
                                 "kind = 'round' AND seq < ?", [cut]).fetchone()
    carried = {**ledger.carried_before(cut), "pins": _pins_before(ledger, cut)}
    _write(ledger, out, first, last, head, carried)
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    span = None if rounds[0] is None else (int(rounds[0]), int(rounds[1]))
    with ledger.atomic():
        ledger.conn.execute("DROP TRIGGER entries_no_delete")
        ledger.conn.execute("DELETE FROM entries WHERE seq <= ?", [last])
        ledger.conn.execute("CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries "
                            "BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END")
        ledger.append(EntryKind.SCHEMA, {
            "archived": {"first": first, "last": last, "head": head.hex(), "rounds": span,
                         "before": before, "file": out.name, "sha256": digest},
            **carried}, tag="archive")
        ledger.log("archive", actor, {"first": first, "last": last, "rounds": span,
                                      "file": str(out), "sha256": digest})
    ledger.forget_archived()
    return Archived(out, first, last, span, digest)


def _cut(ledger: Ledger, before: str, keep: int = 0) -> int | None:
    """The newest checkpoint written before ``before`` with no round open, and with at least
    ``keep`` rounds after it: the cut."""
    latest = None  # the newest entry the cut may be: before the keep-th newest round
    if keep:
        row = ledger.conn.execute("SELECT seq FROM entries WHERE kind = 'round' ORDER BY seq "
                                  "DESC LIMIT 1 OFFSET ?", [keep - 1]).fetchone()
        if row is None:
            return None  # fewer than ``keep`` rounds live: all of them stay
        latest = int(row[0]) - 1
    for seq in ledger.checkpoint_seqs():
        entry = ledger.entry(seq)
        if entry is None or entry.at >= before or (latest is not None and seq > latest):
            continue
        body = entry.data()
        if isinstance(body, dict) and body.get("round_open") is None and \
                body.get("phase") in ("idle", "complete", "voided"):
            return seq
    return None


def _pins_before(ledger: Ledger, cut: int) -> dict[str, str | None]:
    """Each PIN's fingerprint as last recorded before ``cut`` (older archives' included), for
    the live ledger to carry: a start after the archive still tells a PIN changed from one
    that was not (:meth:`etg.table.controller.Table.note_pins`)."""
    pins: dict[str, str | None] = dict(ledger.carried.get("pins", {}))
    for event in ledger.event_log("pin_change"):
        if int(event["id"]) < cut:
            pins[str(event["details"]["role"])] = event["details"]["fingerprint"]
    return pins


def _write(ledger: Ledger, out: Path, first: int, last: int, head: bytes,
           carried: dict[str, Any]) -> None:
    """The archive file: the entries as they are, and what reading them needs; synced."""
    from etg.ledger.chain import canonical

    schema = ledger.conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND "
                                 "name = 'entries'").fetchone()[0]
    temporary = out.with_name(out.name + ".part")
    temporary.unlink(missing_ok=True)
    conn = sqlite3.connect(temporary, isolation_level=None)
    try:
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute("PRAGMA page_size=1024")
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("BEGIN")
        conn.execute(schema)
        conn.execute(ARCHIVE_TABLE)
        for verb in ("update", "delete"):  # as append-only as the live ledger
            conn.execute(f"CREATE TRIGGER entries_no_{verb} BEFORE {verb.upper()} ON entries "
                         f"BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END")
        conn.execute("INSERT INTO archive VALUES (?, ?, ?, ?, ?, ?)",
                     [ledger.ledger_id, first, last, head, canonical(carried), now()])
        conn.execute("COMMIT")
        conn.execute("ATTACH DATABASE ? AS live", [f"{ledger.path.resolve().as_uri()}?mode=ro"])
        conn.execute("BEGIN")
        conn.execute("INSERT INTO main.entries SELECT * FROM live.entries WHERE seq >= ? AND "
                     "seq <= ? ORDER BY seq", [first, last])
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE live")
        copied = conn.execute("SELECT count(*), max(seq) FROM entries").fetchone()
        if copied[1] != last:
            raise LedgerError(f"{out}: the archive holds entries up to {copied[1]}, not {last}")
    finally:
        conn.close()
    with temporary.open("rb+") as file:
        os.fsync(file.fileno())
    temporary.replace(out)


def open_archive(path: Path) -> sqlite3.Connection:
    """An archive file, read-only; raises :class:`LedgerError` if it is not one."""
    if not path.exists():
        raise LedgerError(f"{path}: no such archive")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID or \
                conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'archive'").fetchone() \
                is None:
            raise LedgerError(f"{path}: not an ETG ledger archive")
    except sqlite3.DatabaseError as error:
        conn.close()
        raise LedgerError(f"{path}: not an ETG ledger archive ({error})") from None
    return conn


def check_archives(ledger: Ledger, paths: list[Path]) -> list[Problem]:
    """The archives' links, as one chain with the live ledger's (``verify --full --archive``).

    Each archive must be one the live ledger recorded (its SHA-256), of this
    ledger; its entries must link from the head of the archive before it (or the
    genesis) to the head the live ledger records for it, which the live chain's
    first entry follows. The links need no key but the old secret one, for entries
    MACed before an older ledger's seal.
    """
    recorded = _recorded(ledger)
    by_sha = {r["sha256"]: r for r in recorded}
    problems: list[Problem] = []
    for path in paths:
        try:
            conn = open_archive(path)
        except LedgerError as error:
            problems.append(Problem("archive", str(error)))
            continue
        try:
            problems += _check_one(ledger, path, conn, by_sha, recorded)
        finally:
            conn.close()
    return problems


def unchecked(ledger: Ledger, given: list[Path]) -> list[dict[str, Any]]:
    """The archives the ledger recorded that are not among ``given``: the history
    ``verify --full`` could not check, each as recorded (entries ``first`` to ``last``,
    ``rounds``, ``file``, ``sha256``). A given file is known by its SHA-256, whatever
    its name."""
    digests = {hashlib.sha256(path.read_bytes()).hexdigest() for path in given
               if path.is_file()}
    return [record for record in _recorded(ledger) if record["sha256"] not in digests]


def unchecked_problem(record: dict[str, Any]) -> Problem:
    """One archive the ledger recorded that was not given, in words: which rounds, which file."""
    rounds = record.get("rounds")
    what = (f"rounds {rounds[0]:,}–{rounds[1]:,} (entries {record['first']:,}–"
            f"{record['last']:,})" if rounds else
            f"entries {record['first']:,}–{record['last']:,} (no rounds)")
    return Problem("archive", f"{what} are in archive {record['sha256'][:16]}… "
                              f"({record['file']}), not given: not checked (--archive FILE)")


def _recorded(ledger: Ledger) -> list[dict[str, Any]]:
    out = []
    for entry in ledger.entries(kind=EntryKind.SCHEMA):
        body = entry.data()
        if entry.tag == "archive" and isinstance(body, dict) and "archived" in body:
            out.append(body["archived"])
    return sorted(out, key=lambda r: int(r["first"]))


def _check_one(ledger: Ledger, path: Path, conn: sqlite3.Connection,
               by_sha: dict[str, dict[str, Any]], recorded: list[dict[str, Any]]
               ) -> list[Problem]:
    from etg.ledger import chain_walk
    from etg.ledger.chain import GENESIS

    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    record = by_sha.get(digest)
    if record is None:
        return [Problem("archive", f"{path}: not an archive this ledger recorded (its SHA-256 "
                                   f"{digest[:12]}… is none of {len(recorded)} recorded)")]
    ledger_id, first, last = conn.execute("SELECT ledger_id, first, last FROM archive").fetchone()
    row = conn.execute("SELECT CAST(hash AS BLOB) FROM entries WHERE seq = ?", [last]).fetchone()
    head = b"" if row is None else bytes(row[0])
    if ledger_id != ledger.ledger_id or (first, last) != (record["first"], record["last"]):
        return [Problem("archive", f"{path}: its description differs from the ledger's record")]
    index = recorded.index(record)
    previous = GENESIS if first == 1 else bytes.fromhex(recorded[index - 1]["head"]) \
        if index else None
    if previous is None:
        return [Problem("archive", f"{path}: entries before {first} are in an archive the "
                                   f"ledger does not record")]
    stretch = dataclasses.replace(chain_walk.sealed(ledger.carried, (), first, last),
                                  previous=previous)
    unchecked: list[str] = []
    links, count = chain_walk.check(conn, ledger.legacy_key, stretch, unchecked=unchecked)
    problems = [Problem("archive", f"{path}: {message}") for message in links + unchecked]
    if count != last - first + 1:
        problems.append(Problem("archive", f"{path}: holds {count} entries, the ledger recorded "
                                           f"{last - first + 1}"))
    if bytes(head).hex() != record["head"]:
        problems.append(Problem("archive", f"{path}: its head is not the one the live ledger "
                                           f"follows"))
    return problems
