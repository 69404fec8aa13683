"""What a verification checked, and when the whole history was last verified (finding 10).

Issue 25, finding 10: with a row before the newest checkpoint edited, quick
``etg ledger verify`` printed "10 rounds, clean", though it had checked only the
rounds since the newest checkpoint. :func:`checked_scope` says which rounds a quick
or full verification covers and when the whole history was last verified: by the
newest completed background pass (:mod:`etg.ledger.reverify`), whose ``reverified``
entry is in the chain (:data:`KIND`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from etg.ledger.history import LedgerHistory

__all__ = ["KIND", "Scope", "checked_scope", "last_complete", "last_record"]

KIND = "reverified"
"""The event-log entry that records how far a background pass has come."""


@dataclass(frozen=True)
class Scope:
    """Rounds ``first``..``last`` checked (none when ``first > last``) from the checkpoint at
    entries row ``checkpoint_seq`` written at ``checkpoint_at`` (None: from the first entry);
    the whole history last verified at ``verified_at`` through entries row ``verified_through``
    (None: never, by a background pass)."""

    first: int
    last: int
    checkpoint_seq: int | None
    checkpoint_at: str | None
    verified_at: str | None
    verified_through: int | None
    verified_problems: int = 0  # what that pass found (each a tilt at the time)

    def rounds(self) -> str:
        """The rounds checked, in words."""
        if self.first > self.last:
            return "no rounds"
        if self.first == self.last:
            return f"round {self.first:,}"
        return f"rounds {self.first:,}–{self.last:,}"

    def whole_history(self) -> str:
        """When the whole history was last verified, in words."""
        if self.verified_at is None:
            return ("has not been verified in the background yet (etg ledger verify --full "
                    "verifies it now)")
        found = (f", {self.verified_problems} problems found, each a tilt"
                 if self.verified_problems else "")
        return (f"was last verified at {self.verified_at} (entries 1–{self.verified_through:,}"
                f"{found})")


def checked_scope(ledger: LedgerHistory, full: bool) -> Scope:
    """What ``verify(ledger, full=full)`` checks: from the newest checkpoint (quick) or from
    the first round the file holds (full), to the last round."""
    last = ledger.round_count()
    completed = last_complete(ledger)
    verified_at = None if completed is None else str(completed["at"])
    through = None if completed is None else int(completed["through"])
    found = 0 if completed is None else int(completed.get("problems", 0))
    newest = ledger.conn.execute("SELECT max(seq) FROM entries WHERE kind = 'checkpoint'"
                                 ).fetchone()[0]
    if full or newest is None:
        row = ledger.conn.execute("SELECT min(round) FROM entries WHERE kind = 'round'"
                                  ).fetchone()
        first = last + 1 if row[0] is None else int(row[0])
        return Scope(first, last, None, None, verified_at, through, found)
    entry = ledger.entry(int(newest))
    assert entry is not None
    body = entry.data()
    rounds = int(body["rounds"]) if isinstance(body, dict) and "rounds" in body else 0
    return Scope(rounds + 1, last, entry.seq, entry.at, verified_at, through, found)


def last_record(ledger: LedgerHistory) -> dict[str, Any] | None:
    """The newest ``reverified`` entry (its details, with its ``id`` and ``at``), or None."""
    found = ledger.last_events((KIND,), 1)
    if not found:
        return None
    return {**found[0]["details"], "id": found[0]["id"], "at": found[0]["at"]}


def last_complete(ledger: LedgerHistory) -> dict[str, Any] | None:
    """The newest record of a pass that reached its end: the whole history up to its
    ``through`` was verified between its ``started_at`` and its ``at``."""
    for entry in reversed(ledger.last_events((KIND,), 100)):
        if entry["details"].get("complete"):
            return {**entry["details"], "id": entry["id"], "at": entry["at"]}
    return None
