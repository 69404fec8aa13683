"""Exact Bonus Spin Xtreme figures (MD Ch. 7 F(4), Ch. 10 D-E; SPEC §3, §8).

The trigger
-----------
The wheel spins when the dealer's *original* card is a designated
rank-and-colour card. That card is one card of a full, uniformly shuffled shoe
(the argument of :mod:`etg.math.exact`: whatever was dealt before it, by
exchangeability and optional stopping it has the law of a fresh draw), and
every one of the 52 faces is in the shoe ``decks`` times, so the trigger
probability is (matching faces) / 52 whatever the number of decks: a red Ace
is 2 faces, 1 in 26. It is summed from the face counts, not assumed.

The wheel, per wager
--------------------
Every wager is collected, and its wins are amounts "for one", so a wager's
return per unit is its expected win divided by the wager. Once triggered the
three rings stop independently:

- the Community ring pays every seat holding the wager its segment's pay;
- the Seat ring has one equal segment per seat of the table (the paytable's
  ``seats``), so *this* seat is the Hot Spot with probability 1/seats, however
  many others play (SPEC §3);
- the Hot Spot ring pays the Hot Spot seat a fixed amount or ``meter_percent``
  of the primary or secondary meter.

So, for a wager of ``w`` cents in pay column ``j``::

    RTP_fixed = P(trigger) · (E[community pay] + E[fixed Hot Spot pay] / seats) / w

and each meter adds ``q · E[award] / w``, where ``q = P(trigger) · (1/seats) ·
(weight of that meter's segments / Hot Spot ring weight)`` is the chance per
wager of winning it.

The meters: at reset and in the long run
----------------------------------------
*At reset* is the award with the meter standing at its reset amount,
``floor(reset · percent / 100)`` as :func:`etg.core.progressive.award` pays it:
the figure a player is sure of, with nothing yet contributed.

*Long run* (``rtp_with_progressive``, SPEC §3's "with the meters at their
mean") rests on one stated assumption: **every Bonus Spin wager at the table
is of this denomination**. Then every wager contributes ``w · rate`` and has
the same chance ``q`` of winning, whatever the number of seats playing, so
between two awards a meter gathers on average ``μ = w · rate / q`` cents (the
renewal-reward theorem). With the meter at its mean ``M`` at an award:

- an award of 100 % empties the meter, which restarts at the reset amount
  ``R`` (the house seeding ``R``), so ``M = R + μ`` and the return is
  ``q · (R + μ) / w = rate + q · R / w``: all contributions plus all seeds,
  which is exactly the ergodic long-run return whatever the meter's
  fluctuations (the award is linear in the meter);
- an award of ``p < 100 %`` leaves ``(1 − p) · M``; the meter restarts at
  ``max(R, (1 − p) · M)``, seeded only when that remainder is under ``R``. The
  mean satisfies ``M = μ + E_segment[max(R, (1 − p) · M)]`` (one term per
  segment paying that meter, weighted by its share), a piecewise linear
  equation solved exactly by :func:`mean_meter_at_award`. Usually the remainder
  is under ``R`` and ``M = R + μ``; the return is then ``rate + q · seed / w``
  with ``seed = R − (1 − p) · M`` per award. If the remainder is *above* ``R``
  the meter never resets and the mean award ``p · M`` equals ``μ``: all the
  contributions come back and nothing is seeded.

For ``p < 100 %`` this is the meter *at its mean*: it ignores the rare award
that leaves more than ``R`` when the mean leaves less (for Maryland's $1
primary column that needs a run of over eight times the mean gap between
awards; the long-run return it moves is under 10⁻⁵). The mean award is not
rounded down to the cent (under a cent per award). A meter with a ceiling
cannot stand above it, so ``M`` is capped at the ceiling: the overflow goes to
a reserve that comes back only when the meter resets.

The long run of a mix
---------------------
At a real table $1 and $5 wagers feed the same meters, and each wins its
own share of them: the single-denomination figure above is a model value.
:func:`mix_long_run` and :func:`rtp_long_run_of_mix` give the long run for a
stated share of $1 wagers by renewal–reward over the cycles between hits
(:mod:`etg.math.longrun`: exact Fractions when every award is 100 % with no
ceiling, otherwise the midpoint of a proven bracket between two Markov
chains, :func:`bounded_rtp_long_run_of_mix` giving the bound; both checked
against a seeded play of the engine's own meter functions). ``etg paytable check`` shows both; the
par sheet (``etg parsheet --mix P``) the mix. The operator's band warning
still reads ``rtp_with_progressive``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from etg.core.cards import SUITS, Rank
from etg.core.paytable import (
    RATE_SCALE,
    BonusSpin,
    Meter,
    Paytable,
    ProgressiveLevel,
    WheelSegment,
)
from etg.math.longrun import MeterLongRun, MixEntry, meter_long_run

CARD_FACES = 52
BONUS_LEVELS = (ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY)


@dataclass(frozen=True)
class MeterFigures:
    """One progressive meter as seen by one wager of one denomination.

    ``hit_probability`` is per wager; awards and contributions are in cents,
    returns per unit wagered. ``rtp_long_run = rate + hit_probability ·
    seed_per_award / wager`` (see the module docstring for the assumption).
    """

    level: ProgressiveLevel
    hit_probability: Fraction
    rate: Fraction
    award_at_reset_cents: Fraction  # mean over the meter's segments, floored as paid
    mean_contribution_per_award_cents: Fraction  # μ
    mean_meter_at_award_cents: Fraction  # M
    mean_award_cents: Fraction
    seed_per_award_cents: Fraction
    rtp_at_reset: Fraction
    rtp_long_run: Fraction


@dataclass(frozen=True)
class DenominationFigures:
    """Exact returns of a Bonus Spin wager of ``wager_cents`` (pay column ``column``).

    Every ``rtp_*`` is the expected amount won per unit wagered (the wager is
    always collected). ``rtp_at_reset`` takes the meters at their reset amounts,
    ``rtp_with_progressive`` at their long-run mean.
    """

    wager_cents: int
    column: int
    community_pay_cents: Fraction  # E[community pay] per spin
    hot_spot_fixed_pay_cents: Fraction  # E[fixed Hot Spot pay] per spin, for the Hot Spot seat
    rtp_community: Fraction
    rtp_hot_spot_fixed: Fraction
    rtp_fixed: Fraction
    rtp_progressive_at_reset: Fraction
    rtp_at_reset: Fraction
    rtp_progressive_long_run: Fraction
    rtp_with_progressive: Fraction
    meters: tuple[MeterFigures, ...]

    def meter(self, level: ProgressiveLevel) -> MeterFigures:
        return next(m for m in self.meters if m.level is level)


@dataclass(frozen=True)
class BonusSpinFigures:
    """Exact Bonus Spin figures of a paytable: the trigger and each denomination."""

    seats: int
    trigger_probability: Fraction
    hot_spot_probability: Fraction  # this seat is the Hot Spot: 1 / seats
    denominations: tuple[DenominationFigures, ...]

    def of(self, wager_cents: int) -> DenominationFigures:
        """The figures of the ``wager_cents`` denomination; KeyError if not offered."""
        for d in self.denominations:
            if d.wager_cents == wager_cents:
                return d
        raise KeyError(wager_cents)

    @property
    def largest(self) -> DenominationFigures:
        """The largest denomination ($5 in Maryland): the one SPEC §9's keys report."""
        return max(self.denominations, key=lambda d: d.wager_cents)


