"""The ledger file's schema against the one this program makes (issue 25, finding 1).

A technician with a shell can add to the file what no checksum of the rows
shows: a trigger that skims the meters as rounds are written, a ``BEFORE
INSERT … RAISE(IGNORE)`` trigger that silently drops round records, a view or
an index that changes what a reader sees, a table to keep things aside. So the
whole of ``sqlite_master`` — every table, index, trigger and view — is compared
with what this program's own migrations make on an empty database
(:func:`expected_objects`, made once per process). The expected set is *derived*
from the migrations, never kept as a list beside them, so a new migration is
covered the day it is written. An object that is not there, one that should be
there and is not, and one whose SQL differs are each a problem (start-up tilts
on it; ``etg ledger verify``, quick or full, reports it), naming the object.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from dataclasses import dataclass

from sqlite_utils import Database

from etg.ledger.schema import migrate
from etg.ledger.terms import LedgerKind, Problem

__all__ = ["SchemaObject", "check_objects", "expected_objects", "objects_of"]


@dataclass(frozen=True, order=True)
class SchemaObject:
    """One row of ``sqlite_master``: its type, name, table and SQL (spaces and quotes evened)."""

    type: str
    name: str
    table: str
    sql: str | None

    def describe(self) -> str:
        on = f" on {self.table}" if self.table != self.name else ""
        return f"{self.type} {self.name}{on}"


def objects_of(conn: sqlite3.Connection) -> dict[str, SchemaObject]:
    """Every object of the file's ``sqlite_master``, by name."""
    return {str(name): SchemaObject(str(type_), str(name), str(table), _even(sql))
            for type_, name, table, sql in conn.execute(
                "SELECT type, name, tbl_name, sql FROM main.sqlite_master")}


@functools.cache
def expected_objects() -> dict[str, SchemaObject]:
    """What this program's migrations make of an empty database (an in-memory one)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(Database(conn), kind=LedgerKind.TEST, rng="", fresh=True)
        return objects_of(conn)
    finally:
        conn.close()


def check_objects(conn: sqlite3.Connection) -> list[Problem]:
    """Each object of the file that the program did not make, lacks, or made otherwise."""
    have, want = objects_of(conn), expected_objects()
    problems = []
    for name in sorted(set(have) | set(want)):
        found, made = have.get(name), want.get(name)
        if made is None and found is not None:
            problems.append(Problem("schema", f"{found.describe()} is not one this program "
                                              f"made (sqlite_master: {found.sql or 'no SQL'})"))
        elif found is None and made is not None:
            problems.append(Problem("schema", f"{made.describe()} is missing from "
                                              f"sqlite_master (the program made it)"))
        elif found != made and found is not None:
            problems.append(Problem("schema", f"{found.describe()} differs from the one this "
                                              f"program made (sqlite_master: "
                                              f"{found.sql or 'no SQL'})"))
    return problems


def _even(sql: str | None) -> str | None:
    """The SQL with runs of white space made one space and identifiers' quotes left out: the
    same object written by another SQLite (a renamed table gets its name quoted) compares
    equal, anything else about it does not."""
    if sql is None:
        return None
    return re.sub(r"\s+", " ", sql.replace('"', "")).strip()
