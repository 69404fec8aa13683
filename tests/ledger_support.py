"""Helpers for the ledger tests: a table on a temporary ledger, played by the standard bots."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from etg.config.loader import LoadedPaytable, load_paytable
from etg.config.places import shipped_config_dir
from etg.core.rng import SeededSource
from etg.core.state import TableState
from etg.ledger.store import Ledger
from etg.ledger.verify import rebuild
from etg.table.bots import RoundDriver, standard_bots
from etg.table.controller import Table

ROOT = Path(__file__).resolve().parent.parent
MD5 = shipped_config_dir() / "paytables" / "maryland-community-5.yaml"


_LOADED: dict[bytes, LoadedPaytable] = {}


def paytable_once(path: Path) -> LoadedPaytable:
    """:func:`load_paytable` of ``path``, parsed and validated once per content.

    What load_paytable makes of a file depends on its bytes alone (the path is
    carried along), and a paytable is a frozen value, so the tables and kiosks
    of a session share one per file content: a shipped paytable takes 20 ms to
    read, and hundreds of tests open a table. A file with other bytes (a test's
    edit) is read anew; one that is refused raises each time, as load_paytable does.
    """
    raw = Path(path).read_bytes()
    known = _LOADED.get(raw)
    if known is None:
        known = _LOADED[raw] = load_paytable(path)
    return dataclasses.replace(known, path=Path(path))


def paytable(path: Path = MD5) -> LoadedPaytable:
    return paytable_once(path)


def open_table(db: Path, loaded: LoadedPaytable | None = None, seed: int = 1) -> Table:
    return Table.open(Ledger.open(db), loaded or paytable(), SeededSource(seed))


def play(table: Table, rounds: int, seed: int = 1) -> None:
    driver = RoundDriver(standard_bots(table.state.paytable), SeededSource(seed), table.apply)
    for _ in range(rounds):
        driver.play_round(table.state)


def played_ledger(folder: Path, rounds: int = 3, name: str = "ledger.db") -> Path:
    """A ledger in ``folder`` on which the standard bots played ``rounds``, shut down cleanly."""
    db = folder / name
    table = open_table(db)
    play(table, rounds)
    table.close()
    return db


def rebuilt_state(db: Path) -> TableState:
    """The state a restart would rebuild, read without writing anything."""
    ledger = Ledger.open_readonly(db)
    try:
        state = rebuild(ledger)
        assert state is not None
        return state
    finally:
        ledger.close()
