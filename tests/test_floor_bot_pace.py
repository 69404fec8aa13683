"""Bot tables on a paced floor start out of step, as dealt tables do (etg bench's floor)."""

from __future__ import annotations

from etg.table.floor_bot import first_offset


def test_paced_tables_start_spread_over_the_pace_and_the_same_each_run() -> None:
    ids = [f"b{n:02d}" for n in range(1, 41)]
    offsets = [first_offset(table, 8.0) for table in ids]
    assert all(0.0 <= offset < 8.0 for offset in offsets)
    assert offsets == [first_offset(table, 8.0) for table in ids]  # fixed per table
    # spread, not bunched: every two-second quarter of the pace has some of the forty
    assert {int(offset // 2) for offset in offsets} == {0, 1, 2, 3}
    assert len(set(offsets)) >= 35


def test_an_unpaced_table_starts_at_once() -> None:
    assert first_offset("b01", 0.0) == 0.0
