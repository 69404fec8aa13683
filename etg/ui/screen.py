"""One display the kiosk draws on: its logical canvas, its scaling, its pointers.

The players' table is one screen; a cabinet with a dealer display has a
second (:mod:`etg.ui.dealer_console`). Each is designed on the 1920×1080
logical canvas (:mod:`etg.ui.canvas`), scaled to its window with bars where
the shape differs, and has its own pointers: a press is paired with its
release on the screen it began on.

A screen of the canvas's size is drawn on directly. Any other is scaled
(:mod:`etg.ui.scaling`: smooth, or whole pixels repeated) on a thread of its own,
started once and kept (:class:`_Scaler`; pygame and numpy let go of the interpreter while
they work), straight into the window, while the frame's thread works ahead and sleeps out
the frame: a frame's picture reaches the display when the next frame begins. Where the
display's size allows it (:func:`etg.ui.scaling.grid_for`) the thread scales only the
tiles that differ from the frame scaled before: a canvas stays untouched while the next
frame is compared with it, so the frames take three canvases in turn, made with the
screen. The bars are painted when the window is new.

SDL frees a window's pixels when the window changes size, and it does so while it handles
the window's events; so no scaling may be under way then: :meth:`Screen.close` finishes it
and shows its picture, and the App calls it before it reads the events
(:meth:`etg.ui.app.App.frame`). Whoever reads :attr:`Screen.window` gets the last frame's
picture, finished.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pygame

from etg.ui import theme
from etg.ui.canvas import LOGICAL, Viewport
from etg.ui.input import InputAdapter, Phase, Touch
from etg.ui.overdraw import CanvasNotes
from etg.ui.scaling import (
    Grid,
    comparison_shape,
    grid_for,
    scale,
    scale_parts,
    spans,
    tiles_to_scale,
)
from etg.ui.scene import Scene, Tap
from etg.ui.widgets import button_at

HANDOVER_S = 0.001
"""The longest the scaling thread waits for the interpreter after each step (set for the
process when a screen is first scaled; CPython's own is 5 ms). It takes the interpreter back
after every pygame or numpy call (each lets go of it while it works), half a dozen times a
frame, while the frame's thread runs Python: at 5 ms a step the scaling of a frame could
outlast the next frame, which then waits for it."""


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
        self._scaling: _Scaling | None = None
        self._unshown = False  # a picture is in (or on its way into) the window, not flipped
        self.notes = CanvasNotes()
        """What each canvas holds, as the scene that drew it noted (:mod:`etg.ui.overdraw`)."""
        self._prepare(window)
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
        self.viewport = Viewport(*window.get_size())
        self.input.viewport = self.viewport
        self._prepare(window)
        self.release()

    def _prepare(self, window: pygame.Surface) -> None:
        """Everything a frame on ``window`` draws and scales into, made now: the canvases,
        the scaled picture and the comparison's scratch, eight to thirty megabytes that
        would otherwise be made (and faulted in) by the first frames, the idle table's."""
        self._window = window
        self.notes.forget()
        self.canvas = _canvas_for(window)
        self._canvases = [self.canvas]  # three, drawn on in turn (see begin)
        self._scaled: pygame.Surface | None = None  # the window's picture area, scaled into
        self._shown: pygame.Surface | None = None  # the canvas whose picture that holds
        self._scratch: np.ndarray | None = None  # the comparison's, see scaling.changed_tiles
        if self.canvas is window:
            return
        self._canvases += [pygame.Surface(LOGICAL).convert() for _ in range(2)]
        window.fill(theme.BLACK)  # the bars, where the window's shape differs
        self._scaled = window.subsurface(self.viewport.content_rect)
        grid = grid_for(LOGICAL, self._scaled.get_size())
        if grid is not None:
            self._scratch = np.empty(comparison_shape(self.canvas, grid), np.bool_)

    def begin(self) -> pygame.Surface:
        """The canvas to draw the next frame on. Every frame is drawn in full, so any will
        do but the last one scaled (the next is compared with it) and, while a scaling is
        under way, the one it compares with."""
        if self.canvas is self._window:
            self.notes.begin(self.canvas)
            return self.canvas
        kept = [self._shown]
        job = self._scaling
        if job is not None and not job.done.is_set():
            kept.append(job.reference)
        free = [c for c in self._canvases if all(c is not k for k in kept)]
        if not free:
            free.append(pygame.Surface(LOGICAL).convert())
            self._canvases.append(free[0])
        self.canvas = free[0]
        self.notes.begin(self.canvas)
        return self.canvas

    def present(self) -> None:
        """Set this frame's scaling going (on a thread, into the window) after showing the
        last one's, if it is not shown yet; a canvas of the window's size is the window,
        shown at once."""
        if self.canvas is self._window:
            if self._flip is not None:
                self._flip()
            return
        self.close()
        assert self._scaled is not None  # made with the screen, as the canvases are
        grid = grid_for(LOGICAL, self._scaled.get_size())
        reference = self._shown if grid is not None else None
        # Where the scenes' notes say the two canvases may differ: only that is scaled again.
        within = None if reference is None else self.notes.difference(self.canvas, reference)
        self._scaling = _Scaling(self.canvas, self._scaled, reference, grid, self._scratch,
                                 within)
        self._shown = self.canvas
        self._unshown = True
        self._scaling.start()

    def close(self) -> None:
        """The last frame's scaling finished and shown: nothing writes into the window any
        more. Before SDL handles the window's events (a resize frees its pixels), before
        the display closes, and before the next frame is shown."""
        self._land()
        if self._unshown:
            self._unshown = False
            if self._flip is not None:
                self._flip()

    def _land(self) -> None:
        """The scaling under way finished: its picture is in the window, to be shown."""
        job, self._scaling = self._scaling, None
        if job is None:
            return
        try:
            job.finish()
        except BaseException:
            self._shown = None  # the picture may be half scaled: the next is scaled whole
            self._unshown = False
            raise


@dataclass
class _Scaling:
    """One frame's canvas scaled into `target` (the window's picture area) on a thread: only
    where it differs from `reference` (the canvas last scaled into `target`) when there is
    one and `grid` allows it, else whole. Where it differs is what `within` reaches when
    the canvases' notes tell, else what comparing them finds
    (:func:`etg.ui.scaling.tiles_to_scale`). The parts scaled are each band's runs of those
    tiles (few calls, each giving the thread's interpreter back:
    :func:`etg.ui.scaling.spans`); `placed`: where they are in `target`. `scratch`: see
    :func:`etg.ui.scaling.changed_tiles`."""

    canvas: pygame.Surface
    target: pygame.Surface
    reference: pygame.Surface | None
    grid: Grid | None
    scratch: np.ndarray | None = None
    within: list[pygame.Rect] | None = None  # the canvas differs from `reference` only here
    placed: list[pygame.Rect] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None

    def start(self) -> None:
        _SCALER.take(self)

    def run(self) -> None:
        try:
            if self.reference is None or self.grid is None:
                scale(self.canvas, self.target)
                self.placed = [self.target.get_rect()]
            else:
                grid = self.grid
                tiles = tiles_to_scale(self.canvas, self.reference, grid, self.within,
                                       self.scratch)
                self.placed = scale_parts(self.canvas, self.target, spans(tiles, grid), grid)
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


class _Scaler:
    """The one thread that scales every screen's frames, in the order they are handed over.

    It is started once and kept: starting a thread for each frame cost the frame its
    creation and ``Thread.start``'s wait until the new thread has run, which on a loaded
    machine is as long as the scheduler takes to give it a core (up to tens of ms at
    1280×800 in ``bench_frame``). Handing a frame over is one put on a queue, which never
    waits. A forked child (the engine's workers) has no thread yet and starts its own."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Scaling] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def take(self, job: _Scaling) -> None:
        """Scale ``job`` after those handed over before it; returns at once."""
        if sys.getswitchinterval() > HANDOVER_S:
            sys.setswitchinterval(HANDOVER_S)
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._serve, name="etg-scale",
                                                daemon=True)
                self._thread.start()
        self._jobs.put(job)

    def _serve(self) -> None:
        while True:
            self._jobs.get().run()


_SCALER = _Scaler()


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
