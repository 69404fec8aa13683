"""``verify --full`` in worker processes finds what one process finds (issue 11, item 2).

A long ledger is cut at rolling checkpoints into parts, each walked (its links
and its money) by a worker process; the money each part ends with must be the
money the next part starts from. These tests walk short ledgers the long way
(the threshold and the worker count turned down, a checkpoint after every
round) and compare with one process: every edit, every money fault, found in
both, by the same row. The faults are real: entries edited with plain SQLite,
or written and signed with the ledger's key as a faulty program would.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from etg.config.places import shipped_config_dir
from etg.core.rng import SeededSource
from etg.ledger import verify as verify_module
from etg.ledger.store import Ledger, Problem
from etg.ledger.verify import verify
from etg.table import controller as table_module
from etg.table.bots import RoundDriver, busiest_bots
from etg.table.controller import Table
from tests.ledger_support import paytable

MD7 = shipped_config_dir() / "paytables" / "maryland-community-7.yaml"


def _played(db: Path, rounds: int, between: Any = None) -> None:
    """The busiest table on ``db`` for ``rounds`` rounds; ``between(table, n)`` after round n."""
    table = Table.open(Ledger.open(db), paytable(MD7), SeededSource(1))
    driver = RoundDriver(busiest_bots(table.state.paytable), SeededSource(2), table.apply,
                         repeat=True)
    for n in range(1, rounds + 1):
        driver.play_round(table.state)
        if between is not None:
            between(table, n)
    table.close()


@pytest.fixture
def parts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Walk in three worker processes from the first entry on; the parts of each walk."""
    monkeypatch.setattr(table_module, "CHECKPOINT_EVERY", 1)  # a cut after every round
    monkeypatch.setattr(verify_module, "PARALLEL_ROWS", 1)
    monkeypatch.setattr(verify_module, "workers", lambda: 3)
    seen: list[int] = []
    walk = verify_module._Checks._walk_parts

    def counting(self: Any, parts: list[Any], *args: Any) -> None:
        seen.append(len(parts))
        walk(self, parts, *args)

    monkeypatch.setattr(verify_module._Checks, "_walk_parts", counting)
    return seen


def _both(db: Path, monkeypatch: pytest.MonkeyPatch, **options: Any) -> tuple[
        list[Problem], list[Problem]]:
    """``verify --full`` in worker processes, then in this one."""
    store = Ledger.open_readonly(db)
    try:
        split = verify(store, full=True, **options)
        with monkeypatch.context() as patch:
            patch.setattr(verify_module, "PARALLEL_ROWS", 10**12)
            whole = verify(store, full=True, **options)
    finally:
        store.close()
    return split, whole


def _rows(problems: list[Problem]) -> set[str]:
    return {p.message.split(" (")[0].split(":")[0] for p in problems}


