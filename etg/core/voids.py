"""A supervisor's single-wager void (MD Ch. 11 C), while no card has been dealt to the wager.

"If a card is not dealt to a player's Initial Wager or Tie Wager in the original
deal, the wager shall be void and returned to the player" (MD Ch. 11 C; the same
words in 58 Pa. Code § 651a.11(c)). On an electronic table the supervisor
decides that a wager is void; this module says which wagers a
:class:`~etg.core.commands.VoidWager` names, refuses what cannot be voided, and
returns the stakes. A wager whose card is on the table is settled by the rules,
never returned by hand (SPEC §2), so a void comes before the card that decides
the wager: the spot's card for the Initial, Tie and Progressive Payout Wagers,
the spot's War card for the War Wager and the War deal's Tie Wager, and the
dealer's card, which decides the trigger, for the Bonus Spin wager. The round
goes on for everything else.

A voided Progressive Payout or Bonus Spin wager leaves its progressive
contribution on the meter: it was taken at No More Bets from the wagers the
progressive system accepted (MD Ch. 8 D(1); Ch. 10 C(1), D(3)(a)), a meter
shown to the players only goes down by an award, and the stake comes back
whole, so the house funds that share. The meters of the ledger stay as they
were, apart from the void meter.
"""

from __future__ import annotations

from etg.core.cards import Card
from etg.core.cashier import Cashier
from etg.core.commands import VoidTarget, VoidWager
from etg.core.events import WagerVoided
from etg.core.refusal import Reason, Refused
from etg.core.settle import Payment, Result, WagerKind
from etg.core.state import IN_PLAY, Phase, SpotWagers, TableState

_CH_11_C = "MD Ch. 11 C"
_KINDS = {
    VoidTarget.SPOT: frozenset({WagerKind.INITIAL, WagerKind.TIE, WagerKind.WAR,
                                WagerKind.WAR_TIE, WagerKind.PROGRESSIVE_PAYOUT}),
    VoidTarget.TIE: frozenset({WagerKind.TIE, WagerKind.WAR_TIE}),
    VoidTarget.PROGRESSIVE_PAYOUT: frozenset({WagerKind.PROGRESSIVE_PAYOUT}),
    VoidTarget.BONUS_SPIN: frozenset({WagerKind.BONUS_SPIN}),
}
"""The kinds of wager each target names: a settlement of one of them means it came too late."""
_KIND_WORDS = {WagerKind.INITIAL: "Initial Wager", WagerKind.TIE: "Tie Wager",
               WagerKind.WAR: "War Wager", WagerKind.WAR_TIE: "War deal's Tie Wager",
               WagerKind.PROGRESSIVE_PAYOUT: "Progressive Payout Wager",
               WagerKind.BONUS_SPIN: "Bonus Spin wager"}
_WAR_DEAL = frozenset({WagerKind.WAR, WagerKind.WAR_TIE})
"""The wagers whose card is the spot's War card; the others' is dealt in the original deal."""
_BONUS_SPIN_CARD = " (the dealer's card decides the Bonus Spin trigger)"
_TARGET_WORDS = {VoidTarget.SPOT: "wagers", VoidTarget.TIE: "Tie Wager",
                 VoidTarget.PROGRESSIVE_PAYOUT: "Progressive Payout Wager",
                 VoidTarget.BONUS_SPIN: "Bonus Spin wager"}


