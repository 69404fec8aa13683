"""The ``etg`` command line (SPEC §9): a thin layer over the library.

Each command parses its options, calls one library function and prints the
result; the rules, the math and the configuration checks live elsewhere.
Exit codes: 0 success, 2 invalid input (a configuration file or an option).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import sqlite3
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as Table_

from etg.cli_pin import pin
from etg.config.cabinet import Cabinet
from etg.config.loader import LoadedPaytable, default_config_dir, load_cabinet, load_paytable
from etg.config.problems import ConfigError
from etg.core.jackpot import JackpotRules
from etg.ledger.store import LedgerKind

if TYPE_CHECKING:
    from etg.core.paytable import Paytable
    from etg.ledger.store import Ledger
    from etg.table import Table

INVALID = 2


class _Program(click.Group):
    """The command group: a storage or decoding fault ends in one line and exit 2, not a trace."""

    def invoke(self, ctx: click.Context) -> Any:
        from etg.ledger.store import LedgerError, describe

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


# --- etg run --------------------------------------------------------------------------------

@main.command()
@click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Configuration directory with cabinet.yaml and paytables/ "
                   "(default: the shipped config/).")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Ledger file (default: the cabinet's database; with --demo, a demo ledger "
                   "for this paytable in the per-user data directory).")
@click.option("--windowed", is_flag=True, help="A window instead of full screen (development).")
@click.option("--demo", is_flag=True,
              help="Bot players and a bot dealer play unattended, on their own DEMO ledger.")
@click.option("--headless", is_flag=True,
              help="No screen: SDL's dummy video driver (tests, screenshots, servers).")
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
    """The kiosk: the table full screen on the cabinet's display (SPEC §6).

    The dealer console is on screen and on keys F1-F8 (OPEN, CLOSE, DEAL, WAR DEAL,
    SPIN, NEXT ROUND, SHUFFLE, VOID) and F11 (SIGN IN, or VALIDATE a jackpot); F9
    help, F10 operator menu. Demo play keeps its own ledger, never the cabinet's
    meters.
    """
    from etg.ledger.store import LedgerKind, default_path
    from etg.ui.app import NoDisplay, RunOptions
    from etg.ui.kiosk import run_kiosk

    if seed is not None and not demo:
        _refuse("etg run: --seed is for demo play only (--demo); real play draws from the "
                "CSPRNG")
    if headless and not demo:
        _refuse("etg run: --headless shows the table to nobody, so no dealer or player could "
                "act; add --demo (bots deal and play), or use etg autoplay")
    _logging("run", fault_file=True)
    config = config_dir or default_config_dir()
    cabinet_file = config / "cabinet.yaml"
    cabinet = _cabinet_or_exit(cabinet_file)
    loaded = _load_or_exit(cabinet.paytable_path(cabinet_file))
    if db_path is None:
        if demo:
            db_path = default_path(demo_of=f"{loaded.paytable.id}-{loaded.sha256[:8]}")
        elif cabinet.database is not None:
            db_path = cabinet_file.parent / cabinet.database
        else:
            db_path = default_path()
    options = RunOptions(windowed=windowed, headless=headless, demo=demo, rounds=rounds,
                         screenshots=screenshots, config_dir=config, frames=frames)
    kind = LedgerKind.DEMO if demo else LedgerKind.REAL
    with _writer_lock(db_path):
        loaded = _follow_switch(db_path, cabinet_file, loaded)
        table = _open_table(db_path, loaded, seed, kind, stop_on_tilt=False,
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
            run_kiosk(table, cabinet, cabinet_file, options)
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


# --- etg verify -------------------------------------------------------------------------

@main.command("verify")
@click.option("--bundle", type=click.Path(file_okay=False, path_type=Path),
              help="A onedir build to check (default: this program, when it is frozen).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def verify_software(bundle: Path | None, as_json: bool) -> None:
    """The software manifest's digest and version, and the files checked against it."""
    from etg.release.manifest import (
        MANIFEST_NAME,
        frozen_bundle,
        manifest_digest,
        manifest_version,
        verify_bundle,
    )

    bundle = bundle or frozen_bundle()
    if bundle is None:
        click.echo("etg verify: a source install has no software manifest (only a release "
                   "build does)")
        return
    manifest = bundle / MANIFEST_NAME
    problems = verify_bundle(bundle)
    digest = manifest_digest(manifest) if manifest.is_file() else None
    version = manifest_version(manifest) if manifest.is_file() else None
    if as_json:
        click.echo(json.dumps({"manifest": str(manifest), "sha256": digest, "version": version,
                               "problems": problems}, indent=2))
    else:
        click.echo(f"manifest {manifest}\nversion {version}\nsha256 {digest}")
        for line in problems:
            click.echo(f"{bundle}: {line}")
        click.echo("all files match" if not problems else f"{len(problems)} files differ")
    if problems:
        sys.exit(1)


