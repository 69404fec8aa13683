"""The Progressive Payout Wager and its Envy Bonus, in exact cents.

MD Ch. 7 F(3), Ch. 9 J(2)-(4), Ch. 10 B-C; SPEC §4. The wager is $5, the
meter starts at $10,000.00 and takes 5 % of each wager at No More Bets.
"""

from __future__ import annotations

import pytest

from etg.core.cards import Card
from etg.core.commands import (
    BetKind,
    CloseBets,
    Deal,
    Decide,
    OpenBets,
    PlaceWager,
    Settle,
    WarDeal,
)
from etg.core.engine import Phase, TableState, apply
from etg.core.events import EnvyBonus, PayoutHandMade, ProgressiveAwarded, WagerSettled
from etg.core.hands import payout_hand
from etg.core.paytable import Decision, PayoutHand, PayoutLimit, ProgressiveLevel
from etg.core.progressive import MeterState
from etg.core.refusal import Reason, Refused
from etg.core.settle import Result, WagerKind
from tests.tables import maryland, maryland_bonus, run, table, total_money

CREDITS = 100_000
LEVEL = ProgressiveLevel.PROGRESSIVE_PAYOUT
BURN3 = ["3S", "3S", "3S"]


def play(spot1: str, dealer: str, war: tuple[str, str] | None, decision: Decision,
         envy_seat: bool = True) -> tuple[TableState, list[object]]:
    """Seat 1: $5 Initial + $5 Progressive Payout on spot 1; seat 2 the same on spot 3."""
    codes = ["7D", spot1, "2C", "2C", "2C", "2C", dealer, *(BURN3 + list(war) if war else [])]
    s = table(maryland_bonus(), codes, CREDITS)
    bets = [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
            PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500)]
    if envy_seat:
        bets += [PlaceWager(2, 3, BetKind.INITIAL, 500),
                 PlaceWager(2, 3, BetKind.PROGRESSIVE_PAYOUT, 500)]
    s, events = run(s, [*bets, CloseBets(), Deal(), Settle()])
    if s.phase is Phase.DECISIONS:
        s, more = run(s, [Decide(1, 1, decision)])
        events += more
        if s.phase is Phase.WAR_PENDING:
            s, more = run(s, [WarDeal(), Settle()])
            events += more
    assert s.phase is Phase.COMPLETE
    return s, events


def both_on_spot_one(spot1: str, war: tuple[str, str],
                     seat1: Decision) -> tuple[TableState, list[object]]:
    """Seats 1 and 2 each wager $5 Initial + Progressive Payout on spot 1 against a 9♥.

    Spot 1 ties; seat 1 makes ``seat1``'s choice, seat 2 goes to War.
    """
    codes = ["7D", spot1, "2C", "2C", "2C", "2C", "9H", *BURN3, *war]
    bets = [PlaceWager(seat, 1, kind, 500) for seat in (1, 2)
            for kind in (BetKind.INITIAL, BetKind.PROGRESSIVE_PAYOUT)]
    return run(table(maryland_bonus(), codes, CREDITS),
               [OpenBets(), *bets, CloseBets(), Deal(), Settle(), Decide(1, 1, seat1),
                Decide(2, 1, Decision.WAR), WarDeal(), Settle()])


def progressive(events: list[object], seat: int) -> list[tuple[WagerKind, Result, int]]:
    return [(e.payment.kind, e.payment.result, e.paid) for e in events
            if isinstance(e, WagerSettled) and e.seat == seat
            and e.payment.kind in (WagerKind.PROGRESSIVE_PAYOUT, WagerKind.PROGRESSIVE,
                                   WagerKind.ENVY_BONUS)]


HANDS = [
    # (spot 1, dealer, War cards, decision, hand, paid on the $5 wager) — MD Ch. 10 B(2)-(6)
    ("9C", "9H", None, Decision.SURRENDER, PayoutHand.TIE, 500 + 5 * 500),
    ("9H", "9H", None, Decision.SURRENDER, PayoutHand.SUITED_TIE, 500 + 15 * 500),
    ("9C", "9H", ("5D", "5S"), Decision.WAR, PayoutHand.DOUBLE_TIE, 500 + 30 * 500),
    ("9C", "9H", ("9D", "9S"), Decision.WAR, PayoutHand.FOUR_OF_A_KIND, 500 + 150 * 500),
    ("9H", "9H", ("5S", "5S"), Decision.WAR, PayoutHand.SUITED_DOUBLE_TIE, 500 + 200 * 500),
    ("9C", "9H", ("5D", "7S"), Decision.WAR, PayoutHand.TIE, 500 + 5 * 500),
]


