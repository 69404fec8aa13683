"""Every storage fault is a tilt or one line with exit 2, and nothing is lost once it is gone.

The faults are real: a process whose file size limit (``RLIMIT_FSIZE``) stops
the ledger growing, a file and folder the program may not write, another
process holding SQLite's write lock, page bytes overwritten on disk, a schema
from a newer program, and a journaled command the engine will not replay.
After each one the fault is removed and the ledger opened again: the state is
exactly the last committed one.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.core.commands import BetKind, Deal, OpenBets, PlaceWager
from etg.ledger import fault_note
from etg.ledger.store import Ledger, LedgerError
from etg.ledger.verify import verify
from etg.table.controller import TableTilted
from tests.ledger_support import MD5, open_table, play, played_ledger, rebuilt_state

ETG = [sys.executable, "-m", "etg"]


def etg(*args: str, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real program (under a file size limit if given); never a traceback."""

    def limits() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run([*ETG, *args], capture_output=True, text=True, timeout=300,
                          preexec_fn=limits)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.mark.slow
def test_a_full_disk_stops_play_with_a_tilt_and_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    assert etg("autoplay", "--db", str(db), "--rounds", "3", "--seed", "5",
               "--paytable", str(MD5)).returncode == 0
    room = db.stat().st_size + 256 * 1024  # the -wal may grow to this, then the disk is "full"
    full = etg("autoplay", "--db", str(db), "--rounds", "100000", "--seed", "5",
               "--paytable", str(MD5), limit=room)
    assert full.returncode in (1, 2)
    last_line = full.stderr.strip().splitlines()[-1]
    assert "the table is tilted: storage:" in last_line or "disk" in last_line, full.stderr
    committed = rebuilt_state(db)
    assert committed.round.number > 3
    table = open_table(db)  # the fault is gone: same state, to the cent
    assert table.state == committed
    # The full disk refused the tilt's own entry too; the next start records it from the
    # fault note and it stands until acknowledged (on main: nothing to acknowledge).
    assert table.tilt is not None, "the full disk's tilt was lost"
    assert table.tilt.message.startswith("storage: a fault the ledger could not record when "
                                         "it happened: storage:"), table.tilt.message
    assert fault_note.read(db) is None  # recorded once: the next start does not tilt again
    table.acknowledge_tilt("supervisor 1")
    play(table, 2)
    assert verify(table.ledger, full=True) == []
    table.close()
    assert open_table(db).tilt is None


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """The folder and its files made read-only for this process, root included.

    Root ignores permission bits, so for root the files and the folder are made
    immutable (``chattr +i``); anyone else gets mode 0444 / 0555.
    """
    paths = [*folder.iterdir(), folder]
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True).returncode:
            pytest.skip("this file system cannot make a file immutable")
        undo = ["chattr", "-i", *map(str, paths)]
    else:
        for path in paths:
            path.chmod(0o555 if path.is_dir() else 0o444)
        undo = ["chmod", "-R", "u+w", str(folder)]
    try:
        yield
    finally:
        subprocess.run(undo, check=True)


@pytest.mark.slow
def test_a_read_only_file_and_folder_is_one_line_and_the_ledger_stays(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = played_ledger(folder)
    before = rebuilt_state(db)
    with read_only(folder):
        done = etg("autoplay", "--db", str(db), "--rounds", "10", "--paytable", str(MD5))
        assert done.returncode == 2
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "not permitted" in done.stderr or "ermission denied" in done.stderr or \
            "read-only" in done.stderr
        audit = etg("ledger", "verify", "--db", str(db))
        assert audit.returncode == 0, audit.stdout + audit.stderr
    assert rebuilt_state(db) == before
    table = open_table(db)  # writable again: play goes on from the same state
    assert table.state == before and table.tilt is None
    play(table, 1)
    table.close()


def test_a_write_lock_held_by_another_process_tilts_and_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Ledger, "busy_timeout_s", 0.2)
    db = tmp_path / "ledger.db"
    table = open_table(db)
    play(table, 2)
    table.send(OpenBets())
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], "
         "isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('held', flush=True); "
         "sys.stdin.read()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        committed = table.state
        with pytest.raises(TableTilted, match="the ledger is locked by another connection"):
            table.send(PlaceWager(1, 1, BetKind.INITIAL, 500))
        assert table.tilted and table.state == committed
        with pytest.raises(TableTilted):
            table.send(PlaceWager(1, 1, BetKind.INITIAL, 500))
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    table.ledger.close()
    again = open_table(db)  # the lock is gone: the round is where the last commit left it
    assert again.state == committed
    # The lock refused the tilt's own entry too: this start records it from the fault note.
    assert again.tilt is not None and again.tilt.message == (
        "storage: a fault the ledger could not record when it happened: storage: the ledger "
        "is locked by another connection (database is locked)")
    again.acknowledge_tilt("supervisor 1")
    again.send(PlaceWager(1, 1, BetKind.INITIAL, 500))
    again.close()


@pytest.mark.slow  # a holder process
def test_a_lost_tilt_acknowledged_before_a_restart_is_not_raised_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Ledger, "busy_timeout_s", 0.2)
    db = tmp_path / "ledger.db"
    table = open_table(db)
    play(table, 1)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], "
         "isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('held', flush=True); "
         "sys.stdin.read()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(TableTilted, match="locked by another connection"):
            table.send(OpenBets())
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    assert fault_note.read(db) == ("storage: the ledger is locked by another connection "
                                   "(database is locked)")
    table.acknowledge_tilt("supervisor 1")  # the clearing entry puts the lost tilt on record
    assert fault_note.read(db) is None
    table.close()
    again = open_table(db)
    assert again.tilt is None
    cleared = again.ledger.last_events(("tilt_cleared",), 1)[0]
    assert cleared["details"]["problems"] == ("storage: the ledger is locked by another "
                                              "connection (database is locked)")
    again.close()


