"""Start-up reads a bounded number of rows, whatever the history (issue 11, item 2; SPEC §5).

The chain is checked at start-up from the newest checkpoint on (its link to the
entry before it included); ``etg ledger verify --full`` still walks it from the
first entry. Start-up is measured as the kiosk does it (``quick_check`` beside
play) and counted, not timed: the rows its queries hand to Python and the
instructions SQLite's virtual machine runs for them, which a statement that
scans history (a ``count(*)``, a ``sum()``, a whole-table read through the
wrong index) would multiply. A ledger five times as long must cost exactly as
much, after a clean shutdown and after a crash in the middle of a round; so
must committing a command.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from etg.core.commands import CashIn, CashOut, OpenBets, Void
from etg.core.rng import SeededSource
from etg.ledger.store import Ledger
from etg.ledger.verify import verify
from etg.table import controller as table_module
from etg.table.controller import Table
from tests.ledger_support import open_table, paytable, play, played_ledger


class _Cursor:
    def __init__(self, cursor: sqlite3.Cursor, counter: _Counting, counted: bool) -> None:
        self._cursor, self._counter, self._counted = cursor, counter, counted

    def _add(self, rows: int) -> None:
        if self._counted:
            self._counter.rows += rows

    def fetchone(self) -> Any:
        row = self._cursor.fetchone()
        self._add(row is not None)
        return row

    def fetchall(self) -> list[Any]:
        rows = self._cursor.fetchall()
        self._add(len(rows))
        return rows

    def fetchmany(self, size: int) -> list[Any]:
        rows = self._cursor.fetchmany(size)
        self._add(len(rows))
        return rows

    def __iter__(self) -> Iterator[Any]:
        for row in self._cursor:
            self._add(1)
            yield row


class _Counting:
    """The ledger's connection, counting the rows of the chain its queries hand to Python and
    the virtual machine's instructions. The meters table is left out: one row per meter
    ever counted (per paytable, seat and name, whatever the number of rounds), and a longer
    history may have counted a rare meter more."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn, self.rows, self.steps = conn, 0, 0
        self._counted = True
        conn.set_trace_callback(self._statement)
        conn.set_progress_handler(self._step, 1)

    def _statement(self, sql: str) -> None:
        self._counted = not re.search(r"\bmeters\b", sql)

    def _step(self) -> int:
        self.steps += self._counted
        return 0

    def execute(self, sql: str, *args: Any) -> _Cursor:
        return _Cursor(self.conn.execute(sql, *args), self, not re.search(r"\bmeters\b", sql))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)

    def stop(self) -> sqlite3.Connection:
        self.conn.set_trace_callback(None)
        self.conn.set_progress_handler(None, 1)
        return self.conn


def read_at_start_up(db: Path) -> tuple[int, int]:
    """Rows and instructions of the kiosk's start-up on ``db`` (which it then shuts down)."""
    ledger = Ledger.open(db)
    counting = _Counting(ledger.conn)
    ledger.conn = counting  # type: ignore[assignment]
    table = Table.open(ledger, paytable(), SeededSource(9), defer_file_check=True)
    assert table.tilt is None, table.tilt
    ledger.conn = counting.stop()
    table.close()
    return counting.rows, counting.steps


def crashed_mid_round(folder: Path, rounds: int, name: str) -> Path:
    """A ledger whose program stopped without its shutdown, betting open on a new round after
    ``rounds`` (a rolling checkpoint's multiple, so the tail after it is the same)."""
    db = folder / name
    table = open_table(db)
    play(table, rounds)
    table.send(CashIn(2, 5_000), actor="attendant 3")
    table.send(OpenBets())
    table.ledger.close()  # every commit is durable: the process stops here, nothing more
    return db


@pytest.fixture
def every_ten(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "CHECKPOINT_EVERY", 10)  # rolling checkpoints, sooner


@pytest.mark.slow
def test_start_up_reads_the_same_after_five_times_the_history(tmp_path: Path,
                                                              every_ten: None) -> None:
    short = read_at_start_up(played_ledger(tmp_path, rounds=24, name="short.db"))
    long = read_at_start_up(played_ledger(tmp_path, rounds=120, name="long.db"))
    assert long == short


@pytest.mark.slow
def test_start_up_after_a_crash_mid_round_reads_the_same_after_five_times_the_history(
        tmp_path: Path, every_ten: None) -> None:
    """No shutdown and its checkpoint: the round in progress is rebuilt from the newest
    rolling checkpoint and the commands after it, as few whatever came before."""
    short = read_at_start_up(crashed_mid_round(tmp_path, 20, "short.db"))
    long = read_at_start_up(crashed_mid_round(tmp_path, 100, "long.db"))
    assert long == short
    store = Ledger.open_readonly(tmp_path / "long.db")
    try:
        assert store.last_events(("power_up",), 1)[0]["details"]["after_interruption"] is True
        assert verify(store, full=True) == []
    finally:
        store.close()


@pytest.mark.slow
def test_a_command_costs_the_same_after_five_times_the_history(tmp_path: Path,
                                                               every_ten: None) -> None:
    """Nothing a commit does reads history: a cash in, a round opened and voided, a cash out."""

    def cost(rounds: int) -> tuple[int, int]:
        table = open_table(tmp_path / f"{rounds}.db")
        play(table, rounds)
        ledger = table.ledger
        counting = _Counting(ledger.conn)
        ledger.conn = counting  # type: ignore[assignment]
        table.send(CashIn(4, 2_500), actor="attendant 3")
        table.send(OpenBets())
        table.send(Void("the shoe was dropped"), actor="supervisor 1")
        table.send(CashOut(4), actor="attendant 3")
        ledger.conn = counting.stop()
        table.close()
        return counting.rows, counting.steps

    assert cost(100) == cost(20)


def test_a_full_verify_still_walks_the_chain_from_the_first_entry(tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=3)
    with sqlite3.connect(db) as conn:  # an edit far behind the newest checkpoint
        conn.execute("DROP TRIGGER IF EXISTS entries_no_update")
        conn.execute("UPDATE entries SET actor = 'someone' WHERE seq = 5")
        # the trigger put back as the program made it: the schema check has nothing to say
        conn.execute("CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries "
                     "BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END")
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
