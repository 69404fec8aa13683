"""Change one value of ``cabinet.yaml`` in place, keeping every other byte of the file.

The cabinet file is edited by people: it carries comments that say what each
key means and which rule it comes from. A program that wants to store a PIN
hash, the active paytable or the sound volume must not throw those away by
re-dumping the YAML, so this module rewrites exactly one scalar,
``key: value  # comment`` (at the top level or inside a section such as
``sound:``), and nothing else: the comment stays, lined up with the file's
other comments when the new value leaves room (two spaces after it when not),
and every other line stays byte-for-byte, line endings included. A key of a
section that the file does not have yet (a file written before the section
existed) is added as one new line at the end of its section, or as the section
at the end of the file.

The new file is written beside the old one, validated with
:func:`~etg.config.loader.load_cabinet` (so it can never hold a value the
program would refuse to start on) and only then moved over the old one with
``os.replace``: a power cut leaves either the old file or the new one, and an
invalid value leaves the old file untouched and raises the loader's
:class:`~etg.config.problems.ConfigError`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import tempfile
from collections import Counter
from pathlib import Path

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from etg.config.cabinet_record import check_whole, record_written
from etg.config.loader import load_cabinet
from etg.config.problems import ROOT, ConfigError, Problem
from etg.config.yaml_source import parse_yaml

Scalar = str | int | bool | None
"""A value the cabinet file can hold on one line."""


class CabinetKeyError(KeyError):
    """The cabinet file has no top-level line for the key (or two of them); the message says."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no such key"


def set_cabinet_value(cabinet_file: Path, key: str, value: Scalar) -> None:
    """Set ``key`` of ``cabinet_file`` to ``value`` (``None`` writes ``null``).

    ``key`` is a top-level key (``language``) or a dotted path into a section
    (``sound.volume``); a section's key the file lacks is added (see the
    module's docstring). Strings are written so that they read back as the same
    text (:func:`yaml_scalar`), integers and booleans as YAML numbers and
    ``true`` / ``false``.

    Raises :class:`CabinetKeyError` if the file has no top-level ``key:`` line
    (or a key appears twice), ValueError if that key holds a mapping or a
    multi-line value, :class:`~etg.config.problems.ConfigError` if the file
    cannot be read or the new value makes it invalid (the file is then left as
    it was), and OSError if it cannot be written.
    """
    cabinet_file = Path(cabinet_file)
    try:
        raw = cabinet_file.read_bytes()
    except OSError as error:
        raise ConfigError([_problem(cabinet_file, f"cannot read the file: {error.strerror}")]) \
            from None
    # a syntax error is reported as the loader reports it, and a file cut short is not completed
    try:
        document = parse_yaml(raw, str(cabinet_file))
    except ConfigError:
        check_whole(cabinet_file, None)
        raise
    check_whole(cabinet_file, document)
    text = raw.decode("utf-8")
    rendered = cabinet_scalar(value)
    path = key.split(".")
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(root, MappingNode):
        raise ConfigError([_problem(cabinet_file, "expected a mapping of keys at the top level")])
    found = _find(root, path, cabinet_file)
    if isinstance(found, _Entry):
        start, end = _value_span(found, key, cabinet_file)
        new_text = text[:start] + rendered + _after_value(text, start, end, rendered)
    else:
        new_text = _with_new_key(text, found, path, rendered, cabinet_file)
    _replace_validated(cabinet_file, new_text.encode("utf-8"))


