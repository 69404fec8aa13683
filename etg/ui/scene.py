"""Scenes: the table, its overlays and the operator's screens, stacked (after Tuxemon).

A scene is one screen or overlay with a small lifecycle: :meth:`Scene.enter`
when it is pushed, :meth:`Scene.exit` when it leaves, :meth:`Scene.handle`
for each input, :meth:`Scene.update` and :meth:`Scene.draw` every frame.
The App keeps the stack: the top scene gets the touches; keys go down the
stack until a scene uses one; every scene from the topmost opaque one upward
is drawn, so an overlay (a PIN pad, the help screen, a celebration) sits over
the table it belongs to.

A scene never imports the App or another scene. It talks to the kiosk
through its :class:`~etg.ui.context.Context`: commands go to the controller
(``ctx.send``), and a wish to show another screen is a navigation message
(``ctx.go(OpenHelp())``, below) that the App turns into a scene.
``draw`` never changes anything, and the same ``now`` always draws the same
picture.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame

from etg.config.cabinet import Cabinet
from etg.core.commands import Actor, Command
from etg.core.events import Event
from etg.core.state import TableState
from etg.table.pin import Credential, PinRole
from etg.ui.canvas import Rect
from etg.ui.input import Touch
from etg.ui.options import RunOptions
from etg.ui.widgets import Button

FPS = 60
FRAME_S = 1 / FPS
"""The kiosk's frame: a scene working ahead between frames makes what the next one, this
much later, will show."""

if TYPE_CHECKING:
    from etg.config.loader import LoadedPaytable
    from etg.table.controller import Table
    from etg.table.timekeeper import Timekeeper
    from etg.ui.audio import Audio
    from etg.ui.overdraw import CanvasNotes


# --- what a scene is given: input ---------------------------------------------------------

@dataclass(frozen=True)
class Tap:
    """A pointer went down and came up on ``button`` (one the scene listed in ``buttons``)."""

    button: Button
    touch: Touch


@dataclass(frozen=True)
class KeyPress:
    """A key went down: pygame's key code and the text it types."""

    key: int
    unicode: str = ""


@dataclass(frozen=True)
class Touched:
    """Any step of any pointer on the top scene, whatever it lands on (attract, long presses)."""

    touch: Touch


Input = Tap | KeyPress | Touched


# --- what a scene may ask for: another screen (etg.ui.routes builds it) ------------------

@dataclass(frozen=True)
class OpenHelp:
    """The players' help and paytable pages, generated from the active paytable."""


@dataclass(frozen=True)
class OpenAttract:
    """Attract mode: the idle table's show, until a touch."""


@dataclass(frozen=True)
class OpenOperatorMenu:
    """The operator menu; the App asks for the operator's PIN first (SPEC §6)."""


@dataclass(frozen=True)
class OpenDealerPanel:
    """The dealer's panel on the players' screen (a cabinet without a dealer display): only
    for a dealer signed in (SPEC §6)."""


@dataclass(frozen=True)
class AskPin:
    """A PIN pad for ``credential``; ``then(who)`` with whose PIN was entered."""

    credential: Credential
    title: str
    then: Callable[[str], None]

    @classmethod
    def role(cls, role: PinRole, title: str, then: Callable[[], None]) -> AskPin:
        """A pad for one role's PIN; ``then()`` once it is entered."""
        return cls(Credential.of(role), title, lambda _who: then())


@dataclass(frozen=True)
class AskNumber:
    """A keypad for a number not checked against a hash (a badge, a new PIN); ``then(text)``
    with ``prefix + digits`` once ``problem`` (if any) accepts it."""

    title: str
    then: Callable[[str], None]
    prefix: str = ""
    most: int = 8
    masked: bool = False
    problem: Callable[[str], str | None] | None = None
    hint: str = ""


@dataclass(frozen=True)
class Close:
    """Take ``scene`` off the stack (the table at its bottom never leaves)."""

    scene: Scene


