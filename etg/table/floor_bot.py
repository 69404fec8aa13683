"""A bot table on the floor's link: its own ledger, its own role, bots at the seats (SPEC §13).

``python -m etg.table.floor_bot --uri … --table-id t01 --ledger t01.db`` plays
rounds with bots, through the real controller and ledger, linked to the floor's
controller by the same :class:`~etg.table.linked.LinkedTable` a kiosk uses. ``etg
floor demo`` starts one per table, the load tests forty; each can be SIGKILLed at
any moment, and started again on the same ledger it goes on where its last commit
left it. SIGTERM stops it after the command in hand, the ledger closed cleanly.

At the end it prints one JSON line a table: ``{"id", "rounds", "tilted",
"contributions": {level: cents}}``, the contributions read back from its own
ledger's outbox. ``--group FILE`` plays several tables, a thread each with its own
ledger, link and connection, in one interpreter (forty interpreters take minutes to
start on two shared cores; SIGKILL then takes a group of tables down at once).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from etg import stop
from etg.config.cabinet import Link
from etg.config.loader import LoadedPaytable, load_paytable
from etg.core.commands import Command, RepeatWagers
from etg.core.events import Event, LinkedContributed, LinkedMetersShown, LinkStatusChanged
from etg.core.jackpot import JackpotRules
from etg.core.paytable import ProgressiveLevel
from etg.core.refusal import Reason, Refused
from etg.core.rng import SeededSource, SystemSource
from etg.core.state import TableState
from etg.floor.link import Acked
from etg.floor.outbox import ledger_contributions
from etg.ledger.store import Ledger, LedgerKind
from etg.table.bots import RoundDriver, busiest_bots, demo_bots
from etg.table.controller import Table
from etg.table.linked import LinkedTable

_BONUS_LEVELS = {ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY}
WAIT_FOR_AMOUNT_S = 0.02
"""How often a table whose lock waits for the controller's amount asks its link again."""
PUMP_S = 0.05
"""How often a resting table sends what its link asks for (a kiosk does each frame)."""


class LinkedBotTable:
    """A table, its link and its bots: play a round, the link's answers sent between commands."""

    def __init__(self, table: Table, link: LinkedTable, bots: str = "busiest",
                 seed: int | None = None) -> None:
        self.table = table
        self.link = link
        paytable = table.state.paytable
        chosen = busiest_bots(paytable) if bots == "busiest" else demo_bots(paytable)
        source = SeededSource(seed) if seed is not None else SystemSource()
        self.driver = RoundDriver(chosen, source, self._apply, repeat=True)
        # While the link is down the linked wagers are refused: the players keep the base
        # game and the unlinked wagers (issue 27, item 3).
        linked = set(link.config.levels)
        self.unlinked = RoundDriver(
            [replace(b, bonus_spin=0 if linked & _BONUS_LEVELS else b.bonus_spin,
                     progressive_payout=0 if ProgressiveLevel.PROGRESSIVE_PAYOUT in linked
                     else b.progressive_payout) for b in chosen],
            source, self._apply, repeat=False)

    def rest(self, seconds: float) -> None:
        """Between rounds, as a kiosk between frames: the link's answers are still sent (the
        meters shown, the link going down or back) while nobody plays."""
        end = time.monotonic() + seconds
        while time.monotonic() < end and not stop.requested():
            self.link.pump()
            time.sleep(min(PUMP_S, max(0.0, end - time.monotonic())))

    def play_round(self) -> None:
        self.link.pump()
        state = self.table.state
        driver = self.unlinked if state.link_down else self.driver
        driver.play_round(state)

    def _apply(self, state: TableState, command: Command) -> tuple[TableState, list[Event]]:
        """The table's own apply, with the link's answers sent first; a validation waits
        for the controller's amount of a linked hit (the lock holds until then)."""
        while True:
            self.link.pump()
            try:
                return self.table.apply(self.table.state, command)
            except Refused as refused:
                if refused.reason is Reason.LINK_DOWN:  # the link went down while betting
                    return self._without_linked(command)
                if refused.reason is not Reason.LINK_PENDING or stop.requested():
                    raise
            time.sleep(WAIT_FOR_AMOUNT_S)

    def _without_linked(self, command: Command) -> tuple[TableState, list[Event]]:
        """A linked wager refused: the player keeps it; a REPEAT places the rest one by one."""
        events: list[Event] = []
        if isinstance(command, RepeatWagers):
            for placing in self.unlinked.bots[command.seat].bets():
                try:
                    events += self.table.send(placing, actor="player")
                except Refused:
                    break
        return self.table.state, events


