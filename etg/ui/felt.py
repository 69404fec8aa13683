"""Bets on the felt: what a seat can touch now, and the command each touch sends (SPEC §6).

While betting is open, a seat touches a chip on its rail to take it in hand,
then a circle on its piece of the felt to place that chip there: the Initial
circle, the Tie circle, or the Progressive Payout light (always its fixed
amount, MD Ch. 7 F(3)); the Bonus Spin spot takes exactly $1 or $5 (MD Ch. 7
F(4)). CLEAR, REPEAT and DOUBLE act on the seat's wagers. While a tie waits,
the seat touches WAR, SURRENDER or WAR with a Tie Wager on the tied spot
(MD Ch. 9 E, Ch. 7 F(2)).

Everything a finger can touch is a :class:`Target`: its button (where, how it
looks, its name) and the command a tap sends, built from the committed state
and the chip in hand. The screen hit-tests exactly these targets, and a tap
sends exactly that command: whether it is accepted is the engine's business.
The chip in hand is the only choice kept on the screen, and only for the
round: each round starts with the table minimum in hand. :func:`table_targets`
gathers the whole screen's: HELP, and each seat's bets or decisions, CASH OUT
and TIP.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from etg.core.commands import (
    BetKind,
    ClearWagers,
    Command,
    Decide,
    DoubleWagers,
    PlaceBonusSpin,
    PlaceWager,
    RepeatWagers,
    Tip,
)
from etg.core.money import format_cents
from etg.core.paytable import Decision
from etg.core.state import Phase, TableState
from etg.ui import theme
from etg.ui.assets import Style, font
from etg.ui.canvas import Rect
from etg.ui.layout import TableLayout
from etg.ui.seat_layout import SeatLayout
from etg.ui.widgets import Button


@dataclass(frozen=True)
class Target:
    """One thing on the table screen a finger can touch: its button and what a tap sends."""

    button: Button
    command: Command | None = None
    """Sent by a tap; None when the tap is the screen's own business (a chip taken in hand,
    HELP, CASH OUT's call for the attendant)."""
    felt: bool = False
    """Drawn as part of the felt (a circle, a chip on the rail), not as a button."""

    @property
    def name(self) -> str:
        return self.button.tag

    @property
    def rect(self) -> Rect:
        return self.button.rect


def betting_targets(seat: SeatLayout, state: TableState, chip: int) -> list[Target]:
    """The seat's chips, circles, Bonus Spin spot and CLEAR / REPEAT / DOUBLE while betting."""
    n = seat.seat
    out = [Target(Button(rect, "", f"seat:{n}:chip:{value}", hot=value == chip), felt=True)
           for value, rect in seat.chips]
    payout = state.paytable.progressive_payout
    for area in seat.spots:
        out.append(_circle(f"seat:{n}:initial:{area.spot}", area.initial,
                           PlaceWager(n, area.spot, BetKind.INITIAL, chip)))
        out.append(_circle(f"seat:{n}:tie:{area.spot}", area.tie,
                           PlaceWager(n, area.spot, BetKind.TIE, chip)))
        if area.payout is not None and payout is not None:
            out.append(_circle(f"seat:{n}:payout:{area.spot}", area.payout, PlaceWager(
                n, area.spot, BetKind.PROGRESSIVE_PAYOUT, payout.wager_cents)))
    out += [_circle(f"seat:{n}:bonus:{value}", rect, PlaceBonusSpin(n, value))
            for value, rect in seat.bonus]
    out += [Target(seat_button(seat.clear, "CLEAR", f"seat:{n}:clear"), ClearWagers(n)),
            Target(seat_button(seat.repeat, "REPEAT", f"seat:{n}:repeat"), RepeatWagers(n)),
            Target(seat_button(seat.double, "DOUBLE", f"seat:{n}:double"), DoubleWagers(n))]
    return out


def decision_targets(seat: SeatLayout, state: TableState, spots: list[int]) -> list[Target]:
    """WAR / SURRENDER (and WAR with a Tie Wager) on each of the seat's tied ``spots``.

    The Tie Wager on the War deal is the table's Tie minimum, said on the button.
    """
    n = seat.seat
    paytable = state.paytable
    tie = paytable.limits.tie.min_cents
    out: list[Target] = []
    for block in seat.decision_controls(spots, paytable.war_tie_wager):
        where = "" if block.inside else _spot_words(block.spot, block.war[2])
        out.append(Target(Button(block.war, "WAR", f"seat:{n}:war:{block.spot}",
                                 colour=theme.WAR, size=22, sublabel=where),
                          Decide(n, block.spot, Decision.WAR)))
        out.append(Target(Button(block.surrender, "SURRENDER", f"seat:{n}:surrender:{block.spot}",
                                 colour=theme.SURRENDER, size=theme.PLAYER_TEXT,
                                 style=Style.CONDENSED, sublabel=where),
                          Decide(n, block.spot, Decision.SURRENDER)))
        if block.war_tie is not None:
            words = f"WAR + {format_cents(tie, whole_dollars=True)} TIE"
            out.append(Target(Button(block.war_tie, words, f"seat:{n}:wartie:{block.spot}",
                                     colour=theme.PANEL_LIGHT, size=theme.PLAYER_TEXT,
                                     style=Style.CONDENSED, sublabel=where),
                              Decide(n, block.spot, Decision.WAR, tie)))
    return out


