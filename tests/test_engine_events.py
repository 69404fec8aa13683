"""``Events``: the engine's lazily built event lists read exactly as plain lists do."""

from __future__ import annotations

import copy
import pickle
import threading
from collections.abc import Callable
from typing import Any

import pytest

from etg.core.commands import BetKind
from etg.core.events import BetsClosed, BetsOpened, Event, Events, TableCleared, WagerPlaced

PLACED = WagerPlaced(1, 2, BetKind.INITIAL, 500, 500, 9_500)


def recorded() -> Events:
    """Three events recorded, one of them added already built, none built yet."""
    events = Events.of(BetsOpened, 1)
    events.add(PLACED)
    events.record(BetsClosed, 1)
    return events


def plain() -> list[Event]:
    return [BetsOpened(1), PLACED, BetsClosed(1)]


def built(events: Events) -> bool:
    return not events._recorded


READS: dict[str, Callable[[list[Event]], Any]] = {
    "iter": lambda e: [*e],
    "list": list,
    "tuple": tuple,
    "sorted by type": lambda e: sorted(e, key=lambda x: type(x).__name__),
    "reversed": lambda e: list(reversed(e)),
    "index": lambda e: (e[0], e[-1], e[1:], e[::-1]),
    "contains": lambda e: (PLACED in e, BetsClosed(2) in e),
    "equal": lambda e: (e == plain(), plain() == e, e != plain(), plain() != e, e == []),
    "order": lambda e: (e < plain(), e <= plain(), e > plain()[:1], e >= plain()),
    "add": lambda e: (e + [BetsOpened(2)], [BetsOpened(2)] + e),  # noqa: RUF005
    "multiply": lambda e: (e * 2, 2 * e),
    "repr": repr,
    "str": str,
    "index of": lambda e: (e.index(PLACED), e.count(PLACED)),
    "copy": lambda e: (e.copy(), copy.copy(e), copy.deepcopy(e)),
    "pickle": lambda e: pickle.loads(pickle.dumps(e)),
    "unpack": lambda e: [*e, *e],
    "star call": lambda e: (lambda *a: a)(*e),
    "join types": lambda e: ",".join(type(x).__name__ for x in e),
}


@pytest.mark.parametrize("name", READS)
def test_every_read_sees_the_events_a_plain_list_holds(name: str) -> None:
    events = recorded()
    assert not built(events)
    got, want = READS[name](events), READS[name](plain())
    if name == "pickle" or name == "copy":  # a copy of the list is a list of the same events
        assert got == want
    else:
        assert (got, type(got)) == (want, type(want))
    assert list.__iter__(events) and isinstance(events, list)


WRITES: dict[str, Callable[[list[Event]], Any]] = {
    "append": lambda e: e.append(TableCleared(2)),
    "extend": lambda e: e.extend([TableCleared(2)]),
    "iadd": lambda e: e.__iadd__([TableCleared(2)]),
    "insert": lambda e: e.insert(1, TableCleared(2)),
    "pop": lambda e: e.pop(0),
    "remove": lambda e: e.remove(PLACED),
    "clear": lambda e: e.clear(),
    "reverse": lambda e: e.reverse(),
    "sort": lambda e: e.sort(key=lambda x: type(x).__name__),
    "set item": lambda e: e.__setitem__(0, TableCleared(2)),
    "delete item": lambda e: e.__delitem__(slice(0, 2)),
    "imul": lambda e: e.__imul__(2),
}


@pytest.mark.parametrize("name", WRITES)
def test_every_change_applies_after_the_events_recorded_before_it(name: str) -> None:
    events, same = recorded(), plain()
    assert WRITES[name](events) == WRITES[name](same) or name in ("iadd", "imul")
    assert list(events) == same and len(events) == len(same)


def test_len_and_truth_never_build() -> None:
    events = recorded()
    assert len(events) == 3 and events and not Events()
    assert not built(events)


def test_extending_with_unread_events_keeps_both_unread_and_in_order() -> None:
    round_events = Events()
    first, second = recorded(), Events.of(TableCleared, 2)
    round_events.extend(first)
    round_events += second
    assert not built(round_events) and not built(first)
    assert round_events == [*plain(), TableCleared(2)]
    assert first == plain() and second == [TableCleared(2)]


def test_an_event_is_built_once_and_the_same_object_is_read_again() -> None:
    events = recorded()
    assert events[0] is events[0] and events[0] is next(iter(events))


def test_two_threads_reading_at_once_see_every_event_once() -> None:
    for _ in range(200):
        events = Events()
        for n in range(50):
            events.record(BetsOpened, n)
        seen: list[list[Event]] = []

        lengths: list[int] = []

        def read(events: Events = events, seen: list[list[Event]] = seen) -> None:
            seen.append(list(events))

        def count(events: Events = events, lengths: list[int] = lengths) -> None:
            lengths.extend(len(events) for _ in range(20))

        readers = [threading.Thread(target=work) for work in (read, count, read, count)]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join()
        assert seen == [[BetsOpened(n) for n in range(50)]] * 2
        assert set(lengths) == {50}
