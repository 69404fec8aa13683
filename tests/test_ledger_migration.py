"""A ledger written by the schema-2 program is carried into the chain with nothing lost.

The fixture (``tests/data/ledgers/schema-0002.db``, see its README) was written
by the program before the chained ledger. After the migration every meter,
every recalled round and the table's state are what they were, the old hand
ledger's chain head is sealed in the new chain, and play goes on.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from etg.cli import main
from etg.config.loader import LoadedPaytable, load_paytable
from etg.core.engine import apply
from etg.core.state import TableState
from etg.ledger.codec import load_command, load_state
from etg.ledger.recall import render_round
from etg.ledger.store import EntryKind, Ledger, LedgerKind
from etg.ledger.verify import rebuild, verify
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
    assert ledger.schema_version == 3
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
