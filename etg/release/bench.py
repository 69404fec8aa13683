"""The benchmarks of a source checkout (``benchmarks/bench_*.py``), run into SPEC §11's figures.

Each ``bench_NAME.py`` defines ``measure(config_dir, *, quick=False)`` and returns
some of the keys of :data:`KEYS` (the protocol is ``benchmarks/README.md``'s): called
``measure(config_dir)`` for the real figures, ``measure(config_dir, quick=True)`` for
``--quick``.
The benchmarks are part of the source, not of the program: a wheel or a frozen
build carries none, and says so (:class:`NoBenchmarks`) instead of measuring
nothing.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import etg

KEYS: dict[str, object] = {  # SPEC §11: every key, null until a benchmark measures it
    "frame_ms": {"p50": None, "p99": None, "phases": None, "displays": None},
    "commit_ms": {"p50": None, "p99": None},
    "commit_rate_ratio": None,
    "parsheet_s": None,
    "sim_rounds_per_s": None,
    "sim_full_rounds_per_s": None,
    "engine_rounds_per_s": None,
    "engine_floor_rounds_per_s": None,
    "engine_rounds_per_s_all": None,
    "engine_jobs": None,
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
    # The floor's (SPEC §13): the linked progressives' link, and the back office's web page.
    "link_display_ms_p99": None,
    "link_ack_ms_p99": None,
    "link_down_s": None,
    "link_drain_s": None,
    "link_tables": None,
    "web_display_ms_p99": None,
}

PREFIX = "bench_"


class NoBenchmarks(Exception):
    """This program has no benchmarks to run: it is not a source checkout."""


class UnknownBenchmark(Exception):
    """A name asked for that no ``bench_NAME.py`` has."""


def benchmarks_dir() -> Path:
    """``benchmarks/`` beside the ``etg`` package of a source checkout (raises NoBenchmarks)."""
    if getattr(sys, "frozen", False):
        raise NoBenchmarks("a frozen build carries no benchmarks: run etg bench from a source "
                           "checkout")
    package = Path(etg.__file__).resolve().parent
    folder = package.parent / "benchmarks"
    if not any(folder.glob(f"{PREFIX}*.py")):
        raise NoBenchmarks(f"this etg ({package}) is installed without its source checkout: "
                           f"etg bench runs the benchmarks/ folder beside etg/ in one")
    return folder


def names(folder: Path) -> list[str]:
    """The benchmarks in ``folder``: each ``bench_NAME.py``'s NAME, in order."""
    return sorted(path.stem.removeprefix(PREFIX) for path in folder.glob(f"{PREFIX}*.py"))


def chosen(folder: Path, only: Sequence[str]) -> list[str]:
    """The benchmarks to run: ``only`` (each checked), or all of them."""
    known = names(folder)
    unknown = [name for name in only if name not in known]
    if unknown:
        raise UnknownBenchmark(f"no benchmark {', '.join(unknown)}; the benchmarks are "
                               f"{', '.join(known)}")
    return [name for name in known if name in only] if only else known


def run(folder: Path, selected: Sequence[str], config_dir: Path, *, quick: bool,
        report: Callable[[str], None]) -> dict[str, object]:
    """Run each selected benchmark in turn; their figures in one object.

    All of them: every key of :data:`KEYS` (null where none measured it). Some
    (``--only``): only what they measured. ``quick`` says whether the workloads
    were the tiny ones, so that no one takes those figures for the real ones.
    ``report`` hears a line as each starts and ends.
    """
    figures: dict[str, object] = {"quick": quick}
    if list(selected) == names(folder):
        figures.update(copy.deepcopy(KEYS))
    for name in selected:
        report(f"{name}: running{' (quick)' if quick else ''}")
        start = time.perf_counter()
        measure = load(folder / f"{PREFIX}{name}.py").measure
        figures.update(measure(config_dir, quick=True) if quick else measure(config_dir))
        report(f"{name}: done in {time.perf_counter() - start:.1f} s")
    return figures


def load(path: Path) -> ModuleType:
    """A benchmark module from its file (``benchmarks/`` is not a package)."""
    spec = importlib.util.spec_from_file_location(f"etg_bench_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
