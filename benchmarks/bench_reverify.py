"""The background re-verification of the whole history (issue 25, item 5): its pace, and how
long an idle table takes to walk a million rounds.

The ledger is the busiest table's (``bench_ledger_scale``'s bulk path: the real controller,
bots and bookkeeper, the kiosk's own keyed entries). A pass is walked as the kiosk walks it
(:class:`etg.ledger.reverify.Reverifier`, default slices), one step at a time, each step given
what a 60 Hz frame leaves when the table is idle (:data:`STEP_S`); the pass records nothing
until it is complete, as on a cabinet between two records.

Keys: ``reverify_rounds_per_s``, rounds walked per second of walking (links and money, on
one core; CPU seconds of the walking thread, which neighbours' load on a shared machine does
not inflate as it does wall time); ``reverify_hours_1m``, the hours of idle table a million
rounds then take, at :data:`STEP_S` a frame, 60 frames a second (target: within an hour);
``reverify_step_ms``, a step's length (``p50``, ``p99``, ``max``; in CPU time ``cpu_p99`` and
``cpu_max``) against the :data:`STEP_S` it was given (``given``): a step stops within a slice
of its deadline, so the next frame starts on time. Each figure is the
best of :data:`RUNS` passes. ``quick``: a few rounds, one pass.
"""

from __future__ import annotations

import math
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import platformdirs

from etg.config.loader import load_paytable
from etg.ledger.reverify import Reverifier
from etg.ledger.store import Ledger
from etg.release.bench import load
from etg.table.controller import IDLE_MARGIN_S

ROUNDS = 2_000
QUICK_ROUNDS = 20
RUNS = 3

FPS = 60
FRAME_BUSY_S = 0.0034
"""An idle table's frame, drawn (``bench_frame``'s p50 at 1920×1080, benchmarks/README)."""

STEP_S = 1 / FPS - FRAME_BUSY_S - IDLE_MARGIN_S
"""What a step is given: the rest of a 60 Hz frame, less the margin the controller keeps."""


def measure(config_dir: Path, *, quick: bool = False) -> dict[str, object]:
    cache = Path(platformdirs.user_cache_dir("etg", appauthor=False))
    cache.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="bench-reverify-", dir=cache))  # the ledger's disk
    loaded = load_paytable(config_dir / "paytables" / "maryland-community-7.yaml")
    rounds = QUICK_ROUNDS if quick else ROUNDS
    try:
        db = folder / "ledger.db"
        load(Path(__file__).with_name("bench_ledger_scale.py"))._build(db, loaded, rounds)
        store = Ledger.open_readonly(db)
        key = store.key
        store.close()
        rates, steps, cpus = [], [], []
        for _ in range(1 if quick else RUNS):
            cpu, taken, on_cpu = _pass(db, key)
            rates.append(rounds / cpu)
            steps += taken
            cpus += on_cpu
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    rate = max(rates)
    ms = sorted(s * 1_000 for s in steps)
    cpu_ms = sorted(s * 1_000 for s in cpus)
    return {"reverify_rounds_per_s": round(rate),
            "reverify_hours_1m": round(1_000_000 / (rate * STEP_S * FPS) / 3_600, 3),
            "reverify_step_ms": {"p50": round(statistics.median(ms), 3),
                                 "p99": round(_p99(ms), 3),
                                 "max": round(ms[-1], 3), "given": round(STEP_S * 1_000, 3),
                                 "cpu_p99": round(_p99(cpu_ms), 3),
                                 "cpu_max": round(cpu_ms[-1], 3)}}


def _p99(ordered: list[float]) -> float:
    """The 99th percentile by nearest rank: never below the median, however few the steps
    (a quick pass has a handful; rounding the rank down gave the smaller of two)."""
    return ordered[math.ceil(0.99 * len(ordered)) - 1]


def _pass(db: Path, key: bytes | None) -> tuple[float, list[float], list[float]]:
    """One whole pass, step by step: the CPU seconds spent walking, and each step's length in
    wall time and in CPU time (a loaded machine stretches the first, not the second). The
    first step, which opens the ledger and nothing else, is one of them."""
    walk = Reverifier(db, key, start_after_s=0, record_every_s=math.inf)
    taken: list[float] = []
    on_cpu: list[float] = []
    try:
        while True:
            start, start_cpu = time.perf_counter(), time.thread_time()
            step = walk.step(start + STEP_S)
            on_cpu.append(time.thread_time() - start_cpu)
            taken.append(time.perf_counter() - start)
            if step.problems:
                raise RuntimeError(f"the bench ledger does not verify: {step.problems[0]}")
            if step.record is not None and step.record["complete"]:
                return sum(on_cpu), taken, on_cpu
    finally:
        walk.close()
