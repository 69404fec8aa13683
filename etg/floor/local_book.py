"""What a linked table's own ledger recorded for the link, read for ``etg floor reconcile``.

The table's side (:mod:`etg.floor.outbox`) commits each linked round's contributions
to the table's SQLite ledger with the command that makes them (write before show),
then ships them; the controller's confirmed hits are journaled there too. Both are
entries of the ledger's own chain, signed like the rest of it:

- ``link_contribution`` event-log entries: ``{"round", "rows": [[seat, level,
  wager_cents], ...]}``, every contribution, shipped or not (acknowledged up to the
  entry named by the setting ``link_acked_seq``);
- ``linked_hit`` event-log entries: the amount the controller confirmed for a hit of
  the table (``round``, ``seat``, ``spot``, ``level``, ``amount``, ``hit_id``, ...);
- ``void`` event-log entries: each round the table voided (``round``, ``reason``; MD
  Ch. 11 D), linked or not;
- the setting ``link_table_id``: the table's name on the floor.

The ledger is opened read-only: reconciling never writes a ledger and works beside a
running kiosk.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from etg.floor.functions import Contribution
from etg.floor.outbox import TABLE_SETTING, ledger_contributions
from etg.floor.reconcile import LocalBook, LocalHit
from etg.ledger.store import Ledger, LedgerError

HIT_KIND = "linked_hit"
"""The event-log kind of a linked hit's confirmed amount (written by etg.table.bookkeeper)."""
VOID_KIND = "void"
"""The event-log kind of a voided round (written by etg.table.bookkeeper with the void)."""


class LocalBookError(Exception):
    """The ledger cannot be read as a linked table's: the message says why, in one line."""


def read_local_book(ledger: Path) -> LocalBook:
    """The linked contributions, hits and voided rounds recorded in ``ledger``, all of one
    table."""
    if not ledger.is_file():
        raise LocalBookError(f"{ledger}: no such ledger")
    try:
        opened = Ledger.open_readonly(ledger)
    except LedgerError as error:
        raise LocalBookError(f"{ledger}: cannot open: {error}") from None
    try:
        with opened.reading():
            table_id = opened.setting(TABLE_SETTING)
            if table_id is None:
                raise LocalBookError(f"{ledger}: not a linked table's ledger (no "
                                     f"{TABLE_SETTING} setting)")
            contributions = tuple(Contribution(row.round, row.seat, row.level.value,
                                               row.wager_cents)
                                  for row in ledger_contributions(opened))
            hits = tuple(_hit(e["details"]) for e in opened.event_log(HIT_KIND))
            voided = tuple(int(e["details"]["round"]) for e in opened.event_log(VOID_KIND))
    except (LedgerError, ValueError, KeyError) as error:
        raise LocalBookError(f"{ledger}: cannot read its outbox: {error}") from None
    finally:
        opened.close()
    return LocalBook(table_id, contributions, hits, voided)


def _hit(details: dict[str, Any]) -> LocalHit:
    """A ``linked_hit`` entry: the ConfirmLinkedHit the table paid, keyed as the controller's."""
    return LocalHit(int(details["round"]), int(details["seat"]), int(details["spot"]),
                    str(details["level"]), int(details["amount"]))
