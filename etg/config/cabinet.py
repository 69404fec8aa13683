"""The cabinet: what differs between two machines running the same game.

``config/cabinet.yaml`` says which display to use, where the ledger lives,
which paytable is active, the operator and supervisor PIN hashes and how loud
the table plays its sounds. Like a
paytable it is validated strictly into a frozen dataclass (same reader, same
messages); :func:`cabinet_violations` adds the checks types cannot express.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from etg.core.paytable import Violation

_STRICT: dict[str, Any] = {"extra": "forbid", "strict": True}


@dataclass(frozen=True, slots=True)
class Display:
    """The screen the table is shown on: SDL display ``index`` and the window size."""

    index: int = 0
    width: int = 1920
    height: int = 1080
    fullscreen: bool = True
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class Sound:
    """The table's sounds (SPEC §6): ``volume`` 0 (silent) to 100, ``mute`` silences all.

    ``big_win_multiple``: a seat whose winnings in one step reach this many
    times its stake settled in that step hears the big-win fanfare instead of
    the win chime. It is a presentation choice, not a paytable figure, so it
    lives here and holds for every paytable.
    """

    volume: int = 70
    mute: bool = False
    big_win_multiple: int = 20
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class Cabinet:
    """One cabinet's settings, as read from ``cabinet.yaml``.

    ``active_paytable`` is relative to the directory of the cabinet file (see
    :meth:`paytable_path`). ``database`` ``None`` means the platform's
    per-user data directory. A PIN hash ``None`` means no PIN has been set.
    """

    active_paytable: str
    display: Display = Display()
    database: str | None = None
    operator_pin_hash: str | None = None
    supervisor_pin_hash: str | None = None
    language: str = "en"
    attract_delay_s: int = 60
    sound: Sound = Sound()
    ledger_min_free_mb: int = 512
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    def paytable_path(self, cabinet_file: Path) -> Path:
        """The active paytable's file, resolved against the cabinet file's directory."""
        return cabinet_file.parent / self.active_paytable


_LANGUAGE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?")
_MAX_ATTRACT_DELAY_S = 3600
MIN_FREE_MB, MAX_FREE_MB = 64, 1_000_000  # the ledger disk's floor of free space (issue 11)
MAX_VOLUME = 100
BIG_WIN_MULTIPLES = (2, 1000)  # a 1x "big win" would be every even-money win


def cabinet_violations(cabinet: Cabinet, cabinet_file: Path) -> list[Violation]:
    """Every value of ``cabinet`` (read from ``cabinet_file``) that cannot work."""
    out: list[Violation] = []
    display = cabinet.display
    if display.index < 0:
        out.append(Violation(("display", "index"), f"must be 0 or more, not {display.index}"))
    for name in ("width", "height"):
        pixels: int = getattr(display, name)
        if pixels <= 0:
            out.append(Violation(("display", name), f"must be a positive number of pixels, "
                                                    f"not {pixels}"))
    if not cabinet.active_paytable.strip():
        out.append(Violation(("active_paytable",), "must name a paytable file"))
    elif not cabinet.paytable_path(cabinet_file).is_file():
        out.append(Violation(("active_paytable",),
                             f"no such file: {cabinet.paytable_path(cabinet_file)}"))
    for name in ("database", "operator_pin_hash", "supervisor_pin_hash"):
        text: str | None = getattr(cabinet, name)
        if text is not None and not text.strip():
            out.append(Violation((name,), "must not be empty (null if not set)"))
    if not _LANGUAGE.fullmatch(cabinet.language):
        out.append(Violation(("language",), f"must be a language code such as 'en', "
                                            f"not '{cabinet.language}'"))
    if not 1 <= cabinet.attract_delay_s <= _MAX_ATTRACT_DELAY_S:
        out.append(Violation(("attract_delay_s",), f"must be between 1 and {_MAX_ATTRACT_DELAY_S} "
                                                   f"seconds, not {cabinet.attract_delay_s}"))
    if not MIN_FREE_MB <= cabinet.ledger_min_free_mb <= MAX_FREE_MB:
        out.append(Violation(("ledger_min_free_mb",), f"must be between {MIN_FREE_MB} and "
                                                      f"{MAX_FREE_MB:,} MB, "
                                                      f"not {cabinet.ledger_min_free_mb}"))
    sound = cabinet.sound
    if not 0 <= sound.volume <= MAX_VOLUME:
        out.append(Violation(("sound", "volume"), f"must be between 0 and {MAX_VOLUME}, "
                                                  f"not {sound.volume}"))
    low, high = BIG_WIN_MULTIPLES
    if not low <= sound.big_win_multiple <= high:
        out.append(Violation(("sound", "big_win_multiple"), f"must be between {low} and {high} "
                                                            f"times the stake, "
                                                            f"not {sound.big_win_multiple}"))
    return out
