"""Engine rounds per second on SPEC §11's workload: the busiest paytable, every seat on every wager.

The real state machine through the public :func:`etg.core.engine.apply`, the
same commands the kiosk sends, but no ledger: bot seats
(:func:`etg.table.bots.busiest_bots`) and the dealer's routine
(:class:`etg.table.bots.RoundDriver`). Every event is recorded as its class and
field values and built only when something reads it (:class:`etg.core.events.Events`;
a round's settled results likewise, see :class:`etg.core.state.Round`), and this
loop reads none. The kiosk and the simulators read them all, which costs about half
as much again.

Machines differ twofold in speed, so the target is a ratio (SPEC §11): per core at
least 0.2 of the rounds a second of :mod:`engine_floor`'s skeleton (the same states,
events and payments, no rules), measured in the same run, the two taken in turn; and
on every core together (one worker process each, started together) at least 85 % of
linear scaling. On cores shared with other work the clock cannot show that scaling, so
``engine_scaling_cpu`` gives it in CPU time: a worker's rounds per CPU-second among
``engine_jobs`` of them, over one worker's alone (median of the repetitions).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_floor, beside this file

import engine_floor

from etg.config.loader import load_paytable
from etg.core.engine import apply, new_table
from etg.core.events import Event
from etg.core.paytable import Paytable
from etg.core.rng import SeededSource
from etg.math.engine_sim import cores
from etg.table.bots import RoundDriver, busiest_bots

PAYTABLE = "maryland-community-7.yaml"
REPEATS = 5
ROUNDS = 3_000
QUICK_REPEATS = 1
QUICK_ROUNDS = 60
COUNTED_ROUNDS = 500  # what a round is made of: an average, steady after a few hundred


def measure(config_dir: Path, *, quick: bool = False) -> dict[str, object]:
    """The four figures of SPEC §11 and the workload in words; ``quick``: a tiny workload."""
    paytable = load_paytable(config_dir / "paytables" / PAYTABLE).paytable
    rounds, repeats = (QUICK_ROUNDS, QUICK_REPEATS) if quick else (ROUNDS, REPEATS)
    counts = engine_floor.round_counts(paytable, min(rounds, COUNTED_ROUNDS))
    jobs = cores()
    engine: list[float] = []
    floor: list[float] = []
    every: list[float] = []
    cpu: list[float] = []  # a worker's rounds per CPU-second, among jobs, over one's alone
    for seed in range(repeats):  # in turn, so that a busy neighbour slows each alike
        wall, alone = play(paytable, rounds, seed)
        engine.append(rounds / wall)
        floor.append(engine_floor.skeleton_rounds_per_second(paytable, counts, rounds))
        together, slowest = rounds_per_second_all(paytable, rounds, jobs, seed)
        every.append(together)
        cpu.append(alone / slowest)
    one, skeleton, every_core = max(engine), max(floor), max(every)
    return {
        "engine_rounds_per_s": round(one),
        "engine_floor_rounds_per_s": round(skeleton),
        "engine_floor_ratio": round(one / skeleton, 3),
        "engine_rounds_per_s_all": round(every_core),
        "engine_jobs": jobs,
        "engine_scaling": round(every_core / (jobs * one), 3),
        "engine_scaling_cpu": round(sorted(cpu)[len(cpu) // 2], 3),
        "engine_workload": workload(paytable),
    }


def workload(paytable: Paytable) -> str:
    """The workload in words, for the figure's readers."""
    return (f"{PAYTABLE}: {paytable.seats} seats on {paytable.spot_count} spots, each seat one "
            f"spot with the Initial, Tie, Progressive Payout and Bonus Spin wagers (REPEAT "
            f"from the second round); odd seats go to War with a War-deal Tie Wager, even "
            f"seats surrender; events recorded, built when read (none read here), no ledger")


def rounds_per_second(paytable: Paytable, rounds: int, seed: int) -> float:
    """Whole rounds played through ``apply`` per second of one core."""
    wall, _ = play(paytable, rounds, seed)
    return rounds / wall


def play(paytable: Paytable, rounds: int, seed: int) -> tuple[float, float]:
    """Seconds ``rounds`` rounds took by the clock, and in CPU time of this process."""
    driver = RoundDriver(busiest_bots(paytable), SeededSource(seed), apply, repeat=True)
    state = new_table(paytable)
    events: list[Event] = []
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        state, events = driver.play_round(state)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert events, "a round has events"
    return wall, cpu


def rounds_per_second_all(paytable: Paytable, rounds: int, jobs: int,
                          seed: int) -> tuple[float, float]:
    """Rounds a second of ``jobs`` worker processes together, each playing ``rounds``,
    and the longest CPU time a worker took.

    The workers are forked and wait for each other at a barrier before they start
    their clocks, so that none plays alone while another is still starting; the
    figure is all their rounds over the longest worker's time. The CPU time says
    whether they slow each other (shared caches), whatever the neighbours take of
    the cores: ``engine_scaling_cpu`` is one worker's alone over it.
    """
    from multiprocessing import get_context

    context = get_context("fork")
    barrier = context.Barrier(jobs)
    results = context.SimpleQueue()
    workers = [context.Process(target=_worker, daemon=True,
                               args=(paytable, rounds, seed * jobs + k, barrier, results))
               for k in range(jobs)]
    started = []
    try:
        for worker in workers:
            worker.start()
            started.append(worker)
        seconds = [results.get() for _ in workers]
    finally:  # stopped (SIGTERM to etg bench): the workers with it, whatever SDL caught
        for worker in started:
            if worker.exitcode is None:  # its seconds already sent, or never to be
                worker.kill()
            worker.join()
    failed = [s for s in seconds if isinstance(s, str)]
    if failed:
        raise RuntimeError(f"an engine worker failed: {failed[0]}")
    return jobs * rounds / max(wall for wall, _ in seconds), max(cpu for _, cpu in seconds)


def _worker(paytable: Paytable, rounds: int, seed: int, barrier: Any, results: Any) -> None:
    """Its seconds for ``rounds`` rounds, or what stopped it: the parent waits for one or
    the other from every worker."""
    try:
        barrier.wait(timeout=120)
        results.put(play(paytable, rounds, seed))
    except BaseException as error:
        results.put(f"{type(error).__name__}: {error}")
        raise
