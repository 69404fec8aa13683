"""The controller's meters to the cent and the millionth: the same arithmetic as a local meter
(etg/core/progressive.py), ceilings, the reserve and its cap (overflow), the carry, the books."""

from __future__ import annotations

import random
from typing import Any

import psycopg
import pytest

from etg.core import progressive
from etg.core.paytable import Meter
from etg.floor import functions, reads
from etg.floor.admin import LevelRules
from etg.floor.errors import FloorRefusal
from etg.floor.functions import Contribution
from etg.floor.reconcile import reconcile
from tests.floor_support import PRIMARY, SECONDARY, Floor


def _ship(conn: psycopg.Connection[Any], seq: int,
          items: list[Contribution]) -> functions.Shipped:
    """Table t1's shipment number ``seq`` (its chain head and round count move on)."""
    return functions.ship(conn, "t1", items, chain_seq=seq, chain_head=f"h{seq}", rounds=seq)


def test_a_contribution_carries_millionths_and_moves_whole_cents(floor: Floor) -> None:
    t1 = floor.table(floor.init([LevelRules(PRIMARY, 1_000_000, 1_000_000, 15_000)],
                                ["t1"])["t1"])
    # 333 cents at 1.5 %: 4,995,000 millionths: 4 cents on, 995,000 waiting
    assert _ship(t1, 1, [Contribution(1, 1, "primary", 333)]).meters == {"primary": 1_000_004}
    level = reads.levels(floor.admin())[0]
    assert (level.current_cents, level.carry_millionths, level.contributions_cents) == (
        1_000_004, 995_000, 4)
    # 1 cent more at 1.5 %: 15,000 millionths: the carry passes a cent
    assert _ship(t1, 2, [Contribution(2, 1, "primary", 1)]).meters == {"primary": 1_000_005}
    level = reads.levels(floor.admin())[0]
    assert (level.current_cents, level.carry_millionths, level.contributions_cents) == (
        1_000_005, 10_000, 5)


def test_above_the_ceiling_to_the_reserve_above_its_cap_overflow(floor: Floor) -> None:
    rules = LevelRules(PRIMARY, 1_000_000, 1_000_000, 100_000, ceiling_cents=1_000_050,
                       reserve_cap_cents=70)
    t1 = floor.table(floor.init([rules], ["t1"])["t1"])
    _ship(t1, 1, [Contribution(1, 1, "primary", 400)])  # +40: 1,000,040
    _ship(t1, 2, [Contribution(2, 1, "primary", 400)])  # +40: 10 on, 30 reserve
    _ship(t1, 3, [Contribution(3, 1, "primary", 600)])  # +60: reserve 30 -> 70, 20 overflow
    rows = floor.admin().execute(
        "SELECT round, millionths, to_meter_cents, to_reserve_cents, overflow_cents "
        "FROM floor.contributions ORDER BY round").fetchall()
    assert rows == [(1, 40_000_000, 40, 0, 0), (2, 40_000_000, 10, 30, 0),
                    (3, 60_000_000, 0, 40, 20)]
    level = reads.levels(floor.admin())[0]
    assert (level.current_cents, level.reserve_cents, level.overflow_cents,
            level.contributions_cents) == (1_000_050, 70, 20, 140)
    # a hit: 100 % paid, reset to 1,000,000, the reserve back up to the ceiling (50 of 70)
    hit = functions.claim_hit(t1, "t1", 4, 2, 0, "primary", 100)
    assert (hit.amount_cents, hit.reset_to_cents) == (1_000_050, 1_000_050)
    level = reads.levels(floor.admin())[0]
    assert (level.current_cents, level.reserve_cents, level.seed_cents, level.wins_cents) == (
        1_000_050, 20, 2_000_000, 1_000_050)
    assert reconcile(floor.admin()).exact


def test_one_shipment_works_its_rows_out_in_its_order_as_separate_ones_would(
        floor: Floor) -> None:
    # migration 005 works a batch out level by level and updates each level once: the rows of
    # one shipment, the two levels interleaved, must split exactly as three shipments did above
    rules = LevelRules(PRIMARY, 1_000_000, 1_000_000, 100_000, ceiling_cents=1_000_050,
                       reserve_cap_cents=70)
    t1 = floor.table(floor.init([rules, LevelRules(SECONDARY, 500_000, 500_000, 15_000)],
                                ["t1"])["t1"])
    shipped = _ship(t1, 1, [Contribution(1, 1, "primary", 400),
                            Contribution(1, 1, "secondary", 333),
                            Contribution(1, 2, "primary", 400),
                            Contribution(1, 2, "secondary", 333),
                            Contribution(1, 3, "primary", 600)])
    assert shipped.meters == {"primary": 1_000_050, "secondary": 500_009}
    rows = floor.admin().execute(
        "SELECT seat, level, millionths, to_meter_cents, to_reserve_cents, overflow_cents "
        "FROM floor.contributions ORDER BY level, seat").fetchall()
    assert rows == [(1, "primary", 40_000_000, 40, 0, 0), (2, "primary", 40_000_000, 10, 30, 0),
                    (3, "primary", 60_000_000, 0, 40, 20),
                    (1, "secondary", 4_995_000, 4, 0, 0), (2, "secondary", 4_995_000, 5, 0, 0)]
    primary, secondary = reads.levels(floor.admin())
    assert (primary.current_cents, primary.reserve_cents, primary.overflow_cents,
            primary.contributions_cents) == (1_000_050, 70, 20, 140)
    assert (secondary.current_cents, secondary.carry_millionths,
            secondary.contributions_cents) == (500_009, 990_000, 9)
    assert reconcile(floor.admin()).exact


