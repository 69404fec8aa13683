"""Every figure of a par sheet, computed once into one frozen tree, and its JSON twin.

:func:`par_sheet` gathers the exact figures (:mod:`etg.math.exact`,
:mod:`etg.math.policies`, :mod:`etg.math.spread`, :mod:`etg.math.bonus`,
:mod:`etg.math.longrun`) and, when asked, the simulation check
(:mod:`etg.math.agreement` and :func:`etg.math.longrun.simulate_meter`).
:func:`sheet_json` writes the same numbers as JSON: each figure as a float
and, where it is exact, as ``"p/q"``. Nothing is cached between paytables.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from etg import __version__
from etg.config.loader import LoadedPaytable
from etg.core.paytable import BonusSpin, Paytable, ProgressiveLevel, WheelSegment
from etg.math.agreement import AgreementRow, engine_agreement, sim_agreement
from etg.math.bonus import (
    BonusSpinFigures,
    bonus_spin_figures,
    meter_rtp_error_of,
    meter_rtp_of,
    mix_long_run,
)
from etg.math.exact import MainGameFigures, main_game_figures, main_game_nets
from etg.math.longrun import (
    MeterLongRun,
    MeterSimulation,
    MixEntry,
    meter_long_run,
    simulate_meter,
)
from etg.math.policies import (
    MainPolicies,
    PayoutPolicies,
    Policy,
    main_policies,
    payout_policies,
)
from etg.math.precision import bounded_decimal
from etg.math.spread import SpreadFigures, spread_figures
from etg.math.stats import Z99

DEFAULT_MIX = Fraction(1, 2)
VOLATILITY_ROUNDS = (10**3, 10**4, 10**5, 10**6, 10**7)
METER_CHECK_HITS = 20_000


@dataclass(frozen=True)
class Identity:
    """Which file and program the sheet is of."""

    file: str
    id: str
    name: str
    sha256: str
    jurisdiction: str
    version: str
    mix: Fraction  # share of Bonus Spin wagers in the smallest denomination


@dataclass(frozen=True)
class TieWagerFigures:
    """A Tie Wager (original deal or War deal): per unit of the Tie Wager."""

    name: str
    probability: Fraction
    house_edge: Fraction
    variance: Fraction


@dataclass(frozen=True)
class SegmentLine:
    """One segment of a ring: probability of a stop, pay per denomination, hit frequency.

    ``hit_frequency`` is per wager: P(trigger) × P(stop), and on the Hot Spot
    ring × 1/seats as well (only the Hot Spot seat wins it).
    """

    symbol: str
    weight: int
    probability: Fraction
    pays: tuple[str, ...]
    hit_frequency: Fraction


@dataclass(frozen=True)
class BonusDenomination:
    """A Bonus Spin denomination: its returns (per unit wagered) with the mix's meters."""

    wager_cents: int
    rtp_community: Fraction
    rtp_hot_spot_fixed: Fraction
    rtp_fixed: Fraction
    rtp_progressive_at_reset: Fraction
    rtp_progressive_long_run: Fraction
    rtp_long_run: Fraction
    rtp_long_run_exact: bool
    rtp_long_run_error: Fraction  # bound on both long-run figures (0 when exact)
    hit_frequency: Fraction
    variance: Fraction  # of the return per unit, meters at their long-run mean award


@dataclass(frozen=True)
class BonusMeter:
    """One Bonus Spin meter: the long run for the mix and the wheel's pace of hits."""

    level: ProgressiveLevel
    long_run: MeterLongRun
    spins_between_hits: Fraction  # every seat wagering
    rounds_between_hits: Fraction  # every seat wagering


@dataclass(frozen=True)
class BonusSheet:
    figures: BonusSpinFigures
    community: tuple[SegmentLine, ...]
    hot_spot: tuple[SegmentLine, ...]
    denominations: tuple[BonusDenomination, ...]
    meters: tuple[BonusMeter, ...]


@dataclass(frozen=True)
class PayoutSheet:
    policies: PayoutPolicies
    long_run: dict[Policy, MeterLongRun | None]
    meter_points: tuple[int, ...]  # cents at which the RTP table is given


