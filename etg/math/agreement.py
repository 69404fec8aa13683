"""Simulation against the exact figures: one row per figure, with its 99 % interval.

:func:`sim_agreement` plays the whole game in the vectorised simulator
(:func:`etg.math.vector_full.simulate_full`) and sets each measured figure
beside its exact value (:func:`etg.math.sim_figures.bounded_figures`). A row
*agrees* when the exact value lies inside the measured 99 % interval, or the
event is too rare to have been seen yet (:func:`etg.math.engine_sim.agrees`).
The par sheet prints these rows as its simulation check (SPEC §8), and
:func:`engine_agreement`'s as its engine cross-check: the same figures played
through the real state machine over worker processes
(:func:`etg.math.engine_sim.simulate_engine_full`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from etg.core.paytable import Paytable
from etg.math.engine_sim import agrees, simulate_engine_full
from etg.math.sim_figures import bounded_figures, figure_label
from etg.math.sim_setup import TableSetup, standard_setup
from etg.math.stats import Estimate
from etg.math.vector_full import FullSimResult, simulate_full


@dataclass(frozen=True)
class AgreementRow:
    """One figure: its exact value, the simulated estimate, and whether they agree at 99 %."""

    name: str  # the figure, in the regulations' words ("Tie Wager house edge", ...)
    exact: float
    estimate: Estimate  # from etg.math.stats: mean, low, high (99 %)
    agrees: bool
    exact_error: float = 0.0  # the exact figure's proven bound (0: exact; the meters' long run)


def sim_agreement(paytable: Paytable, rounds: int, seed: int = 0,
                  mix: Fraction | None = None) -> list[AgreementRow]:
    """Every figure of ``paytable`` that has an exact value, simulated over ``rounds`` rounds.

    The table is :func:`etg.math.sim_setup.standard_setup`: every seat plays
    every wager offered and goes to War on every tie; ``mix`` is the share of
    $1 (smallest) Bonus Spin wagers, None for one half. Rows come in the order
    of :func:`~etg.math.sim_figures.exact_figures`: main game, Tie Wagers,
    Bonus Spin, Progressive Payout.
    """
    setup = standard_setup(paytable, mix)
    return agreement_rows(paytable, setup, simulate_full(paytable, rounds, seed, setup))


def engine_agreement(paytable: Paytable, rounds: int, seed: int = 0,
                     mix: Fraction | None = None, jobs: int = 1) -> list[AgreementRow]:
    """:func:`sim_agreement`'s rows played by the engine itself, over ``jobs`` processes."""
    setup = standard_setup(paytable, mix)
    return agreement_rows(paytable, setup,
                          simulate_engine_full(paytable, rounds, seed, setup, jobs=jobs))


def agreement_rows(paytable: Paytable, setup: TableSetup,
                   result: FullSimResult) -> list[AgreementRow]:
    """The rows of :func:`sim_agreement` for a result already simulated on ``setup``."""
    rows: list[AgreementRow] = []
    for key, (value, error) in bounded_figures(paytable, setup).items():
        estimate = result.figures.get(key)
        if estimate is None:
            continue  # not measured: e.g. no meter award in a short run
        exact = float(value)
        rows.append(AgreementRow(figure_label(key), exact, estimate, agrees(estimate, exact),
                                 float(error)))
    return rows
