"""The table functions' promises: retries count once, the chain never goes backwards, only
linked levels, heartbeats, level changes refused while a table is open, NOTIFY on changes."""

from __future__ import annotations

import json

import psycopg
import pytest
from psycopg.types.json import Jsonb

from etg.floor import admin, functions, reads
from etg.floor.admin import LevelRules
from etg.floor.errors import FloorRefusal, Refused
from etg.floor.functions import Contribution
from tests.floor_support import PRIMARY, PRIMARY_RULES, SECONDARY, Floor

BATCH = [Contribution(1, 1, "primary", 500), Contribution(1, 2, "primary", 2_500),
         Contribution(1, 1, "secondary", 500)]


def test_a_retried_batch_is_acknowledged_again_and_counted_once(floor: Floor) -> None:
    t1 = floor.table(floor.init()["t1"])
    first = functions.ship(t1, "t1", BATCH, chain_seq=3, chain_head="abc", rounds=1)
    assert first.acked == ((1, 1, "primary"), (1, 2, "primary"), (1, 1, "secondary"))
    assert first.meters == {"primary": 1_000_045, "secondary": 500_002}
    for _ in range(3):  # the ack was lost: the outbox sends the same again
        again = functions.ship(t1, "t1", BATCH, chain_seq=3, chain_head="abc", rounds=1)
        assert again == first
    # a later shipment carrying an old key with the new ones
    later = functions.ship(t1, "t1", [BATCH[0], Contribution(2, 1, "primary", 500)],
                           chain_seq=4, chain_head="abd", rounds=2)
    assert later.meters == {"primary": 1_000_052, "secondary": 500_002}
    assert floor.admin().execute("SELECT count(*) FROM floor.contributions").fetchone() == (4,)


def test_the_same_key_with_another_wager_is_refused_and_changes_nothing(floor: Floor) -> None:
    t1 = floor.table(floor.init()["t1"])
    functions.ship(t1, "t1", BATCH, chain_seq=1, chain_head="a", rounds=1)
    with pytest.raises(FloorRefusal) as refused:
        functions.ship(t1, "t1", [Contribution(2, 1, "primary", 500),
                                  Contribution(1, 1, "primary", 600)],
                       chain_seq=2, chain_head="b", rounds=2)
    assert refused.value.reason is Refused.BAD_REQUEST
    assert "was 500 cents, now 600" in str(refused.value)
    # the whole call was one transaction: round 2's row and the chain's move are gone too
    assert [(t.rounds, t.chain_seq) for t in reads.tables(floor.admin())] == [(1, 1), (0, 0)]
    assert floor.admin().execute("SELECT count(*) FROM floor.contributions").fetchone() == (3,)


@pytest.mark.parametrize(("seq", "head", "rounds"), [(4, "h4", 9), (5, "h5", 8), (5, "zz", 9)],
                         ids=["seq back", "rounds back", "head differs at the same seq"])
def test_a_chain_that_went_backwards_is_refused(floor: Floor, seq: int, head: str,
                                                rounds: int) -> None:
    t1 = floor.table(floor.init()["t1"])
    functions.ship(t1, "t1", [], chain_seq=5, chain_head="h5", rounds=9)
    with pytest.raises(FloorRefusal) as refused:
        functions.ship(t1, "t1", [Contribution(10, 1, "primary", 500)], chain_seq=seq,
                       chain_head=head, rounds=rounds)
    assert refused.value.reason is Refused.CHAIN_BACKWARDS
    assert str(refused.value).startswith("chain head went backwards: table t1 sent seq")
    assert reads.levels(floor.admin())[0].contributions_cents == 0


def test_only_the_levels_a_table_links(floor: Floor) -> None:
    conn = floor.admin()
    floor.init()
    t3 = floor.table(admin.add_table(conn, "t3", [SECONDARY]))
    with pytest.raises(FloorRefusal) as shipped:
        functions.ship(t3, "t3", [Contribution(1, 1, "primary", 500)], chain_seq=1,
                       chain_head="a", rounds=1)
    with pytest.raises(FloorRefusal) as claimed:
        functions.claim_hit(t3, "t3", 1, 1, 0, "primary", 100)
    assert shipped.value.reason is claimed.value.reason is Refused.NOT_LINKED
    assert reads.levels(conn)[0].wins_cents == 0


def test_a_claim_retried_is_the_same_hit_and_a_validation_too(floor: Floor) -> None:
    t1 = floor.table(floor.init()["t1"])
    hit = functions.claim_hit(t1, "t1", 7, 3, 0, "primary", 100)
    assert functions.claim_hit(t1, "t1", 7, 3, 0, "primary", 100) == hit
    with pytest.raises(FloorRefusal):
        functions.claim_hit(t1, "t1", 7, 3, 0, "primary", 20)
    valid = functions.validate_hit(t1, "t1", hit.hit_id, "floorperson", "floorperson")
    assert functions.validate_hit(t1, "t1", hit.hit_id, "floorperson", "floorperson") == valid
    with pytest.raises(FloorRefusal):
        functions.validate_hit(t1, "t1", hit.hit_id, "supervisor", "supervisor")
    with pytest.raises(FloorRefusal):
        functions.validate_hit(t1, "t1", hit.hit_id, "operator", "operator")
    level = reads.levels(floor.admin())[0]
    assert (level.hits, level.wins_cents, level.seed_cents) == (1, 1_000_000, 2_000_000)
    assert [(h.validator, h.validator_role) for h in reads.hits(floor.admin())] == [
        ("floorperson", "floorperson")]


