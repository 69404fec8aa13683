"""Every settlement branch, for each War form, in exact cents.

Seat 1 wagers $10 Initial and $5 Tie on spot 1 with $1,000.00 credits; the
shoe is rigged so each branch happens. The rule behind each case is cited.
"""

from __future__ import annotations

import pytest

from etg.core.commands import (
    BetKind,
    CloseBets,
    CloseDecisions,
    Deal,
    Decide,
    OpenBets,
    PlaceWager,
    Settle,
    WarDeal,
)
from etg.core.engine import Phase, TableState
from etg.core.events import CardDealt, RoundComplete, WagerSettled
from etg.core.paytable import Decision, PayoutLimit, PayoutLimitScope, Paytable
from etg.core.settle import Result, WagerKind
from tests.tables import (
    maryland,
    pennsylvania,
    pennsylvania_2011,
    run,
    south_dakota,
    table,
    total_money,
)

CREDITS = 100_000
INITIAL, TIE = 1_000, 500

FORMS = {
    "maryland": maryland(),
    "pennsylvania": pennsylvania(),
    "pennsylvania_2011": pennsylvania_2011(),
    "south_dakota": south_dakota(),
}


def deal_spot_one(p: Paytable, spot: str, dealer: str, war: tuple[str, str] | None = None,
                  tie: int = TIE) -> TableState:
    """Seat 1 bets spot 1; returns the table after the original deal is settled."""
    other_spots = ["2C"] * (p.spot_count - 1) if p.layout.value == "community" else []
    codes = ["7D", spot, *other_spots, dealer]
    if war:  # the burns, the War card, the paytable's burns before the dealer's, the dealer's
        codes += ["3S", "3S", "3S", war[0], *["3S"] * p.war_burn.before_dealer, war[1]]
    s = table(p, codes, CREDITS)
    bets = [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, INITIAL)]
    if tie:
        bets.append(PlaceWager(1, 1, BetKind.TIE, tie))
    s, _ = run(s, [*bets, CloseBets(), Deal(), Settle()])
    return s


def results(events: list[object]) -> list[tuple[WagerKind, Result, int]]:
    return [(e.payment.kind, e.payment.result, e.paid) for e in events if isinstance(e, WagerSettled)]


@pytest.mark.parametrize("form", FORMS)
def test_lower_card_loses_initial_and_tie(form: str) -> None:
    # MD Ch. 9 B(1); 58 Pa. Code § 651a.9(a)(1); S.D. 20:18:16:15.17(4)(b)
    s = deal_spot_one(FORMS[form], "2H", "9C")
    assert s.phase is Phase.COMPLETE
    assert s.credits[0] == CREDITS - INITIAL - TIE == 98_500
    assert s.house == 1_500
    assert [(r.payment.kind, r.payment.result, r.paid) for r in s.round.results] == [
        (WagerKind.INITIAL, Result.LOST, 0), (WagerKind.TIE, Result.LOST, 0)]


@pytest.mark.parametrize("form", FORMS)
def test_higher_card_wins_initial_one_to_one_and_loses_tie(form: str) -> None:
    # MD Ch. 9 B(2), Ch. 10 A(1); 58 Pa. Code § 651a.10(1); S.D. 20:18:16:15.17(4)(a), (5)
    s = deal_spot_one(FORMS[form], "KH", "9C")
    assert s.credits[0] == 100_500
    assert s.house == -500
    assert [(r.payment.kind, r.payment.result, r.paid) for r in s.round.results] == [
        (WagerKind.INITIAL, Result.WON, 2_000), (WagerKind.TIE, Result.LOST, 0)]


@pytest.mark.parametrize("form", FORMS)
def test_tie_pays_tie_wager_ten_to_one_then_surrender_returns_half(form: str) -> None:
    # MD Ch. 9 B(3), E(1), Ch. 10 A(2); 58 Pa. Code § 651a.9(c)(1)
    s = deal_spot_one(FORMS[form], "9H", "9C")
    assert s.phase is Phase.DECISIONS
    assert s.pending_decisions() == ((1, 1),)
    assert s.credits[0] == CREDITS - INITIAL - TIE + TIE + 10 * TIE == 104_000
    s, events = run(s, [Decide(1, 1, Decision.SURRENDER)])
    assert s.phase is Phase.COMPLETE
    assert s.credits[0] == 104_500  # + half the Initial Wager
    assert s.house == -4_500
    assert results(events) == [(WagerKind.INITIAL, Result.SURRENDERED, 500)]
    assert s.round.war_cards == (None,) * FORMS[form].spot_count  # no War deal


