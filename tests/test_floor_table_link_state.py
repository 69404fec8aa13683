"""The link's state machine and what it asks the table to send (issue 27, item 3).

No server is needed to lose one: the link points at a port nobody listens on, and
the clock is the test's, so "within 3 s" is a figure of the code, not of the machine.
"""

from __future__ import annotations

import socket
from pathlib import Path

from etg.core.commands import (
    ConfirmLinkedHit,
    LinkLevels,
    SetJackpotRules,
    SetLinkStatus,
    ShowLinkedMeters,
)
from etg.core.engine import apply
from etg.core.jackpot import JackpotRules
from etg.core.linked import LinkedMeter
from etg.core.paytable import ProgressiveLevel
from etg.core.state import TableState
from etg.floor.link import DOWN_AFTER_S, ClaimedHit, FloorLink, LinkState
from tests.tables import maryland_bonus, table

PRIMARY, SECONDARY = ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def nowhere(tmp_path: Path, clock: Clock) -> FloorLink:
    uri = f"postgresql://t:pw@127.0.0.1:{closed_port()}/floor"
    return FloorLink(uri, "t1", tmp_path / "none.db", clock=clock)


def linked_state() -> TableState:
    s = table(maryland_bonus(), (), 100_000)
    s, _ = apply(s, SetJackpotRules(JackpotRules()))
    s, _ = apply(s, LinkLevels((PRIMARY, SECONDARY)))
    return s


def test_silence_past_the_limit_is_down_and_asks_to_refuse_linked_wagers(tmp_path: Path) -> None:
    clock = Clock()
    link = nowhere(tmp_path, clock)
    state = linked_state()
    states = [link.state]  # the start counts as heard: not down at once
    assert link.commands(state) == []
    clock.now += DOWN_AFTER_S - 0.01
    states.append(link.state)
    clock.now += 0.02
    states.append(link.state)
    assert states == [LinkState.UP, LinkState.UP, LinkState.DOWN]
    assert DOWN_AFTER_S < 3.0  # within 3 s of the loss (issue 27, item 3)
    assert link.commands(state) == [SetLinkStatus(False)]
    down, _ = apply(state, SetLinkStatus(False))
    assert link.commands(down) == []  # asked once: the table already shows it


def test_a_table_that_links_nothing_is_asked_nothing(tmp_path: Path) -> None:
    clock = Clock()
    link = nowhere(tmp_path, clock)
    clock.now += 60
    assert link.commands(table(maryland_bonus(), (), 100_000)) == []


def test_the_controllers_meters_and_amounts_are_asked_for_until_shown(tmp_path: Path) -> None:
    clock = Clock()
    link = nowhere(tmp_path, clock)
    state = linked_state()
    with link._lock:  # what the link's thread keeps from an answer
        link._take_meters({"primary": 1_234_567, "secondary": 500_001, "tertiary": 5})
    assert link.commands(state) == [ShowLinkedMeters((LinkedMeter(PRIMARY, 1_234_567),
                                                      LinkedMeter(SECONDARY, 500_001)))]
    shown, _ = apply(state, link.commands(state)[0])
    assert link.commands(shown) == []
    assert link.meters == {PRIMARY: 1_234_567, SECONDARY: 500_001}
    with link._lock:
        link._claimed[(1, 1, 0, "primary")] = ClaimedHit(7, 1_234_567, 1, 1_000_000)
    # no lock holds that hit: nothing to confirm
    assert not [c for c in link.commands(shown) if isinstance(c, ConfirmLinkedHit)]


def test_the_link_stops_cleanly_when_it_never_reached_the_controller(tmp_path: Path) -> None:
    clock = Clock()
    link = nowhere(tmp_path, clock)
    link.start()
    link.stop(timeout=10)
    assert link.depth == 0 and link.refusal is None


def test_a_link_the_paytable_cannot_take_tilts_the_table_with_the_reason(tmp_path: Path) -> None:
    from etg.config.cabinet import Link
    from etg.ledger.store import Ledger
    from etg.table.controller import Table
    from etg.table.linked import LinkedTable
    from tests.ledger_support import paytable as shipped

    table = Table.open(Ledger.open(tmp_path / "t.db"), shipped(), jackpot_rules=JackpotRules())
    uri = f"postgresql://t:pw@127.0.0.1:{closed_port()}/floor"
    plain = LinkedTable(table, Link(uri, "t1", (PRIMARY, PRIMARY)))
    assert not plain.link_levels()
    assert table.tilt is not None
    assert table.tilt.message == ("link: cabinet.yaml's link cannot be applied: each linked "
                                  "level is named once")
    table.close()
