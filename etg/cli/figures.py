"""``etg paytable check``, ``etg parsheet`` and ``etg sim``: exact figures and simulators."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
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

from etg.cli.program import INVALID, _load_or_exit, _refuse, main

# --- etg paytable ---------------------------------------------------------------------------

@main.group()
def paytable() -> None:
    """The paytables: those on this cabinet and the active one, switching, checking files."""


@paytable.command("check")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True,
              help="Print the figures as JSON instead of tables.")
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
    """Write the regulator's par sheet of each FILE as a standalone HTML page."""
    from etg.math.parsheet import output_path
    from etg.math.parsheet.figures import par_sheet, sheet_json
    from etg.math.parsheet.html import render

    if not out.parent.is_dir():  # refused before minutes of figures, not after
        _refuse(f"{out}: no folder {out.parent} to write the par sheet in")
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


