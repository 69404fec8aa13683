"""Demo mode (``etg run --demo``): bot players and a bot dealer, one command at a time.

The App asks for the next command only once the screen has settled and the
previous command's beat has passed, so an unattended table shows every chip,
card, decision and wheel spin at the pace of a real game. The bots are the
ones the simulator uses (:mod:`etg.table.bots`); the commands go through the real
controller and the demo's own ledger.
"""

from __future__ import annotations

from etg.core.commands import CashIn, Command, PlaceBonusSpin, PlaceWager
from etg.core.flow import DealerAction, dealer_next
from etg.core.state import Phase, TableState
from etg.table.bots import Bot, RoundDriver, dealer_command, demo_bots
from etg.table.controller import Table


class DemoDirector:
    """Plans each phase's commands for the bots and the dealer and hands them out in turn."""

    def __init__(self, table: Table, bots: tuple[Bot, ...] | None = None) -> None:
        self.table = table
        self.bots = bots if bots is not None else demo_bots(table.state.paytable)
        self.driver = RoundDriver(self.bots, table.source, table.apply)
        self._key: tuple[int, Phase] | None = None
        self._queue: list[Command] = []
        self._refused_seats: set[int] = set()

    def next_command(self, state: TableState) -> Command | None:
        """The next command to send, planning the phase anew whenever the last plan is used up."""
        key = (state.round.number, state.phase)
        if key != self._key:
            self._key, self._queue, self._refused_seats = key, [], set()
        if not self._queue:
            self._queue = self._plan(state)
        while self._queue:
            command = self._queue.pop(0)
            seat = getattr(command, "seat", None)
            if isinstance(command, PlaceWager | PlaceBonusSpin) and seat in self._refused_seats:
                continue
            return command
        return None

    def refused(self, command: Command) -> None:
        """A bot's wager was refused: the bot sits out the rest of this betting round."""
        if isinstance(command, PlaceWager | PlaceBonusSpin):
            self._refused_seats.add(command.seat)

    def _plan(self, state: TableState) -> list[Command]:
        plan: list[Command] = []
        if state.phase is Phase.IDLE and dealer_next(state) is DealerAction.OPEN:
            plan += [CashIn(bot.seat, bot.top_up) for bot in self.bots
                     if state.credits[bot.seat - 1] < bot.round_cost]
        elif state.phase is Phase.BETTING and not any(
                w.on_table for row in state.round.wagers for w in row):
            plan += [command for bot in self.bots for command in bot.bets()]
        elif state.phase is Phase.DECISIONS:
            plan += self.driver.decisions(state)
            if plan:
                return plan
        plan.append(dealer_command(state, self.table.source))
        return plan


def demo_beat(command: Command) -> float:
    """Seconds the demo waits after ``command`` before the next one (once the screen settles)."""
    return _BEATS.get(type(command).__name__, 1.0)


_BEATS = {"PlaceWager": 0.18, "PlaceBonusSpin": 0.25, "CashIn": 0.1, "Decide": 1.0,
          "CloseBets": 0.8, "OpenBets": 0.6, "Shuffle": 1.2, "NextRound": 1.0,
          "Settle": 2.2, "Spin": 2.5, "Deal": 0.4, "WarDeal": 0.4}


def demo_actor(command: Command) -> str:
    name = type(command).__name__
    if name in ("PlaceWager", "PlaceBonusSpin", "Decide", "ClearWagers", "RepeatWagers",
                "DoubleWagers"):
        return "demo-player"
    if name == "CashIn":
        return "demo-attendant"
    return "demo-dealer"
