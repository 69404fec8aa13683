"""Engine-mode simulator: bot seats play the real state machine, round by round.

Where the vectorised simulator models the four cards of one spot, this one
plays whole rounds through :func:`etg.core.engine.apply` — shuffles, cut card,
burns, every spot, the dealer's routine — and reads the figures off the
events. Agreement with the exact figures therefore checks the engine itself.

Seat 1 always goes to War and places the Tie Wager (and the War-deal Tie
Wager where offered); seat 2 always surrenders (see :func:`etg.table.bots.standard_bots`).
Where the paytable offers them, seat 1 places the Progressive Payout Wager on
each of its spots and both seats the Bonus Spin, so the trigger, every
Progressive Payout Hand and the fixed returns of both side wagers are measured
too (:func:`side_exact` gives the exact values under the same names).
Each return is a mean of one sample per round, so the cards that spots share
within a round (the dealer's card) do not understate the interval: the rounds
are the independent trials. Hit frequencies (the trigger, each hand) get the
Wilson interval over rounds or spots (:func:`etg.math.stats.proportion_estimate`),
which stays inside [0, 1] for a hand seen a handful of times.

:func:`simulate_engine_full` plays the whole game instead: the table of
:mod:`etg.math.sim_setup` (every seat, every wager, a mix of Bonus Spin
denominations) with the meters evolving, and reports the figures of
:mod:`etg.math.sim_figures` under the same keys as
:func:`etg.math.vector_full.simulate_full`, so that the two can be compared
figure by figure (tests/test_agreement.py). It spreads the rounds over worker
processes (``jobs``, ``etg sim --jobs``): each a table of its own with a seed stream
of its own (:func:`engine_parts`), their whole-cent sums added exactly.
"""

from __future__ import annotations

import hashlib
import math
import os
import queue
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from etg.core.cards import Card
from etg.core.engine import apply, new_table
from etg.core.events import (
    CardDealt,
    Event,
    PayoutHandMade,
    ProgressiveAwarded,
    Target,
    WagerSettled,
    WheelStopped,
)
from etg.core.paytable import Decision, PayoutHand, Paytable, ProgressiveLevel
from etg.core.rng import SeededSource
from etg.core.settle import WagerKind
from etg.core.side_wagers import triggers
from etg.core.wheel import WheelStops
from etg.math.bonus import bonus_spin_figures
from etg.math.progressive_payout import progressive_payout_figures
from etg.math.sim_setup import TableSetup, bots, denominations, standard_setup
from etg.math.stats import Estimate, ExactRatio, RunningMean, proportion_estimate
from etg.math.vector_full import FigureSums, FullSimResult, MetersAtAward
from etg.math.vector_sim import SimResult
from etg.table.bots import Bot, RoundDriver, standard_bots


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
        side=tally.side_estimates(),
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
        frequencies = ["trigger_probability"] if self.paytable.bonus_spin else []
        names = [f"bonus_spin_rtp_fixed_{bot.bonus_spin}"
                 for bot in (self.war_bot, self.surrender_bot) if bot.bonus_spin]
        if self.war_bot.progressive_payout:
            names.append("progressive_payout_rtp_fixed")
            frequencies += [f"hand_{h.value}" for h in PayoutHand]
        self.side = {name: RunningMean() for name in names}
        self.hits = {name: [0, 0] for name in frequencies}  # [hits, trials]

    def side_estimates(self) -> dict[str, Estimate]:
        """Returns with the normal interval; hit frequencies with the Wilson interval."""
        out = {name: acc.estimate() for name, acc in self.side.items()}
        out.update((name, proportion_estimate(hits, trials))
                   for name, (hits, trials) in self.hits.items())
        return out

    def _hit(self, name: str, hits: int, trials: int) -> None:
        total = self.hits[name]
        total[0] += hits
        total[1] += trials

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
        if self.side or self.hits:
            self._add_side(dealer_card, bonus, payout_paid, hands)

    def _add_side(self, dealer_card: Card | None, bonus: dict[int, int], payout_paid: int,
                  hands: list[PayoutHand]) -> None:
        side = self.side
        if self.paytable.bonus_spin is not None and dealer_card is not None:
            self._hit("trigger_probability",
                      int(triggers(self.paytable.bonus_spin, dealer_card)), 1)
        for bot in (self.war_bot, self.surrender_bot):
            if bot.bonus_spin:
                side[f"bonus_spin_rtp_fixed_{bot.bonus_spin}"].add(bonus[bot.seat]
                                                                   / bot.bonus_spin)
        if self.war_bot.progressive_payout:
            count = len(self.war_bot.spots)
            side["progressive_payout_rtp_fixed"].add(
                payout_paid / (self.war_bot.progressive_payout * count))
            for hand in PayoutHand:
                self._hit(f"hand_{hand.value}", hands.count(hand), count)


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


