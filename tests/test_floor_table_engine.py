"""The table's side of a linked progressive in the pure engine (SPEC §13, issue 27 item 2-3).

Maryland's Progressive Payout Wager is $5 on a meter the floor's controller keeps
here: the table records each seat's wagers that feed it, shows the amounts the
controller answers, and holds a linked hit in the jackpot lock until the controller
says what it pays. Every answer is a command, so a replay gives back every round.
"""

from __future__ import annotations

import pytest

from etg.core.commands import (
    BetKind,
    CloseBets,
    ConfirmLinkedHit,
    Deal,
    Decide,
    LinkLevels,
    NextRound,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    RepeatWagers,
    SetJackpotRules,
    SetLinkStatus,
    Settle,
    ShowLinkedMeters,
    ValidateJackpot,
    Void,
    WarDeal,
)
from etg.core.engine import Phase, TableState, apply
from etg.core.events import (
    HandPaid,
    JackpotLocked,
    LinkedContributed,
    LinkedHitConfirmed,
    LinkedHitPending,
    LinkStatusChanged,
    ProgressiveAwarded,
    ProgressiveContributed,
    WagerSettled,
)
from etg.core.jackpot import JackpotRules, ValidatorRole
from etg.core.linked import LINK_DOWN, LinkedMeter
from etg.core.paytable import Decision, ProgressiveLevel
from etg.core.progressive import MeterState
from etg.core.refusal import Reason, Refused
from etg.core.settle import WagerKind
from tests.tables import maryland, maryland_bonus, run, table, total_money

PP = ProgressiveLevel.PROGRESSIVE_PAYOUT
PRIMARY, SECONDARY = ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY
CREDITS = 100_000
# burn, spots 1-5, the dealer's 9♥; three War burns, spot 1's War card, the dealer's
SUITED_FOUR = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", "3S", "3S", "3S", "9H", "9H"]
FLOORPERSON = ValidatorRole.FLOORPERSON


def linked(levels: tuple[ProgressiveLevel, ...] = (PP,), hand_pay: int = 120_000,
           codes: list[str] = SUITED_FOUR) -> TableState:
    s = table(maryland_bonus(), codes, CREDITS)
    s, _ = apply(s, SetJackpotRules(JackpotRules(hand_pay)))
    s, _ = apply(s, LinkLevels(levels))
    return s


def suited_four(s: TableState) -> tuple[TableState, list[object]]:
    return run(s, [OpenBets(),
                   PlaceWager(1, 1, BetKind.INITIAL, 500),
                   PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500),
                   PlaceWager(2, 3, BetKind.INITIAL, 500),
                   PlaceWager(2, 3, BetKind.PROGRESSIVE_PAYOUT, 500),
                   CloseBets(), Deal(), Settle(), Decide(1, 1, Decision.WAR), WarDeal(),
                   Settle()])


def test_a_linked_level_records_each_seats_wagers_and_leaves_the_local_meter_alone() -> None:
    s = linked()
    s, events = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                        PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500),
                        PlaceWager(1, 2, BetKind.INITIAL, 500),
                        PlaceWager(1, 2, BetKind.PROGRESSIVE_PAYOUT, 500),
                        PlaceWager(4, 4, BetKind.INITIAL, 500),
                        PlaceWager(4, 4, BetKind.PROGRESSIVE_PAYOUT, 500),
                        PlaceBonusSpin(4, 500), CloseBets()])
    contributed = [e for e in events if isinstance(e, LinkedContributed)]
    # per seat, as the controller keys them: seat 1's two spots together
    assert contributed == [LinkedContributed(PP, 1, 1_000), LinkedContributed(PP, 4, 500)]
    # the linked meter is the controller's: the table's own does not move
    assert s.meter(PP) == MeterState(1_000_000)
    # the unlinked Bonus Spin meters still take their share here (1.5 % and 0.5 % in tests)
    local = {e.level for e in events if isinstance(e, ProgressiveContributed)}
    assert local == {PRIMARY, SECONDARY}
    assert s.shown_meter(PP) is None  # nothing heard from the controller yet


def test_the_controllers_meters_are_shown_as_recorded() -> None:
    s = linked()
    s, _ = apply(s, ShowLinkedMeters((LinkedMeter(PP, 1_234_567),)))
    assert s.shown_meter(PP) == 1_234_567
    assert s.shown_meter(PRIMARY) == s.meter(PRIMARY).cents  # type: ignore[union-attr]
    with pytest.raises(Refused) as refused:
        apply(s, ShowLinkedMeters((LinkedMeter(PRIMARY, 5),)))
    assert refused.value.reason is Reason.NOT_OFFERED


