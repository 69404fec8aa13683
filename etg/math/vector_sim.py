"""Vectorised (NumPy) Monte Carlo of the main game, for volume.

What it models, and why that is the real game
---------------------------------------------
As :mod:`etg.math.exact` explains, one spot's spot card, dealer card and the
two War cards are four cards drawn without replacement from a full freshly
shuffled shoe, wherever they sit in the shoe and however many other spots are
dealt. So a round here is just those four cards; other spots, burns and the
cut card change nothing a spot's figures depend on.

How it draws
------------
Four distinct shoe positions per round, by the classic sequential method: the
k-th draw is uniform in ``[0, N − k)`` and is stepped past each position drawn
before it, taken in increasing order, which maps it onto the k-th draw's
uniform choice among the positions still free. Positions are laid out rank by
rank (``4·decks`` cards each), so a card's rank is ``position // (4·decks)``;
suits do not matter to the main game. Everything is whole-array integer
arithmetic on chunks of rounds, with no per-round Python.

How it scores
-------------
Each round falls in one of nine outcome classes, ``3·original + war`` with
LOWER = 0, HIGHER = 1, TIE = 2 for the original deal and the War deal (the War
cards count only after an original tie). The net per unit wagered of each
class comes once from :func:`etg.math.exact.main_game_nets`, that is from
:mod:`etg.core.settle`, into a lookup table, so the simulated money follows the
same rules as the round engine. A chunk is then one ``bincount`` of its
classes, and every figure's running sum and sum of squares is the histogram
times the table (:meth:`etg.math.stats.RunningMean.add_counts`).

The result is a deterministic function of (paytable, rounds, seed, chunk).

The side wagers
---------------
:func:`simulate_side_wagers` draws the same four cards *with suits*: within
each rank's block, positions are laid out suit by suit (``decks`` cards each),
so ``position // decks`` is the card's face in :attr:`etg.core.cards.Card.index`
order. It measures the Bonus Spin trigger (the dealer's card), each
Progressive Payout Hand with War on every tie (:func:`payout_hand_codes`, the
rules of :func:`etg.core.hands.payout_hand` on whole arrays), and both wagers'
returns with the meters at reset, for one seat, the wheel's three rings drawn
with the weights :func:`etg.core.wheel.draw_stops` uses (each ring uniform over
its total weight, the Seat ring over the paytable's seats). Hit frequencies
get Wilson score intervals (:func:`proportion_estimate`), which keep their
coverage for a hand seen only a few dozen times in millions of rounds (the
Suited Four-of-a-Kind, about 2 in a million), where the normal approximation
of :class:`~etg.math.stats.RunningMean` does not.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from etg.core.paytable import PayoutHand, Paytable, WheelSegment
from etg.core.settle import Outcome
from etg.math.bonus import trigger_faces
from etg.math.exact import RANK_COUNT, SUITS_PER_DECK, main_game_nets
from etg.math.stats import Estimate, RunningMean
from etg.math.stats import proportion_estimate as proportion_estimate  # moved; still here

OUTCOME_CODE: dict[Outcome, int] = {Outcome.LOWER: 0, Outcome.HIGHER: 1, Outcome.TIE: 2}
CLASS_COUNT = 9  # 3 original outcomes x 3 War outcomes


@dataclass(frozen=True)
class SimResult:
    """Measured main-game figures with their 99 % intervals.

    ``tie_probability``, the edges of always-War / always-Surrender (per unit
    Initial Wager) and the Tie Wager's edge are over all rounds;
    ``war_tie_probability`` and the War-deal Tie Wager's edge are over the rounds
    with an original tie (``None`` when the paytable offers no such wager).
    """

    rounds: int
    seconds: float
    tie_probability: Estimate
    war_tie_probability: Estimate
    house_edge_war: Estimate
    house_edge_surrender: Estimate
    tie_house_edge: Estimate
    war_tie_wager_house_edge: Estimate | None
    # side-wager figures by name (engine mode), compared with the same names' exact values
    side: dict[str, Estimate] = field(default_factory=dict)

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else float("inf")


@dataclass(frozen=True)
class NetTables:
    """Per outcome class (``3·original + war``), each figure's sample value.

    House-edge tables hold minus the player's net per unit wagered, so their
    mean is the edge; probability tables hold 0/1 indicators. ``war_tie_wager``
    is ``None`` when the paytable offers no Tie Wager on the War deal.
    """

    tie: tuple[float, ...]
    war_tie: tuple[float, ...]
    edge_war: tuple[float, ...]
    edge_surrender: tuple[float, ...]
    edge_tie: tuple[float, ...]
    edge_war_tie_wager: tuple[float, ...] | None


def simulate_main_game(
    paytable: Paytable,
    rounds: int,
    seed: int,
    chunk: int = 1_000_000,
    progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Play ``rounds`` rounds of one spot; ``progress(done)`` is called after each chunk."""
    if rounds < 1:
        raise ValueError(f"rounds must be positive, not {rounds}")
    if chunk < 1:
        raise ValueError(f"chunk must be positive, not {chunk}")
    tables = net_tables(paytable)
    rng = np.random.default_rng(seed)
    histogram = np.zeros(CLASS_COUNT, dtype=np.int64)
    start = time.perf_counter()
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        histogram += np.bincount(draw_classes(rng, paytable.shoe.decks, n),
                                 minlength=CLASS_COUNT)
        done += n
        if progress is not None:
            progress(done)
    seconds = time.perf_counter() - start
    counts = [int(c) for c in histogram]
    ties = slice(3 * OUTCOME_CODE[Outcome.TIE], CLASS_COUNT)  # original tie, by War outcome

    def over_all(table: tuple[float, ...]) -> Estimate:
        acc = RunningMean()
        acc.add_counts(table, counts)
        return acc.estimate()

    def over_ties(table: tuple[float, ...]) -> Estimate:
        acc = RunningMean()
        acc.add_counts(table[ties], counts[ties])
        return acc.estimate()

    return SimResult(
        rounds=rounds,
        seconds=seconds,
        tie_probability=over_all(tables.tie),
        war_tie_probability=over_ties(tables.war_tie),
        house_edge_war=over_all(tables.edge_war),
        house_edge_surrender=over_all(tables.edge_surrender),
        tie_house_edge=over_all(tables.edge_tie),
        war_tie_wager_house_edge=(None if tables.edge_war_tie_wager is None
                                  else over_ties(tables.edge_war_tie_wager)),
    )


