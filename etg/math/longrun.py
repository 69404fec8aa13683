"""A progressive meter's long run for a stated mix of wagers, by renewal–reward.

The model
---------
Wagers feed one meter one at a time (the time step is a wager, not a round).
A wager of denomination ``w`` (share ``s_w`` of the wagers, by count)
contributes ``c_w = w · rate`` (MD Ch. 10 C(1), D(3)(a)), then wins the meter
with probability ``q``, the same for every denomination (the Hot Spot and
the hands do not depend on the amount): it is paid ``pct_w`` % of the meter
(MD Ch. 10 D(4); the $1 Bonus Spin wager 20 %, SPEC §3). What is left, if
under the reset amount ``R``, is topped up to ``R`` by the house. Above the
ceiling ``C`` contributions overflow to a reserve that flows back after the
next award (:mod:`etg.core.progressive`); so the reserve is positive only
when the meter stands at ``C``, and one number ``T`` = meter + reserve is
the state: the meter is ``min(T, C)``.

Between two hits the meter gathers the contributions of a geometric number
``N`` of wagers that do not win, ``G = Σ c``, and the winner's own ``c_w``.
The winner's denomination is independent of ``G`` and of the meter, so

    E[meter at a hit of w] = E[T at the start of the cycle] + (1/q − 1)·c̄ + c_w

(``c̄ = Σ s_w c_w``). The long-run return of the meter to a wager of ``w`` is
``q · E[award of w] / w`` (renewal–reward: the cycles between hits are
i.i.d. given their start, and the wagers of a cycle are ``1/q`` on average).

Closed form and the bracketing chains
-------------------------------------
If every denomination played wins 100 % and there is no ceiling, every cycle
starts at ``R`` and everything above is exact in Fractions: the meter at a
hit is ``R + (1/q − 1)·c̄ + c_w`` and the pooled return ``rate + q·R/w̄``:
every contribution and every seed comes back (method ``CLOSED_FORM``).

A partial award (the $1 wager's 20 %) leaves ``(1 − p)·T`` on the meter; a
cycle starts above ``R`` when that is more than ``R``, and a ceiling keeps
the meter at ``C`` with the rest in reserve. The start of a cycle is then a
Markov chain on ``T`` whose state is a real number: its law has no finite
support (the gain between hits is a sum of geometric series on the lattice
of the contributions, and each partial award scales the state by
``1 − p``), so there is no finite linear system to solve in Fractions.
Every figure is still affine in one number, the mean start ``E[T] − R``,
and :mod:`etg.math.meter_chain` brackets that number between two chains on
a grid, a lower and an upper bound with a proof (the convex order; see that
module). The figures are the bracket's midpoint, each with the proven
half-width carried beside it (:class:`LongRunErrors`, method ``BOUNDED``);
the grid is refined until each meter's part of every return is within
:data:`RTP_BOUND`. On md-community-7 with half the wagers $1 the primary
meter's mean start is 4,383.033 ± 0.002 cents above reset and the $1
wager's return is 0.897631570 (± 2.3·10⁻¹⁰), the old single chain's
4,384.41¢ and 0.8976316887 being the upward bias of a mean-preserving
spread on a coarse grid.

With a ceiling within the grid's reach the proof fails (the reserve passes
through whole, nothing contracts): the figures are the two chains settled,
their half-gap an estimate (method ``MARKOV_CHAIN``). A meter whose mean
would stay above its ceiling (contributions between hits larger than
ceiling − reset) never drains its reserve: then every hit pays the
ceiling's share and the reserve grows without end (method ``CEILING``).

The model leaves out three small things: the award's rounding down to the
cent (under a cent per hit); the order of the contributions within a round
(all of a round's wagers contribute at No More Bets, before the spin, so a
winner also sees the other seats' contributions of its own round: at most
one round's contributions per hit, 60 cents on a full Maryland table); and
two hits of one meter in one round. The figures are exact (or bounded) for
the model; :func:`simulate_meter` checks the model itself by playing the
meter with the engine's own :func:`etg.core.progressive.contribute` and
:func:`~etg.core.progressive.award`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

import numpy as np

from etg.core.paytable import RATE_SCALE, Meter
from etg.core.progressive import award, contribute, initial_state
from etg.math.meter_chain import BracketResult, bracket
from etg.math.stats import Estimate, RunningMean

RTP_BOUND = 2.5e-10  # the bracket is refined until every return is within this of the truth

ZERO = Fraction(0)


class Method(Enum):
    """How a meter's long run was found."""

    CLOSED_FORM = "closed form (exact fractions)"
    BOUNDED = "two chains bracket it (proven bound)"
    MARKOV_CHAIN = "Markov chain (numerical, ceiling in reach)"
    CEILING = "meter held at its ceiling (the reserve grows)"

    @property
    def exact(self) -> bool:
        """Whether the figures are exact Fractions (no error beside them)."""
        return self in (Method.CLOSED_FORM, Method.CEILING)

    @property
    def proven(self) -> bool:
        """Whether each figure's error is a proven bound (zero when exact)."""
        return self is not Method.MARKOV_CHAIN


