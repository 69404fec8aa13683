"""The controller: commands in, the engine, one committed transaction, then events out.

Every state change is a command. The engine computes the new state and its
events on the caller's thread, so a refusal is known at once (it raises and
writes nothing); the command is then committed to the ledger with its events
and whatever they finish (a hand-ledger record, meters, event-log entries; see
:mod:`etg.table.bookkeeper`) in one transaction, and only then do listeners, the
screen among them, hear of it (SPEC §5: write before show).

Two ways in:

- :meth:`Table.send` waits for the commit, then tells the listeners: bots,
  ``etg autoplay``, the tests and the demo's drivers stay synchronous.
- :meth:`Table.submit` (the kiosk) returns as soon as the engine has accepted
  the command; the commit runs on the ledger's writer thread
  (:mod:`etg.ledger.writer`), several commands queued behind one fsync are
  committed together, and :meth:`Table.deliver`, called by the kiosk at the
  start of each frame, hands the listeners the events of every command whose
  commit is acknowledged, in order. The next command applies on the latest
  accepted state (:attr:`Table.state`), so a player can tap quickly; the screen
  shows :attr:`Table.committed`, the state the listeners last heard of.

Ledger access on the kiosk's thread: **writes go through the writer** (commands,
event-log entries, tilts, checkpoints, RAM clear, paytable switch, shutdown);
**reads wait for it**: :meth:`Table.reading` (and the :attr:`Table.ledger`
property) first waits until everything submitted is committed, and
:meth:`Table.reading` then holds the writer's lock, so a read never lands
inside the writer's transaction. The play path (submit, deliver) never touches
the ledger on the kiosk's thread.

On start the table is rebuilt from the ledger: the newest checkpoint, then the
commands after it replayed through the same pure engine. The integrity checks
run; a failure tilts the table, which then refuses play until a supervisor
acknowledges it. A storage fault during play (disk full, a read-only or
locked file, damage) is a tilt too: the commands not committed are dropped
(nobody was shown them), the table goes back to the last committed state, and
after a restart the table is exactly where the last commit left it.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import sqlite3
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from etg.config.loader import LoadedPaytable
from etg.core.commands import (
    Command,
    OpenBets,
    SetJackpotRules,
    Shuffle,
    ShuffleReason,
    Spin,
    SwitchPaytable,
    ValidateJackpot,
)
from etg.core.console import ConsoleAction, console_refusals
from etg.core.engine import apply, new_table
from etg.core.engine import refusal as engine_refusal
from etg.core.events import Event, RoundComplete, RoundVoided
from etg.core.jackpot import JackpotRules
from etg.core.refusal import Reason, Refused
from etg.core.rng import RandomSource, SystemSource
from etg.core.shoe import draw_shoe
from etg.core.state import Phase, TableState
from etg.core.wheel import draw_stops
from etg.ledger import fault_note
from etg.ledger.codec import dump_event
from etg.ledger.reverify import KIND as REVERIFIED
from etg.ledger.reverify import Reverifier
from etg.ledger.store import (
    CHECKPOINT_EVERY,
    Ledger,
    LedgerError,
    LedgerKind,
    Problem,
)
from etg.ledger.terms import describe, now
from etg.ledger.verify import ReplayError, active_tilts, check_file, replay_one, verify
from etg.ledger.writer import Dropped, LedgerWriter
from etg.table.bookkeeper import Accepted, Booked, Bookkeeper, RoundOpen
from etg.table.books import Books
from etg.table.pin import pin_fingerprint
from etg.table.records import TECHNICIAN, PinChanged, Record

log = logging.getLogger("etg.table")

Listener = Callable[[TableState, list[Event]], None]


class TableTilted(RuntimeError):
    """The table is tilted: play stops until a supervisor acknowledges (SPEC §5)."""


@dataclass
class Tilt:
    problems: list[Problem]
    ids: list[int] = field(default_factory=list)  # the tilt entries of the event log

    @property
    def message(self) -> str:
        return "; ".join(f"{p.check}: {p.message}" for p in self.problems)


STORAGE_FAULTS = (sqlite3.Error, OSError, LedgerError)
"""What a ledger write can fail with: each one becomes a tilt, never a traceback."""

AT_REST = frozenset({Phase.IDLE, Phase.COMPLETE, Phase.VOIDED})
"""Phases with nothing in play and no one betting: the background re-verification's time."""

IDLE_MARGIN_S = 0.002
"""What the background re-verification leaves before the next frame is due."""

