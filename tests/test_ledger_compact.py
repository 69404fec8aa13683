"""The compact record format (issue 11, item 1): each fact once, short, and read back exactly.

- Every command and event the busiest table produces survives packing by the
  ledger's recorded layout and unpacking, to the value.
- A round's record comes back as the program made it, whether it primed the
  compression of the others (the first under a layout) or was primed by it.
- A program whose types differ records a layout of its own, and entries
  written under an older layout still read back with that one.
- Start-up queries go through the indexes: no statement scans the whole chain.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from etg.config.places import shipped_config_dir
from etg.core.rng import SeededSource
from etg.ledger import compact
from etg.ledger.codec import dump_command, dump_event
from etg.ledger.compact import Layout, current_layout
from etg.ledger.entry import COMPACT, EntryKind, iso, micros
from etg.ledger.round_codec import PRIMED, UNPRIMED, decode_round, encode_round
from etg.ledger.store import Ledger
from etg.ledger.verify import verify
from etg.table.bots import RoundDriver, busiest_bots
from etg.table.controller import Table
from tests.ledger_support import paytable

MD7 = shipped_config_dir() / "paytables" / "maryland-community-7.yaml"


def _busiest(db: Path, rounds: int) -> tuple[Table, list[Any], list[Any]]:
    """A table on the busiest paytable after ``rounds``, and every command and event sent."""
    table = Table.open(Ledger.open(db), paytable(MD7), SeededSource(1))
    commands: list[Any] = []
    events: list[Any] = []

    def apply(state: Any, command: Any) -> Any:
        commands.append(command)
        state, new = table.apply(state, command)
        events.extend(new)
        return state, new

    driver = RoundDriver(busiest_bots(table.state.paytable), SeededSource(2), apply, repeat=True)
    for _ in range(rounds):
        driver.play_round(table.state)
    return table, commands, events


def test_every_command_and_event_packs_and_unpacks_to_the_value(tmp_path: Path) -> None:
    table, commands, events = _busiest(tmp_path / "l.db", 12)
    table.close()
    layout = Layout(current_layout())
    assert {type(e).__name__ for e in events} >= {"WagerPlaced", "WagerSettled", "CardDealt",
                                                  "ProgressiveContributed", "RoundComplete"}
    for command in commands:
        data = dump_command(command)
        packed = layout.pack_command(data)
        assert isinstance(packed[0], int) and layout.unpack_command(packed) == data
    for event in events:
        data = dump_event(event)
        packed = layout.pack_event(data)
        assert layout.unpack_event(packed) == data
        assert len(str(packed)) < len(str(data))  # no field names: shorter


def test_a_packed_value_of_the_wrong_shape_is_refused() -> None:
    layout = Layout(current_layout())
    packed = layout.pack_event(dump_event(_settled()))
    with pytest.raises(ValueError, match="values for"):
        layout.unpack_event(packed[:-1])


def _settled() -> Any:
    from etg.core.events import WagerSettled
    from etg.core.settle import Payment, Result, WagerKind

    return WagerSettled(3, 2, Payment(WagerKind.INITIAL, Result.WON, 500, 500, 500), 1000, 0,
                        4200)


def test_rounds_read_back_as_written_primed_or_not(tmp_path: Path) -> None:
    table, _, _ = _busiest(tmp_path / "l.db", 4)
    rounds = table.ledger.rounds()
    bodies = [bytes(r[0]) for r in table.ledger.conn.execute(
        "SELECT body FROM entries WHERE kind = 'round' ORDER BY seq")]
    table.close()
    assert [b[0] for b in bodies] == [UNPRIMED, PRIMED, PRIMED, PRIMED]
    _, texts = decode_round(bodies[0], None)
    assert texts is not None
    second, none = decode_round(bodies[1], texts)
    assert none is None and second["round"] == 2
    with pytest.raises(ValueError, match="dictionary"):
        decode_round(bodies[1], None)
    with pytest.raises(ValueError):
        decode_round(bodies[1][:-3], texts)  # cut short
    # Reopened, the ledger finds its dictionary again and reads every round as it was.
    store = Ledger.open_readonly(tmp_path / "l.db")
    assert store.rounds() == rounds
    assert all(len(r["events"]) > 40 and r["ended_at"] for r in rounds)
    store.close()
    body, made = encode_round({"round": 9}, {"events": []}, texts)
    assert body[0] == PRIMED and decode_round(body, texts)[0] == {"round": 9, "events": []}
    assert made[0] == b'{"round":9}'


def test_a_round_is_stored_in_about_a_kilobyte(tmp_path: Path) -> None:
    table, _, _ = _busiest(tmp_path / "l.db", 6)
    sizes = [len(r[0]) for r in table.ledger.conn.execute(
        "SELECT body FROM entries WHERE kind = 'round' ORDER BY seq")]
    commands = [len(r[0]) for r in table.ledger.conn.execute(
        "SELECT body FROM entries WHERE kind = 'command'")]
    table.close()
    assert max(sizes[1:]) < 1000  # primed: one page of the file, no overflow
    assert max(commands) < 64 or sorted(commands)[-2] < 64  # a shuffle carries its shoe


def test_times_are_whole_microseconds_and_read_back_as_written() -> None:
    for at in ("2026-11-25T04:30:14.123456+00:00", "2026-01-01T00:00:00+00:00",
               "2031-07-04T23:59:59.000001+00:00"):
        assert iso(micros(at)) == at


def test_a_newer_layout_is_recorded_and_older_entries_keep_theirs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "l.db"
    table, _, _ = _busiest(db, 2)
    table.close()
    older = current_layout()
    newer = {"commands": older["commands"], "events": [*older["events"],
                                                       ["SomethingNew", [["x", None]]]]}
    newer["events"] = sorted(newer["events"])  # the codes move: old entries must not care
    monkeypatch.setattr(compact, "current_layout", lambda: newer)
    monkeypatch.setattr("etg.ledger.store.current_layout", lambda: newer)
    ledger = Ledger.open(db)
    layouts = [e for e in ledger.entries(kind=EntryKind.SCHEMA) if e.tag == "layout"]
    assert [e.data() for e in layouts] == [older, newer]
    assert all(r["events"] for r in ledger.rounds())  # decoded with the layout they had
    assert verify(ledger, full=True, events=True) == []
    ledger.close()


def test_start_up_scans_no_table_but_the_tail(tmp_path: Path) -> None:
    """Every query of a start-up on a long ledger uses an index or a rowid range: none reads
    the whole chain (EXPLAIN QUERY PLAN of each statement the kiosk runs)."""
    db = tmp_path / "l.db"
    table, _, _ = _busiest(db, 5)
    table.close()
    statements: list[str] = []
    ledger = Ledger.open(db)
    ledger.conn.set_trace_callback(statements.append)
    table = Table.open(ledger, paytable(MD7), SeededSource(3), defer_file_check=True)
    ledger.conn.set_trace_callback(None)
    assert table.tilt is None
    plans = []
    probe = sqlite3.connect(db)
    for sql in {s for s in statements if s.lstrip().upper().startswith("SELECT")}:
        plan = " / ".join(r[3] for r in probe.execute(f"EXPLAIN QUERY PLAN {sql}"))
        plans.append((sql, plan))
    probe.close()
    table.close()
    scans = [(sql, plan) for sql, plan in plans
             if "SCAN entries" in plan and "USING" not in plan.split("SCAN entries")[1][:40]]
    assert scans == [], scans


def test_every_compact_entry_is_marked_and_the_chain_holds(tmp_path: Path) -> None:
    table, _, _ = _busiest(tmp_path / "l.db", 3)
    entries = list(table.ledger.entries())
    table.close()
    assert {e.format for e in entries} == {COMPACT}
    assert all(len(e.hash) == 32 for e in entries)  # BLAKE2b-256: unkeyed, so 256 bits
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert dataclasses.replace(entries[5], body=b"x").content() != entries[5].content()
