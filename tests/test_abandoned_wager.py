"""Abandoned wagers: a supervisor marks a seat abandoned during a round (MD Ch. 7 B(3)-(4)).

MD Ch. 7 B(3): "After a player has placed a wager and received cards, the player
shall remain seated until the completion of the round of play." B(4): "If a
player leaves the table during a round of play, any wagers made by the player
may be considered abandoned and may be treated as a losing wager." The seat's
tie hands still awaiting War or Surrender take the paytable's ``abandoned_wager``:
``forfeit`` (the Initial Wager is lost) or ``default_decision`` (what the
countdown's end would do). Seats start with $1,000.00; spot 1 is a tie hand
(9H against the dealer's 9C) on which seat 1 has $10 Initial and $1 Tie.
"""

from __future__ import annotations

import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.core.commands import (
    BetKind,
    CloseBets,
    Deal,
    Decide,
    MarkAbandoned,
    OpenBets,
    PlaceWager,
    Settle,
    WarDeal,
)
from etg.core.engine import Phase, TableState, apply
from etg.core.events import (
    DecisionMade,
    Event,
    RoundComplete,
    SeatAbandoned,
    WagerSettled,
)
from etg.core.paytable import AbandonedWager, Decision, Paytable, rule_violations
from etg.core.refusal import Reason, Refused
from etg.core.settle import Payment, Result, WagerKind
from tests.tables import maryland, pennsylvania, run, south_dakota, table, total_money

CREDITS = 100_000
FORFEIT, DEFAULT = AbandonedWager.FORFEIT, AbandonedWager.DEFAULT_DECISION
# burn, spot 1 ties the dealer's 9C, spots 2-5 lower; then the War deal: three burns,
# spot 1's War card, the dealer's
TIED_SPOT_1 = ["7D", "9H", "2C", "2C", "2C", "2C", "9C", "3S", "3S", "3S", "KH", "4D"]


def decisions(p: Paytable, credits: int = CREDITS, tie: int = 100,
              second_seat: bool = True) -> TableState:
    """Seat 1: $10 Initial and a $1 Tie on spot 1; seat 2: $5 Initial on spot 1 too."""
    s = table(p, TIED_SPOT_1, credits)
    bets = [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000)]
    if tie:
        bets.append(PlaceWager(1, 1, BetKind.TIE, tie))
    if second_seat:
        bets.append(PlaceWager(2, 1, BetKind.INITIAL, 500))
    s, _ = run(s, [*bets, CloseBets(), Deal(), Settle()])
    assert s.phase is Phase.DECISIONS
    return s


def seat_results(events: list[Event], seat: int) -> list[tuple[WagerKind, Result, int]]:
    return [(e.payment.kind, e.payment.result, e.paid) for e in events
            if isinstance(e, WagerSettled) and e.seat == seat]


def test_forfeit_collects_the_abandoned_initial_wager_as_a_losing_wager() -> None:
    # MD Ch. 7 B(4): "may be treated as a losing wager"; the Tie Wager was already won 10:1
    s = decisions(maryland(abandoned_wager=FORFEIT))
    assert s.credits[0] == CREDITS - 1_100 + 1_100  # the Tie paid $11: stake and $10
    s, events = apply(s, MarkAbandoned(1))
    assert events == [
        SeatAbandoned(1, FORFEIT, (1,)),
        WagerSettled(1, 1, Payment(WagerKind.INITIAL, Result.ABANDONED, 1_000), 0, 0, CREDITS),
    ]
    assert s.phase is Phase.DECISIONS and s.pending_decisions() == ((2, 1),)  # seat 2 decides
    assert s.house == -1_000 + 1_000  # paid the Tie's $10, collected the $10 Initial
    s, events = apply(s, Decide(2, 1, Decision.SURRENDER))
    complete = events[-1]
    assert isinstance(complete, RoundComplete)
    assert complete.net[:2] == (0, -250)  # seat 1: +1,000 on the Tie, -1,000 abandoned
    assert total_money(s) == 6 * CREDITS


def test_default_decision_surrender_returns_half_as_the_countdown_would() -> None:
    # SPEC §2 step 5: the paytable's default decision, by default (MD Ch. 9 E(1))
    s = decisions(maryland(abandoned_wager=DEFAULT, default_decision=Decision.SURRENDER))
    s, events = apply(s, MarkAbandoned(1))
    assert events[0] == SeatAbandoned(1, DEFAULT, (1,))
    assert events[1] == DecisionMade(1, 1, Decision.SURRENDER, True, 0, CREDITS)
    assert seat_results(events, 1) == [(WagerKind.INITIAL, Result.SURRENDERED, 500)]
    assert s.credits[0] == CREDITS + 500  # the Tie's $11 came back before; half the $10 now


