"""Durable commits: latency of one state change through the controller, and the ratio of
our commit rate to a bare sqlite3 loop with the same pragmas on the same disk, in one run.

Both write into the per-user cache directory, on the disk the ledger uses by
default (never a RAM disk, which would flatter both). ``quick``: a few rounds and
commits of each, the same code.
"""

from __future__ import annotations

import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import platformdirs

from etg.config.loader import load_paytable
from etg.core.commands import Command
from etg.core.events import Event
from etg.core.rng import SeededSource
from etg.core.state import TableState
from etg.ledger.freshness import AnchorCopy
from etg.ledger.store import Ledger
from etg.table.bots import RoundDriver, standard_bots
from etg.table.controller import Table

ROUNDS = 150
BARE_COMMITS = 2_000
QUICK_ROUNDS = 3
QUICK_BARE_COMMITS = 50


def measure(config_dir: Path, *, quick: bool = False) -> dict[str, object]:
    cache = Path(platformdirs.user_cache_dir("etg", appauthor=False))
    cache.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="bench-", dir=cache))
    try:
        latencies = _our_commits(folder / "ledger.db", config_dir,
                                 QUICK_ROUNDS if quick else ROUNDS)
        bare_rate = _bare_commits(folder / "bare.db", QUICK_BARE_COMMITS if quick else BARE_COMMITS)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ours_rate = len(latencies) / sum(latencies)
    ms = sorted(x * 1_000 for x in latencies)
    return {"commit_ms": {"p50": round(statistics.median(ms), 3),
                          "p99": round(ms[int(0.99 * (len(ms) - 1))], 3)},
            "commit_rate_ratio": round(ours_rate / bare_rate, 3)}


def _our_commits(db: Path, config_dir: Path, rounds: int, copy: bool = True) -> list[float]:
    """``copy``: the anchor's copy kept beside the commits, as a cabinet without a TPM keeps it
    (issue 25: after each anchor, on the writer's side; here in the same temporary folder)."""
    loaded = load_paytable(config_dir / "paytables" / "maryland-community-5.yaml")
    ledger = Ledger.open(db)
    if copy:
        ledger.use_freshness(AnchorCopy(db.parent / "anchors"))
    table = Table.open(ledger, loaded, SeededSource(1))
    latencies: list[float] = []

    def timed(state: TableState, command: Command) -> tuple[TableState, list[Event]]:
        start = time.perf_counter()
        events = table.send(command)
        latencies.append(time.perf_counter() - start)
        return table.state, events

    driver = RoundDriver(standard_bots(loaded.paytable), SeededSource(2), timed)
    for _ in range(rounds):
        driver.play_round(table.state)
    table.close()
    return latencies


def _bare_commits(db: Path, commits: int) -> float:
    """A bare loop: one small row per transaction, WAL and synchronous=FULL, as the ledger."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
    payload = "x" * 200
    start = time.perf_counter()
    for _ in range(commits):
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t (payload) VALUES (?)", [payload])
        conn.execute("COMMIT")
    seconds = time.perf_counter() - start
    conn.close()
    return commits / seconds
