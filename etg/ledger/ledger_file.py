"""The ledger as a file: where it lives, whether a file is one, its pragmas, reading it only.

A file that is not an ETG ledger (another program's database, garbage, an
emptied file, a file that lost what its anchor records) is refused before
anything is written to it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from etg.config.places import data_dir
from etg.ledger import chain
from etg.ledger.schema import applied_migrations, refuse_schema, schema_age
from etg.ledger.terms import LedgerError

__all__ = ["APPLICATION_ID", "PAGE_SIZE", "check_anchored_identity", "check_header",
           "check_identity", "check_single_link", "connect_readonly", "default_path", "prepare"]

APPLICATION_ID = 0x45544731  # "ETG1" in the SQLite header: this file is an ETG ledger
_HEADER = b"SQLite format 3\x00"

PAGE_SIZE = 1024
"""A new ledger's page size: an append dirties one small page, not 4 KB (issue 11)."""


def default_path(demo_of: str | None = None) -> Path:
    """The ledger in the platform's per-user data directory, never inside the program.

    Demo play gets a ledger of its own per paytable version (``demo_of``, e.g.
    ``md-community-5-e87bf504``): it never touches the cabinet's meters, and an
    edited paytable starts a fresh demo instead of tilting the old one.
    """
    return data_dir() / (f"demo-{demo_of}.db" if demo_of else "ledger.db")


def prepare(conn: sqlite3.Connection, path: Path, fresh: bool) -> bool:
    """Check the file is ours and set its pragmas; True if its schema is older (to migrate).

    A file written by a newer program is refused here, before any migration.
    """
    check_identity(conn, path, fresh)
    if fresh:
        conn.execute(f"PRAGMA page_size={PAGE_SIZE}")  # before the first table: fixed after
    if conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] != "wal":
        raise LedgerError(f"{path}: the ledger cannot be put in WAL mode")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    applied = applied_migrations(conn)
    schema = schema_age(conn, applied)
    if schema == "newer":
        refuse_schema(path, applied, write=True)
    if fresh:
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    return schema != "current"


_WAL_HEADER_BYTES = 32
"""A ``-wal`` no longer than its header holds no page: the file alone is the whole ledger."""


def connect_readonly(path: Path, timeout: float) -> sqlite3.Connection:
    """Read-only; on read-only media (no ``-shm`` can be made) as an immutable file, and only
    when no ``-wal`` holds pages the file lacks.

    An immutable connection never reads the ``-wal``: with one beside the file it
    would show the ledger as it was at the last checkpoint, with rounds missing
    and old meters (issue 25, finding 7). Such a ledger is refused in one line
    instead (:class:`LedgerError`), saying how to read it whole.
    """
    uri = path.resolve().as_uri()
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None,
                               timeout=timeout, check_same_thread=False)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as error:
        if "unable to open" not in str(error) and "readonly" not in str(error):
            raise
    wal = path.with_name(path.name + "-wal")
    try:
        pending = wal.stat().st_size > _WAL_HEADER_BYTES
    except FileNotFoundError:
        pending = False
    except OSError as error:
        raise LedgerError(f"{path}: its write-ahead log {wal.name} cannot be read: "
                          f"{error.strerror or error}") from None
    if pending:
        raise LedgerError(f"{path}: the newest rounds are in {wal.name}, which cannot be read "
                          f"here without {path.name}-shm (read-only media); copy the folder "
                          f"to writable storage and read the copy")
    return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None,
                           check_same_thread=False)


def check_single_link(path: Path) -> None:
    """The ledger must have one name: another hard link has its own ``-wal``, ``-shm`` and
    lock beside it, so a writer or an audit through it would miss or break the ledger's
    (issue 25, finding 9)."""
    try:
        links = path.stat().st_nlink
    except FileNotFoundError:
        return
    except OSError as error:
        raise LedgerError(f"{path}: cannot read the ledger: {error.strerror or error}") from None
    if links > 1:
        raise LedgerError(f"{path}: the ledger file has {links} hard links; a second name "
                          f"bypasses its lock and its write-ahead log, so it is refused until "
                          f"the other links are removed")


def check_identity(conn: sqlite3.Connection, path: Path, fresh: bool = False) -> None:
    application_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if application_id != APPLICATION_ID and not fresh:
        raise LedgerError(f"{path}: not an ETG ledger (application id {application_id:#x}); "
                          f"it was not changed")


def check_anchored_identity(conn: sqlite3.Connection, path: Path) -> None:
    """A file with an anchor must still be a ledger: it is never re-created in place."""
    application_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if application_id != APPLICATION_ID or not tables:
        raise LedgerError(f"{path}: the file holds none of the ledger its anchor "
                          f"{chain.anchor_path(path)} records (an emptied file or a deleted "
                          f"-wal); it was left as it is")


def check_header(path: Path, anchored: bool = False) -> None:
    try:
        with path.open("rb") as file:
            header = file.read(len(_HEADER))
    except OSError as error:
        raise LedgerError(f"{path}: cannot read the ledger: {error.strerror or error}") from None
    if not header:
        anchor = " although its anchor records a ledger" if anchored else ""
        raise LedgerError(f"{path}: the ledger file is empty (0 bytes){anchor}; it was not "
                          f"replaced by a new one")
    if header != _HEADER:
        raise LedgerError(
            f"{path}: not an SQLite database (garbage or truncated); it was not changed"
        )