# Expected net of the whole round for seat 1 after going to War, with each
# jurisdiction's records. All forms are +1 / +2 Initial Wagers on a War win / tie.
WAR_CASES = {
    # MD Ch. 9 I(2), Ch. 10 A(3): Initial returned, War Wager 1:1
    ("maryland", "win"): (5_000 + 1_000, [(WagerKind.INITIAL, Result.PUSHED, 1_000),
                                          (WagerKind.WAR, Result.WON, 2_000)]),
    # MD Ch. 9 I(1): Initial and War Wagers collected
    ("maryland", "loss"): (5_000 - 2_000, [(WagerKind.INITIAL, Result.LOST, 0),
                                           (WagerKind.WAR, Result.LOST, 0)]),
    # MD Ch. 9 I(3), Ch. 10 A(4): Initial returned, War Wager 2:1
    ("maryland", "tie"): (5_000 + 2_000, [(WagerKind.INITIAL, Result.PUSHED, 1_000),
                                          (WagerKind.WAR, Result.WON, 3_000)]),
    # 58 Pa. Code § 651a.9(g), § 651a.10(3): the same as Maryland
    ("pennsylvania", "win"): (6_000, [(WagerKind.INITIAL, Result.PUSHED, 1_000),
                                      (WagerKind.WAR, Result.WON, 2_000)]),
    ("pennsylvania", "loss"): (3_000, [(WagerKind.INITIAL, Result.LOST, 0),
                                       (WagerKind.WAR, Result.LOST, 0)]),
    ("pennsylvania", "tie"): (7_000, [(WagerKind.INITIAL, Result.PUSHED, 1_000),
                                      (WagerKind.WAR, Result.WON, 3_000)]),
    # PA 2011 § 651a.9(e), § 651a.10(3): Initial collected on going to War, War Wager 2:1 / 3:1
    ("pennsylvania_2011", "win"): (6_000, [(WagerKind.WAR, Result.WON, 3_000)]),
    ("pennsylvania_2011", "loss"): (3_000, [(WagerKind.WAR, Result.LOST, 0)]),
    ("pennsylvania_2011", "tie"): (7_000, [(WagerKind.WAR, Result.WON, 4_000)]),
    # S.D. 20:18:16:15.17(4)(d): the player wins the three wagers, one more on a tie
    ("south_dakota", "win"): (6_000, [(WagerKind.INITIAL, Result.PUSHED, 1_000),
                                      (WagerKind.WAR, Result.WON, 2_000)]),
    ("south_dakota", "loss"): (3_000, [(WagerKind.INITIAL, Result.LOST, 0),
                                       (WagerKind.WAR, Result.LOST, 0)]),
    ("south_dakota", "tie"): (7_000, [(WagerKind.INITIAL, Result.PUSHED, 1_000),
                                      (WagerKind.WAR, Result.WON, 3_000)]),
}
WAR_CARDS = {"win": ("KD", "4S"), "loss": ("4D", "KS"), "tie": ("8D", "8S")}


@pytest.mark.parametrize(("form", "branch"), list(WAR_CASES))
def test_war_branches(form: str, branch: str) -> None:
    p = FORMS[form]
    s = deal_spot_one(p, "9H", "9C", WAR_CARDS[branch])
    before = total_money(s)
    s, decided = run(s, [Decide(1, 1, Decision.WAR)])
    assert s.phase is Phase.WAR_PENDING
    assert s.credits[0] == 104_000 - INITIAL  # the War Wager equals the Initial Wager
    forfeited = results(decided)
    if form == "pennsylvania_2011":
        assert forfeited == [(WagerKind.INITIAL, Result.FORFEITED, 0)]
    else:
        assert forfeited == []
    s, events = run(s, [WarDeal(), Settle()])
    expected_net, expected_results = WAR_CASES[(form, branch)]
    assert s.phase is Phase.COMPLETE
    assert s.credits[0] - CREDITS == expected_net
    assert results(events) == expected_results
    assert total_money(s) == before
    war_dealt = [e for e in events if isinstance(e, CardDealt) and e.war]
    assert [str(e.card) for e in war_dealt] == [
        str(c) for c in _cards(WAR_CARDS[branch])]


def _cards(codes: tuple[str, str]) -> list[object]:
    from etg.core.cards import Card
    return [Card.parse(code) for code in codes]


@pytest.mark.parametrize("form", ["maryland", "pennsylvania", "pennsylvania_2011"])
def test_war_deal_tie_wager_pays_ten_to_one_on_a_war_tie(form: str) -> None:
    # MD Ch. 7 F(2), Ch. 9 I(3); 58 Pa. Code § 651a.9(e), (g)(3)
    s = deal_spot_one(FORMS[form], "9H", "9C", WAR_CARDS["tie"])
    s, _ = run(s, [Decide(1, 1, Decision.WAR, war_tie=300)])
    assert s.credits[0] == 104_000 - INITIAL - 300
    s, events = run(s, [WarDeal(), Settle()])
    assert s.credits[0] - CREDITS == 7_000 + 3_000
    assert (WagerKind.WAR_TIE, Result.WON, 3_300) in results(events)


