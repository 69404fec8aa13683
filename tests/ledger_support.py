"""Helpers for the ledger tests: a table on a temporary ledger, played by the standard bots."""

from __future__ import annotations

from pathlib import Path

from etg.bots import RoundDriver, standard_bots
from etg.config.loader import LoadedPaytable, load_paytable
from etg.core.engine import apply
from etg.core.rng import SeededSource
from etg.core.state import TableState
from etg.ledger.codec import load_command
from etg.ledger.store import Ledger
from etg.table import Table

ROOT = Path(__file__).resolve().parent.parent
MD5 = ROOT / "config" / "paytables" / "maryland-community-5.yaml"


def paytable(path: Path = MD5) -> LoadedPaytable:
    return load_paytable(path)


def open_table(db: Path, loaded: LoadedPaytable | None = None, seed: int = 1) -> Table:
    return Table.open(Ledger.open(db), loaded or paytable(), SeededSource(seed))


def play(table: Table, rounds: int, seed: int = 1) -> None:
    driver = RoundDriver(standard_bots(table.state.paytable), SeededSource(seed), table.apply)
    for _ in range(rounds):
        driver.play_round(table.state)


def rebuilt_state(db: Path) -> TableState:
    """The state a restart would rebuild, read without writing anything."""
    ledger = Ledger.open(db)
    try:
        snapshot = ledger.last_snapshot()
        assert snapshot is not None
        seq, state = snapshot
        for row in ledger.journal_after(seq):
            state, _ = apply(state, load_command(row["command"]))
        return state
    finally:
        ledger.close()
