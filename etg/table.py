"""The controller: commands in, the engine, one committed transaction, then events out.

Every state change goes through :meth:`Table.send`: the engine computes the
new state and its events (a refusal raises and writes nothing), the ledger
commits the command, its events and whatever they finish (a hand-ledger row,
meters, event-log entries) in one transaction, and only then do listeners,
the screen among them, hear of it (SPEC §5: write before show).

On start the table is rebuilt from the ledger: the newest checkpoint, then the
commands after it replayed through the same pure engine. The integrity checks
run; a failure tilts the table, which then refuses play until a supervisor
acknowledges it. A storage fault during play (disk full, a read-only or
locked file, damage) is a tilt too: the command is not applied, nothing is
lost, and after a restart the table is exactly where the last commit left it.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import shutil
import sqlite3
import threading
from collections.abc import Callable
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
)
from etg.core.engine import apply, new_table
from etg.core.engine import refusal as engine_refusal
from etg.core.events import (
    CreditsIn,
    CreditsOut,
    DealerSignedIn,
    Event,
    HandPaid,
    JackpotLocked,
    JackpotRulesSet,
    JackpotValidated,
    PaytableSwitched,
    RoundComplete,
    RoundVoided,
    SeatAbandoned,
    ShoeShuffled,
    TipGiven,
    WagerVoided,
)
from etg.core.jackpot import JackpotRules
from etg.core.refusal import Refused
from etg.core.rng import RandomSource, SystemSource
from etg.core.shoe import draw_shoe
from etg.core.state import LEVELS, Phase, TableState
from etg.core.wheel import draw_stops
from etg.ledger.codec import dump_event
from etg.ledger.meters import round_meters
from etg.ledger.store import (
    CHECKPOINT_EVERY,
    Ledger,
    LedgerError,
    LedgerKind,
    Problem,
    describe,
    now,
)
from etg.ledger.verify import ReplayError, active_tilts, check_file, replay_one, verify

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


@dataclass
class RoundOpen:
    """The round in progress since betting opened: what its hand-ledger record will need."""

    seq: int  # the OpenBets entry
    at: str
    credits: tuple[int, ...]  # the seats' credits when betting opened
    events: list[dict[str, Any]] = field(default_factory=list)


STORAGE_FAULTS = (sqlite3.Error, OSError, LedgerError)
"""What a ledger write can fail with: each one becomes a tilt, never a traceback."""

MIN_FREE_BYTES = 512 * 1024 * 1024
"""The free space a new round needs on the ledger's file system, unless the cabinet says.

