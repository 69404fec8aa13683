"""What C libraries print straight to file descriptor 2 goes to the log, not the console.

SDL probing for a screen ("XDG_RUNTIME_DIR is invalid") and ALSA looking for a
sound card (eight lines of its configuration search) write past Python, onto
the terminal where a technician reads the program's one-line messages (SPEC §6,
issue 26). While such a call runs, descriptor 2 points at a scratch file, and
what landed there is logged afterwards.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Iterator


@contextlib.contextmanager
def to_the_log(log: logging.Logger, what: str) -> Iterator[None]:
    """Run the block with descriptor 2 caught; log what it caught at INFO as ``what: text``."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no descriptor 2 to speak of: nothing to keep off it
        yield
        return
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            text = caught.read().decode("utf-8", "replace").strip()
            if text:
                log.info("%s: %s", what, text.replace("\n", " | "))
