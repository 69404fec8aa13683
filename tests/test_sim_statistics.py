"""The engine-mode simulator agrees with the exact figures (SPEC §8, issue 2).

Fixed seeds make these deterministic; each figure must fall inside its 99 %
interval. A wrong payout or a biased shoe in the engine moves a figure out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.math.engine_sim import MAIN_FIGURES, compare, side_exact, simulate_engine
from etg.math.exact import main_game_figures
from etg.math.stats import Z99
from etg.math.vector_sim import simulate_main_game

PAYTABLES = shipped_config_dir() / "paytables"
FIGURES = MAIN_FIGURES


def exact(path: Path) -> dict[str, float | None]:
    figures = main_game_figures(load_paytable(path).paytable)
    return {name: (None if getattr(figures, name) is None else float(getattr(figures, name)))
            for name in FIGURES}


@pytest.mark.slow
def test_engine_sim_of_200000_rounds_agrees_with_the_exact_figures() -> None:
    path = PAYTABLES / "maryland-community-5.yaml"
    result = simulate_engine(load_paytable(path).paytable, 200_000, seed=2026)
    rows = compare(result, exact(path))
    assert [name for name, *_ in rows] == list(FIGURES)
    outside = [(name, value, e) for name, value, e, ok in rows if not ok]
    assert outside == []
    assert result.house_edge_war.half_width < 0.005  # the run is long enough to mean something
    # Issue 3: the trigger, each Progressive Payout Hand and the fixed side-wager returns
    side = compare(result, side_exact(load_paytable(path).paytable))
    assert {name for name, *_ in side} == set(side_exact(load_paytable(path).paytable))
    assert len(side) == 10
    assert [(name, value, e) for name, value, e, ok in side if not ok] == []
    assert result.side["hand_tie"].half_width < 0.002


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pennsylvania-2011.yaml", "south-dakota.yaml"])
def test_engine_sim_of_other_war_forms_agrees(name: str) -> None:
    path = PAYTABLES / name
    result = simulate_engine(load_paytable(path).paytable, 40_000, seed=7)
    assert [n for n, _, _, ok in compare(result, exact(path)) if not ok] == []


@pytest.mark.slow
def test_engine_and_vector_simulators_measure_the_same_game() -> None:
    # SPEC §8: the fast model is known to model the real game because the two agree.
    paytable = load_paytable(PAYTABLES / "maryland-community-7.yaml").paytable
    engine = simulate_engine(paytable, 60_000, seed=3)
    vector = simulate_main_game(paytable, 2_000_000, seed=3)
    for name in FIGURES:
        a, b = getattr(engine, name), getattr(vector, name)
        # two independent estimates of one value: their difference within 99 % of its spread
        spread = (a.half_width ** 2 + b.half_width ** 2) ** 0.5
        assert abs(a.mean - b.mean) <= spread, name


def test_engine_hit_frequencies_have_wilson_intervals() -> None:
    # 300 rounds see no Suited Four-of-a-Kind (2 in a million): the Wald interval would be
    # the point [0, 0]; the Wilson interval still reaches up to z² / (n + z²).
    paytable = load_paytable(PAYTABLES / "maryland-community-5.yaml").paytable
    result = simulate_engine(paytable, 300, seed=1)
    rare = result.side["hand_suited_four_of_a_kind"]
    spots = 300 * paytable.max_spots_per_seat
    assert (rare.mean, rare.low, rare.n) == (0.0, 0.0, spots)
    assert rare.high == pytest.approx(Z99**2 / (spots + Z99**2))
    trigger = result.side["trigger_probability"]
    assert trigger.n == 300 and 0.0 <= trigger.low < trigger.mean < trigger.high < 1.0
