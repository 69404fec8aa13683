"""The fault note beside the ledger: room made at start-up, then only overwritten in place."""

from __future__ import annotations

from pathlib import Path

from etg.ledger import fault_note
from etg.ledger.fault_note import NOTE_BYTES, note_path


def test_reserve_makes_real_room_and_keeps_a_note_already_there(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    assert fault_note.read(db) is None  # no note at all: nothing to record
    fault_note.reserve(db)
    stat = note_path(db).stat()
    assert stat.st_size == NOTE_BYTES
    assert stat.st_blocks * 512 >= NOTE_BYTES  # allocated, not a sparse hole
    assert fault_note.read(db) is None  # blank
    fault_note.record(db, "storage: disk full")
    fault_note.reserve(db)  # the next start makes room again: the note stays
    assert fault_note.read(db) == "storage: disk full"


def test_faults_are_added_in_order_and_clear_keeps_the_room(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    fault_note.reserve(db)
    fault_note.record(db, "storage: disk full")
    fault_note.record(db, "storage: the ledger is locked")
    assert fault_note.read(db) == "storage: disk full; storage: the ledger is locked"
    assert note_path(db).stat().st_size == NOTE_BYTES  # overwritten in place, never grown
    fault_note.clear(db)
    assert fault_note.read(db) is None
    assert note_path(db).read_bytes() == bytes(NOTE_BYTES)


def test_what_does_not_fit_is_cut_on_a_whole_character(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    fault_note.reserve(db)
    fault_note.record(db, "é" * NOTE_BYTES)  # two bytes each: the room ends mid-character
    kept = fault_note.read(db)
    assert kept == "é" * ((NOTE_BYTES - 1) // 2)
    assert note_path(db).stat().st_size == NOTE_BYTES
    assert note_path(db).read_bytes()[-1] == 0  # a zero byte always ends the text
