"""The words the help pages share, and the lines the attract mode shows, from the paytable.

Money, odds and lists said the same way on every page; what triggers the
Bonus Spin and what a War pays under the paytable's War form; and the short
lines of the attract mode (:func:`highlights`, :func:`feature_pays`,
:func:`limits_line`, :func:`meter_label`), so the idle table advertises
exactly what the help pages say. Nothing here draws.
"""

from __future__ import annotations

from collections.abc import Sequence

from etg.core.cards import Rank
from etg.core.money import format_cents
from etg.core.paytable import (
    BonusSpin,
    DesignatedCard,
    Odds,
    PayoutHand,
    Paytable,
    ProgressiveLevel,
    WarForm,
)

# MD Ch. 10 D(4) and C(2), as etg.core.progressive.award pays a meter.
METER_RULE = ("A meter award is figured on what the meter shows when that player is paid; "
              "the meter keeps the rest, topped up to its reset amount if it falls below.")


def highlights(paytable: Paytable) -> list[str]:
    """Short lines of what the paytable pays, for the attract mode to cycle through."""
    p = paytable.payouts
    out = [f"BEAT THE DEALER · PAYS {odds(p.initial)}".upper(),
           f"TIE WAGER PAYS {odds(p.tie)}".upper()]
    war_win, war_tie = _war_odds_words(paytable)
    out.append(f"WIN THE WAR · {war_win}".upper())
    out.append(f"TIE THE WAR · {war_tie}".upper())
    bonus = paytable.bonus_spin
    if bonus is not None:
        out.append(f"{trigger_words(bonus)} spins the Bonus Spin Xtreme wheel".upper())
        top = bonus.column(max(bonus.denominations_cents))
        top_community = max(s.pay_cents(top) for s in bonus.community_ring)
        out.append(f"Community Pay up to {money(top_community)} for every player".upper())
        jackpots = [s.symbol for s in bonus.hot_spot_ring if s.progressive is not None]
        top_hot = max(s.pay_cents(top) for s in bonus.hot_spot_ring)
        out.append(f"Hot Spot wins {or_list([*jackpots, 'up to ' + money(top_hot)])}".upper())
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
                out.append(f"Envy Bonus {money(payout.envy_cents.of(hand))} when another "
                           f"player hits a {hand.label}".upper())
    return out


def feature_pays(paytable: Paytable) -> list[tuple[str, str]]:
    """The main game's headline pays as (label, odds), for a sign with no jackpot to show."""
    p = paytable.payouts
    war_win, war_tie = war_odds(paytable)
    return [("TIE WAGER PAYS", odds(p.tie).upper()),
            ("WIN THE WAR", war_win.upper()),
            ("TIE THE WAR", war_tie.upper())]


def limits_line(paytable: Paytable) -> str:
    """The table limits in one line, e.g. ``TABLE LIMITS $5 – $500  ·  TIE $1 – $100``."""
    lim = paytable.limits
    return (f"TABLE LIMITS {money(lim.initial.min_cents)} – {money(lim.initial.max_cents)}"
            f"  ·  TIE {money(lim.tie.min_cents)} – {money(lim.tie.max_cents)}")


def meter_label(paytable: Paytable, level: ProgressiveLevel) -> str:
    """A meter's name as players see it: the Hot Spot symbol that pays it, else its wager."""
    if paytable.bonus_spin is not None and level is not ProgressiveLevel.PROGRESSIVE_PAYOUT:
        for segment in paytable.bonus_spin.hot_spot_ring:
            if segment.progressive is level:
                return segment.symbol.upper()
    return level.value.replace("_", " ").upper()


def money(cents: int) -> str:
    """An amount as the pages say it: ``$5``, ``$2.50``."""
    return format_cents(cents, whole_dollars=True)


def odds(pay: Odds) -> str:
    """``3 to 1``."""
    return f"{pay.pays} to {pay.to}"


def or_list(words: Sequence[str]) -> str:
    """``a, b or c``."""
    items = list(words)
    return ", ".join(items[:-1]) + " or " + items[-1] if len(items) > 1 else "".join(items)


def denominations(b: BonusSpin) -> list[str]:
    """The Bonus Spin wagers a player may place, as amounts."""
    return [money(d) for d in b.denominations_cents]


_RANK_NAMES = {Rank.ACE: "Ace", Rank.KING: "King", Rank.QUEEN: "Queen", Rank.JACK: "Jack"}


def _card_words(card: DesignatedCard) -> str:
    rank = Rank.parse(card.rank)
    return f"a {card.colour.value} {_RANK_NAMES.get(rank, rank.label)}"


def trigger_words(b: BonusSpin) -> str:
    """The dealer's cards that spin the wheel, e.g. ``a red Ace``."""
    return or_list([_card_words(c) for c in b.trigger])


def war_odds(p: Paytable) -> tuple[str, str]:
    """The PAYS column of a War win and a War tie under the paytable's War form."""
    o = p.payouts
    if p.war_form is WarForm.DEALER_MATCHED:
        return f"{odds(o.war)} on both wagers", f"{odds(o.war_tie)} on both wagers"
    return odds(o.war), odds(o.war_tie)


def _war_odds_words(p: Paytable) -> tuple[str, str]:
    win, tie = war_odds(p)
    return f"War Wager pays {win}", f"War Wager pays {tie}"
