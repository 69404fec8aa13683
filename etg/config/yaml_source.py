"""Read a YAML file safely, remembering where every key and value stands.

PyYAML's loaders return plain data without positions, so an error found later
(by pydantic, or by the paytable rules) could not be pointed at a line. Here
a ``yaml.SafeLoader`` subclass only *composes* the file into a node tree, and
the tree is walked by hand: each key and value becomes plain data and its
start mark is recorded under its key path. Nothing is ever built from a tag
other than the plain scalars, lists and mappings, so a ``!!python/...`` tag is
refused without being acted on, whatever PyYAML's constructors would do.

The implicit scalar types are YAML 1.2's core schema, not PyYAML's YAML 1.1:
in an operator-edited money file, ``yes`` silently becoming ``true``, ``010``
becoming 8 and ``1:30`` becoming 90 are misreadings, so here they stay text
and the schema refuses them with a type error. Decimal integers may group
digits with underscores (``10_000_000`` cents). Timestamps are not resolved
either: JSON, and so the schema, has no such type.

Duplicate keys, which PyYAML silently resolves to the last one, are refused.

Sizes are capped before any work is done on them (issue 26): a file is read
to at most :data:`MAX_BYTES` (so ``/dev/zero`` or a 47 MB file is refused in
one line at once, never held in memory whole), composition stops at the
:data:`MAX_NODES`-th node written, and aliases may not expand the document
past :data:`_MAX_VALUES` values. The biggest shipped paytable is some 6 KB and
400 nodes, so the caps leave a hundredfold room and still bound the time a
hostile file can cost to a fraction of a second.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from etg.config.problems import ROOT, ConfigError, KeyPath, Problem, key_path_text


class Position(NamedTuple):
    """A place in a file, 1-based like an editor's."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Locations:
    """Where each key and each value of a document starts, by key path."""

    keys: Mapping[KeyPath, Position]
    values: Mapping[KeyPath, Position]

    def of_value(self, path: KeyPath) -> Position:
        """Where the value at ``path`` starts, else where its nearest present ancestor does.

        A key left out of the file (so its default is used) or never written
        (a missing key) is placed at the mapping that should hold it.
        """
        for end in range(len(path), -1, -1):
            found = self.values.get(path[:end])
            if found is not None:
                return found
        return Position(1, 1)

    def of_key(self, path: KeyPath) -> Position:
        """Where the key that ends ``path`` is written; its value's place if there is no key."""
        found = self.keys.get(path)
        return found if found is not None else self.of_value(path)

    def of_entry(self, path: KeyPath) -> Position:
        """Where a problem with the value at ``path`` (or its nearest present ancestor) is shown.

        That is the value, unless the value is a block mapping or list starting on
        a later line than its key: then the value's place is its first nested key
        or item, and the key line (``bonus_spin:``) is where the operator looks.
        """
        for end in range(len(path), -1, -1):
            value = self.values.get(path[:end])
            if value is not None:
                key = self.keys.get(path[:end])
                return key if key is not None and key.line < value.line else value
        return Position(1, 1)


@dataclass(frozen=True, slots=True)
class YamlDocument:
    """A YAML file read into plain JSON-like data, with its positions.

    ``problems`` are what was wrong but did not stop the reading (duplicate
    keys, unsupported tags, non-text keys); ``refused`` are the paths whose
    value was replaced by ``None`` because of one, so that later checks do
    not report them a second time.
    """

    file: str
    data: dict[str, Any]
    locations: Locations
    problems: tuple[Problem, ...]
    refused: frozenset[KeyPath]
    sha256: str


MAX_BYTES = 262_144
"""The largest YAML file read: 256 KiB, some 40 times the largest shipped paytable."""
MAX_NODES = 5_000
"""The most YAML nodes (keys, values, items) a file may write; a paytable has under 400."""


def read_yaml(path: str | Path) -> YamlDocument:
    """Read and compose the YAML file at ``path``; raises :class:`ConfigError`.

    Fatal problems (unreadable file, larger than :data:`MAX_BYTES`, not UTF-8,
    YAML syntax, too many nodes, empty file, a top level that is not a mapping)
    raise at once; the others are collected in :attr:`YamlDocument.problems`.
    """
    file = str(path)
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)  # never more: /dev/zero ends here too
    except OSError as error:
        raise ConfigError([Problem(file, 1, 1, ROOT, _unreadable(error))]) from None
    return parse_yaml(raw, file)