def trigger_faces(bonus: BonusSpin) -> frozenset[int]:
    """Card indices 0..51 (:attr:`etg.core.cards.Card.index`) of the designated cards."""
    faces: set[int] = set()
    for card in bonus.trigger:
        rank = Rank.parse(card.rank)
        for s, suit in enumerate(SUITS):
            if suit.colour is card.colour:
                faces.add((rank - 2) * len(SUITS) + s)
    return frozenset(faces)


def trigger_probability(bonus: BonusSpin, decks: int) -> Fraction:
    """P(the dealer's original card is designated): designated cards over the shoe."""
    counts = [decks] * CARD_FACES
    return Fraction(sum(counts[f] for f in trigger_faces(bonus)), sum(counts))


def bonus_spin_figures(paytable: Paytable) -> BonusSpinFigures | None:
    """Every exact Bonus Spin figure of ``paytable``, or None if it offers no Bonus Spin."""
    bonus = paytable.bonus_spin
    if bonus is None:
        return None
    p_trigger = trigger_probability(bonus, paytable.shoe.decks)
    p_hot = Fraction(1, paytable.seats)
    return BonusSpinFigures(
        seats=paytable.seats,
        trigger_probability=p_trigger,
        hot_spot_probability=p_hot,
        denominations=tuple(_denomination(bonus, column, p_trigger, p_hot)
                            for column in range(len(bonus.denominations_cents))),
    )