@dataclass(frozen=True)
class MixEntry:
    """A denomination in the mix: its share of the wagers and the meter share it wins."""

    wager_cents: int
    share: Fraction
    percent: int


@dataclass(frozen=True)
class DenominationLongRun:
    """One denomination's view of the meter in the long run (cents; return per unit wagered).

    Each ``*_error`` bounds the distance of its figure from the exact one
    (zero when the method is exact; an estimate for ``MARKOV_CHAIN``).
    """

    wager_cents: int
    share: Fraction
    percent: int
    mean_meter_at_hit_cents: Fraction
    mean_award_cents: Fraction
    rtp: Fraction  # the meter's part of this wager's return
    meter_error_cents: Fraction = ZERO
    award_error_cents: Fraction = ZERO
    rtp_error: Fraction = ZERO


@dataclass(frozen=True)
class LongRunErrors:
    """How far each figure of a :class:`MeterLongRun` may be from the exact one (same units)."""

    start_cents: Fraction = ZERO
    meter_cents: Fraction = ZERO
    award_cents: Fraction = ZERO
    seed_cents: Fraction = ZERO
    ceiling_probability: Fraction = ZERO
    reserve_cents: Fraction = ZERO
    rtp: Fraction = ZERO
    seed_rtp: Fraction = ZERO


@dataclass(frozen=True)
class MeterLongRun:
    """A meter's long-run figures for a mix of wagers (money in cents).

    Values are exact Fractions with ``method`` CLOSED_FORM or CEILING;
    otherwise each is the midpoint of a bracket whose half-width is in
    ``errors``. ``rtp`` is the meter's return per unit of all the wagers
    feeding it; ``seed_rtp`` the part of it the house pays in (reset
    funding), so ``rtp = rate + seed_rtp``.
    """

    method: Method
    hit_probability: Fraction  # per wager
    rate: Fraction
    reset_cents: int
    ceiling_cents: int | None
    mean_wager_cents: Fraction
    wagers_between_hits: Fraction
    coin_in_between_hits_cents: Fraction
    contributions_between_hits_cents: Fraction
    mean_start_cents: Fraction  # meter plus reserve just after a hit
    mean_meter_at_hit_cents: Fraction
    mean_award_cents: Fraction
    mean_seed_cents: Fraction  # house money per hit
    ceiling_probability: Fraction  # P(the meter stands at its ceiling at a hit)
    mean_reserve_at_hit_cents: Fraction
    rtp: Fraction
    seed_rtp: Fraction
    denominations: tuple[DenominationLongRun, ...]
    errors: LongRunErrors = field(default_factory=LongRunErrors)

    def of(self, wager_cents: int) -> DenominationLongRun:
        """The figures of one denomination; KeyError if it is not in the mix."""
        for d in self.denominations:
            if d.wager_cents == wager_cents:
                return d
        raise KeyError(wager_cents)


def meter_long_run(rules: Meter, hit_probability: Fraction,
                   mix: tuple[MixEntry, ...]) -> MeterLongRun | None:
    """The long run of a meter won with ``hit_probability`` per wager, or None if never won.

    An entry with share 0 takes no part in the meter's course but is still
    reported: what a lone wager of that denomination would win from it.
    """
    total = sum((e.share for e in mix), Fraction(0))
    if not hit_probability or not total:
        return None
    entries = tuple(MixEntry(e.wager_cents, e.share / total, e.percent) for e in mix)
    if rules.ceiling_cents is None and all(e.percent == 100 for e in entries if e.share):
        return _closed_form(rules, hit_probability, entries)
    return _chain(rules, hit_probability, entries)


