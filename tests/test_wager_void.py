"""A supervisor's single-wager void, in exact cents (MD Ch. 11 C; SPEC §2 "Voids and errors").

MD Ch. 11 C: "If a card is not dealt to a player's Initial Wager or Tie Wager in
the original deal, the wager shall be void and returned to the player" (the same
words in 58 Pa. Code § 651a.11(c)). The supervisor voids one seat's wagers on one
spot, or one side wager, while no card has been dealt to it (SPEC §2): the stake
comes back whole, the round goes on for the rest, and no meter but the void meter
moves. A wager whose card is on the table is settled by the rules.

Seats start with $1,000.00; the shoes are stacked (burn card first, then spot 1
upward, then the dealer's card).
"""

from __future__ import annotations

from collections import Counter

import pytest

from etg.core.commands import (
    BetKind,
    CloseBets,
    Deal,
    Decide,
    NextRound,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    Settle,
    Spin,
    Void,
    VoidTarget,
    VoidWager,
    WarDeal,
)
from etg.core.engine import Phase, TableState, apply
from etg.core.events import (
    BonusSpinTriggered,
    CardDealt,
    Event,
    RoundComplete,
    RoundVoided,
    Target,
    WagerSettled,
    WagerVoided,
    WheelStopped,
)
from etg.core.paytable import Decision, ProgressiveLevel
from etg.core.refusal import Reason, Refused
from etg.core.settle import Payment, Result, WagerKind
from etg.core.wheel import WheelStops
from etg.ledger.meters import round_meters
from tests.tables import maryland_bonus, pennsylvania, run, table, total_money
from tests.test_ledger_meters import record

CREDITS = 100_000
NO_CARD = "no card was dealt to the wager (MD Ch. 11 C)"
# burn, spots 1-5, the dealer's 8 of clubs: spot 2 (2C) loses, no Bonus Spin trigger
LOW_SPOT_2 = ["7D", "9H", "2C", "KD", "4S", "5S", "8C"]


def voided(seat: int, spot: int, target: VoidTarget, credits: int,
           *wagers: tuple[WagerKind, int], reason: str = NO_CARD) -> WagerVoided:
    payments = tuple(Payment(kind, Result.VOIDED, stake, stake) for kind, stake in wagers)
    return WagerVoided(seat, spot, target, payments, sum(stake for _, stake in wagers), credits,
                       reason)


def betting(codes: list[str]) -> TableState:
    """Seat 1: $10 Initial, $5 Tie and $5 Progressive Payout on spot 2, and a $5 Bonus Spin;
    seat 2: $10 Initial and $1 Tie on spot 2. Betting is closed."""
    s = table(maryland_bonus(), codes, CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 2, BetKind.INITIAL, 1_000),
                   PlaceWager(1, 2, BetKind.TIE, 500),
                   PlaceWager(1, 2, BetKind.PROGRESSIVE_PAYOUT, 500), PlaceBonusSpin(1, 500),
                   PlaceWager(2, 2, BetKind.INITIAL, 1_000), PlaceWager(2, 2, BetKind.TIE, 100),
                   CloseBets()])
    return s


def settled_of(events: list[Event], seat: int) -> list[tuple[int, WagerKind, Result, int]]:
    return [(e.spot, e.payment.kind, e.payment.result, e.paid) for e in events
            if isinstance(e, WagerSettled) and e.seat == seat]


