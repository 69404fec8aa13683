"""Engine mode and vector mode measure the same whole game (SPEC §8, issue 15 item 3).

Both simulators play the same table (:func:`etg.math.sim_setup.standard_setup`:
six seats, every wager, always War, a mix of $1 and $5 Bonus Spin wagers) and
report the same figure keys. Every figure with an exact value must lie, in
each simulator, inside its 99 % interval; every other figure (a meter running
into its ceiling has no exact long-run value) must agree between the two
within the spread of their difference. The engine is slow, so the paytables
here make the rare events common — many trigger cards, a Hot Spot ring half
progressive, a meter paid on the Suited Tie, Envy Bonuses on Double and Suited
Ties — so that a few thousand engine rounds see hundreds of meter awards.
Fixed seeds make every run the same.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest

from etg.core.cards import Colour
from etg.core.paytable import (
    Decision,
    DesignatedCard,
    EnvyPays,
    HandPay,
    HandPays,
    Meter,
    Paytable,
    ProgressiveLevel,
    WheelSegment,
)
from etg.math.agreement import AgreementRow, agreement_rows, sim_agreement
from etg.math.engine_sim import agrees, simulate_engine_full
from etg.math.parsheet.html import exact_cell
from etg.math.sim_figures import exact_figures, figure_label
from etg.math.sim_setup import standard_setup
from etg.math.stats import Estimate
from etg.math.vector_full import FullSimResult, simulate_full
from tests import tables

P = ProgressiveLevel


def frequent(secondary_ceiling: int | None = None) -> Paytable:
    """Maryland Paytable A with its rare events made common (not a legal paytable)."""
    trigger = tuple(DesignatedCard(rank, colour) for rank in ("A", "K", "Q")
                    for colour in Colour)  # 12 faces in 52
    ring = (
        WheelSegment("JACKPOT", 10, progressive=P.PRIMARY, meter_percent=(50, 100)),
        WheelSegment("MINI JACKPOT", 10, progressive=P.SECONDARY, meter_percent=(20, 100)),
        WheelSegment("$200", 20, (4000, 20000)),
    )
    # with a ceiling, a rate that reaches it within a few awards
    secondary = (Meter(600_000, 500_000, 0.005, None) if secondary_ceiling is None
                 else Meter(500_000, 500_000, 0.05, secondary_ceiling))
    bonus = replace(tables.BONUS_SPIN, trigger=trigger, hot_spot_ring=ring,
                    secondary=secondary)
    payout = replace(
        tables.PROGRESSIVE_PAYOUT,
        # no large pay on the Suited Four-of-a-Kind (2 in a million): a few thousand rounds
        # could not measure a return it carried
        pays=HandPays(HandPay(200, 1, 100), HandPay(200), HandPay(150), HandPay(30),
                      HandPay(15, 1, 100), HandPay(5)),
        envy_cents=EnvyPays(double_tie=500, suited_tie=100),
        meter=Meter(100_000, 100_000, 0.05, None))
    return tables.maryland_bonus(5, bonus_spin=bonus, progressive_payout=payout)


def both_agree(paytable: Paytable, engine: FullSimResult, vector: FullSimResult,
               mix: Fraction) -> list[str]:
    """The figures on which the two simulators disagree (empty: they agree on all)."""
    exact = exact_figures(paytable, standard_setup(paytable, mix))
    bad: list[str] = []
    for key in sorted(engine.figures):
        a, b = engine.figures[key], vector.figures[key]
        if key in exact:
            value = float(exact[key])
            if not (agrees(a, value) and agrees(b, value)):
                bad.append(f"{key}: exact {value}, engine {a}, vector {b}")
        elif abs(a.mean - b.mean) > math.hypot(a.half_width, b.half_width):
            bad.append(f"{key}: engine {a}, vector {b}")
    return bad


@pytest.mark.slow
def test_engine_and_vector_agree_on_every_figure_with_every_wager() -> None:
    paytable = frequent()
    mix = Fraction(1, 2)
    setup = standard_setup(paytable, mix)
    engine = simulate_engine_full(paytable, 6_000, seed=11, setup=setup)
    vector = simulate_full(paytable, 300_000, seed=11, setup=setup)
    assert set(engine.figures) == set(vector.figures)  # each measures every figure of the other
    exact = exact_figures(paytable, setup)
    assert set(exact) <= set(engine.figures)  # and every exact figure is measured
    assert len(exact) == 28  # 5 main game, 12 Bonus Spin, 11 Progressive Payout
    assert both_agree(paytable, engine, vector, mix) == []
    for level in P:  # the meters really evolved: hundreds of awards in each mode
        assert engine.awards[level] > 100 and vector.awards[level] > 5_000, level


@pytest.mark.slow
def test_engine_and_vector_agree_with_a_meter_at_its_ceiling() -> None:
    # The secondary meter overflows into its reserve between awards: its long run comes from
    # the Markov chain on meter and reserve (etg.math.longrun), and both simulators must agree.
    paytable = frequent(secondary_ceiling=501_000)
    mix = Fraction(1, 3)
    setup = standard_setup(paytable, mix)
    engine = simulate_engine_full(paytable, 4_000, seed=5, setup=setup)
    vector = simulate_full(paytable, 300_000, seed=5, setup=setup)
    exact = exact_figures(paytable, setup)
    assert "meter.secondary.at_award" in exact and "bonus_spin.100.rtp" in exact
    assert set(engine.figures) == set(vector.figures)
    assert both_agree(paytable, engine, vector, mix) == []
    # the meter stood at its ceiling at many awards: the reserve refilled it after each
    secondary = vector.figures["meter.secondary.at_award"]
    assert 500_500 < secondary.mean <= 501_000


@pytest.mark.slow
@pytest.mark.parametrize(("paytable", "decision"), [
    (tables.pennsylvania_2011(), Decision.WAR),  # Initial forfeited, War 2:1 / 3:1
    (tables.pennsylvania_2011(), Decision.SURRENDER),
    (tables.south_dakota(), Decision.WAR),  # the dealer matches the Initial Wager
], ids=["pa2011-war", "pa2011-surrender", "sd-war"])
def test_engine_and_vector_agree_per_seat(paytable: Paytable, decision: Decision) -> None:
    setup = standard_setup(paytable, decision=decision)
    engine = simulate_engine_full(paytable, 3_000, seed=2, setup=setup)
    vector = simulate_full(paytable, 500_000, seed=2, setup=setup)
    assert set(engine.figures) == set(vector.figures)
    assert both_agree(paytable, engine, vector, setup.mix) == []
    edge = "house_edge_war" if decision is Decision.WAR else "house_edge_surrender"
    assert edge in engine.figures


def test_sim_agreement_rows_on_the_maryland_paytable() -> None:
    paytable = tables.maryland_bonus(5)
    rows = sim_agreement(paytable, 400_000, seed=3)
    names = [row.name for row in rows]
    assert names[:2] == ["Tie on the original deal, per spot",
                         "Tie on the War deal, per spot going to War"]
    assert "Tie Wager house edge" in names
    assert "Progressive Payout Hand: Suited Four-of-a-Kind, per spot" in names
    assert "Bonus Spin Xtreme $1 wager return, meters evolving" in names
    assert all(row.agrees for row in rows), [r for r in rows if not r.agrees]
    by_name = {row.name: row for row in rows}
    trigger = by_name["Bonus Spin Xtreme trigger (designated dealer card), per round"]
    assert trigger.exact == 1 / 26
    assert trigger.estimate.n == 400_000


def test_sim_agreement_with_only_five_dollar_wagers() -> None:
    paytable = tables.maryland_bonus(5)
    rows = sim_agreement(paytable, 20_000, seed=1, mix=Fraction(0))
    names = {row.name for row in rows}
    assert not any("$1 wager" in name for name in names)
    assert "Bonus Spin Xtreme $5 wager return, fixed pays" in names


def test_agreement_rows_say_which_figures_disagree() -> None:
    paytable = tables.maryland(5)
    setup = standard_setup(paytable)
    wrong = FullSimResult(10, 1.0, {"tie_probability": Estimate(0.5, 0.4, 0.6, 10)})
    rows = agreement_rows(paytable, setup, wrong)
    exact = float(exact_figures(paytable, setup)["tie_probability"])
    assert rows == [AgreementRow(figure_label("tie_probability"), exact,
                                 Estimate(0.5, 0.4, 0.6, 10), False)]


def test_an_agreement_row_carries_the_bound_of_a_long_run_figure() -> None:
    """The meters' long run under a mix is bounded, not exact: its row says by how much.

    The par sheet then prints the primary meter at an award with the cents
    its bound (a few thousandths of a cent) vouches for, not six decimals.
    """
    paytable = tables.maryland_bonus(7)
    setup = standard_setup(paytable, Fraction(1, 2))
    measured = {"meter.primary.at_award": Estimate(1_100_000.0, 1_050_000.0, 1_150_000.0, 40),
                "tie_probability": Estimate(0.07, 0.06, 0.08, 10)}
    rows = {row.name: row for row in agreement_rows(paytable, setup,
                                                    FullSimResult(10, 1.0, measured))}
    meter = rows[figure_label("meter.primary.at_award")]
    assert 0 < meter.exact_error < 0.005
    assert rows[figure_label("tie_probability")].exact_error == 0.0
    text = exact_cell(meter.exact, meter.exact_error)
    assert len(text.split(".")[1]) == 2  # to the cent: ± 0.002¢ vouches for no more
