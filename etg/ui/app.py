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

import gc
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from etg import stop
from etg.config.cabinet import Cabinet
from etg.config.loader import LoadedPaytable, load_cabinet
from etg.core.commands import Actor, Command, Settle
from etg.core.events import Event, RoundComplete, RoundVoided
from etg.core.flow import DealerAction, dealer_next
from etg.core.refusal import Refused
from etg.core.state import TableState
from etg.table.controller import STORAGE_FAULTS, Table, TableTilted
from etg.table.linked import LinkedTable
from etg.table.timekeeper import Timekeeper
from etg.ui import heap, routes
from etg.ui.audio import Audio
from etg.ui.canvas import Viewport
from etg.ui.dealer_console import DealerWindow
from etg.ui.demo import demo_actor, demo_beat
from etg.ui.display import Shots
from etg.ui.input import InputAdapter, Touch
from etg.ui.options import RunOptions
from etg.ui.overdraw import CanvasNotes
from etg.ui.scene import FPS, FRAME_S, Close, Context, KeyPress, Nav, Quit, Scene, Show, Touched
from etg.ui.screen import Screen
from etg.ui.toasts import Toast, draw_toasts, with_toast

if TYPE_CHECKING:
    from etg.ui.demo import DemoDirector
from etg.ui.words import players_words

log = logging.getLogger("etg.kiosk")

SETTLE_PAUSE_S = 0.6  # the deal stays on screen this long before the dealer settles it


