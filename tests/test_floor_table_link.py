"""Tables linked to a real floor controller (PostgreSQL): issue 27, items 2 and 3.

Each table has its own ledger and its own role; what it contributes is committed
locally first, shipped by its link's thread and acknowledged; the controller's
meters and its amount for a hit come back as journaled commands. Exact to the cent.
"""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from etg.config.cabinet import Link
from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    Deal,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    Settle,
    Shuffle,
    ShuffleReason,
    Spin,
    ValidateJackpot,
)
from etg.core.jackpot import JackpotRules, ValidatorRole
from etg.core.paytable import ProgressiveLevel
from etg.core.refusal import Reason, Refused
from etg.core.rng import SeededSource
from etg.core.state import Phase
from etg.core.wheel import WheelStops
from etg.floor import reads
from etg.floor.link import DOWN_AFTER_S, LinkState
from etg.floor.local_book import read_local_book
from etg.floor.reconcile import reconcile
from etg.floor.server import Server
from etg.ledger.store import Ledger
from etg.table.controller import Table, TableTilted
from etg.table.floor_bot import LinkedBotTable
from etg.table.linked import LinkedTable
from tests.floor_support import PRIMARY_RULES, SECONDARY_RULES, Floor
from tests.ledger_support import paytable
from tests.tables import rigged_draw

PRIMARY, SECONDARY = ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY
LEVELS = (PRIMARY, SECONDARY)


def open_linked(db: Path, uri: str, table_id: str) -> tuple[Table, LinkedTable]:
    table = Table.open(Ledger.open(db), paytable(), SeededSource(hash(table_id) % 1000),
                       jackpot_rules=JackpotRules())
    linked = LinkedTable(table, Link(uri, table_id, LEVELS))
    linked.start()
    return table, linked


def until(what: Callable[[], bool], *tables: LinkedTable, timeout: float = 20.0) -> None:
    """Pump each table's link until ``what`` holds (the owner's loop, as a kiosk's frames)."""
    deadline = time.monotonic() + timeout
    while not what():
        for linked in tables:
            linked.pump()
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)
    for linked in tables:
        linked.pump()


def meters(floor: Floor) -> dict[str, int]:
    return {level.level: level.current_cents for level in reads.levels(floor.admin())}


def test_contributions_ship_once_and_every_table_shows_the_pool(floor: Floor,
                                                               tmp_path: Path) -> None:
    logins = floor.init([PRIMARY_RULES, SECONDARY_RULES], ["t1", "t2"])
    t1, link1 = open_linked(tmp_path / "t1.db", floor.table_uri(logins["t1"]), "t1")
    t2, link2 = open_linked(tmp_path / "t2.db", floor.table_uri(logins["t2"]), "t2")
    try:
        bots = LinkedBotTable(t1, link1, "busiest", seed=3)
        for _ in range(5):
            bots.play_round()
        until(lambda: link1.link.depth == 0 and link1.link.shipped_rows > 0, link1, link2)
        # every table shows the controller's meter: the one that played and the one that did not
        pool = meters(floor)
        until(lambda: t2.state.shown_meter(PRIMARY) == pool["primary"], link1, link2)
        assert t1.state.shown_meter(PRIMARY) == pool["primary"]
        assert t2.state.shown_meter(SECONDARY) == pool["secondary"]
        assert pool["primary"] > PRIMARY_RULES.initial_cents
    finally:
        for linked, table in ((link1, t1), (link2, t2)):
            linked.close()
            table.close()
    book = read_local_book(tmp_path / "t1.db")
    # the busiest table: six seats, $1 and $5 Bonus Spin wagers in turn, on both levels
    assert book.table_id == "t1"
    assert sum(c.wager_cents for c in book.contributions) == 5 * 2 * (3 * 100 + 3 * 500)
    result = reconcile(floor.admin(), [book, read_local_book(tmp_path / "t2.db")])
    assert result.exact, result.differences
    # the link ships a row again after any doubt; the controller holds each row once
    rows = floor.admin().execute("SELECT count(*), sum(wager_cents) FROM floor.contributions"
                                 ).fetchone()
    assert rows == (len(book.contributions), sum(c.wager_cents for c in book.contributions))


def hot_spot_jackpot(table: Table) -> None:
    """Seat 1: $5 Initial and a $5 Bonus Spin; the dealer's red Ace triggers the wheel, which
    stops on seat 1 and the Hot Spot's JACKPOT (100 % of the primary meter on $5)."""
    p = table.state.paytable
    for command in [Shuffle(rigged_draw(p, ["7D", "2C", "2C", "2C", "2C", "2C", "AH"]),
                            ShuffleReason.NEW_SHOE),
                    CashIn(1, 100_000), OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                    PlaceBonusSpin(1, 500), CloseBets(), Deal(), Settle(),
                    Spin(WheelStops(0, 1, 0))]:
        table.send(command)


