"""Engine rounds per second: bot seats through the real state machine, no ledger."""

from __future__ import annotations

from pathlib import Path

from etg.config.loader import load_paytable
from etg.math.engine_sim import engine_rounds_per_second

REPEATS = 3
ROUNDS = 4_000


def measure(config_dir: Path) -> dict[str, object]:
    paytable = load_paytable(config_dir / "paytables" / "maryland-community-5.yaml").paytable
    best = max(engine_rounds_per_second(paytable, ROUNDS, seed) for seed in range(REPEATS))
    return {"engine_rounds_per_s": round(best)}
