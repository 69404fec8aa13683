"""The books as the screens read them: the meters, the newest rounds and entries, a page of the
event log.

The screens never hold the ledger (SPEC §12: the UI draws state and sends
commands). What they show of its history comes through :class:`Books`
(``table.books``), and every read is bounded: the meters are one row per
meter, the rest costs the rows asked for, whatever the length of the history
(issue 11: an operator page opened on a ledger of years reads what it shows,
never a scan). Each read first waits for the ledger's writer, as
:attr:`Table.ledger <etg.table.controller.Table.ledger>` does, so it sees
every command and entry submitted before it.

The meter names, the progressive meters' labels and the reading of a round's
events are the ledger's own; they are named here too, so a screen needs
nothing of :mod:`etg.ledger`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from etg.ledger.meters import (
    ATTENDANT_PAID_JACKPOTS,
    ATTENDANT_PAID_JACKPOTS_AMOUNT,
    CASH_IN,
    CASH_OUT,
    DEALER_ROUNDS,
    DEALER_TIPS,
    DEFINITIONS,
    TABLE,
    Meters,
    dealer_meter,
    round_events,
)
from etg.ledger.recall import LEVEL_LABELS
from etg.ledger.store import Ledger

__all__ = [
    "ATTENDANT_PAID_JACKPOTS", "ATTENDANT_PAID_JACKPOTS_AMOUNT", "CASH_IN", "CASH_OUT",
    "DEALER_ROUNDS", "DEALER_TIPS", "DEFINITIONS", "LEVEL_LABELS", "TABLE", "Books", "Entry",
    "Meters", "RoundRecord", "dealer_meter", "round_events",
]

Entry = dict[str, Any]
"""An event-log entry as the ledger keeps it: ``id``, ``at`` (ISO 8601, UTC), ``kind``,
``actor`` and ``details``."""

RoundRecord = dict[str, Any]
"""A round of the hand ledger: its cards, wagers, credits before and after, and its events
(read them with :func:`round_events`)."""


class Books:
    """What a screen may read of the ledger; ``ledger()`` gives it once the writer is done."""

    def __init__(self, ledger: Callable[[], Ledger]) -> None:
        self._ledger = ledger

    def meters(self) -> dict[str, Meters]:
        """Every paytable's meters (and the cabinet's, under ``cabinet``) since the last RAM
        clear, by ``(seat, name)``; seat :data:`TABLE` is the whole table."""
        return self._ledger().meters()

    def round_count(self) -> int:
        """The last round in the hand ledger (rounds are numbered without gaps)."""
        return self._ledger().round_count()

    def rounds(self, *, last: int) -> list[RoundRecord]:
        """The ``last`` rounds of the hand ledger, oldest first."""
        return self._ledger().rounds(last=last)

    def last_events(self, kinds: tuple[str, ...], limit: int) -> list[Entry]:
        """The newest ``limit`` event-log entries of these kinds, oldest first."""
        return self._ledger().last_events(kinds, limit)

    def event_page(self, offset: int, limit: int) -> list[Entry]:
        """``limit`` event-log entries, newest first, after skipping the newest ``offset``."""
        return self._ledger().event_page(offset, limit)
