"""Helpers for the kiosk tests: the real App, headless, on a temporary config and ledger.

Each test gets its own copy of ``config/`` (so a PIN written by a test never
touches the shipped cabinet file) and its own ledger. Touches are fed through
the App's input adapter as real pygame mouse and finger events.
"""

from __future__ import annotations

import os
import re

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import shutil
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import pygame
import pytest

from etg.config.loader import load_cabinet
from etg.config.places import shipped_config_dir
from etg.core.cards import Card
from etg.core.commands import Shuffle, ShuffleReason
from etg.core.rng import SeededSource
from etg.core.shoe import ShoeDraw
from etg.ledger.store import Ledger
from etg.table.controller import Table
from etg.ui import ring_art, wheel, wheel_art
from etg.ui.app import App
from etg.ui.canvas import LOGICAL
from etg.ui.display import open_window
from etg.ui.options import RunOptions
from etg.ui.scene import Scene
from etg.ui.wheel_rings import Ring
from etg.ui.widgets import Button
from tests.ledger_support import paytable_once

ROOT = Path(__file__).resolve().parent.parent


_KEPT: list[Any] = []  # the caches of keep_wheel_pictures, for forget_kept_pictures


def keep_wheel_pictures(patch: pytest.MonkeyPatch) -> None:
    """Keep the wheel's still artwork for as long as ``patch`` holds (tests/conftest.py's
    ``wheel_pictures_kept``): each ring painted and turned its six ways, the rim, hub and
    pointer, and each ring's labels fitted, once for each ring and size. Caches of the
    kind the program keeps a few of (``paint_ring``, ``turned``), only larger."""
    _KEPT[:] = [lru_cache(maxsize=48)(wheel_art.paint_ring.__wrapped__),
                lru_cache(maxsize=48 * ring_art.COPIES)(wheel_art.turned.__wrapped__),
                lru_cache(maxsize=256)(Ring.fitted.__func__)]
    patch.setattr(ring_art, "paint_ring", _KEPT[0])
    patch.setattr(ring_art, "turned", _KEPT[1])
    patch.setattr(Ring, "fitted", classmethod(_KEPT[2]))
    for name in ("paint_rim", "paint_hub", "paint_pointer"):
        _KEPT.append(lru_cache(maxsize=32)(getattr(wheel_art, name)))
        patch.setattr(wheel, name, _KEPT[-1])


def forget_kept_pictures() -> None:
    """Empty the caches of :func:`keep_wheel_pictures`: the next wheel paints and fits afresh."""
    for kept in _KEPT:
        kept.cache_clear()


def config_copy(tmp: Path, paytable: str = "maryland-community-5.yaml") -> Path:
    """A writable copy of the shipped config/ whose cabinet plays ``paytable``."""
    target = tmp / "config"
    shutil.copytree(shipped_config_dir(), target)
    cabinet = target / "cabinet.yaml"
    text = cabinet.read_text(encoding="utf-8")
    cabinet.write_text(text.replace("paytables/maryland-community-5.yaml",
                                    f"paytables/{paytable}"), encoding="utf-8")
    return target


def sized(config: Path, size: tuple[int, int]) -> Path:
    """``config`` (a writable copy) with its cabinet's display ``size`` (a window, under SDL's
    dummy driver in the tests, or an X display's)."""
    cabinet = config / "cabinet.yaml"
    cabinet.write_text(cabinet.read_text(encoding="utf-8")
                       .replace("width: 1920", f"width: {size[0]}")
                       .replace("height: 1080", f"height: {size[1]}"), encoding="utf-8")
    return config


def layout_config(tmp: Path, spots: int, seats: int) -> Path:
    """A writable config/ whose cabinet plays Maryland's ``spots``-spot table at ``seats``."""
    name = f"maryland-community-{spots}.yaml"
    config = config_copy(tmp, name)
    paytable = config / "paytables" / name
    paytable.write_text(re.sub(r"^seats: \d+", f"seats: {seats}",
                               paytable.read_text(encoding="utf-8"), flags=re.M),
                        encoding="utf-8")
    return config


def make_app(tmp: Path, paytable: str = "maryland-community-5.yaml", seed: int = 7,
             base: Callable[[App], Scene] | None = None, demo: bool = False,
             screenshots: Path | None = None, db: Path | None = None,
             config: Path | None = None, windowed: bool = False) -> App:
    """The real kiosk App, headless (or a window on SDL's dummy driver), on a ledger in ``tmp``."""
    config = config or config_copy(tmp, paytable)
    cabinet_file = config / "cabinet.yaml"
    cabinet = load_cabinet(cabinet_file)
    loaded = paytable_once(cabinet.paytable_path(cabinet_file))
    table = Table.open(Ledger.open(db or tmp / "table.db"), loaded, SeededSource(seed))
    options = RunOptions(headless=not windowed, windowed=windowed, demo=demo,
                         screenshots=screenshots, config_dir=config)
    window = open_window(cabinet, options)
    director = None
    if demo:
        from etg.ui.demo import DemoDirector

        director = DemoDirector(table)
    return App(table, cabinet, cabinet_file, options, window, base=base, director=director)


