"""Change one value of ``cabinet.yaml`` in place, keeping every other byte of the file.

The cabinet file is edited by people: it carries comments that say what each
key means and which rule it comes from. A program that wants to store a PIN
hash or the active paytable must not throw those away by re-dumping the YAML,
so this module rewrites exactly one top-level scalar, ``key: value  # comment``,
and nothing else: the comment stays, lined up with the file's other comments
when the new value leaves room (two spaces after it when not), and every other
line stays byte-for-byte, line endings included.

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
from yaml.nodes import MappingNode, ScalarNode

from etg.config.loader import load_cabinet
from etg.config.problems import ROOT, ConfigError, Problem
from etg.config.yaml_source import parse_yaml


class CabinetKeyError(KeyError):
    """The cabinet file has no top-level line for the key (or two of them); the message says."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no such key"


def set_cabinet_value(cabinet_file: Path, key: str, value: str | None) -> None:
    """Set top-level ``key`` of ``cabinet_file`` to ``value`` (``None`` writes ``null``).

    Raises :class:`CabinetKeyError` if the file has no ``key:`` line,
    ValueError if that key holds a mapping or a multi-line value,
    :class:`~etg.config.problems.ConfigError` if the file cannot be read or the
    new value makes it invalid (the file is then left as it was), and OSError
    if it cannot be written.
    """
    cabinet_file = Path(cabinet_file)
    try:
        raw = cabinet_file.read_bytes()
    except OSError as error:
        raise ConfigError([_problem(cabinet_file, f"cannot read the file: {error.strerror}")]) \
            from None
    parse_yaml(raw, str(cabinet_file))  # a syntax error is reported as the loader reports it
    text = raw.decode("utf-8")
    start, end = _value_span(text, key, cabinet_file)
    rendered = yaml_scalar(value)
    new_text = text[:start] + rendered + _after_value(text, start, end, rendered)
    _replace_validated(cabinet_file, new_text.encode("utf-8"))


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


def _value_span(text: str, key: str, cabinet_file: Path) -> tuple[int, int]:
    """Start and end (character offsets) of the one-line value of top-level ``key``."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(root, MappingNode):
        raise ConfigError([_problem(cabinet_file, "expected a mapping of keys at the top level")])
    found = [(k, v) for k, v in root.value if isinstance(k, ScalarNode) and k.value == key]
    if not found:
        raise CabinetKeyError(f"{cabinet_file}: no top-level '{key}:' line to change")
    if len(found) > 1:
        raise CabinetKeyError(f"{cabinet_file}: '{key}:' appears {len(found)} times")
    key_node, node = found[0]
    if not isinstance(node, ScalarNode) or node.style in ("|", ">"):
        raise ValueError(f"{cabinet_file}: '{key}' holds a block, not a one-line value")
    same_line = node.start_mark.line == node.end_mark.line == key_node.start_mark.line
    if not same_line or node.start_mark.index == node.end_mark.index:
        raise ValueError(f"{cabinet_file}: '{key}' must have its value on its own line "
                         f"(write null there first)")
    return node.start_mark.index, node.end_mark.index


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

