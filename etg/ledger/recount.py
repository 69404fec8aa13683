"""The money recomputed entry by entry, from a checkpoint on (:mod:`etg.ledger.verify`, item 4).

A :class:`Recount` follows the figures a checkpoint holds — each seat's credits,
each progressive meter and its reserve, every meter — through the entries
after it: cash in and out, tips, each round's result and progressive flows,
each round's and each log entry's meters. At every round, every checkpoint and
at the end it compares what the ledger adds up to with what was recorded.

The money identity includes what left by the attendant's hand: the hand pays a
round's validation made (its ``hand_pay`` log entries) must be on that round's
attendant-paid meter, so that coin in − coin out − attendant-paid jackpots is
the house's win. A round voided after a hand pay (MD Ch. 9 J(4); SPEC §2 allows
no such void) counts none of it, and is reported.

A round is read from its header alone (:func:`etg.ledger.entry.round_header`:
its credits, its progressive meters after it and its summary), without
decoding its events; ``events`` makes each summary again from the round's
events and compares (start-up, for the rounds after the newest checkpoint, and
``etg ledger verify --events``).

The recount can be split at checkpoints between rounds: a recount started at
such a checkpoint starts from the figures it holds (:meth:`Recount.start`), a
recount that reaches it compares them, and :meth:`Recount.figures` states all
a recount carries from one entry to the next, so that the stretch after the
checkpoint is shown to start from exactly where the stretch before it ended
(``verify --full`` in worker processes, :mod:`etg.ledger.verify`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import zip_longest
from operator import add
from typing import Any

from etg.core.money import format_cents
from etg.core.state import LEVELS, Phase, TableState
from etg.ledger.derived import meter_differences
from etg.ledger.entry import COMPACT, Entry, EntryKind, checkpoint_data
from etg.ledger.meters import ATTENDANT_PAID_JACKPOTS_AMOUNT, log_meters, round_meters
from etg.ledger.money import CONTRIBUTED, settled_net, summarize
from etg.ledger.store import Ledger, Problem

MAX_PROBLEMS = 12
"""Problems reported per check; the rest are counted."""

LEVEL_NAMES = tuple(level.value for level in LEVELS)


@dataclass(frozen=True)
class Figures:
    """Everything a recount carries from one entry to the next, as plain values.

    ``seq``: the checkpoint they stand at (0 at the end of a walk). Meters are
    kept without zeros, so two recounts that agree compare equal.
    """

    seq: int
    credits: tuple[int, ...]
    progressives: tuple[int | None, ...]
    reserves: tuple[int, ...]
    meters: tuple[tuple[str, tuple[tuple[tuple[int, str], int], ...]], ...]
    at_open: tuple[int, ...] | None
    open_seq: int | None
    cash: tuple[tuple[int, int, int], ...]


@dataclass
class Recount:
    """The money recomputed entry by entry, from a checkpoint on."""

    ledger: Ledger
    events: bool = False  # decode every round's events and make its summary again
    found: list[Problem] = field(default_factory=list)
    hidden: int = 0  # problems found and not kept (in worker processes, beyond a hundred)
    credits: list[int] | None = None  # per seat, as cash-in − cash-out + results say
    progressives: list[int | None] = field(default_factory=list)
    reserves: list[int] = field(default_factory=list)
    meters: dict[str, Counter[tuple[int, str]]] = field(default_factory=dict)
    at_open: list[int] | None = None  # a round open at the checkpoint: its credits then
    open_seq: int | None = None  # and its OpenBets entry
    rounds_meters: dict[str, dict[str, list[list[int]]]] = field(default_factory=dict)
    cash: list[tuple[int, int, int]] = field(default_factory=list)  # (entry, seat, amount) since
    # the last round: a round's credits before it are the credits less those after its OpenBets
    started: Figures | None = None  # the figures of the first checkpoint it started from
    hand_paid: dict[int, int] = field(default_factory=dict)  # per round, cents paid by hand
    # (its ``hand_pay`` log entries) until the round's record; a round is never split
    last_checkpoint: int = 0  # the newest checkpoint read

    def feed(self, entry: Entry) -> None:
        """Count one entry (the walk feeds every entry but the commands)."""
        kind = entry.kind
        if kind == EntryKind.CHECKPOINT.value:
            self._checkpoint(entry)
        elif self.credits is None:
            return  # nothing to count from until the first checkpoint
        elif kind == EntryKind.EVENT.value:
            self._event(entry)
        elif kind == EntryKind.ROUND.value:
            self._round(entry)

    def feed_header(self, seq: int, number: int, record: dict[str, Any]) -> None:
        """Count a compact round from its header (:func:`etg.ledger.entry.round_header`)
        alone: what :meth:`feed` does with it unless :attr:`events` is set."""
        if self.credits is not None:
            self._count_round(seq, number, record, record["summary"])

    def finish(self, state: TableState | None) -> list[Problem]:
        """Compare the state now with what the ledger adds up to, and the meters table."""
        if self.credits is None or state is None:
            return capped(self.found, self.hidden)
        self._compare_state(state, "now", "the table's state")
        problems = self.found
        actual = self.ledger.meters()
        self._add_rounds()
        problems += meter_differences(actual, {pid: +c for pid, c in self.meters.items()})
        return capped(problems, self.hidden)

    # --- carrying the figures over ----------------------------------------------------------

    def figures(self, seq: int = 0) -> Figures | None:
        """Everything this recount carries, as it stands (None before its first checkpoint)."""
        if self.credits is None:
            return None
        self._add_rounds()
        return Figures(
            seq, tuple(self.credits), tuple(self.progressives), tuple(self.reserves),
            tuple(sorted((pid, tuple(sorted((k, v) for k, v in c.items() if v)))
                         for pid, c in self.meters.items() if any(c.values()))),
            None if self.at_open is None else tuple(self.at_open), self.open_seq,
            tuple(self.cash))

    def start(self, figures: Figures | None) -> None:
        """Go on from ``figures`` (another recount's, up to the same entry)."""
        if figures is None:
            self.credits = None
            return
        self.credits = list(figures.credits)
        self.progressives = list(figures.progressives)
        self.reserves = list(figures.reserves)
        self.meters = {pid: Counter(dict(rows)) for pid, rows in figures.meters}
        self.at_open = None if figures.at_open is None else list(figures.at_open)
        self.open_seq = figures.open_seq
        self.cash = list(figures.cash)
        self.rounds_meters = {}
        self.hand_paid = {}
        self.last_checkpoint = figures.seq

    # --- entries --------------------------------------------------------------------------

    def _checkpoint(self, entry: Entry) -> None:
        body, state = checkpoint_data(entry)
        self.last_checkpoint = entry.seq
        if self.credits is None or body["reason"] in ("paytable_switch", "migration"):
            if self.credits is not None and any(self.credits):
                self._found("credits", f"entries row {entry.seq}: the paytable was switched "
                                       f"with credits on the seats {self.credits}")
            # Mid-round, the money on the table and this round's contributions are counted
            # when the round ends: start from the credits and meters as they were before it.
            self.credits, meters = list(state.credits), state.meters
            if in_round(state):
                self.credits = [c + s - r for c, s, r in zip(
                    self.credits, state.round.staked, state.round.returned, strict=True)]
                meters = state.round.meters_before or meters
            self.progressives = [None if m is None else m.cents for m in meters]
            self.reserves = [0 if m is None else m.reserve_cents for m in meters]
            self.meters = {pid: Counter({(seat, name): value for seat, name, value in rows})
                           for pid, rows in body["meters"].items()}
            self.rounds_meters = {}
            opened = body.get("round_open")
            self.at_open = None if opened is None else list(opened["credits"])
            self.open_seq = None if opened is None else int(opened["seq"])
            self.cash = []
            if self.started is None:
                self.started = self.figures(entry.seq)
            return
        where = f"entries row {entry.seq} (checkpoint)"
        if body["credits"] != list(state.credits) or body["progressives"] != [
                None if m is None else m.cents for m in state.meters]:
            self._found("checkpoint", f"{where}: its credits or meters differ from its state")
        self._compare_state(state, where, where)
        recorded = {pid: counted for pid, counted in (
            (pid, {(seat, name): value for seat, name, value in rows if value})
            for pid, rows in body["meters"].items()) if counted}
        self._add_rounds()
        if recorded != _nonzero(self.meters):
            self._found("meters", f"{where}: its meters differ from the ledger's sums")

    def _event(self, entry: Entry) -> None:
        details = entry.data()
        kind = entry.tag
        # A tip leaves the seat's credits for the dealer's tip box as cash out leaves them.
        if kind in ("cash_in", "cash_out", "tip") and self.credits is not None:
            seat = int(details["seat"])
            amount = int(details["amount"])
            delta = amount if kind == "cash_in" else -amount
            self.credits[seat - 1] += delta
            self.cash.append((entry.seq, seat, delta))
            if self.credits[seat - 1] < 0:
                self._found("credits", f"entries row {entry.seq}: seat {seat} "
                                       f"{'tipped' if kind == 'tip' else 'cashed out'} more "
                                       f"than its credits")
        if kind == "hand_pay":
            number = int(details["round"])
            self.hand_paid[number] = self.hand_paid.get(number, 0) + int(details["amount"])
        if kind == "ram_clear":
            self.meters, self.rounds_meters = {}, {}
        logged = {"id": entry.seq, "at": entry.at, "kind": kind, "actor": entry.actor,
                  "details": details}
        owner = str(details.get("paytable_id", "cabinet"))
        self.meters.setdefault(owner, Counter()).update(log_meters(logged))

    def _round(self, entry: Entry) -> None:
        record, summary = self._summary(entry, _where(entry.seq, entry.round))
        self._count_round(entry.seq, entry.round, record, summary)

    def _count_round(self, seq: int, number: int, record: dict[str, Any],
                     summary: dict[str, Any]) -> None:
        """One round's money: its credits before and after, its flows and its meters."""
        credits = self.credits
        assert credits is not None
        complete = record["outcome"] == "complete"
        rows = self.rounds_meters.setdefault(record["paytable"]["id"], {})
        for name, row in summary["meters"].items():  # added up when compared (_add_rounds)
            if name in rows:
                rows[name].append(row)
            else:
                rows[name] = [row]
        opened = int(record["opened_seq"])
        if self.at_open is not None and self.open_seq == opened:
            at_open = self.at_open
        elif self.cash:  # the credits when betting opened: less the cash since then
            at_open = list(credits)
            for cash_seq, seat, delta in self.cash:
                if cash_seq > opened:
                    at_open[seat - 1] -= delta
        else:
            at_open = credits
        if record["credits_before"] != at_open:
            self._found("credits", f"{_where(seq, number)}: credits before "
                                   f"{record['credits_before']}, the ledger adds up to {at_open}")
        net = summary["net"] if complete else None
        if net is None:
            expected = credits
        elif len(net) == len(credits):
            expected = list(map(add, credits, net))
        else:
            raise ValueError(f"{len(net)} seats' results for {len(credits)} seats")
        after = record["credits_after"]
        if after != expected:
            self._found("credits", f"{_where(seq, number)}: credits after {after}, cash-in, "
                                   f"cash-out and results add up to {expected}")
        if min(after, default=0) < 0:
            self._found("credits", f"{_where(seq, number)}: negative credits {after}")
        self.credits = list(after)
        self._hand_pays(summary, complete, seq, number)
        if complete:
            self._progressive(summary["progressive"], seq, number)
        meters_after = record.get("meters_after")
        if meters_after:
            for level, value in zip(LEVEL_NAMES, self.progressives, strict=False):
                if level in meters_after and meters_after[level] != value:
                    self._found("progressive", f"{_where(seq, number)}: the {level} meter after "
                                               f"it is {meters_after[level]}, its contributions "
                                               f"and awards add up to {value}")
        self.at_open, self.open_seq = None, None
        if self.cash:
            self.cash = []

    def _add_rounds(self) -> None:
        """Add the meters of the rounds read since the last time to :attr:`meters`: column by
        column, so a year of rounds costs a few sums a meter, not a dictionary a round."""
        for paytable_id, names in self.rounds_meters.items():
            counter = self.meters.setdefault(paytable_id, Counter())
            for name, rows in names.items():
                for seat, total in enumerate(map(sum, zip_longest(*rows, fillvalue=0))):
                    if total:
                        counter[(seat, name)] += total
        self.rounds_meters = {}

    def _summary(self, entry: Entry, where: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The round's record (its header, unless its events are needed) and its summary.

        A verbose round has none stored: it is made from its events. With
        :attr:`events`, a compact round's is made again and compared.
        """
        if entry.format == COMPACT and not self.events:
            record = entry.round_header()
            return record, record["summary"]
        record = self.ledger.record_of(entry)
        if "unreadable" in record:
            raise ValueError(record["unreadable"])
        made = summarize(record, round_meters(record))
        if record["outcome"] == "complete" and made["net"] is not None:
            settled = settled_net(record, len(made["net"]))
            if settled != made["net"]:
                self._found("credits", f"{where}: its net {made['net']} is not the sum of its "
                                       f"settled wagers {settled}")
        stored = record.get("summary")
        if stored is not None and stored != made:
            self._found("summary", f"{where}: its summary differs from its events")
        return record, made

    # --- helpers ------------------------------------------------------------------------

    def _progressive(self, flows: Iterable[list[Any]], seq: int, number: int) -> None:
        """Follow each progressive meter through a round's flows (:data:`CONTRIBUTED`)."""
        meters, reserves = self.progressives, self.reserves
        for flow in flows:
            level = flow[1]
            i = LEVEL_NAMES.index(level)
            if flow[0] == CONTRIBUTED:
                _, _, to_meter, to_reserve, after = flow
                value = meters[i]
                if value is not None:
                    meters[i] = value + to_meter
                    reserves[i] += to_reserve
                    if meters[i] != after:
                        self._found("progressive", f"{_where(seq, number)}: the {level} meter "
                                                   f"is {after}, its contributions add up to "
                                                   f"{meters[i]}")
                continue
            _, _, before, amount, seeded, from_reserve, after = flow
            if meters[i] != before:
                self._found("progressive", f"{_where(seq, number)}: the {level} meter paid "
                                           f"{before}, the ledger adds up to {meters[i]}")
            meters[i] = before - amount + seeded + from_reserve
            reserves[i] -= from_reserve
            if meters[i] != after or reserves[i] < 0:
                self._found("progressive", f"{_where(seq, number)}: the {level} meter after the "
                                           f"award is {after}, the ledger adds up to {meters[i]}")

    def _hand_pays(self, summary: dict[str, Any], complete: bool, seq: int,
                   number: int) -> None:
        """The round's hand pays (its ``hand_pay`` log entries) against its attendant-paid
        meter: equal, or coin in − coin out − attendant-paid is not the house's win.

        A round with no hand pay logged is not compared: one recorded before validation
        existed counted its credited progressive awards there (see etg.ledger.meters).
        """
        by_hand = self.hand_paid.pop(number, 0)
        if not by_hand:
            return
        # A voided round counts no meter but its voids (etg.ledger.meters.round_meters).
        metered = summary["meters"].get(ATTENDANT_PAID_JACKPOTS_AMOUNT, [0])[0]
        if metered != by_hand:
            voided = "" if complete else ", as the round was voided"
            self._found("meters", f"{_where(seq, number)}: the attendant paid "
                                  f"{format_cents(by_hand)} by hand, its attendant-paid meter "
                                  f"counts {format_cents(metered)}{voided}: coin in − coin out "
                                  f"− attendant-paid is not the house's win (SPEC §2)")

    def _compare_state(self, state: TableState, where: str, what: str) -> None:
        """The state against the running figures; mid-round, against the figures the round
        started from (its stakes out of the credits, the meters before its contributions)."""
        assert self.credits is not None
        expected = list(self.credits)
        meters = state.meters
        if in_round(state):
            expected = [c - s + r for c, s, r in
                        zip(expected, state.round.staked, state.round.returned, strict=True)]
            meters = state.round.meters_before or meters
        cents = [None if m is None else m.cents for m in meters]
        reserves = [0 if m is None else m.reserve_cents for m in meters]
        if list(state.credits) != expected:
            self._found("credits", f"{where}: {what} holds credits {list(state.credits)}, "
                                   f"cash-in, cash-out and results add up to {expected}")
        if any(c < 0 for c in state.credits):
            self._found("credits", f"{where}: negative credits {list(state.credits)}")
        if cents != self.progressives:
            self._found("progressive", f"{where}: {what} holds progressive meters {cents}, "
                                       f"contributions and awards add up to {self.progressives}")
        elif reserves != self.reserves:
            self._found("progressive", f"{where}: {what} holds progressive reserves {reserves}, "
                                       f"contributions and awards add up to {self.reserves}")

    def _found(self, check: str, message: str) -> None:
        self.found.append(Problem(check, message))


def in_round(state: TableState) -> bool:
    return state.phase not in (Phase.IDLE, Phase.COMPLETE, Phase.VOIDED) and \
        bool(state.round.staked)


def capped(problems: list[Problem], hidden: int = 0) -> list[Problem]:
    """The first :data:`MAX_PROBLEMS` problems, and how many more were found."""
    if len(problems) + hidden <= MAX_PROBLEMS:
        return problems
    more = len(problems) + hidden - MAX_PROBLEMS
    if len(problems) <= MAX_PROBLEMS:
        return [*problems, Problem(problems[-1].check if problems else "chain",
                                   f"and {more} more problems")]
    return [*problems[:MAX_PROBLEMS], Problem(problems[-1].check, f"and {more} more problems")]


def _where(seq: int, number: int) -> str:
    return f"entries row {seq} (round {number})"


def _nonzero(meters: dict[str, Counter[tuple[int, str]]]) -> dict[str, dict[tuple[int, str], int]]:
    """The meters without their zeros: what a comparison of two sets of meters looks at."""
    out = {pid: {k: v for k, v in c.items() if v} for pid, c in meters.items()}
    return {pid: c for pid, c in out.items() if c}
