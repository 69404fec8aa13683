"""Issue 25, item 5 and finding 10: the whole history re-verified in the background, through
the controller's idle hook, resuming after a restart; quick verify says what it checked."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

import etg.table.controller as table_module
from etg.cli import main
from etg.core.commands import OpenBets
from etg.ledger.store import Ledger
from etg.ledger.verify import verify
from etg.table.controller import Table
from tests.ledger_support import open_table, play, played_ledger

APPEND_ONLY = ("CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries "
               "BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END")


@pytest.fixture
def every_three(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "CHECKPOINT_EVERY", 3)  # rolling checkpoints, sooner


def _reverifying(table: Table, slice_entries: int = 20) -> Table:
    """The table's background pass without its waits: it starts at once, records at every
    checkpoint it passes, and does not rest between passes."""
    from etg.ledger.reverify import Reverifier

    table.reverify.close()
    table.reverify = Reverifier(table.ledger.path, table.ledger.key, slice_entries=slice_entries,
                                record_every_s=0, rest_s=3_600, start_after_s=0)
    return table


def _idle(table: Table, frames: int = 1) -> None:
    """``frames`` frames' idle time, as the kiosk's loop gives it (App.idle)."""
    for _ in range(frames):
        table.idle(time.perf_counter() + 1 / 60)


def _idle_until(table: Table, done: Callable[[], bool], frames: int = 500) -> None:
    """Idle frames until ``done()`` (a busy machine gives a frame fewer slices)."""
    for _ in range(frames):
        if done():
            return
        _idle(table)
    assert done()


def _records(table: Table) -> list[dict[str, object]]:
    return [e["details"] for e in table.ledger.event_log("reverified")]


def _rounds_in(db: Path) -> int:
    """The round records a running table has written so far (0 before its ledger is made)."""
    if not db.exists():
        return 0
    conn = sqlite3.connect(db, timeout=30)
    try:
        return int(conn.execute("SELECT count(*) FROM entries WHERE kind = 'round'"
                                ).fetchone()[0])
    except sqlite3.OperationalError:  # the migrations have not made the table yet
        return 0
    finally:
        conn.close()


def _edit(db: Path, statement: str) -> None:
    conn = sqlite3.connect(db, timeout=30)
    try:
        conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def _edit_behind_the_triggers(db: Path, statement: str) -> None:
    """An edit as a technician makes it: the append-only trigger put back as it was."""
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER entries_no_update")
        conn.execute(statement)
        conn.execute(APPEND_ONLY)
    conn.close()


def test_a_pass_resumes_after_a_restart_from_its_recorded_point(tmp_path: Path,
                                                               every_three: None) -> None:
    db = tmp_path / "l.db"
    table = _reverifying(open_table(db))
    play(table, 9)
    _idle_until(table, lambda: len(_records(table)) == 2)  # two records, then a shutdown
    first = _records(table)
    assert [r["complete"] for r in first] == [False, False]
    checkpoints = [int(r[0]) for r in table.ledger.conn.execute(
        "SELECT seq FROM entries WHERE kind = 'checkpoint' ORDER BY seq")]
    throughs = [r["through"] for r in first]  # each the newest checkpoint a slice passed
    assert throughs == sorted(set(throughs)) and set(throughs) <= set(checkpoints)
    started = first[0]["started_at"]
    table.close()

    table = _reverifying(open_table(db))
    _idle_until(table, lambda: table.reverify.walking is not None)
    walking = table.reverify.walking
    assert walking is not None and walking.started_at == started  # the same pass, resumed
    _idle_until(table, lambda: bool(_records(table)[-1]["complete"]))
    records = _records(table)[2:]
    assert records[-1]["complete"] is True and all(r["started_at"] == started for r in records)
    resumed = [r["through"] for r in records[:-1]]
    assert resumed == sorted(set(resumed)) and set(resumed) <= set(checkpoints)
    assert resumed[0] > throughs[-1]  # on from where it stood, not from the first entry
    assert table.tilt is None
    table.close()
    result = CliRunner().invoke(main, ["ledger", "verify", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    store = Ledger.open_readonly(db)
    done = store.event_log("reverified")[-1]
    store.close()
    assert report["whole_history_verified_at"] == done["at"]
    assert report["whole_history_verified_through"] == done["details"]["through"]


def test_a_row_edited_behind_the_checkpoint_tilts_the_idle_table_naming_it(
        tmp_path: Path, every_three: None) -> None:
    """Finding 10: start-up and quick verify check the tail; the background pass finds it."""
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 7)
    table.close()
    store = Ledger.open_readonly(db)
    seq = int(store.conn.execute("SELECT seq FROM entries WHERE kind = 'round' AND round = 2"
                                 ).fetchone()[0])
    store.close()
    _edit_behind_the_triggers(db, f"UPDATE entries SET body = CAST(body || x'00' AS BLOB) "
                                  f"WHERE seq = {seq}")
    table = _reverifying(open_table(db))
    assert table.tilt is None  # the tail since the newest checkpoint is sound
    _idle_until(table, lambda: table.tilt is not None)
    assert (f"chain: entries row {seq} (round complete): its content does not match its hash"
            in table.tilt.message)
    assert table.ledger.event_log("tilt")[-1]["details"]["message"].startswith(
        f"entries row {seq} (round complete)")
    table.acknowledge_tilt("supervisor 7")  # the pass goes on to its end, and says what it found
    _idle_until(table, lambda: bool(_records(table)) and bool(_records(table)[-1]["complete"]))
    assert _records(table)[-1]["problems"] == 1 and table.tilt is None
    table.close()
    report = json.loads(CliRunner().invoke(main, ["ledger", "verify", "--db", str(db),
                                                  "--json"]).output)
    assert report["whole_history_problems"] == 1


def test_nothing_is_walked_while_a_round_is_in_play(tmp_path: Path) -> None:
    table = _reverifying(open_table(tmp_path / "l.db"))
    play(table, 2)
    table.send(OpenBets())
    _idle(table, 5)
    assert table.reverify.walking is None and _records(table) == []
    table.close()


def test_a_step_walks_one_slice_at_a_time_until_its_deadline(tmp_path: Path) -> None:
    from etg.ledger.reverify import Reverifier

    table = open_table(tmp_path / "l.db")
    play(table, 2)
    table.reverify = Reverifier(table.ledger.path, table.ledger.key, slice_entries=7,
                                start_after_s=0)
    for _ in range(2):  # no time left: the ledger opened, the pass begun, and no slice
        table.idle(time.perf_counter() + table_module.IDLE_MARGIN_S)
    walking = table.reverify.walking
    assert walking is not None and walking.next == 1
    assert walking.slice(7) == [] and walking.next == 8  # a slice: at most its entries
    head = table.ledger.head[0]
    step = table.reverify.step(time.perf_counter() + 60)  # time enough: to the pass's end
    assert table.reverify.walking is None and step.problems == []
    assert step.record is not None
    assert step.record["complete"] is True and step.record["through"] == head
    table.close()


def test_every_entry_overwritten_in_turn_is_found_by_the_background_pass(
        tmp_path: Path) -> None:
    from etg.ledger.reverify import Reverifier

    db = played_ledger(tmp_path, rounds=1)
    store = Ledger.open_readonly(db)
    head = store.head[0]
    key = store.key
    store.close()
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER entries_no_update")
    conn.close()
    missed = []
    for seq in range(1, head + 1):
        with sqlite3.connect(db) as conn:
            body = conn.execute("SELECT body FROM entries WHERE seq = ?", [seq]).fetchone()[0]
            conn.execute("UPDATE entries SET body = CAST(body || x'00' AS BLOB) WHERE seq = ?",
                         [seq])
        conn.close()
        walk = Reverifier(db, key, start_after_s=0)
        found = []
        for _ in range(3):  # the ledger opened, then the whole pass
            found += walk.step(time.perf_counter() + 60).problems
        walk.close()
        if not any(p.message.startswith(f"entries row {seq} ") for p in found):
            missed.append(("background", seq))
        store = Ledger.open_readonly(db)
        if not any(f"entries row {seq} " in p.message for p in verify(store, full=True)):
            missed.append(("verify --full", seq))
        store.close()
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE entries SET body = ? WHERE seq = ?", [body, seq])
        conn.close()
    assert head > 30 and missed == []


def test_quick_verify_says_which_rounds_it_checked_and_that_the_history_was_not(
        tmp_path: Path, every_three: None) -> None:
    """Finding 10: an edit behind the newest checkpoint, and quick verify no longer says
    "N rounds, clean" of rounds it did not check."""
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 7)
    table.ledger.close()  # rounds 7 after the checkpoint at round 6; no shutdown
    _edit_behind_the_triggers(db, "UPDATE entries SET actor = 'someone' WHERE seq = 5")
    result = CliRunner().invoke(main, ["ledger", "verify", "--db", str(db)])
    assert result.exit_code == 0, result.output
    store = Ledger.open_readonly(db)
    checkpoint = store.entry(next(store.checkpoint_seqs()))
    store.close()
    assert checkpoint is not None
    assert result.output == (
        f"{db}: checked round 7 since the checkpoint of {checkpoint.at} (entries row "
        f"{checkpoint.seq}), clean; the whole history (7 rounds) has not been verified in the "
        f"background yet (etg ledger verify --full verifies it now)\n")
    report = json.loads(CliRunner().invoke(main, ["ledger", "verify", "--db", str(db),
                                                  "--json"]).output)
    assert (report["checked_from_round"], report["checked_to_round"]) == (7, 7)
    assert report["whole_history_verified_at"] is None
    full = CliRunner().invoke(main, ["ledger", "verify", "--db", str(db), "--full", "--json"])
    assert full.exit_code == 1
    report = json.loads(full.output)
    assert (report["checked_from_round"], report["checked_to_round"]) == (1, 7)
    assert any("entries row 5 " in p["message"] for p in report["problems"])


@pytest.mark.slow
def test_a_trigger_skim_through_the_commands_fails_quick_verify_naming_the_meter(
        tmp_path: Path) -> None:
    """Finding 1 end to end: ``etg autoplay`` running, the trigger created beside it, and
    ``etg ledger verify`` (quick) exits 1 naming the meter and the seat."""
    import subprocess
    import sys

    db = tmp_path / "ledger.db"
    autoplay = subprocess.Popen([sys.executable, "-m", "etg", "autoplay", "--db", str(db),
                                 "--rounds", "140", "--seed", "5"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while _rounds_in(db) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        _edit(db, "CREATE TRIGGER skim AFTER INSERT ON entries WHEN new.kind='round' BEGIN "
                  "UPDATE meters SET value=value-500 WHERE name='coin_in.initial' AND "
                  "seat IN (0,1); END;")
        out, err = autoplay.communicate(timeout=600)
    finally:
        if autoplay.poll() is None:
            autoplay.kill()
            autoplay.wait()
    assert f"{db}: the table is tilted: meters: meters row (md-community-5, seat 0, " \
           f"coin_in.initial) is " in out + err
    verify_run = subprocess.run([sys.executable, "-m", "etg", "ledger", "verify", "--db",
                                 str(db)], capture_output=True, text=True, timeout=300)
    assert verify_run.returncode == 1, verify_run.stdout + verify_run.stderr
    lines = verify_run.stdout.splitlines()
    assert any(line.startswith(f"{db}: meters: meters row (md-community-5, seat 1, "
                               f"coin_in.initial) is ") for line in lines), verify_run.stdout
    assert any("schema: trigger skim on entries is not one this program made" in line
               for line in lines)
    store = Ledger.open_readonly(db)
    assert store.round_count() == 100  # play stopped at the checkpoint that found it
    assert [p.check for p in verify(store, full=True) if p.check != "schema"] == ["meters"] * 2
    store.close()