def test_a_linked_hit_pays_the_controllers_amount_and_resets_every_table(
        floor: Floor, tmp_path: Path) -> None:
    logins = floor.init([PRIMARY_RULES, SECONDARY_RULES], ["t1", "t2"])
    t1, link1 = open_linked(tmp_path / "t1.db", floor.table_uri(logins["t1"]), "t1")
    t2, link2 = open_linked(tmp_path / "t2.db", floor.table_uri(logins["t2"]), "t2")
    try:
        hot_spot_jackpot(t1)
        assert t1.state.phase is Phase.JACKPOT
        # the meter as the seat is paid: the initial amount and this round's 1.5 % of $5
        until(lambda: not t1.state.jackpot.unconfirmed, link1, link2)  # type: ignore[union-attr]
        [held] = [a for a in t1.state.jackpot.awards if a.linked]  # type: ignore[union-attr]
        assert held.win == 1_000_007  # 1,000,000 + 750,000 millionths, rounded down to cents
        t1.send(ValidateJackpot("fp", ValidatorRole.FLOORPERSON), actor="floorperson")
        assert t1.state.phase is Phase.COMPLETE
        until(lambda: t2.state.shown_meter(PRIMARY) == PRIMARY_RULES.reset_cents, link1, link2)
        assert t1.state.shown_meter(PRIMARY) == PRIMARY_RULES.reset_cents
        # the controller records who validated it, as the table did (MD Ch. 9 J(4)(c))
        until(lambda: reads.hits(floor.admin())[0].validator == "fp", link1, link2)
        [hit] = reads.hits(floor.admin())
        assert (hit.table_id, hit.seat, hit.amount_cents, hit.validator_role) == (
            "t1", 1, 1_000_007, "floorperson")
    finally:
        for linked, table in ((link1, t1), (link2, t2)):
            linked.close()
            table.close()
    book = read_local_book(tmp_path / "t1.db")
    assert [(h.round, h.seat, h.level, h.amount_cents) for h in book.hits or ()] == [
        (1, 1, "primary", 1_000_007)]
    assert reconcile(floor.admin(), [book]).exact


@pytest.mark.slow
def test_link_down_refuses_linked_wagers_within_3_s_and_drains_when_back(tmp_path: Path) -> None:
    from etg.floor import admin

    # durable: a server stopped at once keeps every call it acknowledged (fsync and
    # synchronous_commit on), as the floor's real server does
    with Server.throwaway(port=0, durable=True) as server:
        import psycopg

        with psycopg.connect(server.uri(), autocommit=True) as conn:
            [login] = admin.init_floor(conn, [PRIMARY_RULES, SECONDARY_RULES], [("t1", "A1")])
        uri = server.uri(login.role, login.password)
        table, linked = open_linked(tmp_path / "t1.db", uri, "t1")
        try:
            bots = LinkedBotTable(table, linked, "busiest", seed=5)
            bots.play_round()
            until(lambda: linked.link.depth == 0 and linked.state is LinkState.UP, linked)
            server.stop_immediate()
            # how soon is bench_link's link_down_s (timed assertions do not belong in tests);
            # here: the link is given up on by its own deadline, which is inside the 3 s
            assert DOWN_AFTER_S < 3.0
            until(lambda: table.state.link_down, linked, timeout=30)
            table.send(OpenBets()) if table.state.phase is Phase.IDLE else None
            if table.state.phase is Phase.BETTING:
                table.send(PlaceWager(1, 1, BetKind.INITIAL, 500))  # the base game goes on
                with pytest.raises(Refused) as refused:
                    table.send(PlaceBonusSpin(1, 500))
                assert refused.value.reason is Reason.LINK_DOWN
                assert "progressive link down" in refused.value.message
                table.send(CloseBets())
            for _ in range(3):  # rounds while it is down: no linked wager can be placed
                bots.play_round()
            server.restart()
            until(lambda: not table.state.link_down and linked.link.depth == 0, linked)
            for _ in range(3):
                bots.play_round()
            until(lambda: linked.link.depth == 0, linked)
        finally:
            linked.close()
            table.close()
        book = read_local_book(tmp_path / "t1.db")
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            assert reconcile(conn, [book]).exact


