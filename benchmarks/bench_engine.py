"""Engine rounds per second on SPEC §11's workload: the busiest paytable, every seat on every wager.

The real state machine through the public :func:`etg.core.engine.apply`, the
same commands the kiosk sends, but no ledger: bot seats
(:func:`etg.table.bots.busiest_bots`) and the dealer's routine
(:class:`etg.table.bots.RoundDriver`). Every event is recorded as its class and
field values and built only when something reads it (:class:`etg.core.events.Events`;
a round's settled results likewise, see :class:`etg.core.state.Round`), and this
loop reads none. The kiosk and the simulators read them all, which costs about half
as much again.
"""

from __future__ import annotations

import time
from pathlib import Path

from etg.config.loader import load_paytable
from etg.core.engine import apply, new_table
from etg.core.events import Event
from etg.core.paytable import Paytable
from etg.core.rng import SeededSource
from etg.table.bots import RoundDriver, busiest_bots

PAYTABLE = "maryland-community-7.yaml"
REPEATS = 5
ROUNDS = 3_000


def measure(config_dir: Path) -> dict[str, object]:
    paytable = load_paytable(config_dir / "paytables" / PAYTABLE).paytable
    best = max(rounds_per_second(paytable, ROUNDS, seed) for seed in range(REPEATS))
    return {"engine_rounds_per_s": round(best), "engine_workload": workload(paytable)}


def workload(paytable: Paytable) -> str:
    """The workload in words, for the figure's readers."""
    return (f"{PAYTABLE}: {paytable.seats} seats on {paytable.spot_count} spots, each seat one "
            f"spot with the Initial, Tie, Progressive Payout and Bonus Spin wagers (REPEAT "
            f"from the second round); odd seats go to War with a War-deal Tie Wager, even "
            f"seats surrender; events recorded, built when read (none read here), no ledger")


def rounds_per_second(paytable: Paytable, rounds: int, seed: int) -> float:
    """Whole rounds played through ``apply`` per second of one core."""
    driver = RoundDriver(busiest_bots(paytable), SeededSource(seed), apply, repeat=True)
    state = new_table(paytable)
    events: list[Event] = []
    start = time.perf_counter()
    for _ in range(rounds):
        state, events = driver.play_round(state)
    seconds = time.perf_counter() - start
    assert events, "a round has events"
    return rounds / seconds
