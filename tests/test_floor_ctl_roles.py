"""Least privilege on the floor: a table's role may only call the controller's functions, for
itself; the reader only reads; a meter goes down only through a hit or a signed adjustment."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from psycopg import sql

from etg.floor import admin, functions, reads
from etg.floor.errors import FloorRefusal, Refused
from etg.floor.functions import Contribution
from tests.floor_support import PRIMARY, Floor

# What a table's role might try behind the functions' back; every one must be refused.
DIRECT_WRITES = [
    "UPDATE floor.levels SET current_cents = current_cents + 100",
    "UPDATE floor.levels SET current_cents = 1",
    "INSERT INTO floor.contributions (table_id, round, seat, level, wager_cents, millionths, "
    "to_meter_cents, to_reserve_cents, overflow_cents) VALUES ('t1', 9, 1, 'primary', 500, "
    "7500000, 7, 0, 0)",
    "DELETE FROM floor.hits",
    "UPDATE floor.tables SET chain_seq = 0",
    "SELECT * FROM floor.contributions",
    "SELECT floor.adjust_meter('primary', 1, 'supervisor', 'mine')",
    "SELECT floor.set_level('primary', 1000000, 1000000, 1, NULL, NULL, 'supervisor', 'x')",
    "SELECT floor.add_level('progressive_payout', 1000000, 1000000, 1, NULL, NULL, '')",
    "SELECT floor.register_table('t9', 'x', '', '{primary}')",
    "SELECT set_config('floor.cause', 'hit', false); "
    "UPDATE floor.levels SET current_cents = 1",
]


@pytest.mark.parametrize("statement", DIRECT_WRITES)
def test_a_table_role_can_do_nothing_but_call_its_functions(floor: Floor,
                                                            statement: str) -> None:
    t1 = floor.table(floor.init()["t1"])
    before = reads.levels(floor.admin())
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        t1.execute(statement.encode())
    assert reads.levels(floor.admin()) == before


def test_a_table_cannot_ship_claim_validate_or_beat_for_another(floor: Floor) -> None:
    logins = floor.init()
    t1 = floor.table(logins["t1"])
    t2 = floor.table(logins["t2"])
    functions.ship(t2, "t2", [Contribution(1, 1, "primary", 500)], chain_seq=1,
                   chain_head="h1", rounds=1)
    hit = functions.claim_hit(t2, "t2", 1, 1, 0, "primary", 100)
    attempts: list[Callable[[], object]] = [
        lambda: functions.ship(t1, "t2", [Contribution(2, 1, "primary", 500)], chain_seq=2,
                               chain_head="h2", rounds=2),
        lambda: functions.claim_hit(t1, "t2", 2, 1, 0, "primary", 100),
        lambda: functions.validate_hit(t1, "t2", hit.hit_id, "supervisor", "supervisor"),
        lambda: functions.validate_hit(t1, "t1", hit.hit_id, "supervisor", "supervisor"),
        lambda: functions.heartbeat(t1, "t2", "open", None, 0),
        lambda: functions.announce(t1, "t2"),
    ]
    for attempt in attempts:
        with pytest.raises(FloorRefusal) as refused:
            attempt()
        assert refused.value.reason is Refused.NOT_YOURS
    view = reads.floor_view(floor.admin())
    assert [(h.table_id, h.round, h.validator) for h in view.hits] == [("t2", 1, None)]
    assert {t.table_id: t.state for t in view.tables} == {"t1": "closed", "t2": "closed"}
    assert {t.table_id: t.rounds for t in view.tables} == {"t1": 0, "t2": 1}


def test_the_reader_reads_the_views_and_nothing_else(floor: Floor) -> None:
    logins = floor.init()
    reader = admin.reader_login(floor.admin())
    conn = floor.keep(psycopg.connect(floor.server.uri(reader.role, reader.password,
                                                        database=floor.database),
                                       autocommit=True))
    view = reads.floor_view(conn)
    assert [lv.current_cents for lv in view.levels] == [1_000_000, 500_000]
    assert [t.table_id for t in view.tables] == ["t1", "t2"]
    for statement in ("SELECT * FROM floor.levels", "UPDATE floor.levels SET current_cents = 1",
                      "SELECT floor.heartbeat('t1', 'open', NULL, 0)"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(statement.encode())
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("SELECT floor.ship('t1', '[]', 1, 'h', 1)")
    assert logins["t1"].role == f"{floor.database}.t1"


def _admin_login(floor: Floor) -> psycopg.Connection[Any]:
    """A back-office login: a member of floor_admin, no superuser."""
    su = floor.admin()
    role = f"{floor.database}.office"
    su.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD 'office-pw' IN ROLE floor_admin").format(
        sql.Identifier(role)))
    return floor.keep(psycopg.connect(floor.server.uri(role, "office-pw",
                                                        database=floor.database),
                                       autocommit=True))


def test_a_meter_goes_down_only_through_a_hit_or_a_signed_adjustment(floor: Floor) -> None:
    t1 = floor.table(floor.init()["t1"])
    office = _admin_login(floor)
    superuser = floor.admin()
    lower = "UPDATE floor.levels SET current_cents = current_cents - 1 WHERE level = 'primary'"
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        t1.execute(lower)
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        office.execute(lower)
    with pytest.raises(psycopg.DatabaseError) as guarded:
        superuser.execute(lower)  # even the owner's hand: the trigger refuses it
    assert guarded.value.sqlstate == Refused.METER_GUARD.value
    assert reads.levels(superuser)[0].current_cents == 1_000_000

    adjusted = admin.adjust_meter(office, PRIMARY, 999_000, supervisor="supervisor",
                                  reason="meter test")
    assert adjusted["current_cents"] == 999_000
    paid = functions.claim_hit(t1, "t1", 1, 1, 0, "primary", 100)
    assert (paid.meter_cents, paid.amount_cents, paid.reset_to_cents) == (
        999_000, 999_000, 1_000_000)
    rows = superuser.execute("SELECT kind, level, delta_cents, supervisor, reason "
                             "FROM floor.adjustments").fetchall()
    assert rows == [("meter", "primary", -1_000, "supervisor", "meter test")]
    primary = reads.levels(superuser)[0]
    assert (primary.adjustments_cents, primary.wins_cents, primary.seed_cents) == (
        -1_000, 999_000, 2_000_000)


def test_an_adjustment_needs_a_supervisor_and_a_reason(floor: Floor) -> None:
    floor.init()
    office = _admin_login(floor)
    for supervisor, reason in (("", "why"), ("supervisor", "")):
        with pytest.raises(psycopg.errors.CheckViolation):
            admin.adjust_meter(office, PRIMARY, 5, supervisor=supervisor, reason=reason)
    assert reads.levels(office)[0].current_cents == 1_000_000


def test_only_the_floors_roles_may_connect_to_its_database_or_make_temporary_tables(
        floor: Floor) -> None:
    t1 = floor.table(floor.init()["t1"])
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        t1.execute("CREATE TEMPORARY TABLE mine (n integer)")
    su = floor.admin()
    su.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD 'stranger-pw'").format(
        sql.Identifier(f"{floor.database}.stranger")))
    with pytest.raises(psycopg.OperationalError, match="permission denied for database"):
        psycopg.connect(floor.server.uri(f"{floor.database}.stranger", "stranger-pw",
                                         database=floor.database)).close()
