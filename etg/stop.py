"""SIGTERM asks a long-running command to stop: systemd's stop, ``timeout``, ``kill``.

Left alone, SIGTERM is handled in one of two bad ways. Python's default ends
the process on the spot, between any two instructions. Once pygame is
initialised, SDL's handler turns it into a quit event, which only a running
event loop reads: a benchmark or a simulation that has initialised pygame and
reads no events then ignores it (``timeout 500 etg bench`` ran on past eleven
minutes until SIGKILL). SDL installs its handler only where the handler is
still the default, so a command that installs its own first keeps it.

Each long-running command (``etg run``, ``etg autoplay``, ``etg sim``,
``etg bench``, and the floor's to come) wraps its work in :func:`on_sigterm`,
first thing, in one of two ways:

- **politely**, for a command that writes a ledger (the kiosk, autoplay): the
  handler only notes the request, and the command looks at :func:`requested`
  where stopping is safe (the kiosk once a frame, autoplay before each command,
  so after the last one's commit) and then shuts down as at its normal end, the
  ledger's shutdown record written;
- **raising**, for work that keeps nothing (a benchmark, a simulation): the
  handler raises :class:`Stopped` wherever the program is, its ``finally``
  blocks remove what it made and end its subprocesses, and the command exits
  with :data:`EXIT_CODE` after one line on standard error.

A second SIGTERM while the first is being acted on changes nothing: a stop in
progress (a ledger closing, a folder removed) is never cut short by Python.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

EXIT_CODE = 128 + signal.SIGTERM  # 143: what a shell reports for a process SIGTERM ended

_requested = threading.Event()


class Stopped(BaseException):
    """SIGTERM arrived: the work stops here. A BaseException, as KeyboardInterrupt is, so that
    no ``except Exception`` on the way out mistakes it for a fault and carries on."""


def requested() -> bool:
    """Whether SIGTERM has asked the running command to stop."""
    return _requested.is_set()


def check() -> None:
    """Raise :class:`Stopped` if SIGTERM has asked to stop (a polite command's safe point)."""
    if _requested.is_set():
        raise Stopped


@contextlib.contextmanager
def on_sigterm(program: str, *, raising: bool = False) -> Iterator[None]:
    """SIGTERM, for as long as this holds, asks ``program`` to stop (module docstring).

    :class:`Stopped` leaving the block (raised by the handler when ``raising``, or by
    :func:`check`) ends the command: one line on standard error and exit
    :data:`EXIT_CODE`. Without it, a polite command ends as it chooses (the kiosk with 0).
    The handler before is put back on the way out. Call it from the main thread, as
    :func:`signal.signal` requires.
    """

    def handle(signum: int, frame: FrameType | None) -> None:
        first = not _requested.is_set()
        _requested.set()
        if raising and first:
            raise Stopped

    before = signal.signal(signal.SIGTERM, handle)
    try:
        yield
    except Stopped:
        print(f"{program}: stopped by SIGTERM", file=sys.stderr, flush=True)
        raise SystemExit(EXIT_CODE) from None
    finally:
        # None: a handler not installed from Python (SDL's, in a process that had initialised
        # pygame before), which cannot be put back; the default stands in for it.
        signal.signal(signal.SIGTERM, signal.SIG_DFL if before is None else before)
        _requested.clear()
