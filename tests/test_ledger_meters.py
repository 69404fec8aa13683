"""Meters as sums over the hand ledger and the event log (SPEC §5).

Each record is built from real events through the codec, as the store writes
them; the last test plays real rounds through the engine and checks that the
meters agree with what the engine says each seat won or lost.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from etg.core.cards import Card
from etg.core.commands import (
    BetKind,
    CloseBets,
    CloseDecisions,
    Deal,
    Decide,
    NextRound,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    Settle,
    Spin,
    Void,
    WarDeal,
)
from etg.core.engine import TableState
from etg.core.events import (
    BetsClosed,
    BetsOpened,
    BonusSpinTriggered,
    CardDealt,
    DecisionMade,
    DecisionsOpened,
    EnvyBonus,
    Event,
    PayoutHandMade,
    ProgressiveAwarded,
    ProgressiveContributed,
    RoundComplete,
    RoundVoided,
    Target,
    WagerPlaced,
    WagerSettled,
    WheelStopped,
)
from etg.core.paytable import (
    Decision,
    PayoutHand,
    PayoutLimit,
    PayoutLimitScope,
    ProgressiveLevel,
)
from etg.core.settle import Payment, Result, WagerKind
from etg.core.wheel import WheelStops
from etg.ledger.codec import dump_event
from etg.ledger.meters import DEFINITIONS, TABLE, log_meters, round_meters, sum_meters
from tests.tables import maryland_bonus, run, table

PRIMARY, SECONDARY = ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY
PAYOUT = ProgressiveLevel.PROGRESSIVE_PAYOUT


def record(events: Sequence[Event], round_number: int = 1, outcome: str = "complete",
           void_reason: str | None = None, **fields: Any) -> dict[str, Any]:
    """A hand ledger record in the store's shape; ``fields`` override the defaults."""
    out: dict[str, Any] = {
        "round": round_number, "outcome": outcome, "void_reason": void_reason,
        "paytable": {"id": "md-community-5", "sha256": "0123456789abcdef" * 4},
        "started_at": "2026-11-22T11:50:01.123456+00:00",
        "ended_at": "2026-11-22T11:50:41.654321+00:00",
        "shoe": {"shuffle_number": 3, "cut_index": 201},
        "seats": 6, "spots": 5,
        "credits_before": [100_000] * 6, "credits_after": [100_000] * 6,
        "dealer_card": None, "dealer_war_card": None,
        "spot_cards": [None] * 5, "war_cards": [None] * 5,
        "wagers": [[{"initial": 0, "tie": 0, "progressive_payout": 0}] * 5] * 6,
        "bonus_spin": [0] * 6, "wheel": None,
        "events": [dump_event(e) for e in events],
        "meters_after": {},
    }
    out.update(fields)
    return out


def settled(seat: int, spot: int, kind: WagerKind, result: Result, stake: int,
            returned: int = 0, win: int = 0, capped: int = 0, credits: int = 0) -> WagerSettled:
    """A WagerSettled as the cashier makes it: ``paid`` is the return plus uncapped winnings."""
    return WagerSettled(seat, spot, Payment(kind, result, stake, returned, win),
                        returned + win - capped, capped, credits)


def card(code: str) -> Card:
    return Card.parse(code)


def test_a_plain_round_counts_coin_in_coin_out_and_games() -> None:
    # seat 1: $5 Initial wins, $1 Tie loses; seat 2: $10 Initial loses
    events: list[Event] = [
        settled(2, 2, WagerKind.INITIAL, Result.LOST, 1_000),
        settled(1, 1, WagerKind.INITIAL, Result.WON, 500, 500, 500),
        settled(1, 1, WagerKind.TIE, Result.LOST, 100),
        RoundComplete(1, (400, -1_000, 0, 0, 0, 0), False),
    ]
    assert round_meters(record(events)) == Counter({
        (0, "coin_in.initial"): 1_500, (1, "coin_in.initial"): 500, (2, "coin_in.initial"): 1_000,
        (0, "coin_in.tie"): 100, (1, "coin_in.tie"): 100,
        (0, "coin_out.initial"): 1_000, (1, "coin_out.initial"): 1_000,
        (0, "games.played"): 1, (1, "games.played"): 1, (2, "games.played"): 1,
        (0, "games.won"): 1, (1, "games.won"): 1,
        (0, "games.lost"): 1, (2, "games.lost"): 1,
    })


