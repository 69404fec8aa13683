"""``Round.results`` built when first read: the same results, equality and ledger text."""

from __future__ import annotations

import copy
import dataclasses
import pickle

from etg.core.commands import Command
from etg.core.engine import TableState, apply, new_table
from etg.core.events import Events
from etg.core.rng import SeededSource
from etg.core.state import Round
from etg.ledger.codec import dump_state, load_state
from etg.table.bots import RoundDriver, busiest_bots
from tests.tables import maryland_bonus

PAYTABLE = maryland_bonus(7, seats=9)


def _states(rounds: int) -> list[TableState]:
    """Every state the busiest bots' rounds pass through, none of them read yet."""
    states: list[TableState] = []

    def keeping(state: TableState, command: Command) -> tuple[TableState, Events]:
        state, events = apply(state, command)
        states.append(state)
        return state, events

    driver = RoundDriver(busiest_bots(PAYTABLE), SeededSource(3), keeping, repeat=True)
    state = new_table(PAYTABLE)
    for _ in range(rounds):
        state, _ = driver.play_round(state)
    return states


def _built(r: Round) -> Round:
    """The same round from its constructor: results built like any other field."""
    return Round(**{f.name: getattr(r, f.name) for f in dataclasses.fields(Round)})


def test_settled_rounds_keep_their_results_unbuilt_until_read() -> None:
    states = _states(20)
    unread = [s for s in states if "results" not in s.round.__dict__]
    assert len(unread) > 20  # every settlement leaves its round so
    for s in unread:
        figures = list(s.round.settled())
        assert "results" not in s.round.__dict__
        results = s.round.results
        assert results is s.round.results  # built once, then a plain field
        assert figures == [(e.seat, e.spot, e.payment, e.paid, e.capped) for e in results]


def test_a_round_read_late_equals_and_writes_as_one_built_at_once() -> None:
    for s in _states(20):
        text = dump_state(s)  # the ledger reads it first, for a checkpoint
        built = _built(s.round)
        assert s.round == built and hash(s.round) == hash(built)
        assert text == dump_state(dataclasses.replace(s, round=built))
        assert dump_state(load_state(text)) == text


def test_copies_and_pickles_of_an_unread_round_read_the_same() -> None:
    states = [s for s in _states(10) if "results" not in s.round.__dict__]
    for s in states[:12]:
        copies = [copy.copy(s.round), copy.deepcopy(s.round), pickle.loads(pickle.dumps(s.round))]
        assert all(c == s.round for c in copies)
        assert repr(copies[0]) == repr(s.round)
