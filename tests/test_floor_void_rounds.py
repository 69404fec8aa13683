"""A round voided on a linked table (issue 27's remaining gaps), against a real PostgreSQL.

MD Ch. 11 D: "the round of play is void, and the dealer shall return all wagers to the
players". The round's linked contributions were taken at No More Bets (MD Ch. 8 D; Ch. 10
C(1), D(3)(a)) and are already on the meter every linked table shows; a meter goes down only
through a recorded hit or a signed adjustment (SPEC §13). So they stay in the pool, the house
funds them, and the controller records it: the table's link ships the void from its ledger
like a contribution (after the round's rows, idempotently, across a restart and a cut link),
``floor.void_round`` marks the round's contributions voided with when, and the meters and
reconciliation name those cents. A round holding a linked hit is never voided (MD Ch. 9
J(4)(c)-(d)): the controller has paid its meter for the hit.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import psycopg
import pytest

from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    Shuffle,
    ShuffleReason,
    ValidateJackpot,
    Void,
)
from etg.core.jackpot import ValidatorRole
from etg.core.refusal import Reason, Refused
from etg.core.state import Phase
from etg.floor import admin, functions, reads
from etg.floor.errors import FloorRefusal
from etg.floor.errors import Refused as FloorRefused
from etg.floor.link import FloorLink, LinkState
from etg.floor.local_book import read_local_book
from etg.floor.reconcile import LocalBook, reconcile
from etg.floor.server import Server
from etg.table.controller import Table
from tests.floor_support import PRIMARY_RULES, SECONDARY_RULES, Floor
from tests.tables import rigged_draw
from tests.test_floor_ctl_cli import invoke
from tests.test_floor_table_link import PRIMARY, hot_spot_jackpot, open_linked, until

CREDITS = 100_000
REASON = "the shuffler jammed (MD Ch. 11 D)"


def bets_closed(table: Table) -> None:
    """Seat 1: $5 Initial and a $5 Bonus Spin, betting closed: the round's contributions are
    committed (1.5 % and 0.5 % of $5: 7 cents to the primary, 2 to the secondary)."""
    p = table.state.paytable
    for command in [Shuffle(rigged_draw(p, ["7D"]), ShuffleReason.NEW_SHOE),
                    CashIn(1, CREDITS), OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                    PlaceBonusSpin(1, 500), CloseBets()]:
        table.send(command)


def voided(floor_conn: psycopg.Connection[object]) -> dict[str, tuple[int, int]]:
    return {lv.level: (lv.voided_cents, lv.voided_rounds) for lv in reads.levels(floor_conn)}


def test_a_void_after_no_more_bets_leaves_the_meter_and_is_recorded_once(
        floor: Floor, tmp_path: Path) -> None:
    logins = floor.init([PRIMARY_RULES, SECONDARY_RULES], ["t1"])
    uri, db = floor.table_uri(logins["t1"]), tmp_path / "t1.db"
    table, linked = open_linked(db, uri, "t1")
    try:
        bets_closed(table)
        until(lambda: linked.link.depth == 0 and linked.link.shipped_rows == 2, linked)
        before = {lv.level: lv.current_cents for lv in reads.levels(floor.admin())}
        assert before == {"primary": 1_000_007, "secondary": 500_002}
        table.send(Void(REASON), actor="supervisor")
        assert table.state.phase is Phase.VOIDED
        assert table.state.credits[0] == CREDITS  # every wager back to the player
        until(lambda: voided(floor.admin())["primary"] == (7, 1), linked)
        # the meter never drops: the contributions stay in the pool, house-funded
        levels = {lv.level: lv for lv in reads.levels(floor.admin())}
        assert {name: lv.current_cents for name, lv in levels.items()} == before
        assert (levels["primary"].contributions_cents, levels["secondary"].contributions_cents,
                levels["secondary"].voided_cents) == (7, 2, 2)
        assert table.state.shown_meter(PRIMARY) == 1_000_007
    finally:
        linked.close()
        table.close()
    rows = floor.admin().execute("SELECT level, voided_at FROM floor.contributions "
                                 "WHERE table_id = 't1' AND round = 1 ORDER BY level").fetchall()
    assert [level for level, _ in rows] == ["primary", "secondary"]
    assert all(at is not None for _, at in rows)
    # shipped twice: by a link that lost how far it had shipped, and by hand; still once
    again = FloorLink(uri, "t1", db, acked_seq=0, voided_seq=0)
    again.start()
    try:
        until_shipped(again, 2)
    finally:
        again.stop()
    table_conn = floor.table(logins["t1"])
    retry = functions.void_round(table_conn, "t1", 1)
    assert (retry.marked, retry.contributions, retry.cents) == (0, 2, 9)
    assert floor.admin().execute("SELECT level, voided_at FROM floor.contributions "
                                 "WHERE table_id = 't1' AND round = 1 ORDER BY level"
                                 ).fetchall() == rows
    assert voided(floor.admin()) == {"primary": (7, 1), "secondary": (2, 1)}

    book = read_local_book(db)
    assert book.voided_rounds == (1,)
    result = reconcile(floor.admin(), [book])
    assert result.exact, result.differences
    assert {b.level: (b.contributions_cents, b.voided_cents) for b in result.levels} == {
        "primary": (7, 7), "secondary": (2, 2)}
    code, out, _ = invoke("floor", "reconcile", "--floor", floor.admin_uri, "--ledger", str(db))
    assert code == 0
    assert ("level primary: contributions of voided rounds (house-funded): 7 cents ($0.07)"
            in out.splitlines())
    code, out, _ = invoke("floor", "meters", "--floor", floor.admin_uri)
    assert ("primary: contributions of voided rounds (house-funded): 7 cents ($0.07) in 1 "
            "round(s)") in out.splitlines()
    code, out, _ = invoke("floor", "meters", "--floor", floor.admin_uri, "--json")
    assert [(lv["level"], lv["voided_cents"]) for lv in json.loads(out)["levels"]] == [
        ("primary", 7), ("secondary", 2)]


def until_shipped(link: FloorLink, rows: int) -> None:
    """Until a link of no table's own has shipped ``rows`` again and caught up with the voids."""
    deadline = time.monotonic() + 20
    while not (link.shipped_rows >= rows and link.depth == 0 and link.voided_seq > 0):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_void_before_no_more_bets_marks_nothing(floor: Floor) -> None:
    t1 = floor.table(floor.init([PRIMARY_RULES], ["t1"])["t1"])
    answer = functions.void_round(t1, "t1", 5)
    assert (answer.marked, answer.contributions, answer.cents, answer.voided_at) == (
        0, 0, 0, None)
    with pytest.raises(FloorRefusal) as refused:
        functions.void_round(t1, "t1", 0)
    assert refused.value.reason is FloorRefused.BAD_REQUEST
    assert "a void names its round" in str(refused.value)


