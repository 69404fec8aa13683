"""The screen the kiosk draws on: opening it (or refusing to, with no display), and saving
what it shows (``--screenshots``)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from etg.config.cabinet import Cabinet
from etg.ui import c_stderr
from etg.ui.canvas import LOGICAL
from etg.ui.options import RunOptions

log = logging.getLogger("etg.kiosk")


class NoDisplay(RuntimeError):
    """No screen to open a window on: run with --headless."""


def open_window(cabinet: Cabinet, options: RunOptions) -> pygame.Surface:
    """The display surface: full screen on the cabinet's display, a window, or SDL's dummy.

    Never pygame's SCALED flag: SDL scales mouse positions for it but not
    finger positions (see etg.ui.input); the App scales the canvas itself.
    """
    if options.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        with c_stderr.to_the_log(log, "SDL while opening the display"):
            pygame.display.init()
        pygame.font.init()
        if options.headless:
            return pygame.display.set_mode(LOGICAL)
        _require_a_screen()
        display = cabinet.display
        if options.windowed or not display.fullscreen:
            size = _fitting((display.width, display.height), display.index)
            return pygame.display.set_mode(size, pygame.RESIZABLE, display=display.index)
        window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN, display=display.index)
        pygame.mouse.set_visible(False)  # kiosk: players touch, nobody points
        return window
    except pygame.error as error:
        raise NoDisplay(str(error)) from error


def _fitting(size: tuple[int, int], index: int) -> tuple[int, int]:
    """A window of ``size``, made smaller (its shape kept) where the desktop is smaller: a
    1920×1080 table opened on a laptop shows whole, not cropped."""
    desktops = pygame.display.get_desktop_sizes()
    if index >= len(desktops) or pygame.display.get_driver() in _NOWHERE:
        return size  # SDL's dummy driver has no desktop: the window is the size asked for
    room_w, room_h = (round(side * 0.9) for side in desktops[index])
    scale = min(1.0, room_w / size[0], room_h / size[1])
    return max(1, round(size[0] * scale)), max(1, round(size[1] * scale))


def probe_display(options: RunOptions) -> None:
    """Raise :class:`NoDisplay` at once if no window could open (nothing else is touched
    first: no ledger, no log file), so a cabinet without a screen says so in one line."""
    if options.headless:
        return
    try:
        with c_stderr.to_the_log(log, "SDL while opening the display"):
            pygame.display.init()
        _require_a_screen()
    except pygame.error as error:
        raise NoDisplay(str(error)) from error


def _require_a_screen() -> None:
    """Refuse SDL's silent fallback: with no screen it picks a driver that draws nowhere.

    Without ``DISPLAY`` (or Wayland, or a console it may use) SDL falls back to
    its ``offscreen`` driver, and a kiosk would run forever showing nothing to
    anybody. Only a driver asked for by name (``SDL_VIDEODRIVER``, as the tests
    and ``--headless`` do) may be one that draws nowhere.
    """
    driver = pygame.display.get_driver()
    if driver in _NOWHERE and os.environ.get("SDL_VIDEODRIVER", "").lower() != driver:
        raise NoDisplay(f"SDL found no screen and fell back to its {driver} driver")


_NOWHERE = frozenset({"offscreen", "dummy"})


@dataclass
class Shots:
    """PNG of each phase of each round, once the screen has settled on it."""

    directory: Path
    taken: list[Path] = field(default_factory=list)
    _seen: set[str] = field(default_factory=set)

    def want(self, name: str) -> bool:
        return name not in self._seen

    def save(self, canvas: pygame.Surface, name: str) -> Path:
        self._seen.add(name)
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / f"{len(self.taken) + 1:03d}-{name}.png"
        pygame.image.save(canvas, path)
        self.taken.append(path)
        return path
