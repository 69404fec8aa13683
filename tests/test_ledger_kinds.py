"""Real money is sealed from test tools; an unclean stop and a half-done paytable switch say so.

- A ledger knows whether it is real, demo or test; the real kiosk, ``--demo``
  and autoplay each refuse the others' ledgers in one line.
- ``--seed`` exists only for demo play; real play draws from the CSPRNG, and
  every power-up records the source.
- A stop without a shutdown entry is recorded at the next power-up.
- A paytable switch is committed, then written to ``cabinet.yaml``: a stop
  between the two is completed at the next start, not tilted.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.core.rng import SeededSource, SystemSource
from etg.ledger.store import Ledger, LedgerKind
from etg.table.controller import Table
from tests.ledger_support import MD5, open_table, paytable, play, real_ledger


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def test_a_ledger_records_its_kind_and_each_power_up_its_draws(tmp_path: Path) -> None:
    ledger = Ledger.open(tmp_path / "demo.db", kind=LedgerKind.DEMO, rng="seeded 3")
    assert ledger.kind is LedgerKind.DEMO
    genesis = ledger.genesis()
    assert genesis is not None and genesis["kind"] == "demo" and genesis["rng"] == "seeded 3"
    table = Table.open(ledger, paytable(), SeededSource(3))
    assert table.ledger.event_log("power_up")[-1]["details"]["rng"] == "seeded"
    table.close()
    real = Table.open(real_ledger(tmp_path / "real.db"), paytable())
    assert real.ledger.event_log("power_up")[-1]["details"]["rng"] == "csprng"
    real.close()


def test_real_play_refuses_a_seeded_source(tmp_path: Path) -> None:
    ledger = real_ledger(tmp_path / "real.db")
    with pytest.raises(ValueError, match="real play draws only from the CSPRNG"):
        Table.open(ledger, paytable(), SeededSource(1))
    ledger.close()
    ledger = Ledger.open(tmp_path / "real.db", kind=LedgerKind.REAL)
    Table.open(ledger, paytable(), SystemSource()).close()


def test_seed_is_refused_without_demo(tmp_path: Path) -> None:
    code, output = _run("run", "--headless", "--seed", "7", "--db", str(tmp_path / "l.db"))
    assert code == 2
    assert output.strip() == ("etg run: --seed is for demo play only (--demo); real play draws "
                              "from the CSPRNG")
    assert not (tmp_path / "l.db").exists()


def test_the_real_kiosk_refuses_a_test_ledger_and_demo_refuses_a_real_one(
        tmp_path: Path) -> None:
    test_db = tmp_path / "test.db"
    open_table(test_db).close()
    code, output = _run("run", "--rounds", "1", "--db", str(test_db))
    assert code == 2
    assert output.strip() == (f"{test_db}: a test ledger; the real kiosk plays only on a real "
                              f"ledger (demo play: --demo)")
    real_db = tmp_path / "real.db"
    Table.open(real_ledger(real_db), paytable()).close()
    before = real_db.read_bytes()
    code, output = _run("run", "--headless", "--demo", "--rounds", "1", "--db", str(real_db))
    assert code == 2
    assert output.strip() == (f"{real_db}: a real ledger; --demo plays only on a demo ledger, "
                              f"never on a cabinet's real one")
    code, output = _run("autoplay", "--rounds", "1", "--db", str(real_db),
                        "--paytable", str(MD5))
    assert code == 2 and "autoplay plays only on a test ledger" in output
    assert real_db.read_bytes() == before


def test_a_stop_without_shutdown_is_recorded_as_an_interruption(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    table = open_table(db)
    play(table, 1)
    table.ledger.close()  # power lost: no shutdown entry
    table = open_table(db)
    assert table.ledger.event_log("power_up")[-1]["details"]["after_interruption"] is True
    table.close()  # a clean shutdown
    table = open_table(db)
    assert table.ledger.event_log("power_up")[-1]["details"]["after_interruption"] is False
    table.close()


def test_a_pin_change_is_on_record_as_a_fingerprint_never_the_pin(tmp_path: Path) -> None:
    from etg.table.pin import hash_pin

    table = open_table(tmp_path / "l.db")
    table.note_pins({"operator": None, "supervisor": None})
    assert table.ledger.event_log("pin_change") == []  # never set: nothing to record
    stored = hash_pin("4826", salt=b"0123456789abcdef")
    table.note_pins({"operator": stored, "supervisor": None})
    table.note_pins({"operator": stored, "supervisor": None})  # unchanged: recorded once
    [change] = table.ledger.event_log("pin_change")
    assert change["details"] == {"role": "operator", "where": "cabinet.yaml",
                                 "fingerprint": hashlib.sha256(stored.encode()).hexdigest()[:16]}
    assert change["actor"] == "technician"  # found at start: no PIN proved anyone
    assert "4826" not in str(change) and stored not in str(change)
    table.note_pins({"operator": None, "supervisor": None})  # cleared: on record too
    assert table.ledger.event_log("pin_change")[-1]["details"]["fingerprint"] is None
    table.close()
