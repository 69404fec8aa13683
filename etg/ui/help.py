"""Help and paytable screens, written from the active paytable (SPEC §6).

"Help / paytable screens generated from the active YAML, so what an operator
edits is what players read": every amount, odds, count and time on these
pages is read from the :class:`~etg.core.paytable.Paytable` the table plays,
never typed into the text. The law asks for exactly this: the layout or a sign
"advises players of the payout odds or amounts for all permissible wagers" and
"indicates the payout limit per hand" (MD Ch. 2 B(5)(a)-(b), B(6)); South
Dakota's "payment schedule must be displayed on the table layout or a table
sign" (S.D. Admin. R. 20:18:16:15.17(5)).

The pages are data first: :func:`help_pages` returns :class:`HelpPage` values
(headings, paragraphs, numbered steps, charts with aligned columns, and
places for live meters), so a test reads the words without drawing anything,
and :class:`HelpScene` only lays them out like a casino's printed rack card.
The results of a tie hand in money come from :func:`etg.math.exact.main_game_nets`,
which settles them through :mod:`etg.core.settle`, so the example a player
reads is what the engine pays. A rendered page is cached per paytable; the
meters are the only live part of a frame.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

import pygame

from etg.core.cards import Rank
from etg.core.money import format_cents
from etg.core.paytable import (
    BonusSpin,
    Decision,
    DesignatedCard,
    Jurisdiction,
    Layout,
    Odds,
    PayoutHand,
    PayoutLimitScope,
    Paytable,
    ProgressiveLevel,
    ProgressivePayout,
    WarForm,
    WheelSegment,
)
from etg.math.bonus import trigger_probability
from etg.math.exact import main_game_nets
from etg.ui import theme
from etg.ui.assets import Style, fit_text, font, text
from etg.ui.canvas import LOGICAL_H, LOGICAL_W
from etg.ui.scene import Close, Input, KeyPress, Scene, Tap
from etg.ui.theme import shade
from etg.ui.widgets import Button, draw_button, draw_panel, draw_text

if TYPE_CHECKING:
    from etg.ui.scene import Context

Align = Literal["left", "right", "center"]


# --------------------------------------------------------------------------- the page model


@dataclass(frozen=True, slots=True)
class Heading:
    """A gold section title inside a column."""

    text: str


@dataclass(frozen=True, slots=True)
class Paragraph:
    """Running text, word-wrapped; ``note`` is the smaller, dimmer print of a rack card."""

    text: str
    note: bool = False


@dataclass(frozen=True, slots=True)
class Steps:
    """Numbered steps: (headline, text) each."""

    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Chart:
    """A table with a header row and aligned columns.

    A row shorter than the headers lets its last cell span the columns left over.
    ``details`` (one per row, may be empty) is small print under a row's first cell;
    ``strong`` rows (the jackpots) are drawn in gold.
    """

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: tuple[Align, ...]
    strong: tuple[int, ...] = ()
    details: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Callout:
    """A framed box with a gold ``title`` and wrapped text: one option, one rule."""

    title: str
    text: str


@dataclass(frozen=True, slots=True)
class LiveMeter:
    """A progressive meter shown live: its ``label``, a note, and the amount drawn each frame."""

    level: ProgressiveLevel
    label: str
    note: str = ""


Block = Heading | Paragraph | Steps | Chart | Callout | LiveMeter


@dataclass(frozen=True, slots=True)
class HelpPage:
    """One help page: its ``title``, the short ``tab`` label, and columns of blocks."""

    title: str
    tab: str
    columns: tuple[tuple[Block, ...], ...]
    widths: tuple[int, ...] = ()  # relative column widths; empty: equal
    footer: str = ""

    @property
    def blocks(self) -> Iterator[Block]:
        for column in self.columns:
            yield from column

    @property
    def text(self) -> str:
        """Every word on the page, one block per line (what tests and screen readers read)."""
        lines = [self.title]
        for block in self.blocks:
            if isinstance(block, Heading | Paragraph):
                lines.append(block.text)
            elif isinstance(block, Steps):
                lines.extend(f"{head}: {body}" for head, body in block.items)
            elif isinstance(block, Chart):
                lines.append(" | ".join(block.headers))
                details = block.details or ("",) * len(block.rows)
                lines.extend(" | ".join(row) + (f" ({detail})" if detail else "")
                             for row, detail in zip(block.rows, details, strict=True))
            elif isinstance(block, Callout):
                lines.append(f"{block.title}: {block.text}")
            else:
                lines.append(f"{block.label}: {block.note}")
        lines.append(self.footer)
        return "\n".join(lines)

    @property
    def meters(self) -> tuple[ProgressiveLevel, ...]:
        return tuple(b.level for b in self.blocks if isinstance(b, LiveMeter))


def help_pages(paytable: Paytable) -> list[HelpPage]:
    """The help pages of ``paytable``: how to play, pays, the side wagers it offers, limits."""
    footer = f"{paytable.name}  ·  paytable {paytable.id}  ·  {_RULES[paytable.jurisdiction]}"
    pages = [_how_to_play(paytable), _pays(paytable)]
    if paytable.bonus_spin is not None:
        pages.append(_bonus_spin(paytable, paytable.bonus_spin))
    if paytable.progressive_payout is not None:
        pages.append(_progressive_payout(paytable, paytable.progressive_payout))
    pages.append(_limits(paytable))
    return [HelpPage(p.title, p.tab, p.columns, p.widths, footer) for p in pages]


def highlights(paytable: Paytable) -> list[str]:
    """Short lines of what the paytable pays, for the attract mode to cycle through."""
    p = paytable.payouts
    out = [f"BEAT THE DEALER · PAYS {_odds(p.initial)}".upper(),
           f"TIE WAGER PAYS {_odds(p.tie)}".upper()]
    war_win, war_tie = _war_odds_words(paytable)
    out.append(f"WIN THE WAR · {war_win}".upper())
    out.append(f"TIE THE WAR · {war_tie}".upper())
    bonus = paytable.bonus_spin
    if bonus is not None:
        out.append(f"{_trigger_words(bonus)} spins the Bonus Spin Xtreme wheel".upper())
        top = bonus.column(max(bonus.denominations_cents))
        top_community = max(s.pay_cents(top) for s in bonus.community_ring)
        out.append(f"Community Pay up to {_money(top_community)} for every player".upper())
        jackpots = [s.symbol for s in bonus.hot_spot_ring if s.progressive is not None]
        top_hot = max(s.pay_cents(top) for s in bonus.hot_spot_ring)
        out.append(f"Hot Spot wins {_or([*jackpots, 'up to ' + _money(top_hot)])}".upper())
    payout = paytable.progressive_payout
    if payout is not None:
        for hand in PayoutHand:
            pay = payout.pays.of(hand)
            meter = ""
            if pay.meter_percent == 100:
                meter = " + THE PROGRESSIVE"
            elif pay.meter_percent:
                meter = f" + {pay.meter_percent}% OF THE PROGRESSIVE"
            out.append(f"{hand.label} pays {pay.pays} to {pay.to}".upper() + meter)
            if payout.envy_cents.of(hand):
                out.append(f"Envy Bonus {_money(payout.envy_cents.of(hand))} when another "
                           f"player hits a {hand.label}".upper())
    return out


def feature_pays(paytable: Paytable) -> list[tuple[str, str]]:
    """The main game's headline pays as (label, odds), for a sign with no jackpot to show."""
    p = paytable.payouts
    war_win, war_tie = _war_odds(paytable)
    return [("TIE WAGER PAYS", _odds(p.tie).upper()),
            ("WIN THE WAR", war_win.upper()),
            ("TIE THE WAR", war_tie.upper())]