@pytest.mark.parametrize(("spot", "dealer", "war", "decision", "hand", "paid"), HANDS)
def test_each_progressive_payout_hand_pays_its_odds(
    spot: str, dealer: str, war: tuple[str, str] | None, decision: Decision, hand: PayoutHand,
    paid: int,
) -> None:
    s, events = play(spot, dealer, war, decision)
    assert [e for e in events if isinstance(e, PayoutHandMade)] == [PayoutHandMade(1, 1, hand)]
    assert progressive(events, 1) == [(WagerKind.PROGRESSIVE_PAYOUT, Result.WON, paid)]
    assert progressive(events, 2) == [(WagerKind.PROGRESSIVE_PAYOUT, Result.LOST, 0)]  # no envy
    assert s.meter(LEVEL) == MeterState(1_000_050)  # 5 % of $10 wagered


def test_no_hand_loses_the_wager() -> None:
    _s, events = play("8H", "9H", None, Decision.SURRENDER)
    assert progressive(events, 1) == [(WagerKind.PROGRESSIVE_PAYOUT, Result.LOST, 0)]


def test_suited_four_of_a_kind_pays_the_meter_and_1000_to_1_and_envy_to_the_others() -> None:
    # MD Ch. 10 B(1), C(3)(c)(i); Ch. 9 J(4)(d)-(e)
    s, events = play("9H", "9H", ("9H", "9H"), Decision.WAR)
    assert progressive(events, 1) == [(WagerKind.PROGRESSIVE_PAYOUT, Result.WON, 500_500),
                                      (WagerKind.PROGRESSIVE, Result.WON, 1_000_050)]
    assert [e for e in events if isinstance(e, ProgressiveAwarded)] == [
        ProgressiveAwarded(LEVEL, 1, 1, 1_000_050, 1_000_050, 1_000_000, 1_000_000, 0)]
    assert progressive(events, 2) == [(WagerKind.PROGRESSIVE_PAYOUT, Result.LOST, 0),
                                      (WagerKind.ENVY_BONUS, Result.WON, 500_000)]
    assert [e for e in events if isinstance(e, EnvyBonus)] == [
        EnvyBonus(2, 1, 1, PayoutHand.SUITED_FOUR_OF_A_KIND)]
    # seat 1: -5 -5 -5 (War) +5 (Initial pushed) +15 (War 2:1) +5,005 +10,000.50
    assert s.credits[0] == CREDITS - 1_500 + 500 + 1_500 + 500_500 + 1_000_050 == 1_601_050
    assert s.credits[1] == CREDITS - 1_000 + 500_000
    assert s.meter(LEVEL) == MeterState(1_000_000)


def test_two_meter_awards_in_one_round_are_paid_in_seat_order() -> None:
    # MD Ch. 9 A, Ch. 10 D(4): the second seat is paid the meter as it stands: the reset value
    _, events = both_on_spot_one("9H", ("9H", "9H"), Decision.WAR)
    awards = [(e.seat, e.amount, e.meter_after) for e in events
              if isinstance(e, ProgressiveAwarded)]
    assert awards == [(2, 1_000_050, 1_000_000), (1, 1_000_000, 1_000_000)]
    envy = [(e.seat, e.holder_seat) for e in events if isinstance(e, EnvyBonus)]
    assert envy == [(2, 1), (1, 2)]  # each for the other's hand, never its own


def test_never_envy_for_ones_own_hand() -> None:
    # MD Ch. 9 J(4)(e)(iii): seat 1 holds the hand on spot 1 and a wager on spot 2
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", *BURN3, "9H", "9H"]
    s = table(maryland_bonus(), codes, CREDITS)
    s, events = run(s, [OpenBets(),
                        PlaceWager(1, 1, BetKind.INITIAL, 500),
                        PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500),
                        PlaceWager(1, 2, BetKind.INITIAL, 500),
                        PlaceWager(1, 2, BetKind.PROGRESSIVE_PAYOUT, 500),
                        PlaceWager(3, 3, BetKind.INITIAL, 500),
                        PlaceWager(3, 3, BetKind.PROGRESSIVE_PAYOUT, 500),
                        CloseBets(), Deal(), Settle(), Decide(1, 1, Decision.WAR), WarDeal(),
                        Settle()])
    envy = [(e.seat, e.holder_seat, e.holder_spot) for e in events if isinstance(e, EnvyBonus)]
    assert envy == [(3, 1, 1)]
    assert not [e for e in progressive(events, 1) if e[0] is WagerKind.ENVY_BONUS]


