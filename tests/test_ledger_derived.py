"""Issue 25, item 1: the meters are derived from the chain, never copied, and the file's schema
is the program's own. Finding 1 as the technician did it, each attack detected."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

import etg.table.controller as table_module
from etg.core.commands import CashIn
from etg.ledger.entry import checkpoint_data
from etg.ledger.meters import round_meters
from etg.ledger.store import Ledger
from etg.ledger.verify import verify
from etg.table.controller import Table, TableTilted
from tests.ledger_support import open_table, play, played_ledger, with_site_keys

PAYTABLE = "md-community-5"

SKIM = ("CREATE TRIGGER skim AFTER INSERT ON entries WHEN new.kind = 'round' BEGIN "
        "UPDATE meters SET value = value - 500 WHERE name = 'coin_in.initial' AND seat IN (0, 1); "
        "END")
"""Finding 1's trigger, as the technician wrote it."""

APPEND_ONLY = ("CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries "
               "BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END")

DROP_ROUNDS = ("CREATE TRIGGER hush BEFORE INSERT ON entries WHEN new.kind = 'round' BEGIN "
               "SELECT RAISE(IGNORE); END")
"""Finding 1's other trigger: every round record silently dropped."""


@pytest.fixture
def every_five(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "CHECKPOINT_EVERY", 5)  # rolling checkpoints, sooner


def _execute(db: Path, *statements: str) -> None:
    """What a technician with a shell does beside the running table: another connection."""
    with sqlite3.connect(db) as conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()


def _play_to_tilt(table: Table, rounds: int) -> None:
    """Play ``rounds``; the last one's checkpoint tilts, and the dealer's next command with it."""
    with pytest.raises(TableTilted, match="the table is tilted"):
        play(table, rounds)
    assert table.state.round.number == table.ledger.round_count()


def _sums(ledger: Ledger) -> Counter[tuple[int, str]]:
    """The meters of the rounds, added up here from the records themselves."""
    total: Counter[tuple[int, str]] = Counter()
    for record in ledger.rounds():
        total.update(round_meters(record))
    return total


def _newest_checkpoint_meters(ledger: Ledger) -> dict[tuple[int, str], int]:
    seq = next(ledger.checkpoint_seqs())
    entry = ledger.entry(seq)
    assert entry is not None
    body, _ = checkpoint_data(entry)
    return {(seat, name): value for seat, name, value in body["meters"][PAYTABLE]}


def test_a_trigger_skimming_the_meters_tilts_at_the_next_checkpoint_naming_meter_and_seat(
        tmp_path: Path, every_five: None) -> None:
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 2)
    _execute(db, SKIM)
    _play_to_tilt(table, 3)  # round 5 ends with a rolling checkpoint
    assert table.tilt is not None
    ledger = table.ledger
    want = _sums(ledger)[(1, "coin_in.initial")]
    assert want > 1_500
    # The three rounds played with the trigger took 500 cents a round from seat 1 and the table.
    assert (f"meters: meters row ({PAYTABLE}, seat 1, coin_in.initial) is {want - 1_500}, the "
            f"ledger sums to {want}") in table.tilt.message
    whole = _sums(ledger)[(0, "coin_in.initial")]
    assert (f"meters row ({PAYTABLE}, seat 0, coin_in.initial) is {whole - 1_500}, the ledger "
            f"sums to {whole}") in table.tilt.message
    assert "schema: trigger skim on entries is not one this program made" in table.tilt.message
    # The checkpoint holds the chain's sums, not the skimmed table's.
    assert _newest_checkpoint_meters(ledger)[(1, "coin_in.initial")] == want
    table.close()