def test_a_heartbeat_answers_the_meters_and_shows_the_table(floor: Floor) -> None:
    t1 = floor.table(floor.init()["t1"])
    beat = functions.heartbeat(t1, "t1", "open", "D0417", 12)
    assert beat.meters == {"primary": 1_000_000, "secondary": 500_000}
    assert beat.levels["primary"] == {"initial_cents": 1_000_000, "reset_cents": 1_000_000,
                                      "rate_millionths": 15_000, "ceiling_cents": None,
                                      "current_cents": 1_000_000}
    assert beat.now.endswith("Z")
    table = reads.tables(floor.admin())[0]
    assert (table.state, table.link_state, table.dealer, table.outbox_depth) == (
        "open", "up", "D0417", 12)
    with pytest.raises(FloorRefusal):
        functions.heartbeat(t1, "t1", "dancing", None, 0)


def test_a_level_cannot_change_while_a_table_is_open(floor: Floor) -> None:
    logins = floor.init()
    conn = floor.admin()
    t1 = floor.table(logins["t1"])
    functions.heartbeat(t1, "t1", "open", None, 0)
    dearer = LevelRules(PRIMARY, 1_000_000, 1_000_000, 20_000)
    with pytest.raises(FloorRefusal) as refused:
        admin.set_level(conn, dearer, supervisor="supervisor", reason="new rate")
    assert refused.value.reason is Refused.TABLES_OPEN
    assert str(refused.value) == "level primary cannot change while tables are open: t1"
    assert reads.levels(conn)[0].rate_millionths == 15_000
    # a table silent for more than 10 s is not open for play: it refuses linked wagers itself
    conn.execute("UPDATE floor.tables SET last_heartbeat = now() - interval '11 seconds'")
    admin.set_level(conn, dearer, supervisor="supervisor", reason="new rate")
    functions.heartbeat(t1, "t1", "closed", None, 0)
    admin.set_level(conn, PRIMARY_RULES, supervisor="supervisor", reason="back")
    assert [r[0] for r in conn.execute("SELECT after->>'rate_millionths' FROM floor.adjustments "
                                       "ORDER BY adjustment_id")] == ["20000", "15000"]


def test_a_shipment_is_heard_on_the_floor_only_once_announced(floor: Floor) -> None:
    # migration 005: ship() answers the table first; announce() then wakes the listeners, so
    # a table's acknowledgement never waits for the whole floor to hear
    logins = floor.init()
    listener = psycopg.connect(floor.admin_uri, autocommit=True)
    try:
        listener.execute("LISTEN floor")
        t1 = floor.table(logins["t1"])
        answer = t1.execute("SELECT floor.ship('t1', %s, 1, 'a', 1)", (Jsonb(
            [{"round": 1, "seat": 1, "level": "primary", "wager_cents": 3_000}]),)).fetchone()
        assert answer is not None and answer[0]["new"] == 1
        assert list(listener.notifies(timeout=0.5, stop_after=1)) == []
        assert functions.announce(t1, "t1") == {"primary": 1_000_045, "secondary": 500_000}
        [heard] = [json.loads(n.payload) for n in listener.notifies(timeout=5.0, stop_after=1)]
        assert heard == {"kind": "contribution", "table": "t1",
                         "meters": {"primary": 1_000_045, "secondary": 500_000}}
    finally:
        listener.close()


def test_every_change_is_notified_on_the_floor_channel(floor: Floor) -> None:
    logins = floor.init()
    listener = psycopg.connect(floor.admin_uri, autocommit=True)
    try:
        listener.execute("LISTEN floor")
        t1 = floor.table(logins["t1"])
        functions.heartbeat(t1, "t1", "open", None, 0)
        functions.heartbeat(t1, "t1", "open", None, 0)  # no change: no notice
        functions.ship(t1, "t1", BATCH, chain_seq=1, chain_head="a", rounds=1)
        functions.ship(t1, "t1", BATCH, chain_seq=1, chain_head="a", rounds=1)  # a retry: none
        hit = functions.claim_hit(t1, "t1", 1, 1, 0, "primary", 100)
        functions.validate_hit(t1, "t1", hit.hit_id, "supervisor", "supervisor")
        admin.adjust_meter(floor.admin(), SECONDARY, 600_000, supervisor="s", reason="r")
        seen = [json.loads(n.payload) for n in listener.notifies(timeout=1.0, stop_after=5)]
    finally:
        listener.close()
    assert [(n["kind"], n.get("table"), n.get("level")) for n in seen] == [
        ("table", "t1", None), ("contribution", "t1", None), ("hit", "t1", "primary"),
        ("validation", "t1", "primary"), ("adjustment", None, "secondary")]
    assert seen[1]["meters"] == {"primary": 1_000_045, "secondary": 500_002}
    assert seen[2]["amount_cents"] == 1_000_045