def test_a_war_round_counts_the_tie_hand_the_war_and_its_wagers() -> None:
    # seat 1 ties on spot 1 with $5 Initial and $1 Tie, goes to War with a $1 War-deal Tie,
    # and wins the War: Initial pushed, War 1:1, War-deal Tie lost
    events: list[Event] = [
        settled(1, 1, WagerKind.TIE, Result.WON, 100, 100, 1_000),
        DecisionsOpened(((1, 1),)),
        DecisionMade(1, 1, Decision.WAR, False, 100, 98_900),
        settled(1, 1, WagerKind.INITIAL, Result.PUSHED, 500, 500),
        settled(1, 1, WagerKind.WAR, Result.WON, 500, 500, 500),
        settled(1, 1, WagerKind.WAR_TIE, Result.LOST, 100),
    ]
    expected = Counter({
        "coin_in.initial": 500, "coin_in.tie": 100, "coin_in.war": 500, "coin_in.war_tie": 100,
        "coin_out.initial": 500, "coin_out.tie": 1_100, "coin_out.war": 1_000,
        "games.played": 1, "games.tied": 1, "wars": 1,
    })
    assert round_meters(record(events)) == at_seats(expected, 0, 1)


def test_a_surrender_by_default_returns_half_and_counts_as_a_tied_game() -> None:
    events: list[Event] = [
        DecisionsOpened(((3, 2),)),
        DecisionMade(3, 2, Decision.SURRENDER, True, 0, 99_000),
        settled(3, 2, WagerKind.INITIAL, Result.SURRENDERED, 1_000, 500),
    ]
    expected = Counter({"coin_in.initial": 1_000, "coin_out.initial": 500, "games.played": 1,
                        "games.tied": 1, "surrenders": 1})
    assert round_meters(record(events)) == at_seats(expected, 0, 3)


def test_breaking_even_without_a_tie_hand_is_a_lost_game() -> None:
    # $5 Initial wins on spot 1, $5 Initial loses on spot 2: net zero
    events = [settled(1, 1, WagerKind.INITIAL, Result.WON, 500, 500, 500),
              settled(1, 2, WagerKind.INITIAL, Result.LOST, 500)]
    meters = round_meters(record(events))
    assert (meters[1, "games.won"], meters[1, "games.lost"], meters[1, "games.tied"]) == (0, 1, 0)


def test_a_progressive_payout_hit_with_its_envy_bonus() -> None:
    # seat 3 holds a Suited Four-of-a-Kind on spot 1; seat 4's Progressive Payout Wager loses
    # and earns the Envy Bonus for it
    events: list[Event] = [
        ProgressiveContributed(PAYOUT, 1_000, 50_000_000, 50, 0, 1_000_050),
        settled(4, 2, WagerKind.PROGRESSIVE_PAYOUT, Result.LOST, 500),
        PayoutHandMade(3, 1, PayoutHand.SUITED_FOUR_OF_A_KIND),
        settled(3, 1, WagerKind.PROGRESSIVE_PAYOUT, Result.WON, 500, 500, 500_000),
        ProgressiveAwarded(PAYOUT, 3, 1, 1_000_050, 1_000_050, 1_000_000, 1_000_000, 0),
        settled(3, 1, WagerKind.PROGRESSIVE, Result.WON, 0, 0, 1_000_050),
        EnvyBonus(4, 3, 1, PayoutHand.SUITED_FOUR_OF_A_KIND),
        settled(4, 0, WagerKind.ENVY_BONUS, Result.WON, 0, 0, 500_000),
    ]
    assert round_meters(record(events)) == Counter({
        (0, "progressive.contribution.progressive_payout"): 50,
        (0, "progressive.contribution_millionths.progressive_payout"): 50_000_000,
        (0, "coin_in.progressive_payout"): 1_000, (3, "coin_in.progressive_payout"): 500,
        (4, "coin_in.progressive_payout"): 500,
        (0, "coin_out.progressive_payout"): 500_500, (3, "coin_out.progressive_payout"): 500_500,
        (0, "coin_out.progressive"): 1_000_050, (3, "coin_out.progressive"): 1_000_050,
        (0, "coin_out.envy_bonus"): 500_000, (4, "coin_out.envy_bonus"): 500_000,
        (0, "progressive.hits.progressive_payout"): 1, (3, "progressive.hits.progressive_payout"): 1,
        (0, "progressive.amount.progressive_payout"): 1_000_050,
        (3, "progressive.amount.progressive_payout"): 1_000_050,
        (0, "attendant_paid_jackpots"): 1, (3, "attendant_paid_jackpots"): 1,
        (0, "attendant_paid_jackpots.amount"): 1_000_050,
        (3, "attendant_paid_jackpots.amount"): 1_000_050,
        # only side wagers settled here: both seats played, neither won the main game
        (0, "games.played"): 1, (3, "games.played"): 1, (4, "games.played"): 1,
        (0, "games.lost"): 2, (3, "games.lost"): 1, (4, "games.lost"): 1,
    })


