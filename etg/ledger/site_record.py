"""The site configuration's record of the cabinet's ledger, written by ``etg ledger init``.

A cabinet's real ledger and its key pair are made once, on purpose, by ``etg
ledger init`` (run by ``install.sh``), and recorded here: ``<config>/ledger.yaml``
holds the ledger's id, where the file is and the fingerprint of its public key.
From then on a ledger, folder or key that is missing is a fault said in one line,
never a new file (issue 25, finding 3): an unmounted data partition or a deleted
``ledger.db`` cannot turn into a clean new ledger with its meters at zero, and a
lost private key is never silently replaced by one the old history does not verify
with (finding 4).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import yaml

from etg.config.places import site_config_dir
from etg.ledger.terms import LedgerError

__all__ = ["RECORD_NAME", "SiteLedger", "read_record", "record_path", "write_record"]

RECORD_NAME = "ledger.yaml"


@dataclass(frozen=True)
class SiteLedger:
    """The cabinet's ledger as ``etg ledger init`` made (or adopted) it."""

    ledger_id: str
    path: Path
    fingerprint: str  # of the public key: sha256:<hex>
    initialised_at: str


def record_path(config_dir: Path | None = None) -> Path:
    return (config_dir or site_config_dir()) / RECORD_NAME


def read_record(config_dir: Path | None = None) -> SiteLedger | None:
    """The record, or None on a cabinet where ``etg ledger init`` never ran.

    Raises :class:`LedgerError` for a record that cannot be read: a damaged record
    is not the same as none, and never lets a new ledger be made.
    """
    path = record_path(config_dir)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise LedgerError(f"{path}: the ledger's record cannot be read: {error}") from None
    try:
        data = yaml.safe_load(text)
        record = SiteLedger(str(data["ledger_id"]), Path(str(data["path"])),
                            str(data["public_key_fingerprint"]), str(data["initialised_at"]))
    except (yaml.YAMLError, TypeError, KeyError):
        raise LedgerError(f"{path}: the ledger's record is damaged (ledger_id, path, "
                          f"public_key_fingerprint and initialised_at expected)") from None
    if not record.path.is_absolute():  # relative to the record, as cabinet.yaml's database
        record = SiteLedger(record.ledger_id, path.parent / record.path, record.fingerprint,
                            record.initialised_at)
    return record


def write_record(config_dir: Path | None, record: SiteLedger) -> Path:
    """Write the record (mode 0644); never overwrites one. Returns its path."""
    path = record_path(config_dir)
    text = ("# Written by `etg ledger init`: the cabinet's ledger and the public key that\n"
            "# verifies it. Never edit: a ledger or key that differs from this is a fault.\n"
            + yaml.safe_dump({"ledger_id": record.ledger_id, "path": str(record.path),
                              "public_key_fingerprint": record.fingerprint,
                              "initialised_at": record.initialised_at}, sort_keys=False))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    return path
