"""The players' table (SPEC §6): dealer's cards, spots, wheel, meters and the seat panels.

It draws the :class:`~etg.ui.presenter.Presenter`'s view of the committed
state and turns taps into commands for the controller. Which commands are
accepted is the engine's business: a control tapped at the wrong time is
sent anyway and the engine's reason is shown on the seat.

Only what players touch is on this surface. The dealer's console is the
keypad at the dealer's place (read here, :mod:`etg.ui.dealer`), the dealer
display or the dealer panel (:mod:`etg.ui.dealer_console`); the operator
menu opens with the attendant key or a long press on a hidden corner, then
its PIN; neither has a button here.

Players bet on the felt (:mod:`etg.ui.felt`): :meth:`TableScene.hit_targets`
lists everything a finger can touch now with the command a tap sends, and
the App hit-tests exactly that list. The seats' panels are drawn by
:mod:`etg.ui.seat_panel`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from etg.core.cards import Card
from etg.core.commands import (
    Actor,
    Command,
)
from etg.core.events import (
    BetsOpened,
    DecisionMade,
    Event,
    RoundComplete,
    RoundVoided,
    WheelStopped,
)
from etg.core.paytable import Decision
from etg.core.state import Phase, TableState
from etg.core.wheel import WheelStops
from etg.ui import dealer
from etg.ui.ahead import WorkAhead
from etg.ui.audio import Cue
from etg.ui.canvas import LOGICAL
from etg.ui.cards import card_back, card_face
from etg.ui.chips import stack_ahead
from etg.ui.felt import Target, table_targets, targets_made_of
from etg.ui.flights import FLIGHT_CHIP, celebrations_ahead
from etg.ui.floor import draw_jackpot_lock
from etg.ui.input import Phase as InputPhase
from etg.ui.input import Touch
from etg.ui.layout import TableLayout
from etg.ui.overdraw import Held, Overdraw, differences
from etg.ui.panel_layer import PanelLayer
from etg.ui.presenter import LEVEL_TITLES, Presenter
from etg.ui.scene import (
    FRAME_S,
    Input,
    KeyPress,
    OpenAttract,
    OpenDealerPanel,
    OpenHelp,
    OpenOperatorMenu,
    Scene,
    Tap,
)
from etg.ui.seat_panel import seat_panels
from etg.ui.table_art import HISTORY_CARD_W, FrameView, HistoryEntry, TableArt
from etg.ui.table_background import table_background
from etg.ui.table_results import draw_recap, draw_result
from etg.ui.wheel import WheelView
from etg.ui.wheel_celebration import celebration_ahead
from etg.ui.widgets import Button, draw_button
from etg.ui.words import players_words

if TYPE_CHECKING:
    from etg.ui.scene import Context

HISTORY_LENGTH = 10
SEAT_MESSAGE_S = 3.0

ATTENDANT_CORNER = (0.0, 0.0, 72.0, 64.0)
"""The hidden corner an attendant holds to ask for the operator PIN: the top bar's left end,
where nothing else can be touched."""

ATTENDANT_HOLD_S = 3.0


class TableScene(Scene):
    """The table as players and the dealer see it."""

    name = "table"

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        state: TableState = ctx.table.state
        self.layout = TableLayout.for_paytable(state.paytable)
        bonus = state.paytable.bonus_spin
        self.wheel = (WheelView(bonus, state.paytable.seats, self.layout.wheel_radius)
                      if bonus is not None else None)
        seconds = _spin_seconds(self.wheel)
        if self.wheel is not None:
            self.wheel.rest_on(state.round.wheel)
        self.presenter = Presenter(self.layout, state, wheel_seconds=seconds, audio=ctx.audio,
                                   big_win_multiple=ctx.cabinet.sound.big_win_multiple)
        self._tick_segment: int | None = None  # the Community segment last under the pointer
        self._attendant_key = pygame.key.key_code(ctx.cabinet.attendant_key.lower())
        self._corner: tuple[str, float] | None = None  # a finger held on the hidden corner
        # The chip each seat has in hand: the only choice the screen keeps, and only for the
        # round (each round starts with the table minimum, issue 12).
        self.in_hand = {seat: self.layout.chip_values[0]
                        for seat in range(1, state.paytable.seats + 1)}
        self._targets_state: TableState | None = None
        self._table_made_of: tuple[object, ...] = ()  # what the targets read of _targets_state
        self._targets_key: tuple[object, ...] | None = None
        self._targets: list[Target] = []
        self._by_seat: dict[int, list[Target]] = {}  # the targets above, seat by seat
        self.seat_messages: dict[int, tuple[str, float]] = {}
        self.history: deque[HistoryEntry] = deque(_history(ctx.table.books.rounds(
            last=HISTORY_LENGTH)), maxlen=HISTORY_LENGTH)
        self._spun: float | None = None  # when the spin last set going started
        self._background = table_background(self.layout, state)
        self._panels = PanelLayer()  # the background with the table's panels on it, kept
        self.art = TableArt(self.layout, self.presenter, self.wheel, self.history)
        # Card faces are drawn the first time they are needed; the deck is rendered ahead
        # between frames (idle), so no frame of a deal makes one.
        widths = (self.layout.card_width, round(self.layout.dealer_card[2]), HISTORY_CARD_W)
        self.ahead = WorkAhead()
        self.ahead.add(("chips",), partial(stack_ahead, FLIGHT_CHIP))  # the first bets fly
        for width in widths:
            for index in range(52):
                self.ahead.add(("face", width), partial(card_face, Card.from_index(index), width))
            self.ahead.add(("back", width), partial(card_back, width))
        canvas = pygame.Rect((0, 0), LOGICAL)
        # The big win's pulse is kept (every round may have one); a jackpot's is made when
        # it comes: seven sizes of each title would hold tens of megabytes for a rare sight.
        self.ahead.add(("title", "BIG WIN!"), partial(celebration_ahead, canvas, "BIG WIN!"))
        for title in LEVEL_TITLES.values():
            self.ahead.add(("title", title), partial(celebration_ahead, canvas, title, False))

    # --- time and the table ---------------------------------------------------------------------

    def table_changed(self, state: TableState, events: Sequence[Event]) -> None:
        self.presenter.push(state, events)
        for event in events:
            if isinstance(event, BetsOpened):
                self.in_hand = dict.fromkeys(self.in_hand, self.layout.chip_values[0])
            if isinstance(event, DecisionMade) and event.by_default:
                words = ("SURRENDERED AT TIME-OUT" if event.decision is Decision.SURRENDER
                         else "WAR AT TIME-OUT")
                self.seat_messages[event.seat] = (words, self.ctx.now + SEAT_MESSAGE_S)
            if isinstance(event, WheelStopped) and self.wheel is not None:
                self.ahead.put_first(self.wheel.work_ahead(event.stops))
            if isinstance(event, RoundComplete | RoundVoided):
                r = state.round
                self.history.appendleft(HistoryEntry(
                    r.number, None if r.dealer_card is None else r.dealer_card.code,
                    r.dealer_war_card is not None, r.wheel is not None,
                    isinstance(event, RoundVoided)))

    def update(self, now: float) -> None:
        self.presenter.update(now)
        spin = self.presenter.spin()
        if spin is not None and self.wheel is not None and spin.start != self._spun:
            self._spun = spin.start
            self.wheel.spin_to(WheelStops(spin.community, spin.seat, spin.hot_spot), spin.start)
            self.ahead.put_first(self.wheel.work_ahead())
        self._tick(now)
        self._attendant_hold(now)
        self._maybe_attract(now)

    def settled(self, now: float) -> bool:
        return not self.presenter.busy(now)

    def idle(self, until: float) -> None:
        """Between frames: the turning wheel's next frame and its next pictures, a popping
        title's next frame, card faces ahead of the deal and the celebrations' titles, each
        only with room for it before the next frame."""
        at = self.ctx.now + FRAME_S
        if self.wheel is not None and self.wheel.spinning(at):
            self.ahead.put_first(self.wheel.frame_ahead(at))
        self.ahead.put_first(celebrations_ahead(self.presenter, pygame.Rect((0, 0), LOGICAL), at))
        self.ahead.run(until)

    def _tick(self, now: float) -> None:
        """One TICK each time a Community-ring segment passes the pointer of a spinning wheel."""
        spin = self.presenter.spin()
        if self.wheel is None or spin is None or not spin.start <= now < spin.end:
            self._tick_segment = None
            return
        segment = self.wheel.segment_under_pointer("community", now)
        if self._tick_segment is not None and segment != self._tick_segment:
            self.ctx.audio.play(Cue.TICK)
        self._tick_segment = segment

    # --- input ----------------------------------------------------------------------------------

    def hit_targets(self, now: float) -> list[Target]:
        """Everything a finger can touch now, in drawing order, with what a tap sends.

        The Context hit-tests exactly these (:meth:`buttons`), so this is the list to
        check for touch-target sizes. Rebuilt only when what they are made of changes
        (:func:`~etg.ui.felt.targets_made_of`): a committed wager changes none of it, and
        nine seats' targets take milliseconds to make.
        """
        table = self.ctx.table
        shown = table.committed  # drawn and touched: only what is committed
        if shown is not self._targets_state:
            self._targets_state, self._table_made_of = shown, targets_made_of(shown)
        key = (self._table_made_of, tuple(self.in_hand.values()), table.tilted,
               self.ctx.cabinet.tip_amounts_cents)
        if key != self._targets_key:
            self._targets_key = key
            self._targets = table_targets(self.layout, shown, self.in_hand,
                                          self.ctx.cabinet.tip_amounts_cents)
            self._by_seat = {}
            for target in self._targets:
                if target.name.startswith("seat:"):
                    self._by_seat.setdefault(int(target.name.split(":", 2)[1]), []).append(target)
        return self._targets

    def buttons(self, now: float) -> Sequence[Button]:
        return [target.button for target in self.hit_targets(now)]

    def handle(self, event: Input) -> bool:
        if isinstance(event, Tap):
            self._tap(event.button)
            return True
        if isinstance(event, KeyPress):
            return self._key(event.key)
        self._attendant_press(event.touch)
        return False

    def _tap(self, button: Button) -> None:
        parts = button.tag.split(":")
        if parts[0] == "help":
            self.ctx.go(OpenHelp())
        elif parts[0] == "seat":
            target = next((t for t in self.hit_targets(self.ctx.now) if t.name == button.tag),
                          None)
            if target is not None:
                self._seat_tap(int(parts[1]), parts[2], parts[3:], target.command)

    def _key(self, key: int) -> bool:
        """The keys of the cabinet: the dealer's keypad, help, the attendant key."""
        action = dealer.action_for_key(key)
        if action is not None:
            dealer.act(self.ctx, action)
        elif key in dealer.PANEL_KEYS:
            self.ctx.go(OpenDealerPanel())
        elif key in (pygame.K_F9, pygame.K_h):
            self.ctx.go(OpenHelp())
        elif key == self._attendant_key:
            self.ctx.go(OpenOperatorMenu())
        else:
            return False
        return True

    def _attendant_press(self, touch: Touch) -> None:
        """The hidden corner: held for :data:`ATTENDANT_HOLD_S` it asks for the operator PIN
        (SPEC §6: the operator menu never has a visible button)."""
        x, y, w, h = ATTENDANT_CORNER
        inside = x <= touch.x <= x + w and y <= touch.y <= y + h
        if touch.phase is InputPhase.DOWN and inside:
            self._corner = (touch.pointer, self.ctx.now)
        elif self._corner is not None and touch.pointer == self._corner[0] and (
                touch.phase is InputPhase.UP or not inside):
            self._corner = None

    def _attendant_hold(self, now: float) -> None:
        if self._corner is not None and now - self._corner[1] >= ATTENDANT_HOLD_S:
            self._corner = None
            self.ctx.go(OpenOperatorMenu())

    def _seat_tap(self, seat: int, what: str, args: list[str], command: Command | None) -> None:
        if what == "chip":
            self.in_hand[seat] = int(args[0])
        elif what == "cashout":
            if self.ctx.table.request_cash_out(seat):
                self.ctx.notify(f"SEAT {seat}: CASH OUT REQUESTED  ·  AN ATTENDANT IS ON THE WAY",
                                error=False)
            self.seat_messages[seat] = ("ATTENDANT CALLED", self.ctx.now + SEAT_MESSAGE_S)
        elif command is not None:  # a circle, CLEAR / REPEAT / DOUBLE, WAR / SURRENDER, TIP
            self._player(seat, command)

    def _player(self, seat: int, command: Command) -> None:
        refusal = self.ctx.send(command, Actor.PLAYER, quiet=True)
        if refusal is not None:  # the log has it in full; the seat reads the players' words
            self.seat_messages[seat] = (players_words(refusal), self.ctx.now + SEAT_MESSAGE_S)

    def _send(self, command: Command, actor: Actor) -> None:
        self.ctx.send(command, actor)

    def _maybe_attract(self, now: float) -> None:
        ctx = self.ctx
        state: TableState = ctx.table.state
        idle_for = now - ctx.last_activity
        if (ctx.is_top(self) and state.phase in (Phase.IDLE, Phase.COMPLETE)
                and not any(state.credits) and idle_for >= ctx.cabinet.attract_delay_s
                and not ctx.table.tilted and not ctx.options.demo):
            ctx.last_activity = now
            ctx.go(OpenAttract())

    # --- drawing --------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, now: float) -> None:
        shown = self.presenter.shown
        table = self.ctx.table
        tilt = table.tilt
        remaining = self.ctx.timekeeper.remaining(now)
        view = FrameView(remaining, table.state.phase, table.tilted,
                         tuple(f"{p.check}: {p.message}" for p in tilt.problems) if tilt else (),
                         self.ctx.options.demo)
        pressed = self.ctx.pressed_tags(self)
        targets = self.hit_targets(now)
        betting = table.committed.phase is Phase.BETTING and not table.tilted
        messages = {n: words for n, (words, until) in self.seat_messages.items() if until > now}
        panels, counting = seat_panels(
            self.layout, self.presenter, table.committed.pending_decisions(), now, pressed,
            self._by_seat, self.in_hand if betting else {}, messages)
        layer = self._panels.over(self._background, [*self.art.panels(now, view), *panels])
        over = Overdraw()  # where this frame draws over the layer
        self.art.draw_under(surface, layer, self._held(surface, layer), now, over)
        for target in targets:
            if not target.name.startswith("seat:"):
                over.add(draw_button(surface, target.button, target.name in pressed))
        for seat, result in counting:
            over.add(draw_result(surface, seat, result))
        over.add(draw_recap(surface, self.presenter, self.layout, shown, now))
        over.add_all(draw_jackpot_lock(surface, shown, now))
        self.art.draw_over(surface, now, view, over)
        self.ctx.canvas_notes.keep(surface, _DrawnOver(layer, self._panels.version,
                                                        over.kept(), self._panels))

    def _held(self, surface: pygame.Surface, layer: pygame.Surface) -> Held | None:
        """What `surface` holds over `layer`: what the last frame drawn on it drew over the
        layer, and where the layer has changed since; None if not known."""
        drawn = self.ctx.canvas_notes.held(surface)
        if not isinstance(drawn, _DrawnOver) or drawn.held.areas is None \
                or drawn.layer is not layer:
            return None
        since = self._panels.changes_since(drawn.version)
        return None if since is None else Held(drawn.held.areas + since, drawn.held.standing)


