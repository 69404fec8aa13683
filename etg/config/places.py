"""Where ETG's files are: what ships with the program, and what a cabinet writes (SPEC §10).

- **Shipped, read-only**: the default configuration (``cabinet.yaml`` and the
  approved ``paytables/``) and the assets (fonts). In the repository they are
  the top-level ``config/`` and ``assets/``; pyproject.toml maps them onto the
  package data ``etg/data/config`` and ``etg/data/assets`` of the wheel, which
  the frozen build bundles as it is. A wheel, an editable install and a frozen
  build all find them from any working directory.
- **Site configuration**, writable by the technician: ``cabinet.yaml``, the
  approved paytables, the ledger's key pair in ``keys/`` (the private key the
  writer's alone, the public key everyone's) and ``ledger.yaml``, the record
  ``etg ledger init`` made of the cabinet's ledger. ``ETG_CONFIG_DIR`` or the
  platform's per-user configuration directory (``~/.config/etg``).
- **Data**, written by the program: the ledger, its anchor and lock, the logs.
  ``ETG_DATA_DIR`` or the platform's per-user data directory
  (``~/.local/share/etg``).
"""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

import platformdirs

APP = "etg"


def shipped(folder: str) -> Path:
    """A folder of the shipped defaults, ``config`` or ``assets``, as a real directory.

    The frozen build keeps the wheel's package data under ``sys._MEIPASS``; an
    installed wheel has it in the package, ``etg/data/<folder>``, found with
    :mod:`importlib.resources`. An editable install (or a bare checkout) reads
    the repository's own top-level folder beside the ``etg`` package: setuptools'
    editable finder cannot import a subpackage that pyproject.toml maps outside
    its parent (pypa/setuptools#4248), so there is no ``etg.data`` to ask there.
    """
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen is not None:
        return Path(frozen) / "etg" / "data" / folder
    package = Path(str(resources.files("etg")))
    installed = package / "data" / folder
    return installed if installed.is_dir() else package.parent / folder


def shipped_config_dir() -> Path:
    """The default configuration that ships with the program: ``cabinet.yaml``, ``paytables/``."""
    return shipped("config")


def assets_dir() -> Path:
    """The bundled assets: ``fonts/`` and their licences."""
    override = os.environ.get("ETG_ASSETS")
    return Path(override) if override else shipped("assets")


def site_config_dir() -> Path:
    """The cabinet's writable configuration directory (not created here)."""
    override = os.environ.get("ETG_CONFIG_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def data_dir() -> Path:
    """The directory of the ledger, its anchor and lock, and the logs (not created here)."""
    override = os.environ.get("ETG_DATA_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir(APP, appauthor=False))
