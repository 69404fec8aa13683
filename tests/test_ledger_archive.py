"""``etg ledger archive`` (issue 11, item 6): old rounds leave the live ledger for a file of
their own, and the two still verify as one chain.

Ledgers are made with times in the past (entries carry the time they are given), then
archived "before" a day between them: the live ledger keeps its meters, the cut
checkpoint and what follows, and goes on playing; the archive's links and the live
ledger's are walked as one chain; an edited, swapped or foreign archive is found.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.ledger.archive import archive, check_archives
from etg.ledger.store import Ledger, LedgerError
from etg.ledger.verify import verify
from tests.ledger_support import SUPERVISOR_PIN, aged_ledger, open_table, play, supervised_config

# Each test archives a ledger of 106 rounds: an archive always leaves the last 100 live.
pytestmark = pytest.mark.slow


@pytest.fixture
def aged(tmp_path: Path) -> Path:
    """A ledger with 6 rounds played on 2026-01-10 and 100 on 2026-03-20 (clean shutdowns):
    archived before a day between them, exactly the last 100 rounds stay live."""
    return aged_ledger(tmp_path)


def _archive(db: Path, before: str, out: Path) -> tuple[int, int]:
    ledger = Ledger.open(db)
    try:
        done = archive(ledger, before, out)
    finally:
        ledger.close()
    return done.first, done.last


def test_archived_rounds_leave_and_the_rest_verifies_alone_and_with_the_archive(
        aged: Path, tmp_path: Path) -> None:
    before = Ledger.open_readonly(aged)
    meters, rounds = before.meters(), before.rounds()
    before.close()
    out = tmp_path / "2026-q1.etga"
    first, last = _archive(aged, "2026-02-01T00:00:00+00:00", out)
    assert first == 1

    live = Ledger.open_readonly(aged)
    assert live.first_seq() == last + 1
    assert live.meters() == meters  # the meters stay
    kept = live.rounds()
    assert [r["round"] for r in kept] == list(range(7, 107))
    assert kept == rounds[6:]
    assert verify(live) == [] and verify(live, full=True) == []
    assert check_archives(live, [out]) == []
    live.close()
    archived = sqlite3.connect(out)
    assert archived.execute("SELECT min(seq), max(seq) FROM entries").fetchone() == (1, last)
    assert archived.execute("SELECT count(*) FROM entries WHERE kind = 'round'").fetchone() == (6,)
    archived.close()

    # The live ledger plays on, restarts, and still verifies with its archive as one chain.
    table = open_table(aged)
    assert table.tilt is None
    play(table, 2)
    table.close()
    result = CliRunner().invoke(main, ["ledger", "verify", "--full", "--db", str(aged),
                                       "--archive", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("108 rounds, clean")


def test_an_edited_or_foreign_archive_is_found(aged: Path, tmp_path: Path) -> None:
    out = tmp_path / "a.etga"
    _archive(aged, "2026-02-01", out)
    edited = tmp_path / "edited.etga"
    shutil.copy(out, edited)
    conn = sqlite3.connect(edited)
    conn.execute("DROP TRIGGER entries_no_update")
    conn.execute("UPDATE entries SET actor = 'someone' WHERE seq = 5")
    conn.commit()
    conn.close()
    live = Ledger.open_readonly(aged)
    problems = check_archives(live, [edited, tmp_path / "missing.etga", aged])
    live.close()
    messages = [p.message for p in problems]
    assert any("not an archive this ledger recorded" in m for m in messages)  # its hash
    assert any("no such archive" in m for m in messages)
    assert any("not an ETG ledger archive" in m for m in messages)


def test_an_edit_behind_the_cut_in_the_archive_breaks_the_one_chain(
        aged: Path, tmp_path: Path) -> None:
    out = tmp_path / "a.etga"
    _archive(aged, "2026-02-01", out)
    live = Ledger.open_readonly(aged)
    # Rewritten in place and its recorded digest bypassed: the links themselves must catch it.
    conn = sqlite3.connect(out)
    conn.execute("DROP TRIGGER entries_no_update")
    conn.execute("UPDATE entries SET actor = 'someone' WHERE seq = 5")
    conn.commit()
    conn.close()
    from etg.ledger import archive as archive_module

    record = archive_module._recorded(live)[0]
    digest = __import__("hashlib").sha256(out.read_bytes()).hexdigest()
    problems = archive_module._check_one(live, out, archive_module.open_archive(out),
                                         {digest: record}, [record])
    live.close()
    assert any("entries row 5" in p.message and "does not match its hash" in p.message
               for p in problems), problems


def test_nothing_to_archive_and_an_existing_file_are_refused(aged: Path,
                                                             tmp_path: Path) -> None:
    with pytest.raises(LedgerError, match="nothing to archive"):
        _archive(aged, "2025-12-31", tmp_path / "a.etga")
    taken = tmp_path / "taken.etga"
    taken.write_bytes(b"x")
    with pytest.raises(LedgerError, match="never overwritten"):
        _archive(aged, "2026-02-01", taken)
    ledger = Ledger.open_readonly(aged)
    assert ledger.first_seq() == 1  # nothing moved
    ledger.close()


def test_the_archive_command_refuses_a_ledger_in_use_and_reports_what_moved(
        aged: Path, tmp_path: Path) -> None:
    from etg.ledger.lock import WriterLock

    config = supervised_config(tmp_path)
    out = tmp_path / "a.etga"
    command = ["ledger", "archive", "--db", str(aged), "--before", "2026-02-01", "--out",
               str(out), "--config", str(config), "--pin-stdin"]
    with WriterLock(aged):
        result = CliRunner().invoke(main, command, input=f"{SUPERVISOR_PIN}\n")
        assert result.exit_code == 2 and not out.exists()
    result = CliRunner().invoke(main, command, input=f"{SUPERVISOR_PIN}\n")
    assert result.exit_code == 0, result.output
    assert "(rounds 1 to 6) moved to" in result.output
    log = Ledger.open_readonly(aged)
    [moved] = log.event_log("archive")
    assert moved["actor"] == "supervisor"  # whose PIN allowed it
    log.close()