def limits_line(paytable: Paytable) -> str:
    """The table limits in one line, e.g. ``TABLE LIMITS $5 – $500  ·  TIE $1 – $100``."""
    lim = paytable.limits
    return (f"TABLE LIMITS {_money(lim.initial.min_cents)} – {_money(lim.initial.max_cents)}"
            f"  ·  TIE {_money(lim.tie.min_cents)} – {_money(lim.tie.max_cents)}")


def meter_label(paytable: Paytable, level: ProgressiveLevel) -> str:
    """A meter's name as players see it: the Hot Spot symbol that pays it, else its wager."""
    if paytable.bonus_spin is not None and level is not ProgressiveLevel.PROGRESSIVE_PAYOUT:
        for segment in paytable.bonus_spin.hot_spot_ring:
            if segment.progressive is level:
                return segment.symbol.upper()
    return level.value.replace("_", " ").upper()


# --------------------------------------------------------------------------- the pages

# MD Ch. 10 D(4) and C(2), as etg.core.progressive.award pays a meter.
_METER_RULE = ("A meter award is figured on what the meter shows when that player is paid; "
               "the meter keeps the rest, topped up to its reset amount if it falls below.")

# Where each jurisdiction's rules are published (the small print of every page).
_RULES = {
    Jurisdiction.MARYLAND: "Maryland Standard Rules – Casino War",
    Jurisdiction.PENNSYLVANIA: "58 Pa. Code Chapter 651a, Casino War",
    Jurisdiction.PENNSYLVANIA_2011: "58 Pa. Code Chapter 651a (2011 proposed rules)",
    Jurisdiction.SOUTH_DAKOTA: "S.D. Admin. R. 20:18:16:15.17, Casino War",
}

# What makes each Progressive Payout Hand, as :func:`etg.core.hands.payout_hand` decides it
# (MD Ch. 10 B(1)-(6)); the amounts come from the paytable.
_HAND_CARDS = {
    PayoutHand.SUITED_FOUR_OF_A_KIND: "a tie, then a War tie: all four cards one rank and suit",
    PayoutHand.SUITED_DOUBLE_TIE: "a suited tie, then a suited War tie",
    PayoutHand.FOUR_OF_A_KIND: "a tie, then a War tie: all four cards one rank",
    PayoutHand.DOUBLE_TIE: "a tie, then a War tie",
    PayoutHand.SUITED_TIE: "a tie in the same suit",
    PayoutHand.TIE: "a tie",
}


def _how_to_play(p: Paytable) -> HelpPage:
    t = p.timers
    lim = p.limits
    community = p.layout is Layout.COMMUNITY
    # MD Ch. 7 E: how many spots one seat may play; MD Ch. 7 F(1)-(4): which wagers go with it.
    if community:
        where = (f"on one of the {p.spots} numbered spots" if p.max_spots_per_seat == 1
                 else f"on up to {p.max_spots_per_seat}"
                      f"{' adjacent' if p.adjacent_spots_only else ''} spots of the "
                      f"{p.spots} numbered spots")
    else:
        where = "in your betting circle"
    bet = (f"You have {t.betting_s} seconds. Place an Initial Wager {where} "
           f"({_money(lim.initial.min_cents)} to {_money(lim.initial.max_cents)}). "
           f"With it you may add a Tie Wager")
    extras = []
    if p.progressive_payout is not None:
        extras.append(f"a {_money(p.progressive_payout.wager_cents)} Progressive Payout Wager")
    bet += (" and " + _or(extras) if extras else "") + (
        " on the same spot." if community else ".")
    if p.bonus_spin is not None:
        bet += (f" Once a round you may also bet {_or(_denominations(p.bonus_spin))} on the "
                f"Bonus Spin Xtreme.")
    # MD Ch. 8 E-F (community: MD Ch. 9 L): the original deal.
    if community:
        deal = (f"One card is dealt face up to each of the {p.spots} spots, then one to the "
                f"dealer. Everyone betting on a spot plays that spot's card.")
    else:
        deal = ("Each player with an Initial Wager receives one card face up, then the dealer "
                "receives one.")
    yours = "the spot's card" if community else "your card"
    # MD Ch. 9 B(1)-(3); 58 Pa. Code § 651a.9; S.D. 20:18:16:15.17(4)(a)-(c)
    compare = (f"If {yours} is higher than the dealer's, your Initial Wager wins "
               f"{_odds(p.payouts.initial)}; if it is lower, the Initial Wager loses. "
               f"The Tie Wager loses unless the cards tie.")
    tie = (f"Your Tie Wager wins {_odds(p.payouts.tie)}. Then choose WAR or SURRENDER "
           f"within {t.decision_s} seconds. If you do not choose in time, "
           f"{_default_words(p)}.")
    tied = "each spot going to War" if community else "each player going to War"
    war = (f"Three cards are burned, then one War card is dealt face up to {tied} and one "
           f"to the dealer.")
    steps = [("PLACE YOUR BETS", bet),
             ("NO MORE BETS", "When the time is up or the dealer closes betting, every wager "
                              "is locked: none can be placed, raised or taken back."),
             ("THE DEAL", deal), ("HIGHER OR LOWER", compare), ("A TIE", tie),
             ("THE WAR", war)]
    sides = []
    if p.progressive_payout is not None:
        sides.append("Progressive Payout Wagers are paid")
    if p.bonus_spin is not None:
        sides.append(f"the wheel spins if the dealer's card was {_trigger_words(p.bonus_spin)}")
    if sides:
        steps.append(("SIDE WAGERS", "After the War, " + " and ".join(sides) + "."))
    # MD Ch. 9 E(1)-(2); 58 Pa. Code § 651a.9(c); S.D. 20:18:16:15.17(4)(a)
    right: list[Block] = [Heading("A TIE: WAR OR SURRENDER?"),
                          Callout("SURRENDER", "Half of your Initial Wager is returned and half "
                                               "is lost; that hand is over."),
                          Callout("WAR", _war_words(p)),
                          Paragraph(f"The shoe holds {p.shoe.decks} decks of 52 cards "
                                    f"({p.shoe.cards} cards), shuffled by the game. Aces are "
                                    f"high, 2s low; suits are all equal.", note=True)]
    return HelpPage("HOW TO PLAY", "HOW TO PLAY", ((Steps(tuple(steps)),), tuple(right)),
                    widths=(56, 44))