def _basics(rules: Meter, q: Fraction,
            mix: tuple[MixEntry, ...]) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """rate, mean wager, mean contribution per wager, mean gain of the non-winning wagers."""
    rate = Fraction(rules.rate_millionths, RATE_SCALE)
    wager = sum((e.share * e.wager_cents for e in mix), Fraction(0))
    c_bar = rate * wager
    return rate, wager, c_bar, (1 / q - 1) * c_bar


def _closed_form(rules: Meter, q: Fraction, mix: tuple[MixEntry, ...]) -> MeterLongRun:
    rate, wager, c_bar, gain = _basics(rules, q, mix)
    reset = Fraction(rules.reset_cents)
    denominations = []
    for e in mix:  # an entry nobody plays (share 0) may win another percent of the same meter
        meter = reset + gain + rate * e.wager_cents
        amount = meter * Fraction(e.percent, 100)
        denominations.append(DenominationLongRun(e.wager_cents, e.share, e.percent, meter,
                                                 amount, q * amount / e.wager_cents))
    mean_meter = reset + gain + c_bar
    return MeterLongRun(
        method=Method.CLOSED_FORM, hit_probability=q, rate=rate,
        reset_cents=rules.reset_cents, ceiling_cents=rules.ceiling_cents,
        mean_wager_cents=wager, wagers_between_hits=1 / q,
        coin_in_between_hits_cents=wager / q, contributions_between_hits_cents=c_bar / q,
        mean_start_cents=reset, mean_meter_at_hit_cents=mean_meter, mean_award_cents=mean_meter,
        mean_seed_cents=reset, ceiling_probability=Fraction(0),
        mean_reserve_at_hit_cents=Fraction(0), rtp=q * mean_meter / wager,
        seed_rtp=q * reset / wager, denominations=tuple(denominations))


def _chain(rules: Meter, q: Fraction, mix: tuple[MixEntry, ...]) -> MeterLongRun:
    rate, wager, c_bar, _gain = _basics(rules, q, mix)
    target = RTP_BOUND / max(float(q) * e.percent / 100 / e.wager_cents for e in mix)
    result = bracket(rules, q, tuple(e.share for e in mix), tuple(e.wager_cents for e in mix),
                     tuple(e.percent for e in mix), target)
    if result.stuck:
        return _stuck(rules, q, mix, rate, wager, c_bar)
    if result.proven:
        return _bounded(rules, q, mix, result)
    return _settled(rules, q, mix, result)


def _bounded(rules: Meter, q: Fraction, mix: tuple[MixEntry, ...],
             result: BracketResult) -> MeterLongRun:
    """Every figure from the proven bracket of the mean start: all are affine in it.

    The meter at a hit of ``w`` is ``R + E[X] + gain + c_w``, its award that
    times the percent; the seed per hit is what the awards pay beyond the
    contributions (the books balance, the reserve stays empty). A ceiling, if
    any, lies beyond every state the chains hold: the meter stands at it with
    a probability under the truncation term over the distance to it (Markov's
    inequality), and the reserve is at most that term.
    """
    rate, wager, c_bar, gain = _basics(rules, q, mix)
    low, high = _f(result.low), _f(result.high)
    start = (low + high) / 2
    error = (high - low) / 2
    reset = Fraction(rules.reset_cents)
    reserve = ceiling_p = Fraction(0)
    if rules.ceiling_cents is not None:
        reserve = _f(result.gain_tail_cents)
        room = rules.ceiling_cents - rules.reset_cents - result.step_cents * result.points
        ceiling_p = min(Fraction(1), reserve / _f(max(room, 1.0)))
    denominations = []
    award_total = award_error = meter_total = Fraction(0)
    for e in mix:
        pct = Fraction(e.percent, 100)
        meter = reset + start + gain + rate * e.wager_cents
        meter_error = error + reserve
        denominations.append(DenominationLongRun(
            e.wager_cents, e.share, e.percent, meter, pct * meter, q * pct * meter / e.wager_cents,
            meter_error_cents=meter_error, award_error_cents=pct * meter_error,
            rtp_error=q * pct * meter_error / e.wager_cents))
        award_total += e.share * pct * meter
        award_error += e.share * pct * meter_error
        meter_total += e.share * meter
    rtp = q * award_total / wager
    rtp_error = q * award_error / wager
    errors = LongRunErrors(start_cents=error, meter_cents=error + reserve,
                           award_cents=award_error, seed_cents=award_error,
                           ceiling_probability=ceiling_p / 2, reserve_cents=reserve / 2,
                           rtp=rtp_error, seed_rtp=rtp_error)
    return MeterLongRun(
        method=Method.BOUNDED, hit_probability=q, rate=rate,
        reset_cents=rules.reset_cents, ceiling_cents=rules.ceiling_cents,
        mean_wager_cents=wager, wagers_between_hits=1 / q,
        coin_in_between_hits_cents=wager / q, contributions_between_hits_cents=c_bar / q,
        mean_start_cents=reset + start, mean_meter_at_hit_cents=meter_total,
        mean_award_cents=award_total, mean_seed_cents=award_total - c_bar / q,
        ceiling_probability=ceiling_p / 2, mean_reserve_at_hit_cents=reserve / 2,
        rtp=rtp, seed_rtp=rtp - rate, denominations=tuple(denominations), errors=errors)


