"""The ``etg`` command group and what every command shares: one line and exit 2 on a fault."""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from etg.config.cabinet import Cabinet
from etg.config.loader import LoadedPaytable, default_config_dir, load_cabinet, load_paytable
from etg.config.problems import ConfigError

if TYPE_CHECKING:
    from etg.ledger.freshness import Keeper

INVALID = 2


class _OneLine(click.ClickException):
    """A usage error as one line on stderr, exit 2: click's own takes four lines."""

    exit_code = INVALID

    def show(self, file: Any = None) -> None:
        click.echo(self.format_message(), err=True)


def _one_line(error: click.UsageError) -> _OneLine:
    where = error.ctx.command_path if error.ctx is not None else "etg"
    return _OneLine(f"{where}: {error.format_message()} (see {where} --help)")


class _Program(click.Group):
    """The command group: bad usage, a storage or a decoding fault ends in one line and exit 2,
    never a trace or a screen of usage."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise  # the help asked for by giving nothing
        except click.UsageError as error:  # the group's own options: etg --bogus
            raise _one_line(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        from etg.ledger.terms import LedgerError, describe

        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as error:  # a command's options and arguments
            raise _one_line(error) from None
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
@click.option("-q", "--quiet", is_flag=True,
              help="Print only results and faults: no progress or notes.")
@click.option("-v", "--verbose", is_flag=True,
              help="Also print the log's notes (INFO and up) on standard error.")
@click.pass_context
def main(ctx: click.Context, quiet: bool, verbose: bool) -> None:
    """ETG: dealer-controlled electronic Casino War with the Bonus Spin Xtreme wheel."""
    if quiet and verbose:
        _refuse("etg: --quiet and --verbose cannot both be given")
    ctx.obj = Loudness(quiet=quiet, verbose=verbose)


@dataclass(frozen=True)
class Loudness:
    """``--quiet`` and ``--verbose``: how much a command says beyond its result."""

    quiet: bool = False
    verbose: bool = False


def loudness() -> Loudness:
    """The ``--quiet`` / ``--verbose`` of the command running now (defaults outside one)."""
    ctx = click.get_current_context(silent=True)
    found = ctx.find_object(Loudness) if ctx is not None else None
    return found or Loudness()


def say(message: str) -> None:
    """A note on stderr about what was done, beside the result; silent with ``--quiet``."""
    if not loudness().quiet:
        click.echo(message, err=True)


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

    quiet_level = logging.WARNING if fault_file else logging.CRITICAL
    try:
        logsetup.configure(data_dir(), program=program, fault_file=fault_file,
                           stderr_level=logging.INFO if loudness().verbose else quiet_level)
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


def _ledger_folder_or_exit(db_path: Path) -> None:
    """A typing slip in ``--db`` never makes folders: the ledger's must be there."""
    if not db_path.parent.is_dir():
        _refuse(f"{db_path}: no folder {db_path.parent} to hold the ledger")


@contextlib.contextmanager
def _writer_lock(db_path: Path) -> Iterator[None]:
    """Hold the ledger's single-writer lock for the command's life; one line if it is taken."""
    from etg.ledger.lock import LedgerInUse, WriterLock

    _ledger_folder_or_exit(db_path)
    lock = WriterLock(db_path)
    try:
        lock.acquire()
    except LedgerInUse as error:
        _refuse(str(error))
    except OSError as error:
        _refuse(f"ledger {db_path}: cannot take its lock: {error.strerror or error}")
    try:
        yield
    finally:
        lock.release()


def cabinet_ledger(cabinet_file: Path, cabinet: Cabinet) -> Path:
    """The cabinet's ledger: ``database`` of ``cabinet.yaml`` (relative to it), else the
    per-user data directory's ``ledger.db``."""
    from etg.ledger.ledger_file import default_path

    if cabinet.database is not None:
        return cabinet_file.parent / cabinet.database
    return default_path()


def freshness_keeper(config_dir: Path | None) -> Keeper:
    """The freshness source ``cabinet.yaml`` of ``config_dir`` (default: the site's) names,
    keeping its anchor copies in that directory (issue 25: outside the data directory)."""
    from etg.ledger.freshness import keeper

    folder = config_dir or default_config_dir()
    return keeper(_cabinet_or_exit(folder / "cabinet.yaml").freshness, folder)


def ledger_or_cabinets(db_path: Path | None, config_dir: Path | None) -> Path:
    """``--db`` if given, else the cabinet's ledger (``cabinet.yaml`` of ``config_dir``)."""
    if db_path is not None:
        return db_path
    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    return cabinet_ledger(cabinet_file, _cabinet_or_exit(cabinet_file))
