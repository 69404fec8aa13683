"""1,000 randomised trials of simultaneous hits on one level from different tables (issue 27
item 7): each paid once, in a recorded order, the second from the reset plus what came after.

Each table is a thread with its own connection and role. In every trial two to four tables
claim a hit on the primary level at the same instant (a barrier), some of them twice (a retry
after a lost answer), while another table ships contributions. Afterwards the controller's
rows, replayed in the order the level's lock granted them (the timestamps taken under the
lock) through etg/core/progressive.py, give back every hit's meter and amount to the cent.
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
import pytest

from etg.core import progressive
from etg.core.paytable import Meter
from etg.floor import functions, reads
from etg.floor.admin import LevelRules
from etg.floor.functions import Contribution, Hit
from etg.floor.reconcile import reconcile
from tests.floor_support import PRIMARY, Floor

TRIALS = 1_000
TABLES = [f"t{n}" for n in range(1, 7)]
METER = Meter(1_000_000, 1_000_000, 0.015, None)


def _claim(conn: psycopg.Connection[Any], barrier: threading.Barrier, table: str, trial: int,
           percent: int, retry: bool) -> list[Hit]:
    barrier.wait()
    first = functions.claim_hit(conn, table, trial, 1, 0, "primary", percent)
    return [first, functions.claim_hit(conn, table, trial, 1, 0, "primary", percent)] if retry \
        else [first]


def _ship(conn: psycopg.Connection[Any], barrier: threading.Barrier, table: str,
          trial: int, wagers: list[int]) -> list[Hit]:
    barrier.wait()
    for seat, wager in enumerate(wagers, start=1):
        functions.ship(conn, table, [Contribution(trial, seat, "primary", wager)],
                       chain_seq=trial * 10 + seat, chain_head=f"{table}-{trial}-{seat}",
                       rounds=trial)
    return []


@pytest.mark.slow
def test_simultaneous_hits_are_each_paid_once_in_order_from_the_reset(floor: Floor) -> None:
    logins = floor.init([LevelRules.of(PRIMARY, METER)], TABLES)
    conns = {table: floor.table(login) for table, login in logins.items()}
    rng = random.Random(27)
    claims: dict[tuple[str, int], list[Hit]] = {}
    with ThreadPoolExecutor(max_workers=len(TABLES)) as pool:
        for trial in range(1, TRIALS + 1):
            tables = rng.sample(TABLES, rng.randint(3, 5))
            claimers, shipper = tables[:-1], tables[-1]
            barrier = threading.Barrier(len(tables))
            futures = {table: pool.submit(_claim, conns[table], barrier, table, trial,
                                          rng.choice([100, 100, 20]), rng.random() < 0.2)
                       for table in claimers}
            shipping = pool.submit(_ship, conns[shipper], barrier, shipper, trial,
                                   [rng.choice([100, 500, 2_500]) for _ in range(3)])
            for table, future in futures.items():
                claims[(table, trial)] = future.result()
            shipping.result()

    answers = [hit for answers in claims.values() for hit in answers]
    # each claim paid once: a retry got the very same hit back
    assert all(len({(h.hit_id, h.amount_cents) for h in hits}) == 1 for hits in claims.values())
    conn = floor.admin()
    rows = conn.execute("SELECT hit_id, order_no, table_id, round, meter_cents, amount_cents, "
                        "percent, reset_to_cents, claimed_at FROM floor.hits "
                        "ORDER BY order_no").fetchall()
    assert len(rows) == len(claims)
    assert [r[1] for r in rows] == list(range(1, len(claims) + 1))  # the recorded order
    by_id = {r[0]: r for r in rows}
    assert all(by_id[h.hit_id][5] == h.amount_cents and by_id[h.hit_id][1] == h.order_no
               for h in answers)

    # replay the level in the order its lock was granted: contributions and hits interleaved
    events: list[tuple[Any, int, int, int]] = [
        (at, 0, wager, 0) for at, wager in conn.execute(
            "SELECT at, wager_cents FROM floor.contributions")]
    events += [(r[8], 1, r[6], r[1]) for r in rows]
    events.sort()
    assert len({e[0] for e in events}) == len(events), "two events at one instant"
    state = progressive.initial_state(METER)
    seen_after_reset = 0
    for _, kind, value, order_no in events:
        if kind == 0:
            state, _ = progressive.contribute(METER, state, value)
            continue
        row = rows[order_no - 1]
        assert row[4] == state.cents, f"hit {order_no} paid from {row[4]}, not {state.cents}"
        state, award = progressive.award(METER, state, value)
        assert (row[5], row[7]) == (award.amount, state.cents)
        seen_after_reset += order_no > 1 and rows[order_no - 2][3] == row[3]
    # in a trial the later claims were paid from the reset plus what came in between
    assert seen_after_reset >= TRIALS
    level = reads.levels(conn)[0]
    assert (level.hits, level.current_cents, level.carry_millionths) == (
        len(claims), state.cents, state.carry)
    assert reconcile(conn).exact
