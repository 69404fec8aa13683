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

Scaling costs five milliseconds at 1280×800 (eight at 3840×2160), so it runs on
a thread of its own (pygame lets go of the interpreter while it scales) while the
next frame is drawn on a second canvas (:meth:`Screen.begin`): a frame's picture
reaches the display as the next frame is presented, one frame later, and the frame
takes the longer of drawing and scaling instead of both. The thread scales into a
picture of its own, never into the window, which SDL may replace when it is resized;
the frame thread copies the finished picture into the window and shows it. Whoever
reads :attr:`Screen.window` gets the last frame's picture, finished.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

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
        self._window = window
        self.viewport = Viewport(*window.get_size())
        self.input = InputAdapter(self.viewport)
        self.canvas = _canvas_for(window)
        self._spare: pygame.Surface | None = None  # the other canvas, while one is scaled
        self._scaled: pygame.Surface | None = None  # what the scaling thread scales into
        self._scaling: _Scaling | None = None
        self._unshown = False  # a picture is in the window but not yet flipped
        self.presses: dict[str, Press] = {}

    @property
    def window(self) -> pygame.Surface:
        """The window's surface, with the last frame's picture scaled onto it in full."""
        self._land()
        return self._window

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
        if self._scaling is not None:  # its picture was for the old size: dropped
            job, self._scaling = self._scaling, None
            job.finish()
        self._unshown = False
        window = self._surface()
        if window is None:
            return
        self._window = window
        self.viewport = Viewport(*window.get_size())
        self.input.viewport = self.viewport
        self.canvas = _canvas_for(window)
        self._spare = self._scaled = None
        self.release()

    def begin(self) -> pygame.Surface:
        """The canvas to draw the next frame on: the last one, or the other while the last
        one is still being scaled. Every frame is drawn in full, so either will do."""
        if self._scaling is not None and not self._scaling.done.is_set():
            if self._spare is None:
                self._spare = pygame.Surface(LOGICAL).convert()
            self.canvas, self._spare = self._spare, self.canvas
        return self.canvas

    def present(self) -> None:
        """Show the last frame's scaled picture and set this one's scaling going (on a
        thread, while the next frame is drawn); a canvas of the window's size is the
        window, shown at once."""
        if self.canvas is self._window:
            if self._flip is not None:
                self._flip()
            return
        self.close()
        _, _, w, h = self.viewport.content_rect
        if self._scaled is None or self._scaled.get_size() != (w, h):
            self._scaled = pygame.Surface((w, h)).convert()
        self._scaling = _Scaling(self.canvas, self._scaled)
        self._scaling.start()

    def close(self) -> None:
        """The last frame's scaling finished and shown: nothing is left on its way to the
        window (before the display closes, and before the next frame is shown)."""
        self._land()
        if self._unshown:
            self._unshown = False
            if self._flip is not None:
                self._flip()

    def _land(self) -> None:
        """The scaling under way finished and its picture copied into the window (on the
        frame's thread), with black bars where the window's shape differs."""
        job, self._scaling = self._scaling, None
        if job is None:
            return
        job.finish()
        self._window.fill(theme.BLACK)
        x, y, _, _ = self.viewport.content_rect
        self._window.blit(job.target, (x, y))
        self._unshown = True


@dataclass
class _Scaling:
    """One frame's canvas scaled into `target` (the window's content size) on a thread."""

    canvas: pygame.Surface
    target: pygame.Surface
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    def start(self) -> None:
        threading.Thread(target=self._run, name="etg-scale", daemon=True).start()

    def _run(self) -> None:
        try:
            scale(self.canvas, self.target)
        except BaseException as error:  # handed to the frame that waits for it
            self.error = error
        finally:
            self.done.set()

    def finish(self) -> None:
        """Wait for the picture; an error the scaling met is raised here, in the frame."""
        self.done.wait()
        if self.error is not None:
            error, self.error = self.error, None
            raise error


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
