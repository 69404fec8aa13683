"""Reading a ledger's money story: checkpoints, the journal, rounds, the event log, audits.

What a restart, a recall, an export and an audit read back: the checkpoints
newest first, the commands a restart replays, the hand ledger's records with
their events, the event log by kind or by page, and the audit trail of a
:class:`~etg.ledger.terms.Span` streamed in chain order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from etg.core.state import TableState
from etg.ledger.compact import Layouts
from etg.ledger.entry import (
    COMPACT,
    ENTRY_SELECT,
    Entry,
    EntryKind,
    checkpoint_data,
    entry_of,
    micros,
)
from etg.ledger.reads import LedgerReads
from etg.ledger.terms import Span

__all__ = ["LedgerHistory", "round_events_of"]


class LedgerHistory(LedgerReads):
    """A ledger's records, events and checkpoints, on top of its chain (:class:`LedgerReads`)."""

    def last_checkpoint(self) -> tuple[int, dict[str, Any], TableState] | None:
        """The newest checkpoint: its entry number, its body and the state it holds.

        Raises ValueError (or KeyError) if it cannot be read; see :meth:`checkpoints`.
        """
        for found in self.checkpoints():
            return found
        return None

    def checkpoint_seqs(self) -> Iterator[int]:
        """The checkpoints' entry numbers, newest first, read through their index as they are
        asked for (a caller that stops at the newest reads one)."""
        cursor = self.conn.execute("SELECT seq FROM entries WHERE kind = 'checkpoint' "
                                   "ORDER BY seq DESC")
        while (row := cursor.fetchone()) is not None:
            yield int(row[0])

    def checkpoint(self, seq: int) -> tuple[int, dict[str, Any], TableState]:
        """The checkpoint at entry ``seq``: its body (its ``state`` loaded) and the state.

        Raises ValueError or KeyError if it cannot be read.
        """
        entry = self.entry(seq)
        if entry is None or entry.kind != EntryKind.CHECKPOINT.value:
            raise KeyError(f"entries row {seq} is not a checkpoint")
        body, state = checkpoint_data(entry)
        return seq, body, state

    def checkpoints(self) -> Iterator[tuple[int, dict[str, Any], TableState]]:
        """Checkpoints newest first, each read when it is reached (raises if unreadable)."""
        for seq in self.checkpoint_seqs():
            yield self.checkpoint(seq)

    def journal_after(self, seq: int) -> Iterator[dict[str, Any]]:
        """The commands after entry ``seq``, in order: what a restart replays.

        Each is ``{"seq", "round", "actor", "at", "command"}``, with ``"events"``
        when the entry is in the verbose format (which stored them). A body that
        cannot be read comes back as ``{"command": {}, "unreadable": …}`` so the
        replay reports it instead of failing.
        """
        for e in self.entries(after=seq, kind=EntryKind.COMMAND):
            body = e.data()
            if "unreadable" in body or "command" not in body:
                body = {"command": {}, "unreadable": body.get("unreadable", "?")}
            yield {"seq": e.seq, "round": e.round, "actor": e.actor, "at": e.at, **body}

    def rounds(self, last: int | None = None, first: int | None = None) -> list[dict[str, Any]]:
        """Hand-ledger records with their events, oldest first (the ``last`` ones if given)."""
        if last is not None:
            rows = self.conn.execute(
                f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'round' "
                f"ORDER BY round DESC, seq DESC LIMIT ?", [int(last)]).fetchall()[::-1]
        else:
            rows = self.conn.execute(
                f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'round' AND round >= ? "
                f"ORDER BY round, seq", [first or 0]).fetchall()
        records = [self.record_of(entry_of(r, self.layouts)) for r in rows]
        return [r for r in records if "unreadable" not in r]  # an edited row: verify names it

    def audit_trail(self, span: Span | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
        """Hand-ledger records and event-log entries in chain order, read in chunks.

        Each item is ``("round", record with its events)`` or ``("event",
        entry)``. ``span`` limits them (see :class:`Span`); memory stays constant
        whatever the ledger's size, so an export of years of play streams.
        """
        span = span or Span()
        low, high = self._seq_bounds(span)
        # SQLite leaves out what is neither a round nor an event, and the compact entries
        # outside the times (their time is a number), before Python sees them; every entry
        # that comes through is still held against the times as the program shows them.
        sql = (f"SELECT {ENTRY_SELECT} FROM entries WHERE seq >= ? AND seq <= ? "
               f"AND kind IN ('round', 'event')")
        args: list[Any] = [low, high]
        if span.since is not None:
            sql += f" AND (format IS NOT {COMPACT} OR typeof(at) != 'integer' OR at >= ?)"
            args.append(micros(span.since))
        if span.before is not None:
            sql += f" AND (format IS NOT {COMPACT} OR typeof(at) != 'integer' OR at < ?)"
            args.append(micros(span.before))
        cursor = self.conn.execute(sql + " ORDER BY seq", args)
        layouts = self.layouts
        while rows := cursor.fetchmany(500):
            yield from self._trail(rows, layouts, span)

    def _trail(self, rows: list[Any], layouts: Layouts,
               span: Span) -> Iterator[tuple[str, dict[str, Any]]]:
        for row in rows:
            entry = entry_of(row, layouts)
            if (span.since is not None and entry.at < span.since) or \
                    (span.before is not None and entry.at >= span.before):
                continue
            if entry.kind == "event":
                yield "event", _logged(entry)
                continue
            record = self.record_of(entry)
            if "unreadable" not in record:  # an edited row: verify names it
                yield "round", record

    def record_of(self, entry: Entry) -> dict[str, Any]:
        """A round entry's record with its events (a verbose round's from its commands)."""
        record: dict[str, Any] = entry.data()
        if entry.format == COMPACT or "unreadable" in record:
            return record
        if "events" in record:  # a round migrated from a ledger that stored them twice
            return {k: v for k, v in record.items() if k != "legacy_hash"}
        commands = self.entries(after=int(record["opened_seq"]) - 1, until=entry.seq - 1,
                                kind=EntryKind.COMMAND)
        return {**record, "events": round_events_of(
            c.data() for c in commands if c.round == record["round"])}

    def event_log(self, kind: str | None = None) -> list[dict[str, Any]]:
        where, args = ("AND tag = ?", [kind]) if kind else ("", [])
        rows = self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'event' {where} "
            f"ORDER BY seq", args).fetchall()
        return [_logged(entry_of(r, self.layouts)) for r in rows]

    def last_events(self, kinds: tuple[str, ...], limit: int) -> list[dict[str, Any]]:
        """The newest ``limit`` event-log entries of these kinds, oldest first.

        Each kind is read backwards through the event log's index of kinds: the cost is
        the entries asked for, whatever the length of the log.
        """
        rows = sorted((row for kind in dict.fromkeys(kinds) for row in self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'event' AND tag = ? "
            f"ORDER BY seq DESC LIMIT ?", [kind, limit]).fetchall()),
            key=lambda row: int(row[0]))[-limit:] if limit > 0 else []
        return [_logged(entry_of(r, self.layouts)) for r in rows]

    def event_page(self, offset: int, limit: int) -> list[dict[str, Any]]:
        """``limit`` event-log entries, newest first, after skipping the newest ``offset``.

        Read through the event log's own index: a page costs its own rows,
        whatever the length of the log.
        """
        rows = self.conn.execute(
            f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'event' "
            f"ORDER BY seq DESC LIMIT ? OFFSET ?", [limit, offset]).fetchall()
        return [_logged(entry_of(r, self.layouts)) for r in rows]

    # --- helpers ----------------------------------------------------------------------------

    def _seq_bounds(self, span: Span) -> tuple[int, int]:
        """The entries a span of rounds covers: from the first round's opening to the last's record.

        An empty range comes back as ``(1, 0)``.
        """
        low, high = 1, self._head_seq
        if span.first_round is not None:
            row = self.conn.execute(
                f"SELECT {ENTRY_SELECT} FROM entries WHERE kind = 'round' AND round >= ? "
                f"ORDER BY round LIMIT 1", [span.first_round]).fetchone()
            if row is None:
                return 1, 0
            opened = entry_of(row, self.layouts).data().get("opened_seq")
            low = opened if isinstance(opened, int) else 1
        if span.last_round is not None:
            row = self.conn.execute(
                "SELECT seq FROM entries WHERE kind = 'round' AND round <= ? "
                "ORDER BY round DESC LIMIT 1", [span.last_round]).fetchone()
            if row is None:
                return 1, 0
            high = int(row[0])
        return low, high


def round_events_of(commands: Any) -> list[dict[str, Any]]:
    """A verbose round's events from its command bodies: credits in and out are in the log."""
    return [e for body in commands for e in body.get("events", ())
            if e["type"] not in ("CreditsIn", "CreditsOut")]


def _logged(entry: Entry) -> dict[str, Any]:
    return {"id": entry.seq, "at": entry.at, "kind": entry.tag, "actor": entry.actor,
            "details": entry.data()}