def test_a_skim_absorbed_by_no_checkpoint_is_found_by_quick_verify_and_at_start_up(
        tmp_path: Path, every_five: None) -> None:
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 1)
    _execute(db, SKIM)
    _play_to_tilt(table, 4)  # rounds 2 to 5, a rolling checkpoint after the last
    want = _sums(table.ledger)[(1, "coin_in.initial")]
    table.ledger.close()  # the process ends without its shutdown
    store = Ledger.open_readonly(db)
    quick = [f"{p.check}: {p.message}" for p in verify(store)]
    store.close()
    skimmed = (f"meters: meters row ({PAYTABLE}, seat 1, coin_in.initial) is {want - 500 * 4}, "
               f"the ledger sums to {want}")
    assert skimmed in quick
    _execute(db, "DROP TRIGGER skim")  # the trigger gone again: the meters still tell
    table = open_table(db)
    assert table.tilt is not None and skimmed in table.tilt.message
    table.close()


def test_a_trigger_dropping_round_records_tilts_at_the_next_checkpoint(
        tmp_path: Path, every_five: None) -> None:
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 1)
    _execute(db, DROP_ROUNDS)
    _play_to_tilt(table, 4)  # rounds 2 to 5: each record dropped as it is written
    assert table.tilt is not None
    dropped = [row[0] for row in table.ledger.conn.execute(
        "SELECT seq + 1 FROM entries AS e WHERE NOT EXISTS "
        "(SELECT 1 FROM entries WHERE seq = e.seq + 1) AND seq < (SELECT max(seq) FROM entries)")]
    assert len(dropped) == 4
    assert (f"chain: entries rows {', '.join(map(str, dropped))} were written and are not in "
            f"the file") in table.tilt.message
    assert "schema: trigger hush on entries is not one this program made" in table.tilt.message
    table.close()


def test_a_meter_changed_during_play_is_not_absorbed_by_the_next_checkpoint(
        tmp_path: Path, every_five: None) -> None:
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 2)
    _execute(db, f"UPDATE meters SET value = value - 100 WHERE paytable_id = '{PAYTABLE}' "
                 f"AND seat = 2 AND name = 'coin_in.initial'")
    _play_to_tilt(table, 3)
    assert table.tilt is not None
    want = _sums(table.ledger)[(2, "coin_in.initial")]
    named = (f"meters: meters row ({PAYTABLE}, seat 2, coin_in.initial) is {want - 100}, the "
             f"ledger sums to {want}")
    assert table.tilt.message == named
    table.close()  # tilted: no shutdown checkpoint
    table = open_table(db)  # the next start still sees it
    assert table.tilt is not None and named in table.tilt.message
    # The supervisor's acknowledgement puts the chain's sums back in the table, on record.
    table.acknowledge_tilt("supervisor 7")
    ledger = table.ledger
    assert ledger.meters()[PAYTABLE][(2, "coin_in.initial")] == want
    restored = ledger.event_log("meters_restored")
    assert [e["details"]["differences"] for e in restored] == [[named.removeprefix("meters: ")]]
    assert restored[0]["actor"] == "supervisor 7"
    play(table, 5)
    assert table.tilt is None
    table.close()
    store = Ledger.open_readonly(db)
    assert verify(store, full=True) == []
    store.close()


def test_a_meter_changed_before_a_clean_shutdown_is_on_record_as_a_tilt(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 2)
    _execute(db, f"UPDATE meters SET value = value + 1 WHERE paytable_id = '{PAYTABLE}' "
                 f"AND seat = 0 AND name = 'games.played'")
    table.close()  # the shutdown checkpoint holds the chain's 2, the table 3
    store = Ledger.open_readonly(db)
    named = f"meters row ({PAYTABLE}, seat 0, games.played) is 3, the ledger sums to 2"
    assert [e["details"] for e in store.event_log("tilt")] == [{"check": "meters",
                                                                "message": named}]
    assert _newest_checkpoint_meters(store)[(0, "games.played")] == 2
    store.close()
    table = open_table(db)
    assert table.tilt is not None and f"meters: {named}" in table.tilt.message
    table.close()


