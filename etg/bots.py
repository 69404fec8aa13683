"""Bot players and the dealer's routine, for the simulator, demos and autoplay.

A bot only decides which commands a seat sends; the round driver sends the
dealer's and the clock's commands in the order a real dealer would. Both act
through an ``apply`` function, so the same code drives the bare engine (the
simulator) and the controller that commits every step (autoplay).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    CloseDecisions,
    Command,
    Deal,
    Decide,
    NextRound,
    OpenBets,
    PlaceWager,
    Settle,
    Shuffle,
    ShuffleReason,
    WarDeal,
)
from etg.core.engine import Phase, TableState
from etg.core.events import Event
from etg.core.paytable import Decision, Layout, Paytable
from etg.core.refusal import Refused
from etg.core.rng import RandomSource
from etg.core.shoe import draw_shoe

Apply = Callable[[TableState, Command], tuple[TableState, list[Event]]]


@dataclass(frozen=True, slots=True)
class Bot:
    """A seat that bets the same way every round and always makes the same decision."""

    seat: int
    spots: tuple[int, ...]
    initial: int
    tie: int = 0
    decision: Decision = Decision.WAR
    war_tie: int = 0
    top_up: int = 1_000_000  # cents cashed in whenever the seat runs short

    def bets(self) -> list[Command]:
        out: list[Command] = []
        for spot in self.spots:
            out.append(PlaceWager(self.seat, spot, BetKind.INITIAL, self.initial))
            if self.tie:
                out.append(PlaceWager(self.seat, spot, BetKind.TIE, self.tie))
        return out

    @property
    def round_cost(self) -> int:
        """The most one round can take from the seat."""
        per_spot = 2 * self.initial + self.tie + self.war_tie
        return per_spot * len(self.spots)


def standard_bots(paytable: Paytable) -> tuple[Bot, ...]:
    """Seat 1 always goes to War with a Tie Wager; seat 2 always surrenders.

    On a community layout both play the same spots, so one deal measures both
    strategies; per seat, each plays its own hand.
    """
    unit_bet = paytable.limits.initial.min_cents
    tie_bet = paytable.limits.tie.min_cents
    war_tie = tie_bet if paytable.war_tie_wager else 0
    if paytable.layout is Layout.COMMUNITY:
        spots = tuple(range(1, paytable.max_spots_per_seat + 1))
        return (Bot(1, spots, unit_bet, tie_bet, Decision.WAR, war_tie),
                Bot(2, spots, unit_bet, 0, Decision.SURRENDER))
    return (Bot(1, (1,), unit_bet, tie_bet, Decision.WAR, war_tie),
            Bot(2, (2,), unit_bet, 0, Decision.SURRENDER))


class RoundDriver:
    """Plays whole rounds: shuffles when due, bots bet and decide, the dealer deals."""

    def __init__(self, bots: Sequence[Bot], source: RandomSource, apply: Apply) -> None:
        self.bots = {bot.seat: bot for bot in bots}
        self.source = source
        self.apply = apply

    def play_round(self, state: TableState) -> tuple[TableState, list[Event]]:
        """From between rounds (or mid-round, after a restart) to the next round's start."""
        events: list[Event] = []

        def send(command: Command) -> None:
            nonlocal state
            state, new = self.apply(state, command)
            events.extend(new)

        while True:
            phase = state.phase
            if phase is Phase.IDLE:
                if state.shoe is None or state.shuffle_due:
                    reason = (ShuffleReason.NEW_SHOE if state.shoe is None
                              else ShuffleReason.CUT_CARD)
                    send(Shuffle(draw_shoe(state.paytable.shoe, self.source), reason))
                    continue
                self._top_up(state, send)
                send(OpenBets())
            elif phase is Phase.BETTING:
                self._bet(state, send)
                send(CloseBets())
            elif phase is Phase.BETS_CLOSED:
                send(Deal())
            elif phase in (Phase.DEALT, Phase.WAR_DEALT):
                send(Settle())
            elif phase is Phase.DECISIONS:
                for seat, spot in state.pending_decisions():
                    bot = self.bots.get(seat)
                    if bot is not None:
                        send(Decide(seat, spot, bot.decision,
                                    bot.war_tie if bot.decision is Decision.WAR else 0))
                if state.phase is Phase.DECISIONS:
                    send(CloseDecisions())
            elif phase is Phase.WAR_PENDING:
                send(WarDeal())
            else:  # COMPLETE or VOIDED
                send(NextRound())
                return state, events

    def _top_up(self, state: TableState, send: Callable[[Command], None]) -> None:
        for bot in self.bots.values():
            if state.credits[bot.seat - 1] < bot.round_cost:
                send(CashIn(bot.seat, bot.top_up))

    def _bet(self, state: TableState, send: Callable[[Command], None]) -> None:
        if any(w.on_table for row in state.round.wagers for w in row):
            return  # resumed mid-betting: the wagers already placed stand
        for bot in self.bots.values():
            for command in bot.bets():
                try:
                    send(command)
                except Refused:
                    break  # a bot that cannot bet sits the round out