class Timeline:
    """When things happened at this table, on the machine's monotonic clock (for ``etg bench``):
    each linked row's commit and acknowledgement, the meters as shown, the link going down
    and back, the outbox drained."""

    def __init__(self) -> None:
        self.committed: dict[tuple[int, int, str], float] = {}
        self.ack_ms: list[tuple[float, float]] = []  # when acknowledged, after how long
        self.queued_ms: list[tuple[float, float]] = []  # of which waiting for the shipment
        self.acked: list[tuple[float, dict[str, int]]] = []  # a batch's first commit, meters
        self.shown: list[tuple[float, dict[str, int]]] = []
        self.down_at: list[float] = []
        self.up_at: list[float] = []
        self.drained_at: list[float] = []
        self.most_pending = 0
        self.link: LinkedTable | None = None

    def heard(self, state: TableState, events: list[Event]) -> None:
        now = time.monotonic()
        for event in events:
            if isinstance(event, LinkedContributed):
                self.committed[(state.round.number, event.seat, event.level.value)] = now
            elif isinstance(event, LinkedMetersShown):  # every linked meter as now shown
                self.shown.append((now, {m.level.value: m.cents for m in state.linked
                                         if m.cents is not None}))
            elif isinstance(event, LinkStatusChanged):
                (self.up_at if event.up else self.down_at).append(now)
        if self.link is not None:
            self.most_pending = max(self.most_pending, self.link.link.depth)

    def ack(self, acked: Acked) -> None:
        times = [self.committed.pop(row.key, None) for row in acked.rows]
        known = [t for t in times if t is not None]
        self.ack_ms += [(acked.acked_at, (acked.acked_at - t) * 1000) for t in known]
        self.queued_ms += [(acked.acked_at, (acked.sent_at - t) * 1000) for t in known]
        if self.link is not None:
            if known:
                self.acked.append((min(known), {k.value: v for k, v in
                                                self.link.link.meters.items()}))
            # the outbox empty again after the link was lost (the link's thread may drain it
            # before the table has heard that the link is back)
            if self.link.link.depth == 0 and self.down_at and (
                    not self.drained_at or self.drained_at[-1] < self.down_at[-1]):
                self.drained_at.append(acked.acked_at)

    def body(self) -> dict[str, object]:
        return {"ack_ms": self.ack_ms, "queued_ms": self.queued_ms, "acked": self.acked,
                "shown": self.shown, "down_at": self.down_at, "up_at": self.up_at,
                "drained_at": self.drained_at, "most_pending": self.most_pending}


def contributions_of(ledger_path: Path) -> dict[str, int]:
    """Cents the table's own ledger says it contributed, per level."""
    ledger = Ledger.open_readonly(ledger_path)
    try:
        total: Counter[str] = Counter()
        for row in ledger_contributions(ledger):
            total[row.level.value] += row.wager_cents
        return dict(total)
    finally:
        ledger.close()


@dataclass(frozen=True, slots=True)
class BotTable:
    """One bot table to play: its link, its ledger, and how."""

    uri: str
    table_id: str
    ledger: Path
    levels: tuple[ProgressiveLevel, ...]
    pace: float = 0.0
    rounds: int | None = None
    bots: str = "busiest"
    seed: int | None = None
    stats: Path | None = None