@dataclass(frozen=True)
class VolatilityRow:
    """A wager's return per unit wagered, its standard deviation and the 99 % band over n."""

    wager: str
    rtp: Fraction
    sd: float
    limits: tuple[tuple[int, float, float], ...]  # (rounds, low, high)


@dataclass(frozen=True)
class MeterCheck:
    """The long run of one meter against a seeded play of it (99 % intervals)."""

    meter: str
    wager_cents: int
    exact: float
    simulation: MeterSimulation

    @property
    def agrees(self) -> bool:
        return self.simulation.award_cents[self.wager_cents].contains(self.exact)


@dataclass(frozen=True)
class ParSheet:
    identity: Identity
    paytable: Paytable
    main: MainGameFigures
    policies: MainPolicies
    spread: tuple[SpreadFigures, ...]
    tie_wagers: tuple[TieWagerFigures, ...]
    bonus: BonusSheet | None
    payout: PayoutSheet | None
    volatility: tuple[VolatilityRow, ...]
    sim_rounds: int
    agreement: tuple[AgreementRow, ...]
    meter_checks: tuple[MeterCheck, ...]
    engine_rounds: int = 0  # the engine cross-check: rounds through the real state machine
    engine_jobs: int = 0  # over this many processes
    engine_agreement: tuple[AgreementRow, ...] = ()


def par_sheet(loaded: LoadedPaytable, mix: Fraction | None = None, sim_rounds: int = 0,
              seed: int = 0, file: str | None = None, engine_rounds: int = 0,
              jobs: int = 1) -> ParSheet:
    """Every figure of ``loaded``'s paytable; the simulation check too when ``sim_rounds`` > 0,
    and the engine cross-check over ``jobs`` processes when ``engine_rounds`` > 0.

    ``mix`` is the share of Bonus Spin wagers in the smallest denomination
    ($1), one half when None (the paytable carries no mix).
    """
    paytable = loaded.paytable
    share = DEFAULT_MIX if mix is None else mix
    identity = Identity(file or str(loaded.path), paytable.id, paytable.name, loaded.sha256,
                        paytable.jurisdiction.value, __version__, share)
    main = main_game_figures(paytable)
    policies = main_policies(paytable)
    spread = tuple(spread_figures(paytable, policy, policies)
                   for policy in (Policy.WAR, Policy.SURRENDER))
    bonus = _bonus_sheet(paytable, share)
    payout = _payout_sheet(paytable)
    agreement: tuple[AgreementRow, ...] = ()
    checks: tuple[MeterCheck, ...] = ()
    if sim_rounds > 0:
        agreement = tuple(sim_agreement(paytable, sim_rounds, seed, share))
        checks = _meter_checks(paytable, bonus, payout, seed)
    engine: tuple[AgreementRow, ...] = ()
    if engine_rounds > 0:
        engine = tuple(engine_agreement(paytable, engine_rounds, seed, share, jobs))
    return ParSheet(
        identity=identity, paytable=paytable, main=main, policies=policies, spread=spread,
        tie_wagers=_tie_wagers(paytable, main), bonus=bonus, payout=payout,
        volatility=_volatility(policies, _tie_wagers(paytable, main), bonus, payout),
        sim_rounds=sim_rounds, agreement=agreement, meter_checks=checks,
        engine_rounds=engine_rounds, engine_jobs=min(jobs, engine_rounds) if engine else 0,
        engine_agreement=engine)


def _tie_wagers(paytable: Paytable, main: MainGameFigures) -> tuple[TieWagerFigures, ...]:
    nets = main_game_nets(paytable)
    out = [_tie("Tie Wager, original deal", main.tie_probability, nets.tie_win, nets.tie_lose)]
    if nets.war_tie_win is not None and nets.war_tie_lose is not None:
        out.append(_tie("Tie Wager, War deal", main.war_tie_probability, nets.war_tie_win,
                        nets.war_tie_lose))
    return tuple(out)


def _tie(name: str, p: Fraction, win: Fraction, lose: Fraction) -> TieWagerFigures:
    mean = p * win + (1 - p) * lose
    second = p * win * win + (1 - p) * lose * lose
    return TieWagerFigures(name, p, -mean, second - mean * mean)