def voided_wagers(s: TableState, c: VoidWager) -> list[Payment]:
    """The wagers ``c`` returns, each a Payment of its whole stake; raises :class:`Refused`."""
    if s.phase is Phase.BETTING:
        raise Refused(Reason.WRONG_PHASE, "while betting is open a player takes back a wager "
                                          "with CLEAR; a supervisor voids a wager once it is "
                                          f"locked at No More Bets (MD Ch. 7 D, {_CH_11_C})")
    if s.phase not in IN_PLAY:
        raise Refused(Reason.WRONG_PHASE, f"there is no round in progress to void a wager of "
                                          f"(the table is {s.phase.value}; {_CH_11_C})")
    if not c.reason.strip():
        raise Refused(Reason.REASON_REQUIRED, f"a void needs a reason ({_CH_11_C})")
    if not 1 <= c.seat <= s.paytable.seats:
        raise Refused(Reason.NO_SUCH_SEAT, f"there is no seat {c.seat}")
    if c.target is VoidTarget.BONUS_SPIN:
        if c.spot != 0:
            raise Refused(Reason.NO_SUCH_SPOT, "the Bonus Spin wager is the seat's own: "
                                               "spot 0, not a spot on the layout")
        stake = s.round.bonus_spin[c.seat - 1]
        wagers = [(WagerKind.BONUS_SPIN, stake)] if stake else []
    else:
        if not 1 <= c.spot <= s.paytable.spot_count:
            raise Refused(Reason.NO_SUCH_SPOT, f"there is no spot {c.spot}")
        wagers = _on_spot(s.round.wagers[c.seat - 1][c.spot - 1], c.target)
    where = "" if c.target is VoidTarget.BONUS_SPIN else f" on spot {c.spot}"
    if not wagers:
        what = _TARGET_WORDS[c.target]
        kinds = _KINDS[c.target]
        if any(e.seat == c.seat and e.spot == c.spot and e.payment.kind in kinds
               for e in s.round.results):
            raise Refused(Reason.ALREADY_SETTLED,
                          f"seat {c.seat}'s {what}{where} is already settled: a wager is "
                          f"voided only before it is settled ({_CH_11_C})")
        raise Refused(Reason.NOTHING_TO_VOID,
                      f"seat {c.seat} has no {what}{where} to void ({_CH_11_C})")
    for kind, _stake in wagers:
        if _card_of(s, kind, c.spot) is not None:
            raise Refused(Reason.CARD_DEALT,
                          f"seat {c.seat}'s {_KIND_WORDS[kind]}{where} has its card on the "
                          f"table{_BONUS_SPIN_CARD if kind is WagerKind.BONUS_SPIN else ''}: "
                          f"the rules settle it; only a wager that got no card is void "
                          f"({_CH_11_C})")
    return [Payment(kind, Result.VOIDED, stake, stake) for kind, stake in wagers]


def void_wagers(cashier: Cashier, c: VoidWager, wagers: list[Payment]) -> WagerVoided:
    """Return ``wagers`` to the seat and say so."""
    amount = cashier.give_back(c.seat, c.spot, wagers)
    event = WagerVoided(c.seat, c.spot, c.target, tuple(wagers), amount,
                        cashier.credits[c.seat - 1], c.reason.strip())
    cashier.events.add(event)
    return event


def _card_of(s: TableState, kind: WagerKind, spot: int) -> Card | None:
    """The card dealt to a wager of ``kind`` on ``spot``, or None while it has none."""
    r = s.round
    if kind is WagerKind.BONUS_SPIN:
        return r.dealer_card  # the Bonus Spin trigger (SPEC §3)
    if kind in _WAR_DEAL:
        return r.war_cards[spot - 1] if r.war_cards else None  # MD Ch. 9 H
    return r.spot_cards[spot - 1]  # the original deal (MD Ch. 8 F)


def _on_spot(w: SpotWagers, target: VoidTarget) -> list[tuple[WagerKind, int]]:
    """The (kind, stake) pairs still on the layout that ``target`` names on one spot."""
    if target is VoidTarget.TIE:
        # At most one is on the layout: the original deal's Tie is settled before a War
        # deal's Tie can be placed (MD Ch. 7 F(2), Ch. 9 B).
        pairs = [(WagerKind.TIE, w.tie), (WagerKind.WAR_TIE, w.war_tie)]
    elif target is VoidTarget.PROGRESSIVE_PAYOUT:
        pairs = [(WagerKind.PROGRESSIVE_PAYOUT, w.progressive_payout)]
    else:
        pairs = [(WagerKind.INITIAL, w.initial), (WagerKind.TIE, w.tie), (WagerKind.WAR, w.war),
                 (WagerKind.WAR_TIE, w.war_tie),
                 (WagerKind.PROGRESSIVE_PAYOUT, w.progressive_payout)]
    return [(kind, stake) for kind, stake in pairs if stake]
