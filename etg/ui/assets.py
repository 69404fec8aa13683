"""Bundled fonts and images (SPEC §6: no system fonts), found wherever the game runs.

The assets are the repository's top-level ``assets/``, shipped as package data
(see :mod:`etg.config.places`) and found in a checkout, an installed wheel and a
PyInstaller onedir build alike; ``ETG_ASSETS`` overrides them. Fonts and rendered text
are cached: a frame re-uses the surfaces of the frame before, which is what
keeps the busiest scene inside its frame budget (SPEC §11).
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from pathlib import Path

import pygame

from etg.config import places

Colour = tuple[int, int, int] | tuple[int, int, int, int]


class Style(Enum):
    """The bundled typefaces, by the job they do on screen."""

    REGULAR = "DejaVuSans.ttf"  # body text, tables
    BOLD = "DejaVuSans-Bold.ttf"  # buttons, amounts, status
    CONDENSED = "DejaVuSansCondensed-Bold.ttf"  # narrow labels: seat panels, wheel segments
    SERIF = "DejaVuSerif-Bold.ttf"  # card indices and titles


def assets_dir() -> Path:
    """The directory holding ``fonts/`` (package data; ``ETG_ASSETS`` overrides)."""
    return places.assets_dir()


def missing_assets() -> list[str]:
    """Bundled files that are not where the game looks for them (for the smoke test)."""
    root = assets_dir()
    wanted = [root / "fonts" / style.value for style in Style]
    wanted.append(root / "fonts" / "LICENSE-DejaVu.txt")
    return [str(path) for path in wanted if not path.is_file()]


def font(size: int, style: Style = Style.BOLD) -> pygame.font.Font:
    """The bundled typeface at ``size`` logical pixels.

    Fonts are cached; if pygame's font module was shut down and started again
    in between (a kiosk restarting its display, a test suite), the dead fonts
    are dropped and loaded anew.
    """
    if not pygame.font.get_init():
        pygame.font.init()
        _font.cache_clear()
    loaded = _font(size, style)
    try:
        loaded.get_ascent()
    except pygame.error:
        _font.cache_clear()
        loaded = _font(size, style)
    return loaded


@lru_cache(maxsize=128)
def _font(size: int, style: Style) -> pygame.font.Font:
    return pygame.font.Font(assets_dir() / "fonts" / style.value, size)


TEXT_CACHE = 1024
"""Rendered strings kept. Sized by measurement (``benchmarks/bench_memory.py``): the busiest
table draws a few hundred distinct strings a frame; with 1,024 kept, 99 % of lookups hit
(about 90 renders a round, ~3 ms) and the kiosk held 176 MB after 100 rounds, against
194 MB with 4,096, a cache that was still filling at round 100."""


@lru_cache(maxsize=TEXT_CACHE)
def text(words: str, size: int, colour: Colour, style: Style = Style.BOLD) -> pygame.Surface:
    """``words`` rendered antialiased on a transparent surface; cached, so never mutate it."""
    return font(size, style).render(words, True, colour)


def fit_text(words: str, size: int, colour: Colour, max_width: int,
             style: Style = Style.BOLD) -> pygame.Surface:
    """Like :func:`text`, stepping the size down until the line fits ``max_width``."""
    while size > 8:
        surface = text(words, size, colour, style)
        if surface.get_width() <= max_width:
            return surface
        size -= 2
    return text(words, size, colour, style)


def wrap(words: str, size: int, width: int, style: Style = Style.BOLD) -> list[str]:
    """``words`` broken into lines no wider than ``width`` at ``size`` (a word longer than
    the width stands alone on its line)."""
    face = font(size, style)
    lines: list[str] = []
    line = ""
    for word in words.split():
        trial = f"{line} {word}".strip()
        if line and face.size(trial)[0] > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return [*lines, line] if line else lines