def test_default_decision_war_places_the_war_wager_and_the_war_is_settled() -> None:
    # a paytable whose default is War: the abandoned seat goes to War as at time-out; its War
    # card KH beats the dealer's 4D: Initial returned, War Wager 1:1 (MD Ch. 9 I(2))
    s = decisions(maryland(abandoned_wager=DEFAULT, default_decision=Decision.WAR),
                  second_seat=False)
    s, events = apply(s, MarkAbandoned(1))
    assert events == [SeatAbandoned(1, DEFAULT, (1,)),
                      DecisionMade(1, 1, Decision.WAR, True, 0, CREDITS - 1_000)]
    assert s.phase is Phase.WAR_PENDING
    s, events = run(s, [WarDeal(), Settle()])
    assert seat_results(events, 1) == [(WagerKind.INITIAL, Result.PUSHED, 1_000),
                                       (WagerKind.WAR, Result.WON, 2_000)]
    assert s.credits[0] == CREDITS + 1_000 + 1_000  # the Tie's $10 and the War's $10


def test_default_decision_war_surrenders_a_seat_that_cannot_cover_the_war_wager() -> None:
    # SPEC §2 step 5: "or the seat lacks the credits for War": $10 credits, all on spot 1
    s = decisions(maryland(abandoned_wager=DEFAULT, default_decision=Decision.WAR),
                  credits=1_000, tie=0, second_seat=False)
    assert s.credits[0] == 0
    s, events = apply(s, MarkAbandoned(1))
    assert events[1] == DecisionMade(1, 1, Decision.SURRENDER, True, 0, 0)
    assert s.phase is Phase.COMPLETE and s.credits[0] == 500


@pytest.mark.parametrize(("setup", "seat", "reason", "message"), [
    ([CloseBets(), Deal()], 1, Reason.WRONG_PHASE,
     "a seat is marked abandoned while its tie hands await War or Surrender "
     "(MD Ch. 7 B(3)-(4)) (the table is dealt)"),
    ([CloseBets(), Deal(), Settle()], 3, Reason.NO_DECISION_PENDING,
     "seat 3 has no tie hand awaiting War or Surrender (MD Ch. 7 B(3)-(4))"),
    ([CloseBets(), Deal(), Settle()], 8, Reason.NO_SUCH_SEAT, "there is no seat 8"),
])
def test_marking_a_seat_abandoned_is_refused_outside_a_pending_decision(
        setup: list[object], seat: int, reason: Reason, message: str) -> None:
    s = table(maryland(abandoned_wager=FORFEIT), TIED_SPOT_1, CREDITS)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000),
                   PlaceWager(3, 2, BetKind.INITIAL, 500), *setup])  # type: ignore[list-item]
    with pytest.raises(Refused) as refused:
        apply(s, MarkAbandoned(seat))
    assert (refused.value.reason, refused.value.message) == (reason, message)


@pytest.mark.parametrize(("file", "rule"), [
    ("maryland-community-3.yaml", FORFEIT),  # MD Ch. 7 B(4)
    ("maryland-community-5.yaml", FORFEIT),
    ("maryland-community-7.yaml", FORFEIT),
    ("maryland-community-7-8deck.yaml", FORFEIT),
    ("pennsylvania.yaml", DEFAULT),  # 58 Pa. Code Ch. 651a: no abandoned-wager rule
    ("pennsylvania-2011.yaml", DEFAULT),
    ("south-dakota.yaml", DEFAULT),  # S.D. 20:18:16:15.17: none either
])
def test_each_shipped_paytable_says_what_its_rules_allow(file: str, rule: AbandonedWager) -> None:
    p = load_paytable(shipped_config_dir() / "paytables" / file).paytable
    assert p.abandoned_wager is rule


@pytest.mark.parametrize("p", [pennsylvania(abandoned_wager=FORFEIT),
                               south_dakota(abandoned_wager=FORFEIT)], ids=["pa", "sd"])
def test_forfeit_is_refused_where_no_rule_allows_it(p: Paytable) -> None:
    assert [(v.path, v.message) for v in rule_violations(p)] == [
        (("abandoned_wager",), f"{p.jurisdiction.value} has no rule that lets an abandoned "
                               f"wager be treated as a losing one (that is MD Ch. 7 B(4)): "
                               f"use default_decision")]
