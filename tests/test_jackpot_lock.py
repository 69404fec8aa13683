"""Jackpot validation and hand pays in the engine, in exact cents (MD Ch. 9 J(4)(a)-(e)).

Maryland's Progressive Payout Wager is $5, its meter starts at $10,000.00 and
takes 5 % of each wager at No More Bets; a Suited Four-of-a-Kind pays the meter
and 1000 to 1, and every other seat with the wager an Envy Bonus of $5,000.
"""

from __future__ import annotations

import pytest

from etg.core.commands import (
    BetKind,
    CashIn,
    CashOut,
    CloseBets,
    Command,
    Deal,
    Decide,
    NextRound,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    SetJackpotRules,
    Settle,
    SignInDealer,
    Spin,
    Tip,
    ValidateJackpot,
    Void,
    WarDeal,
)
from etg.core.engine import Phase, TableState, apply
from etg.core.events import (
    DecisionsOpened,
    EnvyBonus,
    HandPaid,
    JackpotLocked,
    JackpotRulesSet,
    JackpotValidated,
    ProgressiveAwarded,
    RoundComplete,
    RoundVoided,
    WagerSettled,
)
from etg.core.flow import DealerAction, dealer_next
from etg.core.jackpot import AfterJackpot, HeldAward, JackpotRules, ValidatorRole
from etg.core.paytable import Decision, PayoutHand, ProgressiveLevel
from etg.core.progressive import MeterState
from etg.core.refusal import Reason, Refused
from etg.core.settle import Payment, Result, WagerKind
from etg.core.wheel import WheelStops
from tests.tables import maryland_bonus, run, table, total_money

CREDITS = 100_000
FLOORPERSON, SUPERVISOR = ValidatorRole.FLOORPERSON, ValidatorRole.SUPERVISOR
LEVEL = ProgressiveLevel.PROGRESSIVE_PAYOUT
BURN3 = ["3S", "3S", "3S"]
METER = 1_000_050  # $10,000.00 + 5 % of the two $5 wagers
PP_WIN = 500_000  # 1000 to 1 on $5
ENVY = 500_000  # MD Ch. 10 C(3)(c)(i): $5,000 on a $5 wager


def with_rules(state: TableState, hand_pay_cents: int) -> TableState:
    state, _ = apply(state, SetJackpotRules(JackpotRules(hand_pay_cents)))
    return state


def suited_four_of_a_kind(hand_pay_cents: int) -> tuple[TableState, list[object]]:
    """Seat 1: $5 Initial + $5 Progressive Payout on spot 1, a 9♥ against the dealer's 9♥,
    War, and the War deal's 9♥ 9♥. Seat 2: the same wagers on spot 3, a 2♣: it loses,
    and is owed the Envy Bonus."""
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", *BURN3, "9H", "9H"]
    s = with_rules(table(maryland_bonus(), codes, CREDITS), hand_pay_cents)
    return run(s, [OpenBets(),
                   PlaceWager(1, 1, BetKind.INITIAL, 500),
                   PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500),
                   PlaceWager(2, 3, BetKind.INITIAL, 500),
                   PlaceWager(2, 3, BetKind.PROGRESSIVE_PAYOUT, 500),
                   CloseBets(), Deal(), Settle(), Decide(1, 1, Decision.WAR), WarDeal(),
                   Settle()])


HELD = (
    HeldAward(1, 1, Payment(WagerKind.PROGRESSIVE_PAYOUT, Result.WON, 500, 500, PP_WIN), PP_WIN, 0,
              True),
    HeldAward(1, 1, Payment(WagerKind.PROGRESSIVE, Result.WON, 0, 0, METER), METER, 0, True),
    HeldAward(2, 0, Payment(WagerKind.ENVY_BONUS, Result.WON, 0, 0, ENVY), ENVY, 0, True),
)


