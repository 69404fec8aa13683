"""The PostgreSQL server killed mid-transaction (issue 27 item 7, the controller's half): SIGKILL
to the postmaster and its processes, ``pg_ctl stop -m immediate``, and a clean stop and start
(a link cut and restored). After each, restarted, the tables' retries land once: the
reconciliation is exact to the cent, no contribution lost or doubled, no hit paid twice.

Every test here runs a server of its own (durable: each commit synced, as in production) and
is slow.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest
from psycopg import sql

from etg.floor import admin, functions, reads
from etg.floor.admin import TableLogin
from etg.floor.functions import Contribution, Hit
from etg.floor.reconcile import LocalBook, LocalHit, reconcile
from etg.floor.server import Server
from tests.floor_support import PRIMARY_RULES, SECONDARY_RULES

pytestmark = pytest.mark.slow

FAULTS: dict[str, Callable[[Server], None]] = {
    "SIGKILL": Server.kill,
    "pg_ctl stop -m immediate": lambda server: server.stop_immediate(),
    "link cut (clean stop)": Server.stop,
}


@pytest.fixture
def killable() -> Iterator[Server]:
    with Server.throwaway(port=0, durable=True) as server:
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE floor"))
        yield server


def _init(server: Server, tables: list[str]) -> dict[str, str]:
    with psycopg.connect(server.uri(database="floor"), autocommit=True) as conn:
        logins = admin.init_floor(conn, [PRIMARY_RULES, SECONDARY_RULES],
                                  [(t, "") for t in tables])
    return {login.table_id: _uri(server, login) for login in logins}


def _uri(server: Server, login: TableLogin) -> str:
    return server.uri(login.role, login.password, database="floor")


def _admin(server: Server) -> psycopg.Connection[Any]:
    return psycopg.connect(server.uri(database="floor"), autocommit=True)


@pytest.mark.parametrize("fault", ["SIGKILL", "pg_ctl stop -m immediate"])
def test_a_shipment_and_a_hit_in_flight_when_the_server_dies(killable: Server,
                                                             fault: str) -> None:
    uris = _init(killable, ["t1", "t2"])
    t1 = psycopg.connect(uris["t1"], autocommit=True)
    functions.ship(t1, "t1", [Contribution(1, 1, "primary", 500)], chain_seq=1,
                   chain_head="a", rounds=1)
    # t1's second shipment is inside its transaction, holding the primary level's lock ...
    t1.autocommit = False
    in_flight = [Contribution(2, 1, "primary", 2_500), Contribution(2, 1, "secondary", 2_500)]
    t1.execute("SELECT floor.ship('t1', %s, 2, 'b', 2)",
               (psycopg.types.json.Jsonb([{"round": 2, "seat": 1, "level": c.level,
                                           "wager_cents": c.wager_cents} for c in in_flight]),))
    # ... and t2's hit waits for that lock
    t2 = psycopg.connect(uris["t2"], autocommit=True)
    waiting: list[BaseException | Hit] = []
    claimer = threading.Thread(target=lambda: waiting.append(_try_claim(t2)))
    claimer.start()
    _wait_for_lock_wait(killable)
    FAULTS[fault](killable)
    claimer.join(10)
    assert isinstance(waiting[0], psycopg.OperationalError)
    with pytest.raises(psycopg.OperationalError):
        t1.commit()
    t1.close()
    t2.close()

    killable.restart()
    with _admin(killable) as conn:  # recovery kept the committed and nothing else
        assert conn.execute("SELECT round FROM floor.contributions").fetchall() == [(1,)]
        assert conn.execute("SELECT count(*) FROM floor.hits").fetchone() == (0,)
    t1 = psycopg.connect(uris["t1"], autocommit=True)
    t2 = psycopg.connect(uris["t2"], autocommit=True)
    for _ in range(2):  # the outbox resends, then resends again: counted once
        functions.ship(t1, "t1", in_flight, chain_seq=2, chain_head="b", rounds=2)
        hit = functions.claim_hit(t2, "t2", 1, 4, 0, "primary", 100)
    t1.close()
    t2.close()
    # 500 + 2,500 at 1.5 %: 45 cents on the primary when t2 was paid
    assert (hit.meter_cents, hit.amount_cents, hit.reset_to_cents) == (1_000_045, 1_000_045,
                                                                       1_000_000)
    books = [LocalBook("t1", (Contribution(1, 1, "primary", 500), *in_flight), ()),
             LocalBook("t2", (), (LocalHit(1, 4, 0, "primary", 1_000_045),))]
    with _admin(killable) as conn:
        result = reconcile(conn, books)
        assert result.exact, result.differences
        assert [(lv.level, lv.current_cents, lv.wins_cents) for lv in reads.levels(conn)] == [
            ("primary", 1_000_000, 1_000_045), ("secondary", 500_012, 0)]


def _try_claim(conn: psycopg.Connection[Any]) -> BaseException | Hit:
    try:
        return functions.claim_hit(conn, "t2", 1, 4, 0, "primary", 100)
    except psycopg.Error as error:
        return error


def _wait_for_lock_wait(server: Server) -> None:
    """Until a session waits on a lock (t2's claim behind t1's open shipment)."""
    deadline = time.monotonic() + 10
    with psycopg.connect(server.uri(database="floor"), autocommit=True) as conn:
        while conn.execute("SELECT count(*) FROM pg_stat_activity "
                           "WHERE wait_event_type = 'Lock'").fetchone() != (1,):
            assert time.monotonic() < deadline, "the claim never waited for the lock"
            time.sleep(0.01)


@dataclass
class _Table:
    """A table's side reduced to what the faults test: it records each round locally first,
    then ships it and claims its hits until the controller answers, whatever happens."""

    table_id: str
    uri: str
    rng: random.Random
    contributions: list[Contribution] = field(default_factory=list)
    hits: list[LocalHit] = field(default_factory=list)
    conn: psycopg.Connection[Any] | None = None
    retries: int = 0

    def play(self, rounds: int, stop: threading.Event) -> None:
        for round_no in range(1, rounds + 1):
            if stop.is_set():
                return
            batch = [Contribution(round_no, seat, level, self.rng.choice([100, 500, 2_500]))
                     for seat in self.rng.sample(range(1, 8), self.rng.randint(1, 4))
                     for level in ("primary", "secondary")]
            self.contributions += batch  # the table's own ledger first
            self._until_answered(lambda conn, b=batch, r=round_no: functions.ship(
                conn, self.table_id, b, chain_seq=r, chain_head=f"{self.table_id}-{r}",
                rounds=r))
            if self.rng.random() < 0.08:
                seat, level = batch[0].seat, batch[0].level
                hit = self._until_answered(lambda conn, r=round_no, s=seat, lv=level:
                                           functions.claim_hit(conn, self.table_id, r, s, 0, lv,
                                                               100))
                self.hits.append(LocalHit(round_no, seat, 0, level, hit.amount_cents))

    def _until_answered(self, call: Callable[[psycopg.Connection[Any]], Any]) -> Any:
        while True:
            try:
                if self.conn is None or self.conn.closed:
                    self.conn = psycopg.connect(self.uri, autocommit=True, connect_timeout=5)
                return call(self.conn)
            except psycopg.OperationalError:
                self.retries += 1
                if self.conn is not None:
                    self.conn.close()
                self.conn = None
                time.sleep(0.02)

    def book(self) -> LocalBook:
        return LocalBook(self.table_id, tuple(self.contributions), tuple(self.hits))


def test_tables_playing_through_kills_stops_and_restarts_lose_and_double_nothing(
        killable: Server) -> None:
    names = ["t1", "t2", "t3", "t4"]
    uris = _init(killable, names)
    rng = random.Random(7)
    tables = [_Table(name, uris[name], random.Random(rng.random())) for name in names]
    stop = threading.Event()
    threads = [threading.Thread(target=t.play, args=(120, stop)) for t in tables]
    for thread in threads:
        thread.start()
    try:
        for fault in ("SIGKILL", "pg_ctl stop -m immediate", "link cut (clean stop)", "SIGKILL"):
            time.sleep(rng.uniform(0.3, 0.8))  # tables mid-shipment, mid-claim
            FAULTS[fault](killable)
            time.sleep(rng.uniform(0.1, 0.5))  # the link is down a while
            killable.restart()
    finally:
        for thread in threads:
            thread.join(120)
        stop.set()
    assert all(not thread.is_alive() for thread in threads)
    assert sum(t.retries for t in tables) > 0, "no fault reached a table: the test proved nothing"
    with _admin(killable) as conn:
        result = reconcile(conn, [t.book() for t in tables])
        assert result.exact, result.differences
        shipped = conn.execute("SELECT count(*), sum(wager_cents) FROM floor.contributions"
                               ).fetchone()
        assert shipped == (sum(len(t.contributions) for t in tables),
                           sum(c.wager_cents for t in tables for c in t.contributions))
        assert conn.execute("SELECT count(*) FROM floor.hits").fetchone() == (
            sum(len(t.hits) for t in tables),)
        levels = {lv.level: lv for lv in reads.levels(conn)}
    # whatever order they landed in, the contributions' millionths are the wagers' share
    for rules in (PRIMARY_RULES, SECONDARY_RULES):
        wagers = sum(c.wager_cents for t in tables for c in t.contributions
                     if c.level == rules.level.value)
        level = levels[rules.level.value]
        assert (level.contributions_cents * 1_000_000 + level.carry_millionths
                == wagers * rules.rate_millionths)