def parse_yaml(raw: bytes, file: str) -> YamlDocument:
    """Compose the bytes of a YAML file called ``file``; raises :class:`ConfigError`."""

    def fatal(line: int, column: int, message: str) -> ConfigError:
        return ConfigError([Problem(file, line, column, ROOT, message)])

    if len(raw) > MAX_BYTES:
        raise fatal(1, 1, f"the file is larger than {MAX_BYTES:,} bytes; a paytable or "
                          f"cabinet file is a few kilobytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = _position_in_bytes(raw, error.start)
        raise fatal(line, column, f"not UTF-8 text: byte 0x{raw[error.start]:02x}") from None
    try:
        root = _compose(text)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise fatal(line, column, _syntax_message(error)) from None
    except yaml.reader.ReaderError as error:
        line, column = _position_in_text(text, error.position)
        code = error.character if isinstance(error.character, int) else ord(error.character)
        raise fatal(line, column, f"character #x{code:04x} is not allowed in YAML") from None
    except yaml.YAMLError as error:
        raise fatal(1, 1, f"YAML error: {error}") from None
    except RecursionError:
        raise fatal(1, 1, "YAML nested too deeply") from None
    except _TooManyNodes as error:
        raise fatal(error.line, error.column,
                    f"more than {MAX_NODES:,} YAML nodes; a paytable or cabinet file has "
                    f"a few hundred") from None
    if root is None:
        raise fatal(1, 1, "the file is empty; expected a mapping of keys")
    if not isinstance(root, MappingNode) or root.tag != _MAP:
        where = _position(root)
        raise fatal(where.line, where.column,
                    f"expected a mapping of keys at the top level, got {_node_kind(root)}")
    walker = _Walker(file)
    try:
        data: dict[str, Any] = walker.value(root, ())
    except RecursionError:
        raise fatal(1, 1, "YAML nested too deeply") from None
    return YamlDocument(
        file=file,
        data=data,
        locations=Locations(walker.keys, walker.values),
        problems=tuple(walker.problems),
        refused=frozenset(walker.refused),
        sha256=hashlib.sha256(raw).hexdigest(),
    )


# --- the loader: composition only, YAML 1.2 core scalars -------------------------------------

_PREFIX = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_PREFIX + t for t in ("str", "int", "float", "bool", "null"))
_MAP, _SEQ = _PREFIX + "map", _PREFIX + "seq"

_BOOL_RE = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)\Z")
_NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)\Z")
_INT_RE = re.compile(r"^[-+]?(?:0|[1-9](?:_?[0-9])*)\Z")
# A dot or an exponent is required, so that "010" stays text rather than becoming 10.0.
_FLOAT_RE = re.compile(r"^[-+]?(?:(?:\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][-+]?[0-9]+)?"
                       r"|[0-9]+[eE][-+]?[0-9]+)\Z")
_DIGITS = list("0123456789")

_INT64 = 2**63  # every integer fits a signed 64-bit one (SQLite's INTEGER, NumPy's int64)
_MAX_VALUES = 100_000  # a guard against alias bombs ("billion laughs"), far above any paytable


class _TooManyNodes(Exception):
    """Composition reached :data:`MAX_NODES`; ``line`` and ``column`` (1-based) are where."""

    def __init__(self, line: int, column: int) -> None:
        super().__init__(line, column)
        self.line, self.column = line, column


class _StrictLoader(yaml.SafeLoader):
    """``SafeLoader`` with YAML 1.2 core implicit types; used here to compose only."""

    # PyYAML's class-level registry, emptied; filled below with the YAML 1.2 core types.
    yaml_implicit_resolvers = {}  # noqa: RUF012
    nodes = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        """PyYAML's, counting each node so that a huge document stops early, not at its end."""
        self.nodes += 1
        if self.nodes > MAX_NODES:
            mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
            raise _TooManyNodes(mark.line + 1, mark.column + 1)
        node: Node | None = super().compose_node(parent, index)
        return node


_StrictLoader.add_implicit_resolver(_BOOL, _BOOL_RE, list("tTfF"))
_StrictLoader.add_implicit_resolver(_NULL, _NULL_RE, ["~", "n", "N", ""])
_StrictLoader.add_implicit_resolver(_INT, _INT_RE, ["-", "+", *_DIGITS])
_StrictLoader.add_implicit_resolver(_FLOAT, _FLOAT_RE, ["-", "+", ".", *_DIGITS])