def test_the_derived_meters_follow_a_rolled_back_transaction(tmp_path: Path) -> None:
    """What a failed commit added is taken back: the next checkpoint is the chain's."""
    table = open_table(tmp_path / "l.db")
    play(table, 1)
    ledger = table.ledger
    before = ledger.derived.meters(ledger)

    class Failed(Exception):
        pass

    with pytest.raises(Failed), ledger.atomic():
        ledger.log("cash_in", "attendant", {"seat": 3, "amount": 2_500, "paytable_id": PAYTABLE})
        assert ledger.derived.meters(ledger)[PAYTABLE][(3, "cash_in")] == 2_500 + \
            before[PAYTABLE][(3, "cash_in")]
        raise Failed
    assert ledger.derived.meters(ledger) == before
    table.send(CashIn(3, 1_000), actor="attendant 1")
    assert ledger.derived.meters(ledger)[PAYTABLE][(3, "cash_in")] == \
        before[PAYTABLE][(3, "cash_in")] + 1_000
    table.close()
    store = Ledger.open_readonly(tmp_path / "l.db")
    assert verify(store, full=True) == []
    store.close()


# --- the schema --------------------------------------------------------------------------------

TAMPERED_SCHEMA = {
    "trigger": ("CREATE TRIGGER skim AFTER INSERT ON entries BEGIN SELECT 1; END",
                "trigger skim on entries is not one this program made"),
    "index": ("CREATE INDEX entries_by_actor ON entries (actor)",
              "index entries_by_actor on entries is not one this program made"),
    "view": ("CREATE VIEW honest_meters AS SELECT * FROM meters",
             "view honest_meters is not one this program made"),
    "table": ("CREATE TABLE aside (value INTEGER)", "table aside is not one this program made"),
    "altered trigger": (
        "DROP TRIGGER entries_no_update; CREATE TRIGGER entries_no_update BEFORE UPDATE ON "
        "entries WHEN 0 BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END",
        "trigger entries_no_update on entries differs from the one this program made"),
    "dropped trigger": ("DROP TRIGGER entries_no_delete",
                        "trigger entries_no_delete on entries is missing from sqlite_master"),
    "altered index": (
        "DROP INDEX entries_rounds; CREATE INDEX entries_rounds ON entries (round)",
        "index entries_rounds on entries differs from the one this program made"),
}


@pytest.mark.parametrize("kind", sorted(TAMPERED_SCHEMA))
def test_every_kind_of_object_a_technician_can_add_is_found_by_start_up_and_verify(
        tmp_path: Path, kind: str) -> None:
    db = played_ledger(tmp_path, rounds=2)
    statements, message = TAMPERED_SCHEMA[kind]
    with sqlite3.connect(db) as conn:
        conn.executescript(statements)
    conn.close()
    store = Ledger.open_readonly(db)
    for full in (False, True):
        found = [f"{p.check}: {p.message}" for p in verify(store, full=full)]
        assert len(found) == 1 and found[0].startswith(f"schema: {message}"), found
    store.close()
    table = open_table(db)
    assert table.tilt is not None and f"schema: {message}" in table.tilt.message
    table.close()


def test_the_expected_schema_is_what_a_new_ledger_holds(tmp_path: Path) -> None:
    """Derived from the program's migrations: a ledger this program made has nothing else,
    and a cabinet's whole life (archive included) adds nothing."""
    from etg.ledger.schema_check import check_objects, expected_objects

    table = open_table(tmp_path / "l.db")
    play(table, 1)
    assert check_objects(table.ledger.conn) == []
    assert {o.type for o in expected_objects().values()} == {"table", "index", "trigger"}
    assert {"entries", "meters", "entries_no_update", "entries_no_delete"} <= \
        set(expected_objects())
    table.close()


def test_a_ledger_opened_by_a_table_is_checked_before_each_checkpoint(
        tmp_path: Path, every_five: None) -> None:
    """An index added while the table plays (no start-up between) tilts at the checkpoint."""
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 1)
    _execute(db, "CREATE INDEX entries_by_actor ON entries (actor)")
    _play_to_tilt(table, 4)
    assert table.tilt is not None
    assert table.tilt.message.startswith("schema: index entries_by_actor on entries is not one")
    table.close()