def _denomination(bonus: BonusSpin, column: int, p_trigger: Fraction,
                  p_hot: Fraction) -> DenominationFigures:
    wager = bonus.denominations_cents[column]
    community = _mean(bonus.community_ring, lambda s: Fraction(s.pay_cents(column)))
    hot_fixed = _mean(bonus.hot_spot_ring, lambda s: Fraction(s.pay_cents(column)))
    rtp_community = p_trigger * community / wager
    rtp_hot_fixed = p_trigger * p_hot * hot_fixed / wager
    meters = tuple(_meter_figures(bonus, level, column, wager, p_trigger * p_hot)
                   for level in BONUS_LEVELS)
    rtp_fixed = rtp_community + rtp_hot_fixed
    at_reset = sum((m.rtp_at_reset for m in meters), Fraction(0))
    long_run = sum((m.rtp_long_run for m in meters), Fraction(0))
    return DenominationFigures(
        wager_cents=wager,
        column=column,
        community_pay_cents=community,
        hot_spot_fixed_pay_cents=hot_fixed,
        rtp_community=rtp_community,
        rtp_hot_spot_fixed=rtp_hot_fixed,
        rtp_fixed=rtp_fixed,
        rtp_progressive_at_reset=at_reset,
        rtp_at_reset=rtp_fixed + at_reset,
        rtp_progressive_long_run=long_run,
        rtp_with_progressive=rtp_fixed + long_run,
        meters=meters,
    )


def _meter_figures(bonus: BonusSpin, level: ProgressiveLevel, column: int, wager: int,
                   p_hot_spot: Fraction) -> MeterFigures:
    """One meter for one column; ``p_hot_spot`` = P(trigger and this seat is the Hot Spot)."""
    rules = bonus.meter(level)
    ring_weight = sum(s.weight for s in bonus.hot_spot_ring)
    paying = [s for s in bonus.hot_spot_ring if s.progressive is level]
    level_weight = sum(s.weight for s in paying)
    shares = [(Fraction(s.weight, level_weight), _percent(s, column)) for s in paying]
    q = p_hot_spot * Fraction(level_weight, ring_weight)
    return meter_figures(level, rules, wager, q, shares)


