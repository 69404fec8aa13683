"""The controller and ledger: write before show, exact resume, integrity, tilts."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from etg.config.loader import load_paytable
from etg.core.commands import (
    BetKind,
    CashIn,
    CashOut,
    CloseBets,
    Deal,
    OpenBets,
    PlaceWager,
    ShuffleReason,
)
from etg.core.events import Event
from etg.core.refusal import Refused
from etg.core.state import Phase, TableState
from etg.ledger.codec import dump_event
from etg.ledger.store import Ledger, LedgerError
from etg.ledger.verify import verify
from etg.table.controller import TableTilted
from tests.ledger_support import (
    MD5,
    built_once,
    open_table,
    play,
    played_ledger,
    rebuilt_state,
)


@pytest.mark.durable_commits
def test_a_new_ledger_is_wal_with_full_sync_and_a_recorded_schema(tmp_path: Path) -> None:
    table = open_table(tmp_path / "l.db")
    db = table.ledger.db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert table.ledger.schema_version == 5  # 0001 initial, 0002 checkpoints, 0003 chained,
    # 0004 compact, 0005 signed heads
    assert [e["kind"] for e in table.ledger.event_log()] == ["paytable_change", "power_up"]
    table.close()


def test_every_state_change_is_committed_before_listeners_hear_of_it(tmp_path: Path) -> None:
    table = open_table(tmp_path / "l.db")
    seen: list[int] = []

    def listener(state: TableState, events: list[Event]) -> None:
        # a second connection sees the command already: it was committed first
        other = sqlite3.connect(tmp_path / "l.db")
        seen.append(other.execute("SELECT count(*) FROM entries WHERE kind = 'command'"
                                  ).fetchone()[0])
        other.close()

    table.listeners.append(listener)
    table.shuffle(ShuffleReason.NEW_SHOE)
    table.send(OpenBets())
    assert seen == [1, 2]
    table.close()


def test_a_refused_command_writes_nothing(tmp_path: Path) -> None:
    table = open_table(tmp_path / "l.db")
    head = table.ledger.head
    with pytest.raises(Refused):
        table.send(Deal())
    assert table.ledger.db.execute("SELECT count(*) FROM entries WHERE kind = 'command'"
                                   ).fetchone()[0] == 0
    assert table.ledger.head == head
    table.close()


def test_restart_mid_round_rebuilds_the_exact_state(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 7)
    table.send(CashIn(3, 10_000), actor="attendant 4")
    table.send(OpenBets())
    table.send(PlaceWager(3, 2, BetKind.INITIAL, 2_500))
    table.send(PlaceWager(3, 2, BetKind.PROGRESSIVE_PAYOUT, 500))
    table.send(CloseBets())
    table.send(Deal())
    before = table.state
    table.ledger.close()  # power loss: no shutdown entry
    again = open_table(db)
    assert again.state == before  # shoe, cards, wagers, meters and their carries, phase
    assert again.state.phase is Phase.DEALT
    assert again.tilt is None
    again.close()


def test_the_last_ten_rounds_read_back_as_they_were_played(tmp_path: Path) -> None:
    table = open_table(tmp_path / "l.db")
    played: list[list[dict[str, object]]] = []
    current: list[dict[str, object]] = []

    def listener(state: TableState, events: list[Event]) -> None:
        for event in events:
            name = type(event).__name__
            if name == "BetsOpened":
                current.clear()
            if name not in ("CreditsIn", "CreditsOut", "ShoeShuffled", "TableCleared"):
                current.append(dump_event(event))
            if name in ("RoundComplete", "RoundVoided"):
                played.append(list(current))

    table.listeners.append(listener)
    play(table, 15)
    records = table.ledger.rounds(last=10)
    assert [r["round"] for r in records] == list(range(6, 16))
    assert [r["events"] for r in records] == played[-10:]
    last = table.state.round
    assert records[-1]["credits_after"] == list(table.state.credits) or last.number == 16
    table.close()


@pytest.mark.slow
def test_ledger_verify_is_clean_after_play(tmp_path: Path) -> None:
    table = open_table(tmp_path / "l.db")
    play(table, 40)
    assert verify(table.ledger) == []
    table.close()


# --- tampering ------------------------------------------------------------------------------

def _played_ledger(tmp_path: Path, rounds: int = 12) -> Path:
    return played_ledger(tmp_path, rounds, name="l.db")


def _unclosed_ledger(tmp_path: Path, rounds: int = 12) -> Path:
    """Rounds after the newest checkpoint: the power went off, no shutdown checkpoint."""

    def build(db: Path) -> None:
        table = open_table(db)
        play(table, rounds)
        table.ledger.close()

    return built_once(("unclosed", rounds), build, tmp_path / "l.db")


def _tamper(db: Path, *statements: str) -> None:
    conn = sqlite3.connect(db)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def _round_seq(db: Path, round_number: int) -> int:
    conn = sqlite3.connect(db)
    seq = conn.execute("SELECT seq FROM entries WHERE kind = 'round' AND round = ?",
                       [round_number]).fetchone()[0]
    conn.close()
    return int(seq)


@pytest.mark.parametrize(("statements", "message"), [
    (["DROP TRIGGER entries_no_update",  # one byte more in the round's (compressed) body
      "UPDATE entries SET body = CAST(body || x'00' AS BLOB) WHERE seq = {seq5}"],
     "chain: entries row {seq5} (round complete): its content does not match its hash"),
    (["DROP TRIGGER entries_no_delete", "DELETE FROM entries WHERE seq = {seq7}"],
     "chain: entries row {seq7} is missing (the next is {next7})"),
    (["UPDATE meters SET value = value + 100 WHERE seat = 0 AND name = 'coin_in.initial'"],
     "meters: meters row (md-community-5, seat 0, coin_in.initial) is {actual}, "
     "the ledger sums to {expected}"),
])
def test_tampering_tilts_the_table_with_a_message_naming_it(
    tmp_path: Path, statements: list[str], message: str
) -> None:
    db = _unclosed_ledger(tmp_path)  # rounds 5 and 7 lie in the tail start-up walks
    ledger = Ledger.open(db)
    value = ledger.meters()["md-community-5"][(0, "coin_in.initial")]
    ledger.close()
    names = {"seq5": _round_seq(db, 5), "seq7": _round_seq(db, 7),
             "next7": _round_seq(db, 7) + 1, "actual": value + 100, "expected": value}
    _tamper(db, *(statement.format(**names) for statement in statements))
    table = open_table(db)
    assert table.tilt is not None
    assert message.format(**names) in table.tilt.message
    with pytest.raises(TableTilted, match="the table is tilted"):
        table.send(OpenBets())
    kinds = [e["kind"] for e in table.ledger.event_log()]
    assert kinds[-1] == "tilt" and kinds[kinds.index("power_up", 2) + 1] == "tilt"
    table.acknowledge_tilt("supervisor 7")
    table.send(OpenBets())  # play goes on, on the supervisor's word, which is logged
    assert table.ledger.event_log("tilt_cleared")[0]["actor"] == "supervisor 7"
    table.close()


def test_an_edited_paytable_file_tilts(tmp_path: Path) -> None:
    copy = tmp_path / "md5.yaml"
    shutil.copy(MD5, copy)
    db = tmp_path / "l.db"
    table = open_table(db, load_paytable(copy))
    play(table, 2)
    table.close()
    copy.write_text(copy.read_text().replace("betting_s: 20", "betting_s: 25"))
    table = open_table(db, load_paytable(copy))
    assert table.tilt is not None
    assert ("paytable: the active paytable `md-community-5` differs from the approved one: "
            "recorded sha256 ") in table.tilt.message
    assert str(copy) in table.tilt.message
    table.close()


def test_an_unacknowledged_tilt_survives_a_restart(tmp_path: Path) -> None:
    db = _played_ledger(tmp_path)
    _tamper(db, "UPDATE meters SET value = value + 1 WHERE name = 'games.played' AND seat = 0")
    open_table(db).close()
    _tamper(db, "UPDATE meters SET value = value - 1 WHERE name = 'games.played' AND seat = 0")
    table = open_table(db)
    assert table.tilt is not None and "games.played" in table.tilt.message
    table.close()


def test_a_file_that_is_not_ours_is_refused_and_left_alone(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE customers (name TEXT)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    with pytest.raises(LedgerError, match="not an ETG ledger"):
        Ledger.open(other)
    assert other.read_bytes() == before


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_garbage_or_truncated_file_is_refused_and_left_alone(tmp_path: Path, damage: str) -> None:
    db = _played_ledger(tmp_path, rounds=30)
    path = tmp_path / "bad.db"
    data = db.read_bytes()
    path.write_bytes(b"\x00garbage" * 100 if damage == "garbage" else data[: len(data) // 3])
    before = path.read_bytes()
    with pytest.raises(LedgerError) as refused:
        ledger = Ledger.open(path)
        problems = verify(ledger)  # a truncated file may open: quick_check then finds it
        ledger.close()
        raise LedgerError(problems[0].message if problems else "no problem found")
    assert str(refused.value) != "no problem found"
    assert path.read_bytes()[: len(before)] == before or damage == "truncated"


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    db = _played_ledger(tmp_path, rounds=1)
    _tamper(db, "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                "VALUES ('etg-ledger', '0002_from_the_future', '2030-01-01')")
    with pytest.raises(LedgerError, match="written by a newer program"):
        Ledger.open(db)


def test_a_ram_clear_zeroes_meters_logged_and_verify_stays_clean(tmp_path: Path) -> None:
    table = open_table(tmp_path / "l.db")
    play(table, 5)
    with pytest.raises(ValueError, match="second confirmation"):
        table.ram_clear("operator 1", confirmed=False)
    table.ram_clear("operator 1", confirmed=True)
    assert table.ledger.meters() == {}
    play(table, 3)
    assert verify(table.ledger) == []
    assert table.ledger.meters()["md-community-5"][(0, "games.played")] == 3
    table.close()


def test_rebuilding_reads_without_writing(tmp_path: Path) -> None:
    db = _played_ledger(tmp_path, rounds=3)
    assert rebuilt_state(db).round.number == 4


def test_a_paytable_switch_needs_empty_seats_and_is_logged_with_both_hashes(
    tmp_path: Path,
) -> None:
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 3)
    seven = load_paytable(MD5.parent / "maryland-community-7.yaml")
    with pytest.raises(Refused, match="no credits on the seats"):
        table.switch_paytable(seven, "operator 2")
    for seat, credits in enumerate(table.state.credits, start=1):
        if credits:
            table.send(CashOut(seat), actor="attendant 1")
    primary = table.state.meters[0]
    round_number = table.state.round.number
    table.switch_paytable(seven, "operator 2")
    assert (table.state.paytable.id, table.state.paytable.seats) == ("md-community-7", 9)
    assert table.state.shoe is None and table.state.round.number == round_number
    assert table.state.meters[0] == primary  # the progressive meters are carried, cent for cent
    [change] = table.ledger.event_log("paytable_change")[1:]
    assert change["actor"] == "operator 2"
    assert change["details"]["old_sha256"] == load_paytable(MD5).sha256
    assert change["details"]["new_sha256"] == seven.sha256
    play(table, 2)
    assert verify(table.ledger, seven) == []
    table.close()
    again = open_table(db, seven)
    assert again.tilt is None and again.state.paytable.id == "md-community-7"
    again.close()


def test_start_up_resumes_meter_checks_from_a_checkpoint_yet_catches_tampering(
    tmp_path: Path,
) -> None:
    db = _played_ledger(tmp_path, rounds=10)
    ledger = Ledger.open(db)
    point = ledger.last_checkpoint()
    assert point is not None and point[1]["reason"] == "shutdown" and point[1]["rounds"] == 10
    assert point[0] == ledger.head[0]  # a clean shutdown: the next start replays nothing
    ledger.close()
    table = open_table(db)
    play(table, 5)
    table.close()
    seq3 = _round_seq(db, 3)
    # a meter changed after the checkpoint, and a round edited before it
    _tamper(db, "UPDATE meters SET value = value + 7 WHERE seat = 0 AND name = 'coin_in.tie'",
            "DROP TRIGGER entries_no_update",
            f"UPDATE entries SET body = CAST(body || x'00' AS BLOB) WHERE seq = {seq3}")
    table = open_table(db)
    # start-up walks from the newest checkpoint: the meter tilts it at once; the round edited
    # behind the checkpoint is for the full walk (etg ledger verify --full) to name
    assert table.tilt is not None and "coin_in.tie" in table.tilt.message
    assert f"entries row {seq3}" not in table.tilt.message
    full = " ".join(p.message for p in verify(table.ledger, full=True))
    assert f"entries row {seq3} (round complete): its content does not match" in full
    table.close()


def test_a_full_verify_and_a_checkpointed_verify_agree_on_a_clean_ledger(tmp_path: Path) -> None:
    db = _played_ledger(tmp_path, rounds=8)
    open_table(db).close()
    table = open_table(db)
    play(table, 4)
    assert verify(table.ledger, full=True) == verify(table.ledger, full=False) == []
    table.close()
