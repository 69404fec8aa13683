"""The back office's changes to a floor: its levels, its tables and their roles, signed changes.

Everything here connects as the server's superuser (or a role with CREATEROLE that
is a member of ``floor_admin``): making a table's login role needs it. The
changes themselves go through the schema's admin functions, so they are logged
and notified in one place (etg/floor/sql).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from etg.core.paytable import Meter, Paytable, ProgressiveLevel
from etg.floor import schema
from etg.floor.errors import refusal

TABLE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
"""A table's id on the floor, as ``link.table_id`` of ``cabinet.yaml`` (etg.config.cabinet)."""


@dataclass(frozen=True, slots=True)
class LevelRules:
    """A linked level's parameters, in cents and millionths as a paytable's ``Meter``."""

    level: ProgressiveLevel
    initial_cents: int
    reset_cents: int
    rate_millionths: int
    ceiling_cents: int | None = None
    reserve_cap_cents: int | None = None  # None: the reserve has no cap (as a local meter)
    paytable: str = ""

    @classmethod
    def of(cls, level: ProgressiveLevel, meter: Meter, paytable: str = "") -> LevelRules:
        return cls(level, meter.initial_cents, meter.reset_cents, meter.rate_millionths,
                   meter.ceiling_cents, None, paytable)


@dataclass(frozen=True, slots=True)
class TableLogin:
    """A table's PostgreSQL role and password: what its ``cabinet.yaml`` link needs."""

    table_id: str
    role: str
    password: str


def levels_from_paytable(paytable: Paytable, linked: Iterable[ProgressiveLevel],
                         name: str = "") -> list[LevelRules]:
    """The rules of each ``linked`` meter of ``paytable``; ValueError naming one it lacks."""
    rules = []
    for level in linked:
        meter = paytable.meter(level)
        if meter is None:
            raise ValueError(f"paytable {name or paytable.id!r} has no {level.value} meter")
        rules.append(LevelRules.of(level, meter, name or paytable.id))
    return rules


def login_uri(base_uri: str, login: TableLogin, *, host: str | None = None,
              port: int | None = None) -> str:
    """The URI a table (or the pages) connects with: ``base_uri``'s server and database with
    the login's role and password; ``host``/``port`` where the tables reach the server by
    another way than the back office (a socket here, TCP for them)."""
    info = conninfo_to_dict(base_uri)
    where = str(host or info.get("host") or "")
    number = port or info.get("port")
    database = quote(str(info.get("dbname") or "postgres"), safe="")
    who = f"{quote(login.role, safe='')}:{quote(login.password, safe='')}"
    if where.startswith("/") or not where:
        query = urlencode({key: value for key, value in (("host", where), ("port", number))
                           if value})
        return f"postgresql://{who}@/{database}" + (f"?{query}" if query else "")
    return f"postgresql://{who}@{where}{f':{number}' if number else ''}/{database}"


def table_role(conn: psycopg.Connection[Any], table_id: str) -> str:
    """A table's login role: the database's name and the table's id, so that two floors on
    one server (or the tests' databases) never share a role."""
    database = conn.info.dbname
    return f"{database}.{table_id}"


def add_level(conn: psycopg.Connection[Any], rules: LevelRules) -> None:
    with refusal():
        conn.execute("SELECT floor.add_level(%s, %s, %s, %s, %s, %s, %s)",
                     (rules.level.value, rules.initial_cents, rules.reset_cents,
                      rules.rate_millionths, rules.ceiling_cents, rules.reserve_cap_cents,
                      rules.paytable))


def add_table(conn: psycopg.Connection[Any], table_id: str, levels: Sequence[ProgressiveLevel],
              *, asset_number: str = "", password: str | None = None) -> TableLogin:
    """Register a table and make its login role, a member of ``floor_table`` only."""
    if not TABLE_ID.fullmatch(table_id):
        raise ValueError(f"table id {table_id!r}: 1 to 32 lower-case letters, digits, - and _, "
                         f"starting with a letter or digit")
    role = table_role(conn, table_id)
    password = password or secrets.token_urlsafe(18)
    with conn.transaction(), refusal():
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} IN ROLE {}").format(
            sql.Identifier(role), sql.Literal(password), sql.Identifier(schema.TABLES)))
        conn.execute("SELECT floor.register_table(%s, %s, %s, %s)",
                     (table_id, role, asset_number, [level.value for level in levels]))
    return TableLogin(table_id, role, password)


def reader_login(conn: psycopg.Connection[Any], password: str | None = None) -> TableLogin:
    """A login role of ``floor_reader`` for the web pages: it may SELECT the views, nothing
    else. Made once per database; a second call sets a new password."""
    role = f"{conn.info.dbname}.reader"
    password = password or secrets.token_urlsafe(18)
    exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    verb = "ALTER" if exists else "CREATE"
    conn.execute(sql.SQL(verb + " ROLE {} LOGIN PASSWORD {}").format(
        sql.Identifier(role), sql.Literal(password)))
    conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(schema.READER),
                                                   sql.Identifier(role)))
    return TableLogin("reader", role, password)


def init_floor(conn: psycopg.Connection[Any], levels: Sequence[LevelRules],
               tables: Sequence[tuple[str, str]],
               passwords: dict[str, str] | None = None) -> list[TableLogin]:
    """Migrate, add the levels missing and the ``(table_id, asset_number)`` tables missing,
    each linking every level; the new tables' logins."""
    schema.migrate(conn)
    have = {row[0] for row in conn.execute("SELECT level FROM floor.levels")}
    for rules in levels:
        if rules.level.value not in have:
            add_level(conn, rules)
    known = {row[0] for row in conn.execute("SELECT table_id FROM floor.tables")}
    linked = [rules.level for rules in levels]
    return [add_table(conn, table_id, linked, asset_number=asset,
                      password=(passwords or {}).get(table_id))
            for table_id, asset in tables if table_id not in known]


def set_level(conn: psycopg.Connection[Any], rules: LevelRules, *, supervisor: str,
              reason: str) -> dict[str, Any]:
    """New parameters for a level, signed: refused (FloorRefusal) while tables are open."""
    with refusal():
        row = conn.execute("SELECT floor.set_level(%s, %s, %s, %s, %s, %s, %s, %s)",
                           (rules.level.value, rules.initial_cents, rules.reset_cents,
                            rules.rate_millionths, rules.ceiling_cents,
                            rules.reserve_cap_cents, supervisor, reason)).fetchone()
    return _object(row)


def adjust_meter(conn: psycopg.Connection[Any], level: ProgressiveLevel, new_cents: int, *,
                 supervisor: str, reason: str) -> dict[str, Any]:
    """Set a meter by hand, signed and logged: besides a hit, the only way it goes down."""
    with refusal():
        row = conn.execute("SELECT floor.adjust_meter(%s, %s, %s, %s)",
                           (level.value, new_cents, supervisor, reason)).fetchone()
    return _object(row)


def _object(row: Any) -> dict[str, Any]:
    value = row[0] if row else {}
    return json.loads(value) if isinstance(value, str) else dict(value)
