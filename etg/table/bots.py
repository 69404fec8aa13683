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
    PlaceBonusSpin,
    PlaceWager,
    RepeatWagers,
    Settle,
    Shuffle,
    ShuffleReason,
    Spin,
    ValidateJackpot,
    WarDeal,
)
from etg.core.events import Event, Events
from etg.core.flow import DealerAction, dealer_next
from etg.core.jackpot import ValidatorRole
from etg.core.paytable import Decision, Layout, Paytable
from etg.core.refusal import Refused
from etg.core.rng import RandomSource
from etg.core.shoe import draw_shoe
from etg.core.state import Phase, TableState, empty_row
from etg.core.wheel import draw_stops

Apply = Callable[[TableState, Command], tuple[TableState, list[Event]]]

BOT_FLOORPERSON = "bot"
"""Who validates a jackpot on a table the bots play (autoplay, the demo), in the floorperson's
role: recorded as such, "bot (floorperson)"."""


@dataclass(frozen=True, slots=True)
class Bot:
    """A seat that bets the same way every round and always makes the same decision."""

    seat: int
    spots: tuple[int, ...]
    initial: int
    tie: int = 0
    decision: Decision = Decision.WAR
    war_tie: int = 0
    progressive_payout: int = 0  # the fixed Progressive Payout Wager on each spot, or 0
    bonus_spin: int = 0  # the Bonus Spin wager ($1 or $5), or 0
    top_up: int = 1_000_000  # cents cashed in whenever the seat runs short

    def bets(self) -> list[Command]:
        out: list[Command] = []
        for spot in self.spots:
            out.append(PlaceWager(self.seat, spot, BetKind.INITIAL, self.initial))
            if self.tie:
                out.append(PlaceWager(self.seat, spot, BetKind.TIE, self.tie))
            if self.progressive_payout:
                out.append(PlaceWager(self.seat, spot, BetKind.PROGRESSIVE_PAYOUT,
                                      self.progressive_payout))
        if self.bonus_spin:
            out.append(PlaceBonusSpin(self.seat, self.bonus_spin))
        return out

    @property
    def round_cost(self) -> int:
        """The most one round can take from the seat."""
        per_spot = 2 * self.initial + self.tie + self.war_tie + self.progressive_payout
        return per_spot * len(self.spots) + self.bonus_spin


def standard_bots(paytable: Paytable) -> tuple[Bot, ...]:
    """Seat 1 always goes to War with a Tie Wager; seat 2 always surrenders.

    On a community layout both play the same spots, so one deal measures both
    strategies; per seat, each plays its own hand. Where the paytable offers
    them, seat 1 also places the Progressive Payout Wager on each spot and the
    largest Bonus Spin wager, seat 2 the smallest Bonus Spin wager.
    """
    unit_bet = paytable.limits.initial.min_cents
    tie_bet = paytable.limits.tie.min_cents
    war_tie = tie_bet if paytable.war_tie_wager else 0
    payout = paytable.progressive_payout.wager_cents if paytable.progressive_payout else 0
    bonus = paytable.bonus_spin.denominations_cents if paytable.bonus_spin else (0,)
    if paytable.layout is Layout.COMMUNITY:
        spots = tuple(range(1, paytable.max_spots_per_seat + 1))
        return (Bot(1, spots, unit_bet, tie_bet, Decision.WAR, war_tie, payout, max(bonus)),
                Bot(2, spots, unit_bet, 0, Decision.SURRENDER, bonus_spin=min(bonus)))
    return (Bot(1, (1,), unit_bet, tie_bet, Decision.WAR, war_tie, payout, max(bonus)),
            Bot(2, (2,), unit_bet, 0, Decision.SURRENDER, bonus_spin=min(bonus)))


def busiest_bots(paytable: Paytable) -> tuple[Bot, ...]:
    """Every seat plays every wager the paytable offers: SPEC §11's engine workload.

    Seat ``s`` plays the minimum Initial and Tie Wagers on spot ``(s - 1) % spots + 1``
    (its own hand on a per-seat layout), the Progressive Payout Wager there and a
    Bonus Spin wager, the denominations taken in turn. Odd seats go to War, with
    the War-deal Tie Wager where offered; even seats surrender.
    """
    limits = paytable.limits
    payout = paytable.progressive_payout.wager_cents if paytable.progressive_payout else 0
    bonus = paytable.bonus_spin.denominations_cents if paytable.bonus_spin else (0,)
    bots: list[Bot] = []
    for seat in range(1, paytable.seats + 1):
        war = seat % 2 == 1
        bots.append(Bot(
            seat, ((seat - 1) % paytable.spot_count + 1,), limits.initial.min_cents,
            limits.tie.min_cents, Decision.WAR if war else Decision.SURRENDER,
            war_tie=limits.tie.min_cents if war and paytable.war_tie_wager else 0,
            progressive_payout=payout, bonus_spin=bonus[(seat - 1) % len(bonus)]))
    return tuple(bots)


def dealer_command(state: TableState, source: RandomSource) -> Command:
    """The dealer's next command (see :func:`etg.core.flow.dealer_next`), draws included."""
    action = dealer_next(state)
    simple = _SIMPLE.get(action)
    if simple is not None:
        return simple
    if action is DealerAction.SHUFFLE:
        reason = ShuffleReason.NEW_SHOE if state.shoe is None else ShuffleReason.CUT_CARD
        return Shuffle(draw_shoe(state.paytable.shoe, source), reason)
    assert action is DealerAction.SPIN
    bonus = state.paytable.bonus_spin
    assert bonus is not None, "the wheel spins only on a paytable with a Bonus Spin"
    return Spin(draw_stops(bonus, state.paytable.seats, source))


