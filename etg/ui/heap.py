"""The kiosk's heap over a long day: large pictures go back to the system when dropped.

The kiosk makes and drops pictures of a hundred kilobytes to a few megabytes all
day (a turned ring, a celebration's panel, a card at a new size). glibc's malloc
serves a block that large from its own mapping and unmaps it when freed, until the
first such block is freed: then it raises its threshold to that block's size (up to
32 MB) and serves later ones from the heap, where the holes they leave between
smaller blocks are never given back. The kiosk's resident memory then creeps up for
hours (SPEC §11: flat after 10,000 rounds). A fixed threshold keeps every large
picture in a mapping of its own; a fixed trim threshold returns a freed heap top.

Where the C library is not glibc (macOS, musl, Windows), nothing is changed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import sys

log = logging.getLogger("etg.kiosk")

MMAP_THRESHOLD = 128 * 1024
"""Blocks this large or larger get a mapping of their own (glibc's starting value, kept)."""

TRIM_THRESHOLD = 1024 * 1024
"""A free top of the heap this large goes back to the system."""

_M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3

_settled: list[bool] = []


def settle() -> bool:
    """Fix glibc's thresholds for the rest of the process (once; later calls do nothing).
    True if they are fixed (a Linux kiosk on glibc), False where there is nothing to fix."""
    if _settled:
        return _settled[0]
    done = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            mallopt = libc.mallopt
        except (OSError, AttributeError):  # not glibc
            mallopt = None
        if mallopt is not None:
            mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
            mallopt.restype = ctypes.c_int
            done = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                        and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
            if not done:
                log.warning("the C library refused fixed heap thresholds: memory may creep")
    _settled.append(done)
    return done