@pytest.mark.parametrize("form", ["maryland", "pennsylvania", "pennsylvania_2011"])
def test_war_deal_tie_wager_loses_unless_the_war_ties(form: str) -> None:
    s = deal_spot_one(FORMS[form], "9H", "9C", WAR_CARDS["win"])
    s, _ = run(s, [Decide(1, 1, Decision.WAR, war_tie=300), WarDeal(), Settle()])
    assert s.credits[0] - CREDITS == 6_000 - 300
    assert (WagerKind.WAR_TIE, Result.LOST, 0) in results(s.round.results)


def test_decision_timeout_applies_default_surrender() -> None:
    s = deal_spot_one(maryland(), "9H", "9C")
    s, events = run(s, [CloseDecisions()])
    assert s.phase is Phase.COMPLETE
    assert s.credits[0] == 104_500
    assert results(events) == [(WagerKind.INITIAL, Result.SURRENDERED, 500)]


def test_decision_timeout_applies_default_war_when_configured() -> None:
    s = deal_spot_one(maryland(default_decision=Decision.WAR), "9H", "9C", WAR_CARDS["win"])
    s, _ = run(s, [CloseDecisions()])
    assert s.phase is Phase.WAR_PENDING
    s, _ = run(s, [WarDeal(), Settle()])
    assert s.credits[0] - CREDITS == 6_000


def test_default_war_without_credits_for_the_war_wager_surrenders() -> None:
    # SPEC §2 step 5: a seat lacking the credits for War gets Surrender.
    p = maryland(default_decision=Decision.WAR)
    s = table(p, ["7D", "9H", "2C", "2C", "2C", "2C", "9C"], credits=INITIAL)
    s, _ = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, INITIAL), CloseBets(), Deal(),
                   Settle()])
    assert s.credits[0] == 0
    s, events = run(s, [CloseDecisions()])
    assert results(events) == [(WagerKind.INITIAL, Result.SURRENDERED, 500)]
    assert s.credits[0] == 500


def test_payout_limit_per_hand_caps_winnings_and_records_the_excess() -> None:
    # MD Ch. 2 B(5)(b): winnings above the posted limit per hand are not paid.
    p = maryland(payout_limit=PayoutLimit(3_000))
    s = deal_spot_one(p, "9H", "9C")
    tie = next(r for r in s.round.results if r.payment.kind is WagerKind.TIE)
    assert tie.payment.win == 5_000
    assert tie.paid == TIE + 3_000
    assert tie.capped == 2_000
    s, _ = run(s, [Decide(1, 1, Decision.SURRENDER)])
    assert s.credits[0] == CREDITS - INITIAL - TIE + TIE + 3_000 + INITIAL // 2 == 102_500


def test_payout_limit_counts_all_winnings_of_the_seat_in_the_round() -> None:
    p = maryland(payout_limit=PayoutLimit(5_500, PayoutLimitScope.SEAT_ROUND))
    s = deal_spot_one(p, "9H", "9C", WAR_CARDS["win"])  # Tie Wager wins 5,000 of the 5,500
    s, events = run(s, [Decide(1, 1, Decision.WAR), WarDeal(), Settle()])
    war = next(e for e in events if isinstance(e, WagerSettled) and e.payment.kind is WagerKind.WAR)
    assert (war.payment.win, war.paid, war.capped) == (1_000, 1_000 + 500, 500)


def test_community_spot_where_everybody_surrendered_gets_no_war_card() -> None:
    # MD Ch. 9 H: War cards only to players who placed a War Wager.
    p = maryland()
    codes = ["7D", "9H", "9S", "2C", "2C", "2C", "9C", "3S", "3S", "3S", "KD", "4S"]
    s = table(p, codes)
    s, _ = run(s, [OpenBets(),
                   PlaceWager(1, 1, BetKind.INITIAL, 1_000), PlaceWager(1, 2, BetKind.INITIAL, 1_000),
                   PlaceWager(2, 2, BetKind.INITIAL, 2_000),
                   CloseBets(), Deal(), Settle()])
    assert s.pending_decisions() == ((2, 2), (1, 1), (1, 2))  # highest seat first (MD Ch. 9 A)
    s, _ = run(s, [Decide(1, 1, Decision.SURRENDER), Decide(1, 2, Decision.WAR),
                   Decide(2, 2, Decision.WAR), WarDeal()])
    assert s.round.war_cards[0] is None
    assert str(s.round.war_cards[1]) == "K♦"
    s, events = run(s, [Settle()])
    settled = [(e.seat, e.spot, e.payment.kind) for e in events if isinstance(e, WagerSettled)]
    assert settled == [(2, 2, WagerKind.INITIAL), (2, 2, WagerKind.WAR),
                       (1, 2, WagerKind.INITIAL), (1, 2, WagerKind.WAR)]
    assert s.credits == (100_000 - 500 + 1_000, 100_000 + 2_000, *(100_000,) * 4)
    complete = next(e for e in events if isinstance(e, RoundComplete))
    assert complete.net == (500, 2_000, 0, 0, 0, 0)
