"""``etg pin set``: store a PIN as a salted hash (SPEC §6): the operator's, the supervisor's,
the floorperson's, or a dealer's by ID (``--role dealer --dealer D0417``); ``etg pin
remove-dealer D0417`` takes a dealer's PIN away (the ID stays on record, null).

The PIN is typed twice with hidden input and never echoed, printed or logged;
only its PBKDF2 hash (:func:`etg.table.pin.hash_pin`) reaches ``cabinet.yaml``,
written by :func:`etg.config.cabinet_edit.set_cabinet_value`, which keeps the
file's comments and refuses to leave an invalid file behind. The kiosk reads
the hash again at every PIN entry, so a new PIN works without a restart.

The two entries are asked for separately rather than with click's
``confirmation_prompt``, which asks again forever on a mismatch: a typing
slip ends the command with exit code 2, like any other invalid input, so a
script or a technician's terminal never hangs on it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from etg.config.cabinet_edit import CabinetKeyError, set_cabinet_value
from etg.config.loader import default_config_dir, load_cabinet
from etg.config.problems import ConfigError
from etg.core.floor import dealer_id_problem
from etg.table.pin import PinRole, dealer_key, hash_pin, pin_problem

INVALID = 2
"""Exit code for invalid input: a PIN, a configuration file or an option (as etg.cli)."""


_CONFIG = click.option("--config", "config_dir",
                       type=click.Path(file_okay=False, path_type=Path),
                       help="Site configuration directory with cabinet.yaml (default: "
                            "ETG_CONFIG_DIR, else ~/.config/etg, /etc/etg on a cabinet).")


@click.group()
def pin() -> None:
    """Set the operator, supervisor, floorperson and dealer PINs (salted hashes, never in clear)."""


@pin.command("set")
@_CONFIG
@click.option("--role", type=click.Choice([role.value for role in PinRole]),
              default=PinRole.OPERATOR.value, show_default=True,
              help="operator: the operator menu; supervisor: voids, tilt acknowledgements "
                   "and jackpot validation; floorperson: jackpot validation; dealer: sign-in "
                   "at the table (with --dealer).")
@click.option("--dealer", "dealer_id", metavar="ID", help="The dealer's ID, e.g. D0417 "
                                                          "(with --role dealer).")
def pin_set(config_dir: Path | None, role: str, dealer_id: str | None) -> None:
    """Ask for a new PIN twice (4 to 8 digits, hidden) and store its hash in cabinet.yaml."""
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
    try:
        load_cabinet(cabinet_file)  # refuse a broken cabinet before asking for anything
    except ConfigError as error:
        _fail(str(error))
    name = who.value if dealer_id is None else f"dealer {dealer_id}"
    first = click.prompt(f"New {name} PIN", hide_input=True, default="",
                         show_default=False)
    problem = pin_problem(first)
    if problem is not None:
        _fail(f"PIN refused: {problem}; nothing was changed")
    second = click.prompt(f"Repeat the {name} PIN", hide_input=True, default="",
                          show_default=False)
    if second != first:
        _fail("PIN refused: the two entries differ; nothing was changed")
    key = who.cabinet_key if dealer_id is None else dealer_key(dealer_id)
    try:
        set_cabinet_value(cabinet_file, key, hash_pin(first))
    except (ConfigError, CabinetKeyError, ValueError, OSError) as error:
        _fail(f"{cabinet_file}: the PIN was not stored: {error}")
    click.echo(f"{name[0].upper()}{name[1:]} PIN set in {cabinet_file} "
               f"(salted PBKDF2-SHA256 hash).")


@pin.command("remove-dealer")
@_CONFIG
@click.argument("dealer_id", metavar="ID")
def pin_remove_dealer(config_dir: Path | None, dealer_id: str) -> None:
    """Take a dealer's PIN away: the dealer can no longer sign in; the ID stays, null."""
    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    try:
        cabinet = load_cabinet(cabinet_file)
    except ConfigError as error:
        _fail(str(error))
    if cabinet.dealers.get(dealer_id) is None:
        _fail(f"{cabinet_file}: no dealer {dealer_id} with a PIN; nothing was changed")
    try:
        set_cabinet_value(cabinet_file, dealer_key(dealer_id), None)
    except (ConfigError, CabinetKeyError, ValueError, OSError) as error:
        _fail(f"{cabinet_file}: the dealer was not removed: {error}")
    click.echo(f"Dealer {dealer_id} removed from {cabinet_file}: the PIN no longer signs in.")


def _fail(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(INVALID)
