"""Every wager's return to player, and the paytables refused for it (issue 26, item 2).

A wager that returns 100 % or more of what is staked on it pays players more
than they stake in the long run: no regulator approves it, and a typo (Tie
30 to 1, Initial 3 to 1) can make one. So ``etg paytable check`` and the
kiosk's start compute each wager's exact return at the player's best strategy,
from the same figures as the par sheet (nothing is recomputed here):

- the Initial Wager with its War Wager, deciding each tie by its rank for the
  larger return (:mod:`etg.math.policies`, ``Policy.BEST``);
- the Tie Wager, and the Tie Wager placed with the War Wager;
- each Bonus Spin denomination with its meters at reset and at their mean
  (:mod:`etg.math.bonus`);
- the Progressive Payout Wager with its meter at reset under the best decision,
  and at its mean going to War on every tie (:mod:`etg.math.progressive_payout`,
  the par sheet's long-run figure).

A return of 100 % or more is refused; a cabinet may also set a band
(``return_band`` in ``cabinet.yaml``) that every return must lie in, and a
return outside it is refused as well, not warned about.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from etg.core.money import format_cents
from etg.core.paytable import Paytable, Violation
from etg.math.bonus import bonus_spin_figures
from etg.math.exact import format_fraction_percent, main_game_figures
from etg.math.policies import Policy, main_policies, payout_policies
from etg.math.progressive_payout import progressive_payout_figures

Band = tuple[Fraction, Fraction]
"""The lowest and highest return an operator allows, as shares (0.75, 0.98)."""


@dataclass(frozen=True, slots=True)
class WagerReturn:
    """One wager's exact return per unit staked (stake included), and where it is written."""

    path: tuple[str | int, ...]
    label: str
    rtp: Fraction


def wager_returns(paytable: Paytable) -> list[WagerReturn]:
    """Every wager of ``paytable`` with its return at the player's best strategy."""
    figures = main_game_figures(paytable)
    best = main_policies(paytable).of(Policy.BEST)
    out = [
        WagerReturn(("payouts",), "the Initial Wager (with its War Wager, best decision)",
                    1 - best.house_edge),
        WagerReturn(("payouts", "tie"), "the Tie Wager", 1 - figures.tie_house_edge),
    ]
    if figures.war_tie_wager_house_edge is not None:
        out.append(WagerReturn(("war_tie_wager",), "the Tie Wager on the War deal",
                               1 - figures.war_tie_wager_house_edge))
    bonus = bonus_spin_figures(paytable)
    for d in bonus.denominations if bonus is not None else ():
        name = f"the {format_cents(d.wager_cents, whole_dollars=True)} Bonus Spin wager"
        out += [WagerReturn(("bonus_spin",), f"{name} (meters at reset)", d.rtp_at_reset),
                WagerReturn(("bonus_spin",), f"{name} (meters at their mean)",
                            d.rtp_with_progressive)]
    payout = progressive_payout_figures(paytable)
    policies = payout_policies(paytable)
    if payout is not None and policies is not None:
        out += [WagerReturn(("progressive_payout",), "the Progressive Payout Wager (meter at "
                                                     "reset, best decision)",
                            policies.of(Policy.BEST).rtp_at_reset),
                WagerReturn(("progressive_payout",), "the Progressive Payout Wager (meter at "
                                                     "its mean)", payout.rtp_long_run)]
    return out


def return_violations(paytable: Paytable, band: Band | None = None) -> list[Violation]:
    """A violation for each wager returning 100 % or more, or outside ``band``."""
    out: list[Violation] = []
    for wager in wager_returns(paytable):
        shown = format_fraction_percent(wager.rtp, 2)
        if wager.rtp >= 1:
            out.append(Violation(wager.path, f"{wager.label} returns {shown}: it pays players "
                                             f"more than they stake; every wager must return "
                                             f"less than 100 %"))
        elif band is not None and not band[0] <= wager.rtp <= band[1]:
            low, high = (format_fraction_percent(bound, 2) for bound in band)
            out.append(Violation(wager.path, f"{wager.label} returns {shown}, outside the "
                                             f"cabinet's return_band {low} to {high}"))
    return out
