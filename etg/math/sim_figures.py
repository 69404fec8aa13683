"""The whole-game simulation's figures: their keys, their names and their exact values.

Both simulators (:func:`etg.math.vector_full.simulate_full`,
:func:`etg.math.engine_sim.simulate_engine_full`) report figures under these
keys; :func:`exact_figures` gives the exact value of every key that has one
for a given paytable and :class:`~etg.math.sim_setup.TableSetup`, from
:mod:`etg.math.exact`, :mod:`etg.math.bonus` and :mod:`etg.math.progressive_payout`.

=====================================  ===============================================
key                                    figure
=====================================  ===============================================
``tie_probability``                    original tie, per spot dealt
``war_tie_probability``                War-deal tie, per spot given a War card
``house_edge_war`` / ``_surrender``    Initial (+ War) Wager, per unit Initial Wager
``tie_house_edge``                     Tie Wager on the original deal
``war_tie_wager_house_edge``           Tie Wager placed with the War Wager
``trigger_probability``                Bonus Spin trigger, per round
``hot_spot.SYMBOL``                    Hot Spot ring symbol, per spin
``bonus_spin.CENTS.rtp_fixed``         fixed pays per unit wagered
``bonus_spin.CENTS.rtp_at_reset``      meter awards valued at the reset amounts
``bonus_spin.CENTS.rtp``               with both meters evolving (long run)
``hand.HAND``                          Progressive Payout Hand, per spot of a War player
``progressive_payout.rtp_fixed``       odds and stake, per unit wagered
``progressive_payout.rtp_at_reset``    meter award valued at the reset amount
``progressive_payout.rtp``             with the meter evolving (long run)
``envy_bonus.rtp``                     Envy Bonus per unit of Progressive Payout Wager
``meter.LEVEL.at_award``               mean meter (cents) when an award is paid
=====================================  ===============================================

Long-run values and a mix of denominations
------------------------------------------
With a share ``mix`` of the Bonus Spin wagers in the smallest denomination and
the rest in the largest, both feed the same meters and each wins its own share
of them. The meters' long run for that mix (mean meter at an award, each
denomination's return) comes from :func:`etg.math.bonus.mix_long_run`:
renewal–reward, in closed form where every award is 100 % and there is no
ceiling, else the midpoint of a proven bracket between two Markov chains on
the meter and its reserve (:mod:`etg.math.longrun`).
The Progressive Payout figures assume War on every tie, so their returns are
given only when every holder of that wager goes to War, and the meter's long
run only while its ceiling is out of reach (:data:`CEILING_MARGIN` mean cycles
above the reset); the hand frequencies are measured on War players' spots and
are always given.
"""

from __future__ import annotations

from fractions import Fraction

from etg.core.paytable import RATE_SCALE, Decision, Meter, PayoutHand, Paytable, ProgressiveLevel
from etg.math.bonus import bonus_spin_figures, meter_rtp_error_of, meter_rtp_of, mix_long_run
from etg.math.exact import main_game_figures
from etg.math.progressive_payout import progressive_payout_figures
from etg.math.sim_setup import TableSetup, denominations

CEILING_MARGIN = 21  # mean contributions per award that a ceiling must stand above the reset

_MAIN_LABELS = {
    "tie_probability": "Tie on the original deal, per spot",
    "war_tie_probability": "Tie on the War deal, per spot going to War",
    "house_edge_war": "Initial Wager house edge, always going to War",
    "house_edge_surrender": "Initial Wager house edge, always surrendering",
    "tie_house_edge": "Tie Wager house edge",
    "war_tie_wager_house_edge": "Tie Wager on the War deal house edge",
    "trigger_probability": "Bonus Spin Xtreme trigger (designated dealer card), per round",
    "progressive_payout.rtp_fixed": "Progressive Payout Wager return, odds only",
    "progressive_payout.rtp_at_reset": "Progressive Payout Wager return, meter at reset",
    "progressive_payout.rtp": "Progressive Payout Wager return, meter evolving",
    "envy_bonus.rtp": "Envy Bonus, per unit of Progressive Payout Wager",
}
_LEVEL_LABELS = {
    ProgressiveLevel.PRIMARY: "primary progressive",
    ProgressiveLevel.SECONDARY: "secondary progressive",
    ProgressiveLevel.PROGRESSIVE_PAYOUT: "Progressive Payout meter",
}


def figure_label(key: str) -> str:
    """The figure of ``key`` in the regulations' words, e.g. "Tie Wager house edge"."""
    if key in _MAIN_LABELS:
        return _MAIN_LABELS[key]
    head, _, rest = key.partition(".")
    if head == "hot_spot":
        return f"Hot Spot ring: {rest}, per spin"
    if head == "hand":
        return f"Progressive Payout Hand: {PayoutHand(rest).label}, per spot"
    if head == "meter":
        level = ProgressiveLevel(rest.partition(".")[0])
        return f"Mean {_LEVEL_LABELS[level]} at an award (cents)"
    if head == "bonus_spin":
        cents, _, what = rest.partition(".")
        amount = f"${int(cents) / 100:,.2f}".replace(".00", "")
        kind = {"rtp_fixed": "fixed pays", "rtp_at_reset": "meters at reset",
                "rtp": "meters evolving"}[what]
        return f"Bonus Spin Xtreme {amount} wager return, {kind}"
    return key


