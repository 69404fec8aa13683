"""The controller: commands in, the engine, one committed transaction, then events out.

Every state change goes through :meth:`Table.send`: the engine computes the
new state and its events (a refusal raises and writes nothing), the ledger
commits the command, its events and whatever they finish (a hand-ledger row,
meters, event-log entries) in one transaction, and only then do listeners,
the screen among them, hear of it (SPEC §5: write before show).

On start the table is rebuilt from the ledger: the last snapshot, then the
journal after it replayed through the same pure engine. The integrity checks
run; a failure tilts the table, which then refuses play until an operator
acknowledges it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from etg.config.loader import LoadedPaytable
from etg.core.commands import (
    Command,
    OpenBets,
    Shuffle,
    ShuffleReason,
    Spin,
    SwitchPaytable,
)
from etg.core.engine import apply, new_table
from etg.core.events import (
    CreditsIn,
    CreditsOut,
    Event,
    PaytableSwitched,
    RoundComplete,
    RoundVoided,
    ShoeShuffled,
)
from etg.core.rng import RandomSource, SystemSource
from etg.core.shoe import draw_shoe
from etg.core.state import LEVELS, TableState
from etg.core.wheel import draw_stops
from etg.ledger.codec import load_command
from etg.ledger.meters import round_meters
from etg.ledger.store import Ledger, Problem, now
from etg.ledger.verify import checkpoint, verify

Listener = Callable[[TableState, list[Event]], None]


class TableTilted(RuntimeError):
    """The table is tilted: play stops until an operator acknowledges (SPEC §5)."""


@dataclass
class Tilt:
    problems: list[Problem]

    @property
    def message(self) -> str:
        return "; ".join(f"{p.check}: {p.message}" for p in self.problems)


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
        self._switching_to: LoadedPaytable | None = None

    # --- life cycle -------------------------------------------------------------------------

    @classmethod
    def open(cls, ledger: Ledger, paytable: LoadedPaytable, source: RandomSource | None = None,
             credits: tuple[int, ...] | None = None) -> Table:
        """Power up: rebuild the exact state from the ledger (or start a new table) and check it."""
        source = source or SystemSource()
        snapshot = ledger.last_snapshot()
        if snapshot is None:
            state = new_table(paytable.paytable, credits)
            with ledger.atomic():
                ledger.remember_paytable(paytable.sha256, paytable.paytable.id,
                                         paytable.path.read_text(encoding="utf-8"))
                ledger.set_setting("paytable_sha256", paytable.sha256)
                ledger.set_setting("paytable_path", str(paytable.path))
                ledger.save_snapshot(0, state)
                ledger.log("paytable_change", "installer",
                           {"old_sha256": None, "new_sha256": paytable.sha256,
                            "paytable_id": paytable.paytable.id})
            table = cls(ledger, paytable, state, source)
        else:
            table = cls(ledger, paytable, snapshot[1], source)
            table.state = table._replay(snapshot[0], snapshot[1])
        with ledger.atomic():
            ledger.log("power_up", None, {"round": table.state.round.number,
                                          "phase": table.state.phase.value})
        table._check(paytable)
        return table

    def close(self) -> None:
        with self.ledger.atomic():
            self.ledger.log("shutdown", None, {"round": self.state.round.number,
                                               "phase": self.state.phase.value})
        self.ledger.close()

    @property
    def tilted(self) -> bool:
        return self.tilt is not None

    def acknowledge_tilt(self, operator: str) -> None:
        """An operator has seen the failure and takes responsibility for play to go on."""
        if self.tilt is None:
            return
        with self.ledger.atomic():
            self.ledger.log("tilt_cleared", operator, {"problems": self.tilt.message})
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
        with self.ledger.atomic():
            self.ledger.log("ram_clear", operator, {"after_round": self.ledger.round_count()})
            self.ledger.db.execute("DELETE FROM meters")

    # --- play -------------------------------------------------------------------------------

    def send(self, command: Command, actor: str | None = None) -> list[Event]:
        """Apply, commit, then tell the listeners.

        Raises Refused (the engine's reason) or TableTilted; either way nothing is written.
        """
        if self.tilt is not None:
            raise TableTilted(f"the table is tilted: {self.tilt.message}")
        state, events = apply(self.state, command)
        at = now()
        with self.ledger.atomic():
            seq = self.ledger.append_command(self.state.round.number, command, actor, events, at)
            if isinstance(command, OpenBets):
                self.ledger.save_snapshot(seq, state)
            self._book(state, events, actor, at)
        self.state = state
        for listener in self.listeners:
            listener(state, events)
        return events

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

    def _replay(self, seq: int, state: TableState) -> TableState:
        for row in self.ledger.journal_after(seq):
            state, _ = apply(state, load_command(row["command"]))
        return state

    def _check(self, paytable: LoadedPaytable) -> None:
        problems = verify(self.ledger, paytable, full=False)
        open_tilt = self._unacknowledged_tilt()
        if problems:
            with self.ledger.atomic():
                for problem in problems:
                    self.ledger.log("tilt", None, {"check": problem.check,
                                                   "message": problem.message})
            self.tilt = Tilt(problems)
        elif open_tilt:
            self.tilt = Tilt(open_tilt)
        else:
            with self.ledger.atomic():
                checkpoint(self.ledger)  # the next start verifies only what comes after

    def _unacknowledged_tilt(self) -> list[Problem]:
        pending: list[Problem] = []
        for entry in self.ledger.event_log():
            if entry["kind"] == "tilt":
                pending.append(Problem(entry["details"]["check"], entry["details"]["message"]))
            elif entry["kind"] == "tilt_cleared":
                pending = []
        return pending

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
            elif isinstance(event, ShoeShuffled):
                self.ledger.log("reshuffle", actor, {"shuffle_number": event.shuffle_number,
                                                     "reason": event.reason.value}, at)
            elif isinstance(event, RoundComplete | RoundVoided):
                record = self._record(state, event, at)
                self.ledger.append_round(record)
                self.ledger.add_meters(paytable_id, round_meters(record))
                if isinstance(event, RoundVoided):
                    self.ledger.log("void", actor, {"round": event.round_number,
                                                    "reason": event.reason}, at)

    def _record(self, state: TableState, finished: RoundComplete | RoundVoided,
                at: str) -> dict[str, Any]:
        """The hand-ledger record of the round that ``finished`` (see etg.ledger.recall)."""
        r = state.round
        journal = self.ledger.round_journal(r.number)
        opened = next(row for row in journal if row["command"]["type"] == "OpenBets")
        before = self.ledger.snapshot_at(opened["seq"])
        assert before is not None
        events = [e for row in journal if row["seq"] >= opened["seq"] for e in row["events"]
                  if e["type"] not in ("CreditsIn", "CreditsOut")]  # those are in the event log
        voided = isinstance(finished, RoundVoided)
        shoe = state.shoe
        assert shoe is not None
        return {
            "round": r.number,
            "outcome": "voided" if voided else "complete",
            "void_reason": finished.reason if isinstance(finished, RoundVoided) else None,
            "paytable": {"id": state.paytable.id, "sha256": self.ledger.setting("paytable_sha256")},
            "started_at": opened["at"],
            "ended_at": at,
            "shoe": {"shuffle_number": shoe.shuffle_number, "cut_index": shoe.draw.cut_index},
            "seats": state.paytable.seats,
            "spots": state.paytable.spot_count,
            "credits_before": list(before.credits),
            "credits_after": list(state.credits),
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
            "events": events,
            "meters_after": {level.value: m.cents
                             for level, m in zip(LEVELS, state.meters, strict=True)
                             if m is not None},
        }


def _code(card: Any) -> str | None:
    return None if card is None else str(card.code)


def _actor_of(command: Command) -> str:
    name = type(command).__name__
    if name in ("PlaceWager", "PlaceBonusSpin", "ClearWagers", "RepeatWagers", "DoubleWagers",
                "Decide"):
        return "player"
    if name in ("CashIn", "CashOut"):
        return "attendant"
    if name == "Void":
        return "supervisor"
    return "dealer"