def test_a_table_cannot_void_another_tables_round(floor: Floor) -> None:
    logins = floor.init([PRIMARY_RULES], ["t1", "t2"])
    t1, t2 = floor.table(logins["t1"]), floor.table(logins["t2"])
    functions.ship(t2, "t2", [functions.Contribution(1, 1, "primary", 500)], chain_seq=1,
                   chain_head="a", rounds=1)
    with pytest.raises(FloorRefusal) as refused:
        functions.void_round(t1, "t2", 1)
    assert refused.value.reason is FloorRefused.NOT_YOURS
    assert "may not act for table t2" in str(refused.value)
    assert voided(floor.admin()) == {"primary": (0, 0)}


def test_reconcile_names_a_void_the_controller_lacks_and_one_the_ledger_lacks(
        floor: Floor) -> None:
    t1 = floor.table(floor.init([PRIMARY_RULES], ["t1"])["t1"])
    rounds = [functions.Contribution(n, 1, "primary", 500) for n in (1, 2)]
    functions.ship(t1, "t1", rounds, chain_seq=2, chain_head="a", rounds=2)
    functions.void_round(t1, "t1", 2)
    book = LocalBook("t1", tuple(rounds), (), voided_rounds=(1,))
    found = [(d.table_id, d.round, d.what) for d in reconcile(floor.admin(), [book]).differences]
    assert found == [
        ("t1", 1, "voided in the ledger, but 1 of its 1 contribution(s) not marked voided at "
                  "the controller"),
        ("t1", 2, "1 contribution(s) marked voided at the controller, but the ledger did not "
                  "void the round")]