def cabinet_scalar(value: Scalar) -> str:
    """``value`` as one line of YAML: ``true`` / ``false``, a number, or :func:`yaml_scalar`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return yaml_scalar(value)


def yaml_scalar(value: str | None) -> str:
    """``value`` as a one-line YAML scalar that reads back as exactly that string.

    Plain when that is unambiguous (``paytables/md-5.yaml``, a PIN hash),
    single-quoted otherwise (``'true'``, ``'010'``, ``'a # b'``), double-quoted
    with escapes for control characters; ``None`` is ``null``.
    """
    if value is None:
        return "null"
    if _PLAIN.fullmatch(value) and _reads_back(value, value):
        return value
    if value.isprintable():
        quoted = "'" + value.replace("'", "''") + "'"
        if _reads_back(quoted, value):
            return quoted
    # JSON's double-quoted strings are YAML double-quoted scalars.
    quoted = '"' + value.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'
    if not _reads_back(quoted, value):
        raise ValueError(f"cannot write {value!r} as a one-line YAML value")
    return quoted


# --- helpers -----------------------------------------------------------------------------------

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_./$+=-]*")
_TRAILING_COMMENT = re.compile(r"^[^#\s][^#\r\n]*?[ \t]+#")
_MIN_GAP = 2  # spaces between a value and its comment (yamllint's default)


def _reads_back(rendered: str, value: str) -> bool:
    try:
        document = parse_yaml(f"k: {rendered}\n".encode(), "<value>")
    except ConfigError:
        return False
    return not document.problems and document.data.get("k") == value


@dataclasses.dataclass(frozen=True)
class _Entry:
    """A key found in the file, and its value."""

    key: Node
    value: Node


@dataclasses.dataclass(frozen=True)
class _Missing:
    """The deepest section of a path that the file has (``path[:depth]``); the rest is not there."""

    section: MappingNode
    depth: int


def _find(root: MappingNode, path: list[str], cabinet_file: Path) -> _Entry | _Missing:
    """The entry at ``path``, or where the file stops having it.

    A missing top-level key is a :class:`CabinetKeyError`: only a section's key is added.
    """
    node: Node = root
    entry: _Entry | None = None
    for depth, part in enumerate(path):
        if not isinstance(node, MappingNode):
            where = ".".join(path[:depth])
            raise ValueError(f"{cabinet_file}: '{where}' holds a value, not a section of keys")
        found = [_Entry(k, v) for k, v in node.value
                 if isinstance(k, ScalarNode) and k.value == part]
        if len(found) > 1:
            raise CabinetKeyError(f"{cabinet_file}: '{part}:' appears {len(found)} times")
        if not found:
            if len(path) == 1:
                raise CabinetKeyError(f"{cabinet_file}: no top-level '{part}:' line to change")
            return _Missing(node, depth)
        entry = found[0]
        node = entry.value
    assert entry is not None  # a key path has at least one part
    return entry


def _value_span(entry: _Entry, key: str, cabinet_file: Path) -> tuple[int, int]:
    """Start and end (character offsets) of the one-line value of ``entry``."""
    node = entry.value
    if not isinstance(node, ScalarNode) or node.style in ("|", ">"):
        raise ValueError(f"{cabinet_file}: '{key}' holds a block, not a one-line value")
    same_line = node.start_mark.line == node.end_mark.line == entry.key.start_mark.line
    if not same_line or node.start_mark.index == node.end_mark.index:
        raise ValueError(f"{cabinet_file}: '{key}' must have its value on its own line "
                         f"(write null there first)")
    return node.start_mark.index, node.end_mark.index


def _with_new_key(text: str, missing: _Missing, path: list[str], rendered: str,
                  cabinet_file: Path) -> str:
    """``text`` with the keys of ``path`` that ``missing`` lacks added under its section."""
    newline = "\r\n" if "\r\n" in text else "\n"
    section, depth = missing.section, missing.depth
    if section.flow_style:
        raise ValueError(f"{cabinet_file}: '{'.'.join(path[:depth])}' is written on one line; "
                         f"add '{path[depth]}' to it by hand")
    if depth == 0:
        indent, at = 0, len(text)  # a new section goes at the end of the file
    else:
        indent = section.value[0][0].start_mark.column if section.value else 2 * depth
        at = _end_of_line(text, _last_index(section))
    lines = []
    for level, part in enumerate(path[depth:]):
        last = depth + level == len(path) - 1
        lines.append(" " * (indent + 2 * level) + f"{part}:" + (f" {rendered}" if last else ""))
    head = text[:at]
    if head and not head.endswith("\n"):
        head += newline
    return head + newline.join(lines) + newline + text[at:]


def _last_index(node: Node) -> int:
    """Character offset just after the last value written inside ``node``."""
    while isinstance(node, MappingNode | SequenceNode) and node.value and not node.flow_style:
        last = node.value[-1]
        node = last[1] if isinstance(node, MappingNode) else last
    return int(node.end_mark.index)


def _end_of_line(text: str, index: int) -> int:
    """Offset of the start of the line after the one ``index`` is on (or the end of text)."""
    if index > 0 and text[index - 1] == "\n":
        return index  # a block's end mark already sits at the start of the next line
    end = text.find("\n", index)
    return len(text) if end == -1 else end + 1


def _after_value(text: str, start: int, end: int, rendered: str) -> str:
    """The rest of the value's line after the new value: the same comment, re-aligned."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end == -1 else line_end
    rest = text[end:line_end]
    comment = rest.lstrip(" \t")
    if not comment.startswith("#"):
        return text[end:]
    old_column = end - line_start + len(rest) - len(comment)
    column = _comment_column(text, line_start) or old_column
    value_end = start - line_start + len(rendered)
    gap = column - value_end if column - value_end >= _MIN_GAP else _MIN_GAP
    return " " * gap + comment + text[line_end:]


def _comment_column(text: str, skip_line_start: int) -> int | None:
    """The column most of the file's trailing comments line up on (a layout, not a rule)."""
    columns: Counter[int] = Counter()
    offset = 0
    for line in text.splitlines(keepends=True):
        if offset != skip_line_start:
            match = _TRAILING_COMMENT.match(line.lstrip(" "))
            if match:
                columns[len(line) - len(line.lstrip(" ")) + match.end() - 1] += 1
        offset += len(line)
    if not columns:
        return None
    return max(columns.items(), key=lambda item: (item[1], -item[0]))[0]


def _replace_validated(cabinet_file: Path, data: bytes) -> None:
    """Write ``data`` beside ``cabinet_file``, validate it, then move it over the old file."""
    folder = cabinet_file.parent
    handle, name = tempfile.mkstemp(prefix=f".{cabinet_file.name}.", suffix=".tmp", dir=folder)
    temp = Path(name)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(OSError):  # else keep the temporary file's own mode
            os.chmod(temp, cabinet_file.stat().st_mode & 0o7777)
        try:
            load_cabinet(temp)
        except ConfigError as error:
            raise ConfigError([dataclasses.replace(p, file=str(cabinet_file))
                               for p in error.problems]) from None
        os.replace(temp, cabinet_file)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _sync_folder(folder)
    record_written(cabinet_file, data)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the platform allows it (POSIX)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _problem(cabinet_file: Path, message: str) -> Problem:
    return Problem(str(cabinet_file), 1, 1, ROOT, message)

