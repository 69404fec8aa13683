"""One display the kiosk draws on: its logical canvas, its scaling, its pointers.

The players' table is one screen; a cabinet with a dealer display has a
second (:mod:`etg.ui.dealer_console`). Each is designed on the 1920×1080
logical canvas (:mod:`etg.ui.canvas`), scaled to its window with bars where
the shape differs, and has its own pointers: a press is paired with its
release on the screen it began on.

Scaling keeps text crisp (SPEC §6: "smooth scaling"): a screen of the
canvas's size is drawn on directly; a whole multiple of it (3840×2160) is a
pixel-exact enlargement; anything else is filtered (``smoothscale``), never
nearest-neighbour, which drops whole rows of a letter at 1280×800.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from etg.ui import theme
from etg.ui.canvas import LOGICAL, Viewport
from etg.ui.input import InputAdapter, Phase, Touch
from etg.ui.scene import Scene, Tap
from etg.ui.widgets import button_at


@dataclass
class Press:
    """A pointer that went down on a scene's button: the tap lands if it comes up on it."""

    scene: Scene
    tag: str


class Screen:
    """A window's surface seen as the logical canvas, and the touches on it."""

    def __init__(self, window: pygame.Surface, surface: Callable[[], pygame.Surface | None],
                 flip: Callable[[], None] | None) -> None:
        """``window``: the window's surface; ``surface`` gives it again after a resize;
        ``flip`` shows what was drawn (None: headless, nobody to show it to)."""
        self._surface = surface
        self._flip = flip
        self.window = window
        self.viewport = Viewport(*window.get_size())
        self.input = InputAdapter(self.viewport)
        self.canvas = _canvas_for(window)
        self.presses: dict[str, Press] = {}

    def touches(self, event: pygame.event.Event) -> list[Touch]:
        """The logical touches one pygame event makes on this screen."""
        return self.input.feed(event)

    def touch(self, touch: Touch, scenes: Sequence[Scene], now: float) -> Scene | None:
        """A logical touch on ``scenes`` (bottom first): DOWN picks a button, UP on the same
        button taps it. Returns the scene the touch went to.

        The touch goes to the topmost scene whose ``area`` holds it: an overlay with an
        area of its own (the dealer panel) leaves the rest of the table to the players.
        """
        scene = _scene_at(scenes, touch)
        if scene is None:
            return None
        if touch.phase is Phase.DOWN:
            hit = button_at(scene.buttons(now), touch)
            if hit is not None and hit.enabled:
                self.presses[touch.pointer] = Press(scene, hit.tag)
            return scene
        if touch.phase is Phase.UP:
            press = self.presses.pop(touch.pointer, None)
            if press is None or press.scene not in scenes:
                return scene
            hit = button_at(press.scene.buttons(now), touch)
            if hit is not None and hit.tag == press.tag and hit.enabled:
                press.scene.handle(Tap(hit, touch))
        return scene

    def pressed_tags(self, scene: Scene) -> set[str]:
        """Tags of the buttons held down on ``scene`` right now (drawn sunk)."""
        return {p.tag for p in self.presses.values() if p.scene is scene}

    def release(self) -> None:
        """Forget every pointer (the scenes changed, or the window did)."""
        self.input.release_all()
        self.presses.clear()

    def resized(self) -> None:
        """The window changed size: a new viewport and canvas."""
        window = self._surface()
        if window is None:
            return
        self.window = window
        self.viewport = Viewport(*window.get_size())
        self.input.viewport = self.viewport
        self.canvas = _canvas_for(window)
        self.release()

    def present(self) -> None:
        """The canvas onto the window, scaled, then shown."""
        if self.canvas is not self.window:
            self.window.fill(theme.BLACK)
            x, y, w, h = self.viewport.content_rect
            scale(self.canvas, self.window.subsurface((x, y, w, h)))
        if self._flip is not None:
            self._flip()


def scale(canvas: pygame.Surface, target: pygame.Surface) -> None:
    """``canvas`` onto ``target``'s whole area, keeping text crisp (see the module's doc)."""
    w, h = target.get_size()
    cw, ch = canvas.get_size()
    if (w, h) == (cw, ch):
        target.blit(canvas, (0, 0))
    elif w % cw == 0 and h % ch == 0 and w // cw == h // ch:
        pygame.transform.scale(canvas, (w, h), target)  # whole pixels, each repeated exactly
    else:
        pygame.transform.smoothscale(canvas, (w, h), target)


def _scene_at(scenes: Sequence[Scene], touch: Touch) -> Scene | None:
    for scene in reversed(scenes):
        area = scene.area
        if area is None:
            return scene
        x, y, w, h = area
        if x <= touch.x <= x + w and y <= touch.y <= y + h:
            return scene
    return None


def _canvas_for(window: pygame.Surface) -> pygame.Surface:
    if window.get_size() == LOGICAL:
        return window  # drawn directly: no scaling cost on a 1920×1080 panel
    return pygame.Surface(LOGICAL).convert()
