"""PROGRESSIVE PAYOUT: the hands, their odds and meter shares, the Envy Bonus, and the live
meter (MD Ch. 10 B-C, Ch. 9 J(4)(e)).
"""

from __future__ import annotations

from etg.core.paytable import Layout, PayoutHand, Paytable, ProgressiveLevel, ProgressivePayout
from etg.ui.help.model import Block, Callout, Chart, Heading, HelpPage, LiveMeter, Paragraph
from etg.ui.help.words import METER_RULE, meter_label, money, or_list

# (MD Ch. 10 B(1)-(6)); the amounts come from the paytable.
_HAND_CARDS = {
    PayoutHand.SUITED_FOUR_OF_A_KIND: "a tie, then a War tie: all four cards one rank and suit",
    PayoutHand.SUITED_DOUBLE_TIE: "a suited tie, then a suited War tie",
    PayoutHand.FOUR_OF_A_KIND: "a tie, then a War tie: all four cards one rank",
    PayoutHand.DOUBLE_TIE: "a tie, then a War tie",
    PayoutHand.SUITED_TIE: "a tie in the same suit",
    PayoutHand.TIE: "a tie",
}


def progressive_payout_page(p: Paytable, w: ProgressivePayout) -> HelpPage:
    where = "on a spot with an Initial Wager" if p.layout is Layout.COMMUNITY else (
        "with your Initial Wager")
    stake = money(w.wager_cents)
    rows: list[tuple[str, str, str, str]] = []
    for hand in PayoutHand:
        pay = w.pays.of(hand)
        meter = f" + {pay.meter_percent}% of meter" if pay.meter_percent else ""
        amount = money(w.wager_cents * pay.pays // pay.to) + _meter_share(pay.meter_percent)
        envy = w.envy_cents.of(hand)
        rows.append((hand.label.upper(), f"{pay.pays} to {pay.to}{meter}", amount,
                     money(envy) if envy else "–"))
    # MD Ch. 10 B(1)-(6): the hands and their odds; C(3): the Envy Bonus.
    chart = Chart(("HAND", "PAYS", f"ON {stake}", "ENVY BONUS"), tuple(rows),
                  ("left", "right", "right", "right"),
                  strong=tuple(i for i, h in enumerate(PayoutHand) if w.pays.of(h).meter_percent),
                  details=tuple(_HAND_CARDS[hand] for hand in PayoutHand))
    spot = "the spot's card" if p.layout is Layout.COMMUNITY else "your card"
    left: list[Block] = [
        Paragraph(f"Bet {stake} {where}. The hand is {spot} with the dealer's card, and after "
                  f"a War the two War cards as well. Only the highest hand pays."),
        chart,
        Paragraph("A Double Tie, and either Four-of-a-Kind, needs you to go to War on the "
                  "tie.", note=True),
    ]
    right: list[Block] = [
        Heading("THE METER"),
        LiveMeter(ProgressiveLevel.PROGRESSIVE_PAYOUT,
                  meter_label(p, ProgressiveLevel.PROGRESSIVE_PAYOUT),
                  f"resets to {money(w.meter.reset_cents)}"),
        Paragraph(METER_RULE + " Players are paid from the dealer's right.", note=True),
    ]
    envy_hands = [hand for hand in PayoutHand if w.envy_cents.of(hand)]
    if envy_hands:
        # MD Ch. 9 J(4)(e)(i)-(iii)
        amounts = or_list([f"{money(w.envy_cents.of(hand))} for each {hand.label}"
                           for hand in envy_hands])
        right.append(Callout("ENVY BONUS",
                             f"Every player with a Progressive Payout Wager wins {amounts} "
                             f"held by another player at the table; never for their own."))
    return HelpPage("PROGRESSIVE PAYOUT", "PROGRESSIVE", (tuple(left), tuple(right)),
                    widths=(66, 34))


def _meter_share(percent: int) -> str:
    """`` + meter`` for the whole meter, `` + 50%`` for a share, nothing for none."""
    if not percent:
        return ""
    return " + meter" if percent == 100 else f" + {percent}%"
