"""What the pages are sent, without a server: the floor's picture made from the controller's
views (the levels in the paytable's order, the newest hit first, times in Unix seconds, the
pool's books checked to the cent), the sign's share of it (no dealers, outboxes or books),
and the board that hands each page the newest picture only."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from etg.floor.reads import FloorView, HitView, LevelView, TableView
from etg.web.board import Board, Closed
from etg.web.picture import picture_of, sign_view

AT = datetime(2026, 11, 28, 21, 30, tzinfo=UTC)


def level(name: str, *, current: int = 1_234_567, seed: int = 1_000_000,
          contributions: int = 300_000, wins: int = 65_433, adjustments: int = 0,
          hits: int = 1) -> LevelView:
    return LevelView(level=name, initial_cents=1_000_000, reset_cents=1_000_000,
                     rate_millionths=15_000, ceiling_cents=None, reserve_cap_cents=None,
                     opening_cents=1_000_000,
                     seed_cents=seed, contributions_cents=contributions, current_cents=current,
                     wins_cents=wins, overflow_cents=0, reserve_cents=0,
                     adjustments_cents=adjustments, carry_millionths=250_000, hits=hits,
                     paytable="maryland-community-5", updated_at=AT)


def table(table_id: str) -> TableView:
    return TableView(table_id=table_id, asset_number=f"BSX-{table_id}", linked_levels=("primary",),
                     state="open", link_state="up", last_heartbeat=AT, outbox_depth=2,
                     dealer="D0417", rounds=40, rounds_today=12, chain_seq=40,
                     contributions_cents={"primary": 300_000},
                     contributions_millionths={"primary": 300_000_000_000},
                     wagers_cents={"primary": 20_000_000})


def hit(hit_id: int, validated: bool) -> HitView:
    return HitView(hit_id=hit_id, order_no=hit_id, level="primary", table_id="t7",
                   asset_number="BSX-0417", seat=6, round=93, percent=100,
                   meter_cents=1_065_433, amount_cents=1_065_433, reset_to_cents=1_000_000,
                   claimed_at=AT, validator="floorperson" if validated else None,
                   validator_role="floorperson" if validated else None,
                   validated_at=AT if validated else None)


def view(*levels: LevelView) -> FloorView:
    return FloorView(levels=levels, tables=(table("t1"), table("t2")),
                     hits=(hit(1, True), hit(2, False)))


def test_the_levels_come_in_the_paytable_s_order_and_the_newest_hit_first() -> None:
    picture = picture_of(view(level("secondary"), level("progressive_payout"),
                              level("primary")), now=1_800_000_000.5)
    assert [each["level"] for each in picture["levels"]] == ["primary", "secondary",
                                                             "progressive_payout"]
    assert [each["hit_id"] for each in picture["hits"]] == [2, 1]
    assert picture["hits"][0]["validated_at"] is None
    assert picture["hits"][1]["validated_at"] == AT.timestamp()
    assert picture["now"] == 1_800_000_000.5
    assert picture["controller"] == {"up": True}
    assert picture["tables"][0]["last_heartbeat"] == AT.timestamp()
    assert picture["levels"][0]["current_cents"] == 1_234_567
    assert picture["levels"][0]["adjustments"] == 0


def test_each_level_is_sent_with_its_contributions_today() -> None:
    # the dashboard's "Today" figure (issue 28): the view's sum since midnight, not a default
    today = replace(level("primary"), contributions_today_cents=4_321)
    shown = picture_of(view(today), now=1_800_000_000.0)
    assert [(lv["level"], lv["contributions_today_cents"]) for lv in shown["levels"]] == [
        ("primary", 4_321)]


def test_the_pool_s_books_are_checked_on_the_very_snapshot_shown() -> None:
    # 1,000,000 + 300,000 + 0 = 1,234,567 + 65,433 + 0 + 0
    assert picture_of(view(level("primary")), now=5.0)["reconciliation"] == {
        "at": 5.0, "exact": True, "difference": None}
    off_by_one = level("secondary", current=1_234_568)
    assert picture_of(view(level("primary"), off_by_one), now=5.0)["reconciliation"] == {
        "at": 5.0, "exact": False,
        "difference": "secondary: seed + contributions + adjustments 1300000 ¢ ≠ current + "
                      "wins + overflow + reserve 1300001 ¢ (-1 ¢)"}
    adjusted = level("primary", current=1_134_567, adjustments=-100_000)  # signed, down $1,000
    assert picture_of(view(adjusted), now=5.0)["reconciliation"]["exact"] is True


def test_the_sign_is_sent_the_meters_and_the_winners_and_nothing_of_the_pit() -> None:
    picture = picture_of(view(level("primary")), now=5.0)
    sign = sign_view(picture)
    assert set(sign) == {"controller", "now", "levels", "hits"}
    assert sign["levels"] == [{"level": "primary", "current_cents": 1_234_567, "hits": 1,
                               "adjustments": 0, "contributions_cents": 300_000}]
    assert sign["hits"][0] == {"hit_id": 2, "order_no": 2, "level": "primary",
                               "asset_number": "BSX-0417", "table_id": "t7", "seat": 6,
                               "amount_cents": 1_065_433, "claimed_at": AT.timestamp()}
    assert "D0417" not in repr(sign)


def test_a_page_that_fell_behind_is_handed_the_newest_picture_only() -> None:
    async def scenario() -> list[object]:
        board = Board()
        seen: list[object] = []
        for n in range(1, 4):
            await board.put({"n": n})
        version, picture = await board.newer_than(0)
        seen += [version, picture]
        waiting = asyncio.create_task(board.newer_than(version))
        await asyncio.sleep(0)
        assert not waiting.done()
        await board.put({"n": 4})
        seen.append(await waiting)
        ending = asyncio.create_task(board.newer_than(4))
        await asyncio.sleep(0)
        await board.close()
        with pytest.raises(Closed):
            await ending
        return seen

    assert asyncio.run(scenario()) == [3, {"n": 3}, (4, {"n": 4})]