@dataclass(frozen=True)
class _DrawnOver:
    """What the table's frame on a canvas drew over its layer (:mod:`etg.ui.overdraw`)."""

    layer: pygame.Surface  # the layer it was drawn over, as it was at `version`
    version: int
    held: Held  # what it drew over the layer
    panels: PanelLayer  # the layer's keeper, who knows its changes since

    def differs_from(self, older: object) -> list[pygame.Rect] | None:
        """Where this canvas may differ from one the table drew `older` on, before it: where
        either drew over the layer, and where the layer changed between them (the scaling
        thread scales again only the tiles those reach: :func:`etg.ui.scaling.tiles_to_scale`)."""
        if not isinstance(older, _DrawnOver) or older.layer is not self.layer \
                or self.panels is not older.panels or self.version != self.panels.version:
            return None
        since = self.panels.changes_since(older.version)
        found = differences(self.held, older.held)
        return None if since is None or found is None else found + since


def _spin_seconds(wheel: WheelView | None) -> float:
    """How long the wheel view takes to stop, so the payouts wait for it."""
    if wheel is None:
        return 0.0
    wheel.spin_to(WheelStops(0, 1, 0), 0.0)
    seconds = float(wheel.ends_at)
    wheel.rest_on(None)
    return seconds


def _history(records: list[dict[str, Any]]) -> list[HistoryEntry]:
    entries = [HistoryEntry(rec["round"], rec["dealer_card"], rec["dealer_war_card"] is not None,
                            rec["wheel"] is not None, rec["outcome"] == "voided")
               for rec in records]
    return sorted(entries, key=lambda e: -e.round_number)


