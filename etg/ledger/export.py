"""Exports of the ledger for audit: the whole record as JSON, the settlements as CSV.

JSON is the complete evidence: every hand ledger record and event log entry
exactly as stored, so an auditor can recompute the hash chain and the meters
from the file alone. CSV is what a spreadsheet needs: one row per settled
wager or award, money in integer cents so that the sums are exact.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from etg.core.events import (
    EnvyBonus,
    Event,
    PayoutHandMade,
    ProgressiveAwarded,
    RoundVoided,
    WagerSettled,
)
from etg.core.settle import Result, WagerKind
from etg.ledger.meters import round_events

CSV_COLUMNS = ("round", "outcome", "ended_at", "paytable", "seat", "spot", "kind", "result",
               "stake_cents", "paid_cents", "capped_cents", "detail")
"""The CSV header. ``detail`` names the hand, level or holder behind a payment."""

VOID_KIND = "void"
"""The ``kind`` of a voided round's row per seat: what the void credited back."""


def export_json(records: Iterable[dict[str, Any]], entries: Iterable[dict[str, Any]]) -> str:
    """``{"rounds": [...], "event_log": [...]}``, the records and entries as stored."""
    document = {"rounds": list(records), "event_log": list(entries)}
    return json.dumps(document, indent=2, ensure_ascii=False)


def export_csv(records: Iterable[dict[str, Any]]) -> str:
    """One row per settled wager and award, in the order they were paid, after a header.

    A progressive award is its own row (kind ``progressive``, detail the meter's
    level) after the wager that won it, and an Envy Bonus likewise (kind
    ``envy_bonus``, detail the hand and who held it). A voided round keeps the
    rows of what was settled before the void, then one ``void`` row per seat
    with the amount the void credited back (negative when it took back a win
    already paid), so that the seat's credits reconcile. Lines end in ``\\n``.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for record in records:
        prefix = [record["round"], record["outcome"], record["ended_at"], record["paytable"]["id"]]
        for row in _rows(round_events(record)):
            writer.writerow(prefix + row)
    return out.getvalue()


def _rows(events: list[Event]) -> list[list[Any]]:
    """The CSV cells after the round's own, for each payment in ``events``.

    The engine emits a PayoutHandMade, ProgressiveAwarded or EnvyBonus just
    before the payment it explains, so each one is kept until that payment.
    """
    rows: list[list[Any]] = []
    detail = ""
    for event in events:
        match event:
            case PayoutHandMade(hand=hand):
                detail = hand.value
            case ProgressiveAwarded(level=level):
                detail = level.value
            case EnvyBonus(holder_seat=holder, holder_spot=spot, hand=hand):
                detail = f"{hand.value} held by seat {holder} on spot {spot}"
            case WagerSettled(seat=seat, spot=spot, payment=p, paid=paid, capped=capped):
                explained = p.result is Result.WON and p.kind in _EXPLAINED
                rows.append([seat, spot, p.kind.value, p.result.value, p.stake, paid, capped,
                             detail if explained else ""])
                detail = ""
            case RoundVoided(refunds=refunds):
                rows += [[seat, 0, VOID_KIND, Result.VOIDED.value, 0, refund, 0, ""]
                         for seat, refund in enumerate(refunds, start=1) if refund]
            case _:
                pass
    return rows


_EXPLAINED = frozenset({WagerKind.PROGRESSIVE_PAYOUT, WagerKind.PROGRESSIVE,
                        WagerKind.ENVY_BONUS})
