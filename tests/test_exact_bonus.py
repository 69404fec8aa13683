"""Exact Bonus Spin Xtreme figures: hand derivations, the meters' long run, JSON and rows.

The paytables are built in code with the values being written into the
Maryland YAML files (6 seats), and the 9-seat variant with its own weights.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from etg.core.cards import Card, Colour
from etg.core.paytable import (
    BonusSpin,
    DesignatedCard,
    EnvyPays,
    HandPay,
    HandPays,
    Meter,
    Paytable,
    ProgressiveLevel,
    ProgressivePayout,
    RtpBand,
    WheelSegment,
    rule_violations,
)
from etg.core.progressive import award, contribute, initial_state
from etg.math.bonus import (
    bonus_spin_figures,
    mean_meter_at_award,
    trigger_faces,
    trigger_probability,
)
from etg.math.check_rows import side_wager_rows
from etg.math.exact import bonus_rtp_warnings, check_json
from etg.math.stats import RunningMean
from etg.math.vector_sim import simulate_side_wagers
from tests import tables

PRIMARY = Meter(1_000_000, 1_000_000, 0.015, None)
SECONDARY = Meter(1_000_000, 500_000, 0.005, 2_500_000)
COMMUNITY_PAYS = {  # symbol: ($1 column, $5 column), cents
    "$150": (3000, 15000), "$100": (2500, 12500), "$75": (2000, 10000), "$50": (1500, 7500),
    "$40": (1000, 5000), "$35": (800, 4000), "$30": (600, 3000), "$25": (500, 2500),
}
HOT_SPOT_PAYS = {
    "$1000": (20000, 100000), "$600": (12000, 60000), "$500": (10000, 50000),
    "$400": (8000, 40000), "$350": (7000, 35000), "$300": (6000, 30000),
    "$250": (5000, 25000), "$200": (4000, 20000),
}
COMMUNITY_6 = (1, 2, 3, 4, 6, 10, 20, 45)  # weights in the order of COMMUNITY_PAYS
HOT_SPOT_6 = (1, 2, 3, 5, 7, 9, 12, 16, 25, 40)  # JACKPOT, MINI JACKPOT, then HOT_SPOT_PAYS
COMMUNITY_9 = (1, 2, 3, 5, 8, 10, 14, 17)
HOT_SPOT_9 = (1, 2, 3, 4, 6, 8, 10, 14, 20, 32)
# Proposed 9-seat weights that bring both denominations into 80 %-95 % (same pays):
COMMUNITY_9_MINIMAL = (4, 5, 5, 5, 8, 10, 10, 13)  # community ring only
COMMUNITY_9_BALANCED = (2, 3, 4, 6, 8, 10, 12, 15)  # both rings
HOT_SPOT_9_BALANCED = (1, 3, 4, 5, 7, 9, 11, 14, 19, 27)


def wheel(community: tuple[int, ...] = COMMUNITY_6,
          hot_spot: tuple[int, ...] = HOT_SPOT_6) -> BonusSpin:
    ring = tuple(WheelSegment(symbol, weight, pays)
                 for (symbol, pays), weight in zip(COMMUNITY_PAYS.items(), community, strict=True))
    hot = (
        WheelSegment("JACKPOT", hot_spot[0], None, ProgressiveLevel.PRIMARY, (20, 100)),
        WheelSegment("MINI JACKPOT", hot_spot[1], None, ProgressiveLevel.SECONDARY, (20, 100)),
        *(WheelSegment(symbol, weight, pays)
          for (symbol, pays), weight in zip(HOT_SPOT_PAYS.items(), hot_spot[2:], strict=True)),
    )
    return BonusSpin(denominations_cents=(100, 500),
                     trigger=(DesignatedCard("A", Colour.RED),),
                     community_ring=ring, hot_spot_ring=hot, primary=PRIMARY, secondary=SECONDARY)


PROGRESSIVE_PAYOUT = ProgressivePayout(
    wager_cents=500,
    pays=HandPays(suited_four_of_a_kind=HandPay(1000, 1, 100), suited_double_tie=HandPay(200),
                  four_of_a_kind=HandPay(150), double_tie=HandPay(30), suited_tie=HandPay(15),
                  tie=HandPay(5)),
    envy_cents=EnvyPays(suited_four_of_a_kind=500_000),
    meter=Meter(1_000_000, 1_000_000, 0.05, None),
)


def maryland(seats: int = 6, decks: int = 6, bonus: BonusSpin | None = None,
             payout: ProgressivePayout | None = PROGRESSIVE_PAYOUT) -> Paytable:
    """A Maryland community-5 paytable with both side wagers (6 seats: the shipped wheel)."""
    if bonus is None:
        bonus = wheel() if seats == 6 else wheel(COMMUNITY_9, HOT_SPOT_9)
    return tables.maryland(5, decks, seats=seats, bonus_spin=bonus, progressive_payout=payout)


def test_the_test_paytables_are_valid() -> None:
    for p in (maryland(6), maryland(9), maryland(9, bonus=wheel(COMMUNITY_9_MINIMAL, HOT_SPOT_9)),
              maryland(9, bonus=wheel(COMMUNITY_9_BALANCED, HOT_SPOT_9_BALANCED))):
        assert rule_violations(p) == []


# --- the trigger ---------------------------------------------------------------------------

@pytest.mark.parametrize("decks", [1, 6, 8])
def test_a_red_ace_triggers_one_time_in_26_whatever_the_decks(decks: int) -> None:
    bonus = wheel()
    assert trigger_faces(bonus) == {Card.parse("AD").index, Card.parse("AH").index}
    assert trigger_probability(bonus, decks) == Fraction(1, 26)


def test_trigger_counts_each_designated_face_once() -> None:
    red_ace = DesignatedCard("A", Colour.RED)
    both = (red_ace, DesignatedCard("K", Colour.BLACK))
    assert trigger_probability(replace(wheel(), trigger=both), 6) == Fraction(4, 52)
    twice = (red_ace, red_ace, DesignatedCard("A", Colour.BLACK))
    assert trigger_probability(replace(wheel(), trigger=twice), 6) == Fraction(4, 52)


# --- the wheel by hand -----------------------------------------------------------------------

def _hand_fixed(community: tuple[int, ...], hot_spot: tuple[int, ...], seats: int,
                column: int, wager: int) -> Fraction:
    """P(trigger) · (E[community] + E[fixed Hot Spot] / seats) / wager, written out."""
    e_community = Fraction(sum(w * pays[column] for w, pays in
                               zip(community, COMMUNITY_PAYS.values(), strict=True)),
                           sum(community))
    e_hot = Fraction(sum(w * pays[column] for w, pays in
                         zip(hot_spot[2:], HOT_SPOT_PAYS.values(), strict=True)), sum(hot_spot))
    return Fraction(1, 26) * (e_community + e_hot / seats) / wager


def test_fixed_rtp_by_hand_six_seats() -> None:
    f = bonus_spin_figures(maryland(6))
    assert f is not None
    five, one = f.of(500), f.of(100)
    assert five.community_pay_cents == Fraction(342_500, 91)
    assert five.hot_spot_fixed_pay_cents == Fraction(3_635_000, 120)
    assert one.community_pay_cents == Fraction(68_500, 91)
    assert one.hot_spot_fixed_pay_cents == Fraction(727_000, 120)
    assert five.rtp_fixed == _hand_fixed(COMMUNITY_6, HOT_SPOT_6, 6, 1, 500)
    assert five.rtp_fixed == Fraction(342_500, 91 * 26 * 500) + Fraction(3_635_000,
                                                                         120 * 6 * 26 * 500)
    # The $1 column pays exactly a fifth of the $5 one: the same return per unit.
    assert one.rtp_fixed == five.rtp_fixed
    assert five.rtp_fixed == five.rtp_community + five.rtp_hot_spot_fixed


def test_the_seat_ring_has_one_segment_per_seat_of_the_paytable() -> None:
    six = bonus_spin_figures(maryland(6, bonus=wheel()))
    nine = bonus_spin_figures(maryland(9, bonus=wheel()))
    assert six is not None and nine is not None
    assert (six.hot_spot_probability, nine.hot_spot_probability) == (Fraction(1, 6),
                                                                    Fraction(1, 9))
    assert six.of(500).rtp_community == nine.of(500).rtp_community
    assert nine.of(500).rtp_hot_spot_fixed * 9 == six.of(500).rtp_hot_spot_fixed * 6
    assert nine.of(500).rtp_fixed == _hand_fixed(COMMUNITY_6, HOT_SPOT_6, 9, 1, 500)


def test_progressives_at_reset_by_hand() -> None:
    f = bonus_spin_figures(maryland(6))
    assert f is not None
    # $5: 100 % of $10,000 (weight 1) and of $5,000 (weight 2) of 120, for 1 seat in 6
    five = f.of(500)
    assert five.meter(ProgressiveLevel.PRIMARY).hit_probability == Fraction(1, 26 * 6 * 120)
    assert five.meter(ProgressiveLevel.SECONDARY).hit_probability == Fraction(2, 26 * 6 * 120)
    assert five.rtp_progressive_at_reset == Fraction(1_000_000 + 2 * 500_000,
                                                     26 * 6 * 120 * 500)
    # $1: 20 % of the same meters on a fifth of the wager: the same return per unit
    one = f.of(100)
    assert one.meter(ProgressiveLevel.PRIMARY).award_at_reset_cents == 200_000
    assert one.meter(ProgressiveLevel.SECONDARY).award_at_reset_cents == 100_000
    assert one.rtp_progressive_at_reset == five.rtp_progressive_at_reset == Fraction(25, 117)
    assert five.rtp_at_reset == five.rtp_fixed + five.rtp_progressive_at_reset


def test_long_run_of_a_full_award_is_every_contribution_and_every_seed() -> None:
    """100 %: the meter at its mean is reset + μ, so the return is rate + q · reset / wager."""
    five = bonus_spin_figures(maryland(6))
    assert five is not None
    d = five.of(500)
    primary = d.meter(ProgressiveLevel.PRIMARY)
    assert primary.mean_contribution_per_award_cents == 500 * Fraction(15, 1000) * 18_720
    assert primary.mean_meter_at_award_cents == 1_000_000 + 140_400
    assert primary.seed_per_award_cents == 1_000_000
    assert primary.rtp_long_run == Fraction(15, 1000) + Fraction(1, 18_720) * 1_000_000 / 500
    assert d.rtp_progressive_long_run == d.rtp_progressive_at_reset + Fraction(20, 1000)
    assert d.rtp_with_progressive == d.rtp_at_reset + Fraction(1, 50)


def test_long_run_of_a_partial_award_by_hand() -> None:
    """20 % for $1: the remainder 80 % of the mean meter is under reset, so it is reseeded."""
    f = bonus_spin_figures(maryland(6))
    assert f is not None
    one = f.of(100)
    primary = one.meter(ProgressiveLevel.PRIMARY)
    assert primary.mean_contribution_per_award_cents == Fraction(3, 2) * 18_720 == 28_080
    assert primary.mean_meter_at_award_cents == 1_028_080
    assert primary.mean_award_cents == 205_616
    assert primary.seed_per_award_cents == 1_000_000 - 1_028_080 * Fraction(4, 5) == 177_536
    assert primary.rtp_long_run == Fraction(205_616, 18_720 * 100)
    assert primary.rtp_long_run == primary.rate + primary.hit_probability * 177_536 / 100
    secondary = one.meter(ProgressiveLevel.SECONDARY)
    assert secondary.mean_meter_at_award_cents == 500_000 + Fraction(1, 2) * 9_360
    assert secondary.seed_per_award_cents == 500_000 - Fraction(4, 5) * 504_680
    # Only a fifth of the $1 wager's contributions comes back to it beyond the reset award.
    assert one.rtp_with_progressive == one.rtp_at_reset + Fraction(1, 5) * Fraction(20, 1000)


def test_mean_meter_regimes() -> None:
    rules = Meter(1000, 1000, 0.01, None)
    assert mean_meter_at_award(rules, Fraction(200), [(Fraction(1), 100)]) == 1200
    assert mean_meter_at_award(rules, Fraction(200), [(Fraction(1), 20)]) == 1200
    # 80 % of 1500 stays above reset: the meter never resets and the award p · M is μ.
    assert mean_meter_at_award(rules, Fraction(500), [(Fraction(1), 20)]) == 2500
    half = Fraction(1, 2)
    mixed = [(half, 100), (half, 50)]
    assert mean_meter_at_award(rules, Fraction(200), mixed) == 1200
    assert mean_meter_at_award(rules, Fraction(1200), mixed) == Fraction(6800, 3)
    capped = Meter(1000, 1000, 0.01, 2000)
    assert mean_meter_at_award(capped, Fraction(500), [(Fraction(1), 20)]) == 2000


@given(mu=st.fractions(min_value=1, max_value=10**7),
       reset=st.integers(min_value=1, max_value=10**7),
       shares=st.lists(st.tuples(st.integers(min_value=1, max_value=50),
                                 st.integers(min_value=1, max_value=100)),
                       min_size=1, max_size=4))
def test_mean_meter_solves_its_equation(mu: Fraction, reset: int,
                                        shares: list[tuple[int, int]]) -> None:
    total = sum(w for w, _ in shares)
    weighted = [(Fraction(w, total), pct) for w, pct in shares]
    m = mean_meter_at_award(Meter(reset, reset, 0.01, None), mu, weighted)
    right = mu + sum((s * max(Fraction(reset), (1 - Fraction(pct, 100)) * m)
                      for s, pct in weighted), Fraction(0))
    assert m == right


def test_the_meter_chain_of_the_engine_agrees_with_the_long_run_figure() -> None:
    """Play the $1 primary meter with the engine's contribute/award: awards = contributions + seeds.

    Every wager is $1 and wins the 20 % award with q = 1/18,720; the wagers
    between two awards are geometric. The mean award per hit must match the
    exact mean-meter figure within its 99 % interval, and the books must balance
    to the millionth of a cent.
    """
    f = bonus_spin_figures(maryland(6))
    assert f is not None
    figure = f.of(100).meter(ProgressiveLevel.PRIMARY)
    rng = np.random.default_rng(2024)
    gaps = rng.geometric(float(figure.hit_probability), size=60_000)
    state = initial_state(PRIMARY)
    awards = RunningMean()
    contributed = seeded = paid = 0
    for wagers in gaps:
        state, c = contribute(PRIMARY, state, int(wagers) * 100)
        contributed += c.millionths
        state, a = award(PRIMARY, state, 20)
        seeded += a.seeded
        paid += a.amount
        awards.add(a.amount)
    assert (PRIMARY.initial_cents + seeded) * 1_000_000 + contributed == (
        (paid + state.cents + state.reserve_cents) * 1_000_000 + state.carry)
    estimate = awards.estimate()
    assert estimate.contains(float(figure.mean_award_cents)), (estimate, figure.mean_award_cents)


# --- the RTP table and the band ------------------------------------------------------------

def _rtps(p: Paytable) -> dict[int, tuple[Fraction, Fraction, Fraction]]:
    f = bonus_spin_figures(p)
    assert f is not None
    return {d.wager_cents: (d.rtp_fixed, d.rtp_at_reset, d.rtp_with_progressive)
            for d in f.denominations}


def test_six_seat_wheel_is_inside_the_band() -> None:
    rtps = _rtps(maryland(6))
    fixed, at_reset = Fraction(115_477, 170_352), Fraction(115_477, 170_352) + Fraction(25, 117)
    assert rtps[500] == (fixed, at_reset, at_reset + Fraction(1, 50))
    assert rtps[100] == (fixed, at_reset, at_reset + Fraction(1, 250))
    assert bonus_rtp_warnings(maryland(6)) == []


def test_nine_seat_wheel_as_given_leaves_the_band_for_one_dollar() -> None:
    p = maryland(9)
    rtps = _rtps(p)
    assert rtps[500] == (Fraction(11, 18), Fraction(61, 78), Fraction(61, 78) + Fraction(1, 50))
    assert rtps[100][2] == Fraction(61, 78) + Fraction(1, 250)  # 78.61 %
    assert bonus_rtp_warnings(p) == [
        "bonus_spin: the $1 wager returns 78.61 % with the meters at their mean, outside the "
        "band 80.00 % to 95.00 % (rtp_band)"]


@pytest.mark.parametrize("community,hot_spot", [(COMMUNITY_9_MINIMAL, HOT_SPOT_9),
                                                (COMMUNITY_9_BALANCED, HOT_SPOT_9_BALANCED)])
def test_proposed_nine_seat_weights_are_inside_the_band(community: tuple[int, ...],
                                                        hot_spot: tuple[int, ...]) -> None:
    p = maryland(9, bonus=wheel(community, hot_spot))
    assert bonus_rtp_warnings(p) == []
    for fixed, at_reset, long_run in _rtps(p).values():
        assert Fraction(85, 100) < long_run < Fraction(92, 100)
        assert fixed < at_reset < long_run


def test_warnings_follow_the_operator_band() -> None:
    p = maryland(6, bonus=replace(wheel(), rtp_band=RtpBand(0.90, 0.95)))
    assert bonus_rtp_warnings(p) == [
        "bonus_spin: the $1 wager returns 89.55 % with the meters at their mean, outside the "
        "band 90.00 % to 95.00 % (rtp_band)"]
    assert bonus_rtp_warnings(maryland(6, bonus=replace(wheel(), rtp_band=RtpBand(0.8, 0.9))))[
        0].startswith("bonus_spin: the $5 wager returns 91.15 %")


# --- JSON and rows ---------------------------------------------------------------------------

def test_check_json_bonus_spin() -> None:
    p = maryland(6)
    entry = check_json(p, "md.yaml")
    bonus = entry["wagers"]["bonus_spin"]
    f = bonus_spin_figures(p)
    assert f is not None
    assert {"trigger_probability", "rtp_fixed", "rtp_with_progressive", "rtp_at_reset",
            "by_denomination"} <= set(bonus)
    assert bonus["trigger_probability"] == 1 / 26
    assert bonus["denomination_cents"] == 500 and bonus["seats"] == 6
    assert bonus["rtp_fixed"] == float(f.of(500).rtp_fixed)
    assert bonus["rtp_with_progressive"] == float(f.of(500).rtp_with_progressive)
    assert bonus["rtp_at_reset"] == float(f.of(500).rtp_at_reset)
    assert set(bonus["by_denomination"]) == {"100", "500"}
    one = bonus["by_denomination"]["100"]
    assert one["rtp_with_progressive"] == float(f.of(100).rtp_with_progressive)
    assert one["primary_hit_probability"] == 1 / 18_720
    exact = entry["exact"]
    assert exact["bonus_spin.trigger_probability"] == "1/26"
    assert Fraction(exact["bonus_spin.500.rtp_fixed"]) == Fraction(115_477, 170_352)
    assert Fraction(exact["bonus_spin.100.rtp_with_progressive"]) == f.of(100).rtp_with_progressive
    json.dumps(entry)


def test_check_json_without_side_wagers() -> None:
    p = replace(maryland(6), bonus_spin=None, progressive_payout=None)
    entry = check_json(p, "md.yaml")
    assert entry["wagers"]["bonus_spin"] is None
    assert entry["wagers"]["progressive_payout"] is None
    assert not any(k.startswith(("bonus_spin.", "progressive_payout.")) for k in entry["exact"])
    assert side_wager_rows(p) == [] and bonus_rtp_warnings(p) == []
    assert bonus_spin_figures(p) is None


def test_side_wager_rows() -> None:
    rows = {label: (exact, shown) for label, exact, shown in side_wager_rows(maryland(6))}
    assert rows["Bonus Spin: trigger (designated dealer card)"] == ("1/26", "3.8462 %")
    assert rows["Bonus Spin: this seat is the Hot Spot (6 seats)"] == ("1/6", "16.6667 %")
    assert rows["Bonus Spin $5: RTP, fixed pays"] == ("115477/170352", "67.7873 %")
    assert rows["Bonus Spin $1: RTP, progressives at their mean (long run)"][1] == "89.5548 %"
    # the long run of the mix is a proven bracket: its bound in the "exact" column, and only
    # the decimals that bound vouches for (seven of the percentage for a bound near 2·10⁻¹⁰)
    bound, shown = rows["Bonus Spin $1: RTP, long run with half the wagers $1 (renewal–reward)"]
    assert bound.startswith("± ") and float(bound[2:]) <= 5e-10
    assert len(shown.removesuffix(" %").split(".")[1]) == 7
    assert rows["Progressive Payout: break-even meter"][1] == "$457,450"
    assert rows["Progressive Payout: Suited Four-of-a-Kind (War on every tie)"][0] == "2/993023"


# --- the simulation --------------------------------------------------------------------------

def test_simulated_trigger_and_wheel_agree_with_the_exact_figures() -> None:
    for seats in (6, 9):
        p = maryland(seats)
        f = bonus_spin_figures(p)
        assert f is not None
        result = simulate_side_wagers(p, 4_000_000, seed=26 + seats, chunk=1_000_000)
        assert result.trigger_probability is not None
        assert result.trigger_probability.contains(1 / 26), result.trigger_probability
        assert set(result.bonus_rtp_at_reset) == {100, 500}
        for cents, estimate in result.bonus_rtp_at_reset.items():
            assert estimate.contains(float(f.of(cents).rtp_at_reset)), (seats, cents, estimate)