# --- the whole game, figure for figure with etg.math.vector_full ---------------------------

def simulate_engine_full(
    paytable: Paytable,
    rounds: int,
    seed: int,
    setup: TableSetup | None = None,
    progress: Callable[[int], None] | None = None,
    progress_every: int = 1_000,
    jobs: int = 1,
) -> FullSimResult:
    """Play ``rounds`` rounds of ``setup`` (default: :func:`~etg.math.sim_setup.standard_setup`).

    The same table as :func:`etg.math.vector_full.simulate_full` and the same
    figure keys (:mod:`etg.math.sim_figures`), read off the engine's events:
    each seat's Bonus Spin denomination is drawn afresh every round with the
    setup's mix, the meters evolve in the engine itself.

    With ``jobs`` above one, that many processes each play a share of the rounds
    on a table of their own, with a seed stream of their own (:func:`engine_parts`).
    Every figure is kept as whole cents and counts (:class:`~etg.math.stats.ExactRatio`),
    so the workers' sums add up exactly: the same seed and jobs give the same figures
    to the last bit, and one job is the single-process run of the same seed.
    """
    start = time.perf_counter()
    tally = engine_tally(paytable, rounds, seed, setup or standard_setup(paytable), jobs,
                         progress, progress_every)
    seconds = time.perf_counter() - start
    return FullSimResult(rounds, seconds, tally.figures(), dict(tally.awards))


def engine_tally(paytable: Paytable, rounds: int, seed: int, setup: TableSetup, jobs: int = 1,
                 progress: Callable[[int], None] | None = None,
                 progress_every: int = 1_000) -> EngineTally:
    """The integer sums behind :func:`simulate_engine_full`'s figures, over ``jobs`` processes.

    One job plays in this process; more each play their :func:`engine_parts` in a
    worker of their own, and their tallies are merged in the parts' order.
    ``progress(done)`` gets the rounds played by all the workers together.
    """
    if rounds < 1:
        raise ValueError(f"rounds must be positive, not {rounds}")
    if jobs < 1:
        raise ValueError(f"jobs must be positive, not {jobs}")
    parts = engine_parts(rounds, seed, jobs)
    if len(parts) == 1:
        return play_part(paytable, setup, parts[0], progress, progress_every)
    return _play_in_processes(paytable, setup, parts, progress, progress_every)


@dataclass(frozen=True)
class EnginePart:
    """One worker's share: its index, its rounds and the seed of its stream."""

    index: int
    rounds: int
    seed: int


def engine_parts(rounds: int, seed: int, jobs: int) -> tuple[EnginePart, ...]:
    """``rounds`` split over ``jobs`` workers (at most one a round), the first ones one more."""
    jobs = min(jobs, rounds)
    share, extra = divmod(rounds, jobs)
    return tuple(EnginePart(k, share + (k < extra), worker_seed(seed, k)) for k in range(jobs))


