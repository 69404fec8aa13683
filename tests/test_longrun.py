"""The meters' long run for a mix of wagers: closed form, Markov chain, and a seeded play.

The check plays each meter with the engine's own contribute / award
(:func:`etg.math.longrun.simulate_meter`) and asks the renewal–reward
figure to lie in the 99 % interval of the award per hit.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.core.paytable import Meter, ProgressiveLevel
from etg.math.bonus import (
    bonus_spin_figures,
    bounded_rtp_long_run_of_mix,
    meter_rtp_of,
    mix_entries,
    mix_long_run,
    rtp_long_run_of_mix,
)
from etg.math.exact import check_json
from etg.math.longrun import (
    RTP_BOUND,
    Method,
    MixEntry,
    _chain,
    meter_long_run,
    simulate_meter,
)
from tests import tables

HALF = Fraction(1, 2)
PRIMARY = Meter(1_000_000, 1_000_000, 0.015, None)
SECONDARY = Meter(1_000_000, 500_000, 0.005, 2_500_000)
Q_PRIMARY = Fraction(1, 18_720)  # 1/26 · 1/6 · 1/120 (tests.tables' 6-seat wheel)
Q_SECONDARY = Fraction(2, 18_720)


def _mix(one: int = 20, five: int = 100, share: Fraction = HALF) -> tuple[MixEntry, ...]:
    return (MixEntry(100, share, one), MixEntry(500, 1 - share, five))


def test_full_awards_without_ceiling_are_exact() -> None:
    """Both denominations win 100 %: every cycle starts at reset; all figures are Fractions.

    c̄ = 0.015 · $3 = 4.5 cents; 18,719 non-winning wagers on average; the
    winner adds its own 1.5 or 7.5 cents.
    """
    lr = meter_long_run(PRIMARY, Q_PRIMARY, _mix(100, 100))
    assert lr is not None and lr.method is Method.CLOSED_FORM
    gain = (18_720 - 1) * Fraction(9, 2)
    assert lr.of(100).mean_meter_at_hit_cents == 1_000_000 + gain + Fraction(3, 2)
    assert lr.of(500).mean_meter_at_hit_cents == 1_000_000 + gain + Fraction(15, 2)
    assert lr.mean_award_cents == 1_000_000 + 18_720 * Fraction(9, 2)
    assert lr.mean_wager_cents == 300
    assert lr.rtp == Fraction(15, 1000) + Q_PRIMARY * 1_000_000 / 300
    assert lr.seed_rtp == lr.rtp - lr.rate
    assert lr.coin_in_between_hits_cents == 300 * 18_720
    assert lr.of(100).rtp == Q_PRIMARY * lr.of(100).mean_award_cents / 100


def test_progressive_payout_meter_closed_form() -> None:
    """One $5 wager, 100 % on a Suited Four-of-a-Kind (2/993,023): meter = reset + 25¢/q."""
    q = Fraction(2, 993_023)
    lr = meter_long_run(Meter(1_000_000, 1_000_000, 0.05, None), q, (MixEntry(500, 1, 100),))
    assert lr is not None and lr.method is Method.CLOSED_FORM
    assert lr.mean_award_cents == 1_000_000 + Fraction(25) * 993_023 / 2 == Fraction(26825575, 2)
    assert lr.rtp == Fraction(5, 100) + q * 1_000_000 / 500


def test_the_chain_reproduces_the_closed_form() -> None:
    """Solved by the chains (a ceiling nobody reaches), a 100 % meter lies within its bounds.

    Every cycle starts at reset (κ = 0): the bracket holds the closed form's
    exact figures, and it is narrow.
    """
    far = Meter(1_000_000, 1_000_000, 0.015, 10**12)
    chain = _chain(far, Q_PRIMARY, _mix(100, 100))
    exact = meter_long_run(PRIMARY, Q_PRIMARY, _mix(100, 100))
    assert exact is not None
    assert chain.method is Method.BOUNDED
    assert abs(chain.mean_award_cents - exact.mean_award_cents) <= chain.errors.award_cents
    assert abs(chain.rtp - exact.rtp) <= chain.errors.rtp < Fraction(1, 10**10)
    assert abs(chain.mean_start_cents - 1_000_000) <= chain.errors.start_cents
    for d in chain.denominations:
        assert abs(d.rtp - exact.of(d.wager_cents).rtp) <= d.rtp_error


def test_never_won_meter_has_no_long_run() -> None:
    assert meter_long_run(PRIMARY, Fraction(0), _mix()) is None
    assert meter_long_run(PRIMARY, Q_PRIMARY, (MixEntry(100, Fraction(0), 20),)) is None


@pytest.mark.parametrize("rules,q,share,seed", [
    (PRIMARY, Q_PRIMARY, HALF, 11),
    (PRIMARY, Q_PRIMARY, Fraction(1), 12),  # every wager $1: 20 % awards only
    (SECONDARY, Q_SECONDARY, HALF, 13),
    (PRIMARY, Fraction(1, 1000), Fraction(9, 10), 14),  # often above reset after a $1 award
])
def test_partial_awards_agree_with_a_seeded_play(rules: Meter, q: Fraction, share: Fraction,
                                                 seed: int) -> None:
    lr = meter_long_run(rules, q, _mix(share=share))
    assert lr is not None and lr.method is Method.BOUNDED
    sim = simulate_meter(rules, q, _mix(share=share), 30_000, seed)
    assert sim.books_balance
    assert set(sim.award_cents) == {d.wager_cents for d in lr.denominations if d.share}
    for cents, award in sim.award_cents.items():
        assert award.contains(float(lr.of(cents).mean_award_cents)), (lr.of(cents), award)
    # conservation: the meter returns its contributions plus the seeds
    assert lr.rtp == lr.rate + lr.seed_rtp
    assert float(lr.mean_start_cents) >= rules.reset_cents


def test_a_ceiling_that_is_reached_fills_the_reserve_and_agrees_with_play() -> None:
    """Reset $1,000, ceiling $1,500, $250 gathered between hits on average.

    The meter stands at its ceiling at a hit about e^(−2) of the time; the
    overflow waits in the reserve and restarts the next cycle above reset.
    """
    rules = Meter(100_000, 100_000, 0.05, 150_000)
    q = Fraction(1, 1000)
    mix = (MixEntry(500, Fraction(1), 100),)
    lr = meter_long_run(rules, q, mix)
    assert lr is not None and lr.method is Method.MARKOV_CHAIN
    assert 0.05 < float(lr.ceiling_probability) < 0.3
    assert float(lr.mean_reserve_at_hit_cents) > 0
    assert lr.mean_start_cents > rules.reset_cents
    sim = simulate_meter(rules, q, mix, 30_000, 21)
    assert sim.books_balance
    assert sim.award_cents[500].contains(float(lr.mean_award_cents))
    # Conservation: every contribution and every seed is paid, so award = seed + 25¢/q.
    assert float(lr.mean_award_cents) == pytest.approx(100_000 + 25_000, rel=1e-6)


def test_a_ceiling_below_the_mean_holds_the_meter() -> None:
    rules = Meter(100_000, 100_000, 0.05, 110_000)  # $250 a cycle on a $100 margin
    lr = meter_long_run(rules, Fraction(1, 1000), (MixEntry(500, Fraction(1), 100),))
    assert lr is not None and lr.method is Method.CEILING
    assert lr.mean_award_cents == 110_000
    assert lr.rtp == Fraction(1, 1000) * 110_000 / 500


def test_the_bonus_meters_of_the_mix() -> None:
    """Maryland's wheel: both denominations feed the meters; the $1 wins 20 %, the $5 100 %."""
    p = tables.maryland_bonus(7)
    assert p.bonus_spin is not None
    entries = mix_entries(p.bonus_spin, ProgressiveLevel.PRIMARY, Fraction(1, 4))
    assert entries == (MixEntry(100, Fraction(1, 4), 20), MixEntry(500, Fraction(3, 4), 100))
    figures = bonus_spin_figures(p)
    assert figures is not None
    q = figures.of(500).meter(ProgressiveLevel.PRIMARY).hit_probability
    lr = meter_long_run(p.bonus_spin.primary, q, entries)
    assert lr is not None
    one, five = lr.of(100), lr.of(500)
    # The same meter at a hit but for the winner's own contribution (1.5¢ against 7.5¢).
    assert five.mean_meter_at_hit_cents - one.mean_meter_at_hit_cents == 6
    assert one.mean_award_cents == one.mean_meter_at_hit_cents / 5
    assert meter_rtp_of(lr, 500) == five.rtp
    # Per unit wagered 20 % on $1 is 100 % on $5: they differ by the winner's own contribution.
    assert five.rtp - one.rtp == q * 6 / 500


