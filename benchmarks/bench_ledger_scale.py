"""The ledger over a long life: bytes per round, start-up, full verify and export (SPEC §11).

Workload: ``maryland-community-7.yaml`` with all nine seats on every wager
(:func:`etg.table.bots.busiest_bots`: Initial, Tie, Progressive Payout and Bonus Spin;
REPEAT from the second round), played by the bots through the real controller,
so every entry is the real record format.

- ``disk_bytes_per_round``: bytes this process wrote to the storage layer
  (``write_bytes`` of ``/proc/self/io``: the database, its WAL, checkpoints
  of the WAL back into the file, and the anchor) per round, over
  :data:`DURABLE_ROUNDS` rounds played with ``synchronous=FULL`` as in play,
  through the kiosk's writer thread: the bots press as one would expect a full
  table to (every seat's REPEAT at the opening of betting), so commands that
  arrive while an fsync is in flight are committed together.
  ``disk_bytes_per_round_each_alone`` is the same rounds with every command
  committed (and fsynced, with its anchor) on its own before the next is sent:
  the most a table of players acting one at a time costs the disk.
- The big ledger (:data:`ROUNDS` rounds) is built by the **bulk path**: the
  same controller and entries, with the connection's ``synchronous=OFF`` so the
  build does not wait on the disk; nothing else differs, and it is checked
  clean with ``verify --full`` before it is measured.
- ``ledger_bytes_per_round``: the file's size over its rounds (after a WAL
  checkpoint).
- ``startup_s_empty`` and ``startup_s_10k``: ``Table.open`` as the kiosk does it,
  on a fresh ledger and on the big one (rebuild from the newest checkpoint, the
  start-up checks, the power-up entries; ``quick_check`` runs beside play),
  best of three.
- ``verify_full_rounds_per_s``: ``verify --full`` of the big ledger.
- ``export_peak_rss_mb``: the peak RSS of ``etg ledger export --format jsonl``
  of the big ledger, in a child process.

- ``startup_s_1m``, and ``verify_full_rounds_per_s`` and ``export_peak_rss_mb``
  on it: a ledger of :data:`BIG_ROUNDS` rounds (a million unless
  ``ETG_BENCH_LEDGER_1M`` says otherwise; ``0`` leaves it out) built by the
  same bulk path — about 2.3 GB and a quarter of an hour on two cores — and
  kept in the cache directory for later runs (``etg-bench-<rounds>.db``, reused
  when it still verifies from its newest checkpoint and was built by this
  ledger format). Start-up on it is the kiosk's after a clean shutdown.
"""

from __future__ import annotations

import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import platformdirs

from etg.config.loader import LoadedPaytable, load_paytable
from etg.core.rng import SeededSource
from etg.ledger.store import Ledger, LedgerError
from etg.ledger.verify import verify
from etg.table.bots import RoundDriver, busiest_bots
from etg.table.controller import Table, _actor_of

ROUNDS = int(os.environ.get("ETG_BENCH_LEDGER_ROUNDS", "10000"))
BIG_ROUNDS = int(os.environ.get("ETG_BENCH_LEDGER_1M", "1000000"))
DURABLE_ROUNDS = 50


def measure(config_dir: Path) -> dict[str, object]:
    cache = Path(platformdirs.user_cache_dir("etg", appauthor=False))
    cache.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="bench-scale-", dir=cache))  # the ledger's real disk
    loaded = load_paytable(config_dir / "paytables" / "maryland-community-7.yaml")
    try:
        grouped = _disk_bytes_per_round(folder / "grouped.db", loaded, grouped=True)
        alone = _disk_bytes_per_round(folder / "alone.db", loaded, grouped=False)
        big = folder / "big.db"
        _build(big, loaded, ROUNDS)
        stored = big.stat().st_size / ROUNDS
        empty = min(_startup(folder / f"empty{i}.db", loaded) for i in range(3))
        full = min(_startup(big, loaded) for _ in range(3))
        rate = _verify_rate(big)
        rss = _export_peak_rss_mb(big)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    figures: dict[str, object] = {
        "ledger_bytes_per_round": round(stored), "disk_bytes_per_round": round(grouped),
        "disk_bytes_per_round_each_alone": round(alone),
        "startup_s_empty": round(empty, 3), f"startup_s_{_size(ROUNDS)}": round(full, 3),
        "startup_s_1m": None, "verify_full_rounds_per_s": round(rate),
        "export_peak_rss_mb": round(rss, 1)}
    if BIG_ROUNDS:
        huge = _cached(cache, loaded, BIG_ROUNDS)
        figures.update({f"startup_s_{_size(BIG_ROUNDS)}": round(min(
            _startup(huge, loaded) for _ in range(3)), 3),
            "verify_full_rounds_per_s": round(_verify_rate(huge)),
            "export_peak_rss_mb": round(_export_peak_rss_mb(huge), 1),
            f"ledger_bytes_per_round_{_size(BIG_ROUNDS)}": round(huge.stat().st_size
                                                                 / BIG_ROUNDS)})
    return figures