def net_tables(paytable: Paytable) -> NetTables:
    """The lookup tables of every figure by outcome class, from :mod:`etg.core.settle`."""
    nets = main_game_nets(paytable)
    tie: list[float] = []
    war_tie: list[float] = []
    edge_war: list[float] = []
    edge_surrender: list[float] = []
    edge_tie: list[float] = []
    edge_war_tie_wager: list[float] = []
    for original in Outcome:
        for war in Outcome:
            is_tie = original is Outcome.TIE
            tie.append(float(is_tie))
            war_tie.append(float(war is Outcome.TIE))
            if is_tie:
                edge_war.append(-float(nets.war[war]))
                edge_surrender.append(-float(nets.surrender))
                edge_tie.append(-float(nets.tie_win))
            else:
                edge_war.append(-float(nets.original[original]))
                edge_surrender.append(-float(nets.original[original]))
                edge_tie.append(-float(nets.tie_lose))
            if nets.war_tie_win is not None and nets.war_tie_lose is not None:
                side = nets.war_tie_win if war is Outcome.TIE else nets.war_tie_lose
                edge_war_tie_wager.append(-float(side))
    order = [3 * OUTCOME_CODE[o] + OUTCOME_CODE[w] for o in Outcome for w in Outcome]

    def by_class(values: list[float]) -> tuple[float, ...]:
        out = [0.0] * CLASS_COUNT
        for index, value in zip(order, values, strict=True):
            out[index] = value
        return tuple(out)

    return NetTables(
        tie=by_class(tie),
        war_tie=by_class(war_tie),
        edge_war=by_class(edge_war),
        edge_surrender=by_class(edge_surrender),
        edge_tie=by_class(edge_tie),
        edge_war_tie_wager=by_class(edge_war_tie_wager) if edge_war_tie_wager else None,
    )


def draw_classes(rng: np.random.Generator, decks: int, n: int) -> npt.NDArray[np.int8]:
    """The outcome class of ``n`` rounds, each from four cards drawn without replacement."""
    ranks = draw_ranks(rng, decks, n)
    original = _outcome_codes(ranks[0], ranks[1])
    war = _outcome_codes(ranks[2], ranks[3])
    original *= 3
    original += war
    return original


def draw_ranks(rng: np.random.Generator, decks: int, n: int) -> npt.NDArray[np.int32]:
    """Ranks (0 = deuce … 12 = ace) of spot, dealer, spot War and dealer War cards.

    Shape ``(4, n)``: four cards per round drawn without replacement from a full
    shoe of ``decks`` decks, whose positions are laid out rank by rank.
    """
    per_rank = SUITS_PER_DECK * decks
    positions = draw_positions(rng, RANK_COUNT * per_rank, n)
    positions //= per_rank
    return positions


