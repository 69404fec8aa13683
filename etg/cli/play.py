"""``etg run`` (the kiosk) and ``etg autoplay``: the table on a ledger, through the controller."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from etg.config.cabinet import Cabinet
from etg.config.loader import LoadedPaytable, default_config_dir, load_paytable
from etg.config.problems import ConfigError
from etg.core.jackpot import JackpotRules
from etg.ledger.store import LedgerKind

if TYPE_CHECKING:
    from etg.table.controller import Table

from etg.cli.program import (
    INVALID,
    _active_paytable,
    _cabinet_or_exit,
    _ledger_folder_or_exit,
    _load_or_exit,
    _logging,
    _refuse,
    _writer_lock,
    cabinet_ledger,
    freshness_keeper,
    main,
    say,
)

# --- etg run --------------------------------------------------------------------------------

@main.command()
@click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Site configuration directory with cabinet.yaml and paytables/ (default: "
                   "ETG_CONFIG_DIR, else ~/.config/etg, /etc/etg on a cabinet; the first start "
                   "fills it with the shipped defaults).")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Ledger file (default: cabinet.yaml's database, else ledger.db in the data "
                   "directory, ETG_DATA_DIR or ~/.local/share/etg; with --demo, a demo ledger "
                   "for this paytable there).")
@click.option("--windowed", is_flag=True, help="A window instead of full screen (development).")
@click.option("--demo", is_flag=True,
              help="Bot players and a bot dealer play unattended, on their own DEMO ledger.")
@click.option("--headless", is_flag=True,
              help="No screen: SDL's dummy video driver (screenshots, tests); only with "
                   "--demo.")
@click.option("--rounds", type=click.IntRange(min=1), default=None,
              help="Exit after this many rounds are finished (default: run until closed).")
@click.option("--screenshots", "screenshots", type=click.Path(file_okay=False, path_type=Path),
              help="Save a PNG of each phase of each round in this directory.")
@click.option("--seed", type=int, default=None,
              help="Seed the draws of a demo (only with --demo); real play always draws "
                   "from the CSPRNG.")
@click.option("--frames", type=click.IntRange(min=1), default=None, hidden=True,
              help="Exit after this many frames (cold-start measurement).")
def run(config_dir: Path | None, db_path: Path | None, windowed: bool, demo: bool,
        headless: bool, rounds: int | None, screenshots: Path | None, seed: int | None,
        frames: int | None) -> None:
    """The kiosk: the table full screen on the cabinet's display.

    The dealer's keypad: F1-F8 (OPEN, CLOSE, DEAL, WAR DEAL, SPIN, NEXT ROUND, SHUFFLE,
    VOID), F11 (SIGN IN, or VALIDATE a jackpot), F12 the dealer panel; F9 help; the
    cabinet's attendant key (F10) the operator menu. Demo play keeps its own ledger,
    never the cabinet's meters. SIGTERM (systemd's stop) shuts it down as closing it
    does, at the end of the frame, the ledger's shutdown written: exit 0.
    """
    from etg import stop

    # First, before SDL starts: SDL leaves a SIGTERM handler it did not install alone.
    with stop.on_sigterm("etg run"):
        _run(config_dir, db_path, windowed, demo, headless, rounds, screenshots, seed, frames)


def _run(config_dir: Path | None, db_path: Path | None, windowed: bool, demo: bool,
         headless: bool, rounds: int | None, screenshots: Path | None, seed: int | None,
         frames: int | None) -> None:
    from etg import stop
    from etg.ui import heap

    heap.settle()  # before anything large is made (etg.ui.heap)
    from etg.ledger.ledger_file import default_path
    from etg.ledger.store import LedgerKind
    from etg.ui.display import NoDisplay, probe_display
    from etg.ui.kiosk import run_kiosk
    from etg.ui.options import RunOptions

    if seed is not None and not demo:
        _refuse("etg run: --seed is for demo play only (--demo); real play draws from the "
                "CSPRNG")
    if headless and not demo:
        _refuse("etg run: --headless shows the table to nobody, so no dealer or player could "
                "act; add --demo (bots deal and play), or use etg autoplay")
    try:
        probe_display(RunOptions(headless=headless))
    except NoDisplay as error:
        _refuse(f"etg run: no display to open a window on ({error}); "
                f"use --headless --demo to run without one")
    config = config_dir or default_config_dir()
    cabinet_file = config / "cabinet.yaml"
    cabinet = _cabinet_or_exit(cabinet_file)
    options = RunOptions(windowed=windowed, headless=headless, demo=demo, rounds=rounds,
                         screenshots=screenshots, config_dir=config, frames=frames)
    loaded = _playable_or_fault(cabinet, cabinet_file, options)
    if db_path is None:
        db_path = (default_path(demo_of=f"{loaded.paytable.id}-{loaded.sha256[:8]}") if demo
                   else cabinet_ledger(cabinet_file, cabinet))
        if demo:
            _make_data_dir(db_path)  # a place of the program's own; a --db's folder must exist
    if not demo and not db_path.exists():  # only etg ledger init makes a real ledger
        _no_real_ledger(db_path, config, None if headless else
                        lambda message: _fault_screen(cabinet, options, message))
    _ledger_folder_or_exit(db_path)
    _logging("run", fault_file=True)  # once the input is known good: bad input writes nothing
    kind = LedgerKind.DEMO if demo else LedgerKind.REAL
    with _writer_lock(db_path):
        table = _open_table(db_path, loaded, seed, kind, stop_on_tilt=False, config_dir=config,
                            on_fault=None if headless else
                            lambda message: _fault_screen(cabinet, options, message),
                            defer_file_check=True,
                            jackpot_rules=JackpotRules(cabinet.hand_pay_threshold_cents))
        clean = False
        table.min_free_bytes = cabinet.ledger_min_free_mb * 1024 * 1024
        table.note_pins({"operator": cabinet.operator_pin_hash,
                         "supervisor": cabinet.supervisor_pin_hash,
                         "floorperson": cabinet.floorperson_pin_hash,
                         **{f"dealer {d}": h for d, h in cabinet.dealers.items()}})
        check_software(table)
        try:
            app = run_kiosk(table, cabinet, cabinet_file, options)
            clean = True
        except NoDisplay as error:
            clean = True
            click.echo(f"etg run: no display to open a window on ({error}); "
                       f"use --headless --demo to run without one", err=True)
            sys.exit(INVALID)
        finally:
            if clean:
                table.close()
            else:
                table.ledger.close()  # a crash is not a shutdown: the next start says so
    if headless:
        _headless_report(app.rounds_finished, db_path, table)
    if stop.requested():  # the last word: why it ended
        click.echo("etg run: SIGTERM: the table shut down, its ledger closed", err=True)


def _headless_report(rounds: int, db_path: Path, table: Table) -> None:
    """What a headless run did, and a tilt it stopped on: nobody saw its screen."""
    say(f"etg run: {rounds} rounds played on {db_path}")
    if table.tilt is not None:
        # No one can acknowledge a tilt on a screen nobody sees: stop and say so (issue 26).
        _refuse(f"etg run: TILT: {table.tilt.message}; play stopped: a supervisor "
                f"acknowledges it (etg ledger tilts --db {db_path}, then etg ledger "
                f"acknowledge)")


def _no_real_ledger(db_path: Path, config: Path,
                    on_fault: Callable[[str], None] | None) -> NoReturn:
    """A real ledger that is not there: one line (on the cabinet's screen too), exit 2, and
    nothing made: an unmounted data partition or a deleted file never becomes a clean new
    ledger (issue 25, finding 3)."""
    from etg.ledger.store import missing_real

    message = missing_real(db_path, config)
    click.echo(message, err=True)
    if on_fault is not None:
        on_fault(message)
    sys.exit(INVALID)


def _make_data_dir(db_path: Path) -> None:
    """Create the folder of a default ledger (the program's data directory)."""
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        _refuse(f"{db_path.parent}: cannot make the data folder: {error.strerror or error}")


# --- etg autoplay ---------------------------------------------------------------------------

@main.command()
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Ledger file; created if missing, resumed if not.")
@click.option("--rounds", type=click.IntRange(min=1), required=True,
              help="Rounds the ledger must hold when done (counting earlier runs).")
@click.option("--seed", type=int, default=None, help="Seed the draws; default: the CSPRNG.")
@click.option("--paytable", "paytable_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Paytable file (default: the cabinet's active paytable).")
def autoplay(db_path: Path, rounds: int, seed: int | None, paytable_file: Path | None) -> None:
    """Play headless with bots through the real controller and ledger until it holds N rounds.

    Killed at any instant and run again, it resumes the interrupted round with
    the same cards and wagers and finishes the N. Jackpots are validated as on a
    cabinet with the default hand-pay threshold, by a bot floorperson. SIGTERM
    stops it once the command in hand is committed, the ledger closed cleanly:
    exit 143, to be run again.
    """
    from etg import stop
    from etg.core.refusal import Refused
    from etg.ledger.store import LedgerKind
    from etg.table.bots import RoundDriver, standard_bots
    from etg.table.controller import TableTilted

    with stop.on_sigterm("etg autoplay"):
        loaded = _load_or_exit(paytable_file) if paytable_file else _active_paytable(None)
        _ledger_folder_or_exit(db_path)
        _logging("autoplay")
        with _writer_lock(db_path):
            table = _open_table(db_path, loaded, seed, LedgerKind.TEST,
                                jackpot_rules=JackpotRules())

            def apply(state: Any, command: Any) -> Any:
                stop.check()  # the last command is committed: a safe place to stop
                return table.apply(state, command)

            try:
                driver = RoundDriver(standard_bots(table.state.paytable), table.source, apply)
                while table.ledger.round_count() < rounds:
                    driver.play_round(table.state)
            except TableTilted as tilt:
                table.close()
                _refuse(f"{db_path}: {tilt}", code=1)
            except stop.Stopped:
                table.close()
                click.echo(f"{table.ledger.round_count()} rounds in {db_path}", err=True)
                raise
            except Refused as refusal:  # e.g. a table minimum above every bot's credits
                table.close()
                _refuse(f"{loaded.path}: the bots cannot play this paytable: {refusal}")
            table.close()
            click.echo(f"{table.ledger.round_count()} rounds in {db_path}")


def _open_table(db_path: Path, loaded: LoadedPaytable, seed: int | None, kind: LedgerKind,
                stop_on_tilt: bool = True, config_dir: Path | None = None,
                on_fault: Callable[[str], None] | None = None,
                defer_file_check: bool = False,
                jackpot_rules: JackpotRules | None = None) -> Table:
    """The table on ``db_path``, a ledger of ``kind``; one line and exit 2 if it cannot be.

    ``config_dir``: the site configuration (default: the site's), where the ledger's keys are
    and whose ``freshness`` keeps the ledger's head; ``on_fault`` shows a ledger that cannot
    be opened on the cabinet's screen first; ``defer_file_check`` leaves the whole-file check
    to run beside play (the kiosk).
    """
    from etg.core.rng import RandomSource, SeededSource, SystemSource
    from etg.ledger.store import Ledger, LedgerError
    from etg.table.controller import Table

    keeper = freshness_keeper(config_dir)
    try:
        ledger = Ledger.open(db_path, kind=kind, config_dir=config_dir,
                             rng="csprng" if seed is None else f"seeded {seed}")
        ledger.use_freshness(keeper)
    except LedgerError as error:
        click.echo(str(error), err=True)
        if on_fault is not None:
            on_fault(str(error))
        sys.exit(INVALID)
    if ledger.kind is not kind:
        ledger.close()
        _refuse(f"{db_path}: a {ledger.kind.value if ledger.kind else 'unknown'} ledger; "
                + _KIND_RULES[kind])
    # A seeded run that resumes draws from a new stream: the draws already made are recorded.
    source: RandomSource = (SystemSource() if seed is None
                            else SeededSource(seed * 1_000_003 + ledger.round_count()))
    try:
        table = Table.open(ledger, loaded, source, defer_file_check=defer_file_check,
                           jackpot_rules=jackpot_rules)
    except (LedgerError, ValueError) as error:
        ledger.close()
        click.echo(str(error), err=True)
        if on_fault is not None:
            on_fault(str(error))
        sys.exit(INVALID)
    if table.tilt is not None and stop_on_tilt:
        click.echo(f"{db_path}: TILT: {table.tilt.message}", err=True)
        click.echo("play stops until a supervisor acknowledges it "
                   "(etg ledger acknowledge)", err=True)
        table.close()
        sys.exit(1)
    return table


def check_software(table: Table, bundle: Path | None = None) -> None:
    """A frozen program checks its own files against its manifest; a difference tilts."""
    from etg.ledger.store import Problem
    from etg.release.manifest import frozen_bundle, verify_bundle

    bundle = bundle or frozen_bundle()
    if bundle is not None:
        table.tilt_for([Problem("software", line) for line in verify_bundle(bundle)])


def _playable_or_fault(cabinet: Cabinet, cabinet_file: Path, options: Any) -> LoadedPaytable:
    """The cabinet's active paytable, valid and with every wager's return within bounds.

    Anything wrong with it (issue 26: a file that cannot be read or played, a
    wager returning 100 % or more or outside the cabinet's ``return_band``) is
    said in one line naming the file, shown full screen on a cabinet with a
    display, and the kiosk exits 2: it never starts, so never crashes, on it.
    """
    from etg.math.returns import return_violations

    band = None if cabinet.return_band is None else cabinet.return_band.shares()
    try:
        return load_paytable(cabinet.paytable_path(cabinet_file),
                             lambda paytable: return_violations(paytable, band))
    except ConfigError as error:
        click.echo(str(error), err=True)
        if not options.headless:
            _fault_screen(cabinet, options, str(error))
        sys.exit(INVALID)


def _fault_screen(cabinet: Cabinet, options: Any, message: str) -> None:
    from etg.ui.display import NoDisplay
    from etg.ui.kiosk import show_fault

    with contextlib.suppress(NoDisplay):
        show_fault(cabinet, options, message, frames=options.frames)


_KIND_RULES: dict[LedgerKind, str] = {
    LedgerKind.REAL: "the real kiosk plays only on a real ledger (demo play: --demo)",
    LedgerKind.DEMO: "--demo plays only on a demo ledger, never on a cabinet's real one",
    LedgerKind.TEST: "autoplay plays only on a test ledger of its own",
}




