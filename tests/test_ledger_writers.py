"""One writer per ledger, and audits beside it: a second writer is refused, verify never errs.

Real processes: ``etg autoplay`` writes while a second writer is started and
while ``etg ledger verify`` runs again and again on the same file.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from etg.ledger.chain import anchor_path
from tests.ledger_support import MD5

ETG = [sys.executable, "-m", "etg"]


def _writing(db: Path) -> subprocess.Popen[bytes]:
    """A long autoplay on ``db``, returned once it has committed."""
    process = subprocess.Popen([*ETG, "autoplay", "--db", str(db), "--rounds", "1000000",
                                "--seed", "4", "--paytable", str(MD5)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not anchor_path(db).exists():
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return process


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)


@pytest.mark.slow
def test_a_second_writer_is_refused_naming_the_first(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    first = _writing(db)
    try:
        for args in (["autoplay", "--db", str(db), "--rounds", "5", "--paytable", str(MD5)],
                     ["run", "--headless", "--demo", "--rounds", "1", "--db", str(db)]):
            second = subprocess.run([*ETG, *args], capture_output=True, text=True, timeout=120)
            assert second.returncode == 2
            assert second.stderr.strip() == f"ledger {db} is in use by pid {first.pid}"
    finally:
        _stop(first)
    after = subprocess.run([*ETG, "autoplay", "--db", str(db), "--rounds", "1",
                            "--paytable", str(MD5)], capture_output=True, text=True, timeout=120)
    assert after.returncode == 0, after.stderr  # the kernel let the lock go with the process


@pytest.mark.slow
def test_verify_beside_a_writing_autoplay_is_always_clean(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    writer = _writing(db)
    outcomes: list[str] = []
    try:
        for _ in range(12):
            for args in (["ledger", "verify", "--json", "--db", str(db)],
                         ["ledger", "verify", "--json", "--full", "--db", str(db)]):
                done = subprocess.run([*ETG, *args], capture_output=True, text=True, timeout=120)
                if done.returncode != 0 or json.loads(done.stdout)["clean"] is not True:
                    outcomes.append(done.stdout + done.stderr)
        assert writer.poll() is None, "the writer must still be writing"
    finally:
        _stop(writer)
    assert outcomes == []
    tilts = subprocess.run([*ETG, "ledger", "tilts", "--db", str(db), "--json"],
                           capture_output=True, text=True, timeout=60)
    assert tilts.returncode == 0 and '"tilts": []' in tilts.stdout  # verify wrote no tilt
