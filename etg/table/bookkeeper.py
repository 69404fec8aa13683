"""What an accepted command writes to the ledger: its journal entry and whatever it finishes.

The controller (:mod:`etg.table.controller`) applies a command on its own thread and
hands the result, an :class:`Accepted`, to the ledger's writer
(:mod:`etg.ledger.writer`). Inside the writer's transaction the
:class:`Bookkeeper` journals it and books what it finishes: the hand-ledger
record and the meters of a finished round, the event-log entries of credits,
reshuffles, voids and paytable switches, and the rolling checkpoints.

The bookkeeper follows the ledger, not the screen: :attr:`Bookkeeper.booked`
is where the ledger stands after the last command it wrote (the state, and
the round in progress since betting opened), which can be ahead of what the
players have been shown and behind what the engine has accepted. It is only
touched by the work running in the writer's transaction, and by the
controller while the writer is stopped after a failure (to go back to the
last commit that stood).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from etg.config.loader import LoadedPaytable
from etg.core.commands import Command, OpenBets
from etg.core.events import (
    CreditsIn,
    CreditsOut,
    DealerSignedIn,
    Event,
    HandPaid,
    JackpotLocked,
    JackpotRulesSet,
    JackpotValidated,
    LevelsLinked,
    LinkedContributed,
    LinkedHitConfirmed,
    LinkStatusChanged,
    PaytableSwitched,
    RoundComplete,
    RoundVoided,
    SeatAbandoned,
    ShoeShuffled,
    TipGiven,
    WagerVoided,
)
from etg.core.jackpot import ValidatorRole
from etg.core.state import LEVELS, TableState
from etg.floor.outbox import OUTBOX_KIND, OutboxRow, entry_details
from etg.ledger.codec import dump_event
from etg.ledger.meters import round_meters
from etg.ledger.store import CHECKPOINT_EVERY, Ledger


@dataclass(frozen=True)
class RoundOpen:
    """The round in progress since betting opened: what its hand-ledger record will need."""

    seq: int  # the OpenBets entry
    at: str
    credits: tuple[int, ...]  # the seats' credits when betting opened
    events: tuple[dict[str, Any], ...] = ()

    def adding(self, events: Iterable[dict[str, Any]]) -> RoundOpen:
        return replace(self, events=(*self.events, *events))

    def checkpoint_body(self) -> dict[str, Any]:
        """What a checkpoint keeps of it, so a restart can still write the round's record
        (the events so far too: the journal keeps commands, not their events)."""
        return {"seq": self.seq, "at": self.at, "credits": list(self.credits),
                "events": list(self.events)}


@dataclass(frozen=True)
class Booked:
    """Where the ledger stands after a commit: the state it holds and the round in progress."""

    state: TableState
    round_open: RoundOpen | None


@dataclass(frozen=True)
class Accepted:
    """A command the engine accepted, with everything its commit needs."""

    command: Command
    actor: str | None
    round_number: int  # the round it was sent in
    state: TableState  # the table after it
    events: list[Event]
    at: str
    paytable: LoadedPaytable | None = None  # the new paytable of a switch


class Bookkeeper:
    """Writes accepted commands to the ledger, in the order the engine accepted them."""

    def __init__(self, ledger: Ledger, booked: Booked,
                 checkpoint_every: int = CHECKPOINT_EVERY) -> None:
        self.ledger = ledger
        self.booked = booked
        self.checkpoint_every = checkpoint_every
        """Rounds between two rolling checkpoints."""

    def commit(self, accepted: Accepted) -> Booked:
        """Journal ``accepted`` and book what it finishes; call inside the transaction.

        Returns where the ledger then stands.
        """
        ledger = self.ledger
        command, state, at = accepted.command, accepted.state, accepted.at
        seq = ledger.append_command(accepted.round_number, command, accepted.actor,
                                    accepted.events, at)
        opened = self.booked.round_open
        if isinstance(command, OpenBets):
            opened = RoundOpen(seq, at, state.credits)
        if opened is not None:
            opened = opened.adding(dump_event(e) for e in accepted.events)
        self.booked = Booked(state, self._book(accepted, opened))
        return self.booked

    def checkpoint(self, reason: str) -> None:
        """The ledger's state as it stands, with the round in progress (inside the transaction)."""
        opened = self.booked.round_open
        self.ledger.save_checkpoint(reason, self.booked.state,
                                    None if opened is None else opened.checkpoint_body())

    def _book(self, accepted: Accepted, opened: RoundOpen | None) -> RoundOpen | None:
        """The event-log entries, records and checkpoints ``accepted`` calls for.

        Returns the round in progress after it (None once a round is finished).
        """
        ledger, state, actor, at = self.ledger, accepted.state, accepted.actor, accepted.at
        paytable_id = state.paytable.id
        outbox: list[OutboxRow] = []
        for event in accepted.events:
            if isinstance(event, LinkedContributed):
                # SPEC §13: the outbox row, committed with the command before it is shipped
                outbox.append(OutboxRow(accepted.round_number, event.seat, event.level,
                                        event.wager_cents))
            elif isinstance(event, CreditsIn | CreditsOut):
                kind = "cash_in" if isinstance(event, CreditsIn) else "cash_out"
                ledger.log(kind, actor or "attendant",
                           {"seat": event.seat, "amount": event.amount,
                            "paytable_id": paytable_id}, at)
            elif isinstance(event, PaytableSwitched):
                new = accepted.paytable
                assert new is not None, "a paytable switch goes through Table.switch_paytable()"
                old_sha = ledger.setting("paytable_sha256")
                ledger.remember_paytable(new.sha256, new.paytable.id,
                                         new.path.read_text(encoding="utf-8"))
                ledger.set_setting("paytable_sha256", new.sha256)
                ledger.set_setting("paytable_path", str(new.path))
                ledger.log("paytable_change", actor,
                           {"old_id": event.old_id, "new_id": event.new_id,
                            "old_sha256": old_sha, "new_sha256": new.sha256,
                            "meters_carried": [m.value for m in event.meters_carried]}, at)
                opened = None
                ledger.save_checkpoint("paytable_switch", state)
            elif isinstance(event, ShoeShuffled):
                ledger.log("reshuffle", actor, {"shuffle_number": event.shuffle_number,
                                                "reason": event.reason.value}, at)
            elif isinstance(event, WagerVoided):  # MD Ch. 11 C
                ledger.log("wager_void", actor,
                           {"round": state.round.number, "seat": event.seat,
                            "spot": event.spot, "wager": event.target.value,
                            "amount": event.amount, "reason": event.reason}, at)
            elif isinstance(event, SeatAbandoned):  # MD Ch. 7 B(3)-(4)
                ledger.log("seat_abandoned", actor,
                           {"round": state.round.number, "seat": event.seat,
                            "spots": list(event.spots), "rule": event.rule.value}, at)
            elif isinstance(event, _FLOOR_EVENTS):
                kind, details = _floor_entry(event)
                ledger.log(kind, actor, {**details, "paytable_id": paytable_id}, at)
            elif isinstance(event, RoundComplete | RoundVoided):
                assert opened is not None, "a round finishes after betting opened"
                record = self._record(state, event, at, opened)
                ledger.append_round(record, round_meters(record))
                if isinstance(event, RoundVoided):
                    ledger.log("void", actor, {"round": event.round_number,
                                               "reason": event.reason}, at)
                opened = None
                if event.round_number % self.checkpoint_every == 0:
                    ledger.save_checkpoint("interval", state)
        if outbox:
            ledger.log(OUTBOX_KIND, actor, entry_details(outbox), at)
        return opened

    def _record(self, state: TableState, finished: RoundComplete | RoundVoided, at: str,
                opened: RoundOpen) -> dict[str, Any]:
        """The hand-ledger record of the round that ``finished`` (see etg.ledger.recall)."""
        r = state.round
        voided = isinstance(finished, RoundVoided)
        shoe = state.shoe
        assert shoe is not None
        return {
            "round": r.number,
            "outcome": "voided" if voided else "complete",
            "void_reason": finished.reason if isinstance(finished, RoundVoided) else None,
            "paytable": {"id": state.paytable.id,
                         "sha256": self.ledger.setting("paytable_sha256")},
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


def _code(card: Any) -> str | None:
    return None if card is None else str(card.code)


_FLOOR_EVENTS = (JackpotLocked, JackpotValidated, HandPaid, DealerSignedIn, TipGiven,
                 JackpotRulesSet, LevelsLinked, LinkStatusChanged, LinkedHitConfirmed)


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
                              hand_paid=hand_paid, role=role):
            return "jackpot_validated", {"round": number, "validator": validator,
                                         "role": _role(role), "amount": amount,
                                         "hand_paid": hand_paid}
        case HandPaid(round_number=number, seat=seat, spot=spot, kind=kind, amount=amount,
                      validator=validator, role=role):
            return "hand_pay", {"round": number, "seat": seat, "spot": spot, "kind": kind.value,
                                "amount": amount, "validator": validator, "role": _role(role)}
        case DealerSignedIn(dealer_id=dealer, previous=previous):
            return "dealer_sign_in", {"dealer": dealer, "previous": previous}
        case TipGiven(seat=seat, dealer_id=dealer, amount=amount):
            return "tip", {"seat": seat, "dealer": dealer, "amount": amount}
        case JackpotRulesSet(hand_pay_cents=cents, previous=previous):
            return "jackpot_rules", {"hand_pay_cents": cents, "previous": previous}
        case LevelsLinked(levels=levels, previous=previous):  # SPEC §13
            return "link_levels", {"levels": [level.value for level in levels],
                                   "previous": [level.value for level in previous]}
        case LinkStatusChanged(up=up):
            return "link_status", {"up": up}
        case LinkedHitConfirmed():
            return "linked_hit", {"round": event.round_number, "level": event.level.value,
                                  "seat": event.seat, "spot": event.spot,
                                  "amount": event.amount, "hit_id": event.hit_id,
                                  "order_no": event.order_no, "meter_after": event.meter_after,
                                  "hand_pay": event.hand_pay}
    raise TypeError(f"not a floor event: {event!r}")


def _role(role: ValidatorRole | None) -> str | None:
    """A validator's role in an event-log entry (MD Ch. 9 J(4)(c)); None: not recorded."""
    return None if role is None else role.value
