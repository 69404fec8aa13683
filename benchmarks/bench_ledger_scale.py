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
  the most a table of players acting one at a time costs the disk. Both on a new
  ledger; ``disk_bytes_per_round_1m`` the grouped figure on a copy of the
  million-round ledger (a deeper file: more pages touched per commit?).
- The big ledgers (:data:`ROUNDS` rounds, and :data:`BIG_ROUNDS`) are built by the
  **bulk path**: the same controller, bots and bookkeeper, so the same entries,
  chained and keyed, with the same rolling checkpoints every 100 rounds; what
  differs is only that the build does not wait on the disk (the connection's
  ``synchronous=OFF``, the anchor moved once at the end instead of after every
  commit, no writer thread). Each is checked clean by ``verify --full`` when it is
  measured, so the bulk path is shown to have written a real ledger.
- ``ledger_bytes_per_round``: the file's size over its rounds (after a WAL
  checkpoint).
- ``startup_s_empty``, ``startup_s_10k`` and ``startup_s_1m``: ``Table.open`` as the
  kiosk does it, on a new ledger and on the big ones after a clean shutdown (the
  newest checkpoint, the start-up checks from it, the power-up entries and the
  start-up checkpoint; ``quick_check`` runs beside play): the three taken in turn,
  five times, so that a busy moment of the shared machine falls on all alike; the
  best of each.
