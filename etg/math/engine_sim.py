"""Engine-mode simulator: bot seats play the real state machine, round by round.

Where the vectorised simulator models the four cards of one spot, this one
plays whole rounds through :func:`etg.core.engine.apply` — shuffles, cut card,
burns, every spot, the dealer's routine — and reads the figures off the
events. Agreement with the exact figures therefore checks the engine itself.

Seat 1 always goes to War and places the Tie Wager (and the War-deal Tie
Wager where offered); seat 2 always surrenders (see :func:`etg.bots.standard_bots`).
Each figure is a mean of one sample per round, so the cards that spots share
within a round (the dealer's card) do not understate the interval: the rounds
are the independent trials.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from etg.bots import Bot, RoundDriver, standard_bots
from etg.core.engine import apply, new_table
from etg.core.events import CardDealt, Event, Target, WagerSettled
from etg.core.paytable import Paytable
from etg.core.rng import SeededSource
from etg.core.settle import WagerKind
from etg.math.stats import Estimate, RunningMean
from etg.math.vector_sim import SimResult


def simulate_engine(
    paytable: Paytable,
    rounds: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
    progress_every: int = 1_000,
) -> SimResult:
    """Play ``rounds`` rounds with the standard bots; ``progress(done)`` now and then."""
    if rounds < 1:
        raise ValueError(f"rounds must be positive, not {rounds}")
    war_bot, surrender_bot = standard_bots(paytable)
    driver = RoundDriver((war_bot, surrender_bot), SeededSource(seed), apply)
    tally = _Tally(war_bot, surrender_bot)
    state = new_table(paytable)
    start = time.perf_counter()
    for done in range(1, rounds + 1):
        state, events = driver.play_round(state)
        tally.add_round(events)
        if progress is not None and (done % progress_every == 0 or done == rounds):
            progress(done)
    seconds = time.perf_counter() - start
    return SimResult(
        rounds=rounds,
        seconds=seconds,
        tie_probability=tally.tie.estimate(),
        war_tie_probability=tally.war_tie.estimate(),
        house_edge_war=tally.edge_war.estimate(),
        house_edge_surrender=tally.edge_surrender.estimate(),
        tie_house_edge=tally.edge_tie.estimate(),
        war_tie_wager_house_edge=(tally.edge_war_tie.estimate() if war_bot.war_tie else None),
    )


def engine_rounds_per_second(paytable: Paytable, rounds: int = 5_000, seed: int = 1) -> float:
    """The engine's speed with the standard bots, no ledger (SPEC §11)."""
    result = simulate_engine(paytable, rounds, seed)
    return rounds / result.seconds


@dataclass
class _Tally:
    war_bot: Bot
    surrender_bot: Bot
    tie: RunningMean = field(default_factory=RunningMean)
    war_tie: RunningMean = field(default_factory=RunningMean)
    edge_war: RunningMean = field(default_factory=RunningMean)
    edge_surrender: RunningMean = field(default_factory=RunningMean)
    edge_tie: RunningMean = field(default_factory=RunningMean)
    edge_war_tie: RunningMean = field(default_factory=RunningMean)

    def add_round(self, events: list[Event]) -> None:
        dealer: dict[bool, int] = {}
        spots: dict[bool, list[int]] = {False: [], True: []}
        war_seat = self.war_bot.seat
        # minus the player's net, by (seat, wager family)
        initial_war = {war_seat: 0, self.surrender_bot.seat: 0}
        tie_net = war_tie_net = war_tie_stake = 0
        for e in events:
            if isinstance(e, CardDealt):
                if e.target is Target.DEALER:
                    dealer[e.war] = e.card.rank
                else:
                    spots[e.war].append(e.card.rank)
            elif isinstance(e, WagerSettled) and e.seat in initial_war:
                kind = e.payment.kind
                net = e.paid - e.payment.stake
                if kind in (WagerKind.INITIAL, WagerKind.WAR):
                    initial_war[e.seat] -= net
                elif e.seat == war_seat and kind is WagerKind.TIE:
                    tie_net -= net
                elif e.seat == war_seat and kind is WagerKind.WAR_TIE:
                    war_tie_net -= net
                    war_tie_stake += e.payment.stake
        original = spots[False]
        self.tie.add(sum(r == dealer[False] for r in original) / len(original))
        if spots[True]:
            self.war_tie.add(sum(r == dealer[True] for r in spots[True]) / len(spots[True]))
        staked = self.war_bot.initial * len(self.war_bot.spots)
        self.edge_war.add(initial_war[war_seat] / staked)
        staked = self.surrender_bot.initial * len(self.surrender_bot.spots)
        self.edge_surrender.add(initial_war[self.surrender_bot.seat] / staked)
        self.edge_tie.add(tie_net / (self.war_bot.tie * len(self.war_bot.spots)))
        if war_tie_stake:
            self.edge_war_tie.add(war_tie_net / war_tie_stake)


def compare(result: SimResult, exact: dict[str, float | None]) -> list[tuple[str, float, Estimate,
                                                                             bool]]:
    """(figure, exact value, measured estimate, exact value inside the 99 % interval)."""
    rows: list[tuple[str, float, Estimate, bool]] = []
    for name, value in exact.items():
        estimate = getattr(result, name)
        if value is None or estimate is None:
            continue
        rows.append((name, value, estimate, estimate.contains(value)))
    return rows
