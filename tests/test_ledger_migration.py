"""Ledgers written by earlier programs are carried forward with nothing lost.

The fixtures (``tests/data/ledgers/``, see their README) were written by the
program before the chained ledger (schema 2) and by the program before the
compact format (schema 3). After the migration every meter, every recalled
round (as the record, as recall shows it, as the export writes it) and the
table's state are what they were; the older chain's head is sealed in the new
chain; ``verify --full`` is clean, in one process or cut into parts, and still
finds an edit of the older entries; audits refuse the old file rather than
convert it, the kiosk converts it once, and play goes on where it stopped.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.config.loader import LoadedPaytable, load_paytable
from etg.config.places import shipped_config_dir
from etg.core.engine import apply
from etg.core.rng import SeededSource
from etg.core.state import Phase, TableState
from etg.ledger import chain
from etg.ledger.codec import load_command, load_state
from etg.ledger.recall import render_round
from etg.ledger.store import EntryKind, Ledger, LedgerKind
from etg.ledger.verify import rebuild, verify
from etg.table.bots import RoundDriver, busiest_bots
from etg.table.controller import Table
from tests.ledger_support import open_table, play

FIXTURE = Path(__file__).parent / "data" / "ledgers" / "schema-0002.db"


def _old(db: Path) -> tuple[dict[str, Counter[tuple[int, str]]], list[dict[str, object]],
                            TableState, str]:
    """What the old file holds, read with plain SQLite: meters, records, state, chain head."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    meters: dict[str, Counter[tuple[int, str]]] = {}
    for pid, seat, name, value in conn.execute("SELECT paytable_id, seat, name, value "
                                               "FROM meters"):
        meters.setdefault(pid, Counter())[(seat, name)] = value
    records = [json.loads(r[0]) for r in conn.execute("SELECT record FROM hand_ledger "
                                                       "ORDER BY round")]
    seq, text = conn.execute("SELECT seq, state FROM snapshots ORDER BY seq DESC LIMIT 1"
                             ).fetchone()
    state = load_state(text)
    for (command,) in conn.execute("SELECT command FROM journal WHERE seq > ? ORDER BY seq",
                                   [seq]):
        state, _ = apply(state, load_command(json.loads(command)))
    head = conn.execute("SELECT hash FROM hand_ledger ORDER BY round DESC LIMIT 1").fetchone()[0]
    conn.close()
    return meters, records, state, head


