"""``etg floor serve``: the floor's PostgreSQL in the foreground, as its own process; stopped
cleanly by SIGTERM, and its data still there at the next start."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from etg.floor import reads

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
PAYTABLE = ROOT / "config/paytables/maryland-community-5.yaml"


@pytest.fixture
def reachable_folder() -> Iterator[Path]:
    """Under the temporary directory: run as root, the server's user nobody must get in."""
    folder = Path(tempfile.mkdtemp(prefix="etg-floor-serve-"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _serve(data: Path) -> tuple[subprocess.Popen[str], str, str]:
    process = subprocess.Popen([sys.executable, "-m", "etg", "floor", "serve", "--data",
                                str(data), "--port", "0"], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    first, second = process.stdout.readline(), process.stdout.readline()
    assert first.startswith("ETG_FLOOR_URI="), first + (process.stderr.read() if
                                                         process.poll() is not None else "")
    return process, first.strip().split("=", 1)[1], second


def _stop(process: subprocess.Popen[str]) -> tuple[int, str]:
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    return process.returncode, err


def test_serve_runs_the_floor_until_sigterm_and_keeps_its_data(reachable_folder: Path) -> None:
    data = reachable_folder / "floor"
    process, uri, where = _serve(data)
    try:
        assert where.startswith("tables connect to 127.0.0.1:")
        done = subprocess.run([sys.executable, "-m", "etg", "floor", "init", "--floor", uri,
                               "--paytable", str(PAYTABLE), "--table", "t01", "--host",
                               "127.0.0.1", "--port", where.split(":")[1].split(";")[0],
                               "--json"], cwd=ROOT, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        table_uri = json.loads(done.stdout)["tables"][0]["uri"]
        with psycopg.connect(table_uri, autocommit=True) as conn:  # a table over TCP
            conn.execute("SELECT floor.heartbeat('t01', 'closed', NULL, 0)")
    finally:
        code, err = _stop(process)
    assert code == 0, err
    assert not (data / "postmaster.pid").exists()

    process, uri, _ = _serve(data)  # the same folder again: the floor is still there
    try:
        with psycopg.connect(uri, autocommit=True) as conn:
            assert [t.table_id for t in reads.tables(conn)] == ["t01"]
            assert reads.tables(conn)[0].last_heartbeat is not None
    finally:
        code, err = _stop(process)
    assert code == 0, err


def test_serve_says_in_one_line_when_the_folder_is_no_data_directory(
        reachable_folder: Path) -> None:
    (reachable_folder / "notes.txt").write_text("not a database\n")
    done = subprocess.run([sys.executable, "-m", "etg", "floor", "serve", "--data",
                           str(reachable_folder)], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2
    assert done.stderr == (f"etg floor serve: {reachable_folder} is neither empty nor a "
                           f"PostgreSQL data directory\n")