def exact_figures(paytable: Paytable, setup: TableSetup) -> dict[str, Fraction]:
    """The exact value of every key that has one for this paytable and table.

    A figure of the meters' long run under a $1 / $5 mix is the midpoint of a
    proven bracket; :func:`bounded_figures` gives its bound too.
    """
    return {key: value for key, (value, _error) in bounded_figures(paytable, setup).items()}


def bounded_figures(paytable: Paytable,
                    setup: TableSetup) -> dict[str, tuple[Fraction, Fraction]]:
    """:func:`exact_figures` with each figure's proven bound (0 where it is exact)."""
    zero = Fraction(0)
    out = {key: (value, zero) for key, value in _main_exact(paytable, setup).items()}
    if setup.bonus_spin:
        out.update(_bonus_exact(paytable, setup))
    if setup.payout_cents:
        out.update((key, (value, zero)) for key, value in _payout_exact(paytable, setup).items())
    return out


def _main_exact(paytable: Paytable, setup: TableSetup) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    main = main_game_figures(paytable)
    out["tie_probability"] = main.tie_probability
    if setup.decides(Decision.WAR):
        out["war_tie_probability"] = main.war_tie_probability
        out["house_edge_war"] = main.house_edge_war
        if setup.war_tie_cents and main.war_tie_wager_house_edge is not None:
            out["war_tie_wager_house_edge"] = main.war_tie_wager_house_edge
    if setup.decides(Decision.SURRENDER):
        out["house_edge_surrender"] = main.house_edge_surrender
    if setup.tie_cents:
        out["tie_house_edge"] = main.tie_house_edge
    return out


def _bonus_exact(paytable: Paytable,
                 setup: TableSetup) -> dict[str, tuple[Fraction, Fraction]]:
    bonus = paytable.bonus_spin
    figures = bonus_spin_figures(paytable)
    if bonus is None or figures is None:
        return {}
    zero = Fraction(0)
    out: dict[str, tuple[Fraction, Fraction]] = {
        "trigger_probability": (figures.trigger_probability, zero)}
    ring = sum(s.weight for s in bonus.hot_spot_ring)
    for segment in bonus.hot_spot_ring:
        key = f"hot_spot.{segment.symbol}"
        out[key] = (out.get(key, (zero, zero))[0] + Fraction(segment.weight, ring), zero)
    small, large = denominations(paytable)
    share = setup.mix if small != large else Fraction(1)
    # The meters' long run for this mix: renewal-reward, exact or bracketed (etg.math.longrun)
    meters = mix_long_run(paytable, share)
    for level, meter in meters.items():
        out[f"meter.{level.value}.at_award"] = (meter.mean_meter_at_hit_cents,
                                                meter.errors.meter_cents)
    for cents, part in ((small, share), (large, 1 - share)):
        if not part:
            continue
        d = figures.of(cents)
        out[f"bonus_spin.{cents}.rtp_fixed"] = (d.rtp_fixed, zero)
        out[f"bonus_spin.{cents}.rtp_at_reset"] = (d.rtp_at_reset, zero)
        out[f"bonus_spin.{cents}.rtp"] = (
            d.rtp_fixed + sum((meter_rtp_of(m, cents) for m in meters.values()), zero),
            sum((meter_rtp_error_of(m, cents) for m in meters.values()), zero))
    return out


def _payout_exact(paytable: Paytable, setup: TableSetup) -> dict[str, Fraction]:
    figures = progressive_payout_figures(paytable)
    if figures is None:
        return {}
    out: dict[str, Fraction] = {}
    if setup.decides(Decision.WAR):
        out.update((f"hand.{hand.value}", p) for hand, p in figures.hands.items())
    if setup.decides(Decision.SURRENDER):
        return out  # the returns assume War on every tie
    out["progressive_payout.rtp_fixed"] = figures.rtp_fixed
    out["progressive_payout.rtp_at_reset"] = figures.rtp_at_reset
    # MD Ch. 9 J(4)(e): each holding seat, once, for every qualifying hand of another seat's
    # wager: over all T wagers of H seats that is Σ (T − own wagers) = (H − 1) · T hands
    holders = sum(1 for s in setup.seats if s.spots)
    out["envy_bonus.rtp"] = figures.envy_rtp_per_other * (holders - 1)
    meter = figures.meter
    rules = paytable.progressive_payout.meter if paytable.progressive_payout else None
    if rules is not None and meter.hit_probability and _ceiling_out_of_reach(
            rules, meter.mean_contribution_per_award_cents):
        out["progressive_payout.rtp"] = figures.rtp_long_run
        out["meter.progressive_payout.at_award"] = meter.mean_meter_at_award_cents
    return out


def _rate(rules: Meter) -> Fraction:
    return Fraction(rules.rate_millionths, RATE_SCALE)


def _ceiling_out_of_reach(rules: Meter, mu: Fraction) -> bool:
    """No ceiling, or one at least :data:`CEILING_MARGIN` mean cycles above the reset."""
    return rules.ceiling_cents is None or rules.ceiling_cents - rules.reset_cents >= (
        CEILING_MARGIN * mu)
