"""The table's outbox: its linked contributions, committed in its own ledger before shipping.

A round's wagers feeding a linked level (the engine's ``LinkedContributed`` events
at No More Bets) are written as one event-log entry of kind ``link_contribution``
in the same transaction as the command that made them: write before show, and
before ship. The entry's details are::

    {"round": 12, "rows": [[seat, level, wager_cents], ...]}

The link (:mod:`etg.floor.link`) reads these entries after the last one the
controller acknowledged (the ledger setting ``link_acked_seq``, an entry number)
and ships them keyed by (table, round, seat, level), so a retry after a crash,
a cut link or a restart counts once. The same entries are what reconciliation
compares with the controller's rows, round by round (:func:`ledger_contributions`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from etg.core.events import Event, LinkedContributed
from etg.core.paytable import ProgressiveLevel
from etg.ledger.entry import EntryKind
from etg.ledger.reads import LedgerReads

OUTBOX_KIND = "link_contribution"
"""The event-log kind of an outbox entry."""

ACKED_SETTING = "link_acked_seq"
"""The ledger setting: the last outbox entry the controller acknowledged (an entry number)."""

TABLE_SETTING = "link_table_id"
"""The ledger setting: the table's name on the floor (``link.table_id`` of cabinet.yaml)."""


@dataclass(frozen=True, slots=True, order=True)
class OutboxRow:
    """One seat's wagers feeding one linked level in one round: the controller's key and amount."""

    round: int
    seat: int
    level: ProgressiveLevel
    wager_cents: int

    @property
    def key(self) -> tuple[int, int, str]:
        """(round, seat, level): what the controller keys a contribution by, with the table."""
        return self.round, self.seat, self.level.value

    def shipped(self) -> dict[str, Any]:
        """The row as ``floor.ship`` takes it in its batch."""
        return {"round": self.round, "seat": self.seat, "level": self.level.value,
                "wager_cents": self.wager_cents}


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """An outbox entry of the ledger: its entry number and its rows."""

    seq: int
    rows: tuple[OutboxRow, ...]


def rows_of(round_number: int, events: Iterable[Event]) -> list[OutboxRow]:
    """The outbox rows a command's events make (its ``LinkedContributed``), in order."""
    return [OutboxRow(round_number, e.seat, e.level, e.wager_cents)
            for e in events if isinstance(e, LinkedContributed)]


def entry_details(rows: list[OutboxRow]) -> dict[str, Any]:
    """The event-log details of one command's rows (all of one round)."""
    rounds = {row.round for row in rows}
    if len(rounds) != 1:
        raise ValueError(f"an outbox entry holds one round's rows, not rounds {sorted(rounds)}")
    return {"round": rows[0].round,
            "rows": [[row.seat, row.level.value, row.wager_cents] for row in rows]}


def rows_in(details: dict[str, Any]) -> tuple[OutboxRow, ...]:
    """The rows of an outbox entry's details."""
    number = int(details["round"])
    return tuple(OutboxRow(number, int(seat), ProgressiveLevel(level), int(cents))
                 for seat, level, cents in details["rows"])


def read_outbox(ledger: LedgerReads, after_seq: int = 0) -> Iterator[OutboxEntry]:
    """The outbox entries after entry ``after_seq``, in chain order."""
    for entry in ledger.entries(after=after_seq, kind=EntryKind.EVENT):
        if entry.tag == OUTBOX_KIND:
            yield OutboxEntry(entry.seq, rows_in(entry.data()))


def ledger_contributions(ledger: LedgerReads) -> list[OutboxRow]:
    """Every linked contribution the table's ledger recorded, in chain order (reconciliation)."""
    return [row for entry in read_outbox(ledger) for row in entry.rows]