- ``verify_full_rounds_per_s``: ``etg ledger verify --full --db FILE`` run as a
  command (its interpreter's start included), rounds over wall time, best of
  :data:`VERIFY_RUNS`; ``verify_full_peak_rss_mb`` its peak RSS, the largest of the
  command and its worker processes.
- ``export_peak_rss_mb``: the peak RSS of ``etg ledger export --format jsonl`` of
  the whole big ledger, run as a command (``export_s`` how long it took).

Each figure is given for each size (``_10k``, ``_1m``); the keys without a suffix
are the largest ledger's. The million-round ledger (``ETG_BENCH_LEDGER_1M``
rounds, a million unless it says otherwise; ``0`` leaves it out) takes about two
hours to build on two shared cores (about 220 rounds a second through the real
controller: 1 h 52 min here, while others' tests ran), and is kept in the cache directory
(``etg-bench-1000000.db`` and its anchor) for later runs, which reuse it when it
verifies from its newest checkpoint and holds its rounds (a build cut short is
played on to its size). ``ETG_BENCH_LEDGER_ROUNDS=N`` for a quick look at a
smaller first ledger.

``quick`` runs all of it on tiny ledgers, each figure once: :data:`QUICK_ROUNDS` and
:data:`QUICK_BIG_ROUNDS` rounds stand for the 10,000 and the million (under their keys,
``_10k`` and ``_1m``; only ``etg bench --quick``'s ``"quick": true`` tells), the second
built afresh in the temporary folder, never the cached one; :data:`QUICK_DURABLE_ROUNDS`
rounds for the bytes written.
"""

from __future__ import annotations

import os
import shutil
import signal
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
VERIFY_RUNS = 3
STARTUP_RUNS = 5
QUICK_ROUNDS = 20
QUICK_BIG_ROUNDS = 40
QUICK_DURABLE_ROUNDS = 3


def measure(config_dir: Path, *, quick: bool = False) -> dict[str, object]:
    cache = Path(platformdirs.user_cache_dir("etg", appauthor=False))
    cache.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="bench-scale-", dir=cache))  # the ledger's real disk
    loaded = load_paytable(config_dir / "paytables" / "maryland-community-7.yaml")
    rounds, big_rounds = (QUICK_ROUNDS, QUICK_BIG_ROUNDS) if quick else (ROUNDS, BIG_ROUNDS)
    durable = QUICK_DURABLE_ROUNDS if quick else DURABLE_ROUNDS
    runs = 1 if quick else VERIFY_RUNS
    figures: dict[str, object] = {"startup_s_1m": None}
    try:
        figures["disk_bytes_per_round"] = round(
            _disk_bytes_per_round(folder / "grouped.db", loaded, durable, grouped=True))
        figures["disk_bytes_per_round_each_alone"] = round(
            _disk_bytes_per_round(folder / "alone.db", loaded, durable, grouped=False))
        big = folder / "big.db"
        _build(big, loaded, rounds)
        label = _size(ROUNDS if quick else rounds)
        figures.update(_at_scale(big, rounds, label, runs))
        ledgers: dict[str, Path | None] = {"empty": None, label: big}
        if big_rounds:
            big_label = _size(BIG_ROUNDS if quick else big_rounds)
            huge = _cached(folder if quick else cache, loaded, big_rounds)
            figures.update(_at_scale(huge, big_rounds, big_label, runs))
            copy = folder / "huge.db"
            for suffix in ("", ".anchor"):
                shutil.copyfile(f"{huge}{suffix}", f"{copy}{suffix}")
            figures[f"disk_bytes_per_round_{big_label}"] = round(
                _disk_bytes_per_round(copy, loaded, durable, grouped=True))
            copy.unlink()
            ledgers[big_label] = huge
        figures.update(_startups(folder, loaded, ledgers, 1 if quick else STARTUP_RUNS))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return figures


def _at_scale(db: Path, rounds: int, label: str, runs: int) -> dict[str, object]:
    """The figures of one big ledger, each with its size's suffix (``label``) and without."""
    rate, verify_rss = _verify_full(db, rounds, runs)
    export_rss, export_s = _export(db)
    figures: dict[str, object] = {
        "ledger_bytes_per_round": round(db.stat().st_size / rounds),
        "verify_full_rounds_per_s": round(rate),
        "verify_full_peak_rss_mb": round(verify_rss, 1),
        "export_peak_rss_mb": round(export_rss, 1),
        "export_s": round(export_s, 1)}
    figures.update({f"{key}_{label}": value for key, value in list(figures.items())})
    return figures


def _startups(folder: Path, loaded: LoadedPaytable, ledgers: dict[str, Path | None],
              runs: int) -> dict[str, object]:
    """``startup_s_<size>`` of each ledger (``None``: a new one each time), taken in turn so
    that a busy moment of the machine falls on all of them alike; the best of ``runs``."""
    best: dict[str, float] = {}
    for attempt in range(runs):
        for size, db in ledgers.items():
            seconds = _startup(db or folder / f"{size}{attempt}.db", loaded)
            best[size] = min(best.get(size, seconds), seconds)
    return {f"startup_s_{size}": round(seconds, 3) for size, seconds in best.items()}


def _cached(cache: Path, loaded: LoadedPaytable, rounds: int) -> Path:
    """The big ledger from an earlier run if it is of this format and sound (one cut short is
    played on to its size), else built anew."""
    path = cache / f"etg-bench-{rounds}.db"
    if path.exists():
        try:
            store = Ledger.open_readonly(path)
            try:
                sound, done = not verify(store, file_check=False), store.round_count()
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


def _disk_bytes_per_round(db: Path, loaded: LoadedPaytable, rounds: int,
                          grouped: bool) -> float:
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
    for _ in range(rounds):
        driver.play_round(table.state)
        table.deliver(wait=True)
    written = _written() - before
    table.close()
    return written / rounds


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


def _verify_full(db: Path, rounds: int, runs: int) -> tuple[float, float]:
    """Rounds a second of ``etg ledger verify --full`` as a command, best of ``runs``, and its
    peak RSS (with its workers'); it must come back clean."""
    best, rss = 0.0, 0.0
    for _ in range(runs):
        start = time.perf_counter()
        done, peak = _command(["ledger", "verify", "--full", "--db", str(db)])
        seconds = time.perf_counter() - start
        if done.returncode != 0 or not done.stdout.strip().endswith(f"{rounds} rounds, clean"):
            raise RuntimeError(f"the bulk-built ledger does not verify: {done.stdout[-2000:]}"
                               f"{done.stderr[-2000:]}")
        best, rss = max(best, rounds / seconds), max(rss, peak)
    return best, rss


def _export(db: Path) -> tuple[float, float]:
    """Peak RSS (MB) and seconds of ``etg ledger export --format jsonl`` of the whole ledger."""
    start = time.perf_counter()
    done, peak = _command(["ledger", "export", "--db", str(db), "--format", "jsonl"],
                          keep=False)
    if done.returncode != 0:
        raise RuntimeError(f"export failed: {done.stderr[-2000:]}")
    return peak, time.perf_counter() - start


# Forks the command from a small interpreter and writes its peak RSS (KB) to the file named
# first: wait4 counts, in a child's peak, what it held when it forked (the image before
# exec), so the fork must come from a process smaller than any command measured.
_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, "-m", "etg", *sys.argv[2:]])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as peak:
    peak.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def _command(args: list[str], keep: bool = True) -> tuple[Any, float]:
    """``etg ARGS`` in a process of its own: its result (standard output kept if ``keep``), and
    the peak RSS (MB) of it and of the processes it waited for, read by ``wait4`` of that one
    process (the children this process had before do not count, as they would in
    ``getrusage(RUSAGE_CHILDREN)``), forked by a small launcher (:data:`_LAUNCHER`): forked
    from this process, the command's peak would be at least this process's size."""
    with (tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err,
          tempfile.TemporaryDirectory() as folder):
        peak = Path(folder) / "peak-kb"
        process = subprocess.Popen([sys.executable, "-c", _LAUNCHER, str(peak), *args],
                                   text=True, stdout=out if keep else subprocess.DEVNULL,
                                   stderr=err, start_new_session=True)
        try:
            code = process.wait()
        except BaseException:  # this process stopped (SIGTERM, etg.stop): the command with it
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            raise
        out.seek(0)
        err.seek(0)
        return (subprocess.CompletedProcess(args, code, out.read(), err.read()),
                int(peak.read_text()) / 1024)


def _written() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("write_bytes:"):
            return int(line.split()[1])
    raise RuntimeError("no write_bytes in /proc/self/io")