def test_a_spot_void_returns_exactly_that_seats_wagers_on_the_spot() -> None:
    # MD Ch. 11 C: void and returned; the round goes on for seat 2 and seat 1's Bonus Spin
    s = betting(LOW_SPOT_2)
    assert s.credits[0] == CREDITS - 2_500 == 97_500
    meter_before = s.meter(ProgressiveLevel.PROGRESSIVE_PAYOUT)
    s, events = apply(s, VoidWager(1, 2, VoidTarget.SPOT, NO_CARD))
    assert events == [voided(1, 2, VoidTarget.SPOT, 99_500, (WagerKind.INITIAL, 1_000),
                             (WagerKind.TIE, 500), (WagerKind.PROGRESSIVE_PAYOUT, 500))]
    assert s.phase is Phase.BETS_CLOSED
    assert s.credits[0] == 99_500  # everything back but the $5 Bonus Spin still riding
    assert s.round.wagers[0][1].on_table == 0 and s.round.bonus_spin[0] == 500
    # the meter keeps the share contributed at No More Bets (MD Ch. 8 D(1), Ch. 10 C(1))
    assert s.meter(ProgressiveLevel.PROGRESSIVE_PAYOUT) == meter_before
    s, events = run(s, [Deal(), Settle()])
    # spot 2's 2C is lower than the dealer's 8C (MD Ch. 9 B(1)): seat 2 loses $10 + $1;
    # seat 1 has only its Bonus Spin left, collected without a trigger
    assert settled_of(events, 1) == [(0, WagerKind.BONUS_SPIN, Result.LOST, 0)]
    assert settled_of(events, 2) == [(2, WagerKind.INITIAL, Result.LOST, 0),
                                     (2, WagerKind.TIE, Result.LOST, 0)]
    complete = events[-1]
    assert isinstance(complete, RoundComplete)
    assert complete.net[:2] == (-500, -1_100)
    assert s.credits[:2] == (99_500, 98_900)
    assert total_money(s) == 6 * CREDITS


def test_the_void_meter_moves_and_no_other() -> None:
    # SPEC §5: meters are sums over the ledger; a void is neither coin in nor coin out
    s = betting(LOW_SPOT_2)
    s, events = run(s, [VoidWager(1, 2, VoidTarget.SPOT, NO_CARD), Deal(), Settle()])
    meters = round_meters(record(events, seats=6, spots=5))
    assert meters == Counter({
        (0, "wager_voids"): 1, (1, "wager_voids"): 1,
        (0, "wager_voids.amount"): 2_000, (1, "wager_voids.amount"): 2_000,
        (0, "coin_in.initial"): 1_000, (2, "coin_in.initial"): 1_000,
        (0, "coin_in.tie"): 100, (2, "coin_in.tie"): 100,
        (0, "coin_in.bonus_spin"): 500, (1, "coin_in.bonus_spin"): 500,
        (0, "games.played"): 1, (1, "games.played"): 1, (2, "games.played"): 1,
        (0, "games.lost"): 2, (1, "games.lost"): 1, (2, "games.lost"): 1,
    })


def test_a_tie_wager_alone_is_voided_and_the_initial_wager_rides() -> None:
    # MD Ch. 11 C names the Tie Wager on its own; spot 2 (KD) beats the dealer's 8C
    codes = ["7D", "9H", "KD", "2C", "4S", "5S", "8C"]
    s = betting(codes)
    s, events = run(s, [VoidWager(2, 2, VoidTarget.TIE, "wager accepted in error")])
    assert events == [voided(2, 2, VoidTarget.TIE, 99_000, (WagerKind.TIE, 100),
                             reason="wager accepted in error")]
    s, events = run(s, [Deal(), Settle()])
    # MD Ch. 9 B(2), Ch. 10 A(1): the Initial Wager wins 1 to 1; no Tie Wager is settled
    assert settled_of(events, 2) == [(2, WagerKind.INITIAL, Result.WON, 2_000)]
    assert s.credits[1] == CREDITS + 1_000


def test_a_progressive_payout_wager_alone_is_voided() -> None:
    s = betting(LOW_SPOT_2)
    s, events = run(s, [VoidWager(1, 2, VoidTarget.PROGRESSIVE_PAYOUT, NO_CARD)])
    assert events == [voided(1, 2, VoidTarget.PROGRESSIVE_PAYOUT, 98_000,
                             (WagerKind.PROGRESSIVE_PAYOUT, 500))]
    s, events = run(s, [Deal(), Settle()])
    assert settled_of(events, 1) == [(2, WagerKind.INITIAL, Result.LOST, 0),
                                     (2, WagerKind.TIE, Result.LOST, 0),
                                     (0, WagerKind.BONUS_SPIN, Result.LOST, 0)]
    assert s.credits[0] == 98_000


RED_ACE = ["7D", "9H", "KD", "2C", "4S", "5S", "AH"]  # the dealer's red Ace triggers the wheel