MIN_FREE_BYTES = 512 * 1024 * 1024
"""The free space a new round needs on the ledger's file system, unless the cabinet says.

Years of rounds, the WAL between checkpoints and the logs all grow there; a
table that would run its disk full mid-round stops before the round instead.
"""



@dataclass
class _Pending:
    """Ledger work submitted and not yet dealt with by :meth:`Table.deliver`."""

    receipt: Future[Any]
    accepted: Accepted | None = None  # a command: its events go to the listeners
    quiet: bool = False  # a failure adds no problem to the tilt (the tilt's own entry)
    then: Callable[[Any], None] | None = None  # told the work's result once committed


class Table:
    """The table on the floor: its state, its ledger, and who listens."""

    def __init__(self, ledger: Ledger, paytable: LoadedPaytable, state: TableState,
                 source: RandomSource, round_open: RoundOpen | None = None) -> None:
        self._ledger = ledger
        self.paytable = paytable
        self.state = state
        """The latest accepted state: the next command applies to it (it may not be committed)."""
        self.committed = state
        """The state the listeners last heard of: committed, and all the screen may show."""
        self.source = source
        self.tilt: Tilt | None = None
        self.listeners: list[Listener] = []
        self.min_free_bytes = MIN_FREE_BYTES
        self.writer = LedgerWriter(ledger)
        self._books = Bookkeeper(ledger, Booked(state, round_open), CHECKPOINT_EVERY)
        self._delivered: Booked = self._books.booked  # the ledger as of the last delivery
        self._pending: deque[_Pending] = deque()
        self._file_check_due = False
        self._switching_to: LoadedPaytable | None = None
        self._console: tuple[TableState, dict[ConsoleAction, str | None]] | None = None
        self.reverify = Reverifier(ledger.path, ledger.key, ledger.legacy_key)
        """The whole history walked again between frames while the table is idle (:meth:`idle`)."""

    # --- life cycle -------------------------------------------------------------------------

    @classmethod
    def open(cls, ledger: Ledger, paytable: LoadedPaytable, source: RandomSource | None = None,
             credits: tuple[int, ...] | None = None, defer_file_check: bool = False,
             jackpot_rules: JackpotRules | None = None) -> Table:
        """Power up: rebuild the exact state from the ledger (or start a new table) and check it.

        ``defer_file_check``: leave ``PRAGMA quick_check``, which reads the whole
        file, to :meth:`start_file_check` beside play (the kiosk: start-up stays
        flat in history); everything else is checked before play as always.
        ``jackpot_rules``: the cabinet's jackpot validation and hand-pay threshold,
        applied from now on (see :meth:`apply_jackpot_rules`); None leaves the
        table's as the ledger has them (a new table's: none, every award straight
        to the credits, as the simulators play).

        Raises LedgerError when the ledger cannot be read at all, and ValueError
        for a seeded source on a real-money ledger (real play draws only from
        the CSPRNG).
        """
        source = source or SystemSource()
        if ledger.kind is LedgerKind.REAL and not isinstance(source, SystemSource):
            raise ValueError("real play draws only from the CSPRNG: a seeded source is for demo "
                             "and test ledgers")
        try:
            table = cls._rebuild(ledger, paytable, source, credits, jackpot_rules)
            table._file_check_due = defer_file_check
            table._power_up()
            if jackpot_rules is not None:
                table.apply_jackpot_rules(jackpot_rules)
        except STORAGE_FAULTS as error:
            raise LedgerError(f"{ledger.path}: {_fault_text(error)}") from None
        except (ValueError, KeyError, TypeError) as error:
            raise LedgerError(f"{ledger.path}: the ledger cannot be read: {error}") from None
        return table

    @classmethod
    def _rebuild(cls, ledger: Ledger, paytable: LoadedPaytable, source: RandomSource,
                 credits: tuple[int, ...] | None, jackpot_rules: JackpotRules | None) -> Table:
        newest, unreadable = _newest_readable_checkpoint(ledger)
        if newest is None and unreadable:
            raise LedgerError(f"{ledger.path}: no checkpoint can be read ({unreadable[0].message})")
        if newest is None:
            state = new_table(paytable.paytable, credits, jackpot_rules)
            with ledger.atomic():
                ledger.remember_paytable(paytable.sha256, paytable.paytable.id,
                                         paytable.path.read_text(encoding="utf-8"))
                ledger.set_setting("paytable_sha256", paytable.sha256)
                ledger.set_setting("paytable_path", str(paytable.path))
                ledger.save_checkpoint("genesis", state)
                ledger.log("paytable_change", "installer",
                           {"old_sha256": None, "new_sha256": paytable.sha256,
                            "paytable_id": paytable.paytable.id})
            return cls(ledger, paytable, state, source)
        seq, body, state = newest
        opened = _round_open_at(ledger, body.get("round_open"), seq)
        state, opened, broken = _replay(ledger, state, opened, seq)
        table = cls(ledger, paytable, state, source, opened)
        if unreadable or broken:
            table.tilt = Tilt([*unreadable, *([broken] if broken else [])])
        return table

    def _power_up(self) -> None:
        ledger = self._ledger
        last = ledger.last_events(("power_up", "shutdown"), 1)
        interrupted = bool(last) and last[0]["kind"] == "power_up"
        unrecorded = fault_note.read(ledger.path)
        problems = [*(self.tilt.problems if self.tilt else []),
                    *verify(ledger, self.paytable, state=self.state,
                            file_check=not self._file_check_due),
                    *([Problem("storage", f"a fault the ledger could not record when it "
                                          f"happened: {unrecorded}")] if unrecorded else [])]
        earlier = active_tilts(ledger)
        with ledger.atomic():
            ledger.log("power_up", None, {"round": self.state.round.number,
                                          "phase": self.state.phase.value,
                                          "rng": getattr(self.source, "name", "?"),
                                          "after_interruption": interrupted})
            ids = [ledger.log("tilt", None, {"check": p.check, "message": p.message})["id"]
                   for p in problems]
            ledger.note_freshness()  # checked above: from now on its record is expected
        if unrecorded:
            fault_note.clear(ledger.path)  # the ledger has it now, as a tilt to acknowledge
        _reserve_fault_note(ledger)
        if interrupted:
            log.warning("power-up after an interruption: the last run did not shut down cleanly")
        tilts = [*earlier, *(e for e in ledger.last_events(("tilt",), len(ids)) if ids)]
        if tilts:
            self.tilt = Tilt([Problem(t["details"]["check"], t["details"]["message"])
                              for t in tilts], [t["id"] for t in tilts])
            ledger.anchor_paused = True
            log.error("tilt at start-up: %s", self.tilt.message)
        else:
            with ledger.atomic():
                self._books.checkpoint("startup")
        log.info("power-up: round %s, %s, ledger %s", self.state.round.number,
                 self.state.phase.value, ledger.path)

    def start_writer(self) -> None:
        """Commit on the ledger's writer thread from now on (the kiosk): see :meth:`submit`."""
        self.writer.start()

    def close(self) -> None:
        """A clean shutdown: every accepted command committed, then logged with a checkpoint.

        The next start then replays nothing.
        """
        self.writer.stop()  # drains the queue; later work runs here
        with contextlib.suppress(*STORAGE_FAULTS):
            self.deliver()
        with contextlib.suppress(*STORAGE_FAULTS), self._ledger.atomic():
            self._ledger.log("shutdown", None, {"round": self.state.round.number,
                                                "phase": self.state.phase.value})
            if self.tilt is None:
                self._books.checkpoint("shutdown")
                for problem in self._ledger.derived.take_faults():  # its checks, on record
                    self._ledger.log("tilt", None, {"check": problem.check,
                                                    "message": problem.message})
        log.info("shutdown: round %s, %s", self.state.round.number, self.state.phase.value)
        self.reverify.close()
        self._ledger.close()

    @property
    def ledger(self) -> Ledger:
        """The ledger, once everything submitted so far is committed (see :meth:`reading`)."""
        self.writer.wait()
        return self._ledger

    @property
    def books(self) -> Books:
        """What the screens read of the ledger, every read bounded (:mod:`etg.table.books`);
        each read waits for the writer as :attr:`ledger` does."""
        return Books(lambda: self.ledger)

    @contextlib.contextmanager
    def reading(self) -> Iterator[Ledger]:
        """The ledger to read on this thread: every write submitted is in, none is in flight.

        Waits for the writer (at most the commits queued), then holds it off
        until the block ends: for the operator's pages and recall, never for play.
        """
        with self.writer.reading() as ledger:
            yield ledger

    @property
    def in_flight(self) -> int:
        """Accepted commands whose events the listeners have not heard yet."""
        return sum(1 for p in self._pending if p.accepted is not None)

    @property
    def tilted(self) -> bool:
        return self.tilt is not None

    def acknowledge_tilt(self, operator: str) -> None:
        """A supervisor has seen the failure and takes responsibility for play to go on.

        The anchor moves to the ledger as it stands: what was found is on record
        in the tilt entries and in this acknowledgement.
        """
        if self.tilt is None:
            return
        self.deliver(wait=True)  # every tilt entry is in, with its id
        tilt = self.tilt

        def clear() -> None:
            self._ledger.anchor_paused = False  # this commit moves the anchor to the head
            # The meters table is the chain's sums again (issue 25: derived, never copied); what
            # it held instead is on record here, as it is in the tilts that named it.
            restored = self._ledger.derived.restore_table(self._ledger)
            if restored:
                self._ledger.log("meters_restored", operator, restored)
            self._ledger.log("tilt_cleared", operator, {"problems": tilt.message,
                                                         "tilts": tilt.ids})

        try:
            self._write(clear, quiet=True)
        except TableTilted as fault:
            raise TableTilted(f"the tilt cannot be cleared: {fault}") from None
        log.warning("tilt acknowledged by %s: %s", operator, tilt.message)
        _forget_noted_faults(self._ledger)  # the clearing entry records them: not again
        # What the clearing commit itself tilted on (an anchor still not writable) stands.
        after = self.tilt
        fresh = after.problems[len(tilt.problems):] if after is not None else []
        self.tilt = Tilt(fresh, [i for i in after.ids if i not in tilt.ids]) \
            if fresh and after is not None else None

    def switch_paytable(self, paytable: LoadedPaytable, operator: str) -> list[Event]:
        """Switch to another approved paytable: between rounds, no credits on any seat.

        The new file's bytes and hash are recorded and the change is logged with
        the old and new hashes, in the same transaction as the switch.
        """
        self._switching_to = paytable
        try:
            events = self.send(SwitchPaytable(paytable.paytable), actor=operator)
        finally:
            self._switching_to = None
        self.paytable = paytable
        return events

    def ram_clear(self, operator: str, confirmed: bool) -> None:
        """Zero every meter, logged; the meters then count from this point of the ledger.

        The hand ledger and the event log are kept: a RAM clear never erases history.
        """
        if not confirmed:
            raise ValueError("a RAM clear needs a second confirmation")

        def clear() -> None:
            self._ledger.log("ram_clear", operator, {"after_round": self._ledger.round_count()})
            self._ledger.clear_meters()
            self._books.checkpoint("ram_clear")

        self._write(clear)

    def tilt_for(self, problems: list[Problem]) -> None:
        """Problems found outside the ledger (the program's own files): each one a tilt."""
        for problem in problems:
            self._tilt_on(problem)

    def fault(self, error: BaseException) -> None:
        """A storage fault met outside :meth:`send` (a screen reading the ledger): a tilt."""
        self._tilt_on(Problem("storage", _fault_text(error)))

    def note_pins(self, hashes: dict[str, str | None]) -> None:
        """Put on record a PIN changed outside the program (a hand edit of ``cabinet.yaml``).

        Every change the program makes (``etg pin set``, the operator menu) is
        recorded as it is made, as a :class:`~etg.table.records.PinChanged`; each
        start compares the hashes with the last fingerprints recorded, and a
        difference is recorded the same way, put down to the technician.
        """
        with self.reading() as ledger:
            recorded: dict[str, str | None] = dict(ledger.carried.get("pins", {}))  # archived
            for entry in ledger.last_events(("pin_change",), 100):
                recorded[str(entry["details"]["role"])] = entry["details"]["fingerprint"]
        for whose, stored in sorted(hashes.items()):
            fingerprint = pin_fingerprint(stored)
            if recorded.get(whose) != fingerprint and (fingerprint or whose in recorded):
                self.record(PinChanged(whose, TECHNICIAN, "cabinet.yaml", fingerprint))

    def apply_jackpot_rules(self, rules: JackpotRules | None, actor: str = "cabinet") -> bool:
        """Play from now on by the cabinet's hand-pay threshold, if the table does not already.

        Sent as a command (journaled, logged with the old and the new threshold);
        not while a jackpot waits for its validation, nor on a tilted table: the
        awards held keep the threshold they were held with, and the next start
        applies it. True if the table now plays by ``rules``.
        """
        if self.state.jackpot_rules == rules:
            return True
        if self.tilt is not None or self.state.phase is Phase.JACKPOT:
            return False
        try:
            self.send(SetJackpotRules(rules), actor=actor)
        except (Refused, TableTilted) as refusal:
            log.error("the cabinet's jackpot rules were not applied: %s", refusal)
            return False
        return True

    def log(self, kind: str, actor: str | None, details: dict[str, Any]) -> bool:
        """An event-log entry of its own (operator actions, PIN attempts, requests).

        Goes through the writer like a command. False if the ledger cannot take
        it (a commit has failed): the table is then tilted, or about to be.
        """
        if self.writer.failure is not None:
            return False
        item = self._track(self.writer.submit(lambda: self._ledger.log(kind, actor, details)))
        if item.receipt.done() and item.receipt.exception() is not None:
            return False
        log.info("%s by %s", kind, actor or "the table")
        return True

    def keep_setting(self, key: str, value: str) -> bool:
        """A ledger setting, written through the writer like a command (the link's
        acknowledged outbox entry, SPEC §13). False if the ledger cannot take it."""
        if self.writer.failure is not None:
            return False
        item = self._track(self.writer.submit(lambda: self._ledger.set_setting(key, value)))
        return not (item.receipt.done() and item.receipt.exception() is not None)

    def record(self, record: Record) -> bool:
        """A screen's record of what was done on it (:mod:`etg.table.records`): an operator's
        login or action, a self-test, a PIN attempt; written as :meth:`log` writes."""
        kind, actor, details = record.entry()
        return self.log(kind, actor, details)

    def request_cash_out(self, seat: int) -> bool:
        """A player asks for an attendant to pay out the seat: logged for the operator menu's
        CREDITS page, which lists the requests waiting (SPEC §5: credits leave through the
        attendant). False if the ledger cannot take it."""
        return self.log("cash_out_request", "player",
                        {"seat": seat, "credits": self.state.credits[seat - 1]})

    # --- play -------------------------------------------------------------------------------

    def send(self, command: Command, actor: str | None = None) -> list[Event]:
        """Apply, commit, then tell the listeners; returns once the listeners have heard.

        Raises Refused (the engine's reason) or TableTilted; either way nothing is written.
        """
        item = self._accept(command, actor)
        self.deliver(wait=True)
        if item.receipt.exception() is not None:
            raise self._tilted()
        assert item.accepted is not None
        return item.accepted.events

    def submit(self, command: Command, actor: str | None = None) -> list[Event]:
        """Apply now; commit on the writer's thread; the listeners hear at :meth:`deliver`.

        Raises Refused (the engine's reason) or TableTilted at once; either way
        nothing is written. A commit that fails later tilts the table at
        :meth:`deliver`. Without a writer thread this is :meth:`send`.
        """
        item = self._accept(command, actor)
        if not self.writer.threaded and item.receipt.exception() is not None:
            raise self._tilted()
        assert item.accepted is not None
        return item.accepted.events

    def deliver(self, wait: bool = False) -> None:
        """Tell the listeners of every command whose commit is acknowledged, in order.

        ``wait``: first wait for the commits of everything submitted so far. A
        failed commit tilts the table here: the commands after it are dropped
        unheard and the table goes back to the last committed state. Raises
        what failed a commit if it is not a storage fault (a bug, not a tilt).
        """
        if wait:
            self.writer.wait()
        while self._pending and self._pending[0].receipt.done():
            item = self._pending.popleft()
            error = item.receipt.exception()
            if error is not None:
                self._commit_failed(item, error)
                break
            result = item.receipt.result()
            if item.then is not None:
                item.then(result)
            if item.accepted is not None:
                self._delivered = result
                self.committed = item.accepted.state
                for listener in list(self.listeners):
                    listener(item.accepted.state, item.accepted.events)
        fault = self.writer.take_anchor_fault()
        if fault is not None:
            self._tilt_on(Problem("storage", fault))
        for problem in self._ledger.derived.take_faults():  # a checkpoint's checks
            self._tilt_on(problem)

    def idle(self, until: float) -> None:
        """Between frames, with time left before ``until`` (a ``time.perf_counter()``
        deadline): while nothing is in play and every commit is delivered, a slice of the
        background re-verification of the whole history (:mod:`etg.ledger.reverify`). What
        it finds tilts, naming table and row; how far it came goes on record in the chain."""
        if self.tilt is not None or self._pending or self.state.phase not in AT_REST:
            return
        try:
            step = self.reverify.step(until - IDLE_MARGIN_S)
        except STORAGE_FAULTS as error:
            self._tilt_on(Problem("storage", _fault_text(error)))
            return
        for problem in step.problems:
            self._tilt_on(problem)
        if step.record is not None:
            self.log(REVERIFIED, "cabinet", step.record)

    def start_file_check(self) -> Future[list[Problem]] | None:
        """Start the deferred ``quick_check`` on a thread of its own; None if none is due.

        Hand the result to :meth:`tilt_for` on the table's own thread when it is done.
        """
        if not self._file_check_due:
            return None
        self._file_check_due = False
        done: Future[list[Problem]] = Future()
        path = self._ledger.path

        def run() -> None:
            done.set_result(check_file(path))

        threading.Thread(target=run, name="ledger-file-check", daemon=True).start()
        return done

    def refusal(self, command: Command) -> str | None:
        """Why :meth:`send` would refuse ``command`` now (nothing is sent), or None.

        For screens that disable a control and show the reason before it is pressed.
        """
        if self.tilt is not None:
            return f"the table is tilted: {self.tilt.message}"
        return engine_refusal(self.state, command)

    def console_refusals(self) -> dict[ConsoleAction, str | None]:
        """Why each dealer console action would be refused on the table the screens show
        (:attr:`committed`), or None where it would be accepted; nothing is sent or drawn.

        The console dims the refused ones and shows the reason when one is touched. A state
        is asked about once however many frames show it (the dry run deals a round).
        """
        if self.tilt is not None:
            return dict.fromkeys(ConsoleAction, f"the table is tilted: {self.tilt.message}")
        state = self.committed
        if self._console is None or self._console[0] is not state:
            self._console = (state, console_refusals(state))
        return self._console[1]

    def shuffle(self, reason: ShuffleReason, actor: str | None = None) -> list[Event]:
        """Draw a new shoe from the RNG source and send it (MD Ch. 5)."""
        return self.send(self.shuffle_command(reason), actor)

    def spin(self, actor: str | None = None) -> list[Event]:
        """Draw the wheel's three stops, then send them: drawn before anything is shown."""
        return self.send(self.spin_command(), actor)

    def shuffle_command(self, reason: ShuffleReason | None = None) -> Shuffle:
        """A new shoe drawn from the RNG source, not yet sent.

        Without a reason: a new shoe for the first, the cut card's reshuffle when
        one is due, else a shuffle the supervisor ordered (MD Ch. 5 A, H).
        """
        state = self.state
        if reason is None:
            reason = (ShuffleReason.NEW_SHOE if state.shoe is None else
                      ShuffleReason.CUT_CARD if state.shuffle_due else ShuffleReason.SUPERVISOR)
        return Shuffle(draw_shoe(state.paytable.shoe, self.source), reason)

    def spin_command(self) -> Spin:
        """The wheel's three stops drawn from the RNG source, not yet sent (SPEC §3).

        Raises ValueError if the paytable has no Bonus Spin wheel.
        """
        bonus = self.state.paytable.bonus_spin
        if bonus is None:
            raise ValueError("this paytable has no Bonus Spin wheel")
        return Spin(draw_stops(bonus, self.state.paytable.seats, self.source))

    def apply(self, state: TableState, command: Command) -> tuple[TableState, list[Event]]:
        """The engine's signature, committed: lets bots and drivers play through the ledger."""
        events = self.send(command, actor=_actor_of(command))
        return self.state, events

    # --- helpers ----------------------------------------------------------------------------

    def _accept(self, command: Command, actor: str | None) -> _Pending:
        """The engine's verdict on the caller's thread; an accepted command goes to the writer."""
        if self.tilt is not None:
            raise TableTilted(f"the table is tilted: {self.tilt.message}")
        if self.writer.failure is not None:  # tilts at the next delivery
            raise TableTilted(f"the table is tilted: storage: {_fault_text(self.writer.failure)}")
        if isinstance(command, OpenBets):
            self._check_free_space()
        if isinstance(command, ValidateJackpot) and command.role is None:
            # Only a record older than validators' roles has none (etg.ledger.codec); a
            # validation made now carries the role its PIN was checked in (SPEC §5).
            raise Refused(Reason.NOT_A_VALIDATOR,
                          f"a validation carries the role of {command.validator!r} as the PIN "
                          f"registry holds it: a floorperson or above (MD Ch. 9 J(4)(c))")
        try:
            state, events = apply(self.state, command)
        except Refused:
            raise
        except Exception as error:  # a paytable the engine cannot play
            # Issue 26: whatever fails while a paytable is played is a tilt naming its file,
            # never a crash (a kiosk restarted on it would crash again, and again). Nothing
            # was applied or written: the command is as if never sent.
            log.exception("the engine failed on %s", type(command).__name__)
            self._tilt_on(Problem("paytable", f"{self.paytable.path}: the game cannot go on "
                                              f"with this paytable ({type(error).__name__}: "
                                              f"{error}) at {type(command).__name__}"))
            raise self._tilted() from error
        accepted = Accepted(command, actor, self.state.round.number, state, events, now(),
                            self._switching_to)
        self.state = state
        return self._track(self.writer.submit(lambda: self._books.commit(accepted)),
                           accepted=accepted)

    def _track(self, receipt: Future[Any], accepted: Accepted | None = None,
               quiet: bool = False, then: Callable[[Any], None] | None = None) -> _Pending:
        """Follow ``receipt`` to :meth:`deliver`; without a writer thread it is delivered now."""
        item = _Pending(receipt, accepted, quiet, then)
        self._pending.append(item)
        if not self.writer.threaded:
            self.deliver()
        return item

    def _write(self, work: Callable[[], Any], quiet: bool = False) -> Any:
        """Run ``work`` in a transaction of the writer and wait for it; returns its result.

        A storage fault tilts the table (``quiet``: adds nothing to a tilt already
        standing) and raises TableTilted.
        """
        item = self._track(self.writer.submit(work), quiet=quiet)
        self.deliver(wait=True)
        error = item.receipt.exception()
        if error is None:
            return item.receipt.result()
        if quiet:
            raise TableTilted(_fault_text(_cause(error)))
        raise self._tilted()

    def _commit_failed(self, item: _Pending, error: BaseException) -> None:
        """A transaction failed: drop what came after, go back to the last commit, tilt."""
        dropped = sum(1 for p in (item, *self._pending) if p.accepted is not None)
        self._pending.clear()
        self.writer.recover()
        self.state = self.committed
        self._books.booked = self._delivered
        cause = _cause(error)
        if not isinstance(cause, STORAGE_FAULTS):
            raise cause
        if dropped:
            log.error("%d accepted command(s) not committed, dropped unseen: %s", dropped,
                      _fault_text(cause))
        if item.quiet and self.tilt is not None:
            self._ledger.anchor_paused = True  # the writer is idle: nothing else is running
        elif not item.quiet:
            self._tilt_on(Problem("storage", _fault_text(cause)))

    def _tilted(self) -> TableTilted:
        return TableTilted(f"the table is tilted: {self.tilt.message if self.tilt else ''}")

    def _check_free_space(self) -> None:
        """Before a round: below the floor of free space the table tilts instead of opening.

        The round before has finished and is on record; this one never starts,
        so no round is ever cut off by a full disk. A supervisor's
        acknowledgement lets the next round check again.
        """
        folder = self._ledger.path.resolve().parent
        try:
            free = shutil.disk_usage(folder).free
        except OSError as error:
            self._tilt_on(Problem("storage", f"free space of {folder} cannot be read: "
                                             f"{error.strerror or error}"))
        else:
            if free >= self.min_free_bytes:
                return
            mb = 1024 * 1024
            self._tilt_on(Problem("disk", f"ledger disk nearly full: {free // mb:,} MB free on "
                                          f"{folder}, the floor is {self.min_free_bytes // mb:,} "
                                          f"MB; free space there, then acknowledge the tilt"))
        assert self.tilt is not None
        raise TableTilted(f"the table is tilted: {self.tilt.message}")

    def _tilt_on(self, problem: Problem) -> None:
        """Play stops on a fault; the tilt is logged if the ledger still takes writes.

        Play stops at once; the entry goes through the writer, and the anchor
        stays where that commit leaves it until a supervisor acknowledges.
        """
        if self.writer.failure is not None:  # a failed commit first: its tilt comes before
            self.deliver()
        previous = self.tilt
        self.tilt = Tilt([*(previous.problems if previous else []), problem],
                         list(previous.ids if previous else []))

        def record() -> int:
            return int(self._ledger.log("tilt", None, {"check": problem.check,
                                                       "message": problem.message})["id"])

        receipt = self.writer.submit(record)
        receipt.add_done_callback(self._pause_anchor)
        receipt.add_done_callback(lambda done: self._note_if_lost(done, problem))
        log.error("tilt: %s", problem.message)
        self._track(receipt, quiet=True, then=self._note_tilt_entry)

    def _note_if_lost(self, done: Future[Any], problem: Problem) -> None:
        """A tilt the ledger could not take (a full disk) goes to the fault note, for the
        next start to record (:mod:`etg.ledger.fault_note`); runs where the commit ran."""
        if done.exception() is None:
            return
        try:
            fault_note.record(self._ledger.path, f"{problem.check}: {problem.message}")
        except OSError as error:
            log.critical("tilt neither in the ledger nor in its fault note (%s): %s",
                         error.strerror or error, problem.message)

    def _pause_anchor(self, _: Future[Any]) -> None:
        # Runs where the tilt's commit ran, before the writer takes its next batch.
        self._ledger.anchor_paused = True

    def _note_tilt_entry(self, entry_id: Any) -> None:
        if self.tilt is not None:
            self.tilt.ids.append(int(entry_id))


