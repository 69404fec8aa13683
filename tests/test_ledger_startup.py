"""Start-up reads a bounded number of rows, whatever the history (issue 11, item 2; SPEC §5).

The chain is checked at start-up from the newest checkpoint on (its link to the
entry before it included); ``etg ledger verify --full`` still walks it from the
first entry. Rows are counted as the kiosk's start-up fetches them, not timed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from etg.core.rng import SeededSource
from etg.ledger.store import Ledger
from etg.ledger.verify import verify
from etg.table import controller as table_module
from etg.table.controller import Table
from tests.ledger_support import paytable, played_ledger


class _Cursor:
    def __init__(self, cursor: sqlite3.Cursor, counter: _Counting) -> None:
        self._cursor, self._counter = cursor, counter

    def fetchone(self) -> Any:
        row = self._cursor.fetchone()
        self._counter.rows += row is not None
        return row

    def fetchall(self) -> list[Any]:
        rows = self._cursor.fetchall()
        self._counter.rows += len(rows)
        return rows

    def fetchmany(self, size: int) -> list[Any]:
        rows = self._cursor.fetchmany(size)
        self._counter.rows += len(rows)
        return rows

    def __iter__(self) -> Iterator[Any]:
        for row in self._cursor:
            self._counter.rows += 1
            yield row


class _Counting:
    """The ledger's connection, counting every row its queries hand back to Python."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn, self.rows = conn, 0

    def execute(self, sql: str, *args: Any) -> _Cursor:
        return _Cursor(self.conn.execute(sql, *args), self)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


def rows_read_at_start_up(db: Path) -> int:
    ledger = Ledger.open(db)
    counting = _Counting(ledger.conn)
    ledger.conn = counting  # type: ignore[assignment]
    table = Table.open(ledger, paytable(), SeededSource(9))
    assert table.tilt is None, table.tilt
    rows = counting.rows
    ledger.conn = counting.conn
    table.close()
    return rows


@pytest.mark.slow
def test_start_up_reads_as_many_rows_after_five_times_the_history(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "CHECKPOINT_EVERY", 10)  # rolling checkpoints, sooner
    short = rows_read_at_start_up(played_ledger(tmp_path, rounds=24, name="short.db"))
    long = rows_read_at_start_up(played_ledger(tmp_path, rounds=120, name="long.db"))
    assert long <= short + 50, (short, long)


def test_a_full_verify_still_walks_the_chain_from_the_first_entry(tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=3)
    with sqlite3.connect(db) as conn:  # an edit far behind the newest checkpoint
        conn.execute("DROP TRIGGER IF EXISTS entries_no_update")
        conn.execute("UPDATE entries SET actor = 'someone' WHERE seq = 5")
    store = Ledger.open_readonly(db)
    try:
        assert [p.check for p in verify(store)] == []  # start-up's tail is sound
        assert "entries row 5" in " ".join(p.message for p in verify(store, full=True))
    finally:
        store.close()


def _damage_page(db: Path, page: int, size: int) -> None:
    with db.open("r+b") as file:  # overwritten bytes: the page's header becomes nonsense
        file.seek(page * size)
        file.write(b"\xee" * 16)


def test_the_kiosk_leaves_the_whole_file_check_beside_play_and_tilts_on_its_finding(
        tmp_path: Path) -> None:
    from etg.config.loader import load_cabinet
    from etg.ledger.verify import check_file
    from etg.ui.app import App
    from etg.ui.display import open_window
    from etg.ui.options import RunOptions
    from tests.kiosk_support import config_copy

    db = played_ledger(tmp_path, rounds=30)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    pristine = db.read_bytes()
    # A page only the whole-file check reads: start-up is clean, quick_check is not.
    for page in range(pages // 3, pages - 2):
        db.write_bytes(pristine)
        _damage_page(db, page, size)
        if not check_file(db):
            continue
        ledger = Ledger.open(db)
        statements: list[str] = []
        ledger.conn.set_trace_callback(statements.append)
        try:
            table = Table.open(ledger, paytable(), SeededSource(9), defer_file_check=True)
        except Exception:  # this page is read at start-up too: try another
            ledger.close()
            continue
        ledger.conn.set_trace_callback(None)
        if table.tilt is None:
            break
        table.ledger.close()
    else:
        pytest.fail("no page of the ledger is read by the whole-file check alone")
    assert not any("quick_check" in s for s in statements)  # not on the start-up path
    config = config_copy(tmp_path)
    cabinet = load_cabinet(config / "cabinet.yaml")
    options = RunOptions(headless=True, config_dir=config)
    app = App(table, cabinet, config / "cabinet.yaml", options, open_window(cabinet, options))
    assert app.file_check is not None
    app.file_check.result(timeout=60)
    app.frame(1 / 60)
    assert table.tilt is not None and [p.check for p in table.tilt.problems] == ["quick_check"]
    assert table.ledger.event_log("tilt")[-1]["details"]["check"] == "quick_check"
    table.ledger.close()