def first_offset(table_id: str, pace: float) -> float:
    """When a paced table deals its first round, within its pace: tables on a floor are not
    dealt in step, and forty started together would otherwise settle together every round,
    a burst no floor sees. Fixed per table (its name's CRC), so runs compare."""
    return pace * (zlib.crc32(table_id.encode()) % 1000) / 1000


def play(spec: BotTable, loaded: LoadedPaytable) -> dict[str, object]:
    """Play ``spec``'s table until its rounds are played, SIGTERM, or a tilt; its summary."""
    ledger = Ledger.open(spec.ledger, kind=LedgerKind.DEMO,
                         rng="csprng" if spec.seed is None else f"seeded {spec.seed}")
    seed = None if spec.seed is None else spec.seed * 1_000_003 + ledger.round_count()
    table = Table.open(ledger, loaded, SeededSource(seed) if seed is not None else None,
                       jackpot_rules=JackpotRules())
    timeline = Timeline()
    link = LinkedTable(table, Link(spec.uri, spec.table_id, spec.levels), on_ack=timeline.ack)
    timeline.link = link
    table.listeners.append(timeline.heard)
    link.start()
    played = 0
    try:
        bot = LinkedBotTable(table, link, spec.bots, seed)
        bot.rest(first_offset(spec.table_id, spec.pace))
        while (spec.rounds is None or played < spec.rounds) and not stop.requested() \
                and not table.tilted:
            bot.play_round()
            played += 1
            bot.rest(spec.pace)
        # what is left in the outbox goes before the table says it is closed
        deadline = time.monotonic() + 10
        while link.link.depth and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        link.close()
        table.close()
        if spec.stats is not None:
            spec.stats.write_text(json.dumps(timeline.body()), encoding="utf-8")
    return {"id": spec.table_id, "rounds": played, "tilted": table.tilted,
            "contributions": contributions_of(spec.ledger)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m etg.table.floor_bot",
                                     description="Bot tables linked to the floor's controller.")
    parser.add_argument("--uri", help="the controller, with this table's role")
    parser.add_argument("--table-id")
    parser.add_argument("--ledger", type=Path)
    parser.add_argument("--paytable", required=True, type=Path)
    parser.add_argument("--levels", default="primary,secondary",
                        help="the linked levels, comma-separated")
    parser.add_argument("--rounds", type=int, default=None, help="then stop (default: forever)")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between rounds")
    parser.add_argument("--bots", choices=("busiest", "demo"), default="busiest")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--stats", type=Path, default=None,
                        help="write when each thing happened here (etg bench), as JSON")
    parser.add_argument("--group", type=Path, default=None,
                        help="several tables, one thread each, from a JSON list of objects "
                             "with uri, table_id, ledger, and optionally pace and stats (one "
                             "interpreter's start for them all)")
    args = parser.parse_args(argv)
    levels = tuple(ProgressiveLevel(name) for name in args.levels.split(",") if name)
    if args.group is not None:
        specs = [BotTable(str(t["uri"]), str(t["table_id"]), Path(t["ledger"]), levels,
                          float(t.get("pace", args.pace)), args.rounds, args.bots, args.seed,
                          Path(t["stats"]) if t.get("stats") else None)
                 for t in json.loads(args.group.read_text(encoding="utf-8"))]
    elif args.uri and args.table_id and args.ledger:
        specs = [BotTable(args.uri, args.table_id, args.ledger, levels, args.pace, args.rounds,
                          args.bots, args.seed, args.stats)]
    else:
        parser.error("give --uri, --table-id and --ledger, or --group")
    loaded = load_paytable(args.paytable)
    results: list[dict[str, object]] = []
    with stop.on_sigterm("floor bot"):
        if len(specs) == 1:
            results.append(play(specs[0], loaded))
        else:
            threads = [threading.Thread(target=lambda s=spec: results.append(play(s, loaded)),
                                        name=spec.table_id) for spec in specs]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    for result in results:
        print(json.dumps(result), flush=True)
    return 0 if not any(result["tilted"] for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