def test_a_bonus_spin_wager_voided_before_the_deal_leaves_the_others_to_spin() -> None:
    # SPEC §3: the wheel spins for the seats that hold the wager; seat 1's is voided before
    # the dealer's card, which decides the trigger, is dealt (MD Ch. 11 C)
    s = table(maryland_bonus(), RED_ACE, CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 2, BetKind.INITIAL, 1_000), PlaceBonusSpin(1, 500),
                   PlaceWager(2, 1, BetKind.INITIAL, 1_000), PlaceBonusSpin(2, 100), CloseBets()])
    s, events = apply(s, VoidWager(1, 0, VoidTarget.BONUS_SPIN, "equipment fault at the seat"))
    assert events == [voided(1, 0, VoidTarget.BONUS_SPIN, CREDITS - 1_000,
                             (WagerKind.BONUS_SPIN, 500), reason="equipment fault at the seat")]
    s, events = run(s, [Deal(), Settle()])
    assert s.phase is Phase.BONUS_SPIN
    assert BonusSpinTriggered(s.round.dealer_card, (2,)) in events  # type: ignore[arg-type]
    s, events = apply(s, Spin(WheelStops(7, 1, 9)))  # $25 Community, Hot Spot seat 1
    # seat 2's $1 wager: $5 Community Pay ($1 column), and seat 1, the Hot Spot, holds none
    assert isinstance(events[0], WheelStopped)
    assert settled_of(events, 2) == [(0, WagerKind.BONUS_SPIN, Result.WON, 500)]
    assert settled_of(events, 1) == []
    # seat 1's Initial lost to the Ace (MD Ch. 9 B(1)): 1,000 + 500 staked, 500 back
    assert s.credits[:2] == (CREDITS - 1_000, CREDITS - 1_000 - 100 + 500)


def test_with_every_bonus_spin_wager_voided_the_wheel_does_not_spin() -> None:
    # SPEC §3: "If no seat has a Bonus Spin wager the wheel does not spin"
    s = table(maryland_bonus(), RED_ACE, CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 2, BetKind.INITIAL, 1_000), PlaceBonusSpin(1, 500),
                   CloseBets(), VoidWager(1, 0, VoidTarget.BONUS_SPIN, NO_CARD)])
    s, events = run(s, [Deal(), Settle()])
    assert isinstance(events[-1], RoundComplete)
    assert s.phase is Phase.COMPLETE and s.round.wheel is None
    assert s.credits[0] == CREDITS - 1_000  # the Initial lost to the Ace; the $5 came back


def test_the_war_deals_tie_wager_is_voided_before_its_war_card() -> None:
    # MD Ch. 7 F(2): a new Tie Wager on the War deal; its card is the spot's War card, so it
    # may be voided until the War deal (MD Ch. 11 C); the War goes on without it
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9C", "3S", "3S", "3S", "KH", "2D"]
    s = table(maryland_bonus(), codes, CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000), CloseBets(), Deal(),
                   Settle(), Decide(1, 1, Decision.WAR, 100)])
    assert s.phase is Phase.WAR_PENDING
    assert s.credits[0] == CREDITS - 2_100
    s, events = apply(s, VoidWager(1, 1, VoidTarget.TIE, "wager accepted in error"))
    assert events == [voided(1, 1, VoidTarget.TIE, CREDITS - 2_000, (WagerKind.WAR_TIE, 100),
                             reason="wager accepted in error")]
    assert s.phase is Phase.WAR_PENDING
    s, events = run(s, [WarDeal(), Settle()])
    # KH beats the dealer's 2D: Initial returned, War 1:1 (MD Ch. 9 I(2)); no War-deal Tie
    assert settled_of(events, 1) == [(1, WagerKind.INITIAL, Result.PUSHED, 1_000),
                                     (1, WagerKind.WAR, Result.WON, 2_000)]
    assert s.credits[0] == CREDITS + 1_000


