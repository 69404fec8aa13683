"""A linked hit is keyed by (table, round, seat, spot, level) (issue 27's remaining gaps).

One seat may hold a Progressive Payout Wager on each of its spots (MD Ch. 7 E: the
adjacent boxes a player may wager on), and each spot's hand may win the meter in the
same round (MD Ch. 10 B(1): a Suited Four-of-a-Kind pays 100 % of the meter). Each is
its own hit: claimed in the order the seat is paid, spot by spot (MD Ch. 9 J(4)(d),
Ch. 10 D(4): the amount on the meter when it is that hand's turn to be paid), the
second from the reset plus what came in after the first.
"""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from etg.config.cabinet import Link
from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    Deal,
    Decide,
    OpenBets,
    PlaceWager,
    Settle,
    Shuffle,
    ShuffleReason,
    ValidateJackpot,
    WarDeal,
)
from etg.core.jackpot import JackpotRules, ValidatorRole
from etg.core.paytable import Decision, ProgressiveLevel
from etg.core.rng import SeededSource
from etg.core.state import Phase
from etg.floor import admin, functions, reads, schema
from etg.floor.admin import LevelRules
from etg.floor.functions import Contribution
from etg.floor.local_book import read_local_book
from etg.floor.reconcile import reconcile
from etg.ledger.store import Ledger
from etg.table.controller import Table
from etg.table.linked import LinkedTable
from tests.floor_support import Floor
from tests.ledger_support import paytable
from tests.tables import rigged_draw
from tests.test_floor_ctl_cli import invoke
from tests.test_floor_table_link import until

PP = ProgressiveLevel.PROGRESSIVE_PAYOUT
# maryland-community-5.yaml's Progressive Payout meter: $10,000 initial and reset, 5 %
PP_RULES = LevelRules.of(PP, paytable().paytable.meter(PP))  # type: ignore[arg-type]
# burn; spots 1-5 (spots 1 and 2 the 9♥); the dealer's 9♥; three War burns; spot 1's and
# spot 2's War cards and the dealer's, all 9♥: two Suited Four-of-a-Kinds of one seat
TWO_SUITED_FOURS = ["7D", "9H", "9H", "2C", "2C", "2C", "9H", "3S", "3S", "3S", "9H", "9H",
                    "9H"]


def two_spots_hit(table: Table) -> None:
    """Seat 1: $5 Initial and $5 Progressive Payout on spots 1 and 2; both go to War and
    both make a Suited Four-of-a-Kind: two hits of 100 % of the linked meter."""
    p = table.state.paytable
    for command in [Shuffle(rigged_draw(p, TWO_SUITED_FOURS), ShuffleReason.NEW_SHOE),
                    CashIn(1, 100_000), OpenBets(),
                    PlaceWager(1, 1, BetKind.INITIAL, 500),
                    PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500),
                    PlaceWager(1, 2, BetKind.INITIAL, 500),
                    PlaceWager(1, 2, BetKind.PROGRESSIVE_PAYOUT, 500),
                    CloseBets(), Deal(), Settle(), Decide(1, 1, Decision.WAR),
                    Decide(1, 2, Decision.WAR), WarDeal(), Settle()]:
        table.send(command)


def test_two_hits_of_one_seat_on_two_spots_are_two_hits_each_paid_its_own_amount(
        floor: Floor, tmp_path: Path) -> None:
    logins = floor.init([PP_RULES], ["t1"])
    db = tmp_path / "t1.db"
    table = Table.open(Ledger.open(db), paytable(), SeededSource(1),
                       jackpot_rules=JackpotRules())
    linked = LinkedTable(table, Link(floor.table_uri(logins["t1"]), "t1", (PP,)))
    linked.start()
    try:
        two_spots_hit(table)
        assert table.state.phase is Phase.JACKPOT
        until(lambda: linked.link.depth == 0 and not table.state.jackpot.unconfirmed,  # type: ignore[union-attr]
              linked)
        # the lock pays each spot the controller's amount for that spot's hit: spot 1 the
        # meter as it stood ($10,000 and 5 % of the seat's $10 of wagers: 50 cents), spot 2
        # the meter as spot 1's hit left it, the reset
        held = [(a.spot, a.win) for a in table.state.jackpot.awards  # type: ignore[union-attr]
                if a.linked is PP]
        assert held == [(1, 1_000_050), (2, 1_000_000)]
        table.send(ValidateJackpot("fp", ValidatorRole.FLOORPERSON), actor="floorperson")
        assert table.state.phase is Phase.COMPLETE
        until(lambda: all(h.validator == "fp" for h in reads.hits(floor.admin())), linked)
    finally:
        linked.close()
        table.close()
    hits = reads.hits(floor.admin())
    assert [(h.order_no, h.seat, h.spot, h.meter_cents, h.amount_cents, h.reset_to_cents)
            for h in hits] == [(1, 1, 1, 1_000_050, 1_000_050, 1_000_000),
                               (2, 1, 2, 1_000_000, 1_000_000, 1_000_000)]
    book = read_local_book(db)
    assert [(h.round, h.seat, h.spot, h.level, h.amount_cents) for h in book.hits or ()] == [
        (1, 1, 1, "progressive_payout", 1_000_050), (1, 1, 2, "progressive_payout", 1_000_000)]
    result = reconcile(floor.admin(), [book])
    assert result.exact, result.differences
    [level] = result.levels
    # $10,000 opening + $10,000 topped up by each hit = 3,000,000; 50 cents contributed
    assert (level.seed_cents, level.contributions_cents, level.wins_cents,
            level.current_cents) == (3_000_000, 50, 2_000_050, 1_000_000)
    code, out, _ = invoke("floor", "reconcile", "--floor", floor.admin_uri, "--ledger", str(db),
                          "--json")
    assert (code, json.loads(out)["exact"]) == (0, True)
    code, out, _ = invoke("floor", "hits", "--floor", floor.admin_uri, "--json")
    assert [(h["seat"], h["spot"]) for h in json.loads(out)["hits"]] == [(1, 1), (1, 2)]
    code, out, _ = invoke("floor", "hits", "--floor", floor.admin_uri)
    assert code == 0 and "spot" in out.splitlines()[2]


