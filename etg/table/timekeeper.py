"""The table's clock: countdowns that end in a command (SPEC §12: time enters only as commands).

The engine has no clock. When betting has been open for the paytable's
``timers.betting_s`` the timekeeper sends No More Bets (MD Ch. 7 D), and when
a tie's decision time ``timers.decision_s`` runs out it sends
:class:`CloseDecisions`, after which the paytable's default decision applies
(MD Ch. 9 E). With ``timers.auto_open`` it also opens betting by itself
between rounds. Countdowns are measured from when this process saw the phase
begin, so after a power loss the players get the whole time again rather
than a countdown that expired while the cabinet was dark.
"""

from __future__ import annotations

from etg.core.commands import Actor, CloseBets, CloseDecisions, Command, OpenBets
from etg.core.flow import DealerAction, dealer_next
from etg.core.refusal import Refused
from etg.core.state import Phase, TableState
from etg.table.controller import Table, TableTilted

AUTO_OPEN_DELAY_S = 3.0
"""Seconds between NEXT ROUND and betting opening by itself, when the paytable asks for it."""


class Timekeeper:
    """Watches the table's phase and sends the clock's commands when a countdown ends."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._key: tuple[int, Phase] | None = None
        self._since = 0.0
        self._held_at: float | None = None

    def hold(self, now: float) -> None:
        """Stop the countdown where it is (the attendant has the operator menu open)."""
        if self._held_at is None:
            self._observe(now)
            self._held_at = now

    def release(self, now: float) -> None:
        """Go on from where :meth:`hold` stopped: the players lose no time to the menu."""
        if self._held_at is not None:
            self._since += now - self._held_at
            self._held_at = None

    def deadline(self, now: float) -> float | None:
        """When the current countdown ends, or None if the phase has none."""
        self._observe(now)
        length = self._length(self.table.state)
        return None if length is None else self._since + length

    def remaining(self, now: float) -> float | None:
        """Seconds left on the current countdown (never negative), or None."""
        end = self.deadline(now)
        clock = now if self._held_at is None else self._held_at
        return None if end is None else max(0.0, end - clock)

    def tick(self, now: float) -> Command | None:
        """Send the clock's command if a countdown has ended; returns what was sent."""
        end = self.deadline(now)
        if end is None or now < end or self._held_at is not None:
            return None
        command = self._command(self.table.state)
        try:
            self.table.submit(command, actor=Actor.TIMER.value)  # committed off the frame
        except (Refused, TableTilted):
            self._since = now  # e.g. no wagers at No More Bets: betting stays open, time again
            return None
        return command

    def _observe(self, now: float) -> None:
        state = self.table.state
        key = (state.round.number, state.phase)
        if key != self._key:
            self._key = key
            self._since = now if self._held_at is None else self._held_at

    def _length(self, state: TableState) -> float | None:
        timers = state.paytable.timers
        if state.phase is Phase.BETTING:
            return float(timers.betting_s)
        if state.phase is Phase.DECISIONS:
            return float(timers.decision_s)
        if (state.phase is Phase.IDLE and timers.auto_open
                and dealer_next(state) is DealerAction.OPEN):
            return AUTO_OPEN_DELAY_S
        return None

    @staticmethod
    def _command(state: TableState) -> Command:
        if state.phase is Phase.BETTING:
            return CloseBets(Actor.TIMER)
        if state.phase is Phase.DECISIONS:
            return CloseDecisions(Actor.TIMER)
        return OpenBets()
