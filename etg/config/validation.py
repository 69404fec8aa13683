"""Validate a read YAML document into a frozen dataclass, with messages for operators.

The schema is the dataclass itself (``etg.core.paytable.Paytable``,
:class:`etg.config.cabinet.Cabinet`): pydantic checks the document strictly
(no coercion, unknown keys refused) through JSON, the one format whose types
the YAML reader produces. Pydantic's own messages speak of "keyword
arguments" and "Input should be ..."; an operator editing a paytable needs
"unknown key 'max_spot_per_seat'; did you mean 'max_spots_per_seat'?", so each
error is rephrased from the dataclass types at its path. Once the types are
right, the domain rules (jurisdiction floors, impossible values) are checked,
and every problem is placed at its key or value in the file.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import types
import typing
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from etg.config.problems import ConfigError, KeyPath, Problem, key_path_text
from etg.config.yaml_source import Position, YamlDocument
from etg.core.paytable import Violation

T = TypeVar("T")

Rules = Callable[[T], Iterable[Violation]]


def validate(document: YamlDocument, schema: type[T], rules: Rules[T] | None = None) -> T:
    """``document`` as a ``schema`` instance; raises :class:`ConfigError` with every problem.

    ``rules`` run only once the types are right; their violations are placed
    at the value their path names (or its nearest ancestor in the file), or at
    its key when that value is a block mapping or list on the lines below it.
    """
    problems = list(document.problems)
    try:
        # The YAML reader yields only JSON types, so dumping cannot fail.
        value = _adapter(schema).validate_json(json.dumps(document.data), strict=True)
    except ValidationError as error:
        problems += [
            _schema_problem(document, schema, details)
            for details in error.errors(include_url=False)
            if not _already_refused(document, tuple(details["loc"]))
        ]
    else:
        for violation in _checked(rules, value):
            where = document.locations.of_entry(violation.path)
            problems.append(_problem(document, where, violation.path, violation.message))
    if problems:
        raise ConfigError(problems)
    return value


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to ``word`` if one is close enough to be a typo of it."""
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def unknown_key_message(key: str, valid: Iterable[str]) -> str:
    """``unknown key 'x'; did you mean 'y'?``, or the list of valid keys when none is close."""
    valid = list(valid)
    guess = did_you_mean(key, valid)
    if guess is not None:
        return f"unknown key '{key}'; did you mean '{guess}'?"
    return f"unknown key '{key}'; valid keys: {', '.join(valid)}"


def field_names(schema: Any, path: KeyPath) -> tuple[str, ...]:
    """The keys a mapping at ``path`` may hold under ``schema``; ``()`` if none is known."""
    hint = _optional_inner(hint_at(schema, path))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return tuple(f.name for f in dataclasses.fields(hint))
    return ()


def hint_at(schema: Any, path: KeyPath) -> Any:
    """The type annotation of the value at ``path`` under ``schema``; ``None`` if unknown."""
    hint = schema
    for part in path:
        hint = _optional_inner(hint)
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint) and isinstance(part, str):
            names = {f.name for f in dataclasses.fields(hint)}
            if part not in names:
                return None
            hint = typing.get_type_hints(hint)[part]
        elif origin in (list, tuple) and isinstance(part, int) and args:
            hint = args[0]
        elif origin is dict and len(args) == 2:
            hint = args[1]
        else:
            return None
    return hint


# --- pydantic errors rephrased ----------------------------------------------------------------

_UNKNOWN_KEY = frozenset({"unexpected_keyword_argument", "extra_forbidden"})
_MISSING_KEY = frozenset({"missing", "missing_argument", "missing_keyword_only_argument"})
_WRONG_TYPE = frozenset({
    "int_type", "float_type", "string_type", "bool_type", "enum", "dataclass_type",
    "dataclass_exact_type", "list_type", "dict_type", "tuple_type", "none_required",
    "model_type", "int_from_float", "literal_error",
})


def _schema_problem(document: YamlDocument, schema: Any, details: ErrorDetails) -> Problem:
    loc: KeyPath = tuple(details["loc"])
    kind = details["type"]
    if kind in _UNKNOWN_KEY and loc:
        message = unknown_key_message(str(loc[-1]), field_names(schema, loc[:-1]))
        return _problem(document, document.locations.of_key(loc), loc, message)
    if kind in _MISSING_KEY and loc:
        parent = loc[:-1]
        return _problem(document, document.locations.of_entry(parent), parent,
                        f"missing required key '{loc[-1]}'")
    hint = hint_at(schema, loc)
    given = details.get("input")
    if kind in _WRONG_TYPE and hint is not None:
        message = f"expected {_expected(hint, _unit_key(loc))}, got {_show(given)}"
        message += _enum_guess(hint, given) + _quote_hint(hint, given)
    else:
        message = f"{details['msg'][:1].lower()}{details['msg'][1:]}, got {_show(given)}"
    return _problem(document, document.locations.of_entry(loc), loc, message)