# --- etg smoke-test -------------------------------------------------------------------------

@main.command("smoke-test")
def smoke_test() -> None:
    """Check an installed or frozen build: its files, assets, paytables, a ledger, a few frames.

    Nothing of the cabinet's is touched: the ledger and key it makes live in a
    temporary directory. Exit 0 when every check passes, 1 otherwise.
    """
    from etg.release.smoke import CheckResult, run_smoke_test

    def report(result: CheckResult) -> None:
        click.echo(f"{'ok  ' if result.ok else 'FAIL'}  {result.name}: {result.detail}")

    results = run_smoke_test(report)
    failed = [r.name for r in results if not r.ok]
    if failed:
        click.echo(f"etg smoke-test: {len(failed)} of {len(results)} checks failed "
                   f"({', '.join(failed)})")
        sys.exit(1)
    click.echo(f"etg smoke-test: all {len(results)} checks pass")


# --- etg pin ------------------------------------------------------------------------------

main.add_command(pin)


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
    cabinet with the default hand-pay threshold, by a bot floorperson.
    """
    from etg.bots import RoundDriver, standard_bots
    from etg.ledger.store import LedgerKind
    from etg.table import TableTilted

    _logging("autoplay")
    loaded = _load_or_exit(paytable_file) if paytable_file else _active_paytable(None)
    with _writer_lock(db_path):
        table = _open_table(db_path, loaded, seed, LedgerKind.TEST, jackpot_rules=JackpotRules())
        try:
            driver = RoundDriver(standard_bots(table.state.paytable), table.source,
                                 table.apply)
            while table.ledger.round_count() < rounds:
                driver.play_round(table.state)
        except TableTilted as tilt:
            table.close()
            _refuse(f"{db_path}: {tilt}", code=1)
        table.close()
        click.echo(f"{table.ledger.round_count()} rounds in {db_path}")


def _open_table(db_path: Path, loaded: LoadedPaytable, seed: int | None, kind: LedgerKind,
                stop_on_tilt: bool = True,
                on_fault: Callable[[str], None] | None = None,
                defer_file_check: bool = False,
                jackpot_rules: JackpotRules | None = None) -> Table:
    """The table on ``db_path``, a ledger of ``kind``; one line and exit 2 if it cannot be.

    ``on_fault`` shows a ledger that cannot be opened on the cabinet's screen first;
    ``defer_file_check`` leaves the whole-file check to run beside play (the kiosk).
    """
    from etg.core.rng import RandomSource, SeededSource, SystemSource
    from etg.ledger.store import Ledger, LedgerError
    from etg.table import Table

    try:
        ledger = Ledger.open(db_path, kind=kind,
                             rng="csprng" if seed is None else f"seeded {seed}")
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


def _fault_screen(cabinet: Cabinet, options: Any, message: str) -> None:
    from etg.ui.app import NoDisplay
    from etg.ui.kiosk import show_fault

    with contextlib.suppress(NoDisplay):
        show_fault(cabinet, options, message, frames=options.frames)


def _follow_switch(db_path: Path, cabinet_file: Path, loaded: LoadedPaytable) -> LoadedPaytable:
    """The paytable the ledger last switched to, with ``cabinet.yaml`` brought in line.

    A switch is committed to the ledger first, then written to ``cabinet.yaml``;
    a stop between the two leaves the file naming the old paytable. The ledger
    is the record: if the file it switched to is still there, unchanged, the
    cabinet file is completed to name it. Anything else is left for the
    start-up checks to tilt on.
    """
    import os

    from etg.config.cabinet_edit import set_cabinet_value
    from etg.ledger.store import Ledger, LedgerError

    if not db_path.exists():
        return loaded
    try:
        store = Ledger.open_readonly(db_path)
    except LedgerError:
        return loaded  # the writer's open reports it
    try:
        with store.reading():
            recorded, path = store.setting("paytable_sha256"), store.setting("paytable_path")
    finally:
        store.close()
    if recorded is None or path is None or recorded == loaded.sha256:
        return loaded
    try:
        switched = load_paytable(Path(path))
    except ConfigError:
        return loaded
    if switched.sha256 != recorded:
        return loaded
    relative = os.path.relpath(switched.path.resolve(), cabinet_file.parent.resolve())
    set_cabinet_value(cabinet_file, "active_paytable", relative)
    click.echo(f"{cabinet_file}: active_paytable completed to {relative}, as the ledger's last "
               f"paytable switch recorded", err=True)
    return switched


_KIND_RULES: dict[LedgerKind, str] = {
    LedgerKind.REAL: "the real kiosk plays only on a real ledger (demo play: --demo)",
    LedgerKind.DEMO: "--demo plays only on a demo ledger, never on a cabinet's real one",
    LedgerKind.TEST: "autoplay plays only on a test ledger of its own",
}


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


# --- etg ledger -----------------------------------------------------------------------------

@main.group()
def ledger() -> None:
    """Audit a ledger: verify, tilts, recall rounds, read meters, export (read-only).

    Audit commands open the file read-only: they work beside a running kiosk and
    never change the ledger. ``acknowledge`` is the one that writes, as the
    ledger's single writer, with the supervisor's PIN.
    """


def _db_option(f: Any) -> Any:
    return click.option("--db", "db_path", required=True,
                        type=click.Path(dir_okay=False, path_type=Path),
                        help="Ledger file.")(f)


@ledger.command("verify")
@_db_option
@click.option("--full", is_flag=True,
              help="Recompute every row from the first round (streaming, with progress), "
                   "not only from the newest checkpoint.")
@click.option("--events", is_flag=True,
              help="Also decode every round's events and make its summary again (slower).")
@click.option("--archive", "archives", multiple=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="An archive of this ledger (etg ledger archive): its links are walked as "
                   "one chain with the ledger's. May be given more than once.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def ledger_verify(db_path: Path, full: bool, events: bool, archives: tuple[Path, ...],
                  as_json: bool) -> None:
    """Integrity as at start-up; exit 0 clean, 1 problems or an active tilt, 2 cannot read."""
    from etg.ledger.archive import check_archives
    from etg.ledger.verify import active_tilts, verify

    store = _open_ledger(db_path)
    try:
        with _progress("verify", enabled=full and not as_json) as tick:
            problems = verify(store, full=full, progress=tick, events=events or None)
        if archives:
            with store.reading():
                problems += check_archives(store, list(archives))
        with store.reading():
            rounds = store.round_count()
            tilts = active_tilts(store)
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps({"db": str(db_path), "rounds": rounds, "full": full,
                               "clean": not problems and not tilts,
                               "problems": [{"check": p.check, "message": p.message}
                                            for p in problems],
                               "active_tilts": [_tilt_json(t) for t in tilts]}, indent=2))
    else:
        for p in problems:
            click.echo(f"{db_path}: {p.check}: {p.message}")
        for t in tilts:
            click.echo(f"{db_path}: active tilt {t['id']} since {t['at']}: "
                       f"{t['details']['check']}: {t['details']['message']}")
        verdict = ("clean" if not problems else f"{len(problems)} problems") + (
            f", {len(tilts)} active tilts" if tilts else "")
        click.echo(f"{db_path}: {rounds} rounds, {verdict}")
    if problems or tilts:
        sys.exit(1)


@ledger.command("archive")
@_db_option
@click.option("--before", required=True, metavar="DATE",
              help="Archive the rounds that ended before this date (YYYY-MM-DD, UTC) or ISO "
                   "time: up to the last checkpoint between rounds before it.")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The archive file to write (never overwritten).")
def ledger_archive(db_path: Path, before: str, out: Path) -> None:
    """Move old completed rounds into a verifiable archive file; meters and checkpoints stay.

    The archive and the ledger verify as one chain (etg ledger verify --full --archive FILE).
    Writes the ledger: refused while the kiosk or another writer holds it.
    """
    from etg.ledger.archive import archive
    from etg.ledger.store import Ledger, LedgerError

    _logging("archive")
    if before.isdigit():
        _refuse(f"etg ledger archive: --before {before!r} is not a date (YYYY-MM-DD) or ISO time")
    moment = str(_span(before, None).since)  # the start of that day (or that instant), UTC
    if not db_path.exists():
        _refuse(f"{db_path}: no such ledger")
    with _writer_lock(db_path):
        try:
            store = Ledger.open(db_path)
        except LedgerError as error:
            _refuse(str(error))
        try:
            done = archive(store, moment, out)
        except LedgerError as error:
            _refuse(str(error), code=1)
        finally:
            store.close()
    rounds = "no rounds" if done.rounds is None else f"rounds {done.rounds[0]} to {done.rounds[1]}"
    click.echo(f"{db_path}: entries {done.first} to {done.last} ({rounds}) moved to {out} "
               f"(sha256 {done.sha256})")


@ledger.command("tilts")
@_db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def ledger_tilts(db_path: Path, as_json: bool) -> None:
    """Active and past tilts: cause, time, and who cleared them."""
    from etg.ledger.verify import active_tilts

    store = _open_ledger(db_path)
    try:
        with store.reading():
            entries = store.last_events(("tilt", "tilt_cleared"), 1_000_000)
            active = {t["id"] for t in active_tilts(store)}
    finally:
        store.close()
    cleared_by: dict[int, dict[str, Any]] = {}
    pending: list[int] = []
    for entry in entries:
        if entry["kind"] == "tilt":
            pending.append(entry["id"])
            continue
        ids = entry["details"].get("tilts")
        for tilt_id in (pending if ids is None else ids):
            cleared_by.setdefault(int(tilt_id), entry)
        pending = [] if ids is None else [i for i in pending if i not in ids]
    rows = [{**_tilt_json(e), "active": e["id"] in active,
             "cleared_by": cleared_by[e["id"]]["actor"] if e["id"] in cleared_by else None,
             "cleared_at": cleared_by[e["id"]]["at"] if e["id"] in cleared_by else None}
            for e in entries if e["kind"] == "tilt"]
    if as_json:
        click.echo(json.dumps({"db": str(db_path), "tilts": rows}, indent=2))
        return
    if not rows:
        click.echo(f"{db_path}: no tilt has ever been recorded")
        return
    table = Table_(title=f"tilts · {db_path}")
    for column in ("id", "since", "cause", "state"):
        table.add_column(column, overflow="fold")
    for row in rows:
        state = "ACTIVE" if row["active"] else f"cleared by {row['cleared_by']} {row['cleared_at']}"
        table.add_row(str(row["id"]), row["at"], f"{row['check']}: {row['message']}", state)
    Console(width=160).print(table)


@ledger.command("acknowledge")
@_db_option
@click.option("--tilt", "tilt_id", type=int, required=True,
              help="The tilt's id (etg ledger tilts).")
@click.option("--config", "config_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Configuration directory with cabinet.yaml (default: the shipped config/).")
@click.option("--pin-stdin", is_flag=True, help="Read the supervisor PIN from standard input.")
def ledger_acknowledge(db_path: Path, tilt_id: int, config_dir: Path | None,
                       pin_stdin: bool) -> None:
    """Clear one tilt with the supervisor PIN; logged with who and what was cleared."""
    from etg.ledger.store import Ledger, LedgerError
    from etg.ledger.verify import active_tilts
    from etg.pin import PinRole, verify_pin

    _logging("acknowledge")
    cabinet_file = (config_dir or default_config_dir()) / "cabinet.yaml"
    stored = _cabinet_or_exit(cabinet_file).supervisor_pin_hash
    if stored is None:
        _refuse("no supervisor PIN is set: run etg pin set --role supervisor")
    if not db_path.exists():
        _refuse(f"{db_path}: no such ledger")
    with _writer_lock(db_path):
        try:
            store = Ledger.open(db_path)
        except LedgerError as error:
            _refuse(str(error))
        try:
            active = {t["id"]: t for t in active_tilts(store)}
            if tilt_id not in active:
                _refuse(f"{db_path}: tilt {tilt_id} is not active "
                        f"(active: {', '.join(map(str, active)) or 'none'})", code=1)
            pin = (sys.stdin.readline().strip() if pin_stdin else
                   click.prompt("Supervisor PIN", hide_input=True, default="",
                                show_default=False))
            role = PinRole.SUPERVISOR.value
            if not verify_pin(pin, stored):
                with store.atomic():
                    store.log("pin_failed", role, {"role": role, "where": "command line"})
                _refuse("wrong supervisor PIN; nothing was cleared", code=1)
            # The anchor follows the ledger only once no anchor tilt is left standing.
            store.anchor_paused = any(t["details"]["check"] == "anchor"
                                      for i, t in active.items() if i != tilt_id)
            with store.atomic():
                store.log("pin_ok", role, {"role": role, "where": "command line"})
                tilt = active[tilt_id]["details"]
                store.log("tilt_cleared", role, {"tilts": [tilt_id], "problems":
                                                 f"{tilt['check']}: {tilt['message']}"})
        finally:
            store.close()
    click.echo(f"{db_path}: tilt {tilt_id} cleared by the supervisor")


@ledger.command("recall")
@_db_option
@click.option("--last", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many of the latest rounds.")
def ledger_recall(db_path: Path, last: int) -> None:
    """Game recall: the last N rounds as they were played."""
    from etg.ledger.recall import render_round

    store = _open_ledger(db_path)
    try:
        with store.reading():
            records = store.rounds(last=last)
    finally:
        store.close()
    for record in records:
        click.echo(render_round(record))
        click.echo("")


@ledger.command("meters")
@_db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def ledger_meters(db_path: Path, as_json: bool) -> None:
    """The meters, per paytable and per seat (seat 0: the whole table)."""
    store = _open_ledger(db_path)
    try:
        meters = store.meters()
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps({pid: {str(seat): {name: value for (s, name), value
                                                  in sorted(values.items()) if s == seat}
                                     for seat in sorted({s for s, _ in values})}
                               for pid, values in sorted(meters.items())}, indent=2))
        return
    for pid, values in sorted(meters.items()):
        table = Table_(title=f"meters · {pid}")
        table.add_column("seat", justify="right")
        table.add_column("meter")
        table.add_column("value", justify="right")
        for (seat, name), value in sorted(values.items()):
            table.add_row(str(seat), name, f"{value:,}")
        Console().print(table)


@ledger.command("export")
@_db_option
@click.option("--format", "fmt", type=click.Choice(["csv", "jsonl", "json"]), required=True,
              help="csv: one row per settled wager and award; jsonl: every round record and "
                   "event-log entry, one per line, in chain order; json: the same as one "
                   "document.")
@click.option("--from", "start", metavar="ROUND|DATE",
              help="First round number, or first date (YYYY-MM-DD, UTC) or ISO time.")
@click.option("--to", "end", metavar="ROUND|DATE",
              help="Last round number, or last date (the whole day, UTC) or ISO time.")
def ledger_export(db_path: Path, fmt: str, start: str | None, end: str | None) -> None:
    """Export the hand ledger (jsonl and json: with the event log) for audit, to standard output.

    Read in chunks and written as it is read: memory stays flat at any ledger size.
    """
    from etg.ledger.export import csv_lines, jsonl_lines

    span = _span(start, end)
    store = _open_ledger(db_path)
    out = sys.stdout
    try:
        with store.reading(), _progress("export", enabled=True) as tick:
            trail = _counted(store.audit_trail(span), tick, store.round_count())
            if fmt == "csv":
                chunks = csv_lines(item for kind, item in trail if kind == "round")
            elif fmt == "jsonl":
                chunks = jsonl_lines(trail)
            else:
                chunks = _json_document(store, span, tick)
            for chunk in chunks:
                out.write(chunk)
    finally:
        store.close()
    out.flush()


def _json_document(store: Ledger, span: Any, tick: Any) -> Iterator[str]:
    """One JSON document: the rounds, then the event log, each streamed from the same snapshot."""
    from etg.ledger.export import json_chunks

    rounds = (item for kind, item in _counted(store.audit_trail(span), tick,
                                              store.round_count()) if kind == "round")
    events = (item for kind, item in store.audit_trail(span) if kind == "event")
    yield from json_chunks(rounds, events)


def _counted(trail: Iterator[tuple[str, dict[str, Any]]], tick: Any,
             total: int) -> Iterator[tuple[str, dict[str, Any]]]:
    done = 0
    for kind, item in trail:
        if kind == "round" and tick is not None:
            done += 1
            if done % 500 == 0:
                tick(done, total)
        yield kind, item


def _span(start: str | None, end: str | None) -> Any:
    """The ``--from`` / ``--to`` of an export as a :class:`etg.ledger.store.Span`."""
    from datetime import UTC, date, datetime, timedelta

    from etg.ledger.store import Span

    def bound(text: str | None, upper: bool) -> tuple[int | None, str | None]:
        if text is None:
            return None, None
        if text.isdigit():
            return int(text), None
        try:
            day = date.fromisoformat(text)
            moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
            return None, (moment + timedelta(days=1) if upper else moment).isoformat()
        except ValueError:
            pass
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            _refuse(f"etg ledger export: {'--to' if upper else '--from'} {text!r} is neither a "
                    f"round number nor a date (YYYY-MM-DD) or ISO time")
        moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
        moment = moment.astimezone(UTC)
        return None, (moment + timedelta(microseconds=1) if upper else moment).isoformat()

    first, since = bound(start, upper=False)
    last, before = bound(end, upper=True)
    return Span(first_round=first, last_round=last, since=since, before=before)


def _open_ledger(db_path: Path) -> Ledger:
    """The ledger opened read-only for an audit; one line and exit 2 if it cannot be read."""
    from etg.ledger.store import Ledger, LedgerError

    try:
        return Ledger.open_readonly(db_path)
    except LedgerError as error:
        _refuse(str(error))


def _tilt_json(entry: dict[str, Any]) -> dict[str, Any]:
    return {"id": entry["id"], "at": entry["at"], "check": entry["details"]["check"],
            "message": entry["details"]["message"]}


@contextlib.contextmanager
def _progress(what: str, enabled: bool) -> Iterator[Any]:
    """A progress bar on a terminal's stderr, or nothing."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}"),
               TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