def test_a_linked_hit_holds_the_lock_until_the_controller_confirms_its_amount() -> None:
    s, events = suited_four(linked())
    assert s.phase is Phase.JACKPOT and s.jackpot is not None
    assert LinkedHitPending(PP, 1, 1, 100) in events
    assert not [e for e in events if isinstance(e, ProgressiveAwarded)]
    lock = next(e for e in events if isinstance(e, JackpotLocked))
    assert [(a.linked, a.confirmed, a.win) for a in lock.awards if a.linked] == [(PP, False, 0)]
    with pytest.raises(Refused) as refused:
        apply(s, ValidateJackpot("floorperson", FLOORPERSON))
    assert refused.value.reason is Reason.LINK_PENDING
    assert "waits for its amount from the floor's controller" in refused.value.message
    # a linked hit cannot be voided: the controller pays the floor's meter for it
    with pytest.raises(Refused) as refused:
        apply(s, Void("dispute"))
    assert refused.value.reason is Reason.JACKPOT_PAID
    # the link may drop and come back while it waits; the lock stays
    down, _ = apply(s, SetLinkStatus(False))
    back, _ = apply(down, SetLinkStatus(True))
    assert back.phase is Phase.JACKPOT


def test_the_amount_paid_is_the_controllers_to_the_cent() -> None:
    s, _ = suited_four(linked(hand_pay=120_000))
    money = total_money(s)
    s, events = apply(s, ConfirmLinkedHit(PP, 1, 1, 2_345_678, 17, 2, 1_000_000))
    assert events == [LinkedHitConfirmed(1, PP, 1, 1, 2_345_678, 17, 2, 1_000_000, True)]
    assert s.shown_meter(PP) == 1_000_000
    s, events = apply(s, ValidateJackpot("floorperson", FLOORPERSON))
    paid = [e for e in events if isinstance(e, WagerSettled)
            and e.payment.kind is WagerKind.PROGRESSIVE]
    assert [p.payment.win for p in paid] == [2_345_678]
    assert HandPaid(1, 1, 1, WagerKind.PROGRESSIVE, 2_345_678, "floorperson",
                    FLOORPERSON) in events
    # the hand pay leaves the house by the attendant's hand: credits + house unchanged by it,
    # less the linked amount and the hand's 1000 to 1 and the Envy Bonus ($5,000 each)
    assert total_money(s) == money - 2_345_678 - 500_000 - 500_000


def test_below_the_hand_pay_threshold_the_linked_amount_goes_to_the_credits() -> None:
    s, _ = suited_four(linked(hand_pay=100_000_000))
    before = s.credits[0]
    s, _ = apply(s, ConfirmLinkedHit(PP, 1, 1, 1_000_123, 3, 1, 1_000_000))
    s, _ = apply(s, ValidateJackpot("floorperson", FLOORPERSON))
    # the hand's 1000 to 1 ($5,000), its $5 stake back, and the controller's $10,001.23
    assert s.credits[0] == before + 500_000 + 500 + 1_000_123


def test_a_confirmation_for_no_pending_hit_is_refused() -> None:
    s, _ = suited_four(linked())
    with pytest.raises(Refused) as refused:
        apply(s, ConfirmLinkedHit(PP, 2, 3, 5, 1, 1, 1))
    assert refused.value.reason is Reason.NO_JACKPOT
    s, _ = apply(s, ConfirmLinkedHit(PP, 1, 1, 5, 1, 1, 1))
    with pytest.raises(Refused):  # the same hit twice: paid once
        apply(s, ConfirmLinkedHit(PP, 1, 1, 5, 1, 1, 1))


def test_link_down_refuses_linked_wagers_only() -> None:
    s = linked((PRIMARY, SECONDARY))
    s, events = apply(s, SetLinkStatus(False))
    assert events == [LinkStatusChanged(False)]
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                   PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500)])  # unlinked: goes on
    with pytest.raises(Refused) as refused:
        apply(s, PlaceBonusSpin(1, 500))
    assert refused.value.reason is Reason.LINK_DOWN
    assert refused.value.message.startswith(LINK_DOWN)
    s, _ = apply(s, SetLinkStatus(True))
    s, _ = apply(s, PlaceBonusSpin(1, 500))
    assert s.round.bonus_spin[0] == 500


def test_link_down_refuses_a_repeat_that_would_place_a_linked_wager() -> None:
    s = linked((PP,))
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                   PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), CloseBets(), Deal(),
                   Settle(), Decide(1, 1, Decision.SURRENDER)])
    assert s.phase is Phase.COMPLETE
    s, _ = run(s, [NextRound(), SetLinkStatus(False), OpenBets()])
    with pytest.raises(Refused) as refused:
        apply(s, RepeatWagers(1))
    assert refused.value.reason is Reason.LINK_DOWN
    s, _ = apply(s, PlaceWager(1, 1, BetKind.INITIAL, 500))  # the base game goes on
    assert s.round.wagers[0][0].initial == 500


def test_levels_link_between_rounds_and_only_where_the_paytable_has_them() -> None:
    s = table(maryland_bonus(), SUITED_FOUR, CREDITS)
    s, _ = apply(s, OpenBets())
    with pytest.raises(Refused) as refused:
        apply(s, LinkLevels((PP,)))
    assert refused.value.reason is Reason.ROUND_IN_PROGRESS
    plain = table(maryland(), SUITED_FOUR, CREDITS)
    with pytest.raises(Refused) as refused:
        apply(plain, LinkLevels((PRIMARY,)))
    assert refused.value.reason is Reason.NOT_OFFERED