def test_a_suited_four_of_a_kind_locks_the_table_with_the_hand_and_its_envy_held() -> None:
    # MD Ch. 9 J(4)(a)-(c): the hand is verified, the light lit, and nothing is paid yet
    s, events = suited_four_of_a_kind(120_000)
    assert s.phase is Phase.JACKPOT and dealer_next(s) is DealerAction.VALIDATE
    assert s.jackpot is not None
    assert s.jackpot.awards == HELD and s.jackpot.then is AfterJackpot.BONUS_SPIN
    assert events[-1] == JackpotLocked(1, HELD)
    # the meter was read and reset when the hand was made (MD Ch. 10 D(4)); its award waits
    assert [e for e in events if isinstance(e, ProgressiveAwarded)] == [
        ProgressiveAwarded(LEVEL, 1, 1, METER, METER, 1_000_000, 1_000_000, 0)]
    assert s.meter(LEVEL) == MeterState(1_000_000)
    assert EnvyBonus(2, 1, 1, PayoutHand.SUITED_FOUR_OF_A_KIND) in events  # owed, not paid
    assert not [e for e in events if isinstance(e, WagerSettled)
                and e.payment.kind in (WagerKind.PROGRESSIVE, WagerKind.ENVY_BONUS)]
    # seat 1: -$15 staked, +$5 Initial pushed, +$15 War won; the $5 wager stays on the layout
    assert s.credits[:2] == (CREDITS - 1_500 + 500 + 1_500, CREDITS - 1_000)
    assert s.round.wagers[0][0].progressive_payout == 500
    assert s.round.results[-1].payment.kind is WagerKind.PROGRESSIVE_PAYOUT  # seat 2's loss


def test_above_the_threshold_the_attendant_pays_the_hand_then_the_envy_bonus() -> None:
    # MD Ch. 9 J(4)(c)-(e) at the default $1,200.00: every award is a hand pay
    locked, _ = suited_four_of_a_kind(120_000)
    s, events = apply(locked, ValidateJackpot("floorperson", FLOORPERSON))
    assert events == [
        JackpotValidated(1, "floorperson", PP_WIN + METER + ENVY, PP_WIN + METER + ENVY, FLOORPERSON),
        WagerSettled(1, 1, HELD[0].payment, 500, 0, 101_000),  # only the stake to credits
        HandPaid(1, 1, 1, WagerKind.PROGRESSIVE_PAYOUT, PP_WIN, "floorperson", FLOORPERSON),
        WagerSettled(1, 1, HELD[1].payment, 0, 0, 101_000),
        HandPaid(1, 1, 1, WagerKind.PROGRESSIVE, METER, "floorperson", FLOORPERSON),
        WagerSettled(2, 0, HELD[2].payment, 0, 0, 99_000),  # the Envy Bonus after the hand
        HandPaid(1, 2, 0, WagerKind.ENVY_BONUS, ENVY, "floorperson", FLOORPERSON),
        RoundComplete(1, (1_000, -1_000, 0, 0, 0, 0), False),
    ]
    assert s.phase is Phase.COMPLETE and s.jackpot is None
    assert s.credits[:2] == (101_000, 99_000)
    assert s.on_table == 0
    # what left by the attendant's hand left the house too
    assert total_money(s) == total_money(locked) - (PP_WIN + METER + ENVY)


def test_below_the_threshold_the_validated_awards_go_to_the_credits() -> None:
    # a $20,000.00 threshold: all three awards are paid to the credits once validated
    locked, _ = suited_four_of_a_kind(2_000_000)
    assert all(not a.hand_pay for a in locked.jackpot.awards)  # type: ignore[union-attr]
    s, events = apply(locked, ValidateJackpot("supervisor", SUPERVISOR))
    assert not [e for e in events if isinstance(e, HandPaid)]
    assert events[0] == JackpotValidated(1, "supervisor", PP_WIN + METER + ENVY, 0, SUPERVISOR)
    # seat 1: +$5,005.00 (the wager and 1000 to 1) +$10,000.50; seat 2: +$5,000 Envy Bonus
    assert s.credits[:2] == (100_500 + 500 + PP_WIN + METER, 99_000 + ENVY) == (1_601_050,
                                                                               599_000)
    assert total_money(s) == total_money(locked)
    assert s.phase is Phase.COMPLETE


