"""Engine-mode simulator: bot seats play the real state machine, round by round.

Where the vectorised simulator models the four cards of one spot, this one
plays whole rounds through :func:`etg.core.engine.apply` — shuffles, cut card,
burns, every spot, the dealer's routine — and reads the figures off the
events. Agreement with the exact figures therefore checks the engine itself.

Seat 1 always goes to War and places the Tie Wager (and the War-deal Tie
Wager where offered); seat 2 always surrenders (see :func:`etg.bots.standard_bots`).
Where the paytable offers them, seat 1 places the Progressive Payout Wager on
each of its spots and both seats the Bonus Spin, so the trigger, every
Progressive Payout Hand and the fixed returns of both side wagers are measured
too (:func:`side_exact` gives the exact values under the same names).
Each figure is a mean of one sample per round, so the cards that spots share
within a round (the dealer's card) do not understate the interval: the rounds
are the independent trials.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from etg.bots import Bot, RoundDriver, standard_bots
from etg.core.cards import Card
from etg.core.engine import apply, new_table
from etg.core.events import CardDealt, Event, PayoutHandMade, Target, WagerSettled
from etg.core.paytable import PayoutHand, Paytable
from etg.core.rng import SeededSource
from etg.core.settle import WagerKind
from etg.core.side_wagers import triggers
from etg.math.bonus import bonus_spin_figures
from etg.math.progressive_payout import progressive_payout_figures
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
    tally = _Tally(war_bot, surrender_bot, paytable)
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
        side={name: acc.estimate() for name, acc in tally.side.items()},
    )


# The main-game figures both simulators measure, named as in etg.math.exact.MainGameFigures.
MAIN_FIGURES = ("tie_probability", "war_tie_probability", "house_edge_war", "house_edge_surrender",
                "tie_house_edge", "war_tie_wager_house_edge")


def side_exact(paytable: Paytable) -> dict[str, float]:
    """Exact values of the side-wager figures that :func:`simulate_engine` measures."""
    out: dict[str, float] = {}
    bonus = bonus_spin_figures(paytable)
    if bonus is not None:
        out["trigger_probability"] = float(bonus.trigger_probability)
        for d in bonus.denominations:
            out[f"bonus_spin_rtp_fixed_{d.wager_cents}"] = float(d.rtp_fixed)
    payout = progressive_payout_figures(paytable)
    if payout is not None:
        out["progressive_payout_rtp_fixed"] = float(payout.rtp_fixed)
        for hand, probability in payout.hands.items():
            out[f"hand_{hand.value}"] = float(probability)
    return out


def engine_rounds_per_second(paytable: Paytable, rounds: int = 5_000, seed: int = 1) -> float:
    """The engine's speed with the standard bots, no ledger (SPEC §11)."""
    result = simulate_engine(paytable, rounds, seed)
    return rounds / result.seconds


@dataclass
class _Tally:
    war_bot: Bot
    surrender_bot: Bot
    paytable: Paytable
    tie: RunningMean = field(default_factory=RunningMean)
    war_tie: RunningMean = field(default_factory=RunningMean)
    edge_war: RunningMean = field(default_factory=RunningMean)
    edge_surrender: RunningMean = field(default_factory=RunningMean)
    edge_tie: RunningMean = field(default_factory=RunningMean)
    edge_war_tie: RunningMean = field(default_factory=RunningMean)
    side: dict[str, RunningMean] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = ["trigger_probability"] if self.paytable.bonus_spin else []
        names += [f"bonus_spin_rtp_fixed_{bot.bonus_spin}"
                  for bot in (self.war_bot, self.surrender_bot) if bot.bonus_spin]
        if self.war_bot.progressive_payout:
            names += ["progressive_payout_rtp_fixed", *(f"hand_{h.value}" for h in PayoutHand)]
        self.side = {name: RunningMean() for name in names}

    def add_round(self, events: list[Event]) -> None:
        dealer: dict[bool, int] = {}
        dealer_card: Card | None = None
        spots: dict[bool, list[int]] = {False: [], True: []}
        war_seat = self.war_bot.seat
        # minus the player's net, by (seat, wager family)
        initial_war = {war_seat: 0, self.surrender_bot.seat: 0}
        tie_net = war_tie_net = war_tie_stake = 0
        bonus = {war_seat: 0, self.surrender_bot.seat: 0}  # fixed Bonus Spin pays
        payout_paid = 0
        hands: list[PayoutHand] = []
        for e in events:
            if isinstance(e, CardDealt):
                if e.target is Target.DEALER:
                    dealer[e.war] = e.card.rank
                    if not e.war:
                        dealer_card = e.card
                else:
                    spots[e.war].append(e.card.rank)
            elif isinstance(e, PayoutHandMade) and e.seat == war_seat:
                hands.append(e.hand)
            elif isinstance(e, WagerSettled) and e.seat in initial_war:
                kind = e.payment.kind
                net = e.paid - e.payment.stake
                if kind in (WagerKind.INITIAL, WagerKind.WAR):
                    initial_war[e.seat] -= net
                elif kind is WagerKind.BONUS_SPIN:
                    bonus[e.seat] += e.paid
                elif e.seat != war_seat:
                    continue
                elif kind is WagerKind.TIE:
                    tie_net -= net
                elif kind is WagerKind.WAR_TIE:
                    war_tie_net -= net
                    war_tie_stake += e.payment.stake
                elif kind is WagerKind.PROGRESSIVE_PAYOUT:
                    payout_paid += e.paid
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
        if self.side:
            self._add_side(dealer_card, bonus, payout_paid, hands)

    def _add_side(self, dealer_card: Card | None, bonus: dict[int, int], payout_paid: int,
                  hands: list[PayoutHand]) -> None:
        side = self.side
        if self.paytable.bonus_spin is not None and dealer_card is not None:
            side["trigger_probability"].add(float(triggers(self.paytable.bonus_spin,
                                                           dealer_card)))
        for bot in (self.war_bot, self.surrender_bot):
            if bot.bonus_spin:
                side[f"bonus_spin_rtp_fixed_{bot.bonus_spin}"].add(bonus[bot.seat]
                                                                   / bot.bonus_spin)
        if self.war_bot.progressive_payout:
            count = len(self.war_bot.spots)
            side["progressive_payout_rtp_fixed"].add(
                payout_paid / (self.war_bot.progressive_payout * count))
            for hand in PayoutHand:
                side[f"hand_{hand.value}"].add(hands.count(hand) / count)


def compare(result: SimResult, exact: dict[str, float | None]) -> list[tuple[str, float, Estimate,
                                                                             bool]]:
    """(figure, exact value, measured estimate, exact value inside the 99 % interval)."""
    rows: list[tuple[str, float, Estimate, bool]] = []
    for name, value in exact.items():
        estimate = result.side.get(name) or getattr(result, name, None)
        if value is None or estimate is None:
            continue
        rows.append((name, value, estimate, agrees(estimate, value)))
    return rows


def agrees(estimate: Estimate, value: float) -> bool:
    """``value`` is inside the 99 % interval, or an event too rare to have been seen yet.

    A figure never observed has no spread, so its normal interval is a point.
    Zero occurrences are consistent at 99 % while the expected count is at most
    ln(100) ≈ 4.6 (Poisson: P(0) = e^-expected >= 1 %).
    """
    if estimate.contains(value):
        return True
    unseen = estimate.mean == 0 and estimate.half_width == 0
    return unseen and value * estimate.n <= math.log(100)
