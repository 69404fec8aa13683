"""The ledger's single-writer lock: one process writes a ledger, for its whole life.

The kiosk and ``etg autoplay`` hold an exclusive OS lock (``flock``) on
``<ledger>.lock`` beside the ledger for as long as they run; a second writer is
refused with one line naming the holder (:class:`LedgerInUse`). The kernel
drops the lock when the holder's process dies, however it dies, so a crashed or
killed kiosk never leaves the ledger locked. The lock file is left in place on
release: deleting a lock file races with another process acquiring it.

The lock is also held on the ledger file's identity (its device and inode),
not only on its name: a ``flock`` on the ledger file itself, taken when the file
exists. A second name for the same file (a hard link, a symlink, a bind mount)
has another ``.lock`` beside it but the same inode, so a writer through it is
refused as well (issue 25, finding 9: a checkpoint through a hard link, with a
``-wal`` of its own, corrupted the ledger). SQLite's own locks are POSIX record
locks (``fcntl``), which Linux keeps apart from ``flock``: the two never meet.
A ledger the run itself creates is held on its name alone until the next start;
:func:`etg.ledger.ledger_file.check_single_link` refuses a second link to it.

The holder's pid lives in a separate ``<ledger>.pid`` file, written only while
the lock is held and cleared on release; a refused writer reads it to name the
holder, and says "another process" when it is missing, unreadable or names a
process that no longer exists.

A small fcntl lock of our own was considered because older filelock releases
opened the lock file with ``O_TRUNC`` before locking, but the installed
filelock (4.2.12, ``filelock/_unix.py``: "No O_TRUNC: a contender that loses
the flock must not truncate the holder's file") does not, so the lock is built
on filelock's ``UnixFileLock`` and the pid is kept in its own ``.pid`` file,
which no version of filelock touches.

POSIX only (the cabinet runs Linux): on a platform without ``fcntl``,
:meth:`WriterLock.acquire` raises :class:`OSError` (``ENOSYS``) saying so.
"""

from __future__ import annotations

import contextlib
import errno
import importlib.util
import os
from pathlib import Path
from types import TracebackType
from typing import Self

from filelock import Timeout, UnixFileLock

__all__ = ["LedgerInUse", "WriterLock"]

_HAS_FLOCK = os.name == "posix" and importlib.util.find_spec("fcntl") is not None
_UNSUPPORTED = (
    "the ledger's single-writer lock needs POSIX flock (the fcntl module), "
    "which this platform does not have; ETG writers run on Linux"
)
_PID_BYTES = 32  # far more than any pid line needs


class LedgerInUse(RuntimeError):
    """Another process (or another lock object in this one) holds the ledger's writer lock."""

    def __init__(self, db_path: Path, pid: int | None) -> None:
        self.db_path = db_path
        self.pid = pid
        holder = "another process" if pid is None else f"pid {pid}"
        super().__init__(f"ledger {db_path} is in use by {holder}")


class WriterLock:
    """The exclusive writer lock of the ledger at ``db_path``.

    Hold it for the writer process's whole life: ``acquire()`` once at start
    (or ``with WriterLock(path):``), ``release()`` at the end. Keep the object
    referenced while holding; the lock is released when the object is collected
    and, by the kernel, when the process exits or is killed.

    Each object is its own lock: a second :class:`WriterLock` on the same ledger
    is refused even in the same process (``flock`` locks belong to an open file
    description, and each object opens its own).
    """

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.lock_path = db_path.with_name(db_path.name + ".lock")
        self.pid_path = db_path.with_name(db_path.name + ".pid")
        # thread_local=False: ``held`` answers the same on every thread.
        # fallback_to_soft=False: never degrade to a marker file that outlives a killed holder.
        self._lock = UnixFileLock(
            self.lock_path,
            mode=0o644,
            thread_local=False,
            blocking=False,
            fallback_to_soft=False,
            preserve_lock_file=True,
        )
        self._identity: int | None = None  # the descriptor holding the flock on the file itself

    @property
    def held(self) -> bool:
        """Whether this object holds the lock now."""
        return self._lock.is_locked

    def acquire(self) -> None:
        """Take the lock without waiting, and record this process's pid beside it.

        :raises LedgerInUse: another process, or another lock object, holds it.
        :raises RuntimeError: this object already holds it.
        :raises OSError: the lock or pid file cannot be opened or written, or the
            platform has no ``flock``.
        """
        if not _HAS_FLOCK:
            raise OSError(errno.ENOSYS, _UNSUPPORTED, str(self.lock_path))
        if self.held:
            raise RuntimeError(f"ledger {self.db_path}: this writer lock is already held")
        try:
            self._lock.acquire(blocking=False)
        except Timeout:
            raise LedgerInUse(self.db_path, self._holder_pid()) from None
        try:
            self._hold_identity()
            self._write_pid()
        except BaseException:
            self._let_identity_go()
            self._lock.release(force=True)
            raise

    def release(self) -> None:
        """Clear the pid file and let the lock go; the lock file stays. Does nothing if not held."""
        if not self.held:
            return
        try:
            with contextlib.suppress(OSError):
                self._clear_pid()
        finally:
            self._let_identity_go()
            self._lock.release(force=True)

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"WriterLock({self.db_path!r}, held={self.held})"

    # --- the file's identity: a flock on the ledger file itself ---------------------------

    def _hold_identity(self) -> None:
        """Lock the ledger file's inode, whatever name it is reached by; nothing if it is not
        there yet (the name's lock guards its creation).

        :raises LedgerInUse: a writer holds the same file under another name.
        """
        import fcntl  # here, not above: acquire() has refused a platform without it

        try:
            fd = os.open(self.db_path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LedgerInUse(self.db_path, None) from None
        except BaseException:
            os.close(fd)
            raise
        self._identity = fd

    def _let_identity_go(self) -> None:
        fd, self._identity = self._identity, None
        if fd is not None:
            os.close(fd)  # closing the only descriptor of the open file drops its flock

    # --- the pid file: written and cleared only while holding the lock -------------------

    def _write_pid(self) -> None:
        # Overwrite from the start, then cut to length: a reader racing this sees the old
        # pid or the new one on the first line, never an empty file.
        line = f"{os.getpid()}\n".encode("ascii")
        fd = os.open(self.pid_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            os.pwrite(fd, line, 0)
            os.ftruncate(fd, len(line))
            os.fsync(fd)
        finally:
            os.close(fd)

    def _clear_pid(self) -> None:
        fd = os.open(self.pid_path, os.O_RDWR)
        try:
            os.ftruncate(fd, 0)
            os.fsync(fd)
        finally:
            os.close(fd)

    def _holder_pid(self) -> int | None:
        """The pid in the pid file, if it is one and that process is alive; else ``None``."""
        try:
            fd = os.open(self.pid_path, os.O_RDONLY)
        except OSError:
            return None
        try:
            data = os.read(fd, _PID_BYTES)
        except OSError:
            return None
        finally:
            os.close(fd)
        text = data.split(b"\n", 1)[0].strip()
        if not text.isdigit():
            return None
        pid = int(text)
        if pid <= 0 or not _alive(pid):
            return None
        return pid


def _alive(pid: int) -> bool:
    """Whether a process with this pid exists (signal 0 checks without sending anything)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, under another user
    except OSError:
        return False
    return True
