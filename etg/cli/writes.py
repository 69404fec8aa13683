"""What the commands that write the ledger with a PIN share: the ledger held as its single
writer, and a PIN asked for, checked and put on record (``etg pin set``, ``etg pin
remove-dealer``, ``etg ledger archive``).

A PIN is typed at a hidden prompt, or read from standard input with ``--pin-stdin``
(one a line) for scripts: never an option, which would show it on the process list.
Every attempt goes on the ledger's event log (``pin_ok`` or ``pin_failed``, ``where``:
``command line``), as the kiosk's PIN pad puts its own; never a digit of the PIN.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final

import click

from etg.cli.program import _logging, _refuse, _writer_lock, freshness_keeper
from etg.config.cabinet import Cabinet
from etg.table.pin import Credential

if TYPE_CHECKING:
    from etg.ledger.store import Ledger

WRONG_PIN = 1
"""Exit code for a wrong PIN (as ``etg ledger acknowledge``): the input was well formed."""

COMMAND_LINE: Final = "command line"


@contextlib.contextmanager
def ledger_to_write(db_path: Path, program: str, config_dir: Path | None) -> Iterator[Ledger]:
    """The ledger at ``db_path`` opened as its one writer for the command's life, keeping its
    head's record outside the data directory (the freshness of ``config_dir``'s cabinet.yaml).

    One line and exit 2 if it is not there (never a new ledger), is held by the
    kiosk or another writer, or cannot be opened. While an anchor tilt stands the
    anchor stays where it was, as ``etg ledger acknowledge`` leaves it.
    """
    from etg.ledger.store import Ledger, LedgerError
    from etg.ledger.verify import active_tilts

    if not db_path.exists():
        _refuse(f"{db_path}: no such ledger")
    _logging(program)
    keeper = freshness_keeper(config_dir)
    with _writer_lock(db_path):
        try:
            store = Ledger.open(db_path, config_dir=config_dir)
            store.use_freshness(keeper)
        except LedgerError as error:
            _refuse(str(error))
        try:
            store.anchor_paused = any(t["details"]["check"] == "anchor"
                                      for t in active_tilts(store))
            yield store
        finally:
            store.close()


def ask_pin(label: str, from_stdin: bool) -> str:
    """A PIN typed at a hidden prompt, or the next line of standard input."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return str(click.prompt(label, hide_input=True, default="", show_default=False))


def authorised(store: Ledger, credential: Credential, cabinet: Cabinet, pin: str,
               purpose: str) -> str:
    """Who ``pin`` proves among ``credential``'s PINs, with the attempt on record.

    A wrong PIN is recorded as ``pin_failed`` and ends the command: one line,
    exit 1, nothing changed.
    """
    from etg.ledger.store import LedgerError

    who = credential.match(cabinet, pin)
    role = credential.guard.value
    kind, actor = ("pin_ok", who) if who is not None else ("pin_failed", role)
    try:
        with store.atomic():
            store.log(kind, actor, {"role": role, "where": COMMAND_LINE, "for": purpose})
    except (LedgerError, sqlite3.Error, OSError) as error:
        _refuse(f"{store.path}: the ledger cannot record the PIN: {error}; nothing was changed")
    if who is None:
        names = " or ".join(name for name, _ in credential.keys)
        _refuse(f"wrong PIN (the {names} PIN is asked for {purpose}); nothing was changed",
                code=WRONG_PIN)
    return who
