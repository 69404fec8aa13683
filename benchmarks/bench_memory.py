"""The kiosk's memory over a long day: RSS after 100 and after 10,000 demo rounds (SPEC §11).

A fresh interpreter runs the real kiosk App headless on the busiest table
(Maryland's 7 spots, all nine seats on every wager, the demo's bot dealer and
players, sound on), through the controller and a real ledger, and reads its
resident set size from ``/proc/self/status`` after round 100 and after round
10,000. Target: the second within 10 % of the first — every cache bounded,
nothing kept per round.

To play 10,000 rounds in minutes instead of a day, the App's clock advances
a quarter of a second per frame and the table is drawn every
:data:`DRAW_EVERY` frames (each phase of every round is still drawn, so every
text, card, chip and wheel picture a round needs goes through the caches),
and the ledger lives in ``/dev/shm`` where there is one (memory is measured,
not the disk). Before each reading the work ahead (:mod:`etg.ui.ahead`) is let run to
its end and the garbage is collected, so the reading does not depend on how busy the
machine was or when the collector last ran.
``ETG_BENCH_ROUNDS`` plays fewer rounds for a quick look; ``rss_mb_10000`` is then null.
``quick`` plays :data:`QUICK_ROUNDS` rounds the same way and reads the RSS after the first
and the last, under the same keys (only ``etg bench --quick``'s ``"quick": true`` tells).
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROUNDS = int(os.environ.get("ETG_BENCH_ROUNDS", "10000"))
FIRST = 100
DRAW_EVERY = 4
FRAME_S = 0.25
QUICK_ROUNDS = 2


def measure(config_dir: Path, *, quick: bool = False) -> dict[str, object]:
    first, rounds = (1, QUICK_ROUNDS) if quick else (FIRST, ROUNDS)
    shm = Path("/dev/shm")
    folder = Path(tempfile.mkdtemp(prefix="etg-bench-memory-",
                                   dir=shm if shm.is_dir() else None))
    try:  # subprocess.run ends the child if this process is stopped meanwhile (etg.stop)
        result = subprocess.run([sys.executable, __file__, str(config_dir), str(folder),
                                 str(first), str(rounds)],
                                capture_output=True, text=True, timeout=4 * 3600)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if result.returncode != 0:
        raise RuntimeError(f"the kiosk's run failed (exit {result.returncode}): "
                           f"{result.stderr[-2000:]}")
    marks = {int(k): v for k, v in json.loads(result.stdout.splitlines()[-1]).items()}
    return {"rss_mb_100": marks.get(first),
            "rss_mb_10000": marks.get(rounds) if quick or rounds >= 10_000 else None}


def _play(config_dir: Path, folder: Path, first: int, rounds: int) -> dict[int, float]:
    """Play ``rounds`` demo rounds on a ledger in ``folder``; the RSS in MB after round
    ``first``, every thousandth and the last."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from etg.ui import heap

    heap.settle()  # first, as ``etg run`` does
    from etg.config.loader import load_cabinet, load_paytable
    from etg.core.rng import SeededSource
    from etg.ledger.store import Ledger, LedgerKind
    from etg.table.bots import busiest_bots
    from etg.table.controller import Table
    from etg.ui.app import App
    from etg.ui.demo import DemoDirector
    from etg.ui.display import open_window
    from etg.ui.options import RunOptions

    loaded = load_paytable(config_dir / "paytables" / "maryland-community-7.yaml")
    cabinet_file = config_dir / "cabinet.yaml"
    cabinet = load_cabinet(cabinet_file)
    table = Table.open(Ledger.open(folder / "memory.db", kind=LedgerKind.DEMO), loaded,
                       SeededSource(1))
    options = RunOptions(headless=True, demo=True)
    app = App(table, cabinet, cabinet_file, options, open_window(cabinet, options),
              director=DemoDirector(table, busiest_bots(loaded.paytable)))
    app.ready()
    marks: dict[int, float] = {}
    frame = 0
    while app.rounds_finished < rounds:
        frame += 1
        started = time.perf_counter()
        app.frame(FRAME_S, draw=frame % DRAW_EVERY == 0)
        app.idle(started + 1 / 60)  # as App.run: the work ahead between frames
        done = app.rounds_finished
        if (done in (first, rounds) or done % 1000 == 0) and done and done not in marks:
            # The work ahead finished first: how much of it a busy machine left undone by
            # round 100 must not decide what round 100 weighs; nor what garbage the
            # collector had not reached yet.
            app.idle(time.perf_counter() + 30.0)
            gc.collect()
            marks[done] = _rss_mb()  # every thousandth too: the trend, not only the ends
            print(json.dumps({done: marks[done]}), file=sys.stderr, flush=True)
        if app.table.tilted:
            raise RuntimeError(f"the table tilted: {app.table.tilt}")
    table.close()
    return marks


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError("no VmRSS in /proc/self/status")


if __name__ == "__main__":
    print(json.dumps(_play(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]),
                           int(sys.argv[4]))))
