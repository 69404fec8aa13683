"""Where ETG's files are: what ships with the program, and what a cabinet writes (SPEC §10).

- **Shipped, read-only**: the default configuration (``cabinet.yaml`` and the
  approved ``paytables/``) and the assets (fonts), package data found with
  :mod:`importlib.resources`, so a wheel, an editable install and a frozen
  build all find them from any working directory.
- **Site configuration**, writable by the technician: ``cabinet.yaml``, the
  approved paytables and the ledger key. ``ETG_CONFIG_DIR`` or the platform's
  per-user configuration directory (``~/.config/etg``).
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


def package_data() -> Path:
    """The package's own data folder (``etg/data``), as a real directory."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen is not None:
        return Path(frozen) / "etg" / "data"
    return Path(str(resources.files("etg") / "data"))


def shipped_config_dir() -> Path:
    """The default configuration that ships with the program: ``cabinet.yaml``, ``paytables/``."""
    return package_data() / "config"


def assets_dir() -> Path:
    """The bundled assets: ``fonts/`` and their licences."""
    override = os.environ.get("ETG_ASSETS")
    return Path(override) if override else package_data() / "assets"


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
