"""A fault the ledger could not record, kept beside it until the next start records it.

A full disk fails the commit of the tilt that reports it, so the tilt would
live only in the kiosk's memory, and the next start would play with nothing to
acknowledge (issue 25, finding 6). So the writer keeps ``<ledger>.fault``: a
file of :data:`NOTE_BYTES` made at start-up, while there is room, and later only
overwritten in place, which needs no new block on the disk and no growth past a
file size limit. A tilt whose entry cannot be committed is written there; the
next start logs it as a tilt to acknowledge, then blanks the note (SPEC §5:
every storage fault is a tilt).

The note is text, UTF-8, ended by the first zero byte; a blank note is all zeros.
"""

from __future__ import annotations

import os
from pathlib import Path

from etg.ledger.chain import fsync_folder

__all__ = ["NOTE_BYTES", "clear", "note_path", "read", "record", "reserve"]

NOTE_BYTES = 4096
"""The note's fixed size: several faults' messages, one block of the disk."""

_SEPARATOR = "; "


def note_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".fault")


def reserve(db_path: Path) -> None:
    """Make the note's room now, while the disk has some; a note already there is kept.

    :raises OSError: the note cannot be made (the disk is full already, the folder read-only).
    """
    path = note_path(db_path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        if os.fstat(fd).st_size >= NOTE_BYTES:
            return
        os.posix_fallocate(fd, 0, NOTE_BYTES)  # blocks on the disk, not a sparse hole
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_folder(path.parent)


def record(db_path: Path, message: str) -> None:
    """Add ``message`` to the note, in the room :func:`reserve` made; what does not fit is cut.

    :raises OSError: the note cannot be written either.
    """
    earlier = read(db_path)
    text = f"{earlier}{_SEPARATOR}{message}" if earlier else message
    _overwrite(db_path, _fit(text))


def read(db_path: Path) -> str | None:
    """The faults noted and not yet recorded in the ledger, or None.

    :raises OSError: the note is there but cannot be read.
    """
    try:
        data = note_path(db_path).read_bytes()
    except FileNotFoundError:
        return None
    text = data.split(b"\0", 1)[0].decode("utf-8", errors="replace").strip()
    return text or None


def clear(db_path: Path) -> None:
    """Blank the note once the ledger has recorded it, keeping its room."""
    _overwrite(db_path, b"")


def _fit(text: str) -> bytes:
    data = text.encode("utf-8")[:NOTE_BYTES - 1]  # a zero byte always ends it
    return data.decode("utf-8", errors="ignore").encode("utf-8")  # never half a character


def _overwrite(db_path: Path, data: bytes) -> None:
    path = note_path(db_path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        os.pwrite(fd, data.ljust(NOTE_BYTES, b"\0"), 0)
        os.fsync(fd)
    finally:
        os.close(fd)