def _cached(cache: Path, loaded: LoadedPaytable, rounds: int) -> Path:
    """The big ledger from an earlier run if it is of this format and sound (one cut short is
    played on to its size), else built anew."""
    path = cache / f"etg-bench-{rounds}.db"
    if path.exists():
        try:
            store = Ledger.open_readonly(path)
            try:
                sound, done = not verify(store), store.round_count()
            finally:
                store.close()
        except LedgerError:
            sound, done = False, 0
        if sound and done == rounds:
            return path
        if not sound:
            for stale in (path, path.with_name(path.name + ".anchor")):
                stale.unlink(missing_ok=True)
            done = 0
        _build(path, loaded, rounds - done)
        return path
    _build(path, loaded, rounds)
    return path


def _size(rounds: int) -> str:
    if rounds % 1_000_000 == 0:
        return f"{rounds // 1_000_000}m"
    return f"{rounds // 1000}k" if rounds % 1000 == 0 else str(rounds)


def _play(table: Table, rounds: int) -> None:
    driver = RoundDriver(busiest_bots(table.state.paytable), SeededSource(2), table.apply,
                         repeat=True)
    for _ in range(rounds):
        driver.play_round(table.state)


def _disk_bytes_per_round(db: Path, loaded: LoadedPaytable, grouped: bool) -> float:
    """Bytes written a round: the bots' commands through the writer thread (``grouped``:
    submitted as fast as the engine takes them, the screen's delivery at each round's end),
    or each committed alone before the next is sent."""
    table = Table.open(Ledger.open(db), loaded, SeededSource(1))
    _play(table, 2)  # the first shuffle and the REPEAT set-up are not a typical round
    if grouped:
        table.start_writer()
    driver = RoundDriver(busiest_bots(table.state.paytable), SeededSource(2),
                         _submitting(table) if grouped else table.apply, repeat=True)
    before = _written()
    for _ in range(DURABLE_ROUNDS):
        driver.play_round(table.state)
        table.deliver(wait=True)
    written = _written() - before
    table.close()
    return written / DURABLE_ROUNDS


def _submitting(table: Table) -> Any:
    def apply(state: Any, command: Any) -> Any:
        events = table.submit(command, actor=_actor_of(command))
        return table.state, events
    return apply


def _build(db: Path, loaded: LoadedPaytable, rounds: int) -> None:
    table = Table.open(Ledger.open(db), loaded, SeededSource(1))
    # The bulk path: no waiting on the disk (no fsync of the WAL, the anchor moved once at
    # the end instead of after every commit); the entries are the kiosk's own.
    table.ledger.conn.execute("PRAGMA synchronous=OFF")
    table.ledger.anchor_paused = True
    _play(table, rounds)
    table.ledger.anchor_paused = False
    table.close()
    conn = sqlite3.connect(db)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file, to be measured
    finally:
        conn.close()


def _startup(db: Path, loaded: LoadedPaytable) -> float:
    """The kiosk's start-up: every check before play but ``quick_check``, which it runs beside."""
    start = time.perf_counter()
    table = Table.open(Ledger.open(db), loaded, SeededSource(3), defer_file_check=True)
    seconds = time.perf_counter() - start
    table.close()
    return seconds


def _verify_rate(db: Path) -> float:
    """Rounds a second of ``verify --full``; it must come back clean (the bulk path is real)."""
    store = Ledger.open_readonly(db)
    try:
        with store.reading():
            rounds = store.round_count()
        start = time.perf_counter()
        problems = verify(store, full=True)
        seconds = time.perf_counter() - start
    finally:
        store.close()
    if problems:
        raise RuntimeError(f"the bulk-built ledger does not verify: {problems[:3]}")
    return rounds / seconds


def _export_peak_rss_mb(db: Path) -> float:
    subprocess.run([sys.executable, "-m", "etg", "ledger", "export", "--db", str(db),
                    "--format", "jsonl"], stdout=subprocess.DEVNULL, check=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def _written() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    raise RuntimeError("no write_bytes in /proc/self/io")
