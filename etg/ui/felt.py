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
round: each round starts with the table minimum in hand.
"""

from __future__ import annotations

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
)
from etg.core.money import format_cents
from etg.core.paytable import Decision
from etg.core.state import TableState
from etg.ui import theme
from etg.ui.assets import Style, font
from etg.ui.canvas import Rect
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
