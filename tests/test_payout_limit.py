"""The payout limit per hand, in exact cents (MD Ch. 2 B(5)(b); SPEC §2 "Money").

MD Ch. 2 B(5)(b): the layout "indicates the payout limit per hand established by
the facility operator". A hand is one seat's wagers on one spot (``scope: hand``);
``seat_round`` caps a seat's whole round, as the engine did before the scope
existed. The Bonus Spin (a wheel) and the Envy Bonus (paid for another seat's
hand) are outside the limit unless the paytable puts them inside; any capped
excess is recorded on its WagerSettled. Seats start with $1,000.00.
"""

from __future__ import annotations

import dataclasses

import pytest

from etg.config.loader import load_paytable
from etg.config.places import shipped_config_dir
from etg.core.commands import (
    BetKind,
    CloseBets,
    Deal,
    Decide,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    SetJackpotRules,
    Settle,
    Spin,
    ValidateJackpot,
    WarDeal,
)
from etg.core.engine import Phase, TableState
from etg.core.events import Event, WagerSettled
from etg.core.jackpot import JackpotRules, ValidatorRole
from etg.core.paytable import (
    Decision,
    PayoutLimit,
    PayoutLimitScope,
    Paytable,
    rule_violations,
)
from etg.core.settle import WagerKind
from etg.core.wheel import WheelStops
from etg.ui.help.pages import help_pages
from tests.tables import maryland, maryland_bonus, run, table

CREDITS = 100_000
FLOORPERSON = ValidatorRole.FLOORPERSON
HAND, SEAT_ROUND = PayoutLimitScope.HAND, PayoutLimitScope.SEAT_ROUND
BURN3 = ["3S", "3S", "3S"]


def paid(events: list[Event], seat: int) -> list[tuple[int, WagerKind, int, int]]:
    """(spot, kind, paid, capped) of each of the seat's settlements."""
    return [(e.spot, e.payment.kind, e.paid, e.capped) for e in events
            if isinstance(e, WagerSettled) and e.seat == seat]


def two_spots(p: Paytable) -> list[Event]:
    """Seat 1: $5 Initial and $3 Tie on spot 1 (9H ties the dealer's 9C: the Tie wins $30),
    $25 Initial on spot 2 (KD beats it: $25)."""
    s = table(p, ["7D", "9H", "KD", "2C", "2C", "2C", "9C"], CREDITS)
    _, events = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                        PlaceWager(1, 1, BetKind.TIE, 300),
                        PlaceWager(1, 2, BetKind.INITIAL, 2_500), CloseBets(), Deal(),
                        Settle()])
    return events


def test_each_hand_has_a_limit_of_its_own() -> None:
    # MD Ch. 2 B(5)(b): per hand; spot 2 is a hand apart from spot 1
    assert paid(two_spots(maryland(payout_limit=PayoutLimit(3_000, HAND))), 1) == [
        (1, WagerKind.TIE, 300 + 3_000, 0), (2, WagerKind.INITIAL, 2_500 + 2_500, 0)]


def test_seat_round_scope_caps_the_seats_round_as_before() -> None:
    # the Tie's $30 fills the seat's $30 limit: spot 2's $25 win is withheld, its stake back
    assert paid(two_spots(maryland(payout_limit=PayoutLimit(3_000, SEAT_ROUND))), 1) == [
        (1, WagerKind.TIE, 300 + 3_000, 0), (2, WagerKind.INITIAL, 2_500, 2_500)]


def test_a_hand_keeps_its_count_from_the_original_deal_to_the_war() -> None:
    # one hand across two commands: the Tie wins $50 of a $55 limit at the original deal,
    # the War win's $10 is then capped to $5 (MD Ch. 9 I(2), Ch. 10 A(3))
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9C", *BURN3, "KH", "4D"]
    s = table(maryland(payout_limit=PayoutLimit(5_500, HAND)), codes, CREDITS)
    s, events = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 1_000),
                        PlaceWager(1, 1, BetKind.TIE, 500), PlaceWager(2, 3, BetKind.INITIAL, 500),
                        CloseBets(), Deal(), Settle(), Decide(1, 1, Decision.WAR), WarDeal(),
                        Settle()])
    assert paid(events, 1) == [(1, WagerKind.TIE, 500 + 5_000, 0),
                               (1, WagerKind.INITIAL, 1_000, 0),
                               (1, WagerKind.WAR, 1_000 + 500, 500)]
    assert s.credits[0] == CREDITS - 1_500 + 5_500 - 1_000 + 2_500 == 105_500