def test_a_key_twice_in_one_shipment_counts_once_or_is_refused(floor: Floor) -> None:
    t1 = floor.table(floor.init([LevelRules(PRIMARY, 1_000_000, 1_000_000, 10_000)],
                                ["t1"])["t1"])
    shipped = _ship(t1, 1, [Contribution(1, 1, "primary", 500),
                            Contribution(1, 1, "primary", 500)])  # the same row, sent twice
    assert shipped.meters == {"primary": 1_000_005}
    assert [tuple(key) for key in shipped.acked] == [(1, 1, "primary"), (1, 1, "primary")]
    with pytest.raises(FloorRefusal) as refused:
        _ship(t1, 2, [Contribution(2, 1, "primary", 500), Contribution(2, 1, "primary", 700)])
    assert "contribution (t1, 2, 1, primary) was 500 cents, now 700: refused" in str(
        refused.value)
    assert reads.levels(floor.admin())[0].current_cents == 1_000_005  # nothing of round 2
    assert floor.admin().execute("SELECT count(*) FROM floor.contributions").fetchone() == (1,)
    assert reconcile(floor.admin()).exact


def test_a_partial_award_leaves_the_rest_and_tops_up_to_the_reset(floor: Floor) -> None:
    t1 = floor.table(floor.init([LevelRules(SECONDARY, 500_000, 500_000, 10_000)],
                                ["t1"])["t1"])
    _ship(t1, 1, [Contribution(1, 1, "secondary", 10_001)])  # +100, carry 10,000
    hit = functions.claim_hit(t1, "t1", 1, 1, 0, "secondary", 20)  # the $1 wager's 20 %
    # 20 % of 500,100 is 100,020; 400,080 remain; the house tops up 99,920 to 500,000
    assert (hit.meter_cents, hit.amount_cents, hit.reset_to_cents) == (500_100, 100_020, 500_000)
    level = reads.levels(floor.admin())[0]
    assert (level.seed_cents, level.wins_cents, level.carry_millionths) == (
        599_920, 100_020, 10_000)


@pytest.mark.parametrize("seed", range(3))
def test_random_play_matches_a_local_meter_to_the_millionth(floor: Floor, seed: int) -> None:
    """Many tables' contributions and hits, in one order, against etg.core.progressive."""
    rng = random.Random(seed)
    meter = Meter(1_000_000, 1_000_000, rng.choice([0.015, 0.012345, 0.03]),
                  rng.choice([None, 1_002_000, 1_000_700]))
    rules = LevelRules.of(PRIMARY, meter)
    logins = floor.init([rules], ["t1", "t2", "t3"])
    conns = {table: floor.table(login) for table, login in logins.items()}
    seqs = dict.fromkeys(conns, 0)
    state = progressive.initial_state(meter)
    seed_cents = meter.initial_cents
    wins = 0
    for step in range(150):
        table = rng.choice(sorted(conns))
        seqs[table] += 1
        if rng.random() < 0.06:
            percent = rng.choice([100, 20])
            state, award = progressive.award(meter, state, percent)
            hit = functions.claim_hit(conns[table], table, seqs[table], 1, 0, "primary", percent)
            assert (hit.amount_cents, hit.reset_to_cents) == (award.amount, state.cents)
            seed_cents += award.seeded
            wins += award.amount
        else:
            batch = [Contribution(seqs[table], seat, "primary", rng.choice([100, 500, 2_500, 777]))
                     for seat in rng.sample(range(1, 8), rng.randint(1, 6))]
            for c in batch:
                state, _ = progressive.contribute(meter, state, c.wager_cents)
            shipped = functions.ship(conns[table], table, batch, chain_seq=seqs[table],
                                     chain_head=f"{table}-{step}", rounds=seqs[table])
            assert shipped.meters == {"primary": state.cents}
    level = reads.levels(floor.admin())[0]
    assert (level.current_cents, level.carry_millionths, level.reserve_cents) == (
        state.cents, state.carry, state.reserve_cents)
    assert (level.seed_cents, level.wins_cents) == (seed_cents, wins)
    books = reconcile(floor.admin())
    assert books.exact, books.differences
    assert books.levels[0].contributions_millionths == (
        books.levels[0].contributions_cents * 1_000_000 + state.carry)