_SIMPLE: dict[DealerAction, Command] = {
    DealerAction.OPEN: OpenBets(), DealerAction.CLOSE: CloseBets(), DealerAction.DEAL: Deal(),
    DealerAction.SETTLE: Settle(), DealerAction.CLOSE_DECISIONS: CloseDecisions(),
    DealerAction.WAR_DEAL: WarDeal(), DealerAction.NEXT_ROUND: NextRound(),
    DealerAction.VALIDATE: ValidateJackpot(BOT_FLOORPERSON, ValidatorRole.FLOORPERSON),
}


class RoundDriver:
    """Plays whole rounds: shuffles when due, bots bet and decide, the dealer deals.

    With ``repeat``, a bot whose seat had wagers last round presses REPEAT
    (:class:`RepeatWagers`) instead of placing them one by one, as a player
    who bets the same every round does: the same wagers and the same events,
    in a quarter of the commands.
    """

    def __init__(self, bots: Sequence[Bot], source: RandomSource, apply: Apply,
                 repeat: bool = False) -> None:
        self.bots = {bot.seat: bot for bot in bots}
        self.source = source
        self.apply = apply
        self.repeat = repeat
        self._costs = [(bot, bot.round_cost) for bot in self.bots.values()]
        self._repeats = [(bot, RepeatWagers(bot.seat)) for bot in self.bots.values()]

    def play_round(self, state: TableState) -> tuple[TableState, list[Event]]:
        """From between rounds (or mid-round, after a restart) to the next round's start.

        The round's events are gathered as the engine returns them: still unbuilt, if
        nobody reads them (see :class:`etg.core.events.Events`).
        """
        events = Events()

        def send(command: Command) -> None:
            nonlocal state
            state, new = self.apply(state, command)
            events.extend(new)

        while True:
            phase = state.phase
            if phase is _IDLE and dealer_next(state) is _OPEN:
                self._top_up(state, send)
            if phase is _BETTING:
                self._bet(state, send)
            elif phase is _DECISIONS:
                for command in self.decisions(state):
                    send(command)
            if state.phase is phase:  # the bots did not move the round on: the dealer does
                send(dealer_command(state, self.source))
            if phase in _OVER:
                return state, events

    def decisions(self, state: TableState) -> list[Command]:
        """The bots' War or Surrender on each of their tie hands still pending."""
        out: list[Command] = []
        for seat, spot in state.pending_decisions():
            bot = self.bots.get(seat)
            if bot is not None:
                out.append(Decide(seat, spot, bot.decision,
                                  bot.war_tie if bot.decision is Decision.WAR else 0))
        return out

    def _top_up(self, state: TableState, send: Callable[[Command], None]) -> None:
        credits = state.credits
        for bot, cost in self._costs:
            if credits[bot.seat - 1] < cost:
                send(CashIn(bot.seat, bot.top_up))

    def _bet(self, state: TableState, send: Callable[[Command], None]) -> None:
        if any(state.round.staked):  # while betting is open, the stakes are what is on the layout
            return  # resumed mid-betting: the wagers already placed stand
        empty = empty_row(state.paytable.spot_count)
        last = state.last_bets
        for bot, repeat in self._repeats:
            same = self.repeat and last[bot.seat - 1] is not empty
            for command in (repeat,) if same else bot.bets():
                try:
                    send(command)
                except Refused:
                    break  # a bot that cannot bet sits the round out


# Enum members cost a metaclass look-up each in CPython 3.11; the driver's loop checks these.
_IDLE, _BETTING, _DECISIONS = Phase.IDLE, Phase.BETTING, Phase.DECISIONS
_OVER = (Phase.COMPLETE, Phase.VOIDED)
_OPEN = DealerAction.OPEN


def demo_bots(paytable: Paytable) -> tuple[Bot, ...]:
    """Players for the demo table: up to six seats, each with its own habits.

    Odd seats go to War, even seats surrender; wager sizes, spots, Tie Wagers
    and the side wagers vary from seat to seat, so an unattended demo shows
    every kind of wager, chip colour and decision the game has.
    """
    limits = paytable.limits
    payout = paytable.progressive_payout.wager_cents if paytable.progressive_payout else 0
    bonus = paytable.bonus_spin.denominations_cents if paytable.bonus_spin else (0,)
    bots: list[Bot] = []
    for seat in range(1, min(paytable.seats, 6) + 1):
        initial = min(limits.initial.min_cents * (1, 2, 1, 5, 2, 4)[seat - 1],
                      limits.initial.max_cents)
        war = seat % 2 == 1
        tie = limits.tie.min_cents * (seat % 3 == 1)
        if paytable.layout is Layout.COMMUNITY:
            width = 1 + seat % paytable.max_spots_per_seat
            first = min(1 + (2 * seat - 2) % paytable.spot_count, paytable.spot_count - width + 1)
            spots = tuple(range(first, first + width))
        else:
            spots = (seat,)
        bots.append(Bot(
            seat, spots, initial, tie, Decision.WAR if war else Decision.SURRENDER,
            war_tie=limits.tie.min_cents if war and paytable.war_tie_wager and seat == 1 else 0,
            progressive_payout=payout if seat in (1, 4) else 0,
            bonus_spin=(max(bonus), 0, min(bonus), max(bonus), min(bonus), 0)[seat - 1]))
    return tuple(bots)
