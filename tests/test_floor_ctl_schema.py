"""The floor's migrations: applied once each, in order, rights granted again after each; the
running totals the pages read agree with the rows, from the first migration's data on."""

from __future__ import annotations

import psycopg
from psycopg import sql

from etg.floor import admin, functions, reads, schema
from etg.floor.functions import Contribution
from etg.floor.reconcile import reconcile
from tests.floor_support import PRIMARY, PRIMARY_RULES, SECONDARY_RULES, Floor


def test_migrating_again_changes_nothing(floor: Floor) -> None:
    conn = floor.admin()
    assert schema.version(conn) == schema.latest_version() == 6
    assert schema.migrate(conn) == []
    assert [row[0] for row in conn.execute("SELECT version FROM floor.versions "
                                           "ORDER BY version")] == [1, 2, 3, 4, 5, 6]


def test_a_floor_of_the_first_version_gets_its_totals_from_its_rows(floor: Floor) -> None:
    su = floor.admin()
    name = f"{floor.database}_v1"
    su.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        old = psycopg.connect(floor.server.uri(database=name), autocommit=True)
        with old:
            assert schema.migrate(old, upto=1) == [1]
            for rules in (PRIMARY_RULES, SECONDARY_RULES):
                admin.add_level(old, rules)
            login = admin.add_table(old, "t1", [PRIMARY])
            with psycopg.connect(floor.server.uri(login.role, login.password, database=name),
                                 autocommit=True) as t1:
                functions.ship(t1, "t1", [Contribution(1, 1, "primary", 333),
                                          Contribution(1, 2, "primary", 500)],
                               chain_seq=1, chain_head="a", rounds=4)
            assert schema.migrate(old) == [2, 3, 4, 5, 6]
            table = reads.tables(old)[0]
            assert (dict(table.contributions_cents), dict(table.contributions_millionths),
                    dict(table.wagers_cents), table.rounds_today) == (
                {"primary": 12}, {"primary": 12_495_000}, {"primary": 833}, 4)
            reader = admin.reader_login(old)
            with psycopg.connect(floor.server.uri(reader.role, reader.password,
                                                  database=name)) as page:
                assert [t.table_id for t in reads.tables(page)] == ["t1"]  # granted again
            assert reconcile(old).exact
    finally:
        su.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        for (role,) in su.execute("SELECT rolname FROM pg_roles WHERE rolname LIKE %s",
                                  (name + ".%",)).fetchall():
            su.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def test_rounds_today_count_from_the_first_shipment_of_the_day(floor: Floor) -> None:
    t1 = floor.table(floor.init()["t1"])
    functions.ship(t1, "t1", [Contribution(5, 1, "primary", 500)], chain_seq=1,
                   chain_head="a", rounds=5)
    assert reads.tables(floor.admin())[0].rounds_today == 5
    floor.admin().execute("UPDATE floor.tables SET day = day - 1")  # as if it were yesterday
    assert reads.tables(floor.admin())[0].rounds_today == 0
    functions.ship(t1, "t1", [Contribution(8, 1, "primary", 500)], chain_seq=2,
                   chain_head="b", rounds=8)
    table = reads.tables(floor.admin())[0]
    assert (table.rounds, table.rounds_today) == (8, 3)


def test_reconcile_finds_a_running_total_that_left_its_rows(floor: Floor) -> None:
    t1 = floor.table(floor.init()["t1"])
    functions.ship(t1, "t1", [Contribution(1, 1, "primary", 500)], chain_seq=1,
                   chain_head="a", rounds=1)
    conn = floor.admin()
    assert reconcile(conn).exact
    conn.execute("UPDATE floor.table_totals SET cents = cents + 1")
    assert [str(d) for d in reconcile(conn).differences] == [
        "table t1 level primary: cents total 8 but its rows sum to 7"]


def test_a_level_s_contributions_today_are_the_cents_shipped_since_midnight(floor: Floor) -> None:
    """Issue 28: the dashboard's "contributions today" per level, from the reader's view."""
    t1 = floor.table(floor.init()["t1"])
    functions.ship(t1, "t1", [Contribution(1, 1, "primary", 500),
                              Contribution(1, 2, "primary", 333)],
                   chain_seq=1, chain_head="a", rounds=1)
    su = floor.admin()
    # the first of the two as if shipped yesterday (the controller's clock, not the table's)
    su.execute("ALTER TABLE floor.contributions DISABLE TRIGGER USER")
    su.execute("UPDATE floor.contributions SET at = date_trunc('day', clock_timestamp()) "
               "- interval '1 second' WHERE round = 1 AND seat = 1")
    su.execute("ALTER TABLE floor.contributions ENABLE TRIGGER USER")
    functions.ship(t1, "t1", [Contribution(2, 1, "primary", 1_000)],
                   chain_seq=2, chain_head="b", rounds=2)
    rows = {(round_, seat): cents for round_, seat, cents in su.execute(
        "SELECT round, seat, to_meter_cents + to_reserve_cents + overflow_cents "
        "FROM floor.contributions WHERE level = 'primary'").fetchall()}
    [primary] = [level for level in reads.levels(floor.admin()) if level.level == PRIMARY.value]
    assert primary.contributions_today_cents == rows[(1, 2)] + rows[(2, 1)]
    assert primary.contributions_cents == sum(rows.values())
    assert primary.contributions_today_cents < primary.contributions_cents