# --- etg paytable ---------------------------------------------------------------------------

@main.group()
def paytable() -> None:
    """Validate paytables and show their exact figures."""


@paytable.command("check")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print SPEC §9's JSON instead of tables.")
def paytable_check(files: tuple[Path, ...], as_json: bool) -> None:
    """Validate FILE... and print each one's exact figures; exit 0 valid, 2 invalid."""
    from etg.math.check_rows import side_wager_rows
    from etg.math.exact import (
        bonus_rtp_warnings,
        check_json,
        figure_rows,
        main_game_figures,
    )

    valid: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []
    console = Console()
    for path in files:
        try:
            loaded = load_paytable(path)
        except ConfigError as error:
            invalid.append({"file": str(path), "errors": [str(p) for p in error.problems]})
            if not as_json:
                click.echo(str(error), err=True)
            continue
        sheet = check_json(loaded.paytable, str(path))
        warnings = bonus_rtp_warnings(loaded.paytable)
        sheet["warnings"] = warnings
        valid.append(sheet)
        if not as_json:
            table = Table_(title=f"{path}  ·  {loaded.paytable.id}  ·  {loaded.paytable.name}")
            for column in ("figure", "exact", "percent"):
                table.add_column(column, justify="left" if column == "figure" else "right")
            for row in figure_rows(main_game_figures(loaded.paytable)):
                table.add_row(*row)
            for row in side_wager_rows(loaded.paytable):
                table.add_row(*row)
            console.print(table)
            console.print(f"sha256 {loaded.sha256}")
            for warning in warnings:
                click.echo(f"{path}: warning: {warning}", err=True)
    if as_json:
        out: dict[str, Any] = {"paytables": valid}
        if invalid:
            out["invalid"] = invalid
        click.echo(json.dumps(out, indent=2))
    if invalid:
        sys.exit(INVALID)


