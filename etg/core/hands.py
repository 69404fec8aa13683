"""Progressive Payout Hands (MD Ch. 7 F(3), Ch. 10 B; SPEC §4).

A hand is the spot's card with the dealer's card and, if the player went to
War on that spot, the two War cards as well. Only the highest hand pays.
"""

from __future__ import annotations

from etg.core.cards import Card
from etg.core.paytable import PayoutHand


def payout_hand(spot: Card, dealer: Card, war: tuple[Card, Card] | None) -> PayoutHand | None:
    """The highest Progressive Payout Hand, or None; ``war`` is (spot's, dealer's) War cards.

    A Double Tie, and so either Four-of-a-Kind, needs the War deal (SPEC §4).
    """
    if spot.rank != dealer.rank:
        return None
    suited = spot.suit is dealer.suit
    if war is not None and war[0].rank == war[1].rank:
        war_suited = war[0].suit is war[1].suit
        if war[0].rank == spot.rank:
            if suited and war_suited and war[0].suit is spot.suit:
                return PayoutHand.SUITED_FOUR_OF_A_KIND
            if suited and war_suited:
                return PayoutHand.SUITED_DOUBLE_TIE  # outranks a four-of-a-kind of mixed suits
            return PayoutHand.FOUR_OF_A_KIND
        if suited and war_suited:
            return PayoutHand.SUITED_DOUBLE_TIE
        return PayoutHand.DOUBLE_TIE
    return PayoutHand.SUITED_TIE if suited else PayoutHand.TIE
