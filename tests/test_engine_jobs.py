"""The engine simulator over several processes: exact integer sums, the same for the same seed.

``etg sim --jobs N`` splits the rounds over worker processes, each a table of its
own with a seed stream of its own (:func:`etg.math.engine_sim.engine_parts`); the
workers' tallies hold whole cents and counts and are merged by adding them.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
from dataclasses import replace

import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.core.engine import apply, new_table
from etg.core.events import WagerSettled
from etg.core.paytable import Decision, Paytable, ProgressiveLevel
from etg.core.refusal import Reason, Refused
from etg.core.rng import SeededSource
from etg.core.settle import WagerKind
from etg.math.engine_sim import (
    EnginePart,
    EngineTally,
    engine_parts,
    engine_tally,
    play_part,
    simulate_engine_full,
    worker_seed,
)
from etg.math.sim_setup import TableSetup, bots, standard_setup
from etg.table.bots import RoundDriver
from tests.test_agreement import frequent


def md7() -> Paytable:
    return load_paytable(shipped_config_dir() / "paytables" / "maryland-community-7.yaml").paytable


def no_bonus_spin(paytable: Paytable) -> TableSetup:
    """The standard table with no Bonus Spin: no per-round draw of denominations."""
    return replace(standard_setup(paytable), bonus_spin=False)


def sums(tally: EngineTally) -> dict[str, object]:
    """Every integer a tally holds, by figure."""
    return {
        "rounds": tally.rounds,
        "ratios": {key: acc.totals() for key, acc in tally.ratios.items()},
        "counts": {key: tuple(c) for key, c in tally.counts.items()},
        "meters": {level: meters.sums().totals() for level, meters in tally.meter_values.items()},
        "awards": dict(tally.awards),
    }


def test_the_rounds_are_split_evenly_the_first_workers_one_more() -> None:
    parts = engine_parts(10, 7, 3)
    assert [p.rounds for p in parts] == [4, 3, 3]
    assert [p.index for p in parts] == [0, 1, 2]
    assert parts[0].seed == 7  # the first worker plays the seed itself
    assert len({p.seed for p in parts}) == 3
    assert [p.rounds for p in engine_parts(2, 7, 8)] == [1, 1]  # never a worker without rounds


def test_a_workers_seed_depends_on_the_seed_and_its_index_only() -> None:
    assert worker_seed(5, 0) == 5
    assert worker_seed(5, 2) == engine_parts(100, 5, 3)[2].seed == engine_parts(100, 5, 8)[2].seed
    assert worker_seed(5, 2) != worker_seed(6, 2)
    assert worker_seed(5, 1) != worker_seed(5, 2)


def test_one_job_plays_the_single_process_stream_of_the_seed() -> None:
    """Seed 9 alone, played here by hand: the same cents kept by the house, to the cent."""
    paytable = md7()
    setup = no_bonus_spin(paytable)
    tally = engine_tally(paytable, 30, 9, setup, jobs=1)
    driver = RoundDriver(bots(setup, {}), SeededSource(9), apply)
    state = new_table(paytable)
    kept = staked = 0
    war_seats = {s.seat for s in setup.seats if s.decision is Decision.WAR}
    for _ in range(30):
        state, events = driver.play_round(state)
        for e in events:
            if (isinstance(e, WagerSettled) and e.seat in war_seats
                    and e.payment.kind in (WagerKind.INITIAL, WagerKind.WAR)):
                kept += e.payment.stake - e.paid
                staked += e.payment.stake if e.payment.kind is WagerKind.INITIAL else 0
    acc = tally.ratios["house_edge_war"]
    assert (acc.count, acc.sum_x, acc.sum_y) == (30, kept, staked)
    assert staked == 30 * sum(len(s.spots) for s in setup.seats) * setup.initial_cents


@pytest.mark.slow
def test_the_same_seed_and_jobs_give_the_same_integers_and_figures() -> None:
    paytable = frequent()
    setup = standard_setup(paytable)
    first = engine_tally(paytable, 300, 4, setup, jobs=2)
    again = engine_tally(paytable, 300, 4, setup, jobs=2)
    assert sums(first) == sums(again)
    assert first.figures() == again.figures()
    other_seed = engine_tally(paytable, 300, 5, setup, jobs=2)
    assert sums(other_seed) != sums(first)


@pytest.mark.slow
def test_merged_sums_are_exactly_the_sums_of_the_workers() -> None:
    """Three processes against the same three parts played one by one in this one."""
    paytable = frequent()
    setup = standard_setup(paytable)
    merged = engine_tally(paytable, 240, 11, setup, jobs=3)
    parts = [play_part(paytable, setup, part) for part in engine_parts(240, 11, 3)]
    assert merged.rounds == sum(p.rounds for p in parts) == 240
    assert set(merged.ratios) == set().union(*(p.ratios for p in parts))
    for key, acc in merged.ratios.items():
        accs = [p.ratios[key] for p in parts]
        assert acc.min_x == min(a.min_x for a in accs if a.min_x is not None)
        for name in ("count", "sum_x", "sum_y", "sum_xx", "sum_xy", "sum_yy"):
            assert getattr(acc, name) == sum(getattr(a, name) for a in accs), (key, name)
    for key, (hits, trials) in merged.counts.items():
        assert hits == sum(p.counts[key][0] for p in parts)
        assert trials == sum(p.counts[key][1] for p in parts)
    awards = merged.awards[ProgressiveLevel.PRIMARY]
    assert awards > 0  # the paytable makes the meters' awards common
    assert awards == sum(p.awards[ProgressiveLevel.PRIMARY] for p in parts)
    for level, meters in merged.meter_values.items():
        # each worker's table leaves out its own first award (its meter started at the
        # initial amount), so the rounds with awards add up over the workers
        for name in ("count", "sum_x", "sum_y", "sum_xx", "sum_xy", "sum_yy"):
            assert getattr(meters.sums(), name) == sum(
                getattr(p.meter_values[level].sums(), name) for p in parts), (level, name)


@pytest.mark.slow
def test_workers_report_progress_up_to_every_round() -> None:
    paytable = md7()
    seen: list[int] = []
    result = simulate_engine_full(paytable, 90, 2, no_bonus_spin(paytable),
                                  progress=seen.append, progress_every=10, jobs=2)
    assert result.rounds == 90
    assert seen == sorted(seen) and seen[-1] == 90


@pytest.mark.slow
def test_a_fault_in_a_worker_reaches_the_caller() -> None:
    """A setup the engine refuses (Initial Wagers below the table minimum) in a worker:
    the engine's own refusal, its reason intact, not a broken pool."""
    paytable = md7()
    setup = replace(no_bonus_spin(paytable), initial_cents=paytable.limits.initial.min_cents - 1)
    with pytest.raises(Refused, match="no Initial Wager has been placed") as refused:
        engine_tally(paytable, 20, 1, setup, jobs=2)
    assert refused.value.reason is Reason.NO_WAGERS