# --- etg parsheet --------------------------------------------------------------------------

def _mix_option(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """``--mix P``: a share between 0 and 1, as a decimal or a fraction, kept exact."""
    from fractions import Fraction

    if value is None:
        return None
    try:
        share = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"{value!r} is not a number such as 0.5 or 1/2") from None
    if not 0 <= share <= 1:
        raise click.BadParameter(f"{value} is not between 0 and 1")
    return share


@main.command("parsheet")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The page to write (PATH.html); with several files, PATH-ID.html for each.")
@click.option("--json", "as_json", is_flag=True,
              help="Also print the same figures as JSON on standard output.")
@click.option("--mix", callback=_mix_option, default=None, metavar="P",
              help="Share of $1 Bonus Spin wagers, 0 to 1 (0.5 or 1/2); default 1/2.")
@click.option("--sim-rounds", type=click.IntRange(min=0), default=200_000, show_default=True,
              help="Rounds of the simulation check; 0 skips it.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the simulation.")
def parsheet(files: tuple[Path, ...], out: Path, as_json: bool, mix: Any, sim_rounds: int,
             seed: int) -> None:
    """Write the regulator's par sheet of each FILE as a standalone HTML page (SPEC §8)."""
    from etg.math.parsheet import output_path
    from etg.math.parsheet.figures import par_sheet, sheet_json
    from etg.math.parsheet.html import render

    sheets: list[dict[str, Any]] = []
    for path in files:
        loaded = _load_or_exit(path)
        sheet = par_sheet(loaded, mix=mix, sim_rounds=sim_rounds, seed=seed, file=str(path))
        target = output_path(out, loaded.paytable.id, len(files) > 1)
        target.write_text(render(sheet), encoding="utf-8")
        sheets.append({"html": str(target), **sheet_json(sheet)})
        if not as_json:
            click.echo(f"{path}: par sheet written to {target}")
    if as_json:
        click.echo(json.dumps({"parsheets": sheets}, indent=2))


