"""``etg pin set``: store a PIN as a salted hash (SPEC §6): the operator's, the supervisor's,
the floorperson's, or a dealer's by ID (``--role dealer --dealer D0417``); ``etg pin
remove-dealer D0417`` takes a dealer's PIN away (the ID stays on record, null).

The PIN is typed twice with hidden input and never echoed, printed or logged;
only its PBKDF2 hash (:func:`etg.table.pin.hash_pin`) reaches ``cabinet.yaml``,
written by :func:`etg.config.cabinet_edit.set_cabinet_value`, which keeps the
file's comments and refuses to leave an invalid file behind. The kiosk reads
the hash again at every PIN entry, so a new PIN works without a restart.

A PIN that is set is replaced only with it, or with a higher role's PIN
(:data:`etg.table.pin.CHANGED_BY`), and every change is an entry of the ledger
(:class:`etg.table.records.PinChanged`: whose PIN, who changed it, when; never
the PIN nor its hash), in the same transaction as the file's edit: a ledger
that cannot be written (the kiosk holds it, it is missing) refuses the change
in one line (issue 25, finding 8). A first PIN asks for none, as no PIN can
prove anything yet; it is recorded in the ledger if there is one, else by the
ledger's first start, which records every PIN it finds new.

The two entries are asked for separately rather than with click's
``confirmation_prompt``, which asks again forever on a mismatch: a typing
slip ends the command with exit code 2, like any other invalid input, so a
script or a technician's terminal never hangs on it. ``--pin-stdin`` reads the
PINs from standard input, one a line, in the order the prompts would ask.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from etg.cli.program import ledger_or_cabinets
from etg.cli.writes import COMMAND_LINE, ask_pin, authorised, ledger_to_write
from etg.config.cabinet import Cabinet
from etg.config.cabinet_edit import CabinetKeyError, set_cabinet_value
from etg.config.loader import default_config_dir, load_cabinet
from etg.config.problems import ConfigError
from etg.core.floor import dealer_id_problem
from etg.table.pin import (
    Credential,
    PinRole,
    dealer_key,
    hash_pin,
    pin_fingerprint,
    pin_problem,
)
from etg.table.records import TECHNICIAN, PinChanged

if TYPE_CHECKING:
    from etg.ledger.store import Ledger

INVALID = 2
"""Exit code for invalid input: a PIN, a configuration file or an option (as etg.cli)."""


_CONFIG = click.option("--config", "config_dir",
                       type=click.Path(file_okay=False, path_type=Path),
                       help="Site configuration directory with cabinet.yaml (default: "
                            "ETG_CONFIG_DIR, else ~/.config/etg, /etc/etg on a cabinet).")


@click.group()
def pin() -> None:
    """Set the operator, supervisor, floorperson and dealer PINs (salted hashes, never in clear)."""


_DB = click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
                   help="The ledger that records the change (default: the cabinet's ledger; "
                        "etg paths shows it).")
_PIN_STDIN = click.option("--pin-stdin", is_flag=True,
                          help="Read the PINs from standard input, one a line, in the order the "
                               "prompts would ask for them (for scripts).")


@pin.command("set")
@_CONFIG
@_DB
@click.option("--role", type=click.Choice([role.value for role in PinRole]),
              default=PinRole.OPERATOR.value, show_default=True,
              help="operator: the operator menu; supervisor: voids, tilt acknowledgements "
                   "and jackpot validation; floorperson: jackpot validation; dealer: sign-in "
                   "at the table (with --dealer).")
@click.option("--dealer", "dealer_id", metavar="ID", help="The dealer's ID, e.g. D0417 "
                                                          "(with --role dealer).")
@_PIN_STDIN
def pin_set(config_dir: Path | None, db_path: Path | None, role: str, dealer_id: str | None,
            pin_stdin: bool) -> None:
    """Ask for a new PIN twice (4 to 8 digits, hidden) and store its hash in cabinet.yaml.

    A PIN that is set is replaced only with it or a higher role's PIN (the supervisor's
    for any; the operator's or floorperson's for a dealer's), and the change is recorded
    in the ledger: refused while the kiosk holds the ledger.
    """
    who = PinRole(role)
    if who is PinRole.DEALER and dealer_id is None:
        _fail("etg pin set: --role dealer needs the dealer's ID: --dealer ID (e.g. D0417); "
              "nothing was changed")
    if who is not PinRole.DEALER and dealer_id is not None:
        _fail(f"etg pin set: --dealer is for a dealer's PIN (--role dealer), not the {role}'s; "
              f"nothing was changed")
    if dealer_id is not None and (problem := dealer_id_problem(dealer_id)) is not None:
        _fail(f"PIN refused: {problem}; nothing was changed")
    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    cabinet = _cabinet(cabinet_file)  # refuse a broken cabinet before asking for anything
    name = who.value if dealer_id is None else f"dealer {dealer_id}"
    key = who.cabinet_key if dealer_id is None else dealer_key(dealer_id)
    current = dict(Credential(who, ((name, key),)).stored(cabinet)).get(name)
    db = ledger_or_cabinets(db_path, config_dir)
    said = f"{name[0].upper()}{name[1:]} PIN set in {cabinet_file} (salted PBKDF2-SHA256 hash)."
    if current is None and not db.exists():
        _write(cabinet_file, key, hash_pin(_new_pin(name, pin_stdin)))
        click.echo(said)
        click.echo(f"No ledger at {db} yet: its first start records this PIN.")
        return
    with ledger_to_write(db, "pin", config_dir) as store:
        by = TECHNICIAN
        if current is not None:
            by = authorised(store, Credential.to_change(who, dealer_id), cabinet,
                            ask_pin(f"Current {name} PIN (or a higher role's)", pin_stdin),
                            f"a change of the {name} PIN")
        stored = hash_pin(_new_pin(name, pin_stdin))
        _change(store, cabinet_file, key, current, stored,
                PinChanged(name, by, COMMAND_LINE, pin_fingerprint(stored)))
    click.echo(said)
    click.echo(f"Recorded in the ledger {db} (changed by {by}).")


@pin.command("remove-dealer")
@_CONFIG
@_DB
@click.argument("dealer_id", metavar="ID")
@_PIN_STDIN
def pin_remove_dealer(config_dir: Path | None, db_path: Path | None, dealer_id: str,
                      pin_stdin: bool) -> None:
    """Take a dealer's PIN away: the dealer can no longer sign in; the ID stays, null.

    Asks for the dealer's PIN or a higher role's (operator, floorperson, supervisor);
    recorded in the ledger.
    """
    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    cabinet = _cabinet(cabinet_file)
    current = cabinet.dealers.get(dealer_id)
    if current is None:
        _fail(f"{cabinet_file}: no dealer {dealer_id} with a PIN; nothing was changed")
    name = f"dealer {dealer_id}"
    with ledger_to_write(ledger_or_cabinets(db_path, config_dir), "pin", config_dir) as store:
        by = authorised(store, Credential.to_change(PinRole.DEALER, dealer_id), cabinet,
                        ask_pin(f"The {name}'s PIN or a higher role's", pin_stdin),
                        f"taking the {name} PIN away")
        _change(store, cabinet_file, dealer_key(dealer_id), current, None,
                PinChanged(name, by, COMMAND_LINE, None))
    click.echo(f"Dealer {dealer_id} removed from {cabinet_file}: the PIN no longer signs in "
               f"(recorded in the ledger, by {by}).")


def _cabinet(cabinet_file: Path) -> Cabinet:
    try:
        return load_cabinet(cabinet_file)
    except ConfigError as error:
        _fail(str(error))


def _new_pin(name: str, from_stdin: bool) -> str:
    """The new PIN, typed twice; one line and exit 2 for a bad PIN or two entries that differ."""
    first = ask_pin(f"New {name} PIN", from_stdin)
    problem = pin_problem(first)
    if problem is not None:
        _fail(f"PIN refused: {problem}; nothing was changed")
    if ask_pin(f"Repeat the {name} PIN", from_stdin) != first:
        _fail("PIN refused: the two entries differ; nothing was changed")
    return first


def _write(cabinet_file: Path, key: str, stored: str | None) -> None:
    try:
        set_cabinet_value(cabinet_file, key, stored)
    except (ConfigError, CabinetKeyError, ValueError, OSError) as error:
        _fail(f"{cabinet_file}: the PIN was not stored: {error}")


def _change(store: Ledger, cabinet_file: Path, key: str, old: str | None, new: str | None,
            record: PinChanged) -> None:
    """The file's edit and the ledger's entry together, or neither.

    The entry is written and the file edited in one transaction: a file that
    cannot be edited rolls the entry back, and a commit that fails puts the old
    hash back in the file, so no change is ever left unrecorded.
    """
    from etg.ledger.store import LedgerError

    edited = False
    try:
        with store.atomic():
            store.log(*record.entry())
            set_cabinet_value(cabinet_file, key, new)
            edited = True
    except (ConfigError, CabinetKeyError, ValueError, OSError, LedgerError,
            sqlite3.Error) as error:
        if edited:
            _write(cabinet_file, key, old)
        _fail(f"{cabinet_file}: the PIN was not changed: {error}")


def _fail(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(INVALID)