def _forget_noted_faults(ledger: Ledger) -> None:
    """Blank the fault note once an acknowledgement has put its faults on record; nothing
    to do (one small read) unless a tilt's entry was lost this run."""
    try:
        if fault_note.read(ledger.path):
            fault_note.clear(ledger.path)
    except OSError as error:
        log.error("the fault note %s cannot be blanked: %s; the next start tilts on it again",
                  fault_note.note_path(ledger.path), error.strerror or error)


def _reserve_fault_note(ledger: Ledger) -> None:
    """Room for a fault the ledger may later be unable to record; without it play goes on,
    as it always could (the disk is checked before each round)."""
    try:
        fault_note.reserve(ledger.path)
    except OSError as error:
        log.error("no room for the ledger's fault note %s: %s",
                  fault_note.note_path(ledger.path), error.strerror or error)


def _round_open_at(ledger: Ledger, opened: dict[str, Any] | None, seq: int) -> RoundOpen | None:
    """The round in progress at checkpoint ``seq``, with its events so far (the checkpoint
    keeps them; a verbose checkpoint's round has them in its commands)."""
    if opened is None:
        return None
    events: list[dict[str, Any]] = list(opened.get("events", []))
    if "events" not in opened:
        for row in ledger.journal_after(int(opened["seq"]) - 1):
            if row["seq"] > seq:
                break
            events += row.get("events", [])
    return RoundOpen(int(opened["seq"]), str(opened["at"]), tuple(opened["credits"]),
                     tuple(events))