# --- etg sim --------------------------------------------------------------------------------

@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--rounds", type=click.IntRange(min=1), required=True, help="Rounds to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the simulation.")
@click.option("--mode", type=click.Choice(["engine", "vector"]), default="engine",
              show_default=True,
              help="engine: two bot seats through the real state machine; "
                   "vector: NumPy model of the whole game (every seat, every wager, live meters).")
@click.option("--mix", type=click.FloatRange(0, 1), default=None,
              help="vector mode: share of $1 Bonus Spin wagers (default 0.5).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def sim(file: Path, rounds: int, seed: int, mode: str, mix: float | None,
        as_json: bool) -> None:
    """Monte Carlo of FILE beside its exact figures, each with its 99 % interval."""
    loaded = _load_or_exit(file)
    if as_json or not sys.stderr.isatty():
        rows, seconds = _simulate(loaded.paytable, mode, rounds, seed, mix, None)
    else:
        columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}"),
                   TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(f"{mode} sim", total=rounds)
            rows, seconds = _simulate(loaded.paytable, mode, rounds, seed, mix,
                                      lambda done: bar.update(task, completed=done))
    if as_json:
        click.echo(json.dumps({
            "file": str(file), "id": loaded.paytable.id, "mode": mode, "rounds": rounds,
            "seed": seed, "seconds": round(seconds, 3),
            "figures": {row.key: {"label": row.label, "exact": row.exact, "measured": row.mean,
                                  "low": row.low, "high": row.high, "within_99": row.agrees}
                        for row in rows},
        }, indent=2))
        return
    table = Table_(title=f"{file}  ·  {mode} mode  ·  {rounds:,} rounds  ·  seed {seed}  ·  "
                        f"{seconds:.1f} s")
    for column in ("figure", "exact", "measured", "99 % interval", ""):
        table.add_column(column, justify="left" if column == "figure" else "right")
    for row in rows:
        table.add_row(row.label, "—" if row.exact is None else f"{row.exact:.6g}",
                      f"{row.mean:.6g}", f"{row.low:.6g} … {row.high:.6g}",
                      "" if row.agrees is None else "✓" if row.agrees else "outside")
    Console().print(table)


