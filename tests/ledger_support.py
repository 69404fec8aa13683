"""Helpers for the ledger tests: a table on a temporary ledger, played by the standard bots."""

from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from etg.config.loader import LoadedPaytable, load_paytable
from etg.config.places import shipped_config_dir
from etg.core.rng import SeededSource
from etg.core.state import TableState
from etg.ledger import chain
from etg.ledger.signing import CABINET, THROWAWAY, create_pair, keys_dir, private_path
from etg.ledger.store import Ledger, LedgerKind
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
    """A ledger in ``folder`` on which the standard bots played ``rounds``, shut down cleanly
    (played once a session for each number of rounds, then copied: see :func:`built_once`)."""

    def build(db: Path) -> None:
        table = open_table(db)
        play(table, rounds)
        table.close()

    return built_once(("played", rounds), build, folder / name)


def aged_ledger(folder: Path, days: tuple[tuple[str, int], ...] = (("2026-01-10", 6),
                                                                   ("2026-03-20", 100)),
                name: str = "ledger.db") -> Path:
    """A ledger in ``folder`` played on past days: ``rounds`` on each ``day``, each day a
    session shut down cleanly (so a checkpoint closes it), with the entries' times on that
    day; played once a session for each ``days`` (:func:`built_once`).

    The default leaves an archive "before" a date between the two days exactly the last
    100 rounds live, which ``etg ledger archive`` always keeps.
    """

    def build(db: Path) -> None:
        import pytest

        from etg.ledger import store as store_module

        with pytest.MonkeyPatch.context() as monkeypatch:
            for day, rounds in days:
                clock = iter(range(10_000_000))
                monkeypatch.setattr(store_module, "now", lambda day=day, clock=clock:
                                    f"{day}T12:00:00.{next(clock):06d}+00:00")
                monkeypatch.setattr("etg.table.controller.now", store_module.now)
                table = open_table(db)
                play(table, rounds)
                table.close()

    return built_once(("aged", days), build, folder / name)


SUPERVISOR_PIN = "1357"


def with_site_keys(config: Path) -> Path:
    """``config`` with the site configuration's keys copied into it: those the tests' played
    ledgers are signed with, which a command run with ``--config config`` looks for there
    (issue 25: --config carries the keys)."""
    if keys_dir().is_dir():
        shutil.copytree(keys_dir(), keys_dir(config), dirs_exist_ok=True)
    return config


def supervised_config(folder: Path) -> Path:
    """A writable copy of the shipped config/ in ``folder`` with :data:`SUPERVISOR_PIN` set, and
    the site configuration's keys (those the tests' ledgers are signed with)."""
    from etg.config.cabinet_edit import set_cabinet_value
    from etg.table.pin import hash_pin

    config = folder / "config"
    shutil.copytree(shipped_config_dir(), config)
    with_site_keys(config)
    set_cabinet_value(config / "cabinet.yaml", "supervisor_pin_hash", hash_pin(SUPERVISOR_PIN))
    return config


BUILDS: Path | None = None
"""Where :func:`built_once` keeps the ledgers it built: a folder of the test session, set by
tests/conftest.py (None: each ledger is built where it is asked for)."""

_BUILT: dict[tuple[object, ...], tuple[Path, set[str]]] = {}


def built_once(what: tuple[object, ...], build: Callable[[Path], None], db: Path) -> Path:
    """``db`` as ``build(db)`` makes it, built once a session for ``what`` and then copied.

    A test that needs a played ledger gets a copy of the file and its anchor: the bytes
    building it would make (the bots and the shoe are seeded) but for the ledger's ID and
    times, which are the first build's. The ledger key in effect is part of what is looked
    up, as a ledger is signed with it. A test that asks twice for the same ``what`` gets a
    second ledger built apart, never a copy of the same one; a ``db`` (or anchor) that is
    there already is built on, as ``build`` would.
    """
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
    anchor = chain.anchor_path(db)
    built = _BUILT.get((*what, _ledger_key()))
    if (BUILDS is None or db.exists() or anchor.exists()
            or (built is not None and test in built[1])):
        build(db)
        return db
    if built is None:
        source = BUILDS / str(len(_BUILT)) / "ledger.db"
        build(source)
        made = sorted(path.name for path in source.parent.iterdir())
        # closed: nothing in a -wal; the fault note is blank, so it need not be copied
        assert made == ["ledger.db", "ledger.db.anchor", "ledger.db.fault"], made
        built = _BUILT[(*what, _ledger_key())] = (source, set())
    built[1].add(test)
    db.parent.mkdir(parents=True, exist_ok=True)
    for copied, to in ((built[0], db), (chain.anchor_path(built[0]), anchor)):
        shutil.copyfile(copied, to)
        shutil.copymode(copied, to)
    return db


def _ledger_key() -> bytes | None:
    path = private_path(keys_dir(), THROWAWAY)
    return path.read_bytes() if path.exists() else None


def real_ledger(db: Path, config_dir: Path | None = None) -> Ledger:
    """A new real ledger, as ``etg ledger init`` makes one: the cabinet's key pair in the site
    configuration (made once there), the ledger opened with ``create``."""
    folder = keys_dir(config_dir)
    if not private_path(folder, CABINET).exists():
        create_pair(folder, CABINET)
    return Ledger.open(db, kind=LedgerKind.REAL, config_dir=config_dir, create=True)


def rebuilt_state(db: Path) -> TableState:
    """The state a restart would rebuild, read without writing anything."""
    ledger = Ledger.open_readonly(db)
    try:
        state = rebuild(ledger)
        assert state is not None
        return state
    finally:
        ledger.close()