def _segment_lines(bonus: BonusSpin, ring: tuple[WheelSegment, ...], trigger: Fraction,
                   hot: Fraction) -> tuple[SegmentLine, ...]:
    total = sum(s.weight for s in ring)
    out = []
    for s in ring:
        if s.progressive is not None and s.meter_percent is not None:
            pays = tuple(f"{pct} % of {s.progressive.value}" for pct in s.meter_percent)
        else:
            pays = tuple(_dollars(s.pay_cents(c)) for c in range(len(bonus.denominations_cents)))
        p = Fraction(s.weight, total)
        out.append(SegmentLine(s.symbol, s.weight, p, pays, trigger * hot * p))
    return tuple(out)


def _dollars(cents: int) -> str:
    return f"${cents // 100:,}" if not cents % 100 else f"${cents / 100:,.2f}"


def _bonus_sheet(paytable: Paytable, share: Fraction) -> BonusSheet | None:
    bonus = paytable.bonus_spin
    figures = bonus_spin_figures(paytable)
    if bonus is None or figures is None:
        return None
    trigger = figures.trigger_probability
    ring = sum(s.weight for s in bonus.hot_spot_ring)
    meters = []
    for level, long_run in mix_long_run(paytable, share).items():
        weight = sum(s.weight for s in bonus.hot_spot_ring if s.progressive is level)
        meters.append(BonusMeter(level, long_run, Fraction(ring, weight),
                                 Fraction(ring, weight) / trigger))
    denominations = []
    for d in figures.denominations:
        progressive = sum((meter_rtp_of(m.long_run, d.wager_cents) for m in meters), Fraction(0))
        error = sum((meter_rtp_error_of(m.long_run, d.wager_cents) for m in meters), Fraction(0))
        exact = all(m.long_run.method.exact for m in meters)
        denominations.append(BonusDenomination(
            wager_cents=d.wager_cents, rtp_community=d.rtp_community,
            rtp_hot_spot_fixed=d.rtp_hot_spot_fixed, rtp_fixed=d.rtp_fixed,
            rtp_progressive_at_reset=d.rtp_progressive_at_reset,
            rtp_progressive_long_run=progressive, rtp_long_run=d.rtp_fixed + progressive,
            rtp_long_run_exact=exact, rtp_long_run_error=error, hit_frequency=trigger,
            variance=_bonus_variance(bonus, figures, d.column, d.wager_cents, meters)))
    return BonusSheet(
        figures=figures,
        community=_segment_lines(bonus, bonus.community_ring, trigger, Fraction(1)),
        hot_spot=_segment_lines(bonus, bonus.hot_spot_ring, trigger,
                                figures.hot_spot_probability),
        denominations=tuple(denominations), meters=tuple(meters))


def _bonus_variance(bonus: BonusSpin, figures: BonusSpinFigures, column: int, wager: int,
                    meters: list[BonusMeter]) -> Fraction:
    """Variance of the return per unit wagered, each meter award at its long-run mean."""
    mean_meter = {m.level: m.long_run.mean_meter_at_hit_cents for m in meters}

    def hot_pay(s: WheelSegment) -> Fraction:
        if s.progressive is not None and s.meter_percent is not None:
            return mean_meter.get(s.progressive, Fraction(0)) * Fraction(s.meter_percent[column],
                                                                          100)
        return Fraction(s.pay_cents(column))

    def moments(ring: tuple[WheelSegment, ...], pay: Any) -> tuple[Fraction, Fraction]:
        total = sum(s.weight for s in ring)
        first = sum((s.weight * pay(s) for s in ring), Fraction(0)) / total
        second = sum((s.weight * pay(s) ** 2 for s in ring), Fraction(0)) / total
        return first, second

    c1, c2 = moments(bonus.community_ring, lambda s: Fraction(s.pay_cents(column)))
    h1, h2 = moments(bonus.hot_spot_ring, hot_pay)
    p_hot = figures.hot_spot_probability
    spin1 = c1 + p_hot * h1
    spin2 = c2 + 2 * c1 * p_hot * h1 + p_hot * h2
    trigger = figures.trigger_probability
    mean = trigger * spin1 / wager
    return trigger * spin2 / wager**2 - mean * mean


