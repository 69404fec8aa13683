"""How far the chain had come, remembered outside the data directory (issue 25, item 2).

The anchor beside the ledger pins the ledger's head, but it lives in the same
folder: whoever rolls that folder back (an old ledger with its old anchor, a
backup of both, entries deleted and an older anchor put back) leaves a ledger
that agrees with its anchor. A *freshness source* is a record of the head that
rolling back the data directory cannot take back:

- :class:`TpmCounter`: a TPM 2.0 NV monotonic counter (``nt=counter``), driven
  through Debian's tpm2-tools. The anchor records the counter value it belongs
  to. The anchor is written first with the value the counter is about to reach,
  then the counter is incremented, so a crash between the two leaves an anchor
  one ahead of the counter (the increment is finished at the next start), never
  one behind it. An anchor behind the counter is older than the counter's last
  increment: a rollback. A TPM wears and rate-limits NV writes, so the counter is
  incremented at every checkpoint (start, every 100 rounds, shutdown), at the
  shutdown entry, and otherwise at most every few seconds of play: a rollback to
  a point before the last increment is detected, one within the seconds since
  it is not.
- :class:`AnchorCopy`: without a TPM, a signed copy of the anchor in the site
  configuration directory (``<config>/anchors/<ledger id>.anchor``), written
  after the anchor, as the anchor is (atomically, file and folder fsynced), on a
  thread of its own so that no commit waits for it. A ledger or anchor behind
  the copy, or a ledger whose entry at the copy's position is another one, was
  rolled back or replaced; a rollback to a point the copy had not reached yet
  (the last commit or two before a crash) is not seen.
- :class:`NoFreshness`: the site chose none; only the anchor beside the ledger.

The ledger records the source in use (a ``freshness`` setting, at each start):
the first start with a source records it, and from then on a missing copy, an
anchor without a counter value or another source are findings. A source is
found and reported by :func:`keeper`; checks return :class:`Problem` ``freshness``.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from etg.config.cabinet import DEFAULT_NV_INDEX, Freshness
from etg.ledger import chain
from etg.ledger.chain import Anchor
from etg.ledger.signing import KeyPair, Verifier
from etg.ledger.terms import Problem

SETTING = "freshness"
"""The ledger setting that records the source in use."""

CHECK = "freshness"
"""The check named by every problem found here."""

DEFAULT_TPM_DEVICE = Path("/dev/tpmrm0")
"""The kernel's TPM resource manager: where tpm2-tools look when no TCTI is given."""

TPM_TIMEOUT_S = 10.0
"""Longest a tpm2-tools command may take before the TPM counts as unreachable."""


class Source(Enum):
    TPM = "tpm"
    ANCHOR_COPY = "anchor_copy"
    NONE = "none"


class FreshnessError(RuntimeError):
    """The freshness source cannot be read or advanced; the message says which and why."""


class Chain(Protocol):
    """What a check needs of a ledger (:class:`etg.ledger.store.Ledger` is one)."""

    path: Path
    key: Verifier | None

    @property
    def head(self) -> tuple[int, bytes]: ...

    @property
    def ledger_id(self) -> str: ...

    def entry_hash(self, seq: int) -> bytes | None: ...

    def setting(self, key: str) -> str | None: ...

    def round_count(self) -> int: ...


@dataclass(frozen=True)
class Seen:
    """What a source held when it was read: ``copy`` (the anchor's copy), ``counter`` (the TPM
    counter), or the ``problem`` reading it.

    A check reads the source first, then the anchor, then the ledger: each is written after
    the one that follows it here (the ledger's commit, its anchor, then the source), so read in
    this order beside a running writer the source is never ahead of the snapshot honestly.
    """

    copy: Anchor | None = None
    counter: int | None = None
    problem: str | None = None