def test_the_mix_lies_between_the_single_denomination_model_values() -> None:
    """Half the wagers $1: the $1 wager's 20 % grows with the $5 contributions, the $5's shrinks.

    With every wager $1 the renewal–reward figure is the old "meter at its
    mean" model value but for the rare award that leaves more than the reset
    amount, which the chain counts: a little higher, by under 10⁻⁴.
    """
    p = tables.maryland_bonus(7)
    figures = bonus_spin_figures(p)
    assert figures is not None
    one_model, five_model = (figures.of(c).rtp_with_progressive for c in (100, 500))
    mixed = rtp_long_run_of_mix(p, HALF)
    assert one_model < mixed[100] < mixed[500] < five_model
    only_ones = rtp_long_run_of_mix(p, Fraction(1))[100]
    assert 0 <= only_ones - one_model < Fraction(1, 10_000)
    only_fives, error = bounded_rtp_long_run_of_mix(p, Fraction(0))[500]
    # nobody wins 20 %: the primary meter's closed form, the secondary's ceiling far off
    assert abs(only_fives - five_model) <= error < Fraction(1, 10**11)
    entry = check_json(p, "md.yaml")["wagers"]["bonus_spin"]
    assert entry["by_denomination"]["100"]["rtp_long_run_mix"] == float(mixed[100])
    assert 0 < entry["by_denomination"]["100"]["rtp_long_run_mix_error"] <= 2 * RTP_BOUND
    assert entry["mix_smallest_denomination"] == 0.5


