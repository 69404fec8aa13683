"""Two Markov chains on a grid that bracket a meter's long run, with a proven bound.

The chain
---------
:mod:`etg.math.longrun` reduces a meter's long run to one number, the mean
of ``X = T − R`` just after a hit (``T`` = meter + reserve, ``R`` the reset
amount). From one hit to the next, ``X' = f_e(X + G)`` where ``G`` is the
gain of the non-winning wagers (exact lattice law, :class:`LatticeGain`)
and ``e`` the winner's entry of the mix (probability ``share_e``, contribution
``c_e``, percent ``p_e``)::

    f_e(y) = max(R, (1 − p_e)·min(R + y + c_e, C)) + (R + y + c_e − C)⁺ − R

(no ceiling: ``C = ∞``). Three facts carry the proof:

1. every ``f_e`` is convex and nondecreasing (slopes 0, ``1 − p_e``, 1), so
   the kernel ``K`` keeps the *increasing convex order* (≤icx): if
   ``μ ≤icx ν`` then ``Kμ ≤icx Kν``, because ``x ↦ E φ(f_e(x + G))`` is convex
   and nondecreasing whenever ``φ`` is;
2. ``K`` is monotone and the chain starts at 0, its least state, so the laws
   ``Kⁿδ₀`` increase and their means rise to the stationary mean ``E_π[X]``;
3. coupled with the same draws, two copies of the chain come closer at a hit
   of ``e`` by the slope of ``f_e``, at most ``1 − p_e`` while the ceiling is
   out of reach, so on average by ``κ = Σ share_e·(1 − p_e) < 1``.

The lower chain keeps, for each cell of the grid, the mass that lands in it
and its mean position (the gain law too: its exact mass and first moment on
each cell, its far tail moved down to the last cell). Replacing a law by its
cell means is a conditional expectation, which only lowers it in the convex
order (Jensen); moving mass down lowers it too. So by (1) its law after
``n`` steps is ≤icx ``Kⁿδ₀``, and by (2) its mean ``L_n`` is a lower bound
of ``E_π[X]`` at every ``n``.

The upper chain puts every mass on the two grid points around it, split so
that its mean is kept: a mean-preserving spread, which only raises a law in
the convex order; the gain law is spread the same way. Untruncated, its
stationary law is ≥icx ``π`` by (1). Two finite corrections keep its mean an
upper bound, both from the coupling (3) (the spread is coupled monotonically,
so it moves two copies apart by their distance on average):

- convergence: the means ``U_n`` rise from 0 by steps that shrink at least
  by ``κ`` each (two copies a step apart, coupled), so what is left after
  ``n`` steps is ``ρ ≤ κ·(U_n − U_{n−1}) / (1 − κ)``;
- truncation: the mass that falls beyond the grid (a gain beyond its last
  cell, a next state beyond the last point) is moved down to the end by a
  mean distance ``τ`` per hit (``κ·τ_gain + τ_state``, the latter at most
  ``ρ`` more at stationarity than at step ``n``), which moves the stationary
  mean by at most ``τ / (1 − κ)``.

Hence ``L_n ≤ E_π[X] ≤ U_n + ρ + τ / (1 − κ)`` (plus an allowance
for float64 rounding of the convolutions, 10⁻¹⁵ of the grid's span per
point). Both the collapse and the spread err by the second derivative of
the meter's future over a cell, so the bracket narrows as the square of the
grid step: on Maryland's primary meter 16,384 points bracket the mean start
within 0.002 cents, a return within 2·10⁻¹⁰.

A ceiling within the grid's reach has slope 1 above it (the reserve passes
through whole), ``κ`` would be 1 and (3) proves nothing: the chains then run
until they settle (:data:`SETTLED`), and their gap is an estimate, not a
proof (``BracketResult.proven`` False). So with a ceiling the grid first
spans under half the way to it: no state or gain it holds reaches it, and
the gain beyond the grid (under :data:`CEILING_TAIL` of the hits, else the
ceiling is taken in, unproven) is counted in ``τ`` whole, at slope 1. The
bound then holds for every cycle that stays on the grid; one that leaves it
is counted by its first displacement, the ceiling's reserve it might fill
beyond that being of the order of that vanishing share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from etg.core.paytable import RATE_SCALE, Meter

FIRST_POINTS = 1024
MAX_POINTS = 32_768
TAIL = 1e-15  # gain mass left beyond the grid's gain span, before the truncation term counts it
SLACK = 0.1  # share of the target left to the convergence and truncation terms
SETTLED = 1e-14  # total variation of a step at which an unproven (ceiling) chain stops
MAX_STEPS = 2000
SPAN_TRIES = 3  # the state's span doubles (at most this often) while truncation is too wide
CEILING_SHARE = 0.49  # a grid with a ceiling spans under this share of the way to it, twice
CEILING_TAIL = 1e-12  # with a ceiling, the most gain mass per hit the grid may leave beyond it
ROUNDING = 1e-15  # float64 error of a convolution, per point, relative to the span
UNDERFLOW = -690.0  # natural log below which a power of a root is taken as 0 (e^-690 < 1e-299)

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Entry:
    """One entry of the mix as the chain sees it: share, contribution (cents), percent."""

    share: float
    contribution: float
    percent: int


@dataclass(frozen=True)
class HitStats:
    """Means over the hits of one entry (cents): meter, seed, P(at the ceiling), reserve."""

    meter: float
    seed: float
    at_ceiling: float
    reserve: float


@dataclass(frozen=True)
class BracketResult:
    """``low ≤ E_π[X] ≤ high`` (cents above reset just after a hit), and how it was found.

    ``proven`` says whether the bracket is the theorem of the module docstring
    or, with a ceiling in reach, two settled chains. ``stuck``: the reserve
    grows without end (no stationary law). ``low_hits`` / ``high_hits``: each
    entry's hit statistics under the lower and the upper chain.
    """

    low: float
    high: float
    proven: bool
    stuck: bool
    steps: int
    points: int
    step_cents: float
    gain_tail_cents: float  # the truncation term τ / (1 − κ), in the bound
    low_hits: tuple[HitStats, ...]
    high_hits: tuple[HitStats, ...]


def bracket(rules: Meter, q: Fraction, shares: tuple[Fraction, ...],
            wagers_cents: tuple[int, ...], percents: tuple[int, ...],
            target_cents: float) -> BracketResult:
    """Bracket the mean start of a meter won with ``q`` per wager by the mix's entries.

    The grid starts at :data:`FIRST_POINTS` and is refined (by a power of two
    near the square root of how far off it is, the bracket narrowing about as
    the square of the step) until the bracket's half-width is within
    ``target_cents`` or the grid has :data:`MAX_POINTS`; every result is a
    proven bracket, only a wider one when the target is not met.
    """
    points = FIRST_POINTS
    while True:
        result = bracket_on(rules, q, shares, wagers_cents, percents, points,
                            SLACK * target_cents)
        half = (result.high - result.low) / 2
        if half <= target_cents or points >= MAX_POINTS or result.stuck or not result.proven:
            return result
        # the bracket narrows about as the square of the step: refine by the root of the excess
        factor = 2 ** math.ceil(math.log2(math.sqrt(half / target_cents)))
        points = min(MAX_POINTS, points * max(2, factor))


def bracket_on(rules: Meter, q: Fraction, shares: tuple[Fraction, ...],
               wagers_cents: tuple[int, ...], percents: tuple[int, ...],
               points: int, converged_cents: float = 1e-9) -> BracketResult:
    """:func:`bracket` on one grid of ``points`` points.

    The chains run until the convergence term is under ``converged_cents``,
    and the state's span doubles while the truncation term exceeds it. With
    a ceiling the spans are first kept under half the way from reset to it,
    so that no state or gain of the grid reaches it and the bracket is
    proven, the tail beyond counted in the truncation term; only if that
    term is too wide do the chains take the ceiling in (unproven).
    """
    steps_units = [w * rules.rate_millionths for w in wagers_cents]
    unit = math.gcd(*steps_units)
    gain = LatticeGain(float(q), [float(s) for s in shares], [s // unit for s in steps_units])
    entries = tuple(Entry(float(s), w * rules.rate_millionths / RATE_SCALE, p)
                    for s, w, p in zip(shares, wagers_cents, percents, strict=True))
    cents_per_unit = unit / RATE_SCALE
    kappa = sum(e.share * (1 - e.percent / 100) for e in entries)
    tail_span = gain.quantile(TAIL) * cents_per_unit
    cap = math.inf
    if rules.ceiling_cents is not None:
        room = rules.ceiling_cents - rules.reset_cents - max(e.contribution for e in entries)
        cap = CEILING_SHARE * room
    gain_span = min(tail_span, cap)
    span = gain_span
    while True:
        result = _Chains(rules, entries, gain, cents_per_unit, span, gain_span, kappa,
                         points).run(converged_cents)
        if result.proven and result.gain_tail_cents < converged_cents:
            return result
        if not result.proven or span >= cap or span >= tail_span * 2 ** SPAN_TRIES:
            break
        span = min(2 * span, cap)
    if cap < math.inf:  # the ceiling is within reach after all: take it in, unproven
        return _Chains(rules, entries, gain, cents_per_unit, tail_span, tail_span, kappa,
                       points).run(converged_cents)
    return result


class _Chains:
    """The lower (cell means) and upper (spread) chains on one grid."""

    def __init__(self, rules: Meter, entries: tuple[Entry, ...], gain: LatticeGain,
                 cents_per_unit: float, span: float, gain_span: float, kappa: float,
                 points: int) -> None:
        self.reset = float(rules.reset_cents)
        self.ceiling = rules.ceiling_cents
        self.entries = entries
        self.n = points
        self.h = span / (points - 1)
        self.x = _points(points, self.h)
        gain_points = min(points - 1, math.ceil(gain_span / self.h) + 1)
        # The ceiling is out of reach when no state or gain on the grid gets to it.
        reach = self.h * (points - 1 + gain_points) + max(e.contribution for e in entries)
        edges = np.ceil(np.arange(gain_points + 1) * self.h / cents_per_unit)
        beyond_mass, beyond_moment = gain.beyond(float(edges[-1]))
        # A gain beyond the grid may carry a meter with a ceiling up to it, where a reserve
        # passes through whole: that is allowed only for a vanishing share of the hits, and
        # its displacement is then counted whole (slope 1), not contracted by κ.
        self.proven = kappa < 1 and (self.ceiling is None or (
            self.ceiling - self.reset > reach and beyond_mass < CEILING_TAIL))
        self.kappa = kappa if self.proven else 1.0
        self.gain_slope = self.kappa if self.ceiling is None else 1.0
        # A 100 % award below the ceiling restarts the meter at reset whatever it held.
        self.resets = tuple(e.percent == 100 and self.proven for e in entries)
        mass, moment = gain.cells(edges)
        mass = np.clip(mass, 0.0, None)
        position = np.divide(moment, mass, out=np.zeros_like(mass), where=mass > 0)
        position = np.clip(position * cents_per_unit, self.x[:gain_points],
                           self.x[:gain_points] + self.h)
        self.gain_excess = max(0.0, beyond_moment * cents_per_unit
                               - beyond_mass * gain_points * self.h)
        # lower: cell masses and moments, the far tail put on the last cell's lower end
        low_mass = mass.copy()
        low_moment = mass * position
        low_mass[-1] += beyond_mass
        low_moment[-1] += beyond_mass * self.x[gain_points - 1]
        self.size = _fft_size(points + gain_points)
        self.low_gain = np.fft.rfft(low_mass, self.size)
        self.low_gain_moment = np.fft.rfft(low_moment, self.size)
        # upper: each cell's mass spread over its two ends, the far tail on the last end
        up = _spread(position / self.h, mass, gain_points + 1)
        up[-1] += beyond_mass
        self.up_gain = np.fft.rfft(up, self.size)
        self.pre_points = points + gain_points  # indices of X + G on the grid

    def run(self, converged_cents: float) -> BracketResult:
        n = self.n
        low_mass = np.zeros(n)
        low_mass[0] = 1.0
        low_moment = np.zeros(n)
        up = low_mass.copy()
        tau_state = upper = remaining = 0.0
        steps = 0
        stuck = False
        while steps < MAX_STEPS:
            steps += 1
            new_low_mass, new_low_moment = self._low_step(low_mass, low_moment)
            new_up, tau_state = self._up_step(up)
            moved = float(np.abs(new_up - up).sum())
            low_mass, low_moment, up = new_low_mass, new_low_moment, new_up
            previous, upper = upper, _dot(up, self.x)
            if self.ceiling is not None and up[-n // 100:].sum() > 1e-9 and not self.proven:
                stuck = True  # the reserve keeps growing: no stationary law on any grid
                break
            # The means rise to the stationary one by steps that shrink at least by κ each
            # (two copies a step apart, coupled), so what is left is at most κ·step/(1 − κ).
            if not self.proven:
                if moved < SETTLED:
                    break
                continue
            remaining = self.kappa * abs(upper - previous) / (1 - self.kappa)
            if remaining * (2 - self.kappa) / (1 - self.kappa) < converged_cents:
                break
        lower = float(low_moment.sum())
        rounding = ROUNDING * self.n * self.h * (self.n - 1) * 2
        if self.proven:
            # τ at stationarity exceeds the last step's by at most what the mean has left to rise
            tail = (self.gain_slope * self.gain_excess + tau_state + remaining) / (1 - self.kappa)
            high = upper + remaining + tail + rounding
        else:
            tail = 0.0
            high = upper
        return BracketResult(
            low=max(0.0, lower - rounding), high=high, proven=self.proven, stuck=stuck,
            steps=steps, points=n, step_cents=self.h, gain_tail_cents=tail,
            low_hits=self._low_hits(low_mass, low_moment), high_hits=self._up_hits(up))

    # --- the lower chain: cell masses and moments ------------------------------------------

    def _low_pre(self, mass: FloatArray, moment: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Mass and mean position of X + G, binned by the sum of the two cells' indices."""
        spectrum = np.fft.rfft(mass, self.size)
        pre_mass = np.fft.irfft(spectrum * self.low_gain, self.size)[:self.pre_points]
        pre_moment = np.fft.irfft(np.fft.rfft(moment, self.size) * self.low_gain
                                  + spectrum * self.low_gain_moment,
                                  self.size)[:self.pre_points]
        pre_mass = np.clip(pre_mass, 0.0, None)
        base = _points(self.pre_points, self.h)
        position = np.divide(pre_moment, pre_mass, out=base.copy(), where=pre_mass > 1e-300)
        return pre_mass, np.clip(position, base, base + 2 * self.h)

    def _low_step(self, mass: FloatArray, moment: FloatArray) -> tuple[FloatArray, FloatArray]:
        pre_mass, position = self._low_pre(mass, moment)
        new_mass = np.zeros(self.n)
        new_moment = np.zeros(self.n)
        top = self.x[-1]
        for e, resets in zip(self.entries, self.resets, strict=True):
            if resets:
                new_mass[0] += e.share * float(pre_mass.sum())
                continue
            nxt = np.minimum(self._next(e, position), top)  # beyond the grid: moved down
            cell = np.minimum((nxt / self.h).astype(np.int64), self.n - 1)
            weight = e.share * pre_mass
            new_mass += np.bincount(cell, weights=weight, minlength=self.n)
            new_moment += np.bincount(cell, weights=weight * nxt, minlength=self.n)
        total = new_mass.sum()
        return new_mass / total, new_moment / total

    def _low_hits(self, mass: FloatArray, moment: FloatArray) -> tuple[HitStats, ...]:
        pre_mass, position = self._low_pre(mass, moment)
        return tuple(self._hits(e, pre_mass / pre_mass.sum(), position) for e in self.entries)

    # --- the upper chain: masses on the grid points, spread to keep their means --------------

    def _up_pre(self, up: FloatArray) -> FloatArray:
        pre = np.fft.irfft(np.fft.rfft(up, self.size) * self.up_gain, self.size)
        pre = np.clip(pre[:self.pre_points], 0.0, None)
        out: FloatArray = pre / pre.sum()
        return out

    def _up_step(self, up: FloatArray) -> tuple[FloatArray, float]:
        pre = self._up_pre(up)
        position = _points(len(pre), self.h)
        after = np.zeros(self.n)
        excess = 0.0
        top = self.x[-1]
        for e, resets in zip(self.entries, self.resets, strict=True):
            if resets:
                after[0] += e.share * float(pre.sum())
                continue
            nxt = self._next(e, position)
            excess += e.share * _dot(pre, np.maximum(0.0, nxt - top))
            after += e.share * _spread(np.minimum(nxt, top) / self.h, pre, self.n)
        return after / after.sum(), excess

    def _up_hits(self, up: FloatArray) -> tuple[HitStats, ...]:
        pre = self._up_pre(up)
        position = _points(len(pre), self.h)
        return tuple(self._hits(e, pre, position) for e in self.entries)

    # --- the meter's rules ------------------------------------------------------------------

    def _next(self, e: Entry, y: FloatArray) -> FloatArray:
        """``f_e``: the next cycle's start above reset from ``y`` = X + G before the winner's c."""
        total = self.reset + y + e.contribution
        meter = total if self.ceiling is None else np.minimum(total, self.ceiling)
        remaining = meter * (1 - e.percent / 100)
        nxt: FloatArray = np.maximum(self.reset, remaining) + (total - meter) - self.reset
        return nxt

    def _hits(self, e: Entry, mass: FloatArray, y: FloatArray) -> HitStats:
        total = self.reset + y + e.contribution
        meter = total if self.ceiling is None else np.minimum(total, self.ceiling)
        remaining = meter * (1 - e.percent / 100)
        over = total - meter
        return HitStats(meter=_dot(mass, meter),
                        seed=_dot(mass, np.maximum(0.0, self.reset - remaining)),
                        at_ceiling=float(mass[over > 0].sum()),
                        reserve=_dot(mass, over))


