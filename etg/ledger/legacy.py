"""Carry a schema-2 ledger (journal, hand ledger, event log in separate tables) into the chain.

Run once by migration ``0003_chained_ledger``. Every old row becomes an entry,
in the order the rows were written (by time; within one instant a command
comes before the round it finished and the log entries written with it).
The old hand ledger's own SHA-256 chain is **sealed**, not broken: each
carried round keeps its old hash (``legacy_hash``), and a ``schema`` entry
records the old chain's head, which ``etg ledger verify --full`` recomputes.
A checkpoint of the state as it stood closes the conversion, so a restart and
the recomputation of credits and progressive meters start from it.

No :class:`~etg.ledger.store.Ledger` exists yet: a :class:`VerboseWriter` chains
the entries. The module imports none of the ledger's modules that import it
(:mod:`etg.ledger.schema` runs it, :mod:`etg.ledger.verify` recomputes the seal).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

from etg.core.engine import apply
from etg.core.state import TableState
from etg.ledger.chain import GENESIS, canonical, link
from etg.ledger.codec import dump_state, load_command, load_state
from etg.ledger.entry import EntryKind, verbose_content
from etg.ledger.terms import now

LEGACY_GENESIS = "0" * 64

UNKEYED = b""
"""The key a schema-2 ledger's rows are chained under when this program converts them: none
(HMAC with an empty key). The entries are sealed by the signed chain as the migration
ends, so a secret would add nothing, and every verifier can check them; the seal says so
(``"mac_key": "none"``)."""


def legacy_hash(previous: str, record: dict[str, Any]) -> str:
    """The schema-2 hand ledger's chain: SHA-256 of the previous hash and the canonical record."""
    return hashlib.sha256((previous + canonical(record)).encode()).hexdigest()


def convert(conn: sqlite3.Connection, writer: VerboseWriter) -> None:
    for sha256, paytable_id, source in conn.execute(
            "SELECT sha256, id, source FROM paytables ORDER BY rowid"):
        writer.append(EntryKind.PAYTABLE, {"id": paytable_id, "source": source}, tag=sha256)
    rows: list[tuple[str, int, int, Any]] = []
    rows += [(at, 0, seq, ("command", seq, round_, command, actor, at, events)) for
             seq, round_, command, actor, at, events in conn.execute(
                 "SELECT seq, round, command, actor, at, events FROM journal")]
    rows += [(ended_at, 1, round_, ("round", round_, ended_at, outcome, record, digest)) for
             round_, ended_at, outcome, record, digest in conn.execute(
                 "SELECT round, ended_at, outcome, record, hash FROM hand_ledger")]
    rows += [(at, 2, id_, ("event", id_, at, kind, actor, details)) for
             id_, at, kind, actor, details in conn.execute(
                 "SELECT id, at, kind, actor, details FROM event_log")]
    rows.sort(key=lambda row: row[:3])
    head, rounds = LEGACY_GENESIS, 0
    seq_of: dict[int, int] = {}  # old journal seq -> entry seq
    opened: dict[int, dict[str, Any]] = {}  # round -> its OpenBets entry
    for _at, _order, _id, row in rows:
        match row:
            case ("command", old_seq, round_, command, actor, at, events):
                data = json.loads(command)
                writer.append(EntryKind.COMMAND, {"command": data, "events": json.loads(events)},
                              round_=round_, tag=data["type"], actor=actor, at=at)
                seq_of[old_seq] = writer.seq
                if data["type"] == "OpenBets":
                    opened[round_] = {"seq": writer.seq, "at": at}
            case ("round", round_, ended_at, outcome, record, digest):
                writer.append(EntryKind.ROUND, {**json.loads(record), "legacy_hash": digest},
                              round_=round_, tag=outcome, at=ended_at)
                head, rounds = digest, round_
            case ("event", _id, at, kind, actor, details):
                writer.append(EntryKind.EVENT, json.loads(details), tag=kind, actor=actor, at=at)
    for key, value in conn.execute("SELECT key, value FROM settings ORDER BY rowid"):
        writer.append(EntryKind.SETTING, value, tag=key)
    writer.append(EntryKind.SCHEMA, {"sealed_hand_ledger": {"head": head, "rounds": rounds},
                                     "carried": {"rows": len(rows)}})
    state = _current_state(conn)
    if state is None:
        return
    meters: dict[str, list[list[Any]]] = {}
    for pid, seat, name, value in conn.execute(
            "SELECT paytable_id, seat, name, value FROM meters ORDER BY paytable_id, seat, name"):
        meters.setdefault(pid, []).append([seat, name, value])
    open_round = opened.get(state.round.number)
    before = _credits_at_open(conn, state.round.number)
    writer.append(EntryKind.CHECKPOINT, {
        "reason": "migration", "rounds": rounds, "round": state.round.number,
        "phase": state.phase.value, "credits": list(state.credits),
        "progressives": [None if m is None else m.cents for m in state.meters],
        "meters": meters, "state": json.loads(dump_state(state)),
        "round_open": None if open_round is None or before is None else
        {**open_round, "credits": before},
    }, round_=state.round.number, tag="migration")


class VerboseWriter:
    """Appends chained entries in the verbose format during the migration, before a
    :class:`~etg.ledger.store.Ledger` exists."""

    def __init__(self, conn: sqlite3.Connection, key: bytes) -> None:
        self.conn, self.key = conn, key
        self.seq, self.hash = 0, GENESIS

    def append(self, kind: EntryKind, body: Any, *, round_: int = 0, tag: str | None = None,
               actor: str | None = None, at: str | None = None) -> None:
        at = at or now()
        text = canonical(body)
        self.seq += 1
        self.hash = link(self.key, self.hash,
                         verbose_content(self.seq, kind.value, round_, at, actor, tag, text))
        self.conn.execute(
            "INSERT INTO entries (seq, kind, round, at, actor, tag, body, hash) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [self.seq, kind.value, round_, at, actor, tag, text, self.hash])


def _current_state(conn: sqlite3.Connection) -> TableState | None:
    row = conn.execute("SELECT seq, state FROM snapshots ORDER BY seq DESC LIMIT 1").fetchone()
    if row is None:
        return None
    state = load_state(row[1])
    for (command,) in conn.execute("SELECT command FROM journal WHERE seq > ? ORDER BY seq",
                                   [row[0]]):
        state, _ = apply(state, load_command(json.loads(command)))
    return state


def _credits_at_open(conn: sqlite3.Connection, round_number: int) -> list[int] | None:
    row = conn.execute(
        "SELECT s.state FROM snapshots s JOIN journal j ON j.seq = s.seq "
        "WHERE j.round = ? ORDER BY s.seq DESC LIMIT 1", [round_number]).fetchone()
    return None if row is None else list(load_state(row[0]).credits)
