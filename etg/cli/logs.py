"""The program's log: a rotating file in the data directory and stderr (SPEC §5).

One line per start, stop, tilt, refusal, operator action and fault, written by
the modules' own ``logging.getLogger("etg.…")`` loggers. The kiosk also points
:mod:`faulthandler` at ``logs/faults.log``, so a crash in C code (SDL, SQLite)
leaves its Python stack behind, and an uncaught exception is logged with its
traceback before the process ends.

Never a PIN, never the shoe, never a card of an unfinished round: the real
protection is that the program never hands those to a logger (the PIN pad
logs attempts without digits; rounds are logged by number, not by cards).
:class:`Redact` is a last net that blanks a PIN-like number should one slip in.
"""

from __future__ import annotations

import faulthandler
import logging
import logging.handlers
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any

LOGGER = "etg"
FILE_BYTES = 5_000_000
FILES_KEPT = 10

_handlers: list[logging.Handler] = []
_fault_file: IO[str] | None = None
_previous_hook: Any = None


@dataclass(frozen=True)
class LogFiles:
    log: Path
    faults: Path | None


class Redact(logging.Filter):
    """Blanks a 4–8 digit number after the word PIN; drops ``pin``, ``shoe``, ``cards`` extras."""

    _PIN = re.compile(r"(?i)(\bpin\b\W{0,3})\d{4,8}")
    _FORBIDDEN = ("pin", "shoe", "cards")

    def filter(self, record: logging.LogRecord) -> bool:
        for name in self._FORBIDDEN:
            if name in record.__dict__:
                delattr(record, name)
        message = record.getMessage()
        redacted = self._PIN.sub(r"\g<1>****", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


class _UTCFormatter(logging.Formatter):
    """ISO-8601 UTC with milliseconds: one clock for every cabinet and the ledger."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        return f"{stamp}.{int(record.msecs):03d}Z"


def configure(data_dir: Path, *, program: str, stderr_level: int = logging.WARNING,
              file_level: int = logging.INFO, fault_file: bool = False,
              file_bytes: int = FILE_BYTES) -> LogFiles:
    """Send the ``etg`` loggers to ``data_dir/logs/etg.log`` and stderr; idempotent.

    ``fault_file`` (the kiosk): faulthandler and uncaught exceptions go to the
    logs too. Raises OSError if the log folder cannot be made.
    """
    shutdown()
    folder = data_dir / "logs"
    folder.mkdir(parents=True, exist_ok=True, mode=0o750)
    logger = logging.getLogger(LOGGER)
    logger.setLevel(min(stderr_level, file_level))
    logger.propagate = False
    redact = Redact()
    to_file = logging.handlers.RotatingFileHandler(folder / "etg.log", maxBytes=file_bytes,
                                                   backupCount=FILES_KEPT, encoding="utf-8")
    to_file.setLevel(file_level)
    to_file.setFormatter(_UTCFormatter(
        f"%(asctime)s %(levelname)s %(name)s pid=%(process)d {program}: %(message)s"))
    to_stderr = logging.StreamHandler(sys.stderr)
    to_stderr.setLevel(stderr_level)
    to_stderr.setFormatter(logging.Formatter("%(message)s"))
    for handler in (to_file, to_stderr):
        handler.addFilter(redact)
        logger.addHandler(handler)
        _handlers.append(handler)
    faults = None
    if fault_file:
        faults = folder / "faults.log"
        _catch_faults(faults, program)
    logger.info("%s started (pid %d)", program, os.getpid())
    return LogFiles(folder / "etg.log", faults)


def get(name: str) -> logging.Logger:
    return logging.getLogger(f"{LOGGER}.{name}")


def shutdown() -> None:
    """Flush and close what :func:`configure` set up (and undo faulthandler and the hook)."""
    global _fault_file, _previous_hook
    logger = logging.getLogger(LOGGER)
    for handler in _handlers:
        logger.removeHandler(handler)
        handler.close()
    _handlers.clear()
    if _fault_file is not None:
        faulthandler.disable()
        _fault_file.close()
        _fault_file = None
    if _previous_hook is not None:
        sys.excepthook = _previous_hook
        _previous_hook = None


def _catch_faults(path: Path, program: str) -> None:
    global _fault_file, _previous_hook
    _fault_file = path.open("a", encoding="utf-8")
    _fault_file.write(f"--- {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} "
                      f"{program} pid {os.getpid()}\n")
    _fault_file.flush()
    faulthandler.enable(file=_fault_file, all_threads=True)
    _previous_hook = sys.excepthook

    def hook(kind: type[BaseException], error: BaseException,
             trace: TracebackType | None) -> None:
        logging.getLogger(LOGGER).critical("uncaught %s: %s", kind.__name__, error,
                                           exc_info=(kind, error, trace))
        _previous_hook(kind, error, trace)

    sys.excepthook = hook