def _settled(rules: Meter, q: Fraction, mix: tuple[MixEntry, ...],
             result: BracketResult) -> MeterLongRun:
    """A ceiling within reach: each figure the midpoint of the two settled chains, the gap apart.

    Not a proof (the chains' convergence is not bounded, see
    :mod:`etg.math.meter_chain`): the half-gap is reported as the error, an
    estimate the seeded play of :func:`simulate_meter` checks.
    """
    rate, wager, c_bar, _gain = _basics(rules, q, mix)

    def mid(a: float, b: float) -> tuple[Fraction, Fraction]:
        low, high = sorted((_f(a), _f(b)))
        return (low + high) / 2, (high - low) / 2

    reset = Fraction(rules.reset_cents)
    start, start_error = mid(result.low, result.high)
    denominations = []
    award_total = award_error = seed_total = seed_error = meter_total = meter_error = Fraction(0)
    ceiling_p = ceiling_error = reserve = reserve_error = Fraction(0)
    for e, lo, hi in zip(mix, result.low_hits, result.high_hits, strict=True):
        pct = Fraction(e.percent, 100)
        meter, m_err = mid(lo.meter, hi.meter)
        denominations.append(DenominationLongRun(
            e.wager_cents, e.share, e.percent, meter, pct * meter, q * pct * meter / e.wager_cents,
            meter_error_cents=m_err, award_error_cents=pct * m_err,
            rtp_error=q * pct * m_err / e.wager_cents))
        seed, s_err = mid(lo.seed, hi.seed)
        at, at_err = mid(lo.at_ceiling, hi.at_ceiling)
        over, over_err = mid(lo.reserve, hi.reserve)
        award_total += e.share * pct * meter
        award_error += e.share * pct * m_err
        meter_total += e.share * meter
        meter_error += e.share * m_err
        seed_total += e.share * seed
        seed_error += e.share * s_err
        ceiling_p += e.share * at
        ceiling_error += e.share * at_err
        reserve += e.share * over
        reserve_error += e.share * over_err
    rtp = q * award_total / wager
    errors = LongRunErrors(start_cents=start_error, meter_cents=meter_error,
                           award_cents=award_error, seed_cents=seed_error,
                           ceiling_probability=ceiling_error, reserve_cents=reserve_error,
                           rtp=q * award_error / wager, seed_rtp=q * award_error / wager)
    return MeterLongRun(
        method=Method.MARKOV_CHAIN, hit_probability=q, rate=rate,
        reset_cents=rules.reset_cents, ceiling_cents=rules.ceiling_cents,
        mean_wager_cents=wager, wagers_between_hits=1 / q,
        coin_in_between_hits_cents=wager / q, contributions_between_hits_cents=c_bar / q,
        mean_start_cents=reset + start, mean_meter_at_hit_cents=meter_total,
        mean_award_cents=award_total, mean_seed_cents=seed_total, ceiling_probability=ceiling_p,
        mean_reserve_at_hit_cents=reserve, rtp=rtp, seed_rtp=rtp - rate,
        denominations=tuple(denominations), errors=errors)