@pytest.mark.parametrize("rules", [JackpotRules(100_000), None], ids=["hand_paid", "credited"])
def test_a_hand_paid_win_counts_against_the_limit_of_its_hand(rules: JackpotRules | None) -> None:
    # MD Ch. 2 B(5)(b) (SPEC §5: "the payout limit per hand counts every win of the hand,
    # hand-paid ones included"): a $1,000 limit and, on the cabinet, hand pays from $1,000.
    # The $100 Tie on spot 1 wins $1,000 at the original deal (MD Ch. 10 A(2)): the
    # attendant pays it once validated (MD Ch. 9 J(4)), or the credits get it without the
    # procedure. Either way the hand has had its $1,000: the War win of $100 (KH against
    # 4D, MD Ch. 9 I(2)) is withheld whole, only its stake comes back.
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9C", *BURN3, "KH", "4D"]
    s = table(maryland(payout_limit=PayoutLimit(100_000, HAND)), codes, CREDITS)
    s, _ = run(s, [SetJackpotRules(rules), OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 10_000),
                   PlaceWager(1, 1, BetKind.TIE, 10_000), CloseBets(), Deal(), Settle()])
    if rules is not None:
        assert s.phase is Phase.JACKPOT
        s, _ = run(s, [ValidateJackpot("floorperson", FLOORPERSON)])
    s, events = run(s, [Decide(1, 1, Decision.WAR), WarDeal(), Settle()])
    assert paid(events, 1) == [(1, WagerKind.INITIAL, 10_000, 0),
                               (1, WagerKind.WAR, 10_000, 10_000)]
    tie = s.round.results[0]
    assert (tie.payment.kind, tie.payment.win, tie.capped) == (WagerKind.TIE, 100_000, 0)
    assert tie.paid == (10_000 if rules else 110_000)  # the stake only, when hand paid
    by_hand = 100_000 if rules else 0
    assert s.credits[0] + by_hand == CREDITS - 30_000 + 110_000 + 10_000 + 10_000 == 200_000


def wheel_round(limit: PayoutLimit) -> tuple[TableState, list[Event]]:
    """Seat 1: $5 Initial and $5 Tie on spot 1 and a $5 Bonus Spin. Spot 1's AD ties the
    dealer's red Ace: the Tie wins $50; the seat surrenders; the wheel stops on the $150
    Community symbol and the $1,000 Hot Spot symbol, seat 1 the Hot Spot: $1,150. The
    limit is $100."""
    p = maryland_bonus(payout_limit=limit)
    s = table(p, ["7D", "AD", "2C", "2C", "2C", "2C", "AH"], CREDITS)
    s, events = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                        PlaceWager(1, 1, BetKind.TIE, 500), PlaceBonusSpin(1, 500), CloseBets(),
                        Deal(), Settle(), Decide(1, 1, Decision.SURRENDER)])
    assert s.phase is Phase.BONUS_SPIN
    s, more = run(s, [Spin(WheelStops(0, 1, 2))])
    return s, events + more


def test_the_bonus_spin_is_outside_the_limit_per_hand() -> None:
    # SPEC §2: "the Bonus Spin, the Envy Bonus and progressive awards are outside the cap"
    s, events = wheel_round(PayoutLimit(10_000, HAND))
    assert paid(events, 1) == [(1, WagerKind.TIE, 500 + 5_000, 0),
                               (1, WagerKind.INITIAL, 250, 0),
                               (0, WagerKind.BONUS_SPIN, 15_000 + 100_000, 0)]
    assert s.credits[0] == CREDITS - 1_500 + 5_500 + 250 + 115_000


def test_inside_a_limit_per_hand_the_bonus_spin_is_a_hand_of_its_own() -> None:
    # bonus_spin_inside: the wheel's $1,150 is capped at $100, whatever spot 1 won
    _, events = wheel_round(PayoutLimit(10_000, HAND, bonus_spin_inside=True))
    assert paid(events, 1)[-1] == (0, WagerKind.BONUS_SPIN, 10_000, 105_000)


def test_inside_a_seat_round_limit_the_bonus_spin_shares_the_seats_count() -> None:
    # the Tie's $50 leaves $50 of the seat's $100 for the wheel
    _, events = wheel_round(PayoutLimit(10_000, SEAT_ROUND, bonus_spin_inside=True))
    assert paid(events, 1)[-1] == (0, WagerKind.BONUS_SPIN, 5_000, 110_000)


def envy_round(limit: PayoutLimit) -> list[Event]:
    """Seat 1 makes a Suited Four-of-a-Kind on spot 1 (9H, 9H; War 9H, 9H); seat 2's
    Progressive Payout Wager on spot 3 earns the $5,000 Envy Bonus (MD Ch. 9 J(4)(e))."""
    codes = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", *BURN3, "9H", "9H"]
    s = table(maryland_bonus(payout_limit=limit), codes, CREDITS)
    _, events = run(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                        PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500),
                        PlaceWager(2, 3, BetKind.INITIAL, 500),
                        PlaceWager(2, 3, BetKind.PROGRESSIVE_PAYOUT, 500), CloseBets(), Deal(),
                        Settle(), Decide(1, 1, Decision.WAR), WarDeal(), Settle()])
    return events


