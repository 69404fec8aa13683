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

Closed form and Markov chain
----------------------------
If every denomination wins 100 % and there is no ceiling, every cycle
starts at ``R`` and everything above is exact in Fractions: the meter at a
hit is ``R + (1/q − 1)·c̄ + c_w`` and the pooled return ``rate + q·R/w̄``:
every contribution and every seed comes back.

A partial award (the $1 wager's 20 %) leaves ``(1 − p)·T`` on the meter; a
cycle starts above ``R`` when that is more than ``R``, and a ceiling keeps
the meter at ``C`` with the rest in reserve. The start of a cycle is then a
Markov chain on ``T``, solved numerically (NumPy, float64): ``G`` has the
generating function ``q / (1 − (1 − q)·Σ s_w z^{k_w})`` on the lattice of
the greatest common contribution, so its law is a sum of geometric series
over the roots of that polynomial, integrated exactly over each cell of a
grid of :data:`GRID_POINTS` points; each cell's mass is put on the grid
split between its two ends so that its mean is kept; the chain is iterated
from ``R`` until a step moves less than :data:`TOLERANCE` of mass (on
Maryland's meters a grid four times finer moves the mean start by about a
cent and the return by under 10⁻⁶). A meter
whose mean would stay above its ceiling (contributions between hits larger
than ceiling − reset) never drains its reserve: then every hit pays the
ceiling's share and the reserve grows without end (method ``CEILING``).

The model leaves out three small things: the award's rounding down to the
cent (under a cent per hit); the order of the contributions within a round
(all of a round's wagers contribute at No More Bets, before the spin, so a
winner also sees the other seats' contributions of its own round: at most
one round's contributions per hit, 60 cents on a full Maryland table); and
two hits of one meter in one round.
:func:`simulate_meter` checks the figures by playing the meter with the
engine's own :func:`etg.core.progressive.contribute` and
:func:`~etg.core.progressive.award`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from etg.core.paytable import RATE_SCALE, Meter
from etg.core.progressive import award, contribute, initial_state
from etg.math.stats import Estimate, RunningMean

GRID_POINTS = 8192
TOLERANCE = 1e-14
TAIL = 1e-13  # mass of the gain between hits left beyond the grid
MAX_STEPS = 2000

FloatArray = npt.NDArray[np.float64]


class Method(Enum):
    """How a meter's long run was found."""

    CLOSED_FORM = "closed form (exact fractions)"
    MARKOV_CHAIN = "Markov chain (numerical)"
    CEILING = "meter held at its ceiling (the reserve grows)"


@dataclass(frozen=True)
class MixEntry:
    """A denomination in the mix: its share of the wagers and the meter share it wins."""

    wager_cents: int
    share: Fraction
    percent: int


@dataclass(frozen=True)
class DenominationLongRun:
    """One denomination's view of the meter in the long run (cents; return per unit wagered)."""

    wager_cents: int
    share: Fraction
    percent: int
    mean_meter_at_hit_cents: Fraction
    mean_award_cents: Fraction
    rtp: Fraction  # the meter's part of this wager's return


@dataclass(frozen=True)
class MeterLongRun:
    """A meter's long-run figures for a mix of wagers (money in cents).

    Values are exact Fractions with ``method`` CLOSED_FORM; otherwise they
    are the chain's floats written as Fractions. ``rtp`` is the meter's
    return per unit of all the wagers feeding it; ``seed_rtp`` the part of it
    the house pays in (reset funding), so ``rtp = rate + seed_rtp``.
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
    if rules.ceiling_cents is None and all(e.percent == 100 for e in entries):
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
    for e in mix:
        meter = reset + gain + rate * e.wager_cents
        denominations.append(DenominationLongRun(e.wager_cents, e.share, e.percent, meter,
                                                 meter, q * meter / e.wager_cents))
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
    rate, wager, c_bar, gain = _basics(rules, q, mix)
    grid = _Grid.for_gain(rules, q, mix)
    start = np.zeros(grid.points)
    start[0] = 1.0
    stuck = False
    for _ in range(MAX_STEPS):
        after, _stats = grid.cycle(start, collect=False)
        moved = float(np.abs(after - start).sum())
        start = after
        if grid.ceiling_cents is not None and start[-grid.points // 100:].sum() > 1e-9:
            stuck = True  # the reserve keeps growing: no stationary law on any grid
            break
        if moved < TOLERANCE:
            break
    reset = Fraction(rules.reset_cents)
    if stuck:
        return _stuck(rules, q, mix, rate, wager, c_bar)
    _after, stats = grid.cycle(start, collect=True)
    mean_start = reset + _f(float(start @ grid.x))
    denominations = []
    award_total = seed_total = meter_total = ceiling_p = reserve = Fraction(0)
    for e, s in zip(mix, stats, strict=True):
        if rules.ceiling_cents is None:
            meter = mean_start + gain + rate * e.wager_cents  # exact given the mean start
        else:
            meter = _f(s.meter)
        amount = meter * Fraction(e.percent, 100)
        denominations.append(DenominationLongRun(e.wager_cents, e.share, e.percent, meter,
                                                 amount, q * amount / e.wager_cents))
        award_total += e.share * amount
        meter_total += e.share * meter
        seed_total += e.share * _f(s.seed)
        ceiling_p += e.share * _f(s.at_ceiling)
        reserve += e.share * _f(s.reserve)
    return MeterLongRun(
        method=Method.MARKOV_CHAIN, hit_probability=q, rate=rate,
        reset_cents=rules.reset_cents, ceiling_cents=rules.ceiling_cents,
        mean_wager_cents=wager, wagers_between_hits=1 / q,
        coin_in_between_hits_cents=wager / q, contributions_between_hits_cents=c_bar / q,
        mean_start_cents=mean_start, mean_meter_at_hit_cents=meter_total,
        mean_award_cents=award_total, mean_seed_cents=seed_total, ceiling_probability=ceiling_p,
        mean_reserve_at_hit_cents=reserve, rtp=q * award_total / wager,
        seed_rtp=q * award_total / wager - rate, denominations=tuple(denominations))


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


@dataclass(frozen=True)
class _HitStats:
    meter: float
    seed: float
    at_ceiling: float
    reserve: float


class _Grid:
    """The chain on ``T − R`` (cents), grid points ``0, h, 2h, …``; the gain's law on it."""

    def __init__(self, rules: Meter, mix: tuple[MixEntry, ...], step: float,
                 gain: FloatArray) -> None:
        self.reset = float(rules.reset_cents)
        self.ceiling_cents = rules.ceiling_cents
        self.mix = mix
        self.contribution = [e.wager_cents * rules.rate_millionths / RATE_SCALE for e in mix]
        self.step = step
        self.points = len(gain)
        self.x = np.arange(self.points) * step
        self._gain_spectrum = np.fft.rfft(gain, 2 * self.points)

    @classmethod
    def for_gain(cls, rules: Meter, q: Fraction, mix: tuple[MixEntry, ...]) -> _Grid:
        """A grid twice as wide as the gain's 1 − TAIL quantile, the gain's law put on it.

        Wider for a partial award, whose remainders pile up to ``1/p`` gains,
        and to reach past a ceiling by as much again, room for the reserve.
        """
        steps = [e.wager_cents * rules.rate_millionths for e in mix]
        unit = math.gcd(*steps)
        law = _LatticeGain(float(q), [float(e.share) for e in mix], [s // unit for s in steps])
        tail = 2 * law.quantile(TAIL) * unit / RATE_SCALE
        span = tail * 100 / min(e.percent for e in mix)
        if rules.ceiling_cents is not None:
            span = max(span, rules.ceiling_cents - rules.reset_cents + tail)
        step = span / GRID_POINTS
        edges = np.ceil(np.arange(GRID_POINTS + 1) * step * RATE_SCALE / unit)
        mass, moment = law.cells(edges)
        cell_mean = np.divide(moment, mass, out=np.zeros_like(mass), where=mass > 0)
        gain = _spread(cell_mean * unit / RATE_SCALE / step, mass, GRID_POINTS)
        gain[-1] += max(0.0, 1.0 - gain.sum())
        return cls(rules, mix, step, gain)

    def cycle(self, start: FloatArray, collect: bool) -> tuple[FloatArray, list[_HitStats]]:
        """The law of the next cycle's start, and each denomination's hit statistics."""
        n = self.points
        spectrum = np.fft.rfft(start, 2 * n) * self._gain_spectrum
        before = np.fft.irfft(spectrum, 2 * n)
        hit = np.clip(before[:n], 0.0, None)
        hit[-1] += max(0.0, float(before[n:].sum()))
        after = np.zeros(n)
        stats: list[_HitStats] = []
        for e, c in zip(self.mix, self.contribution, strict=True):
            total = self.reset + self.x + c
            meter = total if self.ceiling_cents is None else np.minimum(total,
                                                                       self.ceiling_cents)
            remaining = meter * (1 - e.percent / 100)
            over = total - meter
            nxt = np.maximum(self.reset, remaining) + over
            after += float(e.share) * _spread((nxt - self.reset) / self.step, hit, n)
            if collect:
                stats.append(_HitStats(
                    meter=float(hit @ meter),
                    seed=float(hit @ np.maximum(0.0, self.reset - remaining)),
                    at_ceiling=float(hit[over > 0].sum()),
                    reserve=float(hit @ over)))
        return after / after.sum(), stats


def _spread(position: FloatArray, mass: FloatArray, n: int) -> FloatArray:
    """Put ``mass`` at fractional grid ``position``, split between neighbours to keep the mean."""
    position = np.clip(position, 0.0, n - 1)
    low = np.floor(position).astype(np.int64)
    frac = position - low
    high = np.minimum(low + 1, n - 1)
    out: FloatArray = np.bincount(low, weights=mass * (1 - frac), minlength=n).astype(np.float64)
    out += np.bincount(high, weights=mass * frac, minlength=n)
    return out


class _LatticeGain:
    """The gain of the non-winning wagers, in lattice units: ``q / (1 − (1−q)·Σ s z^k)``.

    Its coefficients are ``g(j) = q · Σ_i B_i r_i^j`` over the reciprocals
    ``r_i`` of the polynomial's roots (partial fractions, simple roots), so
    sums over any range of ``j`` are geometric series.
    """

    def __init__(self, q: float, shares: list[float], steps: list[int]) -> None:
        degree = max(steps)
        coefficients = np.zeros(degree + 1)  # lowest power first
        coefficients[0] = 1.0
        for s, k in zip(shares, steps, strict=True):
            coefficients[k] -= (1 - q) * s
        poly = np.polynomial.Polynomial(coefficients)
        roots = poly.roots().astype(np.complex128)
        derivative = poly.deriv()
        for _ in range(3):  # polish: the root near 1 decides the tail
            roots = roots - poly(roots) / derivative(roots)
        self.q = q
        self.r = 1 / roots
        self.b = -1 / (roots * derivative(roots))

    def quantile(self, tail: float) -> float:
        """A lattice index beyond which less than ``tail`` of the mass lies."""
        r = float(np.max(np.abs(self.r)))
        return math.log(tail * (1 - r)) / math.log(r) + 1

    def cells(self, edges: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Mass and first moment of ``g`` on each ``[edges[i], edges[i+1])``."""
        mass_below = self._sums(edges, moment=False)
        moment_below = self._sums(edges, moment=True)
        return np.diff(mass_below), np.diff(moment_below)

    def _sums(self, upper: FloatArray, moment: bool) -> FloatArray:
        """``Σ_{j < J} g(j)`` or ``Σ_{j < J} j·g(j)`` for each ``J`` in ``upper``."""
        j = upper[:, None]
        r = self.r[None, :]
        power = r ** j
        if moment:
            terms = r * (1 - j * r ** (j - 1) + (j - 1) * power) / (1 - r) ** 2
        else:
            terms = (1 - power) / (1 - r)
        return np.real(self.q * (terms * self.b[None, :]).sum(axis=1))


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
