"""``etg paytable check``, ``etg parsheet`` and ``etg sim``: exact figures and simulators."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as Table_

from etg.config.loader import load_paytable
from etg.config.problems import ConfigError

if TYPE_CHECKING:
    from etg.core.paytable import Paytable

from etg.cli.program import INVALID, _cabinet_or_exit, _load_or_exit, _refuse, main

# --- etg paytable ---------------------------------------------------------------------------

@main.group()
def paytable() -> None:
    """The paytables: those on this cabinet and the active one, switching, checking files."""


@paytable.command("check")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help="Print the figures as JSON instead of tables.")
@click.option("--cabinet", "cabinet_file", type=click.Path(dir_okay=False, path_type=Path),
              help="The cabinet.yaml whose return_band every wager must lie in (default: the "
                   "site configuration's, if there is one).")
def paytable_check(files: tuple[Path, ...], as_json: bool, cabinet_file: Path | None) -> None:
    """Validate FILE... and print each one's exact figures; exit 0 valid, 2 invalid.

    A paytable is invalid if any wager returns 100 % or more at the player's best
    strategy, or outside the cabinet's return_band.
    """
    from etg.math.check_rows import side_wager_rows
    from etg.math.exact import (
        bonus_rtp_warnings,
        check_json,
        figure_rows,
        main_game_figures,
    )
    from etg.math.returns import return_violations

    band = _return_band(cabinet_file)
    valid: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []
    console = Console()
    for path in files:
        try:
            loaded = load_paytable(path, lambda p: return_violations(p, band))
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


def _return_band(cabinet_file: Path | None) -> tuple[Fraction, Fraction] | None:
    """The return band of ``cabinet_file``, or of the site's cabinet.yaml if it has one."""
    from etg.config.places import site_config_dir

    if cabinet_file is None:
        cabinet_file = site_config_dir() / "cabinet.yaml"
        if not cabinet_file.is_file():
            return None
    band = _cabinet_or_exit(cabinet_file).return_band
    return None if band is None else band.shares()


# --- etg parsheet --------------------------------------------------------------------------

def _mix_option(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """``--mix P``: a share between 0 and 1, as a decimal or a fraction, kept exact."""
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
@click.option("--engine-rounds", type=click.IntRange(min=0), default=0, show_default=True,
              help="Rounds of the engine cross-check through the real state machine; 0 skips it.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Processes of the engine cross-check (default: every core).")
def parsheet(files: tuple[Path, ...], out: Path, as_json: bool, mix: Any, sim_rounds: int,
             seed: int, engine_rounds: int, jobs: int | None) -> None:
    """Write the regulator's par sheet of each FILE as a standalone HTML page."""
    from etg.math.engine_sim import cores
    from etg.math.parsheet import output_path
    from etg.math.parsheet.figures import par_sheet, sheet_json
    from etg.math.parsheet.html import render

    if not out.parent.is_dir():  # refused before minutes of figures, not after
        _refuse(f"{out}: no folder {out.parent} to write the par sheet in")
    sheets: list[dict[str, Any]] = []
    for path in files:
        loaded = _load_or_exit(path)
        sheet = par_sheet(loaded, mix=mix, sim_rounds=sim_rounds, seed=seed, file=str(path),
                          engine_rounds=engine_rounds, jobs=jobs or cores())
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
              help="engine: through the real state machine; vector: NumPy. Both play the "
                   "same table (every seat, every wager, live meters) for the same figures.")
@click.option("--engine", "engine_flag", is_flag=True, help="Same as --mode engine.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="engine mode: worker processes, each a table with a seed stream of its own "
                   "(default: every core); the same seed and jobs give the same figures.")
@click.option("--mix", type=click.FloatRange(0, 1), default=None,
              help="Share of $1 Bonus Spin wagers, 0 to 1 (default 0.5).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def sim(file: Path, rounds: int, seed: int, mode: str, engine_flag: bool, jobs: int | None,
        mix: float | None, as_json: bool) -> None:
    """Monte Carlo of FILE beside its exact figures, each with its 99 % interval.

    SIGTERM stops it where it is (it writes nothing): exit 143.
    """
    from etg import stop

    with stop.on_sigterm("etg sim", raising=True):
        _sim(file, rounds, seed, mode, engine_flag, jobs, mix, as_json)


def _sim(file: Path, rounds: int, seed: int, mode: str, engine_flag: bool, jobs: int | None,
         mix: float | None, as_json: bool) -> None:
    from etg.math.engine_sim import cores
    from etg.math.precision import estimate_text, interval_text

    if engine_flag and mode != "engine":
        _refuse("etg sim: --engine and --mode vector contradict each other")
    if jobs is not None and mode != "engine":
        _refuse("etg sim: --jobs is for engine mode; vector mode runs on one core")
    jobs = min(jobs or cores(), rounds) if mode == "engine" else 1
    loaded = _load_or_exit(file)
    if as_json or not sys.stderr.isatty():
        rows, seconds = _simulate(loaded.paytable, mode, rounds, seed, mix, None, jobs)
    else:
        columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,}"),
                   TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(f"{mode} sim", total=rounds)
            rows, seconds = _simulate(loaded.paytable, mode, rounds, seed, mix,
                                      lambda done: bar.update(task, completed=done), jobs)
    if as_json:
        click.echo(json.dumps({
            "file": str(file), "id": loaded.paytable.id, "mode": mode, "rounds": rounds,
            "seed": seed, "jobs": jobs, "seconds": round(seconds, 3),
            "figures": {row.key: {"label": row.label, "exact": row.exact, "measured": row.mean,
                                  "low": row.low, "high": row.high, "within_99": row.agrees}
                        for row in rows},
        }, indent=2))
        return
    on = f"  ·  {jobs} jobs" if mode == "engine" else ""
    table = Table_(title=f"{file}  ·  {mode} mode{on}  ·  {rounds:,} rounds  ·  seed {seed}  ·  "
                        f"{seconds:.1f} s")
    for column in ("figure", "exact", "measured", "99 % interval", ""):
        table.add_column(column, justify="left" if column == "figure" else "right")
    for row in rows:
        # a measured figure shows only the decimals its interval allows (etg.math.precision)
        table.add_row(row.label, "—" if row.exact is None else f"{row.exact:.6g}",
                      estimate_text(row.mean, (row.high - row.low) / 2),
                      interval_text(row.low, row.high),
                      "" if row.agrees is None else "✓" if row.agrees else "outside")
    Console().print(table)


def _simulate(paytable: Paytable, mode: str, rounds: int, seed: int, mix: float | None,
              progress: Callable[[int], None] | None,
              jobs: int = 1) -> tuple[list[SimRow], float]:
    """Rows of ``etg sim``: each measured figure with its exact value where it has one."""

    from etg.math.engine_sim import agrees, simulate_engine_full
    from etg.math.sim_figures import exact_figures, figure_label
    from etg.math.sim_setup import standard_setup
    from etg.math.vector_full import simulate_full

    setup = standard_setup(paytable, None if mix is None else Fraction(mix).limit_denominator())
    # The same table and the same figures in both modes: the real state machine or NumPy.
    if mode == "engine":
        full = simulate_engine_full(paytable, rounds, seed, setup, progress=progress, jobs=jobs)
    else:
        full = simulate_full(paytable, rounds, seed, setup, progress=progress)
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