class Keeper:
    """A freshness source: stamps each anchor, advances after it is written, checks a ledger.

    The base is the site's choice of none: nothing stamped, nothing kept.
    """

    source = Source.NONE

    def stamp(self, anchor: Anchor, due: bool) -> Anchor:
        """The anchor about to be written, with what this source records in it. ``due``: the
        commit holds a checkpoint or a shutdown, a moment to advance a rate-limited source."""
        return anchor

    def after(self, anchor: Anchor, key: KeyPair) -> None:
        """The anchor has been written: advance the source to it. Raises
        :class:`FreshnessError` or OSError (a fault: the ledger tilts once)."""

    def resume(self, ledger: Chain) -> None:
        """The writer opens the ledger: finish what a crash interrupted (nothing here)."""

    def flush(self) -> None:
        """The writer closes the ledger: the source has the last anchor when this returns."""

    def observe(self, ledger: Chain) -> Seen:
        """Read the source (before the anchor and the ledger's snapshot: see :class:`Seen`)."""
        return Seen()

    def check(self, ledger: Chain, anchor: Anchor | None,
              seen: Seen | None = None) -> list[Problem]:
        """Problems of ``ledger`` and the ``anchor`` beside it against this source as ``seen``
        (read now if not given; read only)."""
        seen = self.observe(ledger) if seen is None else seen
        if seen.problem is not None:
            return [Problem(CHECK, seen.problem)]
        recorded = ledger.setting(SETTING)
        if recorded is not None and recorded != self.source.value:
            return [Problem(CHECK, f"the ledger recorded freshness source {recorded}, this start "
                                   f"has {self.source.value} (cabinet.yaml freshness changed, "
                                   f"or the TPM is gone): a rollback before now could not be "
                                   f"detected")]
        return self._check(ledger, anchor, seen, recorded == self.source.value)

    def _check(self, ledger: Chain, anchor: Anchor | None, seen: Seen,
               recorded: bool) -> list[Problem]:
        return []

    def describe(self, ledger: Chain) -> dict[str, Any]:
        """What ``etg ledger verify --json`` reports as ``freshness``."""
        return {"source": self.source.value}


NoFreshness = Keeper


