"""Game recall and the audit exports (SPEC §5, §9 ``etg ledger recall`` / ``export``).

Rounds are played through the real engine and written into the hand ledger
record's shape, so recall is tested on the events the engine really emits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from etg.core.cards import Card
from etg.core.commands import (
    BetKind,
    CloseBets,
    CloseDecisions,
    Command,
    Deal,
    Decide,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    Settle,
    Spin,
    Void,
    WarDeal,
)
from etg.core.engine import Phase
from etg.core.events import (
    EnvyBonus,
    PayoutHandMade,
    ProgressiveAwarded,
    RoundVoided,
)
from etg.core.paytable import (
    Decision,
    PayoutHand,
    PayoutLimit,
    PayoutLimitScope,
    Paytable,
    ProgressiveLevel,
)
from etg.core.settle import Result, WagerKind
from etg.core.state import LEVELS
from etg.core.wheel import WheelStops
from etg.ledger.export import export_csv, export_json
from etg.ledger.recall import money, render_round, signed_money
from tests.tables import maryland_bonus, run, table
from tests.test_ledger_meters import record, settled

SHA = "0123456789abcdef" * 4


def played(p: Paytable, codes: Sequence[str], commands: Sequence[Command],
           number: int = 1) -> dict[str, Any]:
    """Play one round on a fresh table with a rigged shoe; the record the store would write."""
    start = table(p, codes)
    s, events = run(start, commands)
    r = s.round
    void = next((e.reason for e in events if isinstance(e, RoundVoided)), None)
    return record(
        events, number, "voided" if s.phase is Phase.VOIDED else "complete", void,
        paytable={"id": p.id, "sha256": SHA}, seats=p.seats, spots=p.spot_count,
        credits_before=list(start.credits), credits_after=list(s.credits),
        dealer_card=code(r.dealer_card), dealer_war_card=code(r.dealer_war_card),
        spot_cards=[code(c) for c in r.spot_cards], war_cards=[code(c) for c in r.war_cards],
        wagers=[[{"initial": w.initial, "tie": w.tie, "progressive_payout": w.progressive_payout}
                 for w in row] for row in r.placed],
        bonus_spin=list(r.bonus_placed),
        wheel=None if r.wheel is None else {"community": r.wheel.community,
                                            "seat": r.wheel.seat, "hot_spot": r.wheel.hot_spot},
        meters_after={level.value: m.cents for level, m in zip(LEVELS, s.meters, strict=True)
                      if m is not None},
    )


def code(card: Card | None) -> str | None:
    return None if card is None else card.code


def war_round() -> dict[str, Any]:
    """Seat 1 ties on spot 1 with Tie and Progressive Payout Wagers and wins the War;
    seat 4 loses spot 3 and surrenders its tie on spot 2 by default."""
    return played(
        maryland_bonus(spots=3),
        ["7D", "9H", "9C", "3D", "9S", "2H", "3H", "4H", "KH", "8S"],
        [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceWager(1, 1, BetKind.TIE, 100),
         PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), PlaceBonusSpin(1, 500),
         PlaceWager(4, 2, BetKind.INITIAL, 500), PlaceWager(4, 3, BetKind.INITIAL, 500),
         CloseBets(), Deal(), Settle(), Decide(1, 1, Decision.WAR), CloseDecisions(), WarDeal(),
         Settle()],
        number=12)


def test_recall_shows_a_war_round_as_it_was_played() -> None:
    assert render_round(war_round()) == """\
Round 12: complete
Paytable md-community-3, sha256 0123456789ab
Started 2026-11-22T11:50:01.123456+00:00, ended 2026-11-22T11:50:41.654321+00:00
Shoe 3, cut card at 201
Dealer: 9S, War card 8S
Spot 1: 9H, War card KH
Spot 2: 9C
Spot 3: 3D
Contribution: Primary progressive +$0.07, meter $10,000.07
Contribution: Secondary progressive +$0.02, meter $10,000.02
Contribution: Progressive Payout meter +$0.25, meter $10,000.25
Seat 1: credits $1,000.00 -> $1,035.00, net +$35.00
  placed   spot 1: Initial Wager $5.00, Tie Wager $1.00, Progressive Payout Wager $5.00
  placed   Bonus Spin Xtreme $5.00
  settled  spot 1: Tie Wager won, stake $1.00, paid $11.00
  decision spot 1: War, by the player
  settled  spot 1: Initial Wager pushed, stake $5.00, paid $5.00
  settled  spot 1: War Wager won, stake $5.00, paid $10.00
  hand     spot 1: Progressive Payout Hand Tie
  settled  spot 1: Progressive Payout Wager won, stake $5.00, paid $30.00
  settled  Bonus Spin Xtreme lost, stake $5.00, paid $0.00
