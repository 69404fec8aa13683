"""Load paytables and the cabinet file; the program does not start on an invalid one.

Both go the same way: :func:`~etg.config.yaml_source.read_yaml` (safe YAML,
positions, duplicate keys refused), then
:func:`~etg.config.validation.validate` (strict types into the frozen
dataclass, then the domain rules). Any problem raises
:class:`~etg.config.problems.ConfigError` listing all of them as
``FILE:LINE:COLUMN: key.path: message``.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from os import PathLike
from pathlib import Path

from etg.config.cabinet import Cabinet, cabinet_violations
from etg.config.cabinet_record import check_whole, record_written
from etg.config.places import shipped_config_dir, site_config_dir
from etg.config.problems import ConfigError
from etg.config.validation import Rules, validate
from etg.config.yaml_source import read_yaml
from etg.core.paytable import Paytable, Violation, rule_violations


@dataclass(frozen=True, slots=True)
class LoadedPaytable:
    """A valid paytable, the file it came from and the SHA-256 (hex) of that file's bytes.

    The hash is of the exact bytes that were parsed, so the ledger can record
    which approved file a round was played under.
    """

    paytable: Paytable
    path: Path
    sha256: str


def load_paytable(path: str | PathLike[str],
                  more_rules: Rules[Paytable] | None = None) -> LoadedPaytable:
    """Read and validate the paytable at ``path``; raises :class:`ConfigError`.

    ``more_rules`` (e.g. the wagers' returns, :mod:`etg.math.returns`) run only
    on a paytable that keeps every rule of its own, and their violations are
    placed in the file like the others.
    """

    def rules(paytable: Paytable) -> list[Violation]:
        found = rule_violations(paytable)
        return found if found or more_rules is None else list(more_rules(paytable))

    document = read_yaml(Path(path))
    paytable = validate(document, Paytable, rules)
    return LoadedPaytable(paytable, Path(path), document.sha256)


def load_cabinet(path: str | PathLike[str]) -> Cabinet:
    """Read and validate the cabinet file at ``path``; raises :class:`ConfigError`.

    The active paytable must exist; it is not loaded here (see
    :meth:`Cabinet.paytable_path` and :func:`load_paytable`).
    """
    cabinet_file = Path(path)
    try:
        document = read_yaml(cabinet_file)
    except ConfigError:
        check_whole(cabinet_file, None)  # a cut that broke the YAML is the cause to name
        raise
    check_whole(cabinet_file, document)  # never half-read: a file cut short is refused
    return validate(document, Cabinet, lambda cabinet: cabinet_violations(cabinet, cabinet_file))


def default_config_dir() -> Path:
    """The cabinet's site configuration directory, seeded from the shipped defaults.

    ``ETG_CONFIG_DIR`` or the platform's per-user configuration directory (see
    :mod:`etg.config.places`). At the first start it gets a copy of the shipped
    ``cabinet.yaml`` and ``paytables/``; what is there already is never
    overwritten, so the technician's settings and PIN hashes stay.
    """
    return seed_site_config(site_config_dir())


def seed_site_config(folder: Path) -> Path:
    """Copy the shipped defaults into ``folder`` where they are missing; returns ``folder``."""
    shipped = shipped_config_dir()
    if (folder / "cabinet.yaml").exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True, mode=0o750)
    for source in sorted(shipped.rglob("*")):
        target = folder / source.relative_to(shipped)
        if source.is_dir():
            target.mkdir(exist_ok=True)
        elif not target.exists():
            shutil.copyfile(source, target)
    cabinet_file = folder / "cabinet.yaml"
    record_written(cabinet_file, cabinet_file.read_bytes())
    return folder
