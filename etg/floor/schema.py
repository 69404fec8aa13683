"""The floor's schema and its migrations, and the group roles its rights are granted to.

Migrations are the numbered SQL files of ``etg/floor/sql`` (package data), each
applied once, in order, in its own transaction, and recorded in
``floor.versions``. They run as ``floor_owner``, a role that cannot log in and
owns every table, view and function of the schema: the SECURITY DEFINER
functions run with its rights, which are the schema's and nothing more (never a
superuser's).

Roles (cluster-wide, made once, shared by every floor database of the server):

- ``floor_owner``: owns the schema; nobody logs in as it.
- ``floor_table``: the group of the tables' login roles; may EXECUTE the table
  functions (ship, announce, claim_hit, validate_hit, heartbeat, void_round), and nothing
  else: no
  table of the schema is granted to it.
- ``floor_admin``: the back office; may EXECUTE the admin functions and read.
- ``floor_reader``: the web pages and any report; may SELECT the views only.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import psycopg
from psycopg import sql

OWNER, TABLES, ADMIN, READER = "floor_owner", "floor_table", "floor_admin", "floor_reader"

TABLE_FUNCTIONS = ("ship", "announce", "claim_hit", "validate_hit", "heartbeat", "void_round")
"""The functions of ``floor`` a table may call, by name: EXECUTE is granted on each signature the
migrations made of them, so a migration that replaces a signature (``claim_hit`` with its
spot, 006) has the grant follow it, and one that drops a signature leaves nothing granted on it."""
ADMIN_FUNCTIONS = (
    "floor.add_level(text, bigint, bigint, bigint, bigint, bigint, text)",
    "floor.register_table(text, text, text, text[])",
    "floor.set_level(text, bigint, bigint, bigint, bigint, bigint, text, text)",
    "floor.adjust_meter(text, bigint, text, text)",
)
VIEWS = ("floor.level_meters", "floor.table_status", "floor.table_contributions",
         "floor.last_hits")

_LOCK = 727_000_027  # pg_advisory_xact_lock key: one migration at a time per database


def migrations() -> list[tuple[int, str, str]]:
    """``(version, name, sql)`` of every shipped migration, in order."""
    found = []
    for entry in resources.files("etg.floor").joinpath("sql").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def latest_version() -> int:
    return migrations()[-1][0]


def ensure_roles(conn: psycopg.Connection[Any]) -> None:
    """The group roles, made if missing (needs a superuser or CREATEROLE)."""
    for role in (OWNER, TABLES, ADMIN, READER):
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        if exists is None:
            conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(role)))
    conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(READER),
                                                   sql.Identifier(ADMIN)))


def version(conn: psycopg.Connection[Any]) -> int:
    """The schema's version in this database, 0 before the first migration."""
    has = conn.execute("SELECT to_regclass('floor.versions') IS NOT NULL").fetchone()
    if not has or not has[0]:
        return 0
    row = conn.execute("SELECT coalesce(max(version), 0) FROM floor.versions").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: psycopg.Connection[Any], upto: int | None = None) -> list[int]:
    """Apply the migrations this database lacks (up to ``upto``, default all); the versions
    applied. Connected as a superuser (the roles and the first CREATE SCHEMA need one)."""
    conn.autocommit = True
    ensure_roles(conn)
    applied = []
    for number, name, text in migrations():
        if upto is not None and number > upto:
            break
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            if version(conn) >= number:
                continue
            if number == 1:
                _bootstrap(conn)
            conn.execute("SET LOCAL ROLE " + OWNER)
            conn.execute(text.encode())
            conn.execute("INSERT INTO floor.versions (version, name) VALUES (%s, %s)",
                         (number, name))
            conn.execute("RESET ROLE")
            _grant(conn)  # again after each: a view made anew has lost its grants
            applied.append(number)
    _database_rights(conn)
    return applied


def _database_rights(conn: psycopg.Connection[Any]) -> None:
    """Only the floor's roles may connect, and nobody makes temporary tables (by default
    anyone may do both). Set on every migrate: a database copied from a template does not
    copy the template's own rights."""
    database = sql.Identifier(conn.info.dbname)
    conn.execute(sql.SQL("REVOKE CONNECT, TEMPORARY ON DATABASE {} FROM PUBLIC").format(
        database))
    for role in (TABLES, ADMIN, READER):
        conn.execute(sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(
            database, sql.Identifier(role)))


def _bootstrap(conn: psycopg.Connection[Any]) -> None:
    conn.execute(sql.SQL("CREATE SCHEMA floor AUTHORIZATION {}").format(sql.Identifier(OWNER)))
    conn.execute(sql.SQL(
        "CREATE TABLE floor.versions (version integer PRIMARY KEY, name text NOT NULL, "
        "applied_at timestamptz NOT NULL DEFAULT clock_timestamp())"))
    conn.execute(sql.SQL("ALTER TABLE floor.versions OWNER TO {}").format(sql.Identifier(OWNER)))


def _grant(conn: psycopg.Connection[Any]) -> None:
    """Rights: functions are EXECUTE-able by PUBLIC unless revoked, so every one is revoked
    first and granted back only to whom it is for."""
    ident = sql.Identifier
    conn.execute(sql.SQL("REVOKE ALL ON ALL FUNCTIONS IN SCHEMA floor FROM PUBLIC"))
    conn.execute(sql.SQL("REVOKE ALL ON SCHEMA floor FROM PUBLIC"))
    for role in (TABLES, ADMIN, READER):
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA floor TO {}").format(ident(role)))
    made = conn.execute("SELECT format('floor.%%I(%%s)', p.proname, "
                        "pg_get_function_identity_arguments(p.oid)) FROM pg_proc p "
                        "WHERE p.pronamespace = 'floor'::regnamespace AND p.proname = ANY(%s) "
                        "ORDER BY 1", (list(TABLE_FUNCTIONS),)).fetchall()
    for (function,) in made:
        conn.execute(sql.SQL("GRANT EXECUTE ON FUNCTION {} TO {}").format(
            sql.SQL(function), ident(TABLES)))
    for function in ADMIN_FUNCTIONS:
        conn.execute(sql.SQL("GRANT EXECUTE ON FUNCTION {} TO {}").format(
            sql.SQL(function), ident(ADMIN)))
    for view in VIEWS:
        conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(sql.SQL(view), ident(READER)))