Seat 4: credits $1,000.00 -> $992.50, net -$7.50
  placed   spot 2: Initial Wager $5.00
  placed   spot 3: Initial Wager $5.00
  settled  spot 3: Initial Wager lost, stake $5.00, paid $0.00
  decision spot 2: Surrender, by default
  settled  spot 2: Initial Wager surrendered, stake $5.00, paid $2.50
Meters after: Primary progressive $10,000.07, Secondary progressive $10,000.02, \
Progressive Payout meter $10,000.25"""


def test_recall_shows_awards_envy_bonuses_and_capped_winnings() -> None:
    # Seat 1 goes to War on a suited 9H tie and the War deal is 9H-9H: a Suited
    # Four-of-a-Kind. With a $1,000 payout limit per hand its 1000:1 pay is capped, the
    # meter award is not, and seat 2's $5,000 Envy Bonus is capped too.
    p = maryland_bonus(spots=3, payout_limit=PayoutLimit(100_000, PayoutLimitScope.SEAT_ROUND,
                                                         True, True))
    lines = render_round(played(
        p, ["7D", "9H", "2C", "3C", "9H", "2H", "3H", "4H", "9H", "9H"],
        [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
         PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), PlaceWager(2, 2, BetKind.INITIAL, 500),
         PlaceWager(2, 2, BetKind.PROGRESSIVE_PAYOUT, 500), CloseBets(), Deal(), Settle(),
         Decide(1, 1, Decision.WAR), WarDeal(), Settle()])).splitlines()
    assert lines[lines.index("  decision spot 1: War, by the player"):] == [
        "  decision spot 1: War, by the player",
        "  settled  spot 1: Initial Wager pushed, stake $5.00, paid $5.00",
        "  settled  spot 1: War Wager won, stake $5.00, paid $15.00",
        "  hand     spot 1: Progressive Payout Hand Suited Four-of-a-Kind",
        "  settled  spot 1: Progressive Payout Wager won, stake $5.00, paid $995.00, "
        "capped $4,010.00",
        "  award    spot 1: Progressive Payout meter $10,000.50, "
        "meter $10,000.50 -> $10,000.00, seeded $10,000.00",
        "  settled  spot 1: Progressive award won, paid $10,000.50",
        "Seat 2: credits $1,000.00 -> $1,990.00, net +$990.00",
        "  placed   spot 2: Initial Wager $5.00, Progressive Payout Wager $5.00",
        "  settled  spot 2: Initial Wager lost, stake $5.00, paid $0.00",
        "  settled  spot 2: Progressive Payout Wager lost, stake $5.00, paid $0.00",
        "  envy     for seat 1's Suited Four-of-a-Kind on spot 1",
        "  settled  Envy Bonus won, paid $1,000.00, capped $4,000.00",
        "Meters after: Primary progressive $10,000.00, Secondary progressive $10,000.00, "
        "Progressive Payout meter $10,000.00",
    ]


def test_recall_shows_the_bonus_spin_trigger_and_the_wheel_stops_with_their_symbols() -> None:
    text = render_round(played(
        maryland_bonus(spots=3), ["7D", "2C", "3C", "4C", "AH"],
        [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceBonusSpin(1, 500),
         CloseBets(), Deal(), Settle(), Spin(WheelStops(0, 1, 0))]))
    lines = text.splitlines()
    assert "Bonus Spin triggered by AH for seats 1" in lines
    assert 'Wheel: Community ring stop 0 "$150", Seat ring stop 1, Hot Spot ring stop 0 ' \
           '"JACKPOT"' in lines
    assert lines[-4:-1] == [
        "  settled  Bonus Spin Xtreme won, stake $5.00, paid $150.00",
        "  award    Primary progressive $10,000.07, meter $10,000.07 -> $10,000.00, "
        "seeded $10,000.00",
        "  settled  Progressive award won, paid $10,000.07",
    ]


def test_a_voided_round_shows_its_reason_and_what_the_void_credited() -> None:
    text = render_round(played(
        maryland_bonus(spots=3), ["7D", "9H", "5C", "3C", "5S"],
        [OpenBets(), PlaceWager(2, 1, BetKind.INITIAL, 1_000),
         PlaceWager(3, 2, BetKind.INITIAL, 500), CloseBets(), Deal(), Settle(),
         Void("card dropped face up")], number=4))
    lines = text.splitlines()
    assert lines[0] == "Round 4: VOIDED (card dropped face up)"
    # voided while seat 3's tie awaits its decision: the win already paid to seat 2 is
    # taken back and seat 3's wager returned, so every seat ends where it began
    assert lines[lines.index("Seat 2: credits $1,000.00 -> $1,000.00"):-1] == [
        "Seat 2: credits $1,000.00 -> $1,000.00",
        "  placed   spot 1: Initial Wager $10.00",
        "  settled  spot 1: Initial Wager won, stake $10.00, paid $20.00",
        "  void     credited -$10.00",
        "Seat 3: credits $1,000.00 -> $1,000.00",
        "  placed   spot 2: Initial Wager $5.00",
        "  void     credited +$5.00",
    ]


def test_money_is_dollars_and_cents_with_thousands_separators() -> None:
    assert [money(c) for c in (0, 5, 123_456, 100_000_000, -750)] == [
        "$0.00", "$0.05", "$1,234.56", "$1,000,000.00", "-$7.50"]
    assert [signed_money(c) for c in (3_500, 0, -750)] == ["+$35.00", "$0.00", "-$7.50"]


def tiny_records() -> list[dict[str, Any]]:
    """A Progressive Payout hit with its award and an Envy Bonus, then a voided round."""
    hit = record([
        settled(3, 1, WagerKind.INITIAL, Result.LOST, 500),
        PayoutHandMade(3, 1, PayoutHand.SUITED_TIE),
        settled(3, 1, WagerKind.PROGRESSIVE_PAYOUT, Result.WON, 500, 500, 7_500),
        ProgressiveAwarded(ProgressiveLevel.PROGRESSIVE_PAYOUT, 3, 1, 1_000_050, 1_000_050,
                           1_000_000, 1_000_000, 0),
        settled(3, 1, WagerKind.PROGRESSIVE, Result.WON, 0, 0, 1_000_050),
        EnvyBonus(5, 3, 1, PayoutHand.SUITED_FOUR_OF_A_KIND),
        settled(5, 0, WagerKind.ENVY_BONUS, Result.WON, 0, 0, 500_000, capped=100_000),
    ], 7)
    voided = record([settled(2, 1, WagerKind.INITIAL, Result.WON, 500, 500, 500),
                     RoundVoided(8, "misdeal", (0, -500, 0, 1_000, 0, 0))], 8, "voided",
                    "misdeal", ended_at="2026-11-22T11:51:30.000000+00:00")
    return [hit, voided]


def test_csv_has_one_row_per_settled_wager_award_and_void() -> None:
    assert export_csv(tiny_records()) == """\
