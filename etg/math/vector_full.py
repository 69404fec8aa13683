"""Vectorised (NumPy) Monte Carlo of the whole game: every wager, every seat, live meters.

What a round is
---------------
One community round (or per-seat round) of the paytable with the seats of a
:class:`~etg.math.sim_setup.TableSetup`: the dealer's card, a card on every
spot, and for the War deal a War card on every spot and the dealer's War card
(only the tied spots' War cards are used). As :mod:`etg.math.exact` argues for
four cards, every card a round uses is dealt at a stopping time of a
uniformly shuffled shoe, so the round's cards are distinct cards drawn without
replacement from the full shoe; burns, the cut card and the War cards that
surrendered spots never get change nothing the figures depend on. Rounds are
simulated as independent; in a real shoe successive rounds are dependent but
each has this same law, so every mean is the same.

How it draws
------------
``2·spots + 2`` distinct shoe positions per round: card ``k`` is uniform over
the shoe and redrawn, for the rounds where it hits a position already drawn,
until it does not, which makes it uniform over the free positions. Positions
are laid out face by face, ``decks`` of each, so ``position // decks`` is the
face (:attr:`etg.core.cards.Card.index`). The wheel's rings are drawn with the
paytable's weights as :func:`etg.core.wheel.draw_stops` draws them, the Seat
ring uniformly over the table's seats.

How it settles
--------------
Per spot, the outcome class (``3·original + war``, :mod:`etg.math.vector_sim`)
and the Progressive Payout Hand with and without the War cards; each class's
and hand's money per unit wagered comes from the same lookup tables as
:mod:`etg.math.vector_sim` (that is, from :mod:`etg.core.settle`), weighted by
how many seats of each decision play the spot. The Envy Bonus (MD Ch. 9
J(4)(e)): each of the ``H`` seats holding a Progressive Payout Wager is paid
for every qualifying hand of another seat, so the round pays ``(H − 1)`` times
the envy amounts of all the qualifying hands.

The meters
----------
All three meters evolve round by round with :mod:`etg.core.progressive`:
contributions at No More Bets (MD Ch. 10 C(1), D(3)(a)), awards at settlement,
"the amount on the meter at the moment that seat is paid" (MD Ch. 10 D(4)),
partial awards, reset, ceiling and reserve. Awards are rare, so the rounds
between two awards are contributed in one :func:`~etg.core.progressive.contribute`
call of their summed wagers (which is exactly what as many one-round calls
do: whole cents, carry, ceiling and reserve all add up) and each award is paid
by :func:`~etg.core.progressive.award` in settlement order: the Progressive
Payout Wagers seat by seat from the dealer's right, highest seat first, spots
in order within a seat (MD Ch. 9 A, J(3)), then the Bonus Spin.

The figures
-----------
Keys and exact values are in :mod:`etg.math.sim_figures`. Returns are ratios
of money paid to money staked over all rounds (:class:`~etg.math.stats.RatioMean`,
the rounds being the independent trials); hit frequencies are Wilson
intervals over spots, wagers or spins (:func:`~etg.math.stats.proportion_estimate`).
Events of different spots of one round are not independent, but their
correlation is negative (cards drawn without replacement), so counting spots as
trials makes the interval, if anything, a little wide. The mean meter at an
award is over the awards after each meter's first, whose meter started at the
initial amount rather than the reset amount; two awards of one round are
not independent (the second is paid from the reset value), so the rounds with
an award are its trials (:class:`MetersAtAward`).

Not modelled: the payout limit per hand (MD Ch. 2 B(5)(b)). :func:`simulate_full`
refuses a table whose wagers could reach it, so that nothing is left out.

The result is a deterministic function of (paytable, setup, rounds, seed, chunk).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from etg.core.paytable import Decision, Layout, PayoutHand, Paytable, ProgressiveLevel
from etg.core.progressive import MeterState, award, contribute, initial_state
from etg.core.settle import Outcome
from etg.math.bonus import trigger_faces
from etg.math.exact import SUITS_PER_DECK
from etg.math.sim_setup import TableSetup, denominations, standard_setup
from etg.math.stats import Estimate, ExactRatio, RatioMean, proportion_estimate
from etg.math.vector_sim import HAND_CODES, NO_HAND, OUTCOME_CODE, hand_codes, net_tables

TIE = OUTCOME_CODE[Outcome.TIE]
CHUNK = 100_000
MIN_AWARD_ROUNDS = 30  # rounds with an award before the mean meter at an award is reported


@dataclass(frozen=True)
class FullSimResult:
    """Measured figures by key (:mod:`etg.math.sim_figures`), each with its 99 % interval."""

    rounds: int
    seconds: float
    figures: dict[str, Estimate] = field(default_factory=dict)
    awards: dict[ProgressiveLevel, int] = field(default_factory=dict)  # awards paid per meter

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else float("inf")


def simulate_full(
    paytable: Paytable,
    rounds: int,
    seed: int,
    setup: TableSetup | None = None,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
) -> FullSimResult:
    """Play ``rounds`` rounds of the whole game; ``progress(done)`` after each chunk.

    ``setup`` defaults to :func:`etg.math.sim_setup.standard_setup` (every seat
    plays every wager, always War, half the Bonus Spin wagers the smallest).
    """
    if rounds < 1:
        raise ValueError(f"rounds must be positive, not {rounds}")
    if chunk < 1:
        raise ValueError(f"chunk must be positive, not {chunk}")
    game = _Game(paytable, setup or standard_setup(paytable))
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        game.play(rng, n)
        done += n
        if progress is not None:
            progress(done)
    seconds = time.perf_counter() - start
    return FullSimResult(rounds, seconds, game.figures(), dict(game.awards))


def draw_faces(rng: np.random.Generator, decks: int, cards: int,
               n: int) -> npt.NDArray[np.int16]:
    """Shape ``(cards, n)``: per column, faces of ``cards`` distinct cards of a full shoe.

    Each ordered choice of distinct shoe positions is equally likely (see the
    module docstring); faces as :attr:`etg.core.cards.Card.index`.
    """
    size = 52 * decks
    if not 1 <= cards <= size:
        raise ValueError(f"cannot draw {cards} distinct cards from {size}")
    out = rng.integers(0, size, size=(cards, n), dtype=np.int16)
    for k in range(1, cards):
        todo = np.arange(n)
        row = out[k]
        while todo.size:
            candidate = row[todo]
            clash = candidate == out[0, todo]
            for j in range(1, k):
                clash |= candidate == out[j, todo]
            todo = todo[clash]
            row[todo] = rng.integers(0, size, size=todo.size, dtype=np.int16)
    out //= decks
    return out


class FigureSums:
    """What both simulators add up, by figure key (:mod:`etg.math.sim_figures`).

    Returns as ratios of money paid to money staked over the rounds
    (:class:`~etg.math.stats.RatioMean`), hit frequencies as hits over trials
    (Wilson intervals), and each meter as it stood at its awards.
    """

    def __init__(self) -> None:
        self.sums: dict[str, RatioMean] = {}
        self.counts: dict[str, list[int]] = {}  # key: [hits, trials]
        self.meter_values: dict[ProgressiveLevel, MetersAtAward] = {}

    def _count(self, key: str, hits: int, trials: int) -> None:
        total = self.counts.setdefault(key, [0, 0])
        total[0] += hits
        total[1] += trials

    def figures(self) -> dict[str, Estimate]:
        """Every figure measured, by key; a return nothing was staked on is left out."""
        out = {key: acc.estimate() for key, acc in self.sums.items() if acc.sum_y}
        out.update((key, proportion_estimate(hits, trials))
                   for key, (hits, trials) in self.counts.items() if trials)
        for level, meters in self.meter_values.items():
            estimate = meters.estimate()
            if estimate is not None:
                out[f"meter.{level.value}.at_award"] = estimate
        return out


class _Game(FigureSums):
    """Lookup tables and running sums of one simulation; :meth:`play` adds a chunk."""

    def __init__(self, paytable: Paytable, setup: TableSetup) -> None:
        super().__init__()
        if _largest_hand_win(paytable, setup) > paytable.payout_limit_rules.amount_cents:
            raise ValueError("these wagers could reach the payout limit per hand, which the "
                             "vectorised simulator does not model")
        self.paytable = paytable
        self.setup = setup
        self.spots = paytable.spot_count
        self.decks = paytable.shoe.decks
        self.tables = net_tables(paytable)
        spots = range(1, self.spots + 1)
        self.war_players = np.array([setup.players(j, Decision.WAR) for j in spots], np.float64)
        self.surrender_players = np.array([setup.players(j, Decision.SURRENDER) for j in spots],
                                          np.float64)
        self.players = self.war_players + self.surrender_players
        # MD Ch. 9 L: every community spot gets a card; per seat, each seat with a wager
        self.dealt = (np.ones(self.spots, dtype=bool) if paytable.layout is Layout.COMMUNITY
                      else self.players > 0)
        self.played = 0  # rounds of the chunks before this one
        self.awards: dict[ProgressiveLevel, int] = {}
        self.meters: dict[ProgressiveLevel, MeterState] = {}
        for level in ProgressiveLevel:
            rules = paytable.meter(level)
            if rules is not None:
                self.meters[level] = initial_state(rules)
                self.meter_values[level] = MetersAtAward()
                self.awards[level] = 0
        self._payout_tables()
        self._bonus_tables()

    # --- set-up ---------------------------------------------------------------------------

    def _payout_tables(self) -> None:
        rules = self.paytable.progressive_payout
        self.payout = rules is not None and self.setup.payout_cents > 0
        if rules is None or not self.payout:
            return
        wager = rules.wager_cents
        fixed = np.zeros(NO_HAND + 1)
        reset = np.zeros(NO_HAND + 1)
        envy = np.zeros(NO_HAND + 1)
        percent = np.zeros(NO_HAND + 1, dtype=np.int64)
        for hand, code in HAND_CODES.items():
            pay = rules.pays.of(hand)
            fixed[code] = (wager + wager * pay.pays // pay.to) / wager
            reset[code] = (rules.meter.reset_cents * pay.meter_percent // 100) / wager
            envy[code] = rules.envy_cents.of(hand) / wager
            percent[code] = pay.meter_percent
        self.payout_fixed, self.payout_reset, self.envy = fixed, reset, envy
        self.payout_percent = percent
        self.payout_metered = percent > 0
        self.holders = len(self.setup.seats)  # every seat holds the wager on each of its spots
        self.wagers_per_round = sum(len(s.spots) for s in self.setup.seats)
        # MD Ch. 9 A, J(3): seat by seat from the dealer's right, highest seat first
        self.payout_order = [(j, s.decision) for s in sorted(
            self.setup.seats, key=lambda s: -s.seat) for j in s.spots]
        self.measured_spots = self.war_players > 0  # hand frequencies: spots a War player holds

    def _bonus_tables(self) -> None:
        bonus = self.paytable.bonus_spin
        self.bonus = bonus is not None and self.setup.bonus_spin
        if bonus is None or not self.bonus:
            return
        self.small, self.large = denominations(self.paytable)
        self.columns = (bonus.column(self.small), bonus.column(self.large))
        self.bettors = len(self.setup.seats)
        self.seat_bets = np.zeros(self.paytable.seats + 1, dtype=bool)
        for s in self.setup.seats:
            self.seat_bets[s.seat] = True
        self.designated = np.zeros(52, dtype=bool)
        self.designated[list(trigger_faces(bonus))] = True
        self.community_cum = np.cumsum([s.weight for s in bonus.community_ring])
        self.hot_cum = np.cumsum([s.weight for s in bonus.hot_spot_ring])
        self.community_pay = [np.array([s.pay_cents(c) for s in bonus.community_ring], np.float64)
                              for c in self.columns]
        self.hot_pay = [np.array([s.pay_cents(c) for s in bonus.hot_spot_ring], np.float64)
                        for c in self.columns]
        self.hot_progressive = np.array([s.progressive is not None for s in bonus.hot_spot_ring])
        self.symbols = sorted({s.symbol for s in bonus.hot_spot_ring})
        self.symbol_of = np.array([self.symbols.index(s.symbol) for s in bonus.hot_spot_ring])

    # --- one chunk ------------------------------------------------------------------------

    def play(self, rng: np.random.Generator, n: int) -> None:
        s = self.spots
        faces = draw_faces(rng, self.decks, 2 * s + 2, n)
        dealer, war_dealer = faces[0], faces[2 * s + 1]
        spot, war_spot = faces[1:s + 1], faces[s + 1:2 * s + 1]  # shape (spots, n)
        original = _codes(spot // SUITS_PER_DECK, dealer // SUITS_PER_DECK)
        war = _codes(war_spot // SUITS_PER_DECK, war_dealer // SUITS_PER_DECK)
        classes = original * 3 + war
        tie = original == TIE
        self._main(classes, tie, war == TIE, n)
        if self.payout:
            self._payout(spot, dealer, war_spot, war_dealer, n)
        if self.bonus:
            self._bonus(rng, dealer, n)
        self.played += n

    def _main(self, classes: npt.NDArray[np.int8], tie: npt.NDArray[np.bool_],
              war_tie: npt.NDArray[np.bool_], n: int) -> None:
        t = self.tables
        dealt = self.dealt
        self._count("tie_probability", int(np.count_nonzero(tie[dealt])), int(dealt.sum()) * n)
        war_spots = tie & (self.war_players > 0)[:, None]
        self._count("war_tie_probability", int(np.count_nonzero(war_spots & war_tie)),
                    int(np.count_nonzero(war_spots)))
        if self.setup.decides(Decision.WAR):
            values = np.asarray(t.edge_war)[classes]
            self._ratio("house_edge_war", _weigh(self.war_players, values), self.war_players.sum())
            if t.edge_war_tie_wager is not None and self.setup.war_tie_cents:
                side = np.asarray(t.edge_war_tie_wager)[classes] * tie
                staked = _weigh(self.war_players, tie)
                self._ratio("war_tie_wager_house_edge", _weigh(self.war_players, side), staked)
        if self.setup.decides(Decision.SURRENDER):
            values = np.asarray(t.edge_surrender)[classes]
            self._ratio("house_edge_surrender", _weigh(self.surrender_players, values),
                        self.surrender_players.sum())
        if self.setup.tie_cents:
            values = np.asarray(t.edge_tie)[classes]
            self._ratio("tie_house_edge", _weigh(self.players, values), self.players.sum())

    def _payout(self, spot: npt.NDArray[np.int16], dealer: npt.NDArray[np.int16],
                war_spot: npt.NDArray[np.int16], war_dealer: npt.NDArray[np.int16],
                n: int) -> None:
        with_war = hand_codes(spot, dealer, war_spot, war_dealer)
        measured = with_war[self.measured_spots]
        if measured.size:
            counts = np.bincount(measured.ravel(), minlength=NO_HAND + 1)
            for hand, code in HAND_CODES.items():
                self._count(f"hand.{hand.value}", int(counts[code]), int(measured.size))
        hands = {Decision.WAR: with_war}
        fixed = _weigh(self.war_players, self.payout_fixed[with_war])
        at_reset = _weigh(self.war_players, self.payout_reset[with_war])
        envy = _weigh(self.war_players, self.envy[with_war])
        if self.setup.decides(Decision.SURRENDER):
            # without the War cards a tie keeps only its original-deal hand (SPEC §4)
            without = _original_hand_codes(spot, dealer)
            hands[Decision.SURRENDER] = without
            fixed += _weigh(self.surrender_players, self.payout_fixed[without])
            at_reset += _weigh(self.surrender_players, self.payout_reset[without])
            envy += _weigh(self.surrender_players, self.envy[without])
        at_reset += fixed
        paid = fixed.copy()
        hits = np.zeros(n, dtype=bool)
        for decision, codes in hands.items():
            if self.setup.decides(decision):
                hits |= self.payout_metered[codes].any(axis=0)
        rules = self.paytable.progressive_payout
        assert rules is not None
        level = ProgressiveLevel.PROGRESSIVE_PAYOUT
        wagers_cents = self.wagers_per_round * rules.wager_cents  # fed by every wager
        awards: list[tuple[int, int, int]] = []  # (round, percent, sink) in settlement order
        for i in np.flatnonzero(hits):
            for j, decision in self.payout_order:
                pct = int(self.payout_percent[hands[decision][j - 1, i]])
                if pct:
                    awards.append((int(i), pct, 0))
        units = [paid]
        self._run_meter(level, awards, lambda k: wagers_cents * (k + 1), units,
                        rules.wager_cents)
        wager = self.wagers_per_round
        self._ratio("progressive_payout.rtp_fixed", fixed, wager)
        self._ratio("progressive_payout.rtp_at_reset", at_reset, wager)
        self._ratio("progressive_payout.rtp", paid, wager)
        self._ratio("envy_bonus.rtp", (self.holders - 1) * envy, wager)

    def _bonus(self, rng: np.random.Generator, dealer: npt.NDArray[np.int16], n: int) -> None:
        bonus = self.paytable.bonus_spin
        assert bonus is not None
        triggered = np.flatnonzero(self.designated[dealer])
        self._count("trigger_probability", triggered.size, n)
        b = self.bettors
        small_count = rng.binomial(b, float(self.setup.mix), size=n)
        if self.small == self.large:
            small_count[:] = b
        small_stake = small_count.astype(np.float64)  # in units of each wager
        large_stake = b - small_stake
        t = triggered.size
        community = np.searchsorted(self.community_cum,
                                    rng.integers(0, self.community_cum[-1], t), side="right")
        hot_seat = rng.integers(1, self.paytable.seats + 1, t)
        hot = np.searchsorted(self.hot_cum, rng.integers(0, self.hot_cum[-1], t), side="right")
        symbol_hits = np.bincount(self.symbol_of[hot], minlength=len(self.symbols))
        for k, symbol in enumerate(self.symbols):
            self._count(f"hot_spot.{symbol}", int(symbol_hits[k]), t)
        k_small = small_count[triggered]
        holds = self.seat_bets[hot_seat]
        # the Hot Spot seat's wager is the small one with probability (small wagers) / bettors
        hot_small = holds & (rng.random(t) * b < k_small)
        hot_large = holds & ~hot_small
        paid = [np.zeros(n), np.zeros(n)]  # fixed pays, per column, in cents
        paid[0][triggered] = k_small * self.community_pay[0][community] + (
            hot_small * self.hot_pay[0][hot])
        paid[1][triggered] = (b - k_small) * self.community_pay[1][community] + (
            hot_large * self.hot_pay[1][hot])
        at_reset = [paid[0].copy(), paid[1].copy()]
        progressive = holds & self.hot_progressive[hot]
        by_level: dict[ProgressiveLevel, list[tuple[int, int, int]]] = {
            ProgressiveLevel.PRIMARY: [], ProgressiveLevel.SECONDARY: []}
        for i in np.flatnonzero(progressive):
            segment = bonus.hot_spot_ring[hot[i]]
            assert segment.progressive is not None and segment.meter_percent is not None
            column = 0 if hot_small[i] else 1
            pct = segment.meter_percent[self.columns[column]]
            by_level[segment.progressive].append((int(triggered[i]), pct, column))
            reset = bonus.meter(segment.progressive).reset_cents
            at_reset[column][triggered[i]] += reset * pct // 100
        stakes = small_count * self.small + (b - small_count) * self.large
        cumulative = np.cumsum(stakes)
        fixed = [paid[0].copy(), paid[1].copy()]
        for level, awards in by_level.items():
            self._run_meter(level, awards, lambda k: int(cumulative[k]), paid, 1)
        for column, (cents, stake) in enumerate(((self.small, small_stake),
                                                 (self.large, large_stake))):
            if self.small == self.large and column == 1:
                break
            key = f"bonus_spin.{cents}"
            self._ratio(f"{key}.rtp_fixed", fixed[column] / cents, stake)
            self._ratio(f"{key}.rtp_at_reset", at_reset[column] / cents, stake)
            self._ratio(f"{key}.rtp", paid[column] / cents, stake)

    def _run_meter(self, level: ProgressiveLevel, awards: list[tuple[int, int, int]],
                   wagered_through: Callable[[int], int], sinks: list[npt.NDArray[np.float64]],
                   unit: int) -> None:
        """Contribute this chunk's wagers to ``level`` and pay its ``awards`` in order.

        ``awards`` lists (round, percent, sink) in settlement order;
        ``wagered_through(k)`` is the cents wagered into the meter in rounds
        0..k of the chunk; each award is added to ``sinks[sink][round]`` in
        units of ``unit`` cents.
        """
        rules = self.paytable.meter(level)
        assert rules is not None
        state = self.meters[level]
        contributed = 0  # cents of wagers already contributed this chunk
        for i, pct, sink in awards:
            through = wagered_through(i)
            if through > contributed:
                state, _ = contribute(rules, state, through - contributed)
                contributed = through
            before = state.cents
            state, done = award(rules, state, pct)
            sinks[sink][i] += done.amount / unit
            self.meter_values[level].add(self.played + i, before)
            self.awards[level] += 1
        n = len(sinks[0])
        rest = wagered_through(n - 1) - contributed
        if rest > 0:
            state, _ = contribute(rules, state, rest)
        self.meters[level] = state

    # --- accumulation ---------------------------------------------------------------------

    def _ratio(self, key: str, x: npt.ArrayLike, y: npt.ArrayLike | float) -> None:
        self.sums.setdefault(key, RatioMean()).add_many(x, y)



def _largest_hand_win(paytable: Paytable, setup: TableSetup) -> int:
    """An upper bound of one seat's fixed-odds winnings on one spot (a "hand"), in cents."""
    p = paytable.payouts
    odds = max(-(-o.pays // o.to) for o in (p.initial, p.tie, p.war, p.war_tie))  # rounded up
    # Initial and War Wager (and a dealer's match) each at the best odds, both Tie Wagers
    main = 3 * setup.initial_cents * odds
    ties = (setup.tie_cents + setup.war_tie_cents) * odds
    payout = 0
    if paytable.progressive_payout is not None:
        pays = paytable.progressive_payout.pays
        payout = setup.payout_cents * max(pays.of(h).pays // pays.of(h).to + 1
                                          for h in PayoutHand)
    return main + ties + payout


def _weigh(weights: npt.NDArray[np.float64],
           rows: npt.NDArray[np.generic]) -> npt.NDArray[np.float64]:
    """``Σ_j weights[j] · rows[j]``: each round's total over the spots.

    :func:`numpy.einsum` rather than ``@``: a matrix product may run on several
    BLAS threads, and the simulator's speed is measured per core.
    """
    out: npt.NDArray[np.float64] = np.einsum("j,jn->n", weights, rows, dtype=np.float64,
                                             casting="unsafe")
    return out


class MetersAtAward:
    """The meter as it stood at each award, for its mean over the awards after the first.

    The first award's meter started at the initial amount, not the reset
    amount, so it is left out. Awards of one round (two seats on one spot) are
    not independent: the second is paid from the reset value. So the rounds
    with awards are the trials, each giving (sum of its meters, number of
    awards) to a :class:`~etg.math.stats.RatioMean`; the mean is reported
    once :data:`MIN_AWARD_ROUNDS` rounds have had an award, when the interval
    starts to mean something.
    """

    def __init__(self) -> None:
        self.acc = ExactRatio()  # whole cents and counts: sums that merge exactly
        self.seen = False
        self.round = -1
        self.total = 0
        self.count = 0

    def add(self, round_number: int, meter_cents: int) -> None:
        """The meter at an award in round ``round_number`` (rounds in order)."""
        if not self.seen:
            self.seen = True
            return
        if round_number != self.round:
            self._flush()
            self.round = round_number
        self.total += meter_cents
        self.count += 1

    def sums(self) -> ExactRatio:
        """Every round with awards so far: (the sum of its meters, its awards)."""
        self._flush()
        return self.acc

    def merge(self, other: MetersAtAward) -> None:
        """Add the awards of ``other``, another table's (its own first award left out)."""
        self.sums().merge(other.sums())
        self.seen = self.seen or other.seen

    def _flush(self) -> None:
        if self.count:
            self.acc.add(self.total, self.count)
        self.total = self.count = 0

    def estimate(self) -> Estimate | None:
        """The mean meter at an award (cents), or None with too few rounds with awards."""
        acc = self.sums()
        return acc.estimate() if acc.count >= MIN_AWARD_ROUNDS else None


def _codes(spot: npt.NDArray[np.int16], dealer: npt.NDArray[np.int16]) -> npt.NDArray[np.int8]:
    """LOWER = 0, HIGHER = 1, TIE = 2, elementwise (broadcasting the dealer's card)."""
    codes: npt.NDArray[np.int8] = (spot > dealer).astype(np.int8)
    codes[np.broadcast_to(spot == dealer, codes.shape)] = TIE
    return codes



def _original_hand_codes(spot: npt.NDArray[np.int16],
                         dealer: npt.NDArray[np.int16]) -> npt.NDArray[np.int8]:
    """The hand of a spot whose player surrendered: a Suited Tie, a Tie or none (SPEC §4)."""
    tie = spot // SUITS_PER_DECK == dealer // SUITS_PER_DECK
    codes = np.full(tie.shape, NO_HAND, dtype=np.int8)
    codes[tie] = HAND_CODES[PayoutHand.TIE]
    codes[tie & (spot == dealer)] = HAND_CODES[PayoutHand.SUITED_TIE]
    return codes