def test_a_wager_that_visibly_lost_is_settled_never_voided() -> None:
    # The case: the supervisor tries to return a $10 Initial Wager whose card lost
    # to the dealer's (2C against 8C, dealt and not yet settled). MD Ch. 11 C voids only a
    # wager that got no card; SPEC §2: "a wager whose card is on the table is settled by the
    # rules, never returned by hand"
    s = betting(LOW_SPOT_2)
    s, _ = apply(s, Deal())
    assert s.phase is Phase.DEALT and s.round.wagers[1][1].initial == 1_000
    with pytest.raises(Refused) as refused:
        apply(s, VoidWager(2, 2, VoidTarget.SPOT, "player dispute"))
    assert (refused.value.reason, refused.value.message) == (
        Reason.CARD_DEALT, "seat 2's Initial Wager on spot 2 has its card on the table: the "
                           "rules settle it; only a wager that got no card is void "
                           "(MD Ch. 11 C)")
    s, events = apply(s, Settle())
    assert settled_of(events, 2) == [(2, WagerKind.INITIAL, Result.LOST, 0),
                                     (2, WagerKind.TIE, Result.LOST, 0)]
    assert s.credits[1] == CREDITS - 1_100


TIED_SPOT_1 = ["7D", "9H", "2C", "2C", "2C", "2C", "9C", "3S", "3S", "3S", "KH", "2D"]
"""Spot 1's 9H ties the dealer's 9C; after three burns, its War card KH, the dealer's 2D."""


@pytest.mark.parametrize(("steps", "command", "message"), [
    ([], VoidWager(1, 1, VoidTarget.TIE, NO_CARD),
     "seat 1's Tie Wager on spot 1 has its card on the table"),
    ([], VoidWager(1, 1, VoidTarget.PROGRESSIVE_PAYOUT, NO_CARD),
     "seat 1's Progressive Payout Wager on spot 1 has its card on the table"),
    ([], VoidWager(1, 0, VoidTarget.BONUS_SPIN, NO_CARD),
     "seat 1's Bonus Spin wager has its card on the table (the dealer's card decides the "
     "Bonus Spin trigger)"),
    ([Settle()], VoidWager(1, 1, VoidTarget.SPOT, NO_CARD),
     "seat 1's Initial Wager on spot 1 has its card on the table"),
    ([Settle(), Decide(1, 1, Decision.WAR, 100)], VoidWager(1, 1, VoidTarget.SPOT, NO_CARD),
     "seat 1's Initial Wager on spot 1 has its card on the table"),
    ([Settle(), Decide(1, 1, Decision.WAR, 100), WarDeal()],
     VoidWager(1, 1, VoidTarget.TIE, NO_CARD),
     "seat 1's War deal's Tie Wager on spot 1 has its card on the table"),
])
def test_a_wager_with_its_card_dealt_is_refused_at_every_step(
        steps: list[object], command: VoidWager, message: str) -> None:
    # MD Ch. 11 C: the Initial, Tie and Progressive Payout Wagers have their card from the
    # original deal, the War and the War deal's Tie Wagers from the War deal, the Bonus Spin
    # wager from the dealer's card
    s = table(maryland_bonus(), TIED_SPOT_1, CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000),
                   PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500),
                   PlaceWager(1, 1, BetKind.TIE, 100), PlaceBonusSpin(1, 500), CloseBets(),
                   Deal(), *steps])  # type: ignore[list-item]
    if command.target is VoidTarget.TIE and not steps:
        assert s.phase is Phase.DEALT  # the Tie Wager is still on the layout, unsettled
    with pytest.raises(Refused) as refused:
        apply(s, command)
    assert refused.value.reason is Reason.CARD_DEALT
    assert refused.value.message == (f"{message}: the rules settle it; only a wager that got "
                                     f"no card is void (MD Ch. 11 C)")


def test_a_voided_initial_wager_gets_no_card_on_a_per_seat_table() -> None:
    # 58 Pa. Code § 651a.8(c)(1), § 651a.11(c): a card to each player with an Initial Wager
    p = pennsylvania()
    s = table(p, ["7D", "KH", "QH", "8C"], CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000),
                   PlaceWager(3, 3, BetKind.INITIAL, 1_000), CloseBets()])
    s, _ = apply(s, VoidWager(3, 3, VoidTarget.SPOT, NO_CARD))
    s, events = apply(s, Deal())
    dealt = [(e.target, e.spot, str(e.card.code)) for e in events if isinstance(e, CardDealt)]
    assert dealt == [(Target.SPOT, 1, "KH"), (Target.DEALER, 0, "QH")]
    s, _ = apply(s, Settle())
    assert s.credits[0] == CREDITS + 1_000 and s.credits[2] == CREDITS