@pytest.mark.slow
def test_a_ledger_rolled_back_is_refused_and_the_table_tilts(floor: Floor,
                                                             tmp_path: Path) -> None:
    logins = floor.init([PRIMARY_RULES, SECONDARY_RULES], ["t1"])
    uri = floor.table_uri(logins["t1"])
    db = tmp_path / "t1.db"
    table, linked = open_linked(db, uri, "t1")
    bots = LinkedBotTable(table, linked, "busiest", seed=9)
    bots.play_round()
    until(lambda: linked.link.depth == 0, linked)
    linked.close()
    table.close()
    saved = tmp_path / "saved"
    saved.mkdir()
    for name in ("t1.db", "t1.db.anchor"):
        if (tmp_path / name).exists():
            shutil.copy(tmp_path / name, saved / name)
    table, linked = open_linked(db, uri, "t1")
    for _ in range(2):
        LinkedBotTable(table, linked, "busiest", seed=10).play_round()
    until(lambda: linked.link.depth == 0, linked)
    linked.close()
    table.close()
    for name in ("t1.db", "t1.db.anchor"):  # the disk rolled back to before those rounds
        if (saved / name).exists():
            shutil.copy(saved / name, tmp_path / name)
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"t1.db{suffix}").unlink(missing_ok=True)
    table, linked = open_linked(db, uri, "t1")
    try:
        # the ledger itself is whole (file and anchor restored together): only the
        # controller's anchor, off the cabinet, can tell, at the first shipment
        assert not table.tilted
        with contextlib.suppress(TableTilted):  # play stops where the tilt finds it
            LinkedBotTable(table, linked, "busiest", seed=11).play_round()
        until(lambda: table.tilted, linked, timeout=30)
        assert table.tilt is not None
        assert table.tilt.message.startswith("link: the floor's controller refused this table: "
                                             "chain head went backwards: table t1 sent seq")
        assert "CONTEXT" not in table.tilt.message
    finally:
        linked.close()
        table.close()



def _validator_at_the_controller(floor: Floor) -> tuple[str | None, str | None]:
    [hit] = reads.hits(floor.admin())
    return hit.validator, hit.validator_role


def test_a_hit_confirmed_before_a_restart_and_validated_after_is_told_to_the_controller(
        floor: Floor, tmp_path: Path) -> None:
    """MD Ch. 9 J(4)(c): the controller's record of a hit names who validated it, even when
    the table restarted in its jackpot lock between the controller's amount and the
    floorperson's validation."""
    logins = floor.init([PRIMARY_RULES, SECONDARY_RULES], ["t1"])
    uri, db = floor.table_uri(logins["t1"]), tmp_path / "t1.db"
    t1, link1 = open_linked(db, uri, "t1")
    try:
        hot_spot_jackpot(t1)
        until(lambda: not t1.state.jackpot.unconfirmed, link1)  # type: ignore[union-attr]
    finally:
        link1.close()
        t1.close()
    t1, link1 = open_linked(db, uri, "t1")
    try:
        assert t1.state.phase is Phase.JACKPOT  # restarted in the lock, its amount confirmed
        t1.send(ValidateJackpot("fp", ValidatorRole.FLOORPERSON), actor="floorperson")
        until(lambda: _validator_at_the_controller(floor)[0] is not None, link1)
    finally:
        link1.close()
        t1.close()
    assert _validator_at_the_controller(floor) == ("fp", "floorperson")


def test_a_validation_not_yet_forwarded_when_the_table_stops_is_forwarded_after(
        floor: Floor, tmp_path: Path) -> None:
    logins = floor.init([PRIMARY_RULES, SECONDARY_RULES], ["t1"])
    uri, db = floor.table_uri(logins["t1"]), tmp_path / "t1.db"
    t1, link1 = open_linked(db, uri, "t1")
    try:
        hot_spot_jackpot(t1)
        until(lambda: not t1.state.jackpot.unconfirmed, link1)  # type: ignore[union-attr]
        link1.link.stop()  # the link stops: the validation is the table's alone
        t1.send(ValidateJackpot("sup", ValidatorRole.SUPERVISOR), actor="supervisor")
        assert t1.state.phase is Phase.COMPLETE
    finally:
        t1.close()
    assert _validator_at_the_controller(floor) == (None, None)
    t1, link1 = open_linked(db, uri, "t1")
    try:
        until(lambda: _validator_at_the_controller(floor)[0] is not None, link1)
    finally:
        link1.close()
        t1.close()
    assert _validator_at_the_controller(floor) == ("sup", "supervisor")
