"""Reading a ledger's chain: its head, its entries by number or kind, its settings and meters.

:class:`LedgerReads` is what a ledger reads of itself when it is opened and
whenever it is asked: the head of the chain, one entry or a run of them in
chain order (streamed, constant memory), the newest setting and recorded
paytable, the meters, and what an archive (:mod:`etg.ledger.archive`) took
from before its cut that readers still need. The money story is read on top
of it (:mod:`etg.ledger.history`); :class:`~etg.ledger.store.Ledger` opens the
file, holds the transactions and writes.
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from etg.ledger.chain import GENESIS
from etg.ledger.compact import Layouts
from etg.ledger.entry import ENTRY_SELECT, Entry, EntryKind, entry_of
from etg.ledger.schema import applied_migrations
from etg.ledger.terms import LedgerKind, Problem

__all__ = ["LedgerReads"]

_BY_TAG = {EntryKind.PAYTABLE: "entries_paytables", EntryKind.SETTING: "entries_settings"}
"""The partial indexes of the kinds looked up by tag: reading all of a kind in chain order
goes through them (the planner would rather scan the table by ``seq``)."""


class LedgerReads:
    """What a ledger file holds, read through one connection (the base of every ledger)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self.layouts = Layouts()
        self._settings: dict[str, str | None] = {}
        self._head_seq, self._head_hash, self._rounds = self._read_head()
        self._indexes = {str(r[0]) for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries'")}
        self.carried: dict[str, Any] = {}  # what archived entries left behind for readers
        self._read_carried()
        self._read_layouts()
        self.ledger_id = ""
        self.kind: LedgerKind | None = None
        self._read_genesis()

    # --- the chain --------------------------------------------------------------------------

    @property
    def head(self) -> tuple[int, bytes]:
        return self._head_seq, self._head_hash

    def round_count(self) -> int:
        """The last round in the hand ledger (rounds are numbered 1, 2, 3 ... without gaps)."""
        return self._rounds

    def genesis(self) -> dict[str, Any] | None:
        if self.carried.get("genesis") is not None:  # archived: never look for it
            carried: dict[str, Any] = self.carried["genesis"]
            return carried
        found: dict[str, Any] | None = self._first(EntryKind.GENESIS)
        return found

    def setting(self, key: str) -> str | None:
        """A setting's newest value (kept in memory once read: asked for at every round)."""
        if key not in self._settings:
            value = self._last(EntryKind.SETTING, key)
            if value is None:  # recorded before an archive's cut
                value = self.carried.get("settings", {}).get(key)
            self._settings[key] = None if value is None else str(value)
        return self._settings[key]

    def paytable_source(self, sha256: str) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self._last(EntryKind.PAYTABLE, sha256)
        if found is None:  # recorded before an archive's cut
            found = dict(self.carried.get("paytables", [])).get(sha256)
        return found

    def entry(self, seq: int) -> Entry | None:
        row = self.conn.execute(f"SELECT {ENTRY_SELECT} FROM entries WHERE seq = ?",
                                [seq]).fetchone()
        return None if row is None else entry_of(row, self.layouts)

    def entries(self, after: int = 0, until: int | None = None,
                kind: EntryKind | None = None) -> Iterator[Entry]:
        """Entries after ``after`` in chain order, read in chunks (constant memory)."""
        sql = f"SELECT {ENTRY_SELECT} FROM entries WHERE seq > ?"
        args: list[Any] = [after]
        if until is not None:
            sql += " AND seq <= ?"
            args.append(until)
        if kind is not None:
            sql += f" AND kind = '{kind.value}'"  # a literal: the partial indexes need one
            index = _BY_TAG.get(kind)
            if index is not None and index in self._indexes:  # else SQLite would scan the table
                sql = sql.replace("FROM entries", f"FROM entries INDEXED BY {index}", 1)
        cursor = self.conn.execute(sql + " ORDER BY seq", args)
        layouts = self.layouts
        while rows := cursor.fetchmany(2000):
            for r in rows:
                yield entry_of(r, layouts)

    def entry_hash(self, seq: int) -> bytes | None:
        if seq == 0:
            return GENESIS
        row = self.conn.execute("SELECT CAST(hash AS BLOB) FROM entries WHERE seq = ?",
                                [seq]).fetchone()
        return None if row is None else bytes(row[0])

    def meters(self) -> dict[str, Counter[tuple[int, str]]]:
        out: dict[str, Counter[tuple[int, str]]] = {}
        for paytable_id, seat, name, value in self.conn.execute(
            "SELECT paytable_id, seat, name, value FROM meters"
        ).fetchall():
            out.setdefault(paytable_id, Counter())[(seat, name)] = value
        return out

    def quick_check(self) -> list[Problem]:
        result = [r[0] for r in self.conn.execute("PRAGMA quick_check").fetchall()]
        return [] if result == ["ok"] else [Problem("quick_check", "; ".join(result))]

    @property
    def schema_version(self) -> int:
        return len(applied_migrations(self.conn))

    # --- what an archive left behind --------------------------------------------------------

    def carried_before(self, cut: int) -> dict[str, Any]:
        """What readers need from the entries before ``cut`` once they are archived."""
        layouts = []
        for seq, layout in zip(self.layouts._seqs, self.layouts._layouts, strict=True):
            if seq < cut:
                dictionary = layout.dictionary
                layouts.append([seq, layout.body, None if dictionary is None else
                                [dictionary[0].decode("utf-8"), dictionary[1].decode("utf-8")]])
        paytables = {sha: body for sha, body in self.carried.get("paytables", [])}
        settings = dict(self.carried.get("settings", {}))
        migrations = self.carried.get("migrations")
        sealed = self.carried.get("sealed_chain")
        keyed = self.carried.get("sealed_keyed_chain")
        for entry in self.entries(until=cut - 1):
            if entry.kind in ("command", "round", "event", "checkpoint"):
                continue
            body = entry.data()
            if entry.kind == EntryKind.PAYTABLE.value and entry.tag:
                paytables[entry.tag] = body
            elif entry.kind == EntryKind.SETTING.value and entry.tag:
                settings[entry.tag] = body
            elif entry.kind == EntryKind.SCHEMA.value and isinstance(body, dict):
                migrations = body.get("migrations", migrations)
                sealed = body.get("sealed_chain", sealed)
                keyed = body.get("sealed_keyed_chain", keyed)
        return {"genesis": self.genesis(), "layouts": layouts,
                "paytables": sorted([sha, body] for sha, body in paytables.items()),
                "settings": settings, "migrations": migrations, "sealed_chain": sealed,
                "sealed_keyed_chain": keyed}

    def forget_archived(self) -> None:
        """Read again what the archive left behind (after :func:`etg.ledger.archive.archive`)."""
        self._settings.clear()
        self._read_carried()

    def first_seq(self) -> int:
        """The first entry the file holds: 1, or the one after the newest archive's cut."""
        row = self.conn.execute("SELECT min(seq) FROM entries").fetchone()
        return int(row[0]) if row and row[0] is not None else 1

    def archived_head(self) -> tuple[int, bytes] | None:
        """The last archived entry and its hash, as the live chain's archive entry records it."""
        archived = self.carried.get("archived")
        if not archived:
            return None
        return int(archived["last"]), bytes.fromhex(str(archived["head"]))

    # --- helpers ----------------------------------------------------------------------------

    def _read_head(self) -> tuple[int, bytes, int]:
        row = self.conn.execute(
            "SELECT seq, CAST(hash AS BLOB) FROM entries "
            "WHERE seq = (SELECT max(seq) FROM entries)").fetchone()
        last_round = self.conn.execute(
            "SELECT max(round) FROM entries WHERE kind = 'round'").fetchone()
        seq, digest = (int(row[0]), bytes(row[1])) if row else (0, GENESIS)
        return seq, digest, int(last_round[0]) if last_round and last_round[0] else 0

    def _compact_entries(self) -> bool:
        return self.conn.execute("SELECT 1 FROM entries WHERE format = 1 LIMIT 1"
                                 ).fetchone() is not None

    def _read_layouts(self) -> None:
        found: list[tuple[int, Any, Any]] = [(int(seq), body, dictionary) for seq, body, dictionary
                                             in self.carried.get("layouts", [])]
        rows = self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'schema' ORDER BY seq").fetchall()
        for row in rows:
            entry = entry_of(row, None)
            if entry.tag == "layout":
                body = entry.data()
                if "unreadable" not in body:
                    found.append((entry.seq, body, None))
        for seq, body, dictionary in sorted(found, key=lambda f: f[0]):
            layout = self.layouts.add(seq, body)
            if dictionary is not None:  # its first round went to an archive
                layout.dictionary = (dictionary[0].encode("utf-8"), dictionary[1].encode("utf-8"))
        for seq, layout in zip(self.layouts._seqs, self.layouts._layouts, strict=True):
            if layout.dictionary is not None:
                continue
            row = self.conn.execute(  # each layout's first round primes the others
                f"SELECT {ENTRY_SELECT} FROM entries WHERE seq > ? AND kind = 'round' "
                f"ORDER BY seq LIMIT 1", [seq]).fetchone()
            if row is not None:
                with contextlib.suppress(ValueError, LookupError):  # unreadable: verify names it
                    entry_of(row, self.layouts).raw(header_only=False)

    def _read_carried(self) -> None:
        """What archives took from before their cut and readers still need (the newest
        archive's record carries all of it, the older ones' included)."""
        rows = self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'schema' ORDER BY seq").fetchall()
        for row in rows:
            entry = entry_of(row, None)
            if entry.tag == "archive":
                body = entry.data()
                if isinstance(body, dict) and "archived" in body:
                    self.carried = body
        if not self.carried and self.conn.execute(
                "SELECT 1 FROM sqlite_master WHERE name = 'archive'").fetchone():
            text = self.conn.execute("SELECT carried FROM archive").fetchone()[0]
            self.carried = json.loads(text)  # an archive file read as a ledger

    def _read_genesis(self) -> None:
        genesis = self.genesis()
        genesis = genesis if isinstance(genesis, dict) else {}
        self.ledger_id = str(genesis.get("ledger_id", ""))
        kinds = {k.value: k for k in LedgerKind}
        self.kind = kinds.get(str(genesis.get("kind")))

    def _first(self, kind: EntryKind) -> Any:
        row = self.conn.execute(f"SELECT {ENTRY_SELECT} FROM entries "
                                f"WHERE kind = '{kind.value}' ORDER BY seq LIMIT 1").fetchone()
        return None if row is None else entry_of(row, self.layouts).data()

    def _last(self, kind: EntryKind, tag: str) -> Any:
        row = self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = '{kind.value}' AND tag = ? "
            f"ORDER BY seq DESC LIMIT 1", [tag]).fetchone()
        return None if row is None else entry_of(row, self.layouts).data()
