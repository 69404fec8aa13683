"""The players' table as drawn: the felt, the dealer's cards, the spots, the shoe, the
history, the meters and the wheel's result (what moves over them is
:mod:`etg.ui.flights`', the background printed once :mod:`etg.ui.table_background`').

:class:`TableArt` draws from the :class:`~etg.ui.presenter.Presenter`'s view of the
committed state and a :class:`FrameView` of the frame (the countdown, the live phase, a
tilt): a pure function of them and ``now``; it changes nothing. The seats' panels are
:mod:`etg.ui.seat_panel`'s, what they were paid :mod:`etg.ui.table_results`'.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import partial

import pygame

from etg.core.cards import Card
from etg.core.linked import LINK_DOWN
from etg.core.money import format_cents
from etg.core.state import LEVELS, Phase, TableState, spot_outcome
from etg.ui import theme
from etg.ui.animations import CardKey
from etg.ui.assets import Style
from etg.ui.cards import card_back, card_face, card_shadow
from etg.ui.chips import chip
from etg.ui.flights import draw_animations
from etg.ui.layout import TableLayout
from etg.ui.overdraw import Held, Overdraw, Standing, put_back_and_stand
from etg.ui.panel_layer import Panel
from etg.ui.presenter import (
    Presenter,
)
from etg.ui.theme import PLAYER_TEXT
from etg.ui.wheel import WheelView
from etg.ui.widgets import draw_panel, draw_text

HISTORY_CARD_W = 48

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
class HistoryEntry:
    round_number: int
    dealer: str | None
    war: bool
    bonus: bool
    voided: bool


@dataclass(frozen=True)
class FrameView:
    """What a frame of the table shows besides the presenter's state."""

    remaining: float | None  # the running countdown's seconds, if any
    live_phase: Phase  # the committed phase (the countdown belongs to it)
    tilted: bool
    causes: tuple[str, ...]  # a tilt's causes, for the attendant
    demo: bool


SPOTS_MARGIN = 0
"""The spots draw inside their columns: cards, labels, results, badges and decision clocks."""

INSIDE = 0
"""The margin of the panels above the spots (the resting rings, the top bar, the meters, the
dealer's cards, the shoe, the history): each draws inside its rectangle, so one changing
(the top bar's words at every phase, the meters at every wager, the shoe at every card)
draws no neighbour again, and two changing together are not joined into the box around
them and all between (at the bets' close the top bar, the meters and the spots once
joined into the whole upper half, the rings and cards with it).
``tests/test_ui_panel_layer.py`` probes every picture of each in a round."""

CARD_SHADOW = (5, 6)
"""Where a card's shadow lies from the card (px right, down)."""

PLATE_H = 76
"""A meter's plate's height."""

PLATE_STEP = PLATE_H + 8
"""A meter's plate and the gap under it."""