def _simulate(paytable: Paytable, mode: str, rounds: int, seed: int, mix: float | None,
              progress: Callable[[int], None] | None) -> tuple[list[SimRow], float]:
    """Rows of ``etg sim``: each measured figure with its exact value where it has one."""
    from fractions import Fraction

    from etg.math.engine_sim import agrees, simulate_engine_full
    from etg.math.sim_figures import exact_figures, figure_label
    from etg.math.sim_setup import standard_setup
    from etg.math.vector_full import simulate_full

    setup = standard_setup(paytable, None if mix is None else Fraction(mix).limit_denominator())
    # The same table and the same figures in both modes: the real state machine or NumPy.
    play = simulate_engine_full if mode == "engine" else simulate_full
    full = play(paytable, rounds, seed, setup, progress=progress)
    known = {key: float(value) for key, value in exact_figures(paytable, setup).items()}
    order = list(known) + sorted(set(full.figures) - set(known))
    rows = []
    for key in order:
        e = full.figures.get(key)
        if e is not None:
            value = known.get(key)
            rows.append(SimRow(key, figure_label(key), value, e.mean, e.low, e.high,
                               None if value is None else agrees(e, value)))
    return rows, full.seconds


@dataclass(frozen=True)
class SimRow:
    """One figure of ``etg sim``: measured mean and 99 % interval, exact value if any."""

    key: str
    label: str
    exact: float | None
    mean: float
    low: float
    high: float
    agrees: bool | None


