"""``etg pin set``: store the operator's or supervisor's PIN as a salted hash (SPEC §6).

The PIN is typed twice with hidden input and never echoed, printed or logged;
only its PBKDF2 hash (:func:`etg.pin.hash_pin`) reaches ``cabinet.yaml``,
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
from etg.pin import PinRole, hash_pin, pin_problem

INVALID = 2
"""Exit code for invalid input: a PIN, a configuration file or an option (as etg.cli)."""


@click.group()
def pin() -> None:
    """Set the operator and supervisor PINs (stored as salted hashes, never in clear)."""


@pin.command("set")
@click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Configuration directory with cabinet.yaml (default: the shipped config/).")
@click.option("--role", type=click.Choice([role.value for role in PinRole]),
              default=PinRole.OPERATOR.value, show_default=True,
              help="operator: the operator menu; supervisor: voids.")
def pin_set(config_dir: Path | None, role: str) -> None:
    """Ask for a new PIN twice (4 to 8 digits, hidden) and store its hash in cabinet.yaml."""
    who = PinRole(role)
    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    try:
        load_cabinet(cabinet_file)  # refuse a broken cabinet before asking for anything
    except ConfigError as error:
        _fail(str(error))
    first = click.prompt(f"New {who.value} PIN", hide_input=True, default="",
                         show_default=False)
    problem = pin_problem(first)
    if problem is not None:
        _fail(f"PIN refused: {problem}; nothing was changed")
    second = click.prompt(f"Repeat the {who.value} PIN", hide_input=True, default="",
                          show_default=False)
    if second != first:
        _fail("PIN refused: the two entries differ; nothing was changed")
    try:
        set_cabinet_value(cabinet_file, who.cabinet_key, hash_pin(first))
    except (ConfigError, CabinetKeyError, ValueError, OSError) as error:
        _fail(f"{cabinet_file}: the PIN was not stored: {error}")
    click.echo(f"{who.value.capitalize()} PIN set in {cabinet_file} (salted PBKDF2-SHA256 hash).")


def _fail(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(INVALID)