def draw_positions(rng: np.random.Generator, size: int, n: int) -> npt.NDArray[np.int32]:
    """Shape ``(4, n)``: per column, four distinct positions of ``[0, size)`` in draw order.

    Each ordered 4-tuple of distinct positions is equally likely. 32-bit integers:
    a shoe has a few hundred cards, and half the memory traffic of 64-bit ones
    makes the draw markedly faster.
    """
    if size < 4:
        raise ValueError(f"need at least 4 cards, not {size}")
    highs = np.array([[size], [size - 1], [size - 2], [size - 3]], dtype=np.int32)
    u = rng.integers(0, highs, size=(4, n), dtype=np.int32)
    p1, p2, p3, p4 = u  # views of u's rows: stepping them in place fills u
    p2 += p2 >= p1
    lo = np.minimum(p1, p2)
    hi = np.maximum(p1, p2)
    p3 += p3 >= lo
    p3 += p3 >= hi
    first = np.minimum(lo, p3)
    last = np.maximum(hi, p3)
    middle = p1 + p2 + p3 - first - last
    p4 += p4 >= first
    p4 += p4 >= middle
    p4 += p4 >= last
    return u


def _outcome_codes(spot: npt.NDArray[np.int32],
                   dealer: npt.NDArray[np.int32]) -> npt.NDArray[np.int8]:
    """LOWER = 0, HIGHER = 1, TIE = 2, elementwise."""
    codes: npt.NDArray[np.int8] = (spot > dealer).astype(np.int8)
    codes[spot == dealer] = 2
    return codes


HAND_CODES: dict[PayoutHand, int] = {hand: code for code, hand in enumerate(PayoutHand)}
NO_HAND = len(HAND_CODES)  # the code of four cards that make no Progressive Payout Hand


@dataclass(frozen=True)
class SideWagerSimResult:
    """Measured side-wager figures with their 99 % intervals, over ``rounds`` rounds of one spot.

    ``hands`` (War on every tie) are always measured: they are properties of
    the cards. ``trigger_probability`` and ``bonus_rtp_at_reset`` (per
    denomination in cents, one seat holding the wager) are None / empty without
    a Bonus Spin, ``progressive_payout_rtp_at_reset`` None without that wager.
    """

    rounds: int
    seconds: float
    hands: dict[PayoutHand, Estimate]
    trigger_probability: Estimate | None
    bonus_rtp_at_reset: dict[int, Estimate]
    progressive_payout_rtp_at_reset: Estimate | None


def simulate_side_wagers(
    paytable: Paytable,
    rounds: int,
    seed: int,
    chunk: int = 1_000_000,
    progress: Callable[[int], None] | None = None,
) -> SideWagerSimResult:
    """Deal ``rounds`` rounds of one spot's four cards with suits and spin the wheel when due.

    The Bonus Spin wager is held by seat 1 in every denomination at once (each
    measured apart, on the same stops); the Hot Spot ring's meters stand at
    their reset amounts. ``progress(done)`` is called after each chunk.
    """
    if rounds < 1:
        raise ValueError(f"rounds must be positive, not {rounds}")
    if chunk < 1:
        raise ValueError(f"chunk must be positive, not {chunk}")
    rng = np.random.default_rng(seed)
    decks = paytable.shoe.decks
    bonus = paytable.bonus_spin
    designated = np.zeros(52, dtype=bool)
    if bonus is not None:
        designated[list(trigger_faces(bonus))] = True
    wheel = _WheelTables(paytable) if bonus is not None else None
    histogram = np.zeros(NO_HAND + 1, dtype=np.int64)
    triggers = 0
    bonus_acc = {cents: RunningMean() for cents in (bonus.denominations_cents if bonus else ())}
    start = time.perf_counter()
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        faces = draw_faces(rng, decks, n)
        histogram += np.bincount(payout_hand_codes(faces), minlength=NO_HAND + 1)
        if wheel is not None:
            triggered = int(np.count_nonzero(designated[faces[1]]))
            triggers += triggered
            wheel.spin(rng, triggered, n, bonus_acc)
        done += n
        if progress is not None:
            progress(done)
    seconds = time.perf_counter() - start
    counts = [int(c) for c in histogram]
    payout_rtp: Estimate | None = None
    if paytable.progressive_payout is not None:
        acc = RunningMean()
        acc.add_counts(_payout_returns(paytable), counts)
        payout_rtp = acc.estimate()
    return SideWagerSimResult(
        rounds=rounds,
        seconds=seconds,
        hands={hand: proportion_estimate(counts[code], rounds)
               for hand, code in HAND_CODES.items()},
        trigger_probability=proportion_estimate(triggers, rounds) if bonus is not None else None,
        bonus_rtp_at_reset={cents: acc.estimate() for cents, acc in bonus_acc.items()},
        progressive_payout_rtp_at_reset=payout_rtp,
    )


def draw_faces(rng: np.random.Generator, decks: int, n: int) -> npt.NDArray[np.int32]:
    """Faces 0..51 (:attr:`etg.core.cards.Card.index`) of spot, dealer, spot War, dealer War.

    Shape ``(4, n)``, drawn as :func:`draw_ranks` draws, without replacement
    from a full shoe; each face stands ``decks`` times in the shoe.
    """
    positions = draw_positions(rng, RANK_COUNT * SUITS_PER_DECK * decks, n)
    positions //= decks
    return positions