class AnchorCopy(Keeper):
    """A signed copy of the anchor in the site configuration directory (see the module).

    The copy is written on a thread of its own, after the anchor: a commit hands it the anchor
    just written and goes on, so the copy's two fsyncs are never a commit's (nor a frame's).
    Anchors handed over while a copy is being written are not queued: the next write takes
    the newest. So the copy is at most a commit or two behind the anchor, never ahead of it;
    :meth:`flush` (at close) waits until it has the last one. A write that fails is raised by
    the next :meth:`after`: one fault, one tilt.
    """

    source = Source.ANCHOR_COPY

    IDLE_S = 2.0
    """Seconds without an anchor after which the copy's thread leaves (the next brings it back)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._cond = threading.Condition()
        self._pending: tuple[Anchor, KeyPair] | None = None
        self._busy = False
        self._fault: str | None = None
        self._thread: threading.Thread | None = None

    def path(self, ledger_id: str) -> Path:
        return chain.anchor_path(self._stem(ledger_id))

    def after(self, anchor: Anchor, key: KeyPair) -> None:
        with self._cond:
            fault, self._fault = self._fault, None
            if fault is not None:
                raise FreshnessError(fault)
            self._pending = (anchor, key)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="anchor-copy",
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def flush(self) -> None:
        with self._cond:
            while self._pending is not None or self._busy:
                self._cond.wait()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None:
                    if not self._cond.wait(self.IDLE_S) and self._pending is None:
                        self._thread = None
                        return
                (anchor, key), self._pending = self._pending, None
                self._busy = True
            fault = None
            try:
                self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
                chain.write_anchor(self._stem(anchor.ledger_id), anchor, key)
            except OSError as error:
                fault = f"the anchor's copy {self.path(anchor.ledger_id)} cannot be written: " \
                        f"{error.strerror or error}"
            with self._cond:
                self._busy = False
                self._fault = self._fault or fault
                self._cond.notify_all()

    def observe(self, ledger: Chain) -> Seen:
        if ledger.key is None:
            return Seen()  # the chain check already says nothing signed can be checked here
        try:
            return Seen(copy=chain.read_anchor(self._stem(ledger.ledger_id), ledger.key))
        except chain.AnchorError as error:
            return Seen(problem=str(error).replace("the anchor", "the anchor's copy", 1))

    def _check(self, ledger: Chain, anchor: Anchor | None, seen: Seen,
               recorded: bool) -> list[Problem]:
        if ledger.key is None:
            return []
        where = self.path(ledger.ledger_id)
        copy = seen.copy
        seq, _ = ledger.head
        if copy is None:
            # The first start with the copy has none yet; after that a missing one is a finding
            # (unless that first start wrote it since it was looked for).
            missing = recorded and seq and not where.exists()
            return [Problem(CHECK, f"the anchor's copy {where} is missing: the ledger (entry "
                                   f"{seq}, round {ledger.round_count()}) cannot be shown to be "
                                   f"the latest")] if missing else []
        here = f"the ledger ends at entry {seq} (round {ledger.round_count()})"
        if anchor is not None:
            here += f", its anchor at entry {anchor.seq} (round {anchor.rounds}, {anchor.at})"
        there = f"the copy {where} records entry {copy.seq} (round {copy.rounds}, {copy.at})"
        if copy.seq > seq or (anchor is not None and anchor.seq < copy.seq):
            return [Problem(CHECK, f"rolled back: {here}, but {there}: rounds were erased or an "
                                   f"older ledger and anchor were put back")]
        recorded_hash = ledger.entry_hash(copy.seq)
        if recorded_hash is None or recorded_hash.hex() != copy.head:
            return [Problem(CHECK, f"replaced: {here}, but its entry {copy.seq} is not the one "
                                   f"{there}: an older copy was put back and played on")]
        return []

    def describe(self, ledger: Chain) -> dict[str, Any]:
        where = self.path(ledger.ledger_id)
        copy = None
        if ledger.key is not None:
            try:
                copy = chain.read_anchor(self._stem(ledger.ledger_id), ledger.key)
            except chain.AnchorError:
                copy = None
        return {"source": self.source.value, "copy": str(where),
                "copy_entry": None if copy is None else copy.seq,
                "copy_round": None if copy is None else copy.rounds}

    def _stem(self, ledger_id: str) -> Path:
        """``chain.anchor_path`` of this is the copy: ``<folder>/<ledger id>.anchor``."""
        return self.folder / ledger_id


class TpmCounter(Keeper):
    """A TPM 2.0 NV monotonic counter through tpm2-tools (see the module for the order of
    writes and the rate at which it is incremented)."""

    source = Source.TPM

    def __init__(self, tcti: str | None, index: int = int(DEFAULT_NV_INDEX, 16),
                 every_s: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.tcti = tcti
        self.index = index
        self.every_s = every_s
        self.clock = clock
        self._value: int | None = None  # the TPM's counter as this process last knew it
        self._target = 0  # the value the anchors carry now (the TPM's, or one more)
        self._last = float("-inf")  # when the counter was last incremented

    @property
    def handle(self) -> str:
        return f"0x{self.index:08x}"

    # --- writing ----------------------------------------------------------------------------

    def stamp(self, anchor: Anchor, due: bool) -> Anchor:
        if self._value is None:
            self._value = self._target = self._ensure()
        if self._target <= self._value and (due or self.clock() - self._last >= self.every_s):
            self._target = self._value + 1  # the anchor goes first, the counter after it
        return dataclasses.replace(anchor, counter=self._target)

    def after(self, anchor: Anchor, key: KeyPair) -> None:
        if self._value is not None and anchor.counter is not None and \
                anchor.counter > self._value:
            self._increment()
            self._value = anchor.counter
            self._last = self.clock()

    def resume(self, ledger: Chain) -> None:
        """An anchor one ahead of the counter: the last run stopped between writing it and
        incrementing; the increment is finished now. Anything else is left to the check."""
        if ledger.key is None:
            return
        try:
            anchor = chain.read_anchor(ledger.path, ledger.key)
            value = self.read()
        except (chain.AnchorError, FreshnessError):
            return
        if value is not None and anchor is not None and anchor.counter == value + 1:
            self._increment()
            value += 1
        self._value = value
        if value is not None:
            self._target = value

    # --- reading ----------------------------------------------------------------------------

    def read(self) -> int | None:
        """The counter's value; None when its index is not defined or never incremented."""
        done = self._tool("tpm2_nvread", "-C", "o", "-s", "8", self.handle, check=False)
        if done.returncode == 0 and len(done.stdout) == 8:
            return int.from_bytes(done.stdout, "big")
        error = done.stderr.decode("utf-8", "replace")
        if "(0x18b)" in error.lower() or "(0x14a)" in error.lower():  # no such index; unwritten
            return None
        raise FreshnessError(f"the TPM counter {self.handle} cannot be read: "
                             f"{_last_line(error) or f'tpm2_nvread exited {done.returncode}'}")

    def observe(self, ledger: Chain) -> Seen:
        try:
            return Seen(counter=self.read())
        except FreshnessError as error:
            return Seen(problem=str(error))

    def _check(self, ledger: Chain, anchor: Anchor | None, seen: Seen,
               recorded: bool) -> list[Problem]:
        value = seen.counter
        if value is None:
            if not recorded:
                return []
            try:
                defined = self.read() is not None  # by the first start, since it was read
            except FreshnessError as error:
                return [Problem(CHECK, str(error))]
            return [] if defined else [
                Problem(CHECK, f"the TPM counter {self.handle} is not defined (a cleared or "
                               f"another TPM): the ledger cannot be shown to be the latest")]
        if anchor is None:
            return []  # the anchor check says whether one should be there
        where = f"the anchor (entry {anchor.seq}, round {anchor.rounds}, {anchor.at})"
        if anchor.counter is None:
            return [Problem(CHECK, f"{where} records no TPM counter value, the TPM counter "
                                   f"{self.handle} is at {value}: an anchor from before the "
                                   f"counter was put back")] if recorded else []
        if anchor.counter < value:
            return [Problem(CHECK, f"rolled back: {where} belongs to TPM counter value "
                                   f"{anchor.counter}, the TPM counter {self.handle} is at "
                                   f"{value}: the ledger and its anchor are older than the "
                                   f"counter's last increment (restored or rolled back)")]
        if anchor.counter > value + 1:
            return [Problem(CHECK, f"{where} belongs to TPM counter value {anchor.counter}, "
                                   f"ahead of the TPM counter {self.handle} at {value}: another "
                                   f"TPM, or its counter was defined anew")]
        return []

    def describe(self, ledger: Chain) -> dict[str, Any]:
        try:
            value: int | None = self.read()
        except FreshnessError:
            value = None
        anchor = None
        if ledger.key is not None:
            try:
                anchor = chain.read_anchor(ledger.path, ledger.key)
            except chain.AnchorError:
                anchor = None
        return {"source": self.source.value, "tcti": self.tcti, "nv_index": self.handle,
                "counter": value, "anchor_counter": None if anchor is None else anchor.counter}

    # --- tpm2-tools -------------------------------------------------------------------------

    def _ensure(self) -> int:
        """The counter's value, defining and first incrementing it if this TPM has none yet
        (an NV counter cannot be read before its first increment)."""
        value = self.read()
        if value is None:
            self._tool("tpm2_nvdefine", self.handle, "-C", "o", "-s", "8", "-a",
                       "ownerread|ownerwrite|authread|authwrite|nt=counter", check=False)
            self._increment()
            value = self.read()
            if value is None:
                raise FreshnessError(f"the TPM counter {self.handle} cannot be defined")
        return value

    def _increment(self) -> None:
        self._tool("tpm2_nvincrement", "-C", "o", self.handle)

    def _tool(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        env = dict(os.environ)
        if self.tcti:
            env["TPM2TOOLS_TCTI"] = self.tcti
        try:
            done = subprocess.run(argv, capture_output=True, env=env, timeout=TPM_TIMEOUT_S,
                                  check=False)
        except FileNotFoundError:
            raise FreshnessError(f"{argv[0]} is not installed (Debian's tpm2-tools)") from None
        except subprocess.TimeoutExpired:
            raise FreshnessError(f"the TPM ({self.tcti or DEFAULT_TPM_DEVICE}) did not answer "
                                 f"{argv[0]} within {TPM_TIMEOUT_S:g} s") from None
        if check and done.returncode != 0:
            error = _last_line(done.stderr.decode("utf-8", "replace"))
            raise FreshnessError(f"{argv[0]} {self.handle} failed: "
                                 f"{error or f'exit {done.returncode}'}")
        return done


def keeper(settings: Freshness, config_dir: Path) -> Keeper:
    """The source a cabinet's ``freshness`` names: ``tpm``, ``anchor-copy``, ``none``, or
    ``auto``: the TPM where tpm2-tools are installed and a TPM is there (``tcti`` given, or
    the kernel's resource manager), else the anchor's copy in ``config_dir``."""
    choice = settings.source
    if choice == "auto":
        there = settings.tcti is not None or DEFAULT_TPM_DEVICE.exists()
        choice = "tpm" if there and shutil.which("tpm2_nvread") else "anchor-copy"
    if choice == "tpm":
        return TpmCounter(settings.tcti, settings.index() or int(DEFAULT_NV_INDEX, 16),
                          settings.increment_every_s)
    if choice == "anchor-copy":
        return AnchorCopy(config_dir / "anchors")
    return NoFreshness()


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""