@dataclass(frozen=True)
class Show:
    """Push a scene already built: for :mod:`etg.ui.routes` only (a PIN-gated screen, once the
    PIN is in), since no scene can build another."""

    scene: Scene


@dataclass(frozen=True)
class Quit:
    """End the kiosk (the operator's shutdown)."""


Nav = (OpenHelp | OpenAttract | OpenOperatorMenu | OpenDealerPanel | AskPin | AskNumber | Close
       | Show | Quit)


# --- what a scene may use of the kiosk -------------------------------------------------------

class Context(Protocol):
    """The kiosk as a scene sees it."""

    table: Table
    """The controller: the committed state (``committed``), refusals as a dry run, and the
    commands a scene may send. Its ledger is not the screen's business."""

    cabinet: Cabinet
    cabinet_file: Path
    options: RunOptions
    audio: Audio
    timekeeper: Timekeeper
    last_activity: float
    """App time of the last touch, key or command (attract mode waits for quiet)."""

    @property
    def now(self) -> float:
        """App time in seconds: the clock every animation and countdown reads."""
        ...

    def send(self, command: Command, actor: Actor | str, quiet: bool = False) -> str | None:
        """Send ``command`` through the controller: None if accepted, else the refusal."""
        ...

    def notify(self, message: str, error: bool = True) -> None:
        """A message on the status banner for a few seconds."""
        ...

    def go(self, message: Nav) -> None:
        """Another screen: open, ask for a PIN or a number, close, quit (:mod:`etg.ui.scene`)."""
        ...

    def pressed_tags(self, scene: Scene) -> set[str]:
        """Tags of ``scene``'s buttons held down right now (drawn sunk)."""
        ...

    def is_top(self, scene: Scene) -> bool:
        """``scene`` is the one on top of the stack (it gets the touches)."""
        ...

    @property
    def canvas_notes(self) -> CanvasNotes:
        """What each of the players' canvases holds (:mod:`etg.ui.overdraw`)."""
        ...

    def switch_paytable(self, loaded: LoadedPaytable, operator: str) -> str | None:
        """Switch the table to ``loaded`` (between rounds, no credits): None, or the refusal."""
        ...


# --- the scene ---------------------------------------------------------------------------------

class Scene:
    """One screen or overlay. Subclasses override what they need."""

    opaque = True
    """Covers the whole canvas: the scenes below it need not be drawn."""

    name = "scene"
    """Short name for screenshots and the event log."""

    holds_the_clock = False
    """While this scene is on the stack the table's countdowns stand still (the operator
    menu: the players cannot act while the attendant works the screen)."""

    area: Rect | None = None
    """Where the scene takes touches, in logical pixels; None: everywhere. A touch outside
    it goes to the scene below (an overlay panel leaves the rest of the table to players)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def enter(self) -> None:
        """Pushed onto the stack."""

    def exit(self) -> None:
        """Taken off the stack (closed, or replaced)."""

    def handle(self, event: Input) -> bool:
        """A tap, key or touch; True if the scene used it (a key then goes no further)."""
        return False

    def update(self, now: float) -> None:
        """Advance time-based state (timers that end in a command, animation queues)."""

    def draw(self, surface: pygame.Surface, now: float) -> None:
        """Draw on the 1920×1080 logical canvas; must not change any state."""

    def buttons(self, now: float) -> Sequence[Button]:
        """The touch targets as drawn now, in drawing order (the last one is on top)."""
        return ()

    def table_changed(self, state: TableState, events: Sequence[Event]) -> None:
        """The controller committed ``events``; ``state`` is the table after them."""

    def settled(self, now: float) -> bool:
        """Nothing is moving: the screen shows the state as it is (for pacing and screenshots)."""
        return True

    def idle(self, until: float) -> None:
        """The frame is shown and time is left before the next: work ahead (render what
        later frames will blit) while ``time.perf_counter()`` stays safely before `until`."""