def test_a_bonus_spin_counts_trigger_spin_contributions_and_the_jackpot() -> None:
    # seat 1 $5 and seat 2 $1 Bonus Spin; the Hot Spot lands on seat 1 with the primary
    events: list[Event] = [
        ProgressiveContributed(PRIMARY, 600, 9_000_000, 9, 0, 1_000_009),
        ProgressiveContributed(SECONDARY, 600, 3_000_000, 1, 2, 1_000_001),
        BonusSpinTriggered(card("AH"), (2, 1)),
        WheelStopped(WheelStops(0, 1, 0), "$150", "JACKPOT"),
        settled(2, 0, WagerKind.BONUS_SPIN, Result.WON, 100, 0, 3_000),
        settled(1, 0, WagerKind.BONUS_SPIN, Result.WON, 500, 0, 15_000),
        ProgressiveAwarded(PRIMARY, 1, 0, 1_000_009, 1_000_009, 1_000_000, 1_000_000, 0),
        settled(1, 0, WagerKind.PROGRESSIVE, Result.WON, 0, 0, 1_000_009),
    ]
    meters = round_meters(record(events))
    table_level = {name: value for (seat, name), value in meters.items() if seat == TABLE}
    assert table_level == {
        "progressive.contribution.primary": 9, "progressive.contribution_millionths.primary":
        9_000_000, "progressive.contribution.secondary": 3,
        "progressive.contribution_millionths.secondary": 3_000_000,
        "bonus_spin.triggers": 1, "bonus_spin.spins": 1,
        "coin_in.bonus_spin": 600, "coin_out.bonus_spin": 18_000,
        "coin_out.progressive": 1_000_009, "progressive.hits.primary": 1,
        "progressive.amount.primary": 1_000_009, "attendant_paid_jackpots": 1,
        "attendant_paid_jackpots.amount": 1_000_009,
        "games.played": 1, "games.lost": 2,
    }
    assert {name: value for (seat, name), value in meters.items() if seat == 2} == {
        "bonus_spin.triggers": 1, "bonus_spin.spins": 1, "coin_in.bonus_spin": 100,
        "coin_out.bonus_spin": 3_000, "games.played": 1, "games.lost": 1,
    }
    assert meters[1, "progressive.hits.primary"] == 1
    assert meters[1, "coin_out.bonus_spin"] == 15_000


def test_a_capped_payout_counts_what_was_paid_and_what_was_withheld() -> None:
    # a $100 Tie Wager wins $1,000 but the payout limit leaves $500 of it with the house
    events = [settled(1, 1, WagerKind.TIE, Result.WON, 10_000, 10_000, 100_000, capped=50_000)]
    meters = round_meters(record(events))
    assert (meters[1, "coin_out.tie"], meters[1, "capped"], meters[0, "capped"]) == (
        60_000, 50_000, 50_000)


