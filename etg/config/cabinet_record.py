"""What the program last wrote to ``cabinet.yaml``, so that a file cut short is never half-read.

A ``cabinet.yaml`` cut short (a full disk, a power cut during a copy, an
editor's crash) is still YAML: the keys after the cut simply are not there,
and the schema would fill them with defaults, a PIN hash becoming "no PIN set"
without a word (issue 26, item 5). So whenever the program writes the file
(seeding the site configuration, :func:`~etg.config.cabinet_edit.set_cabinet_value`)
it keeps a copy of the exact bytes beside it, ``.cabinet.yaml.written``, and
reading the file compares it with that copy:

- the file is the copy's first bytes and no more: it was cut short;
- a key the copy has (``operator_pin_hash``, ``sound.volume``, ``dealers.D0417``)
  is missing from the file: it was lost.

Either refuses the file in one line that says how to resolve it. Defaults fill
only keys that were never written; a file the program never wrote (no copy)
is read as it stands, and a hand edit that keeps every key is simply read.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

from etg.config.problems import ROOT, ConfigError, KeyPath, Problem, key_path_text
from etg.config.yaml_source import MAX_BYTES, YamlDocument, parse_yaml


def record_path(cabinet_file: Path) -> Path:
    """Where the copy of what the program last wrote to ``cabinet_file`` is kept."""
    return cabinet_file.with_name(f".{cabinet_file.name}.written")


def record_written(cabinet_file: Path, data: bytes) -> None:
    """Keep ``data``, just written to ``cabinet_file``, as the copy to compare it with.

    Written beside it and renamed into place, so the copy is whole or the old one.
    """
    target = record_path(cabinet_file)
    handle, name = tempfile.mkstemp(prefix=f"{target.name}.", suffix=".tmp",
                                    dir=cabinet_file.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def check_whole(cabinet_file: Path, document: YamlDocument | None) -> None:
    """Raise :class:`ConfigError` (one line) if the file is cut short or lost a key it had.

    ``document`` is ``cabinet_file`` as read, ``None`` if it could not be read
    (then only a cut is looked for: it would be the real cause). Nothing is
    checked when the program never wrote the file (no copy) or the copy cannot
    be read or parsed.
    """
    copy = record_path(cabinet_file)
    try:
        with copy.open("rb") as handle:
            written = handle.read(MAX_BYTES + 1)
        if document is not None and hashlib.sha256(written).hexdigest() == document.sha256:
            return
        last = parse_yaml(written, str(copy))
        with cabinet_file.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except (OSError, ConfigError):
        return
    file = str(cabinet_file)
    if raw != written and written.startswith(raw):
        line = raw.count(b"\n") + 1
        raise ConfigError([Problem(file, line, 1, ROOT,
                                   f"the file is cut short: it is the first {len(raw)} of the "
                                   f"{len(written)} bytes last written; restore it from "
                                   f"{copy}")])
    if document is None:
        return
    had = _key_paths(last.data)
    # a section lost whole is named once, not with each of its keys
    missing = [path for path in had
               if not _has(document.data, path) and _has(document.data, path[:-1])]
    if missing:
        names = ", ".join(key_path_text(path) for path in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise ConfigError([Problem(file, 1, 1, ROOT,
                                   f"keys the file had when last written are missing: "
                                   f"{names}{more}; restore them (null for no value) from "
                                   f"{copy}: defaults fill only keys never written")])


def _key_paths(data: dict[str, Any], path: KeyPath = ()) -> list[KeyPath]:
    """Every key path of ``data`` through mappings, sections and their keys alike."""
    out: list[KeyPath] = []
    for key, value in data.items():
        out.append((*path, key))
        if isinstance(value, dict):
            out += _key_paths(value, (*path, key))
    return out


def _has(data: Any, path: KeyPath) -> bool:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return False
        data = data[key]
    return True