def worker_seed(seed: int, worker: int) -> int:
    """The seed of worker ``worker``'s stream: ``seed`` itself for the first worker.

    So one job plays exactly the single-process simulation of ``seed``. The others
    take 128 bits of SHA-256 over the seed and their index: streams that do not
    depend on how many workers there are, nor overlap in any way that matters.
    """
    if worker == 0:
        return seed
    digest = hashlib.sha256(f"etg engine sim {seed} {worker}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


def play_part(paytable: Paytable, setup: TableSetup, part: EnginePart,
              progress: Callable[[int], None] | None = None,
              progress_every: int = 1_000) -> EngineTally:
    """One table from a new shoe and initial meters, playing ``part``'s rounds in this process."""
    small, large = denominations(paytable)
    mixer = random.Random(part.seed ^ 0x5EED)  # the denominations, apart from the shoe's source
    source = SeededSource(part.seed)
    tally = EngineTally(paytable, setup)
    state = new_table(paytable)
    for done in range(1, part.rounds + 1):
        cents = {s.seat: (small if mixer.randrange(setup.mix.denominator) < setup.mix.numerator
                          else large) for s in setup.seats} if setup.bonus_spin else {}
        # a driver per round: the seats' Bonus Spin wagers change from round to round
        state, events = RoundDriver(bots(setup, cents), source, apply).play_round(state)
        tally.add_round(events, cents)
        if progress is not None and (done % progress_every == 0 or done == part.rounds):
            progress(done)
    return tally


def cores() -> int:
    """The cores this process may run on: ``etg sim``'s default number of jobs."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _play_in_processes(paytable: Paytable, setup: TableSetup, parts: tuple[EnginePart, ...],
                       progress: Callable[[int], None] | None,
                       progress_every: int) -> EngineTally:
    """Each part in a worker process of its own; their tallies merged in the parts' order.

    A worker sends back its tally or the exception that stopped it. One that dies
    without a word (killed) is reported as such, and whatever stops this process
    while the workers play (an error, SIGTERM) ends them too: none is waited for.
    """
    context = _context()
    done = context.Array("q", len(parts), lock=False)  # rounds played, by worker
    results = context.Queue()
    workers = [context.Process(target=_play_worker, daemon=True,
                               args=(paytable, setup, part, done, progress_every, results))
               for part in parts]
    tallies: dict[int, EngineTally] = {}
    try:
        for worker in workers:
            worker.start()
        while len(tallies) < len(parts):
            try:
                index, outcome = results.get(timeout=0.25)
            except queue.Empty:
                _check_alive(workers, tallies)
            else:
                if isinstance(outcome, BaseException):
                    raise outcome
                tallies[index] = outcome
            if progress is not None:
                progress(sum(done))
    finally:
        for worker in workers:
            if worker.is_alive():
                # SIGKILL, not SIGTERM: a worker forked from a process where SDL is running
                # inherits SDL's SIGTERM handler, which only queues a quit event
                worker.kill()
            worker.join()
    total = tallies[0]
    for index in range(1, len(parts)):
        total.merge(tallies[index])
    return total


def _check_alive(workers: list[Any], tallies: dict[int, EngineTally]) -> None:
    """A worker killed (or crashed) before its tally came is a fault, not something to wait
    for. One that ended well (exit code 0) sent its tally or its error first."""
    for index, worker in enumerate(workers):
        if index not in tallies and worker.exitcode not in (None, 0):
            raise RuntimeError(f"engine worker {index + 1} of {len(workers)} ended without its "
                               f"figures (exit code {worker.exitcode})")


def _context() -> Any:
    """Forked workers where the platform has fork: a spawned one would first import the
    caller's main module again (a script, a bench, a test), and only ``etg`` guards that."""
    try:
        return get_context("fork")
    except ValueError:
        return get_context("spawn")


def _play_worker(paytable: Paytable, setup: TableSetup, part: EnginePart, done: Any,
                 progress_every: int, results: Any) -> None:
    """A worker process: its part's tally, or what stopped it, onto ``results``."""

    def progress(rounds: int) -> None:
        done[part.index] = rounds

    try:
        results.put((part.index, play_part(paytable, setup, part, progress, progress_every)))
    except Exception as error:  # sent to the parent, which raises it
        results.put((part.index, error))


class EngineTally(FigureSums):
    """Per-round money and counts of every whole-game figure, from the events.

    Money is kept in whole cents (:class:`~etg.math.stats.ExactRatio`): the ratio
    and its interval do not depend on the unit, and integer sums merge exactly.
    """

    def __init__(self, paytable: Paytable, setup: TableSetup) -> None:
        super().__init__()
        self.paytable = paytable
        self.setup = setup
        self.decision = {s.seat: s.decision for s in setup.seats}
        self.initial_wagers = sum(len(s.spots) for s in setup.seats)
        self.measured = sorted({j for s in setup.seats if s.decision is Decision.WAR
                                for j in s.spots})
        self.meter_values.update((level, MetersAtAward()) for level in ProgressiveLevel)
        self.ratios: dict[str, ExactRatio] = {}  # the returns (FigureSums.sums stays empty)
        self.rounds = 0
        self.awards: dict[ProgressiveLevel, int] = {
            level: 0 for level in ProgressiveLevel if paytable.meter(level) is not None}
        bonus = paytable.bonus_spin
        self.symbols = sorted({s.symbol for s in bonus.hot_spot_ring}) if bonus else []

    def add_round(self, events: list[Event], bonus_cents: dict[int, int]) -> None:
        x: dict[str, int] = {}  # cents paid (or, for a house edge, kept) this round, by figure
        y: dict[str, int] = {}  # cents staked

        def money(key: str, paid: int, staked: int = 0) -> None:
            x[key] = x.get(key, 0) + paid
            y[key] = y.get(key, 0) + staked

        cards: dict[tuple[bool, int], Card] = {}
        hands: dict[tuple[int, int], PayoutHand] = {}
        stops: WheelStops | None = None
        p, setup = self.paytable, self.setup
        for key in self._ratio_keys(bonus_cents):
            money(key, 0)
        for e in events:
            if isinstance(e, CardDealt):
                cards[(e.war, e.spot if e.target is Target.SPOT else 0)] = e.card
            elif isinstance(e, PayoutHandMade):
                hands[(e.seat, e.spot)] = e.hand
            elif isinstance(e, WheelStopped):
                stops = e.stops
            elif isinstance(e, ProgressiveAwarded):
                self._award(e, hands, stops, bonus_cents, money)
            elif isinstance(e, WagerSettled):
                self._settled(e, bonus_cents, money)
        placed = sum(1 for e in events if isinstance(e, WagerSettled)
                     and e.payment.kind is WagerKind.INITIAL)
        if placed != self.initial_wagers:
            raise RuntimeError(f"the engine took {placed} of the setup's {self.initial_wagers} "
                               f"Initial Wagers: the setup breaks a table rule")
        self._cards(cards)
        self._hands(hands)
        if p.bonus_spin is not None and setup.bonus_spin:
            dealer = cards[(False, 0)]
            self._count("trigger_probability", int(triggers(p.bonus_spin, dealer)), 1)
            if stops is not None:
                symbol = p.bonus_spin.hot_spot_ring[stops.hot_spot].symbol
                for s in self.symbols:
                    self._count(f"hot_spot.{s}", int(s == symbol), 1)
        for key in x:
            self.ratios.setdefault(key, ExactRatio()).add(x[key], y[key])
        self.rounds += 1

    def merge(self, other: EngineTally) -> None:
        """Add another table's rounds (another worker's) to these: exact integer sums."""
        for key, acc in other.ratios.items():
            self.ratios.setdefault(key, ExactRatio()).merge(acc)
        for key, (hits, trials) in other.counts.items():
            self._count(key, hits, trials)
        for level, meters in other.meter_values.items():
            self.meter_values[level].merge(meters)
        for level, awards in other.awards.items():
            self.awards[level] += awards
        self.rounds += other.rounds

    def figures(self) -> dict[str, Estimate]:
        """Every figure measured, by key: the returns, then as :meth:`FigureSums.figures`."""
        out = {key: acc.estimate() for key, acc in self.ratios.items() if acc.sum_y}
        out.update(super().figures())
        return out

    def _ratio_keys(self, bonus_cents: dict[int, int]) -> list[str]:
        """Every return measured this round, so that a round paying nothing still counts."""
        keys = ["house_edge_war", "house_edge_surrender", "tie_house_edge",
                "war_tie_wager_house_edge"]
        if self.setup.payout_cents:
            keys += ["progressive_payout.rtp_fixed", "progressive_payout.rtp_at_reset",
                     "progressive_payout.rtp", "envy_bonus.rtp"]
        for cents in sorted(set(denominations(self.paytable))) if bonus_cents else ():
            keys += [f"bonus_spin.{cents}.{what}" for what in ("rtp_fixed", "rtp_at_reset", "rtp")]
        return keys

    def _settled(self, e: WagerSettled, bonus_cents: dict[int, int],
                 money: Callable[[str, int, int], None]) -> None:
        kind, stake = e.payment.kind, e.payment.stake
        setup = self.setup
        if kind in (WagerKind.INITIAL, WagerKind.WAR):
            key = ("house_edge_war" if self.decision[e.seat] is Decision.WAR
                   else "house_edge_surrender")
            staked = stake if kind is WagerKind.INITIAL else 0
            money(key, stake - e.paid, staked)
        elif kind is WagerKind.TIE:
            money("tie_house_edge", stake - e.paid, stake)
        elif kind is WagerKind.WAR_TIE:
            money("war_tie_wager_house_edge", stake - e.paid, stake)
        elif kind is WagerKind.PROGRESSIVE_PAYOUT:
            for key in ("progressive_payout.rtp_fixed", "progressive_payout.rtp_at_reset",
                        "progressive_payout.rtp"):
                money(key, e.paid, stake)
        elif kind is WagerKind.ENVY_BONUS:
            money("envy_bonus.rtp", e.paid, 0)
        elif kind is WagerKind.BONUS_SPIN:
            cents = bonus_cents[e.seat]
            for what in ("rtp_fixed", "rtp_at_reset", "rtp"):
                money(f"bonus_spin.{cents}.{what}", e.paid, stake)
        elif kind is WagerKind.PROGRESSIVE:
            if e.spot:
                money("progressive_payout.rtp", e.paid, 0)
            else:
                money(f"bonus_spin.{bonus_cents[e.seat]}.rtp", e.paid, 0)
        if kind is WagerKind.PROGRESSIVE_PAYOUT and setup.payout_cents:
            money("envy_bonus.rtp", 0, stake)

    def _award(self, e: ProgressiveAwarded, hands: dict[tuple[int, int], PayoutHand],
               stops: WheelStops | None, bonus_cents: dict[int, int],
               money: Callable[[str, int, int], None]) -> None:
        """The meter at the award, and the award valued at the reset amount."""
        level = e.level
        rules = self.paytable.meter(level)
        assert rules is not None
        self.meter_values[level].add(self.rounds, e.meter_before)
        self.awards[level] += 1
        if level is ProgressiveLevel.PROGRESSIVE_PAYOUT:
            payout = self.paytable.progressive_payout
            assert payout is not None
            pct = payout.pays.of(hands[(e.seat, e.spot)]).meter_percent
            money("progressive_payout.rtp_at_reset", rules.reset_cents * pct // 100, 0)
            return
        bonus = self.paytable.bonus_spin
        assert bonus is not None and stops is not None
        cents = bonus_cents[e.seat]
        percents = bonus.hot_spot_ring[stops.hot_spot].meter_percent
        assert percents is not None
        money(f"bonus_spin.{cents}.rtp_at_reset",
              rules.reset_cents * percents[bonus.column(cents)] // 100, 0)

    def _cards(self, cards: dict[tuple[bool, int], Card]) -> None:
        dealer = cards[(False, 0)]
        dealt = [c for (war, spot), c in cards.items() if not war and spot]
        self._count("tie_probability", sum(c.rank == dealer.rank for c in dealt), len(dealt))
        war_dealer = cards.get((True, 0))
        if war_dealer is not None:
            war = [c for (w, spot), c in cards.items() if w and spot]
            self._count("war_tie_probability", sum(c.rank == war_dealer.rank for c in war),
                        len(war))

    def _hands(self, hands: dict[tuple[int, int], PayoutHand]) -> None:
        """Each spot a War player holds the wager on, once (SPEC §4: its hand with War)."""
        if not self.setup.payout_cents or not self.measured:
            return
        made: list[PayoutHand | None] = []
        for spot in self.measured:
            seat = next(s.seat for s in self.setup.seats
                        if s.decision is Decision.WAR and spot in s.spots)
            made.append(hands.get((seat, spot)))
        for hand in PayoutHand:
            self._count(f"hand.{hand.value}", made.count(hand), len(made))

