"""How ``etg run`` was started: the options every part of the kiosk may read."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class RunOptions:
    """How ``etg run`` was started."""

    windowed: bool = False
    headless: bool = False
    demo: bool = False
    rounds: int | None = None  # stop after this many rounds are finished (None: run on)
    screenshots: Path | None = None
    config_dir: Path | None = None  # where cabinet.yaml and paytables/ live
    frames: int | None = None  # stop after this many frames (for measuring a cold start)