def _replay(ledger: Ledger, state: TableState, opened: RoundOpen | None,
            seq: int) -> tuple[TableState, RoundOpen | None, Problem | None]:
    """Replay the commands after entry ``seq``; the first that does not replay is a problem.

    The state stops before it: what came after cannot be trusted, and play
    waits for a supervisor (SPEC §2: the round is resumed or voided).
    """
    for row in ledger.journal_after(seq):
        try:
            state, events = replay_one(state, row)
        except ReplayError as error:
            return state, opened, Problem("journal", str(error))
        if row["command"]["type"] == "OpenBets":
            opened = RoundOpen(row["seq"], row["at"], state.credits)
        if opened is not None:
            opened = opened.adding(dump_event(e) for e in events)
        if any(isinstance(e, RoundComplete | RoundVoided) for e in events) or \
                row["command"]["type"] == "NextRound":
            opened = None  # as the bookkeeper does once the round is recorded
    return state, opened, None


def _newest_readable_checkpoint(ledger: Ledger) -> tuple[
        tuple[int, dict[str, Any], TableState] | None, list[Problem]]:
    """The newest checkpoint that can be read, and a problem for each newer one that cannot."""
    problems: list[Problem] = []
    for seq in ledger.checkpoint_seqs():
        try:
            return ledger.checkpoint(seq), problems
        except (ValueError, KeyError, TypeError) as error:
            problems.append(Problem("checkpoint", f"entries row {seq} (checkpoint) cannot be "
                                                  f"read: {str(error)[:200]}"))
    return None, problems


def _cause(error: BaseException) -> BaseException:
    """What failed the transaction, for work that was dropped behind it."""
    return error.cause if isinstance(error, Dropped) else error


def _fault_text(error: BaseException) -> str:
    if isinstance(error, sqlite3.Error):
        return describe(error)
    if isinstance(error, OSError):
        return f"the ledger cannot be written: {error.strerror or error}"
    return str(error)


def _actor_of(command: Command) -> str:
    name = type(command).__name__
    if name in ("PlaceWager", "PlaceBonusSpin", "ClearWagers", "RepeatWagers", "DoubleWagers",
                "Decide", "Tip"):
        return "player"
    if name in ("CashIn", "CashOut"):
        return "attendant"
    if name in ("Void", "VoidWager", "MarkAbandoned"):
        return "supervisor"
    if isinstance(command, ValidateJackpot):
        return command.role.value if command.role is not None else "floorperson"
    if name == "SetJackpotRules":
        return "cabinet"
    return "dealer"