def test_a_threshold_between_the_awards_splits_them() -> None:
    # $7,500.00: the meter's $10,000.50 is a hand pay; the two $5,000 awards go to credits
    locked, _ = suited_four_of_a_kind(750_000)
    assert [a.hand_pay for a in locked.jackpot.awards] == [False, True, False]  # type: ignore
    s, events = apply(locked, ValidateJackpot("floorperson", FLOORPERSON))
    assert [(e.seat, e.kind, e.amount) for e in events if isinstance(e, HandPaid)] == [
        (1, WagerKind.PROGRESSIVE, METER)]
    assert s.credits[:2] == (101_000 + PP_WIN, 99_000 + ENVY)  # $5 stake + $5,000


@pytest.mark.parametrize("command", [
    OpenBets(), NextRound(), Settle(), Deal(), PlaceWager(3, 2, BetKind.INITIAL, 500),
    CashIn(3, 500), Tip(1, 100), SignInDealer("D7"), SetJackpotRules(None),
    Decide(1, 1, Decision.WAR), Spin(WheelStops(0, 1, 0)),
])
def test_play_stops_until_the_validation(command: Command) -> None:
    # MD Ch. 9 J(4)(c): the award is validated before anything else happens
    locked, _ = suited_four_of_a_kind(120_000)
    with pytest.raises(Refused) as refusal:
        apply(locked, command)
    assert refusal.value.reason is Reason.JACKPOT_LOCKED
    assert refusal.value.message == ("the table is locked on a jackpot (seats 1, 2) until a "
                                     "floorperson validates it (MD Ch. 9 J(4)(c))")


def test_in_the_lock_a_seat_out_of_the_round_cashes_out_and_the_locked_seats_cannot() -> None:
    locked, _ = suited_four_of_a_kind(120_000)
    s, _ = apply(locked, CashOut(3))
    assert s.credits[2] == 0 and s.phase is Phase.JACKPOT
    with pytest.raises(Refused) as refusal:
        apply(locked, CashOut(1))
    assert refusal.value.reason is Reason.ROUND_IN_PROGRESS


def test_a_supervisor_void_in_the_lock_returns_every_wager_and_drops_the_held_awards() -> None:
    # MD Ch. 11: every wager of the round returned; the meter as it was before the round
    locked, _ = suited_four_of_a_kind(120_000)
    s, events = apply(locked, Void("hand misread"))
    # seat 1's War was paid before the lock: the void takes those $5 back
    assert events == [RoundVoided(1, "hand misread", (-500, 1_000, 0, 0, 0, 0))]
    assert s.phase is Phase.VOIDED and s.jackpot is None
    assert s.credits[:2] == (CREDITS, CREDITS)
    assert s.meter(LEVEL) == MeterState(1_000_000)
    assert total_money(s) == total_money(locked)


def red_ace_four_of_a_kind(rules: JackpotRules | None) -> TableState:
    """Seat 1: $5 Initial, $5 Progressive Payout on spot 1 and a $5 Bonus Spin; A♥ against
    the dealer's A♥ (a trigger), War, A♥ A♥: a Suited Four-of-a-Kind, then the wheel."""
    codes = ["7D", "AH", "2C", "2C", "2C", "2C", "AH", *BURN3, "AH", "AH"]
    s = table(maryland_bonus(), codes, CREDITS)
    s, _ = run(s, [SetJackpotRules(rules), OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                   PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), PlaceBonusSpin(1, 500),
                   CloseBets(), Deal(), Settle(), Decide(1, 1, Decision.WAR), WarDeal(),
                   Settle()])
    if rules is not None:
        s, _ = apply(s, ValidateJackpot("floorperson", FLOORPERSON))
    assert s.phase is Phase.BONUS_SPIN
    return s