def test_a_voided_round_counts_one_void_and_nothing_else() -> None:
    # voided after the original deal was settled: everything the round did is reversed
    events: list[Event] = [
        BetsOpened(4), WagerPlaced(1, 1, BetKind.INITIAL, 500, 500, 99_500), BetsClosed(4),
        ProgressiveContributed(PAYOUT, 500, 25_000_000, 25, 0, 1_000_025),
        CardDealt(Target.SPOT, 1, card("9H"), False), CardDealt(Target.DEALER, 0, card("2C"), False),
        settled(1, 1, WagerKind.INITIAL, Result.WON, 500, 500, 500, credits=100_500),
        RoundVoided(4, "card dropped face up", (-500, 0, 0, 0, 0, 0)),
    ]
    voided = record(events, 4, "voided", "card dropped face up")
    assert round_meters(voided) == Counter({(0, "voids"): 1})


def test_event_log_entries_count_cash_power_ups_and_operator_menu_entries() -> None:
    entries = [
        log(1, "power_up"),
        log(2, "cash_in", {"seat": 1, "amount": 100_000}),
        log(3, "cash_in", {"seat": 2, "amount": 50_000}),
        log(4, "operator_login", actor="tech-7"),
        log(5, "cash_out", {"seat": 1, "amount": 120_000}),
        log(6, "void", {"round": 4, "reason": "card dropped face up"}),  # counted from rounds
        log(7, "tilt", {"reason": "hash chain"}),
        log(8, "operator_login", actor="tech-7"),
    ]
    assert sum_meters([], entries) == Counter({
        (0, "power_ups"): 1, (0, "operator_menu_entries"): 2,
        (0, "cash_in"): 150_000, (1, "cash_in"): 100_000, (2, "cash_in"): 50_000,
        (0, "cash_out"): 120_000, (1, "cash_out"): 120_000,
    })
    assert log_meters(entries[6]) == Counter()


def test_sum_meters_adds_rounds_and_entries() -> None:
    voided = record([RoundVoided(2, "misdeal", (0,) * 6)], 2, "voided", "misdeal")
    played = record([settled(1, 1, WagerKind.INITIAL, Result.LOST, 500)], 3)
    total = sum_meters([voided, played, voided], [log(1, "cash_in", {"seat": 1, "amount": 500})])
    assert total == Counter({
        (0, "voids"): 2, (0, "coin_in.initial"): 500, (1, "coin_in.initial"): 500,
        (0, "games.played"): 1, (1, "games.played"): 1, (0, "games.lost"): 1,
        (1, "games.lost"): 1, (0, "cash_in"): 500, (1, "cash_in"): 500,
    })