def test_a_surrendered_tie_counts_only_the_original_cards() -> None:
    # SPEC §4: a Double Tie needs the player to have gone to War on that spot
    s, events = both_on_spot_one("9C", ("9D", "9S"), Decision.SURRENDER)
    hands = {e.seat: e.hand for e in events if isinstance(e, PayoutHandMade)}
    assert hands == {2: PayoutHand.FOUR_OF_A_KIND, 1: PayoutHand.TIE}
    assert total_money(s) == 12 * CREDITS // 2


def test_a_progressive_award_is_outside_the_payout_limit_per_hand() -> None:
    # SPEC §2: progressive awards are outside the cap unless the paytable says otherwise
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", *BURN3, "9H", "9H"]
    s = table(maryland_bonus(payout_limit=PayoutLimit(100_000)), codes, CREDITS)
    s, events = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                        PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), CloseBets(), Deal(),
                        Settle(), Decide(1, 1, Decision.WAR), WarDeal(), Settle()])
    settled = {e.payment.kind: (e.paid, e.capped) for e in events if isinstance(e, WagerSettled)}
    assert settled[WagerKind.PROGRESSIVE] == (1_000_025, 0)
    # War 2:1 pays 1,000 of the 100,000 limit; the 1000:1 pays the remaining 99,000
    assert settled[WagerKind.PROGRESSIVE_PAYOUT] == (500 + 99_000, 500_000 - 99_000)


@pytest.mark.parametrize(("paytable", "setup", "command", "reason", "message"), [
    (maryland_bonus(), [], PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500),
     Reason.INITIAL_REQUIRED,
     "a Progressive Payout Wager needs an Initial Wager on the same spot (MD Ch. 7 F(3)(a))"),
    (maryland_bonus(), [PlaceWager(1, 1, BetKind.INITIAL, 500)],
     PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 1_000), Reason.WRONG_AMOUNT,
     "the Progressive Payout Wager is $5.00, not $10.00"),
    (maryland_bonus(), [PlaceWager(1, 1, BetKind.INITIAL, 500),
                        PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500)],
     PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), Reason.ALREADY_WAGERED,
     "the Progressive Payout Wager is already placed"),
    (maryland(), [PlaceWager(1, 1, BetKind.INITIAL, 500)],
     PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), Reason.NOT_OFFERED,
     "this paytable offers no Progressive Payout Wager"),
])
def test_progressive_payout_refusals(paytable, setup, command, reason, message) -> None:  # type: ignore[no-untyped-def]
    s, _ = run(table(paytable), [OpenBets(), *setup])
    with pytest.raises(Refused) as refused:
        apply(s, command)
    assert (refused.value.reason, str(refused.value)) == (reason, message)


@pytest.mark.parametrize(("cards", "war", "hand"), [
    (("9H", "9H"), ("9H", "9H"), PayoutHand.SUITED_FOUR_OF_A_KIND),
    (("9H", "9H"), ("9S", "9S"), PayoutHand.SUITED_DOUBLE_TIE),  # outranks four of a kind
    (("9H", "9C"), ("9H", "9H"), PayoutHand.FOUR_OF_A_KIND),
    (("9H", "9H"), ("9H", "9C"), PayoutHand.FOUR_OF_A_KIND),
    (("9H", "9H"), ("2S", "2S"), PayoutHand.SUITED_DOUBLE_TIE),
    (("9H", "9H"), ("2S", "2C"), PayoutHand.DOUBLE_TIE),
    (("9H", "9D"), ("2S", "2S"), PayoutHand.DOUBLE_TIE),
    (("9H", "9H"), ("2S", "3S"), PayoutHand.SUITED_TIE),
    (("9H", "9H"), None, PayoutHand.SUITED_TIE),
    (("9H", "9D"), ("2S", "3S"), PayoutHand.TIE),
    (("9H", "8H"), ("9H", "9H"), None),
])
def test_hand_precedence(cards: tuple[str, str], war: tuple[str, str] | None,
                         hand: PayoutHand | None) -> None:
    war_cards = (Card.parse(war[0]), Card.parse(war[1])) if war else None
    assert payout_hand(Card.parse(cards[0]), Card.parse(cards[1]), war_cards) is hand
