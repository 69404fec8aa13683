"""Exports of the ledger for audit: the whole record as JSON Lines (or JSON), the settlements
as CSV.

JSON Lines is the complete evidence: every hand-ledger record (with its events)
and event-log entry exactly as stored, in chain order, one per line, so an
auditor can recompute the meters from the file alone and a tool can read it a
line at a time. CSV is what a spreadsheet needs: one row per settled wager or
award, money in integer cents so that the sums are exact. Every writer here is
a generator: an export streams, whatever the ledger's size.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from etg.core.events import (
    EnvyBonus,
    Event,
    HandPaid,
    PayoutHandMade,
    ProgressiveAwarded,
    RoundVoided,
    WagerSettled,
    WagerVoided,
)
from etg.core.jackpot import validator_words
from etg.core.settle import Result, WagerKind
from etg.ledger.meters import round_events

CSV_COLUMNS = ("round", "outcome", "ended_at", "paytable", "seat", "spot", "kind", "result",
               "stake_cents", "paid_cents", "capped_cents", "detail", "dealer")
"""The CSV header. ``detail`` names the hand, level or holder behind a payment; ``dealer``
is who dealt the round (MD Ch. 8 E(4); empty before dealers signed in)."""

HAND_PAY_KIND = "hand_pay"
"""The ``kind`` of a jackpot the attendant paid by hand (MD Ch. 9 J(4)): ``paid_cents`` is
what left the house by hand, not through the credits."""

VOID_KIND = "void"
"""The ``kind`` of a voided round's row per seat: what the void credited back."""


def export_json(records: Iterable[dict[str, Any]], entries: Iterable[dict[str, Any]]) -> str:
    """``{"rounds": [...], "event_log": [...]}``, the records and entries as stored."""
    return "".join(json_chunks(records, entries))


def json_chunks(records: Iterable[dict[str, Any]],
                entries: Iterable[dict[str, Any]]) -> Iterator[str]:
    """:func:`export_json`'s text piece by piece: one record or entry in memory at a time.

    The pieces join to exactly ``json.dumps({"rounds": ..., "event_log": ...}, indent=2)``.
    """
    yield "{\n"
    for name, items, last in (("rounds", records, False), ("event_log", entries, True)):
        yield f'  "{name}": ['
        first = True
        for item in items:
            body = json.dumps(item, indent=2, ensure_ascii=False).replace("\n", "\n    ")
            yield ("\n    " if first else ",\n    ") + body
            first = False
        yield ("]" if first else "\n  ]") + ("\n" if last else ",\n")
    yield "}"


def jsonl_lines(trail: Iterable[tuple[str, dict[str, Any]]]) -> Iterator[str]:
    """JSON Lines: one line per round record or event-log entry, in chain order.

    Each object carries ``"type": "round"`` or ``"type": "event"`` first, then the
    record or entry exactly as stored (a round with its events).
    """
    for kind, item in trail:
        yield json.dumps({"type": kind, **item}, ensure_ascii=False,
                         separators=(",", ":")) + "\n"


def export_csv(records: Iterable[dict[str, Any]]) -> str:
    """:func:`csv_lines` joined."""
    return "".join(csv_lines(records))


def csv_lines(records: Iterable[dict[str, Any]]) -> Iterator[str]:
    """One row per settled wager and award, in the order they were paid, after a header.

    A progressive award is its own row (kind ``progressive``, detail the meter's
    level) after the wager that won it, and an Envy Bonus likewise (kind
    ``envy_bonus``, detail the hand and who held it). A voided round keeps the
    rows of what was settled before the void, then one ``void`` row per seat
    with the amount the void credited back (negative when it took back a win
    already paid), so that the seat's credits reconcile. A single wager voided
    by a supervisor is a row of its own (result ``voided``, its stake paid back), and so
    is a jackpot paid by hand (kind ``hand_pay``).
    Lines end in ``\\n``; the text comes a round at a time.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    yield _drain(out)
    for record in records:
        prefix = [record["round"], record["outcome"], record["ended_at"], record["paytable"]["id"]]
        dealer = [record.get("dealer") or ""]
        for row in _rows(round_events(record)):
            writer.writerow(prefix + row + dealer)
        yield _drain(out)


def _drain(buffer: io.StringIO) -> str:
    text = buffer.getvalue()
    buffer.seek(0)
    buffer.truncate()
    return text


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
            case WagerVoided(seat=seat, spot=spot, wagers=wagers, target=target):
                # A single-wager void (MD Ch. 11 C): each wager's whole stake back, unsettled.
                rows += [[seat, spot, p.kind.value, Result.VOIDED.value, p.stake, p.stake, 0,
                          f"voided ({target.value})"] for p in wagers]
            case HandPaid(seat=seat, spot=spot, kind=kind, amount=amount, validator=who,
                          role=role):
                rows.append([seat, spot, HAND_PAY_KIND, Result.WON.value, 0, amount, 0,
                             f"{kind.value} paid by the attendant, validated by "
                             f"{validator_words(who, role)}"])
            case RoundVoided(refunds=refunds):
                rows += [[seat, 0, VOID_KIND, Result.VOIDED.value, 0, refund, 0, ""]
                         for seat, refund in enumerate(refunds, start=1) if refund]
            case _:
                pass
    return rows


_EXPLAINED = frozenset({WagerKind.PROGRESSIVE_PAYOUT, WagerKind.PROGRESSIVE,
                        WagerKind.ENVY_BONUS})