def _stuck(rules: Meter, q: Fraction, mix: tuple[MixEntry, ...], rate: Fraction,
           wager: Fraction, c_bar: Fraction) -> MeterLongRun:
    """Every hit finds the meter at its ceiling; the excess stays in the reserve for good."""
    assert rules.ceiling_cents is not None
    ceiling = Fraction(rules.ceiling_cents)
    denominations = tuple(
        DenominationLongRun(e.wager_cents, e.share, e.percent, ceiling,
                            ceiling * Fraction(e.percent, 100),
                            q * ceiling * Fraction(e.percent, 100) / e.wager_cents)
        for e in mix)
    award_total = sum((d.share * d.mean_award_cents for d in denominations), Fraction(0))
    return MeterLongRun(
        method=Method.CEILING, hit_probability=q, rate=rate, reset_cents=rules.reset_cents,
        ceiling_cents=rules.ceiling_cents, mean_wager_cents=wager, wagers_between_hits=1 / q,
        coin_in_between_hits_cents=wager / q, contributions_between_hits_cents=c_bar / q,
        mean_start_cents=ceiling, mean_meter_at_hit_cents=ceiling, mean_award_cents=award_total,
        mean_seed_cents=Fraction(0), ceiling_probability=Fraction(1),
        mean_reserve_at_hit_cents=Fraction(0), rtp=q * award_total / wager,
        seed_rtp=q * award_total / wager - rate, denominations=denominations)


def _f(x: float) -> Fraction:
    return Fraction(x)


# --- the check: the meter played with the engine's own functions ------------------------------

@dataclass(frozen=True)
class MeterSimulation:
    """A seeded play of the meter: the award per hit of each denomination with its 99 % interval.

    ``books_balance`` is the conservation law of :mod:`etg.core.progressive`:
    initial + seeds + contributions = awards + meter + reserve (+ carry), to
    the millionth of a cent.
    """

    hits: int
    award_cents: dict[int, Estimate]
    meter_at_hit_cents: dict[int, Estimate]
    books_balance: bool


def simulate_meter(rules: Meter, hit_probability: Fraction, mix: tuple[MixEntry, ...],
                   hits: int, seed: int = 0) -> MeterSimulation:
    """Play ``hits`` hits of the meter with :func:`~etg.core.progressive.contribute` / ``award``.

    Between hits the number of non-winning wagers is geometric and its split
    between denominations binomial-multinomial, so one hit costs a few calls
    whatever the gap; the contributions of a gap are added at once, which
    :func:`~etg.core.progressive.contribute` makes identical to adding them
    one by one (exact carry, overflow to the reserve).
    """
    entries = tuple(e for e in mix if e.share)
    rng = np.random.default_rng(seed)
    shares = np.array([float(e.share) for e in entries])
    shares /= shares.sum()
    state = initial_state(rules)
    awards = {e.wager_cents: RunningMean() for e in entries}
    meters = {e.wager_cents: RunningMean() for e in entries}
    contributed = seeded = paid = 0
    gaps = rng.geometric(float(hit_probability), size=hits) - 1
    splits = [rng.multinomial(int(g), shares) for g in gaps]
    winners = rng.choice(len(entries), size=hits, p=shares)
    for split, winner in zip(splits, winners, strict=True):
        e = entries[int(winner)]
        cents = int(sum(int(k) * x.wager_cents for k, x in zip(split, entries, strict=True)))
        state, c = contribute(rules, state, cents + e.wager_cents)
        contributed += c.millionths
        meters[e.wager_cents].add(state.cents)
        state, a = award(rules, state, e.percent)
        seeded += a.seeded
        paid += a.amount
        awards[e.wager_cents].add(a.amount)
    balance = ((rules.initial_cents + seeded) * RATE_SCALE + contributed
               == (paid + state.cents + state.reserve_cents) * RATE_SCALE + state.carry)
    return MeterSimulation(hits, {w: m.estimate() for w, m in awards.items()},
                           {w: m.estimate() for w, m in meters.items()}, balance)