def test_a_refusal_pickles_with_its_reason() -> None:
    """A worker's refusal reaches the parent process pickled."""
    refused = pickle.loads(pickle.dumps(Refused(Reason.UNDER_MINIMUM, "under the minimum")))
    assert (refused.reason, refused.message, str(refused)) == (
        Reason.UNDER_MINIMUM, "under the minimum", "under the minimum")


def test_bad_rounds_and_jobs_are_refused() -> None:
    paytable = md7()
    with pytest.raises(ValueError, match="jobs must be positive"):
        engine_tally(paytable, 10, 1, no_bonus_spin(paytable), jobs=0)
    with pytest.raises(ValueError, match="rounds must be positive"):
        engine_tally(paytable, 0, 1, no_bonus_spin(paytable), jobs=2)


def test_a_part_plays_its_own_rounds() -> None:
    paytable = md7()
    tally = play_part(paytable, no_bonus_spin(paytable), EnginePart(1, 7, worker_seed(3, 1)))
    assert tally.rounds == 7
    assert tally.ratios["house_edge_war"].count == 7


@pytest.mark.slow
def test_a_worker_killed_is_reported_and_the_others_ended() -> None:
    """SIGKILL to a worker (a real death): an error naming it, not a wait for ever."""
    paytable = md7()
    killed: list[int] = []

    def kill_one(done: int) -> None:
        if not killed:
            victim = multiprocessing.active_children()[0]
            assert victim.pid is not None
            os.kill(victim.pid, signal.SIGKILL)
            killed.append(victim.pid)

    with pytest.raises(RuntimeError, match=r"ended without its figures \(exit code -9\)"):
        engine_tally(paytable, 4_000, 1, no_bonus_spin(paytable), jobs=2, progress=kill_one)
    assert multiprocessing.active_children() == []


@pytest.mark.slow
def test_stopping_the_caller_ends_its_workers() -> None:
    """What stops the parent (here its progress callback; SIGTERM alike) ends the workers,
    even where SIGTERM is caught and kept for later, as SDL does once pygame is running
    (a forked worker inherits the handler: it once played on, and the caller waited)."""
    paytable = md7()

    def stop(done: int) -> None:
        raise KeyboardInterrupt

    kept = signal.signal(signal.SIGTERM, lambda signum, frame: None)
    try:
        with pytest.raises(KeyboardInterrupt):
            engine_tally(paytable, 20_000, 1, no_bonus_spin(paytable), jobs=2, progress=stop)
    finally:
        signal.signal(signal.SIGTERM, kept)
    assert multiprocessing.active_children() == []