def _payout_sheet(paytable: Paytable) -> PayoutSheet | None:
    policies = payout_policies(paytable)
    rules = paytable.progressive_payout
    if policies is None or rules is None:
        return None
    long_run: dict[Policy, MeterLongRun | None] = {}
    for f in policies.by_policy:
        mix = tuple(MixEntry(rules.wager_cents, share, pct) for share, pct in f.meter_shares)
        long_run[f.policy] = meter_long_run(rules.meter, f.meter_hit_probability, mix)
    reset = rules.meter.reset_cents
    points = sorted({reset, reset * 5 // 4, reset * 3 // 2, reset * 2, reset * 3, reset * 5,
                     *(f.break_even_meter_cents for f in policies.by_policy
                       if f.break_even_meter_cents is not None)})
    return PayoutSheet(policies, long_run, tuple(points))


def _row(name: str, rtp: Fraction, variance: Fraction) -> VolatilityRow:
    sd = math.sqrt(max(0.0, float(variance)))
    limits = tuple((n, float(rtp) - Z99 * sd / math.sqrt(n), float(rtp) + Z99 * sd / math.sqrt(n))
                   for n in VOLATILITY_ROUNDS)
    return VolatilityRow(name, rtp, sd, limits)


def _volatility(policies: MainPolicies, ties: tuple[TieWagerFigures, ...],
                bonus: BonusSheet | None, payout: PayoutSheet | None) -> tuple[VolatilityRow, ...]:
    rows = [_row(f"Initial Wager, {f.policy.label}", 1 - f.house_edge,
                 f.variance) for f in policies.by_policy if f.policy is not Policy.BEST]
    rows += [_row(t.name, 1 - t.house_edge, t.variance) for t in ties]
    if bonus is not None:
        rows += [_row(f"Bonus Spin {_dollars(d.wager_cents)}, long run", d.rtp_long_run,
                      d.variance) for d in bonus.denominations]
    if payout is not None:
        f = payout.policies.of(Policy.BEST)
        rows.append(_row("Progressive Payout, best decision, reset meter", f.rtp_at_reset,
                         f.variance_at_reset))
    return tuple(rows)


def _meter_checks(paytable: Paytable, bonus: BonusSheet | None, payout: PayoutSheet | None,
                  seed: int) -> tuple[MeterCheck, ...]:
    out = []
    if bonus is not None and paytable.bonus_spin is not None:
        for i, m in enumerate(bonus.meters):
            lr = m.long_run
            mix = tuple(MixEntry(d.wager_cents, d.share, d.percent) for d in lr.denominations)
            sim = simulate_meter(paytable.bonus_spin.meter(m.level), lr.hit_probability, mix,
                                 METER_CHECK_HITS, seed + i)
            for d in lr.denominations:
                out.append(MeterCheck(m.level.value, d.wager_cents, float(d.mean_award_cents),
                                      sim))
    if payout is not None and paytable.progressive_payout is not None:
        lr_or_none = payout.long_run.get(Policy.BEST)
        if lr_or_none is not None:
            mix = tuple(MixEntry(d.wager_cents, d.share, d.percent)
                        for d in lr_or_none.denominations)
            sim = simulate_meter(paytable.progressive_payout.meter, lr_or_none.hit_probability,
                                 mix, METER_CHECK_HITS, seed + 7)
            d = lr_or_none.denominations[0]
            out.append(MeterCheck("progressive_payout", d.wager_cents,
                                  float(d.mean_award_cents), sim))
    return tuple(out)


# --- the JSON twin ------------------------------------------------------------------------

def figure(value: Fraction | None, exact: bool = True,
           error: Fraction | None = None) -> dict[str, Any] | None:
    """A figure as ``{"value": float, "exact": "p/q" | None, "error": float | None}``.

    ``exact`` is the fraction when the figure is exact (its ``error`` then 0);
    a bounded figure has ``exact`` None, its proven ``error`` and ``text``,
    the decimal with the digits that bound vouches for
    (:mod:`etg.math.precision`); a figure with neither (a model value such as
    a variance at the meters' mean) has ``error`` None.
    """
    if value is None:
        return None
    if exact:
        return {"value": float(value), "exact": f"{value.numerator}/{value.denominator}",
                "error": 0.0}
    if error is None:
        return {"value": float(value), "exact": None, "error": None}
    return {"value": float(value), "exact": None, "error": float(error),
            "text": bounded_decimal(value, error)}


