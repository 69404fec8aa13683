"""Settlement of the side wagers after the main game (SPEC §2 step 8).

First the Progressive Payout Wagers, seat by seat from the dealer's right
(MD Ch. 9 J(3)-(4)), each with its Envy Bonus to the others; then the Bonus
Spin Xtreme, whose wagers are always collected and whose wins are amounts
(MD Ch. 7 F(4), Ch. 10 D-E; SPEC §3).
"""

from __future__ import annotations

from functools import lru_cache

from etg.core.cards import Card, Colour, Rank
from etg.core.cashier import Cashier
from etg.core.events import EnvyBonus, PayoutHandMade, WheelStopped
from etg.core.hands import payout_hand
from etg.core.paytable import BonusSpin, Decision, DesignatedCard, PayoutHand, ProgressiveLevel
from etg.core.settle import Payment, Result, WagerKind, lost, won
from etg.core.wheel import WheelStops

_PROGRESSIVE_PAYOUT, _BONUS_SPIN = WagerKind.PROGRESSIVE_PAYOUT, WagerKind.BONUS_SPIN


def settle_progressive_payouts(cashier: Cashier) -> None:
    """Pay each Progressive Payout Hand, then the Envy Bonuses it earns the other seats."""
    s = cashier.s
    rules = s.paytable.progressive_payout
    r = s.round
    if rules is None or r.dealer_card is None:
        return
    holders: list[int] = []
    qualifying: list[tuple[int, int, PayoutHand]] = []
    for seat, spot, _ in cashier.hands():  # seat by seat in settlement order, spot by spot
        w = cashier.wager(seat, spot)
        stake = w.progressive_payout
        if not stake:
            continue
        if seat not in holders:
            holders.append(seat)
        card = r.spot_cards[spot - 1]
        assert card is not None
        war = _war_cards(r.war_cards[spot - 1], r.dealer_war_card, w.decision)
        hand = payout_hand(card, r.dealer_card, war)
        if hand is None:
            cashier.collect(seat, spot, lost(_PROGRESSIVE_PAYOUT, stake))
            continue
        cashier.events.record(PayoutHandMade, seat, spot, hand)
        pay = rules.pays.of(hand)
        # MD Ch. 9 J(4)(c)-(d): a hand that wins the progressive payout is paid whole,
        # its odds with its meter, once validated
        held_before, cashier.hold_all = cashier.hold_all, bool(pay.meter_percent)
        cashier.pay(seat, spot, [won(WagerKind.PROGRESSIVE_PAYOUT, stake,
                                     stake * pay.pays // pay.to)])
        if pay.meter_percent:
            cashier.award(ProgressiveLevel.PROGRESSIVE_PAYOUT, seat, spot, pay.meter_percent)
        cashier.hold_all = held_before
        if rules.envy_cents.of(hand):
            qualifying.append((seat, spot, hand))
    # MD Ch. 9 J(4)(e)(i)-(iii): one Envy Bonus per qualifying hand of another seat, paid
    # after the hand: when a jackpot lock holds the hand, it holds the Envy Bonuses too
    held_before, cashier.hold_all = cashier.hold_all, bool(cashier.held)
    for seat in holders:
        for holder, spot, hand in qualifying:
            if holder != seat:
                cashier.events.record(EnvyBonus, seat, holder, spot, hand)
                cashier.pay(seat, 0, [Payment(WagerKind.ENVY_BONUS, Result.WON, 0, 0,
                                              rules.envy_cents.of(hand))])
    cashier.hold_all = held_before


def triggers(bonus: BonusSpin, card: Card) -> bool:
    """The dealer's original card is a designated rank-and-colour card (MD Ch. 7 F(4))."""
    return (card.rank, card.colour) in _designated(bonus.trigger)


@lru_cache(maxsize=16)
def _designated(trigger: tuple[DesignatedCard, ...]) -> frozenset[tuple[Rank, Colour]]:
    """The designated cards' ranks parsed once per paytable, not at every round's end."""
    return frozenset((Rank.parse(d.rank), d.colour) for d in trigger)


def collect_bonus_spin(cashier: Cashier) -> None:
    """No trigger: every Bonus Spin wager is collected."""
    bonus = cashier.bonus
    for seat in cashier.s.settlement_seats:
        if bonus[seat - 1]:
            cashier.collect(seat, 0, lost(_BONUS_SPIN, bonus[seat - 1]))


def settle_spin(cashier: Cashier, stops: WheelStops) -> None:
    """Pay the wheel: the Community Pay to every wagering seat, the Hot Spot Pay to one.

    Each wager is collected and its wins are paid as amounts ("for one"). The
    Hot Spot seat is paid only if it holds the wager, so a wager's return never
    depends on how many others play (SPEC §3).
    """
    bonus = cashier.s.paytable.bonus_spin
    assert bonus is not None
    community = bonus.community_ring[stops.community]
    hot_spot = bonus.hot_spot_ring[stops.hot_spot]
    cashier.events.record(WheelStopped, stops, community.symbol, hot_spot.symbol)
    for seat in cashier.s.settlement_seats:
        stake = cashier.bonus[seat - 1]
        if not stake:
            continue
        column = bonus.column(stake)
        hot = seat == stops.seat
        amount = community.pay_cents(column) + (hot_spot.pay_cents(column) if hot else 0)
        cashier.pay(seat, 0, [Payment(WagerKind.BONUS_SPIN, Result.WON, stake, 0, amount)])
        if hot and hot_spot.progressive is not None and hot_spot.meter_percent is not None:
            cashier.award(hot_spot.progressive, seat, 0, hot_spot.meter_percent[column])


def _war_cards(spot: Card | None, dealer: Card | None,
               decision: Decision | None) -> tuple[Card, Card] | None:
    """The War cards count only for a seat that went to War on that spot (SPEC §4)."""
    if decision is Decision.WAR and spot is not None and dealer is not None:
        return spot, dealer
    return None
