"""Exact par sheet time for the slowest shipped paytable, and the vectorised simulator's speed."""

from __future__ import annotations

import time
from pathlib import Path

from etg.config.loader import load_paytable
from etg.math.exact import check_json
from etg.math.vector_sim import simulate_main_game

REPEATS = 3
SIM_ROUNDS = 2_000_000


def measure(config_dir: Path) -> dict[str, object]:
    slowest = 0.0
    for path in sorted((config_dir / "paytables").glob("*.yaml")):
        best = min(_time_parsheet(path) for _ in range(REPEATS))
        slowest = max(slowest, best)
    paytable = load_paytable(config_dir / "paytables" / "maryland-community-5.yaml").paytable
    rate = max(simulate_main_game(paytable, SIM_ROUNDS, seed).rounds_per_second
               for seed in range(REPEATS))
    return {"parsheet_s": round(slowest, 6), "sim_rounds_per_s": round(rate)}


def _time_parsheet(path: Path) -> float:
    start = time.perf_counter()
    loaded = load_paytable(path)  # a par sheet starts from the operator's file
    check_json(loaded.paytable, str(path))
    return time.perf_counter() - start