def test_engine_rounds_agree_with_what_the_engine_says_each_seat_won() -> None:
    # Real rounds through the engine: a Bonus Spin jackpot, a War round with a capped Tie
    # Wager, a surrender by default, and a void. For every seat, coin out less coin in is
    # the round's net; seat 0 is the sum of the seats; won, lost and tied partition the games.
    p = maryland_bonus(payout_limit=PayoutLimit(20_000, PayoutLimitScope.SEAT_ROUND, True,
                                                True))
    s = table(p, ["7D", "2C", "3C", "4C", "5C", "6C", "AH",  # round 1: red Ace, spots lower
                  "9H", "9C", "3D", "4D", "5D", "9S",  # round 2: spots 1 and 2 tie the dealer
                  "2H", "3H", "4H", "KH", "8S",  # War: burn 3, spot 1 War card, dealer's
                  "JD", "JC", "JH", "JS", "10D", "2S"])  # round 3: voided after the deal
    records: list[dict[str, Any]] = []

    def play(state: TableState, commands: list[Any], number: int) -> TableState:
        state, events = run(state, commands)
        outcome = "voided" if isinstance(events[-1], RoundVoided) else "complete"
        records.append(record(events, number, outcome))
        state, _ = run(state, [NextRound()])
        return state

    s = play(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500), PlaceBonusSpin(1, 500),
                 PlaceWager(2, 2, BetKind.INITIAL, 500), PlaceBonusSpin(2, 100), CloseBets(),
                 Deal(), Settle(), Spin(WheelStops(0, 1, 0))], 1)
    # seat 1's $25 Tie Wager wins $250 against a $200 limit; its War win is then capped whole
    s = play(s, [OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
                 PlaceWager(1, 1, BetKind.TIE, 2_500), PlaceWager(4, 2, BetKind.INITIAL, 500),
                 PlaceWager(4, 3, BetKind.INITIAL, 500), CloseBets(), Deal(), Settle(),
                 Decide(1, 1, Decision.WAR), CloseDecisions(), WarDeal(), Settle()], 2)
    play(s, [OpenBets(), PlaceWager(2, 1, BetKind.INITIAL, 1_000), CloseBets(), Deal(),
             Void("dealer error")], 3)

    meters = sum_meters(records, [])
    nets = [e["net"] for r in records for e in r["events"] if e["type"] == "RoundComplete"]
    for seat in range(1, p.seats + 1):
        coin_in = sum(meters[seat, name] for name in DEFINITIONS if name.startswith("coin_in."))
        coin_out = sum(meters[seat, name] for name in DEFINITIONS if name.startswith("coin_out."))
        assert coin_out - coin_in == sum(net[seat - 1] for net in nets)
        results = sum(meters[seat, name] for name in ("games.won", "games.lost", "games.tied"))
        assert results == meters[seat, "games.played"]
    assert {name for _seat, name in meters} <= set(DEFINITIONS)
    per_round = {"games.played", "bonus_spin.triggers", "bonus_spin.spins", "voids"}
    for name in {name for _seat, name in meters} - per_round:
        if not name.startswith("progressive.contribution"):
            assert meters[TABLE, name] == sum(meters[seat, name] for seat in range(1, 7)), name
    assert {(seat, name): value for (seat, name), value in meters.items()
            if not name.startswith(("coin_", "progressive.contribution"))} == {
        (0, "games.played"): 2, (1, "games.played"): 2, (2, "games.played"): 1,
        (4, "games.played"): 1,
        (0, "games.lost"): 2, (1, "games.lost"): 1, (2, "games.lost"): 1,  # round 1: spots lower
        (0, "games.tied"): 2, (1, "games.tied"): 1, (4, "games.tied"): 1,
        (0, "wars"): 1, (1, "wars"): 1, (0, "surrenders"): 1, (4, "surrenders"): 1,
        (0, "capped"): 5_500, (1, "capped"): 5_500,
        (0, "bonus_spin.triggers"): 1, (1, "bonus_spin.triggers"): 1,
        (2, "bonus_spin.triggers"): 1, (0, "bonus_spin.spins"): 1, (1, "bonus_spin.spins"): 1,
        (2, "bonus_spin.spins"): 1,
        (0, "progressive.hits.primary"): 1, (1, "progressive.hits.primary"): 1,
        (0, "progressive.amount.primary"): 1_000_009, (1, "progressive.amount.primary"): 1_000_009,
        (0, "attendant_paid_jackpots"): 1, (1, "attendant_paid_jackpots"): 1,
        (0, "attendant_paid_jackpots.amount"): 1_000_009,
        (1, "attendant_paid_jackpots.amount"): 1_000_009,
        (0, "voids"): 1,
    }


def at_seats(meters: Counter[str], *seats: int) -> Counter[tuple[int, str]]:
    """The same meter values at each of ``seats`` (seat 0 and the one seat that played)."""
    return Counter({(seat, name): value for seat in seats for name, value in meters.items()})


def log(entry_id: int, kind: str, details: dict[str, Any] | None = None,
        actor: str | None = None) -> dict[str, Any]:
    """An event log entry in the store's shape."""
    return {"id": entry_id, "at": f"2026-11-22T12:00:{entry_id:02d}+00:00", "kind": kind,
            "actor": actor, "details": details or {}}
