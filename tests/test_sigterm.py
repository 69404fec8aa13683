"""SIGTERM (systemd's stop, ``timeout``, ``kill``) stops each long-running command within 5 s.

Each command runs as a real process; the test waits until it is really at work
(a ledger round, a benchmark started, its SIGTERM handler in place), sends a
real SIGTERM, and looks at how it ended: the exit code, and for the commands
that write a ledger, the shutdown record and a clean ``etg ledger verify``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from etg import stop
from etg.ledger.store import Ledger, LedgerError
from tests.ledger_support import MD5

ROOT = Path(__file__).resolve().parent.parent
STOP_S = 5.0  # systemd's stop expects the kiosk gone within its timeout; ours is 5 s
START_S = 180.0  # a start on two shared cores, busy with other tests


@pytest.fixture
def started(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[str]]]:
    """``etg ARGS`` in a process of its own (its standard error to a file); killed at the end
    if a failed test left it running."""
    processes: list[subprocess.Popen[str]] = []
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}

    def start(*args: str) -> subprocess.Popen[str]:
        err = (tmp_path / f"stderr-{len(processes)}").open("w+")
        process = subprocess.Popen([sys.executable, "-m", "etg", *args], cwd=ROOT, env=env,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=err, text=True)
        process.stderr = err
        processes.append(process)
        return process

    yield start
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait()
        assert process.stderr is not None
        process.stderr.close()


def wait_until(process: subprocess.Popen[str], ready: Callable[[], bool]) -> None:
    deadline = time.monotonic() + START_S
    while not ready():
        assert process.poll() is None, f"it ended first: {stderr_of(process)}"
        assert time.monotonic() < deadline, "it never got to work"
        time.sleep(0.05)


def stderr_of(process: subprocess.Popen[str]) -> str:
    assert process.stderr is not None
    process.stderr.seek(0)
    return process.stderr.read()


def handles_sigterm(pid: int) -> bool:
    """Whether the process has a handler of its own for SIGTERM (``SigCgt`` of /proc)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:  # it ended: wait_until says how
        return False
    for line in status.splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return False


def sigterm(process: subprocess.Popen[str]) -> int:
    """Send SIGTERM; the exit code, which must come within :data:`STOP_S`."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=STOP_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running {STOP_S} s after SIGTERM: {stderr_of(process)[-2000:]}")


def rounds_in(db: Path) -> int:
    try:
        ledger = Ledger.open_readonly(db)
    except LedgerError:  # not made yet
        return 0
    try:
        return ledger.round_count()
    finally:
        ledger.close()


def closed_cleanly(db: Path) -> None:
    """The ledger's last event is the shutdown, and it verifies clean."""
    ledger = Ledger.open_readonly(db)
    try:
        assert [e["kind"] for e in ledger.event_log()][-1] == "shutdown"
    finally:
        ledger.close()
    done = subprocess.run([sys.executable, "-m", "etg", "ledger", "verify", "--json", "--db",
                           str(db)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["clean"] is True


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.slow
def test_the_headless_demo_kiosk_shuts_down_cleanly_on_sigterm(
        tmp_path: Path, started: Callable[..., subprocess.Popen[str]]) -> None:
    db = tmp_path / "demo.db"
    kiosk = started("run", "--headless", "--demo", "--seed", "5", "--db", str(db))
    wait_until(kiosk, lambda: rounds_in(db) >= 1)  # SDL is up: the table plays
    assert sigterm(kiosk) == 0
    assert stderr_of(kiosk).endswith(
        "etg run: SIGTERM: the table shut down, its ledger closed\n")
    closed_cleanly(db)


@pytest.mark.slow
def test_autoplay_finishes_its_commit_closes_the_ledger_and_resumes_after_sigterm(
        tmp_path: Path, started: Callable[..., subprocess.Popen[str]]) -> None:
    db = tmp_path / "auto.db"
    args = ("autoplay", "--db", str(db), "--seed", "3", "--paytable", str(MD5))
    play = started(*args, "--rounds", "100000")
    wait_until(play, lambda: rounds_in(db) >= 1)
    assert sigterm(play) == stop.EXIT_CODE
    done = rounds_in(db)
    assert stderr_of(play).endswith(
        f"{done} rounds in {db}\netg autoplay: stopped by SIGTERM\n")
    closed_cleanly(db)
    again = started(*args, "--rounds", str(done + 1))  # run again, it plays on
    assert again.wait(timeout=START_S) == 0, stderr_of(again)
    assert rounds_in(db) == done + 1
    closed_cleanly(db)


@pytest.mark.slow
def test_sim_stops_where_it_is_on_sigterm(
        started: Callable[..., subprocess.Popen[str]]) -> None:
    sim = started("sim", str(MD5), "--rounds", "1000000000", "--json")
    wait_until(sim, lambda: handles_sigterm(sim.pid))
    time.sleep(1.0)  # into the simulation proper
    assert sigterm(sim) == stop.EXIT_CODE
    assert stderr_of(sim).endswith("etg sim: stopped by SIGTERM\n")


@pytest.mark.slow
def test_bench_stops_on_sigterm_with_pygame_up_and_leaves_nothing_behind(
        tmp_path: Path, started: Callable[..., subprocess.Popen[str]]) -> None:
    # The frame benchmark's whole rounds: pygame initialised in this very process, where SDL
    # once turned SIGTERM into a quit event nobody read. Then the memory benchmark's child.
    cache = tmp_path / "cache" / "etg"
    bench = started("bench", "--only", "frame", "--only", "memory")  # the real workloads
    wait_until(bench, lambda: any(cache.glob("bench-frame-*/*.db")))
    time.sleep(2.0)  # the kiosk's App up on SDL's dummy display, frames running
    assert sigterm(bench) == stop.EXIT_CODE
    assert stderr_of(bench).endswith("etg bench: stopped by SIGTERM\n")
    assert list(cache.iterdir()) == []  # its temporary ledgers removed


@pytest.mark.slow
def test_bench_ends_the_benchmark_s_own_process_with_it(
        tmp_path: Path, started: Callable[..., subprocess.Popen[str]]) -> None:
    bench = started("bench", "--only", "memory")
    wait_until(bench, lambda: bool(children_of(bench.pid)))
    (child,) = children_of(bench.pid)
    time.sleep(1.0)
    assert sigterm(bench) == stop.EXIT_CODE
    assert not Path(f"/proc/{child}").exists()  # the kiosk it measured ended (and was reaped)
