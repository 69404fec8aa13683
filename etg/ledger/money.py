"""A round's summary: the figures of its events that an audit adds up, stored with its record.

``etg ledger verify --full`` recomputes a year of play in seconds because it
adds up each round's summary — the seats' net, the progressive meters' flows
and the meters the round counted — instead of decoding every event of every
round. The summary is made from the events by the same functions when the round
is written, and the deep check (``verify --events``, and start-up for the rounds
after the newest checkpoint) makes it again from the stored events and compares.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

CONTRIBUTED, AWARDED = "contributed", "awarded"
"""The progressive flows of a round, in order: ``[contributed, level, to_meter, to_reserve,
meter after]`` and ``[awarded, level, meter before, amount, seeded, from_reserve, meter
after]``, the figures of its ``ProgressiveContributed`` and ``ProgressiveAwarded`` events."""


def summarize(record: dict[str, Any], meters: Counter[tuple[int, str]]) -> dict[str, Any]:
    """The summary of a finished round from its events (JSON form) and the meters it counted:
    ``net`` (each seat's result, None for a void), ``progressive`` (the meters' flows,
    :data:`CONTRIBUTED`) and ``meters`` (each meter's values by seat, seat 0 the table)."""
    net: list[int] | None = None
    progressive: list[list[Any]] = []
    for event in record["events"]:
        kind = event["type"]
        if kind == "RoundComplete":
            net = list(event["net"])
        elif kind == "ProgressiveContributed":
            progressive.append([CONTRIBUTED, event["level"], event["to_meter"],
                                event["to_reserve"], event["meter"]])
        elif kind == "ProgressiveAwarded":
            progressive.append([AWARDED, event["level"], event["meter_before"], event["amount"],
                                event["seeded"], event["from_reserve"], event["meter_after"]])
    by_name: dict[str, list[int]] = {}
    for (seat, name), value in sorted(meters.items()):
        row = by_name.setdefault(name, [])
        row.extend([0] * (seat + 1 - len(row)))
        row[seat] = value
    return {"net": net, "progressive": progressive, "meters": by_name}


def settled_net(record: dict[str, Any], seats: int) -> list[int]:
    """Each seat's settled wagers added up (returned and paid, less the stakes)."""
    settled = [0] * seats
    for event in record["events"]:
        if event["type"] == "WagerSettled":
            settled[event["seat"] - 1] += event["paid"] - event["payment"]["stake"]
    return settled
