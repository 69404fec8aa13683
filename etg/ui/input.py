"""Mouse and multi-touch, normalised into one stream of logical touches (SPEC §6).

A large table screen is touched by several players at once, so every finger
is its own pointer and acts for its own seat; the mouse is one more pointer,
for development and for the dealer console. Downstream code sees only
:class:`Touch` values in logical canvas pixels and never asks which device
produced them.

A tap must never count twice. SDL turns a touch into a finger event *and* a
synthetic mouse event (pygame-ce marks the latter ``touch=True``); the finger
is the one kept. The reverse also exists (SDL_HINT_MOUSE_TOUCH_EVENTS makes
fingers out of mouse clicks, with ``touch_id`` SDL_MOUSE_TOUCHID = -1); those
fingers are dropped, the real mouse event is kept.

This is plumbing only: it says where a pointer went down, moved and came up,
and which target it landed on. What that means for a wager is the engine's
business.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import pygame

from etg.ui.canvas import Rect, Viewport

MOUSE = "mouse"
"""Pointer name of the mouse (left button)."""

MIN_TARGET = 48
"""Smallest touch target, in logical pixels on each side (SPEC §6)."""

SDL_MOUSE_TOUCHID = -1
"""``touch_id`` SDL gives to fingers it synthesises from the mouse."""

_LEFT_BUTTON = 1


class Phase(enum.Enum):
    """Where a pointer is in its press: going down, dragging, or lifting."""

    DOWN = "down"
    MOVE = "move"
    UP = "up"


@dataclass(frozen=True)
class Touch:
    """One step of one pointer, in logical canvas pixels.

    ``pointer`` is ``"mouse"`` or ``"finger:<touch_id>:<finger_id>"``: stable
    for the whole press, so a DOWN and its UP can be paired even while other
    fingers come and go.
    """

    pointer: str
    phase: Phase
    x: float
    y: float


def finger_pointer(touch_id: int, finger_id: int) -> str:
    """Pointer name for a finger, device included: finger ids restart on each touch device."""
    return f"finger:{touch_id}:{finger_id}"


class InputAdapter:
    """Turns pygame mouse and finger events into :class:`Touch` values.

    Feed it every event; it returns the touches each one produced (usually
    none or one). It remembers which pointers are down, so a pointer that
    never went down on the canvas (a press in the bars, a right click, a
    hover) produces nothing later, and one that did always gets its UP.
    """

    def __init__(self, viewport: Viewport) -> None:
        self.viewport = viewport
        """Current screen mapping; assign a new one when the window is resized."""
        self._active: dict[str, tuple[float, float]] = {}

    @property
    def active(self) -> Mapping[str, tuple[float, float]]:
        """Pointers currently down, with their last logical position (a copy)."""
        return dict(self._active)

    def feed(self, event: pygame.event.Event) -> list[Touch]:
        """The touches produced by one pygame event; an empty list for anything else."""
        kind = event.type
        if kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            if getattr(event, "touch", False):
                return []  # the finger event for the same contact is handled instead
            return self._mouse(event)
        if kind in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
            if event.touch_id == SDL_MOUSE_TOUCHID:
                return []  # the real mouse event for the same click is handled instead
            return self._finger(event)
        if kind == pygame.WINDOWFOCUSLOST:
            # The UPs may go to another window now; release rather than leave a seat pressed.
            return self.release_all()
        return []

    def release_all(self) -> list[Touch]:
        """Lift every pointer at its last position, e.g. when the screen or focus changes."""
        touches = [Touch(p, Phase.UP, x, y) for p, (x, y) in self._active.items()]
        self._active.clear()
        return touches

    def _mouse(self, event: pygame.event.Event) -> list[Touch]:
        px, py = event.pos
        if event.type == pygame.MOUSEMOTION:
            if MOUSE not in self._active:
                return []  # hovering, or dragging from a press that was never ours
            buttons = getattr(event, "buttons", None)
            if buttons is not None and not buttons[0]:
                return self._up(MOUSE, px, py)  # its UP was lost outside the window
            return self._move(MOUSE, px, py)
        if event.button != _LEFT_BUTTON:
            return []
        if event.type == pygame.MOUSEBUTTONDOWN:
            return self._down(MOUSE, px, py)
        return self._up(MOUSE, px, py)

    def _finger(self, event: pygame.event.Event) -> list[Touch]:
        # Finger positions are fractions of the window; the viewport works in its pixels.
        pointer = finger_pointer(event.touch_id, event.finger_id)
        px = event.x * self.viewport.screen_w
        py = event.y * self.viewport.screen_h
        if event.type == pygame.FINGERDOWN:
            return self._down(pointer, px, py)
        if event.type == pygame.FINGERMOTION:
            return self._move(pointer, px, py)
        return self._up(pointer, px, py)

    def _down(self, pointer: str, px: float, py: float) -> list[Touch]:
        at = self.viewport.to_logical(px, py)
        if at is None:
            return []  # a press on the bars touches nothing
        touches = []
        if pointer in self._active:
            # A second DOWN without an UP: close the first press so every DOWN has one UP.
            touches.append(Touch(pointer, Phase.UP, *self._active[pointer]))
        self._active[pointer] = at
        touches.append(Touch(pointer, Phase.DOWN, *at))
        return touches

    def _move(self, pointer: str, px: float, py: float) -> list[Touch]:
        if pointer not in self._active:
            return []
        at = self.viewport.to_logical_clamped(px, py)
        self._active[pointer] = at
        return [Touch(pointer, Phase.MOVE, *at)]

    def _up(self, pointer: str, px: float, py: float) -> list[Touch]:
        if pointer not in self._active:
            return []
        del self._active[pointer]
        return [Touch(pointer, Phase.UP, *self.viewport.to_logical_clamped(px, py))]


@dataclass(frozen=True)
class HitTarget:
    """Something that can be touched: its drawn rectangle, in logical pixels.

    Fingers are blunt. A target drawn smaller than ``min_size`` still
    answers over a ``min_size`` square (per axis) around its centre, so small
    artwork such as a chip selector stays playable; ``tag`` names the target
    for whoever acts on the hit.
    """

    rect: Rect
    min_size: float = MIN_TARGET
    tag: str = ""

    def __post_init__(self) -> None:
        if self.min_size < MIN_TARGET:
            raise ValueError(f"touch targets are at least {MIN_TARGET} logical px, "
                             f"got min_size={self.min_size}")
        if self.rect[2] < 0 or self.rect[3] < 0:
            raise ValueError(f"rectangle has a negative size: {self.rect}")

    def expanded_rect(self) -> Rect:
        """The area that answers a touch: the drawn rect, grown about its centre to min_size."""
        left, top, width, height = self.rect
        grow_w = max(self.min_size - width, 0.0) / 2
        grow_h = max(self.min_size - height, 0.0) / 2
        return left - grow_w, top - grow_h, width + 2 * grow_w, height + 2 * grow_h

    def contains(self, x: float, y: float) -> bool:
        """Whether the logical point is on the drawn rectangle itself (edges included)."""
        return _inside(self.rect, x, y)

    def hit(self, touch: Touch) -> bool:
        """Whether the touch lands on the target's answering area (edges included)."""
        return _inside(self.expanded_rect(), touch.x, touch.y)


def _inside(rect: Rect, x: float, y: float) -> bool:
    # Closed on every side: touches are continuous, and a point exactly on an edge is on it.
    left, top, width, height = rect
    return left <= x <= left + width and top <= y <= top + height


T = TypeVar("T", bound=HitTarget)


def hit_test(targets: Sequence[T], touch: Touch) -> T | None:
    """The topmost target whose answering area holds the touch; ``targets`` in drawing order.

    The last target drawn is the one on top, so it is the one the player sees
    and the one that answers. The enlarged margin of a small target is
    invisible, so layouts keep it clear of other targets; otherwise a finger
    on the edge of a visible button could go to its smaller neighbour on top.
    """
    for target in reversed(targets):
        if target.hit(touch):
            return target
    return None
