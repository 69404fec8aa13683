"""Scenes: the table, its overlays and the operator's screens, stacked (after Tuxemon).

The App keeps a stack; the top scene gets the touches and keys, and every
scene from the topmost opaque one upward is drawn, so an overlay (a PIN pad,
the help screen, a celebration) sits over the table it belongs to. A scene
draws and sends commands through the App, nothing more: ``draw`` never
changes anything, and the same ``now`` always draws the same picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from etg.core.events import Event
from etg.core.state import TableState
from etg.ui.input import Touch
from etg.ui.widgets import Button

if TYPE_CHECKING:
    from etg.ui.app import App


class Scene:
    """One screen or overlay. Subclasses override what they need."""

    opaque = True
    """Covers the whole canvas: the scenes below it need not be drawn."""

    name = "scene"
    """Short name for screenshots and the event log."""

    holds_the_clock = False
    """While this scene is on the stack the table's countdowns stand still (the operator
    menu: the players cannot act while the attendant works the screen)."""

    def __init__(self, app: App) -> None:
        self.app = app

    def update(self, now: float) -> None:
        """Advance time-based state (timers that end in a command, animation queues)."""

    def draw(self, surface: pygame.Surface, now: float) -> None:
        """Draw on the 1920×1080 logical canvas; must not change any state."""

    def buttons(self, now: float) -> Sequence[Button]:
        """The touch targets as drawn now, in drawing order (the last one is on top)."""
        return ()

    def tap(self, button: Button, touch: Touch) -> None:
        """A pointer went down and came up on ``button``."""

    def touched(self, touch: Touch) -> None:
        """Any touch at all (for scenes such as attract that any touch dismisses)."""

    def key(self, key: int, unicode: str) -> bool:
        """A key press; True if this scene used it."""
        return False

    def table_changed(self, state: TableState, events: list[Event]) -> None:
        """The controller committed ``events``; ``state`` is the table after them."""

    def settled(self, now: float) -> bool:
        """Nothing is moving: the screen shows the state as it is (for pacing and screenshots)."""
        return True
