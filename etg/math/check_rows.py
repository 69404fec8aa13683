"""The rows of ``etg paytable check`` for the side wagers: Bonus Spin and Progressive Payout.

Apart from :mod:`etg.math.exact` because they draw on the decision policies
(:mod:`etg.math.policies`), which build on :mod:`etg.math.exact`'s own nets.
"""

from __future__ import annotations

from fractions import Fraction

from etg.core.money import format_cents
from etg.core.paytable import Paytable
from etg.math.bonus import bonus_spin_figures, bounded_rtp_long_run_of_mix
from etg.math.exact import CHECK_MIX, format_fraction_percent, fraction_text
from etg.math.policies import Policy, payout_policies
from etg.math.precision import bounded_percent, error_text
from etg.math.progressive_payout import progressive_payout_figures


def side_wager_rows(paytable: Paytable) -> list[tuple[str, str, str]]:
    """(label, exact, percent or amount) rows of the Bonus Spin and Progressive Payout figures.

    Empty when the paytable offers neither; printed after :func:`figure_rows`.
    Hand probabilities assume War on every tie (:mod:`etg.math.progressive_payout`);
    long-run RTPs take the meters at their mean with every wager of that kind
    and denomination (:mod:`etg.math.bonus`). The long run of the mix is not
    a Fraction but a proven bracket: its "exact" column gives the bound and
    its percentage only the digits that bound vouches for.
    """
    rows: list[tuple[str, str, str]] = []

    def row(label: str, value: Fraction) -> None:
        rows.append((label, fraction_text(value), format_fraction_percent(value)))

    bonus = bonus_spin_figures(paytable)
    mixed = bounded_rtp_long_run_of_mix(paytable, CHECK_MIX)
    if bonus is not None:
        row("Bonus Spin: trigger (designated dealer card)", bonus.trigger_probability)
        row(f"Bonus Spin: this seat is the Hot Spot ({bonus.seats} seats)",
            bonus.hot_spot_probability)
        for d in bonus.denominations:
            name = f"Bonus Spin {format_cents(d.wager_cents, whole_dollars=True)}"
            row(f"{name}: RTP, fixed pays", d.rtp_fixed)
            row(f"{name}: RTP, progressives at reset", d.rtp_at_reset)
            row(f"{name}: RTP, progressives at their mean (long run)", d.rtp_with_progressive)
            value, error = mixed[d.wager_cents]
            rows.append((f"{name}: RTP, long run with half the wagers $1 (renewal–reward)",
                         fraction_text(value) if not error else error_text(error),
                         bounded_percent(value, error)))
    payout = progressive_payout_figures(paytable)
    if payout is not None:
        for hand, p in payout.hands.items():
            row(f"Progressive Payout: {hand.label} (War on every tie)", p)
        row("Progressive Payout: RTP, meter at reset", payout.rtp_at_reset)
        policies = payout_policies(paytable)
        if policies is not None:
            for policy in (Policy.SURRENDER, Policy.BEST):
                row(f"Progressive Payout: RTP, meter at reset, {policy.label}",
                    policies.of(policy).rtp_at_reset)
        row("Progressive Payout: RTP, meter at its mean (long run)", payout.rtp_long_run)
        row("Progressive Payout: Envy Bonus RTP per other seat's wager",
            payout.envy_rtp_per_other)
        if payout.break_even_meter is not None and payout.break_even_meter_cents is not None:
            rows.append(("Progressive Payout: break-even meter",
                         fraction_text(payout.break_even_meter),
                         format_cents(payout.break_even_meter_cents, whole_dollars=True)))
    return rows