def run_for(app: App, seconds: float, draw: bool = False) -> None:
    """Advance the App's clock frame by frame (headless: 1/60 s a frame)."""
    for _ in range(round(seconds * 60)):
        app.frame(1 / 60, draw)


def run_until(app: App, done: Callable[[], bool], limit_s: float = 120.0) -> None:
    """Frames until ``done()`` holds; fails after ``limit_s`` of App time."""
    for _ in range(round(limit_s * 60)):
        if done():
            return
        app.frame(1 / 60, False)
        app.table.writer.wait()  # a real frame lasts 1/60 s: the writer has had its time
    raise AssertionError(f"not done after {limit_s} s of App time")


def tap_at(app: App, x: float, y: float) -> None:
    """A left click at logical (x, y), as pygame mouse events through the App."""
    pos = _screen(app, x, y)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))


def finger_down(app: App, finger: int, x: float, y: float) -> None:
    sx, sy = _screen(app, x, y)
    w, h = app.viewport.screen_w, app.viewport.screen_h
    app.handle(pygame.event.Event(pygame.FINGERDOWN, touch_id=1, finger_id=finger,
                                  x=sx / w, y=sy / h, dx=0.0, dy=0.0, pressure=1.0))


def finger_up(app: App, finger: int, x: float, y: float) -> None:
    sx, sy = _screen(app, x, y)
    w, h = app.viewport.screen_w, app.viewport.screen_h
    app.handle(pygame.event.Event(pygame.FINGERUP, touch_id=1, finger_id=finger,
                                  x=sx / w, y=sy / h, dx=0.0, dy=0.0, pressure=0.0))


def button(app: App, tag: str) -> Button:
    """The top scene's button with ``tag`` as the next frame draws it (every commit so far
    delivered: a finger touches what it sees); fails if there is none."""
    app.table.deliver(wait=True)
    for b in app.top.buttons(app.now):
        if b.tag == tag:
            return b
    tags = [b.tag for b in app.top.buttons(app.now)]
    raise AssertionError(f"no button {tag!r} on {app.top.name}; there are {tags}")


def tap(app: App, tag: str) -> None:
    """Tap the centre of the top scene's button ``tag`` with the mouse."""
    x, y, w, h = button(app, tag).rect
    tap_at(app, x + w / 2, y + h / 2)
    settle_pin(app)


def dealer(app: App, action: str) -> None:
    """The dealer presses ``action``'s key on the keypad (``open``, ``deal``, ``floor`` ...):
    the dealer's console is never on the players' touch surface."""
    from etg.ui.dealer import CONSOLE

    key = next(k.keys[0] for k in CONSOLE if k.tag == action)
    app.table.deliver(wait=True)  # the dealer acts on what the table shows
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=key, unicode="", mod=0))
    settle_pin(app)


def type_keys(app: App, keys: str) -> None:
    """Type on the keyboard; a PIN sent with Enter is waited for (it is checked off the frame)."""
    for char in keys:
        key = pygame.key.key_code(char) if char not in "\r\n" else pygame.K_RETURN
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char, mod=0))
        settle_pin(app)


def settle_pin(app: App) -> None:
    """Wait for a PIN pad's check in flight and let the pad act on the answer."""
    from etg.ui.pinpad import PinPad

    for scene in list(app.stack):
        if isinstance(scene, PinPad) and scene.checking is not None:
            scene.checking.result(timeout=30)
            scene.update(app.now)


def not_blank(surface: pygame.Surface) -> bool:
    """More than a handful of distinct colours: something was drawn, not a flat fill."""
    small = pygame.transform.scale(surface, (LOGICAL[0] // 8, LOGICAL[1] // 8))
    colours = {small.get_at((x, y))[:3] for x in range(0, small.get_width(), 3)
               for y in range(0, small.get_height(), 3)}
    return len(colours) > 50


def _screen(app: App, x: float, y: float) -> tuple[int, int]:
    sx, sy = app.viewport.to_screen(x, y)
    return round(sx), round(sy)


def war_and_the_wheel(app: App) -> None:
    """A new shoe on which spots 3 and 5 tie the dealer's red Ace: War and the Bonus Spin."""
    def slot(code: str, deck: int = 0) -> int:
        return deck * 52 + Card.parse(code).index

    spots = ["2C", "KS", "AD", "9H", "AC", "5D", "QC"]
    order = [slot("2D", 1), *(slot(code) for code in spots), slot("AH"),
             slot("3C"), slot("4C"), slot("6C"), slot("KD", 1), slot("AS", 1), slot("AS", 2)]
    shoe = app.table.state.paytable.shoe
    order += [s for s in range(shoe.decks * 52) if s not in set(order)]
    app.table.send(Shuffle(ShoeDraw(tuple(order), shoe.cut_window()[1]),
                           ShuffleReason.NEW_SHOE))
