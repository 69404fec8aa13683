"""Progressive meters in integer cents: the carry, the ceiling and reserve, awards and resets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from etg.core.paytable import RATE_SCALE, Meter
from etg.core.progressive import Award, Contribution, MeterState, award, contribute

PRIMARY = Meter(1_000_000, 1_000_000, 0.015, None)


def test_a_fraction_of_a_cent_is_carried_not_lost() -> None:
    # $5 at 1.5 % is 7.5 cents: 7 on the meter, half a cent carried, then 8
    state, done = contribute(PRIMARY, MeterState(1_000_000), 500)
    assert (state, done) == (MeterState(1_000_007, 500_000), Contribution(7_500_000, 7, 0))
    state, done = contribute(PRIMARY, state, 500)
    assert (state, done) == (MeterState(1_000_015, 0), Contribution(7_500_000, 8, 0))


def test_contributions_over_the_ceiling_go_to_the_reserve() -> None:
    rules = Meter(1_000_000, 500_000, 0.5, 1_000_010)
    state, done = contribute(rules, MeterState(1_000_004), 25)  # 12.5 cents
    assert (state, done) == (MeterState(1_000_010, 500_000, 6), Contribution(12_500_000, 6, 6))


def test_a_full_award_resets_the_meter_topped_up_by_the_reserve() -> None:
    rules = Meter(1_000_000, 500_000, 0.5, 1_000_010)
    state, done = award(rules, MeterState(1_000_010, 300_000, 6), 100)
    assert (state, done) == (MeterState(500_006, 300_000, 0), Award(1_000_010, 500_000, 6))


def test_a_partial_award_leaves_the_rest_on_the_meter() -> None:
    state, done = award(PRIMARY, MeterState(2_000_003), 20)
    assert (state, done) == (MeterState(1_600_003), Award(400_000, 0, 0))


def test_a_partial_award_below_the_reset_restarts_at_the_reset() -> None:
    state, done = award(PRIMARY, MeterState(1_100_000), 20)
    assert (state, done) == (MeterState(1_000_000), Award(220_000, 120_000, 0))


meters = st.builds(
    lambda initial, reset, rate, ceiling: Meter(initial, reset, rate / RATE_SCALE,
                                                None if ceiling is None else
                                                max(initial, reset) + ceiling),
    st.integers(1_000_000, 2_000_000), st.integers(500_000, 1_500_000),
    st.integers(1, RATE_SCALE - 1), st.none() | st.integers(0, 5_000))
steps = st.lists(st.one_of(st.tuples(st.just("wager"), st.integers(1, 100_000)),
                           st.tuples(st.just("award"), st.sampled_from([20, 50, 100]))),
                 max_size=200)


@settings(max_examples=300, deadline=None)
@given(meters, steps)
def test_contributions_equal_meter_growth_plus_reserve_to_the_millionth(
    rules: Meter, script: list[tuple[str, int]]
) -> None:
    state = MeterState(rules.initial_cents)
    contributed = paid = seeded = 0
    for action, value in script:
        if action == "wager":
            state, done = contribute(rules, state, value)
            contributed += done.millionths
            assert done.millionths == value * rules.rate_millionths
        else:
            state, done_award = award(rules, state, value)
            paid += done_award.amount
            seeded += done_award.seeded
        growth = state.cents - rules.initial_cents + paid - seeded
        assert contributed == (growth + state.reserve_cents) * RATE_SCALE + state.carry
        assert 0 <= state.carry < RATE_SCALE
        if rules.ceiling_cents is not None:
            assert state.cents <= rules.ceiling_cents
        assert state.cents >= rules.reset_cents or (not paid and state.cents >= 0)


def test_after_a_partial_award_the_reserve_flows_back_up_to_the_ceiling() -> None:
    rules = Meter(1_000_000, 500_000, 0.5, 2_000_000)
    state, done = award(rules, MeterState(2_000_000, 0, 700_000), 20)
    # 400,000 paid; 1,600,000 remains; 400,000 of the reserve fills it back to the ceiling
    assert (state, done) == (MeterState(2_000_000, 0, 300_000), Award(400_000, 0, 400_000))
