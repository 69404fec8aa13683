"""The ``etg`` command group and what every command shares: one line and exit 2 on a fault."""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from etg.config.cabinet import Cabinet
from etg.config.loader import LoadedPaytable, default_config_dir, load_cabinet, load_paytable
from etg.config.problems import ConfigError

if TYPE_CHECKING:
    pass

INVALID = 2



class _Program(click.Group):
    """The command group: a storage or decoding fault ends in one line and exit 2, not a trace."""

    def invoke(self, ctx: click.Context) -> Any:
        from etg.ledger.terms import LedgerError, describe

        try:
            return super().invoke(ctx)
        except LedgerError as error:
            _refuse(f"etg: {error}")
        except sqlite3.Error as error:
            _refuse(f"etg: {describe(error)}")
        except OSError as error:
            where = f" ({error.filename})" if error.filename else ""
            _refuse(f"etg: {error.strerror or error}{where}")
        except UnicodeDecodeError as error:
            _refuse(f"etg: a file could not be decoded: {error}")


@click.group(cls=_Program, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="etg-casino-war")
def main() -> None:
    """ETG: dealer-controlled electronic Casino War with the Bonus Spin Xtreme wheel."""


# --- helpers --------------------------------------------------------------------------------

def _load_or_exit(path: Path) -> LoadedPaytable:
    try:
        return load_paytable(path)
    except ConfigError as error:
        click.echo(str(error), err=True)
        sys.exit(INVALID)


def _active_paytable(config_dir: Path | None) -> LoadedPaytable:
    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    return _load_or_exit(_cabinet_or_exit(cabinet_file).paytable_path(cabinet_file))


def _logging(program: str, fault_file: bool = False) -> None:
    """The log file in the data directory; the kiosk also keeps warnings on stderr.

    Other commands print their own one line on a fault, so only a crash reaches
    their stderr through the log.
    """
    import logging

    from etg.cli import logs as logsetup
    from etg.config.places import data_dir

    try:
        logsetup.configure(data_dir(), program=program, fault_file=fault_file,
                           stderr_level=logging.WARNING if fault_file else logging.CRITICAL)
    except OSError as error:
        click.echo(f"etg {program}: no log file ({error.strerror or error}); going on", err=True)


def _refuse(message: str, code: int = INVALID) -> NoReturn:
    """One line on stderr and the exit code: never a traceback."""
    click.echo(message, err=True)
    sys.exit(code)


def _cabinet_or_exit(cabinet_file: Path) -> Cabinet:
    try:
        return load_cabinet(cabinet_file)
    except ConfigError as error:
        click.echo(str(error), err=True)
        sys.exit(INVALID)


@contextlib.contextmanager
def _writer_lock(db_path: Path) -> Iterator[None]:
    """Hold the ledger's single-writer lock for the command's life; one line if it is taken."""
    from etg.ledger.lock import LedgerInUse, WriterLock

    lock = WriterLock(db_path)
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
        lock.acquire()
    except LedgerInUse as error:
        _refuse(str(error))
    except OSError as error:
        _refuse(f"ledger {db_path}: cannot take its lock: {error.strerror or error}")
    try:
        yield
    finally:
        lock.release()