def test_the_schema_2_fixture_migrates_and_keeps_every_meter_round_and_state(
        tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    shutil.copy(FIXTURE, db)
    meters, records, state, head = _old(db)
    assert len(records) == 8 and any(r["outcome"] == "voided" for r in records)

    ledger = Ledger.open(db, kind=LedgerKind.TEST)
    assert ledger.schema_version == 5
    assert ledger.meters() == meters
    assert ledger.rounds() == records  # every round as it was recorded, events included
    assert [render_round(r) for r in ledger.rounds(last=10)] == [render_round(r) for r in records]
    assert rebuild(ledger) == state
    [seal] = [e.data() for e in ledger.entries(kind=EntryKind.SCHEMA)
              if "sealed_hand_ledger" in e.data()]
    assert seal["sealed_hand_ledger"] == {"head": head, "rounds": 8}
    assert verify(ledger, full=True) == [] and verify(ledger) == []
    ledger.close()

    table = open_table(db, _approved_paytable(db, tmp_path))
    assert table.tilt is None and table.state == state
    play(table, 3)
    table.close()
    result = CliRunner().invoke(main, ["ledger", "verify", "--full", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("11 rounds, clean")


def _approved_paytable(db: Path, folder: Path) -> LoadedPaytable:
    """The paytable file this ledger approved, as the cabinet's site copy still holds it.

    A new program never overwrites a site's paytables (see ``seed_site_config``), so a
    shipped file edited since the fixture was written is not what this cabinet plays.
    """
    ledger = Ledger.open_readonly(db)
    try:
        sha256 = ledger.setting("paytable_sha256")
        recorded = ledger.paytable_source(sha256) if sha256 else None
    finally:
        ledger.close()
    assert recorded is not None
    path = folder / f"{recorded['id']}.yaml"
    path.write_text(recorded["source"], encoding="utf-8")
    return load_paytable(path)


def test_an_edited_round_of_the_old_chain_is_still_found(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    shutil.copy(FIXTURE, db)
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER hand_ledger_no_update")
    conn.execute("UPDATE hand_ledger SET record = replace(record, '\"credits_after\":[', "
                 "'\"credits_after\":[1') WHERE round = 3")
    conn.commit()
    conn.close()
    ledger = Ledger.open(db)  # converted as found: the old chain's own check still holds
    problems = verify(ledger, full=True)
    ledger.close()
    assert any("round 3 does not match the hash the older hand ledger gave it" in p.message
               for p in problems), problems


# --- schema 3 (the verbose chain) to the compact format (issue 11) ------------------------------

FIXTURE_3 = Path(__file__).parent / "data" / "ledgers" / "schema-0003.db"
MD7 = shipped_config_dir() / "paytables" / "maryland-community-7.yaml"


@pytest.fixture
def schema_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the schema-3 fixture with its anchor, its key the cabinet's key."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    key = chain.default_key_path()
    key.parent.mkdir(parents=True)
    shutil.copy(FIXTURE_3.with_suffix(".key"), key)
    db = tmp_path / "ledger.db"
    shutil.copy(FIXTURE_3, db)
    shutil.copy(FIXTURE_3.with_name(FIXTURE_3.name + ".anchor"), chain.anchor_path(db))
    return db


def _old_3(db: Path) -> tuple[dict[str, Counter[tuple[int, str]]], list[dict[str, object]],
                              TableState, int, str]:
    """What the verbose file holds, read with plain SQLite and JSON: meters, each round's
    record with the events of its commands, the state (newest checkpoint + the commands
    after it), and the chain's head."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    meters: dict[str, Counter[tuple[int, str]]] = {}
    for pid, seat, name, value in conn.execute("SELECT paytable_id, seat, name, value "
                                               "FROM meters"):
        meters.setdefault(pid, Counter())[(seat, name)] = value
    records = []
    for seq, body in conn.execute("SELECT seq, body FROM entries WHERE kind = 'round' "
                                  "ORDER BY seq").fetchall():
        record = json.loads(body)
        commands = conn.execute("SELECT body FROM entries WHERE kind = 'command' AND round = ? "
                                "AND seq >= ? AND seq < ? ORDER BY seq",
                                [record["round"], record["opened_seq"], seq]).fetchall()
        record["events"] = [e for (c,) in commands for e in json.loads(c)["events"]
                            if e["type"] not in ("CreditsIn", "CreditsOut")]
        records.append(record)
    seq, body = conn.execute("SELECT seq, body FROM entries WHERE kind = 'checkpoint' "
                             "ORDER BY seq DESC LIMIT 1").fetchone()
    state = load_state(json.dumps(json.loads(body)["state"]))
    for (command,) in conn.execute("SELECT body FROM entries WHERE kind = 'command' AND seq > ? "
                                   "ORDER BY seq", [seq]):
        state, _ = apply(state, load_command(json.loads(command)["command"]))
    head_seq, head = conn.execute("SELECT seq, hex(hash) FROM entries ORDER BY seq DESC LIMIT 1"
                                  ).fetchone()
    conn.close()
    return meters, records, state, head_seq, head.lower()


def test_the_schema_3_fixture_becomes_compact_and_keeps_every_meter_round_and_state(
        schema_3: Path) -> None:
    db = schema_3
    meters, records, state, head_seq, head = _old_3(db)
    assert len(records) == 8 and any(r["outcome"] == "voided" for r in records)
    assert state.phase is Phase.BETTING and any(state.round.staked)  # a round was left open

    refused = CliRunner().invoke(main, ["ledger", "verify", "--db", str(db)])
    assert refused.exit_code == 2 and "older program" in refused.output  # audits never convert
    ledger = Ledger.open(db, kind=LedgerKind.TEST)
    assert ledger.schema_version == 5
    assert ledger.meters() == meters
    assert ledger.rounds() == records  # every round as it was recorded, events included
    assert [render_round(r) for r in ledger.rounds(last=len(records))] == [
        render_round(r) for r in records]  # every round recalls as it did
    assert rebuild(ledger) == state
    # The verbose chain is sealed as it was: the first compact entry names its head and links
    # to it; its entries keep their bytes and their hashes.
    first = next(ledger.entries(after=head_seq))
    assert first.format == 1 and first.tag == "seal"
    assert first.data() == {"sealed_chain": {"format": "verbose", "seq": head_seq, "head": head,
                                             "rounds": 8}}
    assert ledger.entry_hash(head_seq) == bytes.fromhex(head)
    assert all(e.format is None for e in ledger.entries(until=head_seq))
    assert verify(ledger, full=True) == [] and verify(ledger, full=True, events=True) == []
    assert verify(ledger) == []
    head_after = ledger.head
    ledger.close()

    again = Ledger.open(db)  # converted once: opening it again changes nothing
    assert again.head == head_after and again.schema_version == 5
    again.close()

    table = Table.open(Ledger.open(db), _approved_paytable(db, db.parent), SeededSource(5))
    assert table.tilt is None and table.state == state
    driver = RoundDriver(busiest_bots(table.state.paytable), SeededSource(6), table.apply,
                         repeat=True)
    for _ in range(2):  # the round left open, then a whole new one
        driver.play_round(table.state)
    resumed, new = table.ledger.rounds(last=2)
    assert table.ledger.rounds()[:len(records)] == records  # the old rounds, still as they were
    grown = table.ledger.meters()
    table.close()
    # The resumed round's record holds the wagers placed before the conversion.
    assert resumed["round"] == 9 and new["round"] == 10
    assert {"type": "WagerPlaced", "seat": 3, "spot": 3, "kind": "initial", "amount": 1000,
            "total": 1000, "credits": state.credits[2]} in resumed["events"]
    # Every meter carried on from where the old program left it (verify adds them all up).
    assert all(grown[pid][key] >= value for pid, counter in meters.items()
               for key, value in counter.items())
    result = CliRunner().invoke(main, ["ledger", "verify", "--full", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("10 rounds, clean")
    recalled = CliRunner().invoke(main, ["ledger", "recall", "--db", str(db), "--last", "10"])
    assert recalled.exit_code == 0
    assert all(render_round(r) in recalled.output for r in records)
    exported = CliRunner().invoke(main, ["ledger", "export", "--db", str(db), "--format", "jsonl",
                                         "--to", str(len(records))])
    assert exported.exit_code == 0, exported.output
    lines = [json.loads(line) for line in exported.output.splitlines()]
    assert [{k: v for k, v in line.items() if k != "type"} for line in lines
            if line["type"] == "round"] == records


def test_the_converted_ledger_verifies_the_same_in_worker_processes(
        schema_3: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``verify --full`` cut into parts: the verbose entries and their older hashes in the
    first, the compact ones after; an edit of either is found as one process finds it."""
    from etg.ledger import verify as verify_module
    from etg.table import controller as table_module

    monkeypatch.setattr(table_module, "CHECKPOINT_EVERY", 1)
    table = Table.open(Ledger.open(schema_3), _approved_paytable(schema_3, schema_3.parent),
                       SeededSource(5))
    driver = RoundDriver(busiest_bots(table.state.paytable), SeededSource(6), table.apply,
                         repeat=True)
    for _ in range(6):
        driver.play_round(table.state)
    table.close()
    monkeypatch.setattr(verify_module, "PARALLEL_ROWS", 1)
    monkeypatch.setattr(verify_module, "workers", lambda: 2)
    store = Ledger.open_readonly(schema_3)
    assert len(verify_module._Checks(store, full=True, events=False).parts) > 2
    assert verify(store, full=True) == [] and verify(store, full=True, events=True) == []
    store.close()
    conn = sqlite3.connect(schema_3)
    conn.execute("DROP TRIGGER entries_no_update")
    last = conn.execute("SELECT max(seq) FROM entries").fetchone()[0]
    conn.execute("UPDATE entries SET actor = 'someone' WHERE seq IN (40, ?)", [last - 3])
    conn.commit()
    conn.close()
    store = Ledger.open_readonly(schema_3)
    found = [p.message.split(" (")[0] for p in verify(store, full=True) if p.check == "chain"]
    store.close()
    assert found == ["entries row 40", f"entries row {last - 3}"]


def test_an_edited_verbose_entry_is_still_found_after_the_conversion(schema_3: Path) -> None:
    Ledger.open(schema_3).close()
    conn = sqlite3.connect(schema_3)
    conn.execute("DROP TRIGGER entries_no_update")
    before = conn.execute("SELECT body FROM entries WHERE seq = 40").fetchone()[0]
    conn.execute("UPDATE entries SET body = replace(body, '\"amount\":100', '\"amount\":900') "
                 "WHERE seq = 40 AND format IS NULL")  # a Tie Wager of $1 becomes $9
    assert conn.execute("SELECT body FROM entries WHERE seq = 40").fetchone()[0] != before
    conn.commit()
    conn.close()
    result = CliRunner().invoke(main, ["ledger", "verify", "--full", "--db", str(schema_3)])
    assert result.exit_code == 1
    assert "entries row 40" in result.output and "does not match its hash" in result.output
