"""Issue 26: whatever fails while a paytable is played is a tilt naming its file, never a crash.

Validation bounds every amount and ratio, so no shipped or checked paytable can make the engine
fail; this is the net under it. The fault is real: the engine meets a paytable whose unit is
zero (as a defect validation missed would reach it) and divides by it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from etg.core.commands import BetKind, CashIn, OpenBets, PlaceWager
from etg.ledger.store import Ledger
from etg.ledger.verify import active_tilts
from etg.table.controller import TableTilted
from tests.ledger_support import open_table, paytable


def test_a_paytable_the_engine_fails_on_in_play_is_a_tilt_naming_its_file(tmp_path: Path) -> None:
    loaded = paytable()
    broken = dataclasses.replace(loaded, paytable=dataclasses.replace(loaded.paytable,
                                                                      unit_cents=0))
    db = tmp_path / "ledger.db"
    table = open_table(db, broken)
    try:
        table.send(table.shuffle_command(), actor="dealer")
        table.send(CashIn(1, 10_000), actor="attendant")
        table.send(OpenBets())
        with pytest.raises(TableTilted) as tilted:
            table.send(PlaceWager(1, 1, BetKind.INITIAL, 500))
        assert f"{broken.path}: the game cannot go on with this paytable (ZeroDivisionError" \
            in str(tilted.value)
        assert table.tilt is not None and table.tilt.problems[-1].check == "paytable"
        assert table.state.credits[0] == 10_000  # nothing was applied: the wager never left
        with pytest.raises(TableTilted):  # play stays stopped until a supervisor acknowledges
            table.send(PlaceWager(1, 1, BetKind.INITIAL, 500))
    finally:
        table.close()
    ledger = Ledger.open_readonly(db)
    try:
        [tilt] = [entry["details"] for entry in active_tilts(ledger)]
    finally:
        ledger.close()
    assert tilt["check"] == "paytable" and str(broken.path) in tilt["message"]
