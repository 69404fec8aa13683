"""The outbox in the table's own ledger, and the ledger alone replaying linked rounds (SPEC §13).

A linked round's contributions are committed with the command that makes them
(No More Bets) as one ``link_contribution`` entry, before anything is shipped; the
controller's answers are journaled commands, so a restart rebuilds exactly the
state that was shown, a linked hit's held amount included.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from etg.core.commands import (
    BetKind,
    CashIn,
    CloseBets,
    ConfirmLinkedHit,
    Deal,
    Decide,
    LinkLevels,
    OpenBets,
    PlaceBonusSpin,
    PlaceWager,
    Settle,
    ShowLinkedMeters,
    Shuffle,
    ShuffleReason,
    ValidateJackpot,
    WarDeal,
)
from etg.core.events import Event, LinkedContributed
from etg.core.jackpot import JackpotRules, ValidatorRole
from etg.core.linked import LinkedMeter
from etg.core.paytable import Decision, ProgressiveLevel
from etg.core.rng import SeededSource
from etg.core.state import Phase, TableState
from etg.floor.outbox import OutboxRow, entry_details, ledger_contributions, rows_in
from etg.ledger.store import Ledger
from etg.ledger.verify import verify
from etg.table.controller import Table
from tests.ledger_support import paytable, play, rebuilt_state
from tests.tables import rigged_draw

PP = ProgressiveLevel.PROGRESSIVE_PAYOUT
PRIMARY, SECONDARY = ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY
ALL = (PRIMARY, SECONDARY, PP)
SUITED_FOUR = ["7D", "9H", "2C", "2C", "2C", "2C", "9H", "3S", "3S", "3S", "9H", "9H"]


def linked_table(db: Path, levels: tuple[ProgressiveLevel, ...] = ALL) -> Table:
    table = Table.open(Ledger.open(db), paytable(), SeededSource(7), jackpot_rules=JackpotRules())
    table.send(LinkLevels(levels), actor="floor")
    return table


def contributed(table: Table) -> list[OutboxRow]:
    """What the table's listeners heard at each No More Bets, as outbox rows."""
    heard: list[OutboxRow] = []

    def listen(state: TableState, events: list[Event]) -> None:
        heard.extend(OutboxRow(state.round.number, e.seat, e.level, e.wager_cents)
                     for e in events if isinstance(e, LinkedContributed))

    table.listeners.append(listen)
    return heard


def outbox(db: Path) -> list[OutboxRow]:
    ledger = Ledger.open_readonly(db)
    try:
        return ledger_contributions(ledger)
    finally:
        ledger.close()