round,outcome,ended_at,paytable,seat,spot,kind,result,stake_cents,paid_cents,capped_cents,\
detail,dealer
7,complete,2026-11-22T11:50:41.654321+00:00,md-community-5,3,1,initial,lost,500,0,0,,
7,complete,2026-11-22T11:50:41.654321+00:00,md-community-5,3,1,progressive_payout,won,500,8000,0,\
suited_tie,
7,complete,2026-11-22T11:50:41.654321+00:00,md-community-5,3,1,progressive,won,0,1000050,0,\
progressive_payout,
7,complete,2026-11-22T11:50:41.654321+00:00,md-community-5,5,0,envy_bonus,won,0,400000,100000,\
suited_four_of_a_kind held by seat 3 on spot 1,
8,voided,2026-11-22T11:51:30.000000+00:00,md-community-5,2,1,initial,won,500,1000,0,,
8,voided,2026-11-22T11:51:30.000000+00:00,md-community-5,2,0,void,voided,0,-500,0,,
8,voided,2026-11-22T11:51:30.000000+00:00,md-community-5,4,0,void,voided,0,1000,0,,
"""


def test_json_export_holds_the_records_and_the_event_log_as_stored() -> None:
    entry = {"id": 1, "at": "2026-11-22T11:00:00+00:00", "kind": "power_up", "actor": None,
             "details": {}}
    assert export_json([{"round": 1, "void_reason": "tilt: “RNG”"}], [entry]) == """\
{
  "rounds": [
    {
      "round": 1,
      "void_reason": "tilt: “RNG”"
    }
  ],
  "event_log": [
    {
      "id": 1,
      "at": "2026-11-22T11:00:00+00:00",
      "kind": "power_up",
      "actor": null,
      "details": {}
    }
  ]
}"""
    records = tiny_records()
    assert json.loads(export_json(records, [])) == {"rounds": records, "event_log": []}
