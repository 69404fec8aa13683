"""Every test runs in its own world: no real user's data, settings, keys or ledgers are touched.

``XDG_DATA_HOME`` and ``XDG_CONFIG_HOME`` point into the test's ``tmp_path``,
so the per-user ledger, its anchor and logs, and the cabinet's ledger key all
land there; SDL never opens a real display or sound card.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.fixture(autouse=True)
def private_places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Point the per-user data and configuration directories at the test's own folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield
