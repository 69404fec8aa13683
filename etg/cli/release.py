"""``etg verify``, ``etg smoke-test`` and ``etg bench``: the software and its figures."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.table import Table as Table_

from etg.config.loader import default_config_dir

if TYPE_CHECKING:
    pass

from etg.cli.program import _refuse, main

# --- etg verify -------------------------------------------------------------------------

@main.command("verify")
@click.option("--bundle", type=click.Path(exists=True, file_okay=False, path_type=Path),
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
    """Check an installed or frozen build: its files, assets, paytables, a ledger, sounds, frames.

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



# --- etg bench ------------------------------------------------------------------------------

@main.command()
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object, every figure's key present.")
@click.option("--quick", is_flag=True,
              help="Every benchmark on a tiny workload (under a minute): checks that each runs; "
                   "its figures are not the targets'.")
@click.option("--only", "only", multiple=True, metavar="NAME",
              help="Run only this benchmark (bench_NAME.py; repeatable).")
def bench(as_json: bool, quick: bool, only: tuple[str, ...]) -> None:
    """Measure the performance figures: frame and commit times, simulation and start-up
    speeds, memory, the engine on every core (null: not measurable here).

    Runs the benchmarks/ folder of a source checkout. SIGTERM stops it within
    moments (its temporary ledgers removed, its subprocesses ended), exit 143.
    """
    from etg import stop
    from etg.release.bench import NoBenchmarks, UnknownBenchmark, benchmarks_dir, chosen, run

    with stop.on_sigterm("etg bench", raising=True):
        try:
            folder = benchmarks_dir()
            selected = chosen(folder, only)
        except (NoBenchmarks, UnknownBenchmark) as error:
            _refuse(f"etg bench: {error}")
        figures = run(folder, selected, default_config_dir(), quick=quick,
                      report=lambda line: click.echo(f"etg bench: {line}", err=True))
    if as_json:
        click.echo(json.dumps(figures))
        return
    table = Table_(title="etg bench --quick: tiny workloads, not the targets' figures"
                   if quick else "etg bench")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in figures.items():
        table.add_row(key, "—" if value is None else json.dumps(value))
    Console().print(table)
