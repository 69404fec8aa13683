"""The single-writer lock, with real processes: a holder is named, a killed holder frees the ledger.

No mocks: holders are real ``python -c`` subprocesses. Each one prints ``held``
once it has the lock, and the test waits for that line (with a timeout) before
contending, so nothing depends on sleeping and hoping.
"""

from __future__ import annotations

import ast
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from etg.ledger.lock import LedgerInUse, WriterLock

ROOT = Path(__file__).resolve().parent.parent
HANDSHAKE_SECONDS = 30.0

# Takes the ledger's writer lock through WriterLock, the way the kiosk does.
WRITER = """
import sys, time
from pathlib import Path
from etg.ledger.lock import WriterLock
lock = WriterLock(Path(sys.argv[1]))
lock.acquire()
print("held", flush=True)
time.sleep(3600)
"""

# Holds a bare flock on <ledger>.lock and writes no pid: a holder whose pid cannot be read.
BARE_FLOCK = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1] + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("held", flush=True)
time.sleep(3600)
"""

Holder = Callable[[str, Path], "subprocess.Popen[str]"]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "ledger.db"


@pytest.fixture
def holder() -> Iterator[Holder]:
    """Start a process running ``script`` on a ledger; return once it has printed ``held``."""
    started: list[subprocess.Popen[str]] = []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}

    def start(script: str, db_path: Path) -> subprocess.Popen[str]:
        proc = subprocess.Popen([sys.executable, "-c", script, str(db_path)], cwd=ROOT, env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        started.append(proc)
        lines: queue.Queue[str] = queue.Queue()
        stdout = proc.stdout
        assert stdout is not None
        threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
        try:
            line = lines.get(timeout=HANDSHAKE_SECONDS)
        except queue.Empty:
            proc.kill()
            pytest.fail(f"holder printed nothing within {HANDSHAKE_SECONDS}s")
        if line != "held\n":
            proc.kill()
            _, err = proc.communicate(timeout=HANDSHAKE_SECONDS)
            pytest.fail(f"holder did not take the lock: stdout {line!r}, stderr {err!r}")
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=HANDSHAKE_SECONDS)


def sigkill(proc: subprocess.Popen[str]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=HANDSHAKE_SECONDS) == -signal.SIGKILL


def test_a_second_writer_process_is_refused_naming_the_holder_and_freed_by_sigkill(
        holder: Holder, db: Path) -> None:
    proc = holder(WRITER, db)
    lock = WriterLock(db)
    for _ in range(2):  # a refusal leaves the holder's pid in place: the second one names it too
        with pytest.raises(LedgerInUse) as refused:
            lock.acquire()
        assert str(refused.value) == f"ledger {db} is in use by pid {proc.pid}"
        assert refused.value.pid == proc.pid
        assert refused.value.db_path == db
        assert not lock.held
    assert lock.pid_path.read_text() == f"{proc.pid}\n"

    sigkill(proc)  # no release, no cleanup: the kernel drops the flock with the process
    lock.acquire()
    try:
        assert lock.held
        assert lock.pid_path.read_text() == f"{os.getpid()}\n"
    finally:
        lock.release()


def test_a_writer_process_is_refused_while_this_process_holds_the_lock(
        db: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    probe = ("import sys\nfrom pathlib import Path\nfrom etg.ledger.lock import LedgerInUse, WriterLock\n"
             "try:\n    WriterLock(Path(sys.argv[1])).acquire()\n"
             "except LedgerInUse as e:\n    print(e, e.pid)\nelse:\n    print('acquired')\n")
    with WriterLock(db):
        result = subprocess.run([sys.executable, "-c", probe, str(db)], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=HANDSHAKE_SECONDS, check=True)
    assert result.stdout == f"ledger {db} is in use by pid {os.getpid()} {os.getpid()}\n"


def test_acquire_release_acquire_in_one_process(db: Path) -> None:
    lock = WriterLock(db)
    assert not lock.held
    lock.acquire()
    assert lock.held
    lock.release()
    assert not lock.held
    lock.acquire()
    assert lock.held
    lock.release()
    assert not lock.held


def test_two_writer_locks_in_one_process_refuse_each_other(db: Path) -> None:
    first, second = WriterLock(db), WriterLock(db)
    first.acquire()
    try:
        with pytest.raises(LedgerInUse) as refused:
            second.acquire()
        assert str(refused.value) == f"ledger {db} is in use by pid {os.getpid()}"
        assert refused.value.pid == os.getpid()
        assert first.held and not second.held
    finally:
        first.release()
    second.acquire()  # free once the first lets go
    try:
        with pytest.raises(LedgerInUse):
            first.acquire()
    finally:
        second.release()


def test_context_manager_holds_for_the_block_and_releases_after(db: Path) -> None:
    with WriterLock(db) as lock:
        assert lock.held
        with pytest.raises(LedgerInUse):
            WriterLock(db).acquire()
    assert not lock.held
    with WriterLock(db) as again:
        assert again.held


def test_context_manager_releases_when_the_block_raises(db: Path) -> None:
    lock = WriterLock(db)
    with pytest.raises(ValueError, match="boom"), lock:
        raise ValueError("boom")
    assert not lock.held
    with WriterLock(db):
        pass


def test_files_beside_the_ledger_and_release_keeps_the_lock_file(db: Path) -> None:
    lock = WriterLock(db)
    assert lock.lock_path == db.with_name("ledger.db.lock")
    assert lock.pid_path == db.with_name("ledger.db.pid")
    lock.acquire()
    assert lock.lock_path.exists()
    assert lock.pid_path.read_text() == f"{os.getpid()}\n"
    lock.release()
    assert lock.lock_path.exists(), "the lock file is never deleted: that races another acquirer"
    assert lock.pid_path.read_text() == "", "a released lock names no holder"
    assert not db.exists(), "the lock never creates the ledger itself"


def test_release_when_not_held_does_nothing(db: Path) -> None:
    lock = WriterLock(db)
    lock.release()
    lock.acquire()
    lock.release()
    lock.release()
    assert not lock.held


def test_acquiring_a_lock_this_object_already_holds_is_an_error(db: Path) -> None:
    with WriterLock(db) as lock:
        with pytest.raises(RuntimeError, match="already held") as raised:
            lock.acquire()
        assert not isinstance(raised.value, LedgerInUse)
        assert lock.held


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(timeout=HANDSHAKE_SECONDS)
    return proc.pid


@pytest.mark.parametrize("pid_file", [
    None,            # no pid file at all
    "",              # empty: a holder between taking the lock and writing its pid
    "not a pid\n",   # unreadable
    "-5\n",          # not a pid
    "dead",          # the pid of a process that has exited
])
def test_a_holder_whose_pid_is_unknown_is_another_process(
        holder: Holder, db: Path, pid_file: str | None) -> None:
    holder(BARE_FLOCK, db)
    lock = WriterLock(db)
    if pid_file == "dead":
        pid_file = f"{dead_pid()}\n"
    if pid_file is not None:
        lock.pid_path.write_text(pid_file)
    with pytest.raises(LedgerInUse) as refused:
        lock.acquire()
    assert str(refused.value) == f"ledger {db} is in use by another process"
    assert refused.value.pid is None
    assert refused.value.db_path == db
    assert not lock.held


def test_ledger_in_use_messages() -> None:
    path = Path("/var/lib/etg/ledger.db")
    assert str(LedgerInUse(path, 4242)) == "ledger /var/lib/etg/ledger.db is in use by pid 4242"
    assert str(LedgerInUse(path, None)) == "ledger /var/lib/etg/ledger.db is in use by another process"
    assert isinstance(LedgerInUse(path, None), RuntimeError)


def test_the_lock_module_imports_no_pygame_and_nothing_of_etg() -> None:
    source = (ROOT / "etg" / "ledger" / "lock.py").read_text(encoding="utf-8")
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert not node.level, "no relative imports"
            names.add(node.module or "")
    tops = {name.split(".")[0] for name in names}
    assert "pygame" not in tops
    assert "etg" not in tops, sorted(names)


@pytest.mark.slow  # a holder process
def test_a_hard_link_to_a_held_ledger_is_refused_on_the_file_identity(
        holder: Holder, tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    db.write_bytes(b"the ledger")  # the lock never reads it: any existing file will do
    proc = holder(WRITER, db)
    other = tmp_path / "elsewhere" / "other.db"
    other.parent.mkdir()
    os.link(db, other)  # another name, another .lock beside it: on main the lock was taken
    with pytest.raises(LedgerInUse) as refused:
        WriterLock(other).acquire()
    assert str(refused.value) == f"ledger {other} is in use by another process"
    db.unlink()  # the first name gone, one link left: the file is still the one held
    lock = WriterLock(other)
    with pytest.raises(LedgerInUse):
        lock.acquire()
    assert not lock.held
    sigkill(proc)  # the kernel drops both locks with the holder
    with WriterLock(other) as again:
        assert again.held


def test_the_identity_lock_is_let_go_with_the_name_lock(db: Path) -> None:
    db.write_bytes(b"the ledger")
    link = db.with_name("link.db")
    os.link(db, link)
    with WriterLock(db), pytest.raises(LedgerInUse):
        WriterLock(link).acquire()
    with WriterLock(link) as lock:  # released: the other name may take it now
        assert lock.held