# --- etg bench ------------------------------------------------------------------------------

BENCH_KEYS: dict[str, Any] = {  # SPEC §11: every key, null until a benchmark measures it
    "frame_ms": {"p50": None, "p99": None, "phases": None, "displays": None},
    "commit_ms": {"p50": None, "p99": None},
    "commit_rate_ratio": None,
    "parsheet_s": None,
    "sim_rounds_per_s": None,
    "sim_full_rounds_per_s": None,
    "engine_rounds_per_s": None,
    "engine_workload": None,
    "cold_start_s": None,
    "cold_start_source_s": None,
    "ledger_bytes_per_round": None,
    "disk_bytes_per_round": None,
    "disk_bytes_per_round_each_alone": None,
    "startup_s_empty": None,
    "startup_s_1m": None,
    "verify_full_rounds_per_s": None,
    "export_peak_rss_mb": None,
    "rss_mb_100": None,
    "rss_mb_10000": None,
}


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (SPEC §11 keys).")
def bench(as_json: bool) -> None:
    """Measure the performance figures of SPEC §11 (null: not measurable yet)."""
    folder = Path(__file__).resolve().parent.parent / "benchmarks"
    modules = sorted(folder.glob("bench_*.py"))
    if not modules:
        raise click.ClickException(f"no benchmarks in {folder}: run from a source checkout")
    figures = json.loads(json.dumps(BENCH_KEYS))
    for path in modules:
        figures.update(_load_module(path).measure(default_config_dir()))
    if as_json:
        click.echo(json.dumps(figures))
        return
    table = Table_(title="etg bench")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in figures.items():
        table.add_row(key, "—" if value is None else json.dumps(value))
    Console().print(table)


def _load_module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"etg_bench_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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

    from etg import logsetup
    from etg.places import data_dir

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
