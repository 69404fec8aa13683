"""The words every part of the ledger shares: its error, its kinds, an audit's problem and span.

With the time an entry is written at, and an SQLite failure put in an operator's
words. A leaf: it imports nothing of the ledger, so every ledger module can use it.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum

__all__ = ["LedgerError", "LedgerKind", "Problem", "Span", "describe", "now"]


class LedgerError(RuntimeError):
    """The file cannot be used as a ledger; the message says why. Nothing was written."""


class LedgerKind(Enum):
    """What a ledger's money is (SPEC §5): the real kiosk never plays on a demo or test ledger."""

    REAL = "real"
    DEMO = "demo"  # etg run --demo: bots, DEMO on screen
    TEST = "test"  # etg autoplay and the tests


def now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True)
class Problem:
    """One integrity failure: what is wrong, in words an operator can act on."""

    check: str  # quick_check, chain, anchor, meters, credits, progressive, paytable, ...
    message: str


@dataclass(frozen=True)
class Span:
    """Part of the ledger for an audit: rounds ``first_round``..``last_round`` (inclusive),
    entries written at or after ``since`` and before ``before`` (ISO 8601 UTC text, as the
    ledger shows times); ``None`` leaves that side open."""

    first_round: int | None = None
    last_round: int | None = None
    since: str | None = None
    before: str | None = None


def describe(error: sqlite3.Error) -> str:
    """An SQLite failure in an operator's words."""
    text = str(error)
    lowered = text.lower()
    if "full" in lowered:
        return f"the disk is full ({text})"
    if "readonly" in lowered or "read-only" in lowered:
        return f"the ledger cannot be written: the file or its folder is read-only ({text})"
    if "locked" in lowered or "busy" in lowered:
        return f"the ledger is locked by another connection ({text})"
    if "malformed" in lowered or "not a database" in lowered or "corrupt" in lowered:
        return f"the ledger file is damaged ({text})"
    if "unable to open" in lowered:
        return f"the ledger cannot be opened ({text})"
    return f"the ledger failed ({type(error).__name__}: {text})"