class App:
    """The running kiosk: one table, one window, a stack of scenes."""

    def __init__(self, table: Table, cabinet: Cabinet, cabinet_file: Path, options: RunOptions,
                 window: pygame.Surface,
                 base: Callable[[Context], Scene] | None = None,
                 director: DemoDirector | None = None, audio: Audio | None = None) -> None:
        heap.settle()  # large pictures go back to the system when dropped (etg.ui.heap)
        self.table = table
        self.cabinet = cabinet
        self.cabinet_file = cabinet_file
        self.options = options
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
        self.screen = Screen(window, pygame.display.get_surface,
                             None if options.headless else pygame.display.flip)
        # The dealer's own screen on the cabinet's second display, if it has one (SPEC §6).
        self.dealer = DealerWindow.open(self, cabinet, options)
        self._settle_at: float | None = None
        self.stack: list[Scene] = []
        self.file_check = table.start_file_check()  # the whole-file check, beside play
        # Commits run on the ledger's writer thread: a frame never waits for the disk.
        table.start_writer()
        # SPEC §13: a linked cabinet's link to the floor's controller, on threads of its own;
        # each frame sends what it answered (its meters, a hit's amount, the link's state).
        self.link: LinkedTable | None = None
        if cabinet.link is not None:
            self.link = LinkedTable(table, cabinet.link, send=table.submit)
            self.link.start()
        # Headless, the App's clock is not real time: each frame waits for the commits sent
        # before it and in it, so what is drawn never depends on the disk's speed.
        self.wait_for_commits = options.headless
        table.listeners.append(self._table_changed)
        self.push((base or routes.table_scene)(self))

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

    def switch_paytable(self, loaded: LoadedPaytable, operator: str) -> str | None:
        """Switch the table to ``loaded``; None if done, else the reason it was refused.

        The engine allows it only between rounds with no credits on any seat.
        The cabinet file then names the new paytable, so a restart plays it. A
        paytable with a wager the kiosk would not start on (returning 100 % or
        more, or outside the cabinet's ``return_band``) is refused first.
        """
        from etg.math.returns import return_violations
        from etg.table.switch import switch_paytable

        band = None if self.cabinet.return_band is None else self.cabinet.return_band.shares()
        unplayable = return_violations(loaded.paytable, band)
        if unplayable:
            message = f"{loaded.path.name}: {unplayable[0].message}"
            self.notify(message)
            return message
        try:
            switch_paytable(self.table, loaded, operator, self.cabinet_file)
        except (Refused, TableTilted) as refusal:
            message = refusal.message if isinstance(refusal, Refused) else str(refusal)
            self.notify(message)
            return message
        self.cabinet = load_cabinet(self.cabinet_file)
        self.replace_base(routes.table_scene(self))
        self.notify(f"NOW PLAYING {loaded.paytable.name}", error=False)
        return None

    def notify(self, message: str, error: bool = True) -> None:
        """Show a message on the status banner for a few seconds."""
        self.toasts = with_toast(self.toasts, message, self.now, error)

    def go(self, message: Nav) -> None:
        """A scene's navigation message: close, quit, or the scene the routes build for it."""
        if isinstance(message, Close):
            self.pop(message.scene)
        elif isinstance(message, Quit):
            self.quit_requested = True
        elif isinstance(message, Show):
            self.push(message.scene)
        else:
            scene = routes.scene_for(self, message)
            if scene is not None:
                self.push(scene)

    def is_top(self, scene: Scene) -> bool:
        return self.stack[-1] is scene

    def push(self, scene: Scene) -> None:
        self.screen.release()
        self.stack.append(scene)
        scene.enter()

    def pop(self, scene: Scene) -> None:
        if scene in self.stack[1:]:
            self.screen.release()
            self.stack.remove(scene)
            scene.exit()

    @property
    def top(self) -> Scene:
        return self.stack[-1]

    @property
    def base(self) -> Scene:
        return self.stack[0]

    def replace_base(self, scene: Scene) -> None:
        """A new table scene, e.g. after a paytable switch changed the layout."""
        old, self.stack[0] = self.stack[0], scene
        old.exit()
        scene.enter()

    # --- the loop -----------------------------------------------------------------------------

    def run(self) -> None:
        """Frames until quit (window closed, operator shutdown, or --rounds reached)."""
        self.ready()
        try:
            self._run()
        finally:  # nothing may still be scaling onto a window when the display closes
            if self.link is not None:
                self.link.close()
            self.screen.close()
            if self.dealer is not None:
                self.dealer.screen.close()

    def _run(self) -> None:
        """The frame loop: a frame, then the work ahead in the rest of its time."""
        clock = pygame.time.Clock()
        while not self.quit_requested:
            if stop.requested():  # SIGTERM: systemd's stop, as closing the window (etg.stop)
                log.info("SIGTERM: shutting down")
                break
            if self.options.headless:
                dt = FRAME_S
                draw = self.frames % 30 == 0 or self.options.frames is not None
            else:
                dt = min(clock.tick(FPS) / 1000, 0.1)
                draw = True
            started = time.perf_counter()
            try:
                self.frame(dt, draw)
                self.idle(started + FRAME_S)
            except STORAGE_FAULTS as fault:
                self._storage_fault(fault)
                if self.frames == self.options.frames or self._stranded():
                    self.quit_requested = True

    def idle(self, until: float) -> None:
        """Between frames: the scenes work ahead while time is left before `until` (a
        ``time.perf_counter()`` deadline, the next frame's start), then the table re-verifies
        its ledger's history in what is left (:meth:`etg.table.controller.Table.idle`)."""
        for scene in self.stack:
            scene.idle(until)
        self.table.idle(until)  # then the ledger's background re-verification, if at rest

    def ready(self) -> None:
        """Start-up is over: the table is drawn once, unseen, and what was built so far
        lives as long as the App.

        That first drawing makes every panel of the table's layer, the fonts, the words and
        the card back the table shows first: some fifty milliseconds, made here rather than
        in the first frame players watch (on a scaled display the frame after it then also
        waited for its scaling). What was built is then moved out of the collector's sight,
        so a full collection in the middle of a spin cannot cost a frame.
        """
        try:
            for scene in self.stack:
                scene.update(self.now)
            self.draw()
        except STORAGE_FAULTS as fault:  # as in a frame: the table tilts, the loop runs on
            self._storage_fault(fault)
        gc.collect()
        gc.freeze()

    def _storage_fault(self, fault: BaseException) -> None:
        """A read the ledger could not serve, in a frame or the drawing before the first: a
        tilt (the first one stands), never a crash."""
        if self.table.tilt is None:
            self.table.fault(fault)

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
        if self._finished() or self.frames == self.options.frames or self._stranded():
            self.quit_requested = True

    def _stranded(self) -> bool:
        """A headless table that tilted: nobody can see it to acknowledge it, so it stops
        (``etg run`` then prints the tilt and exits 2) instead of waiting for ever."""
        return self.options.headless and self.table.tilted

    def _frame(self, draw: bool) -> None:
        """The frame proper: input, clock, updates, drawing, screenshot, the demo's move."""
        # The last frame shown, its scaling finished: SDL may free a window's pixels while
        # it handles the window's events (etg.ui.screen).
        self.screen.close()
        if self.dealer is not None:
            self.dealer.screen.close()
        for event in pygame.event.get():
            self.handle(event)
        if self.link is not None:
            self.link.pump()
        self._clock()
        for scene in list(self.stack):
            scene.update(self.now)
        if self.dealer is not None:
            self.dealer.scene.update(self.now)
        shot = self._shot_due()
        if draw or shot:
            self.draw()
            if shot and self.shots is not None:
                self.shots.save(self.canvas, shot)
            self.screen.present()
            if self.dealer is not None:
                self.dealer.show(self.now)
        # The demo moves on only after the screen has shown (and saved) where it is.
        self._demo()

    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event: window changes, keys, and pointers as touches.

        Keys reach the table's stack whichever window has the focus (the dealer's
        keypad works on both); pointers go to the screen they are on.
        """
        on_dealer = self.dealer is not None and self.dealer.owns(event)
        if event.type == pygame.QUIT:
            self.quit_requested = True
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            (self.dealer.screen if self.dealer is not None and on_dealer
             else self.screen).resized()
            return
        if event.type == pygame.KEYDOWN:
            self.last_activity = self.now
            if (event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL
                    and (self.options.windowed or self.options.headless)):
                self.quit_requested = True
                return
            press = KeyPress(event.key, event.unicode)
            for scene in reversed(self.stack):
                if scene.handle(press):
                    return
            return
        if self.dealer is not None and on_dealer:
            for touch in self.dealer.screen.touches(event):
                self.last_activity = self.now
                self.dealer.scene.handle(Touched(touch))  # a dimmed key touched says why
                self.dealer.screen.touch(touch, [self.dealer.scene], self.now)
            return
        for touch in self.screen.touches(event):
            self.touch(touch)

    def touch(self, touch: Touch) -> None:
        """A logical touch on the players' screen: the scene it lands on sees it; DOWN picks
        a button, UP on the same button taps it."""
        self.last_activity = self.now
        self.top.handle(Touched(touch))
        self.screen.touch(touch, self.stack, self.now)

    def pressed_tags(self, scene: Scene) -> set[str]:
        """Tags of the buttons held down on ``scene`` right now (drawn sunk)."""
        if self.dealer is not None and scene is self.dealer.scene:
            return self.dealer.screen.pressed_tags(scene)
        return self.screen.pressed_tags(scene)

    # The players' screen, as tests and benchmarks look at it.

    @property
    def canvas(self) -> pygame.Surface:
        return self.screen.canvas

    @property
    def canvas_notes(self) -> CanvasNotes:
        return self.screen.notes

    @property
    def window(self) -> pygame.Surface:
        return self.screen.window

    @property
    def viewport(self) -> Viewport:
        return self.screen.viewport

    @property
    def input(self) -> InputAdapter:
        return self.screen.input

    def draw(self) -> None:
        """Draw the visible scenes and the banner onto the logical canvas."""
        start = 0
        for index, scene in enumerate(self.stack):
            if scene.opaque:
                start = index
        canvas = self.screen.begin()
        drawn = self.stack[start:]
        for scene in drawn:
            scene.draw(canvas, self.now)
        self.toasts = draw_toasts(canvas, self.toasts, self.now)
        if len(drawn) > 1 or self.toasts:  # not one scene's picture alone (etg.ui.overdraw)
            self.screen.notes.spoil(canvas)

    @property
    def settled(self) -> bool:
        """Nothing on its way to the screen: every command delivered, every scene at rest."""
        return not self.table.in_flight and all(scene.settled(self.now) for scene in self.stack)

    # --- helpers ------------------------------------------------------------------------------

    def _table_changed(self, state: TableState, events: Sequence[Event]) -> None:
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
            if self.send(command, demo_actor(command), quiet=True) is not None:
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
