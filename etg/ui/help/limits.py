"""TABLE LIMITS: the least and most of every wager, and the table's figures (MD Ch. 2 B(5)-(6),
Ch. 7 E: the spots one seat may play).
"""

from __future__ import annotations

from etg.core.paytable import Decision, Layout, PayoutLimitScope, Paytable
from etg.ui.help.model import Block, Chart, Heading, HelpPage, Paragraph
from etg.ui.help.words import denominations, money, or_list


def limits_page(p: Paytable) -> HelpPage:
    lim = p.limits
    community = p.layout is Layout.COMMUNITY
    per = "per spot" if community else "per hand"
    rows: list[tuple[str, ...]] = [
        (f"Initial Wager, {per}", money(lim.initial.min_cents), money(lim.initial.max_cents)),
        (f"Tie Wager, {per}", money(lim.tie.min_cents), money(lim.tie.max_cents)),
        ("War Wager", "equal to the Initial Wager"),
    ]
    if p.war_tie_wager:
        rows.append(("Tie Wager on the War", money(lim.tie.min_cents),
                     money(lim.tie.max_cents)))
    if p.progressive_payout is not None:
        cents = p.progressive_payout.wager_cents
        rows.append((f"Progressive Payout, {per}", money(cents), money(cents)))
    if p.bonus_spin is not None:
        d = p.bonus_spin.denominations_cents
        rows.append(("Bonus Spin Xtreme, per round", money(min(d)), money(max(d))))
    wagers = Chart(("WAGER", "MINIMUM", "MAXIMUM"), tuple(rows), ("left", "right", "right"))
    table: list[tuple[str, str]] = [("Game", p.name)]
    if community:
        table += [("Community spots", str(p.spots)), ("Seats", str(p.seats)),
                  ("Spots one seat may play", str(p.max_spots_per_seat))]
    else:
        table.append(("Seats", str(p.seats)))
    table += [
        ("Decks", f"{p.shoe.decks} ({p.shoe.cards} cards)"),
        ("Wagers in multiples of", money(p.unit_cents)),
        (_limit_label(p), money(p.payout_limit_rules.amount_cents)),
        ("Betting time", f"{p.timers.betting_s} seconds"),
        ("Time to choose War or Surrender", f"{p.timers.decision_s} seconds"),
        ("When time runs out", "Surrender" if p.default_decision is Decision.SURRENDER
         else "War, if credits allow"),
    ]
    if p.bonus_spin is not None:
        table.append(("Bonus Spin wager", or_list(denominations(p.bonus_spin))))
    left: list[Block] = [Heading("WAGERS"), wagers,
                         Paragraph("A Tie Wager is placed only with an Initial Wager on the same "
                                   "spot." if community else "A Tie Wager is placed only with "
                                   "an Initial Wager.", note=True)]
    right: list[Block] = [Heading("THE TABLE"), Chart(("", ""), tuple(table), ("left", "right"))]
    return HelpPage("TABLE LIMITS", "LIMITS", (tuple(left), tuple(right)), widths=(50, 50))


def _limit_label(p: Paytable) -> str:
    """What the posted limit caps, in the regulation's words where it is per hand."""
    if p.payout_limit_rules.scope is PayoutLimitScope.HAND:
        return "Payout limit per hand"  # MD Ch. 2 B(5)(b)
    return "Payout limit per seat per round"
