"""``etg verify``, ``etg smoke-test`` and ``etg bench``: the software and its figures."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.table import Table as Table_

from etg.config.loader import default_config_dir

if TYPE_CHECKING:
    pass

from etg.cli.program import main

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
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object, every figure's key present.")
def bench(as_json: bool) -> None:
    """Measure the performance figures: frame and commit times, simulation and start-up
    speeds, memory (null: not measurable here)."""
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