def test_the_second_spots_hit_is_paid_from_the_reset_plus_what_came_in_between(
        floor: Floor) -> None:
    logins = floor.init([PP_RULES], ["t1", "t2"])
    t1, t2 = floor.table(logins["t1"]), floor.table(logins["t2"])
    functions.ship(t1, "t1", [Contribution(1, 1, "progressive_payout", 1_000)], chain_seq=1,
                   chain_head="a", rounds=1)
    first = functions.claim_hit(t1, "t1", 1, 1, 1, "progressive_payout", 100)
    # another table's $20 of wagers between the two: 5 % is $1 on the meter
    functions.ship(t2, "t2", [Contribution(1, 3, "progressive_payout", 2_000)], chain_seq=1,
                   chain_head="b", rounds=1)
    second = functions.claim_hit(t1, "t1", 1, 1, 2, "progressive_payout", 100)
    assert (first.spot, first.order_no, first.amount_cents) == (1, 1, 1_000_050)
    assert (second.spot, second.order_no, second.amount_cents) == (2, 2, 1_000_100)
    # a retry of either is the same hit, never a third
    assert functions.claim_hit(t1, "t1", 1, 1, 2, "progressive_payout", 100) == second
    assert functions.claim_hit(t1, "t1", 1, 1, 1, "progressive_payout", 100).hit_id == \
        first.hit_id
    assert [h.hit_id for h in reads.hits(floor.admin())] == [first.hit_id, second.hit_id]
    assert reconcile(floor.admin()).exact


def test_the_old_claim_without_a_spot_is_gone(floor: Floor) -> None:
    """Migration 006 drops the four-key claim: no table can claim a hit without its spot."""
    t1 = floor.table(floor.init([PP_RULES], ["t1"])["t1"])
    with pytest.raises(psycopg.errors.UndefinedFunction):
        t1.execute("SELECT floor.claim_hit('t1', 1, 1, 'progressive_payout', 100)")
    with pytest.raises(psycopg.DatabaseError) as refused:
        t1.execute("SELECT floor.claim_hit('t1', 1, 1, NULL, 'progressive_payout', 100)")
    assert refused.value.sqlstate == "ETG02"


def test_reconcile_names_a_hit_whose_spot_differs(floor: Floor) -> None:
    from etg.floor.reconcile import LocalBook, LocalHit

    t1 = floor.table(floor.init([PP_RULES], ["t1"])["t1"])
    functions.claim_hit(t1, "t1", 4, 2, 3, "progressive_payout", 100)
    book = LocalBook("t1", (), (LocalHit(4, 2, 1, "progressive_payout", 1_000_000),))
    found = [str(d) for d in reconcile(floor.admin(), [book]).differences]
    assert found == [
        "table t1 round 4: seat 2 spot 1 progressive_payout hit: 1000000 cents in the ledger, "
        "None at the controller",
        "table t1 round 4: seat 2 spot 3 progressive_payout hit: None cents in the ledger, "
        "1000000 at the controller"]


def test_a_hit_claimed_before_spots_were_recorded_is_the_same_hit_when_claimed_again(
        floor: Floor) -> None:
    """A floor upgraded while a table's answer was lost: the table claims its held hit again,
    now with the spot; the controller answers with the hit it paid before (never a second
    payment) and records the spot the table names."""
    su = floor.admin()
    name = f"{floor.database}_v4"
    su.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        with psycopg.connect(floor.server.uri(database=name), autocommit=True) as old:
            assert schema.migrate(old, upto=4) == [1, 2, 3, 4]
            admin.add_level(old, PP_RULES)
            login = admin.add_table(old, "t1", [PP])
            uri = floor.server.uri(login.role, login.password, database=name)
            with psycopg.connect(uri, autocommit=True) as t1:
                paid = t1.execute("SELECT floor.claim_hit('t1', 3, 2, 'progressive_payout', 100)"
                                  ).fetchone()
            assert paid is not None
            assert schema.migrate(old) == [5, 6]
            assert old.execute("SELECT spot FROM floor.hits").fetchall() == [(None,)]
            with psycopg.connect(uri, autocommit=True) as t1:
                again = functions.claim_hit(t1, "t1", 3, 2, 4, "progressive_payout", 100)
            assert (again.hit_id, again.amount_cents, again.spot) == (
                paid[0]["hit_id"], 1_000_000, 4)
            assert old.execute("SELECT count(*), min(spot) FROM floor.hits").fetchone() == (1, 4)
            assert reconcile(old).exact
    finally:
        su.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        for (role,) in su.execute("SELECT rolname FROM pg_roles WHERE rolname LIKE %s",
                                  (name + ".%",)).fetchall():
            su.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))