def test_a_round_void_after_a_single_void_returns_only_what_was_left() -> None:
    # MD Ch. 11: the round's void returns every wager still staked, none twice
    s = betting(LOW_SPOT_2)
    s, _ = apply(s, VoidWager(1, 2, VoidTarget.SPOT, NO_CARD))
    s, events = apply(s, Void("misdeal"))
    assert events == [RoundVoided(1, "misdeal", (500, 1_100, 0, 0, 0, 0))]
    assert s.credits == (CREDITS,) * 6
    assert total_money(s) == 6 * CREDITS


@pytest.mark.parametrize(("setup", "command", "reason", "message"), [
    ([], VoidWager(1, 2, VoidTarget.SPOT, NO_CARD), Reason.WRONG_PHASE,
     "while betting is open a player takes back a wager with CLEAR; a supervisor voids a "
     "wager once it is locked at No More Bets (MD Ch. 7 D, MD Ch. 11 C)"),
    ([CloseBets()], VoidWager(1, 2, VoidTarget.SPOT, "  "), Reason.REASON_REQUIRED,
     "a void needs a reason (MD Ch. 11 C)"),
    ([CloseBets()], VoidWager(3, 2, VoidTarget.SPOT, NO_CARD), Reason.NOTHING_TO_VOID,
     "seat 3 has no wagers on spot 2 to void (MD Ch. 11 C)"),
    ([CloseBets()], VoidWager(2, 2, VoidTarget.PROGRESSIVE_PAYOUT, NO_CARD),
     Reason.NOTHING_TO_VOID, "seat 2 has no Progressive Payout Wager on spot 2 to void "
                             "(MD Ch. 11 C)"),
    ([CloseBets()], VoidWager(2, 0, VoidTarget.BONUS_SPIN, NO_CARD), Reason.NOTHING_TO_VOID,
     "seat 2 has no Bonus Spin wager to void (MD Ch. 11 C)"),
    ([CloseBets()], VoidWager(1, 2, VoidTarget.BONUS_SPIN, NO_CARD), Reason.NO_SUCH_SPOT,
     "the Bonus Spin wager is the seat's own: spot 0, not a spot on the layout"),
    ([CloseBets()], VoidWager(7, 2, VoidTarget.SPOT, NO_CARD), Reason.NO_SUCH_SEAT,
     "there is no seat 7"),
    ([CloseBets(), Deal(), Settle()], VoidWager(2, 2, VoidTarget.SPOT, NO_CARD),
     Reason.WRONG_PHASE, "there is no round in progress to void a wager of (the table is "
                         "complete; MD Ch. 11 C)"),
])
def test_what_cannot_be_voided_is_refused_with_its_reason(
        setup: list[object], command: VoidWager, reason: Reason, message: str) -> None:
    s = table(maryland_bonus(), LOW_SPOT_2, CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 2, BetKind.INITIAL, 1_000),
                   PlaceWager(1, 2, BetKind.PROGRESSIVE_PAYOUT, 500), PlaceBonusSpin(1, 500),
                   PlaceWager(2, 2, BetKind.INITIAL, 1_000), PlaceWager(2, 2, BetKind.TIE, 100),
                   *setup])  # type: ignore[list-item]
    with pytest.raises(Refused) as refused:
        apply(s, command)
    assert (refused.value.reason, refused.value.message) == (reason, message)


def test_a_settled_wager_on_a_spot_still_in_play_is_refused_as_settled() -> None:
    # the tie hand's Tie Wager won at the original deal; the Initial Wager still waits
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9C"]
    s = table(maryland_bonus(), codes, CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000),
                   PlaceWager(1, 1, BetKind.TIE, 100), CloseBets(), Deal(), Settle()])
    with pytest.raises(Refused) as refused:
        apply(s, VoidWager(1, 1, VoidTarget.TIE, NO_CARD))
    assert (refused.value.reason, refused.value.message) == (
        Reason.ALREADY_SETTLED, "seat 1's Tie Wager on spot 1 is already settled: a wager is "
                                "voided only before it is settled (MD Ch. 11 C)")
    s, _ = run(s, [Decide(1, 1, Decision.SURRENDER), NextRound()])
    assert s.credits[0] == CREDITS - 1_000 - 100 + 1_100 + 500