def test_a_round_holding_a_linked_hit_cannot_be_voided(floor: Floor, tmp_path: Path) -> None:
    """MD Ch. 9 J(4)(c)-(d): a hand that won the progressive is validated and paid; the
    floor's controller pays its meter for the hit and resets it on every linked table, so the
    round is finished by its validation, never voided (as issue 24 item 3 rules for a
    validated jackpot: what was paid stays paid). Refused before the controller's amount
    and after it; nothing marked voided at the controller."""
    logins = floor.init([PRIMARY_RULES, SECONDARY_RULES], ["t1"])
    db = tmp_path / "t1.db"
    table, linked = open_linked(db, floor.table_uri(logins["t1"]), "t1")
    try:
        hot_spot_jackpot(table)
        assert table.state.phase is Phase.JACKPOT
        with pytest.raises(Refused) as refused:
            table.send(Void(REASON), actor="supervisor")
        assert refused.value.reason is Reason.JACKPOT_PAID
        until(lambda: not table.state.jackpot.unconfirmed, linked)  # type: ignore[union-attr]
        with pytest.raises(Refused) as refused:
            table.send(Void(REASON), actor="supervisor")
        assert refused.value.reason is Reason.JACKPOT_PAID
        assert "finished by its validation, not voided" in refused.value.message
        table.send(ValidateJackpot("fp", ValidatorRole.FLOORPERSON), actor="floorperson")
        until(lambda: linked.link.depth == 0, linked)
    finally:
        linked.close()
        table.close()
    assert [h.amount_cents for h in reads.hits(floor.admin())] == [1_000_007]
    assert voided(floor.admin()) == {"primary": (0, 0), "secondary": (0, 0)}
    book = read_local_book(db)
    assert book.voided_rounds == ()
    assert reconcile(floor.admin(), [book]).exact


@pytest.mark.slow
def test_a_void_while_the_link_is_cut_reaches_the_controller_when_it_returns(
        tmp_path: Path) -> None:
    # durable: a server stopped at once keeps every call it acknowledged
    with Server.throwaway(port=0, durable=True) as server:
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            [login] = admin.init_floor(conn, [PRIMARY_RULES, SECONDARY_RULES], [("t1", "A1")])
        db = tmp_path / "t1.db"
        table, linked = open_linked(db, server.uri(login.role, login.password), "t1")
        try:
            # No More Bets, and the link cut at once: the round's contributions may or may
            # not have reached the controller; the void is committed while it is away
            bets_closed(table)
            server.stop_immediate()
            until(lambda: linked.state is LinkState.DOWN, linked, timeout=30)
            table.send(Void(REASON), actor="supervisor")  # the void is the table's alone
            assert table.state.credits[0] == CREDITS
            server.restart()
            until(lambda: linked.link.depth == 0 and linked.link.voided_seq > 0, linked,
                  timeout=30)
        finally:
            linked.close()
            table.close()
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            assert {lv.level: (lv.current_cents, lv.voided_cents)
                    for lv in reads.levels(conn)} == {"primary": (1_000_007, 7),
                                                      "secondary": (500_002, 2)}
            result = reconcile(conn, [read_local_book(db)])
            assert result.exact, result.differences