def sheet_json(sheet: ParSheet) -> dict[str, Any]:
    """The par sheet's numbers: the same figures as the HTML page."""
    i = sheet.identity
    out: dict[str, Any] = {
        "identity": {"file": i.file, "id": i.id, "name": i.name, "sha256": i.sha256,
                     "jurisdiction": i.jurisdiction, "version": i.version,
                     "mix_smallest_bonus_denomination": figure(i.mix)},
        "main_game": {
            "tie_probability": figure(sheet.main.tie_probability),
            "war_tie_probability": figure(sheet.main.war_tie_probability),
            "policies": {f.policy.value: _main_policy_json(f) for f in sheet.policies.by_policy},
            "best_surrenders_on_ranks": list(sheet.policies.best_differs_from_war),
        },
        "tie_wagers": [{"name": t.name, "probability": figure(t.probability),
                        "house_edge": figure(t.house_edge), "variance": figure(t.variance)}
                       for t in sheet.tie_wagers],
        "spread": [{"policy": s.policy.value, "variance": figure(s.variance),
                    "covariance": figure(s.covariance), "correlation": figure(s.correlation),
                    "seat": [{"spots": k.spots, "variance": figure(k.variance),
                              "sd_per_wagered": k.sd_per_wagered} for k in s.seats]}
                   for s in sheet.spread],
        "bonus_spin": None if sheet.bonus is None else _bonus_json(sheet.bonus),
        "progressive_payout": None if sheet.payout is None else _payout_json(sheet.payout),
        "volatility": [{"wager": v.wager, "rtp": figure(v.rtp), "sd": v.sd,
                        "limits_99": [{"rounds": n, "low": lo, "high": hi}
                                      for n, lo, hi in v.limits]} for v in sheet.volatility],
        "simulation": {
            "rounds": sheet.sim_rounds,
            "agreement": [{"name": r.name, "exact": r.exact, "mean": r.estimate.mean,
                           "low": r.estimate.low, "high": r.estimate.high, "agrees": r.agrees}
                          for r in sheet.agreement],
            "meters": [{"meter": c.meter, "wager_cents": c.wager_cents, "exact_award": c.exact,
                        "hits": c.simulation.hits,
                        "mean": c.simulation.award_cents[c.wager_cents].mean,
                        "low": c.simulation.award_cents[c.wager_cents].low,
                        "high": c.simulation.award_cents[c.wager_cents].high,
                        "agrees": c.agrees} for c in sheet.meter_checks],
        },
        "engine_check": {
            "rounds": sheet.engine_rounds, "jobs": sheet.engine_jobs,
            "agreement": [{"name": r.name, "exact": r.exact, "mean": r.estimate.mean,
                           "low": r.estimate.low, "high": r.estimate.high, "agrees": r.agrees}
                          for r in sheet.engine_agreement],
        },
    }
    return out


def _main_policy_json(f: Any) -> dict[str, Any]:
    return {
        "house_edge": figure(f.house_edge),
        "house_edge_per_wagered": figure(f.house_edge_per_wagered),
        "element_of_risk": figure(f.element_of_risk),
        "hit_frequency": figure(f.hit_frequency),
        "variance": figure(f.variance),
        "war_probability": figure(f.war_probability),
        "outcomes": [{"outcome": o.label, "net": figure(o.net),
                      "probability": figure(o.probability)} for o in f.outcomes],
    }


