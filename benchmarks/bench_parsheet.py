"""The exact par sheet of the slowest shipped paytable, in seconds (SPEC §11: under 1 s).

Timed from the operator's file to the rendered HTML and its JSON twin, as
``etg parsheet FILE --out PATH.html --sim-rounds 0`` computes them: every
exact figure, the meters' long run (closed form or Markov chain), the
charts. The simulation check is skipped (``--sim-rounds 0``): it is a Monte
Carlo whose time is the number of rounds asked for, not the par sheet's.
``quick``: each paytable's sheet once instead of the best of three.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from etg.config.loader import load_paytable
from etg.math.parsheet.figures import par_sheet, sheet_json
from etg.math.parsheet.html import render

REPEATS = 3


def measure(config_dir: Path, *, quick: bool = False) -> dict[str, object]:
    slowest = 0.0
    for path in sorted((config_dir / "paytables").glob("*.yaml")):
        slowest = max(slowest, min(_time_parsheet(path) for _ in range(1 if quick else REPEATS)))
    return {"parsheet_s": round(slowest, 6)}


def _time_parsheet(path: Path) -> float:
    start = time.perf_counter()
    sheet = par_sheet(load_paytable(path), sim_rounds=0)
    render(sheet)
    json.dumps(sheet_json(sheet))
    return time.perf_counter() - start
