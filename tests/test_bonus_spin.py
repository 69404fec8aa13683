"""Bonus Spin Xtreme in exact cents (MD Ch. 7 F(4), Ch. 10 D-E; SPEC §3).

Seat 1 wagers $5 Initial on spot 1 and the $5 Bonus Spin; seat 2 $5 Initial on
spot 2 and the $1 Bonus Spin; both start with $1,000.00. Every spot card is
below the dealer's, so the main game only collects the two Initial Wagers.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from etg.core.commands import (
    BetKind,
    ClearWagers,
    CloseBets,
    Deal,
    DoubleWagers,
    NextRound,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    RepeatWagers,
    Settle,
    Spin,
    Void,
)
from etg.core.engine import Phase, TableState, apply
from etg.core.events import (
    BonusSpinTriggered,
    ProgressiveAwarded,
    ProgressiveContributed,
    WagerSettled,
    WheelStopped,
)
from etg.core.paytable import Meter, ProgressiveLevel
from etg.core.progressive import MeterState
from etg.core.refusal import Reason, Refused
from etg.core.settle import Result, WagerKind
from etg.core.wheel import WheelStops
from tests.tables import BONUS_SPIN, maryland_bonus, pennsylvania, run, table, total_money

CREDITS = 100_000
PRIMARY, SECONDARY = ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY
# Community ring: 0 = $150 ($30 / $150); Hot Spot ring: 0 JACKPOT, 1 MINI JACKPOT, 2 = $1000.
STOP_150, JACKPOT, MINI, HOT_1000 = 0, 0, 1, 2


def dealt(dealer: str = "AH", paytable=None) -> TableState:  # type: ignore[no-untyped-def]
    p = paytable or maryland_bonus()
    s = table(p, ["7D", "2C", "3C", "4C", "5C", "6C", dealer], CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceBonusSpin(1, 500),
                   PlaceWager(2, 2, BetKind.INITIAL, 500), PlaceBonusSpin(2, 100),
                   CloseBets(), Deal(), Settle()])
    return s


def bonus_results(events: list[object]) -> list[tuple[int, Result, int, int]]:
    return [(e.seat, e.payment.result, e.payment.stake, e.paid) for e in events
            if isinstance(e, WagerSettled) and e.payment.kind in (WagerKind.BONUS_SPIN,
                                                                 WagerKind.PROGRESSIVE)]


def test_meters_grow_at_no_more_bets_by_their_rates() -> None:
    # $6 of Bonus Spin wagers: primary 1.5 % = 9 cents, secondary 0.5 % = 3 cents
    s, events = run(table(maryland_bonus(), credits=CREDITS),
                    [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceBonusSpin(1, 500),
                     PlaceWager(2, 2, BetKind.INITIAL, 500), PlaceBonusSpin(2, 100)])
    assert s.meter(PRIMARY) == MeterState(1_000_000)  # nothing before No More Bets
    s, events = run(s, [CloseBets()])
    contributed = [e for e in events if isinstance(e, ProgressiveContributed)]
    assert contributed == [ProgressiveContributed(PRIMARY, 600, 9_000_000, 9, 0, 1_000_009),
                           ProgressiveContributed(SECONDARY, 600, 3_000_000, 3, 0, 1_000_003)]
    assert s.meter(PRIMARY) == MeterState(1_000_009)
    assert s.meter(SECONDARY) == MeterState(1_000_003)
    assert s.meter(ProgressiveLevel.PROGRESSIVE_PAYOUT) == MeterState(1_000_000)


def test_a_red_ace_triggers_and_the_spin_pays_community_to_all_and_hot_spot_to_one() -> None:
    s = dealt("AH")
    assert s.phase is Phase.BONUS_SPIN
    assert s.credits == (CREDITS - 1_000, CREDITS - 600, *(CREDITS,) * 4)
    s, events = run(s, [Spin(WheelStops(STOP_150, 1, HOT_1000))])
    assert s.phase is Phase.COMPLETE
    assert [e for e in events if isinstance(e, WheelStopped)] == [
        WheelStopped(WheelStops(STOP_150, 1, HOT_1000), "$150", "$1000")]
    # wagers collected, wins paid "for one": $150 + $1,000 to seat 1; $30 to seat 2
    assert bonus_results(events) == [(2, Result.WON, 100, 3_000), (1, Result.WON, 500, 115_000)]
    assert s.credits[:2] == (CREDITS - 1_000 + 115_000, CREDITS - 600 + 3_000)
    assert s.house == 1_000 + 600 - 118_000
    assert s.round.wheel == WheelStops(STOP_150, 1, HOT_1000)


def test_the_hot_spot_on_a_seat_without_the_wager_pays_nobody() -> None:
    _s, events = run(dealt("AD"), [Spin(WheelStops(STOP_150, 4, HOT_1000))])
    assert bonus_results(events) == [(2, Result.WON, 100, 3_000), (1, Result.WON, 500, 15_000)]


def test_no_trigger_collects_every_bonus_spin_wager() -> None:
    s = dealt("AS")  # a black Ace is not designated
    assert s.phase is Phase.COMPLETE
    assert bonus_results(list(s.round.results)) == [(2, Result.LOST, 100, 0),
                                                    (1, Result.LOST, 500, 0)]
    assert s.credits[:2] == (CREDITS - 1_000, CREDITS - 600)


def test_a_trigger_with_no_bonus_spin_wager_does_not_spin() -> None:
    s = table(maryland_bonus(), ["7D", "2C", "3C", "4C", "5C", "6C", "AH"], CREDITS)
    s, events = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), CloseBets(), Deal(),
                        Settle()])
    assert s.phase is Phase.COMPLETE
    assert not [e for e in events if isinstance(e, BonusSpinTriggered)]


def test_primary_progressive_pays_the_meter_as_it_stands_then_resets() -> None:
    s, events = run(dealt("AH"), [Spin(WheelStops(STOP_150, 1, JACKPOT))])
    assert [e for e in events if isinstance(e, ProgressiveAwarded)] == [
        ProgressiveAwarded(PRIMARY, 1, 0, 1_000_009, 1_000_009, 1_000_000, 1_000_000, 0)]
    assert s.credits[0] == CREDITS - 1_000 + 15_000 + 1_000_009
    assert s.meter(PRIMARY) == MeterState(1_000_000)


def test_secondary_progressive_pays_twenty_percent_to_the_one_dollar_wager() -> None:
    s, events = run(dealt("AH"), [Spin(WheelStops(STOP_150, 2, MINI))])
    # 20 % of 1,000,003 is 200,000.6: 200,000 paid, the rest stays on the meter
    assert [e for e in events if isinstance(e, ProgressiveAwarded)] == [
        ProgressiveAwarded(SECONDARY, 2, 0, 200_000, 1_000_003, 800_003, 0, 0)]
    assert s.credits[1] == CREDITS - 600 + 3_000 + 200_000
    assert s.meter(SECONDARY) == MeterState(800_003)


def test_ceiling_overflows_to_the_reserve_which_funds_the_reset() -> None:
    bonus = replace(BONUS_SPIN, secondary=Meter(1_000_000, 500_000, 0.005, 1_000_001))
    s = dealt("AH", maryland_bonus(bonus_spin=bonus))
    assert s.meter(SECONDARY) == MeterState(1_000_001, 0, 2)  # 3 cents: 1 on, 2 over
    s, events = run(s, [Spin(WheelStops(STOP_150, 1, MINI))])
    assert [e for e in events if isinstance(e, ProgressiveAwarded)] == [
        ProgressiveAwarded(SECONDARY, 1, 0, 1_000_001, 1_000_001, 500_002, 500_000, 2)]
    assert s.meter(SECONDARY) == MeterState(500_002, 0, 0)


def test_fractions_of_a_cent_are_carried_to_the_next_round() -> None:
    s = table(maryland_bonus(), ["7D", "2C", "3C", "4C", "5C", "6C", "KS"] * 2, CREDITS)
    bets = [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceBonusSpin(1, 500),
            CloseBets()]
    s, _ = run(s, bets)  # 500 x 1.5 % = 7.5 cents
    assert s.meter(PRIMARY) == MeterState(1_000_007, 500_000)
    s, _ = run(s, [Deal(), Settle(), NextRound(), *bets])
    assert s.meter(PRIMARY) == MeterState(1_000_015, 0)


def test_void_in_the_bonus_spin_returns_wagers_and_undoes_the_contributions() -> None:
    s = dealt("AH")
    before = table(maryland_bonus(), credits=CREDITS)
    s, _ = run(s, [Void("wheel fault")])
    assert s.credits == before.credits
    assert s.house == 0
    assert s.meters == before.meters
    assert total_money(s) == total_money(before)


@pytest.mark.parametrize(("setup", "command", "reason", "message"), [
    (lambda: run(table(maryland_bonus()), [OpenBets()])[0], PlaceBonusSpin(1, 500),
     Reason.INITIAL_REQUIRED, "a Bonus Spin wager needs an Initial Wager (MD Ch. 7 F(4))"),
    (lambda: run(table(maryland_bonus()), [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500)])[0],
     PlaceBonusSpin(1, 200), Reason.WRONG_AMOUNT,
     "a Bonus Spin wager is $1.00 or $5.00 (MD Ch. 7 F(4)), not $2.00"),
    (lambda: run(table(maryland_bonus()), [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                                           PlaceBonusSpin(1, 100)])[0],
     PlaceBonusSpin(1, 500), Reason.ALREADY_WAGERED,
     "seat 1 already has a Bonus Spin wager this round"),
    (lambda: run(table(pennsylvania()), [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500)])[0],
     PlaceBonusSpin(1, 500), Reason.NOT_OFFERED, "this paytable offers no Bonus Spin Xtreme wager"),
    (lambda: dealt("AH"), PlaceBonusSpin(3, 500), Reason.BETTING_CLOSED,
     "no more bets: wagers are locked for this round"),
    (lambda: dealt("AS"), Spin(WheelStops(0, 1, 0)), Reason.WRONG_PHASE,
     "the wheel spins only when the Bonus Spin is triggered (the table is complete)"),
    (lambda: dealt("AH"), Spin(WheelStops(0, 7, 0)), Reason.INVALID_DRAW,
     "no seat 7 on the Seat ring"),
    (lambda: dealt("AH"), Spin(WheelStops(8, 1, 0)), Reason.INVALID_DRAW,
     "no segment 8 on the Community ring"),
])
def test_bonus_spin_refusals(setup, command, reason, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(Refused) as refused:
        apply(setup(), command)
    assert (refused.value.reason, str(refused.value)) == (reason, message)


def test_clear_returns_repeat_replaces_and_double_keeps_the_bonus_spin() -> None:
    s = table(maryland_bonus(), ["7D", "2C", "3C", "4C", "5C", "6C", "KS"], CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceBonusSpin(1, 100)])
    assert s.credits[0] == CREDITS - 600
    s, _ = run(s, [DoubleWagers(1)])
    assert (s.round.wagers[0][0].initial, s.round.bonus_spin[0]) == (1_000, 100)
    s, _ = run(s, [ClearWagers(1)])
    assert (s.credits[0], s.on_table) == (CREDITS, 0)
    s, _ = run(s, [PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceBonusSpin(1, 500), CloseBets(),
                   Deal(), Settle(), NextRound(), OpenBets(), RepeatWagers(1)])
    assert (s.round.wagers[0][0].initial, s.round.bonus_spin[0]) == (500, 500)
    assert s.credits[0] == CREDITS - 1_000 - 1_000
