"""The kiosk application: window, scene stack, input, clock, demo players and screenshots.

The App owns nothing of the game: the :class:`~etg.table.Table` holds the
state and the ledger, and the App only turns touches and keys into commands
(through :meth:`App.send`, which shows a refusal's reason) and committed
events into pictures (the table's listener feeds every scene). Commits run on
the ledger's writer thread; each frame starts by handing the scenes the events
whose commits are acknowledged (:meth:`Table.deliver`), so the frame never
waits for the disk and nothing uncommitted is ever drawn. Time is the
App's ``now`` in seconds: real time in a window, a fixed 1/60 s a frame when
headless, so a headless run draws exactly what a person would have seen.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from etg.config.cabinet import Cabinet
from etg.config.loader import LoadedPaytable, load_cabinet
from etg.core.commands import Actor, Command, Settle
from etg.core.events import Event, RoundComplete, RoundVoided
from etg.core.flow import DealerAction, dealer_next
from etg.core.refusal import Refused
from etg.core.state import TableState
from etg.table.controller import STORAGE_FAULTS, Table, TableTilted
from etg.table.timekeeper import Timekeeper
from etg.ui import theme
from etg.ui.audio import Audio
from etg.ui.canvas import LOGICAL, Viewport
from etg.ui.input import InputAdapter, Phase, Touch
from etg.ui.scene import Scene

if TYPE_CHECKING:
    from etg.ui.demo import DemoDirector
from etg.ui.widgets import button_at, draw_panel, draw_text
from etg.ui.words import players_words

log = logging.getLogger("etg.kiosk")

FPS = 60
FRAME_S = 1 / FPS
TOAST_S = 3.5
SETTLE_PAUSE_S = 0.6  # the deal stays on screen this long before the dealer settles it


class NoDisplay(RuntimeError):
    """No screen to open a window on: run with --headless."""


@dataclass
class RunOptions:
    windowed: bool = False
    headless: bool = False
    demo: bool = False
    rounds: int | None = None  # stop after this many rounds are finished (None: run on)
    screenshots: Path | None = None
    config_dir: Path | None = None  # where cabinet.yaml and paytables/ live
    frames: int | None = None  # stop after this many frames (for measuring a cold start)


@dataclass
class Toast:
    message: str
    until: float
    error: bool = True


@dataclass
class _Press:
    scene: Scene
    tag: str


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


def open_window(cabinet: Cabinet, options: RunOptions) -> pygame.Surface:
    """The display surface: full screen on the cabinet's display, a window, or SDL's dummy.

    Never pygame's SCALED flag: SDL scales mouse positions for it but not
    finger positions (see etg.ui.input); the App scales the canvas itself.
    """
    if options.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        with _sdl_stderr_to_log():
            pygame.display.init()
        pygame.font.init()
        if options.headless:
            return pygame.display.set_mode(LOGICAL)
        _require_a_screen()
        display = cabinet.display
        if options.windowed or not display.fullscreen:
            return pygame.display.set_mode((display.width, display.height), pygame.RESIZABLE,
                                           display=display.index)
        window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN, display=display.index)
        pygame.mouse.set_visible(False)  # kiosk: players touch, nobody points
        return window
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


@contextlib.contextmanager
def _sdl_stderr_to_log() -> Iterator[None]:
    """What SDL's C code prints while it probes for a screen goes to the log, not the console.

    Probing for Wayland without a session prints "XDG_RUNTIME_DIR is invalid"
    straight to file descriptor 2, which would bury the one line a technician
    needs (SPEC §6). The text is kept in the log.
    """
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: nothing to keep clean
        yield
        return
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            text = caught.read().decode(errors="replace").strip()
            if text:
                log.info("SDL while opening the display: %s", text)


class App:
    """The running kiosk: one table, one window, a stack of scenes."""

    def __init__(self, table: Table, cabinet: Cabinet, cabinet_file: Path, options: RunOptions,
                 window: pygame.Surface,
                 base: Callable[[App], Scene] | None = None,
                 director: DemoDirector | None = None, audio: Audio | None = None) -> None:
        self.table = table
        self.cabinet = cabinet
        self.cabinet_file = cabinet_file
        self.options = options
        self.window = window
        self.now = 0.0
        self.frames = 0
        self.quit_requested = False
        self.rounds_finished = 0
        self.toasts: list[Toast] = []
        self.timekeeper = Timekeeper(table)
        self.director = director
        self.next_demo_at = 0.0
        self.last_activity = 0.0
        self.shots = Shots(options.screenshots) if options.screenshots else None
        # The table's sounds, made before the first frame (silent without a sound device).
        self.audio = audio if audio is not None else Audio.open(cabinet.sound)
        self.viewport = Viewport(*window.get_size())
        self.input = InputAdapter(self.viewport)
        self.canvas = self._canvas_for(window)
        self._presses: dict[str, _Press] = {}
        self._settle_at: float | None = None
        self.stack: list[Scene] = []
        self.file_check = table.start_file_check()  # the whole-file check, beside play
        # Commits run on the ledger's writer thread: a frame never waits for the disk.
        table.start_writer()
        # Headless, the App's clock is not real time: each frame waits for the commits sent
        # before it and in it, so what is drawn never depends on the disk's speed.
        self.wait_for_commits = options.headless
        table.listeners.append(self._table_changed)
        if base is None:
            from etg.ui.table_scene import TableScene

            base = TableScene
        self.stack.append(base(self))

    # --- what scenes call -------------------------------------------------------------------

    def send(self, command: Command, actor: Actor | str, quiet: bool = False) -> str | None:
        """Send a command through the controller; None if accepted, else the refusal (shown).

        Accepted means the engine took it; its events reach the scenes once its
        commit is acknowledged, at the start of a later frame (write before show).
        """
        who = actor.value if isinstance(actor, Actor) else actor
        self.last_activity = self.now
        try:
            self.table.submit(command, actor=who)
        except (Refused, TableTilted) as refusal:
            message = refusal.message if isinstance(refusal, Refused) else str(refusal)
            log.info("refused %s from %s: %s", type(command).__name__, who, message)
            if not quiet:
                self.notify(players_words(message))
            return message
        if self.wait_for_commits:  # headless: no frame to keep, so the commit is waited for
            self.table.deliver(wait=True)
        return None

    def request_cash_out(self, seat: int) -> None:
        """A player asks for an attendant to pay out the seat; logged, the menu lists it."""
        if not self.table.log("cash_out_request", "player",
                              {"seat": seat, "credits": self.table.state.credits[seat - 1]}):
            return
        self.notify(f"SEAT {seat}: CASH OUT REQUESTED  ·  AN ATTENDANT IS ON THE WAY", error=False)

    def switch_paytable(self, loaded: LoadedPaytable, operator: str) -> str | None:
        """Switch the table to ``loaded``; None if done, else the reason it was refused.

        The engine allows it only between rounds with no credits on any seat.
        The cabinet file then names the new paytable, so a restart plays it.
        """
        from etg.config.cabinet_edit import set_cabinet_value

        try:
            self.table.switch_paytable(loaded, operator)
        except (Refused, TableTilted) as refusal:
            message = refusal.message if isinstance(refusal, Refused) else str(refusal)
            self.notify(message)
            return message
        relative = os.path.relpath(loaded.path.resolve(), self.cabinet_file.parent.resolve())
        set_cabinet_value(self.cabinet_file, "active_paytable", relative)
        self.cabinet = load_cabinet(self.cabinet_file)
        from etg.ui.table_scene import TableScene

        self.replace_base(TableScene(self))
        self.notify(f"NOW PLAYING {loaded.paytable.name}", error=False)
        return None

    def notify(self, message: str, error: bool = True) -> None:
        """Show a message on the status banner for a few seconds."""
        self.toasts = [t for t in self.toasts if t.message != message][-2:]
        self.toasts.append(Toast(message, self.now + TOAST_S, error))

    def push(self, scene: Scene) -> None:
        self._release_presses()
        self.stack.append(scene)

    def pop(self, scene: Scene) -> None:
        if scene in self.stack[1:]:
            self._release_presses()
            self.stack.remove(scene)

    @property
    def top(self) -> Scene:
        return self.stack[-1]

    @property
    def base(self) -> Scene:
        return self.stack[0]

    def replace_base(self, scene: Scene) -> None:
        """A new table scene, e.g. after a paytable switch changed the layout."""
        self.stack[0] = scene

    # --- the loop -----------------------------------------------------------------------------

    def run(self) -> None:
        """Frames until quit (window closed, operator shutdown, or --rounds reached)."""
        self.ready()
        clock = pygame.time.Clock()
        while not self.quit_requested:
            if self.options.headless:
                dt = FRAME_S
                draw = self.frames % 30 == 0 or self.options.frames is not None
            else:
                dt = min(clock.tick(FPS) / 1000, 0.1)
                draw = True
            try:
                self.frame(dt, draw)
            except STORAGE_FAULTS as fault:  # a read the ledger could not serve: a tilt
                if self.table.tilt is None:
                    self.table.fault(fault)
                if self.frames == self.options.frames:
                    self.quit_requested = True

    @staticmethod
    def ready() -> None:
        """Start-up is over: what was built so far lives as long as the App.

        It is moved out of the collector's sight, so a full collection in the
        middle of a spin cannot cost a frame.
        """
        gc.collect()
        gc.freeze()

    def frame(self, dt: float, draw: bool = True) -> None:
        """One frame: committed events, input, clock, demo, scene updates, drawing, screenshot.

        The commands the frame sends are committed once it is shown: the
        writer's work then runs while the loop waits for the next frame.
        """
        self.now += dt
        self.frames += 1
        # The events of every command whose commit is acknowledged, and only those.
        self.table.deliver(wait=self.wait_for_commits)
        with self.table.writer.held_back():
            self._frame(draw)
        if self.wait_for_commits:  # as a real frame finds its commits done when the next starts
            self.table.deliver(wait=True)
        if self._finished() or self.frames == self.options.frames:
            self.quit_requested = True

    def _frame(self, draw: bool) -> None:
        """The frame proper: input, clock, updates, drawing, screenshot, the demo's move."""
        for event in pygame.event.get():
            self.handle(event)
        self._clock()
        for scene in list(self.stack):
            scene.update(self.now)
        shot = self._shot_due()
        if draw or shot:
            self.draw()
            if shot and self.shots is not None:
                self.shots.save(self.canvas, shot)
            self._present()
        # The demo moves on only after the screen has shown (and saved) where it is.
        self._demo()

    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event: window changes, keys, and pointers as touches."""
        if event.type == pygame.QUIT:
            self.quit_requested = True
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self._resized(pygame.display.get_surface())
            return
        if event.type == pygame.KEYDOWN:
            self.last_activity = self.now
            if (event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL
                    and (self.options.windowed or self.options.headless)):
                self.quit_requested = True
                return
            for scene in reversed(self.stack):
                if scene.key(event.key, event.unicode):
                    return
            return
        for touch in self.input.feed(event):
            self.touch(touch)

    def touch(self, touch: Touch) -> None:
        """A logical touch: DOWN picks a button, UP on the same button taps it."""
        self.last_activity = self.now
        scene = self.top
        scene.touched(touch)
        if touch.phase is Phase.DOWN:
            hit = button_at(scene.buttons(self.now), touch)
            if hit is not None and hit.enabled:
                self._presses[touch.pointer] = _Press(scene, hit.tag)
            return
        if touch.phase is Phase.UP:
            press = self._presses.pop(touch.pointer, None)
            if press is None or press.scene is not self.top:
                return
            hit = button_at(press.scene.buttons(self.now), touch)
            if hit is not None and hit.tag == press.tag and hit.enabled:
                press.scene.tap(hit, touch)

    def pressed_tags(self, scene: Scene) -> set[str]:
        """Tags of the buttons held down on ``scene`` right now (drawn sunk)."""
        return {p.tag for p in self._presses.values() if p.scene is scene}

    def draw(self) -> None:
        """Draw the visible scenes and the banner onto the logical canvas."""
        start = 0
        for index, scene in enumerate(self.stack):
            if scene.opaque:
                start = index
        for scene in self.stack[start:]:
            scene.draw(self.canvas, self.now)
        self._draw_toasts()

    @property
    def settled(self) -> bool:
        """Nothing on its way to the screen: every command delivered, every scene at rest."""
        return not self.table.in_flight and all(scene.settled(self.now) for scene in self.stack)

    # --- helpers ------------------------------------------------------------------------------

    def _table_changed(self, state: TableState, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, RoundComplete | RoundVoided):
                self.rounds_finished += 1
        for scene in list(self.stack):
            scene.table_changed(state, events)

    def _clock(self) -> None:
        """The timekeeper's countdowns, the dealer's settle, and the demo players' next move."""
        if self.file_check is not None and self.file_check.done():
            self.table.tilt_for(self.file_check.result())  # on this thread: it writes the tilt
            self.file_check = None
        if self.table.tilted:
            return
        if any(scene.holds_the_clock for scene in self.stack):
            self.timekeeper.hold(self.now)
        else:
            self.timekeeper.release(self.now)
        if self.timekeeper.tick(self.now) is not None:
            self.last_activity = self.now
        state = self.table.state
        if self.director is not None:
            return
        if dealer_next(state) is DealerAction.SETTLE and self.settled:
            # The dealer's settle follows the deal by itself once the cards are shown.
            if self._settle_at is None:
                self._settle_at = self.now + SETTLE_PAUSE_S
            elif self.now >= self._settle_at:
                self._settle_at = None
                self.send(Settle(), Actor.DEALER)
        else:
            self._settle_at = None

    def _demo(self) -> None:
        if (self.director is None or self.table.tilted or not self.settled
                or self.now < self.next_demo_at or self._finished()):
            return
        command = self.director.next_command(self.table.state)
        if command is not None:
            self.next_demo_at = self.now + demo_beat(command)
            if self.send(command, _demo_actor(command), quiet=True) is not None:
                self.director.refused(command)

    def _shot_due(self) -> str | None:
        if self.shots is None or not self.settled:
            return None
        name = self.top.name if len(self.stack) > 1 else (
            f"round{self.table.state.round.number:04d}-{self.table.state.phase.value}")
        return name if self.shots.want(name) else None

    def _finished(self) -> bool:
        rounds = self.options.rounds
        return rounds is not None and self.rounds_finished >= rounds and self.settled and (
            self.shots is None or self._shot_due() is None)

    def _draw_toasts(self) -> None:
        live = [t for t in self.toasts if t.until > self.now]
        self.toasts = live
        for index, toast in enumerate(reversed(live)):
            rect = pygame.Rect(0, 0, 1100, 58)
            rect.midtop = (LOGICAL[0] // 2, 70 + index * 64)
            draw_panel(self.canvas, rect, (60, 10, 14, 235) if toast.error else (10, 40, 70, 235),
                       theme.TILT if toast.error else theme.GOLD, radius=12, width=3)
            draw_text(self.canvas, toast.message, 26, theme.WHITE, rect.center,
                      max_width=rect.width - 30)

    def _present(self) -> None:
        if self.canvas is not self.window:
            self.window.fill(theme.BLACK)
            x, y, w, h = self.viewport.content_rect
            pygame.transform.scale(self.canvas, (w, h), self.window.subsurface((x, y, w, h)))
        if not self.options.headless:
            pygame.display.flip()

    def _resized(self, window: pygame.Surface | None) -> None:
        if window is None:
            return
        self.window = window
        self.viewport = Viewport(*window.get_size())
        self.input.viewport = self.viewport
        self.canvas = self._canvas_for(window)
        self._release_presses()

    def _release_presses(self) -> None:
        self.input.release_all()
        self._presses.clear()

    @staticmethod
    def _canvas_for(window: pygame.Surface) -> pygame.Surface:
        if window.get_size() == LOGICAL:
            return window  # drawn directly: no scaling cost on a 1920×1080 panel
        return pygame.Surface(LOGICAL).convert()


def demo_beat(command: Command) -> float:
    """Seconds the demo waits after ``command`` before the next one (once the screen settles)."""
    return _BEATS.get(type(command).__name__, 1.0)


_BEATS = {"PlaceWager": 0.18, "PlaceBonusSpin": 0.25, "CashIn": 0.1, "Decide": 1.0,
          "CloseBets": 0.8, "OpenBets": 0.6, "Shuffle": 1.2, "NextRound": 1.0,
          "Settle": 2.2, "Spin": 2.5, "Deal": 0.4, "WarDeal": 0.4}


def _demo_actor(command: Command) -> str:
    name = type(command).__name__
    if name in ("PlaceWager", "PlaceBonusSpin", "Decide", "ClearWagers", "RepeatWagers",
                "DoubleWagers"):
        return "demo-player"
    if name == "CashIn":
        return "demo-attendant"
    return "demo-dealer"

