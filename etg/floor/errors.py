"""The controller's refusals: the SQLSTATEs of its own that etg/floor/sql raises, as Python.

A refusal is the controller saying no to a well-formed request (a chain that went
backwards, a role acting for another table, a level change while tables are open);
it is not a fault of the link. The table's side tilts on ``CHAIN_BACKWARDS`` and
shows the others; a broken connection stays psycopg's ``OperationalError``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from enum import Enum

import psycopg


class Refused(Enum):
    """The controller's SQLSTATEs (class ``ETG``, chosen to clash with none of PostgreSQL's)."""

    CHAIN_BACKWARDS = "ETG01"  # the table's chain head or round count went backwards
    BAD_REQUEST = "ETG02"  # malformed, or a retry that differs from what was recorded
    NOT_LINKED = "ETG03"  # the table does not link that level, or no such level
    NOT_YOURS = "ETG04"  # no such table, or the role is not that table's
    TABLES_OPEN = "ETG05"  # a level change while a table of the link is open
    METER_GUARD = "ETG06"  # a meter lowered other than by a hit or a signed adjustment


class FloorRefusal(Exception):
    """The controller refused; ``reason`` says which refusal, the message what it said."""

    def __init__(self, reason: Refused, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def refused(error: psycopg.Error) -> FloorRefusal | None:
    """The refusal ``error`` carries, or None for any other database error."""
    try:
        reason = Refused(error.sqlstate or "")
    except ValueError:
        return None
    primary = error.diag.message_primary or str(error)
    return FloorRefusal(reason, primary)


@contextlib.contextmanager
def refusal() -> Iterator[None]:
    """Turn the controller's refusals raised inside into :class:`FloorRefusal`."""
    try:
        yield
    except psycopg.Error as error:
        mapped = refused(error)
        if mapped is None:
            raise
        raise mapped from error
