"""PAYS: what each wager of the main game pays, the payout limit, and an example in money.

The example is settled by the engine's own rules (:func:`etg.math.exact.main_game_nets`
settles it through :mod:`etg.core.settle`), so what a player reads is what the
table pays; the payout limit is posted as MD Ch. 2 B(5)(b) and B(6) ask.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from etg.core.paytable import Layout, PayoutLimitScope, Paytable, WarForm
from etg.math.exact import main_game_nets
from etg.ui.help.model import Block, Chart, Heading, HelpPage, Paragraph
from etg.ui.help.words import money, odds, war_odds


def pays_page(p: Paytable) -> HelpPage:
    o = p.payouts
    war_win, war_tie = war_odds(p)
    rows: list[tuple[str, str, str]] = [
        ("Initial Wager", "beats the dealer's card", odds(o.initial)),
        ("Tie Wager", "ties the dealer's card", odds(o.tie)),
        ("War Wager", "War card beats the dealer's", war_win),
        ("Tie War", "War card ties the dealer's", war_tie),
    ]
    if p.war_tie_wager:
        rows.append(("Tie Wager on the War", "War card ties the dealer's", odds(o.tie)))
    rows.append(("Surrender", "ties and you Surrender", "half returned"))
    chart = Chart(("WAGER", "WINS WHEN YOUR CARD", "PAYS"), tuple(rows),
                  ("left", "left", "right"), strong=(1,))
    form_note = {
        WarForm.INITIAL_PUSHED: "When you win or tie the War, your Initial Wager is returned "
                                "and the War Wager is paid.",
        WarForm.INITIAL_FORFEITED: "Your Initial Wager is collected when you go to War; the "
                                   "War Wager is paid these odds.",
        WarForm.DEALER_MATCHED: "On a War the dealer matches your wager: War odds are paid on "
                                "your Initial and War Wagers together, and the Initial Wager "
                                "is returned.",
    }[p.war_form]
    left: list[Block] = [Heading("MAIN GAME"), chart, Paragraph(form_note, note=True),
                         Heading("PAYOUT LIMIT"), Paragraph(_limit_words(p))]
    stake = p.limits.initial.min_cents
    tie_stake = p.limits.tie.min_cents
    nets = main_game_nets(p)
    original = {o.value: net for o, net in nets.original.items()}
    war = {o.value: net for o, net in nets.war.items()}
    example: list[tuple[str, str]] = [
        ("Your card is higher", _gain(original["higher"] * stake)),
        ("Your card is lower", _gain(original["lower"] * stake)),
        ("A tie: you Surrender", _gain(nets.surrender * stake)),
        ("A tie: War, your card higher", _gain(war["higher"] * stake)),
        ("A tie: War, the cards tie", _gain(war["tie"] * stake)),
        ("A tie: War, your card lower", _gain(war["lower"] * stake)),
    ]
    right: list[Block] = [
        Heading(f"ON A {money(stake)} INITIAL WAGER"),
        Chart(("RESULT", "YOU WIN / LOSE"), tuple(example), ("left", "right")),
        Paragraph(f"A {money(tie_stake)} Tie Wager wins "
                  f"{money(int(nets.tie_win * tie_stake))} on a tie and loses "
                  f"{money(tie_stake)} otherwise. Winning wagers are returned with their "
                  f"winnings.", note=True),
    ]
    return HelpPage("PAYS", "PAYS", (tuple(left), tuple(right)), widths=(58, 42))


def _gain(cents: Fraction) -> str:
    """``+$5``, ``−$2.50`` (a true minus sign), ``$0`` for a push."""
    whole = int(cents)  # the stakes are chosen so that every result is whole cents
    if whole > 0:
        return "+" + money(whole)
    if whole < 0:
        return "−" + money(-whole)
    return money(0)


def _limit_words(p: Paytable) -> str:
    """The payout limit per hand (MD Ch. 2 B(5)(b), B(6)), and what is paid outside it."""
    rules = p.payout_limit_rules
    amount = money(rules.amount_cents)
    if rules.scope is PayoutLimitScope.HAND:
        hand = ("one seat's wagers on one spot" if p.layout is Layout.COMMUNITY
                else "your wagers on your card")
        words = f"The most one hand can win is {amount}; a hand is {hand}."
    else:
        words = f"The most one seat can win in a round is {amount}."
    meters = p.bonus_spin is not None or p.progressive_payout is not None
    side = [name for name, offered, counts in (
        ("Bonus Spin wins", p.bonus_spin is not None, rules.bonus_spin_inside),
        ("Envy Bonuses", p.progressive_payout is not None, rules.envy_bonus_inside))
        if offered and counts]
    outside = [name for name, offered, counts in (
        ("Bonus Spin wins", p.bonus_spin is not None, rules.bonus_spin_inside),
        ("Envy Bonuses", p.progressive_payout is not None, rules.envy_bonus_inside),
        ("progressive meter awards", meters, p.progressive_in_payout_limit))
        if offered and not counts]
    by_hand = rules.scope is PayoutLimitScope.HAND
    if side:
        words += (f" {_first_up(_and(side))} count toward the same limit, for each seat apart "
                  f"from its hands." if by_hand else f" {_first_up(_and(side))} count toward it.")
    if meters and p.progressive_in_payout_limit:
        words += (" Progressive meter awards count toward the limit of the hand or Bonus Spin "
                  "that wins them." if by_hand else " Progressive meter awards count toward it.")
    if outside:
        words += f" {_first_up(_and(outside))} are paid in full on top of it."
    return words


def _first_up(words: str) -> str:
    return words[:1].upper() + words[1:]


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