def _pays(p: Paytable) -> HelpPage:
    o = p.payouts
    war_win, war_tie = _war_odds(p)
    rows: list[tuple[str, str, str]] = [
        ("Initial Wager", "beats the dealer's card", _odds(o.initial)),
        ("Tie Wager", "ties the dealer's card", _odds(o.tie)),
        ("War Wager", "War card beats the dealer's", war_win),
        ("Tie War", "War card ties the dealer's", war_tie),
    ]
    if p.war_tie_wager:
        rows.append(("Tie Wager on the War", "War card ties the dealer's", _odds(o.tie)))
    rows.append(("Surrender", "ties and you Surrender", "half returned"))
    chart = Chart(("WAGER", "WINS WHEN YOUR CARD", "PAYS"), tuple(rows),
                  ("left", "left", "right"), strong=(1,))
    form_note = {
        WarForm.INITIAL_PUSHED: "When you win or tie the War, your Initial Wager is returned "
                                "and the War Wager is paid.",
        WarForm.INITIAL_FORFEITED: "Your Initial Wager is collected when you go to War; the "
                                   "War Wager is paid these odds.",
        WarForm.DEALER_MATCHED: "On a War the dealer matches your wager: War odds are paid on "
                                "your Initial and War Wagers together, and the Initial Wager "
                                "is returned.",
    }[p.war_form]
    left: list[Block] = [Heading("MAIN GAME"), chart, Paragraph(form_note, note=True),
                         Heading("PAYOUT LIMIT"), Paragraph(_limit_words(p))]
    stake = p.limits.initial.min_cents
    tie_stake = p.limits.tie.min_cents
    nets = main_game_nets(p)
    original = {o.value: net for o, net in nets.original.items()}
    war = {o.value: net for o, net in nets.war.items()}
    example: list[tuple[str, str]] = [
        ("Your card is higher", _gain(original["higher"] * stake)),
        ("Your card is lower", _gain(original["lower"] * stake)),
        ("A tie: you Surrender", _gain(nets.surrender * stake)),
        ("A tie: War, your card higher", _gain(war["higher"] * stake)),
        ("A tie: War, the cards tie", _gain(war["tie"] * stake)),
        ("A tie: War, your card lower", _gain(war["lower"] * stake)),
    ]
    right: list[Block] = [
        Heading(f"ON A {_money(stake)} INITIAL WAGER"),
        Chart(("RESULT", "YOU WIN / LOSE"), tuple(example), ("left", "right")),
        Paragraph(f"A {_money(tie_stake)} Tie Wager wins "
                  f"{_money(int(nets.tie_win * tie_stake))} on a tie and loses "
                  f"{_money(tie_stake)} otherwise. Winning wagers are returned with their "
                  f"winnings.", note=True),
    ]
    return HelpPage("PAYS", "PAYS", (tuple(left), tuple(right)), widths=(58, 42))


def _bonus_spin(p: Paytable, b: BonusSpin) -> HelpPage:
    chance = trigger_probability(b, p.shoe.decks)
    denominations = " or ".join(_denominations(b))
    # Every segment of a ring is drawn the same width on the wheel (SPEC §6: visual width is
    # not the weight), so the odds are printed here: each segment's weight, and its chance
    # as an exact fraction of the ring's total weight and as a percent.
    headers = ("SYMBOL", "WEIGHT", "CHANCE", "%", *(f"{_money(d)} WAGER"
                                                    for d in b.denominations_cents))
    flush: Align = "right"
    align: tuple[Align, ...] = ("left", flush, flush, flush,
                                *(flush,) * len(b.denominations_cents))
    # MD Ch. 10 E(1): Community Pay, to every Bonus Spin wager.
    community = Chart(headers, _ring_rows(b.community_ring, b), align)
    # MD Ch. 10 D(1): Hot Spot Pay, to the Hot Spot seat's wager only (SPEC §3).
    hot = Chart(headers, _ring_rows(b.hot_spot_ring, b), align,
                strong=tuple(i for i, s in enumerate(b.hot_spot_ring) if s.progressive))
    left: list[Block] = [
        Paragraph(f"THE WHEEL SPINS when the dealer's card is {_trigger_words(b)}: "
                  f"{_chance(chance)}. Bet {denominations} once a round, with an Initial Wager. "
                  f"Each Bonus Spin wager is collected; wins are paid as amounts on top. "
                  f"On the wheel all segments of a ring are the same size; their chances are "
                  f"in the tables."),
        Heading("COMMUNITY RING · every Bonus Spin wager wins"),
        community,
        Heading("SEAT RING · picks the Hot Spot"),
        Paragraph(f"{p.seats} equal segments, one per seat ({_chance(Fraction(1, p.seats))} "
                  f"each), wagering or not. A Hot Spot seat with a Bonus Spin wager also wins "
                  f"the Hot Spot ring."),
    ]
    right: list[Block] = [Heading("HOT SPOT RING · the Hot Spot seat wins"), hot]
    for level in (ProgressiveLevel.PRIMARY, ProgressiveLevel.SECONDARY):
        meter = b.meter(level)
        right.append(LiveMeter(level, meter_label(p, level),
                               f"{level.value} progressive · resets to "
                               f"{_money(meter.reset_cents)}"))
    right.append(Paragraph(_METER_RULE, note=True))
    return HelpPage("BONUS SPIN XTREME", "BONUS SPIN", (tuple(left), tuple(right)),
                    widths=(50, 50))


