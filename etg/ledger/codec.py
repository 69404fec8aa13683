"""JSON for the core's values: table states, commands and events.

States round-trip exactly through pydantic (the core's frozen dataclasses are
their own schema). Commands and events are unions of dataclasses, some with
no fields at all (``Deal()``), so each carries its class name as ``type``.
Cards in events are written as ``{"rank": 14, "suit": "H"}``.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import TypeAdapter

from etg.core import commands as command_module
from etg.core import events as event_module
from etg.core.commands import Command
from etg.core.events import Event
from etg.core.state import TableState

_STATE = TypeAdapter(TableState)
COMMAND_TYPES: dict[str, type] = {t.__name__: t for t in Command.__args__}
EVENT_TYPES: dict[str, type] = {t.__name__: t for t in Event.__args__}
assert all(getattr(command_module, n) is t for n, t in COMMAND_TYPES.items())
assert all(getattr(event_module, n) is t for n, t in EVENT_TYPES.items())


RECORDED_BEFORE: dict[str, dict[str, Any]] = {
    "ValidateJackpot": {"role": None},
    "JackpotValidated": {"role": None},
    "HandPaid": {"role": None},
}
"""Fields added to a command or event since some ledgers were written, each with the value
a record without it stands for. A jackpot validation recorded before the validator's role
was (MD Ch. 9 J(4)(c)) decodes as it was written: its role None, "not recorded", never a
guess; the engine replays it so, and recall and export say so."""


def dump_state(state: TableState) -> str:
    return _STATE.dump_json(state).decode()


def load_state(text: str) -> TableState:
    return _STATE.validate_json(text)


def dump_command(command: Command) -> dict[str, Any]:
    return {"type": type(command).__name__, **_adapter(type(command)).dump_python(command,
                                                                                   mode="json")}


def load_command(data: dict[str, Any]) -> Command:
    """A command as journaled; JSON mode, so nested strict dataclasses (a paytable) load too."""
    fields = {**RECORDED_BEFORE.get(data["type"], {}),
              **{k: v for k, v in data.items() if k != "type"}}
    cls = COMMAND_TYPES[data["type"]]
    loaded: Command = _adapter(cls).validate_json(json.dumps(fields))
    return loaded


def dump_event(event: Event) -> dict[str, Any]:
    return {"type": type(event).__name__, **_adapter(type(event)).dump_python(event, mode="json")}


def load_event(data: dict[str, Any]) -> Event:
    fields = {**RECORDED_BEFORE.get(data["type"], {}),
              **{k: v for k, v in data.items() if k != "type"}}
    cls = EVENT_TYPES[data["type"]]
    loaded: Event = _adapter(cls).validate_python(fields)
    return loaded


def canonical(data: Any) -> str:
    """The one text of ``data`` that hashes are taken over: sorted keys, no spaces."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(cls: type) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter
