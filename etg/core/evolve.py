"""A faster ``dataclasses.replace`` for the engine's frozen, slotted state.

The state machine builds a new state for every command; ``dataclasses.replace``
goes through ``__init__`` and its frozen ``__setattr__`` guard for every
field, which was half of an engine round's time. The classes evolved here have
no ``__post_init__``, so copying their fields directly builds the same object;
the hottest ones (the table, the round, a spot's wagers, the shoe) are frozen
dataclasses without slots, so that copy is one dictionary copy and update.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

_NAMES: dict[type, tuple[str, ...]] = {}
_new = object.__new__
_set = object.__setattr__


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` applied."""
    cls = type(obj)
    state = getattr(obj, "__dict__", None)
    if state is not None:  # the engine's hot classes keep a __dict__: a copy of it, updated
        attributes = state.copy()
        attributes.update(changes)
        if len(attributes) != len(state):  # a dataclass's __dict__ holds its fields
            unknown = sorted(changes.keys() - state.keys())
            raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
        new = _new(cls)
        _set(new, "__dict__", attributes)
        return new
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    extra = changes.keys() - set(names)
    if extra:
        raise TypeError(f"{cls.__name__} has no field {sorted(extra)[0]!r}")
    new = _new(cls)
    for name in names:
        _set(new, name, changes[name] if name in changes else getattr(obj, name))
    return new