def test_the_maryland_one_dollar_return_of_the_issue_has_its_true_digits() -> None:
    """md-community-7, half the wagers $1: the $1 return is 0.8976315703…, within 2.5·10⁻¹⁰.

    The old single chain on an 8,192-cell grid gave 0.8976316887 (the primary
    meter's mean start 4,384.41¢ above reset against 4,383.03¢): the bracket
    now excludes it.
    """
    loaded = load_paytable(shipped_config_dir() / "paytables" / "maryland-community-7.yaml")
    value, error = bounded_rtp_long_run_of_mix(loaded.paytable, HALF)[100]
    assert 0 < error <= 2 * RTP_BOUND  # both meters' bounds
    assert abs(value - Fraction("0.8976315703")) <= error + Fraction(5, 10**11)
    assert abs(value - Fraction("0.8976316887")) > 100 * error
    primary = mix_long_run(loaded.paytable, HALF)[ProgressiveLevel.PRIMARY]
    start = primary.mean_start_cents - primary.reset_cents
    assert primary.method is Method.BOUNDED
    assert abs(start - Fraction("4383.03")) <= primary.errors.start_cents + Fraction(1, 200)
    assert primary.errors.start_cents < Fraction(1, 100)
    # every figure is affine in the mean start: the $5 award is the $1 one's meter plus 6¢, whole
    one, five = primary.of(100), primary.of(500)
    assert five.mean_meter_at_hit_cents - one.mean_meter_at_hit_cents == 6
    assert one.rtp_error == primary.hit_probability * one.award_error_cents / 100
