"""The cabinet: what differs between two machines running the same game.

``config/cabinet.yaml`` says which display to use, where the ledger lives,
which paytable is active, the operator, supervisor and floorperson PIN hashes,
the dealers' IDs and PIN hashes, the hand-pay threshold, the tip amounts and
how loud the table plays its sounds. Like a
paytable it is validated strictly into a frozen dataclass (same reader, same
messages); :func:`cabinet_violations` adds the checks types cannot express.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from etg.core.floor import dealer_id_problem
from etg.core.jackpot import DEFAULT_HAND_PAY_CENTS
from etg.core.paytable import ProgressiveLevel, Violation

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
class ReturnBand:
    """The returns the operator allows every wager (e.g. 75 to 98 percent); outside: refused.

    ``etg paytable check`` and the kiosk's start refuse a paytable with a wager
    returning less than ``min_percent`` or more than ``max_percent`` (issue 26).
    """

    min_percent: float
    max_percent: float
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    def shares(self) -> tuple[Fraction, Fraction]:
        """The band as exact shares: 97.5 percent is 39/40, not the float nearest 0.975."""
        return (Fraction(repr(self.min_percent)) / 100, Fraction(repr(self.max_percent)) / 100)


FRESHNESS_SOURCES = ("auto", "tpm", "anchor-copy", "none")
NV_OWNER_INDICES = (0x01000000, 0x013FFFFF)  # TPM 2.0 NV indices an owner may define
DEFAULT_NV_INDEX = "0x01000e7c"
INCREMENT_EVERY_S = (1, 3600)


@dataclass(frozen=True, slots=True)
class Freshness:
    """What remembers how far the ledger's chain has come outside the data directory (issue
    25), so that rolling the data directory back is seen (:mod:`etg.ledger.freshness`).

    ``source``: ``tpm`` (a TPM 2.0 NV monotonic counter), ``anchor-copy`` (a signed copy of
    the anchor in the site configuration directory), ``none``, or ``auto``: the TPM where
    there is one (tpm2-tools installed, and ``tcti`` given or /dev/tpmrm0 there), else the
    copy. ``tcti``: how tpm2-tools reach the TPM (their ``TPM2TOOLS_TCTI``, e.g.
    ``device:/dev/tpmrm0``); null: their default. ``nv_index``: the counter's NV index, in
    hex as tpm2-tools write it (:meth:`index`).
    ``increment_every_s``: the counter is incremented at most this often during play (and at
    every checkpoint and shutdown): a TPM wears and rate-limits NV writes.
    """

    source: str = "auto"
    tcti: str | None = None
    nv_index: str = DEFAULT_NV_INDEX
    increment_every_s: int = 5
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    def index(self) -> int | None:
        """The NV index as a number; None if ``nv_index`` is not hex."""
        try:
            return int(self.nv_index, 16)
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class Link:
    """The table's link to the floor's progressive controller (SPEC §13, issue 27).

    ``uri``: the controller's PostgreSQL connection string with this table's own role
    (``postgresql://table_t01:…@host/floor``), which may only call the controller's
    functions. ``table_id``: the table's name on the floor. ``levels``: the meters the
    controller keeps for the whole link (``primary``, ``secondary``, and
    ``progressive_payout`` where the operator links it).
    """

    uri: str
    table_id: str
    levels: tuple[ProgressiveLevel, ...] = (ProgressiveLevel.PRIMARY,
                                            ProgressiveLevel.SECONDARY)
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT


@dataclass(frozen=True, slots=True)
class Cabinet:
    """One cabinet's settings, as read from ``cabinet.yaml``.

    ``active_paytable`` is relative to the directory of the cabinet file (see
    :meth:`paytable_path`). ``database`` ``None`` means the platform's
    per-user data directory. A PIN hash ``None`` means no PIN has been set.

    ``hand_pay_threshold_cents``: a single award of at least this much is paid by
    the attendant, not to the credits, once a floorperson has validated it (MD
    Ch. 9 J(4)). ``tip_amounts_cents``: the TIP buttons of each seat (MD Ch. 2 D).
    ``dealers``: each dealer's ID and PIN hash; ``None`` is a dealer removed, who
    can no longer sign in (the ID stays on record).
    ``dealer_display``: the SDL display index of the dealer's screen on a cabinet with
    two; ``None``: the dealer works the keypad and the dealer panel on the table.
    ``attendant_key``: the key (a key switch on the cabinet) that opens the operator
    menu, one of :data:`ATTENDANT_KEYS`; the menu never has a visible button.
    ``return_band``: the returns every wager of the active paytable must lie in;
    ``None``: only the rule that no wager returns 100 % or more.
    ``link``: the floor's progressive controller this table is linked to; ``None``: a
    standalone table, its meters in its own ledger (SPEC §13).
    """

    active_paytable: str
    display: Display = Display()
    dealer_display: int | None = None  # the dealer's own screen (SDL display index), if any
    attendant_key: str = "F10"  # opens the operator menu, behind its PIN (SPEC §6)
    database: str | None = None
    operator_pin_hash: str | None = None
    supervisor_pin_hash: str | None = None
    floorperson_pin_hash: str | None = None
    dealers: dict[str, str | None] = field(default_factory=dict)
    hand_pay_threshold_cents: int = DEFAULT_HAND_PAY_CENTS
    tip_amounts_cents: tuple[int, ...] = (100, 500, 2_500)
    language: str = "en"
    attract_delay_s: int = 60
    sound: Sound = Sound()
    ledger_min_free_mb: int = 512
    return_band: ReturnBand | None = None  # every wager's return must lie in it (issue 26)
    freshness: Freshness = Freshness()  # the chain's head remembered outside the data directory
    link: Link | None = None  # the floor's linked progressives (SPEC §13); None: standalone
    __pydantic_config__: ClassVar[dict[str, Any]] = _STRICT

    def paytable_path(self, cabinet_file: Path) -> Path:
        """The active paytable's file, resolved against the cabinet file's directory."""
        return cabinet_file.parent / self.active_paytable


_LANGUAGE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?")
_MAX_ATTRACT_DELAY_S = 3600
MIN_FREE_MB, MAX_FREE_MB = 64, 1_000_000  # the ledger disk's floor of free space (issue 11)
MAX_VOLUME = 100
BIG_WIN_MULTIPLES = (2, 1000)  # a 1x "big win" would be every even-money win
HAND_PAY_CENTS = (100, 100_000_000)  # $1.00 to $1,000,000.00
MAX_TIP_CENTS = 100_000  # a TIP button of at most $1,000.00
MAX_TIP_BUTTONS = 3  # what fits beside each other on the narrowest seat panel
ATTENDANT_KEYS = ("F10", "F13", "F14", "F15", "PAUSE", "SCROLLLOCK", "INSERT", "HOME",
                  "END")
"""Keys that may open the operator menu: none is a dealer's key (F1-F8, F11, F12) or help (F9)."""


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
    if cabinet.dealer_display is not None and cabinet.dealer_display < 0:
        out.append(Violation(("dealer_display",), f"must be 0 or more (null: no dealer "
                                                  f"display), not {cabinet.dealer_display}"))
    if cabinet.dealer_display is not None and cabinet.dealer_display == display.index:
        out.append(Violation(("dealer_display",), f"must be another display than the "
                                                  f"players' (display.index {display.index})"))
    if cabinet.attendant_key not in ATTENDANT_KEYS:
        out.append(Violation(("attendant_key",), f"must be one of {', '.join(ATTENDANT_KEYS)}, "
                                                 f"not '{cabinet.attendant_key}'"))
    if not cabinet.active_paytable.strip():
        out.append(Violation(("active_paytable",), "must name a paytable file"))
    elif not cabinet.paytable_path(cabinet_file).is_file():
        out.append(Violation(("active_paytable",),
                             f"no such file: {cabinet.paytable_path(cabinet_file)}"))
    for name in ("database", "operator_pin_hash", "supervisor_pin_hash", "floorperson_pin_hash"):
        text: str | None = getattr(cabinet, name)
        if text is not None and not text.strip():
            out.append(Violation((name,), "must not be empty (null if not set)"))
    out += _dealer_violations(cabinet.dealers)
    low, high = HAND_PAY_CENTS
    if not low <= cabinet.hand_pay_threshold_cents <= high:
        out.append(Violation(("hand_pay_threshold_cents",),
                             f"must be between {low} and {high:,} cents, "
                             f"not {cabinet.hand_pay_threshold_cents}"))
    out += _tip_violations(cabinet.tip_amounts_cents)
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
    band = cabinet.return_band
    if band is not None and not 0 < band.min_percent <= band.max_percent < 100:
        out.append(Violation(("return_band",), f"must satisfy 0 < min_percent <= max_percent "
                                               f"< 100, not {band.min_percent:g} and "
                                               f"{band.max_percent:g}"))
    out += _freshness_violations(cabinet.freshness)
    if cabinet.link is not None:
        out += link_violations(cabinet.link)
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


def _freshness_violations(freshness: Freshness) -> list[Violation]:
    out: list[Violation] = []
    if freshness.source not in FRESHNESS_SOURCES:
        out.append(Violation(("freshness", "source"), f"must be one of "
                                                      f"{', '.join(FRESHNESS_SOURCES)}, "
                                                      f"not '{freshness.source}'"))
    if freshness.tcti is not None and not freshness.tcti.strip():
        out.append(Violation(("freshness", "tcti"), "must not be empty (null: tpm2-tools' "
                                                    "default)"))
    low, high = NV_OWNER_INDICES
    index = freshness.index()
    if index is None or not low <= index <= high:
        out.append(Violation(("freshness", "nv_index"), f"must be an owner NV index in hex, "
                                                        f"{low:#010x} to {high:#010x}, not "
                                                        f"'{freshness.nv_index}'"))
    low, high = INCREMENT_EVERY_S
    if not low <= freshness.increment_every_s <= high:
        out.append(Violation(("freshness", "increment_every_s"),
                             f"must be between {low} and {high} seconds, "
                             f"not {freshness.increment_every_s}"))
    return out


TABLE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
"""A table's name on the floor: it names its controller role (``table_<id>``) too."""
_URI_SCHEMES = ("postgresql://", "postgres://")


def link_violations(link: Link) -> list[Violation]:
    """What cannot work in the cabinet's ``link``."""
    out: list[Violation] = []
    if not link.uri.startswith(_URI_SCHEMES):
        out.append(Violation(("link", "uri"), "must be a PostgreSQL connection string "
                                              "(postgresql://role:password@host/database)"))
    if not TABLE_ID.fullmatch(link.table_id):
        out.append(Violation(("link", "table_id"), f"must be 1 to 32 lower-case letters, "
                                                   f"digits, - and _, starting with a letter "
                                                   f"or digit, not {link.table_id!r}"))
    if not link.levels:
        out.append(Violation(("link", "levels"), "must name at least one level (primary, "
                                                 "secondary, progressive_payout); no link: "
                                                 "leave link out"))
    elif len(set(link.levels)) != len(link.levels):
        out.append(Violation(("link", "levels"), "each level once"))
    return out


def _dealer_violations(dealers: dict[str, str | None]) -> list[Violation]:
    out: list[Violation] = []
    for dealer_id, stored in dealers.items():
        problem = dealer_id_problem(dealer_id)
        if problem is not None:
            out.append(Violation(("dealers", dealer_id), problem))
        elif stored is not None and not stored.strip():
            out.append(Violation(("dealers", dealer_id), "must not be empty (null: removed)"))
    return out


def _tip_violations(amounts: tuple[int, ...]) -> list[Violation]:
    if len(amounts) > MAX_TIP_BUTTONS:
        return [Violation(("tip_amounts_cents",), f"at most {MAX_TIP_BUTTONS} amounts fit on "
                                                  f"a seat, not {len(amounts)}")]
    out = [Violation(("tip_amounts_cents", index), f"must be between 1 and {MAX_TIP_CENTS:,} "
                                                   f"cents, not {amount}")
           for index, amount in enumerate(amounts) if not 1 <= amount <= MAX_TIP_CENTS]
    if not out and len(set(amounts)) != len(amounts):
        out.append(Violation(("tip_amounts_cents",), "each amount once"))
    return out
