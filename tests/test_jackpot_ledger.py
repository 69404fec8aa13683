"""Jackpot validation, hand pays, the dealer and tips through the controller and the ledger.

The shipped Maryland five-spot paytable (MD Ch. 9 J(4), Ch. 8 E(4), Ch. 2 D): the
Progressive Payout Wager is $5 on a $10,000.00 meter growing 5 % of each wager;
a Suited Four-of-a-Kind pays the meter and 1000 to 1, and $5,000 of Envy Bonus to
every other seat with the wager.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from etg.cli import main
from etg.core.commands import (
    BetKind,
    CashIn,
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
    Shuffle,
    ShuffleReason,
    SignInDealer,
    Tip,
    ValidateJackpot,
    Void,
    WarDeal,
)
from etg.core.engine import apply
from etg.core.events import HandPaid, JackpotValidated, WagerSettled
from etg.core.jackpot import JackpotRules, ValidatorRole, validator_words
from etg.core.paytable import Decision, ProgressiveLevel
from etg.core.refusal import Reason, Refused
from etg.core.rng import SeededSource
from etg.core.settle import Payment, Result, WagerKind
from etg.core.state import Phase
from etg.ledger.codec import dump_event, load_command, load_event
from etg.ledger.compact import Layout
from etg.ledger.export import csv_lines
from etg.ledger.meters import ATTENDANT_PAID_JACKPOTS, ATTENDANT_PAID_JACKPOTS_AMOUNT, TIPS
from etg.ledger.recall import render_round
from etg.ledger.store import Ledger
from etg.ledger.verify import verify
from etg.table.bots import BOT_FLOORPERSON, RoundDriver, standard_bots
from etg.table.controller import Table
from etg.table.pin import jackpot_validation
from tests.ledger_support import paytable
from tests.tables import maryland_bonus, rigged_draw, run
from tests.tables import table as engine_table

CREDITS = 100_000
FLOORPERSON, SUPERVISOR = ValidatorRole.FLOORPERSON, ValidatorRole.SUPERVISOR
METER = 1_000_050
PP_WIN = 500_000
ENVY = 500_000
MD = "md-community-5"
# burn, spots 1-5, the dealer's 9♥; three War burns, spot 1's War card, the dealer's
SUITED_FOUR = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", "3S", "3S", "3S", "9H", "9H"]


DEFAULT_RULES = JackpotRules()  # $1,200.00


def open_md(db: Path, rules: JackpotRules | None = DEFAULT_RULES) -> Table:
    return Table.open(Ledger.open(db), paytable(), SeededSource(1), jackpot_rules=rules)


def send_all(table: Table, commands: list[tuple[Command, str]]) -> None:
    for command, actor in commands:
        table.send(command, actor=actor)


def to_the_lock(table: Table) -> None:
    """Seats 1 and 2 each $5 Initial + $5 Progressive Payout; seat 1 makes the hand."""
    p = table.state.paytable
    send_all(table, [
        (Shuffle(rigged_draw(p, SUITED_FOUR), ShuffleReason.NEW_SHOE), "dealer"),
        (CashIn(1, CREDITS), "attendant"), (CashIn(2, CREDITS), "attendant"),
        (OpenBets(), "dealer"),
        (PlaceWager(1, 1, BetKind.INITIAL, 500), "player"),
        (PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), "player"),
        (PlaceWager(2, 3, BetKind.INITIAL, 500), "player"),
        (PlaceWager(2, 3, BetKind.PROGRESSIVE_PAYOUT, 500), "player"),
        (CloseBets(), "dealer"), (Deal(), "dealer"), (Settle(), "dealer"),
        (Decide(1, 1, Decision.WAR), "player"), (WarDeal(), "dealer"), (Settle(), "dealer"),
    ])
    assert table.state.phase is Phase.JACKPOT


def meters(table: Table) -> Counter[tuple[int, str]]:
    return table.ledger.meters()[MD]


def test_a_hand_pay_is_validated_recorded_metered_and_recalled(tmp_path: Path) -> None:
    # MD Ch. 9 J(4)(a)-(e): at $1,200.00 all three awards are hand pays, the Envy Bonus last
    table = open_md(tmp_path / "l.db")
    to_the_lock(table)
    [lock] = table.ledger.event_log("jackpot_lock")
    assert [(a["seat"], a["kind"], a["amount"], a["hand_pay"]) for a in lock["details"]["awards"]
            ] == [(1, "progressive_payout", PP_WIN, True), (1, "progressive", METER, True),
                  (2, "envy_bonus", ENVY, True)]
    table.send(ValidateJackpot("floorperson", FLOORPERSON), actor="floorperson")
    assert table.state.phase is Phase.COMPLETE
    assert table.state.credits[:2] == (CREDITS + 1_000, CREDITS - 1_000)

    pays = table.ledger.event_log("hand_pay")
    assert [(e["actor"], e["details"]) for e in pays] == [
        ("floorperson", {"round": 1, "seat": 1, "spot": 1, "kind": "progressive_payout",
                         "amount": PP_WIN, "validator": "floorperson", "role": "floorperson",
                         "paytable_id": MD}),
        ("floorperson", {"round": 1, "seat": 1, "spot": 1, "kind": "progressive",
                         "amount": METER, "validator": "floorperson", "role": "floorperson",
                         "paytable_id": MD}),
        ("floorperson", {"round": 1, "seat": 2, "spot": 0, "kind": "envy_bonus",
                         "amount": ENVY, "validator": "floorperson", "role": "floorperson",
                         "paytable_id": MD}),
    ]
    assert all(e["at"] for e in pays)  # when: the commit's time
    [validated] = table.ledger.event_log("jackpot_validated")
    assert validated["details"] == {"round": 1, "validator": "floorperson", "role": "floorperson",
                                    "amount": PP_WIN + METER + ENVY,
                                    "hand_paid": PP_WIN + METER + ENVY, "paytable_id": MD}

    m = meters(table)
    assert (m[1, ATTENDANT_PAID_JACKPOTS], m[1, ATTENDANT_PAID_JACKPOTS_AMOUNT]) == (2,
                                                                                   PP_WIN + METER)
    assert (m[2, ATTENDANT_PAID_JACKPOTS], m[2, ATTENDANT_PAID_JACKPOTS_AMOUNT]) == (1, ENVY)
    assert m[0, ATTENDANT_PAID_JACKPOTS_AMOUNT] == PP_WIN + METER + ENVY
    # a hand pay never reaches the credits, so it is no coin out: only the $5 stake came back
    assert m[1, "coin_out.progressive_payout"] == 500
    assert m[1, "coin_out.progressive"] == 0 and m[2, "coin_out.envy_bonus"] == 0
    assert m[0, "progressive.amount.progressive_payout"] == METER

    text = render_round(table.ledger.rounds(last=1)[0])
    assert "Jackpot validated by floorperson: $20,000.50, of which $20,000.50 paid by the " \
           "attendant" in text
    assert ("  hand pay spot 1: Progressive award $10,000.50 paid by the attendant, validated "
            "by floorperson") in text
    assert "  hand pay Envy Bonus $5,000.00 paid by the attendant, validated by floorperson" \
        in text
    # The CSV export: a row per hand pay, what left the house by the attendant's hand
    rows = [row[4:] for row in csv.reader("".join(csv_lines(table.ledger.rounds(last=1)))
                                          .splitlines()[1:]) if row[6] == "hand_pay"]
    assert [(r[0], r[1], r[5], r[7]) for r in rows] == [
        ("1", "1", str(PP_WIN), "progressive_payout paid by the attendant, validated by "
                                "floorperson"),
        ("1", "1", str(METER), "progressive paid by the attendant, validated by floorperson"),
        ("2", "0", str(ENVY), "envy_bonus paid by the attendant, validated by floorperson")]
    assert verify(table.ledger) == []
    table.close()
    again = open_md(tmp_path / "l.db")
    assert again.tilt is None
    again.close()


def test_below_the_threshold_the_validated_awards_are_credited_and_no_hand_pay_is_metered(
        tmp_path: Path) -> None:
    table = open_md(tmp_path / "l.db", JackpotRules(2_000_000))  # $20,000.00
    to_the_lock(table)
    table.send(ValidateJackpot("supervisor", SUPERVISOR), actor="supervisor")
    assert table.state.credits[:2] == (CREDITS + 1_000 + PP_WIN + METER, CREDITS - 1_000 + ENVY)
    assert table.ledger.event_log("hand_pay") == []
    m = meters(table)
    assert m[0, ATTENDANT_PAID_JACKPOTS] == 0
    assert m[1, "coin_out.progressive"] == METER and m[2, "coin_out.envy_bonus"] == ENVY
    assert verify(table.ledger) == []
    table.close()


def test_rounds_played_without_validation_count_their_progressive_awards_as_before(
        tmp_path: Path) -> None:
    """A table without jackpot rules (a ledger from before validation) credits the awards,
    and the meters still add them up as that program did: each progressive award on the
    attendant-paid meters (see etg.ledger.meters)."""
    table = open_md(tmp_path / "l.db", None)
    p = table.state.paytable
    send_all(table, [
        (Shuffle(rigged_draw(p, SUITED_FOUR), ShuffleReason.NEW_SHOE), "dealer"),
        (CashIn(1, CREDITS), "attendant"), (OpenBets(), "dealer"),
        (PlaceWager(1, 1, BetKind.INITIAL, 500), "player"),
        (PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), "player"),
        (CloseBets(), "dealer"), (Deal(), "dealer"), (Settle(), "dealer"),
        (Decide(1, 1, Decision.WAR), "player"), (WarDeal(), "dealer"), (Settle(), "dealer")])
    assert table.state.phase is Phase.COMPLETE
    m = meters(table)
    meter = METER - 25  # one $5 wager fed it
    assert (m[1, ATTENDANT_PAID_JACKPOTS], m[1, ATTENDANT_PAID_JACKPOTS_AMOUNT]) == (1, meter)
    assert m[1, "coin_out.progressive"] == meter
    assert verify(table.ledger, full=True) == []
    table.close()


def test_a_crash_during_the_lock_resumes_the_lock(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    table = open_md(db)
    to_the_lock(table)
    locked = table.state
    table.ledger.close()  # the power goes: no shutdown, no checkpoint

    again = open_md(db)
    assert again.tilt is None
    assert again.state == locked and again.state.jackpot is not None
    assert again.ledger.event_log("power_up")[-1]["details"]["after_interruption"] is True
    with pytest.raises(Refused) as refusal:
        again.send(OpenBets())
    assert refusal.value.reason is Reason.JACKPOT_LOCKED
    again.send(ValidateJackpot("floorperson", FLOORPERSON), actor="floorperson")
    assert again.state.phase is Phase.COMPLETE
    assert again.state.credits[:2] == (CREDITS + 1_000, CREDITS - 1_000)
    [record] = again.ledger.rounds()
    assert record["outcome"] == "complete" and record["credits_after"][:2] == [CREDITS + 1_000,
                                                                              CREDITS - 1_000]
    assert len(again.ledger.event_log("hand_pay")) == 3  # paid once, after the restart
    assert verify(again.ledger, full=True) == []
    again.close()


def test_the_cabinets_threshold_is_applied_at_start_and_logged(tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    table = open_md(db, None)
    assert table.state.jackpot_rules is None
    table.close()
    table = open_md(db, JackpotRules(50_000))
    assert table.state.jackpot_rules == JackpotRules(50_000)
    [entry] = table.ledger.event_log("jackpot_rules")
    assert (entry["actor"], entry["details"]) == (
        "cabinet", {"hand_pay_cents": 50_000, "previous": None, "paytable_id": MD})
    table.close()
    table = open_md(db, JackpotRules(50_000))  # unchanged: nothing sent, nothing logged
    assert len(table.ledger.event_log("jackpot_rules")) == 1
    to_the_lock(table)
    table.ledger.close()
    table = open_md(db, JackpotRules(75_000))  # a lock waits: its awards keep their threshold
    assert table.state.jackpot_rules == JackpotRules(50_000)
    table.close()


def test_the_bots_floorperson_validates_a_jackpot_in_autoplay(tmp_path: Path) -> None:
    table = open_md(tmp_path / "l.db")
    p = table.state.paytable
    table.send(Shuffle(rigged_draw(p, SUITED_FOUR), ShuffleReason.NEW_SHOE))
    RoundDriver(standard_bots(p), SeededSource(3), table.apply).play_round(table.state)
    assert table.ledger.round_count() == 1
    [validated] = table.ledger.event_log("jackpot_validated")
    assert validated["actor"] == "floorperson" and \
        (validated["details"]["validator"], validated["details"]["role"]) == (BOT_FLOORPERSON,
                                                                              "floorperson")
    assert "Jackpot validated by bot (floorperson): " in render_round(table.ledger.rounds()[0])
    assert verify(table.ledger) == []
    table.close()


# --- the dealer and tips ---------------------------------------------------------------------

def _round(table: Table) -> list[Any]:
    """One round of seat 1's $5 Initial Wager; the round's events (as its record keeps them)."""
    events: list[Any] = []
    for command, actor in [(OpenBets(), "dealer"), (PlaceWager(1, 1, BetKind.INITIAL, 500),
                                                    "player"),
                           (CloseBets(), "dealer"), (Deal(), "dealer"), (Settle(), "dealer")]:
        events += table.send(command, actor=actor)
    if table.state.phase is Phase.DECISIONS:
        events += table.send(Decide(1, 1, Decision.SURRENDER), actor="player")
    table.send(NextRound())
    return [dump_event(e) for e in events]


def test_each_round_records_its_dealer_and_a_new_dealer_burns_one_card(tmp_path: Path) -> None:
    # MD Ch. 8 E(4)
    table = open_md(tmp_path / "l.db")
    p = table.state.paytable
    codes = ["7D", "2C", "3C", "4C", "5C", "6C", "KH", "8D", "9D", "10D", "JD", "QD", "KS", "2H",
             "3H"]
    send_all(table, [(Shuffle(rigged_draw(p, codes), ShuffleReason.NEW_SHOE), "dealer"),
                     (CashIn(1, CREDITS), "attendant"), (SignInDealer("D0417"), "dealer D0417")])
    _round(table)
    table.send(SignInDealer("D12"), actor="dealer D12")
    _round(table)
    first, second = table.ledger.rounds()
    assert (first["dealer"], second["dealer"]) == ("D0417", "D12")

    def burned(record: dict[str, Any]) -> list[list[tuple[int, str]]]:
        return [[(c["rank"], c["suit"]) for c in e["cards"]] for e in record["events"]
                if e["type"] == "CardsBurned"]

    # the new shoe's burn (Ch. 8 E(1)), then the first dealer's; the second dealer's one card
    assert burned(first) == [[(7, "D")], [(2, "C")]]
    assert first["spot_cards"] == ["3C", "4C", "5C", "6C", "KH"] and first["dealer_card"] == "8D"
    assert burned(second) == [[(9, "D")]]
    assert second["spot_cards"] == ["10D", "JD", "QD", "KS", "2H"]
    assert "Dealer D12" in render_round(second).splitlines()
    m = meters(table)
    assert (m[0, "dealer.D0417.rounds"], m[0, "dealer.D12.rounds"]) == (1, 1)
    assert [(e["actor"], e["details"]["dealer"], e["details"]["previous"])
            for e in table.ledger.event_log("dealer_sign_in")] == [
        ("dealer D0417", "D0417", None), ("dealer D12", "D12", "D0417")]
    table.send(OpenBets())
    with pytest.raises(Refused) as refusal:  # dealers change only between rounds
        table.send(SignInDealer("D5"))
    assert refusal.value.reason is Reason.ROUND_IN_PROGRESS
    assert verify(table.ledger) == []
    table.close()


def test_tips_leave_the_credits_for_the_dealers_tips_meter_and_never_touch_coin_in_or_out(
        tmp_path: Path) -> None:
    # MD Ch. 2 D: the tip box beside the dealer
    db = tmp_path / "l.db"
    table = open_md(db)
    table.shuffle(ShuffleReason.NEW_SHOE)
    send_all(table, [(CashIn(1, CREDITS), "attendant"), (SignInDealer("D0417"), "dealer D0417"),
                     (Tip(1, 500), "player"), (OpenBets(), "dealer"), (Tip(1, 2_500), "player"),
                     (PlaceWager(1, 1, BetKind.INITIAL, 500), "player"), (CloseBets(), "dealer"),
                     (Deal(), "dealer"), (Settle(), "dealer")])
    if table.state.phase is Phase.DECISIONS:
        table.send(Decide(1, 1, Decision.SURRENDER), actor="player")
    [record] = table.ledger.rounds()
    [net] = [e["net"][0] for e in record["events"] if e["type"] == "RoundComplete"]
    assert table.state.credits[0] == record["credits_after"][0] == CREDITS - 500 - 2_500 + net
    assert record["credits_before"][0] == CREDITS - 500  # the first tip came before the round
    m = meters(table)
    assert (m[1, TIPS], m[0, TIPS], m[0, "dealer.D0417.tips"]) == (3_000, 3_000, 3_000)
    coin_in = sum(v for (seat, name), v in m.items() if seat == 0 and name.startswith("coin_in"))
    coin_out = sum(v for (seat, name), v in m.items()
                   if seat == 0 and name.startswith("coin_out"))
    paid = sum(e["paid"] for e in record["events"] if e["type"] == "WagerSettled")
    assert (coin_in, coin_out) == (500, paid)  # the one wager and what it returned: no tip
    assert [(e["actor"], e["details"]) for e in table.ledger.event_log("tip")] == [
        ("player", {"seat": 1, "dealer": "D0417", "amount": 500, "paytable_id": MD}),
        ("player", {"seat": 1, "dealer": "D0417", "amount": 2_500, "paytable_id": MD})]
    assert verify(table.ledger, full=True) == []
    table.close()
    again = open_md(db)  # the start-up's recount of the credits takes the tips out too
    assert again.tilt is None and again.state.credits[0] == table.state.credits[0]
    again.close()

    lines = [json.loads(line) for line in CliRunner().invoke(
        main, ["ledger", "export", "--db", str(db), "--format", "jsonl"]).output.splitlines()]
    assert [x["dealer"] for x in lines if x["type"] == "round"] == ["D0417"]
    assert [x["details"]["amount"] for x in lines if x["type"] == "event"
            and x["kind"] == "tip"] == [500, 2_500]


# As SUITED_FOUR, in red Aces: the dealer's A♥ also triggers the Bonus Spin (SPEC §3)
SUITED_FOUR_ACES = ["7D", "AH", "2C", "2C", "2C", "2C", "AH", "3S", "3S", "3S", "AH", "AH"]


def validated_before_the_wheel(table: Table) -> None:
    """Seat 1: $5 Initial, $5 Progressive Payout on spot 1 and a $5 Bonus Spin; its Suited
    Four-of-a-Kind in A♥ is validated and paid by the attendant, then the wheel is due."""
    p = table.state.paytable
    send_all(table, [
        (Shuffle(rigged_draw(p, SUITED_FOUR_ACES), ShuffleReason.NEW_SHOE), "dealer"),
        (CashIn(1, CREDITS), "attendant"), (OpenBets(), "dealer"),
        (PlaceWager(1, 1, BetKind.INITIAL, 500), "player"),
        (PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), "player"),
        (PlaceBonusSpin(1, 500), "player"),
        (CloseBets(), "dealer"), (Deal(), "dealer"), (Settle(), "dealer"),
        (Decide(1, 1, Decision.WAR), "player"), (WarDeal(), "dealer"), (Settle(), "dealer")])
    assert table.state.phase is Phase.JACKPOT
    table.send(ValidateJackpot("floorperson", FLOORPERSON), actor="floorperson")
    assert table.state.phase is Phase.BONUS_SPIN


def test_a_round_with_a_validated_jackpot_is_not_voided_and_its_pays_stay_on_the_meters(
        tmp_path: Path) -> None:
    # SPEC §2: "A round in which a jackpot has been validated can no longer be voided as a
    # whole: what was paid stays paid and on its meters" (MD Ch. 9 J(4)(c)-(d)). Seat 1's
    # Suited Four-of-a-Kind is validated and paid by the attendant; the round then waits for
    # the wheel, and the supervisor's void would have put the paid meter back on the table.
    table = open_md(tmp_path / "l.db")
    validated_before_the_wheel(table)
    reset = table.state.meter(ProgressiveLevel.PROGRESSIVE_PAYOUT)
    assert reset is not None and reset.cents == 1_000_000  # paid, back to its reset amount
    state, head = table.state, table.ledger.head
    with pytest.raises(Refused) as refused:
        table.send(Void("misdeal"), actor="supervisor")
    assert (refused.value.reason, refused.value.message) == (
        Reason.JACKPOT_PAID, "round 1 has paid a validated jackpot: what was paid stays paid "
                             "and on its meters, so the round is finished, not voided "
                             "(SPEC §2; MD Ch. 9 J(4))")
    assert table.state == state and table.ledger.head == head  # nothing changed or written
    table.spin(actor="dealer")
    assert table.state.phase is Phase.COMPLETE
    assert table.state.meter(ProgressiveLevel.PROGRESSIVE_PAYOUT) == reset
    meter = METER - 25  # one $5 wager fed it
    m = meters(table)
    assert m[1, ATTENDANT_PAID_JACKPOTS_AMOUNT] == PP_WIN + meter
    assert m[0, "voids"] == 0
    assert verify(table.ledger, full=True) == []
    table.close()


def test_a_void_after_a_hand_pay_never_verifies_clean(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # A ledger written by the program before the void was refused: the round's hand pays
    # left by the attendant's hand, its void put the meters back. Credits, progressive
    # meters and the meters table all add up; the money identity with the attendant-paid
    # jackpots (coin in - coin out - attendant-paid = the house's win) does not.
    import etg.core.engine

    monkeypatch.setattr(etg.core.engine, "paid_on_validation", lambda settled, rules: False)
    table = open_md(tmp_path / "l.db")
    validated_before_the_wheel(table)
    table.send(Void("misdeal"), actor="supervisor")
    table.send(NextRound(), actor="dealer")
    monkeypatch.undo()
    assert table.state.meter(ProgressiveLevel.PROGRESSIVE_PAYOUT) is not None
    assert meters(table)[0, ATTENDANT_PAID_JACKPOTS_AMOUNT] == 0  # the defect: paid, unmetered
    problems = verify(table.ledger, full=True)
    table.close()
    # the journal no longer replays either: this program refuses that void
    assert [(p.check, p.message.split(": ", 1)[1]) for p in problems] == [
        ("journal", "round 1 has paid a validated jackpot: what was paid stays paid and on its "
                    "meters, so the round is finished, not voided (SPEC §2; MD Ch. 9 J(4))"),
        ("meters", "the attendant paid $15,000.25 by hand, its attendant-paid meter counts "
                   "$0.00, as the round was voided: coin in − coin out − attendant-paid is not "
                   "the house's win (SPEC §2)")]
    assert problems[1].message.startswith("entries row ")
    assert " (round 1): the attendant paid $15,000.25 by hand" in problems[1].message


def test_the_tables_own_dealer_never_validates_its_jackpot(tmp_path: Path) -> None:
    # MD Ch. 9 J(4)(c): "a floorperson or above validates"; SPEC §5: the dealer signed in at
    # that table can never validate its own jackpot, whatever name or role it is sent with
    table = open_md(tmp_path / "l.db")
    p = table.state.paytable
    send_all(table, [
        (Shuffle(rigged_draw(p, ["7D", "5D", *SUITED_FOUR[1:]]), ShuffleReason.NEW_SHOE),
         "dealer"),  # the new dealer's first card, 5♦, is burned too (MD Ch. 8 E(4))
        (SignInDealer("D0417"), "dealer D0417"),
        (CashIn(1, CREDITS), "attendant"), (OpenBets(), "dealer"),
        (PlaceWager(1, 1, BetKind.INITIAL, 500), "player"),
        (PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500), "player"),
        (CloseBets(), "dealer"), (Deal(), "dealer"), (Settle(), "dealer"),
        (Decide(1, 1, Decision.WAR), "player"), (WarDeal(), "dealer"), (Settle(), "dealer")])
    assert table.state.phase is Phase.JACKPOT
    head = table.ledger.head
    for command in (ValidateJackpot("D0417", FLOORPERSON), ValidateJackpot("D0417", SUPERVISOR)):
        with pytest.raises(Refused) as refused:
            table.send(command, actor="floorperson")
        assert (refused.value.reason, refused.value.message) == (
            Reason.NOT_A_VALIDATOR, "dealer D0417 deals this table and cannot validate its "
                                    "jackpot: a floorperson or above validates it "
                                    "(MD Ch. 9 J(4)(c))")
    with pytest.raises(Refused) as refused:  # a validation made now says whose role it was
        table.send(ValidateJackpot("floorperson", None), actor="floorperson")
    assert refused.value.reason is Reason.NOT_A_VALIDATOR
    assert table.state.phase is Phase.JACKPOT and table.ledger.head == head  # nothing written
    table.send(jackpot_validation("supervisor"), actor="supervisor")
    assert table.state.phase is Phase.COMPLETE
    [validated] = table.ledger.event_log("jackpot_validated")
    assert (validated["details"]["validator"], validated["details"]["role"]) == (
        "supervisor", "supervisor")
    text = render_round(table.ledger.rounds(last=1)[0])
    assert "Jackpot validated by supervisor: $15,000.25, of which $15,000.25 paid by the " \
           "attendant" in text
    assert verify(table.ledger) == []
    table.close()


def test_a_validation_recorded_before_roles_decodes_and_replays_as_recorded() -> None:
    # A ledger written before the role was recorded laid ValidateJackpot, JackpotValidated and
    # HandPaid out without it (etg.ledger.compact): each decodes with its role None, "not
    # recorded", the engine replays it, and recall and export say so.
    old = Layout({"commands": [["ValidateJackpot", [["validator", None]]]],
                  "events": [["JackpotValidated", [["round_number", None], ["validator", None],
                                                   ["amount", None], ["hand_paid", None]]],
                             ["HandPaid", [["round_number", None], ["seat", None],
                                           ["spot", None], ["kind", None], ["amount", None],
                                           ["validator", None]]]]})
    command = load_command(old.unpack_command([0, "floorperson"]))
    assert command == ValidateJackpot("floorperson", None)
    events = [load_event(old.unpack_event([0, 1, "floorperson", 100_000, 100_000])),
              load_event(old.unpack_event([1, 1, 1, 1, "tie", 100_000, "floorperson"]))]
    assert events == [JackpotValidated(1, "floorperson", 100_000, 100_000, None),
                      HandPaid(1, 1, 1, WagerKind.TIE, 100_000, "floorperson", None)]
    record = {"round": 1, "outcome": "complete", "ended_at": "2026-11-20T10:00:00+00:00",
              "paytable": {"id": MD}, "dealer": None, "credits_before": [CREDITS],
              "credits_after": [CREDITS], "events": [dump_event(e) for e in events]}
    assert [row[11] for row in csv.reader("".join(csv_lines([record])).splitlines()[1:])] == [
        "tie paid by the attendant, validated by floorperson (role not recorded)"]
    assert validator_words("floorperson", None) == "floorperson (role not recorded)"
    # the engine replays the old record: its lock is validated, the role left unknown. A
    # $100 Tie Wager wins $1,000.00 at a $1,000.00 threshold (MD Ch. 9 J(4))
    shoe = ["7D", "9C", "2C", "2C", "2C", "2C", "9H"]
    locked, _ = run(engine_table(maryland_bonus(), shoe, CREDITS), [
        SetJackpotRules(JackpotRules(100_000)), OpenBets(), PlaceWager(1, 1, BetKind.INITIAL, 500),
        PlaceWager(1, 1, BetKind.TIE, 10_000), CloseBets(), Deal(), Settle()])
    state, replayed = apply(locked, command)
    assert replayed[:3] == [JackpotValidated(1, "floorperson", 100_000, 100_000, None),
                            WagerSettled(1, 1, Payment(WagerKind.TIE, Result.WON, 10_000, 10_000,
                                                       100_000), 10_000, 0, CREDITS - 500),
                            HandPaid(1, 1, 1, WagerKind.TIE, 100_000, "floorperson", None)]
    assert state.phase is Phase.DECISIONS