def _points(count: int, step: float) -> FloatArray:
    """The grid's positions in cents: ``0, step, 2·step, …``."""
    out: FloatArray = np.arange(count, dtype=np.float64) * step
    return out


def _dot(a: FloatArray, b: FloatArray) -> float:
    """``a · b`` without BLAS, whose threads cost more than the sum on a busy machine."""
    return float(np.multiply(a, b).sum())


def _fft_size(n: int) -> int:
    return 1 << (n - 1).bit_length()


def _spread(position: FloatArray, mass: FloatArray, n: int) -> FloatArray:
    """Put ``mass`` at fractional grid ``position``, split between neighbours to keep the mean."""
    position = np.clip(position, 0.0, n - 1)
    low = np.floor(position).astype(np.int64)
    frac = position - low
    high = np.minimum(low + 1, n - 1)
    out: FloatArray = np.bincount(low, weights=mass * (1 - frac), minlength=n).astype(np.float64)
    out += np.bincount(high, weights=mass * frac, minlength=n)
    return out


class LatticeGain:
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

    def beyond(self, edge: float) -> tuple[float, float]:
        """Mass and first moment of ``g`` from lattice index ``edge`` on (geometric tails)."""
        r = self.r
        power = r**edge
        mass = self.q * (self.b * power / (1 - r)).sum()
        moment = self.q * (self.b * power * (edge / (1 - r) + r / (1 - r) ** 2)).sum()
        return max(0.0, float(np.real(mass))), max(0.0, float(np.real(moment)))

    def _sums(self, upper: FloatArray, moment: bool) -> FloatArray:
        """``Σ_{j < J} g(j)`` or ``Σ_{j < J} j·g(j)`` for each ``J`` in ``upper`` (ascending)."""
        j = upper[:, None]
        r = self.r[None, :]
        power = self._powers(upper)
        if moment:
            terms = r * (1 - j * power / r + (j - 1) * power) / (1 - r) ** 2
        else:
            terms = (1 - power) / (1 - r)
        return np.real(self.q * (terms * self.b[None, :]).sum(axis=1))

    def _powers(self, upper: FloatArray) -> npt.NDArray[np.complex128]:
        """``r_i ** J`` for each root and each ``J``, computed only where it is above 10⁻³⁰⁰.

        A complex power is slow and the roots other than the one near 1 vanish
        after a few thousand lattice steps, so each is raised only on the
        prefix of ``upper`` where it has not yet underflowed.
        """
        out = np.zeros((len(upper), len(self.r)), dtype=np.complex128)
        for i, r in enumerate(self.r):
            log_r = np.log(r)
            if log_r.real >= 0:
                out[:, i] = np.exp(upper * log_r)
                continue
            count = int(np.searchsorted(upper, UNDERFLOW / log_r.real, side="right"))
            out[:count, i] = np.exp(upper[:count] * log_r)
        return out