def _expected(hint: Any, name: str | int) -> str:
    """What a value of type ``hint`` looks like in YAML, in a few words."""
    inner = _optional_inner(hint)
    if inner is not hint:
        return f"{_expected(inner, name)} or null"
    if hint is bool:
        return "true or false"
    if hint is int:
        return "an integer" + _unit(name)
    if hint is float:
        return "a number"
    if hint is str:
        return "a string"
    if isinstance(hint, type) and issubclass(hint, Enum):
        return f"one of ({', '.join(str(member.value) for member in hint)})"
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return f"a mapping ({', '.join(f.name for f in dataclasses.fields(hint))})"
    if typing.get_origin(hint) in (list, tuple):
        return "a list"
    if typing.get_origin(hint) is dict:
        return "a mapping"
    return str(hint)


def _enum_guess(hint: Any, given: Any) -> str:
    inner = _optional_inner(hint)
    if isinstance(inner, type) and issubclass(inner, Enum) and isinstance(given, str):
        values = [str(member.value) for member in inner]
        same_letters = [value for value in values if value.lower() == given.strip().lower()]
        guess = same_letters[0] if same_letters else did_you_mean(given, values)
        if guess is not None:
            return f"; did you mean '{guess}'?"
    return ""


def _quote_hint(hint: Any, given: Any) -> str:
    """For a number where text belongs (``rank: 10``, ``symbol: 600``): how to write the text."""
    if _optional_inner(hint) is str and isinstance(given, int | float) \
            and not isinstance(given, bool):
        return f"; quote it ('{given}') if it is meant as text"
    return ""


def _unit_key(loc: KeyPath) -> str:
    """The key whose name gives the unit of the value at ``loc``.

    A value's own key (``min_cents``) or, for an item of a list or of a
    mapping of amounts, the key of its container: ``pays_cents.1``,
    ``envy_cents.suited_four_of_a_kind``, ``meter_percent.0``.
    """
    keys = [part for part in loc if isinstance(part, str)]
    if not keys:
        return ""
    if not isinstance(loc[-1], str) or _unit(keys[-1]) or len(keys) < 2:
        return keys[-1]
    return keys[-2] if _unit(keys[-2]) else keys[-1]


def _unit(name: str | int) -> str:
    if isinstance(name, str) and name.endswith("_cents"):
        return " (cents)"
    if isinstance(name, str) and name.endswith("_percent"):
        return " (percent)"
    if isinstance(name, str) and name.endswith("_s"):
        return " (seconds)"
    return ""


def _show(value: Any) -> str:
    """A value as it would be written in YAML, short enough for a one-line message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'" if len(value) <= 40 else f"'{value[:37]}...'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    return repr(value)


# --- helpers ------------------------------------------------------------------------------------

def _checked(rules: Rules[T] | None, value: T) -> list[Violation]:
    """The rules' violations; a rule that trips over a bad value still refuses the file.

    A file must never start the program, nor crash it with a traceback, because
    a rule divided by a value another rule was about to report.
    """
    if rules is None:
        return []
    try:
        return list(rules(value))
    except ArithmeticError as error:
        return [Violation((), f"the rules could not be checked ({type(error).__name__}: {error})")]


def _problem(document: YamlDocument, where: Position, path: KeyPath, message: str) -> Problem:
    return Problem(document.file, where.line, where.column, key_path_text(path), message)


def _already_refused(document: YamlDocument, loc: KeyPath) -> bool:
    """True if the YAML reader already reported the value at ``loc`` or one containing it."""
    return any(loc[:end] in document.refused for end in range(len(loc) + 1))


def _optional_inner(hint: Any) -> Any:
    """``X`` for ``X | None``; any other hint unchanged."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(args) == 1 and len(typing.get_args(hint)) == 2:
            return args[0]
    return hint


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _adapter(schema: type[T]) -> TypeAdapter[T]:
    """One TypeAdapter per schema: building one compiles the validator, which is not free."""
    adapter = _ADAPTERS.get(schema)
    if adapter is None:
        adapter = _ADAPTERS[schema] = TypeAdapter(schema)
    return adapter