@pytest.mark.parametrize("hand_pay_cents", [120_000, 2_000_000], ids=["hand_paid", "credited"])
def test_a_round_with_a_validated_jackpot_can_no_longer_be_voided(hand_pay_cents: int) -> None:
    # SPEC §2: "what was paid stays paid and on its meters" (MD Ch. 9 J(4)(c)-(d)): a void
    # would show the paid meter's old amount again, a jackpot that could be paid twice
    s = red_ace_four_of_a_kind(JackpotRules(hand_pay_cents))
    assert s.meter(LEVEL) == MeterState(1_000_000)  # paid and reset
    with pytest.raises(Refused) as refusal:
        apply(s, Void("misdeal"))
    assert (refusal.value.reason, refusal.value.message) == (
        Reason.JACKPOT_PAID, "round 1 has paid a validated jackpot: what was paid stays paid "
                             "and on its meters, so the round is finished, not voided "
                             "(SPEC §2; MD Ch. 9 J(4))")


def test_a_tie_hand_pay_validated_before_the_decisions_keeps_the_round_from_a_void() -> None:
    # a hand pay alone, no progressive: $100 Tie Wager at 10 to 1 at a $1,000.00 threshold
    codes = ["7D", "9C", "2C", "2C", "2C", "2C", "9H", *BURN3, "KD", "5S"]
    s = with_rules(table(maryland_bonus(), codes, CREDITS), 100_000)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                   PlaceWager(1, 1, BetKind.TIE, 10_000), CloseBets(), Deal(), Settle(),
                   ValidateJackpot("floorperson", FLOORPERSON)])
    assert s.phase is Phase.DECISIONS
    with pytest.raises(Refused) as refusal:
        apply(s, Void("misdeal"))
    assert refusal.value.reason is Reason.JACKPOT_PAID


def test_without_jackpot_rules_a_void_still_takes_back_what_the_round_credited() -> None:
    # the simulators' table validates nothing: its awards went to the credits, and a void
    # returns the round's stakes, takes back its winnings and puts its meters as they were
    s = red_ace_four_of_a_kind(None)
    s, events = apply(s, Void("misdeal"))
    assert isinstance(events[0], RoundVoided) and s.phase is Phase.VOIDED
    assert s.credits[0] == CREDITS
    assert s.meter(LEVEL) == MeterState(1_000_000)  # before the round: no contribution


def test_validation_refusals() -> None:
    locked, _ = suited_four_of_a_kind(120_000)
    with pytest.raises(Refused) as refusal:
        apply(locked, ValidateJackpot("  ", FLOORPERSON))
    assert refusal.value.message == "a validation names the floorperson who made it"
    s, _ = apply(locked, ValidateJackpot("floorperson", FLOORPERSON))
    with pytest.raises(Refused) as refusal:
        apply(s, ValidateJackpot("floorperson", FLOORPERSON))
    assert (refusal.value.reason, refusal.value.message) == (
        Reason.NO_JACKPOT, "there is no jackpot to validate")


def test_without_jackpot_rules_nothing_is_held() -> None:
    """The simulators' table: every award straight to the credits, as before validation."""
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", *BURN3, "9H", "9H"]
    s, events = run(table(maryland_bonus(), codes, CREDITS), [
        OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
        PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), CloseBets(), Deal(), Settle(),
        Decide(1, 1, Decision.WAR), WarDeal(), Settle()])
    assert s.phase is Phase.COMPLETE
    assert not [e for e in events if isinstance(e, JackpotLocked)]
    assert s.credits[0] == CREDITS - 1_500 + 500 + 1_500 + 500 + PP_WIN + METER - 25


def test_a_tie_wager_win_of_a_hand_pay_size_is_validated_before_the_decisions() -> None:
    # $100 Tie Wager at 10 to 1: $1,000.00, at a $1,000.00 threshold; the tie then decides
    codes = ["7D", "9C", "2C", "2C", "2C", "2C", "9H", *BURN3, "KD", "5S"]
    s = with_rules(table(maryland_bonus(), codes, CREDITS), 100_000)
    s, events = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                        PlaceWager(1, 1, BetKind.TIE, 10_000), CloseBets(), Deal(), Settle()])
    tie = Payment(WagerKind.TIE, Result.WON, 10_000, 10_000, 100_000)
    assert s.phase is Phase.JACKPOT
    assert s.jackpot is not None and s.jackpot.then is AfterJackpot.DECISIONS
    assert s.jackpot.awards == (HeldAward(1, 1, tie, 100_000, 0, True),)
    assert not [e for e in events if isinstance(e, DecisionsOpened)]  # not before validation
    s, events = apply(s, ValidateJackpot("floorperson", FLOORPERSON))
    assert events == [JackpotValidated(1, "floorperson", 100_000, 100_000, FLOORPERSON),
                      WagerSettled(1, 1, tie, 10_000, 0, CREDITS - 500),
                      HandPaid(1, 1, 1, WagerKind.TIE, 100_000, "floorperson", FLOORPERSON),
                      DecisionsOpened(((1, 1),))]
    assert s.phase is Phase.DECISIONS
    s, _ = run(s, [Decide(1, 1, Decision.WAR), WarDeal(), Settle()])
    assert s.phase is Phase.COMPLETE  # K♦ beats 5♠: Initial returned, War won 1 to 1
    assert s.credits[0] == CREDITS - 500 - 500 + 500 + 1_000


def test_a_hot_spot_progressive_on_the_wheel_locks_after_the_spin() -> None:
    # SPEC §3 / MD Ch. 10 D(4): the $1 wager's 20 % of the primary meter, $2,000.00, a hand pay
    s = with_rules(table(maryland_bonus(), ["7D", "2C", "3C", "4C", "5C", "6C", "AH"], CREDITS),
                   120_000)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceBonusSpin(1, 100),
                   CloseBets(), Deal(), Settle()])
    assert s.phase is Phase.BONUS_SPIN
    s, events = apply(s, Spin(WheelStops(7, 1, 0)))  # $25 Community ($5 on $1), JACKPOT
    award = Payment(WagerKind.PROGRESSIVE, Result.WON, 0, 0, 200_000)
    assert s.phase is Phase.JACKPOT
    assert s.jackpot is not None and s.jackpot.awards == (HeldAward(1, 0, award, 200_000, 0,
                                                                    True),)
    assert s.round.wheel == WheelStops(7, 1, 0)
    # the Community Pay is below the threshold: paid at once
    assert s.credits[0] == CREDITS - 600 + 500
    s, events = apply(s, ValidateJackpot("floorperson", FLOORPERSON))
    assert [type(e).__name__ for e in events] == [
        "JackpotValidated", "WagerSettled", "HandPaid", "RoundComplete"]
    assert s.phase is Phase.COMPLETE and s.credits[0] == CREDITS - 600 + 500


def test_the_threshold_is_set_between_rounds_and_a_held_award_keeps_its_own() -> None:
    s = table(maryland_bonus(), [], CREDITS)
    s, events = apply(s, SetJackpotRules(JackpotRules(50_000)))
    assert events == [JackpotRulesSet(50_000, None)]
    s, events = apply(s, SetJackpotRules(None))
    assert events == [JackpotRulesSet(None, 50_000)] and s.jackpot_rules is None
    with pytest.raises(Refused) as refusal:
        apply(s, SetJackpotRules(JackpotRules(0)))
    assert refusal.value.message == "the hand-pay threshold must be a positive amount"