Years of rounds, the WAL between checkpoints and the logs all grow there; a
table that would run its disk full mid-round stops before the round instead.
"""


class Table:
    """The table on the floor: its state, its ledger, and who listens."""

    def __init__(self, ledger: Ledger, paytable: LoadedPaytable, state: TableState,
                 source: RandomSource) -> None:
        self.ledger = ledger
        self.paytable = paytable
        self.state = state
        self.source = source
        self.tilt: Tilt | None = None
        self.listeners: list[Listener] = []
        self.round_open: RoundOpen | None = None
        self.min_free_bytes = MIN_FREE_BYTES
        self._file_check_due = False
        self._switching_to: LoadedPaytable | None = None

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
            table = cls(ledger, paytable, state, source)
            with ledger.atomic():
                ledger.remember_paytable(paytable.sha256, paytable.paytable.id,
                                         paytable.path.read_text(encoding="utf-8"))
                ledger.set_setting("paytable_sha256", paytable.sha256)
                ledger.set_setting("paytable_path", str(paytable.path))
                ledger.save_checkpoint("genesis", state)
                ledger.log("paytable_change", "installer",
                           {"old_sha256": None, "new_sha256": paytable.sha256,
                            "paytable_id": paytable.paytable.id})
            return table
        seq, body, state = newest
        table = cls(ledger, paytable, state, source)
        if unreadable:
            table.tilt = Tilt(unreadable)
        opened = body.get("round_open")
        if opened is not None:
            table.round_open = RoundOpen(int(opened["seq"]), str(opened["at"]),
                                         tuple(opened["credits"]))
            if "events" in opened:  # the round's events so far travel in the checkpoint
                table.round_open.events += opened["events"]
            else:  # a verbose checkpoint: its commands recorded their events
                for row in ledger.journal_after(int(opened["seq"]) - 1):
                    if row["seq"] > seq:
                        break
                    table.round_open.events += row.get("events", [])
        table._replay(seq)
        return table

    def _power_up(self) -> None:
        ledger = self.ledger
        last = ledger.last_events(("power_up", "shutdown"), 1)
        interrupted = bool(last) and last[0]["kind"] == "power_up"
        problems = [*(self.tilt.problems if self.tilt else []),
                    *verify(ledger, self.paytable, state=self.state,
                            file_check=not self._file_check_due)]
        earlier = active_tilts(ledger)
        with ledger.atomic():
            ledger.log("power_up", None, {"round": self.state.round.number,
                                          "phase": self.state.phase.value,
                                          "rng": getattr(self.source, "name", "?"),
                                          "after_interruption": interrupted})
            ids = [ledger.log("tilt", None, {"check": p.check, "message": p.message})["id"]
                   for p in problems]
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
                self._checkpoint("startup")
        log.info("power-up: round %s, %s, ledger %s", self.state.round.number,
                 self.state.phase.value, ledger.path)

    def close(self) -> None:
        """A clean shutdown: logged, with a checkpoint so the next start replays nothing."""
        with contextlib.suppress(*STORAGE_FAULTS), self.ledger.atomic():
            self.ledger.log("shutdown", None, {"round": self.state.round.number,
                                               "phase": self.state.phase.value})
            if self.tilt is None:
                self._checkpoint("shutdown")
        log.info("shutdown: round %s, %s", self.state.round.number, self.state.phase.value)
        self.ledger.close()

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
        self.ledger.anchor_paused = False  # the commit below moves the anchor to the head
        try:
            with self.ledger.atomic():
                self.ledger.log("tilt_cleared", operator, {"problems": self.tilt.message,
                                                           "tilts": self.tilt.ids})
        except STORAGE_FAULTS as error:
            self.ledger.anchor_paused = True
            raise TableTilted(f"the tilt cannot be cleared: {_fault_text(error)}") from None
        log.warning("tilt acknowledged by %s: %s", operator, self.tilt.message)
        self.tilt = None

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
            self.ledger.log("ram_clear", operator, {"after_round": self.ledger.round_count()})
            self.ledger.clear_meters()
            self._checkpoint("ram_clear")

        self._write(clear)

    def tilt_for(self, problems: list[Problem]) -> None:
        """Problems found outside the ledger (the program's own files): each one a tilt."""
        for problem in problems:
            self._tilt_on(problem)

    def fault(self, error: BaseException) -> None:
        """A storage fault met outside :meth:`send` (a screen reading the ledger): a tilt."""
        self._tilt_on(Problem("storage", _fault_text(error)))

    def note_pins(self, hashes: dict[str, str | None]) -> None:
        """Put a change of any role's PIN on record: a fingerprint of its stored hash, never a PIN.

        PINs are set with ``etg pin set`` in ``cabinet.yaml``, often while no
        kiosk runs; each start compares the hashes with the last ones recorded.
        """
        recorded: dict[str, str | None] = {}
        for entry in self.ledger.last_events(("pin_change",), 100):
            recorded[str(entry["details"]["role"])] = entry["details"]["fingerprint"]
        for role, stored in sorted(hashes.items()):
            fingerprint = (None if stored is None else
                           hashlib.sha256(stored.encode("utf-8")).hexdigest()[:16])
            if recorded.get(role) != fingerprint and (fingerprint or role in recorded):
                self.log("pin_change", "technician", {"role": role, "fingerprint": fingerprint})

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

        False if the ledger could not take it: the table is then tilted.
        """
        try:
            self._write(lambda: self.ledger.log(kind, actor, details))
        except TableTilted:
            return False
        log.info("%s by %s", kind, actor or "the table")
        return True

    # --- play -------------------------------------------------------------------------------

    def send(self, command: Command, actor: str | None = None) -> list[Event]:
        """Apply, commit, then tell the listeners.

        Raises Refused (the engine's reason) or TableTilted; either way nothing is written.
        """
        if self.tilt is not None:
            raise TableTilted(f"the table is tilted: {self.tilt.message}")
        if isinstance(command, OpenBets):
            self._check_free_space()
        state, events = apply(self.state, command)
        at = now()
        opened = self.round_open
        so_far = None if opened is None else list(opened.events)
        try:
            self._write(lambda: self._commit(command, actor, state, events, at))
        except TableTilted:
            self.round_open = opened  # nothing was committed: the round is as it was
            if opened is not None and so_far is not None:
                opened.events[:] = so_far
            raise
        self.state = state
        if self.ledger.anchor_fault is not None:
            self._tilt_on(Problem("storage", self.ledger.anchor_fault))
        for listener in self.listeners:
            listener(state, events)
        return events

    def start_file_check(self) -> Future[list[Problem]] | None:
        """Start the deferred ``quick_check`` on a thread of its own; None if none is due.

        Hand the result to :meth:`tilt_for` on the table's own thread when it is done.
        """
        if not self._file_check_due:
            return None
        self._file_check_due = False
        done: Future[list[Problem]] = Future()

        def run() -> None:
            done.set_result(check_file(self.ledger.path))

        threading.Thread(target=run, name="ledger-file-check", daemon=True).start()
        return done

    def refusal(self, command: Command) -> str | None:
        """Why :meth:`send` would refuse ``command`` now (nothing is sent), or None.

        For screens that disable a control and show the reason before it is pressed.
        """
        if self.tilt is not None:
            return f"the table is tilted: {self.tilt.message}"
        return engine_refusal(self.state, command)

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

    def _write(self, work: Callable[[], Any]) -> None:
        """Run ``work`` in one transaction; a storage fault tilts the table (and raises)."""
        try:
            with self.ledger.atomic():
                work()
        except STORAGE_FAULTS as error:
            self._tilt_on(Problem("storage", _fault_text(error)))
            raise TableTilted(f"the table is tilted: {self.tilt.message if self.tilt else ''}"
                              ) from None

    def _check_free_space(self) -> None:
        """Before a round: below the floor of free space the table tilts instead of opening.

        The round before has finished and is on record; this one never starts,
        so no round is ever cut off by a full disk. A supervisor's
        acknowledgement lets the next round check again.
        """
        folder = self.ledger.path.resolve().parent
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
        """Play stops on a fault; the tilt is logged if the ledger still takes writes."""
        ids: list[int] = []
        with contextlib.suppress(*STORAGE_FAULTS), self.ledger.atomic():
            ids.append(self.ledger.log("tilt", None, {"check": problem.check,
                                                       "message": problem.message})["id"])
        previous = self.tilt
        self.tilt = Tilt([*(previous.problems if previous else []), problem],
                         [*(previous.ids if previous else []), *ids])
        self.ledger.anchor_paused = True
        log.error("tilt: %s", problem.message)

    def _commit(self, command: Command, actor: str | None, state: TableState,
                events: list[Event], at: str) -> None:
        seq = self.ledger.append_command(self.state.round.number, command, actor, events, at)
        dumped = [dump_event(e) for e in events]
        if isinstance(command, OpenBets):
            self.round_open = RoundOpen(seq, at, state.credits)
        if self.round_open is not None:
            self.round_open.events += dumped
        self._book(state, events, actor, at)

    def _replay(self, seq: int) -> None:
        """Replay the commands after entry ``seq``; one that does not replay tilts the table.

        The state stops before it: what came after cannot be trusted, and play
        waits for a supervisor (SPEC §2: the round is resumed or voided).
        """
        state = self.state
        for row in self.ledger.journal_after(seq):
            try:
                state, events = replay_one(state, row)
            except ReplayError as error:
                self.state = state
                self.tilt = Tilt([Problem("journal", str(error))])
                return
            if row["command"]["type"] == "OpenBets":
                self.round_open = RoundOpen(row["seq"], row["at"], state.credits)
            if self.round_open is not None:
                self.round_open.events += [dump_event(e) for e in events]
            if any(isinstance(e, RoundComplete | RoundVoided) for e in events) or \
                    row["command"]["type"] == "NextRound":
                self.round_open = None  # as _book does when the round is recorded
        self.state = state

    def _checkpoint(self, reason: str) -> None:
        opened = self.round_open
        self.ledger.save_checkpoint(reason, self.state, None if opened is None else
                                    {"seq": opened.seq, "at": opened.at,
                                     "credits": list(opened.credits),
                                     "events": list(opened.events)})

    def _book(self, state: TableState, events: list[Event], actor: str | None, at: str) -> None:
        paytable_id = state.paytable.id
        for event in events:
            if isinstance(event, CreditsIn | CreditsOut):
                kind = "cash_in" if isinstance(event, CreditsIn) else "cash_out"
                self.ledger.log(kind, actor or "attendant",
                                {"seat": event.seat, "amount": event.amount,
                                 "paytable_id": paytable_id}, at)
            elif isinstance(event, PaytableSwitched):
                new = self._switching_to
                assert new is not None, "a paytable switch goes through switch_paytable()"
                old_sha = self.ledger.setting("paytable_sha256")
                self.ledger.remember_paytable(new.sha256, new.paytable.id,
                                              new.path.read_text(encoding="utf-8"))
                self.ledger.set_setting("paytable_sha256", new.sha256)
                self.ledger.set_setting("paytable_path", str(new.path))
                self.ledger.log("paytable_change", actor,
                                {"old_id": event.old_id, "new_id": event.new_id,
                                 "old_sha256": old_sha, "new_sha256": new.sha256,
                                 "meters_carried": [m.value for m in event.meters_carried]}, at)
                self.round_open = None
                self.ledger.save_checkpoint("paytable_switch", state)
            elif isinstance(event, ShoeShuffled):
                self.ledger.log("reshuffle", actor, {"shuffle_number": event.shuffle_number,
                                                     "reason": event.reason.value}, at)
            elif isinstance(event, WagerVoided):  # MD Ch. 11 C
                self.ledger.log("wager_void", actor,
                                {"round": state.round.number, "seat": event.seat,
                                 "spot": event.spot, "wager": event.target.value,
                                 "amount": event.amount, "reason": event.reason}, at)
            elif isinstance(event, SeatAbandoned):  # MD Ch. 7 B(3)-(4)
                self.ledger.log("seat_abandoned", actor,
                                {"round": state.round.number, "seat": event.seat,
                                 "spots": list(event.spots), "rule": event.rule.value}, at)
            elif isinstance(event, _FLOOR_EVENTS):
                kind, details = _floor_entry(event)
                self.ledger.log(kind, actor, {**details, "paytable_id": paytable_id}, at)
            elif isinstance(event, RoundComplete | RoundVoided):
                record = self._record(state, event, at)
                self.ledger.append_round(record, round_meters(record))
                if isinstance(event, RoundVoided):
                    self.ledger.log("void", actor, {"round": event.round_number,
                                                    "reason": event.reason}, at)
                self.round_open = None
                if event.round_number % CHECKPOINT_EVERY == 0:
                    self.ledger.save_checkpoint("interval", state)

    def _record(self, state: TableState, finished: RoundComplete | RoundVoided,
                at: str) -> dict[str, Any]:
        """The hand-ledger record of the round that ``finished`` (see etg.ledger.recall)."""
        r = state.round
        opened = self.round_open
        assert opened is not None, "a round finishes after betting opened"
        voided = isinstance(finished, RoundVoided)
        shoe = state.shoe
        assert shoe is not None
        return {
            "round": r.number,
            "outcome": "voided" if voided else "complete",
            "void_reason": finished.reason if isinstance(finished, RoundVoided) else None,
            "paytable": {"id": state.paytable.id, "sha256": self.ledger.setting("paytable_sha256")},
            "opened_seq": opened.seq,
            "started_at": opened.at,
            "ended_at": at,
            "shoe": {"shuffle_number": shoe.shuffle_number, "cut_index": shoe.draw.cut_index},
            "seats": state.paytable.seats,
            "spots": state.paytable.spot_count,
            "credits_before": list(opened.credits),
            "credits_after": list(state.credits),
            "dealer": state.dealer,  # MD Ch. 8 E(4): who dealt it (dealers change between rounds)
            "dealer_card": _code(r.dealer_card),
            "dealer_war_card": _code(r.dealer_war_card),
            "spot_cards": [_code(c) for c in r.spot_cards],
            "war_cards": [_code(c) for c in r.war_cards],
            "wagers": [[{"initial": w.initial, "tie": w.tie,
                         "progressive_payout": w.progressive_payout} for w in row]
                       for row in r.placed],
            "bonus_spin": list(r.bonus_placed),
            "wheel": None if r.wheel is None else {"community": r.wheel.community,
                                                   "seat": r.wheel.seat,
                                                   "hot_spot": r.wheel.hot_spot},
            "events": [e for e in opened.events
                       if e["type"] not in ("CreditsIn", "CreditsOut")],
            "meters_after": {level.value: m.cents
                             for level, m in zip(LEVELS, state.meters, strict=True)
                             if m is not None},
        }


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


def _fault_text(error: BaseException) -> str:
    if isinstance(error, sqlite3.Error):
        return describe(error)
    if isinstance(error, OSError):
        return f"the ledger cannot be written: {error.strerror or error}"
    return str(error)


def _code(card: Any) -> str | None:
    return None if card is None else str(card.code)


def _actor_of(command: Command) -> str:
    name = type(command).__name__
    if name in ("PlaceWager", "PlaceBonusSpin", "ClearWagers", "RepeatWagers", "DoubleWagers",
                "Decide", "Tip"):
        return "player"
    if name in ("CashIn", "CashOut"):
        return "attendant"
    if name in ("Void", "VoidWager", "MarkAbandoned"):
        return "supervisor"
    if name == "ValidateJackpot":
        return "floorperson"
    if name == "SetJackpotRules":
        return "cabinet"
    return "dealer"


_FLOOR_EVENTS = (JackpotLocked, JackpotValidated, HandPaid, DealerSignedIn, TipGiven,
                 JackpotRulesSet)


def _floor_entry(event: Any) -> tuple[str, dict[str, Any]]:
    """The event-log entry of a jackpot, a hand pay, a dealer's sign-in, a tip or a threshold.

    A ``tip`` entry takes the cents out of the seat's credits in the ledger's own
    reckoning (as ``cash_out`` does) and counts on the dealer's tips meter; a
    ``hand_pay`` is the attendant's record of a jackpot paid by hand.
    """
    match event:
        case JackpotLocked(round_number=number, awards=awards):
            return "jackpot_lock", {"round": number, "awards": [
                {"seat": a.seat, "spot": a.spot, "kind": a.payment.kind.value, "amount": a.win,
                 "hand_pay": a.hand_pay} for a in awards]}
        case JackpotValidated(round_number=number, validator=validator, amount=amount,
                              hand_paid=hand_paid):
            return "jackpot_validated", {"round": number, "validator": validator,
                                         "amount": amount, "hand_paid": hand_paid}
        case HandPaid(round_number=number, seat=seat, spot=spot, kind=kind, amount=amount,
                      validator=validator):
            return "hand_pay", {"round": number, "seat": seat, "spot": spot, "kind": kind.value,
                                "amount": amount, "validator": validator}
        case DealerSignedIn(dealer_id=dealer, previous=previous):
            return "dealer_sign_in", {"dealer": dealer, "previous": previous}
        case TipGiven(seat=seat, dealer_id=dealer, amount=amount):
            return "tip", {"seat": seat, "dealer": dealer, "amount": amount}
        case JackpotRulesSet(hand_pay_cents=cents, previous=previous):
            return "jackpot_rules", {"hand_pay_cents": cents, "previous": previous}
    raise TypeError(f"not a floor event: {event!r}")