def _progressive_payout(p: Paytable, w: ProgressivePayout) -> HelpPage:
    where = "on a spot with an Initial Wager" if p.layout is Layout.COMMUNITY else (
        "with your Initial Wager")
    stake = _money(w.wager_cents)
    rows: list[tuple[str, str, str, str]] = []
    for hand in PayoutHand:
        pay = w.pays.of(hand)
        meter = f" + {pay.meter_percent}% of meter" if pay.meter_percent else ""
        amount = _money(w.wager_cents * pay.pays // pay.to) + _meter_share(pay.meter_percent)
        envy = w.envy_cents.of(hand)
        rows.append((hand.label.upper(), f"{pay.pays} to {pay.to}{meter}", amount,
                     _money(envy) if envy else "–"))
    # MD Ch. 10 B(1)-(6): the hands and their odds; C(3): the Envy Bonus.
    chart = Chart(("HAND", "PAYS", f"ON {stake}", "ENVY BONUS"), tuple(rows),
                  ("left", "right", "right", "right"),
                  strong=tuple(i for i, h in enumerate(PayoutHand) if w.pays.of(h).meter_percent),
                  details=tuple(_HAND_CARDS[hand] for hand in PayoutHand))
    spot = "the spot's card" if p.layout is Layout.COMMUNITY else "your card"
    left: list[Block] = [
        Paragraph(f"Bet {stake} {where}. The hand is {spot} with the dealer's card, and after "
                  f"a War the two War cards as well. Only the highest hand pays."),
        chart,
        Paragraph("A Double Tie, and either Four-of-a-Kind, needs you to go to War on the "
                  "tie.", note=True),
    ]
    right: list[Block] = [
        Heading("THE METER"),
        LiveMeter(ProgressiveLevel.PROGRESSIVE_PAYOUT,
                  meter_label(p, ProgressiveLevel.PROGRESSIVE_PAYOUT),
                  f"resets to {_money(w.meter.reset_cents)}"),
        Paragraph(_METER_RULE + " Players are paid from the dealer's right.", note=True),
    ]
    envy_hands = [hand for hand in PayoutHand if w.envy_cents.of(hand)]
    if envy_hands:
        # MD Ch. 9 J(4)(e)(i)-(iii)
        amounts = _or([f"{_money(w.envy_cents.of(hand))} for each {hand.label}"
                       for hand in envy_hands])
        right.append(Callout("ENVY BONUS",
                             f"Every player with a Progressive Payout Wager wins {amounts} "
                             f"held by another player at the table; never for their own."))
    return HelpPage("PROGRESSIVE PAYOUT", "PROGRESSIVE", (tuple(left), tuple(right)),
                    widths=(66, 34))


def _limits(p: Paytable) -> HelpPage:
    lim = p.limits
    community = p.layout is Layout.COMMUNITY
    per = "per spot" if community else "per hand"
    rows: list[tuple[str, ...]] = [
        (f"Initial Wager, {per}", _money(lim.initial.min_cents), _money(lim.initial.max_cents)),
        (f"Tie Wager, {per}", _money(lim.tie.min_cents), _money(lim.tie.max_cents)),
        ("War Wager", "equal to the Initial Wager"),
    ]
    if p.war_tie_wager:
        rows.append(("Tie Wager on the War", _money(lim.tie.min_cents),
                     _money(lim.tie.max_cents)))
    if p.progressive_payout is not None:
        cents = p.progressive_payout.wager_cents
        rows.append((f"Progressive Payout, {per}", _money(cents), _money(cents)))
    if p.bonus_spin is not None:
        d = p.bonus_spin.denominations_cents
        rows.append(("Bonus Spin Xtreme, per round", _money(min(d)), _money(max(d))))
    wagers = Chart(("WAGER", "MINIMUM", "MAXIMUM"), tuple(rows), ("left", "right", "right"))
    table: list[tuple[str, str]] = [("Game", p.name)]
    if community:
        table += [("Community spots", str(p.spots)), ("Seats", str(p.seats)),
                  ("Spots one seat may play", str(p.max_spots_per_seat))]
    else:
        table.append(("Seats", str(p.seats)))
    table += [
        ("Decks", f"{p.shoe.decks} ({p.shoe.cards} cards)"),
        ("Wagers in multiples of", _money(p.unit_cents)),
        (_limit_label(p), _money(p.payout_limit_rules.amount_cents)),
        ("Betting time", f"{p.timers.betting_s} seconds"),
        ("Time to choose War or Surrender", f"{p.timers.decision_s} seconds"),
        ("When time runs out", "Surrender" if p.default_decision is Decision.SURRENDER
         else "War, if credits allow"),
    ]
    if p.bonus_spin is not None:
        table.append(("Bonus Spin wager", _or(_denominations(p.bonus_spin))))
    left: list[Block] = [Heading("WAGERS"), wagers,
                         Paragraph("A Tie Wager is placed only with an Initial Wager on the same "
                                   "spot." if community else "A Tie Wager is placed only with "
                                   "an Initial Wager.", note=True)]
    right: list[Block] = [Heading("THE TABLE"), Chart(("", ""), tuple(table), ("left", "right"))]
    return HelpPage("TABLE LIMITS", "LIMITS", (tuple(left), tuple(right)), widths=(50, 50))


# --------------------------------------------------------------------------- words


_RANK_NAMES = {Rank.ACE: "Ace", Rank.KING: "King", Rank.QUEEN: "Queen", Rank.JACK: "Jack"}


def _money(cents: int) -> str:
    return format_cents(cents, whole_dollars=True)


def _gain(cents: Fraction) -> str:
    """``+$5``, ``−$2.50`` (a true minus sign), ``$0`` for a push."""
    whole = int(cents)  # the stakes are chosen so that every result is whole cents
    if whole > 0:
        return "+" + _money(whole)
    if whole < 0:
        return "−" + _money(-whole)
    return _money(0)


def _odds(odds: Odds) -> str:
    return f"{odds.pays} to {odds.to}"


def _or(words: Sequence[str]) -> str:
    items = list(words)
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def _denominations(b: BonusSpin) -> list[str]:
    return [_money(d) for d in b.denominations_cents]


def _card_words(card: DesignatedCard) -> str:
    rank = Rank.parse(card.rank)
    return f"a {card.colour.value} {_RANK_NAMES.get(rank, rank.label)}"


def _trigger_words(b: BonusSpin) -> str:
    return _or([_card_words(c) for c in b.trigger])


def _chance(p: Fraction) -> str:
    """``1 in 26`` for a small chance, ``49.5%`` for a large one."""
    if p <= 0:
        return "never"
    if p.numerator == 1:
        return f"1 in {p.denominator}"
    if p < Fraction(1, 10):
        return f"1 in {float(1 / p):.1f}"
    return f"{float(p) * 100:.1f}%"


def _meter_share(percent: int) -> str:
    """`` + meter`` for the whole meter, `` + 50%`` for a share, nothing for none."""
    if not percent:
        return ""
    return " + meter" if percent == 100 else f" + {percent}%"


def _percent(p: Fraction) -> str:
    """A ring segment's chance, ``0.83%`` or ``49.5%``: one format down a chart's column."""
    digits = 2 if p < Fraction(1, 100) else 1
    return f"{float(p) * 100:.{digits}f}%"


def _default_words(p: Paytable) -> str:
    """What the table decides when the decision time ends (SPEC §2 step 5)."""
    if p.default_decision is Decision.SURRENDER:
        return "you Surrender"
    return "you go to War if your credits cover the War Wager, otherwise you Surrender"


def _war_words(p: Paytable) -> str:
    """Going to War under the paytable's War form, as :func:`etg.core.settle.settle_war` pays it.

    ``initial_pushed``: MD Ch. 9 I(1)-(3), 58 Pa. Code § 651a.9(g); ``initial_forfeited``:
    PA 2011 proposal § 651a.9(c)(2), (e), (g); ``dealer_matched``: S.D. 20:18:16:15.17(4)(d).
    """
    o = p.payouts
    tie_wager = (f" You may add a new Tie Wager; it wins {_odds(o.tie)} if the War cards tie."
                 if p.war_tie_wager else "")
    if p.war_form is WarForm.INITIAL_PUSHED:
        return (f"Place a War Wager equal to your Initial Wager.{tie_wager} If your War card is "
                f"higher, the Initial Wager is returned and the War Wager wins {_odds(o.war)}. "
                f"If the War cards tie, the Initial Wager is returned and the War Wager wins "
                f"{_odds(o.war_tie)}. If your War card is lower, the Initial and War Wagers "
                f"lose.")
    if p.war_form is WarForm.INITIAL_FORFEITED:
        return (f"Place a War Wager equal to your Initial Wager; the Initial Wager is "
                f"collected as you go to War.{tie_wager} If your War card is higher, the War "
                f"Wager wins {_odds(o.war)}. If the War cards tie, the War Wager wins "
                f"{_odds(o.war_tie)}. If your War card is lower, the War Wager loses.")
    return (f"Place a War Wager equal to your Initial Wager and the dealer matches it."
            f"{tie_wager} If your War card is higher, the Initial Wager is returned and you win "
            f"{_odds(o.war)} on your Initial and War Wagers together. If the War cards tie, "
            f"the Initial Wager is returned and you win {_odds(o.war_tie)} on both together. "
            f"If your War card is lower, both wagers lose.")


def _war_odds(p: Paytable) -> tuple[str, str]:
    """The PAYS column of a War win and a War tie under the paytable's War form."""
    o = p.payouts
    if p.war_form is WarForm.DEALER_MATCHED:
        return f"{_odds(o.war)} on both wagers", f"{_odds(o.war_tie)} on both wagers"
    return _odds(o.war), _odds(o.war_tie)


def _war_odds_words(p: Paytable) -> tuple[str, str]:
    win, tie = _war_odds(p)
    return f"War Wager pays {win}", f"War Wager pays {tie}"


def _limit_label(p: Paytable) -> str:
    """What the posted limit caps, in the regulation's words where it is per hand."""
    if p.payout_limit_rules.scope is PayoutLimitScope.HAND:
        return "Payout limit per hand"  # MD Ch. 2 B(5)(b)
    return "Payout limit per seat per round"


def _limit_words(p: Paytable) -> str:
    """The payout limit per hand (MD Ch. 2 B(5)(b), B(6)), and what is paid outside it."""
    rules = p.payout_limit_rules
    amount = _money(rules.amount_cents)
    if rules.scope is PayoutLimitScope.HAND:
        hand = ("one seat's wagers on one spot" if p.layout is Layout.COMMUNITY
                else "your wagers on your card")
        words = f"The most one hand can win is {amount}; a hand is {hand}."
    else:
        words = f"The most one seat can win in a round is {amount}."
    meters = p.bonus_spin is not None or p.progressive_payout is not None
    side = [name for name, offered, counts in (
        ("Bonus Spin wins", p.bonus_spin is not None, rules.bonus_spin_inside),
        ("Envy Bonuses", p.progressive_payout is not None, rules.envy_bonus_inside))
        if offered and counts]
    outside = [name for name, offered, counts in (
        ("Bonus Spin wins", p.bonus_spin is not None, rules.bonus_spin_inside),
        ("Envy Bonuses", p.progressive_payout is not None, rules.envy_bonus_inside),
        ("progressive meter awards", meters, p.progressive_in_payout_limit))
        if offered and not counts]
    by_hand = rules.scope is PayoutLimitScope.HAND
    if side:
        words += (f" {_first_up(_and(side))} count toward the same limit, for each seat apart "
                  f"from its hands." if by_hand else f" {_first_up(_and(side))} count toward it.")
    if meters and p.progressive_in_payout_limit:
        words += (" Progressive meter awards count toward the limit of the hand or Bonus Spin "
                  "that wins them." if by_hand else " Progressive meter awards count toward it.")
    if outside:
        words += f" {_first_up(_and(outside))} are paid in full on top of it."
    return words


def _first_up(words: str) -> str:
    return words[:1].upper() + words[1:]


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ring_rows(segments: tuple[WheelSegment, ...],
               b: BonusSpin) -> tuple[tuple[str, ...], ...]:
    """Symbol, weight, chance (weight over the ring's total, as a fraction and a percent)
    and pay per denomination of each segment."""
    total = sum(s.weight for s in segments)
    rows = []
    for s in segments:
        if s.meter_percent is not None:
            pays = [f"{pct}% of meter" for pct in s.meter_percent]
        else:
            pays = [_money(s.pay_cents(c)) for c in range(len(b.denominations_cents))]
        chance = Fraction(s.weight, total)
        rows.append((s.symbol, str(s.weight), _fraction(chance), _percent(chance), *pays))
    return tuple(rows)


def _fraction(p: Fraction) -> str:
    """An exact chance in lowest terms: ``1/60``."""
    return f"{p.numerator}/{p.denominator}"


# --------------------------------------------------------------------------- the scene

BUTTON_H = 68  # at least 64 logical px: tabs and page buttons are pressed by players
_TAB_Y = 22
_CONTENT = pygame.Rect(70, 194, LOGICAL_W - 140, 726)
_FOOTER_Y = 944
_BAR_Y = LOGICAL_H - 22 - BUTTON_H
_NAVY = (8, 18, 38)
_NAVY_LIGHT = (20, 38, 70)
_ROW_DARK = (12, 26, 50)
_ROW_LIGHT = (20, 40, 72)
_ROW_GOLD = (58, 44, 16)
_RULE = theme.GOLD_DARK


class HelpScene(Scene):
    """The paytable and rules, page by page, over the table (SPEC §6)."""

    opaque = True
    name = "help"

    def __init__(self, ctx: Context, page: int = 0) -> None:
        super().__init__(ctx)
        self.page = page
        self._paytable: Paytable | None = None
        self._pages: list[HelpPage] = []
        self._rendered: dict[int, _Rendered] = {}

    @property
    def pages(self) -> list[HelpPage]:
        """The pages of the table's active paytable (rebuilt when it is switched)."""
        paytable = self.ctx.table.state.paytable
        if paytable is not self._paytable:
            self._paytable = paytable
            self._pages = help_pages(paytable)
            self._rendered.clear()
        return self._pages

    @property
    def current(self) -> HelpPage:
        return self.pages[self._index()]

    def show(self, page: int) -> None:
        """Turn to ``page`` (clamped to the pages there are)."""
        self.page = max(0, min(page, len(self.pages) - 1))

    def buttons(self, now: float) -> Sequence[Button]:
        pages = self.pages
        index = self._index()
        out: list[Button] = []
        width = min(330, (LOGICAL_W - 2 * 70 - 12 * (len(pages) - 1)) // len(pages))
        left = (LOGICAL_W - len(pages) * width - 12 * (len(pages) - 1)) // 2
        for i, page in enumerate(pages):
            out.append(Button((left + i * (width + 12), _TAB_Y, width, BUTTON_H), page.tab,
                              f"tab:{i}", hot=i == index, colour=_NAVY_LIGHT, size=26))
        out.append(Button((70, _BAR_Y, 260, BUTTON_H), "◀  PREV", "prev", enabled=index > 0,
                          size=28))
        out.append(Button((LOGICAL_W - 70 - 260 - 24 - 260, _BAR_Y, 260, BUTTON_H), "NEXT  ▶",
                          "next", enabled=index < len(pages) - 1, size=28))
        out.append(Button((LOGICAL_W - 70 - 260, _BAR_Y, 260, BUTTON_H), "CLOSE", "close",
                          colour=(128, 24, 32), size=28))
        return out

    def handle(self, event: Input) -> bool:
        """Taps on the tabs and buttons; Left / Right turn the page; Escape closes, as do the
        keys that open help (F9, H).

        Other keys fall through to the scenes below, so the dealer's keys keep working.
        """
        if isinstance(event, Tap):
            tag = event.button.tag
            if tag == "prev":
                self.show(self._index() - 1)
            elif tag == "next":
                self.show(self._index() + 1)
            elif tag == "close":
                self.ctx.go(Close(self))
            elif tag.startswith("tab:"):
                self.show(int(tag.removeprefix("tab:")))
            return True
        if not isinstance(event, KeyPress):
            return False
        if event.key == pygame.K_LEFT:
            self.show(self._index() - 1)
        elif event.key == pygame.K_RIGHT:
            self.show(self._index() + 1)
        elif event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE, pygame.K_F9, pygame.K_h):
            self.ctx.go(Close(self))
        else:
            return False
        return True

    def draw(self, surface: pygame.Surface, now: float) -> None:
        index = self._index()
        rendered = self._rendered.get(index)
        if rendered is None:
            rendered = self._rendered[index] = _render_page(self.pages[index])
        surface.blit(rendered.surface, (0, 0))
        state = self.ctx.table.state
        for level, slot in rendered.meters:
            meter = state.meter(level)
            amount = format_cents(meter.cents) if meter is not None else "—"
            draw_text(surface, amount, slot.height - 6, theme.WIN, slot.midright, "midright",
                      shadow=True, max_width=slot.width)
        pressed = self.ctx.pressed_tags(self)
        for button in self.buttons(now):
            draw_button(surface, button, button.tag in pressed)
        _draw_page_dots(surface, index, len(self.pages))

    def _index(self) -> int:
        return max(0, min(self.page, len(self.pages) - 1))


# --------------------------------------------------------------------------- drawing pages


def _draw_page_dots(surface: pygame.Surface, index: int, count: int) -> None:
    """``PAGE 2 OF 5`` between the page buttons over one dot per page, the current one gold."""
    cx, cy = LOGICAL_W // 2, _BAR_Y + BUTTON_H // 2
    draw_text(surface, f"PAGE {index + 1} OF {count}", 22, theme.TEXT_DIM, (cx, cy - 16))
    step = 26
    left = cx - step * (count - 1) // 2
    for i in range(count):
        centre = (left + i * step, cy + 18)
        if i == index:
            pygame.draw.circle(surface, theme.GOLD, centre, 8)
        else:
            pygame.draw.circle(surface, theme.TEXT_DIM, centre, 6, width=2)


@dataclass
class _Rendered:
    surface: pygame.Surface
    meters: list[tuple[ProgressiveLevel, pygame.Rect]] = field(default_factory=list)
    squeezed: bool = False  # a chart had to be set smaller than the text around it


@dataclass(frozen=True)
class _Sizes:
    """Type sizes at one scale; a page too long for the card is set smaller."""

    scale: float

    def __call__(self, size: int) -> int:
        return max(12, round(size * self.scale))


_SCALES = (1.24, 1.16, 1.08, 1.0, 0.94, 0.88, 0.82, 0.76, 0.7, 0.64)


@lru_cache(maxsize=16)
def _render_page(page: HelpPage) -> _Rendered:
    """The page drawn on the backdrop, and where its live meters go; shared, so never drawn on."""
    surface = _backdrop().copy()
    draw_text(surface, page.title, 50, theme.GOLD, (LOGICAL_W // 2, 146), style=Style.SERIF,
              shadow=True)
    title_w = text(page.title, 50, theme.GOLD, Style.SERIF).get_width()
    for side in (-1, 1):
        inner = LOGICAL_W // 2 + side * (title_w // 2 + 30)
        outer = LOGICAL_W // 2 + side * (title_w // 2 + 330)
        pygame.draw.line(surface, theme.GOLD_DARK, (inner, 146), (outer, 146), 2)
        pygame.draw.circle(surface, theme.GOLD, (inner, 146), 5)
    draw_text(surface, page.footer, 19, theme.TEXT_DIM, (LOGICAL_W // 2, _FOOTER_Y),
              style=Style.REGULAR, max_width=_CONTENT.width)
    weights = page.widths or (1,) * len(page.columns)
    gap = 56
    usable = _CONTENT.width - gap * (len(page.columns) - 1)
    widths = [usable * w // sum(weights) for w in weights]
    # The largest type that fits the card, preferring a scale where no chart is squeezed.
    fitting: list[list[_Rendered]] = []
    for scale in _SCALES:
        sizes = _Sizes(scale)
        columns = [_render_column(blocks, width, sizes)
                   for blocks, width in zip(page.columns, widths, strict=True)]
        if all(c.surface.get_height() <= _CONTENT.height for c in columns):
            if not any(c.squeezed for c in columns):
                break
            fitting.append(columns)
    else:
        columns = fitting[0] if fitting else columns
    rendered = _Rendered(surface)
    x = _CONTENT.x
    tallest = max(c.surface.get_height() for c in columns)
    top = _CONTENT.y + max(0, _CONTENT.height - tallest) // 3  # a short page sits high
    for column, width in zip(columns, widths, strict=True):
        y = top
        surface.blit(column.surface, (x, y), area=pygame.Rect(0, 0, width, _CONTENT.height))
        rendered.meters += [(level, slot.move(x, y)) for level, slot in column.meters]
        x += width + gap
    if len(columns) > 1:
        x = _CONTENT.x
        for width in widths[:-1]:
            x += width + gap // 2
            pygame.draw.line(surface, shade(theme.GOLD_DARK, 0.7), (x, top + 10),
                             (x, top + tallest - 10), 1)
            x += gap - gap // 2
    return rendered


def _render_column(blocks: Sequence[Block], width: int, sizes: _Sizes) -> _Rendered:
    """Blocks top to bottom on a transparent surface as tall as they need."""
    parts = [_render_block(block, width, sizes) for block in blocks]
    spacing = sizes(18)
    height = sum(p.surface.get_height() for p in parts) + spacing * max(0, len(parts) - 1)
    out = pygame.Surface((width, max(1, height)), pygame.SRCALPHA)
    rendered = _Rendered(out, squeezed=any(p.squeezed for p in parts))
    y = 0
    for part in parts:
        out.blit(part.surface, (0, y))
        rendered.meters += [(level, slot.move(0, y)) for level, slot in part.meters]
        y += part.surface.get_height() + spacing
    return rendered


def _render_block(block: Block, width: int, sizes: _Sizes) -> _Rendered:
    if isinstance(block, Heading):
        return _Rendered(_render_heading(block.text, width, sizes))
    if isinstance(block, Paragraph):
        size = sizes(21) if block.note else sizes(25)
        colour = theme.TEXT_DIM if block.note else theme.CREAM
        style = Style.REGULAR
        return _Rendered(_render_lines(_wrap(block.text, size, style, width), size, colour,
                                       style))
    if isinstance(block, Steps):
        return _Rendered(_render_steps(block, width, sizes))
    if isinstance(block, Chart):
        return _render_chart(block, width, sizes)
    if isinstance(block, Callout):
        return _Rendered(_render_callout(block, width, sizes))
    return _render_meter(block, width, sizes)


def _render_heading(words: str, width: int, sizes: _Sizes) -> pygame.Surface:
    size = sizes(27)
    label = fit_text(words, size, theme.GOLD, width, Style.BOLD)
    out = pygame.Surface((width, label.get_height() + 8), pygame.SRCALPHA)
    out.blit(label, (0, 0))
    y = label.get_height() + 3
    pygame.draw.line(out, theme.GOLD_DARK, (0, y), (width, y), 2)
    return out


def _render_lines(lines: list[str], size: int, colour: theme.RGB,
                  style: Style) -> pygame.Surface:
    line_h = round(font(size, style).get_linesize() * 1.08)
    width = max([font(size, style).size(line)[0] for line in lines] + [1])
    out = pygame.Surface((width, max(1, line_h * len(lines))), pygame.SRCALPHA)
    for i, line in enumerate(lines):
        out.blit(text(line, size, colour, style), (0, i * line_h))
    return out


def _wrap(words: str, size: int, style: Style, width: int) -> list[str]:
    """Greedy word wrap by the font's metrics; a word wider than the line gets its own line."""
    measure = font(size, style).size
    lines: list[str] = []
    line = ""
    for word in words.split():
        candidate = f"{line} {word}" if line else word
        if line and measure(candidate)[0] > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines or [""]


def _render_steps(block: Steps, width: int, sizes: _Sizes) -> pygame.Surface:
    badge = sizes(44)
    indent = badge + sizes(18)
    head_size, body_size = sizes(24), sizes(23)
    parts: list[pygame.Surface] = []
    for number, (head, body) in enumerate(block.items, start=1):
        head_s = text(head, head_size, theme.GOLD, Style.BOLD)
        body_s = _render_lines(_wrap(body, body_size, Style.REGULAR, width - indent), body_size,
                               theme.CREAM, Style.REGULAR)
        h = max(badge, head_s.get_height() + body_s.get_height())
        part = pygame.Surface((width, h), pygame.SRCALPHA)
        centre = (badge // 2, badge // 2)
        pygame.draw.circle(part, theme.GOLD_DARK, centre, badge // 2)
        pygame.draw.circle(part, theme.GOLD, centre, badge // 2 - 3)
        digit = text(str(number), sizes(24), theme.INK, Style.SERIF)
        part.blit(digit, digit.get_rect(center=centre))
        part.blit(head_s, (indent, 0))
        part.blit(body_s, (indent, head_s.get_height()))
        parts.append(part)
    gap = sizes(12)
    out = pygame.Surface((width, sum(p.get_height() for p in parts) + gap * (len(parts) - 1)),
                         pygame.SRCALPHA)
    y = 0
    for part in parts:
        out.blit(part, (0, y))
        y += part.get_height() + gap
    return out


def _render_chart(chart: Chart, width: int, sizes: _Sizes) -> _Rendered:
    """Header band, zebra rows with gold rules, columns sized to their widest cell."""
    columns = len(chart.headers)
    details = chart.details or ("",) * len(chart.rows)
    has_header = any(chart.headers)
    pad = sizes(14)
    head_size = sizes(19)
    cell_size, detail_size = sizes(24), sizes(18)
    wanted_size = cell_size

    def style_of(row: int, col: int) -> Style:
        return Style.BOLD if col == 0 or row in chart.strong else Style.REGULAR

    def natural(col: int, size: int) -> int:
        cells = [font(size, style_of(i, col)).size(row[col])[0]
                 for i, row in enumerate(chart.rows) if col < len(row) - 1 or (
                     col == len(row) - 1 == columns - 1)]
        head = font(head_size, Style.BOLD).size(chart.headers[col])[0]
        return max([head, *cells]) + 2 * pad

    def column_widths(size: int) -> list[int]:
        wanted = [natural(c, size) for c in range(columns)]
        for i, row in enumerate(chart.rows):
            if len(row) < columns:  # a spanning last cell needs the room of the columns it spans
                last = len(row) - 1
                need = font(size, style_of(i, last)).size(row[last])[0] + 2 * pad
                wanted[last] += max(0, need - sum(wanted[last:]))
        return wanted

    # Set the chart one size smaller at a time until every column fits its natural width.
    while True:
        wanted = column_widths(cell_size)
        if sum(wanted) <= width or cell_size <= 14:
            break
        cell_size -= 1
        detail_size = max(13, cell_size * 3 // 4)
    spare = width - sum(wanted)
    if spare >= 0:
        # The widest left-aligned column (the names) takes the spare room.
        grow = max((c for c in range(columns) if chart.align[c] == "left"),
                   key=lambda c: wanted[c], default=0)
        wanted[grow] += spare
    else:
        wanted = [w * width // sum(wanted) for w in wanted]
    edges = [sum(wanted[:c]) for c in range(columns + 1)]
    head_h = round(font(head_size, Style.BOLD).get_linesize() * 1.6) if has_header else 0
    line_h = font(cell_size, Style.REGULAR).get_linesize()
    detail_h = font(detail_size, Style.REGULAR).get_linesize()
    base_h = round(line_h * 1.42)
    heights = [base_h + (detail_h if detail else 0) for detail in details]
    tops = [head_h + sum(heights[:i]) for i in range(len(heights) + 1)]
    out = pygame.Surface((width, tops[-1] + 2), pygame.SRCALPHA)
    if has_header:
        pygame.draw.rect(out, (*theme.GOLD_DARK, 110), (0, 0, width, head_h),
                         border_top_left_radius=8, border_top_right_radius=8)
    for i in range(len(chart.rows)):
        fill = _ROW_LIGHT if i % 2 else _ROW_DARK
        if i in chart.strong:
            fill = _ROW_GOLD
        pygame.draw.rect(out, (*fill, 240), (0, tops[i], width, heights[i]))
    pygame.draw.line(out, _RULE, (0, head_h), (width, head_h), 2)
    pygame.draw.line(out, _RULE, (0, tops[-1]), (width, tops[-1]), 2)

    def put(words: str, size: int, colour: theme.RGB, style: Style, left: int, right: int,
            cy: int, align: Align) -> None:
        label = fit_text(words, size, colour, right - left - 2 * pad, style)
        if align == "left":
            rect = label.get_rect(midleft=(left + pad, cy))
        elif align == "right":
            rect = label.get_rect(midright=(right - pad, cy))
        else:
            rect = label.get_rect(center=((left + right) // 2, cy))
        out.blit(label, rect)

    for c in range(columns):
        put(chart.headers[c], head_size, theme.GOLD, Style.BOLD, edges[c], edges[c + 1],
            head_h // 2, chart.align[c])
    for i, row in enumerate(chart.rows):
        strong = i in chart.strong
        cy = tops[i] + base_h // 2
        for c, words in enumerate(row):
            right = edges[c + 1] if c < len(row) - 1 else edges[-1]  # the last cell spans
            colour = theme.WIN if strong else (theme.WHITE if c == 0 else theme.CREAM)
            put(words, cell_size, colour, style_of(i, c), edges[c], right, cy,
                chart.align[min(c if c < len(row) - 1 else columns - 1, columns - 1)])
        if details[i]:
            put(details[i], detail_size, theme.TEXT_DIM if not strong else theme.GOLD,
                Style.REGULAR, 0, width,
                tops[i] + (base_h - line_h) // 2 + line_h + detail_h // 2 - 2, "left")
    return _Rendered(out, squeezed=cell_size < wanted_size)


def _render_callout(block: Callout, width: int, sizes: _Sizes) -> pygame.Surface:
    pad = sizes(18)
    title = text(block.title, sizes(26), theme.GOLD, Style.BOLD)
    body_size = sizes(23)
    body = _render_lines(_wrap(block.text, body_size, Style.REGULAR, width - 2 * pad - 8),
                         body_size, theme.CREAM, Style.REGULAR)
    h = pad + title.get_height() + sizes(4) + body.get_height() + pad
    out = pygame.Surface((width, h), pygame.SRCALPHA)
    draw_panel(out, out.get_rect(), (*_ROW_DARK, 235), theme.GOLD_DARK, radius=12, width=2)
    pygame.draw.rect(out, theme.GOLD, (0, sizes(14), 6, h - 2 * sizes(14)), border_radius=3)
    out.blit(title, (pad + 8, pad))
    out.blit(body, (pad + 8, pad + title.get_height() + sizes(4)))
    return out


def _render_meter(block: LiveMeter, width: int, sizes: _Sizes) -> _Rendered:
    h = sizes(96)
    out = pygame.Surface((width, h), pygame.SRCALPHA)
    rect = out.get_rect()
    draw_panel(out, rect, (4, 8, 16), theme.GOLD, radius=12, width=3)
    pygame.draw.rect(out, theme.GOLD_DARK, rect.inflate(-10, -10), width=1, border_radius=9)
    label = fit_text(block.label, sizes(28), theme.GOLD, width // 2, Style.BOLD)
    note = fit_text(block.note, sizes(18), theme.TEXT_DIM, width // 2, Style.REGULAR)
    total = label.get_height() + note.get_height()
    out.blit(label, (sizes(20), (h - total) // 2))
    out.blit(note, (sizes(20), (h - total) // 2 + label.get_height()))
    slot_w = width - sizes(20) * 2 - max(label.get_width(), note.get_width()) - sizes(16)
    slot = pygame.Rect(width - sizes(20) - slot_w, (h - sizes(52)) // 2, slot_w, sizes(52))
    return _Rendered(out, [(block.level, slot)])


@lru_cache(maxsize=1)
def _backdrop() -> pygame.Surface:
    """Dark navy with a soft centre glow and a gold double frame: the rack card's stock."""
    surface = pygame.Surface((LOGICAL_W, LOGICAL_H))
    for y in range(LOGICAL_H):
        t = abs(y - LOGICAL_H * 0.45) / (LOGICAL_H * 0.55)
        colour = tuple(round(a + (b - a) * t) for a, b in zip(_NAVY_LIGHT, _NAVY, strict=True))
        pygame.draw.line(surface, colour, (0, y), (LOGICAL_W, y))
    # A faint diamond lattice, like the printed card's background.
    lattice = pygame.Surface((LOGICAL_W, LOGICAL_H), pygame.SRCALPHA)
    step = 48
    for x in range(-LOGICAL_H, LOGICAL_W, step):
        pygame.draw.line(lattice, (255, 255, 255, 7), (x, 0), (x + LOGICAL_H, LOGICAL_H))
        pygame.draw.line(lattice, (255, 255, 255, 7), (x + LOGICAL_H, 0), (x, LOGICAL_H))
    surface.blit(lattice, (0, 0))
    frame = pygame.Rect(18, 106, LOGICAL_W - 36, LOGICAL_H - 106 - 108)
    pygame.draw.rect(surface, theme.GOLD_DARK, frame, width=3, border_radius=22)
    pygame.draw.rect(surface, shade(theme.GOLD_DARK, 0.7), frame.inflate(-14, -14), width=1,
                     border_radius=16)
    return surface