def test_a_sound_ledger_walked_in_parts_is_sound(tmp_path: Path, parts: list[int],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "l.db"
    _played(db, 10)
    for events in (False, True):
        split, whole = _both(db, monkeypatch, events=events)
        assert split == whole == []
    assert parts and min(parts) >= 6  # the walk was cut, into a dozen parts


def test_every_edit_is_found_by_its_row_in_parts_as_in_one_process(
        tmp_path: Path, parts: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "l.db"
    _played(db, 8)
    with sqlite3.connect(db) as conn:  # one edit in each third of the chain, a checkpoint too
        conn.execute("DROP TRIGGER entries_no_update")
        last = conn.execute("SELECT max(seq) FROM entries").fetchone()[0]
        middle = conn.execute("SELECT seq FROM entries WHERE kind = 'checkpoint' AND seq > ? "
                              "ORDER BY seq LIMIT 1", [last // 2]).fetchone()[0]
        edited = (3, middle, last - 2)
        for seq in edited:
            conn.execute("UPDATE entries SET actor = 'someone' WHERE seq = ?", [seq])
    split, whole = _both(db, monkeypatch)
    chain = [p.message.split(" (")[0] for p in split if p.check == "chain"]
    assert chain == [p.message.split(" (")[0] for p in whole if p.check == "chain"]
    assert chain == [f"entries row {seq}" for seq in edited]
    assert parts


def test_deleted_and_moved_entries_are_found_in_parts(
        tmp_path: Path, parts: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "l.db"
    _played(db, 8)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER entries_no_delete")
        conn.execute("DROP TRIGGER entries_no_update")
        last = conn.execute("SELECT max(seq) FROM entries").fetchone()[0]
        conn.execute("DELETE FROM entries WHERE seq = ?", [last // 3])
        conn.execute("UPDATE entries SET seq = -1 WHERE seq = ?", [2 * last // 3])
        conn.execute("UPDATE entries SET seq = ? WHERE seq = ?", [2 * last // 3, 2 * last // 3 + 1])
        conn.execute("UPDATE entries SET seq = ? WHERE seq = -1", [2 * last // 3 + 1])
    split, whole = _both(db, monkeypatch)
    assert split and whole
    found = " ".join(p.message for p in split if p.check == "chain")
    assert f"entries row {last // 3} is missing" in found
    assert f"entries row {2 * last // 3} " in found
    assert _rows([p for p in split if p.check == "chain"]) == \
        _rows([p for p in whole if p.check == "chain"])


def test_a_money_fault_in_each_part_is_found_as_one_process_finds_it(
        tmp_path: Path, parts: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Cash put on record without reaching the seat (a faulty program, signed with the key):
    the next round's credits do not add up, wherever the walk was cut."""
    db = tmp_path / "l.db"
    stray: list[int] = []

    def cash_on_record_only(table: Table, n: int) -> None:
        if n in (2, 5, 8):
            ledger = table.ledger
            with ledger.atomic():
                stray.append(ledger.log("cash_in", "attendant", {
                    "seat": 3, "amount": 700, "paytable_id": table.state.paytable.id})["id"])

    _played(db, 10, cash_on_record_only)
    split, whole = _both(db, monkeypatch)
    assert len(stray) == 3
    # Each stray is between a checkpoint and the next round: that round's credits before and
    # after are wrong, in parts as in one process, wherever the cuts fell.
    assert split == whole
    assert [p.check for p in whole] == ["credits"] * 6
    assert sorted({int(p.message.split("(round ")[1].split(")")[0]) for p in whole}) == [3, 6, 9]


def test_a_checkpoint_whose_reserves_do_not_add_up_is_found(
        tmp_path: Path, parts: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint whose progressive reserves differ from the flows before it (signed with
    the key): the money a part starts from is the money the part before ends with."""
    db = tmp_path / "l.db"
    forged: list[int] = []

    def wrong_reserves(table: Table, n: int) -> None:
        if n == 5:
            state = table.state
            meters = tuple(None if m is None else dataclasses.replace(
                m, reserve_cents=m.reserve_cents + 50) for m in state.meters)
            ledger = table.ledger
            with ledger.atomic():
                forged.append(ledger.save_checkpoint(
                    "interval", dataclasses.replace(state, meters=meters)).seq)

    _played(db, 9, wrong_reserves)
    split, whole = _both(db, monkeypatch)
    for problems in (split, whole):
        assert any(f"entries row {forged[0]} (checkpoint)" in p.message for p in problems), \
            problems


def test_progress_reaches_the_end_of_the_chain(tmp_path: Path, parts: list[int]) -> None:
    db = tmp_path / "l.db"
    _played(db, 6)
    told: list[tuple[int, int]] = []
    store = Ledger.open_readonly(db)
    try:
        assert verify(store, full=True, progress=lambda done, total: told.append((done, total))
                      ) == []
        total = store.head[0]
    finally:
        store.close()
    assert told[-1] == (total, total)
    assert all(done <= whole == total for done, whole in told)
    assert [done for done, _ in told] == sorted(done for done, _ in told)


def test_a_damaged_file_is_reported_by_quick_check_when_the_walk_is_in_parts(
        tmp_path: Path, parts: list[int]) -> None:
    """``quick_check`` is one more task of the workers: its finding is the verdict, as it is
    when it runs before the walk, whatever the parts met on the damaged pages."""
    db = tmp_path / "l.db"
    _played(db, 8)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    with db.open("r+b") as file:  # a page in the middle, its header made nonsense
        file.seek(pages // 2 * size)
        file.write(b"\xee" * 16)
    store = Ledger.open_readonly(db)
    try:
        problems = verify(store, full=True)
    finally:
        store.close()
    assert problems and {p.check for p in problems} == {"quick_check"}, problems
    assert parts
