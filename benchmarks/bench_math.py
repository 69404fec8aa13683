"""The vectorised simulator's speed, on one core (SPEC §11).

- ``sim_rounds_per_s``: :func:`etg.math.vector_sim.simulate_main_game` on
  ``maryland-community-5.yaml``, one spot's main game, Tie Wagers included
  (target ≥ 1,000,000 rounds/s).
- ``sim_full_rounds_per_s``: :func:`etg.math.vector_full.simulate_full` on the
  busiest shipped paytable, ``maryland-community-7.yaml``: all nine seats play
  three spots each with the Initial, Tie and Progressive Payout Wagers (and
  the Tie Wager on the War deal), always going to War, and a Bonus Spin wager
  each, half $1 and half $5; Envy Bonuses paid across seats, the wheel's three
  rings and all three meters evolving (target ≥ 200,000 rounds/s).

NumPy's element-wise work runs on one thread, and the simulators avoid BLAS
products (which may use several), so each figure is a per-core rate. The exact
par sheet's time, ``parsheet_s``, is measured by ``bench_parsheet.py``.
``quick``: one run of a few thousand rounds of each.
"""

from __future__ import annotations

from pathlib import Path

from etg.config.loader import load_paytable
from etg.math.vector_full import simulate_full
from etg.math.vector_sim import simulate_main_game

REPEATS = 3
SIM_ROUNDS = 2_000_000
FULL_ROUNDS = 1_000_000
QUICK_ROUNDS = 5_000


def measure(config_dir: Path, *, quick: bool = False) -> dict[str, object]:
    repeats = 1 if quick else REPEATS
    folder = config_dir / "paytables"
    main = load_paytable(folder / "maryland-community-5.yaml").paytable
    rate = max(simulate_main_game(main, QUICK_ROUNDS if quick else SIM_ROUNDS, seed)
               .rounds_per_second for seed in range(repeats))
    busiest = load_paytable(folder / "maryland-community-7.yaml").paytable
    full = max(simulate_full(busiest, QUICK_ROUNDS if quick else FULL_ROUNDS, seed)
               .rounds_per_second for seed in range(repeats))
    return {"sim_rounds_per_s": round(rate), "sim_full_rounds_per_s": round(full)}