def test_each_linked_round_commits_its_rows_with_its_no_more_bets(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    table = linked_table(db)
    heard = contributed(table)
    play(table, 4)
    rows = outbox(db)
    assert rows == heard and len({r.round for r in rows}) == 4
    # the standard bots: seat 1 $5 Bonus Spin and $5 Progressive Payout on each of its 3 spots,
    # seat 2 a $1 Bonus Spin: exact cents, per (round, seat, level)
    for number in range(1, 5):
        mine = {(r.seat, r.level): r.wager_cents for r in rows if r.round == number}
        assert mine == {(1, PRIMARY): 500, (1, SECONDARY): 500, (2, PRIMARY): 100,
                        (2, SECONDARY): 100, (1, PP): 1_500}
    # the local meters of linked levels never move: the controller keeps them
    assert [table.state.meter(level).cents for level in ALL] == [1_000_000] * 3  # type: ignore[union-attr]
    table.close()
    assert verify(Ledger.open_readonly(db), paytable()) == []


def test_an_outbox_entry_holds_one_round() -> None:
    rows = [OutboxRow(3, 1, PP, 500), OutboxRow(3, 2, PRIMARY, 100)]
    assert rows_in(entry_details(rows)) == tuple(rows)
    try:
        entry_details([OutboxRow(3, 1, PP, 500), OutboxRow(4, 1, PP, 500)])
    except ValueError as error:
        assert "one round's rows" in str(error)
    else:
        raise AssertionError("two rounds in one entry")


def test_the_ledger_alone_replays_a_linked_hit_and_the_meters_shown(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    table = linked_table(db, (PP,))
    p = table.state.paytable
    for command in [Shuffle(rigged_draw(p, SUITED_FOUR), ShuffleReason.NEW_SHOE),
                    CashIn(1, 100_000), CashIn(2, 100_000),
                    ShowLinkedMeters((LinkedMeter(PP, 3_000_017),)), OpenBets(),
                    PlaceWager(1, 1, BetKind.INITIAL, 500),
                    PlaceWager(1, 1, BetKind.PROGRESSIVE_PAYOUT, 500),
                    PlaceWager(2, 3, BetKind.INITIAL, 500),
                    PlaceWager(2, 3, BetKind.PROGRESSIVE_PAYOUT, 500),
                    PlaceBonusSpin(2, 100), CloseBets(), Deal(), Settle(),
                    Decide(1, 1, Decision.WAR), WarDeal(), Settle()]:
        table.send(command)
    assert table.state.phase is Phase.JACKPOT
    # a restart while the hit waits for its amount: the lock and what was shown come back
    table.close()
    assert rebuilt_state(db) == table.state
    table = Table.open(Ledger.open(db), paytable(), SeededSource(7), jackpot_rules=JackpotRules())
    assert table.state.shown_meter(PP) == 3_000_017
    assert table.state.jackpot is not None and len(table.state.jackpot.unconfirmed) == 1
    table.send(ConfirmLinkedHit(PP, 1, 1, 3_000_017, 41, 1, 1_000_000), actor="floor")
    table.send(ValidateJackpot("fp", ValidatorRole.FLOORPERSON), actor="floorperson")
    assert table.state.phase is Phase.COMPLETE
    assert table.ledger.event_log("linked_hit")[0]["details"] == {
        "round": 1, "level": "progressive_payout", "seat": 1, "spot": 1, "amount": 3_000_017,
        "hit_id": 41, "order_no": 1, "meter_after": 1_000_000, "hand_pay": True,
        "paytable_id": "md-community-5"}
    [paid] = [e for e in table.ledger.event_log("hand_pay")
              if e["details"]["kind"] == "progressive"]
    assert paid["details"]["amount"] == 3_000_017  # the controller's amount, to the cent
    assert outbox(db) == [OutboxRow(1, 1, PP, 500), OutboxRow(1, 2, PP, 500)]
    # the table's own meters count the linked hit for its seat, at the controller's amount
    counted = table.ledger.meters()["md-community-5"]
    assert (counted[1, "progressive.hits.progressive_payout"],
            counted[1, "progressive.amount.progressive_payout"]) == (1, 3_000_017)
    table.close()
    assert rebuilt_state(db) == table.state
    assert verify(Ledger.open_readonly(db), paytable()) == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bets=st.lists(st.tuples(st.integers(1, 6), st.sampled_from([100, 500]),
                               st.booleans()), min_size=1, max_size=6, unique_by=lambda b: b[0]))
def test_the_outbox_holds_exactly_the_wagers_that_feed_each_linked_level(
        tmp_path_factory: pytest.TempPathFactory, bets: list[tuple[int, int, bool]]) -> None:
    db = tmp_path_factory.mktemp("outbox") / "t.db"
    table = linked_table(db)
    p = table.state.paytable
    table.send(Shuffle(rigged_draw(p, ["2C"] * 8), ShuffleReason.NEW_SHOE))
    for seat, _, _ in bets:
        table.send(CashIn(seat, 10_000))
    table.send(OpenBets())
    fed: Counter[tuple[int, ProgressiveLevel]] = Counter()
    for seat, bonus, payout in bets:
        spot = min(seat, 5)
        table.send(PlaceWager(seat, spot, BetKind.INITIAL, 500))
        if payout:
            table.send(PlaceWager(seat, spot, BetKind.PROGRESSIVE_PAYOUT, 500))
            fed[seat, PP] += 500
        table.send(PlaceBonusSpin(seat, bonus))
        fed[seat, PRIMARY] += bonus
        fed[seat, SECONDARY] += bonus
    table.send(CloseBets())
    table.close()
    rows = outbox(db)
    assert Counter({(r.seat, r.level): r.wager_cents for r in rows}) == fed
    assert sum(r.wager_cents for r in rows) == sum(fed.values())
    assert len({r.key for r in rows}) == len(rows)  # one row per (round, seat, level)