class TableArt:
    """Draws the table under and over the seats' panels."""

    def __init__(self, layout: TableLayout, presenter: Presenter, wheel: WheelView | None,
                 history: deque[HistoryEntry]) -> None:
        self.layout = layout
        self.presenter = presenter
        self.wheel = wheel
        self.history = history

    def draw_under(self, surface: pygame.Surface, layer: pygame.Surface, held: Held | None,
                   now: float, over: Overdraw) -> None:
        """`layer` (the background with :meth:`panels` and the seats' panels on it), put
        back where `surface` differs from it (`held`: what the last frame drawn on it drew
        over the layer; None: not known), and the wheel over it; where it drew goes to
        `over`. A resting wheel's rim, hub, pointer and result stand (:mod:`etg.ui.overdraw`)."""
        wheel = self.wheel
        if wheel is None or wheel.still(now) is None:
            put_back_and_stand(surface, layer, held, (), over)
            if wheel is not None:  # turning: the rings, and everything over them, each frame
                centre = self.layout.wheel_centre
                over.add_all(wheel.draw_rings(surface, centre, now))
                over.add_all(wheel.draw_over_rings(surface, centre, now))
            return
        # what it stopped on, once it has: not while a spin waits to set a ring turning
        words = None if wheel.spinning(now) else self._wheel_result_words(self.presenter.shown)
        put_back_and_stand(surface, layer, held, (
            Standing(wheel.rim_key(now), partial(wheel.draw_over_rings,
                                                 centre=self.layout.wheel_centre, now=now)),
            Standing(("wheel result", words), partial(self._draw_wheel_result, words=words)),
        ), over)

    def panels(self, now: float, view: FrameView) -> list[Panel]:
        """The wheel's rings while they rest, the top bar, the meters, the dealer's cards, the
        shoe, the history and the spots, as the frame shows them: drawn on the table's layer
        (:class:`~etg.ui.panel_layer.PanelLayer`) under everything :meth:`draw_under` draws,
        each again only when its key changes (turning rings are drawn over it, each frame)."""
        out = []
        if self.wheel is not None:
            centre, radius = self.layout.wheel_centre, round(self.layout.wheel_radius)
            still = self.wheel.still(now)
            out.append(Panel(pygame.Rect(centre[0] - radius, centre[1] - radius, 2 * radius,
                                         2 * radius), still,
                             partial(self._draw_still_rings, still, now), INSIDE))
        shown = self.presenter.shown
        hidden = self.presenter.hidden_cards(now)
        bar = self._top_bar_words(shown, now, view)
        r = shown.round
        shoe = shown.shoe
        dealer = self._dealer_area()
        # SPEC §13: a linked level shows the floor controller's amount, marked, and the link
        meters = (*(None if m is None else (shown.shown_meter(level),
                                            shown.linked_meter(level) is not None)
                    for level, m in zip(LEVELS, shown.meters, strict=True)), shown.link_down)
        plates = sum(m is not None for m in shown.meters)
        meters_h = PLATE_STEP * (plates - 1) + PLATE_H if plates else 0
        return [
            *out,
            Panel(pygame.Rect(0, 0, 1920, 64), bar,
                  lambda surface: self._draw_top_bar(surface, bar), INSIDE),
            Panel(pygame.Rect(_bounds(self.layout.meters).topleft,
                              (round(self.layout.meters[2]), meters_h)),
                  meters, lambda surface: self._draw_meters(surface, shown), INSIDE),
            Panel(dealer, (shown.dealer, r.dealer_card, r.dealer_war_card, shown.phase
                           is Phase.WAR_PENDING, ("dealer", 0, False) in hidden,
                           ("dealer", 0, True) in hidden),
                  lambda surface: self._draw_dealer(surface, shown, hidden), INSIDE),
            Panel(_bounds(self.layout.shoe),
                  None if shoe is None else (shoe.shuffle_number, shoe.remaining,
                                             len(shoe.draw.order), shoe.draw.cut_index,
                                             shoe.cut_card_out, shown.shuffle_due),
                  lambda surface: self._draw_shoe(surface, shown), INSIDE),
            Panel(_bounds(self.layout.history), tuple(self.history), self._draw_history,
                  INSIDE),
            self._spots_panel(shown, hidden, now, view),
        ]

    def _spots_panel(self, shown: TableState, hidden: set[CardKey], now: float,
                     view: FrameView) -> Panel:
        """The spots: their cards as landed (`hidden`: still flying), results, wagers and
        decision clocks."""
        settled = not self.presenter.busy(now)
        clock = None
        if shown.phase is Phase.DECISIONS and view.remaining is not None:
            clock = (int(view.remaining + 0.999), shown.pending_decisions())
        spots = range(1, len(shown.round.spot_cards) + 1)
        return Panel(_bounds(*(self.layout.spot_column(spot) for spot in spots)),
                     (frozenset(hidden), shown.round, shown.phase, settled, clock),
                     lambda surface: self._draw_spots(surface, shown, hidden, settled, view),
                     SPOTS_MARGIN)

    def _draw_still_rings(self, still: object, now: float, surface: pygame.Surface) -> None:
        if still is not None and self.wheel is not None:
            self.wheel.draw_rings(surface, self.layout.wheel_centre, now)

    def draw_over(self, surface: pygame.Surface, now: float, view: FrameView,
                  over: Overdraw) -> None:
        """What moves over the table, and a tilt's notice over everything; where it drew
        goes to `over`."""
        draw_animations(surface, self.presenter, now, over)
        if view.tilted:
            self._draw_tilt(surface, list(view.causes))
            over.everything()

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

    def _top_bar_words(self, shown: TableState, now: float,
                       view: FrameView) -> tuple[str, str, theme.RGB, bool, int]:
        """What the top bar shows: the game's name, the status and its colour, DEMO, the round."""
        status = STATUS[shown.phase]
        remaining = view.remaining
        if remaining is not None and view.live_phase is shown.phase:
            seconds = int(remaining + 0.999)
            status = f"{status}  {seconds // 60}:{seconds % 60:02d}"
        colour = theme.WAR if shown.phase in (Phase.DECISIONS, Phase.WAR_PENDING,
                                              Phase.WAR_DEALT) else theme.WHITE
        spin = self.presenter.spin()
        if shown.phase is Phase.BONUS_SPIN or (spin is not None and now < spin.end):
            status, colour = STATUS[Phase.BONUS_SPIN], theme.WIN  # the wheel is still turning
        if view.tilted:
            status, colour = "TILT  ·  CALL AN ATTENDANT", theme.TILT
        return game_subtitle(shown.paytable.name), status, colour, view.demo, shown.round.number

    def _draw_top_bar(self, surface: pygame.Surface,
                      words: tuple[str, str, theme.RGB, bool, int]) -> None:
        subtitle, status, colour, demo, round_number = words
        draw_text(surface, "CASINO WAR", 30, theme.GOLD, (24, 32), "midleft", Style.SERIF)
        draw_text(surface, subtitle, PLAYER_TEXT, theme.CREAM, (262, 33), "midleft",
                  Style.CONDENSED)
        draw_text(surface, status, 38, colour, (905, 32), shadow=True, max_width=700)
        if demo:
            pill = pygame.Rect(1262, 12, 100, 40)
            pygame.draw.rect(surface, theme.DEMO, pill, border_radius=20)
            draw_text(surface, "DEMO", 24, theme.WHITE, pill.center)
        draw_text(surface, f"ROUND {round_number}", PLAYER_TEXT, theme.CREAM, (1700, 32),
                  "midright")

    def _draw_meters(self, surface: pygame.Surface, shown: TableState) -> None:
        x, y, w, _ = self.layout.meters
        for level, meter in zip(LEVELS, shown.meters, strict=True):
            if meter is None:
                continue
            plate = pygame.Rect(round(x), round(y), round(w), PLATE_H)
            linked = shown.linked_meter(level) is not None
            down = linked and shown.link_down
            draw_panel(surface, plate, theme.INK, theme.TILT if down else theme.GOLD, radius=12,
                       width=3)
            title, colour = _LEVEL_NAMES[level.value], theme.GOLD
            if down:  # issue 27 item 3: the reason linked wagers are refused, on the table
                title, colour = f"{LINK_DOWN.upper()}", theme.TILT
            elif linked:  # the floor's pool, shared by every linked table (SPEC §13)
                title = f"{title}  ·  LINKED"
            draw_text(surface, title, PLAYER_TEXT, colour, (plate.centerx, plate.y + 14),
                      max_width=plate.width - 16)
            cents = shown.shown_meter(level)
            draw_text(surface, "LINKED" if cents is None else format_cents(cents), 38,
                      theme.CREAM if down else theme.WIN, (plate.centerx, plate.y + 48),
                      style=Style.BOLD, max_width=plate.width - 16)
            y += PLATE_STEP

    def _dealer_area(self) -> pygame.Rect:
        """Where the dealer's name and cards are drawn: under the top bar, right of the
        meters, to the cards' shadows."""
        cards = _bounds(self.layout.dealer_card, self.layout.dealer_war_card)
        left = round(self.layout.meters[0] + self.layout.meters[2]) + 6
        return pygame.Rect(left, 64, cards.right + CARD_SHADOW[0] - left,
                           cards.bottom + CARD_SHADOW[1] - 64)

    def _draw_dealer(self, surface: pygame.Surface, shown: TableState,
                     hidden: set[CardKey]) -> None:
        r = shown.round
        dealer = f"DEALER {shown.dealer}" if shown.dealer else "DEALER"  # MD Ch. 8 E(4)
        centre = _cx(self.layout.dealer_card)  # a long name is narrowed to stay in the area
        draw_text(surface, dealer, PLAYER_TEXT, theme.CREAM, (centre, 82),
                  max_width=2 * round(centre - self._dealer_area().left))
        self._card_slot(surface, self.layout.dealer_card, r.dealer_card,
                        ("dealer", 0, False) in hidden)
        if r.dealer_war_card is not None or shown.phase in (Phase.WAR_PENDING,):
            draw_text(surface, "WAR", PLAYER_TEXT, theme.WAR,
                      (_cx(self.layout.dealer_war_card), 82))
            self._card_slot(surface, self.layout.dealer_war_card, r.dealer_war_card,
                            ("dealer", 0, True) in hidden)

    def _card_slot(self, surface: pygame.Surface, rect: tuple[float, float, float, float],
                   card: Card | None, hidden: bool) -> None:
        x, y, w, _ = rect
        if card is None or hidden:
            return
        width = round(w)
        surface.blit(card_shadow(width), (round(x) + CARD_SHADOW[0], round(y) + CARD_SHADOW[1]))
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
        draw_text(surface, f"{shoe.remaining} of {total} cards", PLAYER_TEXT, theme.CREAM,
                  (box.right - 12, box.y + 16), "midright", Style.REGULAR)
        bar = pygame.Rect(box.x + 110, box.y + 40, box.width - 122, 18)
        pygame.draw.rect(surface, theme.INK, bar, border_radius=9)
        fill = bar.copy()
        fill.width = max(4, round(bar.width * shoe.remaining / total))
        pygame.draw.rect(surface, theme.GOLD_DARK, fill, border_radius=9)
        cut_x = bar.x + round(bar.width * (total - shoe.draw.cut_index) / total)
        pygame.draw.line(surface, theme.RED, (cut_x, bar.y - 4), (cut_x, bar.bottom + 4), 4)
        if shoe.cut_card_out or shown.shuffle_due:
            draw_text(surface, "CUT CARD OUT  ·  SHUFFLE AFTER THIS ROUND", PLAYER_TEXT, theme.WAR,
                      (bar.centerx, bar.bottom + 18))
        else:
            draw_text(surface, f"{len(shoe.draw.order) // 52} DECKS  ·  CUT CARD", PLAYER_TEXT,
                      theme.TEXT_DIM, (bar.centerx, bar.bottom + 18), style=Style.REGULAR)
        back = card_back(60)
        for i in range(3):
            surface.blit(back, (box.x + 12 + i * 6, box.y + 8 + i * 2))

    def _draw_history(self, surface: pygame.Surface) -> None:
        """The last rounds' dealer cards, newest first, each marked if it went to War (W), spun
        the wheel (★) or was void (V)."""
        x, y, w, _ = self.layout.history
        draw_text(surface, "LAST ROUNDS", PLAYER_TEXT, theme.CREAM, (x + 12, y + 14), "midleft")
        width = HISTORY_CARD_W
        fits = int((w - 12) // (width + 8))
        for i, entry in enumerate(list(self.history)[:fits]):
            left = round(x + 10 + i * (width + 8))
            top = round(y + 28)
            if entry.dealer is not None:
                surface.blit(card_face(Card.parse(entry.dealer), width), (left, top))
            marks = "V" if entry.voided else ("W" if entry.war else "") + (
                "★" if entry.bonus else "")
            if marks:
                tag = pygame.Rect(0, 0, width, 24)
                tag.midbottom = (left + width // 2, top + round(width * 1.4))
                pygame.draw.rect(surface, theme.INK, tag, border_radius=6)
                draw_text(surface, marks, PLAYER_TEXT, theme.WAR if "W" in marks else theme.GOLD,
                          tag.center)

    def _wheel_result_words(self, shown: TableState) -> str | None:
        """What each ring of the stopped wheel stopped on, from the recorded stops (None:
        no spin this round)."""
        stops = shown.round.wheel
        bonus = shown.paytable.bonus_spin
        if stops is None or bonus is None:
            return None
        return (f"COMMUNITY {bonus.community_ring[stops.community].symbol}  ·  "
                f"HOT SPOT SEAT {stops.seat}  ·  {bonus.hot_spot_ring[stops.hot_spot].symbol}")

    def _draw_wheel_result(self, surface: pygame.Surface, words: str | None) -> list[pygame.Rect]:
        """`words` (:meth:`_wheel_result_words`) on a plate under the stopped wheel. Returns
        the box of what it drew (none: nothing)."""
        if words is None:
            return []
        x, y, w, h = self.layout.wheel_box
        plate = pygame.Rect(round(x) + 40, round(y + h) - 44, round(w) - 80, 40)
        pygame.draw.rect(surface, theme.INK, plate, border_radius=12)
        pygame.draw.rect(surface, theme.GOLD, plate, width=2, border_radius=12)
        return [plate.union(draw_text(surface, words, PLAYER_TEXT, theme.WIN, plate.center,
                                      max_width=plate.width - 16))]

    def _draw_spots(self, surface: pygame.Surface, shown: TableState, hidden: set[CardKey],
                    settled: bool, view: FrameView) -> None:
        r = shown.round
        for spot in range(1, len(r.spot_cards) + 1):
            card_rect = self.layout.spot_card(spot)
            cx = _cx(card_rect)
            draw_text(surface, f"SPOT {spot}", PLAYER_TEXT, theme.CREAM, (cx, card_rect[1] - 12))
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
        self._draw_decision_clocks(surface, shown, view)

    def _draw_decision_clocks(self, surface: pygame.Surface, shown: TableState,
                              view: FrameView) -> None:
        """The decision countdown on each tied spot still waiting for a seat's choice."""
        remaining = view.remaining
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
        draw_text(surface, label, PLAYER_TEXT, colour, tag.center)

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
        draw_text(surface, format_cents(total, whole_dollars=True), PLAYER_TEXT, theme.CREAM,
                  (badge.x + 40, badge.centery), "midleft")
        for i, seat in enumerate(seats[-6:]):
            pygame.draw.circle(surface, theme.seat_colour(seat),
                               (badge.right - 10 - i * 14, badge.centery), 6)

def _bounds(*rects: tuple[float, float, float, float]) -> pygame.Rect:
    """The pixels around layout rectangles."""
    out = [pygame.Rect(round(x), round(y), round(w), round(h)) for x, y, w, h in rects]
    return out[0].unionall(out[1:])


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
