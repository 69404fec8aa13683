"""Load paytables and the cabinet file; the program does not start on an invalid one.

Both go the same way: :func:`~etg.config.yaml_source.read_yaml` (safe YAML,
positions, duplicate keys refused), then
:func:`~etg.config.validation.validate` (strict types into the frozen
dataclass, then the domain rules). Any problem raises
:class:`~etg.config.problems.ConfigError` listing all of them as
``FILE:LINE:COLUMN: key.path: message``.
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from pathlib import Path

import etg
from etg.config.cabinet import Cabinet, cabinet_violations
from etg.config.validation import validate
from etg.config.yaml_source import read_yaml
from etg.core.paytable import Paytable, rule_violations


@dataclass(frozen=True, slots=True)
class LoadedPaytable:
    """A valid paytable, the file it came from and the SHA-256 (hex) of that file's bytes.

    The hash is of the exact bytes that were parsed, so the ledger can record
    which approved file a round was played under.
    """

    paytable: Paytable
    path: Path
    sha256: str


def load_paytable(path: str | PathLike[str]) -> LoadedPaytable:
    """Read and validate the paytable at ``path``; raises :class:`ConfigError`."""
    document = read_yaml(Path(path))
    paytable = validate(document, Paytable, rule_violations)
    return LoadedPaytable(paytable, Path(path), document.sha256)


def load_cabinet(path: str | PathLike[str]) -> Cabinet:
    """Read and validate the cabinet file at ``path``; raises :class:`ConfigError`.

    The active paytable must exist; it is not loaded here (see
    :meth:`Cabinet.paytable_path` and :func:`load_paytable`).
    """
    cabinet_file = Path(path)
    document = read_yaml(cabinet_file)
    return validate(document, Cabinet, lambda cabinet: cabinet_violations(cabinet, cabinet_file))


def default_config_dir() -> Path:
    """The shipped ``config/`` directory (``cabinet.yaml``, ``paytables/``).

    In a source checkout or an editable install it is ``config/`` beside the
    ``etg`` package. A build that cannot ship a directory beside the package
    puts a copy in ``etg/_config`` instead, which is used when the first does
    not exist. Neither is checked further: loading reports a missing file.
    """
    package = Path(etg.__file__).resolve().parent
    beside = package.parent / "config"
    return beside if beside.is_dir() else package / "_config"