def test_the_envy_bonus_is_outside_the_limit_unless_the_paytable_says_so() -> None:
    # MD Ch. 10 C(3)(c)(i): $5,000 for another seat's Suited Four-of-a-Kind; limit $1,000
    outside = paid(envy_round(PayoutLimit(100_000, HAND)), 2)
    assert (0, WagerKind.ENVY_BONUS, 500_000, 0) in outside
    inside = paid(envy_round(PayoutLimit(100_000, HAND, envy_bonus_inside=True)), 2)
    assert (0, WagerKind.ENVY_BONUS, 100_000, 400_000) in inside


def test_seat_1s_hand_is_capped_on_its_own_spot() -> None:
    # the War tie pays 2:1 ($10) and the 1000:1 ($5,000) fills the rest of the $1,000 hand
    assert paid(envy_round(PayoutLimit(100_000, HAND)), 1)[:3] == [
        (1, WagerKind.INITIAL, 500, 0), (1, WagerKind.WAR, 500 + 1_000, 0),
        (1, WagerKind.PROGRESSIVE_PAYOUT, 500 + 99_000, 401_000)]


def test_the_older_form_keeps_its_recorded_meaning() -> None:
    # tests/data/replay: a paytable written with payout_limit_per_hand_cents was played with
    # a limit on the seat's round, the wheel and the Envy Bonus inside; it still is
    old = dataclasses.replace(maryland(), payout_limit=None, payout_limit_per_hand_cents=3_000)
    assert old.payout_limit_rules == PayoutLimit(3_000, SEAT_ROUND, bonus_spin_inside=True,
                                                 envy_bonus_inside=True)
    assert rule_violations(old) == []
    assert paid(two_spots(old), 1) == [
        (1, WagerKind.TIE, 300 + 3_000, 0), (2, WagerKind.INITIAL, 2_500, 2_500)]


@pytest.mark.parametrize(("changes", "path", "message"), [
    ({"payout_limit_per_hand_cents": 3_000}, ("payout_limit_per_hand_cents",),
     "is the older form of payout_limit: give payout_limit only"),
    ({"payout_limit": None}, ("payout_limit",),
     "missing: the payout limit per hand the table posts (MD Ch. 2 B(5)(b)), e.g. "
     "{amount_cents: 10000000, scope: hand}"),
    ({"payout_limit": PayoutLimit(0)}, ("payout_limit", "amount_cents"),
     "must be positive (MD Ch. 2 B(5)(b)), not 0"),
    ({"payout_limit": PayoutLimit(150)}, ("payout_limit", "amount_cents"),
     "must be a multiple of unit_cents (100), not 150"),
])
def test_the_payout_limit_is_validated(changes: dict[str, object], path: tuple[str, ...],
                                       message: str) -> None:
    p = dataclasses.replace(maryland(), **changes)  # type: ignore[arg-type]
    assert [(v.path, v.message) for v in rule_violations(p)] == [(path, message)]


@pytest.mark.parametrize("name", sorted(p.name for p in
                                        (shipped_config_dir() / "paytables").glob("*.yaml")))
def test_every_shipped_paytable_posts_a_limit_per_hand(name: str) -> None:
    p = load_paytable(shipped_config_dir() / "paytables" / name).paytable
    assert p.payout_limit == PayoutLimit(10_000_000, HAND)
    assert p.payout_limit_per_hand_cents is None


def test_the_help_screen_posts_the_limit_per_hand_and_what_is_outside_it() -> None:
    # MD Ch. 2 B(5)(b), B(6): the payout limit per hand is posted with the payout odds
    p = load_paytable(shipped_config_dir() / "paytables" / "maryland-community-5.yaml").paytable
    pages = help_pages(p)
    pays = next(page for page in pages if page.tab == "PAYS")
    assert ("The most one hand can win is $100,000; a hand is one seat's wagers on one spot. "
            "Bonus Spin wins, Envy Bonuses and progressive meter awards are paid in full on "
            "top of it.") in pays.text
    limits = next(page for page in pages if page.tab == "LIMITS")
    assert "Payout limit per hand | $100,000" in limits.text
    inside = dataclasses.replace(p, payout_limit=PayoutLimit(10_000_000, SEAT_ROUND, True, True))
    text = next(page for page in help_pages(inside) if page.tab == "PAYS").text
    assert ("The most one seat can win in a round is $100,000. Bonus Spin wins and Envy "
            "Bonuses count toward it. Progressive meter awards are paid in full on top of "
            "it.") in text
    assert "Payout limit per seat per round | $100,000" in next(
        page for page in help_pages(inside) if page.tab == "LIMITS").text
