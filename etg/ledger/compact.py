"""The ledger's compact record format: commands and events as short positional lists.

A command or an event is stored as ``[code, field, field, ...]`` instead of a
JSON object with its field names: ``WagerSettled(seat=9, spot=2, payment=…)``
becomes ``[17,9,2,["initial","won",500,500,500],1000,0,999800]``. What the
codes and the positions mean is itself in the ledger: a **layout** entry (a
``schema`` entry tagged ``layout``) lists every command and event type with its
fields, nested dataclasses included, and the code of a type is its place in
that list. A layout is recorded when a ledger is made or converted, and again
whenever a newer program's types differ; each entry is read with the newest
layout recorded before it. So a ledger written years ago reads back exactly,
whatever has changed in the program since, and an auditor can decode it with
the ledger alone.

The positional list is derived from the JSON form of :mod:`etg.ledger.codec`
(enums as their values, cards as ``{"rank", "suit"}``): encoding replaces each
object by the list of its values in the layout's order, decoding puts the
names back. Nothing else changes, so a decoded value is exactly what the
verbose format held.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from etg.core.commands import Command
from etg.core.events import Event

Spec = list[Any] | None
"""How one value is laid out: None for a value stored as it is (a number, a
string, an enum's value, a list of those), ``["d", [[name, spec], ...]]`` for a
dataclass, ``["l", spec]`` for a list or tuple of dataclasses."""

LayoutBody = dict[str, list[list[Any]]]
"""A layout as recorded: ``{"commands": [[name, fields], ...], "events": [...]}``."""


def current_layout() -> LayoutBody:
    """The layout of this program's commands and events (a new copy at each call)."""
    layout: LayoutBody = json.loads(_current_layout_json())
    return layout


@cache
def _current_layout_json() -> str:
    """The layout as JSON, worked out once: the types do not change while the program runs,
    and every opening of a ledger compares it with the newest one recorded."""
    return json.dumps({"commands": [[cls.__name__, _fields(cls)] for cls in _members(Command)],
                       "events": [[cls.__name__, _fields(cls)] for cls in _members(Event)]})


class Layout:
    """One recorded layout: encodes and decodes by its codes and field orders."""

    def __init__(self, body: LayoutBody) -> None:
        self.body = body
        # The first round recorded under this layout primes the compression of the others
        # (:mod:`etg.ledger.round_codec`): its header and detail text, once it exists.
        self.dictionary: tuple[bytes, bytes] | None = None
        self.command_names = [name for name, _ in body["commands"]]
        self.event_names = [name for name, _ in body["events"]]
        self._command_specs = [fields for _, fields in body["commands"]]
        self._event_specs = [fields for _, fields in body["events"]]
        self._command_codes = {name: i for i, name in enumerate(self.command_names)}
        self._event_codes = {name: i for i, name in enumerate(self.event_names)}
        self._event_unpackers: dict[int, _Unpacker] = {}  # made at the first event of each type

    def event_code(self, name: str) -> int | None:
        """The code of an event type in this layout (None if it had none then)."""
        return self._event_codes.get(name)

    def event_position(self, name: str, *path: str) -> int | None:
        """Where a field of an event type sits in its packed list (for a nested field, in the
        nested list): ``event_position("WagerSettled", "payment", "stake")`` → 2 in the
        packed payment. None if the type or field is not in this layout."""
        code = self._event_codes.get(name)
        if code is None:
            return None
        fields: list[list[Any]] = self._event_specs[code]
        offset = 1
        position = None
        for step in path:
            names = [n for n, _ in fields]
            if step not in names:
                return None
            position = names.index(step) + offset
            spec = fields[position - offset][1]
            fields, offset = (spec[1] if spec and spec[0] == "d" else []), 0
        return position

    def pack_command(self, data: dict[str, Any]) -> list[Any]:
        """``data`` (a command's JSON form, with ``type``) as ``[code, fields...]``."""
        code = self._command_codes[data["type"]]
        return [code, *_pack_fields(data, self._command_specs[code])]

    def unpack_command(self, packed: list[Any]) -> dict[str, Any]:
        code = packed[0]
        return {"type": self.command_names[code],
                **_unpack_fields(packed, 1, self._command_specs[code])}

    def pack_event(self, data: dict[str, Any]) -> list[Any]:
        code = self._event_codes[data["type"]]
        return [code, *_pack_fields(data, self._event_specs[code])]

    def unpack_event(self, packed: list[Any]) -> dict[str, Any]:
        code = packed[0]
        unpack = self._event_unpackers.get(code)
        if unpack is None:
            unpack = self._event_unpackers[code] = _unpacker(self._event_specs[code])
        return {"type": self.event_names[code], **unpack(packed, 1)}


class Layouts:
    """The layouts recorded in one ledger, by the entry number that recorded them."""

    def __init__(self) -> None:
        self._seqs: list[int] = []
        self._layouts: list[Layout] = []

    def add(self, seq: int, body: LayoutBody) -> Layout:
        layout = Layout(body)
        self._seqs.append(seq)
        self._layouts.append(layout)
        return layout

    def at(self, seq: int) -> Layout:
        """The layout entry ``seq`` was written with: the newest recorded before it.

        Raises LookupError if none was (the entry is older than every layout).
        """
        if self._seqs and self._seqs[-1] < seq:  # nearly every entry: the newest layout's
            return self._layouts[-1]
        for recorded, layout in zip(reversed(self._seqs), reversed(self._layouts),
                                    strict=True):
            if recorded < seq:
                return layout
        raise LookupError(f"no layout is recorded before entry {seq}")

    @property
    def newest(self) -> Layout | None:
        return self._layouts[-1] if self._layouts else None


# --- the layout of a dataclass ------------------------------------------------------------------

def _members(union: Any) -> Iterable[type]:
    return typing.get_args(union)


def _fields(cls: type) -> list[list[Any]]:
    hints = typing.get_type_hints(cls)
    return [[f.name, _spec(hints[f.name])] for f in dataclasses.fields(cls)]


def _spec(hint: Any) -> Spec:
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return ["d", _fields(hint)]
    origin = typing.get_origin(hint)
    args = [a for a in typing.get_args(hint) if a is not type(None) and a is not Ellipsis]
    if origin in (typing.Union, types.UnionType):
        # Optional[X] is laid out as X (None stays None); a union of several shapes as it is.
        return _spec(args[0]) if len(args) == 1 else None
    if origin in (list, tuple) and len(args) == 1:
        inner = _spec(args[0])
        return None if inner is None else ["l", inner]
    return None


# --- packing ------------------------------------------------------------------------------------

def _pack_fields(data: dict[str, Any], fields: list[list[Any]]) -> list[Any]:
    return [_pack(data[name], spec) for name, spec in fields]


def _pack(value: Any, spec: Spec) -> Any:
    if spec is None or value is None:
        return value
    if spec[0] == "d":
        return _pack_fields(value, spec[1])
    return [_pack(item, spec[1]) for item in value]


_Unpacker = Callable[[list[Any], int], dict[str, Any]]


def _unpacker(fields: list[list[Any]]) -> _Unpacker:
    """:func:`_unpack_fields` for one type, made once: a recall or an export unpacks every
    event of every round, and a flat type is then one ``dict(zip(...))``."""
    names = [name for name, _ in fields]
    nested = [(i, _value_unpacker(spec)) for i, (_, spec) in enumerate(fields)
              if spec is not None]
    count = len(names)

    def unpack(packed: list[Any], start: int) -> dict[str, Any]:
        if len(packed) - start != count:
            raise ValueError(f"{len(packed) - start} values for {count} fields")
        values = list(packed[start:])
        for i, inner in nested:
            if values[i] is not None:
                values[i] = inner(values[i])
        return dict(zip(names, values, strict=True))

    return unpack


def _value_unpacker(spec: list[Any]) -> Callable[[Any], Any]:
    """:func:`_unpack` for one spec that is not None, made once."""
    if spec[0] == "d":
        fields = _unpacker(spec[1])
        return lambda value: fields(value, 0)
    if spec[1] is None:
        return lambda value: [item for item in value]
    item = _value_unpacker(spec[1])
    return lambda value: [None if x is None else item(x) for x in value]


def _unpack_fields(packed: list[Any], start: int, fields: list[list[Any]]) -> dict[str, Any]:
    if len(packed) - start != len(fields):
        raise ValueError(f"{len(packed) - start} values for {len(fields)} fields")
    return {name: _unpack(packed[start + i], spec) for i, (name, spec) in enumerate(fields)}


def _unpack(value: Any, spec: Spec) -> Any:
    if spec is None or value is None:
        return value
    if spec[0] == "d":
        return _unpack_fields(value, 0, spec[1])
    return [_unpack(item, spec[1]) for item in value]