def test_overwritten_pages_tilt_or_are_refused_and_restored_bytes_lose_nothing(
        tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=8)
    before = rebuilt_state(db)
    good = db.read_bytes()
    page = 4096
    damaged = bytearray(good)
    damaged[3 * page: 5 * page] = os.urandom(2 * page)
    db.write_bytes(bytes(damaged))
    result = CliRunner().invoke(main, ["ledger", "verify", "--db", str(db)])
    assert result.exit_code in (1, 2), result.output
    assert isinstance(result.exception, SystemExit)  # a finding or one line, not a crash
    try:
        table = open_table(db)
    except LedgerError as error:
        assert str(db) in str(error)
    else:
        assert table.tilt is not None
        table.ledger.close()
    db.write_bytes(good)
    assert rebuilt_state(db) == before


@pytest.mark.slow
def test_a_newer_schema_is_one_line_and_exit_2(tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=1)
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                 "VALUES ('etg-ledger', '0006_from_the_future', '2030-01-01')")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    for args in (["ledger", "verify", "--db", str(db)],
                 ["autoplay", "--db", str(db), "--rounds", "3", "--paytable", str(MD5)]):
        done = etg(*args)
        assert done.returncode == 2
        assert done.stderr.strip().endswith("written by a newer program (schema "
                                            "0006_from_the_future); this program knows 5 "
                                            "migrations and will not touch it")
        assert len(done.stderr.strip().splitlines()) == 1
    assert db.read_bytes() == before


def test_a_command_that_does_not_replay_tilts_and_names_it(tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=2)
    ledger = Ledger.open(db)
    with ledger.atomic():  # a row the program itself would never write: Deal while idle
        seq = ledger.append_command(3, Deal(), "dealer", [], "2026-11-24T00:00:00+00:00")
    ledger.close()
    result = CliRunner().invoke(main, ["ledger", "verify", "--db", str(db)])
    assert result.exit_code == 1
    assert f"journal: journal entry {seq} (Deal) does not replay" in result.output
    table = open_table(db)
    assert table.tilt is not None and f"journal entry {seq} (Deal)" in table.tilt.message
    table.ledger.close()


def test_a_screen_whose_ledger_read_fails_tilts_instead_of_crashing(tmp_path: Path) -> None:
    from etg.ui.scene import Scene
    from tests.kiosk_support import make_app

    class Meters(Scene):
        """A screen that reads the ledger every frame, as the operator's meters page does."""

        def update(self, now: float) -> None:
            self.ctx.table.ledger.meters()

    app = make_app(tmp_path, base=Meters)
    app.options.frames = 5
    app.table.ledger.conn.close()  # the database handle is gone under the running kiosk
    app.run()
    assert app.table.tilt is not None
    assert app.table.tilt.problems[0].check == "storage"
    assert "the ledger failed" in app.table.tilt.message


def test_a_ledger_with_a_second_hard_link_is_refused_by_writers_and_audits(
        tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=2)
    link = tmp_path / "other.db"
    os.link(db, link)  # a checkpoint through such a link, with its own -wal, corrupted a ledger
    before = db.read_bytes()
    for name in (db, link):
        with pytest.raises(LedgerError, match="has 2 hard links"):
            Ledger.open(name)
        with pytest.raises(LedgerError, match="has 2 hard links"):
            Ledger.open_readonly(name)
    for args in (["autoplay", "--db", str(link), "--rounds", "1", "--seed", "3",
                  "--paytable", str(MD5)], ["ledger", "meters", "--db", str(link)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert isinstance(result.exception, SystemExit)
        assert result.output.strip() == f"{link}: the ledger file has 2 hard links; a second " \
            f"name bypasses its lock and its write-ahead log, so it is refused until the other " \
            f"links are removed"
    assert db.read_bytes() == before and not link.with_name("other.db-wal").exists()
    link.unlink()  # one name again: the ledger is as it was
    table = open_table(db)
    assert table.tilt is None
    table.close()


@pytest.mark.slow
def test_audits_refuse_a_wal_they_cannot_read_on_read_only_media(tmp_path: Path) -> None:
    live = played_ledger(tmp_path / "live", rounds=3)  # checkpointed into the file, then
    table = open_table(live)
    play(table, 4)  # four rounds more, in the -wal only
    games = table.state.round.number
    folder = tmp_path / "media"  # a copy of the running ledger: its file, -wal and anchor
    folder.mkdir()
    for name in ("ledger.db", "ledger.db-wal", "ledger.db.anchor"):
        shutil.copyfile(live.with_name(name), folder / name)
    table.close()
    db = folder / "ledger.db"
    assert (folder / "ledger.db-wal").stat().st_size > 32  # rounds the file alone lacks
    audits = [["meters"], ["recall"], ["export", "--format", "jsonl"], ["tilts"], ["verify"]]
    with read_only(folder):  # no -shm can be made: on main, read without the -wal, exit 0
        for audit in audits:
            done = etg("ledger", *audit, "--db", str(db))
            assert done.returncode == 2, (audit, done.stdout)
            assert done.stdout == ""
            assert done.stderr == (f"{db}: the newest rounds are in ledger.db-wal, which cannot "
                                   f"be read here without ledger.db-shm (read-only media); copy "
                                   f"the folder to writable storage and read the copy\n"), audit
    assert rebuilt_state(db).round.number == games  # writable again: read whole