def _spot_words(spot: int, width: float) -> str:
    """Which spot a decision block is for, under WAR: SPOT n, or n where the words do not fit
    at the players' size (the tied spot is ringed on the seat's felt as well)."""
    words = f"SPOT {spot}"
    if font(theme.PLAYER_TEXT, Style.CONDENSED).size(words)[0] + 10 <= width:
        return words
    return str(spot)


def seat_button(rect: Rect, words: str, tag: str, enabled: bool = True) -> Button:
    """A seat's CLEAR / REPEAT / DOUBLE at the players' text size: the word where it fits,
    else the sign every gaming machine uses for it (a nine-seat panel is 209 px wide)."""
    face = font(theme.PLAYER_TEXT, Style.CONDENSED)
    label = words if face.size(words)[0] + 10 <= rect[2] else SIGNS[words]
    return Button(rect, label, tag, enabled=enabled, size=theme.PLAYER_TEXT + 4 * (
        label is not words), style=Style.CONDENSED)


SIGNS = {"CLEAR": "✕", "REPEAT": "↺", "DOUBLE": "×2"}
"""CLEAR, REPEAT and DOUBLE where their words do not fit at the players' size."""


def _circle(name: str, rect: Rect, command: Command) -> Target:
    return Target(Button(rect, "", name), command, felt=True)


HELP_BUTTON = (1720.0, 8.0, 180.0, 48.0)

_CASH_OUT_MIN = 116.0  # CASH OUT keeps this much of its row when TIP buttons share it
_TIP_W, _TIP_GAP = 76.0, 6.0


def table_targets(layout: TableLayout, state: TableState, in_hand: Mapping[int, int],
                  tip_amounts: Sequence[int]) -> list[Target]:
    """Everything players can touch on the table screen now, in drawing order: HELP, then
    each seat's decisions or bets, CASH OUT and TIP.

    Only what players touch: the dealer's console and the operator menu are not here
    (SPEC §6: the dealer's keypad, screen or panel; the attendant key).
    """
    out = [Target(Button(HELP_BUTTON, "HELP", "help", size=24))]
    pending = state.pending_decisions()
    for seat in layout.seat_layouts:
        mine = sorted(spot for s, spot in pending if s == seat.seat)
        if mine:
            out.extend(decision_targets(seat, state, mine))
        elif state.phase is Phase.BETTING:
            out.extend(betting_targets(seat, state, in_hand[seat.seat]))
        tips = tip_targets(seat, state, tip_amounts)
        out.append(Target(cash_out_button(seat, len(tips))))
        out.extend(tips)
    return out


def targets_made_of(state: TableState) -> tuple[object, ...]:
    """All that :func:`table_targets` reads of the table (besides the chips in hand and the
    tip amounts): equal, the same targets.

    The paytable is compared by identity first (a tuple's items are), so a round on
    the same paytable costs no dataclass comparison.
    """
    return (state.paytable, state.phase is Phase.BETTING, state.pending_decisions(),
            state.dealer is None)


def tip_targets(seat: SeatLayout, state: TableState, tip_amounts: Sequence[int]) -> list[Target]:
    """TIP beside CASH OUT, the cabinet's amounts (as many as fit a finger wide, smallest
    first), while a dealer is at the table. MD Ch. 2 D: a tip for the dealer, from the
    seat's credits."""
    amounts = sorted(tip_amounts)
    if state.dealer is None or not amounts:
        return []
    x, y, w, h = seat.cash_out
    fit = max(0, min(len(amounts), int((w - _CASH_OUT_MIN) // (_TIP_W + _TIP_GAP))))
    right = x + w
    return [Target(Button((right - (fit - i) * (_TIP_W + _TIP_GAP) + _TIP_GAP, y, _TIP_W, h),
                          f"TIP {format_cents(cents, whole_dollars=True)}",
                          f"seat:{seat.seat}:tip:{cents}", colour=theme.PANEL_LIGHT,
                          size=theme.PLAYER_TEXT, style=Style.CONDENSED),
                   Tip(seat.seat, cents))
            for i, cents in enumerate(amounts[:fit])]


def cash_out_button(seat: SeatLayout, tips: int = 0) -> Button:
    """CASH OUT on the seat's row, narrowed by ``tips`` TIP buttons beside it."""
    x, y, w, h = seat.cash_out
    width = w - tips * (_TIP_W + _TIP_GAP)
    one_line = font(theme.PLAYER_TEXT, Style.CONDENSED).size("CASH OUT")[0] + 10 <= width
    return Button((x, y, width, h), "CASH OUT" if one_line else "CASH",
                  f"seat:{seat.seat}:cashout", colour=theme.PANEL_LIGHT,
                  size=theme.PLAYER_TEXT, style=Style.CONDENSED,
                  sublabel="" if one_line else "OUT")