def meter_figures(level: ProgressiveLevel, rules: Meter, wager_cents: int,
                  hit_probability: Fraction,
                  shares: Iterable[tuple[Fraction, int]]) -> MeterFigures:
    """A meter's figures for a wager that wins it with ``hit_probability``.

    ``shares`` lists (share of the awards, meter percent paid) for each way the
    wager wins this meter; the shares sum to 1 (or the list is empty when it
    never does). Shared by the Progressive Payout Wager's meter.
    """
    shares = list(shares)
    rate = Fraction(rules.rate_millionths, RATE_SCALE)
    at_reset = sum((share * (rules.reset_cents * pct // 100) for share, pct in shares),
                   Fraction(0))
    if not hit_probability or not shares:
        zero = Fraction(0)
        return MeterFigures(level, Fraction(0), rate, at_reset, zero, zero, zero, zero, zero,
                            zero)
    mu = wager_cents * rate / hit_probability
    mean = mean_meter_at_award(rules, mu, shares)
    award = sum((share * Fraction(pct, 100) * mean for share, pct in shares), Fraction(0))
    return MeterFigures(
        level=level,
        hit_probability=hit_probability,
        rate=rate,
        award_at_reset_cents=at_reset,
        mean_contribution_per_award_cents=mu,
        mean_meter_at_award_cents=mean,
        mean_award_cents=award,
        seed_per_award_cents=award - mu,
        rtp_at_reset=hit_probability * at_reset / wager_cents,
        rtp_long_run=hit_probability * award / wager_cents,
    )


def mean_meter_at_award(rules: Meter, mu: Fraction,
                        shares: Iterable[tuple[Fraction, int]]) -> Fraction:
    """The mean meter ``M`` at an award: the root of ``M = μ + Σ share · max(R, (1 − p) · M)``.

    The right side grows with slope under 1 (each ``p`` is at least 1 %), so
    the root is unique; between two consecutive break points ``R / (1 − p)``
    the equation is linear and is solved exactly. Capped at the ceiling.
    """
    terms = [(share, 1 - Fraction(pct, 100)) for share, pct in shares]
    reset = Fraction(rules.reset_cents)

    def excess(m: Fraction) -> Fraction:
        return mu + sum((s * max(reset, keep * m) for s, keep in terms), Fraction(0)) - m

    breaks = sorted({reset / keep for _, keep in terms if keep > 0})
    above = [b for b in breaks if excess(b) <= 0]  # excess decreases: the root is below these
    bound = above[0] if above else None
    # On the piece below ``bound`` a term keeps its remainder iff its break point is lower.
    kept = [(s, keep) for s, keep in terms
            if keep > 0 and (bound is None or reset / keep < bound)]
    reset_share = 1 - sum((s for s, _ in kept), Fraction(0))
    mean = (mu + reset_share * reset) / (1 - sum((s * keep for s, keep in kept), Fraction(0)))
    if rules.ceiling_cents is not None:
        mean = min(mean, Fraction(rules.ceiling_cents))
    return mean


def _percent(segment: WheelSegment, column: int) -> int:
    assert segment.meter_percent is not None, "a progressive segment has its meter percents"
    return segment.meter_percent[column]


def _mean(segments: tuple[WheelSegment, ...],
          value: Callable[[WheelSegment], Fraction]) -> Fraction:
    """The weighted mean of ``value`` over a ring's segments: its expectation per stop."""
    total = sum(s.weight for s in segments)
    return sum((s.weight * value(s) for s in segments), Fraction(0)) / total


# --- the long run of a mix of denominations (etg.math.longrun) ------------------------------

def mix_entries(bonus: BonusSpin, level: ProgressiveLevel,
                share: Fraction) -> tuple[MixEntry, ...]:
    """The Bonus Spin wagers feeding ``level``: the smallest denomination has ``share`` of them.

    The others share the rest equally. A denomination that wins the meter on
    several segments of different percents appears once per segment, its
    share split by the segments' weights.
    """
    columns = sorted(range(len(bonus.denominations_cents)),
                     key=lambda c: bonus.denominations_cents[c])
    shares = {columns[0]: share}
    for c in columns[1:]:
        shares[c] = (1 - share) / (len(columns) - 1)
    paying = [s for s in bonus.hot_spot_ring if s.progressive is level]
    weight = sum(s.weight for s in paying)
    out = []
    for c in columns:
        for s in paying:
            assert s.meter_percent is not None
            out.append(MixEntry(bonus.denominations_cents[c],
                                shares[c] * Fraction(s.weight, weight), s.meter_percent[c]))
    return tuple(out)


def meter_rtp_of(long_run: MeterLongRun, wager_cents: int) -> Fraction:
    """The meter's part of one denomination's return, over its entries in the mix."""
    entries = [d for d in long_run.denominations if d.wager_cents == wager_cents]
    if not entries:
        return Fraction(0)
    total = sum((d.share for d in entries), Fraction(0))
    if not total:  # a denomination nobody else plays: its segments taken alike
        return sum((d.rtp for d in entries), Fraction(0)) / len(entries)
    return sum((d.share * d.rtp for d in entries), Fraction(0)) / total


def meter_rtp_error_of(long_run: MeterLongRun, wager_cents: int) -> Fraction:
    """The bound on :func:`meter_rtp_of` (0 when the long run is exact), combined alike."""
    entries = [d for d in long_run.denominations if d.wager_cents == wager_cents]
    if not entries:
        return Fraction(0)
    total = sum((d.share for d in entries), Fraction(0))
    if not total:
        return sum((d.rtp_error for d in entries), Fraction(0)) / len(entries)
    return sum((d.share * d.rtp_error for d in entries), Fraction(0)) / total


def mix_long_run(paytable: Paytable, share: Fraction) -> dict[ProgressiveLevel, MeterLongRun]:
    """Each Bonus Spin meter's long run with ``share`` of the wagers in the smallest denomination.

    Unlike :attr:`DenominationFigures.rtp_with_progressive` (every wager of one
    denomination, the meter at its mean), both denominations feed the same
    meters here and each wins its own share (renewal–reward, exact or a
    Markov chain: :mod:`etg.math.longrun`). Empty without a Bonus Spin.
    """
    bonus = paytable.bonus_spin
    figures = bonus_spin_figures(paytable)
    if bonus is None or figures is None:
        return {}
    out: dict[ProgressiveLevel, MeterLongRun] = {}
    for level in BONUS_LEVELS:
        q = figures.largest.meter(level).hit_probability
        long_run = meter_long_run(bonus.meter(level), q, mix_entries(bonus, level, share))
        if long_run is not None:
            out[level] = long_run
    return out


def rtp_long_run_of_mix(paytable: Paytable, share: Fraction) -> dict[int, Fraction]:
    """Each denomination's long-run RTP (fixed pays plus both meters) for the mix ``share``."""
    return {cents: value for cents, (value, _error)
            in bounded_rtp_long_run_of_mix(paytable, share).items()}


def bounded_rtp_long_run_of_mix(paytable: Paytable,
                                share: Fraction) -> dict[int, tuple[Fraction, Fraction]]:
    """:func:`rtp_long_run_of_mix` with each figure's proven bound (0 where it is exact)."""
    figures = bonus_spin_figures(paytable)
    if figures is None:
        return {}
    meters = mix_long_run(paytable, share).values()
    return {d.wager_cents: (d.rtp_fixed + sum((meter_rtp_of(m, d.wager_cents) for m in meters),
                                              Fraction(0)),
                            sum((meter_rtp_error_of(m, d.wager_cents) for m in meters),
                                Fraction(0)))
            for d in figures.denominations}
