"""The floor under ``engine_rounds_per_s``: what a round costs in this engine's design, rules aside.

``bench_engine`` measures it beside the engine in the same run
(``engine_floor_rounds_per_s``); run by hand it also prints what a round is made of::

    .venv/bin/python benchmarks/engine_floor.py

It first counts, on ``bench_engine``'s workload played through the real
:func:`etg.core.engine.apply`, what one round is made of: the commands sent, the
new states built (:func:`etg.core.evolve.evolve`, one frozen table or round copied
with changes), the events recorded, the :class:`~etg.core.settle.Payment` values
made and the Python function calls. Then it times a *skeleton* round that does
only that much of the same things with the real types and no rule at all: each
command looked up by type, the same number of new states, of events recorded
into an :class:`~etg.core.events.Events` and of payments made.

The skeleton is the design's speed limit: the engine cannot be faster than the
frozen states and per-wager events its callers rely on (the ledger records every
event, the screen shows them, replay compares them), whatever its rules do.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import etg.core.evolve
from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.core import engine, settle
from etg.core.commands import Command, OpenBets
from etg.core.events import BetsOpened, Events
from etg.core.rng import SeededSource
from etg.core.settle import Payment, Result, WagerKind
from etg.core.state import TableState
from etg.table.bots import RoundDriver, busiest_bots

ROUNDS = 2_000


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_engine  # not at the top: bench_engine imports this module

    paytable = load_paytable(shipped_config_dir() / "paytables" / bench_engine.PAYTABLE).paytable
    counts = round_counts(paytable)
    print(f"a round of {bench_engine.PAYTABLE}'s busiest workload, {ROUNDS:,} rounds:")
    for name, value in counts.items():
        print(f"  {name:>16}: {value:7.1f} a round")
    engine_rate = max(bench_engine.rounds_per_second(paytable, ROUNDS, seed) for seed in range(3))
    floor_rate = max(skeleton_rounds_per_second(paytable, counts) for _ in range(3))
    print(f"engine:   {engine_rate:8,.0f} rounds/s ({1e6 / engine_rate:5.1f} µs a round)")
    print(f"skeleton: {floor_rate:8,.0f} rounds/s ({1e6 / floor_rate:5.1f} µs a round): "
          f"the same states, events and payments, no rules")


def round_counts(paytable: Any, rounds: int = ROUNDS) -> dict[str, float]:
    """Commands, new states, events, payments and Python calls per round, on the real engine."""
    tally: Counter[str] = Counter()
    real_evolve = etg.core.evolve.evolve
    real_payment_init = Payment.__init__

    def counting_evolve(obj: Any, **changes: Any) -> Any:
        tally["states"] += 1
        return real_evolve(obj, **changes)

    def counting_payment_init(self: Payment, *args: Any, **kwargs: Any) -> None:
        tally["payments"] += 1
        real_payment_init(self, *args, **kwargs)

    def counting_apply(state: TableState, command: Command) -> tuple[TableState, Events]:
        tally["commands"] += 1
        after, events = engine.apply(state, command)
        tally["events"] += len(events)
        return after, events

    # Every engine module that imported evolve by name gets the counting one.
    patched = [module for name, module in sys.modules.items()
               if name.startswith("etg.core") and getattr(module, "evolve", None) is real_evolve]
    for module in patched:
        module.evolve = counting_evolve  # type: ignore[attr-defined]
    Payment.__init__ = counting_payment_init  # type: ignore[method-assign]
    calls = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    try:
        driver = RoundDriver(busiest_bots(paytable), SeededSource(1), counting_apply, repeat=True)
        state = engine.new_table(paytable)
        state, _ = driver.play_round(state)  # the first round places each wager by hand
        tally.clear()
        sys.setprofile(profile)
        for _ in range(rounds):
            state, _ = driver.play_round(state)
    finally:
        sys.setprofile(None)
        for module in patched:
            module.evolve = real_evolve  # type: ignore[attr-defined]
        Payment.__init__ = real_payment_init  # type: ignore[method-assign]
    per_round = {name: tally[name] / rounds
                 for name in ("commands", "states", "events", "payments")}
    per_round["python calls"] = calls / rounds
    return per_round


def skeleton_rounds_per_second(paytable: Any, counts: dict[str, float],
                               rounds: int = ROUNDS) -> float:
    """Rounds a second of a round that only builds the counted states, events and payments."""
    commands = round(counts["commands"])
    states = round(counts["states"])
    events = round(counts["events"])
    payments = round(counts["payments"])
    state = engine.new_table(paytable)
    evolve = etg.core.evolve.evolve
    command = OpenBets()
    handlers: dict[type, Callable[[TableState, int, Events], TableState]] = {}

    def handler(s: TableState, n: int, recorded: Events) -> TableState:
        for _ in range(n):
            s = evolve(s, house=s.house)
        return s

    handlers[type(command)] = handler
    per_command, extra = divmod(states, commands)
    start = time.perf_counter()
    for _ in range(rounds):
        recorded = Events()
        for i in range(commands):
            state = handlers[type(command)](state, per_command + (i < extra), recorded)
        for _ in range(events):
            recorded.record(BetsOpened, 1)
        for _ in range(payments):
            settle.Payment(WagerKind.INITIAL, Result.LOST, 100)
    return rounds / (time.perf_counter() - start)


if __name__ == "__main__":
    main()