def payout_hand_codes(faces: npt.NDArray[np.int32]) -> npt.NDArray[np.int8]:
    """Each column's Progressive Payout Hand code (:data:`HAND_CODES`, :data:`NO_HAND`).

    ``faces`` holds the rows spot, dealer, spot War, dealer War card
    (:func:`draw_faces`); see :func:`hand_codes`.
    """
    spot, dealer, war_spot, war_dealer = faces
    return hand_codes(spot, dealer, war_spot, war_dealer)


def hand_codes(spot: npt.NDArray[np.integer], dealer: npt.NDArray[np.integer],
               war_spot: npt.NDArray[np.integer],
               war_dealer: npt.NDArray[np.integer]) -> npt.NDArray[np.int8]:
    """The Progressive Payout Hand code of each spot, going to War on every tie.

    Faces as :attr:`etg.core.cards.Card.index`; the arrays broadcast (one
    dealer card against many spots). The rules of
    :func:`etg.core.hands.payout_hand`, written from the lowest hand up so that
    each higher one overwrites it: the same precedence, tested case by case
    against that function.
    """
    tie = spot // SUITS_PER_DECK == dealer // SUITS_PER_DECK
    suited = spot == dealer  # same rank and suit: the same face
    double = tie & (war_spot // SUITS_PER_DECK == war_dealer // SUITS_PER_DECK)
    war_suited = war_spot == war_dealer
    codes = np.full(tie.shape, NO_HAND, dtype=np.int8)
    codes[tie] = HAND_CODES[PayoutHand.TIE]
    codes[tie & suited] = HAND_CODES[PayoutHand.SUITED_TIE]
    codes[double] = HAND_CODES[PayoutHand.DOUBLE_TIE]
    codes[double & (war_spot // SUITS_PER_DECK == spot // SUITS_PER_DECK)] = (
        HAND_CODES[PayoutHand.FOUR_OF_A_KIND])
    both_suited = double & suited & war_suited
    codes[both_suited] = HAND_CODES[PayoutHand.SUITED_DOUBLE_TIE]
    codes[both_suited & (war_spot == spot)] = HAND_CODES[PayoutHand.SUITED_FOUR_OF_A_KIND]
    return codes


class _WheelTables:
    """The rings as cumulative weights and per-column pays, meters at reset, for one seat."""

    def __init__(self, paytable: Paytable) -> None:
        bonus = paytable.bonus_spin
        assert bonus is not None
        self.seats = paytable.seats
        self.denominations = bonus.denominations_cents
        self.community_cum = np.cumsum([s.weight for s in bonus.community_ring])
        self.hot_cum = np.cumsum([s.weight for s in bonus.hot_spot_ring])
        self.community = [np.array([s.pay_cents(c) for s in bonus.community_ring],
                                   dtype=np.float64) for c in range(len(self.denominations))]

        def at_reset(segment: WheelSegment, column: int) -> int:
            if segment.progressive is None or segment.meter_percent is None:
                return segment.pay_cents(column)
            reset = bonus.meter(segment.progressive).reset_cents
            return reset * segment.meter_percent[column] // 100

        self.hot = [np.array([at_reset(s, c) for s in bonus.hot_spot_ring], dtype=np.float64)
                    for c in range(len(self.denominations))]

    def spin(self, rng: np.random.Generator, triggered: int, n: int,
             acc: dict[int, RunningMean]) -> None:
        """Spin the wheel for the ``triggered`` of ``n`` rounds; the others return 0."""
        community = np.searchsorted(
            self.community_cum, rng.integers(0, self.community_cum[-1], triggered), side="right")
        hot_seat = rng.integers(0, self.seats, triggered) == 0  # seat 1 is the Hot Spot
        hot = np.searchsorted(self.hot_cum, rng.integers(0, self.hot_cum[-1], triggered),
                              side="right")
        for column, cents in enumerate(self.denominations):
            won = self.community[column][community] + hot_seat * self.hot[column][hot]
            acc[cents].add_many(won / cents)
            acc[cents].add_counts([0.0], [n - triggered])


def _payout_returns(paytable: Paytable) -> list[float]:
    """Return per unit of the Progressive Payout Wager by hand code, meter at reset."""
    rules = paytable.progressive_payout
    assert rules is not None
    out = [0.0] * (NO_HAND + 1)
    for hand, code in HAND_CODES.items():
        pay = rules.pays.of(hand)
        cents = (rules.wager_cents + rules.wager_cents * pay.pays // pay.to
                 + rules.meter.reset_cents * pay.meter_percent // 100)
        out[code] = cents / rules.wager_cents
    return out