def long_run_json(lr: MeterLongRun | None) -> dict[str, Any] | None:
    """A meter's long run as JSON: exact with the closed form, else each figure with its bound."""
    if lr is None:
        return None
    exact = lr.method.exact
    e = lr.errors

    def fig(value: Fraction, error: Fraction) -> dict[str, Any] | None:
        return figure(value, exact, error)

    return {
        "method": lr.method.name.lower(),
        "proven": lr.method.proven,
        "hit_probability": figure(lr.hit_probability),
        "wagers_between_hits": figure(lr.wagers_between_hits),
        "coin_in_between_hits_cents": figure(lr.coin_in_between_hits_cents),
        "mean_start_cents": fig(lr.mean_start_cents, e.start_cents),
        "mean_meter_at_hit_cents": fig(lr.mean_meter_at_hit_cents, e.meter_cents),
        "mean_award_cents": fig(lr.mean_award_cents, e.award_cents),
        "mean_seed_cents": fig(lr.mean_seed_cents, e.seed_cents),
        "ceiling_cents": lr.ceiling_cents,
        "ceiling_probability": fig(lr.ceiling_probability, e.ceiling_probability),
        "mean_reserve_at_hit_cents": fig(lr.mean_reserve_at_hit_cents, e.reserve_cents),
        "rtp": fig(lr.rtp, e.rtp),
        "seed_rtp": fig(lr.seed_rtp, e.seed_rtp),
        "denominations": [{"wager_cents": d.wager_cents, "share": figure(d.share),
                           "percent": d.percent,
                           "mean_meter_at_hit_cents": fig(d.mean_meter_at_hit_cents,
                                                          d.meter_error_cents),
                           "mean_award_cents": fig(d.mean_award_cents, d.award_error_cents),
                           "rtp": fig(d.rtp, d.rtp_error)} for d in lr.denominations],
    }


def _bonus_json(b: BonusSheet) -> dict[str, Any]:
    def segments(lines: tuple[SegmentLine, ...]) -> list[dict[str, Any]]:
        return [{"symbol": s.symbol, "weight": s.weight, "probability": figure(s.probability),
                 "pays": list(s.pays), "hit_frequency": figure(s.hit_frequency)} for s in lines]

    return {
        "trigger_probability": figure(b.figures.trigger_probability),
        "hot_spot_probability": figure(b.figures.hot_spot_probability),
        "community_ring": segments(b.community),
        "hot_spot_ring": segments(b.hot_spot),
        "denominations": [{
            "wager_cents": d.wager_cents, "rtp_community": figure(d.rtp_community),
            "rtp_hot_spot_fixed": figure(d.rtp_hot_spot_fixed), "rtp_fixed": figure(d.rtp_fixed),
            "rtp_progressive_at_reset": figure(d.rtp_progressive_at_reset),
            "rtp_progressive_long_run": figure(d.rtp_progressive_long_run, d.rtp_long_run_exact,
                                               d.rtp_long_run_error),
            "rtp_long_run": figure(d.rtp_long_run, d.rtp_long_run_exact, d.rtp_long_run_error),
            "hit_frequency": figure(d.hit_frequency),
            "variance": figure(d.variance, False)} for d in b.denominations],
        "meters": [{"level": m.level.value, "spins_between_hits": figure(m.spins_between_hits),
                    "rounds_between_hits": figure(m.rounds_between_hits),
                    "long_run": long_run_json(m.long_run)} for m in b.meters],
    }


def _payout_json(p: PayoutSheet) -> dict[str, Any]:
    out: dict[str, Any] = {"initial_wager_cents_for_best": p.policies.initial_cents,
                           "best_surrenders_on": [t.label
                                                  for t in p.policies.best_differs_from_war]}
    for f in p.policies.by_policy:
        out[f.policy.value] = {
            "hands": {h.value: figure(v) for h, v in f.hands.items()},
            "hit_frequency": figure(f.hit_frequency),
            "rtp_fixed": figure(f.rtp_fixed),
            "rtp_at_reset": figure(f.rtp_at_reset),
            "rtp_per_meter_cent": figure(f.meter_slope),
            "rtp_at_meter": {str(m): figure(f.rtp_at_meter(Fraction(m))) for m in p.meter_points},
            "break_even_meter_cents": f.break_even_meter_cents,
            "break_even_meter": figure(f.break_even_meter),
            "envy_per_other_wager": figure(f.envy_per_other),
            "long_run": long_run_json(p.long_run[f.policy]),
        }
    return out
