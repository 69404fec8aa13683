"""The table screen (SPEC §6): dealer, spots, wheel, meters, seat panels and dealer console.

It draws the :class:`~etg.ui.presenter.Presenter`'s view of the committed
state and turns taps and keys into commands for the Context to send. Which
commands are accepted is the engine's business: a button tapped at the
wrong time is sent anyway and the engine's reason is shown. The scene only
lights the buttons a player or dealer is expected to use next.

Players bet on the felt (:mod:`etg.ui.felt`): :meth:`TableScene.hit_targets`
lists everything a finger can touch now with the command a tap sends, and
the Context hit-tests exactly that list. The seats' panels are drawn by
:mod:`etg.ui.seat_panel`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from etg.core.cards import Card
from etg.core.commands import (
    Actor,
    Command,
    Deal,
    NextRound,
    OpenBets,
    Tip,
    Void,
    WarDeal,
)
from etg.core.commands import CloseBets as CloseBetsCommand
from etg.core.events import BetsOpened, DecisionMade, Event, RoundComplete, RoundVoided
from etg.core.flow import DealerAction, dealer_next
from etg.core.money import format_cents
from etg.core.paytable import Decision
from etg.core.state import LEVELS, Phase, TableState, spot_outcome
from etg.core.wheel import WheelStops
from etg.table.pin import PinRole
from etg.ui import theme
from etg.ui.assets import Style, fit_text, text
from etg.ui.audio import Cue
from etg.ui.cards import card_back, card_face, card_shadow, flip_frame
from etg.ui.chips import chip, draw_stack
from etg.ui.felt import Target, betting_targets, decision_targets
from etg.ui.floor import draw_jackpot_lock
from etg.ui.layout import TableLayout
from etg.ui.presenter import (
    CARD_FLIGHT_S,
    CHIP_FLIGHT_S,
    Banner,
    CardFlight,
    Celebration,
    ChipFlight,
    Presenter,
)
from etg.ui.scene import (
    AskPin,
    Input,
    KeyPress,
    OpenAttract,
    OpenHelp,
    OpenOperatorMenu,
    Scene,
    Tap,
)
from etg.ui.seat_layout import SeatLayout
from etg.ui.seat_panel import draw_panel_now, print_panel
from etg.ui.theme import shade
from etg.ui.wheel import WheelView, celebrate
from etg.ui.widgets import Button, draw_button, draw_panel, draw_text
from etg.ui.words import players_words

if TYPE_CHECKING:
    from etg.ui.scene import Context

HISTORY_LENGTH = 10
HISTORY_CARD_W = 32
BANNER_CENTRE = (766, 462)  # over the spots, clear of the wheel
SEAT_MESSAGE_S = 3.0

_OUTCOMES = {"higher": ("WIN", theme.WIN), "lower": ("LOSE", theme.LOSE), "tie": ("TIE", theme.WAR)}
_LEVEL_NAMES = {"primary": "JACKPOT", "secondary": "MINI JACKPOT",
                "progressive_payout": "PROGRESSIVE PAYOUT"}


# The status line (SPEC §6: "PLACE YOUR BETS 0:12", "NO MORE BETS", "WAR", "BONUS SPIN!").
STATUS = {
    Phase.IDLE: "WAITING FOR THE DEALER",
    Phase.BETTING: "PLACE YOUR BETS",
    Phase.BETS_CLOSED: "NO MORE BETS",
    Phase.DEALT: "CARDS DEALT",
    Phase.DECISIONS: "TIE! WAR OR SURRENDER?",
    Phase.WAR_PENDING: "WAR",
    Phase.WAR_DEALT: "WAR",
    Phase.BONUS_SPIN: "BONUS SPIN!",
    Phase.COMPLETE: "ROUND COMPLETE",
    Phase.VOIDED: "ROUND VOID",
    Phase.JACKPOT: "JACKPOT!  AWAITING VALIDATION",  # MD Ch. 9 J(4)(c)
}


@dataclass(frozen=True)
class ConsoleKey:
    """A dealer console button: what it does and its keyboard keys."""

    tag: str
    label: str
    keys: tuple[int, ...]


CONSOLE: tuple[ConsoleKey, ...] = (
    ConsoleKey("open", "OPEN", (pygame.K_F1, pygame.K_o)),
    ConsoleKey("close", "CLOSE", (pygame.K_F2, pygame.K_c)),
    ConsoleKey("deal", "DEAL", (pygame.K_F3, pygame.K_d)),
    ConsoleKey("war_deal", "WAR DEAL", (pygame.K_F4, pygame.K_w)),
    ConsoleKey("spin", "SPIN", (pygame.K_F5, pygame.K_s)),
    ConsoleKey("next_round", "NEXT ROUND", (pygame.K_F6, pygame.K_n)),
    ConsoleKey("shuffle", "SHUFFLE", (pygame.K_F7, pygame.K_u)),
    ConsoleKey("void", "VOID", (pygame.K_F8, pygame.K_v)),
    # the floor's button: the dealer's SIGN IN between rounds, VALIDATE while a jackpot waits
    ConsoleKey("floor", "SIGN IN", (pygame.K_F11, pygame.K_i, pygame.K_F12, pygame.K_j)),
)
_LIT = {DealerAction.OPEN: "open", DealerAction.CLOSE: "close", DealerAction.DEAL: "deal",
        DealerAction.WAR_DEAL: "war_deal", DealerAction.SPIN: "spin",
        DealerAction.NEXT_ROUND: "next_round", DealerAction.SHUFFLE: "shuffle",
        DealerAction.VALIDATE: "floor"}


@dataclass(frozen=True)
class HistoryEntry:
    round_number: int
    dealer: str | None
    war: bool
    bonus: bool
    voided: bool


_CASH_OUT_MIN = 96.0  # CASH OUT keeps this much of its row when TIP buttons share it
_TIP_W, _TIP_GAP = 56.0, 6.0

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
        # The chip each seat has in hand: the only choice the screen keeps, and only for the
        # round (each round starts with the table minimum, issue 12).
        self.in_hand = {seat: self.layout.chip_values[0]
                        for seat in range(1, state.paytable.seats + 1)}
        self._targets_state: TableState | None = None
        self._targets_key: tuple[tuple[int, ...], bool] | None = None
        self._targets: list[Target] = []
        self._by_seat: dict[int, list[Target]] = {}  # the targets above, seat by seat
        self.seat_messages: dict[int, tuple[str, float]] = {}
        self.history: deque[HistoryEntry] = deque(_history(ctx.table.books.rounds(
            last=HISTORY_LENGTH)), maxlen=HISTORY_LENGTH)
        self._spun: set[float] = set()
        self._background = _background(self.layout, state)
        # Card faces are drawn the first time they are needed; render the deck ahead, one
        # face per quiet frame, so a deal never waits for one.
        widths = (self.layout.card_width, round(self.layout.dealer_card[2]), HISTORY_CARD_W)
        self._warm = [(Card.from_index(i), w) for w in widths for i in range(52)]

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
            if isinstance(event, RoundComplete | RoundVoided):
                r = state.round
                self.history.appendleft(HistoryEntry(
                    r.number, None if r.dealer_card is None else r.dealer_card.code,
                    r.dealer_war_card is not None, r.wheel is not None,
                    isinstance(event, RoundVoided)))

    def update(self, now: float) -> None:
        self.presenter.update(now)
        spin = self.presenter.spin()
        if spin is not None and self.wheel is not None and spin.start not in self._spun:
            self._spun.add(spin.start)
            self.wheel.spin_to(WheelStops(spin.community, spin.seat, spin.hot_spot), spin.start)
        self._tick(now)
        self._maybe_attract(now)
        if self._warm and not self.presenter.busy(now):
            card, width = self._warm.pop()
            card_face(card, width)

    def settled(self, now: float) -> bool:
        return not self.presenter.busy(now)

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
        check for touch-target sizes. Rebuilt only when the table, the chips in hand
        or the tilt change.
        """
        table = self.ctx.table
        key = (tuple(self.in_hand.values()), table.tilted)
        shown = table.committed  # drawn and touched: only what is committed
        if shown is not self._targets_state or key != self._targets_key:
            self._targets_state, self._targets_key = shown, key
            self._targets = self._build_targets(shown)
            self._by_seat = {}
            for target in self._targets:
                if target.name.startswith("seat:"):
                    self._by_seat.setdefault(int(target.name.split(":", 2)[1]), []).append(target)
        return self._targets

    def buttons(self, now: float) -> Sequence[Button]:
        return [target.button for target in self.hit_targets(now)]

    def _build_targets(self, state: TableState) -> list[Target]:
        lit = _LIT.get(dealer_next(state))
        out = [Target(Button(self.layout.console_button(i, len(CONSOLE)),
                             "VALIDATE" if key.tag == "floor" and state.jackpot else key.label,
                             f"dealer:{key.tag}", hot=key.tag == lit and not self.ctx.table.tilted,
                             colour=theme.LOSE if key.tag == "void" else theme.BUTTON, size=22))
               for i, key in enumerate(CONSOLE)]
        out.append(Target(Button((1560.0, 8.0, 150.0, 48.0), "HELP", "help", size=22)))
        out.append(Target(Button((1720.0, 8.0, 180.0, 48.0), "OPERATOR", "menu", size=22,
                                 colour=theme.PANEL_LIGHT)))
        pending = state.pending_decisions()
        for seat in self.layout.seat_layouts:
            mine = sorted(spot for s, spot in pending if s == seat.seat)
            if mine:
                out.extend(decision_targets(seat, state, mine))
            elif state.phase is Phase.BETTING:
                out.extend(betting_targets(seat, state, self.in_hand[seat.seat]))
            tips = self._tip_targets(seat, state)
            out.append(Target(self._cash_out_button(seat, len(tips))))
            out.extend(tips)
        return out

    def _tip_targets(self, seat: SeatLayout, state: TableState) -> list[Target]:
        """TIP beside CASH OUT, the cabinet's amounts (as many as fit a finger wide, smallest
        first), while a dealer is at the table. MD Ch. 2 D: a tip for the dealer, from the
        seat's credits."""
        amounts = sorted(self.ctx.cabinet.tip_amounts_cents)
        if state.dealer is None or not amounts:
            return []
        x, y, w, h = seat.cash_out
        fit = min(len(amounts), int((w - _CASH_OUT_MIN) // (_TIP_W + _TIP_GAP)))
        right = x + w
        return [Target(Button((right - (fit - i) * (_TIP_W + _TIP_GAP) + _TIP_GAP, y, _TIP_W, h),
                              f"TIP {format_cents(cents, whole_dollars=True)}",
                              f"seat:{seat.seat}:tip:{cents}", colour=theme.PANEL_LIGHT,
                              size=14), Tip(seat.seat, cents))
                for i, cents in enumerate(amounts[:fit])]

    def _cash_out_button(self, seat: SeatLayout, tips: int = 0) -> Button:
        x, y, w, h = seat.cash_out
        return Button((x, y, w - tips * (_TIP_W + _TIP_GAP), h), "CASH OUT",
                      f"seat:{seat.seat}:cashout", colour=theme.PANEL_LIGHT,
                      size=18 if not tips else 15)

    def handle(self, event: Input) -> bool:
        if isinstance(event, Tap):
            self._tap(event.button)
            return True
        if isinstance(event, KeyPress):
            return self._key(event.key)
        return False

    def _tap(self, button: Button) -> None:
        parts = button.tag.split(":")
        if parts[0] == "dealer":
            self.dealer(parts[1])
        elif parts[0] == "help":
            self.open_help()
        elif parts[0] == "menu":
            self.open_menu()
        elif parts[0] == "seat":
            target = next((t for t in self.hit_targets(self.ctx.now) if t.name == button.tag),
                          None)
            if target is not None:
                self._seat_tap(int(parts[1]), parts[2], parts[3:], target.command)

    def _key(self, key: int) -> bool:
        for console_key in CONSOLE:
            if key in console_key.keys:
                self.dealer(console_key.tag)
                return True
        if key in (pygame.K_F9, pygame.K_h):
            self.open_help()
            return True
        if key in (pygame.K_F10, pygame.K_m):
            self.open_menu()
            return True
        return False

    def open_help(self) -> None:
        self.ctx.go(OpenHelp())

    def open_menu(self) -> None:
        self.ctx.go(OpenOperatorMenu())

    def dealer(self, action: str) -> None:
        """A dealer console action, by button or key; the engine refuses it if out of turn."""
        if action == "floor":
            from etg.ui.floor import sign_in_dealer, validate_jackpot

            locked = self.ctx.table.state.jackpot is not None
            (validate_jackpot if locked else sign_in_dealer)(self.ctx)
            return
        if action == "void":
            self.ctx.go(AskPin.role(PinRole.SUPERVISOR, "SUPERVISOR PIN  ·  VOID ROUND",
                                    lambda: self._send(Void("voided by the supervisor"),
                                                       Actor.SUPERVISOR)))
            return
        command = self._dealer_command(action)
        if command is not None:
            self._send(command, Actor.DEALER)

    def _dealer_command(self, action: str) -> Command | None:
        table = self.ctx.table
        if action == "shuffle":
            return table.shuffle_command()  # drawn now, shown only once committed
        if action == "spin":
            try:
                return table.spin_command()  # the stops are drawn before anything turns
            except ValueError as error:
                self.ctx.notify(str(error))
                return None
        simple: dict[str, Command] = {"open": OpenBets(), "close": CloseBetsCommand(),
                                      "deal": Deal(), "war_deal": WarDeal(),
                                      "next_round": NextRound()}
        return simple[action]

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
        surface.blit(self._background, (0, 0))
        self._draw_top_bar(surface, shown, now)
        self._draw_meters(surface, shown)
        self._draw_dealer(surface, shown, now)
        self._draw_shoe(surface, shown)
        self._draw_history(surface)
        self._draw_spots(surface, shown, now)
        if self.wheel is not None:
            self.wheel.draw(surface, self.layout.wheel_centre, now)
            self._draw_wheel_result(surface, shown, now)
        pressed = self.ctx.pressed_tags(self)
        for target in self.hit_targets(now):
            if not target.name.startswith("seat:"):
                draw_button(surface, target.button, target.name in pressed)
        state = self.ctx.table.committed
        tied: dict[int, list[int]] = {}
        for seat_number, spot in state.pending_decisions():
            tied.setdefault(seat_number, []).append(spot)
        betting = state.phase is Phase.BETTING and not self.ctx.table.tilted
        landing = self.presenter.landing(now)
        for seat in self.layout.seat_layouts:
            n = seat.seat
            message = self.seat_messages.get(n)
            draw_panel_now(surface, seat, shown, self.presenter.credits[n - 1],
                           self._by_seat.get(n, []), pressed,
                           self.in_hand[n] if betting else None,
                           tied.get(n, []),
                           message[0] if message is not None and message[1] > now else None,
                           landing)
            if shown.phase is Phase.COMPLETE and self.settled(now):
                self._draw_seat_result(surface, seat, shown)
        self._draw_animations(surface, now)
        draw_jackpot_lock(surface, shown, now)
        tilt = self.ctx.table.tilt
        if tilt is not None:
            self._draw_tilt(surface, [f"{p.check}: {p.message}" for p in tilt.problems])

    def _draw_tilt(self, surface: pygame.Surface, causes: list[str]) -> None:
        """Play has stopped: say so to the players, and the cause to the attendant."""
        panel = pygame.Rect(360, 300, 1200, 150 + 34 * min(len(causes), 4))
        draw_panel(surface, panel, (20, 8, 8, 235), theme.TILT, radius=18, width=4)
        draw_text(surface, "PLAY HAS STOPPED  ·  AN ATTENDANT IS ON THE WAY", 40, theme.TILT,
                  (panel.centerx, panel.top + 50), shadow=True, max_width=panel.width - 60)
        draw_text(surface, "Your credits and this round are safe.", 26, theme.WHITE,
                  (panel.centerx, panel.top + 100), max_width=panel.width - 60)
        for i, cause in enumerate(causes[:4]):
            draw_text(surface, cause, 22, theme.CREAM, (panel.left + 36, panel.top + 150 + 34 * i),
                      "midleft", Style.REGULAR, max_width=panel.width - 72)

    def _draw_top_bar(self, surface: pygame.Surface, shown: TableState, now: float) -> None:
        p = shown.paytable
        draw_text(surface, "CASINO WAR", 30, theme.GOLD, (24, 32), "midleft", Style.SERIF)
        draw_text(surface, game_subtitle(p.name), 15, theme.CREAM, (262, 33), "midleft",
                  Style.CONDENSED, max_width=290)
        status = STATUS[shown.phase]
        remaining = self.ctx.timekeeper.remaining(now)
        if remaining is not None and self.ctx.table.state.phase is shown.phase:
            seconds = int(remaining + 0.999)
            status = f"{status}  {seconds // 60}:{seconds % 60:02d}"
        colour = theme.WAR if shown.phase in (Phase.DECISIONS, Phase.WAR_PENDING,
                                              Phase.WAR_DEALT) else theme.WHITE
        spin = self.presenter.spin()
        if shown.phase is Phase.BONUS_SPIN or (spin is not None and now < spin.end):
            status, colour = STATUS[Phase.BONUS_SPIN], theme.WIN  # the wheel is still turning
        if self.ctx.table.tilted:
            status, colour = "TILT  ·  CALL AN ATTENDANT", theme.TILT
        draw_text(surface, status, 38, colour, (905, 32), shadow=True, max_width=700)
        if self.ctx.options.demo:
            pill = pygame.Rect(1262, 12, 100, 40)
            pygame.draw.rect(surface, theme.DEMO, pill, border_radius=20)
            draw_text(surface, "DEMO", 24, theme.WHITE, pill.center)
        draw_text(surface, f"ROUND {shown.round.number}", 18, theme.TEXT_DIM, (1548, 32),
                  "midright")

    def _draw_meters(self, surface: pygame.Surface, shown: TableState) -> None:
        x, y, w, _ = self.layout.meters
        for level, meter in zip(LEVELS, shown.meters, strict=True):
            if meter is None:
                continue
            plate = pygame.Rect(round(x), round(y), round(w), 76)
            draw_panel(surface, plate, theme.INK, theme.GOLD, radius=12, width=3)
            draw_text(surface, _LEVEL_NAMES[level.value], 16, theme.GOLD,
                      (plate.centerx, plate.y + 14))
            draw_text(surface, format_cents(meter.cents), 38, theme.WIN,
                      (plate.centerx, plate.y + 48), style=Style.BOLD)
            y += 84

    def _draw_dealer(self, surface: pygame.Surface, shown: TableState, now: float) -> None:
        hidden = self.presenter.hidden_cards(now)
        r = shown.round
        dealer = f"DEALER {shown.dealer}" if shown.dealer else "DEALER"  # MD Ch. 8 E(4)
        draw_text(surface, dealer, 18, theme.CREAM, (_cx(self.layout.dealer_card), 80))
        self._card_slot(surface, self.layout.dealer_card, r.dealer_card,
                        ("dealer", 0, False) in hidden)
        if r.dealer_war_card is not None or shown.phase in (Phase.WAR_PENDING,):
            draw_text(surface, "WAR", 18, theme.WAR, (_cx(self.layout.dealer_war_card), 80))
            self._card_slot(surface, self.layout.dealer_war_card, r.dealer_war_card,
                            ("dealer", 0, True) in hidden)

    def _card_slot(self, surface: pygame.Surface, rect: tuple[float, float, float, float],
                   card: Card | None, hidden: bool) -> None:
        x, y, w, _ = rect
        if card is None or hidden:
            return
        width = round(w)
        surface.blit(card_shadow(width), (round(x) + 5, round(y) + 6))
        surface.blit(card_face(card, width), (round(x), round(y)))

    def _draw_shoe(self, surface: pygame.Surface, shown: TableState) -> None:
        x, y, w, h = self.layout.shoe
        box = pygame.Rect(round(x), round(y), round(w), round(h))
        shoe = shown.shoe
        if shoe is None:
            draw_text(surface, "NO SHOE  ·  SHUFFLE", 22, theme.CREAM, box.center)
            return
        total = len(shoe.draw.order)
        draw_text(surface, f"SHOE {shoe.shuffle_number}", 20, theme.GOLD,
                  (box.x + 110, box.y + 16), "midleft")
        draw_text(surface, f"{shoe.remaining} of {total} cards", 18, theme.CREAM,
                  (box.right - 12, box.y + 16), "midright", Style.REGULAR)
        bar = pygame.Rect(box.x + 110, box.y + 40, box.width - 122, 18)
        pygame.draw.rect(surface, theme.INK, bar, border_radius=9)
        fill = bar.copy()
        fill.width = max(4, round(bar.width * shoe.remaining / total))
        pygame.draw.rect(surface, theme.GOLD_DARK, fill, border_radius=9)
        cut_x = bar.x + round(bar.width * (total - shoe.draw.cut_index) / total)
        pygame.draw.line(surface, theme.RED, (cut_x, bar.y - 4), (cut_x, bar.bottom + 4), 4)
        if shoe.cut_card_out or shown.shuffle_due:
            draw_text(surface, "CUT CARD OUT  ·  SHUFFLE AFTER THIS ROUND", 16, theme.WAR,
                      (bar.centerx, bar.bottom + 18))
        else:
            draw_text(surface, f"{len(shoe.draw.order) // 52} DECKS  ·  CUT CARD", 15,
                      theme.TEXT_DIM, (bar.centerx, bar.bottom + 18), style=Style.REGULAR)
        back = card_back(60)
        for i in range(3):
            surface.blit(back, (box.x + 12 + i * 6, box.y + 8 + i * 2))

    def _draw_history(self, surface: pygame.Surface) -> None:
        x, y, _, _ = self.layout.history
        draw_text(surface, "LAST ROUNDS", 15, theme.TEXT_DIM, (x + 4, y + 8), "midleft")
        width = HISTORY_CARD_W
        for i, entry in enumerate(self.history):
            left = round(x + 4 + i * (width + 5))
            if entry.dealer is not None:
                surface.blit(card_face(Card.parse(entry.dealer), width), (left, round(y + 20)))
            marks = "V" if entry.voided else ("W" if entry.war else "") + (
                "★" if entry.bonus else "")
            if marks:
                draw_text(surface, marks, 14, theme.WAR if "W" in marks else theme.GOLD,
                          (left + width / 2, y + 20 + width * 1.4 + 12))

    def _draw_wheel_result(self, surface: pygame.Surface, shown: TableState, now: float) -> None:
        """Under the stopped wheel: what each ring stopped on, from the recorded stops."""
        stops = shown.round.wheel
        bonus = shown.paytable.bonus_spin
        if stops is None or bonus is None or (self.wheel is not None and
                                              self.wheel.spinning(now)):
            return
        words = (f"COMMUNITY {bonus.community_ring[stops.community].symbol}  ·  "
                 f"HOT SPOT SEAT {stops.seat}  ·  {bonus.hot_spot_ring[stops.hot_spot].symbol}")
        x, y, w, h = self.layout.wheel_box
        plate = pygame.Rect(round(x) + 40, round(y + h) - 44, round(w) - 80, 40)
        pygame.draw.rect(surface, theme.INK, plate, border_radius=12)
        pygame.draw.rect(surface, theme.GOLD, plate, width=2, border_radius=12)
        draw_text(surface, words, 18, theme.WIN, plate.center, max_width=plate.width - 16)

    def _draw_spots(self, surface: pygame.Surface, shown: TableState, now: float) -> None:
        hidden = self.presenter.hidden_cards(now)
        r = shown.round
        settled = not self.presenter.busy(now)
        for spot in range(1, len(r.spot_cards) + 1):
            card_rect = self.layout.spot_card(spot)
            cx = _cx(card_rect)
            draw_text(surface, f"SPOT {spot}", 16, theme.CREAM, (cx, card_rect[1] - 12))
            card = r.spot_cards[spot - 1]
            shown_card = card is not None and ("spot", spot, False) not in hidden
            if shown_card:
                self._card_slot(surface, card_rect, card, False)
            war_card = r.war_cards[spot - 1] if r.war_cards else None
            if war_card is not None and ("spot", spot, True) not in hidden:
                self._card_slot(surface, self.layout.spot_war_card(spot), war_card, False)
            if shown_card and r.dealer_card is not None and settled:
                self._draw_spot_result(surface, shown, spot, card_rect)
            self._draw_spot_badge(surface, shown, spot)
        self._draw_decision_clocks(surface, shown, now)

    def _draw_decision_clocks(self, surface: pygame.Surface, shown: TableState,
                              now: float) -> None:
        """The decision countdown on each tied spot still waiting for a seat's choice."""
        remaining = self.ctx.timekeeper.remaining(now)
        if shown.phase is not Phase.DECISIONS or remaining is None:
            return
        seconds = int(remaining + 0.999)
        for spot in sorted({spot for _, spot in shown.pending_decisions()}):
            x, y, w, _ = self.layout.spot_card(spot)
            centre = decision_clock_centre(x, y, w)
            pygame.draw.circle(surface, theme.INK, centre, 32)
            pygame.draw.circle(surface, theme.WAR if seconds > 3 else theme.TILT, centre, 32,
                               width=4)
            draw_text(surface, f"{seconds}", 30, theme.WHITE, centre)

    def _draw_spot_result(self, surface: pygame.Surface, shown: TableState, spot: int,
                          rect: tuple[float, float, float, float]) -> None:
        r = shown.round
        outcome = spot_outcome(r, spot)
        if outcome is None:
            return
        if r.war_cards and r.war_cards[spot - 1] is not None and r.dealer_war_card is not None:
            rect = self.layout.spot_war_card(spot)
        label, colour = _OUTCOMES[outcome.value]
        box = pygame.Rect(round(rect[0]) - 4, round(rect[1]) - 4, round(rect[2]) + 8,
                          round(rect[3]) + 8)
        if outcome.value != "lower":
            pygame.draw.rect(surface, colour, box, width=4, border_radius=12)
        tag = pygame.Rect(0, 0, 86, 30)
        tag.center = (box.centerx, box.bottom - 18)
        pygame.draw.rect(surface, theme.INK, tag, border_radius=8)
        pygame.draw.rect(surface, colour, tag, width=2, border_radius=8)
        draw_text(surface, label, 18, colour, tag.center)

    def _draw_spot_badge(self, surface: pygame.Surface, shown: TableState, spot: int) -> None:
        grid = shown.round.wagers if shown.phase is Phase.BETTING else shown.round.placed
        total = 0
        seats: list[int] = []
        for seat, row in enumerate(grid, start=1):
            live = shown.round.wagers[seat - 1][spot - 1]
            amount = row[spot - 1].on_table + live.war + live.war_tie
            if amount:
                total += amount
                seats.append(seat)
        x, y, w, h = self.layout.spot_badge(spot)
        badge = pygame.Rect(round(x), round(y), round(w), round(h))
        if not total:
            return
        pygame.draw.rect(surface, theme.INK, badge, border_radius=10)
        surface.blit(chip(total, 30), (badge.x + 4, badge.y + 3))
        draw_text(surface, format_cents(total, whole_dollars=True), 18, theme.CREAM,
                  (badge.x + 40, badge.centery), "midleft")
        for i, seat in enumerate(seats[-6:]):
            pygame.draw.circle(surface, theme.seat_colour(seat),
                               (badge.right - 10 - i * 14, badge.centery), 6)

    def _draw_seat_result(self, surface: pygame.Surface, seat: SeatLayout,
                          shown: TableState) -> None:
        n = seat.seat
        r = shown.round
        staked = r.staked[n - 1] if r.staked else 0
        if not staked:
            return
        net = r.returned[n - 1] - staked
        rect = pygame.Rect(*map(round, seat.rect))
        ribbon = pygame.Rect(rect.x + 4, rect.y + 46, rect.width - 8, 56)
        win = net > 0
        pygame.draw.rect(surface, theme.INK if win else (30, 30, 36), ribbon, border_radius=10)
        pygame.draw.rect(surface, theme.WIN if win else theme.TEXT_DIM, ribbon, width=3,
                         border_radius=10)
        words = (f"WIN {format_cents(net)}" if win else "PUSH" if net == 0
                 else f"LOSS {format_cents(-net)}")
        draw_text(surface, words, 26, theme.WIN if win else theme.CREAM, ribbon.center,
                  max_width=ribbon.width - 10)

    def _draw_animations(self, surface: pygame.Surface, now: float) -> None:
        for animation in self.presenter.active(now):
            if isinstance(animation, CardFlight):
                _draw_card_flight(surface, animation, now)
            elif isinstance(animation, ChipFlight):
                _draw_chip_flight(surface, animation, now)
            elif isinstance(animation, Banner):
                _draw_banner(surface, animation, now)
            elif isinstance(animation, Celebration):
                celebrate(surface, surface.get_rect(), now, animation.start, animation.title,
                          animation.amount)


def _draw_card_flight(surface: pygame.Surface, flight: CardFlight, now: float) -> None:
    t = now - flight.start
    x0, y0 = flight.origin
    x1, y1, w, _ = flight.dest
    width = round(w)
    if t < CARD_FLIGHT_S:
        k = _ease_out(t / CARD_FLIGHT_S)
        x, y = x0 + (x1 - x0) * k, y0 + (y1 - y0) * k
        surface.blit(card_back(width), (round(x), round(y)))
        return
    progress = (t - CARD_FLIGHT_S) / (flight.end - flight.start - CARD_FLIGHT_S)
    frame = flip_frame(Card.parse(flight.card_code), width, progress)
    surface.blit(frame, frame.get_rect(midtop=(round(x1 + w / 2), round(y1))))


def _draw_chip_flight(surface: pygame.Surface, flight: ChipFlight, now: float) -> None:
    k = _ease_out(min(1.0, (now - flight.start) / CHIP_FLIGHT_S))
    (x0, y0), (x1, y1) = flight.origin, flight.dest
    x, y = x0 + (x1 - x0) * k, y0 + (y1 - y0) * k - 60 * k * (1 - k)
    draw_stack(surface, flight.amount, (round(x), round(y) + 12), 40, max_chips=5)


def _draw_banner(surface: pygame.Surface, banner: Banner, now: float) -> None:
    t = (now - banner.start) / banner.duration
    scale = min(1.0, t * 6)
    colour = {"gold": theme.GOLD, "war": theme.WAR, "void": theme.TILT}[banner.tone]
    words = text(banner.text, 56, colour, Style.SERIF)
    rect = pygame.Rect(0, 0, round((words.get_width() + 80) * scale), 100)
    rect.center = BANNER_CENTRE
    if rect.width < 20:
        return
    draw_panel(surface, rect, (8, 14, 22, 225), colour, radius=20, width=4)
    if scale >= 1.0:
        surface.blit(words, words.get_rect(center=rect.center))


def _ease_out(k: float) -> float:
    k = min(max(k, 0.0), 1.0)
    return 1 - (1 - k) ** 3


def _cx(rect: tuple[float, float, float, float]) -> float:
    return rect[0] + rect[2] / 2


def game_subtitle(name: str) -> str:
    """The paytable's name under the CASINO WAR title, without saying the title twice."""
    words = name.strip()
    if words.lower().startswith("casino war"):
        words = words[len("casino war"):].lstrip(" –-—·:")
    return (words or name).upper()


def decision_clock_centre(x: float, y: float, w: float) -> tuple[int, int]:
    """Where a tied spot's decision countdown sits: on its card's top right."""
    return round(x + w - 8), round(y + 36)  # below the SPOT label, clear of the index


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


def _background(layout: TableLayout, state: TableState) -> pygame.Surface:
    """The felt, the rail and the printed layout: drawn once, blitted every frame."""
    surface = pygame.Surface((1920, 1080))
    for row in range(0, 1080, 4):
        k = 1 - abs(row - 420) / 900
        surface.fill(shade(theme.FELT, 0.7 + 0.45 * k), (0, row, 1920, 4))
    pygame.draw.rect(surface, theme.RAIL, (0, 0, 1920, 64))
    pygame.draw.line(surface, theme.GOLD_DARK, (0, 64), (1920, 64), 3)
    mx, my, mw, _ = layout.middle
    slots = [layout.spot_card(spot) for spot in range(1, layout.spots + 1)]
    for x, y, w, h in [*slots, layout.dealer_card, layout.dealer_war_card]:
        outline = pygame.Rect(round(x) - 6, round(y) - 6, round(w) + 12, round(h) + 12)
        pygame.draw.rect(surface, theme.FELT_LIGHT, outline, width=3, border_radius=14)
    for rect in (layout.shoe, layout.history):
        draw_panel(surface, rect, (0, 0, 0, 90), theme.GOLD_DARK, radius=12, width=1)
    cx, cy, cw, ch = layout.console
    draw_panel(surface, (cx, cy, cw, ch), (0, 0, 0, 110), theme.GOLD_DARK, radius=14, width=1)
    p = state.paytable
    motto = (f"TIE PAYS {p.payouts.tie.pays} TO {p.payouts.tie.to}  ·  "
             f"WAR TIE PAYS {p.payouts.war_tie.pays} TO {p.payouts.war_tie.to}")
    surface.blit(fit_text(motto, 20, theme.GOLD, round(mw) - 40, Style.SERIF),
                 fit_text(motto, 20, theme.GOLD, round(mw) - 40, Style.SERIF).get_rect(
                     midbottom=(round(mx + mw / 2), round(my) - 2)))
    if layout.has_wheel:
        draw_panel(surface, layout.wheel_box, (0, 0, 0, 70), theme.GOLD_DARK, radius=16, width=1)
    for seat in layout.seat_layouts:
        print_panel(surface, seat)
    return surface.convert() if pygame.display.get_surface() is not None else surface

