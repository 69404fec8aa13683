"""Free space on the ledger's disk is checked before each round (SPEC §5; issue 11, item 6).

The floor is compared with the real free space of the file system the test's
ledger is on: a floor above it is a disk "nearly full" for real, no mock.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from etg.core.commands import CashIn, OpenBets
from etg.core.events import Event
from etg.core.state import Phase, TableState
from etg.table.controller import TableTilted
from tests.ledger_support import open_table, play

MB = 1024 * 1024


def above_free_space(folder: Path) -> int:
    return shutil.disk_usage(folder).free + 1024 * MB


def test_below_the_floor_no_round_opens_and_the_table_tilts_until_acknowledged(
        tmp_path: Path) -> None:
    table = open_table(tmp_path / "ledger.db")
    play(table, 1)
    before = (table.ledger.head, table.state)
    table.min_free_bytes = above_free_space(tmp_path)
    with pytest.raises(TableTilted, match="ledger disk nearly full"):
        table.send(OpenBets())
    assert table.state == before[1] and table.state.phase is not Phase.BETTING
    assert table.tilt is not None and [p.check for p in table.tilt.problems] == ["disk"]
    message = table.tilt.problems[0].message
    assert message.startswith("ledger disk nearly full: ")
    assert f"MB free on {tmp_path.resolve()}, the floor is " in message
    tilt = table.ledger.event_log("tilt")[-1]
    assert tilt["details"] == {"check": "disk", "message": message}
    assert table.ledger.head[0] == before[0][0] + 1  # the tilt entry, and no OpenBets
    with pytest.raises(TableTilted):  # nothing else either, until a supervisor acknowledges
        table.send(CashIn(1, 1_000))

    table.acknowledge_tilt("supervisor 7")
    with pytest.raises(TableTilted, match="ledger disk nearly full"):  # still full: again
        table.send(OpenBets())
    table.acknowledge_tilt("supervisor 7")
    table.min_free_bytes = 1  # space was freed
    table.send(OpenBets())
    assert table.state.phase is Phase.BETTING and table.tilt is None
    table.close()


def test_a_round_in_progress_is_finished_before_the_check_stops_the_next(tmp_path: Path) -> None:
    table = open_table(tmp_path / "ledger.db")
    play(table, 1)
    rounds = table.ledger.round_count()

    def disk_fills_up(state: TableState, events: list[Event]) -> None:
        if state.phase is Phase.BETS_CLOSED:  # mid-round, wagers locked
            table.min_free_bytes = above_free_space(tmp_path)

    table.listeners.append(disk_fills_up)
    with pytest.raises(TableTilted, match="ledger disk nearly full"):
        play(table, 2)  # this round is dealt, decided and settled; the next never opens
    assert table.ledger.round_count() == rounds + 1
    assert table.state.phase is Phase.IDLE  # between rounds: the next one was never opened
    table.close()


@pytest.mark.slow
def test_the_kiosk_takes_its_floor_from_the_cabinet_file(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from etg.cli import main
    from etg.config.cabinet_edit import set_cabinet_value
    from etg.ledger.store import Ledger
    from etg.ledger.verify import active_tilts
    from tests.kiosk_support import config_copy

    config = config_copy(tmp_path)
    floor_mb = above_free_space(tmp_path) // MB
    if floor_mb > 1_000_000:
        pytest.skip("more than the largest floor a cabinet file may set is free here")
    set_cabinet_value(config / "cabinet.yaml", "ledger_min_free_mb", floor_mb)
    db = tmp_path / "demo.db"
    result = CliRunner().invoke(main, ["run", "--headless", "--demo", "--frames", "900",
                                       "--config", str(config), "--db", str(db)])
    # A headless run that tilts says so and exits 2: nobody is there to acknowledge it.
    assert result.exit_code == 2, result.output
    assert "etg run: TILT: disk: ledger disk nearly full: " in result.stderr
    store = Ledger.open_readonly(db)
    try:
        with store.reading():
            tilts = [t["details"] for t in active_tilts(store)]
            rounds = store.round_count()
    finally:
        store.close()
    assert rounds == 0 and [t["check"] for t in tilts] == ["disk"]
    assert tilts[0]["message"].startswith("ledger disk nearly full: ")