class _Walker:
    """Turns a node tree into plain data, recording positions and non-fatal problems."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.keys: dict[KeyPath, Position] = {}
        self.values: dict[KeyPath, Position] = {}
        self.problems: list[Problem] = []
        self.refused: set[KeyPath] = set()
        self._open: set[int] = set()  # nodes being walked, to stop a recursive alias

    def mapping(self, node: MappingNode, path: KeyPath) -> dict[str, Any]:
        self.values[path] = _position(node)
        out: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        for key_node, value_node in node.value:
            where = _position(key_node)
            if not isinstance(key_node, ScalarNode) or key_node.tag != _STR \
                    or not _is_text(key_node.value):
                self._problem(where, path, f"a key must be a string, got {_node_kind(key_node)}")
                continue
            key = key_node.value
            if key in first_line:
                self._problem(where, (*path, key),
                              f"duplicate key '{key}' (first at line {first_line[key]})")
                continue
            first_line[key] = where.line
            self.keys[(*path, key)] = where
            out[key] = self.value(value_node, (*path, key))
        return out

    def value(self, node: Node, path: KeyPath) -> Any:
        if len(self.values) >= _MAX_VALUES:
            raise ConfigError([Problem(self.file, *_position(node), key_path_text(path),
                                       f"aliases expand to more than {_MAX_VALUES} values")])
        if id(node) in self._open:
            return self._refuse(node, path, "an alias may not refer to a value that contains it")
        self._open.add(id(node))
        try:
            if isinstance(node, ScalarNode):
                self.values[path] = _position(node)
                return self._scalar(node, path)
            if isinstance(node, SequenceNode) and node.tag == _SEQ:
                self.values[path] = _position(node)
                return [self.value(item, (*path, i)) for i, item in enumerate(node.value)]
            if isinstance(node, MappingNode) and node.tag == _MAP:
                return self.mapping(node, path)
            return self._refuse(node, path, f"unsupported YAML tag '{_short_tag(node.tag)}'")
        finally:
            self._open.discard(id(node))

    def _scalar(self, node: ScalarNode, path: KeyPath) -> Any:
        text: str = node.value
        if node.tag == _STR and _is_text(text):
            return text
        if node.tag == _STR:
            return self._refuse(node, path, "a string escape makes invalid Unicode text")
        if node.tag == _NULL and _NULL_RE.match(text):
            return None
        if node.tag == _BOOL and _BOOL_RE.match(text):
            return text.lower() == "true"
        if node.tag == _INT and _INT_RE.match(text):
            whole = int(text)
            if -_INT64 <= whole < _INT64:
                return whole
            return self._refuse(node, path, f"{text} is too large for a number "
                                            f"(a 64-bit integer at most)")
        if node.tag == _FLOAT and _FLOAT_RE.match(text):
            number = float(text)
            if math.isfinite(number):
                return number
            return self._refuse(node, path, f"{text} is too large for a number")
        if node.tag in (_NULL, _BOOL, _INT, _FLOAT):
            return self._refuse(node, path, f"'{text}' is not a valid {_short_tag(node.tag)}")
        return self._refuse(node, path, f"unsupported YAML tag '{_short_tag(node.tag)}'")

    def _refuse(self, node: Node, path: KeyPath, message: str) -> None:
        self.values[path] = _position(node)
        self.refused.add(path)
        self._problem(_position(node), path, message)
        return None

    def _problem(self, where: Position, path: KeyPath, message: str) -> None:
        self.problems.append(Problem(self.file, where.line, where.column,
                                     key_path_text(path), message))


def _compose(text: str) -> Node | None:
    """The node tree of the one document in ``text``; ``None`` if there is none."""
    loader = _StrictLoader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


# --- small helpers ------------------------------------------------------------------------------

def _position(node: Node) -> Position:
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)


def _is_text(text: str) -> bool:
    """False if a ``\\u`` escape left a lone surrogate, which no UTF-8 text can hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _node_kind(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    if isinstance(node, ScalarNode) and node.tag == _STR:
        return f"'{node.value}'"
    if isinstance(node, ScalarNode) and node.tag == _NULL:
        return "null"
    return str(node.value)


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_PREFIX):] if tag.startswith(_PREFIX) else tag


def _syntax_message(error: yaml.MarkedYAMLError) -> str:
    """PyYAML's context then its problem, as PyYAML itself prints them, on one line."""
    problem = error.problem or "invalid YAML"
    if not error.context:
        return f"YAML syntax error: {problem}"
    context = error.context
    start, found = error.context_mark, error.problem_mark
    if context.startswith("while ") and start and (not found or start.line != found.line):
        context += f" at line {start.line + 1}"
    return f"YAML syntax error: {context}, {problem}"


def _unreadable(error: OSError) -> str:
    if isinstance(error, FileNotFoundError):
        return "cannot read the file: no such file"
    if isinstance(error, IsADirectoryError):
        return "cannot read the file: it is a directory"
    if isinstance(error, PermissionError):
        return "cannot read the file: permission denied"
    return f"cannot read the file: {error.strerror or error}"


def _position_in_bytes(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    column = len(raw[line_start:offset].decode("utf-8", errors="replace")) + 1
    return raw.count(b"\n", 0, offset) + 1, column


def _position_in_text(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1