def test_acknowledging_on_the_command_line_puts_the_chain_s_sums_back_on_record(
        tmp_path: Path) -> None:
    from click.testing import CliRunner

    from etg.cli import main
    from etg.config.cabinet_edit import set_cabinet_value
    from etg.table.pin import hash_pin
    from tests.kiosk_support import config_copy

    config = config_copy(tmp_path)
    set_cabinet_value(config / "cabinet.yaml", "supervisor_pin_hash", hash_pin("2468"))
    db = played_ledger(tmp_path, rounds=2)
    with_site_keys(config)  # the keys it is signed with, where --config names them
    _execute(db, f"UPDATE meters SET value = value + 300 WHERE paytable_id = '{PAYTABLE}' "
                 f"AND seat = 1 AND name = 'coin_in.initial'")
    table = open_table(db)
    assert table.tilt is not None
    want = table.ledger.derived.meters(table.ledger)[PAYTABLE][(1, "coin_in.initial")]
    named = (f"meters row ({PAYTABLE}, seat 1, coin_in.initial) is {want + 300}, the ledger "
             f"sums to {want}")
    assert table.tilt.message == f"meters: {named}"
    tilt = table.tilt.ids[0]
    table.close()
    result = CliRunner().invoke(main, ["ledger", "acknowledge", "--db", str(db), "--tilt",
                                       str(tilt), "--config", str(config), "--pin-stdin"],
                                input="2468\n")
    assert result.exit_code == 0, result.output
    store = Ledger.open_readonly(db)
    assert store.meters()[PAYTABLE][(1, "coin_in.initial")] == want
    restored = store.event_log("meters_restored")
    assert [(e["actor"], e["details"]) for e in restored] == [
        ("supervisor", {"differences": [named]})]
    store.close()
    table = open_table(db)
    assert table.tilt is None
    table.close()


def test_an_unreadable_round_in_the_tail_is_named_and_the_checkpoints_go_on(
        tmp_path: Path, every_five: None) -> None:
    """The sums go on without a row that cannot be read: a problem, never a crash."""
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 6)
    table.ledger.close()  # no shutdown: round 6 is in the tail after the checkpoint at 5
    with sqlite3.connect(db) as conn:
        seq = conn.execute("SELECT seq FROM entries WHERE kind = 'round' AND round = 6"
                           ).fetchone()[0]
        conn.execute("DROP TRIGGER entries_no_update")
        conn.execute("UPDATE entries SET body = x'00' WHERE seq = ?", [seq])
        conn.execute(APPEND_ONLY)
    conn.close()
    table = open_table(db)
    assert table.tilt is not None and f"entries row {seq}" in table.tilt.message
    table.acknowledge_tilt("supervisor 7")  # the table set to the sums without round 6
    assert table.tilt is not None
    assert table.tilt.message == (f"meters: entries row {seq} (round) cannot be read to add up "
                                  f"the meters: not a compact round body")
    restored = table.ledger.event_log("meters_restored")[0]["details"]["differences"]
    assert f"meters row ({PAYTABLE}, seat 0, games.played) is 6, the ledger sums to 5" in restored
    table.acknowledge_tilt("supervisor 7")
    play(table, 4)  # round 10's checkpoint: the table and the sums agree again
    assert table.tilt is None
    assert _newest_checkpoint_meters(table.ledger)[(0, "games.played")] == 9
    table.close()


def test_a_ram_clear_rolled_back_leaves_the_derived_meters_as_committed(tmp_path: Path) -> None:
    table = open_table(tmp_path / "l.db")
    play(table, 1)
    ledger = table.ledger
    before = ledger.derived.meters(ledger)

    class Failed(Exception):
        pass

    with pytest.raises(Failed), ledger.atomic():
        ledger.log("cash_in", "attendant", {"seat": 2, "amount": 700, "paytable_id": PAYTABLE})
        ledger.clear_meters()
        ledger.log("cash_in", "attendant", {"seat": 2, "amount": 300, "paytable_id": PAYTABLE})
        assert ledger.derived.meters(ledger) == {PAYTABLE: Counter({(0, "cash_in"): 300,
                                                                    (2, "cash_in"): 300})}
        raise Failed
    assert ledger.derived.meters(ledger) == before
    table.ram_clear("operator 1", confirmed=True)
    assert ledger.derived.meters(ledger) == {} and ledger.meters() == {}
    assert table.tilt is None
    table.close()
