"""The anchor beside the ledger: the file alone cannot be rolled back, emptied, cut or swapped.

Each case is a real change to the files (a restored copy, a truncated or
0-byte file, the database copied without its ``-wal``, another ledger's file),
and each must tilt the table or be refused in one line, never start over.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.ledger.chain import anchor_path
from etg.ledger.signing import THROWAWAY, keys_dir, private_path, public_path
from etg.ledger.store import Ledger, LedgerError
from etg.table.controller import TableTilted
from tests.ledger_support import open_table, play, played_ledger


def _verify(db: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["ledger", "verify", "--db", str(db)])
    return result.exit_code, result.output


def test_a_new_ledger_has_a_signed_anchor_and_a_private_key(tmp_path: Path) -> None:
    db = played_ledger(tmp_path)
    anchor = anchor_path(db).read_text()
    ledger = Ledger.open_readonly(db)
    seq, head = ledger.head
    assert f'"seq":{seq}' in anchor and head.hex() in anchor and '"signature":' in anchor
    assert f'"rounds":{ledger.round_count()}' in anchor
    ledger.close()
    # a test ledger is throwaway: its key pair is made with the first one, the private key
    # for the writer alone, the public key for everyone
    assert private_path(keys_dir(), THROWAWAY).stat().st_mode & 0o777 == 0o600
    assert public_path(keys_dir(), THROWAWAY).stat().st_mode & 0o777 == 0o644


def test_a_restored_older_copy_tilts_until_a_supervisor_accepts_it(tmp_path: Path) -> None:
    db = played_ledger(tmp_path)
    backup = tmp_path / "backup.db"
    shutil.copy(db, backup)  # last week's copy, taken while the kiosk was off
    table = open_table(db)
    play(table, 3)
    table.close()
    shutil.copy(backup, db)
    code, output = _verify(db)
    assert code == 1 and "the ledger is behind its anchor" in output
    table = open_table(db)
    assert table.tilt is not None and "rounds were lost" in table.tilt.message
    table.acknowledge_tilt("supervisor 9")  # the loss is on record; the anchor follows
    table.close()
    again = open_table(db)
    assert again.tilt is None
    again.close()
    assert _verify(db)[0] == 0


def test_a_truncated_file_is_refused_or_tilts_and_is_never_replaced(tmp_path: Path) -> None:
    db = played_ledger(tmp_path, rounds=6)
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    code, output = _verify(db)
    assert code in (1, 2) and "Traceback" not in output
    assert len(output.strip().splitlines()) <= 14
    try:
        table = open_table(db)
    except LedgerError:
        pass
    else:
        assert table.tilt is not None
        table.ledger.close()
    assert db.read_bytes()[:100] == data[:100]


def test_a_zero_byte_file_is_refused_and_stays_as_it_is(tmp_path: Path) -> None:
    db = played_ledger(tmp_path)
    db.write_bytes(b"")
    code, output = _verify(db)
    assert code == 2
    assert output.strip() == f"{db}: the ledger file is empty (0 bytes); it was not replaced " \
                             f"by a new one"
    with pytest.raises(LedgerError, match="empty \\(0 bytes\\) although its anchor records"):
        Ledger.open(db)
    assert db.read_bytes() == b""


def test_a_missing_file_with_an_anchor_is_not_re_created(tmp_path: Path) -> None:
    db = played_ledger(tmp_path)
    db.unlink()
    with pytest.raises(LedgerError, match="the ledger file is missing, but its anchor"):
        Ledger.open(db)
    assert not db.exists()


def test_a_lost_wal_loses_the_last_rounds_and_tilts(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    table = open_table(db)
    play(table, 3)
    table.ledger.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # rounds 1-3 in the file
    play(table, 2)  # rounds 4-5 only in the -wal
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    shutil.copy(db, crashed / db.name)  # the file as a crash leaves it, its -wal deleted
    shutil.copy(anchor_path(db), crashed / anchor_path(db).name)
    table.ledger.close()
    lost = crashed / db.name
    code, output = _verify(lost)
    assert code == 1 and "the ledger is behind its anchor" in output
    table = open_table(lost)
    assert table.tilt is not None and "behind its anchor" in table.tilt.message
    assert table.ledger.round_count() == 3
    table.ledger.close()


def test_another_ledgers_file_in_its_place_is_swapped(tmp_path: Path) -> None:
    (tmp_path / "ours").mkdir()
    (tmp_path / "theirs").mkdir()
    ours = played_ledger(tmp_path / "ours")
    theirs = played_ledger(tmp_path / "theirs", rounds=5)
    shutil.copy(theirs, ours)
    code, output = _verify(ours)
    assert code == 1 and "is not the one its anchor records (swapped)" in output
    table = open_table(ours)
    assert table.tilt is not None and "swapped" in table.tilt.message
    table.ledger.close()


def test_an_edited_anchor_is_refused_by_its_signature(tmp_path: Path) -> None:
    db = played_ledger(tmp_path)
    path = anchor_path(db)
    path.write_text(path.read_text().replace('"rounds":3', '"rounds":2'))
    code, output = _verify(db)
    assert code == 1 and "is not signed by this cabinet's key" in output


def test_verify_leaves_a_quiet_ledger_byte_for_byte_as_it_was(tmp_path: Path) -> None:
    db = played_ledger(tmp_path)
    before = db.read_bytes(), anchor_path(db).read_bytes()
    for args in (["verify"], ["verify", "--full"], ["tilts"], ["recall"], ["meters"],
                 ["export", "--format", "csv"]):
        result = CliRunner().invoke(main, ["ledger", *args, "--db", str(db)])
        assert result.exit_code == 0, result.output
    assert (db.read_bytes(), anchor_path(db).read_bytes()) == before


def test_an_older_schema_is_refused_by_audits_and_left_alone(tmp_path: Path) -> None:
    fixture = Path(__file__).parent / "data" / "ledgers" / "schema-0002.db"
    db = tmp_path / "old.db"
    shutil.copy(fixture, db)
    before = db.read_bytes()
    code, output = _verify(db)
    assert code == 2
    assert "written by an older program (schema 2 of 5)" in output
    assert db.read_bytes() == before
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    assert conn.execute("SELECT count(*) FROM hand_ledger").fetchone()[0] == 8
    conn.close()


def test_a_kiosk_whose_ledger_cannot_open_shows_why_then_exits_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    from etg.ui import theme

    db = tmp_path / "real.db"
    db.write_bytes(b"")
    shown: list[pygame.Surface] = []
    quit_display = pygame.display.quit

    def capture() -> None:
        surface = pygame.display.get_surface()
        if surface is not None:
            shown.append(surface.copy())
        quit_display()

    monkeypatch.setattr(pygame.display, "quit", capture)
    result = CliRunner().invoke(main, ["run", "--windowed", "--frames", "2", "--db", str(db)])
    assert result.exit_code == 2
    assert result.output.strip() == (f"{db}: the ledger file is empty (0 bytes); it was not "
                                     f"replaced by a new one")
    assert shown, "the fault screen was never drawn"
    colours = {shown[0].get_at((x, y))[:3] for x in range(0, shown[0].get_width(), 7)
               for y in range(0, shown[0].get_height(), 7)}
    assert theme.TILT in colours and len(colours) > 3  # the red frame and words on the felt
    assert db.read_bytes() == b""


@contextlib.contextmanager
def no_new_names(folder: Path) -> Iterator[None]:
    """The folder takes no new file and no rename, root included (``chattr +i``: root ignores
    permission bits); the files in it stay writable, as SQLite's are. A real read-only
    folder, as when the data directory is turned read-only under a running kiosk."""
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("this file system cannot make a folder immutable (chattr +i)")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def tilt_entries(db: Path) -> list[int]:
    ledger = Ledger.open_readonly(db)
    try:
        return [t["id"] for t in ledger.last_events(("tilt",), 10_000)]
    finally:
        ledger.close()


def test_an_anchor_that_cannot_be_written_is_one_tilt_not_a_storm(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    db = played_ledger(folder, rounds=2)
    table = open_table(db)
    with no_new_names(folder):
        with pytest.raises(TableTilted, match=r"the anchor .* cannot be written"):
            play(table, 3)
        assert table.tilt is not None and len(table.tilt.problems) == 1
        assert len(tilt_entries(db)) == 1  # on main: hundreds, then a RecursionError
        with pytest.raises(TableTilted):
            play(table, 1)
        table.acknowledge_tilt("supervisor 1")  # the anchor still cannot move: tilted again
        assert table.tilt is not None and len(table.tilt.problems) == 1
        assert "cannot be written" in table.tilt.message
        assert len(tilt_entries(db)) == 2
    table.acknowledge_tilt("supervisor 1")  # the folder takes names again: the anchor follows
    assert table.tilt is None
    play(table, 1)
    table.close()
    again = open_table(db)
    assert again.tilt is None
    again.close()
    assert _verify(db)[0] == 0


def test_the_anchor_rename_is_made_durable_by_an_fsync_of_its_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = played_ledger(tmp_path, rounds=1)
    ledger = Ledger.open(db)
    calls: list[str] = []
    real_replace, real_fsync = os.replace, os.fsync

    def replace(source: Any, target: Any) -> None:
        calls.append(f"replace {Path(target).name}")
        real_replace(source, target)

    def fsync(fd: int) -> None:
        calls.append("fsync folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "fsync", fsync)
    ledger.write_anchor()  # the spies call through: the anchor is really written
    monkeypatch.undo()
    ledger.close()
    assert calls == ["fsync file", "replace ledger.db.anchor", "fsync folder"]
    assert _verify(db)[0] == 0
